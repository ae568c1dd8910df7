"""The table as the human sees it at ``cribpiquet play`` before a decision, and the prompt with
the numbered list of moves."""

from __future__ import annotations

import re
import shutil
from typing import Any, Iterable

from . import cribbage, piquet
from ._play_cards import BOT, NAME, YOU, action_label, card_symbol, cards_text, choices, is_piquet
from ._play_narrate import trick_history

# --------------------------------------------------------------------------- the table


def table(state: Any, pending: Iterable[int] = (), tricks: bool = False) -> list[str]:
    """What the human sees before a decision: scores, whose deal, the cards in play, the hand
    (piquet: the cards set aside to lay out, and with ``tricks`` every trick so far)."""
    if is_piquet(state):
        return _piquet_table(state, list(pending), tricks)
    g = state.get_game()
    sc = state.scores()
    crib = "your crib" if state.dealer == YOU else "the bot's crib"
    out = [f"── deal {state.deals} · {crib} · you {sc[YOU]}, the bot {sc[BOT]} (to {g.target})"]
    if state.starter is not None:
        out.append(f"Starter: {card_symbol(state, state.starter)}")
    if state.phase == "play":
        now = state.count_cards()
        earlier = [c for _, c in state.plays()][: len(state.plays()) - len(now)]
        if earlier:
            out.append(f"Earlier counts: {cards_text(state, earlier, sort=False)}")
        out.append(f"Count {state.count}: {cards_text(state, now, sort=False)}")
        out.append(f"The bot holds {len(state.hand(BOT))} card{'s' * (len(state.hand(BOT)) != 1)}.")
    out.append(f"Your hand: {cards_text(state, state.hand(YOU))}")
    return out


def _piquet_table(state: Any, pending: list[int], tricks: bool) -> list[str]:
    sc = state.deal_scores()
    role = "you are elder" if state.elder == YOU else "the bot is elder"
    head = f"── deal {state.deals} · {role} · this deal: you {sc[YOU]}, the bot {sc[BOT]}"
    if state.get_game().scope != "deal" and state.games():
        head += " · games so far (you–bot): " + ", ".join(f"{g[YOU]}–{g[BOT]}" for g in state.games())
    out = [head]
    if state.phase == "play":
        tw = state.tricks_won()
        if tricks and len(state.plays()) >= 2:
            out.append("Tricks so far:")
            out.extend(trick_history(state))
        out.append(f"Tricks: you {tw[YOU]}, the bot {tw[BOT]}")
        for seat, lead in state.trick():
            out.append(f"{NAME[seat]} led {card_symbol(state, lead)}.")
    if state.discards(YOU):
        out.append(f"You laid out: {cards_text(state, state.discards(YOU))}")
    if pending:
        n = (state.exchange_size(YOU) or 0) - len(state.discards(YOU))
        out.append(f"Set aside to lay out: {cards_text(state, pending)} ({n - len(pending)} more to choose)")
    out.append(f"Your hand: {_by_suit(state, [c for c in state.hand(YOU) if c not in pending])}")
    return out


def _by_suit(state: Any, cards: list[int]) -> str:
    groups: dict[int, list[int]] = {}
    for c in sorted(cards):
        groups.setdefault(piquet.Card(c).suit, []).append(c)
    return "   ".join(cards_text(state, g, sort=False) for g in groups.values()) or "-"


def prompt_lines(state: Any, pending: Iterable[int] = ()) -> list[str]:
    """What to type now, and the numbered list of moves (:func:`choices`)."""
    legal = state.legal_actions()
    listed = choices(state, pending)
    if is_piquet(state):
        ask = {
            "exchange": "exchange: type the cards to lay out in any order (e.g. 7D 8H JS), 'exchange 0' "
            "to keep your hand, or a number",
            "discard": "choose the cards to lay out, in any order, one or more at a time",
            "announce": "announce an open capot?",
            "play": "play to the lead" if state.trick() else "lead a card",
        }.get(state.phase, "your move")
    elif state.phase == "discard":
        crib = "your" if state.dealer == YOU else "the bot's"
        ask = f"discard two cards to {crib} crib (e.g. 5H JC), or a number"
    elif legal == [cribbage.GO]:
        ask = "no card fits: type go (or 1)"
    else:
        ask = "play a card (e.g. 5H), or a number"
    moves = [f"{i}) {action_label(state, a)}" for i, a in enumerate(listed, 1)]
    return [f"Your turn — {ask}:", wrap_items(moves, shutil.get_terminal_size().columns)]


def wrap_items(items: list[str], width: int, indent: str = "  ", gap: str = "  ") -> str:
    """``items`` on indented lines of at most ``width`` visible columns (colour codes take none),
    broken only between two items, never inside one ("12) 4♠ J♥" stays on one line); an item
    wider than a line gets a line of its own."""
    lines: list[list[str]] = [[]]
    used = len(indent)
    for item in items:
        w = len(_ANSI.sub("", item))
        if lines[-1] and used + len(gap) + w > width:
            lines.append([])
            used = len(indent)
        used += (len(gap) if lines[-1] else 0) + w
        lines[-1].append(item)
    return "\n".join(indent + gap.join(line) for line in lines)


#: A colour code of the terminal (``\x1b[31m``): no width on the screen.
_ANSI = re.compile("\x1b\\[[0-9;]*m")


