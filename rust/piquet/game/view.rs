//! The piquet table as a front end draws it ([`Viewed`]): each seat's hand, elder and the
//! dealer, this deal's points and tricks; on the table the trick in progress (its lead).

use super::State;
use crate::engine::{GameState, View, Viewed};

impl Viewed for State {
    fn view(&self, viewer: Option<usize>) -> View {
        let (elder, dealer) = (self.elder(), self.dealer());
        let (deal, tricks) = (self.deal_scores(), self.tricks_won());
        let mut view = View::of_seats(2, viewer, |p| {
            let role = if elder == Some(p) {
                "elder"
            } else if dealer == Some(p) {
                "dealer"
            } else {
                ""
            };
            let cards = self.hand(p).iter().map(|c| c.id() as u16).collect();
            (role, cards, format!("{} this deal, {} tricks", deal[p], tricks[p]))
        });
        let laid = self.plays().count();
        for (seat, card) in self.plays().skip(laid & !1) {
            view.pile(format!("led by seat {seat}"), vec![card as u16], false);
        }
        view
    }
}
