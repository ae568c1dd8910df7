"""cribpiquet.arena and ArenaResult: the interval and Elo arithmetic against hand-checked cases,
seat rotation against simulate, split ranges combining to one run, determinism, errors, the CLI."""

from __future__ import annotations

import dataclasses

import doctest
import math

import numpy as np
import pytest

import cribpiquet
from cribpiquet import ArenaResult, _arena, _util, arena, bots, cli, cribbage, piquet
from cribpiquet._arena import wilson

FIVE = cribbage.Game("five-card")


def result(wins, draws, games, points=(("pegging", (10, 20)),), deals=20, seconds=2.0):
    return ArenaResult(game="cribbage", players=("a", "b"), games=games, wins=wins, draws=draws, deals=deals,
                       points=points, seconds=seconds)


def test_wilson_hand_checked():
    # 8 of 10: z²/n = 0.384146, centre (0.8 + 0.192073) / 1.384146 = 0.716740,
    # margin 1.959964 · sqrt(0.016 + 0.009604) / 1.384146 = 0.226578.
    lo, hi = wilson(0.8, 10)
    assert lo == pytest.approx(0.490162, abs=1e-6) and hi == pytest.approx(0.943318, abs=1e-6)
    assert wilson(0.5, 100) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    assert wilson(0.4, 0) == (0.0, 1.0)
    assert wilson(1.0, 5)[1] == 1.0 and wilson(0.0, 5)[0] == 0.0


def test_result_arithmetic_hand_checked():
    # 7 wins, 2 losses, 1 draw: scores 7.5 and 2.5 of 10.
    r = result((7, 2), 1, 10)
    assert r.scores == (7.5, 2.5)
    assert r.win_rate == (0.75, 0.25)
    # Wilson at 0.75 of 10: centre (0.75 + 0.192073)/1.384146, margin 1.959964·sqrt(0.01875 + 0.009604)/1.384146.
    assert r.ci95[0] == pytest.approx((0.442181, 0.919052), abs=1e-6)
    assert r.ci95[1] == pytest.approx((0.080948, 0.557819), abs=1e-6)
    assert r.elo == pytest.approx(400 * math.log10(3))  # 190.8: 3:1 odds
    assert r.points_by_source == {"pegging": (0.5, 1.0)}
    assert r.games_per_second == 5.0
    # A whitewash stays finite: the loser's score counts as half a game.
    assert result((10, 0), 0, 10).elo == pytest.approx(400 * math.log10(20))
    assert result((0, 0), 0, 0).elo == 0.0 and result((0, 0), 0, 0).win_rate == (0.0, 0.0)
    with pytest.raises(AttributeError):
        r.games = 3  # type: ignore[misc]


def test_combine_is_the_sum_and_refuses_other_matches():
    a, b = result((7, 2), 1, 10), result((1, 4), 0, 5, points=(("pegging", (1, 2)),), deals=10, seconds=1.0)
    c = ArenaResult.combine([a, b])
    assert (c.games, c.wins, c.draws, c.deals, c.seconds) == (15, (8, 6), 1, 30, 3.0)
    assert c.points == (("pegging", (11, 22)),)
    assert c.win_rate == (8.5 / 15, 6.5 / 15)
    other = ArenaResult(game="piquet", players=("a", "b"), games=1, wins=(1, 0), draws=0, deals=1, points=(), seconds=1.0)
    with pytest.raises(ValueError, match="cannot combine results of different games: cribbage and piquet"):
        ArenaResult.combine([a, other])
    with pytest.raises(ValueError, match=r"cannot combine results of different matches: cribbage \('a', 'b'\)"):
        ArenaResult.combine([a, dataclasses.replace(b, players=("b", "a"))])
    with pytest.raises(ValueError, match="at least one"):
        ArenaResult.combine([])
    with pytest.raises(TypeError, match="ArenaResult values"):
        ArenaResult.combine([a, 3])  # type: ignore[list-item]


@pytest.mark.parametrize("one,other,words", [
    # issue 19 item 5: each pair differs in one setting, which the message names
    (cribbage.Game("six-card"), cribbage.Game("five-card"), "'six-card' target=121 against 'five-card' target=61"),
    (cribbage.Game("five-card", target=31), cribbage.Game("five-card"), "target=31 against target=61"),
    (cribbage.Game("six-card", lurch=True), cribbage.Game("six-card"), "lurch=True against (not set)"),
    (piquet.Game("russian", scope="deal"), piquet.Game("russian", scope="partiya"), "scope='deal' against scope='partiya'"),
    (piquet.Game("rubicon", scope="deal"), piquet.Game("russian", scope="deal"), "Rules.rubicon() against Rules.russian()"),
])
def test_combine_refuses_results_of_different_games(one, other, words):
    a = arena(one, ["first", "random"], 2, seed=1, progress=False)
    b = arena(other, ["first", "random"], 2, seed=1, first_game=2, progress=False)
    assert a.setup == repr(one) and b.setup == repr(other)
    with pytest.raises(ValueError) as e:
        ArenaResult.combine([a, b])
    assert str(e.value).startswith(f"cannot combine results of different games: {words} (")
    assert len(str(e.value)) < 240
    # the same game merges, and keeps its description
    same = ArenaResult.combine([a, arena(one, ["first", "random"], 3, seed=1, first_game=2, progress=False)])
    assert same.games == 5 and same.setup == repr(one)


def test_distributed_arena_still_merges_equal_games():
    dd = pytest.importorskip("distributed")
    from cribpiquet import distributed

    game = cribbage.Game("five-card")
    with dd.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        r = distributed.arena(game, ["first", "random"], 12, seed=4, chunk_games=5, client=client)
    local = arena(game, ["first", "random"], 12, seed=4, progress=False)
    assert (r.wins, r.deals, r.points, r.setup) == (local.wins, local.deals, local.points, repr(game))


def test_seats_rotate_as_simulate_games():
    """Game i is simulate's game i with player k at seat (k + i) mod 2."""
    n = 40
    r = arena(FIVE, ["random", "first"], n, seed=5, progress=False)
    straight = cribbage.simulate(FIVE, n, players=["random", "first"], seed=5)
    swapped = cribbage.simulate(FIVE, n, players=["first", "random"], seed=5)
    wins_random = sum(int(straight["winner"][i] == 0) if i % 2 == 0 else int(swapped["winner"][i] == 1) for i in range(n))
    assert r.wins == (wins_random, n - wins_random)
    assert r.deals == int(sum(straight["deals"][i] if i % 2 == 0 else swapped["deals"][i] for i in range(n)))
    peg = sum(straight["pegging"][i][0] if i % 2 == 0 else swapped["pegging"][i][1] for i in range(n))
    assert dict(r.points)["pegging"][0] == peg
    assert r.players == ("random", "first")


def test_split_ranges_combine_to_one_run_and_threads_do_not_matter():
    game = piquet.Game(scope="deal")
    players = [bots.ISMCTS(iterations=30, seed=3), bots.Random()]
    whole = arena(game, players, 24, seed=2, threads=2, progress=False)
    parts = [arena(game, players, 10, seed=2, threads=1, progress=False),
             arena(game, players, 14, seed=2, threads=2, first_game=10, progress=False)]
    c = ArenaResult.combine(parts)
    assert (c.games, c.wins, c.draws, c.deals, c.points) == (whole.games, whole.wins, whole.draws, whole.deals, whole.points)
    again = arena(game, players, 24, seed=2, threads=1, progress=False)
    assert again.wins == whole.wins and again.points == whole.points
    assert sum(whole.wins) + whole.draws == 24


def test_points_by_source_add_up_to_the_scores():
    r = arena(cribbage.Game("six-card"), ["random", "random"], 30, seed=1, progress=False)
    totals = [sum(v[k] for _, v in r.points) for k in range(2)]
    per_deal = [sum(v[k] for v in r.points_by_source.values()) for k in range(2)]
    assert per_deal == pytest.approx([t / r.deals for t in totals])
    # every source six-card scores (three for last is five-card's alone: issue 32)
    assert list(r.points_by_source) == [s for s in cribbage.Game().point_sources() if s != "three_for_last"]


def test_bad_arguments():
    with pytest.raises(ValueError, match="needs 2 players for cribbage"):
        arena(FIVE, ["random"], 2, progress=False)
    with pytest.raises(ValueError, match="needs 2 players for cribbage"):
        arena(FIVE, ["random"] * 3, 2, progress=False)
    with pytest.raises(TypeError, match="arena needs a cribbage or piquet Game"):
        arena("five-card", ["random", "random"], 2, progress=False)
    with pytest.raises(TypeError, match="players must be a sequence of 2 players"):
        arena(FIVE, "random", 2, progress=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_games must be in range"):
        arena(FIVE, ["random", "first"], -1, progress=False)
    with pytest.raises(ValueError, match='unknown player "nobody"'):
        arena(FIVE, ["nobody", "first"], 1, progress=False)
    with pytest.raises(TypeError, match="progress must be a bool"):
        arena(FIVE, ["random", "first"], 1, progress=1)  # type: ignore[arg-type]


def test_no_progress_bar_off_a_terminal(capsys):
    arena(FIVE, ["random", "first"], 20, progress=True)
    assert capsys.readouterr().err == ""


def test_repr_and_table():
    r = result((7, 2), 1, 10)
    assert repr(r) == "ArenaResult(cribbage, players=('a', 'b'), games=10, win_rate=(0.750, 0.250), elo=+191)"
    text = str(r)
    assert "0.442 .. 0.919" in text and "draws: 1 (half to each)" in text and "elo (a − b): +191" in text


def test_cli_prints_the_table(capsys):
    assert cli.main(["arena", "cribbage", "--variant", "five-card", "--players", "first", "random", "--games", "12"]) == 0
    out = capsys.readouterr().out
    assert "cribbage: 12 games" in out and "95% interval (Wilson)" in out and "pegging" in out
    assert cli.main(["arena", "piquet", "--scope", "deal", "--players", "ismcts:20", "first", "--games", "2"]) == 0
    assert "ismcts:20" in capsys.readouterr().out
    assert cli.main(["arena", "cribbage", "--rules", "rubicon", "--players", "first", "random"]) == 2
    assert "piquet options" in capsys.readouterr().err


def test_module_docstrings():
    for module in (_arena, bots):
        assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
    assert cribpiquet.arena is arena


class _FakeTTY:
    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def test_progress_bar_only_on_a_terminal_after_a_second(monkeypatch):
    fake = _FakeTTY()
    monkeypatch.setattr("sys.stderr", fake)
    bar = _util.Progress(100, "arena", "game", delay=1.0)
    bar(10)  # under a second: nothing yet
    assert fake.text == "" and bar.bar is None
    bar.start -= 2.0
    bar(40)
    assert bar.bar is not None and bar.bar.n == 40
    bar.close()
    assert "arena:" in fake.text and "/100" in fake.text
    monkeypatch.setattr("sys.stderr", __import__("io").StringIO())
    quiet = _util.Progress(100, "arena", "game", delay=1.0)
    quiet.start -= 2.0
    quiet(50)
    assert quiet.bar is None
