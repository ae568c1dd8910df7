"""Throughput of every batch kernel path this CPU has, side by side in one run (issue 33).

    RAYON_NUM_THREADS=1 python benches/kernel_rates.py [ROUNDS] [ROWS]

For each case (uint8 and int64 hands, cribs, piquet declarations) every kernel is timed in turn,
the order rotated every round, so that drift on a shared machine hits all paths alike. Prints the
best and the median rate over the rounds and each path's ratio to the scalar path of the same run
(from the best times). RAYON_NUM_THREADS (set before the run) chooses the cores.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

import cribpiquet
from cribpiquet import cribbage, piquet
from cribpiquet.bench import random_deals, random_shows

VAR = "CRIBPIQUET_KERNEL"


def cases(rows: int):
    hands, starters = random_shows(rows, seed=1)
    wide_h, wide_s = hands.astype(np.int64), starters.astype(np.int64)
    d_rows = max(rows // 5, 1)
    elder, dealer = random_deals(d_rows, seed=2)
    return [
        ("score_hand_batch uint8", "shows", rows, lambda: cribbage.score_hand_batch(hands, starters)),
        ("score_hand_batch int64", "shows", rows, lambda: cribbage.score_hand_batch(wide_h, wide_s)),
        ("score_hand_batch uint8 crib", "shows", rows, lambda: cribbage.score_hand_batch(hands, starters, crib=True)),
        ("score_declarations_batch uint8", "deals", d_rows, lambda: piquet.score_declarations_batch(elder, dealer)),
    ]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
    kernels = cribpiquet.available_kernels()
    threads = os.environ.get("RAYON_NUM_THREADS", "all")
    print(f"threads: {threads}, rows: {rows:,}, rounds: {rounds}, kernels: {', '.join(kernels)}")
    for name, unit, n, run in cases(rows):
        times: dict[str, list[float]] = {k: [] for k in kernels}
        for r in range(rounds):
            order = kernels[r % len(kernels):] + kernels[:r % len(kernels)]
            for k in order:
                os.environ[VAR] = k
                run()  # warm: pages touched, pool started
                t0 = time.perf_counter()
                run()
                times[k].append(time.perf_counter() - t0)
        os.environ.pop(VAR, None)
        base = min(times["scalar"])
        cells = []
        for k in kernels:
            best, med = min(times[k]), statistics.median(times[k])
            cells.append(f"{k}: {n / best / 1e6:7.1f} M {unit}/s best, {n / med / 1e6:7.1f} median"
                         f" ({base / best:.2f}x)")
        print(f"{name:<32} " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
