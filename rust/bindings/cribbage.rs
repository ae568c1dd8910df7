//! Bindings for `cribpiquet.cribbage`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::arrays::{columns_dict, with_slice, with_slices, Ids1, Ids2};
use super::convert::{self, card_class, Group};
use crate::batch::IdRows;
use crate::cribbage as core;

card_class! {
    /// A playing card of the 52-card pack.
    ///
    /// Build it from an id (``suit * 13 + rank``; rank 0 = ace .. 12 = king; suits C D H S), from
    /// text (``"5H"``, ``"10♥"``, ``"th"``) or from another Card. Cards are immutable, hashable and
    /// ordered by id; ``int(card)`` is the id.
    ///
    /// >>> Card("5H"), int(Card("5H")), str(Card(35))
    /// (Card('5H'), 30, 'TH')
    deck: Cribbage, core: core::Card, hand: core::Hand, count: 52, module: "cribpiquet.cribbage",
    slot: 0, other_card: "a piquet card is not a cribbage card",
    id_doc: "The public id, ``suit * 13 + rank``.", rank_doc: "Rank 0..12: ace = 0 .. king = 12.";
    /// Pip value for fifteens and the count (ace 1, courts 10).
    #[getter]
    fn pips(&self) -> u8 {
        self.0.pips()
    }
}

/// A hand (at most 4 cards read).
const HAND: Group = Group { what: "hand", expected: "3 or 4", max: 4 };
/// A crib.
const CRIB: Group = Group { what: "crib", expected: "4", max: 4 };
/// A pegging sequence (rules: at most 13 cards make a count of 31 or less).
const SEQUENCE: Group = Group { what: "pegging sequence", expected: "1 to 13", max: 13 };
/// The cards of `parse_cards`: at most the pack (52), since no card can come twice in a deal.
const CARD_LIST: Group = Group { what: "card list", expected: "at most 52", max: 52 };

fn card_tuple<'py>(py: Python<'py>, cards: core::Hand) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(Card))
}

/// The points of a show by category, with every scoring combination.
///
/// ``str(breakdown)`` reads the count aloud: ``"fifteen two, fifteen four, and a pair is six"``.
#[pyclass(frozen, name = "Breakdown", module = "cribpiquet.cribbage")]
pub struct Breakdown(core::Breakdown);

#[pymethods]
impl Breakdown {
    /// Total points.
    #[getter]
    fn total(&self) -> u8 {
        self.0.total()
    }
    /// Points for fifteens (2 each).
    #[getter]
    fn fifteens(&self) -> u8 {
        self.0.fifteens
    }
    /// Points for pairs (2 each).
    #[getter]
    fn pairs(&self) -> u8 {
        self.0.pairs
    }
    /// Points for runs.
    #[getter]
    fn runs(&self) -> u8 {
        self.0.runs
    }
    /// Points for a flush.
    #[getter]
    fn flush(&self) -> u8 {
        self.0.flush
    }
    /// The point for his nobs.
    #[getter]
    fn nobs(&self) -> u8 {
        self.0.nobs
    }
    /// Every scoring combination as ``(kind, cards, points)``.
    #[getter]
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<(&'static str, Bound<'py, PyTuple>, u8)>> {
        self.0.items.iter().map(|it| Ok((it.kind.name(), card_tuple(py, it.cards)?, it.points))).collect()
    }
    /// The categories as a dict (``total`` included).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("fifteens", self.0.fifteens)?;
        d.set_item("pairs", self.0.pairs)?;
        d.set_item("runs", self.0.runs)?;
        d.set_item("flush", self.0.flush)?;
        d.set_item("nobs", self.0.nobs)?;
        d.set_item("total", self.0.total())?;
        Ok(d)
    }
    fn __int__(&self) -> u8 {
        self.0.total()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        let b = &self.0;
        format!(
            "Breakdown(total={}, fifteens={}, pairs={}, runs={}, flush={}, nobs={})",
            b.total(),
            b.fifteens,
            b.pairs,
            b.runs,
            b.flush,
            b.nobs
        )
    }
}

/// The points for the last card laid in the play, by category.
#[pyclass(frozen, name = "PegBreakdown", module = "cribpiquet.cribbage")]
pub struct PegBreakdown(core::PegBreakdown);

#[pymethods]
impl PegBreakdown {
    /// Total points for the last card.
    #[getter]
    fn total(&self) -> u8 {
        self.0.total()
    }
    /// The running count after the last card.
    #[getter]
    fn count(&self) -> u8 {
        self.0.count
    }
    /// 2 if the count became 15.
    #[getter]
    fn fifteen(&self) -> u8 {
        self.0.fifteen
    }
    /// 2 if the count became 31.
    #[getter]
    fn thirty_one(&self) -> u8 {
        self.0.thirty_one
    }
    /// 2, 6 or 12 for a pair, pair royal or double pair royal.
    #[getter]
    fn pairs(&self) -> u8 {
        self.0.pairs
    }
    /// The length of the run made, or 0.
    #[getter]
    fn run(&self) -> u8 {
        self.0.run
    }
    /// Every scoring combination as ``(kind, cards, points)``.
    #[getter]
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Vec<(&'static str, Bound<'py, PyTuple>, u8)>> {
        self.0.items.iter().map(|it| Ok((it.kind.name(), card_tuple(py, it.cards)?, it.points))).collect()
    }
    fn __int__(&self) -> u8 {
        self.0.total()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        let p = &self.0;
        format!(
            "PegBreakdown(total={}, count={}, fifteen={}, thirty_one={}, pairs={}, run={})",
            p.total(),
            p.count,
            p.fifteen,
            p.thirty_one,
            p.pairs,
            p.run
        )
    }
}

/// Parse card text (``"5H 5D,10♠ JC"``) or convert an iterable of cards into a list of Card
/// (at most 52 cards: more is a ValueError).
#[pyfunction]
fn cribbage_parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<Vec<Card>> {
    Ok(convert::card_vec::<Cribbage>(cards, CARD_LIST)?.into_iter().map(Card).collect())
}

/// The `crib` flag (a bool, false by default).
fn crib_arg(crib: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    crib.map_or(Ok(false), |c| convert::bool_arg(c, "crib"))
}

/// The arguments of a show: the hand (or crib), the starter and the crib flag (a bool).
fn show_args(
    hand: &Bound<'_, PyAny>,
    starter: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
) -> PyResult<(core::Hand, core::Card, bool)> {
    let crib = crib_arg(crib)?;
    let hand = convert::hand::<Cribbage>(hand, if crib { CRIB } else { HAND })?;
    Ok((hand, convert::card::<Cribbage>(starter)?, crib))
}

/// Score a hand (4 cards, or 3 in five-card cribbage) or a crib (4 cards) with the starter.
#[pyfunction]
#[pyo3(signature = (hand, starter, *, crib = None), text_signature = "(hand, starter, *, crib=False)")]
fn cribbage_score_hand(
    hand: &Bound<'_, PyAny>,
    starter: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
) -> PyResult<u8> {
    let (hand, starter, crib) = show_args(hand, starter, crib)?;
    Ok(core::score_show(hand, starter, crib)?)
}

/// Explain a show: points by category and every scoring combination.
#[pyfunction]
#[pyo3(signature = (hand, starter, *, crib = None), text_signature = "(hand, starter, *, crib=False)")]
fn cribbage_explain_hand(
    hand: &Bound<'_, PyAny>,
    starter: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
) -> PyResult<Breakdown> {
    let (hand, starter, crib) = show_args(hand, starter, crib)?;
    Ok(Breakdown(core::explain_show(hand, starter, crib)?))
}

/// The dealer's points for turning the starter: 2 for a jack (his heels), else 0.
#[pyfunction]
fn cribbage_heels_points(starter: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(core::heels_points(convert::card::<Cribbage>(starter)?))
}

/// The points for the last card of a count (the cards laid since the last reset, in order).
#[pyfunction]
fn cribbage_peg_points(sequence: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(core::peg_points(&convert::card_vec::<Cribbage>(sequence, SEQUENCE)?)?)
}

/// Explain the points for the last card of a count.
#[pyfunction]
fn cribbage_explain_peg(sequence: &Bound<'_, PyAny>) -> PyResult<PegBreakdown> {
    Ok(PegBreakdown(core::explain_peg(&convert::card_vec::<Cribbage>(sequence, SEQUENCE)?)?))
}

/// The go point for the last card of a count: 1, or 0 when the count is 31.
#[pyfunction]
fn cribbage_go_points(count: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(core::go_points(convert::int_in(count, "count", 0, 31)? as u32)?)
}

/// Score N shows from integer id arrays of the same dtype: hands (N, 3|4), starters (N,).
#[pyfunction]
#[pyo3(signature = (hands, starters, *, crib = None), text_signature = "(hands, starters, *, crib=False)")]
fn cribbage_score_hand_batch<'py>(
    hands: &Bound<'py, PyAny>,
    starters: &Bound<'py, PyAny>,
    crib: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    shows_batch(hands, starters, crib, false)
}

/// Per-category points of N shows: a dict of uint8 arrays.
#[pyfunction]
#[pyo3(signature = (hands, starters, *, crib = None), text_signature = "(hands, starters, *, crib=False)")]
fn cribbage_explain_hand_batch<'py>(
    hands: &Bound<'py, PyAny>,
    starters: &Bound<'py, PyAny>,
    crib: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    shows_batch(hands, starters, crib, true)
}

/// The shows of a batch call, checked once (the arrays here, their shape by `Shows::new`), then
/// scored (or explained, a dict of columns) with the interpreter detached.
fn shows_batch<'py>(
    hands: &Bound<'py, PyAny>,
    starters: &Bound<'py, PyAny>,
    crib: Option<&Bound<'py, PyAny>>,
    explain: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (py, crib) = (hands.py(), crib_arg(crib)?);
    let (h, s) = (Ids2::extract(hands, "hands")?, Ids1::extract(starters, "starters")?);
    let (rows, width) = h.shape();
    with_slices!(&h, Ids2, &s, Ids1, "hands and starters must have the same dtype", |h, s| {
        let shows = core::Shows::new(IdRows::new("hands", h, rows, width)?, s, crib)?;
        Ok(match explain {
            true => columns_dict(py, py.detach(|| shows.explain())?)?.into_any(),
            false => py.detach(|| shows.scores())?.into_pyarray(py).into_any(),
        })
    })
}

/// Pegging points of the last card of each row of an (N, L) id array padded with -1.
#[pyfunction]
fn cribbage_peg_points_batch<'py>(
    py: Python<'py>,
    sequences: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let seqs = Ids2::extract(sequences, "sequences")?;
    let (rows, width) = seqs.shape();
    let points = with_slice!(&seqs, Ids2, |s| {
        let s = IdRows::new("sequences", s, rows, width)?;
        py.detach(|| core::peg_points_rows(s))?
    });
    Ok(points.into_pyarray(py))
}

/// Counts per score 0..29 over every show of a kind, by full enumeration.
#[pyfunction]
fn cribbage_hand_distribution<'py>(py: Python<'py>, kind: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let kind = core::DistributionKind::parse(convert::str_arg(kind, "kind")?.to_str()?)?;
    let counts = py.detach(|| core::hand_distribution(kind));
    Ok(counts.iter().map(|&c| c as i64).collect::<Vec<_>>().into_pyarray(py))
}

/// Bytes of the show lookup tables.
#[pyfunction]
fn cribbage_table_bytes() -> usize {
    core::table_bytes()
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CribbageCard", py.get_type::<Card>())?;
    convert::register_card_type(0, py.get_type::<Card>());
    m.add("CribbageBreakdown", py.get_type::<Breakdown>())?;
    m.add("CribbagePegBreakdown", py.get_type::<PegBreakdown>())?;
    m.add_function(wrap_pyfunction!(cribbage_parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_score_hand, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_explain_hand, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_heels_points, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_peg_points, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_explain_peg, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_go_points, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_score_hand_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_explain_hand_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_peg_points_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_hand_distribution, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_table_bytes, m)?)?;
    Ok(())
}

super::display::display!(@card Card);
super::display::display! { Breakdown => "breakdown_html", PegBreakdown => "breakdown_html" }
