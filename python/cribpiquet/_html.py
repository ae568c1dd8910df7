"""HTML and SVG for notebooks and pages: small card faces drawn in code, tables of results, the
table of a game as a player sees it.

Everything here returns a string of markup with no external resource (no image file, no font
or script from the network), so it displays in Jupyter and in a saved page alike.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Iterable, Optional, Sequence

from ._data import fields_of, record_dict
from ._util import seat_arg

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
    """A row of cards (or ``empty`` when there are none); a ``None`` card is drawn face down."""
    faces = [card_svg(c, hidden=hidden or c is None) for c in cards]
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


#: The cells of a state's table: the label, the role and the score centred on the card row, with
#: room between them (a label never touches the first card).
_CELL = 'style="vertical-align:middle;padding:2px 8px 2px 0;text-align:left;white-space:nowrap"'
#: A pile on the table: its label centred on its cards.
_PILE = 'style="display:flex;align-items:center;gap:6px;margin:2px 0"'


def state_html(state: Any, player: Optional[int] = None) -> str:
    """The table of a game as a player sees it (the engine's ``State.view``): each seat's cards
    (all face up, or only ``player``'s when given: the others' as backs), its role and score,
    the cards on the table (the starter, the count, the trick; a pile the player may not see as
    its number of cards) and whose turn it is."""
    n = state.num_players()
    player = seat_arg(player, "player", n, none=True)
    view = state.view(player)
    mover = state.current_player()
    turn = "chance" if state.is_chance_node() else ("game over" if state.is_terminal() else f"seat {mover}")
    rows = []
    for seat in view["seats"]:
        name = f"seat {seat['seat']}" + (" ▶" if seat["seat"] == mover else "")
        rows.append(
            f"<tr><th {_CELL}>{escape(name)}</th><td {_CELL}>{escape(seat['role'])}</td>"
            f"<td {_CELL}>{cards_html(seat['cards'])}</td><td {_CELL}>{escape(seat['score'])}</td></tr>"
        )
    middle = []
    for pile in view["table"]:
        k = len(pile["cards"])
        cards = f"<span>{k} card{'s' * (k != 1)} face down</span>" if pile["hidden"] else cards_html(pile["cards"])
        middle.append(f"<div {_PILE}><span>{escape(pile['label'])}:</span>{cards}</div>")
    game = state.get_game()
    return (
        f'<div class="cp-state"><div><b>{escape(repr(game))}</b> · phase {escape(state.phase)} · '
        f"to move: {escape(turn)}</div>"
        + "".join(middle)
        + '<table class="cp-table"><tbody>'
        + "".join(rows)
        + "</tbody></table></div>"
    )


# ------------------------------------------------------------------- the native classes


def _card_face(self: Any) -> str:
    """The card's face as a small SVG (Jupyter shows it)."""
    return card_svg(self)


def _render(self: Any, player: Optional[int] = None) -> str:
    """The table as a player sees it, as HTML: each seat's cards, the count or the trick, the
    scores and whose turn it is. With ``player`` (a seat) only that player's cards are shown face
    up; ``None`` shows every card (a state knows them all)."""
    return state_html(self, player)


def _state_repr_html(self: Any) -> str:
    """The table with every card shown (Jupyter's rich display; see ``render``)."""
    return state_html(self)


def _to_dict(self: Any) -> dict[str, Any]:
    """The result as plain JSON-able Python: a dict of its fields, cards as text, tuples as lists
    (``json.loads(json.dumps(d)) == d``)."""
    return record_dict(self)


def card_methods(cls: type) -> None:
    """Give a game's native ``Card`` class its notebook face (``_repr_svg_``, ``_repr_html_``)."""
    setattr(cls, "_repr_svg_", _card_face)
    setattr(cls, "_repr_html_", _card_face)


def state_methods(cls: type) -> None:
    """Give a game's native ``State`` class ``render(player=None)`` and ``_repr_html_`` (the
    table of :func:`state_html`)."""
    setattr(cls, "render", _render)
    setattr(cls, "_repr_html_", _state_repr_html)


def result_methods(html: Callable[[Any], str], *classes: type) -> None:
    """Give native result classes ``to_dict()`` (their fields made plain) and ``_repr_html_()``
    (``html`` of the result)."""
    def _repr_html_(self: Any) -> str:
        return html(self)

    _repr_html_.__doc__ = "The result as an HTML table (Jupyter's rich display)."
    for cls in classes:
        setattr(cls, "to_dict", _to_dict)
        setattr(cls, "_repr_html_", _repr_html_)


# ------------------------------------------------------------------------------ results


def _title(text: str) -> str:
    return f'<div class="cp-title"><b>{escape(text)}</b></div>'


def breakdown_html(b: Any) -> str:
    """A show (``Breakdown``) or a pegging count (``PegBreakdown``): each scoring combination
    with its cards and points, then the total."""
    rows = [(escape(what), cards_html(cards), points) for what, cards, points in b.items]
    rows.append(("<b>total</b>", "", f"<b>{b.total}</b>"))
    return table_html(["", "cards", "points"], rows, caption=str(b))


def discard_analysis_html(a: Any) -> str:
    """Every discard of a hand, best first: kept and thrown cards drawn, expectations."""
    role = "dealer (own crib)" if a.dealer else "pone (opponent's crib)"
    rows = [
        (cards_html(sorted(r.kept, key=_rank_key)), cards_html(sorted(r.thrown, key=_rank_key)), r.hand, r.hand_min,
         r.hand_max, r.crib, r.heels, f"<b>{r.net:.3f}</b>")
        for r in a.rows
    ]  # fmt: skip
    head = f"{a.variant}, {role}; opponent's throws: {a.opponent if isinstance(a.opponent, str) else 'tables'}"
    return _title(head) + table_html(["keep", "throw", "hand", "min", "max", "crib", "heels", "net"], rows)


def exchange_html(a: Any, limit: int = 20, key: str = "expected_total") -> str:
    """The best exchanges of a piquet hand (by ``key``): the cards laid out and the expectations."""
    rows = []
    for r in a.sorted_rows(key)[:limit]:
        net = "" if r.net is None else f"{r.net.value:.2f} ± {r.net.se:.2f}"
        rep = "" if r.repique is None else f"{r.repique.value:.3f}"
        rows.append((cards_html(sorted(r.discard, key=_rank_key), empty="keep all"), r.expected_point,
                     r.expected_sequence, r.expected_sets, r.carte_blanche, f"<b>{r.expected_total:.3f}</b>", net, rep))  # fmt: skip
    cols = ["lay out", "point", "sequence", "sets", "carte blanche", "total", "net (MC)", "repique (MC)"]
    return _title(f"{a.role}'s exchanges, sorted by {key} (best {min(limit, len(a.rows))} of {len(a.rows)})") + table_html(cols, rows)


def discard_tables_html(t: Any) -> str:
    """The dealer's and pone's 13 × 13 tables (the lower triangle: a throw of ranks i ≥ j), each
    cell shaded by its value."""
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    parts = [_title(f"{t.variant} discard tables ({'flushes' if t.flushes else 'no crib flushes'}), "
                    f"{t.iterations} iterations")]  # fmt: skip
    for name in ("dealer", "pone"):
        m = getattr(t, name)
        lo, hi = float(m.min()), float(m.max())
        out = [f'<table class="cp-table"><caption>{name}: expected crib points of a throw</caption><thead><tr><th></th>']
        out += [f"<th>{r}</th>" for r in ranks] + ["</tr></thead><tbody>"]
        for i, ri in enumerate(ranks):
            out.append(f"<tr><th>{ri}</th>")
            for j in range(13):
                if j > i:
                    out.append("<td></td>")
                    continue
                v = float(m[i, j])
                shade = int(255 - 120 * (v - lo) / (hi - lo or 1))
                out.append(f'<td style="background:rgb(255,{shade},{shade})">{v:.2f}</td>')
            out.append("</tr>")
        out.append("</tbody></table>")
        parts.append("".join(out))
    return '<div class="cp-tables" style="display:flex;gap:1em;flex-wrap:wrap">' + "".join(parts) + "</div>"


def arena_html(r: Any) -> str:
    """A match: each player's wins, win rate with its 95 % interval, and points per deal."""
    rows = [(escape(p), r.wins[k], f"{r.win_rate[k]:.3f}", f"{r.ci95[k][0]:.3f} – {r.ci95[k][1]:.3f}")
            for k, p in enumerate(r.players)]  # fmt: skip
    head = f"{r.games} games of {r.game!r}; draws {r.draws}; Elo (player 0 − player 1) {r.elo:+.0f}"
    sources = r.points_by_source
    src_rows = [(escape(s), *(f"{v:.2f}" for v in vals)) for s, vals in sources.items()]
    return (
        _title(head)
        + table_html(["player", "wins", "win rate", "95 % interval"], rows)
        + table_html(["points per deal", *map(str, r.players)], src_rows)
    )


def declaration_score_html(s: Any) -> str:
    """Piquet declarations compared: each scoring declaration with its cards, then the totals."""
    rows = [(escape(role), escape(category), escape(name), cards_html(sorted(cards, key=_rank_key)), points)
            for role, category, name, points, cards in s.items]  # fmt: skip
    rows.append(("<b>totals</b>", "", "", f"elder {s.totals[0]}, dealer {s.totals[1]}", ""))
    return table_html(["who", "category", "declaration", "cards", "points"], rows)


def game_score_html(g: Any) -> str:
    """A whole piquet deal: every point scored, with its reason and the running totals."""
    rows = [(e.trick if e.trick is not None else "", escape(e.player), escape(e.kind), e.points, escape(e.reason),
             f"{e.totals[0]}–{e.totals[1]}") for e in g.events]  # fmt: skip
    head = f"elder {g.totals[0]}, dealer {g.totals[1]}: {g.winner or 'a draw'}"
    return _title(head) + table_html(["trick", "who", "kind", "points", "reason", "totals"], rows)


def record_html(obj: Any) -> str:
    """Any result as a two-column table of its fields (cards drawn)."""
    rows = []
    for name in fields_of(obj):
        v = getattr(obj, name)
        if isinstance(v, (list, tuple)) and v and all(hasattr(c, "symbol") for c in v):
            cell = cards_html(v)
        elif hasattr(v, "symbol"):
            cell = cards_html([v])
        else:
            cell = escape(v)
        rows.append((escape(name), cell))
    return _title(type(obj).__name__) + table_html(["field", "value"], rows)


def _rank_key(card: Any) -> tuple[int, int]:
    return (card.rank, card.suit)
