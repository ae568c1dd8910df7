"""numpy batch API: ``declarations_batch`` and ``score_declarations_batch`` against the single-hand
functions row by row (more than 70,000 rows, so the parallel path with its 32,768-row chunks runs),
every integer dtype, non-contiguous input, both rule sets, thread safety, and bad input.

Source: issue 3 item 7 (features listed there; points equal to ``score_declarations(...).totals``,
carte blanche judged on the given hands; validation as in the cribbage batch API: ids 0..31, 12
distinct cards per row, no card in both hands of a row, the error names the first bad row) and the
docstrings of python/cribpiquet/piquet.py. The hand-checked rows below are counted in comments
from docs/rules/piquet.md §3.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from cribpiquet import piquet
from cribpiquet.piquet import Rules, declarations, declarations_batch, score_declarations, score_declarations_batch

N = 70_001  # > 2 × 32,768: three chunks
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FEATURES = {
    "point_length": np.uint8,
    "point_value": np.uint8,
    "point_suit": np.uint8,
    "best_sequence_length": np.uint8,
    "best_sequence_top": np.uint8,
    "sequence_count": np.uint8,
    "sequence_value": np.uint16,
    "best_set_kind": np.uint8,
    "best_set_rank": np.uint8,
    "sets_value": np.uint16,
    "carte_blanche": np.bool_,
}


def random_deals(n, seed):
    rng = np.random.default_rng(seed)
    perms = np.argsort(rng.random((n, 32)), axis=1)
    return perms[:, :12].copy(), perms[:, 12:24].copy()


@pytest.fixture(scope="module")
def deals():
    return random_deals(N, 2024)


def features_of(d):
    best, top_set = d.best_sequence, d.best_set
    return {
        "point_length": d.point.length,
        "point_value": d.point.value,
        "point_suit": d.point.suit,
        "best_sequence_length": best.length if best else 0,
        "best_sequence_top": best.top.rank if best else 0,
        "sequence_count": len(d.sequences),
        "sequence_value": d.sequences_value,
        "best_set_kind": top_set.count if top_set else 0,
        "best_set_rank": top_set.rank if top_set else 0,
        "sets_value": d.sets_value,
        "carte_blanche": d.carte_blanche,
    }


# ------------------------------------------------------------------------ hand-checked rows


def test_hand_checked_rows():
    # Row 0: A K Q J 10 9 of hearts (ids 23..18), AC AD AS, 7C 8C 7D: point of six (60), sixième
    # major (16), fourteen aces (14). Row 1: every club and 7D 8D 9D 10D: point of eight (75), the
    # huitième (18) and a quart to the ten (14) = 2 sequences, 32; no set. Row 2: 7 8 9 10 A of
    # hearts and clubs, 7D 8D: carte blanche, point of five 45 (clubs, the lower suit), two quarts
    # to the ten (28); no set.
    hands = np.array(
        [
            [23, 22, 21, 20, 19, 18, 7, 15, 31, 0, 1, 8],
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            [16, 17, 18, 19, 23, 0, 1, 2, 3, 7, 8, 9],
        ]
    )
    f = declarations_batch(hands)
    assert f["point_length"].tolist() == [6, 8, 5]
    assert f["point_value"].tolist() == [60, 75, 45]
    assert f["point_suit"].tolist() == [2, 0, 0]
    assert f["best_sequence_length"].tolist() == [6, 8, 4]
    assert f["best_sequence_top"].tolist() == [7, 7, 3]
    assert f["sequence_count"].tolist() == [1, 2, 2]
    assert f["sequence_value"].tolist() == [16, 32, 28]
    assert f["best_set_kind"].tolist() == [4, 0, 0]
    assert f["best_set_rank"].tolist() == [7, 0, 0]
    assert f["sets_value"].tolist() == [14, 0, 0]
    assert f["carte_blanche"].tolist() == [False, False, True]
    # rubicon sequence values (§3.3 table): 16; 18 + 4; 4 + 4
    assert declarations_batch(hands, rules="rubicon")["sequence_value"].tolist() == [16, 22, 8]
    assert set(f) == set(FEATURES)
    for name, dtype in FEATURES.items():
        assert f[name].dtype == dtype and f[name].shape == (3,), name


def test_hand_checked_batch_scores():
    # Row 0: the module doc deal → (95, 0) (elder point of six, quint major, fourteen aces: 35 →
    # repique). Row 1: the same deal swapped → (0, 95). Row 2: every club + 7-10 of diamonds
    # against every heart + 7-10 of spades: points equal (8, 75), huitièmes equal, quarts cancel
    # with them → (0, 0) (rust doc example).
    e = np.array(
        [
            [23, 22, 21, 20, 19, 16, 7, 15, 31, 0, 1, 8],
            [18, 17, 2, 3, 4, 5, 14, 13, 12, 25, 26, 27],
            list(range(12)),
        ]
    )
    d = np.array([e[1], e[0], list(range(16, 28))])
    out = score_declarations_batch(e, d)
    assert out.dtype == np.int16 and out.shape == (3, 2)
    assert out.tolist() == [[95, 0], [0, 95], [0, 0]]


# -------------------------------------------------------------- batch == single, row by row


@pytest.mark.parametrize("rules", ["russian", "rubicon"])
def test_score_declarations_batch_equals_single_row_by_row(deals, rules):
    e, d = deals
    out = score_declarations_batch(e, d, rules=rules)
    assert out.shape == (N, 2) and out.dtype == np.int16
    el, dl = e.tolist(), d.tolist()
    single = np.array([score_declarations(el[i], dl[i], rules=rules).totals for i in range(N)], dtype=np.int16)
    np.testing.assert_array_equal(out, single)
    # the sample is not trivial: repiques and carte blanches occur
    assert (out >= 90).any() and (out == 0).all(axis=1).any()


@pytest.mark.parametrize("rules", ["russian", "rubicon"])
def test_declarations_batch_equal_single_row_by_row(deals, rules):
    e, _ = deals
    f = declarations_batch(e, rules=rules)
    el = e.tolist()
    want = {k: np.empty(N, dtype=v) for k, v in FEATURES.items()}
    for i in range(N):
        for k, v in features_of(declarations(el[i], rules=rules)).items():
            want[k][i] = v
    for k in FEATURES:
        np.testing.assert_array_equal(f[k], want[k], err_msg=k)
    assert f["carte_blanche"].any() and (f["best_set_kind"] == 4).any()


# ------------------------------------------------------------------- dtypes and layouts


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_integer_dtype(deals, dtype):
    e, d = deals
    ref = score_declarations_batch(e, d)
    np.testing.assert_array_equal(score_declarations_batch(e.astype(dtype), d.astype(dtype)), ref)
    ref_f = declarations_batch(e)
    got_f = declarations_batch(e.astype(dtype))
    for k in FEATURES:
        np.testing.assert_array_equal(got_f[k], ref_f[k], err_msg=k)


def test_mixed_dtypes(deals):
    e, d = deals
    ref = score_declarations_batch(e[:1000], d[:1000])
    np.testing.assert_array_equal(score_declarations_batch(e[:1000].astype(np.uint8), d[:1000].astype(np.int32)), ref)
    np.testing.assert_array_equal(score_declarations_batch(e[:1000].astype(np.int8), d[:1000].astype(np.uint64)), ref)


def test_non_contiguous_input(deals):
    e, d = deals
    ref = score_declarations_batch(e, d)
    ref_f = declarations_batch(e)
    # Fortran order
    np.testing.assert_array_equal(score_declarations_batch(np.asfortranarray(e), np.asfortranarray(d)), ref)
    # column views of one (N, 24) array, and every other row
    both = np.concatenate([e, d], axis=1)
    assert not both[:, :12].flags.c_contiguous
    np.testing.assert_array_equal(score_declarations_batch(both[:, :12], both[:, 12:]), ref)
    np.testing.assert_array_equal(score_declarations_batch(e[::2], d[::2]), ref[::2])
    f = declarations_batch(both[:, :12])
    for k in FEATURES:
        np.testing.assert_array_equal(f[k], ref_f[k], err_msg=k)
    # reversed columns: the same cards, so the same answers
    np.testing.assert_array_equal(score_declarations_batch(e[:, ::-1], d[:, ::-1]), ref)
    # plain lists are accepted too
    assert score_declarations_batch(e[:5].tolist(), d[:5].tolist()).tolist() == ref[:5].tolist()


def test_the_input_is_not_modified(deals):
    e, d = deals
    e2, d2 = e.copy(), d.copy()
    score_declarations_batch(e2, d2)
    declarations_batch(e2)
    np.testing.assert_array_equal(e2, e)
    np.testing.assert_array_equal(d2, d)


def test_mixed_rules_in_batch(deals):
    # Every rules field that affects declarations is honoured: a mixed table.
    e, d = deals
    r = Rules.russian().replace(sequence_values=(1, 2, 3, 4, 5, 6), bonus_mode="reckoning-order")
    out = score_declarations_batch(e[:2000], d[:2000], rules=r)
    el, dl = e[:2000].tolist(), d[:2000].tolist()
    want = [score_declarations(el[i], dl[i], rules=r).totals for i in range(2000)]
    assert out.tolist() == [list(w) for w in want]


# ------------------------------------------------------------------------------ threads


def test_thread_safety(deals):
    e, d = deals
    ref = score_declarations_batch(e, d)
    ref_f = declarations_batch(e, rules="rubicon")
    n_threads = 6
    results: list = [None] * n_threads
    errors: list = []

    def work(k):
        try:
            outs = []
            for _ in range(3):
                outs.append(score_declarations_batch(e, d))
                outs.append(declarations_batch(e, rules="rubicon")["sequence_value"])
            results[k] = outs
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for outs in results:
        for i, out in enumerate(outs):
            np.testing.assert_array_equal(out, ref if i % 2 == 0 else ref_f["sequence_value"])


# ------------------------------------------------------------------------------ empties


def test_empty_batch():
    out = score_declarations_batch(np.empty((0, 12), np.int64), np.empty((0, 12), np.int64))
    assert out.shape == (0, 2) and out.dtype == np.int16
    out = score_declarations_batch(np.empty((0, 12), np.uint8), np.empty((0, 12), np.uint8))
    assert out.shape == (0, 2)
    f = declarations_batch(np.empty((0, 12), np.int32))
    assert set(f) == set(FEATURES)
    for k, dtype in FEATURES.items():
        assert f[k].shape == (0,) and f[k].dtype == dtype
    # numpy's default float64 empties (no values, so no non-integer data) are an empty batch
    assert score_declarations_batch(np.empty((0, 12)), np.empty((0, 12))).shape == (0, 2)


def test_empty_lists_are_an_empty_batch():
    # As in the cribbage batch API (tests/test_cribbage_errors.py: ``score_hand_batch([], [])`` is an
    # empty batch); piquet.py's _hands even reshapes empty input to (0, 12) for this.
    out = score_declarations_batch([], [])
    assert out.shape == (0, 2) and out.dtype == np.int16
    f = declarations_batch([])
    assert all(v.shape == (0,) for v in f.values())


# ---------------------------------------------------------------------------- bad input

GOOD_E = np.array([list(range(12)), list(range(8, 20))])  # row 1: 7D..TH
GOOD_D = np.array([list(range(16, 28)), list(range(20, 32))])


def test_good_rows_are_good():
    assert score_declarations_batch(GOOD_E, GOOD_D).shape == (2, 2)


@pytest.mark.parametrize("shape", [(3, 11), (3, 13), (2, 24)])
def test_wrong_row_width(shape):
    a = np.zeros(shape, np.int64)
    with pytest.raises(ValueError, match=rf"hands must have 12 cards per row, got shape \({shape[0]}, {shape[1]}\)"):
        declarations_batch(a)
    with pytest.raises(ValueError, match="elder must have 12 cards per row"):
        score_declarations_batch(a, a)
    with pytest.raises(ValueError, match="dealer must have 12 cards per row"):
        score_declarations_batch(GOOD_E, a[:2])


@pytest.mark.parametrize("bad", [np.arange(12), np.zeros((2, 3, 12), np.int64), np.int64(3)], ids=["1-d", "3-d", "0-d"])
def test_wrong_rank(bad):
    with pytest.raises(ValueError, match="hands must be a 2-d array"):
        declarations_batch(bad)
    with pytest.raises(ValueError, match="elder must be a 2-d array"):
        score_declarations_batch(bad, GOOD_D)
    with pytest.raises(ValueError, match="dealer must be a 2-d array"):
        score_declarations_batch(GOOD_E, bad)


@pytest.mark.parametrize(
    "bad",
    [
        np.arange(24, dtype=np.float64).reshape(2, 12),
        np.arange(24, dtype=np.float32).reshape(2, 12),
        np.array([list(range(12))] * 2, dtype=object),
        np.ones((2, 12), dtype=bool),
        np.array([["AH"] * 12] * 2),
    ],
    ids=["float64", "float32", "object", "bool", "str"],
)
def test_non_integer_dtypes(bad):
    with pytest.raises(TypeError, match="hands must hold integer card ids"):
        declarations_batch(bad)
    with pytest.raises(TypeError, match="elder must hold integer card ids"):
        score_declarations_batch(bad, GOOD_D)
    with pytest.raises(TypeError, match="dealer must hold integer card ids"):
        score_declarations_batch(GOOD_E, bad)


@pytest.mark.parametrize("bad_id", [-1, 32, 40, 255, 2**31])
def test_ids_out_of_range_name_the_first_bad_row(bad_id):
    e = GOOD_E.copy()
    e[1, 5] = bad_id
    with pytest.raises(ValueError, match=rf"^row 1: card id {bad_id} is out of range \(ids are 0..31\)$"):
        declarations_batch(e)
    with pytest.raises(ValueError, match=rf"^row 1: card id {bad_id} is out of range \(ids are 0..31\)$"):
        score_declarations_batch(e, GOOD_D)
    d = GOOD_D.copy()
    d[1, 0] = bad_id
    with pytest.raises(ValueError, match=rf"^row 1: card id {bad_id} is out of range \(ids are 0..31\)$"):
        score_declarations_batch(GOOD_E, d)


def test_out_of_range_ids_in_small_dtypes():
    # uint8 255 and int8 -128 are out of range as they are, not wrapped
    e = GOOD_E.astype(np.uint8)
    e[0, 0] = 255
    with pytest.raises(ValueError, match="^row 0: card id 255 is out of range"):
        declarations_batch(e)
    e = GOOD_E.astype(np.int8)
    e[1, 11] = -128
    with pytest.raises(ValueError, match="^row 1: card id -128 is out of range"):
        score_declarations_batch(e, GOOD_D.astype(np.int8))


def test_uint64_and_int64_mixed_with_a_bad_id_reports_piquet_range():
    # uint64 elder with an id above 2**63 and an int64 dealer with -1 have no common integer dtype;
    # the error must still be the piquet one (ids are 0..31), for the first bad row.
    e = np.array([list(range(12)), [2**63] + list(range(1, 12))], dtype=np.uint64)
    d = np.array([list(range(12, 24)), [-1] + list(range(13, 24))], dtype=np.int64)
    with pytest.raises(ValueError, match=r"^row 1: card id 9223372036854775808 is out of range \(ids are 0..31\)$"):
        score_declarations_batch(e, d)


def test_duplicate_in_a_row():
    e = GOOD_E.copy()
    e[1, 3] = e[1, 2]  # row 1: 7D 8D 9D 9D … (9D = 10)
    with pytest.raises(ValueError, match="^row 1: duplicate card 9D$"):
        declarations_batch(e)
    with pytest.raises(ValueError, match="^row 1: duplicate card 9D$"):
        score_declarations_batch(e, GOOD_D)


def test_a_card_in_both_hands_of_a_row():
    # Row 1: elder 7D..TH (8..19), dealer 8H.. (17..28): 8H 9H TH in both; the first is 8H (17).
    d = GOOD_D.copy()
    d[1] = list(range(17, 29))
    with pytest.raises(ValueError, match="^row 1: duplicate card 8H$"):
        score_declarations_batch(GOOD_E, d)
    # the same card in both hands of different rows is fine
    d = np.array([list(range(16, 28)), list(range(0, 8)) + [28, 29, 30, 31]])
    assert score_declarations_batch(GOOD_E, d).shape == (2, 2)


def test_the_first_bad_row_is_reported_across_chunks(deals):
    # Bad rows in the second and third 32,768-row chunks: the lower one is named whatever the
    # scheduling of the parallel pass.
    e, d = deals[0].copy(), deals[1].copy()
    late, early = 2 * 32_768 + 7, 32_768 + 3
    e[late, 0] = 40
    d[early, 1] = d[early, 0]
    dup = piquet.Card(int(d[early, 0]))
    with pytest.raises(ValueError, match=f"^row {early}: duplicate card {dup}$"):
        score_declarations_batch(e, d)
    with pytest.raises(ValueError, match=rf"^row {late}: card id 40 is out of range \(ids are 0..31\)$"):
        declarations_batch(e)


def test_mismatched_row_counts():
    with pytest.raises(ValueError, match="elder has 3 rows but dealer has 2"):
        score_declarations_batch(np.array([list(range(12))] * 3), GOOD_D)


def test_bad_rules_in_batch():
    with pytest.raises(ValueError, match="whist"):
        score_declarations_batch(GOOD_E, GOOD_D, rules="whist")
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        declarations_batch(GOOD_E, rules=3)
