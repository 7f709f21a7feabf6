//! The local test that proves most moves cut nothing off from the DVONN
//! pieces, so that the flood fill ([`Bitboard::flood_fill`]) can be skipped.

use crate::bitboard::Bitboard;
use crate::cell::{Cell, SLOTS};

/// `NEIGHBOUR_BITS[bit]`: the neighbours of the cell at `bit`.
const NEIGHBOUR_BITS: [u64; SLOTS] = {
    let mut table = [0u64; SLOTS];
    let mut i = 0;
    while i < 49 {
        let cell = Cell::ALL[i];
        table[cell.bit() as usize] = Bitboard(1 << cell.bit()).neighbours().bits();
        i += 1;
    }
    table
};

/// After rotating a board right by a cell's bit, its neighbours sit at these
/// bits: E 1, NW 11, NE 12, SW 52, SE 53, W 63.
///
/// Multiplying by [`GATHER`] copies them, without carries, to bits 58..=63
/// in that order, so the top six bits of the product are the neighbours'
/// occupancy: bit 0 E, 1 NW, 2 NE, 3 SW, 4 SE, 5 W.
const GATHER: u64 = 1 | 1 << 9 | 1 << 48 | 1 << 57;

/// The gathered bit of each direction in ring order (E, NE, NW, W, SW, SE).
const GATHERED_RING_ORDER: [u32; 6] = [0, 2, 1, 5, 3, 4];

/// Bit `pattern` is set when the gathered 6-bit neighbour pattern holds two
/// or more separate runs of occupied cells around the cell.
const SPLIT_RINGS: u64 = {
    let mut table = 0u64;
    let mut pattern: u64 = 0;
    while pattern < 64 {
        let mut ring = 0u64;
        let mut i = 0;
        while i < 6 {
            ring |= (pattern >> GATHERED_RING_ORDER[i] & 1) << i;
            i += 1;
        }
        // A run starts at i when i is occupied and the cell before it is not.
        let previous = ((ring << 1) | (ring >> 5)) & 0x3F;
        let starts = ring & !previous;
        if starts.count_ones() >= 2 {
            table |= 1 << pattern;
        }
        pattern += 1;
    }
    table
};

/// Whether emptying `vacated` can disconnect anything: its occupied
/// neighbours (in `occupied`, which no longer holds `vacated`) do not form
/// one unbroken run around it. When they do, any two of them are joined
/// through the run, so every path through `vacated` has a detour.
#[inline(always)]
pub(crate) fn may_split(occupied: Bitboard, vacated: Cell) -> bool {
    // Masking with the neighbours keeps wrapped cells out; the rotation puts
    // the neighbours at the fixed bits that GATHER collects.
    let around = (occupied.0 & NEIGHBOUR_BITS[vacated.slot()]).rotate_right(vacated.bit());
    let pattern = around.wrapping_mul(GATHER) >> 58;
    SPLIT_RINGS >> pattern & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Direction;

    fn cells(names: &str) -> Bitboard {
        names.split_whitespace().map(|n| n.parse::<Cell>().unwrap()).collect()
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
        assert!(!may_split(board, k3), "only J3 and K4 neighbour K3, and they touch");
    }

    #[test]
    fn may_split_agrees_with_a_flood_fill_on_every_ring() {
        let e3: Cell = "E3".parse().unwrap();
        for ring in 0u32..64 {
            let around: Bitboard =
                (0..6).filter(|i| ring >> i & 1 != 0).map(|i| e3.step(Direction::ALL[i], 1).unwrap()).collect();
            let pieces: Vec<Cell> = around.iter().collect();
            let connected = pieces.first().is_none_or(|first| Bitboard::from(*first).flood_fill(around) == around);
            assert_eq!(may_split(around, e3), !connected, "ring {ring:06b}");
        }
    }

    #[test]
    fn flood_fill_follows_chains() {
        let board = cells("A1 B1 C1 C2 E3 F3");
        assert_eq!(cells("A1").flood_fill(board), cells("A1 B1 C1 C2"));
        assert_eq!(cells("F3").flood_fill(board), cells("E3 F3"));
        assert_eq!(cells("K5").flood_fill(board), Bitboard::EMPTY);
    }
}
