//! Tests of the game engine: scripted deals checked by hand, pegging-out order, and invariants
//! over random games.

use std::collections::HashMap;

use super::*;
use crate::cribbage::{score_crib, score_hand};

fn config(v: Variant, target: Option<u32>) -> GameConfig {
    GameConfig::new(v, target).unwrap()
}

/// Apply whitespace-separated action texts (`5H`, `KC+KD`, `go`).
fn run(state: &mut State, script: &str) {
    for token in script.split_whitespace() {
        let action = state.string_to_action(token).unwrap();
        if let Err(e) = state.apply_action(action) {
            panic!("{token}: {e}\n{}", state.information_state_string(0).unwrap());
        }
    }
}

fn hand(text: &str) -> Hand {
    text.parse().unwrap()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn id(text: &str) -> u16 {
    card(text).id() as u16
}

fn sources(state: &State, side: usize) -> [u16; 5] {
    state.points_by_source()[side]
}

// ---- five-card: the source's game ---------------------------------------------------------

/// Cut, deal and discard of the scripted five-card deal: P0 deals (2C beats 9D), so P1 pegs
/// three for last at once. P1 keeps 4H 5H QH (the source's show example), P0 keeps 6C 9C 9D;
/// the crib is KC KD 8S 7S.
fn five_card_to_play(target: Option<u32>) -> State {
    let mut s = config(Variant::FiveCard, target).new_initial_state();
    run(&mut s, "2C 9D");
    s
}

fn five_card_deal(s: &mut State) {
    // Dealt one at a time from the dealer's left: P1, P0, P1, …
    run(s, "4H 6C 5H 9C QH 9D KC 8S KD 7S");
    run(s, "KC+KD 8S+7S 6S");
}

#[test]
fn five_card_seed_flow() {
    let mut s = five_card_to_play(None);
    assert_eq!(s.dealer(), Some(0));
    assert_eq!(s.scores()[..2], [0, 3], "three for last goes to the first non-dealer");
    assert_eq!(sources(&s, 1)[PointSource::ThreeForLast as usize], 3);
    assert_eq!(s.rewards()[1], 3.0);
    assert_eq!(s.phase(), Phase::Deal);
    five_card_deal(&mut s);
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.kept(1), hand("4H 5H QH"));
    assert_eq!(s.kept(0), hand("6C 9C 9D"));
    assert_eq!(s.crib(), hand("KC KD 8S 7S"));
    assert_eq!(s.current_player(), 1, "the non-dealer leads");
    // One count: 5H, 6C, 4H (fifteen 2 and a run of three 3 = 5), 9C.
    run(&mut s, "5H 6C");
    assert_eq!(s.scores()[..2], [0, 3]);
    run(&mut s, "4H");
    assert_eq!(s.scores()[..2], [0, 8]);
    assert_eq!(s.rewards()[..2], [0.0, 5.0]);
    run(&mut s, "9C");
    assert_eq!(s.count(), 24);
    // P1's queen does not fit: go is his only action, and is illegal for a card that fits.
    assert_eq!(s.legal_actions().to_vec(), vec![GO]);
    assert!(matches!(s.clone().apply_action(id("QH")), Err(Error::Illegal(_))));
    run(&mut s, "go");
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.legal_actions().to_vec(), vec![GO]);
    // Unplayed cards stay in hand.
    assert_eq!(s.hand(1), hand("QH"));
    assert_eq!(s.hand(0), hand("9D"));
    // Nobody can lay: the play ends (one count only), P0 scores 1 for the last card, then the
    // show: P1 4H 5H QH + 6S = 10 (the source's example), P0 6C 9C 9D + 6S = 12, crib 7.
    run(&mut s, "go");
    assert_eq!(score_hand(hand("4H 5H QH"), card("6S")).unwrap(), 10);
    assert_eq!(score_hand(hand("6C 9C 9D"), card("6S")).unwrap(), 12);
    assert_eq!(score_crib(hand("KC KD 8S 7S"), card("6S")).unwrap(), 7);
    assert_eq!(s.scores()[..2], [1 + 12 + 7, 3 + 5 + 10]);
    assert_eq!(s.rewards()[..2], [20.0, 10.0]);
    assert_eq!(sources(&s, 0), [1, 12, 7, 0, 0]);
    assert_eq!(sources(&s, 1), [5, 10, 0, 0, 3]);
    // The next deal: the deal passes, and three for last is not repeated.
    assert_eq!((s.phase(), s.dealer(), s.deals()), (Phase::Deal, Some(1), 2));
    assert_eq!(s.next_recipient(), Some(0));
}

#[test]
fn five_card_ends_at_31_and_one_count_only() {
    let mut s = five_card_to_play(None);
    // P1: TC JD 5S; P0: KH 6D 2S (discards 9H 9S / 8C 8D). Starter AC.
    run(&mut s, "TC KH JD 6D 5S 2S 9H 8C 9S 8D 9H+9S 8C+8D AC");
    run(&mut s, "TC KH"); // 20
    assert_eq!(s.legal_actions().to_vec(), vec![id("JD"), id("5S")]);
    run(&mut s, "5S"); // 25
    assert_eq!(s.scores()[..2], [0, 3]);
    run(&mut s, "6D"); // 31: 2, and the play is over with cards still in hand (JD, 2S)
                       // P0: 31 for 2; shows: P1 TC JD 5S + AC: fifteens TC+5S, JD+5S = 4; P0 KH 6D 2S + AC: 0;
                       // crib 9H 9S 8C 8D + AC: two pairs 4 + double-double run? no run (8 9 only) → 4.
    let p1 = score_hand(hand("TC JD 5S"), card("AC")).unwrap();
    let p0 = score_hand(hand("KH 6D 2S"), card("AC")).unwrap();
    let crib = score_crib(hand("9H 9S 8C 8D"), card("AC")).unwrap();
    assert_eq!((p1, p0, crib), (4, 0, 4));
    assert_eq!(s.scores()[..2], [2 + p0 as u64 + crib as u64, 3 + p1 as u64]);
    assert_eq!(sources(&s, 0)[PointSource::Pegging as usize], 2, "31 scores 2 and no last-card point");
    assert_eq!(s.phase(), Phase::Deal);
}

#[test]
fn pegging_out_in_the_show_goes_in_show_order() {
    // Before the show: P1 (non-dealer) 8, P0 (dealer) 1. The show adds P1 10, then P0 12 and
    // the crib 7.
    for (target, winner, p0, p1) in [
        (13, 1, 1, 18),  // both would pass 13 in the show: the non-dealer counts first
        (15, 1, 1, 18),  // P0 would reach 20 with his crib, too late
        (19, 0, 20, 18), // P1 stops at 18; P0 gets there with the crib
        (18, 1, 1, 18),
        (8, 1, 0, 8), // P1 pegs out in the play, with the 4H
    ] {
        let mut s = five_card_to_play(Some(target));
        five_card_deal(&mut s);
        run(&mut s, "5H 6C 4H");
        if !s.is_terminal() {
            run(&mut s, "9C go go");
        }
        assert!(s.is_terminal(), "target {target}");
        assert_eq!(s.winner(), Some(winner), "target {target}");
        assert_eq!(s.scores()[..2], [p0, p1], "target {target}");
        assert_eq!(s.current_player(), TERMINAL);
        assert!(s.legal_actions().is_empty());
        let r = s.returns();
        assert_eq!(r[winner], 1.0);
        assert_eq!(r[1 - winner], -1.0);
    }
}

#[test]
fn heels_and_three_for_last_can_win_at_once() {
    let mut s = config(Variant::FiveCard, Some(3)).new_initial_state();
    run(&mut s, "2C 9D");
    assert!(s.is_terminal());
    assert_eq!((s.winner(), s.deals()), (Some(1), 0));
    let mut s = config(Variant::SixCard, Some(2)).new_initial_state();
    run(&mut s, "KH 3D 5C TS 5D 9H 6H 7C 9S 8D KC 2H QD AS KC+QD 2H+AS JC");
    assert!(s.is_terminal());
    assert_eq!(s.winner(), Some(1), "the dealer's heels");
    assert_eq!(sources(&s, 1)[PointSource::Heels as usize], 2);
}

// ---- six-card ------------------------------------------------------------------------------

#[test]
fn six_card_deal_step_by_step() {
    let mut s = config(Variant::SixCard, None).new_initial_state();
    // The cut: KH against 3D, P1 deals. No three for last in six-card.
    run(&mut s, "KH 3D");
    assert_eq!((s.dealer(), s.scores()[..2].to_vec()), (Some(1), vec![0, 0]));
    // P0 is dealt 5C 5D 6H 9S KC QD, P1 TS 9H 7C 8D 2H AS (alternately, P0 first).
    run(&mut s, "5C TS 5D 9H 6H 7C 9S 8D KC 2H QD AS");
    assert_eq!(s.phase(), Phase::Discard);
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.legal_actions().len(), 15);
    assert!(s.legal_actions().windows(2).all(|w| w[0] < w[1]));
    run(&mut s, "KC+QD");
    assert_eq!(s.current_player(), 1);
    run(&mut s, "AS+2H");
    assert_eq!(s.crib(), hand("KC QD 2H AS"));
    assert!(s.is_chance_node());
    // The starter JC: his heels, 2 for the dealer at once.
    run(&mut s, "JC");
    assert_eq!(s.scores()[..2], [0, 2]);
    // The play. P0 5C (5); P1 TS (15: fifteen two); P0 5D (20); P1 9H (29).
    run(&mut s, "5C TS");
    assert_eq!(s.scores()[..2], [0, 4]);
    run(&mut s, "5D 9H");
    assert_eq!(s.count(), 29);
    // P0 holds 6H 9S: neither fits, go. P1 holds 7C 8D: neither fits either, go; P1 laid the
    // last card: one for the go.
    assert_eq!(s.legal_actions().to_vec(), vec![GO]);
    run(&mut s, "go");
    assert_eq!(s.current_player(), 1);
    assert_eq!(s.legal_actions().to_vec(), vec![GO]);
    run(&mut s, "go");
    assert_eq!(s.scores()[..2], [0, 5]);
    // The count starts again, led by the player after the one who laid the last card: P0.
    assert_eq!((s.count(), s.current_player()), (0, 0));
    run(&mut s, "6H 8D 9S");
    assert_eq!(s.scores()[..2], [0, 5], "6-8-9 is not a run");
    run(&mut s, "7C"); // 30: 6-8-9-7 is a run of four
                       // Every card is laid: P1 scores 4 for the run and 1 for the last card; then the show:
                       // P0 5C 5D 6H 9S + JC = 8 (three fifteens, a pair), P1 TS 9H 7C 8D + JC = 7 (fifteen two
                       // and a run of five), the crib KC QD 2H AS + JC = 3 (J-Q-K).
    assert_eq!(score_hand(hand("5C 5D 6H 9S"), card("JC")).unwrap(), 8);
    assert_eq!(score_hand(hand("TS 9H 7C 8D"), card("JC")).unwrap(), 7);
    assert_eq!(score_crib(hand("KC QD 2H AS"), card("JC")).unwrap(), 3);
    assert_eq!(s.scores()[..2], [8, 2 + 8 + 7 + 3]);
    assert_eq!(sources(&s, 1), [8, 7, 3, 2, 0]);
    assert_eq!(sources(&s, 0), [0, 8, 0, 0, 0]);
    assert_eq!(s.rewards()[..2], [8.0, 4.0 + 1.0 + 7.0 + 3.0]);
    assert_eq!((s.phase(), s.dealer(), s.deals()), (Phase::Deal, Some(0), 2));
}

// ---- three players -------------------------------------------------------------------------

#[test]
fn three_player_deal() {
    let mut s = config(Variant::ThreePlayer, None).new_initial_state();
    run(&mut s, "5D AC 9H"); // P1 cuts the ace and deals; P2 is on his left
    assert_eq!(s.dealer(), Some(1));
    // Five each from P2 round to P1, then one card from the pack to the crib (3S).
    run(&mut s, "2C 7C 6C 3D 8D 6D 4H 9H JH 5S TC KH KS QS AD");
    assert_eq!(s.next_recipient(), None);
    assert!(s.is_chance_node());
    run(&mut s, "3S");
    assert_eq!(s.phase(), Phase::Discard);
    assert_eq!(s.current_player(), 2);
    assert_eq!(s.legal_actions().len(), 5);
    run(&mut s, "KS QS AD 5C");
    assert_eq!(s.crib(), hand("KS QS AD 3S"));
    assert_eq!(s.current_player(), 2, "left of the dealer leads");
    // Sequence 1: 5S, TC (fifteen: P0 2), 6C, 4H (25), P0 go, 6D (31: P1 2).
    run(&mut s, "5S TC 6C 4H");
    assert_eq!(s.side_scores(), &[2, 0, 0]);
    run(&mut s, "go 6D");
    assert_eq!(s.side_scores(), &[2, 2, 0]);
    // Sequence 2, led by P2 (after P1): 2C, 9H, JH, 3D (24); P0 can lay only the 7C: 31.
    assert_eq!((s.count(), s.current_player()), (0, 2));
    run(&mut s, "2C 9H JH 3D");
    assert_eq!(s.legal_actions().to_vec(), vec![id("7C")]);
    run(&mut s, "7C");
    assert_eq!(s.side_scores(), &[4, 2, 0]);
    // Sequence 3, led by P1: KH; P2 has no cards and is skipped; P0 8D (18) is the last card.
    assert_eq!(s.current_player(), 1);
    run(&mut s, "KH");
    assert_eq!(s.current_player(), 0);
    run(&mut s, "8D");
    // Pegging P0 5, P1 2; shows: P2 12, P0 8, P1 6, crib (P1) 4.
    assert_eq!(score_hand(hand("2C 3D 4H 5S"), card("5C")).unwrap(), 12);
    assert_eq!(score_hand(hand("7C 8D 9H TC"), card("5C")).unwrap(), 8);
    assert_eq!(score_hand(hand("6C 6D JH KH"), card("5C")).unwrap(), 6);
    assert_eq!(score_crib(hand("KS QS AD 3S"), card("5C")).unwrap(), 4);
    assert_eq!(s.side_scores(), &[5 + 8, 2 + 6 + 4, 12]);
    assert_eq!((s.dealer(), s.deals()), (Some(2), 2));
}

// ---- four players --------------------------------------------------------------------------

#[test]
fn four_player_deal() {
    let mut s = config(Variant::FourPlayer, None).new_initial_state();
    // P2 and P3 tie with deuces and cut again: 9C against 4C, P3 deals.
    run(&mut s, "KD TD 2S 2H");
    assert_eq!(s.phase(), Phase::Cut);
    assert_eq!(s.legal_actions().len(), 50, "the cards on the table are not in the pack");
    run(&mut s, "9C 4C");
    assert_eq!(s.dealer(), Some(3));
    run(&mut s, "5H 4S AH 9D 5D 6S 3H 9S TH 7S 4H QC JS 8S 6H QH 2C 3C KS 4D");
    run(&mut s, "2C 3C KS 4D 5S");
    assert_eq!(s.crib(), hand("2C 3C KS 4D"));
    // Sequence 1: 5H 4S 6H (15 and a run of three: side 0 5) 9D 5D (29); P1 go; P2 AH (30);
    // P3, P0 go; P1 is out of this count; P2 go: P2 laid the last card, 1.
    run(&mut s, "5H 4S 6H");
    assert_eq!(s.side_scores(), &[5, 0]);
    run(&mut s, "9D 5D go AH go go");
    assert_eq!(s.current_player(), 2, "P1 said go and is skipped");
    run(&mut s, "go");
    assert_eq!(s.side_scores(), &[6, 0]);
    // Sequence 2, led by P3: QC TH 6S 3H (29), four go's: P2 1.
    run(&mut s, "QC TH 6S 3H go go go go");
    assert_eq!(s.side_scores(), &[7, 0]);
    // Sequence 3, led by P3: 9S JS 7S 4H (30); P3 go; P0 has no cards; P1 go; P2 has none: 1.
    run(&mut s, "9S JS 7S 4H go");
    assert_eq!(s.current_player(), 1, "P0 has no cards and is skipped");
    run(&mut s, "go");
    assert_eq!(s.side_scores(), &[8, 0]);
    // Sequence 4, led by P3: QH, P1 8S: the last card of the play, 1 to side 1.
    assert_eq!(s.current_player(), 3);
    run(&mut s, "QH");
    assert_eq!(s.current_player(), 1);
    run(&mut s, "8S");
    // Shows (P0, P1, P2, P3, crib): 21, 14, 12, 8, 8. Side 0 = P0 + P2.
    assert_eq!(score_hand(hand("5H 5D TH JS"), card("5S")).unwrap(), 21);
    assert_eq!(score_hand(hand("4S 6S 7S 8S"), card("5S")).unwrap(), 14);
    assert_eq!(score_hand(hand("AH 3H 4H 6H"), card("5S")).unwrap(), 12);
    assert_eq!(score_hand(hand("9D 9S QC QH"), card("5S")).unwrap(), 8);
    assert_eq!(score_crib(hand("2C 3C KS 4D"), card("5S")).unwrap(), 8);
    assert_eq!(s.side_scores(), &[8 + 21 + 12, 1 + 14 + 8 + 8]);
    assert_eq!(s.scores(), [41, 31, 41, 31]);
    assert_eq!((s.dealer(), s.deals()), (Some(0), 2));
}

// ---- actions -------------------------------------------------------------------------------

#[test]
fn action_ids_and_text_round_trip() {
    let s = GameConfig::default().new_initial_state();
    for a in 0..NUM_DISTINCT_ACTIONS as u16 {
        let text = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&text).unwrap(), a, "{text}");
    }
    assert!(s.action_to_string(NUM_DISTINCT_ACTIONS as u16).is_err());
    assert_eq!(s.string_to_action("jc 5h").unwrap(), pair_action(id("5H"), id("JC")).unwrap());
    assert_eq!(s.string_to_action("GO").unwrap(), GO);
    assert!(s.string_to_action("5H 5H").is_err());
    assert!(s.string_to_action("5H 6H 7H").is_err());
    assert!(s.string_to_action("").is_err());
    // Colex order: by the higher card, then the lower.
    let mut k = PAIR_BASE;
    for b in 1..52 {
        for a in 0..b {
            assert_eq!(pair_action(a, b), Some(k));
            assert_eq!(action_pair(k), Some((a, b)));
            k += 1;
        }
    }
    assert_eq!(k, GO);
    assert_eq!(action_pair(GO), None);
    assert_eq!(action_pair(51), None);
}

#[test]
fn cut_ties_recut_and_illegal_actions_leave_the_state() {
    let mut s = config(Variant::SixCard, None).new_initial_state();
    run(&mut s, "5C");
    let before = s;
    let err = s.apply_action(id("5C")).unwrap_err();
    assert!(err.to_string().contains("illegal action 4 (5C)"), "{err}");
    assert!(err.to_string().contains("legal actions: [0 (AC)"), "{err}");
    assert_eq!(s, before);
    assert!(s.apply_action(GO).is_err());
    assert!(s.apply_action(9999).is_err());
    assert_eq!(s, before);
    run(&mut s, "5D"); // a tie: both cut again
    assert_eq!((s.phase(), s.current_player(), s.dealer()), (Phase::Cut, CHANCE, None));
    assert_eq!(s.cut_cards()[..2], [None, None]);
    run(&mut s, "KD 4S");
    assert_eq!(s.dealer(), Some(1));
    let msg = s.illegal_action_error(-3).to_string();
    assert!(msg.starts_with("illegal action -3 in the deal phase for chance"), "{msg}");
}

#[test]
fn config_and_variant_names() {
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        assert_eq!(v.kept() + v.discards(), v.cards_dealt());
        assert_eq!(v.num_players() * v.discards() + v.crib_from_pack(), 4);
    }
    assert_eq!("FOUR_PLAYER".parse::<Variant>().unwrap(), Variant::FourPlayer);
    assert!("five".parse::<Variant>().is_err());
    assert!(GameConfig::new(Variant::SixCard, Some(10_001)).is_err());
    assert_eq!(GameConfig::new(Variant::SixCard, Some(31)).unwrap().target(), 31);
}

// ---- invariants over random games ----------------------------------------------------------

fn info_tensor(s: &State, p: usize) -> Vec<f32> {
    s.information_state_tensor_vec(p).unwrap()
}

/// Play random games, checking the cribbage invariants at every state (the state's own
/// consistency check, the winner at the target, nobody at the target before the winning
/// action, the payoffs by side); then run the engine framework's conformance suite (action
/// sets, illegal actions, round trips, undo, resampling, tensors) on a share of them.
fn random_games(v: Variant, games: usize, seed: u64, conformance_games: usize) {
    let game = config(v, None);
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut s = game.new_initial_state();
        loop {
            s.check_invariants().unwrap_or_else(|e| panic!("{e}: {s:?}"));
            if s.is_terminal() {
                let w = s.winner().unwrap();
                assert!(s.side_scores()[w] >= game.target());
                let r = s.returns();
                assert!((0..v.num_players()).all(|p| (r[p] > 0.0) == (v.side_of(p) == w)));
                break;
            }
            let legal = s.legal_actions();
            let before = s.side_scores().to_vec();
            s.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            if s.is_terminal() {
                assert!(before.iter().all(|&x| x < game.target()), "nobody had reached the target before");
            }
        }
    }
    let report =
        crate::engine::conformance::check_game(&game, conformance_games, seed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, conformance_games);
    assert!(report.resamples > 0 && report.information_states > 0);
}

const GAMES: usize = if cfg!(debug_assertions) { 150 } else { 10_000 };
const CONFORMANCE_GAMES: usize = if cfg!(debug_assertions) { 12 } else { 300 };

#[test]
fn random_five_card_games() {
    random_games(Variant::FiveCard, GAMES, 1, CONFORMANCE_GAMES);
}

#[test]
fn random_six_card_games() {
    random_games(Variant::SixCard, GAMES, 2, CONFORMANCE_GAMES);
}

#[test]
fn random_three_player_games() {
    random_games(Variant::ThreePlayer, GAMES, 3, CONFORMANCE_GAMES);
}

#[test]
fn random_four_player_games() {
    random_games(Variant::FourPlayer, GAMES, 4, CONFORMANCE_GAMES);
}

#[test]
fn short_games_to_small_targets() {
    for v in Variant::ALL {
        for target in [1, 2, 5, 31] {
            let game = config(v, Some(target));
            let mut rng = Rng::new(target as u64);
            for _ in 0..50 {
                let mut s = game.new_initial_state();
                while !s.is_terminal() {
                    s.check_invariants().unwrap();
                    let l = s.legal_actions();
                    s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
                }
                s.check_invariants().unwrap();
                assert_eq!(State::deserialize(&s.serialize()).unwrap(), s);
            }
        }
    }
}

/// The information state tensor differs exactly when the information state text differs
/// (for a given observer), and the observation tensor is a function of the information.
#[test]
fn tensors_differ_when_information_differs() {
    for v in Variant::ALL {
        let game = config(v, None);
        let mut rng = Rng::new(99);
        let mut by_text: HashMap<(usize, String), (Vec<u32>, Vec<u32>)> = HashMap::new();
        let mut by_tensor: HashMap<(usize, Vec<u32>), String> = HashMap::new();
        let games = if cfg!(debug_assertions) { 2 } else { 40 };
        for _ in 0..games {
            let mut s = game.new_initial_state();
            while !s.is_terminal() {
                // Also visit states that differ in one hidden or recent detail: every child.
                let mut visit = vec![s];
                if !s.is_chance_node() || rng.below(8) == 0 {
                    visit.extend(s.legal_actions().iter().filter_map(|&a| s.child(a).ok()));
                }
                for t in &visit {
                    for p in 0..t.num_players() {
                        let text = t.information_state_string(p).unwrap();
                        let info: Vec<u32> = info_tensor(t, p).iter().map(|x| x.to_bits()).collect();
                        let obs: Vec<u32> = t.observation_tensor_vec(p).unwrap().iter().map(|x| x.to_bits()).collect();
                        let prev = by_text.entry((p, text.clone())).or_insert_with(|| (info.clone(), obs.clone()));
                        assert_eq!(prev.0, info, "same information, different tensors:\n{text}");
                        assert_eq!(prev.1, obs, "same information, different observations:\n{text}");
                        let prev = by_tensor.entry((p, info)).or_insert_with(|| text.clone());
                        assert_eq!(*prev, text, "different information, same tensor");
                    }
                }
                let l = s.legal_actions();
                s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
            }
        }
        assert!(by_text.len() > 300, "{}", by_text.len());
    }
}

#[test]
fn own_discards_are_in_the_information_state() {
    // Two states that differ only in which two cards P0 discarded (and so kept).
    let mut a = config(Variant::SixCard, None).new_initial_state();
    run(&mut a, "KH 3D 5C TS 5D 9H 6H 7C 9S 8D KC 2H QD AS");
    let mut b = a;
    run(&mut a, "KC+QD");
    run(&mut b, "KC+9S");
    assert_ne!(a.information_state_string(0).unwrap(), b.information_state_string(0).unwrap());
    assert_ne!(info_tensor(&a, 0), info_tensor(&b, 0));
    // P1 only knows that P0 has discarded.
    assert_eq!(a.information_state_string(1).unwrap(), b.information_state_string(1).unwrap());
    assert_eq!(info_tensor(&a, 1), info_tensor(&b, 1));
    assert!(a.information_state_string(0).unwrap().contains("discarded: KC QD"));
    assert!(a.information_state_string(2).is_err());
    let mut short = vec![0.0; 10];
    assert!(a.information_state_tensor(0, &mut short).is_err());
}

#[test]
fn resampling_respects_go() {
    // After P0's go at 29 in the six-card script, P0's hidden cards must not fit: 6H and 9S
    // (pips > 2). Resampled for P1, P0 gets only cards of 3+ pips.
    let mut s = config(Variant::SixCard, None).new_initial_state();
    run(&mut s, "KH 3D 5C TS 5D 9H 6H 7C 9S 8D KC 2H QD AS KC+QD AS+2H JC 5C TS 5D 9H go");
    let mut rng = Rng::new(5);
    let mut seen = 0u64;
    for _ in 0..2000 {
        let r = s.resample_from_infostate(1, &mut rng).unwrap();
        let h = r.hand(0);
        assert_eq!(h.len(), 2);
        assert!(h.iter().all(|c| c.pips() >= 3), "{h}");
        assert_eq!(r.hand(1), s.hand(1));
        assert_eq!(r.discards(1), s.discards(1));
        assert_eq!(r.starter(), s.starter());
        seen |= h.mask();
    }
    // Every consistent card turns up: all but what P1 knows (his six cards, the two laid by P0,
    // the starter) and the aces and deuces.
    let eligible = FULL_PACK & !FITS[2] & !(hand("5C 5D TS 9H 7C 8D 2H AS JC").mask());
    assert_eq!(seen, eligible);
}

#[test]
fn deserialize_rejects_bad_text_without_panicking() {
    let mut s = config(Variant::ThreePlayer, None).new_initial_state();
    let mut rng = Rng::new(8);
    let mut texts = Vec::new();
    while !s.is_terminal() {
        texts.push(s.serialize());
        let l = s.legal_actions();
        s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    texts.push(s.serialize());
    assert!(State::deserialize("").is_err());
    assert!(State::deserialize("cribbage/1").is_err());
    let mut accepted = 0;
    for text in texts.iter().step_by(7) {
        let tokens: Vec<&str> = text.split(' ').collect();
        for _ in 0..40 {
            // Change one field value at random.
            let mut t = tokens.clone();
            let i = 1 + rng.below(t.len() as u32 - 1) as usize;
            let (key, _) = t[i].split_once('=').unwrap();
            let junk = ["0", "1", "3", "-", "ffff", "1fff1fff1fff1fff", "5H", "0,0,0,0", "play", "deal", "7C/0", "99"];
            let replaced = format!("{key}={}", junk[rng.below(junk.len() as u32) as usize]);
            t[i] = &replaced;
            let text = t.join(" ");
            if let Ok(mut state) = State::deserialize(&text) {
                accepted += 1;
                // Whatever is accepted plays on without panicking.
                let mut steps = 0;
                while !state.is_terminal() && steps < 2000 {
                    let l = state.legal_actions();
                    assert!(!l.is_empty(), "{text}");
                    state.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
                    let _ = state.information_state_string(0);
                    let _ = state.resample_from_infostate(0, &mut rng);
                    steps += 1;
                }
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn state_is_small_and_copy() {
    fn is_copy<T: Copy>() {}
    is_copy::<State>();
    assert!(std::mem::size_of::<State>() <= 320, "{}", std::mem::size_of::<State>());
    println!("State: {} bytes", std::mem::size_of::<State>());
}

// ---- the lurch/skunk match extra (rules §4) ------------------------------------------------

#[test]
fn lurch_multiplier_thresholds() {
    // 121-point games: a loser under 91 (more than 30 short) is skunked, x2; under 61, x3.
    let six = config(Variant::SixCard, None);
    assert_eq!([91, 90, 61, 60, 0].map(|s| six.lurch_multiplier(s)), [1, 2, 2, 3, 3]);
    // 61-point games: "lurch = loser under 31", x2, and no triple.
    let five = config(Variant::FiveCard, None);
    assert_eq!([31, 30, 0].map(|s| five.lurch_multiplier(s)), [1, 2, 2]);
}

#[test]
fn lurch_scales_returns_and_survives_serialization() {
    use crate::rng::Rng;
    let mut rng = Rng::new(5);
    let mut values = [0usize; 4];
    for (v, games) in [(Variant::SixCard, 300), (Variant::FiveCard, 300), (Variant::ThreePlayer, 100)] {
        let plain = config(v, None);
        let lurch = plain.with_lurch(true);
        for _ in 0..games {
            let mut s = lurch.new_initial_state();
            while !s.is_terminal() {
                let legal = s.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                s.apply_action(a).unwrap();
            }
            let sides = v.num_sides();
            let winner = s.winner().unwrap();
            let best_loser = (0..sides).filter(|&x| x != winner).map(|x| s.side_scores()[x]).max().unwrap();
            let k = lurch.lurch_multiplier(best_loser);
            assert_eq!(s.game_value(), k as u64);
            values[k as usize] += 1;
            let back = State::deserialize(&s.serialize()).unwrap();
            assert_eq!(back, s);
            assert!(back.config().lurch());
            for p in 0..v.num_players() {
                let base = if v.side_of(p) == winner { 1.0 } else { -1.0 / (sides as f64 - 1.0) };
                assert_eq!(s.returns()[p], base * k as f64);
            }
        }
    }
    // Plain wins and skunks both occur under random play (double skunks are rare).
    assert!(values[1] > 0 && values[2] > 0, "{values:?}");
    assert!(!GameConfig::default().lurch());
    // A state of the lurch game is not a state of the plain one, and the message says why.
    let text = config(Variant::SixCard, None).with_lurch(true).new_initial_state().serialize();
    let err = config(Variant::SixCard, None).deserialize_state(&text).unwrap_err();
    assert_eq!(err.to_string(), "the state is of six-card to 121 with lurch, not six-card to 121");
}

// ---- deserialize_state accepts exactly the reachable states (issue 8.4) ----------------------

use crate::engine::serial::with_field;

fn refused(text: &str) -> String {
    State::deserialize(text).err().unwrap_or_else(|| panic!("accepted an unreachable state: {text}")).to_string()
}

#[test]
fn a_cut_after_a_deal_is_refused() {
    // Issue 8.4: phase=cut with deals≠0 is a state play never reaches.
    let text = config(Variant::SixCard, None).new_initial_state().serialize();
    assert!(text.contains("phase=cut") && text.contains("deals=0"));
    let msg = refused(&with_field(&text, "deals", "1"));
    assert!(msg.contains("deals=1 is not reachable: play gives deals=0"), "{msg}");
    // Five-card to 3: the cut's three for last ends the game before any deal (deals stays 0),
    // so a cut with deals=2 would have led to a game over whose own text is refused.
    let game = config(Variant::FiveCard, Some(3));
    let text = game.new_initial_state().serialize();
    refused(&with_field(&text, "deals", "2"));
    refused(&with_field(&with_field(&text, "deals", "2"), "turn", "1"));
    let mut s = game.new_initial_state();
    run(&mut s, "2C 9D");
    assert_eq!((s.phase(), s.deals(), s.winner(), s.scores()[..2].to_vec()), (Phase::GameOver, 0, Some(1), vec![0, 3]));
    assert_eq!(game.deserialize_state(&s.serialize()).unwrap(), s);
    refused(&with_field(&s.serialize(), "deals", "1"));
}

#[test]
fn mutations_of_a_known_state_are_refused() {
    // The scripted five-card deal at the start of the play (P1 to lead, scores 0-3).
    let mut s = five_card_to_play(None);
    five_card_deal(&mut s);
    let text = s.serialize();
    assert_eq!(State::deserialize(&text).unwrap(), s);
    for (key, value) in [
        ("phase", "discard"),
        ("phase", "starter"),
        ("deals", "2"), // deal 2 would be P1's, and P0 cut the lower card
        ("dealer", "1"),
        ("turn", "0"),
        ("count", "5"),
        ("scores", "0,4,0"),                          // the sources add to 3
        ("sources", "0,0,0,0,0,1,0,0,0,2,0,0,0,0,0"), // 3 moved from three for last to pegging
        ("winner", "1"),
        ("rewards", "0,3,0"), // the starter (6S, not a jack) scored nothing
        ("starter", "-"),
        ("passed", "1"),
        ("gomin", "0,24,0,0"),
        ("cuts", "9D,2C,-,-"), // then P1 deals
        ("cuts", "2C,2D,-,-"), // a tie re-cuts
        ("hands", "zz"),
        ("count", "abc"),
    ] {
        let msg = refused(&with_field(&text, key, value));
        assert!(msg.starts_with("not a cribbage state: "), "{key}: {msg}");
    }
    // Points before the first deal other than three for last.
    let mut m = s;
    m.scores[1] += 2;
    m.sources[1][PointSource::Pegging as usize] += 2;
    refused(&m.serialize());
    // A card moved between hands; a card twice (the starter also in a hand).
    let six_c = card("6C");
    let mut m = s;
    m.hands[0] &= !six_c.bit();
    m.kept[0].remove(six_c);
    m.hands[1] |= six_c.bit();
    m.kept[1].add(six_c);
    refused(&m.serialize());
    let starter = card("6S");
    let mut m = s;
    m.hands[0] |= starter.bit();
    m.kept[0].add(starter);
    refused(&m.serialize());
    // Truncated, extra and doubled fields, garbage.
    refused(&text[..text.len() - 6]);
    refused(&format!("{text} extra=1"));
    refused(&format!("{text} count=0"));
    refused(&text.replace("cribbage/1", "cribbage/2"));
    // Swapping two cards between the hands is another deal, reachable just as well.
    let four_h = card("4H");
    let mut m = s;
    for (from, to, c) in [(1, 0, four_h), (0, 1, six_c)] {
        m.hands[from] &= !c.bit();
        m.kept[from].remove(c);
        m.hands[to] |= c.bit();
        m.kept[to].add(c);
    }
    assert_eq!(State::deserialize(&m.serialize()).unwrap(), m);
    // At the start of deal 2 the last action (the show) scored 20 and 10: that it scored is
    // checked (the exact points are only bounded).
    run(&mut s, "5H 6C 4H 9C go go");
    let text = s.serialize();
    assert!(text.contains("rewards=20,10,0") && text.contains("deals=2"), "{text}");
    assert_eq!(State::deserialize(&text).unwrap(), s);
    refused(&with_field(&text, "rewards", "0,0,0"));
    refused(&with_field(&text, "dealer", "0"));
    // Sources that do not add up, large enough to overflow a u16 sum: refused, no panic.
    let many = with_field(&with_field(&text, "deals", "5000"), "scores", "60,20,0");
    refused(&with_field(&many, "sources", "30000,30000,30000,0,0,0,17,0,0,3,0,0,0,0,0"));
    // Heels for P1, who has not dealt yet (P0 dealt deal 1).
    let msg =
        refused(&with_field(&with_field(&text, "scores", "20,20,0"), "sources", "1,12,7,0,0,5,10,0,2,3,0,0,0,0,0"));
    assert!(msg.contains("heels"), "{msg}");
    // Fewer pegging points than deals played: each deal scores its last card.
    let msg =
        refused(&with_field(&with_field(&text, "scores", "20,18,0"), "sources", "0,13,7,0,0,0,15,0,0,3,0,0,0,0,0"));
    assert!(msg.contains("fewer pegging points"), "{msg}");
}

/// Every state of random games in every variant (lurch on and off, a short and the usual
/// target) reads back equal from its text, and is its own replay; mutated texts are refused
/// or accepted as states that replay, round-trip and play to the end.
/// Every state of random games in every variant (lurch on and off, a short and the usual
/// target) reads back equal from its text; mutated texts are refused or accepted as states that
/// round-trip and play to the end (`deserialize` accepts only what its replay gives back).
#[test]
fn every_state_round_trips_and_mutants_are_refused_or_reachable() {
    let mut total = crate::engine::conformance::Report::default();
    for v in Variant::ALL {
        for (target, games, lurch) in [(None, 6, false), (None, 4, true), (Some(15), 25, false), (Some(15), 25, true)] {
            let r = crate::engine::conformance::check_texts(&config(v, target).with_lurch(lurch), games, 84)
                .unwrap_or_else(|e| panic!("{e}"));
            (total.actions, total.mutants, total.mutants_accepted) =
                (total.actions + r.actions, total.mutants + r.mutants, total.mutants_accepted + r.mutants_accepted);
        }
    }
    assert!(total.actions > 10_000 && total.mutants > 2_000 && total.mutants_accepted > 0, "{total:?}");
}
