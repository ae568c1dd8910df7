//! Batches: the declarations of many hands, and many deals' declaration points, from numpy id
//! arrays in one pass with the interpreter detached.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::rules::rules_arg;
use crate::bindings::arrays::{with_slice, with_slices, Ids2};
use crate::piquet as core;

fn check_width(ids: &Ids2<'_>, name: &str) -> PyResult<usize> {
    let (rows, width) = ids.shape();
    if width != 12 {
        return Err(PyValueError::new_err(format!("{name} must have 12 cards per row, got shape ({rows}, {width})")));
    }
    Ok(rows)
}

/// Per-hand declaration features of an (N, 12) id array: a dict of arrays.
#[pyfunction]
#[pyo3(signature = (hands, *, rules = None))]
fn piquet_declarations_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let ids = Ids2::extract(hands, "hands")?;
    check_width(&ids, "hands")?;
    let f = with_slice!(&ids, Ids2, |s| py.detach(|| core::declarations_batch(s, &rules)))?;
    let d = PyDict::new(py);
    d.set_item("point_length", f.point_length.into_pyarray(py))?;
    d.set_item("point_value", f.point_value.into_pyarray(py))?;
    d.set_item("point_suit", f.point_suit.into_pyarray(py))?;
    d.set_item("best_sequence_length", f.best_sequence_length.into_pyarray(py))?;
    d.set_item("best_sequence_top", f.best_sequence_top.into_pyarray(py))?;
    d.set_item("sequence_count", f.sequence_count.into_pyarray(py))?;
    d.set_item("sequence_value", f.sequence_value.into_pyarray(py))?;
    d.set_item("best_set_kind", f.best_set_kind.into_pyarray(py))?;
    d.set_item("best_set_rank", f.best_set_rank.into_pyarray(py))?;
    d.set_item("sets_value", f.sets_value.into_pyarray(py))?;
    d.set_item("carte_blanche", f.carte_blanche.into_pyarray(py))?;
    Ok(d)
}

/// Each deal's declaration points (elder, dealer), repique included: an (N, 2) int16 array.
#[pyfunction]
#[pyo3(signature = (elder, dealer, *, rules = None))]
fn piquet_score_declarations_batch<'py>(
    py: Python<'py>,
    elder: &Bound<'py, PyAny>,
    dealer: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<i16>>> {
    let rules = rules_arg(rules)?;
    let e = Ids2::extract(elder, "elder")?;
    let d = Ids2::extract(dealer, "dealer")?;
    let rows = check_width(&e, "elder")?;
    let dealer_rows = check_width(&d, "dealer")?;
    if rows != dealer_rows {
        return Err(PyValueError::new_err(format!("elder has {rows} rows but dealer has {dealer_rows}")));
    }
    let mut out = vec![0i16; 2 * rows];
    with_slices!(&e, Ids2, &d, Ids2, "elder and dealer must have the same dtype", |a, b| py
        .detach(|| core::score_declarations_batch_into(a, b, &rules, &mut out)))?;
    PyArray1::from_vec(py, out).reshape([rows, 2])
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(piquet_declarations_batch, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations_batch, m)?)?;
    Ok(())
}
