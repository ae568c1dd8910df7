//! A small, fast, seedable random number generator (xoshiro256++ seeded by SplitMix64).
//!
//! Used by benchmarks, tests and the game engines' playouts. It is not cryptographic.

/// xoshiro256++: 256 bits of state, period 2^256 − 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded from one `u64`; equal seeds give equal streams.
    ///
    /// ```
    /// let mut a = cribpiquet::rng::Rng::new(7);
    /// let mut b = cribpiquet::rng::Rng::new(7);
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        Rng { s: [splitmix64(&mut x), splitmix64(&mut x), splitmix64(&mut x), splitmix64(&mut x)] }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32 for
    /// the small `n` used here).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Shuffle a slice uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Shuffle the first `k` places of a slice (a partial Fisher–Yates, `k` draws): they become a
    /// uniform random sample of `k` of the items, in random order. How cards are dealt from a pack
    /// when only the first few matter.
    ///
    /// ```
    /// use cribpiquet::rng::Rng;
    /// let mut pack: Vec<u8> = (0..52).collect();
    /// Rng::new(7).shuffle_prefix(&mut pack, 5);
    /// let mut all = pack.clone();
    /// all.sort();
    /// assert_eq!(all, (0..52).collect::<Vec<u8>>()); // a permutation, its first 5 the sample
    /// ```
    #[inline]
    pub fn shuffle_prefix<T>(&mut self, items: &mut [T], k: usize) {
        let n = items.len();
        for i in 0..k.min(n) {
            let j = i + self.below((n - i) as u32) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Rng::new(2);
        let mut v: Vec<u32> = (0..52).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..52).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
