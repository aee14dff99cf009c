//! Offsets in a string three ways: characters (the lexer's positions), bytes (how Rust slices
//! and rewrites it) and UTF-16 code units (how the browser counts).

use std::ops::Range;

/// The byte and UTF-16 offset of every character boundary of one string.
pub(crate) struct Offsets {
    /// `(byte, utf16)` at character index `i`, for `i` in `0..=chars`.
    at: Vec<(usize, usize)>,
}

impl Offsets {
    pub(crate) fn new(text: &str) -> Self {
        let mut at = Vec::with_capacity(text.len() + 1);
        let mut utf16 = 0;
        for (byte, c) in text.char_indices() {
            at.push((byte, utf16));
            utf16 += c.len_utf16();
        }
        at.push((text.len(), utf16));
        Self { at }
    }

    fn entry(&self, char_index: usize) -> (usize, usize) {
        self.at
            .get(char_index)
            .or(self.at.last())
            .copied()
            .unwrap_or((0, 0))
    }

    pub(crate) fn byte(&self, char_index: usize) -> usize {
        self.entry(char_index).0
    }

    pub(crate) fn bytes(&self, chars: &Range<usize>) -> Range<usize> {
        self.byte(chars.start)..self.byte(chars.end)
    }

    pub(crate) fn utf16(&self, char_index: usize) -> usize {
        self.entry(char_index).1
    }

    /// The character index at UTF-16 offset `utf16`, or the one just before it when the
    /// offset falls inside a surrogate pair; the end when past it.
    pub(crate) fn char_at_utf16(&self, utf16: usize) -> usize {
        self.at
            .partition_point(|&(_, u)| u <= utf16)
            .saturating_sub(1)
    }

    /// The number of characters.
    pub(crate) fn len(&self) -> usize {
        self.at.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_ways_of_counting() {
        let text = "é😀x";
        let o = Offsets::new(text);
        assert_eq!(o.len(), 3);
        assert_eq!((o.byte(1), o.utf16(1)), (2, 1));
        assert_eq!((o.byte(2), o.utf16(2)), (6, 3));
        assert_eq!((o.byte(3), o.utf16(3)), (7, 4));
        assert_eq!(o.char_at_utf16(3), 2);
        assert_eq!(o.char_at_utf16(2), 1, "inside the surrogate pair");
        assert_eq!(o.char_at_utf16(99), 3);
        assert_eq!(o.bytes(&(1..2)), 2..6);
    }
}
