"""``cribpiquet.distributed.simulate`` on local Dask clusters, against the in-process ``simulate``.

Targets (issue 12): 2 M random six-card games on a 2-worker ``LocalCluster`` (processes, one
thread each) at least 1.6x faster than on a 1-worker cluster; and the 2-worker cluster at most
15 % slower than the in-process ``cribbage.simulate(..., threads=2)`` (equal cores). The cluster
times include cutting the run, scheduling, the workers' results coming back over TCP and their
copy into the result; not the cluster's start (made once per module) nor the first task's
import of cribpiquet on each worker (a warm-up round).

Run on a quiet machine: ``pip install '.[bench,dask]' && pytest benches/test_bench_distributed.py
--benchmark-only -s`` (the ratios are printed at the end). ``CRIBPIQUET_BENCH_GAMES`` sets the
number of games (default 2,000,000) for a quick sanity run.
"""

from __future__ import annotations

import logging
import os

import numpy as np
import pytest

from cribpiquet import cribbage

dd = pytest.importorskip("distributed")
from cribpiquet import distributed  # noqa: E402 - after the skip

N_GAMES = int(os.environ.get("CRIBPIQUET_BENCH_GAMES", "2000000"))
SIX = cribbage.Game("six-card")
SEED = 12
ROUNDS = 3

#: Median seconds of each configuration in this run.
RESULTS: dict[str, float] = {}


def _cluster(n_workers: int):
    return dd.LocalCluster(
        n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    )


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    if not RESULTS:
        return
    print(f"\n== distributed simulate, {N_GAMES:,} six-card games (median of {ROUNDS} rounds)")
    for name, t in RESULTS.items():
        print(f"  {name:<32} {t:8.3f} s  {N_GAMES / t / 1e3:8.1f} k games/s")
    if {"cluster, 1 worker", "cluster, 2 workers"} <= RESULTS.keys():
        print(f"  2 workers vs 1: {RESULTS['cluster, 1 worker'] / RESULTS['cluster, 2 workers']:.2f}x (target >= 1.6x)")
    if {"in process, 2 threads", "cluster, 2 workers"} <= RESULTS.keys():
        over = RESULTS["cluster, 2 workers"] / RESULTS["in process, 2 threads"] - 1
        print(f"  2 workers vs in-process 2 threads: {over:+.1%} (target <= +15 %)")
    if {"in process, 1 thread", "cluster, 1 worker"} <= RESULTS.keys():
        over = RESULTS["cluster, 1 worker"] / RESULTS["in process, 1 thread"] - 1
        print(f"  1 worker vs in-process 1 thread: {over:+.1%}")


def _measure(benchmark, name: str, run):
    result = benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    RESULTS[name] = benchmark.stats.stats.median
    return result


@pytest.mark.parametrize("threads", [1, 2])
def test_in_process(benchmark, threads):
    r = _measure(
        benchmark, f"in process, {threads} thread{'s' * (threads > 1)}", lambda: cribbage.simulate(SIX, N_GAMES, seed=SEED, threads=threads)
    )
    assert r["scores"].shape == (N_GAMES, 2)


@pytest.mark.parametrize("n_workers", [1, 2])
def test_cluster(benchmark, n_workers):
    with _cluster(n_workers) as cluster, dd.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(n_workers)
        r = _measure(
            benchmark,
            f"cluster, {n_workers} worker{'s' * (n_workers > 1)}",
            lambda: distributed.simulate(SIX, N_GAMES, seed=SEED, client=client),
        )
    head = cribbage.simulate(SIX, 1000, seed=SEED)
    tail = cribbage.simulate(SIX, 1000, seed=SEED, first_game=N_GAMES - 1000)
    np.testing.assert_array_equal(r["scores"][:1000], head["scores"])
    np.testing.assert_array_equal(r["returns"][-1000:], tail["returns"])
