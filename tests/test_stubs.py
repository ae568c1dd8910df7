"""The hand-written stubs (`_core.pyi`) and the native module must name the same things."""

from __future__ import annotations

import ast
from pathlib import Path

import cribpiquet
from cribpiquet import _core

STUB = Path(cribpiquet.__file__).with_name("_core.pyi")


def _stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_stub_file_ships_with_the_package():
    assert STUB.is_file()
    assert Path(cribpiquet.__file__).with_name("py.typed").is_file()


def test_every_runtime_name_is_in_the_stub_and_back():
    tree = _stub_tree()
    stub_defs = {
        node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    }
    runtime = _public(dir(_core))
    assert runtime - stub_defs == set(), "in _core but not in _core.pyi"
    assert _public(stub_defs) - runtime == set(), "in _core.pyi but not in _core"


def test_stub_classes_list_the_runtime_members():
    tree = _stub_tree()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(_core, node.name)
        stub_members = _public(
            item.name for item in node.body if isinstance(item, ast.FunctionDef)
        )
        runtime_members = _public(dir(cls))
        assert stub_members - runtime_members == set(), f"{node.name}: stubbed but missing"
        assert runtime_members - stub_members == set(), f"{node.name}: present but not stubbed"
