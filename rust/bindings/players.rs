//! The players of `simulate` and the arena: a name of the bots' registry (`"random"`,
//! `"ismcts:N"`, …) or a bot object of `cribpiquet.bots`, read into policy factories. The bots'
//! binding registers how a bot object's settings are read ([`register_bot_reader`]), so this
//! module (below it) reads bot objects without importing it.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::bindings::convert::describe;
use crate::bots::registry::{BotGame, BotSpec};
use crate::engine::PolicyFactory;

/// Reads a bot object's settings: `cribpiquet.bots`' binding registers it when `_core` is
/// imported ([`register_bot_reader`]), so this module reads players without importing it (the
/// bots' binding stands above the engines').
type BotReader = fn(&Bound<'_, PyAny>) -> Option<BotSpec>;
static BOT_READER: std::sync::OnceLock<BotReader> = std::sync::OnceLock::new();

/// Register how a bot object's settings are read (module init of the bots' binding).
pub(crate) fn register_bot_reader(reader: BotReader) {
    let _ = BOT_READER.set(reader);
}

/// The settings of `item` if it is a `cribpiquet.bots` bot.
fn bot_spec_of(item: &Bound<'_, PyAny>) -> Option<BotSpec> {
    BOT_READER.get().and_then(|read| read(item))
}

/// One policy of `simulate` and the arena: a name of the bots' registry (`"random"`, `"greedy"`,
/// `"ismcts:N"`, …: [`BotSpec::parse`]) or a bot object of `cribpiquet.bots` (each seat of each
/// game gets a fresh bot of its settings).
pub(crate) fn policy_from<S: BotGame>(item: &Bound<'_, PyAny>) -> PyResult<PolicyFactory<S>> {
    if let Some(spec) = bot_spec_of(item) {
        return Ok(spec.policy_factory());
    }
    let name = item.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "a player must be a name like \"random\" or a cribpiquet.bots bot, got {}",
            describe(item)
        ))
    })?;
    let name = super::convert::text(name, "player")?;
    match BotSpec::parse(name)? {
        Some(spec) => Ok(spec.policy_factory()),
        None => Err(PyValueError::new_err(format!(
            "unknown player {:?} (known: {}, or a cribpiquet.bots bot)",
            crate::error::echo(name),
            crate::bots::registry::name_forms().join(", ")
        ))),
    }
}

/// The policies of `simulate`: one player (a name or a bot) for every seat, or a sequence of 1
/// or `n` of them.
pub(crate) fn policies_from<S: BotGame>(players: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<PolicyFactory<S>>> {
    if players.cast::<PyString>().is_ok() || bot_spec_of(players).is_some() {
        return Ok(vec![policy_from(players)?]);
    }
    let iter = players.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "players must be a player (a name or a bot) or a sequence of them, got {}",
            describe(players)
        ))
    })?;
    let mut out = Vec::with_capacity(n);
    for item in iter {
        let item = item?;
        if out.len() == n {
            return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got more than {n}")));
        }
        out.push(policy_from(&item)?);
    }
    if out.len() != 1 && out.len() != n {
        return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got {}", out.len())));
    }
    Ok(out)
}
