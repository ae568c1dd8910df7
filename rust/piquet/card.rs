//! Piquet cards (the 32-card pack, 7 to ace) and card sets, and the card layout (the full-pack
//! mask, the suit lanes) that the rest of the crate uses instead of writing it out again.

use std::fmt;
use std::str::FromStr;

use crate::cards::{face_letter, parse_face, split_card, SUIT_LETTERS};
use crate::error::{Error, Result};

// The card layout, declared once for the whole crate: a card is bit `suit * 8 + rank` of a `u32`
// mask (an 8-bit lane per suit, ranks 7..ace), and its public id is that bit.

/// One suit's 8 cards in the lane's low bits (`mask >> (8 * suit) & SUIT_LANE`).
pub(crate) const SUIT_LANE: u32 = 0xFF;
/// Every card of the pack as a mask.
pub(crate) const FULL_PACK: u32 = u32::MAX;

/// The cards of the suit of the card at bit `index`.
#[inline(always)]
pub(crate) const fn suit_mask(index: u32) -> u32 {
    SUIT_LANE << (index & 24)
}

/// Face value (1 = ace, 7..=10, 11 = jack, 12 = queen, 13 = king) of each piquet rank 0..8.
const RANK_FACES: [u8; 8] = [7, 8, 9, 10, 11, 12, 13, 1];

/// Point values of the ranks (7, 8, 9 face value; 10, J, Q, K 10; ace 11): used only to break
/// a tie on the point (rules §1).
pub(crate) const POINT_VALUES: [u8; 8] = [7, 8, 9, 10, 10, 10, 10, 11];

/// English rank names, singular and plural, for announcements.
pub(crate) const RANK_NAMES: [(&str, &str); 8] = [
    ("seven", "sevens"),
    ("eight", "eights"),
    ("nine", "nines"),
    ("ten", "tens"),
    ("jack", "jacks"),
    ("queen", "queens"),
    ("king", "kings"),
    ("ace", "aces"),
];

/// One card of the 32-card piquet pack.
///
/// The public id is `suit * 8 + rank` (rank 0 = 7, 1 = 8, 2 = 9, 3 = 10, 4 = J, 5 = Q, 6 = K,
/// 7 = A; suits clubs, diamonds, hearts, spades), which is also the card's bit in a [`Hand`].
/// Text forms as in cribbage: `AS`, `10H` or `TH`, `7♣`, any case; printed `TH` style.
///
/// ```
/// use cribpiquet::piquet::Card;
/// let c: Card = "10♥".parse().unwrap();
/// assert_eq!((c.rank(), c.suit(), c.id(), c.point_value()), (3, 2, 19, 10));
/// assert_eq!(c.to_string(), "TH");
/// assert_eq!(Card::from_id(19).unwrap(), c);
/// assert!("5H".parse::<Card>().is_err()); // no fives in piquet
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the pack.
    pub const COUNT: u8 = 32;

    /// The card with rank `0..8` (7..A) and suit `0..4` (C D H S).
    ///
    /// ```
    /// use cribpiquet::piquet::Card;
    /// assert_eq!(Card::new(7, 3).unwrap().to_string(), "AS");
    /// assert!(Card::new(8, 0).is_err());
    /// ```
    pub fn new(rank: u8, suit: u8) -> Result<Card> {
        crate::cards::check_rank_suit(rank, suit, 8, "piquet ")?;
        Ok(Card(suit * 8 + rank))
    }

    /// The card with public id `0..32`.
    ///
    /// ```
    /// use cribpiquet::piquet::Card;
    /// assert_eq!(Card::from_id(0).unwrap().to_string(), "7C");
    /// assert!(Card::from_id(32).is_err());
    /// ```
    #[inline]
    pub fn from_id(id: i64) -> Result<Card> {
        Ok(Card(crate::cards::card_id(id, Card::COUNT)?))
    }

    /// The card at bit `index` (`0..32`) of a hand mask, unchecked beyond a debug assertion.
    #[inline]
    pub(crate) fn from_index(index: u32) -> Card {
        debug_assert!(index < 32);
        Card(index as u8)
    }

    /// The public id, `suit * 8 + rank` (also the bit position in a [`Hand`]).
    ///
    /// ```
    /// assert_eq!("AS".parse::<cribpiquet::piquet::Card>().unwrap().id(), 31);
    /// ```
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    /// Rank 0..8: 7 = 0, 8, 9, 10, J, Q, K, ace = 7 (the trick and sequence order).
    ///
    /// ```
    /// assert_eq!("QD".parse::<cribpiquet::piquet::Card>().unwrap().rank(), 5);
    /// ```
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 & 7
    }

    /// Suit 0..4: clubs, diamonds, hearts, spades.
    ///
    /// ```
    /// assert_eq!("QD".parse::<cribpiquet::piquet::Card>().unwrap().suit(), 1);
    /// ```
    #[inline]
    pub fn suit(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit mask of this card.
    ///
    /// ```
    /// assert_eq!("8C".parse::<cribpiquet::piquet::Card>().unwrap().bit(), 0b10);
    /// ```
    #[inline]
    pub fn bit(self) -> u32 {
        1u32 << self.0
    }

    /// The value counted to break a tie on the point: ace 11; K, Q, J, 10 10; 9, 8, 7 face value.
    ///
    /// ```
    /// use cribpiquet::piquet::Card;
    /// let v: Vec<u8> = ["AH", "KH", "TH", "9H", "7H"].iter().map(|t| t.parse::<Card>().unwrap().point_value()).collect();
    /// assert_eq!(v, [11, 10, 10, 9, 7]);
    /// ```
    #[inline]
    pub fn point_value(self) -> u8 {
        POINT_VALUES[self.rank() as usize]
    }

    /// Is this a court card (king, queen or jack)? A dealt hand without one is carte blanche.
    ///
    /// ```
    /// use cribpiquet::piquet::Card;
    /// assert!("JC".parse::<Card>().unwrap().is_court() && !"AC".parse::<Card>().unwrap().is_court());
    /// ```
    #[inline]
    pub fn is_court(self) -> bool {
        (4..=6).contains(&self.rank())
    }

    /// The English rank name (`"seven"` … `"ace"`).
    ///
    /// ```
    /// assert_eq!("TH".parse::<cribpiquet::piquet::Card>().unwrap().rank_name(), "ten");
    /// ```
    pub fn rank_name(self) -> &'static str {
        RANK_NAMES[self.rank() as usize].0
    }

    /// Every card, in id order.
    ///
    /// ```
    /// assert_eq!(cribpiquet::piquet::Card::all().count(), 32);
    /// ```
    pub fn all() -> impl Iterator<Item = Card> {
        (0..32).map(Card)
    }
}

impl FromStr for Card {
    type Err = Error;

    /// Parse `AS`, `10♥`, `th`, …: a rank `7 8 9 10 T J Q K A` and a suit `C D H S` or symbol.
    fn from_str(text: &str) -> Result<Card> {
        let unknown = || Error::UnknownCard(text.to_string());
        let (rank, suit) = split_card(text).ok_or_else(unknown)?;
        let rank = match parse_face(rank).ok_or_else(unknown)? {
            1 => 7,
            face @ 7..=13 => face - 7,
            _ => return Err(unknown()),
        };
        Card::new(rank, suit)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", face_letter(RANK_FACES[self.rank() as usize]), SUIT_LETTERS[self.suit() as usize])
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Card({self})")
    }
}

/// A set of piquet cards: a `u32` mask with an 8-bit lane per suit (bit `suit * 8 + rank`, the
/// card id), so per-suit questions are byte operations on the mask.
///
/// ```
/// use cribpiquet::piquet::{Card, Hand};
/// let mut hand = Hand::new();
/// assert!(hand.insert("AH".parse().unwrap()));
/// assert!(!hand.insert("AH".parse().unwrap())); // already there
/// hand.insert(Card::from_id(0).unwrap());
/// assert_eq!(hand.len(), 2);
/// assert_eq!(hand.to_string(), "7C AH");
/// assert_eq!(hand.lane(2), 0b1000_0000);
/// assert!(hand.remove("7C".parse().unwrap()));
/// assert_eq!(hand.mask(), 1 << 23);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(u32);

impl Hand {
    /// The empty hand.
    pub const fn new() -> Hand {
        Hand(0)
    }

    /// The hand holding exactly the cards of `mask` (every one of the 32 bits is a card).
    ///
    /// ```
    /// assert_eq!(cribpiquet::piquet::Hand::from_mask(0xFF).len(), 8);
    /// ```
    #[inline]
    pub const fn from_mask(mask: u32) -> Hand {
        Hand(mask)
    }

    /// Add a card if absent; returns whether it was added.
    ///
    /// ```
    /// let mut h = cribpiquet::piquet::Hand::new();
    /// assert!(h.insert("7C".parse().unwrap()));
    /// ```
    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        let added = self.0 & card.bit() == 0;
        self.0 |= card.bit();
        added
    }

    /// Remove a card if present; returns whether it was there.
    ///
    /// ```
    /// let mut h: cribpiquet::piquet::Hand = "7C 8C".parse().unwrap();
    /// assert!(h.remove("7C".parse().unwrap()) && !h.remove("7C".parse().unwrap()));
    /// ```
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let held = self.0 & card.bit() != 0;
        self.0 &= !card.bit();
        held
    }

    /// This hand with `card` added.
    ///
    /// ```
    /// let h = cribpiquet::piquet::Hand::new().with("7C".parse().unwrap());
    /// assert_eq!(h.len(), 1);
    /// ```
    #[inline]
    pub fn with(self, card: Card) -> Hand {
        Hand(self.0 | card.bit())
    }

    /// Does the hand hold `card`?
    ///
    /// ```
    /// let h: cribpiquet::piquet::Hand = "7C 8C".parse().unwrap();
    /// assert!(h.contains("8C".parse().unwrap()));
    /// ```
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// Number of cards.
    ///
    /// ```
    /// assert_eq!("7C 8C".parse::<cribpiquet::piquet::Hand>().unwrap().len(), 2);
    /// ```
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Is the hand empty?
    ///
    /// ```
    /// assert!(cribpiquet::piquet::Hand::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The card mask (bit `suit * 8 + rank` = card id).
    ///
    /// ```
    /// assert_eq!("8C AS".parse::<cribpiquet::piquet::Hand>().unwrap().mask(), (1 << 1) | (1 << 31));
    /// ```
    #[inline]
    pub fn mask(self) -> u32 {
        self.0
    }

    /// The 8-bit lane of one suit (bit `rank`), `suit` in `0..4`.
    ///
    /// ```
    /// assert_eq!("7H 9H AS".parse::<cribpiquet::piquet::Hand>().unwrap().lane(2), 0b101);
    /// ```
    #[inline]
    pub fn lane(self, suit: u8) -> u8 {
        (self.0 >> ((suit & 3) * 8)) as u8
    }

    /// The cards of one suit, as a hand.
    ///
    /// ```
    /// let h: cribpiquet::piquet::Hand = "7H 9H AS".parse().unwrap();
    /// assert_eq!(h.suit(3).to_string(), "AS");
    /// ```
    #[inline]
    pub fn suit(self, suit: u8) -> Hand {
        Hand(self.0 & (SUIT_LANE << ((suit & 3) * 8)))
    }

    /// The cards in both hands.
    ///
    /// ```
    /// use cribpiquet::piquet::Hand;
    /// let a: Hand = "7H 9H".parse().unwrap();
    /// assert_eq!(a.intersection("9H AS".parse().unwrap()).to_string(), "9H");
    /// ```
    #[inline]
    pub fn intersection(self, other: Hand) -> Hand {
        Hand(self.0 & other.0)
    }

    /// The cards in either hand.
    ///
    /// ```
    /// use cribpiquet::piquet::Hand;
    /// let a: Hand = "7H".parse().unwrap();
    /// assert_eq!(a.union("AS".parse().unwrap()).len(), 2);
    /// ```
    #[inline]
    pub fn union(self, other: Hand) -> Hand {
        Hand(self.0 | other.0)
    }

    /// The cards of this hand that are not in `other`.
    ///
    /// ```
    /// use cribpiquet::piquet::Hand;
    /// let a: Hand = "7H AS".parse().unwrap();
    /// assert_eq!(a.difference("AS".parse().unwrap()).to_string(), "7H");
    /// ```
    #[inline]
    pub fn difference(self, other: Hand) -> Hand {
        Hand(self.0 & !other.0)
    }

    /// The cards, clubs first, each suit from the 7 up (id order).
    ///
    /// ```
    /// let h: cribpiquet::piquet::Hand = "AS 7C".parse().unwrap();
    /// assert_eq!(h.iter().map(|c| c.id()).collect::<Vec<_>>(), [0, 31]);
    /// ```
    pub fn iter(self) -> HandIter {
        HandIter(self.0)
    }
}

crate::cards::card_set_traits!(Hand, HandIter, Card, u32);

/// Parse a list of piquet cards separated by spaces or commas, in the order given.
///
/// ```
/// let cards = cribpiquet::piquet::parse_cards("7C, ad 10♠ jh").unwrap();
/// assert_eq!(cards.iter().map(|c| c.id()).collect::<Vec<_>>(), [0, 15, 27, 20]);
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>> {
    crate::cards::parse_list(text)
}

/// Check that `hand` holds exactly 12 cards (`what` names it in the error).
pub(crate) fn check_twelve(hand: Hand, what: &'static str) -> Result<()> {
    if hand.len() != 12 {
        return Err(Error::WrongCardCount { what, expected: "12", got: hand.len() });
    }
    Ok(())
}

/// A hand in a result column is its mask (`uint32`).
impl crate::batch::Cell for Hand {
    fn column(hands: impl Iterator<Item = Hand>) -> crate::batch::Column {
        crate::batch::Column::rows(hands.map(|h| h.mask()).collect::<Vec<u32>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_form_round_trips() {
        // Rules §1: id = suit * 8 + rank, rank 0 = 7 … 7 = A; suits C D H S.
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), card);
            assert_eq!(text.to_lowercase().parse::<Card>().unwrap(), card);
            assert_eq!(Card::from_id(card.id() as i64).unwrap(), card);
        }
        assert_eq!("10♣".parse::<Card>().unwrap().id(), 3);
        assert_eq!("7♠".parse::<Card>().unwrap().id(), 24);
        assert_eq!("K♦".parse::<Card>().unwrap().id(), 14);
    }

    #[test]
    fn bad_text_and_ids_are_errors() {
        for bad in ["", "H", "6H", "2C", "1H", "11S", "AX", "A"] {
            assert_eq!(bad.parse::<Card>(), Err(Error::UnknownCard(bad.to_string())), "{bad}");
        }
        assert_eq!(Card::from_id(-1).unwrap_err().to_string(), "card id -1 is out of range (ids are 0..31)");
        assert_eq!("AH AH".parse::<Hand>().unwrap_err(), Error::DuplicateCard("AH".into()));
    }

    #[test]
    fn point_values_sum_to_75_per_suit() {
        // Rules §1: A 11; K Q J 10 10; 9 8 7 face value → 7+8+9+10*4+11 = 75.
        assert_eq!(Hand::from_mask(0xFF).iter().map(|c| c.point_value() as u32).sum::<u32>(), 75);
    }
}
