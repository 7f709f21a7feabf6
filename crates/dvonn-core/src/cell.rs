//! The 49 cells of the board, the six directions, and the geometry tables
//! built from them at compile time.
//!
//! Cells use the axial coordinates of
//! [RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#cells-and-directions):
//! `x` is the column letter (`A` = 0 .. `K` = 10), `y` the row (row 1 = 0 ..
//! row 5 = 4). Inside the
//! crate a cell is stored as its bit in a [`Bitboard`](crate::Bitboard): bit
//! `y * 11 + x` of a padded 11 x 5 grid, so that every direction is a constant
//! shift. The canonical index of the rule book (A1 = 0 .. K5 = 48) is
//! [`Cell::index`].

use std::fmt;
use std::str::FromStr;

/// Width of the padded grid behind bitboards: cell `(x, y)` is bit `y * 11 + x`.
pub(crate) const GRID_WIDTH: i32 = 11;
/// Number of bits of the padded grid that can hold a cell.
pub(crate) const GRID_BITS: usize = 55;
/// Length of per-cell tables indexed by [`Cell::slot`]: a power of two, so
/// that indexing with a masked bit needs no bounds check.
pub(crate) const SLOTS: usize = 64;

/// Whether `(x, y)` is a cell of the board
/// ([RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#cells-and-directions)).
const fn on_board(x: i32, y: i32) -> bool {
    0 <= y && y <= 4 && 0 <= x && x <= 10 && y - 2 <= x && x <= y + 8
}

/// One of the 49 cells of the board.
///
/// ```
/// use dvonn_core::Cell;
/// let e3: Cell = "E3".parse().unwrap();
/// assert_eq!((e3.x(), e3.y()), (4, 2));
/// assert_eq!(e3.index(), 23);
/// assert_eq!(e3.to_string(), "E3");
/// assert!("A5".parse::<Cell>().is_err()); // off the board
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// The six directions of the hexagonal board, in order around a cell.
///
/// Consecutive directions (and the last with the first) point at cells that
/// are neighbours of each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `(+1, 0)`
    East,
    /// `(+1, +1)`
    NorthEast,
    /// `(0, +1)`
    NorthWest,
    /// `(-1, 0)`
    West,
    /// `(-1, -1)`
    SouthWest,
    /// `(0, -1)`
    SouthEast,
}

impl Direction {
    /// All six directions, in order around a cell.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The step `(dx, dy)` of this direction.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (0, 1),
            Direction::West => (-1, 0),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (0, -1),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::NorthEast => Direction::SouthWest,
            Direction::NorthWest => Direction::SouthEast,
            Direction::West => Direction::East,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    /// The change of bit index of one step in this direction.
    pub(crate) const fn bit_offset(self) -> i32 {
        let (dx, dy) = self.delta();
        dy * GRID_WIDTH + dx
    }
}

/// Cells in canonical order (A1 .. K5), built at compile time.
const ALL_CELLS: [Cell; 49] = {
    let mut cells = [Cell(0); 49];
    let mut n = 0;
    let mut bit = 0;
    while bit < GRID_BITS as i32 {
        if on_board(bit % GRID_WIDTH, bit / GRID_WIDTH) {
            cells[n] = Cell(bit as u8);
            n += 1;
        }
        bit += 1;
    }
    assert!(n == 49);
    cells
};

/// Canonical index of each grid bit (`u8::MAX` off the board).
const INDEX_OF_BIT: [u8; SLOTS] = {
    let mut table = [u8::MAX; SLOTS];
    let mut i = 0;
    while i < 49 {
        table[ALL_CELLS[i].0 as usize] = i as u8;
        i += 1;
    }
    table
};

impl Cell {
    /// Every cell, in canonical order (A1 = index 0 .. K5 = index 48).
    pub const ALL: [Cell; 49] = ALL_CELLS;

    /// The cell at axial coordinates `(x, y)`, if it is on the board.
    pub const fn new(x: i32, y: i32) -> Option<Cell> {
        if on_board(x, y) { Some(Cell((y * GRID_WIDTH + x) as u8)) } else { None }
    }

    /// The cell with canonical index `index` (0..49), row-major from row 1.
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < 49 { Some(ALL_CELLS[index]) } else { None }
    }

    /// The cell at bit `bit` of a bitboard, if that bit is a cell.
    pub const fn from_bit(bit: u32) -> Option<Cell> {
        if (bit as usize) < GRID_BITS && INDEX_OF_BIT[bit as usize] != u8::MAX { Some(Cell(bit as u8)) } else { None }
    }

    /// A cell from a bit known to be on the board (bitboard iteration).
    #[inline(always)]
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Cell {
        debug_assert!(Cell::from_bit(bit).is_some());
        Cell(bit as u8)
    }

    /// The canonical index (A1 = 0 .. K5 = 48) used by test vectors and by
    /// tables indexed per cell.
    #[inline]
    pub const fn index(self) -> usize {
        INDEX_OF_BIT[self.slot()] as usize
    }

    /// The index of this cell in per-cell tables of [`SLOTS`] entries: its
    /// bit, masked so that the compiler can see it is in bounds.
    #[inline(always)]
    pub(crate) const fn slot(self) -> usize {
        (self.0 as usize) & (SLOTS - 1)
    }

    /// The bit of this cell in a [`Bitboard`](crate::Bitboard) (0..55; the
    /// grid is padded, so some bits are not cells).
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// Column, `A` = 0 .. `K` = 10.
    pub const fn x(self) -> i32 {
        self.0 as i32 % GRID_WIDTH
    }

    /// Row, row 1 = 0 .. row 5 = 4.
    pub const fn y(self) -> i32 {
        self.0 as i32 / GRID_WIDTH
    }

    /// The cell `distance` steps away in `direction`, if it is on the board.
    ///
    /// ```
    /// use dvonn_core::{Cell, Direction};
    /// let c3: Cell = "C3".parse().unwrap();
    /// assert_eq!(c3.step(Direction::East, 2).unwrap().to_string(), "E3");
    /// assert_eq!(c3.step(Direction::NorthEast, 2).unwrap().to_string(), "E5");
    /// assert_eq!(c3.step(Direction::SouthWest, 3), None);
    /// ```
    pub const fn step(self, direction: Direction, distance: i32) -> Option<Cell> {
        let (dx, dy) = direction.delta();
        Cell::new(self.x() + dx * distance, self.y() + dy * distance)
    }

    /// The direction and distance from `self` to `to`, if they lie on a
    /// straight line (and differ).
    pub const fn line_to(self, to: Cell) -> Option<(Direction, i32)> {
        let dx = to.x() - self.x();
        let dy = to.y() - self.y();
        let (direction, distance) = if dy == 0 {
            if dx > 0 { (Direction::East, dx) } else { (Direction::West, -dx) }
        } else if dx == 0 {
            if dy > 0 { (Direction::NorthWest, dy) } else { (Direction::SouthEast, -dy) }
        } else if dx == dy {
            if dx > 0 { (Direction::NorthEast, dx) } else { (Direction::SouthWest, -dx) }
        } else {
            return None;
        };
        if distance == 0 { None } else { Some((direction, distance)) }
    }

    /// Whether all six neighbours of this cell exist (it is not on the edge).
    pub const fn is_interior(self) -> bool {
        let mut i = 0;
        while i < 6 {
            if self.step(Direction::ALL[i], 1).is_none() {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The column letter.
    pub const fn column_letter(self) -> char {
        (b'A' + self.x() as u8) as char
    }

    /// The row digit.
    pub const fn row_digit(self) -> char {
        (b'1' + self.y() as u8) as char
    }

    /// Parses a cell from the start of `bytes` (letter then digit, either
    /// case); returns `None` when the two bytes are not a cell of the board.
    pub(crate) fn from_ascii(bytes: &[u8]) -> Option<Cell> {
        match bytes {
            [letter, digit, ..] => {
                let letter = letter.to_ascii_uppercase();
                if !letter.is_ascii_uppercase() || !digit.is_ascii_digit() {
                    return None;
                }
                Cell::new(i32::from(letter - b'A'), i32::from(*digit) - i32::from(b'1'))
            }
            _ => None,
        }
    }
}

/// Text that is not a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a cell (a column letter A-K and a row digit 1-5 that name one of the 49 cells, like E3)")]
pub struct CellParseError {
    text: String,
}

impl CellParseError {
    fn new(text: &str) -> CellParseError {
        CellParseError { text: text.chars().take(16).collect() }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row_digit())
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Cell {
    type Err = CellParseError;

    fn from_str(text: &str) -> Result<Cell, CellParseError> {
        if text.len() != 2 {
            return Err(CellParseError::new(text));
        }
        Cell::from_ascii(text.as_bytes()).ok_or_else(|| CellParseError::new(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_the_rows_of_the_rule_book() {
        let rows: Vec<String> = (0..5)
            .rev()
            .map(|y| Cell::ALL.iter().filter(|c| c.y() == y).map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(
            rows,
            [
                "C5 D5 E5 F5 G5 H5 I5 J5 K5",
                "B4 C4 D4 E4 F4 G4 H4 I4 J4 K4",
                "A3 B3 C3 D3 E3 F3 G3 H3 I3 J3 K3",
                "A2 B2 C2 D2 E2 F2 G2 H2 I2 J2",
                "A1 B1 C1 D1 E1 F1 G1 H1 I1",
            ]
        );
    }

    #[test]
    fn canonical_indices_follow_the_rule_book() {
        for (name, index) in [("A1", 0), ("I1", 8), ("A2", 9), ("J2", 18), ("A3", 19)] {
            assert_eq!(name.parse::<Cell>().unwrap().index(), index);
        }
        for (name, index) in [("K3", 29), ("B4", 30), ("K4", 39), ("C5", 40), ("K5", 48)] {
            assert_eq!(name.parse::<Cell>().unwrap().index(), index);
        }
        for (i, cell) in Cell::ALL.iter().enumerate() {
            assert_eq!(cell.index(), i);
            assert_eq!(Cell::from_index(i), Some(*cell));
            assert_eq!(Cell::from_bit(cell.bit()), Some(*cell));
        }
        assert_eq!(Cell::from_index(49), None);
    }

    #[test]
    fn parsing_accepts_either_case_and_rejects_everything_else() {
        assert_eq!("e3".parse::<Cell>().unwrap().to_string(), "E3");
        for bad in ["", "E", "E33", "A4", "L1", "K1", "E0", "E6", "3E", "é3"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn neighbours_are_mutual_and_ring_ordered() {
        for cell in Cell::ALL {
            for (i, d) in Direction::ALL.iter().enumerate() {
                if let Some(n) = cell.step(*d, 1) {
                    assert_eq!(n.step(d.opposite(), 1), Some(cell));
                    assert_eq!(cell.line_to(n), Some((*d, 1)));
                    let next = Direction::ALL[(i + 1) % 6];
                    if let Some(m) = cell.step(next, 1) {
                        assert!(n.line_to(m).is_some_and(|(_, k)| k == 1));
                    }
                }
            }
        }
        let interior = Cell::ALL.iter().filter(|c| c.is_interior()).count();
        assert_eq!(interior, 49 - 24);
    }
}
