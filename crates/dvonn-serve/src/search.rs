//! Engine searches for the games: at most so many at once (the others wait
//! for a slot), each on a blocking thread with an engine from a small pool,
//! each stoppable through its [`SearchControl`], and each stopped when the
//! future waiting for it is dropped (its client went away). A search is one
//! search of a position ([`Searcher::run`]) or any work with an engine that
//! its stop handle ends ([`Searcher::run_with_engine`]: a game review).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use dvonn_ai::{Engine, EngineConfig, Limits, SearchInfo, SearchResult, StopHandle};
use dvonn_core::Position;
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Stops one search, whether it is waiting for a slot, running, or not
/// started yet. Clones stop the same search.
#[derive(Clone, Debug, Default)]
pub(crate) struct SearchControl(Arc<Mutex<ControlState>>);

#[derive(Debug, Default)]
struct ControlState {
    stopped: bool,
    /// The engine's handle while the engine searches.
    engine: Option<StopHandle>,
}

impl SearchControl {
    /// Stops the search: an engine move is played at once (the best found
    /// so far), an analysis ends.
    pub(crate) fn stop(&self) {
        let mut state = self.lock();
        state.stopped = true;
        if let Some(engine) = &state.engine {
            engine.stop();
        }
    }

    /// Whether [`stop`](SearchControl::stop) was called.
    #[cfg(test)]
    pub(crate) fn is_stopped(&self) -> bool {
        self.lock().stopped
    }

    /// Hands the engine's stop to this control for the search about to
    /// start (stopping it at once when the control was stopped before).
    fn attach(&self, engine: StopHandle) {
        let mut state = self.lock();
        if state.stopped {
            engine.stop();
        }
        state.engine = Some(engine);
    }

    /// Takes the engine's stop back after its search; returns whether the
    /// search was stopped.
    fn detach(&self) -> bool {
        let mut state = self.lock();
        state.engine = None;
        state.stopped
    }

    fn lock(&self) -> MutexGuard<'_, ControlState> {
        // The state is two fields written under the lock: always whole.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Stops a search when dropped before [`disarm`](StopOnDrop::disarm).
#[derive(Debug)]
struct StopOnDrop(Option<SearchControl>);

impl StopOnDrop {
    /// Lets the search go on after all.
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(control) = &self.0 {
            control.stop();
        }
    }
}

/// `limits` with a time limit of at most `max`.
pub(crate) fn capped(limits: Limits, max: Duration) -> Limits {
    let move_time = limits.move_time.map_or(max, |time| time.min(max));
    limits.with_move_time(move_time)
}

/// Counts one running search while it lives (also when the search panics).
struct Counted<'a>(&'a AtomicUsize);

impl<'a> Counted<'a> {
    fn new(counter: &'a AtomicUsize) -> Counted<'a> {
        counter.fetch_add(1, Ordering::SeqCst);
        Counted(counter)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs the searches of every game.
#[derive(Debug)]
pub(crate) struct Searcher {
    slots: Arc<Semaphore>,
    /// Engines between searches, oldest first.
    idle: Mutex<Vec<Engine>>,
    max_idle: usize,
    running: AtomicUsize,
    hash_mb: usize,
    seed: u64,
}

impl Searcher {
    /// Runs up to `max_searches` searches at once, with engines of
    /// `hash_mb` MiB tables seeded with `seed`.
    pub(crate) fn new(max_searches: usize, hash_mb: usize, seed: u64) -> Searcher {
        let max_searches = max_searches.max(1);
        Searcher {
            slots: Arc::new(Semaphore::new(max_searches)),
            idle: Mutex::new(Vec::new()),
            max_idle: max_searches,
            running: AtomicUsize::new(0),
            hash_mb,
            seed,
        }
    }

    /// The searches running now (not those waiting for a slot).
    pub(crate) fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Waits for a slot, then searches `position` within `limits` with an
    /// engine of `config` (one thread; the table size and seed are the
    /// server's), calling `on_iteration` after each iteration. Dropping the
    /// future stops the search.
    pub(crate) async fn run(
        self: &Arc<Self>,
        position: Position,
        config: EngineConfig,
        limits: Limits,
        control: SearchControl,
        mut on_iteration: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> Result<SearchResult, ApiError> {
        self.run_with_engine(config, control, move |engine| engine.search(&position, &limits, &mut on_iteration)).await
    }

    /// Waits for a slot, then runs `job` on a blocking thread with an
    /// engine of `config` (one thread; the table size and seed are the
    /// server's). `control` stops the job through the engine's
    /// [`stop_handle`](Engine::stop_handle), which the job must heed.
    /// Dropping the future stops the job.
    pub(crate) async fn run_with_engine<T: Send + 'static>(
        self: &Arc<Self>,
        config: EngineConfig,
        control: SearchControl,
        job: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let stop_when_dropped = StopOnDrop(Some(control.clone()));
        let slot = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        let searcher = Arc::clone(self);
        let config = config.with_threads(1).with_hash_mb(self.hash_mb).with_seed(self.seed);
        let task = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let mut engine = searcher.take_engine(&config)?;
            control.attach(engine.stop_handle());
            let counted = Counted::new(&searcher.running);
            let result = job(&mut engine);
            drop(counted);
            // A stop that came after the search ended would end the
            // engine's next search at once (and a stopped job may leave
            // the handle stopped): such an engine is not reused.
            if !control.detach() {
                searcher.keep_engine(engine);
            }
            Ok(result)
        });
        let result = task.await.map_err(|error| ApiError::internal(format!("the search failed: {error}")))?;
        stop_when_dropped.disarm();
        result
    }

    /// An idle engine of `config`, or a new one.
    fn take_engine(&self, config: &EngineConfig) -> Result<Engine, ApiError> {
        let mut idle = self.idle();
        if let Some(i) = idle.iter().position(|engine| engine.config() == config) {
            return Ok(idle.remove(i));
        }
        drop(idle);
        Engine::new(config.clone()).map_err(|error| ApiError::unavailable(format!("cannot start an engine: {error}")))
    }

    /// Keeps `engine` for a later search, dropping the oldest idle engine
    /// when there are enough.
    fn keep_engine(&self, engine: Engine) {
        let mut idle = self.idle();
        idle.push(engine);
        if idle.len() > self.max_idle {
            idle.remove(0);
        }
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Engine>> {
        // A pool of engines has no state to break: take it even if a
        // search thread panicked while holding it.
        self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_capped() {
        let max = Duration::from_secs(60);
        assert_eq!(capped(Limits::depth(4), max), Limits::depth(4).with_move_time(max));
        assert_eq!(capped(Limits::move_time(Duration::from_secs(90)), max), Limits::move_time(max));
        let short = Limits::move_time(Duration::from_millis(100));
        assert_eq!(capped(short, max), short);
    }

    #[tokio::test]
    async fn a_stop_before_the_search_plays_at_once_and_the_engine_is_not_reused() {
        let searcher = Arc::new(Searcher::new(1, 1, 0));
        let control = SearchControl::default();
        control.stop();
        let position = Position::random_setup_from_seed(3);
        let result = searcher
            .run(position, EngineConfig::default(), Limits::infinite(), control, |_: &SearchInfo| {})
            .await
            .unwrap();
        assert!(position.is_legal(result.best_move.unwrap()));
        assert!(searcher.idle().is_empty());
        let result = searcher
            .run(position, EngineConfig::default(), Limits::depth(2), SearchControl::default(), |_: &SearchInfo| {})
            .await
            .unwrap();
        assert_eq!(result.depth, 2);
        assert_eq!(searcher.idle().len(), 1);
        assert_eq!(searcher.running(), 0);
    }
}
