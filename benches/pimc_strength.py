"""PIMC against Greedy in six-card and five-card cribbage, with the arena (seats rotated, 95 %
Wilson intervals), in chunks so that a long run can be stopped at any time and still report.

    python benches/pimc_strength.py six-card --games 4000 --out /tmp/pimc-six.jsonl
    python benches/pimc_strength.py five-card --games 4000 --inference off
    python benches/pimc_strength.py six-card --start 100000 --out /tmp/pimc-six-2.jsonl  # a disjoint range
    python benches/pimc_strength.py --report /tmp/pimc-six.jsonl /tmp/pimc-six-2.jsonl  # combined

Each chunk of ``--chunk`` games (``first_game`` ranges, so the chunks are disjoint games of one
seed) appends one JSON line of raw arena counts to ``--out``; ``--report`` combines them
(``ArenaResult.combine``) and prints the table. PIMC runs with ``threads=1``; the arena spreads
games over ``--threads`` cores. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

from cribpiquet import ArenaResult, arena, bots, cribbage
from strength import load  # benches/strength.py, beside this script


def report(*paths: str) -> ArenaResult:
    """The chunks of these files combined (the ladder's reader, ``strength.load``, per file)."""
    parts = [r for r in map(load, paths) if r is not None]
    return ArenaResult.combine(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="six-card")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--chunk", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--inference", choices=["on", "off"], default="on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="the first game (runs of disjoint ranges combine)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--report", default=None, nargs="+", help="combine and print these chunk files")
    args = parser.parse_args(argv)
    if args.report:
        print(report(*args.report))
        return 0
    out = args.out or f"/tmp/pimc-{args.variant}-{args.inference}.jsonl"
    game = cribbage.Game(args.variant)
    pimc = bots.PIMC(worlds=args.worlds, threads=1, inference=args.inference == "on")
    start = time.perf_counter()
    for first in range(args.start, args.start + args.games, args.chunk):
        n = min(args.chunk, args.start + args.games - first)
        r = arena(game, [pimc, "greedy"], n, seed=args.seed, threads=args.threads, first_game=first, progress=False)
        with open(out, "a") as f:
            f.write(json.dumps(dataclasses.asdict(r)) + "\n")
        total = report(out)
        lo, hi = total.ci95[0]
        print(
            f"{total.games} games, {time.perf_counter() - start:.0f} s: pimc {total.win_rate[0]:.3f} ({lo:.3f}-{hi:.3f})",
            flush=True,
        )
    print(report(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
