//! The piquet double-dummy solver and the fast exchange (divan). Run:
//! `cargo bench --bench piquet_solve`.
//!
//! * `solve_first_lead`: one solve (every root action's exact value and the principal
//!   variation) from the first lead, 12 + 12 cards, over fixed random deals (random exchanges),
//!   one deal per sample: the median is the median solve. The target is ≤ 20 ms.
//! * `solve_after_three_tricks`: the same after three random tricks (9 + 9 cards); ≤ 1 ms.
//! * `solve_*_nodes`: the same positions solved as one batch, counted in searched nodes: the
//!   throughput is nodes per second.
//! * `greedy_exchange_*`: Greedy's whole exchange decision (size and discards) for elder and the
//!   dealer, russian and rubicon (the dealer with every talon card elder left).
//! * `greedy_deals`: Greedy against Greedy, one russian deal from the cut to the end.

use std::sync::atomic::{AtomicUsize, Ordering};

use cribpiquet::bots::greedy::Greedy;
use cribpiquet::bots::Bot;
use cribpiquet::engine::{Game, GameState};
use cribpiquet::piquet::{GameConfig, Phase, Rules, Scope, State};
use cribpiquet::rng::Rng;
use cribpiquet::solve::{Objective, Solve};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// `n` play positions of `rules` after `plays` cards, random exchanges and cards, seed 1.
fn positions(rules: Rules, plays: usize, n: usize) -> Vec<State> {
    let game = GameConfig::new(rules, Scope::Deal).unwrap();
    let mut rng = Rng::new(1);
    (0..n)
        .map(|_| {
            let mut s = game.new_initial_state();
            while s.phase() != Phase::Play {
                if s.is_chance_node() {
                    s.apply_sampled_chances(&mut rng);
                } else {
                    let legal = s.legal_actions();
                    s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
                }
            }
            for _ in 0..plays {
                let legal = s.legal_actions();
                s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
            }
            s
        })
        .collect()
}

fn rules_named(name: &str) -> Rules {
    if name == "russian" {
        Rules::russian()
    } else {
        Rules::rubicon()
    }
}

/// One solve per sample, cycling through `states`.
fn one_per_sample(bencher: Bencher, states: Vec<State>) {
    let i = AtomicUsize::new(0);
    bencher
        .with_inputs(|| states[i.fetch_add(1, Ordering::Relaxed) % states.len()])
        .bench_values(|s| black_box(s.solve(Objective::Points).unwrap()));
}

#[divan::bench(args = ["russian", "rubicon"], sample_count = 200, sample_size = 1)]
fn solve_first_lead(bencher: Bencher, rules: &str) {
    one_per_sample(bencher, positions(rules_named(rules), 0, 200));
}

#[divan::bench(args = ["russian", "rubicon"], sample_count = 500, sample_size = 1)]
fn solve_after_three_tricks(bencher: Bencher, rules: &str) {
    one_per_sample(bencher, positions(rules_named(rules), 6, 500));
}

/// A batch solved per iteration, counted in nodes.
fn nodes_per_second(bencher: Bencher, states: Vec<State>) {
    let nodes: u64 = states.iter().map(|s| s.solve(Objective::Points).unwrap().nodes).sum();
    bencher.counter(ItemsCount::new(nodes)).bench(|| {
        for s in &states {
            black_box(s.solve(Objective::Points).unwrap());
        }
    });
}

#[divan::bench(args = ["russian", "rubicon"], sample_count = 10, sample_size = 1)]
fn solve_first_lead_nodes(bencher: Bencher, rules: &str) {
    nodes_per_second(bencher, positions(rules_named(rules), 0, 50));
}

#[divan::bench(args = ["russian", "rubicon"], sample_count = 10, sample_size = 1)]
fn solve_after_three_tricks_nodes(bencher: Bencher, rules: &str) {
    nodes_per_second(bencher, positions(rules_named(rules), 6, 200));
}
