//! The double-dummy solver for piquet (see [`super`]).
//!
//! Scaffold: the solver itself is being written; until then [`Solve::solve`] refuses every
//! position with an error, so the shared bindings and the PIMC bot compile against both games.

use super::{Objective, Solution, Solve};
use crate::error::{Error, Result};
use crate::piquet::State;

impl Solve for State {
    fn solve(&self, _objective: Objective) -> Result<Solution> {
        Err(Error::InvalidValue("the piquet solver is not built yet".to_string()))
    }
}
