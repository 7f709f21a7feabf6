//! [`Stack`]: what the rules need to know about the pieces on one cell.

use crate::color::Color;

/// The pieces on one cell, as far as the rules care: the height, the colour
/// on top, and whether a DVONN piece is inside. The order of the colours
/// below the top never matters again
/// ([RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#what-follows-from-the-rules)).
///
/// ```
/// use dvonn_core::{Color, Stack};
/// let stack = Stack::new(3, Some(Color::Black), true).unwrap();
/// assert_eq!(stack.owner(), Some(Color::Black));
/// assert!(stack.has_dvonn() && !stack.is_lone_dvonn());
/// assert!(Stack::new(1, Some(Color::White), true).is_none(), "a DVONN piece under a top needs height 2");
/// assert_eq!(Stack::LONE_DVONN.owner(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    height: u8,
    owner: Option<Color>,
    has_dvonn: bool,
}

/// A [`Stack`] in one byte, as a position stores it per cell: the height
/// in bits 0 to 5, [`StackCode::WHITE_TOP`] and [`StackCode::HAS_DVONN`];
/// 0 for an empty cell. A lone DVONN piece is the only height-1 stack with
/// a DVONN piece, so it needs no bit of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct StackCode(pub(crate) u8);

impl StackCode {
    /// No stack.
    pub(crate) const EMPTY: StackCode = StackCode(0);
    /// The bits of the height.
    pub(crate) const HEIGHT: u8 = 0x3F;
    /// Set when White's colour is on top.
    pub(crate) const WHITE_TOP: u8 = 0x40;
    /// Set when a DVONN piece is inside.
    pub(crate) const HAS_DVONN: u8 = 0x80;

    /// The number of pieces (0: empty).
    #[inline(always)]
    pub(crate) const fn height(self) -> u8 {
        self.0 & StackCode::HEIGHT
    }

    /// Whether a DVONN piece is inside.
    #[inline(always)]
    pub(crate) const fn has_dvonn(self) -> bool {
        self.0 & StackCode::HAS_DVONN != 0
    }

    /// The stack built by putting the stack coded `self` on top of the one
    /// coded `below` (a move): the heights add, the top is `self`'s, and a
    /// DVONN piece in either is in the result. (The 49 pieces never fill
    /// the height bits, so adding `below`'s height leaves `self`'s top bits
    /// as they are.)
    #[inline(always)]
    pub(crate) const fn onto(self, below: StackCode) -> StackCode {
        debug_assert!(self.height() + below.height() <= TOTAL_PIECES);
        StackCode((self.0 + below.height()) | (below.0 & StackCode::HAS_DVONN))
    }

    /// The stack, if the cell holds one.
    pub(crate) const fn stack(self) -> Option<Stack> {
        let (height, has_dvonn) = (self.height(), self.has_dvonn());
        if height == 0 {
            return None;
        }
        let owner = if height == 1 && has_dvonn {
            None
        } else if self.0 & StackCode::WHITE_TOP != 0 {
            Some(Color::White)
        } else {
            Some(Color::Black)
        };
        Some(Stack { height, owner, has_dvonn })
    }
}

/// The number of pieces in the game: the board holds exactly this many
/// after placement.
pub const TOTAL_PIECES: u8 = 49;

impl Stack {
    /// A DVONN piece alone on its cell: it belongs to nobody and never moves.
    pub const LONE_DVONN: Stack = Stack { height: 1, owner: None, has_dvonn: true };

    /// A stack of `height` pieces topped by `owner`'s colour (`None`: a lone
    /// DVONN piece), holding a DVONN piece when `has_dvonn`. `None` when no
    /// game can hold such a stack: a height of 0 or over 49, a lone DVONN
    /// piece that is not exactly one piece, or a DVONN piece under a
    /// coloured top in a stack of one.
    pub const fn new(height: u8, owner: Option<Color>, has_dvonn: bool) -> Option<Stack> {
        let possible = match owner {
            None => height == 1 && has_dvonn,
            Some(_) => height >= 1 && height <= TOTAL_PIECES && !(has_dvonn && height < 2),
        };
        if possible { Some(Stack { height, owner, has_dvonn }) } else { None }
    }

    /// A single piece of `color`.
    pub const fn single(color: Color) -> Stack {
        Stack { height: 1, owner: Some(color), has_dvonn: false }
    }

    /// The stack built by putting `self` on top of `below` (a move).
    #[must_use]
    pub const fn onto(self, below: Stack) -> Stack {
        Stack { height: self.height + below.height, owner: self.owner, has_dvonn: self.has_dvonn || below.has_dvonn }
    }

    /// Number of pieces, 1..=49.
    #[inline(always)]
    pub const fn height(self) -> u8 {
        self.height
    }

    /// The player whose colour is on top (`None` for a lone DVONN piece).
    #[inline(always)]
    pub const fn owner(self) -> Option<Color> {
        self.owner
    }

    /// Whether at least one DVONN piece is in the stack.
    #[inline(always)]
    pub const fn has_dvonn(self) -> bool {
        self.has_dvonn
    }

    /// The one-byte code of this stack.
    #[inline(always)]
    pub(crate) const fn code(self) -> StackCode {
        let white = if matches!(self.owner, Some(Color::White)) { StackCode::WHITE_TOP } else { 0 };
        let dvonn = if self.has_dvonn { StackCode::HAS_DVONN } else { 0 };
        StackCode(self.height | white | dvonn)
    }

    /// Whether this is a DVONN piece alone on its cell.
    #[inline(always)]
    pub const fn is_lone_dvonn(self) -> bool {
        self.owner.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stack_survives_its_code() {
        let owners = [None, Some(Color::White), Some(Color::Black)];
        let mut codes = std::collections::HashSet::new();
        for height in 1..=TOTAL_PIECES {
            for owner in owners {
                for has_dvonn in [false, true] {
                    if let Some(stack) = Stack::new(height, owner, has_dvonn) {
                        assert_eq!(stack.code().stack(), Some(stack));
                        assert!(codes.insert(stack.code()), "{stack:?}");
                    }
                }
            }
        }
        assert_eq!(StackCode::EMPTY.stack(), None);
    }

    #[test]
    fn codes_stack_like_stacks() {
        let white = Stack::single(Color::White);
        let black_on_dvonn = Stack::single(Color::Black).onto(Stack::LONE_DVONN);
        for (top, below) in [(white, Stack::LONE_DVONN), (white, black_on_dvonn), (black_on_dvonn, white)] {
            assert_eq!(top.code().onto(below.code()), top.onto(below).code());
        }
    }
}
