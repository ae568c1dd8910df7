//! Cribbage: cards, the show, pegging, batch scoring and enumeration.
//!
//! The rules are those of `docs/rules/cribbage.md`: five-card cribbage (the Russian source: 3 kept
//! cards, 61 points) and the six-card, three- and four-player games (4 kept cards, 121).
//!
//! * [`score_hand`] / [`score_crib`]: a show in a few nanoseconds (one table lookup on an
//!   additive rank key, plus two mask operations for flush and nobs).
//! * [`explain_hand`]: the same, with every scoring combination and the count read aloud.
//! * [`peg_points`]: the points for the last card laid in the play.
//! * [`score_hand_batch`], [`explain_hand_batch`], [`peg_points_batch`]: slices of ids, in parallel
//!   (or [`Shows`] / [`peg_points_rows`] of a view checked once, as the bindings call them).
//! * [`hand_distribution`]: the score table over every possible show.
//! * [`analyze_discard`] / [`analyze_discard_batch`]: every discard of a two-player hand, with
//!   the exact expected hand and crib; [`discard_tables`]: equilibrium discard tables.

mod batch;
mod card;
mod crib;
mod discard;
mod discard_tables;
mod game;
mod peg;
mod show;
mod simd;
mod tables;
pub mod tables_cache;
mod words;

/// The id types the batch functions accept (every primitive integer), shared with piquet.
pub use crate::batch::CardId;
pub use crate::engine::{Player, CHANCE, TERMINAL};
pub use batch::{
    explain_hand_batch, hand_distribution, hand_distribution_with, peg_points_batch, peg_points_rows, score_hand_batch,
    score_hand_batch_into, DistributionKind, ShowColumns, Shows,
};
/// The card layout (mask bits and ids), for the bots and solvers.
pub(crate) use card::{id_to_index, FULL_PACK};
pub use card::{parse_cards, Card, Hand, HandIter};
pub use crib::{kind_pairs_in_pack, throw_kind, MAX_CHOICES, THROW_KINDS};
pub use discard::{analyze_discard, analyze_discard_batch, analyze_discard_rows, DiscardColumns, DiscardRow, Opponent};
pub use discard_tables::{
    discard_class_hands, discard_classes, discard_tables, discard_tables_pass, CribValues, DiscardTables, PassSums,
    TablesModel, TablesOptions, TablesRun, CRIB_UNIT,
};
pub use game::{
    action_pair, pair_action, GameConfig, Phase, PointSource, State, StateStack, Variant, GO, INFO_TENSOR_SIZE,
    MAX_PLAYERS, MAX_TARGET, NUM_DISTINCT_ACTIONS, NUM_PAIRS, OBS_TENSOR_SIZE, PAIR_BASE,
};
pub use peg::{explain_peg, go_points, peg_points, PegBreakdown};
pub use show::{
    explain_crib, explain_hand, explain_show, heels_points, score_crib, score_hand, score_show, score_show_unchecked,
    Breakdown, ScoreItem, ScoreKind,
};
pub use tables::{rank_points, table_bytes, RankPoints};
pub use tables_cache::inference_tables;

#[cfg(test)]
mod tests;
