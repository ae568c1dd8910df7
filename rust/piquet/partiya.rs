//! Match arithmetic (rules §6): games, koroliks and the partiya (russian); the partie (rubicon).

use std::fmt;

use super::rules::{MatchScoring, Rounding, Rules, MATCH_BONUS, RUBICON_LIMIT, THROUGH_RECORD_BONUS};
use crate::error::{Error, Result};

/// Round a record to tens, halves up (rules §6: «последняя цифра округляется»).
///
/// ```
/// use cribpiquet::piquet::round_record;
/// assert_eq!((round_record(115), round_record(114), round_record(129)), (120, 110, 130));
/// assert_eq!(round_record(-15), -10); // halves up, also below zero
/// ```
pub fn round_record(x: i64) -> i64 {
    x.saturating_add(5).div_euclid(10).saturating_mul(10)
}

/// One of the two players of a match, A (the first column) or B.
///
/// ```
/// use cribpiquet::piquet::Side;
/// assert_eq!((Side::A.other(), Side::B.index()), (Side::B, 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player (column 0).
    A = 0,
    /// The second player (column 1).
    B = 1,
}

impl Side {
    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    fn larger(values: [u32; 2]) -> Option<Side> {
        match values[0].cmp(&values[1]) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// A number written in one player's column (see [`Partiya`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record {
    /// Whose column.
    pub side: Side,
    /// The number written.
    pub points: u32,
}

/// The record for two sums (a korolik's, or a partiya's columns): the larger minus the smaller,
/// +100, rounded, for the larger; `None` when they are equal (rules §6).
///
/// ```
/// use cribpiquet::piquet::{difference_record, Record, Rounding, Side};
/// // The source: 48 − 33 = 15, +100 → 115, rounded → 120 for the second player.
/// assert_eq!(difference_record(33, 48, Rounding::HalfUpToTens), Some(Record { side: Side::B, points: 120 }));
/// assert_eq!(difference_record(7, 7, Rounding::HalfUpToTens), None);
/// ```
pub fn difference_record(a: u32, b: u32, rounding: Rounding) -> Option<Record> {
    let side = Side::larger([a, b])?;
    Some(Record { side, points: rounding.apply(a.abs_diff(b).saturating_add(MATCH_BONUS)) })
}

/// One game of a partiya as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartiyaGame {
    /// The two game totals (A, B) as given.
    pub totals: [u32; 2],
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
    pub sums: [u32; 2],
    /// Games played in it (2, or fewer when a рефет ended it).
    pub games: u8,
    /// Whether a рефет ended it.
    pub ended_by_refet: bool,
    /// Its record (difference + 100, rounded), `None` for equal sums.
    pub record: Option<Record>,
}

/// The score of a partiya (provisional until [`Partiya::is_over`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartiyaResult {
    /// The record of each closed korolik.
    pub korolik_records: Vec<Option<Record>>,
    /// Each player's column of game differences, summed.
    pub columns: [u32; 2],
    /// The partiya record: the larger column minus the smaller, +100, rounded.
    pub partiya_record: Option<Record>,
    /// The сквозная запись bonus each player receives (+100 when the opponent wrote no game
    /// difference in the whole partiya; counted only once the partiya is over).
    pub through_bonus: [u32; 2],
    /// Each player's total: partiya record + korolik records + сквозная bonus.
    pub totals: [u32; 2],
    /// The net win: the larger total minus the smaller, for its holder (`None` when equal).
    pub net_win: Option<Record>,
    /// Games of the next partiya that count double (a рефет with no full korolik left).
    pub carried_doubling: u8,
    /// Whether the partiya is over.
    pub complete: bool,
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
/// The source's worked example (three koroliks), game by game:
///
/// ```
/// use cribpiquet::piquet::{Partiya, Record, Rules, Side};
/// let mut rules = Rules::russian();
/// rules.koroliks_per_partiya = 3;
/// let mut p = Partiya::new(&rules).unwrap();
/// for (a, b) in [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)] {
///     p.add_game(a, b).unwrap();
/// }
/// assert!(p.is_over());
/// let r = p.result();
/// let rec = |side, points| Some(Record { side, points });
/// assert_eq!(r.korolik_records, [rec(Side::B, 120), rec(Side::A, 130), rec(Side::A, 120)]);
/// assert_eq!((r.columns, r.partiya_record), ([120, 91], rec(Side::A, 130)));
/// assert_eq!((r.totals, r.net_win), ([380, 120], rec(Side::A, 260)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partiya {
    rounding: Rounding,
    koroliks_per_partiya: u8,
    games: Vec<PartiyaGame>,
    koroliks: Vec<Korolik>,
    open_sums: [u32; 2],
    open_games: u8,
    doubled_left: u8,
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
        })
    }

    /// Record a game from the two players' totals; returns what was written. An error once the
    /// partiya is over.
    ///
    /// ```
    /// use cribpiquet::piquet::{Partiya, Record, Rules, Side};
    /// let mut p = Partiya::new(&Rules::russian()).unwrap();
    /// // The source: «у одного игрока 54, у другого 21 … записывает разницу — 33».
    /// assert_eq!(p.add_game(54, 21).unwrap().written, Some(Record { side: Side::A, points: 33 }));
    /// ```
    pub fn add_game(&mut self, total_a: u32, total_b: u32) -> Result<PartiyaGame> {
        if self.is_over() {
            return Err(Error::Illegal(format!(
                "the partiya is over ({} koroliks played); start a new one",
                self.koroliks.len()
            )));
        }
        let doubled = self.doubled_left > 0;
        self.doubled_left = self.doubled_left.saturating_sub(1);
        let factor = if doubled { 2 } else { 1 };
        let written = Side::larger([total_a, total_b])
            .map(|side| Record { side, points: total_a.abs_diff(total_b).saturating_mul(factor) });
        if let Some(w) = written {
            self.open_sums[w.side.index()] = self.open_sums[w.side.index()].saturating_add(w.points);
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
                record: difference_record(sums[0], sums[1], self.rounding),
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
    pub fn columns(&self) -> [u32; 2] {
        let mut c = [0u32; 2];
        for w in self.games.iter().filter_map(|g| g.written) {
            c[w.side.index()] = c[w.side.index()].saturating_add(w.points);
        }
        c
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
        let columns = self.columns();
        let korolik_records: Vec<Option<Record>> = self.koroliks.iter().map(|k| k.record).collect();
        let partiya_record = difference_record(columns[0], columns[1], self.rounding);
        let mut through_bonus = [0u32; 2];
        if complete {
            for side in [Side::A, Side::B] {
                if columns[side.index()] == 0 {
                    through_bonus[side.other().index()] = THROUGH_RECORD_BONUS;
                }
            }
        }
        let mut totals = through_bonus;
        for r in korolik_records.iter().chain([&partiya_record]).flatten() {
            totals[r.side.index()] = totals[r.side.index()].saturating_add(r.points);
        }
        let net_win = Side::larger(totals).map(|side| Record { side, points: totals[0].abs_diff(totals[1]) });
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
    /// The cumulative totals (A, B).
    pub totals: [u32; 2],
    /// The winner (higher total).
    pub winner: Side,
    /// Whether the loser was rubiconed (under 100).
    pub rubiconed: bool,
    /// The winner's score: difference + 100, or the sum + 100 when the loser is rubiconed.
    pub score: u32,
}

/// A rubicon partie: [`Rules::deals_per_partie`] deals (6), scores accumulating (rules §6).
///
/// *Decision*: when the totals are equal after the last deal, one more deal each is played (two
/// deals, so each player deals once more), and again while they stay equal.
///
/// ```
/// use cribpiquet::piquet::{Partie, Rules, Side};
/// let mut p = Partie::new(&Rules::rubicon()).unwrap();
/// for (a, b) in [(30, 12), (25, 40), (60, 5), (10, 22), (41, 0), (9, 14)] {
///     p.add_deal(a, b).unwrap();
/// }
/// let r = p.result().unwrap();
/// // A 175, B 93: B is rubiconed, A scores 175 + 93 + 100 = 368.
/// assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([175, 93], Side::A, true, 368));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partie {
    deals_per_partie: u8,
    rounding: Rounding,
    deals: Vec<[u32; 2]>,
}

impl Partie {
    /// A new partie under `rules` (whose [`match_scoring`](Rules::match_scoring) must be
    /// [`MatchScoring::Partie`]).
    pub fn new(rules: &Rules) -> Result<Partie> {
        rules.validate()?;
        if rules.match_scoring != MatchScoring::Partie {
            return Err(Error::InvalidValue("these rules score a partiya, not a partie (match_scoring)".into()));
        }
        Ok(Partie { deals_per_partie: rules.deals_per_partie, rounding: rules.rounding, deals: Vec::new() })
    }

    /// Record one deal's scores; an error once the partie is over.
    ///
    /// ```
    /// use cribpiquet::piquet::{Partie, Rules};
    /// let mut p = Partie::new(&Rules::rubicon()).unwrap();
    /// p.add_deal(30, 12).unwrap();
    /// assert_eq!((p.deals().len(), p.totals(), p.deals_left(), p.is_over()), (1, [30, 12], 5, false));
    /// assert!(p.result().is_none());
    /// ```
    pub fn add_deal(&mut self, a: u32, b: u32) -> Result<()> {
        if self.is_over() {
            return Err(Error::Illegal(format!("the partie is over after {} deals", self.deals.len())));
        }
        self.deals.push([a, b]);
        Ok(())
    }

    /// The deals recorded.
    pub fn deals(&self) -> &[[u32; 2]] {
        &self.deals
    }

    /// The cumulative totals.
    pub fn totals(&self) -> [u32; 2] {
        self.deals.iter().fold([0u32; 2], |t, d| [t[0].saturating_add(d[0]), t[1].saturating_add(d[1])])
    }

    /// Deals still to play (at least 2 after a tie at the end).
    pub fn deals_left(&self) -> usize {
        let n = self.deals.len();
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
        let n = self.deals.len();
        let base = self.deals_per_partie as usize;
        n >= base && (n - base) % 2 == 0 && Side::larger(self.totals()).is_some()
    }

    /// The result, once the partie is over.
    pub fn result(&self) -> Option<PartieResult> {
        if !self.is_over() {
            return None;
        }
        let totals = self.totals();
        let winner = Side::larger(totals)?;
        let loser = totals[winner.other().index()];
        let rubiconed = loser < RUBICON_LIMIT;
        let raw = if rubiconed { totals[0].saturating_add(totals[1]) } else { totals[0].abs_diff(totals[1]) };
        Some(PartieResult { totals, winner, rubiconed, score: self.rounding.apply(raw.saturating_add(MATCH_BONUS)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(side: Side, points: u32) -> Option<Record> {
        Some(Record { side, points })
    }

    fn three_koroliks() -> Rules {
        let mut r = Rules::russian();
        r.koroliks_per_partiya = 3;
        r
    }

    #[test]
    fn round_record_halves_up() {
        // Rules §6: "+100, rounded to tens, halves up".
        assert_eq!(round_record(115), 120);
        assert_eq!(round_record(125), 130);
        assert_eq!(round_record(124), 120);
        assert_eq!(round_record(100), 100);
        assert_eq!(round_record(0), 0);
        assert_eq!(round_record(5), 10);
        assert_eq!(round_record(-5), 0);
    }

    #[test]
    fn the_seeds_worked_example_game_by_game() {
        // Rules §6 / source: written — first 33, 65, 22; second 48, 37, 6; koroliks (33 | 48) →
        // 120 to the second, (65 | 37) → 130 to the first, (22 | 6) → 120 to the first; partiya
        // 120 vs 91 → 29 → 130 to the first; totals 380 vs 120 → net 260. The source gives only
        // the written numbers; these game totals produce them (the first is its own 54 vs 21).
        let mut p = Partiya::new(&three_koroliks()).unwrap();
        let games = [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)];
        let written = [(Side::A, 33), (Side::B, 48), (Side::A, 65), (Side::B, 37), (Side::A, 22), (Side::B, 6)];
        for (i, ((a, b), (side, points))) in games.into_iter().zip(written).enumerate() {
            assert!(!p.is_over());
            let g = p.add_game(a, b).unwrap();
            assert_eq!(g.written, rec(side, points));
            assert_eq!((g.korolik, g.doubled), (i / 2, false));
            assert_eq!(p.koroliks().len(), (i + 1).div_euclid(2));
        }
        assert!(p.is_over());
        let r = p.result();
        assert_eq!(r.korolik_records, [rec(Side::B, 120), rec(Side::A, 130), rec(Side::A, 120)]);
        assert_eq!(r.columns, [120, 91]);
        assert_eq!(r.partiya_record, rec(Side::A, 130));
        assert_eq!(r.through_bonus, [0, 0]);
        assert_eq!(r.totals, [380, 120]);
        assert_eq!(r.net_win, rec(Side::A, 260));
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
        assert_eq!(p.koroliks()[0].record, rec(Side::A, 130)); // 33 + 100 = 133 → 130
        assert!(p.koroliks()[0].ended_by_refet);
        assert_eq!(p.doubled_games_left(), 2);
        assert_eq!(p.add_game(50, 40).unwrap().written, rec(Side::A, 20));
        assert_eq!(p.add_game(10, 45).unwrap().written, rec(Side::B, 70));
        assert_eq!(p.koroliks()[1].record, rec(Side::B, 150)); // 70 − 20 + 100
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
        assert_eq!((g.doubled, g.written), (true, rec(Side::A, 20)));
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
        assert_eq!(r.korolik_records, [rec(Side::A, 140), rec(Side::A, 160)]);
        assert_eq!(r.partiya_record, rec(Side::A, 200));
        assert_eq!(r.through_bonus, [100, 0]);
        assert_eq!(r.totals, [600, 0]);
        assert_eq!(r.net_win, rec(Side::A, 600));
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
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([205, 133], Side::A, false, 172));
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
        assert_eq!((r.totals, r.winner, r.rubiconed, r.score), ([150, 130], Side::A, false, 120));
    }

    proptest::proptest! {
        #[test]
        fn match_arithmetic_never_panics(games in proptest::collection::vec((proptest::prelude::any::<u32>(), 0u32..3), 0..20)) {
            let mut p = Partiya::new(&Rules::russian()).unwrap();
            let mut q = Partie::new(&Rules::rubicon()).unwrap();
            for (a, k) in games {
                let b = match k { 0 => a, 1 => u32::MAX - a, _ => a / 2 };
                let _ = p.add_game(a, b);
                let _ = q.add_deal(a, b);
            }
            let _ = p.result();
            let _ = q.result();
            let _ = round_record(i64::MAX);
            let _ = round_record(i64::MIN);
        }
    }
}
