//! How the native result classes show themselves: their fields as Python properties
//! ([`getters!`]), their repr ([`repr`], [`PyRepr`]), and notebook display and data out: `_repr_html_` (and
//! `_repr_svg_` for cards), `to_dict`, and `State.render`. Each display method is one call into the
//! Python helpers (`cribpiquet._html`, `cribpiquet._data`), which draw the cards and tables once
//! for the native and the Python result classes alike. A class gets them from one line at the end
//! of the file that defines it (`display!`), as an extra `#[pymethods]` block.

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

/// `module.func(obj, *rest)`.
pub(crate) fn call_helper<'py>(
    obj: &Bound<'py, PyAny>,
    module: &str,
    func: &str,
    rest: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let f = obj.py().import(module)?.getattr(func)?;
    match rest {
        None => f.call1((obj,)),
        Some(extra) => f.call1((obj, extra)),
    }
}

/// `display!(Class => "html_function", …)`: `to_dict()` and `_repr_html_()` for result classes;
/// `display!(@card Card)`: a card's SVG face as `_repr_svg_`/`_repr_html_`; `display!(@state
/// State)`: the table of a game as `_repr_html_` and `render(player=None)`.
macro_rules! display {
    (@card $ty:ty) => {
        #[pyo3::pymethods]
        impl $ty {
            /// The card's face as a small SVG (Jupyter shows it).
            fn _repr_svg_<'py>(slf: &pyo3::Bound<'py, Self>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._html", "card_svg", None)
            }
            /// The card's face as inline SVG in HTML.
            fn _repr_html_<'py>(slf: &pyo3::Bound<'py, Self>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._html", "card_svg", None)
            }
        }
    };
    (@state $ty:ty) => {
        #[pyo3::pymethods]
        impl $ty {
            /// The table as a player sees it, as HTML: each seat's cards, the count or the trick,
            /// the scores and whose turn it is. With `player` (a seat) only that player's cards
            /// are shown face up; `None` shows every card (a state knows them all).
            #[pyo3(signature = (player=None))]
            fn render<'py>(
                slf: &pyo3::Bound<'py, Self>,
                player: Option<pyo3::Bound<'py, pyo3::PyAny>>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._html", "state_html", player)
            }
            /// The table with every card shown (Jupyter's rich display; see `render`).
            fn _repr_html_<'py>(slf: &pyo3::Bound<'py, Self>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._html", "state_html", None)
            }
        }
    };
    ($($ty:ty => $html:literal),* $(,)?) => {$(
        #[pyo3::pymethods]
        impl $ty {
            /// The result as plain JSON-able Python: a dict of its fields, cards as text, tuples
            /// as lists (`json.loads(json.dumps(d)) == d`).
            fn to_dict<'py>(slf: &pyo3::Bound<'py, Self>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._data", "record_dict", None)
            }
            /// The result as an HTML table (Jupyter's rich display).
            fn _repr_html_<'py>(slf: &pyo3::Bound<'py, Self>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::bindings::display::call_helper(slf.as_any(), "cribpiquet._html", $html, None)
            }
        }
    )*};
}
pub(crate) use display;
