//! Tables computed once per build, kept in the user's cache directory: PIMC's inference tables
//! (`cribbage::tables_cache`) and the win tables of the cribbage bots (`eval::winprob`). Each is
//! deterministic for a build, costs a fraction of a second to seconds to compute at first use,
//! and is read back from a file by every later process in a millisecond. This module knows only
//! files of bytes; each user encodes and checks its own contents.
//!
//! # Where the files go
//!
//! [`dir`]: `CRIBPIQUET_CACHE_DIR` if set (empty or `off`: no cache, everything is computed in
//! each process); otherwise the platform's cache directory: `$XDG_CACHE_HOME` (if an absolute
//! path) or `~/.cache` on Linux and the BSDs, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
//! Windows, then `cribpiquet/`. A directory that cannot be created or written (read-only,
//! absent, full) only means the next process computes the tables too: a caller never fails for
//! the cache.
//!
//! # What is trusted
//!
//! A file is named and headed with the build's key ([`KEY`]: a hash, made by `build.rs`, of the
//! crate version and of every core source, so another build's file is never read); it is read
//! only if it is a regular file (a pipe would block the open) and no further than the longest
//! file its user expects; its length, its header and a checksum over the whole file must match
//! ([`read`]), and then its user checks the contents as it checks any table from outside. A file
//! failing any check is recomputed and replaced. The checksum finds damage (truncation, flipped
//! bits, a half-written file), not forgery: whoever can write the user's cache directory can
//! write a file that passes, within the ranges its user checks. Files are written to a temporary
//! file in the same directory and renamed into place ([`write`]), so a reader never sees half a
//! file and processes racing to write one leave one whole copy.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The build's key (see the module docs): in every file's name and header.
pub const KEY: &str = env!("CRIBPIQUET_CACHE_KEY");

/// The environment variable that relocates the cache directory (empty or `off`: no cache).
pub const DIR_VAR: &str = "CRIBPIQUET_CACHE_DIR";

/// The first bytes of every file; the build's key follows.
const MAGIC: &[u8; 17] = b"cribpiquet cache\n";

/// Bytes a file has beyond its contents: the magic, the key, the checksum.
pub const OVERHEAD: usize = MAGIC.len() + 16 + 8;

/// The directory of the cached tables, or `None` when caching is off or no home is known (see
/// the module docs). Read from the environment at each call.
pub fn dir() -> Option<PathBuf> {
    use std::env::var_os;
    if let Some(dir) = var_os(DIR_VAR) {
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

/// The file `name` in `dir`: the build's key added to the name.
pub fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}-{KEY}.bin"))
}

/// FNV-1a, 64 bits: the checksum of a file (damage, not forgery: see the module docs).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A file's bytes for `contents`: the magic, the key, the contents, the checksum.
pub fn frame(contents: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(contents.len() + OVERHEAD);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(KEY.as_bytes());
    out.extend_from_slice(contents);
    out.extend_from_slice(&checksum(&out).to_le_bytes());
    out
}

/// The contents of a file's bytes, if its header is this build's and its checksum matches.
pub fn unframe(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.len() < OVERHEAD || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a cribpiquet cache file".into());
    }
    if &bytes[MAGIC.len()..MAGIC.len() + 16] != KEY.as_bytes() {
        return Err("a file of another build".into());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err("the checksum does not match".into());
    }
    Ok(&body[MAGIC.len() + 16..])
}

/// The contents of the file `name` in `dir` (see [`unframe`]), read only if it is a regular file
/// and no further than `max_contents` bytes of contents; the error says what is wrong.
pub fn read(dir: &Path, name: &str, max_contents: usize) -> Result<Vec<u8>, String> {
    let path = path(dir, name);
    let meta = fs::metadata(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    let file = fs::File::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take((max_contents + OVERHEAD) as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > max_contents + OVERHEAD {
        return Err(format!("{} is longer than such a file can be", path.display()));
    }
    Ok(unframe(&bytes)?.to_vec())
}

/// Save `contents` as the file `name` in `dir` (created if need be): written to a temporary file
/// beside it, then renamed over it.
pub fn write(dir: &Path, name: &str, contents: &[u8]) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let path = path(dir, name);
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let file_name = path.file_name().expect("a file name").to_string_lossy();
    let temp = dir.join(format!(".{file_name}.{}-{stamp}.tmp", std::process::id()));
    let written = (|| {
        let mut file = fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(&frame(contents))?;
        file.sync_all()?;
        fs::rename(&temp, &path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A fresh directory under the system's temporary one (removed by the test).
    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cribpiquet-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_file_reads_back_its_contents_and_damage_is_found() {
        let dir = temp_dir("frame");
        let contents: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert!(read(&dir, "t", 1000).is_err(), "no directory yet");
        write(&dir, "t", &contents).unwrap();
        assert_eq!(read(&dir, "t", 1000).unwrap(), contents);
        assert!(read(&dir, "t", 999).unwrap_err().contains("longer than such a file can be"));
        let names: Vec<String> =
            fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, [format!("t-{KEY}.bin")]); // no temporary file left
        let good = frame(&contents);
        let mut rng = Rng::new(3031);
        for case in 0..3000 {
            let mut bytes = good.clone();
            match case % 3 {
                0 => {
                    let at = rng.below(bytes.len() as u32) as usize;
                    bytes[at] ^= 1 << rng.below(8);
                }
                1 => bytes.truncate(rng.below(bytes.len() as u32) as usize),
                _ => {
                    let at = rng.below(bytes.len() as u32) as usize;
                    let junk: Vec<u8> = (0..1 + rng.below(64)).map(|_| rng.below(256) as u8).collect();
                    bytes.splice(at..at, junk);
                }
            }
            assert!(unframe(&bytes).is_err(), "case {case}");
        }
        let mut other = good.clone();
        other[MAGIC.len()] ^= 1;
        assert_eq!(unframe(&other).unwrap_err(), "a file of another build");
        assert_eq!(unframe(b"").unwrap_err(), "not a cribpiquet cache file");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_that_cannot_be_written_a_directory_or_a_pipe_costs_only_the_save() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("unwritable");
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        let root = fs::OpenOptions::new().write(true).create_new(true).open(dir.join("probe")).is_ok();
        if !root {
            // (As root, permissions do not stop the write: nothing to test there.)
            assert!(write(&dir, "t", b"x").is_err());
            assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "no temporary file left");
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        // A directory where the file should be, and a path under a file: refused, no panic.
        fs::create_dir_all(path(&dir, "t")).unwrap();
        assert!(read(&dir, "t", 10).unwrap_err().contains("is not a file"));
        assert!(write(&dir, "t", b"x").is_err());
        fs::remove_dir(path(&dir, "t")).unwrap();
        // A named pipe there would block a reader's open: it is not opened.
        let made = std::process::Command::new("mkfifo").arg(path(&dir, "t")).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(read(&dir, "t", 10).unwrap_err().contains("is not a file"));
            write(&dir, "t", b"x").unwrap(); // renamed over the pipe
            assert_eq!(read(&dir, "t", 10).unwrap(), b"x");
        }
        let file = dir.join("plain");
        fs::write(&file, b"x").unwrap();
        assert!(write(&file.join("sub"), "t", b"x").is_err());
        assert!(read(&file, "t", 10).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_directory_follows_the_environment() {
        // Read, not set: the environment is the process's, shared by the tests running at once.
        match std::env::var_os(DIR_VAR) {
            Some(v) if v.is_empty() || v == "off" => assert_eq!(dir(), None),
            Some(v) => assert_eq!(dir(), Some(PathBuf::from(v))),
            None => {
                if let Some(dir) = dir() {
                    assert!(dir.is_absolute() && dir.ends_with("cribpiquet"), "{dir:?}");
                }
            }
        }
        assert!(path(Path::new("d"), "x-y").ends_with(format!("x-y-{KEY}.bin")));
        assert_eq!(KEY.len(), 16);
        assert!(KEY.bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
