"""Python-side cribbage throughput, with a pure-Python scorer as the in-run baseline.

Targets (issue 2): ``score_hand_batch`` >= 100 M hands/s on 10 M hands with both cores, validation
included; ``score_hand`` < 1 µs per call with int ids, < 3 µs with strings;
``hand_distribution("hand")`` < 0.2 s. Ratios are printed with ``-s``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from cribpiquet import cribbage
from cribpiquet.bench import naive_score

from conftest import random_shows

# The baseline is the naive scorer `cribpiquet bench` ships (tests/test_bench_cli.py checks it).
python_score = naive_score


def _rate(n: int, seconds: float) -> str:
    return f"{n / seconds / 1e6:,.1f} M/s"


def test_score_hand_batch_10m(benchmark, ten_million_shows):
    hands, starters = ten_million_shows
    result = benchmark.pedantic(cribbage.score_hand_batch, args=(hands, starters), rounds=5, iterations=1)
    assert result.shape == (10_000_000,)
    per_sec = 10_000_000 / benchmark.stats.stats.min
    # Baseline in the same run: the pure-Python scorer on a slice.
    h, s = hands[:3000].tolist(), starters[:3000].tolist()
    t0 = time.perf_counter()
    expected = [python_score(a, b) for a, b in zip(h, s)]
    py_rate = 3000 / (time.perf_counter() - t0)
    assert expected == result[:3000].tolist()
    benchmark.extra_info.update(hands_per_s=per_sec, python_hands_per_s=py_rate, ratio=per_sec / py_rate)
    print(f"\nscore_hand_batch: {per_sec / 1e6:,.1f} M hands/s; pure Python {py_rate:,.0f} hands/s; ratio {per_sec / py_rate:,.0f}x")


def test_score_hand_int_ids(benchmark):
    benchmark(cribbage.score_hand, [4, 17, 30, 10], 43)


def test_score_hand_strings(benchmark):
    benchmark(cribbage.score_hand, "5C 5D 5H JC", "5S")


def test_score_hand_card_list(benchmark):
    hand = [cribbage.Card(x) for x in ("5C", "5D", "5H", "JC")]
    starter = cribbage.Card("5S")
    benchmark(cribbage.score_hand, hand, starter)


def test_python_scorer_baseline(benchmark):
    benchmark(python_score, [4, 17, 30, 10], 43)


def test_hand_distribution(benchmark):
    counts = benchmark.pedantic(cribbage.hand_distribution, args=("hand",), rounds=5, iterations=1)
    assert int(counts.sum()) == 12_994_800


def test_peg_points_batch_1m(benchmark):
    rng = np.random.default_rng(1)
    hands, _ = random_shows(1_000_000, hand_size=4, seed=2)
    pips = np.minimum(hands % 13 + 1, 10).cumsum(axis=1)
    seqs = np.where(pips <= 31, hands, -1)
    del rng
    benchmark.pedantic(cribbage.peg_points_batch, args=(seqs,), rounds=5, iterations=1)
