//! Game engine throughput (divan). Run: `cargo bench --bench engines`.
//!
//! `simulate_*` play whole random games on one thread (games per second per core);
//! `playout_*` drive the same games through the state API from Rust (actions per second);
//! `clone_state` and `legal_actions` time the two calls a search makes most.

use cribpiquet::bots::registry::policy_by_name;
use cribpiquet::cribbage::{GameConfig, State, Variant};
use cribpiquet::engine::{simulate, Game, GameState};
use cribpiquet::rng::Rng;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

const GAMES: usize = 2_000;

fn config(name: &str) -> GameConfig {
    GameConfig::new(name.parse::<Variant>().unwrap(), None).unwrap()
}

/// Whole random games through `simulate` on one thread (games/s per core).
#[divan::bench(args = ["five-card", "six-card", "three-player", "four-player"], sample_count = 10)]
fn simulate_random_games(bencher: Bencher, variant: &str) {
    let config = config(variant);
    let random = policy_by_name::<State>("random").unwrap();
    let mut seed = 0;
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        seed += 1;
        black_box(simulate(&config, std::slice::from_ref(&random), seed, 0, GAMES, Some(1)).unwrap())
    });
}

/// The same with every core (games/s in total).
#[divan::bench(sample_count = 10)]
fn simulate_six_card_all_threads(bencher: Bencher) {
    let config = config("six-card");
    let random = policy_by_name::<State>("random").unwrap();
    let mut seed = 0;
    bencher.counter(ItemsCount::new(4 * GAMES)).bench_local(|| {
        seed += 1;
        black_box(simulate(&config, std::slice::from_ref(&random), seed, 0, 4 * GAMES, None).unwrap())
    });
}

/// Random six-card games played through `legal_actions` + `apply_action` (actions/s).
#[divan::bench(sample_count = 10)]
fn playout_six_card_actions(bencher: Bencher) {
    let config = config("six-card");
    let mut rng = Rng::new(1);
    // Count the actions of the measured games up front, with the same generator.
    let actions = {
        let mut rng = Rng::new(1);
        let mut n = 0usize;
        for _ in 0..200 {
            let mut s = config.new_initial_state();
            while !s.is_terminal() {
                let l = s.legal_actions();
                s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
                n += 1;
            }
        }
        n
    };
    bencher.counter(ItemsCount::new(actions)).bench_local(|| {
        rng = Rng::new(1);
        for _ in 0..200 {
            let mut s = config.new_initial_state();
            while !s.is_terminal() {
                let l = s.legal_actions();
                s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
            }
            black_box(s);
        }
    });
}

/// Copying a mid-play state (`clone` is a memcpy).
#[divan::bench]
fn clone_state(bencher: Bencher) {
    let config = config("four-player");
    let mut rng = Rng::new(3);
    let mut s = config.new_initial_state();
    while s.phase() != cribpiquet::cribbage::Phase::Play {
        let l = s.legal_actions();
        s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    bencher.bench_local(|| black_box(*black_box(&s)));
}
