//! Piquet (Russian and Rubicon rules): see `rules/piquet.md`.

mod batch;
mod card;
mod compare;
mod declare;
mod game;
mod partiya;
mod rules;

pub use batch::{declaration_features, score_declarations_batch, score_declarations_batch_into, DeclarationFeatures};
pub use card::{parse_cards, Card, Hand, HandIter};
pub use compare::{
    declaration_points, score_declarations, CategoryScore, DeclarationItem, DeclarationKind, DeclarationScore,
    DeclarationScorer, Player,
};
pub use declare::{declarations, declarations_with_rules, Declarations, Point, Sequence, Set};
pub use game::{score_game, EventKind, GameEvent, GameOptions, GameScore};
pub use partiya::{
    difference_record, round_record, Korolik, Partie, PartieResult, Partiya, PartiyaGame, PartiyaResult, Record, Side,
};
pub use rules::*;
