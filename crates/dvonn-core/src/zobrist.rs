//! Zobrist keys, generated at compile time, and the key of a stack on a cell.
//!
//! A position's hash is the XOR of the keys of its stacks, of [`SIDE_KEY`]
//! when Black is to move, and of [`MOVEMENT_KEY`] in the movement phase. A
//! stack's key is a random key per [`StackCode`] (height, top colour, DVONN
//! inside) rotated left by the cell's bit. The table takes 2 KiB, so a
//! move's key reads stay in the L1 cache, and a key costs one load and one
//! rotation, where a full cell x code table would not fit in that cache
//! and a table split by cell and by height would cost two loads.
//!
//! Rotations of one key are not independent keys, so the tests check the
//! collisions that this structure could cause: no stack's key on one cell
//! equals any stack's key on another (a stack that moves, or changes, always
//! changes the hash), and no XOR of two codes' keys repeats under a rotation
//! (two stacks that swap cells always change it).

use crate::cell::Cell;
use crate::stack::StackCode;

/// One step of SplitMix64: a good 64-bit mixer, usable in `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The number of stack codes: one byte.
const CODES: usize = 256;

/// `stack[code]` and the two global keys, from one SplitMix64 stream.
struct Keys {
    stack: [u64; CODES],
    side: u64,
    movement: u64,
}

const KEYS: Keys = {
    let mut keys = Keys { stack: [0; CODES], side: 0, movement: 0 };
    let mut state = 0x00D7_0440_2011_C0DE_u64;
    let mut code = 0;
    while code < CODES {
        let (next, key) = splitmix64(state);
        state = next;
        keys.stack[code] = key;
        code += 1;
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
/// the code's key rotated by the cell's bit.
#[inline(always)]
pub(crate) const fn stack_key(cell: Cell, code: StackCode) -> u64 {
    KEYS.stack[code.0 as usize].rotate_left(cell.bit())
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

    /// Two stacks that swap cells, `a` on `x` and `b` on `y` becoming `b`
    /// on `x` and `a` on `y`, change the hash unless `key(a) ^ key(b)` is
    /// unchanged by rotating it `y - x` bits: no such pair may exist.
    #[test]
    fn no_key_difference_repeats_under_rotation() {
        for a in 1..CODES {
            for b in 0..a {
                let difference = KEYS.stack[a] ^ KEYS.stack[b];
                assert!((1..64).all(|bits| difference.rotate_left(bits) != difference), "codes {a} and {b}");
            }
        }
    }
}
