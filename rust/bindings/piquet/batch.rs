//! Batches: the declarations of many hands, and many deals' declaration points, from numpy id
//! arrays in one pass with the interpreter detached. The arrays are checked here (type, dtype,
//! dimensions); the core's views ([`core::HandRows`], [`core::DealRows`]) check the shapes once and
//! the kernels the ids as they read them.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::rules::rules_arg;
use crate::batch::IdRows;
use crate::bindings::arrays::{columns_dict, with_slice, with_slices, Ids2};
use crate::piquet as core;

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
    let (rows, width) = ids.shape();
    let f = with_slice!(&ids, Ids2, |s| {
        let hands = core::HandRows::new(IdRows::new("hands", s, rows, width)?)?;
        py.detach(|| hands.declarations(&rules))?
    });
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
    let ((rows, width), (dealer_rows, dealer_width)) = (e.shape(), d.shape());
    let out = with_slices!(&e, Ids2, &d, Ids2, "elder and dealer must have the same dtype", |a, b| {
        let elder = IdRows::new("elder", a, rows, width)?;
        let deals = core::DealRows::new(elder, IdRows::new("dealer", b, dealer_rows, dealer_width)?)?;
        py.detach(|| deals.score(&rules))?
    });
    PyArray1::from_vec(py, out.into_flattened()).reshape([rows, 2])
}
