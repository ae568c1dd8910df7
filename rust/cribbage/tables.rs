//! The show tables: fifteens, pairs and runs depend only on the multiset of ranks shown, so they
//! are precomputed for every multiset of four and of five ranks (1,820 and 6,175 of them).
//!
//! A multiset is found by the sum of its ranks' keys ([`RANK_KEYS`], derived by `build.rs` so that
//! these sums are unique). The sums are sparse (up to ~361k), so the table is compressed by row
//! displacement: the key space is cut into rows of [`ROW`] slots and each row is laid into one
//! small array at an offset where its used slots fall on free ones. A lookup is
//! `values[offsets[key >> SHIFT] + (key & (ROW - 1))]`: two loads, all in L1.

use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/cribbage_rank_keys.rs"));

const SHIFT: u32 = 9;
const ROW: usize = 1 << SHIFT;

/// Points from fifteens, pairs and runs of a set of shown ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
    pub fn total(self) -> u8 {
        self.fifteens + self.pairs + self.runs
    }
}

/// Pip value of a rank 0..13.
#[inline]
pub(crate) fn rank_pips(rank: u8) -> u8 {
    (rank + 1).min(10)
}

/// Score fifteens, pairs and runs of ranks (0..13) by direct counting. This is the definition the
/// tables are built from; it is used at start-up and by the explaining functions, never per hand.
pub fn rank_points(ranks: &[u8]) -> RankPoints {
    let n = ranks.len();
    let mut fifteens = 0u8;
    for subset in 1u32..(1 << n) {
        if subset.count_ones() < 2 {
            continue;
        }
        let sum: u32 = (0..n).filter(|&i| subset >> i & 1 == 1).map(|i| rank_pips(ranks[i]) as u32).sum();
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

/// One compressed table: rank multisets of one size.
pub(crate) struct RankTable {
    offsets: Vec<u16>,
    totals: Vec<u8>,
    parts: Vec<RankPoints>,
}

impl RankTable {
    fn build(cards: usize) -> RankTable {
        // Every multiset of `cards` ranks with at most four of a rank, with its key.
        let mut entries: Vec<(u32, RankPoints)> = Vec::new();
        let mut ranks = Vec::with_capacity(cards);
        fn rec(start: u8, left: usize, ranks: &mut Vec<u8>, out: &mut Vec<(u32, RankPoints)>) {
            if left == 0 {
                let key = ranks.iter().map(|&r| RANK_KEYS[r as usize]).sum();
                out.push((key, rank_points(ranks)));
                return;
            }
            for r in start..13 {
                let copies = ranks.iter().filter(|&&x| x == r).count();
                if copies < 4 {
                    ranks.push(r);
                    rec(r, left - 1, ranks, out);
                    ranks.pop();
                }
            }
        }
        rec(0, cards, &mut ranks, &mut entries);

        let max_key = entries.iter().map(|e| e.0).max().unwrap() as usize;
        let rows = max_key / ROW + 1;
        let mut by_row: Vec<Vec<(usize, RankPoints)>> = vec![Vec::new(); rows];
        for &(key, points) in &entries {
            by_row[key as usize / ROW].push((key as usize % ROW, points));
        }
        // First-fit, densest rows first.
        let mut order: Vec<usize> = (0..rows).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(by_row[r].len()));
        let mut used: Vec<bool> = Vec::new();
        let mut offsets = vec![0u16; rows];
        let mut parts: Vec<RankPoints> = Vec::new();
        for r in order {
            let row = &by_row[r];
            if row.is_empty() {
                continue; // never looked up; offset 0 keeps any stray key in bounds
            }
            let mut offset = 0;
            while row.iter().any(|&(col, _)| used.get(offset + col).copied().unwrap_or(false)) {
                offset += 1;
            }
            let need = offset + ROW;
            if used.len() < need {
                used.resize(need, false);
                parts.resize(need, RankPoints::default());
            }
            for &(col, points) in row {
                used[offset + col] = true;
                parts[offset + col] = points;
            }
            offsets[r] = u16::try_from(offset).expect("compressed table fits u16 offsets");
        }
        let totals = parts.iter().map(|p| p.total()).collect();
        RankTable { offsets, totals, parts }
    }

    #[inline(always)]
    fn slot(&self, key: u32) -> usize {
        self.offsets[(key >> SHIFT) as usize] as usize + (key as usize & (ROW - 1))
    }

    /// Fifteens + pairs + runs for the multiset with this key.
    #[inline(always)]
    pub(crate) fn total(&self, key: u32) -> u8 {
        self.totals[self.slot(key)]
    }

    /// The three categories for the multiset with this key.
    #[inline(always)]
    pub(crate) fn parts(&self, key: u32) -> RankPoints {
        self.parts[self.slot(key)]
    }

    /// Bytes used by this table.
    fn bytes(&self) -> usize {
        self.offsets.len() * 2 + self.totals.len() + self.parts.len() * std::mem::size_of::<RankPoints>()
    }
}

/// The show tables for four shown cards (five-card cribbage) and five (all other variants).
pub(crate) struct ShowTables {
    pub(crate) four: RankTable,
    pub(crate) five: RankTable,
}

impl ShowTables {
    /// The table for a show of `hand_len + 1` cards.
    #[inline(always)]
    pub(crate) fn for_hand_len(&self, hand_len: usize) -> &RankTable {
        if hand_len == 4 {
            &self.five
        } else {
            &self.four
        }
    }
}

static TABLES: OnceLock<ShowTables> = OnceLock::new();

/// The show tables, built on first use (well under a millisecond).
#[inline]
pub(crate) fn tables() -> &'static ShowTables {
    TABLES.get_or_init(|| ShowTables { four: RankTable::build(4), five: RankTable::build(5) })
}

/// Total bytes of the show tables (for the docs and benchmarks).
pub fn table_bytes() -> usize {
    let t = tables();
    t.four.bytes() + t.five.bytes() + std::mem::size_of_val(&RANK_KEYS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_keys_make_sums_unique() {
        let mut seen = std::collections::HashSet::new();
        let mut count = 0;
        for a in 0..13u32 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        for e in d..13 {
                            if a == e {
                                continue; // five of one rank do not exist
                            }
                            count += 1;
                            let key: u32 = [a, b, c, d, e].iter().map(|&r| RANK_KEYS[r as usize]).sum();
                            assert!(seen.insert(key), "key collision for {:?}", [a, b, c, d, e]);
                        }
                    }
                }
            }
        }
        assert_eq!(count, 6175);
    }

    #[test]
    fn rank_points_examples() {
        // 5 5 5 5 J: eight fifteens (16) + six pairs (12).
        assert_eq!(rank_points(&[4, 4, 4, 4, 10]), RankPoints { fifteens: 16, pairs: 12, runs: 0 });
        // 4 4 4 5 6: 15 = 4+5+6 three times (6), pair royal (6), three runs of three (9) = 21.
        assert_eq!(rank_points(&[3, 3, 3, 4, 5]), RankPoints { fifteens: 6, pairs: 6, runs: 9 });
        // 6 6 7 7 8: 15s 7+8 twice (4), two pairs (4), four runs of three (12) = 20.
        assert_eq!(rank_points(&[5, 5, 6, 6, 7]).total(), 20);
    }

    #[test]
    fn tables_are_small() {
        let bytes = table_bytes();
        assert!(bytes < 64 * 1024, "show tables take {bytes} bytes");
    }
}
