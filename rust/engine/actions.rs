//! [`ActionList`]: the legal actions of a state, on the stack.

/// A list of at most 63 actions on the stack (what the engines' legal-action fillers write):
/// dereferences to `&[u16]`. Cribbage has at most 52 legal actions, piquet 32.
#[derive(Clone, Copy)]
pub struct ActionList {
    len: u8,
    /// 64 slots: indexing with `& 63` needs no bounds check.
    items: [u16; 64],
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl std::fmt::Debug for ActionList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for ActionList {
    fn eq(&self, other: &ActionList) -> bool {
        **self == **other
    }
}

impl ActionList {
    /// The empty list.
    #[inline]
    pub const fn new() -> ActionList {
        ActionList { len: 0, items: [0; 64] }
    }

    /// Empty the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Append an action (the engines never push more than 63; more are dropped).
    #[inline]
    pub fn push(&mut self, action: u16) {
        self.items[self.len as usize & 63] = action;
        self.len = (self.len + 1).min(63);
    }

    /// Append `id_of(bit)` for each set bit of `mask`, lowest bit first.
    #[inline]
    pub fn push_bits(&mut self, mask: u64, id_of: impl Fn(u32) -> u16) {
        let mut m = mask;
        while m != 0 {
            self.push(id_of(m.trailing_zeros()));
            m &= m - 1;
        }
    }
}

impl std::ops::Deref for ActionList {
    type Target = [u16];
    #[inline]
    fn deref(&self) -> &[u16] {
        &self.items[..self.len as usize & 63]
    }
}
