//! Batch scoring over slices of card ids (row-major), validated and scored in one pass, in
//! parallel across cores for large batches (the driver and the first-bad-row rule are
//! [`crate::batch`]'s).

use rayon::prelude::*;

use super::card::{id_to_index, Card, Hand};
use super::peg::{check_sequence, peg_points_unchecked};
use super::show::{score_show_unchecked, show_parts};
use super::simd;
use super::tables::{rank_total, RankPoints, RANK_KEYS};
use crate::batch::{for_chunks, for_tasks, CardId, IdRows, CHUNK_ROWS};
use crate::error::{Error, Result};
use crate::kernel::Kernel;

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

/// N shows whose shape is checked: hand rows of 3 or 4 ids (4 for cribs) and one starter per
/// row. Made once per batch ([`Shows::new`]); the ids are checked row by row as they are scored.
#[derive(Debug, Clone, Copy)]
pub struct Shows<'a, T> {
    hands: IdRows<'a, T>,
    starters: &'a [T],
    crib: bool,
}

impl<'a, T: CardId> Shows<'a, T> {
    /// The shows of `hands` with `starters` (one per row), as cribs if `crib`.
    pub fn new(hands: IdRows<'a, T>, starters: &'a [T], crib: bool) -> Result<Shows<'a, T>> {
        hands.same_rows("starters", starters.len())?;
        let width = hands.width();
        if crib && width != 4 {
            return Err(hands.wrong_width("4 cards per row for a crib", Some(&width.to_string())));
        }
        if !(3..=4).contains(&width) {
            return Err(hands.wrong_width("3 or 4 cards per row", Some(&width.to_string())));
        }
        Ok(Shows { hands, starters, crib })
    }

    /// Number of shows.
    pub fn rows(&self) -> usize {
        self.starters.len()
    }

    /// The score of each show; the error names the first bad row (an id out of 0..52 or a card
    /// twice with its starter). The kernel is [`Shows::kernel`] (read once, here).
    pub fn scores(&self) -> Result<Vec<u8>> {
        self.scores_with(self.kernel()?)
    }

    /// The kernel a call over these shows runs: [`Kernel::chosen`] (the environment read once),
    /// except that a batch smaller than the smallest vector register ([`simd::MIN_BLOCK_ROWS`]
    /// rows) runs the scalar kernel without reading `CRIBPIQUET_KERNEL`: no vector kernel would
    /// run on it (one padded block costs more than its rows one by one), and reading the
    /// environment would cost a 1-row batch a tenth of its time.
    fn kernel(&self) -> Result<Kernel> {
        if self.rows() < simd::MIN_BLOCK_ROWS {
            return Ok(Kernel::Scalar);
        }
        Kernel::chosen()
    }

    /// [`Shows::scores`] with the given kernel (an error if this CPU cannot run it).
    pub fn scores_with(&self, kernel: Kernel) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.rows()];
        self.scores_into_with(kernel, &mut out)?;
        Ok(out)
    }

    /// [`Shows::scores`] written into a caller's buffer of one score per row.
    pub fn scores_into(&self, out: &mut [u8]) -> Result<()> {
        self.scores_into_with(self.kernel()?, out)
    }

    /// [`Shows::scores_into`] with the given kernel (an error if this CPU cannot run it).
    pub fn scores_into_with(&self, kernel: Kernel, out: &mut [u8]) -> Result<()> {
        let (rows, width, crib) = (self.rows(), self.hands.width(), self.crib);
        if out.len() != rows {
            return Err(Error::InvalidValue(format!("output holds {} scores, need {rows}", out.len())));
        }
        runnable(kernel)?;
        // Fewer rows than a vector register holds: the scalar kernel (the same scores) is
        // faster than one padded block.
        let kernel = if rows < simd::block_rows(kernel) { Kernel::Scalar } else { kernel };
        let (hands, starters) = (self.hands.ids(), self.starters);
        for_chunks(out, 1, |first, chunk| {
            let rows = first..first + chunk.len();
            let (h, s) = (&hands[rows.start * width..rows.end * width], &starters[rows]);
            let bad = match (kernel, width, crib) {
                (Kernel::Scalar, 3, _) => score_rows::<T, 3, false>(h, s, chunk),
                (Kernel::Scalar, _, false) => score_rows::<T, 4, false>(h, s, chunk),
                (Kernel::Scalar, _, true) => score_rows::<T, 4, true>(h, s, chunk),
                (k, 3, _) => simd::run::<T, 3, false>(k, h, s, &mut [chunk]),
                (k, _, false) => simd::run::<T, 4, false>(k, h, s, &mut [chunk]),
                (k, _, true) => simd::run::<T, 4, true>(k, h, s, &mut [chunk]),
            };
            bad_row(h, s, width, first, bad)
        })
    }

    /// The points of each show by category (the kernel: [`Shows::kernel`]).
    pub fn explain(&self) -> Result<ShowColumns> {
        self.explain_with(self.kernel()?)
    }

    /// [`Shows::explain`] with the given kernel (an error if this CPU cannot run it).
    pub fn explain_with(&self, kernel: Kernel) -> Result<ShowColumns> {
        runnable(kernel)?;
        let crib = self.crib;
        let (hands, starters, width) = (self.hands.ids(), self.starters, self.hands.width());
        if kernel != Kernel::Scalar {
            let rows = self.rows();
            let mut cols: [Vec<u8>; simd::PART_COLUMNS] = std::array::from_fn(|_| vec![0u8; rows]);
            {
                let [a, b, c, d, e, f] = &mut cols;
                fn chunks(v: &mut [u8]) -> std::slice::ChunksMut<'_, u8> {
                    v.chunks_mut(CHUNK_ROWS)
                }
                let tasks: Vec<[&mut [u8]; simd::PART_COLUMNS]> = chunks(a)
                    .zip(chunks(b))
                    .zip(chunks(c))
                    .zip(chunks(d))
                    .zip(chunks(e))
                    .zip(chunks(f))
                    .map(|(((((a, b), c), d), e), f)| [a, b, c, d, e, f])
                    .collect();
                for_tasks(tasks, |first, mut task| {
                    let rows = first..first + task[0].len();
                    let (h, s) = (&hands[rows.start * width..rows.end * width], &starters[rows]);
                    let bad = match (width, crib) {
                        (3, _) => simd::run::<T, 3, false>(kernel, h, s, &mut task),
                        (_, false) => simd::run::<T, 4, false>(kernel, h, s, &mut task),
                        (_, true) => simd::run::<T, 4, true>(kernel, h, s, &mut task),
                    };
                    bad_row(h, s, width, first, bad)
                })?;
            }
            let [fifteens, pairs, runs, flush, nobs, total] = cols;
            return Ok(ShowColumns { fifteens, pairs, runs, flush, nobs, total });
        }
        // One record per row, split into columns afterwards.
        let mut recs = vec![[0u8; 6]; self.rows()];
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
}

/// `Ok` if this CPU can run `kernel`, else the error [`Kernel::parse`] gives for it.
fn runnable(kernel: Kernel) -> Result<()> {
    Kernel::parse(kernel.name()).map(|_| ())
}

/// The error of the bad row `bad` (relative to a chunk starting at row `first`), if any: the
/// kernels stop only at a bad row, so the slow reader names the problem.
fn bad_row<T: CardId>(h: &[T], s: &[T], width: usize, first: usize, bad: Option<usize>) -> Result<()> {
    match bad {
        None => Ok(()),
        Some(i) => {
            let row = &h[i * width..(i + 1) * width];
            let e =
                read_show(&IdTable::new(), row, s[i]).err().unwrap_or_else(|| Error::InvalidValue("bad row".into()));
            Err(e.in_row(first + i))
        }
    }
}

/// Score N shows: `hands` is N rows of `width` ids (3 or 4; 4 for cribs), `starters` N ids
/// ([`Shows::scores`] of [`Shows::new`]).
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
    Shows::new(IdRows::of_width("hands", hands, width)?, starters, crib)?.scores()
}

/// [`score_hand_batch`] writing into a caller's buffer of N scores.
pub fn score_hand_batch_into<T: CardId>(
    hands: &[T],
    width: usize,
    starters: &[T],
    crib: bool,
    out: &mut [u8],
) -> Result<()> {
    Shows::new(IdRows::of_width("hands", hands, width)?, starters, crib)?.scores_into(out)
}

/// Like [`score_hand_batch`], with the points of each category.
pub fn explain_hand_batch<T: CardId>(hands: &[T], width: usize, starters: &[T], crib: bool) -> Result<ShowColumns> {
    Shows::new(IdRows::of_width("hands", hands, width)?, starters, crib)?.explain()
}

// ---------------------------------------------------------------------------------------------
// The fused kernel of `score_hand_batch`: validation and scoring in one pass over the ids.
// ---------------------------------------------------------------------------------------------

/// Bits above the 52 card bits of [`ScoreIds::bits`]: set only by the entry of a bad id.
const BAD_BIT: u64 = 1 << 52;
/// The suit fields of a [`ScoreIds::entries`] value (bits 32..64, one byte per suit).
const SUIT_SHIFT: u32 = 32;
/// The low bit of each suit byte (after `>> SUIT_SHIFT`).
const LOW_BITS: u64 = 0x0101_0101;

/// Per-id facts for the kernel, indexed by the id clamped to `0..=255`: every value from 52 up
/// (and every negative one, which wraps to a huge index) shares one bad entry.
///
/// - `bits[id]`: the card's bit `1 << id`, or [`BAD_BIT`] for a bad id. A row is valid when its
///   bits below `BAD_BIT` are W + 1 distinct ones and none at or above it (checked as "the OR of
///   the bits equals their sum and is below `BAD_BIT`", or with one popcount).
/// - `entries[id]`: the rank key in bits 0..22 (the sum of five keys stays below 2^22), and in
///   bits 32..64 one byte per suit holding `1` (a card of that suit) plus `16` if the card is
///   that suit's jack. Summed over a hand, each suit byte counts the hand's cards of the suit
///   (at most 4: bits 0..2) and flags its jack (bit 4), so flush and nobs are SWAR tests.
/// - `starters[id]`: the rank key, and `0x18` in the starter's suit byte: after the hand's suit
///   bytes are biased so that bit 3 means "W cards of this suit", one AND keeps exactly the
///   starter's suit's flush bit (3) and jack flag (4).
struct ScoreIds {
    bits: [u64; 256],
    entries: [u64; 256],
    starters: [u64; 256],
}

static SCORE_IDS: ScoreIds = {
    let mut bits = [BAD_BIT; 256];
    let mut entries = [0u64; 256];
    let mut starters = [0u64; 256];
    let mut id = 0;
    while id < 52 {
        let (suit, rank) = (id / 13, id % 13);
        bits[id] = 1 << id;
        let suit_byte = 1 + if rank == 10 { 16 } else { 0 };
        let lane = SUIT_SHIFT + 8 * suit as u32;
        entries[id] = RANK_KEYS[rank] as u64 | (suit_byte as u64) << lane;
        starters[id] = RANK_KEYS[rank] as u64 | 0x18 << lane;
        id += 1;
    }
    ScoreIds { bits, entries, starters }
};

/// An id as an index into [`ScoreIds`] (a no-op for `u8`).
#[inline(always)]
fn clamp<T: CardId>(id: T) -> usize {
    id.as_index().min(255) as usize
}

/// Flush + nobs points by `any_flush << 2 | nobs << 1 | flush_in_starter_suit`, for a hand of
/// `w` cards (`w` for a flush, one more with the starter) or a crib (5 with the starter only).
const fn flush_nobs_table(w: u8, crib: bool) -> [u8; 8] {
    let mut t = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        let (any, nobs, matched) = (i >> 2 & 1 == 1, (i >> 1 & 1) as u8, (i & 1) as u8);
        t[i] = nobs
            + if crib {
                5 * matched
            } else if any {
                w + matched
            } else {
                0
            };
        i += 1;
    }
    t
}

/// The score of a show from the summed entries of its `W` hand cards and the starter's entry.
#[inline(always)]
fn score_entries<const W: usize, const CRIB: bool>(hand: u64, starter: u64) -> u8 {
    const { assert!(W == 3 || W == 4) };
    let table: &[u8; 8] = &const { flush_nobs_table(W as u8, CRIB) };
    let key = (hand + starter) as u32;
    // Bias each suit byte by 8 - W: bit 3 is then set exactly in a suit of W cards (counts are
    // at most 4, so nothing carries into the jack flag at bit 4 or the next byte).
    let suits = (hand >> SUIT_SHIFT) + (8 - W as u64) * LOW_BITS;
    let any_flush = (suits & 0x0808_0808 != 0) as usize;
    // Bits 3 and 4 of the starter's suit byte, moved to the top byte by the multiply (only
    // one byte is non-zero), then to bits 0 and 1.
    let own = suits & (starter >> SUIT_SHIFT);
    let own = ((own.wrapping_mul(LOW_BITS) >> 27) & 3) as usize;
    rank_total(key) + table[any_flush << 2 | own]
}

/// Score rows of `W` ids with their starters into `out`; `Some(i)` at the first bad row `i`
/// (rows before it are scored), `None` when every row is valid. `POPCNT`: check a row with one
/// popcount (for CPUs that have the instruction) instead of comparing the OR with the sum.
#[inline(always)]
fn score_rows_generic<T: CardId, const W: usize, const CRIB: bool, const POPCNT: bool>(
    hands: &[T],
    starters: &[T],
    out: &mut [u8],
) -> Option<usize> {
    let t = &SCORE_IDS;
    for (i, ((slot, row), &starter)) in out.iter_mut().zip(hands.chunks_exact(W)).zip(starters).enumerate() {
        let s = clamp(starter);
        let (mut or, mut sum, mut hand) = (t.bits[s], t.bits[s], 0u64);
        for &id in &row[..W] {
            let k = clamp(id);
            or |= t.bits[k];
            if !POPCNT {
                sum = sum.wrapping_add(t.bits[k]);
            }
            hand += t.entries[k];
        }
        let bad = if POPCNT {
            // A bad id's bit is BAD_BIT alone, so it lowers the count of card bits.
            (or & (BAD_BIT - 1)).count_ones() != W as u32 + 1
        } else {
            (or != sum) | (or >= BAD_BIT)
        };
        if bad {
            return Some(i);
        }
        *slot = score_entries::<W, CRIB>(hand, t.starters[s]);
    }
    None
}

/// [`score_rows_generic`] compiled for CPUs with BMI2 (shifts without flags or a fixed count
/// register) and popcnt; chosen at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
unsafe fn score_rows_bmi2<T: CardId, const W: usize, const CRIB: bool>(
    hands: &[T],
    starters: &[T],
    out: &mut [u8],
) -> Option<usize> {
    score_rows_generic::<T, W, CRIB, true>(hands, starters, out)
}

/// The kernel for this CPU (runtime feature detection, with the portable build as fallback).
#[inline]
fn score_rows<T: CardId, const W: usize, const CRIB: bool>(
    hands: &[T],
    starters: &[T],
    out: &mut [u8],
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the features the function is compiled for were detected on this CPU.
        return unsafe { score_rows_bmi2::<T, W, CRIB>(hands, starters, out) };
    }
    score_rows_generic::<T, W, CRIB, false>(hands, starters, out)
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
        let index = id_to_index(id as u16);
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

crate::batch::columns! {
    /// Per-category points of N shows, one vector per category.
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct ShowColumns {}
    columns |show| {
        /// Fifteens points per row.
        pub fifteens: Vec<u8> = rows,
        /// Pairs points per row.
        pub pairs: Vec<u8> = rows,
        /// Runs points per row.
        pub runs: Vec<u8> = rows,
        /// Flush points per row.
        pub flush: Vec<u8> = rows,
        /// Nobs point per row.
        pub nobs: Vec<u8> = rows,
        /// Totals per row.
        pub total: Vec<u8> = rows,
    }
}

/// The pegging points of the last card of each of N counts: rows of `width` ids (`width <= 13`)
/// in play order, padded at the end with -1.
pub fn peg_points_batch<T: CardId>(sequences: &[T], width: usize) -> Result<Vec<u8>> {
    peg_points_rows(IdRows::of_width("sequences", sequences, width)?)
}

/// [`peg_points_batch`] of rows whose length is checked (the width, 1 to 13, is checked here).
pub fn peg_points_rows<T: CardId>(sequences: IdRows<'_, T>) -> Result<Vec<u8>> {
    let width = sequences.width();
    if !(1..=13).contains(&width) {
        return Err(sequences.wrong_width("1 to 13 cards per row", Some(&format!("width {width}"))));
    }
    let ids = IdTable::new();
    let mut out = vec![0u8; sequences.rows()];
    for_chunks(&mut out, 1, |first, chunk| {
        let mut cards = [Card::from_id(0).unwrap(); 13];
        for (i, slot) in chunk.iter_mut().enumerate() {
            let r = first + i;
            let (n, count) = read_sequence(&ids, sequences.row(r), &mut cards).map_err(|e| e.in_row(r))?;
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

/// Count every show of `kind` by score 0..=29, by enumerating them all (in parallel), with the
/// kernel a batch call would choose ([`Kernel::chosen`]; if `CRIBPIQUET_KERNEL` names one this
/// CPU cannot run, the best it can: every kernel counts the same).
///
/// ```
/// use cribpiquet::cribbage::{hand_distribution, DistributionKind};
/// let counts = hand_distribution(DistributionKind::FiveCardHand);
/// assert_eq!(counts.iter().sum::<u64>(), 1_082_900);
/// ```
pub fn hand_distribution(kind: DistributionKind) -> [u64; 30] {
    let kernel = Kernel::chosen().unwrap_or_else(|_| Kernel::best());
    // Every show the enumeration makes is valid, so no kernel reports a bad row.
    hand_distribution_with(kind, kernel).unwrap_or_else(|_| hand_distribution_scalar(kind))
}

/// [`hand_distribution`] with the given kernel (an error if this CPU cannot run it). The scalar
/// kernel scores show by show; a vectorised one scores the shows of each pair of lowest cards
/// as one batch of byte rows.
pub fn hand_distribution_with(kind: DistributionKind, kernel: Kernel) -> Result<[u64; 30]> {
    runnable(kernel)?;
    if kernel == Kernel::Scalar {
        return Ok(hand_distribution_scalar(kind));
    }
    let (size, crib) = kind.shape();
    (0..52u8)
        .into_par_iter()
        .map_init(DistributionRows::default, |rows, a| {
            let mut counts = [0u64; 30];
            for b in a + 1..52 {
                if size == 3 {
                    rows.fill::<3>(a, b);
                } else {
                    rows.fill::<4>(a, b);
                }
                let (h, s) = (&rows.hands[..], &rows.starters[..]);
                let out = &mut rows.scores[..s.len()];
                let bad = match (size, crib) {
                    (3, _) => simd::run::<u8, 3, false>(kernel, h, s, &mut [out]),
                    (_, false) => simd::run::<u8, 4, false>(kernel, h, s, &mut [out]),
                    (_, true) => simd::run::<u8, 4, true>(kernel, h, s, &mut [out]),
                };
                bad_row(h, s, size, 0, bad)?;
                tally(out, &mut counts);
            }
            Ok(counts)
        })
        .try_reduce(|| [0u64; 30], |x, y| Ok(add_counts(x, y)))
}

impl DistributionKind {
    /// Cards in the hand, and whether the crib's flush rule applies.
    fn shape(self) -> (usize, bool) {
        match self {
            DistributionKind::Hand => (4, false),
            DistributionKind::Crib => (4, true),
            DistributionKind::FiveCardHand => (3, false),
        }
    }
}

fn add_counts(mut x: [u64; 30], y: [u64; 30]) -> [u64; 30] {
    for (a, b) in x.iter_mut().zip(y) {
        *a += b;
    }
    x
}

/// Add the scores to `counts` (four interleaved tallies, so that runs of equal scores do not
/// wait on one counter).
fn tally(scores: &[u8], counts: &mut [u64; 30]) {
    let mut part = [[0u32; 32]; 4];
    let mut quads = scores.chunks_exact(4);
    for q in &mut quads {
        for (t, &x) in part.iter_mut().zip(q) {
            t[x as usize & 31] += 1;
        }
    }
    for &x in quads.remainder() {
        part[0][x as usize & 31] += 1;
    }
    for (i, c) in counts.iter_mut().enumerate() {
        *c += part.iter().map(|t| t[i] as u64).sum::<u64>();
    }
}

/// The byte rows of every show whose two lowest hand cards are a given pair (buffers reused
/// from pair to pair: at most C(50, 2) hands x 48 starters).
#[derive(Default)]
struct DistributionRows {
    hands: Vec<u8>,
    starters: Vec<u8>,
    scores: Vec<u8>,
}

impl DistributionRows {
    /// Every hand of `W` cards whose lowest ids are `a < b`, each with every starter it does
    /// not hold, the hand's ids ascending.
    fn fill<const W: usize>(&mut self, a: u8, b: u8) {
        // The 50 cards other than a and b, ascending; the hands' other cards are those above b.
        let mut rest = [0u8; 50];
        for (slot, x) in rest.iter_mut().zip((0..52u8).filter(|&x| x != a && x != b)) {
            *slot = x;
        }
        let first = rest.iter().position(|&x| x > b).unwrap_or(rest.len());
        let above = rest.len() - first;
        let starters = rest.len() + 2 - W;
        let hands = if W == 3 { above } else { above * above.saturating_sub(1) / 2 };
        let rows = hands * starters;
        self.hands.resize(rows * W, 0);
        self.starters.resize(rows, 0);
        self.scores.resize(rows, 0);
        let (mut h, mut s) = (self.hands.chunks_exact_mut(W * starters), self.starters.chunks_exact_mut(starters));
        let mut put = |cards: &[u8], skip: &[usize]| {
            let (h, s) = (h.next().unwrap(), s.next().unwrap());
            let cards: &[u8; W] = cards.try_into().unwrap();
            for row in h.chunks_exact_mut(W) {
                row.copy_from_slice(cards);
            }
            // Every other card as the starter: `rest` without the hand's cards from it.
            let mut at = 0;
            let mut from = 0;
            for &i in skip {
                s[at..at + i - from].copy_from_slice(&rest[from..i]);
                at += i - from;
                from = i + 1;
            }
            s[at..].copy_from_slice(&rest[from..]);
        };
        for i in first..rest.len() {
            if W == 3 {
                put(&[a, b, rest[i]], &[i]);
            } else {
                for j in i + 1..rest.len() {
                    put(&[a, b, rest[i], rest[j]], &[i, j]);
                }
            }
        }
    }
}

/// [`hand_distribution`] by the scalar reference, show by show.
fn hand_distribution_scalar(kind: DistributionKind) -> [u64; 30] {
    let cards: Vec<Card> = Card::all().collect();
    let (size, crib) = kind.shape();
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
        .reduce(|| [0u64; 30], add_counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::score_show;

    /// Shows to check the kernel on: every single-suit 4-card hand (the flush and nobs cases)
    /// with every starter, then random hands. Rows of `width` ids (the first `width` cards).
    fn shows(width: usize) -> (Vec<u8>, Vec<u8>) {
        let (mut hands, mut starters) = (Vec::new(), Vec::new());
        for suit in 0..4u8 {
            for m in 0u32..1 << 13 {
                if m.count_ones() as usize != width {
                    continue;
                }
                let ids: Vec<u8> = (0..13).filter(|r| m >> r & 1 == 1).map(|r| suit * 13 + r).collect();
                for s in (0..52).filter(|s| !ids.contains(s)) {
                    hands.extend_from_slice(&ids);
                    starters.push(s);
                }
            }
        }
        let mut rng = crate::rng::Rng::new(4);
        let mut pack: Vec<u8> = (0..52).collect();
        for _ in 0..60_000 {
            rng.shuffle(&mut pack);
            hands.extend_from_slice(&pack[..width]);
            starters.push(pack[width]);
        }
        (hands, starters)
    }

    fn expected(hands: &[u8], starters: &[u8], width: usize, crib: bool) -> Vec<u8> {
        let card = |id: u8| Card::from_id(id as i64).unwrap();
        hands
            .chunks_exact(width)
            .zip(starters)
            .map(|(row, &s)| {
                score_show(Hand::from_cards(row.iter().map(|&i| card(i))).unwrap(), card(s), crib).unwrap()
            })
            .collect()
    }

    fn check_all_dtypes(hands: &[u8], starters: &[u8], width: usize, crib: bool, want: &[u8]) {
        macro_rules! each {
            ($($t:ty),*) => {$({
                let h: Vec<$t> = hands.iter().map(|&x| x as $t).collect();
                let s: Vec<$t> = starters.iter().map(|&x| x as $t).collect();
                assert_eq!(score_hand_batch(&h, width, &s, crib).unwrap(), want, "{}", stringify!($t));
                // The portable kernel too, whatever this CPU detects.
                let mut out = vec![0u8; want.len()];
                let bad = match (width, crib) {
                    (3, _) => score_rows_generic::<$t, 3, false, false>(&h, &s, &mut out),
                    (_, false) => score_rows_generic::<$t, 4, false, false>(&h, &s, &mut out),
                    (_, true) => score_rows_generic::<$t, 4, true, false>(&h, &s, &mut out),
                };
                assert_eq!((bad, &out[..]), (None, want), "portable {}", stringify!($t));
                let mut out = vec![0u8; want.len()];
                let bad = match (width, crib) {
                    (3, _) => score_rows_generic::<$t, 3, false, true>(&h, &s, &mut out),
                    (_, false) => score_rows_generic::<$t, 4, false, true>(&h, &s, &mut out),
                    (_, true) => score_rows_generic::<$t, 4, true, true>(&h, &s, &mut out),
                };
                assert_eq!((bad, &out[..]), (None, want), "popcount {}", stringify!($t));
            })*};
        }
        each!(u8, i8, i16, u16, i32, u32, i64, u64);
    }

    #[test]
    fn the_fused_kernel_equals_score_show_for_every_dtype() {
        for (width, crib) in [(4, false), (4, true), (3, false)] {
            let (hands, starters) = shows(width);
            let want = expected(&hands, &starters, width, crib);
            check_all_dtypes(&hands, &starters, width, crib, &want);
        }
        // Hand-checked rows: J♣ 5♦ 5♥ 5♠ + 5♣ is 29; 2♥ 4♥ 6♥ J♥ + 5♥ is fifteens J+5 and
        // 4+6+5 (4), the run 4-5-6 (3), a flush of five (5) and nobs (1): 13; as a crib the same.
        let hands = [10u8, 17, 30, 43, 27, 29, 31, 36];
        assert_eq!(score_hand_batch(&hands, 4, &[4u8, 30], false).unwrap(), [29, 13]);
        assert_eq!(score_hand_batch(&hands, 4, &[4u8, 30], true).unwrap(), [29, 13]);
        // With the 5♣ starter instead, the hearts are a hand flush of four (no crib flush) and
        // the jack is not nobs: 4 + 3 + 4 = 11 as a hand, 7 as a crib.
        assert_eq!(score_hand_batch(&hands[4..], 4, &[4u8], false).unwrap(), [11]);
        assert_eq!(score_hand_batch(&hands[4..], 4, &[4u8], true).unwrap(), [7]);
    }

    #[test]
    fn every_bad_id_and_duplicate_is_found_at_its_row_with_the_slow_message() {
        let (hands, starters) = shows(4);
        let n = crate::batch::CHUNK_ROWS + 10; // two chunks
        let (hands, starters) = (&hands[..4 * n], &starters[..n]);
        let rows = [0, 5, crate::batch::CHUNK_ROWS + 1, n - 1];
        macro_rules! each {
            ($($t:ty: $bad:expr),*) => {$({
                let mut h: Vec<$t> = hands.iter().map(|&x| x as $t).collect();
                let mut s: Vec<$t> = starters.iter().map(|&x| x as $t).collect();
                for &r in &rows {
                    for pos in 0..5 {
                        // A duplicate: this position repeats another card of the row.
                        let dup = if pos == 0 { hands[4 * r + 1] as $t } else { hands[4 * r] as $t };
                        for bad in $bad.iter().copied().map(|b: i128| b as $t).chain([dup]) {
                            let slot = if pos == 4 { &mut s[r] } else { &mut h[4 * r + pos] };
                            let keep = std::mem::replace(slot, bad);
                            let err = score_hand_batch(&h, 4, &s, false).unwrap_err();
                            let slow = read_show(&IdTable::new(), &h[4 * r..4 * r + 4], s[r]).unwrap_err();
                            assert_eq!(err.to_string(), slow.in_row(r).to_string(), "{} row {r} pos {pos}", stringify!($t));
                            // Both kernel builds stop at the row, whatever this CPU detects.
                            let mut out = vec![0u8; n];
                            assert_eq!(score_rows_generic::<$t, 4, false, false>(&h, &s, &mut out), Some(r));
                            assert_eq!(score_rows_generic::<$t, 4, false, true>(&h, &s, &mut out), Some(r));
                            if pos == 4 { s[r] = keep } else { h[4 * r + pos] = keep }
                        }
                    }
                }
            })*};
        }
        each!(u8: [52, 63, 64, 255], i8: [-1, -128, 52, 127], i16: [-1, 52, 300], u16: [52, 65535],
              i32: [-1, 52, 1 << 20], u32: [52, u32::MAX as i128], i64: [-1, 52, 1 << 40, i64::MIN as i128],
              u64: [52, 1 << 63, u64::MAX as i128]);
    }

    /// The vectorised kernels this CPU runs; the others are named with why they are skipped.
    fn vector_kernels() -> Vec<Kernel> {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
                eprintln!("skipped: the {} kernel's checks (this CPU lacks its instructions)", k.name());
            }
        });
        Kernel::available().into_iter().filter(|&k| k != Kernel::Scalar).collect()
    }

    /// `hands`/`starters` scored by every kernel and category by category, against scalar.
    fn check_kernels<T: CardId + std::fmt::Debug>(hands: &[T], starters: &[T], width: usize, crib: bool) {
        let shows = Shows::new(IdRows::of_width("hands", hands, width).unwrap(), starters, crib).unwrap();
        let want = shows.scores_with(Kernel::Scalar).unwrap();
        let want_parts = shows.explain_with(Kernel::Scalar).unwrap();
        for k in vector_kernels() {
            let got = shows.scores_with(k).unwrap();
            if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
                let row = &hands[i * width..(i + 1) * width];
                panic!(
                    "{} width {width} crib {crib}: row {i} {row:?} + {:?}: {} != {}",
                    k.name(),
                    starters[i],
                    got[i],
                    want[i]
                );
            }
            assert!(shows.explain_with(k).unwrap() == want_parts, "{} explain, width {width} crib {crib}", k.name());
        }
    }

    #[test]
    fn every_vector_kernel_equals_scalar_on_every_dtype_and_category() {
        for (width, crib) in [(4, false), (4, true), (3, false)] {
            let (hands, starters) = shows(width);
            macro_rules! each {
                ($($t:ty),*) => {$({
                    let h: Vec<$t> = hands.iter().map(|&x| x as $t).collect();
                    let s: Vec<$t> = starters.iter().map(|&x| x as $t).collect();
                    check_kernels(&h, &s, width, crib);
                })*};
            }
            each!(u8, i8, i16, u16, i32, u32, i64, u64);
        }
    }

    #[test]
    fn every_tail_length_and_an_unaligned_start() {
        let (hands, starters) = shows(4);
        let (h3, s3) = shows(3);
        for n in 0..=300 {
            check_kernels(&hands[..4 * n], &starters[..n], 4, false);
            check_kernels(&hands[..4 * n], &starters[..n], 4, true);
            check_kernels(&h3[..3 * n], &s3[..n], 3, false);
            // Not on a register's alignment: one row (and one starter) in.
            check_kernels(&hands[4..4 + 4 * n], &starters[1..1 + n], 4, false);
            let wide: Vec<i64> = h3[..3 * n + 3].iter().map(|&x| x as i64).collect();
            let ws: Vec<i64> = s3[..n + 1].iter().map(|&x| x as i64).collect();
            check_kernels(&wide[3..], &ws[1..], 3, false);
        }
    }

    #[test]
    fn a_bad_row_at_every_lane_and_in_the_tail_is_reported_as_scalar_does() {
        let (hands, starters) = shows(4);
        let n = 200; // three blocks of 64 (six of 32) and a tail of 8
        for width in [3usize, 4] {
            let hands: Vec<u8> = hands.chunks_exact(4).take(n).flat_map(|r| r[..width].to_vec()).collect();
            let starters = &starters[..n];
            macro_rules! each {
                ($($t:ty: $bad:expr),*) => {$({
                    let mut h: Vec<$t> = hands.iter().map(|&x| x as $t).collect();
                    let mut s: Vec<$t> = starters.iter().map(|&x| x as $t).collect();
                    for r in (0..64).chain([64, 100, 127, 128, 191, 192, 195, n - 1]) {
                        for pos in 0..=width {
                            let dup = if pos == 0 { hands[width * r + 1] as $t } else { hands[width * r] as $t };
                            for bad in $bad.iter().copied().map(|b: i128| b as $t).chain([dup]) {
                                let slot = if pos == width { &mut s[r] } else { &mut h[width * r + pos] };
                                let keep = std::mem::replace(slot, bad);
                                let shows = Shows::new(IdRows::of_width("hands", &h, width).unwrap(), &s, false).unwrap();
                                let want = shows.scores_with(Kernel::Scalar).unwrap_err().to_string();
                                assert!(want.starts_with(&format!("row {r}:")), "{want}");
                                for k in vector_kernels() {
                                    let what = format!("{} {} width {width} row {r} pos {pos}", k.name(), stringify!($t));
                                    assert_eq!(shows.scores_with(k).unwrap_err().to_string(), want, "{what}");
                                    assert_eq!(shows.explain_with(k).unwrap_err().to_string(), want, "{what} explain");
                                }
                                if pos == width { s[r] = keep } else { h[width * r + pos] = keep }
                            }
                        }
                    }
                })*};
            }
            each!(u8: [52, 63, 64, 255], i8: [-1, -128, 52], u16: [52, 256, 65535], i32: [-1, 52, 1 << 20],
                  i64: [-1, 52, 1 << 40, i64::MIN as i128], u64: [52, 1 << 63, u64::MAX as i128]);
        }
    }

    #[test]
    fn a_batch_below_one_register_runs_scalar_and_reads_no_variable() {
        // The smallest register of any vector kernel, so no batch below it runs a vector kernel.
        let vector = Kernel::ALL.into_iter().filter(|&k| k != Kernel::Scalar);
        assert_eq!(vector.map(simd::block_rows).min(), Some(simd::MIN_BLOCK_ROWS));
        let ids: Vec<u8> = [10u8, 17, 30, 43].repeat(simd::MIN_BLOCK_ROWS);
        let starters = vec![4u8; simd::MIN_BLOCK_ROWS];
        for rows in [0, 1, simd::MIN_BLOCK_ROWS - 1] {
            let hands = IdRows::of_width("hands", &ids[..rows * 4], 4).unwrap();
            let shows = Shows::new(hands, &starters[..rows], false).unwrap();
            assert_eq!(shows.kernel(), Ok(Kernel::Scalar));
            assert_eq!(shows.scores().unwrap(), vec![29; rows]);
        }
    }

    #[test]
    fn a_kernel_this_cpu_lacks_is_an_error_not_a_crash() {
        let shows = Shows::new(IdRows::of_width("hands", &[1u8, 2, 3, 4], 4).unwrap(), &[5u8], false).unwrap();
        for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
            let err = shows.scores_with(k).unwrap_err().to_string();
            assert!(err.contains("not available on this CPU"), "{err}");
        }
    }

    /// Every show of `width` hand cards with every starter, in every order of the hand's cards,
    /// scored by scalar (u8 ids) and by every vector kernel for u8 and, if `dtypes`, for every
    /// other id type; any difference fails. Rows are made by the hand's two lowest cards (at
    /// most 1,225 x 48 x 24 rows at a time). Returns the number of shows per dtype and kernel.
    fn exhaustive(width: usize, crib: bool, dtypes: bool) -> u64 {
        let mut perms: Vec<Vec<usize>> = Vec::new();
        for p in 0..width.pow(width as u32) {
            let order: Vec<usize> = (0..width).map(|i| p / width.pow(i as u32) % width).collect();
            if (0..width).all(|i| order.contains(&i)) {
                perms.push(order);
            }
        }
        fn check<T: CardId + std::fmt::Debug>(hands: &[T], starters: &[T], width: usize, crib: bool, want: &[u8]) {
            let shows = Shows::new(IdRows::of_width("hands", hands, width).unwrap(), starters, crib).unwrap();
            for k in vector_kernels() {
                let got = shows.scores_with(k).unwrap();
                if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
                    let (row, name) = (&hands[i * width..(i + 1) * width], std::any::type_name::<T>());
                    panic!(
                        "{} {name} width {width} crib {crib}: {row:?} + {:?}: {} != {}",
                        k.name(),
                        starters[i],
                        got[i],
                        want[i]
                    );
                }
            }
        }
        let mut checked = 0u64;
        for a in 0..52u8 {
            for b in a + 1..52 {
                let (mut hands, mut starters) = (Vec::new(), Vec::new());
                let mut push = |cards: &[u8]| {
                    for st in (0..52u8).filter(|s| !cards.contains(s)) {
                        for p in &perms {
                            hands.extend(p.iter().map(|&i| cards[i]));
                            starters.push(st);
                        }
                    }
                };
                for c in b + 1..52 {
                    if width == 3 {
                        push(&[a, b, c]);
                    } else {
                        for d in c + 1..52 {
                            push(&[a, b, c, d]);
                        }
                    }
                }
                let shows = Shows::new(IdRows::of_width("hands", &hands, width).unwrap(), &starters, crib).unwrap();
                let want = shows.scores_with(Kernel::Scalar).unwrap();
                check(&hands, &starters, width, crib, &want);
                if dtypes {
                    macro_rules! each {
                        ($($t:ty),*) => {$({
                            let h: Vec<$t> = hands.iter().map(|&x| x as $t).collect();
                            let s: Vec<$t> = starters.iter().map(|&x| x as $t).collect();
                            check(&h, &s, width, crib, &want);
                        })*};
                    }
                    each!(i8, i16, u16, i32, u32, i64, u64);
                }
                checked += want.len() as u64;
            }
        }
        checked
    }

    #[test]
    fn hand_distribution_is_the_same_with_every_kernel() {
        // The five-card hand in a debug build (the 13 M hand and crib shows in the optimised CI
        // step, and the hand's table against the published one in `tests.rs`).
        let all = [DistributionKind::FiveCardHand, DistributionKind::Hand, DistributionKind::Crib];
        for kind in if cfg!(debug_assertions) { &all[..1] } else { &all[..] } {
            let kind = *kind;
            let want = hand_distribution_with(kind, Kernel::Scalar).unwrap();
            assert_eq!(want.iter().sum::<u64>(), kind.shows());
            for k in vector_kernels() {
                assert_eq!(hand_distribution_with(kind, k).unwrap(), want, "{} {kind:?}", k.name());
            }
            assert_eq!(hand_distribution(kind), want);
        }
        for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
            let err = hand_distribution_with(DistributionKind::Hand, k).unwrap_err().to_string();
            assert!(err.contains("not available on this CPU"), "{err}");
        }
    }

    /// The debug build's share of the exhaustive check: every five-card show in every order
    /// (1,082,900 x 6), every hand and crib show in the cards' ascending order for u8.
    #[test]
    fn exhaustive_light_every_five_card_show_in_every_order() {
        assert_eq!(exhaustive(3, false, false), 6 * 1_082_900);
    }

    /// Every hand and crib show (12,994,800 each) in all 24 orders of the hand's cards, and every
    /// five-card show in all 6 orders, for each dtype: too slow for the debug build, run in CI's
    /// optimised step (`cargo test --profile quick --lib -- --ignored exhaustive_every`).
    #[test]
    #[ignore = "minutes in a debug build: CI runs it optimised (--profile quick --ignored)"]
    fn exhaustive_every_show_in_every_order_for_every_dtype() {
        assert_eq!(exhaustive(3, false, true), 6 * 1_082_900);
        assert_eq!(exhaustive(4, false, true), 24 * 12_994_800);
        assert_eq!(exhaustive(4, true, true), 24 * 12_994_800);
    }
}
