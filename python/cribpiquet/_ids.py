"""Normalising numpy id arrays before they cross into Rust (shared by both games).

The bindings check every batch argument (dtype, shape, row counts, ids) once; here arguments are
only made into numpy arrays of one dtype (:func:`id_arrays`).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def id_arrays(*xs: Any, empty_width: int | tuple[int, ...] = 0, limit: int = 52) -> list[np.ndarray]:
    """The id arguments of a batch call as numpy arrays, for the binding to check: lists become
    arrays, a first argument ``[]`` an empty batch of ``empty_width`` columns (a tuple: one width
    per argument, 0 for none), an empty float array (what ``[]`` and ``np.empty`` give) int64, and
    integer arrays of different dtypes one dtype (:func:`same_dtype`). Nothing else is changed or
    checked."""
    arrays = [np.asarray(x) for x in xs]
    widths = empty_width if isinstance(empty_width, tuple) else (empty_width,)
    for i, width in enumerate(widths):
        if width and arrays[i].ndim == 1 and arrays[i].size == 0:
            arrays[i] = np.zeros((0, width), np.int64)
    arrays = [a.astype(np.int64) if a.size == 0 and a.dtype.kind == "f" else a for a in arrays]
    if len({a.dtype for a in arrays}) > 1 and all(a.dtype.kind in "iu" for a in arrays):
        if len({a.shape[:1] for a in arrays}) > 1:  # any one dtype: the binding reports the rows
            return [a.astype(np.int64) for a in arrays]
        return same_dtype(*arrays, limit=limit)
    return arrays


def same_dtype(*arrays: np.ndarray, limit: int = 52) -> list[np.ndarray]:
    """The arrays as C-contiguous arrays of one integer dtype (copies only what must change).

    uint64 mixed with a signed type has no common integer dtype; then the arrays become int64
    when every uint64 value fits, uint64 when no value is negative, and otherwise the first row
    holding an id outside ``0..limit`` is reported here, with the id as given.
    """
    dtype = np.result_type(*arrays)
    if dtype.kind not in "iu":
        big = any(a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max for a in arrays)
        negative = any(a.dtype.kind == "i" and a.size and a.min() < 0 for a in arrays)
        if not big:
            dtype = np.dtype(np.int64)
        elif not negative:
            dtype = np.dtype(np.uint64)
        else:
            _raise_first_out_of_range(arrays, limit)
    return [np.ascontiguousarray(a, dtype=dtype) for a in arrays]


def _raise_first_out_of_range(arrays: tuple[np.ndarray, ...], limit: int = 52) -> None:
    """Raise the error for the first row (in row order, columns left to right) with a bad id."""
    rows = arrays[0].shape[0]
    for r in range(rows):
        for a in arrays:
            for value in np.atleast_1d(a[r]).tolist():
                if not 0 <= value < limit:
                    raise ValueError(f"row {r}: card id {value} is out of range (ids are 0..{limit - 1})")
    raise AssertionError("unreachable: some id is out of range")  # pragma: no cover
