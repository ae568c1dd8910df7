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
use crate::kernel::Kernel;

#[cfg(target_arch = "x86_64")]
use super::simd::{self, Block, Params};

/// The rule numbers of the vectorised kernels (none off x86-64).
#[cfg(not(target_arch = "x86_64"))]
struct Params;
#[cfg(not(target_arch = "x86_64"))]
impl Params {
    fn new(_: &Rules) -> Params {
        Params
    }
}

/// `kernel` if this CPU can run it, else the error saying what it has.
fn runnable(kernel: Kernel) -> Result<Kernel> {
    if kernel.is_available() {
        Ok(kernel)
    } else {
        Kernel::parse(kernel.name())
    }
}

/// Score the leading whole blocks of valid deals with a vectorised `kernel`: the rows done (the
/// scalar path does the rest and finds any bad row).
#[inline]
fn vector_score<T: CardId + 'static>(kernel: Kernel, e: &[T], d: &[T], out: &mut [[i16; 2]], p: &Params) -> usize {
    #[cfg(target_arch = "x86_64")]
    return simd::score_rows(kernel, e, d, out, p);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (kernel, e, d, out, p);
        0
    }
}

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

    /// Rows `i..i + block.rows` from a vectorised kernel's block (see `simd::features`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn write_block(&mut self, i: usize, block: &Block) {
        let n = block.rows;
        let [a, b, c] = &block.words;
        let rows = i..i + n;
        let bytes = |col: &mut [u8], w: &[u32; 16], shift: u32, mask: u32| {
            for (slot, &x) in col.iter_mut().zip(&w[..n]) {
                *slot = ((x >> shift) & mask) as u8;
            }
        };
        bytes(&mut self.point_length[rows.clone()], a, 0, 0xFF);
        bytes(&mut self.point_value[rows.clone()], a, 8, 0xFF);
        bytes(&mut self.point_suit[rows.clone()], a, 16, 0xFF);
        bytes(&mut self.best_sequence_length[rows.clone()], a, 27, 0x1F);
        bytes(&mut self.best_sequence_top[rows.clone()], a, 24, 7);
        bytes(&mut self.sequence_count[rows.clone()], b, 0, 0xFF);
        for ((kind, rank), &x) in
            self.best_set_kind[rows.clone()].iter_mut().zip(&mut self.best_set_rank[rows.clone()]).zip(&b[..n])
        {
            (*kind, *rank) = SET_DECODE[((x >> 8) & 31) as usize];
        }
        for (slot, &x) in self.carte_blanche[rows.clone()].iter_mut().zip(&b[..n]) {
            *slot = (x >> 16) & 1 != 0;
        }
        for ((v, s), &x) in self.sequence_value[rows.clone()].iter_mut().zip(&mut self.sets_value[rows]).zip(&c[..n]) {
            (*v, *s) = (x as u16, (x >> 16) as u16);
        }
    }

    /// The features of the leading whole blocks of valid rows of `hands` by a vectorised
    /// `kernel`: the rows done.
    #[inline]
    fn vector_rows<T: CardId + 'static>(&mut self, kernel: Kernel, hands: &[T], p: &Params) -> usize {
        #[cfg(target_arch = "x86_64")]
        return simd::declaration_rows(kernel, hands, p, |i, block| self.write_block(i, block));
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (kernel, hands, p);
            0
        }
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
pub fn declarations_batch<T: CardId + 'static>(hands: &[T], rules: &Rules) -> Result<DeclarationFeatures> {
    HandRows::new(IdRows::of_width("hands", hands, 12)?)?.declarations(rules)
}

impl<T: CardId + 'static> HandRows<'_, T> {
    /// [`declarations_batch`] of checked rows, by the kernel [`Kernel::chosen`] names.
    pub fn declarations(self, rules: &Rules) -> Result<DeclarationFeatures> {
        rules.validate()?;
        self.declarations_by(rules, Kernel::chosen()?)
    }

    /// [`declarations_batch`] of checked rows by `kernel` (an error if this CPU lacks it): every
    /// kernel gives the same columns, and the same error for bad input.
    pub fn declarations_with(self, rules: &Rules, kernel: Kernel) -> Result<DeclarationFeatures> {
        rules.validate()?;
        self.declarations_by(rules, runnable(kernel)?)
    }

    fn declarations_by(self, rules: &Rules, kernel: Kernel) -> Result<DeclarationFeatures> {
        let (hands, n) = (self.ids, self.rows());
        let c = Compiled::new(rules);
        let params = Params::new(rules);
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
            let rows = cols.point_length.len();
            let done = cols.vector_rows(kernel, &hands[first * 12..(first + rows) * 12], &params);
            for i in done..rows {
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
pub fn score_declarations_batch<T: CardId + 'static>(elder: &[T], dealer: &[T], rules: &Rules) -> Result<Vec<[i16; 2]>> {
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
pub fn score_declarations_batch_into<T: CardId + 'static>(
    elder: &[T],
    dealer: &[T],
    rules: &Rules,
    out: &mut [i16],
) -> Result<()> {
    DealRows::of_slices(elder, dealer)?.score_into(rules, out)
}

impl<T: CardId + 'static> DealRows<'_, T> {
    /// [`score_declarations_batch`] of checked deals, by the kernel [`Kernel::chosen`] names.
    pub fn score(self, rules: &Rules) -> Result<Vec<[i16; 2]>> {
        let mut out = vec![[0i16; 2]; self.rows()];
        self.score_pairs(rules, &mut out, None)?;
        Ok(out)
    }

    /// [`score_declarations_batch`] of checked deals by `kernel` (an error if this CPU lacks it):
    /// every kernel gives the same points, and the same error for bad input.
    pub fn score_with(self, rules: &Rules, kernel: Kernel) -> Result<Vec<[i16; 2]>> {
        let mut out = vec![[0i16; 2]; self.rows()];
        self.score_pairs(rules, &mut out, Some(kernel))?;
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
        self.score_pairs(rules, pairs, None)
    }

    /// Score into `out` by `kernel`, or by the one [`Kernel::chosen`] names.
    fn score_pairs(self, rules: &Rules, out: &mut [[i16; 2]], kernel: Option<Kernel>) -> Result<()> {
        rules.validate()?;
        let kernel = match kernel {
            Some(k) => runnable(k)?,
            None => Kernel::chosen()?,
        };
        let c = Compiled::new(rules);
        let params = Params::new(rules);
        for_chunks(out, 1, |first, chunk| {
            let rows = first * 12..(first + chunk.len()) * 12;
            let (e, d) = (&self.elder.ids[rows.clone()], &self.dealer.ids[rows]);
            // The vectorised kernel takes the leading whole blocks of valid deals; the scalar one
            // the rest: a block with a bad row (it finds the first and its message) and the tail.
            let done = vector_score(kernel, e, d, chunk, &params);
            score_chunk(self, first + done, &mut chunk[done..], &c)
        })
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

    // --- the vectorised kernels against the scalar reference -----------------------------------

    /// The kernels to check against scalar: every vectorised one this CPU has (the others are
    /// named as skipped by `kernels_the_cpu_lacks_are_refused`).
    fn vector_kernels() -> Vec<Kernel> {
        Kernel::available().into_iter().filter(|&k| k != Kernel::Scalar).collect()
    }

    /// Scores and features of every vectorised kernel equal scalar's, or the same error.
    fn check_kernels<T: CardId + 'static>(e: &[T], d: &[T], rules: &Rules, what: &str) {
        let deals = DealRows::of_slices(e, d).unwrap();
        let hands = HandRows::new(IdRows::of_width("hands", e, 12).unwrap()).unwrap();
        let score = deals.score_with(rules, Kernel::Scalar).map_err(|e| e.to_string());
        let features = hands.declarations_with(rules, Kernel::Scalar).map_err(|e| e.to_string());
        for k in vector_kernels() {
            assert_eq!(deals.score_with(rules, k).map_err(|e| e.to_string()), score, "{} scores: {what}", k.name());
            let f = hands.declarations_with(rules, k).map_err(|e| e.to_string());
            assert_eq!(f, features, "{} features: {what}", k.name());
        }
    }

    fn u8_ids(ids: &[i32]) -> Vec<u8> {
        ids.iter().map(|&x| x as u8).collect()
    }

    fn custom_rules() -> Rules {
        // Mixed values, some decreasing with the length (negative increments).
        let mut r = Rules::rubicon();
        r.sequence_values = [1000, 7, 0, 999, 1, 500];
        r
    }

    #[test]
    fn kernels_equal_scalar_on_random_deals() {
        // 1 M deals per rule set in the optimised CI step (.ci/run); fewer in a debug build.
        let n = if cfg!(debug_assertions) { 20_000 } else { 1_000_000 };
        for (rules, seed) in [(Rules::russian(), 21), (Rules::rubicon(), 22), (custom_rules(), 23)] {
            let (e, d) = random_deals(if seed == 23 { n / 10 } else { n }, seed);
            check_kernels(&u8_ids(&e), &u8_ids(&d), &rules, &format!("seed {seed}"));
        }
    }

    /// Deals where the rare categories happen: hands drawn mostly from one or two suits or from
    /// the high ranks (long points, sequences of 7 and 8, fourteens against trios).
    fn skewed_deals(n: usize, seed: u64) -> (Vec<i32>, Vec<i32>) {
        let mut rng = Rng::new(seed);
        let (mut e, mut d) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let mut ids: Vec<i32> = (0..32).collect();
            rng.shuffle(&mut ids);
            let bias = rng.below(6);
            ids.sort_by_key(|&i| match bias {
                0 | 1 => (i / 8 != bias as i32) as i32,
                2 => (i % 8 < 3) as i32,
                3 => (i / 16) as i32,
                _ => 0,
            });
            let mut first: Vec<i32> = ids[..16].to_vec();
            rng.shuffle(&mut first);
            let (a, b) = (first[..12].to_vec(), first[12..].iter().chain(&ids[16..]).copied().collect::<Vec<_>>());
            let mut b = b;
            rng.shuffle(&mut b);
            if rng.below(2) == 0 {
                e.extend_from_slice(&a);
                d.extend_from_slice(&b[..12]);
            } else {
                e.extend_from_slice(&b[..12]);
                d.extend_from_slice(&a);
            }
        }
        (e, d)
    }

    #[test]
    fn kernels_equal_scalar_on_skewed_deals_and_edge_cases() {
        let n = if cfg!(debug_assertions) { 20_000 } else { 1_000_000 };
        let (mut e, mut d) = skewed_deals(n, 31);
        // Hand-made deals: (elder, dealer) in text.
        let cases = [
            // Carte blanche for elder (both cannot: 24 cards, 20 without a court); equal points
            // (five each, 51); huitièmes both.
            ("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", "7S 8S 9S TS AS 9D TD AD KH QH JH KC"),
            ("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", "7S 8S 9S TS AS 9D TD AD JD QD KD JS"),
            ("AH KH QH JH TH 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS TS 7H 8H 9H 9D TD JD AC"),
            ("7C 8C 9C TC JC QC KC AC 7D 8D 9D TD", "7H 8H 9H TH JH QH KH AH 7S 8S 9S TS"),
            // Sets: fourteens of aces and jacks against kings and queens; a fourteen against trios.
            ("AH AC AD AS JH JC JD JS 7H 8H 7C 8C", "KH KC KD KS QH QC QD QS 9H TH 9C 7D"),
            ("QH QC QD QS TH TC TD 7H 8H 7C 8C 7D", "AH AC AD KH KC KD JH JC JD 9H 9C 9D"),
            // Six cards and a quint against an equal quint; a quart from the jack over a tierce major.
            ("9H TH JH QH KH 7H 8C 9C TC 8D 9D 7S", "9S TS JS QS KS 7C JC QC 7D TD JD AC"),
            ("QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS"),
            // Repiques either way, and one blocked by carte blanche.
            ("AH KH QH JH TH 9H AC AD AS KC KD 8H", "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS"),
            ("7C 8C 9C 7D 8D 9D 7S 8S 9S 7H 8H JC", "AH KH QH JH TH 9H AC AD AS KC KD QC"),
            ("7H 8H 9H TH JH QH 7C 8C 9C TC 7D 8D", "KH AH KC AC KD AD KS AS JC QC 9D JD"),
            ("7H 8H 9H TH JH QH KH AH 7C 8C 9C 7D", "KC AC KD AD KS AS QC QD QS JC JD 9D"),
            // Equal points in one hand (the lowest suit is named).
            ("7C 8C 9C 7D 8D 9D 7H 8H 9H 7S 8S 9S", "AC KC QC AD KD QD AH KH QH AS KS QS"),
        ];
        for (a, b) in cases {
            for (x, v) in [(a, &mut e), (b, &mut d)] {
                let h: Hand = x.parse().unwrap();
                assert_eq!(h.len(), 12, "{x}");
                v.extend(h.iter().map(|c| c.id() as i32));
            }
        }
        let (eu, du) = (u8_ids(&e), u8_ids(&d));
        for rules in [Rules::russian(), Rules::rubicon(), custom_rules()] {
            check_kernels(&eu, &du, &rules, "skewed deals");
            // Each hand-made deal alone and at every lane of a block (the rest random).
            let m = cases.len();
            let (re, rd) = random_deals(16, 33);
            for c in 0..m {
                let row = n + c;
                let (ce, cd) = (&eu[row * 12..row * 12 + 12], &du[row * 12..row * 12 + 12]);
                for lane in 0..16 {
                    let (mut be, mut bd) = (u8_ids(&re), u8_ids(&rd));
                    be[lane * 12..lane * 12 + 12].copy_from_slice(ce);
                    bd[lane * 12..lane * 12 + 12].copy_from_slice(cd);
                    check_kernels(&be, &bd, &rules, &format!("case {c} at lane {lane}"));
                }
            }
        }
        // Spot checks of the hand-made deals' points (hand-checked in compare.rs' tests).
        let scores = score_declarations_batch(&eu[n * 12..], &du[n * 12..], &Rules::russian()).unwrap();
        assert_eq!(scores[3], [0, 0]); // huitièmes and points of eight cancel; no sets
        assert_eq!(scores[8], [41, 10]); // the dealer's carte blanche blocks the repique
        assert_eq!(scores[10], [36, 28]);
    }

    #[test]
    fn kernels_equal_scalar_at_every_tail_length() {
        let (e, d) = random_deals(300, 41);
        let (e, d) = (u8_ids(&e), u8_ids(&d));
        for n in 0..=300 {
            check_kernels(&e[..12 * n], &d[..12 * n], &Rules::russian(), &format!("{n} rows"));
        }
        let (e, d) = skewed_deals(300, 42);
        let (e, d) = (u8_ids(&e), u8_ids(&d));
        for n in (0..=300).step_by(7) {
            check_kernels(&e[..12 * n], &d[..12 * n], &Rules::rubicon(), &format!("{n} skewed rows"));
        }
    }

    /// Every kind of bad row at every position of a batch of 45 (blocks of 8 and 16, and a tail),
    /// in ids of type T: the same first bad row and message as scalar.
    fn bad_rows_in<T: CardId + 'static + TryFrom<i64>>(values: &[i64]) {
        let to = |v: &[i32]| -> Vec<T> { v.iter().map(|&x| T::try_from(x as i64).ok().unwrap()).collect() };
        let n = 45;
        let (e, d) = random_deals(n, 51);
        for r in 0..n {
            for (kind, &v) in values.iter().enumerate() {
                for hand in 0..2 {
                    let (mut be, mut bd) = (to(&e), to(&d));
                    let target = if hand == 0 { &mut be } else { &mut bd };
                    let pos = r * 12 + (r + kind) % 12;
                    let Ok(bad) = T::try_from(v) else { continue };
                    target[pos] = bad;
                    check_kernels(&be, &bd, &Rules::russian(), &format!("row {r} value {v}"));
                    // A later bad row too: the first is reported.
                    if r + 3 < n {
                        let target = if hand == 0 { &mut be } else { &mut bd };
                        target[(r + 3) * 12] = bad;
                        check_kernels(&be, &bd, &Rules::russian(), &format!("rows {r}, {}", r + 3));
                    }
                }
            }
            // A card twice in one hand, and a card in both hands.
            let (mut be, mut bd) = (to(&e), to(&d));
            be[r * 12 + 5] = be[r * 12 + (r % 5)];
            check_kernels(&be, &bd, &Rules::russian(), &format!("row {r}: duplicate in elder"));
            let mut be = to(&e);
            bd[r * 12 + (r % 12)] = be[r * 12 + 7];
            check_kernels(&be, &bd, &Rules::russian(), &format!("row {r}: shared card"));
            be[r * 12] = bd[r * 12 + 1];
            bd[r * 12 + 2] = bd[r * 12 + 3];
            check_kernels(&be, &bd, &Rules::russian(), &format!("row {r}: three faults"));
        }
    }

    #[test]
    fn kernels_report_the_first_bad_row_as_scalar_in_every_dtype() {
        bad_rows_in::<u8>(&[32, 63, 128, 255]);
        bad_rows_in::<i8>(&[-1, -128, 32, 127]);
        bad_rows_in::<u16>(&[32, 256 + 5, 65535]);
        bad_rows_in::<i16>(&[-1, 32, 256 + 5, -32768]);
        bad_rows_in::<u32>(&[32, 1 << 16, 1 << 31, u32::MAX as i64]);
        bad_rows_in::<i32>(&[-1, 32 + 3, i32::MIN as i64, 1 << 20]);
        bad_rows_in::<u64>(&[32, 1 << 32, (1 << 40) + 3, i64::MAX]);
        bad_rows_in::<i64>(&[-1, 32, (1 << 32) + 4, i64::MIN, -(1 << 32)]);
        bad_rows_in::<usize>(&[32, 1 << 32]);
        bad_rows_in::<isize>(&[-1, 1 << 33]);
    }

    #[test]
    fn kernels_equal_scalar_in_every_dtype() {
        let (e, d) = random_deals(203, 61);
        macro_rules! each {
            ($($t:ty),*) => {$(
                let (te, td): (Vec<$t>, Vec<$t>) = (e.iter().map(|&x| x as $t).collect(), d.iter().map(|&x| x as $t).collect());
                check_kernels(&te, &td, &Rules::rubicon(), stringify!($t));
            )*};
        }
        each!(i8, i16, i32, i64, u8, u16, u32, u64, isize, usize);
    }

    #[test]
    fn kernels_take_the_whole_valid_blocks() {
        // The vectorised path does run (the comparisons above would pass if it never did): it
        // scores every whole block before the first bad one and leaves the rest to scalar.
        let (e, d) = random_deals(100, 81);
        let (e, mut d) = (u8_ids(&e), u8_ids(&d));
        let params = Params::new(&Rules::russian());
        for k in vector_kernels() {
            let block = if k == Kernel::Avx512 { 16 } else { 8 };
            let mut out = vec![[0i16; 2]; 100];
            assert_eq!(vector_score(k, &e, &d, &mut out, &params), 100 / block * block, "{}", k.name());
            d[50 * 12 + 3] = 40;
            assert_eq!(vector_score(k, &e, &d, &mut out, &params), 50 / block * block, "{}", k.name());
            d[50 * 12 + 3] = d[50 * 12 + 4];
            assert_eq!(vector_score(k, &e, &d, &mut out, &params), 50 / block * block, "{}", k.name());
        }
        assert_eq!(vector_score(Kernel::Scalar, &e, &d, &mut [[0; 2]; 100], &params), 0);
    }

    #[test]
    fn kernels_the_cpu_lacks_are_refused() {
        let (e, d) = random_deals(3, 71);
        let deals = DealRows::of_slices(&e, &d).unwrap();
        for k in Kernel::ALL {
            match deals.score_with(&Rules::russian(), k) {
                Ok(p) => assert!(k.is_available() && p == deals.score_with(&Rules::russian(), Kernel::Scalar).unwrap()),
                Err(err) => {
                    eprintln!("skipped: kernel {} (this CPU lacks its features): {err}", k.name());
                    assert!(!k.is_available());
                    assert!(err.to_string().contains("not available on this CPU"), "{err}");
                }
            }
        }
    }
}
