//! Cribbage's hooks of the PIMC bot ([`PimcGame`]): the outcome values on the win table, the
//! pre-play value with the show averaged over the starters, the split discard, and inference.
//!
//! **Inference** (two players): once the opponent has discarded, a world is weighted by the
//! probability of the opponent's discard in it under a softmax over his discard values
//! `exp(β·v) / Σ exp(β·v')` with `β` = [`INFERENCE_BETA`] per point, where a discard's value is the
//! equilibrium discard tables' criterion ([`discard_tables`](cribbage::discard_tables): the exact expected hand over the
//! unseen starters plus, for the dealer, or minus, for the pone, the tables' expected crib of the
//! thrown kind). The tables (the cheaper `thrown-only` model, [`tables`]) are made once per
//! process and variant at the first use, and kept once per build in the user's cache directory
//! ([`cribbage::tables_cache`]): the first decision of a build computes them (about 0.2 s of CPU
//! time five-card and 1.4 s six-card, over two threads; `benches/pimc_first_decision.py`), every
//! later process reads them back in a few milliseconds. Ctrl-C stops the computation like any
//! other part of a decision (nothing is kept; the next decision computes them again). The values
//! are the iteration's to the bit: a cached file is used only if it is whole and checked. Three- and
//! four-player cribbage is not weighted (every world weighs 1).

use super::Greedy;
use crate::bots::pimc::{gains, generic_preplay_value, PimcGame};
use crate::bots::winprob::{multi_side_values, WinTable};
use crate::cribbage::{self, score_show_unchecked, throw_kind, DiscardTables, Hand, Variant};
use crate::engine::{Game, GameState, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::solve::{Objective, Solve};

/// The softmax sharpness of the discard model of inference, per point of discard value.
pub const INFERENCE_BETA: f64 = 2.0;

/// Within a quarter of the target (30 points of 121, 15 of 61), cribbage's pre-play value solves
/// the play with the world's own starter and the objective asked ([`PimcGame::preplay_value`]).
pub const NEAR_END_FRACTION: u64 = 4;

impl PimcGame for cribbage::State {
    type OneStep = Greedy;

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
pub fn near_end(state: &cribbage::State) -> bool {
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
