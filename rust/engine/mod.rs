//! The engine framework: what every game engine offers ([`Game`], [`GameState`]) and everything
//! written once on top of it — the undo stack ([`StateStack`]), the players of playouts
//! ([`Policy`]), the parallel [`simulate`] driver with its per-game record ([`GameSummary`]) and
//! columns ([`SimColumns`]), and the [`conformance`] suite every engine must pass.
//!
//! A game implements only its rules: the required methods of [`GameState`] (who moves, the legal
//! actions, applying one, the payoffs, what a player knows, serialization). Checked
//! `apply_action` with its one illegal-action message, `child`, chance outcomes, tensors as
//! vectors, playouts, undo, `simulate` and the bindings' `Game`/`State` classes are provided over
//! them, so a bot or a tool written against these traits works for cribbage and piquet alike; the
//! trait methods both engines would write alike (delegations and accessors) come from the macros
//! `game_common!` and `game_state_common!`. The names are OpenSpiel's.
//!
//! ```
//! use cribpiquet::cribbage::{GameConfig, Variant};
//! use cribpiquet::engine::{play_out, FirstPolicy, Game, GameState, Policy, RandomPolicy};
//! use cribpiquet::rng::Rng;
//!
//! let config = GameConfig::new(Variant::SixCard, None).unwrap();
//! let mut players: Vec<Box<dyn Policy<_>>> = vec![Box::new(RandomPolicy), Box::new(FirstPolicy)];
//! let end = play_out(config.new_initial_state(), &mut players, &mut Rng::new(7)).unwrap();
//! assert!(end.is_terminal());
//! assert_eq!(end.player_return(0) + end.player_return(1), 0.0);
//! ```

mod actions;
pub mod conformance;
pub mod interrupt;
mod policy;
pub(crate) mod serial;
mod simulate;
mod stack;
pub(crate) mod tensor;
pub mod vector;
mod view;

use std::fmt;

use crate::error::{Error, Result};
use crate::rng::Rng;

pub use actions::ActionList;
pub use policy::{play_out, FirstPolicy, Policy, PolicyFactory, RandomPolicy};
pub use simulate::{
    game_seed, play_game, play_game_recorded, simulate, simulate_block, simulate_into, simulate_into_recording,
    thread_pool, GameRecords, GameSummary, SimColumns, MAX_SOURCES,
};
pub use stack::StateStack;
pub use view::{Pile, SeatView, View, Viewed};

/// A player id: `0..num_players`, or one of the sentinels [`CHANCE`] and [`TERMINAL`]
/// (OpenSpiel's `kChancePlayerId` and `kTerminalPlayerId`).
pub type Player = i32;

/// The "player" to move at a chance node (a deal, a cut).
pub const CHANCE: Player = -1;

/// The "player" to move once the game is over.
pub const TERMINAL: Player = -4;

/// The most players of any engine (four-player cribbage): per-player arrays have this length.
pub const MAX_PLAYERS: usize = 4;

/// The rounds of one draw for deal (a cut) that [`Game::max_game_length`] allows. The rules
/// draw again on equal cards with no limit, so no finite length bounds every game; a round
/// ties with probability at most 0.12 (four-player cribbage's first round; 0.1 in piquet, 0.06
/// when two cut again), so 32 rounds are exceeded with probability below 1e-29.
pub const MAX_DRAW_ROUNDS: u64 = 32;

/// A game: its rules and options, the factory of its states (OpenSpiel's `Game`).
///
/// Values are small `Copy` configs (`cribbage::GameConfig`, `piquet::GameConfig`).
pub trait Game: Copy + Send + Sync + PartialEq + fmt::Debug + 'static {
    /// The states of this game.
    type State: GameState<Game = Self>;

    /// The game's name in messages: `"cribbage"`, `"piquet"`.
    const NAME: &'static str;
    /// Number of action ids (`0..NUM_DISTINCT_ACTIONS`), chance outcomes included.
    const NUM_DISTINCT_ACTIONS: usize;
    /// The most chance outcomes at one node.
    const MAX_CHANCE_OUTCOMES: usize;
    /// Length of [`GameState::information_state_tensor`].
    const INFO_TENSOR_SIZE: usize;
    /// Length of [`GameState::observation_tensor`].
    const OBS_TENSOR_SIZE: usize;
    /// The names of the point sources, in index order (the `source` of
    /// [`GameState::points_by_source`], the extra columns of [`simulate`]); at most
    /// [`MAX_SOURCES`].
    const POINT_SOURCES: &'static [&'static str];

    /// Number of players (seats).
    fn num_players(&self) -> usize;

    /// Can this game score points of source `source` (an index into [`Game::POINT_SOURCES`])?
    /// Every source by default; a variant that never scores one says so (cribbage's three for
    /// last is five-card's alone), and summaries leave it out.
    fn scores_source(&self, source: usize) -> bool {
        source < Self::POINT_SOURCES.len()
    }

    /// Number of sides that score: the players, except partnerships (four-player cribbage: 2).
    fn num_sides(&self) -> usize {
        self.num_players()
    }

    /// The state before the first chance event.
    fn new_initial_state(&self) -> Self::State;

    /// The lowest payoff a player can get.
    fn min_utility(&self) -> f64;

    /// The highest payoff a player can get.
    fn max_utility(&self) -> f64;

    /// The sum of the payoffs over the players (both engines are zero-sum: 0).
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// A state from [`GameState::serialize`] text; refused unless it is a state of this game
    /// that play can reach.
    fn deserialize_state(&self, text: &str) -> Result<Self::State>;

    /// An upper bound on the number of actions of a game (chance outcomes included), from the
    /// config: the most deals a game can have times the most actions of a deal, plus its draws
    /// for deal (each at most [`MAX_DRAW_ROUNDS`] rounds). Each engine writes down its
    /// reasoning; the conformance suite checks simulated games stay within it.
    fn max_game_length(&self) -> u64;
}

/// A game state as search, playouts and the bindings see it: actions are small dense integers
/// (`u16`), chance outcomes are actions too.
///
/// Implementations are small `Copy` structs (no heap), so `clone` is a memcpy and search keeps
/// copies; [`StateStack`] adds undo.
pub trait GameState: Copy + Send + Sync + PartialEq + fmt::Debug + fmt::Display + 'static {
    /// The game this is a state of.
    type Game: Game<State = Self>;

    // ------------------------------------------------------------------------- the rules

    /// The game (rules and options) of this state.
    fn game(&self) -> Self::Game;

    /// The player to move, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> Player;

    /// Write the legal actions in ascending order (the chance outcomes at a chance node; none at
    /// the end) into `out`, after clearing it.
    fn fill_legal_actions(&self, out: &mut ActionList);

    /// Is `action` legal here? (Equivalent to membership in the legal actions, but cheaper.)
    fn is_legal(&self, action: u16) -> bool;

    /// Apply an action known to be legal (the caller checked [`is_legal`](GameState::is_legal)
    /// or took it from the legal actions); anything else leaves the state inconsistent.
    fn apply_legal(&mut self, action: u16);

    /// One chance outcome drawn with its probability, or `None` if this is not a chance node.
    fn sample_chance(&self, rng: &mut Rng) -> Option<u16>;

    /// The payoff of `player` (0 before the end).
    fn player_return(&self, player: usize) -> f64;

    /// Points made by the last action for `player` (partners share their side's); not the
    /// payoff.
    fn player_reward(&self, player: usize) -> f64;

    /// The side (score) of a player: the player, except partnerships.
    fn side_of(&self, player: usize) -> usize {
        player
    }

    /// The score of a side over the whole game so far.
    fn side_score(&self, side: usize) -> u64;

    /// Points a side made from source `source` (an index into [`Game::POINT_SOURCES`]); they add
    /// up to [`side_score`](GameState::side_score).
    fn points_by_source(&self, side: usize, source: usize) -> u64;

    /// The winning side once the game is over (`None` before, and for a draw).
    fn winner(&self) -> Option<usize>;

    /// What the finished game counts for the winner (cribbage: 1, or 2/3 for a lurch/skunk with
    /// that extra on; piquet: the winner's points, the payoff); 0 before the end or for a draw.
    fn game_value(&self) -> u64;

    /// The dealer of the current deal (`None` before the first cut decides it).
    fn dealer(&self) -> Option<usize>;

    /// Deals begun.
    fn deals(&self) -> u32;

    /// The phase's lowercase name (`"deal"`, `"play"`, `"game-over"`, …).
    fn phase_name(&self) -> &'static str;

    /// Everything `player` knows, as text; equal strings mean equal information.
    fn information_state_string(&self, player: usize) -> Result<String>;

    /// What `player` sees now, as text (the facts of
    /// [`observation_tensor`](GameState::observation_tensor)); equal strings mean equal
    /// observations.
    fn observation_string(&self, player: usize) -> Result<String>;

    /// Everything `player` knows as floats, into `out` (length [`Game::INFO_TENSOR_SIZE`]);
    /// equal tensors mean equal information.
    fn information_state_tensor(&self, player: usize, out: &mut [f32]) -> Result<()>;

    /// What `player` sees now as floats, into `out` (length [`Game::OBS_TENSOR_SIZE`]).
    fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<()>;

    /// A state drawn uniformly among those consistent with what `player` has seen (the hidden
    /// cards redealt): the determinization step of IS-MCTS.
    fn resample_from_infostate(&self, player: usize, rng: &mut Rng) -> Result<Self>;

    /// The state as one line of text ([`Game::deserialize_state`] reads it back).
    fn serialize(&self) -> String;

    /// The text of an action id (it does not depend on the state).
    fn action_to_string(&self, action: u16) -> Result<String>;

    /// The action id of a text (legality is not checked).
    fn string_to_action(&self, text: &str) -> Result<u16>;

    /// The card ids an action names (it does not depend on the state): the card laid,
    /// discarded, dealt or drawn, both cards of a two-card discard, none for the other actions
    /// (go, an exchange size, an announcement, pass). An id out of range is an error.
    fn action_cards(&self, action: u16) -> Result<Vec<u16>>;

    // ------------------------------------------------------------------ provided over them

    /// The error for an illegal `action` (any integer): an [`Error::Illegal`] naming the action
    /// (with its text when it is an action id), the phase, the player to move and the legal set.
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::piquet::GameConfig;
    /// let state = GameConfig::default().new_initial_state();
    /// let msg = state.illegal_action_error(-1).to_string();
    /// assert!(msg.starts_with("illegal action -1 in the cut phase for chance; legal actions: [0 ("));
    /// ```
    #[cold]
    fn illegal_action_error(&self, action: i64) -> Error {
        let name = u16::try_from(action)
            .ok()
            .and_then(|a| self.action_to_string(a).ok())
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let who = match self.current_player() {
            CHANCE => "chance".to_string(),
            TERMINAL => "nobody (the game is over)".to_string(),
            p => format!("player {p}"),
        };
        let legal: Vec<String> = self
            .legal_actions()
            .iter()
            .map(|&a| format!("{a} ({})", self.action_to_string(a).unwrap_or_default()))
            .collect();
        Error::Illegal(format!(
            "illegal action {action}{name} in the {} phase for {who}; legal actions: [{}]",
            self.phase_name(),
            legal.join(", ")
        ))
    }

    /// Number of players.
    #[inline]
    fn num_players(&self) -> usize {
        self.game().num_players()
    }

    /// Is a chance event next?
    #[inline]
    fn is_chance_node(&self) -> bool {
        self.current_player() == CHANCE
    }

    /// Is the game over?
    #[inline]
    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL
    }

    /// The legal actions, ascending (on the stack).
    #[inline]
    fn legal_actions(&self) -> ActionList {
        let mut out = ActionList::new();
        self.fill_legal_actions(&mut out);
        out
    }

    /// A bool per action id ([`Game::NUM_DISTINCT_ACTIONS`]), true at the legal actions.
    fn legal_actions_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; Self::Game::NUM_DISTINCT_ACTIONS];
        for &a in self.legal_actions().iter() {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = true;
            }
        }
        mask
    }

    /// Apply an action; an illegal one is an [`Error::Illegal`] and leaves the state unchanged.
    #[inline]
    fn apply_action(&mut self, action: u16) -> Result<()> {
        if !self.is_legal(action) {
            return Err(self.illegal_action_error(action as i64));
        }
        self.apply_legal(action);
        Ok(())
    }

    /// This state after `action` (this one is unchanged).
    fn child(&self, action: u16) -> Result<Self> {
        let mut next = *self;
        next.apply_action(action)?;
        Ok(next)
    }

    /// The chance outcomes with their probabilities (ascending actions); empty unless
    /// [`is_chance_node`](GameState::is_chance_node). Both engines draw uniformly among the
    /// cards left.
    fn chance_outcomes(&self) -> Vec<(u16, f64)> {
        if !self.is_chance_node() {
            return Vec::new();
        }
        let legal = self.legal_actions();
        let p = 1.0 / legal.len().max(1) as f64;
        legal.iter().map(|&a| (a, p)).collect()
    }

    /// Apply sampled chance outcomes until a player is to move (or the game ends); returns how
    /// many were applied.
    #[inline]
    fn apply_sampled_chances(&mut self, rng: &mut Rng) -> u32 {
        let mut n = 0;
        while let Some(a) = self.sample_chance(rng) {
            self.apply_legal(a);
            n += 1;
        }
        n
    }

    /// The payoff of every player.
    fn returns(&self) -> Vec<f64> {
        (0..self.num_players()).map(|p| self.player_return(p)).collect()
    }

    /// The points made by the last action, per player.
    fn rewards(&self) -> Vec<f64> {
        (0..self.num_players()).map(|p| self.player_reward(p)).collect()
    }

    /// The score of every player (partners share their side's).
    fn scores(&self) -> Vec<u64> {
        (0..self.num_players()).map(|p| self.side_score(self.side_of(p))).collect()
    }

    /// [`information_state_tensor`](GameState::information_state_tensor) as a new vector.
    fn information_state_tensor_vec(&self, player: usize) -> Result<Vec<f32>> {
        let mut out = vec![0.0; Self::Game::INFO_TENSOR_SIZE];
        self.information_state_tensor(player, &mut out)?;
        Ok(out)
    }

    /// [`observation_tensor`](GameState::observation_tensor) as a new vector.
    fn observation_tensor_vec(&self, player: usize) -> Result<Vec<f32>> {
        let mut out = vec![0.0; Self::Game::OBS_TENSOR_SIZE];
        self.observation_tensor(player, &mut out)?;
        Ok(out)
    }
}

/// The [`Game`] items both engines write alike, expanded inside an `impl Game for GameConfig`
/// block of a module that also defines `State` (with `State::new(GameConfig)`), `PointSource`
/// (with `NAMES`), the constants `NUM_DISTINCT_ACTIONS`, `INFO_TENSOR_SIZE` and
/// `OBS_TENSOR_SIZE`, and the inherent `GameConfig::deserialize_state(self, &str)`.
macro_rules! game_common {
    () => {
        type State = State;
        const NUM_DISTINCT_ACTIONS: usize = NUM_DISTINCT_ACTIONS;
        const INFO_TENSOR_SIZE: usize = INFO_TENSOR_SIZE;
        const OBS_TENSOR_SIZE: usize = OBS_TENSOR_SIZE;
        const POINT_SOURCES: &'static [&'static str] = &PointSource::NAMES;

        fn new_initial_state(&self) -> State {
            State::new(*self)
        }

        fn deserialize_state(&self, text: &str) -> $crate::error::Result<State> {
            GameConfig::deserialize_state(*self, text)
        }
    };
}
pub(crate) use game_common;

/// The [`GameState`] methods both engines write alike, expanded inside an
/// `impl GameState for State` block (written once here, so the two engines cannot drift apart):
///
/// * `game` reads the field `config`; `is_terminal` and `is_chance_node` read the field `phase`
///   (`Phase::GameOver`, and the pattern `chance_phases`), inlined like the rest of the hot path;
/// * the information and text methods delegate to the state's inherent methods of the same name
///   (`information_state_string`, `information_state_tensor`, `observation_tensor`,
///   `resample_from_infostate`, `serialize`), and the action texts and cards to the functions
///   of the module `actions` (`action_to_string`, `string_to_action`, `action_cards`);
/// * the accessors read the fields `scores` (one total a side), `sources` (one row of points a
///   side, by [`Game::POINT_SOURCES`] index), `deals` and `phase` (with a
///   `name(self) -> &'static str`); a side or source out of range reads 0.
///
/// Plain static calls and field reads: no dynamic dispatch, no allocation beyond the callee's.
macro_rules! game_state_common {
    (actions: $actions:ident, chance_phases: $chance:pat) => {
        #[inline]
        fn game(&self) -> <Self as $crate::engine::GameState>::Game {
            self.config
        }

        #[inline]
        fn is_chance_node(&self) -> bool {
            matches!(self.phase, $chance)
        }

        #[inline]
        fn is_terminal(&self) -> bool {
            self.phase == Phase::GameOver
        }

        fn side_score(&self, side: usize) -> u64 {
            self.scores.get(side).map_or(0, |&s| s as u64)
        }

        fn points_by_source(&self, side: usize, source: usize) -> u64 {
            self.sources.get(side).and_then(|s| s.get(source)).map_or(0, |&p| p as u64)
        }

        fn deals(&self) -> u32 {
            self.deals as u32
        }

        fn phase_name(&self) -> &'static str {
            self.phase.name()
        }

        fn information_state_string(&self, player: usize) -> $crate::error::Result<String> {
            Self::information_state_string(self, player)
        }

        fn observation_string(&self, player: usize) -> $crate::error::Result<String> {
            Self::observation_string(self, player)
        }

        fn information_state_tensor(&self, player: usize, out: &mut [f32]) -> $crate::error::Result<()> {
            Self::information_state_tensor(self, player, out)
        }

        fn observation_tensor(&self, player: usize, out: &mut [f32]) -> $crate::error::Result<()> {
            Self::observation_tensor(self, player, out)
        }

        fn resample_from_infostate(&self, player: usize, rng: &mut $crate::rng::Rng) -> $crate::error::Result<Self> {
            Self::resample_from_infostate(self, player, rng)
        }

        fn serialize(&self) -> String {
            Self::serialize(self)
        }

        fn action_to_string(&self, action: u16) -> $crate::error::Result<String> {
            $actions::action_to_string(action)
        }

        fn string_to_action(&self, text: &str) -> $crate::error::Result<u16> {
            $actions::string_to_action(text)
        }

        fn action_cards(&self, action: u16) -> $crate::error::Result<Vec<u16>> {
            $actions::action_cards(action)
        }
    };
}
pub(crate) use game_state_common;

/// `"P0"`, … for a player, `"chance"` / `"nobody"` for the sentinels.
pub fn player_text(player: Player) -> String {
    match player {
        p if p >= 0 => format!("P{p}"),
        CHANCE => "chance".into(),
        _ => "nobody".into(),
    }
}

/// A player index checked against the game: `Ok(player)` or an error naming it and the range.
pub fn check_player<S: GameState>(state: &S, player: usize) -> Result<usize> {
    let n = state.num_players();
    if player < n {
        Ok(player)
    } else {
        Err(Error::InvalidValue(format!("no player {player} in {} (players are 0..{n})", S::Game::NAME)))
    }
}

#[cfg(test)]
mod tests {
    use super::{play_out, FirstPolicy, Game, GameState, Policy};
    use crate::error::Error;
    use crate::rng::Rng;

    /// A finished game of `game` (every seat plays the lowest legal action).
    fn finished<G: Game>(game: G) -> G::State {
        let mut players: Vec<Box<dyn Policy<G::State>>> =
            (0..game.num_players()).map(|_| Box::new(FirstPolicy) as Box<dyn Policy<G::State>>).collect();
        play_out(game.new_initial_state(), &mut players, &mut Rng::new(3)).unwrap()
    }

    /// The one message builder, checked whole for both engines.
    #[test]
    fn illegal_action_messages_name_action_phase_player_and_legal_set() {
        let over = finished(crate::cribbage::GameConfig::default());
        let err = over.illegal_action_error(1);
        assert!(matches!(err, Error::Illegal(_)));
        assert_eq!(
            err.to_string(),
            "illegal action 1 (2C) in the game-over phase for nobody (the game is over); legal actions: []"
        );
        let over = finished(crate::piquet::GameConfig::default());
        assert_eq!(
            over.illegal_action_error(0).to_string(),
            "illegal action 0 (7C) in the game-over phase for nobody (the game is over); legal actions: []"
        );
        // Not an action id: no text after the number; every legal action with its text.
        let start = crate::piquet::GameConfig::default().new_initial_state();
        let msg = start.illegal_action_error(-3).to_string();
        assert!(
            msg.starts_with("illegal action -3 in the cut phase for chance; legal actions: [0 (7C), 1 (8C), "),
            "{msg}"
        );
        assert!(msg.ends_with(", 31 (AS)]"), "{msg}");
        assert_eq!(msg.matches(" (").count(), 32, "{msg}");
    }

    /// `max_game_length` by hand, from each engine's reasoning (deals × a deal's actions + the
    /// cut's 32 rounds).
    #[test]
    fn max_game_length_hand_checked() {
        use crate::cribbage::{GameConfig as C, Variant};
        use crate::piquet::{GameConfig as P, Rules, Scope};
        let crib = |v, first: Option<usize>| C::new(v, None).unwrap().with_first_dealer(first).unwrap();
        // Five-card to 61: 2 × 60 + 1 deals of 10 dealt + 2 discards + starter + 6 laid + 2 goes.
        assert_eq!(crib(Variant::FiveCard, Some(0)).max_game_length(), 121 * 21);
        assert_eq!(crib(Variant::FiveCard, None).max_game_length(), 121 * 21 + 2 * 32);
        // Six-card to 121: 241 deals of 12 + 2 + 1 + 8 laid + 2 × 8 goes.
        assert_eq!(crib(Variant::SixCard, None).max_game_length(), 241 * 39 + 64);
        // Three players, three sides: 361 deals of 15 + 1 (crib) + 3 + 1 + 12 + 3 × 12.
        assert_eq!(crib(Variant::ThreePlayer, None).max_game_length(), 361 * 68 + 3 * 32);
        // Four players, two sides: 241 deals of 20 + 4 + 1 + 16 + 4 × 16.
        assert_eq!(crib(Variant::FourPlayer, None).max_game_length(), 241 * 105 + 4 * 32);
        assert_eq!(C::new(Variant::SixCard, Some(5)).unwrap().max_game_length(), 9 * 39 + 64);
        // Piquet, russian (open capot: two announcements): a deal is 24 + 2 + 16 + 2 + 24.
        let piquet =
            |rules, scope, first: Option<usize>| P::new(rules, scope).unwrap().with_first_dealer(first).unwrap();
        assert_eq!(piquet(Rules::russian(), Scope::Deal, None).max_game_length(), 68 + 64);
        assert_eq!(piquet(Rules::russian(), Scope::Deal, Some(1)).max_game_length(), 68);
        // The russian partiya of 2 koroliks: 4 deals, a draw before each korolik.
        assert_eq!(piquet(Rules::russian(), Scope::Partiya, None).max_game_length(), 4 * 68 + 2 * 64);
        assert_eq!(piquet(Rules::russian(), Scope::Partiya, Some(0)).max_game_length(), 4 * 68 + 64);
        // The rubicon partie (no announcements): 6 deals + 16 pairs, one draw.
        assert_eq!(piquet(Rules::rubicon(), Scope::Partiya, None).max_game_length(), 38 * 66 + 64);
    }

    /// No simulated game is longer than `max_game_length` (the conformance suite checks it too,
    /// over fewer games), with random and first-action players.
    #[test]
    fn simulated_games_stay_within_max_game_length() {
        use crate::engine::{simulate, PolicyFactory, RandomPolicy};
        fn longest<G: Game>(game: G, first: bool) -> u64 {
            let policy: PolicyFactory<G::State> = if first {
                Box::new(|_| Box::new(FirstPolicy) as Box<dyn Policy<G::State>>)
            } else {
                Box::new(|_| Box::new(RandomPolicy) as Box<dyn Policy<G::State>>)
            };
            let columns = simulate(&game, &[policy], 5, 0, 200, Some(1)).unwrap();
            let most = columns.actions.iter().copied().max().unwrap() as u64;
            assert!(most <= game.max_game_length(), "{game:?}: {most} > {}", game.max_game_length());
            most
        }
        use crate::cribbage::{GameConfig as C, Variant};
        use crate::piquet::{GameConfig as P, Rules, Scope};
        for v in Variant::ALL {
            for first in [false, true] {
                longest(C::new(v, Some(31)).unwrap(), first);
            }
        }
        longest(C::default(), false);
        for rules in [Rules::russian(), Rules::rubicon()] {
            for scope in [Scope::Deal, Scope::Partiya] {
                longest(P::new(rules, scope).unwrap(), false);
            }
        }
    }

    /// The stack's draw: deterministic for a seed and a history length, the same after an undo,
    /// and uniform enough to reach every card from the first state.
    #[test]
    fn stack_sample_chance_is_seeded_by_seed_and_move_number() {
        use crate::engine::StateStack;
        let mut stack = StateStack::new(crate::cribbage::GameConfig::default().new_initial_state());
        let first = stack.sample_chance(11).unwrap();
        assert_eq!(stack.sample_chance(11), Some(first));
        let mut seen = [false; 52];
        for seed in 0..2000 {
            seen[stack.sample_chance(seed).unwrap() as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        stack.apply_action(first).unwrap();
        let second = stack.sample_chance(11).unwrap();
        assert_ne!(second, first); // the cut card is on the table
        stack.undo_action().unwrap();
        assert_eq!(stack.sample_chance(11), Some(first));
        let mut players: Vec<Box<dyn Policy<_>>> = vec![Box::new(FirstPolicy), Box::new(FirstPolicy)];
        let end = play_out(*stack.state(), &mut players, &mut Rng::new(1)).unwrap();
        assert_eq!(StateStack::new(end).sample_chance(11), None);
    }
}
