//! Bindings for the cribbage game engine: `cribpiquet.cribbage.Game`, `State` and `simulate`.
//!
//! The classes come from the one generic binding layer (`engine::engine_classes!`); this file
//! adds only what is cribbage's own: the `Game` constructor and options, and the accessors of
//! a cribbage deal (hands, crib, starter, count, plays) as [`methods!`] lines.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;

use super::convert::{self, IntArg, OtherCards};
use super::cribbage::Cribbage;
use super::engine::{engine_classes, methods, seat};
use crate::cribbage::{self as core, GameConfig, Phase, Variant};
use crate::engine::{Viewed, MAX_PLAYERS};

fn config_from(
    variant: Option<&Bound<'_, PyAny>>,
    target: Option<IntArg>,
    lurch: Option<&Bound<'_, PyAny>>,
    first_dealer: Option<IntArg>,
) -> PyResult<GameConfig> {
    let variant: Variant = match variant {
        Some(v) => convert::str_text(v, "variant")?.parse()?,
        None => Variant::SixCard,
    };
    let target = target.map(|t| t.within("target", 1..core::MAX_TARGET as i64 + 1)).transpose()?;
    let lurch = lurch.map_or(Ok(false), |l| convert::bool_arg(l, "lurch"))?;
    let first_dealer = first_dealer.map(|d| d.within("first_dealer", 0..variant.num_players() as i64)).transpose()?;
    Ok(GameConfig::new(variant, target.map(|t| t as u32))?
        .with_lurch(lurch)
        .with_first_dealer(first_dealer.map(|d| d as usize))?)
}

/// A cribbage card id argument: an int ``0..52`` or a cribbage ``Card``; a piquet ``Card`` (an
/// int by ``__index__``) is a ``TypeError``.
fn card_id_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u16> {
    if let Some(other) = Cribbage::other_game(obj) {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be a cribbage card id or Card, got a {other} Card"
        )));
    }
    Ok(obj.extract::<IntArg>()?.within(name, 0..52)? as u16)
}

fn card_ids(hand: core::Hand) -> Vec<u16> {
    hand.iter().map(|c| c.id() as u16).collect()
}

engine_classes! {
    core_game: GameConfig,
    deck: Cribbage,
    module: "cribpiquet.cribbage",
    /// A cribbage game: the variant, the target score and the lurch option (OpenSpiel's ``Game``).
    ///
    /// ``variant`` is ``"five-card"`` (two players, 61, one count to 31, three for last),
    /// ``"six-card"`` (121), ``"three-player"`` or ``"four-player"`` (partners 0 & 2 against 1 & 3,
    /// shared score); ``target`` overrides 61/121 (1..=10000); ``lurch=True`` makes a win count
    /// double or triple by the loser's score (see :attr:`lurch`). ``first_dealer`` (None, the
    /// default, or a player) chooses the first dealer: None draws him by the cut as the rules do
    /// (lowest card deals, ties re-cut: chance events); a player skips the cut, and the game
    /// starts at the first deal with that player dealing (five-card: the pone's three for last
    /// already pegged). Games are immutable, hashable and picklable.
    ///
    /// The play's go rules as the engine plays them (``GO`` is an action; which action scores
    /// the go point, the last card and the show) are spelled out, with a worked example, in
    /// :class:`State`.
    ///
    /// >>> game = Game("five-card")
    /// >>> game, game.num_players(), game.num_distinct_actions()
    /// (Game('five-card', target=61), 2, 1379)
    game_class,
    /// A cribbage game state with OpenSpiel's method names, and undo.
    ///
    /// Get one from :meth:`Game.new_initial_state`. Actions are ints: card ids ``0..52`` (a card
    /// laid, a single discard in the three- and four-player games, and every chance outcome: cut,
    /// deal, starter), ``52 + pair index`` for the two-card discards (see :func:`pair_action`), and
    /// ``GO`` (1378). The show is automatic after the last card of the play.
    ///
    /// Payoffs (:meth:`returns`): 0 until the end, then +1 for each player of the winning side and
    /// -1 for the others (-0.5 each in the three-player game), times :attr:`game_value` (2 or 3
    /// for a lurch/skunk when the game's ``lurch`` is on).
    ///
    /// ``clone()`` copies the state and its history; ``undo_action()`` restores the state before
    /// the last action exactly (a clone rebuilds its undo stack by replaying its history the first
    /// time it needs it). A state may be shared between threads: calls are serialised.
    ///
    /// **Properties and methods** (the rule of both engines' ``State``): one plain value of the
    /// state — a number, a name, a player, a card id, or None — is a read-only property
    /// (:attr:`phase`, :attr:`dealer`, :attr:`winner`, :attr:`deals`, :attr:`game_value`,
    /// :attr:`count`, :attr:`starter`); anything that takes an argument or returns a collection is
    /// a method (``hand(p)``, ``kept(p)``, ``discards(p)``, ``crib()``, ``plays()``,
    /// ``count_cards()``, ``said_go()``). OpenSpiel's names keep OpenSpiel's form:
    /// ``current_player()``, ``is_terminal()``, ``returns()``, ``move_number()`` and the rest are
    /// methods.
    ///
    /// **The go, as the engine plays it** (rules §3). ``GO`` is an explicit action: it is the only
    /// legal action of a player to lay who holds cards none of which fits (count + pips ≤ 31),
    /// and illegal otherwise. A player who said go lays no more cards in that count
    /// (:meth:`said_go`); the others keep laying what fits, the last to lay included — so a player
    /// who lays a card while still holding cards that no longer fit then says go himself. The go
    /// point (1, to the last to lay) is scored by the action after which no one can lay: the last
    /// ``GO`` of the count, or the card itself when everyone else has said go or is out of cards
    /// and its player has none left; a 31 scores its 2 and no go point. The count then resets
    /// (:meth:`count_cards` empties) and the player after the last to lay leads. The last card of
    /// the play scores 1 (unless it makes 31) and **the same action carries the show**: the hands
    /// from the dealer's left, the dealer's, then the crib are counted and the next deal begins,
    /// so that action's :meth:`rewards` hold the last card and the show. Five-card cribbage has
    /// one count: the action that ends it carries its go point and the show.
    ///
    /// A worked example (six-card; after the discards P1 holds 5 7 9 J and P0 6 8 10 Q):
    ///
    /// >>> s = Game("six-card").new_initial_state()
    /// >>> cut, deal = [0, 12], list(range(13, 25))  # P0 cuts an ace and deals
    /// >>> for a in cut + deal + [pair_action(13, 15), pair_action(14, 16), 26]:
    /// ...     s.apply_action(a)  # the deal, both discards and the starter
    /// >>> for card in [23, 24, 21]:  # P1 J, P0 Q, P1 9: 29
    /// ...     s.apply_action(card)
    /// >>> s.current_player(), s.legal_actions() == [GO]  # P0 holds nothing of 2 or less
    /// (0, True)
    /// >>> s.apply_action(GO)
    /// >>> s.said_go(), s.current_player(), s.legal_actions() == [GO]  # P1 laid the 9, holds 5 7
    /// ([0], 1, True)
    /// >>> s.apply_action(GO)  # nobody can lay: the go point to P1 (last to lay), on his GO
    /// >>> s.rewards(), s.count, s.count_cards(), s.current_player()
    /// ([0.0, 1.0], 0, [], 0)
    /// >>> for card in [18, 17, 20, 19]:  # P0 6, P1 5, P0 8, P1 7: 26, a run of four for P1
    /// ...     s.apply_action(card)
    /// >>> s.rewards(), s.count_cards()
    /// ([0.0, 4.0], [18, 17, 20, 19])
    /// >>> s.apply_action(GO)  # P0 cannot lay his 10; P1 has no cards: the go point to P1
    /// >>> s.rewards()
    /// [0.0, 1.0]
    /// >>> s.apply_action(22)  # P0's 10, the last card: 1, then the show (P1 8, P0 6, crib 10)
    /// >>> s.rewards(), s.phase, s.deals
    /// ([17.0, 8.0], 'deal', 2)
    ///
    /// >>> s = Game("six-card").new_initial_state()
    /// >>> s.current_player() == CHANCE, len(s.legal_actions())
    /// (True, 52)
    state_class,
    class_prefix: "Cribbage",
    /// Cribbage point sources: ``pegging``, ``hand``, ``crib``, ``heels``, ``three_for_last`` (the show's hands and crib, his heels, five-card's three for last).
    ///
    /// >>> r = simulate(Game("five-card"), 1000, seed=1)
    /// >>> r["scores"].shape, bool((r["scores"].max(axis=1) >= 61).all())
    /// ((1000, 2), True)
    /// >>> tail = simulate(Game("five-card"), 400, seed=1, first_game=600)
    /// >>> bool((tail["scores"] == r["scores"][600:]).all())
    /// True
    simulate: cribbage_simulate,
    constants: cribbage_game_constants {
        "GO" => core::GO,
        "PAIR_BASE" => core::PAIR_BASE,
        "NUM_PAIRS" => core::NUM_PAIRS,
        "MAX_TARGET" => core::MAX_TARGET,
        "MAX_PLAYERS" => MAX_PLAYERS,
        "VARIANTS" => Variant::ALL.map(|v| v.name()).to_vec(),
        "PHASES" => Phase::ALL.map(|p| p.name()).to_vec(),
    },
    game_type: {
        long_name: "cribbage (cribpiquet)",
        players: (2, 4),
        parameters: { "variant" => "six-card", "target" => 0, "lurch" => false },
    },
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant = None, *, target = None, lurch = None, first_dealer = None),
           text_signature = "(variant='six-card', *, target=None, lurch=False, first_dealer=None)")]
    fn new(
        variant: Option<&Bound<'_, PyAny>>,
        target: Option<IntArg>,
        lurch: Option<&Bound<'_, PyAny>>,
        first_dealer: Option<IntArg>,
    ) -> PyResult<Game> {
        Ok(Game(config_from(variant, target, lurch, first_dealer)?))
    }

    fn __repr__(&self) -> String {
        let lurch = if self.0.lurch() { ", lurch=True" } else { "" };
        let first = self.0.first_dealer().map_or(String::new(), |d| format!(", first_dealer={d}"));
        format!("Game('{}', target={}{lurch}{first})", self.0.variant().name(), self.0.target())
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, u16, bool, Option<usize>))> {
        let c = slf.get().0;
        Ok((slf.get_type().getattr("_restore")?, (c.variant().name(), c.target(), c.lurch(), c.first_dealer())))
    }

    /// Unpickling (``target`` and ``lurch`` are keyword-only in the constructor).
    #[classmethod]
    #[pyo3(signature = (variant, target, lurch = None, first_dealer = None))]
    fn _restore(
        _cls: &Bound<'_, PyType>,
        variant: &Bound<'_, PyAny>,
        target: IntArg,
        lurch: Option<&Bound<'_, PyAny>>,
        first_dealer: Option<IntArg>,
    ) -> PyResult<Game> {
        Ok(Game(config_from(Some(variant), Some(target), lurch, first_dealer)?))
    }
}

methods! { Game |c|
    /// The chosen first dealer, or None: the cut decides.
    #[getter]
    fn first_dealer() -> Option<usize> = c.first_dealer();
    /// Whether the lurch/skunk match extra is on: a win counts double when the losing side
    /// ends more than 30 short of the target (121-point games: under 91; 61: under 31) and
    /// triple, in games to 121 or more, when more than 60 short. It scales ``returns()``.
    #[getter]
    fn lurch() -> bool = c.lurch();
    /// The variant name: ``"five-card"``, ``"six-card"``, ``"three-player"`` or ``"four-player"``.
    #[getter]
    fn variant() -> &'static str = c.variant().name();
    /// The score that wins.
    #[getter]
    fn target() -> u16 = c.target();
}

methods! { State |s|
    /// One line: variant, deal, phase, who moves, scores.
    fn __repr__() -> String = format!(
        "<cribbage.State {} to {}, deal {}, {}, to move {}, scores {}>",
        s.variant(),
        s.config().target(),
        s.deals(),
        s.phase().name(),
        crate::engine::player_text(s.current_player()),
        s.scores_text()
    );
    /// The running count of the play.
    #[getter]
    fn count() -> u8 = s.count();
    /// The starter's card id, once turned.
    #[getter]
    fn starter() -> Option<u8> = s.starter().map(|c| c.id());
    /// The crib's card ids so far.
    fn crib() -> Vec<u16> = card_ids(s.crib());
    /// The cards laid this deal in order, as ``(player, card id)``.
    fn plays() -> Vec<(usize, u8)> = s.plays().map(|(p, c)| (p, c.id())).collect();
    /// The card ids of the current count, in the order laid: the cards laid since the count
    /// was last reset to 0 (after a go or 31; the five-card game has one count). Empty
    /// before the play and right after a reset.
    fn count_cards() -> Vec<u16> = s.current_sequence().iter().map(|c| c.id() as u16).collect();
    /// The players who have said go in the current count, ascending (a player who said go
    /// lays no more cards until the count is reset).
    fn said_go() -> Vec<usize> = (0..s.num_players()).filter(|&p| s.has_passed(p)).collect();
    /// The table as ``player`` sees it (``None``: every card face up), for front ends: a dict
    /// ``{"seats": [...], "table": [...]}``, each seat ``{"seat", "role", "cards", "hidden",
    /// "score"}`` (``cards`` a tuple of :class:`Card`, ``None`` for each card face down), each pile
    /// on the table ``{"label", "cards", "hidden"}`` (the starter, the count in the play, the crib).
    #[pyo3(name = "view", signature = (player = None))]
    fn table_view<'py>(py: Python<'py>, player: Option<IntArg>) -> Bound<'py, pyo3::types::PyDict> =
        super::display::view_dict(py, s.view(player.map(|p| seat(s, p, "player")).transpose()?), |id| {
            Ok(super::cribbage::Card(core::Card::from_id(id.into())?))
        })?;
}

// ------------------------------------------------------------------------------- functions

/// The discard action of the two cards with ids ``a`` and ``b`` (either order, distinct):
/// ``52 + b*(b-1)/2 + a`` for ``a < b``.
///
/// >>> pair_action(0, 1), pair_action(51, 50)
/// (52, 1377)
#[pyfunction]
fn cribbage_pair_action(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<u16> {
    let a = card_id_arg(a, "a")?;
    let b = card_id_arg(b, "b")?;
    core::pair_action(a, b)
        .ok_or_else(|| PyValueError::new_err(format!("no discard of cards {a} and {b}: the two ids must differ")))
}

/// The two card ids ``(a, b)``, ``a < b``, of a discard action (52..1377).
///
/// >>> action_pair(52)
/// (0, 1)
#[pyfunction]
fn cribbage_action_pair(action: IntArg) -> PyResult<(u16, u16)> {
    let action = action.get("action")?;
    u16::try_from(action.value).ok().filter(|_| !action.huge).and_then(core::action_pair).ok_or_else(|| {
        PyValueError::new_err(format!(
            "action {} is not a two-card discard (those are {}..{})",
            action.text(),
            core::PAIR_BASE,
            core::PAIR_BASE + core::NUM_PAIRS - 1
        ))
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_engine(m)?;
    m.add_function(wrap_pyfunction!(cribbage_pair_action, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_action_pair, m)?)?;
    Ok(())
}

