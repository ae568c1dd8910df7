//! Cribbage cards and card sets, and the card layout (the full-pack mask, the suit lanes, id ↔ mask
//! bit) that the rest of the crate uses instead of writing it out again.

use std::fmt;
use std::str::FromStr;

use crate::cards::{face_letter, parse_face, split_card, SUIT_LETTERS};
use crate::error::{Error, Result};

use super::tables::{RANK_KEYS, UNIT_SHIFT};

// The card layout, declared once for the whole crate: a card is bit `suit * 16 + rank` of a `u64`
// mask (a 16-bit lane per suit, ranks ace..king in its low 13 bits); its public id is
// `suit * 13 + rank`.

/// One suit's 13 cards in the lane's low bits (`mask >> (16 * suit) & SUIT_LANE`).
pub(crate) const SUIT_LANE: u64 = 0x1FFF;
/// Every card of the pack as a mask.
pub(crate) const FULL_PACK: u64 = 0x1FFF_1FFF_1FFF_1FFF;

/// Mask bit by public card id (a lookup beats the division by 13 on the hot path).
const ID_TO_INDEX: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut id = 0;
    while id < 52 {
        t[id] = ((id / 13) * 16 + id % 13) as u8;
        id += 1;
    }
    t
};

/// Mask bit of a public card id (`suit * 13 + rank`, must be < 52).
#[inline(always)]
pub(crate) const fn id_to_index(id: u16) -> u32 {
    ID_TO_INDEX[(id & 63) as usize] as u32
}

/// Public card id of a mask bit.
#[inline(always)]
pub(crate) const fn index_to_id(index: u32) -> u16 {
    ((index >> 4) * 13 + (index & 15)) as u16
}

/// One card of the 52-card pack.
///
/// The public id is `suit * 13 + rank` (rank 0 = ace .. 12 = king; suits clubs, diamonds,
/// hearts, spades), the order every array API uses. Internally a card is its bit position in a
/// [`Hand`] mask, `suit * 16 + rank`.
///
/// ```
/// use cribpiquet::cribbage::Card;
/// let c: Card = "10♥".parse().unwrap();
/// assert_eq!((c.rank(), c.suit(), c.id(), c.pips()), (9, 2, 35, 10));
/// assert_eq!(c.to_string(), "TH");
/// assert_eq!(Card::from_id(35).unwrap(), c);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the pack.
    pub const COUNT: u8 = 52;

    /// The card with rank `0..13` (A..K) and suit `0..4` (C D H S).
    pub fn new(rank: u8, suit: u8) -> Result<Card> {
        crate::cards::check_rank_suit(rank, suit, 13, "")?;
        Ok(Card(suit * 16 + rank))
    }

    /// The card with public id `0..52`.
    #[inline]
    pub fn from_id(id: i64) -> Result<Card> {
        let id = crate::cards::card_id(id, Card::COUNT)?;
        Ok(Card(id_to_index(id as u16) as u8))
    }

    /// The card at bit position `index` of a [`Hand`] mask (`suit * 16 + rank`).
    #[inline]
    pub(crate) fn from_index(index: u32) -> Card {
        debug_assert!(index & 15 < 13 && index < 64);
        Card(index as u8)
    }

    /// The card at bit position `index`, in constant contexts (tables).
    pub(crate) const fn from_index_const(index: u8) -> Card {
        Card(index)
    }

    /// The public id, `suit * 13 + rank`.
    #[inline]
    pub fn id(self) -> u8 {
        index_to_id(self.index()) as u8
    }

    /// Rank 0..13: ace = 0 .. king = 12.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 & 15
    }

    /// Suit 0..4: clubs, diamonds, hearts, spades.
    #[inline]
    pub fn suit(self) -> u8 {
        self.0 >> 4
    }

    /// Pip value for fifteens and the count: ace 1, 2..10, court cards 10.
    #[inline]
    pub fn pips(self) -> u8 {
        (self.rank() + 1).min(10)
    }

    /// The bit position in a [`Hand`] mask.
    #[inline]
    pub fn index(self) -> u32 {
        self.0 as u32
    }

    /// The single-bit mask of this card.
    #[inline]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Is this card a jack?
    #[inline]
    pub fn is_jack(self) -> bool {
        self.rank() == 10
    }

    /// Every card, in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(|id| Card::from_id(id).unwrap())
    }
}

impl FromStr for Card {
    type Err = Error;

    /// Parse `5H`, `10♥`, `th`, …: a rank `A 2..10 T J Q K` and a suit `C D H S` or symbol.
    fn from_str(text: &str) -> Result<Card> {
        let unknown = || Error::UnknownCard(text.to_string());
        let (rank, suit) = split_card(text).ok_or_else(unknown)?;
        let face = parse_face(rank).ok_or_else(unknown)?;
        Card::new(face - 1, suit)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", face_letter(self.rank() + 1), SUIT_LETTERS[self.suit() as usize])
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Card({self})")
    }
}

/// A set of cribbage cards: a `u64` mask with a 16-bit lane per suit, plus an additive rank key.
///
/// Adding a card ORs its bit into the mask and adds its rank's key, so building, enumerating and
/// undoing hands costs two operations per card; the show score is then one table lookup on the
/// key (see [`score_hand`](super::score_hand)).
///
/// ```
/// use cribpiquet::cribbage::{Card, Hand};
/// let mut hand = Hand::new();
/// assert!(hand.insert("5H".parse().unwrap()));
/// assert!(!hand.insert("5H".parse().unwrap())); // already there
/// hand.insert(Card::from_id(0).unwrap());
/// assert_eq!(hand.len(), 2);
/// assert_eq!(hand.iter().map(|c| c.to_string()).collect::<Vec<_>>(), ["AC", "5H"]);
/// assert!(hand.remove("AC".parse().unwrap()));
/// assert_eq!(hand.to_string(), "5H");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    mask: u64,
    key: u32,
}

impl Hand {
    /// The empty hand.
    pub const fn new() -> Hand {
        Hand { mask: 0, key: 0 }
    }

    /// A hand from a mask and its matching key (the batch readers build both at once).
    #[inline(always)]
    pub(crate) fn from_raw(mask: u64, key: u32) -> Hand {
        Hand { mask, key }
    }

    /// The hand holding exactly the cards of `mask` (bits `suit * 16 + rank`).
    pub fn from_mask(mask: u64) -> Result<Hand> {
        if mask & !FULL_PACK != 0 {
            return Err(Error::InvalidValue(format!("mask {mask:#x} has bits that are not cards")));
        }
        let mut hand = Hand::new();
        let mut m = mask;
        while m != 0 {
            hand.add(Card::from_index(m.trailing_zeros()));
            m &= m - 1;
        }
        Ok(hand)
    }

    /// Add a card that is not in the hand (adding a held card corrupts the key; use
    /// [`insert`](Hand::insert) when unsure).
    #[inline]
    pub fn add(&mut self, card: Card) {
        debug_assert!(!self.contains(card));
        self.mask |= card.bit();
        self.key += RANK_KEYS[card.rank() as usize];
    }

    /// Add a card if absent; returns whether it was added.
    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        if self.contains(card) {
            return false;
        }
        self.add(card);
        true
    }

    /// Remove a card if present; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        if !self.contains(card) {
            return false;
        }
        self.mask &= !card.bit();
        self.key -= RANK_KEYS[card.rank() as usize];
        true
    }

    /// This hand with `card` added (no check).
    #[inline]
    pub fn with(mut self, card: Card) -> Hand {
        self.add(card);
        self
    }

    /// Does the hand hold `card`?
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.mask & card.bit() != 0
    }

    /// Number of cards (kept in the key, so no popcount is needed).
    #[inline]
    pub fn len(self) -> usize {
        (self.key >> UNIT_SHIFT) as usize
    }

    /// Is the hand empty?
    #[inline]
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// The card mask (bit `suit * 16 + rank`).
    #[inline]
    pub fn mask(self) -> u64 {
        self.mask
    }

    /// The additive rank key: the sum of one generated key per card, whose top bits count the
    /// cards.
    #[inline]
    pub fn key(self) -> u32 {
        self.key
    }

    /// The cards, clubs first, each suit from ace up.
    pub fn iter(self) -> HandIter {
        HandIter(self.mask)
    }
}

crate::cards::card_set_traits!(Hand, HandIter, Card, u64);

/// Parse a list of cards separated by spaces or commas, in the order given.
///
/// ```
/// let cards = cribpiquet::cribbage::parse_cards("5H 5d,10♠ JC").unwrap();
/// assert_eq!(cards.iter().map(|c| c.id()).collect::<Vec<_>>(), [30, 17, 48, 10]);
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    crate::cards::parse_list(text)
}
