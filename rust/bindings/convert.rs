//! Python arguments into Rust values, shared by every binding: cards for both games (numpy id
//! arrays: [`super::arrays`]), int arguments ([`IntArg`]: a bool is a `TypeError`, an
//! out-of-range or huge int a `ValueError` naming the argument), seeds ([`seed_from`]) and
//! keyword options ([`keywords`]). Out the other way: lists of action ids ([`action_list`]) and
//! chance outcomes ([`uniform_chance_outcomes`]) from Python ints and tuples made once.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyList, PyString, PyTuple};

use crate::error::Error;

/// What the conversions need to know about a game's cards.
pub(crate) trait Deck {
    /// The core card type (parsed from its text).
    type Card: Copy + std::fmt::Display + std::str::FromStr<Err = Error>;
    /// The core set of distinct cards (empty by default).
    type Hand: Copy + Default;
    /// Cards in the pack (ids are `0..COUNT`).
    const COUNT: u8;
    /// `"a cribbage card is not a piquet card"`: the `TypeError` for the other game's `Card`.
    const OTHER_CARD: &'static str;
    /// The card with this id (range-checked).
    fn from_id(id: i64) -> Result<Self::Card, Error>;
    /// The card if `obj` is this game's Python `Card`.
    fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<Self::Card>;
    /// Is `obj` the other game's Python `Card` (an int by `__index__`, but not a card here)?
    fn is_other_card(obj: &Bound<'_, PyAny>) -> bool;
    /// Add a card if absent; whether it was added.
    fn insert(hand: &mut Self::Hand, card: Self::Card) -> bool;
}

/// Each game's Python `Card` type, registered by its binding module when `_core` is imported
/// ([`register_card_type`]): a game's conversions refuse the other game's cards by this table,
/// so neither card module imports the other. Slot 0 is cribbage's, 1 piquet's.
static CARD_TYPES: [pyo3::sync::PyOnceLock<Py<pyo3::types::PyType>>; 2] =
    [pyo3::sync::PyOnceLock::new(), pyo3::sync::PyOnceLock::new()];

/// Record a game's `Card` type in its slot (module init).
pub(crate) fn register_card_type(slot: usize, ty: Bound<'_, pyo3::types::PyType>) {
    let _ = CARD_TYPES[slot].get_or_init(ty.py(), || ty.clone().unbind());
}

/// Is `obj` a `Card` of the game in `slot`?
pub(crate) fn is_card_in_slot(obj: &Bound<'_, PyAny>, slot: usize) -> bool {
    CARD_TYPES[slot].get(obj.py()).is_some_and(|ty| obj.is_instance(ty.bind(obj.py())).unwrap_or(false))
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
    // The common case first: a plain int id (not a bool, not a Card: those are other types).
    if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        if let Ok(id) = obj.extract::<i64>() {
            return Ok(D::from_id(id)?);
        }
    }
    if let Some(card) = D::from_py_card(obj) {
        return Ok(card);
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return Ok(self::text(text, "card")?.parse::<D::Card>()?);
    }
    if is_bool(&obj) {
        return Err(PyTypeError::new_err(format!("expected a card, got the bool {}", echo_repr(obj))));
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
        let mut words = crate::cards::card_words(self::text(text, "cards")?);
        let mut n = 0;
        while let Some(word) = words.next() {
            n += 1;
            if n > group.max {
                sized(n + words.by_ref().count())?; // a count, not a parse: no word past the most is read
            }
            push(word.parse::<D::Card>()?)?;
        }
        return Ok(());
    }
    if let Ok(list) = obj.cast::<PyList>() {
        sized(list.len())?;
        return list.iter().try_for_each(|item| push(card::<D>(&item)?));
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        sized(tuple.len())?;
        return tuple.iter().try_for_each(|item| push(card::<D>(&item)?));
    }
    const EXPECTED: &str = "expected a group of cards (text like '5H 5D JC' or an iterable of cards), got";
    if D::from_py_card(obj).is_some() || D::is_other_card(obj) || obj.extract::<i64>().is_ok() {
        return Err(PyTypeError::new_err(format!("{EXPECTED} a single card {}", describe(obj))));
    }
    let iter = obj.try_iter().map_err(|_| PyTypeError::new_err(format!("{EXPECTED} {}", describe(obj))))?;
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
    let mut hand = D::Hand::default();
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

/// Is `obj` a bool: Python's `bool` or numpy's (`numpy.bool_`, a scalar read from a bool array)?
/// The one rule of the flags: a flag accepts both ([`bool_arg`]), an int or a number argument
/// (a seat, a count, a time limit) refuses both.
pub(crate) fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        return false; // the common case
    }
    // numpy's bool scalar type, looked up once (a pointer comparison per call after that: an
    // action or a seat given as a numpy int pays no name lookup)
    static NUMPY_BOOL: PyOnceLock<Option<Py<pyo3::types::PyType>>> = PyOnceLock::new();
    let py = obj.py();
    let numpy_bool = NUMPY_BOOL.get_or_init(py, || {
        let ty = py.import("numpy").and_then(|np| np.getattr("bool_")).ok()?;
        ty.cast_into::<pyo3::types::PyType>().ok().map(|t| t.unbind())
    });
    numpy_bool.as_ref().is_some_and(|ty| obj.get_type().is(ty.bind(py)))
}

/// A bool argument (`True`/`False` or a numpy bool, see [`is_bool`]): `TypeError` naming it for
/// anything else ("crib must be a bool, got int 1").
pub(crate) fn bool_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if is_bool(obj) {
        if let Ok(b) = obj.extract::<bool>() {
            return Ok(b);
        }
    }
    Err(PyTypeError::new_err(format!("{name} must be a bool, got {}", describe(obj))))
}

/// A str argument: `TypeError` naming it for anything else ("kind must be a str, got int 5").
pub(crate) fn str_arg<'a, 'py>(obj: &'a Bound<'py, PyAny>, name: &str) -> PyResult<&'a Bound<'py, PyString>> {
    obj.cast::<PyString>().map_err(|_| PyTypeError::new_err(format!("{name} must be a str, got {}", describe(obj))))
}

/// The text of a str argument `name`: a str that is not Unicode text (a lone surrogate such as
/// `'\udcff'`, from a file name decoded with surrogate escapes) is a `ValueError` naming the
/// argument, never a bare `UnicodeEncodeError`.
pub(crate) fn text<'a>(s: &'a Bound<'_, PyString>, name: &str) -> PyResult<&'a str> {
    s.to_str().map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be text, got {} (it holds a lone surrogate)",
            echo_repr(s.as_any())
        ))
    })
}

/// [`str_arg`] then [`text`]: the text of a str argument.
pub(crate) fn str_text<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> PyResult<&'a str> {
    text(str_arg(obj, name)?, name)
}

/// An int argument in `min..=max`: `TypeError` for a non-int (or a bool), `ValueError` (never
/// `OverflowError`) outside the range, naming the argument and the value.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    let int = obj.extract::<IntArg>()?.get(name)?;
    if !int.huge && (min..=max).contains(&int.value) {
        return Ok(int.value);
    }
    Err(PyValueError::new_err(format!("{name} must be in {min}..={max}, got {}", echo_repr(obj))))
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
        slot: $slot:expr, other_card: $other_card:literal,
        id_doc: $id_doc:literal, rank_doc: $rank_doc:literal;
        $($extra:tt)*
    ) => {
        pub(crate) struct $deck;

        impl $crate::bindings::convert::Deck for $deck {
            type Card = $core;
            type Hand = $hand;
            const COUNT: u8 = $count;
            const OTHER_CARD: &'static str = $other_card;
            fn from_id(id: i64) -> Result<$core, $crate::error::Error> {
                <$core>::from_id(id)
            }
            #[inline]
            fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<$core> {
                obj.cast::<Card>().ok().map(|c| c.get().0)
            }
            fn is_other_card(obj: &Bound<'_, PyAny>) -> bool {
                $crate::bindings::convert::is_card_in_slot(obj, 1 - $slot)
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
                Ok(Card($crate::bindings::convert::card::<$deck>(value)?))
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
                $crate::bindings::convert::symbol_text(&self.0.to_string(), self.0.suit())
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

// --------------------------------------------------------------------------------- int arguments

/// An int argument: any Python int (or `__index__` object) but a bool. Taking it never fails, so
/// the method that reads it names it: [`IntArg::get`] raises `TypeError` "`name` must be an int,
/// got bool True" for a bool or a non-int, and an int beyond 64 bits is kept as "huge" so the
/// range check behind it raises `ValueError`, not `OverflowError`.
#[derive(Clone, Debug)]
pub(crate) struct IntArg(Result<Int, Box<str>>);

/// A checked [`IntArg`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int {
    /// The value (saturated when `huge`).
    pub(crate) value: i64,
    /// Beyond `i64` (>= 2**63 or < -2**63).
    pub(crate) huge: bool,
}

impl<'a, 'py> FromPyObject<'a, 'py> for IntArg {
    type Error = PyErr;

    #[inline]
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<IntArg> {
        if is_bool(&obj) {
            return Ok(IntArg(Err(describe(&obj).into())));
        }
        match obj.extract::<i64>() {
            Ok(value) => Ok(IntArg(Ok(Int { value, huge: false }))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                // A Python int beyond i64, or an `__index__` object: its sign from the int it
                // stands for (an `__index__` that fails makes it no int at all).
                let int = match obj.py().import("operator").and_then(|m| m.getattr("index")?.call1((&*obj,))) {
                    Ok(int) => int,
                    Err(_) => return Ok(IntArg(Err(describe(&obj).into()))),
                };
                let value = if int.lt(0i64)? { i64::MIN } else { i64::MAX };
                Ok(IntArg(Ok(Int { value, huge: true })))
            }
            Err(_) => Ok(IntArg(Err(describe(&obj).into()))),
        }
    }
}

impl IntArg {
    /// The int, or a `TypeError` naming the argument.
    #[inline]
    pub(crate) fn get(&self, name: &str) -> PyResult<Int> {
        match &self.0 {
            Ok(int) => Ok(*int),
            Err(got) => Err(PyTypeError::new_err(format!("{name} must be an int, got {got}"))),
        }
    }

    /// The value if it lies in `range`, else a `ValueError`: "`name` must be in range(lo, hi), got x".
    pub(crate) fn within(&self, name: &str, range: std::ops::Range<i64>) -> PyResult<i64> {
        let int = self.get(name)?;
        if !int.huge && range.contains(&int.value) {
            Ok(int.value)
        } else {
            Err(PyValueError::new_err(format!(
                "{name} must be in range({}, {}), got {}",
                range.start,
                range.end,
                int.text()
            )))
        }
    }
}

impl Int {
    /// The value as text (`"2**63 or more"` / `"less than -2**63"` when huge: beyond `i64`).
    pub(crate) fn text(self) -> String {
        if self.huge {
            (if self.value < 0 { "less than -2**63" } else { "2**63 or more" }).to_string()
        } else {
            self.value.to_string()
        }
    }
}

/// A seed from any Python int but a bool (negative ints wrap to 64 bits).
pub(crate) fn seed_from(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if is_bool(&obj) {
        return Err(PyTypeError::new_err(format!("seed must be an int, got {}", describe(obj))));
    }
    if let Ok(s) = obj.extract::<u64>() {
        return Ok(s);
    }
    match obj.extract::<i64>() {
        Ok(s) => Ok(s as u64),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(PyValueError::new_err(format!("seed must fit in 64 bits, got {}", describe(obj))))
        }
        Err(_) => Err(PyTypeError::new_err(format!("seed must be an int, got {}", describe(obj)))),
    }
}

/// The keyword-only arguments `names` of `func` from its `**kwargs` (None where absent or None, as
/// pyo3 reads an `Option`), with Python's error for any other keyword: a function with many options
/// reads them into one settings value (its `text_signature` lists them).
pub(crate) fn keywords<'py, const N: usize>(
    func: &str,
    names: [&str; N],
    kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
) -> PyResult<[Option<Bound<'py, PyAny>>; N]> {
    let mut values = [const { None }; N];
    for (key, value) in kwargs.into_iter().flatten() {
        let key = key.str()?.to_string_lossy().into_owned();
        let Some(i) = names.iter().position(|n| *n == key) else {
            return Err(PyTypeError::new_err(format!("{func}() got an unexpected keyword argument '{key}'")));
        };
        values[i] = Some(value).filter(|v| !v.is_none());
    }
    Ok(values)
}

// ------------------------------------------------- out: action ids and chance outcomes, cached

/// The most action ids of any engine (cribbage's 1379): the size of the cached-int table.
const MAX_ACTION_IDS: usize = crate::cribbage::NUM_DISTINCT_ACTIONS;

/// The Python ints of every action id, made once: a legal-action list is then increments and
/// stores (no int objects allocated for the ids above CPython's small-int cache).
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

#[inline]
fn action_ints(py: Python<'_>) -> PyResult<&'static [Py<PyAny>]> {
    let ints = ACTION_INTS.get_or_try_init(py, || -> PyResult<Vec<Py<PyAny>>> {
        (0..MAX_ACTION_IDS as u16).map(|a| Ok(a.into_pyobject(py)?.into_any().unbind())).collect()
    })?;
    Ok(ints.as_slice())
}

/// A new Python list of the action ids (each below [`MAX_ACTION_IDS`]).
#[inline]
pub(crate) fn action_list<'py>(py: Python<'py>, actions: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let ints = action_ints(py)?;
    if actions.iter().any(|&a| a as usize >= ints.len()) {
        return Err(PyValueError::new_err("action id out of range (internal error)"));
    }
    // The one unsafe block of the bindings, on the hottest call of a Python playout: filling a
    // new list slot by slot is ~3x faster than the generic `PyList::new` for 52 cards.
    // SAFETY: `PyList_New(n)` returns a new list with `n` empty slots (or NULL with an
    // exception set, turned into `Err`); each slot is filled exactly once with a new reference
    // (the cached int, incremented; every index was checked above), as `PyList_SET_ITEM`
    // requires; we hold the GIL (`py`).
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(actions.len() as ffi::Py_ssize_t))?;
        for (i, &a) in actions.iter().enumerate() {
            let item = ints[a as usize].as_ptr();
            ffi::Py_INCREF(item);
            // The limited API (feature `abi3`) has only the function form (it cannot fail here:
            // a new list, an index in range).
            #[cfg(not(feature = "abi3"))]
            ffi::PyList_SET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t, item);
            #[cfg(feature = "abi3")]
            ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item);
        }
        Ok(list.cast_into_unchecked())
    }
}

/// Cards in the largest pack (cribbage's 52): the chance tables cover every card id below it.
const PACK: usize = 52;

/// The `(card, 1/k)` tuples of every chance outcome with `k` cards left (index
/// `(k - 1) * 52 + card`), made once: tuples of immutable values are safely shared, and
/// `chance_outcomes` then allocates only its list.
static CHANCE_PAIRS: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

fn chance_pairs(py: Python<'_>) -> PyResult<&'static [Py<PyTuple>]> {
    let pairs = CHANCE_PAIRS.get_or_try_init(py, || -> PyResult<Vec<Py<PyTuple>>> {
        let ints = action_ints(py)?;
        let mut out = Vec::with_capacity(PACK * PACK);
        for k in 1..=PACK {
            let p = PyFloat::new(py, 1.0 / k as f64).into_any();
            for card in &ints[..PACK] {
                out.push(PyTuple::new(py, [card.bind(py).clone(), p.clone()])?.unbind());
            }
        }
        Ok(out)
    })?;
    Ok(pairs.as_slice())
}

/// `[(card, 1/k), ...]` for a chance node whose `k` outcomes are the card ids `cards`, each
/// equally likely (both engines draw every card uniformly from those left).
pub(crate) fn uniform_chance_outcomes<'py>(py: Python<'py>, cards: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let pairs = chance_pairs(py)?;
    let base = (cards.len().clamp(1, PACK) - 1) * PACK;
    PyList::new(py, cards.iter().map(|&a| pairs[base + (a as usize % PACK)].bind(py)))
}
