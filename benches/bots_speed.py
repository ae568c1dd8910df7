"""IS-MCTS and Greedy decision speed from Python (issue 9): iterations/s at the first pegging
decision of eight six-card deals (1 and 2 threads), a 1,000-iteration decision, the Greedy
six-card discard. Run on a quiet machine with a release build: ``python benches/bots_speed.py``.
"""
import time, statistics
from cribpiquet import bots, cribbage, piquet

def first_peg_state(seed):
    import random
    r = random.Random(seed)
    s = cribbage.Game("six-card").new_initial_state()
    while s.phase != "play" or s.is_chance_node():
        if s.is_chance_node():
            s.apply_action(r.choice(s.legal_actions()))
        else:
            s.apply_action(s.legal_actions()[0])
    return s

states = [first_peg_state(k) for k in range(8)]
def rate(iters, threads):
    best = []
    for rep in range(3):
        t = time.perf_counter()
        for i, s in enumerate(states):
            bots.ISMCTS(iterations=iters, threads=threads, seed=i).step(s)
        best.append((time.perf_counter() - t) / len(states))
    return min(best), statistics.median(best)
for threads in (1, 2):
    b, m = rate(20000, threads)
    print(f"ISMCTS 20000 iterations, threads={threads}: {20000/b:,.0f} it/s best, {20000/m:,.0f} median")
b, m = rate(1000, 1)
print(f"ISMCTS 1000-iteration decision: {b*1e3:.2f} ms best, {m*1e3:.2f} ms median")

# Greedy discard decision (six-card, all 15 exact)
import random
r = random.Random(5); ds = []
for k in range(50):
    s = cribbage.Game("six-card").new_initial_state()
    while s.is_chance_node():
        s.apply_action(r.choice(s.legal_actions()))
    ds.append(s)
g = bots.Greedy()
ts = []
for rep in range(5):
    t = time.perf_counter()
    for s in ds: g.step(s)
    ts.append((time.perf_counter() - t) / len(ds))
print(f"Greedy six-card discard: {min(ts)*1e6:.1f} us best, {statistics.median(ts)*1e6:.1f} us median")
