"""Issue 30 items 2, 5 and 6: control characters from files never reach the terminal; seats and
flags accept what the rest of the API accepts (numpy ints and bools), by one rule; messages in
plain text naming the argument. (Item 1, the saved tables, is in tests/test_tables_file.py; the
fuzz of all four is tests/test_fuzz_hardening.py.)"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cribpiquet import bots, cli, cribbage, piquet, play, replay_page, solve
from cribpiquet._util import bool_arg, printable, seat_arg

NUMPY_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
CONTROL = "\x1b]0;pwned\x07\x1b[2J\r\x08\x9b\x00"
ARGV_CONTROL = CONTROL[:-1]  # a command-line argument holds no null character


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cribpiquet", *args], capture_output=True, text=True, timeout=300,
                          encoding="utf-8", errors="surrogateescape")  # fmt: skip


def no_control(text: str) -> None:
    """No character a terminal acts on but the line ends."""
    bad = [c for c in text if not c.isprintable() and c != "\n"]
    assert not bad, (bad[:5], text[:300])


def write_record(path: Path, header: dict[str, Any], rows: list[dict[str, Any]] | None = None) -> Path:
    """A record of ``header`` and the first legal action of each move (five-card cribbage, the
    first 6 moves) or the given rows."""
    if rows is None:
        state = play.make_game("cribbage", {"variant": "five-card"}).new_initial_state()
        rows = []
        for _ in range(6):
            a = state.legal_actions()[0]
            rows.append({"seat": state.current_player(), "action": a, "text": state.action_to_string(a)})
            state.apply_action(a)
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *rows]), encoding="utf-8")
    return path


HEADER = {"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"}, "seed": 1, "bot": "first"}


# ------------------------------------------------------------ item 2: control characters


def test_printable_escapes_what_a_terminal_acts_on_like_repr():
    assert printable("5H 10♥ é — ok") == "5H 10♥ é — ok"  # text is left alone
    assert printable("a\x1b[2Jb\x07\r\n\t") == "a\\x1b[2Jb\\x07\\r\\n\\t"
    assert printable("\x9b\u202e\udcff\x00\x7f") == "\\x9b\\u202e\\udcff\\x00\\x7f"
    assert printable("C:\\dir") == "C:\\dir"  # a backslash is not escaped: messages stay readable


def test_replay_prints_the_header_with_control_characters_escaped(tmp_path: Path):
    header = {**HEADER, "seed": f"1{CONTROL}", "bot": f"first{CONTROL}",
              "options": {"variant": "five-card", f"x{CONTROL}": f"y{CONTROL}"}}  # fmt: skip
    path = write_record(tmp_path / "r.jsonl", header)
    r = run("replay", str(path))
    assert r.returncode == 0, r.stderr
    no_control(r.stdout + r.stderr)
    first = r.stdout.split("\n")[0]
    # the title is made from the record (cribpiquet.records: the seed and options as the game
    # reads them); the bot's name is the file's text, shown escaped
    assert "first\\x1b]0;pwned\\x07\\x1b[2J\\r" in first, first
    out = io.StringIO()  # the Python API prints the same
    play.replay(str(path), out)
    no_control(out.getvalue())


@pytest.mark.parametrize("row,needle", [
    ({"seat": 0, "action": f"5{CONTROL}", "text": "x"}, "line 2: action 5\\x1b]0;pwned"),
    ({"seat": -1, "action": 0, "text": f"bogus{CONTROL}"}, "the record says bogus\\x1b]0;pwned"),
])  # fmt: skip
def test_replay_echoes_a_bad_row_escaped(tmp_path: Path, row: dict[str, Any], needle: str):
    state = play.make_game("cribbage", {"variant": "five-card"}).new_initial_state()
    if row["action"] == 0:
        row = {**row, "action": state.legal_actions()[0]}
    path = write_record(tmp_path / "r.jsonl", HEADER, [row])
    for args in (("replay", str(path)), ("replay", str(path), "--html", str(tmp_path / "o.html"))):
        r = run(*args)
        assert r.returncode == 2
        no_control(r.stdout + r.stderr)  # the header line may come first, on stdout
        assert r.stderr.count("\n") == 1 and needle in r.stderr, r.stderr


def test_every_cli_message_that_echoes_input_escapes_it(tmp_path: Path):
    # argparse's own messages (an unknown option, a bad choice), a path in --plot, a record path
    for args in (("score", "5H", "5D", "5S", "JC", "--starter", "5C", f"--x{ARGV_CONTROL}"),
                 ("stats", "--kind", f"k{ARGV_CONTROL}"),
                 ("discard", "5H", "5D", "JC", "QS", "2C", "--variant", "five-card", "--tables",
                  str(tmp_path / f"t{ARGV_CONTROL}.npz")),
                 ("replay", str(tmp_path / f"r{ARGV_CONTROL}.jsonl")),
                 ("score", f"5H{ARGV_CONTROL}", "--starter", "5C")):  # fmt: skip
        r = run(*args)
        assert r.returncode in (1, 2) and r.stderr.count("\n") == 1, (args, r.stderr)
        no_control(r.stderr)
        assert "\\x1b" in r.stderr or "\\u{1b}" in r.stderr, r.stderr  # Python's escapes, or the core's


def test_bench_compare_escapes_the_old_file_and_survives_a_bad_machine():
    from cribpiquet.bench import format_compare

    old = {"created": f"today{CONTROL}", "machine": "not a dict",
           "results": [{"name": f"gone{CONTROL}", "median_rate": 1.0, "unit": "x"}]}  # fmt: skip
    new = {"results": [{"name": "now", "median_rate": 2.0, "unit": "x"}]}
    text = format_compare(old, new)
    no_control(text)
    assert "today\\x1b]0;pwned" in text and "(?)" in text and "gone\\x1b" in text


def test_play_echoes_typed_input_escaped():
    game = cribbage.Game("five-card")
    lines: list[str] = []
    typed = iter([f"zz{CONTROL}", "quit", "y"])
    recorder = play.Recorder(None, {})
    session = play.Session(game, bots.First(), bots.First(), 1, recorder, read=lambda _: next(typed),
                           write=lines.append)  # fmt: skip
    assert session.run() == 0
    echoed = [ln for ln in lines if ln.startswith("? ")]
    assert echoed and all("\\x1b" in ln or "\\u{1b}" in ln for ln in echoed), lines
    for ln in echoed:
        no_control(ln)


# ----------------------------------------------------------- item 5: seats and flags, one rule


def _dealt_state() -> Any:
    s = cribbage.Game("five-card").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    return s


@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_numpy_ints_are_seats_wherever_ints_are(kind: Any, tmp_path: Path):
    s = _dealt_state()
    for seat in (0, 1):
        assert s.render(player=kind(seat)) == s.render(player=seat)
        assert s.legal_actions(kind(seat)) == s.legal_actions(seat)
    p = piquet.Game("russian", scope="deal").new_initial_state()
    assert p.render(player=kind(1)) == p.render(player=1)
    path = write_record(tmp_path / "r.jsonl", HEADER)
    assert replay_page.replay_html(str(path), seat=kind(1)) == replay_page.replay_html(str(path), seat=1)


@pytest.mark.parametrize("bad", [True, False, np.True_, np.False_, "0", 0.0, np.float64(1.0), None])
def test_bools_and_non_ints_are_refused_as_seats_everywhere_alike(bad: Any, tmp_path: Path):
    s = _dealt_state()
    if bad is not None:  # None is "every seat" for render and "the player to move" for legal_actions
        with pytest.raises(TypeError, match="player must be"):
            s.legal_actions(bad)
        with pytest.raises(TypeError, match="player must be a seat 0..1 or None"):
            s.render(player=bad)
        with pytest.raises(TypeError, match="seat must be a seat 0..1 or None"):
            replay_page.replay_html(str(write_record(tmp_path / "r.jsonl", HEADER)), seat=bad)
    for n in (2, -1, 2**70, np.int64(5)):
        with pytest.raises(ValueError, match=r"player must be a seat 0\.\.1 or None, got "):
            s.render(player=n)


def test_numpy_bools_are_flags_wherever_bools_are():
    t, f = np.True_, np.False_
    assert repr(bots.PIMC(inference=t)) == repr(bots.PIMC(inference=True))
    assert repr(bots.PIMC(inference=f)) == repr(bots.PIMC(inference=False))
    assert cribbage.score_hand("5H 5D 5S JC", "5C", crib=t) == cribbage.score_hand("5H 5D 5S JC", "5C", crib=True)
    assert repr(cribbage.Game("six-card", lurch=t)) == repr(cribbage.Game("six-card", lurch=True))
    a = cribbage.analyze_discard("5H 5D JC QS 2C", dealer=t, variant="five-card")
    assert a.to_dict() == cribbage.analyze_discard("5H 5D JC QS 2C", dealer=True, variant="five-card").to_dict()
    hands = [[30, 17, 43, 10, 1]]
    got = cribbage.analyze_discard_batch(hands, t, variant="five-card")
    want = cribbage.analyze_discard_batch(hands, True, variant="five-card")
    assert all((got[k] == want[k]).all() for k in want)
    init = cribbage.DiscardTables.initial("five-card", flushes=f)
    assert init.flushes is False and (init.pair_weights(t) == init.pair_weights(True)).all()
    tables = cribbage.discard_tables("five-card", model="thrown-only", max_iterations=1, progress=f, flushes=t)
    assert tables is cribbage.discard_tables("five-card", model="thrown-only", max_iterations=1, progress=False)
    ex = piquet.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", samples=0, progress=f)
    assert ex.rows == piquet.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", samples=0, progress=False).rows
    from cribpiquet import arena

    r = arena(cribbage.Game("five-card"), ["first", "random"], 2, seed=1, progress=f)
    assert r.games == 2


@pytest.mark.parametrize("bad", [1, 0, np.int64(1), "True", 1.0, [True]])
def test_ints_and_others_are_refused_as_flags_everywhere_alike(bad: Any):
    calls = [lambda: bots.PIMC(inference=bad), lambda: cribbage.score_hand("5H 5D 5S JC", "5C", crib=bad),
             lambda: cribbage.DiscardTables.initial("five-card", flushes=bad),
             lambda: cribbage.discard_tables("five-card", progress=bad),
             lambda: cribbage.analyze_discard("5H 5D JC QS 2C", dealer=bad, variant="five-card"),
             lambda: bool_arg(bad, "flag")]  # fmt: skip
    for call in calls:
        with pytest.raises(TypeError, match="must be a bool"):
            call()


def test_numbers_refuse_numpy_bools_too():
    for call in (lambda: bots.PIMC(time_limit=np.True_), lambda: bots.ISMCTS(exploration=np.False_),
                 lambda: bots.PIMC(seed=np.True_), lambda: seat_arg(np.True_, "seat", 2)):  # fmt: skip
        with pytest.raises(TypeError):
            call()


# ---------------------------------------------------- item 6: plain-text messages, named


@pytest.mark.parametrize("call,exc,message", [
    (lambda: _dealt_state().render(player="0"), TypeError, "player must be a seat 0..1 or None, got str '0'"),
    (lambda: _dealt_state().render(player="<b>&"), TypeError, "got str '<b>&'"),
    (lambda: bots.PIMC(time_limit=10**400), ValueError, "time_limit is too large for a number, got an int of 1329 bits"),
    (lambda: bots.ISMCTS(exploration=-(10**400)), ValueError, "exploration is too large for a number"),
    (lambda: bots.PIMC(objective="\udcff"), ValueError, "objective must be text, got '\\udcff'"),
    (lambda: solve(_dealt_state(), objective="\udcff"), ValueError, "objective must be text, got '\\udcff'"),
    (lambda: cribbage.Game("\udcff"), ValueError, "variant must be text"),
    (lambda: piquet.Game("russian", scope="x\udcff"), ValueError, "scope must be text"),
    (lambda: piquet.Game("\udcff"), ValueError, "rules must be text"),
    (lambda: cribbage.score_hand("5H 5D 5S \udcff", "5C"), ValueError, "cards must be text"),
    (lambda: cribbage.Game("five-card").deserialize_state("\udcff"), ValueError, "text must be text"),
    (lambda: _dealt_state().string_to_action("\udcff"), ValueError, "action text must be text"),
    (lambda: piquet.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", role="\udcff", samples=0),
     ValueError, "role must be text"),
    (lambda: cribbage.DiscardTables.initial("five-card").save("\x00.npz"), ValueError,
     "path must not hold a null character, got '\\x00.npz'"),
    (lambda: play.replay("r\x00.jsonl", io.StringIO()), ValueError, "path must not hold a null character"),
    (lambda: replay_page.write_replay_html("r.jsonl", "o\x00.html"), ValueError, "out must not hold a null character"),
    (lambda: cribbage.DiscardTables.load("\ud800.npz"), ValueError,
     "path is not a file name this system can encode, got '\\ud800.npz'"),
    (lambda: play.Recorder("g\x00.jsonl", {}), ValueError, "record must not hold a null character"),
])  # fmt: skip
def test_messages_are_plain_text_naming_the_argument(call: Any, exc: type, message: str):
    with pytest.raises(exc) as e:
        call()
    text = str(e.value)
    assert message in text, text
    assert "&#x27;" not in text and "&lt;" not in text and "&amp;" not in text


def test_replay_html_seat_message_is_plain_text(tmp_path: Path):
    path = write_record(tmp_path / "r.jsonl", HEADER)
    with pytest.raises(TypeError, match="^seat must be a seat 0..1 or None, got str '1'$"):
        replay_page.replay_html(str(path), seat="1")
    with pytest.raises(ValueError, match="^seat must be a seat 0..1 or None, got 2$"):
        replay_page.replay_html(str(path), seat=2)


def test_cli_main_in_process_escapes_too(capsys: Any, tmp_path: Path):
    # the same helper when main() is called from Python (no subprocess)
    assert cli.main(["replay", str(tmp_path / f"no{ARGV_CONTROL}.jsonl")]) == 2
    err = capsys.readouterr().err
    no_control(err)
    assert "no\\x1b]0;pwned\\x07" in err
