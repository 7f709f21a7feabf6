//! A small per-thread cache of leaf evaluations, keyed by the position's
//! hash.
//!
//! Iterative deepening evaluates the same positions again and again: a leaf
//! of one iteration is a node near the leaves of the next, where pruning
//! asks for its static evaluation, and in DVONN many lines transpose. The
//! evaluation is a function of the position alone, so a cached value is
//! exactly the value computed again: the cache changes how fast the search
//! runs, never what it finds.

/// Entries in a cache (a power of two): 1 MiB, about the positions a
/// search evaluates in a few tenths of a second.
const ENTRIES: usize = 1 << 16;

/// One cached evaluation.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The position's hash; 0 for an empty entry (a real position whose
    /// hash is 0 is simply never cached).
    key: u64,
    /// The evaluation, in centipieces for the side to move.
    score: i32,
    /// Whether `score` is a finished game's final margin.
    proven: bool,
}

/// A direct-mapped table of leaf evaluations, one per search thread.
pub(super) struct EvalCache {
    entries: Box<[Entry]>,
}

impl EvalCache {
    /// An empty cache.
    pub(super) fn new() -> EvalCache {
        EvalCache { entries: vec![Entry::default(); ENTRIES].into_boxed_slice() }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        // The low bits: the transposition table indexes by the high ones,
        // so positions that share a slot there are spread out here.
        key as usize & (ENTRIES - 1)
    }

    /// The cached evaluation of the position with hash `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<(i32, bool)> {
        let entry = &self.entries[Self::slot(key)];
        (entry.key == key && key != 0).then_some((entry.score, entry.proven))
    }

    /// Caches the evaluation of the position with hash `key`.
    #[inline]
    pub(super) fn insert(&mut self, key: u64, score: i32, proven: bool) {
        self.entries[Self::slot(key)] = Entry { key, score, proven };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_was_inserted_for_the_same_key_only() {
        let mut cache = EvalCache::new();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(key), None);
        cache.insert(key, -250, false);
        assert_eq!(cache.get(key), Some((-250, false)));
        // Another key in the same slot misses, then replaces the entry.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.insert(other, 700, true);
        assert_eq!(cache.get(other), Some((700, true)));
        assert_eq!(cache.get(key), None);
    }

    #[test]
    fn never_answers_for_the_empty_key() {
        let mut cache = EvalCache::new();
        assert_eq!(cache.get(0), None);
        cache.insert(0, 100, false);
        assert_eq!(cache.get(0), None);
    }
}
