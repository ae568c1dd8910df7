"""Piquet exchange analysis: :func:`analyze_exchange` (re-exported by :mod:`cribpiquet.piquet`).

The exact part and the Monte Carlo samples are computed in Rust (``rust/piquet/exchange.rs``);
this module runs the samples in ranges (for a progress bar and Ctrl-C), adds them up and turns
the counts into probabilities with standard errors.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

import numpy as np

from . import _core, _html
from ._data import RowTable, plain
from ._display import cards_text
from ._plot import require_matplotlib
from ._util import Progress, bool_arg, on_a_terminal
from ._util import int_arg as _int_arg

Card = _core.PiquetCard

#: Samples per call into the core (any split gives the same counts).
_CHUNK = 2048
#: The most Monte Carlo samples one call takes (about an hour of work).
MAX_SAMPLES = 10_000_000


class Estimate(NamedTuple):
    """A Monte Carlo estimate and its standard error.

    >>> str(Estimate(0.5, 0.01))
    '0.500 ± 0.010'
    >>> Estimate(0.48437514, 0.011216389012345678)
    Estimate(value=0.484, se=0.011)

    The repr shows the standard error to two significant digits and the value to the same
    decimal place (the digits the estimate supports); the fields keep full precision.
    """

    value: float
    se: float

    def __str__(self) -> str:
        return f"{self.value:.3f} ± {self.se:.3f}"

    def __repr__(self) -> str:
        se, value = float(self.se), float(self.value)
        if se > 0 and math.isfinite(se) and math.isfinite(value):
            places = max(0, 1 - math.floor(math.log10(se)))
            return f"Estimate(value={value:.{places}f}, se={se:.{places}f})"
        return f"Estimate(value={value:.6g}, se={se:.6g})"


@dataclass(frozen=True)
class ExchangeRow:
    """One discard of an :class:`ExchangeAnalysis`.

    The exact fields are over every draw of ``len(discard)`` cards from the 20 unseen cards, for
    the hand after the exchange, as if each of its declarations were good: ``expected_point``
    (the point scores its length), ``expected_sequence`` (all sequences), ``expected_sets``,
    ``carte_blanche`` (10 or 0, judged on the dealt hand), ``expected_total`` (their sum);
    ``point_length[n]``, ``sequence_length[n]`` (0: none) and ``set_size[n]`` (0 none, 3, 4) the
    probability of each size; ``total_30`` the probability of holding 30 or more; ``draws`` the
    number of draws.

    The Monte Carlo fields (``None`` when ``samples`` is 0) are :class:`Estimate` values against
    the opponent: ``point_win`` / ``point_loss`` (the rest: equal), the same for ``sequences`` and
    ``sets``, ``repique`` (mine) and ``repiqued`` (the opponent's), ``pique`` (a pique elder is
    sure of before the play; mine as elder, ``piqued`` the opponent's as the dealer's),
    ``points`` (my mean declaration points scored, repique included), ``net`` (mine minus the
    opponent's) and ``mc_total`` (the mean total held, which estimates ``expected_total``).
    """

    discard: tuple[Any, ...]
    kept: tuple[Any, ...]
    expected_point: float
    expected_sequence: float
    expected_sets: float
    carte_blanche: int
    expected_total: float
    point_length: tuple[float, ...]
    sequence_length: tuple[float, ...]
    set_size: tuple[float, ...]
    total_30: float
    draws: int
    samples: int = 0
    point_win: Optional[Estimate] = None
    point_loss: Optional[Estimate] = None
    sequences_win: Optional[Estimate] = None
    sequences_loss: Optional[Estimate] = None
    sets_win: Optional[Estimate] = None
    sets_loss: Optional[Estimate] = None
    repique: Optional[Estimate] = None
    repiqued: Optional[Estimate] = None
    pique: Optional[Estimate] = None
    piqued: Optional[Estimate] = None
    points: Optional[Estimate] = None
    net: Optional[Estimate] = None
    mc_total: Optional[Estimate] = None

    def discard_text(self) -> str:
        """The discard as text (``"7C 8C 7D"``, by suit then rank as the hand is held; ``"-"``
        for declining)."""
        return _discard_text(self, False, False)


@dataclass(frozen=True)
class ExchangeAnalysis(RowTable):
    """Every legal exchange of a dealt piquet hand (:func:`analyze_exchange`), best
    ``expected_total`` first.

    ``rows`` (a tuple of :class:`ExchangeRow`), ``best`` (the first row), ``row(discard)`` (the
    row of a discard), ``sorted_rows(key)`` (best first by another field, e.g. ``"net"``),
    ``str()`` (the best 20 as an aligned table), ``table(limit)``, ``plot()``, and
    ``to_pandas()`` / ``to_polars()``: the rows as a data frame, one column per number, an
    estimate as ``name`` and ``name_se`` (the distributions are left out: see :meth:`to_dict`).
    """

    hand: tuple[Any, ...]
    role: str
    rules: Any
    samples: int
    seed: int
    opponent: str
    rows: tuple[ExchangeRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain JSON-able Python: the hand, the role, the rules' name, the Monte
        Carlo settings and one dict per row (cards as text, estimates as ``[value, se]``)."""
        return {"hand": plain(self.hand), "role": self.role, "rules": repr(self.rules), "samples": self.samples,
                "seed": self.seed, "opponent": self.opponent, "rows": [_row_dict(r) for r in self.rows]}  # fmt: skip

    def _frame_rows(self) -> list[dict[str, Any]]:
        rows = []
        for r in self.to_dict()["rows"]:
            flat = {k: v for k, v in r.items() if not isinstance(v, list) or k in ("discard", "kept")}
            flat["discard"], flat["kept"] = " ".join(r["discard"]), " ".join(r["kept"])
            for k, v in r.items():
                if isinstance(v, list) and len(v) == 2 and k not in ("discard", "kept") and k in _ESTIMATES:
                    flat[k], flat[k + "_se"] = v
            rows.append(flat)
        return rows

    @property
    def best(self) -> ExchangeRow:
        """The row with the highest ``expected_total``."""
        return self.rows[0]

    def row(self, discard: Any) -> ExchangeRow:
        """The row of ``discard`` (cards in any form; ``[]`` for declining); ValueError if that
        discard is not legal here."""
        wanted = frozenset(int(c) for c in _core.piquet_parse_cards(discard))
        for r in self.rows:
            if frozenset(int(c) for c in r.discard) == wanted:
                return r
        raise ValueError(f"{' '.join(str(Card(i)) for i in sorted(wanted)) or 'declining'} is not a legal "
                         f"exchange for {self.role} here")

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def recommended_sort(self) -> str:
        """The measure to choose an exchange by: ``"net"`` (the Monte Carlo mean declaration
        points minus the opponent's: the guide's recommendation, and ``cribpiquet piquet
        exchange``'s order) when the analysis has samples, else ``"expected_total"``. The
        notebook's table is sorted by it and says so."""
        return "net" if self.samples > 0 else "expected_total"

    def _repr_html_(self) -> str:
        return _html.exchange_html(self, key=self.recommended_sort)

    def sorted_rows(self, key: str = "expected_total") -> list[ExchangeRow]:
        """The rows best first by another field: a number (``"expected_point"``, ``"total_30"``…)
        or a Monte Carlo estimate (``"net"``, ``"point_win"``…; rows without one last). Ties keep
        the order of ``rows``.

        >>> a = analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", samples=0)
        >>> a.sorted_rows("expected_point")[0].discard_text()
        '7C 8C QS KS AS'
        """
        if not isinstance(key, str):
            raise TypeError(f"key must be a str, got {type(key).__name__}")
        if key not in SORT_KEYS:
            raise ValueError(f"cannot sort exchange rows by {key[:40]!r}: choose one of {', '.join(SORT_KEYS)}")

        def value(r: ExchangeRow) -> float:
            v = getattr(r, key)
            if v is None:
                return -math.inf
            return float(v.value if isinstance(v, Estimate) else v)

        return sorted(self.rows, key=value, reverse=True)

    def table(self, limit: Optional[int] = 20) -> str:
        """The rows as an aligned text table (the best ``limit``; ``None``: all). With samples, the
        Monte Carlo columns: the chances of winning the point, sequences and sets, of a repique
        and a pique, and ``net`` (mean declaration points minus the opponent's, ± its standard
        error)."""
        return self._table(limit)

    def _table(self, limit: Optional[int] = 20, sort: str = "expected_total", symbols: bool = False,
               colour: bool = False) -> str:
        """:meth:`table` in the order of ``sort`` (a :meth:`sorted_rows` key), the cards with suit
        symbols with ``symbols``, red suits coloured with ``colour`` (the CLI's table)."""
        if limit is not None:
            limit = _int_arg(limit, "limit", 0)
        rows = self.rows if sort == "expected_total" else tuple(self.sorted_rows(sort))
        mc = self.samples > 0
        shown = rows if limit is None else rows[:limit]
        width = max([len(_discard_text(r, symbols, False)) for r in shown] + [7])
        head = f"{'#':>4}  {'discard':<{width}}  {'point':>6} {'seq':>6} {'sets':>6} {'total':>7} {'P30+':>6}"
        if mc:
            pique = "pique" if self.role == "elder" else "piqued"
            head += f"  {'win pt':>6} {'win sq':>6} {'win st':>6} {'repiq':>6} {pique:>6} {'net':>13}"
        title = self._title(symbols, colour)
        if sort != "expected_total":
            title += f"; sorted by {sort}"
        lines = [title, head]
        for i, r in enumerate(shown, 1):
            text = _discard_text(r, symbols, colour) + " " * (width - len(_discard_text(r, symbols, False)))
            line = (f"{i:>4}  {text}  {r.expected_point:>6.3f} {r.expected_sequence:>6.3f} "
                    f"{r.expected_sets:>6.3f} {r.expected_total:>7.3f} {r.total_30:>6.3f}")
            if mc:
                line += "  " + _mc_cells(r, self.role)
            lines.append(line)
        if len(shown) < len(self.rows):
            lines.append(f"… {len(self.rows) - len(shown)} more")
        return "\n".join(lines)

    def _title(self, symbols: bool = False, colour: bool = False) -> str:
        hand = " ".join(str(c) for c in self.hand)
        if symbols or colour:
            hand = cards_text(self.hand, symbols=symbols, colour=colour, sort=False)
        text = f"{self.role} {hand}: {len(self.rows)} exchanges, exact over every draw"
        if self.samples:
            text += (f"; Monte Carlo {self.samples:,} samples (seed {self.seed}) against an opponent who "
                     f"{'exchanges for its best expected total' if self.opponent == 'best' else 'keeps its hand'}")
        return text

    def __str__(self) -> str:
        return self.table(20)

    def __repr__(self) -> str:
        best = self.rows[0]
        return (f"ExchangeAnalysis(role={self.role!r}, rows={len(self.rows)}, samples={self.samples}, "
                f"best={best.discard_text()!r} {best.expected_total:.3f})")

    def plot(self, top: int = 12) -> Any:
        """A matplotlib figure of the best ``top`` discards: stacked bars of the expected point,
        sequences, sets and carte blanche, and (with samples) the chances of winning each
        category and of a repique with 95% intervals, and the net (mean declaration points minus
        the opponent's) beside each bar. Legends sit below the bars. Needs ``pip install
        'cribpiquet[plot]'``."""
        return self._plot(top)

    def _plot(self, top: int = 12, sort: str = "expected_total") -> Any:
        """:meth:`plot` of the first ``top`` rows in the order of ``sort`` (the CLI's picture)."""
        top = _int_arg(top, "top", 1)
        ordered = self.rows if sort == "expected_total" else tuple(self.sorted_rows(sort))
        require_matplotlib()
        import matplotlib.pyplot as plt

        rows = list(ordered[:top])[::-1]
        labels = [r.discard_text() for r in rows]
        y = np.arange(len(rows))
        mc = self.samples > 0
        fig, axes = plt.subplots(1, 2 if mc else 1, figsize=(12 if mc else 7, 0.45 * len(rows) + 1.6),
                                 sharey=True, squeeze=False)
        ax = axes[0][0]
        left = np.zeros(len(rows))
        parts = [("point", [r.expected_point for r in rows]), ("sequences", [r.expected_sequence for r in rows]),
                 ("sets", [r.expected_sets for r in rows]), ("carte blanche", [float(r.carte_blanche) for r in rows])]
        for name, values in parts:
            if any(values):
                ax.barh(y, values, left=left, label=name)
                left += np.asarray(values)
        ax.set_yticks(y, labels)
        ax.set_xlabel("expected points held after the exchange")
        order = "" if sort == "expected_total" else f", by {sort}"
        ax.set_title(f"{self.role}: first {len(rows)} of {len(self.rows)} exchanges{order}")
        if mc:
            for yi, r in zip(y, rows):
                if r.net is not None:
                    ax.annotate(f"net {r.net.value:+.1f}", (left[yi], yi), xytext=(4, 0),
                                textcoords="offset points", va="center", fontsize="x-small")
            ax.set_xlim(0, max(left.max(), 1.0) * 1.25)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, fontsize="small", frameon=False)
        if mc:
            ax2 = axes[0][1]
            cats = [("point", "point_win"), ("sequences", "sequences_win"), ("sets", "sets_win"),
                    ("repique", "repique")]
            h = 0.8 / len(cats)
            for k, (name, attr) in enumerate(cats):
                ests = [getattr(r, attr) for r in rows]
                vals = [e.value if e else np.nan for e in ests]
                errs = [1.96 * e.se if e else 0.0 for e in ests]
                ax2.barh(y + (k - (len(cats) - 1) / 2) * h, vals, height=h, xerr=errs, label=name)
            ax2.set_xlim(0, 1)
            ax2.set_xlabel(f"P(win) against the opponent ({self.samples:,} samples, 95% intervals)")
            ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, fontsize="small", frameon=False)
        fig.tight_layout()
        return fig


#: The fields :meth:`ExchangeAnalysis.sorted_rows` sorts by: the numbers and the estimates.
SORT_KEYS = ("expected_total", "expected_point", "expected_sequence", "expected_sets", "carte_blanche",
             "total_30", "net", "points", "mc_total", "point_win", "point_loss", "sequences_win", "sequences_loss",
             "sets_win", "sets_loss", "repique", "repiqued", "pique", "piqued", "samples", "draws")


def _discard_text(r: ExchangeRow, symbols: bool, colour: bool) -> str:
    if not symbols and not colour:
        return " ".join(str(c) for c in r.discard) or "-"
    return cards_text(r.discard, symbols=symbols, colour=colour, sort=False)


_ESTIMATES = ("point_win", "point_loss", "sequences_win", "sequences_loss", "sets_win", "sets_loss", "repique",
              "repiqued", "pique", "piqued", "points", "net", "mc_total")  # fmt: skip


def _row_dict(r: ExchangeRow) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        out[f.name] = [v.value, v.se] if isinstance(v, Estimate) else plain(v)
    return out


def _mc_cells(r: ExchangeRow, role: str) -> str:
    def p(e: Optional[Estimate]) -> str:
        return f"{e.value:>6.3f}" if e is not None else f"{'-':>6}"

    pique = r.pique if role == "elder" else r.piqued
    net = f"{r.net.value:+.2f}±{r.net.se:.2f}" if r.net is not None else "-"
    return f"{p(r.point_win)} {p(r.sequences_win)} {p(r.sets_win)} {p(r.repique)} {p(pique)} {net:>13}"


def _cards(mask: int) -> tuple[Any, ...]:
    return tuple(Card(i) for i in range(32) if mask >> i & 1)


def _prop(count: Any, n: int) -> Estimate:
    p = float(count) / n
    return Estimate(p, math.sqrt(max(p * (1.0 - p), 0.0) / n))


def _mean(s: float, sq: float, n: int) -> Estimate:
    m = float(s) / n
    var = (sq - n * m * m) / (n - 1) if n > 1 else 0.0
    return Estimate(m, math.sqrt(max(var, 0.0) / n))


def _monte_carlo(hand: Any, role: str, rules: Any, max_discard: Optional[int], opponent: str, samples: int,
                 seed: int, progress: Optional[bool]) -> dict[str, np.ndarray]:
    show = (samples >= 4 * _CHUNK and on_a_terminal()) if progress is None else progress
    total: dict[str, np.ndarray] = {}
    with Progress(samples, "exchange", "sample", show=show) as bar:
        for start in range(0, samples, _CHUNK):
            n = min(_CHUNK, samples - start)
            part = _core.piquet_exchange_monte_carlo(hand, role=role, rules=rules, max_discard=max_discard,
                                                     opponent=opponent, first_sample=start, samples=n, seed=seed)
            if not total:
                total = part
            else:
                for key, value in part.items():
                    if key != "discard":
                        total[key] = total[key] + value
            bar.update(n)
    return total


def analyze_exchange(hand: Any, *, role: str = "elder", rules: Any = None, samples: int = 20_000, seed: int = 0,
                     max_discard: Optional[int] = None, opponent: str = "best",
                     progress: Optional[bool] = None) -> ExchangeAnalysis:
    """Every legal exchange of the 12 cards dealt to ``role`` (``"elder"`` or ``"dealer"``),
    exactly over every draw, then by seeded Monte Carlo against an opponent.

    Legal exchanges follow the rules' talon (``docs/rules/piquet.md`` §2): russian elder none or
    3 to 5, the dealer none or 3 up to what elder left; rubicon elder 1 to 5, the dealer none or
    1 up to all that is left. ``max_discard`` is the number of talon cards available (``None``:
    elder 5, the dealer everything elder can leave; the engine's exchange knows what is left).
    Every draw of ``k`` cards from the 20 unseen cards is equally likely.

    ``samples > 0`` adds the Monte Carlo part: each sample deals the opponent a random hand of the
    unseen cards and orders the rest as the talon; the opponent then exchanges
    (``opponent="best"``: for its own best expected total, estimated on sampled draws — the
    exact routine is too slow to run per sample; ``"keep"``: it never exchanges) and the
    declarations are compared (carte blanche on the dealt hands). Sample ``i`` depends only on
    ``(seed, i)``. As the dealer, a discard of ``k`` is judged only over the samples in which elder
    left at least ``k`` cards (``row.samples``), unless ``max_discard`` says what he left.
    ``progress``: a tqdm bar on stderr (``None``: when it is a terminal and the run is long; no
    bar without tqdm). At most ``MAX_SAMPLES`` (10 million) samples; 20,000 take a few seconds.

    >>> a = analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", samples=0)
    >>> len(a), a.best.discard_text(), round(a.best.expected_total, 3)
    (1508, '7C 8C 7D 8D TH', 39.789)
    >>> keep = a.row([])
    >>> keep.expected_total, keep.point_length[5]
    (33.0, 1.0)
    """
    samples = _int_arg(samples, "samples", 0, MAX_SAMPLES)
    seed = _int_arg(seed, "seed", -(2**63), 2**64 - 1)
    progress = bool_arg(progress, "progress", none=True)
    if not isinstance(role, str):
        raise TypeError(f"role must be \"elder\" or \"dealer\", got {type(role).__name__}")
    if not isinstance(opponent, str):
        raise TypeError(f"opponent must be \"best\" or \"keep\", got {type(opponent).__name__}")
    if opponent not in ("best", "keep"):
        raise ValueError(f"unknown opponent {opponent[:40]!r} (expected \"best\" or \"keep\")")
    # Read the hand once (it may be a one-shot iterator), checked as a 12-card hand.
    hand_cards = tuple(sorted(_core.piquet_declarations(hand).hand, key=int))
    if samples:  # every check of the Monte Carlo part (the opponent's rules) before any long part
        _core.piquet_exchange_monte_carlo(hand_cards, role=role, rules=rules, max_discard=max_discard,
                                          opponent=opponent, samples=0)
    exact = _core.piquet_exact_exchange(hand_cards, role=role, rules=rules, max_discard=max_discard)
    hand_mask = int(exact["hand"])
    if not isinstance(rules, _core.PiquetRules):  # accepted above: None or a rule set's name
        rules = _core.PiquetRules.russian() if rules is None else getattr(_core.PiquetRules, str(rules))()
    mc: dict[str, np.ndarray] = {}
    if samples:
        mc = _monte_carlo(hand_cards, role, rules, max_discard, opponent, samples, seed, progress)
    where = {int(m): i for i, m in enumerate(mc["discard"])} if mc else {}
    rows = []
    for i, mask in enumerate(exact["discard"]):
        mask = int(mask)
        fields: dict[str, Any] = dict(
            discard=_cards(mask), kept=_cards(hand_mask & ~mask),
            expected_point=float(exact["expected_point"][i]),
            expected_sequence=float(exact["expected_sequence"][i]),
            expected_sets=float(exact["expected_sets"][i]),
            carte_blanche=int(exact["carte_blanche"][i]),
            expected_total=float(exact["expected_total"][i]),
            point_length=tuple(float(x) for x in exact["point_length"][i]),
            sequence_length=tuple(float(x) for x in exact["sequence_length"][i]),
            set_size=tuple(float(x) for x in exact["set_size"][i]),
            total_30=float(exact["total_30"][i]), draws=int(exact["draws"][i]))
        j = where.get(mask)
        n = int(mc["samples"][j]) if j is not None else 0
        if n:
            fields.update(samples=n,
                          point_win=_prop(mc["point"][j, 0], n), point_loss=_prop(mc["point"][j, 1], n),
                          sequences_win=_prop(mc["sequences"][j, 0], n),
                          sequences_loss=_prop(mc["sequences"][j, 1], n),
                          sets_win=_prop(mc["sets"][j, 0], n), sets_loss=_prop(mc["sets"][j, 1], n),
                          repique=_prop(mc["repique"][j, 0], n), repiqued=_prop(mc["repique"][j, 1], n),
                          pique=_prop(mc["pique"][j, 0], n), piqued=_prop(mc["pique"][j, 1], n),
                          points=_mean(float(mc["points"][j, 0]), float(mc["points"][j, 1]), n),
                          net=_mean(float(mc["net"][j, 0]), float(mc["net"][j, 1]), n),
                          mc_total=_mean(float(mc["total"][j, 0]), float(mc["total"][j, 1]), n))
        rows.append(ExchangeRow(**fields))
    return ExchangeAnalysis(hand=hand_cards, role=role, rules=rules, samples=samples, seed=seed,
                            opponent=opponent, rows=tuple(rows))

