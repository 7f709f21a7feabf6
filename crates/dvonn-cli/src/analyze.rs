//! `dvonn analyze`: analyse a position.

use anyhow::{Result, bail};

/// Arguments of `dvonn analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `dvonn analyze`.
pub fn run(_args: &Args) -> Result<()> {
    bail!("dvonn analyze is not implemented yet")
}
