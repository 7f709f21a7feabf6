//! The rules of DVONN, Kris Burm's stacking game of the GIPF project: a
//! complete, fast rules engine. The rules it implements are those of
//! [RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md),
//! its text formats those of
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md).
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
//! A complete program, with `dvonn-core` as its only dependency: a whole
//! game from the empty board, each player taking a move that removes the
//! most stacks.
//!
//! ```
//! use dvonn_core::{Color, Outcome, Position};
//!
//! fn main() {
//!     let mut position = Position::new();
//!     while !position.is_game_over() {
//!         let greedy = position.legal_moves().into_iter().max_by_key(|&mv| {
//!             let mut child = position;
//!             // `play` returns the cells whose stacks the move cut off.
//!             child.play(mv).expect("generated moves are legal").len()
//!         });
//!         position.play(greedy.expect("a game that is not over has a move")).expect("a legal move");
//!     }
//!     let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
//!     match position.outcome() {
//!         Some(Outcome::Win(color)) => println!("{color} wins {white}-{black}"),
//!         Some(Outcome::Draw) => println!("a draw, {white}-{black}"),
//!         None => unreachable!("the loop ends with the game"),
//!     }
//! }
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
