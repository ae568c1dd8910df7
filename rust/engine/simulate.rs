//! Whole games played in Rust, in parallel, for any engine: [`simulate`].
//!
//! Memory is O(output): each game is reduced to a fixed-size [`GameSummary`] as soon as it ends
//! and appended to the columns, block by block ([`simulate_block`]); a caller that holds its own
//! pool and columns runs the blocks with [`simulate_into`] (the Python bindings, under an
//! [`interrupt`](super::interrupt) flag raised on Ctrl-C). The columns are a [`Columns`] set,
//! which the bindings turn into a dict of arrays.

use std::ops::Range;

use rayon::prelude::*;

use super::{ActionList, Game, GameState, Policy, PolicyFactory, MAX_PLAYERS};
use crate::batch::{Column, Columns};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The most point sources of any engine (piquet's 7).
pub const MAX_SOURCES: usize = 8;

/// The seed of game `index` of a `simulate` run: a hash of (seed, index), so a game's result does
/// not depend on which thread plays it, nor on how the run is split into blocks or machines.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03).wrapping_add(0x8CB9_2BA7_2F3D_8DD7);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^ (z >> 32)
}

/// What `simulate` keeps of one finished game (a fixed-size record, whatever the engine).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameSummary {
    /// Final score of each side (entries past [`Game::num_sides`] are 0).
    pub scores: [u64; MAX_PLAYERS],
    /// The payoff of each player ([`GameState::returns`]).
    pub returns: [f64; MAX_PLAYERS],
    /// The winning side, or `None` for a draw.
    pub winner: Option<usize>,
    /// The dealer of the first deal.
    pub first_dealer: usize,
    /// Deals begun.
    pub deals: u32,
    /// Actions applied, chance included.
    pub actions: u32,
    /// Points by side and source ([`Game::POINT_SOURCES`]).
    pub sources: [[u64; MAX_SOURCES]; MAX_PLAYERS],
}

impl GameSummary {
    /// The summary of a finished game.
    pub fn of<S: GameState>(end: &S, first_dealer: usize, actions: u32) -> GameSummary {
        let game = end.game();
        let sides = game.num_sides().min(MAX_PLAYERS);
        let players = end.num_players().min(MAX_PLAYERS);
        let n_sources = S::Game::POINT_SOURCES.len().min(MAX_SOURCES);
        let mut out = GameSummary {
            scores: [0; MAX_PLAYERS],
            returns: [0.0; MAX_PLAYERS],
            winner: end.winner(),
            first_dealer,
            deals: end.deals(),
            actions,
            sources: [[0; MAX_SOURCES]; MAX_PLAYERS],
        };
        for side in 0..sides {
            out.scores[side] = end.side_score(side);
            for source in 0..n_sources {
                out.sources[side][source] = end.points_by_source(side, source);
            }
        }
        for p in 0..players {
            out.returns[p] = end.player_return(p);
        }
        out
    }
}

/// Per-game results of [`simulate`], as columns. Arrays with a side axis are row-major
/// `n_games × n_sides`, `returns` is `n_games × n_players`; `sources[k]` is the column of
/// [`Game::POINT_SOURCES`]`[k]`. Integer columns saturate at `i32::MAX` (no game comes near).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimColumns {
    /// Number of games.
    pub n_games: usize,
    /// Number of sides (the side axis).
    pub n_sides: usize,
    /// Number of players (the axis of `returns`).
    pub n_players: usize,
    /// Final score of each side.
    pub scores: Vec<i32>,
    /// The payoff of each player, as [`GameState::returns`].
    pub returns: Vec<f64>,
    /// The winning side, or -1 for a draw.
    pub winner: Vec<i8>,
    /// The dealer of the first deal.
    pub first_dealer: Vec<i8>,
    /// Deals begun, including the one in which the game ended.
    pub deals: Vec<i32>,
    /// Actions applied, chance included.
    pub actions: Vec<i32>,
    /// One per-side column per point source.
    pub sources: Vec<Vec<i32>>,
    /// The names of the point sources ([`Game::POINT_SOURCES`]), the names of `sources`.
    pub source_names: &'static [&'static str],
    /// The records of the block being played, kept between blocks so that a long run allocates
    /// (and page-faults) them once; empty between calls, so it never shows in comparisons.
    scratch: Vec<Result<GameSummary>>,
}

fn sat(x: u64) -> i32 {
    x.min(i32::MAX as u64) as i32
}

impl SimColumns {
    /// Empty columns for `game`, with room for `n_games`.
    pub fn with_capacity<G: Game>(game: &G, n_games: usize) -> SimColumns {
        let (s, p) = (game.num_sides(), game.num_players());
        SimColumns {
            n_games: 0,
            n_sides: s,
            n_players: p,
            scores: Vec::with_capacity(n_games * s),
            returns: Vec::with_capacity(n_games * p),
            winner: Vec::with_capacity(n_games),
            first_dealer: Vec::with_capacity(n_games),
            deals: Vec::with_capacity(n_games),
            actions: Vec::with_capacity(n_games),
            sources: G::POINT_SOURCES.iter().map(|_| Vec::with_capacity(n_games * s)).collect(),
            source_names: G::POINT_SOURCES,
            scratch: Vec::new(),
        }
    }

    /// Empty columns for `game` with room for `n_games`, or an error if that much memory cannot
    /// be had (instead of aborting).
    pub fn try_with_capacity<G: Game>(game: &G, n_games: usize) -> std::result::Result<SimColumns, String> {
        let mut out = SimColumns::with_capacity(game, 0);
        let (s, p) = (out.n_sides, out.n_players);
        let too_big = |e: std::collections::TryReserveError| e.to_string();
        let rows = |k: usize| n_games.checked_mul(k).ok_or_else(|| "too many games".to_string());
        out.scores.try_reserve_exact(rows(s)?).map_err(too_big)?;
        out.returns.try_reserve_exact(rows(p)?).map_err(too_big)?;
        out.winner.try_reserve_exact(n_games).map_err(too_big)?;
        out.first_dealer.try_reserve_exact(n_games).map_err(too_big)?;
        out.deals.try_reserve_exact(n_games).map_err(too_big)?;
        out.actions.try_reserve_exact(n_games).map_err(too_big)?;
        for column in &mut out.sources {
            column.try_reserve_exact(rows(s)?).map_err(too_big)?;
        }
        Ok(out)
    }

    /// About how many bytes the columns of `n_games` games of `game` take: scores and each
    /// source (int32 per side), returns (float64 per player), winner and first_dealer (int8),
    /// deals and actions (int32).
    pub fn bytes_for<G: Game>(game: &G, n_games: usize) -> u128 {
        let per_side = 4 * (1 + G::POINT_SOURCES.len() as u128);
        n_games as u128 * (per_side * game.num_sides() as u128 + 8 * game.num_players() as u128 + 10)
    }

    /// Append one game.
    pub fn push(&mut self, g: &GameSummary) {
        let s = self.n_sides.min(MAX_PLAYERS);
        self.n_games += 1;
        self.scores.extend(g.scores[..s].iter().map(|&x| sat(x)));
        self.returns.extend_from_slice(&g.returns[..self.n_players.min(MAX_PLAYERS)]);
        self.winner.push(g.winner.map_or(-1, |w| w as i8));
        self.first_dealer.push(g.first_dealer as i8);
        self.deals.push(sat(g.deals as u64));
        self.actions.push(sat(g.actions as u64));
        for (k, column) in self.sources.iter_mut().enumerate() {
            column.extend((0..s).map(|side| sat(g.sources[side][k.min(MAX_SOURCES - 1)])));
        }
    }

    /// The per-side column of the source named `name`, if the game has it.
    pub fn source(&self, names: &[&str], name: &str) -> Option<&[i32]> {
        names.iter().position(|n| *n == name).and_then(|k| self.sources.get(k)).map(|c| c.as_slice())
    }
}

/// The columns by name, as `simulate`'s dict lists them: `scores` (games × sides), `returns`
/// (games × players), `winner`, `first_dealer`, `deals`, `actions`, then one games × sides
/// column per point source.
impl Columns for SimColumns {
    fn columns(self) -> Vec<(&'static str, Column)> {
        let (n, s, p) = (self.n_games, self.n_sides, self.n_players);
        let mut out = vec![
            ("scores", Column::shaped(self.scores, &[n, s])),
            ("returns", Column::shaped(self.returns, &[n, p])),
            ("winner", Column::rows(self.winner)),
            ("first_dealer", Column::rows(self.first_dealer)),
            ("deals", Column::rows(self.deals)),
            ("actions", Column::rows(self.actions)),
        ];
        let sources = self.source_names.iter().zip(self.sources);
        out.extend(sources.map(|(name, column)| (*name, Column::shaped(column, &[n, s]))));
        out
    }
}

/// Where [`play_game`] puts the actions it applies: nowhere (`()`, the playout path, which costs
/// nothing), or a `Vec<u16>` (a game record: every action in order, chance outcomes included,
/// grown fallibly).
trait ActionLog {
    /// Whether actions are kept (then chance events are applied one at a time).
    const KEEPS: bool;
    /// Keep `action`.
    fn keep(&mut self, action: u16) -> Result<()>;
}

impl ActionLog for () {
    const KEEPS: bool = false;
    #[inline(always)]
    fn keep(&mut self, _: u16) -> Result<()> {
        Ok(())
    }
}

impl ActionLog for Vec<u16> {
    const KEEPS: bool = true;
    #[inline]
    fn keep(&mut self, action: u16) -> Result<()> {
        if self.len() == self.capacity() {
            let more = self.len().max(128);
            self.try_reserve(more).map_err(|_| {
                Error::OutOfMemory(format!("cannot hold a game record of {} actions", self.len() + more))
            })?;
        }
        self.push(action);
        Ok(())
    }
}

/// Play game `index` of a run seeded by `seed` to the end.
///
/// Forced moves (a single legal action, such as a go) are applied without asking the policy.
pub fn play_game<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    index: u64,
) -> Result<GameSummary> {
    play_logged(game, policies, seed, index, &mut ())
}

/// [`play_game`], keeping every action applied (chance outcomes included, in order): the same
/// game, and its record. Applying the actions in order to `game.new_initial_state()` gives back
/// every state of the game.
pub fn play_game_recorded<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    index: u64,
) -> Result<(GameSummary, Vec<u16>)> {
    let mut actions = Vec::new();
    let summary = play_logged(game, policies, seed, index, &mut actions)?;
    Ok((summary, actions))
}

#[inline(always)]
fn play_logged<G: Game, L: ActionLog>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    index: u64,
    log: &mut L,
) -> Result<GameSummary> {
    // A game is the unit of work after which an interrupted run stops (and a bot that was
    // interrupted mid-decision gives up with an illegal answer, checked below).
    super::interrupt::check()?;
    let mut rng = Rng::new(game_seed(seed, index));
    let n = game.num_players();
    let mut seats: Vec<Box<dyn Policy<G::State>>> = (0..n).map(|p| policies[p % policies.len()](p)).collect();
    let mut state = game.new_initial_state();
    let mut first_dealer = None;
    let mut actions = 0u32;
    let mut legal = ActionList::new();
    while !state.is_terminal() {
        // A record takes the chance events one by one: the same draws from the generator as
        // the engine's fast path (`apply_sampled_chances` is this loop; the records' tests
        // check that a recorded game is the game `simulate` counts).
        let chance = if L::KEEPS {
            let mut k = 0;
            while let Some(a) = state.sample_chance(&mut rng) {
                state.apply_legal(a);
                log.keep(a)?;
                k += 1;
            }
            k
        } else {
            state.apply_sampled_chances(&mut rng)
        };
        if chance > 0 {
            actions += chance;
            if first_dealer.is_none() {
                first_dealer = state.dealer();
            }
            continue;
        }
        state.fill_legal_actions(&mut legal);
        if legal.len() == 1 {
            state.apply_legal(legal[0]);
            log.keep(legal[0])?;
            actions += 1;
            continue;
        }
        let p = state.current_player().max(0) as usize;
        let action = match seats.get_mut(p) {
            Some(policy) => policy.choose(&state, &legal, &mut rng),
            None => return Err(Error::Illegal(format!("no policy for player {p}"))),
        };
        // `is_legal` is a bit test (the contract: it agrees with the list), where a scan of
        // the list cost a loop and a mispredicted exit on every decision.
        if !state.is_legal(action) {
            super::interrupt::check()?;
            return Err(state.illegal_action_error(action as i64));
        }
        state.apply_legal(action);
        log.keep(action)?;
        actions += 1;
    }
    Ok(GameSummary::of(&state, first_dealer.unwrap_or(0), actions))
}

fn check_policies<G: Game>(game: &G, policies: &[PolicyFactory<G::State>]) -> Result<()> {
    let n = game.num_players();
    if policies.len() != 1 && policies.len() != n {
        return Err(Error::InvalidValue(format!("{} needs 1 or {n} policies, got {}", G::NAME, policies.len())));
    }
    Ok(())
}

/// Play games `indices` of a run seeded by `seed`, in parallel on the current rayon pool, and
/// append them to `out` in index order. Game `i` is the same whichever block, thread or machine
/// plays it.
pub fn simulate_block<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    indices: Range<u64>,
    out: &mut SimColumns,
) -> Result<()> {
    check_policies(game, policies)?;
    let (start, len) = (indices.start, indices.end.saturating_sub(indices.start) as usize);
    let mut summaries = std::mem::take(&mut out.scratch);
    let flag = super::interrupt::current();
    (0..len)
        .into_par_iter()
        .with_min_len(16)
        .map(|i| super::interrupt::with_opt(flag.as_ref(), || play_game(game, policies, seed, start + i as u64)))
        .collect_into_vec(&mut summaries);
    // The first error in game order, and then none of the block's games (as before).
    let result = match summaries.iter().position(|g| g.is_err()) {
        Some(i) => summaries.swap_remove(i).map(|_| ()),
        None => {
            for g in summaries.iter().flatten() {
                out.push(g);
            }
            Ok(())
        }
    };
    summaries.clear();
    out.scratch = summaries;
    result
}

/// A rayon pool of `threads` threads, or `None` for the global pool.
pub fn thread_pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(0) => Err(Error::InvalidValue("threads must be at least 1".into())),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map(Some)
            .map_err(|e| Error::InvalidValue(format!("cannot start {t} threads: {e}"))),
    }
}

/// Games per block of [`simulate`]: small enough to keep the per-block records in cache.
const BLOCK: u64 = 1 << 14;

/// Play `n_games` whole games of `game` with `policies` (one factory per seat, or one for every
/// seat) on `threads` threads (`None`: rayon's global pool), games `first..first + n_games` of the
/// run seeded by `seed`.
///
/// Game `i` draws every chance event and random choice from its own generator seeded by
/// `(seed, i)` and gets fresh policies, so the result for a seed is the same whatever the number
/// of threads, and a run split by `first` concatenates to the whole.
///
/// ```
/// use cribpiquet::cribbage::{GameConfig, State, Variant};
/// use cribpiquet::engine::{simulate, PolicyFactory, RandomPolicy};
///
/// let game = GameConfig::new(Variant::SixCard, None).unwrap();
/// let random: PolicyFactory<State> = Box::new(|_| Box::new(RandomPolicy));
/// let a = simulate(&game, std::slice::from_ref(&random), 7, 0, 200, Some(1)).unwrap();
/// let b = simulate(&game, std::slice::from_ref(&random), 7, 0, 200, Some(2)).unwrap();
/// assert_eq!(a, b);
/// assert!(a.scores.chunks(2).zip(&a.winner).all(|(s, &w)| s[w as usize] >= 121));
/// ```
pub fn simulate<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    first: u64,
    n_games: usize,
    threads: Option<usize>,
) -> Result<SimColumns> {
    check_policies(game, policies)?;
    let pool = thread_pool(threads)?;
    let mut out = SimColumns::with_capacity(game, n_games);
    simulate_into(game, policies, seed, first..first.saturating_add(n_games as u64), &pool, &mut out)?;
    Ok(out)
}

/// Play games `indices` of the run seeded by `seed` on `pool` (`None`: rayon's global pool) in
/// blocks, appending them to `out`: the loop of [`simulate`], for callers that hold the pool and
/// the columns (the bindings reserve the columns without aborting). The calling thread's
/// [`interrupt`](super::interrupt) flag goes along: a raised flag stops the run between games.
pub fn simulate_into<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    indices: Range<u64>,
    pool: &Option<rayon::ThreadPool>,
    out: &mut SimColumns,
) -> Result<()> {
    let mut start = indices.start;
    while start < indices.end {
        let stop = indices.end.min(start.saturating_add(BLOCK));
        super::interrupt::on_pool(pool, || simulate_block(game, policies, seed, start..stop, out))?;
        start = stop;
    }
    Ok(())
}

/// The records of a run: the actions of each game recorded, in game order (see
/// [`simulate_into_recording`]).
pub type GameRecords = Vec<Vec<u16>>;

/// [`simulate_into`], keeping the actions of the first `max_records` games of `indices` in
/// `records` (game `indices.start + k` is `records[k]`; [`play_game_recorded`]). The games after
/// them run on the playout path as before; the columns are the same as without records. Memory
/// is bounded by the records asked for: the list is reserved up front and every record grows
/// fallibly (an [`Error::OutOfMemory`] otherwise).
#[allow(clippy::too_many_arguments)]
pub fn simulate_into_recording<G: Game>(
    game: &G,
    policies: &[PolicyFactory<G::State>],
    seed: u64,
    indices: Range<u64>,
    pool: &Option<rayon::ThreadPool>,
    out: &mut SimColumns,
    max_records: usize,
    records: &mut GameRecords,
) -> Result<()> {
    check_policies(game, policies)?;
    let split = indices.end.min(indices.start.saturating_add(max_records as u64)).max(indices.start);
    let wanted = (split - indices.start) as usize;
    records
        .try_reserve_exact(wanted)
        .map_err(|_| Error::OutOfMemory(format!("cannot hold {wanted} game records")))?;
    let mut start = indices.start;
    while start < split {
        let stop = split.min(start.saturating_add(BLOCK));
        super::interrupt::on_pool(pool, || {
            let flag = super::interrupt::current();
            let games: Vec<Result<(GameSummary, Vec<u16>)>> = (start..stop)
                .into_par_iter()
                .map(|i| super::interrupt::with_opt(flag.as_ref(), || play_game_recorded(game, policies, seed, i)))
                .collect();
            // The first error in game order, and then none of the block's games (as the
            // playout path).
            if let Some(i) = games.iter().position(|g| g.is_err()) {
                return games.into_iter().nth(i).map_or(Ok(()), |g| g.map(|_| ()));
            }
            for (summary, actions) in games.into_iter().flatten() {
                out.push(&summary);
                records.push(actions);
            }
            Ok(())
        })?;
        start = stop;
    }
    simulate_into(game, policies, seed, split..indices.end, pool, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::{self, Variant};
    use crate::engine::{FirstPolicy, RandomPolicy};
    use crate::piquet::{self, Rules, Scope};

    /// The engine's own policies by name (the engine knows no bot: the bots' registry is above it).
    fn policy<S: GameState>(name: &str) -> PolicyFactory<S> {
        match name {
            "random" => Box::new(|_| Box::new(RandomPolicy)),
            "first" => Box::new(|_| Box::new(FirstPolicy)),
            _ => panic!("no engine policy {name:?}"),
        }
    }

    fn policies<S: GameState>(names: &[&str]) -> Vec<PolicyFactory<S>> {
        names.iter().map(|n| policy::<S>(n)).collect()
    }

    /// The same for a seed whatever the threads, and a run split by `first` concatenates to the
    /// whole: one generic test, run for every game below.
    fn deterministic_and_splittable<G: Game>(game: G, names: &[&str]) {
        let p = policies::<G::State>(names);
        let a = simulate(&game, &p, 11, 0, 300, Some(1)).unwrap();
        let b = simulate(&game, &p, 11, 0, 300, Some(2)).unwrap();
        assert_eq!(a, b);
        let (head, tail) =
            (simulate(&game, &p, 11, 0, 120, None).unwrap(), simulate(&game, &p, 11, 120, 180, None).unwrap());
        assert_eq!([head.winner, tail.winner].concat(), a.winner);
        assert_eq!([head.returns, tail.returns].concat(), a.returns);
        assert_eq!([head.sources[0].clone(), tail.sources[0].clone()].concat(), a.sources[0]);
        let other = simulate(&game, &p, 12, 0, 300, Some(2)).unwrap();
        assert_ne!(a.scores, other.scores);
    }

    /// Every column has its shape, the sources add up to the scores, and the returns, winner and
    /// game value agree.
    fn columns_add_up<G: Game>(game: G) {
        let p = policies::<G::State>(&["random"]);
        let r = simulate(&game, &p, 5, 0, 400, None).unwrap();
        let (s, n) = (r.n_sides, r.n_games);
        assert_eq!((n, s, r.n_players), (400, game.num_sides(), game.num_players()));
        assert_eq!(r.scores.len(), n * s);
        assert_eq!(r.returns.len(), n * r.n_players);
        assert_eq!(r.sources.len(), G::POINT_SOURCES.len());
        for g in 0..n {
            for side in 0..s {
                let total: i32 = r.sources.iter().map(|c| c[g * s + side]).sum();
                assert_eq!(total, r.scores[g * s + side]);
            }
            let returns = &r.returns[g * r.n_players..(g + 1) * r.n_players];
            assert!(returns.iter().sum::<f64>().abs() < 1e-9);
            match r.winner[g] {
                -1 => assert!(returns.iter().all(|&x| x == 0.0)),
                w => assert!(returns.iter().enumerate().all(|(q, &x)| (x > 0.0) == (q % s == w as usize))),
            }
            assert!(r.deals[g] >= 1 && r.actions[g] > 0);
        }
    }

    #[test]
    fn every_game_is_deterministic_and_splittable() {
        for v in Variant::ALL {
            let names: &[&str] = if v.num_players() == 2 { &["random", "first"] } else { &["random"] };
            deterministic_and_splittable(cribbage::GameConfig::new(v, None).unwrap(), names);
        }
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                deterministic_and_splittable(piquet::GameConfig::new(rules, scope).unwrap(), &["random", "first"]);
            }
        }
    }

    /// A recorded run has the columns of the same run unrecorded, and each record replays (every
    /// action legal where it stands) to the game its row counts.
    fn records_replay_to_their_rows<G: Game>(game: G, names: &[&str]) {
        let p = policies::<G::State>(names);
        let plain = simulate(&game, &p, 9, 5, 40, Some(2)).unwrap();
        let mut out = SimColumns::with_capacity(&game, 40);
        let mut records = GameRecords::new();
        simulate_into_recording(&game, &p, 9, 5..45, &thread_pool(Some(2)).unwrap(), &mut out, 25, &mut records)
            .unwrap();
        assert_eq!(out, plain);
        assert_eq!(records.len(), 25);
        for (k, actions) in records.iter().enumerate() {
            let mut state = game.new_initial_state();
            for &a in actions {
                state.apply_action(a).unwrap();
            }
            assert!(state.is_terminal());
            let s = out.n_sides;
            let scores: Vec<i32> = (0..s).map(|side| state.side_score(side) as i32).collect();
            assert_eq!(scores, out.scores[k * s..(k + 1) * s]);
            assert_eq!(actions.len(), out.actions[k] as usize);
        }
    }

    #[test]
    fn every_game_records_and_replays() {
        for v in Variant::ALL {
            let names: &[&str] = if v.num_players() == 2 { &["random", "first"] } else { &["random"] };
            records_replay_to_their_rows(cribbage::GameConfig::new(v, None).unwrap(), names);
        }
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                records_replay_to_their_rows(piquet::GameConfig::new(rules, scope).unwrap(), &["random", "first"]);
            }
        }
    }

    #[test]
    fn every_game_adds_up() {
        for v in Variant::ALL {
            columns_add_up(cribbage::GameConfig::new(v, None).unwrap());
        }
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                columns_add_up(piquet::GameConfig::new(rules, scope).unwrap());
            }
        }
    }

    #[test]
    fn lurch_scales_the_returns_column() {
        let game = cribbage::GameConfig::new(Variant::SixCard, None).unwrap().with_lurch(true);
        let r = simulate(&game, &policies(&["random", "first"]), 3, 0, 300, None).unwrap();
        let values: Vec<f64> = r.returns.chunks(2).map(|x| x[0].abs()).collect();
        assert!(values.iter().all(|&v| v == 1.0 || v == 2.0 || v == 3.0));
        // Random against first-card play skunks often.
        assert!(values.iter().any(|&v| v > 1.0), "{values:?}");
        for (g, v) in values.iter().enumerate() {
            let loser = r.scores[2 * g + 1 - r.winner[g] as usize];
            assert_eq!(*v as u8, game.lurch_multiplier(loser as u16));
        }
    }

    #[test]
    fn five_card_three_for_last_once_per_game() {
        let game = cribbage::GameConfig::new(Variant::FiveCard, None).unwrap();
        let r = simulate(&game, &policies(&["random"]), 5, 0, 300, None).unwrap();
        let three = r.source(G5::POINT_SOURCES, "three_for_last").unwrap();
        assert!(three.iter().all(|&x| x == 0 || x == 3));
        assert_eq!(three.iter().sum::<i32>(), 3 * 300);
    }

    type G5 = cribbage::GameConfig;

    #[test]
    fn bad_arguments_are_errors() {
        let game = cribbage::GameConfig::new(Variant::ThreePlayer, None).unwrap();
        let random = || policy::<cribbage::State>("random");
        assert!(simulate(&game, &[random(), random()], 0, 0, 1, None).is_err());
        assert!(simulate(&game, &[random()], 0, 0, 1, Some(0)).is_err());
        assert_eq!(simulate(&game, &[random()], 0, 0, 0, None).unwrap().n_games, 0);
    }
}
