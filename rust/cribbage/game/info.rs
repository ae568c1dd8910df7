//! What a player knows: the information state (text and tensor), the observation (text and tensor), and
//! resampling the hidden cards.
//!
//! # What a player knows
//!
//! Everything public (variant, target, deal number, phase, dealer, who is to move, the scores,
//! the cards cut for the deal, the starter, every card laid this deal in order and by whom, the
//! count, who said go in the current sequence, how many cards each player holds) and his own
//! cards: his unplayed cards and **his own discards** (the crib cards he gave). Earlier deals
//! are not part of it: each deal is a fresh shuffle and the scores carry everything that
//! matters of them. The order in which one's own cards were dealt is not recorded either.
//! Go's are implied by who laid the next card (a go is forced), and are shown for the current
//! sequence.
//!
//! # Tensor layouts (f32, the same size for every variant)
//!
//! Seats are relative to the observer: seat `k` is player `(observer + k) % n`; slots for
//! seats `≥ n` stay 0. Cards are one-hot over ids `0..52`.
//!
//! Header (both tensors), 33 floats:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 4 | variant one-hot (five-card, six-card, three-player, four-player) |
//! | 4 | 6 | phase one-hot (cut, deal, discard, starter, play, game over) |
//! | 10 | 4 | dealer by relative seat (zeros before the cut is decided) |
//! | 14 | 4 | player to move by relative seat (zeros at chance and terminal nodes) |
//! | 18 | 4 | score of each relative seat's side ÷ target |
//! | 22 | 1 | target ÷ 121 |
//! | 23 | 1 | deals begun (1 in the first deal) |
//! | 24 | 1 | count ÷ 31 |
//! | 25 | 4 | cards held (unplayed) by relative seat ÷ 6 |
//! | 29 | 4 | said go in the current sequence, by relative seat |
//!
//! Information state ([`INFO_TENSOR_SIZE`] = 1293): header, then
//! own unplayed cards (52) at 33, own discards (52) at 85, starter (52) at 137, cut cards by
//! relative seat (4 × 52) at 189, and the play history at 397: 16 slots in order of play, each
//! the card (52) and the relative seat that laid it (4).
//!
//! Observation ([`OBS_TENSOR_SIZE`] = 813): header, own unplayed cards at 33, own discards at 85,
//! starter at 137, cut cards at 189, then the cards of the current sequence by relative seat
//! (4 × 52) at 397 and the cards laid earlier in this deal by relative seat (4 × 52) at 605.

use std::fmt::Write;

use super::{index_to_id, Phase, State, FITS, FULL_PACK, MAX_PLAYS, NO_CARD, NO_PLAYER};
use crate::cribbage::card::{Card, Hand};
use crate::engine::{check_player, tensor, GameState};
use crate::error::{Error, Result};
use crate::rng::Rng;

// The offsets of the module docs' layout, each block after the one before (52 cards, 4 seats).
const HEADER: usize = 33;
const OWN_HAND: usize = HEADER;
const OWN_DISCARDS: usize = OWN_HAND + 52;
const STARTER: usize = OWN_DISCARDS + 52;
const CUTS: usize = STARTER + 52;
const HISTORY: usize = CUTS + 4 * 52;
const SLOT: usize = 52 + 4;
const _: () = assert!(OWN_DISCARDS == 85 && STARTER == 137 && CUTS == 189 && HISTORY == 397 && SLOT == 56);

/// Length of the information state tensor.
pub const INFO_TENSOR_SIZE: usize = HISTORY + MAX_PLAYS * SLOT;
/// Length of the observation tensor.
pub const OBS_TENSOR_SIZE: usize = HISTORY + 2 * 4 * 52;

fn set_cards(out: &mut [f32], offset: usize, mask: u64) {
    tensor::set_cards(out, offset, mask & FULL_PACK, |bit| index_to_id(bit) as usize);
}

fn cards_text(mask: u64) -> String {
    tensor::cards_or_dash(Hand::from_mask(mask & FULL_PACK).map(|h| h.to_string()).unwrap_or_default())
}

impl State {
    fn check_player(&self, player: usize) -> Result<()> {
        check_player(self, player).map(|_| ())
    }

    fn played_mask(&self) -> u64 {
        self.plays[..self.n_plays as usize].iter().fold(0, |m, c| m | c.bit())
    }

    fn write_header(&self, player: usize, out: &mut [f32]) {
        let n = self.num_players();
        let rel = |q: usize| (q + n - player) % n;
        out[..HEADER].fill(0.0);
        out[self.config.variant as usize] = 1.0;
        out[4 + self.phase as usize] = 1.0;
        if self.dealer != NO_PLAYER {
            out[10 + rel(self.dealer as usize)] = 1.0;
        }
        if matches!(self.phase, Phase::Discard | Phase::Play) {
            out[14 + rel(self.turn as usize)] = 1.0;
        }
        let target = self.config.target as f32;
        for q in 0..n {
            let k = rel(q);
            out[18 + k] = self.scores[self.side_of(q)] as f32 / target;
            out[25 + k] = self.hands[q].count_ones() as f32 / 6.0;
            out[29 + k] = self.has_passed(q) as u8 as f32;
        }
        out[22] = target / 121.0;
        out[23] = self.deals as f32;
        out[24] = self.count as f32 / 31.0;
    }

    fn write_private(&self, player: usize, out: &mut [f32]) {
        let n = self.num_players();
        out[HEADER..HISTORY].fill(0.0);
        set_cards(out, OWN_HAND, self.hands[player]);
        set_cards(out, OWN_DISCARDS, self.discards[player]);
        if self.starter != NO_CARD {
            set_cards(out, STARTER, 1u64 << self.starter);
        }
        for q in 0..n {
            if self.cuts[q] != NO_CARD {
                set_cards(out, CUTS + 52 * ((q + n - player) % n), 1u64 << self.cuts[q]);
            }
        }
    }

    /// The information state tensor of `player` into `out` (length [`INFO_TENSOR_SIZE`]); see
    /// the module docs for the layout.
    pub fn information_state_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        tensor::check_buffer(self, player, out, INFO_TENSOR_SIZE)?;
        let n = self.num_players();
        self.write_header(player, out);
        self.write_private(player, out);
        out[HISTORY..].fill(0.0);
        for i in 0..self.n_plays as usize {
            let base = HISTORY + i * SLOT;
            out[base + self.plays[i].id() as usize] = 1.0;
            out[base + 52 + (self.play_seats[i] as usize + n - player) % n] = 1.0;
        }
        Ok(())
    }

    /// The observation tensor of `player` into `out` (length [`OBS_TENSOR_SIZE`]): the current
    /// view, with the cards laid this deal as sets (current sequence, earlier) instead of the
    /// ordered history.
    pub fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        tensor::check_buffer(self, player, out, OBS_TENSOR_SIZE)?;
        let n = self.num_players();
        self.write_header(player, out);
        self.write_private(player, out);
        out[HISTORY..].fill(0.0);
        for i in 0..self.n_plays as usize {
            let seat = (self.play_seats[i] as usize + n - player) % n;
            let block = if i >= self.seq_start as usize { 0 } else { 4 };
            out[HISTORY + 52 * (block + seat) + self.plays[i].id() as usize] = 1.0;
        }
        Ok(())
    }

    fn seat_name(&self, q: usize) -> String {
        format!("P{q}")
    }

    /// Everything `player` knows, as text (the same facts as the information state tensor):
    ///
    /// ```text
    /// six-card to 121, deal 1, phase play, dealer P1, to move P0, observer P0
    /// scores: P0 0, P1 2
    /// cut: P0 KH, P1 3D
    /// hand: 6H 9S
    /// discarded: KC QD
    /// starter: JC
    /// held: P0 2, P1 2
    /// play: P0 5C, P1 TS, P0 5D, P1 9H
    /// count: 29, go: P0
    /// ```
    pub fn information_state_string(&self, player: usize) -> Result<String> {
        self.knowledge_text(player, false)
    }

    /// What `player` sees now, as text (the same facts as the observation tensor): the
    /// information state's lines with the cards laid this deal as sets per player, those of the
    /// current count and those laid earlier, instead of the ordered play.
    ///
    /// ```text
    /// six-card to 121, deal 1, phase play, dealer P1, to move P0, observer P0
    /// scores: P0 0, P1 2
    /// cut: P0 KH, P1 3D
    /// hand: 6H 9S
    /// discarded: KC QD
    /// starter: JC
    /// held: P0 2, P1 2
    /// this count: P0 5C 5D, P1 TS 9H
    /// earlier: P0 -, P1 -
    /// count: 29, go: P0
    /// ```
    pub fn observation_string(&self, player: usize) -> Result<String> {
        self.knowledge_text(player, true)
    }

    /// The information state text, or with `observation` the observation text.
    fn knowledge_text(&self, player: usize, observation: bool) -> Result<String> {
        self.check_player(player)?;
        let n = self.num_players();
        let mut s = String::new();
        let mover = match self.phase {
            Phase::Discard | Phase::Play => self.seat_name(self.turn as usize),
            Phase::GameOver => "nobody".into(),
            _ => "chance".into(),
        };
        let dealer = if self.dealer == NO_PLAYER { "-".to_string() } else { self.seat_name(self.dealer as usize) };
        let _ = writeln!(
            s,
            "{} to {}, deal {}, phase {}, dealer {dealer}, to move {mover}, observer {}",
            self.config.variant,
            self.config.target,
            self.deals,
            self.phase.name(),
            self.seat_name(player)
        );
        let sides: Vec<String> = (0..self.config.variant.num_sides())
            .map(|side| {
                let members: Vec<String> =
                    (0..n).filter(|&q| self.side_of(q) == side).map(|q| self.seat_name(q)).collect();
                format!("{} {}", members.join("+"), self.scores[side])
            })
            .collect();
        let _ = writeln!(s, "scores: {}", sides.join(", "));
        let cuts: Vec<String> = (0..n)
            .filter(|&q| self.cuts[q] != NO_CARD)
            .map(|q| format!("{} {}", self.seat_name(q), Card::from_index(self.cuts[q] as u32)))
            .collect();
        let _ = writeln!(s, "cut: {}", if cuts.is_empty() { "-".to_string() } else { cuts.join(", ") });
        let _ = writeln!(s, "hand: {}", cards_text(self.hands[player]));
        let _ = writeln!(s, "discarded: {}", cards_text(self.discards[player]));
        let starter =
            if self.starter == NO_CARD { "-".to_string() } else { Card::from_index(self.starter as u32).to_string() };
        let _ = writeln!(s, "starter: {starter}");
        let held: Vec<String> =
            (0..n).map(|q| format!("{} {}", self.seat_name(q), self.hands[q].count_ones())).collect();
        let _ = writeln!(s, "held: {}", held.join(", "));
        if observation {
            // The cards laid by each player in plays `range`, as sets.
            let laid = |range: std::ops::Range<usize>| -> String {
                let by_seat: Vec<String> = (0..n)
                    .map(|q| {
                        let mask = range
                            .clone()
                            .filter(|&i| self.play_seats[i] as usize == q)
                            .fold(0u64, |m, i| m | self.plays[i].bit());
                        format!("{} {}", self.seat_name(q), cards_text(mask))
                    })
                    .collect();
                by_seat.join(", ")
            };
            let start = self.seq_start as usize;
            let _ = writeln!(s, "this count: {}", laid(start..self.n_plays as usize));
            let _ = writeln!(s, "earlier: {}", laid(0..start));
        } else {
            let plays: Vec<String> = (0..self.n_plays as usize)
                .map(|i| format!("{} {}", self.seat_name(self.play_seats[i] as usize), self.plays[i]))
                .collect();
            let _ = writeln!(s, "play: {}", if plays.is_empty() { "-".to_string() } else { plays.join(", ") });
        }
        let gone: Vec<String> = (0..n).filter(|&q| self.has_passed(q)).map(|q| self.seat_name(q)).collect();
        let _ =
            write!(s, "count: {}, go: {}", self.count, if gone.is_empty() { "-".to_string() } else { gone.join(" ") });
        Ok(s)
    }

    /// A state drawn uniformly among those consistent with everything `player` has seen: the
    /// other players' unplayed cards, the crib cards `player` did not give (including the
    /// three-player game's card from the pack), and the cards still in the pack (so the
    /// starter, if not yet turned) are redealt at random. Cards laid stay where they were laid,
    /// and every go stays truthful: a player who said go at count c gets only cards of more
    /// than 31 − c pips (the most constrained players are drawn first, which keeps the draw
    /// uniform because these card sets are nested).
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::cribbage::GameConfig;
    /// use cribpiquet::rng::Rng;
    /// let mut state = GameConfig::default().new_initial_state();
    /// let mut rng = Rng::new(3);
    /// state.apply_sampled_chances(&mut rng); // the cut and the deal: P0 discards next
    /// let other = state.resample_from_infostate(0, &mut rng).unwrap();
    /// assert_eq!(other.information_state_string(0).unwrap(), state.information_state_string(0).unwrap());
    /// assert_eq!(other.hand(0), state.hand(0));
    /// ```
    pub fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Result<State> {
        self.check_player(player)?;
        if self.deals == 0 {
            return Ok(*self); // only the cut so far: nothing is hidden
        }
        let n = self.num_players();
        let starter_bit = if self.starter == NO_CARD { 0 } else { 1u64 << self.starter };
        let played = self.played_mask();
        let known = self.kept[player].mask() | self.discards[player] | played | starter_bit;
        let mut pool = FULL_PACK & !known;
        let all_discards = self.discards.iter().fold(0, |m, &d| m | d);
        let extra = self.crib.mask() & !all_discards;

        // Other players' unplayed cards, most constrained (highest minimum pips) first.
        let mut order: [(u8, usize); 4] = [(0, 0); 4];
        let mut k = 0;
        for q in (0..n).filter(|&q| q != player) {
            let min_pips = if self.go_min[q] == 0 { 1 } else { 32u8.saturating_sub(self.go_min[q]) };
            order[k] = (min_pips, q);
            k += 1;
        }
        order[..k].sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
        let mut next = *self;
        for &(min_pips, q) in &order[..k] {
            let eligible = FULL_PACK & !FITS[(min_pips.clamp(1, 11) - 1) as usize];
            let hand = draw(&mut pool, eligible, self.hands[q].count_ones(), rng)?;
            let played_by_q = self.kept[q].mask() & !self.hands[q];
            next.hands[q] = hand;
            next.kept[q] = Hand::from_mask(played_by_q | hand)?;
        }
        for q in (0..n).filter(|&q| q != player) {
            next.discards[q] = draw(&mut pool, FULL_PACK, self.discards[q].count_ones(), rng)?;
        }
        let extra = draw(&mut pool, FULL_PACK, extra.count_ones(), rng)?;
        let crib = next.discards.iter().fold(extra, |m, &d| m | d);
        next.crib = Hand::from_mask(crib)?;
        next.used = next.kept.iter().fold(crib | starter_bit, |m, h| m | h.mask());
        Ok(next)
    }
}

/// Draw `k` cards uniformly from `pool ∩ eligible` and take them out of `pool`.
fn draw(pool: &mut u64, eligible: u64, k: u32, rng: &mut Rng) -> Result<u64> {
    let mut drawn = 0u64;
    for _ in 0..k {
        let choices = *pool & eligible;
        let count = choices.count_ones();
        if count == 0 {
            return Err(Error::Illegal("resample: no card is consistent with the information state".into()));
        }
        let mut m = choices;
        for _ in 0..rng.below(count) {
            m &= m - 1;
        }
        let bit = m & m.wrapping_neg();
        drawn |= bit;
        *pool &= !bit;
    }
    Ok(drawn)
}
