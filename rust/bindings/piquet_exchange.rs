//! Bindings for the piquet exchange analysis (`cribpiquet.piquet.analyze_exchange` is built on
//! these in `python/cribpiquet/_exchange.py`): the exact part and one range of Monte Carlo samples,
//! each as a dict of numpy columns, computed with the interpreter detached.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::arrays::columns_dict;
use super::convert::{describe, int_in, keywords, seed_from, str_arg, str_text, text};
use super::piquet::hand_from;
use super::piquet::rules::rules_arg;
use crate::piquet as core;

/// The `role=` argument: "elder" (the default) or "dealer".
fn role_arg(role: Option<&Bound<'_, PyAny>>) -> PyResult<core::Role> {
    role.map_or(Ok(core::Role::Elder), |r| Ok(core::Role::parse(str_text(r, "role")?)?))
}

/// The `max_discard=` argument: 0..=8, or None for no limit.
fn max_discard_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    obj.filter(|o| !o.is_none()).map(|o| Ok(int_in(o, "max_discard", 0, 8)? as u8)).transpose()
}

/// The `opponent=` argument: "best" (the default) or "keep".
fn opponent_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::McOpponent> {
    let Some(o) = obj else { return Ok(core::McOpponent::Best) };
    let name = str_arg(o, "opponent")
        .map_err(|_| PyTypeError::new_err(format!("opponent must be \"best\" or \"keep\", got {}", describe(o))))?;
    Ok(core::McOpponent::parse(text(name, "opponent")?)?)
}

/// The exact part of the exchange analysis: every legal discard of the dealt ``hand`` for
/// ``role``, sorted best expected total first, as a dict of numpy columns (``discard`` holds the
/// discard's card mask, bit = card id) and ``hand``, the dealt hand's mask.
#[pyfunction]
#[pyo3(signature = (hand, *, role = None, rules = None, max_discard = None))]
fn piquet_exact_exchange<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    role: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    max_discard: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (hand, role, rules, max_discard) =
        (hand_from(hand)?, role_arg(role)?, rules_arg(rules)?, max_discard_arg(max_discard)?);
    let rows = py.detach(|| core::exact_exchange(hand, role, &rules, max_discard))?;
    columns_dict(py, core::ExactExchangeColumns(hand, rows))
}

/// Monte Carlo counts of samples ``first_sample .. first_sample + samples`` for every legal
/// discard, in the canonical order (by size, then by card ids), as a dict of numpy columns:
/// ``discard`` (mask), ``samples``, and (rows, 2) arrays ``point``, ``sequences``, ``sets``
/// (won, lost), ``repique``, ``pique`` (mine, the opponent's), ``points``, ``net``, ``total``
/// (sum, sum of squares). Disjoint ranges add up to the whole run.
#[pyfunction]
#[pyo3(signature = (hand, **options), text_signature = "(hand, *, role=None, rules=None, max_discard=None, \
    opponent=None, first_sample=None, samples=None, seed=None)")]
fn piquet_exchange_monte_carlo<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    const NAMES: [&str; 7] = ["role", "rules", "max_discard", "opponent", "first_sample", "samples", "seed"];
    let [role, rules, max_discard, opponent, first, samples, seed] =
        keywords("piquet_exchange_monte_carlo", NAMES, options)?;
    let hand = hand_from(hand)?;
    let (role, rules) = (role_arg(role.as_ref())?, rules_arg(rules.as_ref())?);
    let (max_discard, opponent) = (max_discard_arg(max_discard.as_ref())?, opponent_arg(opponent.as_ref())?);
    let first = first.map_or(Ok(0), |o| int_in(&o, "first_sample", 0, 1 << 48))? as u64;
    let count = samples.map_or(Ok(1000), |o| int_in(&o, "samples", 0, 1 << 40))? as u64;
    let run = core::McSamples { seed: seed.map_or(Ok(0), |o| seed_from(&o))?, first, count };
    let counts = py.detach(|| core::monte_carlo_exchange(hand, role, &rules, max_discard, opponent, run))?;
    columns_dict(py, counts)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(piquet_exact_exchange, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_exchange_monte_carlo, m)?)?;
    Ok(())
}
