//! One deal scored from its record (`score_game`): `GameScore` and its `GameEvent` log.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::declarations::DeclarationScore;
use super::rules::rules_arg;
use super::{hand_from, optional_hand, optional_player, pair, player_name, Piquet};
use crate::bindings::convert::{self, keywords, Group};
use crate::bindings::display::getters;
use crate::piquet as core;

/// The cards of one trick.
const TRICK: Group = Group { what: "trick", expected: "2", max: 2 };
/// The most tricks of a deal (rules §4: 12 cards each, one per trick).
const MAX_TRICKS: usize = 12;

/// One entry of a game's log.
#[pyclass(frozen, name = "GameEvent", module = "cribpiquet.piquet")]
pub struct GameEvent(core::GameEvent);

getters!(GameEvent, repr[player, kind, points, reason](trick, totals) {
    /// ``"elder"`` or ``"dealer"``.
    player: &'static str = |c| c.player.name(),
    /// What scored (``"point"``, ``"lead"``, ``"trick"``, ``"pique"``, …).
    kind: &'static str = |c| c.kind.name(),
    /// Points scored.
    points: u16,
    /// Why, in words.
    reason: String = |c| c.reason.clone(),
    /// The trick number 1..12, or None for declarations and end-of-play bonuses.
    trick: Option<u8>,
    /// (elder, dealer) running totals after this event.
    totals: (u16, u16) = |c| pair(c.totals),
});

/// A scored game (one deal): totals, winner or рефет, and the ordered event log.
#[pyclass(frozen, name = "GameScore", module = "cribpiquet.piquet")]
pub struct GameScore(core::GameScore);

getters!(GameScore, __str__ = to_string, repr[](totals, winner, difference) {
    /// (elder, dealer) final totals.
    totals: (u16, u16) = |c| pair(c.totals),
    /// The difference written for the winner.
    difference: u16 = |c| c.difference(),
    /// ``"elder"``, ``"dealer"``, or None for a рефет (draw).
    winner: Option<&'static str> = |c| player_name(c.winner()),
    /// Whether the game is a рефет (equal totals).
    is_refet: bool = |c| c.is_refet(),
    /// The declarations compared.
    declarations: DeclarationScore = |c| DeclarationScore(c.declarations.clone()),
    /// (elder, dealer) tricks won.
    tricks_won: (u8, u8) = |c| pair(c.tricks_won),
    /// The winner of each trick.
    trick_winners: Vec<&'static str> = |c| c.trick_winners.iter().map(|p| p.name()).collect(),
    /// Who scored the repique, or None.
    repique: Option<&'static str> = |c| player_name(c.repique),
    /// Whether elder scored the pique.
    pique: bool,
    /// Who took every trick, or None.
    capot: Option<&'static str> = |c| player_name(c.capot),
    /// Whether an announced capot was made.
    open_capot_made: bool,
    /// Every scoring event in order.
    events: Vec<GameEvent> = |c| c.events.iter().cloned().map(GameEvent).collect(),
});

fn tricks_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(core::Card, core::Card)>> {
    let mut tricks = Vec::with_capacity(MAX_TRICKS);
    if let Ok(n) = obj.len() {
        if n > MAX_TRICKS {
            return Err(PyValueError::new_err(format!("a game record has {MAX_TRICKS} tricks, got {n}")));
        }
    }
    let iter = obj
        .try_iter()
        .map_err(|_| PyTypeError::new_err("tricks must be an iterable of (leader's card, follower's card) pairs"))?;
    for (i, pair) in iter.enumerate() {
        let pair = pair?;
        if i == MAX_TRICKS {
            return Err(PyValueError::new_err(format!(
                "a game record has {MAX_TRICKS} tricks, got more than {MAX_TRICKS}"
            )));
        }
        let sized = pair.cast::<pyo3::types::PyList>().map(|l| l.len()).ok();
        if let Some(n) = sized.or_else(|| pair.cast::<PyTuple>().map(|t| t.len()).ok()).filter(|&n| n != 2) {
            return Err(PyValueError::new_err(format!("trick {} must hold 2 cards, got {n}", i + 1)));
        }
        let cards = convert::card_vec::<Piquet>(&pair, TRICK).map_err(|e| {
            let msg = e.value(pair.py()).to_string();
            if e.is_instance_of::<PyTypeError>(pair.py()) {
                PyTypeError::new_err(format!("trick {}: {msg}", i + 1))
            } else {
                PyValueError::new_err(format!("trick {}: {msg}", i + 1))
            }
        })?;
        match cards[..] {
            [a, b] => tricks.push((a, b)),
            _ => return Err(PyValueError::new_err(format!("trick {} must hold 2 cards, got {}", i + 1, cards.len()))),
        }
    }
    Ok(tricks)
}

/// Score a whole game (one deal) from the hands after the exchange and its 12 tricks.
///
/// ``silent=`` names the player of a «молчанка» (what it covers: ``rules.silence_covers``),
/// ``false_declaration=`` the player who declared what he did not hold (he scores nothing; the
/// opponent is not doubled); the pique follows ``rules.pique_blocked_by_play`` (rules §4, §7).
#[pyfunction]
#[pyo3(signature = (elder, dealer, tricks, **options), text_signature = "(elder, dealer, tricks, *, rules=None, \
    elder_dealt=None, dealer_dealt=None, open_capot=None, silent=None, false_declaration=None)")]
pub(super) fn piquet_score_game(
    elder: &Bound<'_, PyAny>,
    dealer: &Bound<'_, PyAny>,
    tricks: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameScore> {
    const NAMES: [&str; 6] = ["rules", "elder_dealt", "dealer_dealt", "open_capot", "silent", "false_declaration"];
    let [rules, elder_dealt, dealer_dealt, open_capot, silent, false_declaration] =
        keywords("piquet_score_game", NAMES, options)?;
    // The player names are read first, as pyo3 reads typed arguments before the call.
    let text = |o: Option<Bound<'_, PyAny>>, name: &str| -> PyResult<Option<String>> {
        o.map(|o| Ok(convert::str_text(&o, name)?.to_owned())).transpose()
    };
    let open_capot = text(open_capot, "open_capot")?;
    let silent = text(silent, "silent")?;
    let false_declaration = text(false_declaration, "false_declaration")?;
    let rules = rules_arg(rules.as_ref())?;
    let options = core::GameOptions {
        elder_dealt: optional_hand(elder_dealt.as_ref())?,
        dealer_dealt: optional_hand(dealer_dealt.as_ref())?,
        open_capot: optional_player(open_capot.as_deref(), "open_capot")?,
        silent: optional_player(silent.as_deref(), "silent")?,
        false_declaration: optional_player(false_declaration.as_deref(), "false_declaration")?,
    };
    let tricks = tricks_from(tricks)?;
    Ok(GameScore(core::score_game(hand_from(elder)?, hand_from(dealer)?, &tricks, &rules, &options)?))
}
