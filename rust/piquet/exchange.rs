//! Exchange analysis (rules §2, §3, §4): for every legal discard of a 12-card dealt hand, the
//! exact expected declarations of the hand after the exchange over every possible draw, and a
//! seeded Monte Carlo estimate of winning each category against an opponent who exchanges too.
//!
//! * [`exchange_sizes`] / [`legal_discards`]: what `role` may discard under the rules' talon
//!   mechanics (`docs/rules/piquet.md` §2), in a canonical order.
//! * [`exact_exchange`]: per discard, exactly over every draw of that many cards from the 20
//!   unseen cards: the expected point, sequences and sets, the distributions of the point
//!   length, the best sequence's length and the best set's size, and the expected total. Sorted
//!   best `expected_total` first.
//! * [`monte_carlo_exchange`]: per discard (canonical order), counts of winning and losing each
//!   category, repique and pique, against an opponent holding a random hand of the unseen cards
//!   who exchanges to maximise its own expected total ([`McOpponent`]). Sample `i` is seeded by
//!   `(seed, i)`, so any split of a run into sample ranges adds up to the same counts.
//!
//! **What a draw is** (*decision*, as in the engine's compact dealing, rules §9): the cards a
//! player takes are uniformly distributed over the 20 cards he has not seen. For the dealer this
//! ignores what the size of elder's exchange says about elder's hand (the exact part treats the
//! talon as unseen and uniform).
//!
//! ```
//! use cribpiquet::piquet::{exact_exchange, Role, Rules};
//! let hand = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
//! let rows = exact_exchange(hand, Role::Elder, &Rules::russian(), None).unwrap();
//! assert_eq!(rows.len(), 1 + 220 + 495 + 792); // none, or 3 to 5 cards (russian elder)
//! // Throwing the three small clubs and diamonds keeps the sixième and the aces.
//! assert_eq!(rows[0].discard.to_string(), "7C 8C 7D");
//! ```

use rayon::prelude::*;

use super::card::{check_twelve, Hand, SUIT_LANE};
use super::compare::repique_of;
use super::declare::{Compiled, Summary};
use super::rules::{Role, Rules, TrickScoring, CARTE_BLANCHE_POINTS, PIQUE_THRESHOLD};
use crate::error::{Error, Result};
use crate::rng::Rng;

crate::batch::row_columns! {
    /// One discard of [`exact_exchange`], with exact expectations over every draw.
    ///
    /// The values are what the hand after the exchange **holds** (as if each declaration were good);
    /// whether it wins against the opponent is the Monte Carlo part ([`ExchangeMcCounts`]).
    #[derive(Debug, Clone, PartialEq)]
    pub struct ExchangeRow {
        /// The cards discarded (empty: the player declines to exchange).
        pub discard: Hand,
        /// E\[point\] (the point scores one per card: its length).
        pub expected_point: f64,
        /// E[value of all sequences] under the rules' sequence values.
        pub expected_sequence: f64,
        /// E[value of all sets] (14 per fourteen, 3 per trio).
        pub expected_sets: f64,
        /// Carte blanche, 10 or 0: judged on the hand **as dealt** (rules §3.1), so the same for every
        /// discard.
        pub carte_blanche: u16,
        /// E[point + sequences + sets + carte blanche].
        pub expected_total: f64,
        /// `point_length[n]`: probability that the point has `n` cards (only 3..=8 can occur).
        pub point_length: [f64; 9],
        /// `sequence_length[n]`: probability that the best sequence has `n` cards (0: none).
        pub sequence_length: [f64; 9],
        /// `set_size[n]`: probability that the best set has `n` cards (0: none, 3: a trio, 4: a
        /// fourteen; 1 and 2 are always 0).
        pub set_size: [f64; 5],
        /// Probability that the total held is 30 or more (the repique threshold, rules §4).
        pub total_30: f64,
        /// The number of equally likely draws enumerated (C(20, cards discarded)).
        pub draws: u64,
    }
}

/// The opponent of [`monte_carlo_exchange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum McOpponent {
    /// Exchanges to maximise its own expected total (the objective of [`exact_exchange`]),
    /// estimated cheaply by successive halving: every legal discard is scored on [`SCREEN_DRAWS`]
    /// random draws (the same draws for every discard of a size), the best [`SHORTLIST`] on
    /// [`SHORTLIST_DRAWS`] fresh common draws, the best [`REFINE_CANDIDATES`] of those on
    /// [`REFINE_DRAWS`], and the best of those is played (declining is scored exactly). Its
    /// choice's exact expected total is about 0.1 point below the best one on average (at most
    /// about 1), measured on random elder hands.
    /// An approximation of the exact routine, which is far too slow to run per sample (about
    /// 0.1 s a hand).
    Best,
    /// Never exchanges (a baseline; an error when its rules make the exchange compulsory).
    Keep,
}

impl McOpponent {
    /// `"best"` or `"keep"`.
    ///
    /// ```
    /// use cribpiquet::piquet::McOpponent;
    /// assert_eq!(McOpponent::parse("keep").unwrap(), McOpponent::Keep);
    /// assert!(McOpponent::parse("random").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<McOpponent> {
        match name {
            "best" => Ok(McOpponent::Best),
            "keep" => Ok(McOpponent::Keep),
            _ => Err(Error::InvalidValue(format!("unknown opponent {name:?} (expected \"best\" or \"keep\")"))),
        }
    }
}

/// Draws per discard size on which [`McOpponent::Best`] screens every legal discard.
pub const SCREEN_DRAWS: usize = 8;
/// Discards [`McOpponent::Best`] scores again on [`SHORTLIST_DRAWS`] draws.
pub const SHORTLIST: usize = 128;
/// Draws per discard size for the shortlist of [`McOpponent::Best`].
pub const SHORTLIST_DRAWS: usize = 32;
/// Discards of the shortlist [`McOpponent::Best`] scores again on [`REFINE_DRAWS`] draws.
pub const REFINE_CANDIDATES: usize = 4;
/// Draws per discard size on which [`McOpponent::Best`] rescores its best candidates.
pub const REFINE_DRAWS: usize = 512;

crate::batch::row_columns! {
    /// Monte Carlo counts for one discard (see [`monte_carlo_exchange`]); [`add`](Self::add) merges
    /// disjoint sample ranges. "Mine" is the analysed player's, "the opponent's" the other's.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct ExchangeMcCounts {
        /// The cards discarded.
        pub discard: Hand,
        /// Samples in which this discard was possible (for the dealer: elder left enough cards).
        pub samples: u64,
        /// The point: `[won, lost]` (the rest: equal, nobody scores).
        pub point: [u64; 2],
        /// Sequences: `[won, lost]`.
        pub sequences: [u64; 2],
        /// Sets: `[won, lost]`.
        pub sets: [u64; 2],
        /// Repique: `[mine, the opponent's]`.
        pub repique: [u64; 2],
        /// A sure pique (elder only; see [`monte_carlo_exchange`]): `[mine, the opponent's]`.
        pub pique: [u64; 2],
        /// Σ and Σ² of my declaration points scored (repique included).
        pub points: [u64; 2],
        /// Σ and Σ² of my points minus the opponent's (the sum may be negative).
        pub net: [i64; 2],
        /// Σ and Σ² of the total I hold (as [`ExchangeRow::expected_total`]: as if all were good).
        pub total: [u64; 2],
    }
}

impl ExchangeMcCounts {
    /// Add the counts of another sample range of the same discard.
    pub fn add(&mut self, other: &ExchangeMcCounts) {
        self.samples += other.samples;
        for (a, b) in [
            (&mut self.point, &other.point),
            (&mut self.sequences, &other.sequences),
            (&mut self.sets, &other.sets),
            (&mut self.repique, &other.repique),
            (&mut self.pique, &other.pique),
            (&mut self.points, &other.points),
            (&mut self.total, &other.total),
        ] {
            a[0] += b[0];
            a[1] += b[1];
        }
        self.net[0] += other.net[0];
        self.net[1] += other.net[1];
    }
}

// ------------------------------------------------------------------------------ legal discards

/// The most talon cards `role` can ever have: elder his 5; the dealer 8 less the fewest elder
/// must take.
fn talon_for(role: Role, rules: &Rules) -> u8 {
    match role {
        Role::Elder => 5,
        Role::Dealer => 8 - if rules.elder_exchange.may_decline { 0 } else { rules.elder_exchange.min },
    }
}

/// The talon cards available to `role`: `max_discard`, or by default [`talon_for`].
fn available(role: Role, rules: &Rules, max_discard: Option<u8>) -> Result<u8> {
    let most = talon_for(role, rules);
    match max_discard {
        None => Ok(most),
        Some(m) if m <= most => Ok(m),
        Some(m) => Err(Error::InvalidValue(format!(
            "max_discard must be at most {most} for {} under these rules, got {m}",
            if role == Role::Elder { "elder" } else { "the dealer" }
        ))),
    }
}

/// The numbers of cards `role` may exchange (0 = declining, when allowed), ascending, as the
/// engine allows them (rules §2): `max_discard` is the number of talon cards available (the
/// engine passes what is left; `None`: elder 5, the dealer 8 less the fewest elder must take).
///
/// An error when the rules are invalid, `max_discard` is more than the role can have, or no
/// exchange of at least one card is allowed (e.g. a russian dealer with 2 cards left).
///
/// ```
/// use cribpiquet::piquet::{exchange_sizes, Role, Rules};
/// let ru = Rules::russian();
/// assert_eq!(exchange_sizes(Role::Elder, &ru, None).unwrap(), [0, 3, 4, 5]);
/// assert_eq!(exchange_sizes(Role::Dealer, &ru, Some(3)).unwrap(), [0, 3]); // elder took 5
/// assert_eq!(exchange_sizes(Role::Elder, &Rules::rubicon(), None).unwrap(), [1, 2, 3, 4, 5]);
/// assert!(exchange_sizes(Role::Dealer, &ru, Some(2)).is_err());
/// ```
pub fn exchange_sizes(role: Role, rules: &Rules, max_discard: Option<u8>) -> Result<Vec<u8>> {
    rules.validate()?;
    let avail = available(role, rules, max_discard)?;
    let limits = match role {
        Role::Elder => rules.elder_exchange,
        Role::Dealer => rules.dealer_exchange,
    };
    let sizes: Vec<u8> = (0..=avail).filter(|&n| limits.allows(n, avail)).collect();
    if !sizes.iter().any(|&n| n > 0) {
        return Err(Error::InvalidValue(format!(
            "{} cannot exchange any card with {avail} talon cards under these rules",
            if role == Role::Elder { "elder" } else { "the dealer" }
        )));
    }
    Ok(sizes)
}

/// Every `k`-subset of the single-bit masks `cards`, as masks, in lexicographic order of positions.
fn subsets(cards: &[u32], k: usize) -> Vec<u32> {
    let n = cards.len();
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.iter().fold(0u32, |m, &i| m | cards[i]));
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The single-bit masks of a mask's cards, ascending.
fn bits(mask: u32) -> Vec<u32> {
    (0..32).filter(|b| mask >> b & 1 == 1).map(|b| 1u32 << b).collect()
}

/// Every discard `role` may make from the 12-card `hand` ([`exchange_sizes`]), in the canonical
/// order: by size, then lexicographically by card ids (the empty discard first when declining is
/// allowed). [`monte_carlo_exchange`] returns its rows in this order.
///
/// ```
/// use cribpiquet::piquet::{legal_discards, Role, Rules};
/// let hand = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let d = legal_discards(hand, Role::Dealer, &Rules::russian(), Some(3)).unwrap();
/// assert_eq!(d.len(), 1 + 220);
/// assert_eq!((d[0].len(), d[1].to_string()), (0, "7C 8C AC".to_string()));
/// ```
pub fn legal_discards(hand: Hand, role: Role, rules: &Rules, max_discard: Option<u8>) -> Result<Vec<Hand>> {
    check_twelve(hand, "hand")?;
    let sizes = exchange_sizes(role, rules, max_discard)?;
    let cards = bits(hand.mask());
    Ok(sizes.iter().flat_map(|&k| subsets(&cards, k as usize)).map(Hand::from_mask).collect())
}

// ----------------------------------------------------------------------------- the exact part

/// The best set's size from a [`Summary::set_key`]: 0 none, 3 a trio (keys 1..=8), 4 a fourteen.
#[inline(always)]
fn set_size(set_key: u8) -> usize {
    match set_key {
        0 => 0,
        1..=8 => 3,
        _ => 4,
    }
}

/// The total a hand holds (point + sequences + sets), carte blanche aside.
#[inline(always)]
fn held(s: &Summary) -> u32 {
    (s.point_key >> 7) as u32 + s.seq_value as u32 + s.set_value as u32
}

/// Integer tallies of one discard over its draws.
#[derive(Default)]
struct Tally {
    // 16 slots, indexed by 4-bit fields (only 0..=8 occur).
    point: [u64; 16],
    sequence: [u64; 16],
    set: [u64; 5],
    seq_sum: u64,
    set_sum: u64,
    thirty: u64,
    n: u64,
}

fn tally(kept: u32, draws: &[u32], lanes: &[u64; 256], carte_blanche: u32) -> Tally {
    let mut t = Tally::default();
    // Totals of 30 or more: the threshold less carte blanche.
    let need = (PIQUE_THRESHOLD as u32).saturating_sub(carte_blanche);
    for &d in draws {
        let s = Summary::of(kept | d, lanes);
        t.point[(s.point_key >> 7) as usize & 15] += 1;
        t.sequence[(s.seq_key >> 3) as usize & 15] += 1;
        t.set[set_size(s.set_key)] += 1;
        t.seq_sum += s.seq_value as u64;
        t.set_sum += s.set_value as u64;
        t.thirty += (held(&s) >= need) as u64;
    }
    t.n = draws.len() as u64;
    t
}

fn row_of(discard: Hand, t: &Tally, carte_blanche: u16) -> ExchangeRow {
    let n = t.n as f64;
    let p = |c: u64| c as f64 / n;
    let point_sum: u64 = t.point.iter().enumerate().map(|(len, &c)| len as u64 * c).sum();
    let (ep, es, et) = (p(point_sum), p(t.seq_sum), p(t.set_sum));
    ExchangeRow {
        discard,
        expected_point: ep,
        expected_sequence: es,
        expected_sets: et,
        carte_blanche,
        // From the integer sum, so that equal totals compare equal whatever the parts.
        expected_total: (point_sum + t.seq_sum + t.set_sum) as f64 / n + carte_blanche as f64,
        point_length: std::array::from_fn(|n| p(t.point[n])),
        sequence_length: std::array::from_fn(|n| p(t.sequence[n])),
        set_size: t.set.map(p),
        total_30: p(t.thirty),
        draws: t.n,
    }
}

/// Carte blanche of a dealt hand: 10 without a king, queen or jack (rules §3.1).
fn carte_blanche_of(hand: Hand, lanes: &[u64; 256]) -> u16 {
    if Summary::of(hand.mask(), lanes).carte_blanche {
        CARTE_BLANCHE_POINTS
    } else {
        0
    }
}

/// Every legal exchange of the 12-card dealt `hand` for `role`, exactly over every draw from the
/// 20 unseen cards, sorted best [`expected_total`](ExchangeRow::expected_total) first (ties: fewer
/// cards discarded first, then the canonical order of [`legal_discards`]).
///
/// `max_discard` is the number of talon cards available (`None`: the most the rules can leave the
/// role; the engine passes what is left), see [`exchange_sizes`]. Every draw of `k` cards is
/// equally likely (the module's *decision*). Discards are evaluated in parallel; a russian elder
/// (1,508 discards, 14.9 M hands) takes a small fraction of a second.
///
/// ```
/// use cribpiquet::piquet::{exact_exchange, Role, Rules};
/// // The dealer with 3 cards left holds a septième major and fourteen aces.
/// let hand = "AH KH QH JH TH 9H 8H AC AD AS 7C 7D".parse().unwrap();
/// let rows = exact_exchange(hand, Role::Dealer, &Rules::russian(), Some(3)).unwrap();
/// let keep = rows.iter().find(|r| r.discard.is_empty()).unwrap();
/// assert_eq!(keep.expected_total, 7.0 + 17.0 + 14.0);
/// assert_eq!(keep.point_length[7], 1.0);
/// ```
pub fn exact_exchange(hand: Hand, role: Role, rules: &Rules, max_discard: Option<u8>) -> Result<Vec<ExchangeRow>> {
    let discards = legal_discards(hand, role, rules, max_discard)?;
    let compiled = Compiled::new(rules);
    let lanes: &[u64; 256] = &compiled.lanes;
    let cb = carte_blanche_of(hand, lanes);
    let unseen = bits(!hand.mask());
    let sizes = exchange_sizes(role, rules, max_discard)?;
    let mut draws: Vec<Vec<u32>> = vec![Vec::new(); 9];
    for &k in &sizes {
        draws[k as usize] = subsets(&unseen, k as usize);
    }
    let mut rows: Vec<ExchangeRow> = discards
        .par_iter()
        .with_min_len(4)
        .map(|&x| {
            let t = tally(hand.mask() & !x.mask(), &draws[x.len()], lanes, cb as u32);
            row_of(x, &t, cb)
        })
        .collect();
    // Stable: ties keep the canonical order.
    rows.sort_by(|a, b| b.expected_total.total_cmp(&a.expected_total).then(a.discard.len().cmp(&b.discard.len())));
    Ok(rows)
}

// ------------------------------------------------------------------- the fast expected totals

/// One discard with its exact expected total (see [`exchange_totals`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExchangeValue {
    /// The cards discarded (empty: the player declines to exchange).
    pub discard: Hand,
    /// E[point + sequences + sets + carte blanche] over every draw: bit for bit
    /// [`ExchangeRow::expected_total`].
    pub expected_total: f64,
}

/// `C(n, k)` for small `n` (0 when `k > n`).
const fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    let mut i = 0;
    while i < k {
        r = r * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    r
}

/// `BINOMIAL[n][k]` for `n, k <= 20`.
static BINOMIAL: [[u64; 21]; 21] = {
    let mut t = [[0u64; 21]; 21];
    let mut n = 0;
    while n <= 20 {
        let mut k = 0;
        while k <= 20 {
            t[n][k] = binomial(n, k);
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` from the table (`n, k <= 20`).
#[inline(always)]
fn choose(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The exact sums behind [`exchange_totals`] for one 12-card hand: the expected total of a
/// discard is a sum over the draws of what the kept cards and the draw hold, and each part of
/// what a hand holds splits over the draw: the sequences suit by suit, the sets rank by rank,
/// the point by the number of cards drawn in each suit. So the sum over the `C(20, k)` draws is
/// a sum over a suit's own draws times the number of ways to draw the rest elsewhere — tables
/// built once a hand, shared by every discard.
struct DrawSums {
    /// Unseen cards per suit.
    unseen: [usize; 4],
    /// `seq[s][kept byte][j]`: Σ over the `j`-card draws from suit `s`'s unseen cards of the
    /// suit's sequence value with the kept cards of the suit (kept byte ⊆ the hand's suit).
    seq: [Vec<[u64; 9]>; 4],
    /// Unseen cards of each rank (10, J, Q, K, A: ranks 3..=7).
    rank_unseen: [usize; 8],
    /// `set_value[n]`: the value of a set of `n` cards of a counting rank (14, 3 or 0).
    set_value: [u64; 5],
}

impl DrawSums {
    fn new(hand: u32, lanes: &[u64; 256]) -> DrawSums {
        let unseen_mask = !hand;
        let unseen = std::array::from_fn(|s| ((unseen_mask >> (8 * s)) & SUIT_LANE).count_ones() as usize);
        let seq = std::array::from_fn(|s| {
            let u = (unseen_mask >> (8 * s)) & SUIT_LANE;
            let h = (hand >> (8 * s)) & SUIT_LANE;
            let mut table = vec![[0u64; 9]; 256];
            // Every kept byte ⊆ h and every draw byte ⊆ u.
            let mut kept = h;
            loop {
                let mut d = u;
                loop {
                    let v = Summary::of(kept | d, lanes).seq_value as u64;
                    table[kept as usize][d.count_ones() as usize] += v;
                    if d == 0 {
                        break;
                    }
                    d = (d - 1) & u;
                }
                if kept == 0 {
                    break;
                }
                kept = (kept - 1) & h;
            }
            table
        });
        let rank_unseen = std::array::from_fn(|r| (0..4).filter(|s| unseen_mask >> (8 * s + r) & 1 == 1).count());
        // A set's value from the scorer itself: n aces (a counting rank) in the first n suits.
        let set_value = std::array::from_fn(|n| {
            let mask = (0..n).fold(0u32, |m, s| m | 1 << (8 * s + 7));
            Summary::of(mask, lanes).set_value as u64
        });
        DrawSums { unseen, seq, rank_unseen, set_value }
    }

    /// Σ over every `k`-card draw from the 20 unseen cards of what `kept ∪ draw` holds (point +
    /// sequences + sets), and the number of draws.
    fn sum(&self, kept: u32, k: usize) -> (u64, u64) {
        let total: usize = self.unseen.iter().sum();
        let mut sum = 0u64;
        // Sequences: suit by suit.
        for s in 0..4 {
            let row = &self.seq[s][((kept >> (8 * s)) & SUIT_LANE) as usize];
            let others = total - self.unseen[s];
            for (j, &v) in row.iter().enumerate().take(k.min(self.unseen[s]) + 1) {
                if v != 0 {
                    sum += v * BINOMIAL[others][k - j];
                }
            }
        }
        // Sets: rank by rank (10 to the ace).
        for r in 3..8 {
            let have = (0..4).filter(|s| kept >> (8 * s + r) & 1 == 1).count();
            let u = self.rank_unseen[r];
            for j in 0..=u.min(k) {
                let v = self.set_value[have + j];
                if v != 0 {
                    sum += v * BINOMIAL[u][j] * BINOMIAL[total - u][k - j];
                }
            }
        }
        // The point: the longest suit, over the numbers drawn in each suit.
        let len: [usize; 4] = std::array::from_fn(|s| ((kept >> (8 * s)) & SUIT_LANE).count_ones() as usize);
        let u = self.unseen;
        for c0 in 0..=u[0].min(k) {
            let w0 = choose(u[0], c0);
            for c1 in 0..=u[1].min(k - c0) {
                let w1 = w0 * choose(u[1], c1);
                for c2 in 0..=u[2].min(k - c0 - c1) {
                    let c3 = k - c0 - c1 - c2;
                    if c3 > u[3] {
                        continue;
                    }
                    let w = w1 * choose(u[2], c2) * choose(u[3], c3);
                    let longest = (len[0] + c0).max(len[1] + c1).max((len[2] + c2).max(len[3] + c3));
                    sum += w * longest as u64;
                }
            }
        }
        (sum, BINOMIAL[total][k])
    }
}

/// The expected totals of [`exact_exchange`] alone — every legal discard with its
/// [`expected_total`](ExchangeRow::expected_total), equal bit for bit and in the same order —
/// computed from per-suit and per-rank sums over the draws instead of every draw (a few
/// microseconds a discard): what Greedy's exchange needs.
///
/// ```
/// use cribpiquet::piquet::{exact_exchange, exchange_totals, Role, Rules};
/// let hand = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let fast = exchange_totals(hand, Role::Dealer, &Rules::russian(), Some(3)).unwrap();
/// let rows = exact_exchange(hand, Role::Dealer, &Rules::russian(), Some(3)).unwrap();
/// assert_eq!(fast.len(), rows.len());
/// assert!(fast.iter().zip(&rows).all(|(f, r)| f.discard == r.discard && f.expected_total == r.expected_total));
/// ```
pub fn exchange_totals(hand: Hand, role: Role, rules: &Rules, max_discard: Option<u8>) -> Result<Vec<ExchangeValue>> {
    let discards = legal_discards(hand, role, rules, max_discard)?;
    let compiled = Compiled::new(rules);
    let lanes: &[u64; 256] = &compiled.lanes;
    let cb = carte_blanche_of(hand, lanes);
    let sums = DrawSums::new(hand.mask(), lanes);
    let mut rows: Vec<ExchangeValue> = discards
        .iter()
        .map(|&x| {
            let (sum, n) = sums.sum(hand.mask() & !x.mask(), x.len());
            // The same expression as `row_of`, so the same f64.
            ExchangeValue { discard: x, expected_total: sum as f64 / n as f64 + cb as f64 }
        })
        .collect();
    rows.sort_by(|a, b| b.expected_total.total_cmp(&a.expected_total).then(a.discard.len().cmp(&b.discard.len())));
    Ok(rows)
}

// ------------------------------------------------------------------------ the Monte Carlo part

/// The generator of sample `i` of a run seeded by `seed`.
fn sample_rng(seed: u64, i: u64) -> Rng {
    Rng::new(seed ^ i.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// `n` distinct random cards of `pool` (single-bit masks), as one mask (partial Fisher–Yates on a
/// scratch copy).
fn random_draw(pool: &mut [u32], n: usize, rng: &mut Rng) -> u32 {
    rng.shuffle_prefix(pool, n);
    pool[..n].iter().fold(0, |m, &card| m | card)
}

/// The opponent's candidate discards, precomputed as patterns over the positions of its 12 cards.
struct Candidates {
    /// Per candidate: its size and its 12-bit position pattern.
    patterns: Vec<(u8, u16)>,
    /// The index range of each size's candidates.
    ranges: Vec<(usize, usize)>,
}

impl Candidates {
    fn new(sizes: &[u8]) -> Candidates {
        let positions: Vec<u32> = (0..12).map(|i| 1u32 << i).collect();
        let (mut patterns, mut ranges) = (Vec::new(), Vec::new());
        for &k in sizes {
            let start = patterns.len();
            patterns.extend(subsets(&positions, k as usize).into_iter().map(|p| (k, p as u16)));
            ranges.push((start, patterns.len()));
        }
        Candidates { patterns, ranges }
    }
}

/// The mask of the cards of `hand` (12 single-bit masks) at the positions of `pattern`.
#[inline]
fn at_positions(hand: &[u32; 12], pattern: u16) -> u32 {
    let mut m = 0;
    let mut p = pattern as u32;
    while p != 0 {
        m |= hand[p.trailing_zeros() as usize];
        p &= p - 1;
    }
    m
}

/// The discards [`McOpponent::Best`] makes with one dealt `hand`, by successive halving: every
/// candidate is scored on [`SCREEN_DRAWS`] draws, the best [`SHORTLIST`] of those allowed on
/// [`SHORTLIST_DRAWS`] more, the best [`REFINE_CANDIDATES`] on [`REFINE_DRAWS`] more; each stage's
/// draws are common to every candidate of a size, and scores are cached across calls (the
/// allowed sizes differ with what the talon holds).
struct Chooser<'a> {
    cands: &'a Candidates,
    lanes: &'a [u64; 256],
    hand: u32,
    cards: [u32; 12],
    /// Per stage: the draws of each size, and each candidate's cached score (a sum over them).
    draws: [[Vec<u32>; 9]; 3],
    scores: [Vec<Option<u32>>; 3],
    /// The choices made, by allowed sizes.
    chosen: Vec<(u16, u32)>,
}

/// Candidates kept after each stage of [`Chooser`]: all, then [`SHORTLIST`], then
/// [`REFINE_CANDIDATES`].
const STAGE_DRAWS: [usize; 3] = [SCREEN_DRAWS, SHORTLIST_DRAWS, REFINE_DRAWS];

impl<'a> Chooser<'a> {
    fn new(cands: &'a Candidates, lanes: &'a [u64; 256], hand: u32, rng: &mut Rng) -> Chooser<'a> {
        let mut cards = [0u32; 12];
        for (slot, b) in cards.iter_mut().zip(bits(hand)) {
            *slot = b;
        }
        let mut pool = bits(!hand);
        let mut draws: [[Vec<u32>; 9]; 3] = Default::default();
        for (stage, n) in STAGE_DRAWS.iter().enumerate() {
            for &(start, _) in &cands.ranges {
                let k = cands.patterns[start].0 as usize;
                if k > 0 {
                    draws[stage][k] = (0..*n).map(|_| random_draw(&mut pool, k, rng)).collect();
                }
            }
        }
        let n = cands.patterns.len();
        let mut chooser = Chooser {
            cands,
            lanes,
            hand,
            cards,
            draws,
            scores: [vec![None; n], vec![None; n], vec![None; n]],
            chosen: Vec::new(),
        };
        for c in 0..n {
            chooser.score(0, c);
        }
        chooser
    }

    /// Candidate `c`'s score at `stage` (the sum over the stage's draws; declining exactly, scaled).
    fn score(&mut self, stage: usize, c: usize) -> u32 {
        if let Some(v) = self.scores[stage][c] {
            return v;
        }
        let (k, p) = self.cands.patterns[c];
        let kept = self.hand & !at_positions(&self.cards, p);
        let v = if k == 0 {
            held(&Summary::of(kept, self.lanes)) * STAGE_DRAWS[stage] as u32
        } else {
            self.draws[stage][k as usize].iter().map(|&d| held(&Summary::of(kept | d, self.lanes))).sum()
        };
        self.scores[stage][c] = Some(v);
        v
    }

    /// The `keep` best of `from` by their `stage` score (ties: the earlier candidate).
    fn best_of(&mut self, stage: usize, from: &[usize], keep: usize) -> Vec<usize> {
        let mut scored: Vec<(u32, usize)> = from.iter().map(|&c| (self.score(stage, c), c)).collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(keep).map(|(_, c)| c).collect()
    }

    /// The best discard among the candidates whose size `allowed` (bit per size); 0 if none.
    fn choose(&mut self, allowed: u16) -> u32 {
        if let Some(&(_, y)) = self.chosen.iter().find(|c| c.0 == allowed) {
            return y;
        }
        let all: Vec<usize> =
            (0..self.cands.patterns.len()).filter(|&c| allowed >> self.cands.patterns[c].0 & 1 == 1).collect();
        let short = self.best_of(0, &all, SHORTLIST);
        let fin = self.best_of(1, &short, REFINE_CANDIDATES);
        let best = self.best_of(2, &fin, 1);
        let y = best.first().map_or(0, |&c| at_positions(&self.cards, self.cands.patterns[c].1));
        self.chosen.push((allowed, y));
        y
    }
}

/// Bit per size of `sizes`.
fn size_bits(sizes: impl IntoIterator<Item = u8>) -> u16 {
    sizes.into_iter().fold(0u16, |m, k| m | 1 << k)
}

/// The play points elder is sure of from the first lead (a lower bound): he leads his sure
/// winners from the top of each suit — in a suit, the cards above the dealer's highest, or all of
/// them once the dealer is out of it — then leads once more. russian: 2 per trick led and won
/// (lead and trick) + 1; rubicon: 1 per lead.
fn sure_play_points(elder: u32, dealer: u32, scoring: TrickScoring) -> u32 {
    let mut tricks = 0u32;
    for s in 0..4 {
        let e = (elder >> (8 * s)) & SUIT_LANE;
        let d = (dealer >> (8 * s)) & SUIT_LANE;
        let all = e.count_ones();
        tricks += if d == 0 {
            all
        } else {
            let above = e & !((1u32 << (32 - d.leading_zeros())) - 1);
            let a = above.count_ones();
            if d.count_ones() <= a {
                all
            } else {
                a
            }
        };
    }
    let tricks = tricks.min(12);
    let per_trick = match scoring {
        TrickScoring::EveryLeadAndTrick => 2,
        TrickScoring::LeadOrWinOpponentsLead => 1,
    };
    per_trick * tricks + (tricks < 12) as u32
}

/// One side of a comparison: its summary (carte blanche from the dealt hand) and final mask.
#[derive(Clone, Copy)]
struct Side {
    s: Summary,
    mask: u32,
}

/// Record one comparison of `me` against `opp` into `c`.
#[inline]
fn record(c: &mut ExchangeMcCounts, me: &Side, opp: &Side, role: Role, rules: &Rules, reckoning: bool) {
    let (e, d) = if role == Role::Elder { (me, opp) } else { (opp, me) };
    let win = |a: u32, b: u32| -> [u16; 2] {
        // [elder wins, dealer wins]
        [(a > b) as u16, (b > a) as u16]
    };
    let pw = win(e.s.point_key as u32, d.s.point_key as u32);
    let sw = win(e.s.seq_key as u32, d.s.seq_key as u32);
    let tw = win(e.s.set_key as u32, d.s.set_key as u32);
    let cats = [
        [CARTE_BLANCHE_POINTS * e.s.carte_blanche as u16, CARTE_BLANCHE_POINTS * d.s.carte_blanche as u16],
        [pw[0] * (e.s.point_key >> 7), pw[1] * (d.s.point_key >> 7)],
        [sw[0] * e.s.seq_value, sw[1] * d.s.seq_value],
        [tw[0] * e.s.set_value, tw[1] * d.s.set_value],
    ];
    let rep = repique_of(&cats, reckoning);
    let mut totals = [0u32; 2];
    for cat in &cats {
        totals[0] += cat[0] as u32;
        totals[1] += cat[1] as u32;
    }
    let decl = totals;
    if let Some(p) = rep {
        totals[p.index()] += super::rules::REPIQUE_BONUS as u32;
    }
    // A sure pique: no repique, the dealer nil in the declarations, elder's declarations and sure
    // play points reach 30.
    let pique = rep.is_none()
        && decl[1] == 0
        && decl[0] + sure_play_points(e.mask, d.mask, rules.trick_scoring) >= PIQUE_THRESHOLD as u32;
    let (mi, oi) = (role.index(), role.other().index());
    c.samples += 1;
    c.point[0] += pw[mi] as u64;
    c.point[1] += pw[oi] as u64;
    c.sequences[0] += sw[mi] as u64;
    c.sequences[1] += sw[oi] as u64;
    c.sets[0] += tw[mi] as u64;
    c.sets[1] += tw[oi] as u64;
    c.repique[0] += (rep == Some(role)) as u64;
    c.repique[1] += (rep == Some(role.other())) as u64;
    // Only elder can pique.
    c.pique[(role != Role::Elder) as usize] += pique as u64;
    let mine = totals[mi] as u64;
    c.points[0] += mine;
    c.points[1] += mine * mine;
    let net = totals[mi] as i64 - totals[oi] as i64;
    c.net[0] += net;
    c.net[1] += net * net;
    let total = held(&me.s) as u64 + CARTE_BLANCHE_POINTS as u64 * me.s.carte_blanche as u64;
    c.total[0] += total;
    c.total[1] += total * total;
}

/// Samples per parallel task.
const MC_BLOCK: u64 = 64;

/// Which samples of which run [`monte_carlo_exchange`] counts: `first .. first + count` of the
/// run seeded by `seed` (sample `i` is seeded by `(seed, i)`).
///
/// ```
/// let all = cribpiquet::piquet::McSamples { seed: 7, first: 0, count: 40 };
/// assert_eq!(all.count, 40);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct McSamples {
    /// The run's seed.
    pub seed: u64,
    /// The first sample counted.
    pub first: u64,
    /// How many samples are counted.
    pub count: u64,
}

/// Monte Carlo counts for every legal discard of `hand` (in the canonical order of
/// [`legal_discards`]) over the samples `first .. first + count` of the run seeded by `seed`
/// ([`McSamples`]).
///
/// Sample `i` (seeded by `(seed, i)`, so the counts of disjoint ranges [`add`](ExchangeMcCounts::add)
/// up to those of the whole run, whatever the threads) deals the opponent a random 12 of the 20
/// unseen cards and orders the other 8 as the talon (elder's 5 on top). Then, in the rules'
/// order: elder exchanges (the top of the talon), then the dealer (what elder left, top first);
/// the opponent exchanges as [`McOpponent`] says, knowing what is left for it. Every discard of
/// the analysed hand is played against the same samples (common random numbers), and the
/// declarations are compared as [`score_declarations`](super::score_declarations) does, carte
/// blanche judged on the dealt hands.
///
/// * As the dealer with `max_discard = None`, elder's exchange is the opponent's free choice and a
///   discard of `k` cards counts only the samples in which elder left at least `k` (its
///   [`samples`](ExchangeMcCounts::samples)); with `Some(m)`, elder is taken to have exchanged
///   exactly `8 − m` (an error if the rules do not allow that).
/// * **Pique** is counted when elder is sure of it before the play: the dealer scores nothing in
///   the declarations, nobody repiques, and elder's declarations plus the play points of leading
///   his sure winners from the top (see the docs) reach 30 — a lower bound on the pique, since
///   the play is not simulated.
///
/// ```
/// use cribpiquet::piquet::{monte_carlo_exchange, McOpponent, McSamples, Role, Rules};
/// let hand = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let r = Rules::russian();
/// let run = |first, count| {
///     let samples = McSamples { seed: 7, first, count };
///     monte_carlo_exchange(hand, Role::Elder, &r, None, McOpponent::Best, samples).unwrap()
/// };
/// let (all, mut parts, rest) = (run(0, 40), run(0, 25), run(25, 15));
/// parts.iter_mut().zip(&rest).for_each(|(a, b)| a.add(b));
/// assert!(parts == all); // any split of the samples adds up to the same counts
/// assert_eq!(all[0].samples, 40);
/// ```
pub fn monte_carlo_exchange(
    hand: Hand,
    role: Role,
    rules: &Rules,
    max_discard: Option<u8>,
    opponent: McOpponent,
    samples: McSamples,
) -> Result<Vec<ExchangeMcCounts>> {
    let McSamples { seed, first: first_sample, count: samples } = samples;
    let discards = legal_discards(hand, role, rules, max_discard)?;
    let my_sizes = exchange_sizes(role, rules, max_discard)?;
    let compiled = Compiled::new(rules);
    let lanes: &[u64; 256] = &compiled.lanes;
    let reckoning = compiled.reckoning;

    // The opponent's legal sizes: per number of my cards taken (elder me) or its own (dealer me).
    let elder_sizes = |avail: u8| (0..=avail).filter(move |&n| rules.elder_exchange.allows(n, avail));
    let dealer_sizes = |avail: u8| (0..=avail).filter(move |&n| rules.dealer_exchange.allows(n, avail));
    // opp_allowed[k]: elder me taking k → the dealer's sizes with 8 − k left.
    let mut opp_allowed = [0u16; 9];
    let opp_sizes: u16 = match role {
        Role::Elder => {
            for &k in &my_sizes {
                opp_allowed[k as usize] = size_bits(dealer_sizes(8 - k));
            }
            my_sizes.iter().fold(0, |m, &k| m | opp_allowed[k as usize])
        }
        Role::Dealer => match max_discard {
            None => size_bits(elder_sizes(5)),
            Some(m) => {
                let e = 8 - m;
                if e > 5 || !rules.elder_exchange.allows(e, 5) {
                    return Err(Error::InvalidValue(format!(
                        "elder cannot leave {m} talon cards under these rules (he would have to exchange {e})"
                    )));
                }
                1 << e
            }
        },
    };
    let opp_sizes = match opponent {
        McOpponent::Best => opp_sizes,
        McOpponent::Keep => {
            let may_decline = match role {
                Role::Elder => my_sizes.iter().all(|&k| opp_allowed[k as usize] & 1 == 1),
                Role::Dealer => opp_sizes & 1 == 1,
            };
            if !may_decline {
                return Err(Error::InvalidValue(format!(
                    "the opponent ({}) may not decline to exchange under these rules, so it cannot keep its hand",
                    role.other()
                )));
            }
            opp_allowed = [1; 9];
            1
        }
    };
    let size_list: Vec<u8> = (0..=8).filter(|&k| opp_sizes >> k & 1 == 1).collect();
    let cands = Candidates::new(&size_list);

    let unseen = bits(!hand.mask());
    let my_cb = Summary::of(hand.mask(), lanes).carte_blanche;
    let blank = |x: &Hand| ExchangeMcCounts { discard: *x, ..Default::default() };
    let blocks = samples.div_ceil(MC_BLOCK);
    let counts = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let mut counts: Vec<ExchangeMcCounts> = discards.iter().map(blank).collect();
            let start = first_sample + b * MC_BLOCK;
            let end = (start + MC_BLOCK).min(first_sample + samples);
            let mut pool = unseen.clone();
            for i in start..end {
                let mut rng = sample_rng(seed, i);
                // From the same order every sample, so that sample i depends on (seed, i) only.
                pool.copy_from_slice(&unseen);
                rng.shuffle(&mut pool);
                let opp_dealt = pool[..12].iter().fold(0u32, |m, &c| m | c);
                let talon: &[u32] = &pool[12..];
                let take = |from: usize, n: usize| talon[from..from + n].iter().fold(0u32, |m, &c| m | c);
                let mut chooser = Chooser::new(&cands, lanes, opp_dealt, &mut rng);
                let opp_cb = Summary::of(opp_dealt, lanes).carte_blanche;
                let side = |mask: u32, cb: bool| {
                    let mut s = Summary::of(mask, lanes);
                    s.carte_blanche = cb;
                    Side { s, mask }
                };
                match role {
                    Role::Elder => {
                        // The dealer's final hand for each number k I take.
                        let mut opp_final: [Option<Side>; 9] = [None; 9];
                        for &k in &my_sizes {
                            let y = chooser.choose(opp_allowed[k as usize]);
                            let j = y.count_ones() as usize;
                            let fin = (opp_dealt & !y) | take(k as usize, j);
                            opp_final[k as usize] = Some(side(fin, opp_cb));
                        }
                        for (x, c) in discards.iter().zip(counts.iter_mut()) {
                            let k = x.len();
                            let me = side((hand.mask() & !x.mask()) | take(0, k), my_cb);
                            let opp = opp_final[k].as_ref().expect("a size of mine");
                            record(c, &me, opp, role, rules, reckoning);
                        }
                    }
                    Role::Dealer => {
                        let y = chooser.choose(opp_sizes);
                        let e = y.count_ones() as usize;
                        let opp = side((opp_dealt & !y) | take(0, e), opp_cb);
                        let left = 8 - e as u8;
                        let feasible = size_bits(dealer_sizes(left));
                        for (x, c) in discards.iter().zip(counts.iter_mut()) {
                            let k = x.len();
                            if feasible >> k & 1 == 0 {
                                continue;
                            }
                            let me = side((hand.mask() & !x.mask()) | take(e, k), my_cb);
                            record(c, &me, &opp, role, rules, reckoning);
                        }
                    }
                }
            }
            counts
        })
        .reduce(
            || discards.iter().map(blank).collect(),
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| x.add(y));
                a
            },
        );
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piquet::declarations_with_rules;

    fn hand(text: &str) -> Hand {
        text.parse().unwrap()
    }

    /// The exact row of one discard counted the slow way: every draw through the explained
    /// declarations.
    fn naive_row(dealt: Hand, discard: Hand, rules: &Rules) -> (f64, f64, f64, f64, [f64; 9]) {
        let unseen = bits(!dealt.mask());
        let draws = subsets(&unseen, discard.len());
        let (mut p, mut s, mut t, mut total) = (0u64, 0u64, 0u64, 0u64);
        let mut lengths = [0u64; 9];
        for &d in &draws {
            let h = Hand::from_mask((dealt.mask() & !discard.mask()) | d);
            let decl = declarations_with_rules(h, Some(dealt), rules).unwrap();
            p += decl.point.length as u64;
            s += decl.sequences_value() as u64;
            t += decl.sets_value() as u64;
            total += decl.point.length as u64
                + decl.sequences_value() as u64
                + decl.sets_value() as u64
                + 10 * decl.carte_blanche as u64;
            lengths[decl.point.length as usize] += 1;
        }
        let n = draws.len() as f64;
        (p as f64 / n, s as f64 / n, t as f64 / n, total as f64 / n, lengths.map(|c| c as f64 / n))
    }

    #[test]
    fn exact_rows_match_the_explained_declarations() {
        // Small talons keep the debug build quick; the Python tests cover the full ones.
        let mut rng = Rng::new(11);
        let cases = [
            (Rules::russian(), Role::Dealer, Some(3)),
            (Rules::rubicon(), Role::Elder, Some(2)),
            (Rules::rubicon(), Role::Dealer, Some(3)),
        ];
        for (rules, role, max_discard) in &cases {
            let (role, max_discard) = (*role, *max_discard);
            let mut ids: Vec<u32> = (0..32).collect();
            rng.shuffle(&mut ids);
            let dealt = Hand::from_mask(ids[..12].iter().fold(0, |m, &i| m | 1 << i));
            let rows = exact_exchange(dealt, role, rules, max_discard).unwrap();
            assert_eq!(rows.len(), legal_discards(dealt, role, rules, max_discard).unwrap().len());
            for w in rows.windows(2) {
                assert!(w[0].expected_total >= w[1].expected_total);
            }
            // A few rows of each size, checked the slow way.
            for row in rows.iter().step_by(13) {
                let (p, s, t, total, lengths) = naive_row(dealt, row.discard, rules);
                assert!((row.expected_point - p).abs() < 1e-12, "{row:?}");
                assert!((row.expected_sequence - s).abs() < 1e-12);
                assert!((row.expected_sets - t).abs() < 1e-12);
                assert!((row.expected_total - total).abs() < 1e-12);
                assert_eq!(row.point_length, lengths);
                assert!((row.sequence_length.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!((row.set_size.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_hand_checked_discard() {
        // Elder: A K Q J 10 of hearts, A K Q of spades and four small clubs and diamonds.
        let dealt = hand("AH KH QH JH TH AS KS QS 7C 8C 7D 8D");
        let rows = exact_exchange(dealt, Role::Elder, &Rules::russian(), Some(3)).unwrap();
        assert_eq!(rows.len(), 1 + 220);
        let keep = rows.iter().find(|r| r.discard.is_empty()).unwrap();
        // Declining: point of five (51 beats the spades' 31) 5, quint major 15, tierce major 13.
        assert_eq!(keep.expected_total, 5.0 + 15.0 + 13.0);
        assert_eq!((keep.point_length[5], keep.sequence_length[5], keep.set_size[0]), (1.0, 1.0, 1.0));
        assert_eq!((keep.total_30, keep.draws), (1.0, 1));
        // Throwing 7C 8C 7D keeps both sequences (28) whatever the 3 cards drawn from the 20
        // unseen. The point has five cards unless a heart is drawn (3 unseen: 9H 8H 7H) or all
        // three drawn are spades (5 unseen: J 10 9 8 7): P = (C(17,3) − C(5,3)) / C(20,3).
        let r = rows.iter().find(|r| r.discard == hand("7C 8C 7D")).unwrap();
        assert_eq!(r.draws, 1140);
        assert!((r.point_length[5] - 670.0 / 1140.0).abs() < 1e-12);
        assert!(r.expected_sequence >= 28.0);
        assert_eq!(r.carte_blanche, 0);
    }

    #[test]
    fn sizes_follow_the_talon() {
        let ru = Rules::russian();
        assert_eq!(exchange_sizes(Role::Dealer, &ru, None).unwrap(), [0, 3, 4, 5]);
        assert_eq!(exchange_sizes(Role::Dealer, &ru, Some(4)).unwrap(), [0, 3, 4]);
        assert_eq!(exchange_sizes(Role::Dealer, &Rules::rubicon(), None).unwrap(), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(exchange_sizes(Role::Elder, &ru, Some(6)).unwrap_err().to_string().contains("at most 5"));
        let e = exchange_sizes(Role::Dealer, &ru, Some(2)).unwrap_err().to_string();
        assert_eq!(e, "the dealer cannot exchange any card with 2 talon cards under these rules");
        assert!(matches!(
            exact_exchange(hand("AH KH"), Role::Elder, &ru, None),
            Err(Error::WrongCardCount { got: 2, .. })
        ));
    }

    #[test]
    fn sure_play_points_count_the_top_cards() {
        // Elder: A K of hearts, the dealer Q 7 of hearts: 2 sure tricks; the spades: elder A,
        // dealer void → all elder's spades (A 7) win: 2 more.
        let e = hand("AH KH AS 7S").mask();
        let d = hand("QH 7H 8C").mask();
        assert_eq!(sure_play_points(e, d, TrickScoring::EveryLeadAndTrick), 2 * 4 + 1);
        assert_eq!(sure_play_points(e, d, TrickScoring::LeadOrWinOpponentsLead), 4 + 1);
        // The dealer has one heart below elder's A K and nothing else there: all of elder's hearts.
        let e = hand("AH KH 8H").mask();
        let d = hand("QH").mask();
        assert_eq!(sure_play_points(e, d, TrickScoring::LeadOrWinOpponentsLead), 3 + 1);
        // Below the dealer's top card, nothing is sure.
        assert_eq!(sure_play_points(hand("KH").mask(), hand("AH 7H").mask(), TrickScoring::EveryLeadAndTrick), 1);
    }

    #[test]
    fn monte_carlo_total_agrees_with_the_exact_expectation() {
        let dealt = hand("AH KH QH 9H 7H AC 9C 8C KD 7D 8S 9S");
        let r = Rules::russian();
        let rows = exact_exchange(dealt, Role::Elder, &r, Some(3)).unwrap();
        let mc = monte_carlo_exchange(
            dealt,
            Role::Elder,
            &r,
            Some(3),
            McOpponent::Keep,
            McSamples { seed: 3, first: 0, count: 2000 },
        )
        .unwrap();
        assert_eq!(mc.len(), rows.len());
        for c in mc.iter().step_by(11) {
            let row = rows.iter().find(|x| x.discard == c.discard).unwrap();
            let n = c.samples as f64;
            let mean = c.total[0] as f64 / n;
            let var = (c.total[1] as f64 / n - mean * mean).max(0.0);
            let se = (var / n).sqrt();
            assert!((mean - row.expected_total).abs() <= 4.0 * se + 1e-9, "{mean} vs {} (se {se})", row.expected_total);
            assert!(c.point[0] + c.point[1] <= c.samples && c.samples == 2000);
        }
    }

    #[test]
    fn the_dealer_counts_only_the_samples_his_discard_is_possible_in() {
        let dealt = hand("AH KH QH 9H 7H AC 9C 8C KD 7D 8S 9S");
        let r = Rules::russian();
        let mc = monte_carlo_exchange(
            dealt,
            Role::Dealer,
            &r,
            None,
            McOpponent::Best,
            McSamples { seed: 1, first: 0, count: 200 },
        )
        .unwrap();
        let of = |k: usize| mc.iter().find(|c| c.discard.len() == k).unwrap().samples;
        assert_eq!(of(0), 200);
        assert_eq!(of(3), 200);
        assert!(of(5) <= of(4) && of(4) <= 200);
        // Elder took exactly 5 when 3 are left: only declining and 3-card discards.
        let mc = monte_carlo_exchange(
            dealt,
            Role::Dealer,
            &r,
            Some(3),
            McOpponent::Best,
            McSamples { seed: 1, first: 0, count: 50 },
        )
        .unwrap();
        assert!(mc.iter().all(|c| c.samples == 50 && c.discard.len() != 4));
        // rubicon elder must exchange: he cannot keep his hand.
        let e = monte_carlo_exchange(
            dealt,
            Role::Dealer,
            &Rules::rubicon(),
            None,
            McOpponent::Keep,
            McSamples { seed: 1, first: 0, count: 5 },
        );
        assert!(e.unwrap_err().to_string().contains("may not decline"));
        let e = monte_carlo_exchange(
            dealt,
            Role::Dealer,
            &Rules::rubicon(),
            Some(2),
            McOpponent::Best,
            McSamples { seed: 1, first: 0, count: 5 },
        );
        assert!(e.is_err());
    }

    #[test]
    fn the_best_opponent_chooses_nearly_the_exact_best() {
        // The approximate choice against the exact ranking, for random hands: its exact expected
        // total is within a fraction of a point of the best one on average. (Elder's full choice,
        // with 5-card discards, on 10 random hands: mean 0.09, worst 0.6.)
        let rules = Rules::russian();
        let lanes = Compiled::new(&rules).lanes;
        let cands = Candidates::new(&[0, 3, 4]);
        let (mut rng, mut deal) = (Rng::new(5), Rng::new(7));
        let (mut regret, mut worst, n) = (0.0f64, 0.0f64, 5);
        for _ in 0..n {
            let mut ids: Vec<u32> = (0..32).collect();
            deal.shuffle(&mut ids);
            let dealt = ids[..12].iter().fold(0u32, |m, &i| m | 1 << i);
            // The dealer with 4 cards left (elder took 4): none, 3 or 4.
            let rows = exact_exchange(Hand::from_mask(dealt), Role::Dealer, &rules, Some(4)).unwrap();
            let y = Chooser::new(&cands, &lanes, dealt, &mut rng).choose(size_bits([0, 3, 4]));
            let chosen = rows.iter().find(|r| r.discard.mask() == y).unwrap();
            let r = rows[0].expected_total - chosen.expected_total;
            regret += r / n as f64;
            worst = worst.max(r);
        }
        println!("mean regret {regret:.3}, worst {worst:.3}");
        assert!(regret < 0.5 && worst < 2.0, "mean regret {regret}, worst {worst}");
    }

    /// The fast expected totals against the reference, `exact_exchange` (every draw
    /// enumerated): the same discards in the same order with bit-identical totals, on random
    /// hands of both rule sets, both roles and several talon sizes (the whole talons in an
    /// optimised build), carte blanche hands included.
    #[test]
    fn exchange_totals_equal_exact_exchange_bit_for_bit() {
        let mut rng = Rng::new(12);
        let mut cases = vec![
            (Rules::russian(), Role::Dealer, Some(3)),
            (Rules::russian(), Role::Elder, Some(3)),
            (Rules::rubicon(), Role::Elder, Some(2)),
            (Rules::rubicon(), Role::Dealer, Some(3)),
            (Rules::rubicon(), Role::Dealer, Some(1)),
        ];
        if !cfg!(debug_assertions) {
            cases.extend([
                (Rules::russian(), Role::Elder, None),
                (Rules::russian(), Role::Dealer, Some(5)),
                (Rules::rubicon(), Role::Elder, None),
                (Rules::rubicon(), Role::Dealer, Some(6)),
            ]);
        }
        let hands = if cfg!(debug_assertions) { 3 } else { 6 };
        for (rules, role, max_discard) in &cases {
            for h in 0..hands {
                let dealt = if h == 0 {
                    // Carte blanche: no court card.
                    "AH TH 9H 8H AC TC 9C 7C AD TD 9S 7S".parse().unwrap()
                } else {
                    let mut ids: Vec<u32> = (0..32).collect();
                    rng.shuffle(&mut ids);
                    Hand::from_mask(ids[..12].iter().fold(0, |m, &i| m | 1 << i))
                };
                let fast = exchange_totals(dealt, *role, rules, *max_discard).unwrap();
                let rows = exact_exchange(dealt, *role, rules, *max_discard).unwrap();
                assert_eq!(fast.len(), rows.len());
                for (f, r) in fast.iter().zip(&rows) {
                    assert_eq!(f.discard, r.discard);
                    assert_eq!(f.expected_total.to_bits(), r.expected_total.to_bits(), "{dealt} {:?}", r.discard);
                }
            }
        }
        // Bad input is refused as by exact_exchange.
        let hand: Hand = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
        assert!(exchange_totals(hand, Role::Elder, &Rules::russian(), Some(6)).is_err());
        assert!(exchange_totals(Hand::new(), Role::Elder, &Rules::russian(), None).is_err());
    }
}
