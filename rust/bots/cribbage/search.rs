//! Cribbage's hooks of the IS-MCTS search ([`SearchGame`]): the discard the observer does not
//! see, the rollout, and a deal's end valued by the win table.

use crate::bots::heuristic::Heuristic;
use crate::bots::ismcts::{scaled_returns, IsmctsConfig, Rollout, SearchGame};
use crate::bots::winprob::{multi_side_values, WinTable};
use crate::cribbage;
use crate::engine::{Game, GameState, Policy, MAX_PLAYERS};
use crate::rng::Rng;

impl SearchGame for cribbage::State {
    /// The win table of the game's variant and target (two sides; `None` for three sides or
    /// whole-game rollouts).
    type Context = Option<std::sync::Arc<WinTable>>;

    fn search_context(&self, config: &IsmctsConfig) -> Self::Context {
        let game = self.game();
        (game.num_sides() == 2 && !config.rollout_to_end).then(|| WinTable::of(game))
    }

    fn hides_move(&self, observer: usize) -> bool {
        self.phase() == cribbage::Phase::Discard && self.current_player() != observer as i32
    }

    #[inline]
    fn rollout_action(&self, legal: &[u16], rollout: Rollout, rng: &mut Rng) -> u16 {
        match rollout {
            Rollout::Heuristic => Heuristic.choose(self, legal, rng),
            Rollout::Random => legal[rng.below(legal.len() as u32) as usize],
        }
    }

    /// The end of the game: the payoffs scaled to 0..1 (1 for the winner). The start of the next
    /// deal: the [`WinTable`] chance that the side now dealing wins (two sides), or
    /// [`multi_side_values`] (three).
    fn leaf_values(&self, _root: &Self, context: &Self::Context, out: &mut [f64; MAX_PLAYERS]) {
        if self.is_terminal() {
            return scaled_returns(self, out);
        }
        match (context, self.dealer()) {
            (Some(table), Some(dealer)) => {
                let d = self.side_of(dealer);
                let p = table.dealer_wins(self.side_score(d), self.side_score(1 - d));
                for (q, v) in out.iter_mut().enumerate().take(self.num_players()) {
                    *v = if self.side_of(q) == d { p } else { 1.0 - p };
                }
            }
            _ => multi_side_values(self, out),
        }
    }
}
