//! `Rules`: a piquet rule set, its fields read and replaced from Python; `rules_arg` reads the
//! `rules=` argument every piquet function takes.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::bindings::convert;
use crate::piquet as core;

/// A piquet rule set: every number or procedure that differs between the Russian game
/// (``Rules.russian()``, the default everywhere) and Rubicon piquet (``Rules.rubicon()``).
///
/// Immutable; ``rules.replace(field=value, ...)`` returns a changed copy (validated).
#[pyclass(frozen, eq, hash, skip_from_py_object, name = "Rules", module = "cribpiquet.piquet")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules(pub(crate) core::Rules);

/// The rule fields, in order: `RULE_FIELDS` and a Python getter for each (its value as
/// `rule_value` gives it, the one conversion `as_dict` and `__repr__` use too).
macro_rules! rule_fields {
    ($($(#[doc = $doc:literal])* $field:ident,)*) => {
        const RULE_FIELDS: &[&str] = &[$(stringify!($field)),*];

        #[pymethods]
        impl Rules {
            $(
                $(#[doc = $doc])*
                #[getter]
                fn $field<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    rule_value(py, &self.0, stringify!($field))
                }
            )*
        }
    };
}

rule_fields! {
    /// Sequence values by length 3..8 (russian 13..18; rubicon 3, 4, 15..18).
    sequence_values,
    /// ``"every-lead-and-trick"`` (russian) or rubicon's lead-or-win-on-opponent's-lead scoring.
    trick_scoring,
    /// Extra points for the last trick (russian 3, so it counts 4; rubicon 1).
    last_trick_extra,
    /// The capot bonus (40 in both).
    capot_bonus,
    /// Whether the last-trick extra still counts with a capot (rubicon yes, russian no).
    capot_keeps_last_trick_extra,
    /// The bonus for an announced ("open") capot made (russian 80), or None where not allowed.
    open_capot_bonus,
    /// Elder's exchange limits ``(min, max, may_decline)``: russian (3, 5, True), rubicon (1, 5, False).
    elder_exchange,
    /// The dealer's exchange limits ``(min, max, may_decline)``.
    dealer_exchange,
    /// When the dealer's declarations are recorded (russian before the first lead).
    declaration_timing,
    /// How pique/repique judge that the opponent "has scored".
    bonus_mode,
    /// Do the dealer's play points block elder's pique? russian False (only his declarations
    /// do), rubicon True (he must have scored nothing at all). Rules §4.
    pique_blocked_by_play,
    /// What «молчанка» (``score_game(..., silent=)``) covers: ``"play"`` (every play point, the
    /// default) or ``"tricks"`` (the literal reading: the offender's leads still score). Rules §7.
    silence_covers,
    /// ``"partiya"`` (russian koroliks) or ``"partie"`` (rubicon, 6 deals).
    match_scoring,
    /// Koroliks in a partiya (default 2).
    koroliks_per_partiya,
    /// Deals in a rubicon partie (6).
    deals_per_partie,
    /// How match records are rounded (russian to tens, halves up).
    rounding,
}

fn rule_value<'py>(py: Python<'py>, r: &core::Rules, field: &str) -> PyResult<Bound<'py, PyAny>> {
    let ex = |e: core::ExchangeLimits| (e.min, e.max, e.may_decline);
    match field {
        "sequence_values" => Ok(PyTuple::new(py, r.sequence_values)?.into_any()),
        "trick_scoring" => r.trick_scoring.name().into_bound_py_any(py),
        "last_trick_extra" => r.last_trick_extra.into_bound_py_any(py),
        "capot_bonus" => r.capot_bonus.into_bound_py_any(py),
        "capot_keeps_last_trick_extra" => r.capot_keeps_last_trick_extra.into_bound_py_any(py),
        "open_capot_bonus" => r.open_capot_bonus.into_bound_py_any(py),
        "elder_exchange" => ex(r.elder_exchange).into_bound_py_any(py),
        "dealer_exchange" => ex(r.dealer_exchange).into_bound_py_any(py),
        "declaration_timing" => r.declaration_timing.name().into_bound_py_any(py),
        "bonus_mode" => r.bonus_mode.name().into_bound_py_any(py),
        "pique_blocked_by_play" => r.pique_blocked_by_play.into_bound_py_any(py),
        "silence_covers" => r.silence_covers.name().into_bound_py_any(py),
        "match_scoring" => r.match_scoring.name().into_bound_py_any(py),
        "koroliks_per_partiya" => r.koroliks_per_partiya.into_bound_py_any(py),
        "deals_per_partie" => r.deals_per_partie.into_bound_py_any(py),
        "rounding" => r.rounding.name().into_bound_py_any(py),
        _ => Err(PyTypeError::new_err(format!("unknown rule field {field:?}"))),
    }
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
    let flag = |v: &Bound<'_, PyAny>| -> PyResult<bool> { v.extract::<bool>().map_err(|_| bad_type("a bool")) };
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
        "capot_keeps_last_trick_extra" => r.capot_keeps_last_trick_extra = flag(value)?,
        "open_capot_bonus" => r.open_capot_bonus = if value.is_none() { None } else { Some(small(value, max)? as u16) },
        "elder_exchange" => r.elder_exchange = exchange(value)?,
        "dealer_exchange" => r.dealer_exchange = exchange(value)?,
        "declaration_timing" => r.declaration_timing = core::DeclarationTiming::parse(&text(value)?)?,
        "bonus_mode" => r.bonus_mode = core::BonusMode::parse(&text(value)?)?,
        "pique_blocked_by_play" => r.pique_blocked_by_play = flag(value)?,
        "silence_covers" => r.silence_covers = core::SilenceCovers::parse(&text(value)?)?,
        "match_scoring" => r.match_scoring = core::MatchScoring::parse(&text(value)?)?,
        "koroliks_per_partiya" => r.koroliks_per_partiya = small(value, 255)? as u8,
        "deals_per_partie" => r.deals_per_partie = small(value, 255)? as u8,
        "rounding" => r.rounding = core::Rounding::parse(&text(value)?)?,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "unknown rule field {:?} (fields: {})",
                crate::error::echo(field),
                RULE_FIELDS.join(", ")
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
        for field in RULE_FIELDS {
            d.set_item(field, rule_value(py, &self.0, field)?)?;
        }
        Ok(d)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut best: Option<String> = None;
        for (name, base) in [("russian", core::Rules::russian()), ("rubicon", core::Rules::rubicon())] {
            let mut changed = Vec::new();
            for field in RULE_FIELDS {
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

/// The `rules=` argument: a `Rules`, a rule set's name, or None for the Russian game.
pub(crate) fn rules_arg(rules: Option<&Bound<'_, PyAny>>) -> PyResult<core::Rules> {
    rules_or(rules, core::Rules::russian)
}

/// The `rules=` argument with another default (the rubicon partie's).
pub(super) fn rules_or(rules: Option<&Bound<'_, PyAny>>, default: fn() -> core::Rules) -> PyResult<core::Rules> {
    let Some(r) = rules.filter(|r| !r.is_none()) else {
        return Ok(default());
    };
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

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PiquetRules", m.py().get_type::<Rules>())
}
