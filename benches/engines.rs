//! Game engine throughput (divan). Run: `cargo bench --bench engines`.
//!
//! `simulate_*` play whole random games on one thread (games per second per core);
//! `playout_*` drive the same games through the state API from Rust (actions per second);
//! `clone_state` and `legal_actions` time the two calls a search makes most.

use common::{random_playouts, random_state};
use cribpiquet::bots::registry::policy_by_name;
use cribpiquet::cribbage::{GameConfig, Phase, State, Variant};
use cribpiquet::engine::simulate;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

mod common;

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
    // The actions of the measured games, counted up front with the same generator.
    let actions = random_playouts(&config, 200, 1);
    bencher.counter(ItemsCount::new(actions)).bench_local(|| black_box(random_playouts(&config, 200, 1)));
}

/// Copying a mid-play state (`clone` is a memcpy).
#[divan::bench]
fn clone_state(bencher: Bencher) {
    let s = random_state(&config("four-player"), 3, |s| s.phase() == Phase::Play);
    bencher.bench_local(|| black_box(*black_box(&s)));
}
