//! The one scoring path of a deal's play (rules §4, §5, §7): leads, tricks, the last trick, the
//! pique, leza, capot and open capot, with «молчанка» and the false-declaration flag.
//!
//! [`PlayTally`] is a `Copy` value of a few bytes, without heap, used by both
//! [`score_game`](super::score_game) (which logs every event with its reason) and the game engine
//! (which runs it per card in its playouts). It does not keep the totals: a [`PlaySink`] does, and
//! receives every scored [`PlayPoints`]. The engine's sink only adds numbers, so the event text is
//! never built there.

use super::event::EventKind;
use super::rules::{Role, Rules, TrickScoring, LEZA_BONUS, PIQUE_BONUS, PIQUE_THRESHOLD};

/// Points scored in the play, as given to a [`PlaySink`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlayPoints {
    /// Who scores.
    pub role: Role,
    /// [`EventKind::Lead`], `Trick`, `LastTrick`, `Pique`, `Leza`, `Capot` or `OpenCapot`.
    pub kind: EventKind,
    /// The points scored (doubled against a silent opponent).
    pub points: u16,
    /// The part of `points` that is the last-trick extra (doubled as well).
    pub extra: u16,
    /// The points before doubling.
    pub base: u16,
    /// Doubled because the opponent plays «молчанка».
    pub doubled: bool,
    /// The trick (0..=11) during which the points are made; leza and capot: 11.
    pub trick: u8,
}

/// Where the play points go: the running totals of the deal (declarations included).
pub(crate) trait PlaySink {
    /// The current total of `role` in this deal.
    fn total(&self, role: Role) -> u16;
    /// Add `p.points` to `p.role` (the tally has already applied the irregularity flags).
    fn score(&mut self, p: PlayPoints);
}

/// The end of a trick, as [`PlayTally::trick`] scores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TrickEnd {
    /// The trick, 0..=11.
    pub trick: u8,
    /// Who led to it.
    pub leader: Role,
    /// Who won it.
    pub winner: Role,
    /// The tricks won by elder and the dealer, this one included.
    pub won: [u8; 2],
    /// The winner announced an open capot.
    pub winner_announced: bool,
}

/// Play points before the irregularity flags and the pique check (see [`PlayTally`]'s `award`):
/// `base` points to `role` for `kind` in trick `trick` (0..=11), `extra` of them the last-trick
/// extra.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Award {
    role: Role,
    kind: EventKind,
    base: u16,
    extra: u16,
    trick: u8,
}

/// The play-scoring state of one deal (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PlayTally {
    /// The pique can still be scored: no repique, the dealer declared nothing, (rubicon) the
    /// dealer has not scored in the play, and no pique yet.
    pub pique_possible: bool,
    /// Elder scored the pique.
    pub pique: bool,
    /// The dealer has scored a play point.
    pub dealer_played: bool,
    /// The player who plays «молчанка» (rules §7).
    silent: Option<Role>,
    /// The player who made an uncorrected false declaration: he scores nothing (rules §7).
    false_declaration: Option<Role>,
}

impl PlayTally {
    /// A deal's tally before the first lead. `pique_possible`: no repique was scored and the
    /// dealer scored nothing in the declarations (rules §4).
    #[inline]
    pub(crate) const fn new(pique_possible: bool, silent: Option<Role>, false_declaration: Option<Role>) -> PlayTally {
        PlayTally { pique_possible, pique: false, dealer_played: false, silent, false_declaration }
    }

    /// Score `base` play points (with `extra` of them the last-trick extra) for `role`: none for
    /// an offender, double against a silent opponent (as far as [`Rules::silence_covers`] goes);
    /// then the pique check (rules §4).
    #[inline(always)] // with `Award` by value, plain `inline` cost +9 % instructions in a piquet simulate
    fn award<S: PlaySink>(&mut self, rules: &Rules, award: Award, sink: &mut S) {
        let Award { role, kind, base, extra, trick } = award;
        if base == 0 {
            return;
        }
        // The irregularity flags (never set in the engine's own play): skipped in one test.
        let mut doubled = false;
        if self.silent.is_some() || self.false_declaration.is_some() {
            if self.false_declaration == Some(role) {
                return;
            }
            let covered = rules.silence_covers.covers(kind == EventKind::Lead);
            if covered && self.silent == Some(role) {
                return;
            }
            doubled = covered && self.silent == Some(role.other());
        }
        let mult = 1 + doubled as u16;
        sink.score(PlayPoints { role, kind, points: base * mult, extra: extra * mult, base, doubled, trick });
        if role == Role::Dealer {
            self.dealer_played = true;
            if rules.pique_blocked_by_play {
                self.pique_possible = false;
            }
            return;
        }
        let end_bonus = matches!(kind, EventKind::Leza | EventKind::Capot | EventKind::OpenCapot);
        if self.pique_possible && !end_bonus && sink.total(Role::Elder) >= PIQUE_THRESHOLD {
            self.pique_possible = false;
            self.pique = true;
            sink.score(PlayPoints {
                role: Role::Elder,
                kind: EventKind::Pique,
                points: PIQUE_BONUS,
                extra: 0,
                base: PIQUE_BONUS,
                doubled: false,
                trick,
            });
        }
    }

    /// `leader` leads to trick `trick` (0..=11): one point (rules §5).
    #[inline]
    pub(crate) fn lead<S: PlaySink>(&mut self, rules: &Rules, trick: u8, leader: Role, sink: &mut S) {
        self.award(rules, Award { role: leader, kind: EventKind::Lead, base: 1, extra: 0, trick }, sink);
    }

    /// A trick is won (see [`TrickEnd`]): its point; the last trick also scores its extra and
    /// the capot or the leza (rules §5).
    #[inline]
    pub(crate) fn trick<S: PlaySink>(&mut self, rules: &Rules, end: TrickEnd, sink: &mut S) {
        let TrickEnd { trick, leader, winner, won, winner_announced } = end;
        // Points to `role` for `kind`, in this trick.
        let at = |role: Role, kind: EventKind, base: u16, extra: u16| Award { role, kind, base, extra, trick };
        let point = match rules.trick_scoring {
            TrickScoring::EveryLeadAndTrick => 1,
            TrickScoring::LeadOrWinOpponentsLead => (winner != leader) as u16,
        };
        if trick < 11 {
            self.award(rules, at(winner, EventKind::Trick, point, 0), sink);
            return;
        }
        let capot = won[winner.index()] == 12;
        let extra = if capot && !rules.capot_keeps_last_trick_extra { 0 } else { rules.last_trick_extra };
        self.award(rules, at(winner, EventKind::LastTrick, point + extra, extra), sink);
        if capot {
            match rules.open_capot_bonus {
                Some(b) if winner_announced => self.award(rules, at(winner, EventKind::OpenCapot, b, 0), sink),
                _ => self.award(rules, at(winner, EventKind::Capot, rules.capot_bonus, 0), sink),
            }
        } else if let Some(p) = Role::BOTH.into_iter().find(|p| won[p.index()] > 6) {
            self.award(rules, at(p, EventKind::Leza, LEZA_BONUS, 0), sink);
        }
    }
}
