"""The PettingZoo AEC environments (``[rl]`` extra) pass PettingZoo's API and seed tests, follow
the game exactly, and report rewards in both modes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

# Dict observations ({"observation", "action_mask"}, PettingZoo's classic-game convention) make
# api_test warn that they are not one Box array; that is the intended format.
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:Observation is not a NumPy")

from cribpiquet import cribbage, piquet  # noqa: E402
from cribpiquet.envs import cribbage_v0, piquet_v0  # noqa: E402

ENVS = {
    "cribbage-five-card": lambda **kw: cribbage_v0.env(variant="five-card", target=31, **kw),
    "cribbage-four-player": lambda **kw: cribbage_v0.env(variant="four-player", target=31, **kw),
    "piquet-deal": lambda **kw: piquet_v0.env(scope="deal", **kw),
    "piquet-rubicon": lambda **kw: piquet_v0.env(rules="rubicon", scope="partiya", **kw),
}


@pytest.mark.parametrize("reward", ["returns", "points"])
@pytest.mark.parametrize("name", list(ENVS))
def test_pettingzoo_api_test(name, reward):
    api_test(ENVS[name](reward=reward), num_cycles=300)


@pytest.mark.parametrize("name", list(ENVS))
def test_pettingzoo_seed_test(name):
    seed_test(ENVS[name], num_cycles=300)


def _play(env, seed, *, rng_seed=0):
    """Random legal play to the end; returns the final rewards summed per agent and the env."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, env


def test_observations_are_the_states_tensors_and_masks():
    env = cribbage_v0.env(variant="six-card")
    env.reset(seed=1)
    state = env.unwrapped.game_state
    agent = env.agent_selection
    assert agent == f"player_{state.current_player()}"
    for p, a in enumerate(env.possible_agents):
        obs = env.observe(a)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["observation"], state.information_state_tensor(p))
        expected = state.legal_actions_mask().astype(np.int8) if a == agent else np.zeros(1379, np.int8)
        np.testing.assert_array_equal(obs["action_mask"], expected)
    assert env.observe(agent)["action_mask"].sum() == 15  # six cards: 15 two-card discards
    obs_env = piquet_v0.env(observation="observation")
    obs_env.reset(seed=0)
    s = obs_env.unwrapped.game_state
    np.testing.assert_array_equal(obs_env.observe("player_1")["observation"], s.observation_tensor(1))


def test_returns_mode_pays_the_game_result():
    total, env = _play(cribbage_v0.env(variant="five-card", target=31), seed=4)
    state = env.unwrapped.game_state
    assert state.is_terminal()
    assert [total[a] for a in env.possible_agents] == state.returns()
    assert sorted(total.values()) == [-1.0, 1.0]


def test_points_mode_rewards_add_up_to_the_scores():
    for make in (lambda: cribbage_v0.env(variant="five-card", target=31, reward="points"),
                 lambda: piquet_v0.env(scope="deal", reward="points")):
        for seed in range(3):
            total, env = _play(make(), seed=seed, rng_seed=seed)
            state = env.unwrapped.game_state
            assert [total[a] for a in env.possible_agents] == [float(x) for x in state.scores()]


def test_same_seed_same_game_other_seed_other_game():
    first = _play(piquet_v0.env(scope="deal"), seed=7)[1].unwrapped.game_state
    again = _play(piquet_v0.env(scope="deal"), seed=7)[1].unwrapped.game_state
    other = _play(piquet_v0.env(scope="deal"), seed=8)[1].unwrapped.game_state
    assert first.history() == again.history() != other.history()


def test_render_and_errors():
    env = cribbage_v0.env(variant="five-card", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text == str(env.unwrapped.game_state) and "five-card cribbage" in text
    state_before = env.unwrapped.game_state.clone()
    with pytest.raises(ValueError, match=r"illegal action 1378 \(go\)"):
        env.step(cribbage.GO)
    assert env.unwrapped.game_state == state_before
    with pytest.raises(ValueError, match="reward must be 'returns' or 'points'"):
        cribbage_v0.env(reward="score")
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        piquet_v0.env(render_mode="human")
    with pytest.raises(ValueError, match="observation must be"):
        piquet_v0.env(observation="pixels")
    assert piquet_v0.env(rules=piquet.Rules.rubicon()).unwrapped.game.rules == piquet.Rules.rubicon()
