//! Piquet: cards, declarations, whole games and match arithmetic, Russian and Rubicon rules.
//!
//! The rules are those of `docs/rules/piquet.md`: the Russian game of the source (the default,
//! [`Rules::russian`]) and English Rubicon piquet ([`Rules::rubicon`]); every number that differs
//! is a field of [`Rules`].
//!
//! * [`declarations`]: what one 12-card hand declares (point, sequences, sets, carte blanche).
//! * [`score_declarations`]: both hands compared category by category, with the repique and an
//!   announcement (`Display`); [`declaration_points`] / [`DeclarationScorer`]: the same totals
//!   without allocation (four table lookups per hand, no branches on the data).
//! * [`score_game`]: a whole deal from its trick record: legality, declarations, every lead and
//!   trick, pique, last trick, leza, capot, open capot, молчанка and false declarations, with an
//!   event log.
//! * [`exact_exchange`], [`monte_carlo_exchange`]: every legal exchange of a dealt hand, exact
//!   expected declarations over every draw and Monte Carlo chances against an opponent.
//! * [`Partiya`] (koroliks, рефет, сквозная запись) and the rubicon [`Partie`].
//! * [`declarations_batch`], [`score_declarations_batch`]: slices of ids, in parallel.
//!
//! ```
//! use cribpiquet::piquet::{score_declarations, Rules};
//! let elder = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D".parse().unwrap();
//! let dealer = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS".parse().unwrap();
//! let s = score_declarations(elder, dealer, &Rules::russian(), None, None).unwrap();
//! assert_eq!(
//!     s.to_string(),
//!     "Point of six — good, 6 (elder); quint major — good, 15 (elder); fourteen aces — good, 14 (elder); \
//!      repique, 60 (elder). Elder 95, dealer 0."
//! );
//! ```

mod batch;
mod card;
mod compare;
mod declare;
mod event;
mod exchange;
mod game;
mod partiya;
pub(crate) mod play;
mod rules;
mod score_game;
mod simd;

/// The id types the batch functions accept (every primitive integer), shared with cribbage.
pub use crate::batch::CardId;
/// The player sentinels of the game engines.
pub use crate::engine::{CHANCE, TERMINAL};
pub use batch::{
    declarations_batch, score_declarations_batch, score_declarations_batch_into, DealRows, DeclarationFeatures,
    ExactExchangeColumns, HandRows,
};
pub use card::{parse_cards, Card, Hand, HandIter};
/// The card layout (mask lanes), for the bots and solvers.
pub(crate) use card::{suit_mask, SUIT_LANE};
pub use compare::{
    declaration_points, score_declarations, CategoryScore, DeclarationItem, DeclarationKind, DeclarationScore,
    DeclarationScorer,
};
pub use declare::{declarations, declarations_with_rules, Declarations, Point, Sequence, Set};
pub use event::EventKind;
pub use exchange::{
    exact_exchange, exchange_sizes, exchange_totals, legal_discards, monte_carlo_exchange, ExchangeMcCounts,
    ExchangeRow, ExchangeValue, McOpponent, McSamples, REFINE_CANDIDATES, REFINE_DRAWS, SCREEN_DRAWS, SHORTLIST,
    SHORTLIST_DRAWS,
};
pub use game::{
    action_exchange_size, action_to_string, exchange_action, string_to_action, GameConfig, Phase, PointSource, Scope,
    State, StateStack, ANNOUNCE_CAPOT, CATEGORY_NAMES, EXCHANGE_BASE, INFO_TENSOR_SIZE, MAX_EXCHANGE, MAX_GAMES,
    MAX_KOROLIKS, MAX_RESAMPLE_ATTEMPTS, NUM_CARDS, NUM_DISTINCT_ACTIONS, NUM_SOURCES, OBS_TENSOR_SIZE, PASS,
};
pub use partiya::{
    difference_record, round_record, Korolik, Partie, PartieResult, Partiya, PartiyaGame, PartiyaResult, Record,
};
pub use rules::*;
pub use score_game::{score_game, GameEvent, GameOptions, GameScore};
