"""cribpiquet: exact, very fast cribbage and piquet scoring, from Python or Rust.

Modules:

* :mod:`cribpiquet.cribbage` — cards, show scoring, pegging, numpy batch scoring, enumeration.
* :mod:`cribpiquet.piquet` — the Russian game and Rubicon piquet: declarations, play scoring,
  match arithmetic, numpy batch scoring.
* :mod:`cribpiquet.bots` — native players for both games (random, first, search).

The command line tool is ``cribpiquet`` (or ``python -m cribpiquet``).
"""

from . import bots, cribbage, piquet
from ._core import __version__

__all__ = ["__version__", "bots", "cribbage", "piquet"]
