use super::*;
use crate::engine::{play_out, simulate, Game, PolicyFactory, RandomPolicy};
use crate::{cribbage, piquet};

#[test]
fn random_bot_plays_the_random_policy_games() {
    let game = cribbage::GameConfig::new(cribbage::Variant::FiveCard, None).unwrap();
    let by_name: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(RandomPolicy));
    let by_bot: PolicyFactory<cribbage::State> = Box::new(|_| Box::new(BotPolicy(Box::new(RandomBot))));
    let a = simulate(&game, &[by_name], 4, 0, 50, Some(1)).unwrap();
    let b = simulate(&game, &[by_bot], 4, 0, 50, Some(1)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn values_cover_the_legal_actions_and_chance_is_refused() {
    let game = piquet::GameConfig::default();
    let mut s = game.new_initial_state();
    let mut rng = Rng::new(1);
    assert!(RandomBot.step(&s, &mut rng).is_err());
    s.apply_sampled_chances(&mut rng);
    let v = Bot::<piquet::State>::action_values(&mut FirstBot, &s, &mut rng).unwrap();
    let legal = s.legal_actions();
    assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), legal.to_vec());
    assert_eq!(v[0].1, 1.0);
    assert_eq!(FirstBot.step(&s, &mut rng).unwrap(), legal[0]);
    let mut players: Vec<Box<dyn Policy<piquet::State>>> = vec![Box::new(BotPolicy(Box::new(FirstBot)))];
    let end = play_out(s, &mut players, &mut rng).unwrap();
    assert!(end.is_terminal());
    let msg = Bot::<piquet::State>::step(&mut FirstBot, &end, &mut rng).unwrap_err().to_string();
    assert_eq!(msg, "first: no player is to move: the game is over");
}
