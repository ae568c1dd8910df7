//! Python bindings (feature `python`): the `cribpiquet._core` extension module.
//!
//! Everything here converts Python values to core types, calls the core, and converts back.
//! Per-hand functions take Python objects directly (a `Card`, an int id, card text, or a group of
//! those) so a call costs well under a microsecond; batch functions take numpy arrays, validate
//! and score them in one pass with the interpreter detached.

use pyo3::prelude::*;

mod arrays;
mod bots;
mod convert;
mod cribbage;
mod cribbage_discard;
mod cribbage_game;
mod display;
mod engine;
mod errors;
mod games;
mod interrupt;
mod kernel;
mod piquet;
mod piquet_exchange;
mod piquet_game;
mod players;
mod solve;
mod vector;

/// The native core of cribpiquet. Use the `cribpiquet.cribbage` and `cribpiquet.piquet`
/// modules rather than this one.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Now rather than during the first batch call, where a Ctrl-C would make it panic.
    arrays::load_numpy(m.py())?;
    cribbage::register(m)?;
    cribbage_game::register(m)?;
    cribbage_discard::register(m)?;
    piquet::register(m)?;
    piquet_game::register(m)?;
    bots::register(m)?;
    vector::register(m)?;
    piquet_exchange::register(m)?;
    solve::register(m)?;
    kernel::register(m)?;
    Ok(())
}
