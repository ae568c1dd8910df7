//! One hand's declarations (`Point`, `Sequence`, `Set`, `Declarations`) and both hands'
//! compared (`CategoryScore`, `DeclarationScore`).

use pyo3::prelude::*;

use super::rules::rules_arg;
use super::{cards_list, hand_from, optional_hand, pair, player_name, Card};
use crate::bindings::display::getters;
use crate::piquet as core;

/// The point: the longest suit.
#[pyclass(frozen, name = "Point", module = "cribpiquet.piquet")]
pub struct Point(core::Point);

getters!(Point, __str__ = name {
    /// Suit 0..3 (C D H S).
    suit: u8,
    /// Cards in the suit.
    length: u8,
    /// Sum of point values (breaks a tie on length).
    value: u8,
    /// The cards.
    cards: Vec<Card> = |c| cards_list(c.cards),
    /// ``"point of six"``.
    name: String = |c| c.name(),
});

/// A sequence: 3+ consecutive cards of one suit.
#[pyclass(frozen, name = "Sequence", module = "cribpiquet.piquet")]
pub struct Sequence(core::Sequence);

getters!(Sequence, __str__ = name {
    suit: u8,
    length: u8,
    top: Card = |c| Card(c.top),
    value: u16,
    cards: Vec<Card> = |c| cards_list(c.cards),
    name: String = |c| c.name(),
});

/// A set: three or four of a rank (10 and higher).
#[pyclass(frozen, name = "Set", module = "cribpiquet.piquet")]
pub struct Set(core::Set);

getters!(Set, __str__ = name {
    rank: u8,
    count: u8,
    value: u16,
    cards: Vec<Card> = |c| cards_list(c.cards),
    name: String = |c| c.name(),
});

/// `<Class "name", …>`: the reprs of one hand's declarations.
macro_rules! named_repr {
    ($($class:ident $value:literal),*) => {$(
        #[pymethods]
        impl $class {
            fn __repr__(&self) -> String {
                format!(concat!("<", stringify!($class), " {:?}, ", $value, ">"), self.0.name(), self.0.value)
            }
        }
    )*};
}
named_repr!(Point "value {}", Sequence "{} points", Set "{} points");

/// What one 12-card hand declares: the point, every sequence, every set, carte blanche.
#[pyclass(frozen, name = "Declarations", module = "cribpiquet.piquet")]
pub struct Declarations(core::Declarations);

getters!(Declarations, __str__ = to_string {
    /// The hand's cards.
    hand: Vec<Card> = |c| cards_list(c.hand),
    /// Whether the dealt hand had no K, Q or J.
    carte_blanche: bool,
    /// The point.
    point: Point = |c| Point(c.point),
    /// Every sequence, best first.
    sequences: Vec<Sequence> = |c| c.sequences.iter().copied().map(Sequence).collect(),
    /// Every set, best first.
    sets: Vec<Set> = |c| c.sets.iter().copied().map(Set).collect(),
    /// The best sequence, or None.
    best_sequence: Option<Sequence> = |c| c.best_sequence().copied().map(Sequence),
    /// The best set, or None.
    best_set: Option<Set> = |c| c.best_set().copied().map(Set),
    /// Total value of all sequences (scored only if the best one wins).
    sequences_value: u16 = |c| c.sequences_value(),
    /// Total value of all sets (scored only if the best one wins).
    sets_value: u16 = |c| c.sets_value(),
});

#[pymethods]
impl Declarations {
    fn __repr__(&self) -> String {
        format!("<Declarations {}>", self.0)
    }
}

/// One category's result: the winner (``"elder"``, ``"dealer"`` or None) and each one's points.
#[pyclass(frozen, name = "CategoryScore", module = "cribpiquet.piquet")]
pub struct CategoryScore(core::CategoryScore);

getters!(CategoryScore, repr[](winner, points) {
    winner: Option<&'static str> = |c| player_name(c.winner),
    points: (u16, u16) = |c| pair(c.points),
});

/// Both hands' declarations compared: who scores what in each category, the repique, totals.
///
/// ``str(score)`` reads like the announcement: ``"Point of six — good, 6 (elder); …"``.
#[pyclass(frozen, name = "DeclarationScore", module = "cribpiquet.piquet")]
pub struct DeclarationScore(pub(super) core::DeclarationScore);

type DeclItem = (&'static str, &'static str, String, u16, Vec<Card>);

getters!(DeclarationScore, __str__ = to_string, repr[](totals, repique) {
    /// Elder's declarations.
    elder: Declarations = |c| Declarations(c.elder.clone()),
    /// The dealer's declarations.
    dealer: Declarations = |c| Declarations(c.dealer.clone()),
    /// Carte blanche.
    carte_blanche: CategoryScore = |c| CategoryScore(c.carte_blanche),
    /// The point.
    point: CategoryScore = |c| CategoryScore(c.point),
    /// Sequences.
    sequences: CategoryScore = |c| CategoryScore(c.sequences),
    /// Sets.
    sets: CategoryScore = |c| CategoryScore(c.sets),
    /// Who scored the repique (+60), or None.
    repique: Option<&'static str> = |c| player_name(c.repique),
    /// (elder, dealer) declaration points, repique included.
    totals: (u16, u16) = |c| pair(c.totals),
    /// Every scoring declaration in reckoning order: (player, kind, name, points, cards).
    items: Vec<DeclItem> = |c| c
        .items
        .iter()
        .map(|it| (it.player.name(), it.kind.name(), it.name.clone(), it.points, cards_list(it.cards)))
        .collect(),
});

/// What one 12-card hand declares (carte blanche judged on ``dealt`` when given). ``dealt`` must
/// be able to produce ``hand`` by an exchange the rules allow to one player or the other, else a
/// ValueError (rules §2, §3.1).
#[pyfunction]
#[pyo3(signature = (hand, *, dealt = None, rules = None))]
pub(super) fn piquet_declarations(
    hand: &Bound<'_, PyAny>,
    dealt: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Declarations> {
    let rules = rules_arg(rules)?;
    Ok(Declarations(core::declarations_with_rules(hand_from(hand)?, optional_hand(dealt)?, &rules)?))
}

/// Compare both hands' declarations.
#[pyfunction]
#[pyo3(signature = (elder, dealer, *, rules = None, elder_dealt = None, dealer_dealt = None))]
pub(super) fn piquet_score_declarations(
    elder: &Bound<'_, PyAny>,
    dealer: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    elder_dealt: Option<&Bound<'_, PyAny>>,
    dealer_dealt: Option<&Bound<'_, PyAny>>,
) -> PyResult<DeclarationScore> {
    let rules = rules_arg(rules)?;
    Ok(DeclarationScore(core::score_declarations(
        hand_from(elder)?,
        hand_from(dealer)?,
        &rules,
        optional_hand(elder_dealt)?,
        optional_hand(dealer_dealt)?,
    )?))
}
