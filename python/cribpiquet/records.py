"""Game records: any game of either engine written to a file, and read back into its states.

A record is a game's settings and its actions in order, chance outcomes included (what
``state.history()`` holds): applying the actions to ``game.new_initial_state()`` rebuilds every
state of the game. The file format is JSON lines, version :data:`FORMAT_VERSION`, described on
the documentation site's page *Game records* (``docs/records.md``): each game is a header line,
then one line per action. A file holds any number of games, one after another.

Who writes records: :func:`write_records` (from states or :class:`Record` values),
``cribpiquet play --record``, :func:`cribpiquet.arena` and ``simulate`` with ``record=PATH``.
Who reads them: :func:`read_records`, ``cribpiquet replay FILE [--game N] [--html OUT]``.

>>> import random, tempfile, os
>>> from cribpiquet import cribbage, records
>>> state = cribbage.Game("five-card").new_initial_state()
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     state.apply_action(rng.choice(state.legal_actions()))
>>> path = os.path.join(tempfile.mkdtemp(), "game.jsonl")
>>> records.write_records(path, [state], source="my-loop", seed=1)
1
>>> [rec] = records.read_records(path)
>>> rec.final_state() == state, len(rec.actions) == len(state.history())
(True, True)
"""

from __future__ import annotations

import inspect
import json
import operator
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union, cast

from . import _core
from ._data import Columns
from ._util import clip, int_arg, json_value, path_arg, read_text, short_path

# The games' classes from the native module: cribbage.py and piquet.py build their ``simulate``
# here (:func:`simulating`), so this module imports neither.
_CribbageGame, _CribbageState = _core.CribbageGame, _core.CribbageState
_PiquetGame, _PiquetState, _Rules = _core.PiquetGame, _core.PiquetState, _core.PiquetRules

__all__ = ["FORMAT_VERSION", "Record", "game_options", "make_game", "read_records", "record_of", "write_records"]

#: The version of the record format this module writes (and the newest it reads). Version 0 is
#: the format ``cribpiquet play --record`` wrote before records had a version (one game; its
#: header ``{"cribpiquet": "play", ...}``); it is still read.
FORMAT_VERSION = 1

_Game = Union[_core.CribbageGame, _core.PiquetGame]
_State = Union[_core.CribbageState, _core.PiquetState]


# ----------------------------------------------------------------------------- the games


def game_options(game: _Game) -> tuple[str, dict[str, Any]]:
    """``(kind, options)`` of a ``Game``: everything :func:`make_game` needs to build it again
    (cribbage: ``variant``, ``target``, ``lurch``, ``first_dealer``; piquet: ``rules`` — the
    name of a standard rule set or every field of a changed one —, ``scope``,
    ``first_dealer``).

    >>> from cribpiquet import cribbage
    >>> game_options(cribbage.Game("five-card"))
    ('cribbage', {'variant': 'five-card', 'target': 61, 'lurch': False, 'first_dealer': None})
    """
    if isinstance(game, _CribbageGame):
        return "cribbage", {"variant": game.variant, "target": game.target, "lurch": game.lurch,
                            "first_dealer": game.first_dealer}  # fmt: skip
    if isinstance(game, _PiquetGame):
        rules = game.rules
        named = {"russian": _Rules.russian(), "rubicon": _Rules.rubicon()}
        name = next((k for k, r in named.items() if r == rules), None)
        return "piquet", {"rules": name if name else _rules_dict(rules), "scope": game.scope,
                          "first_dealer": game.first_dealer}  # fmt: skip
    raise TypeError(f"a record needs a cribbage or piquet Game, got {type(game).__name__}")


def _rules_dict(rules: Any) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in rules.as_dict().items()}


def make_game(kind: str, options: dict[str, Any]) -> _Game:
    """The ``Game`` of a record's ``game`` (``"cribbage"`` or ``"piquet"``) and ``options`` (as
    :func:`game_options` writes them; a missing option takes the ``Game``'s default).

    >>> from cribpiquet import piquet
    >>> make_game("piquet", {"rules": "rubicon", "scope": "deal"}) == piquet.Game("rubicon", scope="deal")
    True
    """
    if not isinstance(options, dict):
        raise ValueError("a record's options must be a JSON object")
    if kind == "cribbage":
        return _CribbageGame(options.get("variant", "six-card"), target=options.get("target"),
                             lurch=options.get("lurch", False), first_dealer=options.get("first_dealer"))  # fmt: skip
    if kind == "piquet":
        rules = options.get("rules", "russian")
        if isinstance(rules, dict):
            fields = {k: (tuple(v) if isinstance(v, list) else v) for k, v in rules.items()}
            rules = _Rules("russian").replace(**fields)
        return _PiquetGame(rules, scope=options.get("scope", "deal"), first_dealer=options.get("first_dealer"))
    raise ValueError(f"unknown game {clip(str(kind))!r}: choose cribbage or piquet")


# ---------------------------------------------------------------------------- a record


@dataclass(frozen=True)
class Record:
    """One recorded game: its ``game`` (a cribbage or piquet ``Game``) and its ``actions`` (in
    order, chance outcomes included), with what the writer said about it: ``source`` (who wrote
    it: ``"play"``, ``"arena"``, ``"simulate"`` or any name a program gives), ``seed``, ``index``
    (the game's number in its run: ``simulate``'s row, the arena's game), ``players`` (a name
    per seat), ``extra`` (any other header fields, as read). ``texts`` are the action texts the
    file holds (checked on replay; ``None`` where a row has none); ``where`` names the file and
    line of the header for messages.
    """

    game: _Game
    actions: tuple[int, ...]
    source: str = "api"
    seed: Optional[int] = None
    index: Optional[int] = None
    players: Optional[tuple[str, ...]] = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    texts: Optional[tuple[Optional[str], ...]] = field(default=None, compare=False, repr=False)
    seats: Optional[tuple[Optional[int], ...]] = field(default=None, compare=False, repr=False)
    where: str = field(default="the record", compare=False, repr=False)
    lines: Optional[tuple[int, ...]] = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> str:
        """``"cribbage"`` or ``"piquet"``."""
        return "piquet" if isinstance(self.game, _PiquetGame) else "cribbage"

    def steps(self) -> Iterator[tuple[int, _State, int, _State]]:
        """Replay the game: ``(move number, the state before, the action, the state after)``
        for every action, the states fresh copies. An action that is not legal where it stands,
        or whose recorded seat or text is not the engine's, raises ``ValueError`` naming the file
        and line."""
        state = self.game.new_initial_state()
        for k, action in enumerate(self.actions):
            line = self.lines[k] if self.lines is not None and k < len(self.lines) else None
            at = f"{self.where} line {line}" if line else f"{self.where} action {k + 1}"
            if type(action) is not int or state.is_terminal() or action not in state.legal_actions():
                raise ValueError(f"{at}: action {clip(str(action))} is not legal here")
            seat = self.seats[k] if self.seats is not None and k < len(self.seats) else None
            if seat is not None and seat != state.current_player():
                raise ValueError(f"{at}: seat {clip(str(seat))} is not to move (seat {state.current_player()} is)")
            text = self.texts[k] if self.texts is not None and k < len(self.texts) else None
            if text is not None and text != state.action_to_string(action):
                raise ValueError(f"{at}: action {action} is {state.action_to_string(action)}, "
                                 f"the record says {clip(str(text))}")  # fmt: skip
            before = state.clone()
            state.apply_action(action)
            yield k + 1, before, action, state.clone()

    def states(self) -> Iterator[_State]:
        """Every state of the game, the initial one first, then the state after each action."""
        yield self.game.new_initial_state()
        for _, _, _, after in self.steps():
            yield after

    def final_state(self) -> _State:
        """The state after the last action (the end of the game, if the record is whole)."""
        state = self.game.new_initial_state()
        for _, _, _, after in self.steps():
            state = after
        return state

    def header(self) -> dict[str, Any]:
        """The header line's fields (as :func:`write_records` writes them)."""
        kind, options = game_options(self.game)
        head: dict[str, Any] = {"cribpiquet": "record", "version": FORMAT_VERSION, "game": kind,
                                "options": options, "source": self.source}  # fmt: skip
        if self.seed is not None:
            head["seed"] = self.seed
        if self.index is not None:
            head["index"] = self.index
        if self.players is not None:
            head["players"] = list(self.players)
        for key, value in self.extra.items():
            head.setdefault(key, value)
        return head


def record_of(state: _State, *, source: str = "api", seed: Optional[int] = None, index: Optional[int] = None,
              players: Optional[Sequence[str]] = None, **extra: Any) -> Record:  # fmt: skip
    """The :class:`Record` of ``state``'s game so far: its ``Game`` and ``state.history()``
    (every action since the initial state, chance outcomes included). ``extra`` keyword
    arguments (JSON values) go into the header as they are.

    >>> from cribpiquet import cribbage
    >>> s = cribbage.Game("five-card").new_initial_state()
    >>> s.apply_action(s.legal_actions()[0])
    >>> record_of(s, seed=3).actions == tuple(s.history())
    True
    """
    game = getattr(state, "get_game", None)
    if game is None or not isinstance(state, (_CribbageState, _PiquetState)):
        raise TypeError(f"record_of needs a cribbage or piquet State, got {type(state).__name__}")
    return Record(state.get_game(), tuple(state.history()), source=str(source), seed=seed, index=index,
                  players=tuple(str(p) for p in players) if players is not None else None, extra=dict(extra))  # fmt: skip


# --------------------------------------------------------------------------------- writing


def action_row(state: _State, action: int) -> dict[str, Any]:
    """The line of ``action`` applied at ``state`` (before it): the seat to move (-1 for chance),
    the action id and its text."""
    seat = -1 if state.is_chance_node() else state.current_player()
    return {"seat": seat, "action": action, "text": state.action_to_string(action)}


#: A text as a JSON string (the encoder's fast path for a ``str``; non-ASCII kept as it is).
_json_text = json.JSONEncoder(ensure_ascii=False).encode


def _lines(record: Record) -> Iterator[str]:
    yield json.dumps(record.header(), ensure_ascii=False)
    state = record.game.new_initial_state()
    for k, action in enumerate(record.actions):
        seat = state.current_player()  # -1 (CHANCE) at a chance node, as the format writes it
        try:
            text = state.action_to_string(action)
            state.apply_action(action)  # checks the action is legal here
        except (TypeError, ValueError):
            raise ValueError(f"cannot record action {k + 1} ({clip(str(action))}): not legal in the game so far") from None
        # The line of :func:`action_row`, formatted directly (a record of a million actions).
        yield f'{{"seat": {seat}, "action": {int(action)}, "text": {_json_text(text)}}}'


def write_records(path: str, games: Iterable[Union[Record, _State]], *, append: bool = False, **header: Any) -> int:
    """Write ``games`` (:class:`Record` values, or states: each one's game so far, as
    :func:`record_of`) to the file ``path`` in the record format, one after another; with
    ``append`` after what the file holds. ``header`` keyword arguments (``source``, ``seed``,
    ``players``, any JSON values) are passed to :func:`record_of` for the states. Every action
    is checked legal as it is written (a ``ValueError`` otherwise). Returns the number of games
    written."""
    n = 0
    try:
        with open(path, "a" if append else "w", encoding="utf-8") as f:
            for g in games:
                rec = g if isinstance(g, Record) else record_of(g, **header)
                f.write("\n".join(_lines(rec)) + "\n")
                n += 1
    except OSError as e:
        raise ValueError(f"cannot write the record {short_path(path)}: {e.strerror or e}") from None
    return n


def _write_run(path: str, game: _Game, runs: Iterable[tuple[int, Sequence[int]]], *, source: str, seed: Any,
               players: Any) -> int:  # fmt: skip
    """Write the games of a run (``simulate``, the arena): ``(index, actions)`` of each;
    ``players(index)`` names the seats of game ``index``; ``seed`` as the run took it (``None``:
    0)."""
    seed = 0 if seed is None else operator.index(seed)
    return write_records(path, (Record(game, tuple(int(a) for a in actions), source=source, seed=seed, index=int(i),
                                       players=players(int(i))) for i, actions in runs))  # fmt: skip


# --------------------------------------------------------------------------------- reading


def read_records(path: str) -> list[Record]:
    """Every game of the record file ``path``, in order (a file of any version up to
    :data:`FORMAT_VERSION`). A line that is not JSON, a header that names no game, or action
    lines before any header raise ``ValueError`` naming the file and line; the actions are
    checked when the record is replayed (:meth:`Record.steps`)."""
    text = read_text(path)
    where = short_path(path_arg(path))
    games: list[tuple[int, dict[str, Any], list[tuple[int, dict[str, Any]]]]] = []
    for i, ln in enumerate(text.splitlines(), 1):
        if not ln.strip():
            continue
        row = json_value(ln, f"{where} line {i}")
        if not isinstance(row, dict):
            raise ValueError(f"{where} line {i}: expected a JSON object")
        if "cribpiquet" in row:
            if games and games[-1][1].get("version") is None:
                raise ValueError(f"{where} line {i}: a version-0 record holds one game")
            games.append((i, row, []))
        elif not games:
            raise ValueError(f"{where} is not a cribpiquet game record (no header line)")
        else:
            games[-1][2].append((i, row))
    if not games:
        raise ValueError(f"{where} is not a cribpiquet game record (no header line)")
    return [_record(where, line, head, rows) for line, head, rows in games]


def _record(where: str, line: int, head: dict[str, Any], numbered: list[tuple[int, dict[str, Any]]]) -> Record:
    rows = [r for _, r in numbered]
    at = f"{where} line {line}"
    version = head.get("version")
    if version is None:  # version 0: `cribpiquet play --record` before records had a version
        if head.get("cribpiquet") != "play":
            raise ValueError(f"{where} is not a cribpiquet game record (no header line)")
        version = 0
    elif head.get("cribpiquet") != "record":
        raise ValueError(f"{at}: not a cribpiquet game record header")
    if type(version) is not int or not 0 <= version <= FORMAT_VERSION:
        raise ValueError(f"{at}: record version {clip(str(version))} is newer than this cribpiquet reads "
                         f"(up to {FORMAT_VERSION})")  # fmt: skip
    options = head.get("options")
    if not isinstance(options, dict):
        raise ValueError(f"{at}: the header has no options")
    try:
        game = make_game(str(head.get("game")), options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{at}: {e}") from None
    known = {"cribpiquet", "version", "game", "options", "source", "seed", "index", "players"}
    players = head.get("players")
    if version == 0:
        players = ["you", str(head.get("bot", "bot"))] if head.get("you", 0) == 0 else [str(head.get("bot")), "you"]
        known |= {"bot", "you"}
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise ValueError(f"{at}: players must be a list of names")
    seed, index = head.get("seed"), head.get("index")
    return Record(
        game,
        # As read: each is checked to be a legal action id on replay (the line is named there).
        tuple(cast(int, r.get("action")) for r in rows),
        source=str(head.get("source", "play" if version == 0 else "api")),
        seed=seed if type(seed) is int else None,
        index=index if type(index) is int else None,
        players=tuple(players) if players is not None else None,
        extra={k: v for k, v in head.items() if k not in known},
        texts=tuple(r.get("text") if isinstance(r.get("text"), str) else None for r in rows),
        seats=tuple(r.get("seat") if type(r.get("seat")) is int else None for r in rows),
        where=where,
        lines=tuple(i for i, _ in numbered),
    )


# ------------------------------------------------------------------- simulate with records


def _writable_path(path: Any) -> str:
    """Check ``record`` before a long run, changing nothing: a path (``str`` or
    ``os.PathLike``) that is not a folder, in a folder that exists and can be written (the file
    is written after the run)."""
    path = path_arg(path, "record")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"cannot write the record {clip(repr(path), 60)}: not a file name")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write the record {short_path(path)}: no folder {short_path(folder)} to write in")
    return path


def _seat_names(players: Any, n: int) -> tuple[str, ...]:
    """A name per seat of ``simulate``'s ``players`` (a name or bot for every seat, or one
    each)."""

    def name(p: Any) -> str:
        return p.strip().lower() if isinstance(p, str) else str(getattr(p, "name", type(p).__name__))

    if players is None:
        return ("random",) * n
    if isinstance(players, str) or hasattr(players, "step"):
        return (name(players),) * n
    names = [name(p) for p in players]
    return tuple(names * n)[:n] if len(names) == 1 else tuple(names)


def simulating(native: Callable[..., dict[str, Any]], module: str) -> Callable[..., Columns]:
    """A game's public ``simulate`` (of the module named ``module``) from its native one: the
    result as :class:`Columns`, and ``record=PATH`` writing the first ``max_records`` games as
    records (kept in Rust as they are played; the native call without ``max_records`` is the
    playout path, untouched)."""

    def simulate(game: Any, n_games: int, *, players: Any = "random", seed: Optional[int] = 0,
                 threads: Optional[int] = None, first_game: Optional[int] = 0, record: Any = None,
                 max_records: int = 1000) -> Columns:  # fmt: skip
        run = {"players": players, "seed": seed, "threads": threads, "first_game": first_game}
        if record is None:
            return Columns(native(game, n_games, **run))
        max_records = int_arg(max_records, "max_records", 0)
        path = _writable_path(record)
        raw = native(game, n_games, **run, max_records=max_records)
        games = raw.pop("records", ())
        first = first_game or 0
        names = _seat_names(players, game.num_players())
        _write_run(path, game, ((first + k, a) for k, a in enumerate(games)), source="simulate", seed=seed,
                   players=lambda i: names)  # fmt: skip
        return Columns(raw)

    simulate.__doc__ = native.__doc__
    simulate.__module__, simulate.__qualname__ = module, "simulate"
    # help() and the guide show the parameters with their defaults, as the native text signature
    plain = inspect.signature(simulate)
    simulate.__signature__ = plain.replace(  # type: ignore[attr-defined]
        parameters=[p.replace(annotation=inspect.Parameter.empty) for p in plain.parameters.values()],
        return_annotation=inspect.Signature.empty,
    )
    return simulate
