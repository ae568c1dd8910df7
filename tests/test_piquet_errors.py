"""Bad input to the per-hand piquet functions (issue 3 item 10, "as for cribbage"): each case raises
ValueError or TypeError and the message names the culprit (the text, the id, the size, the card).

The batch API's bad input is in test_piquet_batch.py, illegal trick records in test_piquet_game.py.
Source of the legal values: docs/rules/piquet.md §1 (32 cards, ids 0..31), §2 (12 cards each, the
exchange limits), §3 (declarations of 12-card hands).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from cribpiquet.piquet import (
    Card,
    Partie,
    Partiya,
    Rules,
    declarations,
    difference_record,
    parse_cards,
    score_declarations,
    score_game,
)

ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"
SEED_E = "TH JH QH KH AH QC 7C 9C QD 8D 7S 9S"
SEED_D = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC"
SEED_T = [
    ("9C", "TC"), ("JC", "QC"), ("AH", "7H"), ("KH", "8H"), ("QH", "9H"), ("JH", "8C"),
    ("TH", "7D"), ("QD", "KD"), ("AD", "8D"), ("JD", "7C"), ("TD", "7S"), ("9D", "9S"),
]  # fmt: skip

# ------------------------------------------------------------------------ unknown card text

# "5H" and "2C" are cribbage cards but not piquet cards (rules §1: 7 to ace); the rest are no card.
UNKNOWN = ["5H", "2C", "6S", "1H", "11S", "AX", "A", "H", "10", "7HH", "♥7", "ZZ"]


@pytest.mark.parametrize("text", UNKNOWN)
def test_unknown_card_text(text):
    with pytest.raises(ValueError, match=re.escape(f'unknown card "{text}"')):
        Card(text)


def test_empty_card_text():
    with pytest.raises(ValueError, match='unknown card ""'):
        Card("")


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_cards("AH 5H"),
        lambda: parse_cards(["AH", "5H"]),
        lambda: declarations("5H KH QH JH TH 7H AC AD AS 7C 8C 7D"),
        lambda: declarations(["5H"] + ELDER.split()[1:]),
        lambda: declarations(ELDER, dealt="5H KH QH JH TH 7H AC AD AS 7C 8C 7D"),
        lambda: score_declarations(ELDER, "5H 8H 9C TC JC QC KD QD JD 8S 9S TS"),
        lambda: score_declarations("5H KH QH JH TH 7H AC AD AS 7C 8C 7D", DEALER),
        lambda: score_declarations(ELDER, DEALER, elder_dealt="5H KH QH JH TH 7H AC AD AS 7C 8C 7D"),
        lambda: score_game("5H JH QH KH AH QC 7C 9C QD 8D 7S 9S", SEED_D, SEED_T),
        lambda: score_game(SEED_E, SEED_D, [("5H", "TC")] + SEED_T[1:]),
    ],
)
def test_unknown_card_text_inside_every_api(call):
    with pytest.raises(ValueError, match='"5H"'):
        call()


# ------------------------------------------------------------------------- id out of range


@pytest.mark.parametrize("bad", [-1, 32, 52, 2**40, 2**70, -(2**70)])
def test_card_id_out_of_range(bad):
    with pytest.raises(ValueError, match=re.escape(f"card id {bad} is out of range (ids are 0..31)")):
        Card(bad)


@pytest.mark.parametrize("bad", [-1, 32, 2**40, 2**70])
def test_card_id_out_of_range_in_every_api(bad):
    hand = [bad] + list(range(1, 12))
    good = list(range(12, 24))
    for call in (
        lambda: parse_cards((1, bad)),
        lambda: declarations(hand),
        lambda: declarations(good, dealt=hand),
        lambda: score_declarations(hand, good),
        lambda: score_declarations(good, hand),
        lambda: score_game(hand, good, SEED_T),
    ):
        with pytest.raises(ValueError, match=re.escape(str(bad))):
            call()


def test_numpy_scalar_ids_out_of_range():
    with pytest.raises(ValueError, match="card id 32"):
        Card(np.int64(32))
    with pytest.raises(ValueError, match="card id 200"):
        Card(np.uint8(200))
    with pytest.raises(ValueError, match="card id -3"):
        declarations(np.array([-3] + list(range(1, 12))))


@pytest.mark.parametrize("bad", [1.5, None, b"AH", object(), [1]], ids=repr)
def test_not_a_card_is_a_type_error(bad):
    with pytest.raises(TypeError, match="expected a card"):
        Card(bad)


def test_bool_is_not_a_card():
    with pytest.raises(TypeError, match="bool"):
        Card(True)
    with pytest.raises(TypeError, match="bool"):
        declarations([False] + list(range(1, 12)))


# -------------------------------------------------------------------------- wrong hand size


@pytest.mark.parametrize("n", [0, 1, 11, 13, 20])
def test_hand_not_of_12_cards(n):
    hand = list(range(n))
    with pytest.raises(ValueError, match=f"a hand must have 12 cards, got {n}"):
        declarations(hand)
    with pytest.raises(ValueError, match=f"a hand must have 12 cards, got {n}"):
        score_declarations(hand, list(range(20, 32)) if n <= 20 else [])


def test_text_hand_not_of_12_cards():
    with pytest.raises(ValueError, match="a hand must have 12 cards, got 2"):
        declarations("AH KH")
    with pytest.raises(ValueError, match="a hand must have 12 cards, got 0"):
        declarations("")
    with pytest.raises(ValueError, match="a hand must have 12 cards, got 11"):
        score_declarations(ELDER, "9H 8H 9C TC JC QC KD QD JD 8S 9S")
    with pytest.raises(ValueError, match="a hand must have 12 cards, got 11"):
        score_game(SEED_E, "7D 9D TD JD KD AD 7H 8H 9H 8C TC", SEED_T)


@pytest.mark.parametrize("n", [11, 13])
def test_dealt_hand_not_of_12_cards(n):
    with pytest.raises(ValueError, match=f"a dealt hand must have 12 cards, got {n}"):
        declarations(ELDER, dealt=list(range(n)))
    with pytest.raises(ValueError, match=f"a dealt hand must have 12 cards, got {n}"):
        score_declarations(ELDER, DEALER, dealer_dealt=list(range(n)))


def test_a_single_card_is_not_a_hand():
    with pytest.raises(TypeError, match="single card"):
        declarations(Card("AH"))
    with pytest.raises(TypeError, match="single card"):
        declarations(5)
    with pytest.raises(TypeError, match="group of cards"):
        declarations(None)


# ---------------------------------------------------------------------------------- duplicates


def test_duplicate_card_in_a_hand():
    with pytest.raises(ValueError, match="duplicate card AH"):
        declarations("AH AH QH JH TH 7H AC AD AS 7C 8C 7D")
    with pytest.raises(ValueError, match="duplicate card AH"):
        declarations(["AH", 23] + ELDER.split()[2:])  # "AH" and id 23 are one card
    with pytest.raises(ValueError, match="duplicate card TS"):
        score_declarations(ELDER, "9H 8H 9C TC JC QC KD QD JD TS 9S TS")
    with pytest.raises(ValueError, match="duplicate card 7C"):
        declarations(ELDER, dealt="7C 7C QH JH TH 7H AC AD AS KC 8C 7D")


def test_a_card_in_both_hands():
    # Elder holds AH; the dealer too.
    with pytest.raises(ValueError, match="duplicate card AH"):
        score_declarations(ELDER, "AH 8H 9C TC JC QC KD QD JD 8S 9S TS")
    with pytest.raises(ValueError, match="duplicate card AH"):
        score_game(SEED_E, "7D 9D TD JD KD AD 7H 8H AH 8C TC JC", SEED_T)
    with pytest.raises(ValueError, match="duplicate card"):
        score_declarations(ELDER, ELDER)


# -------------------------------------------------------------- dealt hands and the exchange


def test_dealt_hand_holding_the_opponents_card():
    # rules §2: a card dealt to elder cannot end in the dealer's hand (the talon is not dealt).
    dealt = "TH JH QH KH AH QC 7C 9C QD 8D 7S 7D"  # 7D is in the dealer's hand
    with pytest.raises(ValueError, match="7D was dealt to elder but is in the dealer's hand"):
        score_declarations(SEED_E, SEED_D, elder_dealt=dealt)
    dealt = "7D 9D TD JD KD AD 7H 8H 9H 8C TC TH"  # TH is elder's
    with pytest.raises(ValueError, match="TH was dealt to the dealer but is in elder's hand"):
        score_declarations(SEED_E, SEED_D, dealer_dealt=dealt)


def test_dealt_hands_sharing_a_card():
    # Both dealt hands hold KS: one card cannot be dealt twice. (rubicon, where exchanging one card
    # is allowed, so that only the shared card is wrong.)
    elder_dealt = "TH JH QH KH AH QC 7C 9C QD 8D 7S KS"  # took 9S for KS
    dealer_dealt = "7D 9D TD JD KD AD 7H 8H 9H 8C TC KS"  # took JC for KS
    with pytest.raises(ValueError, match="^duplicate card KS$"):
        score_declarations(SEED_E, SEED_D, rules="rubicon", elder_dealt=elder_dealt, dealer_dealt=dealer_dealt)
    # each alone is a legal rubicon exchange of one card
    assert score_declarations(SEED_E, SEED_D, rules="rubicon", elder_dealt=elder_dealt).totals == (18, 6)
    assert score_declarations(SEED_E, SEED_D, rules="rubicon", dealer_dealt=dealer_dealt).totals == (18, 6)


def test_exchange_limits_are_checked():
    # rules §2 russian: elder takes none or 3 to 5. Two cards exchanged (8S JS out, 7S 9S in) is
    # illegal; rubicon elder must exchange at least one card.
    two = "TH JH QH KH AH QC 7C 9C QD 8D 8S JS"
    with pytest.raises(ValueError, match="elder cannot exchange 2 cards under these rules"):
        score_declarations(SEED_E, SEED_D, elder_dealt=two)
    with pytest.raises(ValueError, match="elder cannot exchange 0 cards under these rules"):
        score_declarations(SEED_E, SEED_D, rules="rubicon", elder_dealt=SEED_E)
    # rubicon elder may exchange 2
    assert score_declarations(SEED_E, SEED_D, rules="rubicon", elder_dealt=two).totals == (18, 6)
    # russian: none is fine for both
    assert score_declarations(SEED_E, SEED_D, elder_dealt=SEED_E, dealer_dealt=SEED_D).totals == (18, 6)
    # the dealer exchanging 1 card (russian: none or 3..5) is illegal
    one = "7D 9D TD JD KD AD 7H 8H 9H 8C TC 8S"  # JC taken for 8S
    with pytest.raises(ValueError, match="the dealer cannot exchange 1 cards under these rules"):
        score_declarations(SEED_E, SEED_D, dealer_dealt=one)
    with pytest.raises(ValueError, match="elder cannot exchange 2"):
        score_game(SEED_E, SEED_D, SEED_T, elder_dealt=two)


# ------------------------------------------------------------------------------- flags, rules


def test_bad_player_names():
    with pytest.raises(ValueError, match='silent must be "elder", "dealer" or None, got "younger"'):
        score_game(SEED_E, SEED_D, SEED_T, silent="younger")
    with pytest.raises(ValueError, match="false_declaration"):
        score_game(SEED_E, SEED_D, SEED_T, false_declaration="Elder")
    with pytest.raises(TypeError):
        score_game(SEED_E, SEED_D, SEED_T, open_capot=0)


def test_bad_rules_argument():
    with pytest.raises(ValueError, match='unknown piquet rules "piquet"'):
        score_declarations(ELDER, DEALER, rules="piquet")
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        score_game(SEED_E, SEED_D, SEED_T, rules={"name": "russian"})
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        difference_record(1, 2, rules=1)
    with pytest.raises(ValueError):
        Partiya("whist")
    with pytest.raises(ValueError):
        Partie("whist")


def test_keyword_only_options():
    # Everything after the hands (and the tricks) is keyword-only.
    with pytest.raises(TypeError):
        score_declarations(ELDER, DEALER, Rules.rubicon())  # type: ignore[misc]
    with pytest.raises(TypeError):
        declarations(ELDER, ELDER)  # type: ignore[misc]


def test_errors_are_not_panics():
    # Nothing here may surface as a Rust panic (pyo3's PanicException derives from BaseException).
    for call in (
        lambda: declarations([31] * 12),
        lambda: score_declarations(list(range(12)), list(range(12))),
        lambda: score_game(list(range(12)), list(range(12, 24)), [(0, 12)] * 12),
        lambda: score_game(SEED_E, SEED_D, [(c, c) for c, _ in SEED_T]),
    ):
        with pytest.raises(ValueError):
            call()


# ------------------------------------------------------------------ hardening (issue 8)
import itertools  # noqa: E402

from cribpiquet import cribbage  # noqa: E402


def _counting(pulled, items):
    for item in items:
        pulled.append(item)
        yield item


@pytest.mark.parametrize(
    "call, cap",
    [
        (lambda x: parse_cards(x), 32),
        (lambda x: declarations(x), 12),
        (lambda x: declarations(ELDER, dealt=x), 12),
        (lambda x: score_declarations(x, DEALER), 12),
        (lambda x: score_declarations(ELDER, x), 12),
        (lambda x: score_game(x, SEED_D, SEED_T), 12),
    ],
)
def test_infinite_card_iterables_read_at_most_the_cap_plus_one(call, cap):
    pulled = []
    with pytest.raises(ValueError, match=f"got more than {cap}"):
        call(_counting(pulled, itertools.count()))
    assert len(pulled) == cap + 1
    with pytest.raises(ValueError, match=f"got more than {cap}"):
        call(itertools.cycle(range(32)))


def test_infinite_tricks_read_at_most_13():
    pulled = []
    with pytest.raises(ValueError, match="got more than 12"):
        score_game(SEED_E, SEED_D, _counting(pulled, itertools.cycle(SEED_T)))
    assert len(pulled) == 13
    pulled.clear()
    tricks = [SEED_T[0], _counting(pulled, itertools.cycle(["JC", "QC"]))] + SEED_T[2:]
    with pytest.raises(ValueError, match=r"trick 2: .*got more than 2"):
        score_game(SEED_E, SEED_D, tricks)
    assert len(pulled) == 3


def test_long_text_is_cut_and_bounded():
    with pytest.raises(ValueError, match="got 1000000$") as e:
        parse_cards("AS " * 1_000_000)
    assert len(str(e.value)) < 200
    with pytest.raises(ValueError, match="unknown card") as e:
        declarations("Q" * 1_000_000)
    assert len(str(e.value)) < 120 and "…" in str(e.value)


def test_a_cribbage_card_is_not_a_piquet_card():
    cc = cribbage.Card("5C")
    hand = [cc] + ELDER.split()[1:]
    for call in (
        lambda: Card(cc),
        lambda: parse_cards([cc]),
        lambda: declarations(hand),
        lambda: score_declarations(ELDER, [cc] + DEALER.split()[1:]),
        lambda: score_game(SEED_E, SEED_D, [(cc, "TC")] + SEED_T[1:]),
        lambda: parse_cards(np.array([cc], dtype=object)),
    ):
        with pytest.raises(TypeError, match="a cribbage card is not a piquet card"):
            call()


def test_bools_are_never_int_arguments():
    with pytest.raises(TypeError, match="x must be an int, got bool"):
        from cribpiquet.piquet import round_record

        round_record(True)
    with pytest.raises(TypeError, match="bool"):
        Card(True)
    with pytest.raises(TypeError, match="score_0 must be an int, got the bool True"):
        Partie().add_deal(True, 3)
    with pytest.raises(TypeError, match="doubled_games must be an int, got bool"):
        Partiya(doubled_games=True)


def test_huge_ints_are_value_errors_naming_the_range():
    from cribpiquet.piquet import round_record

    with pytest.raises(ValueError, match=r"x must be in -9223372036854775808\.\.=9223372036854775807, got") as e:
        round_record(2**100)
    assert len(str(e.value)) < 150
    with pytest.raises(ValueError, match=r"card id .* is out of range \(ids are 0\.\.31\)"):
        Card(2**64)
