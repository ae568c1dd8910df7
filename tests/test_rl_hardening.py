"""Issue 19 item 6 (and 11): the PettingZoo envs and the OpenSpiel adapter take only integer
actions (numpy integer scalars included; never bool, float, str, None) and say which agent and
which actions when refusing; nothing changes on an error."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cribpiquet.envs import cribbage_v0, piquet_v0  # noqa: E402

NOT_INTEGERS = [356.9, "52", np.float64(148.0), True, np.bool_(True), 1 + 0j, [3]]


def live_env(module):
    env = module.raw_env() if module is piquet_v0 else module.raw_env(variant="five-card")
    env.reset(seed=5)
    return env


@pytest.mark.parametrize("module", [cribbage_v0, piquet_v0])
def test_only_integer_actions_reach_the_engine(module):
    env = live_env(module)
    agent = env.agent_selection
    legal = env.game_state.legal_actions()
    before = env.game_state.serialize()
    for bad in NOT_INTEGERS:
        with pytest.raises(TypeError) as e:
            env.step(bad)
        msg = str(e.value)
        assert msg.startswith(f"an action must be an int, got {type(bad).__name__} ") and agent in msg, msg
        assert str(legal[0]) in msg and len(msg) < 200
    for huge in (2**80, -1, env.game.num_distinct_actions()):
        with pytest.raises(ValueError, match=f"is not legal for {agent}: action ids are 0 .. "):
            env.step(huge)
    assert env.game_state.serialize() == before and env.agent_selection == agent
    env.step(np.int64(legal[0]))  # a numpy integer is an integer
    assert env.game_state.serialize() != before


@pytest.mark.parametrize("module", [cribbage_v0, piquet_v0])
def test_none_unknown_agents_and_step_before_reset(module):
    env = live_env(module)
    agent = env.agent_selection
    legal = env.game_state.legal_actions()
    with pytest.raises(ValueError) as e:
        env.step(None)
    assert str(e.value).startswith(f"{agent} is still playing: None is no action (legal: {legal[0]}")
    with pytest.raises(ValueError, match=r"unknown agent 'player_9': the agents are player_0, player_1"):
        env.observe("player_9")
    with pytest.raises(ValueError, match="unknown agent"):
        env.action_space(["not hashable"])  # type: ignore[arg-type]
    env.agent_selection = "player_7"
    with pytest.raises(ValueError, match=r"the selected agent 'player_7' is not one of player_0, player_1"):
        env.step(legal[0])
    raw = module.raw_env()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        raw.step(0)


def test_an_illegal_integer_names_the_agent_and_the_engine_reason():
    env = live_env(cribbage_v0)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=rf"^{agent}: illegal action 1378 \(go\)"):
        env.step(1378)


def test_openspiel_actions_are_integers_only():
    pytest.importorskip("pyspiel")
    import pyspiel

    from cribpiquet import openspiel

    openspiel.register()
    state = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "five-card"}).new_initial_state()
    for bad in (True, 356.9, np.float64(3.0), None, "5"):
        with pytest.raises(TypeError, match=f"an action must be an int, got {type(bad).__name__}"):
            state.apply_action(bad)
    with pytest.raises(ValueError, match=r"action 1000000000000000000000000000000 is out of range: action ids are 0 \.\. 1378"):
        state.apply_action(10**30)
    assert state.history() == []
    state.apply_action(np.int64(3))
    assert state.history() == [3]
    with pytest.raises(ValueError, match=r"probability_sampler\(\) must be a finite number, got nan"):
        state.resample_from_infostate(0, lambda: float("nan"))
    with pytest.raises(ValueError, match=r"target must be at least 0, got -3"):
        pyspiel.load_game("python_cribpiquet_cribbage", {"target": -3})
