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



def test_stub_file_ships_with_the_package():
    assert STUB.is_file()
    assert Path(cribpiquet.__file__).with_name("py.typed").is_file()
