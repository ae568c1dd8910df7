"""``cribpiquet bench``: the library's standard throughput suite, run in this process.

    cribpiquet bench [--quick] [--json] [--out FILE] [--compare OLD.json]

The batch benchmarks run with the kernel a batch call chooses (:func:`cribpiquet.kernel`, printed
with the machine), and once more on every kernel path this CPU has (``NAME@scalar``,
``NAME@avx2``, ``NAME@avx512``: ``CRIBPIQUET_KERNEL`` set for the case), each path's ratio taken
against the scalar path of the same run; the report ends with these side by side.

Every benchmark is timed ``repeats`` times (after one warm-up call) and reported as the median
rate with the spread over the repeats; a benchmark with a baseline measured in the same run
(the pure-Python scorer :func:`naive_score` below, or OpenSpiel's cribbage when ``pyspiel`` is
importable) gets the ratio of the two medians. ``--json`` prints everything (the machine too)
as one JSON document instead of the table, ``--out FILE`` writes it to a file for tracking;
``--compare`` prints the change of every median against an earlier file.

The JSON file (``SCHEMA`` = 1)::

    {"schema": 1, "tool": "cribpiquet bench", "quick": bool, "created": ISO time,
     "machine": {"cpu", "cores", "threads", "python", "numpy", "cribpiquet", "platform",
                 "openspiel", "kernel", "kernels"},
     "results": [{"name", "what", "unit", "items", "repeats", "seconds": [...],
                  "median_rate", "min_rate", "max_rate", "spread", "ns_per_item",
                  "baseline", "ratio"}, ...]}

Rates are items per second (``unit`` names the item); ``spread`` is (max - min) / median of the
rates; ``ratio`` is ``median_rate`` over the baseline's ``median_rate`` (``None`` without one).

>>> naive_score([10, 17, 30, 43], 4)   # J♣ 5♦ 5♥ 5♠ with the 5♣: the 29 hand
29
>>> # 2♣ 4♣ 6♣ 8♣: with the K♣ a flush of five; with the K♦ four as a hand, none as a crib
>>> naive_score([1, 3, 5, 7], 12, crib=True), naive_score([1, 3, 5, 7], 25, crib=True), naive_score([1, 3, 5, 7], 25)
(5, 0, 4)
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from datetime import datetime, timezone
from typing import Any, Callable

import numpy as np

from . import __version__, available_kernels, cribbage, kernel, piquet
from ._util import json_value, path_arg, printable, read_text, short_path, short_repr

SCHEMA = 1

_PIPS = [min(r + 1, 10) for r in range(13)]


def naive_score(hand: list[int], starter: int, crib: bool = False) -> int:
    """Score a show the straightforward way, in pure Python: every subset for fifteens, every
    pair, the longest runs, then flush and nobs. Card ids are ``suit * 13 + rank`` (the
    library's); ``hand`` holds 4 cards (or 3, five-card cribbage). This is the baseline a user
    would write; it agrees with :func:`cribpiquet.cribbage.score_hand` on every show.
    """
    cards = list(hand) + [starter]
    ranks = [c % 13 for c in cards]
    pips = [_PIPS[r] for r in ranks]
    points = 0
    for k in range(2, len(cards) + 1):
        for combo in itertools.combinations(pips, k):
            if sum(combo) == 15:
                points += 2
    for a, b in itertools.combinations(ranks, 2):
        if a == b:
            points += 2
    for k in range(len(cards), 2, -1):
        runs = 0
        for combo in itertools.combinations(ranks, k):
            s = sorted(combo)
            if all(s[i + 1] == s[i] + 1 for i in range(k - 1)):
                runs += 1
        if runs:
            points += runs * k
            break
    suits = {c // 13 for c in hand}
    if len(suits) == 1:
        matches = starter // 13 in suits
        if crib:
            points += 5 if matches else 0
        else:
            points += len(hand) + matches
    if any(c % 13 == 10 and c // 13 == starter // 13 for c in hand):
        points += 1
    return points


# ------------------------------------------------------------------------------------ inputs


def random_shows(n: int, seed: int = 0, width: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random shows as uint8 ids: hands (n, width) and starters (n,). A pool of 65,536
    shuffles is dealt and sampled, so big inputs are cheap to make."""
    rng = np.random.default_rng(seed)
    pool = np.argsort(rng.random((1 << 16, 52)), axis=1)[:, : width + 1].astype(np.uint8)
    rows = pool[rng.integers(0, len(pool), n)]
    return np.ascontiguousarray(rows[:, :width]), np.ascontiguousarray(rows[:, width])


def random_deals(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random piquet deals as uint8 ids: elder (n, 12) and dealer (n, 12)."""
    rng = np.random.default_rng(seed)
    pool = np.argsort(rng.random((1 << 16, 32)), axis=1)[:, :24].astype(np.uint8)
    rows = pool[rng.integers(0, len(pool), n)]
    return np.ascontiguousarray(rows[:, :12]), np.ascontiguousarray(rows[:, 12:])


def random_counts(n: int, seed: int = 0) -> np.ndarray:
    """``n`` random pegging counts (cards in play order until 31 would be passed), (n, 13) int8
    padded with -1."""
    rnd = random.Random(seed)
    pool = np.full((4096, 13), -1, dtype=np.int8)
    for row in pool:
        pack = list(range(52))
        rnd.shuffle(pack)
        count, k = 0, 0
        for card in pack:
            if count + _PIPS[card % 13] > 31:
                break
            count += _PIPS[card % 13]
            row[k] = card
            k += 1
    return pool[np.random.default_rng(seed).integers(0, len(pool), n)]


# ---------------------------------------------------------------------------------- the suite


_KERNEL_VAR = "CRIBPIQUET_KERNEL"


class _Case:
    """One benchmark: ``run()`` does ``items`` items of work per call (with ``CRIBPIQUET_KERNEL``
    set to ``kernel`` while it runs, if given)."""

    def __init__(self, name: str, what: str, unit: str, items: int, run: Callable[[], Any],
                 baseline: str | None = None, kernel: str | None = None) -> None:
        self.name, self.what, self.unit, self.items, self.run, self.baseline = name, what, unit, items, run, baseline
        self.kernel = kernel


def _path_cases(paths: list[tuple[str, str, str, int, Callable[[], Any]]]) -> list[_Case]:
    """Each batch case ``(name, what, unit, items, run)`` once per kernel this CPU has, as
    ``name@kernel``, with the scalar path of the same run as its baseline."""
    return [_Case(f"{name}@{k}", f"{what}, {k} kernel", unit, items, run, f"{name}@scalar", k)
            for name, what, unit, items, run in paths for k in available_kernels()]


def _latency(fn: Callable[..., Any], args: tuple[Any, ...], calls: int) -> Callable[[], None]:
    def loop() -> None:
        for _ in range(calls):
            fn(*args)
    return loop


def _openspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def _openspiel_games(pyspiel: Any, n_games: int) -> Callable[[], None]:
    game = pyspiel.load_game("cribbage")

    def run() -> None:
        choice = random.Random(0).choice
        for _ in range(n_games):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
    return run


def _naive_rate(hands: np.ndarray, starters: np.ndarray) -> Callable[[], None]:
    h, s = hands.tolist(), starters.tolist()

    def run() -> None:
        for a, b in zip(h, s):
            naive_score(a, b)
    return run


def _batch(hands: np.ndarray, starters: np.ndarray) -> Callable[[], Any]:
    return lambda: cribbage.score_hand_batch(hands, starters)


def build_suite(quick: bool) -> list[_Case]:
    """The standard cases (smaller inputs with ``quick``)."""
    n_batch = 2_000_000 if quick else 10_000_000
    n_peg = 200_000 if quick else 1_000_000
    n_deals = 1_000_000 if quick else 10_000_000
    n_games = 10_000 if quick else 100_000
    n_piquet = 20_000 if quick else 200_000
    calls = 10_000 if quick else 100_000
    n_naive = 300 if quick else 3_000
    n_path = 1_000_000 if quick else 10_000_000
    cases: list[_Case] = []
    hands, starters = random_shows(n_batch, seed=1)
    cases.append(_Case("naive_python_score", "pure-Python scorer (naive_score), one show per call", "shows",
                       n_naive, _naive_rate(hands[:n_naive], starters[:n_naive])))
    cases.append(_Case("score_hand_ids", "cribbage.score_hand, int ids, one call", "calls", calls,
                       _latency(cribbage.score_hand, ([4, 17, 30, 10], 43), calls), "naive_python_score"))
    cases.append(_Case("score_hand_strings", "cribbage.score_hand, text cards, one call", "calls", calls,
                       _latency(cribbage.score_hand, ("5C 5D 5H JC", "5S"), calls), "naive_python_score"))
    for dtype in ("uint8", "int16", "int32", "int64"):
        h, s = hands.astype(dtype), starters.astype(dtype)
        cases.append(_Case(f"score_hand_batch_{dtype}",
                           f"cribbage.score_hand_batch, {n_batch:,} {dtype} shows, validation included", "shows",
                           n_batch, _batch(h, s), "naive_python_score"))
    cases.append(_Case("hand_distribution", "cribbage.hand_distribution('hand'): all 12,994,800 shows", "shows",
                       12_994_800, lambda: cribbage.hand_distribution("hand"), "naive_python_score"))
    seqs = random_counts(n_peg, seed=2)
    cases.append(_Case("peg_points_batch", f"cribbage.peg_points_batch, {n_peg:,} counts", "counts", n_peg,
                       lambda: cribbage.peg_points_batch(seqs)))
    elder, dealer = random_deals(n_deals, seed=3)
    cases.append(_Case("piquet_score_declarations_batch",
                       f"piquet.score_declarations_batch, {n_deals:,} uint8 deals", "deals", n_deals,
                       lambda: piquet.score_declarations_batch(elder, dealer)))
    h8, s8 = hands[:n_path], starters[:n_path]
    h64, s64 = h8.astype(np.int64), s8.astype(np.int64)
    h3, s3 = random_shows(n_path, seed=4, width=3)
    cases += _path_cases([
        ("batch_uint8", f"score_hand_batch, {n_path:,} uint8 hands", "shows", n_path, _batch(h8, s8)),
        ("batch_int64", f"score_hand_batch, {n_path:,} int64 hands", "shows", n_path, _batch(h64, s64)),
        ("batch_crib_uint8", f"score_hand_batch(crib=True), {n_path:,} uint8 cribs", "shows", n_path,
         lambda: cribbage.score_hand_batch(h8, s8, crib=True)),
        ("batch_three_uint8", f"score_hand_batch, {n_path:,} uint8 three-card hands", "shows", n_path,
         _batch(h3, s3)),
        ("explain_batch_uint8", f"explain_hand_batch, {n_path:,} uint8 hands", "shows", n_path,
         lambda: cribbage.explain_hand_batch(h8, s8)),
        ("declarations_batch", f"piquet.score_declarations_batch, {n_deals:,} uint8 deals", "deals", n_deals,
         lambda: piquet.score_declarations_batch(elder, dealer)),
    ])
    six = cribbage.Game("six-card")
    cases.append(_Case("cribbage_simulate_1_thread", "cribbage.simulate, random six-card games, 1 thread", "games",
                       n_games, lambda: cribbage.simulate(six, n_games, seed=1, threads=1), "openspiel_cribbage"))
    cases.append(_Case("cribbage_simulate_all_threads", "cribbage.simulate, random six-card games, every core",
                       "games", n_games, lambda: cribbage.simulate(six, n_games, seed=1), "openspiel_cribbage"))
    deal = piquet.Game()
    cases.append(_Case("piquet_simulate_1_thread", "piquet.simulate, random russian deals, 1 thread", "deals",
                       n_piquet, lambda: piquet.simulate(deal, n_piquet, seed=1, threads=1)))
    pyspiel = _openspiel()
    if pyspiel is not None:
        n_os = 10 if quick else 100
        cases.append(_Case("openspiel_cribbage", "OpenSpiel cribbage, random games driven from Python", "games",
                           n_os, _openspiel_games(pyspiel, n_os)))
    return cases


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_info() -> dict[str, Any]:
    """The machine and software the numbers were taken on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    env = os.environ.get("RAYON_NUM_THREADS", "")
    threads = int(env) if env.isdigit() and int(env) > 0 else cores
    pyspiel = _openspiel()
    return {
        "cpu": _cpu_model(),
        "cores": cores,
        "threads": threads,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cribpiquet": __version__,
        "platform": platform.platform(),
        "openspiel": getattr(pyspiel, "__version__", "installed") if pyspiel is not None else None,
        "kernel": kernel(),
        "kernels": available_kernels(),
    }


def run_suite(quick: bool = False, repeats: int | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run every case and return the report (the JSON document described in the module docs)."""
    repeats = repeats or (3 if quick else 7)
    results: list[dict[str, Any]] = []
    for case in build_suite(quick):
        if progress:
            progress(case.name)
        before = os.environ.get(_KERNEL_VAR)
        if case.kernel:
            os.environ[_KERNEL_VAR] = case.kernel
        try:
            case.run()  # warm-up: page faults, caches, lazy imports
            seconds = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                case.run()
                seconds.append(max(time.perf_counter() - t0, 1e-9))
        finally:
            if case.kernel:
                if before is None:
                    del os.environ[_KERNEL_VAR]
                else:
                    os.environ[_KERNEL_VAR] = before
        rates = sorted(case.items / t for t in seconds)
        median = statistics.median(rates)
        results.append({
            "name": case.name, "what": case.what, "unit": case.unit, "items": case.items, "repeats": repeats,
            "seconds": seconds, "median_rate": median, "min_rate": rates[0], "max_rate": rates[-1],
            "spread": (rates[-1] - rates[0]) / median, "ns_per_item": 1e9 / median,
            "baseline": case.baseline, "ratio": None,
        })
    by_name = {r["name"]: r for r in results}
    for r in results:
        base = by_name.get(r["baseline"]) if r["baseline"] else None
        if base is None:
            r["baseline"] = None
        else:
            r["ratio"] = r["median_rate"] / base["median_rate"]
    return {
        "schema": SCHEMA, "tool": "cribpiquet bench", "quick": quick,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_info(), "results": results,
    }


# ---------------------------------------------------------------------------------- printing


def _rate_text(rate: float) -> str:
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return f"{rate / scale:,.1f} {suffix}"
    return f"{rate:,.1f} "


def _time_text(ns: float) -> str:
    for scale, suffix in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= scale:
            return f"{ns / scale:,.2f} {suffix}"
    return f"{ns:,.1f} ns"


def format_report(report: dict[str, Any]) -> str:
    """The report as a table: median rate, time per item, spread over repeats, ratio."""
    m = report["machine"]
    lines = [
        f"machine: {m['cpu']}, {m['cores']} cores, {m['threads']} threads; python {m['python']}, "
        f"numpy {m['numpy']}, cribpiquet {m['cribpiquet']}, openspiel {m['openspiel'] or 'not installed'}",
        f"kernel: {m.get('kernel', '?')} (this CPU has: {', '.join(m.get('kernels') or ['?'])})",
        f"{'benchmark':<32} {'median rate':>16} {'per item':>11} {'spread':>7}  {'ratio':>10}  baseline",
    ]
    for r in report["results"]:
        ratio = f"{r['ratio']:,.1f}x" if r["ratio"] is not None else "-"
        lines.append(
            f"{r['name']:<32} {_rate_text(r['median_rate']) + r['unit'] + '/s':>16} "
            f"{_time_text(r['ns_per_item']):>11} {100 * r['spread']:>6.1f}%  {ratio:>10}  {r['baseline'] or ''}"
        )
    lines.append(f"{report['results'][0]['repeats'] if report['results'] else 0} repeats each (median; spread = "
                 "(max - min) / median); ratio = median rate / the baseline's, in this run")
    lines += format_paths(report)
    return "\n".join(lines)


def format_paths(report: dict[str, Any]) -> list[str]:
    """The per-kernel cases (``name@kernel``) side by side: one line per batch case, one column
    per kernel path (median rate, and its ratio to the scalar path of the same run)."""
    kernels = report["machine"].get("kernels") or []
    paths: dict[str, dict[str, dict[str, Any]]] = {}
    for r in report["results"]:
        name, _, k = r["name"].partition("@")
        if k:
            paths.setdefault(name, {})[k] = r
    if not paths:
        return []
    head = "".join(f" {k:>24}" for k in kernels)
    lines = ["", f"kernel paths (this run; a batch call runs {report['machine'].get('kernel')}):",
             f"{'batch':<24}{head}"]
    for name, by_kernel in paths.items():
        cells = []
        for k in kernels:
            r = by_kernel.get(k)
            if r is None:
                cells.append(f" {'-':>24}")
                continue
            ratio = f" ({r['ratio']:.1f}x)" if r["ratio"] is not None and k != "scalar" else ""
            cells.append(f" {_rate_text(r['median_rate']) + r['unit'] + '/s' + ratio:>24}")
        lines.append(f"{name:<24}{''.join(cells)}")
    return lines


def load_report(path: str) -> dict[str, Any]:
    """Read a report written by ``--json``; a ValueError names what is wrong with it."""

    text = read_text(path)
    where = short_path(path_arg(path))
    data = json_value(text, where)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ValueError(f"{where} is not a cribpiquet bench report (no 'results' list)")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"{where} has schema {short_repr(data.get('schema'))}, this tool writes schema {SCHEMA}")
    for r in data["results"]:
        if not isinstance(r, dict) or not isinstance(r.get("name"), str) or \
                not isinstance(r.get("median_rate"), (int, float)) or r["median_rate"] <= 0:
            raise ValueError(f"{where}: every result needs a name and a positive median_rate")
    return data


def format_compare(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The change of every median rate from ``old`` to ``new`` (positive: faster now)."""
    olds = {r["name"]: r for r in old["results"]}
    news = {r["name"]: r for r in new["results"]}
    machine = old.get("machine")
    cpu = machine.get("cpu", "?") if isinstance(machine, dict) else "?"
    lines = [f"compared with {printable(str(old.get('created', 'an earlier run')))} ({printable(str(cpu))}):",
             f"{'benchmark':<32} {'before':>14} {'after':>14} {'change':>9}"]
    for name, r in news.items():
        if name not in olds:
            lines.append(f"{name:<32} {'-':>14} {_rate_text(r['median_rate']) + r['unit'] + '/s':>14} {'new':>9}")
            continue
        before, after = olds[name]["median_rate"], r["median_rate"]
        change = 100 * (after / before - 1)
        lines.append(f"{name:<32} {_rate_text(before) + r['unit'] + '/s':>14} "
                     f"{_rate_text(after) + r['unit'] + '/s':>14} {change:>+8.1f}%")
    for name in olds:
        if name not in news:
            lines.append(f"{printable(name):<32} {'(not in this run)':>14}")
    return "\n".join(lines)


def main(quick: bool, as_json: bool, out_path: str | None, compare_path: str | None) -> int:
    """What ``cribpiquet bench`` runs; returns the exit status. ``as_json`` prints the report as
    one JSON document on stdout instead of the table (like every ``--json``; the comparison then
    goes to stderr); ``out_path`` also writes it to a file."""
    old = load_report(compare_path) if compare_path else None  # a bad file fails before the run
    report = run_suite(quick, progress=lambda name: print(f"  {name} …", file=sys.stderr, flush=True))
    text = sys.stderr if as_json else sys.stdout
    print(json.dumps(report, ensure_ascii=False) if as_json else format_report(report))
    if out_path:
        with open(out_path, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        print(f"wrote {printable(out_path)}", file=text)
    if old is not None:
        print(format_compare(old, report), file=text)
    return 0
