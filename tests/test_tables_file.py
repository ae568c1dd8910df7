"""``DiscardTables.save`` / ``DiscardTables.load`` (a versioned ``.npz``, no pickle) and the CLI's
``discard-tables --save FILE`` / ``discard --tables FILE``."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cribpiquet import cribbage


@pytest.fixture(scope="module")
def tables():
    return cribbage.discard_tables("five-card", model="thrown-only", max_iterations=6, progress=False)


def test_save_and_load_round_trip(tmp_path: Path, tables):
    path = tmp_path / "five.npz"
    tables.save(path)
    again = cribbage.DiscardTables.load(str(path))
    assert repr(again) == repr(tables)
    assert (again.dealer == tables.dealer).all() and (again.pone == tables.pone).all()
    assert again.model == "thrown-only" and again.variant == "five-card" and again.flushes is True
    assert again.iterations == tables.iterations and again.changes == tables.changes
    # the loaded tables go on exactly like the saved ones
    assert (again.step().dealer == tables.step().dealer).all()
    # and weigh an analysis the same
    a = cribbage.analyze_discard("5H 5D JC QS 2C", dealer=False, variant="five-card", opponent=again)
    b = cribbage.analyze_discard("5H 5D JC QS 2C", dealer=False, variant="five-card", opponent=tables)
    assert a.to_dict() == b.to_dict()
    with np.load(path, allow_pickle=False) as z:  # a plain, versioned npz
        assert str(z["format"]) == "cribpiquet.DiscardTables" and int(z["version"]) == 1


def test_bad_files_are_clear_errors(tmp_path: Path, tables):
    with pytest.raises(ValueError, match="cannot read the tables .*missing.npz"):
        cribbage.DiscardTables.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(ValueError, match="junk.npz is not a saved DiscardTables file"):
        cribbage.DiscardTables.load(junk)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.arange(3))
    with pytest.raises(ValueError, match="other.npz is not a saved DiscardTables file"):
        cribbage.DiscardTables.load(other)
    path = tmp_path / "t.npz"
    tables.save(path)
    with np.load(path) as z:
        data = dict(z)
    data["version"] = np.array(99)
    np.savez(tmp_path / "v99.npz", **data)
    with pytest.raises(ValueError, match="format version 99; this cribpiquet reads version 1"):
        cribbage.DiscardTables.load(tmp_path / "v99.npz")
    with pytest.raises(ValueError, match="cannot write the tables"):
        tables.save(tmp_path / "no" / "dir" / "t.npz")
    with pytest.raises(TypeError, match="path must be a str or a path"):
        tables.save(5)
    with pytest.raises(TypeError, match="path must be a str or a path"):
        cribbage.DiscardTables.load(b"t.npz")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cribpiquet", *args], capture_output=True, text=True, timeout=600)


def test_cli_saves_tables_and_discard_uses_them(tmp_path: Path):
    path = tmp_path / "five.npz"
    r = _run("discard-tables", "--variant", "five-card", "--model", "thrown-only", "--max-iterations", "4",
             "--save", str(path))  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert f"saved: {path}" in r.stdout and path.is_file()
    hand = ["5H", "5D", "JC", "QS", "2C"]
    r = _run("discard", *hand, "--variant", "five-card", "--tables", str(path), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    want = cribbage.analyze_discard(" ".join(hand), dealer=False, variant="five-card",
                                    opponent=cribbage.DiscardTables.load(path)).to_dict()  # fmt: skip
    assert doc == json.loads(json.dumps(want))
    assert doc["opponent"] != "uniform"
    r = _run("discard", "5H", "5D", "JC", "QS", "2C", "9H", "--tables", str(path))
    assert r.returncode == 2 and "are for five-card, not six-card" in r.stderr
    r = _run("discard", *hand, "--variant", "five-card", "--tables", str(tmp_path / "nope.npz"))
    assert r.returncode == 1 and "cannot read the tables" in r.stderr  # a file it cannot use: status 1


# ------------------------------------------------------- issue 30 item 1: damaged and hostile files


def _members(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return dict(z)


def _write(path: Path, members: dict[str, Any]) -> Path:
    np.savez(path, **members)
    return path


@pytest.fixture()
def saved(tmp_path: Path, tables) -> Path:
    path = tmp_path / "t.npz"
    tables.save(path)
    return path


def _refused(path: Path, *needles: str) -> str:
    with pytest.raises(ValueError) as e:
        cribbage.DiscardTables.load(path)
    text = str(e.value)
    assert path.name in text and "\n" not in text and len(text) < 300, text
    for n in needles:
        assert n in text, (n, text)
    return text


def test_damaged_zip_files_name_the_file(saved: Path, tmp_path: Path):
    raw = saved.read_bytes()
    _refused(_bytes(tmp_path / "cut.npz", raw[: len(raw) // 2]), "not a saved DiscardTables file", "not a zip")
    # a flipped bit in a member's data: its CRC fails, and the message names that member
    names = list(_members(saved))
    at = raw.index(b"dealer_values.npy") + 200  # inside that member's data (stored, not compressed)
    flipped = bytearray(raw)
    flipped[at] ^= 0x10
    _refused(_bytes(tmp_path / "flip.npz", bytes(flipped)), "member", "damaged")
    assert "dealer_values" in names
    npy = tmp_path / "a.npz"
    with open(npy, "wb") as f:
        np.save(f, np.arange(3))  # a .npy file, not an archive
    _refused(npy, "not a saved DiscardTables file")
    _refused(_bytes(tmp_path / "empty.npz", b""), "not a saved DiscardTables file")


def _bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("member,value,needles", [
    ("iterations", np.array(-1), ("iterations", "-1")),
    ("averaged", np.array(-1), ("averaged", "-1")),
    ("averaged", np.array(10**6), ("averaged",)),
    ("version", np.array("one"), ("version", "dtype")),
    ("changes", np.array(["a", "b"]), ("changes", "dtype")),
    ("changes", np.zeros((2, 2)), ("changes", "shape")),
    ("dealer_values", np.zeros(168), ("dealer_values", "shape")),
    ("pone_values", np.zeros(169, dtype=object), ("pone_values",)),
    ("flushes", np.array(2), ("flushes", "dtype")),
    ("variant", np.array("three-player"), ("not three-player",)),
    ("model", np.array("x" * 500), ("model", "dtype")),
    ("sums.hands", np.array(7), ("sums.hands", "7")),
    ("sums.dealer", np.full(169, -1), ("sums['dealer']",)),
])  # fmt: skip
def test_bad_members_are_named(saved: Path, tmp_path: Path, member: str, value: Any, needles: tuple[str, ...]):
    members = _members(saved)
    members[member] = value
    _refused(_write(tmp_path / "bad.npz", members), *needles)


@pytest.mark.parametrize("member", ["dealer_values", "pone_values", "dealer_throws", "pone_throws",
                                    "dealer_crib_shares", "pone_crib_shares", "changes"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, -0.25])
def test_values_that_are_not_points_are_refused(saved: Path, tmp_path: Path, member: str, bad: float):
    # these loaded before, and analyze_discard(..., opponent=t).best.crib was nan
    members = _members(saved)
    values = members[member].copy()
    if values.size == 0:
        values = np.zeros(1)
    values[0] = bad
    members[member] = values
    _refused(_write(tmp_path / "bad.npz", members), member)


def test_unknown_and_missing_members_are_refused_without_reading_them(saved: Path, tmp_path: Path):
    import tracemalloc
    import zipfile

    members = _members(saved)
    _refused(_write(tmp_path / "x.npz", {**members, "variant.x": np.array(1)}), "unknown member 'variant.x.npy'")
    del members["model"]
    _refused(_write(tmp_path / "m.npz", members), "lacks the member 'model'")
    # an extra member of 128 MB of zeros, compressed to a few hundred KB: refused without reading it
    bomb = tmp_path / "bomb.npz"
    bomb.write_bytes(saved.read_bytes())
    with zipfile.ZipFile(bomb, "a", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("extra.npy", "w", force_zip64=True) as f:
            block = bytes(1 << 20)
            for _ in range(128):
                f.write(block)
    assert bomb.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        _refused(bomb, "unknown member 'extra.npy'")
        assert tracemalloc.get_traced_memory()[1] < 8 << 20  # a few MB at most, not +770 MB
    finally:
        tracemalloc.stop()


def test_a_header_declaring_a_huge_array_is_refused_before_its_data(saved: Path, tmp_path: Path):
    import zipfile

    members = _members(saved)
    path = tmp_path / "huge.npz"
    with zipfile.ZipFile(path, "w") as z:
        for key, value in members.items():
            if key == "changes":
                header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }"
                header += b" " * (117 - len(header)) + b"\n"
                z.writestr("changes.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
            else:
                with z.open(f"{key}.npy", "w") as f:
                    np.save(f, value)
    _refused(path, "member 'changes'", "shape (1000000000000,)")
    # a member whose data is shorter, or longer, than its header says
    for cut, needle in [(-8, "holds 1,344 bytes of data, not 1,352"), (8, "holds more data than its shape (169,) takes (1,352 bytes)")]:
        path = tmp_path / f"cut{cut}.npz"
        with zipfile.ZipFile(path, "w") as z:
            for key, value in members.items():
                buffer = io.BytesIO()
                np.save(buffer, value)
                data = buffer.getvalue()
                if key == "dealer_values":
                    data = data[:cut] if cut < 0 else data + bytes(cut)
                z.writestr(f"{key}.npy", data)
        _refused(path, "member 'dealer_values'", needle)


def test_a_zip_of_many_members_is_refused_before_they_are_read(tmp_path: Path):
    import time
    import zipfile

    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as z:
        for i in range(20_000):  # about 1.7 MB: under the size cap, but zipfile would parse them all
            z.writestr(str(i), b"")
    start = time.perf_counter()
    _refused(path, "has 20,000 members; saved tables have 24")
    assert time.perf_counter() - start < 0.5
    big = tmp_path / "big.npz"
    big.write_bytes(bytes(3 << 20))
    _refused(big, "is 3,145,728 bytes, more than saved tables take")


def test_odd_npy_headers_are_refused(saved: Path, tmp_path: Path):
    import zipfile

    members = _members(saved)
    for descr, needle in [("<U0", "has dtype <U0, not text"), ("O", "has dtype object"),
                          ("<U99999999999", "unknown dtype"), ("(2,)f8", "not text")]:  # fmt: skip
        header = f"{{'descr': {descr!r}, 'fortran_order': False, 'shape': (), }}".encode()
        header += b" " * (117 - len(header)) + b"\n"
        path = tmp_path / "odd.npz"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("format.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"x" * 8)
            for key, value in members.items():
                if key != "format":
                    with z.open(f"{key}.npy", "w") as f:
                        np.save(f, value)
        _refused(path, "member 'format'", needle)
    for header, needle in [(b"\x93NUMPX\x01\x00", "not a .npy array"), (b"\x93NUMPY\x02\x00\xff\xff\xff\x7f",
                           "has a header of 2,147,483,647 bytes"), (b"\x93NUMPY\x01\x00\x20\x00" + b"(" * 32,
                           "not an array header")]:  # fmt: skip
        path = tmp_path / "odd.npz"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("format.npy", header)
        _refused(path, "member 'format'", needle)


def test_not_a_regular_file_is_refused_without_blocking(tmp_path: Path):
    import os

    with pytest.raises(ValueError, match="is not a regular file"):
        cribbage.DiscardTables.load(tmp_path)  # a directory
    fifo = tmp_path / "fifo.npz"
    os.mkfifo(fifo)
    _refused(fifo, "is not a regular file")  # opening a FIFO for reading would wait for a writer


def test_paths_with_a_null_character_are_named(tables):
    with pytest.raises(ValueError, match=r"path must not hold a null character, got '\\x00.npz'"):
        tables.save("\x00.npz")
    with pytest.raises(ValueError, match="path must not hold a null character"):
        cribbage.DiscardTables.load("t\x00.npz")


def test_unpickled_tables_are_checked_by_the_same_rule(tables):
    import pickle

    fn, (state,) = tables.__reduce__()
    assert repr(fn(dict(state))) == repr(tables)
    for key, bad, needle in [("dealer_values", [np.nan] * 169, "dealer_values[0] is NaN"),
                             ("iterations", -1, "iterations must be in"),
                             ("changes", "abc", "changes must be a sequence of floats"),
                             ("averaged", 2**70, "averaged must be in")]:  # fmt: skip
        with pytest.raises((ValueError, TypeError), match=re.escape(needle)):
            fn({**state, key: bad})
    assert repr(pickle.loads(pickle.dumps(tables))) == repr(tables)


@pytest.mark.parametrize("damage", ["cut", "nan", "version", "extra"])
def test_cli_damaged_tables_are_one_line_and_status_1(saved: Path, tmp_path: Path, damage: str):
    members = _members(saved)
    bad = tmp_path / "bad.npz"
    if damage == "cut":
        bad.write_bytes(saved.read_bytes()[:1000])
    elif damage == "nan":
        members["pone_values"] = np.full(169, np.nan)
        _write(bad, members)
    elif damage == "version":
        members["version"] = np.array("one")
        _write(bad, members)
    else:
        _write(bad, {**members, "variant.x": np.array(1)})
    r = _run("discard", "5H", "5D", "JC", "QS", "2C", "--variant", "five-card", "--tables", str(bad))
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().split("\n")
    assert len(lines) == 1 and "Traceback" not in r.stderr and "bad.npz" in lines[0], r.stderr
    assert r.stdout == ""
