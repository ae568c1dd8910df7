"""Cards as a person reads them, in one notation for ``play`` and the analysis tables: sorted by
rank then suit, with suit symbols (``10♥``) on a stream whose encoding can show them (else the
ASCII form ``TH``), red suits in colour on a colour terminal (never when ``NO_COLOR`` is set, when
``TERM=dumb``, or when the stream is not a terminal).

>>> from cribpiquet import cribbage
>>> cards_text([cribbage.Card("JC"), cribbage.Card("5D"), cribbage.Card("5H")], symbols=True)
'5♦ 5♥ J♣'
>>> cards_text([cribbage.Card("JC"), cribbage.Card("5D")], symbols=False)
'5D JC'
"""

from __future__ import annotations

import os
from typing import Any, Iterable

RED, RESET = "\x1b[31m", "\x1b[0m"
_SYMBOLS = "♠♥♦♣"


def can_show_symbols(stream: Any) -> bool:
    """True when ``stream``'s encoding can write the four suit symbols (a stream of text with no
    encoding, such as ``io.StringIO``, can)."""
    encoding = getattr(stream, "encoding", None)
    if encoding is None:
        return True
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_colour(stream: Any) -> bool:
    """True when ``stream`` is a terminal that shows colour and the user has not opted out
    (``NO_COLOR`` set to anything non-empty, or ``TERM=dumb``)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


def sort_key(card: Any) -> tuple[int, int]:
    """Rank, then suit: the order cards are shown in."""
    return (int(card.rank), int(card.suit))


def card_text(card: Any, *, symbols: bool = True, colour: bool = False) -> str:
    """One card: ``10♥`` (``symbols``) or ``TH``; red suits wrapped in a colour code with ``colour``."""
    text = card.symbol() if symbols else str(card)
    if colour and str(card)[-1:] in ("H", "D"):
        return f"{RED}{text}{RESET}"
    return text


def cards_text(cards: Iterable[Any], *, symbols: bool = True, colour: bool = False, sort: bool = True) -> str:
    """Cards separated by spaces, by rank then suit unless ``sort=False``; ``"-"`` for none."""
    cards = sorted(cards, key=sort_key) if sort else list(cards)
    return " ".join(card_text(c, symbols=symbols, colour=colour) for c in cards) or "-"
