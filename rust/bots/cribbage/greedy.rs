//! [`Greedy`]: cribbage's exact one-step player (`docs/rules/cribbage.md`). Greedy looks
//! one decision ahead with exact expectations where the issue asks for them, and plays the
//! documented heuristic elsewhere. It uses only what the player to move knows.
//! [`Bot::action_values`] gives one value per legal action on the scale named below; `step`
//! plays the best (ties as stated).
//!
//! * **Discard, two players** (five- and six-card): [`analyze_discard`] with
//!   [`Opponent::Uniform`]: each discard's value is its `net`, the exact expected hand over
//!   every unseen starter plus (the player deals) or minus (he does not) the exact expected crib
//!   over every starter and every pair of unseen cards the opponent may throw, all equally
//!   likely, and the dealer's expected heels (the same for every discard). `step` plays the
//!   first row of [`analyze_discard`] (ties: the better hand, then the lower pair action).
//! * **Discard, three and four players** (one card each): the same quantities, exact, by this
//!   module ([`multi_discard_values`]): the hand over the 47 unseen starters; the crib is the
//!   thrown card plus three unseen cards (the others' throws and, with three players, the card
//!   from the pack), every three of the 47 equally likely, and the starter one of the other 44
//!   — the fifteens, pairs and runs summed over rank triples and the starter's rank with their
//!   card counts, the flush and nobs from exact counts. The crib and heels are added when the
//!   player's side deals, subtracted otherwise (with three players the crib then belongs to one
//!   of the two opponents).
//! * **Pegging**: each card's value is the points it pegs now (fifteen, 31, pairs, runs) minus
//!   the expected best reply of the next player to lay, if he is an opponent (plus it, if he is
//!   the partner): over his `h` cards drawn uniformly from the cards the player has not seen,
//!   the expectation of the most any of them pegs on top of ours (0 when none fits). Go (when
//!   forced) is worth 0. Ties go to the higher card (the low ones are kept for the go).
//!
//! ```
//! use cribpiquet::bots::{cribbage::Greedy, Bot};
//! use cribpiquet::cribbage::{GameConfig, Variant};
//! use cribpiquet::engine::{Game, GameState};
//! use cribpiquet::rng::Rng;
//!
//! let mut state = GameConfig::new(Variant::SixCard, None).unwrap().new_initial_state();
//! let mut rng = Rng::new(3);
//! state.apply_sampled_chances(&mut rng); // cut and deal: the pone discards first
//! let mut bot = Greedy::new();
//! let values = bot.action_values(&state, &mut rng).unwrap();
//! assert_eq!(values.len(), 15);
//! let action = bot.step(&state, &mut rng).unwrap();
//! let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
//! assert_eq!(values.iter().find(|v| v.0 == action).unwrap().1, best);
//! ```

use crate::bots::basic::{best_of, not_a_decision};
use crate::bots::heuristic::{cribbage_unseen, next_to_lay, peg_after};
use crate::bots::Bot;
use crate::cribbage::{self, analyze_discard, pair_action, rank_points, Opponent, GO};
use crate::engine::GameState;
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The greedy player of cribbage (module docs). It keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

impl Greedy {
    /// A greedy player.
    pub fn new() -> Greedy {
        Greedy
    }
}

/// The cribbage card of a card id (`suit * 13 + rank`, < 52).
fn crib_card(id: u16) -> cribbage::Card {
    cribbage::Card::from_index(cribbage::id_to_index(id.min(51)))
}

/// `C(n, k)` as a float (0 when `k > n`).
fn choose(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Fifteens, pairs and runs of five ranks at `(((a·13 + b)·13 + c)·13 + d)·13 + e`, any order
/// (built once from [`rank_points`] of the 6,175 sorted multisets).
fn five_rank_table() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let digits = |i: usize| [i / 28561, i / 2197 % 13, i / 169 % 13, i / 13 % 13, i % 13].map(|d| d as u8);
        let index = |r: &[u8; 5]| r.iter().fold(0usize, |acc, &d| acc * 13 + d as usize);
        let mut t = vec![0u8; 13usize.pow(5)];
        // Ascending `i`: an index's sorted form (its smallest arrangement) comes first.
        for i in 0..t.len() {
            let mut r = digits(i);
            r.sort_unstable();
            let sorted = index(&r);
            t[i] = if sorted == i { rank_points(&r).total() } else { t[sorted] };
        }
        t
    })
}

/// The three- and four-player discard values (module docs): for each card of `hand` (5 cards),
/// `(card, expected hand, expected crib, expected heels)`, exact under the uniform model.
///
/// ```
/// use cribpiquet::bots::cribbage::multi_discard_values;
/// let rows = multi_discard_values("5C 5D 5H JS KC".parse().unwrap()).unwrap();
/// assert_eq!(rows.len(), 5);
/// // Throwing the king keeps 5 5 5 J: 14 before the starter.
/// let king = rows.iter().find(|r| r.0.to_string() == "KC").unwrap();
/// assert!(king.1 > 14.0);
/// ```
pub fn multi_discard_values(hand: cribbage::Hand) -> Result<Vec<(cribbage::Card, f64, f64, f64)>> {
    if hand.len() != 5 {
        return Err(Error::WrongCardCount { what: "hand", expected: "5", got: hand.len() });
    }
    let unseen = cribbage::FULL_PACK & !hand.mask();
    let u = unseen.count_ones(); // 47
    let mut counts = [0u32; 13];
    let mut suit_counts = [0u32; 4];
    let mut m = unseen;
    while m != 0 {
        let i = m.trailing_zeros();
        counts[(i & 15) as usize] += 1;
        suit_counts[(i >> 4) as usize] += 1;
        m &= m - 1;
    }
    let triples = choose(u, 3);
    let total = triples * (u - 3) as f64;
    let unseen_jacks: Vec<u32> = (0..4).filter(|s| unseen >> (s * 16 + 10) & 1 == 1).collect();
    let heels = 2.0 * unseen_jacks.len() as f64 / u as f64;
    let mut rows = Vec::with_capacity(5);
    for d in hand.iter() {
        let mut kept = hand;
        kept.remove(d);
        // The hand over every unseen starter.
        let mut hand_sum = 0.0;
        let mut m = unseen;
        while m != 0 {
            let s = cribbage::Card::from_index(m.trailing_zeros());
            hand_sum += cribbage::score_show_unchecked(kept, s, false) as f64;
            m &= m - 1;
        }
        // The crib's fifteens, pairs and runs over rank triples x <= y <= z and the starter.
        let table = five_rank_table();
        let mut rank_sum = 0.0;
        let c = &counts;
        for x in 0..13usize {
            for y in x..13 {
                for z in y..13 {
                    // Ways to pick the triple's cards from the unseen counts.
                    let mut w = 1.0;
                    let mut used = [0u32; 13];
                    for r in [x, y, z] {
                        w *= c[r].saturating_sub(used[r]) as f64 / (used[r] + 1) as f64;
                        used[r] += 1;
                    }
                    if w == 0.0 {
                        continue;
                    }
                    let base = (((d.rank() as usize * 13 + x) * 13 + y) * 13 + z) * 13;
                    let mut inner = 0u32;
                    for s in 0..13usize {
                        inner += c[s].saturating_sub(used[s]) * table[base + s] as u32;
                    }
                    rank_sum += w * inner as f64;
                }
            }
        }
        // The crib flush: the three others and the starter all of the thrown card's suit.
        let k = suit_counts[d.suit() as usize];
        let flush = 5.0 * choose(k, 3) * k.saturating_sub(3) as f64 / total;
        // Nobs: the thrown jack with a starter of its suit; an unseen jack in the crib with a
        // starter of its suit (other than itself).
        let mut nobs = 0.0;
        if d.is_jack() {
            nobs += k as f64 / u as f64;
        }
        for &s in &unseen_jacks {
            let kj = suit_counts[s as usize];
            nobs += 3.0 * (kj - 1) as f64 / (u as f64 * (u - 1) as f64);
        }
        rows.push((d, hand_sum / u as f64, rank_sum / total + flush + nobs, heels));
    }
    Ok(rows)
}

/// The pegging look-ahead value of laying `card` (module docs).
fn peg_value(state: &cribbage::State, player: usize, unseen: u64, card: cribbage::Card) -> f64 {
    let seq = state.current_sequence();
    let now = peg_after(seq, card) as f64;
    let Some(next) = next_to_lay(state, player) else {
        return now;
    };
    let h = state.hand(next).len() as u32;
    let u = unseen.count_ones();
    if h == 0 || u == 0 {
        return now;
    }
    let h = h.min(u);
    let count = state.count() as u32 + card.pips() as u32;
    let mut buf = [card; 14];
    let n = seq.len().min(12);
    buf[..n].copy_from_slice(&seq[..n]);
    buf[n] = card;
    let seq2 = &buf[..=n];
    // Cards by the points they peg in reply (non-fitting cards peg 0).
    let mut by_points = [0u32; 32];
    let mut m = unseen;
    while m != 0 {
        let x = cribbage::Card::from_index(m.trailing_zeros());
        m &= m - 1;
        if count + x.pips() as u32 <= 31 {
            by_points[peg_after(seq2, x).min(31) as usize] += 1;
        }
    }
    // E[max] over a uniform h-subset: P(max >= v) = 1 − C(u − above_or_at(v), h) / C(u, h).
    let all = choose(u, h);
    let mut reply = 0.0;
    let mut higher = 0;
    for v in (1..32).rev() {
        let b = by_points[v];
        if b == 0 {
            continue;
        }
        let p = (choose(u - higher, h) - choose(u - higher - b, h)) / all;
        reply += v as f64 * p;
        higher += b;
    }
    if state.side_of(next) == state.side_of(player) {
        now + reply
    } else {
        now - reply
    }
}

fn cribbage_values(state: &cribbage::State) -> Result<Vec<(u16, f64)>> {
    if state.current_player() < 0 {
        return Err(not_a_decision(state));
    }
    let p = state.current_player() as usize;
    let legal = state.legal_actions();
    match state.phase() {
        cribbage::Phase::Discard => {
            let hand = state.hand(p);
            let deals = state.dealer().is_some_and(|d| state.side_of(d) == state.side_of(p));
            if state.variant().discards() == 2 {
                let rows = analyze_discard(hand, deals, state.variant(), Opponent::Uniform)?;
                let mut values: Vec<(u16, f64)> = rows
                    .iter()
                    .filter_map(|r| {
                        let mut it = r.thrown.iter();
                        let (a, b) = (it.next()?, it.next()?);
                        Some((pair_action(a.id() as u16, b.id() as u16)?, r.net))
                    })
                    .collect();
                values.sort_by_key(|v| v.0);
                Ok(values)
            } else {
                let sign = if deals { 1.0 } else { -1.0 };
                let mut values: Vec<(u16, f64)> = multi_discard_values(hand)?
                    .into_iter()
                    .map(|(c, h, crib, heels)| (c.id() as u16, h + sign * (crib + heels)))
                    .collect();
                values.sort_by_key(|v| v.0);
                Ok(values)
            }
        }
        cribbage::Phase::Play => {
            if legal[..] == [GO] {
                return Ok(vec![(GO, 0.0)]);
            }
            let unseen = cribbage_unseen(state, p);
            Ok(legal.iter().map(|&a| (a, peg_value(state, p, unseen, crib_card(a)))).collect())
        }
        _ => Err(not_a_decision(state)),
    }
}

impl Bot<cribbage::State> for Greedy {
    fn step(&mut self, state: &cribbage::State, _rng: &mut Rng) -> Result<u16> {
        if state.phase() == cribbage::Phase::Discard && state.variant().discards() == 2 && state.current_player() >= 0 {
            // The first row of analyze_discard (its documented tie order).
            let p = state.current_player() as usize;
            let deals = state.dealer().is_some_and(|d| state.side_of(d) == state.side_of(p));
            let rows = analyze_discard(state.hand(p), deals, state.variant(), Opponent::Uniform)?;
            let thrown = rows.first().map(|r| r.thrown).unwrap_or_default();
            let mut it = thrown.iter();
            if let (Some(a), Some(b)) = (it.next(), it.next()) {
                if let Some(action) = pair_action(a.id() as u16, b.id() as u16) {
                    return Ok(action);
                }
            }
        }
        let values = cribbage_values(state)?;
        best_of(&values, |a| if a < 52 { crib_card(a).pips() as f64 } else { 0.0 }).ok_or_else(|| not_a_decision(state))
    }

    fn action_values(&mut self, state: &cribbage::State, _rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        cribbage_values(state)
    }

    fn name(&self) -> String {
        "greedy".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cribbage::Variant;
    use crate::engine::{ActionList, Game};

    fn ccard(text: &str) -> u16 {
        text.parse::<cribbage::Card>().unwrap().id() as u16
    }

    /// A six-card deal to the play: P0 cuts AC and P1 KC (P0 deals), then `p1` and `p0` dealt
    /// alternately from P1, the discards, the starter.
    fn six_card_play(p0: &str, p1: &str, throw0: (&str, &str), throw1: (&str, &str), starter: &str) -> cribbage::State {
        let mut s = cribbage::GameConfig::new(Variant::SixCard, None).unwrap().new_initial_state();
        s.apply_action(ccard("AC")).unwrap();
        s.apply_action(ccard("KC")).unwrap();
        let (h0, h1): (Vec<&str>, Vec<&str>) = (p0.split(' ').collect(), p1.split(' ').collect());
        for i in 0..6 {
            s.apply_action(ccard(h1[i])).unwrap();
            s.apply_action(ccard(h0[i])).unwrap();
        }
        s.apply_action(pair_action(ccard(throw1.0), ccard(throw1.1)).unwrap()).unwrap();
        s.apply_action(pair_action(ccard(throw0.0), ccard(throw0.1)).unwrap()).unwrap();
        s.apply_action(ccard(starter)).unwrap();
        assert_eq!(s.phase(), cribbage::Phase::Play);
        s
    }

    /// E[max points of a reply] by brute force over every `h`-subset of the unseen cards.
    fn brute_reply(state: &cribbage::State, card: u16, unseen: u64, h: usize) -> f64 {
        let cards: Vec<cribbage::Card> = cribbage::Hand::from_mask(unseen).unwrap().iter().collect();
        let c = crib_card(card);
        let mut seq: Vec<cribbage::Card> = state.current_sequence().to_vec();
        seq.push(c);
        let count: u32 = seq.iter().map(|x| x.pips() as u32).sum();
        let pts = |x: cribbage::Card| -> f64 {
            if count + x.pips() as u32 > 31 {
                return 0.0;
            }
            let mut s2 = seq.clone();
            s2.push(x);
            cribbage::peg_points(&s2).unwrap() as f64
        };
        let (mut sum, mut n) = (0.0, 0.0);
        let mut idx: Vec<usize> = (0..h).collect();
        loop {
            sum += idx.iter().map(|&i| pts(cards[i])).fold(0.0, f64::max);
            n += 1.0;
            let Some(i) = (0..h).rev().find(|&i| idx[i] < cards.len() - h + i) else { break };
            idx[i] += 1;
            for j in i + 1..h {
                idx[j] = idx[j - 1] + 1;
            }
        }
        sum / n
    }

    /// P1 leads the king (count 10); P0 holds 5C 9S 8S 7C: the five makes fifteen (2) and is
    /// played; every value is 2 or 0 now minus the reply's expectation, checked by brute force
    /// over every three cards P1 may hold among the 41 P0 has not seen.
    #[test]
    fn pegging_takes_the_fifteen_and_values_match_brute_force() {
        let mut s = six_card_play("5C 9S 8S 7C AD 2D", "KD 4H 6H 3S QC JC", ("AD", "2D"), ("QC", "JC"), "6D");
        s.apply_action(ccard("KD")).unwrap();
        let mut bot = Greedy::new();
        let mut rng = Rng::new(1);
        let values = bot.action_values(&s, &mut rng).unwrap();
        assert_eq!(
            values.iter().map(|v| v.0).collect::<Vec<_>>(),
            [ccard("5C"), ccard("7C"), ccard("8S"), ccard("9S")]
        );
        assert_eq!(bot.step(&s, &mut rng).unwrap(), ccard("5C"));
        let unseen = cribbage_unseen(&s, 0);
        assert_eq!(unseen.count_ones(), 52 - 6 - 1 - 1);
        for &(a, v) in &values {
            let now = if a == ccard("5C") { 2.0 } else { 0.0 };
            let expected = now - brute_reply(&s, a, unseen, 3);
            assert!((v - expected).abs() < 1e-9, "{a}: {v} vs {expected}");
        }
    }

    /// The three- and four-player discard values against a brute-force enumeration of every
    /// starter and every three crib cards (one hand; the sums are exact, so equal to 1e-9).
    #[test]
    fn multi_discard_values_equal_brute_force() {
        let hand: cribbage::Hand = "5C JD 6H 4H KS".parse().unwrap();
        let rows = multi_discard_values(hand).unwrap();
        let unseen: Vec<cribbage::Card> = cribbage::Card::all().filter(|c| !hand.contains(*c)).collect();
        let u = unseen.len();
        for &(d, h, crib, heels) in &rows {
            let mut kept = hand;
            kept.remove(d);
            let hsum: f64 = unseen.iter().map(|&s| cribbage::score_hand(kept, s).unwrap() as f64).sum();
            assert!((h - hsum / u as f64).abs() < 1e-9);
            // Cribs: a 4-subset Q of the unseen cards with one of them as the starter.
            let (mut sum, mut n) = (0.0, 0.0);
            for i in 0..u {
                for j in i + 1..u {
                    for k in j + 1..u {
                        let crib = cribbage::Hand::new().with(d).with(unseen[i]).with(unseen[j]).with(unseen[k]);
                        for (l, &s) in unseen.iter().enumerate() {
                            if l != i && l != j && l != k {
                                sum += cribbage::score_crib(crib, s).unwrap() as f64;
                                n += 1.0;
                            }
                        }
                    }
                }
            }
            assert!((crib - sum / n).abs() < 1e-9, "{d}: {crib} vs {}", sum / n);
            assert!((heels - 2.0 * 3.0 / 47.0).abs() < 1e-12); // JD is ours: three jacks unseen
        }
    }

    /// Random states of every cribbage variant: step is legal, action_values covers exactly the
    /// legal actions, ascending, and step's action has the best value.
    #[test]
    fn cribbage_random_states_legal_and_covered() {
        let mut rng = Rng::new(7);
        for v in Variant::ALL {
            let game = cribbage::GameConfig::new(v, None).unwrap();
            let mut state = game.new_initial_state();
            let mut legal = ActionList::new();
            let mut decisions = 0;
            let mut bot = Greedy::new();
            while decisions < 150 {
                if state.is_terminal() {
                    state = game.new_initial_state();
                }
                state.fill_legal_actions(&mut legal);
                if !state.is_chance_node() {
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
        let start = cribbage::GameConfig::default().new_initial_state();
        assert!(Bot::step(&mut Greedy::new(), &start, &mut rng).is_err());
    }
}
