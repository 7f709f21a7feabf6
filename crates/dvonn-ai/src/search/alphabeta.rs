//! The alpha-beta search of one thread: negamax with principal variation
//! search, a shared transposition table, late move reductions, and exact
//! (proven) results tracked through the tree.
//!
//! A result is *proven* when every leaf that decided it was a finished game:
//! it is then the exact final margin (or a bound on it) with best play, true
//! at any depth. Proven entries in the table are used whatever depth they
//! were stored with, which makes endgames collapse into exact solutions.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use dvonn_core::{Bitboard, Move, MoveList, Phase, Position};

use super::eval_cache::EvalCache;
use super::ordering::{Ordering, is_capture, is_quiet, next_best};
use super::{MAX_PLY, Shared};
use crate::eval::final_margin;
use crate::eval::network::accumulator::AccumulatorStack;
use crate::score::Score;
use crate::tt::{Bound, TtEntry};

/// The value of a node: a score and whether it is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub(crate) score: i32,
    pub(crate) proven: bool,
}

impl Value {
    const STOPPED: Value = Value { score: 0, proven: false };

    fn negate(self) -> Value {
        Value { score: -self.score, proven: self.proven }
    }
}

/// Nodes between two checks of the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;

/// The search state of one thread.
pub(crate) struct Searcher<'a> {
    pub(crate) shared: &'a Shared<'a>,
    pub(super) ordering: Ordering,
    /// `pv[ply]`: the principal variation from `ply` on (triangular table).
    pub(super) pv: Vec<Vec<Move>>,
    /// Nodes not yet added to the shared count.
    unreported_nodes: u64,
    /// Nodes searched by this thread in this search.
    pub(crate) nodes: u64,
    /// The deepest ply reached.
    pub(crate) seldepth: usize,
    /// Set once the search must unwind; results after it are meaningless.
    pub(crate) stopped: bool,
    /// Cleared while searching below a null move (no two in a row).
    pub(super) null_move_allowed: bool,
    /// The abort flags of the split points above this searcher's subtree
    /// (empty for a searcher that starts at the root): any one set means
    /// its result is no longer wanted.
    pub(super) aborts: Vec<Arc<AtomicBool>>,
    /// The network's accumulators of the positions on the current line,
    /// by ply (`None` for the linear evaluation).
    accumulators: Option<AccumulatorStack>,
    /// The leaf evaluations made by this thread, for positions met again.
    eval_cache: EvalCache,
}

/// A node's context for searching its moves.
#[derive(Clone, Copy)]
pub(super) struct Node<'p> {
    pub(super) position: &'p Position,
    /// Depth to go.
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) beta: i32,
    /// 1 when the node has a single move (a forced move costs no depth).
    pub(super) extension: i32,
    pub(super) pv_node: bool,
}

/// The least depth to go at which null-move pruning is tried.
const NULL_MOVE_DEPTH: i32 = 3;
/// The least number of moves the side to move must have for it.
const NULL_MOVE_MIN_MOVES: usize = 6;
/// The least number of stacks on the board for null-move and futility
/// pruning: in the ending, having to move can hurt, the evaluation is
/// rougher, and unproven cut-offs would keep the search from proving the
/// result.
const PRUNING_MIN_STACKS: u32 = 20;
/// The most depth to go at which reverse futility pruning is tried.
const FUTILITY_DEPTH: i32 = 3;
/// How far above beta (in centipieces, per ply to go) the static
/// evaluation must be for a futility cut-off.
const FUTILITY_MARGIN: i32 = 100;

impl<'a> Searcher<'a> {
    pub(crate) fn new(shared: &'a Shared<'a>) -> Searcher<'a> {
        Searcher::with_ordering(shared, Ordering::new(MAX_PLY + 1))
    }

    /// A searcher that starts with `ordering`'s killers and history.
    pub(super) fn with_ordering(shared: &'a Shared<'a>, ordering: Ordering) -> Searcher<'a> {
        Searcher {
            shared,
            ordering,
            // Lines grow on first use: helpers of a split search few plies.
            pv: vec![Vec::new(); MAX_PLY + 1],
            unreported_nodes: 0,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            null_move_allowed: true,
            aborts: Vec::new(),
            accumulators: shared.evaluator.network_used().map(|network| AccumulatorStack::new(network, MAX_PLY + 1)),
            eval_cache: EvalCache::new(),
        }
    }

    /// Makes `position` the position at `ply`, where this searcher's
    /// search starts (the root, or a split point for a helper).
    pub(super) fn start_at(&mut self, ply: usize, position: &Position) {
        if let Some(accumulators) = &mut self.accumulators {
            accumulators.set(ply, position);
        }
    }

    /// Records that `child`, the position at `ply + 1`, follows the one at
    /// `ply` by `mv`.
    #[inline]
    fn enter(&mut self, ply: usize, parent: &Position, child: &Position, mv: Move, removed: Bitboard) {
        if let Some(accumulators) = &mut self.accumulators {
            accumulators.push(ply, parent, child, mv, removed);
        }
    }

    /// The value of `position`, a leaf at `ply`: the evaluation, or the
    /// final margin (proven) of a finished game.
    fn leaf_value(&mut self, position: &Position, ply: usize) -> Value {
        let key = position.hash();
        let cached = self.shared.options.eval_cache;
        if let Some((score, proven)) = self.eval_cache.get(key).filter(|_| cached) {
            return Value { score, proven };
        }
        let accumulators = &mut self.accumulators;
        let (score, proven) = self
            .shared
            .evaluator
            .evaluate_leaf(position, || accumulators.as_mut().expect("accumulators for the network").get(ply));
        let score = score.centipieces();
        if cached {
            self.eval_cache.insert(key, score, proven);
        }
        Value { score, proven }
    }

    /// The static evaluation of `position`, at `ply`, for pruning (a
    /// position with legal moves, so never a finished game).
    fn static_evaluation(&mut self, position: &Position, ply: usize) -> i32 {
        self.leaf_value(position, ply).score
    }

    /// The principal variation found by the last root search.
    pub(crate) fn principal_variation(&self) -> &[Move] {
        &self.pv[0]
    }

    /// Counts a node and, every few, checks whether the search must stop.
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.unreported_nodes >= CHECK_INTERVAL {
            self.shared.add_nodes(self.unreported_nodes);
            self.unreported_nodes = 0;
            if self.shared.must_stop() {
                self.stopped = true;
            }
        }
        if self.split_aborted() {
            self.stopped = true;
        }
    }

    /// Whether a split point above this searcher's subtree no longer wants
    /// its result (checked at every node: a helper must stop promptly).
    pub(super) fn split_aborted(&self) -> bool {
        self.aborts.iter().any(|abort| abort.load(AtomicOrdering::Relaxed))
    }

    /// Nodes searched so far by all threads, this one's unreported ones
    /// included (other threads report every few thousand nodes).
    pub(crate) fn total_nodes(&self) -> u64 {
        self.shared.nodes() + self.unreported_nodes
    }

    /// Adds this thread's remaining nodes to the shared count.
    pub(crate) fn flush_nodes(&mut self) {
        self.shared.add_nodes(self.unreported_nodes);
        self.unreported_nodes = 0;
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Searches `child`, reached from a position whose side to move was the
    /// searcher's at `ply`: negated unless the same side moves again (the
    /// 49th placement is followed by White's first movement).
    fn search_child(
        &mut self,
        parent: &Position,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Value {
        if child.side_to_move() == parent.side_to_move() {
            self.negamax(child, depth, ply + 1, alpha, beta)
        } else {
            self.negamax(child, depth, ply + 1, -beta, -alpha).negate()
        }
    }

    /// Negamax alpha-beta with PVS and LMR. Scores are fail-soft, from the
    /// side to move's view, in centipieces.
    pub(crate) fn negamax(
        &mut self,
        position: &Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Value {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return Value::STOPPED;
        }
        self.seldepth = self.seldepth.max(ply);

        if depth <= 0 || ply >= MAX_PLY {
            return self.leaf_value(position, ply);
        }
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            return Value { score: final_margin(position).centipieces(), proven: true };
        }

        let pv_node = beta - alpha > 1;
        let key = position.hash();
        let options = self.shared.options;
        let mut tt_move = None;
        if let Some(entry) = self.shared.tt.probe(key).filter(|_| options.transposition_table) {
            tt_move = entry.mv.filter(|&mv| position.is_legal(mv));
            let stored = i32::from(entry.depth);
            let usable = if self.shared.strict_depth {
                if entry.proven { stored <= depth } else { stored == depth }
            } else {
                entry.proven || stored >= depth
            };
            if !pv_node && usable {
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if cutoff {
                    return Value { score: entry.score, proven: entry.proven };
                }
            }
        }

        // Without a table move the order of the moves is a guess: a
        // shallower search is cheaper and fills the table for the next one.
        if options.internal_reduction && tt_move.is_none() && depth >= INTERNAL_REDUCTION_DEPTH {
            depth -= 1;
        }

        // Pruning of zero-window nodes in the middle game (in the ending it
        // would only keep the search from proving the result), decided on
        // the static evaluation, computed only where a test needs it.
        let may_prune =
            !pv_node && position.phase() == Phase::Movement && position.occupied().len() >= PRUNING_MIN_STACKS;
        let try_futility = options.futility && depth <= FUTILITY_DEPTH;
        let try_null_move = options.null_move && self.null_move_allowed && depth >= NULL_MOVE_DEPTH;
        if may_prune && (try_futility || try_null_move) {
            let score = self.static_evaluation(position, ply);
            let futile_score = score - FUTILITY_MARGIN * depth;
            if try_futility && futile_score >= beta {
                return Value { score: futile_score, proven: false };
            }
            if try_null_move && score >= beta && self.null_move_fails_high(position, &moves, depth, ply, beta) {
                return Value { score: beta, proven: false };
            }
        }

        let late_moves_kept = if may_prune && options.late_move_pruning && depth <= LATE_MOVE_PRUNING_DEPTH {
            late_moves_searched(depth)
        } else {
            usize::MAX
        };
        let mut scored = self.ordering.score(position, &moves, tt_move, ply, depth);
        // A forced move (a single legal move, passes included) costs no depth.
        let node = Node { position, depth, ply, beta, extension: i32::from(moves.len() == 1), pv_node };
        let original_alpha = alpha;
        let mut best = Value { score: -Score::INFINITE.centipieces(), proven: true };
        let mut best_move = None;
        let mut proven = true;
        for index in 0..scored.len() {
            // Young brothers wait: once the eldest has been searched, the
            // rest may be shared out among the threads, as one last step.
            let split = index > 0 && self.may_split(depth);
            let (mv, value) = if split {
                let rest: MoveList = (index..scored.len()).map(|i| next_best(&mut scored, i)).collect();
                let Some(split) = self.search_split(&node, &rest, index, alpha) else {
                    return Value::STOPPED;
                };
                let Some(mv) = split.best_move else { break };
                self.pv[ply + 1] = split.pv;
                (mv, split.value)
            } else {
                let mv = next_best(&mut scored, index);
                // Past the first few the moves are sorted (`next_best`), and
                // this limit is at least 7: the rest are quiet too.
                if index >= late_moves_kept && is_quiet(scored[index].1) {
                    proven = false;
                    break;
                }
                let value = self.search_move(&node, mv, index, alpha);
                if self.stopped {
                    return Value::STOPPED;
                }
                (mv, value)
            };
            proven &= value.proven;
            if value.score > best.score {
                best.score = value.score;
                best_move = Some(mv);
                if value.score > alpha {
                    alpha = value.score;
                    self.set_pv(ply, mv);
                    if value.score >= beta {
                        self.ordering.record_cutoff(position, mv, ply, depth);
                        break;
                    }
                }
            }
            if split {
                break;
            }
            self.ordering.record_failure(position, mv, depth);
        }
        best.proven = proven;

        let bound = if best.score >= beta {
            Bound::Lower
        } else if best.score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if options.transposition_table {
            let stored_depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
            self.shared.tt.store(key, TtEntry { mv: best_move, score: best.score, depth: stored_depth, bound, proven });
        }
        best
    }

    /// Searches `mv`, the `index`-th move (in search order) of `node`, with
    /// principal variation search: the first move with the full window, the
    /// others with a zero window (reduced when late and quiet), searched
    /// again when they beat `alpha`.
    pub(super) fn search_move(&mut self, node: &Node<'_>, mv: Move, index: usize, alpha: i32) -> Value {
        let Node { position, depth, ply, beta, extension, pv_node } = *node;
        let mut child = Position::new();
        let removed = position.play_into(mv, &mut child);
        self.enter(ply, position, &child, mv, removed);
        let new_depth = depth - 1 + extension;
        if index == 0 || !self.shared.options.principal_variation {
            return self.search_child(position, &child, new_depth, ply, alpha, beta);
        }
        let quiet = removed.is_empty() && !is_capture(position, mv);
        let reduction = if self.shared.options.late_move_reductions {
            late_move_reduction(depth, index, quiet, pv_node)
        } else {
            0
        };
        let mut value = self.search_child(position, &child, new_depth - reduction, ply, alpha, alpha + 1);
        if value.score > alpha && reduction > 0 {
            value = self.search_child(position, &child, new_depth, ply, alpha, alpha + 1);
        }
        if value.score > alpha && value.score < beta {
            value = self.search_child(position, &child, new_depth, ply, alpha, beta);
        }
        value
    }

    /// Null-move pruning: when even a free move for the opponent (the side
    /// to move passes its turn) cannot bring the score below `beta` in a
    /// reduced search, the node is almost surely a cut-off. Having the move
    /// is an advantage in DVONN except in the ending, so the caller tries
    /// this only with many stacks on the board and a static evaluation at
    /// least `beta`; here, only while the side to move has a choice of
    /// moves and the opponent can move, and never twice in a row.
    fn null_move_fails_high(
        &mut self,
        position: &Position,
        moves: &MoveList,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> bool {
        if moves.len() < NULL_MOVE_MIN_MOVES || !position.has_jump(!position.side_to_move()) {
            return false;
        }
        let Some(child) = position.null_move() else { return false };
        self.enter(ply, position, &child, Move::Pass, Bitboard::EMPTY);
        let reduction = 2 + depth / 4;
        self.null_move_allowed = false;
        let value = self.negamax(&child, depth - 1 - reduction, ply + 1, -beta, -beta + 1).negate();
        self.null_move_allowed = true;
        !self.stopped && value.score >= beta
    }

    /// Searches the root moves in `root_moves` (best first; reordered by
    /// score on return) within `(alpha, beta)`. Returns the best value and
    /// move; the principal variation is left in `pv[0]`.
    pub(crate) fn search_root(
        &mut self,
        position: &Position,
        root_moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(Value, Move)> {
        self.pv[0].clear();
        self.count_node();
        self.start_at(0, position);
        let original_alpha = alpha;
        let mut best: Option<(Value, Move)> = None;
        let mut proven = true;
        let extension = i32::from(root_moves.len() == 1);
        for (index, root_move) in root_moves.iter_mut().enumerate() {
            let mv = root_move.mv;
            let mut child = Position::new();
            let removed = position.play_into(mv, &mut child);
            self.enter(0, position, &child, mv, removed);
            let new_depth = depth - 1 + extension;
            let value = if index == 0 || !self.shared.options.principal_variation {
                self.search_child(position, &child, new_depth, 0, alpha, beta)
            } else {
                let mut value = self.search_child(position, &child, new_depth, 0, alpha, alpha + 1);
                if value.score > alpha && value.score < beta {
                    value = self.search_child(position, &child, new_depth, 0, alpha, beta);
                }
                value
            };
            if self.stopped {
                break;
            }
            proven &= value.proven;
            root_move.score = if index == 0 || value.score > alpha { value.score } else { i32::MIN + index as i32 };
            if best.is_none_or(|(b, _)| value.score > b.score) {
                best = Some((value, mv));
                if value.score > alpha {
                    alpha = value.score;
                    self.set_pv(0, mv);
                    if value.score >= beta {
                        break;
                    }
                }
            }
        }
        if self.stopped {
            // The first move searched completely is still a sound choice.
            return best.filter(|(value, _)| value.score > original_alpha);
        }
        // Stable sort: the best first, the rest in their previous order.
        root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        best.map(|(value, mv)| (Value { score: value.score, proven }, mv))
    }

    /// The value of the root move `mv` at `depth`, searched below the best
    /// move's value `best` of the same iteration: exact when the move is no
    /// better than that (as it should be), a bound above `best` when the
    /// search finds it better after all. `None` when the search was stopped.
    pub(crate) fn search_root_move(&mut self, position: &Position, mv: Move, depth: i32, best: i32) -> Option<Value> {
        let mut child = Position::new();
        let removed = position.play_into(mv, &mut child);
        self.start_at(0, position);
        self.enter(0, position, &child, mv, removed);
        // A root with a choice of moves: no forced-move extension.
        let value = self.search_child(position, &child, depth - 1, 0, -Score::INFINITE.centipieces(), best + 1);
        (!self.stopped).then_some(value)
    }

    /// Prepares for a new search (keeps the history, halved).
    pub(crate) fn new_search(&mut self) {
        self.ordering.new_search();
        self.seldepth = 0;
        self.stopped = false;
    }
}

/// How many plies less the `index`-th move (0-based, in search order) of a
/// node with `depth` to go is searched with: more for later moves and
/// deeper nodes, less for moves that win material and in PV nodes. A
/// reduced move that beats alpha is searched again at full depth.
fn late_move_reduction(depth: i32, index: usize, quiet: bool, pv_node: bool) -> i32 {
    if depth < 3 || index < 3 {
        return 0;
    }
    let base = (f64::from(depth).ln() * (index as f64).ln() / LMR_DIVISOR) as i32;
    let adjusted = base - i32::from(!quiet) - i32::from(pv_node);
    adjusted.clamp(0, depth - 2)
}

/// Scale of the late move reductions (larger: gentler).
const LMR_DIVISOR: f64 = 1.6;

/// The most depth to go at which late-move pruning is tried.
const LATE_MOVE_PRUNING_DEPTH: i32 = 3;
/// The least depth to go at which a node without a table move is reduced.
const INTERNAL_REDUCTION_DEPTH: i32 = 4;

/// How many moves a zero-window node with `depth` to go searches before it
/// skips the quiet ones (those that neither win material nor are killers).
fn late_moves_searched(depth: i32) -> usize {
    (LATE_MOVE_BASE + LATE_MOVE_SCALE * depth * depth) as usize
}

/// The moves searched at any depth before late-move pruning starts.
const LATE_MOVE_BASE: i32 = 4;
/// The further moves searched, per square of the depth to go.
const LATE_MOVE_SCALE: i32 = 3;

/// A root move and its score from the last iteration (for ordering).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    pub(crate) score: i32,
}
