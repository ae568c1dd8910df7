//! The expected crib of a throw, shared by the discard analysis ([`analyze_discard`]) and the
//! equilibrium tables ([`discard_tables`]): the kinds of thrown pair ([`throw_kind`]), the cards a
//! player does not hold ([`Unseen`]) and the crib of any discard against an opponent's per-kind
//! pair weights ([`CribContext`]; how it is fast: the [`discard`](super::discard) module docs).
//!
//! [`analyze_discard`]: super::analyze_discard
//! [`discard_tables`]: fn@super::discard_tables

use super::card::{Card, Hand, SUIT_LANE};
use super::game::Variant;
use super::tables::{rank_total, RANK_KEYS};
use crate::error::{Error, Result};

/// Kinds of thrown card pair: a 13 × 13 grid, `lo * 13 + hi` (on or above the diagonal) for a
/// pair of ranks `lo <= hi` of different suits, `hi * 13 + lo` (below the diagonal) for two
/// cards of one suit (`lo < hi`). See [`throw_kind`].
pub const THROW_KINDS: usize = 169;

/// The most discard choices of a hand (six-card: C(6, 2) = 15).
pub const MAX_CHOICES: usize = 15;

/// The kind of a two-card throw (see [`THROW_KINDS`]).
///
/// ```
/// use cribpiquet::cribbage::{throw_kind, Card};
/// let c = |s: &str| s.parse::<Card>().unwrap();
/// assert_eq!(throw_kind(c("5H"), c("5D")), 4 * 13 + 4); // a pair of fives: the diagonal
/// assert_eq!(throw_kind(c("5H"), c("JD")), 4 * 13 + 10); // off-suit: above the diagonal
/// assert_eq!(throw_kind(c("JH"), c("5H")), 10 * 13 + 4); // suited: below it
/// ```
#[inline]
pub fn throw_kind(a: Card, b: Card) -> usize {
    let (lo, hi) = if a.rank() <= b.rank() { (a.rank(), b.rank()) } else { (b.rank(), a.rank()) };
    if a.suit() == b.suit() {
        hi as usize * 13 + lo as usize
    } else {
        lo as usize * 13 + hi as usize
    }
}

/// Card pairs of each [`throw_kind`] in the pack: 6 for a rank pair, 12 off-suit, 4 suited.
pub fn kind_pairs_in_pack(kind: usize) -> f64 {
    let (r, c) = (kind / 13, kind % 13);
    if r == c {
        6.0
    } else if r < c {
        12.0
    } else {
        4.0
    }
}

/// The two-player variants only.
pub(crate) fn check_variant(variant: Variant) -> Result<()> {
    match variant {
        Variant::FiveCard | Variant::SixCard => Ok(()),
        v => Err(Error::InvalidValue(format!(
            "discard analysis is for the two-player games (six-card, five-card), not {}",
            v.name()
        ))),
    }
}

/// What one player does not hold: the cards the opponent may throw and the starter may be
/// (the pack less the hand), by rank and by suit.
pub(crate) struct Unseen {
    cards: [Card; 52],
    count: usize,
    rank_left: [u32; 13],
    lanes: [u64; 4],
    /// Per rank, the suits (bit `suit`) of its unseen cards.
    suits_of: [u8; 13],
}

impl Unseen {
    pub(crate) fn new(hand: Hand, pack: u64) -> Unseen {
        let mask = pack & !hand.mask();
        let mut cards = [Card::from_index_const(0); 52];
        let mut rank_left = [0u32; 13];
        let mut m = mask;
        let mut count = 0;
        while m != 0 {
            let c = Card::from_index(m.trailing_zeros());
            cards[count] = c;
            rank_left[c.rank() as usize] += 1;
            count += 1;
            m &= m - 1;
        }
        let lanes: [u64; 4] = core::array::from_fn(|s| (mask >> (16 * s)) & SUIT_LANE);
        let suits_of = core::array::from_fn(|r| (0..4).fold(0u8, |m, s| m | (((lanes[s] >> r) & 1) as u8) << s));
        Unseen { cards, count, rank_left, lanes, suits_of }
    }

    pub(crate) fn cards(&self) -> &[Card] {
        &self.cards[..self.count]
    }

    /// For a throw of ranks `ra`, `rb`: per opponent rank pair slot ([`rank_slot`]), the
    /// fifteens, pairs and runs of the crib summed over every starter rank left (times the cards
    /// of it left). It depends only on the ranks held, so hands of the same ranks share it.
    pub(crate) fn rank_points(&self, ra: u8, rb: u8) -> [u32; 91] {
        let thrown_key = RANK_KEYS[ra as usize] + RANK_KEYS[rb as usize];
        let left = &self.rank_left;
        let mut out = [0u32; 91];
        for lo in 0..13usize {
            if left[lo] == 0 {
                continue;
            }
            for hi in lo..13usize {
                if (lo == hi && left[lo] < 2) || left[hi] == 0 {
                    continue;
                }
                let base = thrown_key + RANK_KEYS[lo] + RANK_KEYS[hi];
                let mut starters = *left;
                starters[lo] -= 1;
                starters[hi] -= 1;
                let mut points = 0u32;
                for (r, &count) in starters.iter().enumerate() {
                    if count != 0 {
                        points += count * rank_total(base + RANK_KEYS[r]) as u32;
                    }
                }
                out[rank_slot(lo, hi)] = points;
            }
        }
        out
    }
}

/// The index of the rank pair `lo <= hi` in `0..91`.
#[inline(always)]
pub(crate) fn rank_slot(lo: usize, hi: usize) -> usize {
    lo * 13 - lo * (lo + 1) / 2 + hi
}

/// The crib side of one hand against one opponent strategy (per-card-pair weights by throw
/// kind): the weight of the opponent's pairs by rank pair and the nobs terms that do not depend
/// on the discard. [`crib`](Self::crib) then values any discard of the hand.
pub(crate) struct CribContext<'a> {
    unseen: &'a Unseen,
    w: &'a [f64; THROW_KINDS],
    /// The weight of the opponent's pairs by rank pair slot ([`rank_slot`]).
    pair_weight: [f64; 91],
    total_pairs: f64,
    /// Weight of (pair, starter) cases over which the crib is averaged.
    total: f64,
    /// Nobs from the opponent's jack of the starter's suit (the same for every discard).
    nobs_opponent: f64,
    /// Per suit: the weight of (pair, starter of that suit), the pair avoiding the starter
    /// (NaN until needed).
    without_by_suit: core::cell::Cell<[f64; 4]>,
}

impl<'a> CribContext<'a> {
    /// `None` when no unseen pair has any weight.
    pub(crate) fn new(unseen: &'a Unseen, w: &'a [f64; THROW_KINDS]) -> Option<CribContext<'a>> {
        let (rank_left, lanes, suits_of) = (&unseen.rank_left, &unseen.lanes, &unseen.suits_of);
        let mut ctx = CribContext {
            unseen,
            w,
            pair_weight: [0.0; 91],
            total_pairs: 0.0,
            total: 0.0,
            nobs_opponent: 0.0,
            without_by_suit: core::cell::Cell::new([f64::NAN; 4]),
        };
        for lo in 0..13usize {
            if rank_left[lo] == 0 {
                continue;
            }
            for hi in lo..13usize {
                let weight = if lo == hi {
                    let k = rank_left[lo] as f64;
                    k * (k - 1.0) / 2.0 * w[lo * 13 + lo]
                } else {
                    if rank_left[hi] == 0 {
                        continue;
                    }
                    let suited = (suits_of[lo] & suits_of[hi]).count_ones() as f64;
                    let all = (rank_left[lo] * rank_left[hi]) as f64;
                    suited * w[hi * 13 + lo] + (all - suited) * w[lo * 13 + hi]
                };
                ctx.pair_weight[rank_slot(lo, hi)] = weight;
                ctx.total_pairs += weight;
            }
        }
        if ctx.total_pairs <= 0.0 {
            return None;
        }
        ctx.total = ctx.total_pairs * (unseen.count as f64 - 2.0);
        // Nobs from the opponent: a pair holding the jack of the starter's suit, not the starter.
        for (suit, &lane) in lanes.iter().enumerate() {
            if (lane >> 10) & 1 == 1 {
                let jack = Card::from_index(16 * suit as u32 + 10);
                let h = ctx.holding(jack);
                let mut l = lane & !(1 << 10);
                while l != 0 {
                    let r = l.trailing_zeros() as usize;
                    l &= l - 1;
                    let (lo, hi) = (r.min(10), r.max(10));
                    ctx.nobs_opponent += h - w[hi * 13 + lo];
                }
            }
        }
        Some(ctx)
    }

    /// The weight of the unseen pairs holding the unseen card `x`.
    #[inline]
    #[allow(clippy::needless_range_loop)] // `r` indexes the counts and the lane's bits
    fn holding(&self, x: Card) -> f64 {
        let (rank_left, w) = (&self.unseen.rank_left, self.w);
        let rx = x.rank() as usize;
        let lane = self.unseen.lanes[x.suit() as usize];
        let mut h = (rank_left[rx] as f64 - 1.0) * w[rx * 13 + rx];
        for r in 0..13usize {
            if r == rx || rank_left[r] == 0 {
                continue;
            }
            let suited = ((lane >> r) & 1) as f64;
            let (lo, hi) = (r.min(rx), r.max(rx));
            h += suited * w[hi * 13 + lo] + (rank_left[r] as f64 - suited) * w[lo * 13 + hi];
        }
        h
    }

    /// Σ over unseen starters `s` of `suit` of the weight of the pairs avoiding `s`.
    fn without(&self, suit: usize) -> f64 {
        let mut cache = self.without_by_suit.get();
        if cache[suit].is_nan() {
            let mut sum = 0.0;
            let mut l = self.unseen.lanes[suit];
            while l != 0 {
                let s = Card::from_index(16 * suit as u32 + l.trailing_zeros());
                l &= l - 1;
                sum += self.total_pairs - self.holding(s);
            }
            cache[suit] = sum;
            self.without_by_suit.set(cache);
        }
        cache[suit]
    }

    /// The fifteens, pairs and runs part of the crib sum for a throw whose rank points (over
    /// the opponent's rank pairs and the starters) are `points` ([`Unseen::rank_points`]).
    #[inline]
    pub(crate) fn rank_part(&self, points: &[u32; 91]) -> f64 {
        let mut sum = 0.0;
        for (&w, &p) in self.pair_weight.iter().zip(points) {
            if w > 0.0 {
                sum += w * p as f64;
            }
        }
        sum
    }

    /// The expected crib when the hand throws `a` and `b` (`ranks`: [`rank_part`](Self::rank_part)
    /// of them); `flushes = false` scores no crib flush.
    #[inline]
    pub(crate) fn crib(&self, a: Card, b: Card, ranks: f64, flushes: bool) -> f64 {
        // Flush: both thrown of one suit, the opponent's two and the starter of it too.
        let mut flush = 0.0;
        if flushes && a.suit() == b.suit() {
            let lane = self.unseen.lanes[a.suit() as usize];
            let in_suit = lane.count_ones();
            if in_suit >= 3 {
                let mut pair_sum = 0.0;
                let mut l1 = lane;
                while l1 != 0 {
                    let r1 = l1.trailing_zeros() as usize;
                    l1 &= l1 - 1;
                    let mut l2 = l1;
                    while l2 != 0 {
                        let r2 = l2.trailing_zeros() as usize;
                        l2 &= l2 - 1;
                        pair_sum += self.w[r2 * 13 + r1];
                    }
                }
                flush = 5.0 * pair_sum * (in_suit - 2) as f64;
            }
        }
        // Nobs: a thrown jack with a starter of its suit, or the opponent's.
        let mut nobs = self.nobs_opponent;
        for c in [a, b] {
            if c.is_jack() {
                nobs += self.without(c.suit() as usize);
            }
        }
        (ranks + flush + nobs) / self.total
    }
}
