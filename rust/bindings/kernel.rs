//! Bindings for the batch kernel choice: `cribpiquet.kernel()` and `cribpiquet.kernels()`.

use pyo3::prelude::*;

use crate::kernel::Kernel;

/// The kernel a batch call runs now: ``CRIBPIQUET_KERNEL`` if set (``scalar``, ``avx2``,
/// ``avx512`` or ``auto``), else the fastest one this CPU has. A ValueError if the variable names
/// an unknown kernel or one this CPU cannot run (the batch calls raise the same).
#[pyfunction]
fn kernel() -> PyResult<&'static str> {
    Ok(Kernel::chosen()?.name())
}

/// Every batch kernel by name, scalar first, with whether this CPU can run it.
#[pyfunction]
fn kernels() -> Vec<(&'static str, bool)> {
    Kernel::ALL.into_iter().map(|k| (k.name(), k.is_available())).collect()
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kernel, m)?)?;
    m.add_function(wrap_pyfunction!(kernels, m)?)?;
    Ok(())
}
