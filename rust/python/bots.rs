//! Bindings for the bots: `cribpiquet.bots` (`Bot`, `Random`, `First`, …).
//!
//! One mechanism for every bot: a bot's settings implement [`BotSpec`], which makes fresh core
//! bots of it for either game; the Python base class [`PyBot`] (`cribpiquet.bots.Bot`) holds the
//! settings, the bot's own generator (seeded by its `seed`) and the live bot of each game, and
//! offers `step`, `action_values`, `restart`, `name` and the repr. A bot class is a subclass
//! with only a constructor: adding a Rust bot type is a `BotSpec` impl, a `#[pyclass(extends =
//! PyBot)]` struct with its `#[new]`, and one line in [`register`]. `simulate` and the arena take
//! the settings ([`BotPolicy`] over fresh bots per seat and game, drawing from the game's
//! generator), and the names of [`spec_by_name`].

use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::engine::{describe, seed_from};
use crate::bots::{Bot, BotPolicy, FirstBot, RandomBot};
use crate::engine::{GameState, PolicyFactory};
use crate::rng::Rng;
use crate::{cribbage, piquet};

/// A bot's settings: makes fresh core bots of them for either game.
pub(crate) trait BotSpec: Send + Sync {
    /// A new cribbage bot with these settings.
    fn cribbage(&self) -> Box<dyn Bot<cribbage::State>>;
    /// A new piquet bot with these settings.
    fn piquet(&self) -> Box<dyn Bot<piquet::State>>;
    /// The Python repr (`"ISMCTS(iterations=1000, …)"`).
    fn repr(&self) -> String;
    /// The short name used in reports (`"random"`, `"ismcts:2000"`).
    fn name(&self) -> String;
}

/// The two games' states, for code generic over the game that makes bots from settings.
pub(crate) trait BotGame: GameState {
    /// A fresh bot of `spec` for this game.
    fn make(spec: &dyn BotSpec) -> Box<dyn Bot<Self>>;
}

impl BotGame for cribbage::State {
    fn make(spec: &dyn BotSpec) -> Box<dyn Bot<Self>> {
        spec.cribbage()
    }
}

impl BotGame for piquet::State {
    fn make(spec: &dyn BotSpec) -> Box<dyn Bot<Self>> {
        spec.piquet()
    }
}

/// A `simulate`/arena factory: a fresh bot of `spec` per seat and game, as a policy.
pub(crate) fn factory<S: BotGame>(spec: Arc<dyn BotSpec>) -> PolicyFactory<S> {
    Box::new(move |_| Box::new(BotPolicy(S::make(&*spec))))
}

/// Settings of [`RandomBot`].
struct RandomSpec {
    seed: u64,
}

impl BotSpec for RandomSpec {
    fn cribbage(&self) -> Box<dyn Bot<cribbage::State>> {
        Box::new(RandomBot)
    }
    fn piquet(&self) -> Box<dyn Bot<piquet::State>> {
        Box::new(RandomBot)
    }
    fn repr(&self) -> String {
        format!("Random(seed={})", self.seed as i64)
    }
    fn name(&self) -> String {
        "random".into()
    }
}

/// Settings of [`FirstBot`].
struct FirstSpec;

impl BotSpec for FirstSpec {
    fn cribbage(&self) -> Box<dyn Bot<cribbage::State>> {
        Box::new(FirstBot)
    }
    fn piquet(&self) -> Box<dyn Bot<piquet::State>> {
        Box::new(FirstBot)
    }
    fn repr(&self) -> String {
        "First()".into()
    }
    fn name(&self) -> String {
        "first".into()
    }
}

/// The settings of a bot named in `simulate(players=...)` or the arena: `"ismcts"`,
/// `"ismcts:N"` (N iterations), `"greedy"`; `None` for other names. (`"random"` and `"first"` are
/// the engine's own policies.)
pub(crate) fn spec_by_name(name: &str) -> PyResult<Option<Arc<dyn BotSpec>>> {
    let lower = name.trim().to_ascii_lowercase();
    let (head, arg) = match lower.split_once(':') {
        Some((h, a)) => (h.trim(), Some(a.trim())),
        None => (lower.as_str(), None),
    };
    let no_arg = |what: &str| -> PyResult<()> {
        match arg {
            None => Ok(()),
            Some(_) => Err(PyValueError::new_err(format!("the {what} player takes no argument, got {name:?}"))),
        }
    };
    Ok(match head {
        "random" => {
            no_arg("random")?;
            Some(Arc::new(RandomSpec { seed: 0 }))
        }
        "first" => {
            no_arg("first")?;
            Some(Arc::new(FirstSpec))
        }
        _ => None,
    })
}

/// The names [`spec_by_name`] knows, for messages.
pub(crate) const BOT_NAMES: &str = "random, first";

// ------------------------------------------------------------------------------ the classes

/// What a Python bot holds while it plays.
struct Live {
    rng: Rng,
    cribbage: Option<Box<dyn Bot<cribbage::State>>>,
    piquet: Option<Box<dyn Bot<piquet::State>>>,
}

/// A state argument of either game.
enum AnyState {
    Cribbage(cribbage::State),
    Piquet(piquet::State),
}

fn state_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyState> {
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
/// >>> from cribpiquet import bots, cribbage
/// >>> s = cribbage.Game("five-card").new_initial_state()
/// >>> while s.is_chance_node():
/// ...     s.apply_action(s.legal_actions()[0])
/// >>> bots.First().step(s) == s.legal_actions()[0]
/// True
#[pyclass(subclass, frozen, name = "Bot", module = "cribpiquet.bots")]
pub struct PyBot {
    spec: Arc<dyn BotSpec>,
    seed: u64,
    live: Mutex<Live>,
}

impl PyBot {
    /// A bot of `spec` whose own generator starts from `seed`.
    pub(crate) fn new(spec: Arc<dyn BotSpec>, seed: u64) -> PyBot {
        PyBot { spec, seed, live: Mutex::new(Live { rng: Rng::new(seed), cribbage: None, piquet: None }) }
    }

    /// The settings (for `simulate` and the arena).
    pub(crate) fn spec(&self) -> Arc<dyn BotSpec> {
        Arc::clone(&self.spec)
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
        let spec = &*self.spec;
        let live = &self.live;
        let out = py.detach(|| {
            let mut guard = live.lock().unwrap_or_else(|e| e.into_inner());
            let Live { rng, cribbage, piquet } = &mut *guard;
            match state {
                AnyState::Cribbage(s) => {
                    let bot = cribbage.get_or_insert_with(|| spec.cribbage());
                    f(&mut Bound1(bot.as_mut(), s), rng)
                }
                AnyState::Piquet(s) => {
                    let bot = piquet.get_or_insert_with(|| spec.piquet());
                    f(&mut Bound1(bot.as_mut(), s), rng)
                }
            }
        })?;
        Ok(out)
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
    /// the bot thinks.
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
        self.spec.repr()
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
        Ok(PyClassInitializer::from(PyBot::new(Arc::new(RandomSpec { seed }), seed)).add_subclass(Random))
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
    fn new() -> PyClassInitializer<First> {
        PyClassInitializer::from(PyBot::new(Arc::new(FirstSpec), 0)).add_subclass(First)
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBot>()?;
    m.add_class::<Random>()?;
    m.add_class::<First>()?;
    Ok(())
}
