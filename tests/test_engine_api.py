"""The one engine API of both games: the same methods with the same behaviour, the argument
checks of every int argument (bools, huge ints), thread safety of a shared State, and
simulate's schema, interruption and memory.

Each test runs for cribbage and piquet alike (the classes come from one implementation).
"""

from __future__ import annotations

import _thread
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from cribpiquet import cribbage, piquet

GAMES = {
    "cribbage-six": lambda: cribbage.Game("six-card"),
    "cribbage-four": lambda: cribbage.Game("four-player"),
    "cribbage-lurch": lambda: cribbage.Game("five-card", lurch=True),
    "piquet-deal": lambda: piquet.Game(scope="deal"),
    "piquet-rubicon": lambda: piquet.Game("rubicon", scope="partiya"),
}
MODULES = {"cribbage": cribbage, "piquet": piquet}


def module_of(game):
    return cribbage if isinstance(game, cribbage.Game) else piquet


def play_to_a_decision(game, seed=1, decisions=3):
    """A state a few player decisions into the first deal."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    made = 0
    while made < decisions:
        if not s.is_chance_node():
            made += 1
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def play_to_the_end(state, seed=0):
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]()


def test_both_games_have_the_same_methods():
    shared_game = {n for n in dir(cribbage.Game) if not n.startswith("_")} & {
        n for n in dir(piquet.Game) if not n.startswith("_")
    }
    for name in ("min_utility", "max_utility", "utility_sum", "num_sides", "point_sources", "new_initial_state"):
        assert name in shared_game
    shared_state = {n for n in dir(cribbage.State) if not n.startswith("_")} & {
        n for n in dir(piquet.State) if not n.startswith("_")
    }
    for name in ("points_by_source", "game_value", "side_scores", "returns", "undo_action", "resample_from_infostate"):
        assert name in shared_state
    # One docstring source: the shared methods say the same thing in both games.
    assert cribbage.State.legal_actions.__doc__ == piquet.State.legal_actions.__doc__
    assert cribbage.Game.min_utility.__doc__ == piquet.Game.min_utility.__doc__


def test_utilities_bound_the_returns_and_points_add_up(game):
    lo, hi = game.min_utility(), game.max_utility()
    assert lo < 0 < hi and game.utility_sum() == 0
    for seed in range(15):
        s = play_to_the_end(game.new_initial_state(), seed)
        r = s.returns()
        assert sum(r) == pytest.approx(0) and all(lo <= x <= hi for x in r)
        by_source = s.points_by_source()
        assert list(by_source) == game.point_sources() == list(module_of(game).POINT_SOURCES)
        totals = [sum(points[side] for points in by_source.values()) for side in range(game.num_sides())]
        assert totals == s.side_scores()
        assert s.game_value == (max(r) if s.winner is not None else 0)


def test_hand_checked_utilities():
    # Cribbage: +-1 per game (three-player: a loser pays 1/2); with lurch a triple skunk at 121.
    assert (cribbage.Game().min_utility(), cribbage.Game().max_utility()) == (-1.0, 1.0)
    assert cribbage.Game("three-player").min_utility() == -0.5
    assert cribbage.Game(lurch=True).max_utility() == 3.0
    assert cribbage.Game("five-card", lurch=True).max_utility() == 2.0
    # Piquet, one russian deal: carte blanche 10 + point 8 + two octaves 2*18 + three fourteens 42
    # + repique 60 + 12 leads and 12 tricks + the last trick's extra 3 + open capot 80 = 263.
    assert piquet.Game(scope="deal").max_utility() == 263.0
    assert piquet.Game(scope="deal").min_utility() == -263.0


def test_simulate_schema_is_the_same_in_both_games(game):
    r = module_of(game).simulate(game, 40, seed=2)
    keys = ["scores", "returns", "winner", "first_dealer", "deals", "actions", *game.point_sources()]
    assert list(r) == keys
    sides, players = game.num_sides(), game.num_players()
    assert r["returns"].shape == (40, players) and r["returns"].dtype == np.float64
    for key in ["scores", *game.point_sources()]:
        assert r[key].shape == (40, sides) and r[key].dtype == np.int32
    assert np.array_equal(sum(r[k] for k in game.point_sources()), r["scores"])
    # Game i of a run is the game State would play with the same seed: replay one through simulate's
    # own columns is not possible from Python, but the returns column equals State.returns()'s rule.
    assert np.allclose(r["returns"].sum(axis=1), 0)
    assert ((r["returns"] >= game.min_utility()) & (r["returns"] <= game.max_utility())).all()


def test_lurch_reaches_simulate_returns():
    game = cribbage.Game("six-card", lurch=True)
    r = cribbage.simulate(game, 400, players=["random", "first"], seed=9)
    values = np.abs(r["returns"][:, 0])
    assert set(np.unique(values)) <= {1.0, 2.0, 3.0} and (values > 1).any()
    loser = r["scores"][np.arange(400), 1 - r["winner"]]
    expected = np.where(loser < 61, 3.0, np.where(loser < 91, 2.0, 1.0))
    assert np.array_equal(values, expected)


# ------------------------------------------------------------------- int arguments (issue 8)


def per_player_calls(s):
    calls = [
        lambda p: s.player_return(p),
        lambda p: s.information_state_string(p),
        lambda p: s.information_state_tensor(p),
        lambda p: s.observation_tensor(p),
        lambda p: s.resample_from_infostate(p, 0),
        lambda p: s.hand(p),
        lambda p: s.kept(p),
        lambda p: s.discards(p),
    ]
    if isinstance(s, piquet.State):
        calls += [lambda p: s.dealt_hand(p), lambda p: s.drawn(p), lambda p: s.exchange_size(p)]
    return calls


@pytest.mark.parametrize("bad", [2**64, -(2**70), 10**30, -1, 7])
def test_out_of_range_players_are_value_errors_naming_the_player(game, bad):
    s = play_to_a_decision(game)
    before = s.serialize()
    for call in per_player_calls(s):
        with pytest.raises(ValueError, match="no player"):
            call(bad)
    assert s.serialize() == before


def test_bools_are_never_players_or_actions(game):
    s = play_to_a_decision(game)
    for call in per_player_calls(s):
        with pytest.raises(TypeError, match="bool"):
            call(True)
    with pytest.raises(TypeError, match="bool"):
        s.apply_action(True)
    with pytest.raises(TypeError, match="bool"):
        s.legal_actions(True)
    with pytest.raises(TypeError, match="bool"):
        s.undo_action(False)
    with pytest.raises(TypeError, match="seed"):
        s.resample_from_infostate(0, True)


def test_huge_ints_elsewhere_are_value_errors(game):
    s = play_to_a_decision(game)
    before = s.serialize()
    for huge in (2**64, -(2**64), 10**40):
        with pytest.raises(ValueError, match="illegal action"):
            s.apply_action(huge)
        with pytest.raises(ValueError, match="action"):
            s.action_to_string(huge)
        with pytest.raises(ValueError):
            s.undo_action(action=huge)
        with pytest.raises(ValueError, match="seed"):
            s.resample_from_infostate(0, 2**70)
        with pytest.raises(ValueError, match=r"legal_actions: player must be"):
            s.legal_actions(huge)
        with pytest.raises(ValueError, match=r"legal_actions_mask: player must be"):
            s.legal_actions_mask(huge)
        with pytest.raises(ValueError, match="n_games"):
            module_of(game).simulate(game, huge)
    assert s.serialize() == before


def test_type_errors_name_the_argument(game):
    s = play_to_a_decision(game)
    mod = module_of(game)
    for call, name in [
        (lambda: s.hand(True), "player"),
        (lambda: s.player_return("0"), "player"),
        (lambda: s.information_state_string(True), "player"),
        (lambda: s.legal_actions(True), "player"),
        (lambda: s.legal_actions_mask(1.0), "player"),
        (lambda: s.resample_from_infostate(True, 0), "player"),
        (lambda: s.undo_action(False), "player"),
        (lambda: s.undo_action(0, True), "action"),
        (lambda: mod.simulate(game, True), "n_games"),
        (lambda: mod.simulate(game, 10, threads=True), "threads"),
    ]:
        with pytest.raises(TypeError, match=f"{name} must be an int, got (bool|str|float)"):
            call()


def test_legal_actions_of_the_other_player_are_empty_but_no_player_is_an_error(game):
    s = play_to_a_decision(game)
    other = (s.current_player() + 1) % s.num_players()
    assert s.legal_actions(other) == [] and not s.legal_actions_mask(other).any()
    assert s.legal_actions(s.current_player()) == s.legal_actions()
    for bad in (s.num_players(), -7, 2**70):
        with pytest.raises(ValueError, match=r"player must be"):
            s.legal_actions(bad)


def test_resample_for_no_player_is_for_the_player_to_move(game):
    s = play_to_a_decision(game)
    if s.is_chance_node():  # a random decision can end at a chance node: take one more step
        s.apply_action(s.legal_actions()[0])
    me = s.current_player()
    mine = s.resample_from_infostate(None, 5)
    assert mine.serialize() == s.resample_from_infostate(me, 5).serialize()
    assert mine.information_state_string(me) == s.information_state_string(me)
    chance = game.new_initial_state()
    with pytest.raises(ValueError, match="no player is to move at a chance node; pass the player"):
        chance.resample_from_infostate(None, 5)


def test_a_card_of_the_other_game_is_not_an_action(game):
    s = play_to_a_decision(game)
    other = piquet.Card(3) if isinstance(s, cribbage.State) else cribbage.Card(3)
    before = s.serialize()
    with pytest.raises(TypeError, match="card is not a"):
        s.apply_action(other)
    assert s.serialize() == before


def test_cribbage_pair_helpers_check_their_ints():
    for bad, name in (((True, 5), "a"), ((5, False), "b")):
        with pytest.raises(TypeError, match=f"{name} must be an int, got bool"):
            cribbage.pair_action(*bad)
    for bad in ((2**64, 1), (1, -(2**70)), (52, 0), (3, 3)):
        with pytest.raises(ValueError, match="a must|b must|must differ"):
            cribbage.pair_action(*bad)
    for bad in (2**64, -(2**64), 51, 1378):
        with pytest.raises(ValueError, match="not a two-card discard"):
            cribbage.action_pair(bad)
    with pytest.raises(TypeError, match="action must be an int, got bool"):
        cribbage.action_pair(True)


# ------------------------------------------------------------------------ threads (issue 8.7)


def test_a_state_shared_by_threads_stays_consistent(game):
    """8 threads apply, undo, resample, clone, pickle and read one state at once: nothing but the
    documented ValueError of an action that became illegal meanwhile comes out, and the state
    plays on consistently afterwards."""
    import pickle

    s = play_to_a_decision(game, seed=4)
    errors = []
    stop = time.monotonic() + 1.5

    def worker(k):
        rng = random.Random(k)
        while time.monotonic() < stop:
            try:
                op = rng.randrange(6)
                if op == 0 and not s.is_terminal():
                    s.apply_action(rng.choice(s.legal_actions()))
                elif op == 1 and s.history():
                    s.undo_action()
                elif op == 2 and not s.is_terminal():
                    s.resample_from_infostate(rng.randrange(s.num_players()), rng.randrange(1000))
                elif op == 3:
                    assert s.clone() == s or True
                elif op == 4:
                    pickle.loads(pickle.dumps(s))
                else:
                    s.information_state_string(0)
                    s.serialize()
            except ValueError:
                pass  # an action or undo that another thread made stale: refused, nothing changed
            except Exception as e:  # noqa: BLE001 - anything else is the bug this test looks for
                errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    back = s.get_game().deserialize_state(s.serialize())
    assert back == s
    play_to_the_end(s)
    assert s.is_terminal()


# --------------------------------------------------------------------- simulate (issue 8.3)


def test_simulate_is_interrupted_by_ctrl_c():
    game = cribbage.Game("six-card")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        cribbage.simulate(game, 20_000_000, threads=1)  # minutes of work
    elapsed = time.monotonic() - started
    timer.cancel()
    # Blocks aim at 0.1 s; a generous bound on a loaded machine, far below the whole run.
    assert elapsed < 10, elapsed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_simulate_memory_is_the_output():
    """2M six-card games hold only their result rows (about 60 bytes a game), not a state per
    game (256 bytes each, 512 MB before)."""
    code = (
        "import re, cribpiquet.cribbage as c\n"
        "r = c.simulate(c.Game(), 2_000_000, seed=1)\n"
        # VmHWM: this process's own peak (ru_maxrss would carry the parent's peak across exec).
        "print(int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    peak_mb = int(out.stdout.strip())
    # The columns are ~82 bytes a game (164 MB); a 256-byte state per game would add 512 MB.
    assert peak_mb < 350, f"peak RSS {peak_mb} MB"


def test_endless_and_huge_inputs_are_bounded(game):
    import itertools

    mod = module_of(game)
    n = game.num_players()
    with pytest.raises(ValueError, match=f"players must name 1 or {n} policies, got more than {n}"):
        mod.simulate(game, 1, players=itertools.repeat("random"))
    for call in (
        lambda: game.deserialize_state("x" * 1_000_000),
        lambda: mod.simulate(game, 1, players="r" * 1_000_000),
    ):
        with pytest.raises(ValueError) as e:
            call()
        assert len(str(e.value)) < 200, str(e.value)


def test_cribbage_game_arguments_are_named_in_type_errors():
    for call, msg in [
        (lambda: cribbage.Game(target=True), "target must be an int, got bool True"),
        (lambda: cribbage.Game(5), "variant must be a str, got int 5"),
        (lambda: cribbage.Game(lurch=1), "lurch must be a bool, got int 1"),
    ]:
        with pytest.raises(TypeError, match=msg):
            call()
    with pytest.raises(ValueError, match=r"target must be in range\(1, 10001\), got 2\*\*63 or more"):
        cribbage.Game(target=2**70)
    assert cribbage.Game("five-card", target=50, lurch=True).target == 50
    assert cribbage.Game().variant == "six-card" and not cribbage.Game().lurch
