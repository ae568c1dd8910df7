//! Helpers both engines' tensor writers share: the buffer check and one-hot card masks.

use super::{check_player, Game, GameState};
use crate::error::{Error, Result};

/// Check `player` and that `out` has `size` floats (the caller's buffer of a tensor).
pub(crate) fn check_buffer<S: GameState>(state: &S, player: usize, out: &[f32], size: usize) -> Result<()> {
    check_player(state, player)?;
    if out.len() != size {
        return Err(Error::InvalidValue(format!(
            "the {} tensor buffer must have {size} floats, got {}",
            S::Game::NAME,
            out.len()
        )));
    }
    Ok(())
}

/// One-hot the cards of `mask`: `out[offset + id(bit)] = 1` for every set bit (`id` maps a mask
/// bit to the card's id).
#[inline]
pub(crate) fn set_cards(out: &mut [f32], offset: usize, mask: u64, id: impl Fn(u32) -> usize) {
    let mut m = mask;
    while m != 0 {
        out[offset + id(m.trailing_zeros())] = 1.0;
        m &= m - 1;
    }
}

/// `"-"` for no cards, else the cards' text.
pub(crate) fn cards_or_dash(text: String) -> String {
    if text.is_empty() {
        "-".into()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_cards_maps_bits() {
        let mut out = [0.0f32; 8];
        set_cards(&mut out, 2, 0b1010, |b| b as usize + 1);
        assert_eq!(out, [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
        assert_eq!(cards_or_dash(String::new()), "-");
        assert_eq!(cards_or_dash("AH".into()), "AH");
    }
}
