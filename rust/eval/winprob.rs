//! The win-probability estimate IS-MCTS values a cribbage deal's end by: [`WinTable`], the
//! chance that the side about to deal wins from a pair of scores.
//!
//! It is computed in code, never pasted: at first use for a (variant, target), the
//! per-deal distribution of points is measured by self-play (the rollout
//! [`Heuristic`](super::heuristic::Heuristic) in both seats of very long games of the variant —
//! target 10,000 — so no deal is cut short, [`DEALS`] deals in 16 runs from fixed seeds, played
//! in parallel), as the joint
//! distribution of (dealer's side points, other side's points) of a deal. Then, treating deals as
//! independent draws from it, a dynamic programme gives `V[a][b]`, the probability that the side
//! dealing next with `a` points beats the other side's `b`: after a deal worth (x, y), the other
//! side wins if `b + y` reaches the target (it counts first: the pone's hand is shown before the
//! dealer's), else the dealer's side if `a + x` does, else the deal passes and the roles swap:
//! `V[a][b] = Σ p(x, y) · (1 − V[b + y][a + x])`. A deal worth (0, 0) leaves the scores and swaps
//! the roles, so each pair `V[a][b]`, `V[b][a]` is solved together from its 2 × 2 system. (Who
//! reaches the target first inside a deal is approximated by the pone-first rule.)
//!
//! The table depends only on the variant and target; it is cached for the process, and once per
//! build in the user's cache directory ([`crate::cache`]: every later process reads it back).
//! Building it is the cost of the first IS-MCTS decision of the first process in a two-sided
//! cribbage game: about 0.1 s on one core for the self-play plus the dynamic programme
//! (benches/README.md, "the win table"; `cargo bench --bench bots -- win_table`); the self-play
//! part divides by the cores.
//! Games with more than two sides (three-player) use [`multi_side_values`] instead.

use std::sync::{Arc, Mutex};

use crate::cribbage::{GameConfig, State, Variant};
use crate::engine::{Game, GameState, Policy, MAX_PLAYERS};
use crate::rng::Rng;

/// Deals of self-play that measure the per-deal distribution.
pub const DEALS: usize = 20_000;

/// Points of one side in one deal are counted up to this (more is put here).
const MAX_DEAL_POINTS: usize = 96;

/// The probability that the side dealing next wins, for each pair of scores below the target.
#[derive(Debug, Clone, PartialEq)]
pub struct WinTable {
    target: u16,
    /// `v[a * target + b]`: the dealer's side at `a`, the other at `b`.
    v: Vec<f32>,
}

/// The joint distribution of one deal's (dealer's side, other side's) points: `(x, y, p)`.
pub type DealDistribution = Vec<(u16, u16, f64)>;

impl WinTable {
    /// The cached table of `config`'s variant and target (computed at first use, ~0.1 s).
    pub fn of(config: GameConfig) -> Arc<WinTable> {
        type Cache = Mutex<Vec<((Variant, u16), Arc<WinTable>)>>;
        static CACHE: Cache = Mutex::new(Vec::new());
        let key = (config.variant(), config.target());
        if let Some((_, t)) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
            return Arc::clone(t);
        }
        // Computed outside the lock (another thread may compute the same table meanwhile: the
        // result is the same, the first stored wins).
        let table = Arc::new(WinTable::cached_or_computed(config.variant(), config.target()));
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = cache.iter().find(|(k, _)| *k == key) {
            return Arc::clone(t);
        }
        cache.push((key, Arc::clone(&table)));
        table
    }

    /// The table of `variant` and `target`: read from the cache directory ([`crate::cache`]) if a
    /// whole file of this build is there and its values check, else computed (and saved there).
    fn cached_or_computed(variant: Variant, target: u16) -> WinTable {
        let name = format!("win-table-{}-{target}", variant.name());
        let dir = crate::cache::dir();
        let read = |dir: &std::path::Path| crate::cache::read(dir, &name, WinTable::contents_len(variant, target));
        let cached =
            dir.as_deref().and_then(|dir| read(dir).ok()).and_then(|b| WinTable::decode(&b, variant, target).ok());
        if let Some(table) = cached {
            return table;
        }
        let table = WinTable::from_distribution(target, &deal_distribution(variant, DEALS, 1));
        if let Some(dir) = &dir {
            // A cache that cannot be written costs the next process the computation, no more.
            let _ = crate::cache::write(dir, &name, &table.encode(variant));
        }
        table
    }

    /// The contents of a cached table: its variant's name and target, then every value
    /// (little-endian `f32`).
    fn encode(&self, variant: Variant) -> Vec<u8> {
        let mut out = WinTable::encode_head(variant);
        out.extend_from_slice(&self.target.to_le_bytes());
        for x in &self.v {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    fn contents_len(variant: Variant, target: u16) -> usize {
        WinTable::encode_head(variant).len() + 2 + 4 * target as usize * target as usize
    }

    /// The table of `variant` and `target` in a cached file's contents, if they are such a table
    /// (that variant, that target, that length) and every value is a probability.
    fn decode(bytes: &[u8], variant: Variant, target: u16) -> Result<WinTable, String> {
        let head = WinTable::contents_len(variant, 0);
        if bytes.len() != WinTable::contents_len(variant, target) || bytes[..head - 2] != WinTable::encode_head(variant)
        {
            return Err("not the win table of this variant".into());
        }
        if bytes[head - 2..head] != target.to_le_bytes() {
            return Err("not the win table of this target".into());
        }
        let v: Vec<f32> =
            bytes[head..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        if let Some(bad) = v.iter().position(|x| !(0.0..=1.0).contains(x)) {
            return Err(format!("value {bad} is {}, not a probability", v[bad]));
        }
        Ok(WinTable { target, v })
    }

    fn encode_head(variant: Variant) -> Vec<u8> {
        [WIN_TABLE_MAGIC.as_slice(), variant.name().as_bytes(), b"\n"].concat()
    }

    /// The table for `target` from a per-deal distribution (the dynamic programme above).
    ///
    /// ```
    /// use cribpiquet::bots::winprob::WinTable;
    /// // Every deal gives the dealer 1 point and the other side nothing, to 2 points: the dealer
    /// // at 1 wins at once; at 0 against 1 he reaches 1, then the other side deals and wins.
    /// let t = WinTable::from_distribution(2, &vec![(1, 0, 1.0)]);
    /// assert_eq!(t.dealer_wins(1, 0), 1.0);
    /// assert_eq!(t.dealer_wins(0, 1), 0.0);  // dealer to 1, then the other side deals and wins
    /// ```
    pub fn from_distribution(target: u16, dist: &[(u16, u16, f64)]) -> WinTable {
        let t = target as usize;
        let mut v = vec![0f64; t * t];
        let p00: f64 = dist.iter().filter(|&&(x, y, _)| x == 0 && y == 0).map(|d| d.2).sum();
        let rest: Vec<(usize, usize, f64)> =
            dist.iter().filter(|&&(x, y, _)| x != 0 || y != 0).map(|&(x, y, p)| (x as usize, y as usize, p)).collect();
        // R[a][b]: the dealer's chance from every outcome but (0, 0).
        let r = |v: &[f64], a: usize, b: usize| -> f64 {
            let mut sum = 0.0;
            for &(x, y, p) in &rest {
                if b + y >= t {
                    continue; // the other side wins
                }
                if a + x >= t {
                    sum += p;
                    continue;
                }
                sum += p * (1.0 - v[(b + y) * t + (a + x)]);
            }
            sum
        };
        for total in (0..=2 * (t - 1)).rev() {
            for a in total.saturating_sub(t - 1)..=total.min(t - 1) {
                let b = total - a;
                if a > b {
                    continue; // solved with (b, a)
                }
                let (rab, rba) = (r(&v, a, b), r(&v, b, a));
                if a == b {
                    v[a * t + b] = (rab + p00) / (1.0 + p00);
                } else {
                    let vab = (rab + p00 - p00 * rba - p00 * p00) / (1.0 - p00 * p00);
                    v[a * t + b] = vab;
                    v[b * t + a] = rba + p00 * (1.0 - vab);
                }
            }
        }
        WinTable { target, v: v.into_iter().map(|x| x.clamp(0.0, 1.0) as f32).collect() }
    }

    /// The chance that the side dealing next, with `dealer` points, wins against `other` points
    /// (1 if `dealer` reached the target, 0 if `other` did).
    #[inline]
    pub fn dealer_wins(&self, dealer: u64, other: u64) -> f64 {
        let t = self.target as u64;
        if other >= t {
            return 0.0;
        }
        if dealer >= t {
            return 1.0;
        }
        self.v[(dealer * t + other) as usize] as f64
    }

    /// The target the table is for.
    pub fn target(&self) -> u16 {
        self.target
    }
}

/// The first bytes of a cached win table's contents.
const WIN_TABLE_MAGIC: &[u8; 10] = b"win table\n";

/// Independent self-play runs [`deal_distribution`] splits its deals into (in parallel).
const RUNS: usize = 16;

/// The per-deal distribution of `variant` (two sides) from `deals` deals of self-play by the
/// rollout heuristic: `RUNS` independent long games, run `k` seeded by `game_seed(seed, k)`
/// and playing `deals / RUNS` deals (one more for the first `deals % RUNS`), played in parallel
/// on the current rayon pool — the same result whatever the number of threads.
pub fn deal_distribution(variant: Variant, deals: usize, seed: u64) -> DealDistribution {
    use rayon::prelude::*;
    let cells = (MAX_DEAL_POINTS + 1) * (MAX_DEAL_POINTS + 1);
    let share = |k: usize| deals / RUNS + usize::from(k < deals % RUNS);
    let counts = (0..RUNS)
        .into_par_iter()
        .map(|k| deal_counts(variant, share(k), crate::engine::game_seed(seed, k as u64)))
        .reduce(
            || vec![0u32; cells],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let total = counts.iter().map(|&c| c as usize).sum::<usize>().max(1) as f64;
    let mut out = Vec::new();
    for (i, &c) in counts.iter().enumerate() {
        if c > 0 {
            out.push(((i / (MAX_DEAL_POINTS + 1)) as u16, (i % (MAX_DEAL_POINTS + 1)) as u16, c as f64 / total));
        }
    }
    out
}

/// One self-play run of [`deal_distribution`]: the counts of `deals` deals' (dealer's side,
/// other side's) points, by cell `x * (MAX_DEAL_POINTS + 1) + y`.
fn deal_counts(variant: Variant, deals: usize, seed: u64) -> Vec<u32> {
    let mut counts = vec![0u32; (MAX_DEAL_POINTS + 1) * (MAX_DEAL_POINTS + 1)];
    let mut rng = Rng::new(seed);
    let config = GameConfig::new(variant, Some(crate::cribbage::MAX_TARGET as u32)).expect("a valid variant");
    let mut policy = super::heuristic::Heuristic;
    let mut seen = 0usize;
    let mut legal = crate::engine::ActionList::new();
    while seen < deals {
        let mut s = config.new_initial_state();
        let mut start: Option<(State, u32)> = None;
        while !s.is_terminal() && seen < deals {
            if s.deals() != start.map_or(0, |x| x.1) {
                if let Some((before, _)) = start {
                    if let Some(dealer) = before.dealer() {
                        let d = before.side_of(dealer);
                        let gain = |side: usize| (s.side_score(side) - before.side_score(side)) as usize;
                        let (x, y) = (gain(d).min(MAX_DEAL_POINTS), gain(1 - d).min(MAX_DEAL_POINTS));
                        counts[x * (MAX_DEAL_POINTS + 1) + y] += 1;
                        seen += 1;
                    }
                }
                start = Some((s, s.deals()));
            }
            if let Some(a) = s.sample_chance(&mut rng) {
                s.apply_legal(a);
                continue;
            }
            s.fill_legal_actions(&mut legal);
            let a = policy.choose(&s, &legal, &mut rng);
            s.apply_legal(a);
        }
    }
    counts
}

/// The leaf values of a game with more than two sides (three-player cribbage), per player:
/// a softmax of the side scores, `exp(β·s_i) / Σ exp(β·s_j)` with `β = 4 / (target − max s + 20)`
/// (the closer the leader is to the target, the more a point of lead is worth).
pub fn multi_side_values(state: &State, out: &mut [f64; MAX_PLAYERS]) {
    let game = state.game();
    let sides = game.num_sides();
    let top = (0..sides).map(|s| state.side_score(s)).max().unwrap_or(0) as f64;
    let beta = 4.0 / ((game.target() as f64 - top).max(0.0) + 20.0);
    let mut w = [0.0f64; MAX_PLAYERS];
    let mut sum = 0.0;
    for (side, x) in w.iter_mut().enumerate().take(sides) {
        *x = (beta * (state.side_score(side) as f64 - top)).exp();
        sum += *x;
    }
    for (p, v) in out.iter_mut().enumerate().take(state.num_players()) {
        *v = w[state.side_of(p)] / sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-checked table: each deal gives the dealer 1 point or nothing, with probability ½.
    #[test]
    fn coin_deals_to_one_point() {
        // Target 1, the pone never scores: from 0-0 the dealer wins with ½ now, else the other
        // side deals from 0-0: V = ½ + ½(1 − V), so V = 2/3.
        let t = WinTable::from_distribution(1, &[(1, 0, 0.5), (0, 0, 0.5)]);
        assert!((t.dealer_wins(0, 0) - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!(t.dealer_wins(1, 0), 1.0);
        assert_eq!(t.dealer_wins(0, 1), 0.0);
    }

    #[test]
    fn pone_counts_first() {
        // Both sides score 1 each deal, to 1: the other side (the pone) always wins.
        let t = WinTable::from_distribution(1, &[(1, 1, 1.0)]);
        assert_eq!(t.dealer_wins(0, 0), 0.0);
    }

    #[test]
    fn measured_table_is_sensible() {
        let config = GameConfig::new(Variant::SixCard, None).unwrap();
        let t = WinTable::of(config);
        assert!(Arc::ptr_eq(&t, &WinTable::of(config)));
        // Ahead is better, far ahead nearly certain, and the dealer's edge at 0-0 is small.
        assert!(t.dealer_wins(100, 60) > 0.9);
        assert!(t.dealer_wins(60, 100) < 0.1);
        assert!((t.dealer_wins(0, 0) - 0.5).abs() < 0.1, "{}", t.dealer_wins(0, 0));
        for a in (0..121).step_by(10) {
            for b in (0..120).step_by(10) {
                assert!(t.dealer_wins(a, b + 1) <= t.dealer_wins(a, b) + 0.02, "{a} {b}");
            }
        }
    }
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    #[test]
    fn a_cached_win_table_reads_back_to_the_bit_and_a_bad_one_is_refused() {
        let table = WinTable::from_distribution(7, &[(1, 0, 0.25), (0, 2, 0.5), (3, 1, 0.25)]);
        let contents = table.encode(Variant::FiveCard);
        assert_eq!(contents.len(), WinTable::contents_len(Variant::FiveCard, 7));
        assert_eq!(WinTable::decode(&contents, Variant::FiveCard, 7).unwrap(), table);
        assert!(WinTable::decode(&contents, Variant::SixCard, 7).unwrap_err().contains("variant"));
        assert!(WinTable::decode(&contents, Variant::FiveCard, 8).unwrap_err().contains("variant"));
        let mut other_target = contents.clone();
        let at = WinTable::encode_head(Variant::FiveCard).len();
        other_target[at] = 6;
        assert!(WinTable::decode(&other_target, Variant::FiveCard, 7).unwrap_err().contains("target"));
        for bad in [f32::NAN, -0.5, 1.5, f32::INFINITY] {
            let mut b = contents.clone();
            b[at + 2 + 4 * 5..at + 2 + 4 * 6].copy_from_slice(&bad.to_le_bytes());
            assert!(WinTable::decode(&b, Variant::FiveCard, 7).unwrap_err().starts_with("value 5 is"));
        }
        assert!(WinTable::decode(&contents[..contents.len() - 1], Variant::FiveCard, 7).is_err());
        assert!(WinTable::decode(b"", Variant::FiveCard, 7).is_err());
        // Through a file, as `of` does.
        let dir = std::env::temp_dir().join(format!("cribpiquet-win-table-{}", std::process::id()));
        crate::cache::write(&dir, "w", &contents).unwrap();
        let read = crate::cache::read(&dir, "w", WinTable::contents_len(Variant::FiveCard, 7)).unwrap();
        assert_eq!(WinTable::decode(&read, Variant::FiveCard, 7).unwrap(), table);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn of_gives_the_computed_table_whether_or_not_it_was_cached() {
        // `of` reads the user's cache when there is one: the same table to the bit as computed.
        let config = GameConfig::new(Variant::FiveCard, Some(31)).unwrap();
        let computed = WinTable::from_distribution(31, &deal_distribution(Variant::FiveCard, DEALS, 1));
        assert_eq!(*WinTable::of(config), computed);
    }
}
