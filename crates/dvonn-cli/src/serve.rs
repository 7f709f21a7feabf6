//! `dvonn serve`: play and analyse DVONN in a web browser, with the server
//! of the `dvonn-serve` crate and its default limits.

use anyhow::Result;

/// Arguments of `dvonn serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default answers this machine only;
    /// another address lets other machines play on your engine.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
    host: String,
    /// Open the page in the default web browser.
    #[arg(long)]
    open: bool,
}

/// Runs `dvonn serve` until interrupted (Ctrl-C).
pub(crate) fn run(args: &Args) -> Result<()> {
    dvonn_serve::run(&args.host, args.port, args.open, dvonn_serve::ServerConfig::default())?;
    Ok(())
}
