//! The `dvonn` command line, as a library: every subcommand is a module
//! with an `Args` struct (clap) and a `run` function, so that tests and fuzz
//! targets can drive them in-process. The binary (`src/main.rs`) only calls
//! [`main`].

/// `println!` that returns the error of the write instead of panicking:
/// standard output may be a pipe its reader has closed (`dvonn ... | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod analyze;
pub mod args;
pub mod codecup;
pub mod convert;
pub mod date;
pub mod input;
pub mod matches;
pub mod output;
pub mod perft;
pub mod play;
pub mod render;
pub mod replay;
pub mod serve;
pub mod tune;
pub mod tune_placement;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// DVONN: play, analyse, check and convert games of Kris Burm's stacking game.
#[derive(Debug, Parser)]
#[command(name = "dvonn", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play against the engine in the terminal.
    Play(play::Args),
    /// Analyse a position: one line per search iteration, then the best move.
    Analyze(analyze::Args),
    /// Play engine-vs-engine matches between configurations or programs.
    Match(matches::Args),
    /// Play as a CodeCup 2011 player over standard input and output.
    Codecup(codecup::Args),
    /// Convert games between formats (a file, several files or a directory), or extract a position.
    Convert(convert::Args),
    /// Draw a position or a game's position as SVG or as a text diagram.
    Render(render::Args),
    /// Check a game record move by move and print its final position and result.
    Replay(replay::Args),
    /// Count the move sequences of a given length (move generator check).
    Perft(perft::Args),
    /// Fit the evaluation weights to self-play games.
    Tune(tune::Args),
    /// Make the placement evaluation's weights: play and label placement phases, then fit.
    TunePlacement(tune_placement::Args),
    /// Play and analyse in a web browser: a local server for one page.
    Serve(serve::Args),
}

/// Parses the command line, runs the subcommand, and turns an error into one
/// line on standard error and exit status 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Codecup(args) => codecup::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::TunePlacement(args) => tune_placement::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`dvonn ... | head`): nothing
        // more to say, and no one to say it to.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("dvonn: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `error` comes from writing to a closed pipe.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}
