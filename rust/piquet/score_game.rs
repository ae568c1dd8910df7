//! [`score_game`]: scoring one whole game (one deal) from its record: declarations, repique, the
//! play, pique, last trick, leza, capot, and the irregularity flags (rules §3–§5, §7). The match
//! (koroliks, partiya, partie) is scored in [`partiya`](super::partiya).

use std::fmt;

use super::card::{Card, Hand};
use super::compare::{compare, repique_of, DeclarationKind, DeclarationScore};
use super::declare::explain;
use super::event::EventKind;
use super::play::{PlayPoints, PlaySink, PlayTally, TrickEnd};
use super::rules::{check_deal, BonusMode, DeclarationTiming, Role, Rules};
use crate::error::{Error, Result};

const SUIT_NAMES: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];

/// The optional parts of a game record: the dealt hands and the announcements and irregularities.
///
/// ```
/// use cribpiquet::piquet::{GameOptions, Role};
/// let opts = GameOptions { silent: Some(Role::Dealer), ..GameOptions::default() };
/// assert_eq!(opts.open_capot, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameOptions {
    /// Elder's 12 cards as dealt (judges his carte blanche; checked against the exchange rules).
    pub elder_dealt: Option<Hand>,
    /// The dealer's 12 cards as dealt.
    pub dealer_dealt: Option<Hand>,
    /// The player who announced an open capot before the first lead (russian only; an error
    /// under rules without [`open_capot_bonus`](Rules::open_capot_bonus)).
    pub open_capot: Option<Role>,
    /// The player who plays «молчанка» (too many cards after a wrong discard, rules §7).
    pub silent: Option<Role>,
    /// The player who declared something he did not hold and did not correct it (rules §7).
    pub false_declaration: Option<Role>,
}

/// One scoring event of a game, with the running totals after it (see [`score_game`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEvent {
    /// Who scores.
    pub player: Role,
    /// What for.
    pub kind: EventKind,
    /// How many points.
    pub points: u16,
    /// The reason in words: `"point of six"`, `"leads 9C"`, `"wins trick 1 (9C TC)"`, …
    pub reason: String,
    /// The trick (1..=12) of a play event; `None` for declarations, repique, leza and capot.
    pub trick: Option<u8>,
    /// Elder's and the dealer's totals after this event.
    pub totals: [u16; 2],
}

/// The score of one game.
///
/// ```
/// use cribpiquet::piquet::{score_game, Card, GameOptions, Role, Rules};
/// let elder = "7H 8H 9H TH JH QH KH AH AC KC AD AS".parse().unwrap();
/// let dealer = "7C 8C 9C TC JC QC 7D 8D 9D 7S 8S 9S".parse().unwrap();
/// let c = |t: &str| t.parse::<Card>().unwrap();
/// // Elder leads his hearts, then his aces and the king of clubs: every trick.
/// let leads = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "AS", "AD", "AC", "KC"];
/// let follows = ["7C", "7D", "7S", "8C", "8D", "8S", "9C", "9D", "9S", "TC", "JC", "QC"];
/// let tricks: Vec<(Card, Card)> = leads.iter().zip(follows).map(|(a, b)| (c(a), c(b))).collect();
/// let g = score_game(elder, dealer, &tricks, &Rules::russian(), &GameOptions::default()).unwrap();
/// // 40 declared → repique 100; 12 leads, 12 tricks, the capot's 40 (no last-trick extra, no leza).
/// assert_eq!((g.totals, g.capot, g.repique), ([164, 0], Some(Role::Elder), Some(Role::Elder)));
/// assert_eq!((g.winner(), g.difference(), g.is_refet()), (Some(Role::Elder), 164, false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameScore {
    /// The declarations as compared (before the false-declaration flag removes anyone's points).
    pub declarations: DeclarationScore,
    /// Every scoring event in order, with running totals.
    pub events: Vec<GameEvent>,
    /// Final totals, elder then dealer.
    pub totals: [u16; 2],
    /// Tricks won by elder and by the dealer.
    pub tricks_won: [u8; 2],
    /// The winner of each trick, in order.
    pub trick_winners: Vec<Role>,
    /// Who scored the repique (after the irregularity flags).
    pub repique: Option<Role>,
    /// Whether elder scored the pique (only elder can).
    pub pique: bool,
    /// Who took all 12 tricks.
    pub capot: Option<Role>,
    /// Whether an announced open capot was made.
    pub open_capot_made: bool,
}

impl GameScore {
    /// The larger total minus the smaller (what the winner writes, rules §6).
    pub fn difference(&self) -> u16 {
        self.totals[0].abs_diff(self.totals[1])
    }

    /// The player with the larger total; `None` for a рефет (a draw).
    pub fn winner(&self) -> Option<Role> {
        match self.totals[0].cmp(&self.totals[1]) {
            std::cmp::Ordering::Greater => Some(Role::Elder),
            std::cmp::Ordering::Less => Some(Role::Dealer),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Is the game a рефет (equal totals)?
    pub fn is_refet(&self) -> bool {
        self.totals[0] == self.totals[1]
    }
}

impl fmt::Display for GameScore {
    /// One line per event (`elder +1 leads 9C: 19–6`), then the result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.events {
            writeln!(f, "{} +{} {}: {}–{}", e.player, e.points, e.reason, e.totals[0], e.totals[1])?;
        }
        match self.winner() {
            Some(p) => {
                write!(f, "elder {}, dealer {}: {p} wins by {}", self.totals[0], self.totals[1], self.difference())
            }
            None => write!(f, "elder {}, dealer {}: рефет (a draw)", self.totals[0], self.totals[1]),
        }
    }
}

/// Check a trick record and return the winner of each trick.
fn check_tricks(hands: [Hand; 2], tricks: &[(Card, Card)]) -> Result<Vec<Role>> {
    if tricks.len() != 12 {
        return Err(Error::Illegal(format!("a game record has 12 tricks, got {}", tricks.len())));
    }
    let mut left = hands;
    let mut played = Hand::new();
    let mut leader = Role::Elder;
    let mut winners = Vec::with_capacity(12);
    for (i, &(lead, follow)) in tricks.iter().enumerate() {
        let n = i + 1;
        let follower = leader.other();
        for (card, who) in [(lead, leader), (follow, follower)] {
            if played.contains(card) {
                return Err(Error::Illegal(format!("trick {n}: {card} was already played")));
            }
            if !left[who.index()].contains(card) {
                return Err(Error::Illegal(if hands[who.other().index()].contains(card) {
                    if who == leader {
                        format!(
                            "trick {n}: {card} is the {}'s card, but {leader} leads (he won the previous trick)",
                            who.other()
                        )
                    } else {
                        format!("trick {n}: {card} is the {}'s card, not the {follower}'s", who.other())
                    }
                } else {
                    format!("trick {n}: {card} is not in the {who}'s hand")
                }));
            }
            left[who.index()].remove(card);
            played.insert(card);
        }
        let suit = lead.suit();
        if follow.suit() != suit && !left[follower.index()].suit(suit).is_empty() {
            return Err(Error::Illegal(format!(
                "trick {n}: the {follower} revokes with {follow}, holding {}",
                SUIT_NAMES[suit as usize]
            )));
        }
        let winner = if follow.suit() == suit && follow.rank() > lead.rank() { follower } else { leader };
        winners.push(winner);
        leader = winner;
    }
    Ok(winners)
}

/// The event log of [`score_game`]: the [`PlaySink`] that names every play event.
struct Log {
    events: Vec<GameEvent>,
    totals: [u16; 2],
    /// The cards of the current trick (lead, follow).
    cards: (Card, Card),
    tricks_won: [u8; 2],
    open_capot_made: bool,
}

impl Log {
    fn push(&mut self, player: Role, kind: EventKind, points: u16, reason: String, trick: Option<u8>) {
        self.totals[player.index()] += points;
        self.events.push(GameEvent { player, kind, points, reason, trick, totals: self.totals });
    }
}

impl PlaySink for Log {
    fn total(&self, role: Role) -> u16 {
        self.totals[role.index()]
    }

    fn score(&mut self, p: PlayPoints) {
        let (lead, follow) = self.cards;
        let n = p.trick + 1;
        let (reason, trick) = match p.kind {
            EventKind::Lead => (format!("leads {lead}"), Some(n)),
            EventKind::Trick => (format!("wins trick {n} ({lead} {follow})"), Some(n)),
            EventKind::LastTrick if p.extra > 0 => {
                (format!("wins the last trick ({lead} {follow}), {}", p.base), Some(n))
            }
            EventKind::LastTrick => (format!("wins the last trick ({lead} {follow}), no extra with a capot"), Some(n)),
            EventKind::Pique => {
                let from = self.totals[0];
                (format!("pique ({from} → {})", from + p.points), Some(n))
            }
            EventKind::Leza => (format!("leza: {} tricks", self.tricks_won[p.role.index()]), None),
            EventKind::Capot => ("capot: all 12 tricks".to_string(), None),
            EventKind::OpenCapot => {
                self.open_capot_made = true;
                ("open capot: all 12 tricks, announced".to_string(), None)
            }
            _ => (String::new(), None),
        };
        let reason =
            if p.doubled { format!("{reason} (doubled: the {} plays silent)", p.role.other()) } else { reason };
        self.push(p.role, p.kind, p.points, reason, trick);
    }
}

/// Score one game (one deal) from its record.
///
/// `elder` and `dealer` are the 12-card hands after the exchange; `tricks` the 12 tricks as
/// (leader's card, follower's card). The record is checked first: the cards belong to the right
/// hands, each is played once, suit is followed, and the winner of each trick leads the next
/// (elder leads the first); an illegal record is an [`Error::Illegal`] naming the trick and card.
///
/// Scoring, in the order of the event log:
/// * declarations (rules §3) and the repique (§4), as [`score_declarations`](super::score_declarations);
///   under [`DeclarationTiming::DealerAfterFirstLead`] (rubicon) the dealer's declarations (and his
///   repique) are logged after elder's first lead;
/// * the play (§5): leads and tricks by [`Rules::trick_scoring`], the last trick with
///   [`Rules::last_trick_extra`] (one event: russian "counts 4");
/// * pique (§4): only elder; after each of elder's play points, if his total reaches 30 while the
///   dealer scored nothing in the declarations and no repique was scored, +30; with
///   [`Rules::pique_blocked_by_play`] (rubicon) a play point of the dealer blocks it too;
/// * leza (+10 for more than 6 tricks, none at 6–6) or capot (+40, +80 for an announced open
///   capot), after the last trick.
///
/// *Decisions where the rules are silent* (each is tested):
/// * The last-trick extra counts toward the pique (only leza and capot are excluded by §4).
/// * A capot replaces the leza; in russian also the last-trick extra
///   ([`Rules::capot_keeps_last_trick_extra`]).
/// * An open capot announced by the player who does not make it costs nothing (§5 decision); if
///   the opponent takes all tricks he scores the ordinary capot.
/// * «Молчанка» ([`GameOptions::silent`]): play points are the leads, tricks, last trick, leza
///   and capot ([`Rules::silence_covers`] `Tricks`: all but the leads); the silent player scores
///   none of them and the opponent's count double (each
///   event is doubled where it happens, so a doubled point can carry elder past 30 for the
///   pique). The pique and repique themselves are bonuses and are not doubled. A silent dealer's
///   tricks score nothing, so they do not stop elder's pique.
/// * False declaration ([`GameOptions::false_declaration`]): the categories are compared on the
///   hands as held, so the offender's correct declarations still beat the opponent's weaker ones,
///   but the offender scores nothing at all that game (no declarations, play points or bonuses).
///   Pique and repique are judged on the points actually scored, so the offender's (unscored)
///   declarations do not stop the opponent's repique or pique.
/// * The play order is that of the source: "18 and 6 → elder leads 19, dealer takes the trick 7,
///   dealer leads 8" — each lead scores when the card is led, each trick when it is won.
///
/// ```
/// use cribpiquet::piquet::{parse_cards, score_game, Card, GameOptions, Rules};
/// let elder = "TH JH QH KH AH QC 7C 9C QD 8D 7S 9S".parse().unwrap();
/// let dealer = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC".parse().unwrap();
/// let c = |t: &str| t.parse::<Card>().unwrap();
/// let tricks = [("9C", "TC"), ("JC", "QC"), ("AH", "7H"), ("KH", "8H"), ("QH", "9H"), ("JH", "8C"),
///               ("TH", "7D"), ("QD", "KD"), ("AD", "8D"), ("JD", "7C"), ("TD", "7S"), ("9D", "9S")]
///     .map(|(a, b)| (c(a), c(b)));
/// let g = score_game(elder, dealer, &tricks, &Rules::russian(), &GameOptions::default()).unwrap();
/// // The source: "18 and 6: elder leads, 19; the dealer takes the trick, 7; he leads, 8".
/// let running: Vec<[u16; 2]> = g.events.iter().map(|e| e.totals).collect();
/// assert_eq!(&running[..6], [[0, 6], [15, 6], [18, 6], [19, 6], [19, 7], [19, 8]]);
/// ```
pub fn score_game(
    elder: Hand,
    dealer: Hand,
    tricks: &[(Card, Card)],
    rules: &Rules,
    options: &GameOptions,
) -> Result<GameScore> {
    check_deal(elder, dealer, rules, options.elder_dealt, options.dealer_dealt)?;
    if options.open_capot.is_some() && rules.open_capot_bonus.is_none() {
        return Err(Error::InvalidValue("these rules have no open capot (open_capot_bonus is None)".into()));
    }
    let trick_winners = check_tricks([elder, dealer], tricks)?;
    let declarations =
        compare(explain(elder, options.elder_dealt, rules), explain(dealer, options.dealer_dealt, rules), rules);

    // The points that stand: a false declarer's are removed, and the repique is judged again.
    let offender = options.false_declaration;
    let mut cats = declarations.categories().map(|c| c.points);
    if let Some(p) = offender {
        for c in &mut cats {
            c[p.index()] = 0;
        }
    }
    let repique = repique_of(&cats, rules.bonus_mode == BonusMode::ReckoningOrder);
    let declared = [0, 1].map(|i| cats.iter().map(|c| c[i]).sum::<u16>());

    let mut tricks_won = [0u8; 2];
    for w in &trick_winners {
        tricks_won[w.index()] += 1;
    }
    let mut log =
        Log { events: Vec::with_capacity(48), totals: [0, 0], cards: tricks[0], tricks_won, open_capot_made: false };
    // The pique needs no repique and no declaration points of the dealer (rules §4).
    let mut tally = PlayTally::new(repique.is_none() && declared[1] == 0, options.silent, offender);
    // Declarations in reckoning order; `only` restricts them to one player (rubicon timing).
    let declare = |log: &mut Log, only: Option<Role>| {
        let mine = |p: Role| only.is_none_or(|o| o == p) && offender != Some(p);
        for item in declarations.items.iter().filter(|i| mine(i.player) && i.kind != DeclarationKind::Repique) {
            log.push(item.player, EventKind::of_declaration(item.kind), item.points, item.name.clone(), None);
        }
        if let Some(p) = repique.filter(|&p| only.is_none_or(|o| o == p)) {
            let from = log.totals[p.index()];
            let bonus = super::rules::REPIQUE_BONUS;
            log.push(p, EventKind::Repique, bonus, format!("repique ({from} → {})", from + bonus), None);
        }
    };
    let dealer_later = rules.declaration_timing == DeclarationTiming::DealerAfterFirstLead;
    declare(&mut log, if dealer_later { Some(Role::Elder) } else { None });

    let mut leader = Role::Elder;
    let mut won = [0u8; 2];
    for (i, (&cards, &winner)) in tricks.iter().zip(&trick_winners).enumerate() {
        let i = i as u8;
        log.cards = cards;
        tally.lead(rules, i, leader, &mut log);
        if i == 0 && dealer_later {
            declare(&mut log, Some(Role::Dealer));
        }
        won[winner.index()] += 1;
        let winner_announced = options.open_capot == Some(winner);
        tally.trick(rules, TrickEnd { trick: i, leader, winner, won, winner_announced }, &mut log);
        leader = winner;
    }

    Ok(GameScore {
        declarations,
        totals: log.totals,
        pique: tally.pique,
        events: log.events,
        tricks_won,
        trick_winners,
        repique,
        capot: Role::BOTH.into_iter().find(|p| tricks_won[p.index()] == 12),
        open_capot_made: log.open_capot_made,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piquet::{declaration_points, score_declarations, SilenceCovers, TrickScoring};
    use crate::rng::Rng;
    use proptest::prelude::*;

    fn hand(text: &str) -> Hand {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A deterministic legal play: the leader leads his highest card (highest id among equal
    /// ranks); the follower wins as cheaply as... simply: his highest card of the suit if it wins,
    /// else his lowest of the suit, else his lowest card. `forced` tricks are played first.
    pub(crate) fn auto_tricks(elder: Hand, dealer: Hand, forced: &[(&str, &str)]) -> Vec<(Card, Card)> {
        let mut left = [elder, dealer];
        let mut leader = Role::Elder;
        let mut tricks = Vec::new();
        let key = |c: &Card| (c.rank(), c.id());
        for i in 0..12 {
            let f = leader.other();
            let (lead, follow) = if i < forced.len() {
                (card(forced[i].0), card(forced[i].1))
            } else {
                let lead = left[leader.index()].iter().max_by_key(key).unwrap();
                let suit = left[f.index()].suit(lead.suit());
                let follow = if suit.is_empty() {
                    left[f.index()].iter().min_by_key(key).unwrap()
                } else {
                    let top = suit.iter().max_by_key(key).unwrap();
                    if top.rank() > lead.rank() {
                        top
                    } else {
                        suit.iter().min_by_key(key).unwrap()
                    }
                };
                (lead, follow)
            };
            left[leader.index()].remove(lead);
            left[f.index()].remove(follow);
            tricks.push((lead, follow));
            if follow.suit() == lead.suit() && follow.rank() > lead.rank() {
                leader = f;
            }
        }
        tricks
    }

    fn game(e: &str, d: &str, forced: &[(&str, &str)], rules: &Rules, options: GameOptions) -> GameScore {
        let (e, d) = (hand(e), hand(d));
        score_game(e, d, &auto_tricks(e, d, forced), rules, &options).unwrap()
    }

    fn no_options() -> GameOptions {
        GameOptions::default()
    }

    // The seed's play example: elder declares 18, the dealer 6.
    const SEED_ELDER: &str = "TH JH QH KH AH QC 7C 9C QD 8D 7S 9S";
    const SEED_DEALER: &str = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC";
    // Elder 26 in declarations (point of eight 8 + huitième 18), the dealer nothing.
    const E26: &str = "7H 8H 9H TH JH QH KH AH 7C 8C 7D 7S";
    const D26: &str = "9C 8D 9D 8S 9S TC TD JC JD QC QS KS";
    // Elder 29 (8 + 18 + three tens 3), the dealer nothing.
    const E29: &str = "7H 8H 9H TH JH QH KH AH TC TD 7C 7D";
    const D29: &str = "8C 9C 8D 9D 7S 8S 9S TS JC JD QC QD";
    // Elder takes every trick: 8 + 18 + fourteen aces 14 = 40, a repique.
    const ECAPOT: &str = "7H 8H 9H TH JH QH KH AH AC KC AD AS";
    const DCAPOT: &str = "7C 8C 9C TC JC QC 7D 8D 9D 7S 8S 9S";

    fn running(g: &GameScore) -> Vec<(Role, u16, [u16; 2])> {
        g.events.iter().map(|e| (e.player, e.points, e.totals)).collect()
    }

    #[test]
    fn the_seeds_play_counting_example() {
        // Source: «у одного игрока было 18 очков, у другого 6. Первый, делая выход, считает: 19.
        // Второй, взяв взятку: «7», делая выход — «8»». Rules §5.
        let g = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC")], &Rules::russian(), no_options());
        assert_eq!(g.declarations.totals, [18, 6]);
        let log: Vec<(&str, [u16; 2])> = g.events.iter().map(|e| (e.reason.as_str(), e.totals)).collect();
        assert_eq!(
            &log[..6],
            [
                ("point of six", [0, 6]),
                ("quint major", [15, 6]),
                ("three queens", [18, 6]),
                ("leads 9C", [19, 6]),
                ("wins trick 1 (9C TC)", [19, 7]),
                ("leads AD", [19, 8]),
            ]
        );
        // Every event's points add up to the totals, and the log ends on them.
        assert_eq!(g.events.iter().map(|e| e.points).sum::<u16>(), g.totals[0] + g.totals[1]);
        assert_eq!(g.events.last().unwrap().totals, g.totals);
    }

    #[test]
    fn rubicon_records_the_dealers_declarations_after_the_first_lead() {
        // Rules §3: "younger's declarations are recorded after elder's first lead"; §5 rubicon: 1
        // for leading, 1 for winning a trick only when the opponent led it.
        let g = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC"), ("JC", "QC")], &Rules::rubicon(), no_options());
        let log: Vec<(&str, [u16; 2])> = g.events.iter().map(|e| (e.reason.as_str(), e.totals)).collect();
        assert_eq!(
            &log[..8],
            [
                ("quint major", [15, 0]),
                ("three queens", [18, 0]),
                ("leads 9C", [19, 0]),
                ("point of six", [19, 6]),
                ("wins trick 1 (9C TC)", [19, 7]),
                ("leads JC", [19, 8]),
                ("wins trick 2 (JC QC)", [20, 8]),
                ("leads AH", [21, 8]),
            ]
        );
        // Elder wins his own lead of AH: no point for that trick.
        assert_eq!(log[8].0, "leads KH");
    }

    #[test]
    fn pique_at_exactly_30_on_a_lead() {
        // Source: «делает выход и досчитывает до 30, то вместо 30, он говорит 60». Elder has 29.
        let g = game(E29, D29, &[], &Rules::russian(), no_options());
        assert_eq!(g.declarations.totals, [29, 0]);
        let r = running(&g);
        assert_eq!(r[3], (Role::Elder, 1, [30, 0]));
        assert_eq!(r[4], (Role::Elder, 30, [60, 0]));
        assert_eq!(g.events[4].reason, "pique (30 → 60)");
        assert!(g.pique);
        assert_eq!(g.events.iter().filter(|e| e.kind == EventKind::Pique).count(), 1);
    }

    #[test]
    fn rubicon_pique_is_judged_in_reckoning_order() {
        // Rules §4 rubicon: the same bonus, judged in reckoning order. Elder 29 (point of eight 8,
        // huitième 18, three tens 3 — the same values in rubicon) leads: 30 → 60.
        let g = game(E29, D29, &[], &Rules::rubicon(), no_options());
        assert_eq!(g.events[3].totals, [30, 0]);
        assert_eq!((g.events[4].kind, g.events[4].totals), (EventKind::Pique, [60, 0]));
        // The dealer's declarations are logged after elder's first lead but reckon before the
        // play: the seed deal's point of six stops any pique even while the log shows the dealer
        // at 0.
        let g = game(SEED_ELDER, SEED_DEALER, &[], &Rules::rubicon(), no_options());
        assert_eq!(g.events[2].totals, [19, 0]);
        assert!(!g.pique);
    }

    #[test]
    fn pique_at_30_on_a_trick_point() {
        // Elder 26: leads 27, wins 28, leads 29, wins 30 → 60 (card by card, rules §4).
        let g = game(E26, D26, &[], &Rules::russian(), no_options());
        let r = running(&g);
        assert_eq!(
            &r[2..7],
            [
                (Role::Elder, 1, [27, 0]),
                (Role::Elder, 1, [28, 0]),
                (Role::Elder, 1, [29, 0]),
                (Role::Elder, 1, [30, 0]),
                (Role::Elder, 30, [60, 0]),
            ]
        );
        // Elder runs seven hearts, then leads the 8 of clubs into the dealer's queen; the dealer
        // takes the last 5 tricks, leading 4 of them, the last counting 4.
        // Elder: 26 + 30 (pique) + 8 leads + 7 tricks + leza 10 = 81; dealer: 4 + 4 + 4 = 12.
        assert_eq!(g.tricks_won, [7, 5]);
        assert_eq!(g.totals, [81, 12]);
        assert_eq!(g.difference(), 69);
        assert_eq!(g.winner(), Some(Role::Elder));
    }

    #[test]
    fn pique_past_30_when_a_silent_dealer_doubles_elders_points() {
        // Rules §7 molchanka: the opponent's play points count double, so the first lead takes
        // elder from 29 to 31 — past 30 — and the pique still counts: 31 → 61.
        let silent = GameOptions { silent: Some(Role::Dealer), ..no_options() };
        let g = game(E29, D29, &[], &Rules::russian(), silent);
        let r = running(&g);
        assert_eq!(r[3], (Role::Elder, 2, [31, 0]));
        assert_eq!(r[4], (Role::Elder, 30, [61, 0]));
        assert_eq!(g.events[3].reason, "leads AH (doubled: the dealer plays silent)");
    }

    #[test]
    fn the_dealers_play_points_block_the_pique_only_when_the_rules_say() {
        // Rules §4 (revised): russian — only the dealer's declaration points block the pique;
        // rubicon (`pique_blocked_by_play`) — the dealer must have scored nothing at all. Elder
        // (26 declared, holding the ace of clubs) opens with the 8 of clubs (27) and the dealer takes
        // it with the queen (1) and leads the 9 (2); elder wins with the ace (28), leads the ace of
        // hearts (29) and wins it (30), then runs his hearts down to the eight while the dealer,
        // void in hearts, discards; elder's 7S loses to the king and the dealer takes the last
        // three tricks.
        let e26b = "7H 8H 9H TH JH QH KH AH AC 8C 7D 7S";
        let forced = [("8C", "QC"), ("9C", "AC")];
        let g = game(e26b, D26, &forced, &Rules::russian(), no_options());
        assert_eq!(g.declarations.totals, [26, 0]);
        assert_eq!(g.events[3].totals, [27, 1]);
        assert_eq!(g.tricks_won, [8, 4]);
        // russian: the pique stands, on the trick point that makes 30.
        assert!(g.pique);
        let pique = g.events.iter().position(|e| e.kind == EventKind::Pique).unwrap();
        assert_eq!(g.events[pique - 1].totals, [30, 2]);
        assert_eq!((g.events[pique].totals, g.events[pique].reason.as_str()), ([60, 2], "pique (30 → 60)"));
        // Elder 26 + 9 leads + 8 tricks + pique 30 + leza 10 = 83; the dealer 3 leads + 3 tricks
        // (the last counting 4) = 10.
        assert_eq!(g.totals, [83, 10]);
        // The same rules with the dealer's play blocking: no pique, 30 less.
        let mut blocked = Rules::russian();
        blocked.pique_blocked_by_play = true;
        let g = game(e26b, D26, &forced, &blocked, no_options());
        assert!(g.events.iter().any(|e| e.totals[0] == 30));
        assert_eq!((g.pique, g.totals), (false, [53, 10]));
        // rubicon blocks it too.
        assert!(!game(e26b, D26, &forced, &Rules::rubicon(), no_options()).pique);
        // Both block it when the dealer has a declaration: the seed deal (dealer's point of six).
        for rules in [Rules::russian(), blocked, Rules::rubicon()] {
            assert!(!game(SEED_ELDER, SEED_DEALER, &[], &rules, no_options()).pique);
        }
    }

    #[test]
    fn molchanka_tricks_only_keeps_the_leads() {
        // Rules §7 option `silence_covers = tricks` (the literal reading): the silent player's
        // leads still score and the opponent's leads are not doubled; everything won with tricks
        // is taken from him and doubled for the opponent. The deal of the pique test above, the
        // dealer silent: elder 26 + 9 leads + 2 × 8 tricks + 2 × 10 leza + the pique 30 = 101 (the
        // pique on the lead of trick 3: 26 + 1 + 2 + 1 = 30 → 60); the dealer keeps his three
        // leads (tricks 2, 11, 12): 3.
        let e26b = "7H 8H 9H TH JH QH KH AH AC 8C 7D 7S";
        let forced = [("8C", "QC"), ("9C", "AC")];
        let mut rules = Rules::russian();
        rules.silence_covers = SilenceCovers::Tricks;
        let silent = GameOptions { silent: Some(Role::Dealer), ..no_options() };
        let g = game(e26b, D26, &forced, &rules, silent);
        assert_eq!(g.totals, [101, 3]);
        let r = running(&g);
        assert_eq!(
            &r[2..6],
            [
                (Role::Elder, 1, [27, 0]),
                (Role::Dealer, 1, [27, 1]),
                (Role::Elder, 2, [29, 1]),
                (Role::Elder, 1, [30, 1])
            ]
        );
        assert_eq!(r[6], (Role::Elder, 30, [60, 1]));
        // The default covers every play point: the dealer scores nothing, elder's leads double too:
        // 26 + 2 × 9 leads + 2 × 8 tricks + 2 × 10 leza + the pique 30 = 110.
        let g = game(e26b, D26, &forced, &Rules::russian(), silent);
        assert_eq!(g.totals, [110, 0]);
    }

    #[test]
    fn end_of_play_bonuses_never_count_toward_a_pique() {
        // Rules §4: "End-of-play bonuses (leza, capot) never count toward a pique." rubicon: elder
        // declares 15 (point of five 5, quart major 4, three aces 3, three queens 3), leads all 12
        // tricks (12) and takes the last (+1): 28 while the dealer has nothing; the capot's 40
        // takes him to 68 but is no pique.
        let e = "9C QC KC 9D JD QD KD AD AH 7S QS AS";
        let d = "7C TC JC 8D 7H 8H 9H KH 8S 9S TS JS";
        let g = game(e, d, &[], &Rules::rubicon(), no_options());
        assert_eq!(g.declarations.totals, [15, 0]);
        let n = g.events.len();
        assert_eq!(g.events[n - 2].totals, [28, 0]);
        assert_eq!((g.events[n - 1].kind, g.events[n - 1].totals), (EventKind::Capot, [68, 0]));
        assert!(!g.pique);
        // The same deal in russian (quart 14: 25 declared) reaches 30 in play: a pique.
        let g = game(e, d, &[], &Rules::russian(), no_options());
        assert_eq!(g.declarations.totals, [25, 0]);
        assert!(g.pique);
    }

    #[test]
    fn capot_takes_no_leza_and_no_last_trick_extra() {
        // Rules §5 / source: «Игрок, взявший все 12 взяток, прибавляет к счету 40, но не считает
        // лишних три за последнюю взятку и 10 за «лезу»». Elder also has a repique (40 → 100), so
        // no pique (§4: not both).
        let g = game(ECAPOT, DCAPOT, &[], &Rules::russian(), no_options());
        assert_eq!(g.repique, Some(Role::Elder));
        assert!(!g.pique);
        assert_eq!((g.capot, g.tricks_won), (Some(Role::Elder), [12, 0]));
        assert!(g.events.iter().all(|e| e.kind != EventKind::Leza && e.kind != EventKind::Pique));
        let last = g.events.iter().find(|e| e.kind == EventKind::LastTrick).unwrap();
        assert_eq!(last.points, 1);
        // 100 + 12 leads + 12 tricks + 40 = 164.
        assert_eq!(g.totals, [164, 0]);
        assert_eq!(g.events.last().unwrap().reason, "capot: all 12 tricks");
    }

    #[test]
    fn rubicon_capot_keeps_the_last_trick_extra() {
        // Rules §5 rubicon: +40 instead of the 10 for the cards; its last-trick extra still counts.
        // 100 (repique) + 12 leads + 0 for winning his own leads + 1 last trick + 40 = 153.
        let g = game(ECAPOT, DCAPOT, &[], &Rules::rubicon(), no_options());
        assert_eq!(g.totals, [153, 0]);
    }

    #[test]
    fn open_capot_made_and_failed() {
        // Rules §5: announced and made: +80 instead of +40 → 204.
        let open = |p| GameOptions { open_capot: Some(p), ..no_options() };
        let g = game(ECAPOT, DCAPOT, &[], &Rules::russian(), open(Role::Elder));
        assert_eq!((g.totals, g.open_capot_made), ([204, 0], true));
        assert_eq!(g.events.last().unwrap().kind, EventKind::OpenCapot);
        // Decision: a failed announcement costs nothing. The dealer announced; elder's ordinary
        // capot stands.
        let g = game(ECAPOT, DCAPOT, &[], &Rules::russian(), open(Role::Dealer));
        assert_eq!((g.totals, g.open_capot_made), ([164, 0], false));
        // Elder announces and loses four tricks: the same score as without the announcement.
        let plain = game(E26, D26, &[], &Rules::russian(), no_options());
        let failed = game(E26, D26, &[], &Rules::russian(), open(Role::Elder));
        assert_eq!(plain.totals, failed.totals);
        // rubicon has no open capot.
        let (e, d) = (hand(ECAPOT), hand(DCAPOT));
        let err = score_game(e, d, &auto_tricks(e, d, &[]), &Rules::rubicon(), &open(Role::Elder)).unwrap_err();
        assert!(matches!(err, Error::InvalidValue(_)));
    }

    #[test]
    fn the_last_trick_counts_four_in_russian_and_one_extra_in_rubicon() {
        // Source: «взявший последнюю взятку, считает за нее 4, а не одно очко»; rules §5.
        let g = game(E26, D26, &[], &Rules::russian(), no_options());
        let last = g.events.iter().find(|e| e.kind == EventKind::LastTrick).unwrap();
        assert_eq!((last.player, last.points), (Role::Dealer, 4));
        assert_eq!(last.reason, "wins the last trick (JC 7H), 4");
        // rubicon: the dealer led the last trick himself: 0 for winning it + 1 extra.
        let g = game(E26, D26, &[], &Rules::rubicon(), no_options());
        let last = g.events.iter().find(|e| e.kind == EventKind::LastTrick).unwrap();
        assert_eq!((last.player, last.points), (Role::Dealer, 1));
    }

    #[test]
    fn leza_for_more_than_six_tricks_and_none_at_six_each() {
        // Rules §5: «Взявший более шести взяток считает лишних 10 очков «за лезу»»; "At six each
        // nobody scores it". Random deals played by the fixed strategy give both cases.
        let (mut six_six, mut leza) = (false, false);
        let mut rng = Rng::new(11);
        let mut ids: Vec<u32> = (0..32).collect();
        while !(six_six && leza) {
            rng.shuffle(&mut ids);
            let e = ids[..12].iter().fold(Hand::new(), |h, &i| h.with(Card::from_id(i as i64).unwrap()));
            let d = ids[12..24].iter().fold(Hand::new(), |h, &i| h.with(Card::from_id(i as i64).unwrap()));
            let g = score_game(e, d, &auto_tricks(e, d, &[]), &Rules::russian(), &no_options()).unwrap();
            let lezas: Vec<&GameEvent> = g.events.iter().filter(|e| e.kind == EventKind::Leza).collect();
            if g.tricks_won == [6, 6] {
                assert!(lezas.is_empty());
                six_six = true;
            } else if g.capot.is_none() {
                let p = if g.tricks_won[0] > 6 { Role::Elder } else { Role::Dealer };
                assert_eq!(lezas.len(), 1);
                assert_eq!((lezas[0].player, lezas[0].points), (p, 10));
                leza = true;
            }
        }
    }

    #[test]
    fn molchanka_doubles_the_opponents_play_points_only() {
        // Rules §7: the offender scores no play points, the opponent's play points count double;
        // declarations stand. Seed deal, elder silent: elder keeps 18, the dealer's 6 stands and
        // his play points double.
        let plain = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC")], &Rules::russian(), no_options());
        let silent = GameOptions { silent: Some(Role::Elder), ..no_options() };
        let g = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC")], &Rules::russian(), silent);
        let play = |g: &GameScore, p: Role| -> u16 {
            g.events
                .iter()
                .filter(|e| {
                    e.player == p && (e.trick.is_some() || matches!(e.kind, EventKind::Leza | EventKind::Capot))
                })
                .map(|e| e.points)
                .sum()
        };
        assert_eq!(g.totals[0], 18);
        assert_eq!(play(&g, Role::Elder), 0);
        assert_eq!(play(&g, Role::Dealer), 2 * play(&plain, Role::Dealer));
        assert_eq!(g.totals[1], 6 + 2 * play(&plain, Role::Dealer));
    }

    #[test]
    fn a_false_declaration_scores_nothing_but_still_blocks() {
        // Rules §7: the offender scores nothing that game; his correct declarations still beat the
        // opponent's weaker ones. Seed deal, elder the offender: his quint still stops the
        // dealer's tierces (which are not scored), the dealer's point of six stands.
        let fd = |p| GameOptions { false_declaration: Some(p), ..no_options() };
        let g = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC")], &Rules::russian(), fd(Role::Elder));
        assert_eq!(g.totals[0], 0);
        assert!(g.events.iter().all(|e| e.player == Role::Dealer));
        let decl: Vec<&str> = g.events.iter().filter(|e| e.trick.is_none()).map(|e| e.reason.as_str()).collect();
        assert_eq!(decl[0], "point of six");
        assert!(!decl.iter().any(|r| r.contains("tierce")));
        // The dealer the offender: elder keeps his 18 and his play; the dealer has 0.
        let g = game(SEED_ELDER, SEED_DEALER, &[("9C", "TC")], &Rules::russian(), fd(Role::Dealer));
        assert_eq!(g.totals[1], 0);
        assert_eq!(g.events[1].totals, [18, 0]);
        // Decision: an offender's unscored declarations do not stop a pique: with the dealer's
        // point gone, elder reaches 30 while the dealer has scored nothing.
        assert!(g.pique);
    }

    #[test]
    fn a_draw_is_a_refet() {
        let g = game(SEED_ELDER, SEED_DEALER, &[], &Rules::russian(), no_options());
        let mut fake = g.clone();
        fake.totals = [50, 50];
        assert!(fake.is_refet() && fake.winner().is_none() && fake.difference() == 0);
        assert!(fake.to_string().ends_with("рефет (a draw)"));
        assert!(g.to_string().contains("elder +1 leads AH: "));
    }

    #[test]
    fn illegal_records_name_the_trick_and_the_card() {
        let (e, d) = (hand(SEED_ELDER), hand(SEED_DEALER));
        let good = auto_tricks(e, d, &[("9C", "TC")]);
        let r = Rules::russian();
        let err = |t: &[(Card, Card)]| score_game(e, d, t, &r, &no_options()).unwrap_err().to_string();
        // Too few and too many tricks.
        assert_eq!(err(&good[..11]), "a game record has 12 tricks, got 11");
        let mut long = good.clone();
        long.push(good[0]);
        assert_eq!(err(&long), "a game record has 12 tricks, got 13");
        // A revoke: the dealer holds clubs but plays a diamond.
        let mut t = good.clone();
        t[0] = (card("9C"), card("7D"));
        assert_eq!(err(&t), "trick 1: the dealer revokes with 7D, holding clubs");
        // The wrong leader: the dealer won trick 1, so elder may not lead trick 2.
        let mut t = good.clone();
        t[1] = (card("QC"), card("JC"));
        assert_eq!(err(&t), "trick 2: QC is the elder's card, but dealer leads (he won the previous trick)");
        // A card played twice and a card nobody holds.
        let mut t = good.clone();
        t[1].0 = card("TC");
        assert_eq!(err(&t), "trick 2: TC was already played");
        let mut t = good.clone();
        t[0] = (card("8S"), card("8C"));
        assert_eq!(err(&t), "trick 1: 8S is not in the elder's hand");
        // The follower playing the leader's card.
        let mut t = good.clone();
        t[0] = (card("9C"), card("QC"));
        assert_eq!(err(&t), "trick 1: QC is the elder's card, not the dealer's");
    }

    // --- the naive re-count ------------------------------------------------------------------

    fn random_game(seed: u64) -> (Hand, Hand, Vec<(Card, Card)>) {
        let mut rng = Rng::new(seed);
        let mut ids: Vec<u32> = (0..32).collect();
        rng.shuffle(&mut ids);
        let to_hand = |s: &[u32]| s.iter().fold(Hand::new(), |h, &i| h.with(Card::from_id(i as i64).unwrap()));
        let (e, d) = (to_hand(&ids[..12]), to_hand(&ids[12..24]));
        let mut left = [e, d];
        let mut leader = 0usize;
        let mut tricks = Vec::new();
        for _ in 0..12 {
            let pick = |h: Hand, rng: &mut Rng| h.iter().nth(rng.below(h.len() as u32) as usize).unwrap();
            let lead = pick(left[leader], &mut rng);
            let same = left[1 - leader].suit(lead.suit());
            let follow = pick(if same.is_empty() { left[1 - leader] } else { same }, &mut rng);
            left[leader].remove(lead);
            left[1 - leader].remove(follow);
            tricks.push((lead, follow));
            if follow.suit() == lead.suit() && follow.rank() > lead.rank() {
                leader = 1 - leader;
            }
        }
        (e, d, tricks)
    }

    /// Recount a game the long way: a list of every play point, then the flags, then the pique.
    fn naive_total(e: Hand, d: Hand, tricks: &[(Card, Card)], rules: &Rules, o: &GameOptions) -> [u16; 2] {
        let s = score_declarations(e, d, rules, None, None).unwrap();
        let mut cats: Vec<[u16; 2]> = s.categories().iter().map(|c| c.points).collect();
        if let Some(p) = o.false_declaration {
            for c in &mut cats {
                c[p.index()] = 0;
            }
        }
        let decl = [cats.iter().map(|c| c[0]).sum::<u16>(), cats.iter().map(|c| c[1]).sum::<u16>()];
        let mut repique = None;
        for p in 0..2 {
            let mut acc = [0u16; 2];
            for c in &cats {
                acc[0] += c[0];
                acc[1] += c[1];
                let reckoning = rules.bonus_mode == BonusMode::ReckoningOrder;
                if (reckoning || std::ptr::eq(c, cats.last().unwrap())) && acc[p] >= 30 {
                    if acc[1 - p] == 0 {
                        repique = Some(p);
                    }
                    break;
                }
            }
        }
        let mut totals = decl;
        if let Some(p) = repique {
            totals[p] += 60;
        }
        // Play points: (player, points, counts toward pique, is a lead).
        let mut play: Vec<(usize, u16, bool, bool)> = Vec::new();
        let mut leader = 0usize;
        let mut won = [0u8; 2];
        let mut winners = Vec::new();
        for &(l, f) in tricks {
            let w = if f.suit() == l.suit() && f.rank() > l.rank() { 1 - leader } else { leader };
            won[w] += 1;
            winners.push((leader, w));
            leader = w;
        }
        let capot = (0..2).find(|&p| won[p] == 12);
        for (i, &(l, w)) in winners.iter().enumerate() {
            play.push((l, 1, true, true));
            let mut pts = if rules.trick_scoring == TrickScoring::EveryLeadAndTrick || w != l { 1 } else { 0 };
            if i == 11 && (capot.is_none() || rules.capot_keeps_last_trick_extra) {
                pts += rules.last_trick_extra;
            }
            play.push((w, pts, true, false));
        }
        if let Some(p) = capot {
            let open = o.open_capot.map(|x| x.index()) == Some(p);
            play.push((p, if open { rules.open_capot_bonus.unwrap() } else { rules.capot_bonus }, false, false));
        } else if let Some(p) = (0..2).find(|&p| won[p] > 6) {
            play.push((p, 10, false, false));
        }
        let mut dealer_blocks = decl[1] > 0;
        let mut pique_done = repique.is_some();
        for (p, pts, counts, lead) in play {
            let silent = o.silent.map(|s| s.index());
            let covered = !(lead && rules.silence_covers == SilenceCovers::Tricks);
            if o.false_declaration.map(|s| s.index()) == Some(p) || (covered && silent == Some(p)) || pts == 0 {
                continue;
            }
            let pts = if covered && silent == Some(1 - p) { 2 * pts } else { pts };
            totals[p] += pts;
            if p == 1 && rules.pique_blocked_by_play {
                dealer_blocks = true;
            }
            if p == 0 && counts && !pique_done && !dealer_blocks && totals[0] >= 30 {
                totals[0] += 30;
                pique_done = true;
            }
        }
        totals
    }

    fn player(i: u8) -> Option<Role> {
        match i {
            0 => Some(Role::Elder),
            1 => Some(Role::Dealer),
            _ => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        #[test]
        fn score_game_matches_a_naive_recount(seed in any::<u64>(), rubicon in any::<bool>(), silent in 0u8..6, fd in 0u8..8, open in 0u8..4, flip_block in any::<bool>(), tricks_only in any::<bool>()) {
            let mut rules = if rubicon { Rules::rubicon() } else { Rules::russian() };
            // The two options mixed into either rule set.
            rules.pique_blocked_by_play ^= flip_block;
            if tricks_only {
                rules.silence_covers = SilenceCovers::Tricks;
            }
            let (e, d, tricks) = random_game(seed);
            let o = GameOptions {
                silent: player(silent),
                false_declaration: player(fd),
                open_capot: if rubicon { None } else { player(open) },
                ..GameOptions::default()
            };
            let g = score_game(e, d, &tricks, &rules, &o).unwrap();
            prop_assert_eq!(g.totals, naive_total(e, d, &tricks, &rules, &o));
            prop_assert_eq!(g.events.iter().map(|e| e.points as u32).sum::<u32>(), g.totals[0] as u32 + g.totals[1] as u32);
            if let Some(last) = g.events.last() {
                prop_assert_eq!(last.totals, g.totals);
            }
            // Without flags the declarations part is the fast path's.
            if o.silent.is_none() && o.false_declaration.is_none() {
                let fast = declaration_points(e, d, &rules);
                prop_assert_eq!(g.declarations.totals.map(|x| x as i16), fast);
            }
        }

        #[test]
        fn any_record_is_an_answer_or_an_error(seed in any::<u64>(), swaps in proptest::collection::vec((0usize..12, any::<bool>(), 0i64..32), 0..3)) {
            let (e, d, mut tricks) = random_game(seed);
            for (i, which, id) in swaps {
                let c = Card::from_id(id).unwrap();
                if which { tricks[i].0 = c } else { tricks[i].1 = c }
            }
            let _ = score_game(e, d, &tricks, &Rules::russian(), &GameOptions::default());
        }
    }
}
