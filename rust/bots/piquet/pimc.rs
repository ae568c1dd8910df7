//! Piquet's hooks of the PIMC bot ([`PimcGame`]): the outcome values on the point scale, the
//! split exchange, and the match's deals solved for points.

use super::{Greedy, PIQUET_SCALE};
use crate::bots::pimc::{gains, PimcGame};
use crate::engine::GameState;
use crate::error::Result;
use crate::piquet;
use crate::solve::{Objective, Solve};

impl PimcGame for piquet::State {
    type OneStep = Greedy;

    /// `Points`: the player's gain since `from` minus the opponent's. `Win`: 1 or 0 at the end of
    /// a partiya; otherwise IS-MCTS's scale of the point difference, `½ + ½·tanh(Δ / 40)`.
    fn outcome_value(&self, from: &Self, player: usize, objective: Objective) -> f64 {
        let g = gains(from, self);
        let delta = g[player] - g[1 - player];
        match objective {
            Objective::Points => delta,
            Objective::Win => {
                if self.is_terminal() && self.winner().is_some() {
                    return (self.winner() == Some(player)) as u8 as f64;
                }
                0.5 + 0.5 * (delta / PIQUET_SCALE).tanh()
            }
        }
    }

    /// Piquet inference is off: every world weighs 1.
    fn world_weight(&self, _world: &Self, _observer: usize) -> Result<f64> {
        Ok(1.0)
    }

    /// An exchange (its size, or a card laid away): Greedy's value of each action is the exact
    /// expected declaration total over every draw ([`exchange_totals`](piquet::exchange_totals));
    /// the worlds sample only the play.
    fn has_exact_value(&self) -> bool {
        matches!(self.phase(), piquet::Phase::Exchange | piquet::Phase::Discard)
    }

    /// The solved play's point difference for `player` from this world's first lead (the play's
    /// alone: the solver's value less its pending declarations).
    fn rest_points(&self, player: usize) -> Result<f64> {
        let value = self.solve_values(Objective::Points)?.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let value = value - self.pending_points();
        Ok(if self.current_player() as usize == player { value } else { -value })
    }

    /// `Points` where [`Objective::Win`] would be the deal won in a match's deal that cannot end
    /// it ([`deal_may_end_match`](crate::solve::piquet::deal_may_end_match)): there the margin
    /// counts, and a solver maximising the deal won gives points away in a deal it cannot win.
    fn solver_objective(&self, objective: Objective) -> Objective {
        if objective == Objective::Win && !crate::solve::piquet::deal_may_end_match(self) {
            Objective::Points
        } else {
            objective
        }
    }

    /// `Win`: the point scale of [`PimcGame::outcome_value`], `½ + ½·tanh(x / 40)`.
    fn points_on_scale(&self, _player: usize, x: f64, objective: Objective) -> f64 {
        match objective {
            Objective::Points => x,
            Objective::Win => 0.5 + 0.5 * (x / PIQUET_SCALE).tanh(),
        }
    }
}
