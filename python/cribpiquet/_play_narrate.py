"""What each action did, in words: the narration of ``cribpiquet play`` and ``replay`` (from the
engine's states before and after the action), and the result of a finished game."""

from __future__ import annotations

from typing import Any, Optional

from . import cribbage, piquet
from ._play_cards import BOT, YOU, action_label, card_symbol, cards_text, is_piquet

# ----------------------------------------------------------------------------- narration


class Person:
    """How the narration names one seat, with its grammar: ``second`` is the second person
    (``you``: "you win", "your crib"), otherwise the third ("pimc wins", "pimc's crib");
    ``title`` is the name at the start of a sentence ("You", "The bot"), ``own`` what the seat's
    own things are called when it is the subject ("your", "its"; by default the possessive);
    ``label`` the seat's name on a replay page's table (``the bot (greedy)``; by default the name)."""

    __slots__ = ("name", "second", "title", "own", "label")

    def __init__(self, name: str, *, second: bool = False, title: Optional[str] = None,
                 own: Optional[str] = None, label: Optional[str] = None) -> None:  # fmt: skip
        self.name = name
        self.second = second
        self.title = name if title is None else title
        self.own = self.possessive if own is None else own
        self.label = name if label is None else label

    @property
    def possessive(self) -> str:
        """``your`` or ``pimc's``."""
        return "your" if self.second else f"{self.name}'s"

    def verb(self, second: str, third: str) -> str:
        """The verb's form for this seat: ``second`` for ``you``, ``third`` otherwise."""
        return second if self.second else third

    def __repr__(self) -> str:
        return f"Person({self.name!r}, second={self.second})"


#: The seats of terminal play: you (seat 0) and the bot (seat 1).
YOU_AND_BOT = (Person("you", second=True, title="You"), Person("the bot", title="The bot", own="its"))


def _delta(before: Any, after: Any) -> dict[str, list[int]]:
    b, a = before.points_by_source(), after.points_by_source()
    return {k: [x - y for x, y in zip(a[k], b[k])] for k in a}


class Narrator:
    """Says what each action did, from the engine's states before and after it. With
    ``reveal=False`` (live play) the bot's hidden cards (its discards, its talon cards) are not
    named; a replay shows everything. ``seat`` (with ``reveal=False``) narrates what that seat has
    seen: its own cards at the deal, the other seat's discards, talon cards and declarations only
    as what the seat is told of them (how many cards, the points of each category)."""

    def __init__(self, reveal: bool, seat: Optional[int] = None,
                 names: tuple[Person, Person] = YOU_AND_BOT) -> None:  # fmt: skip
        self.reveal = reveal
        self.seat = seat
        self.viewer = YOU if seat is None else seat
        self.names = names

    def _v(self, seat: int, second: str, third: str) -> str:
        """A sentence's start: the seat's name and the verb's form for it (``You discard``)."""
        who = self.names[seat]
        return f"{who.title} {who.verb(second, third)}"

    def _w(self, seat: int, second: str, third: str) -> str:
        """The same inside a sentence (``you win``)."""
        who = self.names[seat]
        return f"{who.name} {who.verb(second, third)}"

    def _hidden(self, seat: int) -> bool:
        """Are ``seat``'s own cards hidden from this narration?"""
        return not self.reveal and seat != self.viewer

    def _dealt(self, t: Any) -> list[str]:
        """The hands at the end of a deal: both in a replay, the seat's own in a seat's view."""
        if self.reveal:
            return [f"Dealt: {self.names[YOU].name} {cards_text(t, t.hand(YOU))}; "
                    f"{self.names[BOT].name} {cards_text(t, t.hand(BOT))}"]
        if self.seat is not None:
            return [f"Dealt: {self.names[self.seat].name} {cards_text(t, t.hand(self.seat))}"]
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
            out.extend(_cut_lines(s, a, t, "cut", "cuts", "the lowest card deals", self.names))
        elif phase == "deal":
            if t.phase != "deal":
                out.extend(self._dealt(t))
            elif self.seat is not None:
                out.append("A card is dealt.")
        elif phase == "discard":
            crib = self.names[p].own if s.dealer == p else self.names[1 - p].possessive
            if not self._hidden(p):
                out.append(f"{self._v(p, 'discard', 'discards')} {action_label(s, a)} to {crib} crib.")
            else:
                n = len(s.action_cards(a))
                out.append(f"{self._v(p, 'discard', 'discards')} {n} card{'s' * (n > 1)} to {crib} crib.")
        elif phase == "starter":
            out.append(f"Starter: {card_symbol(s, a)}")
        elif phase == "play":
            if a == cribbage.GO:
                out.append(f"{self._v(p, 'say', 'says')} go.")
            else:
                seq = s.count_cards() + [a]
                count = s.count + cribbage.Card(a).pips
                peg = cribbage.explain_peg(seq)
                text = f"{self._v(p, 'play', 'plays')} {card_symbol(s, a)} — count {count}"
                if peg.total:
                    text += f": {peg}"
                out.append(text + ".")
                d["pegging"][p] -= peg.total
            for seat in (p, 1 - p):
                if d["pegging"][seat] > 0:
                    out.append(f"{self._v(seat, 'peg', 'pegs')} {d['pegging'][seat]} for the last card.")
        for seat in (YOU, BOT):
            if d["heels"][seat]:
                out.append(f"{self._v(seat, 'peg', 'pegs')} {d['heels'][seat]} for his heels (a jack turned).")
            if d["three_for_last"][seat]:
                out.append(f"{self._v(seat, 'peg', 'pegs')} three for last.")
        unplayed = len(s.hand(YOU)) + len(s.hand(BOT)) - (a != cribbage.GO)
        if phase == "play" and t.phase != "play" and not t.is_terminal() and _single_count(s) and unplayed:
            out.append("The play ends: five-card cribbage has a single count (to 31, or until neither "
                       "can lay a card); cards still held are not played, only shown.")
        if phase == "play" and t.phase != "play":
            out.extend(self._show(s, t, d))
        if (phase in ("play", "starter", "cut") and scored) or t.is_terminal():
            sc = t.scores()
            out.append(f"Score: {self._scores(sc)} (to {t.get_game().target}).")
        return out

    def _scores(self, sc: Any) -> str:
        """Both seats' numbers, seat 0 first: ``you 5, the bot 3``."""
        return f"{self.names[YOU].name} {sc[YOU]}, {self.names[BOT].name} {sc[BOT]}"

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
            whose = self.names[seat].possessive + (" crib" if crib else " hand")
            out.append(f"Show, {whose}: {cards_text(s, cards)} + {card_symbol(s, starter)}: {b}")
        return out

    # piquet -----------------------------------------------------------------------------
    def _piquet(self, s: Any, a: int, t: Any) -> list[str]:
        out: list[str] = []
        p = s.current_player()
        d = _delta(s, t)
        phase = s.phase
        if phase == "cut":
            out.extend(_cut_lines(s, a, t, "draw", "draws", None, self.names))
            if t.phase != "cut" and t.dealer is not None:
                out.append(f"{self._v(t.dealer, 'deal', 'deals')} (the lower card); "
                           f"{self._w(t.elder, 'are', 'is')} elder.")  # fmt: skip
        elif phase == "deal":
            if t.phase != "deal":
                out.append(f"Deal {t.deals}: {self._w(t.dealer, 'deal', 'deals')}; "
                           f"{self._w(t.elder, 'are', 'is')} elder.")  # fmt: skip
                out.extend(self._dealt(t))
            elif self.seat is not None:
                out.append("A card is dealt.")
        elif phase == "exchange":
            n = a - piquet.EXCHANGE_BASE
            out.append(f"{self._v(p, 'keep', 'keeps')} the hand (no exchange)." if n == 0
                       else f"{self._v(p, 'exchange', 'exchanges')} {n} card{'s' * (n > 1)}.")  # fmt: skip
        elif phase == "discard":
            if not self._hidden(p):
                out.append(f"{self._v(p, 'lay', 'lays')} out {card_symbol(s, a)}.")
            elif self.seat is not None:
                out.append(f"{self._v(p, 'lay', 'lays')} out a card.")
        elif phase == "draw":
            seat = YOU if len(t.drawn(YOU)) > len(s.drawn(YOU)) else BOT
            if not self._hidden(seat):
                out.append(f"{self._v(seat, 'take', 'takes')} {card_symbol(s, a)} from the talon.")
            elif self.seat is not None:
                out.append(f"{self._v(seat, 'take', 'takes')} a card from the talon.")
        elif phase == "announce":
            capot = a == piquet.ANNOUNCE_CAPOT
            out.append(f"{self._v(p, 'announce', 'announces')} an open capot!" if capot else f"{self._v(p, 'pass', 'passes')}.")
        elif phase == "play":
            if not s.trick():
                out.append(f"{self._v(p, 'lead', 'leads')} {card_symbol(s, a)}.")
            else:
                if t.phase == "play" or t.is_terminal():
                    won = [x - y for x, y in zip(t.tricks_won(), s.tricks_won())]
                else:  # the deal is over and the next one begun: the last trick's extra says who won it
                    won = [int(x > 0) for x in d["last_trick"]]
                text = f"{self._v(p, 'play', 'plays')} {card_symbol(s, a)}"
                if 1 in won:
                    w = won.index(1)
                    text += f" — {self._w(w, 'win', 'wins')} the trick"
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
                    out.append(f"{self._v(seat, 'score', 'scores')} {x} more for the last trick ({why}).")
                elif x:
                    out.append(f"{self._v(seat, 'score', 'scores')} {x} for {label}.")
        if phase == "play" or t.is_terminal() or len(t.games()) > len(s.games()):
            sc = t.deal_scores() if len(t.games()) == len(s.games()) else list(t.games()[-1])
            if len(t.games()) > len(s.games()) or t.is_terminal():
                out.append(f"Deal over: {self._scores(sc)}.")
            elif t.plays() and not t.trick():
                out.append(f"This deal: {self._scores(sc)}; tricks: {self._scores(t.tricks_won())}.")
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
            out.append(f"  {self.names[seat_of[role]].title}: {name}{good}, {points}.")
        for (seat, category), points in told.items():
            out.append(f"  {self.names[seat].title}: {category.replace('_', ' ')}, {points}.")
        held = {"point": True, "sequences": bool(score.elder.sequences or score.dealer.sequences),
                "sets": bool(score.elder.sets or score.dealer.sets)}  # fmt: skip
        for category, holds in held.items():
            if holds and getattr(score, category).winner is None:
                out.append(f"  {category.capitalize()}: equal, nobody scores.")
        heard = t.declarations()
        out.append(f"  Declared: {self._scores([sum(heard[YOU]), sum(heard[BOT])])}.")
        return out


def _single_count(state: Any) -> bool:
    return state.get_game().variant == "five-card"


def _cut_lines(s: Any, a: int, t: Any, verb: str, verbs: str, rule: Optional[str],
               names: tuple[Person, Person]) -> list[str]:  # fmt: skip
    """Whose card a cut (draw) for deal is: seat 0 cuts first in each round (piquet: the first
    seat without a card in the engine's ``cut_cards``, a partiya draws again before each
    korolik; cribbage cuts only before the first deal, so the cuts alternate from the first
    action); once both are out, who deals and why (``names``: the seats' :class:`Person`)."""

    def _v(seat: int, second: str, third: str) -> str:
        return f"{names[seat].title} {names[seat].verb(second, third)}"

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


def trick_history(state: Any, names: tuple[Person, Person] = YOU_AND_BOT) -> list[str]:
    """The piquet tricks of the deal so far: each lead and reply, and who won it (the higher card
    of the suit led)."""
    plays = state.plays()
    out = []
    for k in range(0, len(plays) - 1, 2):
        (p, lead), (q, reply) = plays[k], plays[k + 1]
        led, answer = piquet.Card(lead), piquet.Card(reply)
        wins = q if answer.suit == led.suit and answer.rank > led.rank else p
        who = {YOU: names[YOU].name, BOT: names[BOT].name}
        out.append(f"  {k // 2 + 1:>2}. {who[p]} led {card_symbol(state, lead)}, {who[q]} played "
                   f"{card_symbol(state, reply)}: {who[wins]} won")
    return out



def plain_lines(before: Any, action: int, after: Any) -> list[str]:
    """An action of a game of more than two players as the engine writes it, and the scores when
    they change (the narration of :class:`Narrator` is for two players)."""
    who = "Chance" if before.is_chance_node() else f"Seat {before.current_player()}"
    out = [f"{who}: {before.action_to_string(action)}"]
    if after.scores() != before.scores():
        out.append("Scores: " + ", ".join(map(str, after.scores())) + f" (to {after.get_game().target})")
    return out


def _result(state: Any, names: tuple[Person, Person] = YOU_AND_BOT) -> str:
    """The last line of a game: who won, by how much (``names``: the seats' :class:`Person`)."""
    r = state.returns()

    def wins(seat: int) -> str:
        return f"{names[seat].name} {names[seat].verb('win', 'wins')}"

    if state.num_players() > 2:
        sc = state.scores()
        return f"Game over: side {state.winner} wins, scores {', '.join(map(str, sc))}."
    if is_piquet(state):
        if state.get_game().scope == "deal":
            sc = state.deal_scores()
            verdict = "a drawn deal" if r[YOU] == 0 else wins(YOU if r[YOU] > 0 else BOT)
            return f"Game over: {names[YOU].name} {sc[YOU]}, {names[BOT].name} {sc[BOT]} — {verdict}."
        return f"Game over: {wins(YOU if r[YOU] > 0 else BOT)} the match by {abs(int(r[YOU]))}."
    sc = state.scores()
    who = wins(YOU if r[YOU] > 0 else BOT)
    return f"Game over: {who}, {max(sc)} to {min(sc)}."


