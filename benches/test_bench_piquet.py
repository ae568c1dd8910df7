"""Python-side piquet throughput.

Targets (issue 3): ``declarations_batch`` on 10 M random hands >= 50 M hands/s and
``score_declarations_batch`` on 10 M random deals >= 30 M deals/s with both cores;
``score_game`` for a full 12-trick record < 20 µs per call.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from cribpiquet import piquet

N = 10_000_000


@pytest.fixture(scope="module")
def deals() -> tuple[np.ndarray, np.ndarray]:
    """N random deals as uint8 ids: elder's and the dealer's 12 cards."""
    rng = np.random.default_rng(0)
    elder = np.empty((N, 12), np.uint8)
    dealer = np.empty((N, 12), np.uint8)
    step = 1_000_000
    for start in range(0, N, step):
        perm = np.argsort(rng.random((step, 32), dtype=np.float32), axis=1).astype(np.uint8)
        elder[start : start + step] = perm[:, :12]
        dealer[start : start + step] = perm[:, 12:24]
    return elder, dealer


def test_declarations_batch_10m(benchmark, deals):
    elder, _ = deals
    out = benchmark.pedantic(piquet.declarations_batch, args=(elder,), rounds=5, iterations=1)
    assert out["point_length"].shape == (N,)
    rate = N / benchmark.stats.stats.min
    benchmark.extra_info["hands_per_s"] = rate
    print(f"\ndeclarations_batch: {rate / 1e6:,.1f} M hands/s")


def test_score_declarations_batch_10m(benchmark, deals):
    elder, dealer = deals
    out = benchmark.pedantic(piquet.score_declarations_batch, args=(elder, dealer), rounds=5, iterations=1)
    assert out.shape == (N, 2)
    rate = N / benchmark.stats.stats.min
    # Baseline in the same run: the explained single-deal function, one call per deal.
    t0 = time.perf_counter()
    for i in range(2000):
        assert piquet.score_declarations(elder[i].tolist(), dealer[i].tolist()).totals == tuple(out[i])
    single = 2000 / (time.perf_counter() - t0)
    benchmark.extra_info.update(deals_per_s=rate, single_calls_per_s=single)
    print(f"\nscore_declarations_batch: {rate / 1e6:,.1f} M deals/s; one call per deal {single:,.0f}/s; ratio {rate / single:,.0f}x")


ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"
# Elder leads his hearts and aces; every trick follows suit where possible.
TRICKS = [
    ("AH", "8H"), ("KH", "9H"), ("QH", "8S"), ("JH", "9S"), ("TH", "TS"), ("7H", "QD"),
    ("AC", "9C"), ("AD", "KD"), ("AS", "JD"), ("7C", "TC"), ("JC", "8C"), ("QC", "7D"),
]


def test_score_game_full_record(benchmark):
    result = benchmark(piquet.score_game, ELDER, DEALER, TRICKS)
    assert len(result.trick_winners) == 12


def test_score_game_ids(benchmark):
    elder = [int(c) for c in piquet.parse_cards(ELDER)]
    dealer = [int(c) for c in piquet.parse_cards(DEALER)]
    tricks = [(int(piquet.Card(a)), int(piquet.Card(b))) for a, b in TRICKS]
    benchmark(piquet.score_game, elder, dealer, tricks)


def test_partie_tied_deals(benchmark):
    """200,000 tied rubicon deals in one partie (issue 8.9: linear; 64 k deals took 2.2 s when
    it was quadratic). Was a time bound in tests/test_piquet_match.py."""

    def run():
        p = piquet.Partie()
        for _ in range(200_000):
            p.add_deal(7, 7)
        return p

    p = benchmark.pedantic(run, rounds=3, iterations=1)
    assert p.deals_played == 200_000
