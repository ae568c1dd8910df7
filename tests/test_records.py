"""Game records (:mod:`cribpiquet.records`): written from a loop of one's own, from ``simulate``
and from the arena, read back state by state, on every cribbage variant and piquet rule set and
scope; ``cribpiquet replay`` (text and ``--html``) reads all of them, and the version-0 records of
``play --record`` still read."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cribpiquet import arena, cribbage, piquet, play, records, replay_page

CUSTOM_RULES = piquet.Rules("russian").replace(capot_bonus=30, last_trick_extra=2)

GAMES = [
    *(pytest.param(cribbage.Game(v), id=f"cribbage-{v}") for v in ("five-card", "six-card", "three-player", "four-player")),
    pytest.param(cribbage.Game("six-card", lurch=True, target=61, first_dealer=1), id="cribbage-options"),
    *(pytest.param(piquet.Game(r, scope=s), id=f"piquet-{r}-{s}") for r in ("russian", "rubicon") for s in ("deal", "partiya")),
    pytest.param(piquet.Game(CUSTOM_RULES, scope="deal", first_dealer=0), id="piquet-custom-rules"),
]


def random_game(game: Any, seed: int) -> list[Any]:
    """A game played by a loop of one's own (random moves, chance too): every state, start first."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def same_state(a: Any, b: Any) -> bool:
    return a == b and a.serialize() == b.serialize() and a.history() == b.history()


@pytest.mark.parametrize("game", GAMES)
def test_a_loops_record_replays_every_state(tmp_path: Path, game: Any):
    path = str(tmp_path / "loop.jsonl")
    runs = [random_game(game, seed) for seed in (1, 2)]
    assert records.write_records(path, [states[-1] for states in runs], source="test-loop", seed=7) == 2
    got = records.read_records(path)
    assert len(got) == 2
    for rec, states in zip(got, runs):
        assert rec.game == game and rec.source == "test-loop" and rec.seed == 7
        assert rec.actions == tuple(states[-1].history())
        replayed = list(rec.states())
        assert len(replayed) == len(states)
        assert all(same_state(a, b) for a, b in zip(replayed, states))
    # the lines: the header, then each action's seat (-1 for chance), id and text
    lines = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]
    assert lines[0] == {"cribpiquet": "record", "version": 1, "game": records.game_options(game)[0],
                        "options": records.game_options(game)[1], "source": "test-loop", "seed": 7}  # fmt: skip
    states = runs[0]
    assert lines[1 : len(states)] == [{"seat": -1 if s.is_chance_node() else s.current_player(), "action": a,
                                       "text": s.action_to_string(a)} for s, a in zip(states, states[-1].history())]  # fmt: skip
    # a game taken part way is a record too, and so is a Record made by hand
    part = runs[0][len(runs[0]) // 2]
    rec = records.record_of(part, players=["a"] * game.num_players(), note="half")
    records.write_records(path, [rec])
    [back] = records.read_records(path)
    assert same_state(back.final_state(), part)
    assert back.players == ("a",) * game.num_players() and back.extra == {"note": "half"}


@pytest.mark.parametrize("game", GAMES)
def test_simulate_records_the_games_it_counts(tmp_path: Path, game: Any):
    path = tmp_path / "sim.jsonl"
    module = cribbage if isinstance(game, cribbage.Game) else piquet
    players = ["random", "first"] if game.num_players() == 2 else "random"
    plain = module.simulate(game, 30, seed=4, first_game=10, players=players)
    res = module.simulate(game, 30, seed=4, first_game=10, players=players, record=path, max_records=12)
    assert sorted(res) == sorted(plain) and all(np.array_equal(res[k], plain[k]) for k in res)
    got = records.read_records(str(path))
    assert [r.index for r in got] == list(range(10, 22))
    for k, rec in enumerate(got):
        assert rec.source == "simulate" and rec.seed == 4 and rec.game == game
        assert rec.players == tuple(players) if game.num_players() == 2 else rec.players == ("random",) * game.num_players()
        end = rec.final_state()
        assert end.is_terminal() and len(rec.actions) == res["actions"][k]
        assert end.side_scores() == list(res["scores"][k])
        assert end.returns() == list(res["returns"][k])
        assert end.deals == res["deals"][k]
        for source, per_side in end.points_by_source().items():
            assert per_side == list(res[source][k])


@pytest.mark.parametrize("game", [g for g in GAMES if g.values[0].num_players() == 2])  # type: ignore[union-attr]
def test_arena_records_its_games_with_the_seats_rotated(tmp_path: Path, game: Any):
    path = tmp_path / "arena.jsonl"
    duel = arena(game, ["first", "random"], 7, seed=3, first_game=2, progress=False, record=str(path))
    got = records.read_records(str(path))
    assert [r.index for r in got] == list(range(2, 9))
    wins = [0, 0]
    for rec in got:
        assert rec.source == "arena" and rec.seed == 3
        # player k sits at seat (k + i) mod 2
        assert rec.index is not None
        assert rec.players == (("first", "random") if rec.index % 2 == 0 else ("random", "first"))
        end = rec.final_state()
        assert end.is_terminal()
        if end.winner is not None:
            wins[["first", "random"].index(rec.players[end.winner])] += 1
    assert tuple(wins) == duel.wins
    # max_records keeps the first games only; the result is the same
    again = arena(game, ["first", "random"], 7, seed=3, first_game=2, progress=False, record=str(path), max_records=3)
    assert again.wins == duel.wins
    assert [r.index for r in records.read_records(str(path))] == [2, 3, 4]


def test_simulate_and_arena_check_their_record_arguments(tmp_path: Path):
    g = cribbage.Game("five-card")
    with pytest.raises(TypeError, match="record must be a str or a path"):
        cribbage.simulate(g, 2, record=3)
    with pytest.raises(ValueError, match="cannot write the record"):
        cribbage.simulate(g, 2, record=str(tmp_path / "no" / "dir.jsonl"))
    with pytest.raises(ValueError, match="max_records must be at least 0"):
        piquet.simulate(piquet.Game(), 2, record=str(tmp_path / "x.jsonl"), max_records=-1)
    with pytest.raises(TypeError, match="max_records must be an int"):
        arena(g, ["first", "random"], 2, progress=False, record=str(tmp_path / "x.jsonl"), max_records=1.5)  # type: ignore[arg-type]
    # more records asked for than games played: every game, and memory for those only
    cribbage.simulate(g, 3, record=str(tmp_path / "x.jsonl"), max_records=2**62)
    assert len(records.read_records(str(tmp_path / "x.jsonl"))) == 3


def legacy_record(path: Path, seed: int = 5) -> Any:
    """A record as ``play --record`` wrote it before records had a version (version 0)."""
    states = random_game(cribbage.Game("five-card"), seed)
    end = states[-1]
    rows = [{"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"}, "seed": seed,
             "bot": "greedy", "you": 0}]  # fmt: skip
    s = cribbage.Game("five-card").new_initial_state()
    for a in end.history():
        seat = -1 if s.is_chance_node() else s.current_player()
        rows.append({"seat": seat, "who": play.WHO[seat], "action": a, "text": s.action_to_string(a)})
        s.apply_action(a)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return end


def test_version_0_play_records_still_read(tmp_path: Path):
    path = tmp_path / "old.jsonl"
    end = legacy_record(path)
    [rec] = records.read_records(str(path))
    assert rec.source == "play" and rec.players == ("you", "greedy") and rec.seed == 5
    assert same_state(rec.final_state(), end)
    out = io.StringIO()
    assert play.replay(str(path), out) == end
    assert out.getvalue().startswith("cribbage (variant five-card), seed 5, you against the bot 'greedy'\n")


def test_bad_files_name_the_line(tmp_path: Path):
    path = tmp_path / "r.jsonl"
    good = records.Record(cribbage.Game("five-card"), ()).header()
    path.write_text(json.dumps({**good, "version": 2}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: record version 2 is newer than this cribpiquet reads"):
        records.read_records(str(path))
    path.write_text('{"seat": -1, "action": 3}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a cribpiquet game record"):
        records.read_records(str(path))
    path.write_text(json.dumps({**good, "game": "chess"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: unknown game 'chess'"):
        records.read_records(str(path))
    # a seat that is not to move, an action that is not legal: the line is named on replay
    path.write_text(json.dumps(good) + '\n\n{"seat": 0, "action": 3}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 3: seat 0 is not to move \(seat -1 is\)"):
        records.read_records(str(path))[0].final_state()
    path.write_text(json.dumps(good) + '\n{"action": 60}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="line 2: action 60 is not legal here"):
        list(records.read_records(str(path))[0].states())
    with pytest.raises(ValueError, match="cannot record action 1"):
        records.write_records(str(path), [records.Record(cribbage.Game("five-card"), (60,))])
    with pytest.raises(TypeError, match="record_of needs a cribbage or piquet State"):
        records.record_of("state")  # type: ignore[arg-type]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cribpiquet", *args], capture_output=True, text=True, timeout=120,
                          encoding="utf-8")  # fmt: skip


def test_cli_replays_records_of_every_source(tmp_path: Path):
    five = cribbage.Game("five-card")
    sim, duel, loop, four = (str(tmp_path / f"{n}.jsonl") for n in ("sim", "duel", "loop", "four"))
    cribbage.simulate(five, 5, seed=2, record=sim)
    arena(piquet.Game("rubicon", scope="deal"), ["first", "random"], 3, seed=1, progress=False, record=duel)
    records.write_records(loop, [random_game(piquet.Game(scope="partiya"), 3)[-1]])
    records.write_records(four, [random_game(cribbage.Game("four-player"), 3)[-1]])
    r = run_cli("replay", sim, "--game", "3")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Game 3 of 5 in the file (--game N for another)."
    assert lines[1] == "cribbage (variant five-card), seed 2, game 2 of its run, seat 0 random, seat 1 random (simulate)"
    assert lines[-1].startswith("Game over:")
    r = run_cli("replay", duel, "--game", "2")
    assert r.returncode == 0 and "seat 0 random, seat 1 first (arena)" in r.stdout, r.stderr
    r = run_cli("replay", loop)
    assert r.returncode == 0 and "Declarations:" in r.stdout and r.stdout.splitlines()[-1].startswith("Game over:")
    r = run_cli("replay", four)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].startswith("Game over: side ") and "Seat 3: " in r.stdout
    r = run_cli("replay", sim, "--game", "6")
    assert r.returncode == 2 and "holds 5 games: choose --game 1 to 5, not 6" in r.stderr
    for path, game in ((sim, "4"), (duel, "3"), (loop, "1")):
        out = str(tmp_path / "page.html")
        r = run_cli("replay", path, "--game", game, "--html", out)
        assert r.returncode == 0, r.stderr
        assert Path(out).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    r = run_cli("replay", four, "--html", str(tmp_path / "p.html"))
    assert r.returncode == 2 and "the replay page shows two-player games" in r.stderr


def test_page_frames_follow_the_records_states(tmp_path: Path):
    path = str(tmp_path / "sim.jsonl")
    piquet.simulate(piquet.Game("russian", scope="deal"), 3, seed=5, record=path)
    for k, rec in enumerate(records.read_records(path), 1):
        frames = replay_page.frames_of_record(path, game=k)
        states = list(rec.states())
        assert frames[-1]["moves"] == len(states) - 1  # a step per move, a deal's cards one step
        assert [f["scores"]["total"] for f in frames] == [list(states[f["moves"]].scores()) for f in frames]


def test_ctrl_c_stops_a_recording_run_and_writes_nothing(tmp_path: Path):
    """Within 0.5 s as without a record (the bound, as tests/test_harden_bots.py's, leaves room for
    a loaded two-core machine)."""
    from ctrl_c import interrupted_after

    path = tmp_path / "big.jsonl"
    game = cribbage.Game("six-card")
    run = lambda: cribbage.simulate(game, 10**8, seed=1, record=str(path), max_records=10**8)  # noqa: E731
    assert interrupted_after(run, delay=0.3) < 1.5
    assert not path.exists()
    duel = lambda: arena(game, ["ismcts:300000"] * 2, 100, progress=False, threads=1, record=str(path))  # noqa: E731
    assert interrupted_after(duel, delay=0.3) < 1.5
    assert not path.exists()
