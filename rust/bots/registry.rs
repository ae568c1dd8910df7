//! The one bot registry: every bot's name, the parsing of a name (with its `:N` argument), its
//! settings as a front end takes them, and the construction of the bot, for either game.
//!
//! A name is one of [`BOTS`], any case, spaces around ignored; the names that take an argument
//! also come as `name:N` (`"ismcts:2000"`: 2000 iterations, `"pimc:50"`: 50 worlds). A name
//! parses to a [`BotSpec`], a bot's settings, which builds fresh bots of either game
//! ([`BotSpec::bot`]) or a factory of them for [`simulate`](crate::engine::simulate) and the
//! arena ([`BotSpec::policy_factory`]). The Python bindings, `simulate(players=...)`, the arena
//! and `cribpiquet play --bot` all parse names here.
//!
//! Each entry also lists the bot's [`Setting`]s in its constructor's order (the Python class's
//! arguments): [`BotSettings`] sets and reads them by name with their checks, so a front end
//! only converts values ([`Kind`] says to what) and its repr and pickling read them back.
//!
//! ```
//! use cribpiquet::bots::registry::{BotSpec, BOTS};
//! use cribpiquet::engine::{Game, GameState};
//! use cribpiquet::rng::Rng;
//!
//! let spec = BotSpec::from_name("ismcts:50").unwrap();
//! assert_eq!(spec.name(), "ismcts:50");
//! let mut state = cribpiquet::piquet::GameConfig::default().new_initial_state();
//! state.apply_sampled_chances(&mut Rng::new(1));
//! let action = spec.bot::<cribpiquet::piquet::State>().step(&state, &mut Rng::new(2)).unwrap();
//! assert!(state.legal_actions().contains(&action));
//! assert!(BOTS.iter().all(|entry| BotSpec::from_name(entry.name).is_ok()));
//! assert_eq!(
//!     BotSpec::from_name("nobody").unwrap_err().to_string(),
//!     "unknown bot \"nobody\" (known: greedy, ismcts, ismcts:N, random, first, pimc, pimc:N)"
//! );
//! ```

use std::ops::Range;
use std::time::Duration;

use super::ismcts::{Ismcts, IsmctsConfig, SearchGame};
use super::pimc::{BeforePlay, PimcConfig};
use super::{Bot, BotPolicy, FirstBot, RandomBot};
use crate::engine::{FirstPolicy, Game, GameState, PolicyFactory, RandomPolicy};
use crate::error::{echo, Error, Result};
use crate::rng::Rng;
use crate::solve::Objective;

/// One name of the registry, with the bot's settings as a front end takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotName {
    /// The name (lower case).
    pub name: &'static str,
    /// What `name:N` sets, for the names that take an argument (`"iterations"`, `"worlds"`).
    pub argument: Option<&'static str>,
    /// The bot's class in front ends (`"ISMCTS"`: `cribpiquet.bots.ISMCTS`).
    pub class: &'static str,
    /// The settings its constructor takes, in their order (the seed of its own generator among
    /// them where it draws random numbers).
    pub settings: &'static [Setting],
}

/// A setting of a bot's constructor: its name and how a front end reads its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The name (`"iterations"`).
    pub name: &'static str,
    /// What value it takes.
    pub kind: Kind,
}

/// The value a [`Setting`] takes (and the [`Value`] variant a front end hands in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An int in this range ([`Value::Int`]).
    Int(Range<i64>),
    /// The seed of the bot's own generator: any 64-bit int ([`Value::Seed`]).
    Seed,
    /// A number ([`Value::Float`]).
    Float,
    /// Seconds per decision, > 0 and < 1e9 ([`Value::Float`]), or none ([`Value::None`]).
    Seconds,
    /// A name among the setting's own ([`Value::Name`]).
    Name,
    /// A bool ([`Value::Bool`]).
    Bool,
}

/// A setting's value, as a front end hands it in or reads it back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// Nothing (no time limit).
    None,
    /// An int.
    Int(i64),
    /// A seed.
    Seed(u64),
    /// A number.
    Float(f64),
    /// A name.
    Name(&'a str),
    /// A bool.
    Bool(bool),
}

const fn setting(name: &'static str, kind: Kind) -> Setting {
    Setting { name, kind }
}

/// The range of an iterations or worlds count (what `u32` holds but 0).
const COUNT: Kind = Kind::Int(1..u32::MAX as i64 + 1);
const THREADS: Kind = Kind::Int(1..257);

/// Every bot name, in the order messages list them (the terminal game's default first).
pub const BOTS: [BotName; 5] = [
    BotName { name: "greedy", argument: None, class: "Greedy", settings: &[] },
    BotName {
        name: "ismcts",
        argument: Some("iterations"),
        class: "ISMCTS",
        settings: &[
            setting("iterations", COUNT),
            setting("time_limit", Kind::Seconds),
            setting("exploration", Kind::Float),
            setting("rollout", Kind::Name),
            setting("threads", THREADS),
            setting("seed", Kind::Seed),
            setting("rollout_to_end", Kind::Bool),
        ],
    },
    BotName { name: "random", argument: None, class: "Random", settings: &[setting("seed", Kind::Seed)] },
    BotName { name: "first", argument: None, class: "First", settings: &[] },
    BotName {
        name: "pimc",
        argument: Some("worlds"),
        class: "PIMC",
        settings: &[
            setting("worlds", COUNT),
            setting("objective", Kind::Name),
            setting("threads", THREADS),
            setting("seed", Kind::Seed),
            setting("time_limit", Kind::Seconds),
            setting("inference", Kind::Bool),
            setting("before_play", Kind::Name),
        ],
    },
];

/// Every form a name takes, for messages: `["greedy", "ismcts", "ismcts:N", "random", …]`.
pub fn name_forms() -> Vec<String> {
    let mut out = Vec::with_capacity(2 * BOTS.len());
    for entry in BOTS {
        out.push(entry.name.to_string());
        if entry.argument.is_some() {
            out.push(format!("{}:N", entry.name));
        }
    }
    out
}

/// A bot's settings: which bot, and its configuration (validated: building the bots cannot fail).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`FirstBot`].
    First,
    /// The game's Greedy ([`BotGame::greedy`]).
    Greedy,
    /// [`Ismcts`] with these settings.
    Ismcts(IsmctsConfig),
    /// [`Pimc`](super::pimc::Pimc) with these settings ([`BotGame::pimc`]).
    Pimc(PimcConfig),
}

/// The games the registry builds bots for. Random, first and IS-MCTS are written once over the
/// traits (IS-MCTS through [`SearchGame`]); the bots a game may lack are its hooks, `None` where
/// it has none: [`BotSpec::bot`] then gives a bot that refuses every decision with "… is not
/// available for …" ([`BotSpec::available`] says so up front).
pub trait BotGame: SearchGame + 'static {
    /// A fresh Greedy (the game's one-step player), if the game has one.
    fn greedy() -> Option<Box<dyn Bot<Self>>> {
        None
    }

    /// A fresh [`Pimc`](super::pimc::Pimc) of `config` (an error names a bad setting), if the game
    /// has a solver ([`pimc::boxed`](super::pimc::boxed) for a [`PimcGame`](super::pimc::PimcGame)).
    fn pimc(config: PimcConfig) -> Option<Result<Box<dyn Bot<Self>>>> {
        let _ = config;
        None
    }
}

/// The bot of a name a game does not have: every decision is an [`Error::InvalidValue`] saying so.
struct Unavailable {
    name: String,
    game: &'static str,
}

impl Unavailable {
    fn error(&self) -> Error {
        Error::InvalidValue(format!("the {} bot is not available for {}", self.name, self.game))
    }
}

impl<S: GameState> Bot<S> for Unavailable {
    fn step(&mut self, _state: &S, _rng: &mut Rng) -> Result<u16> {
        Err(self.error())
    }

    fn action_values(&mut self, _state: &S, _rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        Err(self.error())
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

impl BotSpec {
    /// The settings a name gives (module docs), or `None` for a name the registry does not
    /// know; a known name with a bad argument is an [`Error::InvalidValue`] saying what is wrong.
    ///
    /// ```
    /// use cribpiquet::bots::registry::BotSpec;
    /// assert_eq!(BotSpec::parse(" First ").unwrap(), Some(BotSpec::First));
    /// assert_eq!(BotSpec::parse("nobody").unwrap(), None);
    /// assert!(BotSpec::parse("ismcts:0").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Option<BotSpec>> {
        let lower = name.trim().to_ascii_lowercase();
        let (head, arg) = match lower.split_once(':') {
            Some((h, a)) => (h.trim(), Some(a.trim())),
            None => (lower.as_str(), None),
        };
        let no_arg = |spec: BotSpec| match arg {
            None => Ok(Some(spec)),
            Some(_) => Err(Error::InvalidValue(format!("the {head} player takes no argument, got {name:?}"))),
        };
        match head {
            "random" => no_arg(BotSpec::Random),
            "first" => no_arg(BotSpec::First),
            "greedy" => no_arg(BotSpec::Greedy),
            "ismcts" => {
                let mut config = IsmctsConfig::default();
                if let Some(n) = arg {
                    config.iterations = n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        Error::InvalidValue(format!(
                            "ismcts:N needs a number of iterations 1 <= N <= {} (2**32-1), got {:?}",
                            u32::MAX,
                            echo(name)
                        ))
                    })?;
                }
                Ok(Some(BotSpec::Ismcts(config.checked()?)))
            }
            "pimc" => {
                let mut config = PimcConfig::default();
                if let Some(n) = arg {
                    config.worlds = n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        Error::InvalidValue(format!("pimc:N needs a number of worlds N >= 1, got {:?}", echo(name)))
                    })?;
                }
                Ok(Some(BotSpec::Pimc(config.checked()?)))
            }
            _ => Ok(None),
        }
    }

    /// The settings a name gives, or an [`Error::InvalidValue`] (an unknown name lists the
    /// known ones).
    pub fn from_name(name: &str) -> Result<BotSpec> {
        BotSpec::parse(name)?.ok_or_else(|| {
            Error::InvalidValue(format!("unknown bot {:?} (known: {})", echo(name), name_forms().join(", ")))
        })
    }

    /// Settings checked: the same, or an [`Error::InvalidValue`] naming the bad setting.
    pub fn checked(self) -> Result<BotSpec> {
        Ok(match self {
            BotSpec::Ismcts(config) => BotSpec::Ismcts(config.checked()?),
            BotSpec::Pimc(config) => BotSpec::Pimc(config.checked()?),
            other => other,
        })
    }

    /// The bot's short name in reports, which parses back to its kind and argument: `"random"`,
    /// `"first"`, `"greedy"`, `"ismcts:N"` (N iterations), `"pimc:N"` (N worlds).
    pub fn name(&self) -> String {
        match self {
            BotSpec::Ismcts(c) => format!("ismcts:{}", c.iterations),
            BotSpec::Pimc(c) => format!("pimc:{}", c.worlds),
            _ => self.entry().name.into(),
        }
    }

    /// The registry's entry of this bot.
    pub fn entry(&self) -> &'static BotName {
        let i = match self {
            BotSpec::Greedy => 0,
            BotSpec::Ismcts(_) => 1,
            BotSpec::Random => 2,
            BotSpec::First => 3,
            BotSpec::Pimc(_) => 4,
        };
        &BOTS[i]
    }

    /// Does every decision take well under a millisecond (no search)?
    pub fn quick(&self) -> bool {
        matches!(self, BotSpec::Random | BotSpec::First)
    }

    /// A fresh bot of these settings for a game of `S`: for a bot the game does not have
    /// ([`BotGame`]), one that refuses every decision with an [`Error::InvalidValue`] saying so.
    ///
    /// Panics on settings that [`checked`](BotSpec::checked) refuses (the parser and the
    /// bindings check them when they make the settings).
    pub fn bot<S: BotGame>(&self) -> Box<dyn Bot<S>> {
        let missing = || -> Box<dyn Bot<S>> {
            Box::new(Unavailable { name: self.entry().name.into(), game: <S::Game as Game>::NAME })
        };
        match *self {
            BotSpec::Random => Box::new(RandomBot),
            BotSpec::First => Box::new(FirstBot),
            BotSpec::Greedy => S::greedy().unwrap_or_else(missing),
            BotSpec::Ismcts(config) => Box::new(Ismcts::<S>::new(config).expect("IS-MCTS settings checked")),
            BotSpec::Pimc(config) => S::pimc(config).map_or_else(missing, |b| b.expect("PIMC settings checked")),
        }
    }

    /// Does a game of `S` have this bot? An [`Error::InvalidValue`] saying it is not available if
    /// not (a [`BotGame`] hook returns `None`).
    pub fn available<S: BotGame>(&self) -> Result<()> {
        let missing = match self {
            BotSpec::Greedy => S::greedy().is_none(),
            BotSpec::Pimc(config) => S::pimc(*config).is_none(),
            _ => false,
        };
        match missing {
            true => Err(Unavailable { name: self.entry().name.into(), game: <S::Game as Game>::NAME }.error()),
            false => Ok(()),
        }
    }

    /// A factory of fresh players of these settings, one per seat and game, for
    /// [`simulate`](crate::engine::simulate) and the arena. Random and first play as the engine's
    /// own [`RandomPolicy`] and [`FirstPolicy`] (the same draws as [`RandomBot`] and
    /// [`FirstBot`], without a bot's checks); the others as their bot ([`BotPolicy`]).
    pub fn policy_factory<S: BotGame>(self) -> PolicyFactory<S> {
        match self {
            BotSpec::Random => Box::new(|_| Box::new(RandomPolicy)),
            BotSpec::First => Box::new(|_| Box::new(FirstPolicy)),
            spec => Box::new(move |_| Box::new(BotPolicy(spec.bot::<S>()))),
        }
    }
}

/// A bot as a front end makes it: its settings, the seed of its own generator and its time limit
/// in seconds as given (a [`Duration`] rounds to nanoseconds; a repr shows what was given).
///
/// ```
/// use cribpiquet::bots::registry::{BotSettings, Value};
/// let mut bot = BotSettings::parse("pimc:20", 3).unwrap().unwrap();
/// bot.set("time_limit", Value::Float(2.5)).unwrap();
/// let values: Vec<_> = bot.values().collect();
/// assert_eq!(values[0], ("worlds", Value::Int(20)));
/// assert_eq!(values[3..5], [("seed", Value::Seed(3)), ("time_limit", Value::Float(2.5))]);
/// assert_eq!(
///     bot.set("time_limit", Value::Float(0.0)).unwrap_err().to_string(),
///     "time_limit must be a number of seconds > 0 and < 1e9, got 0.0"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BotSettings {
    /// Which bot, with its configuration.
    pub spec: BotSpec,
    /// The seed of the bot's own generator (0 for the bots that draw no random numbers).
    pub seed: u64,
    /// The time limit as given, in seconds.
    pub seconds: Option<f64>,
}

impl BotSettings {
    /// The defaults of `spec`'s bot: seed 0, no time limit.
    pub fn new(spec: BotSpec) -> BotSettings {
        BotSettings { spec, seed: 0, seconds: None }
    }

    /// The settings a name gives ([`BotSpec::parse`]), with the seed `seed` if the bot takes one
    /// (First and Greedy draw no random numbers: theirs stays 0).
    pub fn parse(name: &str, seed: u64) -> Result<Option<BotSettings>> {
        let Some(spec) = BotSpec::parse(name)? else { return Ok(None) };
        let mut out = BotSettings::new(spec);
        if out.entry().settings.iter().any(|s| s.name == "seed") {
            out.seed = seed;
        }
        Ok(Some(out))
    }

    /// The registry's entry of the bot.
    pub fn entry(&self) -> &'static BotName {
        self.spec.entry()
    }

    /// Set the setting `name` (one of the entry's [`Setting`]s) to `value`, or an
    /// [`Error::InvalidValue`] saying what is wrong; [`BotSpec::checked`] checks the whole.
    pub fn set(&mut self, name: &str, value: Value<'_>) -> Result<()> {
        let BotSettings { spec, seed, seconds } = self;
        let entry = spec.entry();
        let wrong = || Error::InvalidValue(format!("the {} bot has no setting {name:?} taking {value:?}", entry.class));
        let kind = &entry.settings.iter().find(|s| s.name == name).ok_or_else(wrong)?.kind;
        let int = match (kind, value) {
            (Kind::Int(range), Value::Int(n)) if range.contains(&n) => n,
            (Kind::Int(range), Value::Int(n)) => {
                return Err(Error::InvalidValue(format!(
                    "{name} must be in range({}, {}), got {n}",
                    range.start, range.end
                )))
            }
            _ => 0,
        };
        match (spec, name, value) {
            (_, "time_limit", Value::None) => {}
            (
                BotSpec::Ismcts(IsmctsConfig { time_limit, .. }) | BotSpec::Pimc(PimcConfig { time_limit, .. }),
                "time_limit",
                Value::Float(t),
            ) => {
                if !(t.is_finite() && t > 0.0 && t < 1e9) {
                    return Err(Error::InvalidValue(format!(
                        "time_limit must be a number of seconds > 0 and < 1e9, got {}",
                        float_repr(t)
                    )));
                }
                *time_limit = Some(Duration::from_secs_f64(t));
                *seconds = Some(t);
            }
            (
                BotSpec::Ismcts(IsmctsConfig { threads, .. }) | BotSpec::Pimc(PimcConfig { threads, .. }),
                "threads",
                Value::Int(_),
            ) => *threads = int as usize,
            (_, "seed", Value::Seed(s)) => *seed = s,
            (BotSpec::Ismcts(c), "iterations", Value::Int(_)) => c.iterations = int as u32,
            (BotSpec::Ismcts(c), "exploration", Value::Float(x)) => c.exploration = x,
            (BotSpec::Ismcts(c), "rollout", Value::Name(r)) => c.rollout = r.parse()?,
            (BotSpec::Ismcts(c), "rollout_to_end", Value::Bool(b)) => c.rollout_to_end = b,
            (BotSpec::Pimc(c), "worlds", Value::Int(_)) => c.worlds = int as u32,
            (BotSpec::Pimc(c), "objective", Value::Name(o)) => c.objective = Objective::parse(o)?,
            (BotSpec::Pimc(c), "inference", Value::Bool(b)) => c.inference = b,
            (BotSpec::Pimc(c), "before_play", Value::Name(b)) => {
                c.before_play = BeforePlay::parse(&b.trim().to_ascii_lowercase())?
            }
            _ => return Err(wrong()),
        }
        Ok(())
    }

    /// The value of the setting `name` ([`Value::None`] for a name the bot does not have).
    pub fn get(&self, name: &str) -> Value<'static> {
        match (&self.spec, name) {
            (_, "seed") => Value::Seed(self.seed),
            (
                BotSpec::Ismcts(IsmctsConfig { time_limit, .. }) | BotSpec::Pimc(PimcConfig { time_limit, .. }),
                "time_limit",
            ) => self.seconds.or(time_limit.map(|d| d.as_secs_f64())).map_or(Value::None, Value::Float),
            (BotSpec::Ismcts(IsmctsConfig { threads, .. }) | BotSpec::Pimc(PimcConfig { threads, .. }), "threads") => {
                Value::Int(*threads as i64)
            }
            (BotSpec::Ismcts(c), "iterations") => Value::Int(c.iterations.into()),
            (BotSpec::Ismcts(c), "exploration") => Value::Float(c.exploration),
            (BotSpec::Ismcts(c), "rollout") => Value::Name(c.rollout.name()),
            (BotSpec::Ismcts(c), "rollout_to_end") => Value::Bool(c.rollout_to_end),
            (BotSpec::Pimc(c), "worlds") => Value::Int(c.worlds.into()),
            (BotSpec::Pimc(c), "objective") => Value::Name(c.objective.name()),
            (BotSpec::Pimc(c), "inference") => Value::Bool(c.inference),
            (BotSpec::Pimc(c), "before_play") => Value::Name(c.before_play.name()),
            _ => Value::None,
        }
    }

    /// Every setting with its value, in the constructor's order (a repr, a pickle).
    pub fn values(&self) -> impl Iterator<Item = (&'static str, Value<'static>)> + '_ {
        self.entry().settings.iter().map(|s| (s.name, self.get(s.name)))
    }

    /// The same settings, checked ([`BotSpec::checked`]).
    pub fn checked(self) -> Result<BotSettings> {
        Ok(BotSettings { spec: self.spec.checked()?, ..self })
    }
}

/// A float as Python's `repr` writes it (the shortest text that reads back to the same float:
/// `0.7`, `1e-10`, `1e+300`), for messages that echo a number a front end was given.
fn float_repr(x: f64) -> String {
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

/// A factory of the players called `name` ([`BotSpec::from_name`]), for
/// [`simulate`](crate::engine::simulate) and the arena.
///
/// ```
/// use cribpiquet::bots::registry::policy_by_name;
/// use cribpiquet::cribbage::{GameConfig, State, Variant};
/// use cribpiquet::engine::simulate;
///
/// let game = GameConfig::new(Variant::FiveCard, None).unwrap();
/// let players = [policy_by_name::<State>("random").unwrap(), policy_by_name::<State>("greedy").unwrap()];
/// let out = simulate(&game, &players, 7, 0, 4, Some(1)).unwrap();
/// assert_eq!(out.n_games, 4);
/// assert!(policy_by_name::<State>("nobody").is_err());
/// ```
pub fn policy_by_name<S: BotGame>(name: &str) -> Result<PolicyFactory<S>> {
    let spec = BotSpec::from_name(name)?;
    spec.available::<S>()?;
    Ok(spec.policy_factory())
}

#[cfg(test)]
mod tests;
