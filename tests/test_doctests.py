"""The examples in the docstrings (Python modules and native classes) are true."""

from __future__ import annotations

import doctest

import pytest

import cribpiquet
from cribpiquet import _core, _engine, _util, cribbage, piquet, records

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("module", [cribpiquet, cribbage, piquet, _engine, _util, records], ids=lambda m: m.__name__)
def test_module_docstrings(module):
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0


def test_native_docstrings():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for name in dir(_core):
        if name.startswith("_"):
            continue
        module = piquet if name.lower().startswith("piquet") else cribbage
        for test in finder.find(getattr(_core, name), name, globs=dict(vars(module))):
            runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0
    assert results.attempted >= 5
