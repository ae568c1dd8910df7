"""The one PettingZoo AEC environment over a cribpiquet ``Game`` (both games).

An agent's observation is ``{"observation": float32 tensor, "action_mask": int8 mask}``: the
tensor is the agent's ``information_state_tensor`` (default) or ``observation_tensor``; the mask
has one entry per action id (``game.num_distinct_actions()``) and is all zeros except for the
agent to move. Chance events (cuts, deals, the starter, talon cards) are sampled inside,
uniformly, from a generator seeded by ``reset(seed=...)``; with the same seed and actions two
environments play the same game. Turns follow the game: ``agent_selection`` is the player to
move (cribbage's pegging and piquet's tricks do not alternate strictly).

Rewards (``reward=``):

* ``"returns"`` (default): 0 until the game ends, then each agent's payoff
  (``State.returns()``: cribbage ±1, ×2/3 for a lurch with ``lurch=True``; piquet the score
  difference of the deal or the match result);
* ``"points"``: after every step, the points each agent made by it (the action and the chance
  events after it; partners share their side's; five-card cribbage's three for last, scored in
  the deal, comes with the first step), so an agent's rewards add up to its score.

An illegal action raises ``ValueError`` naming it and the legal set (the game is unchanged).
``render()`` (``render_mode="ansi"``) returns the whole table as text (omniscient: every hand).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "cribpiquet.envs needs PettingZoo and Gymnasium: pip install 'cribpiquet[rl]'"
    ) from exc

REWARD_MODES = ("returns", "points")
OBSERVATIONS = ("information_state", "observation")


class CribpiquetAEC(AECEnv):
    """A PettingZoo AEC environment playing one cribpiquet ``Game`` (see the module docs)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "cribpiquet", "is_parallelizable": False}

    def __init__(
        self,
        game: Any,
        *,
        name: str,
        render_mode: str | None = None,
        reward: str = "returns",
        observation: str = "information_state",
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be 'returns' or 'points', got {reward!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be 'information_state' or 'observation', got {observation!r}")
        self.metadata = {**self.metadata, "name": name}
        self.game = game
        self.render_mode = render_mode
        self.reward_mode = reward
        self.observation_mode = observation
        self._info_state = observation == "information_state"
        n = game.num_players()
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        size = game.information_state_tensor_size() if self._info_state else game.observation_tensor_size()
        self._num_actions = game.num_distinct_actions()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self._num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._random = random.Random().random
        self.game_state = game.new_initial_state()
        self._opening = [0.0] * n

    # ----------------------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------------- play

    def _sample_chances(self) -> list[float]:
        """Apply sampled chance outcomes up to a decision; the points they made, per player."""
        s = self.game_state
        points = [0.0] * len(self.possible_agents)
        draw = self._random
        while s.is_chance_node():
            legal = s.legal_actions()  # every card left is equally likely in both games
            s.apply_action(legal[int(draw() * len(legal))])
            for p, r in enumerate(s.rewards()):
                if r:
                    points[p] += r
        return points

    def _after_move(self, points: list[float]) -> None:
        s = self.game_state
        over = s.is_terminal()
        if self.reward_mode == "points":
            values = points
        else:
            values = s.returns() if over else [0.0] * len(points)
        for a in self.agents:
            self.rewards[a] = float(values[self._index[a]])
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._random = random.Random(seed).random
        self.game_state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        # Five-card cribbage scores three for last in the deal: those points come with the
        # first step's rewards (PettingZoo rewards start at 0 after reset).
        self._opening = self._sample_chances()
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.game_state
        s.apply_action(int(action))  # ValueError (state unchanged) if illegal
        points = [a + b for a, b in zip(self._opening, s.rewards())]
        self._opening = [0.0] * len(points)
        more = self._sample_chances()
        points = [a + b for a, b in zip(points, more)]
        self._cumulative_rewards[agent] = 0.0
        self._after_move(points)
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._index[agent]
        s = self.game_state
        if self._info_state:
            tensor = s.information_state_tensor(p)
        else:
            tensor = s.observation_tensor(p)
        mask = s.legal_actions_mask(p).astype(np.int8)
        return {"observation": tensor, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return str(self.game_state)

    def close(self) -> None:
        pass


def wrap(env: CribpiquetAEC) -> AECEnv:
    """The standard wrapper: calls in the AEC order (reset first, no step after the end)."""
    return wrappers.OrderEnforcingWrapper(env)
