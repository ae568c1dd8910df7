"""Piquet: the Russian game (the default) and Rubicon piquet.

Cards are :class:`Card` values, int ids (``suit * 8 + rank``; rank 0 = 7, 1 = 8, 2 = 9, 3 = 10,
4 = J, 5 = Q, 6 = K, 7 = A; suits C D H S) or text (``"AS"``, ``"10♥"``, ``"th"``); a group of
cards is space-separated text or any iterable of cards. Every function takes ``rules=``: a
:class:`Rules` value (``Rules.russian()`` by default, ``Rules.rubicon()``) or its name.

>>> from cribpiquet import piquet
>>> s = piquet.score_declarations("AH KH QH JH TH 7H AC AD AS 7C 8C 7D",
...                               "9H 8H 9C TC JC QC KD QD JD 8S 9S TS")
>>> s.totals, s.repique
((95, 0), 'elder')
>>> piquet.round_record(115), piquet.round_record(114)
(120, 110)

The rules are the project's ``docs/rules/piquet.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core, _engine, _html
from ._engine import CHANCE, TERMINAL
from ._exchange import Estimate, ExchangeAnalysis, ExchangeRow, analyze_exchange
from ._ids import id_arrays
from .records import simulating

__all__ = [
    "ANNOUNCE_CAPOT",
    "CHANCE",
    "DECLARATION_CATEGORIES",
    "EXCHANGE_BASE",
    "NUM_DISTINCT_ACTIONS",
    "PASS",
    "POINT_SOURCES",
    "TERMINAL",
    "CategoryScore",
    "Card",
    "DeclarationScore",
    "Declarations",
    "Estimate",
    "ExchangeAnalysis",
    "ExchangeRow",
    "Game",
    "GameEvent",
    "GameScore",
    "Korolik",
    "Partie",
    "PartieResult",
    "Partiya",
    "PartiyaGame",
    "PartiyaResult",
    "Point",
    "Record",
    "Rules",
    "Sequence",
    "Set",
    "State",
    "analyze_exchange",
    "declarations",
    "declarations_batch",
    "difference_record",
    "parse_cards",
    "round_record",
    "score_declarations",
    "score_declarations_batch",
    "score_game",
    "simulate",
]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

Card = _core.PiquetCard
Rules = _core.PiquetRules
Point = _core.PiquetPoint
Sequence = _core.PiquetSequence
Set = _core.PiquetSet
Declarations = _core.PiquetDeclarations
CategoryScore = _core.PiquetCategoryScore
DeclarationScore = _core.PiquetDeclarationScore
GameEvent = _core.PiquetGameEvent
GameScore = _core.PiquetGameScore
Partiya = _core.PiquetPartiya
Partie = _core.PiquetPartie
Record = _core.PiquetRecord
PartiyaGame = _core.PiquetPartiyaGame
Korolik = _core.PiquetKorolik
PartiyaResult = _core.PiquetPartiyaResult
PartieResult = _core.PiquetPartieResult
_html.card_methods(Card)
_html.result_methods(_html.record_html, Point, Sequence, Set, Declarations, CategoryScore, GameEvent, Record,
                     PartiyaGame, Korolik, PartiyaResult, PartieResult)  # fmt: skip
_html.result_methods(_html.declaration_score_html, DeclarationScore)
_html.result_methods(_html.game_score_html, GameScore)

parse_cards = _core.piquet_parse_cards
declarations = _core.piquet_declarations
score_declarations = _core.piquet_score_declarations
score_game = _core.piquet_score_game
round_record = _core.piquet_round_record
difference_record = _core.piquet_difference_record


def _rules_from_dict(fields: dict[str, Any]) -> Any:
    """Rebuild a :class:`Rules` from its fields: how pickles written by earlier versions rebuild
    their rules (pickles now name ``Rules._restore``); kept so that those still load."""
    return Rules.russian().replace(**fields)


def declarations_batch(hands: Any, *, rules: Any = None) -> dict[str, np.ndarray]:
    """Declaration features of N hands (:func:`declarations` over numpy arrays): ``hands`` is an
    (N, 12) array of card ids, of any integer dtype and layout.

    Returns a dict of arrays (one row per hand): ``point_length``, ``point_value``, ``point_suit``,
    ``best_sequence_length`` and ``best_sequence_top`` (rank of its top card; 0 when there is no
    sequence), ``sequence_count``, ``sequence_value`` (all sequences, under ``rules``),
    ``best_set_kind`` (0 none, 3 or 4) and ``best_set_rank``, ``sets_value``, ``carte_blanche``
    (bool; judged on the given hands). Every row is validated (ids 0..31, 12 distinct cards).
    The kernel is chosen as for :func:`score_declarations_batch` (``CRIBPIQUET_KERNEL``).

    >>> f = declarations_batch([[23, 22, 21, 20, 19, 18, 7, 15, 31, 0, 1, 8]])
    >>> f["point_length"], f["sets_value"]
    (array([6], dtype=uint8), array([14], dtype=uint16))
    """
    return _core.piquet_declarations_batch(*id_arrays(hands, empty_width=12, limit=32), rules=rules)


def score_declarations_batch(elder: Any, dealer: Any, *, rules: Any = None) -> np.ndarray:
    """Declaration points of N deals: an (N, 2) int16 array of (elder, dealer) points, repique
    included, carte blanche judged on the given hands. ``elder`` and ``dealer`` are (N, 12) id
    arrays (any integer dtype and layout); each row must hold 12 distinct cards and no card may
    be in both hands of a row. Equal to :func:`score_declarations` row by row.

    The kernel is chosen from the CPU (AVX-512, AVX2, else scalar); the environment variable
    ``CRIBPIQUET_KERNEL`` (``scalar``, ``avx2``, ``avx512``, ``auto``) forces one, with the same
    results and errors (a kernel the CPU lacks is a ValueError).

    >>> score_declarations_batch([list(range(12))], [list(range(16, 28))])
    array([[0, 0]], dtype=int16)
    """
    deals = id_arrays(elder, dealer, empty_width=(12, 12), limit=32)
    return _core.piquet_score_declarations_batch(*deals, rules=rules)


# ------------------------------------------------------------------------- the game engine
# ``Game`` and ``State`` are the native classes themselves (no Python wrapper on the hot path).

Game = _core.PiquetGame
_engine.game_methods(Game)
State = _core.PiquetState
_html.state_methods(State)

_GAME_CONSTANTS = _core.piquet_game_constants()
#: ``EXCHANGE_BASE + n`` (32..40) exchanges ``n`` cards; ``EXCHANGE_BASE`` declines.
EXCHANGE_BASE: int = _GAME_CONSTANTS["EXCHANGE_BASE"]
#: Announce an open capot (41; russian rules, before the first lead).
ANNOUNCE_CAPOT: int = _GAME_CONSTANTS["ANNOUNCE_CAPOT"]
#: Decline to announce an open capot (42).
PASS: int = _GAME_CONSTANTS["PASS"]
#: Number of action ids (43): cards 0..31, exchange sizes 32..40, announce capot, pass.
NUM_DISTINCT_ACTIONS: int = _GAME_CONSTANTS["NUM_DISTINCT_ACTIONS"]
#: The keys of ``State.points_by_source()`` and of the per-source arrays of :func:`simulate`.
POINT_SOURCES: tuple[str, ...] = tuple(_GAME_CONSTANTS["POINT_SOURCES"])
#: The order of the per-player lists of ``State.declarations()``.
DECLARATION_CATEGORIES: tuple[str, ...] = tuple(_GAME_CONSTANTS["DECLARATION_CATEGORIES"])


simulate = simulating(_core.piquet_simulate, __name__)
