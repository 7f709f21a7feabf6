//! What the network sees of a position: one input per cell and stack kind.
//!
//! A stack is described by its owner (the colour on top), whether a DVONN
//! piece is inside, and its height in one of [`HEIGHT_BUCKETS`] buckets; a
//! lone DVONN piece is a kind of its own. Each cell with a stack switches on
//! exactly one input, so a position has at most 49 active inputs, and a
//! move changes only those of the cells it touches: the two cells of a jump
//! and the cells whose stacks it cuts off.
//!
//! The network looks at the board from both sides: from White's side as it
//! stands, and from Black's with the colours swapped, so that "mine" and
//! "the opponent's" mean the same to both.

use dvonn_core::{Cell, Color, Stack};

/// Height buckets: heights 1 to 6 alone, then 7-8, 9-10 and 11 or more (too
/// tall to move).
pub const HEIGHT_BUCKETS: usize = 9;

/// Stack kinds per cell: a lone DVONN piece, or mine/theirs x with or
/// without a DVONN piece x height bucket.
pub const KINDS: usize = 1 + 2 * 2 * HEIGHT_BUCKETS;

/// Inputs of the network, per side: every cell with every stack kind.
pub const INPUTS: usize = Cell::ALL.len() * KINDS;

/// The height bucket of a stack of `height` pieces (1 or more).
pub const fn height_bucket(height: u8) -> usize {
    match height {
        0..=6 => height.saturating_sub(1) as usize,
        7..=8 => 6,
        9..=10 => 7,
        _ => 8,
    }
}

/// The kind of `stack` seen from `side`: 0 for a lone DVONN piece, then
/// the side's own stacks, then the opponent's.
pub fn kind(stack: Stack, side: Color) -> usize {
    match stack.owner() {
        None => 0,
        Some(owner) => {
            let theirs = usize::from(owner != side);
            1 + (theirs * 2 + usize::from(stack.has_dvonn())) * HEIGHT_BUCKETS + height_bucket(stack.height())
        }
    }
}

/// The input switched on by `stack` on `cell`, seen from `side`.
pub fn input(cell: Cell, stack: Stack, side: Color) -> usize {
    cell.index() * KINDS + kind(stack, side)
}

/// One byte per stack, the form of the training data: the height (1 to 49)
/// in bits 0 to 5, `0x40` when White is on top, `0x80` when a DVONN piece
/// is inside; 0 for an empty cell. A lone DVONN piece is `0x81`.
pub fn stack_byte(stack: Option<Stack>) -> u8 {
    stack.map_or(0, |stack| {
        let white = if stack.owner() == Some(Color::White) { 0x40 } else { 0 };
        let dvonn = if stack.has_dvonn() { 0x80 } else { 0 };
        stack.height() | white | dvonn
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_cover_every_stack_once_per_side() {
        let mut seen = std::collections::HashSet::new();
        for owner in [None, Some(Color::White), Some(Color::Black)] {
            for has_dvonn in [false, true] {
                for height in [1, 2, 6, 7, 10, 11] {
                    if let Some(stack) = Stack::new(height, owner, has_dvonn) {
                        let (white, black) = (kind(stack, Color::White), kind(stack, Color::Black));
                        assert!(white < KINDS && black < KINDS);
                        seen.insert((white, stack.has_dvonn(), height_bucket(height), owner));
                        if owner.is_some() {
                            assert_ne!(white, black, "mine and theirs differ");
                        }
                    }
                }
            }
        }
        assert_eq!(kind(Stack::LONE_DVONN, Color::Black), 0);
        // K5 with a black piece, seen by White: the opponent's, no DVONN, height 1.
        assert_eq!(
            input(Cell::ALL[48], Stack::single(Color::Black), Color::White),
            48 * KINDS + 1 + 2 * HEIGHT_BUCKETS
        );
    }

    #[test]
    fn heights_fall_into_their_buckets() {
        let buckets: Vec<usize> = (1..=12).map(height_bucket).collect();
        assert_eq!(buckets, [0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8]);
    }
}
