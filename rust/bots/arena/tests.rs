use super::*;
use crate::bots::registry::{policy_by_name, BotGame};
use crate::{cribbage, piquet};

fn players<S: BotGame>(names: &[&str]) -> Vec<PolicyFactory<S>> {
    names.iter().map(|n| policy_by_name::<S>(n).unwrap()).collect()
}

#[test]
fn split_ranges_add_up_to_one_run() {
    let game = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap();
    let arena = Arena::new(game, players(&["random", "first"])).unwrap();
    let whole = arena.play(3, 0..101).unwrap();
    let mut parts = arena.play(3, 0..40).unwrap();
    parts.add(&arena.play(3, 40..101).unwrap());
    assert_eq!(parts, whole);
    assert_eq!(whole.games, 101);
    assert_eq!(whole.wins[0] + whole.wins[1] + whole.draws, 101);
    // Seats rotate: game 0 has player 0 in seat 0, game 1 in seat 1 (as simulate's seats).
    let sim = crate::engine::simulate(&game, &players(&["random", "first"]), 3, 0, 1, Some(1)).unwrap();
    let one = arena.play(3, 0..1).unwrap();
    assert_eq!(one.wins[0], u64::from(sim.winner[0] == 0));
}

#[test]
fn counts_points_per_player_not_per_seat() {
    let game = piquet::GameConfig::new(piquet::Rules::russian(), piquet::Scope::Deal).unwrap();
    let arena = Arena::new(game, players(&["first", "first"])).unwrap();
    let c = arena.play(1, 0..50).unwrap();
    let total: u64 = (0..2).flat_map(|k| c.points[k].iter()).sum();
    let sim = crate::engine::simulate(&game, &players(&["first"]), 1, 0, 50, Some(1)).unwrap();
    assert_eq!(total, sim.scores.iter().map(|&x| x as u64).sum::<u64>());
    assert!(Arena::new(game, players(&["first"])).is_err());
}

#[test]
fn recorded_games_are_the_games_counted() {
    let game = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap();
    let arena = Arena::new(game, players(&["random", "first"])).unwrap();
    let (counts, records) = arena.play_recording(4, 3..23, 10).unwrap();
    assert_eq!(counts, arena.play(4, 3..23).unwrap());
    assert_eq!(records.iter().map(|r| r.0).collect::<Vec<_>>(), (3..10).collect::<Vec<_>>());
    let mut wins = [0u64; 2];
    for (i, actions) in &records {
        let mut state = game.new_initial_state();
        for &a in actions {
            state.apply_action(a).unwrap();
        }
        // Player k sits at seat (k + i) mod 2.
        let seat = state.winner().unwrap();
        wins[(seat + 2 - (*i % 2) as usize) % 2] += 1;
    }
    let (first7, _) = arena.play_recording(4, 3..10, 0).unwrap();
    assert_eq!(wins, [first7.wins[0], first7.wins[1]]);
}

#[test]
fn wilson_hand_checked() {
    // 8 of 10: p = 0.8, z²/n = 0.38415; centre (0.8 + 0.19207)/1.38415 = 0.71674, margin
    // 1.96·sqrt(0.016 + 0.0096037)/1.38415 = 0.22657: (0.4902, 0.9433).
    let (lo, hi) = wilson(0.8, 10);
    assert!((lo - 0.4902).abs() < 1e-4, "{lo}");
    assert!((hi - 0.9433).abs() < 1e-4, "{hi}");
    assert_eq!(wilson(0.3, 0), (0.0, 1.0));
    let (lo, hi) = wilson(1.0, 5);
    assert!(hi == 1.0 && (lo - 0.5655).abs() < 1e-4, "{lo}");
}
