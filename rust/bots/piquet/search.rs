//! Piquet's hooks of the IS-MCTS search ([`SearchGame`]): the exchange the observer does not
//! see, the rollout, and a deal's end valued by its point difference.

use crate::bots::heuristic::Heuristic;
use crate::bots::ismcts::{IsmctsConfig, Rollout, SearchGame};
use crate::engine::{GameState, Policy, MAX_PLAYERS};
use crate::piquet;
use crate::rng::Rng;

/// Piquet's scale of a deal's point difference: the value is `½ + ½·tanh(Δ / PIQUET_SCALE)`.
pub const PIQUET_SCALE: f64 = 40.0;

impl SearchGame for piquet::State {
    type Context = ();

    fn search_context(&self, _config: &IsmctsConfig) -> Self::Context {}

    fn hides_move(&self, observer: usize) -> bool {
        self.phase() == piquet::Phase::Discard && self.current_player() != observer as i32
    }

    #[inline]
    fn rollout_action(&self, legal: &[u16], rollout: Rollout, rng: &mut Rng) -> u16 {
        match rollout {
            Rollout::Heuristic => Heuristic.choose(self, legal, rng),
            Rollout::Random => legal[rng.below(legal.len() as u32) as usize],
        }
    }

    /// Piquet values points: `Δ`, seat 0's points minus seat 1's made since the search's root,
    /// gives seat 0 `½ + ½·tanh(Δ / 40)` and seat 1 the rest (a deal's difference is typically
    /// tens of points; a repique or capot saturates). At the end of a whole partiya (or partie)
    /// the winner gets 1 and the loser 0.
    fn leaf_values(&self, root: &Self, _context: &Self::Context, out: &mut [f64; MAX_PLAYERS]) {
        if self.is_terminal() && self.game().scope() == piquet::Scope::Partiya {
            let w = self.winner();
            out[0] = match w {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            out[1] = 1.0 - out[0];
            return;
        }
        let gain = |seat: usize| self.side_score(seat) as f64 - root.side_score(seat) as f64;
        let v = 0.5 + 0.5 * ((gain(0) - gain(1)) / PIQUET_SCALE).tanh();
        out[0] = v;
        out[1] = 1.0 - v;
    }
}
