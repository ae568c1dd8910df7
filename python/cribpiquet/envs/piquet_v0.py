"""PettingZoo AEC environment of piquet (``pip install 'cribpiquet[rl]'``).

``env(rules="russian", *, scope="deal", render_mode=None, reward="returns",
observation="information_state")``: agents ``player_0`` and ``player_1``; ``rules`` a
``piquet.Rules`` or its name (``"russian"``, ``"rubicon"``), ``scope`` ``"deal"`` or
``"partiya"``; observation ``{"observation": float32 (1117,) information state (or (401,)),
"action_mask": int8 (43,)}``. Rewards: ``"returns"`` (the deal's score difference or the match
result, at the end) or ``"points"`` — see ``cribpiquet.envs._aec`` (the module the two environments share).

>>> from cribpiquet.envs import piquet_v0
>>> env = piquet_v0.env(scope="deal")
>>> env.reset(seed=1)
>>> env.observe(env.agent_selection)["action_mask"].shape
(43,)
"""

from __future__ import annotations

from typing import Any

from .. import piquet
from ._aec import CribpiquetAEC, wrap


def raw_env(
    rules: Any = "russian",
    *,
    scope: str = "deal",
    render_mode: str | None = None,
    reward: str = "returns",
    observation: str = "information_state",
) -> CribpiquetAEC:
    """The environment without wrappers."""
    game = piquet.Game(rules, scope=scope)
    return CribpiquetAEC(game, name="piquet_v0", render_mode=render_mode, reward=reward, observation=observation)


def env(**kwargs: Any) -> Any:
    """The wrapped environment (order enforcing); arguments as :func:`raw_env`."""
    return wrap(raw_env(**kwargs))
