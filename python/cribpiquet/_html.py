"""HTML and SVG for notebooks and pages: small card faces drawn in code, tables of results, the
table of a game as a player sees it.

Everything here returns a string of markup with no external resource (no image file, no font
or script from the network), so it displays in Jupyter and in a saved page alike.
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Optional, Sequence

#: Suits whose symbol is drawn red.
RED_SUITS = frozenset("♦♥")
CARD_W, CARD_H = 36, 50


def escape(value: Any) -> str:
    return html.escape(str(value), quote=True)


def card_svg(card: Any, *, hidden: bool = False, width: int = CARD_W) -> str:
    """One card as an inline SVG: its rank in the corner and the suit symbol in the middle, red
    for diamonds and hearts; ``hidden=True`` draws the back. ``card`` is a ``Card`` of either
    game (its ``symbol()`` gives the face, e.g. ``10♥``)."""
    height = round(width * CARD_H / CARD_W)
    box = f'width="{width}" height="{height}" viewBox="0 0 {CARD_W} {CARD_H}"'
    if hidden:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" {box} class="cp-card cp-back" role="img" '
            f'aria-label="a hidden card"><rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" '
            'rx="4" fill="#2b4a8b" stroke="#1b2f59"/><rect x="5" y="5" width="26" height="40" rx="2" '
            'fill="none" stroke="#9fb3e0" stroke-dasharray="2 2"/></svg>'
        )
    face = card.symbol()
    rank, suit = face[:-1], face[-1]
    colour = "#c0142c" if suit in RED_SUITS else "#111"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {box} class="cp-card" role="img" '
        f'aria-label="{escape(face)}" data-card="{escape(str(card))}">'
        f'<rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="4" fill="#fff" stroke="#555"/>'
        f'<text x="4" y="13" font-family="sans-serif" font-size="11" font-weight="bold" fill="{colour}">'
        f"{escape(rank)}</text>"
        f'<text x="18" y="38" font-family="sans-serif" font-size="20" text-anchor="middle" fill="{colour}">'
        f"{escape(suit)}</text></svg>"
    )


def cards_html(cards: Iterable[Any], *, hidden: bool = False, empty: str = "—") -> str:
    """A row of cards (or ``empty`` when there are none)."""
    faces = [card_svg(c, hidden=hidden) for c in cards]
    if not faces:
        return f'<span class="cp-none">{escape(empty)}</span>'
    return '<span class="cp-cards" style="display:inline-flex;gap:2px">' + "".join(faces) + "</span>"


def table_html(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: Optional[str] = None,
               max_rows: Optional[int] = None) -> str:  # fmt: skip
    """A plain HTML table; floats with 3 decimals; rows past ``max_rows`` summarised."""
    out = ['<table class="cp-table">']
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr></thead><tbody>")
    rows = list(rows)
    shown = rows if max_rows is None else rows[:max_rows]
    for row in shown:
        out.append("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>")
    if len(shown) < len(rows):
        out.append(f'<tr><td colspan="{len(columns)}">… {len(rows) - len(shown)} more rows</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, str) and value.startswith("<"):
        return value  # markup made here
    return escape(value)


# ------------------------------------------------------------------------------- states


def _card_of(state: Any) -> Any:
    from . import cribbage, piquet

    return piquet.Card if isinstance(state, piquet.State) else cribbage.Card


def state_html(state: Any, player: Optional[int] = None) -> str:
    """The table of a game as a player sees it: each seat's cards (all face up, or only
    ``player``'s when given: the others' as backs), the count or the trick, the scores and whose
    turn it is."""
    from . import piquet

    card = _card_of(state)
    n = state.num_players()
    if player is not None and not (type(player) is int and 0 <= player < n):
        raise ValueError(f"player must be a seat 0..{n - 1} or None, got {escape(repr(player))[:40]}")
    mover = state.current_player()
    turn = "chance" if state.is_chance_node() else ("game over" if state.is_terminal() else f"seat {mover}")
    rows = []
    for seat in range(n):
        held = [card(c) for c in state.hand(seat)]
        hidden = player is not None and seat != player
        name = f"seat {seat}" + (" ▶" if seat == mover else "")
        if isinstance(state, piquet.State):
            role = "elder" if state.elder == seat else ("dealer" if state.dealer == seat else "")
            extra = f"{state.deal_scores()[seat]} this deal, {state.tricks_won()[seat]} tricks"
        else:
            role = "dealer" if state.dealer == seat else ""
            extra = f"{state.scores()[seat]} points"
        rows.append(
            f"<tr><th>{escape(name)}</th><td>{escape(role)}</td>"
            f"<td>{cards_html(held, hidden=hidden)}</td><td>{escape(extra)}</td></tr>"
        )
    middle = []
    if isinstance(state, piquet.State):
        plays = state.plays()
        if len(plays) % 2 and state.phase == "play":
            middle.append(f"<div>led by seat {plays[-1][0]}: {cards_html([card(plays[-1][1])])}</div>")
    else:
        if state.starter is not None:
            middle.append(f"<div>starter: {cards_html([card(state.starter)])}</div>")
        if state.phase == "play":
            middle.append(f"<div>count {state.count}: {cards_html([card(c) for c in count_cards(state)])}</div>")
    game = state.get_game()
    return (
        f'<div class="cp-state"><div><b>{escape(repr(game))}</b> · phase {escape(state.phase)} · '
        f"to move: {escape(turn)}</div>"
        + "".join(middle)
        + '<table class="cp-table"><tbody>'
        + "".join(rows)
        + "</tbody></table></div>"
    )


def count_cards(state: Any) -> list[int]:
    """The ids of the cards of the current cribbage count, in the order laid."""
    from . import cribbage

    need, seq = state.count, []
    for _, c in reversed(state.plays()):
        if need <= 0:
            break
        seq.append(c)
        need -= cribbage.Card(c).pips
    return seq[::-1]
