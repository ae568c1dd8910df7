"""The ``cribpiquet`` command line tool.

    cribpiquet score 5H 5D 5S JC --starter 5C [--crib]
    cribpiquet stats [--kind hand|crib|five-card-hand]
    cribpiquet piquet declare <12 cards> [--dealt <12 cards>] [--rules russian|rubicon]
    cribpiquet piquet compare --elder <12 cards> --dealer <12 cards> [--rules rubicon]
    cribpiquet piquet exchange <12 cards> --role elder|dealer [--rules rubicon] [--samples N] [--plot out.png]

Bad input prints one line to stderr and exits with status 2. Output that cannot be written (a
full disk) prints one line and exits with status 1; a closed pipe (``cribpiquet stats | head -1``)
ends quietly with status 0; a terminal that cannot show a character (``PYTHONIOENCODING=ascii``)
gets it as an escape (``\u2014``), never an error.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from typing import Sequence

from . import cribbage, piquet

BAR_WIDTH = 40


def _cmd_score(args: argparse.Namespace) -> int:
    breakdown = cribbage.explain_hand(" ".join(args.cards), args.starter, crib=args.crib)
    print(breakdown)
    print(f"total: {breakdown.total}")
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    counts = cribbage.hand_distribution(args.kind)
    elapsed = time.perf_counter() - start
    total = int(counts.sum())
    peak = int(counts.max())
    print(f"{args.kind}: every show, {total:,} in all")
    print(f"{'score':>5}  {'count':>10}  {'percent':>8}")
    for score, count in enumerate(counts):
        count = int(count)
        bar = "#" * round(BAR_WIDTH * count / peak) if count else ""
        print(f"{score:>5}  {count:>10,}  {100 * count / total:>7.3f}%  {bar}")
    mean = sum(score * int(c) for score, c in enumerate(counts)) / total
    print(f"mean: {mean:.7f}")
    print(f"time: {elapsed:.3f} s, {total / elapsed:,.0f} hands/s")
    return 0


def _cmd_piquet_declare(args: argparse.Namespace) -> int:
    dealt = " ".join(args.dealt) if args.dealt else None
    d = piquet.declarations(" ".join(args.cards), dealt=dealt, rules=args.rules)
    print(f"hand: {' '.join(str(c) for c in d.hand)}")
    print(f"{d.point.name}: {d.point.length} cards, value {d.point.value} "
          f"({' '.join(str(c) for c in d.point.cards)})")
    for seq in d.sequences:
        print(f"{seq.name}: {seq.value} ({' '.join(str(c) for c in seq.cards)})")
    for st in d.sets:
        print(f"{st.name}: {st.value} ({' '.join(str(c) for c in st.cards)})")
    if not d.sequences:
        print("no sequence")
    if not d.sets:
        print("no set")
    if d.carte_blanche:
        print("carte blanche: 10")
    return 0


def _cmd_piquet_compare(args: argparse.Namespace) -> int:
    s = piquet.score_declarations(" ".join(args.elder), " ".join(args.dealer), rules=args.rules)
    print(s)
    for name in ("carte_blanche", "point", "sequences", "sets"):
        c = getattr(s, name)
        who = c.winner or "nobody"
        print(f"{name.replace('_', ' ')}: {who} (elder {c.points[0]}, dealer {c.points[1]})")
    print(f"repique: {s.repique or 'none'}")
    print(f"totals: elder {s.totals[0]}, dealer {s.totals[1]}")
    return 0


def _cmd_piquet_exchange(args: argparse.Namespace) -> int:
    if args.samples < 0:
        raise ValueError(f"--samples must be at least 0, got {args.samples}")
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    if args.plot:  # fail before the computation when matplotlib is missing
        from ._plot import require_matplotlib

        try:
            require_matplotlib()
        except ImportError as e:
            print(f"cribpiquet: error: {e}", file=sys.stderr)
            return 1
    start = time.perf_counter()
    a = piquet.analyze_exchange(" ".join(args.cards), role=args.role, rules=args.rules, samples=args.samples,
                                seed=args.seed, max_discard=args.max_discard)
    elapsed = time.perf_counter() - start
    print(a.table(args.top))
    best = a.best
    print(f"best: {best.discard_text()} (expected total {best.expected_total:.3f})")
    print(f"time: {elapsed:.3f} s")
    if args.plot:
        fig = a.plot(top=min(args.top, 15))
        fig.savefig(args.plot)
        print(f"plot: {args.plot}")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2, no usage dump
        self.exit(2, f"cribpiquet: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cribpiquet", description="Exact, fast cribbage and piquet scoring.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser("score", help="score a cribbage hand or crib and read the count aloud")
    score.add_argument("cards", nargs="+", help="the kept cards, e.g. 5H 5D 5S JC")
    score.add_argument("--starter", required=True, help="the starter card, e.g. 5C")
    score.add_argument("--crib", action="store_true", help="score as a crib (flush needs the starter)")
    score.set_defaults(run=_cmd_score)

    stats = sub.add_parser("stats", help="enumerate every show and print the score table")
    stats.add_argument("--kind", default="hand", choices=cribbage.DISTRIBUTION_KINDS)
    stats.set_defaults(run=_cmd_stats)

    pq = sub.add_parser("piquet", help="piquet declarations (russian or rubicon rules)")
    pq_sub = pq.add_subparsers(dest="piquet_command", required=True, parser_class=_Parser)
    declare = pq_sub.add_parser("declare", help="what a 12-card hand declares")
    declare.add_argument("cards", nargs="+", help="12 cards, e.g. AH KH QH JH TH 7H AC AD AS 7C 8C 7D")
    declare.add_argument("--dealt", nargs="+", help="the 12 cards dealt (for carte blanche)")
    declare.add_argument("--rules", default="russian", choices=("russian", "rubicon"))
    declare.set_defaults(run=_cmd_piquet_declare)
    compare = pq_sub.add_parser("compare", help="compare two hands' declarations")
    compare.add_argument("--elder", nargs="+", required=True, help="elder's 12 cards")
    compare.add_argument("--dealer", nargs="+", required=True, help="the dealer's 12 cards")
    compare.add_argument("--rules", default="russian", choices=("russian", "rubicon"))
    compare.set_defaults(run=_cmd_piquet_compare)
    exchange = pq_sub.add_parser("exchange", help="every legal exchange of a dealt hand: exact expectations, "
                                 "Monte Carlo chances against an opponent")
    exchange.add_argument("cards", nargs="+", help="the 12 cards dealt")
    exchange.add_argument("--role", default="elder", choices=("elder", "dealer"))
    exchange.add_argument("--rules", default="russian", choices=("russian", "rubicon"))
    exchange.add_argument("--samples", type=int, default=20_000, help="Monte Carlo samples (0: the exact part only)")
    exchange.add_argument("--seed", type=int, default=0)
    exchange.add_argument("--max-discard", type=int, default=None,
                          help="talon cards available (default: the most the rules can leave)")
    exchange.add_argument("--top", type=int, default=20, help="rows to print (default 20)")
    exchange.add_argument("--plot", metavar="PNG", help="save a picture of the best exchanges")
    exchange.set_defaults(run=_cmd_piquet_exchange)
    return parser


def _never_fail_to_encode(stream: object) -> None:
    """Write what the stream's encoding cannot hold as backslash escapes (its own output must never
    fail for a terminal's encoding, nor be reported as bad input)."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):  # no real file behind stdout (tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _never_fail_to_encode(sys.stdout)
    _never_fail_to_encode(sys.stderr)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a write error surfaces here, not in the interpreter's exit
        return status
    except BrokenPipeError:  # e.g. `cribpiquet stats | head -1`: the reader is gone, nothing to say
        _silence_stdout()
        return 0
    except OSError as e:  # e.g. `> /dev/full`
        _silence_stdout()
        print(f"cribpiquet: error: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 1
    except (ValueError, TypeError) as e:
        print(f"cribpiquet: error: {e}", file=sys.stderr)
        return 2
