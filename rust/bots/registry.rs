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

use super::greedy::Greedy;
use super::ismcts::{Ismcts, IsmctsConfig, SearchGame};
use super::pimc::{BeforePlay, Pimc, PimcConfig};
use super::{Bot, BotPolicy, FirstBot, RandomBot};
use crate::engine::{FirstPolicy, PolicyFactory, RandomPolicy};
use crate::error::{echo, Error, Result};
use crate::solve::Objective;
use crate::{cribbage, piquet};

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
    /// [`Greedy`].
    Greedy,
    /// [`Ismcts`] with these settings.
    Ismcts(IsmctsConfig),
    /// [`Pimc`] with these settings.
    Pimc(PimcConfig),
}

/// The games the registry builds bots for: every bot of [`BOTS`] plays them. Random, first and
/// IS-MCTS are written once over the traits; the two hooks make the bots whose player is written
/// per game (Greedy, and PIMC, which plays the others' decisions with Greedy).
pub trait BotGame: SearchGame + 'static {
    /// A fresh [`Greedy`] for this game.
    fn greedy() -> Box<dyn Bot<Self>>;
    /// A fresh [`Pimc`] of `config` (checked) for this game.
    fn pimc(config: PimcConfig) -> Result<Box<dyn Bot<Self>>>;
}

/// [`BotGame`] for a state type whose [`Greedy`] and [`Pimc`] exist.
macro_rules! bot_game {
    ($($state:ty),*) => {$(
        impl BotGame for $state {
            fn greedy() -> Box<dyn Bot<Self>> {
                Box::new(Greedy::new())
            }
            fn pimc(config: PimcConfig) -> Result<Box<dyn Bot<Self>>> {
                Ok(Box::new(Pimc::<Self>::new(config)?))
            }
        }
    )*};
}

bot_game!(cribbage::State, piquet::State);

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

    /// A fresh bot of these settings for a game of `S`.
    ///
    /// Panics on settings that [`checked`](BotSpec::checked) refuses (the parser and the
    /// bindings check them when they make the settings).
    pub fn bot<S: BotGame>(&self) -> Box<dyn Bot<S>> {
        match *self {
            BotSpec::Random => Box::new(RandomBot),
            BotSpec::First => Box::new(FirstBot),
            BotSpec::Greedy => S::greedy(),
            BotSpec::Ismcts(config) => Box::new(Ismcts::<S>::new(config).expect("IS-MCTS settings checked")),
            BotSpec::Pimc(config) => S::pimc(config).expect("PIMC settings checked"),
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
    Ok(BotSpec::from_name(name)?.policy_factory())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{simulate, Game, GameState};
    use crate::rng::Rng;

    fn err(name: &str) -> String {
        BotSpec::parse(name).unwrap_err().to_string()
    }

    #[test]
    fn every_name_parses_to_its_bot() {
        assert_eq!(BotSpec::parse("random").unwrap(), Some(BotSpec::Random));
        assert_eq!(BotSpec::parse("first").unwrap(), Some(BotSpec::First));
        assert_eq!(BotSpec::parse("greedy").unwrap(), Some(BotSpec::Greedy));
        assert_eq!(BotSpec::parse("ismcts").unwrap(), Some(BotSpec::Ismcts(IsmctsConfig::default())));
        assert_eq!(BotSpec::parse("pimc").unwrap(), Some(BotSpec::Pimc(PimcConfig::default())));
        let Some(BotSpec::Ismcts(c)) = BotSpec::parse("ismcts:2000").unwrap() else { panic!("not IS-MCTS") };
        assert_eq!(c, IsmctsConfig { iterations: 2000, ..IsmctsConfig::default() });
        let Some(BotSpec::Pimc(c)) = BotSpec::parse("pimc:7").unwrap() else { panic!("not PIMC") };
        assert_eq!((c.worlds, c.objective, c.threads, c.inference), (7, Objective::Win, 1, true));
        // Any case, spaces around the name and the argument.
        assert_eq!(BotSpec::parse(" First ").unwrap(), Some(BotSpec::First));
        assert_eq!(BotSpec::parse("GREEDY").unwrap(), Some(BotSpec::Greedy));
        assert_eq!(BotSpec::parse(" ISMCTS : 20 ").unwrap().unwrap().name(), "ismcts:20");
        assert_eq!(BotSpec::parse("ismcts:4294967295").unwrap().unwrap().name(), "ismcts:4294967295");
    }

    #[test]
    fn names_round_trip_and_the_list_is_complete() {
        assert_eq!(name_forms(), ["greedy", "ismcts", "ismcts:N", "random", "first", "pimc", "pimc:N"]);
        for entry in BOTS {
            let spec = BotSpec::from_name(entry.name).unwrap();
            assert_eq!(BotSpec::from_name(&spec.name()).unwrap(), spec, "{}", entry.name);
            if entry.argument.is_some() {
                assert_eq!(
                    BotSpec::from_name(&format!("{}:3", entry.name)).unwrap().name(),
                    format!("{}:3", entry.name)
                );
            } else {
                assert_eq!(spec.name(), entry.name);
            }
        }
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        assert_eq!(BotSpec::parse("nobody").unwrap(), None);
        assert_eq!(BotSpec::parse("").unwrap(), None);
        assert_eq!(
            BotSpec::from_name("nobody").unwrap_err().to_string(),
            "unknown bot \"nobody\" (known: greedy, ismcts, ismcts:N, random, first, pimc, pimc:N)"
        );
        assert_eq!(err("first:2"), "the first player takes no argument, got \"first:2\"");
        assert_eq!(err("Random:"), "the random player takes no argument, got \"Random:\"");
        assert_eq!(err("greedy:1"), "the greedy player takes no argument, got \"greedy:1\"");
        let ismcts = "ismcts:N needs a number of iterations 1 <= N <= 4294967295 (2**32-1), got";
        assert_eq!(err("ismcts:lots"), format!("{ismcts} \"ismcts:lots\""));
        assert_eq!(err("ismcts:0"), format!("{ismcts} \"ismcts:0\""));
        assert_eq!(err("ismcts:4294967296"), format!("{ismcts} \"ismcts:4294967296\""));
        assert_eq!(err("ismcts:-1"), format!("{ismcts} \"ismcts:-1\""));
        assert_eq!(err("pimc:0"), "pimc:N needs a number of worlds N >= 1, got \"pimc:0\"");
        assert_eq!(err("PIMC:x"), "pimc:N needs a number of worlds N >= 1, got \"PIMC:x\"");
        // A long name is echoed cut.
        let long = format!("pimc:{}", "9".repeat(500));
        assert!(err(&long).chars().count() < 140, "{}", err(&long));
    }

    #[test]
    fn checked_refuses_bad_settings() {
        let bad = BotSpec::Ismcts(IsmctsConfig { threads: 0, ..IsmctsConfig::default() });
        assert_eq!(bad.checked().unwrap_err().to_string(), "threads must be 1..256, got 0");
        let bad = BotSpec::Pimc(PimcConfig { worlds: 0, ..PimcConfig::default() });
        assert_eq!(bad.checked().unwrap_err().to_string(), "worlds must be at least 1");
        assert_eq!(BotSpec::Greedy.checked().unwrap(), BotSpec::Greedy);
    }

    #[test]
    fn settings_are_set_and_read_back_by_name() {
        for entry in BOTS {
            let settings = BotSettings::new(BotSpec::from_name(entry.name).unwrap());
            assert_eq!(settings.entry(), &entry);
            // Every setting of the table reads back, and setting it to its own value changes nothing.
            let mut again = settings;
            for (name, value) in settings.values() {
                again.set(name, value).unwrap();
            }
            assert_eq!(again, settings, "{}", entry.name);
        }
        let mut bot = BotSettings::parse("ismcts", 9).unwrap().unwrap();
        bot.set("rollout", Value::Name(" Random ")).unwrap();
        bot.set("threads", Value::Int(4)).unwrap();
        bot.set("rollout_to_end", Value::Bool(true)).unwrap();
        let values: Vec<_> = bot.values().collect();
        assert_eq!(
            values,
            [
                ("iterations", Value::Int(1000)),
                ("time_limit", Value::None),
                ("exploration", Value::Float(0.7)),
                ("rollout", Value::Name("random")),
                ("threads", Value::Int(4)),
                ("seed", Value::Seed(9)),
                ("rollout_to_end", Value::Bool(true)),
            ]
        );
        // First and Greedy take no seed.
        assert_eq!(BotSettings::parse("first", 9).unwrap().unwrap().seed, 0);
        assert_eq!(
            BotSettings::parse("random", 9).unwrap().unwrap().values().collect::<Vec<_>>(),
            [("seed", Value::Seed(9))]
        );
        assert_eq!(BotSettings::parse("nobody", 9).unwrap(), None);
    }

    #[test]
    fn settings_say_what_is_wrong() {
        let mut pimc = BotSettings::new(BotSpec::Pimc(PimcConfig::default()));
        let err = |bot: &mut BotSettings, name, value| bot.set(name, value).unwrap_err().to_string();
        assert_eq!(err(&mut pimc, "worlds", Value::Int(0)), "worlds must be in range(1, 4294967296), got 0");
        assert_eq!(err(&mut pimc, "threads", Value::Int(257)), "threads must be in range(1, 257), got 257");
        assert_eq!(
            err(&mut pimc, "objective", Value::Name("Nope")),
            "objective must be 'points' or 'win', got \"nope\""
        );
        assert_eq!(
            err(&mut pimc, "before_play", Value::Name("all")),
            "before_play must be one of 'exact', 'exact+play', 'worlds', 'ismcts', got \"all\""
        );
        for (t, text) in
            [(f64::NAN, "nan"), (-1.0, "-1.0"), (1e9, "1000000000.0"), (1e300, "1e+300"), (f64::INFINITY, "inf")]
        {
            assert_eq!(
                err(&mut pimc, "time_limit", Value::Float(t)),
                format!("time_limit must be a number of seconds > 0 and < 1e9, got {text}")
            );
        }
        assert_eq!(
            err(&mut pimc, "rollout", Value::Name("random")),
            "the PIMC bot has no setting \"rollout\" taking Name(\"random\")"
        );
        assert!(pimc.set("worlds", Value::Bool(true)).is_err());
        let mut first = BotSettings::new(BotSpec::First);
        assert!(first.set("seed", Value::Seed(1)).is_err());
        let mut ismcts = BotSettings::new(BotSpec::Ismcts(IsmctsConfig::default()));
        assert_eq!(
            err(&mut ismcts, "rollout", Value::Name("greedyish")),
            "unknown rollout \"greedyish\" (known: heuristic, random)"
        );
        ismcts.set("exploration", Value::Float(-1.0)).unwrap();
        assert_eq!(ismcts.checked().unwrap_err().to_string(), "exploration must be a finite number >= 0, got -1.0");
        // A time limit set in the core reads back in seconds.
        let timed =
            BotSpec::Ismcts(IsmctsConfig { time_limit: Some(Duration::from_millis(250)), ..IsmctsConfig::default() });
        assert_eq!(BotSettings::new(timed).get("time_limit"), Value::Float(0.25));
    }

    /// Every registered bot plays a legal action in both games, and its bot's own name is the
    /// registry's.
    #[test]
    fn every_bot_plays_both_games() {
        fn check<S: BotGame>(state: &S) {
            let legal = state.legal_actions();
            for name in ["greedy", "ismcts:30", "random", "first", "pimc:2"] {
                let spec = BotSpec::from_name(name).unwrap();
                let mut bot = spec.bot::<S>();
                assert_eq!(bot.name(), name);
                let a = bot.step(state, &mut Rng::new(5)).unwrap();
                assert!(legal.contains(&a), "{name}: {a}");
                // A fresh bot of the same settings and seed plays the same.
                assert_eq!(spec.bot::<S>().step(state, &mut Rng::new(5)).unwrap(), a, "{name}");
            }
            assert_eq!(BotSpec::First.bot::<S>().step(state, &mut Rng::new(0)).unwrap(), legal[0]);
        }
        let mut rng = Rng::new(3);
        let mut crib = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap().new_initial_state();
        crib.apply_sampled_chances(&mut rng);
        check(&crib);
        let mut pq = piquet::GameConfig::default().new_initial_state();
        pq.apply_sampled_chances(&mut rng);
        check(&pq);
    }

    #[test]
    fn factories_play_the_engine_policies_and_the_bots() {
        let game = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap();
        // "random" is the engine's RandomPolicy itself: the same games as the bot, game for game.
        let by_name = simulate(&game, &[policy_by_name("random").unwrap()], 4, 0, 30, Some(1)).unwrap();
        let by_policy: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(RandomPolicy));
        assert_eq!(by_name, simulate(&game, &[by_policy], 4, 0, 30, Some(1)).unwrap());
        let by_bot: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(BotPolicy(Box::new(RandomBot))));
        assert_eq!(by_name, simulate(&game, &[by_bot], 4, 0, 30, Some(1)).unwrap());
        // Greedy against first: every game ends with a winner at the target.
        let players = [policy_by_name("greedy").unwrap(), policy_by_name("first").unwrap()];
        let out = simulate(&game, &players, 4, 0, 6, Some(1)).unwrap();
        assert!(out.scores.chunks(2).zip(&out.winner).all(|(s, &w)| s[w as usize] >= game.target() as i32));
        assert!(policy_by_name::<piquet::State>("nobody").is_err());
    }
}
