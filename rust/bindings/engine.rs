//! The one binding layer of both game engines: [`engine_classes!`] generates a game's `Game`
//! and `State` classes from one implementation over the engine framework
//! ([`Game`], [`GameState`], [`StateStack`]), so every method exists in both games with one
//! docstring source; [`run_simulate`] is both games' `simulate`. Each game adds only its
//! constructor and its own accessors (`cribbage_game.rs`, `piquet_game.rs`).
//!
//! Arguments: every int (a player, an action, a count) goes through `convert`'s [`IntArg`], so a bool is a
//! `TypeError` and an out-of-range or huge int a `ValueError` naming the argument and its range,
//! never an `OverflowError`.
//!
//! Threads: a `State` may be shared between threads. Each method runs with the interpreter held
//! while it touches the state (the long one, `resample_from_infostate`, copies the state first
//! and releases the interpreter only over the copy), so calls from several threads are
//! serialised and never see a half-applied action or raise "Already borrowed".

use std::time::{Duration, Instant};

use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};

use crate::bots::registry::{BotGame, BotSpec};
use crate::engine::{simulate_block, thread_pool, Game, GameState, PolicyFactory, SimColumns};

// --------------------------------------------------------------------------------- arguments

use crate::bindings::convert::{describe, seed_from, IntArg};

/// An action id from any Python int: a bool, a non-int or the other game's `Card` is a
/// `TypeError`; an int that is no action id at all stays an `i64` (so the legality check names
/// it), one beyond 64 bits is a `ValueError` naming the range.
#[inline]
pub(crate) fn action_id<G: Game>(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!("action must be an int, got {}", describe(obj))));
        }
        // The other game's Card is an int by `__index__`, but never an action of this game.
        let crib_card = obj.is_instance_of::<crate::bindings::cribbage::Card>();
        if crib_card != (G::NAME == "cribbage") && (crib_card || obj.is_instance_of::<crate::bindings::piquet::Card>()) {
            let (card, game) = if crib_card { ("cribbage", "piquet") } else { ("piquet", "cribbage") };
            return Err(PyTypeError::new_err(format!("a {card} card is not a {game} card (nor a {game} action)")));
        }
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            // A Python int beyond i64 or an `__index__` object standing for one.
            let Ok(int) = obj.py().import("operator").and_then(|m| m.getattr("index")?.call1((obj,))) else {
                return Err(PyTypeError::new_err(format!("action must be an int, got {}", describe(obj))));
            };
            Err(PyValueError::new_err(format!(
                "illegal action {}-bit int {}: {} actions are 0..{}",
                int.call_method0("bit_length")?,
                crate::bindings::convert::echo_repr(&int),
                G::NAME,
                G::NUM_DISTINCT_ACTIONS - 1
            )))
        }
        Err(_) => Err(PyTypeError::new_err(format!("action must be an int, got {}", describe(obj)))),
    }
}

/// An action id in `0..NUM_DISTINCT_ACTIONS` (for `action_to_string`).
pub(crate) fn known_action<G: Game>(obj: &Bound<'_, PyAny>) -> PyResult<u16> {
    let a = action_id::<G>(obj)?;
    u16::try_from(a).ok().filter(|&a| (a as usize) < G::NUM_DISTINCT_ACTIONS).ok_or_else(|| {
        PyValueError::new_err(format!("no {} action {a} (ids are 0..{})", G::NAME, G::NUM_DISTINCT_ACTIONS - 1))
    })
}

/// The optional leading player of OpenSpiel's two-argument forms: `(x)` or `(player, x)`.
pub(crate) fn split_player<'a, 'py>(
    first: &'a Bound<'py, PyAny>,
    second: Option<&'a Bound<'py, PyAny>>,
) -> PyResult<&'a Bound<'py, PyAny>> {
    match second {
        None => Ok(first),
        Some(x) => {
            if first.is_instance_of::<PyBool>() || first.extract::<i64>().is_err() {
                return Err(PyTypeError::new_err(format!("player must be an int, got {}", describe(first))));
            }
            Ok(x)
        }
    }
}

/// The text argument of `string_to_action` (after [`split_player`]).
pub(crate) fn action_text<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<&'a Bound<'a, PyString>> {
    obj.cast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("an action text must be a str, got {}", describe(obj))))
}

/// The seat for a per-player query: `player` (checked against the state's players) or, if
/// `None`, the player to move (an error at a chance or terminal node).
pub(crate) fn player_or_current<S: GameState>(state: &S, player: Option<IntArg>, what: &str) -> PyResult<usize> {
    let n = state.num_players();
    match player.map(|p| p.get("player")).transpose()? {
        Some(p) if !p.huge && (0..n as i64).contains(&p.value) => Ok(p.value as usize),
        Some(p) => Err(PyValueError::new_err(format!(
            "{what}: no player {} in {} (players are 0..{})",
            p.text(),
            S::Game::NAME,
            n - 1
        ))),
        None => match state.current_player() {
            p if p >= 0 => Ok(p as usize),
            _ => Err(PyValueError::new_err(format!(
                "{what}: no player is to move at a {} node; pass the player",
                if state.is_terminal() { "terminal" } else { "chance" }
            ))),
        },
    }
}

/// For `legal_actions(player)`: no `player`, or `player` is to move (then the legal actions are
/// his); another seat of the game is not (no actions); anything else is a `ValueError` naming
/// the seats (the player to move, e.g. a chance node's, is always allowed).
pub(crate) fn is_to_move<S: GameState>(state: &S, player: Option<IntArg>, what: &str) -> PyResult<bool> {
    let Some(player) = player else { return Ok(true) };
    let p = player.get("player")?;
    let current = state.current_player() as i64;
    if !p.huge && p.value == current {
        return Ok(true);
    }
    let n = state.num_players() as i64;
    if !p.huge && (0..n).contains(&p.value) {
        return Ok(false);
    }
    Err(PyValueError::new_err(format!(
        "{what}: player must be 0..{} or the player to move ({current}), got {}",
        n - 1,
        p.text()
    )))
}

// ------------------------------------------------------------------------ cached Python values

/// The most action ids of any engine (cribbage's 1379): the size of the cached-int table.
const MAX_ACTION_IDS: usize = crate::cribbage::NUM_DISTINCT_ACTIONS;

/// The Python ints of every action id, made once: a legal-action list is then increments and
/// stores (no int objects allocated for the ids above CPython's small-int cache).
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

#[inline]
fn action_ints(py: Python<'_>) -> PyResult<&'static [Py<PyAny>]> {
    let ints = ACTION_INTS.get_or_try_init(py, || -> PyResult<Vec<Py<PyAny>>> {
        (0..MAX_ACTION_IDS as u16).map(|a| Ok(a.into_pyobject(py)?.into_any().unbind())).collect()
    })?;
    Ok(ints.as_slice())
}

/// A new Python list of the action ids (each below [`MAX_ACTION_IDS`]).
#[inline]
pub(crate) fn action_list<'py>(py: Python<'py>, actions: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let ints = action_ints(py)?;
    if actions.iter().any(|&a| a as usize >= ints.len()) {
        return Err(PyValueError::new_err("action id out of range (internal error)"));
    }
    // The one unsafe block of the bindings, on the hottest call of a Python playout: filling a
    // new list slot by slot is ~3x faster than the generic `PyList::new` for 52 cards.
    // SAFETY: `PyList_New(n)` returns a new list with `n` empty slots (or NULL with an
    // exception set, turned into `Err`); each slot is filled exactly once with a new reference
    // (the cached int, incremented; every index was checked above), as `PyList_SET_ITEM`
    // requires; we hold the GIL (`py`).
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(actions.len() as ffi::Py_ssize_t))?;
        for (i, &a) in actions.iter().enumerate() {
            let item = ints[a as usize].as_ptr();
            ffi::Py_INCREF(item);
            // The limited API (feature `abi3`) has only the function form (it cannot fail here:
            // a new list, an index in range).
            #[cfg(not(feature = "abi3"))]
            ffi::PyList_SET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t, item);
            #[cfg(feature = "abi3")]
            ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item);
        }
        Ok(list.cast_into_unchecked())
    }
}

/// Cards in the largest pack (cribbage's 52): the chance tables cover every card id below it.
const PACK: usize = 52;

/// The `(card, 1/k)` tuples of every chance outcome with `k` cards left (index
/// `(k - 1) * 52 + card`), made once: tuples of immutable values are safely shared, and
/// `chance_outcomes` then allocates only its list.
static CHANCE_PAIRS: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

fn chance_pairs(py: Python<'_>) -> PyResult<&'static [Py<PyTuple>]> {
    let pairs = CHANCE_PAIRS.get_or_try_init(py, || -> PyResult<Vec<Py<PyTuple>>> {
        let ints = action_ints(py)?;
        let mut out = Vec::with_capacity(PACK * PACK);
        for k in 1..=PACK {
            let p = PyFloat::new(py, 1.0 / k as f64).into_any();
            for card in &ints[..PACK] {
                out.push(PyTuple::new(py, [card.bind(py).clone(), p.clone()])?.unbind());
            }
        }
        Ok(out)
    })?;
    Ok(pairs.as_slice())
}

/// `[(card, 1/k), ...]` for a chance node whose `k` outcomes are the card ids `cards`, each
/// equally likely (both engines draw every card uniformly from those left).
pub(crate) fn uniform_chance_outcomes<'py>(py: Python<'py>, cards: &[u16]) -> PyResult<Bound<'py, PyList>> {
    let pairs = chance_pairs(py)?;
    let base = (cards.len().clamp(1, PACK) - 1) * PACK;
    PyList::new(py, cards.iter().map(|&a| pairs[base + (a as usize % PACK)].bind(py)))
}

/// `{source name: [points per side]}` of a state.
pub(crate) fn points_by_source<'py, S: GameState>(py: Python<'py>, state: &S) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let sides = state.game().num_sides();
    for (k, name) in S::Game::POINT_SOURCES.iter().enumerate() {
        let per_side: Vec<u64> = (0..sides).map(|side| state.points_by_source(side, k)).collect();
        d.set_item(*name, per_side)?;
    }
    Ok(d)
}

// ---------------------------------------------------------------------------------- simulate

/// Reads a bot object's settings: `cribpiquet.bots`' binding registers it when `_core` is
/// imported ([`register_bot_reader`]), so this module reads players without importing it (the
/// bots' binding stands above the engines').
type BotReader = fn(&Bound<'_, PyAny>) -> Option<BotSpec>;
static BOT_READER: std::sync::OnceLock<BotReader> = std::sync::OnceLock::new();

/// Register how a bot object's settings are read (module init of the bots' binding).
pub(crate) fn register_bot_reader(reader: BotReader) {
    let _ = BOT_READER.set(reader);
}

/// The settings of `item` if it is a `cribpiquet.bots` bot.
fn bot_spec_of(item: &Bound<'_, PyAny>) -> Option<BotSpec> {
    BOT_READER.get().and_then(|read| read(item))
}

/// One policy of `simulate` and the arena: a name of the bots' registry (`"random"`, `"greedy"`,
/// `"ismcts:N"`, …: [`BotSpec::parse`]) or a bot object of `cribpiquet.bots` (each seat of each
/// game gets a fresh bot of its settings).
pub(crate) fn policy_from<S: BotGame>(item: &Bound<'_, PyAny>) -> PyResult<PolicyFactory<S>> {
    if let Some(spec) = bot_spec_of(item) {
        return Ok(spec.policy_factory());
    }
    let name = item.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "a player must be a name like \"random\" or a cribpiquet.bots bot, got {}",
            describe(item)
        ))
    })?;
    let name = name.to_str()?;
    match BotSpec::parse(name)? {
        Some(spec) => Ok(spec.policy_factory()),
        None => Err(PyValueError::new_err(format!(
            "unknown player {:?} (known: {}, or a cribpiquet.bots bot)",
            crate::error::echo(name),
            crate::bots::registry::name_forms().join(", ")
        ))),
    }
}

/// The policies of `simulate`: one player (a name or a bot) for every seat, or a sequence of 1
/// or `n` of them.
pub(crate) fn policies_from<S: BotGame>(players: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<PolicyFactory<S>>> {
    if players.cast::<PyString>().is_ok() || bot_spec_of(players).is_some() {
        return Ok(vec![policy_from(players)?]);
    }
    let iter = players.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "players must be a player (a name or a bot) or a sequence of them, got {}",
            describe(players)
        ))
    })?;
    let mut out = Vec::with_capacity(n);
    for item in iter {
        let item = item?;
        if out.len() == n {
            return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got more than {n}")));
        }
        out.push(policy_from(&item)?);
    }
    if out.len() != 1 && out.len() != n {
        return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got {}", out.len())));
    }
    Ok(out)
}

// ----------------------------------------------------------------------------- interruption

/// How often [`interruptible`] lets Python handle signals while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Run `work` with the interpreter released, on a helper thread under a fresh
/// [`interrupt`](crate::engine::interrupt) flag, while this thread lets Python handle pending
/// signals every [`SIGNAL_POLL`]. When a handler raises (Ctrl-C: `KeyboardInterrupt`), the flag
/// is raised, the work stops at its next check (IS-MCTS every few iterations, a game between
/// decisions) and the handler's exception is returned. The one Ctrl-C mechanism of every call
/// that can run long (bots, the arena, `simulate`). Work that moves to a rayon pool takes the
/// flag along with [`on_pool`].
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> crate::error::Result<T> + Send,
) -> PyResult<T> {
    let flag = crate::engine::interrupt::Interrupt::new();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let run = {
        let flag = flag.clone();
        move || {
            let out = crate::engine::interrupt::with(&flag, work);
            let _ = done.send(());
            out
        }
    };
    // The work runs here, deaf to Ctrl-C, if no thread can be started (out of memory).
    let run = std::sync::Mutex::new(Some(run));
    let take = || run.lock().unwrap_or_else(|e| e.into_inner()).take().expect("the work runs once");
    let (result, raised) = py.detach(move || {
        std::thread::scope(|scope| {
            let Ok(worker) = std::thread::Builder::new().spawn_scoped(scope, || take()()) else {
                return (take()(), None);
            };
            let mut raised: Option<PyErr> = None;
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                if raised.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        flag.raise();
                        raised = Some(e);
                    }
                }
            }
            match worker.join() {
                Ok(result) => (result, raised),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    });
    match raised {
        Some(e) => Err(e),
        None => Ok(result?),
    }
}

/// Run `f` on `pool` (or here for `None`) with this thread's interrupt flag.
pub(crate) fn on_pool<T: Send>(pool: &Option<rayon::ThreadPool>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => {
            let flag = crate::engine::interrupt::current();
            pool.install(|| crate::engine::interrupt::with_opt(flag.as_ref(), f))
        }
        None => f(),
    }
}

/// Wall time a block of `simulate` aims at (Ctrl-C is also heard inside a block: [`interruptible`]).
const BLOCK_TIME: Duration = Duration::from_millis(100);

/// `simulate(game, n_games, *, players, seed, threads, first_game)` for any engine: games
/// `first_game..first_game + n_games` of the run seeded by `seed` run in blocks on the thread
/// pool with the interpreter released; between blocks, pending signals are handled (Ctrl-C
/// raises `KeyboardInterrupt` within a block's time). Memory is the output's: the columns are
/// reserved up front (a `MemoryError` if they do not fit) and each game is reduced to its row as
/// soon as it ends.
pub(crate) fn run_simulate<'py, G: Game>(
    py: Python<'py>,
    game: G,
    n_games: IntArg,
    players: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<IntArg>,
    first_game: Option<IntArg>,
) -> PyResult<Bound<'py, PyDict>>
where
    G::State: BotGame,
{
    let n = n_games.within("n_games", 0..i64::MAX)? as usize;
    let policies = match players {
        Some(players) => policies_from::<G::State>(players, game.num_players())?,
        None => vec![BotSpec::Random.policy_factory()],
    };
    let seed = seed.map_or(Ok(0), seed_from)?;
    let threads = threads.as_ref().map(|t| t.within("threads", 1..1025)).transpose()?.map(|t| t as usize);
    // Both below 2**63 - 1, so `first + n` cannot overflow a u64.
    let first = first_game.as_ref().map_or(Ok(0), |f| f.within("first_game", 0..i64::MAX))? as u64;
    let pool = thread_pool(threads)?;
    let mut out = SimColumns::try_with_capacity(&game, n).map_err(|_| {
        // The columns' bytes a game: scores and each source (int32 per side), returns (float64
        // per player), winner and first_dealer (int8), deals and actions (int32).
        let per_game =
            4 * game.num_sides() as u128 * (1 + G::POINT_SOURCES.len() as u128) + 8 * game.num_players() as u128 + 10;
        PyMemoryError::new_err(format!(
            "cannot hold the results of {n} games (about {} MiB); simulate fewer per call",
            (n as u128 * per_game) >> 20
        ))
    })?;
    let mut start = 0usize;
    let mut block = 64usize;
    while start < n {
        let stop = n.min(start + block);
        let clock = Instant::now();
        let range = first + start as u64..first + stop as u64;
        // Interruptible inside a block too: a game of slow bots can take minutes.
        interruptible(py, || on_pool(&pool, || simulate_block(&game, &policies, seed, range, &mut out)))?;
        py.check_signals()?;
        // Aim the next block at BLOCK_TIME (at most 8x larger each time).
        let took = clock.elapsed().as_secs_f64().max(1e-6);
        let scale = (BLOCK_TIME.as_secs_f64() / took).clamp(0.25, 8.0);
        block = ((block as f64 * scale) as usize).clamp(16, 1 << 16);
        start = stop;
    }
    columns_dict::<G>(py, out)
}

/// The columns as a dict of numpy arrays (moved, not copied).
fn columns_dict<'py, G: Game>(py: Python<'py>, c: SimColumns) -> PyResult<Bound<'py, PyDict>> {
    let (n, s, p) = (c.n_games, c.n_sides, c.n_players);
    let d = PyDict::new(py);
    d.set_item("scores", c.scores.into_pyarray(py).reshape([n, s])?)?;
    d.set_item("returns", c.returns.into_pyarray(py).reshape([n, p])?)?;
    d.set_item("winner", c.winner.into_pyarray(py))?;
    d.set_item("first_dealer", c.first_dealer.into_pyarray(py))?;
    d.set_item("deals", c.deals.into_pyarray(py))?;
    d.set_item("actions", c.actions.into_pyarray(py))?;
    for (name, column) in G::POINT_SOURCES.iter().zip(c.sources) {
        d.set_item(*name, column.into_pyarray(py).reshape([n, s])?)?;
    }
    Ok(d)
}

/// The constants every engine module exports (`CHANCE`, `TERMINAL`, sizes, names).
pub(crate) fn base_constants<'py, G: Game>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("CHANCE", crate::engine::CHANCE)?;
    d.set_item("TERMINAL", crate::engine::TERMINAL)?;
    d.set_item("NUM_DISTINCT_ACTIONS", G::NUM_DISTINCT_ACTIONS)?;
    d.set_item("INFO_TENSOR_SIZE", G::INFO_TENSOR_SIZE)?;
    d.set_item("OBS_TENSOR_SIZE", G::OBS_TENSOR_SIZE)?;
    d.set_item("POINT_SOURCES", G::POINT_SOURCES.to_vec())?;
    Ok(d)
}

/// A tensor as a new float32 array.
pub(crate) fn tensor<'py>(py: Python<'py>, values: Vec<f32>) -> Bound<'py, PyArray1<f32>> {
    values.into_pyarray(py)
}

// ------------------------------------------------------------------------------ the classes

/// `Game` and `State` classes for one engine, from one implementation.
///
/// The caller names the core game type and the module, gives the class docstrings, and adds
/// the game's own methods (the `Game` constructor, pickling, repr and option getters; the
/// `State` accessors that only this game has) in the `game_methods` / `state_methods` blocks,
/// and the game's own constants (added to [`base_constants`]) in the `constants` block.
macro_rules! engine_classes {
    (
        core_game: $Core:ty,
        module: $module:tt,
        $(#[$game_doc:meta])*
        game_methods: { $($game_methods:tt)* }
        $(#[$state_doc:meta])*
        state_methods: { $($state_methods:tt)* }
        class_prefix: $prefix:tt,
        $(#[$sim_doc:meta])*
        simulate: $simulate:ident,
        constants: $constants:ident { $($const_name:literal => $const_value:expr),* $(,)? },
    ) => {
        #[doc = concat!("The engine's constants as a dict (``", $module, "`` exports them as module constants).")]
        #[pyfunction]
        fn $constants(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
            let d = crate::bindings::engine::base_constants::<$Core>(py)?;
            $(d.set_item($const_name, $const_value)?;)*
            Ok(d)
        }

        /// Play ``n_games`` whole games of ``game`` in Rust and return per-game numpy arrays.
        ///
        /// ``players`` is one policy name for every seat or one per seat (``"random"``: uniform
        /// among the legal actions; ``"first"``: always the lowest legal action). Forced moves (a
        /// single legal action) are applied without asking the policy. Game ``i`` draws from its
        /// own generator seeded by ``(seed, i)``, so the result for a seed is the same whatever
        /// ``threads`` (``None``: every core). ``first_game`` plays games ``first_game ..
        /// first_game + n_games`` of the run instead of ``0 .. n_games``: each still seeded by
        /// ``(seed, its index)``, so ``simulate(g, n, first_game=a)`` equals rows ``a .. a + n``
        /// of a longer run with the same seed, and consecutive ranges concatenate to the whole
        /// (how :mod:`cribpiquet.distributed` splits a run). The games run with the interpreter
        /// released; Ctrl-C raises ``KeyboardInterrupt`` within a fraction of a second, also in the
        /// middle of a game of slow bots; memory is the output's (about 60 bytes a game).
        ///
        /// Columns (``N`` games, ``S`` sides = ``game.num_sides()``, ``P`` players): ``scores``
        /// (N, S) int32, points over the whole game; ``returns`` (N, P) float64, as
        /// :meth:`State.returns`; ``winner`` (N,) int8, the winning side or -1 for a draw;
        /// ``first_dealer`` (N,) int8; ``deals`` (N,) int32; ``actions`` (N,) int32 (chance
        /// included); then one (N, S) int32 column per point source (``game.point_sources()``),
        /// adding up to ``scores``.
        ///
        $(#[$sim_doc])*
        #[pyfunction]
        #[pyo3(signature = (game, n_games, *, players = None, seed = None, threads = None, first_game = None))]
        fn $simulate<'py>(
            py: Python<'py>,
            game: &Bound<'py, PyAny>,
            n_games: crate::bindings::convert::IntArg,
            players: Option<&Bound<'py, PyAny>>,
            seed: Option<&Bound<'py, PyAny>>,
            threads: Option<crate::bindings::convert::IntArg>,
            first_game: Option<crate::bindings::convert::IntArg>,
        ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            let game = Game::argument(game, "simulate")?;
            crate::bindings::engine::run_simulate(py, game, n_games, players, seed, threads, first_game)
        }

        /// Add this engine's `Game`, `State`, `simulate` and constants to the native module.
        fn register_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add(concat!($prefix, "Game"), m.py().get_type::<Game>())?;
            m.add(concat!($prefix, "State"), m.py().get_type::<State>())?;
            m.add_function(wrap_pyfunction!($simulate, m)?)?;
            m.add_function(wrap_pyfunction!($constants, m)?)?;
            Ok(())
        }

        $(#[$game_doc])*
        #[pyclass(frozen, eq, hash, skip_from_py_object, name = "Game", module = $module)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Game(pub(crate) $Core);

        $(#[$state_doc])*
        ///
        /// Threads: a State may be shared between threads. Every method holds the interpreter
        /// while it reads or changes the state, so calls run one at a time and never see a
        /// half-applied action (``resample_from_infostate`` releases the interpreter only while it
        /// samples a copy). The one error sharing can add is the ``ValueError`` of an action or
        /// undo that another thread made stale meanwhile; the state is then unchanged.
        #[pyclass(name = "State", module = $module)]
        pub struct State(pub(crate) crate::engine::StateStack<<$Core as crate::engine::Game>::State>);

        impl Game {
            /// The core game of a Python `Game` argument (`TypeError` naming `what` otherwise).
            pub(crate) fn argument(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<$Core> {
                obj.cast::<Game>().map(|g| g.get().0).map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "{what} needs a {} Game, got {}",
                        <$Core as crate::engine::Game>::NAME,
                        crate::bindings::convert::describe(obj)
                    ))
                })
            }
        }

        impl State {
            /// A state with no history.
            pub(crate) fn fresh(state: <$Core as crate::engine::Game>::State) -> State {
                State(crate::engine::StateStack::new(state))
            }

            /// The current core state (a copy).
            #[inline]
            pub(crate) fn core(&self) -> <$Core as crate::engine::Game>::State {
                *self.0.state()
            }
        }

        #[pymethods]
        impl Game {
            $($game_methods)*

            /// Number of players (seats).
            fn num_players(&self) -> usize {
                crate::engine::Game::num_players(&self.0)
            }

            /// Number of sides that score (the players, except partnerships: 2 in four-player
            /// cribbage).
            fn num_sides(&self) -> usize {
                crate::engine::Game::num_sides(&self.0)
            }

            /// Number of action ids (``NUM_DISTINCT_ACTIONS``), chance outcomes included.
            fn num_distinct_actions(&self) -> usize {
                <$Core as crate::engine::Game>::NUM_DISTINCT_ACTIONS
            }

            /// The most chance outcomes at one node (a card of the full pack).
            fn max_chance_outcomes(&self) -> usize {
                <$Core as crate::engine::Game>::MAX_CHANCE_OUTCOMES
            }

            /// The lowest payoff of a player (see :meth:`State.returns`).
            fn min_utility(&self) -> f64 {
                crate::engine::Game::min_utility(&self.0)
            }

            /// The highest payoff of a player (see :meth:`State.returns`).
            fn max_utility(&self) -> f64 {
                crate::engine::Game::max_utility(&self.0)
            }

            /// The sum of the payoffs over the players: 0 (zero-sum).
            fn utility_sum(&self) -> f64 {
                crate::engine::Game::utility_sum(&self.0)
            }

            /// The names of the point sources (the keys of :meth:`State.points_by_source`, the
            /// extra columns of ``simulate``).
            fn point_sources(&self) -> Vec<&'static str> {
                <$Core as crate::engine::Game>::POINT_SOURCES.to_vec()
            }

            /// The state before the first chance event (a chance node).
            fn new_initial_state(&self) -> State {
                State::fresh(crate::engine::Game::new_initial_state(&self.0))
            }

            /// The shape of :meth:`State.information_state_tensor`: ``[INFO_TENSOR_SIZE]``.
            fn information_state_tensor_shape(&self) -> Vec<usize> {
                vec![<$Core as crate::engine::Game>::INFO_TENSOR_SIZE]
            }

            /// ``INFO_TENSOR_SIZE``.
            fn information_state_tensor_size(&self) -> usize {
                <$Core as crate::engine::Game>::INFO_TENSOR_SIZE
            }

            /// The shape of :meth:`State.observation_tensor`: ``[OBS_TENSOR_SIZE]``.
            fn observation_tensor_shape(&self) -> Vec<usize> {
                vec![<$Core as crate::engine::Game>::OBS_TENSOR_SIZE]
            }

            /// ``OBS_TENSOR_SIZE``.
            fn observation_tensor_size(&self) -> usize {
                <$Core as crate::engine::Game>::OBS_TENSOR_SIZE
            }

            /// A state from :meth:`State.serialize` text of this game. Only states that play can
            /// reach are accepted (``ValueError`` otherwise); it has no history to undo.
            fn deserialize_state(&self, text: &Bound<'_, PyAny>) -> PyResult<State> {
                let text = text.cast::<pyo3::types::PyString>().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err(format!(
                        "deserialize_state: text must be a str (State.serialize() output), got {}",
                        crate::bindings::convert::describe(text)
                    ))
                })?;
                Ok(State::fresh(crate::engine::Game::deserialize_state(&self.0, text.to_str()?)?))
            }
        }

        #[pymethods]
        impl State {
            $($state_methods)*

            /// The player to move, ``CHANCE`` (-1) at a chance event, ``TERMINAL`` (-4) at the end.
            fn current_player(&self) -> i32 {
                crate::engine::GameState::current_player(self.0.state())
            }

            /// Is a chance event (a card cut, dealt or drawn) next?
            fn is_chance_node(&self) -> bool {
                crate::engine::GameState::is_chance_node(self.0.state())
            }

            /// Is a player (not chance) to move?
            fn is_player_node(&self) -> bool {
                crate::engine::GameState::current_player(self.0.state()) >= 0
            }

            /// Is the game over?
            fn is_terminal(&self) -> bool {
                crate::engine::GameState::is_terminal(self.0.state())
            }

            /// Number of players.
            fn num_players(&self) -> usize {
                crate::engine::GameState::num_players(self.0.state())
            }

            /// The game of this state.
            fn get_game(&self) -> Game {
                Game(crate::engine::GameState::game(self.0.state()))
            }

            /// The legal actions, ascending (the chance outcomes at a chance node; empty at the
            /// end). With ``player``, the empty list unless that player is to move.
            #[pyo3(signature = (player = None))]
            fn legal_actions<'py>(
                &self,
                py: Python<'py>,
                player: Option<crate::bindings::convert::IntArg>,
            ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
                let s = self.0.state();
                if !crate::bindings::engine::is_to_move(s, player, "legal_actions")? {
                    return Ok(pyo3::types::PyList::empty(py));
                }
                crate::bindings::engine::action_list(py, &crate::engine::GameState::legal_actions(s))
            }

            /// A bool array of length ``NUM_DISTINCT_ACTIONS``, true at the legal actions (all
            /// false when ``player`` is given and not to move).
            #[pyo3(signature = (player = None))]
            fn legal_actions_mask<'py>(
                &self,
                py: Python<'py>,
                player: Option<crate::bindings::convert::IntArg>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<bool>>> {
                let s = self.0.state();
                let mut mask = crate::engine::GameState::legal_actions_mask(s);
                if !crate::bindings::engine::is_to_move(s, player, "legal_actions_mask")? {
                    mask.fill(false);
                }
                Ok(numpy::IntoPyArray::into_pyarray(mask, py))
            }

            /// ``[(action, probability), ...]`` at a chance node (uniform over the cards that can
            /// come, ascending); empty elsewhere.
            fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
                let s = self.0.state();
                if !crate::engine::GameState::is_chance_node(s) {
                    return Ok(pyo3::types::PyList::empty(py));
                }
                crate::bindings::engine::uniform_chance_outcomes(py, &crate::engine::GameState::legal_actions(s))
            }

            /// Apply an action (a decision or a chance outcome). An illegal action raises
            /// ``ValueError`` naming it and the legal set, and leaves the state unchanged; a
            /// non-int (or a bool) raises ``TypeError``.
            fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
                let a = crate::bindings::engine::action_id::<$Core>(action)?;
                Ok(self.0.apply_action(a)?)
            }

            /// A new state: this one after ``action`` (this one is unchanged).
            fn child(&self, action: &Bound<'_, PyAny>) -> PyResult<State> {
                let a = crate::bindings::engine::action_id::<$Core>(action)?;
                Ok(State(self.0.child(a)?))
            }

            /// An independent copy, with the same history (undo works on it too).
            fn clone(&self) -> State {
                State(self.0.copy())
            }

            fn __copy__(&self) -> State {
                State(self.0.copy())
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
                State(self.0.copy())
            }

            /// Undo the last action exactly and return it; ``ValueError`` if there is none.
            /// OpenSpiel's ``undo_action(player, action)`` form is accepted: they must be the
            /// last action's.
            #[pyo3(signature = (player = None, action = None))]
            fn undo_action(
                &mut self,
                player: Option<crate::bindings::convert::IntArg>,
                action: Option<crate::bindings::convert::IntArg>,
            ) -> PyResult<u16> {
                let player = player.map(|p| p.get("player")).transpose()?;
                let action = action.map(|a| a.get("action")).transpose()?;
                // A value beyond i64 matches nothing: say so with the value as given.
                if let Some(a) = action.filter(|a| a.huge) {
                    let msg = match self.0.history().last() {
                        Some(last) => format!("undo_action: the last action is {last}, not {}", a.text()),
                        None => "undo_action: no action to undo".to_string(),
                    };
                    return Err(crate::error::Error::Illegal(msg).into());
                }
                if let Some(p) = player.filter(|p| p.huge) {
                    return Err(crate::error::Error::Illegal(format!(
                        "undo_action: player must be a player id, got {}",
                        p.text()
                    ))
                    .into());
                }
                Ok(self.0.undo_checked(player.map(|p| p.value), action.map(|a| a.value))?)
            }

            /// The unplayed card ids of ``player``, ascending (omniscient: no information set).
            fn hand(&self, player: crate::bindings::convert::IntArg) -> PyResult<Vec<u16>> {
                let s = self.core();
                let p = crate::bindings::engine::player_or_current(&s, Some(player), "hand")?;
                Ok(s.hand(p).iter().map(|c| c.id() as u16).collect())
            }

            /// The card ids ``player`` keeps this deal, played or not (cribbage: what he shows;
            /// piquet: his 12 cards after the exchange).
            fn kept(&self, player: crate::bindings::convert::IntArg) -> PyResult<Vec<u16>> {
                let s = self.core();
                let p = crate::bindings::engine::player_or_current(&s, Some(player), "kept")?;
                Ok(s.kept(p).iter().map(|c| c.id() as u16).collect())
            }

            /// The card ids ``player`` discarded this deal (cribbage: to the crib; piquet: in the
            /// exchange).
            fn discards(&self, player: crate::bindings::convert::IntArg) -> PyResult<Vec<u16>> {
                let s = self.core();
                let p = crate::bindings::engine::player_or_current(&s, Some(player), "discards")?;
                Ok(s.discards(p).iter().map(|c| c.id() as u16).collect())
            }

            /// The payoff of each player: 0 until the end (see the game's docs for the values).
            fn returns(&self) -> Vec<f64> {
                crate::engine::GameState::returns(self.0.state())
            }

            /// The payoff of one player.
            fn player_return(&self, player: crate::bindings::convert::IntArg) -> PyResult<f64> {
                let s = self.0.state();
                let p = crate::bindings::engine::player_or_current(s, Some(player), "player_return")?;
                Ok(crate::engine::GameState::player_return(s, p))
            }

            /// Points made by the last action, per player (partners share their side's). Not the
            /// payoff: see :meth:`returns`.
            fn rewards(&self) -> Vec<f64> {
                crate::engine::GameState::rewards(self.0.state())
            }

            /// The score of each player over the whole game so far (partners share their
            /// side's).
            fn scores(&self) -> Vec<u64> {
                crate::engine::GameState::scores(self.0.state())
            }

            /// The score of each side (``Game.num_sides()`` of them).
            fn side_scores(&self) -> Vec<u64> {
                let s = self.0.state();
                let sides = crate::engine::Game::num_sides(&crate::engine::GameState::game(s));
                (0..sides).map(|side| crate::engine::GameState::side_score(s, side)).collect()
            }

            /// Points by source, ``{source: [points per side]}`` (sources:
            /// ``Game.point_sources()``); per side they add up to :meth:`side_scores`.
            fn points_by_source<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                crate::bindings::engine::points_by_source(py, self.0.state())
            }

            /// The text of an action (it does not depend on the state). Also
            /// ``action_to_string(player, action)``.
            #[pyo3(signature = (player_or_action, action = None))]
            fn action_to_string(
                &self,
                player_or_action: &Bound<'_, PyAny>,
                action: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<String> {
                let a = crate::bindings::engine::known_action::<$Core>(crate::bindings::engine::split_player(
                    player_or_action,
                    action,
                )?)?;
                Ok(crate::engine::GameState::action_to_string(self.0.state(), a)?)
            }

            /// The action of a text (legality is not checked). Also
            /// ``string_to_action(player, text)``.
            #[pyo3(signature = (player_or_text, text = None))]
            fn string_to_action(
                &self,
                player_or_text: &Bound<'_, PyAny>,
                text: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<u16> {
                let t = crate::bindings::engine::split_player(player_or_text, text)?;
                let t = crate::bindings::engine::action_text(t)?;
                Ok(crate::engine::GameState::string_to_action(self.0.state(), t.to_str()?)?)
            }

            /// The actions applied so far, oldest first (chance outcomes included). A state from
            /// ``deserialize_state`` or ``resample_from_infostate`` starts a new history.
            fn history(&self) -> Vec<u16> {
                self.0.history().to_vec()
            }

            /// ``len(history())``.
            fn move_number(&self) -> usize {
                self.0.history().len()
            }

            /// Everything ``player`` (default: the player to move) knows, as text. Equal strings
            /// mean equal information.
            #[pyo3(signature = (player = None))]
            fn information_state_string(&self, player: Option<crate::bindings::convert::IntArg>) -> PyResult<String> {
                let s = self.0.state();
                let p = crate::bindings::engine::player_or_current(s, player, "information_state_string")?;
                Ok(crate::engine::GameState::information_state_string(s, p)?)
            }

            /// The information state of ``player`` (default: the player to move) as float32,
            /// shape ``game.information_state_tensor_shape()``. Equal tensors mean equal
            /// information.
            #[pyo3(signature = (player = None))]
            fn information_state_tensor<'py>(
                &self,
                py: Python<'py>,
                player: Option<crate::bindings::convert::IntArg>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                let s = self.0.state();
                let p = crate::bindings::engine::player_or_current(s, player, "information_state_tensor")?;
                Ok(crate::bindings::engine::tensor(py, crate::engine::GameState::information_state_tensor_vec(s, p)?))
            }

            /// What ``player`` (default: the player to move) sees now as float32, shape
            /// ``game.observation_tensor_shape()``.
            #[pyo3(signature = (player = None))]
            fn observation_tensor<'py>(
                &self,
                py: Python<'py>,
                player: Option<crate::bindings::convert::IntArg>,
            ) -> PyResult<Bound<'py, numpy::PyArray1<f32>>> {
                let s = self.0.state();
                let p = crate::bindings::engine::player_or_current(s, player, "observation_tensor")?;
                Ok(crate::bindings::engine::tensor(py, crate::engine::GameState::observation_tensor_vec(s, p)?))
            }

            /// A state drawn uniformly among those consistent with everything ``player`` (``None``:
            /// the player to move) has seen (the hidden cards redealt), reproducible for a
            /// ``seed``; it starts a new history. The interpreter is released while it samples (the
            /// state is copied first, so other threads may use this one meanwhile).
            #[pyo3(signature = (player, seed))]
            fn resample_from_infostate(
                slf: &Bound<'_, Self>,
                player: Option<crate::bindings::convert::IntArg>,
                seed: &Bound<'_, PyAny>,
            ) -> PyResult<State> {
                let state = slf.borrow().core();
                let p = crate::bindings::engine::player_or_current(&state, player, "resample_from_infostate")?;
                let mut rng = crate::rng::Rng::new(crate::bindings::convert::seed_from(seed)?);
                let resampled = slf
                    .py()
                    .detach(move || crate::engine::GameState::resample_from_infostate(&state, p, &mut rng))?;
                Ok(State::fresh(resampled))
            }

            /// The state as one line of text (no history); ``game.deserialize_state`` reads it
            /// back.
            fn serialize(&self) -> String {
                crate::engine::GameState::serialize(self.0.state())
            }

            /// The phase's name (``"deal"``, ``"play"``, ``"game-over"``, …).
            #[getter]
            fn phase(&self) -> &'static str {
                crate::engine::GameState::phase_name(self.0.state())
            }

            /// The dealer's seat, or None before the first cut decides it.
            #[getter]
            fn dealer(&self) -> Option<usize> {
                crate::engine::GameState::dealer(self.0.state())
            }

            /// The winning side once the game is over, else None (also None for a drawn deal).
            #[getter]
            fn winner(&self) -> Option<usize> {
                crate::engine::GameState::winner(self.0.state())
            }

            /// What the finished game counts for the winner: cribbage 1 (2 or 3 for a
            /// lurch/skunk with ``lurch``), piquet the winner's payoff; 0 before the end or for a
            /// draw.
            #[getter]
            fn game_value(&self) -> u64 {
                crate::engine::GameState::game_value(self.0.state())
            }

            /// Deals begun (1 during the first deal).
            #[getter]
            fn deals(&self) -> u32 {
                crate::engine::GameState::deals(self.0.state())
            }

            /// The same position (the history is not compared). States are mutable, so
            /// unhashable.
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<State>() {
                    Ok(o) => o.try_borrow().map(|o| o.core() == self.core()).unwrap_or(false),
                    Err(_) => false,
                }
            }

            /// Every card on the table and in the hands, for a human debugging (omniscient).
            fn __str__(&self) -> String {
                self.0.state().to_string()
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (Game, String, Vec<u16>))> {
                let this = slf.borrow();
                let restore = slf.get_type().getattr("_restore")?;
                let game = Game(crate::engine::GameState::game(this.0.state()));
                Ok((restore, (game, crate::engine::GameState::serialize(this.0.root()), this.0.history().to_vec())))
            }

            /// Unpickling: the root state's text and the history, replayed (so undo survives).
            #[classmethod]
            fn _restore(
                _cls: &Bound<'_, pyo3::types::PyType>,
                game: &Bound<'_, PyAny>,
                root: &str,
                history: Vec<u16>,
            ) -> PyResult<State> {
                let game = Game::argument(game, "State._restore")?;
                let root = crate::engine::Game::deserialize_state(&game, root)?;
                Ok(State(crate::engine::StateStack::replay(root, &history)?))
            }
        }
    };
}

pub(crate) use engine_classes;
