"""Piquet cards and rule sets: ids, text forms, value semantics, pickling, parse_cards, card-like
inputs accepted by every API, and the ``Rules`` value (fields, replace, validation, repr, pickling).

Source of every expected value: docs/rules/piquet.md §1 (32 cards 7 8 9 10 J Q K A; id = suit * 8 +
rank, rank 0 = 7 … 7 = A, suits C D H S = 0..3; point values A 11, K Q J 10 ten, 9 8 7 face; text
as in cribbage: AS, 10H/TH, 7♣), §2 (exchange limits), §3.3 (sequence tables), §5 (play), §6
(match scoring), and issue 3 items 1–2.
"""

from __future__ import annotations

import copy
import operator
import pickle
import random

import numpy as np
import pytest

from hypothesis import given
from hypothesis import strategies as st

from cribpiquet import piquet
from cribpiquet.piquet import Card, Rules, parse_cards

RANK_LETTERS = "789TJQKA"  # printed rank (rules §1: "Text form as in cribbage", TH style)
RANK_WORDS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
POINT_VALUES = [7, 8, 9, 10, 10, 10, 10, 11]  # rules §1: 9 8 7 face value; K Q J 10 ten; A 11


# ------------------------------------------------------------------------------ all 32 cards


@pytest.mark.parametrize("card_id", range(32))
def test_every_card_from_id(card_id):
    suit, rank = divmod(card_id, 8)  # id = suit * 8 + rank (rules §1)
    c = Card(card_id)
    assert (c.id, c.rank, c.suit, c.point_value) == (card_id, rank, suit, POINT_VALUES[rank])
    assert int(c) == card_id
    assert operator.index(c) == card_id
    text = RANK_LETTERS[rank] + SUIT_LETTERS[suit]
    assert str(c) == text
    assert repr(c) == f"Card('{text}')"
    assert c.symbol() == RANK_WORDS[rank] + SUIT_SYMBOLS[suit]


@pytest.mark.parametrize("card_id", range(32))
def test_every_card_from_every_text_form(card_id):
    suit, rank = divmod(card_id, 8)
    forms = {
        RANK_LETTERS[rank] + SUIT_LETTERS[suit],
        RANK_LETTERS[rank].lower() + SUIT_LETTERS[suit].lower(),
        RANK_LETTERS[rank] + SUIT_LETTERS[suit].lower(),
        RANK_WORDS[rank] + SUIT_LETTERS[suit],
        RANK_WORDS[rank].lower() + SUIT_LETTERS[suit].lower(),
        RANK_WORDS[rank] + SUIT_SYMBOLS[suit],
        RANK_LETTERS[rank] + SUIT_SYMBOLS[suit],
        RANK_LETTERS[rank].lower() + SUIT_SYMBOLS[suit],
    }
    for text in forms:
        assert Card(text).id == card_id, text


@pytest.mark.parametrize("card_id", range(32))
def test_every_card_text_round_trips(card_id):
    c = Card(card_id)
    assert Card(str(c)) == c
    assert Card(c.symbol()) == c
    assert Card(c) == c


def test_known_ids():
    # Hand-computed from id = suit * 8 + rank (rules §1).
    assert Card("7C").id == 0
    assert Card("AC").id == 7
    assert Card("7D").id == 8
    assert Card("KD").id == 1 * 8 + 6 == 14
    assert Card("TH").id == 2 * 8 + 3 == 19
    assert Card("10♥").id == 19
    assert Card("7♠").id == 24
    assert Card("AS").id == 31
    assert Card("QD").rank == 5 and Card("QD").suit == 1


def test_numpy_integers_are_ids():
    assert Card(np.int64(23)) == Card(np.uint8(23)) == Card(np.int8(23)) == Card("AH")


def test_ten_of_hearts_spellings_are_one_card():
    # rules §1: "AS, 10H/TH, 7♣" — one card however it is spelt; printed TH style.
    spellings = ["10♥", "TH", "th", "Th", "tH", "10H", "10h", "t♥"]
    assert {Card(s) for s in spellings} == {Card(19)}
    assert str(Card("10♥")) == "TH"
    assert Card("th").symbol() == "10♥"


@pytest.mark.parametrize("face", ["2", "3", "4", "5", "6"])
@pytest.mark.parametrize("suit", ["C", "D", "H", "S", "♥"])
def test_cribbage_ranks_are_not_piquet_cards(face, suit):
    # rules §1: the pack is 7 8 9 10 J Q K A only.
    with pytest.raises(ValueError, match=f'unknown card "{face}{suit}"'):
        Card(face + suit)


def test_point_values_of_one_suit_sum_to_75():
    # rules §1: 7 + 8 + 9 + 10 + 10 + 10 + 10 + 11 = 75.
    assert sum(Card(r + "S").point_value for r in RANK_LETTERS) == 75
    assert [Card(r + "H").point_value for r in "AKQJT987"] == [11, 10, 10, 10, 10, 9, 8, 7]


# ------------------------------------------------------------------------- value semantics


def test_equality_and_hash_across_constructions():
    a, b, c = Card("AH"), Card(23), Card(Card("A♥"))
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert {a: "ace"}[Card("ah")] == "ace"
    assert Card("AH") != Card("AD")
    assert not (Card("AH") != Card(23))
    assert Card(0) != 0  # a Card is not an int, even with the same id


def test_all_32_cards_distinct():
    cards = [Card(i) for i in range(32)]
    assert len(set(cards)) == 32
    assert len({str(c) for c in cards}) == 32


def test_ordering_is_by_id():
    assert Card(0) < Card(1) < Card(31)
    assert Card("AC") < Card("7D")  # 7 < 8
    assert Card("TH") <= Card(19) and Card("TH") >= Card(19)
    assert Card("AS") > Card("KS") and Card("AS") >= Card("KS")
    assert not (Card(5) < Card(5))
    ids = list(range(32))
    random.Random(7).shuffle(ids)
    assert [c.id for c in sorted(Card(i) for i in ids)] == list(range(32))
    with pytest.raises(TypeError):
        Card(0) < 1  # noqa: B015


def test_card_is_frozen():
    c = Card("AH")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.id = 3  # type: ignore[misc]
    assert c.id == 23


def test_index_lets_a_card_index_a_sequence():
    assert list(range(100, 132))[Card("AH")] == 123


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip_every_card(protocol):
    cards = [Card(i) for i in range(32)]
    back = pickle.loads(pickle.dumps(cards, protocol=protocol))
    assert back == cards
    assert all(type(b) is Card for b in back)
    assert [b.id for b in back] == list(range(32))


def test_copy_and_deepcopy():
    c = Card("QD")
    assert copy.copy(c) == c
    assert copy.deepcopy([c]) == [Card(13)]


# ----------------------------------------------------------------------------- parse_cards


def ids(cards):
    return [int(c) for c in cards]


def test_parse_cards_text():
    # 7C = 0, AD = 15, 10S = 27, JH = 20 (id = suit * 8 + rank)
    cards = parse_cards("7C, ad 10♠ jh")
    assert all(type(c) is Card for c in cards)
    assert ids(cards) == [0, 15, 27, 20]
    assert ids(parse_cards("  AS\t7c\n8C ,, ")) == [31, 0, 1]
    assert parse_cards("") == [] and parse_cards("   ") == []


def test_parse_cards_keeps_order_and_repeats():
    # parse_cards only reads cards; it is the hand-taking functions that reject duplicates.
    assert ids(parse_cards("AS KS 7C")) == [31, 30, 0]
    assert ids(parse_cards("AH AH")) == [23, 23]


def test_parse_cards_iterables_of_mixed_card_int_str():
    expected = [23, 15, 27, 0]
    assert ids(parse_cards([Card("AH"), 15, "10S", "7c"])) == expected
    assert ids(parse_cards((Card("AH"), 15, "T♠", "7C"))) == expected
    assert ids(parse_cards(x for x in ["AH", 15, Card(27), 0])) == expected
    assert ids(parse_cards(np.array(expected))) == expected
    assert ids(parse_cards(np.array(expected, dtype=np.uint8))) == expected
    assert ids(parse_cards(range(3))) == [0, 1, 2]
    assert ids(parse_cards([np.int64(23), np.int8(15)])) == [23, 15]


def test_parse_cards_rejects_a_single_card_and_bools():
    with pytest.raises(TypeError, match="single card"):
        parse_cards(Card("AH"))
    with pytest.raises(TypeError, match="single card"):
        parse_cards(5)
    with pytest.raises(TypeError, match="bool"):
        parse_cards([True])


# ------------------------------------- every API takes a Card, an int id, text, or iterables

# The module docstring's deal (hand-checked): elder 7H TH JH QH KH AH (point of six) with the quint
# major TH..AH (15) and fourteen aces (14) = 35; the dealer has a quart, tierces and no set, so
# nothing beats elder: repique → 95 (rules §3, §4).
ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
ELDER_IDS = [23, 22, 21, 20, 19, 16, 7, 15, 31, 0, 1, 8]
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"
DEALER_IDS = [18, 17, 2, 3, 4, 5, 14, 13, 12, 25, 26, 27]

HAND_FORMS = {
    "text": lambda: ELDER,
    "text-commas-lower": lambda: ELDER.lower().replace(" ", ","),
    "symbols": lambda: "A♥ K♥ Q♥ J♥ 10♥ 7♥ A♣ A♦ A♠ 7♣ 8♣ 7♦",
    "str-list": lambda: ELDER.split(),
    "int-list": lambda: list(ELDER_IDS),
    "int-tuple": lambda: tuple(ELDER_IDS),
    "cards": lambda: [Card(i) for i in ELDER_IDS],
    "mixed": lambda: [Card("AH"), 22, "QH", "j♥", np.int64(19), *ELDER_IDS[5:]],
    "set": lambda: set(ELDER_IDS),
    "frozenset": lambda: frozenset(ELDER.split()),
    "generator": lambda: (i for i in ELDER_IDS),
    "numpy": lambda: np.array(ELDER_IDS),
    "numpy-int8": lambda: np.array(ELDER_IDS, dtype=np.int8),
}


@pytest.mark.parametrize("make", HAND_FORMS.values(), ids=HAND_FORMS.keys())
def test_declarations_accept_every_hand_form(make):
    d = piquet.declarations(make())
    assert sorted(int(c) for c in d.hand) == sorted(ELDER_IDS)
    assert (d.point.length, d.point.value) == (6, 58)  # 7+10+10+10+10+11
    assert [s.name for s in d.sequences] == ["quint major"]
    assert [s.name for s in d.sets] == ["fourteen aces"]


@pytest.mark.parametrize("make", HAND_FORMS.values(), ids=HAND_FORMS.keys())
def test_score_declarations_accepts_every_hand_form(make):
    s = piquet.score_declarations(make(), DEALER_IDS)
    assert (s.totals, s.repique) == ((95, 0), "elder")
    s = piquet.score_declarations(DEALER.split(), make(), rules="rubicon")
    # roles swapped: now the dealer holds the 35 and repiques (rubicon: the same values here).
    assert (s.totals, s.repique) == ((0, 95), "dealer")


def test_dealt_accepts_card_forms():
    # Carte blanche judged on the dealt hand (rules §3.1): 7 8 9 10 A of hearts and clubs, 7D 8D;
    # AC 7D 8D exchanged for KD QD JD (3 cards: the dealt hand must be able to produce the hand).
    dealt_ids = [16, 17, 18, 19, 23, 0, 1, 2, 3, 7, 8, 9]
    after = "7H 8H 9H TH AH 7C 8C 9C TC KD QD JD"
    for dealt in (dealt_ids, [Card(i) for i in dealt_ids], "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", np.array(dealt_ids)):
        assert piquet.declarations(after, dealt=dealt).carte_blanche
    assert not piquet.declarations(after).carte_blanche


SEED_ELDER = "TH JH QH KH AH QC 7C 9C QD 8D 7S 9S"
SEED_DEALER = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC"
SEED_TRICKS = [
    ("9C", "TC"), ("JC", "QC"), ("AH", "7H"), ("KH", "8H"), ("QH", "9H"), ("JH", "8C"),
    ("TH", "7D"), ("QD", "KD"), ("AD", "8D"), ("JD", "7C"), ("TD", "7S"), ("9D", "9S"),
]  # fmt: skip

TRICK_FORMS = {
    "str-pairs": lambda: list(SEED_TRICKS),
    "text": lambda: [f"{a} {b}" for a, b in SEED_TRICKS],
    "int-pairs": lambda: [(Card(a).id, Card(b).id) for a, b in SEED_TRICKS],
    "card-pairs": lambda: [[Card(a), Card(b)] for a, b in SEED_TRICKS],
    "mixed": lambda: [(Card(a), b.lower()) for a, b in SEED_TRICKS],
    "generator": lambda: ((a, b) for a, b in SEED_TRICKS),
    "tuple-of-tuples": lambda: tuple(SEED_TRICKS),
}


@pytest.mark.parametrize("make", TRICK_FORMS.values(), ids=TRICK_FORMS.keys())
def test_score_game_accepts_every_trick_form(make):
    # The seed deal (see test_piquet_game.py): 31 to 20.
    assert piquet.score_game(SEED_ELDER, SEED_DEALER, make()).totals == (31, 20)
    assert piquet.score_game(SEED_ELDER.split(), parse_cards(SEED_DEALER), make()).totals == (31, 20)


def test_rules_argument_forms():
    # rules= takes a Rules value, its name, or None (russian, the default everywhere).
    hand = "QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS"
    # tierce major: russian 13, rubicon 3 (rules §3.3 table)
    assert piquet.declarations(hand).sequences[0].value == 13
    assert piquet.declarations(hand, rules=None).sequences[0].value == 13
    assert piquet.declarations(hand, rules="russian").sequences[0].value == 13
    assert piquet.declarations(hand, rules="rubicon").sequences[0].value == 3
    assert piquet.declarations(hand, rules=Rules.rubicon()).sequences[0].value == 3
    assert piquet.declarations(hand, rules=Rules("rubicon")).sequences[0].value == 3
    with pytest.raises(ValueError, match='unknown piquet rules "whist"'):
        piquet.declarations(hand, rules="whist")
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        piquet.declarations(hand, rules=5)


# ------------------------------------------------------------------------------------- Rules

RUSSIAN = {
    "sequence_values": (13, 14, 15, 16, 17, 18),  # §3.3 «три тринадцать» … «восемь восемнадцать»
    "trick_scoring": "every-lead-and-trick",  # §5: 1 per lead and 1 per trick
    "last_trick_extra": 3,  # §5: the last trick counts 4 instead of 1
    "capot_bonus": 40,  # §5
    "capot_keeps_last_trick_extra": False,  # §5: 40 instead of the last-trick extra and the leza
    "open_capot_bonus": 80,  # §5: open capot +80
    "elder_exchange": (3, 5, True),  # §2: none, or 3 to 5
    "dealer_exchange": (3, 5, True),  # §2: none, or 3 to 5 of what is left
    "declaration_timing": "before-first-lead",  # §3: all before the first lead
    "bonus_mode": "opponent-scored-nothing",  # §4
    "pique_blocked_by_play": False,  # §4 (revised): only the dealer's declarations block the pique
    "silence_covers": "play",  # §7 decision: молчанка covers every play point
    "match_scoring": "partiya",  # §6
    "koroliks_per_partiya": 2,  # §6 decision: default 2
    "deals_per_partie": 6,  # §6 (rubicon's field; same default)
    "rounding": "half-up-to-tens",  # §6: rounded to tens, halves up
}
RUBICON = {
    "sequence_values": (3, 4, 15, 16, 17, 18),  # §3.3 table
    "trick_scoring": "lead-or-win-opponents-lead",  # §5: 1 for leading, 1 for winning the opponent's lead
    "last_trick_extra": 1,  # §5: +1
    "capot_bonus": 40,  # §5
    "capot_keeps_last_trick_extra": True,  # §5: its last-trick extra still counts
    "open_capot_bonus": None,  # §5: open capot is russian only
    "elder_exchange": (1, 5, False),  # §2: elder must exchange 1 to 5
    "dealer_exchange": (1, 8, True),  # §2: 1 up to all that is left (at most 8), may decline
    "declaration_timing": "dealer-after-first-lead",  # §3: younger's declarations after the first lead
    "bonus_mode": "reckoning-order",  # §4 rubicon
    "pique_blocked_by_play": True,  # §4 rubicon: the dealer must have scored nothing at all
    "silence_covers": "play",  # §7
    "match_scoring": "partie",  # §6: a partie of 6 deals
    "koroliks_per_partiya": 2,
    "deals_per_partie": 6,  # §6
    "rounding": "exact",  # §6 rubicon: no rounding is mentioned
}


@pytest.mark.parametrize("make,expected", [(Rules.russian, RUSSIAN), (Rules.rubicon, RUBICON)], ids=["russian", "rubicon"])
def test_rule_set_fields(make, expected):
    r = make()
    for field, value in expected.items():
        assert getattr(r, field) == value, field
    assert r.as_dict() == expected


def test_default_rules_are_russian():
    assert Rules() == Rules("russian") == Rules.russian()
    assert Rules("rubicon") == Rules.rubicon()
    assert Rules.russian() != Rules.rubicon()
    with pytest.raises(ValueError, match="whist"):
        Rules("whist")


# One change per field (each a legal value different from russian's).
CHANGES = [
    ("sequence_values", (3, 4, 15, 16, 17, 18)),
    ("sequence_values", (0, 0, 0, 0, 0, 1000)),
    ("trick_scoring", "lead-or-win-opponents-lead"),
    ("last_trick_extra", 0),
    ("capot_bonus", 1000),
    ("capot_keeps_last_trick_extra", True),
    ("open_capot_bonus", None),
    ("open_capot_bonus", 0),
    ("elder_exchange", (1, 5, False)),
    ("dealer_exchange", (1, 8, True)),
    ("declaration_timing", "dealer-after-first-lead"),
    ("bonus_mode", "reckoning-order"),
    ("pique_blocked_by_play", True),
    ("silence_covers", "tricks"),
    ("match_scoring", "partie"),
    ("koroliks_per_partiya", 3),
    ("koroliks_per_partiya", 100),
    ("deals_per_partie", 1),
    ("rounding", "exact"),
]


@pytest.mark.parametrize("field,value", CHANGES)
def test_replace_each_field(field, value):
    base = Rules.russian()
    r = base.replace(**{field: value})
    assert getattr(r, field) == value
    for other, v in RUSSIAN.items():
        if other != field:
            assert getattr(r, other) == v, other
    assert base == Rules.russian()  # replace returns a copy
    assert r != base
    # repr is eval-able text that rebuilds the same value
    assert eval(repr(r), {"Rules": Rules}) == r


def test_replace_several_fields_and_no_fields():
    r = Rules.russian().replace(koroliks_per_partiya=3, rounding="exact", last_trick_extra=1)
    assert (r.koroliks_per_partiya, r.rounding, r.last_trick_extra) == (3, "exact", 1)
    assert Rules.rubicon().replace() == Rules.rubicon()
    # rubicon's values set one by one on russian give rubicon
    assert Rules.russian().replace(**RUBICON) == Rules.rubicon()
    assert Rules.rubicon().replace(**RUSSIAN) == Rules.russian()


def test_sequence_values_accept_a_list():
    assert Rules.russian().replace(sequence_values=[1, 2, 3, 4, 5, 6]).sequence_values == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize(
    "changes,needle",
    [
        ({"koroliks_per_partiya": 0}, "koroliks_per_partiya must be 1..=100, got 0"),
        ({"koroliks_per_partiya": 101}, "koroliks_per_partiya"),
        ({"koroliks_per_partiya": -1}, "koroliks_per_partiya"),
        ({"deals_per_partie": 0}, "deals_per_partie"),
        ({"deals_per_partie": 256}, "deals_per_partie"),
        ({"sequence_values": (13, 14, 15)}, "sequence_values"),
        ({"sequence_values": (13, 14, 15, 16, 17, 18, 19)}, "sequence_values"),
        ({"sequence_values": (13, 14, 15, 16, 17, 1001)}, "sequence_values"),
        ({"sequence_values": (-1, 14, 15, 16, 17, 18)}, "sequence_values"),
        ({"last_trick_extra": -1}, "last_trick_extra"),
        ({"last_trick_extra": 1001}, "last_trick_extra"),
        ({"capot_bonus": 1001}, "capot_bonus"),
        ({"open_capot_bonus": 1001}, "open_capot_bonus"),
        ({"elder_exchange": (0, 5, True)}, "elder_exchange"),
        ({"elder_exchange": (3, 6, True)}, "elder_exchange"),  # elder has only 5 talon cards (§2)
        ({"elder_exchange": (4, 3, True)}, "elder_exchange"),
        ({"dealer_exchange": (1, 9, True)}, "dealer_exchange"),  # at most the 8 of the talon
        ({"dealer_exchange": (0, 3, True)}, "dealer_exchange"),
        ({"trick_scoring": "whist"}, "whist"),
        ({"declaration_timing": "never"}, "never"),
        ({"bonus_mode": "always"}, "always"),
        ({"match_scoring": "rubber"}, "rubber"),
        ({"rounding": "down"}, "down"),
        ({"silence_covers": "leads"}, "leads"),
    ],
)
def test_invalid_values_are_value_errors(changes, needle):
    with pytest.raises(ValueError, match=needle):
        Rules.russian().replace(**changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"koroliks_per_partiya": "3"},
        {"koroliks_per_partiya": 2.0},
        {"koroliks_per_partiya": True},
        {"trick_scoring": 1},
        {"capot_keeps_last_trick_extra": 1},
        {"elder_exchange": 3},
        {"sequence_values": 13},
    ],
    ids=repr,
)
def test_wrong_types_are_type_errors(changes):
    with pytest.raises(TypeError):
        Rules.russian().replace(**changes)


@pytest.mark.parametrize("field", ["name", "foo", "sequence_value", "Koroliks_per_partiya"])
def test_unknown_field_is_a_type_error(field):
    with pytest.raises(TypeError, match=f'unknown rule field "{field}"'):
        Rules.russian().replace(**{field: 1})


def test_rules_are_frozen_and_hashable():
    r = Rules.russian()
    with pytest.raises(AttributeError):
        r.koroliks_per_partiya = 3  # type: ignore[misc]
    assert r.koroliks_per_partiya == 2
    assert len({Rules(), Rules.russian(), Rules("russian"), Rules.rubicon(), Rules.rubicon().replace()}) == 2
    a = Rules.russian().replace(koroliks_per_partiya=3)
    b = Rules.russian().replace(koroliks_per_partiya=3)
    assert a == b and hash(a) == hash(b)
    assert {a: "three"}[b] == "three"
    assert Rules.russian() != "russian"


def test_repr_round_trips():
    assert repr(Rules.russian()) == "Rules.russian()"
    assert repr(Rules.rubicon()) == "Rules.rubicon()"
    assert repr(Rules.russian().replace(koroliks_per_partiya=3)) == "Rules.russian().replace(koroliks_per_partiya=3)"
    mixes = [
        Rules.russian().replace(sequence_values=(3, 4, 15, 16, 17, 18), open_capot_bonus=None),
        Rules.rubicon().replace(rounding="half-up-to-tens", deals_per_partie=4),
        Rules.russian().replace(elder_exchange=(1, 5, False), bonus_mode="reckoning-order"),
        Rules.russian().replace(**{k: v for k, v in RUBICON.items() if k != "match_scoring"}),
    ]
    for r in mixes:
        assert eval(repr(r), {"Rules": Rules}) == r, repr(r)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_rules_pickle(protocol):
    for r in (
        Rules.russian(),
        Rules.rubicon(),
        Rules.russian().replace(koroliks_per_partiya=3, open_capot_bonus=None),
        Rules.rubicon().replace(sequence_values=(13, 14, 15, 16, 17, 18), rounding="half-up-to-tens"),
    ):
        back = pickle.loads(pickle.dumps(r, protocol=protocol))
        assert back == r and type(back) is Rules
        assert back.as_dict() == r.as_dict()
    assert copy.copy(Rules.rubicon()) == Rules.rubicon()
    assert copy.deepcopy([Rules.rubicon()]) == [Rules.rubicon()]


class _OldPickledRules:
    """Pickles as earlier versions pickled a ``Rules``: through ``piquet._rules_from_dict``."""

    def __init__(self, fields):
        self.fields = fields

    def __reduce__(self):
        return piquet._rules_from_dict, (self.fields,)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_rules_pickles_old_and_new_load(protocol):
    """A pickle names the native class (``Rules._restore``), not a Python helper; a pickle of an
    earlier version (naming ``piquet._rules_from_dict``) still loads."""
    replaced = Rules.rubicon().replace(koroliks_per_partiya=3, open_capot_bonus=None, rounding="exact")
    for r in (Rules.russian(), Rules.rubicon(), replaced):
        new = pickle.dumps(r, protocol=protocol)
        assert b"_rules_from_dict" not in new and b"_restore" in new
        back = pickle.loads(new)
        assert type(back) is Rules and back == r and back.as_dict() == r.as_dict()
        old = pickle.dumps(_OldPickledRules(r.as_dict()), protocol=protocol)
        assert b"_rules_from_dict" in old and b"_restore" not in old
        back = pickle.loads(old)
        assert type(back) is Rules and back == r and back.as_dict() == r.as_dict()
    assert Rules._restore(replaced.as_dict()) == replaced
    with pytest.raises(ValueError, match="koroliks_per_partiya"):
        Rules._restore({"koroliks_per_partiya": 0})


FIELD_VALUES = {
    "sequence_values": [(3, 4, 15, 16, 17, 18), (13, 14, 15, 16, 17, 18), (0, 0, 0, 0, 0, 0), (1000,) * 6],
    "trick_scoring": ["every-lead-and-trick", "lead-or-win-opponents-lead"],
    "last_trick_extra": [0, 1, 3],
    "capot_bonus": [0, 40],
    "capot_keeps_last_trick_extra": [False, True],
    "open_capot_bonus": [None, 0, 80],
    "elder_exchange": [(1, 5, False), (3, 5, True), (5, 5, False)],
    "dealer_exchange": [(1, 8, True), (3, 5, True)],
    "declaration_timing": ["before-first-lead", "dealer-after-first-lead"],
    "bonus_mode": ["opponent-scored-nothing", "reckoning-order"],
    "match_scoring": ["partiya", "partie"],
    "koroliks_per_partiya": [1, 2, 3, 100],
    "deals_per_partie": [1, 6, 100],
    "rounding": ["exact", "half-up-to-tens"],
}


@given(
    base=st.sampled_from(["russian", "rubicon"]),
    changes=st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in FIELD_VALUES.items()}),
)
def test_any_mix_round_trips_through_repr_and_pickle(base, changes):
    r = Rules(base).replace(**changes)
    for field, value in changes.items():
        assert getattr(r, field) == value
    back = eval(repr(r), {"Rules": Rules})
    assert back == r and hash(back) == hash(r)
    assert pickle.loads(pickle.dumps(r)) == r
    assert Rules.russian().replace(**r.as_dict()) == r
