//! # cribpiquet
//!
//! Exact, fast scoring for two classic two-player card games, **cribbage** and **piquet**.
//!
//! The core is plain Rust with no Python dependency: cards are bitmasks (cribbage: a `u64` with a
//! 16-bit lane per suit; piquet: a `u32` with an 8-bit lane per suit), hot paths use additive keys
//! and small tables built at start-up, and batch entry points score slices of card ids in
//! parallel. The Python package `cribpiquet` is a thin layer over this crate (feature `python`).
//!
//! ```
//! use cribpiquet::cribbage::{score_hand, Card, Hand};
//!
//! let hand: Hand = "JC 5D 5H 5S".parse().unwrap();
//! let starter: Card = "5C".parse().unwrap();
//! assert_eq!(score_hand(hand, starter).unwrap(), 29);
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod bots;
pub mod cache;
pub mod cards;
pub mod cribbage;
pub mod engine;
pub mod error;
pub mod eval;
pub mod kernel;
mod names;
pub mod piquet;
pub mod rng;
pub mod solve;

#[cfg(feature = "python")]
mod bindings;

pub use error::{Error, Result};
