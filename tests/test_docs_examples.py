"""Every Python example of the README and of the documentation site runs as written, each block
on its own (a reader copies one block, not the page), and its commented results are the real ones.

A top-level line written ``expression   # value`` (two spaces or more before the ``#``) claims
that the expression's value prints as ``value``; the claim is the comment up to ``: `` or two
spaces, when it starts like a value (a number, a bracket, a quote, ``Card(``, ``array(`` …).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
VALUE_START = ("(", "[", "'", '"', "Card(", "array(", "GameEvent(", "Rules.", "True", "False", "Estimate(") + tuple(
    "0123456789"
)


def _blocks(page: Path) -> list[tuple[int, str]]:
    """(first line number, code) of each ```python block of a page."""
    text = page.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 2, m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    ]


def _claims(block: str) -> list[tuple[str, str]]:
    """(expression, claimed value) for top-level lines written `expression   # value: remark`."""
    claims = []
    for line in block.splitlines():
        m = re.match(r"^(?![\s#])([^#=]+?)\s{2,}# (.+)$", line)
        if not m or m.group(1).startswith(("print(", "for ", "assert ")):
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


CASES = [
    pytest.param(page, line, code, id=f"{page.relative_to(ROOT)}:{line}")
    for page in PAGES
    if page.is_file()
    for line, code in _blocks(page)
]


def test_every_page_with_examples_is_collected():
    names = {c.values[0].relative_to(ROOT).as_posix() for c in CASES}
    assert {"README.md", "docs/guides/scoring.md", "docs/guides/engines.md", "docs/guides/bots.md"} <= names
    assert len(CASES) >= 15


@pytest.mark.parametrize(("page", "line", "code"), CASES)
def test_example_runs_alone_and_matches_its_comments(page: Path, line: int, code: str):
    namespace: dict = {"__name__": "__docs_example__"}
    # Line numbers in tracebacks are the page's.
    exec(compile("\n" * (line - 1) + code, str(page), "exec"), namespace)
    for expr, claimed in _claims(code):
        value = eval(expr, namespace)
        assert claimed in _renderings(value), f"{page.name}:{line}: {expr}  # {claimed}; actual {value!r}"


def test_the_readme_is_short_and_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)
    assert blocks[0] == ("sh", "pip install . && cribpiquet stats\n")
    assert blocks[1] == ("sh", "pip install '.[test]' && pytest\n")


def _shell_commands() -> list[tuple[str, str]]:
    """(page:line, command line) of every ``cribpiquet …`` line of the ```sh blocks; optional
    parts written ``[--flag X]`` are kept (they must be valid too), ``…`` placeholders dropped."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
            first = text.count("\n", 0, m.start()) + 2
            lines = m.group(1).splitlines()
            k = 0
            while k < len(lines):
                line, where = lines[k], first + k
                while line.rstrip().endswith("\\") and k + 1 < len(lines):  # continued lines
                    k += 1
                    line = line.rstrip()[:-1] + " " + lines[k].strip()
                k += 1
                command = re.split(r"\s+#\s", line)[0].strip()
                for part in command.split("&&"):
                    part = part.strip()
                    if part.startswith(("cribpiquet ", "python -m cribpiquet ")):
                        out.append((f"{page.relative_to(ROOT)}:{where}", part))
    return out


SHELL = _shell_commands()


def test_shell_examples_are_collected():
    assert len(SHELL) >= 20


@pytest.mark.parametrize(("where", "command"), SHELL, ids=[w for w, _ in SHELL])
def test_shell_example_is_a_valid_command_line(where: str, command: str):
    """Each command line of the docs parses with the CLI's own parser (every option and choice
    it names exists): running them all would play games and long arenas; the CLI tests run them."""
    import shlex

    from cribpiquet import cli

    words = shlex.split(command.replace("python -m cribpiquet", "cribpiquet", 1))[1:]
    if "…" in words or "..." in words:
        pytest.skip("a placeholder command")
    # `[--flag X]` and `[--a|--b]` optional parts: keep the first alternative, unbracketed
    flat = " ".join(words)
    flat = re.sub(r"\[([^\]|]*)(\|[^\]]*)?\]", r"\1", flat)
    words = [w for w in shlex.split(flat) if w]
    parser = cli.build_parser()
    try:
        args = parser.parse_args(words)
    except SystemExit as e:  # argparse's error exit
        pytest.fail(f"{where}: `{command}` does not parse (exit {e.code})")
    assert hasattr(args, "run"), f"{where}: `{command}` names no command"
