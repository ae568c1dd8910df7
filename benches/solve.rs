//! Exact play solver and PIMC speed (divan). Run: `cargo bench --bench solve`.
//!
//! All at the first pegging decision of six-card deals (the pone's first card, 4 + 4 cards),
//! a fixed set of positions reached by heuristic play (the same as `benches/bots.rs`):
//! * `solve_first_play_points` / `_win`: one whole solve (every action's value and the principal
//!   variation; target ≤ 50 µs median); the nodes searched are printed once per objective, to
//!   quote nodes per second;
//! * `pimc_play_decision`: one PIMC decision at the default 100 worlds (target ≤ 20 ms);
//! * `pimc_discard_decision_worlds`: the same valued by the worlds (`before_play` `Worlds`;
//!   the default `Exact` is Greedy's exact value, no worlds: `pimc_discard_decision`);
//! * `pimc_discard_decision`: one PIMC discard decision (the pone's) at 100 worlds (target
//!   ≤ 200 ms).

use cribpiquet::bots::heuristic::Heuristic;
use cribpiquet::bots::pimc::{BeforePlay, Pimc, PimcConfig};
use cribpiquet::bots::Bot;
use cribpiquet::cribbage::{GameConfig, Phase, State, Variant};
use cribpiquet::engine::{Game, GameState, Policy};
use cribpiquet::rng::Rng;
use cribpiquet::solve::{Objective, Solve};
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// `n` decisions of six-card deals: the first of the play (`play`) or the pone's discard.
fn decisions(n: usize, play: bool) -> Vec<State> {
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
            if play && s.phase() == Phase::Play && s.plays().next().is_none() {
                out.push(s);
                break;
            }
            if !play && s.phase() == Phase::Discard {
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

fn solve_bench(bencher: Bencher, objective: Objective) {
    let states = decisions(64, true);
    let nodes: u64 = states.iter().map(|s| s.solve(objective).unwrap().nodes).sum();
    eprintln!("{objective:?}: {:.1} nodes a solve", nodes as f64 / states.len() as f64);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(states[i].solve(objective).unwrap())
    });
}

#[divan::bench(sample_count = 200, sample_size = 64)]
fn solve_first_play_points(bencher: Bencher) {
    solve_bench(bencher, Objective::Points);
}

#[divan::bench(sample_count = 200, sample_size = 64)]
fn solve_first_play_win(bencher: Bencher) {
    solve_bench(bencher, Objective::Win);
}

fn pimc_bench(bencher: Bencher, play: bool, before_play: BeforePlay) {
    let states = decisions(16, play);
    let mut bot = Pimc::<State>::new(PimcConfig { before_play, ..PimcConfig::default() }).unwrap();
    let mut rng = Rng::new(1);
    bot.step(&states[0], &mut rng).unwrap(); // the win table and discard tables, once
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(bot.step(&states[i], &mut rng).unwrap())
    });
}

#[divan::bench(sample_count = 30)]
fn pimc_play_decision(bencher: Bencher) {
    pimc_bench(bencher, true, BeforePlay::Exact);
}

#[divan::bench(sample_count = 30)]
fn pimc_discard_decision(bencher: Bencher) {
    pimc_bench(bencher, false, BeforePlay::Exact);
}

#[divan::bench(sample_count = 10)]
fn pimc_discard_decision_worlds(bencher: Bencher) {
    pimc_bench(bencher, false, BeforePlay::Worlds);
}
