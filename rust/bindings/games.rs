//! The games of the extension module, listed once ([`games!`]): each game's name (the name of
//! its deck marker too), its core game and its two binding modules (its cards: `Card` and the
//! deck marker; its engine: `Game` and `State`). The list generates everything that switches
//! over the games, at compile time: [`AnyGame`] and [`AnyState`] (a Python `Game` or `State` of
//! any game, read by its class), the other games' cards each deck refuses ([`OtherCards`]), and
//! [`per_game!`]/[`each_game!`] for an enum holding one value per game and the match over it.
//! A new game is one line here plus its folders.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use super::convert::{describe, OtherCards};
use crate::engine::Game;

/// The items generated from the list (see the module's documentation). `$d` is a `$` token, for
/// the macros it defines.
macro_rules! games {
    ($($Name:ident: $Core:ty, cards: $cards:ident, engine: $engine:ident;)*) => {
        games!(@with ($) $($Name: $Core, $cards, $engine;)*);
    };
    (@with ($d:tt) $($Name:ident: $Core:ty, $cards:ident, $engine:ident;)*) => {
        /// The core game of a Python `Game` of any game.
        #[derive(Clone, Copy)]
        pub(crate) enum AnyGame {
            $($Name($Core),)*
        }

        /// The core state of a Python `State` of any game (a copy).
        #[derive(Clone, Copy)]
        pub(crate) enum AnyState {
            $($Name(<$Core as Game>::State),)*
        }

        impl AnyGame {
            /// The game of `obj`, a `Game` of any game (`TypeError` naming `what` otherwise).
            pub(crate) fn of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyGame> {
                $(if let Ok(g) = obj.cast::<super::$engine::Game>() {
                    return Ok(AnyGame::$Name(g.get().0));
                })*
                let names = [$(<$Core as Game>::NAME),*].join(" or "); // "cribbage or piquet"
                Err(PyTypeError::new_err(format!("{what} needs a {names} Game, got {}", describe(obj))))
            }
        }

        impl AnyState {
            /// The state of `obj`, a `State` of any game (`TypeError` naming `what` otherwise).
            pub(crate) fn of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyState> {
                $(if let Ok(s) = obj.cast::<super::$engine::State>() {
                    return Ok(AnyState::$Name(s.try_borrow()?.core()));
                })*
                let names = [$(<$Core as Game>::NAME),*].join(" or ");
                Err(PyTypeError::new_err(format!("{what} needs a {names} State, got {}", describe(obj))))
            }
        }

        /// The game whose Python `Card` `obj` is, if it is one.
        fn card_game(obj: &Bound<'_, PyAny>) -> Option<&'static str> {
            $(if obj.is_instance_of::<super::$cards::Card>() {
                return Some(<$Core as Game>::NAME);
            })*
            None
        }

        $(impl OtherCards for super::$cards::$Name {
            const GAME: &'static str = <$Core as Game>::NAME;
            fn other_game(obj: &Bound<'_, PyAny>) -> Option<&'static str> {
                card_game(obj).filter(|&game| game != Self::GAME)
            }
        })*

        /// An enum with one variant per game, named as the game, holding `$Of<its core game>`
        /// (`$Of` a generic type or alias): `per_game!(enum Engine of VectorGame)`.
        macro_rules! per_game {
            ($d(#[$d meta:meta])* $d vis:vis enum $d Enum:ident of $d Of:ident) => {
                $d(#[$d meta])*
                $d vis enum $d Enum {
                    $($Name($d Of<$Core>),)*
                }
            };
        }

        /// `$body` with `$v` the value inside `$value`, whichever its game (`$value` of an enum
        /// with a variant per game: [`AnyGame`], [`AnyState`], a [`per_game!`] enum); the form
        /// `From -> To` wraps the body in the `To` variant of the same game.
        macro_rules! each_game {
            ($d Enum:ident, $d value:expr, $d v:ident => $d body:expr) => {
                match $d value {
                    $($d Enum::$Name($d v) => $d body,)*
                }
            };
            ($d From:ident -> $d To:ident, $d value:expr, $d v:ident => $d body:expr) => {
                match $d value {
                    $($d From::$Name($d v) => $d To::$Name($d body),)*
                }
            };
        }
    };
}

games! {
    Cribbage: crate::cribbage::GameConfig, cards: cribbage, engine: cribbage_game;
    Piquet: crate::piquet::GameConfig, cards: piquet, engine: piquet_game;
}

pub(crate) use {each_game, per_game};
