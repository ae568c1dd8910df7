//! Named enums: the one macro that declares a fieldless enum together with the names its values
//! go by (in the Python API, on the command line and in records), so that the list of values, the
//! list of names and the lookups are written once per type.
//!
//! ```
//! use cribpiquet::cribbage::Phase;
//! assert_eq!(Phase::Play.name(), "play");
//! assert_eq!(Phase::by_name("game-over"), Some(Phase::GameOver));
//! assert_eq!(Phase::ALL.len(), Phase::NAMES.len());
//! ```

/// Declares `enum $t` with each variant's name, and `ALL` (every value, in declaration order),
/// `NAMES` (their names, in the same order), `name()` and `by_name()` (the exact name; `None` for
/// any other text). A type that accepts other spellings, or says more in its error, writes its
/// own `parse` over `by_name`.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $t:ident {
            $($(#[$vmeta:meta])* $v:ident $(= $d:literal)? => $n:literal,)*
        }
    ) => {
        $(#[$meta])*
        $vis enum $t {
            $($(#[$vmeta])* $v $(= $d)?,)*
        }

        impl $t {
            /// Every value, in declaration order.
            pub const ALL: [$t; [$($n),*].len()] = [$($t::$v),*];
            /// The names of [`ALL`](Self::ALL), in the same order.
            pub const NAMES: [&'static str; [$($n),*].len()] = [$($n),*];

            /// This value's name.
            pub fn name(self) -> &'static str {
                match self {
                    $($t::$v => $n,)*
                }
            }

            /// The value named `name` exactly, if any.
            pub fn by_name(name: &str) -> Option<$t> {
                match name {
                    $($n => Some($t::$v),)*
                    _ => None,
                }
            }
        }
    };
}

pub(crate) use named_enum;
