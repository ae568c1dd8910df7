//! The inference's discard tables: the thrown-only equilibrium tables ([`inference_options`])
//! that PIMC's inference weighs the opponent's throw by, made once per process and kept once per
//! build in the user's cache directory.
//!
//! Computing them costs about a second and a half of CPU for six-card (a tenth of that for
//! five-card): every hand class's kept-hand values, then some thirty best-response passes. The
//! first process of a build computes them and saves them; every later one reads the file back in
//! a millisecond or two. [`inference_tables`] is the only entry point; the rest is public for
//! the tests and for tools that want to see where the file goes.
//!
//! The file is one of [`crate::cache`]'s (where it goes, `CRIBPIQUET_CACHE_DIR`, the build's key,
//! the checksum, the atomic write). Its contents are used only if all of this holds too: the
//! length is the one the contents' header implies; the variant, model and crib-flush rule are
//! the ones asked for; the tables pass [`DiscardTables::check`] (the checks of
//! `DiscardTables.load`); the iteration stopped where [`discard_tables`] stops it (every change
//! but the last at or above the tolerance); and a thrown-only table holds no conditioned cribs.
//! A file failing any check is recomputed and replaced, never an error.

use std::path::Path;
use std::sync::{Mutex, OnceLock};

use super::card::FULL_PACK;
use super::crib::{check_variant, THROW_KINDS};
use super::discard_tables::{discard_tables, CribValues, DiscardTables, PassSums, TablesModel, TablesOptions};
use super::game::Variant;
use crate::cache;
use crate::error::Result;

/// The options of the inference's tables: the thrown-only model (a likelihood needs the tables'
/// shape, not their last tenth of a point, and it is many times cheaper than the conditioned
/// one), crib flushes counted, the default iteration limit and tolerance.
pub fn inference_options() -> TablesOptions {
    TablesOptions { model: TablesModel::ThrownOnly, ..TablesOptions::default() }
}

/// The inference's discard tables of a two-player variant: made once per process at the first
/// use, read from the cache directory when a whole, checked file of this build is there, else
/// computed and saved there (see the module docs).
///
/// The computation runs under the caller's interrupt flag: a Ctrl-C stops it within a block of
/// hand classes and the call fails with [`Error::Interrupted`](crate::error::Error); nothing is
/// kept or saved then, and the next caller starts again. One caller makes the tables at a time
/// (the others wait for the same tables rather than make them twice).
pub fn inference_tables(variant: Variant) -> Result<&'static DiscardTables> {
    static FIVE: OnceLock<DiscardTables> = OnceLock::new();
    static SIX: OnceLock<DiscardTables> = OnceLock::new();
    static MAKING: Mutex<()> = Mutex::new(());
    let cell = if variant == Variant::FiveCard { &FIVE } else { &SIX };
    if let Some(tables) = cell.get() {
        return Ok(tables);
    }
    check_variant(variant)?;
    let _one_at_a_time = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tables) = cell.get() {
        return Ok(tables);
    }
    let dir = cache::dir();
    let tables = match dir.as_deref().and_then(|dir| load(dir, variant).ok()) {
        Some(tables) => tables,
        None => {
            let computed = discard_tables(variant, inference_options())?;
            if let Some(dir) = &dir {
                // A cache that cannot be written costs the next process the computation, no more.
                let _ = store(dir, &computed);
            }
            computed
        }
    };
    Ok(cell.get_or_init(|| tables))
}

/// The name of a variant's file in the cache directory (the build's key is added).
pub fn cache_name(variant: Variant) -> String {
    format!("inference-tables-{}", variant.name())
}

/// The tables of `variant` saved in `dir`, if the file is there and passes every check of the
/// module docs; the error says what is wrong (for the tests: callers recompute on any error).
pub fn load(dir: &Path, variant: Variant) -> std::result::Result<DiscardTables, String> {
    decode(&cache::read(dir, &cache_name(variant), max_len())?, variant)
}

/// Save `tables` (the inference's, of [`inference_options`]) in `dir` ([`cache::write`]).
pub fn store(dir: &Path, tables: &DiscardTables) -> std::io::Result<()> {
    cache::write(dir, &cache_name(tables.variant), &encode(tables))
}

/// The first bytes of the contents.
const MAGIC: &[u8; 15] = b"discard tables\n";
/// Magic, variant/flushes/model/reserved bytes, iterations, averaged.
const HEADER: usize = MAGIC.len() + 4 + 4 + 4;
/// The fixed part after the header: values (2), throws (2), crib shares (2) as f64, then the two
/// pass sums (counts and cribs of both roles, and the hands), as u64.
const BODY: usize = 8 * (6 * THROW_KINDS + 2 * (4 * THROW_KINDS + 1));

/// The length of the contents of `iterations` passes (one change each).
fn file_len(iterations: usize) -> usize {
    HEADER + BODY + 8 * iterations
}

fn max_len() -> usize {
    file_len(inference_options().max_iterations)
}

/// The contents of a file of `tables` (little-endian; layout in [`HEADER`], [`BODY`]).
pub fn encode(tables: &DiscardTables) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_len(tables.iterations));
    out.extend_from_slice(MAGIC);
    let variant = (tables.variant == Variant::SixCard) as u8;
    let model = (tables.model == TablesModel::ThrownOnly) as u8;
    out.extend_from_slice(&[variant, tables.flushes as u8, model, 0]);
    out.extend_from_slice(&(tables.iterations as u32).to_le_bytes());
    out.extend_from_slice(&(tables.averaged as u32).to_le_bytes());
    let floats = [&tables.values.dealer, &tables.values.pone, &tables.throws[0], &tables.throws[1]];
    let floats = floats.into_iter().chain([&tables.crib_shares[0], &tables.crib_shares[1]]);
    for &x in floats.flatten() {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for sums in [&tables.sums, &tables.sums_before] {
        for &x in sums.counts.iter().chain(&sums.cribs).flatten().chain([&sums.hands]) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    for &x in &tables.changes {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// Reads little-endian fields off the front of a byte slice whose length is already checked.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f64(&mut self) -> f64 {
        f64::from_le_bytes(self.take())
    }
    fn f64s(&mut self) -> [f64; THROW_KINDS] {
        core::array::from_fn(|_| self.f64())
    }
    fn u64s(&mut self) -> [u64; THROW_KINDS] {
        core::array::from_fn(|_| self.u64())
    }
    fn sums(&mut self) -> PassSums {
        let counts = [self.u64s(), self.u64s()];
        let cribs = [self.u64s(), self.u64s()];
        PassSums { counts, cribs, hands: self.u64() }
    }
}

/// The inference tables of `variant` in a file's contents, if they pass every check of the
/// module docs; the error says which failed.
pub fn decode(bytes: &[u8], variant: Variant) -> std::result::Result<DiscardTables, String> {
    check_variant(variant).map_err(|e| e.to_string())?;
    let options = inference_options();
    if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a file of discard tables".into());
    }
    let mut f = Fields(&bytes[MAGIC.len()..]);
    let [six, flushes, thrown_only, reserved] = f.take();
    let iterations = u32::from_le_bytes(f.take()) as usize;
    let averaged = u32::from_le_bytes(f.take()) as usize;
    if iterations == 0 || iterations > options.max_iterations {
        return Err(format!("{iterations} iterations, not 1..={}", options.max_iterations));
    }
    if bytes.len() != file_len(iterations) {
        return Err(format!("{} bytes, not the {} of {iterations} iterations", bytes.len(), file_len(iterations)));
    }
    let model = if thrown_only == 1 { TablesModel::ThrownOnly } else { TablesModel::Conditioned };
    if [six, flushes, thrown_only, reserved] != [(variant == Variant::SixCard) as u8, options.flushes as u8, 1, 0] {
        return Err("tables of another variant, model or crib-flush rule".into());
    }
    let values = CribValues { dealer: f.f64s(), pone: f.f64s() };
    let throws = [f.f64s(), f.f64s()];
    let crib_shares = [f.f64s(), f.f64s()];
    let (sums, sums_before) = (f.sums(), f.sums());
    let changes: Vec<f64> = (0..iterations).map(|_| f.f64()).collect();
    let tables = DiscardTables {
        variant,
        flushes: flushes == 1,
        model,
        values,
        throws,
        crib_shares,
        averaged,
        sums,
        sums_before,
        iterations,
        changes,
        pack: FULL_PACK,
    };
    tables.check().map_err(|e| e.to_string())?;
    // Where discard_tables stops: at the first change below the tolerance, or at the limit.
    let (last, before) = tables.changes.split_last().expect("at least one iteration");
    if before.iter().any(|&c| c < options.tolerance)
        || !(*last < options.tolerance || iterations == options.max_iterations)
    {
        return Err("the changes do not end where the iteration stops".into());
    }
    let no_cribs = |s: &PassSums| s.cribs.iter().flatten().all(|&x| x == 0);
    if tables.crib_shares.iter().flatten().any(|&x| x != 0.0)
        || !no_cribs(&tables.sums)
        || !no_cribs(&tables.sums_before)
    {
        return Err("thrown-only tables with conditioned cribs".into());
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn five_card() -> DiscardTables {
        discard_tables(Variant::FiveCard, inference_options()).unwrap()
    }

    #[test]
    fn saved_tables_load_back_to_the_bit_and_nothing_else_loads() {
        let tables = five_card();
        // The values are those of the throw shares (the thrown-only model computes them so).
        assert_eq!(tables.thrown_only_values(), tables.values);
        let dir = std::env::temp_dir().join(format!("cribpiquet-tables-roundtrip-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(load(&dir, Variant::FiveCard).is_err(), "no directory yet");
        store(&dir, &tables).unwrap();
        assert_eq!(load(&dir, Variant::FiveCard).unwrap(), tables);
        assert!(cache::path(&dir, &cache_name(Variant::FiveCard)).is_file());
        // The other variant's name holds nothing; copied there, it is refused by its contents.
        assert!(load(&dir, Variant::SixCard).is_err());
        let (five, six) =
            (cache::path(&dir, "inference-tables-five-card"), cache::path(&dir, "inference-tables-six-card"));
        std::fs::copy(five, six).unwrap();
        assert!(load(&dir, Variant::SixCard).unwrap_err().contains("another variant"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_or_forged_contents_are_refused_naming_the_check() {
        let tables = five_card();
        let good = encode(&tables);
        assert_eq!(decode(&good, Variant::FiveCard).unwrap(), tables);
        assert!(decode(&good, Variant::ThreePlayer).unwrap_err().contains("two-player"));
        const AT_VALUES: usize = HEADER;
        const AT_ITERATIONS: usize = HEADER - 8;
        type Edit = Box<dyn Fn(&mut Vec<u8>)>;
        let f64_at = |at: usize, x: f64| -> Edit {
            Box::new(move |b: &mut Vec<u8>| b[at..at + 8].copy_from_slice(&x.to_le_bytes()))
        };
        let u32_at = |at: usize, x: u32| -> Edit {
            Box::new(move |b: &mut Vec<u8>| b[at..at + 4].copy_from_slice(&x.to_le_bytes()))
        };
        let cases: Vec<(Edit, &str)> = vec![
            (Box::new(|b| b.truncate(0)), "not a file of discard tables"),
            (Box::new(|b| b.truncate(HEADER - 1)), "not a file of discard tables"),
            (Box::new(|b| b[0] ^= 1), "not a file of discard tables"),
            (Box::new(|b| b.truncate(b.len() - 1)), "bytes, not the"),
            (Box::new(|b| b.push(0)), "bytes, not the"),
            (u32_at(AT_ITERATIONS, 0), "0 iterations"),
            (u32_at(AT_ITERATIONS, u32::MAX), "4294967295 iterations"),
            (
                Box::new(|b| b[AT_ITERATIONS - 4] = 1 - b[AT_ITERATIONS - 4]),
                "another variant, model or crib-flush rule",
            ),
            (Box::new(|b| b[AT_ITERATIONS - 3] = 0), "another variant, model or crib-flush rule"),
            (Box::new(|b| b[AT_ITERATIONS - 2] = 0), "another variant, model or crib-flush rule"),
            (Box::new(|b| b[AT_ITERATIONS - 1] = 7), "another variant, model or crib-flush rule"),
            (f64_at(AT_VALUES, f64::NAN), "dealer_values[0] is NaN"),
            (f64_at(AT_VALUES + 8 * 170, -1.0), "pone_values[1] is -1"),
            (f64_at(AT_VALUES + 8 * 169, f64::INFINITY), "pone_values[0] is inf"),
            (f64_at(AT_VALUES + 8 * 2 * THROW_KINDS, 0.5), "dealer_throws sum to"),
            (u32_at(AT_ITERATIONS + 4, 99), "averaged is 99"),
            (f64_at(AT_VALUES + 8 * 4 * THROW_KINDS, 1e-3), "thrown-only tables with conditioned cribs"),
            (f64_at(HEADER + BODY, 1e-9), "the changes do not end where the iteration stops"),
            (f64_at(HEADER + BODY, -1.0), "changes[0] is -1"),
        ];
        for (edit, message) in cases {
            let mut bytes = good.clone();
            edit(&mut bytes);
            let err = decode(&bytes, Variant::FiveCard).unwrap_err();
            assert!(err.contains(message), "{err:?} should say {message:?}");
        }
    }

    #[test]
    fn fuzz_random_contents_never_panic_nor_load_values_out_of_range() {
        // Random bytes changed, cut and spliced in (seeded; what a forged file, past the
        // checksum, can hold): refused, or tables whose every value is a crib's points.
        let tables = five_card();
        let good = encode(&tables);
        let mut rng = Rng::new(3030);
        for case in 0..3000 {
            let mut bytes = good.clone();
            for _ in 0..1 + rng.below(4) {
                match rng.below(3) {
                    0 => {
                        let at = rng.below(bytes.len().max(1) as u32) as usize;
                        if at < bytes.len() {
                            bytes[at] = rng.below(256) as u8;
                        }
                    }
                    1 => bytes.truncate(rng.below(bytes.len() as u32 + 1) as usize),
                    _ => {
                        let at = rng.below(bytes.len() as u32 + 1) as usize;
                        let junk: Vec<u8> = (0..1 + rng.below(16)).map(|_| rng.below(256) as u8).collect();
                        bytes.splice(at..at, junk);
                    }
                }
            }
            if let Ok(loaded) = decode(&bytes, Variant::FiveCard) {
                loaded.check().unwrap();
                let values = loaded.values.dealer.iter().chain(&loaded.values.pone);
                assert!(values.into_iter().all(|v| (0.0..=29.0).contains(v)), "case {case}");
            }
        }
    }
}
