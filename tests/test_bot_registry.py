"""The one bot registry (``rust/bots/registry.rs``): every bot name is parsed there, and
``simulate``, the arena, ``cribpiquet play`` and ``_core.bot_from_name`` accept the same names;
and every bot pickles and copies as its settings (equal repr, the same next actions)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from cribpiquet import _core, arena, bots, cribbage, piquet, play

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
    bots.PIMC(worlds=2, seed=5, inference=False, before_play="worlds"),
    bots.PIMC(worlds=2, seed=6, objective="points", inference=False, before_play="exact+play"),
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
        "PIMC(worlds=5, objective='points', threads=1, seed=0, time_limit=123.456, inference=False, before_play='exact')"
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
    assert bots.PIMC(worlds=4, time_limit=2.5).__reduce__() == (bots.PIMC, (4, "win", 1, 0, 2.5, True, "exact"))
    assert bots.PIMC(before_play="worlds").__reduce__()[1][-1] == "worlds"


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


# ------------------------------------------------------------------------------------ names

NAMES = {"greedy": None, "ismcts": "iterations", "random": None, "first": None, "pimc": "worlds"}
CLASSES = {"greedy": bots.Greedy, "ismcts": bots.ISMCTS, "random": bots.Random, "first": bots.First, "pimc": bots.PIMC}
KNOWN = "greedy, ismcts, ismcts:N, random, first, pimc, pimc:N"


def test_the_registry_lists_every_bot_class() -> None:
    assert _core.bot_names() == NAMES
    assert set(CLASSES.values()) == {getattr(bots, name) for name in bots.__all__} - {bots.Bot}


@pytest.mark.parametrize("name", list(NAMES))
def test_every_name_builds_its_bot(name: str) -> None:
    bot = _core.bot_from_name(name, seed=11)
    assert type(bot) is CLASSES[name]
    seeded = name in ("random", "ismcts", "pimc")
    assert repr(bot) == repr(CLASSES[name](seed=11) if seeded else CLASSES[name]())
    assert repr(_core.bot_from_name(f" {name.upper()} ")) == repr(CLASSES[name](seed=0) if seeded else CLASSES[name]())
    if NAMES[name]:
        with_n = _core.bot_from_name(f"{name}:3", seed=1)
        assert type(with_n) is CLASSES[name] and with_n.name == f"{name}:3"
        assert repr(with_n) == repr(CLASSES[name](**{NAMES[name]: 3, "seed": 1}))
    # The name in reports is the registry's: it builds the same kind again.
    assert type(_core.bot_from_name(bot.name)) is CLASSES[name]
    # And play makes the same bot.
    assert repr(play.make_bot(name, 11)) == repr(bot)


def test_names_and_objects_play_the_same_games() -> None:
    """``simulate`` takes a name and the bot built from it alike: one parser, one construction."""
    five = cribbage.Game("five-card")
    for name in ["ismcts:10", "greedy", "first", "random"]:
        by_name = cribbage.simulate(five, 3, players=[name, "random"], seed=5)
        by_bot = cribbage.simulate(five, 3, players=[_core.bot_from_name(name), "random"], seed=5)
        assert by_name["scores"].tolist() == by_bot["scores"].tolist(), name


ACCEPTED = ["random", "First", " greedy ", "ISMCTS", "ismcts:5", "pimc", "PIMC:2", "ismcts : 7"]


@pytest.mark.parametrize("name", ACCEPTED)
def test_play_simulate_and_the_arena_accept_the_same_names(name: str) -> None:
    bot = play.make_bot(name, 1)
    assert isinstance(bot, bots.Bot)
    assert _core.bot_from_name(name, seed=1).name == bot.name
    # Zero games still parse the players (a default PIMC plays a whole game slowly).
    assert cribbage.simulate(SIX, 0, players=[name, "random"])["scores"].shape == (0, 2)
    assert piquet.simulate(DEAL, 0, players=name)["scores"].shape == (0, 2)
    assert arena(DEAL, [name, "first"], 0, progress=False).players == (name.strip().lower(), "first")


def test_unknown_names_list_the_registry() -> None:
    assert _core.bot_from_name("nobody") is None
    with pytest.raises(ValueError) as e:
        play.make_bot("nobody", 0)
    assert str(e.value) == "unknown bot 'nobody': choose greedy, ismcts, random, first, pimc"
    with pytest.raises(ValueError) as e:
        cribbage.simulate(SIX, 1, players=["nobody", "random"])
    assert str(e.value) == f'unknown player "nobody" (known: {KNOWN}, or a cribpiquet.bots bot)'
    with pytest.raises(ValueError) as e:
        arena(DEAL, ["random", "nobody"], 1, progress=False)
    assert str(e.value) == f'unknown player "nobody" (known: {KNOWN}, or a cribpiquet.bots bot)'


BAD = {
    "first:2": 'the first player takes no argument, got "first:2"',
    "greedy:": 'the greedy player takes no argument, got "greedy:"',
    "ismcts:0": 'ismcts:N needs a number of iterations 1 <= N <= 4294967295 (2**32-1), got "ismcts:0"',
    "ismcts:lots": 'ismcts:N needs a number of iterations 1 <= N <= 4294967295 (2**32-1), got "ismcts:lots"',
    "pimc:-3": 'pimc:N needs a number of worlds N >= 1, got "pimc:-3"',
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_arguments_are_the_same_error_everywhere(name: str) -> None:
    for call in (
        lambda: _core.bot_from_name(name),
        lambda: play.make_bot(name, 0),
        lambda: cribbage.simulate(SIX, 0, players=[name, "random"]),
        lambda: arena(DEAL, [name, "random"], 0, progress=False),
    ):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == BAD[name]


def test_bot_from_name_checks_its_seed() -> None:
    assert repr(_core.bot_from_name("random", seed=-1)) == "Random(seed=-1)"
    # Bots that draw no random numbers take no seed.
    assert repr(_core.bot_from_name("greedy", seed=5)) == "Greedy()"
    with pytest.raises(TypeError, match="seed must be an int"):
        _core.bot_from_name("random", seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _core.bot_from_name(3)  # type: ignore[arg-type]


def test_each_class_takes_its_registry_settings() -> None:
    """The constructor arguments are the registry entry's settings, described once in the core:
    the default bot's repr is the class's text signature, every argument is taken by keyword
    and read back (repr and pickle) in the signature's order."""
    import inspect

    for cls in (bots.Random, bots.First, bots.Greedy, bots.ISMCTS, bots.PIMC):
        assert repr(cls()) == cls.__name__ + cls.__text_signature__
        names = list(inspect.signature(cls).parameters)
        assert len(cls().__reduce__()[1]) == len(names)
        for name, value in zip(names, cls().__reduce__()[1]):
            assert f"{name}=" in repr(cls(**{name: value}))
    assert repr(bots.ISMCTS(rollout=" RANDOM ", exploration=1, threads=2)) == (
        "ISMCTS(iterations=1000, time_limit=None, exploration=1.0, rollout='random', threads=2, seed=0, "
        "rollout_to_end=False)"
    )
    assert repr(bots.PIMC(objective=" Points ", before_play="EXACT+PLAY", seed=-2)).startswith(
        "PIMC(worlds=100, objective='points', threads=1, seed=-2, time_limit=None, inference=True, before_play='exact+play')"
    )
    with pytest.raises(TypeError, match="unexpected keyword argument 'seed'"):
        bots.First(seed=1)
    with pytest.raises(TypeError, match="time_limit must be a number, got str '1'"):
        bots.PIMC(time_limit="1")
    with pytest.raises(TypeError, match="rollout must be a str, got int 3"):
        bots.ISMCTS(rollout=3)
