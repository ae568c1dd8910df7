//! What a game engine offers to search and playouts ([`GameState`]), and the players that choose
//! moves in playouts ([`Policy`]).
//!
//! Both games implement [`GameState`] (cribbage now, piquet later), so a bot written against it
//! — greedy, IS-MCTS, a neural policy — plugs into every engine's `simulate` and into a search
//! loop without changes. The names are OpenSpiel's.
//!
//! ```
//! use cribpiquet::cribbage::{GameConfig, Variant};
//! use cribpiquet::policy::{play_out, FirstPolicy, Policy, RandomPolicy};
//! use cribpiquet::rng::Rng;
//!
//! let config = GameConfig::new(Variant::SixCard, None).unwrap();
//! let mut players: Vec<Box<dyn Policy<_>>> = vec![Box::new(RandomPolicy), Box::new(FirstPolicy)];
//! let end = play_out(config.new_initial_state(), &mut players, &mut Rng::new(7)).unwrap();
//! assert!(end.is_terminal());
//! assert_eq!(end.returns()[0] + end.returns()[1], 0.0);
//! ```

use crate::error::{Error, Result};
use crate::rng::Rng;

/// A player id: `0..num_players`, or one of the sentinels [`CHANCE`] and [`TERMINAL`]
/// (OpenSpiel's `kChancePlayerId` and `kTerminalPlayerId`).
pub type Player = i32;

/// The "player" to move at a chance node (a deal, a cut).
pub const CHANCE: Player = -1;

/// The "player" to move once the game is over.
pub const TERMINAL: Player = -4;

/// A game state as search and playouts see it: actions are small dense integers (`u16`), chance
/// outcomes are actions too.
///
/// Implementations are cheap to clone (a `Copy` struct in both engines), so search keeps copies
/// instead of undoing.
pub trait GameState: Clone + Send + Sync {
    /// Number of players (seats).
    fn num_players(&self) -> usize;

    /// The player to move, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> Player;

    /// Is a chance event (a card dealt or cut) next?
    fn is_chance_node(&self) -> bool;

    /// Is the game over?
    fn is_terminal(&self) -> bool;

    /// The legal actions in ascending order (the chance outcomes at a chance node), written into
    /// `out` after clearing it; a caller that reuses `out` allocates nothing.
    fn legal_actions_into(&self, out: &mut Vec<u16>);

    /// The chance outcomes with their probabilities (ascending actions), into `out` after clearing
    /// it; empty unless [`is_chance_node`](GameState::is_chance_node).
    fn chance_outcomes_into(&self, out: &mut Vec<(u16, f64)>);

    /// One chance outcome drawn with its probability, or `None` if this is not a chance node.
    fn sample_chance(&self, rng: &mut Rng) -> Option<u16>;

    /// Apply an action; an illegal one is an [`Error::Illegal`] and leaves the state unchanged.
    fn apply_action(&mut self, action: u16) -> Result<()>;

    /// The final payoff of `player` (0 before the end, and for an unknown player).
    fn player_return(&self, player: usize) -> f64;

    /// Everything `player` knows, as text; equal strings mean equal information.
    fn information_state_string(&self, player: usize) -> Result<String>;

    /// A state drawn uniformly among those consistent with what `player` has seen (the hidden
    /// cards redealt): the determinization step of IS-MCTS.
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Result<Self>;
}

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

/// The names `simulate` accepts for the built-in policies.
pub const POLICY_NAMES: [&str; 2] = ["random", "first"];

/// A factory for a built-in policy by name: `"random"` or `"first"`.
///
/// ```
/// use cribpiquet::cribbage::State;
/// assert!(cribpiquet::policy::policy_by_name::<State>("first").is_ok());
/// assert!(cribpiquet::policy::policy_by_name::<State>("greedy").is_err());
/// ```
pub fn policy_by_name<S: GameState + 'static>(name: &str) -> Result<PolicyFactory<S>> {
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(Box::new(|_| Box::new(RandomPolicy))),
        "first" => Ok(Box::new(|_| Box::new(FirstPolicy))),
        _ => Err(Error::InvalidValue(format!("unknown policy {name:?} (known: {})", POLICY_NAMES.join(", ")))),
    }
}

/// Play `state` to the end: chance nodes sampled with `rng`, player `p` choosing with
/// `policies[p % policies.len()]`. Returns the terminal state.
pub fn play_out<S: GameState>(mut state: S, policies: &mut [Box<dyn Policy<S>>], rng: &mut Rng) -> Result<S> {
    if policies.is_empty() {
        return Err(Error::InvalidValue("play_out needs at least one policy".into()));
    }
    let mut legal = Vec::with_capacity(64);
    while !state.is_terminal() {
        let action = match state.sample_chance(rng) {
            Some(a) => a,
            None => {
                state.legal_actions_into(&mut legal);
                let p = state.current_player().max(0) as usize % policies.len();
                policies[p].choose(&state, &legal, rng)
            }
        };
        state.apply_action(action)?;
    }
    Ok(state)
}

/// A stack of states for `undo_action`, for any [`GameState`] that is `Copy`:
/// [`apply_action`](StateStack::apply_action) pushes the state before the action,
/// [`undo_action`](StateStack::undo_action) pops it, and the action history is kept alongside.
///
/// ```
/// use cribpiquet::cribbage::{GameConfig, StateStack};
/// let mut stack = StateStack::new(GameConfig::default().new_initial_state());
/// let before = *stack.state();
/// stack.apply_action(7).unwrap();
/// assert_eq!(stack.history(), &[7]);
/// stack.undo_action().unwrap();
/// assert_eq!(*stack.state(), before);
/// ```
#[derive(Debug, Clone)]
pub struct StateStack<S> {
    state: S,
    previous: Vec<S>,
    history: Vec<u16>,
}

impl<S: GameState + Copy> StateStack<S> {
    /// A stack whose current state is `state`, with no history.
    pub fn new(state: S) -> StateStack<S> {
        StateStack { state, previous: Vec::new(), history: Vec::new() }
    }

    /// The current state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The actions applied through this stack, oldest first.
    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// Apply an action (the state is unchanged on error).
    pub fn apply_action(&mut self, action: u16) -> Result<()> {
        let before = self.state;
        self.state.apply_action(action)?;
        self.previous.push(before);
        self.history.push(action);
        Ok(())
    }

    /// Undo the last action exactly; an error if there is none.
    pub fn undo_action(&mut self) -> Result<u16> {
        match (self.previous.pop(), self.history.pop()) {
            (Some(state), Some(action)) => {
                self.state = state;
                Ok(action)
            }
            _ => Err(crate::error::Error::Illegal("undo_action: no action to undo".into())),
        }
    }
}

/// The seed of game `index` of a `simulate` run: a hash of (seed, index), so a game's result
/// does not depend on which thread plays it.
pub(crate) fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03).wrapping_add(0x8CB9_2BA7_2F3D_8DD7);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^ (z >> 32)
}

/// A list of at most 63 actions on the stack (what the engines' `legal_actions` return):
/// dereferences to `&[u16]`. Cribbage has at most 52 legal actions, piquet 32.
#[derive(Clone, Copy)]
pub struct ActionList {
    len: u8,
    /// 64 slots: indexing with `& 63` needs no bounds check.
    items: [u16; 64],
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl std::fmt::Debug for ActionList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for ActionList {
    fn eq(&self, other: &ActionList) -> bool {
        **self == **other
    }
}

impl ActionList {
    /// The empty list.
    #[inline]
    pub const fn new() -> ActionList {
        ActionList { len: 0, items: [0; 64] }
    }

    /// Empty the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Append an action (the engines never push more than 63).
    #[inline]
    pub(crate) fn push(&mut self, action: u16) {
        self.items[self.len as usize & 63] = action;
        self.len = (self.len + 1).min(63);
    }

    /// Append `id_of(bit)` for each set bit of `mask`, lowest bit first.
    #[inline]
    pub(crate) fn push_bits(&mut self, mask: u64, id_of: impl Fn(u32) -> u16) {
        let mut m = mask;
        while m != 0 {
            self.push(id_of(m.trailing_zeros()));
            m &= m - 1;
        }
    }
}

impl std::ops::Deref for ActionList {
    type Target = [u16];
    #[inline]
    fn deref(&self) -> &[u16] {
        &self.items[..self.len as usize & 63]
    }
}
