//! The bots' piquet: what the generic bots need from the game, and its own player.
//!
//! * [`Greedy`] (`greedy.rs`): the exact one-step player;
//! * IS-MCTS's hooks (`search.rs`: [`SearchGame`](crate::bots::ismcts::SearchGame)), with the
//!   point scale of a deal's value ([`PIQUET_SCALE`]);
//! * PIMC's hooks (`pimc.rs`: [`PimcGame`](crate::bots::pimc::PimcGame));
//! * the registry's capabilities ([`BotGame`]): piquet has every bot.

mod greedy;
mod pimc;
mod search;

pub use greedy::Greedy;
pub use search::PIQUET_SCALE;

use crate::bots::pimc::{self as generic_pimc, PimcConfig};
use crate::bots::registry::BotGame;
use crate::bots::Bot;
use crate::error::Result;
use crate::piquet;

impl BotGame for piquet::State {
    fn greedy() -> Option<Box<dyn Bot<Self>>> {
        Some(Box::new(Greedy::new()))
    }

    fn pimc(config: PimcConfig) -> Option<Result<Box<dyn Bot<Self>>>> {
        Some(generic_pimc::boxed(config))
    }
}
