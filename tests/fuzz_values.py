"""Garbage values for tests/test_fuzz.py: hypothesis strategies for out-of-range ints, bools,
floats, strings, bytes, nested / infinite / raising iterables, numpy arrays of every dtype and
memory layout, the other game's cards and int / str subclasses.

Infinite iterables are never handed to the library raw: they are wrapped in :class:`Bounded`,
which raises :class:`ReadTooMuch` after ``LIMIT`` items, so a function that reads forever fails
(instead of eating the machine's memory); the test reports it as "read more than LIMIT items".
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import strategies as st

from cribpiquet import cribbage, piquet

#: How many items an iterable may yield before the library is deemed to read forever.
LIMIT = 10_000


class ReadTooMuch(Exception):
    """Raised by a :class:`Bounded` iterable once the library has read more than LIMIT items."""


class UserIterError(Exception):
    """Raised by a deliberately failing generator: the library may let it propagate."""


class Bounded:
    """An iterable over ``factory()`` that raises ReadTooMuch after LIMIT items (and says so)."""

    def __init__(self, factory, label: str):
        self.factory, self.label, self.read = factory, label, 0

    def __iter__(self):
        for x in self.factory():
            self.read += 1
            if self.read > LIMIT:
                raise ReadTooMuch(f"read more than {LIMIT} items of {self.label}")
            yield x

    @property
    def exceeded(self) -> bool:
        return self.read > LIMIT

    def __repr__(self) -> str:
        return f"Bounded({self.label})"


class Raising:
    """An iterable yielding ``items`` then raising UserIterError."""

    def __init__(self, items):
        self.items = list(items)

    def __iter__(self):
        yield from self.items
        raise UserIterError("the generator failed")

    def __repr__(self) -> str:
        return f"Raising({self.items!r})"


class IntSub(int):
    """An int subclass."""


class StrSub(str):
    """A str subclass."""


class Indexable:
    """An object with ``__index__`` (returning ``value`` or raising)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value

    def __repr__(self) -> str:
        return f"Indexable({self.value!r})"


class Stringy:
    """An object whose ``__str__`` is card text (it is not a str)."""

    def __str__(self) -> str:
        return "5H"

    def __repr__(self) -> str:
        return "Stringy()"


class BadLen(list):
    """A list whose ``__len__`` lies."""

    def __len__(self):
        return 2**62

    def __repr__(self) -> str:
        return f"BadLen({list.__repr__(self)})"  # list(self) would trust __len__


BIG_INTS = [-1, -2, 2**31 - 1, 2**31, -(2**31) - 1, 2**32, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 2**64 + 1, -(2**64), 2**200, -(2**200), 10**400]
SPECIAL_FLOATS = [0.0, -0.0, 1.0, 0.5, 5.0, 1e-10, 5e-324, 1e300, -1e300, math.nan, math.inf, -math.inf, 2.0**63, 2.0**64]
CARD_TEXT = ["5H", "10♥", "th", "AS", "KD", "JC", "7C", "1H", "5X", "", " ", "5H 5D 5S JC", "5h,5d", "♥", "10", "TT", "AH\x00", "é", "５H", "\udcff"]
HUGE_STRINGS = ["5H " * 100_000, "A" * 1_000_000, "x" * 10_000 + "5H", "🂡" * 50_000]

ints = st.one_of(st.sampled_from(BIG_INTS), st.integers(-100, 100), st.integers(-(2**70), 2**70))
bools = st.booleans()
floats = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(allow_nan=True, allow_infinity=True))
texts = st.one_of(st.sampled_from(CARD_TEXT), st.text(max_size=30), st.sampled_from(HUGE_STRINGS))
blobs = st.one_of(st.binary(max_size=20), st.just(b"5H"), st.just(bytearray(b"5H 5D")), st.just(memoryview(b"\x05\x06")))
other_cards = st.one_of(
    st.integers(0, 51).map(cribbage.Card),
    st.integers(0, 31).map(piquet.Card),
)
subclasses = st.one_of(
    st.integers(-5, 60).map(IntSub),
    st.sampled_from(CARD_TEXT[:8]).map(StrSub),
    st.sampled_from([3, -1, 2**64, True, 2.5, ValueError("index"), OverflowError("index"), KeyError("x")]).map(Indexable),
    st.just(Stringy()),
    st.sampled_from([object(), type, len, Ellipsis, NotImplemented, complex(1, 2), 3 + 0j, slice(1, 2)]),
)

scalars = st.one_of(st.none(), ints, bools, floats, texts, blobs, other_cards, subclasses)


def _infinite():
    return st.sampled_from(
        [
            ("cycle(ints)", lambda: itertools.cycle([1, 2, 3])),
            ("count()", lambda: itertools.count()),
            ("cycle(cards)", lambda: itertools.cycle(["5H", "5D"])),
            ("repeat(0)", lambda: itertools.repeat(0)),
            ("cycle(lists)", lambda: itertools.cycle([[1, 2, 3, 4]])),
        ]
    ).map(lambda p: Bounded(p[1], p[0]))


iterables = st.one_of(
    st.lists(scalars, max_size=15),
    st.lists(scalars, max_size=15).map(tuple),
    st.lists(st.integers(-3, 60), max_size=15).map(lambda xs: iter(xs)),
    st.lists(st.integers(-3, 60), max_size=15).map(lambda xs: (x for x in xs)),
    st.lists(st.integers(0, 51), max_size=15).map(set),
    st.lists(st.integers(0, 51), max_size=15).map(lambda xs: dict.fromkeys(xs)),
    st.lists(st.lists(st.integers(-1, 60), max_size=5), max_size=5),
    st.recursive(st.integers(0, 40), lambda inner: st.lists(inner, max_size=4), max_leaves=20),
    st.lists(st.integers(0, 40), max_size=6).map(Raising),
    st.lists(st.integers(0, 40), max_size=6).map(BadLen),
    st.builds(lambda: Bounded(lambda: range(2**64), "range(2**64)")),  # finite, but far beyond any bound (a new one per draw: it counts)
    st.just(range(-5, 5)),
    _infinite(),
)

# --------------------------------------------------------------------------------- numpy

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
OTHER_DTYPES = ["float16", "float32", "float64", "longdouble", "bool", "object", "complex64", "complex128", "U3", "S3", "datetime64[s]", "timedelta64[s]", "V4"]


def _layout(a: np.ndarray, how: str) -> np.ndarray:
    if how == "c":
        return a
    if how == "fortran":
        return np.asfortranarray(a)
    if how == "reversed":  # negative strides, same values reversed back by the view
        return np.flip(np.flip(a).copy()) if a.ndim else a
    if how == "strided":
        if a.ndim == 0:
            return a
        big = np.repeat(a, 2, axis=0)
        return big[::2]
    if how == "readonly":
        a = a.copy()
        a.setflags(write=False)
        return a
    if how == "bigendian":
        if a.dtype.kind in "iufc" and a.dtype.itemsize > 1:
            return a.astype(a.dtype.newbyteorder(">"))
        return a
    if how == "misaligned":
        if a.dtype.kind in "iufcb" and a.dtype.itemsize > 0:
            buf = bytearray(a.nbytes + 1)
            m = np.frombuffer(buf, dtype=a.dtype, offset=1, count=a.size).reshape(a.shape)
            m[...] = a
            return m
        return a
    if how == "misaligned-readonly":
        if a.dtype.kind in "iufcb" and a.dtype.itemsize > 0:
            raw = bytes(1) + a.tobytes()
            return np.frombuffer(raw, dtype=a.dtype, offset=1, count=a.size).reshape(a.shape)
        return a
    raise AssertionError(how)


LAYOUTS = ["c", "fortran", "reversed", "strided", "readonly", "bigendian", "misaligned", "misaligned-readonly"]


@st.composite
def arrays(draw, shapes, hi: int = 52, int_only: bool = False):
    """An array of a drawn dtype, shape (from ``shapes`` or random rank 0..3) and layout, its
    values mostly valid card ids ``0..hi-1`` (sometimes -1, hi, or extremes of the dtype)."""
    shape = draw(st.one_of(st.sampled_from(shapes), st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple)))
    dtype = np.dtype(draw(st.sampled_from(INT_DTYPES if int_only else INT_DTYPES * 2 + OTHER_DTYPES)))
    n = int(np.prod(shape)) if shape else 1
    if draw(st.integers(0, 3)) == 0:
        vals = draw(st.lists(st.integers(-(2**64), 2**64), min_size=n, max_size=n))
    else:
        # distinct ids per row where possible: a random permutation, wrapped
        perm = draw(st.permutations(range(hi)))
        vals = [perm[i % hi] for i in range(n)]
        if n and draw(st.booleans()):
            i = draw(st.integers(0, n - 1))
            vals[i] = draw(st.sampled_from([-1, hi, 255, 2**31, 2**63, -(2**63)]))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        vals = [min(max(v, int(info.min)), int(info.max)) for v in vals]
    if dtype.kind in "US":
        a = np.array([str(v)[:3] for v in vals], dtype=dtype).reshape(shape)
    elif dtype.kind in "mMV":
        a = np.zeros(shape, dtype=dtype)
    elif dtype.kind == "O":
        objs = [draw(st.sampled_from([v, str(v), float(v), None, cribbage.Card(v % 52)])) for v in vals]
        a = np.empty(n, dtype=object)
        a[:] = objs
        a = a.reshape(shape)
    else:
        with np.errstate(all="ignore"):
            a = np.array(vals, dtype=object).astype(dtype).reshape(shape) if dtype.kind != "b" else (np.array(vals) % 2 == 1).reshape(shape)
    return _layout(a, draw(st.sampled_from(LAYOUTS)))


any_array = arrays([(0,), (0, 4), (3,), (2, 4), (2, 3), (2, 12), (1, 5), (2, 2, 4)])

#: Anything at all: what every parameter gets when it is not given a valid value.
garbage = st.one_of(scalars, iterables, any_array)
