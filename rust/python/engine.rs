//! Glue shared by the game-engine bindings (`cribbage_game.rs`, `piquet_game.rs`): argument
//! parsing, the cached action ints behind `legal_actions`, the shared chance-outcome tuples,
//! policy names, and [`Tracked`], the undo stack behind both `State` classes.
//!
//! Each game's core state implements [`Engine`] (a handful of methods both cores already
//! have), so undo, `child`, pickling by history replay and the action checks are written once.

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyList, PyString, PyTuple};

use crate::error::Error;
use crate::policy::{policy_by_name, GameState, Player, PolicyFactory};

// ------------------------------------------------------------------------------ the engines

/// What the bindings need of a core game state.
pub trait Engine: GameState + Copy + 'static {
    /// The game's name in messages (`"cribbage"`, `"piquet"`).
    const GAME: &'static str;
    /// Number of action ids (`0..NUM_ACTIONS`); at most [`MAX_ACTION_IDS`].
    const NUM_ACTIONS: usize;
    /// Is `action` legal here?
    fn is_legal(&self, action: u16) -> bool;
    /// Apply an action known to be legal.
    fn apply_legal(&mut self, action: u16);
    /// The error naming an illegal action (any integer) and the legal set.
    fn illegal_action_error(&self, action: i64) -> Error;
}

impl Engine for crate::cribbage::State {
    const GAME: &'static str = "cribbage";
    const NUM_ACTIONS: usize = crate::cribbage::NUM_DISTINCT_ACTIONS;
    #[inline]
    fn is_legal(&self, action: u16) -> bool {
        crate::cribbage::State::is_legal(self, action)
    }
    #[inline]
    fn apply_legal(&mut self, action: u16) {
        crate::cribbage::State::apply_legal(self, action)
    }
    fn illegal_action_error(&self, action: i64) -> Error {
        crate::cribbage::State::illegal_action_error(self, action)
    }
}

impl Engine for crate::piquet::State {
    const GAME: &'static str = "piquet";
    const NUM_ACTIONS: usize = crate::piquet::NUM_DISTINCT_ACTIONS;
    #[inline]
    fn is_legal(&self, action: u16) -> bool {
        crate::piquet::State::is_legal(self, action)
    }
    #[inline]
    fn apply_legal(&mut self, action: u16) {
        crate::piquet::State::apply_legal(self, action)
    }
    fn illegal_action_error(&self, action: i64) -> Error {
        crate::piquet::State::illegal_action_error(self, action)
    }
}

/// The most action ids of any engine (cribbage's 1379): the size of the cached-int table.
pub(crate) const MAX_ACTION_IDS: usize = crate::cribbage::NUM_DISTINCT_ACTIONS;

/// A core state with its history and an undo stack: what a Python `State` holds.
pub struct Tracked<S: Engine> {
    pub(crate) state: S,
    /// The state before `history[0]` (shared by clones: it never changes).
    root: Arc<S>,
    history: Vec<u16>,
    /// The states before the last `previous.len()` actions of `history` (a suffix: a clone
    /// starts with none and rebuilds the rest by replay from `root` when undo needs it).
    previous: Vec<S>,
}

impl<S: Engine> Tracked<S> {
    /// A state with no history.
    pub(crate) fn fresh(state: S) -> Tracked<S> {
        Tracked { state, root: Arc::new(state), history: Vec::new(), previous: Vec::new() }
    }

    /// An independent copy with the same history (its undo stack is rebuilt on demand).
    pub(crate) fn copy(&self) -> Tracked<S> {
        Tracked { state: self.state, root: Arc::clone(&self.root), history: self.history.clone(), previous: Vec::new() }
    }

    /// The state before the history.
    pub(crate) fn root(&self) -> &S {
        &self.root
    }

    /// The actions applied, oldest first.
    pub(crate) fn history(&self) -> &[u16] {
        &self.history
    }

    /// Apply an action id; an illegal one is a `ValueError` and changes nothing.
    #[inline]
    pub(crate) fn apply(&mut self, action: i64) -> PyResult<()> {
        if !(0..=u16::MAX as i64).contains(&action) || !self.state.is_legal(action as u16) {
            return Err(self.state.illegal_action_error(action).into());
        }
        let before = self.state;
        self.state.apply_legal(action as u16);
        self.previous.push(before);
        self.history.push(action as u16);
        Ok(())
    }

    /// This state after `action`, as a new tracked state (this one is unchanged).
    pub(crate) fn child(&self, action: i64) -> PyResult<Tracked<S>> {
        let mut next = self.copy();
        next.apply(action)?;
        Ok(next)
    }

    /// A state from its root and history, replayed (every action checked).
    pub(crate) fn replay(root: S, history: &[i64]) -> PyResult<Tracked<S>> {
        let mut out = Tracked::fresh(root);
        out.history.reserve(history.len());
        out.previous.reserve(history.len());
        for &a in history {
            out.apply(a)?;
        }
        Ok(out)
    }

    /// Fill in the states before the actions not covered by `previous`, by replay from `root`.
    fn rebuild_previous(&mut self) {
        let missing = self.history.len() - self.previous.len();
        if missing == 0 {
            return;
        }
        let mut states = Vec::with_capacity(self.history.len());
        let mut s = *self.root;
        for &a in &self.history[..missing] {
            states.push(s);
            s.apply_legal(a);
        }
        states.extend_from_slice(&self.previous);
        self.previous = states;
    }

    /// Undo the last action exactly and return it (OpenSpiel's optional `player` and `action`
    /// must match it); `ValueError` if there is none.
    pub(crate) fn undo(&mut self, player: Option<i64>, action: Option<i64>) -> PyResult<u16> {
        let Some(&last) = self.history.last() else {
            return Err(PyValueError::new_err("undo_action: no action to undo"));
        };
        if let Some(a) = action {
            if a != last as i64 {
                return Err(PyValueError::new_err(format!("undo_action: the last action is {last}, not {a}")));
            }
        }
        if self.previous.is_empty() {
            self.rebuild_previous();
        }
        let Some(before) = self.previous.pop() else {
            return Err(PyValueError::new_err("undo_action: no state to restore (internal error)"));
        };
        if let Some(p) = player {
            if p != before.current_player() as i64 {
                self.previous.push(before);
                return Err(PyValueError::new_err(format!(
                    "undo_action: action {last} was taken by {}, not {p}",
                    before.current_player()
                )));
            }
        }
        self.history.pop();
        self.state = before;
        Ok(last)
    }

    /// The player for a per-player query: the one given (checked) or the player to move.
    pub(crate) fn player_or_current(&self, player: Option<i64>, what: &str, game: &str) -> PyResult<usize> {
        let n = self.state.num_players();
        match player {
            Some(p) if (0..n as i64).contains(&p) => Ok(p as usize),
            Some(p) => Err(PyValueError::new_err(format!("no player {p} in {game} (players are 0..{n})"))),
            None => match self.state.current_player() {
                p if p >= 0 => Ok(p as usize),
                _ => Err(PyValueError::new_err(format!(
                    "{what}: no player is to move at a {} node; pass the player",
                    if self.state.is_terminal() { "terminal" } else { "chance" }
                ))),
            },
        }
    }
}

// --------------------------------------------------------------------------------- arguments

/// `"type repr"` of a Python value, for error messages (the repr cut at 40 characters).
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let repr: String = obj.repr().map(|r| r.to_string()).unwrap_or_default().chars().take(40).collect();
    format!("{type_name} {repr}")
}

/// An action id from any Python int (or `__index__` object); a bool or a non-int is a
/// `TypeError`, an int too large for any id a `ValueError`.
#[inline]
pub(crate) fn action_id<S: Engine>(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("an action must be an int, got the bool {obj}")));
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(format!(
            "illegal action {}: no {} action id is that large (ids are 0..{})",
            obj.repr().map(|r| r.to_string()).unwrap_or_default(),
            S::GAME,
            S::NUM_ACTIONS
        ))),
        Err(_) => Err(PyTypeError::new_err(format!("an action must be an int, got {}", describe(obj)))),
    }
}

/// An action id for `action_to_string`: in `0..NUM_ACTIONS` as a `u16`.
pub(crate) fn known_action<S: Engine>(obj: &Bound<'_, PyAny>) -> PyResult<u16> {
    let a = action_id::<S>(obj)?;
    u16::try_from(a)
        .ok()
        .filter(|&a| (a as usize) < S::NUM_ACTIONS)
        .ok_or_else(|| PyValueError::new_err(format!("no {} action {a} (ids are 0..{})", S::GAME, S::NUM_ACTIONS)))
}

/// A seed from any Python int (negative ints wrap to 64 bits).
pub(crate) fn seed_from(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("a seed must be an int, got a bool"));
    }
    if let Ok(s) = obj.extract::<u64>() {
        return Ok(s);
    }
    match obj.extract::<i64>() {
        Ok(s) => Ok(s as u64),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(PyValueError::new_err(format!("a seed must fit in 64 bits, got {}", describe(obj))))
        }
        Err(_) => Err(PyTypeError::new_err(format!("a seed must be an int, got {}", describe(obj)))),
    }
}

/// An int argument that saturates instead of raising `OverflowError`, so that the range check
/// behind it raises `ValueError` for any out-of-range int (`target=10**30`, `n_games=-10**30`).
pub(crate) struct SatInt(pub(crate) i64);

impl<'a, 'py> FromPyObject<'a, 'py> for SatInt {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<SatInt> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an int, got a bool"));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(SatInt(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let negative = obj.lt(0i64)?;
                Ok(SatInt(if negative { i64::MIN } else { i64::MAX }))
            }
            Err(_) => Err(PyTypeError::new_err(format!("expected an int, got {}", describe(&obj)))),
        }
    }
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
                return Err(PyTypeError::new_err(format!("a player must be an int, got {}", describe(first))));
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

// ------------------------------------------------------------------------ cached Python values

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
            ffi::PyList_SET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t, item);
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

// ---------------------------------------------------------------------------------- simulate

/// The most games one `simulate` call plays (run several seeds for more): the cores keep one
/// record per game until the columns are built, and an allocation failure would abort Python.
pub(crate) const MAX_SIM_GAMES: usize = 20_000_000;

/// `n_games` of `simulate`, checked against [`MAX_SIM_GAMES`].
pub(crate) fn sim_games(n_games: SatInt) -> PyResult<usize> {
    let n = n_games.0;
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_SIM_GAMES)
        .ok_or_else(|| PyValueError::new_err(format!("n_games must be 0..={MAX_SIM_GAMES}, got {n}")))
}

/// `threads` of `simulate`: None (every core) or at least 1 (capped at 1024).
pub(crate) fn sim_threads(threads: Option<SatInt>) -> PyResult<Option<usize>> {
    match threads.map(|t| t.0) {
        None => Ok(None),
        Some(t) if t >= 1 => Ok(Some(usize::try_from(t).unwrap_or(usize::MAX).min(1024))),
        Some(t) => Err(PyValueError::new_err(format!("threads must be at least 1, got {t}"))),
    }
}

/// `seed` of `simulate` (None: 0).
pub(crate) fn sim_seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    seed.map_or(Ok(0), seed_from)
}

/// The policies of `simulate`: one name for every seat, or a sequence of 1 or `n` names
/// (`None`: random).
pub(crate) fn policies_from<S: GameState + 'static>(
    players: Option<&Bound<'_, PyAny>>,
    n: usize,
) -> PyResult<Vec<PolicyFactory<S>>> {
    let Some(players) = players else {
        return Ok(vec![policy_by_name("random")?]);
    };
    if let Ok(name) = players.cast::<PyString>() {
        return Ok(vec![policy_by_name(name.to_str()?)?]);
    }
    let iter = players.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("players must be a policy name or a sequence of names, got {}", describe(players)))
    })?;
    let mut out = Vec::with_capacity(n);
    for item in iter {
        let item = item?;
        let name = item.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!("a policy must be a name like \"random\", got {}", describe(&item)))
        })?;
        out.push(policy_by_name(name.to_str()?)?);
    }
    if out.len() != 1 && out.len() != n {
        return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got {}", out.len())));
    }
    Ok(out)
}

/// A row-major `values` as an int32 array of `cols` columns.
pub(crate) fn column<'py, T: Copy + Into<i64>>(
    py: Python<'py>,
    values: &[T],
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let rows = values.len().checked_div(cols).unwrap_or(0);
    let data: Vec<i32> = values.iter().map(|&v| v.into().clamp(i32::MIN as i64, i32::MAX as i64) as i32).collect();
    data.into_pyarray(py).reshape([rows, cols])
}

/// `"P0"`, … for a player id, `"chance"` / `"nobody"` for the sentinels.
pub(crate) fn mover_text(player: Player) -> String {
    match player {
        p if p >= 0 => format!("P{p}"),
        crate::policy::CHANCE => "chance".into(),
        _ => "nobody".into(),
    }
}
