"""Data out: every result as plain JSON-able Python (``to_dict``), and tables as pandas or polars
data frames (``to_pandas`` / ``to_polars``, when that library is installed; neither is a
dependency).

``plain(value)`` is the one conversion: a card becomes its text (``"5H"``), a tuple a list, a
numpy array a (nested) list, a numpy scalar a Python number, a mapping a dict with text keys, a
result object the dict of its public fields; so ``json.loads(json.dumps(x.to_dict())) ==
x.to_dict()`` for every result.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import types
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Sequence

if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    P = ParamSpec("P")

_DESCRIPTORS = (property, types.GetSetDescriptorType, types.MemberDescriptorType)


def fields_of(obj: Any) -> list[str]:
    """The public data fields of a result: a dataclass's fields, else its public properties (the
    getters of a native class), in a stable order."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [f.name for f in dataclasses.fields(obj) if not f.name.startswith("_")]
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a NamedTuple
        return list(getattr(obj, "_fields"))
    cls = type(obj)
    return [n for n in dir(cls) if not n.startswith("_") and isinstance(inspect.getattr_static(cls, n), _DESCRIPTORS)]


def plain(value: Any, _depth: int = 0) -> Any:
    """``value`` as plain JSON-able Python (see the module docstring)."""
    if _depth > 50:
        raise ValueError("value nested too deeply to convert")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if _is_card(value):
        return str(value)
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy arrays and scalars
        return plain(value.tolist(), _depth + 1)
    if isinstance(value, Mapping):
        return {str(k): plain(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)) and not hasattr(value, "_fields"):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [plain(v, _depth + 1) for v in items]
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and not isinstance(value, type):
        return to_dict()
    names = fields_of(value)
    if names:
        return {n: plain(getattr(value, n), _depth + 1) for n in names}
    if hasattr(value, "__index__"):
        return int(value)
    return str(value)


def record_dict(obj: Any, names: Optional[Iterable[str]] = None) -> dict[str, Any]:
    """The dict of ``obj``'s public fields (or of ``names``), each made plain."""
    return {n: plain(getattr(obj, n)) for n in (fields_of(obj) if names is None else names)}


def _is_card(value: Any) -> bool:
    cls = type(value).__name__
    return cls in ("CribbageCard", "PiquetCard", "Card") and hasattr(value, "symbol")


def _frame_library(name: str) -> Any:
    try:
        if name == "pandas":
            import pandas  # type: ignore[import-untyped,unused-ignore]

            return pandas
        import polars

        return polars
    except ImportError:
        raise ImportError(f"to_{name}() needs {name}: pip install {name}") from None


def to_pandas(rows: Sequence[Mapping[str, Any]], columns: Optional[Sequence[str]] = None) -> Any:
    """A pandas ``DataFrame`` of table rows (dicts of plain values)."""
    pd = _frame_library("pandas")
    return pd.DataFrame(list(rows), columns=list(columns) if columns is not None else None)


def to_polars(rows: Sequence[Mapping[str, Any]], columns: Optional[Sequence[str]] = None) -> Any:
    """A polars ``DataFrame`` of table rows (dicts of plain values)."""
    pl = _frame_library("polars")
    rows = list(rows)
    if not rows and columns is not None:
        return pl.DataFrame({c: [] for c in columns})
    return pl.DataFrame(rows)


def columns_to_pandas(columns: Mapping[str, Any]) -> Any:
    """A pandas ``DataFrame`` of a dict of equal-length arrays (``simulate``'s columns: a (N, k)
    column becomes ``name_0 … name_{k-1}``)."""
    pd = _frame_library("pandas")
    return pd.DataFrame(_flat_columns(columns))


def columns_to_polars(columns: Mapping[str, Any]) -> Any:
    """A polars ``DataFrame`` of a dict of equal-length arrays (see :func:`columns_to_pandas`)."""
    pl = _frame_library("polars")
    return pl.DataFrame(_flat_columns(columns))


def _flat_columns(columns: Mapping[str, Any]) -> dict[str, Any]:
    import numpy as np

    out: dict[str, Any] = {}
    for name, col in columns.items():
        a = np.asarray(col)
        if a.ndim == 1:
            out[name] = a
        elif a.ndim == 2:
            for j in range(a.shape[1]):
                out[f"{name}_{j}"] = a[:, j]
        else:
            raise ValueError(f"column {name!r} has {a.ndim} dimensions; only 1 or 2 become frame columns")
    return out


class RowTable:
    """A result that is a table: ``_frame_rows()`` gives one dict of plain values per row (the
    class says what a row holds), :meth:`to_pandas` and :meth:`to_polars` make it a data frame.
    Each table class writes its own notebook view (``_repr_html_``, a function of
    :mod:`cribpiquet._html`)."""

    def _frame_rows(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def to_pandas(self) -> Any:
        """The rows as a pandas ``DataFrame`` (the class says what a row holds). Needs pandas."""
        return to_pandas(self._frame_rows())

    def to_polars(self) -> Any:
        """As :meth:`to_pandas`, a polars ``DataFrame``. Needs polars."""
        return to_polars(self._frame_rows())


class Columns(dict):  # type: ignore[type-arg]
    """The columns of a simulation (``simulate``'s result): a ``dict`` of numpy arrays, one row
    per game, with :meth:`to_pandas` / :meth:`to_polars` (a (N, k) column becomes ``name_0 …
    name_{k-1}``) and :meth:`to_dict` (plain lists)."""

    def to_dict(self) -> dict[str, Any]:
        return {k: plain(v) for k, v in self.items()}

    def to_pandas(self) -> Any:
        return columns_to_pandas(self)

    def to_polars(self) -> Any:
        return columns_to_polars(self)


def returning_columns(fn: Callable[P, dict[str, Any]]) -> Callable[P, Columns]:
    """``fn`` (a native ``simulate``) with its dict result returned as :class:`Columns`; the
    signature and docstring are ``fn``'s."""
    import functools

    @functools.wraps(fn)
    def simulate(*args: P.args, **kwargs: P.kwargs) -> Columns:
        return Columns(fn(*args, **kwargs))

    return simulate
