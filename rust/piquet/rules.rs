//! The rule sets: Russian piquet (the default, from the source) and English Rubicon piquet.
//!
//! Every number or procedure that differs between the two is one public field of [`Rules`], so a
//! user can mix them; numbers the two share are the constants of this module. Each field is
//! described once, in [`RULE_FIELDS`] (name, kind, state-text key, how to read and set it), which
//! the state text, the Python class and the stub check all read. The players' roles
//! in a deal ([`Role`]) and the legality of a deal and of an exchange under the rules (rules §2)
//! are here too, below everything that scores.

use std::fmt;

use super::card::{check_twelve, Hand};
use crate::error::{Error, Result};
use crate::names::named_enum;

/// Carte blanche («белые карты»): a dealt hand with no king, queen or jack scores 10 (rules §3.1).
pub const CARTE_BLANCHE_POINTS: u16 = 10;
/// A set of four ten-or-higher cards («четырнадцать») scores 14 (rules §3.4).
pub const FOURTEEN_POINTS: u16 = 14;
/// A set of three ten-or-higher cards scores 3 (rules §3.4).
pub const TRIO_POINTS: u16 = 3;
/// Repique adds 60 (the count jumps 30 → 90, rules §4).
pub const REPIQUE_BONUS: u16 = 60;
/// Pique adds 30 (the count jumps 30 → 60, rules §4).
pub const PIQUE_BONUS: u16 = 30;
/// The count at which pique and repique are reached (rules §4).
pub const PIQUE_THRESHOLD: u16 = 30;
/// Leza (more than six tricks, rubicon "the cards") scores 10 (rules §5).
pub const LEZA_BONUS: u16 = 10;
/// The bonus added to a korolik, partiya or partie difference (rules §6).
pub const MATCH_BONUS: u64 = 100;
/// Сквозная запись: the bonus for the opponent of a player who wrote nothing in a partiya (§6).
pub const THROUGH_RECORD_BONUS: u64 = 100;
/// In rubicon a loser under this total is "rubiconed" (rules §6).
pub const RUBICON_LIMIT: u64 = 100;
/// The most points a match may hold: the sum of every difference written in a partiya, or of both
/// totals of a partie (2**62, so every record and total derived from them fits a `u64`). More is
/// an error naming the input, never a silently saturated total.
pub const MAX_MATCH_POINTS: u64 = 1 << 62;
/// The largest value accepted for any single rule number, so totals always fit an `i16`.
pub const MAX_RULE_VALUE: u16 = 1000;

/// `parse()` for the rule enums: the value of a name, or an error listing the names.
macro_rules! parse_by_name {
    ($($t:ident),*) => {$(
        impl $t {
            /// The value with this [`name`](Self::name).
            pub fn parse(name: &str) -> Result<$t> {
                $t::by_name(name).ok_or_else(|| {
                    Error::InvalidValue(format!(
                        concat!("unknown ", stringify!($t), " {:?} (expected one of: {})"),
                        name,
                        $t::NAMES.join(", ")
                    ))
                })
            }
        }
    )*};
}

parse_by_name!(TrickScoring, DeclarationTiming, BonusMode, MatchScoring, Rounding, SilenceCovers);

named_enum! {
    /// How leads and tricks score in the play (rules §5).
    ///
    /// ```
    /// use cribpiquet::piquet::TrickScoring;
    /// assert_eq!(TrickScoring::parse("every-lead-and-trick").unwrap(), TrickScoring::EveryLeadAndTrick);
    /// assert_eq!(TrickScoring::LeadOrWinOpponentsLead.name(), "lead-or-win-opponents-lead");
    /// assert!(TrickScoring::parse("whist").unwrap_err().to_string().starts_with("unknown TrickScoring \"whist\""));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum TrickScoring {
        /// russian: 1 for every lead and 1 for every trick won (a player who leads and wins scores 2).
        EveryLeadAndTrick => "every-lead-and-trick",
        /// rubicon: 1 for leading, and 1 for winning a trick only when the opponent led it.
        LeadOrWinOpponentsLead => "lead-or-win-opponents-lead",
    }
}

named_enum! {
    /// When the dealer's (younger hand's) declarations are recorded (rules §3).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum DeclarationTiming {
        /// russian: both players declare everything before the first lead.
        BeforeFirstLead => "before-first-lead",
        /// rubicon: the dealer's declarations are recorded after elder's first lead (they still
        /// reckon before the play for pique and repique). This changes only the order of a game log.
        DealerAfterFirstLead => "dealer-after-first-lead",
    }
}

named_enum! {
    /// How pique and repique decide whether the opponent "has scored" (rules §4).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum BonusMode {
        /// russian: repique needs the opponent to score nothing at all in the declarations (not even
        /// carte blanche); pique needs the dealer to have scored nothing at all.
        OpponentScoredNothing => "opponent-scored-nothing",
        /// rubicon: judged in reckoning order (carte blanche, point, sequences, sets, then play): a
        /// bonus stands if the 30 is reached before the opponent has anything that reckons earlier.
        ReckoningOrder => "reckoning-order",
    }
}

named_enum! {
    /// How games are combined into a match (rules §6).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum MatchScoring {
        /// russian: game differences, koroliks of two games, a partiya of
        /// [`Rules::koroliks_per_partiya`] koroliks (see [`Partiya`](super::Partiya)).
        Partiya => "partiya",
        /// rubicon: a partie of [`Rules::deals_per_partie`] deals with cumulative scores (see
        /// [`Partie`](super::Partie)).
        Partie => "partie",
    }
}

named_enum! {
    /// Which play points «молчанка» takes from the offender and doubles for his opponent (rules §7).
    ///
    /// The source: the silent player «не считает своих взяток, противник считает свои вдвойне» — "does
    /// not count his tricks, his opponent counts his double".
    ///
    /// ```
    /// use cribpiquet::piquet::{Rules, SilenceCovers};
    /// assert_eq!(Rules::russian().silence_covers, SilenceCovers::Play);
    /// assert_eq!(SilenceCovers::parse("tricks").unwrap(), SilenceCovers::Tricks);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum SilenceCovers {
        /// Every play point: leads, tricks, the last trick, leza and capot (*decision*, the default in
        /// both rule sets: in this game a lead and a trick score alike).
        Play => "play",
        /// The literal reading, tricks only: every point won with tricks (trick points, the last
        /// trick with its extra, leza and capot); the offender's leads still score, and the
        /// opponent's leads are not doubled.
        Tricks => "tricks",
    }
}

impl SilenceCovers {
    /// Does «молчанка» cover points of this kind? `lead` is true for the point of a lead.
    #[inline]
    pub fn covers(self, lead: bool) -> bool {
        !(lead && self == SilenceCovers::Tricks)
    }
}

named_enum! {
    /// How match records are rounded (rules §6).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Rounding {
        /// russian: to tens, halves up ("последняя цифра округляется": 115 → 120, 114 → 110).
        HalfUpToTens => "half-up-to-tens",
        /// rubicon: no rounding.
        Exact => "exact",
    }
}

impl Rounding {
    /// Apply this rounding to a record; `None` if rounding up would pass `u64::MAX`.
    ///
    /// ```
    /// use cribpiquet::piquet::Rounding;
    /// assert_eq!(Rounding::HalfUpToTens.apply(115), Some(120));
    /// assert_eq!(Rounding::Exact.apply(115), Some(115));
    /// assert_eq!(Rounding::HalfUpToTens.apply(u64::MAX), None);
    /// ```
    pub fn apply(self, x: u64) -> Option<u64> {
        match self {
            Rounding::HalfUpToTens => Some(x.checked_add(5)? / 10 * 10),
            Rounding::Exact => Some(x),
        }
    }
}

/// How many talon cards a player may exchange (rules §2).
///
/// ```
/// use cribpiquet::piquet::Rules;
/// let r = Rules::russian();
/// // Elder: none, or 3 to 5 of his 5.
/// assert!(r.elder_exchange.allows(0, 5) && r.elder_exchange.allows(3, 5) && !r.elder_exchange.allows(2, 5));
/// // Rubicon elder must exchange at least one card.
/// assert!(!Rules::rubicon().elder_exchange.allows(0, 5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExchangeLimits {
    /// The fewest cards that may be taken when the player exchanges at all.
    pub min: u8,
    /// The most cards that may be taken (also capped by what is left of the talon).
    pub max: u8,
    /// May the player decline to exchange (take none)?
    pub may_decline: bool,
}

impl ExchangeLimits {
    /// May the player take `n` cards when `available` are left in the talon?
    pub fn allows(self, n: u8, available: u8) -> bool {
        (n == 0 && self.may_decline) || (n >= self.min && n <= self.max && n <= available)
    }
}

/// One rule set. Build it with [`Rules::russian`] (the default) or [`Rules::rubicon`] and
/// change fields to mix; [`Rules::validate`] rejects nonsense.
///
/// ```
/// use cribpiquet::piquet::Rules;
/// let mut r = Rules::russian();
/// r.koroliks_per_partiya = 3; // the source's worked example
/// assert!(r.validate().is_ok());
/// assert_eq!(Rules::default(), Rules::russian());
/// assert_eq!(Rules::rubicon().sequence_values, [3, 4, 15, 16, 17, 18]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Points for a sequence of 3, 4, 5, 6, 7, 8 cards (rules §3.3). russian «три тринадцать» …
    /// «восемь восемнадцать»: 13..18; rubicon 3, 4, 15, 16, 17, 18.
    pub sequence_values: [u16; 6],
    /// Points for leads and tricks (rules §5).
    pub trick_scoring: TrickScoring,
    /// Extra points for winning the last trick (rules §5): russian 3 (it counts 4 instead of 1),
    /// rubicon 1.
    pub last_trick_extra: u16,
    /// Points for winning all 12 tricks (rules §5): 40 in both.
    pub capot_bonus: u16,
    /// Whether the last-trick extra still counts with a capot (rules §5): russian no (the capot
    /// is "40 instead of the last-trick extra and the leza"), rubicon yes. The leza (the cards)
    /// never counts with a capot.
    pub capot_keeps_last_trick_extra: bool,
    /// Open capot (rules §5): announced before the first lead and made, it scores this instead of
    /// [`capot_bonus`](Rules::capot_bonus). russian `Some(80)`; rubicon `None` (no open capot).
    pub open_capot_bonus: Option<u16>,
    /// Elder's exchange (rules §2): russian none or 3 to 5; rubicon 1 to 5, compulsory.
    pub elder_exchange: ExchangeLimits,
    /// The dealer's exchange of what elder left (rules §2): russian none or 3 to 5; rubicon none
    /// or 1 up to all that is left.
    pub dealer_exchange: ExchangeLimits,
    /// When the dealer's declarations are recorded (rules §3).
    pub declaration_timing: DeclarationTiming,
    /// How pique and repique judge the opponent's score (rules §4).
    pub bonus_mode: BonusMode,
    /// Do the dealer's play points block elder's pique (rules §4)? russian `false`: only the
    /// dealer's declaration points block it («когда второй игрок на хвалеже не имеет ни одного
    /// очка»), so tricks the dealer wins before elder reaches 30 do not; rubicon `true`: the dealer
    /// must have scored nothing at all, play included.
    pub pique_blocked_by_play: bool,
    /// What «молчанка» covers (rules §7): every play point (the default) or tricks only.
    pub silence_covers: SilenceCovers,
    /// How games make a match (rules §6).
    pub match_scoring: MatchScoring,
    /// Koroliks in a partiya (rules §6, *decision*: a parameter, default 2; the source's worked
    /// example uses 3).
    pub koroliks_per_partiya: u8,
    /// Deals in a rubicon partie (rules §6): 6.
    pub deals_per_partie: u8,
    /// How match records are rounded (rules §6).
    pub rounding: Rounding,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::russian()
    }
}

impl Rules {
    /// Russian piquet as in the source (the default).
    ///
    /// ```
    /// let r = cribpiquet::piquet::Rules::russian();
    /// assert_eq!((r.sequence_values[0], r.last_trick_extra, r.open_capot_bonus), (13, 3, Some(80)));
    /// ```
    pub const fn russian() -> Rules {
        Rules {
            sequence_values: [13, 14, 15, 16, 17, 18],
            trick_scoring: TrickScoring::EveryLeadAndTrick,
            last_trick_extra: 3,
            capot_bonus: 40,
            capot_keeps_last_trick_extra: false,
            open_capot_bonus: Some(80),
            elder_exchange: ExchangeLimits { min: 3, max: 5, may_decline: true },
            dealer_exchange: ExchangeLimits { min: 3, max: 5, may_decline: true },
            declaration_timing: DeclarationTiming::BeforeFirstLead,
            bonus_mode: BonusMode::OpponentScoredNothing,
            pique_blocked_by_play: false,
            silence_covers: SilenceCovers::Play,
            match_scoring: MatchScoring::Partiya,
            koroliks_per_partiya: 2,
            deals_per_partie: 6,
            rounding: Rounding::HalfUpToTens,
        }
    }

    /// English Rubicon piquet.
    ///
    /// ```
    /// let r = cribpiquet::piquet::Rules::rubicon();
    /// assert_eq!((r.sequence_values[0], r.last_trick_extra, r.open_capot_bonus), (3, 1, None));
    /// ```
    pub const fn rubicon() -> Rules {
        Rules {
            sequence_values: [3, 4, 15, 16, 17, 18],
            trick_scoring: TrickScoring::LeadOrWinOpponentsLead,
            last_trick_extra: 1,
            capot_bonus: 40,
            capot_keeps_last_trick_extra: true,
            open_capot_bonus: None,
            elder_exchange: ExchangeLimits { min: 1, max: 5, may_decline: false },
            dealer_exchange: ExchangeLimits { min: 1, max: 8, may_decline: true },
            declaration_timing: DeclarationTiming::DealerAfterFirstLead,
            bonus_mode: BonusMode::ReckoningOrder,
            pique_blocked_by_play: true,
            silence_covers: SilenceCovers::Play,
            match_scoring: MatchScoring::Partie,
            koroliks_per_partiya: 2,
            deals_per_partie: 6,
            rounding: Rounding::Exact,
        }
    }

    /// The rule set named `"russian"` or `"rubicon"`.
    ///
    /// ```
    /// use cribpiquet::piquet::Rules;
    /// assert_eq!(Rules::named("rubicon").unwrap(), Rules::rubicon());
    /// assert!(Rules::named("whist").is_err());
    /// ```
    pub fn named(name: &str) -> Result<Rules> {
        match name {
            "russian" => Ok(Rules::russian()),
            "rubicon" => Ok(Rules::rubicon()),
            _ => {
                Err(Error::InvalidValue(format!("unknown piquet rules {name:?} (expected \"russian\" or \"rubicon\")")))
            }
        }
    }

    /// The points of a sequence of `length` cards (0 for fewer than 3).
    ///
    /// ```
    /// assert_eq!(cribpiquet::piquet::Rules::russian().sequence_value(5), 15);
    /// ```
    #[inline]
    pub fn sequence_value(&self, length: u8) -> u16 {
        match length {
            3..=8 => self.sequence_values[length as usize - 3],
            _ => 0,
        }
    }

    /// Reject nonsense: any number above [`MAX_RULE_VALUE`], exchange limits that cannot be met
    /// (min 0, min > max, elder taking more than his 5, the dealer more than 8), a partiya of no
    /// koroliks or a partie of no deals (or more than 100 of either).
    ///
    /// ```
    /// use cribpiquet::piquet::Rules;
    /// let mut r = Rules::russian();
    /// r.koroliks_per_partiya = 0;
    /// assert_eq!(r.validate().unwrap_err().to_string(), "koroliks_per_partiya must be 1..=100, got 0");
    /// ```
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidValue(msg));
        for (i, &v) in self.sequence_values.iter().enumerate() {
            if v > MAX_RULE_VALUE {
                return bad(format!(
                    "sequence_values[{i}] (a sequence of {}) must be at most {MAX_RULE_VALUE}, got {v}",
                    i + 3
                ));
            }
        }
        for (name, v) in [
            ("last_trick_extra", self.last_trick_extra),
            ("capot_bonus", self.capot_bonus),
            ("open_capot_bonus", self.open_capot_bonus.unwrap_or(0)),
        ] {
            if v > MAX_RULE_VALUE {
                return bad(format!("{name} must be at most {MAX_RULE_VALUE}, got {v}"));
            }
        }
        for (name, limits, most) in
            [("elder_exchange", self.elder_exchange, 5), ("dealer_exchange", self.dealer_exchange, 8)]
        {
            if limits.min == 0 || limits.min > limits.max || limits.max > most {
                return bad(format!(
                    "{name} must have 1 <= min <= max <= {most}, got min {} and max {}",
                    limits.min, limits.max
                ));
            }
        }
        if !(1..=100).contains(&self.koroliks_per_partiya) {
            return bad(format!("koroliks_per_partiya must be 1..=100, got {}", self.koroliks_per_partiya));
        }
        if !(1..=100).contains(&self.deals_per_partie) {
            return bad(format!("deals_per_partie must be 1..=100, got {}", self.deals_per_partie));
        }
        Ok(())
    }
}

/// The kind of a rule field: the values it takes (the ranges are what a binding accepts;
/// [`Rules::validate`] judges the whole rule set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// Six numbers `0..=`[`MAX_RULE_VALUE`], one per sequence length 3..8.
    Numbers,
    /// A number `0..=max`.
    Number {
        /// The largest value.
        max: u16,
    },
    /// A number `0..=max`, or none.
    OptionalNumber {
        /// The largest value.
        max: u16,
    },
    /// Yes or no.
    Flag,
    /// One of these names.
    Name(&'static [&'static str]),
    /// Exchange limits: min and max `0..=8`, and whether the player may decline.
    Limits,
}

/// The value of a rule field (a name borrowed when it is read from input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleValue<'a> {
    /// Of [`RuleKind::Numbers`].
    Numbers([u16; 6]),
    /// Of [`RuleKind::Number`].
    Number(u16),
    /// Of [`RuleKind::OptionalNumber`].
    OptionalNumber(Option<u16>),
    /// Of [`RuleKind::Flag`].
    Flag(bool),
    /// Of [`RuleKind::Name`].
    Name(&'a str),
    /// Of [`RuleKind::Limits`].
    Limits(ExchangeLimits),
}

/// One field of [`Rules`], described once: [`RULE_FIELDS`] drives the state text
/// (`piquet/1 rules=…`), the Python getters, `replace`, `as_dict`, `repr` and the stub check. The
/// default of a field is its value in [`Rules::russian`].
///
/// ```
/// use cribpiquet::piquet::{rule_field, RuleValue, Rules};
/// let f = rule_field("koroliks_per_partiya").unwrap();
/// let mut r = Rules::russian();
/// (f.set)(&mut r, RuleValue::Number(3)).unwrap();
/// assert_eq!(((f.get)(&r), f.key), (RuleValue::Number(3), "koroliks"));
/// assert!((f.set)(&mut r, RuleValue::Flag(true)).is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RuleField {
    /// The field's name (the Rust field, the Python attribute).
    pub name: &'static str,
    /// Its key in a state text.
    pub key: &'static str,
    /// Its place in a state text (the text keeps the order of format `piquet/1`).
    pub text_position: usize,
    /// The values it takes.
    pub kind: RuleKind,
    /// What it means, in one line (the Python getter's docstring).
    pub doc: &'static str,
    /// Read it.
    pub get: fn(&Rules) -> RuleValue<'static>,
    /// Store a value of its kind (a name parsed, a number narrowed to the field's type); an error
    /// for an unknown name or a value of another kind.
    pub set: fn(&mut Rules, RuleValue<'_>) -> Result<()>,
}

/// A Rust field type a rule field holds, and its [`RuleValue`].
trait FieldType: Sized {
    fn value(self) -> RuleValue<'static>;
    fn from_value(v: RuleValue<'_>) -> Option<Result<Self>>;
}

macro_rules! field_type {
    ($($t:ty: $variant:ident($x:ident) => $to:expr, $from:expr;)*) => {$(
        impl FieldType for $t {
            fn value(self) -> RuleValue<'static> {
                let $x = self;
                RuleValue::$variant($to)
            }
            fn from_value(v: RuleValue<'_>) -> Option<Result<Self>> {
                match v {
                    RuleValue::$variant($x) => Some($from),
                    _ => None,
                }
            }
        }
    )*};
}

field_type! {
    [u16; 6]: Numbers(x) => x, Ok(x);
    u16: Number(x) => x, Ok(x);
    u8: Number(x) => x as u16, Ok(x.min(255) as u8);
    Option<u16>: OptionalNumber(x) => x, Ok(x);
    bool: Flag(x) => x, Ok(x);
    ExchangeLimits: Limits(x) => x, Ok(x);
    TrickScoring: Name(x) => x.name(), Self::parse(x);
    DeclarationTiming: Name(x) => x.name(), Self::parse(x);
    BonusMode: Name(x) => x.name(), Self::parse(x);
    MatchScoring: Name(x) => x.name(), Self::parse(x);
    Rounding: Name(x) => x.name(), Self::parse(x);
    SilenceCovers: Name(x) => x.name(), Self::parse(x);
}

/// [`RULE_FIELDS`] from one line per field: `name "key" text position, kind, doc`.
macro_rules! rule_fields {
    ($($name:ident $key:literal $pos:literal, $kind:expr, $doc:literal;)*) => {
        /// Every field of [`Rules`], in the order of the Python API (`as_dict`, `repr`).
        pub const RULE_FIELDS: &[RuleField] = &[$(RuleField {
            name: stringify!($name),
            key: $key,
            text_position: $pos,
            kind: $kind,
            doc: $doc,
            get: |r| FieldType::value(r.$name),
            set: |r, v| {
                let kind = stringify!($name);
                r.$name = FieldType::from_value(v)
                    .ok_or_else(|| Error::InvalidValue(format!("{v:?} is not a value of rule {kind}")))??;
                Ok(())
            },
        }),*];
    };
}

const NUMBER: RuleKind = RuleKind::Number { max: MAX_RULE_VALUE };
const COUNT: RuleKind = RuleKind::Number { max: 255 };

rule_fields! {
    sequence_values "seq" 0, RuleKind::Numbers,
        "Sequence values by length 3..8 (russian 13..18; rubicon 3, 4, 15..18).";
    trick_scoring "trick" 1, RuleKind::Name(&TrickScoring::NAMES),
        "``\"every-lead-and-trick\"`` (russian) or rubicon's lead-or-win-on-opponent's-lead scoring.";
    last_trick_extra "last" 2, NUMBER,
        "Extra points for the last trick (russian 3, so it counts 4; rubicon 1).";
    capot_bonus "capot" 3, NUMBER,
        "The capot bonus (40 in both).";
    capot_keeps_last_trick_extra "keep" 4, RuleKind::Flag,
        "Whether the last-trick extra still counts with a capot (rubicon yes, russian no).";
    open_capot_bonus "open" 5, RuleKind::OptionalNumber { max: MAX_RULE_VALUE },
        "The bonus for an announced (\"open\") capot made (russian 80), or None where not allowed.";
    elder_exchange "elder" 6, RuleKind::Limits,
        "Elder's exchange limits ``(min, max, may_decline)``: russian (3, 5, True), rubicon (1, 5, False).";
    dealer_exchange "dealer" 7, RuleKind::Limits,
        "The dealer's exchange limits ``(min, max, may_decline)``.";
    declaration_timing "timing" 8, RuleKind::Name(&DeclarationTiming::NAMES),
        "When the dealer's declarations are recorded (russian before the first lead).";
    bonus_mode "bonus" 9, RuleKind::Name(&BonusMode::NAMES),
        "How pique/repique judge that the opponent \"has scored\".";
    pique_blocked_by_play "pique" 14, RuleKind::Flag,
        "Do the dealer's play points block elder's pique? russian False (only his declarations\n\
         do), rubicon True (he must have scored nothing at all). Rules §4.";
    silence_covers "silence" 15, RuleKind::Name(&SilenceCovers::NAMES),
        "What «молчанка» (``score_game(..., silent=)``) covers: ``\"play\"`` (every play point, the\n\
         default) or ``\"tricks\"`` (the literal reading: the offender's leads still score). Rules §7.";
    match_scoring "match" 10, RuleKind::Name(&MatchScoring::NAMES),
        "``\"partiya\"`` (russian koroliks) or ``\"partie\"`` (rubicon, 6 deals).";
    koroliks_per_partiya "koroliks" 11, COUNT,
        "Koroliks in a partiya (default 2).";
    deals_per_partie "deals" 12, COUNT,
        "Deals in a rubicon partie (6).";
    rounding "rounding" 13, RuleKind::Name(&Rounding::NAMES),
        "How match records are rounded (russian to tens, halves up).";
}

/// The field of [`RULE_FIELDS`] named `name`.
pub fn rule_field(name: &str) -> Option<&'static RuleField> {
    RULE_FIELDS.iter().find(|f| f.name == name)
}

named_enum! {
    /// A player's role in one deal: elder or the dealer. (Seats are 0 and 1; which seat holds which
    /// role changes with the deal, see the game engine.)
    ///
    /// ```
    /// use cribpiquet::piquet::Role;
    /// assert_eq!(Role::Elder.other(), Role::Dealer);
    /// assert_eq!((Role::Elder.index(), Role::Dealer.to_string()), (0, "dealer".to_string()));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Role {
        /// The dealer's opponent («противник»), who exchanges first and leads first. Index 0.
        Elder = 0 => "elder",
        /// The dealer (younger hand). Index 1.
        Dealer = 1 => "dealer",
    }
}

impl Role {
    /// Both players, elder first.
    pub const BOTH: [Role; 2] = Role::ALL;

    /// 0 for elder, 1 for the dealer (the index into every `[_; 2]` of this module).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub fn other(self) -> Role {
        match self {
            Role::Elder => Role::Dealer,
            Role::Dealer => Role::Elder,
        }
    }

    /// The player named `"elder"` or `"dealer"`.
    ///
    /// ```
    /// use cribpiquet::piquet::Role;
    /// assert_eq!(Role::parse("dealer").unwrap(), Role::Dealer);
    /// assert!(Role::parse("younger").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Role> {
        Role::by_name(name)
            .ok_or_else(|| Error::InvalidValue(format!("unknown role {name:?} (expected \"elder\" or \"dealer\")")))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Check a deal: two disjoint 12-card hands, and, when given, dealt hands consistent with them
/// and with the exchange limits of the rules (rules §2).
pub(crate) fn check_deal(
    elder: Hand,
    dealer: Hand,
    rules: &Rules,
    elder_dealt: Option<Hand>,
    dealer_dealt: Option<Hand>,
) -> Result<()> {
    rules.validate()?;
    check_twelve(elder, "hand")?;
    check_twelve(dealer, "hand")?;
    if let Some(card) = elder.intersection(dealer).iter().next() {
        return Err(Error::DuplicateCard(card.to_string()));
    }
    let mut elder_taken = None;
    if let Some(dealt) = elder_dealt {
        check_twelve(dealt, "dealt hand")?;
        if let Some(card) = dealt.intersection(dealer).iter().next() {
            return Err(Error::Illegal(format!("{card} was dealt to elder but is in the dealer's hand")));
        }
        elder_taken = Some(check_exchange(elder, dealt, Some(Role::Elder), rules, 0)?);
    }
    if let Some(dealt) = dealer_dealt {
        check_twelve(dealt, "dealt hand")?;
        if let Some(card) = dealt.intersection(elder).iter().next() {
            return Err(Error::Illegal(format!("{card} was dealt to the dealer but is in elder's hand")));
        }
        if let Some(card) = elder_dealt.and_then(|e| e.intersection(dealt).iter().next()) {
            return Err(Error::DuplicateCard(card.to_string()));
        }
        check_exchange(dealer, dealt, Some(Role::Dealer), rules, elder_taken.unwrap_or(0))?;
    }
    Ok(())
}

/// Check that the 12 cards `kept` can come from the 12 cards `dealt` by an exchange the rules allow
/// (rules §2) to `role` — `None`: to either player, as far as one hand can tell — and return the
/// number of talon cards taken. `elder_took`: what elder took before a dealer's exchange.
pub(crate) fn check_exchange(kept: Hand, dealt: Hand, role: Option<Role>, rules: &Rules, elder_took: u8) -> Result<u8> {
    let taken = kept.difference(dealt).len() as u8;
    let elder_ok = rules.elder_exchange.allows(taken, 5);
    // The dealer's share is what elder left: at most 8 less the fewest cards elder may take.
    let dealer_ok = |took: u8| rules.dealer_exchange.allows(taken, 8u8.saturating_sub(took));
    let ok = match role {
        Some(Role::Elder) => elder_ok,
        Some(Role::Dealer) => dealer_ok(elder_took),
        None => {
            let fewest = if rules.elder_exchange.may_decline { 0 } else { rules.elder_exchange.min };
            elder_ok || dealer_ok(fewest)
        }
    };
    if ok {
        return Ok(taken);
    }
    Err(Error::Illegal(match role {
        Some(Role::Elder) => format!("elder cannot exchange {taken} cards under these rules"),
        Some(Role::Dealer) => format!("the dealer cannot exchange {taken} cards under these rules"),
        None => format!(
            "the hand cannot come from the dealt hand: it holds {taken} cards that were not dealt, and no \
             exchange of {taken} cards is allowed under these rules"
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_rule_sets_are_valid_and_differ_where_the_rules_say() {
        let (ru, rb) = (Rules::russian(), Rules::rubicon());
        ru.validate().unwrap();
        rb.validate().unwrap();
        // §3.3 table.
        assert_eq!(ru.sequence_values, [13, 14, 15, 16, 17, 18]);
        assert_eq!(rb.sequence_values, [3, 4, 15, 16, 17, 18]);
        // §5: last trick russian 4 instead of 1 (+3), rubicon +1; open capot russian only.
        assert_eq!((ru.last_trick_extra, rb.last_trick_extra), (3, 1));
        assert_eq!((ru.open_capot_bonus, rb.open_capot_bonus), (Some(80), None));
        // §2: russian elder none or 3..5; rubicon elder must take 1..5; rubicon dealer may decline.
        assert!(ru.elder_exchange.allows(5, 5) && !ru.elder_exchange.allows(6, 8));
        assert!(rb.elder_exchange.allows(1, 5) && !rb.elder_exchange.allows(0, 5));
        assert!(rb.dealer_exchange.allows(0, 3) && rb.dealer_exchange.allows(7, 7) && !rb.dealer_exchange.allows(4, 3));
        // Russian dealer after elder took 5: none or exactly the 3 left.
        assert!(
            ru.dealer_exchange.allows(3, 3) && !ru.dealer_exchange.allows(4, 3) && !ru.dealer_exchange.allows(2, 3)
        );
        // §4 (revised): in russian only the dealer's declarations block the pique.
        assert!(!ru.pique_blocked_by_play && rb.pique_blocked_by_play);
        // §7: молчанка covers every play point unless the tricks-only option is chosen.
        assert_eq!((ru.silence_covers, rb.silence_covers), (SilenceCovers::Play, SilenceCovers::Play));
        // §6 decision: a partiya is 2 koroliks by default.
        assert_eq!(ru.koroliks_per_partiya, 2);
    }

    #[test]
    fn enum_names_round_trip() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            name: fn(T) -> &'static str,
            parse: fn(&str) -> Result<T>,
        ) {
            for &v in all {
                assert_eq!(parse(name(v)).unwrap(), v);
            }
            assert!(parse("").is_err());
        }
        check(&TrickScoring::ALL, TrickScoring::name, TrickScoring::parse);
        check(&DeclarationTiming::ALL, DeclarationTiming::name, DeclarationTiming::parse);
        check(&BonusMode::ALL, BonusMode::name, BonusMode::parse);
        check(&MatchScoring::ALL, MatchScoring::name, MatchScoring::parse);
        check(&Rounding::ALL, Rounding::name, Rounding::parse);
        check(&SilenceCovers::ALL, SilenceCovers::name, SilenceCovers::parse);
    }

    /// The stub's `PiquetRules` properties (python/cribpiquet/_core.pyi) are the table's fields, in
    /// its order, each typed as its kind says.
    #[test]
    fn the_stub_lists_the_rule_fields() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/cribpiquet/_core.pyi");
        let Ok(stub) = std::fs::read_to_string(path) else { return };
        let class = stub.split("\nclass PiquetRules:").nth(1).expect("class PiquetRules in the stub");
        let class = class.split("\n@final").next().unwrap();
        let properties: Vec<(&str, &str)> = class
            .split("@property\n    def ")
            .skip(1)
            .map(|p| {
                let (name, rest) = p.split_once("(self) -> ").unwrap();
                (name, rest.split_once(": ...").unwrap().0)
            })
            .collect();
        let names: Vec<&str> = properties.iter().map(|p| p.0).collect();
        assert_eq!(names, RULE_FIELDS.iter().map(|f| f.name).collect::<Vec<_>>());
        for (f, (_, ty)) in RULE_FIELDS.iter().zip(&properties) {
            let ok = match f.kind {
                RuleKind::Numbers => *ty == "tuple[int, int, int, int, int, int]",
                RuleKind::Number { .. } => *ty == "int",
                RuleKind::OptionalNumber { .. } => *ty == "Optional[int]",
                RuleKind::Flag => *ty == "bool",
                RuleKind::Limits => *ty == "tuple[int, int, bool]",
                RuleKind::Name(names) => {
                    let literal = names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ");
                    *ty == "str" || *ty == format!("Literal[{literal}]")
                }
            };
            assert!(ok, "the stub types {} as {ty}, the table as {:?}", f.name, f.kind);
        }
    }

    #[test]
    fn the_field_table_reads_and_sets_every_field() {
        // Each field set from the rubicon value turns russian into rubicon, field by field.
        let (mut r, rb) = (Rules::russian(), Rules::rubicon());
        let mut positions: Vec<usize> = RULE_FIELDS.iter().map(|f| f.text_position).collect();
        positions.sort_unstable();
        assert_eq!(positions, (0..RULE_FIELDS.len()).collect::<Vec<_>>());
        for f in RULE_FIELDS {
            (f.set)(&mut r, (f.get)(&rb)).unwrap();
        }
        assert_eq!(r, rb);
        let f = rule_field("rounding").unwrap();
        assert!((f.set)(&mut r, RuleValue::Name("up")).unwrap_err().to_string().starts_with("unknown Rounding"));
        assert!((f.set)(&mut r, RuleValue::Number(1)).is_err());
        assert!(rule_field("nope").is_none());
    }

    #[test]
    fn nonsense_is_rejected() {
        let mut r = Rules::russian();
        r.sequence_values[5] = 1001;
        assert!(matches!(r.validate(), Err(Error::InvalidValue(m)) if m.contains("sequence of 8")));
        let mut r = Rules::russian();
        r.elder_exchange.max = 6;
        assert!(r.validate().is_err());
        let mut r = Rules::rubicon();
        r.dealer_exchange.min = 0;
        assert!(r.validate().is_err());
        let mut r = Rules::rubicon();
        r.open_capot_bonus = Some(5000);
        assert!(r.validate().is_err());
        let mut r = Rules::rubicon();
        r.deals_per_partie = 0;
        assert!(r.validate().is_err());
    }
}
