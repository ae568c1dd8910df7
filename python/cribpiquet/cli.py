"""The ``cribpiquet`` command line tool.

    cribpiquet score 5H 5D 5S JC --starter 5C [--crib]
    cribpiquet stats [--kind hand|crib|five-card-hand] [--plot out.png]
    cribpiquet discard 5H 5D JC QS 2C 9H [--dealer] [--variant five-card] [--plot out.png]
    cribpiquet discard-tables [--variant five-card] [--no-flushes] [--model thrown-only] [--plot out.png]
    cribpiquet piquet declare <12 cards> [--dealt <12 cards>] [--rules russian|rubicon]
    cribpiquet piquet compare --elder <12 cards> --dealer <12 cards> [--rules rubicon]
    cribpiquet play cribbage|piquet [...]   (see cribpiquet.play)
    cribpiquet replay FILE
    cribpiquet arena cribbage [--variant six-card] --players ismcts:2000 greedy [--games 4000]
    cribpiquet arena piquet [--rules russian] [--scope partiya] --players ismcts random
    cribpiquet bench [--quick] [--json FILE] [--compare OLD.json]
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
    if args.plot:
        _save_plot(_stats_figure(args.kind, counts), args.plot)
    return 0


# ------------------------------------------------------------- discard analysis and tables


def _plot_ready(args: argparse.Namespace) -> bool:
    """With ``--plot``, check matplotlib is there before computing anything (else one line, False)."""
    if getattr(args, "plot", None):
        from ._plot import require_matplotlib

        try:
            require_matplotlib()
        except ImportError as e:
            print(f"cribpiquet: error: {e}", file=sys.stderr)
            return False
    return True


def _save_plot(fig: object, path: str) -> None:
    fig.savefig(path)  # type: ignore[attr-defined]
    print(f"plot: {path}")


def _stats_figure(kind: str, counts: object) -> object:
    import importlib

    fig = importlib.import_module("matplotlib.figure").Figure(figsize=(9, 4.5))
    ax = fig.add_subplot()
    ax.bar(range(30), counts, color="#4C72B0")  # type: ignore[arg-type]
    ax.set_xticks(range(0, 30, 2))
    ax.set_xlabel("score")
    ax.set_ylabel("shows")
    ax.set_title(f"{kind}: the score of every show")
    return fig


def _cmd_discard(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    analysis = cribbage.analyze_discard(" ".join(args.cards), dealer=args.dealer, variant=args.variant)
    print(analysis)
    if args.plot:
        _save_plot(analysis.plot(), args.plot)
    return 0


def _print_table(title: str, table: object) -> None:
    from ._discard import RANK_LABELS

    print(title)
    print("    " + "".join(f"{r:>6}" for r in RANK_LABELS))
    for label, row in zip(RANK_LABELS, table):  # type: ignore[call-overload]
        print(f"{label:>3} " + "".join(f"{v:>6.2f}" for v in row))


def _cmd_discard_tables(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    start = time.perf_counter()
    t = cribbage.discard_tables(args.variant, flushes=not args.no_flushes, model=args.model,
                                max_iterations=args.max_iterations, tolerance=args.tolerance)
    elapsed = time.perf_counter() - start
    flushes = "crib flushes counted" if t.flushes else "no crib flushes"
    state = "converged" if t.changes and t.changes[-1] < args.tolerance else "not converged"
    print(f"{t.variant} discard tables ({t.model}), {flushes}: {t.iterations} iterations ({state}), {elapsed:.1f} s")
    print("largest change per iteration: " + " ".join(f"{c:.1e}" for c in t.changes))
    _print_table("dealer: average crib when the dealer throws the pair to his own crib", t.dealer)
    _print_table("pone: average crib when pone throws the pair to the dealer's crib", t.pone)
    if args.plot:
        _save_plot(t.plot(), args.plot)
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


def _cmd_play(args: argparse.Namespace) -> int:
    from . import play

    if args.game == "cribbage":
        options = {"variant": args.variant}
    else:
        options = {"rules": args.rules, "scope": args.scope}
    return play.play(args.game, options, bot=args.bot, seed=args.seed, record=args.record)


def _cmd_replay(args: argparse.Namespace) -> int:
    from . import play

    play.replay(args.file)
    return 0


def _add_play_parsers(sub: argparse._SubParsersAction) -> None:
    pl = sub.add_parser("play", help="play cribbage or piquet against a bot in the terminal")
    pl_sub = pl.add_subparsers(dest="game", required=True, parser_class=_Parser)
    crib = pl_sub.add_parser("cribbage", help="two-player cribbage against a bot")
    crib.add_argument("--variant", default="five-card", choices=("five-card", "six-card"))
    pq = pl_sub.add_parser("piquet", help="piquet against a bot")
    pq.add_argument("--rules", default="russian", choices=("russian", "rubicon"))
    pq.add_argument("--scope", default="deal", choices=("deal", "partiya"))
    for p in (crib, pq):
        p.add_argument("--bot", default=None,
                       help="greedy (the default when built), ismcts, random or first")  # fmt: skip
        p.add_argument("--seed", type=int, default=None, help="fixes the deal (default: a random seed, printed)")
        p.add_argument("--record", metavar="FILE", help="write the game as JSON lines to FILE")
        p.set_defaults(run=_cmd_play)
    rp = sub.add_parser("replay", help="print a recorded game (play --record) move by move")
    rp.add_argument("file", help="a record written by cribpiquet play --record")
    rp.set_defaults(run=_cmd_replay)


def _cmd_arena(args: argparse.Namespace) -> int:
    from ._arena import arena

    game: object
    if args.game == "cribbage":
        if args.rules is not None or args.scope is not None:
            raise ValueError("--rules and --scope are piquet options (cribbage has --variant)")
        game = cribbage.Game(args.variant or "six-card")
    else:
        if args.variant is not None:
            raise ValueError("--variant is a cribbage option (piquet has --rules and --scope)")
        game = piquet.Game(args.rules or "russian", scope=args.scope or "partiya")
    if args.games < 0:
        raise ValueError(f"--games must be >= 0, got {args.games}")
    result = arena(game, args.players, args.games, seed=args.seed, threads=args.threads)
    print(f"{game}, seed {args.seed}")
    print(result)
    return 0


def _cmd_piquet_exchange(args: argparse.Namespace) -> int:
    if args.samples < 0:
        raise ValueError(f"--samples must be at least 0, got {args.samples}")
    if args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    if not _plot_ready(args):  # fail before the computation when matplotlib is missing
        return 2
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


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench  # numpy-heavy input generation: only loaded for this command

    return bench.main(args.quick, args.json, args.compare)


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
    stats.add_argument("--plot", metavar="PNG", help="also draw the score histogram to this file")
    stats.set_defaults(run=_cmd_stats)

    discard = sub.add_parser("discard", help="every discard of a two-player cribbage hand, best first")
    discard.add_argument("cards", nargs="+", help="6 cards (five-card: 5), e.g. 5H 5D JC QS 2C 9H")
    discard.add_argument("--dealer", action="store_true", help="the crib is yours (default: pone's view)")
    discard.add_argument("--variant", default="six-card", choices=("six-card", "five-card"))
    discard.add_argument("--plot", metavar="PNG", help="also draw the discards to this file")
    discard.set_defaults(run=_cmd_discard)

    tables = sub.add_parser("discard-tables", help="equilibrium discard tables (average crib per thrown pair)")
    tables.add_argument("--variant", default="six-card", choices=("six-card", "five-card"))
    tables.add_argument("--no-flushes", action="store_true", help="score no crib flush (like the classic tables)")
    tables.add_argument("--model", default="conditioned", choices=("conditioned", "thrown-only"),
                        help="crib given the whole hand (default) or the two thrown cards only")
    tables.add_argument("--max-iterations", type=int, default=50)
    tables.add_argument("--tolerance", type=float, default=1e-4)
    tables.add_argument("--plot", metavar="PNG", help="also draw both tables as heatmaps to this file")
    tables.set_defaults(run=_cmd_discard_tables)

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
    _add_play_parsers(sub)

    ar = sub.add_parser("arena", help="play matches between bots (seats rotated) and print the statistics")
    ar.add_argument("game", choices=("cribbage", "piquet"))
    ar.add_argument("--players", nargs="+", required=True,
                    help="one per seat: random, first, greedy, ismcts or ismcts:N (N iterations)")
    ar.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--threads", type=int, default=None, help="default: every core")
    ar.add_argument("--variant", default=None, help="cribbage: six-card (default), five-card, three-player, four-player")
    ar.add_argument("--rules", default=None, choices=("russian", "rubicon"), help="piquet rules (default russian)")
    ar.add_argument("--scope", default=None, choices=("deal", "partiya"), help="piquet: one deal or the whole match (default)")
    ar.set_defaults(run=_cmd_arena)

    bench = sub.add_parser("bench", help="run the standard throughput suite on this machine")
    bench.add_argument("--quick", action="store_true", help="smaller inputs and 3 repeats (under 20 s)")
    bench.add_argument("--json", metavar="FILE", help="write the results (and the machine) as JSON")
    bench.add_argument("--compare", metavar="OLD.json", help="print the change against an earlier --json file")
    bench.set_defaults(run=_cmd_bench)
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
