//! `dvonn codecup`: the CodeCup 2011 player protocol.

use anyhow::{Result, bail};

/// Arguments of `dvonn codecup`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn codecup`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn codecup is not implemented yet")
}
