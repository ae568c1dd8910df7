//! The one bot registry: every bot's name, the parsing of a name (with its `:N` argument) and
//! the construction of the bot, for either game.
//!
//! A name is one of [`BOTS`], any case, spaces around ignored; the names that take an argument
//! also come as `name:N` (`"ismcts:2000"`: 2000 iterations, `"pimc:50"`: 50 worlds). A name
//! parses to a [`BotSpec`], a bot's settings, which builds fresh bots of either game
//! ([`BotSpec::bot`]) or a factory of them for [`simulate`](crate::engine::simulate) and the
//! arena ([`BotSpec::policy_factory`]). The Python bindings, `simulate(players=...)`, the arena
//! and `cribpiquet play --bot` all parse names here.
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

use super::greedy::Greedy;
use super::ismcts::{Ismcts, IsmctsConfig, SearchGame};
use super::pimc::{Pimc, PimcConfig};
use super::{Bot, BotPolicy, FirstBot, RandomBot};
use crate::engine::{FirstPolicy, PolicyFactory, RandomPolicy};
use crate::error::{echo, Error, Result};
use crate::{cribbage, piquet};

/// One name of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotName {
    /// The name (lower case).
    pub name: &'static str,
    /// What `name:N` sets, for the names that take an argument (`"iterations"`, `"worlds"`).
    pub argument: Option<&'static str>,
}

/// Every bot name, in the order messages list them (the terminal game's default first).
pub const BOTS: [BotName; 5] = [
    BotName { name: "greedy", argument: None },
    BotName { name: "ismcts", argument: Some("iterations") },
    BotName { name: "random", argument: None },
    BotName { name: "first", argument: None },
    BotName { name: "pimc", argument: Some("worlds") },
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
            BotSpec::Random => "random".into(),
            BotSpec::First => "first".into(),
            BotSpec::Greedy => "greedy".into(),
            BotSpec::Ismcts(c) => format!("ismcts:{}", c.iterations),
            BotSpec::Pimc(c) => format!("pimc:{}", c.worlds),
        }
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
    use crate::solve::Objective;

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
