"""Without an optional extra, the module that needs it fails with one line saying what to install
(the extras themselves are installed by the ``test`` extra, so the other tests use them)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = {
    "rl": (
        "import sys; sys.modules['pettingzoo'] = sys.modules['gymnasium'] = None; "
        "from cribpiquet.envs import cribbage_v0",
        "ImportError: cribpiquet.envs needs PettingZoo and Gymnasium: pip install 'cribpiquet[rl]'",
    ),
    "openspiel": (
        "import sys; sys.modules['pyspiel'] = None; import cribpiquet.openspiel as o; o.register()",
        "ImportError: cribpiquet.openspiel needs OpenSpiel: pip install 'cribpiquet[openspiel]' (Python >= 3.11)",
    ),
    "plot": (
        "import sys; sys.modules['matplotlib'] = None; from cribpiquet import cribbage; "
        "cribbage.analyze_discard('5H 5D JC QS 2C 9H', dealer=True).plot()",
        "ImportError: plotting needs matplotlib: pip install 'cribpiquet[plot]'",
    ),
}


@pytest.mark.parametrize("extra", sorted(CASES))
def test_a_missing_extra_says_what_to_install(extra, tmp_path):
    code, last_line = CASES[extra]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == last_line
