//! [`Ismcts`]: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling,
//! Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), generic
//! over the engine framework's [`GameState`] through the small [`SearchGame`] trait of game hooks.
//!
//! # The algorithm
//!
//! The tree is the searching player's (the *observer's*): a node is a sequence of moves as the
//! observer sees them, so every determinization that shares what the observer has seen shares the
//! node. One **iteration** is one determinization, one selection/expansion and one rollout:
//!
//! 1. **Determinize**: a world drawn uniformly among those consistent with what the observer
//!    knows ([`GameState::resample_from_infostate`]: the hidden cards redealt).
//! 2. **Select** down the tree in that world. At a node the children *available* are those whose
//!    action is legal in this world; each available child's availability count goes up by one,
//!    and the choice is UCB1 with the availability count in place of the parent's visits
//!    (`mean + c·sqrt(ln(availability) / visits)`, `c = exploration`, 0.7 by default; values are in
//!    0..1). A move the observer does not see (an opponent's discard to the crib or in the piquet
//!    exchange: [`SearchGame::hides_move`]) is one child for every action, as in SO-ISMCTS with
//!    partially observable moves; which concrete cards go is chosen by the rollout policy.
//!    **Chance nodes are sampled** and do not branch the tree (the starter, the piquet talon: later
//!    nodes are shared over the outcomes, a coarser but consistent abstraction).
//! 3. **Expand** one untried available action (uniformly at random among them), then **roll out**
//!    with the rollout policy (`"heuristic"`: the cheap [`Heuristic`](crate::eval::heuristic::Heuristic);
//!    `"random"`: uniform) to the end of the current deal — or with `rollout_to_end` to the end of
//!    the game. The tree never extends past the end of the deal either.
//! 4. **Value** the end for every player ([`SearchGame::leaf_values`], 0..1: cribbage the
//!    estimated win probability from the two scores, [`WinTable`](crate::eval::winprob::WinTable);
//!    piquet the deal's point difference scaled) and back it up the path: each node adds the value
//!    of the player who made its move.
//!
//! [`Bot::step`] plays the root action with the most visits (ties: the higher mean, then the lower
//! action); [`Bot::action_values`] gives each legal action its mean value for the player to move
//! (an action never visited gets 0).
//!
//! **Root parallelism**: with `threads = T`, T independent trees (thread k gets
//! `iterations / T` iterations, one more for the first `iterations % T`, and its own generator
//! seeded by one draw of the bot's generator each), run on scoped threads; the root statistics are
//! summed. With no `time_limit`, the result depends only on the generator handed in, the thread
//! count and the bot's earlier calls (tree reuse): the same seed and threads give the same actions.
//! `time_limit` stops each tree at the deadline instead (at least one iteration), which is not
//! reproducible.
//!
//! **Tree reuse**: after a search, each tree keeps, for the nodes of its first levels (depth ≤ 3),
//! one world that reached them. At the next decision, if one of those nodes is one where the
//! observer is to move and its world's information state for the observer equals the new state's
//! (equal information, [`GameState::information_state_string`]), the subtree under it is kept as
//! the new tree (its statistics, gathered over worlds consistent with less information, are kept
//! as they are: the usual approximation). Otherwise — a chance outcome the tree merged (the
//! starter), a new deal, another game — the search starts afresh. Calling `action_values` and then
//! `step` on one state reuses the whole tree.
//!
//! **Memory** grows with what the search reaches (one node per iteration at most, 32 bytes each):
//! the node vector grows fallibly, by doubling, so a budget of billions of iterations costs only
//! the nodes its time reaches, and running out is an [`Error::OutOfMemory`], never an abort. No
//! allocation per iteration otherwise: actions are `u16`, states are `Copy`.
//!
//! **One bot, many games**: the search context (the win table) and the trees belong to the game
//! of the state searched; a state of another game (another variant, target or rules) drops both.
//!
//! **Interruption**: every [`CHECK_EVERY`] iterations the search polls the thread's
//! [`interrupt`] flag and stops with [`Error::Interrupted`] (the Python bindings raise it on
//! Ctrl-C), also in the threads of root parallelism.

use std::str::FromStr;
use std::time::{Duration, Instant};

use super::{decision_player, Bot};
use crate::engine::{interrupt, ActionList, Game, GameState, MAX_PLAYERS};
use crate::error::{Error, Result};
use crate::names::named_enum;
use crate::rng::Rng;

named_enum! {
    /// The rollout policy of [`Ismcts`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Rollout {
        /// The cheap rollout [`Heuristic`](crate::eval::heuristic::Heuristic) (well under a microsecond a decision).
        Heuristic => "heuristic",
        /// Uniformly random among the legal actions.
        Random => "random",
    }
}

impl FromStr for Rollout {
    type Err = Error;

    fn from_str(s: &str) -> Result<Rollout> {
        Rollout::by_name(&s.trim().to_ascii_lowercase()).ok_or_else(|| {
            Error::InvalidValue(format!("unknown rollout {:?} (known: heuristic, random)", crate::error::echo(s)))
        })
    }
}

/// The settings of [`Ismcts`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per decision, over all threads (at least 1).
    pub iterations: u32,
    /// Stop at this wall time per decision instead (each thread still runs at least one
    /// iteration, and at most `iterations`); not reproducible.
    pub time_limit: Option<Duration>,
    /// The UCB1 exploration constant `c` (values are 0..1).
    pub exploration: f64,
    /// The rollout policy.
    pub rollout: Rollout,
    /// Independent trees searched in parallel (root parallelism), at least 1.
    pub threads: usize,
    /// Roll out to the end of the game rather than of the current deal.
    pub rollout_to_end: bool,
}

impl Default for IsmctsConfig {
    fn default() -> IsmctsConfig {
        IsmctsConfig {
            iterations: 1000,
            time_limit: None,
            exploration: 0.7,
            rollout: Rollout::Heuristic,
            threads: 1,
            rollout_to_end: false,
        }
    }
}

impl IsmctsConfig {
    /// These settings if they are valid, else an error naming the bad one.
    pub fn checked(self) -> Result<IsmctsConfig> {
        if self.iterations == 0 {
            return Err(Error::InvalidValue("iterations must be at least 1".into()));
        }
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(Error::InvalidValue(format!(
                "exploration must be a finite number >= 0, got {:?}",
                self.exploration
            )));
        }
        if !(1..=256).contains(&self.threads) {
            return Err(Error::InvalidValue(format!("threads must be 1..256, got {}", self.threads)));
        }
        Ok(self)
    }
}

/// The game-specific hooks of [`Ismcts`].
pub trait SearchGame: GameState {
    /// What a search needs of the game once (a win-probability table, say).
    type Context: Send + Sync + Clone + 'static;

    /// The context for searches from this state with these settings.
    fn search_context(&self, config: &IsmctsConfig) -> Self::Context;

    /// Does `observer` not see the move of the player to move here (an opponent's discard)?
    fn hides_move(&self, observer: usize) -> bool;

    /// A rollout action among `legal` (never empty).
    fn rollout_action(&self, legal: &[u16], rollout: Rollout, rng: &mut Rng) -> u16;

    /// The value, in 0..1, of this state — where a rollout stopped: the end of the game, or the
    /// first state of the deal after `root`'s — for each player.
    fn leaf_values(&self, root: &Self, context: &Self::Context, out: &mut [f64; MAX_PLAYERS]);
}

/// A finished game's payoffs scaled to 0..1 (`(return − min) / (max − min)`): a
/// [`SearchGame::leaf_values`] at the end of a game.
pub fn scaled_returns<S: GameState>(state: &S, out: &mut [f64; MAX_PLAYERS]) {
    let game = state.game();
    let (lo, hi) = (game.min_utility(), game.max_utility());
    for (p, v) in out.iter_mut().enumerate().take(state.num_players()) {
        *v = ((state.player_return(p) - lo) / (hi - lo)).clamp(0.0, 1.0);
    }
}

// ----------------------------------------------------------------------------------- the tree

/// No node (end of a child list).
const NONE: u32 = u32::MAX;
/// The key of the one child standing for every move the observer does not see.
const HIDDEN: u16 = u16::MAX;
/// Nodes at most this deep keep a world for tree reuse.
const REUSE_DEPTH: u8 = 3;
/// The most worlds kept for tree reuse per tree.
const MAX_REPS: usize = 1024;
/// The search polls the deadline and the interrupt flag every this many iterations.
pub const CHECK_EVERY: u32 = 32;
/// The most nodes of one tree (node indices are `u32`, [`NONE`] excluded).
const MAX_NODES: usize = NONE as usize;

/// Room for at least one more node in `nodes`: the vector doubles (at least 1024 nodes), fallibly,
/// up to `limit` nodes.
fn grow_nodes(nodes: &mut Vec<Node>, limit: usize) -> Result<()> {
    let len = nodes.len();
    if len < nodes.capacity() {
        return Ok(());
    }
    if len >= limit {
        return Err(Error::OutOfMemory(format!(
            "ismcts: the search tree reached {len} nodes, the most it can hold; use fewer iterations or a time_limit"
        )));
    }
    let more = len.max(1024).min(limit - len);
    nodes.try_reserve_exact(more).map_err(|_| {
        let bytes = (len + more) as u128 * std::mem::size_of::<Node>() as u128;
        Error::OutOfMemory(format!(
            "ismcts: cannot grow the search tree to {} nodes ({} MiB); use fewer iterations or a time_limit",
            len + more,
            bytes >> 20
        ))
    })
}

#[derive(Debug, Clone, Copy)]
struct Node {
    first_child: u32,
    next_sibling: u32,
    /// The action into this node, or [`HIDDEN`].
    key: u16,
    /// The player who made the move into this node.
    mover: u8,
    depth: u8,
    visits: u32,
    avail: u32,
    /// The sum of the backed-up values of `mover`.
    total: f64,
}

impl Node {
    fn new(key: u16, mover: u8, depth: u8) -> Node {
        Node { first_child: NONE, next_sibling: NONE, key, mover, depth, visits: 0, avail: 0, total: 0.0 }
    }
}

/// One search tree (one per thread) and its scratch space.
#[derive(Debug, Clone)]
struct Tree<S> {
    nodes: Vec<Node>,
    path: Vec<u32>,
    /// For tree reuse: one world per node of the first levels.
    reps: Vec<(u32, S)>,
    /// The observer of the tree.
    observer: usize,
}

impl<S: SearchGame> Tree<S> {
    fn new() -> Tree<S> {
        Tree { nodes: Vec::new(), path: Vec::new(), reps: Vec::new(), observer: 0 }
    }

    /// Start a fresh tree at `root` for `observer`.
    fn reset(&mut self, root: &S, observer: usize) {
        self.nodes.clear();
        self.nodes.push(Node::new(HIDDEN, u8::MAX, 0));
        self.reps.clear();
        self.reps.push((0, *root));
        self.observer = observer;
    }

    /// Keep the subtree of the node whose world shows `observer` what `root` shows, if any;
    /// otherwise start afresh. Returns whether a subtree was kept.
    fn reuse_or_reset(&mut self, root: &S, observer: usize) -> bool {
        if self.nodes.is_empty() || self.observer != observer {
            self.reset(root, observer);
            return false;
        }
        let Ok(want) = root.information_state_string(observer) else {
            self.reset(root, observer);
            return false;
        };
        // Cheap tests first (who moves, the deal, the observer's legal actions), the text last.
        let legal = root.legal_actions();
        let found = self.reps.iter().find(|(_, world)| {
            world.current_player() == observer as i32
                && world.deals() == root.deals()
                && world.legal_actions() == legal
                && world.information_state_string(observer).is_ok_and(|s| s == want)
        });
        let Some(&(keep, _)) = found else {
            self.reset(root, observer);
            return false;
        };
        // Copy the subtree under `keep` into a new node vector (breadth first), re-indexed.
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut old_of_new: Vec<u32> = Vec::with_capacity(self.nodes.len());
        let mut root_node = self.nodes[keep as usize];
        root_node.next_sibling = NONE;
        root_node.depth = 0;
        nodes.push(root_node);
        old_of_new.push(keep);
        let mut i = 0;
        while i < nodes.len() {
            let mut child = self.nodes[old_of_new[i] as usize].first_child;
            let mut prev = NONE;
            nodes[i].first_child = NONE;
            while child != NONE {
                let idx = nodes.len() as u32;
                let mut n = self.nodes[child as usize];
                n.next_sibling = NONE;
                n.depth = nodes[i].depth.saturating_add(1);
                nodes.push(n);
                old_of_new.push(child);
                if prev == NONE {
                    nodes[i].first_child = idx;
                } else {
                    nodes[prev as usize].next_sibling = idx;
                }
                prev = idx;
                child = self.nodes[child as usize].next_sibling;
            }
            i += 1;
        }
        self.nodes = nodes;
        self.reps.clear();
        self.reps.push((0, *root));
        true
    }

    fn add_child(&mut self, parent: u32, key: u16, mover: u8) -> Result<u32> {
        grow_nodes(&mut self.nodes, MAX_NODES)?;
        let idx = self.nodes.len() as u32;
        let depth = self.nodes[parent as usize].depth.saturating_add(1);
        let mut n = Node::new(key, mover, depth);
        n.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(n);
        self.nodes[parent as usize].first_child = idx;
        Ok(idx)
    }

    /// The child of `parent` with this key and mover.
    #[inline]
    fn find_child(&self, parent: u32, key: u16, mover: u8) -> u32 {
        let mut c = self.nodes[parent as usize].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.key == key && n.mover == mover {
                return c;
            }
            c = n.next_sibling;
        }
        NONE
    }

    /// Run iterations from `root` (the tree is set up for it): at most `iterations`, stopping at
    /// `deadline` (after at least one).
    fn search(
        &mut self,
        root: &S,
        iterations: u32,
        deadline: Option<Instant>,
        config: &IsmctsConfig,
        context: &S::Context,
        rng: &mut Rng,
    ) -> Result<()> {
        let observer = self.observer;
        let root_deals = root.deals();
        let to_end = config.rollout_to_end;
        let c = config.exploration;
        let stop = |s: &S| s.is_terminal() || (!to_end && s.deals() != root_deals);
        let mut legal = ActionList::new();
        let mut values = [0.0f64; MAX_PLAYERS];
        for it in 0..iterations {
            if it % CHECK_EVERY == 0 {
                interrupt::check()?;
                if deadline.is_some_and(|d| it > 0 && Instant::now() >= d) {
                    break;
                }
            }
            let mut s = root.resample_from_infostate(observer, rng)?;
            let mut node = 0u32;
            self.path.clear();
            self.path.push(0);
            let mut expanded = false;
            // Selection and expansion.
            while !stop(&s) {
                if let Some(a) = s.sample_chance(rng) {
                    s.apply_legal(a);
                    continue;
                }
                s.fill_legal_actions(&mut legal);
                let p = s.current_player() as usize;
                let mover = p as u8;
                if s.hides_move(observer) {
                    let a = s.rollout_action(&legal, config.rollout, rng);
                    let mut child = self.find_child(node, HIDDEN, mover);
                    if child == NONE {
                        child = self.add_child(node, HIDDEN, mover)?;
                        expanded = true;
                    }
                    let n = &mut self.nodes[child as usize];
                    n.avail += 1;
                    s.apply_legal(a);
                    node = child;
                    self.path.push(node);
                    if expanded {
                        break;
                    }
                    continue;
                }
                // Availability, the tried set and the UCB choice in one pass over the children.
                let mut tried: u64 = 0;
                let mut best = NONE;
                let mut best_score = f64::NEG_INFINITY;
                let mut ch = self.nodes[node as usize].first_child;
                while ch != NONE {
                    let n = self.nodes[ch as usize];
                    if n.mover == mover && n.key != HIDDEN {
                        if let Ok(i) = legal.binary_search(&n.key) {
                            tried |= 1 << i;
                            let nm = &mut self.nodes[ch as usize];
                            nm.avail += 1;
                            let score = if nm.visits == 0 {
                                f64::INFINITY
                            } else {
                                let v = nm.visits as f64;
                                nm.total / v + c * ((nm.avail as f64).ln() / v).sqrt()
                            };
                            if score > best_score {
                                best_score = score;
                                best = ch;
                            }
                        }
                    }
                    ch = n.next_sibling;
                }
                let n_legal = legal.len();
                let untried = n_legal as u32 - tried.count_ones();
                if untried > 0 {
                    // Expand one untried action, uniformly at random.
                    let mut k = rng.below(untried);
                    let mut pick = 0;
                    for i in 0..n_legal {
                        if tried >> i & 1 == 0 {
                            if k == 0 {
                                pick = i;
                                break;
                            }
                            k -= 1;
                        }
                    }
                    let a = legal[pick];
                    let child = self.add_child(node, a, mover)?;
                    self.nodes[child as usize].avail += 1;
                    s.apply_legal(a);
                    node = child;
                    self.path.push(node);
                    expanded = true;
                    break;
                }
                let a = self.nodes[best as usize].key;
                s.apply_legal(a);
                node = best;
                self.path.push(node);
            }
            if expanded && self.nodes[node as usize].depth <= REUSE_DEPTH && self.reps.len() < MAX_REPS {
                self.reps.push((node, s));
            }
            // Rollout.
            while !stop(&s) {
                if let Some(a) = s.sample_chance(rng) {
                    s.apply_legal(a);
                    continue;
                }
                s.fill_legal_actions(&mut legal);
                let a = s.rollout_action(&legal, config.rollout, rng);
                s.apply_legal(a);
            }
            s.leaf_values(root, context, &mut values);
            // Backpropagation (the root has no mover).
            for &i in &self.path[1..] {
                let n = &mut self.nodes[i as usize];
                n.visits += 1;
                n.total += values[n.mover as usize & (MAX_PLAYERS - 1)];
            }
            self.nodes[0].visits += 1;
        }
        Ok(())
    }

    /// Visits and total value of each root action of `legal` for `observer`, added to `out`.
    fn root_stats(&self, legal: &[u16], visits: &mut [u64], totals: &mut [f64]) {
        let mut c = self.nodes[0].first_child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.mover as usize == self.observer {
                if let Ok(i) = legal.binary_search(&n.key) {
                    visits[i] += n.visits as u64;
                    totals[i] += n.total;
                }
            }
            c = n.next_sibling;
        }
    }
}

/// The IS-MCTS bot (see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct Ismcts<S: SearchGame> {
    config: IsmctsConfig,
    trees: Vec<Tree<S>>,
    /// The game of the trees and the context, and the context (rebuilt for another game).
    context: Option<(S::Game, S::Context)>,
}

impl<S: SearchGame> Ismcts<S> {
    /// A bot with these settings (an error names a bad one).
    ///
    /// ```
    /// use cribpiquet::bots::ismcts::{Ismcts, IsmctsConfig};
    /// use cribpiquet::bots::Bot;
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::rng::Rng;
    ///
    /// let mut rng = Rng::new(1);
    /// let mut s = cribpiquet::cribbage::GameConfig::default().new_initial_state();
    /// s.apply_sampled_chances(&mut rng);
    /// let mut bot = Ismcts::new(IsmctsConfig { iterations: 200, ..IsmctsConfig::default() }).unwrap();
    /// let a = bot.step(&s, &mut rng).unwrap();
    /// assert!(s.legal_actions().contains(&a));
    /// ```
    pub fn new(config: IsmctsConfig) -> Result<Ismcts<S>> {
        let config = config.checked()?;
        Ok(Ismcts { config, trees: (0..config.threads).map(|_| Tree::new()).collect(), context: None })
    }

    /// The settings.
    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Search from `state`: the legal actions with their root visits and total values.
    fn search_root(&mut self, state: &S, rng: &mut Rng) -> Result<(ActionList, Vec<u64>, Vec<f64>)> {
        let observer = decision_player(state, "ismcts")?;
        let config = self.config;
        let game = state.game();
        if !matches!(&self.context, Some((g, _)) if *g == game) {
            // Another game (or the first): its own context, and no tree of the other's.
            self.restart();
            self.context = Some((game, state.search_context(&config)));
        }
        let context = self.context.as_ref().map(|c| c.1.clone()).expect("set above");
        let flag = interrupt::current();
        let deadline = config.time_limit.map(|t| Instant::now() + t);
        let threads = self.trees.len();
        let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
        let share =
            |k: usize| config.iterations / threads as u32 + u32::from((k as u32) < config.iterations % threads as u32);
        for tree in &mut self.trees {
            tree.reuse_or_reset(state, observer);
        }
        if threads == 1 {
            let mut r = Rng::new(seeds[0]);
            self.trees[0].search(state, share(0), deadline, &config, &context, &mut r)?;
        } else {
            let results: Vec<Result<()>> = std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(k, tree)| {
                        let (seed, context, flag) = (seeds[k], &context, flag.as_ref());
                        let n = share(k);
                        std::thread::Builder::new().spawn_scoped(scope, move || {
                            interrupt::with_opt(flag, || {
                                tree.search(state, n, deadline, &config, context, &mut Rng::new(seed))
                            })
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| match h {
                        Ok(h) => h
                            .join()
                            .unwrap_or_else(|_| Err(Error::InvalidValue("ismcts: a search thread panicked".into()))),
                        Err(e) => Err(Error::OutOfMemory(format!("ismcts: cannot start a search thread ({e})"))),
                    })
                    .collect()
            });
            results.into_iter().collect::<Result<Vec<()>>>()?;
        }
        let legal = state.legal_actions();
        let (mut visits, mut totals) = (vec![0u64; legal.len()], vec![0f64; legal.len()]);
        for tree in &self.trees {
            tree.root_stats(&legal, &mut visits, &mut totals);
        }
        Ok((legal, visits, totals))
    }
}

impl<S: SearchGame> Bot<S> for Ismcts<S> {
    fn step(&mut self, state: &S, rng: &mut Rng) -> Result<u16> {
        let (legal, visits, totals) = self.search_root(state, rng)?;
        let mean = |i: usize| if visits[i] == 0 { 0.0 } else { totals[i] / visits[i] as f64 };
        let mut best = 0;
        for i in 1..legal.len() {
            if (visits[i], mean(i)) > (visits[best], mean(best)) {
                best = i;
            }
        }
        Ok(legal[best])
    }

    /// The mean backed-up value of each legal action for the player to move (0..1: cribbage the
    /// estimated chance to win, piquet the scaled point difference; 0 if never visited).
    fn action_values(&mut self, state: &S, rng: &mut Rng) -> Result<Vec<(u16, f64)>> {
        let (legal, visits, totals) = self.search_root(state, rng)?;
        Ok(legal
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, if visits[i] == 0 { 0.0 } else { totals[i] / visits[i] as f64 }))
            .collect())
    }

    fn restart(&mut self) {
        for tree in &mut self.trees {
            *tree = Tree::new();
        }
    }

    fn name(&self) -> String {
        format!("ismcts:{}", self.config.iterations)
    }
}

#[cfg(test)]
mod tests;
