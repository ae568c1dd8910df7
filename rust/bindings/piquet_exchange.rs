//! Bindings for the piquet exchange analysis (`cribpiquet.piquet.analyze_exchange` is built on
//! these in `python/cribpiquet/_exchange.py`): the exact part and one range of Monte Carlo samples,
//! each as a dict of numpy columns, computed with the interpreter detached.

use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{describe, int_in, seed_from, str_arg};
use super::piquet::hand_from;
use super::piquet::rules::rules_arg;
use crate::piquet as core;

fn role_arg(role: Option<&Bound<'_, PyAny>>) -> PyResult<core::Role> {
    match role {
        None => Ok(core::Role::Elder),
        Some(r) => {
            let name = str_arg(r, "role")?;
            Ok(core::Role::parse(name.to_str()?)?)
        }
    }
}

fn max_discard_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(int_in(o, "max_discard", 0, 8)? as u8)),
    }
}

fn opponent_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::McOpponent> {
    match obj {
        None => Ok(core::McOpponent::Best),
        Some(o) => {
            let name = str_arg(o, "opponent").map_err(|_| {
                PyTypeError::new_err(format!("opponent must be \"best\" or \"keep\", got {}", describe(o)))
            })?;
            Ok(core::McOpponent::parse(name.to_str()?)?)
        }
    }
}

/// A (rows, width) float64 array from fixed-size rows.
fn matrix<'py, const W: usize>(py: Python<'py>, rows: impl Iterator<Item = [f64; W]>) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<f64> = rows.flatten().collect();
    let n = flat.len() / W;
    Ok(PyArray1::from_vec(py, flat).reshape([n, W])?.into_any())
}

/// A (rows, 2) array from pairs.
fn pairs<'py, T: numpy::Element + Copy>(
    py: Python<'py>,
    rows: impl Iterator<Item = [T; 2]>,
) -> PyResult<Bound<'py, PyAny>> {
    let flat: Vec<T> = rows.flatten().collect();
    let n = flat.len() / 2;
    Ok(PyArray1::from_vec(py, flat).reshape([n, 2])?.into_any())
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
    let hand = hand_from(hand)?;
    let role = role_arg(role)?;
    let rules = rules_arg(rules)?;
    let max_discard = max_discard_arg(max_discard)?;
    let rows = py.detach(|| core::exact_exchange(hand, role, &rules, max_discard))?;
    let d = PyDict::new(py);
    d.set_item("hand", hand.mask())?;
    let col = |f: fn(&core::ExchangeRow) -> f64| rows.iter().map(f).collect::<Vec<f64>>().into_pyarray(py);
    d.set_item("discard", rows.iter().map(|r| r.discard.mask()).collect::<Vec<u32>>().into_pyarray(py))?;
    d.set_item("expected_point", col(|r| r.expected_point))?;
    d.set_item("expected_sequence", col(|r| r.expected_sequence))?;
    d.set_item("expected_sets", col(|r| r.expected_sets))?;
    d.set_item("carte_blanche", rows.iter().map(|r| r.carte_blanche).collect::<Vec<u16>>().into_pyarray(py))?;
    d.set_item("expected_total", col(|r| r.expected_total))?;
    d.set_item("point_length", matrix(py, rows.iter().map(|r| r.point_length))?)?;
    d.set_item("sequence_length", matrix(py, rows.iter().map(|r| r.sequence_length))?)?;
    d.set_item("set_size", matrix(py, rows.iter().map(|r| r.set_size))?)?;
    d.set_item("total_30", col(|r| r.total_30))?;
    d.set_item("draws", rows.iter().map(|r| r.draws).collect::<Vec<u64>>().into_pyarray(py))?;
    Ok(d)
}

/// Monte Carlo counts of samples ``first_sample .. first_sample + samples`` for every legal
/// discard, in the canonical order (by size, then by card ids), as a dict of numpy columns:
/// ``discard`` (mask), ``samples``, and (rows, 2) arrays ``point``, ``sequences``, ``sets``
/// (won, lost), ``repique``, ``pique`` (mine, the opponent's), ``points``, ``net``, ``total``
/// (sum, sum of squares). Disjoint ranges add up to the whole run.
#[pyfunction]
#[pyo3(signature = (hand, *, role = None, rules = None, max_discard = None, opponent = None, first_sample = None,
                    samples = None, seed = None))]
#[allow(clippy::too_many_arguments)]
fn piquet_exchange_monte_carlo<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    role: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    max_discard: Option<&Bound<'py, PyAny>>,
    opponent: Option<&Bound<'py, PyAny>>,
    first_sample: Option<&Bound<'py, PyAny>>,
    samples: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let hand = hand_from(hand)?;
    let role = role_arg(role)?;
    let rules = rules_arg(rules)?;
    let max_discard = max_discard_arg(max_discard)?;
    let opponent = opponent_arg(opponent)?;
    let first = first_sample.map_or(Ok(0), |o| int_in(o, "first_sample", 0, 1 << 48))? as u64;
    let n = samples.map_or(Ok(1000), |o| int_in(o, "samples", 0, 1 << 40))? as u64;
    let seed = seed.map_or(Ok(0), seed_from)?;
    let run = core::McSamples { seed, first, count: n };
    let counts = py.detach(|| core::monte_carlo_exchange(hand, role, &rules, max_discard, opponent, run))?;
    let d = PyDict::new(py);
    d.set_item("discard", counts.iter().map(|c| c.discard.mask()).collect::<Vec<u32>>().into_pyarray(py))?;
    d.set_item("samples", counts.iter().map(|c| c.samples).collect::<Vec<u64>>().into_pyarray(py))?;
    d.set_item("point", pairs(py, counts.iter().map(|c| c.point))?)?;
    d.set_item("sequences", pairs(py, counts.iter().map(|c| c.sequences))?)?;
    d.set_item("sets", pairs(py, counts.iter().map(|c| c.sets))?)?;
    d.set_item("repique", pairs(py, counts.iter().map(|c| c.repique))?)?;
    d.set_item("pique", pairs(py, counts.iter().map(|c| c.pique))?)?;
    d.set_item("points", pairs(py, counts.iter().map(|c| c.points))?)?;
    d.set_item("net", pairs(py, counts.iter().map(|c| c.net))?)?;
    d.set_item("total", pairs(py, counts.iter().map(|c| c.total))?)?;
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(piquet_exact_exchange, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_exchange_monte_carlo, m)?)?;
    Ok(())
}
