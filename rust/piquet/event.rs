//! What a scoring event of a deal is ([`EventKind`]): shared by the play tally, the deal scorer
//! [`score_game`](fn@super::score_game) and the game engine, which all log or count the same events.

use super::compare::DeclarationKind;
use crate::names::named_enum;

named_enum! {
    /// What a game event is.
    ///
    /// ```
    /// assert_eq!(cribpiquet::piquet::EventKind::LastTrick.name(), "last trick");
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum EventKind {
        /// Carte blanche (declarations).
        CarteBlanche => "carte blanche",
        /// The point (declarations).
        Point => "point",
        /// One sequence (declarations).
        Sequence => "sequence",
        /// One set (declarations).
        Set => "set",
        /// The repique bonus.
        Repique => "repique",
        /// A lead.
        Lead => "lead",
        /// A trick won (not the last).
        Trick => "trick",
        /// The last trick won (its trick point and the last-trick extra together).
        LastTrick => "last trick",
        /// The pique bonus.
        Pique => "pique",
        /// Leza: more than six tricks.
        Leza => "leza",
        /// Capot: all twelve tricks.
        Capot => "capot",
        /// Open capot: announced and made.
        OpenCapot => "open capot",
    }
}

impl EventKind {
    /// The event of a scored declaration category.
    pub(crate) fn of_declaration(kind: DeclarationKind) -> EventKind {
        match kind {
            DeclarationKind::CarteBlanche => EventKind::CarteBlanche,
            DeclarationKind::Point => EventKind::Point,
            DeclarationKind::Sequence => EventKind::Sequence,
            DeclarationKind::Set => EventKind::Set,
            DeclarationKind::Repique => EventKind::Repique,
        }
    }
}
