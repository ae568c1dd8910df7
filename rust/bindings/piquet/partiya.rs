//! Match scoring: the Russian `Partiya` (koroliks, рефет, сквозная запись) and the rubicon
//! `Partie`, with their records and results.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::rules::{rules_arg, rules_or};
use super::{getters, pair, repr_bool, repr_opt};
use crate::bindings::convert;
use crate::piquet as core;

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
            repr_opt(self.written, |r| r.__repr__()),
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
            repr_opt(self.record, |r| r.__repr__())
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
            repr_opt(self.winner, |s| s.to_string()),
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

/// A Russian partiya between seats 0 and 1: games grouped in koroliks (two games each).
///
/// ``add_game(total_0, total_1)`` writes the difference into the winner's column; koroliks close
/// with difference + 100 rounded to tens; a рефет (draw) ends the korolik and doubles the next
/// two games (carried into the next partiya when none are left: ``carried_doubling``). Totals are
/// Python ints up to 2**64 − 1; a partiya whose differences would add up to more than 2**62 is a
/// ValueError naming the game.
#[pyclass(name = "Partiya", module = "cribpiquet.piquet")]
pub struct Partiya(core::Partiya);

getters! {
    Partiya as c:
    /// Every game so far (``PartiyaGame`` values).
    games -> Vec<PartiyaGame> = c.games().iter().map(PartiyaGame::from).collect();
    /// (seat 0, seat 1) sums of the game differences written.
    columns -> (u64, u64) = pair(c.columns());
    /// Games still to count double after a рефет.
    doubled_games_left -> u8 = c.doubled_games_left();
    /// Doubled games carried into the next partiya (pass as ``doubled_games=``).
    carried_doubling -> u8 = c.carried_doubling();
}

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

getters! {
    Partie as c:
    /// Every deal added with ``add_deal`` (not those given to ``from_totals``).
    deals -> Vec<(u64, u64)> = c.deals().iter().map(|&d| pair(d)).collect();
    /// Every deal played, those given to ``from_totals`` included.
    deals_played -> usize = c.deals_played();
    /// (seat 0, seat 1) cumulative totals.
    totals -> (u64, u64) = pair(c.totals());
    /// Deals still to play.
    deals_left -> usize = c.deals_left();
}

#[pymethods]
impl Partie {
    #[new]
    #[pyo3(signature = (rules = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Partie> {
        Ok(Partie(core::Partie::new(&rules_or(rules, core::Rules::rubicon)?)?))
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
        let rules = rules_or(rules, core::Rules::rubicon)?;
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

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PiquetPartiya", py.get_type::<Partiya>())?;
    m.add("PiquetPartie", py.get_type::<Partie>())?;
    m.add("PiquetRecord", py.get_type::<Record>())?;
    m.add("PiquetPartiyaGame", py.get_type::<PartiyaGame>())?;
    m.add("PiquetKorolik", py.get_type::<Korolik>())?;
    m.add("PiquetPartiyaResult", py.get_type::<PartiyaResult>())?;
    m.add("PiquetPartieResult", py.get_type::<PartieResult>())?;
    m.add_function(wrap_pyfunction!(piquet_round_record, m)?)?;
    m.add_function(wrap_pyfunction!(piquet_difference_record, m)?)?;
    Ok(())
}

crate::bindings::display::display! {
    Record => "record_html", PartiyaGame => "record_html", Korolik => "record_html",
    PartiyaResult => "record_html", PartieResult => "record_html",
}
