//! Bots: players that decide at a decision node, written once against the engine framework's
//! [`GameState`] where the algorithm is generic (random, first, IS-MCTS, PIMC, the arena) and per
//! game where it is not (the greedy players). What a generic bot needs from a game is a trait of
//! its module ([`ismcts::SearchGame`], [`pimc::PimcGame`], [`registry::BotGame`]), implemented in
//! the game's own module here ([`cribbage`], [`piquet`]): the generic files name no game.
//!
//! Every bot offers OpenSpiel's bot methods: [`Bot::step`] (the action it plays),
//! [`Bot::action_values`] (what it thinks each legal action is worth, for hints and analysis) and
//! [`Bot::restart`] (a new game begins). A bot draws its randomness from the [`Rng`] it is
//! handed, so a game driven by one seeded generator (`simulate`, the arena) is reproducible
//! whatever the thread that plays it.
//!
//! Every bot has a name in the one [`registry`], which parses names (`"ismcts:2000"`) into
//! settings ([`registry::BotSpec`]) and builds the bots of either game from them.

pub mod arena;
mod basic;
pub mod ismcts;
pub mod pimc;
pub mod registry;

// Each game's own bots and its hooks of the generic ones.
pub mod cribbage;
pub mod piquet;

pub use basic::{decision_player, BotPolicy, FirstBot, RandomBot};

use crate::engine::GameState;
use crate::error::Result;
use crate::rng::Rng;

/// A player for one seat of a game of `S`: decides at decision nodes.
pub trait Bot<S: GameState>: Send {
    /// The action this bot plays at `state`, where `state.current_player()` is a player (not a
    /// chance node, not the end: else an [`Error::InvalidValue`](crate::Error::InvalidValue)).
    /// Always one of `state.legal_actions()`.
    fn step(&mut self, state: &S, rng: &mut Rng) -> Result<u16>;

    /// The value the bot gives each legal action at `state` for the player to move, one pair
    /// `(action, value)` per legal action in ascending action order; [`step`](Bot::step) plays
    /// one of the best. The scale is the bot's own and documented per bot.
    fn action_values(&mut self, state: &S, rng: &mut Rng) -> Result<Vec<(u16, f64)>>;

    /// Forget everything about the game so far (a new game begins).
    fn restart(&mut self) {}

    /// The bot's name in messages and reports (`"random"`, `"greedy"`, `"ismcts:2000"`).
    fn name(&self) -> String;
}

/// The rollout policy and the win-probability model, at home in [`crate::eval`] (below the solvers,
/// which use them too) and re-exported here under their former paths.
pub use crate::eval::{heuristic, winprob};
