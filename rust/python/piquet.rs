//! Bindings for `cribpiquet.piquet`.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::convert::{self, card_class, with_slice, Group, Ids2};
use crate::piquet as core;

card_class! {
    /// A card of the 32-card piquet pack.
    ///
    /// Build it from an id (``suit * 8 + rank``; rank 0 = 7, 1 = 8, 2 = 9, 3 = 10, 4 = J, 5 = Q,
    /// 6 = K, 7 = A; suits C D H S), from text (``"AS"``, ``"10♥"``, ``"th"``) or from another Card.
    /// Cards are immutable, hashable and ordered by id; ``int(card)`` is the id.
    deck: Piquet, core: core::Card, hand: core::Hand, count: 32, module: "cribpiquet.piquet",
    other: crate::python::cribbage::Card, other_card: "a cribbage card is not a piquet card",
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
/// The cards of one trick.
const TRICK: Group = Group { what: "trick", expected: "2", max: 2 };
/// The most tricks of a deal (rules §4: 12 cards each, one per trick).
const MAX_TRICKS: usize = 12;

fn hand_from(obj: &Bound<'_, PyAny>) -> PyResult<core::Hand> {
    convert::hand::<Piquet>(obj, HAND)
}

fn optional_hand(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<core::Hand>> {
    obj.filter(|o| !o.is_none()).map(|o| convert::hand::<Piquet>(o, DEALT)).transpose()
}

fn optional_player(obj: Option<&str>, what: &str) -> PyResult<Option<core::Player>> {
    obj.map(|name| {
        core::Player::parse(name)
            .map_err(|_| PyValueError::new_err(format!("{what} must be \"elder\", \"dealer\" or None, got {name:?}")))
    })
    .transpose()
}

fn player_name(p: Option<core::Player>) -> Option<&'static str> {
    p.map(core::Player::name)
}

/// Python's repr of an optional name: `'elder'` or `None`.
fn repr_name(name: Option<&str>) -> String {
    name.map_or_else(|| "None".to_string(), |n| format!("'{n}'"))
}

fn repr_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

// ------------------------------------------------------------------------------------- rules

/// A piquet rule set: every number or procedure that differs between the Russian game
/// (``Rules.russian()``, the default everywhere) and Rubicon piquet (``Rules.rubicon()``).
///
/// Immutable; ``rules.replace(field=value, ...)`` returns a changed copy (validated).
#[pyclass(frozen, eq, hash, skip_from_py_object, name = "Rules", module = "cribpiquet.piquet")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(pub(crate) core::Rules);

const RULE_FIELDS: [&str; 15] = [
    "sequence_values",
    "trick_scoring",
    "last_trick_extra",
    "capot_bonus",
    "capot_keeps_last_trick_extra",
    "open_capot_bonus",
    "elder_exchange",
    "dealer_exchange",
    "declaration_timing",
    "bonus_mode",
    "match_scoring",
    "koroliks_per_partiya",
    "deals_per_partie",
    "rounding",
    "name",
];

fn rule_value<'py>(py: Python<'py>, r: &core::Rules, field: &str) -> PyResult<Bound<'py, PyAny>> {
    let ex = |e: core::ExchangeLimits| (e.min, e.max, e.may_decline);
    Ok(match field {
        "sequence_values" => PyTuple::new(py, r.sequence_values)?.into_any(),
        "trick_scoring" => r.trick_scoring.name().into_pyobject(py)?.into_any(),
        "last_trick_extra" => r.last_trick_extra.into_pyobject(py)?.into_any(),
        "capot_bonus" => r.capot_bonus.into_pyobject(py)?.into_any(),
        "capot_keeps_last_trick_extra" => {
            pyo3::types::PyBool::new(py, r.capot_keeps_last_trick_extra).to_owned().into_any()
        }
        "open_capot_bonus" => r.open_capot_bonus.into_pyobject(py)?.into_any(),
        "elder_exchange" => ex(r.elder_exchange).into_pyobject(py)?.into_any(),
        "dealer_exchange" => ex(r.dealer_exchange).into_pyobject(py)?.into_any(),
        "declaration_timing" => r.declaration_timing.name().into_pyobject(py)?.into_any(),
        "bonus_mode" => r.bonus_mode.name().into_pyobject(py)?.into_any(),
        "match_scoring" => r.match_scoring.name().into_pyobject(py)?.into_any(),
        "koroliks_per_partiya" => r.koroliks_per_partiya.into_pyobject(py)?.into_any(),
        "deals_per_partie" => r.deals_per_partie.into_pyobject(py)?.into_any(),
        "rounding" => r.rounding.name().into_pyobject(py)?.into_any(),
        _ => return Err(PyTypeError::new_err(format!("unknown rule field {field:?}"))),
    })
}

fn set_rule(r: &mut core::Rules, field: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let bad_type = |what: &str| {
        PyTypeError::new_err(format!(
            "rule {field} must be {what}, got {}",
            value.repr().map(|s| s.to_string()).unwrap_or_default()
        ))
    };
    let number = |v: &Bound<'_, PyAny>| -> PyResult<i64> {
        if v.is_instance_of::<pyo3::types::PyBool>() {
            return Err(bad_type("an int"));
        }
        v.extract::<i64>().map_err(|_| bad_type("an int"))
    };
    let small = |v: &Bound<'_, PyAny>, max: i64| -> PyResult<i64> {
        let n = number(v)?;
        if !(0..=max).contains(&n) {
            return Err(PyValueError::new_err(format!("rule {field} must be in 0..={max}, got {n}")));
        }
        Ok(n)
    };
    let text = |v: &Bound<'_, PyAny>| -> PyResult<String> { v.extract::<String>().map_err(|_| bad_type("a str")) };
    let exchange = |v: &Bound<'_, PyAny>| -> PyResult<core::ExchangeLimits> {
        let (min, max, may_decline): (Bound<'_, PyAny>, Bound<'_, PyAny>, bool) =
            v.extract().map_err(|_| bad_type("a (min, max, may_decline) tuple"))?;
        Ok(core::ExchangeLimits { min: small(&min, 8)? as u8, max: small(&max, 8)? as u8, may_decline })
    };
    let max = core::MAX_RULE_VALUE as i64;
    match field {
        "sequence_values" => {
            let values: Vec<Bound<'_, PyAny>> = value.extract().map_err(|_| bad_type("a sequence of 6 ints"))?;
            if values.len() != 6 {
                return Err(PyValueError::new_err(format!(
                    "rule sequence_values needs 6 values (lengths 3..8), got {}",
                    values.len()
                )));
            }
            for (slot, v) in r.sequence_values.iter_mut().zip(&values) {
                *slot = small(v, max)? as u16;
            }
        }
        "trick_scoring" => r.trick_scoring = core::TrickScoring::parse(&text(value)?)?,
        "last_trick_extra" => r.last_trick_extra = small(value, max)? as u16,
        "capot_bonus" => r.capot_bonus = small(value, max)? as u16,
        "capot_keeps_last_trick_extra" => {
            r.capot_keeps_last_trick_extra = value.extract::<bool>().map_err(|_| bad_type("a bool"))?
        }
        "open_capot_bonus" => r.open_capot_bonus = if value.is_none() { None } else { Some(small(value, max)? as u16) },
        "elder_exchange" => r.elder_exchange = exchange(value)?,
        "dealer_exchange" => r.dealer_exchange = exchange(value)?,
        "declaration_timing" => r.declaration_timing = core::DeclarationTiming::parse(&text(value)?)?,
        "bonus_mode" => r.bonus_mode = core::BonusMode::parse(&text(value)?)?,
        "match_scoring" => r.match_scoring = core::MatchScoring::parse(&text(value)?)?,
        "koroliks_per_partiya" => r.koroliks_per_partiya = small(value, 255)? as u8,
        "deals_per_partie" => r.deals_per_partie = small(value, 255)? as u8,
        "rounding" => r.rounding = core::Rounding::parse(&text(value)?)?,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "unknown rule field {field:?} (fields: {})",
                RULE_FIELDS[..14].join(", ")
            )))
        }
    }
    Ok(())
}

#[pymethods]
impl Rules {
    /// ``Rules()`` or ``Rules("russian")`` / ``Rules("rubicon")``.
    #[new]
    #[pyo3(signature = (name = "russian"))]
    fn new(name: &str) -> PyResult<Rules> {
        Ok(Rules(core::Rules::named(name)?))
    }
    /// The Russian game of the source (the default).
    #[staticmethod]
    fn russian() -> Rules {
        Rules(core::Rules::russian())
    }
    /// English Rubicon piquet.
    #[staticmethod]
    fn rubicon() -> Rules {
        Rules(core::Rules::rubicon())
    }
    /// A copy with some fields changed: ``Rules.russian().replace(koroliks_per_partiya=3)``.
    #[pyo3(signature = (**changes))]
    fn replace(&self, changes: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let mut r = self.0;
        if let Some(changes) = changes {
            for (k, v) in changes.iter() {
                set_rule(&mut r, &k.extract::<String>()?, &v)?;
            }
        }
        r.validate()?;
        Ok(Rules(r))
    }
    /// The fields as a dict.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for field in &RULE_FIELDS[..14] {
            d.set_item(field, rule_value(py, &self.0, field)?)?;
        }
        Ok(d)
    }
    /// Sequence values by length 3..8 (russian 13..18; rubicon 3, 4, 15..18).
    #[getter]
    fn sequence_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        rule_value(py, &self.0, "sequence_values")
    }
    /// ``"every-lead-and-trick"`` (russian) or rubicon's lead-or-win-on-opponent's-lead scoring.
    #[getter]
    fn trick_scoring(&self) -> &'static str {
        self.0.trick_scoring.name()
    }
    /// Extra points for the last trick (russian 3, so it counts 4; rubicon 1).
    #[getter]
    fn last_trick_extra(&self) -> u16 {
        self.0.last_trick_extra
    }
    /// The capot bonus (40 in both).
    #[getter]
    fn capot_bonus(&self) -> u16 {
        self.0.capot_bonus
    }
    /// Whether the last-trick extra still counts with a capot (rubicon yes, russian no).
    #[getter]
    fn capot_keeps_last_trick_extra(&self) -> bool {
        self.0.capot_keeps_last_trick_extra
    }
    /// The bonus for an announced ("open") capot made (russian 80), or None where not allowed.
    #[getter]
    fn open_capot_bonus(&self) -> Option<u16> {
        self.0.open_capot_bonus
    }
    /// Elder's exchange limits ``(min, max, may_decline)``: russian (3, 5, True), rubicon (1, 5, False).
    #[getter]
    fn elder_exchange(&self) -> (u8, u8, bool) {
        let e = self.0.elder_exchange;
        (e.min, e.max, e.may_decline)
    }
    /// The dealer's exchange limits ``(min, max, may_decline)``.
    #[getter]
    fn dealer_exchange(&self) -> (u8, u8, bool) {
        let e = self.0.dealer_exchange;
        (e.min, e.max, e.may_decline)
    }
    /// When the dealer's declarations are recorded (russian before the first lead).
    #[getter]
    fn declaration_timing(&self) -> &'static str {
        self.0.declaration_timing.name()
    }
    /// How pique/repique judge that the opponent "has scored".
    #[getter]
    fn bonus_mode(&self) -> &'static str {
        self.0.bonus_mode.name()
    }
    /// ``"partiya"`` (russian koroliks) or ``"partie"`` (rubicon, 6 deals).
    #[getter]
    fn match_scoring(&self) -> &'static str {
        self.0.match_scoring.name()
    }
    /// Koroliks in a partiya (default 2).
    #[getter]
    fn koroliks_per_partiya(&self) -> u8 {
        self.0.koroliks_per_partiya
    }
    /// Deals in a rubicon partie (6).
    #[getter]
    fn deals_per_partie(&self) -> u8 {
        self.0.deals_per_partie
    }
    /// How match records are rounded (russian to tens, halves up).
    #[getter]
    fn rounding(&self) -> &'static str {
        self.0.rounding.name()
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut best: Option<String> = None;
        for (name, base) in [("russian", core::Rules::russian()), ("rubicon", core::Rules::rubicon())] {
            let mut changed = Vec::new();
            for field in &RULE_FIELDS[..14] {
                let mine = rule_value(py, &self.0, field)?;
                if !mine.eq(rule_value(py, &base, field)?)? {
                    changed.push(format!("{field}={}", mine.repr()?));
                }
            }
            let text = if changed.is_empty() {
                format!("Rules.{name}()")
            } else {
                format!("Rules.{name}().replace({})", changed.join(", "))
            };
            if best.as_ref().is_none_or(|b| text.len() < b.len()) {
                best = Some(text);
            }
        }
        Ok(best.unwrap_or_default())
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        // Rebuild as Rules.russian().replace(**fields).
        let module = py.import("cribpiquet.piquet")?;
        let helper = module.getattr("_rules_from_dict")?;
        Ok((helper, (self.as_dict(py)?,)))
    }
}

pub(crate) fn rules_arg(rules: Option<&Bound<'_, PyAny>>) -> PyResult<core::Rules> {
    match rules {
        None => Ok(core::Rules::russian()),
        Some(r) if r.is_none() => Ok(core::Rules::russian()),
        Some(r) => {
            if let Ok(r) = r.cast::<Rules>() {
                return Ok(r.get().0);
            }
            if let Ok(name) = r.extract::<String>() {
                return Ok(core::Rules::named(&name)?);
            }
            Err(PyTypeError::new_err(format!(
                "rules must be a Rules value or \"russian\"/\"rubicon\", got {}",
                r.repr()?
            )))
        }
    }
}

// ------------------------------------------------------------------------------ declarations

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

#[pymethods]
impl Declarations {
    /// The hand's cards.
    #[getter]
    fn hand(&self) -> Vec<Card> {
        cards_list(self.0.hand)
    }
    /// Whether the dealt hand had no K, Q or J.
    #[getter]
    fn carte_blanche(&self) -> bool {
        self.0.carte_blanche
    }
    /// The point.
    #[getter]
    fn point(&self) -> Point {
        point_py(&self.0.point)
    }
    /// Every sequence, best first.
    #[getter]
    fn sequences(&self) -> Vec<Sequence> {
        self.0.sequences.iter().map(sequence_py).collect()
    }
    /// Every set, best first.
    #[getter]
    fn sets(&self) -> Vec<Set> {
        self.0.sets.iter().map(set_py).collect()
    }
    /// The best sequence, or None.
    #[getter]
    fn best_sequence(&self) -> Option<Sequence> {
        self.0.best_sequence().map(sequence_py)
    }
    /// The best set, or None.
    #[getter]
    fn best_set(&self) -> Option<Set> {
        self.0.best_set().map(set_py)
    }
    /// Total value of all sequences (scored only if the best one wins).
    #[getter]
    fn sequences_value(&self) -> u16 {
        self.0.sequences_value()
    }
    /// Total value of all sets (scored only if the best one wins).
    #[getter]
    fn sets_value(&self) -> u16 {
        self.0.sets_value()
    }
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
    CategoryScore { winner: player_name(c.winner), points: (c.points[0], c.points[1]) }
}

/// Both hands' declarations compared: who scores what in each category, the repique, totals.
///
/// ``str(score)`` reads like the announcement: ``"Point of six — good, 6 (elder); …"``.
#[pyclass(frozen, name = "DeclarationScore", module = "cribpiquet.piquet")]
pub struct DeclarationScore(core::DeclarationScore);

type DeclItem = (&'static str, &'static str, String, u16, Vec<Card>);

#[pymethods]
impl DeclarationScore {
    /// Elder's declarations.
    #[getter]
    fn elder(&self) -> Declarations {
        Declarations(self.0.elder.clone())
    }
    /// The dealer's declarations.
    #[getter]
    fn dealer(&self) -> Declarations {
        Declarations(self.0.dealer.clone())
    }
    /// Carte blanche.
    #[getter]
    fn carte_blanche(&self) -> CategoryScore {
        category_py(self.0.carte_blanche)
    }
    /// The point.
    #[getter]
    fn point(&self) -> CategoryScore {
        category_py(self.0.point)
    }
    /// Sequences.
    #[getter]
    fn sequences(&self) -> CategoryScore {
        category_py(self.0.sequences)
    }
    /// Sets.
    #[getter]
    fn sets(&self) -> CategoryScore {
        category_py(self.0.sets)
    }
    /// Who scored the repique (+60), or None.
    #[getter]
    fn repique(&self) -> Option<&'static str> {
        player_name(self.0.repique)
    }
    /// (elder, dealer) declaration points, repique included.
    #[getter]
    fn totals(&self) -> (u16, u16) {
        (self.0.totals[0], self.0.totals[1])
    }
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

// ------------------------------------------------------------------------------------ a game

/// One entry of a game's log.
#[pyclass(frozen, get_all, name = "GameEvent", module = "cribpiquet.piquet")]
pub struct GameEvent {
    /// ``"elder"`` or ``"dealer"``.
    player: &'static str,
    /// What scored (``"point"``, ``"lead"``, ``"trick"``, ``"pique"``, …).
    kind: &'static str,
    /// Points scored.
    points: u16,
    /// Why, in words.
    reason: String,
    /// The trick number 1..12, or None for declarations and end-of-play bonuses.
    trick: Option<u8>,
    /// (elder, dealer) running totals after this event.
    totals: (u16, u16),
}

#[pymethods]
impl GameEvent {
    fn __repr__(&self) -> String {
        format!(
            "GameEvent('{}', '{}', {}, {:?}, trick={}, totals={:?})",
            self.player,
            self.kind,
            self.points,
            self.reason,
            self.trick.map_or_else(|| "None".to_string(), |t| t.to_string()),
            self.totals
        )
    }
}

/// A scored game (one deal): totals, winner or рефет, and the ordered event log.
#[pyclass(frozen, name = "GameScore", module = "cribpiquet.piquet")]
pub struct GameScore(core::GameScore);

#[pymethods]
impl GameScore {
    /// (elder, dealer) final totals.
    #[getter]
    fn totals(&self) -> (u16, u16) {
        (self.0.totals[0], self.0.totals[1])
    }
    /// The difference written for the winner.
    #[getter]
    fn difference(&self) -> u16 {
        self.0.difference()
    }
    /// ``"elder"``, ``"dealer"``, or None for a рефет (draw).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        player_name(self.0.winner())
    }
    /// Whether the game is a рефет (equal totals).
    #[getter]
    fn is_refet(&self) -> bool {
        self.0.is_refet()
    }
    /// The declarations compared.
    #[getter]
    fn declarations(&self) -> DeclarationScore {
        DeclarationScore(self.0.declarations.clone())
    }
    /// Every scoring event in order.
    #[getter]
    fn events(&self) -> Vec<GameEvent> {
        self.0
            .events
            .iter()
            .map(|e| GameEvent {
                player: e.player.name(),
                kind: e.kind.name(),
                points: e.points,
                reason: e.reason.clone(),
                trick: e.trick,
                totals: (e.totals[0], e.totals[1]),
            })
            .collect()
    }
    /// (elder, dealer) tricks won.
    #[getter]
    fn tricks_won(&self) -> (u8, u8) {
        (self.0.tricks_won[0], self.0.tricks_won[1])
    }
    /// The winner of each trick.
    #[getter]
    fn trick_winners(&self) -> Vec<&'static str> {
        self.0.trick_winners.iter().map(|p| p.name()).collect()
    }
    /// Who scored the repique, or None.
    #[getter]
    fn repique(&self) -> Option<&'static str> {
        player_name(self.0.repique)
    }
    /// Whether elder scored the pique.
    #[getter]
    fn pique(&self) -> bool {
        self.0.pique
    }
    /// Who took every trick, or None.
    #[getter]
    fn capot(&self) -> Option<&'static str> {
        player_name(self.0.capot)
    }
    /// Whether an announced capot was made.
    #[getter]
    fn open_capot_made(&self) -> bool {
        self.0.open_capot_made
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "GameScore(totals=({}, {}), winner={}, difference={})",
            self.0.totals[0],
            self.0.totals[1],
            repr_name(player_name(self.0.winner())),
            self.0.difference()
        )
    }
}

fn tricks_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(core::Card, core::Card)>> {
    let mut tricks = Vec::with_capacity(MAX_TRICKS);
    if let Ok(n) = obj.len() {
        if n > MAX_TRICKS {
            return Err(PyValueError::new_err(format!("a game record has {MAX_TRICKS} tricks, got {n}")));
        }
    }
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err("tricks must be an iterable of (leader's card, follower's card) pairs"))?;
    for (i, pair) in iter.enumerate() {
        let pair = pair?;
        if i == MAX_TRICKS {
            return Err(PyValueError::new_err(format!(
                "a game record has {MAX_TRICKS} tricks, got more than {MAX_TRICKS}"
            )));
        }
        let sized = pair.cast::<pyo3::types::PyList>().map(|l| l.len()).ok();
        if let Some(n) = sized.or_else(|| pair.cast::<PyTuple>().map(|t| t.len()).ok()).filter(|&n| n != 2) {
            return Err(PyValueError::new_err(format!("trick {} must hold 2 cards, got {n}", i + 1)));
        }
        let cards = convert::card_vec::<Piquet>(&pair, TRICK).map_err(|e| {
            let msg = e.value(pair.py()).to_string();
            if e.is_instance_of::<PyTypeError>(pair.py()) {
                PyTypeError::new_err(format!("trick {}: {msg}", i + 1))
            } else {
                PyValueError::new_err(format!("trick {}: {msg}", i + 1))
            }
        })?;
        match cards[..] {
            [a, b] => tricks.push((a, b)),
            _ => return Err(PyValueError::new_err(format!("trick {} must hold 2 cards, got {}", i + 1, cards.len()))),
        }
    }
    Ok(tricks)
}

// ------------------------------------------------------------------------------------- match

fn record_py(r: Option<core::Record>) -> Option<(String, u32)> {
    r.map(|r| (r.side.to_string(), r.points))
}

fn partiya_game_py<'py>(py: Python<'py>, g: &core::PartiyaGame) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("totals", (g.totals[0], g.totals[1]))?;
    d.set_item("doubled", g.doubled)?;
    d.set_item("written", record_py(g.written))?;
    d.set_item("korolik", g.korolik)?;
    Ok(d)
}

/// A Russian partiya: games between players A and B, grouped in koroliks (two games each).
///
/// ``add_game(total_a, total_b)`` writes the difference into the winner's column; koroliks close
/// with difference + 100 rounded to tens; a рефет (draw) ends the korolik and doubles the next
/// two games (carried into the next partiya when none are left: ``carried_doubling``).
#[pyclass(name = "Partiya", module = "cribpiquet.piquet")]
pub struct Partiya(core::Partiya);

#[pymethods]
impl Partiya {
    #[new]
    #[pyo3(signature = (rules = None, *, doubled_games = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>, doubled_games: Option<&Bound<'_, PyAny>>) -> PyResult<Partiya> {
        let rules = rules_arg(rules)?;
        let doubled_games = match doubled_games {
            Some(d) if !d.is_none() => convert::int_in(d, "doubled_games", 0, u8::MAX as i64)? as u8,
            _ => 0,
        };
        Ok(Partiya(core::Partiya::with_doubled_games(&rules, doubled_games)?))
    }
    /// Record one game's totals; returns what was written (a dict).
    fn add_game<'py>(
        &mut self,
        py: Python<'py>,
        total_a: &Bound<'py, PyAny>,
        total_b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let total_a = convert::int_in(total_a, "total_a", 0, u32::MAX as i64)? as u32;
        let total_b = convert::int_in(total_b, "total_b", 0, u32::MAX as i64)? as u32;
        let g = self.0.add_game(total_a, total_b)?;
        partiya_game_py(py, &g)
    }
    /// Every game so far (dicts: totals, doubled, written, korolik).
    #[getter]
    fn games<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.0.games().iter().map(|g| partiya_game_py(py, g)).collect()
    }
    /// Every korolik so far (dicts: sums, games, ended_by_refet, record).
    #[getter]
    fn koroliks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.0
            .koroliks()
            .iter()
            .map(|k| {
                let d = PyDict::new(py);
                d.set_item("sums", (k.sums[0], k.sums[1]))?;
                d.set_item("games", k.games)?;
                d.set_item("ended_by_refet", k.ended_by_refet)?;
                d.set_item("record", record_py(k.record))?;
                Ok(d)
            })
            .collect()
    }
    /// (A, B) sums of the game differences written.
    #[getter]
    fn columns(&self) -> (u32, u32) {
        let c = self.0.columns();
        (c[0], c[1])
    }
    /// Games still to count double after a рефет.
    #[getter]
    fn doubled_games_left(&self) -> u8 {
        self.0.doubled_games_left()
    }
    /// Doubled games carried into the next partiya (pass as ``doubled_games=``).
    #[getter]
    fn carried_doubling(&self) -> u8 {
        self.0.carried_doubling()
    }
    /// Whether every korolik of the partiya has been played.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    /// The result so far: korolik records, partiya record, through bonus, totals and net win.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.0.result();
        let d = PyDict::new(py);
        d.set_item("korolik_records", r.korolik_records.iter().map(|&k| record_py(k)).collect::<Vec<_>>())?;
        d.set_item("columns", (r.columns[0], r.columns[1]))?;
        d.set_item("partiya_record", record_py(r.partiya_record))?;
        d.set_item("through_bonus", (r.through_bonus[0], r.through_bonus[1]))?;
        d.set_item("totals", (r.totals[0], r.totals[1]))?;
        d.set_item("net_win", record_py(r.net_win))?;
        d.set_item("carried_doubling", r.carried_doubling)?;
        d.set_item("complete", r.complete)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let c = self.0.columns();
        format!(
            "<Partiya games={} columns=({}, {}) over={}>",
            self.0.games().len(),
            c[0],
            c[1],
            repr_bool(self.0.is_over())
        )
    }
}

/// A rubicon partie: 6 deals, cumulative scores; the winner scores the difference + 100, or the
/// sum + 100 if the loser is under 100 (rubiconed); a tie after 6 deals plays on.
#[pyclass(name = "Partie", module = "cribpiquet.piquet")]
pub struct Partie(core::Partie);

#[pymethods]
impl Partie {
    #[new]
    #[pyo3(signature = (rules = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Partie> {
        let rules = match rules {
            None => core::Rules::rubicon(),
            Some(r) if r.is_none() => core::Rules::rubicon(),
            r => rules_arg(r)?,
        };
        Ok(Partie(core::Partie::new(&rules)?))
    }
    /// Record one deal's scores (A, B).
    fn add_deal(&mut self, score_a: &Bound<'_, PyAny>, score_b: &Bound<'_, PyAny>) -> PyResult<()> {
        let score_a = convert::int_in(score_a, "score_a", 0, u32::MAX as i64)? as u32;
        let score_b = convert::int_in(score_b, "score_b", 0, u32::MAX as i64)? as u32;
        Ok(self.0.add_deal(score_a, score_b)?)
    }
    /// Every deal so far.
    #[getter]
    fn deals(&self) -> Vec<(u32, u32)> {
        self.0.deals().iter().map(|d| (d[0], d[1])).collect()
    }
    /// (A, B) cumulative totals.
    #[getter]
    fn totals(&self) -> (u32, u32) {
        let t = self.0.totals();
        (t[0], t[1])
    }
    /// Deals still to play.
    #[getter]
    fn deals_left(&self) -> usize {
        self.0.deals_left()
    }
    /// Whether the partie is decided.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    /// None until over; then a dict: totals, winner ("A"/"B"), rubiconed, score.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0
            .result()
            .map(|r| {
                let d = PyDict::new(py);
                d.set_item("totals", (r.totals[0], r.totals[1]))?;
                d.set_item("winner", r.winner.to_string())?;
                d.set_item("rubiconed", r.rubiconed)?;
                d.set_item("score", r.score)?;
                Ok(d)
            })
            .transpose()
    }
    fn __repr__(&self) -> String {
        let t = self.0.totals();
        format!(
            "<Partie deals={} totals=({}, {}) over={}>",
            self.0.deals().len(),
            t[0],
            t[1],
            repr_bool(self.0.is_over())
        )
    }
}

// -------------------------------------------------------------------------------- functions

/// Parse card text (``"AS KS,10♠"``) or convert an iterable of cards into a list of Card
/// (at most 32 cards: more is a ValueError).
#[pyfunction]
fn piquet_parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    Ok(convert::card_vec::<Piquet>(cards, CARD_LIST)?.into_iter().map(Card).collect())
}

/// What one 12-card hand declares (carte blanche judged on ``dealt`` when given).
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

/// Score a whole game (one deal) from the hands after the exchange and its 12 tricks.
#[pyfunction]
#[pyo3(signature = (elder, dealer, tricks, *, rules = None, elder_dealt = None, dealer_dealt = None,
                    open_capot = None, silent = None, false_declaration = None))]
#[allow(clippy::too_many_arguments)]
fn piquet_score_game(
    elder: &Bound<'_, PyAny>,
    dealer: &Bound<'_, PyAny>,
    tricks: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    elder_dealt: Option<&Bound<'_, PyAny>>,
    dealer_dealt: Option<&Bound<'_, PyAny>>,
    open_capot: Option<&str>,
    silent: Option<&str>,
    false_declaration: Option<&str>,
) -> PyResult<GameScore> {
    let rules = rules_arg(rules)?;
    let options = core::GameOptions {
        elder_dealt: optional_hand(elder_dealt)?,
        dealer_dealt: optional_hand(dealer_dealt)?,
        open_capot: optional_player(open_capot, "open_capot")?,
        silent: optional_player(silent, "silent")?,
        false_declaration: optional_player(false_declaration, "false_declaration")?,
    };
    let tricks = tricks_from(tricks)?;
    Ok(GameScore(core::score_game(hand_from(elder)?, hand_from(dealer)?, &tricks, &rules, &options)?))
}

/// Round a record to tens, halves up (115 → 120, 114 → 110).
#[pyfunction]
fn piquet_round_record(x: &Bound<'_, PyAny>) -> PyResult<i64> {
    Ok(core::round_record(convert::int_in(x, "x", i64::MIN, i64::MAX)?))
}

/// The record for two sums: (side, larger − smaller + 100, rounded), or None when equal.
#[pyfunction]
#[pyo3(signature = (a, b, *, rules = None))]
fn piquet_difference_record(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(String, u32)>> {
    let rules = rules_arg(rules)?;
    let a = convert::int_in(a, "a", 0, u32::MAX as i64)? as u32;
    let b = convert::int_in(b, "b", 0, u32::MAX as i64)? as u32;
    Ok(record_py(core::difference_record(a, b, rules.rounding)))
}

fn check_width(ids: &Ids2<'_>, name: &str) -> PyResult<usize> {
    let (rows, width) = ids.shape();
    if width != 12 {
        return Err(PyValueError::new_err(format!("{name} must have 12 cards per row, got shape ({rows}, {width})")));
    }
    Ok(rows)
}

/// Per-hand declaration features of an (N, 12) contiguous id array: a dict of arrays.
#[pyfunction]
#[pyo3(signature = (hands, *, rules = None))]
fn piquet_declaration_features<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let ids = Ids2::extract(hands, "hands")?;
    check_width(&ids, "hands")?;
    let f = with_slice!(&ids, Ids2, |s| py.detach(|| core::declaration_features(s, &rules)))?;
    let d = PyDict::new(py);
    d.set_item("point_length", f.point_length.into_pyarray(py))?;
    d.set_item("point_value", f.point_value.into_pyarray(py))?;
    d.set_item("point_suit", f.point_suit.into_pyarray(py))?;
    d.set_item("best_sequence_length", f.best_sequence_length.into_pyarray(py))?;
    d.set_item("best_sequence_top", f.best_sequence_top.into_pyarray(py))?;
    d.set_item("sequence_count", f.sequence_count.into_pyarray(py))?;
    d.set_item("sequence_value", f.sequence_value.into_pyarray(py))?;
    d.set_item("best_set_kind", f.best_set_kind.into_pyarray(py))?;
    d.set_item("best_set_rank", f.best_set_rank.into_pyarray(py))?;
    d.set_item("sets_value", f.sets_value.into_pyarray(py))?;
    d.set_item("carte_blanche", f.carte_blanche.into_pyarray(py))?;
    Ok(d)
}

/// Each deal's declaration points (elder, dealer), repique included: an (N, 2) int16 array.
#[pyfunction]
#[pyo3(signature = (elder, dealer, *, rules = None))]
fn piquet_score_declarations_batch<'py>(
    py: Python<'py>,
    elder: &Bound<'py, PyAny>,
    dealer: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<i16>>> {
    let rules = rules_arg(rules)?;
    let e = Ids2::extract(elder, "elder")?;
    let d = Ids2::extract(dealer, "dealer")?;
    let rows = check_width(&e, "elder")?;
    let dealer_rows = check_width(&d, "dealer")?;
    if rows != dealer_rows {
        return Err(PyValueError::new_err(format!("elder has {rows} rows but dealer has {dealer_rows}")));
    }
    let mut out = vec![0i16; 2 * rows];
    macro_rules! run {
        ($($v:ident),*) => {
            match (&e, &d) {
                $((Ids2::$v(a), Ids2::$v(b)) => {
                    let (a, b) = (a.as_slice().expect("contiguous"), b.as_slice().expect("contiguous"));
                    py.detach(|| core::score_declarations_batch_into(a, b, &rules, &mut out))?
                })*
                _ => return Err(PyTypeError::new_err("elder and dealer must have the same dtype")),
            }
        };
    }
    run!(I8, I16, I32, I64, U8, U16, U32, U64);
    PyArray1::from_vec(py, out).reshape([rows, 2])
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PiquetCard", py.get_type::<Card>())?;
    m.add("PiquetRules", py.get_type::<Rules>())?;
    m.add("PiquetPoint", py.get_type::<Point>())?;
    m.add("PiquetSequence", py.get_type::<Sequence>())?;
    m.add("PiquetSet", py.get_type::<Set>())?;
    m.add("PiquetDeclarations", py.get_type::<Declarations>())?;
    m.add("PiquetCategoryScore", py.get_type::<CategoryScore>())?;
    m.add("PiquetDeclarationScore", py.get_type::<DeclarationScore>())?;
    m.add("PiquetGameEvent", py.get_type::<GameEvent>())?;
    m.add("PiquetGameScore", py.get_type::<GameScore>())?;
    m.add("PiquetPartiya", py.get_type::<Partiya>())?;
    m.add("PiquetPartie", py.get_type::<Partie>())?;
    m.add_function(wrap_pyfunction!(piquet_parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_game, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_round_record, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_difference_record, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_declaration_features, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations_batch, m)?)?;
    Ok(())
}
