//! Bindings for the bots: `cribpiquet.bots` (`Bot` and its classes), the registry's `bot_names`
//! and `bot_from_name`, and the arena.
//!
//! The base class [`PyBot`] holds a bot's settings (the core registry's [`BotSettings`]), its own
//! generator and its live bot of each game. Each class is one [`bot_classes!`] entry whose
//! arguments are its registry entry's settings (converted by their [`Kind`], set and checked by
//! the core); the repr and `__reduce__` read them back. `simulate` and the arena take the
//! settings ([`BotSpec::policy_factory`]: fresh bots per seat and game).

use std::ops::Range;
use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyBool, PyDict, PyString, PyTuple, PyType};

use super::convert::{bool_arg, describe, is_bool, seed_from, str_text, IntArg};
use super::interrupt::{interruptible, interruptible_unless, on_pool};
use super::players::{policy_from, register_bot_reader};
use crate::bots::registry::{BotGame, BotSettings, BotSpec, Kind, Value, BOTS};
use crate::bots::Bot;
use crate::engine::GameState;
use crate::rng::Rng;
use crate::{cribbage, piquet};

/// A state argument of either game.
#[derive(Clone, Copy)]
pub(crate) enum AnyState {
    Cribbage(cribbage::State),
    Piquet(piquet::State),
}

pub(crate) fn state_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyState> {
    if let Ok(s) = obj.cast::<super::cribbage_game::State>() {
        return Ok(AnyState::Cribbage(s.try_borrow()?.core()));
    }
    if let Ok(s) = obj.cast::<super::piquet_game::State>() {
        return Ok(AnyState::Piquet(s.try_borrow()?.core()));
    }
    Err(PyTypeError::new_err(format!("{what} needs a cribbage or piquet State, got {}", describe(obj))))
}

/// A number argument: `TypeError` naming it for anything else (a bool, Python's or numpy's,
/// too); an int too large for a float is a `ValueError` saying so.
fn float_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if is_bool(obj) {
        return Err(PyTypeError::new_err(format!("{name} must be a number, got {}", describe(obj))));
    }
    match obj.extract::<f64>() {
        Ok(x) => Ok(x),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
            let bits = obj.call_method0("bit_length").and_then(|b| b.extract::<u64>()).unwrap_or(0);
            Err(PyValueError::new_err(format!("{name} is too large for a number, got an int of {bits} bits")))
        }
        Err(_) => Err(PyTypeError::new_err(format!("{name} must be a number, got {}", describe(obj)))),
    }
}

/// A setting's value as a Python object.
fn value_object<'py>(py: Python<'py>, value: Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::None => py.None().into_bound(py),
        Value::Int(n) => n.into_pyobject(py)?.into_any(),
        Value::Seed(s) => s.into_pyobject(py)?.into_any(),
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Name(n) => PyString::new(py, n).into_any(),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
    })
}

// ------------------------------------------------------------------------------ the classes

/// What a Python bot holds while it plays.
struct Live {
    rng: Rng,
    cribbage: Option<Box<dyn Bot<cribbage::State>>>,
    piquet: Option<Box<dyn Bot<piquet::State>>>,
}

/// A bot (the base class of every bot of :mod:`cribpiquet.bots`).
///
/// A bot plays either game: :meth:`step` returns the action it plays for the player to move,
/// :meth:`action_values` what it thinks each legal action is worth (the scale is the bot's, see
/// its class), :meth:`restart` forgets the game so far and reseeds the bot's generator, so the
/// same calls after a restart give the same answers. A chance node or a finished game is a
/// ``ValueError``. Bots are accepted by ``simulate(players=...)`` and :func:`cribpiquet.arena`,
/// which give each seat of each game a fresh copy drawing from that game's generator.
///
/// A bot pickles and copies (``pickle``, ``copy.deepcopy``) as its settings: the copy is the
/// bot as made (or restarted), with an equal repr, and plays the same actions from the same
/// calls.
///
/// >>> from cribpiquet import bots, cribbage
/// >>> s = cribbage.Game("five-card").new_initial_state()
/// >>> while s.is_chance_node():
/// ...     s.apply_action(s.legal_actions()[0])
/// >>> bots.First().step(s) == s.legal_actions()[0]
/// True
#[pyclass(subclass, frozen, name = "Bot", module = "cribpiquet.bots")]
pub struct PyBot {
    /// The settings (checked).
    settings: BotSettings,
    live: Mutex<Live>,
}

impl PyBot {
    /// A bot of `settings`, checked; its own generator starts from their seed.
    fn new(settings: BotSettings) -> PyResult<PyBot> {
        let settings = settings.checked()?;
        let live = Mutex::new(Live { rng: Rng::new(settings.seed), cribbage: None, piquet: None });
        Ok(PyBot { settings, live })
    }

    /// The bot the registry calls `name` with the constructor's arguments `args` (in the order of
    /// its settings; None keeps the default), each converted by its setting's kind.
    fn from_args(name: &str, args: &[Option<&Bound<'_, PyAny>>]) -> PyResult<PyBot> {
        let mut settings = BotSettings::new(BotSpec::from_name(name)?);
        for (setting, arg) in settings.entry().settings.iter().zip(args) {
            let (Some(obj), name) = (arg, setting.name) else { continue };
            let value = match &setting.kind {
                Kind::Int(range) => Value::Int(obj.extract::<IntArg>()?.within(name, range.clone())?),
                Kind::Seed => Value::Seed(seed_from(obj)?),
                Kind::Float | Kind::Seconds => Value::Float(float_arg(obj, name)?),
                Kind::Bool => Value::Bool(bool_arg(obj, name)?),
                Kind::Name => Value::Name(str_text(obj, name)?),
            };
            settings.set(name, value)?;
        }
        PyBot::new(settings)
    }

    /// The action of the live bot of the state's game (`values`: every legal action's value
    /// instead), with the interpreter released.
    fn ask(&self, py: Python<'_>, state: &Bound<'_, PyAny>, values: bool) -> PyResult<(u16, Vec<(u16, f64)>)> {
        let state = state_arg(state, if values { "action_values" } else { "step" })?;
        let (spec, live) = (&self.settings.spec, &self.live);
        let work = || {
            let mut guard = live.lock().unwrap_or_else(|e| e.into_inner());
            let Live { rng, cribbage, piquet } = &mut *guard;
            match state {
                AnyState::Cribbage(s) => ask(cribbage.get_or_insert_with(|| spec.bot()).as_mut(), &s, rng, values),
                AnyState::Piquet(s) => ask(piquet.get_or_insert_with(|| spec.bot()).as_mut(), &s, rng, values),
            }
        };
        interruptible_unless(py, spec.quick(), work)
    }
}

/// A bot's action at `s`, or (`values`) every legal action's value.
fn ask<S: GameState>(
    bot: &mut dyn Bot<S>,
    s: &S,
    rng: &mut Rng,
    values: bool,
) -> crate::Result<(u16, Vec<(u16, f64)>)> {
    Ok(if values { (0, bot.action_values(s, rng)?) } else { (bot.step(s, rng)?, Vec::new()) })
}

#[pymethods]
impl PyBot {
    /// The action this bot plays for the player to move at ``state`` (one of
    /// ``state.legal_actions()``). The state is not changed. The interpreter is released while
    /// the bot thinks, and Ctrl-C stops a long search within a fraction of a second
    /// (``KeyboardInterrupt``).
    fn step(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u16> {
        Ok(self.ask(py, state, false)?.0)
    }

    /// ``{action: value}`` for every legal action at ``state``, for the player to move (the
    /// scale is the bot's: see its class). :meth:`step` plays one of the best.
    fn action_values<'py>(&self, py: Python<'py>, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        self.ask(py, state, true)?.1.into_py_dict(py)
    }

    /// Forget the game so far (a new game begins) and reseed the bot's generator with its seed.
    fn restart(&self) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        *live = Live { rng: Rng::new(self.settings.seed), cribbage: None, piquet: None };
    }

    /// The bot's short name in reports (``"random"``, ``"ismcts:2000"``).
    #[getter]
    fn name(&self) -> String {
        self.settings.spec.name()
    }

    /// The constructor call of the settings (Python's reprs of the values; the seed as a signed
    /// 64-bit int).
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut args = Vec::new();
        for (name, value) in self.settings.values() {
            let text = match value {
                Value::Seed(s) => (s as i64).to_string(),
                v => value_object(py, v)?.repr()?.to_string(),
            };
            args.push(format!("{name}={text}"));
        }
        Ok(format!("{}({})", self.settings.entry().class, args.join(", ")))
    }

    /// Pickling and copying: the class called with the bot's settings (the bot as made).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let values = slf.get().settings.values().map(|(_, v)| value_object(slf.py(), v));
        Ok((slf.get_type(), PyTuple::new(slf.py(), values.collect::<PyResult<Vec<_>>>()?)?))
    }
}

/// The bot classes: each a [`PyBot`] subclass whose constructor takes its registry entry's
/// settings (`$arg`s, in the entry's order: the names and the text signature must agree with it),
/// and [`bot_object`], the object of a bot's class for its settings.
macro_rules! bot_classes {
    ($($(#[$doc:meta])* $ty:ident = $class:literal, $name:literal ($($arg:ident),*) $sig:literal;)*) => {
        $(
            $(#[$doc])*
            #[pyclass(extends = PyBot, frozen, name = $class, module = "cribpiquet.bots")]
            pub struct $ty;

            #[pymethods]
            impl $ty {
                #[new]
                #[pyo3(signature = ($($arg = None),*), text_signature = $sig)]
                fn new($($arg: Option<&Bound<'_, PyAny>>),*) -> PyResult<PyClassInitializer<$ty>> {
                    Ok(PyClassInitializer::from(PyBot::from_args($name, &[$($arg),*])?).add_subclass($ty))
                }
            }
        )*

        /// A Python bot of `settings`, of its class.
        fn bot_object(py: Python<'_>, settings: BotSettings) -> PyResult<Bound<'_, PyAny>> {
            let init = PyClassInitializer::from(PyBot::new(settings)?);
            match settings.entry().name {
                $($name => Ok(Bound::new(py, init.add_subclass($ty))?.into_any()),)*
                other => unreachable!("no class for the bot {other}"),
            }
        }

        fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_class::<$ty>()?;)*
            Ok(())
        }
    };
}

bot_classes! {
    /// Uniformly random among the legal actions, from the bot's own generator (seeded by
    /// ``seed``). ``action_values`` gives each of the n legal actions 1/n. In ``simulate`` it plays
    /// exactly the games of ``players="random"``.
    ///
    /// >>> from cribpiquet import bots
    /// >>> bots.Random(seed=3)
    /// Random(seed=3)
    Random = "Random", "random" (seed) "(seed=0)";
    /// Always the lowest legal action. ``action_values`` gives it 1 and the others 0.
    ///
    /// >>> from cribpiquet import bots
    /// >>> bots.First()
    /// First()
    First = "First", "first" () "()";
    /// Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling, Powley &
    /// Whitehouse 2012), in Rust.
    ///
    /// Each of ``iterations`` iterations draws a world consistent with what the player to move
    /// knows, walks the tree by UCB1 with availability counts (``exploration`` is its constant; values
    /// are 0..1), expands one action and plays the rest of the deal (``rollout_to_end=True``: of the
    /// game) with the ``rollout`` policy: ``"heuristic"`` (a cheap rule of thumb) or ``"random"``. A
    /// cribbage deal's end is valued by the estimated chance to win from the two scores (a table
    /// computed once per process for each variant and target by self-play: the first decision pays
    /// about 0.1-0.2 s on one core, less with free cores), a piquet deal's by its point difference,
    /// ``½ + ½·tanh(Δ / 40)``. ``threads`` trees are searched in parallel and their root statistics summed. The same
    /// ``seed`` and ``threads`` give the same actions (unless ``time_limit``, seconds per decision,
    /// stops the search first). The tree is kept between calls where the information allows (the
    /// next decision of the same deal after moves the bot sees); :meth:`restart` drops it.
    ///
    /// :meth:`step` plays the most visited action; :meth:`action_values` is each legal action's mean
    /// value for the player to move (cribbage: the estimated chance to win; 0 for an action never
    /// tried).
    ///
    /// >>> from cribpiquet import bots
    /// >>> bots.ISMCTS(iterations=500, seed=1).name
    /// 'ismcts:500'
    PyIsmcts = "ISMCTS", "ismcts" (iterations, time_limit, exploration, rollout, threads, seed, rollout_to_end)
        "(iterations=1000, time_limit=None, exploration=0.7, rollout='heuristic', threads=1, seed=0, rollout_to_end=False)";
    /// The greedy player: exact one-step expectations where they are cheap, a documented heuristic
    /// elsewhere (``rust/bots/greedy.rs`` has the details). ``action_values`` by decision:
    ///
    /// * cribbage discard: each discard's expected net points this deal — the exact expected hand
    ///   over every unseen starter, plus (the player's side deals) or minus the exact expected crib
    ///   over every starter and every throw of the other players from the unseen cards, all equally
    ///   likely, and the dealer's expected heels (``cribbage.analyze_discard`` with a uniform
    ///   opponent, in the two-player games);
    /// * cribbage pegging: the points the card pegs now minus the opponent's expected best reply
    ///   (his cards drawn uniformly from those unseen); a forced go is 0;
    /// * piquet exchange: for each size, the best exact expected declaration total over every talon
    ///   draw (``piquet.exact_exchange``); then, card by card, the best total still reachable with
    ///   that card thrown;
    /// * piquet open capot: announce 1, pass 0 (a failed announcement costs nothing);
    /// * piquet play: the trick heuristic's preference score (the cheapest winner, the lowest card of
    ///   a lost trick, masters of the longest suit when leading), not points.
    ///
    /// It draws no random numbers: the same state gives the same action.
    ///
    /// >>> from cribpiquet import bots, cribbage
    /// >>> s = cribbage.Game("six-card").new_initial_state()
    /// >>> for card in [0, 12] + list(range(13, 25)):  # AC and KC cut: P0 deals; then the deal
    /// ...     s.apply_action(card)
    /// >>> values = bots.Greedy().action_values(s)
    /// >>> len(values), bots.Greedy().step(s) == max(values, key=values.get)
    /// (15, True)
    Greedy = "Greedy", "greedy" () "()";
    /// Perfect-Information Monte Carlo: at each decision, ``worlds`` deals consistent with what the
    /// player to move has seen are drawn (``resample_from_infostate``), every legal action is valued
    /// in each of them with every card face up, and the best mean is played (ties: the lowest
    /// action).
    ///
    /// In the play, the worlds are solved exactly (:func:`cribpiquet.solve`). Before the play,
    /// ``before_play`` says how a two-player cribbage discard or a piquet exchange (its size, each card
    /// laid away) is valued: ``"exact"`` (the default, the strongest measured) by :class:`Greedy`'s
    /// exact expectation alone (the hand and crib over every starter and throw; the expected
    /// declarations over every draw), no worlds; ``"exact+play"`` by that plus the mean over the worlds
    /// of the solved play's point difference; ``"worlds"`` (and every other decision before the play,
    /// whatever the setting: the open capot, three- and four-player discards) in each world, the action
    /// applied, the other players' decisions made by :class:`Greedy` and the chance events drawn from
    /// the world's own seed, and the solver valuing the play that follows (cribbage: the pegging solved
    /// once, the show and heels averaged over every starter the world leaves); ``"ismcts"`` hands every
    /// decision before the play to :class:`ISMCTS` with 2,000 iterations (its values, its choice). With
    /// ``objective="win"`` an exact value in points is shown on the win scale (cribbage: the win table
    /// with half the difference to each side; piquet: ``½ + ½·tanh(x / 40)``; a piquet match's deals
    /// before the one that can end it are solved for points, shown on that scale: the deal won would
    /// ignore the margin the match counts). ``objective``: ``"win"`` (the chance to win, 0..1) or
    /// ``"points"`` (the deal's point difference). ``inference=True`` weights the worlds by how likely
    /// the opponent's own discard is in each (two-player cribbage: a softmax over his discard values
    /// under the equilibrium discard tables, computed once per process at the first such decision:
    /// about 0.2 s of CPU time five-card, 1.4 s six-card, over two threads; Ctrl-C stops it);
    /// piquet worlds are not weighted. ``threads`` split the worlds; the same ``seed`` gives the same
    /// actions whatever the thread count (unless ``time_limit``, seconds per decision, stops first).
    /// Ctrl-C stops a decision within one world.
    ///
    /// >>> from cribpiquet import bots
    /// >>> bots.PIMC(worlds=20, seed=1)
    /// PIMC(worlds=20, objective='win', threads=1, seed=1, time_limit=None, inference=True, before_play='exact')
    PyPimc = "PIMC", "pimc" (worlds, objective, threads, seed, time_limit, inference, before_play)
        "(worlds=100, objective='win', threads=1, seed=0, time_limit=None, inference=True, before_play='exact')";
}

// ----------------------------------------------------------------------------- the registry

/// ``{name: argument}`` of every bot name, in the order messages list them: the argument is
/// what ``name:N`` sets (``"iterations"``, ``"worlds"``) for the names that take one, else
/// ``None``.
///
/// >>> from cribpiquet import _core
/// >>> _core.bot_names()["ismcts"], _core.bot_names()["first"]
/// ('iterations', None)
#[pyfunction]
fn bot_names(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    BOTS.map(|entry| (entry.name, entry.argument)).into_py_dict(py)
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
    BotSettings::parse(name, seed)?.map(|settings| bot_object(py, settings)).transpose()
}

// -------------------------------------------------------------------------------- the arena

/// Wall time an arena block aims at: the progress callback runs between blocks.
const ARENA_BLOCK_TIME: f64 = 0.25;

/// What an arena run plays besides its game and players.
struct ArenaRun<'py> {
    seed: u64,
    games: Range<u64>,
    threads: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
    /// Keep the actions of games with an index below this one.
    record_below: u64,
}

/// `cribpiquet.arena`'s engine: play games ``first_game .. first_game + n_games`` of ``game``
/// between ``players`` (one per seat: names or bots) with the seats rotated, and return the raw
/// counts as a dict (``cribpiquet.arena`` wraps them in an ``ArenaResult``). The games run in
/// parallel with the interpreter released, in blocks; between blocks pending signals are handled
/// and ``progress(games_done)`` is called if given; Ctrl-C raises ``KeyboardInterrupt`` within a
/// fraction of a second, also in the middle of a block (a bot stops its search, a game between
/// two decisions). With ``max_records``, the actions of the first ``max_records`` games
/// (chance outcomes included) are returned too, under ``"records"``: a list of ``(index,
/// uint16 array)`` in game order (``cribpiquet.arena(record=...)`` writes them).
#[pyfunction]
#[pyo3(signature = (game, players, n_games, *, seed = None, threads = None, first_game = None, progress = None, max_records = None))]
#[allow(clippy::too_many_arguments)]
fn arena_run<'py>(
    game: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
    n_games: IntArg,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<IntArg>,
    first_game: Option<IntArg>,
    progress: Option<&Bound<'py, PyAny>>,
    max_records: Option<IntArg>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = n_games.within("n_games", 0..i64::MAX)? as u64;
    let max_records = max_records.map(|m| m.within("max_records", 0..i64::MAX)).transpose()?;
    let seed = seed.map_or(Ok(0), seed_from)?;
    let threads = threads.map(|t| t.within("threads", 1..1025)).transpose()?.map(|t| t as usize);
    let first = first_game.map_or(Ok(0), |f| f.within("first_game", 0..i64::MAX))? as u64;
    if first.checked_add(n).is_none_or(|end| end > i64::MAX as u64) {
        return Err(PyValueError::new_err("first_game + n_games must be below 2**63"));
    }
    let record_below = first + max_records.map_or(0, |m| (m as u64).min(n));
    let progress = progress.filter(|p| !p.is_none()).cloned();
    let run = ArenaRun { seed, games: first..first + n, threads, progress, record_below };
    if let Ok(g) = game.cast::<super::cribbage_game::Game>() {
        return run_arena(g.get().0, players, run);
    }
    if let Ok(g) = game.cast::<super::piquet_game::Game>() {
        return run_arena(g.get().0, players, run);
    }
    Err(PyTypeError::new_err(format!("arena needs a cribbage or piquet Game, got {}", describe(game))))
}

fn run_arena<'py, G: crate::engine::Game>(
    game: G,
    players: &Bound<'py, PyAny>,
    run: ArenaRun<'py>,
) -> PyResult<Bound<'py, PyDict>>
where
    G::State: BotGame,
{
    let (py, seats) = (players.py(), game.num_players());
    let wrong = |got: String| {
        PyTypeError::new_err(format!("players must be a sequence of {seats} players (names or bots), got {got}"))
    };
    if players.cast::<PyString>().is_ok() || players.cast::<PyBot>().is_ok() {
        return Err(wrong(format!("one: {}", describe(players))));
    }
    let (mut names, mut factories) = (Vec::new(), Vec::new());
    for item in players.try_iter().map_err(|_| wrong(describe(players)))? {
        let item = item?;
        if factories.len() == seats {
            return Err(PyValueError::new_err(format!(
                "the arena needs {seats} players for {} (one per seat), got more",
                G::NAME
            )));
        }
        factories.push(policy_from::<G::State>(&item)?);
        names.push(match item.cast::<PyBot>() {
            Ok(bot) => bot.get().settings.spec.name(),
            Err(_) => item.extract::<String>()?.trim().to_ascii_lowercase(),
        });
    }
    let arena = crate::bots::arena::Arena::new(game, factories)?;
    let pool = crate::engine::thread_pool(run.threads)?;
    let mut counts = crate::bots::arena::ArenaCounts::new(seats);
    let mut records = Vec::new();
    let wanted = run.record_below.saturating_sub(run.games.start) as usize;
    records.try_reserve_exact(wanted).map_err(|_| {
        crate::error::Error::OutOfMemory(format!("cannot hold {wanted} game records"))
    })?;
    let clock = std::time::Instant::now();
    let Range { mut start, end } = run.games;
    // At least one game per thread in a block, so slow games still keep every core busy.
    let min_block = pool.as_ref().map_or_else(rayon::current_num_threads, |p| p.current_num_threads()).max(1) as u64;
    let mut block = min_block;
    while start < end {
        let stop = end.min(start + block);
        let t = std::time::Instant::now();
        // Interruptible inside a block: one game of slow bots can take minutes.
        let (part, kept) =
            interruptible(py, || on_pool(&pool, || arena.play_recording(run.seed, start..stop, run.record_below)))?;
        counts.add(&part);
        records.extend(kept);
        py.check_signals()?;
        if let Some(cb) = &run.progress {
            cb.call1((counts.games,))?;
        }
        let scale = (ARENA_BLOCK_TIME / t.elapsed().as_secs_f64().max(1e-6)).clamp(0.25, 4.0);
        block = ((block as f64 * scale) as u64).clamp(min_block, 1 << 16);
        start = stop;
    }
    let d = PyDict::new(py);
    d.set_item("players", names)?;
    d.set_item("games", counts.games)?;
    d.set_item("wins", counts.wins[..seats].to_vec())?;
    d.set_item("draws", counts.draws)?;
    d.set_item("deals", counts.deals)?;
    let points = PyDict::new(py);
    // Only the sources this game scores (no always-0 three_for_last row in six-card cribbage).
    for (k, name) in G::POINT_SOURCES.iter().enumerate().take(crate::engine::MAX_SOURCES) {
        if !game.scores_source(k) {
            continue;
        }
        points.set_item(*name, (0..seats).map(|p| counts.points[p][k]).collect::<Vec<u64>>())?;
    }
    d.set_item("points", points)?;
    d.set_item("seconds", clock.elapsed().as_secs_f64())?;
    d.set_item("game", G::NAME)?;
    if run.record_below > run.games.start {
        let list = pyo3::types::PyList::empty(py);
        for (i, actions) in records {
            list.append((i, numpy::IntoPyArray::into_pyarray(actions, py)))?;
        }
        d.set_item("records", list)?;
    }
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_bot_reader(|item| item.cast::<PyBot>().ok().map(|bot| bot.get().settings.spec));
    m.add_class::<PyBot>()?;
    add_classes(m)?;
    m.add_function(wrap_pyfunction!(arena_run, m)?)?;
    m.add_function(wrap_pyfunction!(bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(bot_from_name, m)?)?;
    Ok(())
}
