"""Notebook display and data out: every display method returns well-formed HTML/SVG (parsed
here), for states of every variant and rule set and for each result class; every ``to_dict()``
is plain JSON-able Python that round-trips through ``json``; the tables become data frames."""

from __future__ import annotations

import builtins
import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from cribpiquet import arena, cribbage, piquet

ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"
TRICKS = [("AH", "8H"), ("KH", "9H"), ("QH", "8S"), ("JH", "9S"), ("TH", "TS"), ("7H", "QD"),
          ("AC", "9C"), ("AD", "KD"), ("AS", "JD"), ("7C", "TC"), ("JC", "8C"), ("QC", "7D")]  # fmt: skip


def well_formed(markup: str) -> ET.Element:
    """Parse the markup strictly (as XML inside one element): unbalanced tags, bad attributes or
    stray ``&`` fail."""
    assert isinstance(markup, str) and markup
    return ET.fromstring(f"<div>{markup}</div>")


def round_trips(d: Any) -> None:
    assert isinstance(d, dict)
    assert json.loads(json.dumps(d)) == d


def _states(game: Any, seed: int, every: int = 7) -> list[Any]:
    rng = random.Random(seed)
    s = game.new_initial_state()
    out = [s.clone()]
    k = 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        k += 1
        if k % every == 0 or s.is_terminal():
            out.append(s.clone())
    return out


def test_card_faces_are_svg_with_red_suits():
    svg = cribbage.Card("TH")._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["10", "♥"]
    assert 'fill="#c0142c"' in svg  # hearts are red
    spade = piquet.Card("AS")._repr_html_()
    assert [t.text for t in ET.fromstring(spade).iter("{http://www.w3.org/2000/svg}text")] == ["A", "♠"]
    assert "#c0142c" not in spade


@pytest.mark.parametrize("variant", ["five-card", "six-card", "three-player", "four-player"])
def test_cribbage_states_render(variant: str):
    game = cribbage.Game(variant)
    for state in _states(game, seed=len(variant)):
        root = well_formed(state._repr_html_())
        n = state.num_players()
        shown = sum(1 for e in root.iter("{http://www.w3.org/2000/svg}svg") if "cp-back" not in (e.get("class") or ""))
        held = sum(len(state.hand(p)) for p in range(n))
        count = len([c for c in root.iter("{http://www.w3.org/2000/svg}svg")])
        assert shown == count >= held  # every card face up (plus the starter and the count's cards)
        view = well_formed(state.render(player=0))
        backs = sum(1 for e in view.iter("{http://www.w3.org/2000/svg}svg") if "cp-back" in (e.get("class") or ""))
        assert backs == sum(len(state.hand(p)) for p in range(1, n))


@pytest.mark.parametrize("rules", ["russian", "rubicon"])
@pytest.mark.parametrize("scope", ["deal", "partiya"])
def test_piquet_states_render(rules: str, scope: str):
    game = piquet.Game(rules, scope=scope)
    for state in _states(game, seed=3, every=11):
        well_formed(state._repr_html_())
        view = well_formed(state.render(player=1))
        backs = sum(1 for e in view.iter("{http://www.w3.org/2000/svg}svg") if "cp-back" in (e.get("class") or ""))
        assert backs == len(state.hand(0))


def test_render_rejects_a_bad_player():
    s = cribbage.Game("five-card").new_initial_state()
    with pytest.raises(ValueError, match="player must be a seat 0..1 or None"):
        s.render(player=2)
    with pytest.raises(TypeError, match="player must be"):  # a bool is no seat, as in legal_actions (issue 30)
        s.render(player=True)


def _results() -> list[Any]:
    score = piquet.score_declarations(ELDER, DEALER)
    game = piquet.score_game(ELDER, DEALER, TRICKS)
    p = piquet.Partiya(piquet.Rules.russian().replace(koroliks_per_partiya=3))
    for x, y in [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)]:
        p.add_game(x, y)
    partie = piquet.Partie.from_totals((175, 93)).result()
    decl = piquet.declarations(ELDER)
    return [
        cribbage.explain_hand("5H 5D 5S JC", "5C"),
        cribbage.explain_peg("7C 8D 9H 7S"),
        cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=False).best,
        score, score.point, game, game.events[3], decl, decl.point, decl.sequences[0], decl.sets[0],
        p.result(), p.result().korolik_records[0], p.games[0], partie,
    ]  # fmt: skip


@pytest.mark.parametrize("result", _results(), ids=lambda r: type(r).__name__)
def test_native_results_display_and_convert(result: Any):
    well_formed(result._repr_html_())
    d = result.to_dict()
    round_trips(d)
    assert d  # something in it


def test_to_dict_values_are_the_results():
    b = cribbage.explain_hand("6C 6D 7S 7D", "8S")
    d = b.to_dict()
    assert (d["total"], d["fifteens"], d["pairs"], d["runs"]) == (20, 4, 4, 12)
    assert d["items"][0] == ["fifteen", ["7D", "8S"], 2]
    s = piquet.score_declarations(ELDER, DEALER).to_dict()
    assert s["totals"] == [95, 0] and s["repique"] == "elder"
    g = piquet.score_game(ELDER, DEALER, TRICKS).to_dict()
    assert g["totals"] == [124, 8] and g["winner"] == "elder"
    assert g["events"][4]["reason"] == "leads AH"


def test_python_results_display_convert_and_frame():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    a = cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=False)
    well_formed(a._repr_html_())
    d = a.to_dict()
    round_trips(d)
    assert d["rows"][0]["thrown"] == ["2C", "9H"] and round(d["rows"][0]["net"], 3) == 8.31
    df = a.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 15 and df.loc[0, "thrown"] == "2C 9H"
    assert a.to_polars().shape == (15, df.shape[1])

    x = piquet.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", role="elder", samples=200, seed=1)
    well_formed(x._repr_html_())
    d = x.to_dict()
    round_trips(d)
    assert len(d["rows"]) == len(x.rows) == len(x.to_pandas())
    best = x.to_pandas().iloc[0]
    assert best["discard"] == x.best.discard_text() and best["net_se"] == pytest.approx(x.best.net.se)

    r = arena(piquet.Game(scope="deal"), ["first", "random"], 6, seed=2, progress=False)
    well_formed(r._repr_html_())
    d = r.to_dict()
    round_trips(d)
    assert d["wins"] == list(r.wins) and d["ci95"][0] == pytest.approx(list(r.ci95[0]))
    frame = r.to_polars()
    assert isinstance(frame, pl.DataFrame) and frame["player"].to_list() == ["first", "random"]

    t = cribbage.discard_tables("five-card", progress=False)
    root = well_formed(t._repr_html_())
    assert len(root.findall(".//table")) == 2
    round_trips(t.to_dict())


def test_simulate_columns_become_frames():
    pd = pytest.importorskip("pandas")
    res = cribbage.simulate(cribbage.Game("five-card"), 50, seed=4)
    assert isinstance(res, dict)
    df = res.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 50
    assert (df["scores_0"].to_numpy() == res["scores"][:, 0]).all()
    assert res.to_polars().shape == df.shape
    round_trips(res.to_dict())
    deals = piquet.simulate(piquet.Game(scope="deal"), 20, seed=1)
    assert list(deals.to_pandas()["winner"]) == deals["winner"].tolist()


def test_missing_frame_library_says_what_to_install(monkeypatch):
    real = builtins.__import__

    def no_pandas(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in ("pandas", "polars"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    a = cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=True)
    with pytest.raises(ImportError, match=r"^to_pandas\(\) needs pandas: pip install pandas$"):
        a.to_pandas()
    with pytest.raises(ImportError, match=r"^to_polars\(\) needs polars: pip install polars$"):
        cribbage.simulate(cribbage.Game("five-card"), 2).to_polars()


def test_plain_handles_numpy_and_nested_values():
    from cribpiquet._data import plain

    assert plain({"a": np.arange(3, dtype=np.uint8), 2: (np.int64(5), float("nan"))}) == {"a": [0, 1, 2], "2": [5, None]}
    assert plain([cribbage.Card(0), piquet.Card(31)]) == ["AC", "AS"]
