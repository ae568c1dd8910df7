//! The proof that a game is a folder (issue 31, item 6): high card, a third game written only
//! here, implements the framework's traits ([`game`]) and the bots' ([`bots`]) and then passes the
//! conformance suite, plays in `simulate` and the arena with players named in the registry, and is
//! played by the generic bots (Random, First, IS-MCTS, PIMC over its own solver) — with no edit to
//! the library. A bot it lacks (Greedy) is reported as not available.
//!
//! A Cargo integration test (`cargo test --test toy_game`): it sees the library only through its
//! public API, as a new game's author would.

mod bots;
mod game;

use cribpiquet::bots::arena::Arena;
use cribpiquet::bots::ismcts::{Ismcts, IsmctsConfig};
use cribpiquet::bots::pimc::{Pimc, PimcConfig};
use cribpiquet::bots::registry::{policy_by_name, BotSpec};
use cribpiquet::bots::{Bot, FirstBot, RandomBot};
use cribpiquet::engine::conformance::{check_game, check_texts};
use cribpiquet::engine::{simulate, Game, GameState, PolicyFactory};
use cribpiquet::rng::Rng;
use cribpiquet::solve::{Objective, Solve};

use game::{HighCard, State};

/// The state after dealing `p0` and `p1` (dealt alternately from P0) and playing `plays`.
fn dealt(p0: [u16; 2], p1: [u16; 2], plays: &[u16]) -> State {
    let mut s = HighCard.new_initial_state();
    for a in [p0[0], p1[0], p0[1], p1[1]].into_iter().chain(plays.iter().copied()) {
        s.apply_action(a).unwrap();
    }
    s
}

#[test]
fn passes_the_conformance_suite() {
    let report = check_game(&HighCard, 300, 1).unwrap();
    assert_eq!(report.games, 300);
    // Four deals and two plays a game; mutated texts were tried and some accepted.
    assert_eq!(report.actions, 300 * 6);
    assert!(report.mutants > 1000 && report.mutants_accepted > 0, "{report:?}");
    assert!(report.resamples > 100 && report.information_states > 50, "{report:?}");
    let texts = check_texts(&HighCard, 200, 2).unwrap();
    assert_eq!(texts.games, 200);
}

#[test]
fn the_rules_hand_checked() {
    let s = dealt([1, 4], [0, 5], &[]);
    assert_eq!(s.serialize(), "p0:1,4 p1:0,5 led:- answer:-");
    assert_eq!((s.current_player(), s.legal_actions().to_vec()), (0, vec![1, 4]));
    let end = dealt([1, 4], [0, 5], &[4, 5]);
    assert!(end.is_terminal());
    assert_eq!((end.winner(), end.returns(), end.scores()), (Some(1), vec![-1.0, 1.0], vec![0, 1]));
    assert_eq!(end.rewards(), [0.0, 1.0]);
    let low = dealt([1, 4], [0, 5], &[4, 0]);
    assert_eq!((low.winner(), low.returns()), (Some(0), vec![1.0, -1.0]));
    assert!(HighCard.deserialize_state("p0:1,4 p1:1,5 led:- answer:-").is_err());
    assert!(HighCard.deserialize_state("p0:1,4 p1:0,5 led:- answer:5").is_err());
}

#[test]
fn the_solver_hand_checked() {
    // P0 holds 1 and 4, P1 0 and 5: P1's 5 takes any lead, so P0 loses whatever he leads.
    let s = dealt([1, 4], [0, 5], &[]);
    let win = s.solve(Objective::Win).unwrap();
    assert_eq!((win.value, win.action_values.clone()), (0.0, vec![(1, 0.0), (4, 0.0)]));
    assert_eq!(s.solve(Objective::Points).unwrap().value, -1.0);
    // P0 holds 3 and 5, P1 0 and 4: the 5 wins, the 3 loses to the 4.
    let s = dealt([3, 5], [0, 4], &[]);
    let sol = s.solve(Objective::Points).unwrap();
    assert_eq!((sol.value, sol.best_actions.clone()), (1.0, vec![5]));
    assert_eq!(sol.action_values, [(3, -1.0), (5, 1.0)]);
    assert_eq!(sol.principal_variation[0], 5);
}

#[test]
fn simulate_and_the_arena_take_registry_players() {
    let names = ["random", "first", "ismcts:20", "pimc:4"];
    for a in names {
        for b in names {
            let players: Vec<PolicyFactory<State>> = vec![policy_by_name(a).unwrap(), policy_by_name(b).unwrap()];
            let out = simulate(&HighCard, &players, 5, 0, 40, Some(1)).unwrap();
            assert_eq!(out.n_games, 40);
            // Every game has a winner with one point, and the same seed plays the same games.
            assert!(out.winner.iter().all(|&w| w == 0 || w == 1), "{a} vs {b}");
            assert_eq!(out.scores.iter().sum::<i32>(), 40);
            let again: Vec<PolicyFactory<State>> = vec![policy_by_name(a).unwrap(), policy_by_name(b).unwrap()];
            assert_eq!(simulate(&HighCard, &again, 5, 0, 40, Some(2)).unwrap(), out, "{a} vs {b}");
        }
    }
    // The arena: PIMC (perfect in the play: it sees the lead and, as leader, solves every deal
    // of what it may face) against first: it wins at least as often.
    let arena =
        Arena::new(HighCard, vec![policy_by_name("pimc:30").unwrap(), policy_by_name("first").unwrap()]).unwrap();
    let counts = arena.play(7, 0..400).unwrap();
    assert_eq!((counts.games, counts.draws, counts.wins[0] + counts.wins[1]), (400, 0, 400));
    assert!(counts.wins[0] > counts.wins[1], "{counts:?}");
    let mut split = arena.play(7, 0..150).unwrap();
    split.add(&arena.play(7, 150..400).unwrap());
    assert_eq!(split, counts);
}

#[test]
fn the_generic_bots_play_it_and_a_missing_bot_is_reported() {
    // The answer: P1 sees the lead; with a higher card he takes the trick, and both searches
    // know it (P0 led 3; P1 holds 0 and 4).
    let s = dealt([1, 3], [0, 4], &[3]);
    let mut bots: Vec<Box<dyn Bot<State>>> = vec![
        Box::new(Ismcts::<State>::new(IsmctsConfig { iterations: 200, ..IsmctsConfig::default() }).unwrap()),
        Box::new(Pimc::<State>::new(PimcConfig { worlds: 10, ..PimcConfig::default() }).unwrap()),
        BotSpec::from_name("ismcts:200").unwrap().bot::<State>(),
        BotSpec::from_name("pimc:10").unwrap().bot::<State>(),
    ];
    for bot in &mut bots {
        assert_eq!(bot.step(&s, &mut Rng::new(3)).unwrap(), 4, "{}", bot.name());
        let values = bot.action_values(&s, &mut Rng::new(3)).unwrap();
        assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), [0, 4]);
        assert!(values[1].1 > values[0].1, "{}: {values:?}", bot.name());
    }
    // PIMC's values are the solver's in every world (the answer hides nothing): exactly 0 and 1.
    assert_eq!(bots[1].action_values(&s, &mut Rng::new(1)).unwrap(), [(0, 0.0), (4, 1.0)]);
    for bot in [&mut RandomBot as &mut dyn Bot<State>, &mut FirstBot] {
        assert!(s.legal_actions().contains(&bot.step(&s, &mut Rng::new(1)).unwrap()));
    }
    // No Greedy for high card: the registry says so, by name and when asked to decide.
    let msg = "the greedy bot is not available for high card";
    assert_eq!(policy_by_name::<State>("greedy").err().unwrap().to_string(), msg);
    assert_eq!(BotSpec::Greedy.available::<State>().unwrap_err().to_string(), msg);
    assert!(BotSpec::from_name("pimc").unwrap().available::<State>().is_ok());
    let mut greedy = BotSpec::Greedy.bot::<State>();
    assert_eq!(greedy.step(&s, &mut Rng::new(1)).unwrap_err().to_string(), msg);
    assert_eq!(greedy.name(), "greedy");
}
