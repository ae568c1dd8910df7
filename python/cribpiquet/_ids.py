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


def same_dtype(*arrays: np.ndarray) -> list[np.ndarray]:
    """The arrays as C-contiguous arrays of one integer dtype (copies only what must change)."""
    dtype = np.result_type(*arrays)
    if dtype.kind not in "iu":  # int64 with uint64 promotes to float64
        dtype = np.dtype(np.int64)
    return [np.ascontiguousarray(a, dtype=dtype) for a in arrays]
