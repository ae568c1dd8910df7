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

/// `id` as a byte if it is a card id of a `count`-card pack (`0..count`), else
/// [`Error::CardIdOutOfRange`].
#[inline]
pub(crate) fn card_id(id: i64, count: u8) -> crate::error::Result<u8> {
    if (0..count as i64).contains(&id) {
        Ok(id as u8)
    } else {
        Err(crate::error::Error::CardIdOutOfRange { id: id as i128, limit: count })
    }
}

/// Check a card's rank (`0..ranks`) and suit (`0..4`); `pack` names the game in the error.
pub(crate) fn check_rank_suit(rank: u8, suit: u8, ranks: u8, pack: &str) -> crate::error::Result<()> {
    if rank >= ranks || suit >= 4 {
        return Err(crate::error::Error::InvalidValue(format!("no {pack}card with rank {rank} and suit {suit}")));
    }
    Ok(())
}

/// The words of a card list: separated by whitespace or commas, empty words skipped.
///
/// ```
/// let words: Vec<&str> = cribpiquet::cards::card_words(" 5H,5d  10♠,,JC ").collect();
/// assert_eq!(words, ["5H", "5d", "10♠", "JC"]);
/// ```
pub fn card_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty())
}

/// Parse a card list of either game (see [`card_words`]), in the order given.
pub fn parse_list<C: std::str::FromStr<Err = crate::error::Error>>(text: &str) -> crate::error::Result<Vec<C>> {
    card_words(text).map(str::parse).collect()
}

/// The traits both games' card sets share, written once over the mask width: the iterator
/// `$iter` over the set bits of a `$mask` (lowest bit first, each bit a card through
/// `$card::from_index`), `IntoIterator`, `FromIterator` (repeats kept once), `FromStr` (a card
/// list; a repeat is an error), `Display` (`"5H 5D"`) and `Debug` (`"Hand(5H 5D)"`).
/// Also `from_cards` (distinct cards; a repeat is an error). The set type must have
/// `new()`, `insert(card) -> bool` and `iter(self) -> $iter`.
macro_rules! card_set_traits {
    ($hand:ident, $iter:ident, $card:ident, $mask:ty) => {
        impl $hand {
            /// A hand from distinct cards; a repeated card is an error.
            pub fn from_cards<I: IntoIterator<Item = $card>>(cards: I) -> $crate::error::Result<$hand> {
                let mut hand = $hand::new();
                for card in cards {
                    if !hand.insert(card) {
                        return Err($crate::error::Error::DuplicateCard(card.to_string()));
                    }
                }
                Ok(hand)
            }
        }

        /// Iterator over the cards of a [`Hand`], in mask order.
        #[derive(Clone, Debug)]
        pub struct $iter($mask);

        impl Iterator for $iter {
            type Item = $card;

            #[inline]
            fn next(&mut self) -> Option<$card> {
                if self.0 == 0 {
                    return None;
                }
                let index = self.0.trailing_zeros();
                self.0 &= self.0 - 1;
                Some($card::from_index(index))
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $hand {
            type Item = $card;
            type IntoIter = $iter;
            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        impl FromIterator<$card> for $hand {
            /// Collect cards; repeated cards are kept once.
            fn from_iter<I: IntoIterator<Item = $card>>(iter: I) -> $hand {
                let mut hand = $hand::new();
                for card in iter {
                    hand.insert(card);
                }
                hand
            }
        }

        impl std::str::FromStr for $hand {
            type Err = $crate::error::Error;

            /// Parse space- or comma-separated cards: `"5H 5D 5S JC"`. Duplicates are an error.
            fn from_str(text: &str) -> $crate::error::Result<$hand> {
                $hand::from_cards($crate::cards::parse_list::<$card>(text)?)
            }
        }

        impl std::fmt::Display for $hand {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                for (i, card) in self.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{card}")?;
                }
                Ok(())
            }
        }

        impl std::fmt::Debug for $hand {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "Hand({self})")
            }
        }
    };
}
pub(crate) use card_set_traits;

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
