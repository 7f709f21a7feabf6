//! Iterative deepening with aspiration windows over the alpha-beta search,
//! run by several threads that share the transposition table (Lazy SMP), or
//! by one whose nodes share their moves out among the threads (young
//! brothers wait, [`ParallelSearch`]).

mod alphabeta;
mod eval_cache;
mod ordering;
mod split;
#[cfg(test)]
mod verification;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::Duration;

use dvonn_core::{Move, Position};

use crate::eval::Evaluator;
use crate::limits::{Limits, StopHandle};
use crate::observer::{SearchInfo, SearchObserver};
use crate::score::Score;
use crate::time::{Deadlines, Stability};
use crate::tt::TranspositionTable;
use alphabeta::{RootMove, Searcher};

/// The deepest ply a search reaches (the second phase lasts at most 48
/// movements, plus passes and the end of placement).
pub(crate) const MAX_PLY: usize = 128;

/// The deepest iteration: enough to reach the end of any game.
const MAX_DEPTH: u32 = 100;

/// Half-width of the first aspiration window, in centipieces.
const ASPIRATION: i32 = 35;

/// Which search techniques the engine uses. All are on by default; turning
/// them off is for experiments and verification. Without null moves,
/// reductions and pruning the search is exact: it returns the
/// value of plain fixed-depth negamax, whatever the table, windows and
/// threads.
///
/// New techniques may be added in any release: start from
/// [`SearchOptions::ALL`] or [`SearchOptions::EXACT`] and chain the
/// `with_*` setters, or set the fields of a mutable value.
///
/// ```
/// use dvonn_ai::{ParallelSearch, SearchOptions};
///
/// let no_table = SearchOptions::EXACT.with_transposition_table(false);
/// assert!(!no_table.null_move && !no_table.transposition_table);
/// let ybwc = SearchOptions::ALL.with_parallel(ParallelSearch::YoungBrothersWait);
/// assert!(ybwc.null_move);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Probe and store the transposition table (off: no table moves, no
    /// table cut-offs).
    pub transposition_table: bool,
    /// Principal variation search: every move after the first is tried
    /// with a zero window first (off: full windows).
    pub principal_variation: bool,
    /// Aspiration windows around the score of two iterations back (off:
    /// every iteration with the full window).
    pub aspiration: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub late_move_reductions: bool,
    /// Reverse futility pruning: a node a few plies from the leaves whose
    /// static evaluation beats beta by a wide margin is cut off unsearched.
    pub futility: bool,
    /// Late-move pruning: a zero-window node a few plies from the leaves
    /// skips its late moves that neither win material nor are killers.
    pub late_move_pruning: bool,
    /// Internal iterative reduction: a node without a table move is
    /// searched one ply shallower (its move order is a guess).
    pub internal_reduction: bool,
    /// Keep each thread's leaf evaluations in a small cache for the
    /// positions it meets again (off: evaluate every time). The
    /// evaluation depends on the position alone, so this changes only the
    /// speed of the search, never its result.
    pub eval_cache: bool,
    /// How several threads share the search.
    pub parallel: ParallelSearch,
}

/// How the threads of a multi-threaded search share the work.
///
/// Lazy SMP is the default: in matches it is the stronger of the two on
/// this engine, although young brothers wait often reaches a depth sooner
/// ([STRENGTH.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/STRENGTH.md#parallel-search)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParallelSearch {
    /// Every thread searches the whole tree from the root, sharing only the
    /// transposition table; the helpers start at staggered depths and in
    /// a different root move order.
    #[default]
    LazySmp,
    /// Young brothers wait: one tree, whose nodes with enough depth to go
    /// share the moves after the first out among the threads.
    YoungBrothersWait,
}

/// A name that is not a [`ParallelSearch`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name:?} is not a parallel search: expected lazy or ybwc")]
pub struct UnknownParallelSearch {
    name: String,
}

impl std::str::FromStr for ParallelSearch {
    type Err = UnknownParallelSearch;

    /// `lazy` (or `lazysmp`) and `ybwc`, in any case.
    fn from_str(text: &str) -> Result<ParallelSearch, UnknownParallelSearch> {
        match text.to_ascii_lowercase().as_str() {
            "lazy" | "lazysmp" => Ok(ParallelSearch::LazySmp),
            "ybwc" => Ok(ParallelSearch::YoungBrothersWait),
            _ => Err(UnknownParallelSearch { name: text.to_string() }),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions::ALL
    }
}

impl SearchOptions {
    /// Everything on: the engine's normal search.
    pub const ALL: SearchOptions = SearchOptions {
        transposition_table: true,
        principal_variation: true,
        aspiration: true,
        null_move: true,
        late_move_reductions: true,
        futility: true,
        late_move_pruning: true,
        internal_reduction: true,
        eval_cache: true,
        parallel: ParallelSearch::LazySmp,
    };

    /// Only the techniques that never change the value of a fixed-depth
    /// search (table, PVS, aspiration, the evaluation cache): the search
    /// returns what plain negamax would.
    pub const EXACT: SearchOptions = SearchOptions::ALL
        .with_null_move(false)
        .with_late_move_reductions(false)
        .with_futility(false)
        .with_late_move_pruning(false)
        .with_internal_reduction(false);
}

setters! {
    impl SearchOptions {
        /// Turns the transposition table on or off.
        with_transposition_table(transposition_table: bool);
        /// Turns principal variation search on or off.
        with_principal_variation(principal_variation: bool);
        /// Turns aspiration windows on or off.
        with_aspiration(aspiration: bool);
        /// Turns null-move pruning on or off.
        with_null_move(null_move: bool);
        /// Turns late-move reductions on or off.
        with_late_move_reductions(late_move_reductions: bool);
        /// Turns reverse futility pruning on or off.
        with_futility(futility: bool);
        /// Turns late-move pruning on or off.
        with_late_move_pruning(late_move_pruning: bool);
        /// Turns internal iterative reduction on or off.
        with_internal_reduction(internal_reduction: bool);
        /// Turns the cache of leaf evaluations on or off.
        with_eval_cache(eval_cache: bool);
        /// Sets how several threads share the search.
        with_parallel(parallel: ParallelSearch);
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchResult {
    /// The move to play: always legal; `None` only when the game is over.
    pub best_move: Option<Move>,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Whether the score is proven (the exact final margin with best play).
    pub exact: bool,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// The last completed depth (0 when no search was needed).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// Time used.
    pub elapsed: Duration,
}

/// The value of one root move, the *candidate*, measured in the same
/// iteration as the best move, so that the two compare on the same footing
/// (same depth, same tree): what a game review needs to judge a played
/// move against the engine's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveValue {
    /// The value of the position after the candidate, for the side to move
    /// before it.
    pub(crate) score: Score,
    /// Whether the value is proven.
    pub(crate) exact: bool,
}

/// A search's answer, with the candidate's value when one was asked for
/// ([`Shared::candidate`]) and an iteration completed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Searched {
    pub(crate) result: SearchResult,
    pub(crate) candidate: Option<MoveValue>,
}

/// What every search thread shares.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) evaluator: &'a Evaluator,
    pub(crate) deadlines: Deadlines,
    pub(crate) options: SearchOptions,
    /// Use table scores only when they were searched to exactly the depth
    /// asked for (proven ones: to at most that depth), so that results equal
    /// fixed-depth negamax even across transpositions at different depths.
    /// For verification; the engine uses deeper results too.
    pub(crate) strict_depth: bool,
    /// The threads that split points share moves with (young brothers
    /// wait); `None` for Lazy SMP and single-threaded searches.
    pub(crate) split_pool: Option<&'a rayon::ThreadPool>,
    /// The least depth to go at which young brothers wait splits a node
    /// (lowered by tests, to split everywhere).
    pub(crate) min_split_depth: i32,
    /// A root move whose value every iteration also measures exactly
    /// ([`MoveValue`]); an iteration counts as complete only once it has.
    pub(crate) candidate: Option<Move>,
    /// The threads that run Lazy SMP helpers beside the caller's.
    lazy_pool: Option<&'a rayon::ThreadPool>,
    external_stop: &'a StopHandle,
    /// Set when the main thread is done: helpers unwind.
    internal_stop: AtomicBool,
    nodes: AtomicU64,
    node_limit: Option<u64>,
}

impl<'a> Shared<'a> {
    /// What a search with `options` shares; `pool` holds the threads
    /// beyond the caller's (see [`pool_threads`]).
    pub(crate) fn new(
        tt: &'a TranspositionTable,
        evaluator: &'a Evaluator,
        deadlines: Deadlines,
        options: SearchOptions,
        pool: Option<&'a rayon::ThreadPool>,
        external_stop: &'a StopHandle,
        node_limit: Option<u64>,
    ) -> Shared<'a> {
        let ybwc = options.parallel == ParallelSearch::YoungBrothersWait;
        Shared {
            tt,
            evaluator,
            deadlines,
            options,
            strict_depth: false,
            split_pool: pool.filter(|_| ybwc),
            lazy_pool: pool.filter(|_| !ybwc),
            min_split_depth: split::MIN_SPLIT_DEPTH,
            candidate: None,
            external_stop,
            internal_stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
        }
    }

    fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, AtomicOrdering::Relaxed);
    }

    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(AtomicOrdering::Relaxed)
    }

    /// Whether any reason to stop has come up.
    pub(crate) fn must_stop(&self) -> bool {
        self.internal_stop.load(AtomicOrdering::Relaxed)
            || self.external_stop.is_stopped()
            || self.node_limit.is_some_and(|limit| self.nodes() >= limit)
            || self.deadlines.hard_passed()
    }
}

/// One thread's iterative deepening. The main thread (`helper == None`)
/// reports to `observer`, respects the soft deadline, and decides when the
/// search ends; helpers (`Some(index)`) start at staggered depths and run
/// until the main thread stops them. All respect the depth limit and return
/// their last complete iteration, with the candidate's value measured in it
/// when the search has a candidate.
fn iterative_deepening(
    searcher: &mut Searcher<'_>,
    position: &Position,
    root_moves: &mut [RootMove],
    depth_limit: u32,
    helper: Option<usize>,
    observer: &mut dyn SearchObserver,
) -> Option<Searched> {
    let candidate = searcher.shared.candidate;
    let mut result: Option<Searched> = None;
    // Half the helpers (the first among them) run one iteration ahead.
    let first_depth = 1 + helper.map_or(0, |i| ((i + 1) % 2) as u32);
    // Scores alternate with the parity of the depth (the side to move at
    // the leaves changes), so each window is centred on the score two
    // iterations back.
    let mut stability = Stability::default();
    for depth in first_depth..=depth_limit {
        let same_parity = stability.same_parity_score();
        let aspiration = searcher.shared.options.aspiration;
        let (mut alpha, mut beta) = if let Some(previous) = same_parity.filter(|_| aspiration && depth >= 4) {
            (previous - ASPIRATION, previous + ASPIRATION)
        } else {
            (-Score::INFINITE.centipieces(), Score::INFINITE.centipieces())
        };
        let mut window = ASPIRATION;
        let found = loop {
            let found = searcher.search_root(position, root_moves, depth as i32, alpha, beta);
            if searcher.stopped {
                break found;
            }
            let Some((value, _)) = found else { break None };
            if value.score <= alpha {
                window *= 4;
                alpha = (value.score - window).max(-Score::INFINITE.centipieces());
            } else if value.score >= beta {
                window *= 4;
                beta = (value.score + window).min(Score::INFINITE.centipieces());
            } else {
                break found;
            }
        };
        let Some((value, best_move)) = found else { break };
        if searcher.stopped {
            // An interrupted iteration still proves the moves it finished:
            // keep a better move it found, at the last complete depth. Not
            // when a candidate is measured: its value and the best move's
            // must come from the same iteration.
            let last = result.as_mut().map(|r| &mut r.result).filter(|r| r.best_move != Some(best_move));
            if let Some(last) = last.filter(|_| candidate.is_none()) {
                last.best_move = Some(best_move);
                last.score = Score::from_centipieces(value.score);
                last.pv = vec![best_move];
                last.exact = false;
            }
            break;
        }
        let candidate_value = match candidate {
            None => None,
            Some(mv) if mv == best_move => Some(value),
            Some(mv) => match searcher.search_root_move(position, mv, depth as i32, value.score) {
                Some(value) => Some(value),
                // Stopped: the last complete iteration stands.
                None => break,
            },
        };
        let candidate_value =
            candidate_value.map(|v| MoveValue { score: Score::from_centipieces(v.score), exact: v.proven });
        stability.record(depth, best_move, value.score);
        let shared = searcher.shared;
        let elapsed = shared.deadlines.elapsed();
        let mut pv = searcher.principal_variation().to_vec();
        if pv.first() != Some(&best_move) {
            pv = vec![best_move];
        }
        let nodes = searcher.total_nodes();
        let info = SearchInfo {
            depth,
            seldepth: searcher.seldepth as u32,
            score: Score::from_centipieces(value.score),
            exact: value.proven,
            pv: pv.clone(),
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            elapsed,
        };
        let iteration = SearchResult {
            best_move: Some(best_move),
            score: info.score,
            exact: value.proven,
            pv,
            depth,
            seldepth: info.seldepth,
            nodes,
            elapsed,
        };
        result = Some(Searched { result: iteration, candidate: candidate_value });
        if helper.is_none() {
            observer.on_iteration(&info);
            // A proven value will not change; the next iteration usually
            // takes several times longer than all before it.
            if value.proven || !shared.deadlines.may_start_iteration(&stability) {
                break;
            }
        }
    }
    result
}

/// The size of the thread pool a search on `threads` threads needs: Lazy
/// SMP's helpers run beside the caller's thread; young brothers wait splits
/// run on the pool alone while the caller's thread waits.
pub(crate) fn pool_threads(parallel: ParallelSearch, threads: usize) -> usize {
    match parallel {
        ParallelSearch::LazySmp => threads - 1,
        ParallelSearch::YoungBrothersWait => threads,
    }
}

/// Searches `position` with the threads of `shared`. With Lazy SMP all
/// search the same root, sharing the table, and the deepest complete
/// iteration of any thread gives the result (a proven one before any that
/// is not; the main thread's wins ties).
/// With young brothers wait, the main thread's search splits its nodes.
pub(crate) fn search(
    position: &Position,
    limits: &Limits,
    shared: &Shared<'_>,
    fallback: Move,
    observer: &mut dyn SearchObserver,
) -> Searched {
    let mut root_moves: Vec<RootMove> = position.legal_moves().iter().map(|&mv| RootMove { mv, score: 0 }).collect();
    // Start from the fallback (the caller's best guess) so that even an
    // interrupted first iteration has sensible ordering.
    if let Some(i) = root_moves.iter().position(|r| r.mv == fallback) {
        root_moves[..=i].rotate_right(1);
    }
    let depth_limit = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    shared.tt.new_search();

    let run_main = |observer: &mut dyn SearchObserver| {
        let mut searcher = Searcher::new(shared);
        searcher.new_search();
        let mut moves = root_moves.clone();
        let result = iterative_deepening(&mut searcher, position, &mut moves, depth_limit, None, observer);
        searcher.flush_nodes();
        shared.internal_stop.store(true, AtomicOrdering::Relaxed);
        result
    };
    let helper_results = std::sync::Mutex::new(Vec::new());
    let main_result = match shared.lazy_pool {
        Some(pool) if pool.current_num_threads() > 0 => pool.in_place_scope(|scope| {
            for index in 0..pool.current_num_threads() {
                let mut moves = root_moves.clone();
                // Helpers try the moves in a different order at first.
                let shift = (index + 1) % moves.len().max(1);
                moves.rotate_left(shift);
                let helper_results = &helper_results;
                scope.spawn(move |_| {
                    let mut searcher = Searcher::new(shared);
                    searcher.new_search();
                    let result =
                        iterative_deepening(&mut searcher, position, &mut moves, depth_limit, Some(index), &mut ());
                    searcher.flush_nodes();
                    if let (Some(result), Ok(mut results)) = (result, helper_results.lock()) {
                        results.push(result);
                    }
                });
            }
            run_main(observer)
        }),
        _ => run_main(observer),
    };
    let helpers = helper_results.into_inner().unwrap_or_default();
    // A proven result is final: a deeper iteration that proved nothing
    // (a helper running ahead) does not replace it.
    let searched = helpers.into_iter().fold(main_result, |best, other| match best {
        Some(best) if (best.result.exact, best.result.depth) >= (other.result.exact, other.result.depth) => Some(best),
        _ => Some(other),
    });
    let elapsed = shared.deadlines.elapsed();
    let mut searched = searched.unwrap_or_else(|| Searched {
        result: SearchResult {
            best_move: Some(fallback),
            score: Score::ZERO,
            exact: false,
            pv: vec![fallback],
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed,
        },
        candidate: None,
    });
    searched.result.nodes = shared.nodes();
    searched.result.elapsed = elapsed;
    debug_assert!(searched.result.best_move.is_some_and(|mv| position.is_legal(mv)));
    searched
}
