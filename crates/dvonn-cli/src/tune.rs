//! `dvonn tune`: fit the evaluation weights to self-play games.

use anyhow::{Result, bail};

/// Arguments of `dvonn tune`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn tune`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn tune is not implemented yet")
}
