//! The rules of DVONN, Kris Burm's stacking game of the GIPF project: a
//! complete, fast rules engine.
//!
//! - [`Position`]: a small `Copy` position with bitboards for the 49 cells;
//!   [`Position::legal_moves`] (placement, movement, pass),
//!   [`Position::play`] (checked), [`Position::play_unchecked`] (fast) and
//!   [`Position::play_into`] (fastest, into a child position),
//!   removal of the stacks a move cuts off from the DVONN pieces, Zobrist
//!   hashing, score and outcome.
//! - [`Cell`], [`Bitboard`], [`Stack`], [`Move`], [`MoveList`]: the pieces
//!   of the model.
//! - [`notation`]: moves, position strings and game records as text:
//!   [`GameRecord`] (the project's own record, with [`GameRecord::replay`]),
//!   and Little Golem, BoardSpace SGF and CodeCup games through
//!   [`notation::read_any`] and [`notation::write`].
//! - [`perft`]: move-generator verification and benchmarking.
//!
//! ```
//! use dvonn_core::{Move, Position};
//! use rand::{SeedableRng, seq::IndexedRandom};
//!
//! // Play a whole game of random moves from the empty board.
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let mut position = Position::new();
//! loop {
//!     let moves = position.legal_moves();
//!     let Some(&mv) = moves.choose(&mut rng) else { break };
//!     position.play(mv).expect("generated moves are legal");
//! }
//! assert!(position.is_game_over());
//! println!("{position}: {}", position.outcome().is_some());
//! ```
#![deny(missing_docs)]

mod bitboard;
mod cell;
mod color;
mod connect;
mod height_planes;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod position;
mod setup;
mod stack;
mod zobrist;

pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, CellParseError, Direction};
pub use color::Color;
pub use movegen::{IllegalMoveError, IllegalMoveReason, Mobility};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::codecup::CodeCupError;
pub use notation::little_golem::LittleGolemError;
pub use notation::move_text::MoveParseError;
pub use notation::position_string::{Field, PositionErrorKind, PositionParseError};
pub use notation::record::{
    GameRecord, RecordError, RecordErrorKind, RecordResult, Replay, ReplayError, ResultMismatch, ResultParseError,
};
pub use notation::sgf::SgfError;
pub use notation::{Format, FormatParseError, ReadError, WriteError};
pub use position::{MAX_JUMP, Outcome, Phase, Position};
pub use setup::{Setup, SetupError};
pub use stack::{Stack, TOTAL_PIECES};

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;
