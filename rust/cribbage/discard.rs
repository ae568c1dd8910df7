//! Discard analysis for the two-player games: every way to throw two cards to the crib, with the
//! exact expected hand over every starter and the exact expected crib over every starter and
//! every discard the opponent can make from the unseen cards.
//!
//! # The model
//!
//! The analysing player holds `hand` (6 cards in six-card cribbage, 5 in five-card; rules
//! `docs/rules/cribbage.md` §4). The other `52 − dealt` cards are *unseen*. The opponent throws two
//! of them to the crib and the starter is one of the rest. In both games the crib is the two
//! thrown cards of each player plus the starter.
//!
//! * **hand**: the mean of `score_hand(kept, s)` over every unseen starter `s` (the opponent's cards
//!   are unseen too, so each unseen card is equally likely to be the starter), with its minimum,
//!   maximum and the number of starters giving each score.
//! * **crib**: the weighted mean of `score_crib(thrown + {a, b}, s)` over every unseen pair
//!   `{a, b}` the opponent may throw and every other unseen starter `s`. [`Opponent::Uniform`] weighs
//!   every pair alike: then it is the exact expectation when the opponent's throw is uniform among
//!   its own cards, whatever they are. [`Opponent::Tables`] weighs a pair by how often the
//!   opponent's role throws a card pair of that kind (its rank pair, suited or not) in the tables'
//!   equilibrium, per card pair of that kind in the pack ([`DiscardTables::pair_weights`]): the
//!   *simplification* is that a pair's weight depends only on its kind and that the starter stays
//!   uniform among the rest, i.e. the opponent's other cards are not conditioned on its throw.
//!   This is the routine the [conditioned](super::TablesModel::Conditioned) tables are made of: their
//!   entry for a kind is the mean of this crib over the hands that throw the kind (against the
//!   tables of the pass before, which at the fixed point are the same tables).
//! * **heels**: the dealer's expected points for a jack starter, `2 × unseen jacks / unseen cards`
//!   (the same for every discard; reported in both roles, as the points the dealer gets).
//! * **net**: the dealer's `hand + crib + heels`, pone's `hand − crib − heels` (the points this
//!   deal's show and cut are expected to bring to the player, minus those they bring the
//!   opponent through the crib and the cut).
//!
//! Rows are sorted by `net` (highest first), then `hand` (highest first), then the discard order:
//! the thrown pair's [`pair_action`](super::pair_action) id, ascending.
//!
//! # How it is fast
//!
//! The fifteens, pairs and runs of a crib depend only on its ranks, so the crib sum is taken over
//! rank triples (the opponent's two ranks, the starter's rank) with the number (or weight) of unseen
//! card combinations behind each: 91 × 13 table lookups per discard instead of ~45,000 shows.
//! Flushes and nobs, which depend on suits, are added exactly from per-card sums. No allocation.

use super::card::{Card, Hand, FULL_PACK};
use super::game::Variant;
use super::show::score_show_unchecked;
use crate::batch::{try_zeroed, CardId, IdRows, Zeroed};
use crate::error::{Error, Result};

use super::crib::{check_variant, rank_slot, CribContext, Unseen, MAX_CHOICES, THROW_KINDS};
use super::discard_tables::DiscardTables;

/// Whose discards the crib term assumes.
#[derive(Debug, Clone, Copy)]
pub enum Opponent<'a> {
    /// Every pair of unseen cards equally likely.
    Uniform,
    /// Pairs weighted by the opponent role's throws in these equilibrium tables
    /// (see the module docs for the model).
    Tables(&'a DiscardTables),
}

/// One discard choice and its expectations.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DiscardRow {
    /// The cards kept (4, or 3 in five-card cribbage).
    pub kept: Hand,
    /// The two cards thrown to the crib.
    pub thrown: Hand,
    /// Expected hand score over every unseen starter.
    pub hand: f64,
    /// The lowest hand score over the starters.
    pub hand_min: u8,
    /// The highest hand score over the starters.
    pub hand_max: u8,
    /// Number of starters giving each hand score 0..=29.
    pub hand_distribution: [u32; 30],
    /// Expected crib score (over the opponent's throws and the starter).
    pub crib: f64,
    /// The dealer's expected heels (2 for a jack starter).
    pub heels: f64,
    /// `hand + crib + heels` for the dealer, `hand − crib − heels` for pone.
    pub net: f64,
}

/// Per-card-pair weights of each throw kind for the opponent (all 1 for [`Opponent::Uniform`]).
pub(crate) fn opponent_weights(variant: Variant, dealer: bool, opponent: Opponent<'_>) -> Result<[f64; THROW_KINDS]> {
    check_variant(variant)?;
    match opponent {
        Opponent::Uniform => Ok([1.0; THROW_KINDS]),
        Opponent::Tables(t) => {
            if !t.full_pack() {
                return Err(Error::InvalidValue("the discard tables are for a reduced pack".into()));
            }
            if t.variant != variant {
                return Err(Error::InvalidValue(format!(
                    "the discard tables are for {}, the analysis for {}",
                    t.variant.name(),
                    variant.name()
                )));
            }
            // The opponent of the dealer is pone, and the other way round.
            Ok(t.pair_weights(!dealer))
        }
    }
}

fn check_hand(hand: Hand, variant: Variant) -> Result<()> {
    let dealt = variant.cards_dealt();
    if hand.len() != dealt {
        let expected = if dealt == 6 { "6" } else { "5" };
        return Err(Error::WrongCardCount { what: "hand to discard from", expected, got: hand.len() });
    }
    Ok(())
}

/// Analyse every discard of a two-player hand (six-card: 6 cards, 15 rows; five-card: 5 cards,
/// 10 rows), sorted best `net` first (see the module docs for the model and the order).
///
/// ```
/// use cribpiquet::cribbage::{analyze_discard, Opponent, Variant};
/// let rows = analyze_discard("5H 5D 5S JC 2C 9H".parse().unwrap(), true, Variant::SixCard, Opponent::Uniform).unwrap();
/// assert_eq!(rows.len(), 15);
/// assert_eq!(rows[0].kept.to_string(), "JC 5D 5H 5S"); // keep 5-5-5-J, throw 2-9 to one's own crib
/// assert!(rows.windows(2).all(|w| w[0].net >= w[1].net));
/// ```
pub fn analyze_discard(hand: Hand, dealer: bool, variant: Variant, opponent: Opponent<'_>) -> Result<Vec<DiscardRow>> {
    let weights = opponent_weights(variant, dealer, opponent)?;
    check_hand(hand, variant)?;
    let mut rows = [DiscardRow::default(); MAX_CHOICES];
    let n = analyze_fixed(hand, dealer, &weights, &mut rows);
    let mut out = rows[..n].to_vec();
    sort_rows(&mut out);
    Ok(out)
}

/// Best first: `net`, then `hand`, both descending; then the discard order (stable sort).
pub(crate) fn sort_rows(rows: &mut [DiscardRow]) {
    rows.sort_by(|a, b| b.net.total_cmp(&a.net).then(b.hand.total_cmp(&a.hand)));
}

/// The index (in discard order) of the best row of `rows` by the order of [`sort_rows`].
pub(crate) fn best_index(rows: &[DiscardRow]) -> usize {
    let mut best = 0;
    for (i, r) in rows.iter().enumerate().skip(1) {
        let b = &rows[best];
        if r.net.total_cmp(&b.net).then(r.hand.total_cmp(&b.hand)).is_gt() {
            best = i;
        }
    }
    best
}

/// Every discard of a validated hand (5 or 6 cards) in discard order (thrown pair `(i, j)` of the
/// hand's cards in id order, `j` ascending then `i`: ascending pair-action ids); returns the count.
pub(crate) fn analyze_fixed(
    hand: Hand,
    dealer: bool,
    w: &[f64; THROW_KINDS],
    out: &mut [DiscardRow; MAX_CHOICES],
) -> usize {
    let mut cards = [Card::from_index_const(0); 6];
    let mut n = 0;
    for c in hand.iter() {
        cards[n] = c;
        n += 1;
    }
    let unseen = Unseen::new(hand, FULL_PACK);
    let Some(ctx) = CribContext::new(&unseen, w) else {
        // No unseen pair has any weight (tables where the opponent never throws these kinds):
        // every pair alike instead.
        return analyze_fixed(hand, dealer, &[1.0; THROW_KINDS], out);
    };
    let unseen_count = unseen.cards().len() as u32;
    let jacks_unseen = unseen.cards().iter().filter(|c| c.is_jack()).count() as f64;
    let heels = 2.0 * jacks_unseen / unseen_count as f64;

    // The rank part of the crib per thrown rank pair (shared by discards of the same ranks).
    let mut rank_cache = [f64::NAN; 91];
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            let (a, b) = (cards[i], cards[j]);
            let thrown = Hand::new().with(a).with(b);
            let mut kept = hand;
            kept.remove(a);
            kept.remove(b);
            // The hand over every starter.
            let mut dist = [0u32; 30];
            let mut hand_sum = 0u32;
            let (mut lo_score, mut hi_score) = (u8::MAX, 0u8);
            for &s in unseen.cards() {
                let score = score_show_unchecked(kept, s, false);
                dist[score as usize] += 1;
                hand_sum += score as u32;
                lo_score = lo_score.min(score);
                hi_score = hi_score.max(score);
            }
            // The crib: ranks first.
            let (ra, rb) = (a.rank().min(b.rank()) as usize, a.rank().max(b.rank()) as usize);
            let cache_slot = rank_slot(ra, rb);
            let mut ranks = rank_cache[cache_slot];
            if ranks.is_nan() {
                ranks = ctx.rank_part(&unseen.rank_points(ra as u8, rb as u8));
                rank_cache[cache_slot] = ranks;
            }
            let crib = ctx.crib(a, b, ranks, true);
            let hand_ev = hand_sum as f64 / unseen_count as f64;
            let net = if dealer { hand_ev + crib + heels } else { hand_ev - crib - heels };
            out[k] = DiscardRow {
                kept,
                thrown,
                hand: hand_ev,
                hand_min: lo_score,
                hand_max: hi_score,
                hand_distribution: dist,
                crib,
                heels,
                net,
            };
            k += 1;
        }
    }
    k
}

crate::batch::columns! {
    /// The columns of [`analyze_discard_batch`]: `rows × choices` values per quantity, row-major,
    /// each row's choices in discard order (ascending pair-action id of the thrown cards).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct DiscardColumns {
        /// Discard choices per hand: 15 (six-card) or 10 (five-card).
        pub choices: usize,
    }
    columns |d| let (rows, c) = (d.best.len(), d.choices); {
        /// Expected hand.
        pub hand: Vec<f64> = [rows, c],
        /// Expected crib.
        pub crib: Vec<f64> = [rows, c],
        /// The dealer's expected heels.
        pub heels: Vec<f64> = [rows, c],
        /// The net value.
        pub net: Vec<f64> = [rows, c],
        /// Lowest hand score.
        pub hand_min: Vec<u8> = [rows, c],
        /// Highest hand score.
        pub hand_max: Vec<u8> = [rows, c],
        /// Starters per hand score 0..=29: `rows × choices × 30`.
        pub hand_distribution: Vec<u8> = [rows, c, 30],
        /// The thrown cards' ids, lower first: `rows × choices × 2`.
        pub thrown: Vec<u8> = [rows, c, 2],
        /// Per row: the index of the best choice (the first row [`analyze_discard`] returns).
        pub best: Vec<u16> = rows,
    }
}

impl DiscardColumns {
    /// Bytes of the columns of `rows` hands of `choices` discards each.
    pub fn bytes_for(rows: usize, choices: usize) -> u128 {
        // hand, crib, heels, net (f64); hand_min, hand_max; 30 distribution and 2 thrown bytes.
        rows as u128 * (choices as u128 * (4 * 8 + 2 + 30 + 2) + 2)
    }

    /// Zeroed columns for `rows` hands of `choices` discards, allocated fallibly: an
    /// [`Error::OutOfMemory`] saying how much they need if they cannot be had.
    pub fn try_zeroed(rows: usize, choices: usize) -> Result<DiscardColumns> {
        fn zeros<T: Zeroed>(rows: usize, per_row: usize, choices: usize) -> Result<Vec<T>> {
            rows.checked_mul(per_row).and_then(try_zeroed).ok_or_else(|| {
                Error::OutOfMemory(format!(
                    "cannot hold the discard analyses of {rows} hands (about {} MiB); analyse fewer hands per call",
                    DiscardColumns::bytes_for(rows, choices) >> 20
                ))
            })
        }
        let c = choices;
        Ok(DiscardColumns {
            choices,
            hand: zeros(rows, c, c)?,
            hand_min: zeros(rows, c, c)?,
            hand_max: zeros(rows, c, c)?,
            hand_distribution: zeros(rows, c * 30, c)?,
            crib: zeros(rows, c, c)?,
            heels: zeros(rows, c, c)?,
            net: zeros(rows, c, c)?,
            thrown: zeros(rows, c * 2, c)?,
            best: zeros(rows, 1, c)?,
        })
    }
}

/// [`analyze_discard`] over N hands: `hands` is N rows of `dealt` ids (6 six-card, 5 five-card),
/// `dealers` one flag per row (or one for all). Every row is validated (ids 0..52, no card twice);
/// the error names the first bad row. Runs on all cores of rayon's pool.
///
/// ```
/// use cribpiquet::cribbage::{analyze_discard_batch, Opponent, Variant};
/// let cols = analyze_discard_batch(&[30u8, 17, 43, 10, 1, 34], &[true], Variant::SixCard, Opponent::Uniform).unwrap();
/// assert_eq!((cols.choices, cols.best.len()), (15, 1));
/// let best = cols.best[0] as usize;
/// assert_eq!(&cols.thrown[2 * best..2 * best + 2], &[1, 34]); // throw 2C 9H, keep 5-5-5-J
/// ```
pub fn analyze_discard_batch<T: CardId>(
    hands: &[T],
    dealers: &[bool],
    variant: Variant,
    opponent: Opponent<'_>,
) -> Result<DiscardColumns> {
    analyze_discard_rows(IdRows::of_width("hands", hands, variant.cards_dealt())?, dealers, variant, opponent)
}

/// [`analyze_discard_batch`] of rows whose length is checked (the width is checked here).
pub fn analyze_discard_rows<T: CardId>(
    hands: IdRows<'_, T>,
    dealers: &[bool],
    variant: Variant,
    opponent: Opponent<'_>,
) -> Result<DiscardColumns> {
    check_variant(variant)?;
    let (rows, dealt) = (hands.rows(), variant.cards_dealt());
    if hands.width() != dealt {
        let expected = format!("{dealt} cards per row for {}", variant.name());
        return Err(hands.wrong_width(&expected, Some(&hands.width().to_string())));
    }
    if dealers.len() != rows && dealers.len() != 1 {
        return Err(Error::InvalidValue(format!("{rows} hands but {} dealer flags", dealers.len())));
    }
    let weights = [opponent_weights(variant, true, opponent)?, opponent_weights(variant, false, opponent)?];
    let choices = dealt * (dealt - 1) / 2;
    let mut cols = DiscardColumns::try_zeroed(rows, choices)?;
    // Small tasks: a hand costs ~10 µs, so a few hundred per task balance the threads.
    const TASK_ROWS: usize = 256;
    let DiscardColumns { hand, hand_min, hand_max, hand_distribution, crib, heels, net, thrown, best, .. } = &mut cols;
    let c = choices;
    let tasks: Vec<_> = hand
        .chunks_mut(TASK_ROWS * c)
        .zip(hand_min.chunks_mut(TASK_ROWS * c))
        .zip(hand_max.chunks_mut(TASK_ROWS * c))
        .zip(hand_distribution.chunks_mut(TASK_ROWS * c * 30))
        .zip(crib.chunks_mut(TASK_ROWS * c))
        .zip(heels.chunks_mut(TASK_ROWS * c))
        .zip(net.chunks_mut(TASK_ROWS * c))
        .zip(thrown.chunks_mut(TASK_ROWS * c * 2))
        .zip(best.chunks_mut(TASK_ROWS))
        .collect();
    // A batch may run for minutes: every row checks the caller's interrupt flag (Ctrl-C), taken
    // along to the threads the tasks run on.
    let flag = crate::engine::interrupt::current();
    crate::batch::for_tasks_of(TASK_ROWS, tasks, |first, ((((((((h, lo), hi), dist), cr), he), ne), th), be)| {
        let mut out = [DiscardRow::default(); MAX_CHOICES];
        #[allow(clippy::needless_range_loop)] // `i` indexes several output columns
        for i in 0..be.len() {
            crate::engine::interrupt::check_flag(flag.as_ref())?;
            let row = first + i;
            let hand = read_hand(hands.row(row)).map_err(|e| e.in_row(row))?;
            let dealer = dealers[if dealers.len() == 1 { 0 } else { row }];
            let k = analyze_fixed(hand, dealer, &weights[!dealer as usize], &mut out);
            debug_assert_eq!(k, c);
            for (j, r) in out[..k].iter().enumerate() {
                let at = i * c + j;
                h[at] = r.hand;
                lo[at] = r.hand_min;
                hi[at] = r.hand_max;
                for (d, &x) in dist[at * 30..at * 30 + 30].iter_mut().zip(&r.hand_distribution) {
                    *d = x as u8;
                }
                cr[at] = r.crib;
                he[at] = r.heels;
                ne[at] = r.net;
                let mut it = r.thrown.iter();
                th[2 * at] = it.next().map_or(0, |c| c.id());
                th[2 * at + 1] = it.next().map_or(0, |c| c.id());
            }
            be[i] = best_index(&out[..k]) as u16;
        }
        Ok(())
    })?;
    Ok(cols)
}

/// One row of ids as a hand of distinct cards.
fn read_hand<T: CardId>(row: &[T]) -> Result<Hand> {
    let mut hand = Hand::new();
    for &id in row {
        let v = id.value();
        if !(0..52).contains(&v) {
            return Err(Error::CardIdOutOfRange { id: v, limit: 52 });
        }
        let card = Card::from_id(v as i64)?;
        if !hand.insert(card) {
            return Err(Error::DuplicateCard(card.to_string()));
        }
    }
    Ok(hand)
}

#[cfg(test)]
mod tests {
    use super::super::score_show;
    use super::*;
    use crate::cribbage::throw_kind;
    use crate::rng::Rng;

    /// Every opponent pair and starter, card by card, with the given per-kind weights.
    fn brute(hand: Hand, dealer: bool, w: &[f64; THROW_KINDS]) -> Vec<(Hand, f64, f64)> {
        let cards: Vec<Card> = hand.iter().collect();
        let unseen: Vec<Card> = Card::all().filter(|c| !hand.contains(*c)).collect();
        let mut out = Vec::new();
        for j in 1..cards.len() {
            for i in 0..j {
                let thrown = Hand::new().with(cards[i]).with(cards[j]);
                let mut kept = hand;
                kept.remove(cards[i]);
                kept.remove(cards[j]);
                let h: f64 = unseen.iter().map(|&s| score_show(kept, s, false).unwrap() as f64).sum::<f64>()
                    / unseen.len() as f64;
                let (mut num, mut den) = (0.0, 0.0);
                for (x, &a) in unseen.iter().enumerate() {
                    for &b in &unseen[x + 1..] {
                        let weight = w[throw_kind(a, b)];
                        let crib = thrown.with(a).with(b);
                        for &s in &unseen {
                            if s != a && s != b {
                                num += weight * score_show(crib, s, true).unwrap() as f64;
                                den += weight;
                            }
                        }
                    }
                }
                let crib = num / den;
                let jacks = unseen.iter().filter(|c| c.is_jack()).count() as f64;
                let heels = 2.0 * jacks / unseen.len() as f64;
                out.push((thrown, h, if dealer { h + crib + heels } else { h - crib - heels }));
            }
        }
        out
    }

    fn random_hand(rng: &mut Rng, n: usize) -> Hand {
        let mut hand = Hand::new();
        while hand.len() < n {
            hand.insert(Card::from_id(rng.below(52) as i64).unwrap());
        }
        hand
    }

    #[test]
    fn matches_brute_force_uniform_and_weighted() {
        let mut rng = Rng::new(10);
        let mut weighted = [0.0; THROW_KINDS];
        for (k, x) in weighted.iter_mut().enumerate() {
            *x = 0.25 + (k * 37 % 11) as f64; // arbitrary, suited and off-suit differ
        }
        for (variant, dealt) in [(Variant::SixCard, 6), (Variant::FiveCard, 5)] {
            for t in 0..3 {
                let hand = random_hand(&mut rng, dealt);
                let dealer = t % 2 == 0;
                for w in [[1.0; THROW_KINDS], weighted] {
                    let mut rows = [DiscardRow::default(); MAX_CHOICES];
                    let k = analyze_fixed(hand, dealer, &w, &mut rows);
                    let expect = brute(hand, dealer, &w);
                    assert_eq!(k, expect.len());
                    for (r, (thrown, h, net)) in rows[..k].iter().zip(&expect) {
                        assert_eq!(r.thrown, *thrown);
                        assert!((r.hand - h).abs() < 1e-9, "{variant:?} {hand}");
                        assert!((r.net - net).abs() < 1e-9, "{variant:?} {hand} {thrown}: {} vs {net}", r.net);
                        assert_eq!(r.hand_distribution.iter().sum::<u32>(), 52 - dealt as u32);
                    }
                }
            }
        }
    }

    #[test]
    fn flush_hand_and_crib_flush() {
        // Throwing two clubs from a hand of six clubs: the crib flush term matters.
        let hand: Hand = "AC 3C 5C 7C 9C JC".parse().unwrap();
        let mut rows = [DiscardRow::default(); MAX_CHOICES];
        let k = analyze_fixed(hand, true, &[1.0; THROW_KINDS], &mut rows);
        let expect = brute(hand, true, &[1.0; THROW_KINDS]);
        for (r, (_, _, net)) in rows[..k].iter().zip(&expect) {
            assert!((r.net - net).abs() < 1e-9);
        }
    }

    #[test]
    fn bad_input() {
        let six: Hand = "5H 5D 5S JC 2C 9H".parse().unwrap();
        let e = analyze_discard(six, true, Variant::FiveCard, Opponent::Uniform).unwrap_err();
        assert_eq!(e.to_string(), "a hand to discard from must have 5 cards, got 6");
        let e = analyze_discard(six, true, Variant::ThreePlayer, Opponent::Uniform).unwrap_err();
        assert!(e.to_string().contains("not three-player"), "{e}");
        let e = analyze_discard_batch(&[1u8, 2, 3, 4, 5, 5], &[true], Variant::SixCard, Opponent::Uniform).unwrap_err();
        assert_eq!(e.to_string(), "row 0: duplicate card 6C");
    }

    /// The columns are allocated fallibly: too many hands is an error saying how much they need,
    /// never an abort; a few hands get every column at its size.
    #[test]
    fn columns_too_large_are_an_error() {
        let rows = usize::MAX / 64;
        let e = DiscardColumns::try_zeroed(rows, 15).unwrap_err();
        assert!(matches!(e, Error::OutOfMemory(_)), "{e:?}");
        let mib = (rows as u128 * (15 * 66 + 2)) >> 20;
        assert_eq!(
            e.to_string(),
            format!("cannot hold the discard analyses of {rows} hands (about {mib} MiB); analyse fewer hands per call")
        );
        let c = DiscardColumns::try_zeroed(3, 10).unwrap();
        assert_eq!((c.hand.len(), c.hand_distribution.len(), c.thrown.len(), c.best.len()), (30, 900, 60, 3));
        assert!(c.net.iter().all(|&x| x == 0.0) && c.hand_distribution.iter().all(|&x| x == 0));
    }
}
