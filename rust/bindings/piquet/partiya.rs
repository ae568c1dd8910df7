//! Match scoring: the Russian `Partiya` (koroliks, рефет, сквозная запись) and the rubicon
//! `Partie`, with their records and results.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::pair;
use super::rules::{rules_arg, rules_or};
use crate::bindings::convert;
use crate::bindings::display::{getters, PyRepr};
use crate::piquet as core;

/// A non-negative int of at most 2**64 − 1 (a game total or deal score); a ValueError naming
/// `name` otherwise, a TypeError for a non-int.
fn points_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if convert::is_bool(obj) {
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

/// An optional int argument in `0..=max` (None when absent or None).
fn optional_int(obj: Option<&Bound<'_, PyAny>>, name: &str, max: i64) -> PyResult<Option<i64>> {
    obj.filter(|o| !o.is_none()).map(|o| convert::int_in(o, name, 0, max)).transpose()
}

/// A number written in one player's column: ``Record(seat, points)`` (seats 0 and 1).
///
/// >>> from cribpiquet.piquet import Record
/// >>> r = Record(1, 120)
/// >>> r.seat, r.points, str(r)
/// (1, 120, 'seat 1: 120')
/// >>> r
/// Record(seat=1, points=120)
#[pyclass(frozen, eq, hash, skip_from_py_object, name = "Record", module = "cribpiquet.piquet")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record(core::Record);

getters!(Record, __str__ = to_string, repr[](seat, points) {
    /// Whose column: seat 0 or 1.
    seat: usize,
    /// The number written.
    points: u64,
});

impl PyRepr for Record {
    fn py_repr(&self) -> String {
        self.__repr__()
    }
}

#[pymethods]
impl Record {
    #[new]
    fn new(seat: &Bound<'_, PyAny>, points: &Bound<'_, PyAny>) -> PyResult<Record> {
        let seat = convert::int_in(seat, "seat", 0, 1)? as usize;
        Ok(Record(core::Record { seat, points: points_arg(points, "points")? }))
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (usize, u64))> {
        Ok((py.get_type::<Record>().into_any(), (self.0.seat, self.0.points)))
    }
}

/// One game of a partiya as recorded (what ``Partiya.add_game`` returns).
#[pyclass(frozen, name = "PartiyaGame", module = "cribpiquet.piquet")]
pub struct PartiyaGame(core::PartiyaGame);

getters!(PartiyaGame, __str__ = to_string, repr[](totals, doubled, written, korolik) {
    /// The two game totals (seat 0, seat 1) as given.
    totals: (u64, u64) = |c| pair(c.totals),
    /// Whether the game counted double (one of the two games after a рефет).
    doubled: bool,
    /// The difference written in the winner's column (doubled if so); None for a рефет.
    written: Option<Record> = |c| c.written.map(Record),
    /// The 0-based korolik the game belongs to.
    korolik: usize,
});

/// A closed korolik (an item of ``Partiya.koroliks``).
#[pyclass(frozen, name = "Korolik", module = "cribpiquet.piquet")]
pub struct Korolik(core::Korolik);

getters!(Korolik, __str__ = to_string, repr[](sums, games, ended_by_refet, record) {
    /// Each player's sum of what he wrote in it.
    sums: (u64, u64) = |c| pair(c.sums),
    /// Games played in it (2, or fewer when a рефет ended it).
    games: u8,
    /// Whether a рефет ended it.
    ended_by_refet: bool,
    /// Its record (difference + 100, rounded); None for equal sums.
    record: Option<Record> = |c| c.record.map(Record),
});

/// The score of a partiya (``Partiya.result()``; provisional until ``complete``).
#[pyclass(frozen, name = "PartiyaResult", module = "cribpiquet.piquet")]
pub struct PartiyaResult(core::PartiyaResult);

getters!(PartiyaResult, __str__ = to_string, repr[](totals, winner, net_win, complete) {
    /// The record of each closed korolik (None where its sums were equal).
    korolik_records: Vec<Option<Record>> = |c| c.korolik_records.iter().map(|r| r.map(Record)).collect(),
    /// Each player's column of game differences, summed.
    columns: (u64, u64) = |c| pair(c.columns),
    /// The partiya record: the larger column minus the smaller, +100, rounded.
    partiya_record: Option<Record> = |c| c.partiya_record.map(Record),
    /// The сквозная запись bonus each player receives (counted once the partiya is over).
    through_bonus: (u64, u64) = |c| pair(c.through_bonus),
    /// Each player's total: partiya record + korolik records + сквозная bonus.
    totals: (u64, u64) = |c| pair(c.totals),
    /// The seat with the larger total; None when they are equal.
    winner: Option<usize> = |c| c.winner(),
    /// The larger total minus the smaller (0 when equal).
    net_win: u64 = |c| c.net_win.map_or(0, |w| w.points),
    /// Games of the next partiya that count double (pass as ``doubled_games=``).
    carried_doubling: u8,
    /// Whether the partiya is over.
    complete: bool,
});

/// A Russian partiya between seats 0 and 1: games grouped in koroliks (two games each).
///
/// ``add_game(total_0, total_1)`` writes the difference into the winner's column; koroliks close
/// with difference + 100 rounded to tens; a рефет (draw) ends the korolik and doubles the next
/// two games (carried into the next partiya when none are left: ``carried_doubling``). Totals are
/// Python ints up to 2**64 − 1; a partiya whose differences would add up to more than 2**62 is a
/// ValueError naming the game.
#[pyclass(name = "Partiya", module = "cribpiquet.piquet")]
pub struct Partiya(core::Partiya);

getters!(Partiya {
    /// Every game so far (``PartiyaGame`` values).
    games: Vec<PartiyaGame> = |c| c.games().iter().copied().map(PartiyaGame).collect(),
    /// Every closed korolik so far (``Korolik`` values).
    koroliks: Vec<Korolik> = |c| c.koroliks().iter().copied().map(Korolik).collect(),
    /// (seat 0, seat 1) sums of the game differences written.
    columns: (u64, u64) = |c| pair(c.columns()),
    /// Games still to count double after a рефет.
    doubled_games_left: u8 = |c| c.doubled_games_left(),
    /// Doubled games carried into the next partiya (pass as ``doubled_games=``).
    carried_doubling: u8 = |c| c.carried_doubling(),
});

#[pymethods]
impl Partiya {
    #[new]
    #[pyo3(signature = (rules = None, *, doubled_games = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>, doubled_games: Option<&Bound<'_, PyAny>>) -> PyResult<Partiya> {
        let rules = rules_arg(rules)?;
        let doubled_games = optional_int(doubled_games, "doubled_games", u8::MAX as i64)?.unwrap_or(0);
        Ok(Partiya(core::Partiya::with_doubled_games(&rules, doubled_games as u8)?))
    }
    /// Record one game's totals (seat 0, seat 1); returns what was written (a ``PartiyaGame``).
    fn add_game(&mut self, total_0: &Bound<'_, PyAny>, total_1: &Bound<'_, PyAny>) -> PyResult<PartiyaGame> {
        let total_0 = points_arg(total_0, "total_0")?;
        let total_1 = points_arg(total_1, "total_1")?;
        Ok(PartiyaGame(self.0.add_game(total_0, total_1)?))
    }
    /// Whether every korolik of the partiya has been played.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    /// The result so far (a ``PartiyaResult``): korolik records, partiya record, through bonus,
    /// totals, winner and net win.
    fn result(&self) -> PartiyaResult {
        PartiyaResult(self.0.result())
    }
    fn __repr__(&self) -> String {
        let c = self.0.columns();
        format!(
            "<Partiya games={} columns=({}, {}) over={}>",
            self.0.games().len(),
            c[0],
            c[1],
            self.0.is_over().py_repr()
        )
    }
}

/// The result of a finished rubicon partie (``Partie.result()``).
#[pyclass(frozen, name = "PartieResult", module = "cribpiquet.piquet")]
pub struct PartieResult(core::PartieResult);

getters!(PartieResult, __str__ = to_string, repr[](totals, winner, rubiconed, score) {
    /// The cumulative totals (seat 0, seat 1).
    totals: (u64, u64) = |c| pair(c.totals),
    /// The winner's seat (the higher total).
    winner: usize,
    /// Whether the loser was rubiconed (under 100).
    rubiconed: bool,
    /// The winner's score: the difference + 100, or the sum + 100 when the loser is rubiconed.
    score: u64,
    /// The same as ``score``: what the winner wins (the name every match result shares).
    net_win: u64 = |c| c.score,
});

/// A rubicon partie between seats 0 and 1: 6 deals, cumulative scores; the winner scores the
/// difference + 100, or the sum + 100 if the loser is under 100 (rubiconed); a tie after 6 deals
/// plays on. Scores are Python ints; both totals together may reach 2**62 (more is a ValueError
/// naming the deal). ``Partie.from_totals`` starts from the totals of deals already played.
#[pyclass(name = "Partie", module = "cribpiquet.piquet")]
pub struct Partie(core::Partie);

getters!(Partie {
    /// Every deal added with ``add_deal`` (not those given to ``from_totals``).
    deals: Vec<(u64, u64)> = |c| c.deals().iter().map(|&d| pair(d)).collect(),
    /// Every deal played, those given to ``from_totals`` included.
    deals_played: usize = |c| c.deals_played(),
    /// (seat 0, seat 1) cumulative totals.
    totals: (u64, u64) = |c| pair(c.totals()),
    /// Deals still to play.
    deals_left: usize = |c| c.deals_left(),
});

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
        let deals = optional_int(deals, "deals", u32::MAX as i64)?.unwrap_or(rules.deals_per_partie as i64);
        Ok(Partie(core::Partie::from_totals(&rules, totals, deals as usize)?))
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
        self.0.result().map(PartieResult)
    }
    fn __repr__(&self) -> String {
        let t = self.0.totals();
        format!(
            "<Partie deals={} totals=({}, {}) over={}>",
            self.0.deals_played(),
            t[0],
            t[1],
            self.0.is_over().py_repr()
        )
    }
}

/// Round a record to tens, halves up (115 → 120, 114 → 110).
#[pyfunction]
pub(super) fn piquet_round_record(x: &Bound<'_, PyAny>) -> PyResult<i64> {
    Ok(core::round_record(convert::int_in(x, "x", i64::MIN, i64::MAX)?)?)
}

/// The record for two sums: ``Record(seat, larger − smaller + 100, rounded)``, or None when equal.
#[pyfunction]
#[pyo3(signature = (a, b, *, rules = None))]
pub(super) fn piquet_difference_record(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Record>> {
    let rules = rules_arg(rules)?;
    let a = points_arg(a, "a")?;
    let b = points_arg(b, "b")?;
    Ok(core::difference_record(a, b, rules.rounding)?.map(Record))
}
