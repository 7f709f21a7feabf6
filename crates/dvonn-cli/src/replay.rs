//! `dvonn replay`: check a game record move by move.

use std::path::PathBuf;

use anyhow::Result;

use crate::input::read_game;

/// Arguments of `dvonn replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record to check (our game record, Little Golem, BoardSpace SGF or
    /// a CodeCup log; the format is detected), or `-` for standard input.
    record: PathBuf,
}

/// Runs `dvonn replay`: prints the final position string, then the result
/// as `<white>-<black>` (or `*` when the game is unfinished) on the last
/// line. An illegal or unreadable move is an error naming its number.
pub fn run(args: &Args) -> Result<()> {
    let (_, replay) = read_game(&args.record, None)?;
    outln!("{}", replay.final_position())?;
    outln!("{}", replay.result())?;
    Ok(())
}
