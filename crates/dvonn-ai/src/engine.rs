//! [`Engine`]: the player. Owned by the caller, reusable across moves and
//! games, configured with [`EngineConfig`].

use std::time::Instant;

use dvonn_core::{Move, Phase, Position};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::eval::{Evaluator, Weights, final_margin};
use crate::limits::{Limits, StopHandle};
use crate::observer::{Observer, SearchInfo};
use crate::placement::{self, MonteCarlo, PlacementStrategy};
use crate::score::Score;
use crate::search::{self, SearchOptions, SearchResult, Shared};
use crate::time::Deadlines;
use crate::tt::{TranspositionTable, TtAllocError};

/// From this many empty cells down, placements are searched by alpha-beta
/// into the movement phase instead of by Monte-Carlo playouts.
const ALPHA_BETA_PLACEMENT_CELLS: u32 = 4;

/// Playouts per depth step when a placement search has only a depth limit.
const PLAYOUTS_PER_DEPTH: u64 = 2_000;

/// How an [`Engine`] is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Search threads, 1 or more (the caller's thread is one of them).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Evaluation weights.
    pub weights: Weights,
    /// How placements are chosen.
    pub placement: PlacementStrategy,
    /// Which search techniques are used (all by default).
    pub search: SearchOptions,
    /// Seed of the engine's random choices (placement playouts and
    /// heuristic tie-breaks): the same seed, one thread and a depth or node
    /// limit give the same moves and node counts every time.
    pub seed: u64,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            threads: 1,
            hash_mb: 64,
            weights: Weights::TUNED,
            placement: PlacementStrategy::MonteCarlo,
            search: SearchOptions::ALL,
            seed: 0,
        }
    }
}

/// Why an engine could not be built.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The transposition table could not be allocated.
    #[error(transparent)]
    Memory(#[from] TtAllocError),
    /// The thread count is 0.
    #[error("an engine needs at least one thread")]
    NoThreads,
    /// The thread pool could not be started.
    #[error("cannot start the search threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
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
                    .build()?,
            )
        } else {
            None
        };
        Ok(Engine {
            evaluator: Evaluator::new(config.weights),
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
    pub fn search(&mut self, position: &Position, limits: &Limits, observer: &mut impl Observer) -> SearchResult {
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
        observer: &mut dyn Observer,
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
                PlacementStrategy::MonteCarlo => return self.monte_carlo(position, limits, &deadlines, observer),
                PlacementStrategy::Heuristic => placement::heuristic_placement(position, &mut self.rng),
                PlacementStrategy::Random => placement::random_placement(position, &mut self.rng),
            };
            return immediate(chosen, Score::ZERO, false);
        }
        let options = self.config.search;
        let shared =
            Shared::new(&self.tt, &self.evaluator, deadlines, options, self.pool.as_ref(), &self.stop, limits.nodes);
        search::search(position, limits, &shared, moves[0], observer)
    }

    /// Placement by Monte-Carlo tree search: one tree per thread, root
    /// statistics merged, the most visited move played.
    fn monte_carlo(
        &mut self,
        position: &Position,
        limits: &Limits,
        deadlines: &Deadlines,
        observer: &mut dyn Observer,
    ) -> SearchResult {
        let threads = self.config.threads as u64;
        let fixed = limits.nodes.or(limits.depth.map(|d| u64::from(d) * PLAYOUTS_PER_DEPTH));
        let per_thread = fixed.map(|n| n.div_ceil(threads));
        let stop = &self.stop;
        let seeds: Vec<u64> = (0..threads).map(|_| rand::Rng::random(&mut self.rng)).collect();
        let run = |seed: u64| {
            let mut tree = MonteCarlo::new(position, seed);
            let batch = 64;
            tree.run(batch, |done| {
                if stop.is_stopped() || deadlines.hard_passed() {
                    return false;
                }
                match per_thread {
                    Some(n) => done < n,
                    // A placement uses its whole share of the clock (and
                    // runs until stopped when there is none).
                    None => deadlines.may_start(1.0),
                }
            });
            tree
        };
        let trees: Vec<MonteCarlo> = match &self.pool {
            Some(pool) => {
                let mut trees = Vec::new();
                pool.in_place_scope(|scope| {
                    let (sender, receiver) = std::sync::mpsc::channel();
                    for &seed in &seeds[1..] {
                        let sender = sender.clone();
                        let run = &run;
                        scope.spawn(move |_| {
                            // The receiver lives until the scope ends.
                            let _ = sender.send(run(seed));
                        });
                    }
                    drop(sender);
                    trees.push(run(seeds[0]));
                    trees.extend(receiver.iter());
                });
                trees
            }
            None => vec![run(seeds[0])],
        };
        let mut stats = trees[0].root_stats();
        for tree in &trees[1..] {
            for (total, other) in stats.iter_mut().zip(tree.root_stats()) {
                debug_assert_eq!(total.mv, other.mv);
                total.visits += other.visits;
                total.value += other.value;
                total.margin += other.margin;
            }
        }
        let playouts: u64 = stats.iter().map(|s| u64::from(s.visits)).sum();
        let best = stats.iter().max_by_key(|s| s.visits).copied();
        let best_move = best.map(|s| s.mv).or_else(|| position.legal_moves().first().copied());
        let score = best.filter(|s| s.visits > 0).map_or(Score::ZERO, |s| {
            Score::from_centipieces((s.margin / f64::from(s.visits) * f64::from(Score::SCALE)).round() as i32)
        });
        let mut pv = trees[0].principal_variation();
        if pv.first() != best_move.as_ref() {
            pv = best_move.into_iter().collect();
        }
        let elapsed = deadlines.elapsed();
        let depth = trees.iter().map(|t| t.depth).max().unwrap_or(0);
        observer.on_iteration(&SearchInfo {
            depth,
            seldepth: depth,
            score,
            exact: false,
            pv: pv.clone(),
            nodes: playouts,
            nps: (playouts as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            elapsed,
        });
        SearchResult { best_move, score, exact: false, pv, depth, seldepth: depth, nodes: playouts, elapsed }
    }
}
