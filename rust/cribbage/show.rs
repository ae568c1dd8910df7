//! Scoring the show: a hand or crib plus the starter.

use std::fmt;

use super::card::{Card, Hand};
use super::tables::{rank_parts, rank_total, RankPoints, RANK_KEYS};
use super::words::number_word;
use crate::error::{Error, Result};
use crate::names::named_enum;

named_enum! {
    /// What a scoring combination is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ScoreKind {
        /// Cards whose pips sum to 15 (the show), or a count of exactly 15 (the play).
        Fifteen => "fifteen",
        /// A count of exactly 31 (the play).
        ThirtyOne => "thirty-one",
        /// Two, three or four cards of one rank (in the show each pair is one item).
        Pair => "pair",
        /// Cards of consecutive ranks.
        Run => "run",
        /// Cards of one suit.
        Flush => "flush",
        /// The jack of the starter's suit.
        Nobs => "nobs",
    }
}

/// One scoring combination: its kind, the cards that make it, and its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreItem {
    /// The kind of combination.
    pub kind: ScoreKind,
    /// The cards that make it.
    pub cards: Hand,
    /// Its points.
    pub points: u8,
}

/// The points of a show, by category, with every scoring combination.
///
/// ```
/// use cribpiquet::cribbage::explain_hand;
/// let b = explain_hand("JC 5D 5H 5S".parse().unwrap(), "5C".parse().unwrap()).unwrap();
/// assert_eq!((b.fifteens, b.pairs, b.runs, b.flush, b.nobs, b.total()), (16, 12, 0, 0, 1, 29));
/// assert!(b.to_string().ends_with("and one for his nobs is 29"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breakdown {
    /// Points for fifteens (2 each).
    pub fifteens: u8,
    /// Points for pairs (2 each).
    pub pairs: u8,
    /// Points for runs.
    pub runs: u8,
    /// Points for a flush.
    pub flush: u8,
    /// Point for his nobs.
    pub nobs: u8,
    /// Every scoring combination: fifteens, then pairs, runs, flush and nobs.
    pub items: Vec<ScoreItem>,
}

impl Breakdown {
    /// The total points.
    pub fn total(&self) -> u8 {
        self.fifteens + self.pairs + self.runs + self.flush + self.nobs
    }
}

fn check_show(hand: Hand, starter: Card, crib: bool) -> Result<()> {
    let n = hand.len();
    if crib {
        if n != 4 {
            return Err(Error::WrongCardCount { what: "crib", expected: "4", got: n });
        }
    } else if n != 3 && n != 4 {
        return Err(Error::WrongCardCount { what: "hand", expected: "3 or 4", got: n });
    }
    if hand.contains(starter) {
        return Err(Error::DuplicateCard(starter.to_string()));
    }
    Ok(())
}

/// Flush and nobs of a show, from the masks alone.
#[inline(always)]
fn flush_and_nobs(hand_mask: u64, n: u32, starter: Card, crib: bool) -> u8 {
    // The lane of the lowest card's suit; the hand is a flush when no card lies outside it.
    let lane = 0xFFFFu64 << (hand_mask.trailing_zeros() & 0x30);
    let flush = hand_mask & !lane == 0;
    let starter_matches = starter.bit() & lane != 0;
    let flush_points = if crib {
        // The crib flushes only with the starter: five cards of one suit.
        if flush && starter_matches {
            5
        } else {
            0
        }
    } else if flush {
        n as u8 + starter_matches as u8
    } else {
        0
    };
    // His nobs: the jack (rank 10) in the starter's suit lane.
    let nobs = (hand_mask >> ((starter.index() & 0x30) + 10)) & 1;
    flush_points + nobs as u8
}

/// What the scorer needs of a starter, by its mask index: its rank key, its suit's lane and the
/// bit of its suit's jack (one load instead of three computations per show).
#[derive(Clone, Copy)]
struct StarterFacts {
    key: u32,
    lane: u64,
    jack: u64,
}

static STARTERS: [StarterFacts; 64] = {
    let mut t = [StarterFacts { key: 0, lane: 0, jack: 0 }; 64];
    let mut index = 0;
    while index < 64 {
        let (suit, rank) = (index / 16, index % 16);
        if rank < 13 {
            t[index] = StarterFacts { key: RANK_KEYS[rank], lane: 0xFFFF << (16 * suit), jack: 1 << (16 * suit + 10) };
        }
        index += 1;
    }
    t
};

/// Score a show without checking it: `hand` must hold 3 or 4 cards (4 for a crib) and not the
/// starter. Other inputs give a meaningless number or panic, never undefined behaviour. This is
/// the hot path under [`score_hand`] and the engines' show.
#[inline(always)]
pub fn score_show_unchecked(hand: Hand, starter: Card, crib: bool) -> u8 {
    let f = &STARTERS[starter.index() as usize & 63];
    let mask = hand.mask();
    // The lane of the lowest card's suit; the hand is a flush when no card lies outside it.
    let lane = 0xFFFFu64 << (mask.trailing_zeros() & 0x30);
    let flush = mask & !lane == 0;
    let starter_matches = f.lane == lane;
    let flush_points = if crib {
        // The crib flushes only with the starter: five cards of one suit.
        5 * (flush & starter_matches) as u8
    } else {
        flush as u8 * (hand.len() as u8 + starter_matches as u8)
    };
    let nobs = (mask & f.jack != 0) as u8;
    rank_total(hand.key() + f.key) + flush_points + nobs
}

/// The sum of [`score_show_unchecked`] of `hand` over every starter of `starters` (a mask of cards
/// the hand does not hold), counted by rank and suit instead of card by card: fifteens, pairs and
/// runs depend only on the starter's rank (13 lookups, each times the starters of that rank), a
/// flush on how many starters share the hand's suit, nobs on how many share a held jack's suit.
/// The same integer as the loop over the starters (a test compares them), a few times faster.
#[inline]
pub(crate) fn show_sum_unchecked(hand: Hand, starters: u64, crib: bool) -> u32 {
    show_sum_ranks(hand, starters) + show_sum_suits(hand, starters, crib)
}

/// The fifteens, pairs and runs part of [`show_sum_unchecked`]: it depends only on the ranks of
/// the hand and of the starters.
#[inline]
pub(crate) fn show_sum_ranks(hand: Hand, starters: u64) -> u32 {
    /// The bit of rank 0 in each suit lane.
    const RANK_BITS: u64 = 0x0001_0001_0001_0001;
    let key = hand.key();
    let mut sum = 0u32;
    for (rank, &rank_key) in RANK_KEYS.iter().enumerate() {
        let n = (starters >> rank & RANK_BITS).count_ones();
        if n != 0 {
            sum += n * rank_total(key + rank_key) as u32;
        }
    }
    sum
}

/// The flush and nobs part of [`show_sum_unchecked`].
#[inline]
pub(crate) fn show_sum_suits(hand: Hand, starters: u64, crib: bool) -> u32 {
    let mut sum = 0;
    let mask = hand.mask();
    let lane = 0xFFFFu64 << (mask.trailing_zeros() & 0x30);
    if mask & !lane == 0 {
        let same = (starters & lane).count_ones();
        sum += if crib { 5 * same } else { hand.len() as u32 * starters.count_ones() + same };
    }
    for suit in 0..4 {
        if mask >> (16 * suit + 10) & 1 == 1 {
            sum += (starters & 0xFFFF << (16 * suit)).count_ones();
        }
    }
    sum
}

/// Score a hand (4 kept cards, or 3 in five-card cribbage) with the starter.
///
/// ```
/// use cribpiquet::cribbage::score_hand;
/// // The source's example: 4♥ 5♥ Q♥ with a 6♠ starter: two fifteens, a run of three, a flush of three.
/// assert_eq!(score_hand("4H 5H QH".parse().unwrap(), "6S".parse().unwrap()).unwrap(), 10);
/// ```
pub fn score_hand(hand: Hand, starter: Card) -> Result<u8> {
    check_show(hand, starter, false)?;
    Ok(score_show_unchecked(hand, starter, false))
}

/// Score a crib (4 cards) with the starter: a flush counts only with the starter (5 points).
///
/// ```
/// use cribpiquet::cribbage::score_crib;
/// assert_eq!(score_crib("2C 4C 6C 8C".parse().unwrap(), "KD".parse().unwrap()).unwrap(), 0);
/// assert_eq!(score_crib("2C 4C 6C 8C".parse().unwrap(), "KC".parse().unwrap()).unwrap(), 5);
/// ```
pub fn score_crib(crib: Hand, starter: Card) -> Result<u8> {
    check_show(crib, starter, true)?;
    Ok(score_show_unchecked(crib, starter, true))
}

/// [`score_hand`] or [`score_crib`], chosen by `crib`.
pub fn score_show(hand: Hand, starter: Card, crib: bool) -> Result<u8> {
    check_show(hand, starter, crib)?;
    Ok(score_show_unchecked(hand, starter, crib))
}

/// The dealer's points for turning the starter: 2 for a jack ("his heels"), else 0.
pub fn heels_points(starter: Card) -> u8 {
    if starter.is_jack() {
        2
    } else {
        0
    }
}

/// The fifteens, pairs and runs of a show by category, from the table.
#[inline]
pub(crate) fn show_parts(hand: Hand, starter: Card) -> RankPoints {
    rank_parts(hand.key() + RANK_KEYS[starter.rank() as usize])
}

/// Explain a show: points by category and every scoring combination.
pub fn explain_show(hand: Hand, starter: Card, crib: bool) -> Result<Breakdown> {
    check_show(hand, starter, crib)?;
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.push(starter);
    let n = cards.len();
    let subset_hand = |subset: u32| -> Hand { (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| cards[i]).collect() };
    let mut items = Vec::new();
    // Fifteens: every subset of two or more cards whose pips sum to 15.
    for subset in 1u32..(1 << n) {
        if subset.count_ones() >= 2 {
            let sum: u32 = (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| cards[i].pips() as u32).sum();
            if sum == 15 {
                items.push(ScoreItem { kind: ScoreKind::Fifteen, cards: subset_hand(subset), points: 2 });
            }
        }
    }
    // Pairs: every two cards of one rank.
    for i in 0..n {
        for j in i + 1..n {
            if cards[i].rank() == cards[j].rank() {
                let subset = 1 << i | 1 << j;
                items.push(ScoreItem { kind: ScoreKind::Pair, cards: subset_hand(subset), points: 2 });
            }
        }
    }
    // Runs: every set of distinct consecutive ranks of the longest length present (3+).
    for len in (3..=n as u32).rev() {
        let before = items.len();
        for subset in 1u32..(1 << n) {
            if subset.count_ones() != len {
                continue;
            }
            let ranks: u32 = (0..n).filter(|&i| subset >> i & 1 == 1).fold(0, |m, i| m | 1 << cards[i].rank());
            let shifted = ranks >> ranks.trailing_zeros();
            if ranks.count_ones() == len && shifted & (shifted + 1) == 0 {
                items.push(ScoreItem { kind: ScoreKind::Run, cards: subset_hand(subset), points: len as u8 });
            }
        }
        if items.len() > before {
            break;
        }
    }
    let flush_nobs = flush_and_nobs(hand.mask(), hand.len() as u32, starter, crib);
    let jack = Card::new(10, starter.suit()).unwrap();
    let nobs = hand.contains(jack) as u8;
    let flush = flush_nobs - nobs;
    if flush > 0 {
        let mut flush_cards = hand;
        if flush as usize > hand.len() {
            flush_cards.add(starter);
        }
        items.push(ScoreItem { kind: ScoreKind::Flush, cards: flush_cards, points: flush });
    }
    if nobs == 1 {
        items.push(ScoreItem { kind: ScoreKind::Nobs, cards: Hand::new().with(jack), points: 1 });
    }
    let sum = |kind| items.iter().filter(|it: &&ScoreItem| it.kind == kind).map(|it| it.points).sum::<u8>();
    let breakdown = Breakdown {
        fifteens: sum(ScoreKind::Fifteen),
        pairs: sum(ScoreKind::Pair),
        runs: sum(ScoreKind::Run),
        flush,
        nobs,
        items,
    };
    debug_assert_eq!(
        show_parts(hand, starter),
        RankPoints { fifteens: breakdown.fifteens, pairs: breakdown.pairs, runs: breakdown.runs }
    );
    Ok(breakdown)
}

/// Explain a hand (3 or 4 cards) with the starter.
pub fn explain_hand(hand: Hand, starter: Card) -> Result<Breakdown> {
    explain_show(hand, starter, false)
}

/// Explain a crib (4 cards) with the starter.
pub fn explain_crib(crib: Hand, starter: Card) -> Result<Breakdown> {
    explain_show(crib, starter, true)
}

impl fmt::Display for Breakdown {
    /// Reads the count aloud the way players do: "fifteen two, fifteen four, and a pair is six,
    /// and a run of three is nine". Running totals are words; the last one, the total, is
    /// digits ("… and a pair is 6"; a count of fifteens only: "fifteen two, fifteen four: 4").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        if total == 0 {
            return f.write_str("nineteen: no score, 0");
        }
        let mut phrases: Vec<String> = Vec::new();
        let mut running = 0u8;
        let said = |phrase: &str, points: u8, running: &mut u8, phrases: &mut Vec<String>| {
            *running += points;
            let amount = if *running == total { running.to_string() } else { number_word(*running).to_string() };
            let lead = if phrases.is_empty() { "" } else { "and " };
            phrases.push(format!("{lead}{phrase} is {amount}"));
        };
        // Fifteens are said in words, the last one too; a count that ends on a fifteen gives
        // its total after a colon, as "nineteen: no score, 0" does: "fifteen two, fifteen
        // four: 4", never "fifteen two, fifteen 4".
        for _ in 0..self.fifteens / 2 {
            running += 2;
            phrases.push(format!("fifteen {}", number_word(running)));
        }
        if running == total {
            return write!(f, "{}: {total}", phrases.join(", "));
        }
        // Pairs grouped by rank: a pair, pair royal, double pair royal.
        let mut by_rank = [0u8; 13];
        for it in self.items.iter().filter(|it| it.kind == ScoreKind::Pair) {
            by_rank[it.cards.iter().next().unwrap().rank() as usize] += 1;
        }
        for &pairs in by_rank.iter().filter(|&&p| p > 0) {
            let name = match pairs {
                1 => "a pair",
                3 => "a pair royal",
                _ => "a double pair royal",
            };
            said(name, pairs * 2, &mut running, &mut phrases);
        }
        let runs: Vec<&ScoreItem> = self.items.iter().filter(|it| it.kind == ScoreKind::Run).collect();
        if let Some(first) = runs.first() {
            let len = number_word(first.points);
            let name = match runs.len() {
                1 => format!("a run of {len}"),
                k => format!("{} runs of {len}", number_word(k as u8)),
            };
            said(&name, self.runs, &mut running, &mut phrases);
        }
        if self.flush > 0 {
            said(&format!("a flush of {}", number_word(self.flush)), self.flush, &mut running, &mut phrases);
        }
        if self.nobs > 0 {
            said("one for his nobs", 1, &mut running, &mut phrases);
        }
        f.write_str(&phrases.join(", "))
    }
}
