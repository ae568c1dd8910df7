//! The players of playouts and `simulate` ([`Policy`]), the two built-in ones, and [`play_out`].
//! (Players by name are the bots' registry's: `bots::registry::policy_by_name`.)

use super::{ActionList, GameState};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// A player for playouts: picks one of the legal actions at a decision node.
///
/// Implementations may keep state (a search tree, statistics); `simulate` creates one instance
/// per seat per game through a [`PolicyFactory`], so results do not depend on which thread plays
/// which game.
pub trait Policy<S: GameState>: Send {
    /// Choose one of `legal` (never empty, ascending) for `state.current_player()`.
    ///
    /// Returning an action outside `legal` makes the playout fail with [`Error::Illegal`].
    fn choose(&mut self, state: &S, legal: &[u16], rng: &mut Rng) -> u16;
}

/// Makes a fresh policy for a seat: what `simulate` takes per seat.
pub type PolicyFactory<S> = Box<dyn Fn(usize) -> Box<dyn Policy<S>> + Send + Sync>;

/// Uniformly random among the legal actions.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomPolicy;

impl<S: GameState> Policy<S> for RandomPolicy {
    #[inline]
    fn choose(&mut self, _state: &S, legal: &[u16], rng: &mut Rng) -> u16 {
        legal[rng.below(legal.len() as u32) as usize]
    }
}

/// Always the lowest legal action: reproducible games for tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstPolicy;

impl<S: GameState> Policy<S> for FirstPolicy {
    #[inline]
    fn choose(&mut self, _state: &S, legal: &[u16], _rng: &mut Rng) -> u16 {
        legal[0]
    }
}

/// Play `state` to the end: chance nodes sampled with `rng`, player `p` choosing with
/// `policies[p % policies.len()]`. Returns the terminal state.
pub fn play_out<S: GameState>(mut state: S, policies: &mut [Box<dyn Policy<S>>], rng: &mut Rng) -> Result<S> {
    if policies.is_empty() {
        return Err(Error::InvalidValue("play_out needs at least one policy".into()));
    }
    let mut legal = ActionList::new();
    while !state.is_terminal() {
        let action = match state.sample_chance(rng) {
            Some(a) => a,
            None => {
                state.fill_legal_actions(&mut legal);
                let p = state.current_player().max(0) as usize % policies.len();
                policies[p].choose(&state, &legal, rng)
            }
        };
        state.apply_action(action)?;
    }
    Ok(state)
}
