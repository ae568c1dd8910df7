"""Every numpy batch function of both games on every integer dtype and memory layout (issue 8 item 1),
the argument errors, empty batches, and Ctrl-C during the first batch call of a process.

Layouts: aligned C order; misaligned (``np.frombuffer`` at offset 1); big-endian; negative strides;
Fortran order; read-only; a field of a packed record array (strided and misaligned); an
``np.memmap`` of a temporary file at offset 1 (misaligned, read-only). Each batch function is called
both through the Python wrapper and on ``_core`` directly (which is given the array as is), and every
result is compared with the single-item function on the same rows.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from cribpiquet import _core, cribbage, piquet
from test_piquet_batch import features_of, random_deals

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
LAYOUTS = ["aligned", "misaligned", "big-endian", "negative-stride", "fortran", "read-only", "record-field", "memmap"]
ROWS = 60


def layout(a, dtype, kind, tmp_path, name):
    """``a`` (C order, native int64) as an array of ``dtype`` with the given memory layout; same values.
    (numpy flags an empty array contiguous and aligned whatever its layout, so the layout checks
    below hold for non-empty arrays only.)"""
    dtype = np.dtype(dtype)
    empty = a.size == 0
    if kind == "aligned":
        out = a.astype(dtype)
    elif kind == "misaligned":
        buf = bytearray(a.size * dtype.itemsize + 1)
        out = np.frombuffer(buf, dtype, a.size, 1).reshape(a.shape)
        out[...] = a
        assert empty or dtype.itemsize == 1 or not out.flags.aligned
    elif kind == "big-endian":
        out = a.astype(dtype.newbyteorder(">"))
        assert dtype.itemsize == 1 or out.dtype.byteorder == ">"
    elif kind == "negative-stride":
        out = np.ascontiguousarray(a[::-1].astype(dtype))[::-1]
        assert out.strides[0] < 0 or a.shape[0] < 2
    elif kind == "fortran":
        out = np.asfortranarray(a.astype(dtype))
        assert empty or a.ndim == 1 or not out.flags.c_contiguous
    elif kind == "read-only":
        out = a.astype(dtype)
        out.setflags(write=False)
    elif kind == "record-field":
        rec = np.zeros(a.shape, np.dtype([("pad", "u1"), ("v", dtype)]))
        rec["v"] = a
        out = rec["v"]
        assert empty or not out.flags.c_contiguous
    elif kind == "memmap":
        path = tmp_path / f"{name}.bin"
        path.write_bytes(b"\0" + a.astype(dtype).tobytes())
        out = np.memmap(path, dtype, mode="r", offset=1, shape=a.shape)
        assert isinstance(out, np.memmap) and (empty or dtype.itemsize == 1 or not out.flags.aligned)
    else:  # pragma: no cover
        raise AssertionError(kind)
    assert (np.asarray(out).astype(np.int64) == a).all()
    return out


# ----------------------------------------------------------------------------- the inputs


def random_shows(n, seed):
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :5]
    return cards[:, :4].copy(), cards[:, 4].copy()


def random_counts(n, seed, padded):
    """Rows of 5 distinct cards from ace..six (so the count stays <= 30); with ``padded``, rows
    shortened to 1..5 cards and padded with -1."""
    rng = np.random.default_rng(seed)
    low = np.array([s * 13 + r for s in range(4) for r in range(6)])
    rows = np.array([rng.permutation(low)[:5] for _ in range(n)], np.int64)
    if padded:
        for r in range(n):
            rows[r, rng.integers(1, 6) :] = -1
    return rows


HANDS, STARTERS = random_shows(ROWS, 1)
COUNTS = random_counts(ROWS, 2, padded=False)
PADDED = random_counts(ROWS, 3, padded=True)
ELDER, DEALER = random_deals(ROWS, 4)
SHOW_KEYS = ["fifteens", "pairs", "runs", "flush", "nobs", "total"]


# The single-item answers, row by row.
SCORES = [cribbage.score_hand(h, s) for h, s in zip(HANDS.tolist(), STARTERS.tolist())]
EXPLAINED = [cribbage.explain_hand(h, s) for h, s in zip(HANDS.tolist(), STARTERS.tolist())]
PEG = [cribbage.peg_points(r) for r in COUNTS.tolist()]
PEG_PADDED = [cribbage.peg_points([c for c in r if c != -1]) for r in PADDED.tolist()]
FEATURES = [features_of(piquet.declarations(h)) for h in ELDER.tolist()]
DECL = [list(piquet.score_declarations(e, d).totals) for e, d in zip(ELDER.tolist(), DEALER.tolist())]


def test_the_single_answers_are_not_trivial():
    # So that a batch function returning zeros, or row 0 everywhere, would fail below.
    assert len(set(SCORES)) > 3 and len(set(PEG)) > 3 and len(set(PEG_PADDED)) > 3
    assert len({tuple(x) for x in DECL}) > 3 and len({f["point_value"] for f in FEATURES}) > 3


# ------------------------------------------------------------------- every dtype × layout × function

CORE = {
    "score_hand_batch": _core.cribbage_score_hand_batch,
    "explain_hand_batch": _core.cribbage_explain_hand_batch,
    "peg_points_batch": _core.cribbage_peg_points_batch,
    "declarations_batch": _core.piquet_declarations_batch,
    "score_declarations_batch": _core.piquet_score_declarations_batch,
}
PYTHON = {
    "score_hand_batch": cribbage.score_hand_batch,
    "explain_hand_batch": cribbage.explain_hand_batch,
    "peg_points_batch": cribbage.peg_points_batch,
    "declarations_batch": piquet.declarations_batch,
    "score_declarations_batch": piquet.score_declarations_batch,
}


@pytest.mark.parametrize("api", ["python", "core"])
@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cribbage_shows_any_layout(dtype, kind, api, tmp_path):
    funcs = PYTHON if api == "python" else CORE
    h = layout(HANDS, dtype, kind, tmp_path, "h")
    s = layout(STARTERS, dtype, kind, tmp_path, "s")
    got = funcs["score_hand_batch"](h, s)
    assert got.dtype == np.uint8 and got.tolist() == SCORES
    cols = funcs["explain_hand_batch"](h, s)
    for key in SHOW_KEYS:
        want = [b.total if key == "total" else getattr(b, key) for b in EXPLAINED]
        assert cols[key].tolist() == want, key


@pytest.mark.parametrize("api", ["python", "core"])
@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cribbage_pegging_any_layout(dtype, kind, api, tmp_path):
    funcs = PYTHON if api == "python" else CORE
    got = funcs["peg_points_batch"](layout(COUNTS, dtype, kind, tmp_path, "c"))
    assert got.dtype == np.uint8 and got.tolist() == PEG
    if np.dtype(dtype).kind == "i":  # -1 padding needs a signed dtype
        assert funcs["peg_points_batch"](layout(PADDED, dtype, kind, tmp_path, "p")).tolist() == PEG_PADDED


@pytest.mark.parametrize("api", ["python", "core"])
@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_piquet_any_layout(dtype, kind, api, tmp_path):
    funcs = PYTHON if api == "python" else CORE
    e = layout(ELDER, dtype, kind, tmp_path, "e")
    d = layout(DEALER, dtype, kind, tmp_path, "d")
    got = funcs["score_declarations_batch"](e, d)
    assert got.dtype == np.int16 and got.shape == (ROWS, 2) and got.tolist() == DECL
    f = funcs["declarations_batch"](e)
    for key in FEATURES[0]:
        assert f[key].tolist() == [x[key] for x in FEATURES], key


def test_the_issue_example_misaligned_int64():
    # Issue 8.1: this panicked ("contiguous: AsSliceError"). J♣ 5♦ 5♥ 5♠ + 5♣ is 29.
    buf = bytearray(33)
    h = np.frombuffer(buf, np.int64, 4, 1).reshape(1, 4)
    h[0] = [10, 17, 30, 43]
    assert not h.flags.aligned and h.flags.c_contiguous
    assert cribbage.score_hand_batch(h, [4]).tolist() == [29]
    assert _core.cribbage_score_hand_batch(h, np.array([4], np.int64)).tolist() == [29]


def test_only_arrays_that_need_it_are_copied(monkeypatch):
    # The copy is numpy.require; an aligned C-contiguous native array never reaches it (the fast
    # path reads it in place), every other layout does, once per array.
    seen = []
    real = np.require

    def spy(a, dtype=None, requirements=None):
        seen.append((a.dtype.str, a.flags.c_contiguous, a.flags.aligned))
        return real(a, dtype, requirements)

    monkeypatch.setattr(np, "require", spy)
    assert _core.cribbage_score_hand_batch(HANDS.copy(), STARTERS.copy()).tolist() == SCORES
    ro = ELDER.astype(np.uint8)
    ro.setflags(write=False)
    assert _core.piquet_declarations_batch(ro)["point_value"].tolist() == [f["point_value"] for f in FEATURES]
    assert seen == []
    h = layout(HANDS, np.int32, "misaligned", None, "h")
    s = layout(STARTERS, np.int32, "big-endian", None, "s")
    assert _core.cribbage_score_hand_batch(h, s).tolist() == SCORES
    assert seen == [("<i4", True, False), (">i4", True, True)]


# ----------------------------------------------------------------------------------- bad arguments

BAD_DTYPES = {
    "float": np.zeros((1, 4), np.float64),
    "bool": np.zeros((1, 4), np.bool_),
    "object": np.array([[1, 2, 3, 4]], object),
    "complex": np.zeros((1, 4), np.complex128),
    "str": np.array([["1", "2", "3", "4"]]),
    "datetime": np.zeros((1, 4), "datetime64[D]"),
}


def calls(hands_like, api):
    """Each batch function with its first id argument ``hands_like`` (other arguments valid)."""
    funcs = PYTHON if api == "python" else CORE
    one = np.array([4], np.int64)
    twelve = np.arange(12, dtype=np.int64).reshape(1, 12)
    return {
        "score_hand_batch": lambda: funcs["score_hand_batch"](hands_like, one),
        "explain_hand_batch": lambda: funcs["explain_hand_batch"](hands_like, one),
        "peg_points_batch": lambda: funcs["peg_points_batch"](hands_like),
        "declarations_batch": lambda: funcs["declarations_batch"](hands_like),
        "score_declarations_batch": lambda: funcs["score_declarations_batch"](hands_like, twelve + 12),
    }


ARG_NAME = {
    "score_hand_batch": "hands",
    "explain_hand_batch": "hands",
    "peg_points_batch": "sequences",
    "declarations_batch": "hands",
    "score_declarations_batch": "elder",
}


@pytest.mark.parametrize("api", ["python", "core"])
@pytest.mark.parametrize("bad", list(BAD_DTYPES), ids=str)
@pytest.mark.parametrize("func", list(ARG_NAME))
def test_non_integer_dtypes_are_type_errors_naming_the_argument(func, bad, api):
    with pytest.raises(TypeError, match=f"^{ARG_NAME[func]} must hold integer card ids, got dtype"):
        calls(BAD_DTYPES[bad], api)[func]()


@pytest.mark.parametrize("api", ["python", "core"])
@pytest.mark.parametrize("func", list(ARG_NAME))
def test_wrong_ndim_is_a_value_error_naming_the_argument_and_the_shape(func, api):
    with pytest.raises(ValueError, match=rf"^{ARG_NAME[func]} must be a 2-d array, got shape \(1, 4, 1\)"):
        calls(np.zeros((1, 4, 1), np.int64), api)[func]()


@pytest.mark.parametrize("bad", [np.zeros(4, np.float32), np.zeros((2, 2), np.int64)], ids=["float", "2-d"])
def test_the_second_argument_is_named_too(bad):
    h = HANDS[:1].copy()
    err = TypeError if bad.dtype.kind == "f" else ValueError
    with pytest.raises(err, match="^starters must"):
        _core.cribbage_score_hand_batch(h, bad)
    with pytest.raises(err, match="^starters must"):
        cribbage.score_hand_batch(h, bad)


@pytest.mark.parametrize("api", ["python", "core"])
def test_wrong_row_widths_name_the_argument_and_the_shape(api):
    funcs = PYTHON if api == "python" else CORE
    five = np.zeros((2, 5), np.int64)
    two = np.array([4, 5], np.int64)
    with pytest.raises(ValueError, match=re.escape("hands must have 3 or 4 cards per row, got 5 (shape (2, 5))")):
        funcs["score_hand_batch"](five, two)
    with pytest.raises(ValueError, match=re.escape("hands must have 4 cards per row for a crib, got 3 (shape (2, 3))")):
        funcs["explain_hand_batch"](five[:, :3], two, crib=True)
    with pytest.raises(ValueError, match=re.escape("sequences must have 1 to 13 cards per row, got width 14 (shape")):
        funcs["peg_points_batch"](np.zeros((2, 14), np.int64))
    with pytest.raises(ValueError, match=re.escape("hands must have 12 cards per row, got shape (2, 11)")):
        funcs["declarations_batch"](np.zeros((2, 11), np.int64))
    with pytest.raises(ValueError, match=re.escape("dealer must have 12 cards per row, got shape (2, 13)")):
        funcs["score_declarations_batch"](np.zeros((2, 12), np.int64), np.zeros((2, 13), np.int64))


def test_row_counts_must_agree_at_the_core():
    with pytest.raises(ValueError, match=re.escape("hands has 2 rows but starters has 3")):
        _core.cribbage_score_hand_batch(np.zeros((2, 4), np.int64), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=re.escape("elder has 2 rows but dealer has 1")):
        _core.piquet_score_declarations_batch(np.zeros((2, 12), np.int64), np.zeros((1, 12), np.int64))


def test_not_an_array_at_the_core_is_a_type_error():
    with pytest.raises(TypeError, match="^hands must be a numpy array, got list"):
        _core.cribbage_score_hand_batch([[10, 17, 30, 43]], np.array([4]))


def test_different_dtypes_at_the_core_are_a_type_error():
    # The wrappers give both arrays one dtype; the core itself refuses rather than guesses.
    with pytest.raises(TypeError, match="^hands and starters must have the same dtype"):
        _core.cribbage_score_hand_batch(HANDS.astype(np.int8), STARTERS.astype(np.int64))
    with pytest.raises(TypeError, match="^elder and dealer must have the same dtype"):
        _core.piquet_score_declarations_batch(ELDER.astype(np.uint8), DEALER.astype(np.int64))


def test_errors_on_a_copied_array_still_name_the_first_bad_row():
    h = layout(HANDS, np.int16, "misaligned", None, "x")
    h[7, 2] = h[7, 1]
    h[3, 0] = 99
    with pytest.raises(ValueError, match=r"^row 3: card id 99 is out of range"):
        _core.cribbage_score_hand_batch(h, layout(STARTERS, np.int16, "misaligned", None, "y"))


# --------------------------------------------------------------------------------------- empty

@pytest.mark.parametrize("kind", ["aligned", "misaligned", "big-endian", "fortran", "record-field"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_empty_batches(dtype, kind):
    h = layout(np.zeros((0, 4), np.int64), dtype, kind, None, "h")
    s = layout(np.zeros(0, np.int64), dtype, kind, None, "s")
    p = layout(np.zeros((0, 12), np.int64), dtype, kind, None, "p")
    for funcs in (PYTHON, CORE):
        assert funcs["score_hand_batch"](h, s).shape == (0,)
        assert all(v.shape == (0,) for v in funcs["explain_hand_batch"](h, s).values())
        assert funcs["peg_points_batch"](h).shape == (0,)
        assert funcs["score_declarations_batch"](p, p).shape == (0, 2)
        assert all(v.shape == (0,) for v in funcs["declarations_batch"](p).values())


# --------------------------------------------------------------- Ctrl-C during the first batch call

CTRL_C = """
import _thread, functools, operator, sys
import numpy as np
import cribpiquet
from cribpiquet import _core

call = functools.partial(_core.{func}, *{args})
# interrupt_main() leaves a KeyboardInterrupt pending without running the handler; map() and
# methodcaller run in C, so the first batch call starts with the interrupt pending, before any
# bytecode could deliver it.
steps = [_thread.interrupt_main, call]
try:
    out = list(map(operator.methodcaller("__call__"), steps))
    print("result")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
except BaseException as e:
    print("OTHER", type(e).__name__, e)
"""

FIRST_CALLS = {
    "cribbage_score_hand_batch": "(np.array([[10, 17, 30, 43]]), np.array([4]))",
    "cribbage_peg_points_batch": "(np.array([[2, 1, 4, 0, 3]]),)",
    "piquet_declarations_batch": "(np.arange(12).reshape(1, 12),)",
}


@pytest.mark.parametrize("func", list(FIRST_CALLS))
def test_ctrl_c_during_the_first_batch_call_is_not_a_panic(func):
    # Before the fix the numpy C API was loaded by the first batch call, whose import of numpy's
    # Python code raised the pending KeyboardInterrupt inside rust-numpy: a PanicException
    # ("Failed to access NumPy array API capsule"). Now it is loaded on import.
    code = textwrap.dedent(CTRL_C).format(func=func, args=FIRST_CALLS[func])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "panicked" not in done.stderr, done.stderr
    assert done.stdout.strip() in ("KeyboardInterrupt", "result"), (done.stdout, done.stderr)
