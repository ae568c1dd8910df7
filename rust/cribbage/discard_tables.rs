//! Equilibrium discard tables: the average crib for each thrown rank pair, for the dealer's throw
//! to his own crib and for pone's throw to the dealer's crib, by iterated best response.
//!
//! # The method
//!
//! A *throw kind* is a rank pair, suited or not ([`throw_kind`]). The state of the iteration is
//! two tables of values by kind, [`CribValues`]: `dealer[k]` is the expected crib when the dealer
//! throws a pair of kind `k` and pone throws by pone's strategy, `pone[k]` the expected crib when
//! pone throws kind `k` and the dealer throws by the dealer's strategy.
//!
//! 1. **Start** (iteration 0): both opponents throw every pair of cards alike.
//! 2. **Best response** ([`DiscardTables::pass`]): every hand that can be dealt (every
//!    `dealt`-card hand, taken once per suit-isomorphism class with its multiplicity) chooses, as
//!    dealer, the discard maximizing `E[hand] + dealer[kind]` and, as pone, the one maximizing
//!    `E[hand] − pone[kind]` (`E[hand]` exact over the `52 − dealt` unseen starters; ties go to the
//!    first choice in discard order). The pass counts, per role, the hands throwing each kind.
//! 3. **Update** ([`DiscardTables::advance`]): a card pair of kind `k` is thrown by a role with
//!    weight `count[k] / pairs of kind k in the pack`. `dealer[k]` is recomputed exactly over
//!    every pair pone can throw from the 50 other cards, so weighted, and every starter from the
//!    48 left; `pone[k]` the same way with the dealer's weights.
//! 4. Repeat 2–3 until the largest change of a value or of a reported table entry is below the
//!    tolerance, or the iteration limit. Pure best responses end in a cycle of period two: a few
//!    hands whose two best discards are within a hair flip back and forth. When the changes stop
//!    shrinking, step 3 switches to the running average of the best responses (fictitious play),
//!    which settles where those hands split: the mixed equilibrium (see [`DiscardTables::advance`]).
//!
//! **Simplification** (card removal): in step 3 the other player's throw and the starter are
//! conditioned on the two thrown cards only, not on the 4 (five-card: 3) cards each player keeps;
//! and a throw's weight depends only on its kind. The choices in step 2 use the value of the
//! throw's kind, so a suited throw is valued as suited (with `flushes=False`, where crib flushes
//! score nothing, suited and off-suit values differ only by card removal).
//!
//! The reported 13 × 13 tables ([`DiscardTables::dealer_table`], [`DiscardTables::pone_table`])
//! average a rank pair's suited and off-suit values by how often each is thrown in the last pass.
//!
//! The pass over the hand classes splits into ranges whose [`PassSums`] add up (integer counts,
//! so any split gives the same tables): this is how it is distributed.

use rayon::prelude::*;
use std::sync::OnceLock;

use super::card::{Card, Hand};
use super::discard::{check_variant, kind_pairs_in_pack, throw_kind, MAX_CHOICES, THROW_KINDS};
use super::game::Variant;
use super::show::score_show_unchecked;
use crate::error::{Error, Result};

/// Expected crib per throw kind, for each role (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CribValues {
    /// The dealer throws this kind to his own crib.
    pub dealer: [f64; THROW_KINDS],
    /// Pone throws this kind to the dealer's crib.
    pub pone: [f64; THROW_KINDS],
}

/// One pass's partial sums over a range of hand classes: per role (0 dealer, 1 pone) the number
/// of hands throwing each kind, and the hands covered. Sums of disjoint ranges add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassSums {
    /// `counts[role][kind]`: hands (with multiplicity) whose best discard throws `kind`.
    pub counts: [[u64; THROW_KINDS]; 2],
    /// Hands covered (each class counted with its multiplicity).
    pub hands: u64,
}

impl Default for PassSums {
    fn default() -> PassSums {
        PassSums { counts: [[0; THROW_KINDS]; 2], hands: 0 }
    }
}

impl PassSums {
    /// Add another range's sums.
    pub fn add(&mut self, other: &PassSums) {
        for role in 0..2 {
            for (a, b) in self.counts[role].iter_mut().zip(&other.counts[role]) {
                *a += b;
            }
        }
        self.hands += other.hands;
    }
}

/// Options of [`discard_tables`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TablesOptions {
    /// Count crib flushes (`false`: a crib flush scores nothing, like the classic tables).
    pub flushes: bool,
    /// The most best-response passes.
    pub max_iterations: usize,
    /// Stop when the largest change is below this.
    pub tolerance: f64,
}

impl Default for TablesOptions {
    fn default() -> TablesOptions {
        TablesOptions { flushes: true, max_iterations: 50, tolerance: 1e-4 }
    }
}

/// Equilibrium discard tables (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardTables {
    /// The game: six-card or five-card.
    pub variant: Variant,
    /// Whether crib flushes count.
    pub flushes: bool,
    /// The values by throw kind the players decide by.
    pub values: CribValues,
    /// Per role (0 dealer, 1 pone), the share of hands throwing each kind in the strategy the
    /// values are computed from (iteration 0: the pack's share of card pairs of each kind).
    pub throws: [[f64; THROW_KINDS]; 2],
    /// Passes averaged into `throws` (0: the last pass's best responses alone).
    pub averaged: usize,
    /// The last pass's sums (all zero at iteration 0).
    pub sums: PassSums,
    /// Best-response passes done.
    pub iterations: usize,
    /// The largest change of each pass.
    pub changes: Vec<f64>,
}

/// Suit-isomorphism classes of a variant's dealt hands: (mask, multiplicity), built once.
fn classes(variant: Variant) -> &'static [(u64, u8)] {
    static SIX: OnceLock<Vec<(u64, u8)>> = OnceLock::new();
    static FIVE: OnceLock<Vec<(u64, u8)>> = OnceLock::new();
    let cell = if variant == Variant::SixCard { &SIX } else { &FIVE };
    cell.get_or_init(|| enumerate_classes(variant.cards_dealt() as u32))
}

/// Every hand of `n` cards with its suit lanes in non-increasing order of (cards, mask) — one hand
/// per suit-isomorphism class — and the number of hands in its class (24 / the orders of the
/// equal lanes).
fn enumerate_classes(n: u32) -> Vec<(u64, u8)> {
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
    ) {
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
            return;
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
                rec(level + 1, left - pop, (pop, m), lanes, by_pop, out);
            }
        }
    }
    rec(0, n, (13, (1 << 13) - 1), &mut [0; 4], &by_pop, &mut out);
    out.sort_unstable();
    out
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

/// Per class and choice: the hand's score summed over the unseen starters, and the throw kind.
#[derive(Clone, Copy)]
struct ClassChoices {
    hand_sums: [u16; MAX_CHOICES],
    kinds: [u8; MAX_CHOICES],
    choices: u8,
    mult: u8,
}

fn class_choices(mask: u64, mult: u8) -> ClassChoices {
    let hand = Hand::from_mask(mask).expect("class masks are cards");
    let mut cards = [Card::from_index_const(0); 6];
    let mut n = 0;
    for c in hand.iter() {
        cards[n] = c;
        n += 1;
    }
    let unseen = 0x1FFF_1FFF_1FFF_1FFFu64 & !mask;
    let mut out = ClassChoices { hand_sums: [0; MAX_CHOICES], kinds: [0; MAX_CHOICES], choices: 0, mult };
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            let mut kept = hand;
            kept.remove(cards[i]);
            kept.remove(cards[j]);
            let mut sum = 0u16;
            let mut m = unseen;
            while m != 0 {
                sum += score_show_unchecked(kept, Card::from_index(m.trailing_zeros()), false) as u16;
                m &= m - 1;
            }
            out.hand_sums[k] = sum;
            out.kinds[k] = throw_kind(cards[i], cards[j]) as u8;
            k += 1;
        }
    }
    out.choices = k as u8;
    out
}

/// The best choice's kind for the dealer and for pone.
#[inline]
fn best_kinds(c: &ClassChoices, values: &CribValues, unseen: f64) -> (usize, usize) {
    let (mut best_d, mut best_p) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut kind_d, mut kind_p) = (0, 0);
    for i in 0..c.choices as usize {
        let hand = c.hand_sums[i] as f64 / unseen;
        let kind = c.kinds[i] as usize;
        let d = hand + values.dealer[kind];
        let p = hand - values.pone[kind];
        if d > best_d {
            best_d = d;
            kind_d = kind;
        }
        if p > best_p {
            best_p = p;
            kind_p = kind;
        }
    }
    (kind_d, kind_p)
}

fn pass_over(choices: impl Iterator<Item = ClassChoices>, values: &CribValues, unseen: f64) -> PassSums {
    let mut sums = PassSums::default();
    for c in choices {
        let (d, p) = best_kinds(&c, values, unseen);
        sums.counts[0][d] += c.mult as u64;
        sums.counts[1][p] += c.mult as u64;
        sums.hands += c.mult as u64;
    }
    sums
}

/// Block of classes per parallel task.
const BLOCK: usize = 4096;

/// One best-response pass over classes `start..stop` (see [`DiscardTables::pass`]).
pub fn discard_tables_pass(tables: &DiscardTables, start: usize, stop: usize) -> Result<PassSums> {
    tables.pass(start, stop)
}

fn combine(parts: impl ParallelIterator<Item = PassSums>) -> PassSums {
    parts.reduce(PassSums::default, |mut a, b| {
        a.add(&b);
        a
    })
}

/// The crib of four cards and a starter, without the crib flush when `flushes` is off.
#[inline(always)]
fn crib_points(crib: Hand, starter: Card, flushes: bool) -> u32 {
    let points = score_show_unchecked(crib, starter, true) as u32;
    if flushes {
        return points;
    }
    let all = crib.mask() | starter.bit();
    let lane = 0xFFFFu64 << (all.trailing_zeros() & 0x30);
    points - if all & !lane == 0 { 5 } else { 0 }
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

/// Expected crib when one player throws `kind` and the other throws card pairs weighted by
/// `weights` (per card pair of each kind), the starter uniform over the 48 cards left.
fn crib_given(kind: usize, weights: &[f64; THROW_KINDS], flushes: bool) -> f64 {
    let (a, b) = representative(kind);
    let thrown = Hand::new().with(a).with(b);
    let mut rest = [Card::from_index_const(0); 50];
    let mut n = 0;
    for c in Card::all() {
        if c != a && c != b {
            rest[n] = c;
            n += 1;
        }
    }
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        for j in i + 1..n {
            let w = weights[throw_kind(rest[i], rest[j])];
            if w == 0.0 {
                continue;
            }
            let crib = thrown.with(rest[i]).with(rest[j]);
            let mut sum = 0u32;
            for (k, &s) in rest[..n].iter().enumerate() {
                if k != i && k != j {
                    sum += crib_points(crib, s, flushes);
                }
            }
            num += w * sum as f64;
            den += w * (n - 2) as f64;
        }
    }
    num / den
}

fn values_from_weights(
    dealer_weights: &[f64; THROW_KINDS],
    pone_weights: &[f64; THROW_KINDS],
    flushes: bool,
) -> CribValues {
    // The dealer's throw meets pone's, and the other way round.
    let both: Vec<f64> = (0..2 * THROW_KINDS)
        .into_par_iter()
        .map(|i| {
            if i < THROW_KINDS {
                crib_given(i, pone_weights, flushes)
            } else {
                crib_given(i - THROW_KINDS, dealer_weights, flushes)
            }
        })
        .collect();
    CribValues { dealer: core::array::from_fn(|k| both[k]), pone: core::array::from_fn(|k| both[THROW_KINDS + k]) }
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The fraction of all card pairs of each kind (iteration 0: every pair alike).
fn pack_fractions() -> [f64; THROW_KINDS] {
    core::array::from_fn(|k| kind_pairs_in_pack(k) / 1326.0)
}

impl DiscardTables {
    /// Iteration 0: the values when every opponent pair of cards is equally likely.
    pub fn initial(variant: Variant, flushes: bool) -> Result<DiscardTables> {
        check_variant(variant)?;
        let ones = [1.0; THROW_KINDS];
        Ok(DiscardTables {
            variant,
            flushes,
            values: values_from_weights(&ones, &ones, flushes),
            throws: [pack_fractions(); 2],
            averaged: 0,
            sums: PassSums::default(),
            iterations: 0,
            changes: Vec::new(),
        })
    }

    /// The best-response pass over hand classes `start..stop` (of [`discard_classes`]) at these
    /// tables' values: partial sums that [`PassSums::add`] combines and [`advance`](Self::advance)
    /// turns into the next tables. Runs on rayon's pool.
    pub fn pass(&self, start: usize, stop: usize) -> Result<PassSums> {
        let all = classes(self.variant);
        if start > stop || stop > all.len() {
            return Err(Error::InvalidValue(format!(
                "class range {start}..{stop} is not within 0..{} (the number of classes)",
                all.len()
            )));
        }
        let unseen = (52 - self.variant.cards_dealt()) as f64;
        let values = self.values;
        Ok(combine(
            all[start..stop]
                .par_chunks(BLOCK)
                .map(|block| pass_over(block.iter().map(|&(mask, mult)| class_choices(mask, mult)), &values, unseen)),
        ))
    }

    /// The next tables from a whole pass's sums (every class counted once: `sums.hands` must be
    /// every possible hand, C(52, dealt)).
    ///
    /// The throws the values are computed from are the pass's best responses, until the changes
    /// stop shrinking (the last change is no smaller than the one two passes before: a few hands
    /// whose two best discards are within a hair flip back and forth); from then on they are
    /// the running average of the best responses since the pass before (fictitious play), which
    /// settles where those hands split.
    pub fn advance(&self, sums: &PassSums) -> Result<DiscardTables> {
        let all_hands = binomial(52, self.variant.cards_dealt() as u64);
        let counted: [u64; 2] = [sums.counts[0].iter().sum(), sums.counts[1].iter().sum()];
        if sums.hands != all_hands || counted != [all_hands; 2] {
            return Err(Error::InvalidValue(format!(
                "the pass sums cover {} of the {all_hands} hands: add the sums of every class range exactly once",
                sums.hands
            )));
        }
        let fractions: [[f64; THROW_KINDS]; 2] =
            core::array::from_fn(|role| core::array::from_fn(|k| sums.counts[role][k] as f64 / all_hands as f64));
        let c = &self.changes;
        let cycling = self.averaged == 0 && c.len() >= 3 && c[c.len() - 1] >= c[c.len() - 3];
        let (throws, averaged) = if self.averaged > 0 || cycling {
            // Average: at the switch the previous pass's responses and this one's; then running.
            let n = if cycling { 2 } else { self.averaged + 1 };
            let mut t = self.throws;
            for role in 0..2 {
                for k in 0..THROW_KINDS {
                    t[role][k] += (fractions[role][k] - t[role][k]) / n as f64;
                }
            }
            (t, n)
        } else {
            (fractions, 0)
        };
        let weights =
            |role: usize| -> [f64; THROW_KINDS] { core::array::from_fn(|k| throws[role][k] / kind_pairs_in_pack(k)) };
        let values = values_from_weights(&weights(0), &weights(1), self.flushes);
        let mut next = DiscardTables {
            variant: self.variant,
            flushes: self.flushes,
            values,
            throws,
            averaged,
            sums: *sums,
            iterations: self.iterations + 1,
            changes: self.changes.clone(),
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
        let sums = self.pass(0, classes(self.variant).len())?;
        self.advance(&sums)
    }

    /// The last change (infinite before the first pass).
    pub fn last_change(&self) -> f64 {
        self.changes.last().copied().unwrap_or(f64::INFINITY)
    }

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
        core::array::from_fn(|k| throws[k] / kind_pairs_in_pack(k))
    }
}

/// The iteration of [`discard_tables`], one pass at a time, with each class's hand values computed
/// once (the passes then cost a few milliseconds).
pub struct TablesRun {
    choices: Vec<ClassChoices>,
    tables: DiscardTables,
}

impl TablesRun {
    /// Iteration 0 of a variant's tables (computes every class's hand values: a few seconds).
    pub fn new(variant: Variant, flushes: bool) -> Result<TablesRun> {
        let tables = DiscardTables::initial(variant, flushes)?;
        let choices = classes(variant).par_iter().map(|&(mask, mult)| class_choices(mask, mult)).collect();
        Ok(TablesRun { choices, tables })
    }

    /// One more pass; returns its change. Equal to [`DiscardTables::step`].
    pub fn step(&mut self) -> Result<f64> {
        let unseen = (52 - self.tables.variant.cards_dealt()) as f64;
        let values = self.tables.values;
        let sums =
            combine(self.choices.par_chunks(BLOCK).map(|block| pass_over(block.iter().copied(), &values, unseen)));
        self.tables = self.tables.advance(&sums)?;
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
    let mut run = TablesRun::new(variant, options.flushes)?;
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
        let t = DiscardTables::initial(Variant::FiveCard, true).unwrap();
        let n = discard_classes(Variant::FiveCard).unwrap();
        let whole = t.pass(0, n).unwrap();
        let mut parts = t.pass(0, 1000).unwrap();
        parts.add(&t.pass(1000, 50_000).unwrap());
        parts.add(&t.pass(50_000, n).unwrap());
        assert_eq!(parts, whole);
        assert!(t.advance(&t.pass(0, 1000).unwrap()).is_err());
        assert!(t.pass(5, 4).is_err() && t.pass(0, n + 1).is_err());
        let mut run = TablesRun::new(Variant::FiveCard, true).unwrap();
        run.step().unwrap();
        assert_eq!(run.tables(), &t.advance(&whole).unwrap());
    }

    #[test]
    fn initial_values_match_a_uniform_analysis() {
        // With every opponent pair alike, the dealer's value of throwing 5D 5H equals the crib
        // term of analyze_discard for a hand throwing them... up to card removal of the kept
        // cards, so compare with the direct definition instead: 5-5 is worth far more than K-9.
        let t = DiscardTables::initial(Variant::SixCard, true).unwrap();
        let d = t.dealer_table();
        assert!(d[4][4] > 8.0 && d[4][4] < 9.5, "{}", d[4][4]);
        assert!(d[12][8] < 4.5, "{}", d[12][8]);
        for r in 0..13 {
            for c in 0..13 {
                assert_eq!(d[r][c], d[c][r]);
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// `cargo test --release --lib discard_tables::timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn time_both_variants() {
        for variant in [Variant::FiveCard, Variant::SixCard] {
            for flushes in [true, false] {
                let t0 = std::time::Instant::now();
                let mut run = TablesRun::new(variant, flushes).unwrap();
                let t1 = t0.elapsed();
                while run.tables().iterations < 50 && run.step().unwrap() >= 1e-4 {}
                let t = run.tables();
                println!(
                    "{variant:?} flushes={flushes}: {} classes, set-up {:.2?}, total {:.2?}, {} iterations, changes {}",
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
