"""Cribbage cards: ids, text forms, value semantics, pickling, parse_cards, and card-like inputs.

Source of every expected value: docs/rules/cribbage.md §1 (id = suit * 13 + rank, rank 0 = A .. 12 = K,
suits C D H S = 0..3; pips A = 1, 2..10 face, J Q K = 10; text rank A 2..9 10|T J Q K + suit
C D H S or ♣ ♦ ♥ ♠, case-insensitive; printed as 5H / TH), and issue 2 item 2.
"""

from __future__ import annotations

import copy
import operator
import pickle
import random

import numpy as np
import pytest

from cribpiquet import cribbage
from cribpiquet.cribbage import Card, parse_cards

RANK_LETTERS = "A23456789TJQK"  # printed rank, rules §1 ("Printing uses 5H, TH style")
RANK_WORDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"


def expected_pips(rank: int) -> int:
    # rules §1: A = 1, 2..10 face value, J Q K = 10
    return min(rank + 1, 10)


# ------------------------------------------------------------------------------ all 52 cards


@pytest.mark.parametrize("card_id", range(52))
def test_every_card_from_id(card_id):
    suit, rank = divmod(card_id, 13)  # id = suit * 13 + rank (rules §1)
    c = Card(card_id)
    assert (c.id, c.rank, c.suit, c.pips) == (card_id, rank, suit, expected_pips(rank))
    assert int(c) == card_id
    assert operator.index(c) == card_id
    text = RANK_LETTERS[rank] + SUIT_LETTERS[suit]
    assert str(c) == text
    assert repr(c) == f"Card('{text}')"
    assert c.symbol() == RANK_WORDS[rank] + SUIT_SYMBOLS[suit]


@pytest.mark.parametrize("card_id", range(52))
def test_every_card_from_every_text_form(card_id):
    suit, rank = divmod(card_id, 13)
    forms = {
        RANK_LETTERS[rank] + SUIT_LETTERS[suit],
        RANK_LETTERS[rank].lower() + SUIT_LETTERS[suit].lower(),
        RANK_LETTERS[rank].lower() + SUIT_LETTERS[suit],
        RANK_LETTERS[rank] + SUIT_LETTERS[suit].lower(),
        RANK_WORDS[rank] + SUIT_LETTERS[suit],
        RANK_WORDS[rank].lower() + SUIT_LETTERS[suit].lower(),
        RANK_WORDS[rank] + SUIT_SYMBOLS[suit],
        RANK_LETTERS[rank] + SUIT_SYMBOLS[suit],
        RANK_LETTERS[rank].lower() + SUIT_SYMBOLS[suit],
    }
    for text in forms:
        c = Card(text)
        assert c.id == card_id, text
        assert Card(text) == Card(card_id)


@pytest.mark.parametrize("card_id", range(52))
def test_every_card_text_round_trips(card_id):
    c = Card(card_id)
    assert Card(str(c)) == c
    assert Card(c.symbol()) == c
    assert Card(c) == c  # a Card is accepted where a card is expected


def test_known_ids():
    # Hand-computed from id = suit * 13 + rank.
    assert Card("AC").id == 0
    assert Card("KC").id == 12
    assert Card("AD").id == 13
    assert Card("5D").id == 1 * 13 + 4 == 17
    assert Card("5H").id == 2 * 13 + 4 == 30
    assert Card("TH").id == 2 * 13 + 9 == 35
    assert Card("JC").id == 10
    assert Card("KS").id == 3 * 13 + 12 == 51
    assert Card(17) == Card("5D")


def test_ten_of_hearts_spellings_are_one_card():
    # rules §1: "5h, 10♥, TH are the same card" (case-insensitive, 10 or T)
    spellings = ["10♥", "TH", "th", "Th", "tH", "10H", "10h"]
    cards = {Card(s) for s in spellings}
    assert cards == {Card(35)}
    assert str(Card("10♥")) == "TH"
    assert Card("th").symbol() == "10♥"


def test_five_of_hearts_spellings():
    assert Card("5h") == Card("5H") == Card("5♥") == Card(30)


@pytest.mark.parametrize("symbol,suit", list(zip(SUIT_SYMBOLS, range(4))))
def test_each_suit_symbol(symbol, suit):
    # rules §1: suits C D H S = ♣ ♦ ♥ ♠ = 0..3
    for rank, word in enumerate(RANK_WORDS):
        c = Card(word + symbol)
        assert (c.rank, c.suit) == (rank, suit)


def test_pips_of_courts_and_ace():
    assert [Card(r + "S").pips for r in "A23456789TJQK"] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


# ------------------------------------------------------------------------- value semantics


def test_equality_and_hash_across_constructions():
    a, b, c = Card("5H"), Card(30), Card(Card("5♥"))
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    d = {a: "five"}
    assert d[Card("5h")] == "five"
    assert Card("5H") != Card("5D")
    assert not (Card("5H") != Card(30))


def test_all_52_cards_distinct_and_hashable():
    cards = [Card(i) for i in range(52)]
    assert len(set(cards)) == 52
    assert len({str(c) for c in cards}) == 52


def test_ordering_is_by_id():
    assert Card(0) < Card(1) < Card(51)
    assert Card("KC") < Card("AD")  # 12 < 13
    assert Card("5H") <= Card(30) and Card("5H") >= Card(30)
    assert Card("KS") > Card("QS") and Card("KS") >= Card("QS")
    assert not (Card(5) < Card(5))
    ids = list(range(52))
    random.Random(7).shuffle(ids)
    assert [c.id for c in sorted(Card(i) for i in ids)] == list(range(52))
    assert max(Card(i) for i in ids) == Card(51)
    assert min(Card(i) for i in ids) == Card(0)


def test_card_is_frozen():
    c = Card("5H")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.id = 3  # type: ignore[misc]
    assert c.id == 30


def test_index_lets_a_card_index_a_sequence():
    table = list(range(100, 152))
    assert table[Card("5H")] == 130


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip_every_card(protocol):
    cards = [Card(i) for i in range(52)]
    back = pickle.loads(pickle.dumps(cards, protocol=protocol))
    assert back == cards
    assert all(type(b) is Card for b in back)
    assert [b.id for b in back] == list(range(52))


def test_copy_and_deepcopy():
    c = Card("QD")
    assert copy.copy(c) == c
    assert copy.deepcopy([c]) == [Card(24)]


# ----------------------------------------------------------------------------- parse_cards


def ids(cards):
    return [int(c) for c in cards]


def test_parse_cards_spaces():
    # 5H = 30, 5D = 17, 5S = 43, JC = 10
    cards = parse_cards("5H 5D 5S JC")
    assert all(type(c) is Card for c in cards)
    assert ids(cards) == [30, 17, 43, 10]


def test_parse_cards_commas_and_mixed_whitespace():
    assert ids(parse_cards("5H,5D, 5S ,JC")) == [30, 17, 43, 10]
    assert ids(parse_cards("5h\t5d\n10♠  jc")) == [30, 17, 48, 10]
    assert ids(parse_cards("  AC ,, KS  ")) == [0, 51]


def test_parse_cards_empty_text():
    assert parse_cards("") == []
    assert parse_cards("   ") == []


def test_parse_cards_keeps_order():
    assert ids(parse_cards("KS QS AC")) == [51, 50, 0]


def test_parse_cards_iterables_of_mixed_card_int_str():
    expected = [30, 17, 43, 10]
    assert ids(parse_cards([Card("5H"), 17, "5S", "jc"])) == expected
    assert ids(parse_cards((Card("5H"), 17, "5♠", "JC"))) == expected
    assert ids(parse_cards(x for x in ["5H", 17, Card(43), 10])) == expected
    assert ids(parse_cards(np.array(expected))) == expected
    assert ids(parse_cards(np.array(expected, dtype=np.uint8))) == expected
    assert ids(parse_cards(range(3))) == [0, 1, 2]
    assert ids(parse_cards([np.int64(30), np.int8(17)])) == [30, 17]


# ------------------------------------- every API takes a Card, an int id, text, or iterables

# The 29 hand (rules §2): J♣ 5♦ 5♥ 5♠ + 5♣.
HAND_FORMS = [
    "JC 5D 5H 5S",
    "jc,5d,5h,5s",
    "J♣ 5♦ 5♥ 5♠",
    ["JC", "5D", "5H", "5S"],
    [10, 17, 30, 43],
    (10, 17, 30, 43),
    [Card("JC"), Card("5D"), Card("5H"), Card("5S")],
    [Card("JC"), 17, "5♥", np.int64(43)],
    {10, 17, 30, 43},
    frozenset({"JC", "5D", "5H", "5S"}),
    np.array([10, 17, 30, 43]),
    np.array([10, 17, 30, 43], dtype=np.int8),
]
STARTER_FORMS = ["5C", "5c", "5♣", 4, np.int16(4), np.uint8(4), Card("5C"), Card(4)]


@pytest.mark.parametrize("hand", HAND_FORMS, ids=repr)
def test_score_hand_accepts_every_hand_form(hand):
    assert cribbage.score_hand(hand, "5C") == 29
    assert cribbage.explain_hand(hand, 4).total == 29
    # as a crib: no flush here, so also 29
    assert cribbage.score_hand(hand, Card("5C"), crib=True) == 29


@pytest.mark.parametrize("starter", STARTER_FORMS, ids=repr)
def test_score_hand_accepts_every_starter_form(starter):
    assert cribbage.score_hand("JC 5D 5H 5S", starter) == 29
    assert cribbage.explain_hand([10, 17, 30, 43], starter).nobs == 1


@pytest.mark.parametrize("starter", ["JH", "jh", "J♥", 36, np.int32(36), Card("JH")], ids=repr)
def test_heels_points_accepts_every_card_form(starter):
    assert cribbage.heels_points(starter) == 2  # rules §2: a jack starter gives the dealer 2


SEQUENCE_FORMS = {
    "text": lambda: "3C 2D 5H AS 4C",
    "text-commas-lower": lambda: "3c,2d,5h,as,4c",
    "symbols": lambda: "3♣ 2♦ 5♥ A♠ 4♣",
    "int-list": lambda: [2, 14, 30, 39, 3],
    "int-tuple": lambda: (2, 14, 30, 39, 3),
    "mixed-list": lambda: [Card("3C"), 14, "5H", "AS", np.int64(3)],
    "generator": lambda: (c for c in ["3C", "2D", "5H", "AS", "4C"]),
    "numpy": lambda: np.array([2, 14, 30, 39, 3]),
}


@pytest.mark.parametrize("make", SEQUENCE_FORMS.values(), ids=SEQUENCE_FORMS.keys())
def test_peg_apis_accept_every_sequence_form(make):
    # rules §3: 3-2-5-A-4 = run of five + fifteen two = 7
    assert cribbage.peg_points(make()) == 7
    b = cribbage.explain_peg(make())
    assert (b.count, b.run, b.fifteen, b.total) == (15, 5, 2, 7)
    assert ids(parse_cards(make())) == [2, 14, 30, 39, 3]


def test_parse_cards_output_feeds_other_apis():
    hand = parse_cards("4H 5H QH")
    assert cribbage.score_hand(hand, parse_cards("6S")[0]) == 10  # rules §2, the source's example
