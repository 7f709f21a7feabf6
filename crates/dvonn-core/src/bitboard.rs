//! [`Bitboard`]: a set of cells in one `u64`, with the shifts that move whole
//! sets one or more steps in a direction.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign};

use crate::cell::{Cell, Direction, GRID_BITS};

/// A set of cells, one bit per cell of a padded 11 x 5 grid.
///
/// Bits that are not cells are always clear: every operation keeps the set
/// inside the board (`!` complements within the 49 cells).
///
/// ```
/// use dvonn_core::{Bitboard, Cell, Direction};
/// let e3: Cell = "E3".parse().unwrap();
/// let ring = Bitboard::from(e3).neighbours();
/// assert_eq!(ring.len(), 6);
/// assert!(ring.contains("F3".parse().unwrap()));
/// assert_eq!(Bitboard::from(e3).shift(Direction::East, 6), Bitboard::EMPTY.insert_cell("K3".parse().unwrap()));
/// assert_eq!((!ring).len(), 43);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u64);

/// Bits of the padded grid that are cells of the board.
const FULL_BITS: u64 = {
    let mut bits = 0u64;
    let mut i = 0;
    while i < 49 {
        bits |= 1 << Cell::ALL[i].bit();
        i += 1;
    }
    bits
};

/// Cells whose step `distance` in direction `d` (index into
/// [`Direction::ALL`]) stays on the board: `SHIFT_SOURCES[d][distance]`.
/// Masking a set with it before a shift keeps the shift from wrapping
/// around a row end. Distances 0..=10 (11 and more leave the board).
const SHIFT_SOURCES: [[u64; 11]; 6] = {
    let mut table = [[0u64; 11]; 6];
    let mut d = 0;
    while d < 6 {
        let mut distance = 0;
        while distance < 11 {
            let mut i = 0;
            while i < 49 {
                let cell = Cell::ALL[i];
                if cell.step(Direction::ALL[d], distance as i32).is_some() {
                    table[d][distance] |= 1 << cell.bit();
                }
                i += 1;
            }
            distance += 1;
        }
        d += 1;
    }
    table
};

/// Cells whose six neighbours all exist.
const INTERIOR_BITS: u64 = {
    let mut bits = 0u64;
    let mut i = 0;
    while i < 49 {
        if Cell::ALL[i].is_interior() {
            bits |= 1 << Cell::ALL[i].bit();
        }
        i += 1;
    }
    bits
};

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 49 cells.
    pub const FULL: Bitboard = Bitboard(FULL_BITS);
    /// The 25 cells whose six neighbours all exist (a stack there can be
    /// surrounded).
    pub const INTERIOR: Bitboard = Bitboard(INTERIOR_BITS);

    /// The set whose bits are `bits`, if every set bit is a cell.
    pub const fn from_bits(bits: u64) -> Option<Bitboard> {
        if bits & !FULL_BITS == 0 { Some(Bitboard(bits)) } else { None }
    }

    /// The raw bits (bit [`Cell::bit`] for each cell in the set).
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether `cell` is in the set.
    #[inline(always)]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.bit() & 1 != 0
    }

    /// The set with `cell` added.
    #[inline(always)]
    #[must_use]
    pub const fn insert_cell(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | 1 << cell.bit())
    }

    /// Adds `cell` to the set.
    #[inline(always)]
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1 << cell.bit();
    }

    /// Removes `cell` from the set.
    #[inline(always)]
    pub fn remove(&mut self, cell: Cell) {
        self.0 &= !(1 << cell.bit());
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The lowest cell of the set (in canonical order), if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 { None } else { Some(Cell::from_bit_unchecked(self.0.trailing_zeros())) }
    }

    /// Every cell of the set moved `distance` steps in `direction`; cells that
    /// would leave the board are dropped.
    #[inline(always)]
    #[must_use]
    pub const fn shift(self, direction: Direction, distance: u32) -> Bitboard {
        if distance > 10 {
            return Bitboard::EMPTY;
        }
        let sources = self.0 & SHIFT_SOURCES[direction as usize][distance as usize];
        let offset = direction.bit_offset() * distance as i32;
        // Offsets of 64 or more only arise for distances that leave the
        // board, whose source mask is empty: the wrapped shift of 0 is 0.
        if offset >= 0 {
            Bitboard(sources.wrapping_shl(offset as u32))
        } else {
            Bitboard(sources.wrapping_shr(-offset as u32))
        }
    }

    /// The cells next to at least one cell of the set (the set itself not
    /// included unless a cell of it neighbours another).
    #[inline(always)]
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let east = (b & SHIFT_SOURCES[0][1]) << 1;
        let north_east = (b & SHIFT_SOURCES[1][1]) << 12;
        let north_west = (b & SHIFT_SOURCES[2][1]) << 11;
        let west = (b & SHIFT_SOURCES[3][1]) >> 1;
        let south_west = (b & SHIFT_SOURCES[4][1]) >> 12;
        let south_east = (b & SHIFT_SOURCES[5][1]) >> 11;
        Bitboard(east | north_east | north_west | west | south_west | south_east)
    }

    /// The cells of the set whose six neighbours all exist and are all in
    /// the set: with the occupied cells, the stacks that cannot move.
    #[inline(always)]
    #[must_use]
    pub const fn surrounded(self) -> Bitboard {
        let b = self.0;
        // Interior cells have all six neighbours, so no shift wraps for them.
        Bitboard(INTERIOR_BITS & b & b >> 1 & b << 1 & b >> 11 & b << 11 & b >> 12 & b << 12)
    }

    /// The cells of `within` joined to this set by chains of neighbouring
    /// cells of `within`: a set-wise flood fill that grows one ring of
    /// neighbours per step. With the DVONN stacks as the set and the
    /// occupied cells as `within`, it gives the stacks that stay on the
    /// board.
    ///
    /// ```
    /// use dvonn_core::{Bitboard, Cell};
    /// let cells = |names: &str| names.split(' ').map(|n| n.parse::<Cell>().unwrap()).collect::<Bitboard>();
    /// let board = cells("A1 B1 C1 C2 E3 F3");
    /// assert_eq!(cells("A1").flood_fill(board), cells("A1 B1 C1 C2"));
    /// ```
    #[inline]
    #[must_use]
    pub fn flood_fill(self, within: Bitboard) -> Bitboard {
        let mut reached = self & within;
        loop {
            let next = (reached | reached.neighbours()) & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// An iterator over the cells of the set, in canonical order.
    #[inline(always)]
    pub const fn iter(self) -> Cells {
        Cells(self.0)
    }
}

/// Iterator over the cells of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Cells(u64);

impl Iterator for Cells {
    type Item = Cell;

    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell::from_bit_unchecked(bit))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;

    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

impl From<Cell> for Bitboard {
    #[inline(always)]
    fn from(cell: Cell) -> Bitboard {
        Bitboard(1 << cell.bit())
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Set difference: the cells of `self` that are not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

/// Complement within the 49 cells.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL_BITS)
    }
}

/// Draws the set as the hexagonal board, row 5 on top: `x` in the set, `.` not.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for y in (0..5).rev() {
            let indent = 2 * (4 - y) as usize;
            write!(f, "  {:indent$}", "")?;
            let cells: Vec<&str> =
                Cell::ALL.iter().filter(|c| c.y() == y).map(|c| if self.contains(*c) { "x" } else { "." }).collect();
            writeln!(f, "{}", cells.join("   "))?;
        }
        write!(f, ")")
    }
}

const _: () = assert!(GRID_BITS <= 64);

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    #[test]
    fn shifts_agree_with_stepping_every_cell() {
        for c in Cell::ALL {
            for d in Direction::ALL {
                for distance in 0..12 {
                    let expected: Bitboard = c.step(d, distance as i32).into_iter().collect();
                    assert_eq!(Bitboard::from(c).shift(d, distance), expected, "{c} {d:?} {distance}");
                }
            }
        }
    }

    #[test]
    fn neighbours_are_the_union_of_single_steps() {
        for c in Cell::ALL {
            let expected: Bitboard = Direction::ALL.iter().filter_map(|d| c.step(*d, 1)).collect();
            assert_eq!(Bitboard::from(c).neighbours(), expected);
        }
    }

    #[test]
    fn surrounded_needs_six_occupied_neighbours() {
        let full = Bitboard::FULL;
        assert_eq!(full.surrounded(), Bitboard::INTERIOR);
        let mut board = Bitboard::FULL;
        board.remove(cell("E3"));
        let surrounded = board.surrounded();
        assert!(!surrounded.contains(cell("E3")));
        for n in Bitboard::from(cell("E3")).neighbours() {
            assert!(!surrounded.contains(n));
        }
        assert!(surrounded.contains(cell("G3")));
        assert!(!surrounded.contains(cell("A3")), "edge cells never surrounded");
    }

    #[test]
    fn set_operations_stay_on_the_board() {
        let a: Bitboard = [cell("A1"), cell("E3"), cell("K5")].into_iter().collect();
        assert_eq!((!a).len(), 46);
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
        assert_eq!(a - Bitboard::from(cell("E3")), [cell("A1"), cell("K5")].into_iter().collect());
        assert_eq!(a.iter().map(|c| c.to_string()).collect::<Vec<_>>(), ["A1", "E3", "K5"]);
        assert_eq!(Bitboard::from_bits(1 << 9), None, "bit 9 is not a cell");
        assert_eq!(a.first(), Some(cell("A1")));
    }
}
