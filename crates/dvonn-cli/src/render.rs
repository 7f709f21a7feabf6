//! `dvonn render`: pictures of positions.

use anyhow::{Result, bail};

/// Arguments of `dvonn render`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn render`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn render is not implemented yet")
}
