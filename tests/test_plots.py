"""The pictures people read: the arena's win rates with intervals and points per deal, the
score histogram in percent (and on a log scale), the discard heatmaps' lower triangle with named
axes, card symbols in the discard plot's tick labels; and the CLI's --plot for each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="the [plot] extra is not installed")

from cribpiquet import arena, cli, cribbage, piquet  # noqa: E402


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_arena_plot_shows_rates_intervals_and_points():
    r = arena(piquet.Game(scope="deal"), ["first", "random"], 40, seed=3, progress=False)
    fig = r.plot()
    left, right = fig.axes
    heights = [p.get_height() for p in left.patches]
    assert heights == pytest.approx(list(r.win_rate))
    lo, hi = r.ci95[0]
    assert f"{r.win_rate[0]:.1%}\n[{lo:.1%}, {hi:.1%}]" in _texts(left)
    assert [t.get_text() for t in left.get_xticklabels()] == ["first", "random"]
    bars = [p.get_height() for p in right.patches]
    assert len(bars) == 2 * len(r.points_by_source)
    assert bars[: len(r.points_by_source)] == pytest.approx([v[0] for v in r.points_by_source.values()])


def test_histogram_in_percent_and_log():
    counts = cribbage.hand_distribution("hand")
    fig = cli._stats_figure("hand", counts, log=True)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    assert sum(p.get_height() for p in ax.patches) == pytest.approx(100.0)
    assert ax.patches[0].get_height() == pytest.approx(100 * int(counts[0]) / int(counts.sum()))
    assert "% of all shows" in ax.get_ylabel()
    assert cli._stats_figure("hand", counts).axes[0].get_yscale() == "linear"


def test_discard_heatmaps_lower_triangle_with_axis_names():
    t = cribbage.discard_tables("five-card", progress=False)
    fig = t.plot()
    heat = [ax for ax in fig.axes if ax.images]
    assert len(heat) == 2
    for ax in heat:
        assert len(ax.texts) == 91  # 13 * 14 / 2 cells
        assert ax.get_xlabel() and ax.get_ylabel()
        data = ax.images[0].get_array()
        assert np.ma.is_masked(data) and data.mask[0, 1] and not data.mask[1, 0]


def test_discard_plot_names_cards_with_symbols():
    a = cribbage.analyze_discard("5H 5D JC QS 2C 9H", dealer=False)
    ax = a.plot().axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0] == "2♣ 9♥"


def test_cli_arena_and_stats_plots(tmp_path: Path):
    out = tmp_path / "arena.png"
    r = subprocess.run([sys.executable, "-m", "cribpiquet", "arena", "piquet", "--scope", "deal", "--players", "first",
                        "random", "--games", "10", "--plot", str(out)], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot: {out}" in r.stdout
    hist = tmp_path / "hist.png"
    r = subprocess.run([sys.executable, "-m", "cribpiquet", "stats", "--plot", str(hist), "--log"],
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert hist.read_bytes()[:4] == b"\x89PNG"
