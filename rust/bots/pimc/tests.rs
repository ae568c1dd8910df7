use super::*;
use crate::bots::ismcts::{Ismcts, IsmctsConfig};
use crate::cribbage::{discard_tables, GameConfig, Phase, TablesModel, TablesOptions};

fn bot(worlds: u32, threads: usize, objective: Objective) -> Pimc<cribbage::State> {
    // Every decision by the worlds (the setting that exercises the most of the search).
    let before_play = BeforePlay::Worlds;
    Pimc::new(PimcConfig { worlds, threads, objective, inference: false, time_limit: None, before_play }).unwrap()
}

fn split_bot(worlds: u32, objective: Objective, before_play: BeforePlay) -> Pimc<cribbage::State> {
    Pimc::new(PimcConfig { worlds, objective, inference: false, before_play, ..PimcConfig::default() }).unwrap()
}

/// Decision states of `config` reached by random play (every phase with a choice).
fn decisions(config: GameConfig, n: usize, seed: u64) -> Vec<cribbage::State> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut s = config.new_initial_state();
    while out.len() < n {
        if s.is_terminal() {
            s = config.new_initial_state();
        }
        if s.apply_sampled_chances(&mut rng) > 0 || s.is_terminal() {
            continue;
        }
        let legal = s.legal_actions();
        if legal.len() > 1 && rng.below(4) == 0 {
            out.push(s);
        }
        s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
    }
    out
}

#[test]
fn legal_actions_and_values_in_every_variant() {
    let mut rng = Rng::new(1);
    for v in Variant::ALL {
        for objective in [Objective::Win, Objective::Points] {
            let mut b = bot(3, 1, objective);
            for s in decisions(GameConfig::new(v, None).unwrap(), 6, 2) {
                let values = b.action_values(&s, &mut rng).unwrap();
                assert_eq!(values.iter().map(|x| x.0).collect::<Vec<_>>(), s.legal_actions().to_vec());
                if objective == Objective::Win {
                    assert!(values.iter().all(|x| (0.0..=1.0).contains(&x.1)), "{values:?} at {s}");
                }
                let a = b.step(&s, &mut rng).unwrap();
                assert!(s.is_legal(a));
            }
        }
    }
}

#[test]
fn deterministic_for_a_seed_and_any_thread_count() {
    let states = decisions(GameConfig::default(), 8, 3);
    let run = |threads: usize| {
        let mut b = bot(6, threads, Objective::Win);
        let mut rng = Rng::new(11);
        states.iter().map(|s| b.action_values(s, &mut rng).unwrap()).collect::<Vec<_>>()
    };
    let one = run(1);
    assert_eq!(one, run(1));
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}

#[test]
fn one_world_is_the_solver_on_that_world() {
    // With one world, PIMC's values are the solver's on the world it draws (its seed is the
    // first draw of the generator handed in): the full information of that world.
    let mut n = 0;
    for objective in [Objective::Points, Objective::Win] {
        let mut b = bot(1, 1, objective);
        for (k, s) in decisions(GameConfig::default(), 60, 4).into_iter().enumerate() {
            if s.phase() != Phase::Play {
                continue;
            }
            let p = s.current_player() as usize;
            let seed = world_seed(Rng::new(k as u64).next_u64(), 0);
            let world = s.resample_from_infostate(p, &mut Rng::new(seed)).unwrap();
            let sol = world.solve(objective).unwrap();
            assert_eq!(b.action_values(&s, &mut Rng::new(k as u64)).unwrap(), sol.action_values);
            assert_eq!(b.step(&s, &mut Rng::new(k as u64)).unwrap(), sol.best_actions[0]);
            n += 1;
        }
    }
    assert!(n >= 10, "{n}");
}

#[test]
fn the_best_mean_is_played_and_a_discard_is_valued() {
    // At a six-card discard, every one of the 15 discards gets a value; the step is the best,
    // the lowest of equal ones.
    let mut b = bot(4, 1, Objective::Points);
    let s = decisions(GameConfig::default(), 40, 5).into_iter().find(|s| s.phase() == Phase::Discard).unwrap();
    let values = b.action_values(&s, &mut Rng::new(1)).unwrap();
    assert_eq!(values.len(), 15);
    let top = values.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let first_best = values.iter().find(|x| x.1 == top).unwrap().0;
    assert_eq!(b.step(&s, &mut Rng::new(1)).unwrap(), first_best);
    // Points values are point differences of a deal: within the possible range, not all equal.
    assert!(values.iter().all(|x| x.1.abs() < 80.0));
    assert!(values.iter().any(|x| x.1 != top));
}

#[test]
fn discard_likelihood_is_a_distribution() {
    let tables = DiscardTables::initial(Variant::FiveCard, true, TablesModel::ThrownOnly).unwrap();
    let dealt: Hand = "5H 5D JS 2C 9H".parse().unwrap();
    let cards: Vec<_> = dealt.iter().collect();
    let mut total = 0.0;
    let mut best = (0.0, Hand::new());
    for j in 1..5 {
        for i in 0..j {
            let thrown = Hand::from_mask(cards[i].bit() | cards[j].bit()).unwrap();
            let p = discard_likelihood(dealt, thrown, true, &tables);
            assert!(p > 0.0 && p < 1.0);
            total += p;
            if p > best.0 {
                best = (p, thrown);
            }
        }
    }
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // The dealer keeps the pair of fives and the jack-five fifteen: the likeliest throw is 2C 9H.
    assert_eq!(best.1.to_string(), "2C 9H");
}

#[test]
fn bad_settings_cancel_and_chance_nodes_are_errors() {
    assert!(Pimc::<cribbage::State>::new(PimcConfig { worlds: 0, ..PimcConfig::default() }).is_err());
    assert!(Pimc::<cribbage::State>::new(PimcConfig { threads: 0, ..PimcConfig::default() }).is_err());
    let start = GameConfig::default().new_initial_state();
    let mut b = bot(2, 1, Objective::Win);
    assert!(b.step(&start, &mut Rng::new(1)).unwrap_err().to_string().contains("chance node"));
    let s = decisions(GameConfig::default(), 1, 6)[0];
    b.cancel_flag().store(true, Ordering::Relaxed);
    assert!(b.step(&s, &mut Rng::new(1)).unwrap_err().to_string().contains("cancelled"));
    b.cancel_flag().store(false, Ordering::Relaxed);
    assert!(b.step(&s, &mut Rng::new(1)).is_ok());
}

#[test]
fn piquet_plays_with_the_double_dummy_solver() {
    let config = piquet::GameConfig::default();
    let mut s = config.new_initial_state();
    let mut rng = Rng::new(2);
    s.apply_sampled_chances(&mut rng);
    let mut b =
        Pimc::<piquet::State>::new(PimcConfig { worlds: 1, inference: false, ..PimcConfig::default() }).unwrap();
    let a = b.step(&s, &mut rng).unwrap();
    assert!(s.is_legal(a));
}

#[test]
fn preplay_points_value_is_the_exact_mean_over_starters() {
    // Before the starter is turned, the value for a player of each starter's play (solved, with
    // the heels and the show of that starter) averaged over every starter equals the cribbage
    // shortcut (the pegging solved once, the show and heels averaged exactly), from any starter.
    let mut checked = 0;
    for v in [Variant::SixCard, Variant::FiveCard, Variant::FourPlayer] {
        let config = GameConfig::new(v, Some(10_000)).unwrap();
        let mut rng = Rng::new(9);
        let mut s = config.new_initial_state();
        let mut found = 0;
        while found < 4 {
            if s.phase() == Phase::Starter {
                let starters = s.legal_actions();
                let p = rng.below(s.num_players() as u32) as usize;
                let mut total = 0.0;
                for &c in starters.iter() {
                    let t = s.child(c).unwrap();
                    total += generic_preplay_value(&t, &s, p, Objective::Points).unwrap();
                }
                let mean = total / starters.len() as f64;
                let t = s.child(starters[rng.below(starters.len() as u32) as usize]).unwrap();
                let shortcut = t.preplay_value(&s, p, Objective::Points).unwrap();
                assert!((shortcut - mean).abs() < 1e-9, "{shortcut} vs {mean} at {s}");
                found += 1;
                checked += 1;
            }
            if s.apply_sampled_chances(&mut rng) > 0 {
                continue;
            }
            let legal = s.legal_actions();
            s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
        }
    }
    assert_eq!(checked, 12);
}

#[test]
fn rest_points_is_the_pegging_of_the_solved_line() {
    // The split discard's sampled rest: the solver's value less the show equals the pegging
    // points of the principal variation played out, for either player, in both variants.
    let mut checked = 0;
    for v in [Variant::SixCard, Variant::FiveCard] {
        let config = GameConfig::new(v, Some(10_000)).unwrap();
        let mut rng = Rng::new(17);
        let mut s = config.new_initial_state();
        let mut found = 0;
        while found < 20 {
            if s.is_terminal() {
                s = config.new_initial_state();
            }
            if s.apply_sampled_chances(&mut rng) > 0 {
                continue;
            }
            if s.phase() == Phase::Play && s.current_player() >= 0 && rng.below(3) == 0 {
                let sol = s.solve(Objective::Points).unwrap();
                let mut end = s;
                for &b in &sol.principal_variation {
                    end.apply_legal(b);
                }
                let pegged: Vec<f64> = (0..2)
                    .map(|side| (end.points_by_source()[side][0] - s.points_by_source()[side][0]) as f64)
                    .collect();
                for p in 0..2 {
                    let side = s.side_of(p);
                    let expected = pegged[side] - pegged[1 - side];
                    assert_eq!(s.rest_points(p).unwrap(), expected, "{s}");
                }
                found += 1;
                checked += 1;
            }
            let legal = s.legal_actions();
            s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn a_discard_splits_into_greedys_exact_net_and_the_sampled_pegging() {
    for v in [Variant::SixCard, Variant::FiveCard] {
        let config = GameConfig::new(v, None).unwrap();
        let discards: Vec<_> =
            decisions(config, 60, 3).into_iter().filter(|s| s.phase() == Phase::Discard && !near_end(s)).collect();
        assert!(discards.len() >= 3);
        for s in discards.iter().take(3) {
            let legal = s.legal_actions().to_vec();
            let exact = exact_points(s, &legal).unwrap().expect("a two-player discard away from the end splits");
            // The exact part is Greedy's value of each discard.
            let greedy = Greedy::new().action_values(s, &mut Rng::new(0)).unwrap();
            for (a, e) in legal.iter().zip(&exact) {
                assert_eq!(greedy.iter().find(|x| x.0 == *a).unwrap().1, *e);
            }
            // The worlds add only the pegging: the same under either objective, so the same
            // choice; Win values are the points mapped monotonically into 0..1.
            let play = BeforePlay::ExactAndPlay;
            let points = split_bot(6, Objective::Points, play).action_values(s, &mut Rng::new(4)).unwrap();
            let win = split_bot(6, Objective::Win, play).action_values(s, &mut Rng::new(4)).unwrap();
            for ((a, x), e) in points.iter().zip(&exact) {
                assert!((x - e).abs() < 20.0, "pegging difference {} for {a}", x - e);
            }
            assert!(win.iter().all(|x| (0.0..=1.0).contains(&x.1)));
            for i in 0..points.len() {
                for j in 0..points.len() {
                    if points[i].1 < points[j].1 {
                        assert!(win[i].1 <= win[j].1);
                    }
                }
            }
            let a = split_bot(6, Objective::Points, play).step(s, &mut Rng::new(4)).unwrap();
            assert_eq!(split_bot(6, Objective::Win, play).step(s, &mut Rng::new(4)).unwrap(), a);
            // `Exact` (the default): Greedy's values alone, the best of them played.
            let exact_bot =
                split_bot(6, Objective::Points, BeforePlay::Exact).action_values(s, &mut Rng::new(4)).unwrap();
            assert_eq!(exact_bot, greedy);
            let chosen = split_bot(6, Objective::Win, BeforePlay::Exact).step(s, &mut Rng::new(4)).unwrap();
            let top = greedy.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(greedy.iter().find(|x| x.1 == top).unwrap().0, chosen);
        }
    }
}

#[test]
fn only_a_two_player_discard_or_a_piquet_exchange_splits() {
    // Two-player discards split near the end of the game too; three and four players do not.
    let config = GameConfig::new(Variant::SixCard, Some(31)).unwrap();
    let (mut near, mut far) = (0, 0);
    for s in decisions(config, 400, 2).into_iter().filter(|s| s.phase() == Phase::Discard) {
        assert!(exact_points(&s, &s.legal_actions()).unwrap().is_some(), "{s}");
        if near_end(&s) {
            near += 1
        } else {
            far += 1
        }
    }
    assert!(near > 0 && far > 0, "{near} {far}");
    for v in [Variant::ThreePlayer, Variant::FourPlayer] {
        let s = decisions(GameConfig::new(v, None).unwrap(), 30, 2)
            .into_iter()
            .find(|s| s.phase() == Phase::Discard)
            .unwrap();
        assert!(exact_points(&s, &s.legal_actions()).unwrap().is_none(), "{v:?}");
    }
    // Piquet: the exchange's size and cards split (Greedy's values), the play does not.
    let mut rng = Rng::new(5);
    let mut s = piquet::GameConfig::default().new_initial_state();
    let (mut exchange, mut play) = (0, 0);
    while !s.is_terminal() {
        if s.apply_sampled_chances(&mut rng) > 0 {
            continue;
        }
        let legal = s.legal_actions().to_vec();
        let exact = exact_points(&s, &legal).unwrap();
        match s.phase() {
            piquet::Phase::Exchange | piquet::Phase::Discard => {
                let greedy = Greedy::new().action_values(&s, &mut Rng::new(0)).unwrap();
                assert_eq!(exact.unwrap(), greedy.iter().map(|x| x.1).collect::<Vec<_>>());
                exchange += 1;
            }
            _ => {
                assert!(exact.is_none());
                play += 1;
            }
        }
        s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
    }
    assert!(exchange >= 2 && play >= 12, "{exchange} {play}");
}

#[test]
fn before_play_ismcts_hands_the_decisions_before_the_play_to_ismcts() {
    let config = PimcConfig { worlds: 5, before_play: BeforePlay::Ismcts, ..PimcConfig::default() };
    let mut pimc = Pimc::<cribbage::State>::new(config).unwrap();
    let exact = PimcConfig { worlds: 5, ..PimcConfig::default() };
    let search = IsmctsConfig { iterations: ISMCTS_ITERATIONS, ..IsmctsConfig::default() };
    let states = decisions(GameConfig::new(Variant::FiveCard, None).unwrap(), 30, 8);
    let (mut before, mut play) = (0, 0);
    for s in &states {
        let a = pimc.step(s, &mut Rng::new(3)).unwrap();
        if s.phase() == Phase::Discard {
            let mut ismcts = Ismcts::<cribbage::State>::new(search).unwrap();
            assert_eq!(a, ismcts.step(s, &mut Rng::new(3)).unwrap());
            let values = Pimc::<cribbage::State>::new(config).unwrap().action_values(s, &mut Rng::new(4)).unwrap();
            assert_eq!(
                values,
                Ismcts::<cribbage::State>::new(search).unwrap().action_values(s, &mut Rng::new(4)).unwrap()
            );
            before += 1;
        } else {
            assert_eq!(a, Pimc::<cribbage::State>::new(exact).unwrap().step(s, &mut Rng::new(3)).unwrap());
            play += 1;
        }
    }
    assert!(before > 0 && play > 0, "{before} {play}");
    // Piquet: the exchange too.
    let mut pimc = Pimc::<piquet::State>::new(config).unwrap();
    let mut rng = Rng::new(6);
    let mut s = piquet::GameConfig::default().new_initial_state();
    while s.phase() != piquet::Phase::Exchange {
        if s.apply_sampled_chances(&mut rng) == 0 {
            let legal = s.legal_actions();
            s.apply_legal(legal[0]);
        }
    }
    let a = pimc.step(&s, &mut Rng::new(2)).unwrap();
    assert_eq!(a, Ismcts::<piquet::State>::new(search).unwrap().step(&s, &mut Rng::new(2)).unwrap());
    assert_eq!(BeforePlay::parse("ismcts").unwrap().name(), "ismcts");
    assert!(BeforePlay::parse("mcts").unwrap_err().to_string().contains("'exact', 'exact+play', 'worlds', 'ismcts'"));
}

/// Issue 30, item 7: the inference's tables stop at the caller's interrupt flag with
/// [`Error::Interrupted`] (nothing cached), and the next caller computes them: the thrown-only
/// tables of the iteration, to the bit.
#[test]
fn the_inference_tables_stop_at_ctrl_c_and_are_computed_by_the_next_caller() {
    use crate::engine::interrupt::{self, Interrupt};
    let flag = Interrupt::new();
    flag.raise();
    let options = TablesOptions { model: TablesModel::ThrownOnly, ..TablesOptions::default() };
    let stopped = interrupt::with(&flag, || discard_tables(Variant::FiveCard, options));
    assert!(matches!(stopped, Err(Error::Interrupted)), "{stopped:?}");
    // Another test may have cached them already; if not, the raised flag stops them here too.
    match interrupt::with(&flag, || tables(Variant::FiveCard)) {
        Ok(cached) => assert!(std::ptr::eq(cached, tables(Variant::FiveCard).unwrap())),
        Err(e) => assert!(matches!(e, Error::Interrupted)),
    }
    let t = tables(Variant::FiveCard).unwrap();
    assert_eq!(t, &discard_tables(Variant::FiveCard, options).unwrap());
}
