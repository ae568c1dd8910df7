//! Action ids and their text.
//!
//! | ids | meaning |
//! |---|---|
//! | `0..52` | a card id (`suit * 13 + rank`): a card laid in the play, the single discard of the three- and four-player games, and every chance outcome (cut, deal, starter) |
//! | `52..1378` | a two-card discard (two-player games): `52 + pair index`, the pair `a < b` of card ids in **colex** order, `b(b−1)/2 + a` |
//! | `1378` | [`GO`] |
//!
//! [`NUM_DISTINCT_ACTIONS`] = 1379; every id is legal somewhere.

use super::{id_to_index, index_to_id};
use crate::cribbage::card::{parse_cards, Card};
use crate::engine::ActionList;
use crate::error::{Error, Result};

/// The first two-card discard id.
pub const PAIR_BASE: u16 = 52;
/// Number of two-card discards, C(52, 2).
pub const NUM_PAIRS: u16 = 1326;
/// "Go": the only legal action of a player who holds cards and none fits under 31.
pub const GO: u16 = PAIR_BASE + NUM_PAIRS;
/// Number of action ids: 52 cards + 1,326 pairs + go.
pub const NUM_DISTINCT_ACTIONS: usize = GO as usize + 1;

/// The discard action of the two cards with ids `a` and `b` (either order, distinct, < 52).
///
/// ```
/// use cribpiquet::cribbage::{action_pair, pair_action};
/// assert_eq!(pair_action(0, 1), Some(52)); // AC 2C: the first pair
/// assert_eq!(pair_action(51, 50), Some(1377)); // QS KS: the last
/// assert_eq!(action_pair(pair_action(5, 30).unwrap()), Some((5, 30)));
/// assert_eq!(pair_action(3, 3), None);
/// ```
pub fn pair_action(a: u16, b: u16) -> Option<u16> {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if lo == hi || hi >= 52 {
        return None;
    }
    Some(PAIR_BASE + hi * (hi - 1) / 2 + lo)
}

/// Low/high card of each pair index (colex order).
static PAIRS: [(u8, u8); NUM_PAIRS as usize] = {
    let mut t = [(0u8, 0u8); NUM_PAIRS as usize];
    let mut hi = 1;
    let mut k = 0;
    while hi < 52 {
        let mut lo = 0;
        while lo < hi {
            t[k] = (lo as u8, hi as u8);
            k += 1;
            lo += 1;
        }
        hi += 1;
    }
    t
};

/// The two card ids `(a, b)`, `a < b`, of a discard action; `None` if `action` is not one.
#[inline]
pub fn action_pair(action: u16) -> Option<(u16, u16)> {
    let k = action.checked_sub(PAIR_BASE)?;
    let &(lo, hi) = PAIRS.get(k as usize)?;
    Some((lo as u16, hi as u16))
}

/// Append the card ids of a mask, ascending (mask order is id order).
#[inline]
pub(super) fn push_cards(out: &mut ActionList, mask: u64) {
    out.push_bits(mask, index_to_id);
}

/// Append every two-card discard from a hand, ascending (colex: by the higher card, then the lower).
#[inline]
pub(super) fn push_pairs(out: &mut ActionList, mask: u64) {
    let mut ids = [0u16; 8];
    let mut k = 0;
    let mut m = mask;
    while m != 0 && k < ids.len() {
        ids[k] = index_to_id(m.trailing_zeros());
        k += 1;
        m &= m - 1;
    }
    for j in 1..k {
        let base = PAIR_BASE + ids[j] * (ids[j] - 1) / 2;
        for &lo in &ids[..j] {
            out.push(base + lo);
        }
    }
}

fn card_text(id: u16) -> String {
    Card::from_index(id_to_index(id)).to_string()
}

/// The text of an action (what `GameState::action_to_string` gives; it does not depend on the
/// state: a card is a card whether dealt, discarded or played). An id out of range is an error.
pub fn action_to_string(action: u16) -> Result<String> {
    if action < 52 {
        Ok(card_text(action))
    } else if let Some((a, b)) = action_pair(action) {
        Ok(format!("{}+{}", card_text(a), card_text(b)))
    } else if action == GO {
        Ok("go".to_string())
    } else {
        Err(Error::InvalidValue(format!("no cribbage action {action} (ids are 0..{})", NUM_DISTINCT_ACTIONS - 1)))
    }
}

/// The card ids an action names (what `GameState::action_cards` gives): the card of a card id,
/// both cards of a two-card discard (ascending), none for [`GO`]. An id out of range is an error.
///
/// ```
/// use cribpiquet::cribbage::{pair_action, GameConfig, GO};
/// use cribpiquet::engine::{Game, GameState};
/// let s = GameConfig::default().new_initial_state();
/// assert_eq!(s.action_cards(7).unwrap(), [7]);
/// assert_eq!(s.action_cards(pair_action(30, 5).unwrap()).unwrap(), [5, 30]);
/// assert!(s.action_cards(GO).unwrap().is_empty());
/// assert!(s.action_cards(GO + 1).is_err());
/// ```
pub fn action_cards(action: u16) -> Result<Vec<u16>> {
    if action < 52 {
        Ok(vec![action])
    } else if let Some((a, b)) = action_pair(action) {
        Ok(vec![a, b])
    } else if action == GO {
        Ok(Vec::new())
    } else {
        Err(Error::InvalidValue(format!("no cribbage action {action} (ids are 0..{})", NUM_DISTINCT_ACTIONS - 1)))
    }
}

/// The action of a text (what `GameState::string_to_action` reads; legality is not checked).
pub fn string_to_action(text: &str) -> Result<u16> {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("go") {
        return Ok(GO);
    }
    let cards = parse_cards(&trimmed.replace('+', " "))?;
    match cards.as_slice() {
        [c] => Ok(c.id() as u16),
        [a, b] => pair_action(a.id() as u16, b.id() as u16).ok_or_else(|| Error::DuplicateCard(a.to_string())),
        _ => Err(Error::InvalidValue(format!("{text:?} is not a cribbage action (a card, two cards, or \"go\")"))),
    }
}
