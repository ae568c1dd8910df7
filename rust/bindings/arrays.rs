//! numpy arrays for the batch functions of both games: id arrays in (checking the argument,
//! borrowing it as a slice of one of the 8 integer dtypes, the dtype dispatch macros) and result
//! columns out (a core [`Column`] converts to an array, [`Dict`] of any core [`Columns`] to a dict
//! of arrays, without copying).
//!
//! Any integer array is accepted: any alignment (`np.frombuffer` at an offset, a packed record
//! field, a memory map), byte order (`>i4`), strides (negative too), memory order (Fortran),
//! writeable or not. An aligned, C-contiguous, native-order array (the common case) is borrowed
//! as is; any other one is copied once (by `numpy.require`) into that form first. A non-integer
//! dtype is a `TypeError`, a wrong number of dimensions a `ValueError`, both naming the argument.

use numpy::{
    ndarray::Dimension, Element, IntoPyArray, Ix1, Ix2, PyArray, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyModule};

use crate::batch::{Column, Columns, Values};

/// Integer id arrays of any integer dtype, borrowed read-only (aligned, C-contiguous, native
/// order): [`Ids1`] one-dimensional, [`Ids2`] two-dimensional.
pub(crate) enum Ids<'py, D: Dimension> {
    I8(PyReadonlyArray<'py, i8, D>),
    I16(PyReadonlyArray<'py, i16, D>),
    I32(PyReadonlyArray<'py, i32, D>),
    I64(PyReadonlyArray<'py, i64, D>),
    U8(PyReadonlyArray<'py, u8, D>),
    U16(PyReadonlyArray<'py, u16, D>),
    U32(PyReadonlyArray<'py, u32, D>),
    U64(PyReadonlyArray<'py, u64, D>),
}

/// A 1-d id array (see [`Ids`]).
pub(crate) type Ids1<'py> = Ids<'py, Ix1>;
/// A 2-d id array (see [`Ids`]).
pub(crate) type Ids2<'py> = Ids<'py, Ix2>;

/// `$body` with `$a` bound to the borrowed array of an [`Ids`], whatever its dtype.
macro_rules! each_dtype {
    ($ids:expr, |$a:ident| $body:expr) => {
        $crate::bindings::arrays::each_dtype!(@ $ids, |$a| $body, I8 I16 I32 I64 U8 U16 U32 U64)
    };
    (@ $ids:expr, |$a:ident| $body:expr, $($v:ident)*) => {
        match $ids {
            $($crate::bindings::arrays::Ids::$v($a) => $body,)*
        }
    };
}
pub(crate) use each_dtype;

/// `numpy.require` (the module is imported once; the function looked up on each copy).
fn require<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind))?.bind(py).getattr("require")
}

/// `obj` as an integer array of `ndim` dimensions that can be borrowed as one slice: the array
/// itself when it is aligned, C-contiguous and in native byte order, else one copy of it that is.
fn behaved<'py>(obj: &Bound<'py, PyAny>, name: &str, ndim: usize) -> PyResult<Bound<'py, PyUntypedArray>> {
    let Ok(a) = obj.cast::<PyUntypedArray>() else {
        let got = obj.get_type().name()?;
        return Err(PyTypeError::new_err(format!("{name} must be a numpy array, got {got}")));
    };
    let dtype = a.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        return Err(PyTypeError::new_err(format!("{name} must hold integer card ids, got dtype {dtype}")));
    }
    if a.ndim() != ndim {
        let shape = a.getattr("shape")?.str()?; // as Python writes it: (3, 4), (5,), ()
        return Err(PyValueError::new_err(format!("{name} must be a {ndim}-d array, got shape {shape}")));
    }
    if a.is_c_contiguous() && a.is_aligned() && dtype.is_native_byteorder() != Some(false) {
        return Ok(a.clone());
    }
    let py = obj.py();
    let native = dtype.call_method1("newbyteorder", ("=",))?;
    let flags = PyList::new(py, ["C", "A"])?;
    let copy = require(py)?.call1((a, native, flags))?;
    Ok(copy.cast_into::<PyUntypedArray>()?)
}

impl<'py, D: Dimension> Ids<'py, D> {
    /// Borrow an integer array of `D`'s number of dimensions (see the module docs for what is
    /// accepted).
    pub(crate) fn extract(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Ids<'py, D>> {
        let a = behaved(obj, name, D::NDIM.unwrap_or(1))?;
        fn borrow<'py, T: Element, D: Dimension>(
            a: &Bound<'py, PyUntypedArray>,
            name: &str,
        ) -> PyResult<Option<PyReadonlyArray<'py, T, D>>> {
            let Ok(a) = a.cast::<PyArray<T, D>>() else { return Ok(None) };
            a.try_readonly().map(Some).map_err(|e| PyValueError::new_err(format!("{name} cannot be read: {e}")))
        }
        macro_rules! each {
            ($($v:ident: $t:ty),*) => {$(
                if let Some(a) = borrow::<$t, D>(&a, name)? {
                    return Ok(Ids::$v(a));
                }
            )*};
        }
        each!(I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64);
        Err(PyTypeError::new_err(format!("{name} must hold integer card ids, got dtype {}", a.dtype())))
    }

    /// The shape.
    fn dims(&self) -> &[usize] {
        each_dtype!(self, |a| a.shape())
    }
}

impl Ids2<'_> {
    /// (rows, columns).
    pub(crate) fn shape(&self) -> (usize, usize) {
        (self.dims()[0], self.dims()[1])
    }
}

/// The error for an array that cannot be viewed as one slice (never happens for the arrays
/// [`Ids1::extract`] / [`Ids2::extract`] return; reported rather than panicking all the same).
pub(crate) fn slice_err(_: numpy::AsSliceError) -> PyErr {
    PyValueError::new_err("an id array cannot be read as one aligned contiguous block")
}

/// Run `$body` with `$s` bound to the id slice of an [`Ids1`]/[`Ids2`] (`$enum`, kept for the
/// callers' readability), whatever its dtype. Returns from the enclosing function (a `PyResult`)
/// if the slice cannot be taken.
macro_rules! with_slice {
    ($ids:expr, $enum:ident, |$s:ident| $body:expr) => {
        $crate::bindings::arrays::each_dtype!($ids, |a| {
            let $s = a.as_slice().map_err($crate::bindings::arrays::slice_err)?;
            $body
        })
    };
}
pub(crate) use with_slice;

/// Run `$body` with `$a` and `$b` bound to the slices of two id arrays (`$ea`/`$eb`: [`Ids1`] or
/// [`Ids2`]) of the same dtype; `TypeError` `$mismatch` when the dtypes differ (the Python
/// wrappers give both one dtype). Returns from the enclosing function on error.
macro_rules! with_slices {
    ($x:expr, $ea:ident, $y:expr, $eb:ident, $mismatch:expr, |$a:ident, $b:ident| $body:expr) => {
        $crate::bindings::arrays::with_slices!(@ $x, $y, $mismatch, |$a, $b| $body, I8 I16 I32 I64 U8 U16 U32 U64)
    };
    (@ $x:expr, $y:expr, $mismatch:expr, |$a:ident, $b:ident| $body:expr, $($v:ident)*) => {{
        use $crate::bindings::arrays::{slice_err, Ids};
        match ($x, $y) {
            $((Ids::$v(x), Ids::$v(y)) => {
                let ($a, $b) = (x.as_slice().map_err(slice_err)?, y.as_slice().map_err(slice_err)?);
                $body
            })*
            _ => return Err(pyo3::exceptions::PyTypeError::new_err($mismatch)),
        }
    }};
}
pub(crate) use with_slices;

/// A core column as a numpy array (the vector handed over, not copied; a shaped column is a
/// reshaped view of it), or a count as a Python int: a binding returns a `Column` as is.
impl<'py> IntoPyObject<'py> for Column {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (values, shape) = match self {
            Column::Count(n) => return Ok(n.into_pyobject(py)?.into_any()),
            Column::Rows(v) => (v, None),
            Column::Shaped(v, shape) => (v, Some(shape)),
        };
        macro_rules! array {
            ($($v:ident),*) => {
                match values {
                    $(Values::$v(v) => {
                        let a = v.into_pyarray(py);
                        match shape {
                            None => a.into_any(),
                            Some(shape) => a.reshape(shape)?.into_any(),
                        }
                    })*
                }
            };
        }
        Ok(array!(Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64))
    }
}

/// A core column set as a Python dict of arrays (and ints), in its order, without copying: a
/// binding returns `Dict(columns)`.
pub(crate) struct Dict<C>(pub(crate) C);

impl<'py, C: Columns> IntoPyObject<'py> for Dict<C> {
    type Target = PyDict;
    type Output = Bound<'py, PyDict>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, column) in self.0.columns() {
            d.set_item(name, column)?;
        }
        Ok(d)
    }
}

/// Any core column set as a dict of numpy arrays (see [`Dict`]).
pub(crate) fn columns_dict<'py>(py: Python<'py>, columns: impl Columns) -> PyResult<Bound<'py, PyDict>> {
    Dict(columns).into_pyobject(py)
}

/// Load everything of numpy's C API the batch functions use (the array API capsule, the dtypes,
/// the borrow-checking capsule), once, when the module is imported.
///
/// rust-numpy loads these lazily and panics if that fails; the load imports Python code, so a
/// Ctrl-C (a pending `KeyboardInterrupt`) during the first batch call of a process would become
/// a `PanicException`. Loaded here, a failure is an ordinary import error, and no batch call
/// imports anything.
pub(crate) fn load_numpy(py: Python<'_>) -> PyResult<()> {
    // Fallible imports first: after them, the capsule loads below import nothing new.
    numpy::get_array_module(py)?;
    require(py)?;
    let a = numpy::PyArray1::<u8>::zeros(py, 1, false);
    drop(a.try_readonly().map_err(|e| PyValueError::new_err(e.to_string()))?);
    let _ = numpy::IntoPyArray::into_pyarray(vec![0i16; 2], py).reshape([1, 2])?;
    let _ = numpy::IntoPyArray::into_pyarray(vec![false], py);
    Ok(())
}
