"""What the player types at ``cribpiquet play``, parsed into engine actions (or a command)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from . import cribbage, piquet  # noqa: F401  (cribbage: parse_input's example)
from ._play_cards import _move_key, action_label, cards_text, choices, is_piquet
from ._util import clip

HELP = """commands:
  a card        5H, 10♥, th (lower case is fine), or the text of a listed move: go, pass
  a discard     5H JC (cribbage); piquet: the cards to lay out in any order, all at once
                (7D 8H JS) or one at a time after 'exchange 3'; 'exchange 0' keeps the hand
  a number      the move of that number in the list printed above the prompt
  hint          the bot's values of your best moves, with what the numbers mean
  hint all      the same for every move
  undo          take back your last move (and the bot's replies to it)
  show          print the table again (piquet: with the tricks so far)
  quit          leave the game (asks first)
  help          this list"""

COMMANDS = {"hint": "hint", "undo": "undo", "quit": "quit", "exit": "quit", "q": "quit", "help": "help",
            "?": "help", "show": "show", "hand": "show", "": "show", "hint all": "hint all"}  # fmt: skip



class InputError(ValueError):
    """What the player typed is not a legal move now; the message is the one-line reason."""


@dataclass
class Command:
    """A parsed line: ``kind`` is ``"move"`` (then ``actions`` are the engine actions to apply, in
    order), ``"hint"``, ``"undo"``, ``"quit"``, ``"help"`` or ``"show"``."""

    kind: str
    actions: list[int] = field(default_factory=list)



# ------------------------------------------------------------------------------------ input


def parse_input(text: str, state: Any, pending: Iterable[int] = ()) -> Command:
    """Parse one line typed at ``state`` (the human to move) into a :class:`Command`; ``pending``
    are the piquet cards already set aside to lay out (kind ``"aside"`` adds to them).

    Raises :class:`InputError` with a one-line reason when the line is no legal move; the state is
    never changed.

    >>> s = cribbage.Game("five-card").new_initial_state()
    >>> parse_input("help", s).kind
    'help'
    """
    line = " ".join(text.split())
    low = line.lower()
    if low in COMMANDS:
        return Command(COMMANDS[low])
    pending = list(pending)
    legal = state.legal_actions()
    listed = choices(state, pending)
    if line.isascii() and line.isdigit():  # not int() of '²' or of 5,000 digits
        n = int(line) if len(line) <= 6 else 0
        if 1 <= n <= len(listed):
            if is_piquet(state) and state.phase == "discard":
                return _piquet_discard(state, [listed[n - 1]], pending)
            return Command("move", [listed[n - 1]])
        raise InputError(f"there is no move {clip(line)}: choose 1 to {len(listed)}")
    if is_piquet(state) and state.phase in ("exchange", "discard"):
        try:
            cards = [c.id for c in piquet.parse_cards(line)]
        except (ValueError, TypeError):
            pass
        else:
            return _piquet_discard(state, cards, pending)
    try:
        action = state.string_to_action(line)
    except (ValueError, TypeError) as e:
        raise InputError(f"{clip(str(e), 60)} (type help)") from None
    if action in legal:
        return Command("move", [action])
    raise InputError(_why_not(state, action, legal))


def _why_not(state: Any, action: int, legal: list[int]) -> str:
    hand = set(state.hand(state.current_player()))
    missing = [c for c in state.action_cards(action) if c not in hand]
    if missing:
        return f"you don't hold {cards_text(state, missing)}"
    legal = sorted(legal, key=lambda a: _move_key(state, a))
    options = ", ".join(action_label(state, a) for a in legal[:8]) + (", …" if len(legal) > 8 else "")
    return f"{action_label(state, action)} is not a legal move now (legal: {options})"


def _piquet_discard(state: Any, cards: list[int], pending: list[int]) -> Command:
    """A piquet exchange typed as the cards laid out, in any order: at the exchange decision all
    of them (``exchange n`` then the cards); after ``exchange n``, any number at a time — set
    aside (kind ``"aside"``) until all ``n`` are chosen, then laid out in the engine's order
    (ascending ids)."""
    me = state.current_player()
    hand = set(state.hand(me))
    missing = [c for c in cards if c not in hand]
    if missing:
        raise InputError(f"you don't hold {cards_text(state, missing)}")
    if len(set(cards)) != len(cards):
        raise InputError("a card is named twice")
    again = [c for c in cards if c in pending]
    if again:
        raise InputError(f"{cards_text(state, again)} {'is' if len(again) == 1 else 'are'} already set aside "
                         "(undo takes the cards set aside back)")
    if state.phase == "discard":
        need = (state.exchange_size(me) or 0) - len(state.discards(me)) - len(pending)
        if len(cards) > need:
            raise InputError(f"you have {need} more card{'s' * (need != 1)} to lay out, not {len(cards)}")
        if len(cards) < need:
            return Command("aside", cards)
        cards = pending + cards
    actions = sorted(cards)
    if state.phase == "exchange":
        sizes = _exchange_sizes(state)
        if len(cards) not in sizes:
            raise InputError(f"you can't exchange {len(cards)} card{'s' * (len(cards) != 1)} now (you may exchange "
                             f"{', '.join(map(str, sizes))})")  # fmt: skip
        actions = [piquet.EXCHANGE_BASE + len(cards)] + actions
    trial = state.clone()
    for a in actions:
        if trial.current_player() != me or a not in trial.legal_actions():
            raise InputError(f"you can't lay out {cards_text(state, cards)} now")
        trial.apply_action(a)
    return Command("move", actions)


def _exchange_sizes(state: Any) -> list[int]:
    """The numbers of cards the player to move may exchange now (the legal exchange actions)."""
    return [a - piquet.EXCHANGE_BASE for a in state.legal_actions() if not state.action_cards(a)]

