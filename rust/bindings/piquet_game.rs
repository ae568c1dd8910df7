//! Bindings for the piquet game engine: `cribpiquet.piquet.Game`, `State` and `simulate`.
//!
//! The classes come from the one generic binding layer (`engine::engine_classes!`); this file
//! adds only what is piquet's own: the `Game` constructor (rules, scope), and the accessors of a
//! piquet deal (hands, exchange, declarations, tricks, the games of a match).

use pyo3::prelude::*;
use pyo3::types::PyType;

use super::convert::IntArg;
use super::engine::{engine_classes, player_or_current};
use super::piquet::rules::{rules_arg, Rules};
use crate::engine::GameState;
use crate::piquet::{self as core, GameConfig, Hand, Phase, Scope, CATEGORY_NAMES};

fn config_from(rules: Option<&Bound<'_, PyAny>>, scope: &Bound<'_, PyAny>) -> PyResult<GameConfig> {
    let scope = scope.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "scope must be \"deal\" or \"partiya\", got {}",
            super::convert::describe(scope)
        ))
    })?;
    Ok(GameConfig::new(rules_arg(rules)?, Scope::parse(scope.to_str()?)?)?)
}

/// `config` with the `first_dealer` argument (None or a seat).
fn with_first_dealer(config: GameConfig, first_dealer: Option<IntArg>) -> PyResult<Game> {
    let first_dealer = first_dealer.map(|d| d.within("first_dealer", 0..2)).transpose()?;
    Ok(Game(config.with_first_dealer(first_dealer.map(|d| d as usize))?))
}

/// Card ids as a list (`Vec<u16>`: pyo3 would turn a `Vec<u8>` into `bytes`).
fn card_ids(hand: Hand) -> Vec<u16> {
    hand.iter().map(|c| c.id() as u16).collect()
}

engine_classes! {
    core_game: GameConfig,
    module: "cribpiquet.piquet",
    /// A piquet game: the rules and the scope (OpenSpiel's ``Game``).
    ///
    /// ``rules`` is a :class:`Rules` value or its name (``Rules.russian()`` by default);
    /// ``scope="deal"`` plays one deal after the draw for deal (the return is each player's score
    /// minus the opponent's), ``scope="partiya"`` the whole match: the russian partiya of koroliks
    /// (a draw for deal before each korolik, рефет, the net win as the return) or the rubicon partie
    /// of six deals. ``first_dealer`` (None, the default, or a seat) chooses the dealer of the first
    /// deal: None draws for it as the rules do (the lower card deals: chance events); a seat skips
    /// that first draw, and the game starts at the first deal with that seat dealing (later draws,
    /// before each new korolik, stay chance events). Games are immutable, hashable and picklable.
    ///
    /// >>> game = Game(scope="deal")
    /// >>> game, game.num_players(), game.num_distinct_actions()
    /// (Game(Rules.russian(), scope='deal'), 2, 43)
    game_methods: {
        #[new]
        #[pyo3(signature = (rules = None, *, scope = None, first_dealer = None),
               text_signature = "(rules=None, *, scope=None, first_dealer=None)")]
        fn new(
            rules: Option<&Bound<'_, PyAny>>,
            scope: Option<&Bound<'_, PyAny>>,
            first_dealer: Option<IntArg>,
        ) -> PyResult<Game> {
            let config = match scope {
                Some(scope) => config_from(rules, scope)?,
                None => GameConfig::new(rules_arg(rules)?, Scope::Partiya)?,
            };
            with_first_dealer(config, first_dealer)
        }

        /// The chosen dealer of the first deal, or None: the draw for deal decides.
        #[getter]
        fn first_dealer(&self) -> Option<usize> {
            self.0.first_dealer()
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

        fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
            let c = slf.get().0;
            let rules = Bound::new(slf.py(), Rules(*c.rules()))?.repr()?;
            let first = c.first_dealer().map_or(String::new(), |d| format!(", first_dealer={d}"));
            Ok(format!("Game({rules}, scope='{}'{first})", c.scope().name()))
        }

        #[allow(clippy::type_complexity)]
        fn __reduce__<'py>(
            slf: &Bound<'py, Self>,
        ) -> PyResult<(Bound<'py, PyAny>, (Rules, &'static str, Option<usize>))> {
            let c = slf.get().0;
            Ok((slf.get_type().getattr("_restore")?, (Rules(*c.rules()), c.scope().name(), c.first_dealer())))
        }

        /// Unpickling (``scope`` and ``first_dealer`` are keyword-only in the constructor).
        #[classmethod]
        #[pyo3(signature = (rules, scope, first_dealer = None))]
        fn _restore(
            _cls: &Bound<'_, PyType>,
            rules: &Bound<'_, PyAny>,
            scope: &Bound<'_, PyAny>,
            first_dealer: Option<IntArg>,
        ) -> PyResult<Game> {
            with_first_dealer(config_from(Some(rules), scope)?, first_dealer)
        }
    }
    /// A piquet game state with OpenSpiel's method names, and undo.
    ///
    /// Get one from :meth:`Game.new_initial_state`. Actions are ints: card ids ``0..32`` (a card
    /// played, a card discarded in the exchange, and every chance outcome: the draw for deal, the
    /// deal, a talon card taken), ``EXCHANGE_BASE + n`` (exchange ``n`` cards, 0 declines),
    /// ``ANNOUNCE_CAPOT`` and ``PASS``. Discards are made one card at a time in ascending id order;
    /// the declarations are automatic after the dealer's exchange.
    ///
    /// Payoffs (:meth:`returns`): 0 until the end; then, in a deal, each seat's total minus the
    /// opponent's; in a match, + the net win (russian) or the partie score (rubicon) for the
    /// winner and − for the loser. Seats are 0 and 1; which is elder changes with the deal.
    ///
    /// ``clone()`` copies the state and its history; ``undo_action()`` restores the state before
    /// the last action exactly. A state may be shared between threads: calls are serialised.
    ///
    /// **Properties and methods** (the rule of both engines' ``State``): one plain value of the
    /// state — a number, a name, a seat, a card id, or None — is a read-only property
    /// (:attr:`phase`, :attr:`dealer`, :attr:`elder`, :attr:`winner`, :attr:`deals`,
    /// :attr:`game_value`, :attr:`koroliks`, :attr:`repique`, :attr:`pique`, :attr:`open_capot`);
    /// anything that takes an argument or returns a collection is a method (``hand(p)``,
    /// ``dealt_hand(p)``, ``exchange_size(p)``, ``plays()``, ``trick()``, ``tricks_won()``,
    /// ``declarations()``). OpenSpiel's names keep OpenSpiel's form: ``current_player()``,
    /// ``is_terminal()``, ``returns()``, ``move_number()`` and the rest are methods.
    ///
    /// >>> s = Game().new_initial_state()
    /// >>> s.current_player() == CHANCE, len(s.legal_actions())
    /// (True, 32)
    state_methods: {
        /// One line: rules, scope, deal, phase, who moves, scores.
        fn __repr__(&self) -> String {
            let s = self.core();
            let [a, b] = s.seat_scores();
            format!(
                "<piquet.State {} {}, deal {}, {}, to move {}, scores {a}-{b}>",
                s.config().rules().label(),
                s.config().scope(),
                s.deals(),
                s.phase().name(),
                crate::engine::player_text(s.current_player())
            )
        }

        /// Elder's seat in the current deal, or None before the first draw for deal.
        #[getter]
        fn elder(&self) -> Option<usize> {
            self.core().elder()
        }

        /// Koroliks closed (russian partiya).
        #[getter]
        fn koroliks(&self) -> u8 {
            self.core().koroliks()
        }

        /// The seat that scored the repique this deal, if any.
        #[getter]
        fn repique(&self) -> Option<usize> {
            self.core().repique()
        }

        /// Whether elder scored the pique this deal.
        #[getter]
        fn pique(&self) -> bool {
            self.core().pique()
        }

        /// The seat that announced an open capot this deal, if any.
        #[getter]
        fn open_capot(&self) -> Option<usize> {
            self.core().open_capot()
        }

        /// The card ids drawn for deal in the current round, by seat (None: not yet).
        fn cut_cards(&self) -> Vec<Option<u8>> {
            self.core().cut_cards().to_vec()
        }

        /// The 12 card ids ``player`` was dealt this deal.
        fn dealt_hand(&self, player: IntArg) -> PyResult<Vec<u16>> {
            let s = self.core();
            Ok(card_ids(s.dealt_hand(player_or_current(&s, Some(player), "dealt_hand")?)))
        }

        /// The talon card ids ``player`` took.
        fn drawn(&self, player: IntArg) -> PyResult<Vec<u16>> {
            let s = self.core();
            Ok(card_ids(s.drawn(player_or_current(&s, Some(player), "drawn")?)))
        }

        /// The number of cards ``player`` chose to exchange this deal (None: not yet).
        fn exchange_size(&self, player: IntArg) -> PyResult<Option<u8>> {
            let s = self.core();
            Ok(s.exchange_size(player_or_current(&s, Some(player), "exchange_size")?))
        }

        /// The cards played this deal in order, as ``(seat, card id)``.
        fn plays(&self) -> Vec<(usize, u8)> {
            self.core().plays().collect()
        }

        /// The trick in progress, as ``(seat, card id)``: the lead, once laid, until the second
        /// card completes the trick (then empty again). Piquet's counterpart of cribbage's
        /// :meth:`cribbage.State.count_cards`.
        fn trick(&self) -> Vec<(usize, u8)> {
            let plays: Vec<(usize, u8)> = self.core().plays().collect();
            plays[plays.len() - plays.len() % 2..].to_vec()
        }

        /// Tricks won this deal, per seat.
        fn tricks_won(&self) -> Vec<u16> {
            self.core().tricks_won().map(u16::from).to_vec()
        }

        /// The heard declarations per seat, ``[carte blanche, point, sequences, sets]`` points
        /// (``DECLARATION_CATEGORIES``), or None before they are made.
        fn declarations(&self) -> Option<Vec<Vec<u16>>> {
            self.core().declarations().map(|d| d.iter().map(|p| p.to_vec()).collect())
        }

        /// This deal's totals per seat so far.
        fn deal_scores(&self) -> Vec<u16> {
            self.core().deal_scores().to_vec()
        }

        /// The totals of each finished deal of the match per seat (the first ``MAX_GAMES``).
        fn games(&self) -> Vec<(u16, u16)> {
            self.core().games().iter().map(|g| (g[0], g[1])).collect()
        }
    }
    class_prefix: "Piquet",
    /// Piquet point sources: ``declarations``, ``repique``, ``play``, ``last_trick``, ``pique``, ``leza``, ``capot``.
    ///
    /// >>> r = simulate(Game(scope="deal"), 1000, seed=1)
    /// >>> r["returns"].shape, bool((r["returns"].sum(axis=1) == 0).all())
    /// ((1000, 2), True)
    simulate: piquet_simulate,
    constants: piquet_game_constants {
        "NUM_CARDS" => core::NUM_CARDS,
        "EXCHANGE_BASE" => core::EXCHANGE_BASE,
        "MAX_EXCHANGE" => core::MAX_EXCHANGE,
        "ANNOUNCE_CAPOT" => core::ANNOUNCE_CAPOT,
        "PASS" => core::PASS,
        "MAX_GAMES" => core::MAX_GAMES,
        "SCOPES" => [Scope::Deal, Scope::Partiya].map(|s| s.name()).to_vec(),
        "PHASES" => Phase::ALL.map(|p| p.name()).to_vec(),
        "DECLARATION_CATEGORIES" => CATEGORY_NAMES.to_vec(),
    },
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_engine(m)
}

super::display::display!(@state State);
