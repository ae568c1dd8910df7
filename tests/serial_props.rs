//! Property tests of the text readers (issue 8, item 10, the Rust half): random and mutated
//! strings at both games' `deserialize_state`, and at the card parsers of both games. Nothing
//! panics; whatever is accepted is a state that round-trips and plays to the end through the
//! checked API (`conformance::check_text`), or cards whose text reads back the same.
//!
//! Fixed seeds and a fixed budget (about 6,000 cases; well under a minute in debug).

use std::str::FromStr;

use cribpiquet::engine::conformance::{check_text, mutate};
use cribpiquet::engine::{Game, GameState};
use cribpiquet::rng::Rng;
use cribpiquet::{cribbage, piquet};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn runner(cases: u32, seed: u8) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]))
}

fn cribbage_games() -> Vec<cribbage::GameConfig> {
    let mut out: Vec<_> =
        cribbage::Variant::ALL.into_iter().map(|v| cribbage::GameConfig::new(v, None).unwrap()).collect();
    out.push(cribbage::GameConfig::new(cribbage::Variant::FiveCard, Some(3)).unwrap());
    out.push(cribbage::GameConfig::new(cribbage::Variant::SixCard, Some(31)).unwrap().with_lurch(true));
    out
}

fn piquet_games() -> Vec<piquet::GameConfig> {
    let mut out = Vec::new();
    for rules in [piquet::Rules::russian(), piquet::Rules::rubicon()] {
        for scope in [piquet::Scope::Deal, piquet::Scope::Partiya] {
            out.push(piquet::GameConfig::new(rules, scope).unwrap());
        }
    }
    out
}

/// Every `step`-th state text of `games` random games.
fn sample_texts<G: Game>(game: &G, games: usize, step: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut s = game.new_initial_state();
        let mut k = 0;
        loop {
            if k % step == 0 || s.is_terminal() {
                out.push(s.serialize());
            }
            if s.is_terminal() {
                break;
            }
            let legal = s.legal_actions();
            s.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            k += 1;
        }
    }
    out
}

/// Random strings, and strings of the texts' own alphabet and words, at `deserialize_state`.
fn random_texts<G: Game>(game: &G, magic: &'static str, cases: u32, seed: u8) {
    let words = prop::sample::select(vec![
        "phase=",
        "cut",
        "deal",
        "play",
        "game-over",
        "deals=",
        "scores=",
        "sources=",
        "turn=",
        "hands=",
        "plays=",
        "winner=",
        "-",
        "0",
        "1",
        "3",
        "ff",
        ",",
        "/",
        "=",
        " ",
        "5H",
        "KD",
        "AS",
        "7C",
        "9H",
    ]);
    let structured = (prop::collection::vec(words, 0..40)).prop_map(move |w| format!("{magic} {}", w.concat()));
    let strategy = prop_oneof![any::<String>(), "[ -~]{0,200}", structured];
    runner(cases, seed)
        .run(&strategy, |text| {
            let mut rng = Rng::new(text.len() as u64);
            check_text(game, &text, &mut rng).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
            Ok(())
        })
        .unwrap();
}

/// Reachable texts mutated one to four times ([`mutate`]) at `deserialize_state`.
fn mutated_texts<G: Game>(game: &G, texts: &[String], cases: u32, seed: u8) -> usize {
    let accepted = std::cell::Cell::new(0);
    let strategy = (0..texts.len(), 0..texts.len(), any::<u64>(), 1usize..5);
    runner(cases, seed)
        .run(&strategy, |(i, j, mseed, times)| {
            let mut rng = Rng::new(mseed);
            let mut text = texts[i].clone();
            for _ in 0..times {
                text = mutate(&text, &texts[j], &mut rng);
            }
            let result =
                check_text(game, &text, &mut rng).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
            if result.is_some() {
                accepted.set(accepted.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    accepted.get()
}

#[test]
fn cribbage_random_texts_never_panic() {
    for (k, game) in cribbage_games().iter().enumerate() {
        random_texts(game, "cribbage/1", 150, k as u8);
    }
}

#[test]
fn piquet_random_texts_never_panic() {
    for (k, game) in piquet_games().iter().enumerate() {
        random_texts(game, "piquet/1", 150, 10 + k as u8);
    }
}

#[test]
fn cribbage_mutated_texts_are_refused_or_play_on() {
    for (k, game) in cribbage_games().iter().enumerate() {
        let texts = sample_texts(game, 4, 7, k as u64);
        let accepted = mutated_texts(game, &texts, 400, 20 + k as u8);
        // Some mutants are states again (a value that changed nothing, another reachable state).
        assert!(accepted > 0, "{game:?}: no mutant accepted");
    }
}

#[test]
fn piquet_mutated_texts_are_refused_or_play_on() {
    for (k, game) in piquet_games().iter().enumerate() {
        let texts = sample_texts(game, 3, 9, 40 + k as u64);
        let accepted = mutated_texts(game, &texts, 400, 30 + k as u8);
        assert!(accepted > 0, "{game:?}: no mutant accepted");
    }
}

/// Card text: the alphabet of cards in both games' notations, and any string.
fn card_strategy() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[AKQJTakqjt0-9CDHSchds♣♦♥♠ ,xX-]{0,12}"]
}

#[test]
fn card_parsers_never_panic_and_read_their_own_text() {
    runner(600, 50)
        .run(&card_strategy(), |text| {
            if let Ok(c) = cribbage::Card::from_str(&text) {
                prop_assert_eq!(cribbage::Card::from_str(&c.to_string()).ok(), Some(c));
            }
            if let Ok(c) = piquet::Card::from_str(&text) {
                prop_assert_eq!(piquet::Card::from_str(&c.to_string()).ok(), Some(c));
            }
            if let Ok(cards) = cribbage::parse_cards(&text) {
                for c in cards {
                    prop_assert_eq!(cribbage::Card::from_str(&c.to_string()).ok(), Some(c));
                }
            }
            if let Ok(cards) = piquet::parse_cards(&text) {
                for c in cards {
                    prop_assert_eq!(piquet::Card::from_str(&c.to_string()).ok(), Some(c));
                }
            }
            Ok(())
        })
        .unwrap();
}
