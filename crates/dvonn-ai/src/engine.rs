//! [`Engine`]: the player. Owned by the caller, reusable across moves and
//! games, configured with [`EngineConfig`].

use std::time::Instant;

use dvonn_core::{Move, Phase, Position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::eval::{Evaluator, MovementEval, PlacementEval, final_margin};
use crate::limits::{Limits, StopHandle};
use crate::observer::SearchObserver;
use crate::placement::{self, PlacementStrategy};
use crate::score::Score;
use crate::search::{self, SearchOptions, SearchResult, Searched, Shared};
use crate::time::Deadlines;
use crate::tt::{TranspositionTable, TtAllocError};

/// From this many empty cells down, even the heuristic and random
/// placement strategies search their placements into the movement phase.
const ALPHA_BETA_PLACEMENT_CELLS: u32 = 4;

/// How an [`Engine`] is built.
///
/// New settings may be added in any release: start from
/// [`EngineConfig::default()`] (or a [`Level`](crate::Level)'s
/// [`config`](crate::Level::config)) and chain the `with_*` setters, or set
/// the fields of a mutable value.
///
/// ```
/// use dvonn_ai::{EngineConfig, ParallelSearch, SearchOptions};
///
/// let config = EngineConfig::default()
///     .with_threads(4)
///     .with_hash_mb(256)
///     .with_search(SearchOptions::ALL.with_parallel(ParallelSearch::YoungBrothersWait));
/// assert_eq!((config.threads, config.hash_mb, config.seed), (4, 256, 0));
///
/// // The fields can be set directly as well.
/// let mut config = config;
/// config.seed = 7;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineConfig {
    /// Search threads, 1 or more (the caller's thread is one of them).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// How the movement phase is judged (the shipped network by default).
    pub movement_eval: MovementEval,
    /// How placements are chosen.
    pub placement: PlacementStrategy,
    /// How the search judges placement-phase positions.
    pub placement_eval: PlacementEval,
    /// Which search techniques are used (all by default).
    pub search: SearchOptions,
    /// Seed of the engine's random choices (the heuristic and random
    /// placement strategies): the same seed, one thread and a depth or node
    /// limit give the same moves and node counts every time.
    pub seed: u64,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            threads: 1,
            hash_mb: 64,
            movement_eval: MovementEval::default(),
            placement: PlacementStrategy::Search,
            placement_eval: PlacementEval::default(),
            search: SearchOptions::ALL,
            seed: 0,
        }
    }
}

setters! {
    impl EngineConfig {
        /// Sets the search threads, 1 or more.
        with_threads(threads: usize);
        /// Sets the transposition table size in MiB.
        with_hash_mb(hash_mb: usize);
        /// Sets how the movement phase is judged.
        with_movement_eval(movement_eval: MovementEval);
        /// Sets how placements are chosen.
        with_placement(placement: PlacementStrategy);
        /// Sets how the search judges placement-phase positions.
        with_placement_eval(placement_eval: PlacementEval);
        /// Sets which search techniques are used.
        with_search(search: SearchOptions);
        /// Sets the seed of the engine's random choices.
        with_seed(seed: u64);
    }
}

/// Why an engine could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The transposition table could not be allocated.
    #[error(transparent)]
    Memory(#[from] TtAllocError),
    /// The thread count is 0.
    #[error("an engine needs at least one thread")]
    NoThreads,
    /// The thread pool could not be started.
    #[error(transparent)]
    Threads(#[from] ThreadStartError),
}

/// The search threads could not be started; the operating system's reason
/// is the error's [`source`](std::error::Error::source).
#[derive(Debug, thiserror::Error)]
#[error("cannot start the search threads")]
pub struct ThreadStartError {
    #[source]
    source: rayon::ThreadPoolBuildError,
}

/// A DVONN player.
///
/// ```
/// use dvonn_ai::{Engine, EngineConfig, Limits};
/// use dvonn_core::Position;
///
/// let mut engine = Engine::new(EngineConfig::default()).unwrap();
/// let position = Position::random_setup_from_seed(42);
/// let result = engine.search(&position, &Limits::depth(4), &mut ());
/// let best = result.best_move.unwrap();
/// assert!(position.is_legal(best));
/// println!("{best} scores {} after {} nodes", result.score, result.nodes);
/// ```
#[derive(Debug)]
pub struct Engine {
    config: EngineConfig,
    tt: TranspositionTable,
    evaluator: Evaluator,
    /// Helper threads for the search; `None` with one thread.
    pool: Option<rayon::ThreadPool>,
    stop: StopHandle,
    rng: ChaCha8Rng,
}

impl Engine {
    /// An engine with its table allocated and its threads started.
    pub fn new(config: EngineConfig) -> Result<Engine, EngineError> {
        if config.threads == 0 {
            return Err(EngineError::NoThreads);
        }
        let tt = TranspositionTable::new(config.hash_mb)?;
        let pool = if config.threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(search::pool_threads(config.search.parallel, config.threads))
                    .thread_name(|i| format!("dvonn-search-{i}"))
                    .build()
                    .map_err(|source| ThreadStartError { source })?,
            )
        } else {
            None
        };
        let evaluator = Evaluator::of(config.movement_eval).with_placement(config.placement_eval);
        Ok(Engine {
            evaluator,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            config,
            tt,
            pool,
            stop: StopHandle::default(),
        })
    }

    /// The configuration the engine was built with.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The evaluator the search uses.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// A handle that stops the running (or next) search from another
    /// thread. A stop that arrives while no search runs ends the next one at
    /// once; every search clears it when it returns.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Forgets what earlier searches learnt (a new game) and restarts the
    /// random stream from the seed.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.rng = ChaCha8Rng::seed_from_u64(self.config.seed);
    }

    /// Chooses a move for `position` within `limits`, reporting progress to
    /// `observer` (`&mut ()` for none). The move is always legal; it is
    /// `None` only when the game is over. A position with one legal move
    /// returns it at once.
    pub fn search(&mut self, position: &Position, limits: &Limits, observer: &mut impl SearchObserver) -> SearchResult {
        let start = Instant::now();
        let result = self.choose(position, limits, observer, start);
        self.stop.reset();
        debug_assert!(result.best_move.is_none_or(|mv| position.is_legal(mv)));
        result
    }

    fn choose(
        &mut self,
        position: &Position,
        limits: &Limits,
        observer: &mut dyn SearchObserver,
        start: Instant,
    ) -> SearchResult {
        let moves = position.legal_moves();
        let immediate = |best_move: Option<Move>, score: Score, exact: bool| SearchResult {
            best_move,
            score,
            exact,
            pv: best_move.into_iter().collect(),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: start.elapsed(),
        };
        match moves.as_slice() {
            [] => return immediate(None, final_margin(position), true),
            [only] => return immediate(Some(*only), self.evaluator.evaluate(position), false),
            _ => {}
        }
        let deadlines = Deadlines::new(limits, position, start);
        if position.phase() == Phase::Placement && (!position.occupied()).len() > ALPHA_BETA_PLACEMENT_CELLS {
            let chosen = match self.config.placement {
                // Searched like any other position, below.
                PlacementStrategy::Search => None,
                PlacementStrategy::Heuristic => placement::heuristic_placement(position, &mut self.rng),
                PlacementStrategy::Random => placement::random_placement(position, &mut self.rng),
            };
            if chosen.is_some() {
                return immediate(chosen, Score::ZERO, false);
            }
        }
        let shared = self.shared(limits, deadlines, &self.stop);
        search::search(position, limits, &shared, moves[0], observer).result
    }

    /// Searches `position` for a game review: always with the alpha-beta
    /// search (whatever the placement strategy), stopped by `stop` (which,
    /// unlike the engine's own handle, it never clears), and measuring
    /// `candidate` (a legal move) in the same iterations as the best move.
    /// `None` when the game is over.
    pub(crate) fn search_for_review(
        &self,
        position: &Position,
        limits: &Limits,
        candidate: Option<Move>,
        stop: &StopHandle,
    ) -> Option<Searched> {
        let start = Instant::now();
        // The candidate is tried first: the first iteration measures it on
        // the way, and a played move is often the best.
        let first = candidate.or_else(|| position.legal_moves().first().copied())?;
        let mut shared = self.shared(limits, Deadlines::new(limits, position, start), stop);
        shared.candidate = candidate;
        Some(search::search(position, limits, &shared, first, &mut ()))
    }

    /// What the threads of a search on the engine's table, evaluator and
    /// threads share, stopped by `stop`.
    fn shared<'a>(&'a self, limits: &Limits, deadlines: Deadlines, stop: &'a StopHandle) -> Shared<'a> {
        let options = self.config.search;
        Shared::new(&self.tt, &self.evaluator, deadlines, options, self.pool.as_ref(), stop, limits.nodes)
    }
}
