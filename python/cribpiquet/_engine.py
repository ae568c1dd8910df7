"""What both game engines share (the Rust engine framework's player sentinels), defined once and
re-exported by :mod:`cribpiquet.cribbage` and :mod:`cribpiquet.piquet`, and the record of
``Game.get_type()`` that each game's module gives its native ``Game`` class
(:func:`game_methods`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from . import _core

_CONSTANTS = _core.cribbage_game_constants()
#: ``current_player()`` at a chance node (cribbage: a cut, a card dealt, the starter; piquet: a
#: card drawn for deal, dealt or taken from the talon).
CHANCE: int = _CONSTANTS["CHANCE"]
#: ``current_player()`` once the game is over.
TERMINAL: int = _CONSTANTS["TERMINAL"]


@dataclass(frozen=True)
class GameType:
    """What kind of game a ``Game`` is, in OpenSpiel's terms: ``Game.get_type()`` (pyspiel's
    ``game.get_type()``). The enum-like fields hold the names of pyspiel's ``GameType`` enums
    (``getattr(pyspiel.GameType.ChanceMode, t.chance_mode)`` is the pyspiel value).

    >>> from cribpiquet import cribbage
    >>> t = cribbage.Game().get_type()
    >>> t.short_name, (t.min_num_players, t.max_num_players), t.dynamics
    ('cribbage', (2, 4), 'SEQUENTIAL')
    >>> t.parameter_specification
    {'variant': 'six-card', 'target': 0, 'lurch': False}
    """

    #: The game's name, as :func:`cribpiquet.load_game` reads it.
    short_name: str
    #: A longer name.
    long_name: str
    #: The fewest players of the game's variants.
    min_num_players: int
    #: The most players of the game's variants.
    max_num_players: int
    #: The parameters :func:`cribpiquet.load_game` takes, with their defaults.
    parameter_specification: dict[str, Any] = field(default_factory=dict, hash=False)
    #: Players move one at a time.
    dynamics: str = "SEQUENTIAL"
    #: Chance events are nodes with their outcomes and probabilities listed.
    chance_mode: str = "EXPLICIT_STOCHASTIC"
    #: Players do not see each other's cards.
    information: str = "IMPERFECT_INFORMATION"
    #: The payoffs sum to 0.
    utility: str = "ZERO_SUM"
    #: The payoff comes at the end (``State.returns``; ``State.rewards`` are points, not payoffs).
    reward_model: str = "TERMINAL"
    provides_information_state_string: bool = True
    provides_information_state_tensor: bool = True
    provides_observation_string: bool = True
    provides_observation_tensor: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _get_type(self: Any) -> GameType:
    """What kind of game this is, in OpenSpiel's terms: a :class:`cribpiquet.GameType`
    (``pyspiel``'s ``game.get_type()``: names, players, chance mode, information, utility, reward
    model, the parameters of :func:`cribpiquet.load_game`).

    >>> from cribpiquet import piquet
    >>> t = piquet.Game().get_type()
    >>> t.chance_mode, t.information, t.utility, t.reward_model
    ('EXPLICIT_STOCHASTIC', 'IMPERFECT_INFORMATION', 'ZERO_SUM', 'TERMINAL')
    """
    return GameType(**self._type_fields())


def game_methods(cls: type) -> None:
    """Give a game's native ``Game`` class ``get_type()`` (its :class:`GameType`, from the fields
    the engine gives)."""
    setattr(cls, "get_type", _get_type)
