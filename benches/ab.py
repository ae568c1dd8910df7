"""Wall-clock A/B of two builds of benches/count.rs, alternating them so that drift hits both.

    python benches/ab.py BEFORE_BINARY AFTER_BINARY [ROUNDS]

For each workload, each round runs the two binaries one after the other (the order swapped every
round) with 1 and with 1 + PASSES passes over the same fixed input; the time of the extra passes
divided by PASSES x N is the time per item, without setup and process start. Prints the median
over the rounds (and the range) for both builds, and their ratio. On a shared machine the
medians still move: the instruction counts of benches/count.sh are the stable measure.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

WORKLOADS = [
    ("show", 1_000_000, 20),
    ("batch-u8", 1_000_000, 20),
    ("batch-i64", 1_000_000, 20),
    ("piquet-u8", 200_000, 10),
    ("piquet-i64", 200_000, 10),
    ("simulate-six", 2_000, 5),
    ("simulate-piquet", 10_000, 5),
]


def seconds(binary: str, workload: str, n: int, passes: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([binary, workload, str(n), str(passes)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def per_item(binary: str, workload: str, n: int, passes: int) -> float:
    """Nanoseconds per item of one pass."""
    extra = seconds(binary, workload, n, 1 + passes) - seconds(binary, workload, n, 1)
    return 1e9 * extra / (passes * n)


def main() -> None:
    before, after = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    print(f"{'workload':<16} {'before ns/item':>22} {'after ns/item':>22} {'after/before':>13}")
    for workload, n, passes in WORKLOADS:
        times: dict[str, list[float]] = {before: [], after: []}
        for r in range(rounds):
            for b in ((before, after) if r % 2 == 0 else (after, before)):
                times[b].append(per_item(b, workload, n, passes))
        mb, ma = statistics.median(times[before]), statistics.median(times[after])
        rb = f"{mb:.2f} ({min(times[before]):.2f}-{max(times[before]):.2f})"
        ra = f"{ma:.2f} ({min(times[after]):.2f}-{max(times[after]):.2f})"
        print(f"{workload:<16} {rb:>22} {ra:>22} {ma / mb:>13.2f}", flush=True)


if __name__ == "__main__":
    main()
