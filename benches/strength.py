"""The strength ladder (issue 20): every pair of ``random``, ``greedy``, ``ismcts:2000`` and
``pimc`` in five-card and six-card cribbage and in piquet (russian; one deal and the partiya),
played with the arena (seats rotated, 95 % Wilson intervals), with an Elo table per setting.

    python benches/strength.py --games 200                        # the whole ladder, 200 games a line
    python benches/strength.py --setting piquet-deal --pair pimc greedy --games 1000
    python benches/strength.py --report                           # print the tables of what was played
    python benches/strength.py --report --write-readme            # and put them in benches/README.md

Each line is played in chunks of ``--chunk`` games (disjoint ``first_game`` ranges of one seed),
appended as JSON lines of raw arena counts to ``DIR/SETTING--A--B.jsonl`` (``--dir``, default
``benches/strength``), so a long run can be stopped at any time, resumed (the next chunk starts
after the games already in the file) and reported. Every line is also one ``cribpiquet arena``
command, printed with its table (``--games`` and ``--seed`` as given; the CLI plays the whole
range at once). PIMC runs with ``threads=1``; the arena spreads games over ``--threads`` cores.

Elo: per setting, the Bradley–Terry ratings that best explain every line played (maximum
likelihood, draws count half), ``greedy`` fixed at 0; a pair's own Elo difference is
``400·log10(p / (1 − p))`` of its win rate. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import json
import math
import os
import re
import sys
import time
from typing import Any, Callable

from cribpiquet import ArenaResult, arena, cribbage, piquet

BOTS = ["random", "greedy", "ismcts:2000", "pimc"]

# name -> (the game, the CLI's arguments for it, its unit for the interval)
SETTINGS: dict[str, tuple[Callable[[], Any], str]] = {
    "five-card": (lambda: cribbage.Game("five-card"), "cribbage --variant five-card"),
    "six-card": (lambda: cribbage.Game("six-card"), "cribbage --variant six-card"),
    "piquet-deal": (lambda: piquet.Game("russian", scope="deal"), "piquet --rules russian --scope deal"),
    "piquet-partiya": (lambda: piquet.Game("russian", scope="partiya"), "piquet --rules russian --scope partiya"),
}

# The targets: (setting, a, b) -> (a's win rate at least, the interval's lower end above).
TARGETS: dict[tuple[str, str, str], tuple[float, float]] = {
    ("six-card", "pimc", "greedy"): (0.56, 0.54),
    ("five-card", "pimc", "greedy"): (0.56, 0.54),
    ("piquet-deal", "pimc", "ismcts:2000"): (0.60, 0.0),
    ("piquet-deal", "pimc", "greedy"): (0.65, 0.0),
    ("piquet-partiya", "pimc", "greedy"): (0.65, 0.0),
}

README_BEGIN = "<!-- strength ladder: begin (benches/strength.py --report --write-readme) -->"
README_END = "<!-- strength ladder: end -->"


def path_of(directory: str, setting: str, a: str, b: str) -> str:
    return os.path.join(directory, f"{setting}--{a.replace(':', '_')}--{b.replace(':', '_')}.jsonl")


def load(path: str) -> ArenaResult | None:
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if not rows:
        return None
    parts = [
        ArenaResult(
            game=r["game"],
            players=tuple(r["players"]),
            games=r["games"],
            wins=tuple(r["wins"]),
            draws=r["draws"],
            deals=r["deals"],
            points=tuple((k, tuple(v)) for k, v in r["points"]),
            seconds=r["seconds"],
            setup=r.get("setup", ""),
        )
        for r in rows
    ]
    return ArenaResult.combine(parts)


def command(setting: str, a: str, b: str, games: int, seed: int) -> str:
    return f"cribpiquet arena {SETTINGS[setting][1]} --players {a} {b} --games {games} --seed {seed}"


def play(setting: str, a: str, b: str, games: int, chunk: int, seed: int, threads: int | None, directory: str) -> None:
    """Play line (setting, a, b) up to ``games`` games, resuming after what the file holds."""
    path = path_of(directory, setting, a, b)
    done = load(path)
    start = done.games if done else 0
    game = SETTINGS[setting][0]()
    t0 = time.perf_counter()
    for first in range(start, games, chunk):
        n = min(chunk, games - first)
        r = arena(game, [a, b], n, seed=seed, threads=threads, first_game=first, progress=False)
        with open(path, "a") as f:
            f.write(json.dumps(dataclasses.asdict(r)) + "\n")
        total = load(path)
        assert total is not None
        lo, hi = total.ci95[0]
        print(
            f"{setting} {a} vs {b}: {total.games} games ({total.deals} deals), "
            f"{time.perf_counter() - t0:.0f} s: {a} {total.win_rate[0]:.3f} ({lo:.3f}-{hi:.3f})",
            flush=True,
        )


def score_of(r: ArenaResult) -> float:
    """Player 0's share: wins plus half the draws."""
    return (r.wins[0] + 0.5 * r.draws) / r.games


def pair_elo(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 400 * math.log10(p / (1 - p))


def ratings(lines: list[tuple[str, str, ArenaResult]]) -> dict[str, float]:
    """Bradley–Terry maximum likelihood (minorisation–maximisation), greedy at 0 Elo. A bot that
    won or lost everything is held within ±2,000 of the rest by a tiny prior (one draw with a
    virtual 0-Elo player)."""
    names = sorted({x for a, b, _ in lines for x in (a, b)}, key=BOTS.index)
    strength = {n: 1.0 for n in names}
    wins = {n: 0.01 for n in names}  # the prior's half point
    games: dict[tuple[str, str], int] = {}
    for a, b, r in lines:
        s = score_of(r) * r.games
        wins[a] += s
        wins[b] += r.games - s
        games[(a, b)] = games.get((a, b), 0) + r.games
    for _ in range(5000):
        new = {}
        for n in names:
            denom = 0.02 / (strength[n] + 1.0)
            for (a, b), g in games.items():
                if n in (a, b):
                    o = b if n == a else a
                    denom += g / (strength[n] + strength[o])
            new[n] = wins[n] / denom
        strength = new
    anchor = strength.get("greedy", 1.0)
    return {n: 400 * math.log10(strength[n] / anchor) for n in names}


def report(directory: str) -> str:
    """The Markdown tables of every line in ``directory``."""
    out = []
    for setting in SETTINGS:
        lines = []
        for i, a in enumerate(BOTS):
            for b in BOTS[i + 1 :]:
                for x, y in ((b, a), (a, b)):  # the stronger-looking bot first when both exist
                    r = load(path_of(directory, setting, x, y))
                    if r is not None:
                        lines.append((x, y, r))
        if not lines:
            continue
        unit = "partiyas" if setting == "piquet-partiya" else ("deals" if setting == "piquet-deal" else "games")
        out.append(f"**{setting}**\n")
        out.append(f"| line | {unit} | win rate of the first | 95 % interval | Elo difference | target |")
        out.append("|---|---|---|---|---|---|")
        for a, b, r in lines:
            lo, hi = r.ci95[0]
            extra = f" ({r.deals:,} deals)" if setting == "piquet-partiya" else ""
            target = TARGETS.get((setting, a, b))
            if target is None:
                verdict = ""
            else:
                met = r.win_rate[0] >= target[0] and lo > target[1]
                lower = f", lower end > {target[1]:.2f}" if target[1] else ""
                verdict = f"≥ {target[0]:.2f}{lower}: {'met' if met else '**not met**'}"
            out.append(
                f"| {a} vs {b} | {r.games:,}{extra} | **{r.win_rate[0]:.3f}** | {lo:.3f} – {hi:.3f} | "
                f"{pair_elo(score_of(r)):+.0f} | {verdict} |"
            )
        elo = ratings(lines)
        out.append("")
        out.append("| bot | " + " | ".join(elo) + " |")
        out.append("|---|" + "---|" * len(elo))
        out.append("| Elo (greedy = 0) | " + " | ".join(f"{v:+.0f}" for v in elo.values()) + " |")
        out.append("")
    return "\n".join(out)


def write_readme(text: str, readme: str) -> None:
    with open(readme) as f:
        doc = f.read()
    block = f"{README_BEGIN}\n{text}\n{README_END}"
    if README_BEGIN in doc:
        doc = re.sub(re.escape(README_BEGIN) + ".*?" + re.escape(README_END), lambda _: block, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n## Strength ladder (issue 20)\n\n" + block + "\n"
    with open(readme, "w") as f:
        f.write(doc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setting", choices=list(SETTINGS), action="append", help="default: every setting")
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"), help="one line (default: every pair)")
    parser.add_argument("--games", type=int, default=200, help="games (piquet-deal: deals) a line")
    parser.add_argument("--chunk", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--dir", default=os.path.join(os.path.dirname(__file__), "strength"))
    parser.add_argument("--report", action="store_true", help="print the tables of the lines played")
    parser.add_argument("--write-readme", action="store_true", help="with --report: into benches/README.md")
    args = parser.parse_args(argv)
    if args.report:
        text = report(args.dir)
        print(text)
        if args.write_readme:
            write_readme(text, os.path.join(os.path.dirname(__file__), "README.md"))
        return 0
    os.makedirs(args.dir, exist_ok=True)
    settings = args.setting or list(SETTINGS)
    pairs = [tuple(args.pair)] if args.pair else [(b, a) for i, a in enumerate(BOTS) for b in BOTS[i + 1 :]]
    for setting in settings:
        for a, b in pairs:
            print("#", command(setting, a, b, args.games, args.seed), flush=True)
            play(setting, a, b, args.games, args.chunk, args.seed, args.threads, args.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
