//! Zobrist keys, generated at compile time, and the key of a stack on a cell.
//!
//! A position's hash is the XOR of the keys of its stacks, of [`SIDE_KEY`]
//! when Black is to move, and of [`MOVEMENT_KEY`] in the movement phase. A
//! stack's key is `kind[cell][kind] ^ height[cell].rotate_left(height)`: a
//! random key per cell and kind (top colour and DVONN content), and a random
//! key per cell rotated by the height. The tables take 4.5 KiB, so a move's
//! three key reads stay in the L1 cache (a full cell x kind x height table
//! of 160 KiB measured 40% slower in make-every-leaf perft).

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

/// Kind codes: bit 0 a white top, bit 1 a black top, bit 2 a DVONN piece
/// inside (a lone DVONN piece is 4). Eight codes, a power of two, so that a
/// masked code needs no bounds check; three never occur.
const KIND_SLOTS: usize = 8;

/// `kind[slot][kind]`, `height[slot]` and the two global keys, from one
/// SplitMix64 stream.
struct Keys {
    kind: [[u64; KIND_SLOTS]; SLOTS],
    height: [u64; SLOTS],
    side: u64,
    movement: u64,
}

const KEYS: Keys = {
    let mut keys = Keys { kind: [[0; KIND_SLOTS]; SLOTS], height: [0; SLOTS], side: 0, movement: 0 };
    let mut state = 0x00D7_0440_2011_C0DE_u64;
    let mut bit = 0;
    while bit < GRID_BITS {
        let mut kind = 0;
        while kind < KIND_SLOTS {
            let (next, key) = splitmix64(state);
            state = next;
            keys.kind[bit][kind] = key;
            kind += 1;
        }
        let (next, key) = splitmix64(state);
        state = next;
        keys.height[bit] = key;
        bit += 1;
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

/// The kind code of a stack from its top and DVONN content.
#[inline(always)]
pub(crate) const fn kind_code(white_top: bool, black_top: bool, has_dvonn: bool) -> usize {
    white_top as usize | (black_top as usize) << 1 | (has_dvonn as usize) << 2
}

/// The kind code of a stack owned by `owner` (`None`: a lone DVONN piece).
#[inline(always)]
pub(crate) const fn kind_index(owner: Option<Color>, has_dvonn: bool) -> usize {
    match owner {
        None => kind_code(false, false, true),
        Some(color) => kind_code(matches!(color, Color::White), matches!(color, Color::Black), has_dvonn),
    }
}

/// The key of a stack given by its parts.
#[inline(always)]
pub(crate) const fn stack_key_parts(cell: Cell, height: u8, kind: usize) -> u64 {
    let slot = cell.slot();
    KEYS.kind[slot][kind & (KIND_SLOTS - 1)] ^ KEYS.height[slot].rotate_left(height as u32)
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
            for kind in [1, 2, 4, 5, 6] {
                for height in 1..50 {
                    assert!(seen.insert(stack_key_parts(cell, height, kind)));
                }
            }
        }
        assert!(seen.insert(SIDE_KEY) && seen.insert(MOVEMENT_KEY));
    }
}
