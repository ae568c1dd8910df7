//! [`StateStack`]: a state with its history and exact undo, for any engine.

use std::sync::Arc;

use super::{game_seed, GameState};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// A state with its action history and an undo stack: what a Python `State` holds.
///
/// [`apply_action`](StateStack::apply_action) checks the action and pushes the state before it;
/// [`undo_action`](StateStack::undo_action) pops it, so undo is exact. A [`copy`](StateStack::copy)
/// shares the root and copies the history but not the saved states: it rebuilds them by replay
/// from the root the first time it undoes, so cloning stays cheap during search.
///
/// ```
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::cribbage::{GameConfig, StateStack};
/// let mut stack = StateStack::new(GameConfig::default().new_initial_state());
/// let before = *stack.state();
/// stack.apply_action(7).unwrap();
/// assert_eq!(stack.history(), &[7]);
/// assert_eq!(stack.undo_action().unwrap(), 7);
/// assert_eq!(*stack.state(), before);
/// assert!(stack.undo_action().is_err());
/// ```
#[derive(Debug, Clone)]
pub struct StateStack<S> {
    state: S,
    /// The state before `history[0]` (shared by copies: it never changes).
    root: Arc<S>,
    history: Vec<u16>,
    /// The states before the last `previous.len()` actions of `history` (a suffix: a copy starts
    /// with none and rebuilds the rest by replay from `root` when undo needs it).
    previous: Vec<S>,
}

impl<S: GameState> StateStack<S> {
    /// A stack whose current state is `state`, with no history.
    pub fn new(state: S) -> StateStack<S> {
        StateStack { state, root: Arc::new(state), history: Vec::new(), previous: Vec::new() }
    }

    /// A stack from a root state and its history, replayed (every action checked).
    pub fn replay(root: S, history: &[u16]) -> Result<StateStack<S>> {
        let mut out = StateStack::new(root);
        out.history.reserve(history.len());
        out.previous.reserve(history.len());
        for &a in history {
            out.apply_action(a)?;
        }
        Ok(out)
    }

    /// An independent copy with the same history (its undo stack is rebuilt on demand).
    pub fn copy(&self) -> StateStack<S> {
        StateStack {
            state: self.state,
            root: Arc::clone(&self.root),
            history: self.history.clone(),
            previous: Vec::new(),
        }
    }

    /// The current state.
    #[inline]
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The state before the history.
    pub fn root(&self) -> &S {
        &self.root
    }

    /// The actions applied through this stack, oldest first.
    #[inline]
    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// The chance outcome drawn for `seed` at this point of the history, `None` unless a chance
    /// event is next: the engine's own draw ([`GameState::sample_chance`], what `simulate` uses)
    /// from an [`Rng`] seeded with [`game_seed`]`(seed, history length)`, so one seed gives a
    /// whole game of different draws, and the same draw again after an undo.
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::cribbage::{GameConfig, StateStack};
    /// let mut stack = StateStack::new(GameConfig::default().new_initial_state());
    /// let card = stack.sample_chance(7).unwrap();
    /// assert_eq!(stack.sample_chance(7), Some(card)); // deterministic
    /// stack.apply_action(card).unwrap();
    /// ```
    pub fn sample_chance(&self, seed: u64) -> Option<u16> {
        self.state.sample_chance(&mut Rng::new(game_seed(seed, self.history.len() as u64)))
    }

    /// Apply an action (any integer: an id out of range is illegal too); an illegal one is an
    /// [`Error::Illegal`] naming it and the legal set, and changes nothing.
    #[inline]
    pub fn apply_action(&mut self, action: impl Into<i64>) -> Result<()> {
        let action = action.into();
        match u16::try_from(action) {
            Ok(a) if self.state.is_legal(a) => {
                let before = self.state;
                self.state.apply_legal(a);
                self.previous.push(before);
                self.history.push(a);
                Ok(())
            }
            _ => Err(self.state.illegal_action_error(action)),
        }
    }

    /// This stack after `action`, as a new stack (this one is unchanged).
    pub fn child(&self, action: impl Into<i64>) -> Result<StateStack<S>> {
        let mut next = self.copy();
        next.apply_action(action)?;
        Ok(next)
    }

    /// Fill in the states before the actions not covered by `previous`, by replay from `root`.
    fn rebuild_previous(&mut self) {
        let missing = self.history.len() - self.previous.len();
        if missing == 0 {
            return;
        }
        let mut states = Vec::with_capacity(self.history.len());
        let mut s = *self.root;
        for &a in &self.history[..missing] {
            states.push(s);
            s.apply_legal(a);
        }
        states.extend_from_slice(&self.previous);
        self.previous = states;
    }

    /// Undo the last action exactly and return it; an error if there is none.
    pub fn undo_action(&mut self) -> Result<u16> {
        self.undo_checked(None, None)
    }

    /// Undo the last action, checking OpenSpiel's optional `player` (who took it) and `action`
    /// (what it was) first; on a mismatch nothing changes.
    pub fn undo_checked(&mut self, player: Option<i64>, action: Option<i64>) -> Result<u16> {
        let Some(&last) = self.history.last() else {
            return Err(Error::Illegal("undo_action: no action to undo".into()));
        };
        if let Some(a) = action {
            if a != last as i64 {
                return Err(Error::Illegal(format!("undo_action: the last action is {last}, not {a}")));
            }
        }
        if self.previous.is_empty() {
            self.rebuild_previous();
        }
        let Some(&before) = self.previous.last() else {
            return Err(Error::Illegal("undo_action: no state to restore (internal error)".into()));
        };
        if let Some(p) = player {
            if p != before.current_player() as i64 {
                return Err(Error::Illegal(format!(
                    "undo_action: action {last} was taken by {}, not {p}",
                    before.current_player()
                )));
            }
        }
        self.previous.pop();
        self.history.pop();
        self.state = before;
        Ok(last)
    }
}
