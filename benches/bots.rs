//! IS-MCTS speed (divan). Run: `cargo bench --bench bots`.
//!
//! All at the first pegging decision of six-card deals (the pone's first card), a fixed set of
//! positions reached by heuristic play:
//! * `ismcts_iterations_one_thread`: iterations per second on one core (20,000 per decision;
//!   target ≥ 250,000/s);
//! * `ismcts_decision_1000`: the latency of one decision at 1,000 iterations (target ≤ 5 ms);
//! * `ismcts_threads`: 20,000 iterations with `threads` = 1 and 2 (target: 2 threads ≥ 1.7× one);
//! * `win_table_*`: building six-card's win table from scratch, what the first decision of a
//!   process pays (`win_table_build`: the self-play, in parallel, and the dynamic programme;
//!   `win_table_dp`: the dynamic programme alone).
//!
//! Each decision starts afresh (`restart`), so tree reuse does not flatter the numbers.

use cribpiquet::bots::heuristic::Heuristic;
use cribpiquet::bots::ismcts::{Ismcts, IsmctsConfig};
use cribpiquet::bots::Bot;
use cribpiquet::cribbage::{GameConfig, Phase, State, Variant};
use cribpiquet::engine::{Game, GameState, Policy};
use cribpiquet::rng::Rng;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn win_table_build() -> cribpiquet::bots::winprob::WinTable {
    use cribpiquet::bots::winprob::{deal_distribution, WinTable, DEALS};
    WinTable::from_distribution(121, &deal_distribution(Variant::SixCard, DEALS, 1))
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn win_table_dp(b: Bencher) {
    use cribpiquet::bots::winprob::{deal_distribution, WinTable, DEALS};
    let dist = deal_distribution(Variant::SixCard, DEALS, 1);
    b.bench(|| WinTable::from_distribution(121, black_box(&dist)));
}

/// `n` first pegging decisions of six-card deals.
fn first_pegging_decisions(n: usize) -> Vec<State> {
    let game = GameConfig::new(Variant::SixCard, None).unwrap();
    let mut rng = Rng::new(42);
    let mut out = Vec::new();
    while out.len() < n {
        let mut s = game.new_initial_state();
        while !s.is_terminal() {
            if let Some(a) = s.sample_chance(&mut rng) {
                s.apply_legal(a);
                continue;
            }
            if s.phase() == Phase::Play && s.plays().next().is_none() {
                out.push(s);
                break;
            }
            let legal = s.legal_actions();
            let a = Heuristic.choose(&s, &legal, &mut rng);
            s.apply_legal(a);
        }
    }
    out
}

fn bot(iterations: u32, threads: usize) -> Ismcts<State> {
    Ismcts::new(IsmctsConfig { iterations, threads, ..IsmctsConfig::default() }).unwrap()
}

const ITERATIONS: u32 = 20_000;

#[divan::bench(sample_count = 20)]
fn ismcts_iterations_one_thread(bencher: Bencher) {
    let states = first_pegging_decisions(16);
    let mut b = bot(ITERATIONS, 1);
    let mut rng = Rng::new(1);
    b.step(&states[0], &mut rng).unwrap(); // the win table, computed once
    let mut k = 0;
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        k = (k + 1) % states.len();
        b.restart();
        black_box(b.step(&states[k], &mut rng).unwrap())
    });
}

#[divan::bench(sample_count = 50)]
fn ismcts_decision_1000(bencher: Bencher) {
    let states = first_pegging_decisions(16);
    let mut b = bot(1000, 1);
    let mut rng = Rng::new(2);
    b.step(&states[0], &mut rng).unwrap();
    let mut k = 0;
    bencher.bench_local(|| {
        k = (k + 1) % states.len();
        b.restart();
        black_box(b.step(&states[k], &mut rng).unwrap())
    });
}

#[divan::bench(args = [1, 2], sample_count = 20)]
fn ismcts_threads(bencher: Bencher, threads: usize) {
    let states = first_pegging_decisions(16);
    let mut b = bot(ITERATIONS, threads);
    let mut rng = Rng::new(3);
    b.step(&states[0], &mut rng).unwrap();
    let mut k = 0;
    bencher.counter(ItemsCount::new(ITERATIONS)).bench_local(|| {
        k = (k + 1) % states.len();
        b.restart();
        black_box(b.step(&states[k], &mut rng).unwrap())
    });
}
