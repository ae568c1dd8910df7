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
//! * `pimc_decision_*`: one PIMC decision at its defaults (100 worlds, one thread) at the first
//!   lead and after three tricks, russian (the target: ≤ 200 ms median); and its
//!   exchange decision (Greedy's exact values, no worlds).

use std::sync::atomic::{AtomicUsize, Ordering};

use cribpiquet::bots::pimc::{Pimc, PimcConfig};
use cribpiquet::bots::piquet::Greedy;
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

/// Exchange decision states of `rules` (seed 2): elder's, and the dealer's after elder took
/// `elder_takes` cards (the fewest the rules allow, so the dealer has the most left).
fn exchange_states(rules: Rules, dealer: bool, n: usize) -> Vec<State> {
    let game = GameConfig::new(rules, Scope::Deal).unwrap();
    let mut rng = Rng::new(2);
    (0..n)
        .map(|_| {
            let mut s = game.new_initial_state();
            while s.phase() != Phase::Exchange {
                s.apply_sampled_chances(&mut rng);
            }
            if dealer {
                // Elder exchanges his fewest cards (discarding his lowest), then the dealer decides.
                let size = s.legal_actions().iter().copied().find(|&a| a > cribpiquet::piquet::EXCHANGE_BASE);
                s.apply_legal(size.unwrap());
                while s.phase() != Phase::Exchange {
                    if s.is_chance_node() {
                        s.apply_sampled_chances(&mut rng);
                    } else {
                        let a = s.legal_actions()[0];
                        s.apply_legal(a);
                    }
                }
            }
            s
        })
        .collect()
}

const EXCHANGE_CASES: [(&str, bool); 3] =
    [("russian elder", false), ("russian dealer", true), ("rubicon dealer", true)];

fn exchange_case(name: &str) -> (Rules, bool) {
    let (rules, dealer) = EXCHANGE_CASES.iter().find(|c| c.0 == name).map(|c| (c.0, c.1)).unwrap();
    (rules_named(rules.split(' ').next().unwrap()), dealer)
}

/// Greedy's exchange decision (a fresh bot: no cached rows), one state per sample.
#[divan::bench(args = ["russian elder", "russian dealer", "rubicon dealer"], sample_count = 100, sample_size = 1)]
fn greedy_exchange_fast(bencher: Bencher, case: &str) {
    let (rules, dealer) = exchange_case(case);
    let states = exchange_states(rules, dealer, 100);
    let i = AtomicUsize::new(0);
    bencher.with_inputs(|| states[i.fetch_add(1, Ordering::Relaxed) % states.len()]).bench_values(|s| {
        let mut bot = Greedy::new();
        black_box(bot.step(&s, &mut Rng::new(0)).unwrap())
    });
}

/// The same decision as it was made before: `exact_exchange` over every draw (all cores),
/// then the best row's size.
#[divan::bench(args = ["russian elder", "russian dealer", "rubicon dealer"], sample_count = 4, sample_size = 1)]
fn greedy_exchange_before(bencher: Bencher, case: &str) {
    use cribpiquet::piquet::{exact_exchange, Role};
    let (rules, dealer) = exchange_case(case);
    let states = exchange_states(rules, dealer, 4);
    let i = AtomicUsize::new(0);
    bencher.with_inputs(|| states[i.fetch_add(1, Ordering::Relaxed) % states.len()]).bench_values(|s| {
        let me = s.current_player() as usize;
        let role = if s.elder() == Some(me) { Role::Elder } else { Role::Dealer };
        let available = if dealer { 8 - s.exchange_size(me ^ 1).unwrap() } else { 5 };
        let rows = exact_exchange(s.hand(me), role, s.config().rules(), Some(available)).unwrap();
        black_box(rows[0].discard.len())
    });
}

/// Greedy against Greedy: one whole russian deal (cut, deal, both exchanges, play) per
/// iteration; the throughput is deals per second.
#[divan::bench(sample_count = 20, sample_size = 10)]
fn greedy_deals(bencher: Bencher) {
    let game = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
    let seed = AtomicUsize::new(0);
    bencher.counter(ItemsCount::new(1usize)).bench(|| {
        let mut rng = Rng::new(seed.fetch_add(1, Ordering::Relaxed) as u64);
        let mut bots = [Greedy::new(), Greedy::new()];
        let mut s = game.new_initial_state();
        while !s.is_terminal() {
            if s.is_chance_node() {
                s.apply_sampled_chances(&mut rng);
            } else {
                let p = s.current_player() as usize;
                let a = bots[p].step(&s, &mut rng).unwrap();
                s.apply_legal(a);
            }
        }
        black_box(s.returns())
    });
}

fn pimc_bench(bencher: Bencher, states: Vec<State>) {
    let mut bot = Pimc::<State>::new(PimcConfig::default()).unwrap();
    let mut rng = Rng::new(1);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % states.len();
        black_box(bot.step(&states[i], &mut rng).unwrap())
    });
}

#[divan::bench(sample_count = 40)]
fn pimc_decision_first_lead(bencher: Bencher) {
    pimc_bench(bencher, positions(Rules::russian(), 0, 40));
}

#[divan::bench(sample_count = 40)]
fn pimc_decision_after_three_tricks(bencher: Bencher) {
    pimc_bench(bencher, positions(Rules::russian(), 6, 40));
}

#[divan::bench(sample_count = 40)]
fn pimc_decision_exchange(bencher: Bencher) {
    // Elder's first exchange decision (its size), random deals.
    let game = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
    let mut rng = Rng::new(2);
    let states = (0..40)
        .map(|_| {
            let mut s = game.new_initial_state();
            while s.phase() != Phase::Exchange {
                s.apply_sampled_chances(&mut rng);
                if s.phase() != Phase::Exchange {
                    let legal = s.legal_actions();
                    s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
                }
            }
            s
        })
        .collect();
    pimc_bench(bencher, states);
}
