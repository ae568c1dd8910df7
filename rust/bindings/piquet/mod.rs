//! Bindings for `cribpiquet.piquet`.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::arrays::{with_slice, with_slices, Ids2};
use super::convert::{self, card_class, Group};
use crate::piquet as core;

card_class! {
    /// A card of the 32-card piquet pack.
    ///
    /// Build it from an id (``suit * 8 + rank``; rank 0 = 7, 1 = 8, 2 = 9, 3 = 10, 4 = J, 5 = Q,
    /// 6 = K, 7 = A; suits C D H S), from text (``"AS"``, ``"10♥"``, ``"th"``) or from another Card.
    /// Cards are immutable, hashable and ordered by id; ``int(card)`` is the id.
    deck: Piquet, core: core::Card, hand: core::Hand, count: 32, module: "cribpiquet.piquet",
    other: crate::bindings::cribbage::Card, other_card: "a cribbage card is not a piquet card",
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

/// The rule fields, in order (`N_RULE_FIELDS` of them), then `"name"`.
const N_RULE_FIELDS: usize = 16;
const RULE_FIELDS: [&str; N_RULE_FIELDS + 1] = [
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
    "pique_blocked_by_play",
    "silence_covers",
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
        "pique_blocked_by_play" => pyo3::types::PyBool::new(py, r.pique_blocked_by_play).to_owned().into_any(),
        "silence_covers" => r.silence_covers.name().into_pyobject(py)?.into_any(),
        "match_scoring" => r.match_scoring.name().into_pyobject(py)?.into_any(),
        "koroliks_per_partiya" => r.koroliks_per_partiya.into_pyobject(py)?.into_any(),
        "deals_per_partie" => r.deals_per_partie.into_pyobject(py)?.into_any(),
        "rounding" => r.rounding.name().into_pyobject(py)?.into_any(),
        _ => return Err(PyTypeError::new_err(format!("unknown rule field {field:?}"))),
    })
}

fn set_rule(r: &mut core::Rules, field: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let bad_type =
        |what: &str| PyTypeError::new_err(format!("rule {field} must be {what}, got {}", convert::echo_repr(value)));
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
            // Read at most 7 items (never trust `len()`: a lying `__len__` must not size a buffer).
            let mut values: Vec<Bound<'_, PyAny>> = Vec::with_capacity(7);
            if value.is_instance_of::<pyo3::types::PyString>() {
                return Err(bad_type("a sequence of 6 ints"));
            }
            for item in value.try_iter().map_err(|_| bad_type("a sequence of 6 ints"))?.take(7) {
                values.push(item?);
            }
            if values.len() != 6 {
                return Err(PyValueError::new_err(format!(
                    "rule sequence_values needs 6 values (lengths 3..8), got {}",
                    if values.len() > 6 { "more than 6".to_string() } else { values.len().to_string() }
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
        "pique_blocked_by_play" => r.pique_blocked_by_play = value.extract::<bool>().map_err(|_| bad_type("a bool"))?,
        "silence_covers" => r.silence_covers = core::SilenceCovers::parse(&text(value)?)?,
        "match_scoring" => r.match_scoring = core::MatchScoring::parse(&text(value)?)?,
        "koroliks_per_partiya" => r.koroliks_per_partiya = small(value, 255)? as u8,
        "deals_per_partie" => r.deals_per_partie = small(value, 255)? as u8,
        "rounding" => r.rounding = core::Rounding::parse(&text(value)?)?,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "unknown rule field {:?} (fields: {})",
                crate::error::echo(field),
                RULE_FIELDS[..N_RULE_FIELDS].join(", ")
            )))
        }
    }
    Ok(())
}

#[pymethods]
impl Rules {
    /// ``Rules()`` or ``Rules("russian")`` / ``Rules("rubicon")``.
    #[new]
    #[pyo3(signature = (name = None), text_signature = "(name='russian')")]
    fn new(name: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
        match name {
            None => Ok(Rules(core::Rules::russian())),
            Some(name) => Ok(Rules(core::Rules::named(convert::str_arg(name, "name")?.to_str()?)?)),
        }
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
        for field in &RULE_FIELDS[..N_RULE_FIELDS] {
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
    /// Do the dealer's play points block elder's pique? russian False (only his declarations
    /// do), rubicon True (he must have scored nothing at all). Rules §4.
    #[getter]
    fn pique_blocked_by_play(&self) -> bool {
        self.0.pique_blocked_by_play
    }
    /// What «молчанка» (``score_game(..., silent=)``) covers: ``"play"`` (every play point, the
    /// default) or ``"tricks"`` (the literal reading: the offender's leads still score). Rules §7.
    #[getter]
    fn silence_covers(&self) -> &'static str {
        self.0.silence_covers.name()
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
            for field in &RULE_FIELDS[..N_RULE_FIELDS] {
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
                convert::echo_repr(r)
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

/// A non-negative int of at most 2**64 − 1 (a game total or deal score); a ValueError naming
/// `name` otherwise, a TypeError for a non-int.
fn points_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!("{name} must be an int, got the bool {}", convert::echo_repr(obj))));
    }
    match obj.extract::<u64>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
            Err(PyValueError::new_err(format!("{name} must be in 0..=2**64-1, got {}", convert::echo_repr(obj))))
        }
        Err(_) => Err(PyTypeError::new_err(format!("{name} must be an int, got {}", convert::echo_repr(obj)))),
    }
}

fn pair<T: Copy>(x: [T; 2]) -> (T, T) {
    (x[0], x[1])
}

fn repr_record(r: Option<Record>) -> String {
    r.map_or_else(|| "None".to_string(), |r| r.__repr__())
}

/// A number written in one player's column: ``Record(seat, points)`` (seats 0 and 1).
///
/// >>> from cribpiquet.piquet import Record
/// >>> r = Record(1, 120)
/// >>> r.seat, r.points, str(r)
/// (1, 120, 'seat 1: 120')
/// >>> r
/// Record(seat=1, points=120)
#[pyclass(frozen, eq, hash, get_all, skip_from_py_object, name = "Record", module = "cribpiquet.piquet")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record {
    /// Whose column: seat 0 or 1.
    seat: usize,
    /// The number written.
    points: u64,
}

impl From<core::Record> for Record {
    fn from(r: core::Record) -> Record {
        Record { seat: r.seat, points: r.points }
    }
}

fn record_py(r: Option<core::Record>) -> Option<Record> {
    r.map(Record::from)
}

#[pymethods]
impl Record {
    #[new]
    fn new(seat: &Bound<'_, PyAny>, points: &Bound<'_, PyAny>) -> PyResult<Record> {
        Ok(Record { seat: convert::int_in(seat, "seat", 0, 1)? as usize, points: points_arg(points, "points")? })
    }
    fn __repr__(&self) -> String {
        format!("Record(seat={}, points={})", self.seat, self.points)
    }
    fn __str__(&self) -> String {
        format!("seat {}: {}", self.seat, self.points)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (usize, u64))> {
        Ok((py.get_type::<Record>().into_any(), (self.seat, self.points)))
    }
}

/// One game of a partiya as recorded (what ``Partiya.add_game`` returns).
#[pyclass(frozen, get_all, name = "PartiyaGame", module = "cribpiquet.piquet")]
pub struct PartiyaGame {
    /// The two game totals (seat 0, seat 1) as given.
    totals: (u64, u64),
    /// Whether the game counted double (one of the two games after a рефет).
    doubled: bool,
    /// The difference written in the winner's column (doubled if so); None for a рефет.
    written: Option<Record>,
    /// The 0-based korolik the game belongs to.
    korolik: usize,
}

impl From<&core::PartiyaGame> for PartiyaGame {
    fn from(g: &core::PartiyaGame) -> PartiyaGame {
        PartiyaGame { totals: pair(g.totals), doubled: g.doubled, written: record_py(g.written), korolik: g.korolik }
    }
}

#[pymethods]
impl PartiyaGame {
    fn __repr__(&self) -> String {
        format!(
            "PartiyaGame(totals=({}, {}), doubled={}, written={}, korolik={})",
            self.totals.0,
            self.totals.1,
            repr_bool(self.doubled),
            repr_record(self.written),
            self.korolik
        )
    }
    fn __str__(&self) -> String {
        let what = match self.written {
            Some(r) => format!("seat {} writes {}", r.seat, r.points),
            None => "рефет (a draw)".to_string(),
        };
        let doubled = if self.doubled { " (doubled)" } else { "" };
        format!("{}–{}: {what}{doubled}", self.totals.0, self.totals.1)
    }
}

/// A closed korolik (an item of ``Partiya.koroliks``).
#[pyclass(frozen, get_all, name = "Korolik", module = "cribpiquet.piquet")]
pub struct Korolik {
    /// Each player's sum of what he wrote in it.
    sums: (u64, u64),
    /// Games played in it (2, or fewer when a рефет ended it).
    games: u8,
    /// Whether a рефет ended it.
    ended_by_refet: bool,
    /// Its record (difference + 100, rounded); None for equal sums.
    record: Option<Record>,
}

#[pymethods]
impl Korolik {
    fn __repr__(&self) -> String {
        format!(
            "Korolik(sums=({}, {}), games={}, ended_by_refet={}, record={})",
            self.sums.0,
            self.sums.1,
            self.games,
            repr_bool(self.ended_by_refet),
            repr_record(self.record)
        )
    }
    fn __str__(&self) -> String {
        let how = if self.ended_by_refet { ", ended by a рефет" } else { "" };
        let what = match self.record {
            Some(r) => format!("seat {} records {}", r.seat, r.points),
            None => "no record".to_string(),
        };
        format!("korolik ({} | {}), {} games{how}: {what}", self.sums.0, self.sums.1, self.games)
    }
}

/// The score of a partiya (``Partiya.result()``; provisional until ``complete``).
#[pyclass(frozen, get_all, name = "PartiyaResult", module = "cribpiquet.piquet")]
pub struct PartiyaResult {
    /// The record of each closed korolik (None where its sums were equal).
    korolik_records: Vec<Option<Record>>,
    /// Each player's column of game differences, summed.
    columns: (u64, u64),
    /// The partiya record: the larger column minus the smaller, +100, rounded.
    partiya_record: Option<Record>,
    /// The сквозная запись bonus each player receives (counted once the partiya is over).
    through_bonus: (u64, u64),
    /// Each player's total: partiya record + korolik records + сквозная bonus.
    totals: (u64, u64),
    /// The seat with the larger total; None when they are equal.
    winner: Option<usize>,
    /// The larger total minus the smaller (0 when equal).
    net_win: u64,
    /// Games of the next partiya that count double (pass as ``doubled_games=``).
    carried_doubling: u8,
    /// Whether the partiya is over.
    complete: bool,
}

#[pymethods]
impl PartiyaResult {
    fn __repr__(&self) -> String {
        format!(
            "PartiyaResult(totals=({}, {}), winner={}, net_win={}, complete={})",
            self.totals.0,
            self.totals.1,
            repr_seat(self.winner),
            self.net_win,
            repr_bool(self.complete)
        )
    }
    fn __str__(&self) -> String {
        let records: Vec<String> =
            self.korolik_records.iter().map(|r| r.map_or_else(|| "-".to_string(), |r| r.__str__())).collect();
        let partiya = self.partiya_record.map_or_else(|| "-".to_string(), |r| r.__str__());
        let result = match self.winner {
            Some(w) => format!("seat {w} wins {}", self.net_win),
            None => "a draw".to_string(),
        };
        let state = if self.complete { "" } else { " (so far)" };
        format!(
            "koroliks [{}]; columns {}–{}, partiya record {partiya}; totals {}–{}: {result}{state}",
            records.join(", "),
            self.columns.0,
            self.columns.1,
            self.totals.0,
            self.totals.1
        )
    }
}

fn repr_seat(s: Option<usize>) -> String {
    s.map_or_else(|| "None".to_string(), |s| s.to_string())
}

/// A Russian partiya between seats 0 and 1: games grouped in koroliks (two games each).
///
/// ``add_game(total_0, total_1)`` writes the difference into the winner's column; koroliks close
/// with difference + 100 rounded to tens; a рефет (draw) ends the korolik and doubles the next
/// two games (carried into the next partiya when none are left: ``carried_doubling``). Totals are
/// Python ints up to 2**64 − 1; a partiya whose differences would add up to more than 2**62 is a
/// ValueError naming the game.
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
    /// Record one game's totals (seat 0, seat 1); returns what was written (a ``PartiyaGame``).
    fn add_game(&mut self, total_0: &Bound<'_, PyAny>, total_1: &Bound<'_, PyAny>) -> PyResult<PartiyaGame> {
        let total_0 = points_arg(total_0, "total_0")?;
        let total_1 = points_arg(total_1, "total_1")?;
        let g = self.0.add_game(total_0, total_1)?;
        Ok(PartiyaGame::from(&g))
    }
    /// Every game so far (``PartiyaGame`` values).
    #[getter]
    fn games(&self) -> Vec<PartiyaGame> {
        self.0.games().iter().map(PartiyaGame::from).collect()
    }
    /// Every closed korolik so far (``Korolik`` values).
    #[getter]
    fn koroliks(&self) -> Vec<Korolik> {
        self.0
            .koroliks()
            .iter()
            .map(|k| Korolik {
                sums: pair(k.sums),
                games: k.games,
                ended_by_refet: k.ended_by_refet,
                record: record_py(k.record),
            })
            .collect()
    }
    /// (seat 0, seat 1) sums of the game differences written.
    #[getter]
    fn columns(&self) -> (u64, u64) {
        pair(self.0.columns())
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
    /// The result so far (a ``PartiyaResult``): korolik records, partiya record, through bonus,
    /// totals, winner and net win.
    fn result(&self) -> PartiyaResult {
        let r = self.0.result();
        PartiyaResult {
            korolik_records: r.korolik_records.iter().map(|&k| record_py(k)).collect(),
            columns: pair(r.columns),
            partiya_record: record_py(r.partiya_record),
            through_bonus: pair(r.through_bonus),
            totals: pair(r.totals),
            winner: r.winner(),
            net_win: r.net_win.map_or(0, |w| w.points),
            carried_doubling: r.carried_doubling,
            complete: r.complete,
        }
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

/// The result of a finished rubicon partie (``Partie.result()``).
#[pyclass(frozen, get_all, name = "PartieResult", module = "cribpiquet.piquet")]
pub struct PartieResult {
    /// The cumulative totals (seat 0, seat 1).
    totals: (u64, u64),
    /// The winner's seat (the higher total).
    winner: usize,
    /// Whether the loser was rubiconed (under 100).
    rubiconed: bool,
    /// The winner's score: the difference + 100, or the sum + 100 when the loser is rubiconed.
    score: u64,
    /// The same as ``score``: what the winner wins (the name every match result shares).
    net_win: u64,
}

#[pymethods]
impl PartieResult {
    fn __repr__(&self) -> String {
        format!(
            "PartieResult(totals=({}, {}), winner={}, rubiconed={}, score={})",
            self.totals.0,
            self.totals.1,
            self.winner,
            repr_bool(self.rubiconed),
            self.score
        )
    }
    fn __str__(&self) -> String {
        let how = if self.rubiconed { " (rubiconed: the sum + 100)" } else { " (the difference + 100)" };
        format!("totals {}–{}: seat {} scores {}{how}", self.totals.0, self.totals.1, self.winner, self.score)
    }
}

/// A rubicon partie between seats 0 and 1: 6 deals, cumulative scores; the winner scores the
/// difference + 100, or the sum + 100 if the loser is under 100 (rubiconed); a tie after 6 deals
/// plays on. Scores are Python ints; both totals together may reach 2**62 (more is a ValueError
/// naming the deal). ``Partie.from_totals`` starts from the totals of deals already played.
#[pyclass(name = "Partie", module = "cribpiquet.piquet")]
pub struct Partie(core::Partie);

fn partie_rules(rules: Option<&Bound<'_, PyAny>>) -> PyResult<core::Rules> {
    match rules {
        None => Ok(core::Rules::rubicon()),
        Some(r) if r.is_none() => Ok(core::Rules::rubicon()),
        r => rules_arg(r),
    }
}

#[pymethods]
impl Partie {
    #[new]
    #[pyo3(signature = (rules = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Partie> {
        Ok(Partie(core::Partie::new(&partie_rules(rules)?)?))
    }
    /// The partie after ``deals`` deals (default: the partie's length, 6) whose scores add up to
    /// ``totals``; its ``result()`` is final if that decides it.
    ///
    /// >>> from cribpiquet.piquet import Partie
    /// >>> Partie.from_totals((175, 93)).result()
    /// PartieResult(totals=(175, 93), winner=0, rubiconed=True, score=368)
    #[staticmethod]
    #[pyo3(signature = (totals, deals = None, *, rules = None))]
    fn from_totals(
        totals: &Bound<'_, PyAny>,
        deals: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Partie> {
        let rules = partie_rules(rules)?;
        let text = convert::echo_repr(totals);
        let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            totals.extract().map_err(|_| PyTypeError::new_err(format!("totals must be a pair of ints, got {text}")))?;
        let totals = [points_arg(&a, "totals[0]")?, points_arg(&b, "totals[1]")?];
        let deals = match deals {
            Some(d) if !d.is_none() => convert::int_in(d, "deals", 0, u32::MAX as i64)? as usize,
            _ => rules.deals_per_partie as usize,
        };
        Ok(Partie(core::Partie::from_totals(&rules, totals, deals)?))
    }
    /// Record one deal's scores (seat 0, seat 1).
    fn add_deal(&mut self, score_0: &Bound<'_, PyAny>, score_1: &Bound<'_, PyAny>) -> PyResult<()> {
        let score_0 = points_arg(score_0, "score_0")?;
        let score_1 = points_arg(score_1, "score_1")?;
        Ok(self.0.add_deal(score_0, score_1)?)
    }
    /// Every deal added with ``add_deal`` (not those given to ``from_totals``).
    #[getter]
    fn deals(&self) -> Vec<(u64, u64)> {
        self.0.deals().iter().map(|&d| pair(d)).collect()
    }
    /// Every deal played, those given to ``from_totals`` included.
    #[getter]
    fn deals_played(&self) -> usize {
        self.0.deals_played()
    }
    /// (seat 0, seat 1) cumulative totals.
    #[getter]
    fn totals(&self) -> (u64, u64) {
        pair(self.0.totals())
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
    /// None until over; then a ``PartieResult`` (totals, winner, rubiconed, score, net_win).
    fn result(&self) -> Option<PartieResult> {
        self.0.result().map(|r| PartieResult {
            totals: pair(r.totals),
            winner: r.winner,
            rubiconed: r.rubiconed,
            score: r.score,
            net_win: r.score,
        })
    }
    fn __repr__(&self) -> String {
        let t = self.0.totals();
        format!(
            "<Partie deals={} totals=({}, {}) over={}>",
            self.0.deals_played(),
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

/// Score a whole game (one deal) from the hands after the exchange and its 12 tricks.
///
/// ``silent=`` names the player of a «молчанка» (what it covers: ``rules.silence_covers``),
/// ``false_declaration=`` the player who declared what he did not hold (he scores nothing; the
/// opponent is not doubled); the pique follows ``rules.pique_blocked_by_play`` (rules §4, §7).
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
    Ok(core::round_record(convert::int_in(x, "x", i64::MIN, i64::MAX)?)?)
}

/// The record for two sums: ``Record(seat, larger − smaller + 100, rounded)``, or None when equal.
#[pyfunction]
#[pyo3(signature = (a, b, *, rules = None))]
fn piquet_difference_record(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Record>> {
    let rules = rules_arg(rules)?;
    let a = points_arg(a, "a")?;
    let b = points_arg(b, "b")?;
    Ok(record_py(core::difference_record(a, b, rules.rounding)?))
}

fn check_width(ids: &Ids2<'_>, name: &str) -> PyResult<usize> {
    let (rows, width) = ids.shape();
    if width != 12 {
        return Err(PyValueError::new_err(format!("{name} must have 12 cards per row, got shape ({rows}, {width})")));
    }
    Ok(rows)
}

/// Per-hand declaration features of an (N, 12) id array: a dict of arrays.
#[pyfunction]
#[pyo3(signature = (hands, *, rules = None))]
fn piquet_declarations_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_arg(rules)?;
    let ids = Ids2::extract(hands, "hands")?;
    check_width(&ids, "hands")?;
    let f = with_slice!(&ids, Ids2, |s| py.detach(|| core::declarations_batch(s, &rules)))?;
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
    with_slices!(&e, Ids2, &d, Ids2, "elder and dealer must have the same dtype", |a, b| py
        .detach(|| core::score_declarations_batch_into(a, b, &rules, &mut out)))?;
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
    m.add("PiquetRecord", py.get_type::<Record>())?;
    m.add("PiquetPartiyaGame", py.get_type::<PartiyaGame>())?;
    m.add("PiquetKorolik", py.get_type::<Korolik>())?;
    m.add("PiquetPartiyaResult", py.get_type::<PartiyaResult>())?;
    m.add("PiquetPartieResult", py.get_type::<PartieResult>())?;
    m.add_function(wrap_pyfunction!(piquet_parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_game, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_round_record, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_difference_record, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_declarations_batch, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_score_declarations_batch, m)?)?;
    Ok(())
}

super::display::display!(@card Card);
super::display::display! {
    Point => "record_html", Sequence => "record_html", Set => "record_html", Declarations => "record_html",
    CategoryScore => "record_html", DeclarationScore => "declaration_score_html", GameEvent => "record_html",
    GameScore => "game_score_html", Record => "record_html", PartiyaGame => "record_html", Korolik => "record_html",
    PartiyaResult => "record_html", PartieResult => "record_html",
}
