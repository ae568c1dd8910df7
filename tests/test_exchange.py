"""Piquet exchange analysis (issue 10 item 3): ``piquet.analyze_exchange`` and
``cribpiquet piquet exchange`` — the exact part against a brute force written here, hand-checked
hands, the Monte Carlo part against exact values, bad input, the plot and the CLI."""

from __future__ import annotations

import io
import itertools
import math
import random
import sys

import numpy as np
import pytest

from cribpiquet import _core, cli, piquet
from cribpiquet.piquet import Card, Rules

HAND = "AH KH QH JH TH AS KS QS 7C 8C 7D 8D"


def ids(cards) -> list[int]:
    return [int(c) for c in piquet.parse_cards(cards)]


def brute_force(dealt: list[int], discard: list[int], rules=None) -> dict:
    """Every draw of len(discard) of the 20 unseen cards, each hand through declarations_batch."""
    unseen = [c for c in range(32) if c not in dealt]
    kept = [c for c in dealt if c not in discard]
    hands = np.array([kept + list(d) for d in itertools.combinations(unseen, len(discard))], dtype=np.int64)
    f = piquet.declarations_batch(hands, rules=rules)
    cb = 10 * piquet.declarations(dealt).carte_blanche
    total = f["point_length"].astype(float) + f["sequence_value"] + f["sets_value"] + cb
    return {
        "expected_point": f["point_length"].mean(),
        "expected_sequence": f["sequence_value"].mean(),
        "expected_sets": f["sets_value"].mean(),
        "expected_total": total.mean(),
        "point_length": np.bincount(f["point_length"], minlength=9) / len(hands),
        "sequence_length": np.bincount(f["best_sequence_length"], minlength=9) / len(hands),
        "set_size": np.bincount(f["best_set_kind"], minlength=5) / len(hands),
        "total_30": (total >= 30).mean(),
        "draws": len(hands),
        "carte_blanche": cb,
    }


# ------------------------------------------------------------------------------- the exact part

@pytest.mark.parametrize("seed,role,rules", [(1, "elder", "rubicon"), (2, "dealer", "russian"),
                                             (3, "elder", "russian")])
def test_exact_rows_equal_a_brute_force(seed, role, rules):
    rng = random.Random(seed)
    dealt = rng.sample(range(32), 12)
    a = piquet.analyze_exchange(dealt, role=role, rules=rules, samples=0)
    totals = [r.expected_total for r in a.rows]
    assert totals == sorted(totals, reverse=True)
    small = [r for r in a.rows if len(r.discard) <= 3]
    for r in rng.sample(small, 6) + [a.best if len(a.best.discard) <= 3 else small[0]]:
        want = brute_force(dealt, [int(c) for c in r.discard], rules)
        for key in ("expected_point", "expected_sequence", "expected_sets", "expected_total", "total_30"):
            assert getattr(r, key) == pytest.approx(want[key], abs=1e-12), (key, r.discard_text())
        for key in ("point_length", "sequence_length", "set_size"):
            assert np.allclose(getattr(r, key), want[key], atol=1e-12), (key, r.discard_text())
        assert (r.draws, r.carte_blanche) == (want["draws"], want["carte_blanche"])
        assert sorted(r.discard + r.kept) == sorted(Card(c) for c in dealt)


def test_legal_exchanges_follow_the_talon():
    sizes = lambda a: sorted({len(r.discard) for r in a.rows})  # noqa: E731
    assert sizes(piquet.analyze_exchange(HAND, samples=0)) == [0, 3, 4, 5]
    assert len(piquet.analyze_exchange(HAND, samples=0)) == 1 + 220 + 495 + 792
    assert sizes(piquet.analyze_exchange(HAND, rules="rubicon", samples=0)) == [1, 2, 3, 4, 5]
    # The russian dealer after elder took 5 (3 left): none or exactly 3; after 4: none, 3 or 4.
    assert sizes(piquet.analyze_exchange(HAND, role="dealer", max_discard=3, samples=0)) == [0, 3]
    assert sizes(piquet.analyze_exchange(HAND, role="dealer", max_discard=4, samples=0)) == [0, 3, 4]
    # Rubicon dealer: none or 1 up to all that is left (elder took at least 1: at most 7).
    assert sizes(piquet.analyze_exchange(HAND, role="dealer", rules="rubicon", max_discard=3,
                                         samples=0)) == [0, 1, 2, 3]


def test_hand_checked_expectations():
    a = piquet.analyze_exchange(HAND, samples=0)
    # Declining: point of five (hearts 51 over spades 31) 5, quint major 15, tierce major 13.
    keep = a.row([])
    assert (keep.expected_total, keep.expected_point, keep.expected_sequence) == (33.0, 5.0, 28.0)
    assert (keep.point_length[5], keep.sequence_length[5], keep.set_size[0], keep.draws) == (1.0, 1.0, 1.0, 1)
    # Throwing 7C 8C 7D, three cards come from the 20 unseen: 3 hearts (9H 8H 7H), 5 spades
    # (J-7), 6 clubs and 6 diamonds. The point is 5 + the hearts drawn, or 6 when all three are
    # spades: E = 5 + 3 * 3/20 + C(5,3)/C(20,3) = 5.45 + 10/1140.
    r = a.row("7C 8C 7D")
    assert r.expected_point == pytest.approx(5.45 + 10 / 1140, abs=1e-12)
    assert r.point_length[5] == pytest.approx((math.comb(17, 3) - math.comb(5, 3)) / 1140, abs=1e-12)
    assert r.expected_sequence >= 28.0 and r.draws == 1140
    # The best exchange throws all four small cards and the ten of hearts.
    assert a.best.discard_text() == "7C 8C 7D 8D TH"


def test_a_hand_whose_best_exchange_is_obvious():
    # A huitième in hearts (point 8, 18) and four aces (14), plus the 7 of clubs: 40 held.
    hand = "7H 8H 9H TH JH QH KH AH AC AD AS 7C"
    # Rubicon elder must exchange: throwing the 7C keeps all 40 whatever card comes (one card
    # can make no set, since each rank from the ten up is held once or four times, and no
    # sequence outside hearts); any other single card breaks the huitième or the aces.
    rb = piquet.analyze_exchange(hand, rules="rubicon", samples=0)
    assert rb.best.discard_text() == "7C"
    assert (rb.best.expected_total, rb.best.point_length[8], rb.best.sequence_length[8],
            rb.best.set_size[4], rb.best.draws) == (40.0, 1.0, 1.0, 1.0, 20)
    assert rb.rows[1].expected_total < 40.0
    # Russian sequence values (a tierce 13, a huitième 18) make breaking the huitième pay: throw
    # 7C 7H JH and keep 8-9-10 and Q-K-A of hearts, two tierces (26), a point of six (no heart is
    # left to draw) and the four aces; declining keeps exactly 40.
    ru = piquet.analyze_exchange(hand, samples=0)
    assert ru.row([]).expected_total == 40.0
    best = ru.best
    assert best.discard_text() == "7C 7H JH"
    assert best.point_length[6] == 1.0 and best.expected_point == 6.0
    assert best.expected_sequence >= 26.0 and best.expected_sets >= 14.0
    assert best.expected_total > 46.0


def test_carte_blanche_is_judged_on_the_dealt_hand():
    # No king, queen or jack dealt: 10 in every row, even where a court card is drawn.
    hand = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D"
    a = piquet.analyze_exchange(hand, samples=0)
    assert {r.carte_blanche for r in a.rows} == {10}
    keep = a.row([])
    # Point of five (hearts and clubs equal, 45 each) 5, two quarts (7 to 10) 14 + 14, no set
    # (two tens, two aces), carte blanche 10.
    assert keep.expected_total == 5 + 14 + 14 + 10


# ------------------------------------------------------------------------- the Monte Carlo part

def _opponent_keys(unseen: list[int], rules) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Every 12-card hand of the unseen cards (the opponent's, if it keeps them) and its keys."""
    hands = np.array(list(itertools.combinations(unseen, 12)), dtype=np.int8)
    return hands, np.zeros(1), keys_of(piquet.declarations_batch(hands, rules=rules))


def keys_of(f: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    kind, rank = f["best_set_kind"].astype(int), f["best_set_rank"].astype(int)
    return {
        "point": f["point_length"].astype(int) * 128 + f["point_value"],
        "sequences": f["best_sequence_length"].astype(int) * 8 + f["best_sequence_top"],
        "sets": np.where(kind == 4, 9 + rank, np.where(kind == 3, 1 + rank, 0)),
    }


def test_monte_carlo_win_chances_agree_with_a_brute_force():
    """Elder may exchange exactly one card, the dealer keeps his hand: P(win) of each category
    is exact over every card drawn and every 12 of the 19 other unseen cards for the dealer."""
    rules = Rules.rubicon().replace(elder_exchange=(1, 1, False))
    dealt = ids("AH KH QH 9H 7C 8C TC KD QD 9S TS JS")
    unseen = [c for c in range(32) if c not in dealt]
    opp_hands, _, opp = _opponent_keys(unseen, rules)
    a = piquet.analyze_exchange(dealt, rules=rules, samples=6000, seed=5, opponent="keep")
    assert len(a.rows) == 12
    for r in a.rows[:3] + a.rows[-2:]:
        kept = [int(c) for c in r.kept]
        mine = keys_of(piquet.declarations_batch(np.array([kept + [d] for d in unseen]), rules=rules))
        for cat in ("point", "sequences", "sets"):
            wins = losses = 0.0
            for i, d in enumerate(unseen):
                ok = ~(opp_hands == d).any(axis=1)  # the dealer cannot hold the card I drew
                wins += np.mean(mine[cat][i] > opp[cat][ok]) / len(unseen)
                losses += np.mean(mine[cat][i] < opp[cat][ok]) / len(unseen)
            for est, exact in ((getattr(r, f"{cat}_win"), wins), (getattr(r, f"{cat}_loss"), losses)):
                assert abs(est.value - exact) <= 4 * est.se + 1e-9, (cat, r.discard_text(), est, exact)
        assert r.samples == 6000
        assert abs(r.mc_total.value - r.expected_total) <= 4 * r.mc_total.se + 1e-9


def test_monte_carlo_mean_total_estimates_the_exact_expectation():
    a = piquet.analyze_exchange(HAND, samples=3000, seed=2)
    for r in a.rows[:5] + a.rows[700:705]:
        assert r.samples == 3000
        assert abs(r.mc_total.value - r.expected_total) <= 4 * r.mc_total.se + 1e-9, r
        for cat in ("point", "sequences", "sets"):
            assert getattr(r, f"{cat}_win").value + getattr(r, f"{cat}_loss").value <= 1.0
        assert r.piqued.value == 0.0  # elder is the one who can pique
    # Declining keeps a quint major (and a tierce major): the opponent beats it only with a quint
    # major or a sixième in clubs or diamonds (its hearts and spades cannot make one), i.e.
    # holding A K Q J 10 of one of them after its exchange (an equal quint major cancels).
    keep = a.row([])
    assert keep.sequences_win.value > 0.75 and keep.sequences_loss.value < 0.15
    assert 0 < keep.repique.value < 1 and keep.repique.se > 0
    assert isinstance(keep.point_win.value, float)


def test_monte_carlo_is_seeded_and_any_split_adds_up():
    one = _core.piquet_exchange_monte_carlo(HAND, samples=300, seed=9)
    a = _core.piquet_exchange_monte_carlo(HAND, samples=170, seed=9)
    b = _core.piquet_exchange_monte_carlo(HAND, first_sample=170, samples=130, seed=9)
    for key in one:
        if key != "discard":
            assert np.array_equal(one[key], a[key] + b[key]), key
    x = piquet.analyze_exchange(HAND, samples=300, seed=9)
    y = piquet.analyze_exchange(HAND, samples=300, seed=9)
    z = piquet.analyze_exchange(HAND, samples=300, seed=10)
    assert x.rows == y.rows and x.rows != z.rows


def test_the_dealer_is_judged_where_his_discard_is_possible():
    a = piquet.analyze_exchange(HAND, role="dealer", samples=400, seed=1)
    by_size = {len(r.discard): r.samples for r in a.rows}
    assert by_size[0] == by_size[3] == 400  # elder always leaves at least 3
    assert 0 < by_size[5] <= by_size[4] <= 400
    assert all(r.pique.value == 0.0 for r in a.rows if r.samples)  # the dealer cannot pique
    # Elder took 5 (max_discard=3): every sample counts.
    b = piquet.analyze_exchange(HAND, role="dealer", max_discard=3, samples=200, seed=1)
    assert {r.samples for r in b.rows} == {200}


def test_str_is_an_aligned_table():
    a = piquet.analyze_exchange(HAND, samples=500, seed=0)
    lines = str(a).splitlines()
    assert lines[0].startswith("elder 7C 8C 7D 8D TH JH QH KH AH QS KS AS: 1508 exchanges")
    assert "win pt" in lines[1] and len(lines) == 2 + 20 + 1 and lines[-1] == "… 1488 more"
    assert lines[2].split()[:6] == ["1", "7C", "8C", "7D", "8D", "TH"]
    assert len({len(line) for line in lines[2:-1]}) == 1  # aligned
    assert "win pt" not in piquet.analyze_exchange(HAND, samples=0).table(3)
    assert repr(a).startswith("ExchangeAnalysis(role='elder', rows=1508, samples=500, best='7C 8C 7D 8D TH'")


def test_docstring_examples():
    import doctest

    from cribpiquet import _exchange

    result = doctest.testmod(_exchange, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 4


def test_progress_bar(capsys):
    pytest.importorskip("tqdm")
    a = piquet.analyze_exchange(HAND, samples=300, progress=True)
    err = capsys.readouterr().err  # the bar is drawn (tqdm may clear it before a redraw at 300/300)
    assert "exchange:" in err and "/300" in err
    assert a.rows == piquet.analyze_exchange(HAND, samples=300, progress=False).rows


# ------------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("kwargs,error,match", [
    ({"hand": "AH KH QH JH TH AS KS QS 7C 8C 7D"}, ValueError, "12"),
    ({"hand": "AH AH QH JH TH AS KS QS 7C 8C 7D 8D"}, ValueError, "duplicate card AH"),
    ({"hand": "AH 5H QH JH TH AS KS QS 7C 8C 7D 8D"}, ValueError, "unknown card"),
    ({"role": "younger"}, ValueError, "unknown role"),
    ({"role": 1}, TypeError, "role"),
    ({"rules": "whist"}, ValueError, "unknown piquet rules"),
    ({"rules": 3}, TypeError, "rules"),
    ({"role": "dealer", "max_discard": 2}, ValueError, "the dealer cannot exchange any card with 2 talon cards"),
    ({"max_discard": 6}, ValueError, "max_discard must be at most 5"),
    ({"max_discard": "3"}, TypeError, "max_discard"),
    ({"samples": -1}, ValueError, "samples"),
    ({"samples": True}, TypeError, "samples"),
    ({"seed": 1.5}, TypeError, "seed"),
    ({"opponent": "random"}, ValueError, "opponent"),
    ({"role": "dealer", "rules": "rubicon", "opponent": "keep"}, ValueError, "may not decline"),
])
def test_bad_input_raises_a_clear_error(kwargs, error, match):
    kwargs = {"hand": HAND, "samples": 10, **kwargs}
    hand = kwargs.pop("hand")
    with pytest.raises(error, match=match):
        piquet.analyze_exchange(hand, **kwargs)


def test_a_rule_set_that_allows_no_exchange_is_an_error():
    # The dealer must take 4 or 5 but elder left 3.
    rules = Rules.russian().replace(dealer_exchange=(4, 5, True))
    with pytest.raises(ValueError, match="the dealer cannot exchange any card with 3 talon cards"):
        piquet.analyze_exchange(HAND, role="dealer", rules=rules, max_discard=3, samples=0)
    # As the dealer, elder cannot have left 4 when he must take 1 (rubicon): 8 - 4 = 4 is fine,
    # but 8 - 8 is not.
    with pytest.raises(ValueError, match="max_discard must be at most 7"):
        piquet.analyze_exchange(HAND, role="dealer", rules="rubicon", max_discard=8, samples=0)


def test_sorted_rows():
    a = piquet.analyze_exchange(HAND, samples=300, seed=3)
    net = a.sorted_rows("net")
    assert [r.net.value for r in net] == sorted((r.net.value for r in a.rows), reverse=True)
    assert a.sorted_rows() == list(a.rows)
    for bad in ("discard", "point_length", "nonsense"):
        with pytest.raises(ValueError, match="cannot sort"):
            a.sorted_rows(bad)


def test_row_lookup():
    a = piquet.analyze_exchange(HAND, samples=0)
    assert a.row(["7C", "8C", "7D"]) is a.row("7D 8C 7C")
    with pytest.raises(ValueError, match="not a legal exchange"):
        a.row("7C 8C")  # russian elder: none or 3 to 5


# ----------------------------------------------------------------------------------------- plot

def test_plot_renders_a_png():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    for samples in (0, 200):
        fig = piquet.analyze_exchange(HAND, samples=samples).plot(top=8)
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        assert buf.getvalue().startswith(b"\x89PNG")
        assert len(fig.axes) == (2 if samples else 1)
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_plot_without_matplotlib_says_how_to_install_it(monkeypatch):
    a = piquet.analyze_exchange(HAND, samples=0)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.delitem(sys.modules, "matplotlib.pyplot", raising=False)
    with pytest.raises(ImportError) as e:
        a.plot()
    assert str(e.value) == "plotting needs matplotlib: pip install 'cribpiquet[plot]'"


# ------------------------------------------------------------------------------------------ CLI

def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = cli.main(list(args))
    except SystemExit as e:  # argparse's own checks (e.g. --samples -5) exit 2
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_exchange(capsys, tmp_path):
    status, out, err = run_cli(capsys, "piquet", "exchange", *HAND.split(), "--samples", "300", "--top", "5")
    assert status == 0, err
    lines = out.splitlines()
    # issue 19 items 18 and 20: suit symbols on a stream that shows them (capsys: UTF-8), rows by
    # net with samples (keeping the quint major first, as the README explains), never "best"
    assert lines[0].startswith("elder 7♣ 8♣ 7♦ 8♦ 10♥ J♥ Q♥ K♥ A♥ Q♠ K♠ A♠: 1508 exchanges")
    assert lines[0].endswith("; sorted by net")
    assert lines[2].split()[:5] == ["1", "7♣", "8♣", "7♦", "8♦"]
    assert lines[-2].startswith("first by net: 7♣ 8♣ 7♦ 8♦, net ") and "best:" not in out
    status, out, err = run_cli(capsys, "piquet", "exchange", *HAND.split(), "--samples", "0", "--top", "2")
    assert status == 0, err
    assert out.splitlines()[2].split()[:6] == ["1", "7♣", "8♣", "7♦", "8♦", "10♥"]
    assert "first by total: 7♣ 8♣ 7♦ 8♦ 10♥, total 39.789 (expected points held" in out
    status, out, _ = run_cli(capsys, "piquet", "exchange", *HAND.split(), "--role", "dealer", "--rules", "rubicon",
                             "--samples", "0", "--max-discard", "3", "--top", "3")
    assert status == 0 and "dealer" in out.splitlines()[0] and "win pt" not in out


def test_cli_exchange_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "ex.png"
    status, out, err = run_cli(capsys, "piquet", "exchange", *HAND.split(), "--samples", "100", "--plot", str(png))
    assert status == 0, err
    assert png.read_bytes().startswith(b"\x89PNG") and f"plot: {png}" in out


@pytest.mark.parametrize("args,match", [
    (HAND.split()[:11], "12"),
    (HAND.split() + ["--role", "dealer", "--max-discard", "2"], "cannot exchange any card"),
    (HAND.split() + ["--samples", "-5"], "argument --samples: must be at least 0, got -5"),
])
def test_cli_exchange_bad_input(capsys, args, match):
    status, out, err = run_cli(capsys, "piquet", "exchange", *args)
    assert status == 2 and out == ""
    assert err.startswith("cribpiquet: error: ") and match in err and err.count("\n") == 1


def test_estimate_repr_shows_the_digits_the_error_supports():
    # issue 19 item 23: no 17 digits of the standard error; the fields keep full precision
    from cribpiquet._exchange import Estimate

    e = Estimate(0.48437514, 0.011216389012345678)
    assert repr(e) == "Estimate(value=0.484, se=0.011)" and e.se == 0.011216389012345678
    assert repr(Estimate(75.78, 2.018)) == "Estimate(value=75.8, se=2.0)"
    assert repr(Estimate(0.1234, 0.00012345)) == "Estimate(value=0.12340, se=0.00012)"
    assert repr(Estimate(0.5, 0.0)) == "Estimate(value=0.5, se=0)"
    assert str(e) == "0.484 ± 0.011"
