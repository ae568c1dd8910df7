//! Many games stepped at once: [`VectorGame`], for reinforcement learning (what EnvPool or pgx's
//! `vmap` give other games), generic over [`GameState`].
//!
//! `n` games live in one vector. [`reset`](VectorGame::reset) deals them all and
//! [`step`](VectorGame::step) applies one player decision per game; chance events (the cut, the
//! deal, the starter, talon cards) are sampled inside, from one generator per game seeded by
//! `(seed, game index)` ([`game_seed`]), so the games do not depend on the number of threads.
//! After each call the caller's [`Outputs`] hold, per game: the player to move, the legal-action
//! mask, the points each player made in the step, whether the game ended, its returns, and
//! optionally the information-state or observation tensor of the player to move.
//!
//! Games are split into blocks of rows run on rayon's pool; a step allocates nothing (legal
//! masks are updated in place: the previous legal entries are cleared and the new ones set, so
//! the caller must hand in the same, unmodified buffers every call; a different buffer is
//! cleared whole first).
//!
//! ```
//! use cribpiquet::cribbage::{GameConfig, Variant};
//! use cribpiquet::engine::vector::{Observation, OutputBuffers, VectorGame, VectorOptions};
//!
//! let game = GameConfig::new(Variant::SixCard, None).unwrap();
//! let options = VectorOptions { seed: 7, threads: Some(1), observation: Observation::None, ..Default::default() };
//! let mut v = VectorGame::new(game, 8, options).unwrap();
//! let mut out = OutputBuffers::for_game(&v);
//! v.reset(None, &mut out.outputs()).unwrap();
//! let mut actions = vec![0i64; 8];
//! let mut decisions = 0;
//! for _ in 0..2_000 {
//!     v.sample_legal(None, &mut actions).unwrap();
//!     v.step(&actions, &mut out.outputs()).unwrap();
//!     decisions += 8;
//! }
//! // Every row's mask is its game's legal set; finished games restarted (auto_reset).
//! assert!(out.terminated.iter().all(|&t| !t) || out.returns.iter().any(|&r| r != 0.0));
//! assert_eq!(decisions, 16_000);
//! ```

use rayon::prelude::*;

use super::{game_seed, thread_pool, ActionList, Game, GameState, Player, MAX_PLAYERS, TERMINAL};
use crate::batch::{try_zeroed, Zeroed};
use crate::error::{Error, Result};
use crate::names::named_enum;
use crate::rng::Rng;

named_enum! {
    /// Which tensor a [`VectorGame`] writes for the player to move.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Observation {
        /// [`GameState::information_state_tensor`] ([`Game::INFO_TENSOR_SIZE`] floats).
        InformationState => "information_state",
        /// [`GameState::observation_tensor`] ([`Game::OBS_TENSOR_SIZE`] floats).
        Observation => "observation",
        /// No tensor.
        None => "none",
    }
}

impl Observation {
    /// The tensor's length for game `G` (0 for [`Observation::None`]).
    pub fn size<G: Game>(self) -> usize {
        match self {
            Observation::InformationState => G::INFO_TENSOR_SIZE,
            Observation::Observation => G::OBS_TENSOR_SIZE,
            Observation::None => 0,
        }
    }
}

/// The caller's output buffers of [`VectorGame::reset`] and [`VectorGame::step`], row-major with
/// one row per game (`A` = [`Game::NUM_DISTINCT_ACTIONS`], `P` players, `T` the tensor size).
#[derive(Debug)]
pub struct Outputs<'a> {
    /// `n`: the player to move ([`TERMINAL`] for a finished game left as it is).
    pub current_player: &'a mut [i32],
    /// `n × A`: true at the legal actions of the player to move.
    pub legal_mask: &'a mut [bool],
    /// `n × P`: the points each player made in the call (the decision and the chance events after
    /// it; partners share their side's), [`GameState::player_reward`] summed. A new game's
    /// points before its first decision (five-card cribbage's three for last) are the rewards of
    /// [`VectorGame::reset`], or, after an auto-reset, are added to the new game's first step, so
    /// a game's rewards add up to its final scores.
    pub rewards: &'a mut [f32],
    /// `n`: the game ended in this call (with auto-reset it has already restarted; without, a
    /// finished game stays finished and keeps reporting true).
    pub terminated: &'a mut [bool],
    /// `n × P`: the payoffs ([`GameState::player_return`]) of a game that `terminated`, else 0.
    pub returns: &'a mut [f32],
    /// `n × T`: the chosen tensor of the player to move (zeros for a finished game).
    pub tensor: &'a mut [f32],
}

crate::batch::columns! {
    /// Owned output buffers of the right sizes for a [`VectorGame`]: Rust callers pass them as
    /// [`Outputs`]; the Python bindings hand them to numpy once, as [`Columns`](crate::batch::Columns) (named as the
    /// Python `Batch` names them; the tables shaped `(n, width)`), and write into the arrays
    /// every call.
    #[derive(Debug, Clone, PartialEq)]
    pub struct OutputBuffers {}
    columns |b|
        let n = b.current_player.len();
        let width = |len: usize| len.checked_div(n).unwrap_or(0);
        let (mask, players, tensor) = (width(b.legal_mask.len()), width(b.rewards.len()), width(b.tensor.len()));
    {
        /// See [`Outputs::current_player`].
        pub current_player: Vec<i32> = rows,
        /// See [`Outputs::legal_mask`].
        pub legal_mask: Vec<bool> = [n, mask],
        /// See [`Outputs::rewards`].
        pub rewards: Vec<f32> = [n, players],
        /// See [`Outputs::terminated`].
        pub terminated: Vec<bool> = rows,
        /// See [`Outputs::returns`].
        pub returns: Vec<f32> = [n, players],
        /// See [`Outputs::tensor`].
        pub tensor: Vec<f32> = [n, tensor] as "observation",
    }
}

impl OutputBuffers {
    /// Zeroed buffers for `v`.
    ///
    /// Panics if the memory cannot be had ([`try_for_game`](Self::try_for_game) says so instead).
    pub fn for_game<G: Game>(v: &VectorGame<G>) -> OutputBuffers {
        OutputBuffers::try_for_game(v).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Zeroed buffers for `v`, allocated fallibly and zeroed lazily (untouched pages cost nothing
    /// until written), or an [`Error::OutOfMemory`] naming the buffer that could not be had and
    /// what all of them need.
    pub fn try_for_game<G: Game>(v: &VectorGame<G>) -> Result<OutputBuffers> {
        let (n, p, t, a) = (v.len(), v.num_players(), v.tensor_size(), G::NUM_DISTINCT_ACTIONS);
        // Bytes of every buffer together, for the message if one cannot be had.
        let total = n as u128 * (4 + a as u128 + 4 * p as u128 + 1 + 4 * p as u128 + 4 * t as u128);
        fn zeroed<T: Zeroed>(rows: usize, cols: usize, what: &str, total: u128) -> Result<Vec<T>> {
            rows.checked_mul(cols).and_then(try_zeroed).ok_or_else(|| {
                Error::OutOfMemory(format!(
                    "VectorGame: cannot allocate the {what} buffer for {rows} games (the outputs need {} MiB); use fewer games",
                    total >> 20
                ))
            })
        }
        Ok(OutputBuffers {
            current_player: zeroed(n, 1, "current_player", total)?,
            legal_mask: zeroed(n, a, "legal_mask", total)?,
            rewards: zeroed(n, p, "rewards", total)?,
            terminated: zeroed(n, 1, "terminated", total)?,
            returns: zeroed(n, p, "returns", total)?,
            tensor: zeroed(n, t, "observation", total)?,
        })
    }

    /// The buffers as [`Outputs`].
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            current_player: &mut self.current_player,
            legal_mask: &mut self.legal_mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            returns: &mut self.returns,
            tensor: &mut self.tensor,
        }
    }
}

/// One game of the vector: its state, its chance generator, its legal actions (kept for the
/// mask update and [`VectorGame::sample_legal`]) and, optionally, its history.
#[derive(Debug, Clone)]
struct Slot<S> {
    state: S,
    rng: Rng,
    legal: ActionList,
    history: Vec<u16>,
    /// Points a new game made before its first decision (five-card cribbage's three for last),
    /// reported with the rewards of its first step after an auto-reset.
    opening: [f32; MAX_PLAYERS],
}

/// What every row of a call needs to know.
#[derive(Debug, Clone, Copy)]
struct Config<G> {
    game: G,
    players: usize,
    tensor: Observation,
    tensor_size: usize,
    auto_reset: bool,
    record: bool,
}

/// One row of the outputs.
struct Row<'a> {
    current_player: &'a mut i32,
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    returns: &'a mut [f32],
    tensor: &'a mut [f32],
}

/// A block of rows of the outputs, split for the parallel recursion.
struct Rows<'a> {
    current_player: &'a mut [i32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    returns: &'a mut [f32],
    tensor: &'a mut [f32],
    widths: (usize, usize, usize),
}

impl<'a> Rows<'a> {
    fn split_at(self, mid: usize) -> (Rows<'a>, Rows<'a>) {
        let (a, p, t) = self.widths;
        let (c0, c1) = self.current_player.split_at_mut(mid);
        let (m0, m1) = self.mask.split_at_mut(mid * a);
        let (r0, r1) = self.rewards.split_at_mut(mid * p);
        let (d0, d1) = self.terminated.split_at_mut(mid);
        let (u0, u1) = self.returns.split_at_mut(mid * p);
        let (t0, t1) = self.tensor.split_at_mut(mid * t);
        let w = self.widths;
        (
            Rows { current_player: c0, mask: m0, rewards: r0, terminated: d0, returns: u0, tensor: t0, widths: w },
            Rows { current_player: c1, mask: m1, rewards: r1, terminated: d1, returns: u1, tensor: t1, widths: w },
        )
    }

    /// Run `f(row index, slot, row)` over the block, in sequence.
    fn each<S>(self, first: usize, slots: &mut [Slot<S>], f: &(impl Fn(usize, &mut Slot<S>, Row<'_>) + Sync)) {
        let (a, p, t) = self.widths;
        let mut masks = self.mask.chunks_exact_mut(a.max(1));
        let mut rewards = self.rewards.chunks_exact_mut(p.max(1));
        let mut returns = self.returns.chunks_exact_mut(p.max(1));
        let mut tensors = self.tensor.chunks_mut(t.max(1));
        for (k, ((slot, cp), done)) in
            slots.iter_mut().zip(self.current_player.iter_mut()).zip(self.terminated.iter_mut()).enumerate()
        {
            let row = Row {
                current_player: cp,
                mask: masks.next().unwrap_or_default(),
                rewards: rewards.next().unwrap_or_default(),
                terminated: done,
                returns: returns.next().unwrap_or_default(),
                tensor: if t == 0 { &mut [] } else { tensors.next().unwrap_or_default() },
            };
            f(first + k, slot, row);
        }
    }
}

/// Run `f` over every row, splitting the rows in halves down to `grain` rows and running the
/// halves with `rayon::join` (no allocation).
fn par_rows<S: Send>(
    slots: &mut [Slot<S>],
    rows: Rows<'_>,
    first: usize,
    grain: usize,
    f: &(impl Fn(usize, &mut Slot<S>, Row<'_>) + Sync),
) {
    if slots.len() <= grain {
        rows.each(first, slots, f);
        return;
    }
    let mid = slots.len() / 2;
    let (s0, s1) = slots.split_at_mut(mid);
    let (r0, r1) = rows.split_at(mid);
    rayon::join(|| par_rows(s0, r0, first, grain, f), || par_rows(s1, r1, first + mid, grain, f));
}

/// A salt for the stream of [`VectorGame::sample_legal`] without a seed (distinct from the chance
/// streams).
const SAMPLE_SALT: u64 = 0x5EED_5A3B_1E00_0001;

/// How a [`VectorGame`] runs: everything [`VectorGame::new`] takes besides the game and the number
/// of games. The default is the Python constructor's: seed 0, rayon's global pool, the
/// information-state tensor, finished games restart, no history.
///
/// ```
/// use cribpiquet::engine::vector::{Observation, VectorOptions};
/// let o = VectorOptions { seed: 7, observation: Observation::None, ..VectorOptions::default() };
/// assert!(o.auto_reset && !o.record_history && o.threads.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VectorOptions {
    /// Game `i`'s chance stream is seeded by `(seed, i)`.
    pub seed: u64,
    /// Threads to run on (`None`: rayon's global pool).
    pub threads: Option<usize>,
    /// The tensor written for the player to move.
    pub observation: Observation,
    /// Finished games restart at once.
    pub auto_reset: bool,
    /// Keep every game's actions since it began (for [`history`](VectorGame::history) and replay).
    pub record_history: bool,
}

impl Default for VectorOptions {
    fn default() -> VectorOptions {
        VectorOptions {
            seed: 0,
            threads: None,
            observation: Observation::InformationState,
            auto_reset: true,
            record_history: false,
        }
    }
}

/// `n` games of one [`Game`], stepped together (see the [module docs](self)).
#[derive(Debug)]
pub struct VectorGame<G: Game> {
    config: Config<G>,
    seed: u64,
    slots: Vec<Slot<G::State>>,
    started: bool,
    sample_calls: u64,
    pool: Option<rayon::ThreadPool>,
    threads: Option<usize>,
    /// The mask buffer of the last call (address and length): a different one is cleared whole.
    last_mask: (usize, usize),
}

impl<G: Game> VectorGame<G> {
    /// `n` games of `game` (at least 1), run as `options` say (seed, threads, tensor, auto-reset,
    /// history). Call [`reset`](Self::reset) before the first step.
    pub fn new(game: G, n: usize, options: VectorOptions) -> Result<VectorGame<G>> {
        let VectorOptions { seed, threads, observation, auto_reset, record_history } = options;
        if n == 0 {
            return Err(Error::InvalidValue("a VectorGame needs at least 1 game, got 0".into()));
        }
        let pool = thread_pool(threads)?;
        let state = game.new_initial_state();
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).map_err(|_| {
            let mib = (n as u128 * std::mem::size_of::<Slot<G::State>>() as u128) >> 20;
            Error::OutOfMemory(format!("VectorGame: cannot hold {n} games ({mib} MiB of game states); use fewer games"))
        })?;
        slots.extend((0..n).map(|_| Slot {
            state,
            rng: Rng::new(0),
            legal: ActionList::new(),
            history: Vec::new(),
            opening: [0.0; MAX_PLAYERS],
        }));
        Ok(VectorGame {
            config: Config {
                game,
                players: game.num_players(),
                tensor: observation,
                tensor_size: observation.size::<G>(),
                auto_reset,
                record: record_history,
            },
            seed,
            slots,
            started: false,
            sample_calls: 0,
            pool,
            threads,
            last_mask: (0, 0),
        })
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Never: a vector holds at least one game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The game.
    pub fn game(&self) -> G {
        self.config.game
    }

    /// Players per game (the `P` of [`Outputs`]).
    pub fn num_players(&self) -> usize {
        self.config.players
    }

    /// The tensor written (see [`Observation`]).
    pub fn observation(&self) -> Observation {
        self.config.tensor
    }

    /// The tensor's length per row (the `T` of [`Outputs`]; 0 without a tensor).
    pub fn tensor_size(&self) -> usize {
        self.config.tensor_size
    }

    /// Do finished games restart?
    pub fn auto_reset(&self) -> bool {
        self.config.auto_reset
    }

    /// Are histories kept?
    pub fn records_history(&self) -> bool {
        self.config.record
    }

    /// The threads asked for (`None`: rayon's global pool).
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Has [`reset`](Self::reset) been called?
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The current state of game `i`.
    pub fn state(&self, i: usize) -> Result<&G::State> {
        self.slot(i).map(|s| &s.state)
    }

    /// The actions applied to game `i` since it began (chance outcomes included; empty unless
    /// the vector records histories).
    pub fn history(&self, i: usize) -> Result<&[u16]> {
        self.slot(i).map(|s| s.history.as_slice())
    }

    fn slot(&self, i: usize) -> Result<&Slot<G::State>> {
        self.slots.get(i).ok_or_else(|| {
            Error::InvalidValue(format!("no game {i} in a VectorGame of {} (games are 0..{})", self.len(), self.len()))
        })
    }

    /// Rows per parallel task: a few tasks per thread, at least 32 rows.
    fn grain(&self) -> usize {
        let threads = self.pool.as_ref().map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        (self.len() / (4 * threads.max(1))).max(32)
    }

    fn check_outputs(&self, out: &Outputs<'_>) -> Result<()> {
        let (n, p, t, a) = (self.len(), self.config.players, self.config.tensor_size, G::NUM_DISTINCT_ACTIONS);
        let sizes = [
            ("current_player", out.current_player.len(), n),
            ("legal_mask", out.legal_mask.len(), n * a),
            ("rewards", out.rewards.len(), n * p),
            ("terminated", out.terminated.len(), n),
            ("returns", out.returns.len(), n * p),
            ("tensor", out.tensor.len(), n * t),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(Error::InvalidValue(format!("the {name} buffer must have {want} values, got {got}")));
            }
        }
        Ok(())
    }

    fn run(&mut self, out: &mut Outputs<'_>, f: impl Fn(usize, &mut Slot<G::State>, Row<'_>) + Sync) {
        let grain = self.grain();
        let rows = Rows {
            current_player: &mut *out.current_player,
            mask: &mut *out.legal_mask,
            rewards: &mut *out.rewards,
            terminated: &mut *out.terminated,
            returns: &mut *out.returns,
            tensor: &mut *out.tensor,
            widths: (G::NUM_DISTINCT_ACTIONS, self.config.players, self.config.tensor_size),
        };
        let slots = &mut self.slots;
        match &self.pool {
            Some(pool) => pool.install(|| par_rows(slots, rows, 0, grain, &f)),
            None => par_rows(slots, rows, 0, grain, &f),
        }
    }

    /// Restart every game and deal it to its first decision. With `seed`, game `i`'s generator is
    /// seeded anew from `(seed, i)`; without, from the constructor's seed on the first call and
    /// from where each generator stands afterwards. The rewards are the points made before the
    /// first decision (zero but in five-card cribbage), the returns zeros.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        self.check_outputs(out)?;
        let reseed = seed.or(if self.started { None } else { Some(self.seed) });
        if let Some(s) = seed {
            self.seed = s;
        }
        let cfg = self.config;
        self.run(out, |i, slot, row| {
            if let Some(s) = reseed {
                slot.rng = Rng::new(game_seed(s, i as u64));
            }
            row.mask.fill(false);
            slot.legal.clear();
            restart(&cfg, slot);
            row.rewards.copy_from_slice(&slot.opening[..cfg.players]);
            slot.opening = [0.0; MAX_PLAYERS];
            row.returns.fill(0.0);
            *row.terminated = false;
            finish(&cfg, slot, row);
        });
        self.last_mask = (out.legal_mask.as_ptr() as usize, out.legal_mask.len());
        self.started = true;
        Ok(())
    }

    /// Apply `actions[i]` (a legal action of the player to move) to every game `i`, then sample
    /// the chance events up to the next decision; a game that ends restarts (auto-reset) or stays
    /// over (its action is then ignored). An illegal action in any row is an error naming the
    /// row (`row i: illegal action …`) and changes no game (every row is checked first).
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs<'_>) -> Result<()> {
        if !self.started {
            return Err(Error::InvalidValue("call reset() before the first step".into()));
        }
        self.check_outputs(out)?;
        if actions.len() != self.len() {
            return Err(Error::InvalidValue(format!(
                "actions must hold one action per game ({}), got {}",
                self.len(),
                actions.len()
            )));
        }
        self.validate(actions)?;
        if self.last_mask != (out.legal_mask.as_ptr() as usize, out.legal_mask.len()) {
            // Not the buffer of the last call: rebuild every row's mask from scratch.
            out.legal_mask.fill(false);
            let a = G::NUM_DISTINCT_ACTIONS;
            for (slot, mask) in self.slots.iter_mut().zip(out.legal_mask.chunks_exact_mut(a)) {
                for &x in slot.legal.iter() {
                    mask[x as usize] = true;
                }
            }
            self.last_mask = (out.legal_mask.as_ptr() as usize, out.legal_mask.len());
        }
        let cfg = self.config;
        self.run(out, |i, slot, row| step_row(&cfg, slot, actions[i], row));
        Ok(())
    }

    /// The first row (in row order) whose action is illegal, as an error.
    fn validate(&self, actions: &[i64]) -> Result<()> {
        let bad = |i: usize| {
            let s = &self.slots[i].state;
            !s.is_terminal() && !u16::try_from(actions[i]).is_ok_and(|a| s.is_legal(a))
        };
        let grain = self.grain();
        let found = match &self.pool {
            Some(pool) => pool.install(|| (0..self.len()).into_par_iter().with_min_len(grain).find_first(|&i| bad(i))),
            None => (0..self.len()).into_par_iter().with_min_len(grain).find_first(|&i| bad(i)),
        };
        match found {
            Some(i) => Err(self.slots[i].state.illegal_action_error(actions[i]).in_row(i)),
            None => Ok(()),
        }
    }

    /// One uniformly drawn legal action per game into `out` (`-1` for a finished game). With
    /// `seed`, game `i` draws with the hash [`game_seed`]`(seed, i)`; without, from a stream of
    /// the vector's seed and the number of unseeded calls so far. The games are not changed.
    pub fn sample_legal(&mut self, seed: Option<u64>, out: &mut [i64]) -> Result<()> {
        if out.len() != self.len() {
            return Err(Error::InvalidValue(format!(
                "the actions buffer must have {} values, got {}",
                self.len(),
                out.len()
            )));
        }
        let seed = seed.unwrap_or_else(|| {
            self.sample_calls += 1;
            game_seed(self.seed ^ SAMPLE_SALT, self.sample_calls)
        });
        let grain = self.grain();
        let work = |(i, (slot, a)): (usize, (&Slot<G::State>, &mut i64))| {
            let legal = &slot.legal;
            // One well-mixed 64-bit hash of (seed, i) is the draw (multiply-shift into the list).
            let bits = game_seed(seed, i as u64) >> 32;
            *a = match legal.get(((bits * legal.len() as u64) >> 32) as usize) {
                Some(&x) => x as i64,
                None => -1,
            };
        };
        let slots = &self.slots;
        let mut job = move || slots.par_iter().zip(out.par_iter_mut()).enumerate().with_min_len(grain).for_each(work);
        match &self.pool {
            Some(pool) => pool.install(job),
            None => job(),
        }
        Ok(())
    }
}

/// Apply `action` to a slot, adding the points it made to `rewards`.
#[inline]
fn apply<S: GameState>(cfg_players: usize, record: bool, slot: &mut Slot<S>, action: u16, rewards: &mut [f32]) {
    slot.state.apply_legal(action);
    if record {
        slot.history.push(action);
    }
    for (p, r) in rewards.iter_mut().enumerate().take(cfg_players) {
        *r += slot.state.player_reward(p) as f32;
    }
}

/// Sample chance events until a decision or the end.
#[inline]
fn chances<S: GameState>(cfg_players: usize, record: bool, slot: &mut Slot<S>, rewards: &mut [f32]) {
    while let Some(c) = slot.state.sample_chance(&mut slot.rng) {
        apply(cfg_players, record, slot, c, rewards);
    }
}

/// A new game in `slot`, dealt to its first decision; the points made on the way are kept in
/// `slot.opening`.
fn restart<G: Game>(cfg: &Config<G>, slot: &mut Slot<G::State>) {
    slot.state = cfg.game.new_initial_state();
    slot.history.clear();
    // A game may start with points (five-card's three for last with a chosen first dealer).
    let mut opening = [0.0f32; MAX_PLAYERS];
    for (p, r) in opening.iter_mut().enumerate().take(cfg.players) {
        *r = slot.state.player_reward(p) as f32;
    }
    chances(cfg.players, cfg.record, slot, &mut opening);
    slot.opening = opening;
}

/// Write what a row shows after its game moved: the legal actions (the mask's old entries are
/// already cleared), the player to move and the tensor.
#[inline]
fn finish<G: Game>(cfg: &Config<G>, slot: &mut Slot<G::State>, row: Row<'_>) {
    let player: Player = slot.state.current_player();
    *row.current_player = player;
    slot.state.fill_legal_actions(&mut slot.legal);
    if player < 0 {
        // A finished game left as it is: no legal action, a zero tensor.
        slot.legal.clear();
        row.tensor.fill(0.0);
        return;
    }
    for &a in slot.legal.iter() {
        if let Some(m) = row.mask.get_mut(a as usize) {
            *m = true;
        }
    }
    let p = player as usize;
    // The buffers have the engine's sizes (checked by the caller), so neither can fail.
    let _ = match cfg.tensor {
        Observation::InformationState => slot.state.information_state_tensor(p, row.tensor),
        Observation::Observation => slot.state.observation_tensor(p, row.tensor),
        Observation::None => Ok(()),
    };
}

/// One row of [`VectorGame::step`] (its action was checked).
#[inline]
fn step_row<G: Game>(cfg: &Config<G>, slot: &mut Slot<G::State>, action: i64, row: Row<'_>) {
    if slot.state.is_terminal() {
        // Over and not restarted (no auto-reset): nothing moves; returns stay as they ended.
        row.rewards.fill(0.0);
        *row.terminated = true;
        *row.current_player = TERMINAL;
        return;
    }
    for &a in slot.legal.iter() {
        if let Some(m) = row.mask.get_mut(a as usize) {
            *m = false;
        }
    }
    let mut rewards = std::mem::replace(&mut slot.opening, [0.0; MAX_PLAYERS]);
    apply(cfg.players, cfg.record, slot, action as u16, &mut rewards);
    chances(cfg.players, cfg.record, slot, &mut rewards);
    row.rewards.copy_from_slice(&rewards[..cfg.players]);
    if slot.state.is_terminal() {
        *row.terminated = true;
        for (p, r) in row.returns.iter_mut().enumerate() {
            *r = slot.state.player_return(p) as f32;
        }
        if cfg.auto_reset {
            restart(cfg, slot);
        }
    } else {
        *row.terminated = false;
        row.returns.fill(0.0);
    }
    finish(cfg, slot, row);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Column, Columns};
    use crate::cribbage::{self, Variant};
    use crate::piquet::{self, Rules, Scope};

    /// The options of most tests: no tensor, `seed` and `threads` as given, the rest the defaults.
    fn no_tensor(seed: u64, threads: Option<usize>) -> VectorOptions {
        VectorOptions { seed, threads, observation: Observation::None, ..VectorOptions::default() }
    }

    /// Game `i` played alone, as a sequential loop would: the same generator, the same actions.
    struct Sequential<S> {
        state: S,
        rng: Rng,
        /// Points of a new game's opening chance events, reported with its first step.
        opening: Vec<f32>,
    }

    /// Stepping a vector with random legal actions gives, row by row, what a sequential loop over
    /// one state per game gives with the same actions and generators: states, masks, rewards,
    /// returns, tensors.
    fn matches_sequential<G: Game>(game: G, observation: Observation, auto_reset: bool, steps: usize) {
        let n = 37;
        let seed = 99;
        let mut v = VectorGame::new(
            game,
            n,
            VectorOptions { seed, threads: Some(2), observation, auto_reset, record_history: true },
        )
        .unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let mut seq: Vec<Sequential<G::State>> = (0..n)
            .map(|i| {
                let mut s = Sequential {
                    state: game.new_initial_state(),
                    rng: Rng::new(game_seed(seed, i as u64)),
                    opening: vec![0.0; game.num_players()],
                };
                s.state.apply_sampled_chances(&mut s.rng);
                s
            })
            .collect();
        let (p, a, t) = (game.num_players(), G::NUM_DISTINCT_ACTIONS, v.tensor_size());
        let mut actions = vec![0i64; n];
        let mut ended = 0;
        for step in 0..steps {
            for (i, s) in seq.iter().enumerate() {
                assert_eq!(*v.state(i).unwrap(), s.state, "step {step} game {i}");
                assert_eq!(out.current_player[i], s.state.current_player());
                let mask: Vec<bool> = s.state.legal_actions_mask();
                assert_eq!(&out.legal_mask[i * a..(i + 1) * a], &mask[..], "step {step} game {i}");
                if t > 0 && !s.state.is_terminal() {
                    let pl = s.state.current_player() as usize;
                    let want = match observation {
                        Observation::InformationState => s.state.information_state_tensor_vec(pl).unwrap(),
                        _ => s.state.observation_tensor_vec(pl).unwrap(),
                    };
                    assert_eq!(&out.tensor[i * t..(i + 1) * t], &want[..]);
                }
            }
            v.sample_legal(Some(step as u64), &mut actions).unwrap();
            v.step(&actions, &mut out.outputs()).unwrap();
            for (i, s) in seq.iter_mut().enumerate() {
                if s.state.is_terminal() {
                    assert_eq!(actions[i], -1);
                    assert!(out.terminated[i]);
                    assert!(out.rewards[i * p..(i + 1) * p].iter().all(|&r| r == 0.0));
                    continue;
                }
                let mut rewards = std::mem::take(&mut s.opening);
                rewards.resize(p, 0.0);
                s.state.apply_action(actions[i] as u16).unwrap();
                loop {
                    for (q, r) in rewards.iter_mut().enumerate() {
                        *r += s.state.player_reward(q) as f32;
                    }
                    match s.state.sample_chance(&mut s.rng) {
                        Some(c) => s.state.apply_legal(c),
                        None => break,
                    }
                }
                assert_eq!(&out.rewards[i * p..(i + 1) * p], &rewards[..], "step {step} game {i}");
                assert_eq!(out.terminated[i], s.state.is_terminal());
                let returns: Vec<f32> = (0..p).map(|q| s.state.player_return(q) as f32).collect();
                assert_eq!(&out.returns[i * p..(i + 1) * p], &returns[..]);
                if s.state.is_terminal() {
                    ended += 1;
                    assert!(returns.iter().any(|&r| r != 0.0) || G::NAME == "piquet");
                    if auto_reset {
                        s.state = game.new_initial_state();
                        s.opening = vec![0.0; p];
                        while let Some(c) = s.state.sample_chance(&mut s.rng) {
                            s.state.apply_legal(c);
                            for (q, r) in s.opening.iter_mut().enumerate() {
                                *r += s.state.player_reward(q) as f32;
                            }
                        }
                    }
                }
            }
        }
        assert!(ended > 0, "no game ended in {steps} steps");
        // The recorded history replays to the state.
        for i in 0..n {
            let mut s = game.new_initial_state();
            for &x in v.history(i).unwrap() {
                s.apply_action(x).unwrap();
            }
            assert_eq!(s, *v.state(i).unwrap());
        }
    }

    fn six_card() -> cribbage::GameConfig {
        cribbage::GameConfig::new(Variant::SixCard, None).unwrap()
    }

    #[test]
    fn cribbage_matches_a_sequential_loop() {
        matches_sequential(cribbage::GameConfig::new(Variant::FiveCard, None).unwrap(), Observation::None, true, 150);
        matches_sequential(
            cribbage::GameConfig::new(Variant::SixCard, Some(41)).unwrap(),
            Observation::InformationState,
            true,
            60,
        );
        matches_sequential(
            cribbage::GameConfig::new(Variant::FourPlayer, Some(31)).unwrap(),
            Observation::Observation,
            false,
            60,
        );
    }

    #[test]
    fn piquet_matches_a_sequential_loop() {
        let deal = piquet::GameConfig::new(Rules::russian(), Scope::Deal).unwrap();
        matches_sequential(deal, Observation::InformationState, true, 120);
        matches_sequential(deal, Observation::None, false, 80);
        let partie = piquet::GameConfig::new(Rules::rubicon(), Scope::Partiya).unwrap();
        matches_sequential(partie, Observation::Observation, true, 250);
    }

    #[test]
    fn output_buffers_are_the_batch_columns() {
        let game = cribbage::GameConfig::new(Variant::SixCard, None).unwrap();
        let options = VectorOptions { observation: Observation::InformationState, ..no_tensor(1, Some(1)) };
        let v = VectorGame::new(game, 3, options).unwrap();
        let mut out = OutputBuffers::try_for_game(&v).unwrap();
        assert_eq!(out, OutputBuffers::for_game(&v));
        let t = v.tensor_size();
        let columns = out.clone().columns();
        let shapes: Vec<_> = columns
            .iter()
            .map(|(name, c)| match c {
                Column::Rows(_) => (*name, vec![3]),
                Column::Shaped(_, shape) => (*name, shape.clone()),
                Column::Count(_) => unreachable!(),
            })
            .collect();
        let (a, p) = (cribbage::GameConfig::NUM_DISTINCT_ACTIONS, 2);
        assert_eq!(
            shapes,
            [
                ("current_player", vec![3]),
                ("legal_mask", vec![3, a]),
                ("rewards", vec![3, p]),
                ("terminated", vec![3]),
                ("returns", vec![3, p]),
                ("observation", vec![3, t]),
            ]
        );
        assert!(out.outputs().tensor.iter().all(|&x| x == 0.0));
    }

    fn run<G: Game>(game: G, threads: Option<usize>, n: usize) -> OutputBuffers {
        let mut v = VectorGame::new(game, n, VectorOptions { seed: 5, threads, ..VectorOptions::default() }).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let mut actions = vec![0i64; n];
        for _ in 0..40 {
            v.sample_legal(None, &mut actions).unwrap();
            v.step(&actions, &mut out.outputs()).unwrap();
        }
        out
    }

    #[test]
    fn results_do_not_depend_on_the_threads() {
        let one = run(six_card(), Some(1), 300);
        assert_eq!(one, run(six_card(), Some(2), 300));
        assert_eq!(one, run(six_card(), Some(3), 300));
        assert_ne!(one, run(cribbage::GameConfig::new(Variant::FiveCard, None).unwrap(), Some(2), 300));
    }

    #[test]
    fn an_illegal_action_names_its_row_and_changes_nothing() {
        let mut v =
            VectorGame::new(six_card(), 200, VectorOptions { record_history: true, ..no_tensor(1, Some(2)) }).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let mut actions = vec![0i64; 200];
        v.sample_legal(Some(3), &mut actions).unwrap();
        let before: Vec<_> = (0..200).map(|i| *v.state(i).unwrap()).collect();
        let before_history: Vec<Vec<u16>> = (0..200).map(|i| v.history(i).unwrap().to_vec()).collect();
        let saved = out.clone();
        let mut bad = actions.clone();
        bad[150] = 1378; // GO is never legal at the discard
        bad[170] = -5;
        let err = v.step(&bad, &mut out.outputs()).unwrap_err();
        assert!(
            err.to_string().starts_with("row 150: illegal action 1378 (go) in the discard phase for player "),
            "{err}"
        );
        assert_eq!(out, saved);
        assert!((0..200).all(|i| *v.state(i).unwrap() == before[i]));
        assert!((0..200).all(|i| v.history(i).unwrap() == before_history[i]));
        let err = v.step(&actions[..10], &mut out.outputs()).unwrap_err();
        assert_eq!(err.to_string(), "actions must hold one action per game (200), got 10");
        v.step(&actions, &mut out.outputs()).unwrap();
    }

    #[test]
    fn without_auto_reset_finished_games_stay_over() {
        let game = cribbage::GameConfig::new(Variant::FiveCard, Some(15)).unwrap();
        let mut v = VectorGame::new(game, 50, VectorOptions { seed: 2, auto_reset: false, ..VectorOptions::default() })
            .unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let mut actions = vec![0i64; 50];
        for _ in 0..400 {
            v.sample_legal(None, &mut actions).unwrap();
            v.step(&actions, &mut out.outputs()).unwrap();
        }
        assert!(out.terminated.iter().all(|&t| t));
        assert!(out.current_player.iter().all(|&p| p == TERMINAL));
        assert!(out.legal_mask.iter().all(|&m| !m));
        assert!(out.tensor.iter().all(|&x| x == 0.0));
        assert!(out.rewards.iter().all(|&x| x == 0.0));
        for i in 0..50 {
            let s = v.state(i).unwrap();
            assert_eq!(out.returns[2 * i], s.player_return(0) as f32);
            assert_eq!(out.returns[2 * i].abs(), 1.0);
        }
        assert!(actions.iter().all(|&a| a == -1));
    }

    /// A game's rewards, its opening points included, add up to its scores: after every step
    /// while it runs, and at its end (without auto-reset, the state stays there to compare).
    fn rewards_add_up<G: Game>(game: G, auto_reset: bool, steps: usize) {
        let n = 64;
        let mut v = VectorGame::new(game, n, VectorOptions { auto_reset, ..no_tensor(3, None) }).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let p = game.num_players();
        let mut sums: Vec<f32> = out.rewards.clone();
        let mut actions = vec![0i64; n];
        let (mut running, mut ended) = (0, 0);
        for _ in 0..steps {
            v.sample_legal(None, &mut actions).unwrap();
            v.step(&actions, &mut out.outputs()).unwrap();
            for i in 0..n {
                let row = i * p..(i + 1) * p;
                for (sum, r) in sums[row.clone()].iter_mut().zip(&out.rewards[row.clone()]) {
                    *sum += r;
                }
                let scores: Vec<f32> = v.state(i).unwrap().scores().iter().map(|&x| x as f32).collect();
                if out.terminated[i] && auto_reset {
                    // Restarted: the new game's opening points come with its first step.
                    sums[row].fill(0.0);
                    ended += 1;
                } else {
                    assert_eq!(&sums[row], &scores[..], "game {i}");
                    running += 1;
                    ended += out.terminated[i] as usize;
                }
            }
        }
        assert!(running > 0 && ended > 0);
    }

    #[test]
    fn rewards_add_up_to_the_scores() {
        // Five-card cribbage scores three for last before the first decision.
        let five = cribbage::GameConfig::new(Variant::FiveCard, Some(31)).unwrap();
        let mut v = VectorGame::new(five, 4, no_tensor(0, None)).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        assert!(out.rewards.chunks(2).all(|r| r.iter().sum::<f32>() == 3.0), "{:?}", out.rewards);
        for auto_reset in [true, false] {
            rewards_add_up(five, auto_reset, 200);
            rewards_add_up(cribbage::GameConfig::new(Variant::FourPlayer, Some(31)).unwrap(), auto_reset, 150);
            rewards_add_up(piquet::GameConfig::new(Rules::russian(), Scope::Deal).unwrap(), auto_reset, 80);
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        assert!(VectorGame::new(six_card(), 0, no_tensor(0, None)).is_err());
        assert!(VectorGame::new(six_card(), 1, no_tensor(0, Some(0))).is_err());
        let mut v = VectorGame::new(six_card(), 4, no_tensor(0, None)).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        assert_eq!(v.step(&[0; 4], &mut out.outputs()).unwrap_err().to_string(), "call reset() before the first step");
        out.rewards.pop();
        assert!(v.reset(None, &mut out.outputs()).unwrap_err().to_string().contains("rewards buffer must have 8"));
        assert!(v.state(4).is_err());
        assert!(v.sample_legal(None, &mut [0; 3]).is_err());
    }

    #[test]
    fn a_new_mask_buffer_is_rebuilt() {
        let mut v = VectorGame::new(six_card(), 40, no_tensor(0, Some(1))).unwrap();
        let mut out = OutputBuffers::for_game(&v);
        v.reset(None, &mut out.outputs()).unwrap();
        let mut actions = vec![0i64; 40];
        v.sample_legal(None, &mut actions).unwrap();
        let mut other = OutputBuffers::for_game(&v);
        other.legal_mask.fill(true);
        v.step(&actions, &mut other.outputs()).unwrap();
        for i in 0..40 {
            let mask = v.state(i).unwrap().legal_actions_mask();
            assert_eq!(&other.legal_mask[i * mask.len()..(i + 1) * mask.len()], &mask[..]);
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use crate::cribbage::{GameConfig, Variant};

    /// `cargo test --profile quick --lib engine::vector::timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn time_steps() {
        let game = GameConfig::new(Variant::SixCard, None).unwrap();
        for threads in [1, 2] {
            let n = 4096;
            let mut v = VectorGame::new(
                game,
                n,
                VectorOptions {
                    seed: 1,
                    threads: Some(threads),
                    observation: Observation::None,
                    ..VectorOptions::default()
                },
            )
            .unwrap();
            let mut out = OutputBuffers::for_game(&v);
            v.reset(None, &mut out.outputs()).unwrap();
            let mut actions = vec![0i64; n];
            let t = std::time::Instant::now();
            let steps = 200;
            let mut ts = std::time::Duration::ZERO;
            for _ in 0..steps {
                let t0 = std::time::Instant::now();
                v.sample_legal(None, &mut actions).unwrap();
                ts += t0.elapsed();
                v.step(&actions, &mut out.outputs()).unwrap();
            }
            let dt = t.elapsed().as_secs_f64();
            println!(
                "threads {threads}: {:.2} M actions/s, sample {:.1} us/call",
                (steps * n) as f64 / dt / 1e6,
                ts.as_secs_f64() / steps as f64 * 1e6
            );
        }
    }
}
