//! One hand's declarations (`Point`, `Sequence`, `Set`, `Declarations`) and both hands'
//! compared (`CategoryScore`, `DeclarationScore`).

use pyo3::prelude::*;

use super::rules::rules_arg;
use super::{cards_list, getters, hand_from, optional_hand, pair, player_name, repr_name, Card};
use crate::piquet as core;

/// The point: the longest suit.
#[pyclass(frozen, get_all, name = "Point", module = "cribpiquet.piquet")]
pub struct Point {
    /// Suit 0..3 (C D H S).
    suit: u8,
    /// Cards in the suit.
    length: u8,
    /// Sum of point values (breaks a tie on length).
    value: u8,
    /// The cards.
    cards: Vec<Card>,
    /// ``"point of six"``.
    name: String,
}

/// A sequence: 3+ consecutive cards of one suit.
#[pyclass(frozen, get_all, name = "Sequence", module = "cribpiquet.piquet")]
pub struct Sequence {
    suit: u8,
    length: u8,
    top: Card,
    value: u16,
    cards: Vec<Card>,
    name: String,
}

/// A set: three or four of a rank (10 and higher).
#[pyclass(frozen, get_all, name = "Set", module = "cribpiquet.piquet")]
pub struct Set {
    rank: u8,
    count: u8,
    value: u16,
    cards: Vec<Card>,
    name: String,
}

macro_rules! simple_repr {
    ($t:ty) => {
        #[pymethods]
        impl $t {
            fn __repr__(&self) -> String {
                format!("<{} {:?}, {} points>", stringify!($t), self.name, self.value)
            }
            fn __str__(&self) -> String {
                self.name.clone()
            }
        }
    };
}
simple_repr!(Sequence);
simple_repr!(Set);

#[pymethods]
impl Point {
    fn __repr__(&self) -> String {
        format!("<Point {:?}, value {}>", self.name, self.value)
    }
    fn __str__(&self) -> String {
        self.name.clone()
    }
}

fn point_py(p: &core::Point) -> Point {
    Point { suit: p.suit, length: p.length, value: p.value, cards: cards_list(p.cards), name: p.name() }
}

fn sequence_py(s: &core::Sequence) -> Sequence {
    Sequence {
        suit: s.suit,
        length: s.length,
        top: Card(s.top),
        value: s.value,
        cards: cards_list(s.cards),
        name: s.name(),
    }
}

fn set_py(s: &core::Set) -> Set {
    Set { rank: s.rank, count: s.count, value: s.value, cards: cards_list(s.cards), name: s.name() }
}

/// What one 12-card hand declares: the point, every sequence, every set, carte blanche.
#[pyclass(frozen, name = "Declarations", module = "cribpiquet.piquet")]
pub struct Declarations(core::Declarations);

getters! {
    Declarations as c:
    /// The hand's cards.
    hand -> Vec<Card> = cards_list(c.hand);
    /// Whether the dealt hand had no K, Q or J.
    carte_blanche -> bool = c.carte_blanche;
    /// The point.
    point -> Point = point_py(&c.point);
    /// Every sequence, best first.
    sequences -> Vec<Sequence> = c.sequences.iter().map(sequence_py).collect();
    /// Every set, best first.
    sets -> Vec<Set> = c.sets.iter().map(set_py).collect();
    /// The best sequence, or None.
    best_sequence -> Option<Sequence> = c.best_sequence().map(sequence_py);
    /// The best set, or None.
    best_set -> Option<Set> = c.best_set().map(set_py);
    /// Total value of all sequences (scored only if the best one wins).
    sequences_value -> u16 = c.sequences_value();
    /// Total value of all sets (scored only if the best one wins).
    sets_value -> u16 = c.sets_value();
}

#[pymethods]
impl Declarations {
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("<Declarations {}>", self.0)
    }
}

/// One category's result: the winner (``"elder"``, ``"dealer"`` or None) and each one's points.
#[pyclass(frozen, get_all, name = "CategoryScore", module = "cribpiquet.piquet")]
pub struct CategoryScore {
    winner: Option<&'static str>,
    points: (u16, u16),
}

#[pymethods]
impl CategoryScore {
    fn __repr__(&self) -> String {
        format!("CategoryScore(winner={}, points={:?})", repr_name(self.winner), self.points)
    }
}

fn category_py(c: core::CategoryScore) -> CategoryScore {
    CategoryScore { winner: player_name(c.winner), points: pair(c.points) }
}

/// Both hands' declarations compared: who scores what in each category, the repique, totals.
///
/// ``str(score)`` reads like the announcement: ``"Point of six — good, 6 (elder); …"``.
#[pyclass(frozen, name = "DeclarationScore", module = "cribpiquet.piquet")]
pub struct DeclarationScore(pub(super) core::DeclarationScore);

type DeclItem = (&'static str, &'static str, String, u16, Vec<Card>);

getters! {
    DeclarationScore as c:
    /// Elder's declarations.
    elder -> Declarations = Declarations(c.elder.clone());
    /// The dealer's declarations.
    dealer -> Declarations = Declarations(c.dealer.clone());
    /// Carte blanche.
    carte_blanche -> CategoryScore = category_py(c.carte_blanche);
    /// The point.
    point -> CategoryScore = category_py(c.point);
    /// Sequences.
    sequences -> CategoryScore = category_py(c.sequences);
    /// Sets.
    sets -> CategoryScore = category_py(c.sets);
    /// Who scored the repique (+60), or None.
    repique -> Option<&'static str> = player_name(c.repique);
    /// (elder, dealer) declaration points, repique included.
    totals -> (u16, u16) = pair(c.totals);
}

#[pymethods]
impl DeclarationScore {
    /// Every scoring declaration in reckoning order: (player, kind, name, points, cards).
    #[getter]
    fn items(&self) -> Vec<DeclItem> {
        self.0
            .items
            .iter()
            .map(|it| (it.player.name(), it.kind.name(), it.name.clone(), it.points, cards_list(it.cards)))
            .collect()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "DeclarationScore(totals=({}, {}), repique={})",
            self.0.totals[0],
            self.0.totals[1],
            repr_name(player_name(self.0.repique))
        )
    }
}

/// What one 12-card hand declares (carte blanche judged on ``dealt`` when given). ``dealt`` must
/// be able to produce ``hand`` by an exchange the rules allow to one player or the other, else a
/// ValueError (rules §2, §3.1).
#[pyfunction]
#[pyo3(signature = (hand, *, dealt = None, rules = None))]
fn piquet_declarations(
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
fn piquet_score_declarations(
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

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PiquetPoint", py.get_type::<Point>())?;
    m.add("PiquetSequence", py.get_type::<Sequence>())?;
    m.add("PiquetSet", py.get_type::<Set>())?;
    m.add("PiquetDeclarations", py.get_type::<Declarations>())?;
    m.add("PiquetCategoryScore", py.get_type::<CategoryScore>())?;
    m.add("PiquetDeclarationScore", py.get_type::<DeclarationScore>())?;
    m.add_function(wrap_pyfunction!(piquet_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations, m)?)?;
    Ok(())
}

crate::bindings::display::display! {
    Point => "record_html", Sequence => "record_html", Set => "record_html", Declarations => "record_html",
    CategoryScore => "record_html", DeclarationScore => "declaration_score_html",
}
