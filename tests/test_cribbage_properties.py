"""Property tests against deliberately naive scorers written from docs/rules/cribbage.md, batch ==
single row by row, and thread safety.

The naive scorers below follow the rules text literally and know nothing of the library:
fifteens by enumerating every subset, pairs by every two cards, runs as every subset of the
longest length whose ranks are distinct and consecutive, flush and nobs per §2; pegging per §3.
"""

from __future__ import annotations

import threading
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribpiquet import cribbage

# ----------------------------------------------------------------------------- naive scorers


def rank(card_id: int) -> int:
    return card_id % 13  # id = suit * 13 + rank (rules §1)


def suit(card_id: int) -> int:
    return card_id // 13


def pips(card_id: int) -> int:
    return min(rank(card_id) + 1, 10)  # A = 1, 2..10, J Q K = 10


def is_run(ranks) -> bool:
    ranks = sorted(ranks)
    return len(set(ranks)) == len(ranks) and ranks[-1] - ranks[0] == len(ranks) - 1


def naive_show(hand: list[int], starter: int, crib: bool = False) -> dict[str, int]:
    cards = list(hand) + [starter]
    fifteens = 2 * sum(
        1 for r in range(2, len(cards) + 1) for sub in combinations(cards, r) if sum(map(pips, sub)) == 15
    )
    pairs = 2 * sum(1 for a, b in combinations(cards, 2) if rank(a) == rank(b))
    runs = 0
    for length in range(len(cards), 2, -1):
        found = [sub for sub in combinations(cards, length) if is_run([rank(c) for c in sub])]
        if found:
            runs = length * len(found)
            break
    flush = 0
    if len({suit(c) for c in hand}) == 1:
        starter_matches = suit(starter) == suit(hand[0])
        if crib:
            flush = 5 if starter_matches else 0
        else:
            flush = len(hand) + (1 if starter_matches else 0)
    nobs = 1 if any(rank(c) == 10 and suit(c) == suit(starter) for c in hand) else 0
    total = fifteens + pairs + runs + flush + nobs
    return dict(fifteens=fifteens, pairs=pairs, runs=runs, flush=flush, nobs=nobs, total=total)


def naive_peg(seq: list[int]) -> int:
    count = sum(map(pips, seq))
    assert count <= 31
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(seq) and rank(seq[-1 - same]) == rank(seq[-1]):
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(seq), 2, -1):
        if is_run([rank(c) for c in seq[-k:]]):
            points += k
            break
    return points


def test_naive_scorers_reproduce_rules_examples():
    # The references must agree with rules §2/§3 before they are trusted.
    p = lambda t: [int(c) for c in cribbage.parse_cards(t)]  # noqa: E731
    assert naive_show(p("JC 5D 5H 5S"), p("5C")[0])["total"] == 29
    assert naive_show(p("4H 5H QH"), p("6S")[0])["total"] == 10
    assert naive_show(p("6C 6D 7S 7D"), p("8S")[0])["total"] == 20
    assert naive_show(p("9C TC JC QC"), p("KC")[0])["total"] == 11
    assert naive_show(p("2C 4C 6C 8C"), p("KD")[0], crib=True)["total"] == 0
    assert naive_show(p("QC TC 8C 4C"), p("2D")[0])["total"] == 4
    assert naive_peg(p("3C 2D 5H AS 4C")) == 7
    assert naive_peg(p("6C 4D AH 4S")) == 2
    assert naive_peg(p("7C 8D 9H 7S")) == 5


# ---------------------------------------------------------------------------------- strategies


def show_cards(size: int):
    n = size + 1
    uniform = st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
    # ranks in a window of five: many pairs, runs and fifteens
    narrow = st.integers(0, 8).flatmap(
        lambda lo: st.lists(
            st.builds(lambda r, s: s * 13 + r, st.integers(lo, lo + 4), st.integers(0, 3)),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    # mostly one suit: flushes, with and without the starter, and nobs
    suited = st.integers(0, 3).flatmap(
        lambda s0: st.lists(
            st.builds(
                lambda r, s: s * 13 + r, st.integers(0, 12), st.one_of(st.just(s0), st.just(s0), st.integers(0, 3))
            ),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    return st.one_of(uniform, narrow, suited)


def legal_prefix(cards):
    """The distinct cards of ``cards`` in order, cut before the count would pass 31."""
    out, count = [], 0
    for c in cards:
        if c in out:
            continue
        if count + pips(c) > 31:
            break
        out.append(c)
        count += pips(c)
    return out


@st.composite
def structured_peg(draw):
    """A few random cards, then a shuffled block of consecutive ranks (a run of 3..7) or a
    block of one rank (pair, pair royal, double pair royal), then maybe a few more cards."""
    seq = draw(st.lists(st.integers(0, 51), max_size=3))
    if draw(st.booleans()):
        k = draw(st.integers(3, 7))
        lo = draw(st.integers(0, 13 - k))
        ranks = draw(st.permutations(list(range(lo, lo + k))))
        seq += [draw(st.integers(0, 3)) * 13 + r for r in ranks]
    else:
        r = draw(st.integers(0, 12))
        n = draw(st.integers(2, 4))
        seq += [s * 13 + r for s in draw(st.permutations([0, 1, 2, 3]))[:n]]
    seq += draw(st.lists(st.integers(0, 51), max_size=2))
    return seq


def peg_sequences():
    uniform = st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True)
    low = st.integers(0, 7).flatmap(
        lambda lo: st.lists(
            st.builds(lambda r, s: s * 13 + r, st.integers(lo, min(lo + 5, 12)), st.integers(0, 3)),
            min_size=1,
            max_size=13,
            unique=True,
        )
    )
    return st.one_of(uniform, low, structured_peg(), structured_peg()).map(legal_prefix).filter(bool)


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_show(cards, crib):
    hand, starter = cards[:-1], cards[-1]
    want = naive_show(hand, starter, crib)
    assert cribbage.score_hand(hand, starter, crib=crib) == want["total"]
    b = cribbage.explain_hand(hand, starter, crib=crib)
    got = dict(fifteens=b.fifteens, pairs=b.pairs, runs=b.runs, flush=b.flush, nobs=b.nobs, total=b.total)
    assert got == want
    batch = cribbage.explain_hand_batch(np.array([hand]), np.array([starter]), crib=crib)
    assert {k: int(v[0]) for k, v in batch.items()} == want


@SETTINGS
@given(show_cards(4))
def test_four_card_hand_matches_naive(cards):
    check_show(cards, crib=False)


@SETTINGS
@given(show_cards(4))
def test_crib_matches_naive(cards):
    check_show(cards, crib=True)


@SETTINGS
@given(show_cards(3))
def test_five_card_game_hand_matches_naive(cards):
    check_show(cards, crib=False)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(peg_sequences())
def test_pegging_matches_naive(seq):
    want = naive_peg(seq)
    assert cribbage.peg_points(seq) == want
    b = cribbage.explain_peg(seq)
    assert b.total == want
    assert b.count == sum(map(pips, seq))
    assert b.fifteen + b.thirty_one + b.pairs + b.run == want
    row = np.full((1, 13), -1, np.int64)
    row[0, : len(seq)] = seq
    assert int(cribbage.peg_points_batch(row)[0]) == want


# ----------------------------------------------------------------------- batch == single, big

BIG = 100_003  # > 70,000 rows: several 32,768-row chunks, so the parallel path runs


def random_shows(seed: int, n: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, 52, (n * 2 + 1000, size + 1))
    srt = np.sort(ids, axis=1)
    ids = ids[np.all(np.diff(srt, axis=1) != 0, axis=1)][:n]
    assert len(ids) == n
    return ids[:, :size].copy(), ids[:, size].copy()


def random_peg_rows(seed: int, n: int, width: int = 13) -> np.ndarray:
    """n random legal counts (distinct cards, count <= 31), padded with -1 to ``width``."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    low = rng.random(n) < 0.6  # most rows drawn from A..6 first: long rows, pairs and runs
    keys[low] += np.arange(52) % 13 > 5
    deck = np.argsort(keys, axis=1)[:, :width]
    count = np.cumsum(np.minimum(deck % 13 + 1, 10), axis=1)
    legal = (count <= 31).sum(axis=1)  # cumulative counts rise, so this is the longest legal prefix
    stop = rng.integers(1, legal + 1)  # a random legal prefix of it
    return np.where(np.arange(width) < stop[:, None], deck, -1)


@pytest.fixture(scope="module")
def big_hands():
    hands, starters = random_shows(11, BIG, 4)
    expected = np.array([cribbage.score_hand(h, s) for h, s in zip(hands.tolist(), starters.tolist())], np.uint8)
    expected_crib = np.array(
        [cribbage.score_hand(h, s, crib=True) for h, s in zip(hands.tolist(), starters.tolist())], np.uint8
    )
    return hands, starters, expected, expected_crib


@pytest.fixture(scope="module")
def big_three():
    hands, starters = random_shows(12, BIG, 3)
    expected = np.array([cribbage.score_hand(h, s) for h, s in zip(hands.tolist(), starters.tolist())], np.uint8)
    return hands, starters, expected


@pytest.fixture(scope="module")
def big_pegs():
    rows = random_peg_rows(13, 80_000)
    expected = np.array([cribbage.peg_points([c for c in r if c != -1]) for r in rows.tolist()], np.uint8)
    return rows, expected


def assert_same(got, expected):
    assert got.dtype == np.uint8
    assert got.shape == expected.shape
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, f"{bad.size} rows differ, first {bad[:5].tolist()}"


def test_big_batch_equals_single(big_hands, big_three):
    hands, starters, expected, expected_crib = big_hands
    assert_same(cribbage.score_hand_batch(hands, starters), expected)
    assert_same(cribbage.score_hand_batch(hands, starters, crib=True), expected_crib)
    assert (expected != expected_crib).any()  # the crib rule really differs somewhere
    h3, s3, e3 = big_three
    assert_same(cribbage.score_hand_batch(h3, s3), e3)


INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_integer_dtype(big_hands, dtype):
    hands, starters, expected, expected_crib = big_hands
    assert_same(cribbage.score_hand_batch(hands.astype(dtype), starters.astype(dtype)), expected)
    assert_same(cribbage.score_hand_batch(hands.astype(dtype), starters.astype(dtype), crib=True), expected_crib)
    assert_same(cribbage.explain_hand_batch(hands.astype(dtype), starters.astype(dtype))["total"], expected)


@pytest.mark.parametrize(
    "hand_dtype,starter_dtype",
    [(np.int8, np.int64), (np.uint8, np.int8), (np.uint64, np.int64), (np.int16, np.uint32), (np.uint64, np.uint8)],
)
def test_mixed_dtypes(big_hands, hand_dtype, starter_dtype):
    hands, starters, expected, _ = big_hands
    assert_same(cribbage.score_hand_batch(hands.astype(hand_dtype), starters.astype(starter_dtype)), expected)


def test_python_lists(big_hands):
    hands, starters, expected, _ = big_hands
    assert_same(cribbage.score_hand_batch(hands[:1000].tolist(), starters[:1000].tolist()), expected[:1000])


def test_fortran_order(big_hands):
    hands, starters, expected, expected_crib = big_hands
    f = np.asfortranarray(hands)
    assert not f.flags.c_contiguous
    assert_same(cribbage.score_hand_batch(f, starters), expected)
    assert_same(cribbage.score_hand_batch(f, starters, crib=True), expected_crib)
    e = cribbage.explain_hand_batch(f, starters)
    assert_same(e["total"], expected)


def test_non_contiguous_slices(big_hands):
    hands, starters, expected, _ = big_hands
    # every other row
    assert_same(cribbage.score_hand_batch(hands[::2], starters[::2]), expected[::2])
    # reversed rows (negative strides)
    assert_same(cribbage.score_hand_batch(hands[::-1], starters[::-1]), expected[::-1])
    # columns picked out of a wider array; starters a column of a 2-d array
    wide = np.full((len(hands), 9), 99, np.int32)
    wide[:, 0:8:2] = hands
    wide[:, 8] = starters
    assert not wide[:, 0:8:2].flags.c_contiguous and not wide[:, 8].flags.c_contiguous
    assert_same(cribbage.score_hand_batch(wide[:, 0:8:2], wide[:, 8]), expected)
    # columns reversed: a hand is a set, so the same scores
    assert_same(cribbage.score_hand_batch(hands[:, ::-1], starters), expected)


def test_big_endian_and_read_only_arrays(big_hands):
    hands, starters, expected, _ = big_hands
    assert_same(cribbage.score_hand_batch(hands.astype(">i4"), starters.astype(">u2")), expected)
    ro_h, ro_s = hands.copy(), starters.copy()
    ro_h.setflags(write=False)
    ro_s.setflags(write=False)
    assert_same(cribbage.score_hand_batch(ro_h, ro_s), expected)


def test_explain_hand_batch_equals_explain_hand_row_by_row():
    hands, starters = random_shows(21, 70_001, 4)
    for crib in (False, True):
        cols = cribbage.explain_hand_batch(hands, starters, crib=crib)
        assert set(cols) == {"fifteens", "pairs", "runs", "flush", "nobs", "total"}
        for v in cols.values():
            assert v.dtype == np.uint8 and v.shape == (70_001,)
        want = {k: np.empty(70_001, np.uint8) for k in cols}
        for i, (h, s) in enumerate(zip(hands.tolist(), starters.tolist())):
            d = cribbage.explain_hand(h, s, crib=crib).as_dict()
            for k in want:
                want[k][i] = d[k]
        for k in cols:
            assert_same(cols[k], want[k])
        assert_same(cols["total"], cribbage.score_hand_batch(hands, starters, crib=crib))


def test_explain_hand_batch_three_card_hands(big_three):
    hands, starters, expected = big_three
    cols = cribbage.explain_hand_batch(hands, starters)
    assert_same(cols["total"], expected)
    total = cols["fifteens"].astype(int) + cols["pairs"] + cols["runs"] + cols["flush"] + cols["nobs"]
    assert np.array_equal(total, expected)


def test_peg_batch_equals_single(big_pegs):
    rows, expected = big_pegs
    assert (rows[:, 1] == -1).any() and (rows[:, 5] != -1).any()  # a mix of row lengths
    assert expected.max() >= 6  # pair royals / long runs present
    assert_same(cribbage.peg_points_batch(rows), expected)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_peg_batch_signed_dtypes_and_layouts(big_pegs, dtype):
    rows, expected = big_pegs
    r = rows.astype(dtype)
    assert_same(cribbage.peg_points_batch(r), expected)
    assert_same(cribbage.peg_points_batch(np.asfortranarray(r)), expected)
    assert_same(cribbage.peg_points_batch(r[::3]), expected[::3])
    wide = np.full((len(r), 26), -7, dtype)
    wide[:, ::2] = r
    assert_same(cribbage.peg_points_batch(wide[:, ::2]), expected)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_peg_batch_full_rows_every_dtype(dtype):
    # Unsigned dtypes cannot hold the -1 padding, so every row here is 4 cards long.
    hands, starters = random_shows(31, 95_000, 4)
    cards = np.column_stack([hands, starters])[:, :4]
    count = np.minimum(cards % 13 + 1, 10).sum(axis=1)
    rows = cards[count <= 31]
    expected = np.array([cribbage.peg_points(r) for r in rows.tolist()], np.uint8)
    assert len(rows) > 70_000
    assert_same(cribbage.peg_points_batch(rows.astype(dtype)), expected)


# ------------------------------------------------------------------------------ thread safety


def test_threads_scoring_the_same_batch_get_identical_arrays():
    hands, starters = random_shows(41, 400_000, 4)
    seqs = random_peg_rows(42, 40_000)
    want = cribbage.score_hand_batch(hands, starters)
    want_crib = cribbage.explain_hand_batch(hands, starters, crib=True)["total"]
    want_peg = cribbage.peg_points_batch(seqs)
    n_threads = 6
    barrier = threading.Barrier(n_threads)
    results: list[list[np.ndarray]] = [[] for _ in range(n_threads)]
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            barrier.wait()
            for _ in range(3):
                results[i].append(cribbage.score_hand_batch(hands, starters))
                results[i].append(cribbage.explain_hand_batch(hands, starters, crib=True)["total"])
                results[i].append(cribbage.peg_points_batch(seqs))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for res in results:
        assert len(res) == 9
        for j, arr in enumerate(res):
            assert np.array_equal(arr, (want, want_crib, want_peg)[j % 3])
    # and those arrays are the single-hand answers (spot check 2,000 rows)
    for i in range(0, 400_000, 200):
        assert want[i] == cribbage.score_hand(hands[i].tolist(), int(starters[i]))
