//! [`Greedy`]: exact one-step players for cribbage and piquet (work in progress).
