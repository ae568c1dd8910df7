//! The bots' cribbage: what the generic bots need from the game, and its own player.
//!
//! * [`Greedy`] (`greedy.rs`): the exact one-step player;
//! * IS-MCTS's hooks (`search.rs`: [`SearchGame`](crate::bots::ismcts::SearchGame));
//! * PIMC's hooks (`pimc.rs`: [`PimcGame`](crate::bots::pimc::PimcGame)), with the inference
//!   model and its discard tables ([`tables`], [`discard_likelihood`]);
//! * the registry's capabilities ([`BotGame`]): cribbage has every bot.

mod greedy;
mod pimc;
mod search;

pub use greedy::{multi_discard_values, Greedy};
pub use pimc::{discard_likelihood, near_end, tables, INFERENCE_BETA, NEAR_END_FRACTION};

use crate::bots::pimc::{self as generic_pimc, PimcConfig};
use crate::bots::registry::BotGame;
use crate::bots::Bot;
use crate::cribbage;
use crate::error::Result;

impl BotGame for cribbage::State {
    fn greedy() -> Option<Box<dyn Bot<Self>>> {
        Some(Box::new(Greedy::new()))
    }

    fn pimc(config: PimcConfig) -> Option<Result<Box<dyn Bot<Self>>>> {
        Some(generic_pimc::boxed(config))
    }
}
