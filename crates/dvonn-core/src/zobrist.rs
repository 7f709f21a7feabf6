//! Zobrist keys, generated at compile time, and the key of a stack on a cell.
//!
//! A position's hash is the XOR of the keys of its stacks, of [`SIDE_KEY`]
//! when Black is to move, and of [`MOVEMENT_KEY`] in the movement phase. A
//! stack's key is `kind[cell][kind] ^ height[cell].rotate_left(height)`: a
//! random key per cell and kind (top colour and DVONN content: the top bits
//! of the stack's [`StackCode`]), and a random key per cell rotated by the
//! height. The tables take 2.5 KiB, so a move's key reads stay in the L1
//! cache (a full cell x kind x height table of 160 KiB measured 40% slower
//! in make-every-leaf perft).

use crate::cell::{Cell, GRID_BITS, SLOTS};
use crate::stack::StackCode;

/// One step of SplitMix64: a good 64-bit mixer, usable in `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The kinds of stack a key tells apart besides the height: the top two
/// bits of a [`StackCode`] (White's top, a DVONN piece inside).
const KINDS: usize = 4;

/// `kind[slot][kind]`, `height[slot]` and the two global keys, from one
/// SplitMix64 stream.
struct Keys {
    kind: [[u64; KINDS]; SLOTS],
    height: [u64; SLOTS],
    side: u64,
    movement: u64,
}

const KEYS: Keys = {
    let mut keys = Keys { kind: [[0; KINDS]; SLOTS], height: [0; SLOTS], side: 0, movement: 0 };
    let mut state = 0x00D7_0440_2011_C0DE_u64;
    let mut bit = 0;
    while bit < GRID_BITS {
        let mut kind = 0;
        while kind < KINDS {
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

/// The key of the stack coded `code` on `cell`, which must hold a stack:
/// the kind's key, and the height key rotated by the height (`rotate_left`
/// takes the code modulo 64, which is the height).
#[inline(always)]
pub(crate) const fn stack_key(cell: Cell, code: StackCode) -> u64 {
    let slot = cell.slot();
    KEYS.kind[slot][(code.0 >> 6) as usize] ^ KEYS.height[slot].rotate_left(code.0 as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for cell in Cell::ALL {
            for kind in [0, StackCode::WHITE_TOP, StackCode::HAS_DVONN, StackCode::WHITE_TOP | StackCode::HAS_DVONN] {
                for height in 1..50 {
                    assert!(seen.insert(stack_key(cell, StackCode(kind | height))));
                }
            }
        }
        assert!(seen.insert(SIDE_KEY) && seen.insert(MOVEMENT_KEY));
    }
}
