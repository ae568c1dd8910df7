//! Fixed workloads for instruction counting (not a divan bench): `cargo bench --bench count --no-run`,
//! then run the binary under `valgrind --tool=callgrind` (see benches/README.md, "Instructions per item").
//!
//! `count WORKLOAD N REPS` runs one workload REPS times over N items built from a fixed seed and
//! prints a checksum. Setup (dealing the random input) is counted too, so `benches/count.sh` takes
//! the difference of two runs, `(I(N, 2 reps) - I(N, 1 rep)) / N`: the instructions of one pass
//! over one item, without setup or process start. (`simulate` has no input: there REPS multiplies
//! the games.)
//! Every workload runs on the calling thread only (batches of at most `CHUNK_ROWS` rows, one thread
//! for `simulate`), so the counts do not depend on scheduling.

use cribpiquet::batch::CHUNK_ROWS;
use cribpiquet::bots::registry::policy_by_name;
use cribpiquet::cribbage::{score_hand_batch, score_show_unchecked, Card, Hand};
use cribpiquet::engine::simulate;
use cribpiquet::piquet;
use cribpiquet::rng::Rng;
use std::hint::black_box;

fn shows(n: usize, seed: u64) -> (Vec<(Hand, Card)>, Vec<u8>, Vec<u8>) {
    let mut rng = Rng::new(seed);
    let mut pack: Vec<Card> = Card::all().collect();
    let mut pairs = Vec::with_capacity(n);
    let (mut hands, mut starters) = (Vec::with_capacity(4 * n), Vec::with_capacity(n));
    for _ in 0..n {
        rng.shuffle_prefix(&mut pack, 5);
        pairs.push((Hand::from_cards(pack[..4].iter().copied()).unwrap(), pack[4]));
        hands.extend(pack[..4].iter().map(|c| c.id()));
        starters.push(pack[4].id());
    }
    (pairs, hands, starters)
}

fn deals(n: usize, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Rng::new(seed);
    let mut ids: Vec<u8> = (0..32).collect();
    let (mut e, mut d) = (Vec::with_capacity(12 * n), Vec::with_capacity(12 * n));
    for _ in 0..n {
        rng.shuffle(&mut ids);
        e.extend_from_slice(&ids[..12]);
        d.extend_from_slice(&ids[12..24]);
    }
    (e, d)
}

/// Run `f` over `n` rows in blocks of at most `CHUNK_ROWS` (one thread), summing its checksums.
fn blocks(n: usize, mut f: impl FnMut(std::ops::Range<usize>) -> u64) -> u64 {
    (0..n).step_by(CHUNK_ROWS).map(|a| f(a..(a + CHUNK_ROWS).min(n))).sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let (what, n, reps) = match args.as_slice() {
        [w, n, reps] => (
            w.as_str(),
            n.parse::<usize>().expect("N must be a number"),
            reps.parse::<usize>().expect("REPS must be a number"),
        ),
        _ => {
            eprintln!("usage: count WORKLOAD N REPS (show | batch-u8 | batch-i64 | piquet-u8 | piquet-i64 | simulate-six | simulate-piquet)");
            std::process::exit(2)
        }
    };
    let sum: u64 = match what {
        "show" => {
            let (pairs, _, _) = shows(n, 1);
            (0..reps)
                .map(|_| black_box(&pairs).iter().map(|&(h, s)| score_show_unchecked(h, s, false) as u64).sum::<u64>())
                .sum()
        }
        "batch-u8" | "batch-i64" => {
            let (_, hands, starters) = shows(n, 1);
            let (h64, s64): (Vec<i64>, Vec<i64>) =
                (hands.iter().map(|&x| x as i64).collect(), starters.iter().map(|&x| x as i64).collect());
            (0..reps)
                .map(|_| {
                    blocks(n, |r| {
                        let out = if what == "batch-u8" {
                            score_hand_batch(&hands[4 * r.start..4 * r.end], 4, &starters[r.clone()], false)
                        } else {
                            score_hand_batch(&h64[4 * r.start..4 * r.end], 4, &s64[r.clone()], false)
                        };
                        out.unwrap().iter().map(|&x| x as u64).sum()
                    })
                })
                .sum()
        }
        "piquet-u8" | "piquet-i64" => {
            let (e, d) = deals(n, 1);
            let (e64, d64): (Vec<i64>, Vec<i64>) =
                (e.iter().map(|&x| x as i64).collect(), d.iter().map(|&x| x as i64).collect());
            let rules = piquet::Rules::russian();
            (0..reps)
                .map(|_| {
                    blocks(n, |r| {
                        let (a, b) = (12 * r.start, 12 * r.end);
                        let out = if what == "piquet-u8" {
                            piquet::score_declarations_batch(&e[a..b], &d[a..b], &rules)
                        } else {
                            piquet::score_declarations_batch(&e64[a..b], &d64[a..b], &rules)
                        };
                        out.unwrap().iter().map(|p| (p[0] + p[1]) as u64).sum()
                    })
                })
                .sum()
        }
        "simulate-six" => {
            let config = cribpiquet::cribbage::GameConfig::new("six-card".parse().unwrap(), None).unwrap();
            let random = policy_by_name::<cribpiquet::cribbage::State>("random").unwrap();
            let cols = simulate(&config, std::slice::from_ref(&random), 7, 0, n * reps, Some(1)).unwrap();
            black_box(cols).n_games as u64
        }
        "simulate-piquet" => {
            let config = piquet::GameConfig::new(piquet::Rules::russian(), piquet::Scope::Deal).unwrap();
            let random = policy_by_name::<piquet::State>("random").unwrap();
            let cols = simulate(&config, std::slice::from_ref(&random), 7, 0, n * reps, Some(1)).unwrap();
            black_box(cols).n_games as u64
        }
        other => {
            eprintln!("unknown workload {other}");
            std::process::exit(2)
        }
    };
    println!("{what} {n} {sum}");
}
