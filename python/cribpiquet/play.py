"""Play cribbage or piquet against a bot in the terminal, record the game, and replay a record.

    cribpiquet play cribbage [--variant five-card|six-card] [--bot NAME] [--seed N] [--record FILE]
    cribpiquet play piquet [--rules russian|rubicon] [--scope deal|partiya] [--bot NAME] [--seed N]
    cribpiquet replay FILE [--game N]

You are seat 0, the bot seat 1. At your turn type a card (``5H``, ``10♥``, ``th``), a cribbage
discard (``5H JC``), a piquet exchange (the cards you lay out: ``7D 8H JS``), a move's text as
listed (``go``, ``pass``, ``exchange 0``) or the number of a move in the printed list; ``hint``
prints the bot's values of your best moves with their unit (``hint all``: every move), ``undo``
takes back your last move (and the bot's replies), ``show`` prints the table again (in piquet with
the tricks so far), ``quit`` asks and leaves, ``help`` lists the commands. Bad input re-prompts with
a one-line reason. A piquet exchange takes the cards to lay out in any order, all at once or one
at a time (after ``exchange 3``, or a card at a time: they are laid out once all are chosen).

Cards are shown in one notation, sorted by rank then suit in cribbage and by suit then rank in
piquet (as a piquet hand is held: the point and sequences are by suit); suit symbols when the
terminal's encoding has them (else ``TH``), red suits in red on a colour terminal (not with
``NO_COLOR`` set, ``TERM=dumb``, or output that is not a terminal).

The engine (:mod:`cribpiquet.cribbage`, :mod:`cribpiquet.piquet`) does every rule: the front end
only parses what you type into actions with the engine's ``string_to_action``/``parse_cards``,
checks them against ``legal_actions()``, reads the cards of an action (``action_cards``) and of
the current count (``count_cards``) from the state, and narrates what the engine scored
(``rewards`` by source, ``explain_hand``/``explain_peg``, ``score_declarations``).

The front end is split by job: ``_play_cards`` (how cards and moves are written and listed),
``_play_input`` (what you type, parsed), ``_play_narrate`` (what each action did, in words),
``_play_table`` (the table and the prompt), ``_play_hints`` (the hint's units and analyses),
``_play_records`` (the record written as you play, and ``replay``); this module runs the
session and keeps their names.

Chance events are the engine's draw, ``State.sample_chance(seed)`` (seeded by the seed and the
move number), so a seed fixes the deal and taking a move back and playing another one does not
re-shuffle the pack.

A record (``--record FILE``) is a game record of :mod:`cribpiquet.records` (JSON lines, the
format of ``docs/records.md``): the header ``{"cribpiquet": "record", "version": 1, "game": ...,
"options": {...}, "source": "play", "seed": N, "players": ["you", BOT]}``, then one line per
action applied, in order, ``{"seat": -1|0|1, "who": "chance"|"you"|"bot", "action": id, "text":
...}``. A move taken back is removed from the file. ``replay`` rebuilds a game from its actions
and prints it move by move with every card shown: any record (of ``play``, the arena,
``simulate`` or a program's own loop; ``--game N`` picks a game of a file that holds several),
and the records ``play`` wrote before records had a version.
"""

from __future__ import annotations

import random
import sys
from typing import Any, Callable, Optional

from . import _core, records
from ._play_cards import (BOT, NAME, STYLE, WHO, YOU, _move_key, action_label, card_symbol, cards_text, choices,
                          is_piquet, set_style, sort_cards)
from ._play_hints import _best_layouts, hint_notes, value_unit
from ._play_input import COMMANDS, HELP, Command, InputError, parse_input
from ._play_narrate import Narrator, _delta, _result, plain_lines, trick_history
from ._play_records import Recorder, make_game, pick_record, record_title, replay
from ._play_table import prompt_lines, table
from ._util import clip, printable

__all__ = [
    "BOT", "COMMANDS", "EXTRA_BOTS", "HELP", "NAME", "STYLE", "WHO", "YOU", "Command", "InputError", "Narrator",
    "Recorder", "Session", "action_label", "card_symbol", "cards_text", "choices", "default_bot", "is_piquet",
    "make_bot", "make_game", "parse_input", "pick_record", "plain_lines", "play", "prompt_lines", "record_title",
    "replay", "set_style", "sort_cards", "table", "trick_history", "value_unit",
]  # fmt: skip

#: Extra bot factories by name (``seed -> bot``), for tests and embedders; checked first.
EXTRA_BOTS: dict[str, Callable[[int], Any]] = {}


# ------------------------------------------------------------------------------------- bots


def default_bot() -> str:
    """The bot ``--bot`` defaults to: ``"greedy"``."""
    return "greedy"


def make_bot(name: str, seed: int) -> Any:
    """The bot called ``name`` (a name of the bots' registry, :func:`cribpiquet._core.bot_names`,
    any case, with ``:N`` where it takes an argument: the names ``simulate`` and the arena take)
    or a name in :data:`EXTRA_BOTS`, seeded with ``seed`` where it draws random numbers."""
    if name in EXTRA_BOTS:
        return EXTRA_BOTS[name](seed)
    bot = _core.bot_from_name(name, seed=seed)
    if bot is None:
        raise ValueError(f"unknown bot {clip(name)!r}: choose {', '.join(_core.bot_names())}")
    return bot



# ---------------------------------------------------------------------------------- play


class Session:
    """One game at the terminal: you (seat 0) against ``bot`` (seat 1)."""

    def __init__(self, game: Any, bot: Any, hint_bot: Any, seed: int, recorder: Recorder,
                 read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 bot_name: str = "bot") -> None:  # fmt: skip
        self.state = game.new_initial_state()
        self.bot_name = bot_name
        self.bot, self.hint_bot, self.seed = bot, hint_bot, seed
        self.recorder, self.read, self.write = recorder, read, write
        self.narrator = Narrator(reveal=False)
        self.marks: list[int] = []  # history length before each of your moves
        self.pending: list[int] = []  # piquet cards set aside to lay out, not yet applied
        self.tricks = False  # show the piquet tricks with the next table
        for b in (bot, hint_bot):
            b.restart()

    def apply(self, action: int) -> None:
        s = self.state
        seat = s.current_player() if not s.is_chance_node() else -1
        before = s.clone()
        s.apply_action(action)
        self.recorder.add(seat, action, before.action_to_string(action))
        for line in self.narrator.lines(before, action, s):
            self.write(line)

    def run(self) -> int:
        """Play until the game ends or you quit; returns the exit status (0)."""
        shown = False
        while True:
            s = self.state
            if s.is_terminal():
                self.write(_result(s))
                return 0
            if s.is_chance_node():
                self.apply(s.sample_chance(self.seed))
                continue
            if s.current_player() == BOT:
                action = self.bot.step(s.clone())
                if action not in s.legal_actions():
                    raise ValueError(f"the bot chose an illegal action {action}")
                self.apply(action)
                shown = False
                continue
            if not shown:
                for line in table(s, self.pending, self.tricks) + prompt_lines(s, self.pending):
                    self.write(line)
                shown, self.tricks = True, False
            try:
                text = self.read("> ")
            except EOFError:
                self.write("")
                self.write("Bye (end of input).")
                return 0
            except UnicodeDecodeError:  # bytes the terminal's encoding cannot read: ask again
                self.write("? that line is not text in the terminal's encoding (type help)")
                continue
            try:
                cmd = parse_input(text, s, self.pending)
            except InputError as e:  # it may echo what was typed: control characters escaped
                self.write(f"? {printable(str(e))}")
                continue
            if cmd.kind == "move":
                self.marks.append(len(s.history()))
                self.pending = []
                for a in cmd.actions:
                    self.apply(a)
                shown = False
            elif cmd.kind == "aside":
                self.pending += cmd.actions
                need = (s.exchange_size(YOU) or 0) - len(s.discards(YOU)) - len(self.pending)
                self.write(f"Set aside {cards_text(s, cmd.actions)}: {need} more to choose.")
                shown = False
            elif cmd.kind in ("hint", "hint all"):
                self.hint(all_moves=cmd.kind == "hint all")
            elif cmd.kind == "undo":
                shown = not self.undo()
            elif cmd.kind == "help":
                self.write(HELP)
            elif cmd.kind == "show":
                shown, self.tricks = False, True
            elif cmd.kind == "quit":
                try:
                    answer = self.read("Leave the game? [y/N] ")
                except EOFError:
                    answer = "y"
                if answer.strip().lower() in ("y", "yes"):
                    self.write("Bye.")
                    return 0
                self.write("Playing on.")

    def hint(self, all_moves: bool = False) -> None:
        """The hint bot's values of your moves, best first (five, or all), with their unit; a
        cribbage discard with its hand/crib split, a piquet exchange with the cards to lay out."""
        s = self.state
        if is_piquet(s) and s.phase == "discard":
            self._hint_lay_out()
            return
        values = self.hint_bot.action_values(s.clone())
        listed = choices(s, self.pending)
        ranked = sorted(values.items(), key=lambda kv: (-kv[1], _move_key(s, kv[0])))
        shown = ranked if all_moves else ranked[:5]
        unit, fmt = value_unit(self.bot_name, s)
        more = "" if all_moves or len(ranked) <= 5 else f"; hint all: all {len(ranked)}"
        self.write(f"Hint (the {self.bot_name} bot's values, best first{more}):")
        self.write(f"  value = {unit}")
        notes = hint_notes(s)
        for a, v in shown:
            n = listed.index(a) + 1 if a in listed else "?"
            line = f"  {n}) {action_label(s, a)}  {fmt(v)}"
            if a in notes:
                line += f"   {notes[a]}"
            self.write(line)

    def _hint_lay_out(self) -> None:
        """At a piquet discard (after ``exchange n``): the ``n`` cards with the best exact
        expected declarations (``piquet.analyze_exchange``), whatever the bot."""
        s = self.state
        n = s.exchange_size(YOU) or 0
        best = _best_layouts(s, s.dealt_hand(YOU), n).get(n, "-")
        self.write(f"Hint: lay out {best} (of the {n}-card exchanges, the most expected declaration points "
                   "after it, exact over every draw).")

    def undo(self) -> bool:
        """Take back your last move and everything after it (first, any piquet cards set aside);
        False when there is nothing to undo."""
        if self.pending:
            self.pending = []
            self.write("Took back the cards set aside.")
            return True
        if not self.marks:
            self.write("? nothing to undo: you have not moved yet")
            return False
        mark = self.marks.pop()
        s = self.state
        theirs = 0
        while len(s.history()) > mark:
            s.undo_action()
            theirs += s.current_player() == BOT
        self.recorder.truncate(mark)
        for b in (self.bot, self.hint_bot):
            b.restart()
        self.write("Took back your last move" + (" and the bot's replies." if theirs else "."))
        return True


def play(kind: str, options: dict[str, Any], *, bot: Optional[str] = None, seed: Optional[int] = None,
         record: Optional[str] = None) -> int:  # fmt: skip
    """Play ``kind`` (``"cribbage"`` or ``"piquet"``) with ``options`` against ``bot`` at the
    terminal (stdin/stdout); returns the exit status."""
    game = make_game(kind, options)
    name = bot or default_bot()
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    the_bot = make_bot(name, seed)
    hint_bot = make_bot(name, (seed + 1) % 2**64)  # its own stream (the seed the user typed may be the last)
    header = records.Record(game, (), source="play", seed=seed, players=("you", name)).header()
    recorder = Recorder(record, header)
    opts = ", ".join(f"{k} {v}" for k, v in options.items())
    print(f"{kind} ({opts}) against the {name} bot, seed {seed}. Type help for the commands.")
    saved = dict(STYLE)
    set_style(sys.stdout)
    try:
        return Session(game, the_bot, hint_bot, seed, recorder, bot_name=name).run()
    except KeyboardInterrupt:
        print("\nBye (interrupted).")
        return 130
    finally:
        STYLE.update(saved)

