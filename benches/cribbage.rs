//! Cribbage core throughput (divan). Run: `cargo bench --bench cribbage`.
//!
//! Every benchmark reports items per second; the `naive_*` baseline scores the same random
//! shows by enumerating subsets, so the ratio is measured in the same run.

use cribpiquet::batch::{CardId, IdRows};
use cribpiquet::cribbage::{
    hand_distribution, hand_distribution_with, peg_points, score_hand, score_hand_batch, score_show_unchecked, Card,
    DistributionKind, Hand, Shows,
};
use cribpiquet::kernel::Kernel;
use cribpiquet::rng::Rng;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

/// 64 Ki shows (1.5 MB): the data stays in L2, as in the poker-evaluator benchmarks.
const SHOWS: usize = 1 << 16;

fn main() {
    divan::main();
}

/// Random 4-card hands with a starter, dealt from shuffled packs.
fn random_shows(n: usize, seed: u64) -> Vec<(Hand, Card)> {
    let mut rng = Rng::new(seed);
    let mut pack: Vec<Card> = Card::all().collect();
    (0..n)
        .map(|_| {
            // The first five cards of a fresh shuffle.
            rng.shuffle_prefix(&mut pack, 5);
            (Hand::from_cards(pack[..4].iter().copied()).unwrap(), pack[4])
        })
        .collect()
}

/// Scores by definition: every subset for fifteens, every pair, runs of the longest length.
fn naive_score(hand: Hand, starter: Card) -> u32 {
    let mut cards: Vec<Card> = hand.iter().collect();
    cards.push(starter);
    let n = cards.len();
    let mut points = 0;
    let mut best_run = 0;
    let mut runs = 0;
    for subset in 1u32..(1 << n) {
        let chosen: Vec<Card> = (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| cards[i]).collect();
        if chosen.len() >= 2 && chosen.iter().map(|c| c.pips() as u32).sum::<u32>() == 15 {
            points += 2;
        }
        if chosen.len() == 2 && chosen[0].rank() == chosen[1].rank() {
            points += 2;
        }
        if chosen.len() >= 3 {
            let mut ranks: Vec<u8> = chosen.iter().map(|c| c.rank()).collect();
            ranks.sort();
            if ranks.windows(2).all(|w| w[1] == w[0] + 1) {
                if chosen.len() > best_run {
                    best_run = chosen.len();
                    runs = 0;
                }
                if chosen.len() == best_run {
                    runs += 1;
                }
            }
        }
    }
    points += (best_run * runs) as u32;
    let kept: Vec<Card> = hand.iter().collect();
    if kept.iter().all(|c| c.suit() == kept[0].suit()) {
        points += kept.len() as u32 + (starter.suit() == kept[0].suit()) as u32;
    }
    if kept.iter().any(|c| c.is_jack() && c.suit() == starter.suit()) {
        points += 1;
    }
    points
}

#[divan::bench]
fn score_hand_checked(bencher: Bencher) {
    let shows = random_shows(SHOWS, 1);
    bencher.counter(ItemsCount::new(SHOWS)).bench(|| {
        let mut sum = 0u32;
        for &(hand, starter) in black_box(&shows) {
            sum += score_hand(hand, starter).unwrap() as u32;
        }
        sum
    });
}

#[divan::bench]
fn score_show_unchecked_core(bencher: Bencher) {
    let shows = random_shows(SHOWS, 1);
    bencher.counter(ItemsCount::new(SHOWS)).bench(|| {
        let mut sum = 0u32;
        for &(hand, starter) in black_box(&shows) {
            sum += score_show_unchecked(hand, starter, false) as u32;
        }
        sum
    });
}

#[divan::bench]
fn naive_baseline(bencher: Bencher) {
    let n = SHOWS / 64;
    let shows = random_shows(n, 1);
    bencher.counter(ItemsCount::new(n)).bench(|| {
        let mut sum = 0u32;
        for &(hand, starter) in black_box(&shows) {
            sum += naive_score(hand, starter);
        }
        sum
    });
}

/// The batch path on ids (validation included), as the numpy API runs it.
#[divan::bench]
fn score_hand_batch_ids(bencher: Bencher) {
    let shows = random_shows(SHOWS, 2);
    let hands: Vec<i64> = shows.iter().flat_map(|(h, _)| h.iter().map(|c| c.id() as i64)).collect();
    let starters: Vec<i64> = shows.iter().map(|(_, s)| s.id() as i64).collect();
    bencher
        .counter(ItemsCount::new(SHOWS))
        .bench(|| score_hand_batch(black_box(&hands), 4, black_box(&starters), false).unwrap());
}

/// The batch path on 1 Mi rows of u8 and i64 ids (validation included, both cores: the numpy
/// path without Python).
#[divan::bench(args = ["u8", "i64"], sample_count = 20)]
fn score_hand_batch_1m(bencher: Bencher, dtype: &str) {
    let n = 1 << 20;
    let shows = random_shows(n, 3);
    let hands: Vec<u8> = shows.iter().flat_map(|(h, _)| h.iter().map(|c| c.id())).collect();
    let starters: Vec<u8> = shows.iter().map(|(_, s)| s.id()).collect();
    let (h64, s64): (Vec<i64>, Vec<i64>) =
        (hands.iter().map(|&x| x as i64).collect(), starters.iter().map(|&x| x as i64).collect());
    bencher.counter(ItemsCount::new(n)).bench(|| {
        if dtype == "u8" {
            score_hand_batch(black_box(&hands), 4, black_box(&starters), false).unwrap()
        } else {
            score_hand_batch(black_box(&h64), 4, black_box(&s64), false).unwrap()
        }
    });
}

/// 10 M random rows of ids (hand or crib rows of `width`, and the starters), as `T`.
fn random_rows<T: From<u8>>(n: usize, width: usize, seed: u64) -> (Vec<T>, Vec<T>) {
    let mut rng = Rng::new(seed);
    let mut pack: Vec<u8> = (0..52).collect();
    let (mut hands, mut starters) = (Vec::with_capacity(n * width), Vec::with_capacity(n));
    for _ in 0..n {
        rng.shuffle_prefix(&mut pack, width + 1);
        hands.extend(pack[..width].iter().map(|&x| T::from(x)));
        starters.push(T::from(pack[width]));
    }
    (hands, starters)
}

/// The kernels this CPU runs (the per-path benches' arguments): a path the CPU lacks is left out.
fn paths() -> Vec<&'static str> {
    Kernel::available().into_iter().map(|k| k.name()).collect()
}

/// `score_hand_batch`'s work on 10 M random rows by one kernel, on one core (a one-thread pool)
/// or on every core: the per-path throughput, validation included.
fn bench_path<T: CardId + From<u8>>(bencher: Bencher, path: &str, width: usize, crib: bool, threads: usize) {
    let kernel = Kernel::parse(path).unwrap();
    let n = 10_000_000;
    let (hands, starters) = random_rows::<T>(n, width, 5);
    let shows = Shows::new(IdRows::of_width("hands", &hands, width).unwrap(), &starters, crib).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let mut out = vec![0u8; n];
    bencher
        .counter(ItemsCount::new(n))
        .bench_local(|| pool.install(|| shows.scores_into_with(kernel, black_box(&mut out)).unwrap()));
}

/// uint8 hands, one core, per path (the headline number).
#[divan::bench(args = paths(), sample_count = 10)]
fn path_u8_one_core(bencher: Bencher, path: &str) {
    bench_path::<u8>(bencher, path, 4, false, 1);
}

/// uint8 hands, both cores, per path.
#[divan::bench(args = paths(), sample_count = 10)]
fn path_u8_all_cores(bencher: Bencher, path: &str) {
    bench_path::<u8>(bencher, path, 4, false, 0);
}

/// int64 hands, one core, per path (narrowed in the scoring pass).
#[divan::bench(args = paths(), sample_count = 10)]
fn path_i64_one_core(bencher: Bencher, path: &str) {
    bench_path::<i64>(bencher, path, 4, false, 1);
}

/// uint8 cribs, one core, per path.
#[divan::bench(args = paths(), sample_count = 10)]
fn path_u8_crib_one_core(bencher: Bencher, path: &str) {
    bench_path::<u8>(bencher, path, 4, true, 1);
}

/// uint8 three-card (five-card cribbage) hands, one core, per path.
#[divan::bench(args = paths(), sample_count = 10)]
fn path_u8_three_cards_one_core(bencher: Bencher, path: &str) {
    bench_path::<u8>(bencher, path, 3, false, 1);
}

/// The points by category (`explain_hand_batch`), uint8 hands, one core, per path.
#[divan::bench(args = paths(), sample_count = 10)]
fn path_u8_explain_one_core(bencher: Bencher, path: &str) {
    let kernel = Kernel::parse(path).unwrap();
    let n = 10_000_000;
    let (hands, starters) = random_rows::<u8>(n, 4, 6);
    let shows = Shows::new(IdRows::of_width("hands", &hands, 4).unwrap(), &starters, false).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    bencher.counter(ItemsCount::new(n)).bench_local(|| pool.install(|| shows.explain_with(kernel).unwrap()));
}

#[divan::bench(sample_count = 10)]
fn hand_distribution_all(bencher: Bencher) {
    bencher
        .counter(ItemsCount::new(DistributionKind::Hand.shows()))
        .bench(|| hand_distribution(black_box(DistributionKind::Hand)));
}

/// Every hand show counted by score with each kernel (`cribpiquet stats`).
#[divan::bench(args = paths(), sample_count = 10)]
fn hand_distribution_path(bencher: Bencher, path: &str) {
    let kernel = Kernel::parse(path).unwrap();
    bencher
        .counter(ItemsCount::new(DistributionKind::Hand.shows()))
        .bench(|| hand_distribution_with(black_box(DistributionKind::Hand), kernel).unwrap());
}

/// A batch of one show: with each kernel given, and as a batch call runs it ("chosen": the
/// kernel read from `CRIBPIQUET_KERNEL` or the CPU, then the call).
#[divan::bench(args = paths().into_iter().chain(["chosen"]))]
fn one_row_batch(bencher: Bencher, path: &str) {
    let (hands, starters) = ([10u8, 17, 30, 43], [4u8]);
    let shows = Shows::new(IdRows::of_width("hands", &hands, 4).unwrap(), &starters, false).unwrap();
    let mut out = [0u8; 1];
    match path {
        "chosen" => bencher.bench_local(|| black_box(&shows).scores_into(black_box(&mut out)).unwrap()),
        _ => {
            let kernel = Kernel::parse(path).unwrap();
            bencher.bench_local(|| black_box(&shows).scores_into_with(kernel, black_box(&mut out)).unwrap())
        }
    }
}

/// Reading the kernel a batch call runs (`CRIBPIQUET_KERNEL` or the CPU's best).
#[divan::bench]
fn kernel_chosen() -> Kernel {
    Kernel::chosen().unwrap()
}

#[divan::bench]
fn peg_points_random(bencher: Bencher) {
    let mut rng = Rng::new(3);
    let mut pack: Vec<Card> = Card::all().collect();
    let seqs: Vec<Vec<Card>> = (0..10_000)
        .map(|_| {
            rng.shuffle(&mut pack);
            let mut count = 0;
            pack.iter()
                .copied()
                .take_while(|c| {
                    count += c.pips() as u32;
                    count <= 31
                })
                .collect()
        })
        .collect();
    bencher.counter(ItemsCount::new(seqs.len())).bench(|| {
        let mut sum = 0u32;
        for s in black_box(&seqs) {
            sum += peg_points(s).unwrap() as u32;
        }
        sum
    });
}
