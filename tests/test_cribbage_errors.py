"""Bad input (issue 2 item 10): each case raises ValueError or TypeError and the message names
the culprit (the text, the id, the size, the row, the dtype, the shape)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cribpiquet.cribbage import (
    Card,
    explain_hand,
    explain_hand_batch,
    explain_peg,
    go_points,
    hand_distribution,
    heels_points,
    parse_cards,
    peg_points,
    peg_points_batch,
    score_hand,
    score_hand_batch,
)

# ------------------------------------------------------------------------ unknown card text


@pytest.mark.parametrize("text", ["1H", "5X", "11H", "ZZ", "H", "5", "5HH", "10", "♥5"])
def test_unknown_card_text(text):
    with pytest.raises(ValueError, match=re.escape(f'"{text}"')):
        Card(text)


def test_empty_card_text():
    with pytest.raises(ValueError, match='unknown card ""'):
        Card("")


@pytest.mark.parametrize(
    "call",
    [
        lambda: score_hand("5H 1H 5S JC", "5C"),
        lambda: score_hand(["5H", "1H", "5S", "JC"], "5C"),
        lambda: score_hand("5H 5D 5S JC", "1H"),
        lambda: explain_hand("5H 5D 1H", "5C"),
        lambda: parse_cards("AH 1H"),
        lambda: peg_points("3C 1H"),
        lambda: explain_peg(["3C", "1H"]),
        lambda: heels_points("1H"),
    ],
)
def test_unknown_card_text_inside_every_api(call):
    with pytest.raises(ValueError, match='"1H"'):
        call()


def test_unknown_suit_inside_a_group():
    with pytest.raises(ValueError, match='"5X"'):
        score_hand("5X 5D 5S JC", "5C")


# ------------------------------------------------------------------------- id out of range


@pytest.mark.parametrize("bad", [-1, 52, 2**40, 2**70, -(2**70)])
def test_card_id_out_of_range(bad):
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        Card(bad)


@pytest.mark.parametrize("bad", [-1, 52, 2**40, 2**70])
def test_card_id_out_of_range_in_a_hand(bad):
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        score_hand([1, 2, 3, bad], 5)


@pytest.mark.parametrize("bad", [-1, 52, 2**40, 2**70])
def test_card_id_out_of_range_as_starter(bad):
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        score_hand([1, 2, 3, 4], bad)
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        heels_points(bad)


@pytest.mark.parametrize("bad", [-1, 52, 2**40, 2**70])
def test_card_id_out_of_range_in_pegging(bad):
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        peg_points([1, bad])
    with pytest.raises(ValueError, match=re.escape(str(bad))):
        parse_cards((1, bad))


def test_numpy_scalar_id_out_of_range():
    with pytest.raises(ValueError, match="52"):
        Card(np.int64(52))
    with pytest.raises(ValueError, match="200"):
        Card(np.uint8(200))


# -------------------------------------------------------------------------- wrong hand size


def test_hand_of_two_cards():
    with pytest.raises(ValueError, match="got 2"):
        score_hand("5H 5D", "5C")
    with pytest.raises(ValueError, match="hand.*got 2"):
        explain_hand([1, 2], 5)


def test_hand_of_five_cards():
    with pytest.raises(ValueError, match="hand.*got 5"):
        score_hand("5H 5D 5S JC 2C", "5C")
    with pytest.raises(ValueError, match="got 5"):
        explain_hand([1, 2, 3, 4, 6], 5)


def test_crib_of_three_cards():
    # rules §2: the crib is four cards + starter (a 3-card hand is legal only as a hand).
    with pytest.raises(ValueError, match="crib.*got 3"):
        score_hand("5H 5D 5S", "5C", crib=True)
    with pytest.raises(ValueError, match="crib.*got 3"):
        explain_hand([1, 2, 3], 5, crib=True)


def test_crib_of_five_cards():
    with pytest.raises(ValueError, match="crib.*got 5"):
        score_hand([1, 2, 3, 4, 6], 5, crib=True)


def test_empty_hand():
    with pytest.raises(ValueError, match="got 0"):
        score_hand("", "5C")
    with pytest.raises(ValueError, match="got 0"):
        score_hand([], 4)


# ---------------------------------------------------------------------------------- duplicates


def test_duplicate_in_the_hand():
    with pytest.raises(ValueError, match="duplicate card 5H"):
        score_hand("5H 5H 5S JC", "5C")
    with pytest.raises(ValueError, match="duplicate card 5H"):
        score_hand(["5H", "5h", "5S", "JC"], "5C")  # the same card spelled twice
    with pytest.raises(ValueError, match="duplicate card 5H"):
        explain_hand([30, Card("5♥"), 43, 10], 4)


def test_duplicate_between_hand_and_starter():
    with pytest.raises(ValueError, match="duplicate card 5C"):
        score_hand("5H 5D 5S 5C", "5C")
    with pytest.raises(ValueError, match="duplicate card JC"):
        explain_hand([10, 17, 30, 43], "JC", crib=True)


def test_duplicate_in_a_pegging_sequence():
    with pytest.raises(ValueError, match="duplicate card 5C"):
        peg_points("5C 6D 5C")
    with pytest.raises(ValueError, match="duplicate card 5C"):
        explain_peg([4, 4])


# --------------------------------------------------- floats, None, objects, bools for an id


@pytest.mark.parametrize(
    "bad,name",
    [
        (1.0, "float"),
        (17.5, "float"),
        (None, "NoneType"),
        (object(), "object"),
        (np.float64(3), "float64"),
        (b"5H", "bytes"),
    ],
)
def test_non_card_values(bad, name):
    with pytest.raises(TypeError, match=name):
        Card(bad)
    with pytest.raises(TypeError, match=name):
        score_hand([1, 2, 3, bad], 5)
    with pytest.raises(TypeError, match=name):
        score_hand([1, 2, 3, 4], bad)
    with pytest.raises(TypeError, match=name):
        peg_points([1, bad])
    with pytest.raises(TypeError, match=name):
        heels_points(bad)


@pytest.mark.parametrize("bad", [True, False, np.bool_(True)])
def test_bools_are_not_card_ids(bad):
    with pytest.raises(TypeError, match="bool"):
        Card(bad)
    with pytest.raises(TypeError, match="bool"):
        score_hand([1, 2, 3, bad], 5)
    with pytest.raises(TypeError, match="bool"):
        score_hand([1, 2, 3, 4], bad)


@pytest.mark.parametrize("bad,name", [(None, "NoneType"), (5, "int"), (Card(3), "Card"), (3.5, "float")])
def test_non_group_where_a_group_belongs(bad, name):
    with pytest.raises(TypeError, match=name):
        score_hand(bad, 5)
    with pytest.raises(TypeError, match=name):
        peg_points(bad)
    with pytest.raises(TypeError, match=name):
        parse_cards(bad)


def test_go_points_bad_values():
    with pytest.raises(ValueError, match="-1"):
        go_points(-1)
    with pytest.raises(ValueError, match="32"):
        go_points(32)
    with pytest.raises(TypeError):
        go_points(3.5)


def test_go_points_huge_count_names_the_count():
    # A count of 2**40 is past 31; the message must name the count given, not a clamped value.
    with pytest.raises(ValueError, match=str(2**40)):
        go_points(2**40)


def test_go_points_count_too_large_for_64_bits_is_a_value_error():
    # issue 2 item 10: bad input raises ValueError or TypeError (not OverflowError).
    with pytest.raises(ValueError, match=str(2**70)):
        go_points(2**70)


def test_unknown_distribution_kind():
    with pytest.raises(ValueError, match='"bogus"'):
        hand_distribution("bogus")
    with pytest.raises(ValueError, match='"Hand"'):
        hand_distribution("Hand")


def test_pegging_count_past_31():
    with pytest.raises(ValueError, match="32"):
        peg_points("KC KD KH 2S")
    with pytest.raises(ValueError, match="40"):
        explain_peg([9, 22, 35, 48])  # four tens: 40


def test_empty_pegging_sequence():
    with pytest.raises(ValueError, match="got 0"):
        peg_points("")
    with pytest.raises(ValueError, match="got 0"):
        explain_peg([])


# ------------------------------------------------------------------------------------ batches

H4 = [[10, 17, 30, 43]]  # J♣ 5♦ 5♥ 5♠
S1 = [4]  # 5♣


def test_batch_hands_wrong_rank():
    with pytest.raises(ValueError, match=re.escape("hands must be a 2-d array, got shape (4,)")):
        score_hand_batch([10, 17, 30, 43], S1)
    with pytest.raises(ValueError, match=re.escape("(1, 4, 1)")):
        score_hand_batch(np.zeros((1, 4, 1), np.int64), S1)
    with pytest.raises(ValueError, match=re.escape("hands must be a 2-d array, got shape ()")):
        explain_hand_batch(np.int64(3), S1)


def test_batch_starters_wrong_rank():
    with pytest.raises(ValueError, match=re.escape("starters must be a 1-d array, got shape (1, 1)")):
        score_hand_batch(H4, [[4]])
    with pytest.raises(ValueError, match=re.escape("starters must be a 1-d array, got shape ()")):
        score_hand_batch(H4, 4)


@pytest.mark.parametrize("width", [1, 2, 5, 6])
def test_batch_wrong_width(width):
    hands = np.arange(width * 3).reshape(3, width) + 5
    with pytest.raises(ValueError, match=f"got {width}"):
        score_hand_batch(hands, [0, 1, 2])
    with pytest.raises(ValueError, match=f"got {width}"):
        explain_hand_batch(hands, [0, 1, 2])


def test_batch_crib_needs_four_columns():
    with pytest.raises(ValueError, match="crib.*got 3"):
        score_hand_batch([[1, 2, 3]], [5], crib=True)
    with pytest.raises(ValueError, match="crib.*got 3"):
        explain_hand_batch([[1, 2, 3]], [5], crib=True)


@pytest.mark.parametrize(
    "hands,dtype_text",
    [
        (np.ones((2, 4)), "float64"),
        (np.ones((2, 4), np.float32), "float32"),
        (np.ones((2, 4), bool), "bool"),
        (np.ones((2, 4), object), "object"),
        (np.array([["5H", "5D", "5S", "JC"]] * 2), "<U2"),
        (np.ones((2, 4), complex), "complex"),
    ],
)
def test_batch_non_integer_dtypes(hands, dtype_text):
    with pytest.raises(TypeError, match=re.escape(f"hands must hold integer card ids, got dtype {dtype_text}")):
        score_hand_batch(hands, [4, 5])
    with pytest.raises(TypeError, match="hands must hold integer card ids"):
        explain_hand_batch(hands, [4, 5])


@pytest.mark.parametrize("starters", [[4.0], np.array([True]), np.array([None]), np.array(["5C"])])
def test_batch_non_integer_starters(starters):
    with pytest.raises(TypeError, match="starters must hold integer card ids"):
        score_hand_batch(H4, starters)


def test_batch_non_integer_sequences():
    with pytest.raises(TypeError, match="sequences must hold integer card ids, got dtype float64"):
        peg_points_batch(np.ones((2, 4)))
    with pytest.raises(TypeError, match="sequences must hold integer card ids, got dtype bool"):
        peg_points_batch(np.ones((2, 4), bool))


def test_batch_mismatched_rows():
    with pytest.raises(ValueError, match="hands has 2 rows but starters has 1"):
        score_hand_batch(H4 * 2, S1)
    with pytest.raises(ValueError, match="hands has 1 rows but starters has 3"):
        explain_hand_batch(H4, [4, 5, 6])


def _clean_rows(n=8):
    hands = np.array([[0, 1, 2, 3]] * n, np.int64)  # A♣ 2♣ 3♣ 4♣
    starters = np.full(n, 51, np.int64)  # K♠
    return hands, starters


@pytest.mark.parametrize("bad", [52, -1, 1000, 2**40])
def test_batch_out_of_range_id_names_row_and_id(bad):
    hands, starters = _clean_rows()
    hands[3, 2] = bad
    with pytest.raises(ValueError, match=re.escape(f"row 3: card id {bad} is out of range")):
        score_hand_batch(hands, starters)
    with pytest.raises(ValueError, match=re.escape(f"row 3: card id {bad}")):
        explain_hand_batch(hands, starters)


def test_batch_out_of_range_starter_names_row():
    hands, starters = _clean_rows()
    starters[3] = 52
    with pytest.raises(ValueError, match=re.escape("row 3: card id 52 is out of range")):
        score_hand_batch(hands, starters)


def test_batch_duplicate_in_row_names_row_and_card():
    hands, starters = _clean_rows()
    hands[3] = [0, 1, 2, 1]  # 2♣ twice
    with pytest.raises(ValueError, match=re.escape("row 3: duplicate card 2C")):
        score_hand_batch(hands, starters)
    with pytest.raises(ValueError, match=re.escape("row 3: duplicate card 2C")):
        explain_hand_batch(hands, starters, crib=True)


def test_batch_duplicate_with_starter_names_row_and_card():
    hands, starters = _clean_rows()
    starters[3] = 2  # 3♣ is in the hand
    with pytest.raises(ValueError, match=re.escape("row 3: duplicate card 3C")):
        score_hand_batch(hands, starters)


def test_batch_reports_the_first_bad_row():
    hands, starters = _clean_rows(n=10)
    hands[7, 0] = 99
    hands[3, 1] = 0
    with pytest.raises(ValueError, match=re.escape("row 3: duplicate card AC")):
        score_hand_batch(hands, starters)


def test_batch_reports_the_first_bad_row_in_a_parallel_batch():
    # 200,000 rows: several parallel chunks; the lowest bad row wins whatever the scheduling.
    n = 200_000
    hands = np.tile(np.array([[0, 1, 2, 3]], np.int32), (n, 1))
    starters = np.full(n, 51, np.int32)
    hands[190_000, 0] = 60
    hands[120_000, 1] = 52
    hands[45_000, 3] = 0  # A♣ twice
    for _ in range(5):
        with pytest.raises(ValueError, match=re.escape("row 45000: duplicate card AC")):
            score_hand_batch(hands, starters)
        with pytest.raises(ValueError, match=re.escape("row 45000: duplicate card AC")):
            explain_hand_batch(hands, starters)
    hands[45_000, 3] = 3
    with pytest.raises(ValueError, match=re.escape("row 120000: card id 52 is out of range")):
        score_hand_batch(hands, starters)


def test_batch_unsigned_and_signed_mix_names_the_id_given():
    # A uint64 id above 2**63 with int64 starters must be reported as given, not wrapped round.
    hands = np.array([[2**63 + 5, 1, 2, 3]], dtype=np.uint64)
    with pytest.raises(ValueError, match=re.escape(f"row 0: card id {2**63 + 5} is out of range")):
        score_hand_batch(hands, [4])
    hands = np.array([[2**64 - 1, 1, 2, 3]], dtype=np.uint64)
    with pytest.raises(ValueError, match=re.escape(f"row 0: card id {2**64 - 1} is out of range")):
        score_hand_batch(hands, np.array([4], np.int8))


def test_batch_unsigned_out_of_range():
    hands = np.array([[0, 1, 2, 3], [0, 1, 2, 255]], dtype=np.uint8)
    with pytest.raises(ValueError, match=re.escape("row 1: card id 255 is out of range")):
        score_hand_batch(hands, np.array([4, 4], np.uint8))


@pytest.mark.parametrize(
    "hands,starters",
    [
        ([], []),
        (np.empty((0, 4), np.int64), np.empty(0, np.int64)),
        (np.empty((0, 3), np.int8), np.empty(0, np.int8)),
        (np.empty((0, 4), np.uint64), np.empty(0, np.uint64)),
        (np.empty((0, 4)), np.empty(0)),  # numpy's default float64 empties
    ],
)
def test_empty_batch_returns_an_empty_uint8_array(hands, starters):
    out = score_hand_batch(hands, starters)
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == (0,)
    cols = explain_hand_batch(hands, starters)
    assert set(cols) == {"fifteens", "pairs", "runs", "flush", "nobs", "total"}
    for v in cols.values():
        assert v.dtype == np.uint8 and v.shape == (0,)


def test_empty_crib_batch():
    out = score_hand_batch(np.empty((0, 4), np.int16), np.empty(0, np.int16), crib=True)
    assert out.dtype == np.uint8 and out.shape == (0,)


def test_empty_peg_batch():
    out = peg_points_batch(np.empty((0, 13), np.int64))
    assert out.dtype == np.uint8 and out.shape == (0,)


# --------------------------------------------------------------------------- peg batch padding


def test_peg_batch_padding_only_at_the_end():
    rows = np.array([[2, 14, 30, -1], [2, -1, 14, -1]])
    with pytest.raises(ValueError, match=re.escape("row 1: card id 14 after the -1 padding")):
        peg_points_batch(rows)


def test_peg_batch_padding_is_accepted():
    # 3-2-5 then 4 (rules §3: 4) and 3-6-6 (4), padded
    rows = np.array([[2, 14, 30, 42, -1], [2, 18, 31, -1, -1]], np.int8)
    assert peg_points_batch(rows).tolist() == [4, 4]


def test_peg_batch_empty_row_rejected():
    rows = np.array([[2, 14, -1], [-1, -1, -1]])
    with pytest.raises(ValueError, match="row 1: .*got 0"):
        peg_points_batch(rows)


def test_peg_batch_too_wide_rejected():
    rows = np.full((2, 14), -1)
    rows[:, 0] = 5
    with pytest.raises(ValueError, match="width 14"):
        peg_points_batch(rows)


def test_peg_batch_zero_width_rejected():
    with pytest.raises(ValueError, match="width 0"):
        peg_points_batch(np.empty((3, 0), np.int64))


def test_peg_batch_count_past_31_rejected():
    rows = np.array([[0, 1, -1, -1], [0, -1, -1, -1], [12, 25, 38, 1]])  # K K K 2 = 32
    with pytest.raises(ValueError, match=re.escape("row 2: the count passes 31 (reaches 32)")):
        peg_points_batch(rows)


def test_peg_batch_bad_ids_and_duplicates():
    with pytest.raises(ValueError, match=re.escape("row 1: card id 52 is out of range")):
        peg_points_batch([[0, -1], [52, -1]])
    with pytest.raises(ValueError, match=re.escape("row 0: card id -2 is out of range")):
        peg_points_batch([[-2, -1]])
    with pytest.raises(ValueError, match=re.escape("row 0: duplicate card AC")):
        peg_points_batch([[0, 0]])


def test_peg_batch_wrong_rank():
    with pytest.raises(ValueError, match=re.escape("sequences must be a 2-d array, got shape (3,)")):
        peg_points_batch([1, 2, 3])
    with pytest.raises(ValueError, match=re.escape("(1, 1, 3)")):
        peg_points_batch([[[1, 2, 3]]])


def test_no_rust_panic_reaches_python():
    # pyo3 turns a Rust panic into PanicException (a BaseException, not an Exception); every bad
    # input above must be an ordinary ValueError/TypeError. A few odd ones more:
    for call in [
        lambda: score_hand_batch(np.full((3, 4), 2**62, np.int64), np.zeros(3, np.int64)),
        lambda: score_hand_batch(np.full((3, 4), -(2**63), np.int64), np.zeros(3, np.int64)),
        lambda: peg_points_batch(np.full((1, 13), 2**62, np.int64)),
        lambda: peg_points_batch(np.full((1, 13), 127, np.int8)),
        lambda: explain_hand_batch(np.full((1, 4), 255, np.uint8), np.full(1, 255, np.uint8)),
    ]:
        with pytest.raises((ValueError, TypeError)):
            call()


# ------------------------------------------------------------------ hardening (issue 8)
import itertools  # noqa: E402

from cribpiquet import piquet  # noqa: E402


@pytest.mark.parametrize(
    "call, cap",
    [
        (lambda x: peg_points(x), 13),
        (lambda x: explain_peg(x), 13),
        (lambda x: parse_cards(x), 52),
        (lambda x: score_hand(x, "5C"), 4),
        (lambda x: explain_hand(x, "5C"), 4),
    ],
)
def test_infinite_iterables_read_at_most_the_cap_plus_one(call, cap):
    pulled = []

    def endless():
        for i in itertools.count():
            pulled.append(i)
            yield i % 4  # AC 2C 3C 4C ...

    with pytest.raises(ValueError, match=f"got more than {cap}"):
        call(endless())
    assert len(pulled) == cap + 1
    with pytest.raises(ValueError, match=f"got more than {cap}"):
        call(itertools.cycle(range(4)))


def test_long_text_is_cut_and_bounded():
    with pytest.raises(ValueError, match="got 1000000$") as e:
        parse_cards("AC " * 1_000_000)
    assert len(str(e.value)) < 200
    with pytest.raises(ValueError, match="got 1000000$"):
        peg_points("AC " * 1_000_000)
    with pytest.raises(ValueError, match="pegging sequence must have 1 to 13 cards, got 14$"):
        peg_points([0] * 14)
    for text in ("X" * 1_000_000, "5H " + "Q" * 1_000_000):
        with pytest.raises(ValueError, match="unknown card") as e:
            parse_cards(text)
        msg = str(e.value)
        assert len(msg) < 120 and "…" in msg, msg


def test_a_piquet_card_is_not_a_cribbage_card():
    pc = piquet.Card("AS")
    for call in (
        lambda: Card(pc),
        lambda: parse_cards([pc]),
        lambda: score_hand([pc, 1, 2, 3], 5),
        lambda: score_hand("AC 2C 3C 4C", pc),
        lambda: heels_points(pc),
        lambda: peg_points([0, pc]),
        lambda: explain_peg((pc,)),
        lambda: parse_cards(np.array([pc], dtype=object)),
    ):
        with pytest.raises(TypeError, match="a piquet card is not a cribbage card"):
            call()


def test_bool_and_non_int_arguments_name_the_argument():
    with pytest.raises(TypeError, match="crib must be a bool, got int"):
        score_hand("5H 5D 5S JC", "5C", crib=1)
    with pytest.raises(TypeError, match="crib must be a bool, got int"):
        explain_hand("5H 5D 5S JC", "5C", crib=1)
    with pytest.raises(TypeError, match="kind must be a str, got int"):
        hand_distribution(5)
    with pytest.raises(TypeError, match="count must be an int, got bool"):
        go_points(True)
    with pytest.raises(TypeError, match="count must be an int, got str"):
        go_points("3")


@pytest.mark.parametrize("bad", [2**70, -(2**64), -1, 32, 10**30])
def test_go_points_names_the_count_and_its_range(bad):
    with pytest.raises(ValueError, match=r"count must be in 0\.\.=31, got "):
        go_points(bad)


def test_huge_card_ids_are_value_errors_with_a_short_message():
    for huge in (2**64, -(2**64), 10**5000):
        with pytest.raises(ValueError, match=r"card id .* is out of range \(ids are 0\.\.51\)") as e:
            Card(huge)
        assert len(str(e.value)) < 150
