//! Progress reports of a search: a [`SearchObserver`] receives a
//! [`SearchInfo`] after every completed iteration.

use std::time::Duration;

use dvonn_core::Move;

use crate::score::Score;

/// The state of a search after an iteration.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchInfo {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The deepest ply reached (extensions included).
    pub seldepth: u32,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Whether the score is proven: the exact final margin with best play.
    pub exact: bool,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// Receives the progress reports of a search (a game's moves go to a
/// [`GameObserver`](crate::GameObserver)). The search calls it on the
/// thread that called [`Engine::search`](crate::Engine::search).
///
/// `()` observes nothing; any `FnMut(&SearchInfo)` closure is an observer.
///
/// ```
/// use dvonn_ai::{Engine, EngineConfig, Limits, SearchInfo};
/// use dvonn_core::Position;
/// let mut engine = Engine::new(EngineConfig::default()).unwrap();
/// let mut depths = Vec::new();
/// let mut observer = |info: &SearchInfo| depths.push(info.depth);
/// engine.search(&Position::random_setup_from_seed(1), &Limits::depth(3), &mut observer);
/// assert_eq!(depths, [1, 2, 3]);
/// ```
pub trait SearchObserver {
    /// Called after each completed iteration of iterative deepening.
    fn on_iteration(&mut self, info: &SearchInfo);
}

impl SearchObserver for () {
    fn on_iteration(&mut self, _info: &SearchInfo) {}
}

impl<F: FnMut(&SearchInfo)> SearchObserver for F {
    fn on_iteration(&mut self, info: &SearchInfo) {
        self(info)
    }
}
