#!/usr/bin/env python3
"""Import circles among the crate's modules (issue 22: "no import circle anywhere in `rust/`").

Reads every `.rs` file under `rust/`, collects the paths it names (`use crate::…`, `use super::…`,
`use self::…` trees and `crate::…`/`super::…` paths written inline in code) and resolves each to
the module that *defines* the item, following `pub use` re-exports (so a game's facade `mod.rs`
does not count as a dependency of its own children). Test code (`tests.rs` files and
`#[cfg(test)] mod … { … }` blocks) is left out: tests may look anywhere.

A circle is reported at the level where it is visible: for two files, the edge is drawn between
the children of their nearest common module (`piquet/compare.rs` → `piquet/declare.rs` is the edge
compare → declare inside `piquet`; `piquet/game/mod.rs` → `piquet/play.rs` is game → play). A
module and its own submodules (`game/mod.rs` and `game/serial.rs`) are one unit and never a
circle with each other.

    python3 tools/import_circles.py            # every circle, then a count; exit status 1 if any
    python3 tools/import_circles.py --edges    # also print every sibling edge with its witnesses
    python3 tools/import_circles.py --skip rust/bindings   # leave a folder out
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "rust"

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
ITEM_RE = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:const\s+fn|async\s+fn|fn|struct|enum|const|static|type|trait|mod|union)"
    rf"\s+(?:mut\s+)?({IDENT})",
    re.M,
)
MACRO_RE = re.compile(rf"^\s*macro_rules!\s*({IDENT})", re.M)
PATH_RE = re.compile(rf"(?<![A-Za-z0-9_:])(\$?crate|super|self)((?:\s*::\s*{IDENT})*)")


def strip_comments_and_strings(text: str) -> str:
    """Blank out comments, string and char literals (keeping newlines and byte offsets)."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "r" and re.match(r'r#*"', text[i : i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(m.group(1))
            blank(i, end)
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # a char literal ('a', '\n', '\u{..}') or a lifetime ('a): only blank the former
            m = re.match(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", text[i:])
            if m:
                blank(i, i + len(m.group(0)))
                i += len(m.group(0))
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def matching_brace(text: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def strip_test_blocks(text: str) -> str:
    """Blank `#[cfg(test)]` items (inline test modules and test-only functions)."""
    out = text
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        brace = out.find("{", m.end())
        semi = out.find(";", m.end())
        if brace < 0 or (0 <= semi < brace):  # `#[cfg(test)] mod tests;` or a test-only `use`
            end = semi + 1
        else:
            end = matching_brace(out, brace) + 1
        out = out[: m.start()] + re.sub(r"[^\n]", " ", out[m.start() : end]) + out[end:]
    return out


class Module:
    def __init__(self, path: tuple[str, ...], file: Path, text: str):
        self.path = path
        self.file = file
        self.text = text
        self.items: set[str] = set(ITEM_RE.findall(text)) | set(MACRO_RE.findall(text))
        self.uses: dict[str, tuple[str, ...]] = {}  # name -> absolute path it names
        self.globs: list[tuple[str, ...]] = []  # absolute module paths glob-imported
        self.refs: list[tuple[str, ...]] = []  # absolute paths referenced (uses and inline paths)


def module_path(file: Path) -> tuple[str, ...]:
    rel = file.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return ("crate", *parts)


def absolute(base: tuple[str, ...], segs: list[str]) -> tuple[str, ...] | None:
    """`segs` (starting with crate/super/self) read inside module `base`."""
    cur = list(base)
    i = 0
    if segs[0] in ("crate", "$crate"):
        cur, i = ["crate"], 1
    while i < len(segs) and segs[i] in ("super", "self"):
        if segs[i] == "super":
            if len(cur) <= 1:
                return None
            cur.pop()
        i += 1
    return tuple(cur) + tuple(segs[i:])


def parse_use_tree(tree: str, prefix: list[str]) -> list[tuple[list[str], str | None]]:
    """(segments, alias-or-name) for every leaf of a use tree; a glob leaf has name '*'."""
    tree = tree.strip()
    results: list[tuple[list[str], str | None]] = []
    # split top-level on '::' up to a brace
    brace = tree.find("{")
    if brace >= 0:
        head = tree[:brace].rstrip().rstrip(":").strip()
        inner = tree[brace + 1 : tree.rfind("}")]
        segs = prefix + [s.strip() for s in head.split("::") if s.strip()]
        depth, start = 0, 0
        parts = []
        for k, ch in enumerate(inner):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(inner[start:k])
                start = k + 1
        parts.append(inner[start:])
        for p in parts:
            if p.strip():
                results += parse_use_tree(p, segs)
        return results
    m = re.match(rf"(.*?)(?:\s+as\s+({IDENT}))?$", tree, re.S)
    body, alias = m.group(1), m.group(2)
    segs = prefix + [s.strip() for s in body.split("::") if s.strip()]
    if not segs:
        return results
    if segs[-1] == "self":
        segs = segs[:-1]
    name = alias or (segs[-1] if segs else None)
    return [(segs, name)]


USE_RE = re.compile(r"(?<![A-Za-z0-9_])(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", re.S)


def load(skip: list[str]) -> dict[tuple[str, ...], Module]:
    mods: dict[tuple[str, ...], Module] = {}
    for f in sorted(SRC.rglob("*.rs")):
        rel = f.relative_to(ROOT).as_posix()
        if any(rel.startswith(s.rstrip("/") + "/") or rel == s for s in skip):
            continue
        if f.name == "tests.rs" or "/tests/" in rel:
            continue
        text = strip_test_blocks(strip_comments_and_strings(f.read_text()))
        mods[module_path(f)] = Module(module_path(f), f, text)
    for mod in mods.values():
        for m in USE_RE.finditer(mod.text):
            tree = m.group(1)
            if not re.match(r"\s*(\$?crate|super|self)\b", tree):
                # a relative `use child::x` (2018 paths): a child module of this one, or an extern crate
                first = re.match(rf"\s*({IDENT})", tree)
                if not first or (mod.path + (first.group(1),)) not in mods:
                    continue
                tree = "self::" + tree.strip()
            for segs, name in parse_use_tree(tree, []):
                a = absolute(mod.path, segs)
                if a is None:
                    continue
                if name == "*":
                    mod.globs.append(a[:-1])
                    continue
                mod.uses[name] = a
                mod.refs.append(a)
        text_wo_uses = USE_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), mod.text)
        for m in PATH_RE.finditer(text_wo_uses):
            segs = [m.group(1)] + [s.strip() for s in m.group(2).split("::") if s.strip()]
            if len(segs) < 2:
                continue
            a = absolute(mod.path, segs)
            if a is not None:
                mod.refs.append(a)
        # names used unqualified that a glob import brings in
        words = set(re.findall(IDENT, text_wo_uses))
        for g in mod.globs:
            gm = mods.get(g)
            if gm is None:
                continue
            for w in words & (gm.items | set(gm.uses)):
                mod.refs.append(g + (w,))
    return mods


def resolve(mods: dict, path: tuple[str, ...], depth: int = 0) -> tuple[str, ...] | None:
    """The module that defines the item `path` names (or the module itself if it names one)."""
    if depth > 20:
        return None
    # the longest prefix that is a module
    k = len(path)
    while k > 0 and path[:k] not in mods:
        k -= 1
    if k == 0:
        return None
    mod = mods[path[:k]]
    if k == len(path):
        return mod.path
    name = path[k]
    if name in mod.items:
        return mod.path
    if name in mod.uses:
        target = mod.uses[name] + path[k + 1 :]
        r = resolve(mods, target, depth + 1)
        return r if r is not None else mod.path
    for g in mod.globs:
        gm = mods.get(g)
        if gm is not None and (name in gm.items or name in gm.uses):
            r = resolve(mods, g + path[k:], depth + 1)
            if r is not None:
                return r
    return mod.path  # defined by a macro or not found: the module the path points into


def sibling_edge(a: tuple[str, ...], b: tuple[str, ...]):
    """(parent, child-of-a, child-of-b) for the nearest common module, or None (ancestor/same)."""
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    if k == len(a) or k == len(b):
        return None  # one contains the other: one unit
    return a[:k], a[k], b[k]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def short(path: tuple[str, ...]) -> str:
    return "/".join(path[1:]) or "crate"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skip", action="append", default=[], help="a folder to leave out (e.g. rust/bindings)")
    ap.add_argument("--edges", action="store_true", help="print every sibling edge with its witnesses")
    args = ap.parse_args()
    mods = load(args.skip)
    # per parent module: graph among its children, with witnesses "file: path"
    graphs: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    why: dict[tuple, set[str]] = defaultdict(set)
    for mod in mods.values():
        for ref in mod.refs:
            target = resolve(mods, ref)
            if target is None:
                continue
            e = sibling_edge(mod.path, target)
            if e is None:
                continue
            parent, x, y = e
            graphs[parent][x].add(y)
            why[(parent, x, y)].add(f"{mod.file.relative_to(ROOT)} -> {'::'.join(ref)}")
    found = 0
    for parent in sorted(graphs):
        g = graphs[parent]
        if args.edges:
            for x in sorted(g):
                for y in sorted(g[x]):
                    print(f"{short(parent)}: {x} -> {y}    ({'; '.join(sorted(why[(parent, x, y)])[:3])})")
        for comp in cycles(g):
            found += 1
            print(f"circle in {short(parent)}: {' <-> '.join(comp)}")
            members = set(comp)
            for x in comp:
                for y in sorted(g[x] & members):
                    w = sorted(why[(parent, x, y)])
                    print(f"    {x} -> {y}: {w[0]}" + (f" (+{len(w) - 1} more)" if len(w) > 1 else ""))
    print(f"{found} circle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
