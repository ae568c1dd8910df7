"""The plots of the command line tool (``--plot FILE``): checking before a command computes
anything that the file can be written, writing a figure safely, and the figures of its own
(``stats``'s histogram; the other commands plot with the results' ``plot()`` methods).
matplotlib is the optional ``plot`` extra: it is imported only when a plot is asked for."""

from __future__ import annotations

import importlib
import io
import os
import sys
from typing import Any

from ._plot import require_matplotlib
from ._util import clip, printable


class OutputError(Exception):
    """Output that could not be written (a plot file); the message is the one line to print."""


def plot_problem(path: str) -> str:
    """Why ``--plot path`` cannot be made ("" when it can), checked before anything is computed:
    matplotlib missing, or a file that cannot be written in a format matplotlib knows."""
    try:
        require_matplotlib()
    except ImportError as e:
        return str(e)
    problem = _plot_path_problem(path)
    return f"--plot {clip(path, 60)}: {problem}" if problem else ""


def _plot_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext:
        return ext
    import matplotlib

    return str(matplotlib.rcParams["savefig.format"])


def _plot_path_problem(path: str) -> str:
    """Why ``path`` cannot take a plot ("" when it can): no such directory, a directory, not
    writable, or an image format matplotlib does not write."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fmt = _plot_format(path)
    known = FigureCanvasAgg(Figure()).get_supported_filetypes()
    if fmt not in known:
        return f"matplotlib cannot write .{clip(fmt, 10)} files (use one of {', '.join(sorted(known))})"
    if os.path.isdir(path):
        return "is a directory"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"no such directory {clip(folder, 60)}"
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "the file is not writable"
    if not os.path.exists(path) and not os.access(folder, os.W_OK):
        return f"cannot create files in {clip(folder, 60)}"
    return ""


def save_plot(fig: Any, path: str, quiet: bool = False) -> None:
    """Draw ``fig`` into memory, then write and flush the file: a failed write (a full disk,
    ``/dev/full``) is an :class:`OutputError`, never a reported success."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=_plot_format(path))
    try:
        with open(path, "wb") as f:
            f.write(buffer.getvalue())
            f.flush()
    except OSError as e:
        raise OutputError(f"cannot write the plot {clip(path, 60)}: {e.strerror or e}") from None
    print(f"plot: {printable(path)}", file=sys.stderr if quiet else sys.stdout)


def stats_figure(kind: str, counts: Any, log: bool = False) -> object:
    """The score histogram in percent of all shows (``log``: a log scale, where the rare high
    scores show), each bar labelled with its count."""
    fig = importlib.import_module("matplotlib.figure").Figure(figsize=(10, 4.8), layout="constrained")
    ax = fig.add_subplot()
    total = float(sum(int(c) for c in counts))
    percent = [100 * int(c) / total for c in counts]
    ax.bar(range(len(percent)), percent, color="#4C72B0")
    ax.set_xticks(range(0, len(percent), 2))
    ax.set_xlim(-0.7, len(percent) - 0.3)
    ax.set_xlabel("score of the show")
    ax.set_ylabel("% of all shows" + (" (log scale)" if log else ""))
    if log:
        ax.set_yscale("log")
    ax.set_title(f"{kind}: the score of every show ({int(total):,} in all)")
    ax.grid(axis="y", alpha=0.3)
    return fig
