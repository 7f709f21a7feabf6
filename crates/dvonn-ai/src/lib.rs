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
//! - evaluation ([`eval`]): material, threats, distance to the DVONN pieces,
//!   DVONN control, mobility and immobile stacks, with weights fitted to
//!   self-play games;
//! - placement phase: the same search, with an evaluation of unfinished
//!   boards made of local patterns whose weights are fitted to deep
//!   searches of finished boards ([`eval::placement`]).
//!
//! A complete program, with `dvonn-ai` and `dvonn-core` as its
//! dependencies: a search on two threads that prints each iteration.
//!
//! ```
//! use dvonn_ai::{Engine, EngineConfig, Limits, SearchInfo};
//! use dvonn_core::Position;
//!
//! fn main() {
//!     let config = EngineConfig { threads: 2, ..EngineConfig::default() };
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

#[cfg(feature = "tuning")]
pub mod bench;
mod engine;
pub mod eval;
mod game;
mod level;
mod limits;
mod observer;
mod placement;
mod score;
mod search;
mod time;
mod tt;

pub use engine::{Engine, EngineConfig, EngineError, ThreadStartError};
pub use eval::{Evaluator, Weights};
pub use game::{Ending, EnginePlayer, Forfeit, Game, GameObserver, PlayedMove, Player, RandomPlayer};
pub use level::{Level, UnknownLevel};
pub use limits::{Clock, Limits, StopHandle};
pub use observer::{Observer, SearchInfo};
pub use placement::PlacementStrategy;
pub use score::Score;
pub use search::{ParallelSearch, SearchOptions, SearchResult, UnknownParallelSearch};
pub use tt::{TranspositionTable, TtAllocError};

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;
