//! Ctrl-C for the calls that can run long (bots, the arena, `simulate`): the work runs with the
//! interpreter released under an [`interrupt`](crate::engine::interrupt) flag that a pending
//! `KeyboardInterrupt` raises.

use std::time::Duration;

use pyo3::prelude::*;

pub(crate) use crate::engine::interrupt::on_pool;

/// How often [`interruptible`] lets Python handle signals while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Run `work` with the interpreter released, on a helper thread under a fresh
/// [`interrupt`](crate::engine::interrupt) flag, while this thread lets Python handle pending
/// signals every [`SIGNAL_POLL`] ([`run_polled`](crate::engine::interrupt::run_polled)). When a
/// handler raises (Ctrl-C: `KeyboardInterrupt`), the flag is raised, the work stops at its next
/// check (IS-MCTS every few iterations, a game between decisions) and the handler's exception is
/// returned. The one Ctrl-C mechanism of every call that can run long (bots, the arena,
/// `simulate`). Work that moves to a rayon pool takes the flag along with [`on_pool`].
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    // The handler's exception is kept here, not in the detached call: should the work panic, the
    // unwinding must not drop a Python object while detached (that would abort the process).
    let raised = std::sync::Mutex::new(None);
    let poll = || {
        Python::attach(|py| py.check_signals()).map_err(|e| *raised.lock().unwrap_or_else(|e| e.into_inner()) = Some(e))
    };
    match py.detach(|| crate::engine::interrupt::run_polled(work, SIGNAL_POLL, poll)) {
        Ok(result) => Ok(result?),
        Err(()) => {
            Err(raised.into_inner().unwrap_or_else(|e| e.into_inner()).expect("a failed poll keeps its exception"))
        }
    }
}

/// [`interruptible`] for work that may run long; work that is `quick` (a cheap bot, a small batch)
/// runs on this thread with the interpreter released, without the helper thread's start-up cost.
pub(crate) fn interruptible_unless<T: Send>(
    py: Python<'_>,
    quick: bool,
    work: impl FnOnce() -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    match quick {
        true => Ok(py.detach(work)?),
        false => interruptible(py, work),
    }
}
