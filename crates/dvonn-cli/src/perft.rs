//! `dvonn perft`: leaf counts of the move generator, with timing.

use std::time::Instant;

use anyhow::{Context, Result};
use dvonn_core::Position;
use dvonn_core::perft::{PerftMode, divide, perft};

/// Arguments of `dvonn perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the leaf count below each legal move first.
    #[arg(long)]
    divide: bool,
    /// Make every move of the last ply instead of counting them (measures
    /// make-move speed).
    #[arg(long)]
    no_bulk: bool,
    /// The position string (NOTATION.md), quoted.
    position: String,
    /// The number of plies.
    depth: u32,
}

/// Runs `dvonn perft`. The last line starts with the leaf count, then the
/// time and the leaves per second.
pub fn run(args: &Args) -> Result<()> {
    let position: Position = args.position.trim().parse().context("cannot read the position")?;
    let mode = if args.no_bulk { PerftMode::MakeEveryLeaf } else { PerftMode::Bulk };
    let start = Instant::now();
    let leaves = if args.divide && args.depth > 0 {
        let counts = divide(&position, args.depth, mode);
        for (mv, count) in &counts {
            outln!("{mv} {count}")?;
        }
        if counts.is_empty() { 1 } else { counts.iter().map(|(_, n)| n).sum() }
    } else {
        perft(&position, args.depth, mode)
    };
    let seconds = start.elapsed().as_secs_f64();
    outln!("{leaves} leaves in {:.3} s ({:.1} M leaves/s)", seconds, leaves as f64 / seconds.max(1e-9) / 1e6)?;
    Ok(())
}
