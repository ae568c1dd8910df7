"""The OpenSpiel adapter (``[openspiel]`` extra; OpenSpiel 2.0.2 wheels need Python >= 3.11):
both games load through ``pyspiel.load_game``, pass OpenSpiel's random-simulation consistency
test, and OpenSpiel's ISMCTSBot and MCTSBot play complete games through it."""

from __future__ import annotations

import sys

import numpy as np
import pytest

if sys.version_info < (3, 11):
    pytest.skip("OpenSpiel 2.0.2 needs Python >= 3.11", allow_module_level=True)
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from cribpiquet import cribbage, openspiel, piquet  # noqa: E402

openspiel.register()

GAMES = [
    ("python_cribpiquet_cribbage", {"variant": "five-card", "target": 31}),
    ("python_cribpiquet_cribbage", {"variant": "three-player", "target": 31}),
    ("python_cribpiquet_cribbage", {"variant": "six-card", "lurch": True}),
    ("python_cribpiquet_piquet", {"scope": "deal"}),
    ("python_cribpiquet_piquet", {"rules": "rubicon", "scope": "partiya"}),
]


@pytest.mark.parametrize(("name", "params"), GAMES, ids=lambda x: str(x))
def test_random_simulation_consistency(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_games_carry_their_parameters():
    game = pyspiel.load_game("python_cribpiquet_cribbage(variant=five-card,target=31,lurch=True)")
    assert game.cribpiquet_game == cribbage.Game("five-card", target=31, lurch=True)
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 1379, 52)
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    assert game.information_state_tensor_shape() == [1293] and game.observation_tensor_shape() == [813]
    four = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "four-player"})
    assert four.num_players() == 4
    default = pyspiel.load_game("python_cribpiquet_piquet")
    assert default.cribpiquet_game == piquet.Game()
    deal = pyspiel.load_game("python_cribpiquet_piquet", {"rules": "rubicon", "scope": "deal"})
    assert deal.cribpiquet_game == piquet.Game("rubicon", scope="deal")
    assert deal.num_distinct_actions() == 43
    openspiel.register()  # again: a no-op


def test_states_follow_the_engine():
    game = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "six-card"})
    state = game.new_initial_state()
    inner = cribbage.Game("six-card").new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal() and len(inner.history()) < 80:
        legal = inner.legal_actions()
        assert state.legal_actions() == legal
        assert state.current_player() == inner.current_player()
        a = int(rng.choice(legal))
        if state.is_chance_node():
            assert state.chance_outcomes() == inner.chance_outcomes()
        else:
            p = state.current_player()
            assert state.information_state_string(p) == inner.information_state_string(p)
            np.testing.assert_array_equal(state.information_state_tensor(p), inner.information_state_tensor(p))
            np.testing.assert_array_equal(state.observation_tensor(p), inner.observation_tensor(p))
            assert state.action_to_string(p, a) == inner.action_to_string(a)
        state.apply_action(a)
        inner.apply_action(a)
    clone = state.clone()
    assert clone.cribpiquet_state == state.cribpiquet_state and clone.history() == state.history()
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(cribbage.GO if state.current_player() == pyspiel.PlayerId.CHANCE else 60)


def _play(game, bots, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    return state, decisions


@pytest.mark.parametrize(
    ("name", "params"),
    [("python_cribpiquet_cribbage", {"variant": "five-card", "target": 15}), ("python_cribpiquet_piquet", {"scope": "deal"})],
    ids=["cribbage", "piquet"],
)
def test_ismcts_and_mcts_bots_play_complete_games(name, params):
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    is_bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=np.random.RandomState(1))
    mcts_bot = mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=np.random.RandomState(2))
    for bots in ([is_bot, mcts_bot], [mcts_bot, is_bot]):
        end, decisions = _play(game, bots, seed=3)
        assert decisions > 5
        returns = end.returns()
        assert sum(returns) == 0 and returns == end.cribpiquet_state.returns()
        assert any(returns) or name.endswith("piquet")


def test_resample_from_infostate_keeps_what_the_player_knows():
    game = pyspiel.load_game("python_cribpiquet_piquet", {"scope": "deal"})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node() or len(state.history()) < 40:
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(p) == state.information_state_string(p)
    assert world.legal_actions() == state.legal_actions()
