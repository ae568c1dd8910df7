//! Bindings for the piquet game engine: `cribpiquet.piquet.Game`, `State` and `simulate`.
//!
//! The classes come from the one generic binding layer (`engine::engine_classes!`); this file
//! adds only what is piquet's own: the `Game` constructor (rules, scope), and the accessors of a
//! piquet deal (hands, exchange, declarations, tricks, the games of a match) as [`methods!`] lines.

use pyo3::prelude::*;
use pyo3::types::PyType;

use super::convert::IntArg;
use super::engine::{engine_classes, methods, seat};
use super::piquet::rules::{rules_arg, Rules};
use super::piquet::Piquet;
use crate::engine::Viewed;
use crate::piquet::{self as core, GameConfig, Hand, Phase, Scope, CATEGORY_NAMES};

fn config_from(rules: Option<&Bound<'_, PyAny>>, scope: &Bound<'_, PyAny>) -> PyResult<GameConfig> {
    let scope = scope.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "scope must be \"deal\" or \"partiya\", got {}",
            super::convert::describe(scope)
        ))
    })?;
    Ok(GameConfig::new(rules_arg(rules)?, Scope::parse(super::convert::text(scope, "scope")?)?)?)
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
    deck: Piquet,
    module: "cribpiquet.piquet",
    /// A piquet game: the rules and the scope (OpenSpiel's ``Game``).
    ///
    /// ``rules`` is a :class:`Rules` value or its name (``Rules.russian()`` by default);
    /// ``scope="deal"`` plays one deal after the draw for deal (the return is each player's score
    /// minus the opponent's), ``scope="partiya"`` (the default) the whole match: the russian partiya of koroliks
    /// (a draw for deal before each korolik, рефет, the net win as the return) or the rubicon partie
    /// of six deals. ``first_dealer`` (None, the default, or a seat) chooses the dealer of the first
    /// deal: None draws for it as the rules do (the lower card deals: chance events); a seat skips
    /// that first draw, and the game starts at the first deal with that seat dealing (later draws,
    /// before each new korolik, stay chance events). Games are immutable, hashable and picklable.
    ///
    /// >>> game = Game(scope="deal")
    /// >>> game, game.num_players(), game.num_distinct_actions()
    /// (Game(Rules.russian(), scope='deal'), 2, 43)
    game_class,
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
    state_class,
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
    game_type: {
        long_name: "piquet (cribpiquet)",
        players: (2, 2),
        parameters: { "rules" => "russian", "scope" => "partiya" },
    },
}

#[pymethods]
impl Game {
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

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let c = slf.get().0;
        let rules = Bound::new(slf.py(), Rules(*c.rules()))?.repr()?;
        let first = c.first_dealer().map_or(String::new(), |d| format!(", first_dealer={d}"));
        Ok(format!("Game({rules}, scope='{}'{first})", c.scope().name()))
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Rules, &'static str, Option<usize>))> {
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

methods! { Game |c|
    /// The chosen dealer of the first deal, or None: the draw for deal decides.
    #[getter]
    fn first_dealer() -> Option<usize> = c.first_dealer();
    /// The rules (a :class:`Rules` value).
    #[getter]
    fn rules() -> Rules = Rules(*c.rules());
    /// ``"deal"`` or ``"partiya"`` (the match, for either rule set).
    #[getter]
    fn scope() -> &'static str = c.scope().name();
}

methods! { State |s|
    /// One line: rules, scope, deal, phase, who moves, scores.
    fn __repr__() -> String = format!(
        "<piquet.State {} {}, deal {}, {}, to move {}, scores {}-{}>",
        s.config().rules().label(),
        s.config().scope(),
        s.deals(),
        s.phase().name(),
        crate::engine::player_text(s.current_player()),
        s.seat_scores()[0],
        s.seat_scores()[1]
    );
    /// Elder's seat in the current deal, or None before the first draw for deal.
    #[getter]
    fn elder() -> Option<usize> = s.elder();
    /// Koroliks closed (russian partiya).
    #[getter]
    fn koroliks() -> u8 = s.koroliks();
    /// The seat that scored the repique this deal, if any.
    #[getter]
    fn repique() -> Option<usize> = s.repique();
    /// Whether elder scored the pique this deal.
    #[getter]
    fn pique() -> bool = s.pique();
    /// The seat that announced an open capot this deal, if any.
    #[getter]
    fn open_capot() -> Option<usize> = s.open_capot();
    /// The card ids drawn for deal in the current round, by seat (None: not yet).
    fn cut_cards() -> Vec<Option<u8>> = s.cut_cards().to_vec();
    /// The 12 card ids ``player`` was dealt this deal.
    fn dealt_hand(player: IntArg) -> Vec<u16> = card_ids(s.dealt_hand(seat(s, player, "dealt_hand")?));
    /// The talon card ids ``player`` took.
    fn drawn(player: IntArg) -> Vec<u16> = card_ids(s.drawn(seat(s, player, "drawn")?));
    /// The number of cards ``player`` chose to exchange this deal (None: not yet).
    fn exchange_size(player: IntArg) -> Option<u8> = s.exchange_size(seat(s, player, "exchange_size")?);
    /// The cards played this deal in order, as ``(seat, card id)``.
    fn plays() -> Vec<(usize, u8)> = s.plays().collect();
    /// The trick in progress, as ``(seat, card id)``: the lead, once laid, until the second
    /// card completes the trick (then empty again). Piquet's counterpart of cribbage's
    /// :meth:`cribbage.State.count_cards`.
    fn trick() -> Vec<(usize, u8)> = s.plays().skip(s.plays().count() & !1).collect();
    /// Tricks won this deal, per seat.
    fn tricks_won() -> Vec<u16> = s.tricks_won().map(u16::from).to_vec();
    /// The heard declarations per seat, ``[carte blanche, point, sequences, sets]`` points
    /// (``DECLARATION_CATEGORIES``), or None before they are made.
    fn declarations() -> Option<Vec<Vec<u16>>> = s.declarations().map(|d| d.iter().map(|p| p.to_vec()).collect());
    /// This deal's totals per seat so far.
    fn deal_scores() -> Vec<u16> = s.deal_scores().to_vec();
    /// The totals of each finished deal of the match per seat (the first ``MAX_GAMES``).
    fn games() -> Vec<(u16, u16)> = s.games().iter().map(|g| (g[0], g[1])).collect();
    /// The table as ``player`` sees it (``None``: every card face up), for front ends: a dict
    /// ``{"seats": [...], "table": [...]}``, each seat ``{"seat", "role", "cards", "hidden",
    /// "score"}`` (``cards`` a tuple of :class:`Card`, ``None`` for each card face down), each pile
    /// on the table ``{"label", "cards", "hidden"}`` (the lead of the trick in progress).
    #[pyo3(name = "view", signature = (player = None))]
    fn table_view<'py>(py: Python<'py>, player: Option<IntArg>) -> Bound<'py, pyo3::types::PyDict> =
        super::display::view_dict(py, s.view(player.map(|p| seat(s, p, "player")).transpose()?), |id| {
            Ok(super::piquet::Card(core::Card::from_id(id.into())?))
        })?;
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_engine(m)
}

