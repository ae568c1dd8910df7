//! Turning Python objects into cards, for both games (numpy id arrays: [`super::arrays`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};

use crate::error::Error;

/// What the conversions need to know about a game's cards.
pub(crate) trait Deck {
    /// The core card type.
    type Card: Copy;
    /// Cards in the pack (ids are `0..COUNT`).
    const COUNT: u8;
    /// The card with this id (range-checked).
    fn from_id(id: i64) -> Result<Self::Card, Error>;
    /// The card with this text.
    fn parse(text: &str) -> Result<Self::Card, Error>;
    /// The card if `obj` is this game's Python `Card`.
    fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<Self::Card>;
}

fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let repr = obj.repr().map(|r| r.to_string()).unwrap_or_default();
    let repr: String = repr.chars().take(40).collect();
    format!("{type_name} {repr}")
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
    match obj.extract::<i64>() {
        Ok(id) => Ok(D::from_id(id)?),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
            let repr = obj.repr().map(|r| r.to_string()).unwrap_or_default();
            Err(PyValueError::new_err(format!("card id {repr} is out of range (ids are 0..{})", D::COUNT - 1)))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected a card (a Card, an int id or text like '5H'), got {}",
            describe(obj)
        ))),
    }
}

/// A group of cards: space/comma-separated text, or any iterable of cards. Calls `push` per card.
pub(crate) fn cards<D: Deck>(obj: &Bound<'_, PyAny>, mut push: impl FnMut(D::Card) -> PyResult<()>) -> PyResult<()> {
    if let Ok(text) = obj.cast::<PyString>() {
        for word in text.to_str()?.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()) {
            push(D::parse(word)?)?;
        }
        return Ok(());
    }
    if let Ok(list) = obj.cast::<PyList>() {
        for item in list.iter() {
            push(card::<D>(&item)?)?;
        }
        return Ok(());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        for item in tuple.iter() {
            push(card::<D>(&item)?)?;
        }
        return Ok(());
    }
    if D::from_py_card(obj).is_some() || obj.extract::<i64>().is_ok() {
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
    for item in iter {
        push(card::<D>(&item?)?)?;
    }
    Ok(())
}

/// An int argument in `min..=max`: `TypeError` for a non-int (or a bool), `ValueError` (never
/// `OverflowError`) outside the range, naming the argument and the value.
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int, got the bool {obj}")));
    }
    let out_of_range = || PyValueError::new_err(format!("{name} must be in {min}..={max}, got {obj}"));
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
        deck: $deck:ident, core: $core:ty, count: $count:expr, module: $module:literal,
        id_doc: $id_doc:literal, rank_doc: $rank_doc:literal;
        $($extra:tt)*
    ) => {
        struct $deck;

        impl $crate::python::convert::Deck for $deck {
            type Card = $core;
            const COUNT: u8 = $count;
            fn from_id(id: i64) -> Result<$core, $crate::error::Error> {
                <$core>::from_id(id)
            }
            fn parse(text: &str) -> Result<$core, $crate::error::Error> {
                text.parse()
            }
            fn from_py_card(obj: &Bound<'_, PyAny>) -> Option<$core> {
                obj.cast::<Card>().ok().map(|c| c.get().0)
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
