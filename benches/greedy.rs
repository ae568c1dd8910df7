//! Greedy and heuristic decision latency (divan). Run: `cargo bench --bench greedy`.
//!
//! * `greedy_cribbage_discard`: one Greedy six-card (15 choices) / five-card (10) discard
//!   decision, exact (`analyze_discard` with a uniform opponent), on fixed random deals; the
//!   issue's target is ≤ 5 ms a decision.
//! * `greedy_multi_discard`: the three-/four-player single-card discard (5 choices, exact).
//! * `greedy_cribbage_pegging`: one Greedy pegging decision with its one-card look-ahead.
//! * `greedy_piquet_exchange`: Greedy's exchange decision (`exact_exchange`, elder, russian).
//! * `heuristic_*`: the rollout policy's decisions over random decision states (the target is
//!   well under 1 µs a decision).

use cribpiquet::bots::cribbage::Greedy;
use cribpiquet::bots::heuristic::Heuristic;
use cribpiquet::bots::Bot;
use cribpiquet::engine::{ActionList, Game, GameState, Policy};
use cribpiquet::rng::Rng;
use cribpiquet::{cribbage, piquet};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// `n` decision states of `game` in `phase` (by name), reached by random play from seed 1.
fn states<G: Game>(game: G, phase: &str, n: usize) -> Vec<G::State> {
    let mut rng = Rng::new(1);
    let mut out = Vec::with_capacity(n);
    let mut s = game.new_initial_state();
    while out.len() < n {
        if s.is_terminal() {
            s = game.new_initial_state();
        }
        if s.is_chance_node() {
            s.apply_sampled_chances(&mut rng);
            continue;
        }
        let legal = s.legal_actions();
        if phase.is_empty() || s.phase_name() == phase {
            out.push(s);
        }
        s.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
    }
    out
}

fn cribbage_game(variant: &str) -> cribbage::GameConfig {
    cribbage::GameConfig::new(variant.parse().unwrap(), None).unwrap()
}

/// One Greedy discard decision (all choices, exact).
#[divan::bench(args = ["six-card", "five-card"])]
fn greedy_cribbage_discard(bencher: Bencher, variant: &str) {
    let states = states(cribbage_game(variant), "discard", 256);
    let mut bot = Greedy::new();
    let mut rng = Rng::new(2);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(bot.step(&states[i], &mut rng).unwrap())
    });
}

/// One Greedy single-card discard decision (three/four players, exact).
#[divan::bench(args = ["three-player", "four-player"], sample_count = 20)]
fn greedy_multi_discard(bencher: Bencher, variant: &str) {
    let states = states(cribbage_game(variant), "discard", 64);
    let mut bot = Greedy::new();
    let mut rng = Rng::new(2);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(bot.step(&states[i], &mut rng).unwrap())
    });
}

/// One Greedy pegging decision (one-card look-ahead).
#[divan::bench]
fn greedy_cribbage_pegging(bencher: Bencher) {
    let states = states(cribbage_game("six-card"), "play", 1024);
    let mut bot = Greedy::new();
    let mut rng = Rng::new(2);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(bot.step(&states[i], &mut rng).unwrap())
    });
}

/// Greedy's exchange decision for elder (russian: every discard of 0 or 3–5 cards, exact over
/// every draw); a fresh bot each time, so nothing is cached.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn greedy_piquet_exchange(bencher: Bencher) {
    let game = piquet::GameConfig::new(piquet::Rules::russian(), piquet::Scope::Deal).unwrap();
    let states = states(game, "exchange", 8);
    let mut rng = Rng::new(2);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(cribpiquet::bots::piquet::Greedy::new().step(&states[i], &mut rng).unwrap())
    });
}

/// The heuristic policy over random decision states of each game.
fn heuristic_decisions<S: GameState>(bencher: Bencher, states: &[S])
where
    Heuristic: Policy<S>,
{
    let legal: Vec<ActionList> = states.iter().map(|s| s.legal_actions()).collect();
    let mut rng = Rng::new(3);
    bencher.counter(ItemsCount::new(states.len())).bench_local(|| {
        let mut acc = 0u32;
        for (s, l) in states.iter().zip(&legal) {
            acc += Heuristic.choose(s, l, &mut rng) as u32;
        }
        black_box(acc)
    });
}

#[divan::bench]
fn heuristic_cribbage(bencher: Bencher) {
    heuristic_decisions(bencher, &states(cribbage_game("six-card"), "", 4096));
}

#[divan::bench]
fn heuristic_piquet(bencher: Bencher) {
    heuristic_decisions(bencher, &states(piquet::GameConfig::default(), "", 4096));
}
