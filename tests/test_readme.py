"""The README's Python examples run as written, and their commented results are the real ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
VALUE_START = ("(", "[", "'", '"', "Card(", "array(", "GameEvent(", "Rules.", "Estimate(") + tuple("0123456789")


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def _claims(block: str) -> list[tuple[str, str]]:
    """(expression, claimed value) for top-level lines written `expression   # value: remark`."""
    claims = []
    for line in block.splitlines():
        m = re.match(r"^(?![\s#])([^#=]+?)\s{2,}# (.+)$", line)
        if not m or m.group(1).startswith(("print(", "for ")):
            continue
        claimed = re.split(r":\s|\s{2,}", m.group(2).strip())[0]
        if claimed.startswith(VALUE_START):
            claims.append((m.group(1).strip(), claimed))
    return claims


def _renderings(value) -> set[str]:
    out = {repr(value), str(value)}
    if isinstance(value, tuple):
        out.add(", ".join(repr(v) for v in value))
    if hasattr(value, "tolist"):
        out.add(repr(value.tolist()))
    return out


@pytest.mark.skipif(not README.is_file(), reason="README not shipped with this checkout")
def test_readme_python_blocks_run_and_match_their_comments():
    checked = []
    for block in _blocks():
        namespace: dict = {}  # each block on its own, as a reader copies it (issue 19 item 23)
        exec(compile(block, str(README), "exec"), namespace)
        for expr, claimed in _claims(block):
            value = eval(expr, namespace)
            assert claimed in _renderings(value), f"README: {expr}  # {claimed}; actual {value!r}"
            checked.append(expr)
    assert len(checked) >= 16, checked
