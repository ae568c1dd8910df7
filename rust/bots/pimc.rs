//! [`Pimc`]: Perfect-Information Monte Carlo (the search of bridge's GIB, Skat's Kermit): sample
//! the hidden cards consistently with what the player to move has seen, solve each sampled deal
//! exactly with every card face up ([`crate::solve`]), and play the action that does best across
//! the samples. Written once for both games over [`Solve`] and the small [`PimcGame`] trait.
//!
//! # One decision
//!
//! 1. Draw one number from the generator handed in; world `k` is
//!    [`GameState::resample_from_infostate`] for the player to move from the generator seeded by
//!    [`world_seed`] of that number and `k` (so the worlds do not depend on the thread count).
//! 2. Value every legal action in every world, the same worlds for every action:
//!    * **in the play** (phase `"play"`): the solver's exact value of each action
//!      ([`Solve::solve`]);
//!    * **before the play, exactly** ([`BeforePlay::Exact`], the default): a two-player cribbage
//!      discard or a piquet exchange (its size, each card laid away) is valued by Greedy's exact
//!      one-step expectation ([`exact_points`]: the hand and crib over every starter
//!      and opponent throw; the expected declarations over every draw) and no world is sampled.
//!      [`BeforePlay::ExactAndPlay`] adds the weighted mean over the worlds of the solved play's
//!      point difference ([`PimcGame::rest_points`]). Measured over thousands of games (see
//!      `benches/README.md`), both world-valued discards lose hand points to Greedy's exact
//!      expectation (the pegging or tricks solved with every card seen favour the wrong keeps),
//!      so the exact value alone is the default; the choice is then made on the points, shown on
//!      the objective's scale ([`PimcGame::points_on_scale`]);
//!    * **before the play, by the worlds** ([`BeforePlay::Worlds`]; and whatever the setting, a
//!      decision without an exact value: three- and four-player discards, the open capot):
//!      apply the action in the world, then advance the world through the other
//!      players' decisions with [`Greedy`] (which decides from what its player knows; one decision
//!      per information state is kept for the world, so the other actions reuse it) and through
//!      chance with a generator seeded by the world (the same draws for every action), until the
//!      solver applies — then its value for the player to move there, turned to the deciding
//!      player's view ([`PimcGame::other_side_value`]; with three sides the solved line is played
//!      out and valued for him) — or the deal or the game ends ([`PimcGame::outcome_value`]).
//!      With `Points`, the points made on the way (the cut's heels) are added. Cribbage with two
//!      sides refines this ([`PimcGame::preplay_value`]): the starter changes only the show and
//!      the heels, so the pegging is solved once and the show and heels are averaged exactly over
//!      every starter the world leaves (away from the end of the game).
//! 3. Each action's value is its mean over the worlds, weighted (`inference`) by how likely the
//!    other players' own earlier decisions are in each world ([`PimcGame::world_weight`]).
//!    [`Bot::step`] plays the best mean (ties: the lowest action).
//!
//! Values are on the [`Objective`]'s scale: `Win` (the default) the chance to win, 0..1;
//! `Points` the deal's point difference.
//!
//! **Inference** (cribbage, two players): once the opponent has discarded, a world is weighted by
//! the probability of the opponent's discard in it under a softmax over his discard values
//! `exp(β·v) / Σ exp(β·v')` with `β` = [`INFERENCE_BETA`] per point, where a discard's value is the
//! equilibrium discard tables' criterion ([`discard_tables`]: the exact expected hand over the
//! unseen starters plus, for the dealer, or minus, for the pone, the tables' expected crib of the
//! thrown kind). The tables (the cheaper `thrown-only` model, [`tables`]) are made once per
//! process and variant at the first use, and kept once per build in the user's cache directory
//! ([`cribbage::tables_cache`]): the first decision of a build computes them (about 0.2 s of CPU
//! time five-card and 1.4 s six-card, over two threads; `benches/pimc_first_decision.py`), every
//! later process reads them back in a few milliseconds. Ctrl-C stops the computation like any
//! other part of a decision (nothing is kept; the next decision computes them again). The values
//! are the iteration's to the bit: a cached file is used only if it is whole and checked.
//! Three- and four-player cribbage and piquet are not weighted (every world weighs 1).
//!
//! **Threads** split the worlds (world `k` on thread `k mod threads`); the sums are fixed-point
//! integers (2^-64), whose addition is associative, so the result depends only on the generator
//! handed in, not on the thread count, and no per-world storage is kept. A
//! `time_limit` stops each thread at the deadline after at least one world (not reproducible).
//! A cancel flag ([`Pimc::cancel_flag`]) is checked before each world: set, the decision stops
//! with an error.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::greedy::Greedy;
use super::ismcts::{Ismcts, IsmctsConfig, SearchGame};
use super::winprob::{multi_side_values, WinTable};
use super::{decision_player, Bot};
use crate::cribbage::{self, score_show_unchecked, throw_kind, DiscardTables, Hand, Variant};
use crate::engine::{interrupt, Game, GameState, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::names::named_enum;
use crate::piquet;
use crate::rng::Rng;
use crate::solve::{Objective, Solve};

/// The softmax sharpness of the discard model of inference, per point of discard value.
pub const INFERENCE_BETA: f64 = 2.0;

/// The settings of [`Pimc`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PimcConfig {
    /// Worlds sampled per decision (at least 1).
    pub worlds: u32,
    /// What the solver maximises (`Win` by default).
    pub objective: Objective,
    /// Threads the worlds are split over (1..=256).
    pub threads: usize,
    /// Stop at this wall time per decision (after at least one world a thread); not reproducible.
    pub time_limit: Option<Duration>,
    /// Weight the worlds by the other players' earlier decisions (module docs).
    pub inference: bool,
    /// How the decisions before the play are valued (module docs; [`BeforePlay::Exact`] by
    /// default).
    pub before_play: BeforePlay,
}

named_enum! {
    /// How [`Pimc`] values a decision before the play that has an exact one-step value (a two-player
    /// cribbage discard; a piquet exchange: its size and each card laid away).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum BeforePlay {
        /// Greedy's exact value alone ([`exact_points`]); no worlds are sampled.
        #[default]
        Exact => "exact",
        /// Greedy's exact value plus the mean over the worlds of the solved play's point difference
        /// ([`PimcGame::rest_points`]).
        ExactAndPlay => "exact+play",
        /// Every world's line advanced and solved (module docs, step 2).
        Worlds => "worlds",
        /// Every decision before the play (any game, any phase the solver does not reach) made by
        /// IS-MCTS with [`ISMCTS_ITERATIONS`] iterations and its other defaults
        /// ([`Ismcts`]): its values, its choice.
        Ismcts => "ismcts",
    }
}

/// The iterations of [`BeforePlay::Ismcts`]'s search (the strength ladder's IS-MCTS).
pub const ISMCTS_ITERATIONS: u32 = 2000;

impl BeforePlay {
    /// The setting of a name of [`BeforePlay::NAMES`] (an error lists them).
    pub fn parse(name: &str) -> Result<BeforePlay> {
        BeforePlay::by_name(name).ok_or_else(|| {
            Error::InvalidValue(format!(
                "before_play must be one of {}, got {:?}",
                BeforePlay::NAMES.map(|n| format!("'{n}'")).join(", "),
                crate::error::echo(name)
            ))
        })
    }
}

impl Default for PimcConfig {
    fn default() -> PimcConfig {
        PimcConfig {
            worlds: 100,
            objective: Objective::Win,
            threads: 1,
            time_limit: None,
            inference: true,
            before_play: BeforePlay::Exact,
        }
    }
}

impl PimcConfig {
    /// These settings if they are valid, else an error naming the bad one.
    pub fn checked(self) -> Result<PimcConfig> {
        if self.worlds == 0 {
            return Err(Error::InvalidValue("worlds must be at least 1".into()));
        }
        if !(1..=256).contains(&self.threads) {
            return Err(Error::InvalidValue(format!("threads must be 1..256, got {}", self.threads)));
        }
        Ok(self)
    }
}

/// The game-specific hooks of [`Pimc`].
pub trait PimcGame: Solve + SearchGame {
    /// Does the solver apply here (phase `"play"` with a player to move)?
    fn solvable(&self) -> bool {
        self.phase_name() == "play" && self.current_player() >= 0
    }

    /// The value for `player` of this state, where a line from the decision state `from` ended
    /// (the game is over, or the deal is: the next one has begun), on `objective`'s scale.
    fn outcome_value(&self, from: &Self, player: usize, objective: Objective) -> f64;

    /// A solver value `v` of a player of the other side, for a player of this side (two sides).
    fn other_side_value(v: f64, objective: Objective) -> f64 {
        match objective {
            Objective::Points => -v,
            Objective::Win => 1.0 - v,
        }
    }

    /// The likelihood of the other players' earlier decisions in `world` (a world of this state
    /// for `observer`) under the inference model (module docs); 1 when nothing is modelled. An
    /// error when the model's tables, computed at their first use, were interrupted (Ctrl-C).
    fn world_weight(&self, world: &Self, observer: usize) -> Result<f64>;

    /// The value for `player` (who decided at `from`, before the play) of this state, a world
    /// advanced to the play: the solver's value for the player to move here, turned to
    /// `player`'s view (with three sides the solved line is played out and its end valued for
    /// him), plus with `Points` what was made on the way.
    fn preplay_value(&self, from: &Self, player: usize, objective: Objective) -> Result<f64> {
        generic_preplay_value(self, from, player, objective)
    }

    /// Is this a decision before the play whose value splits into an exact part — Greedy's
    /// one-step expectation in points ([`exact_points`]) — and a sampled rest
    /// ([`PimcGame::rest_points`])? No, by default.
    fn has_exact_value(&self) -> bool {
        false
    }

    /// The sampled rest of a split decision ([`exact_points`]), in points for
    /// `player`, valued at this state: a world advanced to where the solver applies.
    fn rest_points(&self, player: usize) -> Result<f64> {
        let _ = player;
        Err(Error::InvalidValue("pimc: this game has no split decisions".into()))
    }

    /// The objective the solver is asked for when the bot's is `objective` (the same by default).
    fn solver_objective(&self, objective: Objective) -> Objective {
        objective
    }

    /// A split decision's point value `x` for `player` at this (decision) state on
    /// `objective`'s scale (`Points`: `x` itself).
    fn points_on_scale(&self, player: usize, x: f64, objective: Objective) -> f64 {
        let _ = (player, objective);
        x
    }
}

/// Greedy's value of each of `legal` where the decision has one ([`PimcGame::has_exact_value`]):
/// the exact part of a split decision, in points; `None` otherwise (or if Greedy values some
/// legal action not).
pub fn exact_points<S: PimcGame>(state: &S, legal: &[u16]) -> Result<Option<Vec<f64>>>
where
    Greedy: Bot<S>,
{
    if !state.has_exact_value() {
        return Ok(None);
    }
    let values = Greedy::new().action_values(state, &mut Rng::new(0))?;
    Ok(legal.iter().map(|a| values.iter().find(|x| x.0 == *a).map(|x| x.1)).collect())
}

/// Within a quarter of the target (30 points of 121, 15 of 61), cribbage's pre-play value solves
/// the play with the world's own starter and the objective asked ([`PimcGame::preplay_value`]).
pub const NEAR_END_FRACTION: u64 = 4;

/// [`PimcGame::preplay_value`]'s default, for implementations that specialise some cases.
fn generic_preplay_value<S: PimcGame>(t: &S, from: &S, player: usize, objective: Objective) -> Result<f64> {
    let solver = t.solver_objective(objective);
    if solver != objective {
        let v = generic_preplay_value(t, from, player, solver)?;
        return Ok(from.points_on_scale(player, v, objective));
    }
    let q = t.current_player() as usize;
    if t.game().num_sides() != 2 {
        let sol = t.solve(objective)?;
        let mut end = *t;
        for &b in &sol.principal_variation {
            end.apply_legal(b);
        }
        return Ok(end.outcome_value(from, player, objective));
    }
    let value = t.solve_values(objective)?.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let value = if objective == Objective::Points { value - t.pending_points() } else { value };
    let side = from.side_of(player);
    let v = if t.side_of(q) == side { value } else { S::other_side_value(value, objective) };
    if objective == Objective::Points {
        let g = gains(from, t);
        return Ok(v + g[side] - g[1 - side]);
    }
    Ok(v)
}

/// Side gains from `from` to `to`.
fn gains<S: GameState>(from: &S, to: &S) -> [f64; 3] {
    let mut g = [0.0; 3];
    for (side, x) in g.iter_mut().enumerate().take(from.game().num_sides().min(3)) {
        *x = to.side_score(side) as f64 - from.side_score(side) as f64;
    }
    g
}

impl PimcGame for cribbage::State {
    /// `Points`: the player's side's gain since `from` minus the best other side's. `Win`: 1 or 0
    /// at the end of the game; at the start of the next deal the IS-MCTS values: the [`WinTable`]
    /// chance of the player's side (two sides), or [`multi_side_values`] (three).
    fn outcome_value(&self, from: &Self, player: usize, objective: Objective) -> f64 {
        let side = self.side_of(player);
        let sides = self.game().num_sides();
        match objective {
            Objective::Points => {
                let g = gains(from, self);
                let other = (0..sides).filter(|&s| s != side).map(|s| g[s]).fold(f64::NEG_INFINITY, f64::max);
                g[side] - other
            }
            Objective::Win => {
                if self.is_terminal() {
                    return (self.winner() == Some(side)) as u8 as f64;
                }
                if sides == 2 {
                    let d = self.side_of(self.dealer().expect("a dealer after a deal"));
                    let v = WinTable::of(self.game()).dealer_wins(self.side_score(d), self.side_score(1 - d));
                    if d == side {
                        v
                    } else {
                        1.0 - v
                    }
                } else {
                    let mut v = [0.0; MAX_PLAYERS];
                    multi_side_values(self, &mut v);
                    v[player]
                }
            }
        }
    }

    /// Two sides, unless a side is within a [`NEAR_END_FRACTION`] of the target or the game ends in
    /// the solved line: the starter only
    /// changes the show and the heels, not the pegging, so the pegging is solved once (objective
    /// `Points`, its line played out for each side's pegging points) and the show and heels are
    /// averaged exactly over every starter the world leaves (40 in six-card). `Points`: the mean
    /// point difference; `Win`: the mean over the starters of the chance to win after the deal
    /// (the target checked in show order, then the [`WinTable`]). Otherwise the generic value.
    fn preplay_value(&self, from: &Self, player: usize, objective: Objective) -> Result<f64> {
        let game = self.game();
        if game.num_sides() != 2 || near_end(from) {
            return generic_preplay_value(self, from, player, objective);
        }
        let sol = self.solve(Objective::Points)?;
        let mut end = *self;
        for &b in &sol.principal_variation {
            end.apply_legal(b);
        }
        if end.is_terminal() {
            return generic_preplay_value(self, from, player, objective);
        }
        let n = self.num_players();
        let dealer = self.dealer().expect("a dealer in the play");
        let dside = self.side_of(dealer);
        let mut pegged = [0u64; 2];
        for (side, x) in pegged.iter_mut().enumerate() {
            *x = (end.points_by_source()[side][0] - self.points_by_source()[side][0]) as u64;
        }
        let mut held = self.crib().mask();
        for q in 0..n {
            held |= self.kept(q).mask();
        }
        let table = (objective == Objective::Win).then(|| WinTable::of(game));
        let side = self.side_of(player);
        let target = game.target() as u64;
        let (mut total, mut count) = (0.0, 0u32);
        for starter in cribbage::Card::all().filter(|c| held & c.bit() == 0) {
            let mut sc = [from.side_score(0) + pegged[0], from.side_score(1) + pegged[1]];
            let mut winner = None;
            if starter.is_jack() {
                sc[dside] += 2;
                if sc[dside] >= target {
                    winner = Some(dside);
                }
            }
            let mut q = dealer;
            for _ in 0..n {
                if winner.is_some() {
                    break;
                }
                q = (q + 1) % n;
                let s = self.side_of(q);
                let pts = score_show_unchecked(self.kept(q), starter, false) as u64;
                sc[s] += pts;
                if pts > 0 && sc[s] >= target {
                    winner = Some(s);
                }
            }
            if winner.is_none() {
                let pts = score_show_unchecked(self.crib(), starter, true) as u64;
                sc[dside] += pts;
                if pts > 0 && sc[dside] >= target {
                    winner = Some(dside);
                }
            }
            total += match (&table, winner) {
                (None, _) => {
                    (sc[side] - from.side_score(side)) as f64 - (sc[1 - side] - from.side_score(1 - side)) as f64
                }
                (Some(_), Some(w)) => (w == side) as u8 as f64,
                (Some(t), None) => {
                    let d = self.side_of((dealer + 1) % n);
                    let v = t.dealer_wins(sc[d], sc[1 - d]);
                    if d == side {
                        v
                    } else {
                        1.0 - v
                    }
                }
            };
            count += 1;
        }
        Ok(total / count.max(1) as f64)
    }

    /// A two-player five- or six-card discard: Greedy's value of each discard is its `net` of
    /// [`analyze_discard`](cribbage::analyze_discard) with a uniform opponent (the exact expected hand over every
    /// unseen starter, plus or minus the exact expected crib, and the heels); the worlds sample
    /// only the pegging.
    fn has_exact_value(&self) -> bool {
        matches!(self.variant(), Variant::FiveCard | Variant::SixCard)
            && self.phase() == cribbage::Phase::Discard
            && self.game().num_sides() == 2
    }

    /// The pegging difference for `player`'s side, solved from the first play of this world
    /// (objective `Points`: the solver's value, which includes the show, less the show of the
    /// world's hands and crib with its starter).
    fn rest_points(&self, player: usize) -> Result<f64> {
        let value = self.solve_values(Objective::Points)?.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let side = self.side_of(player);
        let mover = self.side_of(self.current_player() as usize);
        let value = if mover == side { value } else { -value };
        let starter = self.starter().ok_or_else(|| Error::InvalidValue("pimc: no starter in the play".into()))?;
        let dealer = self.dealer().ok_or_else(|| Error::InvalidValue("pimc: no dealer in the play".into()))?;
        let mut show = [0.0f64; 2];
        for q in 0..self.num_players() {
            show[self.side_of(q)] += score_show_unchecked(self.kept(q), starter, false) as f64;
        }
        show[self.side_of(dealer)] += score_show_unchecked(self.crib(), starter, true) as f64;
        Ok(value - (show[side] - show[1 - side]))
    }

    /// `Win`: the [`WinTable`] chance of `player`'s side with the deal's expected difference `x`
    /// split evenly (half added to his score, half taken from the other's), interpolated between
    /// whole scores — monotone in `x`, an approximation of the chance to win after the deal.
    fn points_on_scale(&self, player: usize, x: f64, objective: Objective) -> f64 {
        if objective == Objective::Points {
            return x;
        }
        let Some(dealer) = self.dealer() else { return x };
        let table = WinTable::of(self.game());
        let side = self.side_of(player);
        let next = 1 - self.side_of(dealer);
        let me = (self.side_score(side) as f64 + x / 2.0).max(0.0);
        let other = (self.side_score(1 - side) as f64 - x / 2.0).max(0.0);
        let (d, o) = if next == side { (me, other) } else { (other, me) };
        let (d0, o0) = (d.floor(), o.floor());
        let (fd, fo) = (d - d0, o - o0);
        let at = |a: f64, b: f64| table.dealer_wins(a as u64, b as u64);
        let v = (1.0 - fd) * ((1.0 - fo) * at(d0, o0) + fo * at(d0, o0 + 1.0))
            + fd * ((1.0 - fo) * at(d0 + 1.0, o0) + fo * at(d0 + 1.0, o0 + 1.0));
        if next == side {
            v
        } else {
            1.0 - v
        }
    }

    fn world_weight(&self, world: &Self, observer: usize) -> Result<f64> {
        let variant = self.variant();
        if !matches!(variant, Variant::FiveCard | Variant::SixCard) {
            return Ok(1.0);
        }
        let q = 1 - observer;
        let thrown = world.discards(q);
        if thrown.len() != 2 {
            return Ok(1.0);
        }
        let dealt = Hand::from_mask(world.kept(q).mask() | thrown.mask()).expect("a hand");
        Ok(discard_likelihood(dealt, thrown, world.dealer() == Some(q), tables(variant)?))
    }
}

/// Is a side of this two-sided game within a [`NEAR_END_FRACTION`] of the target?
fn near_end(state: &cribbage::State) -> bool {
    let target = state.game().target() as u64;
    let margin = target / NEAR_END_FRACTION;
    (0..2).any(|s| state.side_score(s) + margin >= target)
}

/// The inference's discard tables of a two-player variant ([`cribbage::inference_tables`]: the
/// thrown-only model, made once per process, kept once per build in the user's cache directory;
/// a Ctrl-C while they are computed stops the decision and nothing is kept).
pub fn tables(variant: Variant) -> Result<&'static DiscardTables> {
    cribbage::inference_tables(variant)
}

/// The probability that a player dealt `dealt` (dealer or not) throws `thrown`, under the softmax
/// of the tables' discard values (module docs).
pub fn discard_likelihood(dealt: Hand, thrown: Hand, dealer: bool, tables: &DiscardTables) -> f64 {
    let cards: Vec<cribbage::Card> = dealt.iter().collect();
    let unseen: Vec<cribbage::Card> = cribbage::Card::all().filter(|c| !dealt.contains(*c)).collect();
    let mut values = [0.0f64; 15];
    let mut actual = usize::MAX;
    let mut k = 0;
    for j in 1..cards.len() {
        for i in 0..j {
            let (a, b) = (cards[i], cards[j]);
            let kept = Hand::from_mask(dealt.mask() & !a.bit() & !b.bit()).expect("a hand");
            let hand: u32 = unseen.iter().map(|&s| score_show_unchecked(kept, s, false) as u32).sum();
            let kind = throw_kind(a, b);
            let crib = if dealer { tables.values.dealer[kind] } else { -tables.values.pone[kind] };
            values[k] = hand as f64 / unseen.len() as f64 + crib;
            if thrown.contains(a) && thrown.contains(b) {
                actual = k;
            }
            k += 1;
        }
    }
    if actual == usize::MAX {
        return 1.0;
    }
    let top = values[..k].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = values[..k].iter().map(|v| (INFERENCE_BETA * (v - top)).exp()).sum();
    (INFERENCE_BETA * (values[actual] - top)).exp() / sum
}

impl PimcGame for piquet::State {
    /// `Points`: the player's gain since `from` minus the opponent's. `Win`: 1 or 0 at the end of
    /// a partiya; otherwise IS-MCTS's scale of the point difference, `½ + ½·tanh(Δ / 40)`.
    fn outcome_value(&self, from: &Self, player: usize, objective: Objective) -> f64 {
        let g = gains(from, self);
        let delta = g[player] - g[1 - player];
        match objective {
            Objective::Points => delta,
            Objective::Win => {
                if self.is_terminal() && self.winner().is_some() {
                    return (self.winner() == Some(player)) as u8 as f64;
                }
                0.5 + 0.5 * (delta / super::ismcts::PIQUET_SCALE).tanh()
            }
        }
    }

    /// Piquet inference is off: every world weighs 1.
    fn world_weight(&self, _world: &Self, _observer: usize) -> Result<f64> {
        Ok(1.0)
    }

    /// An exchange (its size, or a card laid away): Greedy's value of each action is the exact
    /// expected declaration total over every draw ([`exchange_totals`](piquet::exchange_totals));
    /// the worlds sample only the play.
    fn has_exact_value(&self) -> bool {
        matches!(self.phase(), piquet::Phase::Exchange | piquet::Phase::Discard)
    }

    /// The solved play's point difference for `player` from this world's first lead (the play's
    /// alone: the solver's value less its pending declarations).
    fn rest_points(&self, player: usize) -> Result<f64> {
        let value = self.solve_values(Objective::Points)?.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let value = value - self.pending_points();
        Ok(if self.current_player() as usize == player { value } else { -value })
    }

    /// `Points` where [`Objective::Win`] would be the deal won in a match's deal that cannot end
    /// it ([`deal_may_end_match`](crate::solve::piquet::deal_may_end_match)): there the margin
    /// counts, and a solver maximising the deal won gives points away in a deal it cannot win.
    fn solver_objective(&self, objective: Objective) -> Objective {
        if objective == Objective::Win && !crate::solve::piquet::deal_may_end_match(self) {
            Objective::Points
        } else {
            objective
        }
    }

    /// `Win`: the point scale of [`PimcGame::outcome_value`], `½ + ½·tanh(x / 40)`.
    fn points_on_scale(&self, _player: usize, x: f64, objective: Objective) -> f64 {
        match objective {
            Objective::Points => x,
            Objective::Win => 0.5 + 0.5 * (x / super::ismcts::PIQUET_SCALE).tanh(),
        }
    }
}

/// The PIMC bot (see the [module docs](self)).
#[derive(Clone)]
pub struct Pimc<S: PimcGame> {
    config: PimcConfig,
    cancel: Arc<AtomicBool>,
    /// [`BeforePlay::Ismcts`]'s search, made at its first decision.
    search: Option<Box<Ismcts<S>>>,
}

impl<S: PimcGame> std::fmt::Debug for Pimc<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pimc").field("config", &self.config).finish_non_exhaustive()
    }
}

/// One world's evaluation: its weight and the value of each legal action.
type WorldValues = (f64, Vec<f64>);

/// The seed of world `k` of a decision whose generator drew `base`.
pub fn world_seed(base: u64, k: u64) -> u64 {
    base ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Fixed-point (2^-64) sums over worlds: weighted values, weights, plain values and the count
/// (the plain means are used when every world weighs 0).
struct Sums {
    weighted: Vec<i128>,
    plain: Vec<i128>,
    weight: i128,
    worlds: u64,
}

const FIX: f64 = 18_446_744_073_709_551_616.0; // 2^64

impl Sums {
    fn new(n: usize) -> Sums {
        Sums { weighted: vec![0; n], plain: vec![0; n], weight: 0, worlds: 0 }
    }

    fn add(&mut self, w: f64, values: &[f64]) {
        let w = if w.is_finite() { w.clamp(0.0, 1.0) } else { 0.0 };
        self.weight += (w * FIX).round() as i128;
        for (i, &v) in values.iter().enumerate() {
            let v = if v.is_finite() { v } else { 0.0 };
            self.weighted[i] += (w * v * FIX).round() as i128;
            self.plain[i] += (v * FIX).round() as i128;
        }
        self.worlds += 1;
    }

    fn merge(&mut self, other: &Sums) {
        self.weight += other.weight;
        self.worlds += other.worlds;
        for (a, b) in self.weighted.iter_mut().zip(&other.weighted) {
            *a += b;
        }
        for (a, b) in self.plain.iter_mut().zip(&other.plain) {
            *a += b;
        }
    }

    fn means(&self) -> Vec<f64> {
        if self.weight > 0 {
            let w = self.weight as f64;
            self.weighted.iter().map(|&s| s as f64 / w).collect()
        } else {
            let n = self.worlds.max(1) as f64;
            self.plain.iter().map(|&s| s as f64 / FIX / n).collect()
        }
    }
}

impl<S: PimcGame> Pimc<S>
where
    Greedy: Bot<S>,
{
    /// A bot with these settings (an error names a bad one).
    pub fn new(config: PimcConfig) -> Result<Pimc<S>> {
        Ok(Pimc { config: config.checked()?, cancel: Arc::new(AtomicBool::new(false)), search: None })
    }

    /// [`BeforePlay::Ismcts`]'s search when it makes this decision (one before the play).
    fn search_for(&mut self, state: &S) -> Result<Option<&mut Ismcts<S>>> {
        if self.config.before_play != BeforePlay::Ismcts || state.solvable() || state.current_player() < 0 {
            return Ok(None);
        }
        if self.search.is_none() {
            let config = IsmctsConfig {
                iterations: ISMCTS_ITERATIONS,
                time_limit: self.config.time_limit,
                ..IsmctsConfig::default()
            };
            self.search = Some(Box::new(Ismcts::new(config)?));
        }
        Ok(self.search.as_deref_mut())
    }

    /// The settings.
    pub fn config(&self) -> &PimcConfig {
        &self.config
    }

    /// The flag that stops a decision in progress (checked before each world; the decision then
    /// fails with an error). Clear it before the next decision.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// The legal actions, each one's weighted mean value over the worlds on the objective's
    /// scale, and the key the best is chosen by (the same values, or for a split decision its
    /// points: [`exact_points`]).
    fn values(&self, state: &S, rng: &mut Rng) -> Result<(Vec<u16>, Vec<f64>, Vec<f64>)> {
        let p = decision_player(state, "pimc")?;
        let legal = state.legal_actions().to_vec();
        let exact = match self.config.before_play {
            BeforePlay::Worlds => None,
            _ => exact_points(state, &legal)?,
        };
        let split = exact.is_some();
        let n = self.config.worlds as u64;
        let base = rng.next_u64();
        let deadline = self.config.time_limit.map(|t| Instant::now() + t);
        let threads = (self.config.threads as u64).min(n);
        let weight = if split && self.config.before_play == BeforePlay::Exact { 0.0 } else { 1.0 };
        // Sums in fixed point (2^-64): integer addition is associative, so the result does not
        // depend on which thread added which world. The caller's interrupt flag (Ctrl-C in an
        // arena or simulate) goes along to every thread and is checked before each world.
        let flag = interrupt::current();
        let run = |k0: u64| -> Result<Sums> {
            let job = Worlds { state, player: p, legal: &legal, base, step: threads, deadline, split };
            interrupt::with_opt(flag.as_ref(), || self.run_worlds(&job, k0))
        };
        let sums = if weight == 0.0 {
            Sums::new(legal.len())
        } else if threads == 1 {
            run(0)?
        } else {
            let parts: Vec<Result<Sums>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|t| scope.spawn(move || run(t))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|_| Err(Error::InvalidValue("pimc: a thread panicked".into()))))
                    .collect()
            });
            let mut all = Sums::new(legal.len());
            for part in parts {
                all.merge(&part?);
            }
            all
        };
        let means = sums.means();
        Ok(match exact {
            None => (legal, means.clone(), means),
            Some(exact) => {
                let points: Vec<f64> = exact.iter().zip(&means).map(|(e, m)| e + weight * m).collect();
                let objective = self.config.objective;
                let values = points.iter().map(|&x| state.points_on_scale(p, x, objective)).collect();
                (legal, values, points)
            }
        })
    }

    /// The worlds `k0, k0 + job.step, …` below `worlds` (one thread's share), summed.
    fn run_worlds(&self, job: &Worlds<'_, S>, k0: u64) -> Result<Sums> {
        let Worlds { state, player: p, legal, base, step, deadline, split } = *job;
        let n = self.config.worlds as u64;
        let mut greedy = Greedy::new();
        let mut sums = Sums::new(legal.len());
        let mut k = k0;
        while k < n {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(Error::InvalidValue("pimc: the decision was cancelled".into()));
            }
            interrupt::check()?;
            if k > k0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let (w, values) = self.world(state, p, legal, world_seed(base, k), split, &mut greedy)?;
            sums.add(w, &values);
            k += step;
        }
        Ok(sums)
    }

    /// World `seed`: its weight and the value of each action of `legal` for `p` (`split`: only
    /// the sampled rest of a split decision, [`PimcGame::rest_points`]).
    fn world(
        &self,
        state: &S,
        p: usize,
        legal: &[u16],
        seed: u64,
        split: bool,
        greedy: &mut Greedy,
    ) -> Result<WorldValues> {
        let objective = self.config.objective;
        let mut rng = Rng::new(seed);
        let world = state.resample_from_infostate(p, &mut rng)?;
        let chance_seed = rng.next_u64();
        let weight = if self.config.inference { state.world_weight(&world, p)? } else { 1.0 };
        if world.solvable() {
            let solver = world.solver_objective(objective);
            let action_values = world.solve_values(solver)?;
            // The play's points: the solver's pending points (a rubicon dealer's declarations at
            // the first lead, the same for every action) are left out, as before they were solved.
            let pending = if solver == Objective::Points { world.pending_points() } else { 0.0 };
            let values = legal
                .iter()
                .map(|a| action_values.iter().find(|x| x.0 == *a).map_or(0.0, |x| x.1 - pending))
                .map(|v| if solver == objective { v } else { state.points_on_scale(p, v, objective) })
                .collect();
            return Ok((weight, values));
        }
        let mut memo: Vec<(usize, String, u16)> = Vec::new();
        let mut values = Vec::with_capacity(legal.len());
        for &a in legal {
            values.push(self.advance_value(&world, p, a, Line { chance_seed, split }, greedy, &mut memo)?);
        }
        Ok((weight, values))
    }

    /// The value for `p` of action `a` in `world` before the play (module docs, step 2).
    fn advance_value(
        &self,
        world: &S,
        p: usize,
        a: u16,
        line: Line,
        greedy: &mut Greedy,
        memo: &mut Vec<(usize, String, u16)>,
    ) -> Result<f64> {
        // A split decision's rest is in points (nothing on the way: the exact part has it).
        let Line { chance_seed, split } = line;
        let objective = if split { Objective::Points } else { self.config.objective };
        let mut t = *world;
        t.apply_legal(a);
        let mut rng = Rng::new(chance_seed);
        loop {
            if t.is_terminal() || t.deals() != world.deals() {
                return Ok(t.outcome_value(world, p, objective));
            }
            if let Some(c) = t.sample_chance(&mut rng) {
                t.apply_legal(c);
                continue;
            }
            if t.solvable() {
                return if split { t.rest_points(p) } else { t.preplay_value(world, p, objective) };
            }
            let q = t.current_player() as usize;
            let info = t.information_state_string(q)?;
            let b = match memo.iter().find(|m| m.0 == q && m.1 == info) {
                Some(m) => m.2,
                None => {
                    let b = greedy.step(&t, &mut rng)?;
                    memo.push((q, info, b));
                    b
                }
            };
            t.apply_legal(b);
        }
    }
}

impl<S: PimcGame> Bot<S> for Pimc<S>
where
    Greedy: Bot<S>,
{
    fn step(&mut self, state: &S, rng: &mut Rng) -> Result<u16> {
        if let Some(search) = self.search_for(state)? {
            return search.step(state, rng);
        }
        let (legal, _, key) = self.values(state, rng)?;
        let mut best = 0;
        for i in 1..legal.len() {
            if key[i] > key[best] {
                best = i;
            }
        }
        Ok(legal[best])
    }

    /// The weighted mean over the worlds of each legal action's value for the player to move, on
    /// the objective's scale (`Win`: the chance to win, 0..1; `Points`: the point difference).
    fn action_values(&mut self, state: &S, rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        if let Some(search) = self.search_for(state)? {
            return search.action_values(state, rng);
        }
        let (legal, values, _) = self.values(state, rng)?;
        Ok(legal.into_iter().zip(values).collect())
    }

    fn restart(&mut self) {
        if let Some(search) = self.search.as_mut() {
            search.restart();
        }
    }

    fn name(&self) -> String {
        format!("pimc:{}", self.config.worlds)
    }
}

/// How a world's line before the play is followed: the chance draws' seed (the same for every
/// action) and whether only a split decision's rest is valued.
#[derive(Clone, Copy)]
struct Line {
    chance_seed: u64,
    split: bool,
}

/// One decision's worlds, as each thread sees them.
struct Worlds<'a, S> {
    state: &'a S,
    player: usize,
    legal: &'a [u16],
    /// The seed every world's seed derives from.
    base: u64,
    /// Worlds per thread step (the thread count).
    step: u64,
    deadline: Option<Instant>,
    /// A split decision: the worlds value only the sampled rest.
    split: bool,
}

impl<S> Clone for Worlds<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Worlds<'_, S> {}

#[cfg(test)]
mod tests;
