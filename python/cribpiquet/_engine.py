"""What both game engines share (the Rust engine framework's player sentinels), defined once and
re-exported by :mod:`cribpiquet.cribbage` and :mod:`cribpiquet.piquet`."""

from __future__ import annotations

from . import _core

_CONSTANTS = _core.cribbage_game_constants()
#: ``current_player()`` at a chance node (cribbage: a cut, a card dealt, the starter; piquet: a
#: card drawn for deal, dealt or taken from the talon).
CHANCE: int = _CONSTANTS["CHANCE"]
#: ``current_player()`` once the game is over.
TERMINAL: int = _CONSTANTS["TERMINAL"]
