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
//!   hashing, score and outcome ([`Outcome`]).
//! - [`Game`]: a game, its moves with who chose each ([`Ply`],
//!   [`Author`]), undo, going back to a ply, resignation and outcome: the
//!   model of a game that the records, the game driver, the command and
//!   the server share.
//! - [`Cell`], [`Bitboard`], [`Stack`], [`Move`], [`MoveList`]: the pieces
//!   of the model.
//! - Moves, positions and results as text: [`Move`], [`Position`] and
//!   [`Outcome`] read and write the move text (`E3`, `C3E3`, `PASS`), the
//!   position string and the result (`24-19`, `*`, `resign-w`) of
//!   `NOTATION.md` through [`FromStr`](std::str::FromStr) and
//!   [`Display`](std::fmt::Display). Game records (the project's own, Little
//!   Golem, BoardSpace SGF, CodeCup logs) and diagrams are in the
//!   `dvonn-notation` crate.
//! - [`perft`]: move-generator verification and benchmarking.
//!
//! Cargo features: `rand` (on by default) gives the random setups,
//! [`Position::random_setup`] and [`Position::random_setup_from_seed`];
//! without it the crate depends on `arrayvec` and `thiserror` only.
//!
//! A complete program, with `dvonn-core` as its only dependency: a whole
//! game from the empty board, each player taking a move that removes the
//! most stacks.
//!
//! ```
//! use dvonn_core::{Outcome, Position};
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
//!     let outcome = position.outcome();
//!     assert!(matches!(outcome, Outcome::Score { .. }), "the loop ends with the game");
//!     match outcome.winner() {
//!         Some(color) => println!("{color} wins {outcome}"),
//!         None => println!("a draw, {outcome}"),
//!     }
//! }
//! ```
#![deny(missing_docs)]

mod bitboard;
mod cell;
mod color;
mod connect;
pub mod cpu;
mod game;
mod height_planes;
mod move_text;
mod movegen;
mod moves;
mod outcome;
pub mod perft;
mod position;
mod position_string;
#[cfg(feature = "rand")]
mod random_setup;
mod setup;
mod stack;
mod zobrist;

pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, CellParseError, Direction};
pub use color::Color;
pub use game::{Author, Game, Ply};
pub use move_text::MoveParseError;
pub use movegen::{IllegalMoveError, IllegalMoveReason, Mobility};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::{Outcome, OutcomeParseError};
pub use position::{MAX_JUMP, Phase, Position};
pub use position_string::{Field, PositionErrorKind, PositionParseError};
pub use setup::{Setup, SetupError};
pub use stack::{Stack, TOTAL_PIECES};

/// The crate README's example, compiled and run as a doctest (it plays
/// from a random setup: with the default feature `rand`).
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "rand"))]
pub struct ReadmeDoctest;
