"""The batch kernels of ``piquet.score_declarations_batch`` and ``piquet.declarations_batch``
(scalar, AVX2, AVX-512), forced from Python by ``CRIBPIQUET_KERNEL``: every path gives the scalar
reference's numbers and its errors, on unaligned and strided input of every integer dtype.

Source: issue 33 items 3 and 5 (each path equal to scalar; invalid rows reported as scalar does;
any integer dtype; unaligned and strided numpy input; the environment variable forcing each path,
skipped with the reason on a CPU without the feature). The Rust tests
(``piquet::batch::tests::kernels_*``) compare the paths on a million deals per rule set.
"""

from __future__ import annotations

import numpy as np
import pytest

from cribpiquet.piquet import Rules, declarations_batch, score_declarations_batch

KERNELS = ["scalar", "avx2", "avx512"]
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def random_deals(n, seed):
    rng = np.random.default_rng(seed)
    perms = np.argsort(rng.random((n, 32)), axis=1)
    return perms[:, :12].copy(), perms[:, 12:24].copy()


def results(elder, dealer, rules=None):
    """Scores and features of the deals, or the error message (the same for every path)."""
    try:
        points = score_declarations_batch(elder, dealer, rules=rules)
    except ValueError as e:
        points = str(e)
    try:
        features = declarations_batch(elder, rules=rules)
    except ValueError as e:
        features = str(e)
    return points, features


def same(a, b):
    (pa, fa), (pb, fb) = a, b
    assert type(pa) is type(pb) and type(fa) is type(fb)
    if isinstance(pa, str):
        assert pa == pb
    else:
        np.testing.assert_array_equal(pa, pb)
    if isinstance(fa, str):
        assert fa == fb
    else:
        assert fa.keys() == fb.keys()
        for k in fa:
            assert fa[k].dtype == fb[k].dtype, k
            np.testing.assert_array_equal(fa[k], fb[k], err_msg=k)


@pytest.fixture(params=KERNELS)
def kernel(request, monkeypatch):
    """Each kernel forced by the environment variable; skipped where the CPU lacks it."""
    monkeypatch.setenv("CRIBPIQUET_KERNEL", request.param)
    try:
        score_declarations_batch(np.zeros((0, 12), np.uint8), np.zeros((0, 12), np.uint8))
    except ValueError as e:
        if "not available on this CPU" in str(e):
            pytest.skip(f"kernel {request.param}: this CPU lacks its features ({e})")
        raise
    return request.param


def reference(monkeypatch, *args, **kwargs):
    with monkeypatch.context() as m:
        m.setenv("CRIBPIQUET_KERNEL", "scalar")
        return results(*args, **kwargs)


@pytest.mark.parametrize("rules", [None, Rules.rubicon()], ids=["russian", "rubicon"])
def test_each_path_equals_scalar(kernel, monkeypatch, rules):
    # 5,003 deals: whole blocks of 8 and 16 and a tail of 3 (11 past 16 × 312).
    e, d = random_deals(5_003, 7)
    same(results(e, d, rules), reference(monkeypatch, e, d, rules))
    # The tail lengths around one block.
    for n in range(0, 40):
        same(results(e[:n], d[:n], rules), reference(monkeypatch, e[:n], d[:n], rules))


@pytest.mark.parametrize("dtype", DTYPES)
def test_unaligned_and_strided_input_of_every_dtype(kernel, monkeypatch, dtype):
    e, d = random_deals(203, 11)
    want = reference(monkeypatch, e.astype(dtype), d.astype(dtype))
    size = np.dtype(dtype).itemsize

    def views(x):
        # Unaligned: the ids one byte into a buffer.
        buf = np.zeros(x.size * size + 1, np.uint8)
        unaligned = buf[1:].view(dtype).reshape(x.shape)
        unaligned[...] = x
        assert size == 1 or unaligned.ctypes.data % size != 0
        # Strided: every other column of a wider array; rows read backwards (negative stride).
        wide = np.zeros((x.shape[0], 24), dtype)
        wide[:, ::2] = x
        backwards = x[::-1].astype(dtype)[::-1]
        assert not wide[:, ::2].flags.c_contiguous and backwards.strides[0] < 0
        return [unaligned, wide[:, ::2], backwards]

    for ev, dv in zip(views(e), views(d)):
        same(results(ev, dv), want)


def test_bad_rows_give_scalar_errors_on_every_path(kernel, monkeypatch):
    e, d = random_deals(45, 13)
    for r in [0, 7, 8, 15, 16, 31, 40, 44]:
        for bad in ["range", "negative", "twice", "shared"]:
            be, bd = e.astype(np.int16), d.astype(np.int16)
            if bad == "range":
                bd[r, r % 12] = 32
            elif bad == "negative":
                be[r, 3] = -1
            elif bad == "twice":
                be[r, 5] = be[r, 0]
            else:
                bd[r, 11] = be[r, 4]
            got = results(be, bd)
            assert isinstance(got[0], str) and got[0].startswith(f"row {r}:"), got[0]
            same(got, reference(monkeypatch, be, bd))


def test_an_unknown_or_missing_kernel_is_a_value_error(monkeypatch):
    e, d = random_deals(3, 17)
    monkeypatch.setenv("CRIBPIQUET_KERNEL", "sse9")
    with pytest.raises(ValueError, match=r'CRIBPIQUET_KERNEL="sse9": unknown kernel "sse9"'):
        score_declarations_batch(e, d)
    with pytest.raises(ValueError, match="unknown kernel"):
        declarations_batch(e)
    for name in ["avx2", "avx512"]:
        monkeypatch.setenv("CRIBPIQUET_KERNEL", name)
        try:
            score_declarations_batch(e, d)
        except ValueError as err:
            assert f"kernel {name} is not available on this CPU (it has: scalar" in str(err)
