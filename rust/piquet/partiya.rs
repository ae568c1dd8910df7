//! Match arithmetic (rules §6): games, koroliks and the partiya (russian); the partie (rubicon).
//!
//! The two players of a match are seats 0 and 1 (the order in which their totals are given), as in
//! the game engine. Every number is a `u64`; a match whose points would pass
//! [`MAX_MATCH_POINTS`](super::MAX_MATCH_POINTS) is refused with an error naming the input, so no
//! total is ever saturated. Each step is O(1): the columns and totals are kept as they go.

use std::fmt;

use super::rules::{MatchScoring, Rounding, Rules, MATCH_BONUS, MAX_MATCH_POINTS, RUBICON_LIMIT, THROUGH_RECORD_BONUS};
use crate::error::{Error, Result};

/// Round a record to tens, halves up (rules §6: «последняя цифра округляется»).
///
/// ```
/// use cribpiquet::piquet::round_record;
/// assert_eq!((round_record(115), round_record(114), round_record(129)), (Ok(120), Ok(110), Ok(130)));
/// assert_eq!(round_record(-15), Ok(-10)); // halves up, also below zero
/// assert!(round_record(i64::MAX).is_err()); // the rounded value does not fit in an i64
/// ```
pub fn round_record(x: i64) -> Result<i64> {
    let rounded = (x as i128 + 5).div_euclid(10) * 10;
    i64::try_from(rounded)
        .map_err(|_| Error::InvalidValue(format!("round_record({x}) is {rounded}, beyond the 64-bit range")))
}

/// The seat with the larger value (`None` when equal).
fn larger(values: [u64; 2]) -> Option<usize> {
    match values[0].cmp(&values[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// A number written in one player's column (see [`Partiya`]).
///
/// ```
/// use cribpiquet::piquet::Record;
/// assert_eq!(Record { seat: 1, points: 120 }.to_string(), "seat 1: 120");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record {
    /// Whose column: seat 0 or 1.
    pub seat: usize,
    /// The number written.
    pub points: u64,
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}: {}", self.seat, self.points)
    }
}

/// The record of two sums known to be at most [`MAX_MATCH_POINTS`] apart (no overflow possible).
fn record_of(a: u64, b: u64, rounding: Rounding) -> Option<Record> {
    let seat = larger([a, b])?;
    let raw = a.abs_diff(b).min(MAX_MATCH_POINTS) + MATCH_BONUS;
    Some(Record { seat, points: rounding.apply(raw).unwrap_or(raw) })
}

/// The record for two sums (a korolik's, or a partiya's columns): the larger minus the smaller,
/// +100, rounded, for the larger; `None` when they are equal (rules §6). An error if the record
/// would pass `u64::MAX`.
///
/// ```
/// use cribpiquet::piquet::{difference_record, Record, Rounding};
/// // The source: 48 − 33 = 15, +100 → 115, rounded → 120 for the second player.
/// assert_eq!(difference_record(33, 48, Rounding::HalfUpToTens).unwrap(), Some(Record { seat: 1, points: 120 }));
/// assert_eq!(difference_record(7, 7, Rounding::HalfUpToTens).unwrap(), None);
/// assert_eq!(difference_record(1 << 40, 0, Rounding::Exact).unwrap().unwrap().points, (1 << 40) + 100);
/// assert!(difference_record(u64::MAX, 0, Rounding::Exact).is_err());
/// ```
pub fn difference_record(a: u64, b: u64, rounding: Rounding) -> Result<Option<Record>> {
    let Some(seat) = larger([a, b]) else { return Ok(None) };
    let points = a.abs_diff(b).checked_add(MATCH_BONUS).and_then(|x| rounding.apply(x)).ok_or_else(|| {
        Error::InvalidValue(format!("the record of {a} and {b} (difference + {MATCH_BONUS}) exceeds 2**64 - 1"))
    })?;
    Ok(Some(Record { seat, points }))
}

/// One game of a partiya as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartiyaGame {
    /// The two game totals (seat 0, seat 1) as given.
    pub totals: [u64; 2],
    /// Whether the game counted double (one of the two games after a рефет).
    pub doubled: bool,
    /// What was written: the difference (doubled if so) in the winner's column; `None` for a рефет.
    pub written: Option<Record>,
    /// The 0-based korolik the game belongs to.
    pub korolik: usize,
}

/// A closed korolik.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Korolik {
    /// Each player's sum of what he wrote in it.
    pub sums: [u64; 2],
    /// Games played in it (2, or fewer when a рефет ended it).
    pub games: u8,
    /// Whether a рефет ended it.
    pub ended_by_refet: bool,
    /// Its record (difference + 100, rounded), `None` for equal sums.
    pub record: Option<Record>,
}

/// `50–30: seat 0 writes 20`, `40–40: рефет (a draw)`, `… (doubled)`.
impl fmt::Display for PartiyaGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.totals;
        match self.written {
            Some(r) => write!(f, "{a}–{b}: seat {} writes {}", r.seat, r.points)?,
            None => write!(f, "{a}–{b}: рефет (a draw)")?,
        }
        f.write_str(if self.doubled { " (doubled)" } else { "" })
    }
}

/// `korolik (20 | 0), 2 games: seat 0 records 120`.
impl fmt::Display for Korolik {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.ended_by_refet { ", ended by a рефет" } else { "" };
        write!(f, "korolik ({} | {}), {} games{how}: ", self.sums[0], self.sums[1], self.games)?;
        match self.record {
            Some(r) => write!(f, "seat {} records {}", r.seat, r.points),
            None => f.write_str("no record"),
        }
    }
}

/// The score of a partiya (provisional until [`Partiya::is_over`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartiyaResult {
    /// The record of each closed korolik.
    pub korolik_records: Vec<Option<Record>>,
    /// Each player's column of game differences, summed.
    pub columns: [u64; 2],
    /// The partiya record: the larger column minus the smaller, +100, rounded.
    pub partiya_record: Option<Record>,
    /// The сквозная запись bonus each player receives (+100 when the opponent wrote no game
    /// difference in the whole partiya; counted only once the partiya is over).
    pub through_bonus: [u64; 2],
    /// Each player's total: partiya record + korolik records + сквозная bonus.
    pub totals: [u64; 2],
    /// The net win: the larger total minus the smaller, for its holder (`None` when equal).
    pub net_win: Option<Record>,
    /// Games of the next partiya that count double (a рефет with no full korolik left).
    pub carried_doubling: u8,
    /// Whether the partiya is over.
    pub complete: bool,
}

impl PartiyaResult {
    /// The seat with the larger total (`None` when the totals are equal).
    pub fn winner(&self) -> Option<usize> {
        self.net_win.map(|r| r.seat)
    }
}

/// `koroliks [seat 0: 120, -]; columns 20–0, partiya record seat 0: 120; totals 240–0: seat 0 wins 240`
/// (`(so far)` until the partiya is over).
impl fmt::Display for PartiyaResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |r: Option<Record>| r.map_or_else(|| "-".to_string(), |r| r.to_string());
        let records: Vec<String> = self.korolik_records.iter().map(|&r| text(r)).collect();
        let result = match self.net_win {
            Some(w) => format!("seat {} wins {}", w.seat, w.points),
            None => "a draw".to_string(),
        };
        let state = if self.complete { "" } else { " (so far)" };
        let ([c0, c1], [t0, t1]) = (self.columns, self.totals);
        let partiya = text(self.partiya_record);
        write!(
            f,
            "koroliks [{}]; columns {c0}–{c1}, partiya record {partiya}; totals {t0}–{t1}: {result}{state}",
            records.join(", ")
        )
    }
}

/// A russian partiya: games, koroliks of two games, and the records (rules §6).
///
/// * Each game writes the difference of the totals in the winner's column (doubled in the two
///   games after a рефет).
/// * A korolik is two games; its record is the larger sum minus the smaller, +100, rounded to
///   tens halves up (equal sums: no record).
/// * *Decision* (рефет): a drawn game ends the korolik at once (scored from the games played;
///   nothing but the draw → no record); the next two games count double; if the partiya ends
///   first, the doubling carries into the next one ([`Partiya::carried_doubling`],
///   [`Partiya::with_doubled_games`]). A рефет during doubled games starts the two doubled games
///   afresh (doublings do not compound: a game counts at most double).
/// * The partiya is over after [`Rules::koroliks_per_partiya`] koroliks.
///
/// The players are seats 0 and 1. The source's worked example (three koroliks), game by game:
///
/// ```
/// use cribpiquet::piquet::{Partiya, Record, Rules};
/// let mut rules = Rules::russian();
/// rules.koroliks_per_partiya = 3;
/// let mut p = Partiya::new(&rules).unwrap();
/// for (a, b) in [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)] {
///     p.add_game(a, b).unwrap();
/// }
/// assert!(p.is_over());
/// let r = p.result();
/// let rec = |seat, points| Some(Record { seat, points });
/// assert_eq!(r.korolik_records, [rec(1, 120), rec(0, 130), rec(0, 120)]);
/// assert_eq!((r.columns, r.partiya_record), ([120, 91], rec(0, 130)));
/// assert_eq!((r.totals, r.net_win, r.winner()), ([380, 120], rec(0, 260), Some(0)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partiya {
    rounding: Rounding,
    koroliks_per_partiya: u8,
    games: Vec<PartiyaGame>,
    koroliks: Vec<Korolik>,
    open_sums: [u64; 2],
    open_games: u8,
    doubled_left: u8,
    columns: [u64; 2],
}

impl Partiya {
    /// A new partiya under `rules` (whose [`match_scoring`](Rules::match_scoring) must be
    /// [`MatchScoring::Partiya`]).
    pub fn new(rules: &Rules) -> Result<Partiya> {
        Partiya::with_doubled_games(rules, 0)
    }

    /// A new partiya whose first `doubled` games (0..=2) count double — the doubling carried from
    /// the previous partiya's last рефет.
    ///
    /// ```
    /// use cribpiquet::piquet::{Partiya, Rules};
    /// let mut p = Partiya::with_doubled_games(&Rules::russian(), 2).unwrap();
    /// assert_eq!(p.add_game(50, 40).unwrap().written.unwrap().points, 20);
    /// assert!(Partiya::with_doubled_games(&Rules::russian(), 3).is_err());
    /// ```
    pub fn with_doubled_games(rules: &Rules, doubled: u8) -> Result<Partiya> {
        rules.validate()?;
        if rules.match_scoring != MatchScoring::Partiya {
            return Err(Error::InvalidValue("these rules score a partie, not a partiya (match_scoring)".into()));
        }
        if doubled > 2 {
            return Err(Error::InvalidValue(format!("at most 2 games count double after a рефет, got {doubled}")));
        }
        Ok(Partiya {
            rounding: rules.rounding,
            koroliks_per_partiya: rules.koroliks_per_partiya,
            games: Vec::new(),
            koroliks: Vec::new(),
            open_sums: [0, 0],
            open_games: 0,
            doubled_left: doubled,
            columns: [0, 0],
        })
    }

    /// Record a game from the two players' totals (seat 0, seat 1); returns what was written.
    /// An error once the partiya is over, or if the differences written in the partiya would add
    /// up to more than [`MAX_MATCH_POINTS`] (nothing is recorded then).
    ///
    /// ```
    /// use cribpiquet::piquet::{Partiya, Record, Rules};
    /// let mut p = Partiya::new(&Rules::russian()).unwrap();
    /// // The source: «у одного игрока 54, у другого 21 … записывает разницу — 33».
    /// assert_eq!(p.add_game(54, 21).unwrap().written, Some(Record { seat: 0, points: 33 }));
    /// assert!(p.add_game(u64::MAX, 0).unwrap_err().to_string().contains("18446744073709551615"));
    /// ```
    pub fn add_game(&mut self, total_a: u64, total_b: u64) -> Result<PartiyaGame> {
        if self.is_over() {
            return Err(Error::Illegal(format!(
                "the partiya is over ({} koroliks played); start a new one",
                self.koroliks.len()
            )));
        }
        let doubled = self.doubled_left > 0;
        let factor = if doubled { 2 } else { 1 };
        let written_so_far = self.columns[0] + self.columns[1];
        let diff = total_a.abs_diff(total_b);
        let points = diff.checked_mul(factor).filter(|&p| p <= MAX_MATCH_POINTS - written_so_far).ok_or_else(|| {
            Error::InvalidValue(format!(
                "game totals ({total_a}, {total_b}): the differences written in a partiya may add up to at \
                     most {MAX_MATCH_POINTS} (2**62), {written_so_far} are written already"
            ))
        })?;
        self.doubled_left = self.doubled_left.saturating_sub(1);
        let written = larger([total_a, total_b]).map(|seat| Record { seat, points });
        if let Some(w) = written {
            self.open_sums[w.seat] += w.points;
            self.columns[w.seat] += w.points;
        }
        self.open_games += 1;
        let game = PartiyaGame { totals: [total_a, total_b], doubled, written, korolik: self.koroliks.len() };
        self.games.push(game);
        let refet = written.is_none();
        if refet {
            self.doubled_left = 2;
        }
        if refet || self.open_games == 2 {
            let sums = self.open_sums;
            self.koroliks.push(Korolik {
                sums,
                games: self.open_games,
                ended_by_refet: refet,
                record: record_of(sums[0], sums[1], self.rounding),
            });
            self.open_sums = [0, 0];
            self.open_games = 0;
        }
        Ok(game)
    }

    /// Every game recorded so far.
    ///
    /// ```
    /// use cribpiquet::piquet::{Partiya, Rules};
    /// let mut p = Partiya::new(&Rules::russian()).unwrap();
    /// p.add_game(54, 21).unwrap();
    /// p.add_game(40, 40).unwrap(); // a рефет: ends the korolik, the next two games count double
    /// assert_eq!((p.games().len(), p.koroliks().len(), p.columns()), (2, 1, [33, 0]));
    /// assert_eq!((p.doubled_games_left(), p.is_over(), p.carried_doubling()), (2, false, 0));
    /// assert_eq!(p.result().korolik_records[0].unwrap().points, 130);
    /// ```
    pub fn games(&self) -> &[PartiyaGame] {
        &self.games
    }

    /// The closed koroliks.
    pub fn koroliks(&self) -> &[Korolik] {
        &self.koroliks
    }

    /// Each player's column of game differences, summed.
    pub fn columns(&self) -> [u64; 2] {
        self.columns
    }

    /// How many of the coming games count double.
    pub fn doubled_games_left(&self) -> u8 {
        self.doubled_left
    }

    /// Once the partiya is over: the games of the next partiya that count double (0 otherwise).
    pub fn carried_doubling(&self) -> u8 {
        if self.is_over() {
            self.doubled_left
        } else {
            0
        }
    }

    /// Has the partiya played its [`Rules::koroliks_per_partiya`] koroliks?
    pub fn is_over(&self) -> bool {
        self.koroliks.len() >= self.koroliks_per_partiya as usize
    }

    /// The records and totals (provisional until [`is_over`](Partiya::is_over): open koroliks
    /// and the сквозная запись are not counted before the end).
    pub fn result(&self) -> PartiyaResult {
        let complete = self.is_over();
        let columns = self.columns;
        let korolik_records: Vec<Option<Record>> = self.koroliks.iter().map(|k| k.record).collect();
        let partiya_record = record_of(columns[0], columns[1], self.rounding);
        let mut through_bonus = [0u64; 2];
        if complete {
            for seat in [0, 1] {
                if columns[seat] == 0 {
                    through_bonus[1 - seat] = THROUGH_RECORD_BONUS;
                }
            }
        }
        // At most 2 × MAX_MATCH_POINTS + 110 per record: no overflow (see MAX_MATCH_POINTS).
        let mut totals = through_bonus;
        for r in korolik_records.iter().chain([&partiya_record]).flatten() {
            totals[r.seat] += r.points;
        }
        let net_win = larger(totals).map(|seat| Record { seat, points: totals[0].abs_diff(totals[1]) });
        PartiyaResult {
            korolik_records,
            columns,
            partiya_record,
            through_bonus,
            totals,
            net_win,
            carried_doubling: self.carried_doubling(),
            complete,
        }
    }
}

/// The result of a finished rubicon partie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartieResult {
    /// The cumulative totals (seat 0, seat 1).
    pub totals: [u64; 2],
    /// The winner's seat (higher total).
    pub winner: usize,
    /// Whether the loser was rubiconed (under 100).
    pub rubiconed: bool,
    /// The winner's score: difference + 100, or the sum + 100 when the loser is rubiconed.
    pub score: u64,
}

/// `totals 175–93: seat 0 scores 368 (rubiconed: the sum + 100)`.
impl fmt::Display for PartieResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.rubiconed { " (rubiconed: the sum + 100)" } else { " (the difference + 100)" };
        let [a, b] = self.totals;
        write!(f, "totals {a}–{b}: seat {} scores {}{how}", self.winner, self.score)
    }
}

/// A rubicon partie: [`Rules::deals_per_partie`] deals (6), scores accumulating (rules §6).
///
/// *Decision*: when the totals are equal after the last deal, one more deal each is played (two
/// deals, so each player deals once more), and again while they stay equal.
///
/// Each deal is O(1) (the totals are kept as they go); [`Partie::from_totals`] starts from the
/// totals of deals already played.
///
/// ```
/// use cribpiquet::piquet::{Partie, Rules};
/// let mut p = Partie::new(&Rules::rubicon()).unwrap();
/// for (a, b) in [(30, 12), (25, 40), (60, 5), (10, 22), (41, 0), (9, 14)] {
///     p.add_deal(a, b).unwrap();
/// }
/// let r = p.result().unwrap();
/// // Seat 0 175, seat 1 93: seat 1 is rubiconed, seat 0 scores 175 + 93 + 100 = 368.
/// assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([175, 93], 0, true, 368));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partie {
    deals_per_partie: u8,
    rounding: Rounding,
    /// The deals added one by one.
    deals: Vec<[u64; 2]>,
    /// Every deal played, those of [`Partie::from_totals`] included.
    played: usize,
    totals: [u64; 2],
}

impl Partie {
    /// A new partie under `rules` (whose [`match_scoring`](Rules::match_scoring) must be
    /// [`MatchScoring::Partie`]).
    pub fn new(rules: &Rules) -> Result<Partie> {
        rules.validate()?;
        if rules.match_scoring != MatchScoring::Partie {
            return Err(Error::InvalidValue("these rules score a partiya, not a partie (match_scoring)".into()));
        }
        Ok(Partie {
            deals_per_partie: rules.deals_per_partie,
            rounding: rules.rounding,
            deals: Vec::new(),
            played: 0,
            totals: [0, 0],
        })
    }

    /// A partie after `deals` deals whose scores add up to `totals`: what the partie is once they
    /// are played (over or not, its result, the deals left). Its [`deals`](Partie::deals) list
    /// holds only the deals added afterwards.
    ///
    /// ```
    /// use cribpiquet::piquet::{Partie, Rules};
    /// let p = Partie::from_totals(&Rules::rubicon(), [175, 93], 6).unwrap();
    /// assert_eq!((p.is_over(), p.result().unwrap().score), (true, 368));
    /// let tied = Partie::from_totals(&Rules::rubicon(), [90, 90], 6).unwrap();
    /// assert_eq!((tied.is_over(), tied.deals_left()), (false, 2));
    /// ```
    pub fn from_totals(rules: &Rules, totals: [u64; 2], deals: usize) -> Result<Partie> {
        let mut p = Partie::new(rules)?;
        p.check_totals(totals[0], totals[1], "totals")?;
        p.played = deals;
        p.totals = totals;
        Ok(p)
    }

    fn check_totals(&self, a: u64, b: u64, what: &str) -> Result<()> {
        let sum = (a as u128) + (b as u128);
        let before = (self.totals[0] as u128) + (self.totals[1] as u128);
        if sum + before > MAX_MATCH_POINTS as u128 {
            return Err(Error::InvalidValue(format!(
                "{what} ({a}, {b}): both totals of a partie may add up to at most {MAX_MATCH_POINTS} (2**62), \
                 {before} are scored already"
            )));
        }
        Ok(())
    }

    /// Record one deal's scores (seat 0, seat 1); an error once the partie is over, or if both
    /// totals would add up to more than [`MAX_MATCH_POINTS`] (nothing is recorded then).
    ///
    /// ```
    /// use cribpiquet::piquet::{Partie, Rules};
    /// let mut p = Partie::new(&Rules::rubicon()).unwrap();
    /// p.add_deal(30, 12).unwrap();
    /// assert_eq!((p.deals().len(), p.totals(), p.deals_left(), p.is_over()), (1, [30, 12], 5, false));
    /// assert!(p.result().is_none());
    /// assert!(p.add_deal(u64::MAX, 0).is_err());
    /// assert_eq!(p.totals(), [30, 12]);
    /// ```
    pub fn add_deal(&mut self, a: u64, b: u64) -> Result<()> {
        if self.is_over() {
            return Err(Error::Illegal(format!("the partie is over after {} deals", self.played)));
        }
        self.check_totals(a, b, "deal scores")?;
        self.deals.push([a, b]);
        self.played += 1;
        self.totals = [self.totals[0] + a, self.totals[1] + b];
        Ok(())
    }

    /// The deals added one by one (not those given to [`from_totals`](Partie::from_totals)).
    pub fn deals(&self) -> &[[u64; 2]] {
        &self.deals
    }

    /// Every deal played.
    pub fn deals_played(&self) -> usize {
        self.played
    }

    /// The cumulative totals.
    pub fn totals(&self) -> [u64; 2] {
        self.totals
    }

    /// Deals still to play (at least 2 after a tie at the end).
    pub fn deals_left(&self) -> usize {
        let n = self.played;
        let base = self.deals_per_partie as usize;
        if n < base {
            base - n
        } else if self.is_over() {
            0
        } else {
            2 - (n - base) % 2
        }
    }

    /// All deals played and the totals differ (after an even number of extra deals).
    pub fn is_over(&self) -> bool {
        let n = self.played;
        let base = self.deals_per_partie as usize;
        n >= base && (n - base) % 2 == 0 && larger(self.totals).is_some()
    }

    /// The result, once the partie is over.
    pub fn result(&self) -> Option<PartieResult> {
        if !self.is_over() {
            return None;
        }
        let totals = self.totals;
        let winner = larger(totals)?;
        let loser = totals[1 - winner];
        let rubiconed = loser < RUBICON_LIMIT;
        // Both totals add up to at most MAX_MATCH_POINTS: no overflow.
        let raw = if rubiconed { totals[0] + totals[1] } else { totals[0].abs_diff(totals[1]) } + MATCH_BONUS;
        Some(PartieResult { totals, winner, rubiconed, score: self.rounding.apply(raw).unwrap_or(raw) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(seat: usize, points: u64) -> Option<Record> {
        Some(Record { seat, points })
    }

    fn three_koroliks() -> Rules {
        let mut r = Rules::russian();
        r.koroliks_per_partiya = 3;
        r
    }

    #[test]
    fn round_record_halves_up() {
        // Rules §6: "+100, rounded to tens, halves up".
        assert_eq!(round_record(115), Ok(120));
        assert_eq!(round_record(125), Ok(130));
        assert_eq!(round_record(124), Ok(120));
        assert_eq!(round_record(100), Ok(100));
        assert_eq!(round_record(0), Ok(0));
        assert_eq!(round_record(5), Ok(10));
        assert_eq!(round_record(-5), Ok(0));
        // Near the 64-bit limits: exact, or an error (never a saturated wrong answer).
        assert_eq!(round_record(9_223_372_036_854_775_794), Ok(9_223_372_036_854_775_790));
        assert!(round_record(9_223_372_036_854_775_806).is_err()); // ...810 does not fit
        assert_eq!(round_record(i64::MIN + 8), Ok(-9_223_372_036_854_775_800));
        assert!(round_record(i64::MIN).is_err()); // ...810 below
    }

    #[test]
    fn the_seeds_worked_example_game_by_game() {
        // Rules §6 / source: written — first 33, 65, 22; second 48, 37, 6; koroliks (33 | 48) →
        // 120 to the second, (65 | 37) → 130 to the first, (22 | 6) → 120 to the first; partiya
        // 120 vs 91 → 29 → 130 to the first; totals 380 vs 120 → net 260. The source gives only
        // the written numbers; these game totals produce them (the first is its own 54 vs 21).
        let mut p = Partiya::new(&three_koroliks()).unwrap();
        let games = [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)];
        let written = [(0, 33), (1, 48), (0, 65), (1, 37), (0, 22), (1, 6)];
        for (i, ((a, b), (seat, points))) in games.into_iter().zip(written).enumerate() {
            assert!(!p.is_over());
            let g = p.add_game(a, b).unwrap();
            assert_eq!(g.written, rec(seat, points));
            assert_eq!((g.korolik, g.doubled), (i / 2, false));
            assert_eq!(p.koroliks().len(), (i + 1).div_euclid(2));
        }
        assert!(p.is_over());
        let r = p.result();
        assert_eq!(r.korolik_records, [rec(1, 120), rec(0, 130), rec(0, 120)]);
        assert_eq!(r.columns, [120, 91]);
        assert_eq!(r.partiya_record, rec(0, 130));
        assert_eq!(r.through_bonus, [0, 0]);
        assert_eq!(r.totals, [380, 120]);
        assert_eq!(r.net_win, rec(0, 260));
        assert_eq!((r.carried_doubling, r.complete), (0, true));
        assert!(p.add_game(1, 2).is_err());
    }

    #[test]
    fn a_partiya_is_two_koroliks_by_default() {
        // Rules §6 decision: a parameter, default 2.
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        for _ in 0..4 {
            p.add_game(50, 20).unwrap();
        }
        assert!(p.is_over());
    }

    #[test]
    fn a_refet_ends_the_korolik_and_doubles_the_next_two_games() {
        // Rules §6 decision: the draw ends the korolik at once (scored from the games played,
        // the draw counting 0); the next two games count double.
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        p.add_game(54, 21).unwrap(); // A 33
        let g = p.add_game(40, 40).unwrap();
        assert_eq!(g.written, None);
        assert_eq!(p.koroliks().len(), 1);
        assert_eq!(p.koroliks()[0].record, rec(0, 130)); // 33 + 100 = 133 → 130
        assert!(p.koroliks()[0].ended_by_refet);
        assert_eq!(p.doubled_games_left(), 2);
        assert_eq!(p.add_game(50, 40).unwrap().written, rec(0, 20));
        assert_eq!(p.add_game(10, 45).unwrap().written, rec(1, 70));
        assert_eq!(p.koroliks()[1].record, rec(1, 150)); // 70 − 20 + 100
        assert!(p.is_over());
        // The refet happened with a full korolik left, so nothing carries.
        assert_eq!(p.carried_doubling(), 0);
    }

    #[test]
    fn a_refet_alone_makes_no_record_and_doublings_do_not_compound() {
        let mut p = Partiya::new(&three_koroliks()).unwrap();
        p.add_game(30, 30).unwrap();
        assert_eq!(p.koroliks()[0], Korolik { sums: [0, 0], games: 1, ended_by_refet: true, record: None });
        // A second draw inside the doubled games: the doubling restarts, it is not squared.
        assert!(p.add_game(25, 25).unwrap().doubled);
        assert_eq!(p.doubled_games_left(), 2);
        let g = p.add_game(30, 20).unwrap();
        assert_eq!((g.doubled, g.written), (true, rec(0, 20)));
    }

    #[test]
    fn a_refet_in_the_last_korolik_carries_into_the_next_partiya() {
        // Source: «Если рефет случится в последней или предпоследней игре, когда полного королика
        // уже не остается, то он переносится на следующую партию.»
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        p.add_game(50, 20).unwrap();
        p.add_game(20, 50).unwrap();
        p.add_game(60, 20).unwrap();
        p.add_game(33, 33).unwrap(); // the last game
        assert!(p.is_over());
        assert_eq!(p.carried_doubling(), 2);
        assert_eq!(p.result().carried_doubling, 2);
        // The second-to-last game: the draw ends the last korolik at once.
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        p.add_game(50, 20).unwrap();
        p.add_game(20, 50).unwrap();
        p.add_game(10, 10).unwrap();
        assert!(p.is_over());
        assert_eq!(p.games().len(), 3);
        let mut next = Partiya::with_doubled_games(&Rules::russian(), p.carried_doubling()).unwrap();
        assert!(next.add_game(1, 0).unwrap().doubled);
        assert!(next.add_game(1, 0).unwrap().doubled);
        assert!(!next.add_game(1, 0).unwrap().doubled);
    }

    #[test]
    fn through_record_gives_the_opponent_100() {
        // Rules §6 / source: «За сквозную запись противника партнер приписывает 100 очков.»
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        for (a, b) in [(50, 20), (41, 30), (60, 0), (35, 34)] {
            p.add_game(a, b).unwrap();
        }
        let r = p.result();
        // Koroliks: 30 + 11 = 41 → 141 → 140; 60 + 1 = 61 → 161 → 160. Partiya: 102 → 202 → 200.
        assert_eq!(r.korolik_records, [rec(0, 140), rec(0, 160)]);
        assert_eq!(r.partiya_record, rec(0, 200));
        assert_eq!(r.through_bonus, [100, 0]);
        assert_eq!(r.totals, [600, 0]);
        assert_eq!(r.net_win, rec(0, 600));
        // Not before the end.
        let mut q = Partiya::new(&Rules::russian()).unwrap();
        q.add_game(50, 20).unwrap();
        assert_eq!(q.result().through_bonus, [0, 0]);
        assert!(!q.result().complete);
    }

    #[test]
    fn equal_korolik_sums_make_no_record() {
        // Rules §6: "Equal sums: no record."
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        p.add_game(50, 20).unwrap();
        p.add_game(20, 50).unwrap();
        assert_eq!(p.koroliks()[0].record, None);
    }

    #[test]
    fn the_wrong_match_for_the_rules_is_an_error() {
        assert!(Partiya::new(&Rules::rubicon()).is_err());
        assert!(Partie::new(&Rules::russian()).is_err());
    }

    #[test]
    fn rubicon_partie_difference_rubicon_and_tie() {
        // Rules §6 rubicon: difference + 100, or the sum + 100 when the loser is under 100.
        let mut p = Partie::new(&Rules::rubicon()).unwrap();
        for (a, b) in [(30, 42), (25, 40), (60, 5), (40, 22), (41, 10), (9, 14)] {
            assert!(!p.is_over());
            p.add_deal(a, b).unwrap();
        }
        let r = p.result().unwrap();
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([205, 133], 0, false, 172));
        assert!(p.add_deal(1, 1).is_err());
        // A tie after six deals: one more deal each.
        let mut p = Partie::new(&Rules::rubicon()).unwrap();
        for _ in 0..6 {
            p.add_deal(20, 20).unwrap();
        }
        assert!(!p.is_over() && p.result().is_none());
        assert_eq!(p.deals_left(), 2);
        p.add_deal(30, 0).unwrap();
        assert_eq!(p.deals_left(), 1);
        assert!(!p.is_over());
        p.add_deal(0, 10).unwrap();
        let r = p.result().unwrap();
        // 150 against 130: B is not under 100: 20 + 100.
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([150, 130], 0, false, 120));
    }

    #[test]
    fn totals_near_2_32_are_exact_and_near_2_64_are_errors() {
        // Issue 8.5: no silent saturation. Near 2**32 everything is exact.
        let big = (1u64 << 32) + 7;
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        assert_eq!(p.add_game(big, 2).unwrap().written, rec(0, big - 2));
        assert_eq!(p.add_game(3, big).unwrap().written, rec(1, big - 3));
        // Korolik 1: (2**32 + 5 | 2**32 + 4) → 1 + 100 = 101 → 100 to seat 0.
        assert_eq!(p.koroliks()[0].record, rec(0, 100));
        p.add_game(big * 2, 0).unwrap();
        p.add_game(0, 0).unwrap(); // a рефет ends the second korolik
        let r = p.result();
        // Korolik 2: 2 × (2**32 + 7) = 8589934606, + 100 = 8589934706 → rounded 8589934710.
        assert_eq!(r.korolik_records, [rec(0, 100), rec(0, 8_589_934_710)]);
        // Columns: seat 0 4294967301 + 8589934606 = 12884901907, seat 1 4294967300; the partiya
        // record 8589934607 + 100 = 8589934707 → 8589934710.
        assert_eq!(r.columns, [12_884_901_907, 4_294_967_300]);
        assert_eq!(r.partiya_record, rec(0, 8_589_934_710));
        assert_eq!(r.totals, [100 + 8_589_934_710 + 8_589_934_710, 0]);
        assert_eq!(r.net_win, rec(0, 17_179_869_520));
        // Near 2**64: an error naming the input, and nothing recorded.
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        p.add_game(10, 0).unwrap();
        let err = p.add_game(u64::MAX - 1, 0).unwrap_err().to_string();
        assert!(err.contains("game totals (18446744073709551614, 0)"), "{err}");
        assert_eq!((p.games().len(), p.columns()), (1, [10, 0]));
        // Up to the limit is fine; one more point is not.
        p.add_game(MAX_MATCH_POINTS - 10, 0).unwrap();
        assert!(p.add_game(1, 0).is_err());
        assert_eq!(
            p.result().totals[0],
            p.result().korolik_records[0].unwrap().points + p.result().partiya_record.unwrap().points
        );
        // A partie: exact near 2**32, an error near 2**64.
        let mut q = Partie::new(&Rules::rubicon()).unwrap();
        for _ in 0..6 {
            q.add_deal(big, 1).unwrap();
        }
        let r = q.result().unwrap();
        // Seat 1 has 6, rubiconed: 6 × (2**32 + 7) + 6 + 100.
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([6 * big, 6], 0, true, 6 * big + 106));
        let mut q = Partie::new(&Rules::rubicon()).unwrap();
        assert!(q.add_deal(u64::MAX, 0).unwrap_err().to_string().contains("deal scores (18446744073709551615, 0)"));
        assert_eq!((q.totals(), q.deals_played()), ([0, 0], 0));
        assert!(Partie::from_totals(&Rules::rubicon(), [u64::MAX, u64::MAX], 6).is_err());
        // difference_record: exact, or an error at the very top.
        assert_eq!(difference_record(big, 0, Rounding::Exact).unwrap(), rec(0, big + 100));
        assert!(difference_record(u64::MAX - 50, 0, Rounding::Exact).is_err());
    }

    #[test]
    fn many_tied_deals_are_linear() {
        // Issue 8.9: a partie tied deal after deal goes on; each deal is O(1) (how long it takes is
        // the `partie_tied_deals` bench's: benches/piquet.rs).
        let mut p = Partie::new(&Rules::rubicon()).unwrap();
        for _ in 0..200_000 {
            p.add_deal(7, 7).unwrap();
        }
        assert_eq!(
            (p.totals(), p.deals_played(), p.deals_left(), p.is_over()),
            ([1_400_000, 1_400_000], 200_000, 2, false)
        );
        p.add_deal(1, 0).unwrap();
        assert_eq!((p.deals_left(), p.is_over()), (1, false));
        p.add_deal(0, 0).unwrap();
        let r = p.result().unwrap();
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([1_400_001, 1_400_000], 0, false, 101));
    }

    #[test]
    fn a_partie_from_its_totals() {
        // The same results as playing the deals (rules §6 rubicon).
        let r = Partie::from_totals(&Rules::rubicon(), [205, 133], 6).unwrap().result().unwrap();
        assert_eq!((r.winner, r.rubiconed, r.score), (0, false, 172));
        let mut p = Partie::from_totals(&Rules::rubicon(), [20, 20], 6).unwrap();
        assert!(p.result().is_none());
        assert_eq!((p.deals_left(), p.deals().len(), p.deals_played()), (2, 0, 6));
        p.add_deal(0, 5).unwrap();
        p.add_deal(0, 0).unwrap();
        assert_eq!(p.result().unwrap(), PartieResult { totals: [20, 25], winner: 1, rubiconed: true, score: 145 });
        // Fewer deals than a partie: not over.
        assert!(!Partie::from_totals(&Rules::rubicon(), [300, 0], 5).unwrap().is_over());
        assert!(Partie::from_totals(&Rules::russian(), [1, 0], 6).is_err());
    }

    proptest::proptest! {
        #[test]
        fn match_arithmetic_never_panics(games in proptest::collection::vec((proptest::prelude::any::<u32>(), 0u32..3), 0..20)) {
            let mut p = Partiya::new(&Rules::russian()).unwrap();
            let mut q = Partie::new(&Rules::rubicon()).unwrap();
            for (a, k) in games {
                let b = match k { 0 => a, 1 => u32::MAX - a, _ => a / 2 };
                let _ = p.add_game(a as u64, b as u64);
                let _ = q.add_deal(a as u64, b as u64);
            }
            let _ = p.result();
            let _ = q.result();
            let _ = round_record(i64::MAX);
            let _ = round_record(i64::MIN);
        }
    }
}
