//! Declarations (хвалеж) of one hand: the point, sequences, sets and carte blanche (rules §3),
//! both as explained values and as a branch-light summary built from four table lookups.

use std::fmt;

use super::card::{check_twelve, Card, Hand, POINT_VALUES, RANK_NAMES, SUIT_LANE};
use super::rules::{Rules, CARTE_BLANCHE_POINTS, FOURTEEN_POINTS, TRIO_POINTS};
use crate::error::Result;

// ---------------------------------------------------------------------------------------------
// The lane table: everything a suit contributes, for each of the 256 possible 8-bit lanes.
// ---------------------------------------------------------------------------------------------

/// Bits of a [`LANE`] entry.
const PV_BITS: u32 = 0; // point value of the lane's cards, 0..=75 (7 bits)
const LEN_SHIFT: u32 = 7; // cards in the lane, 0..=8 (4 bits); `entry & 0x7FF` = len << 7 | value
const TOP_SHIFT: u32 = 11; // top rank of the best run (3 bits)
const BEST_SHIFT: u32 = 14; // length of the best run, 0 or 3..=8 (4 bits); `entry >> 11 & 0x7F` = len << 3 | top
const SECOND_SHIFT: u32 = 18; // length of the other run, 0 or 3..=5 (4 bits)
const COUNT_SHIFT: u32 = 22; // number of runs of 3+, 0..=2 (2 bits)

/// Per-lane facts: point value and length, the best maximal run (length, top rank), the length
/// of the second run, and the number of runs. Generated at compile time.
pub(crate) const LANE: [u32; 256] = build_lane_table();
/// [`LANE`] in memory, for lookups at run time.
static LANE_TABLE: [u32; 256] = LANE;

const fn build_lane_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut b = 0usize;
    while b < 256 {
        let (mut len, mut pv) = (0u32, 0u32);
        let (mut best_len, mut best_top, mut second, mut count) = (0u32, 0u32, 0u32, 0u32);
        let mut run = 0u32;
        let mut r = 0usize;
        while r <= 8 {
            let held = r < 8 && (b >> r) & 1 == 1;
            if held {
                len += 1;
                pv += POINT_VALUES[r] as u32;
                run += 1;
            } else {
                if run >= 3 {
                    let top = r as u32 - 1;
                    count += 1;
                    // Runs arrive in increasing top order, at most two of them in 8 ranks.
                    if run > best_len || (run == best_len && top > best_top) {
                        second = best_len;
                        best_len = run;
                        best_top = top;
                    } else {
                        second = run;
                    }
                }
                run = 0;
            }
            r += 1;
        }
        table[b] = (pv << PV_BITS)
            | (len << LEN_SHIFT)
            | (best_top << TOP_SHIFT)
            | (best_len << BEST_SHIFT)
            | (second << SECOND_SHIFT)
            | (count << COUNT_SHIFT);
        b += 1;
    }
    table
}

/// Bits set in each byte (the portable x86-64 baseline has no popcnt instruction).
static POPCOUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Court cards (J, Q, K: ranks 4..=6) of every lane.
const COURTS: u32 = 0x7070_7070;
/// Ranks that make sets (10, J, Q, K, A: ranks 3..=7).
const SET_RANKS: u8 = 0xF8;

// The packed lane entry under one rule set (`u64`). Adding the four entries of a hand sums the
// low fields (sequence value and count) without carries between them; the keys are maxima.
const SEQ_VALUE_MASK: u64 = 0xFFFF; // bits 0..16: value of the lane's sequences
const P_COUNT_SHIFT: u32 = 16; // bits 16..20: number of sequences (a hand's sum stays below 16)
const P_SEQ_SHIFT: u32 = 24; // bits 24..31: `length << 3 | top` of the lane's best sequence
const P_POINT_SHIFT: u32 = 32; // bits 32..43: `length << 7 | point value` of the lane

const fn seq_value_of(sv: [u16; 6], len: u32) -> u64 {
    if len >= 3 {
        sv[len as usize - 3] as u64
    } else {
        0
    }
}

/// The packed lane table for the sequence values `sv` (lengths 3..=8).
const fn build_packed(sv: [u16; 6]) -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut b = 0usize;
    while b < 256 {
        let e = LANE[b];
        let value =
            (seq_value_of(sv, (e >> BEST_SHIFT) & 15) + seq_value_of(sv, (e >> SECOND_SHIFT) & 15)) & SEQ_VALUE_MASK;
        table[b] = value
            | (((e >> COUNT_SHIFT) & 3) as u64) << P_COUNT_SHIFT
            | (((e >> TOP_SHIFT) & 0x7F) as u64) << P_SEQ_SHIFT
            | ((e & 0x7FF) as u64) << P_POINT_SHIFT;
        b += 1;
    }
    table
}

/// Packed lanes under the russian sequence values.
pub(crate) static RUSSIAN_LANES: [u64; 256] = build_packed(Rules::russian().sequence_values);
/// Packed lanes under the rubicon sequence values.
pub(crate) static RUBICON_LANES: [u64; 256] = build_packed(Rules::rubicon().sequence_values);

/// The packed lane table for any rules (a static one for the two standard value tables).
pub(crate) fn packed_lanes(rules: &Rules) -> std::borrow::Cow<'static, [u64; 256]> {
    use std::borrow::Cow;
    if rules.sequence_values == Rules::russian().sequence_values {
        Cow::Borrowed(&RUSSIAN_LANES)
    } else if rules.sequence_values == Rules::rubicon().sequence_values {
        Cow::Borrowed(&RUBICON_LANES)
    } else {
        Cow::Owned(build_packed(rules.sequence_values))
    }
}

/// The rule numbers the fast path needs: the packed lane table and the bonus mode.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    /// Packed per-lane facts under these rules' sequence values.
    pub lanes: std::borrow::Cow<'static, [u64; 256]>,
    /// Bonuses judged in reckoning order (rubicon) rather than on totals (russian).
    pub reckoning: bool,
}

impl Compiled {
    pub(crate) fn new(rules: &Rules) -> Compiled {
        Compiled { lanes: packed_lanes(rules), reckoning: reckoning(rules) }
    }
}

#[inline]
pub(crate) fn reckoning(rules: &Rules) -> bool {
    rules.bonus_mode == super::rules::BonusMode::ReckoningOrder
}

/// What one hand brings to the comparison, as comparable keys (no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Summary {
    /// `length << 7 | point value` of the point (compare as numbers).
    pub point_key: u16,
    /// `length << 3 | top rank` of the best sequence, 0 when there is none.
    pub seq_key: u8,
    /// Number of sequences.
    pub seq_count: u8,
    /// Value of all sequences under the rules.
    pub seq_value: u16,
    /// The best set as one number: 0 none, `1 + rank` for a trio, `9 + rank` for a fourteen
    /// (see [`Summary::best_set`]).
    pub set_key: u8,
    /// Value of all sets (14 per fourteen, 3 per trio).
    pub set_value: u16,
    /// No king, queen or jack.
    pub carte_blanche: bool,
}

impl Summary {
    /// Summarise a hand: four table lookups and a few lane operations, no branches.
    #[inline(always)]
    pub(crate) fn of(mask: u32, lanes: &[u64; 256]) -> Summary {
        let a = lanes[(mask & SUIT_LANE) as usize];
        let b = lanes[((mask >> 8) & SUIT_LANE) as usize];
        let c = lanes[((mask >> 16) & SUIT_LANE) as usize];
        let d = lanes[(mask >> 24) as usize];
        let sum = a.wrapping_add(b).wrapping_add(c).wrapping_add(d);
        let point = (a >> P_POINT_SHIFT).max(b >> P_POINT_SHIFT).max((c >> P_POINT_SHIFT).max(d >> P_POINT_SHIFT));
        let seq = |x: u64| (x >> P_SEQ_SHIFT) as u8 & 0x7F;
        let seq_key = seq(a).max(seq(b)).max(seq(c).max(seq(d)));

        let [la, lb, lc, ld] = mask.to_le_bytes();
        let four = la & lb & lc & ld & SET_RANKS;
        let three = ((la & lb & (lc | ld)) | (lc & ld & (la | lb))) & SET_RANKS & !four;
        // Fourteens in bits 8..16 above trios in bits 0..8: the highest set bit orders sets as the
        // rules do (any four beats any three, then rank), with no branch.
        let sets = (four as u32) << 8 | three as u32;
        let set_key = (32 - sets.leading_zeros()) as u8;
        Summary {
            point_key: point as u16,
            seq_key,
            seq_count: ((sum >> P_COUNT_SHIFT) & 15) as u8,
            seq_value: (sum & SEQ_VALUE_MASK) as u16,
            set_key,
            // Table popcounts: the portable x86-64 baseline has no popcnt instruction.
            set_value: FOURTEEN_POINTS * POPCOUNT[four as usize] as u16 + TRIO_POINTS * POPCOUNT[three as usize] as u16,
            carte_blanche: mask & COURTS == 0,
        }
    }

    /// The suit of the point: the lowest suit whose lane has the point's key.
    #[inline(always)]
    pub(crate) fn point_suit(&self, mask: u32) -> u8 {
        let key = self.point_key as u32;
        let hit = |s: u32| ((LANE_TABLE[((mask >> (8 * s)) & SUIT_LANE) as usize] & 0x7FF) == key) as u32;
        // Bit 4 set as a floor, so the answer is defined (0) even for an inconsistent key.
        (hit(0) | hit(1) << 1 | hit(2) << 2 | hit(3) << 3 | 16).trailing_zeros() as u8 & 3
    }
}

#[cfg(test)]
impl Summary {
    /// The best set as (count, rank): (0, 0) none, (3, rank) or (4, rank).
    #[inline]
    pub(crate) fn best_set(&self) -> (u8, u8) {
        match self.set_key {
            0 => (0, 0),
            k @ 1..=8 => (3, k - 1),
            k => (4, k - 9),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Explained declarations.
// ---------------------------------------------------------------------------------------------

const NUMBER_WORDS: [&str; 9] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"];
const SEQUENCE_WORDS: [&str; 9] = ["", "", "", "tierce", "quart", "quint", "sixième", "septième", "huitième"];

/// The point: the longest suit (rules §3.2).
///
/// Among suits of equal length the one with the higher point value is the point (that is what is
/// compared); *decision*: if two suits are equal in both, the lower suit id (C < D < H < S) is
/// named — the comparison does not depend on which.
///
/// ```
/// use cribpiquet::piquet::declarations;
/// let d = declarations("AH KH QH JH 9H 7H 8C 9C TC 7D 8D 7S".parse().unwrap(), None).unwrap();
/// assert_eq!((d.point.suit, d.point.length, d.point.value), (2, 6, 57));
/// assert_eq!(d.point.name(), "point of six");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The suit, 0..4 (C D H S).
    pub suit: u8,
    /// Number of cards; the winner of the point scores this many points.
    pub length: u8,
    /// The sum of the cards' point values (the tie-break).
    pub value: u8,
    /// The cards of the suit.
    pub cards: Hand,
}

impl Point {
    /// `"point of six"`.
    pub fn name(&self) -> String {
        format!("point of {}", NUMBER_WORDS[self.length as usize])
    }

    /// The comparison key: longer wins, then higher value.
    pub(crate) fn key(&self) -> u16 {
        (self.length as u16) << 7 | self.value as u16
    }
}

/// A sequence: a maximal run of 3 or more consecutive cards of one suit (rules §3.3).
///
/// ```
/// use cribpiquet::piquet::declarations;
/// let d = declarations("AH KH QH JH TH 9C TC JC 7D 8D 7S 8S".parse().unwrap(), None).unwrap();
/// let names: Vec<String> = d.sequences.iter().map(|s| s.name()).collect();
/// assert_eq!(names, ["quint major", "tierce to the jack"]);
/// assert_eq!((d.sequences[0].value, d.sequences[1].value), (15, 13));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sequence {
    /// The suit, 0..4.
    pub suit: u8,
    /// Number of cards, 3..=8.
    pub length: u8,
    /// The highest card.
    pub top: Card,
    /// Its points under the rules it was declared with.
    pub value: u16,
    /// The cards of the run.
    pub cards: Hand,
}

impl Sequence {
    /// `"tierce major"`, `"quart to the king"`, `"quint to the jack"`, `"huitième"` (always to the
    /// ace) — the English names; the source's «терц-мажор», «кварт от короля».
    pub fn name(&self) -> String {
        let word = SEQUENCE_WORDS[self.length as usize];
        if self.length == 8 {
            word.to_string()
        } else if self.top.rank() == 7 {
            format!("{word} major")
        } else {
            format!("{word} to the {}", self.top.rank_name())
        }
    }

    /// The comparison key: longer wins, then the higher top card.
    pub(crate) fn key(&self) -> u8 {
        self.length << 3 | self.top.rank()
    }
}

/// A set: three or four cards of one rank, 10 or higher (rules §3.4).
///
/// ```
/// use cribpiquet::piquet::declarations;
/// let d = declarations("AH AC AD AS KH KC KD 7H 8H 9C 7D 8S".parse().unwrap(), None).unwrap();
/// let sets: Vec<(String, u16)> = d.sets.iter().map(|s| (s.name(), s.value)).collect();
/// assert_eq!(sets, [("fourteen aces".to_string(), 14), ("three kings".to_string(), 3)]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set {
    /// The rank, 3..=7 (10 to ace).
    pub rank: u8,
    /// 3 or 4.
    pub count: u8,
    /// 3 for three of a kind, 14 for four («четырнадцать»).
    pub value: u16,
    /// The cards.
    pub cards: Hand,
}

impl Set {
    /// `"fourteen aces"`, `"three kings"`.
    pub fn name(&self) -> String {
        let plural = RANK_NAMES[self.rank as usize].1;
        if self.count == 4 {
            format!("fourteen {plural}")
        } else {
            format!("three {plural}")
        }
    }

    /// The comparison key: any four beats any three, then the higher rank.
    pub(crate) fn key(&self) -> u8 {
        self.count << 3 | self.rank
    }
}

/// Everything one hand can declare, in reckoning order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declarations {
    /// The hand declared from (12 cards, after the exchange).
    pub hand: Hand,
    /// Carte blanche: the dealt hand (or `hand`, when no dealt hand was given) holds no K, Q, J.
    pub carte_blanche: bool,
    /// The point (the longest suit).
    pub point: Point,
    /// Every sequence, best first (longer, then higher top; equal ones by suit C..S).
    pub sequences: Vec<Sequence>,
    /// Every set, best first (fourteens before trios, higher rank first).
    pub sets: Vec<Set>,
}

impl Declarations {
    /// The best sequence, if any.
    ///
    /// ```
    /// let d = cribpiquet::piquet::declarations("AH KH QH 9C TC JC QC 7D 8D 7S 8S 9D".parse().unwrap(), None).unwrap();
    /// assert_eq!(d.best_sequence().unwrap().name(), "quart to the queen");
    /// ```
    pub fn best_sequence(&self) -> Option<&Sequence> {
        self.sequences.first()
    }

    /// The best set, if any.
    ///
    /// ```
    /// let d = cribpiquet::piquet::declarations("AH KH QH 9C TC JC QC 7D 8D 7S 8S 9D".parse().unwrap(), None).unwrap();
    /// assert!(d.best_set().is_none());
    /// ```
    pub fn best_set(&self) -> Option<&Set> {
        self.sets.first()
    }

    /// The value of all sequences.
    pub fn sequences_value(&self) -> u16 {
        self.sequences.iter().map(|s| s.value).sum()
    }

    /// The value of all sets.
    pub fn sets_value(&self) -> u16 {
        self.sets.iter().map(|s| s.value).sum()
    }

    pub(crate) fn sequence_key(&self) -> u8 {
        self.best_sequence().map_or(0, Sequence::key)
    }

    pub(crate) fn set_key(&self) -> u8 {
        self.best_set().map_or(0, Set::key)
    }
}

impl fmt::Display for Declarations {
    /// `"carte blanche, 10; point of five, 51 (TH JH QH KH AH); quint major, 15; three queens, 3"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.carte_blanche {
            write!(f, "carte blanche, {CARTE_BLANCHE_POINTS}; ")?;
        }
        write!(f, "{}, {} ({})", self.point.name(), self.point.value, self.point.cards)?;
        for s in &self.sequences {
            write!(f, "; {}, {}", s.name(), s.value)?;
        }
        for s in &self.sets {
            write!(f, "; {}, {}", s.name(), s.value)?;
        }
        Ok(())
    }
}

/// Everything a 12-card hand declares, with sequence values under the russian rules.
///
/// `dealt` is the hand as dealt (before the exchange); carte blanche is judged on it when given,
/// on `hand` otherwise. Both must hold 12 cards, and `hand` must come from `dealt` by an exchange
/// the rules allow to one player or the other (rules §2, the check of
/// [`score_declarations`](super::score_declarations)): a dealt hand that cannot have produced the
/// hand is an [`Error::Illegal`](crate::error::Error::Illegal).
///
/// ```
/// use cribpiquet::piquet::declarations;
/// let d = declarations("AH KH QH JH TH AC AD AS 7C 8C 7D 8S".parse().unwrap(), None).unwrap();
/// assert_eq!(d.to_string(), "point of five, 51 (TH JH QH KH AH); quint major, 15; fourteen aces, 14");
/// assert!(declarations("AH KH".parse().unwrap(), None).is_err());
/// // Twelve dealt cards none of which is in the hand: no exchange gives it.
/// let other = "7H 8H 9H 9C TC JC QC KC 9D TD JD QD".parse().unwrap();
/// let err = declarations("AH KH QH JH TH AC AD AS 7C 8C 7D 8S".parse().unwrap(), Some(other)).unwrap_err();
/// assert!(err.to_string().contains("holds 12 cards that were not dealt"), "{err}");
/// ```
pub fn declarations(hand: Hand, dealt: Option<Hand>) -> Result<Declarations> {
    declarations_with_rules(hand, dealt, &Rules::russian())
}

/// [`declarations`] with sequence values under `rules`.
///
/// ```
/// use cribpiquet::piquet::{declarations_with_rules, Rules};
/// let hand = "AH KH QH 9C TC JC QC 7D 8D 7S 8S 9D".parse().unwrap();
/// let d = declarations_with_rules(hand, None, &Rules::rubicon()).unwrap();
/// assert_eq!(d.sequences.iter().map(|s| s.value).collect::<Vec<_>>(), [4, 3, 3]);
/// ```
pub fn declarations_with_rules(hand: Hand, dealt: Option<Hand>, rules: &Rules) -> Result<Declarations> {
    check_twelve(hand, "hand")?;
    if let Some(dealt) = dealt {
        check_twelve(dealt, "dealt hand")?;
        // The hand must come from the dealt hand by an exchange the rules allow (either player).
        super::rules::check_exchange(hand, dealt, None, rules, 0)?;
    }
    Ok(explain(hand, dealt, rules))
}

/// The explained declarations of a checked hand.
pub(crate) fn explain(hand: Hand, dealt: Option<Hand>, rules: &Rules) -> Declarations {
    let judged = dealt.unwrap_or(hand);
    let carte_blanche = judged.iter().all(|c| !c.is_court());

    let mut point: Option<Point> = None;
    let mut sequences = Vec::new();
    for suit in 0..4u8 {
        let cards = hand.suit(suit);
        let length = cards.len() as u8;
        let value = cards.iter().map(|c| c.point_value()).sum::<u8>();
        let candidate = Point { suit, length, value, cards };
        // Strictly better only, so equal suits keep the lowest suit id.
        if point.is_none_or(|p| candidate.key() > p.key()) {
            point = Some(candidate);
        }
        // Maximal runs, read from the 7 up.
        let lane = hand.lane(suit);
        let mut start = 0u8;
        while start < 8 {
            if lane >> start & 1 == 0 {
                start += 1;
                continue;
            }
            let mut end = start;
            while end + 1 < 8 && lane >> (end + 1) & 1 == 1 {
                end += 1;
            }
            let length = end - start + 1;
            if length >= 3 {
                let run = (start..=end).map(|r| Card::new(r, suit).unwrap()).collect::<Hand>();
                sequences.push(Sequence {
                    suit,
                    length,
                    top: Card::new(end, suit).unwrap(),
                    value: rules.sequence_value(length),
                    cards: run,
                });
            }
            start = end + 1;
        }
    }
    sequences.sort_by_key(|s| (std::cmp::Reverse(s.key()), s.suit));

    let mut sets = Vec::new();
    for rank in (3..8u8).rev() {
        let cards =
            (0..4).filter_map(|suit| Card::new(rank, suit).ok()).filter(|&c| hand.contains(c)).collect::<Hand>();
        match cards.len() {
            4 => sets.push(Set { rank, count: 4, value: FOURTEEN_POINTS, cards }),
            3 => sets.push(Set { rank, count: 3, value: TRIO_POINTS, cards }),
            _ => {}
        }
    }
    sets.sort_by_key(|s| std::cmp::Reverse(s.key()));

    Declarations { hand, carte_blanche, point: point.expect("four suits were looked at"), sequences, sets }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hand(text: &str) -> Hand {
        text.parse().unwrap()
    }

    #[test]
    fn lane_table_spot_checks() {
        // 7 8 9 _ J Q K A: runs 7-9 (3, top 9) and J-A (4, top A); 7 cards, value 7+8+9+10+10+10+11.
        let e = LANE[0b1111_0111];
        assert_eq!((e >> LEN_SHIFT) & 15, 7);
        assert_eq!(e & 0x7F, 65);
        assert_eq!(((e >> BEST_SHIFT) & 15, (e >> TOP_SHIFT) & 7), (4, 7));
        assert_eq!((e >> SECOND_SHIFT) & 15, 3);
        assert_eq!((e >> COUNT_SHIFT) & 3, 2);
        // The whole suit: huitième, one run.
        let e = LANE[0xFF];
        assert_eq!(((e >> BEST_SHIFT) & 15, (e >> COUNT_SHIFT) & 3, (e >> SECOND_SHIFT) & 15), (8, 1, 0));
    }

    #[test]
    fn sequence_names_follow_the_source() {
        // Source: «кварт-мажор», «терц-мажор» from the ace; «кварт от короля», «терц от валета».
        let d = declarations(hand("AH KH QH JH KC QC JC 7D 8D 9D 7S 8S"), None).unwrap();
        let names: Vec<String> = d.sequences.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["quart major", "tierce to the king", "tierce to the nine"]);
        let d = declarations(hand("7H 8H 9H TH JH QH KH AH 7C 8C 9C 7D"), None).unwrap();
        assert_eq!(d.sequences[0].name(), "huitième");
        assert_eq!(d.sequences[0].value, 18); // «восемь восемнадцать»
        let d = declarations(hand("7H 8H 9H TH JH QH KH 7C 8C AC 7D 9S"), None).unwrap();
        assert_eq!((d.sequences[0].name().as_str(), d.sequences[0].value), ("septième to the king", 17));
    }

    #[test]
    fn a_suit_may_hold_two_sequences() {
        // Rules §3.3: "maximal runs; a suit may hold two".
        let d = declarations(hand("7H 8H 9H JH QH KH AH 7C 9C JC 7D 9S"), None).unwrap();
        let v: Vec<(u8, u8)> = d.sequences.iter().map(|s| (s.length, s.top.rank())).collect();
        assert_eq!(v, [(4, 7), (3, 2)]);
    }

    #[test]
    fn only_ten_to_ace_make_sets() {
        // Rules §3.4: "only 10, J, Q, K, A count" — «Ниже десятки ни четырнадцать, ни три не считаются».
        let d = declarations(hand("7H 7C 7D 7S 9H 9C 9D TH TC TD 8S AS"), None).unwrap();
        assert_eq!(d.sets.len(), 1);
        assert_eq!(d.sets[0].name(), "three tens");
    }

    #[test]
    fn the_hand_must_come_from_the_dealt_hand_by_an_allowed_exchange() {
        // Issue 8.5 / rules §2: the check of score_declarations, for a hand of either player.
        // `kept(n)`: the dealt hand with its last n cards exchanged for n talon cards.
        let dealt: Vec<&str> = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split(' ').collect();
        let talon: Vec<&str> = "KD QD JD KS QS JS AS TS".split(' ').collect();
        let kept = |n: usize| -> Hand {
            dealt[..12 - n].iter().chain(&talon[..n]).copied().collect::<Vec<_>>().join(" ").parse().unwrap()
        };
        let dealt_hand: Hand = dealt.join(" ").parse().unwrap();
        let allowed = |n: usize, rules: &Rules| declarations_with_rules(kept(n), Some(dealt_hand), rules).is_ok();
        // russian: none, or 3 to 5 (elder of his 5, the dealer of what is left).
        let ru = Rules::russian();
        assert_eq!(
            (0..=8).map(|n| allowed(n, &ru)).collect::<Vec<_>>(),
            [true, false, false, true, true, true, false, false, false]
        );
        // rubicon: elder 1 to 5; the dealer up to all elder left — at most 7, elder taking one at least.
        let rb = Rules::rubicon();
        assert_eq!(
            (0..=8).map(|n| allowed(n, &rb)).collect::<Vec<_>>(),
            [true, true, true, true, true, true, true, true, false]
        );
        let err = declarations_with_rules(kept(2), Some(dealt_hand), &ru).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the hand cannot come from the dealt hand: it holds 2 cards that were not dealt, and no exchange of 2 cards is allowed under these rules"
        );
        // Carte blanche is then judged on the dealt hand (no court card in it).
        assert!(declarations_with_rules(kept(3), Some(dealt_hand), &ru).unwrap().carte_blanche);
    }

    #[test]
    fn carte_blanche_is_judged_on_the_dealt_hand() {
        // Rules §3.1: a dealt hand (before the exchange) with no K, Q or J. Exchanged: AC 7D 8D
        // for KD QD JD (3 cards, allowed in russian).
        let dealt = hand("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D");
        let after = hand("7H 8H 9H TH AH 7C 8C 9C TC KD QD JD");
        assert!(declarations(dealt, None).unwrap().carte_blanche);
        assert!(!declarations(after, None).unwrap().carte_blanche);
        assert!(declarations(after, Some(dealt)).unwrap().carte_blanche);
        assert!(!declarations(dealt, Some(after)).unwrap().carte_blanche);
        assert!(declarations(dealt, Some(hand("7H"))).is_err());
    }

    #[test]
    fn equal_points_in_one_hand_name_the_lowest_suit() {
        let d = declarations(hand("7C 8C 9C 7D 8D 9D 7H 8H 9H 7S 8S 9S"), None).unwrap();
        assert_eq!((d.point.suit, d.point.length, d.point.value), (0, 3, 24));
    }

    pub(crate) fn hand_from_bits(bits: u32) -> Hand {
        Hand::from_mask(bits)
    }

    /// A 12-card mask from 12 distinct picks.
    pub(crate) fn twelve() -> impl Strategy<Value = u32> {
        Just((0..32u32).collect::<Vec<_>>()).prop_shuffle().prop_map(|v| v[..12].iter().fold(0u32, |m, &i| m | 1 << i))
    }

    proptest! {
        #[test]
        fn summary_agrees_with_the_explained_declarations(mask in twelve(), rubicon in any::<bool>()) {
            let rules = if rubicon { Rules::rubicon() } else { Rules::russian() };
            let h = hand_from_bits(mask);
            let d = explain(h, None, &rules);
            let s = Summary::of(mask, &Compiled::new(&rules).lanes);
            prop_assert_eq!(s.point_key, d.point.key());
            prop_assert_eq!(s.point_suit(mask), d.point.suit);
            prop_assert_eq!(s.seq_key, d.sequence_key());
            prop_assert_eq!(s.seq_count as usize, d.sequences.len());
            prop_assert_eq!(s.seq_value, d.sequences_value());
            prop_assert_eq!(s.best_set(), d.best_set().map_or((0, 0), |t| (t.count, t.rank)));
            prop_assert_eq!(s.set_value, d.sets_value());
            prop_assert_eq!(s.carte_blanche, d.carte_blanche);
        }
    }
}
