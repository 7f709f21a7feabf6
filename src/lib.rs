#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

/// The rules engine: positions, moves, position strings, perft (the
/// `dvonn-core` crate).
pub use dvonn_core as rules;

/// Game records in every format, and text diagrams (the `dvonn-notation`
/// crate).
pub use dvonn_notation as notation;

/// The player: search, evaluation, placement strategy (the `dvonn-ai` crate).
pub use dvonn_ai as ai;
