"""Shared fixtures for the Python benchmarks (pytest-benchmark).

Run: ``pip install '.[bench]' && pytest benches --benchmark-only``.
"""

from __future__ import annotations

import numpy as np
import pytest


def random_shows(n: int, hand_size: int = 4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random hands with distinct starters: rows of ``hand_size + 1`` distinct ids."""
    rng = np.random.default_rng(seed)
    width = hand_size + 1
    rows = rng.integers(0, 52, size=(n, width), dtype=np.int64)
    while True:
        s = np.sort(rows, axis=1)
        bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if bad.size == 0:
            break
        rows[bad] = rng.integers(0, 52, size=(bad.size, width), dtype=np.int64)
    return np.ascontiguousarray(rows[:, :hand_size]), np.ascontiguousarray(rows[:, hand_size])


@pytest.fixture(scope="session")
def ten_million_shows() -> tuple[np.ndarray, np.ndarray]:
    return random_shows(10_000_000)
