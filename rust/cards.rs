//! Text forms shared by both games: suits `C D H S` (or `♣ ♦ ♥ ♠`) and ranks `A 2..10 T J Q K`,
//! case-insensitive.

/// Suit letters in id order (clubs, diamonds, hearts, spades).
pub const SUIT_LETTERS: [char; 4] = ['C', 'D', 'H', 'S'];
/// Suit symbols in id order.
pub const SUIT_SYMBOLS: [char; 4] = ['♣', '♦', '♥', '♠'];

/// Parse one suit character (letter in either case, or the suit symbol, outlined or filled).
pub fn parse_suit(c: char) -> Option<u8> {
    match c {
        'c' | 'C' | '♣' | '♧' => Some(0),
        'd' | 'D' | '♦' | '♢' => Some(1),
        'h' | 'H' | '♥' | '♡' => Some(2),
        's' | 'S' | '♠' | '♤' => Some(3),
        _ => None,
    }
}

/// Split card text into its rank part and suit (`"10♥"` → `("10", 2)`), after trimming.
pub fn split_card(text: &str) -> Option<(&str, u8)> {
    let text = text.trim();
    let last = text.chars().next_back()?;
    let suit = parse_suit(last)?;
    let rank = &text[..text.len() - last.len_utf8()];
    if rank.is_empty() {
        return None;
    }
    Some((rank, suit))
}

/// Parse a rank word: `A`, `2`..`10`, `T`, `J`, `Q`, `K` (any case). Returns the face:
/// 1 = ace, 2..=10, 11 = jack, 12 = queen, 13 = king.
pub fn parse_face(rank: &str) -> Option<u8> {
    let r = rank.as_bytes();
    match r {
        [c] => match c.to_ascii_uppercase() {
            b'A' => Some(1),
            b'T' => Some(10),
            b'J' => Some(11),
            b'Q' => Some(12),
            b'K' => Some(13),
            d @ b'2'..=b'9' => Some(d - b'0'),
            _ => None,
        },
        [b'1', b'0'] => Some(10),
        _ => None,
    }
}

/// The printed rank letter for a face value 1..=13 (`A 2..9 T J Q K`).
pub fn face_letter(face: u8) -> char {
    b"A23456789TJQK"[(face - 1) as usize] as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_parses() {
        assert_eq!(split_card("10♥"), Some(("10", 2)));
        assert_eq!(split_card(" th "), Some(("t", 2)));
        assert_eq!(split_card("H"), None);
        assert_eq!(split_card(""), None);
        assert_eq!(parse_face("10"), Some(10));
        assert_eq!(parse_face("t"), Some(10));
        assert_eq!(parse_face("1"), None);
        assert_eq!(parse_face("11"), None);
        assert_eq!(face_letter(10), 'T');
    }
}
