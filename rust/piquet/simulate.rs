//! Whole piquet games played in Rust, in parallel: [`simulate`].

use rayon::prelude::*;

use super::engine::{ActionList, GameConfig, PointSource, State, NUM_SOURCES};
use crate::error::{Error, Result};
use crate::policy::{Policy, PolicyFactory};
use crate::rng::Rng;

/// Per-game results of [`simulate`], as columns. Arrays with a seat axis are row-major
/// `n_games × 2` (seat 0, seat 1).
///
/// Points by source (see [`PointSource`]): `declarations` (carte blanche, point, sequences,
/// sets), `play` (leads and tricks, the last trick's own point included), and the bonuses
/// `repique`, `pique`, `last_trick` (only the extra: russian 3, rubicon 1), `leza`, `capot`
/// (open capot included). They add up to `scores`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimResult {
    /// Number of games.
    pub n_games: usize,
    /// Points over the whole game (every deal), per seat.
    pub scores: Vec<u32>,
    /// The payoff per seat ([`State::returns`]): the deal's score difference, or ± the match
    /// result.
    pub returns: Vec<i32>,
    /// The winning seat, or 2 for a draw (an equal deal in [`Scope::Deal`](super::Scope)).
    pub winner: Vec<u8>,
    /// The dealer of the first deal.
    pub first_dealer: Vec<u8>,
    /// Deals played.
    pub deals: Vec<u16>,
    /// Actions applied, chance included.
    pub actions: Vec<u32>,
    /// Declaration points per seat.
    pub declarations: Vec<u32>,
    /// Repique bonuses per seat.
    pub repique: Vec<u32>,
    /// Lead and trick points per seat.
    pub play: Vec<u32>,
    /// Last-trick extras per seat.
    pub last_trick: Vec<u32>,
    /// Pique bonuses per seat.
    pub pique: Vec<u32>,
    /// Leza bonuses per seat.
    pub leza: Vec<u32>,
    /// Capot and open-capot bonuses per seat.
    pub capot: Vec<u32>,
}

impl SimResult {
    /// The per-seat column of a source.
    pub fn source(&self, source: PointSource) -> &[u32] {
        match source {
            PointSource::Declarations => &self.declarations,
            PointSource::Repique => &self.repique,
            PointSource::Play => &self.play,
            PointSource::LastTrick => &self.last_trick,
            PointSource::Pique => &self.pique,
            PointSource::Leza => &self.leza,
            PointSource::Capot => &self.capot,
        }
    }

    fn source_mut(&mut self, i: usize) -> &mut Vec<u32> {
        match i {
            0 => &mut self.declarations,
            1 => &mut self.repique,
            2 => &mut self.play,
            3 => &mut self.last_trick,
            4 => &mut self.pique,
            5 => &mut self.leza,
            _ => &mut self.capot,
        }
    }
}

/// What `simulate` keeps of a game (not the whole state: a million games would be 300 MB).
struct GameRecord {
    scores: [u32; 2],
    returns: [f64; 2],
    winner: Option<usize>,
    deals: u16,
    sources: [[u32; NUM_SOURCES]; 2],
    first_dealer: u8,
    actions: u32,
}

fn play_game(config: GameConfig, policies: &[PolicyFactory<State>], seed: u64, index: u64) -> Result<GameRecord> {
    let mut rng = Rng::new(crate::policy::game_seed(seed, index));
    let mut seats: [Box<dyn Policy<State>>; 2] = [policies[0](0), policies[1 % policies.len()](1)];
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
            // A forced move (a follow with one card of the suit, the last card): not asked.
            state.apply_legal(legal[0]);
            actions += 1;
            continue;
        }
        let p = state.current_player() as usize & 1;
        let action = seats[p].choose(&state, &legal, &mut rng);
        if !legal.contains(&action) {
            return Err(state.illegal_action_error(action as i64));
        }
        state.apply_legal(action);
        actions += 1;
    }
    Ok(GameRecord {
        scores: state.scores(),
        returns: state.returns(),
        winner: state.winner(),
        deals: state.deals(),
        sources: state.points_by_source(),
        first_dealer: first_dealer.unwrap_or(0) as u8,
        actions,
    })
}

/// Play `n_games` whole games (one deal or one match each, per the config's scope) with
/// `policies` (one factory per seat, or one for both), in parallel on `threads` threads
/// (`None`: rayon's global pool).
///
/// Forced moves (a single legal action) are applied without asking the policy. Game `i` draws
/// every chance event and random choice from its own generator seeded by `(seed, i)`, and gets
/// fresh policies, so the result is the same for a given seed whatever the number of threads.
///
/// ```
/// use cribpiquet::piquet::{simulate, GameConfig, Rules, Scope, State};
/// use cribpiquet::policy::policy_by_name;
///
/// let config = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
/// let random = policy_by_name::<State>("random").unwrap();
/// let a = simulate(200, config, std::slice::from_ref(&random), 7, Some(1)).unwrap();
/// let b = simulate(200, config, std::slice::from_ref(&random), 7, Some(2)).unwrap();
/// assert_eq!(a, b);
/// assert!(a.returns.chunks(2).all(|r| r[0] == -r[1]));
/// ```
pub fn simulate(
    n_games: usize,
    config: GameConfig,
    policies: &[PolicyFactory<State>],
    seed: u64,
    threads: Option<usize>,
) -> Result<SimResult> {
    if policies.len() != 1 && policies.len() != 2 {
        return Err(Error::InvalidValue(format!("piquet needs 1 or 2 policies, got {}", policies.len())));
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
    let mut out = SimResult {
        n_games,
        scores: Vec::with_capacity(2 * n_games),
        returns: Vec::with_capacity(2 * n_games),
        winner: Vec::with_capacity(n_games),
        first_dealer: Vec::with_capacity(n_games),
        deals: Vec::with_capacity(n_games),
        actions: Vec::with_capacity(n_games),
        ..SimResult::default()
    };
    for rec in &records {
        out.scores.extend_from_slice(&rec.scores);
        out.returns.extend(rec.returns.map(|r| r as i32));
        out.winner.push(rec.winner.map_or(2, |w| w as u8));
        out.first_dealer.push(rec.first_dealer);
        out.deals.push(rec.deals);
        out.actions.push(rec.actions);
        let by_source = rec.sources;
        for (i, _) in PointSource::ALL.iter().enumerate().take(NUM_SOURCES) {
            let col = out.source_mut(i);
            col.push(by_source[0][i]);
            col.push(by_source[1][i]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piquet::{Rules, Scope};
    use crate::policy::policy_by_name;

    fn configs() -> Vec<GameConfig> {
        let mut out = Vec::new();
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                out.push(GameConfig::new(rules, scope).unwrap());
            }
        }
        out
    }

    #[test]
    fn deterministic_whatever_the_threads() {
        for config in configs() {
            let random = policy_by_name::<State>("random").unwrap();
            let first = policy_by_name::<State>("first").unwrap();
            let policies = [random, first];
            let a = simulate(300, config, &policies, 11, Some(1)).unwrap();
            let b = simulate(300, config, &policies, 11, Some(2)).unwrap();
            let c = simulate(300, config, &policies, 11, None).unwrap();
            assert_eq!(a, b);
            assert_eq!(a, c);
            let d = simulate(300, config, &policies, 12, Some(2)).unwrap();
            assert_ne!(a.scores, d.scores);
        }
    }

    #[test]
    fn results_add_up() {
        for config in configs() {
            let random = policy_by_name::<State>("random").unwrap();
            let r = simulate(400, config, std::slice::from_ref(&random), 5, None).unwrap();
            for g in 0..r.n_games {
                for seat in 0..2 {
                    let i = 2 * g + seat;
                    let total: u32 = PointSource::ALL.iter().map(|&s| r.source(s)[i]).sum();
                    assert_eq!(total, r.scores[i]);
                }
                assert_eq!(r.returns[2 * g], -r.returns[2 * g + 1]);
                match r.winner[g] {
                    2 => assert_eq!(r.returns[2 * g], 0),
                    w => assert!(r.returns[2 * g + w as usize] > 0),
                }
                if config.scope() == Scope::Deal {
                    assert_eq!(r.deals[g], 1);
                    assert_eq!(r.returns[2 * g], r.scores[2 * g] as i32 - r.scores[2 * g + 1] as i32);
                } else {
                    assert!(r.deals[g] >= 2, "{}", r.deals[g]);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_arguments() {
        let config = GameConfig::default();
        let random = || policy_by_name::<State>("random").unwrap();
        assert!(simulate(1, config, &[random(), random(), random()], 0, None).is_err());
        assert!(simulate(1, config, &[], 0, None).is_err());
        assert!(simulate(1, config, &[random()], 0, Some(0)).is_err());
        assert_eq!(simulate(0, config, &[random()], 0, None).unwrap().n_games, 0);
    }
}

#[cfg(test)]
mod speed {
    use super::*;
    use crate::piquet::{Rules, Scope};
    use crate::policy::policy_by_name;

    /// `cargo test --release --lib piquet::simulate::speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn random_deals_per_second() {
        for rules in [Rules::russian(), Rules::rubicon()] {
            let config = GameConfig::new(rules, Scope::Deal).unwrap();
            let random = policy_by_name::<State>("random").unwrap();
            let n = 1_000_000;
            let t = std::time::Instant::now();
            let r = simulate(n, config, std::slice::from_ref(&random), 1, Some(1)).unwrap();
            let secs = t.elapsed().as_secs_f64();
            let actions: u64 = r.actions.iter().map(|&a| a as u64).sum();
            println!(
                "{n} deals in {secs:.3} s: {:.0} deals/s, {:.1} actions/deal",
                n as f64 / secs,
                actions as f64 / n as f64
            );
        }
    }
}
