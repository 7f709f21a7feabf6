//! [`Limits`]: how long a search may run, and the [`StopHandle`] that ends
//! it early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A game clock: the time left for the rest of the game, and what is added
/// after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the player's clock.
    pub remaining: Duration,
    /// Time added after each of his moves.
    pub increment: Duration,
}

/// When a search must stop. Every limit that is set applies; a search with
/// no limit at all runs until its [`StopHandle`] is triggered or the game is
/// solved.
///
/// ```
/// use std::time::Duration;
/// use dvonn_ai::Limits;
/// let fixed = Limits::depth(6);
/// let blitz = Limits::game_clock(Duration::from_secs(5), Duration::ZERO);
/// let one_second = Limits::move_time(Duration::from_secs(1));
/// assert_eq!(fixed.depth, Some(6));
/// assert!(blitz.clock.is_some() && one_second.move_time.is_some());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after the iteration of this depth (plies) completes.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Think for at most this long.
    pub move_time: Option<Duration>,
    /// Share this clock over the rest of the game.
    pub clock: Option<Clock>,
}

impl Limits {
    /// No limit: search until stopped (or solved).
    pub const fn infinite() -> Limits {
        Limits { depth: None, nodes: None, move_time: None, clock: None }
    }

    /// A fixed depth.
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::infinite() }
    }

    /// A fixed number of nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::infinite() }
    }

    /// A fixed time for this move.
    pub const fn move_time(time: Duration) -> Limits {
        Limits { move_time: Some(time), ..Limits::infinite() }
    }

    /// A clock for the rest of the game, from which the engine allocates
    /// each move's time itself.
    pub const fn game_clock(remaining: Duration, increment: Duration) -> Limits {
        Limits { clock: Some(Clock { remaining, increment }), ..Limits::infinite() }
    }
}

/// Stops a running search from another thread. Cheap to clone; all clones
/// stop the same searches.
///
/// ```
/// use dvonn_ai::{Engine, EngineConfig, Limits};
/// use dvonn_core::Position;
/// let mut engine = Engine::new(EngineConfig::default()).unwrap();
/// let stop = engine.stop_handle();
/// stop.stop(); // stopped before it starts: the search returns at once
/// let result = engine.search(&Position::random_setup_from_seed(1), &Limits::infinite(), &mut ());
/// assert!(result.best_move.is_some(), "a legal move even so");
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks every search using this handle to stop as soon as possible.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clears the request, for the next search.
    pub(crate) fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
