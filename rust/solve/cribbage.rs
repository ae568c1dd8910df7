//! The exact pegging solver for cribbage (see [`super`]): every variant, from any state in phase
//! `"play"` with a player to move, to the end of the deal.
//!
//! # What is searched
//!
//! Suits matter for nothing in the play (only the show, which is fixed once the hands are), so a
//! position is kept by ranks: each player's unplayed cards as a sorted list of ranks, the count,
//! the *tail* of the current sequence that can still take part in a pair or a run (the trailing
//! cards of distinct ranks, most recent first — at most 7, since 8 distinct ranks pass 31 — and
//! how many trailing cards share the last rank), who said go, whose turn it is and who laid the
//! last card (he takes the go point, the player after him leads next). The moves are the distinct
//! ranks the mover can lay (a forced go is the only move when none fits); a card's points are the
//! engine's rule (fifteen, 31, pairs, runs), the go point and the turn order are replicated
//! exactly from the engine, and the tests check the solver against a plain minimax over the
//! engine itself.
//!
//! The show ends the deal: each hand from the dealer's left, the dealer's, then the crib (the
//! engine's order), with the show values computed once from the kept cards and the starter.
//!
//! # Values ([`Objective`])
//!
//! * **Points**: the mover's side's points from now to the end of the deal (pegging and show)
//!   minus the other side's; the target is ignored.
//! * **Win**: the game ends when a side reaches the target, in the play or in the show (in show
//!   order); otherwise the deal's end is valued by the IS-MCTS table,
//!   [`WinTable`], the chance the side dealing next wins from the
//!   two scores. The value is the mover's side's chance to win, 0..1.
//!
//! Two sides (the two-player games and the four-player partnership) are solved by alpha-beta
//! (side 0 maximises, side 1 minimises) with a transposition table of bounds. **Three players**
//! are solved by max-n: every player maximises his own criterion — with `Points`, his points from
//! that position to the end of the deal minus the most any other player makes there; with `Win`,
//! his own chance to win, where a deal's end without a winner is valued by the softmax of
//! [`multi_side_values`](crate::eval::winprob::multi_side_values) — and ties go to the lowest
//! rank. The value of a three-player position is the mover's criterion.
//!
//! The table is a fixed array of 8,192 entries per thread, allocated once and invalidated by a
//! generation stamp: a solve allocates only its [`Solution`].

use std::cell::RefCell;
use std::sync::Arc;

use super::{Objective, Solution, Solve};
use crate::cribbage::{score_show_unchecked, Phase, State, Variant, GO};
use crate::engine::{Game, GameState};
use crate::error::{Error, Result};
use crate::eval::winprob::WinTable;

/// The go move (ranks are 0..13).
const GO_MOVE: u8 = 13;
/// No move (an empty table slot's best move).
const NO_MOVE: u8 = 15;
/// A hand with no cards: every nibble is the empty marker 0xF.
const EMPTY_HAND: u32 = 0xFFFF;

/// Pips of a rank (A = 1 .. 10, J Q K = 10).
#[inline(always)]
fn pips(rank: u32) -> u8 {
    if rank < 9 {
        rank as u8 + 1
    } else {
        10
    }
}

/// A play position by ranks (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    /// 16 bits a player: the unplayed ranks ascending, one nibble each, padded with 0xF.
    hands: u64,
    /// The tail of distinct ranks of the current sequence, the most recent in the low nibble.
    tail: u32,
    tlen: u8,
    /// Trailing cards of the last rank laid (0 for an empty sequence).
    same: u8,
    count: u8,
    passed: u8,
    turn: u8,
    /// The player who laid the last card of the sequence (0 while it is empty).
    last: u8,
    /// Points pegged by each side since the root.
    pegged: [u8; 3],
}

impl Pos {
    #[inline(always)]
    fn hand(&self, p: usize) -> u32 {
        (self.hands >> (16 * p)) as u32 & 0xFFFF
    }

    #[inline(always)]
    fn set_hand(&mut self, p: usize, h: u32) {
        self.hands = (self.hands & !(0xFFFFu64 << (16 * p))) | ((h as u64) << (16 * p));
    }

    /// The mover's move set: the distinct ranks that fit, ascending, or only go.
    #[inline]
    fn moves(&self, out: &mut [u8; 4]) -> usize {
        let h = self.hand(self.turn as usize);
        let room = 31 - self.count;
        let mut n = 0;
        let mut prev = 16u32;
        for i in 0..4 {
            let r = (h >> (4 * i)) & 15;
            if r == 15 || pips(r) > room {
                break; // sorted: nothing later fits either
            }
            if r != prev {
                out[n] = r as u8;
                n += 1;
                prev = r;
            }
        }
        if n == 0 {
            out[0] = GO_MOVE;
            n = 1;
        }
        n
    }

    /// Append rank `r` to the sequence's tail (no scoring): the new distinct tail and same count.
    #[inline(always)]
    fn push_tail(&mut self, r: u32) {
        let same = if self.tlen > 0 && self.tail & 15 == r { self.same + 1 } else { 1 };
        // The old tail up to (not including) an earlier `r`.
        let mut keep = self.tlen as u32;
        for i in 0..self.tlen as u32 {
            if (self.tail >> (4 * i)) & 15 == r {
                keep = i;
                break;
            }
        }
        let old = if keep == 0 { 0 } else { self.tail & ((1u32 << (4 * keep)) - 1) };
        self.tail = (old << 4) | r;
        self.tlen = keep as u8 + 1;
        self.same = same;
    }

    /// The points for laying rank `r` now (the engine's rule: fifteen, 31, pairs, runs).
    #[inline(always)]
    fn peg(&self, r: u32, count: u8) -> u8 {
        let same = if self.tlen > 0 && self.tail & 15 == r { self.same as u32 + 1 } else { 1 };
        let mut points = if count == 15 || count == 31 { 2 } else { 0 };
        points += same * (same - 1);
        let mut seen = 1u32 << r;
        let mut best = 0;
        let mut k = 1;
        let mut t = self.tail;
        for _ in 0..self.tlen {
            let x = t & 15;
            if seen >> x & 1 == 1 {
                break;
            }
            seen |= 1 << x;
            k += 1;
            t >>= 4;
            if k >= 3 {
                let s = seen >> seen.trailing_zeros();
                if s & (s + 1) == 0 {
                    best = k;
                }
            }
        }
        (points + best) as u8
    }
}

/// What a move led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The play goes on.
    Continue,
    /// The play is over (the show follows).
    EndOfPlay,
    /// This side reached the target (objective `Win` only).
    Won(u8),
}

/// Everything fixed for one solve.
struct Ctx {
    n: usize,
    sides: usize,
    side: [u8; 4],
    five: bool,
    win: bool,
    dealer: usize,
    /// Each player's shown hand (kept cards + starter).
    show: [u8; 4],
    /// The crib's show.
    crib: u8,
    /// The show's points per side.
    show_side: [u8; 3],
    /// The scores at the root.
    base: [u16; 3],
    target: u16,
    table: Option<Arc<WinTable>>,
}

impl Ctx {
    #[inline(always)]
    fn next(&self, q: usize) -> usize {
        if q + 1 >= self.n {
            0
        } else {
            q + 1
        }
    }

    /// Peg `points` for `side`; `true` if that wins (objective `Win`).
    #[inline(always)]
    fn award(&self, pos: &mut Pos, side: usize, points: u8) -> bool {
        pos.pegged[side] += points;
        self.win && points > 0 && self.base[side] + pos.pegged[side] as u16 >= self.target
    }

    /// Apply a move of the player to move (a rank, or [`GO_MOVE`]), as the engine does.
    #[inline]
    fn apply(&self, pos: &mut Pos, mv: u8) -> Event {
        let p = pos.turn as usize;
        if mv == GO_MOVE {
            pos.passed |= 1 << p;
            return self.advance(pos, p);
        }
        let r = mv as u32;
        // Remove the first nibble equal to r.
        let h = pos.hand(p);
        let mut i = 0;
        while (h >> (4 * i)) & 15 != r {
            i += 1;
        }
        let low = h & ((1u32 << (4 * i)) - 1);
        let high = h >> (4 * i + 4);
        pos.set_hand(p, (low | (high << (4 * i)) | 0xF000) & 0xFFFF);
        let count = pos.count + pips(r);
        let points = pos.peg(r, count);
        pos.count = count;
        pos.push_tail(r);
        pos.last = p as u8;
        if self.award(pos, self.side[p] as usize, points) {
            return Event::Won(self.side[p]);
        }
        if count == 31 {
            self.end_sequence(pos, false)
        } else {
            self.advance(pos, p)
        }
    }

    /// The next player after `from` (ending with `from`) with cards who has not said go moves;
    /// else the sequence ends with a go point.
    #[inline]
    fn advance(&self, pos: &mut Pos, from: usize) -> Event {
        let mut q = from;
        for _ in 0..self.n {
            q = self.next(q);
            if pos.hand(q) != EMPTY_HAND && pos.passed >> q & 1 == 0 {
                pos.turn = q as u8;
                return Event::Continue;
            }
        }
        self.end_sequence(pos, true)
    }

    #[inline]
    fn end_sequence(&self, pos: &mut Pos, go_point: bool) -> Event {
        let last = pos.last as usize;
        if go_point && self.award(pos, self.side[last] as usize, 1) {
            return Event::Won(self.side[last]);
        }
        let empty = (0..self.n).all(|q| pos.hand(q) == EMPTY_HAND);
        if self.five || empty {
            return Event::EndOfPlay;
        }
        pos.count = 0;
        pos.passed = 0;
        pos.tail = 0;
        pos.tlen = 0;
        pos.same = 0;
        pos.last = 0;
        let mut q = last;
        for _ in 0..self.n {
            q = self.next(q);
            if pos.hand(q) != EMPTY_HAND {
                pos.turn = q as u8;
                break;
            }
        }
        Event::Continue
    }

    /// The scores after the show from `pos` (the play over), and the side that reached the target
    /// in show order, if any (objective `Win`).
    fn show(&self, pos: &Pos) -> ([u16; 3], Option<usize>) {
        let mut sc = [0u16; 3];
        for (s, x) in sc.iter_mut().enumerate().take(self.sides) {
            *x = self.base[s] + pos.pegged[s] as u16;
        }
        let mut p = self.dealer;
        for _ in 0..self.n {
            p = self.next(p);
            let s = self.side[p] as usize;
            sc[s] += self.show[p] as u16;
            if self.show[p] > 0 && sc[s] >= self.target {
                return (sc, Some(s));
            }
        }
        let s = self.side[self.dealer] as usize;
        sc[s] += self.crib as u16;
        if self.crib > 0 && sc[s] >= self.target {
            return (sc, Some(s));
        }
        (sc, None)
    }

    /// Two sides: the value for side 0 of the end of the play (relative to `pos` for `Points`).
    fn leaf2(&self, pos: &Pos) -> f64 {
        if !self.win {
            return self.show_side[0] as f64 - self.show_side[1] as f64;
        }
        match self.show(pos) {
            (_, Some(s)) => (s == 0) as u8 as f64,
            (sc, None) => {
                let d = self.side[self.next(self.dealer)] as usize;
                let table = self.table.as_ref().expect("a win table for two sides");
                let v = table.dealer_wins(sc[d] as u64, sc[1 - d] as u64);
                if d == 0 {
                    v
                } else {
                    1.0 - v
                }
            }
        }
    }

    /// Three sides: the value vector of the end of the play (relative to `pos` for `Points`).
    fn leaf3(&self, pos: &Pos) -> [f64; 3] {
        if !self.win {
            return self.show_side.map(|x| x as f64);
        }
        match self.show(pos) {
            (_, Some(s)) => won_vector(s),
            (sc, None) => softmax_values(sc, self.target),
        }
    }

    /// A side's difference, side 0 minus side 1, of what was pegged (two sides).
    #[inline(always)]
    fn diff(pos: &Pos) -> f64 {
        pos.pegged[0] as f64 - pos.pegged[1] as f64
    }
}

fn won_vector(side: usize) -> [f64; 3] {
    let mut v = [0.0; 3];
    v[side] = 1.0;
    v
}

/// [`multi_side_values`](crate::eval::winprob::multi_side_values) of three side scores: a softmax
/// with `β = 4 / (target − max + 20)`.
fn softmax_values(sc: [u16; 3], target: u16) -> [f64; 3] {
    let top = sc.iter().copied().max().unwrap_or(0) as f64;
    let beta = 4.0 / ((target as f64 - top).max(0.0) + 20.0);
    let w = sc.map(|s| (beta * (s as f64 - top)).exp());
    let sum: f64 = w.iter().sum();
    w.map(|x| x / sum)
}

/// The three-player criterion of `side` for a value vector (module docs).
#[inline]
fn criterion(v: &[f64; 3], side: usize, win: bool) -> f64 {
    if win {
        return v[side];
    }
    let mut other = f64::NEG_INFINITY;
    for (s, &x) in v.iter().enumerate() {
        if s != side && x > other {
            other = x;
        }
    }
    v[side] - other
}

// ------------------------------------------------------------------------- the table

const TT_BITS: u32 = 13;
const TT_SIZE: usize = 1 << TT_BITS;
const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

#[derive(Clone, Copy, Default)]
struct Entry {
    hands: u64,
    misc: u64,
    extra: u32,
    gen: u16,
    flag: u8,
    best: u8,
    val: [f64; 3],
}

struct Table {
    entries: Box<[Entry]>,
    gen: u16,
}

impl Table {
    fn new() -> Table {
        Table { entries: vec![Entry::default(); TT_SIZE].into_boxed_slice(), gen: 0 }
    }

    /// A new search: every entry becomes stale.
    fn next_gen(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.entries.fill(Entry::default());
            self.gen = 1;
        }
    }
}

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// One solve's search: the context, the table, the node count.
struct Search<'a> {
    ctx: &'a Ctx,
    tt: &'a mut Table,
    nodes: u64,
}

impl Search<'_> {
    #[inline(always)]
    fn key(&self, pos: &Pos) -> (u64, u64, u32, usize) {
        let misc = pos.tail as u64
            | (pos.tlen as u64) << 28
            | (pos.same as u64) << 31
            | (pos.count as u64) << 34
            | (pos.passed as u64) << 40
            | (pos.turn as u64) << 44
            | (pos.last as u64) << 46;
        let extra = if self.ctx.win {
            pos.pegged[0] as u32 | (pos.pegged[1] as u32) << 8 | (pos.pegged[2] as u32) << 16
        } else {
            0
        };
        let h = (pos.hands ^ misc.rotate_left(21) ^ (extra as u64).rotate_left(43)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (pos.hands, misc, extra, (h >> (64 - TT_BITS)) as usize)
    }

    #[inline(always)]
    fn probe(&self, k: &(u64, u64, u32, usize)) -> Option<Entry> {
        let e = self.tt.entries[k.3];
        (e.gen == self.tt.gen && e.hands == k.0 && e.misc == k.1 && e.extra == k.2).then_some(e)
    }

    #[inline(always)]
    fn store(&mut self, k: &(u64, u64, u32, usize), flag: u8, best: u8, val: [f64; 3]) {
        self.tt.entries[k.3] = Entry { hands: k.0, misc: k.1, extra: k.2, gen: self.tt.gen, flag, best, val };
    }

    /// The child of `pos` by `mv` and its value for side 0 relative to `pos` when it is a leaf
    /// (`None`: the play goes on), plus the step's own part of the value (`Points`: what was
    /// pegged, side 0 minus side 1; `Win`: 0).
    #[inline]
    fn child2(&self, pos: &Pos, mv: u8) -> (Pos, Option<f64>, f64) {
        let mut c = *pos;
        let ev = self.ctx.apply(&mut c, mv);
        let d = if self.ctx.win { 0.0 } else { Ctx::diff(&c) - Ctx::diff(pos) };
        let leaf = match ev {
            Event::Continue => None,
            Event::EndOfPlay => Some(self.ctx.leaf2(&c)),
            Event::Won(s) => Some((s == 0) as u8 as f64),
        };
        (c, leaf, d)
    }

    /// The exact value of the child of `pos` by `mv`, for side 0, relative to `pos`.
    fn child_value2(&mut self, pos: &Pos, mv: u8) -> f64 {
        let (c, leaf, d) = self.child2(pos, mv);
        d + leaf.unwrap_or_else(|| self.ab(&c, f64::NEG_INFINITY, f64::INFINITY))
    }

    /// Fail-soft alpha-beta for two sides: the value for side 0 relative to `pos` (`Points`: the
    /// points still to come, side 0 minus side 1; `Win`: side 0's chance).
    fn ab(&mut self, pos: &Pos, alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        let key = self.key(pos);
        let mut first = NO_MOVE;
        if let Some(e) = self.probe(&key) {
            let v = e.val[0];
            match e.flag {
                EXACT => return v,
                LOWER if v >= beta => return v,
                UPPER if v <= alpha => return v,
                _ => {}
            }
            first = e.best;
        }
        let maximise = self.ctx.side[pos.turn as usize] == 0;
        let mut mv = [0u8; 4];
        let n = pos.moves(&mut mv);
        // Children first (ordering: the table's best move, then the mover's immediate gain).
        let mut kids: [(Pos, Option<f64>, f64, u8, f64); 4] = [(*pos, None, 0.0, 0, 0.0); 4];
        for i in 0..n {
            let (c, leaf, d) = self.child2(pos, mv[i]);
            let gain = (Ctx::diff(&c) - Ctx::diff(pos)) * if maximise { 1.0 } else { -1.0 };
            let order = if mv[i] == first { 1e9 } else { gain };
            kids[i] = (c, leaf, d, mv[i], order);
        }
        if n > 1 {
            // Insertion sort, stable (ascending rank among equal gains).
            for i in 1..n {
                let mut j = i;
                while j > 0 && kids[j].4 > kids[j - 1].4 {
                    kids.swap(j, j - 1);
                    j -= 1;
                }
            }
        }
        let (mut a, mut b) = (alpha, beta);
        let mut best = if maximise { f64::NEG_INFINITY } else { f64::INFINITY };
        let mut best_mv = NO_MOVE;
        for &(c, leaf, d, m, _) in &kids[..n] {
            let v = d + match leaf {
                Some(x) => x,
                None => self.ab(&c, a - d, b - d),
            };
            if maximise {
                if v > best {
                    best = v;
                    best_mv = m;
                }
                if best > a {
                    a = best;
                }
            } else {
                if v < best {
                    best = v;
                    best_mv = m;
                }
                if best < b {
                    b = best;
                }
            }
            if a >= b {
                break;
            }
        }
        let flag = if best <= alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.store(&key, flag, best_mv, [best, 0.0, 0.0]);
        best
    }

    /// The child of `pos` by `mv` and its value vector relative to `pos` (three sides).
    fn child_value3(&mut self, pos: &Pos, mv: u8) -> [f64; 3] {
        let mut c = *pos;
        let ev = self.ctx.apply(&mut c, mv);
        let mut v = match ev {
            Event::Continue => self.maxn(&c),
            Event::EndOfPlay => self.ctx.leaf3(&c),
            Event::Won(s) => won_vector(s as usize),
        };
        if !self.ctx.win {
            for (s, x) in v.iter_mut().enumerate() {
                *x += (c.pegged[s] - pos.pegged[s]) as f64;
            }
        }
        v
    }

    /// Max-n for three sides: the value vector relative to `pos`, and the move chosen.
    fn maxn_move(&mut self, pos: &Pos) -> ([f64; 3], u8) {
        let side = self.ctx.side[pos.turn as usize] as usize;
        let mut mv = [0u8; 4];
        let n = pos.moves(&mut mv);
        let mut best = [0.0; 3];
        let mut best_c = f64::NEG_INFINITY;
        let mut best_mv = NO_MOVE;
        for &m in &mv[..n] {
            let v = self.child_value3(pos, m);
            let c = criterion(&v, side, self.ctx.win);
            if c > best_c {
                best_c = c;
                best = v;
                best_mv = m;
            }
        }
        (best, best_mv)
    }

    fn maxn(&mut self, pos: &Pos) -> [f64; 3] {
        self.nodes += 1;
        let key = self.key(pos);
        if let Some(e) = self.probe(&key) {
            return e.val;
        }
        let (v, m) = self.maxn_move(pos);
        self.store(&key, EXACT, m, v);
        v
    }
}

/// The rank position of `state` (which must be in the play with a player to move) and the fixed
/// context of a solve.
fn root(state: &State, objective: Objective) -> Result<(Ctx, Pos)> {
    if state.phase() != Phase::Play || state.current_player() < 0 {
        let what = if state.is_chance_node() {
            " (a chance node)"
        } else if state.is_terminal() {
            " (the game is over)"
        } else {
            ""
        };
        return Err(Error::InvalidValue(format!(
            "solve needs a cribbage state in the play phase with a player to move, not the {} phase{what}",
            state.phase_name()
        )));
    }
    let game = state.game();
    let n = state.num_players();
    let sides = game.num_sides();
    let mut side = [0u8; 4];
    for (p, s) in side.iter_mut().enumerate().take(n) {
        *s = state.side_of(p) as u8;
    }
    let dealer = state.dealer().expect("a dealer in the play");
    let starter = state.starter().expect("a starter in the play");
    let mut show = [0u8; 4];
    let mut show_side = [0u8; 3];
    for p in 0..n {
        show[p] = score_show_unchecked(state.kept(p), starter, false);
        show_side[side[p] as usize] += show[p];
    }
    let crib = score_show_unchecked(state.crib(), starter, true);
    show_side[side[dealer] as usize] += crib;
    let mut base = [0u16; 3];
    for (s, b) in base.iter_mut().enumerate().take(sides) {
        *b = state.side_score(s) as u16;
    }
    let win = objective == Objective::Win;
    let table = (win && sides == 2).then(|| WinTable::of(game));
    let ctx = Ctx {
        n,
        sides,
        side,
        five: state.variant() == Variant::FiveCard,
        win,
        dealer,
        show,
        crib,
        show_side,
        base,
        target: game.target(),
        table,
    };
    let mut pos = Pos {
        hands: 0,
        tail: 0,
        tlen: 0,
        same: 0,
        count: state.count(),
        passed: 0,
        turn: state.current_player() as u8,
        last: 0,
        pegged: [0; 3],
    };
    for p in 0..4 {
        let mut ranks = [15u32; 4];
        if p < n {
            for (slot, c) in ranks.iter_mut().zip(state.hand(p).iter()) {
                *slot = c.rank() as u32;
            }
        }
        ranks.sort_unstable();
        let h = ranks.iter().enumerate().fold(0, |h, (i, &r)| h | r << (4 * i));
        pos.set_hand(p, h);
        if p < n && state.has_passed(p) {
            pos.passed |= 1 << p;
        }
    }
    for card in state.current_sequence() {
        pos.push_tail(card.rank() as u32);
    }
    if !state.current_sequence().is_empty() {
        pos.last = state.plays().last().map_or(0, |(p, _)| p as u8);
    }
    Ok((ctx, pos))
}

/// The rank of an action (a card id) or [`GO_MOVE`].
fn move_of(action: u16) -> u8 {
    if action == GO {
        GO_MOVE
    } else {
        (action % 13) as u8
    }
}

/// The lowest card id of rank `mv` in the hand of the player to move, or [`GO`].
fn action_of(state: &State, mv: u8) -> u16 {
    if mv == GO_MOVE {
        return GO;
    }
    let p = state.current_player() as usize;
    state.hand(p).iter().filter(|c| c.rank() == mv).map(|c| c.id() as u16).min().expect("the rank is in the hand")
}

impl Solve for State {
    /// The exact solution of the rest of the play (module docs of
    /// [`crate::solve::cribbage`]).
    ///
    /// ```
    /// use cribpiquet::cribbage::{GameConfig, Phase, Variant};
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::rng::Rng;
    /// use cribpiquet::solve::{Objective, Solve};
    ///
    /// let mut s = GameConfig::new(Variant::SixCard, None).unwrap().new_initial_state();
    /// let mut rng = Rng::new(5);
    /// while s.phase() != Phase::Play {
    ///     s.apply_sampled_chances(&mut rng);
    ///     if s.phase() == Phase::Discard {
    ///         s.apply_action(s.legal_actions()[0]).unwrap();
    ///     }
    /// }
    /// let sol = s.solve(Objective::Points).unwrap();
    /// assert_eq!(sol.action_values.len(), s.legal_actions().len());
    /// assert!(sol.best_actions.iter().all(|a| sol.action_values.contains(&(*a, sol.value))));
    /// ```
    fn solve(&self, objective: Objective) -> Result<Solution> {
        with_search(self, objective, |pos, search| solve_with(self, pos, search))
    }

    /// The action values alone: no principal variation.
    fn solve_values(&self, objective: Objective) -> Result<Vec<(u16, f64)>> {
        with_search(self, objective, |pos, search| {
            let values = move_values(search, pos);
            per_action(self, &values)
        })
    }
}

/// Run `f` on the root position of `state` with this thread's table.
fn with_search<T>(state: &State, objective: Objective, f: impl FnOnce(&Pos, &mut Search<'_>) -> T) -> Result<T> {
    let (ctx, pos) = root(state, objective)?;
    TABLE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let tt = slot.get_or_insert_with(Table::new);
        tt.next_gen();
        let mut search = Search { ctx: &ctx, tt, nodes: 1 };
        Ok(f(&pos, &mut search))
    })
}

/// The value of each legal action of `state` from the values of its moves.
fn per_action(state: &State, values: &[(u8, f64)]) -> Vec<(u16, f64)> {
    state
        .legal_actions()
        .iter()
        .map(|&a| {
            let m = move_of(a);
            (a, values.iter().find(|x| x.0 == m).expect("every legal action is a move").1)
        })
        .collect()
}

/// The value of each move at `pos` for the mover (two sides: `Points` relative, `Win` his chance;
/// three sides: his criterion), with the vectors for three sides.
fn move_values(search: &mut Search<'_>, pos: &Pos) -> Vec<(u8, f64)> {
    let ctx = search.ctx;
    let side = ctx.side[pos.turn as usize] as usize;
    let mut mv = [0u8; 4];
    let n = pos.moves(&mut mv);
    mv[..n]
        .iter()
        .map(|&m| {
            let v = if ctx.sides == 2 {
                let v0 = search.child_value2(pos, m);
                match (side, ctx.win) {
                    (0, _) => v0,
                    (_, false) => -v0,
                    (_, true) => 1.0 - v0,
                }
            } else {
                criterion(&search.child_value3(pos, m), side, ctx.win)
            };
            (m, v)
        })
        .collect()
}

/// The next float above `x` (finite `x`).
fn up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The next float below `x` (finite `x`).
fn down(x: f64) -> f64 {
    -up(-x)
}

/// Two sides: the lowest rank reaching the value of `pos` (what [`move_values`] would pick),
/// found with null-window probes in ascending rank order.
fn pv_move2(search: &mut Search<'_>, pos: &Pos) -> u8 {
    let v = search.ab(pos, f64::NEG_INFINITY, f64::INFINITY);
    let maximise = search.ctx.side[pos.turn as usize] == 0;
    let mut mv = [0u8; 4];
    let n = pos.moves(&mut mv);
    for &m in &mv[..n - 1] {
        let (c, leaf, d) = search.child2(pos, m);
        let best = match leaf {
            Some(x) => d + x == v,
            None => {
                let t = v - d;
                if maximise {
                    search.ab(&c, down(t), t) >= t
                } else {
                    search.ab(&c, t, up(t)) <= t
                }
            }
        };
        if best {
            return m;
        }
    }
    mv[n - 1]
}

fn solve_with(state: &State, pos: &Pos, search: &mut Search<'_>) -> Solution {
    let values = move_values(search, pos);
    let action_values = per_action(state, &values);
    let value = values.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let best_actions = action_values.iter().filter(|x| x.1 == value).map(|x| x.0).collect();
    // The principal variation: at each position the lowest rank of the best value (the move
    // max-n makes with three sides), as the lowest card id of that rank, played on the engine.
    let mut pv = Vec::new();
    let mut s = *state;
    let mut here = *pos;
    let mut first = true;
    loop {
        let m = if first || search.ctx.sides != 2 {
            let vals = if first { values.clone() } else { move_values(search, &here) };
            let top = vals.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
            vals.iter().find(|x| x.1 == top).expect("a move").0
        } else {
            pv_move2(search, &here)
        };
        first = false;
        let action = action_of(&s, m);
        pv.push(action);
        s.apply_legal(action);
        let ev = search.ctx.apply(&mut here, m);
        if ev != Event::Continue || s.phase() != Phase::Play || s.deals() != state.deals() {
            break;
        }
        debug_assert_eq!(s.current_player(), here.turn as i32);
    }
    Solution { value, action_values, best_actions, principal_variation: pv, nodes: search.nodes }
}

#[cfg(test)]
mod tests;
