"""Pegging: docs/rules/cribbage.md §3 (and the seed's play examples), §5 pegging mistakes, go_points,
explain_peg.

peg_points(sequence) is the points for the LAST card of the sequence (the cards laid since the
count was last reset). Each expected value is derived in its comment (pips: A = 1, J Q K = 10).
"""

from __future__ import annotations

import pytest

from cribpiquet.cribbage import Card, PegBreakdown, explain_peg, go_points, parse_cards, peg_points

# ---------------------------------------------------------------- the seed's play examples (§3)


@pytest.mark.parametrize(
    "sequence,points",
    [
        # seed / issue 2 item 9: "3-2-5 then 4 -> 4": the last four are 2,3,4,5 -> run of four; count 14.
        ("3C 2D 5H 4S", 4),
        # §3 "3-2-5-A-4: run 5 + fifteen 2 = 7" (count 3+2+5+1+4 = 15).
        ("3C 2D 5H AS 4C", 7),
        # seed: "2-A-6-5-3-4 -> 6": run of six A..6, count 21.
        ("2C AD 6H 5S 3C 4D", 6),
        # §3 "3-6-6: pair 2 + fifteen 2 = 4".
        ("3C 6D 6H", 4),
        # §3 "6-4-A-4: fifteen 2, no pair" (the fours are not adjacent).
        ("6C 4D AH 4S", 2),
        # §3 "3-8-4 ... it is only a fifteen (2)".
        ("3C 8D 4H", 2),
    ],
)
def test_seed_play_examples(sequence, points):
    assert peg_points(sequence) == points
    assert explain_peg(sequence).total == points


def test_seed_examples_intermediate_cards():
    # 3-2-5: count 10, ranks 2,3,5 not consecutive -> 0; 3-2: 0; 3-8: 11 -> 0.
    assert peg_points("3C 2D 5H") == 0
    assert peg_points("3C 2D") == 0
    assert peg_points("3C 8D") == 0
    # 2-A-6-5-3: count 17, last three 6,5,3 not a run; 2-A-6-5-3-4 makes the six-run.
    assert peg_points("2C AD 6H 5S 3C") == 0


# ---------------------------------------------------------------------------- 15 / 31 / pairs


@pytest.mark.parametrize(
    "sequence,points",
    [
        ("7C 8D", 2),  # 15
        ("KC 5D", 2),  # 10 + 5 = 15
        ("5C KD", 2),
        ("TC JD KH AS", 2),  # 31
        ("KC QD 9H 2S", 2),  # 10+10+9+2 = 31
        ("KC 4D", 0),  # 14: nothing
        ("KC 6D", 0),  # 16: nothing
        ("TC JD KH", 0),  # 30: nothing, no pair (different ranks), no run (10 J K: Q missing)
    ],
)
def test_fifteen_and_thirty_one(sequence, points):
    assert peg_points(sequence) == points


@pytest.mark.parametrize(
    "sequence,points",
    [
        ("7C 7D", 2),  # pair, count 14
        ("7C 7D 7H", 6),  # pair royal, count 21
        ("AC AD AH AS", 12),  # double pair royal, count 4
        ("2C 2D 2H 2S", 12),  # double pair royal, count 8
        ("KC KD", 2),  # count 20
        ("KC KD KH", 6),  # count 30
        ("KC QD", 0),  # courts of different ranks do not pair, count 20
        ("5C 5D 5H", 8),  # pair royal 6 + fifteen 2
        ("AC 2D 3C 3D 3H 3S", 14),  # 1+2+3*4 = 15: double pair royal 12 + fifteen 2; 3 3 3 no run
        ("KC 7D 7H 7S", 8),  # 10+21 = 31: pair royal 6 + 31 for 2
        ("KC 9D 6H 6S", 4),  # 10+9+12 = 31: pair 2 + 31 for 2
        ("6C 3D 3H", 2),  # 12: pair 2
        ("6C 6D 3H", 2),  # 6+6+3 = 15: fifteen 2; the 3 pairs nothing
    ],
)
def test_pairs_pair_royal_double_pair_royal(sequence, points):
    assert peg_points(sequence) == points


def test_pairs_only_between_adjacent_cards():
    # §5 "pegging pairs matched across non-adjacent cards".
    assert peg_points("6C 4D AH 4S") == 2  # §3: fifteen only
    assert peg_points("7C 7D 8H 7S") == 0  # 29; 7S follows 8H: no pair; 7 8 7 is not a run
    assert peg_points("5C 5D 6H 5S") == 0  # 21; no pair, no run (5 6 5)
    # A pair royal needs three in a row: 7 7 K 7 is 7+7+10+7 = 31 -> the 31 only, 2.
    assert peg_points("7C 7D KH 7S") == 2
    b = explain_peg("7C 7D KH 7S")
    assert (b.pairs, b.thirty_one) == (0, 2)


# ------------------------------------------------------------------------------------- runs


@pytest.mark.parametrize(
    "sequence,run,total",
    [
        ("9C TD 8H", 3, 3),  # 27; 8-9-10
        ("5C 3D 4H", 3, 3),  # 12; any order
        ("4C 5D 6H", 3, 5),  # 15: fifteen 2 + run 3
        ("3C 2D 5H 4S", 4, 4),  # 14; run of four
        ("6C 7D 8H 9S", 4, 4),  # 30
        ("3C 2D 5H AS 4C", 5, 7),  # 15: run of five + fifteen
        ("AC 2D 3H 5S 4C", 5, 7),  # 15
        ("2C AD 6H 5S 3C 4D", 6, 6),  # 21: run of six
        ("4C 2D AH 3S 6C 5D 7H", 7, 7),  # 28: run of seven A..7
        # 3+1+2+3+4+5+6+7 = 31: the last seven are A..7 (a run of seven) and 31 for 2 -> 9
        ("3C AD 2H 3S 4C 5D 6H 7S", 7, 9),
    ],
)
def test_runs_three_to_seven(sequence, run, total):
    b = explain_peg(sequence)
    assert (b.run, b.total) == (run, total)
    assert peg_points(sequence) == total


def test_run_scores_the_largest_k_only():
    # 3-2-5-4: the last three (2,5,4) are not a run, the last four are: 4, not 4 + 3.
    assert explain_peg("3C 2D 5H 4S").run == 4
    # 6-7-8-9 contains 7-8-9 but scores 4.
    assert explain_peg("6C 7D 8H 9S").run == 4


def test_run_broken_by_an_intervening_card():
    # 3 4 K 5: the last three are 4,K,5; the last four 3,4,K,5 are not consecutive. Count 22.
    assert peg_points("3C 4D KH 5S") == 0


def test_runs_blocked_only_by_a_duplicate_inside_them():
    # §5 "runs blocked by an earlier duplicate".
    assert peg_points("4C 5D 4H 6S") == 3  # 19; 5-4-6 run; the first 4 lies outside it
    assert peg_points("4C 4D 5H 6S") == 3  # 19; 4-5-6 run
    assert peg_points("4C 5D 6H 4S") == 3  # 19; 5-6-4 run; 4-5-6-4 repeats a rank
    assert peg_points("2C 3D 2H 4S") == 3  # 11; 3-2-4
    assert peg_points("AC 2D 3H AS 2S 3S 4C") == 4  # 16; last four A 2 3 4; five would repeat the 3
    # A duplicate inside the last cards does block: 3 4 5 5 is a pair, not a run.
    assert peg_points("3C 4D 5H 5S") == 2  # 17
    b = explain_peg("3C 4D 5H 5S")
    assert (b.pairs, b.run) == (2, 0)


def test_thirty_one_and_a_run_both_score():
    # §5 "31 and a run not both scored": 7+8+9+7 = 31; last three 8,9,7 a run: 2 + 3 = 5.
    b = explain_peg("7C 8D 9H 7S")
    assert (b.count, b.thirty_one, b.run, b.total) == (31, 2, 3, 5)
    assert peg_points("7C 8D 9H 7S") == 5


def test_thirty_one_is_two_never_three():
    # §3/§5: the last card that makes 31 scores 2 in total, never 3 (no extra go point).
    assert peg_points("TC JD KH AS") == 2
    assert go_points(31) == 0
    assert peg_points("TC JD KH AS") + go_points(31) == 2
    b = explain_peg("TC JD KH AS")
    assert (b.count, b.fifteen, b.thirty_one, b.pairs, b.run, b.total) == (31, 0, 2, 0, 0, 2)


def test_a_long_sequence_of_thirteen_cards():
    # A A A 2 2 2 3 3 3 A 2 3 4: count 3+6+9+1+2+3+4 = 28; last four A 2 3 4 a run of four
    # (the fifth from the end is a 3, which repeats a rank). 13 cards is the most a count can hold.
    seq = "AC AD AH 2C 2D 2H 3C 3D 3H AS 2S 3S 4C"
    assert len(parse_cards(seq)) == 13
    b = explain_peg(seq)
    assert (b.count, b.run, b.total) == (28, 4, 4)


def test_single_card():
    assert peg_points("KC") == 0
    assert peg_points("5H") == 0
    assert explain_peg("KC").count == 10


# --------------------------------------------------------------------------------- go_points


@pytest.mark.parametrize("count", range(0, 31))
def test_go_point_is_one_below_31(count):
    assert go_points(count) == 1  # §3 "go / last card ... | 1"


def test_go_point_is_zero_at_31():
    assert go_points(31) == 0  # §3 "(or 2 in total if it made 31, never 3)"


@pytest.mark.parametrize("count", [32, 40, 100])
def test_go_points_past_31_is_an_error(count):
    with pytest.raises(ValueError, match=str(count)):
        go_points(count)


def test_go_points_negative_is_an_error():
    with pytest.raises(ValueError, match="-1"):
        go_points(-1)


# ------------------------------------------------------------------------------ explain_peg


def norm(items):
    return [(k, sorted(int(c) for c in cards), p) for k, cards, p in items]


def cards_ids(text):
    return sorted(int(c) for c in parse_cards(text))


def test_explain_peg_fields_items_and_reading_run_and_fifteen():
    b = explain_peg("3C 2D 5H AS 4C")
    assert isinstance(b, PegBreakdown)
    assert (b.count, b.fifteen, b.thirty_one, b.pairs, b.run, b.total) == (15, 2, 0, 0, 5, 7)
    assert int(b) == 7
    assert norm(b.items) == [
        ("fifteen", cards_ids("3C 2D 5H AS 4C"), 2),
        ("run", cards_ids("3C 2D 5H AS 4C"), 5),
    ]
    for kind, cards, pts in b.items:
        assert isinstance(kind, str) and isinstance(pts, int)
        assert all(type(c) is Card for c in cards)
    assert str(b) == "fifteen two and a run of five is seven"  # 2, then +5 = 7
    assert repr(b) == "PegBreakdown(total=7, count=15, fifteen=2, thirty_one=0, pairs=0, run=5)"


def test_explain_peg_thirty_one_and_run():
    b = explain_peg("7C 8D 9H 7S")
    assert norm(b.items) == [("thirty-one", cards_ids("7C 8D 9H 7S"), 2), ("run", cards_ids("8D 9H 7S"), 3)]
    assert str(b) == "thirty-one for two and a run of three is five"


def test_explain_peg_thirty_one_alone():
    b = explain_peg("TC JD KH AS")
    assert norm(b.items) == [("thirty-one", cards_ids("TC JD KH AS"), 2)]
    assert str(b) == "thirty-one for two"


def test_explain_peg_pairs():
    b = explain_peg("AC AD AH AS")
    assert (b.pairs, b.total, b.count) == (12, 12, 4)
    assert norm(b.items) == [("pair", cards_ids("AC AD AH AS"), 12)]
    assert str(b) == "a double pair royal for twelve"

    b = explain_peg("7C 7D 7H")
    assert norm(b.items) == [("pair", cards_ids("7C 7D 7H"), 6)]
    assert str(b) == "a pair royal for six"

    b = explain_peg("3C 4D 5H 5S")
    assert norm(b.items) == [("pair", cards_ids("5H 5S"), 2)]
    assert str(b) == "a pair for two"

    b = explain_peg("5C 5D 5H")
    assert (b.fifteen, b.pairs, b.total) == (2, 6, 8)
    assert str(b) == "fifteen two and a pair royal is eight"


def test_explain_peg_fifteen_only_and_nothing():
    b = explain_peg("6C 4D AH 4S")
    assert norm(b.items) == [("fifteen", cards_ids("6C 4D AH 4S"), 2)]
    assert str(b) == "fifteen two"
    b = explain_peg("KC")
    assert (b.total, b.items) == (0, [])
    assert str(b) == "ten, no score"


def test_explain_peg_run_only():
    b = explain_peg("3C 2D 5H 4S")
    assert norm(b.items) == [("run", cards_ids("3C 2D 5H 4S"), 4)]
    assert str(b) == "a run of four for four"


# --------------------------------------------------------------------------------- rejection


def test_rejects_a_count_past_31():
    # §3 "the running count ... may never exceed 31": 10+10+10+2 = 32.
    with pytest.raises(ValueError, match="32"):
        peg_points("KC KD KH 2S")
    with pytest.raises(ValueError, match="31"):
        explain_peg("KC KD KH 2S")
    # exactly 31 is fine
    assert peg_points("KC KD KH AS") == 2
