//! What a scoring event of a deal is ([`EventKind`]): shared by the play tally, the deal scorer
//! [`score_game`](fn@super::score_game) and the game engine, which all log or count the same events.

use super::compare::DeclarationKind;

/// What a game event is.
///
/// ```
/// assert_eq!(cribpiquet::piquet::EventKind::LastTrick.name(), "last trick");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Carte blanche (declarations).
    CarteBlanche,
    /// The point (declarations).
    Point,
    /// One sequence (declarations).
    Sequence,
    /// One set (declarations).
    Set,
    /// The repique bonus.
    Repique,
    /// A lead.
    Lead,
    /// A trick won (not the last).
    Trick,
    /// The last trick won (its trick point and the last-trick extra together).
    LastTrick,
    /// The pique bonus.
    Pique,
    /// Leza: more than six tricks.
    Leza,
    /// Capot: all twelve tricks.
    Capot,
    /// Open capot: announced and made.
    OpenCapot,
}

impl EventKind {
    /// Lowercase name: `"carte blanche"`, `"point"`, `"sequence"`, `"set"`, `"repique"`,
    /// `"lead"`, `"trick"`, `"last trick"`, `"pique"`, `"leza"`, `"capot"`, `"open capot"`.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::CarteBlanche => "carte blanche",
            EventKind::Point => "point",
            EventKind::Sequence => "sequence",
            EventKind::Set => "set",
            EventKind::Repique => "repique",
            EventKind::Lead => "lead",
            EventKind::Trick => "trick",
            EventKind::LastTrick => "last trick",
            EventKind::Pique => "pique",
            EventKind::Leza => "leza",
            EventKind::Capot => "capot",
            EventKind::OpenCapot => "open capot",
        }
    }

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
