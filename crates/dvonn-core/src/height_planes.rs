//! [`HeightPlanes`]: the stacks grouped by height as four bit planes, so that
//! move generation finds "the stacks of height `h`" with a few set
//! operations and a move updates the grouping without indexing by height.

use crate::bitboard::Bitboard;
use crate::position::MAX_JUMP;

/// The height code of every stack too tall to move: all four planes set.
const TALL_CODE: u8 = 0b1111;

/// The stacks grouped by height: the four bits of each stack's height code
/// (its height when it can move, 1 to [`MAX_JUMP`], and [`TALL_CODE`] when it
/// is taller), one plane per bit. Empty cells have code 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HeightPlanes([Bitboard; 4]);

/// The code of a stack of `height` pieces.
#[inline(always)]
const fn code(height: u8) -> u8 {
    if height > MAX_JUMP { TALL_CODE } else { height }
}

/// `PLANE_MASKS[height][plane]`: all ones when bit `plane` of the code of
/// `height` is set, else zero, for every height a stack can have (the 49
/// pieces, padded to a power of two so that a masked index needs no bounds
/// check).
const PLANE_MASKS: [[u64; 4]; 64] = {
    let mut masks = [[0; 4]; 64];
    let mut height = 0;
    while height < 64 {
        let mut plane = 0;
        while plane < 4 {
            if code(height as u8) >> plane & 1 != 0 {
                masks[height][plane] = u64::MAX;
            }
            plane += 1;
        }
        height += 1;
    }
    masks
};

/// The planes in which a stack of `height` pieces on `cells` appears.
#[inline(always)]
fn planes_of(cells: Bitboard, height: u8) -> [Bitboard; 4] {
    PLANE_MASKS[usize::from(height) & 63].map(|mask| Bitboard(cells.0 & mask))
}

impl HeightPlanes {
    /// No stacks.
    pub(crate) const EMPTY: HeightPlanes = HeightPlanes([Bitboard::EMPTY; 4]);

    /// The stacks of exactly `height` pieces, for `height` in 1 to
    /// [`MAX_JUMP`]; constant heights fold to three set operations.
    #[inline(always)]
    pub(crate) fn of_height(&self, height: u8) -> Bitboard {
        debug_assert!((1..=MAX_JUMP).contains(&height));
        let [p0, p1, p2, p3] = self.0.map(|plane| plane.0);
        let pick = |plane: u64, bit: u8| if height >> bit & 1 != 0 { plane } else { !plane };
        Bitboard(pick(p0, 0) & pick(p1, 1) & pick(p2, 2) & pick(p3, 3))
    }

    /// The stacks of 5 to [`MAX_JUMP`] pieces: those that jump farther than
    /// the board's diagonals reach.
    #[inline(always)]
    pub(crate) fn long_jumpers(&self) -> Bitboard {
        let [p0, p1, p2, p3] = self.0.map(|plane| plane.0);
        // Codes 4..=7 and 8..=11 differ in planes 2 and 3; of those, 4 is
        // the only one with neither plane 3 nor a low bit, and 11 never
        // occurs (tall stacks have code 15).
        Bitboard((p2 ^ p3) & (p3 | p1 | p0))
    }

    /// The stacks too tall to move: codes 12 to 15, of which only 15 occurs.
    #[inline(always)]
    pub(crate) fn too_tall(&self) -> Bitboard {
        self.0[2] & self.0[3]
    }

    /// The stacks on `cells`, counted with weight 2^k on plane k: the sum of
    /// their height codes.
    #[inline(always)]
    pub(crate) fn code_sum(&self, cells: Bitboard) -> u32 {
        (0..4).map(|plane| (cells & self.0[plane]).len() << plane).sum()
    }

    /// The planes after a movement: `from` empty, and `to` with the code
    /// of `height` (neither old code is read). A placement passes an
    /// empty `from`.
    #[inline(always)]
    pub(crate) fn after_move(&self, from: Bitboard, to: Bitboard, height: u8) -> HeightPlanes {
        let mut planes = planes_of(to, height);
        for (new, old) in planes.iter_mut().zip(self.0) {
            *new |= old - (from | to);
        }
        HeightPlanes(planes)
    }

    /// Empties `cells`.
    #[inline(always)]
    pub(crate) fn remove(&mut self, cells: Bitboard) {
        for set in &mut self.0 {
            *set -= cells;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Cell;

    #[test]
    fn every_height_lands_in_its_own_class() {
        let cells: Vec<Bitboard> = Cell::ALL.iter().map(|&cell| Bitboard::from(cell)).collect();
        let mut planes = HeightPlanes::EMPTY;
        for (height, cell) in (1..=49).zip(&cells) {
            planes = planes.after_move(Bitboard::EMPTY, *cell, height);
        }
        for (height, cell) in (1..=MAX_JUMP).zip(&cells) {
            assert_eq!(planes.of_height(height), *cell, "height {height}");
        }
        let long: Bitboard = Cell::ALL[4..10].iter().copied().collect();
        assert_eq!(planes.long_jumpers(), long);
        let tall: Bitboard = Cell::ALL[10..].iter().copied().collect();
        assert_eq!(planes.too_tall(), tall);
        assert_eq!(planes.code_sum(Bitboard::FULL), (1..=10).sum::<u32>() + 39 * u32::from(TALL_CODE));
    }

    #[test]
    fn a_move_empties_its_source_and_recodes_its_target() {
        let (a, b) = (Bitboard::from(Cell::ALL[0]), Bitboard::from(Cell::ALL[1]));
        let mut planes = HeightPlanes::EMPTY;
        planes = planes.after_move(Bitboard::EMPTY, a, 3).after_move(Bitboard::EMPTY, b, 9);
        planes = planes.after_move(a, b, 12);
        assert_eq!(planes.too_tall(), b);
        assert_eq!(planes.code_sum(a), 0);
        planes.remove(b);
        assert_eq!(planes, HeightPlanes::EMPTY);
    }
}
