"""``cribpiquet.distributed``: the same results as the local calls, computed on a Dask cluster.

The first tests (``simulate(first_game=)``, the missing-Dask message) need no Dask; the rest run on
one module-scoped ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``.
"""

from __future__ import annotations

import doctest
import logging
import os
import signal
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest

from cribpiquet import cribbage, piquet

# ------------------------------------------------------------------- simulate(first_game=)


@pytest.mark.parametrize(
    "game", [cribbage.Game("six-card"), cribbage.Game("four-player"), piquet.Game("rubicon", scope="deal")], ids=repr
)
def test_first_game_plays_the_rows_of_a_longer_run(game):
    sim = cribbage.simulate if isinstance(game, cribbage.Game) else piquet.simulate
    whole = sim(game, 500, seed=9, players="random")
    for a, n in [(0, 500), (0, 1), (137, 200), (499, 1), (500, 0)]:
        part = sim(game, n, seed=9, first_game=a)
        assert list(part) == list(whole)
        for key, column in whole.items():
            np.testing.assert_array_equal(part[key], column[a : a + n], err_msg=key)
    # Consecutive ranges concatenate to the whole run; another seed gives other games.
    pieces = [sim(game, 250, seed=9, first_game=a, threads=1) for a in (0, 250)]
    np.testing.assert_array_equal(np.concatenate([p["scores"] for p in pieces]), whole["scores"])
    assert not np.array_equal(sim(game, 200, seed=10, first_game=137)["scores"], whole["scores"][137:337])


def test_first_game_far_out_and_its_bad_values():
    six = cribbage.Game("six-card")
    far = cribbage.simulate(six, 3, seed=1, first_game=2**62)
    assert far["scores"].shape == (3, 2) and (far["scores"].max(axis=1) >= 121).all()
    assert cribbage.simulate(six, 1, seed=1, first_game=2**62 + 2)["actions"][0] == far["actions"][2]
    assert cribbage.simulate(six, 0, first_game=2**63 - 2)["scores"].shape == (0, 2)
    for bad in (-1, 2**63 - 1, 2**63, 2**70):
        with pytest.raises(ValueError, match="first_game must be in range"):
            cribbage.simulate(six, 1, first_game=bad)
    for wrong in (True, 1.0, "3"):
        with pytest.raises(TypeError, match="first_game must be an int"):
            piquet.simulate(piquet.Game(), 1, first_game=wrong)  # type: ignore[arg-type]
    # Checked after the other arguments, in signature order: a bad threads is named first.
    with pytest.raises(TypeError, match="threads must be an int"):
        cribbage.simulate(six, 1, threads=0.5, first_game=-1)  # type: ignore[arg-type]


def test_without_dask_one_line_says_what_to_install(tmp_path):
    hide = "import sys; sys.modules['dask'] = sys.modules['distributed'] = None; import cribpiquet.distributed"
    done = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: cribpiquet.distributed needs Dask: pip install 'cribpiquet[dask]'"
    )


# ------------------------------------------------------------------------------ on a cluster


@pytest.fixture(scope="module")
def dd():
    pytest.importorskip("dask.array")
    return pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def distributed(dd):
    from cribpiquet import distributed

    return distributed


@pytest.fixture(scope="module")
def client(dd):
    """Two worker processes of one thread each. Not the default client: the tests pass it, or
    make it current where they test the default."""
    import dask

    # A long transition log, so the killed-worker test finds its task's whole story.
    with dask.config.set({"distributed.admin.low-level-log-length": 200_000}), dd.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster, dd.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=120)
        yield client


def _assert_same(got, expected):
    assert list(got) == list(expected)
    for key, column in expected.items():
        assert got[key].dtype == column.dtype and got[key].shape == column.shape, key
        np.testing.assert_array_equal(got[key], column, err_msg=key)


def test_chunks_cover_the_run_at_most_chunk_games_each_and_one_per_thread_at_least(distributed):
    from cribpiquet.distributed import _chunks

    assert _chunks(10, 3, 2) == [(0, 3), (3, 3), (6, 2), (8, 2)]
    assert _chunks(10, 100, 2) == [(0, 5), (5, 5)]
    assert _chunks(5, 100, 2) == [(0, 3), (3, 2)]
    assert _chunks(1, 100, 4) == [(0, 1)]
    assert _chunks(0, 100, 4) == []
    assert _chunks(2_000_000, 1_000_000, 2) == [(0, 1_000_000), (1_000_000, 1_000_000)]


GAMES = [
    (cribbage.Game("six-card"), "random", 3000, 700),
    (cribbage.Game("five-card", lurch=True), ("first", "random"), 2000, 2000),
    (cribbage.Game("three-player"), ["random"], 1500, 400),
    (cribbage.Game("four-player", target=61), "first", 1000, 333),
    (piquet.Game(piquet.Rules.russian().replace(koroliks_per_partiya=3)), "random", 500, 150),
    (piquet.Game("rubicon", scope="deal"), ("random", "first"), 2000, 10**6),
]


@pytest.mark.parametrize("game, players, n, chunk", GAMES, ids=[repr(g[0]) for g in GAMES])
def test_simulate_equals_the_local_run(distributed, client, game, players, n, chunk):
    local = cribbage.simulate if isinstance(game, cribbage.Game) else piquet.simulate
    expected = local(game, n, players=players, seed=11)
    _assert_same(distributed.simulate(game, n, players=players, seed=11, client=client, chunk_games=chunk), expected)


def test_simulate_with_the_default_client_and_edge_sizes(distributed, client):
    six = cribbage.Game("six-card")
    with client.as_current():
        _assert_same(distributed.simulate(six, 1, seed=-5), cribbage.simulate(six, 1, seed=-5))
        _assert_same(distributed.simulate(six, 0), cribbage.simulate(six, 0))
        _assert_same(distributed.simulate(six, 37, chunk_games=1), cribbage.simulate(six, 37))
    assert not np.array_equal(
        distributed.simulate(six, 50, seed=1, client=client)["scores"], cribbage.simulate(six, 50, seed=2)["scores"]
    )


def test_the_module_docstring_examples(distributed, client):
    with client.as_current():
        result = doctest.testmod(distributed, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 10


def test_a_worker_killed_mid_run_is_replaced_and_the_result_is_unchanged(distributed, client, dd, tmp_path):
    """A worker plugin SIGKILLs the first worker process to start executing a chunk (once: a
    marker file says it was done): the scheduler gives the chunk to a worker (the other, or
    the nanny's restarted one) and the run still equals the local one."""
    six = cribbage.Game("six-card")
    n = 40_000
    expected = cribbage.simulate(six, n, seed=3)
    marker = tmp_path / "killed"

    plugin_base: Any = dd.WorkerPlugin

    class KillOnce(plugin_base):
        name = "cribpiquet-test-kill-once"

        def __init__(self, path: str) -> None:
            self.path = path

        def transition(self, key, start, finish, **kwargs):
            if finish != "executing" or not str(key).startswith("cribpiquet-simulate-"):
                return
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.write(fd, f"{os.getpid()} {key}".encode())
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)

    client.register_plugin(KillOnce(str(marker)))
    try:
        got = distributed.simulate(six, n, seed=3, client=client, chunk_games=5_000)
    finally:
        client.unregister_worker_plugin(KillOnce.name)
    _assert_same(got, expected)
    pid, key = marker.read_text().split()
    # The killed chunk was processing twice: on the dead worker, then again on a live one.
    story = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.story(key))
    assert [t[2] for t in story].count("processing") >= 2, story
    client.wait_for_workers(2, timeout=120)  # the nanny's new process, for the tests below
    assert int(pid) not in client.run(os.getpid).values()


def test_simulate_sends_bot_objects_as_their_settings(distributed, client):
    from cribpiquet import bots

    five = cribbage.Game("five-card")
    players = [bots.ISMCTS(iterations=30, seed=2), bots.Random(seed=5)]
    expected = cribbage.simulate(five, 60, players=players, seed=4)
    _assert_same(distributed.simulate(five, 60, players=players, seed=4, client=client, chunk_games=20), expected)
    deal = piquet.Game(scope="deal")
    _assert_same(
        distributed.simulate(deal, 300, players=bots.First(), seed=1, client=client),
        piquet.simulate(deal, 300, players=[bots.First()], seed=1),
    )


def test_bots_travel_by_pickle_without_eval(distributed, client, monkeypatch):
    """Every bot is sent as itself (it pickles as its settings), PIMC too; nothing is rebuilt
    from a repr: ``eval`` raises on the client and on the workers while the run goes."""
    import builtins

    from cribpiquet import arena, bots

    players = [bots.PIMC(worlds=2, seed=4, inference=False), bots.ISMCTS(iterations=10, seed=1)]
    assert all(distributed._portable(p) is p for p in players)
    assert not hasattr(distributed, "_BotCall")

    def no_eval(*args, **kwargs):
        raise AssertionError("eval called")

    def set_eval(refuse: bool) -> None:
        """On a worker: ``eval`` refused, or put back."""
        import builtins

        saved = builtins.__dict__.setdefault("_cribpiquet_saved_eval", builtins.eval)
        builtins.eval = no_eval if refuse else saved

    deal = piquet.Game(scope="deal")
    expected = arena(deal, players, 6, seed=2, progress=False)
    monkeypatch.setattr(builtins, "eval", no_eval)
    client.run(set_eval, True)
    try:
        got = distributed.arena(deal, players, 6, seed=2, client=client, chunk_games=2)
        sim = distributed.simulate(deal, 4, players=players, seed=3, client=client, chunk_games=2)
    finally:
        client.run(set_eval, False)
    assert _counts(got) == _counts(expected)
    _assert_same(sim, piquet.simulate(deal, 4, players=players, seed=3))


def test_a_player_that_does_not_pickle_is_refused_before_anything_is_submitted(distributed, nothing_submitted):
    five = cribbage.Game("five-card")

    class Local:
        """Not a bot the engine takes, and not picklable (a local class)."""

    with pytest.raises(TypeError, match="a player must be a name"):
        distributed.simulate(five, 1, players=[Local(), "random"], client=nothing_submitted)
    with pytest.raises(TypeError, match="cannot be sent to the workers"):
        distributed._portable(Local())


# ------------------------------------------------------------------------------------- arena


def _counts(r):
    return (r.game, r.players, r.games, r.wins, r.draws, r.deals, r.points)


ARENAS = [
    (cribbage.Game("six-card"), ["first", "random"], 600, 250),
    (cribbage.Game("three-player"), ["random", "first", "random"], 300, None),
    (piquet.Game(scope="deal"), ["ismcts:20", "random"], 200, 30),
]


@pytest.mark.parametrize("game, players, n, chunk", ARENAS, ids=[repr(a[0]) for a in ARENAS])
def test_arena_equals_the_local_run(distributed, client, game, players, n, chunk):
    from cribpiquet import arena

    local = arena(game, players, n, seed=6, progress=False)
    got = distributed.arena(game, players, n, seed=6, client=client, chunk_games=chunk)
    assert _counts(got) == _counts(local)
    assert got.win_rate == local.win_rate and got.ci95 == local.ci95 and got.elo == local.elo
    assert got.seconds > 0 and sum(got.wins) + got.draws == n


def test_arena_with_bot_objects_and_the_default_client(distributed, client):
    from cribpiquet import arena, bots

    five = cribbage.Game("five-card")
    players = [bots.ISMCTS(iterations=25, seed=3), bots.First()]
    with client.as_current():
        got = distributed.arena(five, players, 40, seed=2)
        assert _counts(distributed.arena(five, players, 0)) == _counts(arena(five, players, 0, progress=False))
    assert _counts(got) == _counts(arena(five, players, 40, seed=2, progress=False))


def test_bad_arena_arguments_raise_before_anything_is_submitted(distributed, nothing_submitted):
    five = cribbage.Game("five-card")
    with pytest.raises(TypeError, match="n_games must be an int"):
        distributed.arena(five, ["random", "first"], 1.5, client=nothing_submitted)
    with pytest.raises(ValueError, match="n_games must be in range"):
        distributed.arena(five, ["random", "first"], -3, client=nothing_submitted)
    with pytest.raises(ValueError, match=r"chunk_games must be in range\(1, "):
        distributed.arena(five, ["random", "first"], 10, client=nothing_submitted, chunk_games=0)
    with pytest.raises(ValueError):
        distributed.arena(five, ["random", "nobody"], 10, client=nothing_submitted)
    with pytest.raises(TypeError, match="seed must be an int"):
        distributed.arena(five, ["random", "first"], 10, seed="x", client=nothing_submitted)
    with pytest.raises(TypeError, match="client must be a dask.distributed.Client"):
        distributed.arena(five, ["random", "first"], 10, client=object())
    with pytest.raises(ValueError, match="no Dask client"):
        distributed.arena(five, ["random", "first"], 10)


# ----------------------------------------------------------------------------- discard tables


def test_discard_tables_equal_the_local_iteration(distributed, client):
    local: Any = cribbage.discard_tables("five-card", flushes=False, max_iterations=2, progress=False)
    got = distributed.discard_tables("five-card", flushes=False, max_iterations=2, client=client, ranges=5)
    assert (got.variant, got.flushes, got.iterations) == ("five-card", False, 2)
    assert got.changes == local.changes and len(got.changes) == 2
    for name in ("dealer", "pone"):
        np.testing.assert_array_equal(getattr(got, name), getattr(local, name), err_msg=name)
    for role in ("dealer", "pone"):
        np.testing.assert_array_equal(got.frequency[role], local.frequency[role], err_msg=role)
        np.testing.assert_array_equal(got.values[role], local.values[role], err_msg=role)
    assert got.model == local.model == "conditioned"
    thrown: Any = cribbage.discard_tables("five-card", model="thrown-only", max_iterations=1, progress=False)
    got = distributed.discard_tables("five-card", model="thrown-only", max_iterations=1, client=client, ranges=3)
    assert got.model == "thrown-only" and got.changes == thrown.changes
    np.testing.assert_array_equal(got.pone, thrown.pone)
    # A large tolerance stops after the first pass, as locally.
    stopped = distributed.discard_tables("five-card", tolerance=10.0, client=client)
    alone: Any = cribbage.discard_tables("five-card", tolerance=10.0, progress=False)
    assert stopped.iterations == alone.iterations == 1


def test_bad_discard_tables_arguments_raise_before_anything_is_submitted(distributed, nothing_submitted):
    c = nothing_submitted
    cases: list[tuple[type[Exception], str, dict[str, Any]]] = [
        (ValueError, "two-player games", dict(variant="three-player")),
        (TypeError, "max_iterations must be an int", dict(max_iterations=2.0)),
        (ValueError, "max_iterations must be at least 0, got -1", dict(max_iterations=-1)),
        (ValueError, "max_iterations must be at most 10,000", dict(max_iterations=10_001)),
        (TypeError, "tolerance must be a number, got str", dict(tolerance="small")),
        (ValueError, "tolerance must be a finite number", dict(tolerance=float("nan"))),
        (ValueError, "tolerance must be a finite number, got an int of about 401 digits", dict(tolerance=10**400)),
        (TypeError, "ranges must be an int", dict(ranges=True)),
        (ValueError, r"ranges must be in range\(1, ", dict(ranges=0)),
        (TypeError, "flushes", dict(flushes="yes")),
        (ValueError, "unknown discard tables model", dict(model="hessel")),
    ]
    for error, message, kwargs in cases:
        with pytest.raises(error, match=message):
            distributed.discard_tables(client=c, **kwargs)


# --------------------------------------------------------------------------------- batch scoring


def _random_shows(rng, n, cards):
    deck = np.argsort(rng.random((n, 52)), axis=1)
    return deck[:, :cards], deck[:, cards]


def _random_pegging(rng, n, width=13):
    rows = np.full((n, width), -1, np.int64)
    for r, deck in enumerate(np.argsort(rng.random((n, 52)), axis=1)):
        count, k = 0, 0
        for card in deck:
            value = min(card % 13 + 1, 10)
            if k == width or count + value > 31:
                break
            rows[r, k], count, k = card, count + value, k + 1
    return rows


def _compute(client, x):
    return client.compute(x).result()


@pytest.mark.parametrize("cards, crib", [(4, False), (4, True), (3, False)])
def test_score_hand_batch_equals_numpy(distributed, client, cards, crib):
    import dask.array as da

    hands, starters = _random_shows(np.random.default_rng(cards + crib), 5000, cards)
    h = da.from_array(hands.astype(np.int16), chunks=(1234, 2))  # columns split too: rechunked
    s = da.from_array(starters.astype(np.uint8), chunks=999)  # other row chunks: aligned
    lazy = distributed.score_hand_batch(h, s, crib=crib)
    assert isinstance(lazy, da.Array) and lazy.dtype == np.uint8 and lazy.chunks == ((1234, 1234, 1234, 1234, 64),)
    got = _compute(client, lazy)
    np.testing.assert_array_equal(got, cribbage.score_hand_batch(hands, starters, crib=crib))
    assert got.dtype == np.uint8 and got.max() > 12
    assert distributed.score_hand_batch(hands[:3], starters[:3]).compute().tolist() == (
        [cribbage.score_hand(list(hands[i]), int(starters[i])) for i in range(3)]
    )


def test_peg_points_batch_equals_numpy(distributed, client):
    import dask.array as da

    rows = _random_pegging(np.random.default_rng(5), 3000)
    lazy = distributed.peg_points_batch(da.from_array(rows, chunks=(700, 5)))
    assert lazy.dtype == np.uint8 and lazy.chunks == ((700, 700, 700, 700, 200),)
    got = _compute(client, lazy)
    np.testing.assert_array_equal(got, cribbage.peg_points_batch(rows))
    assert got.max() >= 3


@pytest.mark.parametrize("rules", [None, "rubicon", piquet.Rules.russian().replace(koroliks_per_partiya=3)])
def test_score_declarations_batch_equals_numpy(distributed, client, rules):
    import dask.array as da

    deal = np.argsort(np.random.default_rng(8).random((4000, 32)), axis=1)
    elder, dealer = deal[:, :12], deal[:, 12:24]
    lazy = distributed.score_declarations_batch(
        da.from_array(elder, chunks=(900, 12)), da.from_array(dealer, chunks=(1500, 6)), rules=rules
    )
    assert lazy.dtype == np.int16 and lazy.shape == (4000, 2) and lazy.chunks[0] == (900, 900, 900, 900, 400)
    got = _compute(client, lazy)
    np.testing.assert_array_equal(got, piquet.score_declarations_batch(elder, dealer, rules=rules))
    assert got.max() > 30


def test_a_bad_card_is_reported_at_compute_with_its_row_in_the_whole_array(distributed, client):
    import dask.array as da

    hands = np.tile([0, 13, 26, 39], (9, 1))
    hands[7] = [1, 1, 2, 3]  # 2C twice, in the third block of three rows
    lazy = distributed.score_hand_batch(da.from_array(hands, chunks=(3, 4)), da.from_array(np.full(9, 51), chunks=3))
    with pytest.raises(ValueError, match=r"^row 7: duplicate card 2C$"):
        _compute(client, lazy)
    pegs = da.from_array(np.array([[0, 1], [2, 3], [4, 4]]), chunks=(2, 2))
    with pytest.raises(ValueError, match=r"^row 2: "):
        _compute(client, distributed.peg_points_batch(pegs))


# ------------------------------------------------------------------- bad arguments, no submission


@pytest.fixture
def nothing_submitted(client, monkeypatch):
    """The client, with every way of submitting work replaced by a failure."""

    def refuse(*args, **kwargs):
        raise AssertionError("a task was submitted")

    for name in ("submit", "map", "compute", "persist", "scatter", "get", "_graph_to_futures"):
        monkeypatch.setattr(client, name, refuse)
    return client


def test_bad_simulate_arguments_raise_before_anything_is_submitted(distributed, nothing_submitted):
    client, six = nothing_submitted, cribbage.Game("six-card")
    cases: list[tuple[type[Exception], str, dict[str, Any]]] = [
        (TypeError, "game must be a cribbage.Game or a piquet.Game", dict(game="six-card")),
        (TypeError, "n_games must be an int", dict(n_games=True)),
        (TypeError, "n_games must be an int", dict(n_games=10.0)),
        (ValueError, r"n_games must be in range\(0, ", dict(n_games=-1)),
        (ValueError, r"n_games must be in range\(0, ", dict(n_games=2**63)),
        (ValueError, "players must name 1 or 3 policies", dict(game=cribbage.Game("three-player"), players=("random",) * 2)),
        (ValueError, "nobody", dict(players=("random", "nobody"))),
        (TypeError, "players must be a player", dict(players=3)),
        (TypeError, "seed must be an int", dict(seed=True)),
        (ValueError, "seed must fit in 64 bits", dict(seed=2**64)),
        (TypeError, "chunk_games must be an int", dict(chunk_games="big")),
        (ValueError, r"chunk_games must be in range\(1, ", dict(chunk_games=0)),
        (TypeError, "client must be a dask.distributed.Client", dict(client="tcp://127.0.0.1:8786")),
    ]
    for error, message, change in cases:
        kwargs = dict(game=six, n_games=100, client=client) | change
        with pytest.raises(error, match=message):
            distributed.simulate(kwargs.pop("game"), kwargs.pop("n_games"), **kwargs)


def test_no_client_at_all_says_how_to_start_one(distributed, nothing_submitted):
    from dask.distributed import default_client

    with pytest.raises(ValueError):
        default_client()  # the fixture's client is not the default, and there is no other
    with pytest.raises(ValueError, match=r"no Dask client: .*Client\(\)` \(a local cluster\)"):
        distributed.simulate(cribbage.Game("six-card"), 10)
    with pytest.raises(ValueError, match="n_games must be in range"):  # the arguments come first
        distributed.simulate(cribbage.Game("six-card"), -1)


def test_bad_batch_arguments_raise_when_the_graph_is_built(distributed, nothing_submitted):
    import dask.array as da

    h = da.zeros((10, 4), dtype=np.int8, chunks=5)
    s = da.zeros((10,), dtype=np.int8, chunks=5)
    e = da.zeros((10, 12), dtype=np.int8, chunks=5)
    cases = [
        (TypeError, "hands must hold integer card ids, got dtype float64", lambda: distributed.score_hand_batch(h.astype(float), s)),
        (TypeError, "starters must hold integer card ids, got dtype bool", lambda: distributed.score_hand_batch(h, s > 0)),
        (ValueError, r"hands must have 3 or 4 cards per row, got 5 \(shape \(10, 5\)\)", lambda: distributed.score_hand_batch(da.zeros((10, 5), dtype=int), s)),
        (ValueError, r"hands must be a 2-d array, got shape \(10,\)", lambda: distributed.score_hand_batch(s, s)),
        (ValueError, "hands has 10 rows but starters has 9", lambda: distributed.score_hand_batch(h, s[:9])),
        (ValueError, "unknown chunk sizes", lambda: distributed.score_hand_batch(h[s > 0], s[s > 0])),
        (TypeError, "crib must be a bool", lambda: distributed.score_hand_batch(h, s, crib=1)),
        (ValueError, r"sequences must have 1 to 13 cards per row, got width 14 \(shape \(10, 14\)\)", lambda: distributed.peg_points_batch(da.zeros((10, 14), dtype=int))),
        (TypeError, "sequences must hold integer card ids", lambda: distributed.peg_points_batch([["5H"]])),
        (ValueError, r"dealer must have 12 cards per row, got shape \(10, 11\)", lambda: distributed.score_declarations_batch(e, e[:, :11])),
        (ValueError, "elder has 10 rows but dealer has 5", lambda: distributed.score_declarations_batch(e, e[:5])),
        (ValueError, 'unknown piquet rules "x"', lambda: distributed.score_declarations_batch(e, e, rules="x")),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
