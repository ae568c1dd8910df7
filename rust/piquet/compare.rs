//! Comparing the two hands' declarations (rules §3) and the repique (rules §4).

use std::fmt;

use super::card::Hand;
use super::declare::{explain, packed_lanes, reckoning, Compiled, Declarations, Summary};
use super::rules::{check_deal, Role, Rules, CARTE_BLANCHE_POINTS, PIQUE_THRESHOLD, REPIQUE_BONUS};
use crate::error::Result;
use crate::names::named_enum;

/// The result of one declaration category (see [`DeclarationScore`]).
///
/// For the point, sequences and sets only the winner scores (`winner == None`: equal, or nobody
/// holds one). Carte blanche can score for both: there `winner` is the one player who has it,
/// `None` when both or neither do, and `points` says who scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CategoryScore {
    /// Who wins the category.
    pub winner: Option<Role>,
    /// Points scored by elder and by the dealer.
    pub points: [u16; 2],
}

impl CategoryScore {
    fn won_by(winner: Option<Role>, value: u16) -> CategoryScore {
        let mut points = [0; 2];
        if let Some(p) = winner {
            points[p.index()] = value;
        }
        CategoryScore { winner, points }
    }
}

named_enum! {
    /// What a declaration item is.
    ///
    /// ```
    /// assert_eq!(cribpiquet::piquet::DeclarationKind::CarteBlanche.name(), "carte blanche");
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum DeclarationKind {
        /// Carte blanche (10).
        CarteBlanche => "carte blanche",
        /// The point (one per card).
        Point => "point",
        /// One sequence.
        Sequence => "sequence",
        /// One set (trio or fourteen).
        Set => "set",
        /// The repique bonus (+60).
        Repique => "repique",
    }
}

/// One scoring declaration (an entry of [`DeclarationScore::items`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclarationItem {
    /// Who scores it.
    pub player: Role,
    /// What it is.
    pub kind: DeclarationKind,
    /// How it is announced: `"point of six"`, `"quint major"`, `"fourteen aces"`, `"repique"`.
    pub name: String,
    /// Its points.
    pub points: u16,
    /// The cards shown for it (empty for carte blanche's judged-on-deal case and the repique).
    pub cards: Hand,
}

/// Both players' declarations compared, category by category, in reckoning order.
///
/// ```
/// use cribpiquet::piquet::{score_declarations, Role, Rules};
/// let elder = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let dealer = "7H 8H 9C TC JC QC KD QD JD 8S 9S TS".parse().unwrap();
/// let s = score_declarations(elder, dealer, &Rules::russian(), None, None).unwrap();
/// assert_eq!(s.point.winner, Some(Role::Elder));
/// assert_eq!(s.sequences.points, [16, 0]); // sixième major beats quart to the queen
/// assert_eq!(s.sets.points, [14, 0]);
/// assert_eq!(s.repique, Some(Role::Elder)); // 6 + 16 + 14 = 36 while the dealer has nothing
/// assert_eq!(s.totals, [96, 0]);
/// assert!(s.to_string().starts_with("Point of six — good, 6 (elder); sixième major — good, 16 (elder)"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclarationScore {
    /// Elder's declarations.
    pub elder: Declarations,
    /// The dealer's declarations.
    pub dealer: Declarations,
    /// Carte blanche (scored first, for either or both).
    pub carte_blanche: CategoryScore,
    /// The point.
    pub point: CategoryScore,
    /// Sequences (the winner scores all of his; equal best sequences cancel every sequence).
    pub sequences: CategoryScore,
    /// Sets (the winner scores all of his).
    pub sets: CategoryScore,
    /// Who scores the repique (+60), if anyone.
    pub repique: Option<Role>,
    /// Each player's declaration points, repique included.
    pub totals: [u16; 2],
    /// Every scoring item in reckoning order: carte blanche, point, sequences, sets, repique.
    pub items: Vec<DeclarationItem>,
}

impl DeclarationScore {
    /// The four categories in reckoning order.
    pub fn categories(&self) -> [CategoryScore; 4] {
        [self.carte_blanche, self.point, self.sequences, self.sets]
    }
}

/// Who wins a comparison of keys (higher wins, equal nobody).
#[inline(always)]
fn winner_of<K: Ord>(elder: K, dealer: K) -> Option<Role> {
    match elder.cmp(&dealer) {
        std::cmp::Ordering::Greater => Some(Role::Elder),
        std::cmp::Ordering::Less => Some(Role::Dealer),
        std::cmp::Ordering::Equal => None,
    }
}

/// Who scores the repique, from the four categories' points in reckoning order (rules §4).
///
/// russian ([`BonusMode::OpponentScoredNothing`](super::BonusMode)): declarations of 30 or more
/// while the opponent's declarations total 0. rubicon ([`BonusMode::ReckoningOrder`](super::BonusMode)):
/// the first category at whose end a player has 30 or more must find the opponent still at 0.
#[inline(always)]
pub(crate) fn repique_of(cats: &[[u16; 2]; 4], reckoning: bool) -> Option<Role> {
    let threshold = PIQUE_THRESHOLD as u32;
    let (mut e, mut d) = (0u32, 0u32);
    for c in cats {
        e += c[0] as u32;
        d += c[1] as u32;
        if reckoning {
            if e >= threshold && d == 0 {
                return Some(Role::Elder);
            }
            if d >= threshold && e == 0 {
                return Some(Role::Dealer);
            }
        }
    }
    if e >= threshold && d == 0 {
        Some(Role::Elder)
    } else if d >= threshold && e == 0 {
        Some(Role::Dealer)
    } else {
        None
    }
}

/// Compare two explained declarations (a checked deal).
pub(crate) fn compare(elder: Declarations, dealer: Declarations, rules: &Rules) -> DeclarationScore {
    let decl = [&elder, &dealer];
    let cb = [elder.carte_blanche, dealer.carte_blanche];
    let carte_blanche = CategoryScore {
        winner: match cb {
            [true, false] => Some(Role::Elder),
            [false, true] => Some(Role::Dealer),
            _ => None,
        },
        points: cb.map(|b| if b { CARTE_BLANCHE_POINTS } else { 0 }),
    };
    let pw = winner_of(elder.point.key(), dealer.point.key());
    let point = CategoryScore::won_by(pw, pw.map_or(0, |p| decl[p.index()].point.length as u16));
    let sw = winner_of(elder.sequence_key(), dealer.sequence_key());
    let sequences = CategoryScore::won_by(sw, sw.map_or(0, |p| decl[p.index()].sequences_value()));
    let tw = winner_of(elder.set_key(), dealer.set_key());
    let sets = CategoryScore::won_by(tw, tw.map_or(0, |p| decl[p.index()].sets_value()));

    let cats = [carte_blanche.points, point.points, sequences.points, sets.points];
    let repique = repique_of(&cats, rules.bonus_mode == super::BonusMode::ReckoningOrder);
    let mut totals = [0u16; 2];
    for c in &cats {
        totals[0] += c[0];
        totals[1] += c[1];
    }
    if let Some(p) = repique {
        totals[p.index()] += REPIQUE_BONUS;
    }

    let mut items = Vec::new();
    for p in Role::BOTH {
        if cb[p.index()] {
            items.push(DeclarationItem {
                player: p,
                kind: DeclarationKind::CarteBlanche,
                name: "carte blanche".into(),
                points: CARTE_BLANCHE_POINTS,
                cards: Hand::new(),
            });
        }
    }
    if let Some(p) = pw {
        let pt = decl[p.index()].point;
        items.push(DeclarationItem {
            player: p,
            kind: DeclarationKind::Point,
            name: pt.name(),
            points: pt.length as u16,
            cards: pt.cards,
        });
    }
    if let Some(p) = sw {
        for s in &decl[p.index()].sequences {
            items.push(DeclarationItem {
                player: p,
                kind: DeclarationKind::Sequence,
                name: s.name(),
                points: s.value,
                cards: s.cards,
            });
        }
    }
    if let Some(p) = tw {
        for s in &decl[p.index()].sets {
            items.push(DeclarationItem {
                player: p,
                kind: DeclarationKind::Set,
                name: s.name(),
                points: s.value,
                cards: s.cards,
            });
        }
    }
    if let Some(p) = repique {
        items.push(DeclarationItem {
            player: p,
            kind: DeclarationKind::Repique,
            name: "repique".into(),
            points: REPIQUE_BONUS,
            cards: Hand::new(),
        });
    }
    DeclarationScore { elder, dealer, carte_blanche, point, sequences, sets, repique, totals, items }
}

/// Compare elder's and the dealer's declarations (rules §3) and find any repique (rules §4).
///
/// `elder` and `dealer` are the 12-card hands after the exchange (disjoint). `elder_dealt` /
/// `dealer_dealt`, the hands as dealt, decide carte blanche when given; they must be consistent
/// (disjoint from each other and from the opponent's hand, and an exchange the rules allow).
///
/// * Carte blanche scores 10 for each player who has it, first.
/// * The point: longer wins, then the higher point value; equal → nobody. One per card.
/// * Sequences: the best (longer, then higher top) wins and its holder scores **all** his
///   sequences; exactly equal best sequences → nobody scores any sequence.
/// * Sets: any four beats any three, a higher rank beats a lower; the winner scores all his sets.
/// * Repique: 30 or more in declarations while the opponent has nothing → +60 (the rubicon rules
///   judge "nothing" in reckoning order).
///
/// ```
/// use cribpiquet::piquet::{score_declarations, Rules};
/// // The source: six cards and a quint against an equal quint — the quints cancel, the six count.
/// let elder = "9H TH JH QH KH 7H 8C 9C 8D 9D 7S 8S".parse().unwrap();
/// let dealer = "9S TS JS QS KS 7C TC JC 7D TD JD AC".parse().unwrap();
/// let s = score_declarations(elder, dealer, &Rules::russian(), None, None).unwrap();
/// assert_eq!((s.point.points, s.sequences.points), ([6, 0], [0, 0]));
/// ```
pub fn score_declarations(
    elder: Hand,
    dealer: Hand,
    rules: &Rules,
    elder_dealt: Option<Hand>,
    dealer_dealt: Option<Hand>,
) -> Result<DeclarationScore> {
    check_deal(elder, dealer, rules, elder_dealt, dealer_dealt)?;
    Ok(compare(explain(elder, elder_dealt, rules), explain(dealer, dealer_dealt, rules), rules))
}

impl fmt::Display for DeclarationScore {
    /// Reads like the announcement: `"Point of six — good, 6 (elder); quint major — good, 15
    /// (elder); fourteen aces — good, 14 (dealer). Elder 21, dealer 14."`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let decl = [&self.elder, &self.dealer];
        for p in Role::BOTH {
            if self.carte_blanche.points[p.index()] > 0 {
                parts.push(format!("carte blanche — {CARTE_BLANCHE_POINTS} ({p})"));
            }
        }
        match self.point.winner {
            Some(p) => {
                parts.push(format!("{} — good, {} ({p})", decl[p.index()].point.name(), self.point.points[p.index()]))
            }
            None => parts.push(format!("{}, {} — equal", self.elder.point.name(), self.elder.point.value)),
        }
        match self.sequences.winner {
            Some(p) => {
                for (i, s) in decl[p.index()].sequences.iter().enumerate() {
                    let good = if i == 0 { " — good," } else { "," };
                    parts.push(format!("{}{good} {} ({p})", s.name(), s.value));
                }
            }
            None => {
                if let Some(s) = self.elder.best_sequence() {
                    parts.push(format!("{} — equal, no sequence scores", s.name()));
                }
            }
        }
        if let Some(p) = self.sets.winner {
            for (i, s) in decl[p.index()].sets.iter().enumerate() {
                let good = if i == 0 { " — good," } else { "," };
                parts.push(format!("{}{good} {} ({p})", s.name(), s.value));
            }
        }
        if let Some(p) = self.repique {
            parts.push(format!("repique, {REPIQUE_BONUS} ({p})"));
        }
        let text = parts.join("; ");
        let mut chars = text.chars();
        if let Some(first) = chars.next() {
            write!(f, "{}{}", first.to_uppercase(), chars.as_str())?;
        }
        write!(f, ". Elder {}, dealer {}.", self.totals[0], self.totals[1])
    }
}

// ---------------------------------------------------------------------------------------------
// The fast path.
// ---------------------------------------------------------------------------------------------

/// `x`, hidden from the optimiser. The masks below are computed from it with plain arithmetic:
/// left visible, LLVM rewrites `value & mask` as a select and the x86 cmov converter then turns it
/// into a branch, which mispredicts on random deals (measured: about 2× slower).
#[inline(always)]
fn opaque(x: u64) -> u64 {
    #[allow(unused_mut)]
    let mut x = x;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: an empty asm block that only "modifies" the register holding `x`: no memory, stack
    // or flags are touched.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// All ones when `a > b`, else zero (keys are below 2^16, so the borrow fills the high half).
#[inline(always)]
fn greater_mask(a: u16, b: u16) -> u16 {
    (opaque((b as u64).wrapping_sub(a as u64)) >> 48) as u16
}

/// The points of a category: the holder of the higher key scores his value; equal keys, nobody.
#[inline(always)]
fn pick(ke: u16, kd: u16, ve: u16, vd: u16) -> [u16; 2] {
    [ve & greater_mask(ke, kd), vd & greater_mask(kd, ke)]
}

/// Both players' declaration points from two hand summaries, without branches on the data.
#[inline(always)]
pub(crate) fn points_of(e: &Summary, d: &Summary, reckoning: bool) -> [i16; 2] {
    // Category by category, cumulative (reckoning order).
    let e1 = CARTE_BLANCHE_POINTS * e.carte_blanche as u16;
    let d1 = CARTE_BLANCHE_POINTS * d.carte_blanche as u16;
    let [pe, pd] = pick(e.point_key, d.point_key, e.point_key >> 7, d.point_key >> 7);
    let [se, sd] = pick(e.seq_key as u16, d.seq_key as u16, e.seq_value, d.seq_value);
    let [te, td] = pick(e.set_key as u16, d.set_key as u16, e.set_value, d.set_value);
    let (e2, d2) = (e1.wrapping_add(pe), d1.wrapping_add(pd));
    let (e3, d3) = (e2.wrapping_add(se), d2.wrapping_add(sd));
    let (e4, d4) = (e3.wrapping_add(te), d3.wrapping_add(td));
    let t = PIQUE_THRESHOLD;
    // Russian: the totals. Rubicon: some category end where one has 30 and the other 0 (the
    // opponent's count only grows, so "at the first such end" and "at any end" agree).
    let last_e = (e4 >= t) & (d4 == 0);
    let last_d = (d4 >= t) & (e4 == 0);
    let (rep_e, rep_d) = if reckoning {
        (
            last_e | ((e3 >= t) & (d3 == 0)) | ((e2 >= t) & (d2 == 0)) | ((e1 >= t) & (d1 == 0)),
            last_d | ((d3 >= t) & (e3 == 0)) | ((d2 >= t) & (e2 == 0)) | ((d1 >= t) & (e1 == 0)),
        )
    } else {
        (last_e, last_d)
    };
    [e4.wrapping_add(REPIQUE_BONUS * rep_e as u16) as i16, d4.wrapping_add(REPIQUE_BONUS * rep_d as u16) as i16]
}

/// The declaration scorer with the rules compiled once (a 2 KB lane table):
/// [`DeclarationScorer::points`] is the allocation-free fast path (four table lookups per hand)
/// used by the batch functions.
///
/// ```
/// use cribpiquet::piquet::{DeclarationScorer, Rules};
/// let scorer = DeclarationScorer::new(&Rules::russian());
/// let elder = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let dealer = "7H 8H 9C TC JC QC KD QD JD 8S 9S TS".parse().unwrap();
/// assert_eq!(scorer.points(elder, dealer), [96, 0]);
/// ```
#[derive(Debug, Clone)]
pub struct DeclarationScorer {
    compiled: Compiled,
}

impl DeclarationScorer {
    /// Compile the rules (unvalidated rules are accepted; totals then wrap rather than panic).
    pub fn new(rules: &Rules) -> DeclarationScorer {
        DeclarationScorer { compiled: Compiled::new(rules) }
    }

    /// Each player's declaration points, repique included, carte blanche judged on these hands.
    ///
    /// The hands must be disjoint 12-card hands for a meaningful answer; other masks give a
    /// meaningless number, never a panic.
    #[inline(always)]
    pub fn points(&self, elder: Hand, dealer: Hand) -> [i16; 2] {
        let c = &self.compiled;
        points_of(&Summary::of(elder.mask(), &c.lanes), &Summary::of(dealer.mask(), &c.lanes), c.reckoning)
    }
}

/// Each player's declaration points (carte blanche judged on these hands, repique included),
/// without checking or allocating: the same numbers as [`score_declarations`]`(…).totals`.
///
/// With the russian or rubicon sequence values this uses a static table; other values build a
/// 2 KB table per call, so for many deals build a [`DeclarationScorer`] once instead.
///
/// ```
/// use cribpiquet::piquet::{declaration_points, Rules};
/// let elder = "AH KH QH JH TH 9H AC AD AS 7C 8C 7D".parse().unwrap();
/// let dealer = "7H 8H 9C TC JC QC KD QD JD 8S 9S TS".parse().unwrap();
/// assert_eq!(declaration_points(elder, dealer, &Rules::russian()), [96, 0]);
/// ```
#[inline]
pub fn declaration_points(elder: Hand, dealer: Hand, rules: &Rules) -> [i16; 2] {
    let lanes = packed_lanes(rules);
    points_of(&Summary::of(elder.mask(), &lanes), &Summary::of(dealer.mask(), &lanes), reckoning(rules))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::piquet::declare::tests::twelve;
    use proptest::prelude::*;

    fn hand(text: &str) -> Hand {
        text.parse().unwrap()
    }

    fn score(e: &str, d: &str, rules: &Rules) -> DeclarationScore {
        score_declarations(hand(e), hand(d), rules, None, None).unwrap()
    }

    #[test]
    fn six_cards_and_a_quint_against_an_equal_quint() {
        // Source: «у одного игрока шесть карт и пять пятнадцать. У другого такие же пять
        // пятнадцать. Считаются только шесть карт.» Rules §3.3: exactly equal → nobody scores
        // any sequence (elder's extra tierce cancels too).
        let s = score("9H TH JH QH KH 7H 8C 9C TC 8D 9D 7S", "9S TS JS QS KS 7C JC QC 7D TD JD AC", &Rules::russian());
        assert_eq!(s.point, CategoryScore { winner: Some(Role::Elder), points: [6, 0] });
        assert_eq!(s.sequences, CategoryScore { winner: None, points: [0, 0] });
        assert_eq!(s.elder.sequences.len(), 2); // he held a tierce to the ten as well
        assert!(s.to_string().contains("quint to the king — equal, no sequence scores"), "{s}");
    }

    #[test]
    fn six_cards_against_a_quint() {
        // Source: «у одного игрока шесть карт, у другого квинта. Первый считает шесть, второй —
        // пятнадцать.»
        let s = score("7H 9H JH KH AH 8H 8C TC QC 8D TD 8S", "9S TS JS QS KS 7C 9C JC 7D 9D JD AC", &Rules::russian());
        assert_eq!(s.point.points, [6, 0]);
        assert_eq!(s.sequences.points, [0, 15]);
    }

    #[test]
    fn a_quart_from_the_jack_beats_a_tierce_major() {
        // Source: «терц-мажор перебивается квартой и т. п., даже от валета»; rules §3.3.
        let s = score("QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS", &Rules::russian());
        assert_eq!(s.dealer.best_sequence().unwrap().name(), "quart to the jack");
        assert_eq!(s.sequences.winner, Some(Role::Dealer));
        // He scores every sequence he holds: the quart (14) and the tierce to the queen (13).
        assert_eq!(s.sequences.points, [0, 27]);
    }

    #[test]
    fn higher_fourteens_take_all_sets() {
        // Source / rules §3.4: fourteens of aces and jacks against kings and queens → the first
        // scores 28, the second nothing.
        let s = score("AH AC AD AS JH JC JD JS 7H 8H 7C 8C", "KH KC KD KS QH QC QD QS 9H TH 9C 7D", &Rules::russian());
        assert_eq!(s.sets, CategoryScore { winner: Some(Role::Elder), points: [28, 0] });
    }

    #[test]
    fn a_higher_fourteen_carries_three_tens() {
        // Source: «Старшинство четырнадцати … дает право считать свои младшие карты — три десятки».
        let s = score("QH QC QD QS TH TC TD 7H 8H 7C 8C 7D", "AH AC AD KH KC KD JH JC JD 9H 9C 9D", &Rules::russian());
        assert_eq!(s.sets.points, [17, 0]); // fourteen queens 14 + three tens 3
        let names: Vec<&str> =
            s.items.iter().filter(|i| i.kind == DeclarationKind::Set).map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["fourteen queens", "three tens"]);
    }

    #[test]
    fn three_aces_beat_three_queens() {
        // Source: «при отсутствии четырнадцати у обоих игроков, три туза старше трех дам».
        let s = score("AH AC AD 7H 8H 9H 7C 8C 9C 7D 8D 9D", "QH QC QD KH JC 7S 8S 9S TS JS KS AS", &Rules::russian());
        assert_eq!(s.sets.points, [3, 0]);
    }

    #[test]
    fn equal_points_score_nobody() {
        // Rules §3.2: equal length → higher sum wins; still equal → nobody scores.
        let s = score("AH KH QH JH TH 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS TS 7H 8H 9H 9D TD JD AC", &Rules::russian());
        assert_eq!(s.point, CategoryScore { winner: None, points: [0, 0] });
        assert!(s.to_string().starts_with("Point of five, 51 — equal; quint major — equal, no sequence scores"), "{s}");
        // Equal length, the higher sum wins: A K Q J 9 (50) against A K Q J 8 (49).
        let s = score("AH KH QH JH 9H 7C 8C 9C 7D 8D 7S 9S", "AS KS QS JS 8S 7H 8H TH 9D TD AC JD", &Rules::russian());
        assert_eq!((s.elder.point.value, s.dealer.point.value), (50, 49));
        assert_eq!(s.point.points, [5, 0]);
    }

    #[test]
    fn carte_blanche_scores_first_for_both_and_counts_toward_repique() {
        // Rules §3.1: scored first, for either player. Both can hold one.
        let s = score("7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D", "7S 8S 9S TS AS 9D TD AD KH QH JH KC", &Rules::russian());
        assert_eq!(s.carte_blanche, CategoryScore { winner: Some(Role::Elder), points: [10, 0] });
        assert_eq!(s.items[0].kind, DeclarationKind::CarteBlanche);
    }

    #[test]
    fn repique_is_blocked_by_the_opponents_carte_blanche() {
        // Rules §4: "while the opponent scored nothing in the declarations (not even carte
        // blanche)". Source: «хотя бы и за "белые карты"».
        let elder = "AH KH QH JH TH 9H AC AD AS KC KD 8H";
        let dealer = "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS";
        let s = score(elder, dealer, &Rules::russian());
        assert!(s.dealer.carte_blanche);
        assert_eq!(s.carte_blanche.points, [0, 10]);
        // Elder: point of seven 7 + septième major 17 + fourteen aces 14 + three kings 3 = 41.
        assert_eq!(s.totals, [41, 10]);
        assert_eq!(s.repique, None);
        // Without the carte blanche (the dealer was dealt K Q J of spades and exchanged them for
        // 7 8 10 of spades) the same 41 is a repique: 101.
        let dealt = hand("7C 8C 9C TC 7D 8D 9D TD 9S KS QS JS");
        let s = score_declarations(hand(elder), hand(dealer), &Rules::russian(), None, Some(dealt)).unwrap();
        assert_eq!((s.repique, s.totals), (Some(Role::Elder), [101, 0]));
        assert!(s.to_string().ends_with("repique, 60 (elder). Elder 101, dealer 0."), "{s}");
    }

    #[test]
    fn rubicon_judges_repique_in_reckoning_order() {
        // Rules §4 rubicon: "a repique stands if the 30 is reached before the opponent has
        // anything that reckons earlier". Elder reaches 30 on point + sequences; the dealer scores
        // only for sets, which reckon later.
        let elder = "7H 8H 9H TH JH QH 7C 8C 9C TC 7D 8D";
        let dealer = "KH AH KC AC KD AD KS AS JC QC 9D JD";
        let ru = score(elder, dealer, &Rules::russian());
        // Point of six 6 + sixième to the queen 16 + quart to the ten 14 = 36; the dealer's
        // fourteen kings and fourteen aces take the sets (28).
        assert_eq!((ru.totals, ru.repique), ([36, 28], None));
        let rb = score(elder, dealer, &Rules::rubicon());
        // rubicon: 6 + 16 + 4 = 26 < 30: no repique; the dealer's sets alone (28) do not reach 30.
        assert_eq!((rb.totals, rb.repique), ([26, 28], None));
        // A deal where rubicon sequences reach 30: a huitième (18) and a tierce.
        let elder = "7H 8H 9H TH JH QH KH AH 7C 8C 9C 7D";
        let dealer = "KC AC KD AD KS AS QC QD QS JC JD 9D";
        let rb = score(elder, dealer, &Rules::rubicon());
        // Elder: point of eight 8 + huitième 18 + tierce 3 = 29... plus nothing: below 30.
        assert_eq!(rb.totals[0], 29);
        let mut r = Rules::rubicon();
        r.sequence_values[0] = 13; // mixing: russian tierce value
        let rb = score(elder, dealer, &r);
        // 8 + 18 + 13 = 39 reached before the dealer's sets (three aces, kings, queens) reckon.
        assert_eq!((rb.repique, rb.totals), (Some(Role::Elder), [99, 9]));
        r.bonus_mode = crate::piquet::BonusMode::OpponentScoredNothing;
        assert_eq!(score(elder, dealer, &r).repique, None);
    }

    #[test]
    fn dealer_may_repique() {
        // Rules §4: "Either player may score it."
        let s = score("7C 8C 9C 7D 8D 9D 7S 8S 9S 7H 8H JC", "AH KH QH JH TH 9H AC AD AS KC KD QC", &Rules::russian());
        // Elder's tierces lose to the sixième; the dealer: 6 + 16 + 14 + 3 + 3(queens? no) …
        assert_eq!(s.repique, Some(Role::Dealer));
        assert_eq!(s.totals[0], 0);
    }

    #[test]
    fn rubicon_sequence_values() {
        // Rules §3.3 table: rubicon tierce 3, quart 4.
        let s = score("QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS", "8H 9H TH JH 8C TC QC 8D TD TS JS QS", &Rules::rubicon());
        assert_eq!(s.sequences.points, [0, 7]);
    }

    #[test]
    fn bad_deals_are_errors() {
        let r = Rules::russian();
        let e = hand("AH KH QH JH TH 9H AC AD AS KC KD 8H");
        let d = hand("7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS");
        assert!(matches!(score_declarations(e, hand("7C"), &r, None, None), Err(Error::WrongCardCount { got: 1, .. })));
        let clash = hand("7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S AH");
        assert_eq!(score_declarations(e, clash, &r, None, None).unwrap_err(), Error::DuplicateCard("AH".into()));
        // A dealt hand holding a card the dealer ended with.
        let dealt = hand("AH KH QH JH TH 9H AC AD AS KC KD 7C");
        let err = score_declarations(e, d, &r, Some(dealt), None).unwrap_err();
        assert_eq!(err.to_string(), "7C was dealt to elder but is in the dealer's hand");
        // Russian elder exchanging 1 card, rubicon elder exchanging none.
        let dealt = hand("AH KH QH JH TH 9H AC AD AS KC KD 7H");
        assert!(score_declarations(e, d, &r, Some(dealt), None).is_err());
        assert!(score_declarations(e, d, &Rules::rubicon(), Some(e), None).is_err());
        assert!(score_declarations(e, d, &r, Some(e), Some(d)).is_ok());
    }

    // --- the naive reference -----------------------------------------------------------------

    /// Declarations of one hand counted the slow, obvious way from a list of (rank, suit).
    fn naive_keys(cards: &[(u8, u8)], seq_value: &dyn Fn(u32) -> u32) -> ([u32; 4], [u32; 4]) {
        // point
        let mut best_point = (0u32, 0u32);
        for suit in 0..4 {
            let in_suit: Vec<u8> = cards.iter().filter(|c| c.1 == suit).map(|c| c.0).collect();
            let values = [7, 8, 9, 10, 10, 10, 10, 11];
            let v: u32 = in_suit.iter().map(|&r| values[r as usize]).sum();
            best_point = best_point.max((in_suit.len() as u32, v));
        }
        // sequences: for every start rank and suit, extend while held; count only maximal runs.
        let held = |r: i32, s: u8| (0..8).contains(&r) && cards.contains(&(r as u8, s));
        let (mut best_seq, mut seq_total) = ((0u32, 0u32), 0u32);
        for suit in 0..4 {
            for start in 0..8i32 {
                if held(start, suit) && !held(start - 1, suit) {
                    let mut len = 0;
                    while held(start + len, suit) {
                        len += 1;
                    }
                    if len >= 3 {
                        best_seq = best_seq.max((len as u32, (start + len - 1) as u32));
                        seq_total += seq_value(len as u32);
                    }
                }
            }
        }
        // sets
        let (mut best_set, mut set_total) = ((0u32, 0u32), 0u32);
        for rank in 3..8u8 {
            let n = cards.iter().filter(|c| c.0 == rank).count() as u32;
            if n >= 3 {
                best_set = best_set.max((n, rank as u32));
                set_total += if n == 4 { 14 } else { 3 };
            }
        }
        let cb = !cards.iter().any(|c| (4..=6).contains(&c.0));
        let point_key = best_point.0 * 1000 + best_point.1;
        let seq_key = best_seq.0 * 10 + best_seq.1;
        let set_key = best_set.0 * 10 + best_set.1;
        ([cb as u32, point_key, seq_key, set_key], [10 * cb as u32, best_point.0, seq_total, set_total])
    }

    fn naive_points(e: Hand, d: Hand, rules: &Rules) -> [i16; 2] {
        let to_cards = |h: Hand| h.iter().map(|c| (c.rank(), c.suit())).collect::<Vec<_>>();
        let sv = |len: u32| rules.sequence_values[len as usize - 3] as u32;
        let (ke, ve) = naive_keys(&to_cards(e), &sv);
        let (kd, vd) = naive_keys(&to_cards(d), &sv);
        let mut cats = [[0u32; 2]; 4];
        cats[0] = [ve[0], vd[0]];
        for k in 1..4 {
            if ke[k] > kd[k] {
                cats[k][0] = ve[k];
            } else if kd[k] > ke[k] {
                cats[k][1] = vd[k];
            }
        }
        let tot = |p: usize| cats.iter().map(|c| c[p]).sum::<u32>();
        let mut totals = [tot(0), tot(1)];
        let reckoning = rules.bonus_mode == crate::piquet::BonusMode::ReckoningOrder;
        for p in 0..2 {
            let o = 1 - p;
            let repique = if reckoning {
                // Find the category where p first reaches 30; the opponent must have 0 up to it.
                let mut acc = [0u32; 2];
                let mut result = false;
                for c in &cats {
                    acc[0] += c[0];
                    acc[1] += c[1];
                    if acc[p] >= 30 {
                        result = acc[o] == 0;
                        break;
                    }
                }
                result
            } else {
                totals[p] >= 30 && totals[o] == 0
            };
            if repique {
                totals[p] += 60;
            }
        }
        [totals[0] as i16, totals[1] as i16]
    }

    fn deal() -> impl Strategy<Value = (u32, u32)> {
        Just((0..32u32).collect::<Vec<_>>()).prop_shuffle().prop_map(|v| {
            let m = |s: &[u32]| s.iter().fold(0u32, |m, &i| m | 1 << i);
            (m(&v[..12]), m(&v[12..24]))
        })
    }

    /// Deals biased toward long suits and sets, where the interesting comparisons happen.
    fn skewed_deal() -> impl Strategy<Value = (u32, u32)> {
        (any::<u64>(), 0u32..4).prop_map(|(seed, bias)| {
            let mut rng = crate::rng::Rng::new(seed);
            let mut order: Vec<u32> = (0..32).collect();
            rng.shuffle(&mut order);
            // Move the favoured suit's cards (or high ranks) to the front.
            order.sort_by_key(|&i| if bias < 2 { (i / 8 != bias) as u32 } else { (i % 8 < 3) as u32 });
            let (a, b) = order.split_at(16);
            let mut a = a.to_vec();
            rng.shuffle(&mut a);
            let mut rest: Vec<u32> = a[12..].iter().chain(b).copied().collect();
            rng.shuffle(&mut rest);
            let m = |s: &[u32]| s.iter().fold(0u32, |m, &i| m | 1 << i);
            (m(&a[..12]), m(&rest[..12]))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn fast_path_matches_the_naive_reference((e, d) in deal(), rubicon in any::<bool>()) {
            let rules = if rubicon { Rules::rubicon() } else { Rules::russian() };
            let (e, d) = (Hand::from_mask(e), Hand::from_mask(d));
            let naive = naive_points(e, d, &rules);
            prop_assert_eq!(declaration_points(e, d, &rules), naive);
            prop_assert_eq!(declaration_points(d, e, &rules), naive_points(d, e, &rules));
            let full = score_declarations(e, d, &rules, None, None).unwrap();
            prop_assert_eq!([full.totals[0] as i16, full.totals[1] as i16], naive);
            let items: u16 = full.items.iter().map(|i| i.points).sum();
            prop_assert_eq!(items, full.totals[0] + full.totals[1]);
        }

        #[test]
        fn fast_path_matches_on_skewed_deals((e, d) in skewed_deal(), rubicon in any::<bool>()) {
            let rules = if rubicon { Rules::rubicon() } else { Rules::russian() };
            let (e, d) = (Hand::from_mask(e), Hand::from_mask(d));
            prop_assert_eq!(declaration_points(e, d, &rules), naive_points(e, d, &rules));
        }

        #[test]
        fn fast_path_never_panics(e in any::<u32>(), d in any::<u32>(), v in any::<[u16; 6]>()) {
            let mut rules = Rules::russian();
            rules.sequence_values = v;
            let _ = declaration_points(Hand::from_mask(e), Hand::from_mask(d), &rules);
        }

        #[test]
        fn twelve_card_masks_are_twelve(m in twelve()) {
            prop_assert_eq!(m.count_ones(), 12);
        }
    }
}
