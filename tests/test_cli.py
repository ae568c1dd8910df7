"""The ``cribpiquet`` command line tool (issue 2 item 8), run both as ``python -m cribpiquet`` in a
subprocess and through ``cribpiquet.cli.main`` in-process."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from cribpiquet.cli import main

READING_29 = (
    "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
    "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
    "and one for his nobs is 29"
)

# rules §2, S. Lumetta's table (score -> count over 12,994,800 hands)
PUBLISHED_HAND = [
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224, 388740, 51680,
    317340, 19656, 90100, 9168, 58248, 11196, 2708, 0, 8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
]  # fmt: skip


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cribpiquet", *args], capture_output=True, text=True, timeout=120, encoding="utf-8"
    )


def assert_one_line_error(stderr: str, *needles: str) -> None:
    lines = stderr.strip("\n").split("\n")
    assert len(lines) == 1, stderr
    assert lines[0].startswith("cribpiquet: error: "), stderr
    assert "Traceback" not in stderr
    for needle in needles:
        assert needle in lines[0], (needle, stderr)


# ------------------------------------------------------------------------------------- score


def test_score_29_subprocess():
    # rules §2: J♣ 5♦ 5♥ 5♠ + 5♣ = 29
    p = run("score", "5H", "5D", "5S", "JC", "--starter", "5C")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [READING_29, "total: 29"]
    assert p.stderr == ""


def test_score_29_main(capsys):
    assert main(["score", "5H", "5D", "5S", "JC", "--starter", "5C"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [READING_29, "total: 29"]
    assert err == ""


def test_score_source_example_main(capsys):
    # rules §2: 4H 5H QH + 6S = 10 (15s 4, run 3, flush 3); symbols and lower case accepted
    assert main(["score", "4♥", "5h", "QH", "--starter", "6s"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == [
        "fifteen two, fifteen four, and a run of three is seven, and a flush of three is 10",
        "total: 10",
    ]


def test_score_crib_subprocess():
    # rules §2: crib 2♣ 4♣ 6♣ 8♣ + K♦ = 0; the same cards as a hand make a flush of four.
    p = run("score", "2C", "4C", "6C", "8C", "--starter", "KD", "--crib")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "total: 0"
    p = run("score", "2C", "4C", "6C", "8C", "--starter", "KD")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["a flush of four is 4", "total: 4"]


def test_score_crib_main(capsys):
    # crib 2♣ 4♣ 6♣ 8♣ + K♣: five-card crib flush (even pips: no fifteens) = 5
    assert main(["score", "2C", "4C", "6C", "8C", "--starter", "KC", "--crib"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == ["a flush of five is 5", "total: 5"]


# ------------------------------------------------------------------------------------- stats


def parse_table(out: str) -> dict[int, tuple[int, float]]:
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+)\s+([\d,]+)\s+([\d.]+)%\s*#*\s*$", line)
        if m:
            rows[int(m.group(1))] = (int(m.group(2).replace(",", "")), float(m.group(3)))
    return rows


def test_stats_five_card_hand_subprocess():
    p = run("stats", "--kind", "five-card-hand")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "1,082,900" in out.splitlines()[0]  # C(52,3) * 49 shows
    rows = parse_table(out)
    assert sorted(rows) == list(range(30))
    counts = [rows[s][0] for s in range(30)]
    assert sum(counts) == 1_082_900
    assert counts[20] == 4  # three fives + the fourth five (see test_cribbage_show.py)
    assert sum(counts[16:]) == 4
    for s in range(30):
        assert rows[s][1] == pytest.approx(100 * counts[s] / 1_082_900, abs=0.0006)
    mean = sum(s * c for s, c in enumerate(counts)) / 1_082_900
    assert f"mean: {mean:.7f}" in out.splitlines()
    assert re.search(r"^time: [\d.]+ s, [\d,]+ hands/s$", out, re.M)


def test_stats_five_card_hand_main_matches_enumeration(capsys):
    from cribpiquet.cribbage import hand_distribution

    assert main(["stats", "--kind", "five-card-hand"]) == 0
    out, err = capsys.readouterr()
    rows = parse_table(out)
    assert [rows[s][0] for s in range(30)] == hand_distribution("five-card-hand").tolist()
    assert err == ""


def test_stats_default_is_the_published_hand_table():
    p = run("stats")
    assert p.returncode == 0, p.stderr
    rows = parse_table(p.stdout)
    assert [rows[s][0] for s in range(30)] == PUBLISHED_HAND
    assert "12,994,800" in p.stdout.splitlines()[0]
    assert "mean: 4.7691523" in p.stdout.splitlines()  # rules §2


def test_stats_crib_main(capsys):
    assert main(["stats", "--kind", "crib"]) == 0
    out, _ = capsys.readouterr()
    rows = parse_table(out)
    assert sum(rows[s][0] for s in range(30)) == 12_994_800
    assert rows[29][0] == 4  # the 29 hand has no flush: the crib rule does not change it


def test_stats_bar_is_longest_for_the_most_common_score(capsys):
    assert main(["stats", "--kind", "hand"]) == 0
    out, _ = capsys.readouterr()
    bars = {int(m.group(1)): len(m.group(2)) for m in re.finditer(r"^\s*(\d+)\s+[\d,]+\s+[\d.]+%\s*(#*)$", out, re.M)}
    # rules §2: 4 (2,855,676) is the most common score, 19 never happens
    assert max(bars, key=bars.get) == 4
    assert bars[19] == 0


# -------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args,needles",
    [
        (["score", "5H", "5D", "5S", "1C", "--starter", "5C"], ['"1C"']),
        (["score", "5H", "5D", "5S", "JC", "--starter", "5X"], ['"5X"']),
        (["score", "5H", "--starter", "5C"], ["got 1"]),
        (["score", "5H", "5D", "5S", "JC", "2C", "--starter", "5C"], ["got 5"]),
        (["score", "5H", "5D", "5S", "--starter", "5C", "--crib"], ["crib", "got 3"]),
        (["score", "5H", "5H", "5S", "JC", "--starter", "5C"], ["duplicate card 5H"]),
        (["score", "5H", "5D", "5S", "JC", "--starter", "5H"], ["duplicate card 5H"]),
    ],
)
def test_bad_cards_one_line_exit_2_subprocess(args, needles):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert_one_line_error(p.stderr, *needles)


@pytest.mark.parametrize(
    "args,needles",
    [
        (["score", "5H", "5D", "5S", "JC"], ["--starter"]),
        (["stats", "--kind", "bogus"], ["bogus"]),
        (["deal"], ["deal"]),
    ],
)
def test_bad_usage_one_line_exit_2_subprocess(args, needles):
    p = run(*args)
    assert p.returncode == 2
    assert_one_line_error(p.stderr, *needles)


def test_bare_command_prints_the_usage_and_every_command():
    # issue 19 item 21 (it was one line, "the following arguments are required: command")
    p = run()
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("usage: cribpiquet [-h] [--version] COMMAND ...")
    for command in ("score", "stats", "discard", "discard-tables", "piquet", "play", "replay", "arena", "bench"):
        assert re.search(rf"^    {command}\b", p.stderr, re.M), command
    assert "Traceback" not in p.stderr


def test_bad_card_main_returns_2(capsys):
    assert main(["score", "5H", "5D", "5S", "1C", "--starter", "5C"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, '"1C"')


def test_bad_usage_main_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["stats", "--kind", "bogus"])
    assert e.value.code == 2
    _, err = capsys.readouterr()
    assert_one_line_error(err, "bogus")


# --------------------------------------------------------------- output failures (issue 8.8)
import os  # noqa: E402

ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D".split()
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS".split()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ("score", "5H", "5D", "5S", "JC", "--starter", "5C"),
        ("stats", "--kind", "five-card-hand"),
        ("piquet", "compare", "--elder", *ELDER, "--dealer", *DEALER),
    ],
)
def test_a_full_disk_is_one_line_and_status_1(args):
    with open("/dev/full", "w") as full:
        p = subprocess.run(
            [sys.executable, "-m", "cribpiquet", *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120
        )
    assert p.returncode == 1, p.stderr
    assert_one_line_error(p.stderr, "cannot write the output", "No space left on device")


@pytest.mark.parametrize(
    "args", [("stats", "--kind", "five-card-hand"), ("score", "5H", "5D", "5S", "JC", "--starter", "5C")]
)
def test_a_closed_pipe_exits_quietly(args):
    """Like `cribpiquet stats | head -1` once head is gone: the reading end is closed before the
    tool writes (so every write fails with EPIPE)."""
    read, write = os.pipe()
    os.close(read)
    try:
        p = subprocess.run(
            [sys.executable, "-m", "cribpiquet", *args], stdout=write, stderr=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(write)
    assert p.stderr == b"" and p.returncode in (0, 141), p.stderr.decode()


def test_an_ascii_terminal_gets_escaped_text_not_an_input_error():
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    p = subprocess.run(
        [sys.executable, "-m", "cribpiquet", "piquet", "compare", "--elder", *ELDER, "--dealer", *DEALER],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("ascii")  # every byte is ASCII
    assert out.startswith("Point of six \\u2014 good, 6 (elder);"), out
    assert "totals: elder 95, dealer 0" in out
    assert p.stderr == b""
