//! Piquet (Russian and Rubicon rules): see `rules/piquet.md`.
