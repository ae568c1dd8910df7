use super::*;
use crate::engine::simulate;
use crate::rng::Rng;
use crate::{cribbage, piquet};

fn err(name: &str) -> String {
    BotSpec::parse(name).unwrap_err().to_string()
}

#[test]
fn every_name_parses_to_its_bot() {
    assert_eq!(BotSpec::parse("random").unwrap(), Some(BotSpec::Random));
    assert_eq!(BotSpec::parse("first").unwrap(), Some(BotSpec::First));
    assert_eq!(BotSpec::parse("greedy").unwrap(), Some(BotSpec::Greedy));
    assert_eq!(BotSpec::parse("ismcts").unwrap(), Some(BotSpec::Ismcts(IsmctsConfig::default())));
    assert_eq!(BotSpec::parse("pimc").unwrap(), Some(BotSpec::Pimc(PimcConfig::default())));
    let Some(BotSpec::Ismcts(c)) = BotSpec::parse("ismcts:2000").unwrap() else { panic!("not IS-MCTS") };
    assert_eq!(c, IsmctsConfig { iterations: 2000, ..IsmctsConfig::default() });
    let Some(BotSpec::Pimc(c)) = BotSpec::parse("pimc:7").unwrap() else { panic!("not PIMC") };
    assert_eq!((c.worlds, c.objective, c.threads, c.inference), (7, Objective::Win, 1, true));
    // Any case, spaces around the name and the argument.
    assert_eq!(BotSpec::parse(" First ").unwrap(), Some(BotSpec::First));
    assert_eq!(BotSpec::parse("GREEDY").unwrap(), Some(BotSpec::Greedy));
    assert_eq!(BotSpec::parse(" ISMCTS : 20 ").unwrap().unwrap().name(), "ismcts:20");
    assert_eq!(BotSpec::parse("ismcts:4294967295").unwrap().unwrap().name(), "ismcts:4294967295");
}

#[test]
fn names_round_trip_and_the_list_is_complete() {
    assert_eq!(name_forms(), ["greedy", "ismcts", "ismcts:N", "random", "first", "pimc", "pimc:N"]);
    for entry in BOTS {
        let spec = BotSpec::from_name(entry.name).unwrap();
        assert_eq!(BotSpec::from_name(&spec.name()).unwrap(), spec, "{}", entry.name);
        if entry.argument.is_some() {
            assert_eq!(BotSpec::from_name(&format!("{}:3", entry.name)).unwrap().name(), format!("{}:3", entry.name));
        } else {
            assert_eq!(spec.name(), entry.name);
        }
    }
}

#[test]
fn bad_names_say_what_is_wrong() {
    assert_eq!(BotSpec::parse("nobody").unwrap(), None);
    assert_eq!(BotSpec::parse("").unwrap(), None);
    assert_eq!(
        BotSpec::from_name("nobody").unwrap_err().to_string(),
        "unknown bot \"nobody\" (known: greedy, ismcts, ismcts:N, random, first, pimc, pimc:N)"
    );
    assert_eq!(err("first:2"), "the first player takes no argument, got \"first:2\"");
    assert_eq!(err("Random:"), "the random player takes no argument, got \"Random:\"");
    assert_eq!(err("greedy:1"), "the greedy player takes no argument, got \"greedy:1\"");
    let ismcts = "ismcts:N needs a number of iterations 1 <= N <= 4294967295 (2**32-1), got";
    assert_eq!(err("ismcts:lots"), format!("{ismcts} \"ismcts:lots\""));
    assert_eq!(err("ismcts:0"), format!("{ismcts} \"ismcts:0\""));
    assert_eq!(err("ismcts:4294967296"), format!("{ismcts} \"ismcts:4294967296\""));
    assert_eq!(err("ismcts:-1"), format!("{ismcts} \"ismcts:-1\""));
    assert_eq!(err("pimc:0"), "pimc:N needs a number of worlds N >= 1, got \"pimc:0\"");
    assert_eq!(err("PIMC:x"), "pimc:N needs a number of worlds N >= 1, got \"PIMC:x\"");
    // A long name is echoed cut.
    let long = format!("pimc:{}", "9".repeat(500));
    assert!(err(&long).chars().count() < 140, "{}", err(&long));
}

#[test]
fn checked_refuses_bad_settings() {
    let bad = BotSpec::Ismcts(IsmctsConfig { threads: 0, ..IsmctsConfig::default() });
    assert_eq!(bad.checked().unwrap_err().to_string(), "threads must be 1..256, got 0");
    let bad = BotSpec::Pimc(PimcConfig { worlds: 0, ..PimcConfig::default() });
    assert_eq!(bad.checked().unwrap_err().to_string(), "worlds must be at least 1");
    assert_eq!(BotSpec::Greedy.checked().unwrap(), BotSpec::Greedy);
}

#[test]
fn settings_are_set_and_read_back_by_name() {
    for entry in BOTS {
        let settings = BotSettings::new(BotSpec::from_name(entry.name).unwrap());
        assert_eq!(settings.entry(), &entry);
        // Every setting of the table reads back, and setting it to its own value changes nothing.
        let mut again = settings;
        for (name, value) in settings.values() {
            again.set(name, value).unwrap();
        }
        assert_eq!(again, settings, "{}", entry.name);
    }
    let mut bot = BotSettings::parse("ismcts", 9).unwrap().unwrap();
    bot.set("rollout", Value::Name(" Random ")).unwrap();
    bot.set("threads", Value::Int(4)).unwrap();
    bot.set("rollout_to_end", Value::Bool(true)).unwrap();
    let values: Vec<_> = bot.values().collect();
    assert_eq!(
        values,
        [
            ("iterations", Value::Int(1000)),
            ("time_limit", Value::None),
            ("exploration", Value::Float(0.7)),
            ("rollout", Value::Name("random")),
            ("threads", Value::Int(4)),
            ("seed", Value::Seed(9)),
            ("rollout_to_end", Value::Bool(true)),
        ]
    );
    // First and Greedy take no seed.
    assert_eq!(BotSettings::parse("first", 9).unwrap().unwrap().seed, 0);
    assert_eq!(
        BotSettings::parse("random", 9).unwrap().unwrap().values().collect::<Vec<_>>(),
        [("seed", Value::Seed(9))]
    );
    assert_eq!(BotSettings::parse("nobody", 9).unwrap(), None);
}

#[test]
fn settings_say_what_is_wrong() {
    let mut pimc = BotSettings::new(BotSpec::Pimc(PimcConfig::default()));
    let err = |bot: &mut BotSettings, name, value| bot.set(name, value).unwrap_err().to_string();
    assert_eq!(err(&mut pimc, "worlds", Value::Int(0)), "worlds must be in range(1, 4294967296), got 0");
    assert_eq!(err(&mut pimc, "threads", Value::Int(257)), "threads must be in range(1, 257), got 257");
    assert_eq!(err(&mut pimc, "objective", Value::Name("Nope")), "objective must be 'points' or 'win', got \"nope\"");
    assert_eq!(
        err(&mut pimc, "before_play", Value::Name("all")),
        "before_play must be one of 'exact', 'exact+play', 'worlds', 'ismcts', got \"all\""
    );
    for (t, text) in
        [(f64::NAN, "nan"), (-1.0, "-1.0"), (1e9, "1000000000.0"), (1e300, "1e+300"), (f64::INFINITY, "inf")]
    {
        assert_eq!(
            err(&mut pimc, "time_limit", Value::Float(t)),
            format!("time_limit must be a number of seconds > 0 and < 1e9, got {text}")
        );
    }
    assert_eq!(
        err(&mut pimc, "rollout", Value::Name("random")),
        "the PIMC bot has no setting \"rollout\" taking Name(\"random\")"
    );
    assert!(pimc.set("worlds", Value::Bool(true)).is_err());
    let mut first = BotSettings::new(BotSpec::First);
    assert!(first.set("seed", Value::Seed(1)).is_err());
    let mut ismcts = BotSettings::new(BotSpec::Ismcts(IsmctsConfig::default()));
    assert_eq!(
        err(&mut ismcts, "rollout", Value::Name("greedyish")),
        "unknown rollout \"greedyish\" (known: heuristic, random)"
    );
    ismcts.set("exploration", Value::Float(-1.0)).unwrap();
    assert_eq!(ismcts.checked().unwrap_err().to_string(), "exploration must be a finite number >= 0, got -1.0");
    // A time limit set in the core reads back in seconds.
    let timed =
        BotSpec::Ismcts(IsmctsConfig { time_limit: Some(Duration::from_millis(250)), ..IsmctsConfig::default() });
    assert_eq!(BotSettings::new(timed).get("time_limit"), Value::Float(0.25));
}

/// Every registered bot plays a legal action in both games, and its bot's own name is the
/// registry's.
#[test]
fn every_bot_plays_both_games() {
    fn check<S: BotGame>(state: &S) {
        let legal = state.legal_actions();
        for name in ["greedy", "ismcts:30", "random", "first", "pimc:2"] {
            let spec = BotSpec::from_name(name).unwrap();
            let mut bot = spec.bot::<S>();
            assert_eq!(bot.name(), name);
            let a = bot.step(state, &mut Rng::new(5)).unwrap();
            assert!(legal.contains(&a), "{name}: {a}");
            // A fresh bot of the same settings and seed plays the same.
            assert_eq!(spec.bot::<S>().step(state, &mut Rng::new(5)).unwrap(), a, "{name}");
        }
        assert_eq!(BotSpec::First.bot::<S>().step(state, &mut Rng::new(0)).unwrap(), legal[0]);
    }
    let mut rng = Rng::new(3);
    let mut crib = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap().new_initial_state();
    crib.apply_sampled_chances(&mut rng);
    check(&crib);
    let mut pq = piquet::GameConfig::default().new_initial_state();
    pq.apply_sampled_chances(&mut rng);
    check(&pq);
}

#[test]
fn factories_play_the_engine_policies_and_the_bots() {
    let game = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap();
    // "random" is the engine's RandomPolicy itself: the same games as the bot, game for game.
    let by_name = simulate(&game, &[policy_by_name("random").unwrap()], 4, 0, 30, Some(1)).unwrap();
    let by_policy: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(RandomPolicy));
    assert_eq!(by_name, simulate(&game, &[by_policy], 4, 0, 30, Some(1)).unwrap());
    let by_bot: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(BotPolicy(Box::new(RandomBot))));
    assert_eq!(by_name, simulate(&game, &[by_bot], 4, 0, 30, Some(1)).unwrap());
    // Greedy against first: every game ends with a winner at the target.
    let players = [policy_by_name("greedy").unwrap(), policy_by_name("first").unwrap()];
    let out = simulate(&game, &players, 4, 0, 6, Some(1)).unwrap();
    assert!(out.scores.chunks(2).zip(&out.winner).all(|(s, &w)| s[w as usize] >= game.target() as i32));
    assert!(policy_by_name::<piquet::State>("nobody").is_err());
}

/// The settings table: every row named once per bot, documented, its default the bot's default
/// configuration's, and a `name:N` argument one of the bot's settings.
#[test]
fn the_settings_table_is_complete() {
    for entry in BOTS {
        let names: Vec<&str> = entry.settings.iter().map(|s| s.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{}: a setting twice", entry.name);
        assert!(entry.settings.iter().all(|s| !s.doc.is_empty()), "{}", entry.name);
        if let Some(argument) = entry.argument {
            assert!(names.contains(&argument), "{}", entry.name);
        }
        let defaults = BotSettings::new(BotSpec::from_name(entry.name).unwrap());
        for s in entry.settings {
            assert_eq!(s.default_value(&entry), defaults.get(s.name), "{}.{}", entry.name, s.name);
        }
    }
    let ismcts = &BOTS[1].settings;
    assert_eq!(ismcts[2].default_value(&BOTS[1]), Value::Float(0.7));
    assert_eq!(ismcts[3].default_value(&BOTS[1]), Value::Name("heuristic"));
}
