"""cribpiquet on a Dask cluster: the same results as the local calls, computed on many machines.

Needs the ``dask`` extra (``pip install 'cribpiquet[dask]'``: ``dask[distributed]``) and
cribpiquet installed on every worker. The functions run on the client given as ``client=`` or,
without one, on the default client (the last ``dask.distributed.Client`` made);
``dask.distributed.Client()`` starts a local cluster, ``Client("tcp://host:8786")`` joins a
running scheduler.

* :func:`simulate` splits a run into chunks of games played as Dask tasks; game ``i`` is
  still seeded by ``(seed, i)`` (each chunk is ``simulate(..., first_game=start)``), so the
  result equals the local :func:`cribpiquet.cribbage.simulate` / :func:`cribpiquet.piquet.simulate`
  array for array, however the run is cut and whichever worker plays a chunk (a chunk lost with
  its worker is simply played again elsewhere).
* :func:`arena` does the same for :func:`cribpiquet.arena`, merging the chunks' counts with
  :meth:`cribpiquet.ArenaResult.combine` (so the win rates, intervals and Elo are the local ones).
* :func:`discard_tables` runs each iteration's pass over the hand classes as tasks over class
  ranges and adds their counts: the tables equal :func:`cribpiquet.cribbage.discard_tables`'.
* :func:`score_hand_batch`, :func:`peg_points_batch` and :func:`score_declarations_batch` take
  dask arrays and return lazy dask arrays (one task per block of rows), equal to the numpy
  functions'.

Every argument is checked on the client, with the local functions' messages, before anything is
submitted.

>>> from cribpiquet import cribbage, distributed
>>> six = cribbage.Game("six-card")
>>> r = distributed.simulate(six, 2000, seed=7, chunk_games=500)   # 4 tasks
>>> bool((r["scores"] == cribbage.simulate(six, 2000, seed=7)["scores"]).all())
True
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import pickle
import re
import time
from typing import Any, Callable

import numpy as np

try:
    import dask.array as da
    import distributed as _dd
except ImportError:  # pragma: no cover - exercised by a test that hides dask
    raise ImportError(
        "cribpiquet.distributed needs Dask: pip install 'cribpiquet[dask]'"
    ) from None

from . import cribbage, piquet
from ._util import describe, float_arg, int_arg, int_in, run_tasks

__all__ = [
    "arena",
    "discard_tables",
    "peg_points_batch",
    "score_declarations_batch",
    "score_hand_batch",
    "simulate",
]


def __dir__() -> list[str]:
    """The module's API only (``__all__``), not the names it imports."""
    return sorted(__all__)

_NO_CLIENT = (
    "no Dask client: pass client=, or start one first, e.g. `from dask.distributed import Client; "
    "client = Client()` (a local cluster) or `Client('tcp://scheduler:8786')`"
)


def _describe(x: Any) -> str:
    return describe(x, 81)


def _resolve_client(client: Any) -> Any:
    """The client to submit to: ``client``, else the default one, else a clear error."""
    if client is None:
        try:
            client = _dd.default_client()
        except ValueError:
            raise ValueError(_NO_CLIENT) from None
    elif not isinstance(client, _dd.Client):
        raise TypeError(f"client must be a dask.distributed.Client, got {_describe(client)}")
    if client.status in ("closing", "closed"):
        raise ValueError(f"client is {client.status}: {_NO_CLIENT}")
    return client


# ------------------------------------------------------------------- sending players to workers


def _portable(player: Any) -> Any:
    """A player as sent to the workers: itself, after checking that it pickles (a name does; a
    bot of :mod:`cribpiquet.bots` pickles as its settings), so a player that cannot be sent is
    a clear error here rather than a failed task."""
    if isinstance(player, str):
        return player
    try:
        pickle.dumps(player)
    except Exception:  # noqa: BLE001 - whatever pickling raises
        raise TypeError(f"players: {_describe(player)} cannot be sent to the workers (it does not pickle)") from None
    return player


def _players_once(players: Any) -> Any:
    """``players`` read once, before the local check reads them (a generator would be used up by
    the check and sent empty): a name or a bot as it is, an iterable as a list of its first five
    items (four seats at most: the check refuses a fifth; an endless iterable is not read on)."""
    if isinstance(players, str):
        return players
    try:
        items = iter(players)
    except TypeError:
        return players  # a bot, or garbage the local check names
    return list(itertools.islice(items, 5))


def _portable_players(players: Any) -> Any:
    """``players`` (already checked by the local function) in a form that pickles."""
    if isinstance(players, str):
        return players
    try:
        items = list(players)
    except TypeError:
        return _portable(players)
    return [_portable(p) for p in items]


# ---------------------------------------------------------------------------------- simulate


def _simulator(game: Any) -> Callable[..., dict[str, np.ndarray]]:
    if isinstance(game, cribbage.Game):
        return cribbage.simulate
    if isinstance(game, piquet.Game):
        return piquet.simulate
    raise TypeError(f"game must be a cribbage.Game or a piquet.Game, got {_describe(game)}")


def _simulate_chunk(game: Any, players: Any, seed: Any, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """One task of :func:`simulate`: games ``first_game .. first_game + n_games`` on one thread
    (a worker runs as many chunks at once as it has threads)."""
    return _simulator(game)(game, n_games, players=players, seed=seed, first_game=first_game, threads=1)


def _chunks(n_games: int, chunk_games: int, threads: int) -> list[tuple[int, int]]:
    """``(first_game, n)`` of each chunk: at most ``chunk_games`` games each, and at least one
    chunk per worker thread (for runs that are small for the cluster), sizes within one game."""
    if n_games == 0:
        return []
    k = min(n_games, max(math.ceil(n_games / chunk_games), threads))
    base, extra = divmod(n_games, k)
    out, start = [], 0
    for i in range(k):
        size = base + (i < extra)
        out.append((start, size))
        start += size
    return out


def simulate(
    game: Any,
    n_games: int,
    *,
    players: Any = "random",
    seed: int = 0,
    client: Any = None,
    chunk_games: int = 1_000_000,
) -> dict[str, np.ndarray]:
    """:func:`cribpiquet.cribbage.simulate` (or piquet's) on a Dask cluster: the same dict of
    numpy arrays as ``simulate(game, n_games, players=players, seed=seed)``, array for array.

    The run is cut into chunks of at most ``chunk_games`` games (and at least one per worker
    thread, so a small run still uses the whole cluster); each chunk is one task that plays its
    games ``simulate(game, n, first_game=start, threads=1)`` on a worker. Game ``i`` is seeded by
    ``(seed, i)`` wherever it runs, so neither the cut nor the workers change the result; a chunk
    whose worker dies is played again on another. The chunks are copied into the result as they
    finish (each worker holds its chunk, about 60–90 bytes a game, until then). ``game`` and
    ``players`` are sent to the workers by pickling; every argument is checked here, with the
    local function's messages, before anything is submitted. Without ``client``, the default
    client.

    >>> from cribpiquet import piquet
    >>> deals = simulate(piquet.Game(scope="deal"), 300, seed=2, chunk_games=100)
    >>> bool((deals["returns"] == piquet.simulate(piquet.Game(scope="deal"), 300, seed=2)["returns"]).all())
    True
    """
    local = _simulator(game)
    n = int_in(n_games, "n_games", 0)
    size = int_in(chunk_games, "chunk_games", 1)
    players = _players_once(players)
    # Zero games checks game, players and seed exactly as the local call, and gives the schema.
    empty = local(game, 0, players=players, seed=seed)
    players = _portable_players(players)
    client = _resolve_client(client)
    if n == 0:
        return empty
    threads = max(1, sum(client.nthreads().values()))
    chunks = _chunks(n, size, threads)
    out = {key: np.empty((n, *col.shape[1:]), col.dtype) for key, col in empty.items()}

    def copy(i: int, part: dict[str, np.ndarray]) -> None:
        start = chunks[i][0]
        for key, column in part.items():
            out[key][start : start + len(column)] = column

    run_tasks(client, "simulate", _simulate_chunk, [(game, players, seed, *c) for c in chunks], copy)
    return out


# ------------------------------------------------------------------------------------- arena


def _arena_chunk(game: Any, players: Any, seed: Any, first_game: int, n_games: int) -> Any:
    """One task of :func:`arena`: games ``first_game .. first_game + n_games`` on one thread."""
    from ._arena import arena as local_arena

    return local_arena(
        game, players, n_games, seed=seed, threads=1, progress=False, first_game=first_game
    )


def arena(
    game: Any,
    players: Any,
    n_games: int,
    *,
    seed: int = 0,
    client: Any = None,
    chunk_games: int | None = None,
) -> Any:
    """:func:`cribpiquet.arena` on a Dask cluster: the same :class:`~cribpiquet.ArenaResult`
    counts (wins, draws, deals, points by source) as ``arena(game, players, n_games, seed=seed)``,
    so the same win rates, 95 % intervals and Elo.

    The games are cut into chunks played as tasks (``arena(..., first_game=start, threads=1)``:
    game ``i`` is seeded by ``(seed, i)`` with the seats rotated by ``i`` wherever it runs) and
    the chunks' results merged with :meth:`~cribpiquet.ArenaResult.combine`. ``chunk_games`` is
    the most games a task plays; ``None``: about four chunks per worker thread (a few per thread
    even out bots whose speed varies), at most a million games each. ``seconds`` is the wall
    time of the whole run (so ``games_per_second`` is the cluster's). Bots are sent to the workers
    as their settings; every argument is checked here before anything is submitted.

    >>> from cribpiquet import ArenaResult, bots, cribbage
    >>> five = cribbage.Game("five-card")
    >>> r = arena(five, [bots.First(), "random"], 300, seed=4, chunk_games=100)
    >>> from cribpiquet import arena as local_arena
    >>> r.wins == local_arena(five, [bots.First(), "random"], 300, seed=4, progress=False).wins
    True
    """
    from ._arena import ArenaResult
    from ._arena import arena as local_arena

    n = int_in(n_games, "n_games", 0)
    size = None if chunk_games is None else int_in(chunk_games, "chunk_games", 1)
    players = _players_once(players)
    # Zero games checks game, players and seed exactly as the local call.
    empty = local_arena(game, players, 0, seed=seed, progress=False)
    portable = _portable_players(players)
    client = _resolve_client(client)
    if n == 0:
        return empty
    clock = time.perf_counter()
    threads = max(1, sum(client.nthreads().values()))
    if size is None:
        size = max(1, min(1_000_000, math.ceil(n / (4 * threads))))
    tasks = [(game, portable, seed, *c) for c in _chunks(n, size, threads)]
    merged = ArenaResult.combine(run_tasks(client, "arena", _arena_chunk, tasks))
    return dataclasses.replace(merged, seconds=time.perf_counter() - clock)


# ----------------------------------------------------------------------------- discard tables


def _pass_sums(tables: Any, start: int, stop: int) -> dict[str, Any]:
    """One task of :func:`discard_tables`: the pass's partial sums over classes ``start..stop``."""
    return tables.pass_sums(start, stop)


def discard_tables(
    variant: str = "six-card",
    *,
    flushes: bool = True,
    model: str = "conditioned",
    max_iterations: int = 50,
    tolerance: float = 1e-4,
    client: Any = None,
    ranges: int | None = None,
) -> Any:
    """:func:`cribpiquet.cribbage.discard_tables` with each iteration's best-response pass over
    the hand classes cut into ``ranges`` class ranges run as Dask tasks (``None``: four per
    worker thread). Each iteration sends the current tables to the tasks
    (``DiscardTables.pass_sums(start, stop)``), adds their integer counts
    (``combine_pass_sums``) and advances the tables on the client, stopping as the local call
    does; any split gives the same tables as ``cribbage.discard_tables`` (``dealer``, ``pone``,
    ``frequency``, ``changes``).

    Unlike the local run, which computes every hand's values once, a task computes its hands'
    values again every pass (six-card: about 10 core-seconds a pass, on top of the conditioned
    model's per-hand cribs, which both runs compute every pass), so this pays only on many
    cores. The arguments are checked here first.

    >>> from cribpiquet import cribbage
    >>> t = discard_tables("five-card", max_iterations=1, ranges=3)
    >>> local = cribbage.discard_tables("five-card", max_iterations=1, progress=False)
    >>> bool((t.dealer == local.dealer).all()), t.changes == local.changes
    (True, True)
    """
    from ._discard import DiscardTables, combine_pass_sums, discard_classes

    max_iterations = int_arg(max_iterations, "max_iterations", 0, 10_000)
    tolerance = float_arg(tolerance, "tolerance", 0.0)
    k = None if ranges is None else int_in(ranges, "ranges", 1, 1_000_001)
    tables = DiscardTables.initial(variant, flushes=flushes, model=model)  # checks variant, flushes, model
    classes = discard_classes(variant)
    client = _resolve_client(client)
    if k is None:
        k = 4 * max(1, sum(client.nthreads().values()))
    bounds = [(start, start + count) for start, count in _chunks(classes, math.ceil(classes / k), k)]
    for _ in range(max_iterations):
        parts = run_tasks(client, "discard-pass", _pass_sums, [(tables, a, b) for a, b in bounds])
        tables = tables.advance(combine_pass_sums(parts))
        if tables.changes[-1] < tolerance:
            break
    return tables


# ------------------------------------------------------------------------------ batch scoring


def _as_dask(x: Any, name: str, ndim: int) -> Any:
    """``x`` as a dask array with known chunk sizes, an integer dtype and ``ndim`` dimensions
    (anything else is read by numpy and checked before dask sees it: dask cannot chunk objects)."""
    a: Any
    if isinstance(x, da.Array):
        a = x
    else:
        try:
            a = np.asarray(x)
        except ValueError:
            raise ValueError(f"{name} must be a {ndim}-d array of card ids, got {_describe(x)}") from None
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer card ids, got dtype {a.dtype}")
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {a.shape}")
    if any(math.isnan(c) for c in a.shape):
        raise ValueError(f"{name} has unknown chunk sizes: call {name}.compute_chunk_sizes() first")
    return a if isinstance(a, da.Array) else da.asarray(a)


def _probe(local: Callable[..., Any], arrays: list[Any], **kwargs: Any) -> Any:
    """Call the local function on zero rows of the same dtypes and widths: it checks the widths
    and the keyword arguments with its own messages (naming the real shapes) and gives the meta."""
    empties = [np.zeros((0, *a.shape[1:]), a.dtype) for a in arrays]
    try:
        return local(*empties, **kwargs)
    except (TypeError, ValueError) as e:
        msg = str(e)
        for a, z in zip(arrays, empties):
            msg = msg.replace(f"shape {z.shape}", f"shape {a.shape}")
        raise type(e)(msg) from None


def _same_rows(first: Any, second: Any, names: tuple[str, str]) -> Any:
    """``second`` rechunked along its rows like ``first`` (checking that the row counts agree)."""
    if first.shape[0] != second.shape[0]:
        raise ValueError(f"{names[0]} has {first.shape[0]} rows but {names[1]} has {second.shape[0]}")
    return second.rechunk({0: first.chunks[0]})


_ROW = re.compile(r"^row (\d+):")


def _rows_from(start: int, call: Callable[[], Any]) -> Any:
    """``call()``, with a block's "row r: …" errors renumbered as rows of the whole array."""
    try:
        return call()
    except ValueError as e:
        msg = _ROW.sub(lambda m: f"row {int(m.group(1)) + start}:", str(e), count=1)
        raise ValueError(msg) from None


def _block_start(block_info: Any) -> int:
    return int(block_info[0]["array-location"][0][0]) if block_info else 0


def _score_hand_block(h: np.ndarray, s: np.ndarray, crib: bool, block_info: Any = None) -> np.ndarray:
    return _rows_from(_block_start(block_info), lambda: cribbage.score_hand_batch(h, s[:, 0], crib=crib))


def _peg_block(q: np.ndarray, block_info: Any = None) -> np.ndarray:
    return _rows_from(_block_start(block_info), lambda: cribbage.peg_points_batch(q))


def _declarations_block(e: np.ndarray, d: np.ndarray, rules: Any, block_info: Any = None) -> np.ndarray:
    return _rows_from(_block_start(block_info), lambda: piquet.score_declarations_batch(e, d, rules=rules))


def score_hand_batch(hands: Any, starters: Any, *, crib: bool = False) -> Any:
    """:func:`cribpiquet.cribbage.score_hand_batch` over dask arrays: a lazy uint8 dask array of
    N totals, one task per block of rows of ``hands`` (its columns are put in one chunk;
    ``starters`` is rechunked to the same rows). Numpy arrays are accepted as one block. The
    dtypes, shapes and ``crib`` are checked now; the card ids when computed (the error names the
    row of the whole array).

    >>> import dask.array as da
    >>> hands = da.from_array([[10, 17, 30, 43], [4, 5, 6, 20], [0, 1, 2, 3]], chunks=2)
    >>> score_hand_batch(hands, da.from_array([4, 46, 16], chunks=2)).compute()
    array([29, 14, 14], dtype=uint8)
    """
    h = _as_dask(hands, "hands", 2)
    s = _as_dask(starters, "starters", 1)
    meta = _probe(cribbage.score_hand_batch, [h, s], crib=crib)
    h = h.rechunk({1: -1})
    s = _same_rows(h, s, ("hands", "starters"))[:, None]
    return da.map_blocks(_score_hand_block, h, s, crib=crib, drop_axis=1, meta=meta, token="cribpiquet-score-hand")


def peg_points_batch(sequences: Any) -> Any:
    """:func:`cribpiquet.cribbage.peg_points_batch` over a dask array: a lazy uint8 dask array of
    the points of the last card of each row (rows padded with -1), one task per block of rows.

    >>> import dask.array as da
    >>> peg_points_batch(da.from_array([[2, 1, 4, 0, 3], [4, 17, 30, -1, -1]], chunks=1)).compute()
    array([7, 8], dtype=uint8)
    """
    q = _as_dask(sequences, "sequences", 2)
    meta = _probe(cribbage.peg_points_batch, [q])
    q = q.rechunk({1: -1})
    return da.map_blocks(_peg_block, q, drop_axis=1, meta=meta, token="cribpiquet-peg-points")


def score_declarations_batch(elder: Any, dealer: Any, *, rules: Any = None) -> Any:
    """:func:`cribpiquet.piquet.score_declarations_batch` over dask arrays: a lazy (N, 2) int16
    dask array of (elder, dealer) declaration points, one task per block of rows of ``elder``
    (``dealer`` is rechunked to the same rows). ``rules`` is checked now.

    >>> import dask.array as da
    >>> a = [23, 22, 21, 20, 19, 16, 7, 15, 31, 0, 1, 8]   # AH KH QH JH TH 7H AC AD AS 7C 8C 7D
    >>> b = [18, 17, 2, 3, 4, 5, 14, 13, 12, 25, 26, 27]  # 9H 8H 9C TC JC QC KD QD JD 8S 9S TS
    >>> score_declarations_batch(da.from_array([a, b], chunks=1), da.from_array([b, a], chunks=2)).compute()
    array([[95,  0],
           [ 0, 95]], dtype=int16)
    """
    e = _as_dask(elder, "elder", 2)
    d = _as_dask(dealer, "dealer", 2)
    meta = _probe(piquet.score_declarations_batch, [e, d], rules=rules)
    e = e.rechunk({1: -1})
    d = _same_rows(e, d.rechunk({1: -1}), ("elder", "dealer"))
    return da.map_blocks(
        _declarations_block, e, d, rules=rules, chunks=(e.chunks[0], (2,)), meta=meta, token="cribpiquet-declarations"
    )
