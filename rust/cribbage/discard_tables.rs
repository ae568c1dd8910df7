//! Equilibrium discard tables: the average crib for each thrown rank pair, for the dealer's throw
//! to his own crib and for pone's throw to the dealer's crib, by iterated best response.
//!
//! # The method
//!
//! A *throw kind* is a rank pair, suited or not ([`throw_kind`]). The state of the iteration is
//! two tables of values by kind, [`CribValues`]: `dealer[k]` is the expected crib when the dealer
//! throws a pair of kind `k` and pone throws by pone's strategy, `pone[k]` the expected crib when
//! pone throws kind `k` and the dealer throws by the dealer's strategy; and, per role, the share
//! of hands throwing each kind (`throws`), from which a role's *pair weights* follow: the weight
//! of one card pair of kind `k` is `throws[k] / pairs of kind k in the pack`.
//!
//! 1. **Start** (iteration 0): both opponents throw every pair of cards alike; the values are the
//!    crib given the two thrown cards only (every pair of the other 50 cards alike, every starter
//!    of the 48 left).
//! 2. **Best response** ([`DiscardTables::pass`]): every hand that can be dealt (every
//!    `dealt`-card hand, taken once per suit-isomorphism class with its multiplicity) chooses, as
//!    dealer, the discard maximizing `E[hand] + dealer[kind]` and, as pone, the one maximizing
//!    `E[hand] − pone[kind]` (`E[hand]` exact over the `52 − dealt` unseen starters; ties go to the
//!    first choice in discard order). The pass counts, per role, the hands throwing each kind.
//! 3. **Values** — the two models ([`TablesModel`]):
//!    * [`TablesModel::Conditioned`] (the default): in the same pass, each hand's chosen throw is
//!      valued by the exact expected crib *given that hand*: the opponent's two cards from the
//!      `52 − dealt` cards the hand does not hold, weighted by the other role's pair weights, and
//!      the starter from the rest — the crib term of
//!      [`analyze_discard`](super::analyze_discard) with [`Opponent::Tables`](super::Opponent),
//!      computed by the same routine. `dealer[k]` is the average of these over the hands (with
//!      multiplicity) that throw `k` as dealer, `pone[k]` the same for pone. A kind no hand
//!      throws keeps its previous value.
//!    * [`TablesModel::ThrownOnly`] (the model before issue 21): `dealer[k]` is recomputed over
//!      every pair pone can throw from the 50 cards other than the two thrown, so weighted, and
//!      every starter from the 48 left: the crib is conditioned on the two thrown cards only,
//!      so card removal by the kept cards is ignored (a player who keeps 5-5-J-J leaves fewer
//!      fives and jacks for the crib, which this model does not see).
//! 4. Repeat 2–3 until the largest change of a value or of a reported table entry is below the
//!    tolerance, or the iteration limit. Pure best responses end in a cycle of period two: a few
//!    hands whose two best discards are within a hair flip back and forth. When a pass repeats
//!    the throws of the pass two before, or the changes stop shrinking, step 3 switches to the
//!    running average of the best responses (fictitious play), which settles where those hands
//!    split: the mixed equilibrium (see [`DiscardTables::advance`]). Its changes shrink about as
//!    1/n: the conditioned model's best responses swing more (a kind's value depends on which
//!    hands throw it), so it needs more passes for the same tolerance.
//!
//! **Simplifications**: a throw's pair weight depends only on its kind (the opponent's throw is
//! not conditioned on the rest of the opponent's hand, only on the cards it could hold); and the
//! choices in step 2 use the value of the throw's kind, not the hand's own exact crib (a table is
//! a per-kind average, which is what a player using it decides by). With `flushes = false`, where
//! crib flushes score nothing (the classic tables' convention, Hessel's), suited and off-suit values
//! differ only by card removal and by how hands that throw them differ; nobs is counted (the
//! classic tables count it: their jack throws are about 0.3 above 10, Q and K).
//!
//! The reported 13 × 13 tables ([`DiscardTables::dealer_table`], [`DiscardTables::pone_table`])
//! average a rank pair's suited and off-suit values by how often each is thrown.
//!
//! The pass over the hand classes splits into ranges whose [`PassSums`] add up (integer counts,
//! and the conditioned cribs in fixed point, units of 2⁻³², rounded per hand before adding, so
//! any split gives the same tables): this is how it is distributed.

use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::OnceLock;

use super::card::{Card, Hand, FULL_PACK};
use super::crib::{
    check_variant, kind_pairs_in_pack, rank_slot, throw_kind, CribContext, Unseen, MAX_CHOICES, THROW_KINDS,
};
use super::game::Variant;
use super::show::{show_sum_ranks, show_sum_suits, show_sum_unchecked};
use crate::batch::{Column, Columns};
use crate::error::{Error, Result};
use crate::names::named_enum;

named_enum! {
    /// How a throw kind's crib value is computed (see the module docs).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum TablesModel {
        /// The average, over the hands that throw the kind, of the exact crib given the hand.
        #[default]
        Conditioned => "conditioned",
        /// The crib given the two thrown cards only (card removal by the kept cards ignored).
        ThrownOnly => "thrown-only",
    }
}

impl std::str::FromStr for TablesModel {
    type Err = Error;
    fn from_str(s: &str) -> Result<TablesModel> {
        TablesModel::by_name(&s.trim().to_ascii_lowercase().replace('_', "-")).ok_or_else(|| {
            let shown: String = s.chars().take(40).collect();
            Error::InvalidValue(format!(
                "unknown discard tables model {shown:?}: expected 'conditioned' or 'thrown-only'"
            ))
        })
    }
}

/// Expected crib per throw kind, for each role (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CribValues {
    /// The dealer throws this kind to his own crib.
    pub dealer: [f64; THROW_KINDS],
    /// Pone throws this kind to the dealer's crib.
    pub pone: [f64; THROW_KINDS],
}

/// Units per point of [`PassSums::cribs`]: 2³².
pub const CRIB_UNIT: f64 = 4_294_967_296.0;

/// One pass's partial sums over a range of hand classes: per role (0 dealer, 1 pone) the number
/// of hands throwing each kind, the sum of their exact cribs (conditioned model), and the hands
/// covered. Sums of disjoint ranges add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassSums {
    /// `counts[role][kind]`: hands (with multiplicity) whose best discard throws `kind`.
    pub counts: [[u64; THROW_KINDS]; 2],
    /// `cribs[role][kind]`: Σ over those hands (with multiplicity) of the expected crib given the
    /// hand, each rounded to units of 2⁻³² ([`CRIB_UNIT`]); zero for [`TablesModel::ThrownOnly`].
    pub cribs: [[u64; THROW_KINDS]; 2],
    /// Hands covered (each class counted with its multiplicity).
    pub hands: u64,
}

impl Default for PassSums {
    fn default() -> PassSums {
        PassSums { counts: [[0; THROW_KINDS]; 2], cribs: [[0; THROW_KINDS]; 2], hands: 0 }
    }
}

impl PassSums {
    /// Add another range's sums.
    pub fn add(&mut self, other: &PassSums) {
        for role in 0..2 {
            for (a, b) in self.counts[role].iter_mut().zip(&other.counts[role]) {
                *a += b;
            }
            for (a, b) in self.cribs[role].iter_mut().zip(&other.cribs[role]) {
                *a += b;
            }
        }
        self.hands += other.hands;
    }

    /// The sum of two ranges' sums, or `None` if a count overflows (sums from a pass never do;
    /// hand-made ones may).
    pub fn checked_add(&self, other: &PassSums) -> Option<PassSums> {
        let mut out = *self;
        for (a, b) in out.counts.iter_mut().chain(&mut out.cribs).zip(other.counts.iter().chain(&other.cribs)) {
            for (a, b) in a.iter_mut().zip(b) {
                *a = a.checked_add(*b)?;
            }
        }
        out.hands = out.hands.checked_add(other.hands)?;
        Some(out)
    }

    /// The per-kind sums by their names in [`Columns`]: `dealer`, `pone` (the counts),
    /// `dealer_crib`, `pone_crib`.
    pub fn per_kind_mut(&mut self) -> [(&'static str, &mut [u64; THROW_KINDS]); 4] {
        let ([dealer, pone], [dealer_crib, pone_crib]) = (&mut self.counts, &mut self.cribs);
        [("dealer", dealer), ("pone", pone), ("dealer_crib", dealer_crib), ("pone_crib", pone_crib)]
    }
}

/// The per-kind sums as int64 columns (a count is far below 2⁶³), then the hands covered.
impl Columns for PassSums {
    fn columns(mut self) -> Vec<(&'static str, Column)> {
        let per_kind = self.per_kind_mut().map(|(key, v)| (key, Column::rows(v.map(|x| x as i64).to_vec())));
        per_kind.into_iter().chain([("hands", Column::Count(self.hands))]).collect()
    }
}

/// Options of [`discard_tables`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TablesOptions {
    /// Count crib flushes (`false`: a crib flush scores nothing, like the classic tables).
    pub flushes: bool,
    /// How the values are computed.
    pub model: TablesModel,
    /// The most best-response passes.
    pub max_iterations: usize,
    /// Stop when the largest change is below this.
    pub tolerance: f64,
}

impl Default for TablesOptions {
    fn default() -> TablesOptions {
        TablesOptions { flushes: true, model: TablesModel::Conditioned, max_iterations: 50, tolerance: 1e-4 }
    }
}

/// Equilibrium discard tables (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardTables {
    /// The game: six-card or five-card.
    pub variant: Variant,
    /// Whether crib flushes count.
    pub flushes: bool,
    /// How the values are computed.
    pub model: TablesModel,
    /// The values by throw kind the players decide by.
    pub values: CribValues,
    /// Per role (0 dealer, 1 pone), the share of hands throwing each kind in the strategy the
    /// values are computed from (iteration 0: the pack's share of card pairs of each kind).
    pub throws: [[f64; THROW_KINDS]; 2],
    /// Conditioned model: per role and kind, Σ share × crib over the hands throwing the kind
    /// (averaged like `throws`; `values = crib_shares / throws` where a kind is thrown).
    pub crib_shares: [[f64; THROW_KINDS]; 2],
    /// Passes averaged into `throws` (0: the last pass's best responses alone).
    pub averaged: usize,
    /// The last pass's sums (all zero at iteration 0).
    pub sums: PassSums,
    /// The sums of the pass before the last (all zero before two passes).
    pub sums_before: PassSums,
    /// Best-response passes done.
    pub iterations: usize,
    /// The largest change of each pass.
    pub changes: Vec<f64>,
    /// The cards in play (the full pack but in tests of a reduced one).
    pub(crate) pack: u64,
}

/// Suit-isomorphism classes of a variant's dealt hands: (mask, multiplicity), built once (not
/// interruptible: a tenth of a second for six-card).
fn classes(variant: Variant) -> &'static [(u64, u8)] {
    crate::engine::interrupt::shielded(|| classes_checked(variant)).expect("no flag, no interruption")
}

/// [`classes`], stopped by the caller's Ctrl-C (nothing is kept then; the next call starts again).
fn classes_checked(variant: Variant) -> Result<&'static [(u64, u8)]> {
    static SIX: OnceLock<Vec<(u64, u8)>> = OnceLock::new();
    static FIVE: OnceLock<Vec<(u64, u8)>> = OnceLock::new();
    let cell = if variant == Variant::SixCard { &SIX } else { &FIVE };
    if let Some(all) = cell.get() {
        return Ok(all);
    }
    let all = enumerate_classes(variant.cards_dealt() as u32)?;
    Ok(cell.get_or_init(|| all))
}

/// Every hand of `n` cards of a reduced pack, each its own class.
fn pack_hands(pack: u64, n: u32) -> Vec<(u64, u8)> {
    let cards: Vec<u64> = (0..64).filter(|i| pack >> i & 1 == 1).map(|i| 1u64 << i).collect();
    let mut out = Vec::new();
    fn rec(cards: &[u64], n: u32, mask: u64, out: &mut Vec<(u64, u8)>) {
        if n == 0 {
            out.push((mask, 1));
            return;
        }
        for (i, &c) in cards.iter().enumerate() {
            rec(&cards[i + 1..], n - 1, mask | c, out);
        }
    }
    rec(&cards, n, 0, &mut out);
    out.sort_unstable();
    out
}

/// Card pairs of each throw kind in a pack.
fn pack_kind_pairs(pack: u64) -> [f64; THROW_KINDS] {
    if pack == FULL_PACK {
        return core::array::from_fn(kind_pairs_in_pack);
    }
    let cards: Vec<Card> = (0..64u32).filter(|i| pack >> i & 1 == 1).map(Card::from_index).collect();
    let mut out = [0.0; THROW_KINDS];
    for (i, &a) in cards.iter().enumerate() {
        for &b in &cards[i + 1..] {
            out[throw_kind(a, b)] += 1.0;
        }
    }
    out
}

/// Every hand of `n` cards with its suit lanes in non-increasing order of (cards, mask) — one hand
/// per suit-isomorphism class — and the number of hands in its class (24 / the orders of the
/// equal lanes).
fn enumerate_classes(n: u32) -> Result<Vec<(u64, u8)>> {
    let mut by_pop: Vec<Vec<u64>> = vec![Vec::new(); 14];
    for m in 0u64..(1 << 13) {
        by_pop[m.count_ones() as usize].push(m);
    }
    let mut out = Vec::new();
    fn rec(
        level: usize,
        left: u32,
        prev: (u32, u64),
        lanes: &mut [u64; 4],
        by_pop: &[Vec<u64>],
        out: &mut Vec<(u64, u8)>,
    ) -> Result<()> {
        if level == 4 {
            if left == 0 {
                let mask = lanes[0] | lanes[1] << 16 | lanes[2] << 32 | lanes[3] << 48;
                let mut mult = 24u32;
                let mut i = 0;
                while i < 4 {
                    let mut j = i;
                    while j < 4 && lanes[j] == lanes[i] {
                        j += 1;
                    }
                    mult /= [1, 1, 2, 6, 24][j - i];
                    i = j;
                }
                out.push((mask, mult as u8));
            }
            return Ok(());
        }
        // The caller's Ctrl-C, checked for each choice of the first two lanes.
        if level < 2 {
            crate::engine::interrupt::check()?;
        }
        // This lane holds at least its share of what is left (the later ones hold no more).
        let lanes_left = 4 - level as u32;
        let min_pop = if level == 3 { left } else { left.div_ceil(lanes_left) };
        for pop in min_pop..=left.min(prev.0) {
            for &m in &by_pop[pop as usize] {
                if pop == prev.0 && m > prev.1 {
                    break;
                }
                lanes[level] = m;
                rec(level + 1, left - pop, (pop, m), lanes, by_pop, out)?;
            }
        }
        Ok(())
    }
    rec(0, n, (13, (1 << 13) - 1), &mut [0; 4], &by_pop, &mut out)?;
    out.sort_unstable();
    Ok(out)
}

/// Number of hand classes of a variant's pass (the `stop` of a whole pass).
///
/// ```
/// use cribpiquet::cribbage::{discard_classes, Variant};
/// assert_eq!(discard_classes(Variant::FiveCard).unwrap(), 134_459);
/// ```
pub fn discard_classes(variant: Variant) -> Result<usize> {
    check_variant(variant)?;
    Ok(classes(variant).len())
}

/// The hand classes `start..stop` of a variant's pass (in the order [`DiscardTables::pass`]
/// takes them): one hand of each class and the number of hands in its class.
///
/// ```
/// use cribpiquet::cribbage::{discard_class_hands, Variant};
/// let first = discard_class_hands(Variant::FiveCard, 0, 1).unwrap();
/// assert_eq!((first[0].0.len(), first[0].1), (5, 4)); // A-2-3-4-5 of one suit: 4 such hands
/// ```
pub fn discard_class_hands(variant: Variant, start: usize, stop: usize) -> Result<Vec<(Hand, u8)>> {
    check_variant(variant)?;
    let all = classes(variant);
    if start > stop || stop > all.len() {
        return Err(Error::InvalidValue(format!(
            "class range {start}..{stop} is not within 0..{} (the number of classes)",
            all.len()
        )));
    }
    Ok(all[start..stop]
        .iter()
        .map(|&(mask, mult)| (Hand::from_mask(mask).expect("class masks are cards"), mult))
        .collect())
}

/// Per class and choice: the hand's score summed over the unseen starters, and the throw kind.
#[derive(Clone, Copy)]
struct ClassChoices {
    mask: u64,
    hand_sums: [u16; MAX_CHOICES],
    kinds: [u8; MAX_CHOICES],
    choices: u8,
    mult: u8,
}

/// The cards of a hand, in id order.
fn hand_cards(hand: Hand) -> ([Card; 6], usize) {
    let mut cards = [Card::from_index_const(0); 6];
    let mut n = 0;
    for c in hand.iter() {
        cards[n] = c;
        n += 1;
    }
    (cards, n)
}

/// The cards thrown by choice `k` (discard order) of a hand's cards.
fn choice_cards(cards: &[Card], k: usize) -> (Card, Card) {
    let mut j = 1;
    while j * (j + 1) / 2 <= k {
        j += 1;
    }
    (cards[k - j * (j - 1) / 2], cards[j])
}

/// The rank part of the kept hands' show sums ([`show_sum_ranks`]) of the last hand ranks seen, by
/// the thrown rank pair ([`rank_slot`]): hands of the same ranks (in one pack) share it, whatever
/// their suits, so consecutive classes of the same ranks compute it once.
struct RankSums {
    ranks_of: u64,
    known: [bool; 91],
    sums: [u32; 91],
}

impl RankSums {
    fn new() -> RankSums {
        RankSums { ranks_of: u64::MAX, known: [false; 91], sums: [0; 91] }
    }
}

/// The kept hand's show summed over the unseen starters, `hand` less `a` and `b`: the same integer
/// as [`show_sum_unchecked`], its rank part shared through `cache` by hands of the same ranks.
#[inline]
fn kept_sum(hand: Hand, a: Card, b: Card, unseen: u64, cache: &mut RankSums) -> u32 {
    let mut kept = hand;
    kept.remove(a);
    kept.remove(b);
    let slot = rank_slot(a.rank().min(b.rank()) as usize, a.rank().max(b.rank()) as usize);
    if !cache.known[slot] {
        cache.sums[slot] = show_sum_ranks(kept, unseen);
        cache.known[slot] = true;
    }
    cache.sums[slot] + show_sum_suits(kept, unseen, false)
}

fn class_choices(mask: u64, mult: u8, pack: u64, cache: &mut RankSums) -> ClassChoices {
    let hand = Hand::from_mask(mask).expect("class masks are cards");
    let (cards, n) = hand_cards(hand);
    let unseen = pack & !mask;
    let ranks = rank_counts(mask);
    if ranks != cache.ranks_of {
        *cache = RankSums::new();
        cache.ranks_of = ranks;
    }
    let mut out = ClassChoices { mask, hand_sums: [0; MAX_CHOICES], kinds: [0; MAX_CHOICES], choices: 0, mult };
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            out.hand_sums[k] = kept_sum(hand, cards[i], cards[j], unseen, cache) as u16;
            out.kinds[k] = throw_kind(cards[i], cards[j]) as u8;
            k += 1;
        }
    }
    out.choices = k as u8;
    out
}

/// The most a kept hand's show sums to over the unseen starters, plus one: 29 points with each of
/// at most 48 starters.
const HAND_SUMS: usize = 29 * 48 + 1;

/// A hand sum's expected show, `sum / unseen`, for every sum: looked up in a pass instead of
/// divided for each choice (the same quotients, to the bit).
fn hand_values(unseen: f64) -> Box<[f64; HAND_SUMS]> {
    Box::new(core::array::from_fn(|sum| sum as f64 / unseen))
}

/// The best choice (its index in discard order) for the dealer and for pone; `hand` holds the
/// expected show of each hand sum ([`hand_values`]).
#[inline]
fn best_choices(c: &ClassChoices, values: &CribValues, hand: &[f64; HAND_SUMS]) -> (usize, usize) {
    let (mut best_d, mut best_p) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut choice_d, mut choice_p) = (0, 0);
    for i in 0..c.choices as usize {
        let hand = hand[c.hand_sums[i] as usize];
        let kind = c.kinds[i] as usize;
        let d = hand + values.dealer[kind];
        let p = hand - values.pone[kind];
        if d > best_d {
            best_d = d;
            choice_d = i;
        }
        if p > best_p {
            best_p = p;
            choice_p = i;
        }
    }
    (choice_d, choice_p)
}

/// What a pass needs of the tables.
struct PassInput {
    values: CribValues,
    /// Per role (0 dealer, 1 pone): the per-card-pair weights of that role's throws.
    weights: [[f64; THROW_KINDS]; 2],
    /// The expected show of each hand sum over the unseen starters.
    hand_values: Box<[f64; HAND_SUMS]>,
    conditioned: bool,
    flushes: bool,
    pack: u64,
}

/// The exact expected crib of `hand` throwing `a`, `b` against an opponent throwing by `w`
/// (the crib term of `analyze_discard`, by the same routine).
#[cfg(test)]
pub(crate) fn hand_crib(hand: Hand, a: Card, b: Card, w: &[f64; THROW_KINDS], flushes: bool, pack: u64) -> f64 {
    let unseen = Unseen::new(hand, pack);
    let uniform = [1.0; THROW_KINDS];
    let ctx = match CribContext::new(&unseen, w) {
        Some(ctx) => ctx,
        None => CribContext::new(&unseen, &uniform).expect("a pack leaves at least two unseen cards"),
    };
    ctx.crib(a, b, ctx.rank_part(&unseen.rank_points(a.rank(), b.rank())), flushes)
}

/// A crib in fixed point (units of 2⁻³²).
#[inline]
fn crib_units(crib: f64) -> u64 {
    (crib * CRIB_UNIT).round() as u64
}

/// The ranks of a hand: its count of each rank, 3 bits a rank.
#[inline]
fn rank_counts(mask: u64) -> u64 {
    let mut key = 0;
    for r in 0..13 {
        let count = (mask >> r & 0x0001_0001_0001_0001).count_ones() as u64;
        key |= count << (3 * r);
    }
    key
}

fn pass_over(choices: impl Iterator<Item = ClassChoices>, input: &PassInput) -> PassSums {
    let mut sums = PassSums::default();
    // Rank points by thrown rank pair, shared by consecutive hands of the same ranks.
    let mut ranks_of = u64::MAX;
    let mut points = vec![[0u32; 91]; 91];
    let mut known = [false; 91];
    for c in choices {
        let (d, p) = best_choices(&c, &input.values, &input.hand_values);
        let mult = c.mult as u64;
        let (kd, kp) = (c.kinds[d] as usize, c.kinds[p] as usize);
        sums.counts[0][kd] += mult;
        sums.counts[1][kp] += mult;
        sums.hands += mult;
        if input.conditioned {
            let hand = Hand::from_mask(c.mask).expect("class masks are cards");
            let (cards, n) = hand_cards(hand);
            let unseen = Unseen::new(hand, input.pack);
            let key = rank_counts(c.mask);
            if key != ranks_of {
                ranks_of = key;
                known = [false; 91];
            }
            // The dealer's throw meets pone's (weights[1]), pone's the dealer's (weights[0]).
            for (role, choice, kind) in [(0, d, kd), (1, p, kp)] {
                let w = &input.weights[1 - role];
                let uniform;
                let ctx = match CribContext::new(&unseen, w) {
                    Some(ctx) => ctx,
                    None => {
                        uniform = [1.0; THROW_KINDS];
                        CribContext::new(&unseen, &uniform).expect("a pack leaves at least two unseen cards")
                    }
                };
                let (a, b) = choice_cards(&cards[..n], choice);
                let (ra, rb) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
                let slot = rank_slot(ra as usize, rb as usize);
                if !known[slot] {
                    points[slot] = unseen.rank_points(ra, rb);
                    known[slot] = true;
                }
                let crib = ctx.crib(a, b, ctx.rank_part(&points[slot]), input.flushes);
                sums.cribs[role][kind] += crib_units(crib) * mult;
            }
        }
    }
    sums
}

/// Whether the pure best responses have stopped converging: the last change is no smaller than
/// the one two passes before.
fn stalled(c: &[f64]) -> bool {
    let n = c.len();
    n >= 3 && c[n - 1] >= c[n - 3]
}

/// Block of classes per parallel task.
const BLOCK: usize = 2048;

/// One best-response pass over classes `start..stop` (see [`DiscardTables::pass`]).
pub fn discard_tables_pass(tables: &DiscardTables, start: usize, stop: usize) -> Result<PassSums> {
    tables.pass(start, stop)
}

/// The sums of `pass` over `items` in blocks of [`BLOCK`], on rayon's pool. A whole pass takes
/// seconds: the caller's interrupt flag (Ctrl-C) is checked before each block.
fn combine<T: Sync>(items: &[T], pass: impl Fn(&[T]) -> PassSums + Sync) -> Result<PassSums> {
    let flag = crate::engine::interrupt::current();
    items
        .par_chunks(BLOCK)
        .map(|block| {
            crate::engine::interrupt::check_flag(flag.as_ref())?;
            Ok(pass(block))
        })
        .try_reduce(PassSums::default, |mut a, b| {
            a.add(&b);
            Ok(a)
        })
}

/// The crib of four cards summed over the starters of `starters`, without the crib flush when
/// `flushes` is off.
#[inline(always)]
fn crib_sum(crib: Hand, starters: u64, flushes: bool) -> u32 {
    let points = show_sum_unchecked(crib, starters, true);
    if flushes {
        return points;
    }
    let mask = crib.mask();
    let lane = 0xFFFFu64 << (mask.trailing_zeros() & 0x30);
    points - if mask & !lane == 0 { 5 * (starters & lane).count_ones() } else { 0 }
}

/// Two cards of a throw kind (by suit symmetry any two of that kind give the same values).
fn representative(kind: usize) -> (Card, Card) {
    let (r, c) = ((kind / 13) as u8, (kind % 13) as u8);
    let card = |rank, suit| Card::new(rank, suit).expect("rank and suit are in range");
    if r == c {
        (card(r, 0), card(r, 1))
    } else if r < c {
        (card(r, 0), card(c, 1))
    } else {
        (card(c, 0), card(r, 0))
    }
}

/// Every pair of the pack's cards but `a` and `b`, in the order [`crib_given_pair`] weighs them
/// (by card, then by the later card): its throw kind and the crib it makes with `a` and `b`,
/// summed over the starters left.
fn opponent_pairs(a: Card, b: Card, flushes: bool, pack: u64) -> impl Iterator<Item = (usize, u32)> {
    let thrown = Hand::new().with(a).with(b);
    let mut rest = [Card::from_index_const(0); 52];
    let mut n = 0;
    let mut m = pack & !thrown.mask();
    while m != 0 {
        rest[n] = Card::from_index(m.trailing_zeros());
        n += 1;
        m &= m - 1;
    }
    (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j))).map(move |(i, j)| {
        let crib = thrown.with(rest[i]).with(rest[j]);
        (throw_kind(rest[i], rest[j]), crib_sum(crib, pack & !crib.mask(), flushes))
    })
}

/// The weighted sums over the opponent's pairs of (kind, summed crib) whose crib value is
/// `num / den`: each pair weighs its kind's weight, over its `starters` starters. One order of
/// additions whatever the caller, so the tables' values do not depend on which caller.
#[inline]
fn weigh_pairs(pairs: impl Iterator<Item = (usize, u32)>, weights: &[f64; THROW_KINDS], starters: f64) -> (f64, f64) {
    let (mut num, mut den) = (0.0, 0.0);
    for (kind, sum) in pairs {
        let w = weights[kind];
        if w == 0.0 {
            continue;
        }
        num += w * sum as f64;
        den += w * starters;
    }
    (num, den)
}

/// Expected crib when one player throws `a`, `b` and the other throws card pairs of the rest of
/// the pack weighted by `weights` (per card pair of each kind), the starter uniform over the rest.
fn crib_given_pair(a: Card, b: Card, weights: &[f64; THROW_KINDS], flushes: bool, pack: u64) -> (f64, f64) {
    let starters = (pack & !(a.bit() | b.bit())).count_ones().saturating_sub(2) as f64;
    weigh_pairs(opponent_pairs(a, b, flushes, pack), weights, starters)
}

/// Opponent pairs in the full pack of each throw kind's [`representative`] ([`opponent_pairs`]):
/// the summed cribs do not depend on the weights, so every pass of the thrown-only model reuses
/// them (computed once per process and crib-flush rule, a few milliseconds) and only weighs them.
struct FullPackPairs {
    /// `kinds[kind * PAIRS + i]`, `sums[kind * PAIRS + i]`: opponent pair `i` of `kind`'s throw.
    kinds: Vec<u8>,
    sums: Vec<u32>,
}

/// Pairs of the 50 cards other than a throw.
const PAIRS: usize = 50 * 49 / 2;

fn full_pack_pairs(flushes: bool) -> &'static FullPackPairs {
    static WITH: OnceLock<FullPackPairs> = OnceLock::new();
    static WITHOUT: OnceLock<FullPackPairs> = OnceLock::new();
    let cell = if flushes { &WITH } else { &WITHOUT };
    cell.get_or_init(|| {
        let per_kind: Vec<Vec<(usize, u32)>> = (0..THROW_KINDS)
            .into_par_iter()
            .map(|kind| {
                let (a, b) = representative(kind);
                opponent_pairs(a, b, flushes, FULL_PACK).collect()
            })
            .collect();
        let all = per_kind.concat();
        debug_assert_eq!(all.len(), THROW_KINDS * PAIRS);
        FullPackPairs { kinds: all.iter().map(|p| p.0 as u8).collect(), sums: all.iter().map(|p| p.1).collect() }
    })
}

/// The thrown-only crib of a kind: one representative pair in the full pack (suit symmetry), the
/// mean over the kind's pairs in a reduced one (0 for a kind the pack lacks).
fn crib_given(kind: usize, weights: &[f64; THROW_KINDS], flushes: bool, pack: u64) -> f64 {
    if pack == FULL_PACK {
        let pairs = full_pack_pairs(flushes);
        let range = kind * PAIRS..(kind + 1) * PAIRS;
        let each = pairs.kinds[range.clone()].iter().zip(&pairs.sums[range]).map(|(&k, &s)| (k as usize, s));
        let (num, den) = weigh_pairs(each, weights, 48.0);
        return num / den;
    }
    let cards: Vec<Card> = (0..64u32).filter(|i| pack >> i & 1 == 1).map(Card::from_index).collect();
    let (mut sum, mut count) = (0.0, 0.0);
    for (i, &a) in cards.iter().enumerate() {
        for &b in &cards[i + 1..] {
            if throw_kind(a, b) == kind {
                let (num, den) = crib_given_pair(a, b, weights, flushes, pack);
                if den > 0.0 {
                    sum += num / den;
                    count += 1.0;
                }
            }
        }
    }
    if count > 0.0 {
        sum / count
    } else {
        0.0
    }
}

fn values_from_weights(
    dealer_weights: &[f64; THROW_KINDS],
    pone_weights: &[f64; THROW_KINDS],
    flushes: bool,
    pack: u64,
) -> CribValues {
    // The dealer's throw meets pone's, and the other way round.
    let both: Vec<f64> = (0..2 * THROW_KINDS)
        .into_par_iter()
        .map(|i| {
            if i < THROW_KINDS {
                crib_given(i, pone_weights, flushes, pack)
            } else {
                crib_given(i - THROW_KINDS, dealer_weights, flushes, pack)
            }
        })
        .collect();
    CribValues { dealer: core::array::from_fn(|k| both[k]), pone: core::array::from_fn(|k| both[THROW_KINDS + k]) }
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl DiscardTables {
    /// Iteration 0: the values when every opponent pair of cards is equally likely, given the
    /// two thrown cards only (for both models: no hand has chosen yet).
    pub fn initial(variant: Variant, flushes: bool, model: TablesModel) -> Result<DiscardTables> {
        check_variant(variant)?;
        DiscardTables::initial_in(variant, flushes, model, FULL_PACK)
    }

    /// [`initial`](Self::initial) in a pack of the cards of `pack` (bit `16 * suit + rank`).
    pub(crate) fn initial_in(variant: Variant, flushes: bool, model: TablesModel, pack: u64) -> Result<DiscardTables> {
        check_variant(variant)?;
        if pack & !FULL_PACK != 0 || (pack.count_ones() as usize) < variant.cards_dealt() + 3 {
            return Err(Error::InvalidValue("the pack must hold the hand, two more cards and a starter".into()));
        }
        if model == TablesModel::ThrownOnly && pack != FULL_PACK {
            return Err(Error::InvalidValue("the thrown-only model needs the full pack".into()));
        }
        let pairs = pack_kind_pairs(pack);
        let total: f64 = pairs.iter().sum();
        let ones = [1.0; THROW_KINDS];
        Ok(DiscardTables {
            variant,
            flushes,
            model,
            values: values_from_weights(&ones, &ones, flushes, pack),
            throws: [core::array::from_fn(|k| pairs[k] / total); 2],
            crib_shares: [[0.0; THROW_KINDS]; 2],
            averaged: 0,
            sums: PassSums::default(),
            sums_before: PassSums::default(),
            iterations: 0,
            changes: Vec::new(),
            pack,
        })
    }

    /// Tables of the full pack with every value zero, to fill in (unpickling).
    #[cfg_attr(not(feature = "python"), allow(dead_code))]
    pub(crate) fn initial_shell(variant: Variant) -> DiscardTables {
        DiscardTables {
            variant,
            flushes: true,
            model: TablesModel::Conditioned,
            values: CribValues { dealer: [0.0; THROW_KINDS], pone: [0.0; THROW_KINDS] },
            throws: [[0.0; THROW_KINDS]; 2],
            crib_shares: [[0.0; THROW_KINDS]; 2],
            averaged: 0,
            sums: PassSums::default(),
            sums_before: PassSums::default(),
            iterations: 0,
            changes: Vec::new(),
            pack: FULL_PACK,
        }
    }

    /// The hand classes of these tables' passes.
    fn classes(&self) -> Cow<'static, [(u64, u8)]> {
        if self.pack == FULL_PACK {
            Cow::Borrowed(classes(self.variant))
        } else {
            Cow::Owned(pack_hands(self.pack, self.variant.cards_dealt() as u32))
        }
    }

    fn pass_input(&self) -> PassInput {
        PassInput {
            values: self.values,
            weights: [self.pair_weights(true), self.pair_weights(false)],
            hand_values: hand_values((self.pack.count_ones() as usize - self.variant.cards_dealt()) as f64),
            conditioned: self.model == TablesModel::Conditioned,
            flushes: self.flushes,
            pack: self.pack,
        }
    }

    /// The best-response pass over hand classes `start..stop` (of [`discard_classes`]) at these
    /// tables' values: partial sums that [`PassSums::add`] combines and [`advance`](Self::advance)
    /// turns into the next tables. Runs on rayon's pool.
    pub fn pass(&self, start: usize, stop: usize) -> Result<PassSums> {
        let all = self.classes();
        if start > stop || stop > all.len() {
            return Err(Error::InvalidValue(format!(
                "class range {start}..{stop} is not within 0..{} (the number of classes)",
                all.len()
            )));
        }
        let input = self.pass_input();
        let pack = self.pack;
        combine(&all[start..stop], |block| {
            let mut cache = RankSums::new();
            pass_over(block.iter().map(|&(mask, mult)| class_choices(mask, mult, pack, &mut cache)), &input)
        })
    }

    /// The next tables from a whole pass's sums (every class counted once: `sums.hands` must be
    /// every possible hand, C(52, dealt)).
    ///
    /// The throws the values are computed from are the pass's best responses, until they cycle:
    /// the pass throws every kind as often as the pass two before (a few hands whose two best
    /// discards are within a hair flip back and forth), or the changes stop shrinking (the last
    /// is no smaller than the one two passes before); from then on they are
    /// the running average of the best responses since the pass before (fictitious play), which
    /// settles where those hands split. The conditioned model averages the hands' cribs the same
    /// way (`crib_shares`), so a value stays the mean crib of the hands throwing its kind.
    pub fn advance(&self, sums: &PassSums) -> Result<DiscardTables> {
        let all_hands = binomial(self.pack.count_ones() as u64, self.variant.cards_dealt() as u64);
        let counted: [u64; 2] = [sums.counts[0].iter().sum(), sums.counts[1].iter().sum()];
        if sums.hands != all_hands || counted != [all_hands; 2] {
            return Err(Error::InvalidValue(format!(
                "the pass sums cover {} of the {all_hands} hands: add the sums of every class range exactly once",
                sums.hands
            )));
        }
        let n_hands = all_hands as f64;
        let fractions: [[f64; THROW_KINDS]; 2] =
            core::array::from_fn(|role| core::array::from_fn(|k| sums.counts[role][k] as f64 / n_hands));
        let crib_fractions: [[f64; THROW_KINDS]; 2] =
            core::array::from_fn(|role| core::array::from_fn(|k| sums.cribs[role][k] as f64 / CRIB_UNIT / n_hands));
        let c = &self.changes;
        let repeats = self.iterations >= 2 && sums.counts == self.sums_before.counts;
        let cycling = self.averaged == 0 && (repeats || stalled(c));
        let (throws, crib_shares, averaged) = if self.averaged > 0 || cycling {
            // Average: at the switch the previous pass's responses and this one's; then running.
            let n = if cycling { 2 } else { self.averaged + 1 };
            let (mut t, mut s) = (self.throws, self.crib_shares);
            for role in 0..2 {
                for k in 0..THROW_KINDS {
                    t[role][k] += (fractions[role][k] - t[role][k]) / n as f64;
                    s[role][k] += (crib_fractions[role][k] - s[role][k]) / n as f64;
                }
            }
            (t, s, n)
        } else {
            (fractions, crib_fractions, 0)
        };
        let values = match self.model {
            TablesModel::ThrownOnly => {
                let pairs = pack_kind_pairs(self.pack);
                let weights = |role: usize| -> [f64; THROW_KINDS] {
                    core::array::from_fn(|k| if pairs[k] > 0.0 { throws[role][k] / pairs[k] } else { 0.0 })
                };
                values_from_weights(&weights(0), &weights(1), self.flushes, self.pack)
            }
            TablesModel::Conditioned => {
                let value = |role: usize, old: &[f64; THROW_KINDS]| -> [f64; THROW_KINDS] {
                    core::array::from_fn(|k| {
                        if throws[role][k] > 0.0 {
                            crib_shares[role][k] / throws[role][k]
                        } else {
                            old[k]
                        }
                    })
                };
                CribValues { dealer: value(0, &self.values.dealer), pone: value(1, &self.values.pone) }
            }
        };
        let mut next = DiscardTables {
            variant: self.variant,
            flushes: self.flushes,
            model: self.model,
            values,
            throws,
            crib_shares,
            averaged,
            sums: *sums,
            sums_before: self.sums,
            iterations: self.iterations + 1,
            changes: self.changes.clone(),
            pack: self.pack,
        };
        let mut change = 0.0f64;
        for k in 0..THROW_KINDS {
            change = change.max((next.values.dealer[k] - self.values.dealer[k]).abs());
            change = change.max((next.values.pone[k] - self.values.pone[k]).abs());
        }
        for (new, old) in [(next.dealer_table(), self.dealer_table()), (next.pone_table(), self.pone_table())] {
            for r in 0..13 {
                for c in 0..13 {
                    change = change.max((new[r][c] - old[r][c]).abs());
                }
            }
        }
        next.changes.push(change);
        Ok(next)
    }

    /// One more iteration (a whole pass, then [`advance`](Self::advance)).
    pub fn step(&self) -> Result<DiscardTables> {
        let sums = self.pass(0, self.classes().len())?;
        self.advance(&sums)
    }

    /// The last change (infinite before the first pass).
    pub fn last_change(&self) -> f64 {
        self.changes.last().copied().unwrap_or(f64::INFINITY)
    }

    #[allow(clippy::needless_range_loop)] // `hi` fills both halves of a symmetric table
    fn table(&self, values: &[f64; THROW_KINDS], role: usize) -> [[f64; 13]; 13] {
        let mut t = [[0.0; 13]; 13];
        let throws = &self.throws[role];
        for lo in 0..13 {
            for hi in lo..13 {
                let v = if lo == hi {
                    values[lo * 13 + lo]
                } else {
                    let (off, suited) = (lo * 13 + hi, hi * 13 + lo);
                    let (mut f_off, mut f_suited) = (throws[off], throws[suited]);
                    if f_off + f_suited == 0.0 {
                        (f_off, f_suited) = (12.0, 4.0); // never thrown: as the pack deals them
                    }
                    (f_off * values[off] + f_suited * values[suited]) / (f_off + f_suited)
                };
                t[lo][hi] = v;
                t[hi][lo] = v;
            }
        }
        t
    }

    /// The average crib when the dealer throws ranks `(i, j)` (A = 0 .. K = 12) to his own crib:
    /// symmetric, suited and off-suit throws averaged by how often each is thrown.
    pub fn dealer_table(&self) -> [[f64; 13]; 13] {
        self.table(&self.values.dealer, 0)
    }

    /// The average crib when pone throws ranks `(i, j)` to the dealer's crib.
    pub fn pone_table(&self) -> [[f64; 13]; 13] {
        self.table(&self.values.pone, 1)
    }

    /// The fraction of hands whose role (dealer when `dealer`) throws ranks `(i, j)` in the
    /// strategy behind the values: symmetric, the entries on and above the diagonal sum to 1.
    /// (Iteration 0: the pack's share of card pairs of those ranks.)
    #[allow(clippy::needless_range_loop)] // `hi` fills both halves of a symmetric table
    pub fn frequency(&self, dealer: bool) -> [[f64; 13]; 13] {
        let throws = &self.throws[!dealer as usize];
        let mut t = [[0.0; 13]; 13];
        for lo in 0..13 {
            for hi in lo..13 {
                let f = if lo == hi { throws[lo * 13 + lo] } else { throws[lo * 13 + hi] + throws[hi * 13 + lo] };
                t[lo][hi] = f;
                t[hi][lo] = f;
            }
        }
        t
    }

    /// The weight of one card pair of each throw kind in the role's throws (dealer when
    /// `dealer`): the kind's share of the throws over the pack's pairs of that kind.
    pub fn pair_weights(&self, dealer: bool) -> [f64; THROW_KINDS] {
        let throws = &self.throws[!dealer as usize];
        let pairs = pack_kind_pairs(self.pack);
        core::array::from_fn(|k| if pairs[k] > 0.0 { throws[k] / pairs[k] } else { 0.0 })
    }

    /// Check tables made from outside values (unpickled, loaded from a file): every value a number
    /// of crib points (finite, in `0..=29`), every share finite in `0..=1` with each role's
    /// throws summing to 1, the crib shares finite and non-negative, one finite non-negative
    /// change per iteration, at most `iterations` passes averaged, and each pass's sums
    /// covering no hand or every hand once. The error names the field (`dealer_values[12]`,
    /// `sums.hands`) as the pickled state and the saved file do.
    pub fn check(&self) -> Result<()> {
        const MAX_CRIB: f64 = 29.0 + 1e-6; // a crib scores at most 29; room for rounding
        let bad = |field: &str, what: String| Err(Error::InvalidValue(format!("{field} {what}")));
        let in_range = |field: &str, values: &[f64], high: f64| -> Result<()> {
            for (k, &v) in values.iter().enumerate() {
                if !(v.is_finite() && (0.0..=high).contains(&v)) {
                    return bad(&format!("{field}[{k}]"), format!("is {v}: it must be a finite number in 0..={high}"));
                }
            }
            Ok(())
        };
        let roles = ["dealer", "pone"];
        in_range("dealer_values", &self.values.dealer, 29.0)?;
        in_range("pone_values", &self.values.pone, 29.0)?;
        for (role, name) in roles.iter().enumerate() {
            in_range(&format!("{name}_throws"), &self.throws[role], 1.0)?;
            let total: f64 = self.throws[role].iter().sum();
            if (total - 1.0).abs() > 1e-6 {
                return bad(&format!("{name}_throws"), format!("sum to {total}, not 1 (they are shares of the hands)"));
            }
            in_range(&format!("{name}_crib_shares"), &self.crib_shares[role], MAX_CRIB)?;
        }
        if self.changes.len() != self.iterations {
            return bad("changes", format!("hold {} values for {} iterations", self.changes.len(), self.iterations));
        }
        in_range("changes", &self.changes, f64::MAX)?;
        if self.averaged > self.iterations {
            return bad("averaged", format!("is {}, more than the {} iterations", self.averaged, self.iterations));
        }
        let all_hands = binomial(self.pack.count_ones() as u64, self.variant.cards_dealt() as u64);
        for (name, sums) in [("sums", &self.sums), ("sums_before", &self.sums_before)] {
            if sums.hands != 0 && sums.hands != all_hands {
                return bad(&format!("{name}.hands"), format!("is {}, not 0 or {all_hands} (every hand once)", sums.hands));
            }
            for (role, counts) in roles.iter().zip(&sums.counts) {
                let total: u128 = counts.iter().map(|&c| c as u128).sum();
                if total != sums.hands as u128 {
                    return bad(&format!("{name}.{role}"), format!("count {total} hands, not {}", sums.hands));
                }
            }
        }
        Ok(())
    }

    /// The thrown-only values of these tables' throw shares: what [`advance`](Self::advance)
    /// computes them from in that model (tests compare them with a saved table's values).
    #[cfg(test)]
    pub(crate) fn thrown_only_values(&self) -> CribValues {
        values_from_weights(&self.pair_weights(true), &self.pair_weights(false), self.flushes, self.pack)
    }

    /// Whether these tables are for the full pack (always, but in tests of a reduced one).
    pub(crate) fn full_pack(&self) -> bool {
        self.pack == FULL_PACK
    }
}

/// The iteration of [`discard_tables`], one pass at a time, with each class's hand values computed
/// once (a thrown-only pass then costs a few milliseconds; a conditioned one computes each
/// class's two chosen cribs: about a second on two cores for six-card).
pub struct TablesRun {
    choices: Vec<ClassChoices>,
    tables: DiscardTables,
}

impl TablesRun {
    /// Iteration 0 of a variant's tables (computes every class's hand values: a few seconds).
    pub fn new(variant: Variant, flushes: bool, model: TablesModel) -> Result<TablesRun> {
        let tables = DiscardTables::initial(variant, flushes, model)?;
        // Hands of the same ranks next to each other: they share the kept hands' rank sums here
        // and the crib's rank points in a conditioned pass.
        let mut sorted: Vec<(u64, u64, u8)> =
            classes_checked(variant)?.par_iter().map(|&(mask, mult)| (rank_counts(mask), mask, mult)).collect();
        sorted.par_sort_unstable();
        // The caller's Ctrl-C is checked before each block of classes.
        let flag = crate::engine::interrupt::current();
        let blocks: Vec<Vec<ClassChoices>> = sorted
            .par_chunks(BLOCK)
            .map(|block| {
                crate::engine::interrupt::check_flag(flag.as_ref())?;
                let mut cache = RankSums::new();
                Ok(block.iter().map(|&(_, mask, mult)| class_choices(mask, mult, FULL_PACK, &mut cache)).collect())
            })
            .collect::<Result<_>>()?;
        Ok(TablesRun { choices: blocks.concat(), tables })
    }

    /// One more pass; returns its change. Equal to [`DiscardTables::step`].
    pub fn step(&mut self) -> Result<f64> {
        let sums = self.pass_part(0, self.classes())?;
        self.finish(&sums)
    }

    /// The number of hand classes of a pass.
    pub fn classes(&self) -> usize {
        self.choices.len()
    }

    /// The pass over this run's classes `start..stop` (in the run's own order): sums that add up
    /// over disjoint ranges to the whole pass's, for callers that want to stop between parts.
    pub fn pass_part(&self, start: usize, stop: usize) -> Result<PassSums> {
        if start > stop || stop > self.choices.len() {
            return Err(Error::InvalidValue(format!(
                "class range {start}..{stop} is not within 0..{}",
                self.choices.len()
            )));
        }
        let input = self.tables.pass_input();
        combine(&self.choices[start..stop], |block| pass_over(block.iter().copied(), &input))
    }

    /// Advance by a whole pass's sums (of [`pass_part`](Self::pass_part)); returns the change.
    pub fn finish(&mut self, sums: &PassSums) -> Result<f64> {
        self.tables = self.tables.advance(sums)?;
        Ok(self.tables.last_change())
    }

    /// The tables so far.
    pub fn tables(&self) -> &DiscardTables {
        &self.tables
    }
}

/// Equilibrium discard tables of a two-player variant (see the module docs): iterate until the
/// largest change is below `options.tolerance` or `options.max_iterations` passes.
pub fn discard_tables(variant: Variant, options: TablesOptions) -> Result<DiscardTables> {
    let mut run = TablesRun::new(variant, options.flushes, options.model)?;
    while run.tables().iterations < options.max_iterations {
        if run.step()? < options.tolerance {
            break;
        }
    }
    Ok(run.tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_hand_once() {
        for (variant, hands) in [(Variant::FiveCard, 2_598_960u64), (Variant::SixCard, 20_358_520)] {
            let all = classes(variant);
            assert_eq!(all.iter().map(|c| c.1 as u64).sum::<u64>(), hands);
            assert!(all.iter().all(|c| c.0.count_ones() as usize == variant.cards_dealt()));
        }
    }

    #[test]
    fn split_passes_add_up_to_the_whole() {
        let t = DiscardTables::initial(Variant::FiveCard, true, TablesModel::ThrownOnly).unwrap();
        let n = discard_classes(Variant::FiveCard).unwrap();
        let whole = t.pass(0, n).unwrap();
        let mut parts = t.pass(0, 1000).unwrap();
        parts.add(&t.pass(1000, 50_000).unwrap());
        parts.add(&t.pass(50_000, n).unwrap());
        assert_eq!(parts, whole);
        assert!(t.advance(&t.pass(0, 1000).unwrap()).is_err());
        assert!(t.pass(5, 4).is_err() && t.pass(0, n + 1).is_err());
        let mut run = TablesRun::new(Variant::FiveCard, true, TablesModel::ThrownOnly).unwrap();
        run.step().unwrap();
        assert_eq!(run.tables(), &t.advance(&whole).unwrap());
    }

    /// The show summed by rank and suit is the sum of the shows card by card, for hands of three
    /// and four cards, cribs, and any set of starters.
    #[test]
    fn show_sums_by_rank_are_the_sums_card_by_card() {
        use crate::rng::Rng;
        let mut rng = Rng::new(30);
        for case in 0..3000 {
            let n = if case % 3 == 0 { 3 } else { 4 };
            let crib = n == 4 && case % 2 == 0;
            let mut hand = Hand::new();
            while hand.len() < n {
                let c = Card::from_index(rng.below(52) as u32 / 13 * 16 + rng.below(13) as u32);
                if !hand.contains(c) {
                    hand = hand.with(c);
                }
            }
            // Every unseen card, or a random part of them.
            let unseen = FULL_PACK & !hand.mask();
            let starters = if case % 4 == 0 { unseen } else { unseen & rng.next_u64() };
            let mut by_card = 0u32;
            let mut m = starters;
            while m != 0 {
                by_card +=
                    super::super::show::score_show_unchecked(hand, Card::from_index(m.trailing_zeros()), crib) as u32;
                m &= m - 1;
            }
            assert_eq!(show_sum_unchecked(hand, starters, crib), by_card, "{hand} crib={crib}");
            if crib {
                let mut no_flush = 0;
                let mut m = starters;
                while m != 0 {
                    let s = Card::from_index(m.trailing_zeros());
                    let all = hand.mask() | s.bit();
                    let lane = 0xFFFFu64 << (all.trailing_zeros() & 0x30);
                    let points = super::super::show::score_show_unchecked(hand, s, true) as u32;
                    no_flush += points - if all & !lane == 0 { 5 } else { 0 };
                    m &= m - 1;
                }
                assert_eq!(crib_sum(hand, starters, false), no_flush, "{hand}");
            }
        }
    }

    /// A class's hand sums (the rank part shared by the hands of the same ranks) are the shows
    /// summed card by card, over runs of consecutive classes in the pass's order.
    #[test]
    fn class_hand_sums_are_the_shows_summed() {
        for variant in [Variant::FiveCard, Variant::SixCard] {
            let mut sorted: Vec<(u64, u64, u8)> =
                classes(variant).iter().map(|&(mask, mult)| (rank_counts(mask), mask, mult)).collect();
            sorted.sort_unstable();
            let mut cache = RankSums::new();
            for &(_, mask, mult) in sorted.iter().step_by(if cfg!(debug_assertions) { 211 } else { 7 }).take(4000) {
                // A few classes in a row, so the shared rank part is reused.
                let c = class_choices(mask, mult, FULL_PACK, &mut cache);
                let hand = Hand::from_mask(mask).unwrap();
                let (cards, n) = hand_cards(hand);
                assert_eq!(c.choices as usize, n * (n - 1) / 2);
                for k in 0..c.choices as usize {
                    let (a, b) = choice_cards(&cards[..n], k);
                    let mut kept = hand;
                    kept.remove(a);
                    kept.remove(b);
                    let mut sum = 0u32;
                    for s in Card::all().filter(|s| !hand.contains(*s)) {
                        sum += super::super::show::score_show_unchecked(kept, s, false) as u32;
                    }
                    assert_eq!(c.hand_sums[k] as u32, sum, "{hand} choice {k}");
                    assert_eq!(c.kinds[k] as usize, throw_kind(a, b));
                }
            }
            // Hands of the same ranks in a row share the cache: the whole run of the first ranks.
            let first = sorted[0].0;
            let mut cache = RankSums::new();
            for &(ranks, mask, mult) in sorted.iter().take_while(|x| x.0 == first) {
                let shared = class_choices(mask, mult, FULL_PACK, &mut cache);
                let alone = class_choices(mask, mult, FULL_PACK, &mut RankSums::new());
                assert_eq!((shared.hand_sums, shared.kinds, ranks), (alone.hand_sums, alone.kinds, first));
            }
        }
    }

    /// The full pack's thrown-only values from the cached opponent pairs are the values weighed
    /// pair by pair (the same additions in the same order: equal to the last bit).
    #[test]
    fn cached_pairs_give_the_values_of_the_direct_sum() {
        use crate::rng::Rng;
        let mut rng = Rng::new(31);
        for flushes in [true, false] {
            for round in 0..3 {
                let weights: [f64; THROW_KINDS] = core::array::from_fn(|k| {
                    if round == 0 {
                        1.0
                    } else if rng.below(5) == 0 {
                        0.0
                    } else {
                        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 / kind_pairs_in_pack(k)
                    }
                });
                for kind in (0..THROW_KINDS).step_by(if cfg!(debug_assertions) { 17 } else { 1 }) {
                    let (a, b) = representative(kind);
                    let mut num = 0.0;
                    let mut den = 0.0;
                    let rest: Vec<Card> = Card::all().filter(|c| *c != a && *c != b).collect();
                    for i in 0..rest.len() {
                        for j in i + 1..rest.len() {
                            let w = weights[throw_kind(rest[i], rest[j])];
                            if w == 0.0 {
                                continue;
                            }
                            let crib = Hand::new().with(a).with(b).with(rest[i]).with(rest[j]);
                            let mut sum = 0u32;
                            for s in rest.iter().filter(|s| !crib.contains(**s)) {
                                sum += crib_sum(crib, s.bit(), flushes);
                            }
                            num += w * sum as f64;
                            den += w * 48.0;
                        }
                    }
                    assert_eq!(crib_given(kind, &weights, flushes, FULL_PACK).to_bits(), (num / den).to_bits());
                }
            }
        }
    }

    #[test]
    fn initial_values_match_a_uniform_analysis() {
        // With every opponent pair alike, the dealer's value of throwing 5D 5H equals the crib
        // term of analyze_discard for a hand throwing them... up to card removal of the kept
        // cards, so compare with the direct definition instead: 5-5 is worth far more than K-9.
        let t = DiscardTables::initial(Variant::SixCard, true, TablesModel::Conditioned).unwrap();
        let d = t.dealer_table();
        assert!(d[4][4] > 8.0 && d[4][4] < 9.5, "{}", d[4][4]);
        assert!(d[12][8] < 4.5, "{}", d[12][8]);
        for (r, row) in d.iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                assert_eq!(x, d[c][r]);
            }
        }
    }
}

/// The tables in a reduced pack against an equilibrium iteration written out card by card.
#[cfg(test)]
#[allow(clippy::needless_range_loop, clippy::type_complexity)] // a reference written plainly
mod brute {
    use super::super::show::score_show;
    use super::*;
    use std::collections::HashMap;

    fn pack_of(ranks: &[u8], suits: u8) -> (u64, Vec<Card>) {
        let mut cards = Vec::new();
        for s in 0..suits {
            for &r in ranks {
                cards.push(Card::new(r, s).unwrap());
            }
        }
        cards.sort_by_key(|c| c.index());
        (cards.iter().fold(0, |m, c| m | c.bit()), cards)
    }

    fn kind(a: Card, b: Card) -> usize {
        let (lo, hi) = (a.rank().min(b.rank()) as usize, a.rank().max(b.rank()) as usize);
        if a.suit() == b.suit() {
            hi * 13 + lo
        } else {
            lo * 13 + hi
        }
    }

    fn crib_score(crib: &[Card], s: Card, flushes: bool) -> f64 {
        let hand = crib.iter().fold(Hand::new(), |h, &c| h.with(c));
        let mut p = score_show(hand, s, true).unwrap() as f64;
        if !flushes && crib.iter().all(|c| c.suit() == s.suit()) {
            p -= 5.0;
        }
        p
    }

    /// Per opponent kind, for a thrown pair and the cards left: (Σ points over the opponent's
    /// pairs of that kind and the starters, number of those cases).
    fn per_kind(thrown: (Card, Card), left: &[Card], flushes: bool) -> Vec<(usize, f64, f64)> {
        let mut out = Vec::new();
        for (i, &x) in left.iter().enumerate() {
            for &y in &left[i + 1..] {
                let (mut sum, mut n) = (0.0, 0.0);
                for &s in left {
                    if s != x && s != y {
                        sum += crib_score(&[thrown.0, thrown.1, x, y], s, flushes);
                        n += 1.0;
                    }
                }
                out.push((kind(x, y), sum, n));
            }
        }
        out
    }

    fn weighted(cases: &[(usize, f64, f64)], w: &[f64]) -> f64 {
        let (num, den) = cases.iter().fold((0.0, 0.0), |(a, b), &(k, s, n)| (a + w[k] * s, b + w[k] * n));
        if den > 0.0 {
            num / den
        } else {
            let (num, den) = cases.iter().fold((0.0, 0.0), |(a, b), &(_, s, n)| (a + s, b + n));
            num / den
        }
    }

    struct Brute {
        values: [Vec<f64>; 2],
        throws: [Vec<f64>; 2],
        shares: [Vec<f64>; 2],
        averaged: usize,
        changes: Vec<f64>,
    }

    fn table(values: &[f64], throws: &[f64]) -> Vec<f64> {
        let mut t = vec![0.0; 169];
        for lo in 0..13 {
            for hi in lo..13 {
                let v = if lo == hi {
                    values[lo * 13 + lo]
                } else {
                    let (off, suited) = (lo * 13 + hi, hi * 13 + lo);
                    let (mut a, mut b) = (throws[off], throws[suited]);
                    if a + b == 0.0 {
                        (a, b) = (12.0, 4.0);
                    }
                    (a * values[off] + b * values[suited]) / (a + b)
                };
                t[lo * 13 + hi] = v;
            }
        }
        t
    }

    /// Runs the iteration of the module docs, conditioned model, over every hand of the pack.
    fn check(ranks: &[u8], suits: u8, dealt: usize, variant: Variant, flushes: bool, passes: usize) {
        let (pack, cards) = pack_of(ranks, suits);
        let mut pairs = vec![0.0; 169];
        for (i, &a) in cards.iter().enumerate() {
            for &b in &cards[i + 1..] {
                pairs[kind(a, b)] += 1.0;
            }
        }
        let total_pairs: f64 = pairs.iter().sum();
        // Iteration 0: the crib given the two thrown cards only, every other pair alike.
        let mut v0 = vec![0.0; 169];
        for k in 0..169 {
            let (mut sum, mut n) = (0.0, 0.0);
            for (i, &a) in cards.iter().enumerate() {
                for &b in &cards[i + 1..] {
                    if kind(a, b) == k {
                        let left: Vec<Card> = cards.iter().copied().filter(|&c| c != a && c != b).collect();
                        sum += weighted(&per_kind((a, b), &left, flushes), &[1.0; 169]);
                        n += 1.0;
                    }
                }
            }
            if n > 0.0 {
                v0[k] = sum / n;
            }
        }
        let shares0: Vec<f64> = pairs.iter().map(|p| p / total_pairs).collect();
        let mut b = Brute {
            values: [v0.clone(), v0],
            throws: [shares0.clone(), shares0],
            shares: [vec![0.0; 169], vec![0.0; 169]],
            averaged: 0,
            changes: Vec::new(),
        };
        // Every hand, its choices (discard order), their hand sums.
        let mut hands: Vec<(Vec<Card>, Vec<(Card, Card)>, Vec<f64>)> = Vec::new();
        let n = cards.len();
        let mut idx: Vec<usize> = (0..dealt).collect();
        loop {
            let hand: Vec<Card> = idx.iter().map(|&i| cards[i]).collect();
            let unseen: Vec<Card> = cards.iter().copied().filter(|c| !hand.contains(c)).collect();
            let mut choices = Vec::new();
            let mut sums = Vec::new();
            for j in 1..dealt {
                for i in 0..j {
                    let kept = hand.iter().enumerate().filter(|&(x, _)| x != i && x != j);
                    let kept = kept.fold(Hand::new(), |h, (_, &c)| h.with(c));
                    choices.push((hand[i], hand[j]));
                    sums.push(unseen.iter().map(|&s| score_show(kept, s, false).unwrap() as f64).sum::<f64>());
                }
            }
            hands.push((hand, choices, sums));
            // Next combination.
            let mut p = dealt;
            while p > 0 && idx[p - 1] == n - dealt + p - 1 {
                p -= 1;
            }
            if p == 0 {
                break;
            }
            idx[p - 1] += 1;
            for q in p..dealt {
                idx[q] = idx[q - 1] + 1;
            }
        }
        let all = hands.len() as f64;
        let unseen_n = (n - dealt) as f64;
        let mut cache: HashMap<(usize, usize), Vec<(usize, f64, f64)>> = HashMap::new();
        let mut history: Vec<[Vec<f64>; 2]> = Vec::new();

        let mut t = DiscardTables::initial_in(variant, flushes, TablesModel::Conditioned, pack).unwrap();
        for pass in 0..=passes {
            for role in 0..2 {
                for k in 0..169 {
                    assert!(
                        (t.values_of(role)[k] - b.values[role][k]).abs() < 1e-8,
                        "pass {pass} role {role} kind {k}"
                    );
                    assert!(
                        (t.throws[role][k] - b.throws[role][k]).abs() < 1e-12,
                        "pass {pass} role {role} kind {k}: {} vs {}; averaged {} {}",
                        t.throws[role][k],
                        b.throws[role][k],
                        t.averaged,
                        b.averaged
                    );
                }
            }
            assert_eq!(t.changes.len(), b.changes.len());
            for (x, y) in t.changes.iter().zip(&b.changes) {
                assert!((x - y).abs() < 1e-8, "changes {:?} vs {:?}", t.changes, b.changes);
            }
            assert_eq!(t.averaged, b.averaged, "pass {pass}");
            if pass == passes {
                break;
            }
            // The brute pass.
            let w: [Vec<f64>; 2] = core::array::from_fn(|role| {
                (0..169).map(|k| if pairs[k] > 0.0 { b.throws[role][k] / pairs[k] } else { 0.0 }).collect()
            });
            let mut counts = [vec![0.0; 169], vec![0.0; 169]];
            // Each hand's crib rounded to 2^-32 and summed exactly, as the tables do: the pack's
            // symmetries make exact ties between throws, which the two computations must see alike.
            let mut cribs = [vec![0u64; 169], vec![0u64; 169]];
            for (h, (hand, choices, sums)) in hands.iter().enumerate() {
                // The best, the first of equal ones.
                let (mut best, mut at) = ([f64::NEG_INFINITY; 2], [0usize; 2]);
                for (c, &(x, y)) in choices.iter().enumerate() {
                    let v =
                        [sums[c] / unseen_n + b.values[0][kind(x, y)], sums[c] / unseen_n - b.values[1][kind(x, y)]];
                    for role in 0..2 {
                        if v[role] > best[role] {
                            best[role] = v[role];
                            at[role] = c;
                        }
                    }
                }
                for role in 0..2 {
                    let (x, y) = choices[at[role]];
                    let cases = cache.entry((h, at[role])).or_insert_with(|| {
                        let left: Vec<Card> = cards.iter().copied().filter(|c| !hand.contains(c)).collect();
                        per_kind((x, y), &left, flushes)
                    });
                    counts[role][kind(x, y)] += 1.0;
                    cribs[role][kind(x, y)] += (weighted(cases, &w[1 - role]) * CRIB_UNIT).round() as u64;
                }
            }
            let c = &b.changes;
            let repeats = history.len() >= 2 && counts == history[history.len() - 2];
            let n = c.len();
            let stalls = n >= 3 && c[n - 1] >= c[n - 3];
            let cycling = b.averaged == 0 && (repeats || stalls);
            history.push(counts.clone());
            let old = [table(&b.values[0], &b.throws[0]), table(&b.values[1], &b.throws[1])];
            let m = if b.averaged > 0 || cycling {
                if cycling {
                    2
                } else {
                    b.averaged + 1
                }
            } else {
                1
            };
            for role in 0..2 {
                for k in 0..169 {
                    let (f, s) = (counts[role][k] / all, cribs[role][k] as f64 / CRIB_UNIT / all);
                    if m == 1 {
                        (b.throws[role][k], b.shares[role][k]) = (f, s);
                    } else {
                        b.throws[role][k] += (f - b.throws[role][k]) / m as f64;
                        b.shares[role][k] += (s - b.shares[role][k]) / m as f64;
                    }
                }
            }
            b.averaged = if m == 1 { 0 } else { m };
            let mut change = 0.0f64;
            for role in 0..2 {
                for k in 0..169 {
                    let new =
                        if b.throws[role][k] > 0.0 { b.shares[role][k] / b.throws[role][k] } else { b.values[role][k] };
                    change = change.max((new - b.values[role][k]).abs());
                    b.values[role][k] = new;
                }
                let now = table(&b.values[role], &b.throws[role]);
                for k in 0..169 {
                    change = change.max((now[k] - old[role][k]).abs());
                }
            }
            b.changes.push(change);
            t = t.step().unwrap();
            t.check().unwrap(); // every pass's tables pass the check of loaded ones
        }
        assert!(t.averaged > 0 || t.last_change() < 1e-9, "the test should reach the averaging or a fixed point");
    }

    impl DiscardTables {
        fn values_of(&self, role: usize) -> &[f64; THROW_KINDS] {
            if role == 0 {
                &self.values.dealer
            } else {
                &self.values.pone
            }
        }
    }

    #[test]
    fn check_refuses_damaged_tables_naming_the_field() {
        let (pack, _) = pack_of(&[3, 4, 5, 10], 3);
        let t = DiscardTables::initial_in(Variant::FiveCard, true, TablesModel::Conditioned, pack).unwrap();
        t.check().unwrap();
        let t1 = t.step().unwrap();
        t1.check().unwrap();
        type Damage = fn(&mut DiscardTables);
        let cases: [(Damage, &str); 11] = [
            (|t| t.values.dealer[12] = f64::NAN, "dealer_values[12] is NaN"),
            (|t| t.values.pone[0] = f64::INFINITY, "pone_values[0] is inf"),
            (|t| t.values.pone[3] = -0.5, "pone_values[3] is -0.5"),
            (|t| t.values.dealer[1] = 30.0, "dealer_values[1] is 30"),
            (|t| t.throws[1][7] = f64::NEG_INFINITY, "pone_throws[7] is -inf"),
            (|t| t.throws[0][0] += 0.5, "dealer_throws sum to"),
            (|t| t.crib_shares[0][5] = -1.0, "dealer_crib_shares[5] is -1"),
            (|t| t.changes.push(0.5), "changes hold 2 values for 1 iterations"),
            (|t| t.averaged = 2, "averaged is 2, more than the 1 iterations"),
            (|t| t.sums.hands -= 1, "sums.hands is"),
            (|t| t.sums_before.counts[1][4] += 1, "sums_before.pone count 1 hands, not 0"),
        ];
        for (damage, message) in cases {
            let mut bad = t1.clone();
            damage(&mut bad);
            let err = bad.check().unwrap_err().to_string();
            assert!(err.starts_with(message), "{err:?} should start with {message:?}");
        }
    }

    #[test]
    fn six_card_no_flushes_in_a_pack_of_four_ranks_three_suits() {
        // 4, 5, 6 and J: fifteens, runs, pairs and nobs all happen.
        check(&[3, 4, 5, 10], 3, 6, Variant::SixCard, false, 12);
    }

    #[test]
    fn five_card_with_flushes_in_a_pack_of_five_ranks_three_suits() {
        // A suit of five cards: crib flushes happen.
        check(&[2, 3, 4, 10, 12], 3, 5, Variant::FiveCard, true, 12);
    }

    #[test]
    fn pass_cribs_are_analyze_discard_cribs() {
        // Over a range of five-card classes, with lopsided weights: each hand's chosen throw is
        // valued by exactly analyze_discard's crib (the same routine), summed in fixed point.
        let mut t = DiscardTables::initial(Variant::FiveCard, true, TablesModel::Conditioned).unwrap();
        for role in 0..2 {
            for k in 0..THROW_KINDS {
                t.throws[role][k] *= 1.0 + ((k * 7 + role * 3) % 5) as f64;
            }
        }
        let all = classes(Variant::FiveCard);
        let (start, stop) = (60_000, 60_400);
        let sums = t.pass(start, stop).unwrap();
        let mut expect = PassSums::default();
        for &(mask, mult) in &all[start..stop] {
            let hand = Hand::from_mask(mask).unwrap();
            for (role, dealer) in [(0, true), (1, false)] {
                let mut rows = [super::super::discard::DiscardRow::default(); MAX_CHOICES];
                let k = super::super::discard::analyze_fixed(hand, dealer, &t.pair_weights(!dealer), &mut rows);
                let mut best = 0;
                let value = |r: &super::super::discard::DiscardRow| {
                    let mut it = r.thrown.iter();
                    let kind = throw_kind(it.next().unwrap(), it.next().unwrap());
                    (kind, if dealer { r.hand + t.values.dealer[kind] } else { r.hand - t.values.pone[kind] })
                };
                for i in 1..k {
                    if value(&rows[i]).1 > value(&rows[best]).1 {
                        best = i;
                    }
                }
                let kind = value(&rows[best]).0;
                expect.counts[role][kind] += mult as u64;
                expect.cribs[role][kind] += crib_units(rows[best].crib) * mult as u64;
                let mut it = rows[best].thrown.iter();
                let (a, b) = (it.next().unwrap(), it.next().unwrap());
                assert_eq!(rows[best].crib, hand_crib(hand, a, b, &t.pair_weights(!dealer), true, FULL_PACK));
            }
            expect.hands += mult as u64;
        }
        assert_eq!(sums, expect);
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// `cargo test --release --lib discard_tables::timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn time_both_variants() {
        let only: Option<String> = std::env::var("TABLES_ONLY").ok(); // e.g. "six-card"
        for variant in [Variant::FiveCard, Variant::SixCard] {
            if only.as_deref().is_some_and(|o| o != variant.name()) {
                continue;
            }
            for (flushes, model) in
                [(false, TablesModel::Conditioned), (true, TablesModel::Conditioned), (false, TablesModel::ThrownOnly)]
            {
                let t0 = std::time::Instant::now();
                let mut run = TablesRun::new(variant, flushes, model).unwrap();
                let t1 = t0.elapsed();
                while run.tables().iterations < 50 && run.step().unwrap() >= 1e-4 {}
                let t = run.tables();
                println!(
                    "{variant:?} {model:?} flushes={flushes}: {} classes, set-up {:.2?}, total {:.2?}, {} iterations, changes {}",
                    classes(variant).len(),
                    t1,
                    t0.elapsed(),
                    t.iterations,
                    t.changes.iter().map(|c| format!("{c:.1e}")).collect::<Vec<_>>().join(" ")
                );
                let d = t.dealer_table();
                let p = t.pone_table();
                println!(
                    "dealer 5-5 {:.3} 5-J {:.3} K-9 {:.3}; pone 5-5 {:.3} K-9 {:.3}",
                    d[4][4], d[4][10], d[12][8], p[4][4], p[12][8]
                );
            }
        }
    }
}
