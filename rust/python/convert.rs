//! Turning Python objects into cards and numpy arrays into id slices, for both games.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};

use crate::error::Error;

/// What the conversions need to know about a game's cards.
pub(crate) trait Deck {
    /// The core card type.
    type Card: Copy + std::fmt::Display;
    /// The core set of distinct cards.
    type Hand: Copy;
    /// Cards in the pack (ids are `0..COUNT`).
    const COUNT: u8;
    /// `"a cribbage card is not a piquet card"`: the `TypeError` for the other game's `Card`.
    const OTHER_CARD: &'static str;
    /// The card with this id (range-checked).
    fn from_id(id: i64) -> Result<Self::Card, Error>;
    /// The card with this text.
    fn parse(text: &str) -> Result<Self::Card, Error>;
    /// The card if `obj` is this game's Python `Card`.
    fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<Self::Card>;
    /// Is `obj` the other game's Python `Card` (an int by `__index__`, but not a card here)?
    fn is_other_card(obj: &Bound<'_, PyAny>) -> bool;
    /// The empty set.
    fn empty() -> Self::Hand;
    /// Add a card if absent; whether it was added.
    fn insert(hand: &mut Self::Hand, card: Self::Card) -> bool;
}

/// The repr of a Python value cut to [`ECHO_CHARS`](crate::error::ECHO_CHARS) characters (a
/// huge int whose repr Python refuses is described by its size).
pub(crate) fn echo_repr(obj: &Bound<'_, PyAny>) -> String {
    match obj.repr() {
        Ok(r) => crate::error::echo(&r.to_string_lossy()).into_owned(),
        Err(_) => match obj.call_method0("bit_length").and_then(|b| b.extract::<u64>()) {
            Ok(bits) => format!("an int of {bits} bits"),
            Err(_) => "?".into(),
        },
    }
}

/// `"type repr"` of a Python value, for error messages (the repr cut, see [`echo_repr`]).
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    format!("{type_name} {}", echo_repr(obj))
}

/// One card from a `Card`, an int id (or anything with `__index__`), or card text.
pub(crate) fn card<D: Deck>(obj: &Bound<'_, PyAny>) -> PyResult<D::Card> {
    if let Some(card) = D::from_py_card(obj) {
        return Ok(card);
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(D::parse(text.to_str()?)?);
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("expected a card, got the bool {obj}")));
    }
    if D::is_other_card(obj) {
        return Err(PyTypeError::new_err(D::OTHER_CARD));
    }
    match obj.extract::<i64>() {
        Ok(id) => Ok(D::from_id(id)?),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => Err(PyValueError::new_err(
            format!("card id {} is out of range (ids are 0..{})", echo_repr(obj), D::COUNT - 1),
        )),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected a card (a Card, an int id or text like '5H'), got {}",
            describe(obj)
        ))),
    }
}

/// How big a group of cards may be: its name and sizes for the message, and the most cards read
/// (one more is an error, so an endless iterable or a megabyte of text costs `max + 1` cards).
#[derive(Clone, Copy)]
pub(crate) struct Group {
    /// What the group is (`"hand"`).
    pub(crate) what: &'static str,
    /// The sizes allowed, in words (`"3 or 4"`).
    pub(crate) expected: &'static str,
    /// The most cards.
    pub(crate) max: usize,
}

/// A group of cards: space/comma-separated text, or any iterable of cards. Calls `push` per card.
/// More than `group.max` cards is a `ValueError`: "… got 14" for text, a list or a tuple (checked
/// before any card is converted), "… got more than 13" for any other iterable, which is read at
/// most `group.max + 1` items far (so an endless one ends).
pub(crate) fn cards<D: Deck>(
    obj: &Bound<'_, PyAny>,
    group: Group,
    mut push: impl FnMut(D::Card) -> PyResult<()>,
) -> PyResult<()> {
    let sized = |got: usize| {
        if got > group.max {
            Err(Error::WrongCardCount { what: group.what, expected: group.expected, got })
        } else {
            Ok(())
        }
    };
    if let Ok(text) = obj.cast::<PyString>() {
        let mut words = crate::cards::card_words(text.to_str()?);
        let mut n = 0;
        while let Some(word) = words.next() {
            n += 1;
            if n > group.max {
                sized(n + words.by_ref().count())?; // a count, not a parse: no word past the most is read
            }
            push(D::parse(word)?)?;
        }
        return Ok(());
    }
    if let Ok(list) = obj.cast::<PyList>() {
        sized(list.len())?;
        for item in list.iter() {
            push(card::<D>(&item)?)?;
        }
        return Ok(());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        sized(tuple.len())?;
        for item in tuple.iter() {
            push(card::<D>(&item)?)?;
        }
        return Ok(());
    }
    if D::from_py_card(obj).is_some() || D::is_other_card(obj) || obj.extract::<i64>().is_ok() {
        return Err(PyTypeError::new_err(format!(
            "expected a group of cards (text like '5H 5D JC' or an iterable of cards), got a single card {}",
            describe(obj)
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a group of cards (text like '5H 5D JC' or an iterable of cards), got {}",
            describe(obj)
        ))
    })?;
    for (i, item) in iter.enumerate() {
        let item = item?;
        if i == group.max {
            return Err(Error::TooManyCards { what: group.what, expected: group.expected, max: group.max }.into());
        }
        push(card::<D>(&item)?)?;
    }
    Ok(())
}

/// Distinct cards (a hand, a crib): see [`cards`]; a repeated card is a `ValueError`.
pub(crate) fn hand<D: Deck>(obj: &Bound<'_, PyAny>, group: Group) -> PyResult<D::Hand> {
    let mut hand = D::empty();
    cards::<D>(obj, group, |card| {
        if D::insert(&mut hand, card) {
            Ok(())
        } else {
            Err(Error::DuplicateCard(card.to_string()).into())
        }
    })?;
    Ok(hand)
}

/// Cards in the order given (a pegging sequence, a card list): see [`cards`].
pub(crate) fn card_vec<D: Deck>(obj: &Bound<'_, PyAny>, group: Group) -> PyResult<Vec<D::Card>> {
    let mut out = Vec::with_capacity(group.max.min(16));
    cards::<D>(obj, group, |card| {
        out.push(card);
        Ok(())
    })?;
    Ok(out)
}

/// A bool argument: `TypeError` naming it for anything else ("crib must be a bool, got int").
pub(crate) fn bool_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    obj.cast::<PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| PyTypeError::new_err(format!("{name} must be a bool, got {}", describe(obj))))
}

/// A str argument: `TypeError` naming it for anything else ("kind must be a str, got int 5").
pub(crate) fn str_arg<'a, 'py>(obj: &'a Bound<'py, PyAny>, name: &str) -> PyResult<&'a Bound<'py, PyString>> {
    obj.cast::<PyString>().map_err(|_| PyTypeError::new_err(format!("{name} must be a str, got {}", describe(obj))))
}

/// Integer id arrays of any integer dtype, borrowed read-only and C-contiguous.
pub(crate) enum Ids1<'py> {
    I8(PyReadonlyArray1<'py, i8>),
    I16(PyReadonlyArray1<'py, i16>),
    I32(PyReadonlyArray1<'py, i32>),
    I64(PyReadonlyArray1<'py, i64>),
    U8(PyReadonlyArray1<'py, u8>),
    U16(PyReadonlyArray1<'py, u16>),
    U32(PyReadonlyArray1<'py, u32>),
    U64(PyReadonlyArray1<'py, u64>),
}

/// See [`Ids1`]; two-dimensional.
pub(crate) enum Ids2<'py> {
    I8(PyReadonlyArray2<'py, i8>),
    I16(PyReadonlyArray2<'py, i16>),
    I32(PyReadonlyArray2<'py, i32>),
    I64(PyReadonlyArray2<'py, i64>),
    U8(PyReadonlyArray2<'py, u8>),
    U16(PyReadonlyArray2<'py, u16>),
    U32(PyReadonlyArray2<'py, u32>),
    U64(PyReadonlyArray2<'py, u64>),
}

fn not_ids(name: &str, obj: &Bound<'_, PyAny>, ndim: usize) -> PyErr {
    match obj.cast::<PyUntypedArray>() {
        Ok(a) if a.ndim() != ndim => {
            PyValueError::new_err(format!("{name} must be a {ndim}-d array, got shape {:?}", a.shape()))
        }
        Ok(a) => PyTypeError::new_err(format!(
            "{name} must hold integer card ids, got dtype {}",
            a.dtype().str().map(|s| s.to_string()).unwrap_or_default()
        )),
        Err(_) => PyTypeError::new_err(format!("{name} must be a numpy array, got {}", describe(obj))),
    }
}

fn borrow_err(name: &str) -> impl Fn(numpy::BorrowError) -> PyErr + '_ {
    move |e| PyValueError::new_err(format!("{name} cannot be read: {e}"))
}

macro_rules! extract_ids {
    ($enum:ident, $arr:ident, $obj:expr, $name:expr, $ndim:expr, [$($v:ident: $t:ty),*]) => {{
        $(
            if let Ok(a) = $obj.cast::<$arr<$t>>() {
                if !a.is_c_contiguous() {
                    return Err(PyValueError::new_err(format!("{} must be C-contiguous", $name)));
                }
                return Ok($enum::$v(a.try_readonly().map_err(borrow_err($name))?));
            }
        )*
        Err(not_ids($name, $obj, $ndim))
    }};
}

impl<'py> Ids1<'py> {
    /// Borrow a 1-d integer array (the Python wrapper makes it contiguous first).
    pub(crate) fn extract(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Ids1<'py>> {
        extract_ids!(Ids1, PyArray1, obj, name, 1, [I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64])
    }
}

impl<'py> Ids2<'py> {
    /// Borrow a 2-d integer array (the Python wrapper makes it contiguous first).
    pub(crate) fn extract(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Ids2<'py>> {
        extract_ids!(Ids2, PyArray2, obj, name, 2, [I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64])
    }

    /// (rows, columns).
    pub(crate) fn shape(&self) -> (usize, usize) {
        let s = match self {
            Ids2::I8(a) => a.shape(),
            Ids2::I16(a) => a.shape(),
            Ids2::I32(a) => a.shape(),
            Ids2::I64(a) => a.shape(),
            Ids2::U8(a) => a.shape(),
            Ids2::U16(a) => a.shape(),
            Ids2::U32(a) => a.shape(),
            Ids2::U64(a) => a.shape(),
        };
        (s[0], s[1])
    }
}

/// Run `$body` with `$s` bound to the id slice of an [`Ids1`]/[`Ids2`], whatever its dtype.
macro_rules! with_slice {
    ($ids:expr, $enum:ident, |$s:ident| $body:expr) => {
        match $ids {
            $enum::I8(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::I16(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::I32(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::I64(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::U8(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::U16(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::U32(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
            $enum::U64(a) => {
                let $s = a.as_slice().expect("contiguous");
                $body
            }
        }
    };
}
pub(crate) use with_slice;

/// Run `$body` with `$a` and `$b` bound to the slices of an [`Ids2`] and an [`Ids1`] of the same
/// dtype (the Python wrapper gives both one dtype).
macro_rules! with_slices {
    ($two:expr, $one:expr, |$a:ident, $b:ident| $body:expr) => {
        match ($two, $one) {
            (Ids2::I8(x), Ids1::I8(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::I16(x), Ids1::I16(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::I32(x), Ids1::I32(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::I64(x), Ids1::I64(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::U8(x), Ids1::U8(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::U16(x), Ids1::U16(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::U32(x), Ids1::U32(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            (Ids2::U64(x), Ids1::U64(y)) => {
                let ($a, $b) = (x.as_slice().expect("contiguous"), y.as_slice().expect("contiguous"));
                $body
            }
            _ => Err(pyo3::exceptions::PyTypeError::new_err("the two id arrays must have the same dtype")),
        }
    };
}
pub(crate) use with_slices;

/// An int argument in `min..=max`: `TypeError` for a non-int (or a bool), `ValueError` (never
/// `OverflowError`) outside the range, naming the argument and the value.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int, got {}", describe(obj))));
    }
    let out_of_range = || PyValueError::new_err(format!("{name} must be in {min}..={max}, got {}", echo_repr(obj)));
    match obj.extract::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(_) => Err(PyTypeError::new_err(format!("{name} must be an int, got {}", describe(obj)))),
    }
}

/// The text of a card with its suit symbol (`"10♥"`, `"A♠"`) from its letter form (`"TH"`).
pub(crate) fn symbol_text(letters: &str, suit: u8) -> String {
    let face = &letters[..letters.len() - 1];
    let face = if face == "T" { "10" } else { face };
    format!("{face}{}", crate::cards::SUIT_SYMBOLS[suit as usize])
}

/// Define a game's `Deck` marker and its frozen Python `Card` class (ordered and hashed by id,
/// built from a Card, an int id or text, picklable), plus any game-specific methods.
macro_rules! card_class {
    (
        $(#[$doc:meta])*
        deck: $deck:ident, core: $core:ty, hand: $hand:ty, count: $count:expr, module: $module:literal,
        other: $other:ty, other_card: $other_card:literal,
        id_doc: $id_doc:literal, rank_doc: $rank_doc:literal;
        $($extra:tt)*
    ) => {
        struct $deck;

        impl $crate::python::convert::Deck for $deck {
            type Card = $core;
            type Hand = $hand;
            const COUNT: u8 = $count;
            const OTHER_CARD: &'static str = $other_card;
            fn from_id(id: i64) -> Result<$core, $crate::error::Error> {
                <$core>::from_id(id)
            }
            fn parse(text: &str) -> Result<$core, $crate::error::Error> {
                text.parse()
            }
            #[inline]
            fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<$core> {
                obj.cast::<Card>().ok().map(|c| c.get().0)
            }
            fn is_other_card(obj: &Bound<'_, PyAny>) -> bool {
                obj.is_instance_of::<$other>()
            }
            fn empty() -> $hand {
                <$hand>::new()
            }
            #[inline]
            fn insert(hand: &mut $hand, card: $core) -> bool {
                hand.insert(card)
            }
        }

        $(#[$doc])*
        #[pyclass(frozen, eq, ord, hash, skip_from_py_object, name = "Card", module = $module)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Card(pub(crate) $core);

        impl PartialOrd for Card {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for Card {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.0.id().cmp(&other.0.id())
            }
        }

        #[pymethods]
        impl Card {
            #[new]
            fn new(value: &Bound<'_, PyAny>) -> PyResult<Card> {
                Ok(Card($crate::python::convert::card::<$deck>(value)?))
            }
            #[doc = $id_doc]
            #[getter]
            fn id(&self) -> u8 {
                self.0.id()
            }
            #[doc = $rank_doc]
            #[getter]
            fn rank(&self) -> u8 {
                self.0.rank()
            }
            /// Suit 0..3: clubs, diamonds, hearts, spades.
            #[getter]
            fn suit(&self) -> u8 {
                self.0.suit()
            }
            /// The text with a suit symbol, e.g. ``"10♥"``, ``"A♠"``.
            fn symbol(&self) -> String {
                $crate::python::convert::symbol_text(&self.0.to_string(), self.0.suit())
            }
            fn __int__(&self) -> u8 {
                self.0.id()
            }
            fn __index__(&self) -> u8 {
                self.0.id()
            }
            fn __str__(&self) -> String {
                self.0.to_string()
            }
            fn __repr__(&self) -> String {
                format!("Card('{}')", self.0)
            }
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, pyo3::types::PyType>, (u8,))> {
                Ok((slf.get_type(), (slf.get().0.id(),)))
            }
            $($extra)*
        }
    };
}
pub(crate) use card_class;
