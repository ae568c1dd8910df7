//! What the batch functions of both games share: the card-id element types, the parallel driver
//! (chunks of rows over rayon's pool), the first-bad-row rule, [`IdRows`] (a batch argument whose
//! shape is checked where it enters) and [`Columns`] (a result of named columns, which the
//! bindings turn into a dict of numpy arrays in one place).
//!
//! One check per boundary: a batch entry point builds its checked view once (an [`IdRows`], then
//! the game's own view, e.g. `cribbage::Shows`), whose constructors return the error a user sees;
//! the kernels trust the view and check only the ids, row by row, in the same pass that scores.
//!
//! A batch function validates and scores its rows in one pass. Rows are cut into chunks of
//! [`CHUNK_ROWS`]; a batch of more than one chunk runs the chunks in parallel. However the chunks
//! are scheduled, the error returned is that of the **first bad row in row order** (each chunk
//! stops at its own first bad row, and the lowest of those rows wins).
//!
//! ```
//! use cribpiquet::batch::for_chunks;
//! use cribpiquet::Error;
//! // Double each row's value; rows 3 and 70,000 are bad, row 3 is reported.
//! let input: Vec<i32> = (0..100_000).map(|i| if i == 3 || i == 70_000 { -1 } else { i }).collect();
//! let mut out = vec![0i64; input.len()];
//! let err = for_chunks(&mut out, 1, |first, chunk| {
//!     for (i, slot) in chunk.iter_mut().enumerate() {
//!         let v = input[first + i];
//!         if v < 0 {
//!             return Err(Error::InvalidValue(format!("negative {v}")).in_row(first + i));
//!         }
//!         *slot = 2 * v as i64;
//!     }
//!     Ok(())
//! })
//! .unwrap_err();
//! assert_eq!(err.to_string(), "row 3: negative -1");
//! ```

use rayon::prelude::*;

use crate::error::{Error, Result};

/// Rows per parallel task: big enough to amortise scheduling, small enough to balance.
pub const CHUNK_ROWS: usize = 1 << 15;

/// An integer type that can hold card ids (every primitive integer does).
///
/// ```
/// use cribpiquet::batch::CardId;
/// assert_eq!((-1i8).value(), -1);
/// assert!((-1i8).as_index() >= 52); // negative ids wrap to huge indices
/// assert_eq!(u64::MAX.value(), u64::MAX as i128);
/// ```
pub trait CardId: Copy + Send + Sync {
    /// The value as a wide integer, for range checks and messages.
    fn value(self) -> i128;
    /// The value as `u64`, negative values wrapping to huge ones, so `< limit` is the range check.
    fn as_index(self) -> u64;
    /// The ids as bytes when the type is `u8` (a kernel then reads them in place), else `None`.
    fn as_bytes(ids: &[Self]) -> Option<&[u8]>
    where
        Self: Sized,
    {
        let _ = ids;
        None
    }
}

macro_rules! card_id {
    ($($t:ty),*) => {$(
        impl CardId for $t {
            #[inline(always)]
            fn value(self) -> i128 { self as i128 }
            #[inline(always)]
            fn as_index(self) -> u64 { self as i64 as u64 }
        }
    )*};
}
card_id!(i8, i16, i32, i64, u16, u32, isize, usize);

impl CardId for u8 {
    #[inline(always)]
    fn value(self) -> i128 {
        self as i128
    }
    #[inline(always)]
    fn as_index(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn as_bytes(ids: &[u8]) -> Option<&[u8]> {
        Some(ids)
    }
}

impl CardId for u64 {
    #[inline(always)]
    fn value(self) -> i128 {
        self as i128
    }
    #[inline(always)]
    fn as_index(self) -> u64 {
        self
    }
}

/// A batch argument of card ids: `rows` rows of `width` ids, row-major (numpy's C order), with
/// its name for messages. The constructors check the length against the shape; the games' batch
/// views check the width and the row counts with [`IdRows::wrong_width`] and [`IdRows::same_rows`].
///
/// ```
/// use cribpiquet::batch::IdRows;
/// let hands = IdRows::new("hands", &[1u8, 2, 3, 4, 5, 6], 2, 3).unwrap();
/// assert_eq!((hands.rows(), hands.row(1)), (2, &[4u8, 5, 6][..]));
/// assert_eq!(hands.same_rows("starters", 3).unwrap_err().to_string(), "hands has 2 rows but starters has 3");
/// assert_eq!(IdRows::of_width("hands", &[1u8, 2, 3], 2).unwrap_err().to_string(), "3 ids do not make rows of 2");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct IdRows<'a, T> {
    name: &'static str,
    ids: &'a [T],
    rows: usize,
    width: usize,
}

impl<'a, T> IdRows<'a, T> {
    /// `ids` as `rows` rows of `width` (an error if there are not `rows * width` ids).
    pub fn new(name: &'static str, ids: &'a [T], rows: usize, width: usize) -> Result<IdRows<'a, T>> {
        if rows.checked_mul(width) != Some(ids.len()) {
            return Err(Error::InvalidValue(format!("{} ids do not make {rows} rows of {width}", ids.len())));
        }
        Ok(IdRows { name, ids, rows, width })
    }

    /// `ids` as rows of `width` (an error if the length is not a multiple of it).
    pub fn of_width(name: &'static str, ids: &'a [T], width: usize) -> Result<IdRows<'a, T>> {
        match ids.len().checked_div(width) {
            Some(rows) if rows * width == ids.len() => Ok(IdRows { name, ids, rows, width }),
            None if ids.is_empty() => Ok(IdRows { name, ids, rows: 0, width }),
            _ => Err(Error::InvalidValue(format!("{} ids do not make rows of {width}", ids.len()))),
        }
    }

    /// The argument's name (for messages).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Every id, row after row.
    pub fn ids(&self) -> &'a [T] {
        self.ids
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Ids per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Row `r`.
    pub fn row(&self, r: usize) -> &'a [T] {
        &self.ids[r * self.width..(r + 1) * self.width]
    }

    /// The error for a row width the caller does not take: `"{name} must have {expected}, got
    /// {got} (shape (rows, width))"`, or `"…, got shape (rows, width)"` without `got`.
    pub fn wrong_width(&self, expected: &str, got: Option<&str>) -> Error {
        let (name, rows, width) = (self.name, self.rows, self.width);
        Error::InvalidValue(match got {
            Some(got) => format!("{name} must have {expected}, got {got} (shape ({rows}, {width}))"),
            None => format!("{name} must have {expected}, got shape ({rows}, {width})"),
        })
    }

    /// `Ok` when `other` (named so) has as many rows.
    pub fn same_rows(&self, other: &str, rows: usize) -> Result<()> {
        if rows == self.rows {
            return Ok(());
        }
        Err(Error::InvalidValue(format!("{} has {} rows but {other} has {rows}", self.name, self.rows)))
    }
}

/// The row an error names ([`Error::InRow`]), `usize::MAX` for an error without a row.
fn error_row(e: &Error) -> usize {
    match e {
        Error::InRow { row, .. } => *row,
        _ => usize::MAX,
    }
}

/// `Err` of the error of the lowest row (the minimum of [`error_row`] over the failed tasks).
fn to_result(lowest: Option<Error>) -> Result<()> {
    match lowest {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Run `f(first_row, out_chunk)` over chunks of [`CHUNK_ROWS`] rows of `out` (`per_row` values per
/// row), in parallel when there are several, and return the error of the lowest failing row, so
/// the message does not depend on scheduling. `f` should stop at its first bad row and return
/// its error [`in_row`](Error::in_row) (absolute row numbers: `first_row + i`).
pub fn for_chunks<O: Send, F>(out: &mut [O], per_row: usize, f: F) -> Result<()>
where
    F: Fn(usize, &mut [O]) -> Result<()> + Sync,
{
    let per_row = per_row.max(1);
    let rows = out.len() / per_row;
    if rows <= CHUNK_ROWS {
        return f(0, out);
    }
    to_result(
        out.par_chunks_mut(CHUNK_ROWS * per_row)
            .enumerate()
            .filter_map(|(i, o)| f(i * CHUNK_ROWS, o).err())
            .min_by_key(error_row),
    )
}

/// Run `f(first_row, task)` over tasks that each cover [`CHUNK_ROWS`] rows (the last one fewer),
/// `tasks[k]` starting at row `k * CHUNK_ROWS`: in parallel when there are several, with the
/// error of the lowest failing row (see [`for_chunks`]). For outputs split over several columns,
/// where each task holds its chunk of every column.
pub fn for_tasks<T: Send, F>(tasks: Vec<T>, f: F) -> Result<()>
where
    F: Fn(usize, T) -> Result<()> + Sync,
{
    for_tasks_of(CHUNK_ROWS, tasks, f)
}

/// [`for_tasks`] with `rows` rows per task (`tasks[k]` starts at row `k * rows`), for work whose
/// rows are costly enough that fewer rows per task balance the threads better.
pub fn for_tasks_of<T: Send, F>(rows: usize, tasks: Vec<T>, f: F) -> Result<()>
where
    F: Fn(usize, T) -> Result<()> + Sync,
{
    if tasks.len() <= 1 {
        return tasks.into_iter().try_for_each(|t| f(0, t));
    }
    to_result(tasks.into_par_iter().enumerate().filter_map(|(k, t)| f(k * rows, t).err()).min_by_key(error_row))
}

/// Element types whose all-zero bytes are a valid zero value, for [`try_zeroed`].
///
/// # Safety
/// An implementor promises that every byte zero is a valid value of the type.
pub unsafe trait Zeroed: Copy {}
// SAFETY: all-zero bytes are 0, 0.0 and false.
unsafe impl Zeroed for u8 {}
// SAFETY: as above.
unsafe impl Zeroed for u16 {}
// SAFETY: as above.
unsafe impl Zeroed for i32 {}
// SAFETY: as above.
unsafe impl Zeroed for f32 {}
// SAFETY: as above.
unsafe impl Zeroed for f64 {}
// SAFETY: as above.
unsafe impl Zeroed for bool {}

/// `len` zeros, allocated fallibly (`None` if the memory cannot be had or `len` values do not fit
/// an allocation), zeroed lazily by the allocator as `vec![0; len]` is: for outputs whose size
/// follows from the caller's input, so that too large an input is an error, never an abort.
///
/// ```
/// use cribpiquet::batch::try_zeroed;
/// assert_eq!(try_zeroed::<f64>(3), Some(vec![0.0; 3]));
/// assert_eq!(try_zeroed::<u16>(usize::MAX / 2), None);
/// ```
pub fn try_zeroed<T: Zeroed>(len: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a nonzero size; a non-null pointer from `alloc_zeroed` with it is
    // `len` zero-initialised `T`s (all-zero bytes are a valid `T`: `Zeroed`), and a `Vec` with
    // capacity `len` frees it with the same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, len, len))
    }
}

macro_rules! values {
    ($($v:ident: $t:ty),*) => {
        /// The values of one result column: an owned vector of one element type.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Values {
            $(#[doc = concat!("`", stringify!($t), "` values.")] $v(Vec<$t>),)*
        }
        $(
            impl From<Vec<$t>> for Values {
                fn from(v: Vec<$t>) -> Values {
                    Values::$v(v)
                }
            }
        )*
    };
}
values!(Bool: bool, I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64, F32: f32, F64: f64);

/// One named column of a [`Columns`] result.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// One value per row.
    Rows(Values),
    /// Row-major values of this shape (rows first; the product of the dimensions is the length).
    Shaped(Values, Vec<usize>),
    /// One number for the whole result (a count).
    Count(u64),
}

impl Column {
    /// One value per row.
    pub fn rows(v: impl Into<Values>) -> Column {
        Column::Rows(v.into())
    }

    /// Row-major values of `shape`.
    pub fn shaped(v: impl Into<Values>, shape: &[usize]) -> Column {
        Column::Shaped(v.into(), shape.to_vec())
    }
}

/// A result made of named columns (a struct of vectors, one entry per row): the names in their
/// order with the owned values, for the bindings to hand over without copying.
///
/// ```
/// use cribpiquet::batch::{Column, Columns, Values};
/// struct Points { total: Vec<u8>, per_card: Vec<f64> }
/// impl Columns for Points {
///     fn columns(self) -> Vec<(&'static str, Column)> {
///         let rows = self.total.len();
///         vec![("total", Column::rows(self.total)), ("per_card", Column::shaped(self.per_card, &[rows, 2]))]
///     }
/// }
/// let cols = Points { total: vec![29], per_card: vec![0.5, 1.5] }.columns();
/// assert_eq!(cols[0], ("total", Column::Rows(Values::U8(vec![29]))));
/// ```
pub trait Columns {
    /// The columns, in the order a dict of them lists them.
    fn columns(self) -> Vec<(&'static str, Column)>;
}

/// A few named columns written out.
impl<const N: usize> Columns for [(&'static str, Column); N] {
    fn columns(self) -> Vec<(&'static str, Column)> {
        self.into()
    }
}

/// A struct of result columns and its [`Columns`] impl, from one list of its fields: the fields
/// that are not columns (sizes, names) in the struct's braces, then, after `columns |s|` and the
/// `let`s that give the shapes (`s` is the value, before any column is moved out of it), the
/// column fields in the dict's order, each `field: Vec<T> = rows` (one value per row) or
/// `= [dims]` (row-major, that shape), `as "key"` if the dict's key is not the field's name;
/// `then` adds columns computed from the other fields.
///
/// ```ignore
/// columns! {
///     /// Points by hand.
///     pub struct Points { pub width: usize }
///     columns |p| let (rows, w) = (p.total.len(), p.width); {
///         /// Totals.
///         pub total: Vec<u8> = rows,
///         /// Per card.
///         pub per_card: Vec<f64> = [rows, w] as "card_points",
///     }
/// }
/// ```
macro_rules! columns {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident {
            $($(#[$other_meta:meta])* $other_vis:vis $other:ident: $other_ty:ty,)*
        }
        columns |$s:ident| $(let $bind:pat = $value:expr;)* {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty = $shape:tt $(as $key:literal)?,)*
        }
        $(then $more:expr)?
    ) => {
        $(#[$meta])*
        $vis struct $Name {
            $($(#[$other_meta])* $other_vis $other: $other_ty,)*
            $($(#[$field_meta])* $field_vis $field: $ty,)*
        }

        impl $crate::batch::Columns for $Name {
            fn columns(self) -> Vec<(&'static str, $crate::batch::Column)> {
                let $s = self;
                $(let $bind = $value;)*
                #[allow(unused_mut)]
                let mut out = vec![$(($crate::batch::columns!(@key $field $($key)?), $crate::batch::columns!(@column $s.$field, $shape)),)*];
                $(out.extend($more);)?
                out
            }
        }
    };
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $key:literal) => { $key };
    (@column $values:expr, rows) => { $crate::batch::Column::rows($values) };
    (@column $values:expr, [$($dim:expr),+]) => { $crate::batch::Column::shaped($values, &[$($dim),+]) };
}
pub(crate) use columns;

/// A field of a row struct that becomes a column of a list of rows ([`row_columns!`]): a number
/// one value per row, an array `[T; W]` a `(rows, W)` column.
pub trait Cell: Sized {
    /// The column of these cells, one per row.
    fn column(cells: impl Iterator<Item = Self>) -> Column;
}

macro_rules! cells {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn column(cells: impl Iterator<Item = $t>) -> Column {
                Column::rows(cells.collect::<Vec<$t>>())
            }
        }
    )*};
}
cells!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl<T, const W: usize> Cell for [T; W]
where
    Vec<T>: Into<Values>,
{
    fn column(cells: impl Iterator<Item = [T; W]>) -> Column {
        let flat: Vec<T> = cells.flatten().collect();
        let n = flat.len() / W.max(1);
        Column::shaped(flat, &[n, W])
    }
}

/// A row struct whose list (`Vec<Row>`) is a [`Columns`] result: one column per field, named as
/// it, in field order, each field's type a [`Cell`].
macro_rules! row_columns {
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $Name {
            $($(#[$field_meta])* $field_vis $field: $ty,)*
        }

        impl $crate::batch::Columns for Vec<$Name> {
            fn columns(self) -> Vec<(&'static str, $crate::batch::Column)> {
                vec![$((stringify!($field), $crate::batch::Cell::column(self.iter().map(|row| row.$field))),)*]
            }
        }
    };
}
pub(crate) use row_columns;

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `first + i` per row; fails at the rows in `bad`.
    fn run(rows: usize, bad: &[usize]) -> Result<Vec<usize>> {
        let mut out = vec![0usize; rows];
        for_chunks(&mut out, 1, |first, chunk| {
            for (i, slot) in chunk.iter_mut().enumerate() {
                let r = first + i;
                if bad.contains(&r) {
                    return Err(Error::InvalidValue("bad".into()).in_row(r));
                }
                *slot = r;
            }
            Ok(())
        })?;
        Ok(out)
    }

    #[test]
    fn every_row_is_visited_once_with_its_absolute_number() {
        for rows in [0, 1, CHUNK_ROWS, CHUNK_ROWS + 1, 3 * CHUNK_ROWS + 5] {
            assert_eq!(run(rows, &[]).unwrap(), (0..rows).collect::<Vec<_>>(), "{rows} rows");
        }
    }

    #[test]
    fn the_lowest_bad_row_wins_whatever_the_scheduling() {
        let n = 4 * CHUNK_ROWS;
        // Bad rows in the last chunks finish first on most schedules; the lowest is reported.
        for bad in [vec![n - 1, 2 * CHUNK_ROWS + 1, CHUNK_ROWS + 2], vec![5, n - 1], vec![CHUNK_ROWS]] {
            let low = *bad.iter().min().unwrap();
            for _ in 0..5 {
                assert_eq!(run(n, &bad).unwrap_err().to_string(), format!("row {low}: bad"));
            }
        }
    }

    #[test]
    fn several_values_per_row() {
        let mut out = vec![0u32; 2 * (CHUNK_ROWS + 3)];
        for_chunks(&mut out, 2, |first, chunk| {
            for (i, pair) in chunk.chunks_exact_mut(2).enumerate() {
                pair.copy_from_slice(&[(first + i) as u32, 7]);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(&out[2 * CHUNK_ROWS..], &[CHUNK_ROWS as u32, 7, CHUNK_ROWS as u32 + 1, 7, CHUNK_ROWS as u32 + 2, 7]);
    }

    #[test]
    fn tasks_start_at_their_chunk_and_the_lowest_error_wins() {
        let tasks: Vec<usize> = (0..4).collect();
        let err = for_tasks(tasks, |first, k| {
            assert_eq!(first, k * CHUNK_ROWS);
            if k >= 1 {
                Err(Error::InvalidValue("bad".into()).in_row(first + 9))
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(err.to_string(), format!("row {}: bad", CHUNK_ROWS + 9));
        assert!(for_tasks(Vec::<()>::new(), |_, _| Err(Error::InvalidValue("never".into()))).is_ok());
        assert!(for_tasks(vec![()], |first, _| if first == 0 { Ok(()) } else { Err(Error::InvalidValue("x".into())) })
            .is_ok());
    }

    columns! {
        /// Points of hands of `width` cards, and a tally of them.
        struct Points {
            width: usize,
            extra: Vec<(&'static str, u64)>,
        }
        columns |p| let (rows, w) = (p.total.len(), p.width); {
            per_card: Vec<f64> = [rows, w],
            total: Vec<u8> = rows,
            flags: Vec<bool> = [rows, 1] as "flag",
        }
        then p.extra.into_iter().map(|(key, n)| (key, Column::Count(n)))
    }

    row_columns! {
        struct Row {
            mask: u32,
            pair: [i64; 2],
            value: f32,
        }
    }

    #[test]
    fn declared_columns_keep_their_order_keys_and_shapes() {
        let points = Points {
            width: 2,
            extra: vec![("hands", 7)],
            per_card: vec![0.5, 1.5, 2.0, 3.0],
            total: vec![2, 5],
            flags: vec![true, false],
        };
        assert_eq!(
            points.columns(),
            vec![
                ("per_card", Column::Shaped(Values::F64(vec![0.5, 1.5, 2.0, 3.0]), vec![2, 2])),
                ("total", Column::Rows(Values::U8(vec![2, 5]))),
                ("flag", Column::Shaped(Values::Bool(vec![true, false]), vec![2, 1])),
                ("hands", Column::Count(7)),
            ]
        );
        let rows = vec![Row { mask: 3, pair: [1, -1], value: 0.5 }, Row { mask: 12, pair: [2, -2], value: 1.0 }];
        assert_eq!(
            rows.columns(),
            vec![
                ("mask", Column::Rows(Values::U32(vec![3, 12]))),
                ("pair", Column::Shaped(Values::I64(vec![1, -1, 2, -2]), vec![2, 2])),
                ("value", Column::Rows(Values::F32(vec![0.5, 1.0]))),
            ]
        );
        assert_eq!(Vec::<Row>::new().columns()[1], ("pair", Column::Shaped(Values::I64(vec![]), vec![0, 2])));
    }
}
