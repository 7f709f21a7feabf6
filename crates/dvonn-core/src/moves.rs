//! [`Move`] and the fixed-capacity [`MoveList`] that move generation fills.

use arrayvec::ArrayVec;

use crate::cell::Cell;

/// One ply: a placement, a movement of a stack, or a pass.
///
/// Text forms (the CodeCup 2011 syntax,
/// [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#cells-and-moves))
/// come from `Display`
/// and `FromStr`:
///
/// ```
/// use dvonn_core::Move;
/// let jump: Move = "c3-e3".parse().unwrap();
/// assert_eq!(jump.to_string(), "C3E3");
/// assert_eq!("E3".parse::<Move>().unwrap(), Move::Place("E3".parse().unwrap()));
/// assert_eq!("pass".parse::<Move>().unwrap(), Move::Pass);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(4))]
pub enum Move {
    /// Phase 1: put the next piece on an empty cell.
    Place(Cell),
    /// Phase 2: move the stack on `from` in a straight line, as many cells
    /// as it is high, onto the stack on `to`.
    Jump {
        /// The cell the stack leaves.
        from: Cell,
        /// The occupied cell the stack lands on.
        to: Cell,
    },
    /// Phase 2: the mover has no legal move and the game goes on.
    Pass,
}

/// The most movements a player can ever have: at most 23 stacks topped by
/// his colour, each with at most 6 directions.
pub const MAX_MOVES: usize = 23 * 6;

/// The legal moves of a position, without heap allocation. Placement never
/// offers more than 49 moves, movement at most [`MAX_MOVES`].
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Move {
    /// Whether this is a placement.
    pub const fn is_placement(self) -> bool {
        matches!(self, Move::Place(_))
    }

    /// The cell a movement starts from.
    pub const fn from(self) -> Option<Cell> {
        match self {
            Move::Jump { from, .. } => Some(from),
            _ => None,
        }
    }

    /// The cell a placement fills or a movement lands on.
    pub const fn to(self) -> Option<Cell> {
        match self {
            Move::Place(to) | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// Every move that could ever be legal in some position: the 49
    /// placements, the 49 x 48 ordered pairs of cells, and the pass (2,402
    /// in all). Movements between cells not on a line are never legal but
    /// are included, so that legality checks can be tested on all of them.
    pub fn candidates() -> impl Iterator<Item = Move> {
        let places = Cell::ALL.into_iter().map(Move::Place);
        let jumps = Cell::ALL.into_iter().flat_map(|from| {
            Cell::ALL.into_iter().filter(move |to| *to != from).map(move |to| Move::Jump { from, to })
        });
        places.chain(jumps).chain(std::iter::once(Move::Pass))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 4);
    }

    #[test]
    fn there_are_2402_candidates() {
        assert_eq!(Move::candidates().count(), 49 + 49 * 48 + 1);
    }
}
