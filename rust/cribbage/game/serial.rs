//! `serialize` / `deserialize`: a one-line dump of every field, checked on the way back in.
//!
//! ```text
//! cribbage/1 variant=six-card target=121 phase=play dealer=1 turn=0 cutting=0 cuts=KH,3D,-,-
//! hands=… kept=… discards=… crib=… starter=JC count=29 passed=0 gomin=0,0,0,0
//! plays=5C/0,TS/1,5D/0,9H/1 seq=0 dealt=12 discarded=2 winner=- deals=1 scores=0,2,0
//! sources=… rewards=0,0,0
//! ```
//!
//! Masks are hexadecimal in the core's bit layout (`suit * 16 + rank`); the framing (magic word,
//! `key=value` fields) is the engine framework's (`rust/engine/serial.rs`).
//!
//! # What `deserialize` accepts: exactly the states play reaches
//!
//! The text is parsed into a state, then the state is **rebuilt by replay** through the checked
//! `apply_action` and must come out equal in every field (else the first field that differs is
//! named: `deals=1 is not reachable: play gives deals=0`):
//!
//! 1. **The cut.** From the cards shown (`cuts`) and the first dealer (the dealer `deals − 1`
//!    deals back; the players still cutting while in the cut): the players of the last round
//!    cut their cards; if that round was a re-cut, an earlier round is rebuilt in which the
//!    others cut their cards and the players of the last round tie on aces (any longer history
//!    of ties shows the same state). This gives the first dealer, five-card's three for last,
//!    and a game over at the cut (five-card to 3 or less: `deals=0`).
//! 2. **The deal.** The state at the start of the current deal (deal number, dealer, the cut,
//!    the scores before the deal) replays the canonical script of the deal: each player's
//!    cards dealt in ascending order round the table from the dealer's left (then the crib's
//!    pack card), the discards in turn, the starter, the cards laid in order with every forced
//!    go between them, and up to one round of forced goes after the last card. The automatic
//!    show, the points of every action, the rewards of the last one, the end of the game at the
//!    target and the winner all come from the replay.
//! 3. **The scores before the deal** are this state's points by source minus what the deal made
//!    (replayed once in a copy that never ends; where the game ended, the last action's points
//!    are cut at what it made here, in the order they are pegged). In the first deal they must be
//!    exactly the cut's. After earlier deals they are checked for **consistency and bounds, not
//!    proven reachable by some exact sequence of deals**: below the target on every side;
//!    three for last exactly as at the cut; crib and heels only for the sides that dealt (at most
//!    29 and 2 a deal, heels even); hands at most 29 a player a deal; pegging at most 17 a card
//!    laid a deal, and at least 1 a deal over all sides (the last card or a 31 always scores).
//!    At the start of a deal (no card dealt yet) the rewards — the points of the action that
//!    ended the previous deal — must be positive and are bounded the same way (pegging and the
//!    show of that deal), not replayed.
//!
//! So the dealer alternates from the first dealer with `deals`, the phase, turn, count, goes,
//! cards and their places are those of a real deal, the points by source add up to the scores,
//! and a deserialized state never panics, gets stuck or reaches a state whose own text is
//! refused.

use std::fmt::Write;

use super::{
    index_to_id, pair_action, GameConfig, Phase, State, Variant, FULL_PACK, GO, MAX_PLAYS, NO_CARD, NO_PLAYER,
};
use crate::cribbage::card::{Card, Hand};
use crate::engine::serial::{self, first_difference, invalid, join, or_dash, Fields};
use crate::engine::GameState;
use crate::error::{Error, Result};

const MAGIC: &str = "cribbage/1";

/// The fields, in the order `serialize` writes them (`lurch` only when on).
const KEYS: [&str; 26] = [
    "variant",
    "target",
    "lurch",
    "first",
    "phase",
    "dealer",
    "turn",
    "cutting",
    "cuts",
    "hands",
    "kept",
    "discards",
    "crib",
    "starter",
    "count",
    "passed",
    "gomin",
    "plays",
    "seq",
    "dealt",
    "discarded",
    "winner",
    "deals",
    "scores",
    "sources",
    "rewards",
];

fn bad(msg: impl std::fmt::Display) -> Error {
    invalid("cribbage", msg)
}

fn ensure(ok: bool, what: &str) -> Result<()> {
    serial::ensure("cribbage", ok, what)
}

fn opt_card(c: u8) -> String {
    or_dash((c != NO_CARD).then(|| Card::from_index(c as u32)))
}

fn opt_player(p: u8) -> String {
    or_dash((p != NO_PLAYER).then_some(p))
}

impl State {
    /// The state as one line of text; [`State::deserialize`] gives it back exactly.
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::cribbage::{GameConfig, State};
    /// let mut state = GameConfig::default().new_initial_state();
    /// state.apply_action(12).unwrap();
    /// assert_eq!(State::deserialize(&state.serialize()).unwrap(), state);
    /// ```
    pub fn serialize(&self) -> String {
        let mut s = String::with_capacity(400);
        let _ = write!(
            s,
            "{MAGIC} variant={} target={}{}{} phase={} dealer={} turn={} cutting={} cuts={}",
            self.config.variant,
            self.config.target,
            if self.config.lurch { " lurch=1" } else { "" },
            self.config.first_dealer().map_or(String::new(), |d| format!(" first={d}")),
            self.phase.name(),
            opt_player(self.dealer),
            self.turn,
            self.cutting,
            join(self.cuts.iter().map(|&c| opt_card(c)))
        );
        let hex = |m: u64| format!("{m:x}");
        let _ = write!(
            s,
            " hands={} kept={} discards={} crib={} starter={} count={} passed={} gomin={}",
            join(self.hands.iter().map(|&m| hex(m))),
            join(self.kept.iter().map(|h| hex(h.mask()))),
            join(self.discards.iter().map(|&m| hex(m))),
            hex(self.crib.mask()),
            opt_card(self.starter),
            self.count,
            self.passed,
            join(self.go_min)
        );
        let plays: Vec<String> =
            (0..self.n_plays as usize).map(|i| format!("{}/{}", self.plays[i], self.play_seats[i])).collect();
        let _ = write!(
            s,
            " plays={} seq={} dealt={} discarded={} winner={} deals={} scores={} sources={} rewards={}",
            if plays.is_empty() { "-".to_string() } else { plays.join(",") },
            self.seq_start,
            self.dealt,
            self.discarded,
            opt_player(self.winner),
            self.deals,
            join(self.scores),
            join(self.sources.iter().flatten()),
            join(self.rewards)
        );
        s
    }

    /// A state from [`serialize`](State::serialize) text; inconsistent text is an
    /// [`Error::InvalidValue`].
    pub fn deserialize(text: &str) -> Result<State> {
        let f = Fields::parse("cribbage", MAGIC, &KEYS, text)?;
        let get = |key: &str| f.get(key);
        let small = |key: &str, max: u64| f.num(key, max);
        let card = |text: &str| -> Result<u8> {
            if text == "-" {
                return Ok(NO_CARD);
            }
            let c: Card = text.parse().map_err(|_| bad(format!("{text:?} is not a card")))?;
            Ok(c.index() as u8)
        };
        let player = |key: &str| -> Result<u8> {
            match get(key)? {
                "-" => Ok(NO_PLAYER),
                v => v.parse::<u8>().ok().filter(|&p| p < 4).ok_or_else(|| bad(format!("{key} is not a player"))),
            }
        };
        let mask = |text: &str| -> Result<u64> {
            let m = u64::from_str_radix(text, 16).map_err(|_| bad(format!("{text:?} is not a hex mask")))?;
            if m & !FULL_PACK != 0 {
                return Err(bad(format!("mask {text} has bits that are not cards")));
            }
            Ok(m)
        };
        let masks = |key: &str| -> Result<[u64; 4]> {
            let items = f.list(key, 4)?;
            let mut out = [0u64; 4];
            for (slot, text) in out.iter_mut().zip(items) {
                *slot = mask(text)?;
            }
            Ok(out)
        };
        let numbers = |key: &str, len: usize, max: u64| f.nums(key, len, max);

        let variant: Variant = get("variant")?.parse()?;
        let lurch = match f.optional("lurch") {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => return Err(bad(format!("lurch={v:?} (expected 0 or 1)"))),
        };
        let first_dealer = match f.optional("first") {
            None => None,
            Some(v) => Some(v.parse::<usize>().map_err(|_| bad(format!("first={v:?} is not a player")))?),
        };
        let config = GameConfig::new(variant, Some(small("target", u32::MAX as u64)? as u32))?
            .with_lurch(lurch)
            .with_first_dealer(first_dealer)?;
        let phase = f.choice("phase", &Phase::ALL, Phase::name)?;
        let mut state = State::new(config);
        state.phase = phase;
        state.dealer = player("dealer")?;
        state.turn = small("turn", 3)? as u8;
        state.cutting = small("cutting", 15)? as u8;
        let cuts = f.list("cuts", 4)?;
        for (slot, text) in state.cuts.iter_mut().zip(cuts) {
            *slot = card(text)?;
        }
        state.hands = masks("hands")?;
        let kept = masks("kept")?;
        for (slot, m) in state.kept.iter_mut().zip(kept) {
            *slot = Hand::from_mask(m)?;
        }
        state.discards = masks("discards")?;
        state.crib = Hand::from_mask(mask(get("crib")?)?)?;
        state.starter = card(get("starter")?)?;
        state.count = small("count", 31)? as u8;
        state.passed = small("passed", 15)? as u8;
        for (slot, v) in state.go_min.iter_mut().zip(numbers("gomin", 4, 31)?) {
            *slot = v as u8;
        }
        let plays = get("plays")?;
        if plays != "-" {
            for item in plays.split(',') {
                let (c, p) = item.split_once('/').ok_or_else(|| bad(format!("play {item:?} is not card/player")))?;
                let k = state.n_plays as usize;
                if k >= MAX_PLAYS {
                    return Err(bad("more than 16 cards laid"));
                }
                let c = card(c)?;
                if c == NO_CARD {
                    return Err(bad("a play without a card"));
                }
                state.plays[k] = Card::from_index(c as u32);
                state.play_seats[k] =
                    p.parse::<u8>().ok().filter(|&p| p < 4).ok_or_else(|| bad("bad player in plays"))?;
                state.n_plays += 1;
            }
        }
        state.seq_start = small("seq", 16)? as u8;
        state.dealt = small("dealt", 25)? as u8;
        state.discarded = small("discarded", 4)? as u8;
        state.winner = player("winner")?;
        state.deals = small("deals", u16::MAX as u64)? as u16;
        for (slot, v) in state.scores.iter_mut().zip(numbers("scores", 3, u16::MAX as u64)?) {
            *slot = v as u16;
        }
        let sources = numbers("sources", 15, u16::MAX as u64)?;
        for (i, v) in sources.into_iter().enumerate() {
            state.sources[i / 5][i % 5] = v as u16;
        }
        for (slot, v) in state.rewards.iter_mut().zip(numbers("rewards", 3, u16::MAX as u64)?) {
            *slot = v as u16;
        }
        let all_discards = state.discards.iter().fold(0, |m, &d| m | d);
        let starter_bit = if state.starter == NO_CARD { 0 } else { 1u64 << state.starter };
        state.used = state.kept.iter().fold(state.crib.mask() | all_discards | starter_bit, |m, h| m | h.mask());
        state.check_invariants()?;
        Ok(state)
    }

    /// Check that the state is one play can reach (used by `deserialize`, and by tests on every
    /// state of random games): the state is rebuilt by replay (see the module docs) and must
    /// come out equal, field for field.
    pub(crate) fn check_invariants(&self) -> Result<()> {
        let replayed = self.replay()?;
        if replayed == *self {
            return Ok(());
        }
        Err(bad(first_difference(&self.serialize(), &replayed.serialize(), "play")))
    }

    /// This state rebuilt from its cut, its deal-start summary and the canonical action script
    /// of its deal, through the checked `apply_action`; an error if a step is refused.
    fn replay(&self) -> Result<State> {
        let n = self.n as usize;
        let all = (1u8 << n) - 1;
        // The cut for the first deal.
        let first = if self.phase == Phase::Cut {
            None
        } else {
            ensure((self.dealer as usize) < n, "a dealer is needed after the cut")?;
            let back = (self.deals.max(1) as usize - 1) % n;
            Some((self.dealer as usize + n - back) % n)
        };
        let mut cut = State::new(self.config);
        for a in self.cut_script(first, all)? {
            cut.apply_action(a).map_err(|e| bad(format!("the cut does not replay: {e}")))?;
        }
        if self.phase == Phase::Cut || self.deals == 0 {
            return Ok(cut);
        }
        ensure(cut.phase == Phase::Deal && Some(cut.dealer as usize) == first, "the cut does not give that dealer")?;
        // The start of this deal (dealer, number) and, in a copy that never ends, its script.
        let mut base = cut;
        base.deals = self.deals;
        base.dealer = self.dealer;
        base.turn = base.next_seat(self.dealer as usize) as u8;
        let mut free = base;
        free.config.target = u16::MAX;
        free.scores = [0; 3];
        free.sources = [[0; 5]; 3];
        let (script, trailing_gos) = self.deal_script(free)?;
        let mut first_result = None;
        for extra in 0..=trailing_gos {
            let mut candidate = script.clone();
            candidate.extend(std::iter::repeat_n(GO, extra));
            let result = self.replay_deal(base, free, cut, &candidate);
            match result {
                Ok(s) if s == *self => return Ok(s),
                other => {
                    if first_result.is_none() {
                        first_result = Some(other);
                    }
                }
            }
        }
        first_result.unwrap_or_else(|| Err(bad("the deal does not replay")))
    }

    /// The actions of the cut, from its cards: `first` is the first dealer (`None` while cutting).
    /// A round that ended in a tie is rebuilt as a tie on aces by the players of the last
    /// round, the others cutting their cards: any longer history shows the same state.
    fn cut_script(&self, first: Option<usize>, all: u8) -> Result<Vec<u16>> {
        if self.config.first_dealer().is_some() {
            return Ok(Vec::new()); // no cut: the game starts at the first deal
        }
        let n = self.n as usize;
        let id = |index: u8| index_to_id(index as u32);
        let (round, cut_in_round) = match first {
            None => {
                ensure(self.cutting != 0 && self.cutting & !all == 0, "the players cutting")?;
                (self.cutting, (0..n).filter(|&q| self.cutting >> q & 1 == 1 && q < self.turn as usize).count())
            }
            Some(f) => {
                let ranks = |q: usize| self.cuts[q] & 15;
                ensure(self.cuts[..n].iter().all(|&c| c != NO_CARD), "every player has cut")?;
                let round = (0..n).filter(|&q| q == f || ranks(q) > ranks(f)).fold(0u8, |m, q| m | 1 << q);
                (round, round.count_ones() as usize)
            }
        };
        let mut out = Vec::new();
        let card = |q: usize| -> Result<u16> {
            ensure(self.cuts[q] != NO_CARD, "a cut card is missing")?;
            Ok(id(self.cuts[q]))
        };
        if round != all {
            // An earlier round: the others cut their cards, the players of this round tie on aces.
            let shown: u64 = (0..n).filter(|&q| round >> q & 1 == 0).fold(0, |m, q| m | 1u64 << (self.cuts[q] & 63));
            let mut aces = (0..4u8).map(|suit| suit * 16).filter(|&a| shown >> a & 1 == 0);
            for q in 0..n {
                if round >> q & 1 == 1 {
                    out.push(id(aces.next().ok_or_else(|| bad("the cut cards"))?));
                } else {
                    out.push(card(q)?);
                }
            }
        }
        for q in (0..n).filter(|&q| round >> q & 1 == 1).take(cut_in_round) {
            out.push(card(q)?);
        }
        Ok(out)
    }

    /// The canonical actions of the current deal from its start (`free`: the deal-start state
    /// in a game that never ends): each player's cards dealt in ascending order round the table
    /// (then the crib's pack card), the discards, the starter, the cards laid with every forced
    /// go between them. Also returns how many forced goes may follow the last card (the state may
    /// be at any point of a chain of goes).
    fn deal_script(&self, free: State) -> Result<(Vec<u16>, usize)> {
        let n = self.n as usize;
        let v = self.config.variant;
        let to_hands = n * v.cards_dealt();
        let id = |index: u32| index_to_id(index);
        let low = |m: u64| m.trailing_zeros();
        let mut st = free;
        let mut out = Vec::new();
        let mut push = |st: &mut State, a: u16| -> Result<()> {
            st.apply_action(a).map_err(|e| bad(format!("the deal does not replay: {e}")))?;
            out.push(a);
            Ok(())
        };
        let all_discards = self.discards.iter().fold(0, |m, &d| m | d);
        let mut to_deal: [u64; 4] = std::array::from_fn(|q| self.kept[q].mask() | self.discards[q]);
        let mut pack_to_crib = self.crib.mask() & !all_discards;
        for i in 0..self.dealt as usize {
            let left = if i < to_hands { &mut to_deal[(self.dealer as usize + 1 + i) % n] } else { &mut pack_to_crib };
            ensure(*left != 0, "the cards dealt")?;
            let c = low(*left);
            *left &= !(1u64 << c);
            push(&mut st, id(c))?;
        }
        while st.phase == Phase::Discard {
            let d = self.discards[st.turn as usize];
            if d == 0 || d.count_ones() as usize != v.discards() {
                break;
            }
            let a = if v.discards() == 2 {
                let (x, y) = (low(d), low(d & (d - 1)));
                pair_action(id(x), id(y)).ok_or_else(|| bad("the discards"))?
            } else {
                id(low(d))
            };
            push(&mut st, a)?;
        }
        if st.phase == Phase::Starter && self.starter != NO_CARD {
            push(&mut st, id(self.starter as u32))?;
        }
        let mut k = 0;
        while st.phase == Phase::Play && k < self.n_plays as usize {
            if st.playable() == 0 {
                push(&mut st, GO)?;
            } else {
                push(&mut st, id(self.plays[k].index()))?;
                k += 1;
            }
        }
        ensure(k == self.n_plays as usize, "the cards laid")?;
        let mut trailing = 0;
        while st.phase == Phase::Play && st.playable() == 0 && trailing < n {
            st.apply_legal(GO);
            trailing += 1;
        }
        Ok((out, trailing))
    }

    /// Replay `script` from the deal start `base`: the points this state made in the deal (from
    /// the never-ending copy `free`, the last action cut where the game ended) give the scores at
    /// the start of the deal, which are checked and then replayed through for real.
    fn replay_deal(&self, mut base: State, free: State, cut: State, script: &[u16]) -> Result<State> {
        let n = self.n as usize;
        let v = self.config.variant;
        let sides = v.num_sides();
        let mut gain = [[0u16; 5]; 3];
        if let Some((&last, most)) = script.split_last() {
            let mut st = free;
            for &a in most {
                st.apply_action(a).map_err(|e| bad(format!("the deal does not replay: {e}")))?;
            }
            let before = st.sources;
            st.apply_action(last).map_err(|e| bad(format!("the deal does not replay: {e}")))?;
            for side in 0..3 {
                // The last action's points: all of them, or up to what it made here (the game
                // ended in it), in the order they are pegged (heels; the play; hands; crib).
                let mut left = self.rewards[side];
                for src in [3, 0, 1, 2, 4] {
                    let made = st.sources[side][src] - before[side][src];
                    let taken = if self.phase == Phase::GameOver { made.min(left) } else { made };
                    left -= taken.min(left);
                    gain[side][src] = before[side][src] + taken;
                }
                ensure(self.phase != Phase::GameOver || left == 0, "the points of the last action")?;
            }
        }
        let mut pre = [[0u16; 5]; 3];
        for side in 0..3 {
            for src in 0..5 {
                pre[side][src] = self.sources[side][src]
                    .checked_sub(gain[side][src])
                    .ok_or_else(|| bad("the points by source are less than the points made this deal"))?;
            }
        }
        let deals = self.deals as usize;
        if deals == 1 {
            ensure(pre == cut.sources, "points before the first deal")?;
        } else {
            self.check_earlier_deals(&pre, cut, script.is_empty())?;
            base.sources = pre;
            for (score, points) in base.scores.iter_mut().zip(pre) {
                // In u32: the sources of a text need not add up (they are refused below then).
                *score = points.iter().map(|&x| x as u32).sum::<u32>().min(u16::MAX as u32) as u16;
            }
            if script.is_empty() {
                base.rewards = self.rewards;
            }
        }
        ensure(base.scores[..sides].iter().all(|&s| s < self.config.target), "a score at the target before the deal")?;
        let _ = n;
        let mut st = base;
        for &a in script {
            st.apply_action(a).map_err(|e| bad(format!("the deal does not replay: {e}")))?;
        }
        Ok(st)
    }

    /// The points of the deals before this one (`pre`, by side and source) against what those
    /// deals can give: three for last exactly as at the cut; crib and heels only to the dealers'
    /// sides (at most 29 and 2 a deal, heels even); hands at most 29 a player a deal; pegging
    /// at most 17 a card laid a deal, and at least 1 a deal over the sides (the last card
    /// or the 31 always scores). At the start of a deal (`at_start`) the points of the action
    /// that ended the previous deal (the rewards) are bounded the same way and are at least 1.
    fn check_earlier_deals(&self, pre: &[[u16; 5]; 3], cut: State, at_start: bool) -> Result<()> {
        let n = self.n as usize;
        let v = self.config.variant;
        let sides = v.num_sides();
        let done = self.deals as u64 - 1;
        let first = cut.dealer as usize;
        let players = |side: usize| (0..n).filter(|&q| v.side_of(q) == side).count() as u64;
        let dealt_by = |side: usize| (0..done).filter(|&j| v.side_of((first + j as usize) % n) == side).count() as u64;
        let peg_cap = |side: usize| 17 * v.kept() as u64 * players(side);
        let mut pegging = 0u64;
        for (side, points) in pre.iter().enumerate() {
            let [peg, hand, crib, heels, three] = points.map(|x| x as u64);
            if side >= sides {
                ensure(*points == [0; 5] && self.rewards[side] == 0, "points for a side that does not exist")?;
                continue;
            }
            ensure(three == cut.sources[side][4] as u64, "three for last")?;
            ensure(crib <= 29 * dealt_by(side), "more crib points than the deals allow")?;
            ensure(heels <= 2 * dealt_by(side) && heels % 2 == 0, "more heels than the deals allow")?;
            ensure(hand <= 29 * players(side) * done, "more hand points than the deals allow")?;
            ensure(peg <= peg_cap(side) * done, "more pegging points than the deals allow")?;
            pegging += peg;
            if at_start {
                // The points of the action that ended the previous deal: the play and the show.
                let dealer_side = v.side_of((self.dealer as usize + n - 1) % n) == side;
                let cap = peg_cap(side) + 29 * players(side) + if dealer_side { 29 } else { 0 };
                ensure(self.rewards[side] as u64 <= cap, "the points of the previous action")?;
            }
        }
        ensure(pegging >= done, "fewer pegging points than deals played (each scores the last card)")?;
        if at_start {
            ensure(self.rewards.iter().any(|&r| r > 0), "no points for the action that ended the previous deal")?;
        }
        Ok(())
    }
}
