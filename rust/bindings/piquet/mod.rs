//! Bindings for `cribpiquet.piquet`, by job: the card and the helpers every part shares here;
//! `rules` (the rule sets), `declarations` (one hand's declarations and both compared),
//! `score_game` (one deal scored from its record), `partiya` (match scoring: the Russian partiya
//! and the rubicon partie), `batch` (numpy batches of declarations). The engine (`State`) is
//! `piquet_game.rs` and the exchange analysis `piquet_exchange.rs`, beside their cribbage twins.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::convert::{self, card_class, Group};
use crate::piquet as core;

mod batch;
mod declarations;
mod partiya;
pub(super) mod rules;
mod score_game;

card_class! {
    /// A card of the 32-card piquet pack.
    ///
    /// Build it from an id (``suit * 8 + rank``; rank 0 = 7, 1 = 8, 2 = 9, 3 = 10, 4 = J, 5 = Q,
    /// 6 = K, 7 = A; suits C D H S), from text (``"AS"``, ``"10♥"``, ``"th"``) or from another Card.
    /// Cards are immutable, hashable and ordered by id; ``int(card)`` is the id.
    deck: Piquet, core: core::Card, hand: core::Hand, count: 32, module: "cribpiquet.piquet",
    id_doc: "The public id, ``suit * 8 + rank``.", rank_doc: "Rank 0..7: 7, 8, 9, 10, J, Q, K, A.";
    /// The value for the point: A 11, K Q J 10 ten, 9 8 7 face value.
    #[getter]
    fn point_value(&self) -> u8 {
        self.0.point_value()
    }
}

fn cards_list(hand: core::Hand) -> Vec<Card> {
    hand.iter().map(Card).collect()
}

/// A 12-card hand (at most 12 cards read).
const HAND: Group = Group { what: "hand", expected: "12", max: 12 };
/// The 12 cards dealt (for carte blanche).
const DEALT: Group = Group { what: "dealt hand", expected: "12", max: 12 };
/// The cards of `parse_cards`: at most the pack (32), since no card can come twice in a deal.
const CARD_LIST: Group = Group { what: "card list", expected: "at most 32", max: 32 };

pub(crate) fn hand_from(obj: &Bound<'_, PyAny>) -> PyResult<core::Hand> {
    convert::hand::<Piquet>(obj, HAND)
}

fn optional_hand(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<core::Hand>> {
    obj.filter(|o| !o.is_none()).map(|o| convert::hand::<Piquet>(o, DEALT)).transpose()
}

fn optional_player(obj: Option<&str>, what: &str) -> PyResult<Option<core::Role>> {
    obj.map(|name| {
        core::Role::parse(name).map_err(|_| {
            PyValueError::new_err(format!(
                "{what} must be \"elder\", \"dealer\" or None, got {:?}",
                crate::error::echo(name)
            ))
        })
    })
    .transpose()
}

fn player_name(p: Option<core::Role>) -> Option<&'static str> {
    p.map(core::Role::name)
}

/// A core `[elder, dealer]` (or `[seat 0, seat 1]`) pair as a Python tuple.
fn pair<T: Copy>(x: [T; 2]) -> (T, T) {
    (x[0], x[1])
}

/// Parse card text (``"AS KS,10♠"``) or convert an iterable of cards into a list of Card
/// (at most 32 cards: more is a ValueError).
#[pyfunction]
fn piquet_parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    Ok(convert::card_vec::<Piquet>(cards, CARD_LIST)?.into_iter().map(Card).collect())
}

/// Add classes (`"PiquetName" = Type`) and functions to the module.
macro_rules! add {
    ($m:ident, [$($name:literal = $class:ty),* $(,)?], [$($f:path),* $(,)?]) => {
        $($m.add($name, $m.py().get_type::<$class>())?;)*
        $($m.add_function(wrap_pyfunction!($f, $m)?)?;)*
    };
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    use self::{batch::*, declarations::*, partiya::*, score_game::*};
    rules::add_field_properties(m.py())?;
    add!(m, ["PiquetCard" = Card, "PiquetRules" = rules::Rules], [piquet_parse_cards]);
    add!(
        m,
        [
            "PiquetPoint" = Point,
            "PiquetSequence" = Sequence,
            "PiquetSet" = Set,
            "PiquetDeclarations" = Declarations,
            "PiquetCategoryScore" = CategoryScore,
            "PiquetDeclarationScore" = DeclarationScore,
            "PiquetGameEvent" = GameEvent,
            "PiquetGameScore" = GameScore,
            "PiquetPartiya" = Partiya,
            "PiquetPartie" = Partie,
            "PiquetRecord" = Record,
            "PiquetPartiyaGame" = PartiyaGame,
            "PiquetKorolik" = Korolik,
            "PiquetPartiyaResult" = PartiyaResult,
            "PiquetPartieResult" = PartieResult,
        ],
        [
            piquet_declarations,
            piquet_score_declarations,
            piquet_score_game,
            piquet_round_record,
            piquet_difference_record,
            piquet_declarations_batch,
            piquet_score_declarations_batch,
        ]
    );
    Ok(())
}

