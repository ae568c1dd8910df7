//! What the generic bots need from high card, and nothing more: IS-MCTS's hooks
//! ([`SearchGame`]), an exact solver of the play ([`Solve`]), PIMC's hooks ([`PimcGame`]), and
//! the registry's capabilities ([`BotGame`]): no Greedy (the registry reports it "not
//! available"), PIMC over the solver.

use cribpiquet::bots::ismcts::{scaled_returns, IsmctsConfig, Rollout, SearchGame};
use cribpiquet::bots::pimc::{self, PimcConfig, PimcGame};
use cribpiquet::bots::registry::BotGame;
use cribpiquet::bots::{Bot, FirstBot};
use cribpiquet::engine::{GameState, MAX_PLAYERS};
use cribpiquet::error::{Error, Result};
use cribpiquet::rng::Rng;
use cribpiquet::solve::{Objective, Solution, Solve};

use super::game::State;

impl SearchGame for State {
    type Context = ();

    fn search_context(&self, _config: &IsmctsConfig) {}

    /// Every card is played face up.
    fn hides_move(&self, _observer: usize) -> bool {
        false
    }

    /// `"heuristic"`: the highest card; `"random"`: any.
    fn rollout_action(&self, legal: &[u16], rollout: Rollout, rng: &mut Rng) -> u16 {
        match rollout {
            Rollout::Heuristic => legal[legal.len() - 1],
            Rollout::Random => legal[rng.below(legal.len() as u32) as usize],
        }
    }

    /// The deal is the game: a rollout always ends it.
    fn leaf_values(&self, _root: &Self, _context: &(), out: &mut [f64; MAX_PLAYERS]) {
        scaled_returns(self, out)
    }
}

/// The value of a finished game for `mover`: `Win` 1 or 0, `Points` +1 or -1.
fn terminal_value(end: &State, mover: usize, objective: Objective) -> f64 {
    let won = end.winner() == Some(mover);
    match (objective, won) {
        (Objective::Win, _) => f64::from(u8::from(won)),
        (_, true) => 1.0,
        (_, false) => -1.0,
    }
}

/// The value for the player to move of the game from `state` on, both playing perfectly, with the
/// best line: `Points` the points difference (+1 or -1), `Win` 1 or 0.
fn minimax(state: &State, objective: Objective, nodes: &mut u64) -> (f64, Vec<u16>) {
    *nodes += 1;
    if state.is_terminal() {
        return (0.0, Vec::new());
    }
    let mover = state.current_player() as usize;
    let mut best: Option<(f64, Vec<u16>)> = None;
    for &a in state.legal_actions().iter() {
        let next = state.child(a).expect("a legal action");
        let (value, line) = if next.is_terminal() {
            (terminal_value(&next, mover, objective), vec![])
        } else {
            let (v, line) = minimax(&next, objective, nodes);
            (if objective == Objective::Win { 1.0 - v } else { -v }, line)
        };
        if best.as_ref().is_none_or(|b| value > b.0) {
            best = Some((value, [vec![a], line].concat()));
        }
    }
    best.expect("a decision has legal actions")
}

impl Solve for State {
    fn solve(&self, objective: Objective) -> Result<Solution> {
        if self.phase_name() != "play" {
            return Err(Error::InvalidValue(format!("high card solves the play, not the {} phase", self.phase_name())));
        }
        let mut nodes = 0;
        let mover = self.current_player() as usize;
        let mut action_values = Vec::new();
        for &a in self.legal_actions().iter() {
            let next = self.child(a)?;
            let value = if next.is_terminal() {
                terminal_value(&next, mover, objective)
            } else {
                let v = minimax(&next, objective, &mut nodes).0;
                if objective == Objective::Win {
                    1.0 - v
                } else {
                    -v
                }
            };
            action_values.push((a, value));
        }
        let (value, principal_variation) = minimax(self, objective, &mut nodes);
        let best_actions = action_values.iter().filter(|x| x.1 == value).map(|x| x.0).collect();
        Ok(Solution { value, action_values, best_actions, principal_variation, nodes })
    }
}

impl PimcGame for State {
    /// Every decision is in the play, so the one-step player is never asked; First stands in.
    type OneStep = FirstBot;

    /// The game's end (the only end a line reaches): the payoff on the objective's scale.
    fn outcome_value(&self, _from: &Self, player: usize, objective: Objective) -> f64 {
        let won = self.winner() == Some(player);
        match objective {
            Objective::Win => f64::from(u8::from(won)),
            Objective::Points => self.player_return(player),
        }
    }

    fn world_weight(&self, _world: &Self, _observer: usize) -> Result<f64> {
        Ok(1.0)
    }
}

impl BotGame for State {
    fn pimc(config: PimcConfig) -> Option<Result<Box<dyn Bot<Self>>>> {
        Some(pimc::boxed(config))
    }
}
