//! [`Setup`]: an unchecked description of a position, and the checks that
//! turn it into a [`Position`](crate::Position).

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::color::Color;
use crate::position::Phase;
use crate::stack::{Stack, TOTAL_PIECES};

/// A position as plain data, not yet checked: what a parser or a program
/// building positions by hand produces. [`Position::from_setup`] checks it.
///
/// [`Position::from_setup`]: crate::Position::from_setup
///
/// ```
/// use dvonn_core::{Cell, Color, Phase, Position, Setup, Stack};
/// let mut setup = Setup::empty(Color::White, Phase::Movement);
/// setup.stacks[Cell::from_index(20).unwrap().index()] = Some(Stack::LONE_DVONN);
/// setup.stacks[21] = Some(Stack::single(Color::White));
/// let position = Position::from_setup(&setup).unwrap();
/// assert_eq!(position.to_string(), "........./........../.DW......../........../......... w m");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The stack on each cell, by canonical index ([`Cell::index`]).
    pub stacks: [Option<Stack>; 49],
    /// The player to move.
    pub side: Color,
    /// The phase.
    pub phase: Phase,
}

/// Why a [`Setup`] is not a position any game can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The stacks hold more than the 49 pieces of the game.
    #[error("the stacks hold {total} pieces; the game has only 49")]
    TooManyPieces {
        /// Pieces counted.
        total: u32,
    },
    /// More stacks topped by one colour than that colour has pieces.
    #[error("{count} stacks have a {color} top, but {color} has only 23 pieces")]
    TooManyTops {
        /// The colour.
        color: Color,
        /// Stacks topped by it.
        count: u32,
    },
    /// More than three cells hold DVONN pieces.
    #[error("{count} cells hold DVONN pieces; the game has only 3")]
    TooManyDvonnCells {
        /// Cells counted.
        count: u32,
    },
    /// A movement position without any DVONN piece.
    #[error("no DVONN piece on the board: the 3 DVONN pieces are never removed")]
    NoDvonn,
    /// A stack of more than one piece during placement.
    #[error("a stack on {cell} during placement: placed pieces stand alone until the movement phase")]
    StackInPlacement {
        /// The cell of the stack.
        cell: Cell,
    },
    /// A full board is the start of the movement phase, never placement.
    #[error("the board is full, so placement is over: the phase must be m")]
    FullBoardInPlacement,
    /// Placement counts that the order of placement cannot produce.
    #[error(
        "{dvonn} DVONN, {white} white and {black} black pieces cannot be on the board during placement: after {placed} placements there are {expected_dvonn} DVONN, {expected_white} white and {expected_black} black"
    )]
    PlacementCounts {
        /// DVONN pieces on the board.
        dvonn: u32,
        /// White pieces on the board.
        white: u32,
        /// Black pieces on the board.
        black: u32,
        /// Pieces on the board.
        placed: u32,
        /// DVONN pieces the placement order gives.
        expected_dvonn: u32,
        /// White pieces the placement order gives.
        expected_white: u32,
        /// Black pieces the placement order gives.
        expected_black: u32,
    },
    /// The side to move in placement follows from the number of pieces.
    #[error("after {placed} placements it is {expected} to place")]
    PlacementSide {
        /// Pieces on the board.
        placed: u32,
        /// The player whose turn it is.
        expected: Color,
    },
    /// A stack with no chain of neighbours to a DVONN piece: removal would
    /// have taken it.
    #[error("the stack on {cell} is not connected to a DVONN piece, so it would have been removed")]
    Disconnected {
        /// The first such stack, in canonical order.
        cell: Cell,
    },
}

/// White and Black pieces each.
const PIECES_PER_COLOR: u32 = 23;

/// The pieces of each kind after `placed` placements: (DVONN, white, black).
pub(crate) const fn placement_counts(placed: u32) -> (u32, u32, u32) {
    let dvonn = if placed < 3 { placed } else { 3 };
    let rest = placed - dvonn;
    // From ply 3 on, Black places first: ply 3 Black, ply 4 White, ...
    (dvonn, rest / 2, rest - rest / 2)
}

impl Setup {
    /// A setup with no stacks.
    pub const fn empty(side: Color, phase: Phase) -> Setup {
        Setup { stacks: [None; 49], side, phase }
    }

    /// The stacks as (cell, stack) pairs, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, Stack)> + '_ {
        Cell::ALL.into_iter().zip(self.stacks).filter_map(|(cell, stack)| Some((cell, stack?)))
    }

    /// Checks what [`Position::from_setup`](crate::Position::from_setup)
    /// requires: the position can arise in a game.
    pub fn validate(&self) -> Result<(), SetupError> {
        let total: u32 = self.iter().map(|(_, s)| u32::from(s.height())).sum();
        if total > u32::from(TOTAL_PIECES) {
            return Err(SetupError::TooManyPieces { total });
        }
        for color in Color::BOTH {
            let count = self.iter().filter(|(_, s)| s.owner() == Some(color)).count() as u32;
            if count > PIECES_PER_COLOR {
                return Err(SetupError::TooManyTops { color, count });
            }
        }
        let dvonn_cells = self.iter().filter(|(_, s)| s.has_dvonn()).count() as u32;
        if dvonn_cells > 3 {
            return Err(SetupError::TooManyDvonnCells { count: dvonn_cells });
        }
        match self.phase {
            Phase::Placement => self.validate_placement(),
            Phase::Movement => self.validate_movement(),
        }
    }

    fn validate_placement(&self) -> Result<(), SetupError> {
        if let Some((cell, _)) = self.iter().find(|(_, s)| s.height() > 1) {
            return Err(SetupError::StackInPlacement { cell });
        }
        let placed = self.iter().count() as u32;
        if placed == u32::from(TOTAL_PIECES) {
            return Err(SetupError::FullBoardInPlacement);
        }
        let count = |owner: Option<Color>| self.iter().filter(|(_, s)| s.owner() == owner).count() as u32;
        let (dvonn, white, black) = (count(None), count(Some(Color::White)), count(Some(Color::Black)));
        let (expected_dvonn, expected_white, expected_black) = placement_counts(placed);
        if (dvonn, white, black) != (expected_dvonn, expected_white, expected_black) {
            return Err(SetupError::PlacementCounts {
                dvonn,
                white,
                black,
                placed,
                expected_dvonn,
                expected_white,
                expected_black,
            });
        }
        let expected = if placed.is_multiple_of(2) { Color::White } else { Color::Black };
        if self.side != expected {
            return Err(SetupError::PlacementSide { placed, expected });
        }
        Ok(())
    }

    fn validate_movement(&self) -> Result<(), SetupError> {
        let occupied: Bitboard = self.iter().map(|(cell, _)| cell).collect();
        let dvonn: Bitboard = self.iter().filter(|(_, s)| s.has_dvonn()).map(|(cell, _)| cell).collect();
        if dvonn.is_empty() {
            return Err(SetupError::NoDvonn);
        }
        match (occupied - dvonn.flood_fill(occupied)).first() {
            Some(cell) => Err(SetupError::Disconnected { cell }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_counts_follow_the_order() {
        assert_eq!(placement_counts(0), (0, 0, 0));
        assert_eq!(placement_counts(3), (3, 0, 0));
        assert_eq!(placement_counts(4), (3, 0, 1));
        assert_eq!(placement_counts(5), (3, 1, 1));
        assert_eq!(placement_counts(48), (3, 22, 23));
        assert_eq!(placement_counts(49), (3, 23, 23));
    }
}
