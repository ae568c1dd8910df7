//! The solver against a plain minimax over the engine itself (no table, no pruning, no ranks:
//! every legal card id), and the principal variation played out on the engine.

use super::*;
use crate::cribbage::GameConfig;
use crate::engine::{Game, MAX_PLAYERS};
use crate::eval::winprob::multi_side_values;
use crate::rng::Rng;

/// The side values of a finished line (`t`, reached from `s` by one action), relative to `s`
/// for `Points`: `None` if the play goes on at `t`.
fn leaf(s: &State, t: &State, win: bool) -> Option<[f64; 3]> {
    let sides = s.game().num_sides();
    if win && t.is_terminal() {
        return Some(won_vector(t.winner().unwrap()));
    }
    if t.phase() == Phase::Play && t.deals() == s.deals() && !t.is_terminal() {
        return None;
    }
    if !win {
        let mut v = [0.0; 3];
        for (side, x) in v.iter_mut().enumerate().take(sides) {
            *x = t.side_score(side) as f64 - s.side_score(side) as f64;
        }
        return Some(v);
    }
    let mut v = [0.0; 3];
    if sides == 2 {
        let d = t.side_of(t.dealer().unwrap());
        let p = WinTable::of(t.game()).dealer_wins(t.side_score(d), t.side_score(1 - d));
        v[d] = p;
        v[1 - d] = 1.0 - p;
    } else {
        let mut per = [0.0; MAX_PLAYERS];
        multi_side_values(t, &mut per);
        v[..3].copy_from_slice(&per[..3]);
    }
    Some(v)
}

/// The plain max-n over the engine: the value vector of `s` (relative for `Points`) and the value
/// of each legal action for the mover (his criterion), ties to the lowest rank.
fn reference(s: &State, win: bool) -> ([f64; 3], Vec<(u16, f64)>) {
    let p = s.current_player() as usize;
    let side = s.side_of(p);
    let mut legal = s.legal_actions().to_vec();
    legal.sort_by_key(|&a| (move_of(a), a));
    let mut best: Option<(f64, [f64; 3])> = None;
    let mut values = Vec::new();
    for &a in &legal {
        let t = s.child(a).unwrap();
        let v = match leaf(s, &t, win) {
            Some(v) => v,
            None => {
                let mut v = reference(&t, win).0;
                if !win {
                    for (k, x) in v.iter_mut().enumerate().take(s.game().num_sides()) {
                        *x += t.side_score(k) as f64 - s.side_score(k) as f64;
                    }
                }
                v
            }
        };
        let c = if s.game().num_sides() == 2 {
            if win {
                v[side]
            } else {
                v[side] - v[1 - side]
            }
        } else {
            criterion(&v, side, win)
        };
        values.push((a, c));
        if best.is_none_or(|b| c > b.0) {
            best = Some((c, v));
        }
    }
    values.sort_by_key(|x| x.0);
    (best.unwrap().1, values)
}

/// Play positions of `config` reached by random play (random discards and cards), at most
/// `max_left` cards unplayed.
fn positions(config: GameConfig, n: usize, max_left: usize, seed: u64) -> Vec<State> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut s = config.new_initial_state();
    while out.len() < n {
        if s.is_terminal() {
            s = config.new_initial_state();
        }
        if s.apply_sampled_chances(&mut rng) > 0 {
            continue;
        }
        if s.is_terminal() {
            continue;
        }
        if s.phase() == Phase::Play {
            let left: usize = (0..s.num_players()).map(|p| s.hand(p).len()).sum();
            if left <= max_left && rng.below(3) == 0 {
                out.push(s);
            }
        }
        let legal = s.legal_actions();
        s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
    }
    out
}

/// Play `actions` on `s`; the mover's value of the line (`Points`: his side's gain minus the best
/// other side's; `Win`: his side's chance at the end, as the leaf values it).
fn played_value(s: &State, actions: &[u16], win: bool) -> f64 {
    let side = s.side_of(s.current_player() as usize);
    let mut t = *s;
    for (i, &a) in actions.iter().enumerate() {
        let before = t;
        t.apply_action(a).unwrap();
        if let Some(v) = leaf(&before, &t, win) {
            assert_eq!(i + 1, actions.len(), "the line goes on after the end of the play");
            let mut total = v;
            if !win {
                for (k, x) in total.iter_mut().enumerate().take(s.game().num_sides()) {
                    *x = t.side_score(k) as f64 - s.side_score(k) as f64;
                }
            }
            return if s.game().num_sides() == 2 && !win {
                total[side] - total[1 - side]
            } else {
                criterion(&total, side, win)
            };
        }
    }
    panic!("the line does not end the play");
}

fn check(config: GameConfig, n: usize, max_left: usize, win: bool, seed: u64) {
    let objective = if win { Objective::Win } else { Objective::Points };
    let (mut ties, mut ended) = (0, 0);
    for s in positions(config, n, max_left, seed) {
        let sol = s.solve(objective).unwrap();
        let (_, want) = reference(&s, win);
        assert_eq!(sol.action_values.len(), want.len(), "{s}");
        for (&(a, v), &(b, w)) in sol.action_values.iter().zip(&want) {
            assert_eq!(a, b);
            assert!((v - w).abs() < 1e-12, "action {a}: solver {v}, minimax {w} at {s}");
        }
        let top = want.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<u16> = want.iter().filter(|x| (x.1 - top).abs() < 1e-12).map(|x| x.0).collect();
        assert_eq!(sol.best_actions, best, "{s}");
        assert!((sol.value - top).abs() < 1e-12);
        ties += (best.len() > 1) as usize;
        // The principal variation, played on the engine, is worth the value.
        assert_eq!(
            sol.principal_variation[0],
            sol.best_actions.iter().copied().min_by_key(|&a| (move_of(a), a)).unwrap()
        );
        let got = played_value(&s, &sol.principal_variation, win);
        assert!(
            (got - sol.value).abs() < 1e-12,
            "pv {:?} worth {got}, value {} at {s}",
            sol.principal_variation,
            sol.value
        );
        assert!(sol.nodes >= 1);
        let mut t = s;
        sol.principal_variation.iter().for_each(|&a| t.apply_legal(a));
        ended += t.is_terminal() as usize;
    }
    assert!(ties > 0, "no position with several best actions");
    // With the objective Win, some lines end the game in the play or the show.
    assert_eq!(ended > 0, win, "{ended} lines end the game");
}

fn config(v: Variant, target: Option<u32>) -> GameConfig {
    GameConfig::new(v, target).unwrap()
}

#[test]
fn points_two_players_equal_minimax() {
    check(config(Variant::SixCard, Some(10_000)), 300, 8, false, 1);
    check(config(Variant::FiveCard, Some(10_000)), 300, 6, false, 2);
}

#[test]
fn points_three_and_four_players_equal_minimax() {
    check(config(Variant::ThreePlayer, Some(10_000)), 150, 9, false, 3);
    check(config(Variant::FourPlayer, Some(10_000)), 150, 9, false, 4);
}

#[test]
fn win_equals_minimax_near_the_end_of_games() {
    // Small targets: many positions where the play or the show ends the game.
    check(config(Variant::SixCard, Some(61)), 200, 8, true, 5);
    check(config(Variant::FiveCard, None), 200, 6, true, 6);
    check(config(Variant::FourPlayer, Some(61)), 100, 9, true, 7);
    check(config(Variant::ThreePlayer, Some(61)), 100, 9, true, 8);
}

#[test]
fn other_phases_are_refused_by_name() {
    let s = config(Variant::SixCard, None).new_initial_state();
    let err = s.solve(Objective::Points).unwrap_err().to_string();
    assert!(err.contains("not the cut phase (a chance node)"), "{err}");
    let mut s = s;
    let mut rng = Rng::new(1);
    s.apply_sampled_chances(&mut rng);
    let err = s.solve(Objective::Win).unwrap_err().to_string();
    assert!(err.contains("not the discard phase"), "{err}");
}

#[test]
fn a_hand_checked_position() {
    // Six-card, P1 deals. P0 keeps 5H KS 4C 6C (throws 2D 3D), P1 keeps TC 5S 7C 2C (throws 9D
    // 8D), starter QH. The play: P0 4C, P1 TC, P0 KS, P1 7C (31 for 2). P0 leads the new count
    // with 5H 6C against P1's 5S 2C.
    let game = config(Variant::SixCard, Some(10_000));
    let mut s = game.new_initial_state();
    let ids = |t: &str| crate::cribbage::parse_cards(t).unwrap().iter().map(|c| c.id() as u16).collect::<Vec<_>>();
    for a in ids("KC AC") {
        s.apply_action(a).unwrap();
    }
    let (p0, p1) = (ids("5H KS 2D 3D 4C 6C"), ids("TC 5S 9D 8D 7C 2C"));
    for i in 0..6 {
        s.apply_action(p0[i]).unwrap();
        s.apply_action(p1[i]).unwrap();
    }
    let pair = |a: u16, b: u16| crate::cribbage::pair_action(a, b).unwrap();
    s.apply_action(pair(p0[2], p0[3])).unwrap();
    s.apply_action(pair(p1[2], p1[3])).unwrap();
    s.apply_action(ids("QH")[0]).unwrap();
    for a in ids("4C TC KS 7C") {
        s.apply_action(a).unwrap();
    }
    assert_eq!((s.current_player(), s.count()), (0, 0));
    // Pegging: 5H, then P1's 5S (pair, 2), 6C, 2C (last card, 1): -3; after 5H 2C 6C 5S only
    // -1, so P1 pairs. 6C, then 2C (8), 5H (13), 5S (pair 2 + last card 1): -3; after 6C 5S
    // P0 pairs: +2 - 1. Both leads peg -3.
    // The show: P0 5H KS 4C 6C + QH = fifteens 6 + run 3 = 9; P1 TC 5S 7C 2C + QH = fifteens
    // 4; P1's crib 2D 3D 9D 8D + QH = fifteen (2 3 Q) 2. So 9 - 6 = +3, and both leads are 0.
    let starter = s.starter().unwrap();
    assert_eq!(score_show_unchecked(s.kept(0), starter, false), 9);
    assert_eq!(score_show_unchecked(s.kept(1), starter, false), 4);
    assert_eq!(score_show_unchecked(s.crib(), starter, true), 2);
    let sol = s.solve(Objective::Points).unwrap();
    let (six_c, five_h) = (ids("6C")[0], ids("5H")[0]);
    assert_eq!(sol.action_values, vec![(six_c, 0.0), (five_h, 0.0)]);
    assert_eq!(sol.best_actions, vec![six_c, five_h]);
    assert_eq!(sol.value, 0.0);
    // The line: 5H (lowest rank), 5S, 6C, 2C.
    assert_eq!(sol.principal_variation, ids("5H 5S 6C 2C"));
}
