//! The one place where core errors become Python exceptions.

use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::PyErr;

use crate::error::Error;

impl From<Error> for PyErr {
    /// Every core error but two is bad input: `ValueError` with the core's message (which names
    /// the culprit). Type mismatches are caught in the binding layer and raise `TypeError` there.
    /// The two: memory the caller's sizes need is a `MemoryError`, and work stopped by
    /// [`crate::engine::interrupt`] a `KeyboardInterrupt` (the bindings normally raise the
    /// signal handler's own exception instead).
    fn from(error: Error) -> PyErr {
        match error {
            Error::OutOfMemory(_) => PyMemoryError::new_err(error.to_string()),
            Error::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
            _ => PyValueError::new_err(error.to_string()),
        }
    }
}
