//! [`Limits`]: how long a search may run, and the [`StopHandle`] that ends
//! it early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A game clock: the time left for the rest of the game, and what is added
/// after each move.
///
/// New settings may be added in any release: build one with
/// [`Clock::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// Time left on the player's clock.
    pub remaining: Duration,
    /// Time added after each of his moves.
    pub increment: Duration,
}

impl Clock {
    /// `remaining` on the clock, and `increment` added after each move.
    pub const fn new(remaining: Duration, increment: Duration) -> Clock {
        Clock { remaining, increment }
    }
}

setters! {
    impl Clock {
        /// Sets the time left on the clock.
        with_remaining(remaining: Duration);
        /// Sets the time added after each move.
        with_increment(increment: Duration);
    }
}

/// When a search must stop. Every limit that is set applies; a search with
/// no limit at all runs until its [`StopHandle`] is triggered or the game is
/// solved.
///
/// New kinds of limit may be added in any release: start from one of the
/// constructors ([`Limits::depth`], [`Limits::infinite`], ...) and chain the
/// `with_*` setters, or set the fields of a mutable value.
///
/// ```
/// use std::time::Duration;
/// use dvonn_ai::Limits;
/// let fixed = Limits::depth(6);
/// let blitz = Limits::game_clock(Duration::from_secs(5), Duration::ZERO);
/// let one_second = Limits::move_time(Duration::from_secs(1));
/// assert_eq!(fixed.depth, Some(6));
/// assert!(blitz.clock.is_some() && one_second.move_time.is_some());
/// // Depth 20 unless a second runs out first.
/// let both = Limits::depth(20).with_move_time(Duration::from_secs(1));
/// assert_eq!((both.depth, both.move_time), (Some(20), Some(Duration::from_secs(1))));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
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
        Limits::infinite().with_depth(depth)
    }

    /// A fixed number of nodes.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits::infinite().with_nodes(nodes)
    }

    /// A fixed time for this move.
    pub const fn move_time(time: Duration) -> Limits {
        Limits::infinite().with_move_time(time)
    }

    /// A clock for the rest of the game, from which the engine allocates
    /// each move's time itself.
    pub const fn game_clock(remaining: Duration, increment: Duration) -> Limits {
        Limits::infinite().with_clock(Clock::new(remaining, increment))
    }
}

setters! {
    impl Limits {
        /// Sets the depth limit: stop after the iteration of this depth
        /// (plies) completes.
        with_depth(depth: u32) => Some(depth);
        /// Sets the node limit: stop after about this many nodes.
        with_nodes(nodes: u64) => Some(nodes);
        /// Sets the time limit of this move.
        with_move_time(move_time: Duration) => Some(move_time);
        /// Sets the clock to share over the rest of the game.
        with_clock(clock: Clock) => Some(clock);
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
