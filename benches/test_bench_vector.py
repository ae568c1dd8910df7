"""Vectorized games and the RL adapters (issue 11), against plain Python loops in the same run.

Targets: ``VectorGame`` six-card cribbage, n = 4096, ``observation=None``, actions from
``sample_legal``: >= 10 M actions/s on 2 cores and >= 10x the same random play driven one
``State`` at a time from Python; with information-state tensors >= 0.5 M actions/s (GB/s of
tensor output reported); piquet n = 4096 without tensors >= 10 M actions/s. PettingZoo and
OpenSpiel adapters: their per-action overhead against the bare ``State``. Actions are player
decisions; chance outcomes sampled inside a step do not count.

Run: ``pip install '.[bench,rl]' && pytest benches/test_bench_vector.py --benchmark-only -s``
(a release build: ``pip install .`` or ``maturin develop --release``). The ratios are printed at
the end of the module.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cribpiquet import cribbage, piquet
from cribpiquet.vector import VectorGame

N = 4096
STEPS = 200
RESULTS: dict[str, float] = {}


def _vector_loop(v: VectorGame, steps: int) -> int:
    for _ in range(steps):
        v.step(v.sample_legal())
    return steps * len(v)


def _vector_bench(benchmark, game, observation, key: str, steps: int = STEPS) -> None:
    v = VectorGame(game, N, seed=1, observation=observation)
    v.reset()
    _vector_loop(v, 20)  # warm up (page in the buffers, reach mid-game)
    benchmark.pedantic(_vector_loop, args=(v, steps), rounds=5, iterations=1)
    rate = steps * N / benchmark.stats.stats.min
    RESULTS[key] = rate
    if observation is not None:
        RESULTS[key + "_gbps"] = rate * v.observation_shape[0] * 4 / 1e9
    benchmark.extra_info.update(actions_per_s=rate)


def test_vector_six_card_no_tensor(benchmark):
    _vector_bench(benchmark, cribbage.Game("six-card"), None, "vector_crib")


def test_vector_six_card_information_state(benchmark):
    _vector_bench(benchmark, cribbage.Game("six-card"), "information_state", "vector_crib_info", steps=40)


def test_vector_piquet_no_tensor(benchmark):
    _vector_bench(benchmark, piquet.Game(), None, "vector_piquet")


def _python_random_play(game, decisions: int, seed: int = 0) -> int:
    """The same random play one State at a time from Python: chance outcomes and decisions drawn
    uniformly from the legal actions; returns the decisions made."""
    rand = random.Random(seed).random
    made = 0
    s = game.new_initial_state()
    while made < decisions:
        if s.is_terminal():
            s = game.new_initial_state()
        legal = s.legal_actions()
        chance = s.is_chance_node()
        s.apply_action(legal[int(rand() * len(legal))])
        made += not chance
    return made


def test_python_state_loop_six_card(benchmark):
    n = 100_000
    benchmark.pedantic(_python_random_play, args=(cribbage.Game("six-card"), n), rounds=3, iterations=1)
    RESULTS["python_crib"] = n / benchmark.stats.stats.min


def test_python_state_loop_piquet(benchmark):
    n = 100_000
    benchmark.pedantic(_python_random_play, args=(piquet.Game(), n), rounds=3, iterations=1)
    RESULTS["python_piquet"] = n / benchmark.stats.stats.min


def _pettingzoo_play(make, decisions: int) -> int:
    env = make()
    rng = random.Random(0).random
    made, seed = 0, 0
    while made < decisions:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng() * len(legal))]))
            made += 1
    return made


def test_pettingzoo_per_action(benchmark):
    pytest.importorskip("pettingzoo")
    from cribpiquet.envs import cribbage_v0

    n = 20_000
    made = benchmark.pedantic(_pettingzoo_play, args=(lambda: cribbage_v0.env(variant="six-card"), n), rounds=3, iterations=1)
    RESULTS["pettingzoo_crib"] = made / benchmark.stats.stats.min


def _openspiel_play(game, decisions: int) -> int:
    rand = random.Random(0).random
    made = 0
    s = game.new_initial_state()
    while made < decisions:
        if s.is_terminal():
            s = game.new_initial_state()
        legal = s.legal_actions()
        chance = s.is_chance_node()
        s.apply_action(legal[int(rand() * len(legal))])
        made += not chance
    return made


def test_openspiel_adapter_per_action(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    from cribpiquet import openspiel

    openspiel.register()
    game = pyspiel.load_game("python_cribpiquet_cribbage", {"variant": "six-card"})
    n = 50_000
    benchmark.pedantic(_openspiel_play, args=(game, n), rounds=3, iterations=1)
    RESULTS["openspiel_crib"] = n / benchmark.stats.stats.min


def _report(r: dict[str, float]) -> list[str]:
    out = ["", "vectorized games (decisions per second; chance not counted):"]
    if "vector_crib" in r:
        line = f"  VectorGame six-card n={N}, no tensor: {r['vector_crib'] / 1e6:.2f} M actions/s"
        if "python_crib" in r:
            line += f" ({r['vector_crib'] / r['python_crib']:.1f}x the Python State loop, {r['python_crib'] / 1e6:.2f} M/s)"
        out.append(line)
    if "vector_crib_info" in r:
        out.append(
            f"  VectorGame six-card, information-state tensors: {r['vector_crib_info'] / 1e6:.2f} M actions/s, "
            f"{r['vector_crib_info_gbps']:.2f} GB/s of tensors"
        )
    if "vector_piquet" in r:
        line = f"  VectorGame piquet n={N}, no tensor: {r['vector_piquet'] / 1e6:.2f} M actions/s"
        if "python_piquet" in r:
            line += f" ({r['vector_piquet'] / r['python_piquet']:.1f}x the Python State loop)"
        out.append(line)
    us = 1e6
    if "python_crib" in r:
        base = us / r["python_crib"]
        for key, what in (("pettingzoo_crib", "PettingZoo AEC env"), ("openspiel_crib", "OpenSpiel adapter")):
            if key in r:
                per = us / r[key]
                out.append(f"  {what}: {per:.2f} µs/action vs bare State {base:.2f} µs (+{per - base:.2f} µs)")
    return out


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    if RESULTS:
        print("\n".join(_report(RESULTS)))
