//! High card: the toy game. Six cards `c0`..`c5` (the id is the rank). Chance deals two cards
//! to each player, alternately from P0; P0 leads one of his, P1 answers with one of his (seeing
//! the lead); the higher card takes the trick and its player scores 1, the game's one point. The
//! payoff is +1 for the winner and -1 for the loser (no draws: the cards differ).
//!
//! Everything the framework asks of a game, written from scratch in this folder: the state is
//! two hand masks and the two cards played; the phase, the player to move, the scores and the
//! rewards are derived from them.

use std::fmt;

use cribpiquet::engine::{ActionList, Game, GameState, Player, CHANCE, TERMINAL};
use cribpiquet::error::{Error, Result};
use cribpiquet::rng::Rng;

/// The cards of the pack (ids `0..CARDS`).
pub const CARDS: u8 = 6;
/// Cards dealt to each player.
pub const HAND: u32 = 2;
/// No card (a play not made yet).
const NONE: u8 = u8::MAX;

/// The game: no options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HighCard;

/// A state of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// The cards dealt to each player (the one played included), as masks.
    pub hands: [u8; 2],
    /// The card each player played, or [`NONE`].
    pub played: [u8; 2],
}

impl Game for HighCard {
    type State = State;
    const NAME: &'static str = "high card";
    const NUM_DISTINCT_ACTIONS: usize = CARDS as usize;
    const MAX_CHANCE_OUTCOMES: usize = CARDS as usize;
    /// Own cards (6), P0's card played (6), P1's card played (6), cards dealt (5).
    const INFO_TENSOR_SIZE: usize = 23;
    const OBS_TENSOR_SIZE: usize = 23;
    const POINT_SOURCES: &'static [&'static str] = &["trick"];

    fn num_players(&self) -> usize {
        2
    }

    fn new_initial_state(&self) -> State {
        State { hands: [0, 0], played: [NONE, NONE] }
    }

    fn min_utility(&self) -> f64 {
        -1.0
    }

    fn max_utility(&self) -> f64 {
        1.0
    }

    /// `"p0:1,4 p1:0,5 led:4 answer:-"`: every field, in this order; refused unless play can
    /// reach it (the deal alternates from P0, a card played is its player's, P1 answers a lead).
    fn deserialize_state(&self, text: &str) -> Result<State> {
        let bad = |why: &str| Error::InvalidValue(format!("not a high card state ({why}): {text:?}"));
        let fields: Vec<&str> = text.split(' ').collect();
        let [p0, p1, led, answer] = fields[..] else { return Err(bad("four fields")) };
        fn field<'t>(f: &'t str, name: &str) -> Option<&'t str> {
            f.strip_prefix(name)
        }
        let card = |t: &str| match t.as_bytes() {
            [d @ b'0'..=b'5'] => Ok(d - b'0'),
            _ => Err(bad("a card is a digit 0 to 5")),
        };
        let hand = |t: &str| -> Result<u8> {
            if t == "-" {
                return Ok(0);
            }
            let mut mask = 0u8;
            for c in t.split(',') {
                let bit = 1 << card(c)?;
                if mask & bit != 0 {
                    return Err(bad("a card twice"));
                }
                mask |= bit;
            }
            Ok(mask)
        };
        let play = |t: &str| if t == "-" { Ok(NONE) } else { card(t) };
        let hands =
            [hand(field(p0, "p0:").ok_or_else(|| bad("p0:"))?)?, hand(field(p1, "p1:").ok_or_else(|| bad("p1:"))?)?];
        let played = [
            play(field(led, "led:").ok_or_else(|| bad("led:"))?)?,
            play(field(answer, "answer:").ok_or_else(|| bad("answer:"))?)?,
        ];
        let (n0, n1) = (hands[0].count_ones(), hands[1].count_ones());
        if hands[0] & hands[1] != 0 || n0 > HAND || !(n0 == n1 || n0 == n1 + 1) {
            return Err(bad("the deal alternates from P0, two cards each"));
        }
        let dealt = n0 + n1 == 2 * HAND;
        for p in 0..2 {
            if played[p] != NONE && (!dealt || hands[p] & (1 << played[p]) == 0) {
                return Err(bad("a card played is its player's, after the deal"));
            }
        }
        if played[0] == NONE && played[1] != NONE {
            return Err(bad("P1 answers a lead"));
        }
        Ok(State { hands, played })
    }

    /// Four cards dealt and two played.
    fn max_game_length(&self) -> u64 {
        2 * HAND as u64 + 2
    }
}

/// The cards of a mask, ascending.
fn cards(mask: u8) -> impl Iterator<Item = u8> {
    (0..CARDS).filter(move |c| mask & (1 << c) != 0)
}

fn card_text(card: u8) -> String {
    if card == NONE {
        "-".into()
    } else {
        card.to_string()
    }
}

impl State {
    fn dealt(&self) -> u32 {
        self.hands[0].count_ones() + self.hands[1].count_ones()
    }

    /// The winning seat once both have played.
    fn trick_winner(&self) -> Option<usize> {
        match self.played {
            [a, b] if a != NONE && b != NONE => Some(usize::from(b > a)),
            _ => None,
        }
    }

    fn check_player(player: usize) -> Result<()> {
        if player < 2 {
            Ok(())
        } else {
            Err(Error::InvalidValue(format!("player must be 0 or 1, got {player}")))
        }
    }

    /// What `player` knows (and sees: nothing is ever hidden again once shown).
    fn view(&self, player: usize) -> Result<String> {
        Self::check_player(player)?;
        let own: Vec<String> = cards(self.hands[player]).map(|c| c.to_string()).collect();
        Ok(format!(
            "P{player} hand:{} dealt:{} led:{} answer:{}",
            own.join(","),
            self.dealt(),
            card_text(self.played[0]),
            card_text(self.played[1])
        ))
    }

    fn view_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        Self::check_player(player)?;
        if out.len() != HighCard::INFO_TENSOR_SIZE {
            return Err(Error::InvalidValue(format!("the tensor needs {} floats", HighCard::INFO_TENSOR_SIZE)));
        }
        out.fill(0.0);
        for c in cards(self.hands[player]) {
            out[c as usize] = 1.0;
        }
        for (k, &c) in self.played.iter().enumerate() {
            if c != NONE {
                out[6 + 6 * k + c as usize] = 1.0;
            }
        }
        out[18 + self.dealt() as usize] = 1.0;
        Ok(())
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialize())
    }
}

impl GameState for State {
    type Game = HighCard;

    fn game(&self) -> HighCard {
        HighCard
    }

    fn current_player(&self) -> Player {
        if self.dealt() < 2 * HAND {
            CHANCE
        } else if self.played[0] == NONE {
            0
        } else if self.played[1] == NONE {
            1
        } else {
            TERMINAL
        }
    }

    fn fill_legal_actions(&self, out: &mut ActionList) {
        out.clear();
        let mask = match self.current_player() {
            CHANCE => !(self.hands[0] | self.hands[1]) & 0b11_1111,
            TERMINAL => 0,
            p => self.hands[p as usize],
        };
        for c in cards(mask) {
            out.push(c as u16);
        }
    }

    fn is_legal(&self, action: u16) -> bool {
        self.legal_actions().contains(&action)
    }

    fn apply_legal(&mut self, action: u16) {
        let card = action as u8;
        match self.current_player() {
            CHANCE => {
                let to = if self.hands[0].count_ones() > self.hands[1].count_ones() { 1 } else { 0 };
                self.hands[to] |= 1 << card;
            }
            p if p >= 0 => self.played[p as usize] = card,
            _ => {}
        }
    }

    fn sample_chance(&self, rng: &mut Rng) -> Option<u16> {
        if !self.is_chance_node() {
            return None;
        }
        let legal = self.legal_actions();
        Some(legal[rng.below(legal.len() as u32) as usize])
    }

    fn player_return(&self, player: usize) -> f64 {
        match self.trick_winner() {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    /// Only the answer scores, and it ends the game.
    fn player_reward(&self, player: usize) -> f64 {
        self.side_score(player) as f64
    }

    fn side_score(&self, side: usize) -> u64 {
        u64::from(self.trick_winner() == Some(side))
    }

    fn points_by_source(&self, side: usize, source: usize) -> u64 {
        if source == 0 {
            self.side_score(side)
        } else {
            0
        }
    }

    fn winner(&self) -> Option<usize> {
        self.trick_winner()
    }

    fn game_value(&self) -> u64 {
        u64::from(self.trick_winner().is_some())
    }

    /// P1 deals (P0 is dealt the first card and leads).
    fn dealer(&self) -> Option<usize> {
        Some(1)
    }

    fn deals(&self) -> u32 {
        1
    }

    fn phase_name(&self) -> &'static str {
        match self.current_player() {
            CHANCE => "deal",
            TERMINAL => "game-over",
            _ => "play",
        }
    }

    fn information_state_string(&self, player: usize) -> Result<String> {
        self.view(player)
    }

    fn observation_string(&self, player: usize) -> Result<String> {
        self.view(player)
    }

    fn information_state_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        self.view_tensor(player, out)
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<()> {
        self.view_tensor(player, out)
    }

    /// The other player's cards not yet shown redealt from those `player` has not seen.
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Result<State> {
        Self::check_player(player)?;
        let other = 1 - player;
        let shown = if self.played[other] == NONE { 0 } else { 1 << self.played[other] };
        let mut unseen: Vec<u8> = cards(!(self.hands[player] | shown) & 0b11_1111).collect();
        let mut hand = shown;
        for _ in 0..(self.hands[other] & !shown).count_ones() {
            let card = unseen.swap_remove(rng.below(unseen.len() as u32) as usize);
            hand |= 1 << card;
        }
        let mut out = *self;
        out.hands[other] = hand;
        Ok(out)
    }

    fn serialize(&self) -> String {
        let hand = |m: u8| {
            let list: Vec<String> = cards(m).map(|c| c.to_string()).collect();
            if list.is_empty() {
                "-".to_string()
            } else {
                list.join(",")
            }
        };
        format!(
            "p0:{} p1:{} led:{} answer:{}",
            hand(self.hands[0]),
            hand(self.hands[1]),
            card_text(self.played[0]),
            card_text(self.played[1])
        )
    }

    fn action_to_string(&self, action: u16) -> Result<String> {
        self.action_cards(action).map(|_| format!("c{action}"))
    }

    fn string_to_action(&self, text: &str) -> Result<u16> {
        match text.trim().as_bytes() {
            [b'c', d @ b'0'..=b'5'] => Ok((d - b'0') as u16),
            _ => Err(Error::InvalidValue(format!("not a high card action: {text:?}"))),
        }
    }

    fn action_cards(&self, action: u16) -> Result<Vec<u16>> {
        if action < CARDS as u16 {
            Ok(vec![action])
        } else {
            Err(Error::InvalidValue(format!("no high card action {action}")))
        }
    }
}
