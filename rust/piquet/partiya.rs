//! Match arithmetic: games, koroliks and the partiya (russian), the partie (rubicon).

/// Round a record to tens, halves up (rules §6: «последняя цифра округляется»).
///
/// ```
/// use cribpiquet::piquet::round_record;
/// assert_eq!((round_record(115), round_record(114), round_record(129)), (120, 110, 130));
/// ```
pub fn round_record(x: i64) -> i64 {
    (x + 5).div_euclid(10) * 10
}
