//! The framing of the one-line state texts every engine writes (`GameState::serialize`) and
//! reads back (`Game::deserialize_state`): a magic word (`cribbage/1`, `piquet/1`), then
//! `key=value` fields separated by spaces; values are numbers, `-` for none, comma lists.
//! Each game describes only its fields; parsing, the checks of the framing (the magic word,
//! unknown, missing and doubled fields, list lengths, number ranges) and the error messages
//! (`not a cribbage state: …`) are written once here.

use crate::error::{Error, Result};

/// The error for text that is not a state of `game`.
pub(crate) fn invalid(game: &str, msg: impl std::fmt::Display) -> Error {
    Error::InvalidValue(format!("not a {game} state: {msg}"))
}

/// `Ok(())`, or [`invalid`] with `what`.
pub(crate) fn ensure(game: &str, ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(invalid(game, what))
    }
}

/// Items joined by commas.
pub(crate) fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// The value's text, or `-` for `None`.
pub(crate) fn or_dash<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The fields of a state text, checked against the game's keys.
pub(crate) struct Fields<'a> {
    game: &'static str,
    fields: Vec<(&'a str, &'a str)>,
}

impl<'a> Fields<'a> {
    /// Split `text`: it must start with `magic`, and every token after it be `key=value` with
    /// a key of `keys`, none twice.
    pub(crate) fn parse(game: &'static str, magic: &str, keys: &[&str], text: &'a str) -> Result<Fields<'a>> {
        let mut tokens = text.split_whitespace();
        if tokens.next() != Some(magic) {
            return Err(invalid(game, format!("it must start with {magic:?}")));
        }
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for token in tokens {
            let (key, value) =
                token.split_once('=').ok_or_else(|| invalid(game, format!("token {token:?} is not key=value")))?;
            if !keys.contains(&key) {
                return Err(invalid(game, format!("unknown field {key}")));
            }
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(invalid(game, format!("field {key} appears twice")));
            }
            fields.push((key, value));
        }
        Ok(Fields { game, fields })
    }

    /// The error for a bad value.
    pub(crate) fn bad(&self, msg: impl std::fmt::Display) -> Error {
        invalid(self.game, msg)
    }

    /// The value of an optional field.
    pub(crate) fn optional(&self, key: &str) -> Option<&'a str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The value of a field.
    pub(crate) fn get(&self, key: &str) -> Result<&'a str> {
        self.optional(key).ok_or_else(|| self.bad(format!("field {key} is missing")))
    }

    /// A number `0..=max`.
    pub(crate) fn num(&self, key: &str, max: u64) -> Result<u64> {
        self.number(key, self.get(key)?, max)
    }

    /// `0` or `1`.
    pub(crate) fn flag(&self, key: &str) -> Result<bool> {
        Ok(self.num(key, 1)? == 1)
    }

    /// A comma list of exactly `len` items.
    pub(crate) fn list(&self, key: &str, len: usize) -> Result<Vec<&'a str>> {
        let items: Vec<&str> = self.get(key)?.split(',').collect();
        if items.len() != len {
            return Err(self.bad(format!("{key} must have {len} items")));
        }
        Ok(items)
    }

    /// A comma list of `len` numbers `0..=max`.
    pub(crate) fn nums(&self, key: &str, len: usize, max: u64) -> Result<Vec<u64>> {
        self.list(key, len)?.into_iter().map(|t| self.number(key, t, max)).collect()
    }

    /// The one of `options` whose `name` is the field's value (a phase by its name).
    pub(crate) fn choice<T: Copy>(&self, key: &str, options: &[T], name: impl Fn(T) -> &'static str) -> Result<T> {
        let value = self.get(key)?;
        options.iter().copied().find(|&o| name(o) == value).ok_or_else(|| self.bad(format!("{key} {value:?}")))
    }

    /// `text` as a number `0..=max` (for field `key`).
    pub(crate) fn number(&self, key: &str, text: &str, max: u64) -> Result<u64> {
        text.parse::<u64>()
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(|| self.bad(format!("{key}: {text:?} is not a number ≤ {max}")))
    }
}

/// `text` with the value of field `key` set to `value` (a panic if there is no such field):
/// for tests that edit state texts.
#[cfg(test)]
pub(crate) fn with_field(text: &str, key: &str, value: &str) -> String {
    let prefix = format!("{key}=");
    assert!(text.split(' ').any(|t| t.starts_with(&prefix)), "no field {key} in {text}");
    let set = |t: &str| if t.starts_with(&prefix) { format!("{prefix}{value}") } else { t.to_string() };
    text.split(' ').map(set).collect::<Vec<_>>().join(" ")
}

/// What differs between a state's `text` and the text `expected` of the state play gives in its
/// place: the first field that differs, both ways.
pub(crate) fn first_difference(text: &str, expected: &str, by: &str) -> String {
    for (a, b) in text.split(' ').zip(expected.split(' ')) {
        if a != b {
            return format!("{a} is not reachable: {by} gives {b}");
        }
    }
    format!("the state differs from what {by} gives")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_frame_and_refuse() {
        let keys = ["a", "b", "c"];
        let f = Fields::parse("toy", "toy/1", &keys, "toy/1 a=3 b=1,2,-").unwrap();
        assert_eq!(f.num("a", 5).unwrap(), 3);
        assert_eq!(f.list("b", 3).unwrap(), ["1", "2", "-"]);
        assert!(f.optional("c").is_none());
        assert_eq!(
            f.choice("a", &[2, 3], |x| ["two", "three"][x - 2]).unwrap_err().to_string(),
            "not a toy state: a \"3\""
        );
        let err = |r: Result<u64>| r.unwrap_err().to_string();
        assert_eq!(err(f.num("a", 2)), "not a toy state: a: \"3\" is not a number ≤ 2");
        assert_eq!(err(f.num("c", 2)), "not a toy state: field c is missing");
        assert!(f.nums("b", 3, 9).is_err() && f.list("b", 2).is_err());
        for bad in ["", "toy/2 a=1", "toy/1 a", "toy/1 d=1", "toy/1 a=1 a=1"] {
            assert!(Fields::parse("toy", "toy/1", &keys, bad).is_err(), "{bad}");
        }
        assert_eq!(with_field("toy/1 a=3 b=1", "b", "7"), "toy/1 a=3 b=7");
        assert!(std::panic::catch_unwind(|| with_field("toy/1 a=3", "ab", "7")).is_err());
        assert_eq!(first_difference("m a=1 b=2", "m a=1 b=3", "play"), "b=2 is not reachable: play gives b=3");
        assert_eq!((join([1, 2]), or_dash(None::<u8>), or_dash(Some(4))), ("1,2".into(), "-".into(), "4".into()));
    }
}
