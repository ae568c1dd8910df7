//! Bindings for the cribbage game engine: `cribpiquet.cribbage.Game`, `State` and `simulate`.
//!
//! `State` wraps the core's `Copy` state with an undo stack (`engine::Tracked`, shared with
//! piquet). The hot methods (`legal_actions`,
//! `apply_action`, `clone`, `is_terminal`, `current_player`) build plain Python values directly
//! and allocate nothing per call beyond the result (and the amortised growth of the stack), so
//! a Python playout loop costs a few hundred nanoseconds per action.

use std::fmt::Write;

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use super::engine::{
    action_id, action_list, action_text, column, known_action, mover_text, policies_from, seed_from, sim_games,
    sim_seed, sim_threads, split_player, uniform_chance_outcomes, SatInt, Tracked,
};
use crate::cribbage::{self as core, GameConfig, Phase, Variant};
use crate::error::Error;
use crate::policy::{CHANCE, TERMINAL};
use crate::rng::Rng;

// ------------------------------------------------------------------------------------ helpers

fn config_from(variant: &str, target: Option<i64>) -> PyResult<GameConfig> {
    let variant: Variant = variant.parse()?;
    let target = match target {
        None => None,
        Some(t) => Some(
            u32::try_from(t)
                .map_err(|_| Error::InvalidValue(format!("the target must be 1..={}, got {t}", core::MAX_TARGET)))?,
        ),
    };
    Ok(GameConfig::new(variant, target)?)
}

fn card_ids(hand: core::Hand) -> Vec<u16> {
    hand.iter().map(|c| c.id() as u16).collect()
}

fn cards_text(hand: core::Hand) -> String {
    if hand.is_empty() {
        "-".into()
    } else {
        hand.to_string()
    }
}

// --------------------------------------------------------------------------------------- Game

/// A cribbage game: the variant and the target score (OpenSpiel's ``Game``).
///
/// ``variant`` is ``"five-card"`` (two players, 61, one count to 31, three for last),
/// ``"six-card"`` (121), ``"three-player"`` or ``"four-player"`` (partners 0 & 2 against 1 & 3,
/// shared score); ``target`` overrides 61/121 (1..=10000). Games are immutable, hashable and
/// picklable.
///
/// >>> game = Game("five-card")
/// >>> game, game.num_players(), game.num_distinct_actions()
/// (Game('five-card', target=61), 2, 1379)
#[pyclass(frozen, eq, hash, skip_from_py_object, name = "Game", module = "cribpiquet.cribbage")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game(GameConfig);

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant = "six-card", *, target = None, lurch = false))]
    fn new(variant: &str, target: Option<SatInt>, lurch: bool) -> PyResult<Game> {
        Ok(Game(config_from(variant, target.map(|t| t.0))?.with_lurch(lurch)))
    }

    /// Whether the lurch/skunk match extra is on: a win counts double when the losing side ends
    /// more than 30 short of the target (121-point games: under 91; 61: under 31) and triple,
    /// in games to 121 or more, when more than 60 short. It scales ``returns()``.
    #[getter]
    fn lurch(&self) -> bool {
        self.0.lurch()
    }

    /// The variant name: ``"five-card"``, ``"six-card"``, ``"three-player"`` or ``"four-player"``.
    #[getter]
    fn variant(&self) -> &'static str {
        self.0.variant().name()
    }

    /// The score that wins.
    #[getter]
    fn target(&self) -> u16 {
        self.0.target()
    }

    /// Number of players (2, 2, 3, 4).
    fn num_players(&self) -> usize {
        self.0.num_players()
    }

    /// Number of sides that score (2, or 3 in the three-player game).
    fn num_sides(&self) -> usize {
        self.0.variant().num_sides()
    }

    /// Number of action ids, 1379: 52 cards, 1,326 two-card discards, go.
    fn num_distinct_actions(&self) -> usize {
        self.0.num_distinct_actions()
    }

    /// The most chance outcomes at one node: 52 (the cut).
    fn max_chance_outcomes(&self) -> usize {
        52
    }

    /// The lowest return: -1 (-0.5 in the three-player game), times 2 or 3 with ``lurch``.
    fn min_utility(&self) -> f64 {
        -self.max_utility() / (self.0.variant().num_sides() as f64 - 1.0)
    }

    /// The highest return: +1 for the winning side (2 or 3 with ``lurch``).
    fn max_utility(&self) -> f64 {
        if self.0.lurch() {
            self.0.lurch_multiplier(0) as f64
        } else {
            1.0
        }
    }

    /// The sum of the returns over the sides: 0.
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// The state before the cut for the first deal (a chance node).
    fn new_initial_state(&self) -> State {
        State::fresh(self.0.new_initial_state())
    }

    /// ``[1293]``: the shape of :meth:`State.information_state_tensor` (every variant).
    fn information_state_tensor_shape(&self) -> Vec<usize> {
        vec![self.0.information_state_tensor_size()]
    }

    /// ``1293``.
    fn information_state_tensor_size(&self) -> usize {
        self.0.information_state_tensor_size()
    }

    /// ``[813]``: the shape of :meth:`State.observation_tensor` (every variant).
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.0.observation_tensor_size()]
    }

    /// ``813``.
    fn observation_tensor_size(&self) -> usize {
        self.0.observation_tensor_size()
    }

    /// A state from :meth:`State.serialize` text (of this game); it has no history to undo.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        Ok(State::fresh(self.0.deserialize_state(text)?))
    }

    fn __repr__(&self) -> String {
        let lurch = if self.0.lurch() { ", lurch=True" } else { "" };
        format!("Game('{}', target={}{lurch})", self.0.variant().name(), self.0.target())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (&'static str, u16, bool))> {
        let c = slf.get().0;
        Ok((slf.get_type().getattr("_restore")?, (c.variant().name(), c.target(), c.lurch())))
    }

    /// Unpickling (``target`` and ``lurch`` are keyword-only in the constructor).
    #[classmethod]
    #[pyo3(signature = (variant, target, lurch = false))]
    fn _restore(_cls: &Bound<'_, PyType>, variant: &str, target: i64, lurch: bool) -> PyResult<Game> {
        Ok(Game(config_from(variant, Some(target))?.with_lurch(lurch)))
    }
}

// -------------------------------------------------------------------------------------- State

/// A cribbage game state with OpenSpiel's method names, and undo.
///
/// Get one from :meth:`Game.new_initial_state`. Actions are ints: card ids ``0..52`` (a card
/// laid, a single discard in the three- and four-player games, and every chance outcome: cut,
/// deal, starter), ``52 + pair index`` for the two-card discards (see :func:`pair_action`), and
/// ``GO`` (1378). The show is automatic after the last card of the play.
///
/// ``clone()`` copies the state and its history; ``undo_action()`` restores the state before
/// the last action exactly (a clone rebuilds its undo stack by replaying its history the first
/// time it needs it).
///
/// >>> s = Game("six-card").new_initial_state()
/// >>> s.current_player() == CHANCE, len(s.legal_actions())
/// (True, 52)
#[pyclass(name = "State", module = "cribpiquet.cribbage")]
pub struct State(Tracked<core::State>);

/// `self.state`, `self.apply(a)`, … reach the tracked core state (see [`Tracked`]).
impl std::ops::Deref for State {
    type Target = Tracked<core::State>;
    fn deref(&self) -> &Tracked<core::State> {
        &self.0
    }
}

impl std::ops::DerefMut for State {
    fn deref_mut(&mut self) -> &mut Tracked<core::State> {
        &mut self.0
    }
}

impl State {
    fn fresh(state: core::State) -> State {
        State(Tracked::fresh(state))
    }

    /// The player for a per-player query: the one given (checked) or the player to move.
    fn player_or_current(&self, player: Option<i64>, what: &str) -> PyResult<usize> {
        self.0.player_or_current(player, what, self.state.variant().name())
    }

    fn seat_list(&self, side: usize) -> String {
        let n = self.state.num_players();
        (0..n).filter(|&q| self.state.side_of(q) == side).map(|q| format!("P{q}")).collect::<Vec<_>>().join("+")
    }

    fn scores_text(&self) -> String {
        self.state
            .side_scores()
            .iter()
            .enumerate()
            .map(|(side, s)| format!("{} {s}", self.seat_list(side)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn mover_text(&self) -> String {
        mover_text(self.state.current_player())
    }
}

/// What `State.__reduce__` returns: `State._restore` and its arguments (game, root, history).
type Reduced<'py> = (Bound<'py, PyAny>, (Game, String, Vec<u16>));

#[pymethods]
impl State {
    /// The player to move, ``CHANCE`` (-1) at a cut, deal or starter, ``TERMINAL`` (-4) at the end.
    fn current_player(&self) -> i32 {
        self.state.current_player()
    }

    /// Is a chance event (cut, deal, starter) next?
    fn is_chance_node(&self) -> bool {
        self.state.is_chance_node()
    }

    /// Is a player (not chance) to move?
    fn is_player_node(&self) -> bool {
        self.state.current_player() >= 0
    }

    /// Is the game over?
    fn is_terminal(&self) -> bool {
        self.state.is_terminal()
    }

    /// Number of players.
    fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// The game of this state.
    fn get_game(&self) -> Game {
        Game(self.state.config())
    }

    /// The legal actions, ascending (the chance outcomes at a chance node; empty at the end).
    /// With ``player``, the empty list unless that player is to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyList>> {
        if let Some(p) = player {
            if p != self.state.current_player() as i64 {
                return Ok(PyList::empty(py));
            }
        }
        action_list(py, &self.state.legal_actions())
    }

    /// A bool array of length ``NUM_DISTINCT_ACTIONS``, true at the legal actions.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i64>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; core::NUM_DISTINCT_ACTIONS];
        if player.is_none_or(|p| p == self.state.current_player() as i64) {
            for &a in self.state.legal_actions().iter() {
                mask[a as usize] = true;
            }
        }
        mask.into_pyarray(py)
    }

    /// ``[(action, probability), ...]`` at a chance node (uniform over the cards still in the
    /// pack, ascending); empty elsewhere.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if !self.state.is_chance_node() {
            return Ok(PyList::empty(py));
        }
        uniform_chance_outcomes(py, &self.state.legal_actions())
    }

    /// Apply an action (a decision or a chance outcome). An illegal action raises
    /// ``ValueError`` naming it and the legal set, and leaves the state unchanged; a non-int
    /// raises ``TypeError``.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_id::<core::State>(action)?;
        self.apply(a)
    }

    /// A new state: this one after ``action`` (this one is unchanged).
    fn child(&self, action: &Bound<'_, PyAny>) -> PyResult<State> {
        let a = action_id::<core::State>(action)?;
        Ok(State(self.0.child(a)?))
    }

    /// An independent copy, with the same history (undo works on it too).
    fn clone(&self) -> State {
        State(self.0.copy())
    }

    fn __copy__(&self) -> State {
        State(self.0.copy())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        State(self.0.copy())
    }

    /// Undo the last action exactly and return it; ``ValueError`` if there is none. OpenSpiel's
    /// ``undo_action(player, action)`` form is accepted: the action must be the last one.
    #[pyo3(signature = (player = None, action = None))]
    fn undo_action(&mut self, player: Option<i64>, action: Option<i64>) -> PyResult<u16> {
        self.undo(player, action)
    }

    /// The payoff of each player: 0 until the end, then +1 for the winning side and -1 for the
    /// others (-0.5 each in the three-player game).
    fn returns(&self) -> Vec<f64> {
        self.state.returns()[..self.state.num_players()].to_vec()
    }

    /// The payoff of one player.
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let p = self.player_or_current(Some(player), "player_return")?;
        Ok(self.state.returns()[p])
    }

    /// Points made by the last action, per player (an automatic show belongs to the last card
    /// of the play; partners share their side's points). Not the payoff: see :meth:`returns`.
    fn rewards(&self) -> Vec<f64> {
        self.state.rewards()[..self.state.num_players()].to_vec()
    }

    /// The score of each player (partners share their side's score; not capped at the target).
    fn scores(&self) -> Vec<u16> {
        self.state.scores()[..self.state.num_players()].to_vec()
    }

    /// The score of each side (2 sides, or 3 in the three-player game).
    fn side_scores(&self) -> Vec<u16> {
        self.state.side_scores().to_vec()
    }

    /// The text of an action: a card ``"5H"``, a discard ``"5H+JC"`` or ``"go"``. Also
    /// ``action_to_string(player, action)`` (the text does not depend on the player).
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(
        &self,
        player_or_action: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let a = known_action::<core::State>(split_player(player_or_action, action)?)?;
        Ok(self.state.action_to_string(self.state.current_player(), a)?)
    }

    /// The action of a text: ``"5H"`` (a card), ``"5H+JC"`` or ``"5H JC"`` (a discard), ``"go"``.
    /// Also ``string_to_action(player, text)``. Legality is not checked.
    #[pyo3(signature = (player_or_text, text = None))]
    fn string_to_action(&self, player_or_text: &Bound<'_, PyAny>, text: Option<&Bound<'_, PyAny>>) -> PyResult<u16> {
        let t = split_player(player_or_text, text)?;
        let t = action_text(t)?;
        Ok(self.state.string_to_action(self.state.current_player(), t.to_str()?)?)
    }

    /// The actions applied so far, oldest first (chance outcomes included). A state from
    /// ``deserialize_state`` or ``resample_from_infostate`` starts a new history.
    fn history(&self) -> Vec<u16> {
        self.0.history().to_vec()
    }

    /// ``len(history())``.
    fn move_number(&self) -> usize {
        self.0.history().len()
    }

    /// Everything ``player`` (default: the player to move) knows, as text: public facts, his
    /// cards and his own discards. Equal strings mean equal information.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<i64>) -> PyResult<String> {
        let p = self.player_or_current(player, "information_state_string")?;
        Ok(self.state.information_state_string(p)?)
    }

    /// The information state of ``player`` (default: the player to move) as float32, shape
    /// ``game.information_state_tensor_shape()`` (layout: ``INFO_TENSOR_LAYOUT``).
    #[pyo3(signature = (player = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player_or_current(player, "information_state_tensor")?;
        Ok(self.state.information_state_tensor_vec(p)?.into_pyarray(py))
    }

    /// The current view of ``player`` as float32, shape ``game.observation_tensor_shape()``: the
    /// cards laid as sets (current count, earlier) instead of the ordered history.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player_or_current(player, "observation_tensor")?;
        Ok(self.state.observation_tensor_vec(p)?.into_pyarray(py))
    }

    /// A state drawn uniformly among those consistent with everything ``player`` has seen (the
    /// other hands, the crib cards he did not give and the pack redealt; every go kept
    /// truthful), reproducible for a ``seed``. It starts a new history.
    fn resample_from_infostate(&self, player: i64, seed: &Bound<'_, PyAny>) -> PyResult<State> {
        let p = self.player_or_current(Some(player), "resample_from_infostate")?;
        let mut rng = Rng::new(seed_from(seed)?);
        Ok(State::fresh(self.state.resample_from_infostate(p, &mut rng)?))
    }

    /// The state as one line of text (no history); ``game.deserialize_state`` reads it back.
    fn serialize(&self) -> String {
        self.state.serialize()
    }

    /// ``"cut"``, ``"deal"``, ``"discard"``, ``"starter"``, ``"play"`` or ``"game-over"``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.state.phase().name()
    }

    /// The dealer, or None before the cut for the first deal is decided.
    #[getter]
    fn dealer(&self) -> Option<usize> {
        self.state.dealer()
    }

    /// The winning side once the game is over (the player in two- and three-player games,
    /// ``player % 2`` in the four-player game), else None.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.state.winner()
    }

    /// What the finished game counts: 1, or 2/3 for a skunk/double skunk when the game's
    /// ``lurch`` extra is on; 0 before the end.
    #[getter]
    fn game_value(&self) -> u8 {
        self.state.game_value()
    }

    /// Deals begun (1 during the first deal).
    #[getter]
    fn deals(&self) -> u16 {
        self.state.deals()
    }

    /// The running count of the play.
    #[getter]
    fn count(&self) -> u8 {
        self.state.count()
    }

    /// The starter's card id, once turned.
    #[getter]
    fn starter(&self) -> Option<u8> {
        self.state.starter().map(|c| c.id())
    }

    /// The unplayed card ids of ``player``, ascending (omniscient: no information set).
    fn hand(&self, player: i64) -> PyResult<Vec<u16>> {
        let p = self.player_or_current(Some(player), "hand")?;
        Ok(card_ids(self.state.hand(p)))
    }

    /// The card ids ``player`` keeps for the show (dealt and not discarded, played or not).
    fn kept(&self, player: i64) -> PyResult<Vec<u16>> {
        let p = self.player_or_current(Some(player), "kept")?;
        Ok(card_ids(self.state.kept(p)))
    }

    /// The card ids ``player`` gave to the crib this deal.
    fn discards(&self, player: i64) -> PyResult<Vec<u16>> {
        let p = self.player_or_current(Some(player), "discards")?;
        Ok(card_ids(self.state.discards(p)))
    }

    /// The crib's card ids so far.
    fn crib(&self) -> Vec<u16> {
        card_ids(self.state.crib())
    }

    /// The cards laid this deal in order, as ``(player, card id)``.
    fn plays(&self) -> Vec<(usize, u8)> {
        self.state.plays().map(|(p, c)| (p, c.id())).collect()
    }

    /// The same position (the history is not compared). States are mutable, so unhashable.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<State>() {
            Ok(o) => o.try_borrow().map(|o| o.state == self.state).unwrap_or(false),
            Err(_) => false,
        }
    }

    /// One line: variant, deal, phase, who moves, scores.
    fn __repr__(&self) -> String {
        let s = &self.state;
        format!(
            "<cribbage.State {} to {}, deal {}, {}, to move {}, scores {}>",
            s.variant(),
            s.config().target(),
            s.deals(),
            s.phase().name(),
            self.mover_text(),
            self.scores_text()
        )
    }

    /// Every card on the table and in the hands, for a human debugging (omniscient).
    fn __str__(&self) -> String {
        let s = &self.state;
        let mut out = String::new();
        let dealer = s.dealer().map(|d| format!("P{d}")).unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "{} cribbage to {}, deal {}, phase {}, dealer {dealer}, to move {}",
            s.variant(),
            s.config().target(),
            s.deals(),
            s.phase().name(),
            self.mover_text()
        );
        let _ = write!(out, "scores: {}", self.scores_text());
        if let Some(w) = s.winner() {
            let _ = write!(out, " (winner {})", self.seat_list(w));
        }
        out.push('\n');
        if s.deals() == 0 {
            let cuts: Vec<String> = s
                .cut_cards()
                .iter()
                .take(s.num_players())
                .enumerate()
                .map(|(p, c)| format!("P{p} {}", c.map(|c| c.to_string()).unwrap_or_else(|| "-".into())))
                .collect();
            let _ = write!(out, "cut: {}", cuts.join(", "));
            return out;
        }
        for p in 0..s.num_players() {
            let _ = writeln!(
                out,
                "P{p}: hand {} | shows {} | gave {}",
                cards_text(s.hand(p)),
                cards_text(s.kept(p)),
                cards_text(s.discards(p))
            );
        }
        let starter = s.starter().map(|c| c.to_string()).unwrap_or_else(|| "-".into());
        let _ = writeln!(out, "crib: {} | starter {starter}", cards_text(s.crib()));
        let plays: Vec<String> = s.plays().map(|(p, c)| format!("P{p} {c}")).collect();
        let _ =
            write!(out, "play: {} | count {}", if plays.is_empty() { "-".into() } else { plays.join(", ") }, s.count());
        out
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.borrow();
        let restore = slf.get_type().getattr("_restore")?;
        Ok((restore, (Game(this.state.config()), this.0.root().serialize(), this.0.history().to_vec())))
    }

    /// Unpickling: the root state's text and the history, replayed (so undo survives).
    #[classmethod]
    fn _restore(_cls: &Bound<'_, PyType>, game: &Bound<'_, PyAny>, root: &str, history: Vec<i64>) -> PyResult<State> {
        let game = game.cast::<Game>().map_err(|_| PyTypeError::new_err("expected a cribbage Game"))?;
        Ok(State(Tracked::replay(game.get().0.deserialize_state(root)?, &history)?))
    }
}

// ------------------------------------------------------------------------------- functions

/// The discard action of the two cards with ids ``a`` and ``b`` (either order, distinct):
/// ``52 + b*(b-1)/2 + a`` for ``a < b``.
///
/// >>> pair_action(0, 1), pair_action(51, 50)
/// (52, 1377)
#[pyfunction]
fn cribbage_pair_action(a: i64, b: i64) -> PyResult<u16> {
    let bad = || PyValueError::new_err(format!("no discard of cards {a} and {b} (two distinct ids 0..51)"));
    let (a16, b16) = (u16::try_from(a).map_err(|_| bad())?, u16::try_from(b).map_err(|_| bad())?);
    core::pair_action(a16, b16).ok_or_else(bad)
}

/// The two card ids ``(a, b)``, ``a < b``, of a discard action (52..1377).
///
/// >>> action_pair(52)
/// (0, 1)
#[pyfunction]
fn cribbage_action_pair(action: i64) -> PyResult<(u16, u16)> {
    u16::try_from(action).ok().and_then(core::action_pair).ok_or_else(|| {
        PyValueError::new_err(format!(
            "action {action} is not a two-card discard (those are {}..{})",
            core::PAIR_BASE,
            core::PAIR_BASE + core::NUM_PAIRS
        ))
    })
}

/// The engine's constants as a dict (``cribpiquet.cribbage`` exports them as module constants).
#[pyfunction]
fn cribbage_game_constants(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("CHANCE", CHANCE)?;
    d.set_item("TERMINAL", TERMINAL)?;
    d.set_item("GO", core::GO)?;
    d.set_item("PAIR_BASE", core::PAIR_BASE)?;
    d.set_item("NUM_PAIRS", core::NUM_PAIRS)?;
    d.set_item("NUM_DISTINCT_ACTIONS", core::NUM_DISTINCT_ACTIONS)?;
    d.set_item("INFO_TENSOR_SIZE", core::INFO_TENSOR_SIZE)?;
    d.set_item("OBS_TENSOR_SIZE", core::OBS_TENSOR_SIZE)?;
    d.set_item("MAX_TARGET", core::MAX_TARGET)?;
    d.set_item("VARIANTS", Variant::ALL.map(|v| v.name()).to_vec())?;
    d.set_item("PHASES", Phase::ALL.map(|p| p.name()).to_vec())?;
    d.set_item("POLICIES", crate::policy::POLICY_NAMES.to_vec())?;
    Ok(d)
}

/// Play ``n_games`` whole games in Rust, in parallel with the interpreter released, and return
/// per-game arrays. See ``cribpiquet.cribbage.simulate`` for the keys and shapes.
#[pyfunction]
#[pyo3(signature = (n_games, *, variant = "six-card", target = None, players = None, seed = None, threads = None))]
#[allow(clippy::too_many_arguments)]
fn cribbage_simulate<'py>(
    py: Python<'py>,
    n_games: SatInt,
    variant: &str,
    target: Option<SatInt>,
    players: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<SatInt>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config_from(variant, target.map(|t| t.0))?;
    let n_games = sim_games(n_games)?;
    let policies = policies_from(players, config.num_players())?;
    let seed = sim_seed(seed)?;
    let threads = sim_threads(threads)?;
    let r = py.detach(|| core::simulate(n_games, config, &policies, seed, threads))?;
    let sides = r.n_sides;
    let d = PyDict::new(py);
    d.set_item("scores", column(py, &r.scores, sides)?)?;
    d.set_item("winner", r.winner.iter().map(|&w| w as i8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("first_dealer", r.first_dealer.iter().map(|&w| w as i8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("deals", r.deals.iter().map(|&x| x as i32).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("actions", r.actions.iter().map(|&x| x as i32).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("pegging", column(py, &r.pegging, sides)?)?;
    d.set_item("hand", column(py, &r.hand, sides)?)?;
    d.set_item("crib", column(py, &r.crib, sides)?)?;
    d.set_item("heels", column(py, &r.heels, sides)?)?;
    d.set_item("three_for_last", column(py, &r.three_for_last, sides)?)?;
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CribbageGame", py.get_type::<Game>())?;
    m.add("CribbageState", py.get_type::<State>())?;
    m.add_function(wrap_pyfunction!(cribbage_pair_action, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_action_pair, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_game_constants, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_simulate, m)?)?;
    Ok(())
}
