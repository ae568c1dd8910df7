//! Piquet core throughput (divan). Run: `cargo bench --bench piquet`.
//!
//! Every benchmark reports deals (or hands) per second over the same pre-generated random deals;
//! `naive_declarations` is a straightforward per-card count written here, and
//! `explained_score_declarations` the allocating, explained API, so the speed-up of the fast path
//! is measured in the same run. The single-core numbers are `scorer_points`,
//! `declaration_points` and the baselines; the batch functions use every core.

use cribpiquet::piquet::{
    declaration_points, declarations_batch, score_declarations, score_declarations_batch, score_game, Card,
    DeclarationScorer, GameOptions, Hand, Partie, Rules,
};
use cribpiquet::batch::IdRows;
use cribpiquet::kernel::Kernel;
use cribpiquet::piquet::{DealRows, HandRows};
use cribpiquet::rng::Rng;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

/// 64 Ki deals (512 KB of hand pairs): the data stays in L2.
const DEALS: usize = 1 << 16;
/// Rows for the batch functions (ids as i64, as numpy would pass them).
const BATCH: usize = 1 << 20;

fn main() {
    divan::main();
}

/// Random deals: elder gets the first 12 cards of a shuffled pack, the dealer the next 12.
fn random_deals(n: usize, seed: u64) -> Vec<(Hand, Hand)> {
    let mut rng = Rng::new(seed);
    let mut pack: Vec<Card> = Card::all().collect();
    (0..n)
        .map(|_| {
            rng.shuffle_prefix(&mut pack, 24);
            (pack[..12].iter().copied().collect(), pack[12..24].iter().copied().collect())
        })
        .collect()
}

/// One hand's category keys and values, counted card by card.
fn naive_hand(hand: Hand, rules: &Rules) -> ([u32; 3], [u32; 4]) {
    let cards: Vec<Card> = hand.iter().collect();
    let mut point = (0u32, 0u32);
    let (mut seq_key, mut seq_value) = (0u32, 0u32);
    for suit in 0..4 {
        let ranks: Vec<u8> = cards.iter().filter(|c| c.suit() == suit).map(|c| c.rank()).collect();
        let value: u32 = cards.iter().filter(|c| c.suit() == suit).map(|c| c.point_value() as u32).sum();
        point = point.max((ranks.len() as u32, value));
        let mut run = 0u32;
        for r in 0..=8u8 {
            if r < 8 && ranks.contains(&r) {
                run += 1;
            } else {
                if run >= 3 {
                    seq_key = seq_key.max(run * 8 + r as u32 - 1);
                    seq_value += rules.sequence_values[run as usize - 3] as u32;
                }
                run = 0;
            }
        }
    }
    let (mut set_key, mut set_value) = (0u32, 0u32);
    for rank in 3..8u8 {
        let n = cards.iter().filter(|c| c.rank() == rank).count() as u32;
        if n >= 3 {
            set_key = set_key.max(n * 8 + rank as u32);
            set_value += if n == 4 { 14 } else { 3 };
        }
    }
    let blanche = cards.iter().all(|c| !c.is_court()) as u32;
    ([point.0 * 128 + point.1, seq_key, set_key], [10 * blanche, point.0, seq_value, set_value])
}

/// The declaration points of a deal, the obvious way (russian totals rule for the repique).
fn naive_declarations(elder: Hand, dealer: Hand, rules: &Rules) -> [i16; 2] {
    let (ke, ve) = naive_hand(elder, rules);
    let (kd, vd) = naive_hand(dealer, rules);
    let mut t = [ve[0], vd[0]];
    for k in 0..3 {
        if ke[k] > kd[k] {
            t[0] += ve[k + 1];
        } else if kd[k] > ke[k] {
            t[1] += vd[k + 1];
        }
    }
    let r = t;
    for p in 0..2 {
        if r[p] >= 30 && r[1 - p] == 0 {
            t[p] += 60;
        }
    }
    [t[0] as i16, t[1] as i16]
}

/// Both players' declaration points of a deal, by the precompiled scorer of each rule set.
#[divan::bench(args = ["russian", "rubicon"])]
fn scorer_points(bencher: Bencher, rules: &str) {
    let deals = random_deals(DEALS, 1);
    let scorer = DeclarationScorer::new(&Rules::named(rules).unwrap());
    bencher.counter(ItemsCount::new(DEALS)).bench(|| {
        let mut acc = 0i32;
        for &(e, d) in black_box(&deals) {
            let p = scorer.points(e, d);
            acc = acc.wrapping_add(p[0] as i32 - p[1] as i32);
        }
        acc
    });
}

#[divan::bench]
fn declaration_points_per_call(bencher: Bencher) {
    let deals = random_deals(DEALS, 1);
    let rules = Rules::russian();
    bencher.counter(ItemsCount::new(DEALS)).bench(|| {
        let mut acc = 0i32;
        for &(e, d) in black_box(&deals) {
            let p = declaration_points(e, d, black_box(&rules));
            acc = acc.wrapping_add(p[0] as i32 - p[1] as i32);
        }
        acc
    });
}

#[divan::bench]
fn naive_baseline(bencher: Bencher) {
    let deals = random_deals(DEALS, 1);
    let rules = Rules::russian();
    // Sanity: the baseline agrees with the fast path.
    for &(e, d) in &deals[..1000] {
        assert_eq!(naive_declarations(e, d, &rules), declaration_points(e, d, &rules));
    }
    bencher.counter(ItemsCount::new(DEALS)).bench(|| {
        let mut acc = 0i32;
        for &(e, d) in black_box(&deals) {
            let p = naive_declarations(e, d, &rules);
            acc = acc.wrapping_add(p[0] as i32 - p[1] as i32);
        }
        acc
    });
}

#[divan::bench]
fn explained_score_declarations(bencher: Bencher) {
    let deals = random_deals(DEALS, 1);
    let rules = Rules::russian();
    bencher.counter(ItemsCount::new(DEALS)).bench(|| {
        let mut acc = 0u32;
        for &(e, d) in black_box(&deals) {
            let s = score_declarations(e, d, &rules, None, None).unwrap();
            acc = acc.wrapping_add(s.totals[0] as u32);
        }
        acc
    });
}

/// Ids of random deals in the given integer type (numpy's int64 default, or uint8).
/// A random legal 12-trick record for a deal (random lead, random legal follow).
fn random_record(elder: Hand, dealer: Hand, rng: &mut Rng) -> Vec<(Card, Card)> {
    let mut left = [elder, dealer];
    let mut leader = 0;
    let mut tricks = Vec::with_capacity(12);
    for _ in 0..12 {
        let pick = |h: Hand, rng: &mut Rng| h.iter().nth(rng.below(h.len() as u32) as usize).unwrap();
        let lead = pick(left[leader], rng);
        let same = left[1 - leader].suit(lead.suit());
        let follow = pick(if same.is_empty() { left[1 - leader] } else { same }, rng);
        left[leader].remove(lead);
        left[1 - leader].remove(follow);
        tricks.push((lead, follow));
        if follow.suit() == lead.suit() && follow.rank() > lead.rank() {
            leader = 1 - leader;
        }
    }
    tricks
}

/// A whole game from its record (legality, declarations, play, event log).
#[divan::bench]
fn score_game_full_record(bencher: Bencher) {
    const GAMES: usize = 1024;
    let mut rng = Rng::new(4);
    type Record = (Hand, Hand, Vec<(Card, Card)>);
    let games: Vec<Record> =
        random_deals(GAMES, 3).into_iter().map(|(e, d)| (e, d, random_record(e, d, &mut rng))).collect();
    let rules = Rules::russian();
    let options = GameOptions::default();
    bencher.counter(ItemsCount::new(GAMES)).bench(|| {
        let mut acc = 0u32;
        for (e, d, t) in black_box(&games) {
            acc = acc.wrapping_add(score_game(*e, *d, t, &rules, &options).unwrap().totals[0] as u32);
        }
        acc
    });
}

fn batch_ids<T: From<u8>>(n: usize) -> (Vec<T>, Vec<T>) {
    let deals = random_deals(n, 2);
    let ids = |h: Hand| h.iter().map(|c| T::from(c.id())).collect::<Vec<_>>();
    let e = deals.iter().flat_map(|&(e, _)| ids(e)).collect();
    let d = deals.iter().flat_map(|&(_, d)| ids(d)).collect();
    (e, d)
}

#[divan::bench(types = [i64, u8], sample_count = 20)]
fn batch_score_declarations_all_cores<T: From<u8> + cribpiquet::batch::CardId + 'static>(bencher: Bencher) {
    let (e, d) = batch_ids::<T>(BATCH);
    let rules = Rules::russian();
    bencher
        .counter(ItemsCount::new(BATCH))
        .bench(|| score_declarations_batch(black_box(&e), black_box(&d), &rules).unwrap());
}

#[divan::bench(types = [i64, u8], sample_count = 20)]
fn batch_declarations_all_cores<T: From<u8> + cribpiquet::batch::CardId + 'static>(bencher: Bencher) {
    let (e, _) = batch_ids::<T>(BATCH);
    let rules = Rules::russian();
    bencher.counter(ItemsCount::new(BATCH)).bench(|| declarations_batch(black_box(&e), &rules).unwrap());
}

/// The kernels this CPU can run (the others are not benchmarked).
fn kernels() -> Vec<&'static str> {
    Kernel::available().into_iter().map(|k| k.name()).collect()
}

/// `score_declarations_batch` by each kernel, russian rules, all cores: the vectorised paths'
/// ratio against scalar in the same run.
#[divan::bench(types = [u8, i64], args = kernels(), sample_count = 20)]
fn batch_score_declarations_by_kernel<T: From<u8> + cribpiquet::batch::CardId + 'static>(
    bencher: Bencher,
    kernel: &str,
) {
    let (e, d) = batch_ids::<T>(BATCH);
    let rules = Rules::russian();
    let kernel = Kernel::parse(kernel).unwrap();
    let deals = DealRows::new(IdRows::of_width("elder", &e, 12).unwrap(), IdRows::of_width("dealer", &d, 12).unwrap())
        .unwrap();
    bencher.counter(ItemsCount::new(BATCH)).bench(|| black_box(deals).score_with(&rules, kernel).unwrap());
}

/// `declarations_batch` by each kernel, russian rules, all cores.
#[divan::bench(types = [u8, i64], args = kernels(), sample_count = 20)]
fn batch_declarations_by_kernel<T: From<u8> + cribpiquet::batch::CardId + 'static>(bencher: Bencher, kernel: &str) {
    let (e, _) = batch_ids::<T>(BATCH);
    let rules = Rules::russian();
    let kernel = Kernel::parse(kernel).unwrap();
    let hands = HandRows::new(IdRows::of_width("hands", &e, 12).unwrap()).unwrap();
    bencher.counter(ItemsCount::new(BATCH)).bench(|| black_box(hands).declarations_with(&rules, kernel).unwrap());
}

/// A rubicon partie tied deal after deal (issue 8.9: each deal O(1); it was quadratic): 200,000
/// deals per iteration. Was a time bound in `partiya.rs`'s `many_tied_deals_are_linear` test.
#[divan::bench]
fn partie_tied_deals(bencher: Bencher) {
    bencher.counter(ItemsCount::new(200_000usize)).bench(|| {
        let mut p = Partie::new(&Rules::rubicon()).unwrap();
        for _ in 0..200_000 {
            p.add_deal(black_box(7), black_box(7)).unwrap();
        }
        p.deals_played()
    });
}
