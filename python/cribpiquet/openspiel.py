"""cribpiquet's games as OpenSpiel Python games (the ``[openspiel]`` extra:
``pip install 'cribpiquet[openspiel]'``; OpenSpiel 2.0.2 wheels need Python >= 3.11).

:func:`register` registers two games with ``pyspiel``, after which ``pyspiel.load_game`` and
OpenSpiel's algorithms work on them:

* ``python_cribpiquet_cribbage`` — parameters ``variant`` (``"six-card"``, ``"five-card"``,
  ``"three-player"``, ``"four-player"``), ``target`` (0: the variant's 121 or 61), ``lurch``;
* ``python_cribpiquet_piquet`` — parameters ``rules`` (``"russian"``, ``"rubicon"``) and
  ``scope`` (``"partiya"``, ``"deal"``).

Each OpenSpiel state wraps a cribpiquet ``State`` (``state.cribpiquet_state``): legal actions,
chance outcomes, returns (terminal rewards), information-state strings and tensors and
``resample_from_infostate`` (what OpenSpiel's ``ISMCTSBot`` needs) come from the Rust engine.
The information-state tensor and string are ``State.information_state_tensor`` and
``information_state_string``, the observation tensor and string ``State.observation_tensor`` and
``observation_string``; the game type is ``Game.get_type()``'s. Without pyspiel, the library has
the same names itself (``cribpiquet.load_game``, ``get_type``, ``observation_string``,
``history_str``, ``is_simultaneous_node``).

>>> from cribpiquet import openspiel
>>> openspiel.register()
>>> import pyspiel
>>> game = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "five-card"})
>>> game.num_players(), game.num_distinct_actions()
(2, 1379)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import cribbage, piquet
from ._util import bool_arg, describe, float_arg, int_arg, is_int, short_repr, str_arg

__all__ = ["register", "CRIBBAGE", "PIQUET"]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

#: The registered short name of cribbage (``pyspiel.load_game(CRIBBAGE)``).
CRIBBAGE = "python_cribpiquet_cribbage"
#: The registered short name of piquet.
PIQUET = "python_cribpiquet_piquet"


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        raise ImportError(
            "cribpiquet.openspiel needs OpenSpiel: pip install 'cribpiquet[openspiel]' (Python >= 3.11)"
        ) from exc
    return pyspiel


class _Observer:
    """OpenSpiel's PyObserver: the information-state tensor and string (perfect recall) or the
    observation tensor and string of a player."""

    def __init__(self, game: Any, perfect_recall: bool) -> None:
        self._info = perfect_recall
        size = game.information_state_tensor_size() if perfect_recall else game.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"tensor": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        s = state.cribpiquet_state
        values = s.information_state_tensor(player) if self._info else s.observation_tensor(player)
        self.tensor[:] = values

    def string_from(self, state: Any, player: int) -> str:
        s = state.cribpiquet_state
        return s.information_state_string(player) if self._info else s.observation_string(player)


def _classes(pyspiel: Any) -> tuple[Any, Any]:
    """The pyspiel Game and State classes (made once pyspiel is imported)."""

    class CribpiquetState(pyspiel.State):
        """An OpenSpiel state over a cribpiquet ``State`` (``cribpiquet_state``)."""

        def __init__(self, game: Any, inner: Any = None) -> None:
            super().__init__(game)
            self.cribpiquet_state = inner if inner is not None else game.cribpiquet_game.new_initial_state()

        def current_player(self) -> int:
            return self.cribpiquet_state.current_player()

        def _legal_actions(self, player: int) -> list[int]:
            return self.cribpiquet_state.legal_actions()

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.cribpiquet_state.chance_outcomes()

        def apply_action(self, action: int) -> None:
            """OpenSpiel's ``apply_action``, refusing what is not an integer (``True``, ``356.9``)
            before pyspiel converts it."""
            if not is_int(action):
                raise TypeError(f"an action must be an int, got {describe(action)}")
            game = self.get_game()
            top = max(game.num_distinct_actions(), game.max_chance_outcomes())
            if not 0 <= int(action) < top:
                raise ValueError(f"action {short_repr(int(action))} is out of range: action ids are 0 .. {top - 1}")
            super().apply_action(int(action))

        def _apply_action(self, action: int) -> None:
            # pyspiel hands an int; a Python caller of apply_action may not: only integers
            # (numpy's included) reach the engine, which checks legality (ValueError, no change)
            if not is_int(action):
                raise TypeError(f"an action must be an int, got {describe(action)}")
            self.cribpiquet_state.apply_action(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            return self.cribpiquet_state.action_to_string(action)

        def is_terminal(self) -> bool:
            return self.cribpiquet_state.is_terminal()

        def returns(self) -> list[float]:
            return self.cribpiquet_state.returns()

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
            """A state drawn uniformly among those consistent with what ``player_id`` knows,
            seeded by one draw of OpenSpiel's sampler (a callable returning [0, 1))."""
            if not callable(probability_sampler):
                raise TypeError(f"probability_sampler must be a callable returning a float in [0, 1), "
                                f"got {type(probability_sampler).__name__}")
            u = float_arg(probability_sampler(), "probability_sampler()", 0.0, 1.0)
            seed = int(u * 2**53)
            inner = self.cribpiquet_state.resample_from_infostate(player_id, seed)
            return CribpiquetState(self.get_game(), inner)

        def __str__(self) -> str:
            return str(self.cribpiquet_state)

    class CribpiquetGame(pyspiel.Game):
        """An OpenSpiel game over a cribpiquet ``Game`` (``cribpiquet_game``)."""

        def __init__(self, game_type: Any, inner: Any, params: dict) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=inner.num_distinct_actions(),
                max_chance_outcomes=inner.max_chance_outcomes(),
                num_players=inner.num_players(),
                min_utility=inner.min_utility(),
                max_utility=inner.max_utility(),
                utility_sum=0.0,
                max_game_length=inner.max_game_length(),
            )
            super().__init__(game_type, info, params)
            self.cribpiquet_game = inner

        def new_initial_state(self) -> Any:
            return CribpiquetState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            if params:
                raise ValueError(f"observation parameters are not supported, got {type(params).__name__}")
            if iig_obs_type is not None and not isinstance(iig_obs_type, pyspiel.IIGObservationType):
                raise TypeError(f"iig_obs_type must be a pyspiel.IIGObservationType or None, got {type(iig_obs_type).__name__}")
            perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return _Observer(self.cribpiquet_game, perfect_recall)

    return CribpiquetGame, CribpiquetState


_REGISTERED = False


def register() -> None:
    """Register ``python_cribpiquet_cribbage`` and ``python_cribpiquet_piquet`` with pyspiel
    (again is a no-op)."""
    global _REGISTERED
    if _REGISTERED:
        return
    pyspiel = _pyspiel()
    Game, _ = _classes(pyspiel)

    def game_type(short_name: str, game: Any) -> Any:
        """pyspiel's GameType of the library's ``game.get_type()`` (the same record)."""
        t = game.get_type()
        kind = pyspiel.GameType
        return kind(
            short_name=short_name,
            long_name=t.long_name,
            dynamics=getattr(kind.Dynamics, t.dynamics),
            chance_mode=getattr(kind.ChanceMode, t.chance_mode),
            information=getattr(kind.Information, t.information),
            utility=getattr(kind.Utility, t.utility),
            reward_model=getattr(kind.RewardModel, t.reward_model),
            max_num_players=t.max_num_players,
            min_num_players=t.min_num_players,
            provides_information_state_string=t.provides_information_state_string,
            provides_information_state_tensor=t.provides_information_state_tensor,
            provides_observation_string=t.provides_observation_string,
            provides_observation_tensor=t.provides_observation_tensor,
            parameter_specification=t.parameter_specification,
        )

    crib_type = game_type(CRIBBAGE, cribbage.Game())
    piquet_type = game_type(PIQUET, piquet.Game())

    class CribbageGame(Game):  # type: ignore[valid-type,misc]
        """``python_cribpiquet_cribbage``: a ``cribbage.Game`` for OpenSpiel."""

        def __init__(self, params: dict | None = None) -> None:
            p = {**crib_type.parameter_specification, **(params or {})}
            target = int_arg(p["target"], "target", 0)
            lurch = bool_arg(p["lurch"], "lurch")
            inner = cribbage.Game(str_arg(p["variant"], "variant"), target=target or None, lurch=lurch)
            super().__init__(crib_type, inner, p)

    class PiquetGame(Game):  # type: ignore[valid-type,misc]
        """``python_cribpiquet_piquet``: a ``piquet.Game`` for OpenSpiel."""

        def __init__(self, params: dict | None = None) -> None:
            p = {**piquet_type.parameter_specification, **(params or {})}
            rules, scope = str_arg(p["rules"], "rules"), str_arg(p["scope"], "scope")
            super().__init__(piquet_type, piquet.Game(rules, scope=scope), p)

    pyspiel.register_game(crib_type, CribbageGame)
    pyspiel.register_game(piquet_type, PiquetGame)
    _REGISTERED = True
