"""Game records at the terminal: the record ``cribpiquet play --record`` writes as it goes, and
``cribpiquet replay``, which prints a record move by move."""

from __future__ import annotations

import json
import sys
from typing import Any, Optional, TextIO

from . import cribbage, piquet, records
from ._play_cards import BOT, STYLE, WHO, YOU, set_style
from ._play_narrate import YOU_AND_BOT, Narrator, Person, _result, plain_lines
from ._util import clip, path_arg, printable, short_path

# ------------------------------------------------------------------------------- records


def make_game(kind: str, options: dict[str, Any]) -> Any:
    """The engine's ``Game`` for a record's ``game`` and ``options``."""
    if kind == "cribbage":
        variant = options.get("variant", "six-card")
        if variant not in ("five-card", "six-card"):
            raise ValueError(f"variant {clip(str(variant))!r}: play is for the two-player games "
                             "five-card and six-card")  # fmt: skip
        return cribbage.Game(variant)
    if kind == "piquet":
        return piquet.Game(options.get("rules", "russian"), scope=options.get("scope", "deal"))
    raise ValueError(f"unknown game {clip(str(kind))!r}: choose cribbage or piquet")


class Recorder:
    """Writes the game as JSON lines (the header, then every action); rewrites the file when a
    move is taken back."""

    def __init__(self, path: Optional[str], header: dict[str, Any]) -> None:
        self.path, self.header = (path_arg(path, "record") if path else path), header
        self.rows: list[dict[str, Any]] = []
        self._rewrite()

    def add(self, seat: int, action: int, text: str) -> None:
        row = {"seat": seat, "who": WHO[seat], "action": action, "text": text}
        self.rows.append(row)
        if self.path:
            try:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
            except OSError as e:
                raise ValueError(f"cannot write the record {short_path(self.path)}: {e.strerror or e}") from None

    def truncate(self, n: int) -> None:
        del self.rows[n:]
        self._rewrite()

    def _rewrite(self) -> None:
        if self.path:
            try:
                with open(self.path, "w", encoding="utf-8") as f:
                    for row in [self.header, *self.rows]:
                        f.write(json.dumps(row, ensure_ascii=False) + "\n")
            except OSError as e:
                raise ValueError(f"cannot write the record {short_path(self.path)}: {e.strerror or e}") from None


def pick_record(path: str, game: int = 1) -> tuple[records.Record, int]:
    """The ``game``-th game (counting from 1) of the record file ``path``
    (:func:`cribpiquet.records.read_records`) and how many the file holds; ``ValueError`` if it
    holds fewer."""
    found = records.read_records(path)
    if type(game) is not int or not 1 <= game <= len(found):
        raise ValueError(f"{short_path(path)} holds {len(found)} game{'s' * (len(found) != 1)}: "
                         f"choose --game 1 to {len(found)}, not {clip(str(game))}")  # fmt: skip
    return found[game - 1], len(found)


def replay(path: str, out: Optional[TextIO] = None, game: int = 1) -> Any:
    """Print game ``game`` (counting from 1) of the record at ``path`` move by move, rebuilding
    it from its actions with the engine; returns the final state. A record that does not replay
    raises ``ValueError``."""
    rec, games = pick_record(path, game)
    saved = dict(STYLE)
    set_style(out if out is not None else sys.stdout)
    try:
        return _replay(rec, out, game, games)
    finally:
        STYLE.update(saved)


def record_title(rec: records.Record, seed: bool = True) -> str:
    """What a record is, in one line: the game and its options, the seed (unless ``seed`` is
    false: a seat's view leaves it out, as it fixes every card dealt), who played."""
    game: Any = rec.game
    _, options = records.game_options(game)
    if rec.kind == "cribbage":
        shown: dict[str, Any] = {"variant": game.variant}
        if game.target != cribbage.Game(game.variant).target:
            shown["target"] = game.target
        if game.lurch:
            shown["lurch"] = True
    else:
        shown = {"rules": options["rules"] if isinstance(options["rules"], str) else "changed", "scope": game.scope}
    if game.first_dealer is not None:
        shown["first dealer"] = game.first_dealer
    opts = ", ".join(f"{k} {v}" for k, v in shown.items())
    head = f"{rec.kind} ({opts})" + (f", seed {rec.seed}" if seed and rec.seed is not None else "")
    if rec.index is not None:
        head += f", game {rec.index} of its run"
    players = rec.players or ()
    if rec.source == "play" and len(players) == 2 and players[YOU] == "you":
        return f"{head}, you against the bot {players[BOT]!r}"
    if players:
        head += ", " + ", ".join(f"seat {k} {p}" for k, p in enumerate(players))
    return head + (f" ({rec.source})" if rec.source else "")


def seat_names(rec: records.Record) -> tuple[Person, Person]:
    """How a replay names the two seats, in its table and in every line: a ``play`` record's as
    its game was played (``you``, ``the bot``; the page's table says which bot: ``the bot
    (greedy)``); any other record's by its players' names
    ("pimc wins", "pimc's crib"), with the seat's number when both are the same name
    (``pimc (seat 0)``), and ``seat 0``, ``seat 1`` when it names nobody. The names are the file's
    text: each shown with :func:`~cribpiquet._util.printable` (no control character reaches a
    terminal; the page escapes them as HTML too)."""
    players = [printable(p) for p in rec.players or ()]
    if len(players) != 2:
        return (Person("seat 0", title="Seat 0"), Person("seat 1", title="Seat 1"))
    if rec.source == "play" and "you" in players:
        you = players.index("you")
        bot = Person("the bot", title="The bot", own="its", label=f"the bot ({players[1 - you]})")
        return (YOU_AND_BOT[0], bot) if you == YOU else (bot, YOU_AND_BOT[0])
    named = [p if p.strip() else f"seat {k}" for k, p in enumerate(players)]
    if named[0] == named[1]:
        named = [f"{p} (seat {k})" for k, p in enumerate(named)]
    return (Person(named[0]), Person(named[1]))


def _replay(rec: records.Record, out: Optional[TextIO], game: int = 1, games: int = 1) -> Any:
    emit = (lambda s: print(s, file=out)) if out is not None else print
    if games > 1:
        emit(f"Game {game} of {games} in the file (--game N for another).")
    emit(printable(record_title(rec)))  # the header's fields are the file's text: escaped
    two = rec.game.num_players() == 2
    names = seat_names(rec) if two else YOU_AND_BOT
    narrator = Narrator(reveal=True, names=names)
    state = rec.game.new_initial_state()
    for n, before, action, state in rec.steps():
        lines = narrator.lines(before, action, state) if two else plain_lines(before, action, state)
        for k, line in enumerate(lines):
            emit(f"{n:>4}. {line}" if k == 0 else f"      {line}")
    emit(_result(state, names) if state.is_terminal() else "(the record ends before the game does)")
    return state


