"""How ``cribpiquet play`` and ``replay`` write cards and moves: the seats' names, the session's
card style (suit symbols, colour), the order cards and moves are listed in."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from . import _display, cribbage, piquet


YOU, BOT = 0, 1
WHO = {-1: "chance", YOU: "you", BOT: "bot"}
NAME = {YOU: "You", BOT: "The bot"}

#: How the cards are drawn: suit symbols, colour (set by :func:`play` and :func:`replay` for the
#: output stream; symbols and no colour otherwise).
STYLE = {"symbols": True, "colour": False}


def set_style(stream: Any) -> None:
    """Symbols when ``stream`` can show them, colour when it is a colour terminal."""
    STYLE["symbols"] = _display.can_show_symbols(stream)
    STYLE["colour"] = _display.use_colour(stream)


# ------------------------------------------------------------------------------------ cards


def is_piquet(state: Any) -> bool:
    return isinstance(state, piquet.State)


def _cribbage_order(card: int) -> Any:
    return _display.sort_key(cribbage.Card(card))


def _id_order(card: int) -> Any:
    return card


#: Each game's cards at the terminal, its one genuinely different layout: its ``Card`` class and
#: the order its cards are listed in (cribbage by rank, then suit; piquet by suit, then rank, as
#: a piquet hand is held: the point and the sequences are by suit).
LAYOUT: dict[type, tuple[Callable[[int], Any], Callable[[int], Any]]] = {
    cribbage.State: (cribbage.Card, _cribbage_order),
    piquet.State: (piquet.Card, _id_order),
}


def _card(state: Any, card: int) -> Any:
    return LAYOUT[type(state)][0](card)


def card_symbol(state: Any, card: int) -> str:
    """A card id of ``state``'s game as text in the session's style (``10♥``; ``TH`` where the
    terminal has no suit symbols; red suits coloured on a colour terminal)."""
    return _display.card_text(_card(state, card), symbols=STYLE["symbols"], colour=STYLE["colour"])


def sort_cards(state: Any, cards: Iterable[int]) -> list[int]:
    """Cribbage cards by rank, then suit; piquet cards by suit, then rank (as a hand is held)."""
    return sorted(cards, key=LAYOUT[type(state)][1])


def _move_key(state: Any, action: int) -> tuple:
    """Moves with cards first, by their cards as :func:`sort_cards` orders them; then the others."""
    cards = state.action_cards(action)
    if not cards:
        return (1, action)
    order = LAYOUT[type(state)][1]
    return (0, tuple(order(c) for c in sort_cards(state, cards)))


def choices(state: Any, pending: Iterable[int] = ()) -> list[int]:
    """The moves in the order they are listed (a typed number picks from this list): the legal
    actions, cribbage cards and discards by rank then suit; in a piquet exchange's discard, every
    card of the hand not yet set aside (they are laid out in the engine's order at the end)."""
    if is_piquet(state) and state.phase == "discard":
        aside = set(pending)
        return [c for c in sorted(state.hand(state.current_player())) if c not in aside]
    return sorted(state.legal_actions(), key=lambda a: _move_key(state, a))


def cards_text(state: Any, cards: Iterable[int], sort: bool = True) -> str:
    cards = sort_cards(state, cards) if sort else list(cards)
    return " ".join(card_symbol(state, c) for c in cards) or "-"


def action_label(state: Any, action: int) -> str:
    """An action as the player reads it: cards with suit symbols, else the engine's text."""
    cards = state.action_cards(action)
    return cards_text(state, cards) if cards else state.action_to_string(action)

