"""Native players for both games, written in Rust: :class:`Random`, :class:`First`, the search player
:class:`ISMCTS` (information-set Monte Carlo tree search) and :class:`PIMC` (perfect-information Monte
Carlo over the exact play solver, :func:`cribpiquet.solve`).

Every bot has OpenSpiel's bot methods: ``step(state) -> action``, ``action_values(state) ->
{action: value}`` (what it thinks each legal action is worth, for hints and analysis) and
``restart()``. A bot takes states of either game; ``simulate(game, n, players=[...])`` and
:func:`cribpiquet.arena` accept bot objects as players.

>>> from cribpiquet import bots, cribbage
>>> state = cribbage.Game("five-card").new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.legal_actions()[-1])
>>> bot = bots.Random(seed=1)
>>> bot.step(state) in state.legal_actions()
True
>>> sorted(bots.First().action_values(state).values())[-1]
1.0
"""

from __future__ import annotations

from . import _core

__all__ = ["ISMCTS", "PIMC", "Bot", "First", "Greedy", "Random"]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

Bot = _core.Bot
Random = _core.Random
First = _core.First
ISMCTS = _core.ISMCTS
Greedy = _core.Greedy
PIMC = _core.PIMC
