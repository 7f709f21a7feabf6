//! Connection to the DVONN pieces: the set-wise flood fill that finds the
//! stacks a move cuts off, and the local test that proves most moves cut
//! nothing off without filling.

use crate::bitboard::Bitboard;
use crate::cell::{Cell, GRID_BITS};

/// `NEIGHBOUR_BITS[bit]`: the neighbours of the cell at `bit`.
const NEIGHBOUR_BITS: [u64; GRID_BITS] = {
    let mut table = [0u64; GRID_BITS];
    let mut i = 0;
    while i < 49 {
        let cell = Cell::ALL[i];
        table[cell.bit() as usize] = Bitboard(1 << cell.bit()).neighbours().bits();
        i += 1;
    }
    table
};

/// Bit `ring` is set when the 6-bit ring pattern `ring` (bit `i`: the
/// neighbour in direction `Direction::ALL[i]` is occupied) holds two or more
/// separate runs of occupied cells.
const SPLIT_RINGS: u64 = {
    let mut table = 0u64;
    let mut ring: u64 = 0;
    while ring < 64 {
        // A run starts at i when i is occupied and the cell before it is not.
        let previous = ((ring << 1) | (ring >> 5)) & 0x3F;
        let starts = ring & !previous;
        if starts.count_ones() >= 2 {
            table |= 1 << ring;
        }
        ring += 1;
    }
    table
};

/// Whether emptying `vacated` can disconnect anything: its occupied
/// neighbours (in `occupied`, which no longer holds `vacated`) do not form
/// one unbroken run around it. When they do, any two of them are joined
/// through the run, so every path through `vacated` has a detour.
#[inline(always)]
pub(crate) fn may_split(occupied: Bitboard, vacated: Cell) -> bool {
    let s = vacated.bit();
    // Rotate so that the neighbours sit at fixed bits: E 1, NE 12, NW 11,
    // W 63, SW 52, SE 53. Masking first keeps wrapped cells out.
    let x = (occupied.0 & NEIGHBOUR_BITS[s as usize]).rotate_right(s);
    let ring = (x >> 1 & 1)
        | (x >> 12 & 1) << 1
        | (x >> 11 & 1) << 2
        | (x >> 63) << 3
        | (x >> 52 & 1) << 4
        | (x >> 53 & 1) << 5;
    SPLIT_RINGS >> ring & 1 != 0
}

/// The cells of `within` joined to `seeds` by chains of neighbouring cells
/// of `within` (a set-wise flood fill, one ring of growth per step).
#[inline]
pub(crate) fn reachable(seeds: Bitboard, within: Bitboard) -> Bitboard {
    let mut reached = seeds & within;
    loop {
        let next = (reached | reached.neighbours()) & within;
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Direction;

    fn cells(names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| n.parse::<Cell>().unwrap())
            .collect()
    }

    #[test]
    fn a_full_ring_or_one_run_never_splits() {
        let e3: Cell = "E3".parse().unwrap();
        let full = Bitboard::FULL - Bitboard::from(e3);
        assert!(!may_split(full, e3));
        assert!(!may_split(cells("F3 F4 E4"), e3));
        assert!(!may_split(Bitboard::EMPTY, e3));
        assert!(may_split(cells("F3 D3"), e3));
        assert!(may_split(cells("F3 F4 D3 D2"), e3));
    }

    #[test]
    fn edge_cells_do_not_see_wrapped_bits() {
        // K3 is the east end of row 3; the bit after it is B4's neighbour row.
        let k3: Cell = "K3".parse().unwrap();
        let board = cells("J3 K4 A3 C5 B4");
        assert!(
            !may_split(board, k3),
            "only J3 and K4 neighbour K3, and they touch"
        );
    }

    #[test]
    fn may_split_agrees_with_a_flood_fill_on_every_ring() {
        let e3: Cell = "E3".parse().unwrap();
        for ring in 0u32..64 {
            let around: Bitboard = (0..6)
                .filter(|i| ring >> i & 1 != 0)
                .map(|i| e3.step(Direction::ALL[i], 1).unwrap())
                .collect();
            let pieces: Vec<Cell> = around.iter().collect();
            let connected = pieces
                .first()
                .is_none_or(|first| reachable(Bitboard::from(*first), around) == around);
            assert_eq!(may_split(around, e3), !connected, "ring {ring:06b}");
        }
    }

    #[test]
    fn flood_fill_follows_chains() {
        let board = cells("A1 B1 C1 C2 E3 F3");
        assert_eq!(reachable(cells("A1"), board), cells("A1 B1 C1 C2"));
        assert_eq!(reachable(cells("F3"), board), cells("E3 F3"));
        assert_eq!(reachable(cells("K5"), board), Bitboard::EMPTY);
    }
}
