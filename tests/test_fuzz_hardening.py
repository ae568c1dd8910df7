"""Fixed-seed fuzz of issue 30 items 1, 2, 5 and 6 (beside tests/test_fuzz.py, with its value
pools, its byte mutations and its address-space guard):

* item 1: saved discard tables mutated byte by byte and member by member (garbage dtypes, shapes
  and values, members dropped, added and renamed); ``DiscardTables.load`` either returns tables
  whose every number is a number of points, and which analyze, display and serialize as finite,
  or raises one ``ValueError`` of one line naming the file and a member (or saying the file is
  not such tables), in bounded time;
* item 2: game records with control characters in every header field and in bad rows, and
  command lines with control characters in every argument, run through ``cli.main``: nothing a
  terminal acts on reaches stdout or stderr, an error is one line;
* item 5: seats and flags of every kind (Python and numpy ints of every dtype, Python and numpy
  bools, strs, floats, int subclasses, ``__index__`` objects): every API that takes a seat (or a
  flag) accepts or refuses a value alike, and an accepted numpy value gives the Python value's
  result;
* item 6: hostile text (HTML specials, lone surrogates, null and control characters) and huge
  numbers at the text and number arguments: only ``ValueError``/``TypeError``, in plain text
  (no HTML escaping), naming the argument.

Budget: ``derandomize=True`` and fixed example counts, well under a minute in all.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import time
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cribpiquet import bots, cli, cribbage, piquet, replay_page, solve
from cribpiquet._discard import TABLES_MEMBERS

from fuzz_mutate import mutate_bytes
from fuzz_values import BIG_INTS, SPECIAL_FLOATS, Indexable, IntSub
from test_fuzz import address_space_limit  # noqa: F401 - the module-wide memory guard, reused

pytestmark = pytest.mark.filterwarnings("ignore:__index__ returned non-int:DeprecationWarning")


def fixed(examples: int) -> settings:
    return settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=False,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])  # fmt: skip


#: Characters a terminal acts on, and text built around them.
CONTROLS = ["\x1b", "\x07", "\r", "\x08", "\x00", "\x7f", "\x9b", "\x1b]0;title\x07", "\x1b[2J", "\u202e", "\udcff",
            "\n", "\t"]
HOSTILE_TEXT = st.lists(st.one_of(st.sampled_from(CONTROLS), st.sampled_from(["<b>", "&amp;", "'", '"', "é", "5H"]),
                                  st.text(max_size=4)), max_size=6).map("".join)


def terminal_safe(text: str) -> None:
    bad = [c for c in text if not c.isprintable() and c != "\n"]
    assert not bad, (bad[:5], text[:300])


# ----------------------------------------------------------------------- item 1: saved tables


class Saved(tuple):
    """(path, members, bytes) of a good file, with a short repr for failure reports."""

    def __repr__(self) -> str:
        return f"Saved({self[0].name})"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: Any) -> Saved:
    tables = cribbage.discard_tables("five-card", model="thrown-only", max_iterations=3, progress=False)
    path = tmp_path_factory.mktemp("tables") / "good.npz"
    tables.save(path)
    with np.load(path, allow_pickle=False) as z:
        members = dict(z)
    return Saved((path, members, path.read_bytes()))


#: The words of a message that names a member (a key, or a sums dict's key as ``sums['x']``).
MEMBER_WORDS = [*TABLES_MEMBERS, *(f"{s}['{k}']" for s in ("sums", "sums_before") for k in
                                   ("dealer", "pone", "dealer_crib", "pone_crib", "hands"))]  # fmt: skip
FILE_WORDS = ["is not a saved DiscardTables file", "format version", "not a regular file", "unknown member",
              "lacks the member", "twice", "variant", "model"]


def check_load(path: Path) -> None:
    start = time.perf_counter()
    try:
        t = cribbage.DiscardTables.load(path)
    except ValueError as e:
        text = str(e)
        assert path.name in text and "\n" not in text and len(text) < 400, text
        assert any(w in text for w in MEMBER_WORDS + FILE_WORDS), f"names no member: {text}"
        return
    finally:
        assert time.perf_counter() - start < 5, "a load took over 5 s"
    # loaded: every number is a number of points, and the tables analyze, show and serialize
    for table in (t.dealer, t.pone, t.frequency["dealer"], t.frequency["pone"], t.values["dealer"], t.values["pone"]):
        assert np.isfinite(table).all() and (table >= 0).all(), table
    assert all(math.isfinite(c) and c >= 0 for c in t.changes)
    hand = "5H 5D JC QS 2C" if t.variant == "five-card" else "5H 5D JC QS 2C 9H"
    for dealer in (True, False):
        a = cribbage.analyze_discard(hand, dealer=dealer, variant=t.variant, opponent=t)
        assert all(math.isfinite(r.crib) and math.isfinite(r.net) for r in a.rows)
        assert all(math.isfinite(w) and w >= 0 for w in t.pair_weights(dealer))
    json.dumps(t.to_dict(), allow_nan=False)
    assert "<" in t._repr_html_() and repr(t).startswith("DiscardTables(")


@fixed(120)
@given(data=st.data())
def test_fuzz_tables_bytes(saved: Any, tmp_path_factory: Any, data: Any):
    _, _, raw = saved
    path = tmp_path_factory.mktemp("b") / "mutated.npz"
    path.write_bytes(data.draw(mutate_bytes(raw)))
    check_load(path)


DTYPES = ["<f8", ">f8", "<f4", "<i8", "<i4", "<u8", "|b1", "<U5", "|S3", "<c16", "<M8[s]"]
SHAPES = [(), (0,), (1,), (3,), (168,), (169,), (170,), (2, 169), (169, 1)]
SPECIAL_VALUES = [*SPECIAL_FLOATS, -1, 0, 1, 2, 29, 29.5, 2**62, 10**6]


@st.composite
def member_change(draw: Any, members: dict[str, np.ndarray]) -> dict[str, Any]:
    out = dict(members)
    for _ in range(draw(st.integers(1, 2))):
        key = draw(st.sampled_from(sorted(TABLES_MEMBERS)))
        how = draw(st.sampled_from(["garbage", "value", "value", "value", "drop", "extra", "rename", "int"]))
        if how == "garbage":
            dtype, shape = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(SHAPES))
            out[key] = np.zeros(shape, dtype=dtype)
        elif how == "value" and out.get(key) is not None and out[key].dtype.kind == "f":
            a = out[key].copy().reshape(-1) if out[key].size else np.zeros(1)
            a[draw(st.integers(0, a.size - 1))] = draw(st.sampled_from(SPECIAL_VALUES))
            out[key] = a.reshape(out[key].shape) if out[key].size else a
        elif how == "int" or (how == "value" and key in out):
            v = draw(st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 2**31, 2**63 - 1, 2598960]))
            old = out.get(key, np.array(0))
            out[key] = np.full(old.shape, v, dtype=np.int64) if old.dtype.kind in "iub" else np.array(v)
        elif how == "drop":
            out.pop(key, None)
        elif how == "extra":
            out[draw(st.sampled_from(["x", f"{key}.x", "sums.extra", "format2"]))] = np.zeros(3)
        elif how == "rename" and key in out:
            out[key + "_"] = out.pop(key)
    return out


@fixed(200)
@given(data=st.data())
def test_fuzz_tables_members(saved: Any, tmp_path_factory: Any, data: Any):
    _, members, _ = saved
    changed = data.draw(member_change(members))
    path = tmp_path_factory.mktemp("m") / "changed.npz"
    compress = data.draw(st.booleans())
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for key, value in changed.items():
            with z.open(f"{key}.npy", "w") as f:
                np.save(f, value, allow_pickle=False)
    check_load(path)


def test_fuzz_tables_cli_one_line_status_1(saved: Any, tmp_path: Path):
    """A few of the mutations through ``cribpiquet discard --tables`` (in-process ``cli.main``)."""
    _, members, raw = saved
    rng = np.random.default_rng(30)
    for i in range(12):
        path = tmp_path / f"bad{i}.npz"
        if i % 3 == 0:
            b = bytearray(raw)
            b[int(rng.integers(0, len(b)))] ^= 1 << int(rng.integers(0, 8))
            path.write_bytes(bytes(b[: len(b) - int(rng.integers(0, 2)) * 500]))
        else:
            bad = dict(members)
            key = sorted(TABLES_MEMBERS)[int(rng.integers(0, len(TABLES_MEMBERS)))]
            bad[key] = np.full(bad[key].shape, [np.nan, -1.0, 1e300][i % 3]) if i % 2 else np.array("x\x1b[2J")
            np.savez(path, **bad)
        status, out, err = run_cli(["discard", "5H", "5D", "JC", "QS", "2C", "--variant", "five-card",
                                    "--tables", str(path)])  # fmt: skip
        if status == 0:  # a flipped bit that changes nothing checked (e.g. in a zip comment)
            continue
        assert status == 1 and out == "" and err.count("\n") == 1 and path.name in err, (status, err)
        terminal_safe(err)


# ------------------------------------------------------------ item 2: control characters


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:  # argparse's errors and --help
            status = int(e.code or 0)
    return status, out.getvalue(), err.getvalue()


def json_junk() -> st.SearchStrategy:
    return st.recursive(st.one_of(HOSTILE_TEXT, st.integers(-(10**30), 10**30), st.none(), st.booleans()),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3),
                        max_leaves=6)  # fmt: skip


GOOD_ROWS = []  # the first moves of a five-card game (first legal action each)


def _good_rows() -> list[dict[str, Any]]:
    if not GOOD_ROWS:
        s = cribbage.Game("five-card").new_initial_state()
        for _ in range(8):
            a = s.legal_actions()[0]
            GOOD_ROWS.append({"seat": s.current_player(), "action": a, "text": s.action_to_string(a)})
            s.apply_action(a)
    return GOOD_ROWS


@fixed(80)
@given(data=st.data())
def test_fuzz_replay_records_never_reach_the_terminal_raw(tmp_path_factory: Any, data: Any):
    header: dict[str, Any] = {"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"}}
    for field in ("seed", "bot", "you"):
        if data.draw(st.booleans()):
            header[field] = data.draw(json_junk())
    header["options"].update(data.draw(st.dictionaries(HOSTILE_TEXT, json_junk(), max_size=2)))
    if data.draw(st.integers(0, 9)) == 0:
        header["game"] = data.draw(HOSTILE_TEXT)
    rows = list(_good_rows()[: data.draw(st.integers(0, 8))])
    if data.draw(st.booleans()):
        rows.append({"seat": 0, "action": data.draw(st.one_of(json_junk(), st.sampled_from([0, 5, 60]))),
                     "text": data.draw(st.one_of(st.none(), HOSTILE_TEXT))})  # fmt: skip
    path = tmp_path_factory.mktemp("r") / "game.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *rows]), encoding="utf-8", errors="surrogatepass")
    argv = ["replay", str(path)]
    if data.draw(st.integers(0, 4)) == 0:
        argv += ["--html", str(path.with_suffix(".html"))]
    status, out, err = run_cli(argv)
    assert status in (0, 2), (status, err)
    terminal_safe(out + err)
    assert err.count("\n") == (1 if status else 0), err
    assert "Traceback" not in err


COMMANDS: list[Callable[[str], list[str]]] = [
    lambda x: ["score", "5H", "5D", x, "JC", "--starter", "5C"],
    lambda x: ["score", "5H", "5D", "5S", "JC", "--starter", x],
    lambda x: ["discard", "5H", "5D", "JC", "QS", x, "--variant", "five-card"],
    lambda x: ["discard", "5H", "5D", "JC", "QS", "2C", "--variant", x],
    lambda x: ["discard", "5H", "5D", "JC", "QS", "2C", "--variant", "five-card", "--tables", x],
    lambda x: ["piquet", "declare", *"AH KH QH JH TH 7H AC AD AS 7C 8C".split(), x],
    lambda x: ["piquet", "compare", "--elder", x, "--dealer", "AH"],
    lambda x: ["replay", x],
    lambda x: ["replay", x, "--seat", x],
    lambda x: ["arena", "cribbage", "--players", x, "first", "--games", "1"],
    lambda x: ["stats", "--kind", x],
    lambda x: [x],
    lambda x: ["score", "--json", x, "--starter", "5C"],
]


@fixed(60)
@given(which=st.integers(0, len(COMMANDS) - 1), text=HOSTILE_TEXT)
def test_fuzz_command_lines_never_echo_control_characters(which: int, text: str):
    arg = text.replace("\x00", "")  # no command-line argument holds a null character
    status, out, err = run_cli(COMMANDS[which](arg))
    assert status in (0, 1, 2), (status, err)
    terminal_safe(out + err)
    assert err.count("\n") <= 1 and "Traceback" not in err, err


# ------------------------------------------------------------ item 5: seats and flags


NUMPY_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@st.composite
def seat_values(draw: Any) -> Any:
    n = draw(st.sampled_from([0, 1, 2, -1, 5, 2**63, *BIG_INTS]))
    how = draw(st.sampled_from(["int", "numpy", "numpy", "bool", "npbool", "str", "float", "npfloat", "sub", "index",
                                "none"]))  # fmt: skip
    if how == "numpy":
        kind = draw(st.sampled_from(NUMPY_INTS))
        info = np.iinfo(kind)
        return kind(n) if info.min <= n <= info.max else kind(0)
    return {"int": n, "bool": bool(n % 2), "npbool": np.bool_(n % 2), "str": str(n), "float": float(n % 3),
            "npfloat": np.float64(n % 3), "sub": IntSub(n % 3), "index": Indexable(n % 3), "none": None}[how]


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", call()
    except (TypeError, ValueError) as e:
        assert "&#x27;" not in str(e) and "&lt;" not in str(e), str(e)
        return type(e).__name__, None


@pytest.fixture(scope="module")
def seat_world(tmp_path_factory: Any) -> dict[str, Any]:
    s = cribbage.Game("five-card").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    path = tmp_path_factory.mktemp("seat") / "r.jsonl"
    header = {"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"}, "seed": 1, "bot": "first"}
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *_good_rows()[:4]]), encoding="utf-8")
    return {"state": s, "record": str(path), "piquet": piquet.Game("russian", scope="deal").new_initial_state()}


@fixed(200)
@given(value=seat_values())
def test_fuzz_seats_follow_one_rule(seat_world: Any, value: Any):
    s, p = seat_world["state"], seat_world["piquet"]
    seat_apis = {
        "render": lambda v: s.render(player=v),
        "hand": lambda v: s.hand(v),
        "player_return": lambda v: s.player_return(v),
        "piquet.render": lambda v: p.render(player=v),
        "piquet.hand": lambda v: p.hand(v),
        "replay_html": lambda v: replay_page.replay_html(seat_world["record"], seat=v),
    }
    if value is None:  # None is "every seat" where it is allowed, refused where a seat is required
        return
    results = {name: outcome(lambda: api(value)) for name, api in seat_apis.items()}
    kinds = {name: r[0] for name, r in results.items()}
    assert len(set(kinds.values())) == 1, (value, kinds)  # every API accepts or refuses it alike
    is_int_like = isinstance(value, (int, np.integer, IntSub, Indexable)) and not isinstance(value, (bool, np.bool_))
    if not is_int_like:
        assert set(kinds.values()) == {"TypeError"}, (value, kinds)
    elif kinds["render"] == "ok":
        plain = int(value.__index__())
        for name, api in seat_apis.items():
            assert results[name][1] == api(plain), name  # the numpy seat gives the int's result


FLAG_VALUES = [True, False, np.True_, np.False_, 0, 1, np.int64(1), np.uint8(0), "True", "", 1.0, np.float32(0.0),
               IntSub(1), Indexable(0), [True], None]


@fixed(100)
@given(value=st.sampled_from(FLAG_VALUES), which=st.integers(0, 6))
def test_fuzz_flags_follow_one_rule(value: Any, which: int):
    flag_apis: list[tuple[str, Callable[[Any], Any], bool]] = [  # name, call, None allowed (a default)
        ("PIMC(inference)", lambda v: repr(bots.PIMC(inference=v)), True),
        ("ISMCTS(rollout_to_end)", lambda v: repr(bots.ISMCTS(rollout_to_end=v)), True),
        ("score_hand(crib)", lambda v: cribbage.score_hand("5H 5D 5S JC", "5C", crib=v), True),
        ("Game(lurch)", lambda v: repr(cribbage.Game("six-card", lurch=v)), True),
        ("analyze_discard(dealer)", lambda v: cribbage.analyze_discard("5H 5D JC QS 2C", dealer=v,
                                                                       variant="five-card").to_dict(), False),
        ("discard_tables(progress)", lambda v: repr(cribbage.discard_tables("five-card", model="thrown-only",
                                                                            max_iterations=1, progress=v)), False),
        ("VectorGame(auto_reset)", lambda v: repr(_vector(v)), True),
    ]  # fmt: skip
    name, api, none_ok = flag_apis[which]
    if value is None and none_ok:
        return
    kind, result = outcome(lambda: api(value))
    if isinstance(value, (bool, np.bool_)):
        assert kind == "ok", (name, value)
        assert result == api(bool(value)), name  # a numpy bool gives the bool's result
    else:
        assert kind == "TypeError", (name, value, kind)


def _vector(v: Any) -> Any:
    from cribpiquet.vector import VectorGame

    return VectorGame(cribbage.Game("five-card"), 2, auto_reset=v)


# ------------------------------------------------------ item 6: plain text, named arguments

ENTITIES = re.compile(r"&(#x?[0-9a-fA-F]+|lt|gt|amp|quot|apos);")


def _state() -> Any:
    s = cribbage.Game("five-card").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    return s


TEXT_ARGS: list[tuple[str, Callable[[Any], Any]]] = [
    ("player", lambda x: _state().render(player=x)),
    ("objective", lambda x: solve(_state(), objective=x)),
    ("objective", lambda x: bots.PIMC(objective=x)),
    ("rollout", lambda x: bots.ISMCTS(rollout=x)),
    ("before_play", lambda x: bots.PIMC(before_play=x)),
    ("variant", lambda x: cribbage.Game(x)),
    ("scope", lambda x: piquet.Game("russian", scope=x)),
    ("rules", lambda x: piquet.Game(x)),
    ("kind", lambda x: cribbage.hand_distribution(x)),
    ("model", lambda x: cribbage.DiscardTables.initial("five-card", model=x)),
    ("role", lambda x: piquet.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", role=x, samples=0)),
    ("path", lambda x: cribbage.DiscardTables.load(x)),
    ("path", lambda x: cribbage.DiscardTables.initial("five-card").save(os.path.join("/nonexistent", x))),
    ("seat", lambda x: replay_page.replay_html("/nonexistent.jsonl", seat=x)),
    ("out", lambda x: replay_page.write_replay_html("/nonexistent.jsonl", x)),
]


@fixed(150)
@given(which=st.integers(0, len(TEXT_ARGS) - 1), text=HOSTILE_TEXT)
def test_fuzz_text_arguments_get_plain_named_messages(which: int, text: str):
    name, call = TEXT_ARGS[which]
    try:
        call(text)
    except (TypeError, ValueError) as e:
        message = str(e)
        assert len(message) < 1000
        assert not ENTITIES.search(message) or ENTITIES.search(repr(text)), message  # no HTML escaping
        if "\udcff" in text or "\x00" in text and name in ("path", "out"):
            assert name in message, (name, message)


@fixed(80)
@given(which=st.sampled_from(["PIMC.time_limit", "ISMCTS.time_limit", "ISMCTS.exploration"]),
       value=st.sampled_from([*BIG_INTS, *SPECIAL_FLOATS, np.float64(np.nan), np.int64(-5), True, np.True_, "1"]))
def test_fuzz_number_arguments_say_what_is_wrong(which: str, value: Any):
    cls, arg = which.split(".")
    try:
        getattr(bots, cls)(**{arg: value})
    except (TypeError, ValueError) as e:
        message = str(e)
        assert arg in message and len(message) < 300, message
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**1024:
            assert "too large" in message, message
