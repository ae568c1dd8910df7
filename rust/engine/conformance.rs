//! The conformance suite every engine passes: one generic function, [`check_game`], run once per
//! game (and configuration) by the engines' tests. A new engine written against [`GameState`]
//! gets the same checks for free.
//!
//! It plays random games and checks, at every step:
//!
//! * **the action set**: legal actions ascending and distinct, empty exactly at the end;
//!   `is_legal` agrees with them (for every legal action and for random other ids); chance
//!   outcomes are the legal actions with probabilities summing to 1; the player to move is a seat,
//!   [`CHANCE`] or [`TERMINAL`]; a chance outcome's [`action_cards`](GameState::action_cards)
//!   are its card; a finished game is at most [`max_game_length`](Game::max_game_length) long;
//! * **illegal actions** are refused (core and [`StateStack`]) with the state and history unchanged;
//! * **scores**: every side's points by source add up to its score; scores never decrease, and
//!   each action's rewards are the score changes of each player's side; the
//!   payoffs are 0 before the end, and at the end lie in `[min_utility, max_utility]` and sum to
//!   `utility_sum`, with a winner (or a draw at zero);
//! * **round trips**: `serialize` → `deserialize_state` gives an equal state and the same text;
//!   [`StateStack`] undo restores every earlier state exactly; a copy undoes like the original;
//! * **mutated texts** ([`mutate`]: truncated, a field dropped, doubled or added, a value
//!   replaced by junk or by another state's, a number moved by one, list items swapped or
//!   copied — cards moved between hands, a card twice —, a hex digit changed): each is refused, or
//!   accepted as a state that round-trips and plays to the end through the checked API
//!   ([`check_text`]); never a panic, a stuck state or a state whose own text is refused
//!   ([`check_texts`] runs only these text checks, over many games);
//! * **information**: for each player, a state resampled from the information state has the same
//!   information string and tensor, is consistent (its own round trip works) and plays on; over
//!   everything seen, two information tensors are equal exactly when the strings are, and two
//!   observation tensors exactly when the observation strings are.
//!
//! ```
//! use cribpiquet::engine::conformance::check_game;
//! use cribpiquet::piquet::{GameConfig, Rules, Scope};
//! check_game(&GameConfig::new(Rules::russian(), Scope::Deal).unwrap(), 3, 1).unwrap();
//! ```

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::{Game, GameState, StateStack, CHANCE, TERMINAL};
use crate::rng::Rng;

/// What [`check_game`] looked at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played to the end.
    pub games: usize,
    /// Actions applied.
    pub actions: usize,
    /// Resampled states checked.
    pub resamples: usize,
    /// Distinct information states seen.
    pub information_states: usize,
    /// Mutated state texts tried ([`mutate`]).
    pub mutants: usize,
    /// Mutated texts accepted (each then checked as a state of its own).
    pub mutants_accepted: usize,
}

/// A failed check: what and where (game index, action number, the state).
fn fail<S: GameState>(game: usize, step: usize, state: &S, what: impl std::fmt::Display) -> String {
    format!("{} game {game}, action {step}: {what}\nstate: {}", S::Game::NAME, state.serialize())
}

/// Play `n_games` random games of `game` (seeded by `seed`) and run every check of the module
/// docs; `Err` describes the first failure.
pub fn check_game<G: Game>(game: &G, n_games: usize, seed: u64) -> Result<Report, String> {
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    // Per player: hash of the information string -> hash of the tensor's bits, and back.
    let mut by_string: Vec<HashMap<u64, u64>> = vec![HashMap::new(); game.num_players()];
    let mut by_tensor: Vec<HashMap<u64, u64>> = vec![HashMap::new(); game.num_players()];
    // The same for the observation string and tensor.
    let mut obs_by_string: Vec<HashMap<u64, u64>> = vec![HashMap::new(); game.num_players()];
    let mut obs_by_tensor: Vec<HashMap<u64, u64>> = vec![HashMap::new(); game.num_players()];
    for g in 0..n_games {
        let mut stack = StateStack::new(game.new_initial_state());
        let mut states = vec![*stack.state()];
        let mut prev_scores = vec![0u64; game.num_sides()];
        loop {
            let state = *stack.state();
            let step = stack.history().len();
            let f = |what: String| fail(g, step, &state, what);
            check_actions(&state, &mut rng).map_err(f)?;
            check_scores(&state, &mut prev_scores).map_err(f)?;
            check_round_trip(game, &state).map_err(f)?;
            let other = states[rng.below(states.len() as u32) as usize].serialize();
            check_mutants(game, &state, &other, &mut rng, &mut report).map_err(f)?;
            check_illegal(&mut stack, &mut rng).map_err(f)?;
            // Information: every player's view, and a resample for one of them.
            for p in 0..state.num_players() {
                let text = state.information_state_string(p).map_err(|e| f(e.to_string()))?;
                let tensor = hash(&bits(&state.information_state_tensor_vec(p).map_err(|e| f(e.to_string()))?));
                let obs = state.observation_tensor_vec(p).map_err(|e| f(e.to_string()))?;
                if obs.len() != G::OBS_TENSOR_SIZE {
                    return Err(f("observation tensor of the wrong length".into()));
                }
                note_information(&mut by_string[p], &mut by_tensor[p], &text, tensor).map_err(f)?;
                let obs_text = state.observation_string(p).map_err(|e| f(e.to_string()))?;
                note_information(&mut obs_by_string[p], &mut obs_by_tensor[p], &obs_text, hash(&bits(&obs)))
                    .map_err(|e| f(format!("observation: {e}")))?;
            }
            if !state.is_terminal() && rng.below(4) == 0 {
                let p = rng.below(state.num_players() as u32) as usize;
                check_resample(game, &state, p, &mut rng).map_err(f)?;
                report.resamples += 1;
            }
            if state.is_terminal() {
                if step as u64 > game.max_game_length() {
                    return Err(f(format!("{step} actions, above max_game_length {}", game.max_game_length())));
                }
                break;
            }
            let legal = state.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            stack.apply_action(action).map_err(|e| f(format!("legal action {action} refused: {e}")))?;
            let next = *stack.state();
            // The rewards of the action are the score changes of each player's side.
            for p in 0..next.num_players() {
                let side = next.side_of(p);
                let gained = next.side_score(side) as f64 - state.side_score(side) as f64;
                if next.player_reward(p) != gained {
                    return Err(f(format!(
                        "action {action}: player {p} rewarded {}, gained {gained}",
                        next.player_reward(p)
                    )));
                }
            }
            states.push(next);
            report.actions += 1;
        }
        check_undo(&mut stack, &states).map_err(|e| fail(g, states.len(), stack.state(), e))?;
        report.games += 1;
    }
    report.information_states = by_string.iter().map(|m| m.len()).sum();
    Ok(report)
}

/// Play `n_games` random games of `game` (seeded by `seed`) checking only the state texts:
/// every state round-trips, and mutated texts ([`mutate`]) of a third of them are refused or
/// accepted as states that pass [`check_text`]. Cheaper than [`check_game`], for many games.
///
/// ```
/// use cribpiquet::engine::conformance::check_texts;
/// use cribpiquet::cribbage::{GameConfig, Variant};
/// let report = check_texts(&GameConfig::new(Variant::FiveCard, Some(15)).unwrap(), 3, 1).unwrap();
/// assert_eq!(report.games, 3);
/// assert!(report.mutants > 0);
/// ```
pub fn check_texts<G: Game>(game: &G, n_games: usize, seed: u64) -> Result<Report, String> {
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    for g in 0..n_games {
        let mut next = game.new_initial_state();
        let mut texts = Vec::new();
        loop {
            let state = next;
            let step = texts.len();
            let f = |what: String| fail(g, step, &state, what);
            check_round_trip(game, &state).map_err(f)?;
            texts.push(state.serialize());
            let other = &texts[rng.below(texts.len() as u32) as usize];
            check_mutants(game, &state, other, &mut rng, &mut report).map_err(f)?;
            if state.is_terminal() {
                if step as u64 > game.max_game_length() {
                    return Err(f(format!("{step} actions, above max_game_length {}", game.max_game_length())));
                }
                break;
            }
            let legal = state.legal_actions();
            let action = legal[rng.below(legal.len() as u32) as usize];
            next.apply_action(action).map_err(|e| f(format!("legal action {action} refused: {e}")))?;
            report.actions += 1;
        }
        report.games += 1;
    }
    Ok(report)
}

/// At a third of the states: [`MUTANTS_PER_STATE`] mutants of the state's text (`other`
/// lends values), each refused or a state that passes [`check_text`].
fn check_mutants<G: Game>(
    game: &G,
    state: &G::State,
    other: &str,
    rng: &mut Rng,
    report: &mut Report,
) -> Result<(), String> {
    if rng.below(3) != 0 {
        return Ok(());
    }
    let text = state.serialize();
    for _ in 0..MUTANTS_PER_STATE {
        let mutant = mutate(&text, other, rng);
        report.mutants += 1;
        // A mutant that reads back as this very state needs no playout of its own.
        let same = game.deserialize_state(&mutant).is_ok_and(|s| s == *state);
        if same || check_text(game, &mutant, rng).map_err(|e| format!("mutant {mutant:?}: {e}"))?.is_some() {
            report.mutants_accepted += 1;
        }
    }
    Ok(())
}

/// Mutated texts tried at a third of the states of [`check_game`].
const MUTANTS_PER_STATE: usize = 4;

/// Actions after which [`check_text`] gives up on a game that does not end.
const MAX_PLAYOUT: usize = 1_000_000;

/// Junk values for [`mutate`].
const JUNK: [&str; 21] = [
    "",
    "-",
    "0",
    "1",
    "2",
    "x",
    "-1",
    "99999999999999999999",
    "65535",
    "4294967295",
    "65535,65535,65535",
    "ffffffffffffffff",
    ",",
    ",,,",
    "0,0",
    "a=b",
    "\u{1F0A1}",
    "cut",
    "deal",
    "play",
    "game-over",
];

/// A random mutation of the state text `text` (`key=value` fields after a magic word); `other`
/// (another state's text) lends values. The kinds, equally likely: truncation; a field dropped,
/// doubled, or an unknown one added; a value replaced by junk or by `other`'s value of the
/// field; a number in a value moved by one; two items of a comma list swapped, or one copied
/// over another; a hexadecimal digit changed.
///
/// ```
/// use cribpiquet::engine::conformance::mutate;
/// use cribpiquet::rng::Rng;
/// let mut rng = Rng::new(1);
/// let text = "game/1 a=1,2 b=ff";
/// for _ in 0..50 {
///     let m = mutate(text, "game/1 a=3,4 b=0", &mut rng);
///     // The magic word stays, unless the text was truncated.
///     assert!(m.starts_with("game/1 ") || text.starts_with(m.as_str()));
/// }
/// ```
pub fn mutate(text: &str, other: &str, rng: &mut Rng) -> String {
    let mut tokens: Vec<String> = text.split(' ').map(String::from).collect();
    let pick = |rng: &mut Rng, n: usize| rng.below(n.max(1) as u32) as usize;
    if tokens.len() < 2 {
        return format!("{text} x=1");
    }
    let i = 1 + pick(rng, tokens.len() - 1);
    let (key, value) = match tokens[i].split_once('=') {
        Some((k, v)) => (k.to_string(), v.to_string()),
        None => (tokens[i].clone(), String::new()),
    };
    let set = |tokens: &mut Vec<String>, v: String| tokens[i] = format!("{key}={v}");
    match rng.below(9) {
        0 => {
            let cut = pick(rng, text.len());
            let cut = (0..=cut).rev().find(|&c| text.is_char_boundary(c)).unwrap_or(0);
            return text[..cut].to_string();
        }
        1 => {
            tokens.remove(i);
        }
        2 => {
            let t = tokens[i].clone();
            tokens.insert(i, t);
        }
        3 => tokens.push(if rng.below(2) == 0 { "extra=1".into() } else { format!("{key}{key}={value}") }),
        4 => set(&mut tokens, JUNK[pick(rng, JUNK.len())].to_string()),
        5 => {
            let theirs = other.split(' ').find_map(|t| t.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v));
            set(&mut tokens, theirs.unwrap_or("-").to_string());
        }
        6 => {
            // A run of digits moved by one (up or down).
            let runs: Vec<(usize, usize)> = digit_runs(&value);
            if let Some(&(a, b)) = runs.get(pick(rng, runs.len())) {
                let n: u128 = value[a..b].parse().unwrap_or(0);
                let m = if rng.below(2) == 0 { n + 1 } else { n.saturating_sub(1) };
                set(&mut tokens, format!("{}{m}{}", &value[..a], &value[b..]));
            }
        }
        7 | 8 => {
            let mut items: Vec<&str> = value.split(',').collect();
            if items.len() >= 2 {
                let (a, b) = (pick(rng, items.len()), pick(rng, items.len()));
                if rng.below(2) == 0 {
                    items.swap(a, b);
                } else {
                    items[a] = items[b];
                }
                let v = items.join(",");
                set(&mut tokens, v);
            }
        }
        _ => {
            let hex: Vec<usize> = value.char_indices().filter(|(_, c)| c.is_ascii_hexdigit()).map(|(j, _)| j).collect();
            if let Some(&j) = hex.get(pick(rng, hex.len())) {
                let digit = "0123456789abcdef".as_bytes()[pick(rng, 16)] as char;
                let mut v = value.clone();
                v.replace_range(j..j + 1, &digit.to_string());
                set(&mut tokens, v);
            }
        }
    }
    tokens.join(" ")
}

fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut j = 0;
    while j < bytes.len() {
        if bytes[j].is_ascii_digit() {
            let start = j;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            out.push((start, j));
        } else {
            j += 1;
        }
    }
    out
}

/// Feed any text to `deserialize_state`: `Ok(None)` if it is refused; if accepted, the state
/// must round-trip (its own text accepted again, equal) and play to the end with random legal
/// actions through the checked API, every state on the way round-tripping too (`Ok(Some(state))`).
/// `Err` says what broke. A panic inside is the caller's to catch (a test fails).
///
/// ```
/// use cribpiquet::engine::conformance::check_text;
/// use cribpiquet::engine::{Game, GameState};
/// use cribpiquet::cribbage::GameConfig;
/// use cribpiquet::rng::Rng;
/// let game = GameConfig::default();
/// let mut rng = Rng::new(3);
/// assert!(check_text(&game, "cribbage/1 garbage", &mut rng).unwrap().is_none());
/// let text = game.new_initial_state().serialize();
/// assert!(check_text(&game, &text, &mut rng).unwrap().is_some());
/// ```
pub fn check_text<G: Game>(game: &G, text: &str, rng: &mut Rng) -> Result<Option<G::State>, String> {
    let Ok(state) = game.deserialize_state(text) else {
        return Ok(None);
    };
    check_round_trip(game, &state)?;
    let mut s = state;
    let mut steps = 0;
    while !s.is_terminal() {
        let legal = s.legal_actions();
        if legal.is_empty() {
            return Err(format!("accepted, then stuck without legal actions at {}", s.serialize()));
        }
        if steps >= MAX_PLAYOUT {
            return Err("accepted, then does not end".into());
        }
        let a = legal[rng.below(legal.len() as u32) as usize];
        s.apply_action(a).map_err(|e| format!("accepted, then legal action {a} refused: {e}"))?;
        if steps % 16 == 0 {
            check_round_trip(game, &s).map_err(|e| format!("accepted, then after {steps} actions: {e}"))?;
        }
        steps += 1;
    }
    check_round_trip(game, &s)?;
    Ok(Some(state))
}

fn bits(tensor: &[f32]) -> Vec<u32> {
    tensor.iter().map(|x| x.to_bits()).collect()
}

fn check_actions<S: GameState>(state: &S, rng: &mut Rng) -> Result<(), String> {
    let legal = state.legal_actions();
    let player = state.current_player();
    let n = state.num_players() as i32;
    if !(player == CHANCE || player == TERMINAL || (0..n).contains(&player)) {
        return Err(format!("current player {player} is not a seat, CHANCE or TERMINAL"));
    }
    if state.is_terminal() != legal.is_empty() {
        return Err(format!("terminal {} but {} legal actions", state.is_terminal(), legal.len()));
    }
    if !legal.windows(2).all(|w| w[0] < w[1]) {
        return Err(format!("legal actions not ascending and distinct: {:?}", &*legal));
    }
    if let Some(&a) = legal.iter().find(|&&a| a as usize >= S::Game::NUM_DISTINCT_ACTIONS || !state.is_legal(a)) {
        return Err(format!("legal action {a} is out of range or refused by is_legal"));
    }
    for _ in 0..8 {
        let a = rng.below(S::Game::NUM_DISTINCT_ACTIONS as u32 + 8) as u16;
        if state.is_legal(a) != legal.contains(&a) {
            return Err(format!("is_legal({a}) = {} disagrees with the legal actions", state.is_legal(a)));
        }
    }
    let outcomes = state.chance_outcomes();
    if state.is_chance_node() {
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        if (total - 1.0).abs() > 1e-9 || outcomes.iter().map(|o| o.0).ne(legal.iter().copied()) {
            return Err(format!("chance outcomes {outcomes:?} do not match the legal actions or sum to 1"));
        }
        let sampled = state.sample_chance(rng);
        if !sampled.is_some_and(|a| legal.contains(&a)) {
            return Err(format!("sample_chance gave {sampled:?}"));
        }
    } else if !outcomes.is_empty() || state.sample_chance(rng).is_some() {
        return Err("chance outcomes at a non-chance node".into());
    }
    // The cards of an action: a chance outcome is its card; every id has an answer, none beyond.
    for &a in legal.iter() {
        let cards = state.action_cards(a).map_err(|e| format!("action_cards({a}): {e}"))?;
        if state.is_chance_node() && cards != [a] {
            return Err(format!("chance outcome {a} names the cards {cards:?}"));
        }
    }
    if state.action_cards(S::Game::NUM_DISTINCT_ACTIONS as u16).is_ok() {
        return Err("action_cards accepts an id beyond the actions".into());
    }
    if state.legal_actions_mask().iter().filter(|&&m| m).count() != legal.len() {
        return Err("legal_actions_mask disagrees with legal_actions".into());
    }
    for a in legal.iter().filter(|&&a| state.action_to_string(a).is_ok()) {
        let text = state.action_to_string(*a).unwrap_or_default();
        if state.string_to_action(&text).ok() != Some(*a) {
            return Err(format!("action {a} → {text:?} does not parse back"));
        }
    }
    Ok(())
}

fn check_scores<S: GameState>(state: &S, prev: &mut [u64]) -> Result<(), String> {
    let game = state.game();
    for (side, last) in prev.iter_mut().enumerate() {
        let score = state.side_score(side);
        let by_source: u64 = (0..S::Game::POINT_SOURCES.len()).map(|k| state.points_by_source(side, k)).sum();
        if by_source != score {
            return Err(format!("side {side}: points by source add to {by_source}, the score is {score}"));
        }
        if score < *last {
            return Err(format!("side {side}: the score went down from {last} to {score}"));
        }
        *last = score;
    }
    let returns = state.returns();
    if !state.is_terminal() {
        if returns.iter().any(|&r| r != 0.0) || state.winner().is_some() || state.game_value() != 0 {
            return Err(format!("payoffs {returns:?} / a winner / a game value before the end"));
        }
        return Ok(());
    }
    let sum: f64 = returns.iter().sum();
    if (sum - game.utility_sum()).abs() > 1e-9 {
        return Err(format!("returns {returns:?} sum to {sum}, not {}", game.utility_sum()));
    }
    if returns.iter().any(|&r| r < game.min_utility() - 1e-9 || r > game.max_utility() + 1e-9) {
        return Err(format!("returns {returns:?} outside [{}, {}]", game.min_utility(), game.max_utility()));
    }
    match state.winner() {
        Some(w) => {
            let best = returns.iter().cloned().fold(f64::MIN, f64::max);
            let winners: Vec<usize> = (0..state.num_players()).filter(|&p| state.side_of(p) == w).collect();
            if winners.is_empty() || winners.iter().any(|&p| returns[p] != best || best <= 0.0) {
                return Err(format!("winner {w} but returns {returns:?}"));
            }
        }
        None if returns.iter().any(|&r| r != 0.0) => return Err(format!("a draw with returns {returns:?}")),
        None => {}
    }
    Ok(())
}

fn check_round_trip<G: Game>(game: &G, state: &G::State) -> Result<(), String> {
    let text = state.serialize();
    let back = game.deserialize_state(&text).map_err(|e| format!("deserialize_state refused {text:?}: {e}"))?;
    if back != *state || back.serialize() != text {
        return Err(format!("serialize round trip changed the state: {text:?} → {:?}", back.serialize()));
    }
    let copy = *state;
    if copy != *state || copy.to_string() != state.to_string() {
        return Err("a copy differs".into());
    }
    Ok(())
}

fn check_illegal<S: GameState>(stack: &mut StateStack<S>, rng: &mut Rng) -> Result<(), String> {
    let before = *stack.state();
    let history = stack.history().len();
    let n = S::Game::NUM_DISTINCT_ACTIONS as i64;
    let candidates = [-1, n, n + 1000, i64::MAX, rng.below(n as u32) as i64, rng.below(n as u32) as i64];
    for a in candidates {
        let legal = u16::try_from(a).is_ok_and(|a| before.is_legal(a));
        if legal {
            continue;
        }
        if stack.apply_action(a).is_ok() || *stack.state() != before || stack.history().len() != history {
            return Err(format!("illegal action {a} was accepted or changed the state"));
        }
        let mut core = before;
        if u16::try_from(a).is_ok_and(|a| core.apply_action(a).is_ok()) || core != before {
            return Err(format!("illegal action {a} was accepted by apply_action or changed the state"));
        }
    }
    Ok(())
}

fn hash<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// Record one (information string, tensor) pair of a player; an error if the string was seen
/// with another tensor or the tensor with another string (64-bit hashes stand for both: memory
/// stays small over thousands of games).
fn note_information(
    by_string: &mut HashMap<u64, u64>,
    by_tensor: &mut HashMap<u64, u64>,
    text: &str,
    tensor: u64,
) -> Result<(), String> {
    let text_hash = hash(text);
    if by_string.get(&text_hash).is_some_and(|&t| t != tensor) {
        return Err(format!("one information string, two tensors: {text:?}"));
    }
    if by_tensor.get(&tensor).is_some_and(|&s| s != text_hash) {
        return Err(format!("one information tensor, two strings (one is {text:?})"));
    }
    by_string.insert(text_hash, tensor);
    by_tensor.insert(tensor, text_hash);
    Ok(())
}

fn check_resample<G: Game>(game: &G, state: &G::State, p: usize, rng: &mut Rng) -> Result<(), String> {
    let seed = rng.next_u64();
    let r = state.resample_from_infostate(p, &mut Rng::new(seed)).map_err(|e| format!("resample for {p}: {e}"))?;
    let again = state.resample_from_infostate(p, &mut Rng::new(seed)).map_err(|e| e.to_string())?;
    if r != again {
        return Err(format!("resample for player {p} is not reproducible for a seed"));
    }
    let (a, b) = (state.information_state_string(p), r.information_state_string(p));
    if a.as_ref().ok() != b.as_ref().ok() {
        return Err(format!("resample for player {p} changed the information string: {a:?} vs {b:?}"));
    }
    let (ta, tb) = (state.information_state_tensor_vec(p), r.information_state_tensor_vec(p));
    if ta.as_ref().ok().map(|t| bits(t)) != tb.as_ref().ok().map(|t| bits(t)) {
        return Err(format!("resample for player {p} changed the information tensor"));
    }
    if r.current_player() != state.current_player() || r.legal_actions().is_empty() != state.legal_actions().is_empty()
    {
        return Err(format!("resample for player {p} changed who moves"));
    }
    if p == state.current_player().max(0) as usize
        && !state.is_chance_node()
        && r.legal_actions() != state.legal_actions()
    {
        return Err(format!("resample for player {p} (to move) changed his legal actions"));
    }
    check_round_trip(game, &r)?;
    // The resampled state plays on (a stretch of random actions).
    let mut s = r;
    for _ in 0..40 {
        if s.is_terminal() {
            break;
        }
        let legal = s.legal_actions();
        s.apply_action(legal[rng.below(legal.len() as u32) as usize]).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn check_undo<S: GameState>(stack: &mut StateStack<S>, states: &[S]) -> Result<(), String> {
    // A copy rebuilds its undo stack by replay; it must undo like the original.
    let mut copy = stack.copy();
    for k in (0..states.len() - 1).rev() {
        let a = stack.undo_action().map_err(|e| e.to_string())?;
        let b = copy.undo_action().map_err(|e| e.to_string())?;
        if a != b || *stack.state() != states[k] || *copy.state() != states[k] {
            return Err(format!("undo to action {k} did not restore the state"));
        }
    }
    if stack.undo_action().is_ok() {
        return Err("undo past the start succeeded".into());
    }
    Ok(())
}
