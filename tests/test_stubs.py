"""The hand-written stubs (`_core.pyi`) agree with the native module, checked by mypy's stubtest
(names, signatures, defaults, properties, final classes), and the README's Python examples
type-check against them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cribpiquet

STUB = Path(cribpiquet.__file__).with_name("_core.pyi")
README = Path(__file__).resolve().parents[1] / "README.md"

pytest.importorskip("mypy", reason="the stub checks need mypy (pip install '.[test]')")


def test_stub_file_ships_with_the_package():
    assert STUB.is_file()
    assert Path(cribpiquet.__file__).with_name("py.typed").is_file()


def test_stubtest_finds_no_difference():
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cribpiquet._core", "--ignore-disjoint-bases"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_readme_examples_type_check(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 5
    # One module, the blocks in order (as the README test runs them: later blocks use earlier names).
    (tmp_path / "readme.py").write_text("\n".join(blocks), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--check-untyped-defs", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
