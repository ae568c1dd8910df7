"""OpenSpiel's names in the library itself (issue 32, item 4): ``observation_string(player)``,
``history_str()``, ``game.get_type()``, ``is_simultaneous_node()``, ``cribpiquet.load_game`` from
OpenSpiel-style text, and ``resample_from_infostate`` seeded by an int or a generator. Where
OpenSpiel is installed, each is compared with what ``pyspiel`` gives through the adapter."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

import cribpiquet
from cribpiquet import cribbage, load_game, piquet

GAMES = [cribbage.Game("five-card"), cribbage.Game("six-card"), cribbage.Game("three-player"),
         cribbage.Game("four-player"), piquet.Game(scope="deal"), piquet.Game("rubicon", scope="deal")]  # fmt: skip


def _random_states(game, n_games: int, seed: int):
    """Every decision state of ``n_games`` random games (chance drawn by the engine's seed)."""
    rng = random.Random(seed)
    for g in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(seed * 1000 + g))
            else:
                yield s.clone()
                s.apply_action(rng.choice(s.legal_actions()))


# ------------------------------------------------------------------ observation_string


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_observation_strings_are_equal_exactly_when_the_observation_tensors_are(game):
    """The observation string says the facts of the observation tensor: over the decision states
    of random games, for every player, equal strings <=> equal tensors; and a player's
    observation is a function of his information state."""
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    by_info: dict[str, str] = {}
    for s in _random_states(game, 6, seed=len(repr(game))):
        for p in range(s.num_players()):
            text, tensor = s.observation_string(p), s.observation_tensor(p).tobytes()
            assert by_string.setdefault(text, tensor) == tensor, text
            assert by_tensor.setdefault(tensor, text) == text, text
            assert by_info.setdefault(s.information_state_string(p), text) == text
    assert len(by_string) > 100


def test_cribbage_observation_string_holds_the_count_and_earlier_cards_as_sets():
    """Hand-checked against the state's own accessors: the cards of the current count and those
    laid earlier, per player, sorted; the rest of the lines are the information state's."""
    checked = 0
    for s in _random_states(cribbage.Game("six-card"), 3, seed=5):
        if s.phase != "play":
            continue
        p = s.current_player()
        lines = s.observation_string(p).splitlines()
        info = s.information_state_string(p).splitlines()
        plays = s.plays()  # (player, card id) in order this deal
        current = len(s.count_cards())
        laid = [plays[: len(plays) - current], plays[len(plays) - current:]]

        def text(part: list, q: int) -> str:
            cards = sorted((cribbage.Card(c) for who, c in part if who == q), key=lambda c: (c.suit, c.rank))
            return f"P{q} " + (" ".join(str(c) for c in sorted(cards, key=lambda c: c.id)) or "-")

        assert lines[7] == "this count: " + ", ".join(text(laid[1], q) for q in range(2))
        assert lines[8] == "earlier: " + ", ".join(text(laid[0], q) for q in range(2))
        assert lines[:7] == info[:7] and lines[9] == info[8]  # the header lines and "count: …, go: …"
        checked += 1
    assert checked > 20


def test_piquet_observation_string_names_the_lead_and_the_opponents_voids():
    game = piquet.Game(scope="deal")
    seen_lead = seen_void = False
    for s in _random_states(game, 4, seed=2):
        if s.phase != "play":
            continue
        p = s.current_player()
        line = next(l for l in s.observation_string(p).splitlines() if l.startswith("played: "))
        plays = s.plays()
        mine = sorted(c for who, c in plays if who == 0)
        theirs = sorted(c for who, c in plays if who == 1)
        names = lambda ids: " ".join(str(piquet.Card(c)) for c in ids) or "-"  # noqa: E731
        assert line.startswith(f"played: P0 {names(mine)}, P1 {names(theirs)}; lead: ")
        trick = s.trick()
        lead = str(piquet.Card(trick[0][1])) if len(trick) == 1 else "-"
        assert f"; lead: {lead};" in line
        seen_lead |= lead != "-"
        # the opponent showed out of a suit: he did not follow a card led
        voids = set()
        for i in range(0, len(plays) - 1, 2):
            (a, led), (b, followed) = plays[i], plays[i + 1]
            if b == 1 - p and piquet.Card(led).suit != piquet.Card(followed).suit:
                voids.add("CDHS"[piquet.Card(led).suit])
        assert line.endswith("opponent void in: " + ("".join(sorted(voids, key="CDHS".index)) or "-"))
        seen_void |= bool(voids)
    assert seen_lead and seen_void


def test_observation_string_checks_its_player():
    s = cribbage.Game().new_initial_state()
    with pytest.raises(ValueError, match="no player is to move at a chance node"):
        s.observation_string()
    with pytest.raises(ValueError, match="no player 2 in cribbage"):
        s.observation_string(2)


# ----------------------------------------------------- history_str, is_simultaneous_node


def test_history_str_and_is_simultaneous_node():
    s = piquet.Game().new_initial_state()
    assert s.history_str() == "" and not s.is_simultaneous_node()
    for a in (3, 9, 0, 1):
        s.apply_action(a) if a in s.legal_actions() else s.apply_action(s.legal_actions()[0])
    assert s.history_str() == ", ".join(str(a) for a in s.history()) and s.history_str().count(", ") == 3
    assert not s.is_simultaneous_node()


# -------------------------------------------------------------------------- get_type


def test_get_type_describes_each_game():
    c, p = cribbage.Game("five-card").get_type(), piquet.Game().get_type()
    assert isinstance(c, cribpiquet.GameType)
    assert (c.short_name, c.min_num_players, c.max_num_players) == ("cribbage", 2, 4)
    assert (p.short_name, p.min_num_players, p.max_num_players) == ("piquet", 2, 2)
    for t in (c, p):
        assert (t.dynamics, t.chance_mode, t.information, t.utility, t.reward_model) == (
            "SEQUENTIAL", "EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION", "ZERO_SUM", "TERMINAL")
        assert t.provides_observation_string and t.provides_information_state_tensor
    assert c.parameter_specification == {"variant": "six-card", "target": 0, "lurch": False}
    assert p.parameter_specification == {"rules": "russian", "scope": "partiya"}
    assert c == cribbage.Game("four-player").get_type() and hash(c) == hash(cribbage.Game().get_type())
    assert c.to_dict()["short_name"] == "cribbage"


# ------------------------------------------------------------------------- load_game


def test_load_game_reads_openspiel_style_text_and_dicts():
    assert load_game("cribbage") == cribbage.Game()
    assert load_game("cribbage(variant=five-card)") == cribbage.Game("five-card")
    assert load_game("cribbage(variant=six-card,target=31,lurch=true)") == cribbage.Game(target=31, lurch=True)
    assert load_game(" cribbage( variant = three-player , lurch=False )") == cribbage.Game("three-player")
    assert load_game("piquet") == piquet.Game()
    assert load_game("piquet(rules=rubicon,scope=deal)") == piquet.Game("rubicon", scope="deal")
    assert load_game("piquet", {"scope": "deal"}) == piquet.Game(scope="deal")
    assert load_game("cribbage(variant=five-card)", {"target": 15}) == cribbage.Game("five-card", target=15)
    assert load_game("python_cribpiquet_piquet(scope=deal)") == piquet.Game(scope="deal")  # the adapter's name


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (("chess",), ValueError, "unknown game 'chess': the games are 'cribbage' and 'piquet'"),
        (("cribbage(colour=red)",), ValueError, "cribbage has no parameter 'colour'; its parameters are variant, target, lurch"),
        (("piquet", {"variant": "x"}), ValueError, "piquet has no parameter 'variant'"),
        (("cribbage(variant)",), ValueError, "parameter 'variant' of 'cribbage\\(variant\\)' is not key=value"),
        (("cribbage(target=1,target=2)",), ValueError, "parameter 'target' given twice"),
        (("crib bage",), ValueError, "is not a game name"),
        (("cribbage(variant=seven-card)",), ValueError, "seven-card"),
        ((5,), TypeError, "name must be a str, got int"),
        (("piquet", [("scope", "deal")]), TypeError, "params must be a dict or None"),
    ],
)
def test_load_game_refuses_what_it_cannot_read(args, error, match):
    with pytest.raises(error, match=match):
        load_game(*args)


# ------------------------------------------------------- resample_from_infostate seeds


def _decision_state():
    return next(s for s in _random_states(cribbage.Game("six-card"), 1, seed=9) if s.phase == "play")


def test_resample_takes_a_seed_or_a_generator_it_draws_the_seed_from():
    s = _decision_state()
    p = s.current_player()
    by_int = lambda seed: s.resample_from_infostate(p, seed)  # noqa: E731
    r = random.Random(4)
    assert s.resample_from_infostate(p, r) == by_int(random.Random(4).getrandbits(64))
    assert r.getstate() != random.Random(4).getstate()  # the generator moved on
    g = np.random.default_rng(4)
    assert s.resample_from_infostate(p, g) == by_int(int(np.random.default_rng(4).integers(0, 2**64, dtype=np.uint64)))
    legacy = np.random.RandomState(4)
    expected = int(np.random.RandomState(4).randint(0, 2**64, dtype=np.uint64))
    assert s.resample_from_infostate(p, legacy) == by_int(expected)
    assert s.resample_from_infostate(p, np.int64(7)) == by_int(7)
    for world in (s.resample_from_infostate(p, random.Random(k)) for k in range(5)):
        assert world.information_state_string(p) == s.information_state_string(p)
    with pytest.raises(TypeError, match="seed must be an int, a random.Random or a numpy Generator/RandomState, got"):
        s.resample_from_infostate(p, 1.5)
    with pytest.raises(TypeError, match="seed must be an int"):
        s.resample_from_infostate(p, True)


# ------------------------------------------------------------- against real pyspiel


@pytest.fixture(scope="module")
def pyspiel():
    if sys.version_info < (3, 11):
        pytest.skip("OpenSpiel 2.0.2 needs Python >= 3.11")
    module = pytest.importorskip("pyspiel")
    from cribpiquet import openspiel

    openspiel.register()
    return module


@pytest.mark.parametrize("text", ["cribbage(variant=five-card,target=31,lurch=true)", "cribbage", "piquet(rules=rubicon,scope=deal)"])
def test_load_game_reads_the_text_as_pyspiel_does(pyspiel, text):
    """The same text loads the same game through pyspiel's parser and the adapter."""
    assert load_game(text) == pyspiel.load_game("python_cribpiquet_" + text).cribpiquet_game


def test_names_agree_with_pyspiel(pyspiel):
    """Through the adapter, pyspiel's own methods give what the library's do: the game type,
    history_str, is_simultaneous_node and the observation string (pyspiel's, from the
    adapter's observer)."""
    for name, inner in [("python_cribpiquet_cribbage", cribbage.Game()), ("python_cribpiquet_piquet", piquet.Game())]:
        game = pyspiel.load_game(name)
        ours, theirs = inner.get_type(), game.get_type()
        for field in ("dynamics", "chance_mode", "information", "utility", "reward_model"):
            assert getattr(theirs, field).name == getattr(ours, field)
        assert (theirs.min_num_players, theirs.max_num_players) == (ours.min_num_players, ours.max_num_players)
        assert theirs.provides_observation_string and theirs.parameter_specification == ours.parameter_specification
    game = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "five-card"})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    compared = 0
    while not state.is_terminal():
        inner = state.cribpiquet_state
        assert state.history_str() == inner.history_str()
        assert state.is_simultaneous_node() is inner.is_simultaneous_node() is False
        if not state.is_chance_node():
            for p in range(2):
                assert state.observation_string(p) == inner.observation_string(p)
            compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert compared > 10


def test_docstring_examples_of_load_game_and_game_type():
    """tests/test_doctests.py runs the public modules' own docstrings; these two live in private
    modules (``cribpiquet._load``, ``cribpiquet._engine``)."""
    import doctest

    from cribpiquet import _engine, _load

    for module in (_load, _engine):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted >= 2, module.__name__
