"""``cribpiquet replay FILE --html OUT``: a recorded game as one self-contained page, checked as
data, as HTML, and stepped through in a real browser (headless Chromium driven by Playwright with
the system browser) against the engine's scores at every step."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cribpiquet import bots, cribbage, piquet, play, replay_page

GAMES = [
    ("cribbage", {"variant": "five-card"}, 3),
    ("cribbage", {"variant": "six-card"}, 5),
    ("piquet", {"rules": "russian", "scope": "deal"}, 3),
    ("piquet", {"rules": "rubicon", "scope": "deal"}, 8),
]


def record_game(path: Path, kind: str, options: dict[str, Any], seed: int) -> list[Any]:
    """Play a whole bot-against-bot game and write it in ``cribpiquet play --record``'s format;
    returns the engine's states, the start first."""
    state = play.make_game(kind, options).new_initial_state()
    rng = random.Random(seed)
    players = [bots.Random(seed=seed), bots.First()]
    rows: list[dict[str, Any]] = [{"cribpiquet": "play", "game": kind, "options": options, "seed": seed,
                                   "bot": "first", "you": 0}]  # fmt: skip
    states = [state.clone()]
    while not state.is_terminal():
        seat = state.current_player()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
        else:
            action = players[seat].step(state)
        rows.append({"seat": seat, "who": play.WHO.get(seat, "chance"), "action": action,
                     "text": state.action_to_string(action)})  # fmt: skip
        state.apply_action(action)
        states.append(state.clone())
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return states


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.srcs: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        for key in ("src", "href"):
            if a.get(key):
                self.srcs.append(str(a[key]))


def before_show(frames: list[dict[str, Any]], k: int) -> bool:
    """Is frame ``k`` the last card of a cribbage deal's play, whose show is the next frame?"""
    return k + 1 < len(frames) and frames[k + 1]["title"] == "the show"


def engine_scores(states: list[Any], frames: list[dict[str, Any]], k: int) -> list[int]:
    """The scores frame ``k`` must show, from the engine: its state's, except on the last card
    before a show, where the engine's state already holds the show: less its hand and crib points."""
    m = frames[k]["moves"]
    scores = list(states[m].scores())
    if before_show(frames, k):
        was, now = states[m - 1].points_by_source(), states[m].points_by_source()
        scores = [t - (now["hand"][p] + now["crib"][p] - was["hand"][p] - was["crib"][p]) for p, t in enumerate(scores)]
    return scores


@pytest.mark.parametrize(("kind", "options", "seed"), GAMES)
def test_frames_follow_the_engine(tmp_path: Path, kind: str, options: dict[str, Any], seed: int):
    rec = tmp_path / "g.jsonl"
    states = record_game(rec, kind, options, seed)
    frames = replay_page.frames_of_record(str(rec))
    assert [f["step"] for f in frames] == list(range(len(frames)))
    moves = [f["moves"] for f in frames]
    assert moves[0] == 0 and moves[-1] == len(states) - 1 and moves == sorted(moves)
    for k, frame in enumerate(frames):
        state = states[frame["moves"]]
        assert frame["scores"]["total"] == engine_scores(states, frames, k)
        assert frame["hands"][0] == sorted(frame["hands"][0], key=lambda c: (c % (8 if kind == "piquet" else 13), c))
        if frame["title"] == "the show":
            before = states[frame["moves"] - 1]
            assert [sorted(h) for h in frame["hands"]] == [sorted(before.kept(p)) for p in (0, 1)]
            labels = {p["label"]: sorted(p["cards"]) for p in frame["table"]}
            assert labels == {"starter": [before.starter], "crib": sorted(before.crib())}
            assert sum(line.startswith("Show, ") for line in frame["lines"]) >= 1
        elif before_show(frames, k):  # the table as the last card left it
            before, action = states[frame["moves"] - 1], states[frame["moves"]].history()[-1]
            for p in (0, 1):
                assert sorted(frame["hands"][p]) == sorted(set(before.hand(p)) - {action})
            assert not any(line.startswith("Show, ") for line in frame["lines"])
        else:
            assert sorted(frame["hands"][1]) == sorted(state.hand(1))
            view = state.view()
            assert frame["table"] == [{"label": p["label"], "cards": [int(c) for c in p["cards"]]} for p in view["table"]]
            assert frame["roles"] == [s["role"] for s in view["seats"]]
        assert frame["final"] == (state.is_terminal() and not before_show(frames, k))
    assert frames[-1]["final"] and frames[0]["step"] == 0
    json.dumps(frames)  # plain data
    # every score change has its reason in the narration
    changed = [f for f, g in zip(frames[1:], frames) if f["scores"]["total"] != g["scores"]["total"]]
    assert changed and all(f["lines"] for f in changed)
    # a deal, and a draw from the talon, is one step named in words (every card of it applied)
    for frame in frames:
        if frame["title"].startswith(("the deal", "the talon")):
            after = states[frame["moves"]]
            assert not (after.is_chance_node() and after.phase in ("deal", "draw"))
            n = int(frame["title"].split("(")[1].split()[0])
            assert all(states[m].is_chance_node() for m in range(frame["moves"] - n, frame["moves"]))
    deals = sum(1 for s, t in zip(states, states[1:]) if s.phase == "deal" and t.phase != "deal")
    assert sum(f["title"].startswith("the deal") for f in frames) == deals
    assert len(frames) < len(states) - 8  # the deals' cards are not a step each
    if kind == "cribbage":  # every deal played to the end has its show
        ends = sum(1 for s, t in zip(states, states[1:]) if s.phase == "play" and t.phase != "play")
        assert sum(f["title"] == "the show" for f in frames) == ends
    # the last step says who won and by how much
    last = frames[-1]["lines"][-1]
    assert last.startswith("Game over: ") and ("win" in last or "drawn" in last)
    final = states[-1]
    if kind == "cribbage":
        assert f"{max(final.scores())} to {min(final.scores())}" in last


@pytest.mark.parametrize(("kind", "options", "seed"), GAMES[::2])
def test_page_is_self_contained_html(tmp_path: Path, kind: str, options: dict[str, Any], seed: int):
    rec = tmp_path / "g.jsonl"
    record_game(rec, kind, options, seed)
    page = replay_page.replay_html(str(rec), seat=1)
    parser = _Page()
    parser.feed(page)
    assert {"start", "back", "next", "end", "view", "scores", "log", "hand0", "hand1", "mid"} <= parser.ids
    assert parser.srcs == []  # no script, image or style loaded from anywhere
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace, not a fetch
    assert "https://" not in page
    assert '<option value="1" selected>' in page


def test_bad_record_and_arguments(tmp_path: Path):
    rec = tmp_path / "g.jsonl"
    record_game(rec, "cribbage", {"variant": "five-card"}, 1)
    lines = rec.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:3] + ['{"seat": 0, "action": 5000}']) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 4: action 5000 is not legal"):
        replay_page.replay_html(str(bad))
    with pytest.raises(ValueError, match="seat must be a seat 0..1 or None, got 2"):
        replay_page.replay_html(str(rec), seat=2)
    with pytest.raises(ValueError, match="cannot write"):
        replay_page.write_replay_html(str(rec), str(tmp_path / "no" / "dir" / "x.html"))


def test_cli_writes_the_page(tmp_path: Path):
    rec = tmp_path / "g.jsonl"
    record_game(rec, "piquet", {"rules": "russian", "scope": "deal"}, 2)
    out = tmp_path / "g.html"
    r = subprocess.run([sys.executable, "-m", "cribpiquet", "replay", str(rec), "--html", str(out)],
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert str(out) in r.stdout


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no chromium on PATH (.ci/run installs Debian's chromium)")


@pytest.mark.parametrize(("kind", "options", "seed"), [GAMES[0], GAMES[2]])
def test_browser_steps_through_the_game(tmp_path: Path, kind: str, options: dict[str, Any], seed: int):
    sync_api = pytest.importorskip("playwright.sync_api")
    rec = tmp_path / "g.jsonl"
    states = record_game(rec, kind, options, seed)
    frames = replay_page.frames_of_record(str(rec))
    out = tmp_path / "g.html"
    replay_page.write_replay_html(str(rec), str(out))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(out.as_uri())
            scores = page.locator("#scores")
            for k, frame in enumerate(frames):
                assert page.locator("#step").inner_text() == f"step {k} of {len(frames) - 1}"
                want = engine_scores(states, frames, k)
                assert (scores.get_attribute("data-s0"), scores.get_attribute("data-s1")) == (str(want[0]), str(want[1]))
                if kind == "piquet":
                    d = states[frame["moves"]].deal_scores()
                    assert scores.get_attribute("data-d0") == str(d[0])
                if frame["title"] == "the show":  # the crib drawn face up beside the starter
                    assert page.locator("#mid svg.cp-card").count() == 1 + len(states[frame["moves"] - 1].crib())
                if k < len(frames) - 1:
                    (page.keyboard.press("ArrowRight") if k % 2 else page.click("#next"))
            assert frames[-1]["lines"][-1] in page.locator("#log").inner_text()  # who won, by how much
            # the hand shown is the engine's, face up; in seat 1's view seat 0's cards are backs
            page.keyboard.press("Home")
            first_cards = len(states[0].hand(0))
            assert page.locator("#hand0 svg.cp-card").count() == first_cards
            page.click("#end")
            page.click("#back")
            assert page.locator("#step").inner_text() == f"step {len(frames) - 2} of {len(frames) - 1}"
            page.select_option("#view", "1")
            page.keyboard.press("Home")
            for _ in range(len(frames) // 3):
                page.keyboard.press("ArrowRight")
            held0 = page.locator("#hand0 svg").count()
            assert page.locator("#hand0 svg.cp-back").count() == held0
            assert page.locator("#hand1 svg.cp-back").count() == 0
        finally:
            browser.close()


# ------------------------------------------------- issue 30, item 3: a seat sees only its own

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQKT])([♣♦♥♠CDHS])(?![0-9A-Za-z])")


def _cards_in(text: str, kind: str) -> set[int]:
    """The cards a text names (``10♥`` or ``TH``)."""
    card = piquet.Card if kind == "piquet" else cribbage.Card
    return {int(card(m.group(0))) for m in _CARD_TOKEN.finditer(text)}


def seen_by_seat(states: list[Any], seat: int, kind: str) -> list[set[int]]:
    """What `seat` has seen up to each state: every card its information state has shown so far
    (its hands, discards and talon cards, the cut, the starter, the cards played), and in
    cribbage the hands and crib shown at the end of each deal's play."""
    seen: set[int] = set()
    out = []
    for k, state in enumerate(states):
        info = state.information_state_string(seat)
        # the header line names the game and rules, not cards
        seen |= _cards_in(info.split("\n", 1)[1] if "\n" in info else "", kind)
        if k and states[k - 1].phase == "play" and states[k - 1].current_player() >= 0:
            action = state.history()[-1] if state.history() else None
            if action is not None and action < (32 if kind == "piquet" else 52):
                seen.add(action)  # a card played is seen by both (the deal may be over after it)
        if kind == "cribbage" and k and states[k - 1].phase == "play" and state.phase != "play":
            before = states[k - 1]
            for p in (0, 1):
                seen |= {int(c) for c in before.kept(p)}
            seen |= {int(c) for c in before.crib()}
        out.append(set(seen))
    return out


@pytest.mark.parametrize(("kind", "options", "seed"), GAMES + [("piquet", {"rules": "russian", "scope": "partiya"}, 4)])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seats_page_shows_only_what_the_seat_has_seen(tmp_path: Path, kind: str, options: dict[str, Any], seed: int, seat: int):
    rec = tmp_path / "g.jsonl"
    states = record_game(rec, kind, options, seed)
    frames = replay_page.frames_of_record(str(rec), seat=seat)
    seen = seen_by_seat(states, seat, kind)
    everything = replay_page.frames_of_record(str(rec))
    hidden_named = 0
    assert [f["moves"] for f in frames] == [f["moves"] for f in everything]
    for k, (frame, full) in enumerate(zip(frames, everything)):
        state, known = states[frame["moves"]], seen[frame["moves"]]
        # the seat's own hand face up, the other as its size only (the show: both, face up)
        assert frame["hands"][seat] == full["hands"][seat]
        if frame["title"] == "the show":
            assert frame["hands"] == full["hands"] and set(frame["hands"][1 - seat]) <= known
        elif before_show(frames, k):
            assert frame["hands"][1 - seat] == [None] * len(full["hands"][1 - seat])
        else:
            assert frame["hands"][1 - seat] == [None] * len(state.hand(1 - seat))
        named = _cards_in(" ".join(frame["lines"]), kind)
        assert named <= known, (frame["step"], frame["lines"], named - known)
        # the cards on the table: the starter, the count, the trick, the crib (face down: None)
        table = [c for pile in frame["table"] for c in pile["cards"]]
        assert {c for c in table if c is not None} <= known, frame["step"]
        hidden_named += len(_cards_in(" ".join(full["lines"]), kind) - known)
    assert hidden_named > 0  # the full replay names cards this seat has not seen: they were hidden
    page = replay_page.replay_html(str(rec), seat=seat)
    assert f"seed {seed}" not in page.split("<script>")[0]
    assert page.count("<option") == 1 and f'<option value="{seat}" selected>' in page
    # the page's data is the seat's frames
    data = json.loads(page.split("const FRAMES = ", 1)[1].split(";\nconst CARDS", 1)[0].replace("<\\/", "</"))
    assert data == json.loads(json.dumps(frames))


def test_live_play_narration_is_unchanged_by_the_seat_view(tmp_path: Path):
    """The narrator without a seat (live play) still names the bot's declarations and keeps quiet
    about the deal and its hidden moves, as before."""
    rec = tmp_path / "g.jsonl"
    states = record_game(rec, "piquet", {"rules": "rubicon", "scope": "deal"}, 8)
    live = play.Narrator(reveal=False)
    seat0 = play.Narrator(reveal=False, seat=0)
    for before, after in zip(states, states[1:]):
        action = after.history()[-1]
        a, b = live.lines(before, action, after), seat0.lines(before, action, after)
        if before.phase in ("deal", "discard", "draw"):
            assert set(a) <= set(b)
        elif after.declarations() is not None and before.declarations() is None:
            head = a.index("Declarations:") + 1
            assert a[:head] == b[:head] and a[-1] == b[-1]  # the move, then the totals declared
        else:
            assert a == b
