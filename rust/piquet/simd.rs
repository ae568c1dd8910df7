//! The vectorised declaration kernels (AVX2: 8 hands a vector, AVX-512: 16), chosen once per batch
//! call ([`Kernel`]); the scalar path of `batch.rs` is the reference they equal row for row.
//!
//! One hand is one 32-bit lane: its card mask, one byte per suit (bit `rank` of byte `suit`).
//! Everything a suit contributes is computed in its byte, for all suits and hands at once:
//!
//! * **point**: cards and point value per suit, from two 16-entry nibble lookups each (`vpshufb`:
//!   the tables live in registers). The value alone orders points: a longer suit is always worth
//!   more (the values of each length, 0 / 7–11 / 15–21 / 24–31 / 34–41 / 44–51 / 54–61 / 64–68 /
//!   75, never overlap), so the point is the largest value and its length the largest length.
//! * **sequences**: `r_L` (bit `s` when ranks `s..s+L` are held, per suit) for L = 3..8 by shifts;
//!   the best sequence's key `8 L + top` is the largest over L of the top bit of `r_L << (L-1)`
//!   (a nibble lookup again); the sequences' value is `Σ_L (sv[L] − sv[L−1]) · #(starts of runs in
//!   r_L)`, their count that of L = 3.
//! * **sets**: four of a kind is the AND of the four suit bytes, three of a kind "at least three of
//!   four", both on the ranks 10..A; the best set compares as the number `fours << 8 | threes`
//!   (two hands of one deal never hold their best set at the same rank and size).
//! * **carte blanche**: no J, Q, K bit.
//!
//! Ids are read in blocks of 8 (AVX2) or 16 (AVX-512) rows, widened to 32 bits and shifted into
//! masks (`vpsllvd`), the 12 ids of a row gathered by in-register shuffles; the whole block is
//! range-checked on the raw ids (any integer width: no id may have a bit above bit 4) and counted
//! (12 distinct cards per hand, and no card in both hands of a deal). A block that fails is left
//! to the scalar path, which finds the first bad row and its message; so are the last rows that do
//! not fill a block. No load reaches past the end of the input.
//!
//! The kernels' `unsafe` (the intrinsics, the raw loads and stores, the ids read as bytes) lives
//! in this module only: every block says why it is sound.

#![cfg(target_arch = "x86_64")]

use std::any::TypeId;
use std::arch::x86_64::*;

use super::rules::{Rules, CARTE_BLANCHE_POINTS, FOURTEEN_POINTS, PIQUE_THRESHOLD, REPIQUE_BONUS, TRIO_POINTS};
use crate::batch::CardId;
use crate::kernel::Kernel;

/// The rule numbers the kernels need.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Params {
    /// `sv[L] − sv[L−1]` for L = 3..=8 (`sv[2] = 0`), wrapping in 16 bits.
    increments: [u16; 6],
    /// Repique judged in reckoning order (rubicon) rather than on totals.
    reckoning: bool,
}

impl Params {
    pub(crate) fn new(rules: &Rules) -> Params {
        let sv = rules.sequence_values;
        let increments = std::array::from_fn(|l| sv[l].wrapping_sub(if l == 0 { 0 } else { sv[l - 1] }));
        Params { increments, reckoning: super::declare::reckoning(rules) }
    }
}

/// The width in bytes of `T` when it is one of the primitive integers (whose bytes are all
/// initialised, with no padding), so that a slice of it may be read as bytes; `None` otherwise
/// (a caller's own [`CardId`] type goes the scalar way).
fn raw_width<T: 'static>() -> Option<usize> {
    let t = TypeId::of::<T>();
    let is = |ids: [TypeId; 2]| ids.contains(&t);
    if is([TypeId::of::<u8>(), TypeId::of::<i8>()]) {
        Some(1)
    } else if is([TypeId::of::<u16>(), TypeId::of::<i16>()]) {
        Some(2)
    } else if is([TypeId::of::<u32>(), TypeId::of::<i32>()]) {
        Some(4)
    } else if is([TypeId::of::<u64>(), TypeId::of::<i64>()]) {
        Some(8)
    } else if is([TypeId::of::<usize>(), TypeId::of::<isize>()]) {
        Some(std::mem::size_of::<usize>())
    } else {
        None
    }
}

/// The bytes of a slice of primitive integers (`raw_width::<T>()` is `Some`).
fn as_bytes<T: 'static>(ids: &[T]) -> &[u8] {
    assert!(raw_width::<T>().is_some(), "only primitive integers are read as bytes");
    // SAFETY: `T` is a primitive integer (checked just above): every byte of the slice is
    // initialised and there is no padding, the length is exactly the slice's size in bytes, and
    // the bytes are borrowed for as long as the slice.
    unsafe { std::slice::from_raw_parts(ids.as_ptr().cast::<u8>(), std::mem::size_of_val(ids)) }
}

// ---------------------------------------------------------------------------------------------
// Nibble tables (16 entries: one `vpshufb` lookup, the table in a register).
// ---------------------------------------------------------------------------------------------

/// The 16 values `$f(n)` for the nibbles n, at compile time.
macro_rules! nibble_table {
    (|$n:ident| $f:expr) => {{
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            let $n = i as u32;
            t[i] = $f as u8;
            i += 1;
        }
        t
    }};
}

const fn popcount4(n: u32) -> u32 {
    (n & 1) + (n >> 1 & 1) + (n >> 2 & 1) + (n >> 3 & 1)
}

/// One-based highest bit of a nibble (0 for 0).
const fn top1(n: u32) -> u32 {
    32 - n.leading_zeros()
}

/// Cards in a nibble.
const POP: [u8; 16] = nibble_table!(|n| popcount4(n));
/// Point value of the low nibble (7 8 9 10) and of the high one (J Q K A).
const VALUE_LO: [u8; 16] = nibble_table!(|n| (n & 1) * 7 + (n >> 1 & 1) * 8 + (n >> 2 & 1) * 9 + (n >> 3 & 1) * 10);
const VALUE_HI: [u8; 16] = nibble_table!(|n| (n & 1) * 10 + (n >> 1 & 1) * 10 + (n >> 2 & 1) * 10 + (n >> 3 & 1) * 11);
/// One-based highest bit of a byte, from its low and high nibbles (the larger of the two).
const TOP_LO: [u8; 16] = nibble_table!(|n| top1(n));
const TOP_HI: [u8; 16] = nibble_table!(|n| if n == 0 { 0 } else { top1(n) + 4 });
/// Index of the lowest set bit (the suit of the point among equal suits).
const LOWEST: [u8; 16] = nibble_table!(|n| if n == 0 { 0 } else { n.trailing_zeros() });

/// Sequence key tables for runs of L: a byte `t` of tops of runs of at least L maps to
/// `8 L + top` of its highest top (0 for none), from its low and high nibbles.
const fn seq_tables() -> [[[u8; 16]; 2]; 6] {
    let mut t = [[[0u8; 16]; 2]; 6];
    let mut l = 0;
    while l < 6 {
        let base = 8 * (l as u32 + 3);
        let mut n = 0;
        while n < 16 {
            if n != 0 {
                t[l][0][n] = (base + top1(n as u32) - 1) as u8;
                t[l][1][n] = (base + top1(n as u32) + 3) as u8;
            }
            n += 1;
        }
        l += 1;
    }
    t
}
const SEQ_KEY: [[[u8; 16]; 2]; 6] = seq_tables();

// ---------------------------------------------------------------------------------------------
// The vector operations the algorithm uses, for 256- and 512-bit vectors.
// ---------------------------------------------------------------------------------------------

/// A vector of 32-bit lanes (one hand each). Values of these types exist only inside the
/// `#[target_feature]` entry points below, which run only once [`Kernel::is_available`] said the
/// CPU has the features; the operations are `#[inline(always)]`, so they are compiled into those
/// functions with their features.
trait Simd: Copy {
    /// Hands per vector.
    const LANES: usize;
    fn splat32(x: u32) -> Self;
    fn table(t: &[u8; 16]) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `!self & o`.
    fn andnot(self, o: Self) -> Self;
    fn add8(self, o: Self) -> Self;
    fn add16(self, o: Self) -> Self;
    fn add32(self, o: Self) -> Self;
    fn mullo16(self, o: Self) -> Self;
    fn max8(self, o: Self) -> Self;
    fn srl<const N: i32>(self) -> Self;
    fn sll<const N: i32>(self) -> Self;
    /// Byte `i` of `self` = byte `idx[i] & 15` of the table (in each 128-bit lane).
    fn lookup(self, idx: Self) -> Self;
    /// All ones in each byte equal to `o`'s.
    fn eq8(self, o: Self) -> Self;
    /// All ones in each 32-bit lane equal to `o`'s.
    fn eq32(self, o: Self) -> Self;
    /// All ones in each 32-bit lane greater (signed) than `o`'s.
    fn gt32(self, o: Self) -> Self;
    /// Every 32-bit lane all ones?
    fn all(self) -> bool;
    /// No bit in common with `o`?
    fn disjoint(self, o: Self) -> bool;
    /// No bit set?
    #[inline(always)]
    fn none(self) -> bool {
        self.disjoint(self)
    }
    /// The lanes, in order.
    fn lanes(self) -> [u32; 16];
    /// The masks of `LANES` rows of 12 ids of W bytes at `p`, and whether every id is in 0..32.
    ///
    /// # Safety
    /// `p` must be valid for reading `12 * W * LANES` bytes.
    unsafe fn load<const W: usize>(p: *const u8) -> (Self, bool);
    /// Store the lanes at `p` (room for `LANES` u32, no alignment).
    ///
    /// # Safety
    /// `p` must be valid for writing `4 * LANES` bytes.
    unsafe fn store(self, p: *mut u8);
}

/// The nibble split of a vector of bytes.
#[inline(always)]
fn nibbles<S: Simd>(x: S) -> (S, S) {
    let low = S::splat32(0x0F0F_0F0F);
    (x.and(low), x.srl::<4>().and(low))
}

/// The largest byte of each 32-bit lane, in its low byte (the others zero).
#[inline(always)]
fn max_byte<S: Simd>(x: S) -> S {
    let x = x.max8(x.srl::<16>());
    x.max8(x.srl::<8>()).and(S::splat32(0xFF))
}

/// The sum of the bytes of each 32-bit lane (each byte at most 63), in its low byte.
#[inline(always)]
fn sum_bytes<S: Simd>(x: S) -> S {
    let x = x.add32(x.srl::<16>());
    x.add32(x.srl::<8>()).and(S::splat32(0xFF))
}

/// Cards per byte.
#[inline(always)]
fn popcount8<S: Simd>(x: S) -> S {
    let (lo, hi) = nibbles(x);
    let pop = S::table(&POP);
    pop.lookup(lo).add8(pop.lookup(hi))
}

/// What one hand brings to the comparison, lane by lane.
#[derive(Clone, Copy)]
struct Facts<S> {
    /// Cards in the hand (12 for a valid one).
    cards: S,
    /// The point's length and value (its key: see the module's note).
    point_length: S,
    point_value: S,
    /// Per-suit point values (bytes), for the point's suit.
    suit_values: S,
    /// `8 length + top` of the best sequence, 0 for none.
    seq_key: S,
    /// Number of sequences and their value.
    seq_count: S,
    seq_value: S,
    /// `fours << 8 | threes` (rank bits 3..=7 of each byte): compares as the best set does.
    sets: S,
    /// Value of all sets.
    set_value: S,
    /// All ones for carte blanche.
    blanche: S,
}

#[inline(always)]
fn facts<S: Simd>(m: S, p: &Params) -> Facts<S> {
    let (lo, hi) = nibbles(m);
    let cards_per_suit = S::table(&POP).lookup(lo).add8(S::table(&POP).lookup(hi));
    let suit_values = S::table(&VALUE_LO).lookup(lo).add8(S::table(&VALUE_HI).lookup(hi));

    // Sequences. `r` holds the starts of runs of at least L cards (L = 2, 3, ...); bits never
    // cross a suit byte (the shifted-in bit of the next suit is masked off).
    let seven = S::splat32(0x7F7F_7F7F);
    let mut r = m.and(m.srl::<1>().and(seven));
    // Starts of maximal runs: held, and the rank below not held (or none).
    let starts = m.sll::<1>().and(S::splat32(0xFEFE_FEFE)).andnot(m);
    let mut seq_key = S::splat32(0);
    let mut seq_value = S::splat32(0);
    let mut seq_count = S::splat32(0);
    macro_rules! length {
        ($l:literal, $i:literal) => {{
            r = r.and(r.srl::<1>().and(seven));
            // Tops of runs of at least L: stay in the byte (a start is at most 8 - L).
            let (tlo, thi) = nibbles(r.sll::<{ $l - 1 }>());
            let key = S::table(&SEQ_KEY[$i][0]).lookup(tlo).max8(S::table(&SEQ_KEY[$i][1]).lookup(thi));
            seq_key = seq_key.max8(key);
            let count = sum_bytes(popcount8(r.and(starts)));
            if $l == 3 {
                seq_count = count;
            }
            seq_value = seq_value.add16(count.mullo16(S::splat32(p.increments[$i] as u32)));
        }};
    }
    // Runs of L only shrink with L: once no hand of the vector has one, the longer lengths add
    // nothing (most vectors stop after 4 or 5).
    'lengths: {
        length!(3, 0);
        length!(4, 1);
        if r.none() {
            break 'lengths;
        }
        length!(5, 2);
        if r.none() {
            break 'lengths;
        }
        length!(6, 3);
        length!(7, 4);
        length!(8, 5);
    }

    // Sets: suit bytes a b c d; four = a&b&c&d, three = a&b&(c|d) | c&d&(a|b), on 10..A.
    let ab = m.and(m.srl::<8>());
    let a_or_b = m.or(m.srl::<8>());
    let set_ranks = S::splat32(0xF8);
    let four = ab.and(ab.srl::<16>()).and(set_ranks);
    let three = four.andnot(ab.and(a_or_b.srl::<16>()).or(ab.srl::<16>().and(a_or_b)).and(set_ranks));
    let sets = three.or(four.sll::<8>());
    let counts = popcount8(sets);
    let set_value = counts
        .and(S::splat32(0xFF))
        .mullo16(S::splat32(TRIO_POINTS as u32))
        .add16(counts.srl::<8>().mullo16(S::splat32(FOURTEEN_POINTS as u32)));

    Facts {
        cards: sum_bytes(cards_per_suit),
        point_length: max_byte(cards_per_suit),
        point_value: max_byte(suit_values),
        suit_values,
        seq_key: max_byte(seq_key),
        seq_count,
        seq_value: seq_value.and(S::splat32(0xFFFF)),
        sets,
        set_value,
        blanche: m.and(S::splat32(0x7070_7070)).eq32(S::splat32(0)),
    }
}

/// Who scores what of a category: the holder of the higher key scores his value.
#[inline(always)]
fn pick<S: Simd>(ke: S, kd: S, ve: S, vd: S) -> (S, S) {
    (ve.and(ke.gt32(kd)), vd.and(kd.gt32(ke)))
}

/// Both players' points of valid deals, `elder | dealer << 16` per lane (the `[i16; 2]` layout).
#[inline(always)]
fn points<S: Simd>(e: &Facts<S>, d: &Facts<S>, p: &Params) -> S {
    let blanche = S::splat32(CARTE_BLANCHE_POINTS as u32);
    let (e1, d1) = (e.blanche.and(blanche), d.blanche.and(blanche));
    let (pe, pd) = pick(e.point_value, d.point_value, e.point_length, d.point_length);
    let (se, sd) = pick(e.seq_key, d.seq_key, e.seq_value, d.seq_value);
    let (te, td) = pick(e.sets, d.sets, e.set_value, d.set_value);
    let (e2, d2) = (e1.add32(pe), d1.add32(pd));
    let (e3, d3) = (e2.add32(se), d2.add32(sd));
    let (e4, d4) = (e3.add32(te), d3.add32(td));
    let below = S::splat32(PIQUE_THRESHOLD as u32 - 1);
    let zero = S::splat32(0);
    let repique = |mine: S, theirs: S| mine.gt32(below).and(theirs.eq32(zero));
    let (mut rep_e, mut rep_d) = (repique(e4, d4), repique(d4, e4));
    if p.reckoning {
        // Rubicon: any category end where one has 30 and the other nothing (carte blanche alone,
        // 10, never reaches 30).
        rep_e = rep_e.or(repique(e3, d3)).or(repique(e2, d2));
        rep_d = rep_d.or(repique(d3, e3)).or(repique(d2, e2));
    }
    let bonus = S::splat32(REPIQUE_BONUS as u32);
    let te = e4.add32(rep_e.and(bonus)).and(S::splat32(0xFFFF));
    let td = d4.add32(rep_d.and(bonus));
    te.or(td.sll::<16>())
}

/// The features of valid hands, packed three words a hand: `[length | value << 8 | suit << 16 |
/// seq_key << 24, count | set_key << 8 | blanche << 16, seq_value | sets_value << 16]` (`set_key`:
/// 0 for no set, `1 + rank` for a trio, `9 + rank` for a fourteen, as `Summary::set_key`).
#[inline(always)]
fn features<S: Simd>(f: &Facts<S>) -> [S; 3] {
    // The point's suit: the lowest suit whose value is the largest.
    let max = f.point_value.or(f.point_value.sll::<8>());
    let max = max.or(max.sll::<16>());
    let hit = f.suit_values.eq8(max).and(S::splat32(0x0804_0201));
    let hit = hit.or(hit.srl::<16>());
    let hit = hit.or(hit.srl::<8>()).and(S::splat32(0x0F));
    let suit = S::table(&LOWEST).lookup(hit).and(S::splat32(0xFF));
    let (lo, hi) = nibbles(f.sets);
    let tops = S::table(&TOP_LO).lookup(lo).max8(S::table(&TOP_HI).lookup(hi));
    let (top3, top4) = (tops.and(S::splat32(0xFF)), tops.srl::<8>());
    // A fourteen (9 + rank) beats any trio (1 + rank).
    let set_key = top4.eq32(S::splat32(0)).andnot(top4.add32(S::splat32(8))).max8(top3);
    [
        f.point_length.or(f.point_value.sll::<8>()).or(suit.sll::<16>()).or(f.seq_key.sll::<24>()),
        f.seq_count.or(set_key.sll::<8>()).or(f.blanche.and(S::splat32(1 << 16))),
        f.seq_value.or(f.set_value.sll::<16>()),
    ]
}

/// The features of one block of hands, packed as [`features`] says, lane `i` for row `i` of the
/// block (the first `rows`).
pub(crate) struct Block {
    pub rows: usize,
    pub words: [[u32; 16]; 3],
}

// ---------------------------------------------------------------------------------------------
// Loading ids: 8 rows of 12 ids of width W bytes into 8 masks (AVX2 instructions; the AVX-512
// kernel loads two such halves).
// ---------------------------------------------------------------------------------------------

/// The masks of 8 rows (in row order), and whether every id is in 0..32, from the `96 * W`
/// bytes at `p` (ids of W bytes, any sign: a negative id has high bits set).
///
/// # Safety
/// The CPU must have AVX2 (the caller is compiled for it) and `p` must be valid for reading
/// `96 * W` bytes.
#[inline(always)]
unsafe fn load8<const W: usize>(p: *const u8) -> (__m256i, bool) {
    // SAFETY: every load below reads within the `96 * W` bytes the caller vouches for (8 ids of W
    // bytes at offset `8 * j * W`, j < 12), unaligned; AVX2 is enabled in the caller.
    unsafe {
        let one = _mm256_set1_epi32(1);
        // The OR of every id (widened to 32 bits, or the raw 64 bits).
        let mut all = _mm256_setzero_si256();
        // ids[8j..8j+8] as 32-bit lanes, and their bits, for j = 0..12.
        let mut bits = [_mm256_setzero_si256(); 12];
        for (j, b) in bits.iter_mut().enumerate() {
            let ids = match W {
                1 => _mm256_cvtepu8_epi32(_mm_loadl_epi64(p.add(8 * j).cast())),
                2 => _mm256_cvtepu16_epi32(_mm_loadu_si128(p.add(16 * j).cast())),
                4 => _mm256_loadu_si256(p.add(32 * j).cast()),
                _ => {
                    // Eight 64-bit ids: their low halves in order (the range check sees them whole).
                    let a = _mm256_loadu_si256(p.add(64 * j).cast());
                    let c = _mm256_loadu_si256(p.add(64 * j + 32).cast());
                    all = _mm256_or_si256(all, _mm256_or_si256(a, c));
                    let evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
                    let a = _mm256_permutevar8x32_epi32(a, evens);
                    let c = _mm256_permutevar8x32_epi32(c, evens);
                    _mm256_permute2x128_si256::<0x20>(a, c)
                }
            };
            if W < 8 {
                all = _mm256_or_si256(all, ids);
            }
            *b = _mm256_sllv_epi32(one, ids);
        }
        // Row h is the 128-bit quads 3h, 3h+1, 3h+2 of `bits` (four ids each): for each pair of
        // rows, [row 2q | row 2q+1] as quads, then each quad ORed down to one lane.
        let mut pairs = [_mm256_setzero_si256(); 4];
        for (q, pair) in pairs.iter_mut().enumerate() {
            let (x, y, z) = (bits[3 * q], bits[3 * q + 1], bits[3 * q + 2]);
            let outer = _mm256_blend_epi32::<0xF0>(x, z); // quads 6q and 6q+5
            let inner = _mm256_permute2x128_si256::<0x21>(x, z); // quads 6q+1 and 6q+4
            *pair = _mm256_or_si256(_mm256_or_si256(outer, inner), y);
        }
        let fold = |a: __m256i, b: __m256i| _mm256_or_si256(_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
        let (t01, t23) = (fold(pairs[0], pairs[1]), fold(pairs[2], pairs[3]));
        let rows = _mm256_or_si256(_mm256_unpacklo_epi64(t01, t23), _mm256_unpackhi_epi64(t01, t23));
        // Lanes hold rows 0 2 4 6 | 1 3 5 7: back to row order.
        let masks = _mm256_permutevar8x32_epi32(rows, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        // No bit above bit 4 in any id (64-bit ids: in the whole 64 bits).
        let high = if W == 8 { _mm256_set1_epi64x(!31) } else { _mm256_set1_epi32(!31) };
        (masks, _mm256_testz_si256(all, high) == 1)
    }
}

// ---------------------------------------------------------------------------------------------
// AVX2.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Avx2(__m256i);

macro_rules! avx2 {
    ($($body:tt)*) => {
        // SAFETY: an `Avx2` value exists only inside the AVX2 entry points (see `Simd`), which run
        // after the CPU's AVX2 was detected; the intrinsic touches registers only.
        unsafe { $($body)* }
    };
}

impl Simd for Avx2 {
    const LANES: usize = 8;
    #[inline(always)]
    fn splat32(x: u32) -> Self {
        avx2!(Avx2(_mm256_set1_epi32(x as i32)))
    }
    #[inline(always)]
    fn table(t: &[u8; 16]) -> Self {
        avx2!(Avx2(_mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()))))
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_and_si256(self.0, o.0)))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_or_si256(self.0, o.0)))
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_andnot_si256(self.0, o.0)))
    }
    #[inline(always)]
    fn add8(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_add_epi8(self.0, o.0)))
    }
    #[inline(always)]
    fn add16(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_add_epi16(self.0, o.0)))
    }
    #[inline(always)]
    fn add32(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_add_epi32(self.0, o.0)))
    }
    #[inline(always)]
    fn mullo16(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_mullo_epi16(self.0, o.0)))
    }
    #[inline(always)]
    fn max8(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_max_epu8(self.0, o.0)))
    }
    #[inline(always)]
    fn srl<const N: i32>(self) -> Self {
        avx2!(Avx2(_mm256_srli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn sll<const N: i32>(self) -> Self {
        avx2!(Avx2(_mm256_slli_epi32::<N>(self.0)))
    }
    #[inline(always)]
    fn lookup(self, idx: Self) -> Self {
        avx2!(Avx2(_mm256_shuffle_epi8(self.0, idx.0)))
    }
    #[inline(always)]
    fn eq8(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_cmpeq_epi8(self.0, o.0)))
    }
    #[inline(always)]
    fn eq32(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_cmpeq_epi32(self.0, o.0)))
    }
    #[inline(always)]
    fn gt32(self, o: Self) -> Self {
        avx2!(Avx2(_mm256_cmpgt_epi32(self.0, o.0)))
    }
    #[inline(always)]
    fn all(self) -> bool {
        avx2!(_mm256_movemask_epi8(self.0) == -1)
    }
    #[inline(always)]
    fn disjoint(self, o: Self) -> bool {
        avx2!(_mm256_testz_si256(self.0, o.0) == 1)
    }
    #[inline(always)]
    fn lanes(self) -> [u32; 16] {
        let mut out = [0u32; 16];
        // SAFETY: `out` has room for the 8 lanes.
        unsafe { self.store(out.as_mut_ptr().cast()) };
        out
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller vouches for 32 writable bytes at `p` (unaligned store); AVX2 as above.
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn load<const W: usize>(p: *const u8) -> (Self, bool) {
        // SAFETY: the caller vouches for the `96 * W` bytes; AVX2 as above.
        let (m, ok) = unsafe { load8::<W>(p) };
        (Avx2(m), ok)
    }
}

// ---------------------------------------------------------------------------------------------
// AVX-512 (F, BW: 512-bit byte and 32-bit operations).
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
struct Avx512(__m512i);

macro_rules! avx512 {
    ($($body:tt)*) => {
        // SAFETY: an `Avx512` value exists only inside the AVX-512 entry points (see `Simd`),
        // which run after the CPU's AVX-512 F, BW, VL and VBMI were detected; the intrinsic touches
        // registers only.
        unsafe { $($body)* }
    };
}

impl Simd for Avx512 {
    const LANES: usize = 16;
    #[inline(always)]
    fn splat32(x: u32) -> Self {
        avx512!(Avx512(_mm512_set1_epi32(x as i32)))
    }
    #[inline(always)]
    fn table(t: &[u8; 16]) -> Self {
        avx512!(Avx512(_mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast()))))
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_and_si512(self.0, o.0)))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_or_si512(self.0, o.0)))
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_andnot_si512(self.0, o.0)))
    }
    #[inline(always)]
    fn add8(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_add_epi8(self.0, o.0)))
    }
    #[inline(always)]
    fn add16(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_add_epi16(self.0, o.0)))
    }
    #[inline(always)]
    fn add32(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_add_epi32(self.0, o.0)))
    }
    #[inline(always)]
    fn mullo16(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_mullo_epi16(self.0, o.0)))
    }
    #[inline(always)]
    fn max8(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_max_epu8(self.0, o.0)))
    }
    #[inline(always)]
    fn srl<const N: i32>(self) -> Self {
        avx512!(Avx512(_mm512_srl_epi32(self.0, _mm_cvtsi32_si128(N))))
    }
    #[inline(always)]
    fn sll<const N: i32>(self) -> Self {
        avx512!(Avx512(_mm512_sll_epi32(self.0, _mm_cvtsi32_si128(N))))
    }
    #[inline(always)]
    fn lookup(self, idx: Self) -> Self {
        avx512!(Avx512(_mm512_shuffle_epi8(self.0, idx.0)))
    }
    #[inline(always)]
    fn eq8(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_movm_epi8(_mm512_cmpeq_epi8_mask(self.0, o.0))))
    }
    #[inline(always)]
    fn eq32(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_maskz_set1_epi32(_mm512_cmpeq_epi32_mask(self.0, o.0), -1)))
    }
    #[inline(always)]
    fn gt32(self, o: Self) -> Self {
        avx512!(Avx512(_mm512_maskz_set1_epi32(_mm512_cmpgt_epi32_mask(self.0, o.0), -1)))
    }
    #[inline(always)]
    fn all(self) -> bool {
        avx512!(_mm512_cmpeq_epi32_mask(self.0, _mm512_set1_epi32(-1)) == 0xFFFF)
    }
    #[inline(always)]
    fn disjoint(self, o: Self) -> bool {
        avx512!(_mm512_test_epi32_mask(self.0, o.0) == 0)
    }
    #[inline(always)]
    fn lanes(self) -> [u32; 16] {
        let mut out = [0u32; 16];
        // SAFETY: `out` has room for the 16 lanes.
        unsafe { self.store(out.as_mut_ptr().cast()) };
        out
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller vouches for 64 writable bytes at `p` (unaligned store); AVX-512 as
        // above.
        unsafe { _mm512_storeu_si512(p.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn load<const W: usize>(p: *const u8) -> (Self, bool) {
        // SAFETY: two halves of 8 rows, in the first and the second `96 * W` of the `192 * W`
        // bytes the caller vouches for; AVX-512 (with AVX2) as above.
        unsafe {
            let (a, ok_a) = load8::<W>(p);
            let (b, ok_b) = load8::<W>(p.add(96 * W));
            (Avx512(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(a), b)), ok_a && ok_b)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The block loops, written once over the vector type.
// ---------------------------------------------------------------------------------------------

/// Score whole blocks of valid deals from the start of `elder`/`dealer` (raw ids of width W, 12 a
/// row) into `out`; stop before the first block holding a bad row and before a partial block.
/// Returns the rows scored.
///
/// # Safety
/// The CPU must have the features of `S`.
#[inline(always)]
unsafe fn score_loop<S: Simd, const W: usize>(
    elder: &[u8],
    dealer: &[u8],
    out: &mut [[i16; 2]],
    p: &Params,
) -> usize {
    let rows = out.len().min(elder.len() / (12 * W)).min(dealer.len() / (12 * W));
    let step = S::LANES * 12 * W;
    let mut r = 0;
    while r + S::LANES <= rows {
        // SAFETY: rows r..r + LANES are within both slices (r + LANES <= rows), so the loads read
        // `LANES * 12 * W` bytes in bounds, and `out` has those rows (4 bytes each).
        unsafe {
            let (e, e_ok) = S::load::<W>(elder.as_ptr().add(r / S::LANES * step));
            let (d, d_ok) = S::load::<W>(dealer.as_ptr().add(r / S::LANES * step));
            let (fe, fd) = (facts(e, p), facts(d, p));
            let twelve = S::splat32(12);
            if !(e_ok && d_ok && fe.cards.eq32(twelve).all() && fd.cards.eq32(twelve).all() && e.disjoint(d)) {
                break;
            }
            points(&fe, &fd, p).store(out.as_mut_ptr().add(r).cast());
        }
        r += S::LANES;
    }
    r
}

/// The features of whole blocks of valid hands from the start of `hands`, given to `sink(first
/// row, block)`; stops as [`score_loop`] does. Returns the rows done.
///
/// # Safety
/// As [`score_loop`].
#[inline(always)]
unsafe fn features_loop<S: Simd, const W: usize>(
    hands: &[u8],
    p: &Params,
    sink: &mut impl FnMut(usize, &Block),
) -> usize {
    let rows = hands.len() / (12 * W);
    let mut r = 0;
    while r + S::LANES <= rows {
        // SAFETY: rows r..r + LANES are within the slice.
        let (m, ok) = unsafe { S::load::<W>(hands.as_ptr().add(r * 12 * W)) };
        let f = facts(m, p);
        if !(ok && f.cards.eq32(S::splat32(12)).all()) {
            break;
        }
        let [a, b, c] = features(&f);
        sink(r, &Block { rows: S::LANES, words: [a.lanes(), b.lanes(), c.lanes()] });
        r += S::LANES;
    }
    r
}

macro_rules! entry_points {
    ($score:ident, $features:ident, $feat:literal, $S:ty) => {
        /// [`score_loop`] compiled for these features.
        ///
        /// # Safety
        /// The CPU must have them.
        #[target_feature(enable = $feat)]
        unsafe fn $score<const W: usize>(elder: &[u8], dealer: &[u8], out: &mut [[i16; 2]], p: &Params) -> usize {
            // SAFETY: the features are enabled here (the caller checked the CPU).
            unsafe { score_loop::<$S, W>(elder, dealer, out, p) }
        }

        /// [`features_loop`] compiled for these features.
        ///
        /// # Safety
        /// The CPU must have them.
        #[target_feature(enable = $feat)]
        unsafe fn $features<const W: usize, F: FnMut(usize, &Block)>(
            hands: &[u8],
            p: &Params,
            sink: &mut F,
        ) -> usize {
            // SAFETY: as above.
            unsafe { features_loop::<$S, W>(hands, p, sink) }
        }
    };
}

entry_points!(score_avx2, features_avx2, "avx2,bmi2", Avx2);
entry_points!(score_avx512, features_avx512, "avx2,bmi2,avx512f,avx512bw,avx512vl,avx512vbmi", Avx512);

/// Score the leading whole blocks of valid deals of `elder`/`dealer` (12 ids a row) into `out`
/// with `kernel`; returns the rows done (0 for the scalar kernel, a kernel the CPU lacks, or ids
/// of a caller's own type). The caller scores the rest (and finds the first bad row) the scalar
/// way.
pub(crate) fn score_rows<T: CardId + 'static>(
    kernel: Kernel,
    elder: &[T],
    dealer: &[T],
    out: &mut [[i16; 2]],
    p: &Params,
) -> usize {
    let Some(w) = raw_width::<T>() else { return 0 };
    if kernel == Kernel::Scalar || !kernel.is_available() {
        return 0;
    }
    let (e, d) = (as_bytes(elder), as_bytes(dealer));
    macro_rules! go {
        ($f:ident) => {
            // SAFETY: `kernel.is_available()` checked the features `$f` is compiled for.
            unsafe {
                match w {
                    1 => $f::<1>(e, d, out, p),
                    2 => $f::<2>(e, d, out, p),
                    4 => $f::<4>(e, d, out, p),
                    _ => $f::<8>(e, d, out, p),
                }
            }
        };
    }
    match kernel {
        Kernel::Avx512 => go!(score_avx512),
        _ => go!(score_avx2),
    }
}

/// The features of the leading whole blocks of valid hands of `hands` (12 ids a row), given to
/// `sink(first row, block)`; returns the rows done (see [`score_rows`]).
pub(crate) fn declaration_rows<T: CardId + 'static>(
    kernel: Kernel,
    hands: &[T],
    p: &Params,
    mut sink: impl FnMut(usize, &Block),
) -> usize {
    let Some(w) = raw_width::<T>() else { return 0 };
    if kernel == Kernel::Scalar || !kernel.is_available() {
        return 0;
    }
    let h = as_bytes(hands);
    macro_rules! go {
        ($f:ident) => {
            // SAFETY: `kernel.is_available()` checked the features `$f` is compiled for.
            unsafe {
                match w {
                    1 => $f::<1, _>(h, p, &mut sink),
                    2 => $f::<2, _>(h, p, &mut sink),
                    4 => $f::<4, _>(h, p, &mut sink),
                    _ => $f::<8, _>(h, p, &mut sink),
                }
            }
        };
    }
    match kernel {
        Kernel::Avx512 => go!(features_avx512),
        _ => go!(features_avx2),
    }
}
