//! Legal move generation on whole sets of stacks, and legality checks for
//! single moves that agree with it.
//!
//! Movement is generated height by height: the mover's stacks of height `h`
//! that are not surrounded, shifted `h` cells in each direction at once and
//! intersected with the occupied cells, give every landing square of every
//! jump of length `h`. Only the heights that occur are visited; vertical
//! directions stop at 4 (the board has 5 rows) and no jump exceeds 10.

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::cell::{Cell, Direction};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::position::{MAX_JUMP, Phase, Position};

/// The most sets of landing cells [`Position::for_each_jump_set`] reports:
/// six directions for each height up to [`MAX_VERTICAL_JUMP`], two for each
/// height above.
const JUMP_SETS: usize = 6 * MAX_VERTICAL_JUMP as usize + 2 * (MAX_JUMP - MAX_VERTICAL_JUMP) as usize;

/// The longest jump along a north-east/south-west or north-west/south-east
/// line: the board has five rows.
const MAX_VERTICAL_JUMP: u8 = 4;

/// Why a move is not legal in a position: the text for a player who tried it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMoveReason {
    /// A placement in the movement phase.
    #[error("placement is over: move a stack (like C3E3) or PASS")]
    NotPlacementPhase,
    /// A movement or pass in the placement phase.
    #[error("it is the placement phase: name an empty cell to place a piece")]
    NotMovementPhase,
    /// The game has ended.
    #[error("the game is over: neither player can move")]
    GameOver,
    /// A placement on a taken cell.
    #[error("{0} is not empty")]
    Occupied(Cell),
    /// The source holds no stack.
    #[error("there is no stack on {0}")]
    NoStack(Cell),
    /// The source stack belongs to the other player or is a lone DVONN piece.
    #[error("the stack on {0} is not yours")]
    NotOwnStack(Cell),
    /// The source stack has all six neighbours occupied.
    #[error("the stack on {0} is surrounded on all six sides and cannot move")]
    Surrounded(Cell),
    /// The destination is not on a line with the source.
    #[error("{1} is not on a straight line from {0}")]
    NotInLine(Cell, Cell),
    /// The distance is not the stack's height.
    #[error("the stack on {from} has height {height}, so it must move exactly {height} cells, not {distance}")]
    WrongDistance {
        /// Source cell.
        from: Cell,
        /// Height of the stack.
        height: u8,
        /// Distance to the destination.
        distance: u8,
    },
    /// The destination is empty.
    #[error("{0} is empty: a stack must land on another stack")]
    EmptyDestination(Cell),
    /// A pass while a move exists.
    #[error("you have a legal move, so you may not pass")]
    MustMove,
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is illegal: {reason}")]
#[non_exhaustive]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalMoveReason,
}

/// What a player could do if it were his turn: the raw material of an
/// evaluation's mobility and threat terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mobility {
    /// The number of jumps.
    pub moves: u32,
    /// The stacks that have at least one jump.
    pub movers: Bitboard,
    /// The cells at least one jump lands on.
    pub targets: Bitboard,
}

/// The cell a jump landing on `to` started from, `offset` bits before it.
#[inline(always)]
fn jump_source(to: Cell, offset: i32) -> Cell {
    Cell::from_bit_unchecked((to.bit() as i32 - offset) as u32)
}

impl Position {
    /// The stacks of `color` that can move at all: owned and not surrounded
    /// (height is checked per height set).
    #[inline(always)]
    fn movable(&self, color: Color) -> Bitboard {
        self.owned_by(color) - self.occupied.surrounded()
    }

    /// Calls `f(offset, targets)` for the landing cells of `color`'s jumps,
    /// one set per height and direction, where `offset` is the change of bit
    /// index from source to target. Unrolled by direction so that every
    /// shift is a constant one.
    #[inline(always)]
    fn for_each_jump_set(&self, color: Color, mut f: impl FnMut(i32, Bitboard)) {
        let movable = self.movable(color);
        // The heights up to MAX_VERTICAL_JUMP are written out rather than
        // looped over, so that every mask and shift below is a constant.
        // The compiler unrolls such a loop in some callers but not in
        // others (perft's fast-bits kernel, where everything around it is
        // inlined), and the rolled loop looks its masks up in tables.
        const _: () = assert!(MAX_VERTICAL_JUMP == 4, "one call per height");
        self.for_each_jump_set_of_height(movable, 1, &mut f);
        self.for_each_jump_set_of_height(movable, 2, &mut f);
        self.for_each_jump_set_of_height(movable, 3, &mut f);
        self.for_each_jump_set_of_height(movable, 4, &mut f);
        // Longer jumps only run along rows; most positions have none.
        if !movable.intersects(self.height_planes.long_jumpers()) {
            return;
        }
        for height in MAX_VERTICAL_JUMP + 1..=MAX_JUMP {
            let sources = movable & self.height_planes.of_height(height);
            if !sources.is_empty() {
                self.jump_set(sources, Direction::East, height, &mut f);
                self.jump_set(sources, Direction::West, height, &mut f);
            }
        }
    }

    /// [`Position::for_each_jump_set`] for the `movable` stacks of one
    /// height of at most [`MAX_VERTICAL_JUMP`], which jump in all six
    /// directions.
    #[inline(always)]
    fn for_each_jump_set_of_height(&self, movable: Bitboard, height: u8, f: &mut impl FnMut(i32, Bitboard)) {
        let sources = movable & self.height_planes.of_height(height);
        if sources.is_empty() {
            return;
        }
        self.jump_set(sources, Direction::East, height, f);
        self.jump_set(sources, Direction::NorthEast, height, f);
        self.jump_set(sources, Direction::NorthWest, height, f);
        self.jump_set(sources, Direction::West, height, f);
        self.jump_set(sources, Direction::SouthWest, height, f);
        self.jump_set(sources, Direction::SouthEast, height, f);
    }

    /// Calls `f(offset, targets)` with the cells that the stacks on
    /// `sources`, all of `height`, land on in `direction`, if any.
    #[inline(always)]
    fn jump_set(&self, sources: Bitboard, direction: Direction, height: u8, f: &mut impl FnMut(i32, Bitboard)) {
        let targets = sources.shift(direction, u32::from(height)) & self.occupied;
        if !targets.is_empty() {
            f(direction.bit_offset() * i32::from(height), targets);
        }
    }

    /// The number of jumps `color` could make if it were his turn.
    #[inline(always)]
    pub fn count_jumps(&self, color: Color) -> u32 {
        let mut count = 0;
        self.for_each_jump_set(color, |_, targets| count += targets.len());
        count
    }

    /// The jumps `color` could make if it were his turn, summarised:
    /// how many, from which stacks, onto which cells.
    ///
    /// ```
    /// use dvonn_core::{Color, Position};
    /// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let white = position.mobility(Color::White);
    /// assert_eq!(white.moves, 49);
    /// assert_eq!(white.movers.len(), 13, "only the white stacks on the edge can move");
    /// ```
    #[inline]
    pub fn mobility(&self, color: Color) -> Mobility {
        let mut mobility = Mobility::default();
        self.for_each_jump_set(color, |offset, targets| {
            mobility.moves += targets.len();
            mobility.targets |= targets;
            let sources = if offset >= 0 { targets.0 >> offset } else { targets.0 << -offset };
            mobility.movers |= Bitboard(sources);
        });
        mobility
    }

    /// Whether `color` has at least one jump.
    #[inline(always)]
    pub fn has_jump(&self, color: Color) -> bool {
        let mut any = false;
        self.for_each_jump_set(color, |_, _| any = true);
        any
    }

    /// The legal moves: the empty cells in placement; in movement the
    /// mover's jumps, or `[Pass]` when he has none but the opponent has one.
    /// Empty exactly when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Appends the legal moves (as [`Position::legal_moves`]) to `moves`.
    #[inline]
    pub fn generate_moves(&self, moves: &mut MoveList) {
        self.for_each_move(|mv| moves.push(mv));
    }

    /// Calls `visit` with each legal move, in the order of
    /// [`Position::legal_moves`], without building a list: the fastest way
    /// to walk the moves once.
    ///
    /// ```
    /// use dvonn_core::Position;
    /// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let mut count = 0;
    /// position.for_each_move(|_| count += 1);
    /// assert_eq!(count, position.legal_moves().len());
    /// ```
    #[inline(always)]
    pub fn for_each_move(&self, mut visit: impl FnMut(Move)) {
        match self.phase {
            Phase::Placement => (!self.occupied).iter().map(Move::Place).for_each(visit),
            Phase::Movement => {
                let mut any = false;
                self.for_each_jump_set(self.side, |offset, targets| {
                    any = true;
                    for to in targets {
                        visit(Move::Jump { from: jump_source(to, offset), to });
                    }
                });
                if !any && self.has_jump(!self.side) {
                    visit(Move::Pass);
                }
            }
        }
    }

    /// Calls `visit(from, to)` with each movement of the player to move, in
    /// the order of [`Position::legal_moves`], and returns their number. In
    /// the placement phase there is none.
    ///
    /// The landing sets are gathered first and walked in one loop, so that
    /// `visit` is inlined once. Suited to a `visit` that does much (perft's
    /// make-every-leaf loop plays each move here rather than from a list);
    /// [`Position::for_each_move`] inlines `visit` once per height and
    /// direction, which suits a light one such as filling a list.
    ///
    /// ```
    /// use dvonn_core::{Move, Position};
    /// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let mut jumps = Vec::new();
    /// let count = position.for_each_jump(|from, to| jumps.push(Move::Jump { from, to }));
    /// assert_eq!(jumps.as_slice(), position.legal_moves().as_slice());
    /// assert_eq!(count as usize, jumps.len());
    /// ```
    #[inline(always)]
    pub fn for_each_jump(&self, mut visit: impl FnMut(Cell, Cell)) -> u32 {
        if self.phase == Phase::Placement {
            return 0;
        }
        let mut sets = ArrayVec::<(i32, Bitboard), JUMP_SETS>::new();
        self.for_each_jump_set(self.side, |offset, targets| sets.push((offset, targets)));
        let mut count = 0;
        for &(offset, targets) in &sets {
            count += targets.len();
            for to in targets {
                visit(jump_source(to, offset), to);
            }
        }
        count
    }

    /// The number of legal moves, without listing them (perft's bulk count).
    #[inline(always)]
    pub fn count_legal_moves(&self) -> u32 {
        match self.phase {
            Phase::Placement => (!self.occupied).len(),
            Phase::Movement => match self.count_jumps(self.side) {
                0 => u32::from(self.has_jump(!self.side)),
                n => n,
            },
        }
    }

    /// Whether `mv` is legal here; agrees with [`Position::legal_moves`].
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Checks `mv` and says why it is illegal.
    ///
    /// ```
    /// use dvonn_core::{IllegalMoveReason, Position};
    /// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let reason = position.check("E3E4".parse().unwrap()).unwrap_err();
    /// assert_eq!(reason.to_string(), "the stack on E3 is surrounded on all six sides and cannot move");
    /// ```
    pub fn check(&self, mv: Move) -> Result<(), IllegalMoveReason> {
        match (mv, self.phase) {
            (Move::Place(cell), Phase::Placement) => {
                if self.occupied.contains(cell) {
                    Err(IllegalMoveReason::Occupied(cell))
                } else {
                    Ok(())
                }
            }
            (Move::Place(_), Phase::Movement) => Err(self.game_over_or(IllegalMoveReason::NotPlacementPhase)),
            (Move::Jump { .. } | Move::Pass, Phase::Placement) => Err(IllegalMoveReason::NotMovementPhase),
            (Move::Jump { from, to }, Phase::Movement) => self.check_jump(from, to).map_err(|r| self.game_over_or(r)),
            (Move::Pass, Phase::Movement) => {
                if self.has_jump(self.side) {
                    Err(IllegalMoveReason::MustMove)
                } else if !self.has_jump(!self.side) {
                    Err(IllegalMoveReason::GameOver)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// `reason`, unless the game is over, which explains more (checked only
    /// once a move is known to be illegal: the legal path stays cheap).
    fn game_over_or(&self, reason: IllegalMoveReason) -> IllegalMoveReason {
        if self.is_game_over() { IllegalMoveReason::GameOver } else { reason }
    }

    /// The first rule a movement breaks (the game being over aside).
    fn check_jump(&self, from: Cell, to: Cell) -> Result<(), IllegalMoveReason> {
        let height = self.height_at(from);
        if height == 0 {
            return Err(IllegalMoveReason::NoStack(from));
        }
        if !self.ours.contains(from) {
            return Err(IllegalMoveReason::NotOwnStack(from));
        }
        if self.occupied.surrounded().contains(from) {
            return Err(IllegalMoveReason::Surrounded(from));
        }
        if from == to {
            return Err(IllegalMoveReason::WrongDistance { from, height, distance: 0 });
        }
        let Some((_, distance)) = from.line_to(to) else {
            return Err(IllegalMoveReason::NotInLine(from, to));
        };
        if distance != i32::from(height) {
            return Err(IllegalMoveReason::WrongDistance { from, height, distance: distance as u8 });
        }
        if !self.occupied.contains(to) {
            return Err(IllegalMoveReason::EmptyDestination(to));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_board_offers_49_moves() {
        let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
        let moves = position.legal_moves();
        assert_eq!(moves.len(), 49);
        assert_eq!(position.count_legal_moves(), 49);
        for mv in &moves {
            assert!(position.is_legal(*mv), "{mv}");
        }
    }

    #[test]
    fn a_player_without_moves_passes_and_the_game_ends_when_both_are_stuck() {
        let stuck: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
        assert!(!stuck.is_game_over());
        let pass: Position = "BBBBBBBBB/BWWWWWWBBB/BWWWWWWWWWB/BWWWWWWWWB/DDDBBBBBB w m".parse().unwrap();
        assert_eq!(pass.legal_moves().as_slice(), &[Move::Pass]);
        assert!(pass.is_legal(Move::Pass));
        let over: Position = "........./........../....W2*....../........../......... w m".parse().unwrap();
        assert!(over.legal_moves().is_empty());
        assert!(over.is_game_over());
        assert_eq!(over.check(Move::Pass), Err(IllegalMoveReason::GameOver));
    }
}
