"""The documentation site builds with ``mkdocs build --strict``: no broken link, no missing
reference, every public module's API page generated from the installed package."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mkdocs", reason="the [docs] extra is not installed")
pytest.importorskip("mkdocstrings_handlers.python", reason="the [docs] extra is not installed")

MODULES = ["cribpiquet", "cribbage", "piquet", "bots", "vector", "envs", "openspiel", "distributed", "records"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("mkdocs.yml not shipped with this checkout")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        # no -q: it hides the warnings, and --strict then counts none
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def test_every_page_is_built(site: Path):
    for page in ["index", "getting-started/index", "guides/scoring/index", "guides/engines/index",
                 "guides/bots/index", "guides/analysis/index", "guides/terminal/index",
                 "rules/cribbage/index", "rules/piquet/index", "performance/index"]:
        assert (site / f"{page}.html").is_file(), page


@pytest.mark.parametrize("module", MODULES)
def test_api_page_lists_every_public_name(site: Path, module: str):
    import importlib

    name = "cribpiquet" if module == "cribpiquet" else f"cribpiquet.{module}"
    mod = importlib.import_module(name)
    html = (site / "api" / module / "index.html").read_text(encoding="utf-8")
    public = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
    pages = "".join(p.read_text(encoding="utf-8") for p in (site / "api").rglob("index.html"))
    missing = [
        n
        for n in public
        if not n.startswith("__")
        and f'id="{name}.{n}"' not in html
        # a submodule is documented on its own page (or section)
        and not (isinstance(getattr(mod, n, None), type(mod)) and f'id="{name}.{n}"' in pages)
    ]
    assert not missing, f"{name}: not in the API page: {missing}"


def test_examples_are_rendered_as_code(site: Path):
    html = (site / "api" / "cribbage" / "index.html").read_text(encoding="utf-8")
    assert "language-pycon" in html or "highlight" in html
    assert "score_hand" in html


# ------------------------------------------------------------ the API reference reads right

import html as _html
import re

# The help text of Python's own types, which inspection showed for the module constants.
BUILTIN_HELP = ["Convert a number or string to an integer", "int([x]) -> integer", "Built-in immutable sequence",
                "str(object='') -> str", "bool(x) -> bool", "Convert a string or number to a floating-point"]
ROLE = re.compile(r":(?:func|meth|attr|class|mod|data|exc|obj):`")


def _api_pages(site: Path) -> list[Path]:
    return sorted((site / "api").rglob("index.html"))


def _text(markup: str) -> str:
    return " ".join(_html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def _section(site: Path, page: str, anchor: str) -> str:
    """The text of one object's entry: from its heading to the next object's heading."""
    markup = (site / "api" / page / "index.html").read_text(encoding="utf-8")
    start = markup.index(f'id="{anchor}"')
    own = markup.index('class="doc doc-heading"', start)  # the entry's own heading
    end = markup.find('class="doc doc-heading"', own + 1)
    return _text(markup[start:end if end > 0 else None])


def test_no_builtin_help_text(site: Path):
    for page in _api_pages(site):
        text = _text(page.read_text(encoding="utf-8"))
        assert not [h for h in BUILTIN_HELP if h in text], page


@pytest.mark.parametrize(
    ("page", "name", "described"),
    [
        ("cribbage", "GO", "The go action (1378)"),
        ("cribbage", "CHANCE", "at a chance node"),
        ("cribbage", "NUM_DISTINCT_ACTIONS", "Number of action ids (1379)"),
        ("cribbage", "DISTRIBUTION_KINDS", "The kinds of hand_distribution"),
        ("cribbage", "POINT_SOURCES", "The keys of State.points_by_source()"),
        ("piquet", "PASS", "Decline to announce an open capot"),
        ("piquet", "EXCHANGE_BASE", "EXCHANGE_BASE + n (32..40) exchanges n cards"),
        ("piquet", "DECLARATION_CATEGORIES", "The order of the per-player lists"),
        ("piquet", "TERMINAL", "once the game is over"),
        ("openspiel", "PIQUET", "The registered short name of piquet"),
    ],
)
def test_each_constant_has_its_own_description(site: Path, page: str, name: str, described: str):
    module = "cribpiquet" if page == "cribpiquet" else f"cribpiquet.{page}"
    assert described in _section(site, page, f"{module}.{name}")


def test_module_constants_are_all_described(site: Path):
    """Every constant the two game modules export has a description of its own (not empty)."""
    import cribpiquet.cribbage as cribbage
    import cribpiquet.piquet as piquet

    for mod, page in ((cribbage, "cribbage"), (piquet, "piquet")):
        for name in mod.__all__:
            value = getattr(mod, name)
            if isinstance(value, (int, tuple)):
                text = _section(site, page, f"{mod.__name__}.{name}")
                described = text.split(f"{name} = {value!r}", 1)[1]
                assert len(described.split()) >= 3, (name, text)


def test_no_sphinx_role_is_left_as_text(site: Path):
    for page in _api_pages(site):
        markup = page.read_text(encoding="utf-8")
        assert not ROLE.search(_text(markup)), page
        assert "][cribpiquet." not in markup, page  # an autorefs link left unrendered


def test_every_cross_reference_is_a_link_to_an_anchor(site: Path):
    """The docstrings' references are autorefs links, each to an entry that exists."""
    links = 0
    for page in _api_pages(site):
        markup = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a class="autorefs autorefs-internal"[^>]*href="([^"]+)"', markup):
            path, _, anchor = href.partition("#")
            target = (page.parent / path / "index.html").resolve() if path else page
            assert target.is_file(), href
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), href
            links += 1
    assert links >= 150  # the package's docstrings hold about 190 Sphinx roles


@pytest.mark.parametrize(
    ("page", "anchor", "signature"),
    [
        ("cribbage", "cribpiquet.cribbage.score_hand",
         "score_hand(hand: str | Iterable[Card | int | str], starter: Card | int | str, *, crib: bool = False) -> int"),
        ("cribbage", "cribpiquet.cribbage.State.legal_actions", "legal_actions(player: int | None = None) -> list[int]"),
        ("cribbage", "cribpiquet.cribbage.Game.new_initial_state", "new_initial_state() -> State"),
        ("cribbage", "cribpiquet.cribbage.State.child", "child(action: int) -> State"),
        ("cribbage", "cribpiquet.cribbage.Card.rank", "rank: int"),
        ("piquet", "cribpiquet.piquet.score_declarations", "rules: Rules | str | None = None"),
        ("piquet", "cribpiquet.piquet.State.observation_string", "observation_string(player: int | None = None) -> str"),
        ("bots", "cribpiquet.bots.ISMCTS.step", "step(state: cribbage.State | piquet.State) -> int"),
        ("cribpiquet", "cribpiquet.solve", "-> Solution"),
        ("vector", "cribpiquet.vector.VectorGame.step", "-> Batch"),
    ],
)
def test_signatures_show_the_stub_types(site: Path, page: str, anchor: str, signature: str):
    assert signature in _section(site, page, anchor)


def test_long_code_lines_wrap(site: Path):
    css = (site / "css" / "api.css").read_text(encoding="utf-8")
    assert re.search(r"pre\s*>\s*code\s*\{[^}]*white-space:\s*pre-wrap", css)
    for page in _api_pages(site):
        assert "css/api.css" in page.read_text(encoding="utf-8"), page


def _probe_site(tmp_path: Path, role: str) -> subprocess.CompletedProcess[str]:
    """A one-page site over a tiny package whose docstring holds ``role``, built strictly with
    the project's API extension."""
    pkg = tmp_path / "xrefprobe"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(f'"""A probe: see {role}."""\n\n\ndef present():\n    """Here."""\n')
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# probe\n\n::: xrefprobe\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: probe\nstrict: true\nplugins:\n  - mkdocstrings:\n      default_handler: python\n"
        "      handlers:\n        python:\n          paths: [.]\n          options:\n"
        f"            extensions:\n              - {ROOT / 'docs' / '_ext' / 'api_reference.py'}:ApiReference\n"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)  # fmt: skip


def test_strict_build_fails_on_an_unresolved_cross_reference(tmp_path: Path):
    good = _probe_site(tmp_path / "good", ":func:`present`")
    assert good.returncode == 0, good.stdout[-2000:] + good.stderr[-2000:]
    assert 'href="#xrefprobe.present"' in (tmp_path / "good" / "site" / "index.html").read_text(encoding="utf-8")
    bad = _probe_site(tmp_path / "bad", ":func:`no_such_function`")
    assert bad.returncode != 0
    assert "xrefprobe.no_such_function" in bad.stdout + bad.stderr
