//! Bindings for the cribbage discard analysis and the equilibrium discard tables
//! (`cribpiquet.cribbage.analyze_discard`, `analyze_discard_batch`, `discard_tables`).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::arrays::{columns_dict, with_slice, Dict, Ids2};
use super::convert::{self, Group};
use super::cribbage::{card_tuple, Cribbage};
use super::display::{call_helper, getters, repr};
use super::interrupt::{interruptible, interruptible_unless};
use crate::batch::{Column, IdRows};
use crate::cribbage as core;

/// A hand to discard from: at most 6 cards read.
const DEALT: Group = Group { what: "hand to discard from", expected: "6 (five-card: 5)", max: 6 };

fn variant_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::Variant> {
    obj.map_or(Ok(core::Variant::SixCard), |v| Ok(convert::str_text(v, "variant")?.parse()?))
}

fn model_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<core::TablesModel> {
    obj.map_or(Ok(core::TablesModel::Conditioned), |v| Ok(convert::str_text(v, "model")?.parse()?))
}

/// One discard choice of :func:`analyze_discard`: the cards kept and thrown, the expected hand
/// (with its minimum, maximum and distribution over the starters), the expected crib, the
/// dealer's expected heels and the net value.
#[pyclass(frozen, name = "DiscardRow", module = "cribpiquet.cribbage")]
pub struct DiscardRow(core::DiscardRow);

getters!(DiscardRow {
    /// Expected hand score over every unseen starter.
    hand: f64,
    /// The lowest hand score over the starters.
    hand_min: u8,
    /// The highest hand score over the starters.
    hand_max: u8,
    /// Expected crib score (over the opponent's throws and the starter).
    crib: f64,
    /// The dealer's expected points for a jack starter (his heels).
    heels: f64,
    /// ``hand + crib + heels`` for the dealer, ``hand - crib - heels`` for pone.
    net: f64,
});

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
    /// Number of unseen starters giving each hand score 0..29 (a tuple of 30 ints).
    #[getter]
    fn hand_distribution<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.hand_distribution)
    }
    fn __repr__(&self) -> String {
        let r = &self.0;
        let cards = |h: core::Hand| format!("'{}'", h.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
        let (kept, thrown) = (cards(r.kept), cards(r.thrown));
        let (min, max) = (r.hand_min.to_string(), r.hand_max.to_string());
        let [hand, crib, heels, net] = [r.hand, r.crib, r.heels, r.net].map(|x| format!("{x:.4}"));
        let fields = [("kept", kept), ("thrown", thrown), ("hand", hand), ("hand_min", min), ("hand_max", max)];
        repr("DiscardRow", fields.into_iter().chain([("crib", crib), ("heels", heels), ("net", net)]))
    }
}

/// The opponent model of an analysis: uniform throws, or the throws of these tables.
fn opponent_of<'a>(tables: Option<&'a Bound<'_, DiscardTables>>) -> core::Opponent<'a> {
    tables.map_or(core::Opponent::Uniform, |t| core::Opponent::Tables(&t.get().0))
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
    let opp = opponent_of(opponent);
    let rows = py.detach(|| core::analyze_discard(hand, dealer, variant, opp))?;
    Ok(rows.into_iter().map(DiscardRow).collect())
}

/// :func:`analyze_discard` over an (N, 6) or (N, 5) id array; ``dealer`` a bool (every row) or
/// an (N,) bool array. Returns a dict of arrays (see ``cribbage.analyze_discard_batch``).
#[pyfunction]
#[pyo3(signature = (hands, dealer, variant = None, opponent = None))]
fn cribbage_analyze_discard_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    dealer: &Bound<'py, PyAny>,
    variant: Option<&Bound<'py, PyAny>>,
    opponent: Option<&Bound<'py, DiscardTables>>,
) -> PyResult<Dict<core::DiscardColumns>> {
    let variant = variant_arg(variant)?;
    let ids = Ids2::extract(hands, "hands")?;
    let (rows, width) = ids.shape();
    let dealers = dealer_flags(dealer, rows)?;
    let opp = opponent_of(opponent);
    let cols = with_slice!(&ids, Ids2, |h| {
        let h = IdRows::new("hands", h, rows, width)?;
        // Up to a few thousand hands take well under a second.
        let quick = rows <= 4096;
        interruptible_unless(py, quick, || core::analyze_discard_rows(h, &dealers, variant, opp))?
    });
    Ok(Dict(cols))
}

/// The dealer flags of a batch of `rows` hands: a bool (one flag for every row) or an (N,) numpy
/// bool array.
fn dealer_flags(dealer: &Bound<'_, PyAny>, rows: usize) -> PyResult<Vec<bool>> {
    use numpy::{PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
    if convert::is_bool(dealer) {
        return Ok(vec![convert::bool_arg(dealer, "dealer")?]);
    }
    let Some(array) =
        dealer.cast::<PyUntypedArray>().ok().filter(|a| a.dtype().is_equiv_to(&numpy::dtype::<bool>(a.py())))
    else {
        let what = match dealer.getattr("dtype") {
            Ok(dtype) => format!("dtype {dtype}"),
            Err(_) => convert::describe(dealer),
        };
        return Err(PyTypeError::new_err(format!("dealer must be a bool or an array of bools, got {what}")));
    };
    match array.cast::<numpy::PyArray1<bool>>() {
        Ok(flags) if flags.len() == rows => Ok(flags.readonly().as_array().iter().copied().collect()),
        _ => Err(PyValueError::new_err(format!(
            "dealer must be a bool or have shape ({rows},), got shape {}",
            dealer.getattr("shape")?.repr()?
        ))),
    }
}

/// Number of hand classes (suit-isomorphism classes of the dealt hands) of a variant's pass.
#[pyfunction]
fn cribbage_discard_classes(variant: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(core::discard_classes(variant_arg(Some(variant))?)?)
}

/// The hand classes ``start..stop`` of a variant's pass: one hand of each class as a
/// ``(n, dealt)`` uint8 id array, and each class's number of hands, int64 ``(n,)``.
#[pyfunction]
fn cribbage_discard_class_hands(
    variant: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    stop: &Bound<'_, PyAny>,
) -> PyResult<(Column, Column)> {
    let (variant, (start, stop)) = (variant_arg(Some(variant))?, class_range(start, stop)?);
    let classes = core::discard_class_hands(variant, start, stop)?;
    let ids: Vec<u8> = classes.iter().flat_map(|(hand, _)| hand.iter().map(|card| card.id())).collect();
    let mult: Vec<i64> = classes.iter().map(|c| c.1 as i64).collect();
    Ok((Column::shaped(ids, &[classes.len(), variant.cards_dealt()]), Column::rows(mult)))
}

/// A sequence of 169 values, one per throw kind: `TypeError` "`name` must be a sequence of
/// `what`", `ValueError` for another length ("must have 169 `unit`, got n").
fn per_kind<'py, T: FromPyObjectOwned<'py>>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    (what, unit): (&str, &str),
) -> PyResult<[T; core::THROW_KINDS]> {
    let v: Vec<T> = obj.extract().map_err(|_| PyTypeError::new_err(format!("{name} must be a sequence of {what}")))?;
    let n = v.len();
    v.try_into().map_err(|_| PyValueError::new_err(format!("{name} must have {} {unit}, got {n}", core::THROW_KINDS)))
}

/// [`per_kind`] values.
const FLOATS: (&str, &str) = ("floats", "values");
/// [`per_kind`] counts.
const COUNTS: (&str, &str) = ("non-negative ints", "counts");

/// The per-kind arrays of a tables' state (pickling, ``save``), by key, in the state's order.
fn kind_arrays(t: &mut core::DiscardTables) -> [(&'static str, &mut [f64; core::THROW_KINDS]); 6] {
    let ([dealer_shares, pone_shares], [dealer_throws, pone_throws]) = (&mut t.crib_shares, &mut t.throws);
    [
        ("dealer_crib_shares", dealer_shares),
        ("pone_crib_shares", pone_shares),
        ("dealer_values", &mut t.values.dealer),
        ("pone_values", &mut t.values.pone),
        ("dealer_throws", dealer_throws),
        ("pone_throws", pone_throws),
    ]
}

/// Equilibrium discard tables (see ``cribbage.discard_tables``).
///
/// ``dealer`` and ``pone`` are 13 x 13 arrays (ranks A..K): the average crib when the dealer
/// throws the rank pair to his own crib, and when pone throws it to the dealer's crib.
#[pyclass(frozen, name = "DiscardTables", module = "cribpiquet.cribbage")]
pub struct DiscardTables(pub(crate) core::DiscardTables);

/// A 13 x 13 table by ranks as a float64 array.
fn table(t: [[f64; 13]; 13]) -> Column {
    Column::shaped(t.concat(), &[13, 13])
}

/// The dealer's and pone's columns.
type Roles = Dict<[(&'static str, Column); 2]>;

fn roles(dealer: Column, pone: Column) -> Roles {
    Dict([("dealer", dealer), ("pone", pone)])
}

getters!(DiscardTables {
    /// ``"six-card"`` or ``"five-card"``.
    variant: &'static str = |t| t.variant.name(),
    /// Whether crib flushes count.
    flushes: bool,
    /// ``"conditioned"`` (a kind's value: the mean, over the hands throwing it, of the exact crib
    /// given the hand) or ``"thrown-only"`` (the crib given the two thrown cards only).
    model: &'static str = |t| t.model.name(),
    /// The dealer's table: the average crib when the dealer throws ranks (i, j) (A = 0 .. K = 12).
    dealer: Column = |t| table(t.dealer_table()),
    /// Pone's table: the average crib when pone throws ranks (i, j) to the dealer's crib.
    pone: Column = |t| table(t.pone_table()),
    /// ``{"dealer": f, "pone": f}``: the fraction of hands throwing ranks (i, j), 13 x 13,
    /// symmetric; the entries on and above the diagonal sum to 1.
    frequency: Roles = |t| roles(table(t.frequency(true)), table(t.frequency(false))),
    /// Best-response passes done.
    iterations: usize,
    /// The largest change of each pass (a list of floats).
    changes: Vec<f64> = |t| t.changes.clone(),
    /// The values by throw kind the players decide by: ``{"dealer": (169,), "pone": (169,)}``,
    /// kind ``lo * 13 + hi`` off-suit (or a pair), ``hi * 13 + lo`` suited (``lo < hi``).
    values: Roles = |t| roles(Column::rows(t.values.dealer.to_vec()), Column::rows(t.values.pone.to_vec())),
});

/// The arguments of new tables: the variant (six-card by default), the crib flush rule (counted
/// by default) and the model (conditioned by default).
fn tables_args(
    variant: Option<&Bound<'_, PyAny>>,
    flushes: Option<&Bound<'_, PyAny>>,
    model: Option<&Bound<'_, PyAny>>,
) -> PyResult<(core::Variant, bool, core::TablesModel)> {
    let variant = variant_arg(variant)?;
    let flushes = flushes.map_or(Ok(true), |f| convert::bool_arg(f, "flushes"))?;
    Ok((variant, flushes, model_arg(model)?))
}

/// The hand classes ``start..stop`` of a pass.
fn class_range(start: &Bound<'_, PyAny>, stop: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    Ok((convert::int_in(start, "start", 0, i64::MAX)? as usize, convert::int_in(stop, "stop", 0, i64::MAX)? as usize))
}

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
        let (variant, flushes, model) = tables_args(variant, flushes, model)?;
        Ok(DiscardTables(py.detach(|| core::DiscardTables::initial(variant, flushes, model))?))
    }
    /// The weight of one card pair of each throw kind (169 values, as :attr:`values`) in the
    /// throws of the dealer (``dealer=True``) or of pone: the kind's share of that role's throws
    /// over the pack's card pairs of that kind. ``analyze_discard(..., opponent=tables)`` weighs
    /// the opponent's possible throws by these.
    fn pair_weights(&self, dealer: &Bound<'_, PyAny>) -> PyResult<Column> {
        Ok(Column::rows(self.0.pair_weights(convert::bool_arg(dealer, "dealer")?).to_vec()))
    }
    /// The best-response pass over hand classes ``start..stop`` (``0 <= start <= stop <=
    /// discard_classes(variant)``) at these tables' values: a dict of partial sums
    /// ``{"dealer": int64 (169,), "pone": int64 (169,), "hands": int}`` (hands throwing each kind
    /// per role, and ``"dealer_crib"``, ``"pone_crib"``: int64 (169,), the sum of those hands'
    /// exact cribs in units of 2**-32, conditioned model). Sums of disjoint ranges add (:func:`combine_pass_sums`); :meth:`advance` turns
    /// the sums over every class into the next tables. Releases the interpreter; Ctrl-C stops it.
    fn pass_sums(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        stop: &Bound<'_, PyAny>,
    ) -> PyResult<Dict<core::PassSums>> {
        let (start, stop) = class_range(start, stop)?;
        Ok(Dict(interruptible(py, || self.0.pass(start, stop))?))
    }
    /// The next tables from the pass sums of every class (the dict of :meth:`pass_sums`).
    fn advance(&self, py: Python<'_>, sums: &Bound<'_, PyAny>) -> PyResult<DiscardTables> {
        let sums = sums_from(sums, "sums")?;
        Ok(DiscardTables(py.detach(|| self.0.advance(&sums))?))
    }
    /// One more iteration: a whole pass (seconds; Ctrl-C stops it), then :meth:`advance`.
    fn step(&self, py: Python<'_>) -> PyResult<DiscardTables> {
        Ok(DiscardTables(interruptible(py, || self.0.step())?))
    }
    /// The tables as annotated heatmaps: a matplotlib figure (needs ``cribpiquet[plot]``).
    fn plot<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        call_helper(slf.as_any(), "cribpiquet._discard", "plot_tables", None)
    }
    /// Save the tables (every value, the model, the variant, the flush rule and the iteration
    /// state) to ``path`` as a versioned ``.npz`` file; :meth:`load` reads it back equal.
    fn save<'py>(slf: &Bound<'py, Self>, path: &Bound<'py, PyAny>) -> PyResult<()> {
        call_helper(slf.as_any(), "cribpiquet._discard", "save_tables", Some(path.clone())).map(drop)
    }
    /// The tables saved by :meth:`save` at ``path`` (a clear ``ValueError`` naming the file if it
    /// is not such a file, or of another format version).
    #[staticmethod]
    fn load<'py>(py: Python<'py>, path: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        py.import("cribpiquet._discard")?.getattr("load_tables")?.call1((path,))
    }
    fn __repr__(&self) -> String {
        let t = &self.0;
        let flushes = if t.flushes { "True" } else { "False" };
        let (variant, model, iterations, change) = (t.variant.name(), t.model.name(), t.iterations, t.last_change());
        format!("DiscardTables('{variant}', model='{model}', flushes={flushes}, iterations={iterations}, change={change:.1e})")
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let (py, mut t) = (slf.py(), slf.get().0.clone());
        let d = PyDict::new(py);
        d.set_item("variant", t.variant.name())?;
        d.set_item("flushes", t.flushes)?;
        d.set_item("model", t.model.name())?;
        for (key, values) in kind_arrays(&mut t) {
            d.set_item(key, values.to_vec())?;
        }
        d.set_item("averaged", t.averaged)?;
        d.set_item("sums", columns_dict(py, t.sums)?)?;
        d.set_item("sums_before", columns_dict(py, t.sums_before)?)?;
        d.set_item("iterations", t.iterations)?;
        d.set_item("changes", t.changes)?;
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
        for (key, values) in kind_arrays(&mut t) {
            *values = per_kind(&get(key)?, key, FLOATS)?;
        }
        t.averaged = convert::int_in(&get("averaged")?, "averaged", 0, i64::MAX)? as usize;
        t.sums = sums_from(&get("sums")?, "sums")?;
        t.sums_before = sums_from(&get("sums_before")?, "sums_before")?;
        t.iterations = convert::int_in(&get("iterations")?, "iterations", 0, i64::MAX)? as usize;
        let changes = get("changes")?;
        if changes.is_instance_of::<pyo3::types::PyString>() {
            return Err(PyTypeError::new_err("changes must be a sequence of floats, got a str"));
        }
        t.changes =
            changes.extract().map_err(|_| PyTypeError::new_err("changes must be a sequence of floats"))?;
        t.check()?;
        Ok(DiscardTables(t))
    }
}

/// The sums of a dict from `pass_sums`; `name` names it in errors (`sums`, `parts[2]`).
fn sums_from(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<core::PassSums> {
    let d = obj.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!("{name} must be a dict from pass_sums, got {}", convert::describe(obj)))
    })?;
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(k)?
            .ok_or_else(|| PyValueError::new_err(format!("{name} lacks {k:?} (use the dict pass_sums returns)")))
    };
    let hands = get("hands")?
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{name}['hands'] must be a non-negative int")))?;
    let mut sums = core::PassSums { hands, ..Default::default() };
    for (key, values) in sums.per_kind_mut() {
        *values = per_kind(&get(key)?, &format!("{name}['{key}']"), COUNTS)?;
    }
    Ok(sums)
}

/// Add the partial sums of :meth:`DiscardTables.pass_sums` over disjoint class ranges (an
/// iterable of their dicts; a ``ValueError`` if a count would pass 2**64).
///
/// >>> t = DiscardTables.initial("five-card")
/// >>> n = discard_classes("five-card")
/// >>> whole = combine_pass_sums([t.pass_sums(0, 60_000), t.pass_sums(60_000, n)])
/// >>> bool((whole["dealer"] == t.pass_sums(0, n)["dealer"]).all()), whole["hands"]
/// (True, 2598960)
#[pyfunction]
fn cribbage_combine_pass_sums(parts: &Bound<'_, PyAny>) -> PyResult<Dict<core::PassSums>> {
    let (py, mut total) = (parts.py(), core::PassSums::default());
    let parts = parts.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("parts must be an iterable of pass_sums dicts, got {}", convert::describe(parts)))
    })?;
    for (i, part) in parts.enumerate() {
        let part = sums_from(&part?, &format!("parts[{i}]"))?;
        total = total.checked_add(&part).ok_or_else(|| PyValueError::new_err("pass sums out of range"))?;
        py.check_signals()?; // an endless iterable stops at Ctrl-C
    }
    Ok(Dict(total))
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
        let (variant, flushes, model) = tables_args(Some(variant), Some(flushes), model)?;
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
    m.add_function(wrap_pyfunction!(cribbage_combine_pass_sums, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_analyze_discard_batch, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_discard_classes, m)?)?;
    m.add_function(wrap_pyfunction!(cribbage_discard_class_hands, m)?)?;
    Ok(())
}

super::display::display! { DiscardRow => "record_html", DiscardTables => "discard_tables_html" }
