//! The arena: matches between players with the seats rotated, counted per player
//! ([`ArenaCounts`]), in parallel and deterministic for a seed.
//!
//! Game `i` (a global index: a run of games `first..first + n` is a slice of one long run) is the
//! engine's `simulate` game `i` — every chance event and random choice drawn from a generator
//! seeded by `(seed, i)` — with the players' seats rotated by `i`: player `k` sits at seat
//! `(k + i) mod n`. So each player deals first and plays each seat equally often, and a range
//! split into pieces gives the same games and, summed, the same counts ([`ArenaCounts::add`]).

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::engine::{
    interrupt, play_game, play_game_recorded, Game, GameState, GameSummary, PolicyFactory, MAX_PLAYERS, MAX_SOURCES,
};
use crate::error::{Error, Result};

/// What an arena run counts, per player in the order given (not per seat).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArenaCounts {
    /// Number of players.
    pub n_players: usize,
    /// Games played.
    pub games: u64,
    /// Games each player's side won.
    pub wins: [u64; MAX_PLAYERS],
    /// Drawn games (a piquet deal with equal points).
    pub draws: u64,
    /// Deals begun, over all games.
    pub deals: u64,
    /// Points of each player's side by source ([`Game::POINT_SOURCES`] order).
    pub points: [[u64; MAX_SOURCES]; MAX_PLAYERS],
}

impl ArenaCounts {
    /// No games yet, for `n_players`.
    pub fn new(n_players: usize) -> ArenaCounts {
        ArenaCounts { n_players, ..ArenaCounts::default() }
    }

    /// Add the counts of another (disjoint) run with the same players.
    pub fn add(&mut self, other: &ArenaCounts) {
        self.games += other.games;
        self.draws += other.draws;
        self.deals += other.deals;
        for k in 0..MAX_PLAYERS {
            self.wins[k] += other.wins[k];
            for s in 0..MAX_SOURCES {
                self.points[k][s] += other.points[k][s];
            }
        }
    }
}

/// The actions of recorded games: `(index, actions)` in index order.
pub type Records = Vec<(u64, Vec<u16>)>;

/// One game played: its summary, and its actions if it is recorded.
type PlayedGame = (GameSummary, Option<Vec<u16>>);

/// The players of an arena with their seat rotations.
pub struct Arena<G: Game> {
    game: G,
    /// `rotations[r][seat]`: the policy at `seat` in games with `i mod n == r`.
    rotations: Vec<Vec<PolicyFactory<G::State>>>,
    /// The side of each seat.
    sides: Vec<usize>,
}

impl<G: Game> Arena<G> {
    /// An arena of `game` for `players`, one per seat (`game.num_players()` of them).
    pub fn new(game: G, players: Vec<PolicyFactory<G::State>>) -> Result<Arena<G>> {
        let n = game.num_players();
        if players.len() != n {
            return Err(Error::InvalidValue(format!(
                "the arena needs {n} players for {} (one per seat), got {}",
                G::NAME,
                players.len()
            )));
        }
        let players: Vec<Arc<PolicyFactory<G::State>>> = players.into_iter().map(Arc::new).collect();
        let rotations = (0..n)
            .map(|r| {
                (0..n)
                    .map(|seat| {
                        let p = Arc::clone(&players[(seat + n - r) % n]);
                        Box::new(move |s: usize| p(s)) as PolicyFactory<G::State>
                    })
                    .collect()
            })
            .collect();
        let start = game.new_initial_state();
        let sides = (0..n).map(|seat| start.side_of(seat)).collect();
        Ok(Arena { game, rotations, sides })
    }

    /// Number of players.
    pub fn n_players(&self) -> usize {
        self.sides.len()
    }

    /// Play games `indices` of the run seeded by `seed` on the current rayon pool.
    pub fn play(&self, seed: u64, indices: Range<u64>) -> Result<ArenaCounts> {
        self.play_recording(seed, indices, 0).map(|(counts, _)| counts)
    }

    /// [`play`](Arena::play), keeping the actions (chance outcomes included, in order) of the
    /// games with an index below `record_below`: `(index, actions)` in index order. A game is
    /// the same recorded or not ([`play_game_recorded`]); its seat `s` holds player
    /// `(s + n − index mod n) mod n`.
    pub fn play_recording(&self, seed: u64, indices: Range<u64>, record_below: u64) -> Result<(ArenaCounts, Records)> {
        let n = self.n_players();
        // The caller's interrupt flag on every thread ([`crate::engine::interrupt`]).
        let flag = interrupt::current();
        let games: Vec<(u64, Result<PlayedGame>)> = indices
            .into_par_iter()
            .map(|i| {
                let rotation = &self.rotations[(i % n as u64) as usize];
                let g = interrupt::with_opt(flag.as_ref(), || match i < record_below {
                    true => play_game_recorded(&self.game, rotation, seed, i).map(|(g, a)| (g, Some(a))),
                    false => play_game(&self.game, rotation, seed, i).map(|g| (g, None)),
                });
                (i, g)
            })
            .collect();
        let mut out = ArenaCounts::new(n);
        let mut records = Vec::new();
        let n_sources = G::POINT_SOURCES.len().min(MAX_SOURCES);
        for (i, g) in games {
            let (g, actions) = g?;
            if let Some(actions) = actions {
                records.push((i, actions));
            }
            out.games += 1;
            out.deals += g.deals as u64;
            if g.winner.is_none() {
                out.draws += 1;
            }
            for k in 0..n {
                let seat = (k + (i % n as u64) as usize) % n;
                let side = self.sides[seat];
                if g.winner == Some(side) {
                    out.wins[k] += 1;
                }
                for s in 0..n_sources {
                    out.points[k][s] += g.sources[side][s];
                }
            }
        }
        Ok((out, records))
    }
}

/// The Wilson score interval at 95 % (z = 1.959964) for a score rate `p` over `n` games: the
/// interval of every true rate the observed one would not reject at that level,
/// `(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)`; `(0, 1)` for no games.
///
/// ```
/// let (lo, hi) = cribpiquet::bots::arena::wilson(0.5, 100);
/// assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
/// ```
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let z2 = z * z;
    let center = p + z2 / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let d = 1.0 + z2 / n;
    (((center - margin) / d).max(0.0), ((center + margin) / d).min(1.0))
}

#[cfg(test)]
mod tests;
