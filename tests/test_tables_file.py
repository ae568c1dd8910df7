"""``DiscardTables.save`` / ``DiscardTables.load`` (a versioned ``.npz``, no pickle) and the CLI's
``discard-tables --save FILE`` / ``discard --tables FILE``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
    assert r.returncode == 2 and "cannot read the tables" in r.stderr
