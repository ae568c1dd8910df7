//! Bindings for the bots: `cribpiquet.bots` (`Bot`, `Random`, `First`, `Greedy`, `ISMCTS`,
//! `PIMC`) and the arena.
//!
//! One mechanism for every bot: the Python base class [`PyBot`] (`cribpiquet.bots.Bot`) holds
//! the bot's settings (a [`BotSpec`] of the core's bot registry, which builds the core bots of
//! either game), the bot's own generator (seeded by its `seed`) and the live bot of each game,
//! and offers `step`, `action_values`, `restart`, `name`, the repr and pickling (`__reduce__`:
//! the constructor call of the settings). A bot class is a subclass with only a constructor:
//! adding a Rust bot type is an entry in `bots::registry`, a `#[pyclass(extends = PyBot)]`
//! struct with its `#[new]`, its repr and constructor arguments in [`PyBot`], and one line in
//! [`register`]. `simulate` and the arena take the settings (the registry's policy factory: fresh
//! bots per seat and game, drawing from the game's generator), and the registry's names.

use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::convert::{describe, seed_from, IntArg};
use crate::bots::ismcts::{IsmctsConfig, Rollout};
use crate::bots::registry::{BotGame, BotSpec};
use crate::bots::Bot;
use crate::engine::GameState;
use crate::rng::Rng;
use crate::solve::Objective;
use crate::{cribbage, piquet};

/// A float as Python's `repr` writes it (the shortest text that reads back to the same float:
/// `0.7`, `1e-10`, `1e+300`), so a repr with it rebuilds an equal object.
pub(crate) fn float_repr(x: f64) -> String {
    if !x.is_finite() {
        return (if x.is_nan() {
            "nan"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        })
        .into();
    }
    // Rust's `{:?}` is the shortest round-trip text too; Python spells large exponents `e+NN`
    // and whole numbers `N.0` — both read back alike, so only the exponent sign is adjusted.
    let text = format!("{x:?}");
    match text.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => text,
    }
}

/// An objective's name in Python (`"points"`, `"win"`).
pub(crate) fn objective_name(objective: Objective) -> &'static str {
    match objective {
        Objective::Points => "points",
        Objective::Win => "win",
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

// ------------------------------------------------------------------------------ the classes

/// What a Python bot holds while it plays.
struct Live {
    rng: Rng,
    cribbage: Option<Box<dyn Bot<cribbage::State>>>,
    piquet: Option<Box<dyn Bot<piquet::State>>>,
}

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
    spec: BotSpec,
    seed: u64,
    /// `time_limit` as given, in seconds (the repr shows it: a `Duration` rounds to nanoseconds).
    time_limit: Option<f64>,
    live: Mutex<Live>,
}

impl PyBot {
    /// A bot of `spec` whose own generator starts from `seed`; `time_limit` is the seconds the
    /// spec's time limit was given as, if it has one.
    pub(crate) fn new(spec: BotSpec, seed: u64, time_limit: Option<f64>) -> PyResult<PyBot> {
        let spec = spec.checked()?;
        Ok(PyBot {
            spec,
            seed,
            time_limit,
            live: Mutex::new(Live { rng: Rng::new(seed), cribbage: None, piquet: None }),
        })
    }

    /// The settings (for `simulate` and the arena).
    pub(crate) fn spec(&self) -> BotSpec {
        self.spec
    }

    /// Run `f` on the live bot of the state's game, with the interpreter released.
    fn with_bot<T: Send>(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        what: &str,
        f: impl Fn(&mut dyn DynBot, &mut Rng) -> crate::error::Result<T> + Send + Sync,
    ) -> PyResult<T> {
        let state = state_arg(state, what)?;
        let spec = &self.spec;
        let live = &self.live;
        let work = || {
            let mut guard = live.lock().unwrap_or_else(|e| e.into_inner());
            let Live { rng, cribbage, piquet } = &mut *guard;
            match state {
                AnyState::Cribbage(s) => {
                    let bot = cribbage.get_or_insert_with(|| spec.bot());
                    f(&mut Bound1(bot.as_mut(), s), rng)
                }
                AnyState::Piquet(s) => {
                    let bot = piquet.get_or_insert_with(|| spec.bot());
                    f(&mut Bound1(bot.as_mut(), s), rng)
                }
            }
        };
        if spec.quick() {
            Ok(py.detach(work)?)
        } else {
            super::engine::interruptible(py, work)
        }
    }
}

/// A live bot with its state, game erased (what [`PyBot::with_bot`] hands its closure).
trait DynBot {
    fn step(&mut self, rng: &mut Rng) -> crate::error::Result<u16>;
    fn action_values(&mut self, rng: &mut Rng) -> crate::error::Result<Vec<(u16, f64)>>;
}

struct Bound1<'a, S: GameState>(&'a mut dyn Bot<S>, S);

impl<S: GameState> DynBot for Bound1<'_, S> {
    fn step(&mut self, rng: &mut Rng) -> crate::error::Result<u16> {
        self.0.step(&self.1, rng)
    }
    fn action_values(&mut self, rng: &mut Rng) -> crate::error::Result<Vec<(u16, f64)>> {
        self.0.action_values(&self.1, rng)
    }
}

#[pymethods]
impl PyBot {
    /// The action this bot plays for the player to move at ``state`` (one of
    /// ``state.legal_actions()``). The state is not changed. The interpreter is released while
    /// the bot thinks, and Ctrl-C stops a long search within a fraction of a second
    /// (``KeyboardInterrupt``).
    fn step(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u16> {
        self.with_bot(py, state, "step", |bot, rng| bot.step(rng))
    }

    /// ``{action: value}`` for every legal action at ``state``, for the player to move (the
    /// scale is the bot's: see its class). :meth:`step` plays one of the best.
    fn action_values<'py>(&self, py: Python<'py>, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let values = self.with_bot(py, state, "action_values", |bot, rng| bot.action_values(rng))?;
        let d = PyDict::new(py);
        for (a, v) in values {
            d.set_item(a, v)?;
        }
        Ok(d)
    }

    /// Forget the game so far (a new game begins) and reseed the bot's generator with its seed.
    fn restart(&self) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        *live = Live { rng: Rng::new(self.seed), cribbage: None, piquet: None };
    }

    /// The bot's short name in reports (``"random"``, ``"ismcts:2000"``).
    #[getter]
    fn name(&self) -> String {
        self.spec.name()
    }

    fn __repr__(&self) -> String {
        let seed = self.seed as i64;
        let time = self.time_limit.map_or("None".to_string(), float_repr);
        match self.spec {
            BotSpec::Random => format!("Random(seed={seed})"),
            BotSpec::First => "First()".into(),
            BotSpec::Greedy => "Greedy()".into(),
            BotSpec::Ismcts(c) => format!(
                "ISMCTS(iterations={}, time_limit={time}, exploration={}, rollout='{}', threads={}, seed={seed}, rollout_to_end={})",
                c.iterations,
                float_repr(c.exploration),
                c.rollout.name(),
                c.threads,
                py_bool(c.rollout_to_end)
            ),
            BotSpec::Pimc(c) => format!(
                "PIMC(worlds={}, objective='{}', threads={}, seed={seed}, time_limit={time}, inference={}, before_play='{}')",
                c.worlds,
                objective_name(c.objective),
                c.threads,
                py_bool(c.inference),
                c.before_play.name()
            ),
        }
    }

    /// Pickling and copying: the class called with the bot's settings (the bot as made).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let (seed, time) = (me.seed, me.time_limit);
        let args = match me.spec {
            BotSpec::Random => (seed,).into_pyobject(py)?,
            BotSpec::First | BotSpec::Greedy => PyTuple::empty(py),
            // The constructors' positional order.
            BotSpec::Ismcts(c) => {
                (c.iterations, time, c.exploration, c.rollout.name(), c.threads, seed, c.rollout_to_end)
                    .into_pyobject(py)?
            }
            BotSpec::Pimc(c) => {
                (c.worlds, objective_name(c.objective), c.threads, seed, time, c.inference, c.before_play.name())
                    .into_pyobject(py)?
            }
        };
        Ok((slf.get_type(), args))
    }
}

/// Uniformly random among the legal actions, from the bot's own generator (seeded by
/// ``seed``). ``action_values`` gives each of the n legal actions 1/n. In ``simulate`` it plays
/// exactly the games of ``players="random"``.
///
/// >>> from cribpiquet import bots
/// >>> bots.Random(seed=3)
/// Random(seed=3)
#[pyclass(extends = PyBot, frozen, name = "Random", module = "cribpiquet.bots")]
pub struct Random;

#[pymethods]
impl Random {
    #[new]
    #[pyo3(signature = (seed = None), text_signature = "(seed=0)")]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Random>> {
        let seed = seed.map_or(Ok(0), seed_from)?;
        Ok(PyClassInitializer::from(PyBot::new(BotSpec::Random, seed, None)?).add_subclass(Random))
    }
}

/// Always the lowest legal action. ``action_values`` gives it 1 and the others 0.
///
/// >>> from cribpiquet import bots
/// >>> bots.First()
/// First()
#[pyclass(extends = PyBot, frozen, name = "First", module = "cribpiquet.bots")]
pub struct First;

#[pymethods]
impl First {
    #[new]
    fn new() -> PyResult<PyClassInitializer<First>> {
        Ok(PyClassInitializer::from(PyBot::new(BotSpec::First, 0, None)?).add_subclass(First))
    }
}

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
#[pyclass(extends = PyBot, frozen, name = "ISMCTS", module = "cribpiquet.bots")]
pub struct PyIsmcts;

pub(crate) fn float_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!("{name} must be a number, got {}", describe(obj))));
    }
    obj.extract::<f64>().map_err(|_| PyTypeError::new_err(format!("{name} must be a number, got {}", describe(obj))))
}

#[pymethods]
impl PyIsmcts {
    #[new]
    #[pyo3(signature = (iterations = None, time_limit = None, exploration = None, rollout = None, threads = None, seed = None, rollout_to_end = None),
           text_signature = "(iterations=1000, time_limit=None, exploration=0.7, rollout='heuristic', threads=1, seed=0, rollout_to_end=False)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        iterations: Option<IntArg>,
        time_limit: Option<&Bound<'_, PyAny>>,
        exploration: Option<&Bound<'_, PyAny>>,
        rollout: Option<&Bound<'_, PyAny>>,
        threads: Option<IntArg>,
        seed: Option<&Bound<'_, PyAny>>,
        rollout_to_end: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<PyIsmcts>> {
        let mut config = IsmctsConfig::default();
        if let Some(n) = iterations {
            config.iterations = n.within("iterations", 1..(u32::MAX as i64 + 1))? as u32;
        }
        let mut seconds = None;
        if let Some(t) = time_limit.filter(|t| !t.is_none()) {
            let t = float_arg(t, "time_limit")?;
            if !(t.is_finite() && t > 0.0 && t < 1e9) {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be a number of seconds > 0 and < 1e9, got {}",
                    float_repr(t)
                )));
            }
            config.time_limit = Some(std::time::Duration::from_secs_f64(t));
            seconds = Some(t);
        }
        if let Some(c) = exploration {
            config.exploration = float_arg(c, "exploration")?;
        }
        if let Some(r) = rollout {
            config.rollout = super::convert::str_arg(r, "rollout")?.to_str()?.parse::<Rollout>()?;
        }
        if let Some(t) = threads {
            config.threads = t.within("threads", 1..257)? as usize;
        }
        if let Some(e) = rollout_to_end {
            config.rollout_to_end = super::convert::bool_arg(e, "rollout_to_end")?;
        }
        let seed = seed.map_or(Ok(0), seed_from)?;
        Ok(PyClassInitializer::from(PyBot::new(BotSpec::Ismcts(config), seed, seconds)?).add_subclass(PyIsmcts))
    }
}

// -------------------------------------------------------------------------------- the arena

/// Wall time an arena block aims at: the progress callback runs between blocks.
const ARENA_BLOCK_TIME: f64 = 0.25;

/// `cribpiquet.arena`'s engine: play games ``first_game .. first_game + n_games`` of ``game``
/// between ``players`` (one per seat: names or bots) with the seats rotated, and return the raw
/// counts as a dict (``cribpiquet.arena`` wraps them in an ``ArenaResult``). The games run in
/// parallel with the interpreter released, in blocks; between blocks pending signals are handled
/// and ``progress(games_done)`` is called if given; Ctrl-C raises ``KeyboardInterrupt`` within a
/// fraction of a second, also in the middle of a block (a bot stops its search, a game between
/// two decisions).
#[pyfunction]
#[pyo3(signature = (game, players, n_games, *, seed = None, threads = None, first_game = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn arena_run<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
    n_games: IntArg,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<IntArg>,
    first_game: Option<IntArg>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = n_games.within("n_games", 0..i64::MAX)? as u64;
    let seed = seed.map_or(Ok(0), seed_from)?;
    let threads = threads.as_ref().map(|t| t.within("threads", 1..1025)).transpose()?.map(|t| t as usize);
    let first = first_game.as_ref().map(|f| f.within("first_game", 0..i64::MAX)).transpose()?.unwrap_or(0) as u64;
    if first.checked_add(n).is_none_or(|end| end > i64::MAX as u64) {
        return Err(PyValueError::new_err("first_game + n_games must be below 2**63"));
    }
    let progress = progress.filter(|p| !p.is_none());
    if let Ok(g) = game.cast::<super::cribbage_game::Game>() {
        return run_arena(py, g.get().0, players, n, seed, threads, first, progress);
    }
    if let Ok(g) = game.cast::<super::piquet_game::Game>() {
        return run_arena(py, g.get().0, players, n, seed, threads, first, progress);
    }
    Err(PyTypeError::new_err(format!("arena needs a cribbage or piquet Game, got {}", describe(game))))
}

#[allow(clippy::too_many_arguments)]
fn run_arena<'py, G: crate::engine::Game>(
    py: Python<'py>,
    game: G,
    players: &Bound<'py, PyAny>,
    n: u64,
    seed: u64,
    threads: Option<usize>,
    first: u64,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>>
where
    G::State: BotGame,
{
    let seats = game.num_players();
    if players.cast::<pyo3::types::PyString>().is_ok() || players.cast::<PyBot>().is_ok() {
        return Err(PyTypeError::new_err(format!(
            "players must be a sequence of {seats} players (names or bots), got one: {}",
            describe(players)
        )));
    }
    let iter = players.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "players must be a sequence of {seats} players (names or bots), got {}",
            describe(players)
        ))
    })?;
    let (mut names, mut factories) = (Vec::new(), Vec::new());
    for item in iter {
        let item = item?;
        if factories.len() == seats {
            return Err(PyValueError::new_err(format!(
                "the arena needs {seats} players for {} (one per seat), got more",
                G::NAME
            )));
        }
        factories.push(super::engine::policy_from::<G::State>(&item)?);
        names.push(match item.cast::<PyBot>() {
            Ok(bot) => bot.get().spec.name(),
            Err(_) => item.extract::<String>()?.trim().to_ascii_lowercase(),
        });
    }
    let arena = crate::bots::arena::Arena::new(game, factories)?;
    let pool = crate::engine::thread_pool(threads)?;
    let mut counts = crate::bots::arena::ArenaCounts::new(seats);
    let clock = std::time::Instant::now();
    let (mut start, end) = (first, first + n);
    // At least one game per thread in a block, so slow games still keep every core busy.
    let min_block = match &pool {
        Some(pool) => pool.current_num_threads(),
        None => rayon::current_num_threads(),
    }
    .max(1) as u64;
    let mut block = min_block;
    while start < end {
        let stop = end.min(start + block);
        let t = std::time::Instant::now();
        // Interruptible inside a block: one game of slow bots can take minutes.
        let part =
            super::engine::interruptible(py, || super::engine::on_pool(&pool, || arena.play(seed, start..stop)))?;
        counts.add(&part);
        py.check_signals()?;
        if let Some(cb) = progress {
            cb.call1((counts.games,))?;
        }
        let took = t.elapsed().as_secs_f64().max(1e-6);
        let scale = (ARENA_BLOCK_TIME / took).clamp(0.25, 4.0);
        block = ((block as f64 * scale) as u64).clamp(min_block, 1 << 16);
        start = stop;
    }
    let seconds = clock.elapsed().as_secs_f64();
    let d = PyDict::new(py);
    d.set_item("players", names)?;
    d.set_item("games", counts.games)?;
    d.set_item("wins", counts.wins[..seats].to_vec())?;
    d.set_item("draws", counts.draws)?;
    d.set_item("deals", counts.deals)?;
    let points = PyDict::new(py);
    for (k, name) in G::POINT_SOURCES.iter().enumerate().take(crate::engine::MAX_SOURCES) {
        points.set_item(*name, (0..seats).map(|p| counts.points[p][k]).collect::<Vec<u64>>())?;
    }
    d.set_item("points", points)?;
    d.set_item("seconds", seconds)?;
    d.set_item("game", G::NAME)?;
    Ok(d)
}

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
#[pyclass(extends = PyBot, frozen, name = "Greedy", module = "cribpiquet.bots")]
pub struct Greedy;

#[pymethods]
impl Greedy {
    #[new]
    fn new() -> PyResult<PyClassInitializer<Greedy>> {
        Ok(PyClassInitializer::from(PyBot::new(BotSpec::Greedy, 0, None)?).add_subclass(Greedy))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    super::engine::register_bot_reader(|item| item.cast::<PyBot>().ok().map(|bot| bot.get().spec()));
    m.add_class::<PyBot>()?;
    m.add_class::<Random>()?;
    m.add_class::<First>()?;
    m.add_class::<PyIsmcts>()?;
    m.add_function(wrap_pyfunction!(arena_run, m)?)?;
    m.add_class::<Greedy>()?;
    Ok(())
}
