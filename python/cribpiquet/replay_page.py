"""A recorded game as one self-contained web page: ``cribpiquet replay game.jsonl --html out.html``.

The page steps through the game (buttons and the arrow keys: next, back, start, end; Home and
End), shows both hands face up or one seat's view, the table as the engine's ``State.view``
gives it (the starter, the count, the crib, the trick), every score change with its reason (the
show read aloud, the piquet declarations by name) and the running score. A deal (and a draw from
the talon) is one step, named in words; a cribbage show is a step of its own with the hands, the
starter and the crib face up; the seats carry the players' names the log uses; the last step says
who won and by how much.
The cards are inline SVG drawn in code and the script is inline: the page needs no network and
no other file.

The game is rebuilt from the record's actions with the engine (as ``cribpiquet replay`` does),
so a record that does not replay is a ``ValueError`` naming the line.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from . import cribbage, piquet, records
from ._play_narrate import Narrator, _result
from ._play_records import pick_record, record_title, seat_names
from ._html import card_svg, escape
from ._util import clip, path_arg, printable, seat_arg

__all__ = ["frames_of_record", "replay_html", "write_replay_html"]


def _scores(state: Any) -> dict[str, Any]:
    if isinstance(state, piquet.State):
        games = [list(g) for g in state.games()]
        return {"deal": list(state.deal_scores()), "games": games, "tricks": list(state.tricks_won()),
                "total": list(state.scores())}  # fmt: skip
    return {"total": list(state.scores()), "target": state.get_game().target}


def _ids(cards: Any) -> list[Optional[int]]:
    """Card ids of a view's cards (``None`` stays: a card face down)."""
    return [None if c is None else int(c) for c in cards]


def _frame(state: Any, step: int, moves: int, title: str, lines: list[str], seat: Optional[int] = None) -> dict[str, Any]:
    """What the page shows at one step: the engine's view of the table for ``seat`` (``None``:
    every card; in a seat's view the other hand is only its size, ``None`` for each card, and
    its cards are not in the page), the scores and the narration. ``moves``: the actions of the
    record applied (the engine's state after them is the one shown)."""
    view = state.view(seat)
    hands = [_ids(s["cards"] if s["hidden"] else sorted(s["cards"], key=lambda c: (c.rank, int(c))))
             for s in view["seats"]]  # fmt: skip
    return {
        "step": step,
        "moves": moves,
        "title": title,
        "lines": lines,
        "phase": state.phase,
        "turn": state.current_player(),
        "final": state.is_terminal(),
        "hands": hands,
        "roles": [s["role"] for s in view["seats"]],
        "table": [{"label": p["label"], "cards": _ids(p["cards"])} for p in view["table"]],
        "scores": _scores(state),
    }


def frames_of_record(path: str, seat: Optional[int] = None, game: int = 1) -> list[dict[str, Any]]:
    """Every step of game ``game`` (counting from 1) of the record file, the start first: what
    the page shows at each step (plain JSON-able values). A step is one move, except that a
    deal and a draw from the talon are one step each, and a cribbage show is a step of its own
    (the hands, the starter and the crib face up, each count read aloud). ``moves`` is the
    number of the record's actions applied at the step. ``seat`` (0 or 1): only what that seat
    has seen at each step — the other hand as its number of cards (``None`` for each), the
    narration of :class:`~cribpiquet.play.Narrator` for that seat (the other seat's discards and
    talon cards unnamed, its declarations as points by category)."""
    seat = seat_arg(seat, "seat", 2, none=True)
    rec, _ = pick_record(path, game)
    return _frames(rec, seat)


#: The chance phases whose cards are one step of the page, and the step's name.
_GROUPED = {"deal": "the deal", "draw": "the talon"}


def _names(rec: records.Record) -> tuple[str, str]:
    """How the page's table names the seats: as the log does
    (:func:`~cribpiquet._play_records.seat_names`), the bot of a ``play`` record by its name."""
    first, second = seat_names(rec)
    return (first.label, second.label)


def _collapsed(lines: list[str]) -> list[str]:
    """Lines with a run of equal ones said once, with its count (``A card is dealt. (×12)``)."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return [line if n == 1 else f"{line} (×{n})" for line, n in out]


def _frames(rec: records.Record, seat: Optional[int]) -> list[dict[str, Any]]:
    if rec.game.num_players() != 2:
        raise ValueError(f"the replay page shows two-player games; this is {rec.game.num_players()}-player "
                         "cribbage (cribpiquet replay without --html prints it)")  # fmt: skip
    people = seat_names(rec)
    narrator = Narrator(reveal=seat is None, seat=seat, names=people)
    names = {-1: "chance", 0: people[0].name, 1: people[1].name}
    frames = [_frame(rec.game.new_initial_state(), 0, 0, "start", ["The game begins."], seat)]
    group: list[str] = []  # the lines of a deal or a talon draw so far
    steps = list(rec.steps())
    for k, (n, before, action, state) in enumerate(steps):
        who = names.get(before.current_player(), "chance")
        lines = narrator.lines(before, action, state)
        if not lines and before.phase not in _GROUPED:  # the action's own text names its cards
            lines = [f"{who}: {before.action_to_string(action)}" if seat is None
                     else f"{who} moves."]  # fmt: skip
        if before.is_chance_node() and before.phase in _GROUPED:
            group += lines
            after = steps[k + 1][1] if k + 1 < len(steps) else None
            if after is not None and after.is_chance_node() and after.phase == before.phase:
                continue  # the next card of the same deal or draw
            cards = n - frames[-1]["moves"]
            title = f"{_GROUPED[before.phase]} ({cards} card{'s' * (cards != 1)})"
            lines, group = _collapsed(group), []
            frames.append(_frame(state, len(frames), n, title, lines, seat))
            continue
        shown = [line for line in lines if line.startswith("Show, ")]
        if shown and rec.kind == "cribbage":
            frames.extend(_show_frames(before, action, state, n, len(frames), who, lines, seat))
            continue
        frames.append(_frame(state, len(frames), n, f"move {n} ({who})", lines, seat))
    if frames[-1]["final"]:
        frames[-1]["lines"] = frames[-1]["lines"] + [_result(steps[-1][3], people) if steps else ""]
    return frames


def _show_frames(before: Any, action: int, after: Any, n: int, step: int, who: str, lines: list[str],
                 seat: Optional[int]) -> list[dict[str, Any]]:  # fmt: skip
    """The last card of a cribbage deal's play, then the show as a step of its own: the engine
    plays both at once (its state after the card is the next deal, or the end), so the first
    step shows the table with the card laid and the scores before the show (the engine's after
    it, less the points of the hands and the crib), the second the hands, the starter and the
    crib face up, each count read aloud, and the engine's scores."""
    play = _frame(before, step, n, f"move {n} ({who})", [line for line in lines if not line.startswith("Show, ")], seat)
    mover = before.current_player()
    if action in before.hand(mover):
        held = play["hands"][mover]
        held.remove(None if None in held and action not in held else action)
        for pile in play["table"]:
            if pile["label"].startswith("count"):
                pile["cards"].append(action)
                pile["label"] = f"count {before.count + cribbage.Card(action).pips}"
    was, now = before.points_by_source(), after.points_by_source()
    shown = [now["hand"][p] + now["crib"][p] - was["hand"][p] - was["crib"][p] for p in (0, 1)]
    play["scores"] = dict(play["scores"], total=[t - x for t, x in zip(after.scores(), shown)])
    play["final"], play["turn"] = False, -4  # nobody: the deal's play is over
    show = _frame(after, step + 1, n, "the show", [line for line in lines if line.startswith("Show, ") or
                  line.startswith("Score:")], seat)  # fmt: skip
    show["hands"] = [sorted((int(c) for c in before.kept(p)), key=lambda c: (c % 13, c)) for p in (0, 1)]
    show["roles"] = ["dealer" if before.dealer == p else "pone" for p in (0, 1)]
    show["phase"], show["turn"] = "show", -4  # the counts, not a move
    show["table"] = [{"label": "starter", "cards": [before.starter]},
                     {"label": "crib", "cards": sorted((int(c) for c in before.crib()), key=lambda c: (c % 13, c))}]
    return [play, show]


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;background:#f4f1ea;color:#222}
h1{font-size:1.3em;margin:0 0 .3em}
.bar{display:flex;gap:.4em;align-items:center;margin:.6em 0}
button{font-size:1em;padding:.3em .8em}
.felt{background:#1f6b3a;color:#fff;border-radius:10px;padding:1em;max-width:46em}
.seat{margin:.4em 0;display:flex;align-items:center;gap:.8em}.seat b{min-width:12em}
.cards{display:inline-flex;gap:3px;vertical-align:middle;min-height:50px}
.mid{margin:.8em 0;min-height:56px;display:flex;flex-wrap:wrap;align-items:center;gap:1.2em}
.pile{display:inline-flex;align-items:center;gap:.5em}
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
  return ids.map((c) => (hidden || c === null) ? BACK : C[c]).join('');
}
function render() {
  const f = F[i], view = $('view').value;
  $('step').textContent = `step ${f.step} of ${F.length - 1}`;
  for (const s of [0, 1]) {
    const hidden = view !== 'both' && view !== String(s);
    $('hand' + s).innerHTML = row(f.hands[s], hidden);
    $('role' + s).textContent = f.roles[s];
  }
  const sc = f.scores;
  $('scores').dataset.s0 = sc.total[0];
  $('scores').dataset.s1 = sc.total[1];
  let text = `${NAMES[0]}: ${sc.total[0]} · ${NAMES[1]}: ${sc.total[1]}`;
  if (sc.deal) {
    $('scores').dataset.d0 = sc.deal[0];
    $('scores').dataset.d1 = sc.deal[1];
    text = `this deal: ${sc.deal[0]}–${sc.deal[1]} (tricks ${sc.tricks[0]}–${sc.tricks[1]})` +
           (sc.games.length ? ` · games: ${sc.games.map((g) => g[0] + '–' + g[1]).join(', ')}` : '');
  } else {
    text += ` (to ${sc.target})`;
  }
  $('scores').textContent = text;
  $('mid').innerHTML = f.table.map((p) =>
    `<span class="pile"><span>${esc(p.label)}</span><span class="cards">${row(p.cards, false)}</span></span>`).join('');
  $('phase').textContent = f.final ? 'game over' : `phase: ${f.phase}` +
    (f.turn >= 0 ? ` · to move: ${NAMES[f.turn]}` : (f.turn === -1 ? ' · chance' : ''));
  $('log').innerHTML = `<div><b>${esc(f.title)}</b></div>` + f.lines.map((l) => `<div>${esc(l)}</div>`).join('');
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
    cards = {c: card_svg(_card(rec, c)) for c in {c for f in frames for cs in _cards_of(f) for c in cs if c is not None}}
    back = card_svg(None, hidden=True)
    names = _names(rec)
    title = printable(record_title(rec, seed=seat is None))  # the file's text: no control character
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
        f'<div class="seat"><b>{escape(names[s])} <span id="role{s}"></span></b><span class="cards" id="hand{s}"></span></div>'
        for s in (0, 1)
    ]
    data = _script_json(frames)
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
        f"const NAMES = {_script_json(names)};\n{_SCRIPT}</script></body></html>"
    )


def _script_json(value: Any) -> str:
    """``value`` as JSON inside the page's script, every ``<`` written ``\\u003c``: the record's
    text (the players' names) can neither end the script (``</script>``) nor open a comment."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def _cards_of(frame: dict[str, Any]) -> list[list[Optional[int]]]:
    return frame["hands"] + [p["cards"] for p in frame["table"]]


#: Each game's ``Card``: the page draws each card's face once, by id.
_CARD = {"cribbage": cribbage.Card, "piquet": piquet.Card}


def _card(rec: records.Record, card: int) -> Any:
    return _CARD[rec.kind](card)


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
