"""Game engines from Python, against OpenSpiel 2.0.2's cribbage in the same run.

Targets (issue 4): Python-driven random playouts (``legal_actions`` + ``apply_action`` in a
Python loop) <= 0.5 µs per action and >= 5x OpenSpiel; ``clone()`` <= 0.3 µs; ``simulate``
random six-card games >= 100 k games/s per core and >= 75x OpenSpiel driven from Python.
Piquet (no OpenSpiel counterpart): the same Python loops over random russian deals, ``clone()``,
and ``simulate`` random deals (target >= 300 k deals/s per core).

Run: ``pip install '.[bench]' && pytest benches/test_bench_engines.py --benchmark-only -s``
(OpenSpiel is the ``open-spiel`` entry of the ``bench`` extra; without ``pyspiel`` its
benchmarks are skipped). Build the extension with ``maturin develop --release`` for numbers
worth quoting. The ratios are printed at the end of the module (``-s``).
"""

from __future__ import annotations

import os
import random

import pytest

from cribpiquet import cribbage, piquet

try:
    import pyspiel
except ImportError:  # the bench extra is not installed
    pyspiel = None

needs_openspiel = pytest.mark.skipif(pyspiel is None, reason="pyspiel (open-spiel) not installed")

PLAYOUT_GAMES = 200
SIM_GAMES = 50_000
PIQUET_SIM_DEALS = 300_000

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


def _playout_bench(benchmark, loop, game, n_games: int, key: str) -> None:
    n = loop(game, n_games, 0)  # the same seed every round: the same games
    benchmark.pedantic(loop, args=(game, n_games, 0), rounds=5, iterations=1)
    RESULTS[key] = _per_action(benchmark, n)
    RESULTS[key + "_games_per_s"] = n_games / benchmark.stats.stats.min
    benchmark.extra_info.update(us_per_action=RESULTS[key] * 1e6, actions_per_game=n / n_games)


def test_playout_cribpiquet(benchmark):
    _playout_bench(benchmark, random_playouts, cribbage.Game("six-card"), PLAYOUT_GAMES, "playout")


@needs_openspiel
def test_playout_openspiel(benchmark):
    game = pyspiel.load_game("cribbage")
    _playout_bench(benchmark, random_playouts, game, PLAYOUT_GAMES // 4, "openspiel_playout")


def test_lean_playout_cribpiquet(benchmark):
    game = cribbage.Game("six-card")
    _playout_bench(benchmark, lean_random_playouts, game, PLAYOUT_GAMES, "lean_playout")


@needs_openspiel
def test_lean_playout_openspiel(benchmark):
    game = pyspiel.load_game("cribbage")
    _playout_bench(benchmark, lean_random_playouts, game, PLAYOUT_GAMES // 4, "openspiel_lean_playout")


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


def test_chance_outcomes_cribpiquet(benchmark):
    s = cribbage.Game("six-card").new_initial_state()
    benchmark(s.chance_outcomes)


def test_information_state_tensor_cribpiquet(benchmark):
    s = mid_game_state(cribbage.Game("six-card"))
    benchmark(s.information_state_tensor, 0)


# ---------------------------------------------------------------------------------- simulate


def test_simulate_one_thread(benchmark):
    kwargs = {"seed": 1, "threads": 1}
    args = (cribbage.Game(), SIM_GAMES)
    r = benchmark.pedantic(cribbage.simulate, args=args, kwargs=kwargs, rounds=3, iterations=1)
    assert r["scores"].shape == (SIM_GAMES, 2)
    RESULTS["simulate_1"] = SIM_GAMES / benchmark.stats.stats.min
    benchmark.extra_info.update(games_per_s=RESULTS["simulate_1"])


def test_simulate_all_threads(benchmark):
    n = SIM_GAMES * (os.cpu_count() or 1)
    benchmark.pedantic(cribbage.simulate, args=(cribbage.Game(), n), kwargs={"seed": 1}, rounds=3, iterations=1)
    RESULTS["simulate_all"] = n / benchmark.stats.stats.min
    benchmark.extra_info.update(games_per_s=RESULTS["simulate_all"], cores=os.cpu_count())


# ------------------------------------------------------------------------------------ piquet


def test_piquet_playout(benchmark):
    _playout_bench(benchmark, random_playouts, piquet.Game(scope="deal"), PLAYOUT_GAMES, "piquet_playout")


def test_piquet_lean_playout(benchmark):
    game = piquet.Game(scope="deal")
    _playout_bench(benchmark, lean_random_playouts, game, PLAYOUT_GAMES, "piquet_lean_playout")


def test_piquet_clone(benchmark):
    s = mid_game_state(piquet.Game(), 50)  # in the play of the first deal of a partiya
    benchmark(s.clone)
    RESULTS["piquet_clone"] = benchmark.stats.stats.min


def test_piquet_apply_undo(benchmark):
    s = mid_game_state(piquet.Game(), 50)
    a = s.legal_actions()[0]

    def apply_undo():
        s.apply_action(a)
        s.undo_action()

    benchmark(apply_undo)


def test_piquet_information_state_tensor(benchmark):
    s = mid_game_state(piquet.Game(), 50)
    benchmark(s.information_state_tensor, 0)


def test_piquet_simulate_one_thread(benchmark):
    kwargs = {"seed": 1, "threads": 1}
    n = PIQUET_SIM_DEALS
    args = (piquet.Game(scope="deal"), n)
    r = benchmark.pedantic(piquet.simulate, args=args, kwargs=kwargs, rounds=3, iterations=1)
    assert r["scores"].shape == (n, 2)
    RESULTS["piquet_simulate_1"] = n / benchmark.stats.stats.min
    benchmark.extra_info.update(deals_per_s=RESULTS["piquet_simulate_1"])


def test_piquet_simulate_all_threads(benchmark):
    n = PIQUET_SIM_DEALS * (os.cpu_count() or 1)
    deal = piquet.Game(scope="deal")
    benchmark.pedantic(piquet.simulate, args=(deal, n), kwargs={"seed": 1}, rounds=3, iterations=1)
    RESULTS["piquet_simulate_all"] = n / benchmark.stats.stats.min
    benchmark.extra_info.update(deals_per_s=RESULTS["piquet_simulate_all"], cores=os.cpu_count())


# ------------------------------------------------------------------------------------ report


def _report(r: dict[str, float]) -> list[str]:
    us = 1e6
    out = ["", "cribbage engines (six-card, random play; OpenSpiel 2.0.2 in the same run):"]
    if "playout" in r:
        rate = r["playout_games_per_s"]
        out.append(f"  Python playout (random.choice): {r['playout'] * us:.3f} µs/action, {rate:,.0f} games/s")
    if "lean_playout" in r:
        out.append(f"  Python playout (random() index): {r['lean_playout'] * us:.3f} µs/action")
    if "clone" in r:
        out.append(f"  clone(): {r['clone'] * us:.3f} µs")
    for key, label in (("simulate_1", "1 thread"), ("simulate_all", f"{os.cpu_count()} threads")):
        if key in r:
            out.append(f"  simulate: {r[key]:,.0f} games/s on {label}")
    for ours, theirs, what in (
        ("playout", "openspiel_playout", "playout (random.choice)"),
        ("lean_playout", "openspiel_lean_playout", "playout (random() index)"),
        ("clone", "openspiel_clone", "clone()"),
    ):
        if ours in r and theirs in r:
            ratio = r[theirs] / r[ours]
            out.append(f"  OpenSpiel {what}: {r[theirs] * us:.3f} µs; cribpiquet is {ratio:.1f}x faster")
    if "simulate_1" in r and "openspiel_playout_games_per_s" in r:
        ratio = r["simulate_1"] / r["openspiel_playout_games_per_s"]
        out.append(f"  simulate (1 thread) vs OpenSpiel games driven from Python: {ratio:,.0f}x")
    if any(k.startswith("piquet_") for k in r):
        out.append("piquet engine (russian deals, random play):")
    if "piquet_playout" in r:
        rate = r["piquet_playout_games_per_s"]
        out.append(f"  Python playout (random.choice): {r['piquet_playout'] * us:.3f} µs/action, {rate:,.0f} deals/s")
    if "piquet_lean_playout" in r:
        out.append(f"  Python playout (random() index): {r['piquet_lean_playout'] * us:.3f} µs/action")
    if "piquet_clone" in r:
        out.append(f"  clone(): {r['piquet_clone'] * us:.3f} µs")
    for key, label in (("piquet_simulate_1", "1 thread"), ("piquet_simulate_all", f"{os.cpu_count()} threads")):
        if key in r:
            out.append(f"  simulate: {r[key]:,.0f} deals/s on {label}")
    return out


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    if RESULTS:
        print("\n".join(_report(RESULTS)))
