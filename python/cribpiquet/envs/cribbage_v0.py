"""PettingZoo AEC environment of cribbage (``pip install 'cribpiquet[rl]'``).

``env(variant="six-card", *, target=None, lurch=False, render_mode=None, reward="returns",
observation="information_state")``: agents ``player_0``… (2, 3 or 4 by variant); observation
``{"observation": float32 (1293,) information state (or (813,) observation tensor),
"action_mask": int8 (1379,)}``; actions are the engine's ids (``cribbage.Game`` docs). Rewards:
``"returns"`` (±1 at the end) or ``"points"`` (the points made by each step) — see
``cribpiquet.envs._aec`` (the module the two environments share).

>>> from cribpiquet.envs import cribbage_v0
>>> env = cribbage_v0.env(variant="five-card", render_mode="ansi")
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents, int(env.observe(env.agent_selection)["action_mask"].sum())
(True, 10)
"""

from __future__ import annotations

from typing import Any

from .. import cribbage
from ._aec import CribpiquetAEC, wrap


def raw_env(
    variant: str = "six-card",
    *,
    target: int | None = None,
    lurch: bool = False,
    render_mode: str | None = None,
    reward: str = "returns",
    observation: str = "information_state",
) -> CribpiquetAEC:
    """The environment without wrappers."""
    game = cribbage.Game(variant, target=target, lurch=lurch)
    return CribpiquetAEC(game, name="cribbage_v0", render_mode=render_mode, reward=reward, observation=observation)


def env(**kwargs: Any) -> Any:
    """The wrapped environment (order enforcing); arguments as :func:`raw_env`."""
    return wrap(raw_env(**kwargs))
