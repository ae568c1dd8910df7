//! The exact pegging solver for cribbage (see [`super`]).
