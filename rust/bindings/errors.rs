//! The one place where core errors become Python exceptions.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

use crate::error::Error;

impl From<Error> for PyErr {
    /// Every core error is bad input: `ValueError` with the core's message (which names the
    /// culprit). Type mismatches are caught in the binding layer and raise `TypeError` there.
    fn from(error: Error) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}
