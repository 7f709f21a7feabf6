//! The transposition table: a lock-free hash table of search results shared
//! by every search thread.
//!
//! Each entry is two `AtomicU64`s: the packed data, and the position key
//! XORed with the data. A reader accepts an entry only when the two agree, so
//! an entry torn by two threads writing at once reads as a miss instead of
//! as wrong data. Entries sit four to a 64-byte bucket; a new result replaces
//! the same position's entry, else an empty one, else the shallowest or
//! oldest.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use dvonn_core::{Cell, Move};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is the value (at the stored depth).
    Exact = 3,
}

/// A stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtEntry {
    /// The best or refuting move found, if any; not checked for legality.
    pub(crate) mv: Option<Move>,
    /// The score, in centipieces for the side to move.
    pub(crate) score: i32,
    /// The remaining depth the score was searched to.
    pub(crate) depth: u8,
    /// How the score bounds the value.
    pub(crate) bound: Bound,
    /// Whether the score is proven: every leaf behind it was a finished
    /// game, so it holds at any depth.
    pub(crate) proven: bool,
}

/// A table size that cannot be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a transposition table of {megabytes} MiB")]
#[non_exhaustive]
pub struct TtAllocError {
    /// The size asked for.
    pub megabytes: usize,
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    checked_key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

/// A lock-free transposition table of a fixed size.
pub(crate) struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable").field("buckets", &self.buckets.len()).finish()
    }
}

// Packed data: move 0..14, score 16..32, depth 32..40, bound 40..42,
// proven 42, generation 43..48. Data 0 never occurs for a stored entry
// because the bound is never 0.
const MOVE_BITS: u64 = 0x3FFF;
const GENERATION_MASK: u8 = 0x1F;

fn encode_move(mv: Option<Move>) -> u64 {
    match mv {
        None => 0,
        Some(Move::Place(cell)) => 1 | u64::from(cell.bit()) << 8,
        Some(Move::Jump { from, to }) => 2 | u64::from(from.bit()) << 2 | u64::from(to.bit()) << 8,
        Some(Move::Pass) => 3,
    }
}

fn decode_move(code: u64) -> Option<Move> {
    let cell = |bits: u64| Cell::from_bit((bits & 0x3F) as u32);
    match code & 3 {
        1 => Some(Move::Place(cell(code >> 8)?)),
        2 => Some(Move::Jump { from: cell(code >> 2)?, to: cell(code >> 8)? }),
        3 => Some(Move::Pass),
        _ => None,
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket of four
    /// entries). Fails, instead of aborting, when the memory is not there.
    pub(crate) fn new(megabytes: usize) -> Result<TranspositionTable, TtAllocError> {
        let bytes = megabytes.checked_mul(1 << 20).ok_or(TtAllocError { megabytes })?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| TtAllocError { megabytes })?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets: buckets.into_boxed_slice(), generation: AtomicU8::new(0) })
    }

    /// A table with exactly one bucket (four entries): for tests of the
    /// replacement policy and of searches under heavy collisions.
    #[cfg(test)]
    pub(crate) fn tiny() -> TranspositionTable {
        TranspositionTable { buckets: vec![Bucket::default()].into_boxed_slice(), generation: AtomicU8::new(0) }
    }

    /// The number of entries.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Forgets everything (a new game).
    pub(crate) fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|b| b.slots.iter()) {
            slot.checked_key.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<TtEntry> {
        self.bucket(key).slots.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let checked_key = slot.checked_key.load(Ordering::Relaxed);
            (data != 0 && checked_key ^ data == key).then(|| unpack(data))
        })
    }

    /// Stores a result for `key`.
    pub(crate) fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed) & GENERATION_MASK;
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_value = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let checked_key = slot.checked_key.load(Ordering::Relaxed);
            if data == 0 || checked_key ^ data == key {
                // Keep a deeper result of the same position from this search.
                if data != 0 {
                    let old = unpack(data);
                    let same_search = (data >> 43) as u8 & GENERATION_MASK == generation;
                    if same_search && old.depth > entry.depth && !entry.proven && entry.bound != Bound::Exact {
                        return;
                    }
                }
                victim = slot;
                break;
            }
            let age = i32::from(generation.wrapping_sub((data >> 43) as u8) & GENERATION_MASK);
            let value = i32::from((data >> 32) as u8) - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = slot;
            }
        }
        let data = pack(entry, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.checked_key.store(key ^ data, Ordering::Relaxed);
    }
}

fn pack(entry: TtEntry, generation: u8) -> u64 {
    let score = u64::from(entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16);
    encode_move(entry.mv)
        | score << 16
        | u64::from(entry.depth) << 32
        | (entry.bound as u64) << 40
        | u64::from(entry.proven) << 42
        | u64::from(generation & GENERATION_MASK) << 43
}

fn unpack(data: u64) -> TtEntry {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    TtEntry {
        mv: decode_move(data & MOVE_BITS),
        score: i32::from((data >> 16) as u16 as i16),
        depth: (data >> 32) as u8,
        bound,
        proven: data >> 42 & 1 != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(mv: Option<Move>, score: i32, depth: u8) -> TtEntry {
        TtEntry { mv, score, depth, bound: Bound::Lower, proven: false }
    }

    #[test]
    fn entries_round_trip_through_the_packing() {
        let table = TranspositionTable::new(1).unwrap();
        let moves = [None, Some(Move::Pass), Some("E3".parse().unwrap()), Some("C3E3".parse().unwrap())];
        for (i, mv) in moves.into_iter().enumerate() {
            for score in [-30_000, -4900, -1, 0, 1, 4900, 30_000] {
                let key = 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(i as u64 + 1) ^ score as u64;
                let stored = TtEntry { mv, score, depth: 17, bound: Bound::Exact, proven: score % 2 == 0 };
                table.store(key, stored);
                assert_eq!(table.probe(key), Some(stored));
            }
        }
        assert_eq!(table.probe(12345), None);
    }

    #[test]
    fn a_one_bucket_table_keeps_the_deeper_and_newer_entries() {
        let table = TranspositionTable::tiny();
        assert_eq!(table.capacity(), 4);
        for key in 1..=4u64 {
            table.store(key, entry(None, key as i32, key as u8));
        }
        for key in 1..=4u64 {
            assert_eq!(table.probe(key).unwrap().score, key as i32);
        }
        // A fifth position replaces the shallowest.
        table.store(5, entry(None, 5, 9));
        assert_eq!(table.probe(1), None);
        assert!(table.probe(5).is_some());
        // After a new search starts, old deep entries give way.
        table.new_search();
        table.new_search();
        table.store(6, entry(None, 6, 1));
        assert!(table.probe(6).is_some());
    }

    #[test]
    fn a_shallower_bound_does_not_replace_a_deeper_one_from_the_same_search() {
        let table = TranspositionTable::tiny();
        table.store(7, entry(None, 70, 8));
        table.store(7, entry(None, 71, 3));
        assert_eq!(table.probe(7).unwrap().score, 70);
    }

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        assert!(TranspositionTable::new(usize::MAX).is_err());
        assert!(TranspositionTable::new(1 << 40).is_err(), "a mebibyte-terabyte table");
        assert_eq!(TranspositionTable::new(0).unwrap().capacity(), 4);
    }
}
