//! Action ids and their text.
//!
//! | ids | meaning |
//! |---|---|
//! | `0..32` | a card id (`suit * 8 + rank`): a card played, a card discarded in the exchange, and every chance outcome (the cut, the deal, a talon card drawn) |
//! | `32..41` | [`EXCHANGE_BASE`]` + n`: exchange `n` cards (`n = 0..=8`; 0 declines) |
//! | `41` | [`ANNOUNCE_CAPOT`]: announce an open capot (russian, before the first lead) |
//! | `42` | [`PASS`]: do not announce |
//!
//! [`NUM_DISTINCT_ACTIONS`] = 43; every id is legal somewhere (sizes 6..=8 only for a rubicon
//! dealer when elder took few cards).

use std::ops::Deref;

use super::State;
use crate::error::{Error, Result};
use crate::piquet::card::{parse_cards, Card};
use crate::policy::Player;

/// Number of card ids (the 32-card pack).
pub const NUM_CARDS: u16 = 32;
/// The first exchange-size action: `EXCHANGE_BASE + n` exchanges `n` cards.
pub const EXCHANGE_BASE: u16 = 32;
/// The largest exchange size (a rubicon dealer taking the whole talon).
pub const MAX_EXCHANGE: u16 = 8;
/// Announce an open capot.
pub const ANNOUNCE_CAPOT: u16 = EXCHANGE_BASE + MAX_EXCHANGE + 1;
/// Decline to announce an open capot.
pub const PASS: u16 = ANNOUNCE_CAPOT + 1;
/// Number of action ids.
pub const NUM_DISTINCT_ACTIONS: usize = PASS as usize + 1;

/// The exchange action for `n` cards (`None` above [`MAX_EXCHANGE`]).
///
/// ```
/// use cribpiquet::piquet::{exchange_action, EXCHANGE_BASE};
/// assert_eq!(exchange_action(3), Some(EXCHANGE_BASE + 3));
/// assert_eq!(exchange_action(9), None);
/// ```
pub fn exchange_action(n: u8) -> Option<u16> {
    (n as u16 <= MAX_EXCHANGE).then_some(EXCHANGE_BASE + n as u16)
}

/// The size of an exchange action, `None` if `action` is not one.
#[inline]
pub fn action_exchange_size(action: u16) -> Option<u8> {
    (EXCHANGE_BASE..=EXCHANGE_BASE + MAX_EXCHANGE).contains(&action).then(|| (action - EXCHANGE_BASE) as u8)
}

/// A list of at most 32 actions on the stack (what [`State::legal_actions`] returns):
/// dereferences to `&[u16]`.
#[derive(Clone, Copy)]
pub struct ActionList {
    len: u8,
    /// 64 slots for at most 32 actions: indexing with `& 63` needs no bounds check.
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

    #[inline]
    pub(super) fn push(&mut self, action: u16) {
        self.items[self.len as usize & 63] = action;
        self.len = (self.len + 1).min(63);
    }

    /// The card ids of a mask, ascending (mask bit = card id).
    #[inline]
    pub(super) fn push_cards(&mut self, mask: u32) {
        let mut m = mask;
        while m != 0 {
            self.push(m.trailing_zeros() as u16);
            m &= m - 1;
        }
    }
}

impl Deref for ActionList {
    type Target = [u16];
    #[inline]
    fn deref(&self) -> &[u16] {
        &self.items[..self.len as usize & 63]
    }
}

fn card_text(id: u16) -> String {
    Card::from_id(id as i64).map(|c| c.to_string()).unwrap_or_default()
}

impl State {
    /// The text of an action: a card `"AH"`, `"exchange 3"`, `"announce capot"` or `"pass"`.
    /// The text does not depend on the state (a card is a card whether dealt, discarded or
    /// played); `player` is accepted for OpenSpiel's signature. An id ≥ 43 is an error.
    pub fn action_to_string(&self, _player: Player, action: u16) -> Result<String> {
        action_to_string(action)
    }

    /// The action of a text: a card (`"AH"`, `"10♥"`), `"exchange 3"` (or `"x3"`),
    /// `"announce capot"` (or `"capot"`), `"pass"`; any case. The inverse of
    /// [`action_to_string`](State::action_to_string); legality is not checked.
    pub fn string_to_action(&self, _player: Player, text: &str) -> Result<u16> {
        string_to_action(text)
    }
}

/// See [`State::action_to_string`].
pub fn action_to_string(action: u16) -> Result<String> {
    if action < NUM_CARDS {
        Ok(card_text(action))
    } else if let Some(n) = action_exchange_size(action) {
        Ok(format!("exchange {n}"))
    } else if action == ANNOUNCE_CAPOT {
        Ok("announce capot".into())
    } else if action == PASS {
        Ok("pass".into())
    } else {
        Err(Error::InvalidValue(format!("no piquet action {action} (ids are 0..{NUM_DISTINCT_ACTIONS})")))
    }
}

/// See [`State::string_to_action`].
pub fn string_to_action(text: &str) -> Result<u16> {
    let norm = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = norm.split_whitespace().collect();
    match words.as_slice() {
        ["pass"] => return Ok(PASS),
        ["announce", "capot"] | ["capot"] | ["announce"] => return Ok(ANNOUNCE_CAPOT),
        ["exchange", n] => {
            if let Some(a) = n.parse::<u8>().ok().and_then(exchange_action) {
                return Ok(a);
            }
        }
        [w] if w.starts_with('x') && w.len() > 1 => {
            if let Some(a) = w[1..].parse::<u8>().ok().and_then(exchange_action) {
                return Ok(a);
            }
        }
        _ => {}
    }
    match parse_cards(text) {
        Ok(cards) if cards.len() == 1 => Ok(cards[0].id() as u16),
        _ => Err(Error::InvalidValue(format!(
            "{text:?} is not a piquet action (a card, \"exchange N\", \"announce capot\" or \"pass\")"
        ))),
    }
}
