//! `dvonn convert`: convert games between formats.

use anyhow::{Result, bail};

/// Arguments of `dvonn convert`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn convert`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn convert is not implemented yet")
}
