//! How the native result classes show themselves: their fields as Python properties
//! ([`getters!`]), their repr ([`repr`], [`PyRepr`]), and a state's table as a front end draws it
//! ([`view_dict`], the core's `View` as Python). The notebook display and data out
//! (`_repr_html_`, `_repr_svg_`, `to_dict`, `State.render`) are Python functions of
//! `cribpiquet._html` that each game's Python module attaches to its classes (`_html.card_methods`,
//! `state_methods`, `result_methods`): Rust calls no Python function by name.

use pyo3::prelude::*;

/// `Class(name=value, ...)`.
pub(crate) fn repr<'a, V: std::fmt::Display>(class: &str, fields: impl IntoIterator<Item = (&'a str, V)>) -> String {
    let fields: Vec<String> = fields.into_iter().map(|(name, value)| format!("{name}={value}")).collect();
    format!("{class}({})", fields.join(", "))
}

/// Read-only Python properties of a class wrapping a core value (`Class(pub core::Value)`), each
/// with its docstring: `field: Type` reads `self.0.field` (a `Copy` field), `name: Type = |v| expr`
/// computes `expr` from `v = &self.0`. Optionally `__str__ = method` (a method of the core value
/// giving a `String`) and `repr[a, b](c, d)`: a `__repr__` `Class(a, b, c=…, d=…)` of some of the
/// getters, each value as [`PyRepr`] writes it.
macro_rules! getters {
    ($ty:ident $(, __str__ = $str:ident)? $(, repr [$($p:ident),*] ($($k:ident),*))?
     { $($(#[$doc:meta])* $name:ident: $out:ty $(= |$v:ident| $e:expr)?),* $(,)? }) => {
        #[pyo3::pymethods]
        impl $ty {
            $(
                $(#[$doc])*
                #[getter]
                fn $name(&self) -> $out {
                    let value = &self.0;
                    $crate::bindings::display::getters!(@get value, $name $(, |$v| $e)?)
                }
            )*
            $(
                fn __str__(&self) -> String {
                    self.0.$str()
                }
            )?
            $(
                fn __repr__(&self) -> String {
                    use $crate::bindings::display::PyRepr;
                    let parts: Vec<String> = [$(self.$p().py_repr()),*]
                        .into_iter()
                        .chain([$(format!(concat!(stringify!($k), "={}"), self.$k().py_repr())),*])
                        .collect();
                    format!(concat!(stringify!($ty), "({})"), parts.join(", "))
                }
            )?
        }
    };
    (@get $value:ident, $name:ident) => { $value.$name };
    (@get $value:ident, $name:ident, |$v:ident| $e:expr) => {{ let $v = $value; $e }};
}
pub(crate) use getters;

/// A value as Python's `repr` writes it (a name quoted `'…'`; a text as Rust's `{:?}` writes it).
pub(crate) trait PyRepr {
    fn py_repr(&self) -> String;
}

/// `PyRepr` of each type from one expression of `x`, the value.
macro_rules! py_repr {
    ($($t:ty => |$x:ident| $e:expr;)*) => {$(
        impl PyRepr for $t {
            fn py_repr(&self) -> String {
                let $x = self;
                $e
            }
        }
    )*};
}

py_repr! {
    u8 => |x| x.to_string();
    u16 => |x| x.to_string();
    u64 => |x| x.to_string();
    usize => |x| x.to_string();
    bool => |x| (if *x { "True" } else { "False" }).to_string();
    &str => |x| format!("'{x}'");
    String => |x| format!("{x:?}");
}

impl<T: PyRepr> PyRepr for Option<T> {
    fn py_repr(&self) -> String {
        self.as_ref().map_or_else(|| "None".to_string(), T::py_repr)
    }
}

impl<T: PyRepr> PyRepr for (T, T) {
    fn py_repr(&self) -> String {
        format!("({}, {})", self.0.py_repr(), self.1.py_repr())
    }
}

/// A state's [`View`](crate::engine::View) as Python: ``{"seats": [{"seat", "role", "cards",
/// "hidden", "score"}, ...], "table": [{"label", "cards", "hidden"}, ...]}``, each card a `Card`
/// made by `card`, or `None` where the viewer may not see it (a hidden card is not in the dict).
pub(crate) fn view_dict<'py, C: IntoPyObject<'py>>(
    py: Python<'py>,
    view: crate::engine::View,
    card: impl Fn(u16) -> PyResult<C>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    use pyo3::types::{PyDict, PyList, PyTuple};
    use pyo3::IntoPyObjectExt;
    let cards = |ids: &[u16], hidden: bool| -> PyResult<Bound<'py, PyTuple>> {
        let faces: Vec<Bound<'py, PyAny>> = ids
            .iter()
            .map(|&id| if hidden { Ok(py.None().into_bound(py)) } else { Ok(card(id)?.into_bound_py_any(py)?) })
            .collect::<PyResult<_>>()?;
        PyTuple::new(py, faces)
    };
    let seats = PyList::empty(py);
    for (k, seat) in view.seats.iter().enumerate() {
        let d = PyDict::new(py);
        d.set_item("seat", k)?;
        d.set_item("role", seat.role)?;
        d.set_item("cards", cards(&seat.cards, seat.hidden)?)?;
        d.set_item("hidden", seat.hidden)?;
        d.set_item("score", &seat.score)?;
        seats.append(d)?;
    }
    let table = PyList::empty(py);
    for pile in &view.table {
        let d = PyDict::new(py);
        d.set_item("label", &pile.label)?;
        d.set_item("cards", cards(&pile.cards, pile.hidden)?)?;
        d.set_item("hidden", pile.hidden)?;
        table.append(d)?;
    }
    let out = PyDict::new(py);
    out.set_item("seats", seats)?;
    out.set_item("table", table)?;
    Ok(out)
}
