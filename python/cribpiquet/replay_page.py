"""A recorded game as one self-contained web page: ``cribpiquet replay game.jsonl --html out.html``.

The page steps through the game (buttons and the arrow keys: next, back, start, end; Home and
End), shows both hands face up or one seat's view, the count or the trick, every score change
with its reason (the show read aloud, the piquet declarations by name) and the running score.
The cards are inline SVG drawn in code and the script is inline: the page needs no network and
no other file.

The game is rebuilt from the record's actions with the engine (as ``cribpiquet replay`` does),
so a record that does not replay is a ``ValueError`` naming the line.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from . import cribbage, piquet, records
from ._play_cards import WHO
from ._play_narrate import Narrator
from ._play_records import pick_record, record_title
from ._html import card_svg, escape
from ._util import clip, path_arg, seat_arg

__all__ = ["frames_of_record", "replay_html", "write_replay_html"]


def _scores(state: Any) -> dict[str, Any]:
    if isinstance(state, piquet.State):
        games = [list(g) for g in state.games()]
        return {"deal": list(state.deal_scores()), "games": games, "tricks": list(state.tricks_won()),
                "total": list(state.scores())}  # fmt: skip
    return {"total": list(state.scores()), "target": state.get_game().target}


def _frame(state: Any, step: int, who: str, lines: list[str], seat: Optional[int] = None) -> dict[str, Any]:
    is_piquet = isinstance(state, piquet.State)
    card = piquet.Card if is_piquet else cribbage.Card
    # In a seat's view the other hand is only its size: its cards are not in the page.
    hands = [sorted(state.hand(p), key=lambda c: (card(c).rank, c)) for p in (0, 1)]
    if seat is not None:
        hands[1 - seat] = [None] * len(hands[1 - seat])
    frame: dict[str, Any] = {
        "step": step,
        "who": who,
        "lines": lines,
        "phase": state.phase,
        "turn": state.current_player(),
        "final": state.is_terminal(),
        "hands": hands,
        "scores": _scores(state),
        "dealer": state.dealer,
    }
    if is_piquet:
        plays = state.plays()
        frame["trick"] = [list(p) for p in state.trick()]
        frame["last_trick"] = [list(p) for p in plays[-2:]] if plays and len(plays) % 2 == 0 else []
        frame["elder"] = state.elder
    else:
        frame["starter"] = state.starter
        frame["count"] = state.count if state.phase == "play" else None
        frame["count_cards"] = state.count_cards() if state.phase == "play" else []
    return frame


def frames_of_record(path: str, seat: Optional[int] = None, game: int = 1) -> list[dict[str, Any]]:
    """Every position of game ``game`` (counting from 1) of the record file, the start first:
    what the page shows at each step (plain JSON-able values). ``seat`` (0 or 1): only what that
    seat has seen at each step — the other hand as its number of cards (``None`` for each), the
    narration of :class:`~cribpiquet.play.Narrator` for that seat (the other seat's discards and
    talon cards unnamed, its declarations as points by category)."""
    seat = seat_arg(seat, "seat", 2, none=True)
    rec, _ = pick_record(path, game)
    return _frames(rec, seat)


def _frames(rec: records.Record, seat: Optional[int]) -> list[dict[str, Any]]:
    if rec.game.num_players() != 2:
        raise ValueError(f"the replay page shows two-player games; this is {rec.game.num_players()}-player "
                         "cribbage (cribpiquet replay without --html prints it)")  # fmt: skip
    narrator = Narrator(reveal=seat is None, seat=seat)
    frames = [_frame(rec.game.new_initial_state(), 0, "start", ["The game begins."], seat)]
    for n, before, action, state in rec.steps():
        who = WHO.get(before.current_player(), "chance")
        lines = narrator.lines(before, action, state)
        if not lines:  # the action's own text names its cards: only with every card face up
            lines = [f"{who}: {before.action_to_string(action)}" if seat is None else f"{who} moves."]
        frames.append(_frame(state, n, who, lines, seat))
    return frames



_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;background:#f4f1ea;color:#222}
h1{font-size:1.3em;margin:0 0 .3em}
.bar{display:flex;gap:.4em;align-items:center;margin:.6em 0}
button{font-size:1em;padding:.3em .8em}
.felt{background:#1f6b3a;color:#fff;border-radius:10px;padding:1em;max-width:46em}
.seat{margin:.4em 0}.seat b{display:inline-block;min-width:7em}
.cards{display:inline-flex;gap:3px;vertical-align:middle;min-height:50px}
.mid{margin:.8em 0;min-height:56px}
#log{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.6em;max-width:46em;min-height:4em}
#log div{margin:.15em 0}
.score{font-size:1.1em;font-weight:bold}
"""

_SCRIPT = """
const F = FRAMES, C = CARDS;
let i = 0;
const $ = (id) => document.getElementById(id);
function row(ids, hidden) {
  if (!ids.length) return '<span>—</span>';
  return ids.map((c) => hidden ? BACK : C[c]).join('');
}
function render() {
  const f = F[i], view = $('view').value;
  $('step').textContent = `step ${f.step} of ${F.length - 1}`;
  for (const s of [0, 1]) {
    const hidden = view !== 'both' && view !== String(s);
    $('hand' + s).innerHTML = row(f.hands[s], hidden);
    $('role' + s).textContent = ROLE(f, s);
  }
  const sc = f.scores;
  $('scores').dataset.s0 = sc.total[0];
  $('scores').dataset.s1 = sc.total[1];
  let text = `seat 0: ${sc.total[0]} · seat 1: ${sc.total[1]}`;
  if (sc.deal) {
    $('scores').dataset.d0 = sc.deal[0];
    $('scores').dataset.d1 = sc.deal[1];
    text = `this deal: ${sc.deal[0]}–${sc.deal[1]} (tricks ${sc.tricks[0]}–${sc.tricks[1]})` +
           (sc.games.length ? ` · games: ${sc.games.map((g) => g[0] + '–' + g[1]).join(', ')}` : '');
  } else {
    text += ` (to ${sc.target})`;
  }
  $('scores').textContent = text;
  $('mid').innerHTML = MIDDLE(f);
  $('phase').textContent = f.final ? 'game over' : `phase: ${f.phase}` +
    (f.turn >= 0 ? ` · to move: seat ${f.turn}` : (f.turn === -1 ? ' · chance' : ''));
  $('log').innerHTML = `<div><b>${f.step ? 'move ' + f.step + ' (' + f.who + ')' : 'start'}</b></div>` +
    f.lines.map((l) => `<div>${esc(l)}</div>`).join('');
}
function esc(s) { return s.replace(/[&<>"]/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c])); }
function go(k) { i = Math.max(0, Math.min(F.length - 1, k)); render(); }
$('start').onclick = () => go(0);
$('back').onclick = () => go(i - 1);
$('next').onclick = () => go(i + 1);
$('end').onclick = () => go(F.length - 1);
$('view').onchange = render;
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') go(i + 1);
  else if (e.key === 'ArrowLeft') go(i - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(F.length - 1);
});
render();
"""

_CRIBBAGE_JS = """
const ROLE = (f, s) => (f.dealer === s ? 'dealer' : (f.dealer === null ? '' : 'pone'));
const MIDDLE = (f) => (f.starter !== null ? `starter ${C[f.starter]} ` : '') +
  (f.count !== null ? ` count <b id="count">${f.count}</b> ${f.count_cards.map((c) => C[c]).join('')}` : '');
"""

_PIQUET_JS = """
const ROLE = (f, s) => (f.elder === s ? 'elder' : (f.dealer === s ? 'dealer' : ''));
const MIDDLE = (f) => (f.trick.length ? 'trick: ' + f.trick.map((p) => C[p[1]]).join('') :
  (f.last_trick.length ? 'last trick: ' + f.last_trick.map((p) => C[p[1]]).join('') : ''));
"""


def replay_html(path: str, *, seat: Optional[int] = None, game: int = 1) -> str:
    """The page for game ``game`` (counting from 1) of the record at ``path``; ``seat`` (0 or 1):
    that seat's view, ``None``: both hands face up (the page can switch between both hands and
    either seat's view).

    A seat's view holds only what that seat has seen at each step (:func:`frames_of_record`): the
    other hand face down, the log without its hidden cards, the title without the seed (which
    fixes every card dealt); the other views are not in the page."""
    seat = seat_arg(seat, "seat", 2, none=True)
    rec, _ = pick_record(path, game)
    frames = _frames(rec, seat)
    is_piquet = rec.kind == "piquet"
    card = piquet.Card if is_piquet else cribbage.Card
    n = 32 if is_piquet else 52
    cards = {i: card_svg(card(i)) for i in range(n)}
    back = card_svg(card(0), hidden=True)
    title = record_title(rec, seed=seat is None)
    if seat is not None:
        title += f" — seat {seat}'s view"
    view = "both" if seat is None else str(seat)
    views = (("both", "both hands"), ("0", "seat 0's view"), ("1", "seat 1's view"))
    select = "".join(
        f'<option value="{v}"{" selected" if v == view else ""}>{label}</option>'
        for v, label in views
        if seat is None or v == view
    )
    seat_div = [
        f'<div class="seat"><b>seat {s} <span id="role{s}"></span></b><span class="cards" id="hand{s}"></span></div>'
        for s in (0, 1)
    ]
    data = json.dumps(frames, separators=(",", ":")).replace("</", "<\\/")
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        '<div class="bar"><button id="start" title="Home">« start</button>'
        '<button id="back" title="←">◀ back</button><button id="next" title="→">next ▶</button>'
        '<button id="end" title="End">end »</button><span id="step"></span>'
        f'<label>view <select id="view">{select}</select></label></div>'
        f'<div class="felt"><div id="phase"></div>{seat_div[1]}<div class="mid" id="mid"></div>{seat_div[0]}</div>'
        '<p class="score" id="scores"></p><div id="log"></div>'
        f"<script>const FRAMES = {data};\nconst CARDS = {json.dumps(cards)};\nconst BACK = {json.dumps(back)};\n"
        f"{_PIQUET_JS if is_piquet else _CRIBBAGE_JS}{_SCRIPT}</script></body></html>"
    )


def write_replay_html(path: str, out: str, *, seat: Optional[int] = None, game: int = 1) -> int:
    """Write :func:`replay_html` of ``path`` to the file ``out``; returns the number of steps."""
    out = path_arg(out, "out")
    page = replay_html(path, seat=seat, game=game)
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(page)
            f.flush()
    except OSError as e:
        raise ValueError(f"cannot write {clip(out, 60)}: {e.strerror or e}") from None
    return page.count('"step":') - 1
