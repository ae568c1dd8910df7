use super::*;
use crate::cribbage::{self, Variant};
use crate::engine::play_out;
use crate::engine::Policy;
use crate::eval::heuristic::Heuristic;
use crate::piquet;

fn bot<S: SearchGame>(iterations: u32, threads: usize, rollout: Rollout) -> Ismcts<S> {
    Ismcts::new(IsmctsConfig { iterations, threads, rollout, ..IsmctsConfig::default() }).unwrap()
}

/// Decision states of `game` reached by random play.
fn decision_states<G: Game>(game: G, n: usize, seed: u64) -> Vec<G::State> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut s = game.new_initial_state();
        while !s.is_terminal() && out.len() < n {
            if s.sample_chance(&mut rng).map(|a| s.apply_legal(a)).is_some() {
                continue;
            }
            let legal = s.legal_actions();
            if legal.len() > 1 && rng.below(6) == 0 {
                out.push(s);
            }
            s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
        }
    }
    out
}

fn legal_everywhere<G: Game>(game: G)
where
    G::State: SearchGame,
{
    let mut rng = Rng::new(5);
    for rollout in [Rollout::Heuristic, Rollout::Random] {
        let mut b = bot::<G::State>(60, 1, rollout);
        for s in decision_states(game, 8, 2) {
            let a = b.step(&s, &mut rng).unwrap();
            assert!(s.is_legal(a), "{a} at {s}");
            let v = b.action_values(&s, &mut rng).unwrap();
            assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), s.legal_actions().to_vec());
            assert!(v.iter().all(|x| (0.0..=1.0).contains(&x.1)), "{v:?}");
        }
    }
}

#[test]
fn only_legal_actions_in_every_game() {
    for v in Variant::ALL {
        legal_everywhere(cribbage::GameConfig::new(v, None).unwrap());
    }
    for rules in [piquet::Rules::russian(), piquet::Rules::rubicon()] {
        for scope in [piquet::Scope::Deal, piquet::Scope::Partiya] {
            legal_everywhere(piquet::GameConfig::new(rules, scope).unwrap());
        }
    }
}

#[test]
fn same_seed_and_threads_same_actions() {
    let states = decision_states(cribbage::GameConfig::default(), 6, 3);
    for threads in [1, 2] {
        let run = || {
            let mut b = bot::<cribbage::State>(300, threads, Rollout::Heuristic);
            let mut rng = Rng::new(11);
            states.iter().map(|s| b.action_values(s, &mut rng).unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}

#[test]
fn a_winning_card_is_found() {
    // Positions where the player to move surely wins at once with some card and not with
    // every card: the winning cards are worth exactly 1.
    let game = cribbage::GameConfig::new(Variant::SixCard, None).unwrap();
    let mut rng = Rng::new(9);
    let (mut found, mut risky) = (0, 0);
    let mut b = bot::<cribbage::State>(400, 1, Rollout::Heuristic);
    let mut policies: Vec<Box<dyn Policy<cribbage::State>>> = vec![Box::new(Heuristic)];
    for seed in 0..400u64 {
        let mut s = game.new_initial_state();
        let mut g = Rng::new(seed);
        while !s.is_terminal() {
            if let Some(a) = s.sample_chance(&mut g) {
                s.apply_legal(a);
                continue;
            }
            let legal = s.legal_actions();
            let p = s.current_player() as usize;
            // Sure wins: in the real deal and in every world p cannot tell from it (a last-card
            // point depends on the opponent's hidden cards).
            let mut worlds = vec![s];
            worlds.extend((0..30).map(|_| s.resample_from_infostate(p, &mut g).unwrap()));
            let wins: Vec<u16> = legal
                .iter()
                .copied()
                .filter(|&a| {
                    worlds.iter().all(|w| {
                        let mut t = *w;
                        t.apply_legal(a);
                        t.is_terminal() && t.winner() == Some(p)
                    })
                })
                .collect();
            if s.phase() == cribbage::Phase::Play && !wins.is_empty() && wins.len() < legal.len() {
                // A winning card ends every iteration through it with value 1: its mean is
                // exactly 1, at least any other card's.
                let values = b.action_values(&s, &mut rng).unwrap();
                let top = values.iter().map(|x| x.1).fold(0.0, f64::max);
                for &(a, v) in &values {
                    if wins.contains(&a) {
                        assert_eq!(v, 1.0, "{a} at {s}");
                    }
                }
                assert_eq!(top, 1.0);
                // Where every other card risks the game, the bot plays a winning one.
                let others = values.iter().filter(|x| !wins.contains(&x.0)).map(|x| x.1).fold(0.0, f64::max);
                if others < 0.9 {
                    let a = b.step(&s, &mut rng).unwrap();
                    assert!(wins.contains(&a), "{a} not in {wins:?} at {s}");
                    risky += 1;
                }
                found += 1;
                break;
            }
            let a = Heuristic.choose(&s, &legal, &mut g);
            s.apply_legal(a);
        }
        if found == 12 {
            break;
        }
    }
    assert!(found >= 8 && risky >= 1, "only {found} positions, {risky} risky");
    let _ = play_out(game.new_initial_state(), &mut policies, &mut rng).unwrap();
}

#[test]
fn the_tree_is_reused_for_the_same_information() {
    let s = decision_states(cribbage::GameConfig::default(), 1, 4)[0];
    let mut b = bot::<cribbage::State>(200, 1, Rollout::Random);
    let mut rng = Rng::new(1);
    b.action_values(&s, &mut rng).unwrap();
    let visits = b.trees[0].nodes[0].visits;
    assert_eq!(visits, 200);
    b.action_values(&s, &mut rng).unwrap();
    assert_eq!(b.trees[0].nodes[0].visits, 400);
    b.restart();
    b.action_values(&s, &mut rng).unwrap();
    assert_eq!(b.trees[0].nodes[0].visits, 200);
}

#[test]
fn the_tree_is_reused_after_moves_the_observer_sees() {
    // A six-card pegging decision; the bot plays, the opponent answers with a card: the new
    // decision's information is one the old tree reached, and its subtree is kept.
    let game = cribbage::GameConfig::default();
    let mut rng = Rng::new(8);
    let mut reused = 0;
    for s in decision_states(game, 40, 6) {
        let p = s.current_player();
        if s.phase() != cribbage::Phase::Play || s.count() > 10 {
            continue;
        }
        let mut b = bot::<cribbage::State>(3000, 1, Rollout::Heuristic);
        let a = b.step(&s, &mut rng).unwrap();
        let mut t = s;
        t.apply_legal(a);
        if t.current_player() == p || t.is_chance_node() || t.is_terminal() {
            continue;
        }
        let reply = t.legal_actions()[0];
        t.apply_legal(reply);
        if t.current_player() != p {
            continue;
        }
        let kept = b.trees[0].nodes.len();
        assert!(b.trees[0].reuse_or_reset(&t, p as usize), "not reused at {t}");
        let tree = &b.trees[0];
        assert!(tree.nodes.len() > 1 && tree.nodes.len() < kept);
        assert!(tree.nodes[0].visits > 0);
        reused += 1;
    }
    assert!(reused >= 3, "{reused}");
}

#[test]
fn the_tree_grows_by_doubling_up_to_its_limit_and_then_says_so() {
    let mut nodes: Vec<Node> = Vec::new();
    let mut capacities = Vec::new();
    for _ in 0..3000 {
        grow_nodes(&mut nodes, 3000).unwrap();
        nodes.push(Node::new(0, 0, 0));
        if capacities.last() != Some(&nodes.capacity()) {
            capacities.push(nodes.capacity());
        }
    }
    assert_eq!(capacities, [1024, 2048, 3000]);
    let e = grow_nodes(&mut nodes, 3000).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory(_)));
    assert!(e.to_string().starts_with("ismcts: the search tree reached 3000 nodes"), "{e}");
}

#[test]
fn a_huge_budget_reserves_nothing_up_front() {
    let s = decision_states(cribbage::GameConfig::default(), 1, 4)[0];
    let mut b = Ismcts::<cribbage::State>::new(IsmctsConfig {
        iterations: u32::MAX,
        time_limit: Some(Duration::from_millis(30)),
        ..IsmctsConfig::default()
    })
    .unwrap();
    b.step(&s, &mut Rng::new(1)).unwrap();
    let tree = &b.trees[0];
    assert!(tree.nodes.capacity() <= 2 * tree.nodes.len().max(1024), "{}", tree.nodes.capacity());
}

#[test]
fn another_game_gets_its_own_context_and_trees() {
    let s31 = decision_states(cribbage::GameConfig::new(Variant::SixCard, Some(31)).unwrap(), 1, 4)[0];
    let s121 = decision_states(cribbage::GameConfig::default(), 1, 4)[0];
    let mut b = bot::<cribbage::State>(300, 1, Rollout::Heuristic);
    b.step(&s31, &mut Rng::new(1)).unwrap();
    let after = b.action_values(&s121, &mut Rng::new(2)).unwrap();
    let fresh = bot::<cribbage::State>(300, 1, Rollout::Heuristic).action_values(&s121, &mut Rng::new(2)).unwrap();
    assert_eq!(after, fresh);
    assert_eq!(b.context.as_ref().map(|c| c.0), Some(s121.game()));
}

#[test]
fn an_interrupt_stops_the_search() {
    let s = decision_states(cribbage::GameConfig::default(), 1, 4)[0];
    let flag = interrupt::Interrupt::new();
    flag.raise();
    for threads in [1, 2] {
        let mut b = bot::<cribbage::State>(u32::MAX, threads, Rollout::Heuristic);
        let e = interrupt::with(&flag, || b.step(&s, &mut Rng::new(1))).unwrap_err();
        assert_eq!(e, Error::Interrupted);
    }
}

#[test]
fn bad_settings_and_chance_states_are_errors() {
    assert!(Ismcts::<piquet::State>::new(IsmctsConfig { iterations: 0, ..IsmctsConfig::default() }).is_err());
    assert!(Ismcts::<piquet::State>::new(IsmctsConfig { threads: 0, ..IsmctsConfig::default() }).is_err());
    assert!("nope".parse::<Rollout>().is_err());
    let start = piquet::GameConfig::default().new_initial_state();
    let mut b = bot::<piquet::State>(10, 1, Rollout::Random);
    assert!(b.step(&start, &mut Rng::new(1)).unwrap_err().to_string().contains("chance node"));
}
