//! Young brothers wait (YBWC), the alternative to Lazy SMP: one search tree,
//! whose nodes, once their first move (the eldest brother) has been
//! searched, share their remaining moves out among the threads of the
//! engine's pool. The threads search those moves with the node's best
//! alpha so far, and the first that fails high stops the others.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

use dvonn_core::Move;
use rayon::prelude::*;

use super::alphabeta::{Node, Searcher, Value};
use crate::score::Score;

/// The least depth to go of a split point: shallower subtrees are too small
/// to be worth handing to another thread.
pub(super) const MIN_SPLIT_DEPTH: i32 = 4;

/// What the moves searched in parallel at a split point gave.
pub(super) struct Split {
    /// The best of their scores (fail-soft, as in a sequential search),
    /// proven when every value searched was.
    pub(super) value: Value,
    pub(super) best_move: Option<Move>,
    /// The principal variation after the best move, when it beat alpha.
    pub(super) pv: Vec<Move>,
}

impl<'a> Searcher<'a> {
    /// Whether a node with `depth` to go shares its younger brothers out.
    pub(super) fn may_split(&self, depth: i32) -> bool {
        self.shared.split_pool.is_some() && depth >= self.shared.min_split_depth
    }

    /// Searches `moves` (the moves of `node` from the `first_index`-th on,
    /// in search order) on the split pool's threads. `None` when the
    /// search must unwind.
    pub(super) fn search_split(
        &mut self,
        node: &Node<'_>,
        moves: &[Move],
        first_index: usize,
        alpha: i32,
    ) -> Option<Split> {
        let pool = self.shared.split_pool?;
        let abort = Arc::new(AtomicBool::new(false));
        let mut aborts = self.aborts.clone();
        aborts.push(Arc::clone(&abort));
        let best_alpha = AtomicI32::new(alpha);
        let split = Mutex::new(Split {
            value: Value { score: -Score::INFINITE.centipieces(), proven: true },
            best_move: None,
            pv: Vec::new(),
        });
        let seldepth = AtomicUsize::new(0);
        let (shared, ordering, null_move_allowed) = (self.shared, &self.ordering, self.null_move_allowed);
        let ply = node.ply;
        pool.install(|| {
            moves.par_iter().enumerate().for_each_init(
                || {
                    let mut helper = Searcher::with_ordering(shared, ordering.clone());
                    helper.start_at(ply, node.position);
                    helper.aborts = aborts.clone();
                    helper.null_move_allowed = null_move_allowed;
                    helper
                },
                |helper, (i, &mv)| {
                    let alpha = best_alpha.load(AtomicOrdering::Acquire);
                    if helper.stopped || alpha >= node.beta {
                        return;
                    }
                    let value = helper.search_move(node, mv, first_index + i, alpha);
                    helper.flush_nodes();
                    seldepth.fetch_max(helper.seldepth, AtomicOrdering::Relaxed);
                    if helper.stopped {
                        return;
                    }
                    let mut split = split.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    split.value.proven &= value.proven;
                    if value.score > split.value.score {
                        split.value.score = value.score;
                        split.best_move = Some(mv);
                        if value.score > best_alpha.load(AtomicOrdering::Acquire) {
                            best_alpha.store(value.score, AtomicOrdering::Release);
                            split.pv.clone_from(&helper.pv[ply + 1]);
                            if value.score >= node.beta {
                                abort.store(true, AtomicOrdering::Relaxed);
                            }
                        }
                    }
                },
            );
        });
        self.seldepth = self.seldepth.max(seldepth.into_inner());
        if self.shared.must_stop() || self.split_aborted() {
            self.stopped = true;
            return None;
        }
        Some(split.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}
