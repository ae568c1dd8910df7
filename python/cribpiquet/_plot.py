"""Optional plotting support (the ``plot`` extra: ``pip install 'cribpiquet[plot]'``)."""

from __future__ import annotations

import os
import sys
from typing import Any

INSTALL_HINT = "pip install 'cribpiquet[plot]'"


def require_matplotlib() -> Any:
    """Import matplotlib (the headless Agg backend when there is no display) and return it.

    Without matplotlib: ``ImportError`` whose message is one line saying how to install it.
    """
    try:
        import matplotlib
    except ImportError:
        raise ImportError(f"plotting needs matplotlib: {INSTALL_HINT}") from None
    headless = sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    if headless and "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    return matplotlib


def new_figure(size: tuple[float, float]) -> Any:
    """A matplotlib ``Figure`` (constrained layout where matplotlib has it), no pyplot state."""
    import importlib

    mpl = require_matplotlib()
    Figure = importlib.import_module("matplotlib.figure").Figure
    return Figure(figsize=size, layout="constrained") if mpl.__version_info__ >= (3, 6) else Figure(figsize=size)


def plot_arena(result: Any) -> Any:
    """The picture of :meth:`cribpiquet.ArenaResult.plot`."""
    n = len(result.players)
    fig = new_figure((11, 4.5))
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    rates = list(result.win_rate)
    lows = [r - lo for r, (lo, _) in zip(rates, result.ci95)]
    highs = [hi - r for r, (_, hi) in zip(rates, result.ci95)]
    colours = ["#4C72B0", "#C44E52", "#55A868", "#8172B2"][:n] + ["#999999"] * max(0, n - 4)
    left.bar(range(n), rates, yerr=[lows, highs], capsize=8, color=colours)
    left.axhline(1 / n, color="black", linewidth=0.8, linestyle="--", label=f"even ({1 / n:.0%})")
    for k, (r, (lo, hi)) in enumerate(zip(rates, result.ci95)):
        left.text(k, min(hi + 0.02, 0.97), f"{r:.1%}\n[{lo:.1%}, {hi:.1%}]", ha="center", va="bottom", fontsize=8)
    left.set_xticks(range(n))
    left.set_xticklabels(result.players)
    left.set_ylim(0, 1.1)
    left.set_ylabel("win rate (draws count half)")
    left.set_title(f"{result.games:,} games, 95 % intervals (Wilson); Elo {result.elo:+.0f}", fontsize=10)
    left.legend(loc="lower right", fontsize=8)
    sources = list(result.points_by_source)
    width = 0.8 / max(n, 1)
    for k, name in enumerate(result.players):
        xs = [i + (k - (n - 1) / 2) * width for i in range(len(sources))]
        right.bar(xs, [result.points_by_source[s][k] for s in sources], width, color=colours[k], label=name)
    right.set_xticks(range(len(sources)))
    right.set_xticklabels([s.replace("_", " ") for s in sources], rotation=30, ha="right")
    right.set_ylabel("mean points per deal")
    right.set_title("points per deal by source", fontsize=10)
    right.legend(fontsize=8)
    fig.suptitle(result.game)
    return fig
