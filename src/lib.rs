#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

/// The rules engine: positions, moves, notation, perft (the `dvonn-core` crate).
pub use dvonn_core as core;

/// The player: search, evaluation, placement strategy (the `dvonn-ai` crate).
pub use dvonn_ai as ai;
