//! The one binding layer of both game engines. [`engine_classes!`] makes a game's `Game` and
//! `State` classes, its `simulate` and its constants; their methods are one line each over the
//! engine framework ([`Game`], [`GameState`], [`StateStack`]) or over the generic functions here
//! (for any [`PyGame`]), so every method exists in both games with one docstring source. Each game
//! adds only its constructor and its own accessors (`cribbage_game.rs`, `piquet_game.rs`), most
//! of them lines of [`methods!`].
//!
//! Arguments: every int (a player, an action, a count) goes through `convert`'s [`IntArg`], so a bool is a
//! `TypeError` and an out-of-range or huge int a `ValueError` naming the argument and its range,
//! never an `OverflowError`.
//!
//! Threads: a `State` may be shared between threads. Each method runs with the interpreter held
//! while it touches the state (the long one, `resample_from_infostate`, copies the state first
//! and releases the interpreter only over the copy), so calls from several threads are
//! serialised and never see a half-applied action or raise "Already borrowed".

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::bindings::convert::{describe, seed_from, Deck, IdObjects, IntArg};
use crate::bots::registry::{BotGame, BotSpec};
use crate::engine::{simulate_into, simulate_into_recording, thread_pool, Game, GameState, SimColumns, StateStack};

use super::interrupt::interruptible;
use super::players::policies_from;

/// What the generic binding needs of a game beyond the framework: its cards (its `Card` class,
/// whose conversions also refuse the other games' cards: [`Deck`]), its Python `State` and its
/// action ids as Python objects. Implemented for each core game by [`engine_classes!`]; the
/// generic functions below are written once over it.
pub(crate) trait PyGame: Game<State: BotGame> {
    /// The game's card conversions.
    type Deck: Deck;
    /// The game's action ids and chance outcomes as Python objects, made once.
    fn ids() -> &'static IdObjects;
    /// A new Python `State` of this game holding `stack`.
    fn state_object(py: Python<'_>, stack: StateStack<Self::State>) -> PyResult<Py<PyAny>>;
    /// The fields of the game's `cribpiquet.GameType` that differ between games: the names, the
    /// fewest and most players of its variants, the parameters `cribpiquet.load_game` takes with
    /// their defaults (`Game.get_type()`, which `_engine.game_methods` gives the `Game` classes,
    /// builds the record from them).
    fn type_fields(py: Python<'_>) -> PyResult<Bound<'_, PyDict>>;
}

// --------------------------------------------------------------------------------- arguments

/// An action id from any Python int: a bool, a non-int or the other game's `Card` (an int by
/// `__index__`, never an action here) is a `TypeError`; an int that is no action id at all stays
/// an `i64` (so the legality check names it), one beyond 64 bits is a `ValueError` naming the range.
#[inline]
pub(crate) fn action_id<G: PyGame>(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let not_int = || PyTypeError::new_err(format!("action must be an int, got {}", describe(obj)));
    if !obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        if super::convert::is_bool(obj) {
            return Err(not_int());
        }
        if let Some(other) = <G::Deck as super::convert::OtherCards>::other_game(obj) {
            let card = super::convert::other_card_text::<G::Deck>(other);
            return Err(PyTypeError::new_err(format!("{card} (nor a {} action)", G::NAME)));
        }
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            // A Python int beyond i64 or an `__index__` object standing for one.
            let Ok(int) = obj.py().import("operator").and_then(|m| m.getattr("index")?.call1((obj,))) else {
                return Err(not_int());
            };
            Err(PyValueError::new_err(format!(
                "illegal action {}-bit int {}: {} actions are 0..{}",
                int.call_method0("bit_length")?,
                crate::bindings::convert::echo_repr(&int),
                G::NAME,
                G::NUM_DISTINCT_ACTIONS - 1
            )))
        }
        Err(_) => Err(not_int()),
    }
}

/// An action id in `0..NUM_DISTINCT_ACTIONS` (for `action_to_string`).
pub(crate) fn known_action<G: PyGame>(obj: &Bound<'_, PyAny>) -> PyResult<u16> {
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
            if super::convert::is_bool(first) || first.extract::<i64>().is_err() {
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

/// The seat of a required `player` argument ([`player_or_current`]).
pub(crate) fn seat<S: GameState>(state: &S, player: IntArg, what: &str) -> PyResult<usize> {
    player_or_current(state, Some(player), what)
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

/// `simulate(game, n_games, *, players, seed, threads, first_game, max_records)` for any
/// engine: games `first_game..first_game + n_games` of the run seeded by `seed`, on the thread
/// pool with the interpreter released ([`interruptible`]: Ctrl-C raises `KeyboardInterrupt`
/// between games). Memory is the output's: the columns are reserved up front (a `MemoryError`
/// if they do not fit) and each game is reduced to its row as soon as it ends. With
/// `max_records`, the actions of the first `max_records` games are kept too and returned under
/// `"records"`: a list of uint16 arrays, one per game in order (the wrapper writes them with
/// `cribpiquet.records`); without it the run is the playout path, untouched.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_simulate<'py, G: PyGame>(
    py: Python<'py>,
    game: G,
    n_games: IntArg,
    players: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<IntArg>,
    first_game: Option<IntArg>,
    max_records: Option<IntArg>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = n_games.within("n_games", 0..i64::MAX)? as usize;
    let max_records = max_records.as_ref().map(|m| m.within("max_records", 0..i64::MAX)).transpose()?;
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
        let mib = SimColumns::bytes_for(&game, n) >> 20;
        PyMemoryError::new_err(format!(
            "cannot hold the results of {n} games (about {mib} MiB); simulate fewer per call"
        ))
    })?;
    let games = first..first + n as u64;
    let Some(max_records) = max_records else {
        interruptible(py, || simulate_into(&game, &policies, seed, games, &pool, &mut out))?;
        return crate::bindings::arrays::columns_dict(py, out);
    };
    let mut records = Vec::new();
    let keep = (max_records as usize).min(n);
    interruptible(py, || simulate_into_recording(&game, &policies, seed, games, &pool, &mut out, keep, &mut records))?;
    let d = crate::bindings::arrays::columns_dict(py, out)?;
    let list = PyList::empty(py);
    for actions in records {
        list.append(actions.into_pyarray(py))?;
    }
    d.set_item("records", list)?;
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

// ------------------------------------------------------------------- the methods, written once

/// `State.legal_actions(player=None)`.
#[inline]
pub(crate) fn legal_actions<'py, G: PyGame>(
    py: Python<'py>,
    s: &G::State,
    player: Option<IntArg>,
) -> PyResult<Bound<'py, PyList>> {
    if !is_to_move(s, player, "legal_actions")? {
        return Ok(PyList::empty(py));
    }
    G::ids().action_list(py, &s.legal_actions())
}

/// `State.legal_actions_mask(player=None)`.
pub(crate) fn legal_actions_mask<'py, S: GameState>(
    py: Python<'py>,
    s: &S,
    player: Option<IntArg>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let mut mask = s.legal_actions_mask();
    if !is_to_move(s, player, "legal_actions_mask")? {
        mask.fill(false);
    }
    Ok(mask.into_pyarray(py))
}

/// `State.chance_outcomes()`.
pub(crate) fn chance_outcomes<'py, G: PyGame>(py: Python<'py>, s: &G::State) -> PyResult<Bound<'py, PyList>> {
    if !s.is_chance_node() {
        return Ok(PyList::empty(py));
    }
    G::ids().uniform_chance_outcomes(py, &s.legal_actions())
}

/// `State.sample_chance(seed)`: [`StateStack::sample_chance`], a `ValueError` off a chance node.
pub(crate) fn sample_chance<S: GameState>(stack: &StateStack<S>, seed: &Bound<'_, PyAny>) -> PyResult<u16> {
    stack.sample_chance(seed_from(seed)?).ok_or_else(|| {
        let who = crate::engine::player_text(stack.state().current_player());
        PyValueError::new_err(format!("sample_chance: no chance event is next ({who} to move)"))
    })
}

/// `State.apply_action(action)`.
#[inline]
pub(crate) fn apply_action<G: PyGame>(stack: &mut StateStack<G::State>, action: &Bound<'_, PyAny>) -> PyResult<()> {
    Ok(stack.apply_action(action_id::<G>(action)?)?)
}

/// `State.undo_action(player=None, action=None)`: OpenSpiel's form names the last action.
pub(crate) fn undo_action<S: GameState>(
    stack: &mut StateStack<S>,
    player: Option<IntArg>,
    action: Option<IntArg>,
) -> PyResult<u16> {
    let player = player.map(|p| p.get("player")).transpose()?;
    let action = action.map(|a| a.get("action")).transpose()?;
    // A value beyond i64 matches nothing: say so with the value as given.
    if let Some(a) = action.filter(|a| a.huge) {
        let msg = match stack.history().last() {
            Some(last) => format!("undo_action: the last action is {last}, not {}", a.text()),
            None => "undo_action: no action to undo".to_string(),
        };
        return Err(crate::error::Error::Illegal(msg).into());
    }
    if let Some(p) = player.filter(|p| p.huge) {
        let msg = format!("undo_action: player must be a player id, got {}", p.text());
        return Err(crate::error::Error::Illegal(msg).into());
    }
    Ok(stack.undo_checked(player.map(|p| p.value), action.map(|a| a.value))?)
}

/// `State.action_to_string(player_or_action, action=None)`.
pub(crate) fn action_to_string<G: PyGame>(
    s: &G::State,
    first: &Bound<'_, PyAny>,
    second: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    Ok(s.action_to_string(known_action::<G>(split_player(first, second)?)?)?)
}

/// `State.string_to_action(player_or_text, text=None)`.
pub(crate) fn string_to_action<S: GameState>(
    s: &S,
    first: &Bound<'_, PyAny>,
    second: Option<&Bound<'_, PyAny>>,
) -> PyResult<u16> {
    Ok(s.string_to_action(super::convert::text(action_text(split_player(first, second)?)?, "action text")?)?)
}

/// `State.information_state_tensor` / `observation_tensor` (`read`) of `player` (default: the
/// player to move) as a new float32 array.
pub(crate) fn tensor<'py, S: GameState>(
    py: Python<'py>,
    s: &S,
    player: Option<IntArg>,
    what: &str,
    read: fn(&S, usize) -> crate::error::Result<Vec<f32>>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    Ok(read(s, player_or_current(s, player, what)?)?.into_pyarray(py))
}

/// The seed of `resample_from_infostate`: an int, or 64 bits drawn from a Python generator
/// (`random.Random`: `getrandbits(64)`; numpy's `Generator`: `integers`; numpy's legacy
/// `RandomState`, as OpenSpiel's bots hold: `randint`), which it advances.
fn seed_or_generator(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    let py = seed.py();
    if seed.is_instance_of::<pyo3::types::PyInt>() || seed.hasattr("__index__")? {
        return seed_from(seed);
    }
    let drawn = if seed.hasattr("getrandbits")? {
        seed.call_method1("getrandbits", (64,))?
    } else if seed.hasattr("integers")? || seed.hasattr("randint")? {
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", "uint64")?;
        let method = if seed.hasattr("integers")? { "integers" } else { "randint" };
        // 0 ..= u64::MAX: numpy takes the exclusive bound 2**64 for a uint64 draw.
        seed.call_method(method, (0, 1u128 << 64), Some(&kwargs))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "seed must be an int, a random.Random or a numpy Generator/RandomState, got {}",
            describe(seed)
        )));
    };
    drawn.extract::<u64>()
}

/// `State.resample_from_infostate(player, seed)`: the interpreter is released over a copy.
pub(crate) fn resample_from_infostate<S: GameState>(
    py: Python<'_>,
    state: S,
    player: Option<IntArg>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<S> {
    let p = player_or_current(&state, player, "resample_from_infostate")?;
    let mut rng = crate::rng::Rng::new(seed_or_generator(seed)?);
    Ok(py.detach(move || state.resample_from_infostate(p, &mut rng))?)
}

/// `State.history_str()`: the history as OpenSpiel writes it, ids joined by ``", "``.
pub(crate) fn history_str(history: &[u16]) -> String {
    let ids: Vec<String> = history.iter().map(u16::to_string).collect();
    ids.join(", ")
}

/// `Game.deserialize_state(text)`.
pub(crate) fn deserialize_state<G: Game>(game: &G, text: &Bound<'_, PyAny>) -> PyResult<G::State> {
    let text = text.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "deserialize_state: text must be a str (State.serialize() output), got {}",
            describe(text)
        ))
    })?;
    Ok(game.deserialize_state(super::convert::text(text, "text")?)?)
}

// ------------------------------------------------------------------------------ the classes

/// Python methods (and getters) that are one expression over a class's core value: each entry is
/// its docstring and attributes and `fn name(args) -> Type = expression;`, the expression seeing
/// `s` (the first name given after the class) bound to the class's `view()` (a `State`'s core
/// state, a `Game`'s core game), the second name if given to its field `0` (a `State`'s
/// [`StateStack`]), and the arguments; `?` works in it.
macro_rules! methods {
    ($Class:ident |$s:ident| $($entries:tt)*) => {
        $crate::bindings::engine::methods! { $Class |$s, _inner| $($entries)* }
    };
    ($Class:ident |$s:ident, $inner:ident| $(
        $(#[$m:meta])* fn $name:ident $(<$lt:lifetime>)? ($($arg:ident: $ty:ty),*) -> $ret:ty = $body:expr;
    )*) => {
        #[pyo3::pymethods]
        impl $Class {
            $(
                $(#[$m])*
                fn $name $(<$lt>)? (&self $(, $arg: $ty)*) -> pyo3::PyResult<$ret> {
                    #[allow(unused_variables)]
                    let $s = self.view();
                    #[allow(unused_variables)]
                    let $inner = &self.0;
                    Ok($body)
                }
            )*
        }
    };
}
pub(crate) use methods;

/// `Game` and `State` classes for one engine, from one implementation: the caller names the core
/// game, its card deck and the module, gives the class docstrings and the game's own constants
/// (added to [`base_constants`]); the game's own methods (the `Game` constructor, pickling, repr
/// and option getters; the `State` accessors only this game has) follow in `#[pymethods]` blocks
/// and [`methods!`] of its file.
macro_rules! engine_classes {
    (
        core_game: $Core:ty,
        deck: $Deck:ty,
        module: $module:tt,
        $(#[$game_doc:meta])*
        game_class,
        $(#[$state_doc:meta])*
        state_class,
        class_prefix: $prefix:tt,
        $(#[$sim_doc:meta])*
        simulate: $simulate:ident,
        constants: $constants:ident { $($const_name:literal => $const_value:expr),* $(,)? },
        game_type: {
            long_name: $long_name:literal,
            players: ($min_players:literal, $max_players:literal),
            parameters: { $($param:literal => $default:expr),* $(,)? },
        },
    ) => {
        use $crate::engine::{Game as EngineGame, GameState as EngineState};
        use $crate::bindings::convert::{Deck as _, IdObjects, IntArg as Int};
        use $crate::bindings::engine as generic;

        impl generic::PyGame for $Core {
            type Deck = $Deck;
            fn ids() -> &'static IdObjects {
                static IDS: IdObjects = IdObjects::new(<$Core>::NUM_DISTINCT_ACTIONS, <$Deck>::COUNT as usize);
                &IDS
            }
            fn state_object(py: Python<'_>, stack: $crate::engine::StateStack<Self::State>) -> PyResult<Py<PyAny>> {
                Ok(Py::new(py, State(stack))?.into_any())
            }
            fn type_fields(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
                let parameters = pyo3::types::PyDict::new(py);
                $(parameters.set_item($param, $default)?;)*
                let d = pyo3::types::PyDict::new(py);
                d.set_item("short_name", <$Core as EngineGame>::NAME)?;
                d.set_item("long_name", $long_name)?;
                d.set_item("min_num_players", $min_players)?;
                d.set_item("max_num_players", $max_players)?;
                d.set_item("parameter_specification", parameters)?;
                Ok(d)
            }
        }

        #[doc = concat!("The engine's constants as a dict (``", $module, "`` exports them as module constants).")]
        #[pyfunction]
        fn $constants(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
            let d = generic::base_constants::<$Core>(py)?;
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
        /// ``record`` (a path) writes games ``first_game .. first_game + max_records`` of the call
        /// (``max_records`` defaults to 1000) to that file as a game record after the run, one
        /// game after another (:mod:`cribpiquet.records`; ``cribpiquet replay FILE --game N`` shows
        /// one): their actions are kept in Rust as they are played, in memory bounded by
        /// ``max_records`` (a ``MemoryError`` if it cannot be had). Without ``record`` nothing is
        /// kept and the run is the playout path as before.
        ///
        $(#[$sim_doc])*
        #[pyfunction]
        #[pyo3(signature = (game, n_games, *, players = None, seed = None, threads = None, first_game = None, max_records = None),
               text_signature = "(game, n_games, *, players='random', seed=0, threads=None, first_game=0, max_records=None)")]
        #[allow(clippy::too_many_arguments)]
        fn $simulate<'py>(
            py: Python<'py>,
            game: &Bound<'py, PyAny>,
            n_games: Int,
            players: Option<&Bound<'py, PyAny>>,
            seed: Option<&Bound<'py, PyAny>>,
            threads: Option<Int>,
            first_game: Option<Int>,
            max_records: Option<Int>,
        ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            let game = Game::argument(game, "simulate")?;
            generic::run_simulate(py, game, n_games, players, seed, threads, first_game, max_records)
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
        pub struct State(pub(crate) $crate::engine::StateStack<<$Core as EngineGame>::State>);

        impl Game {
            /// The core game of a Python `Game` argument (`TypeError` naming `what` otherwise).
            pub(crate) fn argument(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<$Core> {
                obj.cast::<Game>().map(|g| g.get().0).map_err(|_| {
                    let got = $crate::bindings::convert::describe(obj);
                    let name = <$Core as EngineGame>::NAME;
                    pyo3::exceptions::PyTypeError::new_err(format!("{what} needs a {name} Game, got {got}"))
                })
            }

            /// What [`methods!`] entries read: the core game.
            fn view(&self) -> &$Core {
                &self.0
            }
        }

        impl State {
            /// A state with no history.
            pub(crate) fn fresh(state: <$Core as EngineGame>::State) -> State {
                State($crate::engine::StateStack::new(state))
            }

            /// The current core state (a copy).
            #[inline]
            pub(crate) fn core(&self) -> <$Core as EngineGame>::State {
                *self.0.state()
            }

            /// What [`methods!`] entries read: the current core state.
            #[inline]
            fn view(&self) -> &<$Core as EngineGame>::State {
                self.0.state()
            }
        }

        $crate::bindings::engine::engine_game_methods!($Core);
        $crate::bindings::engine::engine_state_methods!($Core);
        $crate::bindings::engine::engine_state_readers!($Core);
    };
}
pub(crate) use engine_classes;

/// The `Game` methods of every engine (inside [`engine_classes!`]).
macro_rules! engine_game_methods {
    ($Core:ty) => {
        $crate::bindings::engine::methods! { Game |c|
            /// Number of players (seats).
            fn num_players() -> usize = c.num_players();
            /// Number of sides that score (the players, except partnerships: 2 in four-player
            /// cribbage).
            fn num_sides() -> usize = c.num_sides();
            /// Number of action ids (``NUM_DISTINCT_ACTIONS``), chance outcomes included.
            fn num_distinct_actions() -> usize = <$Core as EngineGame>::NUM_DISTINCT_ACTIONS;
            /// The most chance outcomes at one node (a card of the full pack).
            fn max_chance_outcomes() -> usize = <$Core as EngineGame>::MAX_CHANCE_OUTCOMES;
            /// An upper bound on the number of actions of a game, chance outcomes included
            /// (OpenSpiel's ``max_game_length``): the most deals times the most actions of a deal,
            /// plus the draws for deal. Equal cards draw again with no limit in the rules, so the
            /// bound allows 32 rounds of each draw (more come with probability below 1e-29; a
            /// rubicon partie likewise 16 pairs of extra deals while tied).
            fn max_game_length() -> u64 = c.max_game_length();
            /// The lowest payoff of a player (see :meth:`State.returns`).
            fn min_utility() -> f64 = c.min_utility();
            /// The highest payoff of a player (see :meth:`State.returns`).
            fn max_utility() -> f64 = c.max_utility();
            /// The sum of the payoffs over the players: 0 (zero-sum).
            fn utility_sum() -> f64 = c.utility_sum();
            /// The names of the point sources (the keys of :meth:`State.points_by_source`, the
            /// extra columns of ``simulate``).
            fn point_sources() -> Vec<&'static str> = <$Core as EngineGame>::POINT_SOURCES.to_vec();
            /// The state before the first chance event (a chance node).
            fn new_initial_state() -> State = State::fresh(c.new_initial_state());
            /// The shape of :meth:`State.information_state_tensor`: ``[INFO_TENSOR_SIZE]``.
            fn information_state_tensor_shape() -> Vec<usize> = vec![<$Core as EngineGame>::INFO_TENSOR_SIZE];
            /// ``INFO_TENSOR_SIZE``.
            fn information_state_tensor_size() -> usize = <$Core as EngineGame>::INFO_TENSOR_SIZE;
            /// The shape of :meth:`State.observation_tensor`: ``[OBS_TENSOR_SIZE]``.
            fn observation_tensor_shape() -> Vec<usize> = vec![<$Core as EngineGame>::OBS_TENSOR_SIZE];
            /// ``OBS_TENSOR_SIZE``.
            fn observation_tensor_size() -> usize = <$Core as EngineGame>::OBS_TENSOR_SIZE;
            /// A state from :meth:`State.serialize` text of this game. Only states that play can
            /// reach are accepted (``ValueError`` otherwise); it has no history to undo.
            fn deserialize_state(text: &Bound<'_, PyAny>) -> State = State::fresh(generic::deserialize_state(c, text)?);
            /// The game's fields of :meth:`get_type`'s :class:`cribpiquet.GameType` (names,
            /// players, the parameters of :func:`cribpiquet.load_game`).
            fn _type_fields<'py>(py: Python<'py>) -> Bound<'py, pyo3::types::PyDict> = <$Core as generic::PyGame>::type_fields(py)?;
        }
    };
}
pub(crate) use engine_game_methods;

/// The `State` methods of every engine that read the state (inside [`engine_classes!`]).
macro_rules! engine_state_readers {
    ($Core:ty) => {
        $crate::bindings::engine::methods! { State |s, stack|
            /// The chance outcome the engine draws for ``seed`` here (``ValueError`` unless
            /// :meth:`is_chance_node`): the draw of ``simulate`` (uniform over
            /// :meth:`chance_outcomes`) from the project's generator seeded with ``(seed,
            /// move_number())``, so one seed deals a whole game, and the same card comes again
            /// after an undo. ``seed`` is any int (negative ints wrap to 64 bits).
            ///
            /// >>> s = Game().new_initial_state()
            /// >>> a = s.sample_chance(7)
            /// >>> a == s.sample_chance(7), a in s.legal_actions()
            /// (True, True)
            fn sample_chance(seed: &Bound<'_, PyAny>) -> u16 = generic::sample_chance(stack, seed)?;
            /// A new state: this one after ``action`` (this one is unchanged).
            fn child(action: &Bound<'_, PyAny>) -> State = State(stack.child(generic::action_id::<$Core>(action)?)?);
            /// An independent copy, with the same history (undo works on it too).
            fn clone() -> State = State(stack.copy());
            fn __copy__() -> State = State(stack.copy());
            fn __deepcopy__(_memo: &Bound<'_, PyAny>) -> State = State(stack.copy());
            /// The actions applied so far, oldest first (chance outcomes included). A state from
            /// ``deserialize_state`` or ``resample_from_infostate`` starts a new history.
            fn history() -> Vec<u16> = stack.history().to_vec();
            /// :meth:`history` as OpenSpiel's ``history_str()`` writes it: the ids joined by
            /// ``", "``.
            fn history_str() -> String = generic::history_str(stack.history());
            /// ``len(history())``.
            fn move_number() -> usize = stack.history().len();
            /// The player to move, ``CHANCE`` (-1) at a chance event, ``TERMINAL`` (-4) at the end.
            fn current_player() -> i32 = s.current_player();
            /// Is a chance event (a card cut, dealt or drawn) next?
            fn is_chance_node() -> bool = s.is_chance_node();
            /// Is a player (not chance) to move?
            fn is_player_node() -> bool = s.current_player() >= 0;
            /// Do several players move at once? Never: both games are sequential (OpenSpiel's
            /// name, for code written for any game).
            fn is_simultaneous_node() -> bool = false;
            /// Is the game over?
            fn is_terminal() -> bool = s.is_terminal();
            /// Number of players.
            fn num_players() -> usize = EngineState::num_players(s);
            /// The game of this state.
            fn get_game() -> Game = Game(s.game());
            /// The legal actions, ascending (the chance outcomes at a chance node; empty at the
            /// end). With ``player``, the empty list unless that player is to move.
            #[pyo3(signature = (player = None))]
            fn legal_actions<'py>(py: Python<'py>, player: Option<Int>) -> Bound<'py, pyo3::types::PyList> =
                generic::legal_actions::<$Core>(py, s, player)?;
            /// A bool array of length ``NUM_DISTINCT_ACTIONS``, true at the legal actions (all
            /// false when ``player`` is given and not to move).
            #[pyo3(signature = (player = None))]
            fn legal_actions_mask<'py>(py: Python<'py>, player: Option<Int>) -> Bound<'py, numpy::PyArray1<bool>> =
                generic::legal_actions_mask(py, s, player)?;
            /// ``[(action, probability), ...]`` at a chance node (uniform over the cards that can
            /// come, ascending); empty elsewhere.
            fn chance_outcomes<'py>(py: Python<'py>) -> Bound<'py, pyo3::types::PyList> =
                generic::chance_outcomes::<$Core>(py, s)?;
            /// The card ids an action names, ascending (it does not depend on the state): the
            /// card laid, discarded, dealt or drawn, both cards of a two-card discard, none for
            /// the other actions. ``ValueError`` for an id that is no action.
            fn action_cards(action: &Bound<'_, PyAny>) -> Vec<u16> =
                s.action_cards(generic::known_action::<$Core>(action)?)?;
            /// The unplayed card ids of ``player``, ascending (omniscient: no information set).
            fn hand(player: Int) -> Vec<u16> = card_ids(s.hand(generic::seat(s, player, "hand")?));
            /// The card ids ``player`` keeps this deal, played or not (cribbage: what he shows;
            /// piquet: his 12 cards after the exchange).
            fn kept(player: Int) -> Vec<u16> = card_ids(s.kept(generic::seat(s, player, "kept")?));
            /// The card ids ``player`` discarded this deal (cribbage: to the crib; piquet: in the
            /// exchange).
            fn discards(player: Int) -> Vec<u16> = card_ids(s.discards(generic::seat(s, player, "discards")?));
            /// The payoff of each player: 0 until the end (see the game's docs for the values).
            fn returns() -> Vec<f64> = s.returns();
            /// The payoff of one player.
            fn player_return(player: Int) -> f64 = s.player_return(generic::seat(s, player, "player_return")?);
            /// Points made by the last action, per player (partners share their side's). Not the
            /// payoff: see :meth:`returns`.
            fn rewards() -> Vec<f64> = s.rewards();
            /// The score of each player over the whole game so far (partners share their
            /// side's).
            fn scores() -> Vec<u64> = s.scores();
            /// The score of each side (``Game.num_sides()`` of them).
            fn side_scores() -> Vec<u64> = (0..s.game().num_sides()).map(|side| s.side_score(side)).collect();
            /// Points by source, ``{source: [points per side]}`` (sources:
            /// ``Game.point_sources()``); per side they add up to :meth:`side_scores`.
            fn points_by_source<'py>(py: Python<'py>) -> Bound<'py, pyo3::types::PyDict> =
                generic::points_by_source(py, s)?;
            /// The text of an action (it does not depend on the state). Also
            /// ``action_to_string(player, action)``.
            #[pyo3(signature = (player_or_action, action = None))]
            fn action_to_string(player_or_action: &Bound<'_, PyAny>, action: Option<&Bound<'_, PyAny>>) -> String =
                generic::action_to_string::<$Core>(s, player_or_action, action)?;
            /// The action of a text (legality is not checked). Also
            /// ``string_to_action(player, text)``.
            #[pyo3(signature = (player_or_text, text = None))]
            fn string_to_action(player_or_text: &Bound<'_, PyAny>, text: Option<&Bound<'_, PyAny>>) -> u16 =
                generic::string_to_action(s, player_or_text, text)?;
            /// Everything ``player`` (default: the player to move) knows, as text. Equal strings
            /// mean equal information.
            #[pyo3(signature = (player = None))]
            fn information_state_string(player: Option<Int>) -> String =
                s.information_state_string(generic::player_or_current(s, player, "information_state_string")?)?;
            /// The information state of ``player`` (default: the player to move) as float32,
            /// shape ``game.information_state_tensor_shape()``. Equal tensors mean equal
            /// information.
            #[pyo3(signature = (player = None))]
            fn information_state_tensor<'py>(py: Python<'py>, player: Option<Int>) -> Bound<'py, numpy::PyArray1<f32>> =
                generic::tensor(py, s, player, "information_state_tensor", EngineState::information_state_tensor_vec)?;
            /// What ``player`` (default: the player to move) sees now, as text: the facts of
            /// :meth:`observation_tensor` (the information state without the order of the play).
            /// Equal strings mean equal observations.
            #[pyo3(signature = (player = None))]
            fn observation_string(player: Option<Int>) -> String =
                s.observation_string(generic::player_or_current(s, player, "observation_string")?)?;
            /// What ``player`` (default: the player to move) sees now as float32, shape
            /// ``game.observation_tensor_shape()``.
            #[pyo3(signature = (player = None))]
            fn observation_tensor<'py>(py: Python<'py>, player: Option<Int>) -> Bound<'py, numpy::PyArray1<f32>> =
                generic::tensor(py, s, player, "observation_tensor", EngineState::observation_tensor_vec)?;
            /// The state as one line of text (no history); ``game.deserialize_state`` reads it
            /// back.
            fn serialize() -> String = s.serialize();
            /// The phase's name (``"deal"``, ``"play"``, ``"game-over"``, …).
            #[getter]
            fn phase() -> &'static str = s.phase_name();
            /// The dealer's seat, or None before the first cut decides it.
            #[getter]
            fn dealer() -> Option<usize> = EngineState::dealer(s);
            /// The winning side once the game is over, else None (also None for a drawn deal).
            #[getter]
            fn winner() -> Option<usize> = EngineState::winner(s);
            /// What the finished game counts for the winner: cribbage 1 (2 or 3 for a
            /// lurch/skunk with ``lurch``), piquet the winner's payoff; 0 before the end or for a
            /// draw.
            #[getter]
            fn game_value() -> u64 = EngineState::game_value(s);
            /// Deals begun (1 during the first deal).
            #[getter]
            fn deals() -> u32 = EngineState::deals(s);
            /// Every card on the table and in the hands, for a human debugging (omniscient).
            fn __str__() -> String = s.to_string();
        }
    };
}
pub(crate) use engine_state_readers;

/// The `State` methods of every engine that change the state or use its history (inside
/// [`engine_classes!`]).
macro_rules! engine_state_methods {
    ($Core:ty) => {
        #[pymethods]
        impl State {
            /// Apply an action (a decision or a chance outcome). An illegal action raises
            /// ``ValueError`` naming it and the legal set, and leaves the state unchanged; a
            /// non-int (or a bool) raises ``TypeError``.
            fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
                generic::apply_action::<$Core>(&mut self.0, action)
            }

            /// Undo the last action exactly and return it; ``ValueError`` if there is none.
            /// OpenSpiel's ``undo_action(player, action)`` form is accepted: they must be the
            /// last action's.
            #[pyo3(signature = (player = None, action = None))]
            fn undo_action(&mut self, player: Option<Int>, action: Option<Int>) -> PyResult<u16> {
                generic::undo_action(&mut self.0, player, action)
            }

            /// A state drawn uniformly among those consistent with everything ``player`` (``None``:
            /// the player to move) has seen (the hidden cards redealt), reproducible for a
            /// ``seed``; it starts a new history. ``seed`` is an int, or a generator to draw it
            /// from (and advance): a ``random.Random``, a numpy ``Generator`` or ``RandomState``. The interpreter is released while it samples (the
            /// state is copied first, so other threads may use this one meanwhile).
            #[pyo3(signature = (player, seed))]
            fn resample_from_infostate(
                slf: &Bound<'_, Self>,
                player: Option<Int>,
                seed: &Bound<'_, PyAny>,
            ) -> PyResult<State> {
                let state = slf.borrow().core();
                Ok(State::fresh(generic::resample_from_infostate(slf.py(), state, player, seed)?))
            }

            /// The same position (the history is not compared). States are mutable, so
            /// unhashable.
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<State>() {
                    Ok(o) => o.try_borrow().map(|o| o.core() == self.core()).unwrap_or(false),
                    Err(_) => false,
                }
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Game, String, Vec<u16>))> {
                let this = slf.borrow();
                let restore = slf.get_type().getattr("_restore")?;
                let game = Game(this.0.state().game());
                Ok((restore, (game, this.0.root().serialize(), this.0.history().to_vec())))
            }

            /// Unpickling: the root state's text and the history, replayed (so undo survives).
            #[classmethod]
            fn _restore(
                _cls: &Bound<'_, pyo3::types::PyType>,
                game: &Bound<'_, PyAny>,
                root: &str,
                history: Vec<u16>,
            ) -> PyResult<State> {
                let root = Game::argument(game, "State._restore")?.deserialize_state(root)?;
                Ok(State($crate::engine::StateStack::replay(root, &history)?))
            }
        }
    };
}
pub(crate) use engine_state_methods;
