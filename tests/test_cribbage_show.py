"""Scoring the show: docs/rules/cribbage.md §2 examples, §5 mistakes, explain_hand, the distribution.

Every expected score below is either quoted from docs/rules/cribbage.md (section given) or derived by
hand in the comment next to it (pips: A = 1, J Q K = 10).
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

from cribpiquet import cribbage
from cribpiquet.cribbage import Breakdown, Card, explain_hand, hand_distribution, heels_points, score_hand

# ----------------------------------------------------------------------------- rules §2 examples

# (hand, starter, crib, total, fifteens, pairs, runs, flush, nobs)
RULES_EXAMPLES = [
    # §2 "five-card hand 4H 5H QH + starter 6S = 10 (the source's own example: 15s 4, run 3, flush 3)"
    ("4H 5H QH", "6S", False, 10, 4, 0, 3, 3, 0),
    # §2 "Six-card J♣ 5♦ 5♥ 5♠ + 5♣ = 29": J+5 four ways and 5+5+5 four ways = 8 fifteens (16),
    # six pairs of fives (12), J♣ matches the ♣ starter (nobs 1).
    ("J♣ 5♦ 5♥ 5♠", "5♣", False, 29, 16, 12, 0, 0, 1),
    # §2 "5♣ 6♣ 7♣ 8♦ + 8♠ = 14": 7+8 twice (4), pair of eights (2), 5-6-7-8 twice (8); 8♦ breaks the flush.
    ("5♣ 6♣ 7♣ 8♦", "8♠", False, 14, 4, 2, 8, 0, 0),
    # §2 "4♣ 4♦ 4♠ 5♦ + 6♠ = 21": 4+5+6 three ways (6), pair royal (6), 4-5-6 three ways (9).
    ("4♣ 4♦ 4♠ 5♦", "6♠", False, 21, 6, 6, 9, 0, 0),
    # §2 "6♣ 6♦ 7♠ 7♦ + 8♠ = 20": 7+8 twice (4), two pairs (4), 6-7-8 four ways (12).
    ("6♣ 6♦ 7♠ 7♦", "8♠", False, 20, 4, 4, 12, 0, 0),
    # §2 "9♣ 10♣ J♣ Q♣ + K♣ = 11 (run 5, flush 5, nobs 1)"; no two of 9,10,10,10,10 make 15.
    ("9♣ 10♣ J♣ Q♣", "K♣", False, 11, 0, 0, 5, 5, 1),
    # §2 "Hand Q♣ 10♣ 8♣ 4♣ + 2♣ = 5": flush of five; all pips even so no fifteen; no pair or run.
    ("Q♣ 10♣ 8♣ 4♣", "2♣", False, 5, 0, 0, 0, 5, 0),
    # §2 "+ 2♦ = 4": the four-card hand flush counts without the starter.
    ("Q♣ 10♣ 8♣ 4♣", "2♦", False, 4, 0, 0, 0, 4, 0),
    # §2 "crib 2♣ 4♣ 6♣ 8♣ + K♦ = 0": a crib flush needs the starter.
    ("2♣ 4♣ 6♣ 8♣", "K♦", True, 0, 0, 0, 0, 0, 0),
]


@pytest.mark.parametrize("hand,starter,crib,total,fifteens,pairs,runs,flush,nobs", RULES_EXAMPLES)
def test_rules_section_2_examples(hand, starter, crib, total, fifteens, pairs, runs, flush, nobs):
    assert score_hand(hand, starter, crib=crib) == total
    b = explain_hand(hand, starter, crib=crib)
    assert (b.total, b.fifteens, b.pairs, b.runs, b.flush, b.nobs) == (total, fifteens, pairs, runs, flush, nobs)
    assert int(b) == total
    assert b.as_dict() == {
        "fifteens": fifteens,
        "pairs": pairs,
        "runs": runs,
        "flush": flush,
        "nobs": nobs,
        "total": total,
    }


def test_crib_flush_with_the_starter_scores_five():
    # §2: "crib flush: crib cards and starter all of one suit (5 cards) | 5"; all pips even, no 15.
    assert score_hand("2♣ 4♣ 6♣ 8♣", "K♣", crib=True) == 5
    b = explain_hand("2C 4C 6C 8C", "KC", crib=True)
    assert (b.flush, b.total) == (5, 5)


# ----------------------------------------------------------------------- rules §5: known mistakes


def test_mistake_four_card_crib_flush_is_not_counted():
    # §5 "A four-card crib flush counted": 2♣ 4♣ 6♣ 8♣ + K♦ as crib = 0 (§2), as a hand = flush 4.
    assert score_hand("2C 4C 6C 8C", "KD", crib=True) == 0
    assert explain_hand("2C 4C 6C 8C", "KD", crib=True).flush == 0
    assert score_hand("2C 4C 6C 8C", "KD") == 4


def test_mistake_four_card_hand_flush_is_counted():
    # §5 "a four-card hand flush missed": Q♣ 10♣ 8♣ 4♣ + 2♦ = 4 (§2).
    assert score_hand("QC TC 8C 4C", "2D") == 4
    assert explain_hand("QC TC 8C 4C", "2D").flush == 4


def test_three_card_hand_flush():
    # §2 hand flush in five-card play: 3 kept cards of one suit = 3, +1 if the starter matches.
    # 2♥ 4♥ 8♥: all pips even, so no fifteen; no pair or run.
    assert score_hand("2H 4H 8H", "QS") == 3
    assert score_hand("2H 4H 8H", "QH") == 4


def test_flush_needs_every_kept_card():
    # Three clubs and a diamond with a club starter: no flush (§2 "all kept cards of one suit").
    # Pips 2,4,6,8,10 are all even: no fifteen; no pair; no run.
    assert score_hand("2C 4C 6C 8D", "KC") == 0
    assert score_hand("2C 4C 6C 8D", "KC", crib=True) == 0


@pytest.mark.parametrize(
    "hand,starter,crib,total,pairs,runs",
    [
        # Double run of three: 8 8 9 10 + A. No subset of 8,8,9,10,1 sums to 15.
        # Pair 2 + two runs 8-9-10 (6) = 8.
        ("8C 8D 9H TS", "AC", False, 8, 2, 6),
        ("8C 8D 9H TS", "AC", True, 8, 2, 6),
        # Double run of four: rules §2 5♣ 6♣ 7♣ 8♦ + 8♠ = 14 (runs 8).
        ("5C 6C 7C 8D", "8S", False, 14, 2, 8),
        # Triple run: 9 9 9 10 + J(starter). No fifteen (9+6, 10+5 impossible); pair royal 6,
        # 9-10-J three ways 9; the jack is the starter so no nobs. 15.
        ("9C 9D 9H TC", "JD", False, 15, 6, 9),
        # Triple run: rules §2 4♣ 4♦ 4♠ 5♦ + 6♠ = 21.
        ("4C 4D 4S 5D", "6S", False, 21, 6, 9),
        # Double-double run: 3 3 4 4 5. Fifteens 3+3+4+5 two ways (4); two pairs (4); four runs of
        # three (12). 20.
        ("3C 3D 4C 4D", "5S", False, 20, 4, 12),
        ("3C 3D 4C 4D", "5S", True, 20, 4, 12),
        # Double-double: 9 9 10 10 + J. No fifteen; two pairs 4; four runs 9-10-J 12. Jack is the starter.
        ("9C 9D TC TD", "JS", False, 16, 4, 12),
        # Double-double, rules §2 6♣ 6♦ 7♠ 7♦ + 8♠ = 20.
        ("6C 6D 7S 7D", "8S", False, 20, 4, 12),
        # Double run in a five-card-play hand: 4 5 5 + 6. 4+5+6 two ways (4), pair (2), two runs (6) = 12.
        ("4C 5D 5H", "6S", False, 12, 2, 6),
        # Double run of four with the duplicate as the starter: A 2 3 4 + 4. Fifteens? pips 1,2,3,4,4:
        # max sum 14, none. Pair 2, two runs A-2-3-4 (8) = 10.
        ("AC 2D 3H 4S", "4C", False, 10, 2, 8),
        # Run of five is never also counted as runs of four or three: A 2 3 4 5 = 1+2+3+4+5 = 15 (2),
        # run 5. 7.
        ("AC 2D 3H 4S", "5C", False, 7, 0, 5),
    ],
)
def test_mistake_multiple_runs_counted_in_full(hand, starter, crib, total, pairs, runs):
    # §5 "double/triple/double-double runs undercounted"; §2 "counted only at maximal length".
    b = explain_hand(hand, starter, crib=crib)
    assert (b.total, b.pairs, b.runs) == (total, pairs, runs)
    assert score_hand(hand, starter, crib=crib) == total


def test_mistake_no_nobs_for_the_starter_jack():
    # §2 "the starter jack never scores nobs". 5♣ 5♦ 5♥ 5♠ + J♣: 16 for fifteens, 12 for the
    # double pair royal, 28 (the famous 28: no nobs).
    b = explain_hand("5C 5D 5H 5S", "JC")
    assert (b.total, b.nobs) == (28, 0)
    # 2 4 6 8 + J: even pips (no 15), no pair, no run, mixed suits -> 0 even though a jack turned.
    assert score_hand("2C 4D 6H 8S", "JC") == 0
    assert score_hand("2C 4D 6H 8S", "JC", crib=True) == 0
    # a jack in the hand of another suit than the starter: no nobs (J♥ with a ♣ starter).
    assert explain_hand("JH 2C 4D 6S", "8C").nobs == 0


def test_mistake_nobs_in_the_crib():
    # §2 "his nobs: a jack among the kept (or crib) cards of the starter's suit | 1".
    # J♥ 2♣ 4♦ 6♠ + 8♥: all pips even (no 15), no pair, no run, no flush -> nobs only, 1.
    assert score_hand("JH 2C 4D 6S", "8H", crib=True) == 1
    b = explain_hand("JH 2C 4D 6S", "8H", crib=True)
    assert (b.nobs, b.total) == (1, 1)
    assert score_hand("JH 2C 4D 6S", "8H") == 1


def test_nobs_in_a_three_card_hand():
    # J♦ 2♣ 4♠ + 6♦: pips 10,2,4,6 all even, no 15; nobs 1.
    assert score_hand("JD 2C 4S", "6D") == 1


def test_crib_flush_and_nobs_together():
    # 2♣ 4♣ 6♣ J♣ + 8♣: even pips (no 15), no pair/run; five-card flush 5, nobs 1 = 6, crib or hand.
    assert score_hand("2C 4C 6C JC", "8C", crib=True) == 6
    assert score_hand("2C 4C 6C JC", "8C") == 6


@pytest.mark.parametrize("card_id", range(52))
def test_heels_points(card_id):
    # §2 "His heels: a jack turned as the starter gives the dealer 2"; rank 10 is the jack.
    assert heels_points(card_id) == (2 if card_id % 13 == 10 else 0)


def test_heels_points_by_text():
    assert [heels_points(s) for s in ("JC", "JD", "JH", "JS", "QC", "TC", "AS")] == [2, 2, 2, 2, 0, 0, 0]


# ---------------------------------------------------------------------------------- explain_hand


def norm_items(items):
    return sorted((kind, tuple(sorted(int(c) for c in cards)), pts) for kind, cards, pts in items)


def ids_of(text):
    return tuple(sorted(int(c) for c in cribbage.parse_cards(text)))


def expect(*triples):
    return sorted((kind, ids_of(cards), pts) for kind, cards, pts in triples)


def test_items_of_the_source_example():
    # 4H 5H QH + 6S: 5+Q = 15, 4+5+6 = 15, run 4-5-6, flush of the three hearts (starter spade).
    b = explain_hand("4H 5H QH", "6S")
    assert norm_items(b.items) == expect(
        ("fifteen", "5H QH", 2),
        ("fifteen", "4H 5H 6S", 2),
        ("run", "4H 5H 6S", 3),
        ("flush", "4H 5H QH", 3),
    )


def test_items_of_the_29_hand():
    b = explain_hand("JC 5D 5H 5S", "5C")
    fives = ["5C", "5D", "5H", "5S"]
    expected = [("fifteen", f"JC {f}", 2) for f in fives]
    expected += [("fifteen", " ".join(t), 2) for t in combinations(fives, 3)]
    expected += [("pair", " ".join(p), 2) for p in combinations(fives, 2)]
    expected += [("nobs", "JC", 1)]
    assert norm_items(b.items) == expect(*expected)
    assert len(b.items) == 8 + 6 + 1


def test_items_types_and_order():
    b = explain_hand("9C TC JC QC", "KC")
    for kind, cards, pts in b.items:
        assert isinstance(kind, str) and isinstance(pts, int)
        assert isinstance(cards, tuple) and all(type(c) is Card for c in cards)
    assert norm_items(b.items) == expect(
        ("run", "9C TC JC QC KC", 5), ("flush", "9C TC JC QC KC", 5), ("nobs", "JC", 1)
    )
    # Items come in reading order: fifteens, pairs, runs, flush, nobs.
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    for hand, starter in [("JC 5D 5H 5S", "5C"), ("4H 5H QH", "6S"), ("3C 3D 4C 4D", "5S"), ("5C 6C 7C JC", "8C")]:
        kinds = [order.index(k) for k, _, _ in explain_hand(hand, starter).items]
        assert kinds == sorted(kinds)


def test_items_of_flushes():
    # A hand flush of four keeps the starter out; a five-card flush includes it.
    assert norm_items(explain_hand("QC TC 8C 4C", "2D").items) == expect(("flush", "QC TC 8C 4C", 4))
    assert norm_items(explain_hand("QC TC 8C 4C", "2C").items) == expect(("flush", "QC TC 8C 4C 2C", 5))
    assert norm_items(explain_hand("2C 4C 6C 8C", "KC", crib=True).items) == expect(("flush", "2C 4C 6C 8C KC", 5))
    assert explain_hand("2C 4C 6C 8C", "KD", crib=True).items == []


def test_items_of_a_double_double_run():
    # 3 3 4 4 5: fifteens 3+3+4+5 with either four; pairs 33, 44; runs 3-4-5 with each 3 and each 4.
    b = explain_hand("3C 3D 4C 4D", "5S")
    assert norm_items(b.items) == expect(
        ("fifteen", "3C 3D 4C 5S", 2),
        ("fifteen", "3C 3D 4D 5S", 2),
        ("pair", "3C 3D", 2),
        ("pair", "4C 4D", 2),
        ("run", "3C 4C 5S", 3),
        ("run", "3C 4D 5S", 3),
        ("run", "3D 4C 5S", 3),
        ("run", "3D 4D 5S", 3),
    )


@pytest.mark.parametrize(
    "hand,starter,crib,reading",
    [
        (
            "5H 5D 5S JC",
            "5C",
            False,
            # 8 fifteens read 2..16, the double pair royal (+12) makes 28, nobs 29.
            "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
            "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
            "and one for his nobs is 29",
        ),
        # 2, 4, run of three +3 = 7, flush of three +3 = 10 (the module docstring's example).
        ("4H 5H QH", "6S", False, "fifteen two, fifteen four, and a run of three is seven, and a flush of three is 10"),
        # 2, 4, pair 6, pair 8, four runs of three +12 = 20.
        (
            "3C 3D 4C 4D",
            "5S",
            False,
            "fifteen two, fifteen four, and a pair is six, and a pair is eight, and four runs of three is 20",
        ),
        # 2, 4, 6, pair royal +6 = 12, three runs of three +9 = 21.
        (
            "4C 4D 4S 5D",
            "6S",
            False,
            "fifteen two, fifteen four, fifteen six, and a pair royal is twelve, and three runs of three is 21",
        ),
        # run 5, flush +5 = 10, nobs 11.
        ("9C TC JC QC", "KC", False, "a run of five is five, and a flush of five is ten, and one for his nobs is 11"),
        # 2, 4, pair 6, two runs of four +8 = 14.
        ("5C 6C 7C 8D", "8S", False, "fifteen two, fifteen four, and a pair is six, and two runs of four is 14"),
    ],
)
def test_reading_aloud(hand, starter, crib, reading):
    assert str(explain_hand(hand, starter, crib=crib)) == reading


def test_reading_of_a_zero_hand_ends_with_zero():
    text = str(explain_hand("2C 4C 6C 8C", "KD", crib=True))
    assert text.endswith("0") and "no score" in text


def test_breakdown_repr_and_type():
    b = explain_hand("JC 5D 5H 5S", "5C")
    assert isinstance(b, Breakdown)
    assert repr(b) == "Breakdown(total=29, fifteens=16, pairs=12, runs=0, flush=0, nobs=1)"


def _random_shows(rng, n, size):
    for _ in range(n):
        cards = rng.sample(range(52), size + 1)
        yield cards[:size], cards[size]


@pytest.mark.parametrize("size,crib", [(4, False), (4, True), (3, False)])
def test_breakdown_total_equals_score_hand_for_random_hands(size, crib):
    rng = random.Random(1234 + size + crib)
    for hand, starter in _random_shows(rng, 3000, size):
        b = explain_hand(hand, starter, crib=crib)
        total = score_hand(hand, starter, crib=crib)
        assert b.total == total == int(b)
        assert b.fifteens + b.pairs + b.runs + b.flush + b.nobs == total
        # the items add up to the categories
        by_kind = {"fifteen": 0, "pair": 0, "run": 0, "flush": 0, "nobs": 0}
        for kind, cards, pts in b.items:
            by_kind[kind] += pts
            assert set(int(c) for c in cards) <= set(hand) | {starter}
        assert (by_kind["fifteen"], by_kind["pair"], by_kind["run"], by_kind["flush"], by_kind["nobs"]) == (
            b.fifteens,
            b.pairs,
            b.runs,
            b.flush,
            b.nobs,
        )
        # the reading ends with the total in digits
        assert str(b).endswith(str(total))


# ------------------------------------------------------------------------------- distributions

# rules §2: S. Lumetta, "Amusing Cribbage Facts": four-card hand + starter over all 12,994,800.
PUBLISHED_HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip


def test_hand_distribution_is_the_published_table():
    d = hand_distribution("hand")
    assert d.dtype == np.int64
    assert d.shape == (30,)
    for score, count in PUBLISHED_HAND.items():
        assert int(d[score]) == count, f"score {score}"
    assert int(d.sum()) == 12_994_800 == 270_725 * 48  # C(52,4) * 48
    mean = sum(s * int(c) for s, c in enumerate(d)) / d.sum()
    assert round(mean, 7) == 4.7691523  # rules §2 "Mean 4.7691523"


def test_hand_distribution_default_kind_is_hand():
    assert hand_distribution().tolist() == hand_distribution("hand").tolist()


def test_crib_and_five_card_totals():
    crib = hand_distribution("crib")
    five = hand_distribution("five-card-hand")
    assert crib.dtype == five.dtype == np.int64
    assert crib.shape == five.shape == (30,)
    assert int(crib.sum()) == 12_994_800  # C(52,4) * 48
    assert int(five.sum()) == 1_082_900 == 22_100 * 49  # C(52,3) * 49


def test_hand_counts_derived_by_hand():
    d = hand_distribution("hand")
    # 29: J + the other three fives + the five of the jack's suit turned: 4 suits, 1 way each.
    assert d[29] == 4
    # 19, 25, 26, 27 are impossible.
    assert d[19] == d[25] == d[26] == d[27] == 0


def test_five_card_hand_counts_derived_by_hand():
    d = hand_distribution("five-card-hand")
    # The best 3 + 1 show is three fives + the fourth five: fifteens 5+5+5 four ways (8) + the
    # double pair royal (12) = 20; C(4,3) = 4 hands, the starter forced: 4.
    assert d[20] == 4
    assert int(d[16:].sum()) == 4


# --- An independent vectorised naive scorer: all subsets for fifteens, all pairs, runs as every
# --- subset of the longest length with distinct consecutive ranks, flush/nobs per rules §2.


def naive_rank_points(ranks: np.ndarray) -> np.ndarray:
    """Fifteens + pairs + runs per row of ranks (0 = A .. 12 = K), by brute force over subsets."""
    rank = ranks.astype(np.int8)
    pips = np.minimum(rank + 1, 10).astype(np.int16)
    n, k = rank.shape
    points = np.zeros(n, np.int16)
    for r in range(2, k + 1):  # fifteens: every subset of 2+ cards
        for sub in combinations(range(k), r):
            points += 2 * (pips[:, list(sub)].sum(axis=1) == 15)
    for i, j in combinations(range(k), 2):  # pairs: every two cards of one rank
        points += 2 * (rank[:, i] == rank[:, j])
    done = np.zeros(n, bool)  # runs: every subset of the longest length with consecutive ranks
    for length in range(k, 2, -1):
        count = np.zeros(n, np.int16)
        for sub in combinations(range(k), length):
            srt = np.sort(rank[:, list(sub)], axis=1)
            count += np.all(np.diff(srt, axis=1) == 1, axis=1)
        points += np.where(done, 0, length * count).astype(np.int16)
        done |= count > 0
    return points


def naive_flush_nobs(hands: np.ndarray, starters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hand flush + nobs, crib flush + nobs) per row, rules §2 (ids: suit = id // 13)."""
    n_hand = hands.shape[1]
    suits = hands // 13
    starter_suit = starters // 13
    flush = np.ones(len(hands), bool)
    for i in range(1, n_hand):
        flush &= suits[:, i] == suits[:, 0]
    match = starter_suit == suits[:, 0]
    jack_of_starter_suit = (starter_suit * 13 + 10).astype(hands.dtype)  # rank 10 = J
    nobs = np.zeros(len(hands), bool)
    for i in range(n_hand):
        nobs |= hands[:, i] == jack_of_starter_suit
    hand = np.where(flush, n_hand + match, 0) + nobs
    crib = np.where(flush & match, 5, 0) + nobs
    return hand, crib


def naive_scores(cards: np.ndarray, n_hand: int) -> tuple[np.ndarray, np.ndarray]:
    """(hand score, crib score) per row of ``cards`` (hand ids then the starter id)."""
    cards = np.asarray(cards, np.int64)
    base = naive_rank_points(cards % 13)
    hand_extra, crib_extra = naive_flush_nobs(cards[:, :n_hand], cards[:, n_hand])
    return base + hand_extra, base + crib_extra


def every_show(n_hand: int) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of ``n_hand`` cards with every starter not in it, as int8 ids."""
    combos = np.array(list(combinations(range(52), n_hand)), dtype=np.int8)
    member = np.zeros((len(combos), 52), bool)
    member[np.arange(len(combos))[:, None], combos] = True
    rows, starters = np.nonzero(~member)
    return combos[rows], starters.astype(np.int8)


def test_naive_scorer_agrees_with_the_rules_examples():
    # The reference scorer must itself reproduce rules §2 before it is trusted below.
    rows = np.array([[int(c) for c in cribbage.parse_cards(h + " " + s)] for h, s, *_ in RULES_EXAMPLES[1:]])
    hand, crib = naive_scores(rows, 4)
    expected = [e[3] for e in RULES_EXAMPLES[1:]]
    got = [int(c if e[2] else h) for h, c, e in zip(hand, crib, RULES_EXAMPLES[1:])]
    assert got == expected


def test_five_card_hand_distribution_equals_naive_enumeration():
    hands, starters = every_show(3)
    assert len(hands) == 1_082_900
    naive, _ = naive_scores(np.column_stack([hands, starters]), 3)
    assert np.bincount(naive, minlength=30).tolist() == hand_distribution("five-card-hand").tolist()
    # ... and every one of those shows, row by row, through the batch scorer
    assert_rows_equal(hands, starters, cribbage.score_hand_batch(hands, starters), naive)


def test_crib_distribution_derived_from_the_published_hand_table():
    # A crib scores like a hand except for four kept cards of one suit with a starter of another
    # suit: the hand gets a flush of 4, the crib 0 (rules §2). So the crib table is the published
    # hand table with those shows moved down by 4 points. They are 4 suits * C(13,4) * 39 starters.
    rows = []
    for suit in range(4):
        for ranks in combinations(range(13), 4):
            hand = [suit * 13 + r for r in ranks]
            rows += [hand + [s] for s in range(52) if s // 13 != suit]
    rows = np.array(rows)
    assert len(rows) == 4 * 715 * 39 == 111_540
    hand_scores, crib_scores = naive_scores(rows, 4)
    assert np.all(hand_scores - crib_scores == 4)
    expected = np.array([PUBLISHED_HAND[s] for s in range(30)], np.int64)
    expected -= np.bincount(hand_scores, minlength=30)
    expected += np.bincount(crib_scores, minlength=30)
    assert hand_distribution("crib").tolist() == expected.tolist()


def assert_rows_equal(hands, starters, got, expected):
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, [
        (hands[i].tolist(), int(starters[i]), "got", int(got[i]), "expected", int(expected[i])) for i in bad[:5]
    ]


def test_every_four_card_show_row_by_row_against_naive_rank_table():
    # Fifteens, pairs and runs depend only on the five ranks, so the naive scorer is run once per
    # multiset of five ranks (6175 of them) and looked up; flush and nobs are computed per row.
    multisets = np.array([m for m in combinations_with_replacement(range(13), 5) if len(set(m)) > 1], np.int64)
    assert len(multisets) == 6175  # C(17,5) minus the 13 impossible five-of-a-kinds
    table = np.full(13**5, -1, np.int16)
    key = np.zeros(len(multisets), np.int64)
    for i in range(5):
        key = key * 13 + multisets[:, i]
    table[key] = naive_rank_points(multisets)

    hands, starters = every_show(4)
    assert len(hands) == 12_994_800
    ranks = np.sort(np.column_stack([hands, starters]) % 13, axis=1)
    key = ranks[:, 0].astype(np.int32)
    for i in range(1, 5):
        key = key * 13 + ranks[:, i]
    rank_points = table[key]
    assert rank_points.min() >= 0
    hand_extra, crib_extra = naive_flush_nobs(hands, starters)
    naive_hand = rank_points + hand_extra
    naive_crib = rank_points + crib_extra
    assert_rows_equal(hands, starters, cribbage.score_hand_batch(hands, starters), naive_hand)
    assert_rows_equal(hands, starters, cribbage.score_hand_batch(hands, starters, crib=True), naive_crib)
    assert np.bincount(naive_hand, minlength=30).tolist() == [PUBLISHED_HAND[s] for s in range(30)]
