//! The simplest bots ([`RandomBot`], [`FirstBot`]), the check every bot makes before deciding
//! ([`decision_player`]), the helpers of the one-step players (`not_a_decision`, `best_of`)
//! and the adapter that lets any [`Bot`] play in playouts and `simulate`
//! ([`BotPolicy`]).

use super::Bot;
use crate::engine::{GameState, Policy, CHANCE, TERMINAL};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The player to move at `state`, or an [`Error::InvalidValue`] saying that `who` (a bot's name)
/// cannot decide at a chance node or at the end of the game.
///
/// ```
/// use cribpiquet::bots::decision_player;
/// use cribpiquet::engine::Game;
/// let start = cribpiquet::cribbage::GameConfig::default().new_initial_state();
/// let err = decision_player(&start, "random").unwrap_err().to_string();
/// assert_eq!(err, "random: no player is to move at a chance node (apply the chance outcome first)");
/// ```
pub fn decision_player<S: GameState>(state: &S, who: &str) -> Result<usize> {
    match state.current_player() {
        p if p >= 0 => Ok(p as usize),
        CHANCE => Err(Error::InvalidValue(format!(
            "{who}: no player is to move at a chance node (apply the chance outcome first)"
        ))),
        _ => Err(Error::InvalidValue(format!("{who}: no player is to move: the game is over"))),
    }
}

/// The error of a one-step player (Greedy) for a state where nobody is to decide.
pub(crate) fn not_a_decision<S: GameState>(state: &S) -> Error {
    let who = match state.current_player() {
        CHANCE => "a chance node",
        TERMINAL => "the end of the game",
        _ => "a decision",
    };
    Error::InvalidValue(format!("a bot needs a player to move; the state is at {who} (phase {})", state.phase_name()))
}

/// The action of the highest value, ties to `tie` (higher wins), then the lower action.
pub(crate) fn best_of(values: &[(u16, f64)], tie: impl Fn(u16) -> f64) -> Option<u16> {
    let mut best: Option<(u16, f64, f64)> = None;
    for &(a, v) in values {
        let t = tie(a);
        match best {
            Some((_, bv, bt)) if v < bv || (v == bv && t <= bt) => {}
            _ => best = Some((a, v, t)),
        }
    }
    best.map(|b| b.0)
}

/// Uniformly random among the legal actions (the same draw as the engine's `RandomPolicy`, so
/// it plays the same games in `simulate` as the name `"random"`). Its values are 1/n for each of
/// the n legal actions.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomBot;

impl<S: GameState> Bot<S> for RandomBot {
    fn step(&mut self, state: &S, rng: &mut Rng) -> Result<u16> {
        decision_player(state, "random")?;
        let legal = state.legal_actions();
        Ok(legal[rng.below(legal.len() as u32) as usize])
    }

    fn action_values(&mut self, state: &S, _rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        decision_player(state, "random")?;
        let legal = state.legal_actions();
        let p = 1.0 / legal.len() as f64;
        Ok(legal.iter().map(|&a| (a, p)).collect())
    }

    fn name(&self) -> String {
        "random".into()
    }
}

/// Always the lowest legal action (reproducible games for tests). Its values are 1 for the
/// lowest legal action and 0 for the others.
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstBot;

impl<S: GameState> Bot<S> for FirstBot {
    fn step(&mut self, state: &S, _rng: &mut Rng) -> Result<u16> {
        decision_player(state, "first")?;
        Ok(state.legal_actions()[0])
    }

    fn action_values(&mut self, state: &S, _rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        decision_player(state, "first")?;
        let legal = state.legal_actions();
        Ok(legal.iter().enumerate().map(|(i, &a)| (a, if i == 0 { 1.0 } else { 0.0 })).collect())
    }

    fn name(&self) -> String {
        "first".into()
    }
}

/// Any [`Bot`] as an engine [`Policy`], so it plays in [`play_out`](crate::engine::play_out) and
/// [`simulate`](crate::engine::simulate). The bot draws from the game's generator.
///
/// A policy cannot fail, so a bot's error (which a correct bot never returns at a decision node)
/// becomes an action outside the legal set, and the game stops with the engine's illegal-action
/// error.
pub struct BotPolicy<S: GameState>(pub Box<dyn Bot<S>>);

impl<S: GameState> Policy<S> for BotPolicy<S> {
    fn choose(&mut self, state: &S, _legal: &[u16], rng: &mut Rng) -> u16 {
        self.0.step(state, rng).unwrap_or(u16::MAX)
    }
}

#[cfg(test)]
mod tests;
