//! Property tests of the cribbage core against a deliberately naive scorer written here.

use proptest::prelude::*;

use super::*;

/// The show by definition: every subset for fifteens, every two cards for pairs, every subset of
/// the longest run length for runs; flush and nobs straight from the rules (cribbage.md §2).
fn naive_show(hand: &[Card], starter: Card, crib: bool) -> u32 {
    let mut cards = hand.to_vec();
    cards.push(starter);
    let n = cards.len();
    let mut points = 0;
    let mut runs_by_len = [0u32; 6];
    for subset in 1u32..(1 << n) {
        let chosen: Vec<Card> = (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| cards[i]).collect();
        if chosen.len() >= 2 && chosen.iter().map(|c| c.pips() as u32).sum::<u32>() == 15 {
            points += 2;
        }
        if chosen.len() == 2 && chosen[0].rank() == chosen[1].rank() {
            points += 2;
        }
        if chosen.len() >= 3 {
            let mut ranks: Vec<u8> = chosen.iter().map(|c| c.rank()).collect();
            ranks.sort();
            if ranks.windows(2).all(|w| w[1] == w[0] + 1) {
                runs_by_len[chosen.len()] += 1;
            }
        }
    }
    if let Some(len) = (3..6).rev().find(|&l| runs_by_len[l] > 0) {
        points += len as u32 * runs_by_len[len];
    }
    let same_suit = hand.iter().all(|c| c.suit() == hand[0].suit());
    let starter_too = starter.suit() == hand[0].suit();
    if crib {
        if same_suit && starter_too {
            points += 5;
        }
    } else if same_suit {
        points += hand.len() as u32 + starter_too as u32;
    }
    if hand.iter().any(|c| c.is_jack() && c.suit() == starter.suit()) {
        points += 1;
    }
    points
}

/// Pegging by definition (cribbage.md §3).
fn naive_peg(seq: &[Card]) -> u32 {
    let count: u32 = seq.iter().map(|c| c.pips() as u32).sum();
    let mut points = if count == 15 || count == 31 { 2 } else { 0 };
    let last = seq[seq.len() - 1].rank();
    let same = seq.iter().rev().take_while(|c| c.rank() == last).count() as u32;
    points += match same {
        2 => 2,
        3 => 6,
        4 => 12,
        _ => 0,
    };
    for k in (3..=seq.len()).rev() {
        let mut ranks: Vec<u8> = seq[seq.len() - k..].iter().map(|c| c.rank()).collect();
        ranks.sort();
        if ranks.windows(2).all(|w| w[1] == w[0] + 1) {
            points += k as u32;
            break;
        }
    }
    points
}

/// `k` distinct random cards.
fn distinct_cards(k: usize) -> impl Strategy<Value = Vec<Card>> {
    Just((0..52i64).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(move |ids| ids[..k].iter().map(|&id| Card::from_id(id).unwrap()).collect())
}

/// A legal pegging sequence: shuffled cards laid while the count stays <= 31.
fn peg_sequence() -> impl Strategy<Value = Vec<Card>> {
    (distinct_cards(13), 1usize..=13).prop_map(|(cards, want)| {
        let mut count = 0;
        let seq: Vec<Card> = cards
            .into_iter()
            .take_while(|c| {
                count += c.pips() as u32;
                count <= 31
            })
            .collect();
        seq[..want.min(seq.len())].to_vec()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn hand_matches_naive(cards in distinct_cards(5)) {
        let hand = Hand::from_cards(cards[..4].iter().copied()).unwrap();
        let b = explain_hand(hand, cards[4]).unwrap();
        prop_assert_eq!(score_hand(hand, cards[4]).unwrap() as u32, naive_show(&cards[..4], cards[4], false));
        prop_assert_eq!(b.total(), score_hand(hand, cards[4]).unwrap());
    }

    #[test]
    fn crib_matches_naive(cards in distinct_cards(5)) {
        let crib = Hand::from_cards(cards[..4].iter().copied()).unwrap();
        prop_assert_eq!(score_crib(crib, cards[4]).unwrap() as u32, naive_show(&cards[..4], cards[4], true));
        prop_assert_eq!(explain_crib(crib, cards[4]).unwrap().total(), score_crib(crib, cards[4]).unwrap());
    }

    #[test]
    fn five_card_hand_matches_naive(cards in distinct_cards(4)) {
        let hand = Hand::from_cards(cards[..3].iter().copied()).unwrap();
        prop_assert_eq!(score_hand(hand, cards[3]).unwrap() as u32, naive_show(&cards[..3], cards[3], false));
        prop_assert_eq!(explain_hand(hand, cards[3]).unwrap().total(), score_hand(hand, cards[3]).unwrap());
    }

    #[test]
    fn peg_matches_naive(seq in peg_sequence()) {
        prop_assert_eq!(peg_points(&seq).unwrap() as u32, naive_peg(&seq));
        prop_assert_eq!(explain_peg(&seq).unwrap().total(), peg_points(&seq).unwrap());
    }

    #[test]
    fn hand_add_remove_round_trips(cards in distinct_cards(6)) {
        let mut hand = Hand::new();
        for &c in &cards { prop_assert!(hand.insert(c)); }
        prop_assert_eq!(hand.len(), 6);
        let before = hand;
        prop_assert!(hand.remove(cards[2]));
        prop_assert!(!hand.contains(cards[2]));
        prop_assert!(hand.insert(cards[2]));
        prop_assert_eq!(hand, before);
        prop_assert_eq!(Hand::from_mask(hand.mask()).unwrap(), hand);
    }
}

#[test]
fn rules_file_examples() {
    // cribbage.md §2, every example.
    let s = |h: &str, st: &str| score_hand(h.parse().unwrap(), st.parse().unwrap()).unwrap();
    let c = |h: &str, st: &str| score_crib(h.parse().unwrap(), st.parse().unwrap()).unwrap();
    assert_eq!(s("4H 5H QH", "6S"), 10);
    assert_eq!(s("J♣ 5♦ 5♥ 5♠", "5♣"), 29);
    assert_eq!(s("5♣ 6♣ 7♣ 8♦", "8♠"), 14);
    assert_eq!(s("4♣ 4♦ 4♠ 5♦", "6♠"), 21);
    assert_eq!(s("6♣ 6♦ 7♠ 7♦", "8♠"), 20);
    assert_eq!(s("9♣ 10♣ J♣ Q♣", "K♣"), 11);
    assert_eq!(s("Q♣ 10♣ 8♣ 4♣", "2♣"), 5);
    assert_eq!(s("Q♣ 10♣ 8♣ 4♣", "2♦"), 4);
    assert_eq!(c("2♣ 4♣ 6♣ 8♣", "K♦"), 0);
    // §5: a starter jack never scores nobs; the crib scores nobs.
    assert_eq!(s("2C 4D 6H 8S", "JC"), 0);
    assert_eq!(heels_points("JC".parse().unwrap()), 2);
    assert_eq!(c("JC 2D 4H 6S", "9C"), 1 + 4); // nobs + fifteens 9+6 and 2+4+9
    let b = explain_hand("4H 5H QH".parse().unwrap(), "6S".parse().unwrap()).unwrap();
    assert_eq!((b.fifteens, b.runs, b.flush), (4, 3, 3));
    assert_eq!(b.to_string(), "fifteen two, fifteen four, and a run of three is seven, and a flush of three is 10");
}

#[test]
fn distribution_matches_the_published_table() {
    // S. Lumetta, "Amusing Cribbage Facts" (cribbage.md §2).
    let published: [u64; 30] = [
        1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224, 388740, 51680, 317340,
        19656, 90100, 9168, 58248, 11196, 2708, 0, 8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
    ];
    assert_eq!(hand_distribution(DistributionKind::Hand), published);
    assert_eq!(hand_distribution(DistributionKind::Crib).iter().sum::<u64>(), 12_994_800);
    assert_eq!(hand_distribution(DistributionKind::FiveCardHand).iter().sum::<u64>(), 1_082_900);
}

#[test]
fn batch_equals_single_and_reports_the_first_bad_row() {
    let mut rng = crate::rng::Rng::new(9);
    let mut pack: Vec<i64> = (0..52).collect();
    let rows = 100_000; // more than one parallel chunk
    let mut hands = Vec::new();
    let mut starters = Vec::new();
    for _ in 0..rows {
        rng.shuffle(&mut pack);
        hands.extend_from_slice(&pack[..4]);
        starters.push(pack[4]);
    }
    let scores = score_hand_batch(&hands, 4, &starters, false).unwrap();
    let cols = explain_hand_batch(&hands, 4, &starters, false).unwrap();
    for r in 0..rows {
        let hand = Hand::from_cards(hands[r * 4..r * 4 + 4].iter().map(|&id| Card::from_id(id).unwrap())).unwrap();
        let starter = Card::from_id(starters[r]).unwrap();
        let b = explain_hand(hand, starter).unwrap();
        assert_eq!(scores[r], b.total());
        assert_eq!(
            [cols.fifteens[r], cols.pairs[r], cols.runs[r], cols.flush[r], cols.nobs[r], cols.total[r]],
            [b.fifteens, b.pairs, b.runs, b.flush, b.nobs, b.total()]
        );
    }
    hands[70_001 * 4] = 60;
    hands[90_000 * 4 + 1] = hands[90_000 * 4];
    let err = score_hand_batch(&hands, 4, &starters, false).unwrap_err();
    assert_eq!(err.to_string(), "row 70001: card id 60 is out of range (ids are 0..51)");
}
