//! What a player knows: the information state (text and tensor), the observation (text and tensor), and
//! resampling the hidden cards.
//!
//! # What a player knows
//!
//! Public: the scope, the phase, the dealer, who is to move, the cards drawn for deal (the
//! current round), the finished games of the match (the first 16) and the koroliks closed,
//! the scores (match and deal), how many cards have been dealt, each player's exchange size and
//! how far his discarding and drawing have gone, the **declarations heard** (each player's
//! points in carte blanche, point, sequences and sets, the repique), the pique, the open-capot
//! decisions, every card played in order (so who played it) and the tricks won.
//!
//! Private: his own dealt hand, unplayed cards, **his own discards** and the talon cards he took.
//! The opponent's dealt hand, discards and talon cards, and the talon cards nobody took, are
//! hidden. Earlier deals are not part of it (beyond their totals): each deal is a fresh
//! shuffle.
//!
//! *Decision* (what declaring reveals): the numbers scored in each category, not the cards
//! (no suit, no rank of the sequence or set is named), e.g. "point 6, sequences 15, sets 14".
//!
//! # Tensor layouts (f32)
//!
//! "Own"/"opponent" are relative to the observer. Cards are one-hot over ids `0..32`.
//! Header (both tensors), 301 floats:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | phase one-hot (cut, deal, exchange, discard, draw, announce, play, game over) |
//! | 8 | 2 | scope one-hot (deal, partiya) |
//! | 10 | 2 | observer is elder / is the dealer (zeros before the first draw is decided) |
//! | 12 | 2 | to move: observer / opponent (zeros at chance and terminal nodes) |
//! | 14 | 2 | this deal's totals, own / opponent ÷ 100 |
//! | 16 | 2 | match scores (all deals), own / opponent ÷ 100 |
//! | 18 | 3 | deals begun ÷ 10, koroliks closed ÷ 10, games in the open korolik ÷ 2 |
//! | 21 | 2 | tricks won, own / opponent ÷ 12 |
//! | 23 | 9 | own exchange size one-hot (0..=8; zeros before the choice) |
//! | 32 | 9 | opponent's exchange size one-hot |
//! | 41 | 3 | cards dealt ÷ 24, opponent's discards so far ÷ 8, opponent's talon cards so far ÷ 8 |
//! | 44 | 1 | declarations made |
//! | 45 | 4 | own declaration points (carte blanche, point, sequences, sets) ÷ 10 |
//! | 49 | 4 | opponent's declaration points ÷ 10 |
//! | 53 | 2 | repique scored: own / opponent |
//! | 55 | 2 | pique scored: own / opponent |
//! | 57 | 4 | open capot: own announced, own passed, opponent announced, opponent passed |
//! | 61 | 32 | own card drawn for deal |
//! | 93 | 32 | opponent's card drawn for deal |
//! | 125 | 32 | own dealt hand |
//! | 157 | 32 | own unplayed cards |
//! | 189 | 32 | own discards |
//! | 221 | 32 | own talon cards taken |
//! | 253 | 48 | games of the match: 16 slots of (played, own total ÷ 100, opponent's ÷ 100) |
//!
//! Information state ([`INFO_TENSOR_SIZE`] = 1117): the header, then the play at 301: 24
//! slots in order of play, each the card (32) and who played it (own / opponent, 2).
//!
//! Observation ([`OBS_TENSOR_SIZE`] = 401): the header, then at 301 the cards played by the
//! observer (32), by the opponent (32), the card led to the current trick if it is not complete
//! (32), and the suits the opponent has shown out of (4).

use std::fmt::Write;

use super::{pick_bit, suit_mask, Phase, State, FULL_PACK, NO_CARD, NO_SEAT, NO_SIZE};
use crate::engine::{check_player, tensor, GameState};
use crate::error::{Error, Result};
use crate::piquet::card::{Card, Hand};
use crate::rng::Rng;

const HEADER: usize = 301;
const CUTS: usize = 61;
const OWN_DEALT: usize = 125;
const OWN_HAND: usize = 157;
const OWN_DISCARDS: usize = 189;
const OWN_DRAWN: usize = 221;
const GAMES: usize = 253;
const SLOT: usize = 34;

/// Length of the information state tensor.
pub const INFO_TENSOR_SIZE: usize = HEADER + 24 * SLOT;
/// Length of the observation tensor.
pub const OBS_TENSOR_SIZE: usize = HEADER + 3 * 32 + 4;

/// Attempts of the rejection sampler before [`State::resample_from_infostate`] gives up.
pub const MAX_RESAMPLE_ATTEMPTS: u32 = 1 << 22;

fn set_cards(out: &mut [f32], offset: usize, mask: u32) {
    tensor::set_cards(out, offset, mask as u64, |bit| bit as usize);
}

fn cards_text(mask: u32) -> String {
    tensor::cards_or_dash(if mask == 0 { String::new() } else { Hand::from_mask(mask).to_string() })
}

fn card_text(id: u8) -> String {
    Card::from_id(id as i64).map(|c| c.to_string()).unwrap_or_else(|_| "-".into())
}

/// Draw `k` cards uniformly from `mask`; `None` if it has fewer.
#[inline]
fn draw(mask: u32, k: u32, rng: &mut Rng) -> Option<u32> {
    let mut pool = mask;
    let mut drawn = 0;
    for _ in 0..k {
        if pool == 0 {
            return None;
        }
        let bit = 1u32 << pick_bit(pool, rng);
        drawn |= bit;
        pool &= !bit;
    }
    Some(drawn)
}

impl State {
    fn check_player(&self, player: usize) -> Result<()> {
        check_player(self, player).map(|_| ())
    }

    /// The cards `seat` has played this deal.
    pub(super) fn played_by(&self, seat: usize) -> u32 {
        self.plays().filter(|&(s, _)| s == seat).fold(0, |m, (_, c)| m | 1u32 << (c & 31))
    }

    /// The suits (as card masks) `seat` has shown out of: he did not follow a card led.
    pub(super) fn voids(&self, seat: usize) -> u32 {
        let mut voids = 0;
        let mut lead = NO_CARD;
        for (s, c) in self.plays() {
            if lead == NO_CARD {
                lead = c;
            } else {
                if s == seat && c >> 3 != lead >> 3 {
                    voids |= suit_mask(lead as u32);
                }
                lead = NO_CARD;
            }
        }
        voids
    }

    fn mover_is(&self, seat: usize) -> bool {
        matches!(self.phase, Phase::Exchange | Phase::Discard | Phase::Announce | Phase::Play)
            && self.turn as usize & 1 == seat
    }

    fn write_header(&self, player: usize, out: &mut [f32]) {
        let me = player;
        let op = 1 - player;
        out[..HEADER].fill(0.0);
        out[self.phase as usize] = 1.0;
        out[8 + self.config.scope as usize] = 1.0;
        if self.dealer != NO_SEAT {
            out[10 + (self.dealer_seat() == me) as usize] = 1.0;
        }
        if self.mover_is(me) {
            out[12] = 1.0;
        } else if self.mover_is(op) {
            out[13] = 1.0;
        }
        out[14] = self.deal_totals[me] as f32 / 100.0;
        out[15] = self.deal_totals[op] as f32 / 100.0;
        out[16] = self.scores[me] as f32 / 100.0;
        out[17] = self.scores[op] as f32 / 100.0;
        out[18] = self.deals as f32 / 10.0;
        out[19] = self.koroliks as f32 / 10.0;
        out[20] = self.korolik_games as f32 / 2.0;
        out[21] = self.tricks[me] as f32 / 12.0;
        out[22] = self.tricks[op] as f32 / 12.0;
        for (k, seat) in [me, op].into_iter().enumerate() {
            if self.exchange[seat] != NO_SIZE {
                out[23 + 9 * k + (self.exchange[seat] as usize).min(8)] = 1.0;
            }
        }
        out[41] = self.n_dealt as f32 / 24.0;
        out[42] = self.discards[op].count_ones() as f32 / 8.0;
        out[43] = self.drawn[op].count_ones() as f32 / 8.0;
        if self.declared {
            out[44] = 1.0;
            for c in 0..4 {
                out[45 + c] = self.decl[me][c] as f32 / 10.0;
                out[49 + c] = self.decl[op][c] as f32 / 10.0;
            }
        }
        if self.repique != NO_SEAT {
            out[53 + (self.repique as usize != me) as usize] = 1.0;
        }
        if self.play.pique {
            out[55 + (self.elder_seat() != me) as usize] = 1.0;
        }
        for (k, seat) in [me, op].into_iter().enumerate() {
            match self.announce[seat] {
                2 => out[57 + 2 * k] = 1.0,
                1 => out[58 + 2 * k] = 1.0,
                _ => {}
            }
        }
        for (k, seat) in [me, op].into_iter().enumerate() {
            if self.cuts[seat] != NO_CARD {
                out[CUTS + 32 * k + (self.cuts[seat] as usize & 31)] = 1.0;
            }
        }
        set_cards(out, OWN_DEALT, self.dealt[me]);
        set_cards(out, OWN_HAND, self.hands[me]);
        set_cards(out, OWN_DISCARDS, self.discards[me]);
        set_cards(out, OWN_DRAWN, self.drawn[me]);
        for (i, g) in self.games().iter().enumerate() {
            out[GAMES + 3 * i] = 1.0;
            out[GAMES + 3 * i + 1] = g[me] as f32 / 100.0;
            out[GAMES + 3 * i + 2] = g[op] as f32 / 100.0;
        }
    }

    /// The information state tensor of `player` into `out` (length [`INFO_TENSOR_SIZE`]); see
    /// the module docs for the layout.
    pub fn information_state_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        tensor::check_buffer(self, player, out, INFO_TENSOR_SIZE)?;
        self.write_header(player, out);
        out[HEADER..].fill(0.0);
        for (i, (seat, card)) in self.plays().enumerate() {
            let base = HEADER + i * SLOT;
            out[base + (card as usize & 31)] = 1.0;
            out[base + 32 + (seat != player) as usize] = 1.0;
        }
        Ok(())
    }

    /// The observation tensor of `player` into `out` (length [`OBS_TENSOR_SIZE`]).
    pub fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        tensor::check_buffer(self, player, out, OBS_TENSOR_SIZE)?;
        self.write_header(player, out);
        out[HEADER..].fill(0.0);
        set_cards(out, HEADER, self.played_by(player));
        set_cards(out, HEADER + 32, self.played_by(1 - player));
        if self.phase == Phase::Play && self.n_plays & 1 == 1 {
            let lead = self.plays[(self.n_plays as usize - 1) % 24];
            out[HEADER + 64 + (lead as usize & 31)] = 1.0;
        }
        let voids = self.voids(1 - player);
        for s in 0..4 {
            out[HEADER + 96 + s] = (voids >> (8 * s) & 1) as f32;
        }
        Ok(())
    }

    /// Everything `player` knows, as text (the same facts as the information state tensor):
    ///
    /// ```text
    /// piquet deal, deal 1, phase play, dealer P1, to move P0, observer P0
    /// cut: P0 9H, P1 KC
    /// games: - (koroliks 0, open korolik 0)
    /// scores: P0 37, P1 3; this deal P0 37, P1 3
    /// dealt: 7C 9C …
    /// hand: …
    /// discarded: …
    /// took: …
    /// exchange: P0 5, P1 3; dealt 24, P1 discarded 3, took 3
    /// declared: P0 0/6/15/14, P1 0/0/0/3; repique -, pique -
    /// capot: P0 passed, P1 passed
    /// play: P0 AH, P1 7H, P0 KH
    /// tricks: P0 1, P1 0
    /// ```
    pub fn information_state_string(&self, player: usize) -> Result<String> {
        self.knowledge_text(player, false)
    }

    /// What `player` sees now, as text (the same facts as the observation tensor): the
    /// information state's lines with the play as sets (the cards each player has played, the
    /// card led to an unfinished trick, the suits the opponent has shown out of) instead of the
    /// ordered play:
    ///
    /// ```text
    /// …
    /// capot: P0 passed, P1 passed
    /// played: P0 AH KH, P1 7H; lead: KH; opponent void in: -
    /// tricks: P0 1, P1 0
    /// ```
    pub fn observation_string(&self, player: usize) -> Result<String> {
        self.knowledge_text(player, true)
    }

    /// The information state text, or with `observation` the observation text.
    fn knowledge_text(&self, player: usize, observation: bool) -> Result<String> {
        self.check_player(player)?;
        let op = 1 - player;
        let seat = |s: usize| format!("P{s}");
        let mut s = String::with_capacity(512);
        let mover = match self.phase {
            Phase::GameOver => "nobody".to_string(),
            _ if self.is_chance_node() => "chance".to_string(),
            _ => seat(self.turn as usize & 1),
        };
        let dealer = self.dealer().map_or("-".to_string(), seat);
        let _ = writeln!(
            s,
            "piquet {}, deal {}, phase {}, dealer {dealer}, to move {mover}, observer {}",
            self.config.scope,
            self.deals,
            self.phase.name(),
            seat(player)
        );
        let cuts: Vec<String> = (0..2)
            .filter(|&q| self.cuts[q] != NO_CARD)
            .map(|q| format!("{} {}", seat(q), card_text(self.cuts[q])))
            .collect();
        let _ = writeln!(s, "cut: {}", if cuts.is_empty() { "-".into() } else { cuts.join(", ") });
        let games: Vec<String> = self.games().iter().map(|g| format!("{}-{}", g[0], g[1])).collect();
        let _ = writeln!(
            s,
            "games: {} (koroliks {}, open korolik {})",
            if games.is_empty() { "-".into() } else { games.join(" ") },
            self.koroliks,
            self.korolik_games
        );
        let _ = writeln!(
            s,
            "scores: P0 {}, P1 {}; this deal P0 {}, P1 {}",
            self.scores[0], self.scores[1], self.deal_totals[0], self.deal_totals[1]
        );
        let _ = writeln!(s, "dealt: {}", cards_text(self.dealt[player]));
        let _ = writeln!(s, "hand: {}", cards_text(self.hands[player]));
        let _ = writeln!(s, "discarded: {}", cards_text(self.discards[player]));
        let _ = writeln!(s, "took: {}", cards_text(self.drawn[player]));
        let size = |q: usize| {
            if self.exchange[q] == NO_SIZE {
                "-".to_string()
            } else {
                self.exchange[q].to_string()
            }
        };
        let _ = writeln!(
            s,
            "exchange: P0 {}, P1 {}; dealt {}, {} discarded {}, took {}",
            size(0),
            size(1),
            self.n_dealt,
            seat(op),
            self.discards[op].count_ones(),
            self.drawn[op].count_ones()
        );
        if self.declared {
            let d = |q: usize| self.decl[q].map(|x| x.to_string()).join("/");
            let _ = writeln!(
                s,
                "declared: P0 {}, P1 {}; repique {}, pique {}",
                d(0),
                d(1),
                self.repique().map_or("-".to_string(), seat),
                if self.play.pique { seat(self.elder_seat()) } else { "-".into() }
            );
        } else {
            let _ = writeln!(s, "declared: -");
        }
        let decision = |q: usize| match self.announce[q] {
            2 => "announced",
            1 => "passed",
            _ => "-",
        };
        let _ = writeln!(s, "capot: P0 {}, P1 {}", decision(0), decision(1));
        if observation {
            let lead = if self.phase == Phase::Play && self.n_plays & 1 == 1 {
                card_text(self.plays[(self.n_plays as usize - 1) % 24])
            } else {
                "-".into()
            };
            let voids = self.voids(op);
            let suits: String =
                (0..4).filter(|&k| voids >> (8 * k) & 1 == 1).map(|k| ['C', 'D', 'H', 'S'][k]).collect();
            let _ = writeln!(
                s,
                "played: P0 {}, P1 {}; lead: {lead}; opponent void in: {}",
                cards_text(self.played_by(0)),
                cards_text(self.played_by(1)),
                tensor::cards_or_dash(suits)
            );
        } else {
            let plays: Vec<String> = self.plays().map(|(q, c)| format!("{} {}", seat(q), card_text(c))).collect();
            let _ = writeln!(s, "play: {}", if plays.is_empty() { "-".into() } else { plays.join(", ") });
        }
        let _ = write!(s, "tricks: P0 {}, P1 {}", self.tricks[0], self.tricks[1]);
        Ok(s)
    }

    /// A state drawn uniformly among those consistent with everything `player` has seen (the
    /// determinization step of IS-MCTS): the opponent's dealt hand, discards and talon cards are
    /// redealt from the cards `player` has not seen, and the cards still in the pack (talon cards
    /// nobody has taken) are whatever is left.
    ///
    /// Exact, by rejection: the opponent's current cards are drawn uniformly from the unseen
    /// cards outside the suits he has shown out of (his played cards stay), his talon cards
    /// uniformly among his current cards, his discards uniformly among the rest; the draw is
    /// kept only if it reproduces the declarations heard (every category's points and the
    /// repique, carte blanche judged on the redealt dealt hand) and, while he is discarding,
    /// leaves him a legal discard. Every deal consistent with the information has the same
    /// chance, so the result is uniform over them. After [`MAX_RESAMPLE_ATTEMPTS`] rejections
    /// (never seen in tests: rare declarations cost at most thousands) it is an error.
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::piquet::GameConfig;
    /// use cribpiquet::rng::Rng;
    /// let mut state = GameConfig::default().new_initial_state();
    /// let mut rng = Rng::new(3);
    /// state.apply_sampled_chances(&mut rng); // the draw and the deal: elder exchanges next
    /// let other = state.resample_from_infostate(0, &mut rng).unwrap();
    /// assert_eq!(other.information_state_string(0).unwrap(), state.information_state_string(0).unwrap());
    /// assert_eq!(other.hand(0), state.hand(0));
    /// ```
    pub fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Result<State> {
        self.check_player(player)?;
        if self.phase == Phase::Cut || self.dealer == NO_SEAT || self.n_dealt == 0 {
            return Ok(*self);
        }
        let p = player;
        let o = 1 - p;
        let played_o = self.played_by(o);
        let played_all = played_o | self.played_by(p);
        let pool = FULL_PACK & !(self.dealt[p] | self.drawn[p]) & !played_all;
        let eligible = pool & !self.voids(o);
        let unplayed = self.hands[o].count_ones();
        let k = self.drawn[o].count_ones();
        let j = self.discards[o].count_ones();
        let mid_discard = self.phase == Phase::Discard && self.turn as usize & 1 == o;
        let heard = self.declared.then(|| {
            let (e, d) = (self.elder_seat(), self.dealer_seat());
            ([self.decl[e], self.decl[d]], self.repique)
        });
        let mut next = *self;
        for _ in 0..MAX_RESAMPLE_ATTEMPTS {
            let Some(h) = draw(eligible, unplayed, rng) else {
                break;
            };
            let held = played_o | h;
            let Some(t) = draw(held, k, rng) else { break };
            let Some(disc) = draw(pool & !h, j, rng) else {
                break;
            };
            next.hands[o] = h;
            next.drawn[o] = t;
            next.discards[o] = disc;
            next.dealt[o] = (held & !t) | disc;
            if mid_discard && next.discard_mask() == 0 {
                continue;
            }
            if let Some((cats, repique)) = heard {
                let (c, _, r) = next.declaration_scores();
                let r = match r {
                    Some(0) => next.elder_seat() as u8,
                    Some(_) => next.dealer_seat() as u8,
                    None => NO_SEAT,
                };
                if c != cats || r != repique {
                    continue;
                }
            }
            return Ok(next);
        }
        Err(Error::Illegal(format!(
            "resample: no deal consistent with player {player}'s information was found in {MAX_RESAMPLE_ATTEMPTS} draws"
        )))
    }
}
