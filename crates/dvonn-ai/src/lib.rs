//! A strong DVONN player, to embed in any Rust program.
//!
//! [`Engine`] searches a [`dvonn_core::Position`] within [`Limits`] (depth,
//! nodes, time per move, or a game clock it shares out itself) and returns a
//! [`SearchResult`] whose move is always legal. Inside:
//!
//! - movement phase: iterative-deepening negamax with PVS, aspiration
//!   windows and late-move reductions over a lock-free transposition table,
//!   run by several threads at once (Lazy SMP on the engine's own rayon
//!   pool by default, young brothers wait as an option: [`ParallelSearch`]);
//!   results that rest only on finished games are *proven* and solve
//!   endgames exactly;
//! - evaluation ([`eval`]): a small network over the stacks of the board,
//!   updated incrementally by the search and learned from self-play games
//!   ([`eval::network`]), with a linear term over material, threats,
//!   distance to the DVONN pieces, DVONN control, mobility and immobile
//!   stacks; the linear evaluation alone is the baseline;
//! - placement phase: the same search, with an evaluation of unfinished
//!   boards made of local patterns whose weights are fitted to deep
//!   searches of finished boards ([`eval::placement`]);
//! - game review ([`review`]): every position of a game searched, every
//!   move judged against the engine's, the evaluation graph as SVG.
//!
//! [`Referee`] plays games: it asks [`Player`]s (the engine, a random
//! player, any other) for their moves on a clock, checks and times them,
//! and records them in a [`dvonn_core::Game`]; a player that breaks the
//! rules loses by [`Forfeit`].
//!
//! A complete program, with `dvonn-ai` and `dvonn-core` as its
//! dependencies: a search on two threads that prints each iteration.
//!
//! ```
//! use dvonn_ai::{Engine, EngineConfig, Limits, SearchInfo};
//! use dvonn_core::Position;
//!
//! fn main() {
//!     let config = EngineConfig::default().with_threads(2);
//!     let mut engine = Engine::new(config).expect("a 64 MiB table");
//!     let position = Position::random_setup_from_seed(7);
//!     let result = engine.search(&position, &Limits::depth(5), &mut |info: &SearchInfo| {
//!         println!("depth {} score {} pv {:?}", info.depth, info.score, info.pv);
//!     });
//!     let best = result.best_move.expect("the game is not over");
//!     assert!(position.is_legal(best));
//!     println!("best move {best}");
//! }
//! ```
#![deny(missing_docs)]

// Chainable by-value setters for the public fields of the configuration
// structs. The structs are `#[non_exhaustive]` (a new option is not a
// breaking change), so other crates cannot build them by literal: they
// start from a default or a constant and chain these. For example
//
//     setters! {
//         impl Limits {
//             /// The setter's documentation.
//             with_depth(depth: u32) => Some(depth);
//         }
//     }
//
// makes `pub const fn with_depth(self, depth: u32) -> Limits`, which sets
// the field `depth` (the argument's name) to `Some(depth)`; without
// `=> value` the field is set to the argument itself.
macro_rules! setters {
    (impl $ty:ident { $($(#[$doc:meta])* $setter:ident($field:ident: $value:ty) $(=> $set:expr)?;)* }) => {
        impl $ty {
            $(
                $(#[$doc])*
                #[must_use]
                pub const fn $setter(mut self, $field: $value) -> $ty {
                    self.$field = setters!(@value $field $(, $set)?);
                    self
                }
            )*
        }
    };
    (@value $field:ident) => { $field };
    (@value $field:ident, $set:expr) => { $set };
}

#[cfg(feature = "tuning")]
pub mod bench;
mod engine;
pub mod eval;
mod game;
mod level;
mod limits;
mod observer;
mod placement;
pub mod review;
mod score;
mod search;
mod time;
mod tt;

pub use engine::{Engine, EngineConfig, EngineError, ThreadStartError};
pub use eval::{Evaluator, MovementEval, Weights};
pub use game::{EnginePlayer, Forfeit, GameObserver, Player, RandomPlayer, Referee};
pub use level::{Level, UnknownLevel};
pub use limits::{Clock, Limits, StopHandle};
pub use observer::{SearchInfo, SearchObserver};
pub use placement::PlacementStrategy;
pub use score::Score;
pub use search::{ParallelSearch, SearchOptions, SearchResult, UnknownParallelSearch};
pub use tt::TtAllocError;

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;
