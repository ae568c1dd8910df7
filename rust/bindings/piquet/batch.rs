//! Batches: the declarations of many hands, and many deals' declaration points, from numpy id
//! arrays in one pass with the interpreter detached. The shapes are checked here, once; the core
//! takes the checked rows ([`core::HandRows`], [`core::DealRows`]) and checks the ids as it reads
//! them.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::rules::rules_arg;
use crate::bindings::arrays::{columns_dict, with_slice, with_slices, Ids2};
use crate::piquet as core;

/// The rows of id array `name`, which must have 12 cards per row (the one check of its shape).
fn rows_of_12(ids: &Ids2<'_>, name: &str) -> PyResult<usize> {
    let (rows, width) = ids.shape();
    if width != 12 {
        return Err(PyValueError::new_err(format!("{name} must have 12 cards per row, got shape ({rows}, {width})")));
    }
    Ok(rows)
}

/// Per-hand declaration features of an (N, 12) id array: a dict of arrays.
#[pyfunction]
#[pyo3(signature = (hands, *, rules = None))]
pub(super) fn piquet_declarations_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let ids = Ids2::extract(hands, "hands")?;
    rows_of_12(&ids, "hands")?;
    let f = with_slice!(&ids, Ids2, |s| py.detach(|| core::HandRows::checked(s).declarations(&rules)))?;
    columns_dict(py, f)
}

/// Each deal's declaration points (elder, dealer), repique included: an (N, 2) int16 array.
#[pyfunction]
#[pyo3(signature = (elder, dealer, *, rules = None))]
pub(super) fn piquet_score_declarations_batch<'py>(
    py: Python<'py>,
    elder: &Bound<'py, PyAny>,
    dealer: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<i16>>> {
    let rules = rules_arg(rules)?;
    let (e, d) = (Ids2::extract(elder, "elder")?, Ids2::extract(dealer, "dealer")?);
    let (rows, dealer_rows) = (rows_of_12(&e, "elder")?, rows_of_12(&d, "dealer")?);
    if rows != dealer_rows {
        return Err(PyValueError::new_err(format!("elder has {rows} rows but dealer has {dealer_rows}")));
    }
    let mut out = vec![0i16; 2 * rows];
    with_slices!(&e, Ids2, &d, Ids2, "elder and dealer must have the same dtype", |a, b| py.detach(|| {
        let deals = core::DealRows::checked(core::HandRows::checked(a), core::HandRows::checked(b));
        deals.score_into(&rules, &mut out)
    }))?;
    PyArray1::from_vec(py, out).reshape([rows, 2])
}
