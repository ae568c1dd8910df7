//! The vectorised show kernels of the batch paths: AVX2 (32 shows per 256-bit register) and
//! AVX-512 (64 shows per 512-bit register), one show per byte lane. The batch entry points
//! choose a kernel once per call ([`Kernel::chosen`]); the scalar kernel in `batch.rs` is the
//! reference, and every path here is tested bit-identical to it.
//!
//! How a block of shows is scored (the same algorithm for both instruction sets, written once
//! in [`show_kernel!`]; only the few primitive operations differ):
//!
//! - **Regroup**: the (N, W) rows of ids are regrouped by card position with byte permutes (no
//!   gathers), so register `k` holds card `k` of every show of the block.
//! - **Narrow**: ids of a wider dtype are narrowed with unsigned saturation (a negative id wraps
//!   to a huge one, so it saturates to 255 like every id above 255): `id < 52` is unchanged by
//!   the narrowing, so one byte compare checks the range. Wide ids are narrowed block by block
//!   (at most [`STAGE`] rows, into a buffer that stays in L1) in the same pass that scores them.
//! - **Per-card facts** (pip value, a sort key `rank * 4 + suit`, the suit bit and the jack's
//!   bit) are byte lookups on the id: a 64-entry permute (AVX-512) or a decoding of the id into
//!   rank and suit with 16-entry shuffles (AVX2). No table is read per show from memory.
//! - **Fifteens by complement**: a subset of three or more of the five cards sums to 15 exactly
//!   when the other two or fewer sum to `total - 15`, so every subset is one byte compare of a
//!   pair sum, a pip or the total (26 compares for five cards, 11 for four).
//! - **Pairs and runs** depend only on the sorted ranks: a sorting network over the sort keys
//!   (9 compare-exchanges for five cards) puts equal ranks side by side; each gap between
//!   neighbouring ranks is classed 0, 1 or >= 2, and the 81 gap patterns (27 for four cards)
//!   index one small table of points. Two equal neighbouring keys are a card given twice, so
//!   the duplicate check comes from the same sort.
//! - **Flush and nobs**: the AND of the hand's suit bits (one suit left: a flush), the OR of
//!   its jack bits (a jack of the starter's suit: nobs), tested against the starter's suit.
//!
//! Safety: every `unsafe` block of the cribbage batch paths is in this module, with a SAFETY
//! comment. The kernels are safe `#[target_feature]` functions; the only unsafe operations are
//! the calls into them (made only after the CPU is checked to have the features), and the
//! vector loads and stores, each of a slice whose length is checked just before. Nothing is
//! read past the end of the input: a last block of fewer rows than a register holds is copied
//! into a buffer padded with a valid show.

use crate::batch::CardId;
use crate::kernel::Kernel;

/// Rows of a wide dtype narrowed to bytes at a time (a multiple of both register widths).
const STAGE: usize = 512;

/// The columns a block writes: the scores alone, or the points by category (fifteens, pairs,
/// runs, flush, nobs, total: the order of `ShowColumns`).
pub(super) const PART_COLUMNS: usize = 6;

// ---------------------------------------------------------------------------------- tables
//
// Every table is generated here from the rules (by const evaluation), indexed by card id
// (`suit * 13 + rank`) or by sort key; entries past the 52 cards are never used for a valid
// show (a row with such an id is reported as bad whatever they give).

/// A 64-entry table of `$value` (of `$rank` and `$suit`) for the 52 ids (0 beyond).
macro_rules! by_id {
    (|$rank:ident, $suit:ident| $value:expr) => {{
        let mut t = [0u8; 64];
        let mut id = 0;
        while id < 52 {
            let ($rank, $suit) = ((id % 13) as u8, (id / 13) as u8);
            t[id] = $value;
            id += 1;
        }
        t
    }};
}

/// Pip value by id (ace 1 .. courts 10).
static PIPS: [u8; 64] = by_id!(|rank, _suit| if rank + 1 < 10 { rank + 1 } else { 10 });
/// Sort key by id: `rank * 4 + suit` (cards of one rank are neighbours once sorted).
static SORT_KEY: [u8; 64] = by_id!(|rank, suit| rank * 4 + suit);
/// Suit bit (bits 0..4) and, for a jack, the same bit in the high nibble, by id.
static SUIT_JACK: [u8; 64] = by_id!(|rank, suit| (1 << suit) | if rank == 10 { 16 << suit } else { 0 });
/// The starter's suit bit in both nibbles, by id.
static STARTER_SUIT: [u8; 64] = by_id!(|_rank, suit| 0x11 << suit);
/// Rank by sort key.
static RANK_OF_KEY: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 52 {
        t[k] = (k / 4) as u8;
        k += 1;
    }
    t
};

/// `GAP[i][d]`: the gap class of a rank difference `d` (0, 1, or 2 for two or more) times
/// `3^i`, so the four classes of five sorted cards sum to their pattern's index (base 3).
static GAP: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut i = 0;
    let mut weight = 1;
    while i < 4 {
        let mut d = 0;
        while d < 64 {
            t[i][d] = (if d < 2 { d } else { 2 }) as u8 * weight;
            d += 1;
        }
        weight *= 3;
        i += 1;
    }
    t
};

/// Pairs and runs points of the sorted ranks whose gap classes (0, 1, >= 2) are `pattern`'s
/// base-3 digits (gap `i` between cards `i` and `i + 1`), for `cards` cards.
const fn pattern_points(cards: usize, pattern: usize) -> (u8, u8) {
    let mut counts = [0u8; 16];
    let (mut rank, mut rest, mut i) = (0usize, pattern, 0);
    counts[0] = 1;
    while i + 1 < cards {
        rank += rest % 3;
        rest /= 3;
        counts[rank] += 1;
        i += 1;
    }
    let (mut pairs, mut runs, mut r) = (0u8, 0u8, 0);
    while r < 16 {
        pairs += counts[r] * if counts[r] > 0 { counts[r] - 1 } else { 0 };
        r += 1;
    }
    // A stretch of consecutive present ranks of length >= 3 scores its length once per way of
    // choosing one card of each rank.
    let mut start = 0;
    while start < 16 {
        if counts[start] == 0 {
            start += 1;
            continue;
        }
        let (mut end, mut ways) = (start, 1u8);
        while end < 16 && counts[end] > 0 {
            ways *= counts[end];
            end += 1;
        }
        if end - start >= 3 {
            runs += (end - start) as u8 * ways;
        }
        start = end;
    }
    (pairs, runs)
}

/// The 128-byte pattern tables of `cards` cards: `[pairs + runs, pairs, runs]` by pattern.
const fn pattern_tables(cards: usize) -> [[u8; 128]; 3] {
    let patterns = if cards == 5 { 81 } else { 27 };
    let mut t = [[0u8; 128]; 3];
    let mut p = 0;
    while p < patterns {
        let (pairs, runs) = pattern_points(cards, p);
        t[0][p] = pairs + runs;
        t[1][p] = pairs;
        t[2][p] = runs;
        p += 1;
    }
    t
}

static PATTERNS5: [[u8; 128]; 3] = pattern_tables(5);
static PATTERNS4: [[u8; 128]; 3] = pattern_tables(4);

/// The sorting networks: compare-exchanges of (lower, upper) places, for 4 and 5 cards.
const SORT4: [(usize, usize); 5] = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];
const SORT5: [(usize, usize); 9] = [(0, 1), (3, 4), (2, 4), (2, 3), (1, 4), (0, 3), (0, 2), (1, 3), (1, 2)];

/// A valid show to pad a last partial block with: hand ids `0..W`, starter `W`.
const fn pad_id(i: usize, w: usize) -> u8 {
    (i % w) as u8
}

// ------------------------------------------------------------------------------ the kernel

/// The block kernel, the drivers and the entry point of one instruction set, written once over
/// the primitive operations its module defines (`V` a register of `LANES` byte lanes, `M` a lane
/// mask, `splat`, `add`, `sub`, `min`, `max`, `and`, `or`, `eq`, `ge`, `test`, `mor`,
/// `inc_where`, `add_where`, `bits`, `load_cards`, `load`, `store`, `pips_key`, `suit_jack`,
/// `starter_suit`, `rank_of_key`, `lut16`, `pattern`), with `$features` enabled in every function.
macro_rules! show_kernel {
    ($features:literal) => {
        /// What a block of shows gives: each category's points and the lanes of bad rows.
        struct Parts {
            fifteens: V,
            pattern: V,
            flush: V,
            nobs: V,
            bad: u64,
        }

        /// Score one block of `LANES` shows: `hands` holds `LANES * W` ids (row-major),
        /// `starters` `LANES`.
        #[target_feature(enable = $features)]
        #[inline]
        fn block<const W: usize, const CRIB: bool>(hands: &[u8], starters: &[u8]) -> Parts {
            let c = load_cards::<W>(hands);
            let s = load(starters);
            let n = W + 1;
            // The cards of the show, the starter last (W = 3 leaves the fifth place unused).
            let ids = [c[0], c[1], c[2], if W == 4 { c[3] } else { s }, s];
            let mut top = s;
            for &id in &c[..W] {
                top = max(top, id);
            }
            let mut bad = ge(top, splat(52));
            let mut pips = [splat(0); 5];
            let mut keys = [splat(0); 5];
            for i in 0..n {
                (pips[i], keys[i]) = pips_key(ids[i]);
            }
            // Fifteens: a pair summing to 15; with five cards, a pair summing to total - 15
            // (its three others make 15); a single card at total - 15 (its others make 15);
            // all the cards.
            let mut total = pips[0];
            for &p in &pips[1..n] {
                total = add(total, p);
            }
            let (fifteen, rest) = (splat(15), sub(total, splat(15)));
            let mut count = eq_count(total, fifteen, splat(0));
            for i in 0..n {
                for j in i + 1..n {
                    let pair = add(pips[i], pips[j]);
                    count = eq_count(pair, fifteen, count);
                    if n == 5 {
                        count = eq_count(pair, rest, count);
                    }
                }
                count = eq_count(pips[i], rest, count);
            }
            // Pairs and runs: sort the keys, class the gaps between neighbouring ranks.
            if n == 5 {
                for &(a, b) in &SORT5 {
                    (keys[a], keys[b]) = (min(keys[a], keys[b]), max(keys[a], keys[b]));
                }
            } else {
                for &(a, b) in &SORT4 {
                    (keys[a], keys[b]) = (min(keys[a], keys[b]), max(keys[a], keys[b]));
                }
            }
            let mut pattern = splat(0);
            let mut low = rank_of_key(keys[0]);
            for i in 0..n - 1 {
                // A card twice: equal neighbours.
                bad = mor(bad, eq(keys[i], keys[i + 1]));
                let high = rank_of_key(keys[i + 1]);
                pattern = add(pattern, lut16(&GAP[i], sub(high, low)));
                low = high;
            }
            // Flush and nobs.
            let (mut common, mut jacks) = (splat(0xFF), splat(0));
            for &id in &c[..W] {
                let sj = suit_jack(id);
                common = and(common, sj);
                jacks = or(jacks, sj);
            }
            let own = starter_suit(s);
            // Distinct cards: at most one hand card is a jack of a suit, so the high nibble
            // of `common` is 0 and the test sees the suit bits only.
            let matched = test(common, own);
            let flush = if CRIB {
                add_where(splat(0), matched, splat(5))
            } else {
                let any = test(common, splat(0x0F));
                inc_where(add_where(splat(0), any, splat(W as u8)), matched)
            };
            let nobs = inc_where(splat(0), test(and(jacks, splat(0xF0)), own));
            Parts { fifteens: add(count, count), pattern, flush, nobs, bad: bits(bad) }
        }

        /// `count + 1` in the lanes where `a == b`.
        #[target_feature(enable = $features)]
        #[inline]
        fn eq_count(a: V, b: V, count: V) -> V {
            inc_where(count, eq(a, b))
        }

        /// Write lanes `0..n` of `v` at `col[at..at + n]`.
        #[target_feature(enable = $features)]
        #[inline]
        fn put(col: &mut [u8], at: usize, n: usize, v: V) {
            if n == LANES {
                store(&mut col[at..at + LANES], v);
            } else {
                let mut t = [0u8; LANES];
                store(&mut t, v);
                col[at..at + n].copy_from_slice(&t[..n]);
            }
        }

        /// Write the first `n` shows of a block: the totals into `cols[0]`, or every category
        /// into `PART_COLUMNS` columns.
        #[target_feature(enable = $features)]
        #[inline]
        fn emit<const W: usize>(p: &Parts, cols: &mut [&mut [u8]], at: usize, n: usize) {
            let tables = if W == 4 { &PATTERNS5 } else { &PATTERNS4 };
            let steps = if W == 4 { 6 } else { 2 };
            let rest = add(p.flush, p.nobs);
            if cols.len() == 1 {
                let total = add(add(p.fifteens, pattern(p.pattern, &tables[0], steps)), rest);
                put(&mut cols[0], at, n, total);
            } else {
                let pairs = pattern(p.pattern, &tables[1], steps);
                let runs = pattern(p.pattern, &tables[2], steps);
                let total = add(add(p.fifteens, add(pairs, runs)), rest);
                for (col, v) in cols.iter_mut().zip([p.fifteens, pairs, runs, p.flush, p.nobs, total]) {
                    put(col, at, n, v);
                }
            }
        }

        /// Score byte rows (full blocks in place, the last partial block padded with a valid
        /// show; `narrow` reads the ids of the partial block); `Some(i)` at the first bad row.
        #[target_feature(enable = $features)]
        #[inline]
        fn run_bytes<T: CardId, const W: usize, const CRIB: bool>(
            hands: &[u8],
            starters: &[u8],
            tail: (&[T], &[T]),
            cols: &mut [&mut [u8]],
            at: usize,
        ) -> Option<usize> {
            let full = starters.len();
            let mut r = 0;
            while r < full {
                let p = block::<W, CRIB>(&hands[r * W..(r + LANES) * W], &starters[r..r + LANES]);
                if p.bad != 0 {
                    return Some(r + p.bad.trailing_zeros() as usize);
                }
                emit::<W>(&p, cols, at + r, LANES);
                r += LANES;
            }
            let (th, ts) = tail;
            let n = ts.len();
            if n > 0 {
                let mut h: [u8; 4 * LANES] = std::array::from_fn(|i| pad_id(i, W));
                let mut s = [W as u8; LANES];
                for (d, &x) in h.iter_mut().zip(th) {
                    *d = narrow(x);
                }
                for (d, &x) in s.iter_mut().zip(ts) {
                    *d = narrow(x);
                }
                let p = block::<W, CRIB>(&h[..W * LANES], &s);
                let bad = p.bad & ((1u64 << n) - 1);
                if bad != 0 {
                    return Some(r + bad.trailing_zeros() as usize);
                }
                emit::<W>(&p, cols, at + r, n);
            }
            None
        }

        /// Score `starters.len()` shows of any id type into `cols` (one column of totals, or
        /// `PART_COLUMNS`); `Some(i)` at the first bad row (the rows before it are written).
        #[target_feature(enable = $features)]
        pub(super) fn run<T: CardId, const W: usize, const CRIB: bool>(
            hands: &[T],
            starters: &[T],
            cols: &mut [&mut [u8]],
        ) -> Option<usize> {
            let rows = starters.len();
            let full = rows / LANES * LANES;
            let tail = (&hands[full * W..], &starters[full..]);
            if let (Some(h), Some(s)) = (T::as_bytes(hands), T::as_bytes(starters)) {
                return run_bytes::<T, W, CRIB>(&h[..full * W], &s[..full], tail, cols, 0);
            }
            let mut first = 0;
            if full > 0 {
                let (mut h, mut s) = ([0u8; 4 * STAGE], [0u8; STAGE]);
                while first < full {
                    let n = (full - first).min(STAGE);
                    let (hb, sb) = (&mut h[..n * W], &mut s[..n]);
                    for (d, &x) in hb.iter_mut().zip(&hands[first * W..(first + n) * W]) {
                        *d = narrow(x);
                    }
                    for (d, &x) in sb.iter_mut().zip(&starters[first..first + n]) {
                        *d = narrow(x);
                    }
                    let none: (&[T], &[T]) = (&[], &[]);
                    if let Some(i) = run_bytes::<T, W, CRIB>(hb, sb, none, cols, first) {
                        return Some(first + i);
                    }
                    first += n;
                }
            }
            run_bytes::<T, W, CRIB>(&[], &[], tail, cols, full).map(|i| full + i)
        }
    };
}

/// An id narrowed to a byte, every id outside `0..=255` (a negative one included) to 255.
#[inline(always)]
fn narrow<T: CardId>(id: T) -> u8 {
    id.as_index().min(255) as u8
}

/// The AVX2 kernel: 32 shows per register.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::*;

    const LANES: usize = 32;
    type V = __m256i;
    type M = __m256i;

    /// A 16-byte table in both halves of a register (for `vpshufb`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn table16(t: &[u8]) -> V {
        let t: &[u8; 16] = t[..16].try_into().unwrap();
        // SAFETY: `t` is 16 readable bytes; the load has no alignment requirement.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(s: &[u8]) -> V {
        let s: &[u8; LANES] = s[..LANES].try_into().unwrap();
        // SAFETY: `s` is 32 readable bytes; the load has no alignment requirement.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load16(s: &[u8], at: usize) -> __m128i {
        let s: &[u8; 16] = s[at..at + 16].try_into().unwrap();
        // SAFETY: `s` is 16 readable bytes; the load has no alignment requirement.
        unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store(d: &mut [u8], v: V) {
        let d: &mut [u8; LANES] = (&mut d[..LANES]).try_into().unwrap();
        // SAFETY: `d` is 32 writable bytes; the store has no alignment requirement.
        unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), v) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn splat(x: u8) -> V {
        _mm256_set1_epi8(x as i8)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn add(a: V, b: V) -> V {
        _mm256_add_epi8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        _mm256_sub_epi8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn min(a: V, b: V) -> V {
        _mm256_min_epu8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn max(a: V, b: V) -> V {
        _mm256_max_epu8(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm256_and_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm256_or_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn eq(a: V, b: V) -> M {
        _mm256_cmpeq_epi8(a, b)
    }
    /// `a >= b` (unsigned).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn ge(a: V, b: V) -> M {
        _mm256_cmpeq_epi8(_mm256_max_epu8(a, b), a)
    }
    /// `a & b != 0`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn test(a: V, b: V) -> M {
        _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_and_si256(a, b), splat(0)), splat(0xFF))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn mor(a: M, b: M) -> M {
        _mm256_or_si256(a, b)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn inc_where(acc: V, m: M) -> V {
        _mm256_sub_epi8(acc, m)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn add_where(acc: V, m: M, v: V) -> V {
        _mm256_add_epi8(acc, _mm256_and_si256(m, v))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    fn bits(m: M) -> u64 {
        _mm256_movemask_epi8(m) as u32 as u64
    }

    /// Within 16 bytes of four rows of 4 ids: card `k` of the four rows in dword `k`.
    const BY_CARD4: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    /// The same for rows of 3 ids (dword 3 zero), starting at byte 0 or 4.
    const BY_CARD3: [u8; 16] = [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 0x80, 0x80, 0x80, 0x80];
    const BY_CARD3_AT4: [u8; 16] = [4, 7, 10, 13, 5, 8, 11, 14, 6, 9, 12, 15, 0x80, 0x80, 0x80, 0x80];

    /// The block's cards by position: register `k` holds card `k` of the 32 rows (W = 3 leaves
    /// the fourth zero).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load_cards<const W: usize>(h: &[u8]) -> [V; 4] {
        let h = &h[..W * LANES];
        let mut y = [splat(0); 4];
        for (j, y) in y.iter_mut().enumerate() {
            // Eight rows: two halves of four rows, each regrouped by card within its half.
            *y = if W == 4 {
                _mm256_shuffle_epi8(load(&h[32 * j..]), table16(&BY_CARD4))
            } else {
                // Rows of 3 ids: 12 bytes per half, loaded as 16 (the last half of the block
                // from 4 bytes earlier, so no byte past the block is read).
                let lo = load16(h, 24 * j);
                let (at, ctrl) = if j < 3 { (24 * j + 12, &BY_CARD3) } else { (80, &BY_CARD3_AT4) };
                let hi = _mm_shuffle_epi8(load16(h, at), load16(ctrl, 0));
                let lo = _mm_shuffle_epi8(lo, load16(&BY_CARD3, 0));
                _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi)
            };
            // Qword k: card k of the eight rows.
            *y = _mm256_permutevar8x32_epi32(*y, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        }
        // Transpose the 4x4 qwords: register k gets qword k of each of the four.
        let t0 = _mm256_unpacklo_epi64(y[0], y[1]);
        let t1 = _mm256_unpackhi_epi64(y[0], y[1]);
        let t2 = _mm256_unpacklo_epi64(y[2], y[3]);
        let t3 = _mm256_unpackhi_epi64(y[2], y[3]);
        [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ]
    }

    /// Suit `0..4` of each id (`id > 12` + `id > 25` + `id > 38`; any value for a bad id).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn suit(id: V) -> V {
        let (a, b, c) =
            (_mm256_cmpgt_epi8(id, splat(12)), _mm256_cmpgt_epi8(id, splat(25)), _mm256_cmpgt_epi8(id, splat(38)));
        sub(sub(sub(splat(0), a), b), c)
    }
    /// Rank of each id: `id - 13 * suit`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn rank(id: V) -> V {
        const TIMES13: [u8; 16] = [0, 13, 26, 39, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        sub(id, _mm256_shuffle_epi8(table16(&TIMES13), suit(id)))
    }
    /// Pip value and sort key of each id.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn pips_key(id: V) -> (V, V) {
        // Ids 0..13 are the clubs, ace to king: the id tables' first 16 entries are by rank.
        let r = rank(id);
        (lut16(&PIPS, r), add(lut16(&SORT_KEY, r), suit(id)))
    }
    /// Suit bit, and the jack's bit in the high nibble.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn suit_jack(id: V) -> V {
        const BIT: [u8; 16] = [1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        const HIGH: [u8; 16] = [16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let s = suit(id);
        let jack = eq(rank(id), splat(10));
        or(_mm256_shuffle_epi8(table16(&BIT), s), and(jack, _mm256_shuffle_epi8(table16(&HIGH), s)))
    }
    /// The starter's suit bit in both nibbles.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn starter_suit(id: V) -> V {
        const BOTH: [u8; 16] = [0x11, 0x22, 0x44, 0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        _mm256_shuffle_epi8(table16(&BOTH), suit(id))
    }
    /// Rank of a sort key (`key >> 2`; the mask keeps a neighbouring lane's bits out).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn rank_of_key(key: V) -> V {
        and(_mm256_srli_epi16::<2>(key), splat(0x0F))
    }
    /// `t[i]` for indexes below 16 (a valid show's ranks and rank gaps are).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lut16(t: &[u8; 64], i: V) -> V {
        _mm256_shuffle_epi8(table16(&t[..16]), i)
    }
    /// `t[i]` for indexes below `16 * steps`: one 16-byte shuffle per step, each lane taking
    /// the step its index falls in (other steps give 0: the index is pushed to >= 128).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn pattern(i: V, t: &[u8; 128], steps: usize) -> V {
        let mut r = splat(0);
        for step in 0..steps {
            let local = _mm256_adds_epu8(sub(i, splat(16 * step as u8)), splat(0x70));
            r = or(r, _mm256_shuffle_epi8(table16(&t[16 * step..]), local));
        }
        r
    }

    show_kernel!("avx2");
}

/// The AVX-512 kernel (F, BW, VL, VBMI): 64 shows per register.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::*;

    const LANES: usize = 64;
    type V = __m512i;
    type M = u64;

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn load(s: &[u8]) -> V {
        let s: &[u8; LANES] = s[..LANES].try_into().unwrap();
        // SAFETY: `s` is 64 readable bytes; the load has no alignment requirement.
        unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn store(d: &mut [u8], v: V) {
        let d: &mut [u8; LANES] = (&mut d[..LANES]).try_into().unwrap();
        // SAFETY: `d` is 64 writable bytes; the store has no alignment requirement.
        unsafe { _mm512_storeu_si512(d.as_mut_ptr().cast(), v) }
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn splat(x: u8) -> V {
        _mm512_set1_epi8(x as i8)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn add(a: V, b: V) -> V {
        _mm512_add_epi8(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        _mm512_sub_epi8(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn min(a: V, b: V) -> V {
        _mm512_min_epu8(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn max(a: V, b: V) -> V {
        _mm512_max_epu8(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm512_and_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm512_or_si512(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn eq(a: V, b: V) -> M {
        _mm512_cmpeq_epi8_mask(a, b)
    }
    /// `a >= b` (unsigned).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn ge(a: V, b: V) -> M {
        _mm512_cmpge_epu8_mask(a, b)
    }
    /// `a & b != 0`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn test(a: V, b: V) -> M {
        _mm512_test_epi8_mask(a, b)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn mor(a: M, b: M) -> M {
        a | b
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn inc_where(acc: V, m: M) -> V {
        _mm512_mask_add_epi8(acc, m, acc, splat(1))
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn add_where(acc: V, m: M, v: V) -> V {
        _mm512_mask_add_epi8(acc, m, acc, v)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn bits(m: M) -> u64 {
        m
    }
    /// `t[i & 63]`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn lut64(t: &[u8; 64], i: V) -> V {
        _mm512_permutexvar_epi8(i, load(t))
    }

    /// `(W * lane + k) & 127` by lane: where card `k` of row `lane` sits in a pair of registers.
    const fn positions(w: usize, k: usize) -> [u8; 64] {
        let mut t = [0u8; 64];
        let mut lane = 0;
        while lane < 64 {
            t[lane] = ((w * lane + k) & 127) as u8;
            lane += 1;
        }
        t
    }
    /// The lanes whose card `k` lies in the block's second 128 bytes.
    const fn upper(w: usize, k: usize) -> u64 {
        let mut m = 0u64;
        let mut lane = 0;
        while lane < 64 {
            if w * lane + k >= 128 {
                m |= 1 << lane;
            }
            lane += 1;
        }
        m
    }
    static POSITIONS: [[[u8; 64]; 4]; 2] = [
        [positions(3, 0), positions(3, 1), positions(3, 2), positions(3, 2)],
        [positions(4, 0), positions(4, 1), positions(4, 2), positions(4, 3)],
    ];
    const UPPER: [[u64; 4]; 2] =
        [[upper(3, 0), upper(3, 1), upper(3, 2), 0], [upper(4, 0), upper(4, 1), upper(4, 2), upper(4, 3)]];

    /// The block's cards by position: register `k` holds card `k` of the 64 rows (two-register
    /// byte permutes of the block's first and last 128 bytes, blended).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn load_cards<const W: usize>(h: &[u8]) -> [V; 4] {
        let h = &h[..W * LANES];
        let r = [load(h), load(&h[64..]), load(&h[128..]), load(&h[64 * (W - 1)..])];
        let mut c = [splat(0); 4];
        for (k, c) in c.iter_mut().enumerate().take(W) {
            let idx = load(&POSITIONS[W - 3][k]);
            let lo = _mm512_permutex2var_epi8(r[0], idx, r[1]);
            let hi = _mm512_permutex2var_epi8(r[2], idx, r[3]);
            *c = _mm512_mask_blend_epi8(UPPER[W - 3][k], lo, hi);
        }
        c
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn pips_key(id: V) -> (V, V) {
        (lut64(&PIPS, id), lut64(&SORT_KEY, id))
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn suit_jack(id: V) -> V {
        lut64(&SUIT_JACK, id)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn starter_suit(id: V) -> V {
        lut64(&STARTER_SUIT, id)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn rank_of_key(key: V) -> V {
        lut64(&RANK_OF_KEY, key)
    }
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn lut16(t: &[u8; 64], i: V) -> V {
        lut64(t, i)
    }
    /// `t[i & 127]` (one two-register byte permute, whatever `steps`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
    #[inline]
    fn pattern(i: V, t: &[u8; 128], _steps: usize) -> V {
        _mm512_permutex2var_epi8(load(&t[..64]), i, load(&t[64..]))
    }

    show_kernel!("avx512f,avx512bw,avx512vl,avx512vbmi");
}

/// The shows the smallest vector register holds (AVX2's): a batch of fewer rows never runs a
/// vector kernel ([`block_rows`]).
pub(super) const MIN_BLOCK_ROWS: usize = 32;

/// The shows one register of `kernel` holds (0 for the scalar kernel): a batch of fewer rows is
/// one padded block, which costs more than scoring its rows one by one.
pub(super) fn block_rows(kernel: Kernel) -> usize {
    match kernel {
        Kernel::Scalar => 0,
        Kernel::Avx2 => 32,
        Kernel::Avx512 => 64,
    }
}

/// Score `starters.len()` shows (rows of `W` ids in `hands`) with a vectorised `kernel` into
/// `cols`: one column of totals, or [`PART_COLUMNS`] columns of points by category. `Some(i)`
/// at the first bad row (an id out of `0..52` or a card twice), `None` when all are valid.
///
/// # Panics
/// If `kernel` is [`Kernel::Scalar`] or this CPU cannot run it (the batch entry points check
/// [`Kernel::is_available`] first), or the columns are shorter than the rows.
pub(super) fn run<T: CardId, const W: usize, const CRIB: bool>(
    kernel: Kernel,
    hands: &[T],
    starters: &[T],
    cols: &mut [&mut [u8]],
) -> Option<usize> {
    const { assert!(W == 3 || W == 4) };
    assert!(hands.len() == W * starters.len() && cols.iter().all(|c| c.len() >= starters.len()));
    assert!(kernel.is_available(), "kernel {} is not available on this CPU", kernel.name());
    match kernel {
        // SAFETY: the CPU has AVX2 (checked just above), all this kernel needs.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { avx2::run::<T, W, CRIB>(hands, starters, cols) },
        // SAFETY: the CPU has AVX-512 F, BW, VL and VBMI (checked just above).
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { avx512::run::<T, W, CRIB>(hands, starters, cols) },
        _ => panic!("the {} kernel is not a vectorised one", kernel.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::rank_points;

    #[test]
    fn the_sorting_networks_sort_every_zero_one_input() {
        // A comparator network sorts every input if it sorts every 0/1 input.
        for (n, net) in [(4, &SORT4[..]), (5, &SORT5[..])] {
            for bits in 0u32..1 << n {
                let mut v: Vec<u32> = (0..n).map(|i| bits >> i & 1).collect();
                for &(a, b) in net {
                    if v[a] > v[b] {
                        v.swap(a, b);
                    }
                }
                assert!(v.windows(2).all(|w| w[0] <= w[1]), "{n} cards, input {bits:b}");
            }
        }
    }

    #[test]
    fn the_pattern_tables_agree_with_rank_points() {
        // Every multiset of 4 or 5 ranks: its gap pattern's pairs and runs are rank_points'.
        for cards in [4usize, 5] {
            let mut ranks = vec![0u8; cards];
            let mut seen = 0;
            loop {
                if ranks.windows(2).all(|w| w[0] <= w[1])
                    && (0..13).all(|r| ranks.iter().filter(|&&x| x == r).count() <= 4)
                {
                    let pattern: usize = ranks
                        .windows(2)
                        .enumerate()
                        .map(|(i, w)| ((w[1] - w[0]).min(2) as usize) * 3usize.pow(i as u32))
                        .sum();
                    let want = rank_points(&ranks);
                    let t = if cards == 5 { &PATTERNS5 } else { &PATTERNS4 };
                    assert_eq!((t[1][pattern], t[2][pattern]), (want.pairs, want.runs), "{ranks:?}");
                    assert_eq!(t[0][pattern], want.pairs + want.runs);
                    seen += 1;
                }
                // Next tuple of ranks (odometer).
                let mut i = 0;
                while i < cards && ranks[i] == 12 {
                    ranks[i] = 0;
                    i += 1;
                }
                if i == cards {
                    break;
                }
                ranks[i] += 1;
            }
            assert_eq!(seen, if cards == 5 { 6175 } else { 1820 });
        }
    }

    #[test]
    fn the_id_tables_describe_the_cards() {
        for id in 0..52usize {
            let card = crate::cribbage::Card::from_id(id as i64).unwrap();
            assert_eq!(PIPS[id], card.pips());
            assert_eq!(RANK_OF_KEY[SORT_KEY[id] as usize], card.rank());
            assert_eq!(SUIT_JACK[id] & 15, 1 << card.suit());
            assert_eq!(SUIT_JACK[id] >> 4, if card.is_jack() { 1 << card.suit() } else { 0 });
            assert_eq!(STARTER_SUIT[id], 0x11 << card.suit());
        }
    }
}
