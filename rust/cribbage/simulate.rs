//! Whole games played in Rust, in parallel: [`simulate`].

use rayon::prelude::*;

use super::game::{ActionList, GameConfig, PointSource, State};
use crate::error::{Error, Result};
use crate::policy::{Policy, PolicyFactory};
use crate::rng::Rng;

/// Per-game results of [`simulate`], as columns. Arrays with a side axis are row-major
/// `n_games × n_sides` (side = player in the two- and three-player games, `player % 2` in the
/// four-player game).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimResult {
    /// Number of games.
    pub n_games: usize,
    /// Number of sides (2 or 3).
    pub n_sides: usize,
    /// Final score of each side (not capped: the winner may pass the target).
    pub scores: Vec<u16>,
    /// The winning side.
    pub winner: Vec<u8>,
    /// The first dealer (the winner of the cut).
    pub first_dealer: Vec<u8>,
    /// Deals begun, including the one in which the game ended.
    pub deals: Vec<u16>,
    /// Actions applied, chance included.
    pub actions: Vec<u32>,
    /// Points made in the play, per side.
    pub pegging: Vec<u16>,
    /// Points from shown hands, per side.
    pub hand: Vec<u16>,
    /// Points from the crib, per side.
    pub crib: Vec<u16>,
    /// Points for his heels, per side.
    pub heels: Vec<u16>,
    /// Five-card cribbage's three for last, per side.
    pub three_for_last: Vec<u16>,
}

impl SimResult {
    /// The per-side column of a source.
    pub fn source(&self, source: PointSource) -> &[u16] {
        match source {
            PointSource::Pegging => &self.pegging,
            PointSource::Hand => &self.hand,
            PointSource::Crib => &self.crib,
            PointSource::Heels => &self.heels,
            PointSource::ThreeForLast => &self.three_for_last,
        }
    }
}

struct GameRecord {
    end: State,
    first_dealer: u8,
    actions: u32,
}

fn play_game(config: GameConfig, policies: &[PolicyFactory<State>], seed: u64, index: u64) -> Result<GameRecord> {
    let mut rng = Rng::new(crate::policy::game_seed(seed, index));
    let n = config.num_players();
    let mut seats: [Option<Box<dyn Policy<State>>>; 4] = [None, None, None, None];
    for (p, seat) in seats.iter_mut().enumerate().take(n) {
        *seat = Some(policies[p % policies.len()](p));
    }
    let mut state = config.new_initial_state();
    let mut first_dealer = None;
    let mut actions = 0u32;
    let mut legal = ActionList::new();
    while !state.is_terminal() {
        let chance = state.apply_sampled_chances(&mut rng);
        if chance > 0 {
            actions += chance;
            if first_dealer.is_none() {
                first_dealer = state.dealer();
            }
            continue;
        }
        state.fill_legal_actions(&mut legal);
        if legal.len() == 1 {
            // A forced move (a go, a last card): the policy is not asked.
            state.apply_legal(legal[0]);
            actions += 1;
            continue;
        }
        let p = state.current_player() as usize;
        let action = match seats.get_mut(p).and_then(|s| s.as_mut()) {
            Some(policy) => policy.choose(&state, &legal, &mut rng),
            None => return Err(Error::Illegal(format!("no policy for player {p}"))),
        };
        if !legal.contains(&action) {
            return Err(state.illegal_action_error(action as i64));
        }
        state.apply_legal(action);
        actions += 1;
    }
    Ok(GameRecord { end: state, first_dealer: first_dealer.unwrap_or(0) as u8, actions })
}

/// Play `n_games` whole games with `policies` (one factory per seat, or one for every seat),
/// in parallel on `threads` threads (`None`: rayon's global pool).
///
/// Forced moves (a single legal action, such as a go) are applied without asking the policy.
/// Game `i` draws every chance event and random choice from its own generator seeded by
/// `(seed, i)`, and gets fresh policies, so the result is the same for a given seed whatever
/// the number of threads.
///
/// ```
/// use cribpiquet::cribbage::{simulate, GameConfig, State, Variant};
/// use cribpiquet::policy::policy_by_name;
///
/// let config = GameConfig::new(Variant::SixCard, None).unwrap();
/// let random = policy_by_name::<State>("random").unwrap();
/// let a = simulate(200, config, std::slice::from_ref(&random), 7, Some(1)).unwrap();
/// let b = simulate(200, config, std::slice::from_ref(&random), 7, Some(2)).unwrap();
/// assert_eq!(a, b);
/// assert!(a.scores.chunks(2).zip(&a.winner).all(|(s, &w)| s[w as usize] >= 121));
/// ```
pub fn simulate(
    n_games: usize,
    config: GameConfig,
    policies: &[PolicyFactory<State>],
    seed: u64,
    threads: Option<usize>,
) -> Result<SimResult> {
    let n = config.num_players();
    if policies.len() != 1 && policies.len() != n {
        return Err(Error::InvalidValue(format!(
            "{} needs 1 or {n} policies, got {}",
            config.variant(),
            policies.len()
        )));
    }
    let run = || -> Result<Vec<GameRecord>> {
        (0..n_games).into_par_iter().with_min_len(64).map(|i| play_game(config, policies, seed, i as u64)).collect()
    };
    let records = match threads {
        None => run()?,
        Some(0) => return Err(Error::InvalidValue("threads must be at least 1".into())),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| Error::InvalidValue(format!("cannot start {t} threads: {e}")))?
            .install(run)?,
    };
    let sides = config.variant().num_sides();
    let mut out = SimResult {
        n_games,
        n_sides: sides,
        scores: Vec::with_capacity(n_games * sides),
        winner: Vec::with_capacity(n_games),
        first_dealer: Vec::with_capacity(n_games),
        deals: Vec::with_capacity(n_games),
        actions: Vec::with_capacity(n_games),
        ..SimResult::default()
    };
    for rec in &records {
        let end = &rec.end;
        out.scores.extend_from_slice(end.side_scores());
        out.winner.push(end.winner().unwrap_or(0) as u8);
        out.first_dealer.push(rec.first_dealer);
        out.deals.push(end.deals());
        out.actions.push(rec.actions);
        let by_source = end.points_by_source();
        for side in by_source.iter().take(sides) {
            out.pegging.push(side[PointSource::Pegging as usize]);
            out.hand.push(side[PointSource::Hand as usize]);
            out.crib.push(side[PointSource::Crib as usize]);
            out.heels.push(side[PointSource::Heels as usize]);
            out.three_for_last.push(side[PointSource::ThreeForLast as usize]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::Variant;
    use crate::policy::policy_by_name;

    #[test]
    fn deterministic_whatever_the_threads() {
        for v in Variant::ALL {
            let config = GameConfig::new(v, None).unwrap();
            let random = policy_by_name::<State>("random").unwrap();
            let first = policy_by_name::<State>("first").unwrap();
            let policies = [random, first];
            let p: &[PolicyFactory<State>] = if v.num_players() == 2 { &policies } else { &policies[..1] };
            let a = simulate(300, config, p, 11, Some(1)).unwrap();
            let b = simulate(300, config, p, 11, Some(2)).unwrap();
            let c = simulate(300, config, p, 11, None).unwrap();
            assert_eq!(a, b);
            assert_eq!(a, c);
            let d = simulate(300, config, p, 12, Some(2)).unwrap();
            assert_ne!(a.scores, d.scores);
        }
    }

    #[test]
    fn results_add_up() {
        for v in Variant::ALL {
            let config = GameConfig::new(v, None).unwrap();
            let random = policy_by_name::<State>("random").unwrap();
            let r = simulate(500, config, std::slice::from_ref(&random), 5, None).unwrap();
            let s = r.n_sides;
            for g in 0..r.n_games {
                let w = r.winner[g] as usize;
                for side in 0..s {
                    let i = g * s + side;
                    let total = r.pegging[i] + r.hand[i] + r.crib[i] + r.heels[i] + r.three_for_last[i];
                    assert_eq!(total, r.scores[i]);
                    assert_eq!(r.scores[i] >= config.target(), side == w);
                }
                assert!(r.deals[g] >= 1);
            }
            if v == Variant::FiveCard {
                assert!(r.three_for_last.iter().all(|&x| x == 0 || x == 3));
                assert_eq!(r.three_for_last.iter().map(|&x| x as usize).sum::<usize>(), 3 * r.n_games);
            } else {
                assert!(r.three_for_last.iter().all(|&x| x == 0));
            }
        }
    }

    #[test]
    fn rejects_bad_arguments() {
        let config = GameConfig::new(Variant::ThreePlayer, None).unwrap();
        let random = || policy_by_name::<State>("random").unwrap();
        assert!(simulate(1, config, &[random(), random()], 0, None).is_err());
        assert!(simulate(1, config, &[random()], 0, Some(0)).is_err());
        assert_eq!(simulate(0, config, &[random()], 0, None).unwrap().n_games, 0);
    }
}

#[cfg(test)]
mod speed {
    use super::*;
    use crate::cribbage::Variant;
    use crate::policy::policy_by_name;

    /// `cargo test --release --lib cribbage::simulate::speed -- --ignored --nocapture`, under
    /// `perf stat -e task-clock` for the CPU time.
    #[test]
    #[ignore]
    fn six_card_games_per_second() {
        let config = GameConfig::new(Variant::SixCard, None).unwrap();
        let random = policy_by_name::<State>("random").unwrap();
        let n = 200_000;
        let t = std::time::Instant::now();
        let r = simulate(n, config, std::slice::from_ref(&random), 1, Some(1)).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let actions: u64 = r.actions.iter().map(|&a| a as u64).sum();
        println!(
            "{n} games in {secs:.3} s: {:.0} games/s, {:.1} actions/game",
            n as f64 / secs,
            actions as f64 / n as f64
        );
    }
}
