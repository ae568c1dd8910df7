"""Issue 33: the batch kernels (scalar reference, AVX2, AVX-512) chosen at run time. Every
kernel this CPU has must give exactly the scalar kernel's scores, categories and errors; a kernel
the CPU lacks is skipped here with the reason (the Rust tests check every show exhaustively)."""

from __future__ import annotations

import numpy as np
import pytest

import cribpiquet
from cribpiquet import cribbage
from cribpiquet.bench import random_shows

VAR = "CRIBPIQUET_KERNEL"
ALL = ["scalar", "avx2", "avx512"]
DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def vector_kernels() -> list[str]:
    return [k for k in cribpiquet.available_kernels() if k != "scalar"]


def path_params():
    """Every vectorised kernel; one this CPU lacks is a skip saying so."""
    have = cribpiquet.available_kernels()
    return [pytest.param(k, marks=[] if k in have else pytest.mark.skip(reason=f"this CPU cannot run {k}"))
            for k in ALL[1:]]


def scored(monkeypatch, kernel: str, fn, *args, **kw):
    monkeypatch.setenv(VAR, kernel)
    return fn(*args, **kw)


def test_kernel_names_the_chosen_path_and_honours_the_variable(monkeypatch):
    have = cribpiquet.available_kernels()
    assert have[0] == "scalar" and set(have) <= set(ALL)
    monkeypatch.delenv(VAR, raising=False)
    # the fastest this CPU has: AVX-512, else AVX2, else scalar
    best = have[-1]
    assert cribpiquet.kernel() == best
    for k in have:
        monkeypatch.setenv(VAR, k)
        assert cribpiquet.kernel() == k
    monkeypatch.setenv(VAR, "auto")
    assert cribpiquet.kernel() == best


def test_an_unknown_or_unavailable_kernel_is_a_clear_error(monkeypatch):
    # 32 rows: the smallest batch that reads the variable (one AVX2 register of shows).
    hands, starters = np.tile(np.array([[10, 17, 30, 43]], np.uint8), (32, 1)), np.full(32, 4, np.uint8)
    monkeypatch.setenv(VAR, "sse9")
    for call in (cribpiquet.kernel, lambda: cribbage.score_hand_batch(hands, starters),
                 lambda: cribbage.explain_hand_batch(hands, starters)):
        with pytest.raises(ValueError, match=r'CRIBPIQUET_KERNEL="sse9": unknown kernel "sse9" \(expected auto, '
                                             r'scalar, avx2, avx512\)'):
            call()
    for k in set(ALL) - set(cribpiquet.available_kernels()):
        monkeypatch.setenv(VAR, k)
        with pytest.raises(ValueError, match=f"kernel {k} is not available on this CPU"):
            cribbage.score_hand_batch(hands, starters)
    # The single-show call does not read the variable, nor does a batch smaller than one vector
    # register (it runs the scalar kernel whatever the variable says).
    assert cribbage.score_hand([10, 17, 30, 43], 4) == 29
    monkeypatch.setenv(VAR, "sse9")
    for rows in (0, 1, 31):
        assert cribbage.score_hand_batch(hands[:rows], starters[:rows]).tolist() == [29] * rows
        assert cribbage.explain_hand_batch(hands[:rows], starters[:rows])["total"].tolist() == [29] * rows
    with pytest.raises(ValueError, match="sse9"):
        cribbage.score_hand_batch(hands[:32], starters[:32])


@pytest.fixture(scope="module")
def shows():
    return {w: random_shows(20_000, seed=33 + w, width=w) for w in (3, 4)}


@pytest.mark.parametrize("kernel", path_params())
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_equals_scalar(monkeypatch, shows, kernel, dtype):
    for width, crib in [(4, False), (4, True), (3, False)]:
        hands, starters = (a.astype(dtype) for a in shows[width])
        want = scored(monkeypatch, "scalar", cribbage.score_hand_batch, hands, starters, crib=crib)
        got = scored(monkeypatch, kernel, cribbage.score_hand_batch, hands, starters, crib=crib)
        assert got.dtype == np.uint8 and np.array_equal(got, want), (width, crib)
        want = scored(monkeypatch, "scalar", cribbage.explain_hand_batch, hands, starters, crib=crib)
        got = scored(monkeypatch, kernel, cribbage.explain_hand_batch, hands, starters, crib=crib)
        assert list(got) == list(want)
        for name in want:
            assert got[name].dtype == np.uint8 and np.array_equal(got[name], want[name]), (width, crib, name)


@pytest.mark.parametrize("kernel", path_params())
def test_every_size_from_0_to_300(monkeypatch, shows, kernel):
    hands, starters = shows[4]
    h3, s3 = shows[3]
    for n in range(301):
        for h, s, crib in [(hands[:n], starters[:n], False), (hands[:n], starters[:n], True), (h3[:n], s3[:n], False)]:
            want = scored(monkeypatch, "scalar", cribbage.score_hand_batch, h, s, crib=crib)
            got = scored(monkeypatch, kernel, cribbage.score_hand_batch, h, s, crib=crib)
            assert got.shape == (n,) and np.array_equal(got, want), (n, h.shape, crib)


@pytest.mark.parametrize("kernel", path_params())
def test_unaligned_and_strided_input(monkeypatch, shows, kernel):
    hands, starters = shows[4]
    want = scored(monkeypatch, "scalar", cribbage.score_hand_batch, hands, starters)
    # A view one row (4 bytes) into a buffer: not on any register's alignment.
    buf = np.concatenate([np.zeros(4, np.uint8), hands.ravel()])
    unaligned = buf[4:].reshape(-1, 4)
    assert unaligned.ctypes.data % 32 != 0 or buf.ctypes.data % 32 != 0
    for h, s, w in [
        (unaligned, starters, want),
        (hands[::3], starters[::3], want[::3]),  # strided rows
        (hands[::-1], starters[::-1], want[::-1]),  # negative strides
        (np.asfortranarray(hands), starters, want),
        (hands[:, ::-1], starters, want),  # the cards of a hand in another order
        (hands.astype(">i4"), starters.astype(">u2"), want),  # byte-swapped, mixed dtypes
    ]:
        assert np.array_equal(scored(monkeypatch, kernel, cribbage.score_hand_batch, h, s), w)


@pytest.mark.parametrize("kernel", path_params())
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int64, np.uint64], ids=lambda d: np.dtype(d).name)
def test_a_bad_row_at_every_lane_and_in_the_tail_reports_as_scalar(monkeypatch, shows, kernel, dtype):
    hands, starters = (a[:150].astype(dtype) for a in shows[4])  # two blocks of 64, a tail of 22
    info = np.iinfo(dtype)
    bads = sorted({52, 64, int(info.max)} | ({-1, int(info.min)} if info.min < 0 else set()))
    for row in list(range(64)) + [64, 100, 127, 128, 140, 149]:
        for pos in range(5):
            for bad in bads + ["dup"]:
                h, s = hands.copy(), starters.copy()
                value = (h[row, 1] if pos == 0 else h[row, 0]) if bad == "dup" else bad
                if pos == 4:
                    s[row] = value
                else:
                    h[row, pos] = value
                errors = []
                for k in ("scalar", kernel):
                    with pytest.raises(ValueError) as e:
                        scored(monkeypatch, k, cribbage.score_hand_batch, h, s)
                    errors.append(str(e.value))
                assert errors[0].startswith(f"row {row}: ") and errors[1] == errors[0], (row, pos, bad)


@pytest.mark.parametrize("kernel", path_params())
def test_hand_distribution_is_the_scalar_one(monkeypatch, kernel):
    # `cribpiquet stats` enumerates every show with the chosen kernel: the same counts as scalar.
    for kind in cribbage.DISTRIBUTION_KINDS:
        want = scored(monkeypatch, "scalar", cribbage.hand_distribution, kind)
        got = scored(monkeypatch, kernel, cribbage.hand_distribution, kind)
        assert got.dtype == want.dtype and np.array_equal(got, want), kind
        assert int(got.sum()) == (1_082_900 if kind == "five-card-hand" else 12_994_800)
