"""Normalising numpy id arrays before they cross into Rust (shared by both games)."""

from __future__ import annotations

from typing import Any

import numpy as np


def id_array(x: Any, name: str, ndim: int) -> np.ndarray:
    """``x`` as an integer array of ``ndim`` dimensions (not yet contiguous).

    Raises TypeError for non-integer data (floats, strings, objects, bools) and ValueError for
    the wrong rank.
    """
    a = np.asarray(x)
    if a.size == 0 and a.dtype.kind == "f":  # [] or np.empty(...) default to float64
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer card ids, got dtype {a.dtype}")
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {a.shape}")
    return a


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
