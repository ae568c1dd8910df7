"""The CLI under hostile and unusual use (issue 19 items 9-12, 20, 21): failed writes, closed
streams, bad bytes, huge numbers, Ctrl-C, --json on every command that prints a result, help that
states every default. Run in subprocesses (the way a user meets them)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from cribpiquet import ArenaResult, __version__, arena, cli, cribbage, piquet

ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D".split()
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS".split()
HAND = "AH KH QH JH TH AS KS QS 7C 8C 7D 8D".split()


def run(*args: str | bytes, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cribpiquet", *args], capture_output=True, timeout=300, **kw)


def one_line(stderr: bytes, *needles: str) -> str:
    text = stderr.decode("utf-8", "replace")
    lines = text.strip("\n").split("\n")
    assert len(lines) == 1 and "Traceback" not in text, text
    for n in needles:
        assert n in lines[0], (n, text)
    return lines[0]


# ------------------------------------------------------------------- item 9: failed plot writes


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ("stats", "--kind", "five-card-hand"),
    ("discard", "5H", "5D", "JC", "QS", "2C", "9H"),
    ("piquet", "exchange", *HAND, "--samples", "0", "--top", "3"),
    ("discard-tables", "--variant", "five-card", "--max-iterations", "1"),
])
def test_a_plot_to_a_full_disk_is_one_line_and_status_1(args):
    pytest.importorskip("matplotlib")
    p = run(*args, "--plot", "/dev/full")
    assert p.returncode == 1, p.stderr
    one_line(p.stderr, "cannot write the plot /dev/full: No space left on device")
    assert b"plot: /dev/full" not in p.stdout


@pytest.mark.parametrize("path,why", [
    ("/nonexistent/dir/x.png", "--plot /nonexistent/dir/x.png: no such directory /nonexistent/dir"),
    ("out.xyz", "--plot out.xyz: matplotlib cannot write .xyz files"),
    ("/", "--plot /: is a directory"),
])
def test_a_plot_path_is_checked_before_the_computation(path, why):
    # item 11: the 10-second six-card tables are not computed first; the message names the path
    pytest.importorskip("matplotlib")
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = run("discard-tables", "--plot", path)
    assert p.returncode == 2 and p.stdout == b""
    one_line(p.stderr, why)
    # The child's CPU time, not the wall time (which a loaded machine stretches many times, issue
    # 30 item 8): starting Python and importing take a second or two, the tables tens of seconds.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime) < 8


# --------------------------------------------------------------------- item 10: closed stdout


def test_a_closed_stdout_is_one_line_and_status_1():
    p = subprocess.run([sys.executable, "-m", "cribpiquet", "stats", "--kind", "five-card-hand"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                       preexec_fn=lambda: os.close(1))
    assert p.returncode == 1
    one_line(p.stderr, "cannot write the output: standard output is closed")


# --------------------------------------------------- item 10/11: bytes, digits, nesting, seeds


def test_a_non_utf8_argument_is_named():
    p = run("score", b"5H", b"5\xff", "5S", "JC", "--starter", "5C")
    assert p.returncode == 2 and p.stdout == b""
    one_line(p.stderr, "argument 3 (5\\xff) is not valid UTF-8 text")


@pytest.mark.parametrize("args,needle", [
    (("arena", "cribbage", "--players", "first", "random", "--games", "9" * 5000),
     "argument --games: must be a whole number, got '9999"),
    (("arena", "cribbage", "--players", "first", "random", "--games", "²"), "argument --games: must be a whole number"),
    (("arena", "cribbage", "--players", "first", "random", "--seed", str(2**64)),
     "argument --seed: must be at most 18446744073709551615, got 18446744073709551616"),
    (("arena", "cribbage", "--players", "first", "random", "--seed", "-1"), "argument --seed: must be at least 0"),
    (("discard-tables", "--tolerance", "1e400"), "argument --tolerance: must be a finite number >= 0, got '1e400'"),
    (("discard-tables", "--tolerance", "nan"), "argument --tolerance: must be a finite number"),
    (("discard-tables", "--max-iterations", "10001"), "argument --max-iterations: must be at most 10000"),
    (("piquet", "exchange", *HAND, "--top", "0"), "argument --top: must be at least 1, got 0"),
    (("play", "cribbage", "--seed", "1" * 40), "argument --seed: must be a whole number"),
])
def test_numbers_are_checked_with_short_messages(args, needle):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == b""
    line = one_line(p.stderr, needle)
    assert len(line) < 160


def test_replay_of_deep_nesting_and_a_huge_int_names_file_and_line(tmp_path):
    f = tmp_path / "r.jsonl"
    header = json.dumps({"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"}, "seed": 1})
    f.write_text(header + "\n" + "[" * 100_000 + "\n", encoding="utf-8")
    p = run("replay", str(f))
    assert p.returncode == 2
    one_line(p.stderr, "r.jsonl line 2: not JSON this tool reads (nested too deeply)")
    f.write_text(header + "\n" + '{"seat": -1, "action": ' + "9" * 5000 + "}\n", encoding="utf-8")
    p = run("replay", str(f))
    assert p.returncode == 2
    one_line(p.stderr, "r.jsonl line 2: not JSON this tool reads (a number too long)")


def test_analysis_arguments_raise_value_and_type_errors():
    # item 10: these were AttributeError and OverflowError
    with pytest.raises(TypeError, match="variant must be a str, got NoneType None"):
        cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=True, variant=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tolerance must be a finite number, got an int of about 401 digits"):
        cribbage.discard_tables("five-card", tolerance=10**400)
    with pytest.raises(TypeError, match="max_iterations must be an int, got float 2.0"):
        cribbage.discard_tables("five-card", max_iterations=2.0)  # type: ignore[arg-type]
    # item 11: a field that is no sort key says which are
    a = piquet.analyze_exchange(" ".join(HAND), samples=0)
    with pytest.raises(ValueError, match=r"cannot sort exchange rows by '__class__': choose one of expected_total, "):
        a.sorted_rows("__class__")
    with pytest.raises(ValueError, match="cannot sort exchange rows by 'discard'"):
        a.sorted_rows("discard")


def test_distributed_discard_tables_checks_the_tolerance_first():
    pytest.importorskip("distributed")
    from cribpiquet import distributed

    with pytest.raises(ValueError, match="tolerance must be a finite number, got an int of about 401 digits"):
        distributed.discard_tables("five-card", tolerance=10**400)
    with pytest.raises(TypeError, match="tolerance must be a number, got str"):
        distributed.discard_tables("five-card", tolerance="0.1")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- item 12: Ctrl-C


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used (user + system, every thread), from /proc; None where
    there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupt_after(seconds: float, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    """SIGINT once the command has worked `seconds` of CPU time (its start and imports included),
    then the result and the wall time from the signal to the exit. CPU time, not wall time: on a
    loaded machine the imports alone can outlast a wall-clock wait (issue 30, item 8)."""
    p = subprocess.Popen([sys.executable, "-m", "cribpiquet", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, encoding="utf-8")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and p.poll() is None:
        used = cpu_seconds(p.pid)
        if used is None:
            time.sleep(seconds)
            break
        if used >= seconds:
            break
        time.sleep(0.02)
    t = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err), time.perf_counter() - t


def test_ctrl_c_in_an_arena_prints_the_games_played_and_exits_130():
    p, took = interrupt_after(4, "arena", "cribbage", "--players", "ismcts:300", "random", "--games", "100000",
                              "--threads", "1")
    assert p.returncode == 130, p.stderr
    line = one_line(p.stderr.encode(), "cribpiquet: interrupted after ")
    played = int(line.split("after ")[1].split(" of")[0].replace(",", ""))
    assert 0 < played < 100_000 and "of 100,000 games (the table above is for those)" in line
    assert f"cribbage: {played:,} games" in p.stdout  # the partial table
    assert took < 3


def test_ctrl_c_in_discard_tables_is_one_line_and_status_130():
    p, took = interrupt_after(3, "discard-tables", "--max-iterations", "10000", "--tolerance", "0")
    assert p.returncode == 130 and p.stdout == ""
    one_line(p.stderr.encode(), "cribpiquet: interrupted after ", "before the tables were finished")
    assert took < 3


def test_an_interrupted_arena_in_blocks_is_the_same_result_as_one_call():
    from cribpiquet import arena

    game = cribbage.Game("five-card")
    whole = arena(game, ["first", "random"], 50, seed=3, progress=False)
    blocks, interrupted = cli.run_arena_in_blocks(game, ["first", "random"], 50, seed=3, threads=None,
                                                  progress=False, target_seconds=0.0)
    assert not interrupted and (blocks.games, blocks.wins, blocks.points) == (whole.games, whole.wins, whole.points)


# ------------------------------------------------------------------------------ item 21: help


def test_version_and_help():
    p = run("--version")
    assert p.returncode == 0 and p.stdout.decode().strip() == f"cribpiquet {__version__}"
    p = run("--help")
    for command in cli.COMMANDS:
        assert command in p.stdout.decode().split("\n")[2], command  # the description names them all


def subparsers(parser: argparse.ArgumentParser, prefix: str = ""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix}{name}", sub
                yield from subparsers(sub, f"{prefix}{name} ")


def test_every_option_states_its_meaning_and_default():
    parser = cli.build_parser()
    seen = 0
    for name, sub in subparsers(parser):
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            assert action.help and len(action.help) > 10, (name, action.dest)
            if action.option_strings and action.default is not False and not action.required:
                rendered = sub.formatter_class(name)._get_help_string(action)
                assert "default" in rendered, (name, action.dest, rendered)
            seen += 1
    assert seen > 40


def test_play_cribbage_defaults_to_the_variant_of_game():
    args = cli.build_parser().parse_args(["play", "cribbage"])
    assert args.variant == cribbage.Game().variant == "six-card"


# ------------------------------------------------------------------------------ item 21: --json


def json_of(*args: str) -> dict:
    p = run(*args, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)  # one document: json.loads refuses trailing text


def test_json_score_stats_discard():
    doc = json_of("score", "5H", "5D", "5S", "JC", "--starter", "5C")
    # exactly the result's own to_dict()
    assert doc == json.loads(json.dumps(cribbage.explain_hand("5H 5D 5S JC", "5C").to_dict()))
    assert doc["total"] == 29 and doc["nobs"] == 1 and len(doc["items"]) == 15
    doc = json_of("stats", "--kind", "five-card-hand")
    assert doc["total"] == 1_082_900 and doc["counts"][20] == 4 and len(doc["counts"]) == 30
    doc = json_of("discard", "5H", "5D", "JC", "QS", "2C", "9H", "--dealer")
    best = doc["rows"][0]
    assert (best["kept"], best["thrown"], best["hand_min"], best["hand_max"]) == (["JC", "5D", "5H", "QS"],
                                                                                   ["2C", "9H"], 10, 21)
    assert round(best["hand"], 3) == 12.674 and len(doc["rows"]) == 15


def test_json_piquet():
    doc = json_of("piquet", "declare", *ELDER)
    assert doc["best_sequence"]["name"] == "quint major" and doc["carte_blanche"] is False
    doc = json_of("piquet", "compare", "--elder", *ELDER, "--dealer", *DEALER)
    assert doc["totals"] == [95, 0] and doc == json.loads(json.dumps(piquet.score_declarations(" ".join(ELDER), " ".join(DEALER)).to_dict()))
    doc = json_of("piquet", "exchange", *HAND, "--samples", "0", "--top", "2")
    assert doc["role"] == "elder" and len(doc["rows"]) == 2  # the rows shown: --sort, --top
    assert doc["rows"][0]["discard"] == ["7C", "8C", "7D", "8D", "TH"]
    assert round(doc["rows"][0]["expected_total"], 3) == 39.789


def test_json_arena_and_discard_tables():
    doc = json_of("arena", "cribbage", "--variant", "five-card", "--players", "first", "random", "--games", "30")
    assert doc["setup"] == "Game('five-card', target=61)" and doc["games"] == 30 and sum(doc["wins"]) == 30
    assert len(doc["ci95"]) == 2 and set(doc) == set(ArenaResult.to_dict(arena(cribbage.Game("five-card"), ["first", "random"], 1, progress=False)))
    doc = json_of("discard-tables", "--variant", "five-card", "--max-iterations", "2")
    assert doc["iterations"] == 2 and len(doc["dealer"]) == 13 and len(doc["dealer"][0]) == 13


def test_json_with_a_plot_keeps_stdout_one_document(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "s.png"
    p = run("stats", "--kind", "five-card-hand", "--json", "--plot", str(png))
    assert p.returncode == 0 and json.loads(p.stdout)["total"] == 1_082_900
    assert p.stderr.decode().strip() == f"plot: {png}" and png.read_bytes().startswith(b"\x89PNG")


# ------------------------------------------------------------------- item 20: exchange --sort


def test_exchange_sort_and_the_plot_show_net(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "e.png"
    p = run("piquet", "exchange", *HAND, "--samples", "400", "--top", "3", "--sort", "p30", "--plot", str(png))
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode()
    assert out.splitlines()[0].endswith("; sorted by total_30") and "first by p30: " in out
    assert png.read_bytes().startswith(b"\x89PNG")
    a = piquet.analyze_exchange(" ".join(HAND), samples=400)
    fig = a._plot(top=4, sort="net")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts[-1] == f"net {a.sorted_rows('net')[0].net.value:+.1f}"  # the top row is drawn last
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert labels == ["point", "sequences", "sets", "repique"]
    # the legend sits below the bars, not over them
    assert fig.axes[0].get_legend()._loc == 9 and fig.axes[0].get_legend().get_bbox_to_anchor() is not None


def test_discard_table_cards_by_rank_in_the_terminals_notation():
    # item 18: the same notation as play: symbols where the stream shows them, else ASCII; by rank
    p = run("discard", "5H", "5D", "JC", "QS", "2C", "9H", "--dealer", env=dict(os.environ, PYTHONIOENCODING="ascii"))
    lines = p.stdout.decode("ascii").splitlines()
    assert lines[0].startswith("six-card, dealer (own crib): 2C 5D 5H 9H JC QS")
    assert lines[2].startswith("5D 5H JC QS  2C 9H  12.674   10   21")
    p = run("discard", "5H", "5D", "JC", "QS", "2C", "9H", "--dealer", env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert p.stdout.decode().splitlines()[2].startswith("5♦ 5♥ J♣ Q♠  2♣ 9♥  12.674")
