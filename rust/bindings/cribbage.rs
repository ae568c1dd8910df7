//! Bindings for `cribpiquet.cribbage`.

use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyTuple};

use super::arrays::{with_slice, with_slices, Dict, Ids1, Ids2};
use super::convert::{self, card_class, Group};
use super::display::repr;
use crate::batch::{CardId, Column, IdRows};
use crate::cribbage as core;
use crate::error::Result;

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

pub(super) fn card_tuple<'py>(py: Python<'py>, cards: core::Hand) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(Card))
}

/// Every scoring combination as `(kind, cards, points)`.
type Items<'py> = Vec<(&'static str, Bound<'py, PyTuple>, u8)>;

/// `items`, `int()` (the total) and `str()` (the count read aloud) of both breakdowns.
macro_rules! breakdown_methods {
    ($($ty:ident),*) => {$(
        #[pymethods]
        impl $ty {
            /// Every scoring combination as ``(kind, cards, points)``.
            #[getter]
            fn items<'py>(&self, py: Python<'py>) -> PyResult<Items<'py>> {
                self.0.items.iter().map(|it| Ok((it.kind.name(), card_tuple(py, it.cards)?, it.points))).collect()
            }
            fn __int__(&self) -> u8 {
                self.0.total()
            }
            fn __str__(&self) -> String {
                self.0.to_string()
            }
        }
    )*};
}

/// The points of a show by category, with every scoring combination.
///
/// ``str(breakdown)`` reads the count aloud: ``"fifteen two, fifteen four, and a pair is six"``.
#[pyclass(frozen, name = "Breakdown", module = "cribpiquet.cribbage")]
pub struct Breakdown(core::Breakdown);

impl Breakdown {
    /// The categories by name, the total last.
    fn categories(&self) -> [(&'static str, u8); 6] {
        let b = &self.0;
        let points = [b.fifteens, b.pairs, b.runs, b.flush, b.nobs, b.total()];
        let names = ["fifteens", "pairs", "runs", "flush", "nobs", "total"];
        std::array::from_fn(|i| (names[i], points[i]))
    }
}

super::display::getters!(Breakdown {
    /// Total points.
    total: u8 = |b| b.total(),
    /// Points for fifteens (2 each).
    fifteens: u8,
    /// Points for pairs (2 each).
    pairs: u8,
    /// Points for runs.
    runs: u8,
    /// Points for a flush.
    flush: u8,
    /// The point for his nobs.
    nobs: u8,
});

#[pymethods]
impl Breakdown {
    /// The categories as a dict (``total`` included).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.categories().into_py_dict(py)
    }
    fn __repr__(&self) -> String {
        let c = self.categories();
        repr("Breakdown", c[5..].iter().chain(&c[..5]).copied())
    }
}
/// The points for the last card laid in the play, by category.
#[pyclass(frozen, name = "PegBreakdown", module = "cribpiquet.cribbage")]
pub struct PegBreakdown(core::PegBreakdown);

super::display::getters!(PegBreakdown {
    /// Total points for the last card.
    total: u8 = |p| p.total(),
    /// The running count after the last card.
    count: u8,
    /// 2 if the count became 15.
    fifteen: u8,
    /// 2 if the count became 31.
    thirty_one: u8,
    /// 2, 6 or 12 for a pair, pair royal or double pair royal.
    pairs: u8,
    /// The length of the run made, or 0.
    run: u8,
});

#[pymethods]
impl PegBreakdown {
    fn __repr__(&self) -> String {
        let p = &self.0;
        let fields = [p.total(), p.count, p.fifteen, p.thirty_one, p.pairs, p.run];
        repr("PegBreakdown", ["total", "count", "fifteen", "thirty_one", "pairs", "run"].into_iter().zip(fields))
    }
}

breakdown_methods!(Breakdown, PegBreakdown);

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
fn cribbage_score_hand_batch(
    hands: &Bound<'_, PyAny>,
    starters: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
) -> PyResult<Column> {
    with_shows(hands, starters, crib, |shows| Ok(Column::rows(shows.scores()?)))
}

/// Per-category points of N shows: a dict of uint8 arrays.
#[pyfunction]
#[pyo3(signature = (hands, starters, *, crib = None), text_signature = "(hands, starters, *, crib=False)")]
fn cribbage_explain_hand_batch(
    hands: &Bound<'_, PyAny>,
    starters: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
) -> PyResult<Dict<core::ShowColumns>> {
    with_shows(hands, starters, crib, |shows| Ok(Dict(shows.explain()?)))
}

/// A batch of shows of any id dtype (one dynamic call per batch).
trait ShowBatch: Sync {
    fn scores(&self) -> Result<Vec<u8>>;
    fn explain(&self) -> Result<core::ShowColumns>;
}

impl<T: CardId> ShowBatch for core::Shows<'_, T> {
    fn scores(&self) -> Result<Vec<u8>> {
        core::Shows::scores(self)
    }
    fn explain(&self) -> Result<core::ShowColumns> {
        core::Shows::explain(self)
    }
}

/// `job` of the shows of a batch call, checked once (the arrays here, their shape by
/// `Shows::new`), with the interpreter detached.
fn with_shows<R: Send>(
    hands: &Bound<'_, PyAny>,
    starters: &Bound<'_, PyAny>,
    crib: Option<&Bound<'_, PyAny>>,
    job: impl Fn(&dyn ShowBatch) -> Result<R> + Sync,
) -> PyResult<R> {
    let (py, crib) = (hands.py(), crib_arg(crib)?);
    let (h, s) = (Ids2::extract(hands, "hands")?, Ids1::extract(starters, "starters")?);
    let (rows, width) = h.shape();
    with_slices!(&h, Ids2, &s, Ids1, "hands and starters must have the same dtype", |h, s| {
        let shows = core::Shows::new(IdRows::new("hands", h, rows, width)?, s, crib)?;
        Ok(py.detach(|| job(&shows))?)
    })
}

/// Pegging points of the last card of each row of an (N, L) id array padded with -1.
#[pyfunction]
fn cribbage_peg_points_batch(py: Python<'_>, sequences: &Bound<'_, PyAny>) -> PyResult<Column> {
    let seqs = Ids2::extract(sequences, "sequences")?;
    let (rows, width) = seqs.shape();
    Ok(Column::rows(with_slice!(&seqs, Ids2, |s| {
        let s = IdRows::new("sequences", s, rows, width)?;
        py.detach(|| core::peg_points_rows(s))?
    })))
}

/// Counts per score 0..29 over every show of a kind, by full enumeration.
#[pyfunction]
fn cribbage_hand_distribution(py: Python<'_>, kind: &Bound<'_, PyAny>) -> PyResult<Column> {
    let kind = core::DistributionKind::parse(convert::str_text(kind, "kind")?)?;
    let counts = py.detach(|| core::hand_distribution(kind));
    Ok(Column::rows(counts.map(|c| c as i64).to_vec()))
}

/// Bytes of the show lookup tables.
#[pyfunction]
fn cribbage_table_bytes() -> usize {
    core::table_bytes()
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CribbageCard", py.get_type::<Card>())?;
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

