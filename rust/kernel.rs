//! Which batch kernel runs: the scalar reference or a vectorised path (AVX2, AVX-512), chosen once
//! per batch call from the CPU's features, or forced by the environment variable
//! `CRIBPIQUET_KERNEL` (`scalar`, `avx2`, `avx512`; unset or `auto` chooses the best available).
//!
//! The scalar kernel is the reference: every vectorised path is tested bit-identical to it. A
//! path the CPU lacks is never run: forcing it is an error that says what the CPU has.
//!
//! ```
//! use cribpiquet::kernel::Kernel;
//! assert!(Kernel::Scalar.is_available());
//! assert!(Kernel::available().contains(&Kernel::best()));
//! assert_eq!(Kernel::by_name("avx2"), Some(Kernel::Avx2));
//! ```

use crate::error::{Error, Result};
use crate::names::named_enum;

/// The environment variable that forces a kernel.
pub const ENV_VAR: &str = "CRIBPIQUET_KERNEL";

named_enum! {
    /// A batch kernel: the scalar reference or a vectorised path.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Kernel {
        /// Plain Rust, one row at a time: the reference every other path must equal.
        Scalar => "scalar",
        /// 256-bit vectors (AVX2 with BMI2).
        Avx2 => "avx2",
        /// 512-bit vectors (AVX-512 F, BW, VL and VBMI).
        Avx512 => "avx512",
    }
}

impl Kernel {
    /// Whether this CPU can run this kernel.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => is_x86_feature_detected!("avx2") && is_x86_feature_detected!("bmi2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vl")
                    && is_x86_feature_detected!("avx512vbmi")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The kernels this CPU can run, scalar first.
    pub fn available() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.is_available()).collect()
    }

    /// Whether this kernel has been run against the scalar reference on a CPU that has it.
    /// The AVX-512 kernels have not: the project's machines (and so its CI) have AVX2 but not
    /// AVX-512, so they run only when `CRIBPIQUET_KERNEL=avx512` asks for them, and their
    /// exhaustive tests run wherever the CPU has the features.
    pub fn is_verified(self) -> bool {
        !matches!(self, Kernel::Avx512)
    }

    /// The fastest verified kernel this CPU can run (what `auto` and an unset
    /// `CRIBPIQUET_KERNEL` choose).
    pub fn best() -> Kernel {
        Kernel::ALL.into_iter().rev().find(|k| k.is_available() && k.is_verified()).unwrap_or(Kernel::Scalar)
    }

    /// `name` (`"scalar"`, `"avx2"`, `"avx512"`, or `"auto"` for [`best`](Self::best)) as a
    /// kernel this CPU can run; an unknown name or a kernel the CPU lacks is an error saying
    /// which kernels it has.
    pub fn parse(name: &str) -> Result<Kernel> {
        let have = || Kernel::available().iter().map(|k| k.name()).collect::<Vec<_>>().join(", ");
        let kernel = match name.trim() {
            "" | "auto" => return Ok(Kernel::best()),
            other => Kernel::by_name(other).ok_or_else(|| {
                Error::InvalidValue(format!(
                    "unknown kernel {:?} (expected auto, {})",
                    crate::error::echo(other),
                    Kernel::NAMES.join(", ")
                ))
            })?,
        };
        if kernel.is_available() {
            Ok(kernel)
        } else {
            Err(Error::InvalidValue(format!(
                "kernel {} is not available on this CPU (it has: {})",
                kernel.name(),
                have()
            )))
        }
    }

    /// The kernel a batch call runs now: the one `CRIBPIQUET_KERNEL` names, else the best.
    /// Read once per batch call (not per row), so a test or a benchmark can switch paths
    /// between calls.
    pub fn chosen() -> Result<Kernel> {
        match std::env::var(ENV_VAR) {
            Ok(name) => Kernel::parse(&name).map_err(|e| {
                Error::InvalidValue(format!("{ENV_VAR}={:?}: {e}", crate::error::echo(&name)))
            }),
            Err(std::env::VarError::NotPresent) => Ok(Kernel::best()),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(Error::InvalidValue(format!("{ENV_VAR} is not valid text")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_unknown_ones_are_refused() {
        assert_eq!(Kernel::parse("scalar"), Ok(Kernel::Scalar));
        assert_eq!(Kernel::parse("auto"), Ok(Kernel::best()));
        let err = Kernel::parse("sse9").unwrap_err().to_string();
        assert!(err.contains("unknown kernel \"sse9\""), "{err}");
        for k in Kernel::ALL {
            match Kernel::parse(k.name()) {
                Ok(got) => assert!(got == k && k.is_available()),
                Err(e) => {
                    assert!(!k.is_available());
                    assert!(e.to_string().contains("not available on this CPU"), "{e}");
                }
            }
        }
    }

    #[test]
    fn best_is_the_last_available_verified_one() {
        let avail = Kernel::available();
        assert_eq!(avail[0], Kernel::Scalar);
        let verified: Vec<Kernel> = avail.into_iter().filter(|k| k.is_verified()).collect();
        assert_eq!(*verified.last().unwrap(), Kernel::best());
        assert_ne!(Kernel::best(), Kernel::Avx512);
    }
}
