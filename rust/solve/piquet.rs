//! The double-dummy solver for piquet (see [`super`]): the exact value of the remaining tricks
//! of a deal with both hands known, for any [`Rules`] and both scopes.
//!
//! **What is counted** (rules §4, §5): every play point from the position to the end of the
//! deal's play — leads, tricks, the last trick's extra, leza / the cards, capot and open capot
//! (as announced), and the pique while elder can still make it — each scored by the same play
//! tally the engine runs (`rust/piquet/play.rs`), so the values are the engine's to the point.
//! [`Objective::Points`]: the mover's points minus the opponent's from now to the end of the
//! deal: the play points, and under the rubicon timing, at the first lead, the dealer's
//! declarations (and his repique), which the engine credits after elder's first lead
//! ([`pending_points`]: the same whatever is played, so they move every action's value alike).
//! The principal variation played out on the engine scores the value exactly.
//!
//! [`Objective::Win`] (*decision*, a monotone mapping of the points value): in the deal that
//! ends a match, the match's result through its arithmetic ([`Partiya`], [`Partie`], as the
//! engine scores it): 1 if the mover wins the match, 0.5 for a drawn one, 0 if he loses;
//! otherwise (deal scope, and the earlier deals of a match) the deal won: 1 if the mover ends
//! the deal with the higher deal total (declarations, pending ones included, plus play), 0.5 for
//! equal totals, 0 for the lower. Either is a non-decreasing function of the points value (the
//! tests check it), and a monotone map commutes with the minimax, so these are exact win values
//! and the points principal variation is optimal for them.
//!
//! **The search**: negamax alpha-beta over single cards (the player to move changes with the
//! trick winner), fail-soft, with
//! * a transposition table at the trick boundaries keyed on the cards left with **relative
//!   ranks** (in each suit the remaining cards are renumbered from the ace down, so cards made
//!   equivalent by the play of everything between them are merged), the leader, the tricks won
//!   and what elder still needs for the pique; entries keep a lower and an upper bound;
//! * equivalent cards pruned: of a player's cards adjacent in a suit among the cards still out
//!   (the card on the table included), only the highest is searched (the others get its value);
//! * move ordering: the table's move, then winners (masters when leading, the cheapest winner
//!   when following), then low cards;
//! * a quick lower bound for the leader from the tricks he surely takes (his masters cashed from
//!   the top, a whole suit once the opponent is out of it), the rest given to the opponent.
//!
//! Root values are exact per action (a full-window search per distinct action, the table
//! shared); the principal variation is read by null-window tests down the line.
//!
//! ```
//! use cribpiquet::engine::{Game, GameState};
//! use cribpiquet::piquet::{GameConfig, Phase, Rules, Scope};
//! use cribpiquet::rng::Rng;
//! use cribpiquet::solve::{Objective, Solve};
//!
//! let mut state = GameConfig::new(Rules::russian(), Scope::Deal).unwrap().new_initial_state();
//! let mut rng = Rng::new(5);
//! while state.phase() != Phase::Play {
//!     state.apply_sampled_chances(&mut rng);
//!     if state.phase() != Phase::Play {
//!         let first = state.legal_actions()[0];
//!         state.apply_action(first).unwrap();
//!     }
//! }
//! for _ in 0..12 {
//!     let first = state.legal_actions()[0]; // six tricks played at random
//!     state.apply_action(first).unwrap();
//! }
//! let sol = state.solve(Objective::Points).unwrap();
//! assert!(sol.best_actions.contains(&sol.principal_variation[0]));
//! assert_eq!(sol.principal_variation.len(), 12);
//! ```

use std::cell::RefCell;

use super::{Objective, Solution, Solve};
use crate::engine::GameState;
use crate::error::{Error, Result};
use crate::piquet::play::{PlayPoints, PlaySink, PlayTally, TrickEnd};
use crate::piquet::{
    suit_mask, DeclarationTiming, MatchScoring, Partie, Partiya, Phase, Role, Rules, Scope, State, TrickScoring,
    LEZA_BONUS, PIQUE_BONUS, PIQUE_THRESHOLD, REPIQUE_BONUS, SUIT_LANE,
};

const NONE: u8 = 0xFF;
const INF: i32 = 1 << 20;

/// The search position: both hands, the trick in progress and the play tally.
#[derive(Clone, Copy, Debug)]
struct Pos {
    /// Unplayed cards, by seat.
    hands: [u32; 2],
    /// The seat to play.
    mover: u8,
    /// The seat that led the current trick.
    leader: u8,
    /// The card led to the current trick ([`NONE`] at a lead).
    lead: u8,
    /// The current trick, 0..=11 (12: the play is over).
    trick: u8,
    /// Tricks won this deal, by seat.
    won: [u8; 2],
    /// The pique state (the engine's own tally).
    tally: PlayTally,
    /// Elder's deal total (the pique threshold is on it).
    elder_total: u16,
}

/// Play points by role as the tally awards them, and elder's running total.
struct Sink {
    elder_total: u16,
    points: [i32; 2],
}

impl PlaySink for Sink {
    #[inline(always)]
    fn total(&self, role: Role) -> u16 {
        if role == Role::Elder {
            self.elder_total
        } else {
            0
        }
    }

    #[inline(always)]
    fn score(&mut self, p: PlayPoints) {
        self.points[p.role.index()] += p.points as i32;
        if p.role == Role::Elder {
            self.elder_total = self.elder_total.saturating_add(p.points);
        }
    }
}

/// One transposition-table slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// Normalized hands: seat 0's relative cards (low 32 bits), all cards out (high 32).
    cards: u64,
    /// Leader, seat 0's tricks and the pique need, with the table generation.
    aux: u32,
    gen: u32,
    lower: i16,
    upper: i16,
    /// The best card found, relative (`suit * 8 + relative rank`), or [`NONE`].
    best: u8,
}

const TT_BITS: u32 = 18;

thread_local! {
    /// The table, reused across solves of one thread (a new generation empties it).
    static TABLE: RefCell<(Vec<Entry>, u32)> = const { RefCell::new((Vec::new(), 0)) };
}

/// `COMPRESS[r][a]`: the bits of `a` at the positions of `r`'s bits, packed to the top of a
/// `popcount(r)`-bit field placed at the top of the byte (the relative ranks of `a` among `r`).
fn compress_table() -> &'static [[u8; 256]; 256] {
    use std::sync::OnceLock;
    static T: OnceLock<Box<[[u8; 256]; 256]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0u8; 256]; 256]);
        for r in 0..256usize {
            let n = (r as u32).count_ones();
            for a in 0..256usize {
                let mut out = 0u32;
                let mut i = 0;
                for b in 0..8 {
                    if r >> b & 1 == 1 {
                        out |= ((a >> b & 1) as u32) << i;
                        i += 1;
                    }
                }
                t[r][a] = (out << (8 - n)) as u8;
            }
        }
        t
    })
}

/// The searcher of one solve: the constants of the deal, the table and the node count.
struct Searcher<'t> {
    rules: Rules,
    elder: u8,
    /// Open capot announced, by seat.
    announced: [bool; 2],
    table: &'t mut [Entry],
    gen: u32,
    nodes: u64,
    compress: &'static [[u8; 256]; 256],
}

/// The cards of `mask` strictly above `card` in its suit.
#[inline(always)]
fn above_in_suit(card: u32) -> u32 {
    suit_mask(card) & !(2u32 << card).wrapping_sub(1)
}

impl Searcher<'_> {
    #[inline(always)]
    fn role(&self, seat: u8) -> Role {
        if seat == self.elder {
            Role::Elder
        } else {
            Role::Dealer
        }
    }

    /// Play `card` for the mover: the new position and the points it scores, by seat.
    #[inline]
    fn play(&self, pos: &Pos, card: u32) -> (Pos, [i32; 2]) {
        let mut p = *pos;
        let t = p.mover as usize;
        p.hands[t] &= !(1 << card);
        let mut sink = Sink { elder_total: p.elder_total, points: [0; 2] };
        if p.lead == NONE {
            p.tally.lead(&self.rules, p.trick, self.role(p.mover), &mut sink);
            p.lead = card as u8;
            p.leader = p.mover;
            p.mover ^= 1;
        } else {
            let lead = p.lead as u32;
            let winner = if suit_mask(lead) >> card & 1 == 1 && card > lead { p.mover } else { p.leader };
            p.won[winner as usize] += 1;
            let e = self.elder as usize;
            let won = [p.won[e], p.won[e ^ 1]];
            let end = TrickEnd {
                trick: p.trick,
                leader: self.role(p.leader),
                winner: self.role(winner),
                won,
                winner_announced: self.announced[winner as usize],
            };
            p.tally.trick(&self.rules, end, &mut sink);
            p.trick += 1;
            p.mover = winner;
            p.leader = winner;
            p.lead = NONE;
        }
        p.elder_total = sink.elder_total;
        let by_seat = if self.elder == 0 { sink.points } else { [sink.points[1], sink.points[0]] };
        (p, by_seat)
    }

    /// Representatives of the mover's playable cards: of cards adjacent in a suit among the
    /// cards out (the card on the table included) only the highest.
    #[inline]
    fn moves(&self, pos: &Pos) -> u32 {
        let own = pos.hands[pos.mover as usize];
        let playable = if pos.lead == NONE {
            own
        } else {
            let same = own & suit_mask(pos.lead as u32);
            if same != 0 {
                same
            } else {
                own
            }
        };
        let out = pos.hands[0] | pos.hands[1] | if pos.lead == NONE { 0 } else { 1u32 << pos.lead };
        // A card is dropped when the next card out above it in its suit is also ours.
        let mut reps = 0;
        let mut m = playable;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let higher = out & above_in_suit(c);
            let next = higher & higher.wrapping_neg();
            if next & playable == 0 || next == 0 {
                reps |= 1 << c;
            }
        }
        reps
    }

    /// The table key of a lead position: (cards, aux).
    #[inline]
    fn key(&self, pos: &Pos) -> (u64, u32) {
        let all = pos.hands[0] | pos.hands[1];
        let mut norm0 = 0u32;
        let mut norm_all = 0u32;
        for s in 0..4 {
            let r = (all >> (8 * s)) as u8 as usize;
            let a = (pos.hands[0] >> (8 * s)) as u8 as usize;
            norm0 |= (self.compress[r][a] as u32) << (8 * s);
            norm_all |= (self.compress[r][r] as u32) << (8 * s);
        }
        let need = self.need(pos);
        let aux = pos.leader as u32 | (pos.won[0] as u32) << 1 | (need as u32) << 5;
        (norm0 as u64 | (norm_all as u64) << 32, aux)
    }

    /// What elder still needs for the pique (0..=30), 31 if it cannot be made any more.
    #[inline(always)]
    fn need(&self, pos: &Pos) -> u16 {
        if pos.tally.pique_possible {
            PIQUE_THRESHOLD.saturating_sub(pos.elder_total).min(30)
        } else {
            31
        }
    }

    /// The card of `pos`'s cards whose relative id (in the normalization of [`key`]) is `rel`.
    fn denormalize(&self, pos: &Pos, rel: u8) -> Option<u32> {
        let s = (rel >> 3) as u32;
        let r = (pos.hands[0] | pos.hands[1]) >> (8 * s) & SUIT_LANE;
        // Relative rank 7 is the highest card out, 6 the next, …
        let mut i = 7 - (rel & 7) as u32;
        let mut m = r;
        while m != 0 {
            let top = 31 - m.leading_zeros();
            if i == 0 {
                return Some(top + 8 * s);
            }
            i -= 1;
            m &= !(1 << top);
        }
        None
    }

    /// The relative id of `card` among the cards out of `pos`.
    fn normalize(&self, pos: &Pos, card: u32) -> u8 {
        let s = card >> 3;
        let r = (pos.hands[0] | pos.hands[1]) >> (8 * s) & SUIT_LANE;
        let higher = (r >> (card & 7)) >> 1;
        (8 * s + 7 - higher.count_ones()) as u8
    }

    /// Tricks the leader surely takes: per suit, his cards above all the opponent's, and the whole
    /// suit when the opponent has no more than that many.
    #[inline]
    fn sure_tricks(&self, pos: &Pos) -> u32 {
        let (mine, theirs) = (pos.hands[pos.mover as usize], pos.hands[pos.mover as usize ^ 1]);
        let mut sure = 0;
        for s in 0..4 {
            let a = (mine >> (8 * s)) & SUIT_LANE;
            let b = (theirs >> (8 * s)) & SUIT_LANE;
            if a == 0 {
                continue;
            }
            if b == 0 {
                sure += a.count_ones();
                continue;
            }
            let top_b = 31 - b.leading_zeros();
            let masters = (a >> (top_b + 1)).count_ones();
            sure += if b.count_ones() <= masters { a.count_ones() } else { masters };
        }
        sure
    }

    /// A lower bound on the leader's value at a lead: he cashes his sure tricks, then the
    /// opponent wins and leads every other trick and makes every bonus he still can.
    fn lower_bound(&self, pos: &Pos) -> i32 {
        let n = 12 - pos.trick as i32;
        let t = (self.sure_tricks(pos) as i32).min(n);
        let me = pos.mover as usize;
        let rules = &self.rules;
        let russian_tricks = rules.trick_scoring == TrickScoring::EveryLeadAndTrick;
        let extra = rules.last_trick_extra as i32;
        let capot = |seat: usize| match rules.open_capot_bonus {
            Some(b) if self.announced[seat] => b as i32,
            _ => rules.capot_bonus as i32,
        };
        let (mut mine, mut theirs);
        if t == n {
            // Every trick is his: exact.
            mine = n * if russian_tricks { 2 } else { 1 };
            theirs = 0;
            let all = pos.won[me] as i32 + n == 12;
            if all {
                if rules.capot_keeps_last_trick_extra {
                    mine += extra;
                }
            } else {
                mine += extra;
            }
            let plain = mine;
            if all {
                mine += capot(me);
            } else if pos.won[me] as i32 + n > 6 {
                mine += LEZA_BONUS as i32;
            } else if pos.won[me ^ 1] > 6 {
                theirs += LEZA_BONUS as i32;
            }
            if pos.mover == self.elder
                && pos.tally.pique_possible
                && pos.elder_total as i32 + plain >= PIQUE_THRESHOLD as i32
            {
                mine += PIQUE_BONUS as i32;
            }
            return mine - theirs;
        }
        // His t tricks, then he leads the next one and loses every trick after.
        mine = t * if russian_tricks { 2 } else { 1 } + 1;
        let rest = n - t;
        theirs = if russian_tricks { 2 * rest - 1 } else { rest } + extra;
        let plain = mine;
        let (mine_final, theirs_final) = (pos.won[me] as i32 + t, pos.won[me ^ 1] as i32 + rest);
        if theirs_final == 12 {
            theirs += capot(me ^ 1);
        } else if theirs_final > 6 {
            theirs += LEZA_BONUS as i32;
        } else if mine_final > 6 {
            mine += LEZA_BONUS as i32;
        }
        if pos.tally.pique_possible {
            if pos.mover == self.elder {
                if pos.elder_total as i32 + plain >= PIQUE_THRESHOLD as i32 {
                    mine += PIQUE_BONUS as i32;
                }
            } else if !rules.pique_blocked_by_play {
                theirs += PIQUE_BONUS as i32;
            }
        }
        mine - theirs
    }

    /// Cards of `moves` in search order (the table's card first), at most 12.
    #[inline]
    fn order(&self, pos: &Pos, moves: u32, tt_move: Option<u32>, out: &mut [u8; 12]) -> usize {
        let mut n = 0;
        let mut rest = moves;
        if let Some(c) = tt_move {
            if rest >> c & 1 == 1 {
                out[n] = c as u8;
                n += 1;
                rest &= !(1 << c);
            }
        }
        let theirs = pos.hands[pos.mover as usize ^ 1];
        let (first, second) = if pos.lead == NONE {
            // Masters (nothing of theirs above in the suit) first, high to low; then low cards.
            let mut masters = 0;
            let mut m = rest;
            while m != 0 {
                let c = m.trailing_zeros();
                m &= m - 1;
                if theirs & above_in_suit(c) == 0 {
                    masters |= 1 << c;
                }
            }
            (masters, rest & !masters)
        } else {
            let lead = pos.lead as u32;
            let winners = rest & above_in_suit(lead);
            (winners, rest & !winners)
        };
        // Winners when following: cheapest first; masters when leading: highest first.
        let mut m = first;
        if pos.lead == NONE {
            while m != 0 {
                let c = 31 - m.leading_zeros();
                m &= !(1 << c);
                out[n] = c as u8;
                n += 1;
            }
        } else {
            while m != 0 {
                let c = m.trailing_zeros();
                m &= m - 1;
                out[n] = c as u8;
                n += 1;
            }
        }
        let mut m = second;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            out[n] = c as u8;
            n += 1;
        }
        n
    }

    /// The value of the rest of the play for the mover of `pos` (fail-soft alpha-beta).
    fn search(&mut self, pos: &Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if pos.trick >= 12 {
            return 0;
        }
        let at_lead = pos.lead == NONE;
        let mut slot = usize::MAX;
        let mut key = (0u64, 0u32);
        let mut tt_move = None;
        let (alpha0, beta0) = (alpha, beta);
        if at_lead {
            key = self.key(pos);
            let h = (key.0 ^ (key.1 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            slot = (h >> (64 - TT_BITS)) as usize;
            let e = self.table[slot];
            if e.gen == self.gen && e.cards == key.0 && e.aux == key.1 {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                if e.best != NONE {
                    tt_move = self.denormalize(pos, e.best);
                }
            }
            let lb = self.lower_bound(pos);
            if lb >= beta {
                return lb;
            }
        }
        let moves = self.moves(pos);
        let mut order = [0u8; 12];
        let n = self.order(pos, moves, tt_move, &mut order);
        let mut best = -INF;
        let mut best_card = NONE as u32;
        for &c in &order[..n] {
            let v = self.child_value(pos, c as u32, alpha, beta);
            if v > best {
                best = v;
                best_card = c as u32;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if at_lead && slot != usize::MAX {
            let mut e = self.table[slot];
            if !(e.gen == self.gen && e.cards == key.0 && e.aux == key.1) {
                e = Entry { cards: key.0, aux: key.1, gen: self.gen, lower: -i16::MAX, upper: i16::MAX, best: NONE };
            }
            if best <= alpha0 {
                e.upper = e.upper.min(best as i16);
            } else if best >= beta0 {
                e.lower = e.lower.max(best as i16);
                e.best = self.normalize(pos, best_card);
            } else {
                e.lower = best as i16;
                e.upper = best as i16;
                e.best = self.normalize(pos, best_card);
            }
            self.table[slot] = e;
        }
        best
    }

    /// The mover's value of playing `card` at `pos`, searched in the window (alpha, beta).
    #[inline]
    fn child_value(&mut self, pos: &Pos, card: u32, alpha: i32, beta: i32) -> i32 {
        let (child, pts) = self.play(pos, card);
        let me = pos.mover as usize;
        let r = pts[me] - pts[me ^ 1];
        if child.trick >= 12 {
            r
        } else if child.mover == pos.mover {
            r + self.search(&child, alpha - r, beta - r)
        } else {
            r - self.search(&child, r - beta, r - alpha)
        }
    }
}

/// The search position of a state in phase play, with the deal's constants.
fn position(state: &State) -> Result<(Pos, u8, [bool; 2])> {
    let mover = state.current_player();
    if state.phase() != Phase::Play || mover < 0 {
        return Err(Error::InvalidValue(format!(
            "the piquet solver needs a state in phase play with a player to move, not phase {}",
            state.phase_name()
        )));
    }
    let elder = state.elder().unwrap_or(0) as u8;
    let dealer = elder as usize ^ 1;
    let plays: Vec<(usize, u8)> = state.plays().collect();
    let (leader, lead) = if plays.len() % 2 == 1 {
        let (seat, card) = plays[plays.len() - 1];
        (seat as u8, card)
    } else {
        (mover as u8, NONE)
    };
    let rules = *state.config().rules();
    let decl = state.declarations().unwrap_or([[0; 4]; 2]);
    let totals = state.deal_scores();
    // The tally's pique flag (rules §4): no repique, nothing declared by the dealer, no pique
    // yet, and (rubicon) no play point of the dealer.
    let pique_possible = state.repique().is_none()
        && decl[dealer].iter().all(|&x| x == 0)
        && !state.pique()
        && !(rules.pique_blocked_by_play && totals[dealer] > 0);
    let won = state.tricks_won();
    let pos = Pos {
        hands: [state.hand(0).mask(), state.hand(1).mask()],
        mover: mover as u8,
        leader,
        lead,
        trick: won[0] + won[1],
        won,
        tally: PlayTally::new(pique_possible, None, None),
        elder_total: totals[elder as usize],
    };
    let announced = [state.open_capot() == Some(0), state.open_capot() == Some(1)];
    Ok((pos, elder, announced))
}

/// Points credited after the first lead (the rubicon dealer's declarations), by seat: part of
/// the deal's totals, not of the play.
fn pending(state: &State) -> [i32; 2] {
    let mut t = [0; 2];
    let config = state.config();
    if config.rules().declaration_timing == DeclarationTiming::DealerAfterFirstLead && state.plays().next().is_none() {
        if let (Some(d), Some(decl)) = (state.dealer(), state.declarations()) {
            let rep = if state.repique() == Some(d) { REPIQUE_BONUS as i32 } else { 0 };
            t[d] += decl[d].iter().map(|&x| x as i32).sum::<i32>() + rep;
        }
    }
    t
}

/// The points a state in the play will credit before the end of its deal whatever is played, for
/// the player to move minus the opponent: under the rubicon timing, at the first lead, the
/// dealer's declarations and repique (credited after elder's lead); 0 otherwise (and for a state
/// not in the play). [`Objective::Points`]'s values include them.
///
/// ```
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::piquet::{GameConfig, Phase, Rules, Scope};
/// use cribpiquet::rng::Rng;
/// use cribpiquet::solve::piquet::pending_points;
///
/// let mut state = GameConfig::new(Rules::russian(), Scope::Deal).unwrap().new_initial_state();
/// let mut rng = Rng::new(5);
/// while state.phase() != Phase::Play {
///     state.apply_sampled_chances(&mut rng);
///     if state.phase() != Phase::Play {
///         let first = state.legal_actions()[0];
///         state.apply_action(first).unwrap();
///     }
/// }
/// assert_eq!(pending_points(&state), 0); // russian: every declaration before the first lead
/// ```
pub fn pending_points(state: &State) -> i32 {
    let mover = state.current_player();
    if state.phase() != Phase::Play || mover < 0 {
        return 0;
    }
    let t = pending(state);
    let me = mover as usize;
    t[me] - t[me ^ 1]
}

/// The win value of a finished deal for `mover` (module docs): `lead` is his deal total minus
/// the opponent's at the end of the deal, `match_lead` the same for the match totals (rubicon).
fn win_value(state: &State, mover: usize, lead: i32, match_lead: i32) -> f64 {
    let by_sign = |x: i32| {
        if x > 0 {
            1.0
        } else if x == 0 {
            0.5
        } else {
            0.0
        }
    };
    let config = state.config();
    if config.scope() == Scope::Deal {
        return by_sign(lead);
    }
    let rules = config.rules();
    // Seat 0's lead, as the match arithmetic is written by seat.
    let seat0 = |x: i32| if mover == 0 { x } else { -x };
    let over = match rules.match_scoring {
        MatchScoring::Partiya => (|| {
            let mut p = Partiya::new(rules).ok()?;
            for g in state.games() {
                p.add_game(g[0] as u64, g[1] as u64).ok()?;
            }
            let d = seat0(lead);
            p.add_game(d.max(0) as u64, (-d).max(0) as u64).ok()?;
            p.is_over().then(|| p.result().net_win.map(|r| r.seat))
        })(),
        MatchScoring::Partie => (|| {
            let d = seat0(match_lead) as i64;
            const BASE: i64 = 1 << 20;
            let totals = [(BASE + d.max(0)) as u64, (BASE + (-d).max(0)) as u64];
            let p = Partie::from_totals(rules, totals, state.games_played() as usize + 1).ok()?;
            p.is_over().then(|| p.result().map(|r| r.winner))
        })(),
    };
    match over {
        Some(Some(w)) => (w == mover) as u8 as f64,
        Some(None) => 0.5,
        None => by_sign(lead),
    }
}

/// May the deal of `state` end its match (deal scope; the last deal of a partiya; a partie's deal
/// at or past its length)? In a match's other deals [`Objective::Win`] is the deal won, blind to
/// the margin the match counts: a player maximising it gives points away in a deal it cannot
/// win (the PIMC bot solves those deals for points instead).
pub fn deal_may_end_match(state: &State) -> bool {
    let config = state.config();
    if config.scope() == Scope::Deal {
        return true;
    }
    let rules = config.rules();
    match rules.match_scoring {
        MatchScoring::Partiya => (|| {
            let mut p = Partiya::new(rules).ok()?;
            for g in state.games() {
                p.add_game(g[0] as u64, g[1] as u64).ok()?;
            }
            p.add_game(1, 0).ok()?;
            Some(p.is_over())
        })()
        .unwrap_or(true),
        MatchScoring::Partie => state.games_played() as usize + 1 >= rules.deals_per_partie as usize,
    }
}

impl Solve for State {
    /// The exact value of the rest of the deal's play (module docs); refuses any state not in
    /// phase play with a player to move.
    fn solve(&self, objective: Objective) -> Result<Solution> {
        let (root, elder, announced) = position(self)?;
        TABLE.with(|cell| {
            let mut guard = cell.borrow_mut();
            let (table, gen) = &mut *guard;
            if table.is_empty() {
                *table = vec![Entry::default(); 1 << TT_BITS];
            }
            *gen = gen.wrapping_add(1);
            if *gen == 0 {
                table.iter_mut().for_each(|e| *e = Entry::default());
                *gen = 1;
            }
            let mut s = Searcher {
                rules: *self.config().rules(),
                elder,
                announced,
                table,
                gen: *gen,
                nodes: 0,
                compress: compress_table(),
            };
            Ok(solve_points(&mut s, &root, self, objective))
        })
    }

    fn pending_points(&self) -> f64 {
        pending_points(self) as f64
    }
}

fn solve_points(s: &mut Searcher, root: &Pos, state: &State, objective: Objective) -> Solution {
    let legal = state.legal_actions();
    let reps = s.moves(root);
    let out = root.hands[0] | root.hands[1] | if root.lead == NONE { 0 } else { 1u32 << root.lead };
    // Each legal card's representative: the highest card of its run of own cards.
    let rep_of = |c: u32| -> u32 {
        let mut c = c;
        while reps >> c & 1 == 0 {
            let higher = out & above_in_suit(c);
            c = higher.trailing_zeros();
        }
        c
    };
    let mut rep_values: [Option<i32>; 32] = [None; 32];
    let mut values: Vec<(u16, i32)> = Vec::with_capacity(legal.len());
    for &a in legal.iter() {
        let r = rep_of(a as u32) as usize;
        let v = match rep_values[r] {
            Some(v) => v,
            None => {
                let v = s.child_value(root, r as u32, -INF, INF);
                rep_values[r] = Some(v);
                v
            }
        };
        values.push((a, v));
    }
    let value = values.iter().map(|v| v.1).max().unwrap_or(0);
    // The principal variation: at each node the first card (in ascending order) whose value
    // reaches the node's value, by null-window tests; the root's from the exact values.
    let mut pv = Vec::with_capacity(24);
    let first = values.iter().find(|v| v.1 == value).map(|v| v.0 as u32).unwrap_or(0);
    let (mut pos, pts) = s.play(root, first);
    pv.push(first as u16);
    let me = root.mover as usize;
    let mut target =
        if pos.mover == root.mover { value - (pts[me] - pts[me ^ 1]) } else { -(value - (pts[me] - pts[me ^ 1])) };
    while pos.trick < 12 {
        let legal_here = legal_cards(&pos);
        let mut chosen = None;
        let mut m = legal_here;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            if s.child_value(&pos, c, target - 1, target) >= target {
                chosen = Some(c);
                break;
            }
        }
        let c = chosen.unwrap_or(legal_here.trailing_zeros());
        let (next, pts) = s.play(&pos, c);
        let m = pos.mover as usize;
        let rest = target - (pts[m] - pts[m ^ 1]);
        target = if next.mover == pos.mover { rest } else { -rest };
        pv.push(c as u16);
        pos = next;
    }
    let extra = pending(state);
    let (deal, scores) = (state.deal_scores(), state.seat_scores());
    let deal_lead = deal[me] as i32 + extra[me] - deal[me ^ 1] as i32 - extra[me ^ 1];
    let match_lead = scores[me] as i32 + extra[me] - scores[me ^ 1] as i32 - extra[me ^ 1];
    let pending_lead = extra[me] - extra[me ^ 1];
    let map = |v: i32| -> f64 {
        match objective {
            Objective::Points => (v + pending_lead) as f64,
            Objective::Win => win_value(state, me, deal_lead + v, match_lead + v),
        }
    };
    let action_values: Vec<(u16, f64)> = values.iter().map(|&(a, v)| (a, map(v))).collect();
    let best = map(value);
    let best_actions = action_values.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
    Solution { value: best, action_values, best_actions, principal_variation: pv, nodes: s.nodes }
}

/// The cards the mover of `pos` may play.
fn legal_cards(pos: &Pos) -> u32 {
    let own = pos.hands[pos.mover as usize];
    if pos.lead == NONE {
        return own;
    }
    let same = own & suit_mask(pos.lead as u32);
    if same != 0 {
        same
    } else {
        own
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, GameState};
    use crate::piquet::{GameConfig, PointSource, Scope};
    use crate::rng::Rng;

    /// The four games: both rule sets, both scopes.
    fn games() -> Vec<GameConfig> {
        let mut out = Vec::new();
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                out.push(GameConfig::new(rules, scope).unwrap());
            }
        }
        out
    }

    /// A random state of `game` in phase play after `plays` cards of a deal (random exchanges
    /// and announcements, random cards): the first deal, or in a match sometimes the second.
    fn random_play_state(game: GameConfig, plays: usize, rng: &mut Rng) -> State {
        let mut s = game.new_initial_state();
        // In a match, one time in three a later deal: the first one played at random.
        if game.scope() == Scope::Partiya && rng.below(3) == 0 {
            while s.deals() < 2 {
                if s.is_chance_node() {
                    s.apply_sampled_chances(rng);
                } else {
                    let legal = s.legal_actions();
                    s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
                }
            }
        }
        while s.phase() != Phase::Play {
            if s.is_chance_node() {
                s.apply_sampled_chances(rng);
            } else {
                let legal = s.legal_actions();
                s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
            }
        }
        for _ in 0..plays {
            let legal = s.legal_actions();
            s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
        }
        assert_eq!(s.phase(), Phase::Play);
        s
    }

    /// Play points per seat so far (every source but the declarations and the repique).
    fn play_points(s: &State) -> [i32; 2] {
        let src = s.points_by_source();
        let play =
            [PointSource::Play, PointSource::LastTrick, PointSource::Pique, PointSource::Leza, PointSource::Capot];
        [0, 1].map(|p| play.iter().map(|&k| src[p][k as usize] as i32).sum())
    }

    /// Plain minimax on the engine (no table, no pruning): the mover's play points minus the
    /// opponent's to the end of the deal.
    fn minimax(s: &State) -> i32 {
        s.legal_actions().iter().map(|&a| minimax_action(s, a)).max().unwrap()
    }

    fn minimax_action(s: &State, a: u16) -> i32 {
        let me = s.current_player() as usize;
        let before = play_points(s);
        let mut c = *s;
        c.apply_legal(a);
        let after = play_points(&c);
        let r = (after[me] - before[me]) - (after[me ^ 1] - before[me ^ 1]);
        if c.phase() != Phase::Play {
            r
        } else if c.current_player() as usize == me {
            r + minimax(&c)
        } else {
            r - minimax(&c)
        }
    }

    /// Every point per seat so far, of every source (declarations too).
    fn all_points(s: &State) -> [i32; 2] {
        s.points_by_source().map(|p| p.iter().map(|&x| x as i32).sum())
    }

    /// The principal variation played on the engine: legal throughout, ends the deal's play, and
    /// scores the solver's value (every point the engine credits on the way: the play's, and at a
    /// rubicon first lead the dealer's declarations).
    fn check_pv(s: &State, sol: &Solution) {
        let me = s.current_player() as usize;
        let before = all_points(s);
        let mut c = *s;
        for &a in &sol.principal_variation {
            assert_eq!(c.phase(), Phase::Play, "{s:?}");
            c.apply_action(a).unwrap();
        }
        assert_ne!(c.phase(), Phase::Play, "the variation stops before the end: {s:?}");
        let after = all_points(&c);
        let v = (after[me] - before[me]) - (after[me ^ 1] - before[me ^ 1]);
        assert_eq!(v as f64, sol.value, "{s:?}");
    }

    /// The solver against plain minimax on hundreds of random positions deep in the play (at a
    /// lead and in mid-trick), every rule set and scope: the value, every action's value, the
    /// optimal set, and the principal variation played out on the engine.
    #[test]
    fn equals_plain_minimax_deep_in_the_play() {
        let mut rng = Rng::new(20);
        let per_game = if cfg!(debug_assertions) { 50 } else { 400 };
        let mut pique_live = 0;
        for game in games() {
            for i in 0..per_game {
                // 7 to 9 tricks played, then maybe the lead of the next.
                let plays = 14 + (i % 3) * 2 + (i / 3) % 2;
                let s = random_play_state(game, plays, &mut rng);
                let (root, _, _) = position(&s).unwrap();
                pique_live += (root.tally.pique_possible && root.elder_total < 30) as u32;
                let sol = s.solve(Objective::Points).unwrap();
                let expect: Vec<(u16, f64)> =
                    s.legal_actions().iter().map(|&a| (a, minimax_action(&s, a) as f64)).collect();
                assert_eq!(sol.action_values, expect, "{s:?}");
                let best = expect.iter().map(|v| v.1).fold(f64::MIN, f64::max);
                assert_eq!(sol.value, best);
                assert_eq!(sol.value, minimax(&s) as f64);
                let set: Vec<u16> = expect.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
                assert_eq!(sol.best_actions, set);
                assert!(sol.nodes > 0);
                check_pv(&s, &sol);
            }
        }
        assert!(pique_live > 0, "no position with a live pique");
    }

    /// The search in narrow windows (as inside alpha-beta and the variation's null-window
    /// tests), with one table shared by every call: fail-soft against plain minimax — a value
    /// at or below alpha bounds the truth from above, at or above beta from below, else equals it.
    #[test]
    fn narrow_windows_are_fail_soft_bounds() {
        let mut rng = Rng::new(24);
        let per_game = if cfg!(debug_assertions) { 40 } else { 300 };
        for game in games() {
            for i in 0..per_game {
                let s = random_play_state(game, 14 + (i % 6), &mut rng);
                let truth = minimax(&s);
                let (root, elder, announced) = position(&s).unwrap();
                let mut table = vec![Entry::default(); 1 << TT_BITS];
                let mut se = Searcher {
                    rules: *game.rules(),
                    elder,
                    announced,
                    table: &mut table,
                    gen: 1,
                    nodes: 0,
                    compress: compress_table(),
                };
                for _ in 0..8 {
                    let alpha = truth - 12 + rng.below(24) as i32;
                    let beta = alpha + 1 + rng.below(4) as i32 * rng.below(2) as i32;
                    let v = se.search(&root, alpha, beta);
                    let ok = if v <= alpha {
                        truth <= v
                    } else if v >= beta {
                        truth >= v
                    } else {
                        truth == v
                    };
                    assert!(ok, "window ({alpha}, {beta}): {v}, minimax {truth}: {s:?}");
                }
                assert_eq!(se.search(&root, -INF, INF), truth);
            }
        }
    }

    /// Six tricks left (six cards each), fewer positions: minimax is slow here.
    #[test]
    fn equals_plain_minimax_with_six_tricks_left() {
        let mut rng = Rng::new(21);
        let per_game = if cfg!(debug_assertions) { 1 } else { 20 };
        for game in games() {
            for i in 0..per_game {
                let s = random_play_state(game, 12 + i % 2, &mut rng);
                let sol = s.solve(Objective::Points).unwrap();
                let expect: Vec<(u16, f64)> =
                    s.legal_actions().iter().map(|&a| (a, minimax_action(&s, a) as f64)).collect();
                assert_eq!(sol.action_values, expect, "{s:?}");
                check_pv(&s, &sol);
            }
        }
    }

    /// From the first lead (and the first few tricks): the principal variation played on the
    /// engine scores the value (at a rubicon first lead with the dealer's declarations pending,
    /// them included); each root action's value is the value after it.
    #[test]
    fn first_lead_principal_variation_scores_the_value() {
        let mut rng = Rng::new(22);
        let per_game = if cfg!(debug_assertions) { 2 } else { 25 };
        let mut pending_seen = 0;
        for game in games() {
            for i in 0..per_game {
                let s = random_play_state(game, 2 * (i % 3), &mut rng);
                let sol = s.solve(Objective::Points).unwrap();
                check_pv(&s, &sol);
                let pending = pending_points(&s);
                if game.rules().declaration_timing != DeclarationTiming::DealerAfterFirstLead || s.plays().count() > 0 {
                    assert_eq!(pending, 0);
                }
                pending_seen += (pending != 0) as u32;
                // The value of an action = its points now + (±) the solved value after it.
                let me = s.current_player() as usize;
                for &(a, v) in sol.action_values.iter().take(3) {
                    let mut c = s;
                    c.apply_legal(a);
                    let (b, n) = (all_points(&s), all_points(&c));
                    let r = (n[me] - b[me]) - (n[me ^ 1] - b[me ^ 1]);
                    let after = c.solve(Objective::Points).unwrap().value as i32;
                    let expect = if c.current_player() as usize == me { r + after } else { r - after };
                    assert_eq!(v, expect as f64, "{s:?}");
                }
            }
        }
        assert!(pending_seen > 0, "no rubicon first lead with the dealer's declarations pending");
    }

    /// A state in the last deal of a random match of `game` (random play throughout), after
    /// `plays` cards of that deal.
    fn final_deal_state(game: GameConfig, plays: usize, rng: &mut Rng) -> State {
        let mut s = game.new_initial_state();
        let mut last = None;
        while !s.is_terminal() {
            if s.phase() == Phase::Play && s.plays().count() == plays {
                last = Some(s);
            }
            if s.is_chance_node() {
                s.apply_sampled_chances(rng);
            } else {
                let legal = s.legal_actions();
                s.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
            }
        }
        last.unwrap()
    }

    /// Win: in deal scope and the earlier deals of a match 1, 0.5 or 0 by the deal totals at the
    /// end; in the last deal of a match by the match's result as the engine scores it. The points
    /// line reaches it; the win values are the points values mapped.
    #[test]
    fn win_objective_maps_the_deal_or_match_result() {
        let mut rng = Rng::new(23);
        let mut finals = 0;
        for game in games() {
            for i in 0..24 {
                // Some from the first lead (the rubicon dealer's declarations still pending).
                let plays = if i % 7 == 0 { 0 } else { 14 + i % 6 };
                let s = if game.scope() == Scope::Partiya && i % 2 == 0 {
                    final_deal_state(game, plays, &mut rng)
                } else {
                    random_play_state(game, plays, &mut rng)
                };
                let me = s.current_player() as usize;
                let points = s.solve(Objective::Points).unwrap();
                let win = s.solve(Objective::Win).unwrap();
                assert_eq!(points.principal_variation, win.principal_variation);
                let mut c = s;
                for &a in &points.principal_variation {
                    c.apply_legal(a);
                }
                let expect = if game.scope() == Scope::Partiya && c.is_terminal() {
                    finals += 1;
                    match c.winner() {
                        Some(w) => (w == me) as u8 as f64,
                        None => 0.5,
                    }
                } else {
                    // The deal's end: the totals of the finished game.
                    let last = if game.scope() == Scope::Deal { c.deal_scores() } else { *c.games().last().unwrap() };
                    let d = last[me] as i32 - last[me ^ 1] as i32;
                    if d > 0 {
                        1.0
                    } else if d == 0 {
                        0.5
                    } else {
                        0.0
                    }
                };
                assert_eq!(win.value, expect, "{s:?}");
                for (&(a, p), &(b, w)) in points.action_values.iter().zip(&win.action_values) {
                    assert_eq!(a, b);
                    assert!(w <= win.value);
                    if p == points.value {
                        assert_eq!(w, win.value);
                    }
                }
                assert!(points.best_actions.iter().all(|a| win.best_actions.contains(a)));
            }
        }
        assert!(finals >= 20, "{finals} match-ending deals");
    }

    /// The win mapping is non-decreasing in the points value (so it commutes with the minimax),
    /// in the last deal of random matches of both rule sets and in earlier deals.
    #[test]
    fn win_mapping_is_monotone() {
        let mut rng = Rng::new(25);
        for game in games() {
            for i in 0..30 {
                let s = if i % 3 == 0 {
                    random_play_state(game, 14, &mut rng)
                } else {
                    final_deal_state(game, 2 * (i % 12), &mut rng)
                };
                let me = s.current_player() as usize;
                let m = rng.below(200) as i32 - 100;
                let mut prev = 0.0;
                for d in -250..=250 {
                    let w = win_value(&s, me, d, m + d);
                    assert!(w >= prev, "{d}: {w} after {prev}: {s:?}");
                    prev = w;
                }
                assert_eq!((win_value(&s, me, -250, m - 250), prev), (0.0, 1.0));
            }
        }
    }

    /// A russian deal at the first lead, nobody exchanging nor announcing: seat 0 draws 7C and
    /// deals, `elder` and `dealer` are dealt alternately, elder first.
    fn russian_first_lead(elder: &str, dealer: &str) -> State {
        let game = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
        let mut s = game.new_initial_state();
        let id = |t: &str| crate::piquet::string_to_action(t).unwrap();
        let (e, d): (Vec<u16>, Vec<u16>) = (elder.split(' ').map(id).collect(), dealer.split(' ').map(id).collect());
        s.apply_action(id("7C")).unwrap();
        s.apply_action(id("AC")).unwrap();
        for i in 0..12 {
            s.apply_action(e[i]).unwrap();
            s.apply_action(d[i]).unwrap();
        }
        for a in [crate::piquet::EXCHANGE_BASE, crate::piquet::EXCHANGE_BASE, crate::piquet::PASS, crate::piquet::PASS]
        {
            s.apply_action(a).unwrap();
        }
        assert_eq!((s.phase(), s.current_player(), s.elder()), (Phase::Play, 1, Some(1)));
        s
    }

    /// Hand-checked: elder holds eleven masters (hearts and spades) and the nine of diamonds, the
    /// dealer all the clubs and 7D 8D TD AD. Cashing the masters and leading the nine last: elder
    /// leads 12 and wins 11 tricks and the leza (33), the dealer takes the last trick (1 + 3):
    /// 29. The nine first: the dealer wins it and runs clubs and diamonds to the end — elder 1,
    /// the dealer 1 + 22 + the capot 40 (no last-trick extra): −62. Declarations: elder nothing,
    /// the dealer the point of eight and a huitième (26), so no pique: elder wins the deal 33 to
    /// 30 by the masters, loses 1 to 89 by the nine.
    #[test]
    fn hand_checked_leza_last_trick_and_capot() {
        let s = russian_first_lead("AH KH QH JH TH 9H AS KS QS JS TS 9D", "7C 8C 9C TC JC QC KC AC 7D 8D TD AD");
        assert_eq!(s.deal_scores(), [26, 0]);
        let sol = s.solve(Objective::Points).unwrap();
        let nine = s.string_to_action("9D").unwrap();
        assert_eq!(sol.value, 29.0);
        assert_eq!(sol.action_values.len(), 12);
        for &(a, v) in &sol.action_values {
            assert_eq!(v, if a == nine { -62.0 } else { 29.0 }, "{a}");
        }
        assert_eq!(sol.best_actions.len(), 11);
        assert!(!sol.best_actions.contains(&nine));
        check_pv(&s, &sol);
        assert_eq!(sol.principal_variation[22], nine); // the nine led last
        let win = s.solve(Objective::Win).unwrap();
        assert_eq!(win.value, 1.0);
        for &(a, v) in &win.action_values {
            assert_eq!(v, if a == nine { 0.0 } else { 1.0 });
        }
        // The dealer's view after the nine: either winner takes everything.
        let mut after = s;
        after.apply_action(nine).unwrap();
        let d = after.solve(Objective::Points).unwrap();
        assert_eq!(d.value, 63.0); // from now: elder's lead point is already scored
        let id = |t: &str| s.string_to_action(t).unwrap();
        assert_eq!(d.best_actions, vec![id("TD"), id("AD")]);
        // Ducking with 7D or 8D hands elder the trick and a capot: 1 + 11 leads + 11 tricks + 40.
        assert_eq!(d.action_values, vec![(id("7D"), -63.0), (id("8D"), -63.0), (id("TD"), 63.0), (id("AD"), 63.0)]);
    }

    /// Determinized states (`resample_from_infostate` for the mover, as PIMC solves them): the
    /// principal variation played on the engine scores the value.
    #[test]
    fn solves_determinized_states() {
        let mut rng = Rng::new(26);
        for game in games() {
            for i in 0..6 {
                let s = random_play_state(game, 10 + 2 * i, &mut rng);
                let me = s.current_player() as usize;
                let world = s.resample_from_infostate(me, &mut rng).unwrap();
                assert_eq!(world.hand(me), s.hand(me));
                let sol = world.solve(Objective::Points).unwrap();
                assert_eq!(sol.action_values.len(), s.legal_actions().len());
                check_pv(&world, &sol);
            }
        }
    }

    /// Any other phase, a chance node and the end are refused, naming the phase.
    #[test]
    fn refuses_other_phases() {
        let game = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
        let s = game.new_initial_state();
        let err = s.solve(Objective::Points).unwrap_err().to_string();
        assert!(err.contains("phase cut"), "{err}");
        let mut rng = Rng::new(1);
        let mut s = random_play_state(game, 0, &mut rng);
        while !s.is_terminal() {
            let a = s.legal_actions()[0];
            s.apply_legal(a);
        }
        let err = s.solve(Objective::Win).unwrap_err().to_string();
        assert!(err.contains("phase game-over"), "{err}");
    }

    /// The relative-rank key: a position and the same one with every card renamed within its
    /// suit, order kept, have the same key; the compress table packs to the top.
    #[test]
    fn relative_ranks() {
        let t = compress_table();
        assert_eq!(t[0b1010_0101][0b1000_0001], 0b1001_0000);
        assert_eq!(t[0xFF][0x0F], 0x0F);
        assert_eq!(t[0b0000_0110][0b0000_0100], 0b1000_0000);
    }
}
