"""Declarations (хвалеж) of one hand and of both hands compared, with the repique.

Source of every expected value: docs/rules/piquet.md §3 (carte blanche 10, scored first, judged on the
dealt hand; point by length then point value, tie → nobody, one per card; sequences: maximal
runs, best = longer then higher top, exactly equal → nobody scores any sequence, the winner scores
every sequence, table russian 13..18 / rubicon 3, 4, 15..18; sets: 10..A only, four 14, three 3,
any four beats any three, higher rank beats lower, the winner scores all his sets), §4 (repique
+60 at 30+ while the opponent scored nothing, not even carte blanche; rubicon in reckoning
order), the Russian source (quoted in docs/rules/piquet.md) and the core rustdoc (rust/piquet/declare.rs,
compare.rs) for the decisions where the rules are silent. Every hand below is counted by hand in
its comment.
"""

from __future__ import annotations

from itertools import groupby

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribpiquet import piquet
from cribpiquet.piquet import Card, Rules, declarations, score_declarations


def names(items):
    return [x.name for x in items]


def ids(cards):
    return sorted(int(c) for c in cards)


def hand_ids(text):
    return sorted(Card(t).id for t in text.split())


# ------------------------------------------------------------------------- one hand: names


def test_point_sequences_sets_of_one_hand():
    # Rust doc example: hearts T J Q K A (point of five, 10+10+10+10+11 = 51, quint major 15);
    # AC AD AS + AH = fourteen aces; clubs 7 8 and 7D 8S make nothing.
    d = declarations("AH KH QH JH TH AC AD AS 7C 8C 7D 8S")
    assert (d.point.suit, d.point.length, d.point.value, d.point.name) == (2, 5, 51, "point of five")
    assert ids(d.point.cards) == hand_ids("TH JH QH KH AH")
    assert len(d.sequences) == 1
    q = d.sequences[0]
    assert (q.name, q.suit, q.length, q.top, q.value) == ("quint major", 2, 5, Card("AH"), 15)
    assert ids(q.cards) == hand_ids("TH JH QH KH AH")
    assert len(d.sets) == 1
    s = d.sets[0]
    assert (s.name, s.rank, s.count, s.value) == ("fourteen aces", 7, 4, 14)
    assert ids(s.cards) == hand_ids("AC AD AH AS")
    assert d.best_sequence.name == "quint major" and d.best_set.name == "fourteen aces"
    assert (d.sequences_value, d.sets_value, d.carte_blanche) == (15, 14, False)
    assert str(d) == "point of five, 51 (TH JH QH KH AH); quint major, 15; fourteen aces, 14"
    assert ids(d.hand) == hand_ids("AH KH QH JH TH AC AD AS 7C 8C 7D 8S")
    assert [int(c) for c in d.hand] == sorted(int(c) for c in d.hand)  # id order


def test_equal_sequences_and_low_fours():
    # clubs 7 8 9 and diamonds 7 8 9 are two tierces to the nine (equal ones listed by suit C..S);
    # hearts 7 9 A and spades 7 9 10 make none. Four sevens and four nines are below the ten: no
    # set (source: «Ниже десятки ни четырнадцать, ни три не считаются»).
    d = declarations("7C 9C 7D 9D 7H 9H 7S 9S 8C 8D TS AH")
    assert names(d.sequences) == ["tierce to the nine", "tierce to the nine"]
    assert [s.suit for s in d.sequences] == [0, 1]
    assert d.sets == [] and d.best_set is None and d.sets_value == 0


def test_a_hand_with_no_sequence():
    # 7 9 J K of clubs, 7 9 J of diamonds and hearts, 7S AS: no two neighbours of 3 → no sequence;
    # JC JD JH is three jacks.
    d = declarations("7C 9C JC KC 7D 9D JD 7H 9H JH 7S AS")
    assert d.sequences == [] and d.best_sequence is None and d.sequences_value == 0
    assert names(d.sets) == ["three jacks"] and d.sets_value == 3


@pytest.mark.parametrize(
    "length,word",
    [(3, "tierce"), (4, "quart"), (5, "quint"), (6, "sixième"), (7, "septième")],
)
def test_sequence_names_and_values_from_the_ace_and_from_below(length, word):
    # Source: «кварт-мажор», «терц-мажор» from the ace; otherwise named by the top card.
    fillers = "7C 9C JC KC 7D 9D JD KD 7S 9S JS KS".split()  # no run, no pair of neighbours
    top_run = [RANKS[r] + "H" for r in range(8 - length, 8)]  # ends at the ace
    low_run = [RANKS[r] + "H" for r in range(length)]  # from the 7 up
    russian = 13 + length - 3  # rules §3.3: 13, 14, 15, 16, 17, 18
    rubicon = [3, 4, 15, 16, 17, 18][length - 3]
    for run, name in ((top_run, f"{word} major"), (low_run, f"{word} to the {RANK_NAMES[length - 1]}")):
        hand = run + fillers[: 12 - length]
        d = declarations(hand)
        assert [(s.name, s.length, s.value) for s in d.sequences] == [(name, length, russian)]
        assert d.sequences[0].top == Card(run[-1])
        assert declarations(hand, rules="rubicon").sequences[0].value == rubicon


RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"]
RANK_NAMES = ["seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]


def test_huitieme():
    # «восемь восемнадцать»: all eight of a suit is the huitième, 18 in both rule sets.
    hand = "7H 8H 9H TH JH QH KH AH 7C 9C JC 7D"
    for rules in ("russian", "rubicon"):
        d = declarations(hand, rules=rules)
        assert [(s.name, s.length, s.value) for s in d.sequences] == [("huitième", 8, 18)]
    assert declarations(hand).point.name == "point of eight"
    assert declarations(hand).point.value == 75  # the whole suit


def test_sequence_values_follow_the_rules_field():
    # rules §3.3: every number is a field — a mixed table applies to every length.
    r = Rules.russian().replace(sequence_values=(1, 2, 3, 4, 5, 6))
    assert declarations("7H 8H 9H TH JH QH KH AH 7C 9C JC 7D", rules=r).sequences[0].value == 6
    assert declarations("JH QH KH 7C 9C JC 7D 9D JD 7S 9S JS", rules=r).sequences[0].value == 1


def test_a_suit_may_hold_two_sequences():
    # rules §3.3 "maximal runs; a suit may hold two": hearts 7 8 9 _ J Q K A = tierce to the nine
    # and quart major; best first.
    d = declarations("7H 8H 9H JH QH KH AH 7C 9C JC 7D 9S")
    assert [(s.name, s.value) for s in d.sequences] == [("quart major", 14), ("tierce to the nine", 13)]
    assert d.sequences_value == 27
    assert [s.value for s in declarations("7H 8H 9H JH QH KH AH 7C 9C JC 7D 9S", rules="rubicon").sequences] == [4, 3]


def test_sets_only_from_the_ten_up():
    # rules §3.4 / source: fourteens and threes of 9, 8, 7 do not count. Tens TH TC TD: three tens.
    d = declarations("7H 7C 7D 7S 9H 9C 9D TH TC TD 8S AS")
    assert [(s.name, s.count, s.rank, s.value) for s in d.sets] == [("three tens", 3, 3, 3)]
    d = declarations("AH AC AD AS KH KC KD 7H 8H 9C 7D 8S")
    # best first: fourteen aces, then three kings (rust doc example)
    assert [(s.name, s.value) for s in d.sets] == [("fourteen aces", 14), ("three kings", 3)]
    assert d.sets_value == 17


def test_point_names_and_the_lowest_suit_decision():
    # Decision (declare.rs): two suits equal in length and value → the lower suit id is named.
    d = declarations("7C 8C 9C 7D 8D 9D 7H 8H 9H 7S 8S 9S")
    assert (d.point.suit, d.point.length, d.point.value, d.point.name) == (0, 3, 24, "point of three")
    # Equal length, the higher value is the point: hearts 7 8 T J A (46) over clubs 7 8 9 T A (45).
    d = declarations("7H 8H TH JH AH 7C 8C 9C TC AC 7D 8D")
    assert (d.point.suit, d.point.length, d.point.value) == (2, 5, 46)
    # both 45 → the lower suit (clubs) is named
    d = declarations("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D")
    assert (d.point.suit, d.point.value) == (0, 45)
    for n, word in [(4, "four"), (6, "six"), (7, "seven")]:
        hand = [RANKS[r] + "S" for r in range(n)] + "AC 8C TC QC AD 9D TD QD".split()[: 12 - n]
        assert declarations(hand).point.name == f"point of {word}"


def test_carte_blanche_is_judged_on_the_dealt_hand():
    # rules §3.1: a dealt hand (before the exchange) with no K, Q or J. The exchange: AC 7D 8D for
    # KD QD JD (3 cards, allowed in russian, rules §2).
    dealt = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D"
    after = "7H 8H 9H TH AH 7C 8C 9C TC KD QD JD"
    assert declarations(dealt).carte_blanche
    assert not declarations(after).carte_blanche
    assert declarations(after, dealt=dealt).carte_blanche
    assert not declarations(dealt, dealt=after).carte_blanche
    assert str(declarations(dealt)).startswith("carte blanche, 10; point of five, 45")


DEALT_CB = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split()
TALON_CB = "KD QD JD KS QS JS AS TS".split()


def kept_after(n):
    """The dealt hand above with its last n cards exchanged for n talon cards."""
    return DEALT_CB[: 12 - n] + TALON_CB[:n]


@pytest.mark.parametrize(
    "rules,allowed",
    [
        # russian: none, or 3 to 5 (elder of his 5, the dealer of what elder left) — rules §2
        ("russian", [0, 3, 4, 5]),
        # rubicon: elder 1 to 5; the dealer up to all elder left: at most 7, since elder takes 1+
        ("rubicon", [0, 1, 2, 3, 4, 5, 6, 7]),
    ],
)
def test_the_hand_must_come_from_the_dealt_hand(rules, allowed):
    # issue 8.5: `dealt=` is checked as score_declarations checks it: the kept hand must come from
    # the dealt hand by an exchange the rules allow to one player or the other.
    for n in range(9):
        if n in allowed:
            assert declarations(kept_after(n), dealt=DEALT_CB, rules=rules).hand is not None
        else:
            with pytest.raises(ValueError, match=f"it holds {n} cards that were not dealt"):
                declarations(kept_after(n), dealt=DEALT_CB, rules=rules)


def test_a_dealt_hand_disjoint_from_the_hand_is_refused():
    # 12 dealt cards none of which is kept cannot have produced the hand; before this check the
    # carte blanche was judged on them.
    hand = "AH KH QH JH TH AC AD AS 7C 8C 7D 8S"
    other = "7H 8H 9H 9C TC JC QC KC 9D TD JD QD"
    with pytest.raises(ValueError, match="the hand cannot come from the dealt hand: it holds 12 cards that were not dealt"):
        declarations(hand, dealt=other)


# ----------------------------------------------------------------------- both hands compared

DOC_E = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
DOC_D = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"


def cats(s):
    return {k: (getattr(s, k).winner, getattr(s, k).points) for k in ("carte_blanche", "point", "sequences", "sets")}


# (id, elder, dealer, rules, carte blanche, point, sequences, sets, repique, totals)
CASES = [
    # Module doc deal: elder point of six (7H T J Q K A), quint major 15, fourteen aces 14 = 35; the
    # dealer: clubs 9 T J Q (quart), JD QD KD, 8S 9S TS (tierces), no set → 0: repique 95.
    ("doc", DOC_E, DOC_D, "russian", (None, (0, 0)), ("elder", (6, 0)), ("elder", (15, 0)), ("elder", (14, 0)), "elder", (95, 0)),
    ("doc-rubicon", DOC_E, DOC_D, "rubicon", (None, (0, 0)), ("elder", (6, 0)), ("elder", (15, 0)), ("elder", (14, 0)), "elder", (95, 0)),
    # Equal length, higher point value wins: A K Q J 9 (50) vs A K Q J 8 (49) → 5 to elder; both
    # best sequences are quart majors → nobody scores a sequence (elder's 7-8-9C and dealer's
    # 9-T-JD cancel too); no sets.
    ("point-by-value", "AH KH QH JH 9H 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS 8S 7H 8H TH 9D TD AC JD", "russian",
     (None, (0, 0)), ("elder", (5, 0)), (None, (0, 0)), (None, (0, 0)), None, (5, 0)),
    # Point, value and best sequence all equal (quint major, 51) → nobody scores anything.
    ("all-equal", "AH KH QH JH TH 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS TS 7H 8H 9H 9D TD JD AC", "russian",
     (None, (0, 0)), (None, (0, 0)), (None, (0, 0)), (None, (0, 0)), None, (0, 0)),
    # Source: «терц-мажор перебивается квартой … даже от валета». Elder's best is the tierce major
    # Q K A of hearts; the dealer's quart 8-J of hearts wins, and he scores every sequence: quart 14
    # + tierce T J Q of spades 13 = 27. Dealer point 8 9 T J of hearts (4, elder has only threes),
    # fourteen tens 14: 45 while elder has nothing → repique 105.
    ("quart-from-the-jack", "QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS", "russian",
     (None, (0, 0)), ("dealer", (0, 4)), ("dealer", (0, 27)), ("dealer", (0, 14)), "dealer", (0, 105)),
    # The same in rubicon: quart 4 + tierce 3 = 7; 4 + 7 + 14 = 25 < 30: no repique.
    ("quart-from-the-jack-rubicon", "QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS", "rubicon",
     (None, (0, 0)), ("dealer", (0, 4)), ("dealer", (0, 7)), ("dealer", (0, 14)), None, (0, 25)),
    # Source: «у одного игрока шесть карт и пять пятнадцать. У другого такие же пять пятнадцать.
    # Считаются только шесть карт.» Elder hearts 7 9 T J Q K (6) with the quint 9-K; the dealer the
    # quint 9-K of spades: the point (6) to elder, the quints cancel (elder's tierce 8-T of clubs
    # with them). The dealer's three jacks (JS JC JD) take the sets: 3.
    ("six-and-a-quint-vs-a-quint", "9H TH JH QH KH 7H 8C 9C TC 8D 9D 7S", "9S TS JS QS KS 7C JC QC 7D TD JD AC", "russian",
     (None, (0, 0)), ("elder", (6, 0)), (None, (0, 0)), ("dealer", (0, 3)), None, (6, 3)),
    # Source: «у одного игрока шесть карт, у другого квинта. Первый считает шесть, второй —
    # пятнадцать.» Elder 7 8 9 J K A of hearts (its tierce 7-8-9 loses to the quint 9-K of
    # spades); elder's four eights are below the ten and count nothing; three jacks to the dealer.
    ("six-vs-a-quint", "7H 9H JH KH AH 8H 8C TC QC 8D TD 8S", "9S TS JS QS KS 7C 9C JC 7D 9D JD AC", "russian",
     (None, (0, 0)), ("elder", (6, 0)), ("dealer", (0, 15)), ("dealer", (0, 3)), None, (6, 18)),
    # rules §3.4 / source: fourteens of aces and jacks against kings and queens → 28 and nothing.
    # The point: the dealer's K Q T 9 of hearts (39) beats elder's A J 8 7 (36): 4.
    ("fourteens", "AH AC AD AS JH JC JD JS 7H 8H 7C 8C", "KH KC KD KS QH QC QD QS 9H TH 9C 7D", "russian",
     (None, (0, 0)), ("dealer", (0, 4)), (None, (0, 0)), ("elder", (28, 0)), None, (28, 4)),
    # Source: «Старшинство четырнадцати … дает право считать свои младшие карты — три десятки»:
    # fourteen queens 14 + three tens 3 against three aces, kings and jacks → 17 and nothing.
    # The dealer's A K J 9 of hearts (40) beats elder's Q T 8 7 (35) on the point: 4.
    ("fourteen-carries-three-tens", "QH QC QD QS TH TC TD 7H 8H 7C 8C 7D", "AH AC AD KH KC KD JH JC JD 9H 9C 9D", "russian",
     (None, (0, 0)), ("dealer", (0, 4)), (None, (0, 0)), ("elder", (17, 0)), None, (17, 4)),
    # Any four beats any three: fourteen tens (14) against three aces and three kings; elder's hand
    # (10 7 8 of every suit) has no K, Q, J: carte blanche 10 → 24. The dealer: point A K Q J of
    # hearts (4), quart major 14 + tierce major A K Q of clubs 13 = 27: 31, but elder has scored →
    # no repique.
    ("four-beats-three", "TH TC TD TS 7H 8H 7C 8C 7D 8D 7S 8S", "AH KH QH JH AC KC QC AD KD 9D 9S JS", "russian",
     ("elder", (10, 0)), ("dealer", (0, 4)), ("dealer", (0, 27)), ("elder", (14, 0)), None, (24, 31)),
    ("four-beats-three-rubicon", "TH TC TD TS 7H 8H 7C 8C 7D 8D 7S 8S", "AH KH QH JH AC KC QC AD KD 9D 9S JS", "rubicon",
     ("elder", (10, 0)), ("dealer", (0, 4)), ("dealer", (0, 7)), ("elder", (14, 0)), None, (24, 11)),
    # Source: «три туза старше трех дам». Elder's three aces (3) beat the dealer's three queens, and
    # his hand (A 7 8 9 of three suits) is carte blanche (10); the dealer: point of seven (7S 8S 9S
    # TS JS KS AS) and the quint 7-J of spades (15) beat elder's tierces to the nine.
    ("three-aces-beat-three-queens", "AH AC AD 7H 8H 9H 7C 8C 9C 7D 8D 9D", "QH QC QD KH JC 7S 8S 9S TS JS KS AS", "russian",
     ("elder", (10, 0)), ("dealer", (0, 7)), ("dealer", (0, 15)), ("elder", (3, 0)), None, (13, 22)),
    # Carte blanche (elder: 7 8 9 T A of hearts and clubs, 7D 8D — no K, Q, J) scores 10 first.
    # Points equal (5 cards, 45 each), best sequences equal (quarts to the ten), no sets.
    ("carte-blanche", "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", "7S 8S 9S TS AS 9D TD AD KH QH JH KC", "russian",
     ("elder", (10, 0)), (None, (0, 0)), (None, (0, 0)), (None, (0, 0)), None, (10, 0)),
    # rules §4: repique blocked by the opponent's carte blanche («хотя бы и за "белые карты"»).
    # Elder: point of seven (8H..AH) 7, septième major 17, fourteen aces 14 + three kings 3 = 41;
    # the dealer (7 8 9 10 of clubs, diamonds, spades: no K Q J) has carte blanche 10.
    ("repique-blocked", "AH KH QH JH TH 9H AC AD AS KC KD 8H", "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS", "russian",
     ("dealer", (0, 10)), ("elder", (7, 0)), ("elder", (17, 0)), ("elder", (17, 0)), None, (41, 10)),
    ("repique-blocked-rubicon", "AH KH QH JH TH 9H AC AD AS KC KD 8H", "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS", "rubicon",
     ("dealer", (0, 10)), ("elder", (7, 0)), ("elder", (17, 0)), ("elder", (17, 0)), None, (41, 10)),
    # rules §4 "Either player may score it": the dealer's point of six (A K Q J T 9 of hearts) 6,
    # sixième major 16 + tierce major (A K Q of clubs) 13, fourteen aces 14 + three kings 3 = 52;
    # elder's four sevens, four eights and three nines count nothing → dealer repique 112.
    ("dealer-repique", "7C 8C 9C 7D 8D 9D 7S 8S 9S 7H 8H JC", "AH KH QH JH TH 9H AC AD AS KC KD QC", "russian",
     (None, (0, 0)), ("dealer", (0, 6)), ("dealer", (0, 29)), ("dealer", (0, 17)), "dealer", (0, 112)),
    # rubicon: 6 + (16 + 3) + 17 = 42 → 102.
    ("dealer-repique-rubicon", "7C 8C 9C 7D 8D 9D 7S 8S 9S 7H 8H JC", "AH KH QH JH TH 9H AC AD AS KC KD QC", "rubicon",
     (None, (0, 0)), ("dealer", (0, 6)), ("dealer", (0, 19)), ("dealer", (0, 17)), "dealer", (0, 102)),
    # rules §4 rubicon, reckoning order: elder's point of eight 8 + huitième 18 + quart 7-T of clubs
    # (rubicon 4) = exactly 30 at the end of the sequences, while the dealer (three aces, kings,
    # queens: 9) has nothing that reckons earlier → repique: 90. russian: 8 + 18 + 14 = 40 against
    # the dealer's 9 → no repique.
    ("reckoning-order-russian", "7H 8H 9H TH JH QH KH AH 7C 8C 9C TC", "AC KC QC AD KD QD AS KS QS JC 7D 7S", "russian",
     (None, (0, 0)), ("elder", (8, 0)), ("elder", (32, 0)), ("dealer", (0, 9)), None, (40, 9)),
    ("reckoning-order-rubicon", "7H 8H 9H TH JH QH KH AH 7C 8C 9C TC", "AC KC QC AD KD QD AS KS QS JC 7D 7S", "rubicon",
     (None, (0, 0)), ("elder", (8, 0)), ("elder", (22, 0)), ("dealer", (0, 9)), "elder", (90, 9)),
    # Repique needs 30: elder's point of eight 8 + huitième 18 + three tens 3 = 29, the dealer 0 → none.
    ("twenty-nine", "7H 8H 9H TH JH QH KH AH TC TD 7C 7D", "8C 9C 8D 9D 7S 8S 9S TS JC JD QC QD", "russian",
     (None, (0, 0)), ("elder", (8, 0)), ("elder", (18, 0)), ("elder", (3, 0)), None, (29, 0)),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hand_checked_comparisons(case):
    _, elder, dealer, rules, cb, point, seqs, sets, repique, totals = case
    s = score_declarations(elder, dealer, rules=rules)
    assert cats(s) == {"carte_blanche": cb, "point": point, "sequences": seqs, "sets": sets}
    assert (s.repique, s.totals) == (repique, totals)
    # the items are the scoring declarations; they add up to the totals
    assert sum(it[3] for it in s.items) == sum(totals)
    # the same deal seen from the other side: the roles swap, the numbers do not
    t = score_declarations(dealer, elder, rules=rules)
    swap = {"elder": "dealer", "dealer": "elder", None: None}
    assert t.totals == totals[::-1]
    assert t.repique == swap[repique]
    assert (t.point.winner, t.point.points) == (swap[point[0]], point[1][::-1])


def test_items_are_in_reckoning_order():
    # rules §3: carte blanche, point, sequences, sets, then the repique.
    s = score_declarations("AH KH QH JH TH 9H AC AD AS KC KD 8H", "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS")
    assert [(p, k, n, v) for p, k, n, v, _ in s.items] == [
        ("dealer", "carte blanche", "carte blanche", 10),
        ("elder", "point", "point of seven", 7),
        ("elder", "sequence", "septième major", 17),
        ("elder", "set", "fourteen aces", 14),
        ("elder", "set", "three kings", 3),
    ]
    s = score_declarations(DOC_E, DOC_D)
    assert [(p, k, n, v) for p, k, n, v, _ in s.items] == [
        ("elder", "point", "point of six", 6),
        ("elder", "sequence", "quint major", 15),
        ("elder", "set", "fourteen aces", 14),
        ("elder", "repique", "repique", 60),
    ]
    assert ids(s.items[0][4]) == hand_ids("7H TH JH QH KH AH")
    assert ids(s.items[2][4]) == hand_ids("AC AD AH AS")
    assert s.items[3][4] == []


def test_the_winner_scores_every_sequence_and_every_set():
    s = score_declarations("QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS")
    seq = [(n, v) for p, k, n, v, _ in s.items if k == "sequence"]
    assert seq == [("quart to the jack", 14), ("tierce to the queen", 13)]
    s = score_declarations("AH AC AD AS JH JC JD JS 7H 8H 7C 8C", "KH KC KD KS QH QC QD QS 9H TH 9C 7D")
    assert [(p, n, v) for p, k, n, v, _ in s.items if k == "set"] == [
        ("elder", "fourteen aces", 14),
        ("elder", "fourteen jacks", 14),
    ]
    assert names(s.dealer.sets) == ["fourteen kings", "fourteen queens"]  # held, not scored


def test_announcement_text():
    # str() reads like the announcement (issue 3 item 4); categories in reckoning order.
    assert str(score_declarations(DOC_E, DOC_D)) == (
        "Point of six — good, 6 (elder); quint major — good, 15 (elder); fourteen aces — good, 14 (elder); "
        "repique, 60 (elder). Elder 95, dealer 0."
    )
    assert str(score_declarations("AH KH QH JH TH 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS TS 7H 8H 9H 9D TD JD AC")) == (
        "Point of five, 51 — equal; quint major — equal, no sequence scores. Elder 0, dealer 0."
    )
    assert str(score_declarations("AH AC AD AS JH JC JD JS 7H 8H 7C 8C", "KH KC KD KS QH QC QD QS 9H TH 9C 7D")) == (
        "Point of four — good, 4 (dealer); fourteen aces — good, 14 (elder); fourteen jacks, 14 (elder). "
        "Elder 28, dealer 4."
    )
    assert str(score_declarations("QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS")) == (
        "Point of four — good, 4 (dealer); quart to the jack — good, 14 (dealer); tierce to the queen, 13 (dealer); "
        "fourteen tens — good, 14 (dealer); repique, 60 (dealer). Elder 0, dealer 105."
    )
    assert str(score_declarations("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", "7S 8S 9S TS AS 9D TD AD KH QH JH KC")) == (
        "Carte blanche — 10 (elder); point of five, 45 — equal; quart to the ten — equal, no sequence scores. "
        "Elder 10, dealer 0."
    )
    assert str(score_declarations("9H TH JH QH KH 7H 8C 9C TC 8D 9D 7S", "9S TS JS QS KS 7C JC QC 7D TD JD AC")) == (
        "Point of six — good, 6 (elder); quint to the king — equal, no sequence scores; "
        "three jacks — good, 3 (dealer). Elder 6, dealer 3."
    )


def test_repique_without_carte_blanche_judged_on_the_dealt_hand():
    # rules §3.1 + §4: the dealer was dealt K Q J of spades (no carte blanche) and exchanged them
    # for 7 8 10 of spades (3 cards: russian allows 3..5). Then elder's 41 is a repique: 101.
    elder = "AH KH QH JH TH 9H AC AD AS KC KD 8H"
    dealer = "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS"
    dealt = "7C 8C 9C TC 7D 8D 9D TD 9S KS QS JS"
    s = score_declarations(elder, dealer, dealer_dealt=dealt)
    assert (s.carte_blanche.points, s.repique, s.totals) == ((0, 0), "elder", (101, 0))
    assert str(s).endswith("repique, 60 (elder). Elder 101, dealer 0.")
    assert not s.dealer.carte_blanche
    # and given the dealt hand equal to the hand, the carte blanche stands
    s = score_declarations(elder, dealer, dealer_dealt=dealer)
    assert (s.carte_blanche.winner, s.repique, s.totals) == ("dealer", None, (41, 10))


def test_carte_blanche_for_elder_judged_on_his_dealt_hand():
    # Elder was dealt 7 8 9 10 A of hearts and clubs, 7D 8D (no court: carte blanche) and took
    # KD QD JS for 9C 7D 8D. After: hearts 7-T + A (point of five 45, quart to the ten 14), clubs
    # 7 8 T A; the dealer: J Q K of hearts and clubs, 9 T J A of diamonds, 7S 8S → point 4, best
    # sequence a tierce, three jacks (JH JC JD). Elder 10 + 5 + 14 = 29; dealer 3.
    elder = "7H 8H 9H TH AH 7C 8C TC AC KD QD JS"
    dealer = "JH QH KH JC QC KC 9D TD JD AD 7S 8S"
    dealt = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D"
    s = score_declarations(elder, dealer, elder_dealt=dealt)
    assert cats(s)["carte_blanche"] == ("elder", (10, 0))
    assert s.totals == (29, 3)
    assert s.items[0][:4] == ("elder", "carte blanche", "carte blanche", 10)
    assert score_declarations(elder, dealer).totals == (19, 3)  # judged on the hand: no carte blanche


def test_mixed_bonus_modes():
    # Every rule is a field: rubicon values with the russian repique test, and the reverse.
    e, d = "7H 8H 9H TH JH QH KH AH 7C 8C 9C TC", "AC KC QC AD KD QD AS KS QS JC 7D 7S"
    # rubicon, but "opponent scored nothing" on totals: 30 vs 9 → no repique
    r = Rules.rubicon().replace(bonus_mode="opponent-scored-nothing")
    assert score_declarations(e, d, rules=r).totals == (30, 9)
    # russian values judged in reckoning order: 8 + 32 = 40 reached before the dealer's sets
    r = Rules.russian().replace(bonus_mode="reckoning-order")
    assert score_declarations(e, d, rules=r).totals == (100, 9)


# ------------------------------------------------------------------- naive reference (property)

PV = [7, 8, 9, 10, 10, 10, 10, 11]


def naive_hand(hand, seq_values):
    """(carte blanche, point key, point score, best sequence key, sequences score, best set key,
    sets score) of one hand, counted the obvious way from rules §3."""
    by_suit = {s: sorted(i % 8 for i in hand if i // 8 == s) for s in range(4)}
    point = max((len(r), sum(PV[x] for x in r)) for r in by_suit.values())
    runs = []
    for ranks in by_suit.values():
        # split the sorted ranks into maximal consecutive runs
        for _, grp in groupby(enumerate(ranks), key=lambda t: t[1] - t[0]):
            run = [r for _, r in grp]
            if len(run) >= 3:
                runs.append((len(run), run[-1]))
    sets = []
    for rank in range(3, 8):  # 10, J, Q, K, A
        n = sum(1 for i in hand if i % 8 == rank)
        if n >= 3:
            sets.append((n, rank))
    cb = not any(i % 8 in (4, 5, 6) for i in hand)
    return (
        cb,
        point,
        point[0],
        max(runs, default=(0, 0)),
        sum(seq_values[n - 3] for n, _ in runs),
        max(sets, default=(0, 0)),
        sum(14 if n == 4 else 3 for n, _ in sets),
    )


def naive_score(elder, dealer, rules):
    sv = rules.sequence_values
    e, d = naive_hand(elder, sv), naive_hand(dealer, sv)
    categories = [(10 * e[0], 10 * d[0])]
    for key, value in ((1, 2), (3, 4), (5, 6)):
        if e[key] > d[key]:
            categories.append((e[value], 0))
        elif d[key] > e[key]:
            categories.append((0, d[value]))
        else:
            categories.append((0, 0))
    totals = [sum(c[0] for c in categories), sum(c[1] for c in categories)]
    repique = None
    for p in (0, 1):
        o = 1 - p
        if rules.bonus_mode == "reckoning-order":
            acc = [0, 0]
            for c in categories:
                acc = [acc[0] + c[0], acc[1] + c[1]]
                if acc[p] >= 30:
                    if acc[o] == 0:
                        repique = p
                    break
        elif totals[p] >= 30 and totals[o] == 0:
            repique = p
    if repique is not None:
        totals[repique] += 60
    return categories, (["elder", "dealer"][repique] if repique is not None else None), tuple(totals)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(perm=st.permutations(range(32)), rubicon=st.booleans())
def test_score_declarations_matches_a_naive_reference(perm, rubicon):
    rules = Rules.rubicon() if rubicon else Rules.russian()
    elder, dealer = perm[:12], perm[12:24]
    categories, repique, totals = naive_score(elder, dealer, rules)
    s = score_declarations(elder, dealer, rules=rules)
    got = [s.carte_blanche.points, s.point.points, s.sequences.points, s.sets.points]
    assert got == categories
    assert (s.repique, s.totals) == (repique, totals)
    assert sum(it[3] for it in s.items) == sum(totals)


def skewed_deal(draw):
    """Deals with long suits and many high cards, where sets, long sequences and repiques happen."""
    order = draw(st.permutations(range(32)))
    bias = draw(st.integers(0, 5))
    if bias < 4:
        order = sorted(order, key=lambda i: i // 8 != bias)  # one suit first (stable: shuffled)
    elif bias == 4:
        order = sorted(order, key=lambda i: i % 8 < 3)  # tens and up first
    head = draw(st.permutations(order[:16]))
    rest = draw(st.permutations(list(head[12:]) + list(order[16:])))
    return list(head[:12]), list(rest[:12])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.composite(skewed_deal)(), rubicon=st.booleans())
def test_score_declarations_matches_on_skewed_deals(deal, rubicon):
    rules = Rules.rubicon() if rubicon else Rules.russian()
    elder, dealer = deal
    _, repique, totals = naive_score(elder, dealer, rules)
    s = score_declarations(elder, dealer, rules=rules)
    assert (s.repique, s.totals) == (repique, totals)
    # the one-hand view agrees with the comparison's copy
    d = declarations(elder, rules=rules)
    assert d.sequences_value == s.elder.sequences_value and d.sets_value == s.elder.sets_value
    assert naive_hand(elder, rules.sequence_values)[4] == d.sequences_value
    assert naive_hand(elder, rules.sequence_values)[6] == d.sets_value
