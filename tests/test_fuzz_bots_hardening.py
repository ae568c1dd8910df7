"""Fixed-seed fuzz of issue 30's bots-side items (3, 4, 7): replay pages in a seat's view
(random games and hostile records), the solver's points at any play position of both rule sets
(the principal variation played out on the engine), and PIMC's first decision interrupted at
random moments in a fresh process. Each case asserts exact values, not only "no crash"; the
whole file runs in well under a minute on an idle two-core machine.

``CRIBPIQUET_FUZZ_EXAMPLES`` multiplies the cases (default 1)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_replay_page import _cards_in, record_game, seen_by_seat

import cribpiquet
from cribpiquet import bots, cribbage, piquet, replay_page

SCALE = max(1, int(os.environ.get("CRIBPIQUET_FUZZ_EXAMPLES", "1")))

GAMES = [
    ("cribbage", {"variant": "five-card"}),
    ("cribbage", {"variant": "six-card"}),
    ("piquet", {"rules": "russian", "scope": "deal"}),
    ("piquet", {"rules": "rubicon", "scope": "deal"}),
    ("piquet", {"rules": "russian", "scope": "partiya"}),
    ("piquet", {"rules": "rubicon", "scope": "partiya"}),
]


# ------------------------------------------------------------ item 3: what a seat may not see


@pytest.mark.parametrize("case", range(6 * SCALE))
def test_fuzz_seat_pages_name_only_seen_cards(tmp_path: Path, case: int):
    rng = random.Random(3000 + case)
    kind, options = GAMES[case % len(GAMES)]
    if options.get("scope") == "partiya":
        options = {**options, "scope": "deal"}  # a whole partiya replays for long; its deals are tested
    rec = tmp_path / "g.jsonl"
    states = record_game(rec, kind, options, rng.randrange(1 << 30))
    for seat in (0, 1):
        frames = replay_page.frames_of_record(str(rec), seat=seat)
        assert frames[-1]["moves"] == len(states) - 1  # a step per move, a deal's cards one step
        seen = seen_by_seat(states, seat, kind)
        for frame in frames:
            known = seen[frame["moves"]]
            if frame["title"] == "the show":  # the hands shown: both face up, as the seat saw them
                assert {c for h in frame["hands"] for c in h} <= known
            else:  # the other hand face down: its cards are not in the page
                assert all(c is None for c in frame["hands"][1 - seat])
            assert _cards_in(" ".join(frame["lines"]), kind) <= known, (seat, frame["step"], frame["lines"])
            assert {c for p in frame["table"] for c in p["cards"] if c is not None} <= known
        page = replay_page.replay_html(str(rec), seat=seat)
        assert page.startswith("<!DOCTYPE html>") and page.count("<option") == 1


@pytest.mark.parametrize("case", range(8 * SCALE))
def test_fuzz_hostile_records_are_value_errors_in_every_view(tmp_path: Path, case: int):
    """Cut, swapped, retyped or garbage lines: a ValueError naming the file's line, or a page."""
    rng = random.Random(3100 + case)
    kind, options = GAMES[case % 4]
    rec = tmp_path / "g.jsonl"
    record_game(rec, kind, options, case)
    lines = rec.read_text(encoding="utf-8").splitlines()
    body = lines[1:]
    how = case % 4
    if how == 0:
        body = body[: rng.randrange(len(body))]
    elif how == 1:
        i, j = rng.randrange(len(body)), rng.randrange(len(body))
        body[i], body[j] = body[j], body[i]
    elif how == 2:
        row = json.loads(body[rng.randrange(len(body))])
        row["action"] = rng.choice([-1, 10**30, "5", None, 3.5, [1], True])
        body[rng.randrange(len(body))] = json.dumps(row)
    else:
        body.insert(rng.randrange(len(body)), rng.choice(["{", "[]", "null", '{"action": 0, "text": "\\u0000"}']))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], *body]) + "\n", encoding="utf-8")
    for seat in (None, 0, 1):
        try:
            page = replay_page.replay_html(str(bad), seat=seat)
        except ValueError as e:
            assert "line" in str(e) or "record" in str(e), str(e)
            assert len(str(e)) < 300
        else:
            assert page.startswith("<!DOCTYPE html>")


# ------------------------------------------- item 4: the solver's points = the line played out


def all_points(state: Any) -> list[int]:
    by_source = state.points_by_source()
    return [sum(by_source[k][p] for k in by_source) for p in (0, 1)]


@pytest.mark.parametrize("case", range(4 * SCALE))
def test_fuzz_piquet_points_are_the_principal_variation_played_out(case: int):
    rng = random.Random(4000 + case)
    rules = ("russian", "rubicon")[case % 2]
    scope = ("deal", "partiya")[case // 2 % 2]
    game = piquet.Game(rules, scope=scope)
    checked = 0
    s = game.new_initial_state()
    while checked < 12:
        if s.is_terminal():
            s = game.new_initial_state()
        if s.phase == "play" and s.current_player() >= 0 and rng.random() < 0.35:
            me = s.current_player()
            sol = cribpiquet.solve(s)
            end = s.clone()
            for a in sol.principal_variation:
                end.apply_action(a)
            before, after = all_points(s), all_points(end)
            assert sol.value == (after[me] - before[me]) - (after[1 - me] - before[1 - me]), s.serialize()
            assert sol.value == max(sol.action_values.values())
            win = cribpiquet.solve(s, objective="win")
            assert win.principal_variation == sol.principal_variation
            assert win.value in (0.0, 0.5, 1.0) or scope == "partiya"
            checked += 1
        elif s.phase != "play":
            with pytest.raises(ValueError, match="phase"):
                cribpiquet.solve(s)
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))


# ------------------------------------------- item 7: PIMC's first decision, interrupted anywhere

CHILD = r"""
import _thread, json, sys, threading, time
from cribpiquet import bots, cribbage
s = cribbage.Game(sys.argv[1]).new_initial_state()
k = int(sys.argv[2])
while s.phase != "play" or s.is_chance_node():
    legal = s.legal_actions()
    s.apply_action(legal[k % len(legal)])
    k += 7
out = {"latencies": []}
for delay in map(float, sys.argv[3:]):
    fired = []
    timer = threading.Timer(delay, lambda: (fired.append(time.monotonic()), _thread.interrupt_main()))
    timer.start()
    try:
        bots.PIMC(seed=1, worlds=20).step(s)
        timer.cancel()
        out["latencies"].append(None)  # the tables were done before the interrupt
    except KeyboardInterrupt:
        out["latencies"].append(time.monotonic() - fired[0])
values = bots.PIMC(seed=1, worlds=20).action_values(s)
out["values"] = {str(a): v.hex() for a, v in values.items()}
out["state"] = s.serialize()
print(json.dumps(out))
"""


def test_fuzz_pimc_first_decision_interrupted_at_random_moments():
    """One fresh process: the first six-card decision interrupted at several random moments in
    turn (each attempt starts the tables again), then decided in full: every interrupt heard
    within the bound, the values those of an uninterrupted process to the bit."""
    rng = random.Random(7000)
    delays = sorted(round(rng.uniform(0.02, 0.6), 3) for _ in range(3 * SCALE))
    env = dict(os.environ, CRIBPIQUET_CACHE_DIR="off")  # no cache: the process computes the tables
    r = subprocess.run([sys.executable, "-c", CHILD, "six-card", "3", *map(str, delays)],
                       capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    heard = [x for x in out["latencies"] if x is not None]
    assert heard, "no interrupt landed inside the tables"
    assert max(heard) < 1.5  # the 0.5 s promise, with room for a loaded two-core machine
    s = cribbage.Game("six-card").deserialize_state(out["state"])
    want = {str(a): v.hex() for a, v in bots.PIMC(seed=1, worlds=20).action_values(s).items()}
    assert out["values"] == want


@pytest.mark.parametrize("case", range(6 * SCALE))
def test_fuzz_pimc_decides_random_cribbage_states_reproducibly(case: int):
    """Random two-player states with the opponent's discard seen (the inference weighs the
    worlds): a legal action, the values of every legal action, the same for a seed whatever the
    threads."""
    rng = random.Random(7100 + case)
    variant = ("five-card", "six-card")[case % 2]
    s = cribbage.Game(variant).new_initial_state()
    stop = rng.randrange(2, 9)
    while True:
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        elif s.phase == "play" and (stop == 0 or len(s.legal_actions()) == 1 and stop < 3):
            break
        else:
            if s.phase == "play":
                stop -= 1
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            s = cribbage.Game(variant).new_initial_state()
    one = bots.PIMC(seed=case, worlds=8)
    two = bots.PIMC(seed=case, worlds=8, threads=2)
    values = one.action_values(s)
    assert sorted(values) == sorted(s.legal_actions())
    assert all(0.0 <= v <= 1.0 for v in values.values())
    assert two.action_values(s) == values
    action = bots.PIMC(seed=case, worlds=8).step(s)
    assert action in s.legal_actions() and values[action] == max(values.values())
