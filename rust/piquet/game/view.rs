//! The piquet table as a front end draws it ([`Viewed`]): each seat's hand, elder and the
//! dealer, this deal's points and tricks; on the table the trick in progress (its lead), or
//! between two tricks the last one.

use super::{Phase, State};
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
        if laid > 0 && laid % 2 == 0 && self.phase() == Phase::Play {
            view.pile("last trick", self.plays().skip(laid - 2).map(|(_, c)| c as u16).collect(), false);
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Game, GameState, Viewed};
    use crate::piquet::GameConfig;
    use crate::rng::Rng;

    /// Every seat's cards are its hand, face down only for another viewer; the table holds the
    /// lead of the trick in progress, or the last trick between two.
    #[test]
    fn the_view_follows_the_state() {
        let mut rng = Rng::new(3);
        let mut state = GameConfig::default().new_initial_state();
        let mut piles_seen = 0;
        while !state.is_terminal() {
            for viewer in [None, Some(0), Some(1)] {
                let view = state.view(viewer);
                for (p, seat) in view.seats.iter().enumerate() {
                    let hand: Vec<u16> = state.hand(p).iter().map(|c| c.id() as u16).collect();
                    assert_eq!(seat.cards, hand);
                    assert_eq!(seat.hidden, viewer.is_some_and(|v| v != p));
                    assert_eq!(seat.role == "elder", state.elder() == Some(p));
                }
                let plays: Vec<(usize, u8)> = state.plays().collect();
                let want = match plays.len() {
                    0 => vec![],
                    n if n % 2 == 1 => vec![plays[n - 1].1 as u16],
                    n => vec![plays[n - 2].1 as u16, plays[n - 1].1 as u16],
                };
                let shown: Vec<u16> = view.table.iter().flat_map(|p| p.cards.clone()).collect();
                if state.phase() == super::Phase::Play || plays.len() % 2 == 1 {
                    assert_eq!(shown, want);
                }
                piles_seen += view.table.len();
            }
            let legal = state.legal_actions();
            state.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
        assert!(piles_seen > 0);
    }
}
