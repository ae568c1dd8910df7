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

The engine (:mod:`cribpiquet.cribbage`, :mod:`cribpiquet.piquet`) does every rule: this module
only parses what you type into actions with the engine's ``string_to_action``/``parse_cards``,
checks them against ``legal_actions()``, reads the cards of an action (``action_cards``) and of
the current count (``count_cards``) from the state, and narrates what the engine scored
(``rewards`` by source, ``explain_hand``/``explain_peg``, ``score_declarations``).

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

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, TextIO

from . import _core, _display, cribbage, piquet, records
from ._util import clip, path_arg, printable, short_path

YOU, BOT = 0, 1
WHO = {-1: "chance", YOU: "you", BOT: "bot"}
NAME = {YOU: "You", BOT: "The bot"}

#: Extra bot factories by name (``seed -> bot``), for tests and embedders; checked first.
EXTRA_BOTS: dict[str, Callable[[int], Any]] = {}

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

#: How the cards are drawn: suit symbols, colour (set by :func:`play` and :func:`replay` for the
#: output stream; symbols and no colour otherwise).
STYLE = {"symbols": True, "colour": False}


def set_style(stream: Any) -> None:
    """Symbols when ``stream`` can show them, colour when it is a colour terminal."""
    STYLE["symbols"] = _display.can_show_symbols(stream)
    STYLE["colour"] = _display.use_colour(stream)


class InputError(ValueError):
    """What the player typed is not a legal move now; the message is the one-line reason."""


@dataclass
class Command:
    """A parsed line: ``kind`` is ``"move"`` (then ``actions`` are the engine actions to apply, in
    order), ``"hint"``, ``"undo"``, ``"quit"``, ``"help"`` or ``"show"``."""

    kind: str
    actions: list[int] = field(default_factory=list)


# ------------------------------------------------------------------------------------ cards


def is_piquet(state: Any) -> bool:
    return isinstance(state, piquet.State)


def _card(state: Any, card: int) -> Any:
    return (piquet.Card if is_piquet(state) else cribbage.Card)(card)


def card_symbol(state: Any, card: int) -> str:
    """A card id of ``state``'s game as text in the session's style (``10♥``; ``TH`` where the
    terminal has no suit symbols; red suits coloured on a colour terminal)."""
    return _display.card_text(_card(state, card), symbols=STYLE["symbols"], colour=STYLE["colour"])


def sort_cards(state: Any, cards: Iterable[int]) -> list[int]:
    """Cribbage cards by rank, then suit; piquet cards by suit, then rank (as a hand is held)."""
    if is_piquet(state):
        return sorted(cards)
    return sorted(cards, key=lambda c: _display.sort_key(cribbage.Card(c)))


def _move_key(state: Any, action: int) -> tuple:
    """Moves with cards first, by their cards as :func:`sort_cards` orders them; then the others."""
    cards = state.action_cards(action)
    if not cards:
        return (1, action)
    return (0, tuple(c if is_piquet(state) else _display.sort_key(cribbage.Card(c)) for c in sort_cards(state, cards)))


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


# ----------------------------------------------------------------------------- narration


def _v(seat: int, you: str, bot: str) -> str:
    return f"{NAME[seat]} {you if seat == YOU else bot}"


def _delta(before: Any, after: Any) -> dict[str, list[int]]:
    b, a = before.points_by_source(), after.points_by_source()
    return {k: [x - y for x, y in zip(a[k], b[k])] for k in a}


class Narrator:
    """Says what each action did, from the engine's states before and after it. With
    ``reveal=False`` (live play) the bot's hidden cards (its discards, its talon cards) are not
    named; a replay shows everything. ``seat`` (with ``reveal=False``) narrates what that seat has
    seen: its own cards at the deal, the other seat's discards, talon cards and declarations only
    as what the seat is told of them (how many cards, the points of each category)."""

    def __init__(self, reveal: bool, seat: Optional[int] = None) -> None:
        self.reveal = reveal
        self.seat = seat
        self.viewer = YOU if seat is None else seat

    def _hidden(self, seat: int) -> bool:
        """Are ``seat``'s own cards hidden from this narration?"""
        return not self.reveal and seat != self.viewer

    def _dealt(self, t: Any) -> list[str]:
        """The hands at the end of a deal: both in a replay, the seat's own in a seat's view."""
        if self.reveal:
            return [f"Dealt: you {cards_text(t, t.hand(YOU))}; the bot {cards_text(t, t.hand(BOT))}"]
        if self.seat is not None:
            return [f"Dealt: {'you' if self.seat == YOU else 'the bot'} {cards_text(t, t.hand(self.seat))}"]
        return []

    def lines(self, before: Any, action: int, after: Any) -> list[str]:
        if is_piquet(before):
            return self._piquet(before, action, after)
        return self._cribbage(before, action, after)

    # cribbage ---------------------------------------------------------------------------
    def _cribbage(self, s: Any, a: int, t: Any) -> list[str]:
        out: list[str] = []
        p = s.current_player()
        d = _delta(s, t)
        scored = any(d[k][x] for k in d for x in (YOU, BOT))
        phase = s.phase
        if phase == "cut":
            out.extend(_cut_lines(s, a, t, "cut", "cuts", "the lowest card deals"))
        elif phase == "deal":
            if t.phase != "deal":
                out.extend(self._dealt(t))
            elif self.seat is not None:
                out.append("A card is dealt.")
        elif phase == "discard":
            crib = ("your" if p == YOU else "its") if s.dealer == p else ("the bot's" if p == YOU else "your")
            if not self._hidden(p):
                out.append(f"{_v(p, 'discard', 'discards')} {action_label(s, a)} to {crib} crib.")
            else:
                n = len(s.action_cards(a))
                out.append(f"{_v(p, 'discard', 'discards')} {n} card{'s' * (n > 1)} to {crib} crib.")
        elif phase == "starter":
            out.append(f"Starter: {card_symbol(s, a)}")
        elif phase == "play":
            if a == cribbage.GO:
                out.append(f"{_v(p, 'say', 'says')} go.")
            else:
                seq = s.count_cards() + [a]
                count = s.count + cribbage.Card(a).pips
                peg = cribbage.explain_peg(seq)
                text = f"{_v(p, 'play', 'plays')} {card_symbol(s, a)} — count {count}"
                if peg.total:
                    text += f": {peg}"
                out.append(text + ".")
                d["pegging"][p] -= peg.total
            for seat in (p, 1 - p):
                if d["pegging"][seat] > 0:
                    out.append(f"{_v(seat, 'peg', 'pegs')} {d['pegging'][seat]} for the last card.")
        for seat in (YOU, BOT):
            if d["heels"][seat]:
                out.append(f"{_v(seat, 'peg', 'pegs')} {d['heels'][seat]} for his heels (a jack turned).")
            if d["three_for_last"][seat]:
                out.append(f"{_v(seat, 'peg', 'pegs')} three for last.")
        unplayed = len(s.hand(YOU)) + len(s.hand(BOT)) - (a != cribbage.GO)
        if phase == "play" and t.phase != "play" and not t.is_terminal() and _single_count(s) and unplayed:
            out.append("The play ends: five-card cribbage has a single count (to 31, or until neither "
                       "can lay a card); cards still held are not played, only shown.")
        if phase == "play" and t.phase != "play":
            out.extend(self._show(s, t, d))
        if (phase in ("play", "starter", "cut") and scored) or t.is_terminal():
            sc = t.scores()
            out.append(f"Score: you {sc[YOU]}, the bot {sc[BOT]} (to {t.get_game().target}).")
        return out

    def _show(self, s: Any, t: Any, d: dict[str, list[int]]) -> list[str]:
        out = []
        pone, dealer = 1 - s.dealer, s.dealer
        starter = s.starter
        items = [(pone, s.kept(pone), False), (dealer, s.kept(dealer), False), (dealer, s.crib(), True)]
        if t.is_terminal():  # won during the play or the show: only what was pegged before the end
            counted = [k for k, (seat, _, crib) in enumerate(items) if d["crib" if crib else "hand"][seat]]
            items = items[: counted[-1] + 1] if counted else []
        for seat, cards, crib in items:
            b = cribbage.explain_hand(cards, starter, crib=crib)
            whose = ("your" if seat == YOU else "the bot's") + (" crib" if crib else " hand")
            out.append(f"Show, {whose}: {cards_text(s, cards)} + {card_symbol(s, starter)}: {b}")
        return out

    # piquet -----------------------------------------------------------------------------
    def _piquet(self, s: Any, a: int, t: Any) -> list[str]:
        out: list[str] = []
        p = s.current_player()
        d = _delta(s, t)
        phase = s.phase
        if phase == "cut":
            out.extend(_cut_lines(s, a, t, "draw", "draws", None))
            if t.phase != "cut" and t.dealer is not None:
                out.append(f"{_v(t.dealer, 'deal', 'deals')} (the lower card); "
                           f"{'you are' if t.elder == YOU else 'the bot is'} elder.")  # fmt: skip
        elif phase == "deal":
            if t.phase != "deal":
                out.append(f"Deal {t.deals}: {'you deal' if t.dealer == YOU else 'the bot deals'}; "
                           f"{'you are' if t.elder == YOU else 'the bot is'} elder.")  # fmt: skip
                out.extend(self._dealt(t))
            elif self.seat is not None:
                out.append("A card is dealt.")
        elif phase == "exchange":
            n = a - piquet.EXCHANGE_BASE
            out.append(f"{_v(p, 'keep', 'keeps')} the hand (no exchange)." if n == 0
                       else f"{_v(p, 'exchange', 'exchanges')} {n} card{'s' * (n > 1)}.")  # fmt: skip
        elif phase == "discard":
            if not self._hidden(p):
                out.append(f"{_v(p, 'lay', 'lays')} out {card_symbol(s, a)}.")
            elif self.seat is not None:
                out.append(f"{_v(p, 'lay', 'lays')} out a card.")
        elif phase == "draw":
            seat = YOU if len(t.drawn(YOU)) > len(s.drawn(YOU)) else BOT
            if not self._hidden(seat):
                out.append(f"{_v(seat, 'take', 'takes')} {card_symbol(s, a)} from the talon.")
            elif self.seat is not None:
                out.append(f"{_v(seat, 'take', 'takes')} a card from the talon.")
        elif phase == "announce":
            capot = a == piquet.ANNOUNCE_CAPOT
            out.append(f"{_v(p, 'announce', 'announces')} an open capot!" if capot else f"{_v(p, 'pass', 'passes')}.")
        elif phase == "play":
            if not s.trick():
                out.append(f"{_v(p, 'lead', 'leads')} {card_symbol(s, a)}.")
            else:
                if t.phase == "play" or t.is_terminal():
                    won = [x - y for x, y in zip(t.tricks_won(), s.tricks_won())]
                else:  # the deal is over and the next one begun: the last trick's extra says who won it
                    won = [int(x > 0) for x in d["last_trick"]]
                text = f"{_v(p, 'play', 'plays')} {card_symbol(s, a)}"
                if 1 in won:
                    w = won.index(1)
                    text += f" — {'you win' if w == YOU else 'the bot wins'} the trick"
                out.append(text + ".")
        if s.declarations() is None and t.declarations() is not None:
            out.extend(self._declarations(t))
        names = {"repique": "repique", "pique": "pique", "last_trick": "the last trick",
                 "leza": "the leza (more than six tricks)", "capot": "capot"}  # fmt: skip
        for key, label in names.items():
            for seat in (YOU, BOT):
                x = d.get(key, [0, 0])[seat]
                if x and key == "last_trick":  # the extra on top of the trick's own point
                    why = ("the last trick counts 4 instead of 1" if x == 3 else
                           "the last trick scores one point more")  # fmt: skip
                    out.append(f"{_v(seat, 'score', 'scores')} {x} more for the last trick ({why}).")
                elif x:
                    out.append(f"{_v(seat, 'score', 'scores')} {x} for {label}.")
        if phase == "play" or t.is_terminal() or len(t.games()) > len(s.games()):
            sc = t.deal_scores() if len(t.games()) == len(s.games()) else list(t.games()[-1])
            if len(t.games()) > len(s.games()) or t.is_terminal():
                out.append(f"Deal over: you {sc[YOU]}, the bot {sc[BOT]}.")
            elif t.plays() and not t.trick():
                out.append(f"This deal: you {sc[YOU]}, the bot {sc[BOT]}; tricks: you "
                           f"{t.tricks_won()[YOU]}, the bot {t.tricks_won()[BOT]}.")  # fmt: skip
        return out

    def _declarations(self, t: Any) -> list[str]:
        elder = t.elder
        dealer = 1 - elder
        rules = t.get_game().rules
        score = piquet.score_declarations(t.hand(elder), t.hand(dealer), rules=rules,
                                          elder_dealt=t.dealt_hand(elder),
                                          dealer_dealt=t.dealt_hand(dealer))  # fmt: skip
        seat_of = {"elder": elder, "dealer": dealer}
        out = ["Declarations:"]
        told: dict[tuple[int, str], int] = {}  # a hidden seat's declarations: the points by category
        for role, category, name, points, _cards in score.items:
            if self._hidden(seat_of[role]) and self.seat is not None:
                told[seat_of[role], category] = told.get((seat_of[role], category), 0) + points
                continue
            good = " — good" if category in ("point", "sequence", "set") else ""
            out.append(f"  {NAME[seat_of[role]]}: {name}{good}, {points}.")
        for (seat, category), points in told.items():
            out.append(f"  {NAME[seat]}: {category.replace('_', ' ')}, {points}.")
        held = {"point": True, "sequences": bool(score.elder.sequences or score.dealer.sequences),
                "sets": bool(score.elder.sets or score.dealer.sets)}  # fmt: skip
        for category, holds in held.items():
            if holds and getattr(score, category).winner is None:
                out.append(f"  {category.capitalize()}: equal, nobody scores.")
        heard = t.declarations()
        out.append(f"  Declared: you {sum(heard[YOU])}, the bot {sum(heard[BOT])}.")
        return out


def _single_count(state: Any) -> bool:
    return state.get_game().variant == "five-card"


def _cut_lines(s: Any, a: int, t: Any, verb: str, verbs: str, rule: Optional[str]) -> list[str]:
    """Whose card a cut (draw) for deal is: seat 0 cuts first in each round (piquet: the first
    seat without a card in the engine's ``cut_cards``, a partiya draws again before each
    korolik; cribbage cuts only before the first deal, so the cuts alternate from the first
    action); once both are out, who deals and why."""
    seat = s.cut_cards().index(None) if is_piquet(s) else len(s.history()) % 2
    out = [f"{_v(seat, verb, verbs)} {card_symbol(s, a)}."]
    if seat == BOT:
        mine = s.cut_cards()[YOU] if is_piquet(s) else s.history()[-1]
        if t.phase == "cut":
            out.append(f"Equal cards ({card_symbol(s, mine)}, {card_symbol(s, a)}): {verb} again.")
        elif rule is not None and t.dealer is not None:
            low, high = (a, mine) if t.dealer == BOT else (mine, a)
            out.append(f"{_v(t.dealer, 'deal', 'deals')} first: {card_symbol(s, low)} is lower than "
                       f"{card_symbol(s, high)} ({rule}).")
    return out


def trick_history(state: Any) -> list[str]:
    """The piquet tricks of the deal so far: each lead and reply, and who won it (the higher card
    of the suit led)."""
    plays = state.plays()
    out = []
    for k in range(0, len(plays) - 1, 2):
        (p, lead), (q, reply) = plays[k], plays[k + 1]
        led, answer = piquet.Card(lead), piquet.Card(reply)
        wins = q if answer.suit == led.suit and answer.rank > led.rank else p
        who = {YOU: "you", BOT: "the bot"}
        out.append(f"  {k // 2 + 1:>2}. {who[p]} led {card_symbol(state, lead)}, {who[q]} played "
                   f"{card_symbol(state, reply)}: {who[wins]} won")
    return out


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
    moves = "  ".join(f"{i}) {action_label(state, a)}" for i, a in enumerate(listed, 1))
    return [f"Your turn — {ask}:", f"  {moves}"]


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


def _replay(rec: records.Record, out: Optional[TextIO], game: int = 1, games: int = 1) -> Any:
    emit = (lambda s: print(s, file=out)) if out is not None else print
    if games > 1:
        emit(f"Game {game} of {games} in the file (--game N for another).")
    emit(printable(record_title(rec)))  # the header's fields are the file's text: escaped
    two = rec.game.num_players() == 2
    if two and rec.source != "play":
        emit("Seat 0 is called 'you' below, seat 1 'the bot'.")
    narrator = Narrator(reveal=True)
    state = rec.game.new_initial_state()
    for n, before, action, state in rec.steps():
        lines = narrator.lines(before, action, state) if two else plain_lines(before, action, state)
        for k, line in enumerate(lines):
            emit(f"{n:>4}. {line}" if k == 0 else f"      {line}")
    emit(_result(state) if state.is_terminal() else "(the record ends before the game does)")
    return state


def plain_lines(before: Any, action: int, after: Any) -> list[str]:
    """An action of a game of more than two players as the engine writes it, and the scores when
    they change (the narration of :class:`Narrator` is for two players)."""
    who = "Chance" if before.is_chance_node() else f"Seat {before.current_player()}"
    out = [f"{who}: {before.action_to_string(action)}"]
    if after.scores() != before.scores():
        out.append("Scores: " + ", ".join(map(str, after.scores())) + f" (to {after.get_game().target})")
    return out


def _result(state: Any) -> str:
    r = state.returns()
    if state.num_players() > 2:
        sc = state.scores()
        return f"Game over: side {state.winner} wins, scores {', '.join(map(str, sc))}."
    if is_piquet(state):
        if state.get_game().scope == "deal":
            sc = state.deal_scores()
            verdict = "a drawn deal" if r[YOU] == 0 else ("you win" if r[YOU] > 0 else "the bot wins")
            return f"Game over: you {sc[YOU]}, the bot {sc[BOT]} — {verdict}."
        return f"Game over: {'you win' if r[YOU] > 0 else 'the bot wins'} the match by {abs(int(r[YOU]))}."
    sc = state.scores()
    who = "you win" if r[YOU] > 0 else "the bot wins"
    return f"Game over: {who}, {max(sc)} to {min(sc)}."


# ---------------------------------------------------------------------------------- hints


def value_unit(bot: str, state: Any) -> tuple[str, Callable[[float], str]]:
    """What the ``bot`` bot's ``action_values`` mean at ``state``, and how to print one."""
    signed = lambda v: f"{v + 0.0:+.3f}"  # noqa: E731
    crib = not is_piquet(state)
    if bot == "greedy":
        if crib:
            if state.phase == "discard":
                return "expected net points of the deal (your hand ± the crib, + heels as dealer)", signed
            return "points this card pegs now minus the opponent's expected best reply", signed
        return {"exchange": ("expected declaration points after the exchange (exact over every draw)", signed),
                "announce": ("1 to announce, 0 to pass (a failed announcement costs nothing)", signed),
                "play": ("a preference score of the trick heuristic (no unit: higher is better)", signed),
                }.get(state.phase, ("the greedy bot's score (higher is better)", signed))  # fmt: skip
    if bot == "ismcts":
        if crib:
            return "estimated chance to win the game", lambda v: f"{100 * v:5.1f}%"
        return "search value 0..1 of the deal's point difference, ½ + ½·tanh(Δ/40)", lambda v: f"{v:.3f}"
    if bot == "random":
        return "1/n for each of the n moves (the random bot prefers none)", signed
    if bot == "first":
        return "1 for the first legal move, 0 for the others", signed
    return f"the {bot} bot's own scale (higher is better)", signed


def _discard_split(state: Any) -> dict[int, str]:
    """Each two-player cribbage discard's expected hand and crib, as ``cribbage discard`` prints
    them (exact over every starter and the opponent's throws, all alike)."""
    if state.get_game().variant not in ("five-card", "six-card"):
        return {}
    dealer = state.dealer == YOU
    a = cribbage.analyze_discard(state.hand(YOU), dealer=dealer, variant=state.get_game().variant)
    whose = "yours" if dealer else "the bot's"
    out = {}
    for r in a.rows:
        action = cribbage.pair_action(*(int(c) for c in r.thrown))
        out[action] = f"hand {r.hand:.3f}, crib {r.crib:.3f} ({whose}), net {r.net:+.3f}"
    return out


def _best_layouts(state: Any, dealt: list[int], most: int) -> dict[int, str]:
    """For each exchange size up to ``most``, the cards of the dealt hand to lay out with the most
    expected declaration points after the exchange (exact, ``piquet.analyze_exchange``)."""
    role = "elder" if state.elder == YOU else "dealer"
    a = piquet.analyze_exchange(dealt, role=role, rules=state.get_game().rules, samples=0,
                                max_discard=most if role == "dealer" else None)
    best: dict[int, str] = {}
    for r in a.rows:  # best expected total first
        best.setdefault(len(r.discard), cards_text(state, [int(c) for c in r.discard]))
    return best


def _exchange_layouts(state: Any) -> dict[int, str]:
    sizes = [n for n in _exchange_sizes(state) if n]
    if not sizes:
        return {}
    best = _best_layouts(state, state.hand(YOU), max(sizes))
    return {piquet.EXCHANGE_BASE + n: f"lay out {best[n]}" for n in sizes if n in best}


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
        split = _discard_split(s) if not is_piquet(s) and s.phase == "discard" else {}
        layouts = _exchange_layouts(s) if is_piquet(s) and s.phase == "exchange" else {}
        for a, v in shown:
            n = listed.index(a) + 1 if a in listed else "?"
            line = f"  {n}) {action_label(s, a)}  {fmt(v)}"
            if a in split:
                line += f"   {split[a]}"
            if a in layouts:
                line += f"   {layouts[a]}"
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
