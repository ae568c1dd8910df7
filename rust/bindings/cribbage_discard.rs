//! Bindings for the cribbage discard analysis and the equilibrium discard tables
//! (`cribpiquet.cribbage.analyze_discard`, `analyze_discard_batch`, `discard_tables`).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::arrays::{columns_dict, with_slice, Ids2};
use super::convert::{self, Group};
use super::cribbage::{Card, Cribbage};
use crate::batch::IdRows;
use crate::cribbage as core;

/// A hand to discard from: at most 6 cards read.
const DEALT: Group = Group { what: "hand to discard from", expected: "6 (five-card: 5)", max: 6 };

fn variant_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::Variant> {
    match obj {
        None => Ok(core::Variant::SixCard),
        Some(v) => Ok(convert::str_arg(v, "variant")?.to_str()?.parse::<core::Variant>()?),
    }
}

fn model_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::TablesModel> {
    match obj {
        None => Ok(core::TablesModel::Conditioned),
        Some(v) => Ok(convert::str_arg(v, "model")?.to_str()?.parse::<core::TablesModel>()?),
    }
}

fn card_tuple<'py>(py: Python<'py>, cards: core::Hand) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cards.iter().map(Card))
}

/// One discard choice of :func:`analyze_discard`: the cards kept and thrown, the expected hand
/// (with its minimum, maximum and distribution over the starters), the expected crib, the
/// dealer's expected heels and the net value.
#[pyclass(frozen, name = "DiscardRow", module = "cribpiquet.cribbage")]
pub struct DiscardRow(core::DiscardRow);

#[pymethods]
impl DiscardRow {
    /// The cards kept (4, or 3 in five-card cribbage), in id order.
    #[getter]
    fn kept<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        card_tuple(py, self.0.kept)
    }
    /// The two cards thrown to the crib, in id order.
    #[getter]
    fn thrown<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        card_tuple(py, self.0.thrown)
    }
    /// Expected hand score over every unseen starter.
    #[getter]
    fn hand(&self) -> f64 {
        self.0.hand
    }
    /// The lowest hand score over the starters.
    #[getter]
    fn hand_min(&self) -> u8 {
        self.0.hand_min
    }
    /// The highest hand score over the starters.
    #[getter]
    fn hand_max(&self) -> u8 {
        self.0.hand_max
    }
    /// Number of unseen starters giving each hand score 0..29 (a tuple of 30 ints).
    #[getter]
    fn hand_distribution<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.hand_distribution)
    }
    /// Expected crib score (over the opponent's throws and the starter).
    #[getter]
    fn crib(&self) -> f64 {
        self.0.crib
    }
    /// The dealer's expected points for a jack starter (his heels).
    #[getter]
    fn heels(&self) -> f64 {
        self.0.heels
    }
    /// ``hand + crib + heels`` for the dealer, ``hand - crib - heels`` for pone.
    #[getter]
    fn net(&self) -> f64 {
        self.0.net
    }
    fn __repr__(&self) -> String {
        let cards = |h: core::Hand| h.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
        format!(
            "DiscardRow(kept='{}', thrown='{}', hand={:.4}, hand_min={}, hand_max={}, crib={:.4}, heels={:.4}, net={:.4})",
            cards(self.0.kept),
            cards(self.0.thrown),
            self.0.hand,
            self.0.hand_min,
            self.0.hand_max,
            self.0.crib,
            self.0.heels,
            self.0.net
        )
    }
}

/// Every discard of a two-player hand, best first (a list of :class:`DiscardRow`).
#[pyfunction]
#[pyo3(signature = (hand, dealer, variant = None, opponent = None))]
fn cribbage_analyze_discard(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    dealer: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
    opponent: Option<&Bound<'_, DiscardTables>>,
) -> PyResult<Vec<DiscardRow>> {
    let dealer = convert::bool_arg(dealer, "dealer")?;
    let variant = variant_arg(variant)?;
    let hand = convert::hand::<Cribbage>(hand, DEALT)?;
    let opp = match opponent {
        None => core::Opponent::Uniform,
        Some(t) => core::Opponent::Tables(&t.get().0),
    };
    let rows = py.detach(|| core::analyze_discard(hand, dealer, variant, opp))?;
    Ok(rows.into_iter().map(DiscardRow).collect())
}

/// :func:`analyze_discard` over an (N, 6) or (N, 5) id array; ``dealers`` an (N,) or (1,) uint8
/// array of flags. Returns a dict of arrays (see ``cribbage.analyze_discard_batch``).
#[pyfunction]
#[pyo3(signature = (hands, dealers, variant = None, opponent = None))]
fn cribbage_analyze_discard_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    dealers: PyReadonlyArray1<'py, bool>,
    variant: Option<&Bound<'py, PyAny>>,
    opponent: Option<&Bound<'py, DiscardTables>>,
) -> PyResult<Bound<'py, PyDict>> {
    let variant = variant_arg(variant)?;
    let ids = Ids2::extract(hands, "hands")?;
    let (rows, width) = ids.shape();
    let dealers = dealers.as_slice().map_err(super::arrays::slice_err)?;
    let opp = match opponent {
        None => core::Opponent::Uniform,
        Some(t) => core::Opponent::Tables(&t.get().0),
    };
    let cols = with_slice!(&ids, Ids2, |h| {
        let h = IdRows::new("hands", h, rows, width)?;
        py.detach(|| core::analyze_discard_rows(h, dealers, variant, opp))?
    });
    columns_dict(py, cols)
}

/// Number of hand classes (suit-isomorphism classes of the dealt hands) of a variant's pass.
#[pyfunction]
fn cribbage_discard_classes(variant: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(core::discard_classes(variant_arg(Some(variant))?)?)
}

/// One hand per class, and each class's number of hands.
type ClassHands<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<i64>>);

/// The hand classes ``start..stop`` of a variant's pass: one hand of each class as a
/// ``(n, dealt)`` uint8 id array, and each class's number of hands, int64 ``(n,)``.
#[pyfunction]
fn cribbage_discard_class_hands<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    start: &Bound<'py, PyAny>,
    stop: &Bound<'py, PyAny>,
) -> PyResult<ClassHands<'py>> {
    let variant = variant_arg(Some(variant))?;
    let start = convert::int_in(start, "start", 0, i64::MAX)? as usize;
    let stop = convert::int_in(stop, "stop", 0, i64::MAX)? as usize;
    let classes = core::discard_class_hands(variant, start, stop)?;
    let dealt = variant.cards_dealt();
    let ids =
        Array2::from_shape_fn((classes.len(), dealt), |(r, c)| classes[r].0.iter().nth(c).map_or(0, |card| card.id()));
    let mult: Vec<i64> = classes.iter().map(|c| c.1 as i64).collect();
    Ok((ids.into_pyarray(py), mult.into_pyarray(py)))
}

fn table_array<'py>(py: Python<'py>, t: [[f64; 13]; 13]) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((13, 13), |(r, c)| t[r][c]).into_pyarray(py)
}

fn kinds_array<'py, T: numpy::Element + Copy>(py: Python<'py>, v: &[T; core::THROW_KINDS]) -> Bound<'py, PyArray1<T>> {
    v.to_vec().into_pyarray(py)
}

fn kinds_from(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<[f64; core::THROW_KINDS]> {
    let v: Vec<f64> =
        obj.extract().map_err(|_| PyTypeError::new_err(format!("{name} must be a sequence of floats")))?;
    v.try_into().map_err(|v: Vec<f64>| {
        PyValueError::new_err(format!("{name} must have {} values, got {}", core::THROW_KINDS, v.len()))
    })
}

fn counts_from(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<[u64; core::THROW_KINDS]> {
    let v: Vec<u64> =
        obj.extract().map_err(|_| PyTypeError::new_err(format!("{name} must be a sequence of non-negative ints")))?;
    v.try_into().map_err(|v: Vec<u64>| {
        PyValueError::new_err(format!("{name} must have {} counts, got {}", core::THROW_KINDS, v.len()))
    })
}

/// Equilibrium discard tables (see ``cribbage.discard_tables``).
///
/// ``dealer`` and ``pone`` are 13 x 13 arrays (ranks A..K): the average crib when the dealer
/// throws the rank pair to his own crib, and when pone throws it to the dealer's crib.
#[pyclass(frozen, name = "DiscardTables", module = "cribpiquet.cribbage")]
pub struct DiscardTables(pub(crate) core::DiscardTables);

#[pymethods]
impl DiscardTables {
    /// Iteration 0: the values when every opponent pair of cards is equally likely, given the
    /// two thrown cards only. ``model``: ``"conditioned"`` (the default) or ``"thrown-only"``.
    #[staticmethod]
    #[pyo3(signature = (variant = None, *, flushes = None, model = None))]
    fn initial(
        py: Python<'_>,
        variant: Option<&Bound<'_, PyAny>>,
        flushes: Option<&Bound<'_, PyAny>>,
        model: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let variant = variant_arg(variant)?;
        let flushes = flushes.map_or(Ok(true), |f| convert::bool_arg(f, "flushes"))?;
        let model = model_arg(model)?;
        Ok(DiscardTables(py.detach(|| core::DiscardTables::initial(variant, flushes, model))?))
    }
    /// ``"six-card"`` or ``"five-card"``.
    #[getter]
    fn variant(&self) -> &'static str {
        self.0.variant.name()
    }
    /// Whether crib flushes count.
    #[getter]
    fn flushes(&self) -> bool {
        self.0.flushes
    }
    /// ``"conditioned"`` (a kind's value: the mean, over the hands throwing it, of the exact crib
    /// given the hand) or ``"thrown-only"`` (the crib given the two thrown cards only).
    #[getter]
    fn model(&self) -> &'static str {
        self.0.model.name()
    }
    /// The dealer's table: the average crib when the dealer throws ranks (i, j) (A = 0 .. K = 12).
    #[getter]
    fn dealer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        table_array(py, self.0.dealer_table())
    }
    /// Pone's table: the average crib when pone throws ranks (i, j) to the dealer's crib.
    #[getter]
    fn pone<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        table_array(py, self.0.pone_table())
    }
    /// ``{"dealer": f, "pone": f}``: the fraction of hands throwing ranks (i, j), 13 x 13,
    /// symmetric; the entries on and above the diagonal sum to 1.
    #[getter]
    fn frequency<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("dealer", table_array(py, self.0.frequency(true)))?;
        d.set_item("pone", table_array(py, self.0.frequency(false)))?;
        Ok(d)
    }
    /// Best-response passes done.
    #[getter]
    fn iterations(&self) -> usize {
        self.0.iterations
    }
    /// The largest change of each pass (a list of floats).
    #[getter]
    fn changes(&self) -> Vec<f64> {
        self.0.changes.clone()
    }
    /// The values by throw kind the players decide by: ``{"dealer": (169,), "pone": (169,)}``,
    /// kind ``lo * 13 + hi`` off-suit (or a pair), ``hi * 13 + lo`` suited (``lo < hi``).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("dealer", kinds_array(py, &self.0.values.dealer))?;
        d.set_item("pone", kinds_array(py, &self.0.values.pone))?;
        Ok(d)
    }
    /// The weight of one card pair of each throw kind (169 values, as :attr:`values`) in the
    /// throws of the dealer (``dealer=True``) or of pone: the kind's share of that role's throws
    /// over the pack's card pairs of that kind. ``analyze_discard(..., opponent=tables)`` weighs
    /// the opponent's possible throws by these.
    fn pair_weights<'py>(&self, py: Python<'py>, dealer: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let dealer = convert::bool_arg(dealer, "dealer")?;
        Ok(kinds_array(py, &self.0.pair_weights(dealer)))
    }
    /// The best-response pass over hand classes ``start..stop`` (``0 <= start <= stop <=
    /// discard_classes(variant)``) at these tables' values: a dict of partial sums
    /// ``{"dealer": int64 (169,), "pone": int64 (169,), "hands": int}`` (hands throwing each kind
    /// per role, and ``"dealer_crib"``, ``"pone_crib"``: int64 (169,), the sum of those hands'
    /// exact cribs in units of 2**-32, conditioned model). Sums of disjoint ranges add (:func:`combine_pass_sums`); :meth:`advance` turns
    /// the sums over every class into the next tables. Releases the interpreter.
    fn pass_sums<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'py, PyAny>,
        stop: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let start = convert::int_in(start, "start", 0, i64::MAX)? as usize;
        let stop = convert::int_in(stop, "stop", 0, i64::MAX)? as usize;
        let sums = py.detach(|| self.0.pass(start, stop))?;
        columns_dict(py, sums)
    }
    /// The next tables from the pass sums of every class (the dict of :meth:`pass_sums`).
    fn advance(&self, py: Python<'_>, sums: &Bound<'_, PyAny>) -> PyResult<DiscardTables> {
        let sums = sums_from(sums)?;
        Ok(DiscardTables(py.detach(|| self.0.advance(&sums))?))
    }
    /// One more iteration: a whole pass, then :meth:`advance`.
    fn step(&self, py: Python<'_>) -> PyResult<DiscardTables> {
        Ok(DiscardTables(py.detach(|| self.0.step())?))
    }
    /// The tables as annotated heatmaps: a matplotlib figure (needs ``cribpiquet[plot]``).
    fn plot<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py().import("cribpiquet._discard")?.getattr("plot_tables")?.call1((slf,))
    }
    /// Save the tables (every value, the model, the variant, the flush rule and the iteration
    /// state) to ``path`` as a versioned ``.npz`` file; :meth:`load` reads it back equal.
    fn save<'py>(slf: &Bound<'py, Self>, path: &Bound<'py, PyAny>) -> PyResult<()> {
        slf.py().import("cribpiquet._discard")?.getattr("save_tables")?.call1((slf, path))?;
        Ok(())
    }
    /// The tables saved by :meth:`save` at ``path`` (a clear ``ValueError`` naming the file if it
    /// is not such a file, or of another format version).
    #[staticmethod]
    fn load<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        py.import("cribpiquet._discard")?.getattr("load_tables")?.call1((path,))
    }
    fn __repr__(&self) -> String {
        format!(
            "DiscardTables('{}', model='{}', flushes={}, iterations={}, change={:.1e})",
            self.0.variant.name(),
            self.0.model.name(),
            if self.0.flushes { "True" } else { "False" },
            self.0.iterations,
            self.0.last_change()
        )
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let py = slf.py();
        let t = &slf.get().0;
        let d = PyDict::new(py);
        d.set_item("variant", t.variant.name())?;
        d.set_item("flushes", t.flushes)?;
        d.set_item("model", t.model.name())?;
        d.set_item("dealer_crib_shares", t.crib_shares[0].to_vec())?;
        d.set_item("pone_crib_shares", t.crib_shares[1].to_vec())?;
        d.set_item("dealer_values", t.values.dealer.to_vec())?;
        d.set_item("pone_values", t.values.pone.to_vec())?;
        d.set_item("dealer_throws", t.throws[0].to_vec())?;
        d.set_item("pone_throws", t.throws[1].to_vec())?;
        d.set_item("averaged", t.averaged)?;
        d.set_item("sums", columns_dict(py, t.sums)?)?;
        d.set_item("sums_before", columns_dict(py, t.sums_before)?)?;
        d.set_item("iterations", t.iterations)?;
        d.set_item("changes", t.changes.clone())?;
        Ok((slf.get_type().getattr("_restore")?, (d,)))
    }
    /// Unpickling.
    #[classmethod]
    fn _restore(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyDict>) -> PyResult<DiscardTables> {
        let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
            state.get_item(k)?.ok_or_else(|| PyValueError::new_err(format!("discard tables state lacks {k:?}")))
        };
        let variant = variant_arg(Some(&get("variant")?))?;
        core::discard_classes(variant)?;
        let mut t = core::DiscardTables::initial_shell(variant);
        t.flushes = convert::bool_arg(&get("flushes")?, "flushes")?;
        t.model = model_arg(Some(&get("model")?))?;
        t.values = core::CribValues {
            dealer: kinds_from(&get("dealer_values")?, "dealer_values")?,
            pone: kinds_from(&get("pone_values")?, "pone_values")?,
        };
        t.throws =
            [kinds_from(&get("dealer_throws")?, "dealer_throws")?, kinds_from(&get("pone_throws")?, "pone_throws")?];
        t.crib_shares = [
            kinds_from(&get("dealer_crib_shares")?, "dealer_crib_shares")?,
            kinds_from(&get("pone_crib_shares")?, "pone_crib_shares")?,
        ];
        t.averaged = get("averaged")?.extract()?;
        t.sums = sums_from(&get("sums")?)?;
        t.sums_before = sums_from(&get("sums_before")?)?;
        t.iterations = get("iterations")?.extract()?;
        t.changes = get("changes")?.extract()?;
        Ok(DiscardTables(t))
    }
}

fn sums_from(obj: &Bound<'_, PyAny>) -> PyResult<core::PassSums> {
    let d = obj.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!("sums must be a dict from pass_sums, got {}", convert::describe(obj)))
    })?;
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(k)?
            .ok_or_else(|| PyValueError::new_err(format!("sums lacks {k:?} (use the dict pass_sums returns)")))
    };
    let hands: u64 =
        get("hands")?.extract().map_err(|_| PyTypeError::new_err("sums['hands'] must be a non-negative int"))?;
    Ok(core::PassSums {
        counts: [counts_from(&get("dealer")?, "sums['dealer']")?, counts_from(&get("pone")?, "sums['pone']")?],
        cribs: [
            counts_from(&get("dealer_crib")?, "sums['dealer_crib']")?,
            counts_from(&get("pone_crib")?, "sums['pone_crib']")?,
        ],
        hands,
    })
}

/// The iteration of ``discard_tables``, one pass at a time (the hand values computed once).
#[pyclass(name = "DiscardTablesRun", module = "cribpiquet.cribbage")]
pub struct DiscardTablesRun(core::TablesRun);

#[pymethods]
impl DiscardTablesRun {
    #[new]
    #[pyo3(signature = (variant, flushes, model = None))]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        flushes: &Bound<'_, PyAny>,
        model: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let variant = variant_arg(Some(variant))?;
        let flushes = convert::bool_arg(flushes, "flushes")?;
        let model = model_arg(model)?;
        Ok(DiscardTablesRun(py.detach(|| core::TablesRun::new(variant, flushes, model))?))
    }
    /// One more pass (the interpreter released); returns its change. The pass runs in parts
    /// (a conditioned six-card pass is about a second), and Ctrl-C stops it between two.
    fn step(&mut self, py: Python<'_>) -> PyResult<f64> {
        const PARTS: usize = 16;
        let n = self.0.classes();
        let mut sums = core::PassSums::default();
        for i in 0..PARTS {
            let (start, stop) = (n * i / PARTS, n * (i + 1) / PARTS);
            let run = &self.0;
            sums.add(&py.detach(|| run.pass_part(start, stop))?);
            py.check_signals()?;
        }
        let run = &mut self.0;
        Ok(py.detach(|| run.finish(&sums))?)
    }
    /// The tables so far.
    fn tables(&self) -> DiscardTables {
        DiscardTables(self.0.tables().clone())
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CribbageDiscardRow", py.get_type::<DiscardRow>())?;
    m.add("CribbageDiscardTables", py.get_type::<DiscardTables>())?;
    m.add("CribbageDiscardTablesRun", py.get_type::<DiscardTablesRun>())?;
    m.add_function(wrap_pyfunction!(cribbage_analyze_discard, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_analyze_discard_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_discard_classes, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_discard_class_hands, m)?)?;
    Ok(())
}

super::display::display! { DiscardRow => "record_html", DiscardTables => "discard_tables_html" }
