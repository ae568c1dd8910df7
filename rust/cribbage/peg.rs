//! Scoring in the play ("pegging"): the points for the last card laid.

use std::fmt;

use super::card::{Card, Hand};
use super::show::{ScoreItem, ScoreKind};
use super::words::number_word;
use crate::error::{Error, Result};

/// The points made by the last card of a count, by category.
///
/// ```
/// use cribpiquet::cribbage::{explain_peg, parse_cards};
/// // 3-2-5-A-4: a run of five and fifteen two = 7.
/// let p = explain_peg(&parse_cards("3C 2D 5H AS 4C").unwrap()).unwrap();
/// assert_eq!((p.count, p.fifteen, p.run, p.total()), (15, 2, 5, 7));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PegBreakdown {
    /// The running count after the last card.
    pub count: u8,
    /// 2 if the count became exactly 15.
    pub fifteen: u8,
    /// 2 if the count became exactly 31.
    pub thirty_one: u8,
    /// 2 for a pair, 6 for pair royal, 12 for double pair royal (consecutive cards only).
    pub pairs: u8,
    /// k if the last k >= 3 cards are k distinct consecutive ranks (largest such k).
    pub run: u8,
    /// The scoring combinations, in the order above.
    pub items: Vec<ScoreItem>,
}

impl PegBreakdown {
    /// The total points for the last card.
    pub fn total(&self) -> u8 {
        self.fifteen + self.thirty_one + self.pairs + self.run
    }
}

/// Check a count: 1..=13 distinct cards whose pips never pass 31. Returns the count.
pub(crate) fn check_sequence(seq: &[Card]) -> Result<u8> {
    if seq.is_empty() {
        return Err(Error::WrongCardCount { what: "pegging sequence", expected: "1 to 13", got: 0 });
    }
    let mut seen = 0u64;
    let mut count = 0u32;
    for &card in seq {
        if seen & card.bit() != 0 {
            return Err(Error::DuplicateCard(card.to_string()));
        }
        seen |= card.bit();
        count += card.pips() as u32;
        if count > 31 {
            return Err(Error::CountPast31 { count });
        }
    }
    Ok(count as u8)
}

/// Trailing cards of equal rank (1 when the last card pairs nothing).
#[inline]
fn trailing_same_rank(seq: &[Card]) -> usize {
    let last = seq[seq.len() - 1].rank();
    seq.iter().rev().take_while(|c| c.rank() == last).count()
}

/// The longest k >= 3 such that the last k cards are k distinct consecutive ranks, or 0.
#[inline]
fn trailing_run(seq: &[Card]) -> usize {
    let mut ranks = 0u32;
    let mut best = 0;
    for (i, card) in seq.iter().rev().enumerate() {
        let bit = 1u32 << card.rank();
        if ranks & bit != 0 {
            break; // a repeated rank ends every longer run
        }
        ranks |= bit;
        let k = i + 1;
        let shifted = ranks >> ranks.trailing_zeros();
        if k >= 3 && shifted & (shifted + 1) == 0 {
            best = k;
        }
    }
    best
}

/// The points for the last card of `seq`, the cards laid since the count was last reset.
///
/// ```
/// use cribpiquet::cribbage::{parse_cards, peg_points};
/// assert_eq!(peg_points(&parse_cards("3C 6D 6H").unwrap()).unwrap(), 4); // pair + fifteen
/// assert_eq!(peg_points(&parse_cards("6C 4D AH 4S").unwrap()).unwrap(), 2); // fifteen, no pair
/// ```
pub fn peg_points(seq: &[Card]) -> Result<u8> {
    let count = check_sequence(seq)?;
    Ok(peg_points_unchecked(seq, count))
}

#[inline]
pub(crate) fn peg_points_unchecked(seq: &[Card], count: u8) -> u8 {
    let same = trailing_same_rank(seq);
    let special = if count == 15 || count == 31 { 2 } else { 0 };
    (special + same * (same - 1) + trailing_run(seq)) as u8
}

/// Explain the points for the last card of `seq`.
pub fn explain_peg(seq: &[Card]) -> Result<PegBreakdown> {
    let count = check_sequence(seq)?;
    let all: Hand = seq.iter().copied().collect();
    let tail = |k: usize| -> Hand { seq[seq.len() - k..].iter().copied().collect() };
    let mut items = Vec::new();
    let fifteen = if count == 15 { 2 } else { 0 };
    let thirty_one = if count == 31 { 2 } else { 0 };
    if fifteen > 0 {
        items.push(ScoreItem { kind: ScoreKind::Fifteen, cards: all, points: 2 });
    }
    if thirty_one > 0 {
        items.push(ScoreItem { kind: ScoreKind::ThirtyOne, cards: all, points: 2 });
    }
    let same = trailing_same_rank(seq);
    let pairs = (same * (same - 1)) as u8;
    if pairs > 0 {
        items.push(ScoreItem { kind: ScoreKind::Pair, cards: tail(same), points: pairs });
    }
    let run = trailing_run(seq) as u8;
    if run > 0 {
        items.push(ScoreItem { kind: ScoreKind::Run, cards: tail(run as usize), points: run });
    }
    Ok(PegBreakdown { count, fifteen, thirty_one, pairs, run, items })
}

/// The go (last card) point for the player who laid the last card of a count: 1, or 0 if the
/// count is exactly 31 (the 31 already scored 2).
///
/// ```
/// assert_eq!(cribpiquet::cribbage::go_points(28).unwrap(), 1);
/// assert_eq!(cribpiquet::cribbage::go_points(31).unwrap(), 0);
/// ```
pub fn go_points(count: u32) -> Result<u8> {
    match count {
        0..=30 => Ok(1),
        31 => Ok(0),
        _ => Err(Error::CountPast31 { count }),
    }
}

impl fmt::Display for PegBreakdown {
    /// "fifteen two", "a pair for two", "thirty-one for two and a run of three is five", …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<(String, u8)> = Vec::new();
        if self.fifteen > 0 {
            parts.push(("fifteen".into(), self.fifteen));
        }
        if self.thirty_one > 0 {
            parts.push(("thirty-one".into(), self.thirty_one));
        }
        match self.pairs {
            0 => {}
            2 => parts.push(("a pair".into(), 2)),
            6 => parts.push(("a pair royal".into(), 6)),
            _ => parts.push(("a double pair royal".into(), 12)),
        }
        if self.run > 0 {
            parts.push((format!("a run of {}", number_word(self.run)), self.run));
        }
        if parts.is_empty() {
            return write!(f, "{}, no score", number_word(self.count));
        }
        let mut running = 0;
        for (i, (name, points)) in parts.iter().enumerate() {
            running += points;
            if i == 0 {
                // "fifteen two" is the idiom; the other first phrases say "for".
                if name == "fifteen" {
                    write!(f, "fifteen {}", number_word(*points))?;
                } else {
                    write!(f, "{name} for {}", number_word(*points))?;
                }
            } else {
                write!(f, " and {name} is {}", number_word(running))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::parse_cards;

    fn pts(text: &str) -> u8 {
        peg_points(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn seed_examples() {
        // The source's play examples (cribbage.md §3 and the seed text).
        assert_eq!(pts("3C 2D 5H 4S"), 4); // 3-2-5 then 4: a run of four
        assert_eq!(pts("3C 2D 5H AS 4C"), 7); // run of five + fifteen
        assert_eq!(pts("2C AD 6H 5S 3C 4D"), 6); // run of six
        assert_eq!(pts("3C 6D 6H"), 4); // pair + fifteen
        assert_eq!(pts("6C 4D AH 4S"), 2); // fifteen; the fours are not adjacent
        assert_eq!(pts("3C 8D 4H"), 2); // the source's "15 and a run" is only a fifteen
        assert_eq!(pts("4C 5D 6H"), 5); // fifteen two + run of three
    }

    #[test]
    fn pairs_and_31() {
        assert_eq!(pts("7C 7D"), 2);
        assert_eq!(pts("7C 7D 7H"), 6); // pair royal, count 21
        assert_eq!(pts("AC AD AH AS"), 12); // double pair royal, count 4
        assert_eq!(pts("TC JD KH AS"), 2); // 31 for two, never 3
        assert_eq!(pts("7C 8D 9H 7S"), 2 + 3); // 31 and the run 8-9-7 both score
        assert_eq!(pts("5C 5D 5H"), 8); // pair royal (6) + fifteen (2)
    }

    #[test]
    fn runs_are_blocked_only_by_a_duplicate_inside_them() {
        assert_eq!(pts("4C 4D 5H 6S"), 3); // 4 4 5 6: last three 4-5-6 is a run
        assert_eq!(pts("4C 5D 4H 6S"), 3); // 5-4-6 is a run; the earlier 4 is outside it
        assert_eq!(pts("4C 5D 6H 4S"), 3); // 5-6-4 is a run of three; 4-5-6-4 repeats a rank
        assert_eq!(pts("3C 4D 5H 5S"), 2); // a pair; the repeated 5 blocks the run
    }

    #[test]
    fn rejects_bad_sequences() {
        assert_eq!(
            peg_points(&[]),
            Err(Error::WrongCardCount { what: "pegging sequence", expected: "1 to 13", got: 0 })
        );
        assert_eq!(peg_points(&parse_cards("KC KD KH 2S").unwrap()), Err(Error::CountPast31 { count: 32 }));
        assert_eq!(peg_points(&parse_cards("5C 5C").unwrap()), Err(Error::DuplicateCard("5C".into())));
        assert_eq!(go_points(32), Err(Error::CountPast31 { count: 32 }));
    }
}
