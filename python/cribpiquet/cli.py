"""The ``cribpiquet`` command line tool.

    cribpiquet score 5H 5D 5S JC --starter 5C [--crib] [--json]
    cribpiquet stats [--kind hand|crib|five-card-hand] [--plot out.png] [--json]
    cribpiquet discard 5H 5D JC QS 2C 9H [--dealer] [--variant five-card] [--plot out.png] [--json]
    cribpiquet discard-tables [--variant five-card] [--no-flushes] [--model thrown-only] [--plot out.png] [--json]
    cribpiquet piquet declare <12 cards> [--dealt <12 cards>] [--rules russian|rubicon] [--json]
    cribpiquet piquet compare --elder <12 cards> --dealer <12 cards> [--rules rubicon] [--json]
    cribpiquet piquet exchange <12 cards> --role elder|dealer [--sort net|total|…] [--plot out.png] [--json]
    cribpiquet play cribbage|piquet [...]   (see cribpiquet.play)
    cribpiquet replay FILE [--game N] [--html OUT [--seat 0|1]]
    cribpiquet arena cribbage [--variant six-card] --players ismcts:2000 greedy [--games 4000] [--json]
    cribpiquet arena piquet [--rules russian] [--scope partiya] --players ismcts random
    cribpiquet bench [--quick] [--json] [--out FILE] [--compare OLD.json]
    cribpiquet --version

``--json`` prints the result as one JSON document on stdout instead of the text (``bench`` too;
``bench --out FILE`` writes it to a file). Bad input prints one line to stderr and exits with status 2. Output that
cannot be written (a full disk, a plot file that cannot be written, a closed stdout), or saved
discard tables that cannot be read (missing, damaged, hostile), prints one line and exits with
status 1. Every message echoes input (a path, an argument, a file's text) with its control
characters escaped, as ``repr`` shows them, so a hostile file cannot act on the terminal. A
closed pipe (``cribpiquet stats | head -1``) ends quietly with status 0; a terminal that cannot
show a character (``PYTHONIOENCODING=ascii``) gets it as an escape (``\\u2014``), never an error.
Ctrl-C prints one line saying what was done (an arena the table of the games played so far) and
exits with status 130.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import sys
import time
from typing import Any, Callable, NoReturn, Sequence

from . import __version__, _core, cribbage, piquet, play, replay_page
from ._arena import ArenaResult, arena
from ._cli_plot import OutputError, plot_problem, save_plot as _save_plot, stats_figure as _stats_figure
from ._discard import RANK_LABELS
from ._display import can_show_symbols, cards_text, use_colour
from ._exchange import _discard_text as _exchange_discard_text
from ._util import Progress, clip, float_text, int_text, printable

BAR_WIDTH = 40

#: Every command and what it does (the top-level help lists them all).
COMMANDS = {
    "score": "score a cribbage hand or crib and read the count aloud",
    "stats": "enumerate every show and print the score table",
    "discard": "every discard of a two-player cribbage hand, best first",
    "discard-tables": "equilibrium discard tables (average crib per thrown pair)",
    "piquet": "piquet declarations, comparisons and exchange analysis (declare, compare, exchange)",
    "play": "play cribbage or piquet against a bot in the terminal",
    "replay": "print a recorded game (play --record, arena, simulate) move by move",
    "arena": "play matches between bots (seats rotated) and print the statistics",
    "bench": "run the standard throughput suite on this machine",
}


class Interrupted(Exception):
    """Ctrl-C during a command; the message says what was done (one line)."""


class InputFileError(Exception):
    """A file the command reads (saved discard tables) is missing, damaged or hostile; the
    message, naming the file and the member at fault, is the one line to print (status 1)."""


def _say(line: str) -> None:
    """One line of the tool's own to stderr, with the control characters of any input it echoes
    (a path, an argument, a file's contents) shown as escapes (:func:`printable`): every
    message of the tool goes through here."""
    print(printable(line), file=sys.stderr)


def _emit_json(doc: Any) -> None:
    print(json.dumps(doc, ensure_ascii=False))


def _cmd_score(args: argparse.Namespace) -> int:
    breakdown = cribbage.explain_hand(" ".join(args.cards), args.starter, crib=args.crib)
    if args.json:
        _emit_json(breakdown.to_dict())
        return 0
    print(breakdown)
    print(f"total: {breakdown.total}")
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    start = time.perf_counter()
    counts = cribbage.hand_distribution(args.kind)
    elapsed = time.perf_counter() - start
    total = int(counts.sum())
    peak = int(counts.max())
    mean = sum(score * int(c) for score, c in enumerate(counts)) / total
    if args.json:
        _emit_json({"kind": args.kind, "total": total, "counts": [int(c) for c in counts], "mean": mean,
                    "seconds": elapsed})
    else:
        print(f"{args.kind}: every show, {total:,} in all")
        print(f"{'score':>5}  {'count':>10}  {'percent':>8}")
        for score, count in enumerate(counts):
            count = int(count)
            bar = "#" * round(BAR_WIDTH * count / peak) if count else ""
            print(f"{score:>5}  {count:>10,}  {100 * count / total:>7.3f}%  {bar}")
        print(f"mean: {mean:.7f}")
        print(f"time: {elapsed:.3f} s, {total / elapsed:,.0f} hands/s")
    if args.plot:
        _save_plot(_stats_figure(args.kind, counts, args.log), args.plot, args.json)
    return 0


# ------------------------------------------------------------------------------ plots


def _plot_ready(args: argparse.Namespace) -> bool:
    """With ``--plot``, check before computing anything that matplotlib is there and that the
    file can be written in a format matplotlib knows (else one line, False)."""
    path = getattr(args, "plot", None)
    if not path:
        return True
    problem = plot_problem(path)
    if problem:
        _say(f"cribpiquet: error: {problem}")
        return False
    return True


# ------------------------------------------------------------- discard analysis and tables


def _cmd_discard(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    opponent: Any = "uniform"
    if args.tables is not None:
        try:
            opponent = cribbage.DiscardTables.load(args.tables)
        except ValueError as e:
            raise InputFileError(str(e)) from None
        if opponent.variant != args.variant:
            raise ValueError(f"the tables in {args.tables} are for {opponent.variant}, not {args.variant} "
                             f"(use --variant {opponent.variant})")
    analysis = cribbage.analyze_discard(" ".join(args.cards), dealer=args.dealer, variant=args.variant,
                                        opponent=opponent)
    if args.json:
        _emit_json(analysis.to_dict())
    else:
        print(_discard_text(analysis, _symbols(), _colour()))
    if args.plot:
        _save_plot(analysis.plot(), args.plot, args.json)
    return 0


def _discard_text(a: Any, symbols: bool, colour: bool) -> str:
    """``DiscardAnalysis``'s table with the cards sorted by rank then suit, in the terminal's
    notation (the same as ``cribpiquet play``)."""

    def cards(cs: Any, col: bool = colour) -> str:
        return cards_text(cs, symbols=symbols, colour=col)

    def pad(cs: Any, width: int) -> str:
        return cards(cs) + " " * (width - len(cards(cs, False)))

    role = "dealer (own crib)" if a.dealer else "pone (opponent's crib)"
    opp = "uniform" if a.opponent == "uniform" else repr(a.opponent)
    kept_w = max(len("keep"), *(len(cards(r.kept, False)) for r in a.rows))
    thrown_w = max(len("throw"), *(len(cards(r.thrown, False)) for r in a.rows))
    lines = [f"{a.variant}, {role}: {cards(a.hand)}; opponent's throws: {opp}",
             f"{'keep':<{kept_w}}  {'throw':<{thrown_w}}  {'hand':>6}  {'min':>3}  {'max':>3}  {'crib':>6}  "
             f"{'heels':>5}  {'net':>7}"]
    for r in a.rows:
        lines.append(f"{pad(r.kept, kept_w)}  {pad(r.thrown, thrown_w)}  {r.hand:>6.3f}  {r.hand_min:>3}  "
                     f"{r.hand_max:>3}  {r.crib:>6.3f}  {r.heels:>5.3f}  {r.net:>7.3f}")
    return "\n".join(lines)


def _print_table(title: str, table: object) -> None:
    print(title)
    print("    " + "".join(f"{r:>6}" for r in RANK_LABELS))
    for label, row in zip(RANK_LABELS, table):  # type: ignore[call-overload]
        print(f"{label:>3} " + "".join(f"{v:>6.2f}" for v in row))


def _cmd_discard_tables(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    start = time.perf_counter()
    try:
        t = cribbage.discard_tables(args.variant, flushes=not args.no_flushes, model=args.model,
                                    max_iterations=args.max_iterations, tolerance=args.tolerance)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted after {time.perf_counter() - start:.1f} s, before the tables were "
                          "finished (nothing to print)") from None
    elapsed = time.perf_counter() - start
    converged = bool(t.changes) and t.changes[-1] < args.tolerance
    if args.json:
        _emit_json(t.to_dict())
    else:
        flushes = "crib flushes counted" if t.flushes else "no crib flushes"
        state = "converged" if converged else "not converged"
        print(f"{t.variant} discard tables ({t.model}), {flushes}: {t.iterations} iterations ({state}), {elapsed:.1f} s")
        print("largest change per iteration: " + " ".join(f"{c:.1e}" for c in t.changes))
        _print_table("dealer: average crib when the dealer throws the pair to his own crib", t.dealer)
        _print_table("pone: average crib when pone throws the pair to the dealer's crib", t.pone)
    if args.plot:
        _save_plot(t.plot(), args.plot, args.json)
    if args.save:
        t.save(args.save)
        if not args.json:
            shown = printable(args.save)
            print(f"saved: {shown} (use it with: cribpiquet discard ... --tables {shown})")
    return 0


# --------------------------------------------------------------------------------- piquet


def _cmd_piquet_declare(args: argparse.Namespace) -> int:
    dealt = " ".join(args.dealt) if args.dealt else None
    d = piquet.declarations(" ".join(args.cards), dealt=dealt, rules=args.rules)
    if args.json:
        _emit_json(d.to_dict())
        return 0
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
    names = ("carte_blanche", "point", "sequences", "sets")
    if args.json:
        _emit_json(s.to_dict())
        return 0
    print(s)
    for name in names:
        c = getattr(s, name)
        who = c.winner or "nobody"
        print(f"{name.replace('_', ' ')}: {who} (elder {c.points[0]}, dealer {c.points[1]})")
    print(f"repique: {s.repique or 'none'}")
    print(f"totals: elder {s.totals[0]}, dealer {s.totals[1]}")
    return 0


#: ``--sort`` of ``piquet exchange``: the name, the row field, and what it means.
EXCHANGE_SORTS = {
    "net": ("net", "mean declaration points minus the opponent's", True),
    "points": ("points", "mean declaration points scored, repique included", True),
    "repique": ("repique", "chance of a repique", True),
    "point-win": ("point_win", "chance of winning the point", True),
    "total": ("expected_total", "expected points held, each declaration counted as if good", False),
    "point": ("expected_point", "expected point", False),
    "p30": ("total_30", "chance of holding 30 or more", False),
}


def _cmd_piquet_exchange(args: argparse.Namespace) -> int:
    sort = args.sort or ("net" if args.samples > 0 else "total")
    field, meaning, monte_carlo = EXCHANGE_SORTS[sort]
    if args.samples == 0 and monte_carlo:
        raise ValueError(f"--sort {sort} needs the Monte Carlo part (--samples > 0)")
    if not _plot_ready(args):  # fail before the computation when matplotlib is missing
        return 2
    start = time.perf_counter()
    try:
        a = piquet.analyze_exchange(" ".join(args.cards), role=args.role, rules=args.rules, samples=args.samples,
                                    seed=args.seed, max_discard=args.max_discard)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted after {time.perf_counter() - start:.1f} s, before the analysis was "
                          "finished (nothing to print)") from None
    elapsed = time.perf_counter() - start
    rows = a.sorted_rows(field)
    top = rows[: args.top]
    if args.json:
        # the to_dict() of the analysis as shown: its rows sorted by --sort, the first --top
        _emit_json(dataclasses.replace(a, rows=tuple(top)).to_dict())
    else:
        symbols, colour = _symbols(), _colour()
        print(a._table(args.top, sort=field, symbols=symbols, colour=colour))
        first = top[0]
        value = getattr(first, field)
        shown = f"{value.value:.3f} ± {value.se:.3f}" if hasattr(value, "se") else f"{value:.3f}"
        print(f"first by {sort}: {_exchange_cards(first, symbols, colour)}, {sort} {shown} ({meaning})")
        print(f"time: {elapsed:.3f} s")
    if args.plot:
        _save_plot(a._plot(top=min(args.top, 15), sort=field), args.plot, args.json)
    return 0


def _exchange_cards(row: Any, symbols: bool, colour: bool) -> str:
    return _exchange_discard_text(row, symbols, colour)


def _symbols() -> bool:
    return can_show_symbols(sys.stdout)


def _colour() -> bool:
    return use_colour(sys.stdout)


# ------------------------------------------------------------------------------- play

def _cmd_play(args: argparse.Namespace) -> int:
    if args.game == "cribbage":
        options = {"variant": args.variant}
    else:
        options = {"rules": args.rules, "scope": args.scope}
    return play.play(args.game, options, bot=args.bot, seed=args.seed, record=args.record)


def _cmd_replay(args: argparse.Namespace) -> int:
    if args.html is not None:
        steps = replay_page.write_replay_html(args.file, args.html, seat=args.seat, game=args.game)
        print(f"wrote {printable(args.html)}: {steps} moves, open it in a browser")
        return 0
    play.replay(args.file, game=args.game)
    return 0


# ------------------------------------------------------------------------------ arena


def _arena_game(args: argparse.Namespace) -> Any:
    if args.game == "cribbage":
        if args.rules is not None or args.scope is not None:
            raise ValueError("--rules and --scope are piquet options (cribbage has --variant)")
        return cribbage.Game(args.variant or "six-card")
    if args.variant is not None:
        raise ValueError("--variant is a cribbage option (piquet has --rules and --scope)")
    return piquet.Game(args.rules or "russian", scope=args.scope or "partiya")


def run_arena_in_blocks(game: Any, players: Sequence[Any], n_games: int, *, seed: int, threads: Any,
                        progress: bool = True, target_seconds: float = 1.0) -> tuple[Any, bool]:
    """:func:`cribpiquet.arena` played in blocks of games (``first_game`` ranges, combined: the
    same result as one call) so that Ctrl-C keeps the games already played. Returns the result
    and whether it was interrupted."""
    bar = Progress(n_games, "arena", "game", delay=1.0) if progress else None
    parts = []
    done, block, interrupted = 0, 8, False
    try:
        while True:
            k = min(block, n_games - done)
            t0 = time.perf_counter()
            parts.append(arena(game, players, k, seed=seed, threads=threads, first_game=done, progress=False))
            done += k
            if bar is not None:
                bar(done)
            if done >= n_games:
                break
            if time.perf_counter() - t0 < target_seconds / 2:
                block = min(block * 2, 1 << 20)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    if not parts:  # interrupted in the first block: no game counted
        parts.append(arena(game, players, 0, seed=seed, threads=threads, progress=False))
    return ArenaResult.combine(parts), interrupted


def _cmd_arena(args: argparse.Namespace) -> int:
    if not _plot_ready(args):
        return 2
    game = _arena_game(args)
    result, interrupted = run_arena_in_blocks(game, args.players, args.games, seed=args.seed, threads=args.threads)
    if args.json:
        _emit_json(result.to_dict())
    else:
        print(f"{game}, seed {args.seed}")
        print(result)
    if args.plot and result.games:
        _save_plot(result.plot(), args.plot, args.json)
    if interrupted:
        raise Interrupted(f"interrupted after {result.games:,} of {args.games:,} games "
                          f"({'the table above is for those' if not args.json else 'the JSON is for those'})")
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, no usage dump
        self.exit(2, f"cribpiquet: error: {printable(message)}\n")


class _HelpFormatter(argparse.HelpFormatter):
    """States every option's default: ``(default: X)`` unless the help already says it or the
    default is None (then the help says what None means)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if "default" in text or default is None or default is argparse.SUPPRESS or default is False:
            return text
        if not action.option_strings:
            return text
        return text + " (default: %(default)s)"


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench  # numpy-heavy input generation: only loaded for this command

    return bench.main(args.quick, args.json, args.out, args.compare)


# ------------------------------------------------------------------------ argument types


def _bot_names() -> str:
    """The bots' registry's names for a help text: ``greedy, ismcts[:N] (N iterations), …``."""
    names = [f"{n}[:N] (N {arg})" if arg else n for n, arg in _core.bot_names().items()]
    return ", ".join(names[:-1]) + " or " + names[-1]


SEED = int_text(0, 2**64 - 1)


def _command(sub: Any, name: str, run: Callable[[argparse.Namespace], int], help: str | None = None,
             **kwargs: Any) -> argparse.ArgumentParser:
    """The parser of command ``name`` (its help ``COMMANDS[name]`` unless given), running ``run``."""
    p = sub.add_parser(name, help=help or COMMANDS[name], formatter_class=_HelpFormatter, **kwargs)
    p.set_defaults(run=run)
    return p


def _outputs(p: argparse.ArgumentParser, plot: str | None = None) -> None:
    """The options a command's output takes, last: ``--plot`` (drawing ``plot``) and ``--json``."""
    if plot is not None:
        p.add_argument("--plot", metavar="PNG", help=f"also draw {plot} to this file (default: none)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON document instead of text")


#: The piquet commands' ``--rules``.
_RULES: dict[str, Any] = {"default": "russian", "choices": ("russian", "rubicon"),
                          "help": "russian or rubicon (docs/rules/piquet.md)"}


def _add_play_parsers(sub: Any) -> None:
    pl = sub.add_parser("play", help=COMMANDS["play"], formatter_class=_HelpFormatter,
                        description="Play against a bot: you are seat 0; type help at the prompt for the commands.")
    pl_sub = pl.add_subparsers(dest="game", required=True, parser_class=_Parser, metavar="{cribbage,piquet}")
    crib = _command(pl_sub, "cribbage", _cmd_play, help="two-player cribbage against a bot")
    crib.add_argument("--variant", default="six-card", choices=("six-card", "five-card"),
                      help="six-card (to 121, as cribbage.Game()) or five-card (to 61)")
    pq = _command(pl_sub, "piquet", _cmd_play, help="piquet against a bot")
    pq.add_argument("--rules", default="russian", choices=("russian", "rubicon"), help="the rule set")
    pq.add_argument("--scope", default="partiya", choices=("deal", "partiya"),
                    help="one deal, or the whole match (partiya, the default of piquet.Game() and of arena)")
    for p in (crib, pq):
        p.add_argument("--bot", default=None,
                       help=f"{_bot_names()} (default: greedy)")
        p.add_argument("--seed", type=SEED, default=None,
                       help="0 .. 2**64-1: fixes the deal (default: a random seed, printed)")
        p.add_argument("--record", metavar="FILE", help="write the game as JSON lines to FILE (default: no record)")
    rp = _command(sub, "replay", _cmd_replay)
    rp.add_argument("file", help="a game record (cribpiquet play --record, arena or simulate with record=, "
                    "cribpiquet.records.write_records)")
    rp.add_argument("--game", type=int_text(1), default=1, metavar="N",
                    help="the game to show of a file that holds several, counting from 1 (default: 1)")
    rp.add_argument("--html", metavar="OUT",
                    help="write the game as one self-contained web page to OUT (step through it in a browser; "
                    "default: print it move by move)")  # fmt: skip
    rp.add_argument("--seat", type=int, choices=(0, 1), default=None,
                    help="with --html: open the page in that seat's view (default: both hands face up)")  # fmt: skip


def _add_piquet_parsers(sub: Any) -> None:
    pq = sub.add_parser("piquet", help=COMMANDS["piquet"], formatter_class=_HelpFormatter)
    pq_sub = pq.add_subparsers(dest="piquet_command", required=True, parser_class=_Parser,
                               metavar="{declare,compare,exchange}")
    declare = _command(pq_sub, "declare", _cmd_piquet_declare, help="what a 12-card hand declares")
    declare.add_argument("cards", nargs="+", help="12 cards, e.g. AH KH QH JH TH 7H AC AD AS 7C 8C 7D")
    declare.add_argument("--dealt", nargs="+",
                         help="the 12 cards dealt, for carte blanche (default: the cards given)")
    declare.add_argument("--rules", **_RULES)
    _outputs(declare)
    compare = _command(pq_sub, "compare", _cmd_piquet_compare, help="compare two hands' declarations")
    compare.add_argument("--elder", nargs="+", required=True, help="elder's 12 cards (required)")
    compare.add_argument("--dealer", nargs="+", required=True, help="the dealer's 12 cards (required)")
    compare.add_argument("--rules", **_RULES)
    _outputs(compare)
    exchange = _command(pq_sub, "exchange", _cmd_piquet_exchange, help="every legal exchange of a dealt hand: exact "
                        "expectations, Monte Carlo chances against an opponent")
    exchange.add_argument("cards", nargs="+", help="the 12 cards dealt")
    exchange.add_argument("--role", default="elder", choices=("elder", "dealer"), help="whose exchange")
    exchange.add_argument("--rules", **_RULES)
    exchange.add_argument("--samples", type=int_text(0, 10_000_000), default=20_000,
                          help="Monte Carlo samples against an opponent (0: the exact part only)")
    exchange.add_argument("--seed", type=SEED, default=0, help="the Monte Carlo samples' seed, 0 .. 2**64-1")
    exchange.add_argument("--max-discard", type=int_text(0, 8), default=None,
                          help="talon cards available (default: the most the rules can leave)")
    exchange.add_argument("--top", type=int_text(1), default=20, help="rows to print")
    exchange.add_argument("--sort", default=None, choices=tuple(EXCHANGE_SORTS),
                          help="order of the rows: " + "; ".join(
                              f"{k}: {v[1]}{' (Monte Carlo)' if v[2] else ' (exact)'}" for k, v in EXCHANGE_SORTS.items())
                          + " (default: net with samples, total without)")
    _outputs(exchange, "the first rows")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cribpiquet", formatter_class=argparse.RawDescriptionHelpFormatter,
                     description="Exact, fast cribbage and piquet: " + ", ".join(COMMANDS) + ".\n"
                     "cribpiquet COMMAND --help describes each one.")
    parser.add_argument("--version", action="version", version=f"cribpiquet {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    score = _command(sub, "score", _cmd_score)
    score.add_argument("cards", nargs="+", help="the kept cards, e.g. 5H 5D 5S JC")
    score.add_argument("--starter", required=True, help="the starter card, e.g. 5C (required)")
    score.add_argument("--crib", action="store_true",
                       help="score as a crib: a flush needs the starter too (default: a hand)")
    _outputs(score)

    stats = _command(sub, "stats", _cmd_stats)
    stats.add_argument("--kind", default="hand", choices=cribbage.DISTRIBUTION_KINDS,
                       help="which shows: a six-card hand's 4 + starter, a crib, or five-card's 3 + starter")
    stats.add_argument("--log", action="store_true", help="with --plot: a log scale for the percentages "
                       "(default: linear)")
    _outputs(stats, "the score histogram")

    discard = _command(sub, "discard", _cmd_discard)
    discard.add_argument("cards", nargs="+", help="6 cards (five-card: 5), e.g. 5H 5D JC QS 2C 9H")
    discard.add_argument("--dealer", action="store_true", help="the crib is yours (default: pone's view)")
    discard.add_argument("--variant", default="six-card", choices=("six-card", "five-card"),
                         help="six-card: keep 4 of 6; five-card: keep 3 of 5")
    discard.add_argument("--tables", metavar="FILE",
                         help="weight the opponent's throws by equilibrium tables saved with discard-tables --save "
                         "(default: every throw equally likely)")
    _outputs(discard, "the discards")

    tables = _command(sub, "discard-tables", _cmd_discard_tables)
    tables.add_argument("--variant", default="six-card", choices=("six-card", "five-card"),
                        help="which game's discards")
    tables.add_argument("--no-flushes", action="store_true",
                        help="score no crib flush, like the classic tables (default: flushes count)")
    tables.add_argument("--model", default="conditioned", choices=("conditioned", "thrown-only"),
                        help="the crib given the whole hand, or given the two thrown cards only (older, cheaper)")
    tables.add_argument("--max-iterations", type=int_text(0, 10_000), default=50,
                        help="at most this many best-response passes (0 .. 10000)")
    tables.add_argument("--tolerance", type=float_text(0.0), default=1e-4,
                        help="stop when no table value changes by this much in a pass")
    tables.add_argument("--save", metavar="FILE", help="also save the tables to FILE (.npz) for discard --tables "
                        "(default: not saved)")
    _outputs(tables, "both tables as heatmaps")

    _add_piquet_parsers(sub)
    _add_play_parsers(sub)

    ar = _command(sub, "arena", _cmd_arena)
    ar.add_argument("game", choices=("cribbage", "piquet"),
                    help="the game: cribbage (see --variant) or piquet (see --rules, --scope)")
    ar.add_argument("--players", nargs="+", required=True,
                    help=f"one per seat: {_bot_names()} (required)")
    ar.add_argument("--games", type=int_text(0), default=1000, help="games to play")
    ar.add_argument("--seed", type=SEED, default=0, help="the games' seed, 0 .. 2**64-1")
    ar.add_argument("--threads", type=int_text(1, 4096), default=None,
                    help="worker threads (default: every core)")
    ar.add_argument("--variant", default=None,
                    help="cribbage: six-card (default), five-card, three-player or four-player")
    ar.add_argument("--rules", default=None, choices=("russian", "rubicon"), help="piquet rules (default: russian)")
    ar.add_argument("--scope", default=None, choices=("deal", "partiya"),
                    help="piquet: one deal or the whole match (default: partiya)")
    _outputs(ar, "the win rates and points per deal")

    bench = _command(sub, "bench", _cmd_bench)
    bench.add_argument("--quick", action="store_true", help="smaller inputs and 3 repeats, under 20 s "
                       "(default: the full suite)")
    bench.add_argument("--json", action="store_true",
                       help="print the results (and the machine) as one JSON document instead of the table")
    bench.add_argument("--out", metavar="FILE", help="also write that JSON document to FILE (default: no file)")
    bench.add_argument("--compare", metavar="OLD.json",
                       help="print the change against an earlier --out file (default: no comparison; "
                       "on stderr with --json)")
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
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):  # no real file behind stdout
        pass


def _bad_argument(argv: Sequence[str]) -> str:
    """The first argument that is not valid UTF-8 (decoded by Python with surrogate escapes), as
    a one-line message naming its position; "" when every argument is text."""
    for i, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
            return f"argument {i} ({clip(shown, 40)}) is not valid UTF-8 text"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stderr is not None:
        _never_fail_to_encode(sys.stderr)
    problem = _bad_argument(argv)
    if problem:
        _say(f"cribpiquet: error: {problem}")
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:  # bare `cribpiquet`: the usage and the commands
        parser.print_help(sys.stderr)
        return 2
    if sys.stdout is None:  # started with stdout closed (`cribpiquet stats >&-`)
        _say("cribpiquet: error: cannot write the output: standard output is closed")
        return 1
    _never_fail_to_encode(sys.stdout)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a write error surfaces here, not in the interpreter's exit
        return status
    except BrokenPipeError:  # e.g. `cribpiquet stats | head -1`: the reader is gone, nothing to say
        _silence_stdout()
        return 0
    except (OutputError, InputFileError) as e:
        _flush_quietly()
        _say(f"cribpiquet: error: {e}")
        return 1
    except OSError as e:  # e.g. `> /dev/full`
        _silence_stdout()
        _say(f"cribpiquet: error: cannot write the output: {e.strerror or e}")
        return 1
    except (Interrupted, KeyboardInterrupt) as e:
        _flush_quietly()
        what = str(e) if isinstance(e, Interrupted) else "interrupted"
        newline = "\n" if sys.stderr is not None and sys.stderr.isatty() else ""  # past the echoed ^C
        print(newline, end="", file=sys.stderr)
        _say(f"cribpiquet: {what}")
        return 130
    except (ValueError, TypeError) as e:
        _say(f"cribpiquet: error: {e}")
        return 2


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_stdout()
