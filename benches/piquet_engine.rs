//! Piquet engine throughput (divan). Run: `cargo bench --bench piquet_engine`.
//!
//! `simulate_*` play whole random deals (or matches) on one thread (per core);
//! `playout_*` drive random deals through the state API from Rust (actions per second);
//! `clone_state`, `legal_actions` and `resample` time the calls a search makes most.

use common::{random_playouts, random_state};
use cribpiquet::bots::registry::policy_by_name;
use cribpiquet::engine::{simulate, GameState};
use cribpiquet::piquet::{GameConfig, Phase, Rules, Scope, State};
use cribpiquet::rng::Rng;
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

mod common;

fn main() {
    divan::main();
}

const DEALS: usize = 20_000;

fn config(rules: &str, scope: Scope) -> GameConfig {
    GameConfig::new(Rules::named(rules).unwrap(), scope).unwrap()
}

/// Whole random deals through `simulate` on one thread (deals/s per core).
#[divan::bench(args = ["russian", "rubicon"], sample_count = 10)]
fn simulate_random_deals(bencher: Bencher, rules: &str) {
    let config = config(rules, Scope::Deal);
    let random = policy_by_name::<State>("random").unwrap();
    let mut seed = 0;
    bencher.counter(ItemsCount::new(DEALS)).bench_local(|| {
        seed += 1;
        black_box(simulate(&config, std::slice::from_ref(&random), seed, 0, DEALS, Some(1)).unwrap())
    });
}

/// Whole random matches (partiya / partie) on one thread (matches/s per core).
#[divan::bench(args = ["russian", "rubicon"], sample_count = 10)]
fn simulate_random_matches(bencher: Bencher, rules: &str) {
    let config = config(rules, Scope::Partiya);
    let random = policy_by_name::<State>("random").unwrap();
    let mut seed = 0;
    bencher.counter(ItemsCount::new(DEALS / 4)).bench_local(|| {
        seed += 1;
        black_box(simulate(&config, std::slice::from_ref(&random), seed, 0, DEALS / 4, Some(1)).unwrap())
    });
}

/// Random russian deals through `legal_actions` + `apply_action` (actions/s).
#[divan::bench(sample_count = 10)]
fn playout_russian_actions(bencher: Bencher) {
    let config = config("russian", Scope::Deal);
    // The actions of the measured games, counted up front with the same generator.
    let actions = random_playouts(&config, 500, 1);
    bencher.counter(ItemsCount::new(actions)).bench_local(|| black_box(random_playouts(&config, 500, 1)));
}

/// A russian deal in the play, three tricks in.
fn mid_play_state() -> State {
    random_state(&config("russian", Scope::Deal), 3, |s| {
        s.phase() == Phase::Play && s.tricks_won()[0] + s.tricks_won()[1] >= 3
    })
}

/// Copying a state (what `clone()` costs).
#[divan::bench]
fn clone_state(bencher: Bencher) {
    let s = mid_play_state();
    bencher.bench_local(|| black_box(*black_box(&s)));
}

/// The legal actions of a state in the play.
#[divan::bench]
fn legal_actions(bencher: Bencher) {
    let s = mid_play_state();
    bencher.bench_local(|| black_box(black_box(&s).legal_actions()));
}

/// One determinization (IS-MCTS) in the play, after the declarations.
#[divan::bench]
fn resample(bencher: Bencher) {
    let s = mid_play_state();
    let mut rng = Rng::new(9);
    bencher.bench_local(|| black_box(s.resample_from_infostate(0, &mut rng).unwrap()));
}
