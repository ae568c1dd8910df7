//! `Rules`: a piquet rule set, its fields read and replaced from Python; `rules_arg` reads the
//! `rules=` argument every piquet function takes.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict, PyTuple};
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

/// A rule value as Python sees it: ints, None, bools, names, tuples.
fn value_py<'py>(py: Python<'py>, value: core::RuleValue<'_>) -> PyResult<Bound<'py, PyAny>> {
    use core::RuleValue as V;
    match value {
        V::Numbers(v) => Ok(PyTuple::new(py, v)?.into_any()),
        V::Number(v) => v.into_bound_py_any(py),
        V::OptionalNumber(v) => v.into_bound_py_any(py),
        V::Flag(b) => b.into_bound_py_any(py),
        V::Name(name) => name.into_bound_py_any(py),
        V::Limits(l) => (l.min, l.max, l.may_decline).into_bound_py_any(py),
    }
}

/// Set field `f` of `r` from a Python value, checked against the field's kind.
fn set_rule(r: &mut core::Rules, f: &core::RuleField, value: &Bound<'_, PyAny>) -> PyResult<()> {
    use core::{RuleKind as K, RuleValue as V};
    let field = f.name;
    let bad_type =
        |what: &str| PyTypeError::new_err(format!("rule {field} must be {what}, got {}", convert::echo_repr(value)));
    let small = |v: &Bound<'_, PyAny>, max: u16| -> PyResult<u16> {
        if convert::is_bool(v) {
            return Err(bad_type("an int"));
        }
        let n = v.extract::<i64>().map_err(|_| bad_type("an int"))?;
        if !(0..=max as i64).contains(&n) {
            return Err(PyValueError::new_err(format!("rule {field} must be in 0..={max}, got {n}")));
        }
        Ok(n as u16)
    };
    let name: String;
    let v = match f.kind {
        K::Numbers => {
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
            let mut numbers = [0u16; 6];
            for (slot, v) in numbers.iter_mut().zip(&values) {
                *slot = small(v, core::MAX_RULE_VALUE)?;
            }
            V::Numbers(numbers)
        }
        K::Number { max } => V::Number(small(value, max)?),
        K::OptionalNumber { max } => V::OptionalNumber(if value.is_none() { None } else { Some(small(value, max)?) }),
        K::Flag => V::Flag(value.extract::<bool>().map_err(|_| bad_type("a bool"))?),
        K::Name(_) => {
            let s = value.cast::<pyo3::types::PyString>().map_err(|_| bad_type("a str"))?;
            name = convert::text(s, &format!("rule {field}"))?.to_owned();
            V::Name(&name)
        }
        K::Limits => {
            let (min, max, may_decline): (Bound<'_, PyAny>, Bound<'_, PyAny>, bool) =
                value.extract().map_err(|_| bad_type("a (min, max, may_decline) tuple"))?;
            V::Limits(core::ExchangeLimits { min: small(&min, 8)? as u8, max: small(&max, 8)? as u8, may_decline })
        }
    };
    Ok((f.set)(r, v)?)
}

#[pymethods]
impl Rules {
    /// ``Rules()`` or ``Rules("russian")`` / ``Rules("rubicon")``.
    #[new]
    #[pyo3(signature = (name = None), text_signature = "(name='russian')")]
    fn new(name: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
        match name {
            None => Ok(Rules(core::Rules::russian())),
            Some(name) => Ok(Rules(core::Rules::named(convert::str_text(name, "name")?)?)),
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
                let name = k.str()?.to_string_lossy().into_owned();
                let field = core::rule_field(&name).ok_or_else(|| {
                    let names: Vec<&str> = core::RULE_FIELDS.iter().map(|f| f.name).collect();
                    let name = crate::error::echo(&name);
                    PyTypeError::new_err(format!("unknown rule field {name:?} (fields: {})", names.join(", ")))
                })?;
                set_rule(&mut r, field, &v)?;
            }
        }
        r.validate()?;
        Ok(Rules(r))
    }
    /// The fields as a dict.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for f in core::RULE_FIELDS {
            d.set_item(f.name, value_py(py, (f.get)(&self.0))?)?;
        }
        Ok(d)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut best: Option<String> = None;
        for (name, base) in [("russian", core::Rules::russian()), ("rubicon", core::Rules::rubicon())] {
            let mut changed = Vec::new();
            for f in core::RULE_FIELDS {
                let mine = (f.get)(&self.0);
                if mine != (f.get)(&base) {
                    changed.push(format!("{}={}", f.name, value_py(py, mine)?.repr()?));
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
        Ok((py.get_type::<Rules>().getattr("_restore")?, (self.as_dict(py)?,)))
    }
    /// Unpickling: ``Rules.russian().replace(**fields)``.
    #[classmethod]
    fn _restore(_cls: &Bound<'_, pyo3::types::PyType>, fields: &Bound<'_, PyDict>) -> PyResult<Rules> {
        Rules::russian().replace(Some(fields))
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
    if let Ok(name) = r.cast::<pyo3::types::PyString>() {
        return Ok(core::Rules::named(convert::text(name, "rules")?)?);
    }
    Err(PyTypeError::new_err(format!(
        "rules must be a Rules value or \"russian\"/\"rubicon\", got {}",
        convert::echo_repr(r)
    )))
}

/// Give `Rules` a read-only property per field of the core's table.
pub(super) fn add_field_properties(py: Python<'_>) -> PyResult<()> {
    let class = py.get_type::<Rules>();
    let property = py.import("builtins")?.getattr("property")?;
    for f in core::RULE_FIELDS {
        let get = PyCFunction::new_closure(py, None, None, move |args, _| -> PyResult<Py<PyAny>> {
            let rules = args.get_item(0)?.cast_into::<Rules>()?;
            Ok(value_py(args.py(), (f.get)(&rules.get().0))?.unbind())
        })?;
        class.setattr(f.name, property.call1((get, py.None(), py.None(), f.doc))?)?;
    }
    Ok(())
}
