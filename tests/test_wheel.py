"""The wheel: ``maturin build --release`` makes a wheel that installs and runs in a fresh virtual
environment with no Rust toolchain on ``PATH``.

Slow (a release build when ``./target`` has none, a venv, numpy from the package index), so it
runs in CI (``CI=true``, which ``.ci/run`` gets, or ``CRIBPIQUET_WHEEL_TEST=1``) and is skipped
otherwise, or whenever ``CRIBPIQUET_SKIP_WHEEL_TEST=1``. The README test command
(``pip install '.[test]'``) has already compiled the release build in ``./target``, so in CI
maturin only packs it. ``CRIBPIQUET_WHEEL_PROFILE=quick`` builds the quick profile instead (for
trying the test locally).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    os.environ.get("CRIBPIQUET_SKIP_WHEEL_TEST") == "1"
    or not (os.environ.get("CI") == "true" or os.environ.get("CRIBPIQUET_WHEEL_TEST") == "1"),
    reason="the wheel test runs in CI (CI=true) or with CRIBPIQUET_WHEEL_TEST=1",
)

#: What the installed wheel must do: import, score, play, vectorize; and come from the venv.
SMOKE = r"""
import sys, numpy as np, cribpiquet
from cribpiquet import cribbage, piquet
from cribpiquet.vector import VectorGame
assert cribpiquet._core.__file__.startswith(sys.prefix), cribpiquet._core.__file__
assert cribbage.score_hand("JC 5D 5H 5S", "5C") == 29
assert piquet.simulate(piquet.Game(scope="deal"), 100, seed=1)["returns"].shape == (100, 2)
v = VectorGame(cribbage.Game("five-card"), 64, seed=2, observation=None)
v.reset()
for _ in range(50):
    b = v.step(v.sample_legal())
assert b.legal_mask[np.arange(64), v.sample_legal(seed=1)].all()
print("wheel ok", cribpiquet.__version__)
"""


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=1500, check=False, **kw)
    assert result.returncode == 0, f"{cmd}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def _path_without_rust() -> str:
    """``PATH`` without any directory holding cargo or rustc."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not any(
        (Path(d) / tool).exists() for tool in ("cargo", "rustc", "rustup"))]
    return os.pathsep.join(keep)


def test_release_wheel_installs_and_runs_without_rust(tmp_path):
    # maturin on PATH (the test extra installs it), else through this Python.
    if shutil.which("maturin"):
        maturin = [str(shutil.which("maturin"))]
    elif importlib.util.find_spec("maturin") is not None:
        maturin = [sys.executable, "-m", "maturin"]
    else:
        pytest.skip("maturin is not installed (it comes with the test extra)")
    start = time.monotonic()
    profile = os.environ.get("CRIBPIQUET_WHEEL_PROFILE", "release")
    build = [*maturin, "build", "--out", str(tmp_path / "dist"), "--interpreter", sys.executable]
    build += ["--release"] if profile == "release" else ["--profile", profile]
    _run(build, cwd=ROOT)
    wheels = list((tmp_path / "dist").glob("cribpiquet-*.whl"))
    assert len(wheels) == 1, wheels
    built = time.monotonic()

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARGO", "RUSTUP", "PYTHON"))}
    env["PATH"] = os.pathsep.join([str(python.parent), _path_without_rust()])
    assert shutil.which("cargo", path=env["PATH"]) is None and shutil.which("rustc", path=env["PATH"]) is None
    _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheels[0])], env=env)
    # Run from a directory that does not shadow the package with the source tree.
    out = _run([str(python), "-c", SMOKE], env=env, cwd=tmp_path)
    assert "wheel ok" in out.stdout
    done = time.monotonic()
    print(f"\nwheel test: build {built - start:.1f} s, venv + install + run {done - built:.1f} s")
