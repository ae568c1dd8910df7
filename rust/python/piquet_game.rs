//! Bindings for the piquet game engine: `cribpiquet.piquet.Game`, `State` and `simulate`.
//!
//! The same design as the cribbage engine's bindings: `State` wraps the core's `Copy` state in
//! the shared undo stack (`engine::Tracked`), and the hot methods build plain Python values
//! directly from cached ints.

use std::fmt::Write;

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use super::engine::{
    action_id, action_list, action_text, column, known_action, mover_text, policies_from, seed_from, sim_games,
    sim_seed, sim_threads, split_player, uniform_chance_outcomes, SatInt, Tracked,
};
use super::piquet::{rules_arg, Rules};
use crate::piquet::{self as core, GameConfig, Hand, Phase, PointSource, Scope, CATEGORY_NAMES};
use crate::policy::{CHANCE, TERMINAL};
use crate::rng::Rng;

// ------------------------------------------------------------------------------------ helpers

fn config_from(rules: Option<&Bound<'_, PyAny>>, scope: &str) -> PyResult<GameConfig> {
    Ok(GameConfig::new(rules_arg(rules)?, Scope::parse(scope)?)?)
}

/// `"russian"`, `"rubicon"` or `"custom"`: the rule set's name for one-line texts.
fn rules_label(rules: &core::Rules) -> &'static str {
    if *rules == core::Rules::russian() {
        "russian"
    } else if *rules == core::Rules::rubicon() {
        "rubicon"
    } else {
        "custom"
    }
}

/// Card ids as a list (`Vec<u16>`: pyo3 would turn a `Vec<u8>` into `bytes`).
fn card_ids(hand: Hand) -> Vec<u16> {
    hand.iter().map(|c| c.id() as u16).collect()
}

fn cards_text(hand: Hand) -> String {
    if hand.is_empty() {
        "-".into()
    } else {
        hand.to_string()
    }
}

fn card_text(id: u8) -> String {
    core::Card::from_id(id as i64).map(|c| c.to_string()).unwrap_or_else(|_| "?".into())
}

// --------------------------------------------------------------------------------------- Game

/// A piquet game: the rules and the scope (OpenSpiel's ``Game``).
///
/// ``rules`` is a :class:`Rules` value or its name (``Rules.russian()`` by default);
/// ``scope="deal"`` plays one deal after the draw for deal (the return is each player's score
/// minus the opponent's), ``scope="partiya"`` the whole match: the russian partiya of koroliks
/// (a draw for deal before each korolik, рефет, the net win as the return) or the rubicon partie
/// of six deals. Games are immutable, hashable and picklable.
///
/// >>> game = Game(scope="deal")
/// >>> game, game.num_players(), game.num_distinct_actions()
/// (Game(Rules.russian(), scope='deal'), 2, 43)
#[pyclass(frozen, eq, hash, skip_from_py_object, name = "Game", module = "cribpiquet.piquet")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game(GameConfig);

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = None, *, scope = "partiya"))]
    fn new(rules: Option<&Bound<'_, PyAny>>, scope: &str) -> PyResult<Game> {
        Ok(Game(config_from(rules, scope)?))
    }

    /// The rules (a :class:`Rules` value).
    #[getter]
    fn rules(&self) -> Rules {
        Rules(*self.0.rules())
    }

    /// ``"deal"`` or ``"partiya"`` (the match, for either rule set).
    #[getter]
    fn scope(&self) -> &'static str {
        self.0.scope().name()
    }

    /// Number of players: 2.
    fn num_players(&self) -> usize {
        self.0.num_players()
    }

    /// Number of action ids, 43: 32 cards, exchange sizes 0..8, announce capot, pass.
    fn num_distinct_actions(&self) -> usize {
        self.0.num_distinct_actions()
    }

    /// The most chance outcomes at one node: 32 (the draw for deal).
    fn max_chance_outcomes(&self) -> usize {
        32
    }

    /// The sum of the returns over the players: 0 (the game is zero-sum).
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// The state before the draw for the first deal (a chance node).
    fn new_initial_state(&self) -> State {
        State::fresh(self.0.new_initial_state())
    }

    /// ``[1117]``: the shape of :meth:`State.information_state_tensor`.
    fn information_state_tensor_shape(&self) -> Vec<usize> {
        vec![self.0.information_state_tensor_size()]
    }

    /// ``1117``.
    fn information_state_tensor_size(&self) -> usize {
        self.0.information_state_tensor_size()
    }

    /// ``[401]``: the shape of :meth:`State.observation_tensor`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.0.observation_tensor_size()]
    }

    /// ``401``.
    fn observation_tensor_size(&self) -> usize {
        self.0.observation_tensor_size()
    }

    /// A state from :meth:`State.serialize` text (of this game); it has no history to undo.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        Ok(State::fresh(self.0.deserialize_state(text)?))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let c = slf.get().0;
        let rules = Bound::new(slf.py(), Rules(*c.rules()))?.repr()?;
        Ok(format!("Game({rules}, scope='{}')", c.scope().name()))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Rules, &'static str))> {
        let c = slf.get().0;
        Ok((slf.get_type().getattr("_restore")?, (Rules(*c.rules()), c.scope().name())))
    }

    /// Unpickling (``scope`` is keyword-only in the constructor).
    #[classmethod]
    fn _restore(_cls: &Bound<'_, PyType>, rules: &Bound<'_, PyAny>, scope: &str) -> PyResult<Game> {
        Ok(Game(config_from(Some(rules), scope)?))
    }
}

// -------------------------------------------------------------------------------------- State

/// A piquet game state with OpenSpiel's method names, and undo.
///
/// Get one from :meth:`Game.new_initial_state`. Actions are ints: card ids ``0..32`` (a card
/// played, a card discarded in the exchange, and every chance outcome: the draw for deal, the
/// deal, a talon card taken), ``EXCHANGE_BASE + n`` (exchange ``n`` cards, 0 declines),
/// ``ANNOUNCE_CAPOT`` and ``PASS``. Discards are made one card at a time in ascending id order;
/// the declarations are automatic after the dealer's exchange.
///
/// ``clone()`` copies the state and its history; ``undo_action()`` restores the state before
/// the last action exactly.
///
/// >>> s = Game().new_initial_state()
/// >>> s.current_player() == CHANCE, len(s.legal_actions())
/// (True, 32)
#[pyclass(name = "State", module = "cribpiquet.piquet")]
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

/// What `State.__reduce__` returns: `State._restore` and its arguments (game, root, history).
type Reduced<'py> = (Bound<'py, PyAny>, (Game, String, Vec<u16>));

impl State {
    fn fresh(state: core::State) -> State {
        State(Tracked::fresh(state))
    }

    /// The player for a per-player query: the one given (checked) or the player to move.
    fn player_or_current(&self, player: Option<i64>, what: &str) -> PyResult<usize> {
        self.0.player_or_current(player, what, "piquet")
    }

    fn seat(&self, player: i64, what: &str) -> PyResult<usize> {
        self.player_or_current(Some(player), what)
    }

    fn role(&self, seat: usize) -> &'static str {
        match self.state.dealer() {
            Some(d) if d == seat => " (dealer)",
            Some(_) => " (elder)",
            None => "",
        }
    }
}

#[pymethods]
impl State {
    /// The player to move, ``CHANCE`` (-1) at a draw, deal or talon card, ``TERMINAL`` (-4) at
    /// the end.
    fn current_player(&self) -> i32 {
        self.state.current_player()
    }

    /// Is a chance event (a card drawn for deal, dealt or taken from the talon) next?
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

    /// Number of players: 2.
    fn num_players(&self) -> usize {
        2
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

    /// A bool array of length ``NUM_DISTINCT_ACTIONS`` (43), true at the legal actions.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i64>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; core::NUM_DISTINCT_ACTIONS];
        if player.is_none_or(|p| p == self.state.current_player() as i64) {
            for &a in self.state.legal_actions().iter() {
                mask[a as usize % core::NUM_DISTINCT_ACTIONS] = true;
            }
        }
        mask.into_pyarray(py)
    }

    /// ``[(action, probability), ...]`` at a chance node (uniform over the cards that can
    /// come, ascending); empty elsewhere.
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

    /// The payoff of each player: 0 until the end; then, in ``scope="deal"``, own total minus
    /// the opponent's; in ``scope="partiya"``, + the net win (russian) or the partie score
    /// (rubicon) for the winner, minus it for the loser (0 each for a drawn match).
    fn returns(&self) -> Vec<f64> {
        self.state.returns().to_vec()
    }

    /// The payoff of one player.
    fn player_return(&self, player: i64) -> PyResult<f64> {
        let p = self.seat(player, "player_return")?;
        Ok(self.state.returns()[p])
    }

    /// Points made by the last action, per player (the declarations count with the action that
    /// ends the exchange; leza and capot with the last card). Not the payoff: see
    /// :meth:`returns`.
    fn rewards(&self) -> Vec<f64> {
        self.state.rewards().to_vec()
    }

    /// Points over the whole game per player (every deal so far): the sum of the rewards.
    fn scores(&self) -> Vec<u32> {
        self.state.scores().to_vec()
    }

    /// The text of an action: a card ``"AH"``, ``"exchange 3"``, ``"announce capot"`` or
    /// ``"pass"``. Also ``action_to_string(player, action)`` (the text does not depend on the
    /// player).
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(
        &self,
        player_or_action: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let a = known_action::<core::State>(split_player(player_or_action, action)?)?;
        Ok(self.state.action_to_string(self.state.current_player(), a)?)
    }

    /// The action of a text: a card (``"AH"``, ``"10♥"``), ``"exchange 3"`` (or ``"x3"``),
    /// ``"announce capot"`` (or ``"capot"``), ``"pass"``. Also ``string_to_action(player,
    /// text)``. Legality is not checked.
    #[pyo3(signature = (player_or_text, text = None))]
    fn string_to_action(&self, player_or_text: &Bound<'_, PyAny>, text: Option<&Bound<'_, PyAny>>) -> PyResult<u16> {
        let t = action_text(split_player(player_or_text, text)?)?;
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

    /// Everything ``player`` (default: the player to move) knows, as text: the public facts
    /// (scores, exchange sizes, the declarations heard, the cards played), his cards, his own
    /// discards and the talon cards he took. Equal strings mean equal information.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<i64>) -> PyResult<String> {
        let p = self.player_or_current(player, "information_state_string")?;
        Ok(self.state.information_state_string(p)?)
    }

    /// The information state of ``player`` (default: the player to move) as float32, shape
    /// ``game.information_state_tensor_shape()`` (layout: ``rust/piquet/engine/info.rs``).
    #[pyo3(signature = (player = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player_or_current(player, "information_state_tensor")?;
        Ok(self.state.information_state_tensor_vec(p)?.into_pyarray(py))
    }

    /// The current view of ``player`` as float32, shape ``game.observation_tensor_shape()``:
    /// the cards played as sets (own, opponent's, the card led) and the opponent's voids
    /// instead of the ordered play.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player_or_current(player, "observation_tensor")?;
        Ok(self.state.observation_tensor_vec(p)?.into_pyarray(py))
    }

    /// A state drawn uniformly among those consistent with everything ``player`` has seen (the
    /// opponent's hand, discards and talon cards redealt, keeping the declarations heard and
    /// the suits he has shown out of), reproducible for a ``seed``. It starts a new history.
    fn resample_from_infostate(&self, py: Python<'_>, player: i64, seed: &Bound<'_, PyAny>) -> PyResult<State> {
        let p = self.seat(player, "resample_from_infostate")?;
        let mut rng = Rng::new(seed_from(seed)?);
        let state = self.state;
        // Rejection sampling against the declarations heard: usually microseconds, rarely more.
        let resampled = py.detach(move || state.resample_from_infostate(p, &mut rng))?;
        Ok(State::fresh(resampled))
    }

    /// The state as one line of text (no history); ``game.deserialize_state`` reads it back.
    fn serialize(&self) -> String {
        self.state.serialize()
    }

    /// ``"cut"`` (the draw for deal), ``"deal"``, ``"exchange"``, ``"discard"``, ``"draw"``,
    /// ``"announce"``, ``"play"`` or ``"game-over"``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.state.phase().name()
    }

    /// The dealer of the current deal, or None before the first draw for deal is decided.
    #[getter]
    fn dealer(&self) -> Option<usize> {
        self.state.dealer()
    }

    /// Elder (the dealer's opponent, who exchanges and leads first), or None before the draw.
    #[getter]
    fn elder(&self) -> Option<usize> {
        self.state.elder()
    }

    /// The winning player once the game is over (None before, and for a draw).
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.state.winner()
    }

    /// Deals begun (1 during the first deal).
    #[getter]
    fn deals(&self) -> u16 {
        self.state.deals()
    }

    /// Koroliks closed (russian partiya).
    #[getter]
    fn koroliks(&self) -> u8 {
        self.state.koroliks()
    }

    /// Who scored the repique this deal, or None.
    #[getter]
    fn repique(&self) -> Option<usize> {
        self.state.repique()
    }

    /// Whether elder scored the pique this deal.
    #[getter]
    fn pique(&self) -> bool {
        self.state.pique()
    }

    /// Who announced an open capot this deal, or None.
    #[getter]
    fn open_capot(&self) -> Option<usize> {
        self.state.open_capot()
    }

    /// The cards drawn for deal in the current round, per player (None: not yet drawn).
    fn cut_cards(&self) -> Vec<Option<u8>> {
        self.state.cut_cards().to_vec()
    }

    /// The unplayed card ids of ``player``, ascending (omniscient: no information set).
    fn hand(&self, player: i64) -> PyResult<Vec<u16>> {
        Ok(card_ids(self.state.hand(self.seat(player, "hand")?)))
    }

    /// The 12 card ids ``player`` was dealt this deal.
    fn dealt_hand(&self, player: i64) -> PyResult<Vec<u16>> {
        Ok(card_ids(self.state.dealt_hand(self.seat(player, "dealt_hand")?)))
    }

    /// The 12 card ids ``player`` holds after the exchange, played or not (what he declares).
    fn kept(&self, player: i64) -> PyResult<Vec<u16>> {
        Ok(card_ids(self.state.kept(self.seat(player, "kept")?)))
    }

    /// The card ids ``player`` discarded in the exchange this deal.
    fn discards(&self, player: i64) -> PyResult<Vec<u16>> {
        Ok(card_ids(self.state.discards(self.seat(player, "discards")?)))
    }

    /// The talon card ids ``player`` took this deal.
    fn drawn(&self, player: i64) -> PyResult<Vec<u16>> {
        Ok(card_ids(self.state.drawn(self.seat(player, "drawn")?)))
    }

    /// How many cards ``player`` chose to exchange this deal (None: not yet chosen).
    fn exchange_size(&self, player: i64) -> PyResult<Option<u8>> {
        Ok(self.state.exchange_size(self.seat(player, "exchange_size")?))
    }

    /// The cards played this deal in order, as ``(player, card id)``.
    fn plays(&self) -> Vec<(usize, u8)> {
        self.state.plays().collect()
    }

    /// Tricks won this deal, per player.
    fn tricks_won(&self) -> Vec<u16> {
        self.state.tricks_won().map(u16::from).to_vec()
    }

    /// The declarations heard this deal: per player, the points for carte blanche, point,
    /// sequences and sets (``DECLARATION_CATEGORIES``); None before they are made (after the
    /// dealer's exchange). The repique is :attr:`repique`.
    fn declarations(&self) -> Option<Vec<Vec<u16>>> {
        self.state.declarations().map(|d| d.iter().map(|p| p.to_vec()).collect())
    }

    /// This deal's totals per player (after a finished deal of a match: the next deal's, 0).
    fn deal_scores(&self) -> Vec<u16> {
        self.state.deal_scores().to_vec()
    }

    /// The totals of each finished deal, per player (the first 16), oldest first.
    fn games(&self) -> Vec<(u16, u16)> {
        self.state.games().iter().map(|g| (g[0], g[1])).collect()
    }

    /// Points over the whole game by source, ``{source: [player 0, player 1]}`` with the
    /// sources of ``POINT_SOURCES`` (``declarations``, ``repique``, ``play``, ``last_trick``,
    /// ``pique``, ``leza``, ``capot``); they add up to :meth:`scores`.
    fn points_by_source<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let by = self.state.points_by_source();
        let d = PyDict::new(py);
        for s in PointSource::ALL {
            d.set_item(s.name(), [by[0][s as usize], by[1][s as usize]])?;
        }
        Ok(d)
    }

    /// The same position (the history is not compared). States are mutable, so unhashable.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<State>() {
            Ok(o) => o.try_borrow().map(|o| o.state == self.state).unwrap_or(false),
            Err(_) => false,
        }
    }

    /// One line: rules, scope, deal, phase, who moves, scores.
    fn __repr__(&self) -> String {
        let s = &self.state;
        let [a, b] = s.scores();
        format!(
            "<piquet.State {} {}, deal {}, {}, to move {}, scores {a}-{b}>",
            rules_label(s.config().rules()),
            s.config().scope(),
            s.deals(),
            s.phase().name(),
            mover_text(s.current_player())
        )
    }

    /// Every card in the hands and on the table, for a human debugging (omniscient).
    fn __str__(&self) -> String {
        let s = &self.state;
        let mut out = String::new();
        let dealer = s.dealer().map(|d| format!("P{d}")).unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "piquet ({} rules, {}), deal {}, phase {}, dealer {dealer}, to move {}",
            rules_label(s.config().rules()),
            s.config().scope(),
            s.deals(),
            s.phase().name(),
            mover_text(s.current_player())
        );
        let [a, b] = s.scores();
        let [da, db] = s.deal_scores();
        let games: Vec<String> = s.games().iter().map(|g| format!("{}-{}", g[0], g[1])).collect();
        let _ = write!(out, "scores: P0 {a}, P1 {b} (this deal {da}-{db})");
        if !games.is_empty() {
            let _ = write!(out, "; deals {}", games.join(" "));
        }
        if let Some(w) = s.winner() {
            let _ = write!(out, "; winner P{w}");
        }
        out.push('\n');
        if s.dealer().is_none() || s.phase() == Phase::Cut {
            let cuts: Vec<String> = s
                .cut_cards()
                .iter()
                .enumerate()
                .map(|(p, c)| format!("P{p} {}", c.map(card_text).unwrap_or_else(|| "-".into())))
                .collect();
            let _ = write!(out, "draw for deal: {}", cuts.join(", "));
            return out;
        }
        for p in 0..2 {
            let size = s.exchange_size(p).map(|n| n.to_string()).unwrap_or_else(|| "-".into());
            let _ = writeln!(
                out,
                "P{p}{}: hand {} | discarded {} | took {} | exchange {size}",
                self.role(p),
                cards_text(s.hand(p)),
                cards_text(s.discards(p)),
                cards_text(s.drawn(p))
            );
        }
        match s.declarations() {
            Some(d) => {
                let cats = |p: usize| d[p].map(|x| x.to_string()).join("/");
                let repique = s.repique().map(|p| format!("P{p}")).unwrap_or_else(|| "-".into());
                let _ =
                    writeln!(out, "declared (cb/point/seq/sets): P0 {}, P1 {}; repique {repique}", cats(0), cats(1));
            }
            None => {
                let _ = writeln!(out, "declared: -");
            }
        }
        let plays: Vec<String> = s.plays().map(|(p, c)| format!("P{p} {}", card_text(c))).collect();
        let [ta, tb] = s.tricks_won();
        let _ = write!(
            out,
            "play: {} | tricks P0 {ta}, P1 {tb}",
            if plays.is_empty() { "-".into() } else { plays.join(", ") }
        );
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
        let game = game.cast::<Game>().map_err(|_| PyTypeError::new_err("expected a piquet Game"))?;
        Ok(State(Tracked::replay(game.get().0.deserialize_state(root)?, &history)?))
    }
}

// ------------------------------------------------------------------------------- functions

/// The engine's constants as a dict (``cribpiquet.piquet`` exports them as module constants).
#[pyfunction]
fn piquet_game_constants(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("CHANCE", CHANCE)?;
    d.set_item("TERMINAL", TERMINAL)?;
    d.set_item("NUM_CARDS", core::NUM_CARDS)?;
    d.set_item("EXCHANGE_BASE", core::EXCHANGE_BASE)?;
    d.set_item("MAX_EXCHANGE", core::MAX_EXCHANGE)?;
    d.set_item("ANNOUNCE_CAPOT", core::ANNOUNCE_CAPOT)?;
    d.set_item("PASS", core::PASS)?;
    d.set_item("NUM_DISTINCT_ACTIONS", core::NUM_DISTINCT_ACTIONS)?;
    d.set_item("INFO_TENSOR_SIZE", core::INFO_TENSOR_SIZE)?;
    d.set_item("OBS_TENSOR_SIZE", core::OBS_TENSOR_SIZE)?;
    d.set_item("MAX_GAMES", core::MAX_GAMES)?;
    d.set_item("SCOPES", [Scope::Deal, Scope::Partiya].map(|s| s.name()).to_vec())?;
    d.set_item("PHASES", Phase::ALL.map(|p| p.name()).to_vec())?;
    d.set_item("POINT_SOURCES", PointSource::ALL.map(|s| s.name()).to_vec())?;
    d.set_item("DECLARATION_CATEGORIES", CATEGORY_NAMES.to_vec())?;
    d.set_item("POLICIES", crate::policy::POLICY_NAMES.to_vec())?;
    Ok(d)
}

/// Play ``n_games`` whole games in Rust, in parallel with the interpreter released, and return
/// per-game arrays. See ``cribpiquet.piquet.simulate`` for the keys and shapes.
#[pyfunction]
#[pyo3(signature = (n_games, *, rules = None, scope = "deal", players = None, seed = None, threads = None))]
fn piquet_simulate<'py>(
    py: Python<'py>,
    n_games: SatInt,
    rules: Option<&Bound<'py, PyAny>>,
    scope: &str,
    players: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<SatInt>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config_from(rules, scope)?;
    let n_games = sim_games(n_games)?;
    let policies = policies_from::<core::State>(players, 2)?;
    let seed = sim_seed(seed)?;
    let threads = sim_threads(threads)?;
    let r = py.detach(|| core::simulate(n_games, config, &policies, seed, threads))?;
    if r.scores.len() != 2 * n_games {
        return Err(PyValueError::new_err("simulate returned the wrong number of games (internal error)"));
    }
    let d = PyDict::new(py);
    d.set_item("scores", column(py, &r.scores, 2)?)?;
    d.set_item("returns", column(py, &r.returns, 2)?)?;
    let winner: Vec<i8> = r.winner.iter().map(|&w| if w < 2 { w as i8 } else { -1 }).collect();
    d.set_item("winner", winner.into_pyarray(py))?;
    d.set_item("first_dealer", r.first_dealer.iter().map(|&w| w as i8).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("deals", r.deals.iter().map(|&x| x as i32).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item(
        "actions",
        r.actions.iter().map(|&x| x.min(i32::MAX as u32) as i32).collect::<Vec<_>>().into_pyarray(py),
    )?;
    for source in PointSource::ALL {
        d.set_item(source.name(), column(py, r.source(source), 2)?)?;
    }
    Ok(d)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PiquetGame", py.get_type::<Game>())?;
    m.add("PiquetState", py.get_type::<State>())?;
    m.add_function(wrap_pyfunction!(piquet_game_constants, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_simulate, m)?)?;
    Ok(())
}
