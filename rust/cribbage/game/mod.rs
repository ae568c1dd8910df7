//! The cribbage game engine: a state machine for search, RL and fast playouts.
//!
//! One engine plays the four games of `docs/rules/cribbage.md` §4 ([`Variant`]): two-player
//! five-card cribbage (the source's game: 61 points, one count, three for last), six-card
//! cribbage, and the three- and four-player games (partners 0 & 2 against 1 & 3, shared score).
//! Every point is scored by the cribbage core ([`peg_points`](super::peg_points),
//! [`score_show_unchecked`](super::score_show_unchecked)).
//!
//! The API uses OpenSpiel's names. A [`State`] is a small `Copy` struct (no heap, so `clone` is
//! a memcpy and search keeps copies; [`StateStack`] gives `undo`).
//!
//! # Phases and who acts
//!
//! | phase | actor | actions |
//! |---|---|---|
//! | cut for the first deal | chance, once per player (seat order) | card id of the cut |
//! | deal | chance, one card at a time, starting left of the dealer (3p: then one card to the crib) | card id |
//! | discard | each player in turn from the dealer's left, dealer last | a pair action (2p) or a card id (3p/4p) |
//! | starter | chance | card id; a jack gives the dealer 2 at once (his heels) |
//! | play | the player to lay | a card id, or [`GO`] |
//! | game over | [`TERMINAL`] | none |
//!
//! The show is automatic: after the last card of the play the hands are pegged one at a time
//! (left of the dealer first, the dealer's hand, then the crib), and the next deal begins (the
//! deal passes left). Points are pegged the moment they are made and **the first side to reach
//! the target wins at once**, in the play or in the show: show order decides close finishes.
//!
//! # The play (rules §3)
//!
//! A player with cards, none of which fits (count + pips ≤ 31), must say go ([`GO`] is then his
//! only legal action, and is illegal otherwise). A player who said go sits out the rest of the
//! sequence; the others keep laying every card they can, each scoring normally. When no one can
//! lay, the last card of the sequence scores 1 (a 31 scores its 2 and nothing more): exactly one
//! go/last-card point per sequence. Players with no cards left are skipped without an action.
//! In the six-card, three- and four-player games the count then resets to 0 and the player after
//! the one who laid the last card leads, until every card is laid (the last card of the play
//! scores 1 unless it made 31). In the five-card game there is one count only: the play ends at
//! the first 31 or when no one can lay; unplayed cards stay in hand and are shown with the rest.
//!
//! ```
//! use cribpiquet::engine::{Game, GameState};
//! use cribpiquet::cribbage::{GameConfig, Variant, CHANCE};
//! use cribpiquet::rng::Rng;
//!
//! let game = GameConfig::new(Variant::SixCard, None).unwrap();
//! let mut state = game.new_initial_state();
//! assert_eq!(state.current_player(), CHANCE);
//! let mut rng = Rng::new(1);
//! while !state.is_terminal() {
//!     let legal = state.legal_actions();
//!     let action = legal[rng.below(legal.len() as u32) as usize];
//!     state.apply_action(action).unwrap();
//! }
//! let scores = state.scores();
//! assert!(scores[0] >= 121 || scores[1] >= 121);
//! ```

mod actions;
mod info;
mod serial;
mod view;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use super::card::{id_to_index, index_to_id, Card, Hand, FULL_PACK};
use super::peg::peg_points_unchecked;
use super::show::score_show_unchecked;
use crate::engine::{player_text, ActionList, Game, GameState, Player, CHANCE, MAX_DRAW_ROUNDS, TERMINAL};
use crate::error::{Error, Result};
use crate::names::named_enum;
use crate::rng::Rng;

pub use actions::{action_pair, pair_action, GO, NUM_DISTINCT_ACTIONS, NUM_PAIRS, PAIR_BASE};
pub use info::{INFO_TENSOR_SIZE, OBS_TENSOR_SIZE};

/// The largest number of players of any variant; per-player arrays have this length, entries
/// at and beyond [`State::num_players`] are zero.
pub const MAX_PLAYERS: usize = 4;

const NO_CARD: u8 = 0xFF;
const NO_PLAYER: u8 = 0xFF;
/// At most 16 cards are laid in a deal (4 players × 4 kept cards).
const MAX_PLAYS: usize = 16;

/// Pip value by mask bit (0 for the unused bits).
const PIPS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let rank = i % 16;
        if rank < 13 {
            t[i] = if rank + 1 < 10 { rank as u8 + 1 } else { 10 };
        }
        i += 1;
    }
    t
};

/// `FITS[m]`: the cards whose pips are at most `m` (m = 0..=31).
const FITS: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut m = 0;
    while m < 32 {
        let mut mask = 0u64;
        let mut i = 0;
        while i < 64 {
            if PIPS[i] != 0 && PIPS[i] as usize <= m {
                mask |= 1u64 << i;
            }
            i += 1;
        }
        t[m] = mask;
        m += 1;
    }
    t
};

#[inline(always)]
fn pips_of(index: u32) -> u8 {
    PIPS[(index & 63) as usize]
}

named_enum! {
    /// The four games of `docs/rules/cribbage.md` §4.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Variant {
        /// Two players, 5 dealt, 2 discarded (3 kept), game 61, one count to 31, three for last.
        FiveCard => "five-card",
        /// Two players, 6 dealt, 2 discarded, game 121.
        SixCard => "six-card",
        /// Three players, 5 dealt each and 1 from the pack to the crib, 1 discarded, game 121.
        ThreePlayer => "three-player",
        /// Four players, partners 0 & 2 against 1 & 3 (shared score), 5 dealt, 1 discarded, 121.
        FourPlayer => "four-player",
    }
}

impl Variant {
    /// Number of players.
    pub fn num_players(self) -> usize {
        match self {
            Variant::FiveCard | Variant::SixCard => 2,
            Variant::ThreePlayer => 3,
            Variant::FourPlayer => 4,
        }
    }

    /// Number of sides (scores): 2, 2, 3, 2.
    pub fn num_sides(self) -> usize {
        match self {
            Variant::ThreePlayer => 3,
            _ => 2,
        }
    }

    /// The side (score) of a player: the player, or `player % 2` in the four-player game.
    pub fn side_of(self, player: usize) -> usize {
        match self {
            Variant::FourPlayer => player % 2,
            _ => player,
        }
    }

    /// Cards dealt to each player.
    pub fn cards_dealt(self) -> usize {
        match self {
            Variant::SixCard => 6,
            _ => 5,
        }
    }

    /// Cards each player discards to the crib.
    pub fn discards(self) -> usize {
        match self {
            Variant::FiveCard | Variant::SixCard => 2,
            _ => 1,
        }
    }

    /// Cards each player keeps (and shows).
    pub fn kept(self) -> usize {
        self.cards_dealt() - self.discards()
    }

    /// Cards dealt from the pack straight to the crib (1 in the three-player game).
    pub fn crib_from_pack(self) -> usize {
        (self == Variant::ThreePlayer) as usize
    }

    /// The usual game target: 61 (five-card) or 121.
    pub fn default_target(self) -> u16 {
        match self {
            Variant::FiveCard => 61,
            _ => 121,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = Error;

    /// `"five-card"`, `"six-card"`, `"three-player"`, `"four-player"` (any case, `_` for `-`).
    fn from_str(text: &str) -> Result<Variant> {
        let norm = text.trim().to_ascii_lowercase().replace('_', "-");
        Variant::by_name(&norm).ok_or_else(|| {
            Error::InvalidValue(format!(
                "unknown cribbage variant {text:?} (known: five-card, six-card, three-player, four-player)"
            ))
        })
    }
}

/// The largest game target accepted (scores are `u16`; a game to 10,000 is already ~800 deals).
pub const MAX_TARGET: u16 = 10_000;

/// A game: the variant and the target score. OpenSpiel's `Game`.
///
/// ```
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::cribbage::{GameConfig, Variant};
/// let game = GameConfig::new(Variant::FiveCard, None).unwrap();
/// assert_eq!((game.target(), game.num_players()), (61, 2));
/// assert!(GameConfig::new(Variant::SixCard, Some(0)).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameConfig {
    variant: Variant,
    target: u16,
    lurch: bool,
    /// The first dealer, or [`NO_PLAYER`]: the cut decides (rules §4).
    first_dealer: u8,
}

impl Default for GameConfig {
    /// Six-card cribbage to 121.
    fn default() -> GameConfig {
        GameConfig { variant: Variant::SixCard, target: 121, lurch: false, first_dealer: NO_PLAYER }
    }
}

impl GameConfig {
    /// The game `variant` played to `target` (default 61 for five-card, else 121; must be
    /// `1..=MAX_TARGET`).
    pub fn new(variant: Variant, target: Option<u32>) -> Result<GameConfig> {
        let target = match target {
            None => variant.default_target(),
            Some(t) if (1..=MAX_TARGET as u32).contains(&t) => t as u16,
            Some(t) => {
                return Err(Error::InvalidValue(format!("the target must be 1..={MAX_TARGET}, got {t}")));
            }
        };
        Ok(GameConfig { variant, target, lurch: false, first_dealer: NO_PLAYER })
    }

    /// This config with the first dealer chosen: `None` (the default) draws him by the cut, as
    /// the rules do (rules §4: lowest card deals, ties re-cut); `Some(p)` skips the cut — the game
    /// starts at the first deal with `p` dealing (five-card: the pone's three for last first).
    /// An error if `p` is not a player of the variant.
    ///
    /// ```
    /// use cribpiquet::cribbage::{GameConfig, Phase};
    /// use cribpiquet::engine::{Game, GameState};
    /// let game = GameConfig::default().with_first_dealer(Some(1)).unwrap();
    /// let start = game.new_initial_state();
    /// assert_eq!((start.phase(), start.dealer()), (Phase::Deal, Some(1)));
    /// assert!(GameConfig::default().with_first_dealer(Some(2)).is_err());
    /// ```
    pub fn with_first_dealer(mut self, first_dealer: Option<usize>) -> Result<GameConfig> {
        self.first_dealer = match first_dealer {
            None => NO_PLAYER,
            Some(p) if p < self.variant.num_players() => p as u8,
            Some(p) => {
                return Err(Error::InvalidValue(format!(
                    "first_dealer must be a player of {} (0..{}), got {p}",
                    self.variant,
                    self.variant.num_players() - 1
                )))
            }
        };
        Ok(self)
    }

    /// The chosen first dealer, or `None`: the cut decides.
    pub fn first_dealer(self) -> Option<usize> {
        (self.first_dealer != NO_PLAYER).then_some(self.first_dealer as usize)
    }

    /// This config with the lurch/skunk match extra switched on or off (rules §4): the game
    /// counts double when the losing side ends more than 30 short of the target (121-point
    /// games: under 91; 61-point games: under 31, "lurch") and triple, in games to 121 or more,
    /// when it ends more than 60 short (under 61). It scales [`State::returns`].
    pub fn with_lurch(mut self, lurch: bool) -> GameConfig {
        self.lurch = lurch;
        self
    }

    /// Whether the lurch/skunk extra is on.
    pub fn lurch(self) -> bool {
        self.lurch
    }

    /// What a win counts with the lurch/skunk extra when the best losing side has
    /// `loser_score`: 1, 2 (lurch, skunk) or 3 (double skunk, games to 121 or more only).
    ///
    /// ```
    /// use cribpiquet::cribbage::{GameConfig, Variant};
    /// let six = GameConfig::new(Variant::SixCard, None).unwrap();
    /// assert_eq!((six.lurch_multiplier(91), six.lurch_multiplier(90), six.lurch_multiplier(60)), (1, 2, 3));
    /// let five = GameConfig::new(Variant::FiveCard, None).unwrap();
    /// assert_eq!((five.lurch_multiplier(31), five.lurch_multiplier(30), five.lurch_multiplier(0)), (1, 2, 2));
    /// ```
    pub fn lurch_multiplier(self, loser_score: u16) -> u8 {
        let short = self.target.saturating_sub(loser_score);
        if short > 60 && self.target >= 121 {
            3
        } else if short > 30 {
            2
        } else {
            1
        }
    }

    /// The variant.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// The score that wins.
    pub fn target(self) -> u16 {
        self.target
    }

    /// A state from [`State::serialize`] text (its own config is used).
    pub fn deserialize_state(self, text: &str) -> Result<State> {
        let state = State::deserialize(text)?;
        if state.config != self {
            let describe = |c: GameConfig| {
                let first = c.first_dealer().map_or(String::new(), |d| format!(", P{d} dealing first"));
                format!("{} to {}{}{first}", c.variant, c.target, if c.lurch { " with lurch" } else { "" })
            };
            return Err(Error::InvalidValue(format!(
                "the state is of {}, not {}",
                describe(state.config),
                describe(self)
            )));
        }
        Ok(state)
    }
}

named_enum! {
    /// Where the game is; the show is automatic and has no phase of its own.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Phase {
        /// Cutting for the first deal (chance: each player cuts, lowest deals, ties re-cut).
        Cut => "cut",
        /// Dealing (chance: one card at a time).
        Deal => "deal",
        /// Players discard to the crib, from the dealer's left.
        Discard => "discard",
        /// Turning the starter (chance).
        Starter => "starter",
        /// The play (pegging).
        Play => "play",
        /// Someone reached the target.
        GameOver => "game-over",
    }
}

named_enum! {
    /// Where points come from (for statistics: [`State::points_by_source`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum PointSource {
        /// The play: fifteens, pairs, runs, 31, go and last card.
        Pegging = 0 => "pegging",
        /// Shown hands.
        Hand = 1 => "hand",
        /// The crib.
        Crib = 2 => "crib",
        /// His heels (a jack turned as the starter).
        Heels = 3 => "heels",
        /// Five-card cribbage's three for last.
        ThreeForLast = 4 => "three_for_last",
    }
}

/// A cribbage game state: a `Copy` struct of fixed arrays and bitmask hands (no heap).
///
/// Scores are per side and not capped (the winner may pass the target). Card masks use the
/// core's bit layout (`suit * 16 + rank`); the public API speaks card ids (`suit * 13 + rank`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    config: GameConfig,
    phase: Phase,
    n: u8,
    /// The dealer, or NO_PLAYER before the first cut is decided.
    dealer: u8,
    /// Cut: next player to cut; discard/play: the player to act; otherwise cosmetic.
    turn: u8,
    /// Cut: the players cutting in this round.
    cutting: u8,
    /// The card each player last cut (mask bit), or NO_CARD.
    cuts: [u8; 4],
    /// Cards out of the pack this deal: hands (played or not), discards, crib, starter.
    used: u64,
    /// Unplayed cards.
    hands: [u64; 4],
    /// Cards dealt and not discarded (what is shown), played or not.
    kept: [Hand; 4],
    /// The crib cards each player gave.
    discards: [u64; 4],
    /// The crib: every discard, plus the card from the pack in the three-player game.
    crib: Hand,
    /// The starter (mask bit) or NO_CARD.
    starter: u8,
    /// The running count of the current sequence.
    count: u8,
    /// Players who said go in the current sequence.
    passed: u8,
    /// The lowest count at which each player said go this deal (0: never). A go at count c
    /// shows that every card then held has more than 31 − c pips (used by resampling).
    go_min: [u8; 4],
    n_plays: u8,
    /// Index in `plays` of the first card of the current sequence.
    seq_start: u8,
    /// Cards laid this deal, in order.
    plays: [Card; MAX_PLAYS],
    /// Who laid each of them.
    play_seats: [u8; MAX_PLAYS],
    /// Cards dealt so far this deal (hands, then the crib card).
    dealt: u8,
    /// Players who have discarded this deal.
    discarded: u8,
    /// The winning side, or NO_PLAYER.
    winner: u8,
    /// Deals begun.
    deals: u16,
    scores: [u16; 3],
    sources: [[u16; 5]; 3],
    /// Points made by the last action, per side.
    rewards: [u16; 3],
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({})", self.serialize())
    }
}

/// `"-"` for no cards, else the cards' text.
fn cards_text(hand: Hand) -> String {
    if hand.is_empty() {
        "-".into()
    } else {
        hand.to_string()
    }
}

impl State {
    /// The players of a side, `"P0+P2"`.
    fn seat_list(&self, side: usize) -> String {
        let n = self.num_players();
        (0..n).filter(|&q| self.side_of(q) == side).map(|q| format!("P{q}")).collect::<Vec<_>>().join("+")
    }

    /// `"P0 12, P1 30"`: each side's score.
    pub(crate) fn scores_text(&self) -> String {
        self.side_scores()
            .iter()
            .enumerate()
            .map(|(side, s)| format!("{} {s}", self.seat_list(side)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every card on the table and in the hands, for a human debugging (omniscient):
///
/// ```text
/// six-card cribbage to 121, deal 1, phase play, dealer P1, to move P0
/// scores: P0 0, P1 2
/// P0: hand 5H 9C JD | shows 5H 9C JD KS | gave 2C 3C
/// …
/// ```
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dealer = self.dealer().map(|d| format!("P{d}")).unwrap_or_else(|| "-".into());
        writeln!(
            f,
            "{} cribbage to {}, deal {}, phase {}, dealer {dealer}, to move {}",
            self.variant(),
            self.config.target(),
            self.deals,
            self.phase.name(),
            player_text(self.current_player())
        )?;
        write!(f, "scores: {}", self.scores_text())?;
        if let Some(w) = self.winner() {
            write!(f, " (winner {})", self.seat_list(w))?;
        }
        writeln!(f)?;
        if self.deals == 0 {
            let cuts: Vec<String> = self
                .cut_cards()
                .iter()
                .take(self.num_players())
                .enumerate()
                .map(|(p, c)| format!("P{p} {}", c.map(|c| c.to_string()).unwrap_or_else(|| "-".into())))
                .collect();
            return write!(f, "cut: {}", cuts.join(", "));
        }
        for p in 0..self.num_players() {
            writeln!(
                f,
                "P{p}: hand {} | shows {} | gave {}",
                cards_text(self.hand(p)),
                cards_text(self.kept(p)),
                cards_text(self.discards(p))
            )?;
        }
        let starter = self.starter().map(|c| c.to_string()).unwrap_or_else(|| "-".into());
        writeln!(f, "crib: {} | starter {starter}", cards_text(self.crib()))?;
        let plays: Vec<String> = self.plays().map(|(p, c)| format!("P{p} {c}")).collect();
        write!(f, "play: {} | count {}", if plays.is_empty() { "-".into() } else { plays.join(", ") }, self.count)
    }
}

impl State {
    /// The state before the cut for the first deal (chance node: player 0 cuts first), or, with
    /// a chosen first dealer ([`GameConfig::with_first_dealer`]), before the first deal.
    pub fn new(config: GameConfig) -> State {
        let n = config.variant.num_players() as u8;
        let mut state = State {
            config,
            phase: Phase::Cut,
            n,
            dealer: NO_PLAYER,
            turn: 0,
            cutting: (1u8 << n) - 1,
            cuts: [NO_CARD; 4],
            used: 0,
            hands: [0; 4],
            kept: [Hand::new(); 4],
            discards: [0; 4],
            crib: Hand::new(),
            starter: NO_CARD,
            count: 0,
            passed: 0,
            go_min: [0; 4],
            n_plays: 0,
            seq_start: 0,
            plays: [Card::from_index(0); MAX_PLAYS],
            play_seats: [0; MAX_PLAYS],
            dealt: 0,
            discarded: 0,
            winner: NO_PLAYER,
            deals: 0,
            scores: [0; 3],
            sources: [[0; 5]; 3],
            rewards: [0; 3],
        };
        if let Some(dealer) = config.first_dealer() {
            state.cutting = 0;
            state.dealer = dealer as u8;
            // Five-card's three for last is then made before any action: the initial state's
            // rewards show it (as the last cut's did).
            state.first_deal();
        }
        state
    }

    // ---- read-only accessors -------------------------------------------------------------

    /// The game (variant and target).
    pub fn config(&self) -> GameConfig {
        self.config
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.config.variant
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The running count of the play.
    pub fn count(&self) -> u8 {
        self.count
    }

    /// The starter, once turned.
    pub fn starter(&self) -> Option<Card> {
        (self.starter != NO_CARD).then(|| Card::from_index(self.starter as u32))
    }

    /// The unplayed cards of `player` (empty for an unknown player).
    pub fn hand(&self, player: usize) -> Hand {
        match self.hands.get(player) {
            Some(&mask) if player < self.num_players() => Hand::from_mask(mask).unwrap_or_default(),
            _ => Hand::new(),
        }
    }

    /// The cards `player` keeps for the show (dealt, not discarded; played or not).
    pub fn kept(&self, player: usize) -> Hand {
        if player < self.num_players() {
            self.kept[player]
        } else {
            Hand::new()
        }
    }

    /// The crib cards `player` gave.
    pub fn discards(&self, player: usize) -> Hand {
        match self.discards.get(player) {
            Some(&mask) if player < self.num_players() => Hand::from_mask(mask).unwrap_or_default(),
            _ => Hand::new(),
        }
    }

    /// The crib so far.
    pub fn crib(&self) -> Hand {
        self.crib
    }

    /// The card each player cut for the deal (the last round of cutting), by player.
    pub fn cut_cards(&self) -> [Option<Card>; MAX_PLAYERS] {
        self.cuts.map(|c| (c != NO_CARD).then(|| Card::from_index(c as u32)))
    }

    /// The cards laid this deal, in order, with who laid them.
    pub fn plays(&self) -> impl Iterator<Item = (usize, Card)> + '_ {
        (0..self.n_plays as usize).map(|i| (self.play_seats[i] as usize, self.plays[i]))
    }

    /// The cards of the current sequence (since the count was last reset).
    pub fn current_sequence(&self) -> &[Card] {
        &self.plays[self.seq_start as usize..self.n_plays as usize]
    }

    /// Has `player` said go in the current sequence?
    pub fn has_passed(&self, player: usize) -> bool {
        player < 8 && self.passed >> player & 1 == 1
    }

    /// The score of each side (index = side; 2 or 3 sides).
    pub fn side_scores(&self) -> &[u16] {
        &self.scores[..self.config.variant.num_sides()]
    }

    /// Points of each side by source: `[side][PointSource as usize]`.
    pub fn points_by_source(&self) -> [[u16; 5]; 3] {
        self.sources
    }

    /// What the finished game counts: 1, or with the lurch/skunk extra on
    /// ([`GameConfig::with_lurch`]) 2 or 3 by the best losing side's score; 0 before the end.
    fn value(&self) -> u8 {
        if self.winner == NO_PLAYER {
            return 0;
        }
        if !self.config.lurch {
            return 1;
        }
        let sides = self.config.variant.num_sides();
        let best_loser = (0..sides).filter(|&s| s != self.winner as usize).map(|s| self.scores[s]).max().unwrap_or(0);
        self.config.lurch_multiplier(best_loser)
    }

    #[inline]
    fn mover(&self) -> Player {
        match self.phase {
            Phase::Discard | Phase::Play => self.turn as Player,
            Phase::GameOver => TERMINAL,
            _ => CHANCE,
        }
    }

    /// The player who receives the next card dealt (`None` for the crib card or outside the deal).
    pub fn next_recipient(&self) -> Option<usize> {
        let n = self.num_players();
        let to_hands = n * self.config.variant.cards_dealt();
        (self.phase == Phase::Deal && (self.dealt as usize) < to_hands)
            .then(|| (self.dealer as usize + 1 + self.dealt as usize) % n)
    }

    // ---- actions ---------------------------------------------------------------------------

    /// Cards still in the pack for a chance event: cards not on the table (cut) or not out of
    /// the pack (deal, starter).
    #[inline]
    fn chance_mask(&self) -> u64 {
        match self.phase {
            Phase::Cut => FULL_PACK & !self.cut_mask(),
            Phase::Deal | Phase::Starter => FULL_PACK & !self.used,
            _ => 0,
        }
    }

    fn cut_mask(&self) -> u64 {
        self.cuts.iter().filter(|&&c| c != NO_CARD).fold(0, |m, &c| m | 1u64 << (c & 63))
    }

    /// The mover's cards that fit under 31.
    #[inline]
    fn playable(&self) -> u64 {
        self.hands[self.turn as usize & 3] & FITS[(31 - self.count.min(31)) as usize]
    }

    /// One chance outcome drawn uniformly (rejection sampling over the pack: no list is
    /// built), or `None` if this is not a chance node.
    /// Draw a chance outcome and apply it at once (what [`GameState::sample_chance`]
    /// then [`GameState::apply_action`] do, with the same draws, minus the second
    /// legality check): the playout fast path. `None` (and no change) if this is not a chance node.
    #[inline]
    pub fn apply_sampled_chance(&mut self, rng: &mut Rng) -> Option<u16> {
        let mask = self.chance_mask();
        if mask == 0 {
            return None;
        }
        let (id, index) = loop {
            let id = rng.below(52) as u16;
            let index = id_to_index(id);
            if mask >> index & 1 == 1 {
                break (id, index);
            }
        };
        self.rewards = [0; 3];
        match self.phase {
            Phase::Cut => self.apply_cut(index),
            Phase::Deal => self.apply_deal(index),
            _ => self.apply_starter(index),
        }
        Some(id)
    }

    /// Play every chance event up to the next decision (or the end) with
    /// [`apply_sampled_chance`](State::apply_sampled_chance); returns how many were applied.
    /// A whole deal is one tight loop: the playout fast path.
    #[inline]
    pub fn apply_sampled_chances(&mut self, rng: &mut Rng) -> u32 {
        let mut applied = 0;
        while self.apply_sampled_chance(rng).is_some() {
            applied += 1;
        }
        applied
    }

    /// Peg points for a side; returns true (and ends the game) if it reaches the target.
    #[inline]
    fn award(&mut self, side: usize, points: u8, source: PointSource) -> bool {
        if points == 0 {
            return false;
        }
        let side = side.min(2);
        self.scores[side] = self.scores[side].saturating_add(points as u16);
        self.sources[side][source as usize] = self.sources[side][source as usize].saturating_add(points as u16);
        self.rewards[side] = self.rewards[side].saturating_add(points as u16);
        if self.scores[side] >= self.config.target {
            self.winner = side as u8;
            self.phase = Phase::GameOver;
            return true;
        }
        false
    }

    fn apply_cut(&mut self, index: u32) {
        let p = self.turn as usize & 3;
        self.cuts[p] = index as u8;
        // The next cutter of this round, in seat order.
        let later = self.cutting as u32 & !((2u32 << p) - 1);
        if later != 0 {
            self.turn = later.trailing_zeros() as u8;
            return;
        }
        // Everyone in the round has cut: lowest rank deals; ties re-cut among the tied.
        let mut lowest = 13u8;
        let mut tied = 0u8;
        for q in 0..self.num_players() {
            if self.cutting >> q & 1 == 1 {
                let rank = self.cuts[q] & 15;
                if rank < lowest {
                    lowest = rank;
                    tied = 1 << q;
                } else if rank == lowest {
                    tied |= 1 << q;
                }
            }
        }
        if tied.count_ones() > 1 {
            for q in 0..self.num_players() {
                if tied >> q & 1 == 1 {
                    self.cuts[q] = NO_CARD;
                }
            }
            self.cutting = tied;
            self.turn = tied.trailing_zeros() as u8;
            return;
        }
        self.cutting = 0;
        self.dealer = tied.trailing_zeros() as u8;
        self.first_deal();
    }

    /// The first dealer is known: five-card's three for last, then the first deal.
    fn first_deal(&mut self) {
        if self.config.variant == Variant::FiveCard {
            // Three for last: the first non-dealer pegs 3 once, at the start of the game.
            let pone = (self.dealer as usize + 1) % 2;
            if self.award(pone, 3, PointSource::ThreeForLast) {
                return;
            }
        }
        self.start_deal();
    }

    fn start_deal(&mut self) {
        self.phase = Phase::Deal;
        self.deals = self.deals.saturating_add(1);
        self.used = 0;
        self.hands = [0; 4];
        self.kept = [Hand::new(); 4];
        self.discards = [0; 4];
        self.crib = Hand::new();
        self.starter = NO_CARD;
        self.count = 0;
        self.passed = 0;
        self.go_min = [0; 4];
        self.n_plays = 0;
        self.seq_start = 0;
        // Cleared so that equal games are equal states (serialize writes only the laid cards).
        self.plays = [Card::from_index(0); MAX_PLAYS];
        self.play_seats = [0; MAX_PLAYS];
        self.dealt = 0;
        self.discarded = 0;
        self.turn = self.next_seat(self.dealer as usize) as u8;
    }

    /// The seat on the left of `q` (no division: this runs on every action).
    #[inline(always)]
    fn next_seat(&self, q: usize) -> usize {
        if q + 1 >= self.n as usize {
            0
        } else {
            q + 1
        }
    }

    fn apply_deal(&mut self, index: u32) {
        let v = self.config.variant;
        let to_hands = self.num_players() * v.cards_dealt();
        let i = self.dealt as usize;
        let card = Card::from_index(index);
        if i < to_hands {
            // `turn` is the recipient: the dealer's left first, round the table.
            let p = self.turn as usize & 3;
            self.hands[p] |= card.bit();
            self.kept[p].add(card);
            self.turn = self.next_seat(p) as u8;
        } else {
            self.crib.add(card);
        }
        self.used |= card.bit();
        self.dealt += 1;
        if self.dealt as usize == to_hands + v.crib_from_pack() {
            self.phase = Phase::Discard;
            self.discarded = 0;
            self.turn = self.next_seat(self.dealer as usize) as u8;
        }
    }

    fn discard_card(&mut self, p: usize, id: u16) {
        let card = Card::from_index(id_to_index(id));
        self.hands[p] &= !card.bit();
        self.kept[p].remove(card);
        self.discards[p] |= card.bit();
        self.crib.add(card);
    }

    fn apply_discard(&mut self, action: u16) {
        let p = self.turn as usize & 3;
        match action_pair(action) {
            Some((a, b)) => {
                self.discard_card(p, a);
                self.discard_card(p, b);
            }
            None => self.discard_card(p, action),
        }
        self.discarded += 1;
        if self.discarded == self.n {
            self.phase = Phase::Starter;
            self.turn = self.next_seat(self.dealer as usize) as u8;
        } else {
            self.turn = self.next_seat(p) as u8;
        }
    }

    fn apply_starter(&mut self, index: u32) {
        let card = Card::from_index(index);
        self.starter = index as u8;
        self.used |= card.bit();
        if card.is_jack() && self.award(self.side_of(self.dealer as usize), 2, PointSource::Heels) {
            return;
        }
        self.phase = Phase::Play;
        self.count = 0;
        self.passed = 0;
        self.n_plays = 0;
        self.seq_start = 0;
        self.turn = self.next_seat(self.dealer as usize) as u8;
    }

    fn apply_play(&mut self, index: u32) {
        let p = self.turn as usize & 3;
        let card = Card::from_index(index);
        self.hands[p] &= !card.bit();
        self.count += pips_of(index);
        let k = self.n_plays as usize & (MAX_PLAYS - 1);
        self.plays[k] = card;
        self.play_seats[k] = p as u8;
        self.n_plays += 1;
        let seq = &self.plays[self.seq_start as usize..self.n_plays as usize];
        let points = peg_points_unchecked(seq, self.count);
        if self.award(self.side_of(p), points, PointSource::Pegging) {
            return;
        }
        if self.count == 31 {
            self.end_sequence(false);
        } else {
            self.advance(p);
        }
    }

    fn apply_go(&mut self) {
        let p = self.turn as usize & 3;
        self.passed |= 1 << p;
        if self.go_min[p] == 0 || self.count < self.go_min[p] {
            self.go_min[p] = self.count;
        }
        self.advance(p);
    }

    /// The next player after `from` (ending with `from` itself) who holds cards and has not
    /// said go moves; if there is none, the sequence ends with a go point.
    #[inline]
    fn advance(&mut self, from: usize) {
        let mut q = from;
        for _ in 0..self.n {
            q = self.next_seat(q);
            if self.hands[q] != 0 && self.passed >> q & 1 == 0 {
                self.turn = q as u8;
                return;
            }
        }
        self.end_sequence(true);
    }

    /// End the current sequence: the go (or last card) point unless it ended on 31, then a new
    /// count led by the player after the last to lay, or the show.
    fn end_sequence(&mut self, go_point: bool) {
        let last = self.play_seats[(self.n_plays as usize).wrapping_sub(1) & (MAX_PLAYS - 1)] as usize;
        if go_point && self.award(self.side_of(last), 1, PointSource::Pegging) {
            return;
        }
        let n = self.num_players();
        if self.config.variant == Variant::FiveCard || self.hands[..n].iter().all(|&h| h == 0) {
            self.show();
            return;
        }
        self.count = 0;
        self.passed = 0;
        self.seq_start = self.n_plays;
        let mut q = last;
        for _ in 0..n {
            q = self.next_seat(q);
            if self.hands[q] != 0 {
                self.turn = q as u8;
                return;
            }
        }
    }

    /// The show, in order (left of the dealer first, the dealer, the crib), then the next deal.
    fn show(&mut self) {
        let n = self.num_players();
        let dealer = self.dealer as usize;
        let starter = Card::from_index(self.starter as u32);
        let mut p = dealer;
        for _ in 0..n {
            p = self.next_seat(p);
            let points = score_show_unchecked(self.kept[p], starter, false);
            if self.award(self.side_of(p), points, PointSource::Hand) {
                return;
            }
        }
        let points = score_show_unchecked(self.crib, starter, true);
        if self.award(self.side_of(dealer), points, PointSource::Crib) {
            return;
        }
        self.dealer = self.next_seat(dealer) as u8;
        self.start_deal();
    }
}

impl Game for GameConfig {
    crate::engine::game_common!();

    const NAME: &'static str = "cribbage";
    const MAX_CHANCE_OUTCOMES: usize = 52;

    fn num_players(&self) -> usize {
        self.variant.num_players()
    }

    fn scores_source(&self, source: usize) -> bool {
        source < PointSource::NAMES.len()
            && (source != PointSource::ThreeForLast as usize || self.variant == Variant::FiveCard)
    }

    fn num_sides(&self) -> usize {
        self.variant.num_sides()
    }

    /// -1 (-0.5 in the three-player game), times 2 or 3 with lurch.
    fn min_utility(&self) -> f64 {
        -self.max_utility() / (self.variant.num_sides() as f64 - 1.0)
    }

    /// +1 for the winning side (2, or 3 in games to 121 or more, with lurch).
    fn max_utility(&self) -> f64 {
        if self.lurch {
            self.lurch_multiplier(0) as f64
        } else {
            1.0
        }
    }

    /// Deals × the actions of a deal, plus the cut. Every deal scores at least one point (its
    /// play ends with a go point, a last card or a 31), and the game ends once a side reaches
    /// the target, so before the last deal the sides hold at most `sides × (target − 1)` points:
    /// at most that many deals, plus the last. A deal is its dealt cards (the crib's from the
    /// pack included), one discard action a player, the starter, every kept card laid, and the
    /// goes: a player says go at most once a count, and each count lays a card (five-card: one
    /// count). The cut is one card a player a round, at most [`MAX_DRAW_ROUNDS`] rounds.
    fn max_game_length(&self) -> u64 {
        let v = self.variant;
        let n = v.num_players() as u64;
        let laid = n * v.kept() as u64;
        let counts = if v == Variant::FiveCard { 1 } else { laid };
        let deal = n * v.cards_dealt() as u64 + v.crib_from_pack() as u64 + n + 1 + laid + n * counts;
        let deals = v.num_sides() as u64 * (self.target as u64 - 1) + 1;
        let cut = if self.first_dealer().is_none() { n * MAX_DRAW_ROUNDS } else { 0 };
        deals * deal + cut
    }
}

/// The rules of cribbage on the engine framework; the methods not listed are provided by [`GameState`]
/// or written once for both engines by `crate::engine::game_state_common!`.
impl GameState for State {
    type Game = GameConfig;

    #[inline]
    fn num_players(&self) -> usize {
        self.n as usize
    }

    /// The player to act, [`CHANCE`] (cut, deal, starter) or [`TERMINAL`].
    #[inline]
    fn current_player(&self) -> Player {
        self.mover()
    }

    /// ```
    /// use cribpiquet::cribbage::GameConfig;
    /// use cribpiquet::engine::{Game, GameState};
    /// let state = GameConfig::default().new_initial_state();
    /// assert_eq!(state.legal_actions().len(), 52); // player 0 cuts any card
    /// ```
    #[inline]
    fn fill_legal_actions(&self, out: &mut ActionList) {
        out.clear();
        match self.phase {
            Phase::Cut | Phase::Deal | Phase::Starter => actions::push_cards(out, self.chance_mask()),
            Phase::Discard => {
                let hand = self.hands[self.turn as usize & 3];
                if self.config.variant.discards() == 2 {
                    actions::push_pairs(out, hand);
                } else {
                    actions::push_cards(out, hand);
                }
            }
            Phase::Play => {
                let fit = self.playable();
                if fit == 0 {
                    out.push(GO);
                } else {
                    actions::push_cards(out, fit);
                }
            }
            Phase::GameOver => {}
        }
    }

    #[inline]
    fn is_legal(&self, action: u16) -> bool {
        match self.phase {
            Phase::Cut | Phase::Deal | Phase::Starter => {
                action < 52 && self.chance_mask() >> id_to_index(action) & 1 == 1
            }
            Phase::Discard => {
                let hand = self.hands[self.turn as usize & 3];
                if self.config.variant.discards() == 2 {
                    match action_pair(action) {
                        Some((a, b)) => hand >> id_to_index(a) & 1 == 1 && hand >> id_to_index(b) & 1 == 1,
                        None => false,
                    }
                } else {
                    action < 52 && hand >> id_to_index(action) & 1 == 1
                }
            }
            Phase::Play => {
                let fit = self.playable();
                if action == GO {
                    fit == 0
                } else {
                    action < 52 && fit >> id_to_index(action) & 1 == 1
                }
            }
            Phase::GameOver => false,
        }
    }

    #[inline]
    fn apply_legal(&mut self, action: u16) {
        self.rewards = [0; 3];
        match self.phase {
            Phase::Cut => self.apply_cut(id_to_index(action)),
            Phase::Deal => self.apply_deal(id_to_index(action)),
            Phase::Discard => self.apply_discard(action),
            Phase::Starter => self.apply_starter(id_to_index(action)),
            Phase::Play => {
                if action == GO {
                    self.apply_go()
                } else {
                    self.apply_play(id_to_index(action))
                }
            }
            Phase::GameOver => {}
        }
    }

    #[inline]
    fn sample_chance(&self, rng: &mut Rng) -> Option<u16> {
        let mask = self.chance_mask();
        if mask == 0 {
            return None;
        }
        loop {
            let id = rng.below(52) as u16;
            if mask >> id_to_index(id) & 1 == 1 {
                return Some(id);
            }
        }
    }

    /// A whole deal in one tight loop: the playout fast path.
    #[inline]
    fn apply_sampled_chances(&mut self, rng: &mut Rng) -> u32 {
        let mut applied = 0;
        while self.apply_sampled_chance(rng).is_some() {
            applied += 1;
        }
        applied
    }

    /// 0 for everyone until the end; then the game's value (1, or 2/3 with lurch) for each
    /// player of the winning side and −value/(sides − 1) for the others (−½ each in the
    /// three-player game), so the returns sum to zero over the sides.
    fn player_return(&self, player: usize) -> f64 {
        if self.winner == NO_PLAYER || player >= self.n as usize {
            return 0.0;
        }
        let value = self.value() as f64;
        if self.config.variant.side_of(player) == self.winner as usize {
            value
        } else {
            -value / (self.config.variant.num_sides() as f64 - 1.0)
        }
    }

    /// The side's points (an automatic show after the last card of the play counts as part of
    /// that action).
    fn player_reward(&self, player: usize) -> f64 {
        if player >= self.n as usize {
            return 0.0;
        }
        self.rewards[self.config.variant.side_of(player)] as f64
    }

    fn side_of(&self, player: usize) -> usize {
        self.config.variant.side_of(player)
    }

    fn winner(&self) -> Option<usize> {
        (self.winner != NO_PLAYER).then_some(self.winner as usize)
    }

    fn game_value(&self) -> u64 {
        self.value() as u64
    }

    fn dealer(&self) -> Option<usize> {
        (self.dealer != NO_PLAYER).then_some(self.dealer as usize)
    }

    crate::engine::game_state_common!(actions: actions, chance_phases: Phase::Cut | Phase::Deal | Phase::Starter);
}

/// The undo stack for cribbage states (see [`crate::engine::StateStack`]).
pub type StateStack = crate::engine::StateStack<State>;
