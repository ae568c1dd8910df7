//! Stopping long work from outside: an [`Interrupt`] flag that long-running core code polls.
//!
//! The flag of the work in progress on a thread is installed with [`with`] (the bindings install
//! one per call and raise it when Ctrl-C arrives); code that may run for more than a fraction of
//! a second checks [`requested`] now and then (IS-MCTS every few iterations, a game between
//! decisions) and gives up with [`Error::Interrupted`]. Work that fans out to other threads
//! (rayon, scoped threads) takes the flag along with [`current`] and [`with`] on each thread. With
//! no flag installed, nothing is ever interrupted, and checking costs one thread-local read.
//!
//! ```
//! use cribpiquet::engine::interrupt::{self, Interrupt};
//! let flag = Interrupt::new();
//! assert!(!interrupt::with(&flag, interrupt::requested));
//! flag.raise();
//! assert!(interrupt::with(&flag, interrupt::requested));
//! assert!(!interrupt::requested()); // outside `with`: no flag
//! ```

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, Result};

/// A shared "stop now" flag.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// A flag not raised.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Ask the work under this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Has the flag been raised?
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Interrupt>> = const { RefCell::new(None) };
}

/// Run `f` with `flag` as this thread's flag (the previous one is restored after, also on panic).
pub fn with<T>(flag: &Interrupt, f: impl FnOnce() -> T) -> T {
    under(Some(flag.clone()), f)
}

/// Run `f` with no flag on this thread (the previous one is restored after): for work whose result
/// outlives the call that starts it, such as a table computed once per process and cached for
/// every caller, which one caller's Ctrl-C must not cut short.
///
/// ```
/// use cribpiquet::engine::interrupt::{self, Interrupt};
/// let flag = Interrupt::new();
/// flag.raise();
/// assert!(interrupt::with(&flag, || !interrupt::shielded(interrupt::requested) && interrupt::requested()));
/// ```
pub fn shielded<T>(f: impl FnOnce() -> T) -> T {
    under(None, f)
}

/// Run `f` with `flag` (or none) as this thread's flag, restoring the previous one after.
fn under<T>(flag: Option<Interrupt>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Interrupt>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _restore = Restore(CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), flag)));
    f()
}

/// This thread's flag, to hand to the threads the work fans out to.
pub fn current() -> Option<Interrupt> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Run `f` under `flag` if there is one (what a spawned thread does with [`current`]'s answer).
pub fn with_opt<T>(flag: Option<&Interrupt>, f: impl FnOnce() -> T) -> T {
    match flag {
        Some(flag) => with(flag, f),
        None => f(),
    }
}

/// Run `f` on `pool` (or here, for `None`) under this thread's flag: how work that moves to a
/// rayon pool stays interruptible.
pub fn on_pool<T: Send>(pool: &Option<rayon::ThreadPool>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => {
            let flag = current();
            pool.install(|| with_opt(flag.as_ref(), f))
        }
        None => f(),
    }
}

/// Run `work` on a helper thread under a fresh flag while this thread calls `poll` every
/// `every`. The first time `poll` fails, the flag is raised (the work stops at its next check)
/// and, once the work has ended, that failure is returned instead of the work's result. With no
/// thread to be had (out of memory), the work runs here and nothing is polled. The bindings'
/// Ctrl-C: `poll` lets Python handle pending signals.
pub fn run_polled<T: Send, E>(
    work: impl FnOnce() -> Result<T> + Send,
    every: std::time::Duration,
    mut poll: impl FnMut() -> std::result::Result<(), E>,
) -> std::result::Result<Result<T>, E> {
    let flag = Interrupt::new();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let run = {
        let flag = flag.clone();
        move || {
            let out = with(&flag, work);
            let _ = done.send(());
            out
        }
    };
    let run = std::sync::Mutex::new(Some(run));
    let take = || run.lock().unwrap_or_else(|e| e.into_inner()).take().expect("the work runs once");
    std::thread::scope(|scope| {
        let Ok(worker) = std::thread::Builder::new().spawn_scoped(scope, || take()()) else {
            return Ok(take()());
        };
        let mut failed = None;
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(every) {
            if failed.is_none() {
                if let Err(e) = poll() {
                    flag.raise();
                    failed = Some(e);
                }
            }
        }
        match (worker.join(), failed) {
            (Err(panic), _) => std::panic::resume_unwind(panic),
            (Ok(_), Some(e)) => Err(e),
            (Ok(result), None) => Ok(result),
        }
    })
}

/// Has this thread's flag been raised?
#[inline]
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Interrupt::is_raised))
}

/// `Err(Error::Interrupted)` if this thread's flag has been raised.
#[inline]
pub fn check() -> Result<()> {
    if requested() {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// `Err(Error::Interrupted)` if `flag` has been raised: for work on threads the flag was taken
/// along to with [`current`] (no flag: never).
#[inline]
pub fn check_flag(flag: Option<&Interrupt>) -> Result<()> {
    match flag.is_some_and(Interrupt::is_raised) {
        true => Err(Error::Interrupted),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_flags_are_restored_and_threads_take_theirs_along() {
        let (outer, inner) = (Interrupt::new(), Interrupt::new());
        inner.raise();
        with(&outer, || {
            assert!(check().is_ok());
            with(&inner, || assert_eq!(check(), Err(Error::Interrupted)));
            assert!(check().is_ok());
            let flag = current();
            outer.raise();
            let seen = std::thread::scope(|s| s.spawn(|| with_opt(flag.as_ref(), requested)).join().unwrap());
            assert!(seen);
            // A thread without the flag handed over sees none.
            assert!(!std::thread::scope(|s| s.spawn(requested).join().unwrap()));
        });
        assert!(current().is_none());
    }

    #[test]
    fn run_polled_raises_the_flag_when_the_poll_fails() {
        let work = || {
            while !requested() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            check().map(|_| 0)
        };
        let mut polls = 0;
        let out = run_polled(work, std::time::Duration::from_millis(2), || {
            polls += 1;
            if polls == 3 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert_eq!(out, Err("stop"));
        // Work that ends before the first poll is due is never polled (a minute: no machine is
        // that slow to return 7, where 2 ms lost the race on a loaded one).
        assert_eq!(run_polled(|| Ok(7), std::time::Duration::from_secs(60), || Err("never")), Ok(Ok(7)));
    }
}
