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
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")
README = Path(__file__).resolve().parents[1] / "README.md"


def test_stub_file_ships_with_the_package():
    assert STUB.is_file()
    assert Path(cribpiquet.__file__).with_name("py.typed").is_file()


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


def test_stubtest_finds_no_difference(tmp_path):
    """`python -m mypy.stubtest cribpiquet._core`: every name, signature, default and class flag of
    the stub matches the compiled module (run from a directory that does not shadow the package)."""
    pytest.importorskip("mypy.stubtest")
    result = _run(["mypy.stubtest", "cribpiquet._core", "--allowlist", str(ALLOWLIST), "--mypy-config-file", str(tmp_path / "none.ini")], tmp_path)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Success" in result.stdout


def test_stubtest_would_catch_a_wrong_stub(tmp_path):
    """The check above can fail: a package copy whose stub misnames one parameter is reported."""
    pytest.importorskip("mypy.stubtest")
    pkg = tmp_path / "cribpiquet"
    pkg.mkdir()
    src = Path(cribpiquet.__file__).parent
    for f in src.iterdir():
        if f.suffix in (".py", ".pyi", ".so", ".pyd", ".typed") or f.name == "py.typed":
            (pkg / f.name).write_bytes(f.read_bytes())
    stub = (pkg / "_core.pyi").read_text(encoding="utf-8")
    broken = stub.replace("def cribbage_go_points(count: int)", "def cribbage_go_points(total: int)", 1)
    assert broken != stub
    (pkg / "_core.pyi").write_text(broken, encoding="utf-8")
    result = _run(["mypy.stubtest", "cribpiquet._core", "--allowlist", str(ALLOWLIST), "--mypy-config-file", str(tmp_path / "none.ini")], tmp_path)
    assert result.returncode != 0
    assert "cribbage_go_points" in result.stdout


@pytest.mark.skipif(not README.is_file(), reason="README not shipped with this checkout")
def test_docs_examples_type_check(tmp_path):
    """Every ```python block of the README and of the documentation site, each as a module of its
    own (blocks are self-contained), passes `mypy` with untyped calls checked, against the
    installed stubs."""
    pytest.importorskip("mypy")
    pages = [README, *sorted((README.parent / "docs").rglob("*.md"))]
    files = []
    for page in pages:
        blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
        for i, block in enumerate(blocks):
            module = tmp_path / f"{page.stem}_{len(files)}_{i}.py"
            module.write_text(block, encoding="utf-8")
            files.append(str(module))
    assert len(files) >= 15
    result = _run(
        ["mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--check-untyped-defs", *files],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
