//! `dvonn replay`: check a game record move by move.

use std::path::PathBuf;

use anyhow::{Context, Result};
use dvonn_core::notation::read_any;

use crate::input::read_text;

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
    let text = read_text(&args.record)?;
    let name = args.record.display();
    let record = read_any(&text, None).with_context(|| format!("cannot read {name}"))?;
    let replay = record.replay().with_context(|| format!("{name}"))?;
    replay.check_result(record.result).with_context(|| format!("{name}"))?;
    println!("{}", replay.final_position());
    println!("{}", replay.result());
    Ok(())
}
