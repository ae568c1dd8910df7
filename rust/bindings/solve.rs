//! Bindings for the exact play solvers and the PIMC bot: `cribpiquet.solve`, `Solution`,
//! `cribpiquet.bots.PIMC`.
//!
//! `PIMC` is a `Bot` subclass like the others: its settings are the registry's
//! [`BotSpec::Pimc`], so `step`, `action_values`, `restart`, pickling, `simulate`, the arena and
//! the name `"pimc:N"` are the shared ones, and Ctrl-C reaches it through the engine's interrupt
//! flag (checked before each world).

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::bots::{objective_name, state_arg, AnyState, PyBot};
use super::convert::{seed_from, IntArg};
use crate::bots::pimc::{BeforePlay, PimcConfig};
use crate::bots::registry::BotSpec;
use crate::engine::GameState;
use crate::solve::{Objective, Solution, Solve};

fn objective_arg(obj: Option<&Bound<'_, PyAny>>, default: Objective) -> PyResult<Objective> {
    let Some(obj) = obj else { return Ok(default) };
    let text = super::convert::str_arg(obj, "objective")?.to_str()?.trim().to_ascii_lowercase();
    match text.as_str() {
        "points" => Ok(Objective::Points),
        "win" => Ok(Objective::Win),
        _ => Err(PyValueError::new_err(format!(
            "objective must be 'points' or 'win', got {:?}",
            crate::error::echo(&text)
        ))),
    }
}

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
    let objective = objective_arg(objective, Objective::Points)?;
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

// ------------------------------------------------------------------------------------ PIMC

/// Perfect-Information Monte Carlo: at each decision, ``worlds`` deals consistent with what the
/// player to move has seen are drawn (``resample_from_infostate``), every legal action is valued
/// in each of them with every card face up, and the best mean is played (ties: the lowest
/// action).
///
/// In the play, the worlds are solved exactly (:func:`cribpiquet.solve`). Before the play,
/// ``before_play`` says how a two-player cribbage discard or a piquet exchange (its size, each
/// card laid away) is valued: ``"exact"`` (the default, the strongest measured) by
/// :class:`Greedy`'s exact expectation alone (the hand and crib over every starter and throw;
/// the expected declarations over every draw), no worlds; ``"exact+play"`` by that plus the mean
/// over the worlds of the solved play's point difference; ``"worlds"`` (and every other
/// decision before the play, whatever the setting: the open capot, three- and four-player
/// discards) in each world, the action applied, the other players' decisions made by
/// :class:`Greedy` and the chance events drawn from the world's own seed, and the solver valuing
/// the play that follows (cribbage: the pegging solved once, the show and heels averaged over
/// every starter the world leaves); ``"ismcts"`` hands every decision before the play to
/// :class:`ISMCTS` with 2,000 iterations (its values, its choice). With ``objective="win"`` an
/// exact value in points is shown on
/// the win scale (cribbage: the win table with half the difference to each side; piquet:
/// ``½ + ½·tanh(x / 40)``; a piquet match's deals before the one that can end it are solved for
/// points, shown on that scale: the deal won would ignore the margin the match counts).
/// ``objective``: ``"win"`` (the chance to win,
/// 0..1) or ``"points"`` (the deal's point difference). ``inference=True`` weights the worlds
/// by how likely the opponent's own discard is in each (two-player cribbage: a softmax over his
/// discard values under the equilibrium discard tables, computed once per process at first
/// use, a few seconds); piquet worlds are not weighted. ``threads`` split the worlds; the same
/// ``seed`` gives the same actions whatever the thread count (unless ``time_limit``, seconds per
/// decision, stops first). Ctrl-C stops a decision within one world.
///
/// >>> from cribpiquet import bots
/// >>> bots.PIMC(worlds=20, seed=1)
/// PIMC(worlds=20, objective='win', threads=1, seed=1, time_limit=None, inference=True, before_play='exact')
#[pyclass(extends = PyBot, frozen, name = "PIMC", module = "cribpiquet.bots")]
pub struct PyPimc;

#[pymethods]
impl PyPimc {
    #[new]
    #[pyo3(signature = (worlds = None, objective = None, threads = None, seed = None, time_limit = None, inference = None, before_play = None),
           text_signature = "(worlds=100, objective='win', threads=1, seed=0, time_limit=None, inference=True, before_play='exact')")]
    fn new(
        worlds: Option<IntArg>,
        objective: Option<&Bound<'_, PyAny>>,
        threads: Option<IntArg>,
        seed: Option<&Bound<'_, PyAny>>,
        time_limit: Option<&Bound<'_, PyAny>>,
        inference: Option<&Bound<'_, PyAny>>,
        before_play: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<PyPimc>> {
        let mut config = PimcConfig::default();
        if let Some(n) = worlds {
            config.worlds = n.within("worlds", 1..(u32::MAX as i64 + 1))? as u32;
        }
        config.objective = objective_arg(objective, Objective::Win)?;
        if let Some(t) = threads {
            config.threads = t.within("threads", 1..257)? as usize;
        }
        let mut seconds = None;
        if let Some(t) = time_limit.filter(|t| !t.is_none()) {
            let t = super::bots::float_arg(t, "time_limit")?;
            if !(t.is_finite() && t > 0.0 && t < 1e9) {
                return Err(PyValueError::new_err(format!(
                    "time_limit must be a number of seconds > 0 and < 1e9, got {}",
                    super::bots::float_repr(t)
                )));
            }
            config.time_limit = Some(Duration::from_secs_f64(t));
            seconds = Some(t);
        }
        if let Some(e) = inference {
            config.inference = super::convert::bool_arg(e, "inference")?;
        }
        if let Some(b) = before_play {
            let text = super::convert::str_arg(b, "before_play")?.to_str()?.trim().to_ascii_lowercase();
            config.before_play = BeforePlay::from_name(&text)?;
        }
        let seed = seed.map_or(Ok(0), seed_from)?;
        Ok(PyClassInitializer::from(PyBot::new(BotSpec::Pimc(config), seed, seconds)?).add_subclass(PyPimc))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolution>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_class::<PyPimc>()?;
    Ok(())
}

super::display::display! { PySolution => "record_html" }
