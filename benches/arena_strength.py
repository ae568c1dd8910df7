"""The strength lines of issue 9, measured with the arena (seats rotated, 95 % Wilson intervals).

    python benches/arena_strength.py                 # every line, the issue's game counts
    python benches/arena_strength.py --games 400     # quicker, wider intervals
    python benches/arena_strength.py --only piquet   # lines whose label contains "piquet"

Each line prints the arena's table and whether its target is met: ``greedy`` beats ``random`` in
at least 95 % of cribbage games (90 % of piquet partiyas); ``ismcts:2000`` beats ``greedy`` with
the interval's lower end above 50 %. Long: ISMCTS(2000) games take about a second each per core,
so run it on a quiet machine (it uses every core). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import sys
import time

from cribpiquet import arena, cribbage, piquet

# (label, game, players, games, target): target ("rate", x) = player 0's win rate >= x;
# ("lower", x) = the lower end of player 0's 95 % interval > x.
LINES = [
    ("cribbage six-card: greedy vs random", lambda: cribbage.Game("six-card"), ["greedy", "random"], 4000, ("rate", 0.95)),
    ("cribbage six-card: ismcts:2000 vs greedy", lambda: cribbage.Game("six-card"), ["ismcts:2000", "greedy"], 4000, ("lower", 0.5)),
    ("cribbage five-card: greedy vs random", lambda: cribbage.Game("five-card"), ["greedy", "random"], 4000, ("rate", 0.95)),
    ("cribbage five-card: ismcts:2000 vs greedy", lambda: cribbage.Game("five-card"), ["ismcts:2000", "greedy"], 4000, ("lower", 0.5)),
    ("piquet russian partiya: greedy vs random", lambda: piquet.Game("russian", scope="partiya"), ["greedy", "random"], 1000, ("rate", 0.90)),
    ("piquet russian partiya: ismcts:2000 vs greedy", lambda: piquet.Game("russian", scope="partiya"), ["ismcts:2000", "greedy"], 1000, ("lower", 0.5)),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per line (default: the issue's)")
    parser.add_argument("--only", default="", help="run the lines whose label contains this text")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    failed = 0
    for label, game, players, games, (kind, x) in LINES:
        if args.only not in label:
            continue
        n = args.games or games
        start = time.perf_counter()
        r = arena(game(), players, n, seed=args.seed, threads=args.threads)
        p, (lo, _) = r.win_rate[0], r.ci95[0]
        ok = p >= x if kind == "rate" else lo > x
        failed += not ok
        what = f"win rate {p:.3f} >= {x}" if kind == "rate" else f"interval lower end {lo:.3f} > {x}"
        print(f"== {label}  ({time.perf_counter() - start:.0f} s)\n{r}\n-> {'MET' if ok else 'NOT MET'}: {what}\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
