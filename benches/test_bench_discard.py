"""Discard analysis and discard tables (issue 10): speed, with in-run baselines.

Targets: ``analyze_discard`` six-card, uniform opponent, <= 3 ms per hand on one core (ratio to a
naive Python enumeration, and to the PyPI ``cribbage`` package's enumerating discard when it is
installed: ``pip install cribbage``); ``analyze_discard_batch`` >= 1,000 hands/s on 2 cores;
``discard_tables("six-card")`` <= 60 s, ``"five-card"`` <= 20 s (issue 21: the conditioned model, the
default). Numbers print with ``-s``.

Run on a quiet machine: ``pytest benches/test_bench_discard.py --benchmark-only -s``.
"""

from __future__ import annotations

import itertools
import random
import time

import numpy as np
import pytest

from cribpiquet import _discard, cribbage


def random_hands(n: int, size: int = 6, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


def naive_analysis(hand: list[int]) -> list[tuple[tuple[int, int], float]]:
    """Every discard's expected hand + crib by plain loops over starters and opponent pairs."""
    unseen = [c for c in range(52) if c not in hand]
    out = []
    for thrown in itertools.combinations(sorted(hand), 2):
        kept = [c for c in hand if c not in thrown]
        h = sum(cribbage.score_hand(kept, s) for s in unseen) / len(unseen)
        total = count = 0
        for a, b in itertools.combinations(unseen, 2):
            crib = [*thrown, a, b]
            for s in unseen:
                if s != a and s != b:
                    total += cribbage.score_hand(crib, s, crib=True)
                    count += 1
        out.append((thrown, h + total / count))
    return out


def test_analyze_discard_per_hand(benchmark):
    hands = [h.tolist() for h in random_hands(200)]
    state = {"i": 0}

    def one():
        state["i"] = (state["i"] + 1) % len(hands)
        return cribbage.analyze_discard(hands[state["i"]], dealer=True)

    benchmark.pedantic(one, rounds=400, iterations=1, warmup_rounds=20)
    per_hand = benchmark.stats.stats.mean
    print(f"\nanalyze_discard six-card: {per_hand * 1e3:.3f} ms per hand (target <= 3 ms)")
    assert per_hand < 3e-3


def test_ratio_to_naive_python(benchmark):
    hand = random_hands(1, seed=3)[0].tolist()
    t0 = time.perf_counter()
    naive = naive_analysis(hand)
    naive_s = time.perf_counter() - t0
    a = benchmark.pedantic(cribbage.analyze_discard, args=(hand,), kwargs={"dealer": True}, rounds=50, iterations=1)
    ours = {tuple(int(c) for c in r.thrown): r.hand + r.crib for r in a.rows}
    for thrown, value in naive:
        assert ours[thrown] == pytest.approx(value, abs=1e-9)
    print(f"\nnaive Python enumeration {naive_s:.2f} s per hand; analyze_discard {benchmark.stats.stats.mean * 1e3:.3f} ms: "
          f"{naive_s / benchmark.stats.stats.mean:,.0f}x")


def test_ratio_to_pypi_cribbage(benchmark):
    players = pytest.importorskip("cribbage.players", reason="the PyPI cribbage package is not installed")
    card = pytest.importorskip("cribbage.card")
    hand = random_hands(1, seed=4)[0].tolist()
    p = players.EnumerativeAIPlayer()
    p.hand = [card.Card(i) for i in hand]
    t0 = time.perf_counter()
    p.ask_for_discards(my_crib=True)  # the crib term only, over 15 x C(46, 3) deals
    theirs = time.perf_counter() - t0
    benchmark.pedantic(cribbage.analyze_discard, args=(hand,), kwargs={"dealer": True}, rounds=50, iterations=1)
    print(f"\nPyPI cribbage EnumerativeAIPlayer.ask_for_discards {theirs:.1f} s; analyze_discard "
          f"{benchmark.stats.stats.mean * 1e3:.3f} ms: {theirs / benchmark.stats.stats.mean:,.0f}x")


def test_batch_hands_per_second(benchmark):
    hands = random_hands(20_000)
    dealer = np.arange(20_000) % 2 == 0
    benchmark.pedantic(cribbage.analyze_discard_batch, args=(hands, dealer), rounds=3, iterations=1)
    rate = 20_000 / benchmark.stats.stats.mean
    print(f"\nanalyze_discard_batch: {rate:,.0f} hands/s (target >= 1,000 on 2 cores)")
    assert rate >= 1_000


@pytest.mark.parametrize("variant,limit", [("five-card", 20.0), ("six-card", 60.0)])
def test_discard_tables_time(benchmark, variant, limit):
    def run():
        _discard._TABLES.clear()  # no per-process cache between rounds
        return cribbage.discard_tables(variant, progress=False)

    t = benchmark.pedantic(run, rounds=1, iterations=1)
    seconds = benchmark.stats.stats.mean
    print(f"\ndiscard_tables({variant!r}): {seconds:.1f} s, {t.iterations} iterations, last change {t.changes[-1]:.1e} "
          f"(target <= {limit:.0f} s)")
    assert seconds <= limit


def test_tables_opponent_analysis_per_hand(benchmark):
    t = cribbage.discard_tables("six-card", progress=False)
    hands = [h.tolist() for h in random_hands(100, seed=9)]
    r = random.Random(0)
    benchmark.pedantic(lambda: cribbage.analyze_discard(r.choice(hands), dealer=False, opponent=t), rounds=200, iterations=1)
    print(f"\nanalyze_discard with table opponents: {benchmark.stats.stats.mean * 1e3:.3f} ms per hand")
