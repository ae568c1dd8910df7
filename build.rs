//! Build script: generates the cribbage show tables into `$OUT_DIR/cribbage_tables.rs`.
//!
//! Fifteens, pairs and runs depend only on the multiset of shown ranks. Each card adds a key
//! `RANK_KEYS[rank]` to its hand; a key is `CARD_UNIT + b[rank]` where the `b` are the smallest
//! numbers (found greedily, a B5-style sequence) whose sums over any five ranks (at most four of a
//! rank) are unique. `CARD_UNIT` exceeds every such sum, so `key >> UNIT_SHIFT` is the number of
//! cards and four- and five-card shows fall in separate key ranges of one table.
//!
//! The keys are sparse, so the table is compressed by row displacement: the key range is cut into
//! rows of `ROW` slots, and each row is laid into one small array at an offset where its used
//! slots land on free ones. A lookup is `values[offsets[(key >> ROW_SHIFT) - FIRST_ROW] +
//! (key & (ROW - 1))]`. Nothing is pasted in by hand: change the search here and the tables follow.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

include!("rust/cribbage/rank_points.rs");

const RANKS: usize = 13;
const MAX_CARDS: usize = 5;
const MAX_COPIES: usize = 4;
const UNIT_SHIFT: u32 = 19;
const ROW_SHIFT: u32 = 9;
const ROW: usize = 1 << ROW_SHIFT;

/// Every multiset of `m` indices into `keys` (each at most MAX_COPIES times), as index lists.
fn multisets(n: usize, m: usize) -> Vec<Vec<u8>> {
    fn rec(n: usize, start: usize, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            let copies = cur.iter().filter(|&&x| x as usize == i).count();
            if copies < MAX_COPIES {
                cur.push(i as u8);
                rec(n, i, left - 1, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, 0, m, &mut Vec::new(), &mut out);
    out
}

fn sums(keys: &[u32], m: usize) -> Vec<u32> {
    multisets(keys.len(), m).iter().map(|ms| ms.iter().map(|&i| keys[i as usize]).sum()).collect()
}

/// The greedy B5-style base keys.
fn base_keys() -> Vec<u32> {
    let mut keys: Vec<u32> = vec![0];
    let mut taken: Vec<u32> = Vec::new();
    let mut stamp = 0u32;
    while keys.len() < RANKS {
        let full = sums(&keys, MAX_CARDS);
        // Sums of (MAX_CARDS - j) old keys, to which j copies of the candidate are added.
        let partial: Vec<Vec<u32>> = (1..=MAX_COPIES).map(|j| sums(&keys, MAX_CARDS - j)).collect();
        let top = full.iter().chain(partial.iter().flatten()).copied().max().unwrap_or(0);
        let mut candidate = keys.last().unwrap() + 1;
        loop {
            stamp += 1;
            let limit = (top + candidate * MAX_COPIES as u32) as usize + 1;
            if taken.len() < limit {
                taken.resize(limit, 0);
            }
            for &s in &full {
                taken[s as usize] = stamp;
            }
            let clash = partial.iter().enumerate().any(|(j, sums)| {
                let add = candidate * (j as u32 + 1);
                sums.iter().any(|&s| {
                    let t = (s + add) as usize;
                    let hit = taken[t] == stamp;
                    taken[t] = stamp;
                    hit
                })
            });
            if !clash {
                break;
            }
            candidate += 1;
        }
        keys.push(candidate);
    }
    keys
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=rust/cribbage/rank_points.rs");
    cache_key();

    let base = base_keys();
    let max_base_sum: u32 = base.iter().max().unwrap() * MAX_COPIES as u32 + base[base.len() - 2];
    assert!(max_base_sum < 1 << UNIT_SHIFT, "card unit too small for the rank keys");
    let keys: Vec<u32> = base.iter().map(|b| b + (1 << UNIT_SHIFT)).collect();

    // Every show of four or five ranks, with its key and points.
    let mut entries: Vec<(u32, RankPoints)> = Vec::new();
    for m in [4, MAX_CARDS] {
        for ms in multisets(RANKS, m) {
            let key: u32 = ms.iter().map(|&r| keys[r as usize]).sum();
            entries.push((key, rank_points(&ms)));
        }
    }
    let mut sorted: Vec<u32> = entries.iter().map(|e| e.0).collect();
    sorted.sort_unstable();
    assert!(sorted.windows(2).all(|w| w[0] < w[1]), "rank keys are not unique");

    let first_row = (sorted[0] as usize) >> ROW_SHIFT;
    let rows = ((*sorted.last().unwrap() as usize) >> ROW_SHIFT) - first_row + 1;
    let mut by_row: Vec<Vec<(usize, RankPoints)>> = vec![Vec::new(); rows];
    for &(key, points) in &entries {
        by_row[(key as usize >> ROW_SHIFT) - first_row].push((key as usize & (ROW - 1), points));
    }
    // First fit, densest rows first.
    let mut order: Vec<usize> = (0..rows).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(by_row[r].len()));
    let mut used: Vec<bool> = Vec::new();
    let mut values: Vec<RankPoints> = Vec::new();
    let mut offsets = vec![0usize; rows];
    for r in order {
        let row = &by_row[r];
        if row.is_empty() {
            continue; // never looked up; offset 0 keeps any stray key in bounds
        }
        let mut offset = 0;
        while row.iter().any(|&(col, _)| used.get(offset + col).copied().unwrap_or(false)) {
            offset += 1;
        }
        if used.len() < offset + ROW {
            used.resize(offset + ROW, false);
            values.resize(offset + ROW, RankPoints::default());
        }
        for &(col, points) in row {
            used[offset + col] = true;
            values[offset + col] = points;
        }
        offsets[r] = offset;
    }
    // Every slot reachable from any row must exist: pad to the largest offset + ROW.
    let len = offsets.iter().max().unwrap() + ROW;
    values.resize(len, RankPoints::default());
    assert!(len <= u16::MAX as usize + 1, "compressed table too big for u16 offsets");

    let mut out = String::new();
    writeln!(out, "// Generated by build.rs; do not edit.").unwrap();
    writeln!(out, "/// Additive key per rank (A..K): `CARD_UNIT` plus a B5-style base; generated by build.rs.")
        .unwrap();
    writeln!(out, "pub(crate) const RANK_KEYS: [u32; 13] = {keys:?};").unwrap();
    writeln!(out, "/// `key >> UNIT_SHIFT` is the number of cards summed into a key.").unwrap();
    writeln!(out, "pub(crate) const UNIT_SHIFT: u32 = {UNIT_SHIFT};").unwrap();
    writeln!(out, "const ROW_SHIFT: u32 = {ROW_SHIFT};").unwrap();
    writeln!(out, "const FIRST_ROW: usize = {first_row};").unwrap();
    // The row offsets and the totals (the hot tables) are padded to powers of two, so a lookup
    // masks its index instead of checking it: no bounds check, and a stray key stays in bounds.
    let (rows_pow2, len_pow2) = (rows.next_power_of_two(), len.next_power_of_two());
    let mut padded_offsets: Vec<u16> = offsets.iter().map(|&o| o as u16).collect();
    padded_offsets.resize(rows_pow2, 0);
    let mut totals: Vec<u8> = values.iter().map(|p| p.total()).collect();
    totals.resize(len_pow2, 0);
    writeln!(out, "const ROWS_MASK: usize = {};", rows_pow2 - 1).unwrap();
    writeln!(out, "const TOTALS_MASK: usize = {};", len_pow2 - 1).unwrap();
    writeln!(out, "static OFFSETS: [u16; {rows_pow2}] = {padded_offsets:?};").unwrap();
    writeln!(out, "static TOTALS: [u8; {len_pow2}] = {totals:?};").unwrap();
    writeln!(
        out,
        "static PARTS: [[u8; 3]; {len}] = {:?};",
        values.iter().map(|p| [p.fifteens, p.pairs, p.runs]).collect::<Vec<_>>()
    )
    .unwrap();
    let path = PathBuf::from(env::var("OUT_DIR").unwrap()).join("cribbage_tables.rs");
    fs::write(path, out).unwrap();
}

/// The build's key of the cached tables (`rust/cache.rs`): a hash of the crate version and of
/// every source of the core (all of `rust/` but the bindings) and this script, exported as
/// `CRIBPIQUET_CACHE_KEY`. Any change to them gives another key, so a file written by another
/// build is never read.
fn cache_key() {
    fn files(path: &std::path::Path, out: &mut Vec<PathBuf>) {
        if path.is_dir() {
            if path.ends_with("bindings") {
                return; // the Python bindings compute no table
            }
            for entry in fs::read_dir(path).unwrap() {
                files(&entry.unwrap().path(), out);
            }
        } else {
            out.push(path.to_path_buf());
        }
    }
    let mut paths = Vec::new();
    for source in ["rust", "build.rs"] {
        println!("cargo:rerun-if-changed={source}");
        files(std::path::Path::new(source), &mut paths);
    }
    paths.sort();
    // FNV-1a, 64 bits, over the version, then each file's path and bytes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0xff]) {
            hash = (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(env::var("CARGO_PKG_VERSION").unwrap().as_bytes());
    for path in &paths {
        eat(path.to_string_lossy().replace('\\', "/").as_bytes());
        eat(&fs::read(path).unwrap());
    }
    println!("cargo:rustc-env=CRIBPIQUET_CACHE_KEY={hash:016x}");
}
