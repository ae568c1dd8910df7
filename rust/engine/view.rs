//! What a front end draws of a state: the [`View`] of the table as one seat (or an onlooker who
//! sees every card) sees it — each seat's cards, face up or down, its role and its score in
//! words; the cards on the table (a starter, the count, a trick, the crib), each pile with its
//! label. A game writes its [`Viewed::view`] in its own folder (`game/view.rs`); the renderers
//! (the notebook HTML, the terminal table, the replay page) draw any game's view the same way.

use super::GameState;

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat's role in this deal in words (`"dealer"`, `"pone"`, `"elder"`), empty before
    /// the first deal.
    pub role: &'static str,
    /// The card ids the seat holds, in id order.
    pub cards: Vec<u16>,
    /// Are the cards face down for this viewer (the viewer is another seat)?
    pub hidden: bool,
    /// The seat's score in words (`"12 points"`, `"14 this deal, 3 tricks"`).
    pub score: String,
}

/// Cards on the table under a label (`"starter"`, `"count 15"`, `"led by seat 0"`, `"crib"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pile {
    /// What the cards are, in words.
    pub label: String,
    /// Card ids, in the order laid.
    pub cards: Vec<u16>,
    /// Face down for this viewer (the crib before the show).
    pub hidden: bool,
}

/// The table as `viewer` sees it (`None`: every card face up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// One entry per seat.
    pub seats: Vec<SeatView>,
    /// The cards in the middle, in the order a renderer draws them.
    pub table: Vec<Pile>,
}

impl View {
    /// An empty table for `seats` seats seen by `viewer`: each seat's `cards`, face down for a
    /// seat other than the viewer.
    pub fn of_seats(
        seats: usize,
        viewer: Option<usize>,
        mut seat: impl FnMut(usize) -> (&'static str, Vec<u16>, String),
    ) -> View {
        let seats = (0..seats)
            .map(|p| {
                let (role, cards, score) = seat(p);
                SeatView { role, cards, hidden: viewer.is_some_and(|v| v != p), score }
            })
            .collect();
        View { seats, table: Vec::new() }
    }

    /// Add a pile of cards under `label`.
    pub fn pile(&mut self, label: impl Into<String>, cards: Vec<u16>, hidden: bool) {
        self.table.push(Pile { label: label.into(), cards, hidden });
    }
}

/// A state a front end can draw: the game's own [`View`] of it.
pub trait Viewed: GameState {
    /// The table as `viewer` sees it (`None`: an onlooker who sees every card). `viewer` must be
    /// a seat of the game (the bindings check it).
    fn view(&self, viewer: Option<usize>) -> View;
}
