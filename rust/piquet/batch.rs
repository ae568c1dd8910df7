//! Batch declarations over slices of card ids (rows of 12, row-major): validated and computed in
//! one pass per row, in parallel across cores for large batches (the driver and the first-bad-row
//! rule are [`crate::batch`]'s). Also the column sets ([`Columns`]) of piquet's array results: the
//! declaration features and the exchange analysis.

use super::card::Card;
use super::card::Hand;
use super::compare::points_of;
use super::declare::{Compiled, Summary};
use super::exchange::{ExchangeMcCounts, ExchangeRow};
use super::rules::Rules;
use crate::batch::{for_chunks, for_tasks, CardId, Column, Columns, IdRows, Values, CHUNK_ROWS};
use crate::error::{Error, Result};

/// Read one row of 12 ids into a mask: ids in `0..32`, no card twice. The common case is checked
/// once per row (no branch per id); a bad row is read again, in order, for the exact error.
#[inline(always)]
fn read_hand<T: CardId>(row: &[T]) -> Result<u32> {
    let mut mask = 0u32;
    // OR of all ids: negative if any id is, at least 32 if any id is.
    let mut all = 0i128;
    for &id in row {
        let v = id.value();
        all |= v;
        mask |= 1u32 << (v as u32 & 31);
    }
    if !(0..32).contains(&all) || popcount(mask) != row.len() as u32 {
        return Err(row_error(row));
    }
    Ok(mask)
}

/// `1 << id` for the ids 0..32, 0 for every other index (a bad id adds no card bit).
static ID_BITS: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut id = 0;
    while id < 32 {
        t[id] = 1 << id;
        id += 1;
    }
    t
};

/// The mask of a row of 12 ids; a row is valid iff the mask has 12 bits. No branch, no bounds
/// check. One-byte ids are looked up in [`ID_BITS`] (i8 clamped: negative ids wrap to huge
/// values): a bad id adds no bit, a repeated one no new bit. Wider ids are shifted in, and a
/// bad one (the OR of the row's ids reaches 32) empties the mask, so it fails the same test.
#[inline(always)]
fn mask_of<T: CardId>(row: &[T]) -> u32 {
    let mut mask = 0u32;
    if std::mem::size_of::<T>() == 1 {
        for &id in &row[..12] {
            mask |= ID_BITS[id.as_index().min(255) as usize];
        }
        mask
    } else {
        let mut all = 0u64;
        for &id in &row[..12] {
            let v = id.as_index();
            all |= v;
            mask |= 1u32 << (v & 31);
        }
        if all < 32 {
            mask
        } else {
            0
        }
    }
}

/// Bits set, without the popcnt instruction the portable x86-64 baseline lacks.
#[inline(always)]
fn popcount(x: u32) -> u32 {
    let x = x - ((x >> 1) & 0x5555_5555);
    let x = (x & 0x3333_3333) + ((x >> 2) & 0x3333_3333);
    (((x + (x >> 4)) & 0x0F0F_0F0F).wrapping_mul(0x0101_0101)) >> 24
}

/// The first problem of a row known to be bad.
#[cold]
fn row_error<T: CardId>(row: &[T]) -> Error {
    let mut mask = 0u32;
    for &id in row {
        let v = id.value();
        if !(0..32).contains(&v) {
            return Error::CardIdOutOfRange { id: v, limit: Card::COUNT };
        }
        if mask & 1 << v != 0 {
            return Error::DuplicateCard(Card::from_id(v as i64).map(|c| c.to_string()).unwrap_or_default());
        }
        mask |= 1 << v;
    }
    Error::InvalidValue("bad row".into())
}

/// N hands of 12 card ids, row-major: an [`IdRows`] whose width is checked once, by
/// [`HandRows::new`]. The ids themselves are checked by the pass that reads them (the first bad
/// row is the error).
#[derive(Debug, Clone, Copy)]
pub struct HandRows<'a, T> {
    ids: &'a [T],
}

impl<'a, T: CardId> HandRows<'a, T> {
    /// `hands` as hands: an error unless its rows hold 12 ids
    /// (`"hands must have 12 cards per row, got shape (2, 11)"`).
    pub fn new(hands: IdRows<'a, T>) -> Result<HandRows<'a, T>> {
        if hands.width() != 12 {
            return Err(hands.wrong_width("12 cards per row", None));
        }
        Ok(HandRows { ids: hands.ids() })
    }

    /// Number of hands.
    pub fn rows(&self) -> usize {
        self.ids.len() / 12
    }
}

/// N deals, elder's and the dealer's hands (rows of 12 ids each), as many of each: checked once,
/// by [`DealRows::new`].
#[derive(Debug, Clone, Copy)]
pub struct DealRows<'a, T> {
    elder: HandRows<'a, T>,
    dealer: HandRows<'a, T>,
}

impl<'a, T: CardId> DealRows<'a, T> {
    /// Elder's and the dealer's hands: an error unless they have as many rows (checked first),
    /// each of 12 ids.
    pub fn new(elder: IdRows<'a, T>, dealer: IdRows<'a, T>) -> Result<DealRows<'a, T>> {
        elder.same_rows(dealer.name(), dealer.rows())?;
        Ok(DealRows { elder: HandRows::new(elder)?, dealer: HandRows::new(dealer)? })
    }

    /// Slices of whole rows of 12 (the slice API's view).
    fn of_slices(elder: &'a [T], dealer: &'a [T]) -> Result<DealRows<'a, T>> {
        DealRows::new(IdRows::of_width("elder", elder, 12)?, IdRows::of_width("dealer", dealer, 12)?)
    }

    /// Number of deals.
    pub fn rows(&self) -> usize {
        self.elder.rows()
    }
}

/// Declaration features of N hands, one column per feature (rows in input order), from
/// [`declarations_batch`].
///
/// Ranks are piquet ranks (0 = 7 … 7 = ace), suits 0..4 (C D H S).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeclarationFeatures {
    /// Cards in the point (the longest suit), 3..=8.
    pub point_length: Vec<u8>,
    /// The point's value (sum of point values), the tie-break.
    pub point_value: Vec<u8>,
    /// The point's suit (the lowest suit among equal points).
    pub point_suit: Vec<u8>,
    /// Length of the best sequence, 0 when there is none.
    pub best_sequence_length: Vec<u8>,
    /// Rank of the best sequence's top card, 0 when there is none (a real top is at least 2).
    pub best_sequence_top: Vec<u8>,
    /// Number of sequences (0..=4).
    pub sequence_count: Vec<u8>,
    /// Value of all sequences under the rules given.
    pub sequence_value: Vec<u16>,
    /// Best set: 0 none, 3 a trio, 4 a fourteen.
    pub best_set_kind: Vec<u8>,
    /// Rank of the best set (3..=7), 0 when there is none.
    pub best_set_rank: Vec<u8>,
    /// Value of all sets (14 per fourteen, 3 per trio).
    pub sets_value: Vec<u16>,
    /// Carte blanche (no K, Q, J in the hand given).
    pub carte_blanche: Vec<bool>,
}

impl DeclarationFeatures {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.point_length.len()
    }

    /// No rows?
    pub fn is_empty(&self) -> bool {
        self.point_length.is_empty()
    }

    fn zeroed(n: usize) -> DeclarationFeatures {
        DeclarationFeatures {
            point_length: vec![0; n],
            point_value: vec![0; n],
            point_suit: vec![0; n],
            best_sequence_length: vec![0; n],
            best_sequence_top: vec![0; n],
            sequence_count: vec![0; n],
            sequence_value: vec![0; n],
            best_set_kind: vec![0; n],
            best_set_rank: vec![0; n],
            sets_value: vec![0; n],
            carte_blanche: vec![false; n],
        }
    }
}

/// The columns by name, in field order (the dict `declarations_batch` returns in Python).
impl Columns for DeclarationFeatures {
    fn columns(self) -> Vec<(&'static str, Column)> {
        vec![
            ("point_length", Column::rows(self.point_length)),
            ("point_value", Column::rows(self.point_value)),
            ("point_suit", Column::rows(self.point_suit)),
            ("best_sequence_length", Column::rows(self.best_sequence_length)),
            ("best_sequence_top", Column::rows(self.best_sequence_top)),
            ("sequence_count", Column::rows(self.sequence_count)),
            ("sequence_value", Column::rows(self.sequence_value)),
            ("best_set_kind", Column::rows(self.best_set_kind)),
            ("best_set_rank", Column::rows(self.best_set_rank)),
            ("sets_value", Column::rows(self.sets_value)),
            ("carte_blanche", Column::rows(self.carte_blanche)),
        ]
    }
}

/// A (rows, width) column from fixed-size rows.
fn matrix<T, const W: usize>(rows: impl Iterator<Item = [T; W]>) -> Column
where
    Vec<T>: Into<Values>,
{
    let flat: Vec<T> = rows.flatten().collect();
    let n = flat.len() / W;
    Column::shaped(flat, &[n, W])
}

/// The rows of the exact exchange analysis ([`exact_exchange`](super::exact_exchange)) of a dealt
/// hand as columns, after the hand's mask (`hand`, a count).
#[derive(Debug, Clone, PartialEq)]
pub struct ExactExchangeColumns(pub Hand, pub Vec<ExchangeRow>);

impl Columns for ExactExchangeColumns {
    fn columns(self) -> Vec<(&'static str, Column)> {
        let ExactExchangeColumns(hand, rows) = self;
        let col = |f: fn(&ExchangeRow) -> f64| Column::rows(rows.iter().map(f).collect::<Vec<f64>>());
        vec![
            ("hand", Column::Count(hand.mask() as u64)),
            ("discard", Column::rows(rows.iter().map(|r| r.discard.mask()).collect::<Vec<u32>>())),
            ("expected_point", col(|r| r.expected_point)),
            ("expected_sequence", col(|r| r.expected_sequence)),
            ("expected_sets", col(|r| r.expected_sets)),
            ("carte_blanche", Column::rows(rows.iter().map(|r| r.carte_blanche).collect::<Vec<u16>>())),
            ("expected_total", col(|r| r.expected_total)),
            ("point_length", matrix(rows.iter().map(|r| r.point_length))),
            ("sequence_length", matrix(rows.iter().map(|r| r.sequence_length))),
            ("set_size", matrix(rows.iter().map(|r| r.set_size))),
            ("total_30", col(|r| r.total_30)),
            ("draws", Column::rows(rows.iter().map(|r| r.draws).collect::<Vec<u64>>())),
        ]
    }
}

/// The Monte Carlo counts of every discard ([`monte_carlo_exchange`](super::monte_carlo_exchange))
/// as columns: (rows, 2) pairs but for `discard` (masks) and `samples`.
impl Columns for Vec<ExchangeMcCounts> {
    fn columns(self) -> Vec<(&'static str, Column)> {
        let c = &self;
        vec![
            ("discard", Column::rows(c.iter().map(|c| c.discard.mask()).collect::<Vec<u32>>())),
            ("samples", Column::rows(c.iter().map(|c| c.samples).collect::<Vec<u64>>())),
            ("point", matrix(c.iter().map(|c| c.point))),
            ("sequences", matrix(c.iter().map(|c| c.sequences))),
            ("sets", matrix(c.iter().map(|c| c.sets))),
            ("repique", matrix(c.iter().map(|c| c.repique))),
            ("pique", matrix(c.iter().map(|c| c.pique))),
            ("points", matrix(c.iter().map(|c| c.points))),
            ("net", matrix(c.iter().map(|c| c.net))),
            ("total", matrix(c.iter().map(|c| c.total))),
        ]
    }
}

/// [`Summary::set_key`] → (kind, rank), as a table so that the column pass has no branches.
const SET_DECODE: [(u8, u8); 32] = {
    let mut t = [(0u8, 0u8); 32];
    let mut k = 1;
    while k < 17 {
        t[k] = if k <= 8 { (3, k as u8 - 1) } else { (4, k as u8 - 9) };
        k += 1;
    }
    t
};

/// One chunk of every column.
struct Chunk<'a> {
    point_length: &'a mut [u8],
    point_value: &'a mut [u8],
    point_suit: &'a mut [u8],
    best_sequence_length: &'a mut [u8],
    best_sequence_top: &'a mut [u8],
    sequence_count: &'a mut [u8],
    sequence_value: &'a mut [u16],
    best_set_kind: &'a mut [u8],
    best_set_rank: &'a mut [u8],
    sets_value: &'a mut [u16],
    carte_blanche: &'a mut [bool],
}

impl Chunk<'_> {
    #[inline(always)]
    fn write(&mut self, i: usize, s: &Summary, mask: u32) {
        self.point_length[i] = (s.point_key >> 7) as u8;
        self.point_value[i] = (s.point_key & 0x7F) as u8;
        self.point_suit[i] = s.point_suit(mask);
        self.best_sequence_length[i] = s.seq_key >> 3;
        self.best_sequence_top[i] = s.seq_key & 7;
        self.sequence_count[i] = s.seq_count;
        self.sequence_value[i] = s.seq_value;
        let (kind, rank) = SET_DECODE[(s.set_key & 31) as usize];
        self.best_set_kind[i] = kind;
        self.best_set_rank[i] = rank;
        self.sets_value[i] = s.set_value;
        self.carte_blanche[i] = s.carte_blanche;
    }
}

/// Declaration features of N hands: `hands` is N rows of 12 ids (`0..32`, distinct in a row).
/// Sequence values follow `rules`; carte blanche is judged on the hands given.
///
/// The error of a bad input names the first bad row. Large batches run on all cores.
///
/// ```
/// use cribpiquet::piquet::{declarations_batch, Rules};
/// // A K Q J 10 9 of hearts (ids 23..18), the aces of clubs, diamonds and spades, 7C 8C 7D.
/// let hand: Vec<u8> = vec![23, 22, 21, 20, 19, 18, 7, 15, 31, 0, 1, 8];
/// let f = declarations_batch(&hand, &Rules::russian()).unwrap();
/// assert_eq!((f.point_length[0], f.point_value[0], f.point_suit[0]), (6, 60, 2));
/// assert_eq!((f.best_sequence_length[0], f.best_sequence_top[0], f.sequence_value[0]), (6, 7, 16));
/// assert_eq!((f.best_set_kind[0], f.best_set_rank[0], f.sets_value[0]), (4, 7, 14));
/// assert!(!f.carte_blanche[0]);
/// assert!(declarations_batch(&[0u8; 12], &Rules::russian()).unwrap_err().to_string().starts_with("row 0"));
/// ```
pub fn declarations_batch<T: CardId>(hands: &[T], rules: &Rules) -> Result<DeclarationFeatures> {
    HandRows::new(IdRows::of_width("hands", hands, 12)?)?.declarations(rules)
}

impl<T: CardId> HandRows<'_, T> {
    /// [`declarations_batch`] of checked rows.
    pub fn declarations(self, rules: &Rules) -> Result<DeclarationFeatures> {
        rules.validate()?;
        let (hands, n) = (self.ids, self.rows());
        let c = Compiled::new(rules);
        let mut f = DeclarationFeatures::zeroed(n);
        // One task per chunk of rows, each holding its slice of every column.
        let mut chunks = Vec::with_capacity(n.div_ceil(CHUNK_ROWS));
        {
            let mut pl = f.point_length.chunks_mut(CHUNK_ROWS);
            let mut pv = f.point_value.chunks_mut(CHUNK_ROWS);
            let mut ps = f.point_suit.chunks_mut(CHUNK_ROWS);
            let mut sl = f.best_sequence_length.chunks_mut(CHUNK_ROWS);
            let mut st = f.best_sequence_top.chunks_mut(CHUNK_ROWS);
            let mut sc = f.sequence_count.chunks_mut(CHUNK_ROWS);
            let mut sv = f.sequence_value.chunks_mut(CHUNK_ROWS);
            let mut tk = f.best_set_kind.chunks_mut(CHUNK_ROWS);
            let mut tr = f.best_set_rank.chunks_mut(CHUNK_ROWS);
            let mut tv = f.sets_value.chunks_mut(CHUNK_ROWS);
            let mut cb = f.carte_blanche.chunks_mut(CHUNK_ROWS);
            // Every column has n rows, so the iterators yield the same number of chunks.
            while let (
                Some(point_length),
                Some(point_value),
                Some(point_suit),
                Some(best_sequence_length),
                Some(best_sequence_top),
                Some(sequence_count),
                Some(sequence_value),
                Some(best_set_kind),
                Some(best_set_rank),
                Some(sets_value),
                Some(carte_blanche),
            ) = (
                pl.next(),
                pv.next(),
                ps.next(),
                sl.next(),
                st.next(),
                sc.next(),
                sv.next(),
                tk.next(),
                tr.next(),
                tv.next(),
                cb.next(),
            ) {
                let cols = Chunk {
                    point_length,
                    point_value,
                    point_suit,
                    best_sequence_length,
                    best_sequence_top,
                    sequence_count,
                    sequence_value,
                    best_set_kind,
                    best_set_rank,
                    sets_value,
                    carte_blanche,
                };
                chunks.push(cols);
            }
        }
        // One task per chunk; the error is that of the lowest bad row, whatever the scheduling.
        for_tasks(chunks, |first, mut cols: Chunk| {
            for i in 0..cols.point_length.len() {
                let r = first + i;
                let row = &hands[r * 12..(r + 1) * 12];
                let mask = mask_of(row);
                if popcount(mask) != 12 {
                    return Err(row_error(row).in_row(r));
                }
                cols.write(i, &Summary::of(mask, &c.lanes), mask);
            }
            Ok(())
        })?;
        Ok(f)
    }
}

/// Each player's declaration points (repique included, carte blanche judged on the hands given)
/// for N deals: `elder` and `dealer` are N rows of 12 ids each.
///
/// Every row is validated (ids in `0..32`, 12 distinct per hand, no card in both hands); the
/// error names the first bad row. Large batches run on all cores. The numbers are those of
/// [`score_declarations`](super::score_declarations)`(…).totals`.
///
/// ```
/// use cribpiquet::piquet::{score_declarations_batch, Rules};
/// let elder: Vec<i64> = (0..12).collect();   // all clubs, 7D 8D 9D 10D
/// let dealer: Vec<i64> = (16..28).collect(); // all hearts, 7S 8S 9S 10S
/// // Both: point of eight (equal: 75 each), huitième (equal: cancelled); nothing else.
/// assert_eq!(score_declarations_batch(&elder, &dealer, &Rules::russian()).unwrap(), [[0, 0]]);
/// assert!(score_declarations_batch(&elder, &elder, &Rules::russian()).is_err());
/// ```
pub fn score_declarations_batch<T: CardId>(elder: &[T], dealer: &[T], rules: &Rules) -> Result<Vec<[i16; 2]>> {
    DealRows::of_slices(elder, dealer)?.score(rules)
}

/// [`score_declarations_batch`] writing into a caller's buffer of `2 × N` values (elder, dealer
/// for each row: the layout of an `(N, 2)` C-contiguous array).
///
/// ```
/// use cribpiquet::piquet::{score_declarations_batch_into, Rules};
/// let elder: Vec<u8> = (0..12).collect();
/// let dealer: Vec<u8> = (16..28).collect();
/// let mut out = [9i16; 2];
/// score_declarations_batch_into(&elder, &dealer, &Rules::russian(), &mut out).unwrap();
/// assert_eq!(out, [0, 0]);
/// ```
pub fn score_declarations_batch_into<T: CardId>(
    elder: &[T],
    dealer: &[T],
    rules: &Rules,
    out: &mut [i16],
) -> Result<()> {
    DealRows::of_slices(elder, dealer)?.score_into(rules, out)
}

impl<T: CardId> DealRows<'_, T> {
    /// [`score_declarations_batch`] of checked deals.
    pub fn score(self, rules: &Rules) -> Result<Vec<[i16; 2]>> {
        let mut out = vec![[0i16; 2]; self.rows()];
        self.score_pairs(rules, &mut out)?;
        Ok(out)
    }

    /// [`score_declarations_batch_into`] of checked deals (`out` must hold `2 × N` values).
    pub fn score_into(self, rules: &Rules, out: &mut [i16]) -> Result<()> {
        let rows = self.rows();
        if out.len() != 2 * rows {
            return Err(Error::InvalidValue(format!("output holds {} values, need {}", out.len(), 2 * rows)));
        }
        // SAFETY (of the cast): `[i16; 2]` has the size and alignment of two `i16`, and `out` holds
        // `2 * rows` of them, so it is exactly `rows` pairs.
        let pairs: &mut [[i16; 2]] = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast(), rows) };
        self.score_pairs(rules, pairs)
    }

    fn score_pairs(self, rules: &Rules, out: &mut [[i16; 2]]) -> Result<()> {
        rules.validate()?;
        let c = Compiled::new(rules);
        for_chunks(out, 1, |first, chunk| score_chunk(self, first, chunk, &c))
    }
}

/// Score the deals `first..first + out.len()` into `out`; the error of the first bad one.
#[inline(always)]
fn score_chunk_generic<T: CardId>(
    deals: DealRows<'_, T>,
    first: usize,
    out: &mut [[i16; 2]],
    c: &Compiled,
) -> Result<()> {
    let lanes: &[u64; 256] = &c.lanes;
    let rows = first * 12..(first + out.len()) * 12;
    let (elder, dealer) = (&deals.elder.ids[rows.clone()], &deals.dealer.ids[rows]);
    for (i, ((slot, er), dr)) in out.iter_mut().zip(elder.chunks_exact(12)).zip(dealer.chunks_exact(12)).enumerate() {
        let (e, d) = (mask_of(er), mask_of(dr));
        // One test for the whole deal: 24 distinct cards in range (12 + 12 bits that are
        // disjoint). A bad deal is read again in order for the exact error.
        if popcount(e | d) != 24 {
            return Err(deal_error(er, dr).in_row(first + i));
        }
        *slot = points_of(&Summary::of(e, lanes), &Summary::of(d, lanes), c.reckoning);
    }
    Ok(())
}

/// [`score_chunk_generic`] compiled for CPUs with BMI1/2, popcnt and lzcnt; chosen at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
unsafe fn score_chunk_bmi2<T: CardId>(
    deals: DealRows<'_, T>,
    first: usize,
    out: &mut [[i16; 2]],
    c: &Compiled,
) -> Result<()> {
    score_chunk_generic(deals, first, out, c)
}

/// The deal kernel for this CPU (runtime feature detection, the portable build as fallback).
fn score_chunk<T: CardId>(deals: DealRows<'_, T>, first: usize, out: &mut [[i16; 2]], c: &Compiled) -> Result<()> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
    {
        // SAFETY: the features the function is compiled for were detected on this CPU.
        return unsafe { score_chunk_bmi2(deals, first, out, c) };
    }
    score_chunk_generic(deals, first, out, c)
}

/// The first problem of a deal known to be bad: the elder's hand, the dealer's, then a card in
/// both.
#[cold]
fn deal_error<T: CardId>(elder: &[T], dealer: &[T]) -> Error {
    let e = match read_hand(elder) {
        Ok(e) => e,
        Err(err) => return err,
    };
    let d = match read_hand(dealer) {
        Ok(d) => d,
        Err(err) => return err,
    };
    match Card::from_id((e & d).trailing_zeros() as i64) {
        Ok(card) => Error::DuplicateCard(card.to_string()),
        Err(err) => err,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piquet::{declarations_with_rules, score_declarations, Hand};
    use crate::rng::Rng;

    fn random_deals(n: usize, seed: u64) -> (Vec<i32>, Vec<i32>) {
        let mut rng = Rng::new(seed);
        let mut ids: Vec<i32> = (0..32).collect();
        let (mut e, mut d) = (Vec::new(), Vec::new());
        for _ in 0..n {
            rng.shuffle(&mut ids);
            e.extend_from_slice(&ids[..12]);
            d.extend_from_slice(&ids[12..24]);
        }
        (e, d)
    }

    fn hand_of(row: &[i32]) -> Hand {
        row.iter().map(|&i| Card::from_id(i as i64).unwrap()).collect()
    }

    #[test]
    fn batch_equals_single_across_chunks() {
        // More rows than one chunk, so the parallel path runs too.
        let n = CHUNK_ROWS + 1234;
        for rules in [Rules::russian(), Rules::rubicon()] {
            let (e, d) = random_deals(n, 5);
            let scores = score_declarations_batch(&e, &d, &rules).unwrap();
            let mut flat = vec![0i16; 2 * n];
            score_declarations_batch_into(&e, &d, &rules, &mut flat).unwrap();
            let f = declarations_batch(&e, &rules).unwrap();
            assert_eq!(f.len(), n);
            // Check a spread of rows against the explained single-deal functions.
            for r in (0..n).step_by(97).chain([n - 1]) {
                let (he, hd) = (hand_of(&e[r * 12..r * 12 + 12]), hand_of(&d[r * 12..r * 12 + 12]));
                let s = score_declarations(he, hd, &rules, None, None).unwrap();
                assert_eq!(scores[r], s.totals.map(|x| x as i16), "row {r}");
                assert_eq!(&flat[2 * r..2 * r + 2], &scores[r]);
                let x = declarations_with_rules(he, None, &rules).unwrap();
                assert_eq!(
                    (f.point_length[r], f.point_value[r], f.point_suit[r]),
                    (x.point.length, x.point.value, x.point.suit)
                );
                let best = x.best_sequence();
                assert_eq!(f.best_sequence_length[r], best.map_or(0, |s| s.length));
                assert_eq!(f.best_sequence_top[r], best.map_or(0, |s| s.top.rank()));
                assert_eq!(f.sequence_count[r] as usize, x.sequences.len());
                assert_eq!(f.sequence_value[r], x.sequences_value());
                let set = x.best_set();
                assert_eq!(
                    (f.best_set_kind[r], f.best_set_rank[r]),
                    (set.map_or(0, |s| s.count), set.map_or(0, |s| s.rank))
                );
                assert_eq!(f.sets_value[r], x.sets_value());
                assert_eq!(f.carte_blanche[r], x.carte_blanche);
            }
        }
    }

    #[test]
    fn the_first_bad_row_is_reported_whatever_the_scheduling() {
        let n = 3 * CHUNK_ROWS;
        let (mut e, mut d) = random_deals(n, 9);
        // Bad rows in the second and third chunks: the lower one is reported.
        let late = 2 * CHUNK_ROWS + 7;
        e[late * 12] = 40;
        let early = CHUNK_ROWS + 3;
        d[early * 12 + 1] = d[early * 12];
        let err = score_declarations_batch(&e, &d, &Rules::russian()).unwrap_err();
        assert!(matches!(&err, Error::InRow { row, .. } if *row == early), "{err}");
        assert!(err.to_string().starts_with(&format!("row {early}: duplicate card")));
        let err = declarations_batch(&e, &Rules::russian()).unwrap_err();
        assert_eq!(err.to_string(), format!("row {late}: card id 40 is out of range (ids are 0..31)"));
    }

    #[test]
    fn the_one_test_per_deal_finds_every_problem_in_reading_order() {
        let n = CHUNK_ROWS + 50; // two chunks
        let (e, d) = random_deals(n, 11);
        let r = CHUNK_ROWS + 7;
        let rules = Rules::russian();
        let run = |e: &[i32], d: &[i32]| score_declarations_batch(e, d, &rules).unwrap_err().to_string();
        // The dealer's bad id alone; then with a bad elder id too, the elder's is reported.
        let (mut e1, mut d1) = (e.clone(), d.clone());
        d1[r * 12 + 11] = -1;
        assert_eq!(run(&e1, &d1), format!("row {r}: card id -1 is out of range (ids are 0..31)"));
        e1[r * 12 + 5] = 32;
        assert_eq!(run(&e1, &d1), format!("row {r}: card id 32 is out of range (ids are 0..31)"));
        // A card twice in one hand (the count of bits drops), and a card in both hands.
        let (mut e2, mut d2) = (e.clone(), d.clone());
        e2[r * 12 + 1] = e2[r * 12];
        let card = Card::from_id(e2[r * 12] as i64).unwrap();
        assert_eq!(run(&e2, &d2), format!("row {r}: duplicate card {card}"));
        let e2 = e.clone();
        d2[r * 12 + 4] = e2[r * 12 + 9];
        let card = Card::from_id(e2[r * 12 + 9] as i64).unwrap();
        assert_eq!(run(&e2, &d2), format!("row {r}: duplicate card {card}"));
        // Wide and unsigned dtypes: a value whose low bits are a valid id is still out of range.
        let e64: Vec<i64> = e.iter().map(|&x| x as i64).collect();
        let mut d64: Vec<i64> = d.iter().map(|&x| x as i64).collect();
        d64[r * 12] += 1 << 40;
        let err = score_declarations_batch(&e64, &d64, &rules).unwrap_err().to_string();
        assert!(err.starts_with(&format!("row {r}: card id {}", d64[r * 12])), "{err}");
        let eu: Vec<u8> = e.iter().map(|&x| x as u8).collect();
        let mut du: Vec<u8> = d.iter().map(|&x| x as u8).collect();
        du[3] = 255;
        assert!(score_declarations_batch(&eu, &du, &rules).unwrap_err().to_string().starts_with("row 0: card id 255"));
        let mut hu = eu.clone();
        hu[r * 12 + 2] += 32; // aliases a valid id modulo 32
        let err = declarations_batch(&hu, &rules).unwrap_err().to_string();
        assert!(err.starts_with(&format!("row {r}: card id {}", hu[r * 12 + 2])), "{err}");
    }

    #[test]
    fn bad_shapes_and_shared_cards() {
        let r = Rules::russian();
        let e: Vec<i64> = (0..12).collect();
        let d: Vec<i64> = (11..23).collect();
        assert_eq!(score_declarations_batch(&e, &d, &r).unwrap_err().to_string(), "row 0: duplicate card TD");
        assert_eq!(
            score_declarations_batch(&e[..11], &d[..11], &r).unwrap_err().to_string(),
            "11 ids do not make rows of 12"
        );
        let two: Vec<i64> = (0..24).collect();
        assert_eq!(
            score_declarations_batch(&two, &d, &r).unwrap_err().to_string(),
            "elder has 2 rows but dealer has 1"
        );
        assert!(declarations_batch(&[-1i8; 12], &r).unwrap_err().to_string().contains("card id -1"));
        let mut out = [0i16; 3];
        assert!(score_declarations_batch_into(&e, &(12..24).collect::<Vec<i64>>(), &r, &mut out).is_err());
        let empty: [u8; 0] = [];
        assert_eq!(score_declarations_batch(&empty, &empty, &r).unwrap(), Vec::<[i16; 2]>::new());
        assert!(declarations_batch(&empty, &r).unwrap().is_empty());
        let mut bad = Rules::russian();
        bad.koroliks_per_partiya = 0;
        assert!(declarations_batch(&e, &bad).is_err());
    }
}
