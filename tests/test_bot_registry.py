"""Every bot pickles and copies as its settings (``__reduce__``: equal repr, the same next
actions)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from cribpiquet import arena, bots, cribbage, piquet

# ------------------------------------------------------------------------------------ states


def _decision(game: Any, seed: int, phase: str | None = None) -> Any:
    """A decision state of ``game``: chance by the ``seed``-th outcome, decisions by the lowest
    action, until ``phase`` (if given) has a player to move."""
    s = game.new_initial_state()
    k = seed
    while s.is_chance_node() or (phase is not None and s.phase != phase):
        legal = s.legal_actions()
        s.apply_action(legal[k % len(legal)] if s.is_chance_node() else legal[0])
        k += 7
    assert s.is_player_node()
    return s


SIX, DEAL = cribbage.Game("six-card"), piquet.Game(scope="deal")
#: A few states of both games: a six-card discard and pegging, a piquet exchange and trick play.
STATES = [_decision(SIX, 1, "discard"), _decision(SIX, 2, "play"), _decision(DEAL, 3), _decision(DEAL, 4, "play")]
assert [s.phase for s in STATES] == ["discard", "play", "exchange", "play"]

# ------------------------------------------------------------------------- pickle and copy

#: Bots whose decisions are reproducible (no time limit), small enough to decide quickly.
BOTS = [
    bots.Random(),
    bots.Random(seed=3),
    bots.Random(seed=2**64 - 1),
    bots.First(),
    bots.Greedy(),
    bots.ISMCTS(iterations=30, seed=5),
    bots.ISMCTS(iterations=20, exploration=2.5, rollout="random", threads=2, seed=-5, rollout_to_end=True),
    bots.PIMC(worlds=3, seed=1, inference=False),
    bots.PIMC(worlds=2, objective="points", threads=2, seed=7, inference=False),
    bots.PIMC(worlds=2, seed=2**63),
]
#: Bots with a time limit: they copy alike, but their searches depend on the clock.
TIMED = [
    bots.ISMCTS(iterations=7, time_limit=0.1 + 0.2, exploration=1e-300, seed=9),
    bots.ISMCTS(time_limit=1e-10),
    bots.PIMC(worlds=5, time_limit=123.456, objective="points", inference=False),
]

COPIES = {
    "pickle": lambda b: pickle.loads(pickle.dumps(b)),
    "pickle-0": lambda b: pickle.loads(pickle.dumps(b, protocol=0)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}


def _plays(bot: Any) -> list[Any]:
    """What ``bot`` answers on :data:`STATES`, in order: its action and its values at each."""
    return [(bot.step(s), sorted(bot.action_values(s).items())) for s in STATES]


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("bot", BOTS + TIMED, ids=repr)
def test_a_copy_has_the_class_repr_and_name(bot: Any, how: str) -> None:
    again = COPIES[how](bot)
    assert again is not bot
    assert type(again) is type(bot)
    assert repr(again) == repr(bot)
    assert again.name == bot.name
    # A copy of the copy too.
    assert repr(COPIES[how](again)) == repr(bot)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize("bot", BOTS, ids=repr)
def test_a_copy_plays_the_same_actions(bot: Any, how: str) -> None:
    original = COPIES[how](bot)  # fresh twins: the module's bots are shared by the tests
    twin = COPIES[how](original)
    mine, theirs = _plays(original), _plays(twin)
    assert mine == theirs
    assert all(a in s.legal_actions() for (a, _), s in zip(mine, STATES))


@pytest.mark.parametrize("bot", [bots.Random(seed=4), bots.ISMCTS(iterations=25, seed=1), bots.PIMC(worlds=2, seed=3, inference=False)], ids=repr)
def test_a_copy_of_a_used_bot_is_the_bot_as_made(bot: Any) -> None:
    """A bot copies as its settings: its generator and search tree start afresh, as after
    ``restart()``."""
    for s in STATES:
        bot.step(s)
    again = pickle.loads(pickle.dumps(bot))
    bot.restart()
    assert _plays(again) == _plays(bot)


def test_timed_bots_copy_their_exact_settings() -> None:
    again = pickle.loads(pickle.dumps(TIMED[0]))
    assert repr(again) == (
        "ISMCTS(iterations=7, time_limit=0.30000000000000004, exploration=1e-300, rollout='heuristic', "
        "threads=1, seed=9, rollout_to_end=False)"
    )
    assert repr(copy.deepcopy(TIMED[2])) == (
        "PIMC(worlds=5, objective='points', threads=1, seed=0, time_limit=123.456, inference=False)"
    )
    for bot in TIMED[:2]:
        s = STATES[1]
        assert copy.deepcopy(bot).step(s) in s.legal_actions()


def test_reduce_is_the_constructor_call() -> None:
    assert bots.Random(seed=3).__reduce__() == (bots.Random, (3,))
    assert bots.First().__reduce__() == (bots.First, ())
    assert bots.Greedy().__reduce__() == (bots.Greedy, ())
    assert bots.ISMCTS(iterations=20, seed=-1).__reduce__() == (
        bots.ISMCTS,
        (20, None, 0.7, "heuristic", 1, 2**64 - 1, False),
    )
    assert bots.PIMC(worlds=4, time_limit=2.5).__reduce__() == (bots.PIMC, (4, "win", 1, 0, 2.5, True))


def test_a_pickled_bot_plays_the_same_games_in_simulate_and_the_arena() -> None:
    five = cribbage.Game("five-card")
    players = [bots.ISMCTS(iterations=15, seed=2), bots.Greedy()]
    sent = pickle.loads(pickle.dumps(players))
    assert cribbage.simulate(five, 4, players=sent, seed=1)["scores"].tolist() == (
        cribbage.simulate(five, 4, players=players, seed=1)["scores"].tolist()
    )
    one, two = arena(DEAL, [bots.PIMC(worlds=2, inference=False), "first"], 4, seed=3, progress=False), arena(
        DEAL, copy.deepcopy([bots.PIMC(worlds=2, inference=False), "first"]), 4, seed=3, progress=False
    )
    assert (one.wins, one.draws, one.points) == (two.wins, two.draws, two.points)
