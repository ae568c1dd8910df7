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

/// A setting of a bot's constructor, one row of its [`BotName::settings`]: its name, the value it
/// takes (its type and range: [`Kind`]), its doc, and how it is read and written in a
/// [`BotSettings`] (where the default is the bot's default configuration's value). The repr, the
/// pickle and the constructor of a front end's bot class all follow the rows.
#[derive(Clone)]
pub struct Setting {
    /// The name (`"iterations"`).
    pub name: &'static str,
    /// What value it takes.
    pub kind: Kind,
    /// What it sets (one line).
    pub doc: &'static str,
    /// Its value in these settings.
    read: fn(&BotSettings) -> Value<'static>,
    /// Write a value of its kind (checked by [`BotSettings::set`]: the variant, the range).
    write: fn(&mut BotSettings, Value<'_>) -> Result<()>,
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Setting").field("name", &self.name).field("kind", &self.kind).finish_non_exhaustive()
    }
}

impl PartialEq for Setting {
    fn eq(&self, other: &Setting) -> bool {
        (self.name, &self.kind, self.doc) == (other.name, &other.kind, other.doc)
    }
}

impl Eq for Setting {}

impl Setting {
    /// Its value in the defaults of the bot of `entry` (seed 0, no time limit).
    pub fn default_value(&self, entry: &BotName) -> Value<'static> {
        let spec = BotSpec::from_name(entry.name).expect("every entry's name parses");
        (self.read)(&BotSettings::new(spec))
    }
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

impl Value<'_> {
    fn int(self) -> i64 {
        if let Value::Int(n) = self {
            n
        } else {
            0
        }
    }
    fn float(self) -> f64 {
        if let Value::Float(x) = self {
            x
        } else {
            0.0
        }
    }
    fn flag(self) -> bool {
        matches!(self, Value::Bool(true))
    }
    fn text(&self) -> &str {
        if let Value::Name(n) = self {
            n
        } else {
            ""
        }
    }
    /// Does this value have the variant `kind` takes?
    fn fits(&self, kind: &Kind) -> bool {
        matches!(
            (kind, self),
            (Kind::Int(_), Value::Int(_))
                | (Kind::Seed, Value::Seed(_))
                | (Kind::Float, Value::Float(_))
                | (Kind::Seconds, Value::Float(_) | Value::None)
                | (Kind::Name, Value::Name(_))
                | (Kind::Bool, Value::Bool(_))
        )
    }
}

/// A [`Setting`] of the configuration in the [`BotSpec`] variant `$variant` (`$c`: the
/// configuration; `$b`: the [`BotSettings`], to read; `$v`: the [`Value`], checked, to write).
macro_rules! field {
    ($name:literal, $kind:expr, $doc:literal, $variant:ident, |$b:ident, $c:ident| $read:expr, |$cw:ident, $v:ident| $write:expr) => {
        Setting {
            name: $name,
            kind: $kind,
            doc: $doc,
            read: |$b| match &$b.spec {
                BotSpec::$variant($c) => $read,
                _ => Value::None,
            },
            write: |b, $v| match &mut b.spec {
                BotSpec::$variant($cw) => {
                    $write;
                    Ok(())
                }
                _ => Err(Error::InvalidValue(format!("the {} bot has no setting {:?}", b.entry().class, $name))),
            },
        }
    };
}

/// A bot's `time_limit` setting (seconds per decision, or None) for the `BotSpec` variant
/// `$variant`: read and written through [`read_seconds`]/[`write_seconds`], which need the whole
/// bot beside its configuration (so the configuration is copied out and back).
macro_rules! time_limit {
    ($variant:ident) => {
        Setting {
            name: "time_limit",
            kind: Kind::Seconds,
            doc: "seconds per decision, or None",
            read: |b| match &b.spec {
                BotSpec::$variant(c) => read_seconds(b, c.time_limit),
                _ => Value::None,
            },
            write: |b, v| {
                let BotSpec::$variant(mut c) = b.spec else { return Ok(()) };
                write_seconds(b, &mut c.time_limit, v)?;
                b.spec = BotSpec::$variant(c);
                Ok(())
            },
        }
    };
}

/// The range of an iterations or worlds count (what `u32` holds but 0).
const COUNT: Kind = Kind::Int(1..u32::MAX as i64 + 1);
const THREADS: Kind = Kind::Int(1..257);

/// The seed of a bot's own generator (the bots that draw random numbers).
const SEED: Setting = Setting {
    name: "seed",
    kind: Kind::Seed,
    doc: "the seed of the bot's own generator",
    read: |b| Value::Seed(b.seed),
    write: |b, v| {
        if let Value::Seed(s) = v {
            b.seed = s;
        }
        Ok(())
    },
};

/// Seconds per decision (`None`: no limit; a `None` given keeps the limit set).
fn write_seconds(b: &mut BotSettings, time_limit: &mut Option<Duration>, v: Value<'_>) -> Result<()> {
    let Value::Float(t) = v else { return Ok(()) };
    if !(t.is_finite() && t > 0.0 && t < 1e9) {
        return Err(Error::InvalidValue(format!(
            "time_limit must be a number of seconds > 0 and < 1e9, got {}",
            float_repr(t)
        )));
    }
    *time_limit = Some(Duration::from_secs_f64(t));
    b.seconds = Some(t);
    Ok(())
}

/// The time limit as given (or as set in the core, in seconds).
fn read_seconds(b: &BotSettings, time_limit: Option<Duration>) -> Value<'static> {
    b.seconds.or(time_limit.map(|d| d.as_secs_f64())).map_or(Value::None, Value::Float)
}

/// IS-MCTS's settings, in its constructor's order.
#[rustfmt::skip] // one row a setting
const ISMCTS_SETTINGS: &[Setting] = &[
    field!("iterations", COUNT, "iterations per decision, over all threads", Ismcts,
        |b, c| Value::Int(c.iterations.into()), |c, v| c.iterations = v.int() as u32),
    time_limit!(Ismcts),
    field!("exploration", Kind::Float, "the UCB1 exploration constant", Ismcts,
        |b, c| Value::Float(c.exploration), |c, v| c.exploration = v.float()),
    field!("rollout", Kind::Name, "the rollout policy: 'heuristic' or 'random'", Ismcts,
        |b, c| Value::Name(c.rollout.name()), |c, v| c.rollout = v.text().parse()?),
    field!("threads", THREADS, "trees searched in parallel", Ismcts,
        |b, c| Value::Int(c.threads as i64), |c, v| c.threads = v.int() as usize),
    SEED,
    field!("rollout_to_end", Kind::Bool, "roll out to the end of the game, not of the deal", Ismcts,
        |b, c| Value::Bool(c.rollout_to_end), |c, v| c.rollout_to_end = v.flag()),
];

/// PIMC's settings, in its constructor's order.
#[rustfmt::skip] // one row a setting
const PIMC_SETTINGS: &[Setting] = &[
    field!("worlds", COUNT, "worlds sampled per decision", Pimc,
        |b, c| Value::Int(c.worlds.into()), |c, v| c.worlds = v.int() as u32),
    field!("objective", Kind::Name, "what the solver maximises: 'win' or 'points'", Pimc,
        |b, c| Value::Name(c.objective.name()), |c, v| c.objective = Objective::parse(v.text())?),
    field!("threads", THREADS, "threads the worlds are split over", Pimc,
        |b, c| Value::Int(c.threads as i64), |c, v| c.threads = v.int() as usize),
    SEED,
    time_limit!(Pimc),
    field!("inference", Kind::Bool, "weight the worlds by the others' earlier decisions", Pimc,
        |b, c| Value::Bool(c.inference), |c, v| c.inference = v.flag()),
    field!("before_play", Kind::Name, "how decisions before the play are valued", Pimc,
        |b, c| Value::Name(c.before_play.name()),
        |c, v| c.before_play = BeforePlay::parse(&v.text().trim().to_ascii_lowercase())?),
];

/// Every bot name, in the order messages list them (the terminal game's default first).
pub const BOTS: [BotName; 5] = [
    BotName { name: "greedy", argument: None, class: "Greedy", settings: &[] },
    BotName { name: "ismcts", argument: Some("iterations"), class: "ISMCTS", settings: ISMCTS_SETTINGS },
    BotName { name: "random", argument: None, class: "Random", settings: &[SEED] },
    BotName { name: "first", argument: None, class: "First", settings: &[] },
    BotName { name: "pimc", argument: Some("worlds"), class: "PIMC", settings: PIMC_SETTINGS },
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
        let name = match self {
            BotSpec::Greedy => "greedy",
            BotSpec::Ismcts(_) => "ismcts",
            BotSpec::Random => "random",
            BotSpec::First => "first",
            BotSpec::Pimc(_) => "pimc",
        };
        BOTS.iter().find(|e| e.name == name).expect("every bot has its entry")
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
    /// [`FirstBot`], without a bot's checks); the others as their bot ([`BotPolicy`]). A bot the
    /// game lacks stops the game at its first decision: check [`available`](BotSpec::available)
    /// first ([`policy_by_name`] does).
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
        let entry = self.entry();
        let wrong = || Error::InvalidValue(format!("the {} bot has no setting {name:?} taking {value:?}", entry.class));
        let setting = entry.settings.iter().find(|s| s.name == name).ok_or_else(wrong)?;
        if !value.fits(&setting.kind) {
            return Err(wrong());
        }
        if let (Kind::Int(range), Value::Int(n)) = (&setting.kind, value) {
            if !range.contains(&n) {
                return Err(Error::InvalidValue(format!(
                    "{name} must be in range({}, {}), got {n}",
                    range.start, range.end
                )));
            }
        }
        (setting.write)(self, value)
    }

    /// The value of the setting `name` ([`Value::None`] for a name the bot does not have).
    pub fn get(&self, name: &str) -> Value<'static> {
        self.entry().settings.iter().find(|s| s.name == name).map_or(Value::None, |s| (s.read)(self))
    }

    /// Every setting with its value, in the constructor's order (a repr, a pickle).
    pub fn values(&self) -> impl Iterator<Item = (&'static str, Value<'static>)> + '_ {
        self.entry().settings.iter().map(|s| (s.name, (s.read)(self)))
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
