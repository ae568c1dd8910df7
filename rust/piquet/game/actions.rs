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

use crate::engine::ActionList;
use crate::error::{Error, Result};
use crate::piquet::card::{parse_cards, Card};

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

/// Append the card ids of a mask, ascending (mask bit = card id).
#[inline]
pub(super) fn push_cards(out: &mut ActionList, mask: u32) {
    out.push_bits(mask as u64, |bit| bit as u16);
}

fn card_text(id: u16) -> String {
    Card::from_id(id as i64).map(|c| c.to_string()).unwrap_or_default()
}

/// The text of an action (what `GameState::action_to_string` gives; it does not depend on the
/// state: a card is a card whether dealt, discarded or played). An id out of range is an error.
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
        Err(Error::InvalidValue(format!("no piquet action {action} (ids are 0..{})", NUM_DISTINCT_ACTIONS - 1)))
    }
}

/// The card ids an action names (what `GameState::action_cards` gives): the card of a card id,
/// none for an exchange size, [`ANNOUNCE_CAPOT`] and [`PASS`]. An id out of range is an error.
///
/// ```
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::piquet::{GameConfig, EXCHANGE_BASE, PASS};
/// let s = GameConfig::default().new_initial_state();
/// assert_eq!(s.action_cards(31).unwrap(), [31]);
/// assert!(s.action_cards(EXCHANGE_BASE + 3).unwrap().is_empty());
/// assert!(s.action_cards(PASS + 1).is_err());
/// ```
pub fn action_cards(action: u16) -> Result<Vec<u16>> {
    if action < NUM_CARDS {
        Ok(vec![action])
    } else if (action as usize) < NUM_DISTINCT_ACTIONS {
        Ok(Vec::new())
    } else {
        Err(Error::InvalidValue(format!("no piquet action {action} (ids are 0..{})", NUM_DISTINCT_ACTIONS - 1)))
    }
}

/// The action of a text (what `GameState::string_to_action` reads; legality is not checked).
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
