//! Evaluation below the players and the solvers: the cheap rollout policy both games' searches
//! play out with ([`heuristic::Heuristic`]) and the cribbage win-probability model measured by its
//! self-play ([`winprob::WinTable`]).
//!
//! Both the bots (IS-MCTS, PIMC, Greedy) and the exact solvers (the cribbage solver's win
//! objective) use them, so they live here, imported by both, rather than in either: the bots
//! import the solvers (PIMC), and nothing imports back up. `crate::bots::{heuristic, winprob}`
//! re-export them under their former paths.

pub mod heuristic;
pub mod winprob;
