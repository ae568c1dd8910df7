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
//! # Where the file goes
//!
//! [`cache_dir`]: `CRIBPIQUET_CACHE_DIR` if set (empty or `off`: no cache, the tables are
//! computed in each process); otherwise the platform's cache directory: `$XDG_CACHE_HOME` (if an
//! absolute path) or `~/.cache` on Linux and the BSDs, `~/Library/Caches` on macOS,
//! `%LOCALAPPDATA%` on Windows, then `cribpiquet/`. A directory that cannot be created or written
//! (read-only, absent, full) only means the tables are computed again in the next process: the
//! decision never fails for the cache.
//!
//! # What is trusted
//!
//! Nothing in the file is believed unless all of it holds: its name and its contents carry the
//! build's version key (`CRIBPIQUET_TABLES_KEY`: a hash, made by `build.rs`, of the crate version
//! and of every source the tables are computed from, so another build's file is never read); its
//! length is the one its header implies (the file is read no further than the longest possible
//! file); a checksum over the whole file matches; the variant, model and crib-flush rule are the
//! ones asked for; the tables pass [`DiscardTables::check`] (the checks of
//! `DiscardTables.load`); the iteration stopped where [`discard_tables`] stops it (every change
//! but the last at or above the tolerance); and the values are, to the bit, those the file's
//! throw shares give (the thrown-only model computes the values from the throws, a few
//! milliseconds). A file failing any of these — truncated, bit-flipped, from another version,
//! hand-made — is recomputed and replaced, never an error. The file is written to a temporary
//! file in the same directory and renamed into place, so a reader never sees half a file and
//! processes racing to write it leave one whole copy.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::card::FULL_PACK;
use super::crib::{check_variant, THROW_KINDS};
use super::discard_tables::{discard_tables, CribValues, DiscardTables, PassSums, TablesModel, TablesOptions};
use super::game::Variant;
use crate::error::Result;

/// The build's version key of the cached tables (see the module docs).
pub const TABLES_KEY: &str = env!("CRIBPIQUET_TABLES_KEY");

/// The environment variable that relocates the cache directory (empty or `off`: no cache).
pub const CACHE_DIR_VAR: &str = "CRIBPIQUET_CACHE_DIR";

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
    let dir = cache_dir();
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

/// The directory the tables are cached in, or `None` when caching is off or no home is known
/// (see the module docs). Read from the environment at each call.
pub fn cache_dir() -> Option<PathBuf> {
    use std::env::var_os;
    if let Some(dir) = var_os(CACHE_DIR_VAR) {
        return if dir.is_empty() || dir == "off" { None } else { Some(PathBuf::from(dir)) };
    }
    let absolute = |name: &str| var_os(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let base = if cfg!(windows) {
        absolute("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        absolute("HOME").map(|home| home.join("Library").join("Caches"))
    } else {
        absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|home| home.join(".cache")))
    };
    base.map(|base| base.join("cribpiquet"))
}

/// The file of a variant's inference tables in `dir`: the variant and the build's key in its name.
pub fn cache_path(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(format!("inference-tables-{}-{TABLES_KEY}.bin", variant.name()))
}

/// The tables of `variant` saved in `dir`, if the file is there and passes every check of the
/// module docs; the error says what is wrong (for the tests: callers recompute on any error).
pub fn load(dir: &Path, variant: Variant) -> std::result::Result<DiscardTables, String> {
    let path = cache_path(dir, variant);
    // Only a regular file is opened (a pipe would block the open), and read no further than the
    // longest file there can be.
    let meta = fs::metadata(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    let mut bytes = Vec::new();
    let file = fs::File::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.take(max_len() as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    decode(&bytes, variant)
}

/// Save `tables` (the inference's, of [`inference_options`]) in `dir`, creating it if need be:
/// written to a temporary file beside the target, then renamed over it.
pub fn store(dir: &Path, tables: &DiscardTables) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let path = cache_path(dir, tables.variant);
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let temp = dir.join(format!(".{}.{}-{stamp}.tmp", path.file_name().unwrap().to_string_lossy(), std::process::id()));
    let written = (|| {
        let mut file = fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(&encode(tables))?;
        file.sync_all()?;
        fs::rename(&temp, &path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// The first bytes of a file of tables.
const MAGIC: &[u8; 26] = b"cribpiquet discard tables\n";
/// The layout below; a new layout changes it (and the key, since this file is hashed).
const FORMAT: u32 = 1;
/// Magic, format, key, variant/flushes/model/reserved bytes, iterations, averaged.
const HEADER: usize = MAGIC.len() + 4 + 16 + 4 + 4 + 4;
/// The fixed part after the header: values (2), throws (2), crib shares (2) as f64, then the two
/// pass sums (counts and cribs of both roles, and the hands), as u64.
const BODY: usize = 8 * (6 * THROW_KINDS + 2 * (4 * THROW_KINDS + 1));

/// The length of a file of `iterations` passes (one change each, then the checksum).
fn file_len(iterations: usize) -> usize {
    HEADER + BODY + 8 * iterations + 8
}

fn max_len() -> usize {
    file_len(inference_options().max_iterations)
}

/// FNV-1a, 64 bits: the checksum of the file (damage, not forgery: see the module docs).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The bytes of a file of `tables` (little-endian; layout in [`HEADER`], [`BODY`]).
pub fn encode(tables: &DiscardTables) -> Vec<u8> {
    let mut out = Vec::with_capacity(file_len(tables.iterations));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(TABLES_KEY.as_bytes());
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
    out.extend_from_slice(&checksum(&out).to_le_bytes());
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

/// The inference tables of `variant` in a file's bytes, if they pass every check of the module
/// docs; the error says which failed.
pub fn decode(bytes: &[u8], variant: Variant) -> std::result::Result<DiscardTables, String> {
    check_variant(variant).map_err(|e| e.to_string())?;
    let options = inference_options();
    if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a file of discard tables".into());
    }
    let mut f = Fields(&bytes[MAGIC.len()..]);
    let format = u32::from_le_bytes(f.take());
    let key: [u8; 16] = f.take();
    if format != FORMAT || key != *TABLES_KEY.as_bytes() {
        return Err("tables of another version".into());
    }
    let [six, flushes, thrown_only, reserved] = f.take();
    let iterations = u32::from_le_bytes(f.take()) as usize;
    let averaged = u32::from_le_bytes(f.take()) as usize;
    if iterations == 0 || iterations > options.max_iterations {
        return Err(format!("{iterations} iterations, not 1..={}", options.max_iterations));
    }
    if bytes.len() != file_len(iterations) {
        return Err(format!("{} bytes, not the {} of {iterations} iterations", bytes.len(), file_len(iterations)));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("the checksum does not match".into());
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
    if tables.thrown_only_values() != tables.values {
        return Err("the values are not those of the throws".into());
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A fresh directory under the system's temporary one (removed by the test).
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cribpiquet-tables-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn five_card() -> DiscardTables {
        discard_tables(Variant::FiveCard, inference_options()).unwrap()
    }

    #[test]
    fn saved_tables_load_back_to_the_bit_and_nothing_else_loads() {
        let tables = five_card();
        let dir = temp_dir("roundtrip");
        assert!(load(&dir, Variant::FiveCard).is_err(), "no directory yet");
        store(&dir, &tables).unwrap();
        let loaded = load(&dir, Variant::FiveCard).unwrap();
        assert_eq!(loaded, tables);
        assert_eq!(encode(&loaded), encode(&tables));
        // Only the one file, under the build's key and the variant's name; no temporary left.
        let names: Vec<String> =
            fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, [format!("inference-tables-five-card-{TABLES_KEY}.bin")]);
        // The other variant's name holds nothing; copied there, it is refused by its contents.
        assert!(load(&dir, Variant::SixCard).is_err());
        fs::copy(cache_path(&dir, Variant::FiveCard), cache_path(&dir, Variant::SixCard)).unwrap();
        assert!(load(&dir, Variant::SixCard).unwrap_err().contains("another variant"));
        // Saving again replaces the file whole.
        store(&dir, &tables).unwrap();
        assert_eq!(load(&dir, Variant::FiveCard).unwrap(), tables);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Rewrite a file's checksum after a change, so that the checks behind it are reached.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let n = bytes.len() - 8;
        let sum = checksum(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn damaged_or_forged_files_are_refused_naming_the_check() {
        let tables = five_card();
        let good = encode(&tables);
        assert_eq!(decode(&good, Variant::FiveCard).unwrap(), tables);
        const AT_VALUES: usize = HEADER;
        const AT_ITERATIONS: usize = HEADER - 8;
        type Edit = Box<dyn Fn(&mut Vec<u8>)>;
        let f64_at = |at: usize, x: f64| -> Edit {
            Box::new(move |b: &mut Vec<u8>| b[at..at + 8].copy_from_slice(&x.to_le_bytes()))
        };
        let cases: Vec<(Edit, bool, &str)> = vec![
            (Box::new(|b| b.truncate(0)), false, "not a file of discard tables"),
            (Box::new(|b| b.truncate(HEADER - 1)), false, "not a file of discard tables"),
            (Box::new(|b| b[0] ^= 1), false, "not a file of discard tables"),
            (Box::new(|b| b[MAGIC.len()] = 2), false, "another version"),
            (Box::new(|b| b[MAGIC.len() + 4] ^= 0x20), false, "another version"),
            (Box::new(|b| b.truncate(b.len() - 1)), false, "bytes, not the"),
            (Box::new(|b| b.push(0)), false, "bytes, not the"),
            (
                Box::new(|b| b[AT_ITERATIONS..AT_ITERATIONS + 4].copy_from_slice(&0u32.to_le_bytes())),
                false,
                "0 iterations",
            ),
            (
                Box::new(|b| b[AT_ITERATIONS..AT_ITERATIONS + 4].copy_from_slice(&u32::MAX.to_le_bytes())),
                false,
                "4294967295 iterations",
            ),
            (Box::new(|b| b[AT_VALUES + 3] ^= 0x10), false, "the checksum does not match"),
            (
                Box::new(|b| {
                    let n = b.len();
                    b[n - 1] ^= 0x80
                }),
                false,
                "the checksum does not match",
            ),
            (Box::new(|b| b[AT_ITERATIONS - 2] = 0), true, "another variant, model or crib-flush rule"),
            (Box::new(|b| b[AT_ITERATIONS - 1] = 7), true, "another variant, model or crib-flush rule"),
            (f64_at(AT_VALUES, f64::NAN), true, "dealer_values[0] is NaN"),
            (f64_at(AT_VALUES + 8 * 170, -1.0), true, "pone_values[1] is -1"),
            (f64_at(AT_VALUES + 8 * 2 * THROW_KINDS, 0.5), true, "dealer_throws sum to"),
            // A value moved within its range, the shares untouched: not the values of the throws.
            (f64_at(AT_VALUES + 8 * 5, 7.25), true, "the values are not those of the throws"),
            (f64_at(AT_VALUES + 8 * 4 * THROW_KINDS, 1e-3), true, "thrown-only tables with conditioned cribs"),
            (f64_at(HEADER + BODY, 1e-9), true, "the changes do not end where the iteration stops"),
        ];
        for (edit, reseal, message) in cases {
            let mut bytes = good.clone();
            edit(&mut bytes);
            if reseal && bytes.len() > 8 {
                bytes = resealed(bytes);
            }
            let err = decode(&bytes, Variant::FiveCard).unwrap_err();
            assert!(err.contains(message), "{err:?} should say {message:?}");
        }
    }

    #[test]
    fn fuzz_random_damage_never_loads_other_values() {
        // Random flips, truncations, splices and resealed bytes (seeded): every file decodes to
        // the tables saved or to an error, never to other values, and never panics.
        let tables = five_card();
        let good = encode(&tables);
        let mut rng = Rng::new(3030);
        for case in 0..2000 {
            let mut bytes = good.clone();
            match case % 4 {
                0 => {
                    let at = rng.below(bytes.len() as u32) as usize;
                    bytes[at] ^= 1 << rng.below(8);
                }
                1 => bytes.truncate(rng.below(bytes.len() as u32) as usize),
                2 => {
                    let at = rng.below(bytes.len() as u32) as usize;
                    let junk: Vec<u8> = (0..rng.below(64)).map(|_| rng.below(256) as u8).collect();
                    bytes.splice(at..at, junk);
                }
                _ => {
                    let at = rng.below(bytes.len() as u32 - 8) as usize;
                    bytes[at] = rng.below(256) as u8;
                    bytes = resealed(bytes);
                }
            }
            if let Ok(loaded) = decode(&bytes, Variant::FiveCard) {
                // Damage is caught by the checksum; a forged byte behind a forged checksum may
                // pass where it changes nothing the inference reads (a change's last bits), but
                // the values it decides by are the tables' own.
                if case % 4 == 3 {
                    assert_eq!(loaded.values, tables.values, "case {case}");
                } else {
                    assert_eq!(loaded, tables, "case {case}");
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_that_cannot_be_written_or_a_pipe_costs_only_the_save() {
        use std::os::unix::fs::PermissionsExt;
        let tables = five_card();
        let dir = temp_dir("readonly");
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        let root = fs::OpenOptions::new().write(true).create_new(true).open(dir.join("probe")).is_ok();
        if !root {
            // (As root, permissions do not stop the write: nothing to test there.)
            assert!(store(&dir, &tables).is_err());
            assert!(load(&dir, Variant::FiveCard).is_err());
            assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "no temporary file left");
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        // A directory where the file should be, and a path under a file: refused, no panic.
        fs::create_dir_all(cache_path(&dir, Variant::FiveCard)).unwrap();
        assert!(load(&dir, Variant::FiveCard).unwrap_err().contains("is not a file"));
        assert!(store(&dir, &tables).is_err());
        fs::remove_dir(cache_path(&dir, Variant::FiveCard)).unwrap();
        // A named pipe there would block a reader's open: it is not opened.
        let made = std::process::Command::new("mkfifo").arg(cache_path(&dir, Variant::FiveCard)).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(load(&dir, Variant::FiveCard).unwrap_err().contains("is not a file"));
            store(&dir, &tables).unwrap(); // renamed over the pipe
            assert_eq!(load(&dir, Variant::FiveCard).unwrap(), tables);
        }
        let file = dir.join("plain");
        fs::write(&file, b"x").unwrap();
        assert!(store(&file.join("sub"), &tables).is_err());
        assert!(load(&file, Variant::FiveCard).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_directory_follows_the_environment() {
        // Read, not set: the environment is the process's, shared by the tests running at once.
        match std::env::var_os(CACHE_DIR_VAR) {
            Some(v) if v.is_empty() || v == "off" => assert_eq!(cache_dir(), None),
            Some(v) => assert_eq!(cache_dir(), Some(PathBuf::from(v))),
            None => {
                if let Some(dir) = cache_dir() {
                    assert!(dir.is_absolute() && dir.ends_with("cribpiquet"), "{dir:?}");
                }
            }
        }
        assert!(cache_path(Path::new("d"), Variant::SixCard)
            .ends_with(format!("inference-tables-six-card-{TABLES_KEY}.bin")));
        assert_eq!(TABLES_KEY.len(), 16);
        assert!(TABLES_KEY.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
