"""The native bots of cribpiquet.bots: only legal actions in random states of every cribbage
variant and piquet rule set and scope, seeded determinism, action values over exactly the legal
actions, clear errors, and bots as simulate players."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cribpiquet import bots, cribbage, piquet

GAMES = [cribbage.Game(v) for v in ("six-card", "five-card", "three-player", "four-player")] + [
    piquet.Game(rules, scope=scope) for rules in ("russian", "rubicon") for scope in ("deal", "partiya")
]
GAME_IDS = [repr(g) for g in GAMES]


def random_decision_states(game, n, seed):
    """`n` decision states of `game` reached by random play (every phase with a choice)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = game.new_initial_state()
        while not s.is_terminal() and len(out) < n:
            legal = s.legal_actions()
            if not s.is_chance_node() and len(legal) > 1 and rng.random() < 0.15:
                out.append(s.clone())
            s.apply_action(rng.choice(legal))
    return out


def cheap_bots():
    return [
        bots.Random(seed=5),
        bots.First(),
        bots.ISMCTS(iterations=40, seed=2),
        bots.ISMCTS(iterations=30, rollout="random", threads=2, rollout_to_end=True, exploration=1.5),
    ]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_bots_play_only_legal_actions_and_value_exactly_the_legal_set(game):
    states = random_decision_states(game, 12, seed=1)
    for bot in cheap_bots():
        for s in states:
            before = s.serialize()
            a = bot.step(s)
            legal = s.legal_actions()
            assert a in legal, (bot, s)
            values = bot.action_values(s)
            assert sorted(values) == legal
            assert all(isinstance(v, float) for v in values.values())
            assert s.serialize() == before  # the state is not changed


def test_first_plays_the_lowest_action_and_random_values_are_uniform():
    s = random_decision_states(cribbage.Game("six-card"), 1, seed=2)[0]
    legal = s.legal_actions()
    assert bots.First().step(s) == legal[0]
    assert bots.First().action_values(s) == {a: (1.0 if a == legal[0] else 0.0) for a in legal}
    assert bots.Random().action_values(s) == {a: 1 / len(legal) for a in legal}


def test_random_is_seeded_and_restart_replays():
    states = random_decision_states(piquet.Game(), 30, seed=3)
    a, b = bots.Random(seed=9), bots.Random(seed=9)
    first = [a.step(s) for s in states]
    assert first == [b.step(s) for s in states]
    a.restart()
    assert [a.step(s) for s in states] == first
    other = [bots.Random(seed=10).step(s) for s in states]
    assert other != first


def test_chance_and_terminal_states_are_value_errors():
    game = cribbage.Game("five-card")
    s = game.new_initial_state()
    for bot in cheap_bots():
        with pytest.raises(ValueError, match="chance node"):
            bot.step(s)
        with pytest.raises(ValueError, match="chance node"):
            bot.action_values(s)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        bots.First().step(s)


def test_a_non_state_is_a_type_error():
    with pytest.raises(TypeError, match="step needs a cribbage or piquet State, got int 3"):
        bots.First().step(3)
    with pytest.raises(TypeError, match="action_values needs a cribbage or piquet State, got Game"):
        bots.Random().action_values(cribbage.Game())
    with pytest.raises(TypeError, match="seed must be an int, got bool True"):
        bots.Random(seed=True)


def test_reprs_and_names():
    assert repr(bots.Random(seed=3)) == "Random(seed=3)"
    assert repr(bots.First()) == "First()"
    assert (bots.Random().name, bots.First().name) == ("random", "first")
    assert isinstance(bots.First(), bots.Bot)


def test_one_bot_plays_both_games():
    bot = bots.Random(seed=1)
    for game in (cribbage.Game(), piquet.Game()):
        s = random_decision_states(game, 1, seed=4)[0]
        assert bot.step(s) in s.legal_actions()


def test_simulate_accepts_bot_objects():
    game = cribbage.Game("five-card")
    by_name = cribbage.simulate(game, 200, players=["random", "first"], seed=7)
    by_bot = cribbage.simulate(game, 200, players=[bots.Random(seed=123), bots.First()], seed=7)
    # In simulate a bot draws from the game's generator, so Random plays the "random" games.
    for k in by_name:
        np.testing.assert_array_equal(by_name[k], by_bot[k])
    single = piquet.simulate(piquet.Game(scope="deal"), 50, players=bots.First(), seed=1)
    np.testing.assert_array_equal(single["scores"], piquet.simulate(piquet.Game(scope="deal"), 50, players="first", seed=1)["scores"])


def test_simulate_refuses_unknown_players():
    game = cribbage.Game()
    with pytest.raises(ValueError, match='unknown player "nobody"'):
        cribbage.simulate(game, 1, players=["nobody", "random"])
    with pytest.raises(TypeError, match="a player must be a name"):
        cribbage.simulate(game, 1, players=[3, "random"])
    with pytest.raises(ValueError, match="players must name 1 or 2 policies, got more than 2"):
        cribbage.simulate(game, 1, players=[bots.First()] * 3)


# ------------------------------------------------------------------------------------ ISMCTS


def test_ismcts_values_are_probabilities_and_seeded():
    states = random_decision_states(cribbage.Game("six-card"), 6, seed=8)
    for threads in (1, 2):
        runs = []
        for _ in range(2):
            bot = bots.ISMCTS(iterations=200, threads=threads, seed=4)
            runs.append([(bot.step(s), bot.action_values(s)) for s in states])
        assert runs[0] == runs[1]
        for (a, values), s in zip(runs[0], states):
            assert a in s.legal_actions()
            assert all(0.0 <= v <= 1.0 for v in values.values())
    # restart() forgets the trees and reseeds: the same answers as a fresh bot.
    bot = bots.ISMCTS(iterations=100, seed=6)
    first = [bot.step(s) for s in states]
    bot.restart()
    assert [bot.step(s) for s in states] == first


def test_ismcts_finds_the_winning_card():
    """Five-card pegging positions where some card (not every one) surely reaches 61 at once (in
    every world the player cannot tell from the real one): that card's every iteration ends in a
    win, so its value is exactly 1 and no card is worth more."""
    game = cribbage.Game("five-card")
    rng = random.Random(3)
    found = 0
    bot = bots.ISMCTS(iterations=300, seed=1)
    for _ in range(600):
        s = game.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.is_chance_node():
                s.apply_action(rng.choice(legal))
                continue
            p = s.current_player()
            # A sure win: in the real deal and in every world consistent with what p knows.
            worlds = [s] + [s.resample_from_infostate(p, k) for k in range(30)]
            wins = [a for a in legal if all((c := w.child(a)).is_terminal() and c.winner == p for w in worlds)]
            if s.phase == "play" and wins and len(wins) < len(legal):
                values = bot.action_values(s)
                assert all(values[a] == 1.0 for a in wins), (values, wins, str(s))
                assert max(values.values()) == 1.0
                found += 1
                break
            s.apply_action(rng.choice(legal))
        if found == 4:
            break
    assert found == 4


def test_ismcts_forced_move_and_time_limit():
    s = random_decision_states(piquet.Game(scope="deal"), 1, seed=5)[0]
    bot = bots.ISMCTS(iterations=10_000_000, time_limit=0.05, seed=1)
    assert bot.step(s) in s.legal_actions()
    # A state with one legal action: that action.
    game = cribbage.Game("six-card")
    rng = random.Random(2)
    while True:
        t = game.new_initial_state()
        while not t.is_terminal() and not (not t.is_chance_node() and len(t.legal_actions()) == 1):
            t.apply_action(rng.choice(t.legal_actions()))
        if not t.is_terminal():
            break
    assert bots.ISMCTS(iterations=20).step(t) == t.legal_actions()[0]


def test_ismcts_settings_are_checked():
    with pytest.raises(ValueError, match=r"iterations must be in range\(1, 4294967296\), got 0"):
        bots.ISMCTS(iterations=0)
    with pytest.raises(ValueError, match=r"threads must be in range\(1, 257\), got 0"):
        bots.ISMCTS(threads=0)
    with pytest.raises(ValueError, match='unknown rollout "greedyish"'):
        bots.ISMCTS(rollout="greedyish")
    with pytest.raises(ValueError, match="exploration must be a finite number >= 0"):
        bots.ISMCTS(exploration=-1)
    with pytest.raises(ValueError, match="time_limit must be a number of seconds > 0"):
        bots.ISMCTS(time_limit=0)
    with pytest.raises(TypeError, match="rollout_to_end must be a bool"):
        bots.ISMCTS(rollout_to_end=1)
    with pytest.raises(TypeError, match="exploration must be a number, got bool True"):
        bots.ISMCTS(exploration=True)
    with pytest.raises(TypeError, match="iterations must be an int"):
        bots.ISMCTS(iterations=1.5)


def test_ismcts_repr_and_names():
    assert repr(bots.ISMCTS()) == (
        "ISMCTS(iterations=1000, time_limit=None, exploration=0.7, rollout='heuristic', threads=1, seed=0, "
        "rollout_to_end=False)"
    )
    b = bots.ISMCTS(iterations=2000, time_limit=0.5, rollout="random", threads=2, seed=9, rollout_to_end=True)
    assert repr(b) == (
        "ISMCTS(iterations=2000, time_limit=0.5, exploration=0.7, rollout='random', threads=2, seed=9, "
        "rollout_to_end=True)"
    )
    assert b.name == "ismcts:2000"


def test_simulate_accepts_ismcts_names():
    game = cribbage.Game("five-card")
    r = cribbage.simulate(game, 4, players=["ismcts:20", "random"], seed=1, threads=1)
    assert r["scores"].shape == (4, 2)
    same = cribbage.simulate(game, 4, players=["ismcts:20", "random"], seed=1, threads=2)
    np.testing.assert_array_equal(r["scores"], same["scores"])
    with pytest.raises(ValueError, match="ismcts:N needs a number of iterations"):
        cribbage.simulate(game, 1, players=["ismcts:lots", "random"])
    with pytest.raises(ValueError, match="the first player takes no argument"):
        cribbage.simulate(game, 1, players=["first:2", "random"])
