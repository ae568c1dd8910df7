"""The arena: matches between players (bot objects or names) with the seats rotated, played in
parallel in Rust, and their statistics (:class:`ArenaResult`).

>>> from cribpiquet import arena, bots, cribbage
>>> r = arena(cribbage.Game("five-card"), [bots.First(), "random"], 40, seed=1, progress=False)
>>> r.games, r.players, len(r.ci95)
(40, ('first', 'random'), 2)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from . import _core, records
from ._data import RowTable
from ._html import arena_html
from ._plot import plot_arena
from ._util import Progress, bool_arg, int_arg
from .bots import Bot

__all__ = ["ArenaResult", "arena", "wilson"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a rate ``p`` observed over ``n`` trials (95 % by default):
    ``(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)``, clipped to 0..1; ``(0, 1)`` for
    ``n = 0``. Unlike the normal approximation it stays inside 0..1 and is good for rates near 0
    or 1 and small ``n``.

    >>> [round(x, 4) for x in wilson(0.8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return (0.0, 1.0)
    z2 = z * z
    center = p + z2 / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    d = 1 + z2 / n
    return (max(0.0, (center - margin) / d), min(1.0, (center + margin) / d))


@dataclass(frozen=True)
class ArenaResult(RowTable):
    """The counts of an arena run and the statistics derived from them.

    The counts: ``players`` (names, in the order given), ``games``, ``wins`` (games each player's
    side won), ``draws``, ``deals`` (begun, over all games), ``points`` (``(source, per-player
    total)`` pairs in the game's point-source order), ``seconds`` (wall time), ``game`` (the
    kind: ``"cribbage"`` or ``"piquet"``) and ``setup``, the ``repr`` of the ``Game`` played
    (variant, target, lurch; rule set, scope…), which :meth:`combine` compares.

    Derived: a player's *score* is its wins plus an equal share of the draws (half of each in a
    two-player game); ``win_rate`` is score / games; ``ci95`` is the 95 % Wilson score interval
    of each win rate (over ``games`` trials); ``elo`` is player 0's rating minus
    player 1's under the logistic model, ``400 · log10(score0 / score1)`` (for two players
    ``−400 · log10(1/p − 1)`` with ``p`` player 0's win rate), a score of 0 counted as half a
    game so the value stays finite; ``points_by_source`` is each player's side's mean points per
    deal by source; ``games_per_second`` is ``games / seconds``.

    :meth:`to_pandas` / :meth:`to_polars`: one row per player (wins, win rate, its interval,
    points per deal by source).
    """

    game: str
    players: tuple[str, ...]
    games: int
    wins: tuple[int, ...]
    draws: int
    deals: int
    points: tuple[tuple[str, tuple[int, ...]], ...]
    seconds: float
    setup: str = ""

    def _repr_html_(self) -> str:
        return arena_html(self)

    def to_dict(self) -> dict[str, Any]:
        """The counts and every derived statistic as plain JSON-able Python."""
        return {
            "game": self.game, "setup": self.setup, "players": list(self.players), "games": self.games, "wins": list(self.wins),
            "draws": self.draws, "deals": self.deals, "points": {k: list(v) for k, v in self.points},
            "seconds": self.seconds, "win_rate": list(self.win_rate), "ci95": [list(c) for c in self.ci95],
            "elo": self.elo, "points_by_source": {k: list(v) for k, v in self.points_by_source.items()},
        }  # fmt: skip

    def _frame_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k, name in enumerate(self.players):
            row: dict[str, Any] = {"player": name, "wins": self.wins[k], "win_rate": self.win_rate[k],
                                   "ci95_low": self.ci95[k][0], "ci95_high": self.ci95[k][1]}  # fmt: skip
            row.update({f"points_{src}": per[k] for src, per in self.points_by_source.items()})
            rows.append(row)
        return rows

    def plot(self) -> Any:
        """A matplotlib ``Figure``: each player's win rate with its 95 % Wilson interval (the
        line at an even share), and each player's points per deal by source. Needs ``pip
        install 'cribpiquet[plot]'``."""
        return plot_arena(self)

    @classmethod
    def _from_counts(cls, raw: dict[str, Any], setup: str = "") -> ArenaResult:
        return cls(
            game=str(raw["game"]),
            players=tuple(raw["players"]),
            games=int(raw["games"]),
            wins=tuple(int(w) for w in raw["wins"]),
            draws=int(raw["draws"]),
            deals=int(raw["deals"]),
            points=tuple((str(k), tuple(int(x) for x in v)) for k, v in raw["points"].items()),
            seconds=float(raw["seconds"]),
            setup=setup,
        )

    @property
    def scores(self) -> tuple[float, ...]:
        """Each player's wins plus its share of the draws."""
        share = self.draws / max(len(self.players), 1)
        return tuple(w + share for w in self.wins)

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Each player's score / games (draws count as half in a two-player game)."""
        if self.games == 0:
            return tuple(0.0 for _ in self.players)
        return tuple(s / self.games for s in self.scores)

    @property
    def ci95(self) -> tuple[tuple[float, float], ...]:
        """The 95 % Wilson score interval of each player's win rate."""
        return tuple(wilson(p, self.games) for p in self.win_rate)

    @property
    def elo(self) -> float:
        """Player 0's Elo rating minus player 1's: ``400 · log10(score0 / score1)`` (a score of 0
        counts as 0.5); 0 with no games."""
        if self.games == 0 or len(self.players) < 2:
            return 0.0
        s0, s1 = (max(s, 0.5) for s in self.scores[:2])
        return 400 * math.log10(s0 / s1)

    @property
    def points_by_source(self) -> dict[str, tuple[float, ...]]:
        """``{source: mean points per deal of each player's side}``."""
        deals = max(self.deals, 1)
        return {k: tuple(x / deals for x in v) for k, v in self.points}

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else math.inf

    @classmethod
    def combine(cls, results: Iterable[ArenaResult]) -> ArenaResult:
        """The result of disjoint runs (e.g. ranges split by ``first_game``) taken together: the
        counts and seconds are added and every statistic recomputed, so the parts of one range
        combine to the result of the whole range (but for ``seconds``).

        >>> from cribpiquet import ArenaResult, arena, cribbage
        >>> g = cribbage.Game("five-card")
        >>> parts = [arena(g, ["first", "random"], 10, first_game=k * 10, progress=False) for k in range(3)]
        >>> ArenaResult.combine(parts).wins == arena(g, ["first", "random"], 30, progress=False).wins
        True
        """
        parts = []  # read item by item (a lying __len__ is not trusted; garbage stops the read at once)
        for r in results:
            if not isinstance(r, ArenaResult):
                raise TypeError(f"combine needs ArenaResult values, got {type(r).__name__}")
            parts.append(r)
        results = parts
        if not results:
            raise ValueError("combine needs at least one ArenaResult")
        first = results[0]
        sources = [k for k, _ in first.points]
        for r in results[1:]:
            if r.game != first.game or r.setup != first.setup:
                raise ValueError(f"cannot combine results of different games: {_difference(first, r)}")
            if r.players != first.players or [k for k, _ in r.points] != sources:
                raise ValueError(
                    f"cannot combine results of different matches: {first.game} {first.players} "
                    f"and {r.game} {r.players}"
                )
        n = len(first.players)
        return cls(
            game=first.game,
            players=first.players,
            games=sum(r.games for r in results),
            wins=tuple(sum(r.wins[k] for r in results) for k in range(n)),
            draws=sum(r.draws for r in results),
            deals=sum(r.deals for r in results),
            points=tuple(
                (src, tuple(sum(dict(r.points)[src][k] for r in results) for k in range(n))) for src in sources
            ),
            seconds=sum(r.seconds for r in results),
            setup=first.setup,
        )

    def __repr__(self) -> str:
        rates = ", ".join(f"{p:.3f}" for p in self.win_rate)
        return (
            f"ArenaResult({self.game}, players={self.players}, games={self.games}, "
            f"win_rate=({rates}), elo={self.elo:+.0f})"
        )

    def __str__(self) -> str:
        width = max(12, *(len(p) for p in self.players), *(len(k) for k, _ in self.points))
        lines = [f"{self.game}: {self.games:,} games, {self.games_per_second:,.1f} games/s, seats rotated"]
        lines.append(f"{'player':<{width}}  {'wins':>7}  {'win rate':>8}  {'95% interval (Wilson)':>21}")
        for name, w, p, (lo, hi) in zip(self.players, self.wins, self.win_rate, self.ci95):
            lines.append(f"{name:<{width}}  {w:>7}  {p:>8.3f}  {f'{lo:.3f} .. {hi:.3f}':>21}")
        if self.draws:
            lines.append(f"draws: {self.draws} (half to each)")
        if len(self.players) >= 2:
            lines.append(f"elo ({self.players[0]} − {self.players[1]}): {self.elo:+.0f}")
        lines.append("points per deal by source: " + ", ".join(self.players))
        for src, per in self.points_by_source.items():
            lines.append(f"  {src:<{width}}" + "".join(f"  {x:>7.2f}" for x in per))
        return "\n".join(lines)


def _difference(a: ArenaResult, b: ArenaResult) -> str:
    """What differs between two results' games, in a few words: the settings that are not the
    same (``target=31 and target=121``), then the two descriptions."""
    if a.game != b.game:
        return f"{a.game} and {b.game}"
    ta, tb = (re.findall(r"[^\s(),]+(?:\(\))?", x) for x in (a.setup, b.setup))
    only_a = " ".join(t for t in ta if t not in tb)[:80]
    only_b = " ".join(t for t in tb if t not in ta)[:80]
    both = f"{a.setup[:80] or 'no description'} and {b.setup[:80] or 'no description'}"
    if not only_a and not only_b:
        return both
    return f"{only_a or '(not set)'} against {only_b or '(not set)'} ({both})"


_Player = Union[str, Bot]


def arena(
    game: Any,
    players: Sequence[_Player],
    n_games: int,
    *,
    seed: int = 0,
    threads: Optional[int] = None,
    progress: bool = True,
    first_game: int = 0,
    record: Optional[str] = None,
    max_records: int = 1000,
) -> ArenaResult:
    """Play ``n_games`` games of ``game`` (a cribbage or piquet ``Game``) between ``players``
    (one per seat: bot objects of :mod:`cribpiquet.bots` or names — ``"random"``, ``"first"``,
    ``"ismcts"``, ``"ismcts:N"`` …) and return an :class:`ArenaResult`.

    Game ``i`` (``first_game .. first_game + n_games``) is ``simulate``'s game ``i`` of ``seed``
    with the seats rotated by ``i`` (player ``k`` sits at seat ``(k + i) mod n``), and each seat
    gets a fresh copy of its bot drawing from the game's generator, so a run is deterministic for
    a seed whatever ``threads`` (``None``: every core), and ranges split by ``first_game``
    combine (:meth:`ArenaResult.combine`) to the whole. The games run in Rust in parallel with the
    interpreter released, in blocks of about a quarter of a second (at least one game per
    thread); Ctrl-C stops the run within a fraction of a second, inside a game too. With
    ``progress``, a bar is drawn on stderr when it is a terminal and the run lasts over a second.

    ``record`` (a path) writes games ``first_game .. first_game + max_records`` (``max_records``
    defaults to 1000) to that file as game records after the run (:mod:`cribpiquet.records`),
    each header naming the player at each seat (the seats rotate) and the game's index; their
    actions are kept in Rust as they are played, in memory bounded by ``max_records``. Replay one
    with ``cribpiquet replay FILE --game N``. An interrupted run writes no records.
    """
    progress = bool_arg(progress, "progress")
    bar = Progress(int(n_games), "arena", "game", delay=1.0) if progress else None
    callback: Optional[Callable[[int], None]] = bar
    path = records._writable_path(record) if record is not None else None
    extra = {"max_records": int_arg(max_records, "max_records", 0)} if path is not None else {}
    try:
        raw = _core.arena_run(
            game, players, n_games, seed=seed, threads=threads, first_game=first_game, progress=callback, **extra
        )
    finally:
        if bar is not None:
            bar.close()
    if path is not None:
        names = tuple(raw["players"])
        n = len(names)
        records._write_run(path, game, raw.pop("records", ()), source="arena", seed=seed,
                           players=lambda i: tuple(names[(s - i) % n] for s in range(n)))  # fmt: skip
    return ArenaResult._from_counts(raw, repr(game))
