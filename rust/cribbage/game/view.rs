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

#[cfg(test)]
mod tests {
    use crate::cribbage::{GameConfig, Phase, Variant};
    use crate::engine::{Game, GameState, Viewed};
    use crate::rng::Rng;

    /// Every seat's cards are its hand, face down only for another viewer; the table holds the
    /// starter once turned, the count's cards in the play and the crib (face down for a seat).
    #[test]
    fn the_view_follows_the_state() {
        for variant in [Variant::FiveCard, Variant::SixCard, Variant::FourPlayer] {
            let mut rng = Rng::new(5);
            let mut state = GameConfig::new(variant, None).unwrap().new_initial_state();
            while !state.is_terminal() {
                for viewer in [None, Some(0), Some(1)] {
                    let view = state.view(viewer);
                    assert_eq!(view.seats.len(), state.num_players());
                    for (p, seat) in view.seats.iter().enumerate() {
                        let hand: Vec<u16> = state.hand(p).iter().map(|c| c.id() as u16).collect();
                        assert_eq!(seat.cards, hand);
                        assert_eq!(seat.hidden, viewer.is_some_and(|v| v != p));
                        assert_eq!(seat.role == "dealer", state.dealer() == Some(p));
                    }
                    let pile = |label: &str| view.table.iter().find(|p| p.label.starts_with(label));
                    assert_eq!(pile("starter").map(|p| p.cards[0]), state.starter().map(|c| c.id() as u16));
                    let count = pile("count").map(|p| (p.label.clone(), p.cards.len()));
                    let want = (state.phase() == Phase::Play)
                        .then(|| (format!("count {}", state.count()), state.current_sequence().len()));
                    assert_eq!(count, want);
                    let crib = pile("crib");
                    assert_eq!(crib.map_or(0, |p| p.cards.len()), state.crib().len());
                    assert!(crib.is_none_or(|p| p.hidden == viewer.is_some()));
                }
                let legal = state.legal_actions();
                state.apply_action(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            }
        }
    }
}
