//! Zobrist keys, generated at compile time, and the key of a stack on a cell.
//!
//! A position's hash is the XOR of the keys of its stacks, of [`SIDE_KEY`]
//! when Black is to move, and of [`MOVEMENT_KEY`] in the movement phase. A
//! stack's key depends on its cell, its kind (top colour and DVONN content)
//! and its height: one table entry per combination, so that a move reads
//! three keys.

use crate::cell::{Cell, GRID_BITS, SLOTS};
use crate::color::Color;
use crate::stack::Stack;

/// One step of SplitMix64: a good 64-bit mixer, usable in `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The five kinds of stack: what a stack is apart from its height.
const KINDS: usize = 5;
/// Heights per cell in the table (1..=49 are used): a power of two, so that
/// a masked index needs no bounds check.
const HEIGHT_SLOTS: usize = 64;

/// `stack[kind][slot][height]` (height 0 unused) and the two global keys,
/// from one SplitMix64 stream.
struct Keys {
    stack: [[[u64; HEIGHT_SLOTS]; SLOTS]; KINDS],
    side: u64,
    movement: u64,
}

const KEYS: Keys = {
    let mut keys = Keys { stack: [[[0; HEIGHT_SLOTS]; SLOTS]; KINDS], side: 0, movement: 0 };
    let mut state = 0x00D7_0440_2011_C0DE_u64;
    let mut kind = 0;
    while kind < KINDS {
        let mut bit = 0;
        while bit < GRID_BITS {
            let mut height = 1;
            while height < 50 {
                let (next, key) = splitmix64(state);
                state = next;
                keys.stack[kind][bit][height] = key;
                height += 1;
            }
            bit += 1;
        }
        kind += 1;
    }
    let (next, side) = splitmix64(state);
    let (_, movement) = splitmix64(next);
    keys.side = side;
    keys.movement = movement;
    keys
};

/// XORed into the hash when Black is to move.
pub(crate) const SIDE_KEY: u64 = KEYS.side;
/// XORed into the hash in the movement phase.
pub(crate) const MOVEMENT_KEY: u64 = KEYS.movement;

/// The kind index of a stack: 0 lone DVONN, 1/2 White/Black top without
/// DVONN, 3/4 White/Black top with DVONN.
#[inline(always)]
pub(crate) const fn kind_index(owner: Option<Color>, has_dvonn: bool) -> usize {
    match owner {
        None => 0,
        Some(color) => 1 + color as usize + 2 * has_dvonn as usize,
    }
}

/// The key of a stack given by its parts.
#[inline(always)]
pub(crate) const fn stack_key_parts(cell: Cell, height: u8, kind: usize) -> u64 {
    KEYS.stack[kind][cell.slot()][height as usize & (HEIGHT_SLOTS - 1)]
}

/// The key of `stack` standing on `cell`.
#[inline(always)]
pub(crate) const fn stack_key(cell: Cell, stack: Stack) -> u64 {
    stack_key_parts(cell, stack.height(), kind_index(stack.owner(), stack.has_dvonn()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for cell in Cell::ALL {
            for kind in 0..KINDS {
                for height in 1..50 {
                    assert!(seen.insert(stack_key_parts(cell, height, kind)));
                }
            }
        }
        assert!(seen.insert(SIDE_KEY) && seen.insert(MOVEMENT_KEY));
    }
}
