"""One naming for the seats in a replay (``cribpiquet replay`` and its ``--html`` page): the
players' names from the record, in the table and in every narrated line; ``you`` and the bot
only for a record of ``cribpiquet play``."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from cribpiquet import bots, cribbage, piquet, play, records, replay_page
from cribpiquet._play_narrate import YOU_AND_BOT, Narrator, Person

GAMES = [
    (lambda: cribbage.Game("six-card"), 5),
    (lambda: cribbage.Game("five-card"), 3),
    (lambda: piquet.Game("russian", scope="deal"), 3),
    (lambda: piquet.Game("rubicon", scope="deal"), 8),
]

#: Words that name a seat as terminal play does: none may be left in a replay of named players.
TERMINAL_WORDS = re.compile(r"\b(you|your|You|Your)\b|\b[Tt]he bot\b|\bits crib\b")


def finished_game(make: Any, seed: int) -> Any:
    """A whole game of two bots, its chance outcomes drawn with ``seed``."""
    state = make().new_initial_state()
    rng = random.Random(seed)
    players = [bots.Random(seed=seed), bots.First()]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(players[state.current_player()].step(state))
    return state


def write(path: Path, state: Any, **header: Any) -> str:
    records.write_records(str(path), [state], **header)
    return str(path)


def text_replay(path: str) -> list[str]:
    out = io.StringIO()
    play.replay(path, out)
    return out.getvalue().splitlines()


def winner(state: Any) -> int:
    return 0 if state.returns()[0] > 0 else 1


def narrated(frames: list[dict[str, Any]]) -> list[str]:
    return [line for f in frames for line in f["lines"]]


def page_names(page: str) -> list[str]:
    return json.loads(re.search(r"const NAMES = (.*);\n", page).group(1))


@pytest.mark.parametrize(("make", "seed"), GAMES)
@pytest.mark.parametrize("source", ["arena", "simulate"])
def test_named_players_everywhere(tmp_path: Path, make: Any, seed: int, source: str):
    state = finished_game(make, seed)
    path = write(tmp_path / "g.jsonl", state, source=source, players=["pimc", "greedy"])
    seat_words = {0: 0, 1: 0}
    for view in (None, 0, 1):
        frames = replay_page.frames_of_record(path, seat=view)
        lines = narrated(frames)
        assert not [line for line in lines if TERMINAL_WORDS.search(line)]
        for line in lines:
            seat_words[0] += "pimc" in line
            seat_words[1] += "greedy" in line
        assert f"{['pimc', 'greedy'][winner(state)]} wins" in lines[-1]
        assert all(f["title"] in ("start", "the show") or not f["title"].startswith("move")
                   or f["title"].endswith(("(pimc)", "(greedy)", "(chance)")) for f in frames)  # fmt: skip
    assert seat_words[0] > 3 and seat_words[1] > 3
    page = replay_page.replay_html(path)
    assert page_names(page) == ["pimc", "greedy"]
    assert '<div class="seat"><b>pimc ' in page and '<div class="seat"><b>greedy ' in page
    assert "the bot" not in page and "you (" not in page
    text = text_replay(path)
    body = text[1:]  # the title names the seats as the file does
    assert not [line for line in body if TERMINAL_WORDS.search(line)]
    assert sum("pimc" in line for line in body) > 3 and sum("greedy" in line for line in body) > 3
    assert text[-1].startswith("Game over") and f"{['pimc', 'greedy'][winner(state)]} wins" in text[-1]
    # the page's log says what the text replay says (the page says a run of equal lines once)
    said = {re.sub(r"^ *\d+\. |^ {6}", "", line) for line in body}
    shown = [line for line in narrated(replay_page.frames_of_record(path)) if "(×" not in line]
    fallback = ("pimc: ", "greedy: ")  # the page's own line for a move the narration says nothing of
    assert [line for line in shown if line not in said and not line.startswith(fallback)] == ["The game begins."]


#: The verbs of the narration, in the second person: a named seat takes the third.
VERBS = ["cut", "discard", "play", "say", "peg", "deal", "keep", "exchange", "lay", "take", "announce",
         "pass", "lead", "score", "draw", "win", "are"]  # fmt: skip


def as_named(line: str) -> str:
    """A line of terminal play (you, the bot) as it reads with seat 0 called pimc and seat 1
    greedy: the reference the named narration is checked against."""
    third = {"pass": "passes", "are": "is"}
    line = re.sub(r"\b[Yy]our\b", "pimc's", line)
    line = line.replace("its crib", "greedy's crib").replace("the bot's", "greedy's")
    line = re.sub(r"\b[Yy]ou (%s)\b" % "|".join(VERBS), lambda m: "pimc " + third.get(m[1], m[1] + "s"), line)
    line = re.sub(r"\b[Yy]ou\b", "pimc", line)
    return re.sub(r"\b[Tt]he bot\b", "greedy", line)


@pytest.mark.parametrize(("make", "seed"), GAMES + [(lambda: piquet.Game("russian", scope="partiya"), 4)])
def test_third_person_grammar(make: Any, seed: int):
    """A named seat is spoken of in the third person (its verbs, its possessive, its crib by
    name), every line otherwise the same as terminal play's."""
    state = finished_game(make, seed)
    named = [Narrator(reveal=True, names=(Person("pimc"), Person("greedy"))), Narrator(reveal=True)]
    replay = state.get_game().new_initial_state()
    said: list[list[str]] = [[], []]
    for action in state.history():
        before = replay.clone()
        replay.apply_action(action)
        for k, narrator in enumerate(named):
            said[k] += narrator.lines(before, action, replay)
    assert len(said[0]) == len(said[1]) > 20
    assert [as_named(line) for line in said[1]] == said[0]


def test_a_play_record_keeps_you_and_the_bot(tmp_path: Path):
    """The log says ``you`` and ``the bot`` as terminal play did; the page's table names the bot."""
    state = finished_game(GAMES[0][0], 5)
    path = write(tmp_path / "p.jsonl", state, source="play", players=["you", "greedy"])
    lines = narrated(replay_page.frames_of_record(path))
    assert any(line.startswith("You ") for line in lines)
    assert any(line.startswith("The bot ") for line in lines) and not [x for x in lines if "(greedy)" in x]
    assert any("your crib" in line for line in lines) or any("its crib" in line for line in lines)
    assert page_names(replay_page.replay_html(path)) == ["you", "the bot (greedy)"]
    text = text_replay(path)
    assert any(" You " in line for line in text) and any(" The bot " in line for line in text)
    assert text[-1] == f"Game over: {'you win' if winner(state) == 0 else 'the bot wins'}, " \
                       f"{max(state.scores())} to {min(state.scores())}."


def test_equal_names_are_told_apart_and_no_names_are_seats(tmp_path: Path):
    state = finished_game(GAMES[2][0], 3)
    path = write(tmp_path / "same.jsonl", state, source="arena", players=["pimc", "pimc"])
    page = replay_page.replay_html(path)
    assert page_names(page) == ["pimc (seat 0)", "pimc (seat 1)"]
    lines = narrated(replay_page.frames_of_record(path))
    assert sum(line.startswith("pimc (seat 0) ") for line in lines) > 3
    assert sum(line.startswith("pimc (seat 1) ") for line in lines) > 3
    assert not [line for line in lines if re.search(r"pimc(?! \(seat [01]\))", line)]
    text = text_replay(path)
    assert any("pimc (seat 0) " in line for line in text) and any("pimc (seat 1) " in line for line in text)
    bare = write(tmp_path / "none.jsonl", state, source="api")
    assert page_names(replay_page.replay_html(bare)) == ["seat 0", "seat 1"]
    lines = narrated(replay_page.frames_of_record(bare))
    assert any(line.startswith("Seat 0 ") for line in lines) and any(line.startswith("Seat 1 ") for line in lines)
    assert not [line for line in lines if TERMINAL_WORDS.search(line)]


HOSTILE = ["<script>alert(1)</script>", "\x1b]0;pwned\x07\x1b[2J"]


def test_hostile_names_are_escaped(tmp_path: Path):
    state = finished_game(GAMES[0][0], 5)
    path = write(tmp_path / "h.jsonl", state, source="arena", players=HOSTILE)
    page = replay_page.replay_html(path)
    assert "<script>alert" not in page and "\x1b" not in page and "\x07" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page_names(page) == [HOSTILE[0], "\\x1b]0;pwned\\x07\\x1b[2J"]
    text = "\n".join(text_replay(path))
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in text and "<script>alert(1)</script> " in text
    for view in (None, 0, 1):
        assert not [line for line in narrated(replay_page.frames_of_record(path, seat=view)) if "\x1b" in line]


def test_terminal_play_naming_is_the_default():
    assert Narrator(reveal=False).names is YOU_AND_BOT
    you, bot = YOU_AND_BOT
    assert (you.possessive, you.own, you.verb("win", "wins")) == ("your", "your", "win")
    assert (bot.possessive, bot.own, bot.verb("win", "wins")) == ("the bot's", "its", "wins")
    assert Person("pimc").possessive == "pimc's" and Person("pimc").own == "pimc's"


@pytest.mark.parametrize(("make", "seed"), GAMES)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seats_view_of_named_players_hides_the_same(tmp_path: Path, make: Any, seed: int, seat: int):
    """A seat's view of an arena record says what the same game's ``play`` record says in that
    seat's view (whose hiding tests/test_replay_page.py checks), the seats renamed; its cards
    and table are the same."""
    state = finished_game(make, seed)
    arena = write(tmp_path / "a.jsonl", state, source="arena", players=["pimc", "greedy"])
    played = write(tmp_path / "p.jsonl", state, source="play", players=["you", "greedy"])
    named = replay_page.frames_of_record(arena, seat=seat)
    terminal = replay_page.frames_of_record(played, seat=seat)
    assert len(named) == len(terminal)
    for a, p in zip(named, terminal):
        assert a["lines"] == [as_named(line) for line in p["lines"]]
        assert (a["hands"], a["table"], a["scores"]) == (p["hands"], p["table"], p["scores"])
    full = narrated(replay_page.frames_of_record(arena))
    assert set(narrated(named)) != set(full)  # the seat's view leaves out what it has not seen
