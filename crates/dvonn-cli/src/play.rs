//! `dvonn play`: a human against the engine in the terminal.

use anyhow::{Result, bail};

/// Arguments of `dvonn play`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn play`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn play is not implemented yet")
}
