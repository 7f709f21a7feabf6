//! [`Position`]: the state of a game, and how moves change it.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::cell::{Cell, SLOTS};
use crate::color::Color;
use crate::connect::may_split;
use crate::height_planes::HeightPlanes;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::setup::{Setup, SetupError};
use crate::stack::{Stack, StackCode, TOTAL_PIECES};
use crate::zobrist::{MOVEMENT_KEY, SIDE_KEY, stack_key};

/// The two phases of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Phase 1: the 49 pieces are placed one at a time.
    Placement,
    /// Phase 2: stacks move and are cut off, until neither player can move.
    Movement,
}

impl Phase {
    /// The letter of position strings: `p` or `m`.
    pub const fn letter(self) -> char {
        match self {
            Phase::Placement => 'p',
            Phase::Movement => 'm',
        }
    }
}

/// The longest jump a stack can make: the longest line on the board has 11
/// cells. Taller stacks never move.
pub const MAX_JUMP: u8 = 10;

/// A position: the stacks on the board, the player to move and the phase.
///
/// `Position` is small and `Copy`: search keeps one per ply
/// ([`Position::play_into`]) instead of undoing moves. Every field beyond
/// the stacks, side and phase is a cache kept up to date by
/// [`Position::play_into`] and [`Position::play_unchecked`]; the hash, the piece
/// counts and the height sets are checked against scratch recomputation by
/// the test suite.
///
/// ```
/// use dvonn_core::{Move, Position};
/// let mut position = Position::new();
/// assert_eq!(position.legal_moves().len(), 49);
/// position.play("E3".parse().unwrap()).unwrap();
/// assert_eq!(position.to_string(), "........./........../....D....../........../......... b p");
/// assert!(position.play("E3".parse().unwrap()).is_err(), "E3 is taken");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cells holding a stack (lone DVONN pieces included).
    pub(crate) occupied: Bitboard,
    /// Stacks topped by the colour of the player to move ("ours") and by
    /// the other colour ("theirs"): relative to the side, so that a move
    /// swaps them instead of choosing a set by colour.
    pub(crate) ours: Bitboard,
    pub(crate) theirs: Bitboard,
    /// Stacks holding at least one DVONN piece.
    pub(crate) dvonn: Bitboard,
    /// The stacks grouped by height, so that move generation works on
    /// whole sets.
    pub(crate) height_planes: HeightPlanes,
    /// The stack on each bit (its height, top colour and DVONN content).
    pub(crate) stacks: [StackCode; SLOTS],
    pub(crate) side: Color,
    pub(crate) phase: Phase,
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard start: an empty board, White to place the first DVONN
    /// piece.
    pub const fn new() -> Position {
        Position {
            occupied: Bitboard::EMPTY,
            ours: Bitboard::EMPTY,
            theirs: Bitboard::EMPTY,
            dvonn: Bitboard::EMPTY,
            height_planes: HeightPlanes::EMPTY,
            stacks: [StackCode::EMPTY; SLOTS],
            side: Color::White,
            phase: Phase::Placement,
            hash: 0,
        }
    }

    /// The position a [`Setup`] describes, after checking that a game can
    /// reach it (see [`SetupError`] for what is checked).
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        setup.validate()?;
        Ok(Position::from_setup_unchecked(setup))
    }

    /// Builds the position and its caches without validation.
    pub(crate) fn from_setup_unchecked(setup: &Setup) -> Position {
        let mut position = Position::new();
        for (cell, stack) in Cell::ALL.into_iter().zip(setup.stacks) {
            if let Some(stack) = stack {
                position.put_stack(cell, stack);
            }
        }
        if setup.side != position.side {
            position.pass_turn();
        }
        if setup.phase == Phase::Movement {
            position.phase = Phase::Movement;
            position.hash ^= MOVEMENT_KEY;
        }
        position
    }

    /// The unvalidated description of this position.
    pub fn to_setup(&self) -> Setup {
        Setup { stacks: Cell::ALL.map(|cell| self.stack_at(cell)), side: self.side, phase: self.phase }
    }

    /// Adds `stack` on the empty `cell`, updating every cache.
    fn put_stack(&mut self, cell: Cell, stack: Stack) {
        self.write_sets(self.sets_with(cell, stack));
        self.stacks[cell.slot()] = stack.code();
    }

    /// The player to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The phase of the game.
    #[inline(always)]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The Zobrist hash of the stacks, the side to move and the phase.
    #[inline(always)]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from the stacks alone, ignoring the incremental
    /// value: equal to [`Position::hash`] in every reachable position (the
    /// tests' check of the incremental one).
    #[cfg(test)]
    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let stacks =
            Cell::ALL.into_iter().filter_map(|cell| self.stack_at(cell).map(|stack| stack_key(cell, stack.code())));
        let side = if self.side == Color::Black { SIDE_KEY } else { 0 };
        let phase = if self.phase == Phase::Movement { MOVEMENT_KEY } else { 0 };
        stacks.fold(side ^ phase, |hash, key| hash ^ key)
    }

    /// The cells holding a stack (lone DVONN pieces included).
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The stacks `color` owns (his colour on top).
    #[inline(always)]
    pub const fn owned_by(&self, color: Color) -> Bitboard {
        if color.index() == self.side.index() { self.ours } else { self.theirs }
    }

    /// The stacks holding at least one DVONN piece.
    #[inline(always)]
    pub const fn dvonn_stacks(&self) -> Bitboard {
        self.dvonn
    }

    /// The stacks of exactly `height` pieces, for heights 1 to [`MAX_JUMP`]
    /// (the heights that can move).
    #[inline(always)]
    pub fn stacks_of_height(&self, height: u8) -> Bitboard {
        match height {
            1..=MAX_JUMP => self.height_planes.of_height(height),
            _ => Bitboard::EMPTY,
        }
    }

    /// The stacks that can never move again: too tall for any line.
    pub fn too_tall(&self) -> Bitboard {
        self.height_planes.too_tall()
    }

    /// The height of the stack on `cell` (0 when empty).
    #[inline(always)]
    pub const fn height_at(&self, cell: Cell) -> u8 {
        self.stacks[cell.slot()].height()
    }

    /// The stack on `cell`, if any.
    #[inline]
    pub const fn stack_at(&self, cell: Cell) -> Option<Stack> {
        self.stacks[cell.slot()].stack()
    }

    /// The owner of the stack on `cell` (`None` when empty or a lone DVONN).
    #[inline(always)]
    pub const fn owner_at(&self, cell: Cell) -> Option<Color> {
        if self.ours.contains(cell) {
            Some(self.side)
        } else if self.theirs.contains(cell) {
            Some(self.side.opponent())
        } else {
            None
        }
    }

    /// The pieces in the stacks `color` owns: his score if the game ended now.
    #[inline]
    pub fn pieces(&self, color: Color) -> u32 {
        let owned = self.owned_by(color);
        let tall = owned & self.too_tall();
        let movable = self.height_planes.code_sum(owned - tall);
        movable + tall.iter().map(|cell| u32::from(self.height_at(cell))).sum::<u32>()
    }

    /// The pieces still on the board, lone DVONN pieces included.
    pub fn pieces_on_board(&self) -> u32 {
        self.stacks.iter().map(|code| u32::from(code.height())).sum()
    }

    /// The number of placements made so far (49 once placement is over).
    pub const fn placed(&self) -> u32 {
        match self.phase {
            Phase::Placement => self.occupied.len(),
            Phase::Movement => TOTAL_PIECES as u32,
        }
    }

    /// Whether neither player can move: the game is over.
    pub fn is_game_over(&self) -> bool {
        self.phase == Phase::Movement && !self.has_jump(Color::White) && !self.has_jump(Color::Black)
    }

    /// The result the rules give: the score once the game is over (the
    /// player who owns more pieces wins), else [`Outcome::Unfinished`].
    pub fn outcome(&self) -> Outcome {
        if self.is_game_over() {
            Outcome::Score { white: self.pieces(Color::White), black: self.pieces(Color::Black) }
        } else {
            Outcome::Unfinished
        }
    }

    /// Plays `mv` after checking that it is legal. Returns the cells whose
    /// stacks were removed because the move cut them off from the DVONN
    /// pieces.
    ///
    /// ```
    /// use dvonn_core::{Bitboard, Cell, Position};
    /// let mut position: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
    /// // The white piece on B3 jumps onto the DVONN piece on C3; the black
    /// // piece on A3 loses its only link to a DVONN piece and is removed.
    /// let removed = position.play("B3C3".parse().unwrap()).unwrap();
    /// assert_eq!(removed, Bitboard::from("A3".parse::<Cell>().unwrap()));
    /// assert_eq!(position.to_string(), "........./........../..W2*......../........../......... b m");
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<Bitboard, crate::IllegalMoveError> {
        self.check(mv).map_err(|reason| crate::IllegalMoveError { mv, reason })?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays `mv`, which must be legal (checked only by debug assertions).
    /// Returns the cells whose stacks were removed as cut off.
    ///
    /// To keep the position as it was, use [`Position::play_into`] rather
    /// than playing on a copy: it is faster.
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: Move) -> Bitboard {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        match mv {
            Move::Place(cell) => {
                self.apply_placement(self.placement(cell));
                Bitboard::EMPTY
            }
            Move::Jump { from, to } => self.apply_jump(self.jump(from, to)),
            Move::Pass => {
                self.pass_turn();
                Bitboard::EMPTY
            }
        }
    }

    /// Writes into `child` the position after `mv`, which must be legal
    /// (checked only by debug assertions), and returns the cells whose
    /// stacks it cut off; this position is left as it is. The make-move of
    /// search and perft, which keep one position per ply.
    ///
    /// The move is computed from this position and written over a copy of
    /// it (for a movement, a copy of the stacks and phase only: it writes
    /// every other field). Playing on a fresh copy instead
    /// ([`Position::play_unchecked`]) reads the copy back field by field
    /// while its wide stores are still in flight, which stalls the
    /// processor.
    ///
    /// ```
    /// use dvonn_core::Position;
    /// let parent: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let mv = parent.legal_moves()[0];
    /// let mut child = Position::new();
    /// let removed = parent.play_into(mv, &mut child);
    /// let mut played = parent;
    /// assert_eq!(played.play_unchecked(mv), removed);
    /// assert_eq!(played, child);
    /// ```
    #[inline(always)]
    pub fn play_into(&self, mv: Move, child: &mut Position) -> Bitboard {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        match mv {
            Move::Place(cell) => {
                *child = *self;
                child.apply_placement(self.placement(cell));
                Bitboard::EMPTY
            }
            Move::Jump { from, to } => {
                // A movement writes every field but the stacks and the
                // phase (`write_sets`), so only those are copied: copying
                // the whole position would store the others twice.
                // Placements copy the whole position: written this way they
                // were slower.
                (child.stacks, child.phase) = (self.stacks, self.phase);
                child.apply_jump(self.jump(from, to))
            }
            Move::Pass => {
                *child = *self;
                child.pass_turn();
                Bitboard::EMPTY
            }
        }
    }

    /// This position with the other player to move and nothing moved: the
    /// "null move" by which a search asks what the opponent could do with
    /// a free move. It is not a move of the game: the game's pass,
    /// [`Move::Pass`], is legal only for a player who cannot move. `None` in
    /// the placement phase, where the pieces placed say whose turn it is;
    /// in the movement phase the result is a position
    /// [`Position::from_setup`] accepts.
    ///
    /// ```
    /// use dvonn_core::{Color, Position};
    /// let position: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    /// let passed = position.null_move().expect("the movement phase");
    /// assert_eq!(passed.side_to_move(), Color::Black);
    /// assert_eq!(passed.occupied(), position.occupied());
    /// assert_eq!(passed.null_move(), Some(position));
    /// assert_eq!(Position::new().null_move(), None);
    /// ```
    #[inline]
    pub fn null_move(&self) -> Option<Position> {
        if self.phase == Phase::Placement {
            return None;
        }
        let mut passed = *self;
        passed.pass_turn();
        Some(passed)
    }

    /// Gives the turn to the other player without moving, in any phase.
    #[inline]
    pub(crate) fn pass_turn(&mut self) {
        (self.ours, self.theirs) = (self.theirs, self.ours);
        self.side = !self.side;
        self.hash ^= SIDE_KEY;
    }

    /// The set fields after `stack` is put on the empty `cell`, with the
    /// same player to move.
    #[inline(always)]
    fn sets_with(&self, cell: Cell, stack: Stack) -> Sets {
        let bit = Bitboard::from(cell);
        Sets {
            hash: self.hash ^ stack_key(cell, stack.code()),
            occupied: self.occupied | bit,
            ours: if stack.owner() == Some(self.side) { self.ours | bit } else { self.ours },
            theirs: if stack.owner() == Some(self.side.opponent()) { self.theirs | bit } else { self.theirs },
            dvonn: if stack.has_dvonn() { self.dvonn | bit } else { self.dvonn },
            height_planes: self.height_planes.after_move(Bitboard::EMPTY, bit, stack.height()),
            side: self.side,
        }
    }

    /// The fields a placement on `cell` changes.
    #[inline(always)]
    fn placement(&self, cell: Cell) -> Placement {
        let placed = self.occupied.len();
        let stack = if placed < 3 { Stack::LONE_DVONN } else { Stack::single(self.side) };
        // Ply 48 was White's; White also makes the first movement.
        let (side, phase, turn_key) = if placed + 1 == u32::from(TOTAL_PIECES) {
            (self.side, Phase::Movement, MOVEMENT_KEY)
        } else {
            (!self.side, Phase::Placement, SIDE_KEY)
        };
        let sets = self.sets_with(cell, stack);
        // The sets are the placer's; they become the opponent's when the
        // turn passes.
        let (ours, theirs) = if side == self.side { (sets.ours, sets.theirs) } else { (sets.theirs, sets.ours) };
        Placement {
            sets: Sets { hash: sets.hash ^ turn_key, ours, theirs, side, ..sets },
            cell,
            code: stack.code(),
            phase,
        }
    }

    /// The fields that the movement from `from` to `to` changes, computed
    /// without data-dependent branches: the hot path of search and perft.
    #[inline(always)]
    fn jump(&self, from: Cell, to: Cell) -> Jump {
        let (from_bit, to_bit) = (Bitboard::from(from), Bitboard::from(to));
        let (moving, below) = (self.stacks[from.slot()], self.stacks[to.slot()]);
        let landed = moving.onto(below);
        // A DVONN piece in the moving stack travels with it.
        let dvonn_to = Bitboard(to_bit.0 & 0u64.wrapping_sub(u64::from(moving.has_dvonn())));
        Jump {
            sets: Sets {
                hash: self.hash ^ SIDE_KEY ^ stack_key(from, moving) ^ stack_key(to, below) ^ stack_key(to, landed),
                occupied: self.occupied - from_bit,
                // The turn passes: the opponent's stacks become "ours", less
                // the one landed on; the mover's lose `from` and gain `to`.
                ours: self.theirs - to_bit,
                theirs: (self.ours - from_bit) | to_bit,
                dvonn: (self.dvonn - from_bit) | dvonn_to,
                height_planes: self.height_planes.after_move(from_bit, to_bit, landed.height()),
                side: self.side.opponent(),
            },
            from,
            to,
            landed,
            carries_dvonn: moving.has_dvonn(),
        }
    }

    /// Writes the fields that every placement and movement sets.
    #[inline(always)]
    fn write_sets(&mut self, sets: Sets) {
        self.hash = sets.hash;
        self.occupied = sets.occupied;
        self.ours = sets.ours;
        self.theirs = sets.theirs;
        self.dvonn = sets.dvonn;
        self.height_planes = sets.height_planes;
        self.side = sets.side;
    }

    /// Writes what a placement changed.
    #[inline(always)]
    fn apply_placement(&mut self, placement: Placement) {
        self.write_sets(placement.sets);
        self.stacks[placement.cell.slot()] = placement.code;
        self.phase = placement.phase;
    }

    /// Writes what a movement changed, then removes what it cut off.
    #[inline(always)]
    fn apply_jump(&mut self, jump: Jump) -> Bitboard {
        let occupied = jump.sets.occupied;
        self.write_sets(jump.sets);
        self.stacks[jump.from.slot()] = StackCode::EMPTY;
        self.stacks[jump.to.slot()] = jump.landed;
        if jump.carries_dvonn || may_split(occupied, jump.from) { self.remove_disconnected() } else { Bitboard::EMPTY }
    }

    /// Removes every stack not joined to a DVONN piece; returns their cells.
    #[cold]
    fn remove_disconnected(&mut self) -> Bitboard {
        let removed = self.occupied - self.dvonn.flood_fill(self.occupied);
        for cell in removed {
            self.hash ^= stack_key(cell, self.stacks[cell.slot()]);
            self.stacks[cell.slot()] = StackCode::EMPTY;
        }
        self.occupied -= removed;
        self.ours -= removed;
        self.theirs -= removed;
        self.height_planes.remove(removed);
        removed
    }
}

/// The new values of the fields that every placement and movement sets.
struct Sets {
    hash: u64,
    occupied: Bitboard,
    ours: Bitboard,
    theirs: Bitboard,
    dvonn: Bitboard,
    height_planes: HeightPlanes,
    side: Color,
}

/// A placement as the fields it changes (see [`Position::placement`]).
struct Placement {
    sets: Sets,
    cell: Cell,
    code: StackCode,
    phase: Phase,
}

/// A movement as the fields it changes (see [`Position::jump`]).
struct Jump {
    sets: Sets,
    from: Cell,
    to: Cell,
    /// The stack on `to` after the move.
    landed: StackCode,
    /// Whether the moving stack holds a DVONN piece.
    carries_dvonn: bool,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_stays_small() {
        assert!(std::mem::size_of::<Position>() <= 144, "{}", std::mem::size_of::<Position>());
    }

    /// The hash kept up by `play_into` (and by `null_move`) is the hash
    /// from scratch in every position of whole games.
    #[test]
    fn the_incremental_hash_is_the_hash_from_scratch_in_whole_games() {
        // A xorshift sequence picks the moves.
        let mut choice = 0x2545_F491_4F6C_DD1D_u64;
        for game in 0..20 {
            let mut position = Position::new();
            while !position.is_game_over() {
                let moves = position.legal_moves();
                choice ^= choice << 13;
                choice ^= choice >> 7;
                choice ^= choice << 17;
                let mut child = Position::new();
                position.play_into(moves[(choice % moves.len() as u64) as usize], &mut child);
                assert_eq!(child.hash(), child.hash_from_scratch(), "game {game}: {child}");
                if let Some(passed) = child.null_move() {
                    assert_eq!(passed.hash(), passed.hash_from_scratch(), "game {game}: {passed}");
                }
                position = child;
            }
        }
    }

    #[test]
    fn placement_follows_the_rule_book_order() {
        let mut position = Position::new();
        for (ply, cell) in Cell::ALL.into_iter().enumerate() {
            let side = position.side_to_move();
            assert_eq!(side, if ply % 2 == 0 { Color::White } else { Color::Black }, "ply {ply}");
            position.play(Move::Place(cell)).unwrap();
            let stack = position.stack_at(cell).unwrap();
            if ply < 3 {
                assert!(stack.is_lone_dvonn());
            } else {
                assert_eq!(stack.owner(), Some(side));
            }
            assert_eq!(position.hash(), position.hash_from_scratch());
        }
        assert_eq!(position.phase(), Phase::Movement);
        assert_eq!(position.side_to_move(), Color::White, "White moves twice in a row");
        assert_eq!((position.pieces(Color::White), position.pieces(Color::Black)), (23, 23));
    }
}
