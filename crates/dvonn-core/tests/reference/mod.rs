//! A second, deliberately simple implementation of `docs/RULES.md`, written from
//! the rule book and not from the engine: a board of 49 cells, each holding
//! the full list of its pieces from bottom to top, plain loops over cells and
//! directions, and a breadth-first search for the stacks cut off from the
//! DVONN pieces. Nothing here is fast; everything here is easy to check
//! against the rule book line by line.
//!
//! The test files compare `dvonn_core::Position` with this model ply by ply;
//! the helpers at the end convert between the two.
#![allow(dead_code)]

use std::collections::VecDeque;

use dvonn_core::{Cell, Color, Move, Phase, Position, Setup, Stack};

/// The number of cells, and of pieces in the game.
pub(crate) const CELLS: usize = 49;

/// The rows of the rule book's table, from row 1 (y = 0) to row 5 (y = 4):
/// the column (x) of the first cell and the number of cells. Row 1 is A1..I1,
/// row 2 A2..J2, row 3 A3..K3, row 4 B4..K4, row 5 C5..K5.
const ROWS: [(i32, usize); 5] = [(0, 9), (0, 10), (0, 11), (1, 10), (2, 9)];

/// The six directions of the rule book, as `(dx, dy)`: east, west,
/// north-east, south-west, north-west, south-east.
pub(crate) const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, 1), (-1, -1), (0, 1), (0, -1)];

/// The axial coordinates `(x, y)` of the cell with canonical index `index`
/// (row-major from row 1: A1 = 0 .. I1 = 8, A2 = 9, ..., K5 = 48).
pub(crate) fn coords(index: usize) -> (i32, i32) {
    let mut first_index = 0;
    for (y, &(first_x, count)) in ROWS.iter().enumerate() {
        if index < first_index + count {
            return (first_x + (index - first_index) as i32, y as i32);
        }
        first_index += count;
    }
    panic!("no cell has index {index}");
}

/// The canonical index of the cell at `(x, y)`, if the board has one there.
pub(crate) fn index_at(x: i32, y: i32) -> Option<usize> {
    if !(0..5).contains(&y) {
        return None;
    }
    let first_index: usize = ROWS[..y as usize].iter().map(|&(_, count)| count).sum();
    let (first_x, count) = ROWS[y as usize];
    if x < first_x || x >= first_x + count as i32 {
        return None;
    }
    Some(first_index + (x - first_x) as usize)
}

/// The name of a cell: column letter and row digit (`E3`).
pub(crate) fn name(index: usize) -> String {
    let (x, y) = coords(index);
    format!("{}{}", (b'A' + x as u8) as char, y + 1)
}

/// The cells next to `index`.
pub(crate) fn neighbours(index: usize) -> Vec<usize> {
    let (x, y) = coords(index);
    DIRECTIONS.iter().filter_map(|&(dx, dy)| index_at(x + dx, y + dy)).collect()
}

/// The cells of `within` that a chain of neighbouring cells of `within`
/// joins to a cell of `seeds` that is itself in `within` (breadth-first
/// search; both sets indexed by canonical index).
pub(crate) fn reachable(seeds: &[bool], within: &[bool]) -> Vec<bool> {
    let mut reached = vec![false; CELLS];
    let mut queue = VecDeque::new();
    for cell in 0..CELLS {
        if seeds[cell] && within[cell] {
            reached[cell] = true;
            queue.push_back(cell);
        }
    }
    while let Some(cell) = queue.pop_front() {
        for neighbour in neighbours(cell) {
            if within[neighbour] && !reached[neighbour] {
                reached[neighbour] = true;
                queue.push_back(neighbour);
            }
        }
    }
    reached
}

/// One piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Piece {
    /// A white piece.
    White,
    /// A black piece.
    Black,
    /// A red DVONN piece.
    Dvonn,
}

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Player {
    /// Places and moves first.
    White,
    /// The second player.
    Black,
}

impl Player {
    /// The other player.
    pub(crate) fn other(self) -> Player {
        match self {
            Player::White => Player::Black,
            Player::Black => Player::White,
        }
    }

    /// The piece of this player's colour.
    pub(crate) fn piece(self) -> Piece {
        match self {
            Player::White => Piece::White,
            Player::Black => Piece::Black,
        }
    }
}

/// One ply, with cells as canonical indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum RefMove {
    /// Put the next piece on this empty cell.
    Place(usize),
    /// Move the stack on the first cell onto the stack on the second.
    Jump(usize, usize),
    /// No move, but the game goes on.
    Pass,
}

/// A game in progress: the pieces on each cell, who moves, how many
/// placements have been made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Game {
    /// The pieces on each cell, bottom first; empty for an empty cell.
    pub board: Vec<Vec<Piece>>,
    /// The player to move.
    pub to_move: Player,
    /// Placements made so far; the movement phase starts at 49.
    pub placed: usize,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// The empty board, White to place the first DVONN piece.
    pub(crate) fn new() -> Game {
        Game { board: vec![Vec::new(); CELLS], to_move: Player::White, placed: 0 }
    }

    /// Whether the game is still in phase 1.
    pub(crate) fn in_placement(&self) -> bool {
        self.placed < CELLS
    }

    /// Whether `index` holds at least one piece.
    pub(crate) fn is_occupied(&self, index: usize) -> bool {
        !self.board[index].is_empty()
    }

    /// The player whose colour is on top of the stack on `index` (nobody for
    /// an empty cell or a lone DVONN piece).
    pub(crate) fn owner(&self, index: usize) -> Option<Player> {
        match self.board[index].last() {
            Some(Piece::White) => Some(Player::White),
            Some(Piece::Black) => Some(Player::Black),
            Some(Piece::Dvonn) | None => None,
        }
    }

    /// Whether the stack on `index` holds a DVONN piece.
    pub(crate) fn has_dvonn(&self, index: usize) -> bool {
        self.board[index].contains(&Piece::Dvonn)
    }

    /// Whether all six neighbouring cells of `index` exist and are occupied.
    pub(crate) fn is_surrounded(&self, index: usize) -> bool {
        let (x, y) = coords(index);
        DIRECTIONS.iter().all(|&(dx, dy)| match index_at(x + dx, y + dy) {
            Some(neighbour) => self.is_occupied(neighbour),
            None => false,
        })
    }

    /// The movements `player` could make if it were his turn: his stacks
    /// that are not surrounded, each moved exactly its height in a straight
    /// line onto an occupied cell.
    pub(crate) fn jumps(&self, player: Player) -> Vec<(usize, usize)> {
        let mut jumps = Vec::new();
        if self.in_placement() {
            return jumps;
        }
        for from in 0..CELLS {
            if self.owner(from) != Some(player) || self.is_surrounded(from) {
                continue;
            }
            let height = self.board[from].len() as i32;
            let (x, y) = coords(from);
            for &(dx, dy) in &DIRECTIONS {
                match index_at(x + dx * height, y + dy * height) {
                    Some(to) if self.is_occupied(to) => jumps.push((from, to)),
                    _ => {}
                }
            }
        }
        jumps
    }

    /// The legal moves: every empty cell during placement; during movement
    /// the mover's jumps, or a pass when he has none but the other player
    /// has one; nothing once the game is over.
    pub(crate) fn legal_moves(&self) -> Vec<RefMove> {
        if self.in_placement() {
            return (0..CELLS).filter(|&i| !self.is_occupied(i)).map(RefMove::Place).collect();
        }
        let mine = self.jumps(self.to_move);
        if !mine.is_empty() {
            return mine.into_iter().map(|(from, to)| RefMove::Jump(from, to)).collect();
        }
        if !self.jumps(self.to_move.other()).is_empty() {
            return vec![RefMove::Pass];
        }
        Vec::new()
    }

    /// Whether neither player can move (never during placement).
    pub(crate) fn is_over(&self) -> bool {
        !self.in_placement() && self.jumps(Player::White).is_empty() && self.jumps(Player::Black).is_empty()
    }

    /// The pieces in the stacks `player` owns.
    pub(crate) fn score(&self, player: Player) -> usize {
        (0..CELLS).filter(|&i| self.owner(i) == Some(player)).map(|i| self.board[i].len()).sum()
    }

    /// The pieces on the board.
    pub(crate) fn pieces_on_board(&self) -> usize {
        self.board.iter().map(Vec::len).sum()
    }

    /// Plays `mv`, which must be one of [`Game::legal_moves`]; returns the
    /// cells whose stacks were removed, in increasing order.
    pub(crate) fn play(&mut self, mv: RefMove) -> Vec<usize> {
        assert!(self.legal_moves().contains(&mv), "the reference was asked to play the illegal move {mv:?}");
        match mv {
            RefMove::Place(cell) => {
                // Plies 0, 1, 2 place the DVONN pieces; every later ply a
                // piece of the mover's colour.
                let piece = if self.placed < 3 { Piece::Dvonn } else { self.to_move.piece() };
                self.board[cell].push(piece);
                self.placed += 1;
                // Ply 48 is White's last placement and White also makes the
                // first movement: the turn passes only before that.
                if self.placed < CELLS {
                    self.to_move = self.to_move.other();
                }
                Vec::new()
            }
            RefMove::Jump(from, to) => {
                let moving = std::mem::take(&mut self.board[from]);
                self.board[to].extend(moving);
                self.to_move = self.to_move.other();
                self.remove_cut_off()
            }
            RefMove::Pass => {
                self.to_move = self.to_move.other();
                Vec::new()
            }
        }
    }

    /// Removes every stack that no chain of neighbouring occupied cells joins
    /// to a stack holding a DVONN piece (breadth-first from those stacks).
    pub(crate) fn remove_cut_off(&mut self) -> Vec<usize> {
        let occupied: Vec<bool> = (0..CELLS).map(|cell| self.is_occupied(cell)).collect();
        let dvonn: Vec<bool> = (0..CELLS).map(|cell| self.has_dvonn(cell)).collect();
        let reached = reachable(&dvonn, &occupied);
        let removed: Vec<usize> = (0..CELLS).filter(|&cell| occupied[cell] && !reached[cell]).collect();
        for &cell in &removed {
            self.board[cell].clear();
        }
        removed
    }

    /// The position string of `docs/NOTATION.md`, written independently of the
    /// engine's writer.
    pub(crate) fn position_string(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..5).rev() {
            let mut row = String::new();
            for cell in (0..CELLS).filter(|&cell| coords(cell).1 == y) {
                let stack = &self.board[cell];
                match stack.last() {
                    None => row.push('.'),
                    Some(Piece::Dvonn) => {
                        assert_eq!(stack.len(), 1, "a DVONN piece on top is alone");
                        row.push('D');
                    }
                    Some(top) => {
                        row.push(if *top == Piece::White { 'W' } else { 'B' });
                        if stack.len() > 1 {
                            row.push_str(&stack.len().to_string());
                        }
                        if stack.contains(&Piece::Dvonn) {
                            row.push('*');
                        }
                    }
                }
            }
            rows.push(row);
        }
        let side = if self.to_move == Player::White { 'w' } else { 'b' };
        let phase = if self.in_placement() { 'p' } else { 'm' };
        format!("{} {side} {phase}", rows.join("/"))
    }
}

// ---- Conversions between the reference and dvonn_core ----

/// The engine's cell with canonical index `index`.
pub(crate) fn cell(index: usize) -> Cell {
    Cell::ALL[index]
}

/// The engine's colour of a player.
pub(crate) fn color(player: Player) -> Color {
    match player {
        Player::White => Color::White,
        Player::Black => Color::Black,
    }
}

/// The reference player of an engine colour.
pub(crate) fn player(color: Color) -> Player {
    match color {
        Color::White => Player::White,
        Color::Black => Player::Black,
    }
}

/// The engine's form of a move.
pub(crate) fn to_engine(mv: RefMove) -> Move {
    match mv {
        RefMove::Place(to) => Move::Place(cell(to)),
        RefMove::Jump(from, to) => Move::Jump { from: cell(from), to: cell(to) },
        RefMove::Pass => Move::Pass,
    }
}

/// The reference form of an engine move.
pub(crate) fn from_engine(mv: Move) -> RefMove {
    match mv {
        Move::Place(to) => RefMove::Place(to.index()),
        Move::Jump { from, to } => RefMove::Jump(from.index(), to.index()),
        Move::Pass => RefMove::Pass,
    }
}

/// The engine's description of the stack on `index` (height, owner, DVONN
/// inside), or `None` for an empty cell.
pub(crate) fn stack_of(game: &Game, index: usize) -> Option<Stack> {
    let pieces = &game.board[index];
    if pieces.is_empty() {
        return None;
    }
    let stack = Stack::new(pieces.len() as u8, game.owner(index).map(color), game.has_dvonn(index));
    Some(stack.unwrap_or_else(|| panic!("the reference built an impossible stack {pieces:?} on {}", name(index))))
}

/// A reference game holding the same stacks as `position`. The colours
/// below the top are not known to the engine (they never matter again):
/// a stack becomes its DVONN piece, if any, at the bottom and the owner's
/// colour everywhere above.
pub(crate) fn from_position(position: &Position) -> Game {
    let mut game = Game::new();
    for (index, stack) in game.board.iter_mut().enumerate() {
        let Some(s) = position.stack_at(cell(index)) else { continue };
        match s.owner() {
            None => {
                assert!(s.has_dvonn() && s.height() == 1, "an ownerless stack is a lone DVONN piece");
                stack.push(Piece::Dvonn);
            }
            Some(owner) => {
                let top = player(owner).piece();
                if s.has_dvonn() {
                    stack.push(Piece::Dvonn);
                }
                while stack.len() < usize::from(s.height()) {
                    stack.push(top);
                }
            }
        }
    }
    game.to_move = player(position.side_to_move());
    game.placed = match position.phase() {
        Phase::Placement => game.board.iter().filter(|s| !s.is_empty()).count(),
        Phase::Movement => CELLS,
    };
    game
}

/// The engine's unchecked description of a reference game.
pub(crate) fn to_setup(game: &Game) -> Setup {
    let phase = if game.in_placement() { Phase::Placement } else { Phase::Movement };
    let mut setup = Setup::empty(color(game.to_move), phase);
    for (index, stack) in setup.stacks.iter_mut().enumerate() {
        *stack = stack_of(game, index);
    }
    setup
}

/// Panics, naming the first difference, unless `position` and `game` have
/// the same stacks (height, owner, DVONN inside), player to move and phase.
pub(crate) fn assert_same(game: &Game, position: &Position, context: &dyn std::fmt::Display) {
    for index in 0..CELLS {
        let engine = position.stack_at(cell(index));
        let expected = stack_of(game, index);
        assert_eq!(
            engine,
            expected,
            "{context}: stack on {} differs\n engine: {position}\n reference: {}",
            name(index),
            game.position_string()
        );
    }
    assert_eq!(position.side_to_move(), color(game.to_move), "{context}: side to move differs in {position}");
    let phase = if game.in_placement() { Phase::Placement } else { Phase::Movement };
    assert_eq!(position.phase(), phase, "{context}: phase differs in {position}");
}
