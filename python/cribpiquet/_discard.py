"""Cribbage discard analysis and equilibrium discard tables (the Python side of ``cribbage``).

The computations are in Rust (``rust/cribbage/discard.rs``, ``discard_tables.rs``); this module
holds the result class :class:`DiscardAnalysis`, the text table, the pictures and the progress
bar.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Union

import numpy as np

from . import _core
from ._util import Progress, bool_arg, clip, float_arg, int_arg, is_bool, on_a_terminal, path_arg, short_path, str_arg
from . import _html
from ._data import RowTable, plain, record_dict
from ._display import cards_text
from ._ids import id_arrays
from ._plot import require_matplotlib

Card = _core.CribbageCard
DiscardRow = _core.CribbageDiscardRow
DiscardTables = _core.CribbageDiscardTables

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

#: A :class:`DiscardRow`'s fields in one order, the order of its repr and of the analysis'
#: table (keep, throw, hand, min, max, crib, heels, net): ``to_dict`` and the data frames give
#: them so too, not alphabetically (``hand_max`` before ``hand_min``).
ROW_FIELDS = ("kept", "thrown", "hand", "hand_min", "hand_max", "crib", "heels", "net", "hand_distribution")

Opponent = Union[str, "DiscardTables"]


def _opponent(opponent: Any) -> Any:
    """``None`` for the uniform opponent, else the tables (checked)."""
    if isinstance(opponent, DiscardTables):
        return opponent
    if isinstance(opponent, str):
        if opponent == "uniform":
            return None
        raise ValueError(f"opponent must be 'uniform' or a DiscardTables, got {opponent[:80]!r}")
    raise TypeError(f"opponent must be 'uniform' or a DiscardTables, got {type(opponent).__name__}")


def _cards(cards: Iterable[Any]) -> str:
    """Cards by rank then suit, as the CLI and ``play`` show them (``5D 5H JC QS``)."""
    return cards_text(cards, symbols=False)


@dataclass(frozen=True)
class DiscardAnalysis(RowTable):
    """Every discard of a two-player cribbage hand, best first (see :func:`analyze_discard`).

    ``rows`` is a list of :class:`DiscardRow`; ``str()`` prints them as an aligned table,
    :meth:`plot` draws them, and :meth:`to_pandas` / :meth:`to_polars` give them as a data frame
    (a row per discard, cards as text).
    """

    hand: tuple[Card, ...]
    dealer: bool
    variant: str
    opponent: Any
    rows: list[DiscardRow]

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain JSON-able Python: the hand, the role, the variant, the opponent
        model and one dict per row (cards as text)."""
        opp = self.opponent if isinstance(self.opponent, str) else plain(self.opponent)
        return {"hand": plain(self.hand), "dealer": self.dealer, "variant": self.variant, "opponent": opp,
                "rows": [record_dict(r, ROW_FIELDS) for r in self.rows]}  # fmt: skip

    def _repr_html_(self) -> str:
        return _html.discard_analysis_html(self)

    def _frame_rows(self) -> list[dict[str, Any]]:
        rows = self.to_dict()["rows"]
        for r in rows:
            r["kept"], r["thrown"] = " ".join(r["kept"]), " ".join(r["thrown"])
            del r["hand_distribution"]
        return rows

    @property
    def best(self) -> DiscardRow:
        """The best discard (the first row)."""
        return self.rows[0]

    def __str__(self) -> str:
        role = "dealer (own crib)" if self.dealer else "pone (opponent's crib)"
        opp = "uniform" if self.opponent == "uniform" else repr(self.opponent)
        kept_w = max(len("keep"), *(len(_cards(r.kept)) for r in self.rows))
        head = (f"{self.variant}, {role}: {_cards(self.hand)}; opponent's throws: {opp}\n"
                f"{'keep':<{kept_w}}  {'throw':<5}  {'hand':>6}  {'min':>3}  {'max':>3}  {'crib':>6}  {'heels':>5}  {'net':>7}")
        lines = [head]
        for r in self.rows:
            lines.append(f"{_cards(r.kept):<{kept_w}}  {_cards(r.thrown):<5}  {r.hand:>6.3f}  {r.hand_min:>3}  "
                         f"{r.hand_max:>3}  {r.crib:>6.3f}  {r.heels:>5.3f}  {r.net:>7.3f}")
        return "\n".join(lines)

    def plot(self, ax: Any = None) -> Any:
        """Stacked bars of the expected hand and crib per discard (best on the left), the net as
        a dot: a matplotlib ``Figure`` (needs ``pip install 'cribpiquet[plot]'``). For pone the
        crib, which goes to the opponent, hangs below zero."""
        return plot_analysis(self, ax)


def analyze_discard(hand: Any, *, dealer: bool, variant: str = "six-card", opponent: Opponent = "uniform") -> DiscardAnalysis:
    """Every discard of a two-player hand, with exact expectations, best first.

    ``hand``: 6 cards (``variant="six-card"``) or 5 (``"five-card"``, the Russian source's game,
    where each player throws 2 of 5 and keeps 3). For each discard: the cards kept and thrown;
    the expected hand over every unseen starter (with its min, max and distribution); the
    expected crib over every starter and every pair the opponent can throw from the unseen
    cards (``opponent="uniform"``: every pair alike; or a :class:`DiscardTables`: pairs weighted
    by how often the opponent's role throws their kind in those tables' equilibrium); the
    dealer's expected heels; and ``net`` = hand + crib + heels for the dealer, hand − crib −
    heels for pone. Rows are sorted by net, then hand (highest first), then the thrown cards.

    >>> a = analyze_discard("5H 5D 5S JC 2C 9H", dealer=True)
    >>> a.best.kept, a.best.thrown
    ((Card('JC'), Card('5D'), Card('5H'), Card('5S')), (Card('2C'), Card('9H')))
    >>> round(a.best.hand, 4), a.best.hand_min, a.best.hand_max
    (16.6304, 14, 29)
    """
    str_arg(variant, "variant")
    rows = _core.cribbage_analyze_discard(hand, dealer, variant, _opponent(opponent))
    cards = tuple(sorted(rows[0].kept + rows[0].thrown))
    name = variant.strip().lower().replace("_", "-")
    return DiscardAnalysis(cards, dealer, name, opponent, rows)


def analyze_discard_batch(hands: Any, dealer: Any, *, variant: str = "six-card", opponent: Opponent = "uniform") -> dict[str, np.ndarray]:
    """:func:`analyze_discard` for N hands at once, on all cores with the interpreter released.

    ``hands`` is an (N, 6) id array ((N, 5) for five-card; any integer dtype and layout);
    ``dealer`` a bool for every hand or an (N,) bool array. Returns a dict of arrays whose
    column ``j`` is the hand's ``j``-th discard in a fixed order (the thrown pair's
    ``pair_action`` id ascending; C = 15 six-card, 10 five-card): ``hand``, ``crib``,
    ``heels``, ``net`` (N, C) float64; ``hand_min``, ``hand_max`` (N, C) uint8;
    ``hand_distribution`` (N, C, 30) uint8; ``thrown`` (N, C, 2) uint8 card ids; and ``best``
    (N,) int64, the column of the best discard (the first row :func:`analyze_discard` gives).
    Every row is checked first (ids 0..51, no card twice); the error names the first bad row.
    Ctrl-C stops a long batch (each thread at its next hand) with ``KeyboardInterrupt``.

    >>> r = analyze_discard_batch([[30, 17, 43, 10, 1, 34]], True)
    >>> r["net"].shape, r["thrown"][0, r["best"][0]].tolist()
    ((1, 15), [1, 34])
    """
    opp = _opponent(opponent)
    (h,) = id_arrays(hands, empty_width=6)
    flags = bool_arg(dealer, "dealer") if is_bool(dealer) else np.asarray(dealer)
    out = _core.cribbage_analyze_discard_batch(h, flags, variant, opp)
    out["best"] = out["best"].astype(np.int64)
    return out


def discard_tables(variant: str = "six-card", *, flushes: bool = True, model: str = "conditioned",
                   max_iterations: int = 50, tolerance: float = 1e-4, progress: bool = True) -> DiscardTables:
    """Equilibrium discard tables by iterated best response (exact over every dealt hand).

    Each pass, every hand that can be dealt (taken once per suit-isomorphism class) picks its
    discard as dealer (max expected hand + crib value of the throw) and as pone (max hand −
    crib), given the current values of each thrown rank pair (suited or not) for each role.
    ``model="conditioned"`` (the default): a kind's new value is the mean, over the hands (with
    multiplicity) that throw it, of the exact expected crib *given that hand* — the other
    player's two cards from the cards the hand does not hold, weighted by how often the other
    role throws a pair of their kind, and the starter from the rest: the crib of
    :func:`analyze_discard` with ``opponent=tables``, by the same routine. ``"thrown-only"``:
    the crib given the two thrown cards only (the kept cards' card removal ignored; the model
    before issue 21, kept because it is cheaper and for comparison). It stops when the largest
    change is below ``tolerance`` or after ``max_iterations`` passes; when pure best responses
    cycle (a few near-tied hands flip), the throws (and cribs) are averaged (fictitious play).
    ``flushes=False`` scores no crib flush, the classic published tables' convention (Hessel's);
    nobs is still counted, as in those tables (their jack throws are about 0.3 above 10, Q, K).

    ``progress=True`` shows a tqdm bar when stderr is a terminal. Returns a
    :class:`DiscardTables` (``dealer``, ``pone``, ``frequency``, ``iterations``, ``changes``,
    ``model``). The conditioned model settles more slowly (fictitious play, about 1/n): it runs
    the 50 passes and ends near a change of 5e-4. Six-card conditioned costs about 1.3 CPU-seconds
    a pass (about 35 s on two free cores; thrown-only about 5 s), five-card about 0.2; the result
    is kept for the rest of the process, so a second call with the same arguments returns at once.

    To distribute a pass (e.g. with Dask): ``t = DiscardTables.initial(variant, flushes=...)``,
    then per iteration ``t = t.advance(combine_pass_sums([t.pass_sums(a, b) for a, b in
    ranges]))`` over ranges covering ``0..discard_classes(variant)``; any split gives the same
    tables as this function.
    """
    progress, flushes = bool_arg(progress, "progress"), bool_arg(flushes, "flushes")
    if not isinstance(model, str):
        raise TypeError(f"model must be 'conditioned' or 'thrown-only', got {type(model).__name__}")
    model = model.strip().lower().replace("_", "-")
    if model not in ("conditioned", "thrown-only"):
        raise ValueError(f"model must be 'conditioned' or 'thrown-only', got {model[:80]!r}")
    max_iterations = int_arg(max_iterations, "max_iterations", 0, 10_000)
    tolerance = float_arg(tolerance, "tolerance", 0.0)
    key = (variant.strip().lower().replace("_", "-") if isinstance(variant, str) else "", flushes, model,
           max_iterations, tolerance)
    if key in _TABLES:
        return _TABLES[key]
    run = _core.CribbageDiscardTablesRun(variant, flushes, model)  # checks variant and flushes
    with Progress(max_iterations, f"discard tables ({run.tables().variant})", "pass",
                  show=progress and on_a_terminal()) as bar:
        for _ in range(max_iterations):
            change = run.step()
            bar.update(1, f"change {change:.1e}")
            if change < tolerance:
                break
    _TABLES[key] = run.tables()
    return _TABLES[key]


#: Tables computed in this process, by (variant, flushes, model, max_iterations, tolerance): they
#: are immutable and deterministic, so a second call returns the first one's result.
_TABLES: dict[tuple[str, bool, str, int, float], DiscardTables] = {}


TABLES_FORMAT = "cribpiquet.DiscardTables"
TABLES_VERSION = 1


def save_tables(tables: DiscardTables, path: Any) -> None:
    """:meth:`DiscardTables.save`: the tables' whole state as a versioned ``.npz`` (no pickle)."""
    if not isinstance(tables, DiscardTables):
        raise TypeError(f"save needs DiscardTables, got {type(tables).__name__}")
    target = path_arg(path)
    _, (state,) = tables.__reduce__()
    arrays: dict[str, Any] = {"format": np.array(TABLES_FORMAT), "version": np.array(TABLES_VERSION)}
    for key, value in state.items():
        if isinstance(value, dict):
            for k, v in value.items():
                arrays[f"{key}.{k}"] = np.asarray(v)
        else:
            arrays[key] = np.asarray(value)
    try:
        with open(target, "wb") as f:
            np.savez(f, **arrays)
            f.flush()
    except OSError as e:
        raise ValueError(f"cannot write the tables to {short_path(target)}: {e.strerror or e}") from None


#: The per-kind float arrays of a saved file (169 values each), as the pickled state names them.
_KIND_MEMBERS = ("dealer_crib_shares", "pone_crib_shares", "dealer_values", "pone_values", "dealer_throws",
                 "pone_throws")
#: The most passes a loaded file may record (``discard_tables`` stops at 10,000; a pass is at
#: least a fifth of a second).
MAX_SAVED_ITERATIONS = 100_000
#: The largest file :func:`load_tables` opens (a file of the most passes is under 1 MB): it bounds
#: the zip's central directory, which is read whole, as well as the members.
MAX_TABLES_FILE = 2 << 20
#: Every member of a saved file: its dtype kind (``"f"`` float64, ``"i"`` an int, ``"b"`` a
#: bool, ``"U"`` text) and shape (``None``: one dimension of at most ``MAX_SAVED_ITERATIONS``).
TABLES_MEMBERS: dict[str, tuple[str, Optional[tuple[int, ...]]]] = {
    "format": ("U", ()), "version": ("i", ()), "variant": ("U", ()), "flushes": ("b", ()), "model": ("U", ()),
    **{k: ("f", (169,)) for k in _KIND_MEMBERS},
    "averaged": ("i", ()), "iterations": ("i", ()), "changes": ("f", None),
    **{f"{s}.{k}": ("i", (169,)) for s in ("sums", "sums_before") for k in ("dealer", "pone", "dealer_crib", "pone_crib")},
    **{f"{s}.hands": ("i", ()) for s in ("sums", "sums_before")},
}  # fmt: skip
_TEXT_CHARS = 64  # the longest text member (the format name, a variant, a model)


class _Damaged(Exception):
    """A saved tables file is not usable; the message says why (the member named)."""


def load_tables(path: Any) -> DiscardTables:
    """:meth:`DiscardTables.load`: the tables saved at ``path``, checked; any file that is not
    such tables (missing, not a regular file, too large, not a zip, a bad CRC, a member of the
    wrong type or shape, unknown or missing members, values that are not numbers of points) is
    one ``ValueError`` naming the file and the member at fault.

    Only the known members are read, each member's ``.npy`` header (dtype, shape) is checked
    before its data, and no more bytes than that shape holds are read: a hostile file costs
    what real tables cost. The values are checked by the same rule as unpickled tables
    (``DiscardTables._restore``).
    """
    import stat
    import zipfile

    source = path_arg(path)
    where = short_path(source)
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as e:
        raise ValueError(f"cannot read the tables {where}: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Damaged("is not a regular file")
        if info.st_size > MAX_TABLES_FILE:
            raise _Damaged(f"is {info.st_size:,} bytes, more than saved tables take ({MAX_TABLES_FILE:,})")
        with os.fdopen(os.dup(fd), "rb") as f:
            entries = _zip_entries(f, info.st_size)
            if entries is not None and entries > 2 * len(TABLES_MEMBERS):  # before zipfile reads them all
                raise _Damaged(f"has {entries:,} members; saved tables have {len(TABLES_MEMBERS)}")
            try:
                archive = zipfile.ZipFile(f)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as e:
                raise _Damaged(f"is not a saved DiscardTables file (not a zip archive: {clip(str(e), 60)})") from None
            with archive:
                data = _read_members(archive)
    except _Damaged as e:
        raise ValueError(f"{where}{':' if str(e).startswith('member') else ''} {e}") from None
    except OSError as e:
        raise ValueError(f"cannot read the tables {where}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    state: dict[str, Any] = {}
    for key, value in data.items():
        if "." in key:
            outer, inner = key.split(".", 1)
            state.setdefault(outer, {})[inner] = int(value) if inner == "hands" else value
        elif value.ndim == 0:
            state[key] = value.item()
        else:
            state[key] = value.tolist()
    try:
        return DiscardTables._restore(state)  # type: ignore[attr-defined,no-any-return]
    except (TypeError, ValueError, OverflowError) as e:
        raise ValueError(f"{where} holds damaged tables: {clip(str(e), 160)}") from None


def _zip_entries(f: Any, size: int) -> Optional[int]:
    """The member count a zip's end record states (``None`` without one: ``zipfile`` then says
    what is wrong), read from the file's last 64 KiB."""
    import struct

    tail = min(size, 22 + 0xFFFF)
    f.seek(size - tail)
    data = f.read(tail)
    f.seek(0)
    at = data.rfind(b"PK\x05\x06")
    if at < 0 or len(data) - at < 22:
        return None
    return int(struct.unpack("<H", data[at + 10 : at + 12])[0])


def _read_members(archive: Any) -> dict[str, np.ndarray]:
    """The members of a saved file, each checked (see :func:`load_tables`), format and version
    first (a file of another format or version says so rather than naming its members)."""
    names = [i.filename for i in archive.infolist()]
    members = {n[: -len(".npy")]: n for n in names if n.endswith(".npy")}
    if "format" not in members or _text(_member(archive, "format", members["format"])) != TABLES_FORMAT:
        raise _Damaged("is not a saved DiscardTables file")
    version = int(_member(archive, "version", members.get("version", "version.npy")))
    if version != TABLES_VERSION:
        raise _Damaged(f"is format version {version}; this cribpiquet reads version {TABLES_VERSION}")
    if len(names) != len(set(names)):
        twice = next(n for n in names if names.count(n) > 1)
        raise _Damaged(f"has the member {clip(twice, 40)!r} twice")
    unknown = [n for n in names if n[: -len(".npy")] not in TABLES_MEMBERS or not n.endswith(".npy")]
    if unknown:
        raise _Damaged(f"has an unknown member {clip(unknown[0], 40)!r} (not read)")
    missing = [k for k in TABLES_MEMBERS if k not in members]
    if missing:
        raise _Damaged(f"lacks the member {missing[0]!r}")
    return {key: _member(archive, key, f"{key}.npy") for key in TABLES_MEMBERS if key not in ("format", "version")}


def _text(value: np.ndarray) -> str:
    return str(value[()])


def _member(archive: Any, key: str, name: str) -> np.ndarray:
    """Member ``key`` (file ``name``) as an array of the kind and shape of ``TABLES_MEMBERS``:
    its header is read and checked first, then exactly the bytes that shape holds (and the end
    of the member, so its CRC is checked)."""
    import lzma
    import zipfile
    import zlib

    kind, shape = TABLES_MEMBERS[key]
    try:
        with archive.open(name) as f:
            dtype, got_shape = _npy_header(f, key)
            if not _dtype_fits(dtype, kind):
                want = {"f": "float64", "i": "an integer dtype", "b": "bool", "U": "text"}[kind]
                raise _Damaged(f"member {key!r} has dtype {clip(str(dtype), 20)}, not {want}")
            if shape is None:
                if len(got_shape) != 1 or got_shape[0] > MAX_SAVED_ITERATIONS:
                    raise _Damaged(f"member {key!r} has shape {clip(str(got_shape), 40)}, not (n,) with n <= "
                                   f"{MAX_SAVED_ITERATIONS:,}")
            elif got_shape != shape:
                raise _Damaged(f"member {key!r} has shape {clip(str(got_shape), 40)}, not {shape}")
            size = int(np.prod(got_shape, dtype=np.int64)) * dtype.itemsize
            raw = f.read(size + 1)  # one byte more: the end of the member, where zipfile checks the CRC
    except KeyError:
        raise _Damaged(f"lacks the member {key!r}") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, lzma.LZMAError, zlib.error, EOFError, OSError, RuntimeError,
            NotImplementedError, ValueError) as e:  # fmt: skip
        raise _Damaged(f"member {key!r} is damaged ({clip(str(e), 60)})") from None
    if len(raw) > size:
        raise _Damaged(f"member {key!r} holds more data than its shape {got_shape} takes ({size:,} bytes)")
    if len(raw) < size:
        raise _Damaged(f"member {key!r} holds {len(raw):,} bytes of data, not {size:,}")
    try:
        return np.frombuffer(raw, dtype=dtype).reshape(got_shape)
    except (ValueError, TypeError) as e:  # not expected after the checks above: still one clear line
        raise _Damaged(f"member {key!r} cannot be read as {clip(str(dtype), 20)} {got_shape} ({clip(str(e), 60)})") from None


def _dtype_fits(dtype: np.dtype, kind: str) -> bool:
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None or dtype.itemsize == 0:
        return False
    if kind == "f":
        return dtype.kind == "f" and dtype.itemsize == 8
    if kind == "i":
        return dtype.kind in "iu" and dtype.itemsize <= 8
    if kind == "b":
        return dtype.kind == "b"
    return dtype.kind == "U" and dtype.itemsize <= 4 * _TEXT_CHARS


def _npy_header(f: Any, key: str) -> tuple[np.dtype, tuple[int, ...]]:
    """The dtype and shape of an ``.npy`` stream's header (format 1, 2 or 3), read with bounded
    memory (a header of at most 4 KiB) and parsed as a literal, never evaluated."""
    import ast
    import struct

    magic = f.read(8)
    if len(magic) != 8 or magic[:6] != b"\x93NUMPY" or magic[6] not in (1, 2, 3):
        raise _Damaged(f"member {key!r} is not a .npy array")
    width = 2 if magic[6] == 1 else 4
    raw_len = f.read(width)
    if len(raw_len) != width:
        raise _Damaged(f"member {key!r} is not a .npy array (cut short)")
    length = struct.unpack("<H" if width == 2 else "<I", raw_len)[0]
    if length > 4096:
        raise _Damaged(f"member {key!r} has a header of {length:,} bytes (an array header is short)")
    text = f.read(length)
    try:
        header = ast.literal_eval(text.decode("utf-8" if magic[6] == 3 else "latin1"))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, UnicodeDecodeError):
        raise _Damaged(f"member {key!r} has a header that is not an array header") from None
    if not (isinstance(header, dict) and set(header) == {"descr", "fortran_order", "shape"}
            and isinstance(header["descr"], str) and len(header["descr"]) <= 16
            and isinstance(header["fortran_order"], bool) and isinstance(header["shape"], tuple)
            and len(header["shape"]) <= 2
            and all(type(n) is int and 0 <= n <= 2**40 for n in header["shape"])):  # fmt: skip
        raise _Damaged(f"member {key!r} has a header that is not an array header")
    try:
        dtype = np.dtype(header["descr"])
    except (TypeError, ValueError, OverflowError, MemoryError):
        raise _Damaged(f"member {key!r} has an unknown dtype {clip(header['descr'], 20)!r}") from None
    if header["fortran_order"] and len(header["shape"]) > 1:
        raise _Damaged(f"member {key!r} is in Fortran order")
    return dtype, header["shape"]


combine_pass_sums = _core.cribbage_combine_pass_sums
discard_classes = _core.cribbage_discard_classes


def discard_class_hands(variant: str, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """The hand classes ``start..stop`` of a variant's pass (the ranges of
    :meth:`DiscardTables.pass_sums`): one hand of each suit-isomorphism class as an
    ``(n, dealt)`` uint8 id array, and how many hands each class stands for, int64 ``(n,)``.

    >>> hands, mult = discard_class_hands("five-card", 0, 2)
    >>> hands.shape, int(mult.sum()) <= 48
    ((2, 5), True)
    """
    return _core.cribbage_discard_class_hands(variant, start, stop)


# ------------------------------------------------------------------------------ pictures


def _figure(ax: Any, size: tuple[float, float]) -> tuple[Any, Any]:
    mpl = require_matplotlib()
    if ax is not None:
        if not hasattr(ax, "bar") or not hasattr(ax, "figure"):
            raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
        return ax.figure, ax
    Figure = importlib.import_module("matplotlib.figure").Figure

    fig = Figure(figsize=size, layout="constrained") if mpl.__version_info__ >= (3, 6) else Figure(figsize=size)
    return fig, fig.add_subplot()


def plot_analysis(analysis: DiscardAnalysis, ax: Any = None) -> Any:
    """The picture of :meth:`DiscardAnalysis.plot`."""
    fig, ax = _figure(ax, (max(6.0, 0.55 * len(analysis.rows) + 2), 4.5))
    rows = analysis.rows
    x = np.arange(len(rows))
    hand = np.array([r.hand for r in rows])
    crib = np.array([r.crib for r in rows])
    net = np.array([r.net for r in rows])
    ax.bar(x, hand, color="#4C72B0", label="hand")
    if analysis.dealer:
        ax.bar(x, crib, bottom=hand, color="#55A868", label="crib (own)")
    else:
        ax.bar(x, -crib, color="#C44E52", label="crib (opponent's)")
    ax.plot(x, net, "ko", markersize=4, label="net")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels([" ".join(c.symbol() for c in sorted(r.thrown, key=lambda c: (c.rank, c.suit))) for r in rows],
                       rotation=60, ha="right", fontsize=9)
    ax.set_ylabel("expected points")
    ax.set_xlabel("cards thrown")
    role = "dealer" if analysis.dealer else "pone"
    ax.set_title(f"{_cards(analysis.hand)} ({analysis.variant}, {role}): discards, best first")
    ax.legend(fontsize=8)
    return fig


def plot_tables(tables: DiscardTables) -> Any:
    """The picture of :meth:`DiscardTables.plot`: both tables as annotated heatmaps."""
    mpl = require_matplotlib()
    Figure = importlib.import_module("matplotlib.figure").Figure

    fig = Figure(figsize=(14, 6.5), layout="constrained") if mpl.__version_info__ >= (3, 6) else Figure(figsize=(14, 6.5))
    data = {"dealer: throws to his own crib": tables.dealer, "pone: throws to the dealer's crib": tables.pone}
    lo = min(float(a.min()) for a in data.values())
    hi = max(float(a.max()) for a in data.values())
    lower = np.tril(np.ones((13, 13), dtype=bool))  # a throw of ranks (i, j) is the same as (j, i)
    for i, (title, a) in enumerate(data.items()):
        ax = fig.add_subplot(1, 2, i + 1)
        im = ax.imshow(np.ma.masked_where(~lower, a), cmap="viridis", vmin=lo, vmax=hi)
        for r in range(13):
            for c in range(r + 1):
                shade = (a[r, c] - lo) / (hi - lo or 1)
                ax.text(c, r, f"{a[r, c]:.2f}", ha="center", va="center", fontsize=7,
                        color="black" if shade > 0.6 else "white")
        ax.set_xticks(range(13))
        ax.set_yticks(range(13))
        ax.set_xticklabels(RANK_LABELS)
        ax.set_yticklabels(RANK_LABELS)
        ax.set_xlabel("rank of the other card thrown")
        ax.set_ylabel("rank of one card thrown")
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.set_title(title, fontsize=10)
        fig.colorbar(im, ax=ax, shrink=0.8, label="average crib")
    flush = "crib flushes" if tables.flushes else "no crib flushes"
    fig.suptitle(f"{tables.variant} discard tables ({flush}; {tables.iterations} iterations)")
    return fig


# ------------------------------------------------------- the native classes' Python methods


def _plot(self: DiscardTables) -> Any:
    """The tables as annotated heatmaps: a matplotlib figure (needs ``cribpiquet[plot]``)."""
    return plot_tables(self)


def _save(self: DiscardTables, path: Any) -> None:
    """Save the tables (every value, the model, the variant, the flush rule and the iteration
    state) to ``path`` as a versioned ``.npz`` file; :meth:`load` reads it back equal."""
    save_tables(self, path)


def _load(path: Any) -> DiscardTables:
    """The tables saved by :meth:`save` at ``path`` (a clear ``ValueError`` naming the file if it
    is not such a file, or of another format version)."""
    return load_tables(path)


def _row_dict(self: DiscardRow) -> dict[str, Any]:
    """The row as plain JSON-able Python: its fields in the order of its repr (cards as text)."""
    return record_dict(self, ROW_FIELDS)


setattr(DiscardTables, "plot", _plot)
setattr(DiscardTables, "save", _save)
setattr(DiscardTables, "load", staticmethod(_load))
_html.result_methods(_html.record_html, DiscardRow)
setattr(DiscardRow, "to_dict", _row_dict)
_html.result_methods(_html.discard_tables_html, DiscardTables)
