// Fifteens, pairs and runs of a multiset of ranks, by direct counting.
//
// This file is plain Rust with no `crate::` paths: `build.rs` includes it to generate the show
// tables, and the library includes it for the explaining functions and tests, so the tables are
// built from exactly the definition the library documents.

/// Points from fifteens, pairs and runs of a set of shown ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct RankPoints {
    /// 2 per distinct combination of cards whose pips sum to 15.
    pub fifteens: u8,
    /// 2 per pair of equal ranks.
    pub pairs: u8,
    /// Every maximal run, times its length.
    pub runs: u8,
}

impl RankPoints {
    /// The sum of the three categories.
    pub const fn total(self) -> u8 {
        self.fifteens + self.pairs + self.runs
    }
}

/// Score fifteens, pairs and runs of ranks (0 = ace .. 12 = king) by direct counting.
///
/// ```
/// use cribpiquet::cribbage::{rank_points, RankPoints};
/// // 4 4 4 5 6: fifteens 4+5+6 three ways (6), pair royal (6), three runs of three (9).
/// assert_eq!(rank_points(&[3, 3, 3, 4, 5]), RankPoints { fifteens: 6, pairs: 6, runs: 9 });
/// ```
pub fn rank_points(ranks: &[u8]) -> RankPoints {
    let n = ranks.len();
    let pips = |r: u8| -> u32 { (r as u32 + 1).min(10) };
    let mut fifteens = 0u8;
    for subset in 1u32..(1 << n) {
        if subset.count_ones() < 2 {
            continue;
        }
        let sum: u32 = (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| pips(ranks[i])).sum();
        if sum == 15 {
            fifteens += 2;
        }
    }
    let mut counts = [0u8; 13];
    for &r in ranks {
        counts[r as usize] += 1;
    }
    let pairs: u8 = counts.iter().map(|&c| c * c.saturating_sub(1)).sum();
    // A run is a stretch of consecutive present ranks, length >= 3; it scores its length once
    // per way of choosing one card of each rank.
    let mut runs = 0u8;
    let mut start = 0;
    while start < 13 {
        if counts[start] == 0 {
            start += 1;
            continue;
        }
        let mut end = start;
        while end < 13 && counts[end] > 0 {
            end += 1;
        }
        let len = (end - start) as u8;
        if len >= 3 {
            let ways: u8 = counts[start..end].iter().product();
            runs += len * ways;
        }
        start = end;
    }
    RankPoints { fifteens, pairs, runs }
}
