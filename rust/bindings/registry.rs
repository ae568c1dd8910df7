//! Bindings for the bots' registry (`crate::bots::registry`): the bot names and a bot of
//! `cribpiquet.bots` made from a name, for `cribpiquet play --bot` and anyone else who takes
//! a bot by name (`simulate` and the arena parse names through the same registry).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::bots::{First, Greedy, PyBot, PyIsmcts, Random};
use super::convert::seed_from;
use super::solve::PyPimc;
use crate::bots::registry::{BotSpec, BOTS};

/// ``{name: argument}`` of every bot name, in the order messages list them: the argument is
/// what ``name:N`` sets (``"iterations"``, ``"worlds"``) for the names that take one, else
/// ``None``.
///
/// >>> from cribpiquet import _core
/// >>> _core.bot_names()["ismcts"], _core.bot_names()["first"]
/// ('iterations', None)
#[pyfunction]
fn bot_names(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for entry in BOTS {
        d.set_item(entry.name, entry.argument)?;
    }
    Ok(d)
}

/// The bot called ``name`` (a name of :func:`bot_names`, any case, ``name:N`` where it takes an
/// argument, e.g. ``"ismcts:2000"``), its own generator seeded with ``seed`` if it draws random
/// numbers; ``None`` if no bot has that name. A known name with a bad argument is a
/// ``ValueError`` saying what is wrong.
///
/// >>> from cribpiquet import _core
/// >>> _core.bot_from_name("pimc:20", seed=3)
/// PIMC(worlds=20, objective='win', threads=1, seed=3, time_limit=None, inference=True, before_play='exact')
/// >>> _core.bot_from_name("nobody") is None
/// True
#[pyfunction]
#[pyo3(signature = (name, seed = None), text_signature = "(name, seed=0)")]
fn bot_from_name<'py>(
    py: Python<'py>,
    name: &str,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let seed = seed.map_or(Ok(0), seed_from)?;
    let Some(spec) = BotSpec::parse(name)? else { return Ok(None) };
    // First and Greedy draw no random numbers: they take no seed (their constructors' 0).
    let seed = if matches!(spec, BotSpec::First | BotSpec::Greedy) { 0 } else { seed };
    let base = PyBot::new(spec, seed, None)?;
    let init = PyClassInitializer::from(base);
    let bot = match spec {
        BotSpec::Random => Bound::new(py, init.add_subclass(Random))?.into_any(),
        BotSpec::First => Bound::new(py, init.add_subclass(First))?.into_any(),
        BotSpec::Greedy => Bound::new(py, init.add_subclass(Greedy))?.into_any(),
        BotSpec::Ismcts(_) => Bound::new(py, init.add_subclass(PyIsmcts))?.into_any(),
        BotSpec::Pimc(_) => Bound::new(py, init.add_subclass(PyPimc))?.into_any(),
    };
    Ok(Some(bot))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(bot_from_name, m)?)?;
    Ok(())
}
