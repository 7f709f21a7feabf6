//! `dvonn match`: engine-vs-engine matches.

use anyhow::{Result, bail};

/// Arguments of `dvonn match`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn match`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn match is not implemented yet")
}
