//! The `dvonn` command line, as a library: every subcommand is a module
//! with an `Args` struct (clap) and a `run` function. The library is the
//! binary's (`src/main.rs` only calls [`main`]), not an API: its modules
//! are private and [`main`] is all it offers. The tests run the binary,
//! and unit tests drive the modules in-process; a fuzz build (cargo-fuzz
//! compiles with `--cfg fuzzing`) makes the `codecup` module public for the
//! fuzz target that drives a CodeCup session.
//!
//! Cargo features: `serve` (on by default) gives `dvonn serve`, the web
//! server of the `dvonn-serve` crate; without it the command builds
//! without a web server (no tokio, no axum).

/// `println!` that returns the error of the write instead of panicking:
/// standard output may be a pipe its reader has closed (`dvonn ... | head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod analyze;
mod args;
// The CodeCup session is the fuzz target `codecup_session`'s to drive:
// public in a fuzz build, private otherwise (its items are declared `pub`
// for the fuzz build).
#[cfg(fuzzing)]
pub mod codecup;
#[cfg(not(fuzzing))]
#[allow(unreachable_pub)]
mod codecup;
mod convert;
mod date;
mod input;
mod matches;
mod output;
mod perft;
mod play;
mod render;
mod replay;
mod review;
#[cfg(feature = "serve")]
mod serve;
mod shard;
mod tune;
mod tune_net;
mod tune_placement;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// DVONN: play, analyse, check and convert games of Kris Burm's stacking game.
#[derive(Debug, Parser)]
#[command(name = "dvonn", version, about, propagate_version = true)]
struct Cli {
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
    /// Review a game: search every position, find the mistakes and better moves.
    Review(review::Args),
    /// Count the move sequences of a given length (move generator check).
    Perft(perft::Args),
    /// Fit the evaluation weights to self-play games.
    Tune(tune::Args),
    /// Make the placement evaluation's weights: play and label placement phases, then fit.
    TunePlacement(tune_placement::Args),
    /// Make the network evaluation's training data: self-play games with search scores and margins.
    TuneNet(tune_net::Args),
    /// Play and analyse in a web browser: a local server for one page.
    #[cfg(feature = "serve")]
    Serve(serve::Args),
}

/// Parses the command line, runs the subcommand, and turns an error into one
/// line on standard error and exit status 1 (2 for a bad argument, 130 for
/// an interruption by Ctrl-C).
pub fn main() -> ExitCode {
    let cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    let outcome = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Codecup(args) => codecup::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::TunePlacement(args) => tune_placement::run(&args),
        Command::TuneNet(args) => tune_net::run(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`dvonn ... | head`): nothing
        // more to say, and no one to say it to.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) if error.is::<Interrupted>() => {
            eprintln!("dvonn: {error:#}");
            ExitCode::from(130)
        }
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

/// The error of a command stopped by Ctrl-C, after it printed what it had
/// done: exit status 130, as for a program killed by the interrupt.
#[derive(Debug)]
pub(crate) struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted by Ctrl-C")
    }
}

impl std::error::Error for Interrupted {}

/// The command line's parser: [`Cli`], with every value allowed to be a
/// negative number, so that `--time -1` reaches the value's own check
/// (as `--time=-1` does) instead of being taken for an option.
fn command() -> clap::Command {
    let negative_values = |arg: clap::Arg| {
        let takes_values = arg.get_action().takes_values();
        arg.allow_negative_numbers(takes_values)
    };
    Cli::command().mut_subcommands(move |subcommand| subcommand.mut_args(negative_values))
}

/// Parses the command line. Help and version are printed as clap prints
/// them; an argument error is one line on standard error, like every other
/// error of the command, with exit status 2.
fn parse_command_line() -> Result<Cli, ExitCode> {
    let mut command = command();
    let parsed =
        command.try_get_matches_from_mut(std::env::args_os()).and_then(|matches| Cli::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(error)
            if !error.use_stderr()
                || error.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            error.exit()
        }
        Err(error) => {
            let error = error.format(&mut command);
            // The subcommand is the first word that is not an option.
            let word = std::env::args_os().skip(1).find(|arg| !arg.to_string_lossy().starts_with('-'));
            let help = match word.as_ref().and_then(|word| command.find_subcommand(word)) {
                Some(subcommand) => format!("dvonn {} --help", subcommand.get_name()),
                None => "dvonn --help".to_string(),
            };
            eprintln!("dvonn: {} (see {help})", one_line(&error.render().to_string()));
            Err(ExitCode::from(2))
        }
    }
}

/// A clap error message, written over several lines (the message, tips, a
/// usage line, a pointer to `--help`), as one line: the message and the
/// tips, each paragraph's lines joined by spaces and paragraphs by `; `.
fn one_line(rendered: &str) -> String {
    let rendered = rendered.trim();
    let rendered = rendered.strip_prefix("error:").unwrap_or(rendered);
    rendered
        .split("\n\n")
        .filter(|paragraph| {
            let paragraph = paragraph.trim_start();
            !paragraph.starts_with("Usage:") && !paragraph.starts_with("For more information")
        })
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| !paragraph.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_become_one_line() {
        let rendered = "error: unexpected argument '--tim' found\n\n  tip: a similar argument exists: '--time'\n\nUsage: dvonn analyze --time <S> <POSITION>\n\nFor more information, try '--help'.\n";
        assert_eq!(one_line(rendered), "unexpected argument '--tim' found; tip: a similar argument exists: '--time'");
        let rendered = "error: the following required arguments were not provided:\n  <POSITION>\n\nUsage: dvonn analyze <POSITION>\n\nFor more information, try '--help'.\n";
        assert_eq!(one_line(rendered), "the following required arguments were not provided: <POSITION>");
    }

    #[test]
    fn the_parser_is_valid() {
        command().debug_assert();
    }
}
