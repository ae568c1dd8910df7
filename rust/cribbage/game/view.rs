//! The cribbage table as a front end draws it ([`Viewed`]): each seat's hand, the dealer (and
//! pone in the two-player games), the score; on the table the starter, the crib (face down for
//! a seat: nobody sees it before the show) and, in the play, the count with its cards.

use super::{Phase, State};
use crate::cribbage::Hand;
use crate::engine::{GameState, View, Viewed};

fn ids(hand: Hand) -> Vec<u16> {
    hand.iter().map(|c| c.id() as u16).collect()
}

impl Viewed for State {
    fn view(&self, viewer: Option<usize>) -> View {
        let (n, dealer, scores) = (self.num_players(), self.dealer(), self.scores());
        let mut view = View::of_seats(n, viewer, |p| {
            let role = match dealer {
                Some(d) if d == p => "dealer",
                Some(_) if n == 2 => "pone",
                _ => "",
            };
            (role, ids(self.hand(p)), format!("{} points", scores[p]))
        });
        if let Some(starter) = self.starter() {
            view.pile("starter", vec![starter.id() as u16], false);
        }
        if self.phase() == Phase::Play {
            let count = self.current_sequence().iter().map(|c| c.id() as u16).collect();
            view.pile(format!("count {}", self.count()), count, false);
        }
        let crib = self.crib();
        if !crib.is_empty() {
            view.pile("crib", ids(crib), viewer.is_some());
        }
        view
    }
}
