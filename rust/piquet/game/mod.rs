//! The piquet game engine: a state machine for search, RL and fast playouts.
//!
//! One engine plays both rule sets of `docs/rules/piquet.md` (any [`Rules`]) in two scopes
//! ([`Scope`]): one deal, or the whole match (the russian partiya of koroliks, or the rubicon
//! partie of six deals). Every point is scored by the piquet core: the declarations by the
//! lane summaries behind [`DeclarationScorer`](super::DeclarationScorer) /
//! [`declaration_points`](super::declaration_points) (carte blanche judged on the dealt hand), the
//! play, pique, leza and capot by the same play tally as [`score_game`](super::score_game)
//! (`rust/piquet/play.rs`; the tests still check the two agree on random deals), the match by
//! [`Partiya`] and [`Partie`].
//!
//! The API uses OpenSpiel's names. A [`State`] is a small `Copy` struct (no heap, so `clone` is
//! a memcpy and search keeps copies; [`StateStack`] gives `undo`). Players are seats 0 and 1;
//! which seat is elder changes with the deal.
//!
//! # Phases and who acts
//!
//! | phase | actor | actions |
//! |---|---|---|
//! | cut (the draw for deal) | chance, seat 0 then seat 1 | card id; the lower rank deals, equal ranks draw again |
//! | deal | chance, one card at a time, elder first, alternately (24 cards) | card id |
//! | exchange | elder, then the dealer | [`EXCHANGE_BASE`]` + n`, `n` cards (0 declines) |
//! | discard | the exchanging player, `n` times | card id, **ascending**: each discard is above the previous one (one path per discarded set) |
//! | draw | chance, `n` times | card id of the talon card taken |
//! | announce | elder, then the dealer unless elder announced (rules with an open capot only) | [`ANNOUNCE_CAPOT`] or [`PASS`] |
//! | play | the player to play (elder leads the first trick, the winner of a trick the next) | card id; suit must be followed |
//! | game over | [`TERMINAL`] | none |
//!
//! **Compact dealing** (*decision*): the talon is not dealt as such. Talon cards nobody takes
//! are never seen (rules §2 *decision*), so a talon card is drawn from the cards still in the
//! pack at the moment it is taken: elder's part top first, then what he left and the dealer's
//! three — every card not yet dealt or taken is equally likely, as with a dealt talon. An exchange
//! of `n` takes `n` chance events; an untaken talon costs none.
//!
//! **Declarations** are automatic once the dealer's exchange is over (everything held is
//! declared, no sinking): both players hear every category's points (carte blanche, point,
//! sequences, sets, for each player) and the repique. Under
//! [`DeclarationTiming::DealerAfterFirstLead`] (rubicon) the dealer's points are credited after
//! elder's first lead (as [`score_game`](super::score_game) logs them); the information is
//! public at once.
//!
//! ```
//! use cribpiquet::engine::{Game, GameState};
//! use cribpiquet::piquet::{GameConfig, Rules, Scope, CHANCE};
//! use cribpiquet::rng::Rng;
//!
//! let game = GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
//! let mut state = game.new_initial_state();
//! assert_eq!(state.current_player(), CHANCE);
//! let mut rng = Rng::new(1);
//! while !state.is_terminal() {
//!     let legal = state.legal_actions();
//!     let action = legal[rng.below(legal.len() as u32) as usize];
//!     state.apply_action(action).unwrap();
//! }
//! let r = state.returns();
//! assert_eq!(r[0], -r[1]);
//! ```

mod actions;
mod info;
mod serial;
mod view;
#[cfg(test)]
mod tests;

use std::fmt;

use super::card::{suit_mask, FULL_PACK};
use super::compare::{points_of, repique_of};
use super::declare::{packed_lanes, reckoning, Summary};
use super::event::EventKind;
use super::partiya::{Partie, Partiya};
use super::play::{PlayPoints, PlaySink, PlayTally, TrickEnd};
use super::rules::{
    DeclarationTiming, MatchScoring, Role, Rules, CARTE_BLANCHE_POINTS, LEZA_BONUS, PIQUE_BONUS, REPIQUE_BONUS,
};
use crate::engine::{player_text, ActionList, Game, GameState, Player, CHANCE, MAX_DRAW_ROUNDS, TERMINAL};
use crate::error::{Error, Result};
use crate::names::named_enum;
use crate::rng::Rng;

pub use actions::{
    action_exchange_size, action_to_string, exchange_action, string_to_action, ANNOUNCE_CAPOT, EXCHANGE_BASE,
    MAX_EXCHANGE, NUM_CARDS, NUM_DISTINCT_ACTIONS, PASS,
};
pub use info::{INFO_TENSOR_SIZE, MAX_RESAMPLE_ATTEMPTS, OBS_TENSOR_SIZE};

const NO_CARD: u8 = 0xFF;
const NO_SEAT: u8 = 0xFF;
const NO_SIZE: u8 = 0xFF;
/// Court cards (J, Q, K) of every suit: a dealt hand without one is carte blanche.
const COURTS: u32 = 0x7070_7070;
/// Games of a partiya kept in the state (and in the information state): the first 16.
pub const MAX_GAMES: usize = 16;
/// The most koroliks a partiya may have in [`Scope::Partiya`] (so every game fits the record).
pub const MAX_KOROLIKS: u8 = (MAX_GAMES / 2) as u8;
/// The pairs of extra deals a rubicon partie still tied after its deals may play that
/// [`Game::max_game_length`] allows (the rules set no limit; a tie after a pair is rare, so 16
/// in a row practically never come).
pub const MAX_PARTIE_EXTENSIONS: u64 = 16;

named_enum! {
    /// What one game of the engine is: one deal, or a whole match.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Scope {
        /// One deal (after the cut for deal). Returns: each player's total minus the opponent's
        /// (elder `+d`, dealer `−d` if elder wins by `d`), in points.
        Deal => "deal",
        /// The match: under [`MatchScoring::Partiya`] (russian) a partiya of
        /// [`Rules::koroliks_per_partiya`] koroliks, a draw for deal before each korolik, the deal
        /// alternating within it, рефет ending it; returns ± the net win of [`Partiya`]. Under
        /// [`MatchScoring::Partie`] (rubicon) a partie of [`Rules::deals_per_partie`] deals, one draw
        /// for the first deal, the deal alternating; returns ± the winner's score of [`Partie`].
        Partiya => "partiya",
    }
}

impl Scope {
    /// The scope named `"deal"` or `"partiya"` (also `"partie"`, `"match"`).
    pub fn parse(name: &str) -> Result<Scope> {
        match name.trim().to_ascii_lowercase().as_str() {
            "deal" | "game" => Ok(Scope::Deal),
            "partiya" | "partie" | "match" => Ok(Scope::Partiya),
            _ => Err(Error::InvalidValue(format!("unknown piquet scope {name:?} (expected \"deal\" or \"partiya\")"))),
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game: the rules and the scope. OpenSpiel's `Game`.
///
/// ```
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::piquet::{GameConfig, Rules, Scope};
/// let game = GameConfig::new(Rules::rubicon(), Scope::Partiya).unwrap();
/// assert_eq!((game.num_players(), game.scope()), (2, Scope::Partiya));
/// let mut long = Rules::russian();
/// long.koroliks_per_partiya = 9;
/// assert!(GameConfig::new(long, Scope::Partiya).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameConfig {
    rules: Rules,
    scope: Scope,
    /// Bit n: elder may exchange n cards (of his 5).
    elder_sizes: u16,
    /// `[available]`, bit n: the dealer may exchange n cards when `available` are left.
    dealer_sizes: [u16; 9],
    /// The dealer of the first deal, or [`NO_SEAT`]: the draw for deal decides.
    first_dealer: u8,
}

impl Default for GameConfig {
    /// Russian rules, one partiya.
    fn default() -> GameConfig {
        GameConfig::with_sizes(Rules::russian(), Scope::Partiya)
    }
}

impl GameConfig {
    /// A game under `rules` (validated) in `scope`. Also rejected: exchange limits that can
    /// leave a player no legal choice, and a partiya of more than [`MAX_KOROLIKS`] koroliks.
    pub fn new(rules: Rules, scope: Scope) -> Result<GameConfig> {
        rules.validate()?;
        let elder_sizes: Vec<u8> = (0..=5).filter(|&n| rules.elder_exchange.allows(n, 5)).collect();
        if elder_sizes.is_empty() {
            return Err(Error::InvalidValue("elder_exchange allows no exchange at all".into()));
        }
        for &n in &elder_sizes {
            if !(0..=8 - n).any(|m| rules.dealer_exchange.allows(m, 8 - n)) {
                return Err(Error::InvalidValue(format!(
                    "dealer_exchange allows nothing when elder exchanges {n} (make it may_decline)"
                )));
            }
        }
        if scope == Scope::Partiya
            && rules.match_scoring == MatchScoring::Partiya
            && rules.koroliks_per_partiya > MAX_KOROLIKS
        {
            return Err(Error::InvalidValue(format!(
                "the engine plays partiyas of at most {MAX_KOROLIKS} koroliks, got {}",
                rules.koroliks_per_partiya
            )));
        }
        Ok(GameConfig::with_sizes(rules, scope))
    }

    fn with_sizes(rules: Rules, scope: Scope) -> GameConfig {
        let sizes = |limits: super::ExchangeLimits, available: u8| {
            (0..=available.min(MAX_EXCHANGE as u8))
                .filter(|&n| limits.allows(n, available))
                .fold(0u16, |m, n| m | 1 << n)
        };
        GameConfig {
            rules,
            scope,
            elder_sizes: sizes(rules.elder_exchange, 5),
            dealer_sizes: std::array::from_fn(|a| sizes(rules.dealer_exchange, a as u8)),
            first_dealer: NO_SEAT,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// This config with the dealer of the first deal chosen: `None` (the default) has him drawn
    /// for, as the rules do (the lower card deals, equal ranks draw again); `Some(seat)` skips
    /// that first draw: the game starts at the first deal with `seat` dealing. Later draws (a new
    /// korolik of the russian partiya) stay chance events. An error for a seat other than 0, 1.
    ///
    /// ```
    /// use cribpiquet::piquet::{GameConfig, Phase};
    /// use cribpiquet::engine::Game;
    /// let game = GameConfig::default().with_first_dealer(Some(1)).unwrap();
    /// let start = game.new_initial_state();
    /// assert_eq!((start.phase(), start.elder()), (Phase::Deal, Some(0)));
    /// assert!(GameConfig::default().with_first_dealer(Some(2)).is_err());
    /// ```
    pub fn with_first_dealer(mut self, first_dealer: Option<usize>) -> Result<GameConfig> {
        self.first_dealer = match first_dealer {
            None => NO_SEAT,
            Some(p) if p < 2 => p as u8,
            Some(p) => return Err(Error::InvalidValue(format!("first_dealer must be a seat (0 or 1), got {p}"))),
        };
        Ok(self)
    }

    /// The chosen first dealer, or `None`: the draw for deal decides.
    pub fn first_dealer(self) -> Option<usize> {
        (self.first_dealer != NO_SEAT).then_some(self.first_dealer as usize)
    }

    /// The scope.
    pub fn scope(self) -> Scope {
        self.scope
    }

    /// The most one deal can be won by: every declaration category at its largest (carte
    /// blanche, a point of eight, two sequences of the best value, three fourteens), the repique,
    /// every lead and trick, the last trick and the largest end-of-play bonus.
    fn deal_bound(&self) -> u64 {
        let r = &self.rules;
        let best_sequence = r.sequence_values.iter().copied().max().unwrap_or(0) as u64;
        let declarations = CARTE_BLANCHE_POINTS as u64 + 8 + 2 * best_sequence + 3 * 14;
        let bonus = r.capot_bonus.max(r.open_capot_bonus.unwrap_or(0)).max(LEZA_BONUS) as u64;
        declarations + REPIQUE_BONUS.max(PIQUE_BONUS) as u64 + 24 + r.last_trick_extra as u64 + bonus
    }

    /// A bound on the payoff of one seat (OpenSpiel's `max_utility`): in [`Scope::Deal`] the most
    /// one deal can be won by; in [`Scope::Partiya`] a match of such deals — russian: every game
    /// doubled, every korolik record and the partiya record at their largest, plus the сквозная
    /// запись; rubicon: the rubiconed score (both totals + 100) of a partie of up to
    /// `max(16, deals_per_partie + 2)` deals (a partie still tied after that many is
    /// practically impossible). A bound, far above what play reaches.
    pub fn max_payoff(&self) -> u64 {
        let deal = self.deal_bound();
        if self.scope == Scope::Deal {
            return deal;
        }
        match self.rules.match_scoring {
            MatchScoring::Partiya => {
                let koroliks = self.rules.koroliks_per_partiya as u64;
                let korolik = 2 * 2 * deal + 100 + 10;
                let partiya = 2 * koroliks * 2 * deal + 100 + 10;
                koroliks * korolik + partiya + 100
            }
            MatchScoring::Partie => {
                let deals = (self.rules.deals_per_partie as u64 + 2).max(16);
                deals * deal + 100
            }
        }
    }

    /// A state from [`State::serialize`] text, which must be of this game.
    pub fn deserialize_state(self, text: &str) -> Result<State> {
        let state = State::deserialize(text)?;
        if state.config != self {
            return Err(Error::InvalidValue(
                "the state is of another piquet game (rules, scope or first dealer)".into(),
            ));
        }
        Ok(state)
    }
}

named_enum! {
    /// Where the game is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Phase {
        /// The draw for deal (chance: each seat draws a card).
        Cut => "cut",
        /// Dealing 12 cards each (chance).
        Deal => "deal",
        /// A player chooses how many cards to exchange.
        Exchange => "exchange",
        /// The exchanging player discards, one card at a time, ascending.
        Discard => "discard",
        /// He takes talon cards (chance).
        Draw => "draw",
        /// Open capot announcements.
        Announce => "announce",
        /// The twelve tricks.
        Play => "play",
        /// The game (deal or match) is over.
        GameOver => "game-over",
    }
}

named_enum! {
    /// Where points come from ([`State::points_by_source`], `simulate`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum PointSource {
        /// Carte blanche, point, sequences and sets.
        Declarations = 0 => "declarations",
        /// The repique bonus (60).
        Repique = 1 => "repique",
        /// One per lead and per trick (rubicon: per trick won on the opponent's lead), the last
        /// trick's own trick point included.
        Play = 2 => "play",
        /// The last trick's extra (russian 3, rubicon 1).
        LastTrick = 3 => "last_trick",
        /// The pique bonus (30).
        Pique = 4 => "pique",
        /// Leza / the cards (10).
        Leza = 5 => "leza",
        /// Capot (40) or open capot (80).
        Capot = 6 => "capot",
    }
}

/// Number of [`PointSource`]s.
pub const NUM_SOURCES: usize = PointSource::ALL.len();

/// The declaration categories heard by both players, in reckoning order.
pub const CATEGORY_NAMES: [&str; 4] = ["carte blanche", "point", "sequences", "sets"];

/// A piquet game state: a `Copy` struct of bitmask hands and fixed arrays (no heap).
///
/// Per-seat arrays are indexed by seat (0, 1), not by role; [`State::elder`] and
/// [`State::dealer`] give the roles of the current deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    config: GameConfig,
    phase: Phase,
    /// The seat to act (exchange, discard, announce, play), the recipient of a draw, or the
    /// seat drawing in the cut.
    turn: u8,
    /// The dealer of the current deal (NO_SEAT before the first draw is decided).
    dealer: u8,
    /// The cards drawn for deal in the current round (NO_CARD: not yet).
    cuts: [u8; 2],
    /// Cards dealt so far this deal (0..=24).
    n_dealt: u8,
    /// The 12 cards each seat was dealt.
    dealt: [u32; 2],
    /// Unplayed cards held.
    hands: [u32; 2],
    /// Cards discarded in the exchange.
    discards: [u32; 2],
    /// Talon cards taken.
    drawn: [u32; 2],
    /// Exchange size chosen (NO_SIZE: not yet).
    exchange: [u8; 2],
    /// Heard declarations: points of each category (carte blanche, point, sequences, sets).
    decl: [[u16; 4]; 2],
    /// Declaration totals, repique included (from the core's `points_of`).
    decl_total: [u16; 2],
    /// Who scored the repique (NO_SEAT: nobody).
    repique: u8,
    /// Declarations made (after the dealer's exchange).
    declared: bool,
    /// The dealer's declaration points are still to be credited (rubicon timing).
    dealer_pending: bool,
    /// Open capot: 0 undecided, 1 passed, 2 announced, per seat.
    announce: [u8; 2],
    /// Cards played this deal, in order (lead, follow, lead, …).
    plays: [u8; 24],
    n_plays: u8,
    /// The leader of the current trick.
    leader: u8,
    /// Bit i: the seat that won trick i.
    trick_winners: u16,
    tricks: [u8; 2],
    /// The play scoring (pique state), shared with `score_game`.
    play: PlayTally,
    /// This deal's totals per seat.
    deal_totals: [u16; 2],
    /// Deals begun.
    deals: u16,
    /// Each finished game's totals per seat (the first [`MAX_GAMES`]).
    games: [[u16; 2]; MAX_GAMES],
    n_games: u16,
    /// Koroliks closed (partiya scope, russian).
    koroliks: u8,
    /// Games in the open korolik.
    korolik_games: u8,
    /// Points over the whole game (all deals), per seat.
    scores: [u32; 2],
    sources: [[u32; NUM_SOURCES]; 2],
    /// Points made by the last action, per seat.
    rewards: [u16; 2],
    /// Seat 0's payoff once over (seat 1's is the negation).
    outcome: i32,
}

/// The engine's scores are the sink of the play tally: every play point is awarded by source.
impl PlaySink for State {
    #[inline(always)]
    fn total(&self, role: Role) -> u16 {
        self.deal_totals[if role == Role::Elder { self.elder_seat() } else { self.dealer_seat() }]
    }

    #[inline(always)]
    fn score(&mut self, p: PlayPoints) {
        let seat = if p.role == Role::Elder { self.elder_seat() } else { self.dealer_seat() };
        let source = match p.kind {
            EventKind::Pique => PointSource::Pique,
            EventKind::Leza => PointSource::Leza,
            EventKind::Capot | EventKind::OpenCapot => PointSource::Capot,
            _ => PointSource::Play,
        };
        let plain = p.points - p.extra;
        if plain > 0 {
            self.award(seat, plain, source);
        }
        if p.extra > 0 {
            self.award(seat, p.extra, PointSource::LastTrick);
        }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({})", self.serialize())
    }
}

/// `"-"` for no cards, else the cards' text.
fn cards_text(hand: super::Hand) -> String {
    if hand.is_empty() {
        "-".into()
    } else {
        hand.to_string()
    }
}

fn card_text(id: u8) -> String {
    super::Card::from_id(id as i64).map(|c| c.to_string()).unwrap_or_else(|_| "?".into())
}

impl Rules {
    /// `"russian"`, `"rubicon"` or `"custom"`: the rule set's name for one-line texts.
    pub fn label(&self) -> &'static str {
        if *self == Rules::russian() {
            "russian"
        } else if *self == Rules::rubicon() {
            "rubicon"
        } else {
            "custom"
        }
    }
}

/// Every card in the hands, the declarations and the play, for a human debugging (omniscient):
///
/// ```text
/// piquet (russian rules, deal), deal 1, phase play, dealer P1, to move P0
/// scores: P0 16, P1 0 (this deal 16-0)
/// P0 (elder): hand … | discarded … | took … | exchange 5
/// …
/// ```
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dealer = self.dealer().map(|d| format!("P{d}")).unwrap_or_else(|| "-".into());
        writeln!(
            f,
            "piquet ({} rules, {}), deal {}, phase {}, dealer {dealer}, to move {}",
            self.config.rules().label(),
            self.config.scope(),
            self.deals,
            self.phase.name(),
            player_text(self.current_player())
        )?;
        let [a, b] = self.scores;
        let [da, db] = self.deal_totals;
        let games: Vec<String> = self.games().iter().map(|g| format!("{}-{}", g[0], g[1])).collect();
        write!(f, "scores: P0 {a}, P1 {b} (this deal {da}-{db})")?;
        if !games.is_empty() {
            write!(f, "; deals {}", games.join(" "))?;
        }
        if let Some(w) = self.winner() {
            write!(f, "; winner P{w}")?;
        }
        writeln!(f)?;
        if self.dealer().is_none() || self.phase == Phase::Cut {
            let cuts: Vec<String> = self
                .cut_cards()
                .iter()
                .enumerate()
                .map(|(p, c)| format!("P{p} {}", c.map(card_text).unwrap_or_else(|| "-".into())))
                .collect();
            return write!(f, "draw for deal: {}", cuts.join(", "));
        }
        for p in 0..2 {
            let size = self.exchange_size(p).map(|n| n.to_string()).unwrap_or_else(|| "-".into());
            let role = if self.dealer() == Some(p) { "dealer" } else { "elder" };
            writeln!(
                f,
                "P{p} ({role}): hand {} | discarded {} | took {} | exchange {size}",
                cards_text(self.hand(p)),
                cards_text(self.discards(p)),
                cards_text(self.drawn(p))
            )?;
        }
        match self.declarations() {
            Some(d) => {
                let cats = |p: usize| d[p].map(|x| x.to_string()).join("/");
                let repique = self.repique().map(|p| format!("P{p}")).unwrap_or_else(|| "-".into());
                writeln!(f, "declared (cb/point/seq/sets): P0 {}, P1 {}; repique {repique}", cats(0), cats(1))?;
            }
            None => writeln!(f, "declared: -")?,
        }
        let plays: Vec<String> = self.plays().map(|(p, c)| format!("P{p} {}", card_text(c))).collect();
        let [ta, tb] = self.tricks;
        write!(f, "play: {} | tricks P0 {ta}, P1 {tb}", if plays.is_empty() { "-".into() } else { plays.join(", ") })
    }
}

#[inline(always)]
fn rank(card: u32) -> u32 {
    card & 7
}

/// The cards above `card` (ids greater than it).
#[inline(always)]
fn above(card: u8) -> u32 {
    if card >= 31 {
        0
    } else {
        FULL_PACK << (card + 1)
    }
}

impl State {
    /// The state before the draw for the first deal, or, with a chosen first dealer
    /// ([`GameConfig::with_first_dealer`]), before the first deal.
    pub fn new(config: GameConfig) -> State {
        let mut state = State {
            config,
            phase: Phase::Cut,
            turn: 0,
            dealer: NO_SEAT,
            cuts: [NO_CARD; 2],
            n_dealt: 0,
            dealt: [0; 2],
            hands: [0; 2],
            discards: [0; 2],
            drawn: [0; 2],
            exchange: [NO_SIZE; 2],
            decl: [[0; 4]; 2],
            decl_total: [0; 2],
            repique: NO_SEAT,
            declared: false,
            dealer_pending: false,
            announce: [0; 2],
            plays: [0; 24],
            n_plays: 0,
            leader: 0,
            trick_winners: 0,
            tricks: [0; 2],
            play: PlayTally::new(true, None, None),
            deal_totals: [0; 2],
            deals: 0,
            games: [[0; 2]; MAX_GAMES],
            n_games: 0,
            koroliks: 0,
            korolik_games: 0,
            scores: [0; 2],
            sources: [[0; NUM_SOURCES]; 2],
            rewards: [0; 2],
            outcome: 0,
        };
        if let Some(dealer) = config.first_dealer() {
            state.dealer = dealer as u8;
            state.start_deal();
        }
        state
    }

    // ---- read-only accessors -------------------------------------------------------------

    /// The game (rules and scope).
    pub fn config(&self) -> GameConfig {
        self.config
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Elder's seat (the dealer's opponent).
    pub fn elder(&self) -> Option<usize> {
        (self.dealer != NO_SEAT).then_some((self.dealer as usize & 1) ^ 1)
    }

    #[inline(always)]
    fn elder_seat(&self) -> usize {
        (self.dealer as usize & 1) ^ 1
    }

    #[inline(always)]
    fn dealer_seat(&self) -> usize {
        self.dealer as usize & 1
    }

    /// The cards drawn for deal in the current round, by seat.
    pub fn cut_cards(&self) -> [Option<u8>; 2] {
        self.cuts.map(|c| (c != NO_CARD).then_some(c))
    }

    /// The unplayed cards of `seat` (empty for an unknown seat).
    pub fn hand(&self, seat: usize) -> super::Hand {
        super::Hand::from_mask(if seat < 2 { self.hands[seat] } else { 0 })
    }

    /// The 12 cards `seat` was dealt this deal.
    pub fn dealt_hand(&self, seat: usize) -> super::Hand {
        super::Hand::from_mask(if seat < 2 { self.dealt[seat] } else { 0 })
    }

    /// The cards `seat` discarded in the exchange.
    pub fn discards(&self, seat: usize) -> super::Hand {
        super::Hand::from_mask(if seat < 2 { self.discards[seat] } else { 0 })
    }

    /// The talon cards `seat` took.
    pub fn drawn(&self, seat: usize) -> super::Hand {
        super::Hand::from_mask(if seat < 2 { self.drawn[seat] } else { 0 })
    }

    /// The 12 cards `seat` holds after the exchange (played or not): what he declares and plays.
    pub fn kept(&self, seat: usize) -> super::Hand {
        super::Hand::from_mask(if seat < 2 { self.holding(seat) } else { 0 })
    }

    #[inline(always)]
    fn holding(&self, seat: usize) -> u32 {
        (self.dealt[seat & 1] & !self.discards[seat & 1]) | self.drawn[seat & 1]
    }

    /// The exchange size `seat` chose this deal.
    pub fn exchange_size(&self, seat: usize) -> Option<u8> {
        self.exchange.get(seat).copied().filter(|&n| n != NO_SIZE)
    }

    /// The cards played this deal in order, with who played each (seat, card id).
    pub fn plays(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let n = (self.n_plays as usize).min(24);
        let mut leader = self.elder_seat();
        (0..n).map(move |i| {
            let trick = i / 2;
            if i % 2 == 0 && trick > 0 {
                leader = (self.trick_winners >> (trick - 1) & 1) as usize;
            }
            let seat = if i % 2 == 0 { leader } else { leader ^ 1 };
            (seat, self.plays[i])
        })
    }

    /// Tricks won this deal, per seat.
    pub fn tricks_won(&self) -> [u8; 2] {
        self.tricks
    }

    /// The heard declarations of this deal per seat: points for carte blanche, point, sequences
    /// and sets ([`CATEGORY_NAMES`]); `None` before they are made.
    pub fn declarations(&self) -> Option<[[u16; 4]; 2]> {
        self.declared.then_some(self.decl)
    }

    /// Who scored the repique this deal.
    pub fn repique(&self) -> Option<usize> {
        (self.repique != NO_SEAT).then_some(self.repique as usize & 1)
    }

    /// Whether elder scored the pique this deal.
    pub fn pique(&self) -> bool {
        self.play.pique
    }

    /// Who announced an open capot this deal.
    pub fn open_capot(&self) -> Option<usize> {
        (0..2).find(|&s| self.announce[s] == 2)
    }

    /// This deal's totals per seat (after a finished deal of a match, the next deal's: 0).
    pub fn deal_scores(&self) -> [u16; 2] {
        self.deal_totals
    }

    /// Points over the whole game per seat (every deal so far): the sum of the rewards.
    pub fn seat_scores(&self) -> [u32; 2] {
        self.scores
    }

    /// Points per seat by source: `[seat][PointSource as usize]`; they add up to
    /// [`scores`](State::scores).
    pub fn points_by_source(&self) -> [[u32; NUM_SOURCES]; 2] {
        self.sources
    }

    /// The totals of each finished game (deal) per seat, the first [`MAX_GAMES`].
    pub fn games(&self) -> &[[u16; 2]] {
        &self.games[..(self.n_games as usize).min(MAX_GAMES)]
    }

    /// Games (deals) finished.
    pub fn games_played(&self) -> u16 {
        self.n_games
    }

    /// Koroliks closed (russian partiya).
    pub fn koroliks(&self) -> u8 {
        self.koroliks
    }

    // ---- actions ---------------------------------------------------------------------------

    /// The cards still in the pack (not dealt, not taken from the talon).
    #[inline(always)]
    fn pack(&self) -> u32 {
        !(self.dealt[0] | self.dealt[1] | self.drawn[0] | self.drawn[1])
    }

    #[inline]
    fn chance_mask(&self) -> u32 {
        match self.phase {
            Phase::Cut => {
                let other = self.cuts[(self.turn as usize & 1) ^ 1];
                if other == NO_CARD {
                    FULL_PACK
                } else {
                    FULL_PACK & !(1u32 << (other & 31))
                }
            }
            Phase::Deal | Phase::Draw => self.pack(),
            _ => 0,
        }
    }

    /// Cards left to discard / draw in the current exchange.
    #[inline(always)]
    fn exchange_left(&self, mask: u32) -> u32 {
        let t = self.turn as usize & 1;
        (self.exchange[t] as u32).saturating_sub(mask.count_ones())
    }

    /// The legal discards: cards above the last one discarded, leaving enough above them.
    #[inline]
    fn discard_mask(&self) -> u32 {
        let t = self.turn as usize & 1;
        let last = if self.discards[t] == 0 { NO_CARD } else { 31 - self.discards[t].leading_zeros() as u8 };
        let mut m = if last == NO_CARD { self.hands[t] } else { self.hands[t] & above(last) };
        // The highest (left − 1) cards cannot be discarded now: too few would remain above them.
        for _ in 1..self.exchange_left(self.discards[t]) {
            if m == 0 {
                break;
            }
            m &= !(1u32 << (31 - m.leading_zeros()));
        }
        m
    }

    /// The exchange sizes the player to move may choose, as a bit mask over 0..=8.
    #[inline]
    fn exchange_sizes(&self) -> u32 {
        if self.turn as usize & 1 == self.elder_seat() {
            self.config.elder_sizes as u32
        } else {
            let taken = self.exchange[self.elder_seat()];
            let available = 8u8.saturating_sub(if taken == NO_SIZE { 0 } else { taken });
            self.config.dealer_sizes[available as usize % 9] as u32
        }
    }

    /// The cards the player to move may play.
    #[inline(always)]
    fn playable(&self) -> u32 {
        let t = self.turn as usize & 1;
        let hand = self.hands[t];
        if self.n_plays & 1 == 0 {
            return hand;
        }
        let lead = self.plays[(self.n_plays as usize - 1) % 24] as u32;
        let same = hand & suit_mask(lead);
        if same != 0 {
            same
        } else {
            hand
        }
    }

    #[inline]
    fn award(&mut self, seat: usize, points: u16, source: PointSource) {
        let s = seat & 1;
        self.deal_totals[s] = self.deal_totals[s].saturating_add(points);
        self.scores[s] = self.scores[s].saturating_add(points as u32);
        self.sources[s][source as usize] = self.sources[s][source as usize].saturating_add(points as u32);
        self.rewards[s] = self.rewards[s].saturating_add(points);
    }

    fn apply_cut(&mut self, card: u8) {
        let t = self.turn as usize & 1;
        self.cuts[t] = card;
        if t == 0 {
            self.turn = 1;
            return;
        }
        let (r0, r1) = (rank(self.cuts[0] as u32), rank(self.cuts[1] as u32));
        if r0 == r1 {
            // Equal ranks: both draw again from the whole pack.
            self.cuts = [NO_CARD; 2];
            self.turn = 0;
            return;
        }
        self.dealer = if r0 < r1 { 0 } else { 1 };
        self.start_deal();
    }

    fn start_deal(&mut self) {
        self.reset_deal();
        self.phase = Phase::Deal;
        self.deals = self.deals.saturating_add(1);
    }

    /// Clear the deal's cards, declarations, play and totals.
    fn reset_deal(&mut self) {
        self.n_dealt = 0;
        self.dealt = [0; 2];
        self.hands = [0; 2];
        self.discards = [0; 2];
        self.drawn = [0; 2];
        self.exchange = [NO_SIZE; 2];
        self.decl = [[0; 4]; 2];
        self.decl_total = [0; 2];
        self.repique = NO_SEAT;
        self.declared = false;
        self.dealer_pending = false;
        self.announce = [0; 2];
        self.plays = [0; 24];
        self.n_plays = 0;
        self.leader = self.elder_seat() as u8;
        self.trick_winners = 0;
        self.tricks = [0; 2];
        self.play = PlayTally::new(true, None, None);
        self.deal_totals = [0; 2];
        self.turn = self.elder_seat() as u8;
    }

    #[inline]
    fn apply_deal(&mut self, card: u32) {
        // Elder first, alternately.
        let seat = if self.n_dealt & 1 == 0 { self.elder_seat() } else { self.dealer_seat() };
        self.dealt[seat] |= 1 << card;
        self.hands[seat] |= 1 << card;
        self.n_dealt += 1;
        if self.n_dealt >= 24 {
            self.phase = Phase::Exchange;
            self.turn = self.elder_seat() as u8;
        }
    }

    fn apply_exchange(&mut self, n: u8) {
        let t = self.turn as usize & 1;
        self.exchange[t] = n;
        if n == 0 {
            self.next_exchanger();
        } else {
            self.phase = Phase::Discard;
        }
    }

    fn apply_discard(&mut self, card: u32) {
        let t = self.turn as usize & 1;
        self.hands[t] &= !(1 << card);
        self.discards[t] |= 1 << card;
        if self.exchange_left(self.discards[t]) == 0 {
            self.phase = Phase::Draw;
        }
    }

    fn apply_draw(&mut self, card: u32) {
        let t = self.turn as usize & 1;
        self.hands[t] |= 1 << card;
        self.drawn[t] |= 1 << card;
        if self.exchange_left(self.drawn[t]) == 0 {
            self.next_exchanger();
        }
    }

    fn next_exchanger(&mut self) {
        if self.turn as usize & 1 == self.elder_seat() {
            self.turn = self.dealer_seat() as u8;
            self.phase = Phase::Exchange;
            return;
        }
        self.declare();
        self.turn = self.elder_seat() as u8;
        self.phase = if self.config.rules.open_capot_bonus.is_some() { Phase::Announce } else { Phase::Play };
    }

    /// The category points of both hands (elder first) as heard, the totals by the core's
    /// `points_of` (repique included) and the repique.
    fn declaration_scores(&self) -> ([[u16; 4]; 2], [u16; 2], Option<usize>) {
        let rules = &self.config.rules;
        let lanes = packed_lanes(rules);
        let (e, d) = (self.elder_seat(), self.dealer_seat());
        let mut se = Summary::of(self.holding(e), &lanes);
        let mut sd = Summary::of(self.holding(d), &lanes);
        // Carte blanche is judged on the hand as dealt (rules §3.1).
        se.carte_blanche = self.dealt[e] & COURTS == 0;
        sd.carte_blanche = self.dealt[d] & COURTS == 0;
        let rk = reckoning(rules);
        let totals = points_of(&se, &sd, rk).map(|x| x as u16);
        let pick = |ke: u16, kd: u16, ve: u16, vd: u16| [if ke > kd { ve } else { 0 }, if kd > ke { vd } else { 0 }];
        let cats = [
            [CARTE_BLANCHE_POINTS * se.carte_blanche as u16, CARTE_BLANCHE_POINTS * sd.carte_blanche as u16],
            pick(se.point_key, sd.point_key, se.point_key >> 7, sd.point_key >> 7),
            pick(se.seq_key as u16, sd.seq_key as u16, se.seq_value, sd.seq_value),
            pick(se.set_key as u16, sd.set_key as u16, se.set_value, sd.set_value),
        ];
        let repique = repique_of(&cats, rk).map(|p| p.index());
        let by_role = [0, 1].map(|i| [cats[0][i], cats[1][i], cats[2][i], cats[3][i]]);
        (by_role, totals, repique)
    }

    fn declare(&mut self) {
        let (cats, totals, repique) = self.declaration_scores();
        let (e, d) = (self.elder_seat(), self.dealer_seat());
        self.decl[e] = cats[0];
        self.decl[d] = cats[1];
        self.decl_total[e] = totals[0];
        self.decl_total[d] = totals[1];
        self.repique = match repique {
            Some(0) => e as u8,
            Some(_) => d as u8,
            None => NO_SEAT,
        };
        self.declared = true;
        // The pique needs no repique and no declaration points of the dealer (rules §4).
        self.play = PlayTally::new(repique.is_none() && totals[1] == 0, None, None);
        self.credit_declarations(e);
        if self.config.rules.declaration_timing == DeclarationTiming::DealerAfterFirstLead {
            self.dealer_pending = true;
        } else {
            self.credit_declarations(d);
        }
    }

    fn credit_declarations(&mut self, seat: usize) {
        let s = seat & 1;
        let rep = if self.repique as usize == s { REPIQUE_BONUS } else { 0 };
        let plain = self.decl_total[s].saturating_sub(rep);
        if plain > 0 {
            self.award(s, plain, PointSource::Declarations);
        }
        if rep > 0 {
            self.award(s, rep, PointSource::Repique);
        }
    }

    fn apply_announce(&mut self, announce: bool) {
        let t = self.turn as usize & 1;
        self.announce[t] = if announce { 2 } else { 1 };
        if t == self.elder_seat() && !announce {
            self.turn = self.dealer_seat() as u8;
        } else {
            self.phase = Phase::Play;
            self.turn = self.elder_seat() as u8;
        }
    }

    /// The role of a seat in this deal.
    #[inline(always)]
    fn role(&self, seat: usize) -> Role {
        if seat == self.elder_seat() {
            Role::Elder
        } else {
            Role::Dealer
        }
    }

    /// A card played: the lead's point, or the trick's, the last trick's extra, the pique, leza
    /// and capot — all by the one play tally that `score_game` uses (rules §4, §5).
    #[inline]
    fn apply_play(&mut self, card: u32) {
        let t = self.turn as usize & 1;
        self.hands[t] &= !(1 << card);
        let i = self.n_plays as usize % 24;
        self.plays[i] = card as u8;
        self.n_plays += 1;
        let rules = self.config.rules;
        let mut tally = self.play;
        let trick = (i / 2) as u8;
        if i & 1 == 0 {
            // A lead.
            tally.lead(&rules, trick, self.role(t), self);
            self.play = tally;
            if i == 0 && self.dealer_pending {
                self.dealer_pending = false;
                self.credit_declarations(self.dealer_seat());
            }
            self.turn = (t ^ 1) as u8;
            return;
        }
        let leader = self.leader as usize & 1;
        let lead = self.plays[i - 1] as u32;
        let winner = if suit_mask(lead) >> card & 1 == 1 && rank(card) > rank(lead) { t } else { leader };
        self.tricks[winner] += 1;
        self.trick_winners |= (winner as u16) << trick;
        self.leader = winner as u8;
        self.turn = winner as u8;
        let (e, d) = (self.elder_seat(), self.dealer_seat());
        let won = [self.tricks[e], self.tricks[d]];
        let announced = self.announce[winner] == 2;
        let end =
            TrickEnd { trick, leader: self.role(leader), winner: self.role(winner), won, winner_announced: announced };
        tally.trick(&rules, end, self);
        self.play = tally;
        if trick == 11 {
            self.end_deal();
        }
    }

    /// Record the finished deal and go on: the next deal, a new draw, or the end.
    fn end_deal(&mut self) {
        let totals = self.deal_totals;
        if (self.n_games as usize) < MAX_GAMES {
            self.games[self.n_games as usize] = totals;
        }
        self.n_games = self.n_games.saturating_add(1);
        let rules = self.config.rules;
        if self.config.scope == Scope::Deal {
            self.finish(totals[0] as i32 - totals[1] as i32);
            return;
        }
        match rules.match_scoring {
            MatchScoring::Partiya => {
                let refet = totals[0] == totals[1];
                self.korolik_games += 1;
                let closed = refet || self.korolik_games >= 2;
                if closed {
                    self.koroliks += 1;
                    self.korolik_games = 0;
                }
                if self.koroliks >= rules.koroliks_per_partiya {
                    let outcome = self.partiya_outcome().unwrap_or(0);
                    self.finish(outcome);
                } else if closed {
                    // A new korolik: a new draw for deal.
                    self.reset_deal();
                    self.phase = Phase::Cut;
                    self.cuts = [NO_CARD; 2];
                    self.turn = 0;
                } else {
                    self.dealer ^= 1;
                    self.start_deal();
                }
            }
            MatchScoring::Partie => {
                let n = self.n_games as usize;
                let base = rules.deals_per_partie as usize;
                if n >= base && (n - base) % 2 == 0 && self.scores[0] != self.scores[1] {
                    let outcome = self.partie_outcome().unwrap_or(0);
                    self.finish(outcome);
                } else {
                    self.dealer ^= 1;
                    self.start_deal();
                }
            }
        }
    }

    fn finish(&mut self, outcome: i32) {
        self.phase = Phase::GameOver;
        self.outcome = outcome;
    }

    /// The partiya's net win for seat 0 (negative if seat 1 wins), replaying the games through
    /// [`Partiya`].
    fn partiya_outcome(&self) -> Result<i32> {
        let mut p = Partiya::new(&self.config.rules)?;
        for g in self.games() {
            p.add_game(g[0] as u64, g[1] as u64)?;
        }
        Ok(match p.result().net_win {
            Some(r) if r.seat == 0 => r.points as i32,
            Some(r) => -(r.points as i32),
            None => 0,
        })
    }

    /// The partie's score for seat 0 (negative if seat 1 wins), through [`Partie::from_totals`].
    fn partie_outcome(&self) -> Result<i32> {
        let totals = [self.scores[0] as u64, self.scores[1] as u64];
        let p = Partie::from_totals(&self.config.rules, totals, self.n_games as usize)?;
        Ok(match p.result() {
            Some(r) if r.winner == 0 => r.score as i32,
            Some(r) => -(r.score as i32),
            None => 0,
        })
    }
}

/// A uniformly random set bit of a mask (0 for an empty mask): rejection sampling over 5-bit
/// chunks of one random word (the pack is never sparser than 8 cards of 32 in play, so about
/// one word per card).
#[inline]
pub(crate) fn pick_bit(mask: u32, rng: &mut Rng) -> u32 {
    if mask == 0 {
        return 0;
    }
    loop {
        let mut r = rng.next_u64();
        for _ in 0..12 {
            let c = (r & 31) as u32;
            if mask >> c & 1 == 1 {
                return c;
            }
            r >>= 5;
        }
    }
}

impl Game for GameConfig {
    crate::engine::game_common!();

    const NAME: &'static str = "piquet";
    const MAX_CHANCE_OUTCOMES: usize = 32;

    fn num_players(&self) -> usize {
        2
    }

    /// `-max_utility()`.
    fn min_utility(&self) -> f64 {
        -self.max_utility()
    }

    /// A bound on what one seat can win: see [`GameConfig::max_payoff`].
    fn max_utility(&self) -> f64 {
        self.max_payoff() as f64
    }

    /// Deals × the actions of a deal, plus the draws for deal. A deal is 24 cards dealt, two
    /// exchange decisions, a discard and a draw for each talon card taken (8 at most), two
    /// announcements (rules with an open capot) and 24 cards played. A game is one deal; a
    /// russian partiya at most two deals a korolik, with a draw before each korolik; a rubicon
    /// partie its deals plus `MAX_PARTIE_EXTENSIONS` pairs of deals while the totals are equal,
    /// with one draw. A draw is two cards a round, at most [`MAX_DRAW_ROUNDS`] rounds; a chosen
    /// first dealer skips the first.
    fn max_game_length(&self) -> u64 {
        let r = &self.rules;
        let announce = if r.open_capot_bonus.is_some() { 2 } else { 0 };
        let deal = 24 + 2 + 2 * 8 + announce + 24;
        let (deals, draws) = match (self.scope, r.match_scoring) {
            (Scope::Deal, _) => (1, 1),
            (Scope::Partiya, MatchScoring::Partiya) => {
                (2 * r.koroliks_per_partiya as u64, r.koroliks_per_partiya as u64)
            }
            (Scope::Partiya, MatchScoring::Partie) => (r.deals_per_partie as u64 + 2 * MAX_PARTIE_EXTENSIONS, 1),
        };
        let draws = draws - self.first_dealer().is_some() as u64;
        deals * deal + draws * 2 * MAX_DRAW_ROUNDS
    }
}

/// The rules of piquet on the engine framework; the methods not listed are provided by [`GameState`]
/// or written once for both engines by `crate::engine::game_state_common!`.
impl GameState for State {
    type Game = GameConfig;

    #[inline]
    fn num_players(&self) -> usize {
        2
    }

    /// The seat to act, [`CHANCE`] (cut, deal, talon card) or [`TERMINAL`].
    #[inline]
    fn current_player(&self) -> Player {
        match self.phase {
            Phase::Exchange | Phase::Discard | Phase::Announce | Phase::Play => (self.turn & 1) as Player,
            Phase::GameOver => TERMINAL,
            _ => CHANCE,
        }
    }

    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::piquet::GameConfig;
    /// assert_eq!(GameConfig::default().new_initial_state().legal_actions().len(), 32);
    /// ```
    #[inline]
    fn fill_legal_actions(&self, out: &mut ActionList) {
        out.clear();
        match self.phase {
            Phase::Cut | Phase::Deal | Phase::Draw => actions::push_cards(out, self.chance_mask()),
            Phase::Exchange => {
                let mut m = self.exchange_sizes();
                while m != 0 {
                    out.push(EXCHANGE_BASE + m.trailing_zeros() as u16);
                    m &= m - 1;
                }
            }
            Phase::Discard => actions::push_cards(out, self.discard_mask()),
            Phase::Announce => {
                out.push(ANNOUNCE_CAPOT);
                out.push(PASS);
            }
            Phase::Play => actions::push_cards(out, self.playable()),
            Phase::GameOver => {}
        }
    }

    #[inline]
    fn is_legal(&self, action: u16) -> bool {
        match self.phase {
            Phase::Cut | Phase::Deal | Phase::Draw => action < 32 && self.chance_mask() >> action & 1 == 1,
            Phase::Exchange => match action_exchange_size(action) {
                Some(n) => self.exchange_sizes() >> n & 1 == 1,
                None => false,
            },
            Phase::Discard => action < 32 && self.discard_mask() >> action & 1 == 1,
            Phase::Announce => action == ANNOUNCE_CAPOT || action == PASS,
            Phase::Play => action < 32 && self.playable() >> action & 1 == 1,
            Phase::GameOver => false,
        }
    }

    #[inline]
    fn apply_legal(&mut self, action: u16) {
        self.rewards = [0; 2];
        match self.phase {
            Phase::Cut => self.apply_cut(action as u8 & 31),
            Phase::Deal => self.apply_deal(action as u32 & 31),
            Phase::Exchange => self.apply_exchange(action.saturating_sub(EXCHANGE_BASE) as u8),
            Phase::Discard => self.apply_discard(action as u32 & 31),
            Phase::Draw => self.apply_draw(action as u32 & 31),
            Phase::Announce => self.apply_announce(action == ANNOUNCE_CAPOT),
            Phase::Play => self.apply_play(action as u32 & 31),
            Phase::GameOver => {}
        }
    }

    #[inline]
    fn sample_chance(&self, rng: &mut Rng) -> Option<u16> {
        let mask = self.chance_mask();
        (mask != 0).then(|| pick_bit(mask, rng) as u16)
    }

    /// 0 until the end; then, per seat, [`Scope::Deal`]: own total − the opponent's;
    /// [`Scope::Partiya`]: + the net win for the winner, − for the loser (0 each if the match
    /// is drawn).
    fn player_return(&self, player: usize) -> f64 {
        match (self.phase, player) {
            (Phase::GameOver, 0) => self.outcome as f64,
            (Phase::GameOver, 1) => -(self.outcome as f64),
            _ => 0.0,
        }
    }

    /// The declarations count with the action that ends the exchange; leza and capot with the
    /// last card.
    fn player_reward(&self, player: usize) -> f64 {
        self.rewards.get(player).map_or(0.0, |&r| r as f64)
    }

    /// The winning seat once over (`None` before, and for a draw).
    fn winner(&self) -> Option<usize> {
        if self.phase != Phase::GameOver || self.outcome == 0 {
            return None;
        }
        Some(if self.outcome > 0 { 0 } else { 1 })
    }

    /// The winner's payoff: the deal's difference, or the match's net win (0 for a draw).
    fn game_value(&self) -> u64 {
        if self.phase == Phase::GameOver {
            self.outcome.unsigned_abs() as u64
        } else {
            0
        }
    }

    /// The dealer's seat (`None` until the first draw for deal is decided).
    fn dealer(&self) -> Option<usize> {
        (self.dealer != NO_SEAT).then_some(self.dealer as usize & 1)
    }

    crate::engine::game_state_common!(actions: actions, chance_phases: Phase::Cut | Phase::Deal | Phase::Draw);
}

/// The undo stack for piquet states (see [`crate::engine::StateStack`]).
pub type StateStack = crate::engine::StateStack<State>;
