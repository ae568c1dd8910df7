//! Bindings for the exact play solvers: `cribpiquet.solve` and its `Solution`. (The PIMC bot,
//! which plays with them, is a bot like the others: `bots.rs`.)

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::bots::{state_arg, AnyState};
use crate::bots::registry::{objective_name, parse_objective};
use crate::engine::GameState;
use crate::solve::{Objective, Solution, Solve};

/// The exact value of the rest of a deal's play, with every card known.
///
/// ``value`` is the position's value for the player to move, ``action_values`` every legal action
/// with its exact value, ``best_actions`` all optimal actions (ascending),
/// ``principal_variation`` one optimal line of actions to the end of the play, ``nodes`` the
/// positions searched. See :func:`cribpiquet.solve` for the scale.
#[pyclass(frozen, name = "Solution", module = "cribpiquet")]
pub struct PySolution {
    solution: Solution,
    /// The action texts for the repr: best actions, principal variation.
    texts: (Vec<String>, Vec<String>),
    objective: Objective,
}

#[pymethods]
impl PySolution {
    /// The value for the player to move: ``"points"`` the point difference to the end of the
    /// deal, ``"win"`` the chance to win (0..1).
    #[getter]
    fn value(&self) -> f64 {
        self.solution.value
    }

    /// ``{action: value}`` for every legal action of the player to move.
    #[getter]
    fn action_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for &(a, v) in &self.solution.action_values {
            d.set_item(a, v)?;
        }
        Ok(d)
    }

    /// Every optimal action, ascending.
    #[getter]
    fn best_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.solution.best_actions)
    }

    /// One optimal line of play from here to the end of the play (action ids).
    #[getter]
    fn principal_variation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.solution.principal_variation)
    }

    /// Positions searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.solution.nodes
    }

    /// The objective solved for (``"points"`` or ``"win"``).
    #[getter]
    fn objective(&self) -> &'static str {
        objective_name(self.objective)
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(value={:?}, objective='{}', best_actions=[{}], principal_variation=[{}], nodes={})",
            self.solution.value,
            objective_name(self.objective),
            self.texts.0.join(" "),
            self.texts.1.join(" "),
            self.solution.nodes
        )
    }
}

fn texts<S: GameState>(state: &S, actions: &[u16]) -> Vec<String> {
    actions.iter().map(|&a| state.action_to_string(a).unwrap_or_else(|_| a.to_string())).collect()
}

/// The exact value of the rest of the current deal's play from ``state``, with every card known
/// (the state's own cards: a real state, or a world from ``resample_from_infostate``).
///
/// ``state`` must be in the play phase with a player to move; a chance node, a finished game or
/// any other phase is a ``ValueError`` naming the phase. ``objective="points"``: the mover's
/// points minus the opponent's from now to the end of the deal (cribbage: pegging and the show;
/// the target is ignored). ``objective="win"``: the mover's chance to win the game (cribbage:
/// the game ends when a side reaches the target in the play or the show; a deal's end is valued
/// by the IS-MCTS win table). Three-player cribbage is solved by max-n: each player maximises his
/// points minus the best other player's (``"points"``) or his own chance (``"win"``). The
/// interpreter is released while it searches.
///
/// >>> from cribpiquet import cribbage, solve
/// >>> s = cribbage.Game("six-card").new_initial_state()
/// >>> while s.phase != "play":
/// ...     s.apply_action(s.legal_actions()[0])
/// >>> sol = solve(s)
/// >>> sol.value == max(sol.action_values.values()) and sol.best_actions[0] in s.legal_actions()
/// True
#[pyfunction]
#[pyo3(signature = (state, *, objective = None), text_signature = "(state, *, objective='points')")]
fn solve(py: Python<'_>, state: &Bound<'_, PyAny>, objective: Option<&Bound<'_, PyAny>>) -> PyResult<PySolution> {
    let state = state_arg(state, "solve")?;
    let objective = match objective {
        Some(o) => parse_objective(super::convert::str_arg(o, "objective")?.to_str()?)?,
        None => Objective::Points,
    };
    let (solution, texts) = py.detach(|| -> crate::error::Result<_> {
        Ok(match state {
            AnyState::Cribbage(s) => {
                let sol = s.solve(objective)?;
                let t = (texts(&s, &sol.best_actions), texts(&s, &sol.principal_variation));
                (sol, t)
            }
            AnyState::Piquet(s) => {
                let sol = s.solve(objective)?;
                let t = (texts(&s, &sol.best_actions), texts(&s, &sol.principal_variation));
                (sol, t)
            }
        })
    })?;
    Ok(PySolution { solution, texts, objective })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolution>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}

super::display::display! { PySolution => "record_html" }
