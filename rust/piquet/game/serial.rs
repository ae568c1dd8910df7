//! `serialize` / `deserialize`: a one-line dump of every field, checked on the way back in.
//!
//! ```text
//! piquet/1 rules=seq:13.14.15.16.17.18;trick:every-lead-and-trick;… scope=deal phase=play turn=0
//! dealer=1 cuts=9H,KC dealt=… hands=… discards=… drawn=… exchange=5,3 … plays=AH,7H,KH …
//! ```
//!
//! Masks are hexadecimal (bit = card id); the framing (magic word, `key=value` fields) is the
//! engine framework's (`rust/engine/serial.rs`).
//!
//! # What `deserialize` accepts: the states play reaches
//!
//! * **The current deal is replayed** from its cards through the checked `apply_action`: the
//!   deal (elder's and the dealer's cards ascending, alternately), each exchange (size,
//!   ascending discards, the talon cards), the open-capot announcements and the tricks. Every
//!   field of the deal must come out equal (the first that differs is named), the rewards of
//!   the last action included; this deal's points by source are the replay's.
//! * **The match record** (not replayable) is checked for consistency: deals begun against
//!   games finished and the phase; the games add up to the scores (with this deal's totals);
//!   the points by source add up to the scores; the dealer follows the draw for deal (the lower
//!   card deals) and alternates within a korolik or a partie; the koroliks and the games of the
//!   open korolik follow the games (a refet or two games close one); the end of the match
//!   (koroliks, or the partie's deals and an unequal score) and its outcome; the draw (both
//!   cards, or only seat 0's) before a korolik.
//! * **The finished deals' points by source** (the sources minus this deal's) are bounded, not
//!   proven reachable: repique, pique and leza in whole bonuses at most once a deal over both
//!   seats; capots at most one bonus a deal; the last trick's extra at most once a deal; at most
//!   24 play points a deal; declarations are not bounded (their values depend on the rules).
//!   When no action of the current deal is known (a draw, or a deal not begun) the rewards — the
//!   last action's points — are at most the last game's totals (none before any game).
//!
//! So a deserialized state never panics or gets stuck later.

use std::fmt::Write;

use super::{GameConfig, Phase, Scope, State, EXCHANGE_BASE, MAX_GAMES, NO_CARD, NO_SEAT, NO_SIZE, NUM_SOURCES};
use super::{PointSource, ANNOUNCE_CAPOT, PASS};
use crate::engine::serial::{first_difference, invalid, join, or_dash, Fields};
use crate::engine::GameState;
use crate::error::{Error, Result};
use crate::piquet::card::Card;
use crate::piquet::rules::{ExchangeLimits, MatchScoring, RuleKind, RuleValue, Rules, RULE_FIELDS};
use crate::piquet::rules::{LEZA_BONUS, PIQUE_BONUS, REPIQUE_BONUS};

const MAGIC: &str = "piquet/1";

/// The keys of the state text, in order.
const KEYS: [&str; 36] = [
    "rules",
    "scope",
    "first",
    "phase",
    "turn",
    "dealer",
    "cuts",
    "ndealt",
    "dealt",
    "hands",
    "discards",
    "drawn",
    "exchange",
    "decl",
    "decltotal",
    "repique",
    "declared",
    "pending",
    "announce",
    "plays",
    "leader",
    "winners",
    "tricks",
    "dplayed",
    "piquepossible",
    "pique",
    "dealtotals",
    "deals",
    "games",
    "ngames",
    "koroliks",
    "kgames",
    "scores",
    "sources",
    "rewards",
    "outcome",
];

/// `Ok` if `ok`, else the invalid-state error naming `what`.
fn ensure(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(bad(what))
    }
}

fn bad(msg: impl std::fmt::Display) -> Error {
    invalid("piquet", msg)
}

fn opt_card(c: u8) -> String {
    or_dash((c != NO_CARD).then(|| Card::from_id(c as i64).map(|c| c.to_string()).unwrap_or_else(|_| "?".into())))
}

fn opt_num(x: u8, none: u8) -> String {
    or_dash((x != none).then_some(x))
}

/// A rule value as a state text writes it: numbers, `-` for none, `0`/`1` for flags, `.` between
/// the parts of a list or of exchange limits.
fn rule_text(value: RuleValue<'_>) -> String {
    let limits = |l: ExchangeLimits| format!("{}.{}.{}", l.min, l.max, l.may_decline as u8);
    match value {
        RuleValue::Numbers(v) => v.map(|v| v.to_string()).join("."),
        RuleValue::Number(v) => v.to_string(),
        RuleValue::OptionalNumber(v) => or_dash(v),
        RuleValue::Flag(b) => (b as u8).to_string(),
        RuleValue::Name(name) => name.to_string(),
        RuleValue::Limits(l) => limits(l),
    }
}

/// The rules as `key:value` items in the order of format `piquet/1` (from [`RULE_FIELDS`]).
fn rules_text(r: &Rules) -> String {
    let mut items = [""; RULE_FIELDS.len()].map(String::from);
    for f in RULE_FIELDS {
        items[f.text_position] = format!("{}:{}", f.key, rule_text((f.get)(r)));
    }
    items.join(";")
}

/// A rule value of `kind` read from its text (see [`rule_text`]).
fn parse_rule<'a>(kind: RuleKind, key: &str, text: &'a str) -> Result<RuleValue<'a>> {
    let bad_value = |v: &str| bad(format!("rules {key}: {v:?}"));
    let num = |v: &str| v.parse::<u16>().map_err(|_| bad_value(v));
    let flag = |v: &str| match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(bad_value(v)),
    };
    Ok(match kind {
        RuleKind::Numbers => {
            let parts: Vec<&str> = text.split('.').collect();
            if parts.len() != 6 {
                return Err(bad(format!("rules {key} needs 6 values")));
            }
            let mut values = [0u16; 6];
            for (slot, t) in values.iter_mut().zip(parts) {
                *slot = num(t)?;
            }
            RuleValue::Numbers(values)
        }
        RuleKind::Number { .. } => RuleValue::Number(num(text)?),
        RuleKind::OptionalNumber { .. } => RuleValue::OptionalNumber(if text == "-" { None } else { Some(num(text)?) }),
        RuleKind::Flag => RuleValue::Flag(flag(text)?),
        RuleKind::Name(_) => RuleValue::Name(text),
        RuleKind::Limits => {
            let parts: Vec<&str> = text.split('.').collect();
            if parts.len() != 3 {
                return Err(bad_value(text));
            }
            let small = |t: &str| t.parse::<u8>().map_err(|_| bad_value(text));
            RuleValue::Limits(ExchangeLimits {
                min: small(parts[0])?,
                max: small(parts[1])?,
                may_decline: flag(parts[2])?,
            })
        }
    })
}

/// The rules of [`rules_text`]: every field once, in any order.
fn parse_rules(text: &str) -> Result<Rules> {
    let mut r = Rules::russian();
    let mut seen = 0u32;
    for item in text.split(';') {
        let (key, value) = item.split_once(':').ok_or_else(|| bad(format!("rules item {item:?}")))?;
        let (i, f) = RULE_FIELDS
            .iter()
            .enumerate()
            .find(|(_, f)| f.key == key)
            .ok_or_else(|| bad(format!("unknown rules item {key}")))?;
        (f.set)(&mut r, parse_rule(f.kind, key, value)?)?;
        if seen >> i & 1 == 1 {
            return Err(bad(format!("rules item {key} twice")));
        }
        seen |= 1 << i;
    }
    if seen != (1 << RULE_FIELDS.len()) - 1 {
        return Err(bad("rules items missing"));
    }
    Ok(r)
}

impl State {
    /// The state as one line of text; [`State::deserialize`] gives it back exactly.
    ///
    /// ```
    /// use cribpiquet::engine::{Game, GameState};
    /// use cribpiquet::piquet::{GameConfig, State};
    /// let mut state = GameConfig::default().new_initial_state();
    /// state.apply_action(12).unwrap();
    /// assert_eq!(State::deserialize(&state.serialize()).unwrap(), state);
    /// ```
    pub fn serialize(&self) -> String {
        let mut s = String::with_capacity(700);
        let hex = |m: u32| format!("{m:x}");
        let _ = write!(
            s,
            "{MAGIC} rules={} scope={}{} phase={} turn={} dealer={} cuts={} ndealt={}",
            rules_text(&self.config.rules),
            self.config.scope.name(),
            self.config.first_dealer().map_or(String::new(), |d| format!(" first={d}")),
            self.phase.name(),
            self.turn,
            opt_num(self.dealer, NO_SEAT),
            join(self.cuts.iter().map(|&c| opt_card(c))),
            self.n_dealt
        );
        let _ = write!(
            s,
            " dealt={} hands={} discards={} drawn={} exchange={} decl={} decltotal={} repique={} declared={} pending={} announce={}",
            join(self.dealt.map(hex)),
            join(self.hands.map(hex)),
            join(self.discards.map(hex)),
            join(self.drawn.map(hex)),
            join(self.exchange.map(|x| opt_num(x, NO_SIZE))),
            join(self.decl.map(|c| c.map(|x| x.to_string()).join("/"))),
            join(self.decl_total),
            opt_num(self.repique, NO_SEAT),
            self.declared as u8,
            self.dealer_pending as u8,
            join(self.announce)
        );
        let plays: Vec<String> = self.plays[..(self.n_plays as usize).min(24)].iter().map(|&c| opt_card(c)).collect();
        let games: Vec<String> = self.games().iter().map(|g| format!("{}/{}", g[0], g[1])).collect();
        let _ = write!(
            s,
            " plays={} leader={} winners={:x} tricks={} dplayed={} piquepossible={} pique={} dealtotals={} deals={} games={} ngames={} koroliks={} kgames={} scores={} sources={} rewards={} outcome={}",
            if plays.is_empty() { "-".to_string() } else { plays.join(",") },
            self.leader,
            self.trick_winners,
            join(self.tricks),
            self.play.dealer_played as u8,
            self.play.pique_possible as u8,
            self.play.pique as u8,
            join(self.deal_totals),
            self.deals,
            if games.is_empty() { "-".to_string() } else { games.join(",") },
            self.n_games,
            self.koroliks,
            self.korolik_games,
            join(self.scores),
            join(self.sources.iter().flatten()),
            join(self.rewards),
            self.outcome
        );
        s
    }

    /// A state from [`serialize`](State::serialize) text; text that is not a reachable state
    /// is an [`Error::InvalidValue`].
    pub fn deserialize(text: &str) -> Result<State> {
        let f = Fields::parse("piquet", MAGIC, &KEYS, text)?;
        let get = |key: &str| f.get(key);
        let num = |key: &str, max: u64| f.num(key, max);
        let list = |key: &str, len: usize| f.list(key, len);
        let nums = |key: &str, len: usize, max: u64| f.nums(key, len, max);
        let card = |t: &str| -> Result<u8> {
            if t == "-" {
                return Ok(NO_CARD);
            }
            t.parse::<Card>().map(|c| c.id()).map_err(|_| bad(format!("{t:?} is not a card")))
        };
        let opt = |t: &str, max: u8, none: u8| -> Result<u8> {
            if t == "-" {
                return Ok(none);
            }
            t.parse::<u8>().ok().filter(|&v| v <= max).ok_or_else(|| bad(format!("{t:?} is out of range")))
        };
        let masks = |key: &str| -> Result<[u32; 2]> {
            let items = list(key, 2)?;
            let mut out = [0u32; 2];
            for (slot, t) in out.iter_mut().zip(items) {
                *slot = u32::from_str_radix(t, 16).map_err(|_| bad(format!("{t:?} is not a hex mask")))?;
            }
            Ok(out)
        };
        let flag = |key: &str| f.flag(key);

        let rules = parse_rules(get("rules")?)?;
        let scope = Scope::parse(get("scope")?)?;
        let first_dealer = match f.optional("first") {
            None => None,
            Some(v) => Some(v.parse::<usize>().map_err(|_| bad(format!("first={v:?} is not a seat")))?),
        };
        let config = GameConfig::new(rules, scope)?.with_first_dealer(first_dealer)?;
        let phase = f.choice("phase", &Phase::ALL, Phase::name)?;
        let mut s = State::new(config);
        s.phase = phase;
        s.turn = num("turn", 1)? as u8;
        s.dealer = opt(get("dealer")?, 1, NO_SEAT)?;
        for (slot, t) in s.cuts.iter_mut().zip(list("cuts", 2)?) {
            *slot = card(t)?;
        }
        s.n_dealt = num("ndealt", 24)? as u8;
        s.dealt = masks("dealt")?;
        s.hands = masks("hands")?;
        s.discards = masks("discards")?;
        s.drawn = masks("drawn")?;
        for (slot, t) in s.exchange.iter_mut().zip(list("exchange", 2)?) {
            *slot = opt(t, 8, NO_SIZE)?;
        }
        for (slot, t) in s.decl.iter_mut().zip(list("decl", 2)?) {
            let parts: Vec<&str> = t.split('/').collect();
            if parts.len() != 4 {
                return Err(bad("decl needs 4 values per player"));
            }
            for (x, v) in slot.iter_mut().zip(parts) {
                *x = v.parse::<u16>().map_err(|_| bad("bad number in decl"))?;
            }
        }
        for (slot, v) in s.decl_total.iter_mut().zip(nums("decltotal", 2, u16::MAX as u64)?) {
            *slot = v as u16;
        }
        s.repique = opt(get("repique")?, 1, NO_SEAT)?;
        s.declared = flag("declared")?;
        s.dealer_pending = flag("pending")?;
        for (slot, v) in s.announce.iter_mut().zip(nums("announce", 2, 2)?) {
            *slot = v as u8;
        }
        let plays = get("plays")?;
        if plays != "-" {
            for t in plays.split(',') {
                let c = card(t)?;
                if c == NO_CARD || s.n_plays >= 24 {
                    return Err(bad("the plays"));
                }
                s.plays[s.n_plays as usize] = c;
                s.n_plays += 1;
            }
        }
        s.leader = num("leader", 1)? as u8;
        s.trick_winners = u16::from_str_radix(get("winners")?, 16).map_err(|_| bad("winners is not a hex mask"))?;
        for (slot, v) in s.tricks.iter_mut().zip(nums("tricks", 2, 12)?) {
            *slot = v as u8;
        }
        s.play.dealer_played = flag("dplayed")?;
        s.play.pique_possible = flag("piquepossible")?;
        s.play.pique = flag("pique")?;
        for (slot, v) in s.deal_totals.iter_mut().zip(nums("dealtotals", 2, u16::MAX as u64)?) {
            *slot = v as u16;
        }
        s.deals = num("deals", u16::MAX as u64)? as u16;
        let games = get("games")?;
        let mut recorded = 0usize;
        if games != "-" {
            for g in games.split(',') {
                let (a, b) = g.split_once('/').ok_or_else(|| bad("a game is a/b"))?;
                if recorded >= MAX_GAMES {
                    return Err(bad("too many games"));
                }
                let v = |t: &str| t.parse::<u16>().map_err(|_| bad("bad number in games"));
                s.games[recorded] = [v(a)?, v(b)?];
                recorded += 1;
            }
        }
        s.n_games = num("ngames", u16::MAX as u64)? as u16;
        if recorded != (s.n_games as usize).min(MAX_GAMES) {
            return Err(bad("ngames does not match the games"));
        }
        s.koroliks = num("koroliks", 255)? as u8;
        s.korolik_games = num("kgames", 1)? as u8;
        for (slot, v) in s.scores.iter_mut().zip(nums("scores", 2, u32::MAX as u64)?) {
            *slot = v as u32;
        }
        let sources = nums("sources", 2 * NUM_SOURCES, u32::MAX as u64)?;
        for (i, v) in sources.into_iter().enumerate() {
            s.sources[i / NUM_SOURCES][i % NUM_SOURCES] = v as u32;
        }
        for (slot, v) in s.rewards.iter_mut().zip(nums("rewards", 2, u16::MAX as u64)?) {
            *slot = v as u16;
        }
        s.outcome = get("outcome")?.parse::<i32>().map_err(|_| bad("outcome is not a number"))?;
        s.check_invariants()?;
        Ok(s)
    }

    /// The actions that lead from the start of the current deal to this state's deal fields:
    /// the deal (elder's and the dealer's cards ascending, alternately), each exchange (size,
    /// ascending discards, the talon cards), the announcements and the tricks.
    fn deal_script(&self) -> Vec<u16> {
        let (e, d) = (self.elder_seat(), self.dealer_seat());
        let mut out = Vec::with_capacity(80);
        let cards = |m: u32| (0..32u16).filter(move |&c| m >> c & 1 == 1);
        let (mut ec, mut dc) = (cards(self.dealt[e]), cards(self.dealt[d]));
        for i in 0..self.n_dealt {
            let next = if i % 2 == 0 { ec.next() } else { dc.next() };
            out.push(next.unwrap_or(u16::MAX));
        }
        for seat in [e, d] {
            if self.exchange[seat] == NO_SIZE {
                break;
            }
            out.push(EXCHANGE_BASE + self.exchange[seat] as u16);
            out.extend(cards(self.discards[seat]));
            out.extend(cards(self.drawn[seat]));
        }
        for seat in [e, d] {
            match self.announce[seat] {
                1 => out.push(PASS),
                2 => out.push(ANNOUNCE_CAPOT),
                _ => break,
            }
        }
        out.extend(self.plays[..(self.n_plays as usize).min(24)].iter().map(|&c| c as u16));
        out
    }

    /// Check that the state is one the engine can be in (used by `deserialize`, and by tests
    /// on every state of random games).
    pub(crate) fn check_invariants(&self) -> Result<()> {
        // Scores.
        for seat in 0..2 {
            let total: u64 = self.sources[seat].iter().map(|&x| x as u64).sum();
            ensure(total == self.scores[seat] as u64, "the points by source do not add up to the score")?;
            ensure(self.rewards[seat] as u32 <= self.scores[seat], "a reward larger than the score")?;
            ensure(self.deal_totals[seat] as u32 <= self.scores[seat], "a deal total larger than the score")?;
        }
        ensure((self.phase == Phase::GameOver) || self.outcome == 0, "an outcome before the end")?;
        // Before the first deal.
        if self.deals == 0 {
            ensure(self.config.first_dealer().is_none(), "no deal yet with a first dealer chosen")?;
            ensure(self.phase == Phase::Cut && self.dealer == NO_SEAT, "no deal yet")?;
            ensure(self.n_games == 0 && self.scores == [0, 0] && self.koroliks == 0, "a record before the first deal")?;
        } else {
            ensure(self.dealer != NO_SEAT, "a deal without a dealer")?;
        }
        // The cut: none yet in a game whose first dealer was chosen, until the next draw.
        let chosen = self.config.first_dealer().filter(|_| self.phase != Phase::Cut && self.cuts == [NO_CARD; 2]);
        if self.phase == Phase::Cut {
            let expected = if self.turn == 0 { [false, false] } else { [true, false] };
            ensure(self.cuts.map(|c| c != NO_CARD) == expected, "the draw for deal")?;
            ensure(self.cuts[0] == NO_CARD || self.cuts[0] < 32, "the card drawn")?;
        } else if chosen.is_none() {
            ensure(self.cuts.iter().all(|&c| c < 32) && self.cuts[0] & 7 != self.cuts[1] & 7, "the cards drawn")?;
            ensure(self.cuts[0] != self.cuts[1], "the cards drawn")?;
        }
        // The match record.
        let over = self.phase == Phase::GameOver;
        let in_deal = !matches!(self.phase, Phase::Cut | Phase::GameOver);
        let n = self.n_games as usize;
        ensure(self.deals as usize == n + in_deal as usize, "deals begun and games played")?;
        if n <= MAX_GAMES {
            let mut sums = [0u64; 2];
            for g in self.games() {
                sums[0] += g[0] as u64;
                sums[1] += g[1] as u64;
            }
            for (seat, sum) in sums.into_iter().enumerate() {
                let current = if in_deal { self.deal_totals[seat] as u64 } else { 0 };
                ensure(sum + current == self.scores[seat] as u64, "the games do not add up to the scores")?;
            }
        }
        if over {
            ensure(n >= 1 && self.games().last().is_some_and(|g| *g == self.deal_totals), "the last game")?;
        }
        let lower = match chosen {
            Some(d) => d as u8,
            None if self.cuts[0] & 7 < self.cuts[1] & 7 => 0,
            None => 1,
        };
        self.check_match(chosen, lower)?;
        // The points of the last action when no action of this deal is known: none after the
        // first draw or before any deal; else part of the last deal's totals.
        let no_action_yet = self.phase == Phase::Cut || (self.phase == Phase::Deal && self.n_dealt == 0);
        if no_action_yet {
            let last_game = (1..=MAX_GAMES).contains(&n).then(|| self.games[n - 1]);
            let cap = if self.phase == Phase::Cut && self.turn == 1 || n == 0 {
                [0, 0]
            } else {
                last_game.unwrap_or([u16::MAX; 2])
            };
            ensure(self.rewards[0] <= cap[0] && self.rewards[1] <= cap[1], "the points of the last action")?;
        }
        // The current deal, replayed from its cards.
        let mut start = *self;
        start.reset_deal();
        if !in_deal && !over {
            // Between koroliks: the deal fields are clear.
            let mut cleared = start;
            cleared.turn = self.turn;
            cleared.phase = self.phase;
            return ensure(cleared == *self, "the deal fields of a draw");
        }
        start.config.scope = Scope::Deal;
        start.phase = Phase::Deal;
        start.scores = [0; 2];
        start.sources = [[0; NUM_SOURCES]; 2];
        for a in self.deal_script() {
            start.apply_action(a).map_err(|e| bad(format!("the deal does not replay: {e}")))?;
        }
        // This deal's points by source, and the earlier deals' against what a deal can give.
        let mut earlier = [[0u32; NUM_SOURCES]; 2];
        for (seat, points) in earlier.iter_mut().enumerate() {
            for (k, p) in points.iter_mut().enumerate() {
                *p = self.sources[seat][k]
                    .checked_sub(start.sources[seat][k])
                    .ok_or_else(|| bad("the points by source are less than this deal's"))?;
            }
        }
        self.check_earlier_deals(&earlier)?;
        // Every field of the deal as replayed (the match record is checked above).
        let mut replayed = start;
        replayed.config = self.config;
        replayed.cuts = self.cuts;
        replayed.dealer = self.dealer;
        replayed.deals = self.deals;
        replayed.games = self.games;
        replayed.n_games = self.n_games;
        replayed.koroliks = self.koroliks;
        replayed.korolik_games = self.korolik_games;
        replayed.scores = self.scores;
        replayed.sources = self.sources;
        replayed.outcome = self.outcome;
        if no_action_yet {
            replayed.rewards = self.rewards;
        }
        if replayed == *self {
            return Ok(());
        }
        Err(bad(first_difference(&self.serialize(), &replayed.serialize(), "the deal replayed")))
    }

    /// The match record against the scope and the match scoring (part of
    /// [`check_invariants`](State::check_invariants)): `chosen` is the chosen first dealer while
    /// no draw has been made, `lower` the seat that drew the lower card (the first dealer).
    fn check_match(&self, chosen: Option<usize>, lower: u8) -> Result<()> {
        let (rules, scope) = (self.config.rules, self.config.scope);
        let over = self.phase == Phase::GameOver;
        let in_deal = !matches!(self.phase, Phase::Cut | Phase::GameOver);
        let n = self.n_games as usize;
        match (scope, rules.match_scoring) {
            (Scope::Deal, _) => {
                ensure(n <= 1 && self.koroliks == 0 && self.korolik_games == 0, "one deal only")?;
                ensure(over == (n == 1), "the deal is over")?;
                if over {
                    let g = self.games[0];
                    ensure(self.outcome == g[0] as i32 - g[1] as i32, "the outcome")?;
                }
                if self.deals > 0 {
                    ensure(self.dealer == lower, "the dealer")?;
                }
            }
            (Scope::Partiya, MatchScoring::Partiya) => {
                ensure(n <= MAX_GAMES, "too many games")?;
                let (mut koroliks, mut open) = (0u8, 0u8);
                for g in self.games() {
                    open += 1;
                    if g[0] == g[1] || open == 2 {
                        koroliks += 1;
                        open = 0;
                    }
                    ensure(koroliks <= rules.koroliks_per_partiya, "games after the end")?;
                    ensure(koroliks < rules.koroliks_per_partiya || open == 0, "games after the end")?;
                }
                ensure(koroliks == self.koroliks && open == self.korolik_games, "the koroliks")?;
                // Without a draw yet (first dealer chosen), no korolik closed but a final one.
                let over_now = self.phase == Phase::GameOver;
                ensure(chosen.is_none() || koroliks == 0 || over_now && koroliks == 1, "a korolik without a draw")?;
                let done = koroliks >= rules.koroliks_per_partiya;
                ensure(over == done, "the partiya is over")?;
                if over {
                    ensure(Some(self.outcome) == self.partiya_outcome().ok(), "the outcome")?;
                } else {
                    ensure(self.phase != Phase::Cut || open == 0, "a draw inside a korolik")?;
                    ensure(in_deal || self.phase == Phase::Cut, "the phase")?;
                    if in_deal {
                        ensure(self.dealer == lower ^ open, "the dealer")?;
                    }
                }
            }
            (Scope::Partiya, MatchScoring::Partie) => {
                ensure(self.koroliks == 0 && self.korolik_games == 0, "koroliks in a partie")?;
                let base = rules.deals_per_partie as usize;
                // The totals after the last finished deal.
                let t = if in_deal {
                    [0, 1].map(|i| self.scores[i].saturating_sub(self.deal_totals[i] as u32))
                } else {
                    self.scores
                };
                let done = n >= base && (n - base) % 2 == 0 && t[0] != t[1];
                ensure(over == done, "the partie is over")?;
                if over {
                    ensure(Some(self.outcome) == self.partie_outcome().ok(), "the outcome")?;
                }
                ensure(self.phase != Phase::Cut || n == 0, "a draw inside a partie")?;
                if in_deal {
                    ensure(self.dealer == lower ^ (n % 2) as u8, "the dealer")?;
                }
            }
        }
        Ok(())
    }

    /// The points of the finished deals (`earlier`, by seat and source) against what those
    /// deals can give: a repique (60), a pique (30) and a leza (10) at most once a deal in all
    /// and in whole bonuses; capots at most one bonus a deal; the last trick's extra at most once
    /// a deal; at most 24 play points a deal (12 leads, 12 tricks). Declarations are not bounded
    /// (their values depend on the rules' sequence values).
    fn check_earlier_deals(&self, earlier: &[[u32; NUM_SOURCES]; 2]) -> Result<()> {
        let rules = self.config.rules;
        let done = self.n_games as u64;
        let total = |k: usize| earlier[0][k] as u64 + earlier[1][k] as u64;
        let whole =
            |k: usize, bonus: u16| earlier.iter().all(|s| s[k] % bonus as u32 == 0) && total(k) <= bonus as u64 * done;
        let capot = rules.capot_bonus.max(rules.open_capot_bonus.unwrap_or(0)) as u64;
        let ok = whole(PointSource::Repique as usize, REPIQUE_BONUS)
            && whole(PointSource::Pique as usize, PIQUE_BONUS)
            && whole(PointSource::Leza as usize, LEZA_BONUS)
            && total(PointSource::Capot as usize) <= capot * done
            && total(PointSource::LastTrick as usize) <= rules.last_trick_extra as u64 * done
            && total(PointSource::Play as usize) <= 24 * done;
        if ok {
            Ok(())
        } else {
            Err(bad("the points by source are more than the finished deals can give"))
        }
    }
}
