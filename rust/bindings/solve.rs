//! Bindings for the exact play solvers: `cribpiquet.solve` and its `Solution`. (The PIMC bot,
//! which plays with them, is a bot like the others: `bots.rs`.)

use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyTuple};

use super::games::{each_game, AnyState};
use crate::solve::{Objective, Solution, Solve};

/// The exact value of the rest of a deal's play, with every card known.
///
/// ``value`` is the position's value for the player to move, ``action_values`` every legal action
/// with its exact value, ``best_actions`` all optimal actions (ascending),
/// ``principal_variation`` one optimal line of actions to the end of the play, ``nodes`` the
/// positions searched. See :func:`cribpiquet.solve` for the scale.
#[pyclass(frozen, name = "Solution", module = "cribpiquet")]
pub struct PySolution {
    /// The value for the player to move: ``"points"`` the point difference to the end of the
    /// deal, ``"win"`` the chance to win (0..1).
    #[pyo3(get)]
    value: f64,
    action_values: Vec<(u16, f64)>,
    /// Every optimal action, ascending.
    #[pyo3(get)]
    best_actions: Py<PyTuple>,
    /// One optimal line of play from here to the end of the play (action ids).
    #[pyo3(get)]
    principal_variation: Py<PyTuple>,
    /// Positions searched.
    #[pyo3(get)]
    nodes: u64,
    /// The objective solved for (``"points"`` or ``"win"``).
    #[pyo3(get)]
    objective: &'static str,
    repr: String,
}

#[pymethods]
impl PySolution {
    /// ``{action: value}`` for every legal action of the player to move.
    #[getter]
    fn action_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.action_values.iter().copied().into_py_dict(py)
    }

    fn __repr__(&self) -> String {
        self.repr.clone()
    }
}

/// The solution of `state`, with its repr (the actions as text).
fn solved<S: Solve>(state: &S, objective: Objective) -> crate::Result<(Solution, String)> {
    let s = state.solve(objective)?;
    let texts = |actions: &[u16]| -> String {
        let text = |&a: &u16| state.action_to_string(a).unwrap_or_else(|_| a.to_string());
        actions.iter().map(text).collect::<Vec<_>>().join(" ")
    };
    let repr = format!(
        "Solution(value={:?}, objective='{}', best_actions=[{}], principal_variation=[{}], nodes={})",
        s.value,
        objective.name(),
        texts(&s.best_actions),
        texts(&s.principal_variation),
        s.nodes
    );
    Ok((s, repr))
}

/// The exact value of the rest of the current deal's play from ``state``, with every card known
/// (the state's own cards: a real state, or a world from ``resample_from_infostate``).
///
/// ``state`` must be in the play phase with a player to move; a chance node, a finished game or
/// any other phase is a ``ValueError`` naming the phase. ``objective="points"``: the mover's
/// points minus the opponent's from now to the end of the deal (cribbage: pegging and the show;
/// piquet: the play's points and, at a rubicon first lead, the dealer's declarations, which the
/// engine credits after elder's lead whatever is played; the target is ignored): the principal
/// variation played out on the engine scores it. ``objective="win"``: the mover's chance to win the game (cribbage:
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
    let state = AnyState::of(state, "solve")?;
    let objective = match objective {
        Some(o) => Objective::parse(super::convert::str_text(o, "objective")?)?,
        None => Objective::Points,
    };
    let (s, repr) = py.detach(|| each_game!(AnyState, state, s => solved(&s, objective)))?;
    Ok(PySolution {
        value: s.value,
        best_actions: PyTuple::new(py, &s.best_actions)?.unbind(),
        principal_variation: PyTuple::new(py, &s.principal_variation)?.unbind(),
        nodes: s.nodes,
        objective: objective.name(),
        action_values: s.action_values,
        repr,
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolution>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}

