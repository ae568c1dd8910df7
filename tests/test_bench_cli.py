"""``cribpiquet bench`` (issue 13 item 3): the quick suite runs and writes the documented JSON, the
comparison prints the computed changes, and the naive baseline scorer is right."""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import math
import random

import numpy as np
import pytest

from cribpiquet import bench, cribbage
from cribpiquet.cli import main

RESULT_KEYS = {
    "name", "what", "unit", "items", "repeats", "seconds", "median_rate", "min_rate", "max_rate", "spread",
    "ns_per_item", "baseline", "ratio",
}
MACHINE_KEYS = {"cpu", "cores", "threads", "python", "numpy", "cribpiquet", "platform", "openspiel", "kernel",
                "kernels"}
# The batch cases run once per kernel path this CPU has (issue 33), as NAME@kernel.
PATH_CASES = ["batch_uint8", "batch_int64", "batch_crib_uint8", "batch_three_uint8", "explain_batch_uint8",
              "declarations_batch"]
# Every suite case a user would look for (the list); openspiel_cribbage only when installed.
SUITE = {
    "naive_python_score", "score_hand_ids", "score_hand_strings", "score_hand_batch_uint8", "score_hand_batch_int16",
    "score_hand_batch_int32", "score_hand_batch_int64", "hand_distribution", "peg_points_batch",
    "piquet_score_declarations_batch", "cribbage_simulate_1_thread", "cribbage_simulate_all_threads",
    "piquet_simulate_1_thread",
}


def run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def fake_report(rates: dict[str, float]) -> dict:
    return {
        "schema": bench.SCHEMA, "tool": "cribpiquet bench", "quick": True, "created": "2026-01-01T00:00:00+00:00",
        "machine": {"cpu": "Old CPU"},
        "results": [{"name": n, "unit": "shows", "median_rate": r} for n, r in rates.items()],
    }


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One `bench --quick --out NEW --compare OLD` run (the only time the suite runs here)."""
    d = tmp_path_factory.mktemp("bench")
    old = d / "old.json"
    old.write_text(json.dumps(fake_report({"score_hand_batch_uint8": 1e8, "hand_distribution": 5e8,
                                           "a_benchmark_since_removed": 1.0})))
    new = d / "new.json"
    status, out, err = run_main("bench", "--quick", "--out", str(new), "--compare", str(old))
    return status, out, err, json.loads(new.read_text())


def test_quick_run_writes_the_documented_schema(quick_run):
    status, out, _, report = quick_run
    assert status == 0 and "wrote " in out
    assert report["schema"] == bench.SCHEMA == 1 and report["tool"] == "cribpiquet bench" and report["quick"]
    assert set(report["machine"]) == MACHINE_KEYS
    m = report["machine"]
    assert m["cores"] >= 1 and m["threads"] >= 1 and m["cpu"] and m["python"].count(".") == 2
    names = [r["name"] for r in report["results"]]
    assert SUITE <= set(names) and len(names) == len(set(names))
    for r in report["results"]:
        assert set(r) == RESULT_KEYS, r["name"]
        assert r["repeats"] == 3 == len(r["seconds"]) and all(t > 0 for t in r["seconds"])
        rates = sorted(r["items"] / t for t in r["seconds"])
        assert 0 < r["min_rate"] <= r["median_rate"] <= r["max_rate"]
        assert math.isclose(r["min_rate"], rates[0]) and math.isclose(r["max_rate"], rates[-1])
        assert math.isclose(r["median_rate"], rates[1])
        assert math.isclose(r["spread"], (rates[-1] - rates[0]) / rates[1])
        assert math.isclose(r["ns_per_item"], 1e9 / r["median_rate"])
        assert f"{r['name']:<32}" in out  # one table row per benchmark


def test_ratios_are_the_rates_divided(quick_run):
    report = quick_run[3]
    by_name = {r["name"]: r for r in report["results"]}
    with_ratio = [r for r in report["results"] if r["ratio"] is not None]
    assert {r["name"] for r in with_ratio} >= {"score_hand_ids", "score_hand_batch_int64", "hand_distribution"}
    for r in with_ratio:
        base = by_name[r["baseline"]]
        assert math.isclose(r["ratio"], r["median_rate"] / base["median_rate"])
    # Sanity: the native batch beats the pure-Python scorer by far, on any machine.
    assert by_name["score_hand_batch_uint8"]["ratio"] > 100
    assert by_name["naive_python_score"]["ratio"] is None


def test_every_kernel_path_is_measured_and_shown_side_by_side(quick_run):
    from cribpiquet import available_kernels, kernel

    _, out, _, report = quick_run
    m = report["machine"]
    assert m["kernels"] == available_kernels() and m["kernel"] == kernel()
    assert f"kernel: {kernel()} (this CPU has: {', '.join(available_kernels())})" in out
    by_name = {r["name"]: r for r in report["results"]}
    lines = out.splitlines()
    table = lines[lines.index(next(l for l in lines if l.startswith("kernel paths"))) + 2:]
    for case in PATH_CASES:
        scalar = by_name[f"{case}@scalar"]
        assert scalar["ratio"] is None or math.isclose(scalar["ratio"], 1.0)
        row = next(l for l in table if l.startswith(case + " "))
        for k in available_kernels():
            r = by_name[f"{case}@{k}"]
            assert r["baseline"] == f"{case}@scalar" and math.isclose(r["ratio"], r["median_rate"] / scalar["median_rate"])
            assert bench._rate_text(r["median_rate"]) in row
    # The vectorised paths beat scalar on the uint8 hands by far even on a busy machine.
    for k in available_kernels()[1:]:
        assert by_name[f"batch_uint8@{k}"]["ratio"] > 1.5


def test_compare_prints_the_changes_against_the_old_file(quick_run):
    _, out, _, report = quick_run
    by_name = {r["name"]: r for r in report["results"]}
    assert "compared with 2026-01-01T00:00:00+00:00 (Old CPU)" in out
    for name, old_rate in [("score_hand_batch_uint8", 1e8), ("hand_distribution", 5e8)]:
        change = 100 * (by_name[name]["median_rate"] / old_rate - 1)
        line = next(l for l in out.splitlines()[out.splitlines().index(next(
            l for l in out.splitlines() if l.startswith("compared with"))):] if l.startswith(name))
        assert line.endswith(f"{change:+.1f}%"), line
    assert "a_benchmark_since_removed" in out and "(not in this run)" in out
    assert any(l.startswith("peg_points_batch") and l.endswith("new") for l in out.splitlines())


def test_format_compare_with_known_numbers():
    old = fake_report({"a": 100.0, "b": 200.0, "c": 3e6})
    new = fake_report({"a": 150.0, "b": 100.0, "c": 3e6})
    lines = bench.format_compare(old, new).splitlines()
    assert lines[2].startswith("a ") and lines[2].endswith("+50.0%")
    assert lines[3].startswith("b ") and lines[3].endswith("-50.0%")
    assert lines[4].endswith("+0.0%") and "3.0 Mshows/s" in lines[4]


def test_a_bad_compare_file_fails_before_the_run(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    status, out, err = run_main("bench", "--quick", "--compare", str(bad))
    assert status == 2 and out == "" and "bad.json: not JSON (Expecting property name" in err
    # issue 19 item 10: nesting too deep for the parser, and an int over Python's digit limit
    bad.write_text("[" * 100_000)
    status, out, err = run_main("bench", "--quick", "--compare", str(bad))
    assert status == 2 and err.endswith("bad.json: not JSON this tool reads (nested too deeply)\n"), err
    bad.write_text('{"schema": ' + "7" * 5000 + "}")
    status, out, err = run_main("bench", "--quick", "--compare", str(bad))
    assert status == 2 and err.endswith("bad.json: not JSON this tool reads (a number too long)\n"), err
    bad.write_text(json.dumps({"schema": 99, "results": []}))
    assert "schema 99" in run_main("bench", "--compare", str(bad))[2]
    bad.write_text(json.dumps(fake_report({"x": -1.0})))
    assert "positive median_rate" in run_main("bench", "--compare", str(bad))[2]
    assert "cannot read" in run_main("bench", "--compare", str(tmp_path / "missing.json"))[2]


def test_naive_scorer_examples():
    assert doctest.testmod(bench).failed == 0
    assert bench.naive_score([10, 17, 30, 43], 4) == 29  # J♣ 5♦ 5♥ 5♠ + 5♣
    assert bench.naive_score([29, 30, 37], 44) == 10  # the rules' 4♥ 5♥ Q♥ + 6♠: 15s, a run, a flush
    # A 2 3 4♣ + 5♦: one fifteen (all five, 2), a run of five (5), a hand flush of four (4).
    assert bench.naive_score([0, 1, 2, 3], 17) == 11
    # The same as a crib: no flush without the starter's suit.
    assert bench.naive_score([0, 1, 2, 3], 17, crib=True) == 7


def test_naive_scorer_agrees_with_the_library_on_random_shows():
    rnd = random.Random(13)
    for width, crib in [(4, False), (4, True), (3, False)]:
        rows = [rnd.sample(range(52), width + 1) for _ in range(1500)]
        hands = np.array([r[:width] for r in rows], dtype=np.int64)
        starters = np.array([r[width] for r in rows], dtype=np.int64)
        want = cribbage.score_hand_batch(hands, starters, crib=crib).tolist()
        assert [bench.naive_score(r[:width], r[width], crib=crib) for r in rows] == want
    # Every single-suit hand of four with a starter of its suit and of another (flush and nobs).
    rows = [list(h) + [s] for h in [(0, 4, 9, 10), (13, 14, 15, 23), (26, 36, 37, 38)] for s in range(52) if s not in h]
    for crib in (False, True):
        want = cribbage.score_hand_batch(np.array([r[:4] for r in rows]), np.array([r[4] for r in rows]), crib=crib)
        assert [bench.naive_score(r[:4], r[4], crib=crib) for r in rows] == want.tolist()


def test_json_prints_one_document_on_stdout_like_every_json(monkeypatch, tmp_path):
    """``bench --json`` prints the report on stdout (no table); ``--out FILE`` writes the same
    document to a file; with ``--compare`` the comparison goes to stderr (the suite is replaced
    by a known report: the quick run above is the one real run)."""
    report = fake_report({"score_hand_batch_uint8": 2e8})
    monkeypatch.setattr(bench, "run_suite", lambda quick, progress: report)
    status, out, err = run_main("bench", "--json")
    assert status == 0 and json.loads(out) == report and err == ""
    old = tmp_path / "old.json"
    old.write_text(json.dumps(fake_report({"score_hand_batch_uint8": 1e8})))
    saved = tmp_path / "saved.json"
    status, out, err = run_main("bench", "--json", "--out", str(saved), "--compare", str(old))
    assert status == 0 and json.loads(out) == report == json.loads(saved.read_text())
    assert f"wrote {saved}" in err and "+100.0%" in err
