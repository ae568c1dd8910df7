//! What the engine benches of both games share (`mod common;` in `engines.rs` and
//! `piquet_engine.rs`): random play through the state API, written once over the framework.

use cribpiquet::engine::{Game, GameState};
use cribpiquet::rng::Rng;
use divan::black_box;

/// One uniformly random legal action of `s`, drawn from `rng`, applied.
pub fn random_action<S: GameState>(s: &mut S, rng: &mut Rng) {
    let legal = s.legal_actions();
    s.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
}

/// `games` whole games of `game` played with uniformly random legal actions, from one generator
/// seeded `seed`; returns the number of actions (chance outcomes included).
pub fn random_playouts<G: Game>(game: &G, games: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut actions = 0;
    for _ in 0..games {
        let mut s = game.new_initial_state();
        while !s.is_terminal() {
            random_action(&mut s, &mut rng);
            actions += 1;
        }
        black_box(s);
    }
    actions
}

/// A state of `game` reached by random legal actions (generator seeded `seed`) until `stop` holds.
pub fn random_state<G: Game>(game: &G, seed: u64, stop: impl Fn(&G::State) -> bool) -> G::State {
    let mut rng = Rng::new(seed);
    let mut s = game.new_initial_state();
    while !stop(&s) {
        random_action(&mut s, &mut rng);
    }
    s
}
