"""Cribbage scoring: cards, the show, pegging, numpy batch scoring and enumeration.

Cards are given as :class:`Card` values, int ids (``suit * 13 + rank``; rank 0 = ace .. 12 =
king; suits clubs, diamonds, hearts, spades) or text (``"5H"``, ``"10♥"``, ``"th"``); a group of
cards as space-separated text or any iterable of cards.

>>> from cribpiquet import cribbage
>>> cribbage.score_hand("5H 5D 5S JC", "5C")
29
>>> print(cribbage.explain_hand("4H 5H QH", "6S"))
fifteen two, fifteen four, and a run of three is seven, and a flush of three is 10
>>> cribbage.peg_points("3C 2D 5H AS 4C")
7

The rules are the project's ``docs/rules/cribbage.md``: the five-card game of the Russian source
(hands of 3 + starter) and the six-card, three- and four-player games (hands of 4 + starter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core, _engine, _html
from ._discard import (
    DiscardAnalysis,
    DiscardRow,
    DiscardTables,
    analyze_discard,
    analyze_discard_batch,
    combine_pass_sums,
    discard_class_hands,
    discard_classes,
    discard_tables,
)
from ._engine import CHANCE, TERMINAL
from ._ids import id_arrays
from .records import simulating

__all__ = [
    "CHANCE",
    "DISTRIBUTION_KINDS",
    "GO",
    "NUM_DISTINCT_ACTIONS",
    "POINT_SOURCES",
    "TERMINAL",
    "Breakdown",
    "Card",
    "DiscardAnalysis",
    "DiscardRow",
    "DiscardTables",
    "Game",
    "PegBreakdown",
    "State",
    "action_pair",
    "analyze_discard",
    "analyze_discard_batch",
    "combine_pass_sums",
    "discard_class_hands",
    "discard_classes",
    "discard_tables",
    "pair_action",
    "simulate",
    "explain_hand",
    "explain_hand_batch",
    "explain_peg",
    "go_points",
    "hand_distribution",
    "heels_points",
    "parse_cards",
    "peg_points",
    "peg_points_batch",
    "score_hand",
    "score_hand_batch",
]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

Card = _core.CribbageCard
Breakdown = _core.CribbageBreakdown
PegBreakdown = _core.CribbagePegBreakdown
_html.card_methods(Card)
_html.result_methods(_html.breakdown_html, Breakdown, PegBreakdown)

parse_cards = _core.cribbage_parse_cards
score_hand = _core.cribbage_score_hand
explain_hand = _core.cribbage_explain_hand
heels_points = _core.cribbage_heels_points
peg_points = _core.cribbage_peg_points
explain_peg = _core.cribbage_explain_peg
go_points = _core.cribbage_go_points

#: The kinds of :func:`hand_distribution`: the hand, the crib, the five-card game's hand.
DISTRIBUTION_KINDS = ("hand", "crib", "five-card-hand")


def score_hand_batch(hands: Any, starters: Any, *, crib: bool = False) -> np.ndarray:
    """Score N shows at once: :func:`score_hand` over numpy arrays.

    ``hands`` is an (N, 4) or (N, 3) array of card ids, ``starters`` an (N,) array. Any integer
    dtype, byte order, alignment, stride and memory order is accepted (copied once to aligned,
    native C order if needed; never for an aligned C-contiguous array). Every row is checked
    (ids in 0..51, no card twice with its starter) before any result is returned; the error names
    the first bad row. Large batches run on all cores with the interpreter released.

    Returns a uint8 array of N totals, identical to :func:`score_hand` row by row.

    >>> score_hand_batch([[10, 17, 30, 43]], [4])
    array([29], dtype=uint8)
    """
    return _core.cribbage_score_hand_batch(*id_arrays(hands, starters, empty_width=4), crib=crib)


def explain_hand_batch(hands: Any, starters: Any, *, crib: bool = False) -> dict[str, np.ndarray]:
    """Per-category points of N shows (:func:`explain_hand` over numpy arrays): a dict of uint8
    arrays ``fifteens``, ``pairs``, ``runs``, ``flush``, ``nobs`` and ``total``. Input rules as
    for :func:`score_hand_batch`.

    >>> explain_hand_batch([[10, 17, 30, 43]], [4])["pairs"]
    array([12], dtype=uint8)
    """
    return _core.cribbage_explain_hand_batch(*id_arrays(hands, starters, empty_width=4), crib=crib)


def peg_points_batch(sequences: Any) -> np.ndarray:
    """Pegging points of the last card of each count: :func:`peg_points` over a numpy array.

    ``sequences`` is an (N, L) id array (any integer dtype and layout), L <= 13, each row the cards of one count in play order,
    padded at the end with -1. Returns N uint8 points, identical to :func:`peg_points`.

    >>> peg_points_batch([[2, 1, 4, 0, 3], [4, 17, 30, -1, -1]])
    array([7, 8], dtype=uint8)
    """
    return _core.cribbage_peg_points_batch(*id_arrays(sequences))


def hand_distribution(kind: str = "hand") -> np.ndarray:
    """Counts per score 0..29 over every show of ``kind``, by full enumeration in Rust.

    ``kind`` is ``"hand"`` (4 cards + starter: 12,994,800 shows), ``"crib"`` (the same with the
    crib flush rule) or ``"five-card-hand"`` (3 cards + starter: 1,082,900 shows).

    >>> int(hand_distribution("hand")[29])
    4
    """
    return _core.cribbage_hand_distribution(kind)


# ------------------------------------------------------------------------- the game engine
# ``Game`` and ``State`` are the native classes themselves (no Python wrapper on the hot path).

Game = _core.CribbageGame
_engine.game_methods(Game)
State = _core.CribbageState
_html.state_methods(State)
pair_action = _core.cribbage_pair_action
action_pair = _core.cribbage_action_pair

_GAME_CONSTANTS = _core.cribbage_game_constants()
#: The go action (1378): the only legal action of a player holding cards, none of which fits.
GO: int = _GAME_CONSTANTS["GO"]
#: Number of action ids (1379): cards 0..51, two-card discards 52..1377, go.
NUM_DISTINCT_ACTIONS: int = _GAME_CONSTANTS["NUM_DISTINCT_ACTIONS"]
#: The keys of ``State.points_by_source()`` and of the per-source arrays of :func:`simulate`.
POINT_SOURCES: tuple[str, ...] = tuple(_GAME_CONSTANTS["POINT_SOURCES"])


simulate = simulating(_core.cribbage_simulate, __name__)
