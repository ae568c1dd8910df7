"""Game engines from Python, against OpenSpiel 2.0.2's cribbage in the same run.

Targets (issue 4): Python-driven random playouts (``legal_actions`` + ``apply_action`` in a
Python loop) <= 0.5 µs per action and >= 5x OpenSpiel; ``clone()`` <= 0.3 µs; ``simulate``
random six-card games >= 100 k games/s per core and >= 75x OpenSpiel driven from Python.

Run: ``pip install '.[bench]' && pytest benches/test_bench_engines.py --benchmark-only -s``
(OpenSpiel is the ``open-spiel`` entry of the ``bench`` extra; without ``pyspiel`` its
benchmarks are skipped). Build the extension with ``maturin develop --release`` for numbers
worth quoting. The ratios are printed at the end of the module (``-s``).
"""

from __future__ import annotations

import os
import random

import pytest

from cribpiquet import cribbage

try:
    import pyspiel
except ImportError:  # the bench extra is not installed
    pyspiel = None

needs_openspiel = pytest.mark.skipif(pyspiel is None, reason="pyspiel (open-spiel) is not installed")

PLAYOUT_GAMES = 200
SIM_GAMES = 50_000

#: Measurements of this run, by name: seconds per action, per clone, games per second.
RESULTS: dict[str, float] = {}


def random_playouts(game, n_games: int, seed: int) -> int:
    """The loop an AI researcher writes: a uniformly random legal action (chance outcomes
    included, drawn uniformly from the legal list) until the end. Returns the actions applied."""
    choice = random.Random(seed).choice
    actions = 0
    for _ in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
            actions += 1
    return actions


def lean_random_playouts(game, n_games: int, seed: int) -> int:
    """The same with a leaner draw (``random()`` indexing instead of ``random.choice``, which is
    Python code): the engine's share of the loop shows more."""
    rand = random.Random(seed).random
    actions = 0
    for _ in range(n_games):
        s = game.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rand() * len(legal))])
            actions += 1
    return actions


def mid_game_state(game, n_actions: int = 60, seed: int = 1):
    choice = random.Random(seed).choice
    s = game.new_initial_state()
    for _ in range(n_actions):
        s.apply_action(choice(s.legal_actions()))
    return s


def _per_action(benchmark, n_actions: int) -> float:
    return benchmark.stats.stats.min / n_actions


# ---------------------------------------------------------------------------------- playouts


def test_playout_cribpiquet(benchmark):
    game = cribbage.Game("six-card")
    n = random_playouts(game, PLAYOUT_GAMES, 0)
    benchmark.pedantic(random_playouts, args=(game, PLAYOUT_GAMES, 0), rounds=5, iterations=1)
    RESULTS["playout"] = _per_action(benchmark, n)
    RESULTS["playout_games_per_s"] = PLAYOUT_GAMES / benchmark.stats.stats.min
    benchmark.extra_info.update(us_per_action=RESULTS["playout"] * 1e6, actions_per_game=n / PLAYOUT_GAMES)


@needs_openspiel
def test_playout_openspiel(benchmark):
    game = pyspiel.load_game("cribbage")
    n = random_playouts(game, PLAYOUT_GAMES // 4, 0)
    benchmark.pedantic(random_playouts, args=(game, PLAYOUT_GAMES // 4, 0), rounds=5, iterations=1)
    RESULTS["openspiel_playout"] = _per_action(benchmark, n)
    RESULTS["openspiel_games_per_s"] = PLAYOUT_GAMES / 4 / benchmark.stats.stats.min
    benchmark.extra_info.update(us_per_action=RESULTS["openspiel_playout"] * 1e6, actions_per_game=n / (PLAYOUT_GAMES // 4))


def test_lean_playout_cribpiquet(benchmark):
    game = cribbage.Game("six-card")
    n = lean_random_playouts(game, PLAYOUT_GAMES, 0)
    benchmark.pedantic(lean_random_playouts, args=(game, PLAYOUT_GAMES, 0), rounds=5, iterations=1)
    RESULTS["lean_playout"] = _per_action(benchmark, n)
    benchmark.extra_info.update(us_per_action=RESULTS["lean_playout"] * 1e6)


@needs_openspiel
def test_lean_playout_openspiel(benchmark):
    game = pyspiel.load_game("cribbage")
    n = lean_random_playouts(game, PLAYOUT_GAMES // 4, 0)
    benchmark.pedantic(lean_random_playouts, args=(game, PLAYOUT_GAMES // 4, 0), rounds=5, iterations=1)
    RESULTS["openspiel_lean_playout"] = _per_action(benchmark, n)
    benchmark.extra_info.update(us_per_action=RESULTS["openspiel_lean_playout"] * 1e6)


# ------------------------------------------------------------------------------------- clone


def test_clone_cribpiquet(benchmark):
    s = mid_game_state(cribbage.Game("six-card"))
    benchmark(s.clone)
    RESULTS["clone"] = benchmark.stats.stats.min


@needs_openspiel
def test_clone_openspiel(benchmark):
    s = mid_game_state(pyspiel.load_game("cribbage"))
    benchmark(s.clone)
    RESULTS["openspiel_clone"] = benchmark.stats.stats.min


def test_apply_undo_cribpiquet(benchmark):
    s = mid_game_state(cribbage.Game("six-card"))
    a = s.legal_actions()[0]

    def apply_undo():
        s.apply_action(a)
        s.undo_action()

    benchmark(apply_undo)


def test_information_state_tensor_cribpiquet(benchmark):
    s = mid_game_state(cribbage.Game("six-card"))
    benchmark(s.information_state_tensor, 0)


# ---------------------------------------------------------------------------------- simulate


def test_simulate_one_thread(benchmark):
    r = benchmark.pedantic(cribbage.simulate, args=(SIM_GAMES,), kwargs={"seed": 1, "threads": 1}, rounds=3, iterations=1)
    assert r["scores"].shape == (SIM_GAMES, 2)
    RESULTS["simulate_1"] = SIM_GAMES / benchmark.stats.stats.min
    benchmark.extra_info.update(games_per_s=RESULTS["simulate_1"])


def test_simulate_all_threads(benchmark):
    n = SIM_GAMES * (os.cpu_count() or 1)
    benchmark.pedantic(cribbage.simulate, args=(n,), kwargs={"seed": 1}, rounds=3, iterations=1)
    RESULTS["simulate_all"] = n / benchmark.stats.stats.min
    benchmark.extra_info.update(games_per_s=RESULTS["simulate_all"], cores=os.cpu_count())


# ------------------------------------------------------------------------------------ report


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    if not RESULTS:
        return
    r = RESULTS
    lines = ["", "cribbage engines (six-card, random play):"]
    if "playout" in r:
        lines.append(f"  Python playout: {r['playout'] * 1e6:.3f} µs/action ({r['playout_games_per_s']:,.0f} games/s)")
    if "lean_playout" in r:
        lines.append(f"  Python playout, random() indexing: {r['lean_playout'] * 1e6:.3f} µs/action")
    if "clone" in r:
        lines.append(f"  clone(): {r['clone'] * 1e6:.3f} µs")
    if "simulate_1" in r:
        lines.append(f"  simulate: {r['simulate_1']:,.0f} games/s on 1 thread")
    if "simulate_all" in r:
        lines.append(f"  simulate: {r['simulate_all']:,.0f} games/s on {os.cpu_count()} threads")
    if "openspiel_playout" in r:
        o = r["openspiel_playout"]
        lines.append(f"  OpenSpiel 2.0.2 Python playout: {o * 1e6:.3f} µs/action ({r['openspiel_games_per_s']:,.0f} games/s)")
        if "playout" in r:
            lines.append(f"    playout ratio: {o / r['playout']:.1f}x per action")
        if "openspiel_lean_playout" in r and "lean_playout" in r:
            ol = r["openspiel_lean_playout"]
            lines.append(f"    random() indexing: {ol * 1e6:.3f} µs/action, ratio {ol / r['lean_playout']:.1f}x")
        if "simulate_1" in r:
            lines.append(f"    simulate (1 thread) vs OpenSpiel from Python: {r['simulate_1'] / r['openspiel_games_per_s']:,.0f}x games/s")
    if "openspiel_clone" in r and "clone" in r:
        lines.append(f"  OpenSpiel clone(): {r['openspiel_clone'] * 1e6:.3f} µs ({r['openspiel_clone'] / r['clone']:.1f}x)")
    print("\n".join(lines))
