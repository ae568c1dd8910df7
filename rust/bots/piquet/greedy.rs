//! [`Greedy`]: piquet's exact one-step player (`docs/rules/piquet.md`). Greedy looks
//! one decision ahead with exact expectations where the issue asks for them, and plays the
//! documented heuristic elsewhere. It uses only what the player to move knows.
//! [`Bot::action_values`] gives one value per legal action on the scale named below; `step`
//! plays the best (ties as stated).
//!
//! * **Exchange**: [`exact_exchange`](piquet::exact_exchange)'s expected totals (by
//!   [`exchange_totals`], its fast equal: the same values bit for bit in microseconds) over the
//!   player's 12 cards for his role, with the talon cards still available: the value of an
//!   exchange size is the best `expected_total` (point + sequences + sets + carte blanche, exact
//!   over every draw from the 20 unseen cards) of the discards of that size; `step` plays the
//!   size of the best row. The chosen discard is then
//!   laid away one card at a time, ascending, as the engine asks: a card's value is the best
//!   `expected_total` of the discards of that size that contain it and the cards already thrown
//!   and can still be completed above it. The rows are kept between the calls of one exchange.
//! * **Declarations** are the engine's (automatic). **Open capot** (russian): always announced
//!   (value 1, passing 0): a failed announcement costs nothing (rules §5) and an announcement
//!   keeps the opponent from announcing.
//! * **Play**: the trick heuristic of [`heuristic`](crate::eval::heuristic) — win with the cheapest
//!   winner, play the lowest card of a suit that cannot win (no high card wasted on a lost
//!   trick), throw from short suits keeping masters and guards, cash masters of the longest suit
//!   when leading, else lead low from the longest suit. Values are its preference scores
//!   ([`piquet_play_score`]), not points.

use crate::bots::basic::{best_of, not_a_decision};
use crate::bots::heuristic::{piquet_choose, piquet_play_score, PlayView};
use crate::bots::Bot;
use crate::engine::GameState;
use crate::error::Result;
use crate::piquet::{self, exchange_totals, ExchangeValue, Role, ANNOUNCE_CAPOT, EXCHANGE_BASE, PASS};
use crate::rng::Rng;

/// The greedy player of piquet (module docs).
#[derive(Debug, Clone, Default)]
pub struct Greedy {
    /// The exchange rows of the current exchange: (12 cards held before it, role, talon cards
    /// available, the rules: the key; rows).
    exchange: Option<(ExchangeKey, Vec<ExchangeValue>)>,
}

/// What the exchange rows depend on: the 12 cards held before it, the role, the talon cards
/// available and the rules.
type ExchangeKey = (u32, Role, u8, piquet::Rules);

impl Greedy {
    /// A greedy player.
    pub fn new() -> Greedy {
        Greedy::default()
    }
}

/// Can the discard `d` (a mask of `n` cards) still be made after `thrown` (ascending)? It holds
/// every thrown card and the rest lies above the highest of them.
fn completes(d: u32, n: usize, thrown: u32) -> bool {
    let above_last = if thrown == 0 { u32::MAX } else { !((2u32 << (31 - thrown.leading_zeros())).wrapping_sub(1)) };
    d.count_ones() as usize == n && d & thrown == thrown && d & !thrown & !above_last == 0
}

impl Greedy {
    /// The exchange rows for the player to move in an exchange (cached for its calls).
    fn exchange_rows(&mut self, state: &piquet::State) -> Result<&[ExchangeValue]> {
        let me = state.current_player().max(0) as usize & 1;
        let holding = state.hand(me).mask() | state.discards(me).mask();
        let role = if state.elder() == Some(me) { Role::Elder } else { Role::Dealer };
        let available = match role {
            Role::Elder => 5,
            Role::Dealer => 8 - state.exchange_size(me ^ 1).unwrap_or(0).min(5),
        };
        let key = (holding, role, available, *state.config().rules());
        if !matches!(&self.exchange, Some((k, _)) if *k == key) {
            self.exchange = None;
            let rows =
                exchange_totals(piquet::Hand::from_mask(holding), role, state.config().rules(), Some(available))?;
            self.exchange = Some((key, rows));
        }
        Ok(self.exchange.as_ref().map(|e| &e.1[..]).unwrap_or(&[]))
    }

    /// The exchange values of the legal actions (module docs), `None` if [`exchange_totals`]
    /// cannot analyse this exchange (rules under which the role may only decline here).
    fn exchange_values(&mut self, state: &piquet::State) -> Option<Vec<(u16, f64)>> {
        let me = state.current_player().max(0) as usize & 1;
        let thrown = state.discards(me).mask();
        let n = state.exchange_size(me).unwrap_or(0) as usize;
        let phase = state.phase();
        let legal = state.legal_actions();
        let rows = self.exchange_rows(state).ok()?;
        let value = |a: u16| -> f64 {
            let found = if phase == piquet::Phase::Exchange {
                let size = a.saturating_sub(EXCHANGE_BASE) as usize;
                rows.iter().find(|r| r.discard.len() == size)
            } else {
                let bit = 1u32 << (a & 31);
                rows.iter().find(|r| r.discard.mask() & bit != 0 && completes(r.discard.mask(), n, thrown | bit))
            };
            found.map_or(f64::NEG_INFINITY, |r| r.expected_total)
        };
        Some(legal.iter().map(|&a| (a, value(a))).collect())
    }

    fn piquet_values(&mut self, state: &piquet::State) -> Result<Vec<(u16, f64)>> {
        if state.current_player() < 0 {
            return Err(not_a_decision(state));
        }
        let legal = state.legal_actions();
        match state.phase() {
            piquet::Phase::Exchange | piquet::Phase::Discard => Ok(self.exchange_values(state).unwrap_or_else(|| {
                // Fallback: the heuristic's choice 1, the rest 0.
                let pick = piquet_choose(state, &legal);
                legal.iter().map(|&a| (a, (a == pick) as u8 as f64)).collect()
            })),
            piquet::Phase::Announce => {
                Ok(legal.iter().map(|&a| (a, if a == ANNOUNCE_CAPOT { 1.0 } else { 0.0 })).collect())
            }
            piquet::Phase::Play => {
                let view = PlayView::new(state);
                Ok(legal.iter().map(|&a| (a, piquet_play_score(&view, a as u8))).collect())
            }
            _ => Err(not_a_decision(state)),
        }
    }
}

impl Bot<piquet::State> for Greedy {
    fn step(&mut self, state: &piquet::State, _rng: &mut Rng) -> Result<u16> {
        if state.current_player() < 0 {
            return Err(not_a_decision(state));
        }
        let legal = state.legal_actions();
        let me = state.current_player() as usize & 1;
        match state.phase() {
            piquet::Phase::Exchange => {
                if let Ok(rows) = self.exchange_rows(state) {
                    let action = EXCHANGE_BASE + rows.first().map_or(0, |r| r.discard.len()) as u16;
                    if legal.contains(&action) {
                        return Ok(action);
                    }
                }
                return Ok(piquet_choose(state, &legal));
            }
            piquet::Phase::Discard => {
                let thrown = state.discards(me).mask();
                let n = state.exchange_size(me).unwrap_or(0) as usize;
                if let Ok(rows) = self.exchange_rows(state) {
                    // The best discard of this size that can still be made: its lowest card left.
                    if let Some(r) = rows.iter().find(|r| completes(r.discard.mask(), n, thrown)) {
                        let rest = r.discard.mask() & !thrown;
                        let card = rest.trailing_zeros() as u16;
                        if rest != 0 && legal.contains(&card) {
                            return Ok(card);
                        }
                    }
                }
                return Ok(piquet_choose(state, &legal));
            }
            piquet::Phase::Announce => {
                return Ok(if legal.contains(&ANNOUNCE_CAPOT) { ANNOUNCE_CAPOT } else { PASS });
            }
            _ => {}
        }
        let values = self.piquet_values(state)?;
        best_of(&values, |_| 0.0).ok_or_else(|| not_a_decision(state))
    }

    fn action_values(&mut self, state: &piquet::State, _rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        self.piquet_values(state)
    }

    fn restart(&mut self) {
        self.exchange = None;
    }

    fn name(&self) -> String {
        "greedy".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Game;
    use crate::piquet::{exact_exchange, Rules, Scope};

    fn pcard(text: &str) -> u16 {
        text.parse::<piquet::Card>().unwrap().id() as u16
    }

    /// A piquet deal to the play (russian, one deal): seat 0 draws 7C and deals; `elder` and
    /// `dealer` are dealt alternately, elder first; nobody exchanges; both pass the capot.
    fn piquet_play(elder: &str, dealer: &str) -> piquet::State {
        let game = piquet::GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
        let mut s = game.new_initial_state();
        s.apply_action(pcard("7C")).unwrap();
        s.apply_action(pcard("AC")).unwrap();
        let (e, d): (Vec<&str>, Vec<&str>) = (elder.split(' ').collect(), dealer.split(' ').collect());
        for i in 0..12 {
            s.apply_action(pcard(e[i])).unwrap();
            s.apply_action(pcard(d[i])).unwrap();
        }
        s.apply_action(EXCHANGE_BASE).unwrap();
        s.apply_action(EXCHANGE_BASE).unwrap();
        s.apply_action(PASS).unwrap();
        s.apply_action(PASS).unwrap();
        assert_eq!(s.phase(), piquet::Phase::Play);
        s
    }

    /// Elder leads the 9 of hearts; the dealer's 7H TH QH AH: the ten is the cheapest winner.
    /// Then the dealer leads: the ace of spades is a master of his longest suit, so he cashes it.
    #[test]
    fn piquet_cheapest_winner_then_a_master() {
        let elder = "9H 8H 7C 8C 9C TC 7D 8D 9D TD 7S 8S";
        let dealer = "7H TH QH AH AS KS QS JS TS 9S JC QC";
        let mut s = piquet_play(elder, dealer);
        assert_eq!(s.elder(), Some(1));
        s.apply_action(pcard("9H")).unwrap();
        let mut bot = Greedy::new();
        let mut rng = Rng::new(1);
        assert_eq!(bot.step(&s, &mut rng).unwrap(), pcard("TH"));
        let values = bot.action_values(&s, &mut rng).unwrap();
        assert_eq!(values.len(), 4); // suit must be followed
        s.apply_action(pcard("TH")).unwrap();
        assert_eq!(s.current_player(), 0);
        assert_eq!(bot.step(&s, &mut rng).unwrap(), pcard("AS"));
    }

    /// The exchange: greedy takes the size of exact_exchange's best row and throws its cards one
    /// by one, ascending; the values of the sizes are the best row of each size.
    #[test]
    fn piquet_exchange_follows_exact_exchange() {
        let game = piquet::GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
        let mut s = game.new_initial_state();
        s.apply_action(pcard("7C")).unwrap();
        s.apply_action(pcard("AC")).unwrap();
        // Elder (seat 1): a sixième of hearts and three aces, small clubs and diamonds.
        let e: Vec<&str> = "AH KH QH JH TH 9H AD AS AC 7C 8C 7D".split(' ').collect();
        let d: Vec<&str> = "8H 7H KC QC JC TC 9C KD QD JD TD 9D".split(' ').collect();
        for i in 0..12 {
            s.apply_action(pcard(e[i])).unwrap();
            s.apply_action(pcard(d[i])).unwrap();
        }
        let mut bot = Greedy::new();
        let mut rng = Rng::new(2);
        let hand = s.hand(1);
        let rows = exact_exchange(hand, Role::Elder, &Rules::russian(), Some(5)).unwrap();
        let values = bot.action_values(&s, &mut rng).unwrap();
        assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), [32, 35, 36, 37]);
        for &(a, v) in &values {
            let n = (a - EXCHANGE_BASE) as usize;
            let best = rows.iter().filter(|r| r.discard.len() == n).map(|r| r.expected_total).fold(f64::MIN, f64::max);
            assert_eq!(v, best);
        }
        let size = bot.step(&s, &mut rng).unwrap();
        assert_eq!(size, EXCHANGE_BASE + rows[0].discard.len() as u16);
        s.apply_action(size).unwrap();
        let mut thrown = piquet::Hand::new();
        while s.phase() == piquet::Phase::Discard {
            let c = bot.step(&s, &mut rng).unwrap();
            let v = bot.action_values(&s, &mut rng).unwrap();
            let best = v.iter().map(|x| x.1).fold(f64::MIN, f64::max);
            assert_eq!(v.iter().find(|x| x.0 == c).unwrap().1, best);
            s.apply_action(c).unwrap();
            thrown = thrown.with(piquet::Card::from_id(c as i64).unwrap());
        }
        assert_eq!(thrown, rows[0].discard);
    }

    /// Piquet play and announcements at random states of both rule sets (exchanges made at
    /// random, since the exact exchange is slow in a debug build): legal, covered, best valued.
    #[test]
    fn piquet_random_play_states_legal_and_covered() {
        let mut rng = Rng::new(9);
        for rules in [Rules::russian(), Rules::rubicon()] {
            let game = piquet::GameConfig::new(rules, Scope::Partiya).unwrap();
            let mut state = game.new_initial_state();
            let mut bot = Greedy::new();
            let mut decisions = 0;
            while decisions < 300 {
                if state.is_terminal() {
                    state = game.new_initial_state();
                }
                let legal = state.legal_actions();
                if matches!(state.phase(), piquet::Phase::Play | piquet::Phase::Announce) {
                    decisions += 1;
                    let a = bot.step(&state, &mut rng).unwrap();
                    assert!(legal.contains(&a), "{state}");
                    let values = bot.action_values(&state, &mut rng).unwrap();
                    assert_eq!(values.iter().map(|x| x.0).collect::<Vec<_>>(), legal.to_vec());
                    let best = values.iter().map(|x| x.1).fold(f64::MIN, f64::max);
                    assert_eq!(values.iter().find(|x| x.0 == a).unwrap().1, best, "{state}");
                }
                let a = legal[rng.below(legal.len() as u32) as usize];
                state.apply_action(a).unwrap();
            }
        }
    }

    /// The dealer's exchange under both rule sets (elder took five, three cards left), Greedy
    /// now running on `exchange_totals`: its size values are exact_exchange's best totals of
    /// each size bit for bit, it plays the size of exact_exchange's first row and then throws
    /// that row's cards.
    #[test]
    fn piquet_dealer_exchange_equals_exact_exchange() {
        for (k, rules) in [Rules::russian(), Rules::rubicon()].into_iter().enumerate() {
            for seed in 0..3 {
                let game = piquet::GameConfig::new(rules, Scope::Deal).unwrap();
                let mut s = game.new_initial_state();
                let mut rng = Rng::new(10 * k as u64 + seed);
                s.apply_sampled_chances(&mut rng);
                s.apply_action(EXCHANGE_BASE + 5).unwrap();
                while s.phase() == piquet::Phase::Discard || s.is_chance_node() {
                    let legal = s.legal_actions();
                    s.apply_action(legal[0]).unwrap();
                }
                let me = s.current_player() as usize;
                assert_eq!(s.dealer(), Some(me));
                let rows = exact_exchange(s.hand(me), Role::Dealer, &rules, Some(3)).unwrap();
                let mut bot = Greedy::new();
                for (a, v) in bot.action_values(&s, &mut rng).unwrap() {
                    let n = (a - EXCHANGE_BASE) as usize;
                    let best =
                        rows.iter().filter(|r| r.discard.len() == n).map(|r| r.expected_total).fold(f64::MIN, f64::max);
                    assert_eq!(v.to_bits(), best.to_bits());
                }
                let size = bot.step(&s, &mut rng).unwrap();
                assert_eq!(size, EXCHANGE_BASE + rows[0].discard.len() as u16);
                s.apply_action(size).unwrap();
                let mut thrown = 0u32;
                while s.phase() == piquet::Phase::Discard {
                    let c = bot.step(&s, &mut rng).unwrap();
                    s.apply_action(c).unwrap();
                    thrown |= 1 << c;
                }
                assert_eq!(thrown, rows[0].discard.mask());
            }
        }
    }

    /// Rules under which the dealer may only decline after elder took five (exact_exchange has
    /// nothing to analyse): greedy declines, with value 1 for the only action.
    #[test]
    fn piquet_exchange_with_only_declining_left() {
        let mut rules = Rules::russian();
        rules.dealer_exchange = piquet::ExchangeLimits { min: 4, max: 5, may_decline: true };
        let game = piquet::GameConfig::new(rules, Scope::Deal).unwrap();
        let mut s = game.new_initial_state();
        let mut rng = Rng::new(4);
        s.apply_sampled_chances(&mut rng);
        s.apply_action(EXCHANGE_BASE + 5).unwrap();
        while s.phase() == piquet::Phase::Discard || s.is_chance_node() {
            let legal = s.legal_actions();
            s.apply_action(legal[0]).unwrap();
        }
        assert_eq!(s.phase(), piquet::Phase::Exchange);
        assert_eq!(s.legal_actions().to_vec(), [EXCHANGE_BASE]);
        let mut bot = Greedy::new();
        assert_eq!(bot.step(&s, &mut rng).unwrap(), EXCHANGE_BASE);
        assert_eq!(bot.action_values(&s, &mut rng).unwrap(), [(EXCHANGE_BASE, 1.0)]);
    }

    #[test]
    fn completes_requires_the_rest_above_the_last_thrown_card() {
        assert!(completes(0b1011, 3, 0));
        assert!(completes(0b1011, 3, 0b0001));
        assert!(completes(0b1011, 3, 0b0011));
        assert!(!completes(0b1011, 3, 0b0010)); // the 0 bit lies below the thrown 1 bit
        assert!(!completes(0b1011, 2, 0));
        assert!(!completes(0b1011, 3, 0b0100));
        assert!(completes(1 << 31 | 1, 2, 1 << 31 | 1));
    }
}
