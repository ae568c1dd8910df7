"""PIMC's first cribbage decision in a fresh process (issue 30, item 7). The inference's discard
tables (thrown-only model) are made once per process: computed when no cached file of this build
is there (``cold``: ``CRIBPIQUET_CACHE_DIR=off``), read back from the cache directory otherwise
(``warm``: a temporary cache directory, filled by one process first); ``cold, no inference``
(``PIMC(inference=False)``, no cache) is what a first decision costs without them: the win
table's self-play, cached the same way. Each run is a new
Python process: import, a play state, then ``PIMC(seed=1).step(state)`` timed (wall and CPU
time: the CPU time, over every thread, varies far less with the load of a shared machine), then
a second step. Prints the medians.

    python benches/pimc_first_decision.py [RUNS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import sys, time
from cribpiquet import bots, cribbage
s = cribbage.Game(sys.argv[1]).new_initial_state()
k = 0
while s.phase != "play" or s.is_chance_node():
    legal = s.legal_actions()
    s.apply_action(legal[k % len(legal)])
    k += 7
b = bots.PIMC(seed=1, inference=sys.argv[2] == '1')
t, c = time.perf_counter(), time.process_time(); b.step(s)
first, cpu = time.perf_counter() - t, time.process_time() - c
t = time.perf_counter(); b.step(s); second = time.perf_counter() - t
print(first, second, cpu)
"""


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as cache:
        for variant in ("five-card", "six-card"):
            # the warm runs' cache, filled once
            run = [sys.executable, "-c", CHILD, variant]
            subprocess.run([*run, "1"], env=dict(os.environ, CRIBPIQUET_CACHE_DIR=cache), check=True,
                           capture_output=True)  # fmt: skip
            for mode, inference, where in [("cold", "1", "off"), ("warm", "1", cache), ("cold, no inference", "0", "off")]:
                env = dict(os.environ, CRIBPIQUET_CACHE_DIR=where)
                firsts, seconds, cpus = [], [], []
                for _ in range(runs):
                    out = subprocess.run([*run, inference], env=env, capture_output=True, text=True, check=True)
                    first, second, cpu = map(float, out.stdout.split())
                    firsts.append(first)
                    seconds.append(second)
                    cpus.append(cpu)
                print(f"{variant} {mode}: first decision median {statistics.median(firsts) * 1000:.0f} ms "
                      f"(min {min(firsts) * 1000:.0f}, max {max(firsts) * 1000:.0f}; CPU time, all threads, "
                      f"median {statistics.median(cpus) * 1000:.0f} ms), second {statistics.median(seconds) * 1000:.1f} ms, "
                      f"over {runs} fresh processes")  # fmt: skip
    print(f"load average after: {os.getloadavg()}")

if __name__ == "__main__":
    main()
