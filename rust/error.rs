//! The one error type of the core. The Python layer maps it to exceptions in one place.

use std::fmt;

/// Everything that can be wrong with an input to the core.
///
/// Each variant names the culprit (the card text, the id, the row) so that a message can be
/// shown to a user as is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Card text that is not a card of this game (`"1H"`, `"5X"`, `""`).
    UnknownCard(String),
    /// A numeric card id outside `0..limit`.
    CardIdOutOfRange {
        /// The id given.
        id: i128,
        /// The number of cards in the pack (ids are `0..limit`).
        limit: u8,
    },
    /// The same card appears twice where cards must be distinct.
    DuplicateCard(String),
    /// A group of cards of the wrong size.
    WrongCardCount {
        /// What the group is (`"hand"`, `"crib"`, …).
        what: &'static str,
        /// The sizes allowed, in words (`"3 or 4"`).
        expected: &'static str,
        /// The size given.
        got: usize,
    },
    /// A group of cards read from an iterable or text that holds more than any rule allows
    /// (reading stops one card past `max`, so an endless iterable ends here).
    TooManyCards {
        /// What the group is (`"hand"`, `"pegging sequence"`, …).
        what: &'static str,
        /// The sizes allowed, in words (`"3 or 4"`, `"at most 52"`).
        expected: &'static str,
        /// The most cards read before giving up.
        max: usize,
    },
    /// A pegging sequence whose running count passes 31.
    CountPast31 {
        /// The count reached.
        count: u32,
    },
    /// A value that is not allowed (a rule option, a kind name, …).
    InvalidValue(String),
    /// An illegal action or record (a revoke, a card not held, …).
    Illegal(String),
    /// An error found in one row of a batch.
    InRow {
        /// The 0-based row index.
        row: usize,
        /// What is wrong with it.
        error: Box<Error>,
    },
    /// Memory the caller's sizes need could not be had (what, and how much when known).
    OutOfMemory(String),
    /// The work was interrupted ([`crate::engine::interrupt`]: Ctrl-C in Python).
    Interrupted,
}

/// `Result` with the core [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wrap this error as the error of batch row `row`.
    pub fn in_row(self, row: usize) -> Error {
        Error::InRow { row, error: Box::new(self) }
    }
}

/// The most characters of an input echoed in a message; longer input is cut with an ellipsis.
pub const ECHO_CHARS: usize = 80;

/// `text` cut to [`ECHO_CHARS`] characters, with `…` when cut (a message never repeats a whole
/// megabyte of input).
///
/// ```
/// use cribpiquet::error::echo;
/// assert_eq!(echo("5H"), "5H");
/// assert_eq!(echo(&"Q".repeat(1000)).chars().count(), 81);
/// ```
pub fn echo(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(ECHO_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..end])),
    }
}

/// The most characters of a whole free-form message.
const MESSAGE_CHARS: usize = 12 * ECHO_CHARS;

/// Write a free-form message (which may embed input) with every word longer than
/// [`ECHO_CHARS`] cut to that with `…`, and the whole cut at `MESSAGE_CHARS` (a name or text
/// echoed from the input is one word: `unknown variant "xxxx…"`).
fn write_cut(f: &mut fmt::Formatter<'_>, msg: &str) -> fmt::Result {
    let (mut word, mut total) = (0usize, 0usize);
    for c in msg.chars() {
        if total == MESSAGE_CHARS {
            return f.write_str("…");
        }
        word = if c.is_whitespace() { 0 } else { word + 1 };
        if word == ECHO_CHARS + 1 {
            f.write_str("…")?;
        }
        if word <= ECHO_CHARS {
            fmt::Write::write_char(f, c)?;
            total += 1;
        }
    }
    Ok(())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownCard(text) => write!(f, "unknown card {:?}", echo(text)),
            Error::CardIdOutOfRange { id, limit } => {
                write!(f, "card id {id} is out of range (ids are 0..{})", limit - 1)
            }
            Error::DuplicateCard(card) => write!(f, "duplicate card {}", echo(card)),
            Error::WrongCardCount { what, expected, got } => {
                write!(f, "a {what} must have {expected} cards, got {got}")
            }
            Error::TooManyCards { what, expected, max } => {
                write!(f, "a {what} must have {expected} cards, got more than {max}")
            }
            Error::CountPast31 { count } => write!(f, "the count passes 31 (reaches {count})"),
            Error::InvalidValue(msg) | Error::Illegal(msg) => write_cut(f, msg),
            Error::InRow { row, error } => write!(f, "row {row}: {error}"),
            Error::OutOfMemory(msg) => write_cut(f, msg),
            Error::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_input_is_cut() {
        let long = "x".repeat(1_000_000);
        let msg = Error::InvalidValue(format!("unknown variant \"{long}\" (try six-card)")).to_string();
        assert_eq!(msg, format!("unknown variant \"{}… (try six-card)", "x".repeat(79)));
        let msg = Error::UnknownCard(long.clone()).to_string();
        assert_eq!(msg, format!("unknown card \"{}…\"", "x".repeat(80)));
        let many = "ab ".repeat(1000);
        assert_eq!(Error::Illegal(many).to_string().chars().count(), MESSAGE_CHARS + 1);
        assert_eq!(Error::Illegal("a short one".into()).to_string(), "a short one");
    }
}
