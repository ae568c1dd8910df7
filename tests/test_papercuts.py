"""The small inconsistencies a new user meets (issue 32, item 5), each fixed once: one piquet
scope default, the arena table without a source the variant never scores, public modules that
list only their API, ``simulate``'s signature as the docs write it, one card order for a
discard table, the exchange table sorted by the measure the guide recommends, and the IS-MCTS
hint's scale as the guide words it. (``bench --json`` is in tests/test_bench_cli.py.)"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from cribpiquet import _html, arena, cli, cribbage, piquet

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_one_piquet_scope_default_for_the_library_play_and_arena():
    parser = cli.build_parser()
    play = parser.parse_args(["play", "piquet"])
    ar = parser.parse_args(["arena", "piquet", "--players", "random", "random"])
    assert piquet.Game().scope == play.scope == cli._arena_game(ar).scope == "partiya"
    assert piquet.Game().get_type().parameter_specification["scope"] == "partiya"
    help_text = parser._subparsers._group_actions[0].choices["play"]._subparsers._group_actions[0].choices["piquet"].format_help()
    assert "the whole match (partiya, the default" in " ".join(help_text.split())


@pytest.mark.parametrize(("variant", "scored"), [("six-card", False), ("five-card", True)])
def test_arena_table_shows_three_for_last_only_where_the_variant_scores_it(variant, scored):
    r = arena(cribbage.Game(variant), ["random", "random"], 4, seed=1, progress=False)
    sources = [k for k, _ in r.points]
    assert ("three_for_last" in sources) is scored
    assert ("three_for_last" in str(r)) is scored
    assert {"pegging", "hand", "crib", "heels"} <= set(sources)
    if scored:  # the first pone pegs 3 in every five-card game: 4 games, 3 points each
        assert sum(dict(r.points)["three_for_last"]) == 12


@pytest.mark.parametrize("name", ["cribpiquet", "cribpiquet.cribbage", "cribpiquet.piquet", "cribpiquet.bots",
                                  "cribpiquet.vector", "cribpiquet.openspiel", "cribpiquet.distributed"])
def test_public_modules_list_only_their_api(name):
    mod = importlib.import_module(name)
    assert dir(mod) == sorted(mod.__all__)
    assert not {"Any", "np", "annotations", "_core"} & set(dir(mod))
    for n in mod.__all__:
        assert hasattr(mod, n), n


def test_module_constants_are_in_the_api():
    assert {"DISTRIBUTION_KINDS", "POINT_SOURCES", "GO", "CHANCE"} <= set(cribbage.__all__)
    assert {"DECLARATION_CATEGORIES", "POINT_SOURCES", "PASS"} <= set(piquet.__all__)


@pytest.mark.parametrize("module", [cribbage, piquet])
def test_simulate_signature_is_the_one_the_guide_writes(module):
    sig = inspect.signature(module.simulate)
    assert sig.parameters["players"].default == "random"
    assert sig.parameters["seed"].default == 0 and sig.parameters["first_game"].default == 0
    guide = (DOCS / "guides" / "engines.md").read_text(encoding="utf-8")
    written = re.search(r"`simulate(\(game, n_games, \*, [^`]*\))`", guide).group(1)
    assert written == str(sig).replace("'", '"')
    # the defaults are what an omitted argument does
    g = module.Game() if module is cribbage else piquet.Game(scope="deal")
    a, b = module.simulate(g, 3), module.simulate(g, 3, players="random", seed=0, first_game=0)
    assert (a["scores"] == b["scores"]).all()


def test_discard_table_lists_cards_in_the_clis_order():
    """print(DiscardAnalysis) and ``cribpiquet discard`` (without suit symbols) print the same
    table: cards by rank, then suit."""
    a = cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=False)
    text = str(a)
    assert text == cli._discard_text(a, symbols=False, colour=False)
    assert text.splitlines()[0] == "six-card, pone (opponent's crib): 2C 5D 5H 9H JC QS; opponent's throws: uniform"
    assert text.splitlines()[2].startswith("5D 5H JC QS  2C 9H ")


def test_exchange_html_is_sorted_by_the_recommended_measure():
    hand = "AH KH QH JH TH AS KS QS 7C 8C 7D 8D"
    a = piquet.analyze_exchange(hand, role="elder", samples=300, seed=1)
    assert a.recommended_sort == "net"
    html = a._repr_html_()
    assert html == _html.exchange_html(a, key="net") and "sorted by net" in html
    nets = [r.net.value for r in a.sorted_rows("net")]
    assert nets == sorted(nets, reverse=True)
    exact = piquet.analyze_exchange(hand, role="elder", samples=0)
    assert exact.recommended_sort == "expected_total"
    assert "sorted by expected_total" in exact._repr_html_()


def test_ismcts_hint_scale_is_worded_as_the_guide_words_it():
    from cribpiquet import play

    guide = " ".join((DOCS / "guides" / "terminal.md").read_text(encoding="utf-8").split())
    crib = cribbage.Game().new_initial_state()
    deal = piquet.Game().new_initial_state()
    crib_text, _ = play.value_unit("ismcts", crib)
    piquet_text, _ = play.value_unit("ismcts", deal)
    assert crib_text == "estimated chance to win the game"
    assert "ismcts: in cribbage the " + crib_text in guide
    assert piquet_text.startswith("search value 0..1 of the deal's point difference")
    assert "in piquet a " + piquet_text in guide
