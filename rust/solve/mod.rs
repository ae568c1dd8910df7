//! Exact play solvers ("double dummy"): the value of the rest of a deal's play with every card
//! known, for both engines, and the shared types a search on top of them (the PIMC bot) uses.
//!
//! A solver takes a state in phase `"play"` whose cards are all known (a real state, or a
//! determinized one from [`GameState::resample_from_infostate`]) and searches the remaining play
//! exactly. [`Solve::solve`] is the one entry point; each game implements it in its own module.

use crate::engine::GameState;
use crate::error::{echo, Error, Result};
use crate::names::named_enum;

pub mod cribbage;
pub mod piquet;

named_enum! {
    /// What a solver maximises for the player to move.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Objective {
        /// The mover's points minus the opponent's from now to the end of the deal (the target is
        /// ignored).
        Points => "points",
        /// The mover's chance to win the game, 0..1 (the game ends when a side reaches its target;
        /// otherwise the deal's end is valued by the game's win-probability model).
        Win => "win",
    }
}

impl Objective {
    /// The objective called `name` (any case, spaces around ignored), or an error naming both.
    pub fn parse(name: &str) -> Result<Objective> {
        let name = name.trim().to_ascii_lowercase();
        Objective::by_name(&name)
            .ok_or_else(|| Error::InvalidValue(format!("objective must be 'points' or 'win', got {:?}", echo(&name))))
    }
}

/// The exact value of a play position and of each legal action of the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The position's value for the player to move (see [`Objective`]).
    pub value: f64,
    /// Every legal action of the mover with its exact value, in ascending action order.
    pub action_values: Vec<(u16, f64)>,
    /// All optimal actions, ascending.
    pub best_actions: Vec<u16>,
    /// One optimal line of play from here to the end of the play.
    pub principal_variation: Vec<u16>,
    /// Positions searched.
    pub nodes: u64,
}

/// A game state whose remaining play can be solved exactly.
pub trait Solve: GameState {
    /// Solve the rest of the current deal's play from `self` (phase `"play"`, a player to move);
    /// any other phase, a chance node or the end is an
    /// [`Error::InvalidValue`] naming the phase.
    fn solve(&self, objective: Objective) -> Result<Solution>;

    /// Only [`Solution::action_values`] (what the PIMC bot needs): a solver may skip the
    /// principal variation's work here. The same errors as [`solve`](Solve::solve).
    fn solve_values(&self, objective: Objective) -> Result<Vec<(u16, f64)>> {
        Ok(self.solve(objective)?.action_values)
    }

    /// The part of every [`Objective::Points`] value that no play changes: points the engine
    /// credits before the deal's end whatever is played, for the player to move minus the
    /// opponent (piquet under the rubicon timing, at the first lead: the dealer's declarations,
    /// [`piquet::pending_points`]); 0 by default.
    fn pending_points(&self) -> f64 {
        0.0
    }
}
