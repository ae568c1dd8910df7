//! Batch scoring over slices of card ids (row-major), validated and scored in one pass, in
//! parallel across cores for large batches (the driver and the first-bad-row rule are
//! [`crate::batch`]'s).

use rayon::prelude::*;

use super::card::{Card, Hand};
use super::peg::{check_sequence, peg_points_unchecked};
use super::show::{score_show_unchecked, show_parts};
use super::tables::{RankPoints, RANK_KEYS};
use crate::batch::{for_chunks, CardId};
use crate::error::{Error, Result};

/// id -> (card index in the mask, rank key), for fast per-row decoding.
struct IdTable {
    cards: [Card; 52],
}

impl IdTable {
    fn new() -> IdTable {
        let mut cards = [Card::from_id(0).unwrap(); 52];
        for (id, slot) in cards.iter_mut().enumerate() {
            *slot = Card::from_id(id as i64).unwrap();
        }
        IdTable { cards }
    }

    #[inline(always)]
    fn card<T: CardId>(&self, id: T) -> Result<Card> {
        let v = id.value();
        if (0..52).contains(&v) {
            Ok(self.cards[v as usize])
        } else {
            Err(Error::CardIdOutOfRange { id: v, limit: 52 })
        }
    }
}

/// Read one show row: `width` hand ids and the starter id, all distinct.
#[inline(always)]
fn read_show<T: CardId>(ids: &IdTable, row: &[T], starter: T) -> Result<(Hand, Card)> {
    let mut hand = Hand::new();
    for &id in row {
        let card = ids.card(id)?;
        if !hand.insert(card) {
            return Err(Error::DuplicateCard(card.to_string()));
        }
    }
    let starter = ids.card(starter)?;
    if hand.contains(starter) {
        return Err(Error::DuplicateCard(starter.to_string()));
    }
    Ok((hand, starter))
}

fn check_shape(len: usize, width: usize, starters: usize, crib: bool) -> Result<usize> {
    let ok_width = if crib { width == 4 } else { width == 3 || width == 4 };
    if !ok_width {
        let (what, expected) = if crib { ("crib", "4") } else { ("hand", "3 or 4") };
        return Err(Error::WrongCardCount { what, expected, got: width });
    }
    if len % width != 0 {
        return Err(Error::InvalidValue(format!("{len} ids do not make rows of {width}")));
    }
    let rows = len / width;
    if rows != starters {
        return Err(Error::InvalidValue(format!("{rows} hands but {starters} starters")));
    }
    Ok(rows)
}

/// Score N shows: `hands` is N rows of `width` ids (3 or 4; 4 for cribs), `starters` N ids.
///
/// Every row is validated (ids in 0..52, no card twice with its starter); the error names the
/// first bad row. Large batches run on all cores of rayon's pool.
///
/// ```
/// use cribpiquet::cribbage::score_hand_batch;
/// // J♣ 5♦ 5♥ 5♠ + 5♣ and 4♥ 5♥ Q♥ + 6♠ (ids suit * 13 + rank).
/// let scores = score_hand_batch(&[10u8, 17, 30, 43], 4, &[4u8], false).unwrap();
/// assert_eq!(scores, [29]);
/// assert!(score_hand_batch(&[1i64, 2, 3, 3], 4, &[9], false).unwrap_err().to_string().starts_with("row 0"));
/// ```
pub fn score_hand_batch<T: CardId>(hands: &[T], width: usize, starters: &[T], crib: bool) -> Result<Vec<u8>> {
    let rows = check_shape(hands.len(), width, starters.len(), crib)?;
    let mut out = vec![0u8; rows];
    score_hand_batch_into(hands, width, starters, crib, &mut out)?;
    Ok(out)
}

/// [`score_hand_batch`] writing into a caller's buffer of N scores.
pub fn score_hand_batch_into<T: CardId>(
    hands: &[T],
    width: usize,
    starters: &[T],
    crib: bool,
    out: &mut [u8],
) -> Result<()> {
    let rows = check_shape(hands.len(), width, starters.len(), crib)?;
    if out.len() != rows {
        return Err(Error::InvalidValue(format!("output holds {} scores, need {rows}", out.len())));
    }
    match width {
        3 => map_shows::<T, 3, _, _>(hands, starters, out, |hand, starter| score_show_unchecked(hand, starter, crib)),
        _ => map_shows::<T, 4, _, _>(hands, starters, out, |hand, starter| score_show_unchecked(hand, starter, crib)),
    }
}

/// Card bit, additive key and card of each id, for the batch kernels.
struct FastIds {
    bits: [u64; 52],
    keys: [u32; 52],
    cards: [Card; 52],
}

static FAST_IDS: FastIds = {
    let mut bits = [0u64; 52];
    let mut keys = [0u32; 52];
    let mut cards = [Card::from_index_const(0); 52];
    let mut id = 0;
    while id < 52 {
        let index = (id / 13) * 16 + id % 13;
        bits[id] = 1 << index;
        keys[id] = RANK_KEYS[id % 13];
        cards[id] = Card::from_index_const(index as u8);
        id += 1;
    }
    FastIds { bits, keys, cards }
};

/// Read one show row without branching on the data: `None` if any id is out of range or any
/// card repeats (the caller then re-reads the row slowly to name the problem).
#[inline(always)]
fn fast_show<T: CardId, const W: usize>(row: &[T], starter: T) -> Option<(Hand, Card)> {
    let t = &FAST_IDS;
    let mut bad = false;
    let mut mask = 0u64;
    let mut dup = 0u64;
    let mut key = 0u32;
    for &id in &row[..W] {
        let i = id.as_index();
        bad |= i >= 52;
        let i = i.min(51) as usize;
        dup |= mask & t.bits[i];
        mask |= t.bits[i];
        key += t.keys[i];
    }
    let s = starter.as_index();
    bad |= s >= 52;
    let s = s.min(51) as usize;
    dup |= mask & t.bits[s];
    if bad | (dup != 0) {
        return None;
    }
    Some((Hand::from_raw(mask, key), t.cards[s]))
}

/// Apply `f` to every validated show, writing into `out`; the first bad row is an error.
fn map_shows<T: CardId, const W: usize, O: Send, F>(hands: &[T], starters: &[T], out: &mut [O], f: F) -> Result<()>
where
    F: Fn(Hand, Card) -> O + Sync,
{
    let ids = IdTable::new();
    for_chunks(out, 1, |first, chunk| {
        let rows = hands[first * W..(first + chunk.len()) * W].chunks_exact(W);
        for (i, ((slot, row), &starter)) in chunk.iter_mut().zip(rows).zip(&starters[first..]).enumerate() {
            match fast_show::<T, W>(row, starter) {
                Some((hand, starter)) => *slot = f(hand, starter),
                None => {
                    // The fast reader rejects only bad rows, so the slow one names the problem.
                    let e =
                        read_show(&ids, row, starter).err().unwrap_or_else(|| Error::InvalidValue("bad row".into()));
                    return Err(e.in_row(first + i));
                }
            }
        }
        Ok(())
    })
}

/// Per-category points of N shows, one vector per category.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShowColumns {
    /// Fifteens points per row.
    pub fifteens: Vec<u8>,
    /// Pairs points per row.
    pub pairs: Vec<u8>,
    /// Runs points per row.
    pub runs: Vec<u8>,
    /// Flush points per row.
    pub flush: Vec<u8>,
    /// Nobs point per row.
    pub nobs: Vec<u8>,
    /// Totals per row.
    pub total: Vec<u8>,
}

/// Like [`score_hand_batch`], with the points of each category.
pub fn explain_hand_batch<T: CardId>(hands: &[T], width: usize, starters: &[T], crib: bool) -> Result<ShowColumns> {
    let rows = check_shape(hands.len(), width, starters.len(), crib)?;
    // One record per row, split into columns afterwards.
    let mut recs = vec![[0u8; 6]; rows];
    let record = |hand: Hand, starter: Card| {
        let RankPoints { fifteens, pairs, runs } = show_parts(hand, starter);
        let total = score_show_unchecked(hand, starter, crib);
        let nobs = hand.contains(Card::new(10, starter.suit()).unwrap()) as u8;
        let flush = total - fifteens - pairs - runs - nobs;
        [fifteens, pairs, runs, flush, nobs, total]
    };
    match width {
        3 => map_shows::<T, 3, _, _>(hands, starters, &mut recs, record)?,
        _ => map_shows::<T, 4, _, _>(hands, starters, &mut recs, record)?,
    }
    let col = |k: usize| recs.iter().map(|r| r[k]).collect::<Vec<u8>>();
    Ok(ShowColumns { fifteens: col(0), pairs: col(1), runs: col(2), flush: col(3), nobs: col(4), total: col(5) })
}

/// The pegging points of the last card of each of N counts: rows of `width` ids (`width <= 13`)
/// in play order, padded at the end with -1.
pub fn peg_points_batch<T: CardId>(sequences: &[T], width: usize) -> Result<Vec<u8>> {
    if width == 0 || width > 13 {
        return Err(Error::InvalidValue(format!("pegging rows hold 1 to 13 cards, got width {width}")));
    }
    if sequences.len() % width != 0 {
        return Err(Error::InvalidValue(format!("{} ids do not make rows of {width}", sequences.len())));
    }
    let rows = sequences.len() / width;
    let ids = IdTable::new();
    let mut out = vec![0u8; rows];
    for_chunks(&mut out, 1, |first, chunk| {
        let mut cards = [Card::from_id(0).unwrap(); 13];
        for (i, slot) in chunk.iter_mut().enumerate() {
            let r = first + i;
            let row = &sequences[r * width..(r + 1) * width];
            let (n, count) = read_sequence(&ids, row, &mut cards).map_err(|e| e.in_row(r))?;
            *slot = peg_points_unchecked(&cards[..n], count);
        }
        Ok(())
    })?;
    Ok(out)
}

/// Read one padded pegging row into `cards`; returns (number of cards, count).
#[inline]
fn read_sequence<T: CardId>(ids: &IdTable, row: &[T], cards: &mut [Card; 13]) -> Result<(usize, u8)> {
    let n = row.iter().take_while(|id| id.value() != -1).count();
    if let Some(bad) = row[n..].iter().find(|id| id.value() != -1) {
        return Err(Error::InvalidValue(format!("card id {} after the -1 padding", bad.value())));
    }
    for (slot, &id) in cards.iter_mut().zip(&row[..n]) {
        *slot = ids.card(id)?;
    }
    let count = check_sequence(&cards[..n])?;
    Ok((n, count))
}

/// Which shows [`hand_distribution`] enumerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistributionKind {
    /// Every 4-card hand with every starter: C(52,4) × 48 = 12,994,800 shows.
    Hand,
    /// Every 4-card crib with every starter (crib flush rule): 12,994,800 shows.
    Crib,
    /// Every 3-card hand (five-card cribbage) with every starter: C(52,3) × 49 = 1,082,900 shows.
    FiveCardHand,
}

impl DistributionKind {
    /// Parse `"hand"`, `"crib"` or `"five-card-hand"`.
    pub fn parse(name: &str) -> Result<DistributionKind> {
        match name {
            "hand" => Ok(DistributionKind::Hand),
            "crib" => Ok(DistributionKind::Crib),
            "five-card-hand" => Ok(DistributionKind::FiveCardHand),
            _ => Err(Error::InvalidValue(format!(
                "unknown distribution kind {name:?} (expected \"hand\", \"crib\" or \"five-card-hand\")"
            ))),
        }
    }

    /// The number of shows enumerated.
    pub fn shows(self) -> u64 {
        match self {
            DistributionKind::Hand | DistributionKind::Crib => 270_725 * 48,
            DistributionKind::FiveCardHand => 22_100 * 49,
        }
    }
}

/// Count every show of `kind` by score 0..=29, by enumerating them all (in parallel).
///
/// ```
/// use cribpiquet::cribbage::{hand_distribution, DistributionKind};
/// let counts = hand_distribution(DistributionKind::FiveCardHand);
/// assert_eq!(counts.iter().sum::<u64>(), 1_082_900);
/// ```
pub fn hand_distribution(kind: DistributionKind) -> [u64; 30] {
    let cards: Vec<Card> = Card::all().collect();
    let (size, crib) = match kind {
        DistributionKind::Hand => (4, false),
        DistributionKind::Crib => (4, true),
        DistributionKind::FiveCardHand => (3, false),
    };
    // One task per first card; each walks the rest of the hand and every starter.
    (0..52usize)
        .into_par_iter()
        .map(|a| {
            let mut counts = [0u64; 30];
            let mut walk = |hand: Hand| {
                for &s in &cards {
                    if !hand.contains(s) {
                        counts[score_show_unchecked(hand, s, crib) as usize] += 1;
                    }
                }
            };
            let h1 = Hand::new().with(cards[a]);
            for b in a + 1..52 {
                let h2 = h1.with(cards[b]);
                for c in b + 1..52 {
                    let h3 = h2.with(cards[c]);
                    if size == 3 {
                        walk(h3);
                    } else {
                        for &d in &cards[c + 1..] {
                            walk(h3.with(d));
                        }
                    }
                }
            }
            counts
        })
        .reduce(
            || [0u64; 30],
            |mut x, y| {
                for (a, b) in x.iter_mut().zip(y) {
                    *a += b;
                }
                x
            },
        )
}
