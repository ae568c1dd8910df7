"""Issue 30, item 7: PIMC's first cribbage decision computes the inference's discard tables (once
per process, when they are not cached: tests/test_tables_cache.py); Ctrl-C stops it there like
anywhere else, nothing half-made is kept, and the next decision computes them again and decides
exactly as an uninterrupted process does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from cribpiquet import bots, cribbage

# Ctrl-C must stop a call within 0.5 s; the bound leaves room for a loaded two-core machine
# (as in test_harden_bots.py).
LATENCY = 1.5

PLAY_STATE = """
def play_state(variant):
    s = cribbage.Game(variant).new_initial_state()
    k = 0
    while s.phase != "play" or s.is_chance_node():
        legal = s.legal_actions()
        s.apply_action(legal[k % len(legal)])
        k += 7
    return s
"""
exec(PLAY_STATE)

# A fresh process: the first decision is interrupted after `delay` seconds, inside the tables;
# then a new bot decides the same state.
CHILD = PLAY_STATE + r"""
import _thread, threading, time
fired = []
def fire():
    fired.append(time.monotonic())
    _thread.interrupt_main()
s = play_state(sys.argv[1])
timer = threading.Timer(float(sys.argv[2]), fire)
timer.start()
out = {}
try:
    bots.PIMC(seed=1).step(s)
    out["latency"] = None
except KeyboardInterrupt:
    out["latency"] = time.monotonic() - fired[0]
values = bots.PIMC(seed=1).action_values(s)
out["values"] = {str(a): v.hex() for a, v in values.items()}
print(json.dumps(out))
"""


def test_ctrl_c_stops_the_first_decision_inside_the_tables_and_the_next_one_decides_as_usual():
    code = "import json, sys\nfrom cribpiquet import bots, cribbage\n" + CHILD
    # no cache (tests/test_tables_cache.py tests it): the process computes the tables
    env = dict(os.environ, CRIBPIQUET_CACHE_DIR="off")
    r = subprocess.run([sys.executable, "-c", code, "six-card", "0.2"], capture_output=True, text=True, env=env,
                       timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["latency"] is not None, "the first decision ended before the interrupt"
    assert out["latency"] < LATENCY
    # the same values to the bit as a process whose tables were never interrupted (this one)
    s = play_state("six-card")
    want = {str(a): v.hex() for a, v in bots.PIMC(seed=1).action_values(s).items()}
    assert out["values"] == want
