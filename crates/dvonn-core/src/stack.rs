//! [`Stack`]: what the rules need to know about the pieces on one cell.

use crate::color::Color;

/// The pieces on one cell, as far as the rules care: the height, the colour
/// on top, and whether a DVONN piece is inside. The order of the colours
/// below the top never matters again (`RULES.md`, "Facts that follow").
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

    /// Whether this is a DVONN piece alone on its cell.
    #[inline(always)]
    pub const fn is_lone_dvonn(self) -> bool {
        self.owner.is_none()
    }
}
