//! `serialize` / `deserialize`: a one-line dump of every field, checked on the way back in.
//!
//! ```text
//! cribbage/1 variant=six-card target=121 phase=play dealer=1 turn=0 cutting=0 cuts=KH,3D,-,-
//! hands=… kept=… discards=… crib=… starter=JC count=29 passed=0 gomin=0,0,0,0
//! plays=5C/0,TS/1,5D/0,9H/1 seq=0 dealt=12 discarded=2 winner=- deals=1 scores=0,2,0
//! sources=… rewards=0,0,0
//! ```
//!
//! Masks are hexadecimal in the core's bit layout (`suit * 16 + rank`). A text that is not a
//! state this engine can reach in a consistent way (sizes, disjoint cards, count, turn, scores)
//! is an [`Error::InvalidValue`], so a deserialized state never panics later.

use std::fmt::Write;

use super::{GameConfig, Phase, State, Variant, FITS, FULL, MAX_PLAYS, NO_CARD, NO_PLAYER, PIPS};
use crate::cribbage::card::{Card, Hand};
use crate::engine::GameState;
use crate::error::{Error, Result};

const MAGIC: &str = "cribbage/1";

fn bad(msg: impl Into<String>) -> Error {
    Error::InvalidValue(format!("not a cribbage state: {}", msg.into()))
}

fn opt_card(c: u8) -> String {
    if c == NO_CARD {
        "-".into()
    } else {
        Card::from_index(c as u32).to_string()
    }
}

fn opt_player(p: u8) -> String {
    if p == NO_PLAYER {
        "-".into()
    } else {
        p.to_string()
    }
}

fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
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
            "{MAGIC} variant={} target={}{} phase={} dealer={} turn={} cutting={} cuts={}",
            self.config.variant,
            self.config.target,
            if self.config.lurch { " lurch=1" } else { "" },
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
        let mut tokens = text.split_whitespace();
        if tokens.next() != Some(MAGIC) {
            return Err(bad(format!("it must start with {MAGIC:?}")));
        }
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for token in tokens {
            let (key, value) = token.split_once('=').ok_or_else(|| bad(format!("token {token:?} is not key=value")))?;
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(bad(format!("field {key} appears twice")));
            }
            fields.push((key, value));
        }
        const KEYS: [&str; 25] = [
            "variant",
            "target",
            "lurch",
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
        if let Some((k, _)) = fields.iter().find(|(k, _)| !KEYS.contains(k)) {
            return Err(bad(format!("unknown field {k}")));
        }
        let get = |key: &str| -> Result<&str> {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v)
                .ok_or_else(|| bad(format!("field {key} is missing")))
        };
        let num =
            |key: &str| -> Result<u64> { get(key)?.parse::<u64>().map_err(|_| bad(format!("{key} is not a number"))) };
        let small = |key: &str, max: u64| -> Result<u64> {
            let v = num(key)?;
            if v > max {
                return Err(bad(format!("{key} = {v} is out of range")));
            }
            Ok(v)
        };
        let list = |key: &str, len: usize| -> Result<Vec<&str>> {
            let items: Vec<&str> = get(key)?.split(',').collect();
            if items.len() != len {
                return Err(bad(format!("{key} must have {len} items")));
            }
            Ok(items)
        };
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
            if m & !FULL != 0 {
                return Err(bad(format!("mask {text} has bits that are not cards")));
            }
            Ok(m)
        };
        let masks = |key: &str| -> Result<[u64; 4]> {
            let items = list(key, 4)?;
            let mut out = [0u64; 4];
            for (slot, text) in out.iter_mut().zip(items) {
                *slot = mask(text)?;
            }
            Ok(out)
        };
        let numbers = |key: &str, len: usize, max: u64| -> Result<Vec<u64>> {
            list(key, len)?
                .iter()
                .map(|t| t.parse::<u64>().ok().filter(|&v| v <= max).ok_or_else(|| bad(format!("bad number in {key}"))))
                .collect()
        };

        let variant: Variant = get("variant")?.parse()?;
        let lurch = match fields.iter().find(|(k, _)| *k == "lurch").map(|(_, v)| *v) {
            None | Some("0") => false,
            Some("1") => true,
            Some(v) => return Err(bad(format!("lurch={v:?} (expected 0 or 1)"))),
        };
        let config = GameConfig::new(variant, Some(small("target", u32::MAX as u64)? as u32))?.with_lurch(lurch);
        let phase_name = get("phase")?;
        let phase = Phase::ALL
            .into_iter()
            .find(|p| p.name() == phase_name)
            .ok_or_else(|| bad(format!("phase {phase_name:?}")))?;
        let mut state = State::new(config);
        state.phase = phase;
        state.dealer = player("dealer")?;
        state.turn = small("turn", 3)? as u8;
        state.cutting = small("cutting", 15)? as u8;
        let cuts = list("cuts", 4)?;
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

    /// Check that the state is one the engine can be in (used by `deserialize`, and by tests
    /// on every state of random games).
    pub(crate) fn check_invariants(&self) -> Result<()> {
        let v = self.config.variant;
        let n = v.num_players();
        let sides = v.num_sides();
        let ensure = |ok: bool, what: &str| if ok { Ok(()) } else { Err(bad(what.to_string())) };
        ensure(self.n as usize == n, "player count")?;
        let all = (1u8 << n) - 1;
        // Scores.
        for side in 0..3 {
            let total: u32 = self.sources[side].iter().map(|&x| x as u32).sum();
            ensure(total == self.scores[side] as u32, "the points by source do not add up to the score")?;
            ensure(self.rewards[side] <= self.scores[side], "a reward larger than the score")?;
            if side >= sides {
                ensure(self.scores[side] == 0, "a score for a side that does not exist")?;
            }
        }
        let target = self.config.target;
        if self.phase == Phase::GameOver {
            ensure((self.winner as usize) < sides, "the game is over without a winner")?;
            for side in 0..sides {
                let reached = self.scores[side] >= target;
                ensure(reached == (side == self.winner as usize), "only the winner may have reached the target")?;
            }
        } else {
            ensure(self.winner == NO_PLAYER, "a winner before the end")?;
            ensure(self.scores[..sides].iter().all(|&s| s < target), "a score at the target before the end")?;
        }
        // Seats beyond the player count are empty.
        for q in n..4 {
            ensure(
                self.hands[q] == 0 && self.kept[q].is_empty() && self.discards[q] == 0 && self.go_min[q] == 0,
                "cards for a player who does not exist",
            )?;
            ensure(self.cuts[q] == NO_CARD, "a cut by a player who does not exist")?;
        }
        ensure(self.passed & !all == 0 && self.cutting & !all == 0, "player masks")?;
        // The cut cards are distinct cards.
        let mut cut_seen = 0u64;
        for &c in &self.cuts {
            if c != NO_CARD {
                ensure(c & 15 < 13 && c < 64 && cut_seen >> c & 1 == 0, "cut cards")?;
                cut_seen |= 1u64 << c;
            }
        }
        if self.phase == Phase::Cut || self.deals == 0 {
            ensure(matches!(self.phase, Phase::Cut | Phase::GameOver), "no deal yet")?;
            ensure(
                self.used == 0 && self.n_plays == 0 && self.dealt == 0 && self.starter == NO_CARD,
                "cards out before the first deal",
            )?;
            if self.phase == Phase::Cut {
                ensure(self.dealer == NO_PLAYER && self.cutting != 0, "the cut")?;
                ensure(self.turn < self.n && self.cutting >> self.turn & 1 == 1, "the cutter")?;
                for q in 0..n {
                    let in_round = self.cutting >> q & 1 == 1;
                    let has_cut = self.cuts[q] != NO_CARD;
                    let expected = if in_round { q < self.turn as usize } else { true };
                    ensure(has_cut == expected, "who has cut")?;
                }
                ensure(self.scores == [0; 3], "points before the game")?;
            } else {
                ensure((self.dealer as usize) < n, "the dealer")?;
            }
            return Ok(());
        }
        ensure((self.dealer as usize) < n && (self.turn as usize) < n, "dealer and turn")?;
        ensure(self.cutting == 0, "cutting after the cut")?;
        // Card sets: kept hands, discards and the crib's pack card are disjoint.
        let mut seen = 0u64;
        for q in 0..n {
            let k = self.kept[q].mask();
            ensure(self.hands[q] & !k == 0, "unplayed cards that are not kept")?;
            ensure(k & seen == 0 && self.discards[q] & (seen | k) == 0, "a card in two places")?;
            seen |= k | self.discards[q];
        }
        let all_discards = self.discards.iter().fold(0, |m, &d| m | d);
        let crib = self.crib.mask();
        ensure(crib & all_discards == all_discards, "discards missing from the crib")?;
        let extra = crib & !all_discards;
        ensure(extra & seen == 0, "a crib card in a hand")?;
        let starter_bit = if self.starter == NO_CARD { 0 } else { 1u64 << self.starter };
        if self.starter != NO_CARD {
            ensure(self.starter & 15 < 13 && self.starter < 64, "the starter")?;
        }
        ensure(starter_bit & (seen | crib) == 0, "the starter in a hand")?;
        ensure(self.used == seen | crib | starter_bit, "cards out of the pack")?;
        // Sizes by phase.
        let per = v.cards_dealt();
        let keep = v.kept();
        let disc = v.discards();
        let to_hands = n * per;
        let full_deal = to_hands + v.crib_from_pack();
        let size = |m: u64| m.count_ones() as usize;
        let offset = |q: usize| (q + n - 1 - self.dealer as usize) % n; // 0 = left of the dealer
        match self.phase {
            Phase::Cut => unreachable_phase()?,
            Phase::Deal => {
                let dealt = self.dealt as usize;
                ensure(dealt < full_deal && self.discarded == 0, "the deal")?;
                if dealt < to_hands {
                    ensure(self.turn as usize == (self.dealer as usize + 1 + dealt) % n, "the next card's recipient")?;
                }
                ensure(self.starter == NO_CARD && self.n_plays == 0 && all_discards == 0, "the deal")?;
                for q in 0..n {
                    let expected = dealt.min(to_hands) / n + usize::from(offset(q) < dealt.min(to_hands) % n);
                    ensure(
                        self.hands[q] == self.kept[q].mask() && size(self.hands[q]) == expected,
                        "hand sizes in the deal",
                    )?;
                }
                ensure(size(extra) == dealt.saturating_sub(to_hands), "the crib in the deal")?;
            }
            Phase::Discard | Phase::Starter => {
                ensure(
                    self.dealt as usize == full_deal && self.starter == NO_CARD && self.n_plays == 0,
                    "the discard",
                )?;
                let done = self.discarded as usize;
                ensure(done < n || (self.phase == Phase::Starter && done == n), "discards done")?;
                if self.phase == Phase::Discard {
                    ensure(self.turn as usize == (self.dealer as usize + 1 + done) % n, "whose discard")?;
                }
                for q in 0..n {
                    let has = offset(q) < done;
                    let (k, d) = if has { (keep, disc) } else { (per, 0) };
                    ensure(self.hands[q] == self.kept[q].mask(), "played cards before the play")?;
                    ensure(size(self.hands[q]) == k && size(self.discards[q]) == d, "hand sizes in the discard")?;
                }
                ensure(size(extra) == v.crib_from_pack(), "the crib's pack card")?;
            }
            Phase::Play | Phase::GameOver => {
                // Points come only from the starter on, so a finished deal is always past the discard.
                ensure(self.dealt as usize == full_deal && self.discarded as usize == n, "the play")?;
                for q in 0..n {
                    ensure(size(self.kept[q].mask()) == keep && size(self.discards[q]) == disc, "kept cards")?;
                }
                ensure(size(crib) == 4 && self.starter != NO_CARD, "the crib and starter")?;
                self.check_plays()?;
                if self.phase == Phase::Play {
                    ensure(self.starter != NO_CARD, "the play without a starter")?;
                    let t = self.turn as usize;
                    ensure(self.hands[t] != 0 && !self.has_passed(t), "the player to lay")?;
                }
            }
        }
        if !matches!(self.phase, Phase::Play | Phase::GameOver) {
            ensure(
                self.count == 0 && self.passed == 0 && self.go_min == [0; 4] && self.seq_start == 0,
                "count before the play",
            )?;
        }
        Ok(())
    }

    fn check_plays(&self) -> Result<()> {
        let n = self.num_players();
        let ensure = |ok: bool, what: &str| if ok { Ok(()) } else { Err(bad(what.to_string())) };
        let k = self.n_plays as usize;
        ensure(k <= MAX_PLAYS && self.seq_start as usize <= k, "the play record")?;
        let mut laid = [0u64; 4];
        for i in 0..k {
            let q = self.play_seats[i] as usize;
            ensure(q < n, "a card laid by nobody")?;
            let bit = self.plays[i].bit();
            ensure(laid.iter().all(|&m| m & bit == 0), "a card laid twice")?;
            laid[q] |= bit;
        }
        for q in 0..n {
            ensure(
                laid[q] == self.kept[q].mask() & !self.hands[q],
                "the cards laid are not the cards gone from the hand",
            )?;
            if self.go_min[q] != 0 {
                // Every card still held was held at that go: it did not fit.
                ensure(self.hands[q] & FITS[31 - self.go_min[q] as usize] == 0, "a go with a card that fits")?;
            }
        }
        let count: u32 = self.plays[self.seq_start as usize..k].iter().map(|c| PIPS[c.index() as usize] as u32).sum();
        ensure(count == self.count as u32, "the count")?;
        if self.phase == Phase::Play {
            ensure(count < 31, "the count in the play")?;
            if self.passed != 0 {
                // Who said go cannot lay now.
                for q in 0..n {
                    if self.has_passed(q) {
                        ensure(
                            self.hands[q] & FITS[31 - count as usize] == 0 && self.go_min[q] != 0,
                            "a go with a card that fits",
                        )?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn unreachable_phase() -> Result<()> {
    Err(bad("inconsistent phase"))
}
