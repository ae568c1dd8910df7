"""cribpiquet: exact, very fast cribbage and piquet scoring, from Python or Rust.

Modules:

* :mod:`cribpiquet.cribbage` — cards, show scoring, pegging, numpy batch scoring, enumeration.
* :mod:`cribpiquet.piquet` — the Russian game and Rubicon piquet: declarations, play scoring,
  match arithmetic, numpy batch scoring.
* :mod:`cribpiquet.bots` — native players for both games (random, first, greedy, IS-MCTS search,
  PIMC over the exact solver).
* :func:`cribpiquet.solve` — the exact value of the rest of a deal's play with every card known
  (:class:`cribpiquet.Solution`).
* :func:`cribpiquet.arena` — matches between players with the seats rotated, and their
  statistics (:class:`cribpiquet.ArenaResult`).
* :mod:`cribpiquet.vector` — many games stepped at once in Rust (reinforcement learning);
  :mod:`cribpiquet.envs` (PettingZoo) and :mod:`cribpiquet.openspiel` adapters.
* :mod:`cribpiquet.distributed` — simulation, arenas, batch scoring and discard tables on Dask.
* :func:`cribpiquet.load_game` — a game from OpenSpiel-style text (``"cribbage(variant=five-card)"``);
  ``Game.get_type()`` describes it (:class:`cribpiquet.GameType`).

The command line tool is ``cribpiquet`` (or ``python -m cribpiquet``).

The batch functions run a scalar or a vectorised kernel (AVX-512 or AVX2), the fastest this CPU
has; :func:`kernel` says which one a batch call runs now, :func:`available_kernels` which ones
this CPU has, and the environment variable ``CRIBPIQUET_KERNEL`` (``scalar``, ``avx2``,
``avx512``, ``auto``) forces one (read at every batch call). Every kernel gives the same results.
"""

from . import _html, bots, cribbage, piquet
from ._arena import ArenaResult, arena
from ._core import Solution, __version__, kernel, solve
from ._core import kernels as _kernels
from ._engine import GameType
from ._load import load_game

_html.result_methods(_html.record_html, Solution)

__all__ = [
    "ArenaResult",
    "GameType",
    "Solution",
    "__version__",
    "arena",
    "available_kernels",
    "bots",
    "cribbage",
    "kernel",
    "load_game",
    "piquet",
    "solve",
]


def available_kernels() -> list[str]:
    """The batch kernels this CPU can run, scalar first and the fastest last, e.g.
    ``['scalar', 'avx2']``; :func:`kernel` is the one a batch call runs now.

    >>> available_kernels()[0], kernel() in available_kernels()
    ('scalar', True)
    """
    return [name for name, ok in _kernels() if ok]


def __dir__() -> list[str]:
    """The public API only (``__all__``), not the modules and names the package uses."""
    return sorted(__all__)
