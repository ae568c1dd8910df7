//! The players of `simulate` and the arena: a name of the bots' registry (`"random"`,
//! `"ismcts:N"`, …) or a bot object of `cribpiquet.bots`, read into policy factories. The bots'
//! base class [`PyBot`] is declared here, below the engines' bindings that read players, and
//! given its methods and subclasses by the bots' binding (`bots.rs`), which stands above them.

use std::any::Any;
use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::bindings::convert::describe;
use crate::bots::registry::{BotGame, BotSettings, BotSpec};
use crate::bots::Bot;
use crate::engine::PolicyFactory;
use crate::rng::Rng;

/// A bot (the base class of every bot of :mod:`cribpiquet.bots`).
///
/// A bot plays either game: :meth:`step` returns the action it plays for the player to move,
/// :meth:`action_values` what it thinks each legal action is worth (the scale is the bot's, see
/// its class), :meth:`restart` forgets the game so far and reseeds the bot's generator, so the
/// same calls after a restart give the same answers. A chance node or a finished game is a
/// ``ValueError``. Bots are accepted by ``simulate(players=...)`` and :func:`cribpiquet.arena`,
/// which give each seat of each game a fresh copy drawing from that game's generator.
///
/// A bot pickles and copies (``pickle``, ``copy.deepcopy``) as its settings: the copy is the
/// bot as made (or restarted), with an equal repr, and plays the same actions from the same
/// calls.
///
/// >>> from cribpiquet import bots, cribbage
/// >>> s = cribbage.Game("five-card").new_initial_state()
/// >>> while s.is_chance_node():
/// ...     s.apply_action(s.legal_actions()[0])
/// >>> bots.First().step(s) == s.legal_actions()[0]
/// True
#[pyclass(subclass, frozen, name = "Bot", module = "cribpiquet.bots")]
pub struct PyBot {
    /// The settings (checked).
    pub(crate) settings: BotSettings,
    /// What it holds while it plays.
    pub(crate) live: Mutex<Live>,
}

/// What a Python bot holds while it plays: its generator and its live bot of each game it has
/// played (made on first use, found by its type).
pub(crate) struct Live {
    rng: Rng,
    bots: Vec<Box<dyn Any + Send>>,
}

impl Live {
    /// No live bot yet, the generator seeded by `seed`.
    pub(crate) fn new(seed: u64) -> Live {
        Live { rng: Rng::new(seed), bots: Vec::new() }
    }

    /// The generator and the live bot of `S`'s game (`make` makes it the first time).
    pub(crate) fn bot<S: BotGame>(&mut self, make: impl FnOnce() -> Box<dyn Bot<S>>) -> (&mut Rng, &mut dyn Bot<S>) {
        let i = self.bots.iter().position(|b| b.is::<Box<dyn Bot<S>>>()).unwrap_or_else(|| {
            self.bots.push(Box::new(make()));
            self.bots.len() - 1
        });
        let Some(bot) = self.bots[i].downcast_mut::<Box<dyn Bot<S>>>() else { unreachable!("a bot of its game") };
        (&mut self.rng, bot.as_mut())
    }
}

/// One policy of `simulate` and the arena: a name of the bots' registry (`"random"`, `"greedy"`,
/// `"ismcts:N"`, …: [`BotSpec::parse`]) or a bot object of `cribpiquet.bots` (each seat of each
/// game gets a fresh bot of its settings).
pub(crate) fn policy_from<S: BotGame>(item: &Bound<'_, PyAny>) -> PyResult<PolicyFactory<S>> {
    if let Ok(bot) = item.cast::<PyBot>() {
        return Ok(bot.get().settings.spec.policy_factory());
    }
    let name = item.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "a player must be a name like \"random\" or a cribpiquet.bots bot, got {}",
            describe(item)
        ))
    })?;
    let name = super::convert::text(name, "player")?;
    match BotSpec::parse(name)? {
        Some(spec) => Ok(spec.policy_factory()),
        None => Err(PyValueError::new_err(format!(
            "unknown player {:?} (known: {}, or a cribpiquet.bots bot)",
            crate::error::echo(name),
            crate::bots::registry::name_forms().join(", ")
        ))),
    }
}

/// The policies of `simulate`: one player (a name or a bot) for every seat, or a sequence of 1
/// or `n` of them.
pub(crate) fn policies_from<S: BotGame>(players: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<PolicyFactory<S>>> {
    if players.cast::<PyString>().is_ok() || players.cast::<PyBot>().is_ok() {
        return Ok(vec![policy_from(players)?]);
    }
    let iter = players.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "players must be a player (a name or a bot) or a sequence of them, got {}",
            describe(players)
        ))
    })?;
    let mut out = Vec::with_capacity(n);
    for item in iter {
        let item = item?;
        if out.len() == n {
            return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got more than {n}")));
        }
        out.push(policy_from(&item)?);
    }
    if out.len() != 1 && out.len() != n {
        return Err(PyValueError::new_err(format!("players must name 1 or {n} policies, got {}", out.len())));
    }
    Ok(out)
}
