//! The double-dummy solver for piquet (see [`super`]).
