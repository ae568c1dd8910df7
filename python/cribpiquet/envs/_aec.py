"""The one PettingZoo AEC environment over a cribpiquet ``Game`` (both games).

An agent's observation is ``{"observation": float32 tensor, "action_mask": int8 mask}``: the
tensor is the agent's ``information_state_tensor`` (default) or ``observation_tensor``; the mask
has one entry per action id (``game.num_distinct_actions()``) and is all zeros except for the
agent to move. Chance events (cuts, deals, the starter, talon cards) are sampled inside by the
engine (``State.sample_chance``, uniform) from a game seed that ``reset`` draws from a generator
seeded by ``reset(seed=...)``; with the same seed and actions two environments play the same
game. Turns follow the game: ``agent_selection`` is the player to move (cribbage's pegging and
piquet's tricks do not alternate strictly).

Rewards (``reward=``):

* ``"returns"`` (default): 0 until the game ends, then each agent's payoff
  (``State.returns()``: cribbage ±1, ×2/3 for a lurch with ``lurch=True``; piquet the score
  difference of the deal or the match result);
* ``"points"``: after every step, the points each agent made by it (the action and the chance
  events after it; partners share their side's; five-card cribbage's three for last, scored in
  the deal, comes with the first step), so an agent's rewards add up to its score.

Actions are integers (``int`` or a numpy integer scalar; ``bool``, floats and strings are a
``TypeError``). An illegal action, ``None`` for an agent still playing, or a selected agent that
is not one of ``possible_agents`` raise ``ValueError`` naming the agent and its legal actions (the
game is unchanged); ``step`` before ``reset`` is a ``RuntimeError`` saying to call ``reset``.
``render()`` (``render_mode="ansi"``) returns the whole table as text (omniscient: every hand).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .. import cribbage, piquet
from .._util import describe, int_arg, is_int, short_repr

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
        if not isinstance(game, (cribbage.Game, piquet.Game)):
            raise TypeError(f"game must be a cribbage.Game or a piquet.Game, got {describe(game)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {short_repr(render_mode)}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be 'returns' or 'points', got {short_repr(reward)}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be 'information_state' or 'observation', got {short_repr(observation)}")
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
        self._seeds = random.Random()
        self._seed = 0
        self.game_state = game.new_initial_state()
        self._opening = [0.0] * n
        self._was_reset = False
        self.agents: list[str] = []  # until reset (num_agents reads it)

    # ----------------------------------------------------------------------------- spaces

    def _player(self, agent: Any) -> int:
        """The seat of ``agent``, else ``ValueError`` naming it and the agents."""
        try:
            return self._index[agent]
        except (KeyError, TypeError):
            raise ValueError(f"unknown agent {short_repr(agent)}: the agents are "
                             f"{', '.join(self.possible_agents)}") from None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self._player(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self._player(agent)]]

    def _legal_text(self) -> str:
        legal = self.game_state.legal_actions()
        shown = ", ".join(map(str, legal[:8]))
        return f"{shown}, … ({len(legal)} in all)" if len(legal) > 8 else shown or "none"

    def _checked_action(self, agent: Any, action: Any) -> int:
        """The action as an int legal for ``agent`` now, else a short error (nothing changes)."""
        if agent not in self._index:
            raise ValueError(f"the selected agent {short_repr(agent)} is not one of "
                             f"{', '.join(self.possible_agents)} (it has no legal actions)")
        if action is None:
            raise ValueError(f"{agent} is still playing: None is no action (legal: {self._legal_text()})")
        if not is_int(action):
            raise TypeError(f"an action must be an int, got {describe(action)} "
                            f"({agent}'s legal actions: {self._legal_text()})")
        a = int(action)
        if not 0 <= a < self._num_actions:
            raise ValueError(f"action {short_repr(a)} is not legal for {agent}: action ids are 0 .. "
                             f"{self._num_actions - 1} (legal now: {self._legal_text()})")
        return a

    # ------------------------------------------------------------------------------- play

    def _sample_chances(self) -> list[float]:
        """Apply sampled chance outcomes up to a decision; the points they made, per player."""
        s = self.game_state
        points = [0.0] * len(self.possible_agents)
        while s.is_chance_node():
            s.apply_action(s.sample_chance(self._seed))
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
            self._seeds = random.Random(int_arg(seed, "seed"))
        self._seed = self._seeds.getrandbits(64)
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
        self._was_reset = True

    def step(self, action: Any) -> None:
        if not self._was_reset:
            raise RuntimeError("call reset() before step(): there is no game yet")
        agent = self.agent_selection
        if agent in self.terminations and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        s = self.game_state
        checked = self._checked_action(agent, action)
        try:
            s.apply_action(checked)
        except ValueError as e:  # the engine's "illegal action …" (the state is unchanged): name the agent
            raise ValueError(f"{agent}: {e}") from None
        points = [a + b for a, b in zip(self._opening, s.rewards())]
        self._opening = [0.0] * len(points)
        more = self._sample_chances()
        points = [a + b for a, b in zip(points, more)]
        self._cumulative_rewards[agent] = 0.0
        self._after_move(points)
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, with clear errors before ``reset`` and once every agent has left."""
        if not self._was_reset:
            raise RuntimeError("call reset() before last(): there is no game yet")
        if self.agent_selection not in self.terminations:
            raise ValueError(f"{self.agent_selection} has left the game (every agent is done): call reset() to play again")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._player(agent)
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
    if not isinstance(env, CribpiquetAEC):
        raise TypeError(f"env must be a CribpiquetAEC (raw_env()), got {describe(env)}")
    return wrappers.OrderEnforcingWrapper(env)
