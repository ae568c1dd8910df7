"""The Python package has no import circle, hidden or not, and Rust calls no Python helper by
name (issue 31 item 5): the generic helpers take the core's types, each table class holds its
own HTML function, and each game's Python module gives its native classes their display."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import cribpiquet
from cribpiquet import ArenaResult, _data, _engine, _html, cribbage, piquet

PACKAGE = Path(cribpiquet.__file__).parent
ROOT = PACKAGE.parents[1]
BINDINGS = ROOT / "rust" / "bindings"


def _modules() -> dict[str, Path]:
    found = {}
    for f in sorted(PACKAGE.rglob("*.py")):
        parts = f.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = f
    return found


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Every package module each module imports, at the top or inside a function."""
    known = set(modules) | {"cribpiquet._core"}
    out: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                where = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
                for alias in node.names:
                    full = f"{where}.{alias.name}"
                    targets.add(full if full in known else where)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        out[name] = {t for t in targets if t in known and t != name}
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, or []."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_package_has_no_import_circle():
    graph = _imports(_modules())
    assert graph["cribpiquet._html"] <= {"cribpiquet._data", "cribpiquet._util"}  # no game module
    assert "cribpiquet._html" not in graph["cribpiquet._data"]
    assert _cycle(graph) == []


def test_the_circle_check_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_each_table_class_holds_its_own_html():
    assert "_repr_html_" not in vars(_data.RowTable) and not hasattr(_data.RowTable, "_HTML")
    for cls in (cribbage.DiscardAnalysis, piquet.ExchangeAnalysis, ArenaResult):
        assert issubclass(cls, _data.RowTable) and "_repr_html_" in vars(cls)


def test_rust_calls_no_python_helper_by_name():
    if not BINDINGS.is_dir():
        pytest.skip("the Rust sources are not in this checkout")
    for f in sorted(BINDINGS.rglob("*.rs")):
        text = f.read_text(encoding="utf-8")
        assert re.findall(r'import\("(cribpiquet[\w.]*)"\)', text) == [], f.name
        assert "call_helper" not in text, f.name


def test_native_classes_show_themselves_through_the_game_modules():
    s = cribbage.Game("five-card").new_initial_state()
    assert s._repr_html_() == _html.state_html(s) and s.render(0) == _html.state_html(s, 0)
    assert cribbage.Card("5H")._repr_svg_() == _html.card_svg(cribbage.Card("5H"))
    b = cribbage.explain_hand("5H 5D 5S JC", "5C")
    assert b.to_dict()["total"] == 29 and b._repr_html_() == _html.breakdown_html(b)
    d = piquet.score_declarations("AH KH QH JH TH 7H AC AD AS 7C 8C 7D", "9H 8H 9C TC JC QC KD QD JD 8S 9S TS")
    assert d._repr_html_() == _html.declaration_score_html(d) and d.to_dict()["totals"] == [95, 0]
    assert d.point._repr_html_() == _html.record_html(d.point)
    for game in (cribbage.Game("five-card"), piquet.Game()):  # get_type: the record built in Python
        t = game.get_type()
        assert type(t) is _engine.GameType and t == _engine.GameType(**game._type_fields())
        assert t.short_name == game._type_fields()["short_name"] in ("cribbage", "piquet")


def test_a_discard_row_has_one_field_order():
    """Issue 32 item 5: the repr, ``to_dict`` and the data frame give a row's fields in the order
    of the analysis' table (keep, throw, hand, min, max, crib, heels, net)."""
    a = cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=False)
    order = ["kept", "thrown", "hand", "hand_min", "hand_max", "crib", "heels", "net"]
    assert re.findall(r"(\w+)=", repr(a.best)) == order
    assert list(a.best.to_dict()) == order + ["hand_distribution"]
    assert list(a.to_dict()["rows"][0]) == order + ["hand_distribution"]
    assert a.best.to_dict()["hand_min"] == a.best.hand_min and a.best.to_dict()["kept"] == [str(c) for c in a.best.kept]
    assert str(a).splitlines()[1].split() == ["keep", "throw", "hand", "min", "max", "crib", "heels", "net"]
    pd = pytest.importorskip("pandas")
    assert isinstance(a.to_pandas(), pd.DataFrame) and list(a.to_pandas().columns) == order
