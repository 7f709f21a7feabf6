//! `dvonn review`: search every position of a game and judge every move
//! ([`dvonn_ai::review`]).
//!
//! The game is read in any format the other commands read and replayed
//! (an illegal move is an error naming it, before any search). Every
//! position is searched within `--time` and `--depth`, under a progress
//! bar on standard error (only on a terminal); then the report goes to
//! standard output: a table of the plies ([`report`]), then a summary per
//! player. `-o`, `--svg` and `--json` write the game as a record with the
//! review in comments, the evaluation graph, and the review's data
//! ([`json`]). Output files are checked before the searches (none is
//! replaced without `--force`) and each is written whole or not at all.
//! Ctrl-C stops the review: the plies finished so far are printed, no file
//! is written, and the exit status is 130.

mod json;
mod report;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dvonn_ai::review::{DEFAULT_TIME, ReviewOptions, graph, review};
use dvonn_ai::{Engine, Limits, StopHandle};

use crate::Interrupted;
use crate::args::{EngineArgs, parse_seconds};
use crate::input::read_game;
use crate::output::{emit, progress_bar};

/// Search threads when `--threads` is not given: both cores of a dual-core
/// machine.
const DEFAULT_THREADS: &str = "2";

/// What `dvonn review --help` says after the options.
const AFTER_HELP: &str = "\
Every ply gets the evaluation before and after it (White's margin in pieces,
=N when proven), the engine's better move, the pieces the move gave away, and
a mark: inaccuracy from 1, mistake from 3, blunder from 6 pieces, or a proven
win or draw thrown away. Then each player's average loss and marks.

Examples:
  dvonn review game.sgf                         the table and the summary
  dvonn review game.txt -o reviewed.dvonn --svg graph.svg --json review.json
  dvonn review game.dvonn --time 2 --threads 4  a deeper review

In the browser: dvonn serve --open, import the game, \"Review the game\".";

/// Arguments of `dvonn review`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("threads", |arg| arg.default_value(DEFAULT_THREADS)), after_help = AFTER_HELP)]
pub(crate) struct Args {
    /// The game to review (our game record, Little Golem, BoardSpace SGF or
    /// a CodeCup log; the format is detected), or `-` for standard input.
    game: PathBuf,
    /// Seconds of search per position (default: 0.5 unless --depth is
    /// given; with --depth, whichever comes first).
    #[arg(long, value_parser = parse_seconds, value_name = "S")]
    time: Option<Duration>,
    /// Search each position to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100), value_name = "N")]
    depth: Option<u32>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Write the game as a game record with the review in comments (read
    /// back by `dvonn replay` and `dvonn convert`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Draw the evaluation graph over the plies as an SVG picture.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write the review as JSON: one object per ply, and the summary.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Replace output files that exist.
    #[arg(long)]
    force: bool,
}

impl Args {
    /// The search of each position.
    fn limits(&self) -> Limits {
        match (self.depth, self.time) {
            (Some(depth), Some(time)) => Limits::depth(depth).with_move_time(time),
            (Some(depth), None) => Limits::depth(depth),
            (None, time) => Limits::move_time(time.unwrap_or(DEFAULT_TIME)),
        }
    }

    /// The output files asked for, each with what it holds.
    fn outputs(&self) -> Vec<(&Path, Output)> {
        let named = [(&self.output, Output::Record), (&self.svg, Output::Svg), (&self.json, Output::Json)];
        named.into_iter().filter_map(|(path, output)| Some((path.as_deref()?, output))).collect()
    }
}

/// What an output file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Record,
    Svg,
    Json,
}

/// Runs `dvonn review`.
pub(crate) fn run(args: &Args) -> Result<()> {
    let (record, game) = read_game(&args.game, None)?;
    let outputs = args.outputs();
    check_outputs(&outputs, args.force)?;
    let options = ReviewOptions::new(args.limits());
    let config = args.engine.config();
    let threads = config.threads;
    let mut engine = Engine::new(config).context("cannot start the engine")?;

    let stop = StopHandle::default();
    let on_interrupt = stop.clone();
    // Only one handler per process: without it (a library caller set one
    // already), Ctrl-C ends the program as it would anyway.
    let _ = ctrlc::set_handler(move || on_interrupt.stop());
    let plies = game.len();
    let progress = progress_bar(plies as u64, "{bar:30} {pos}/{len} plies [{elapsed_precise}, {eta} left]");
    let mut tick = |_: &dvonn_ai::review::PlyReview| progress.inc(1);
    let reviewed = review(&mut engine, &game, &options, &stop, &mut tick);
    progress.finish_and_clear();

    let setting = report::Setting { limits: options.limits, threads, thresholds: options.thresholds };
    let table_to_stdout = !outputs.iter().any(|(path, _)| *path == Path::new("-"));
    if !reviewed.complete {
        if table_to_stdout {
            outln!("{}", report::table(&reviewed))?;
            let done = reviewed.plies.len();
            outln!("interrupted after {done} of {plies} plies (reviewed from the end); no file written")?;
        }
        return Err(Interrupted.into());
    }
    for (path, output) in &outputs {
        let contents = match output {
            Output::Record => report::annotated(&record, &game, &reviewed, &setting).to_string(),
            Output::Svg => graph::evaluation_graph(&reviewed),
            Output::Json => json::document(&reviewed, &setting)?,
        };
        emit(Some(path), contents.as_bytes(), args.force)?;
    }
    if table_to_stdout {
        outln!("{}", report::heading(&args.game, plies, &setting))?;
        outln!("{}", report::table(&reviewed))?;
        outln!("{}", report::summary(&reviewed, &record))?;
    }
    Ok(())
}

/// Refuses, before any search, outputs that would be refused after it: a
/// file that exists (without `--force`), a directory that does not, the
/// same file twice, and standard output (`-`) twice.
fn check_outputs(outputs: &[(&Path, Output)], force: bool) -> Result<()> {
    for (index, (path, _)) in outputs.iter().enumerate() {
        let name = path.display();
        if outputs[..index].iter().any(|(other, _)| other == path) {
            bail!("{name} is named as two outputs");
        }
        if *path == Path::new("-") {
            continue;
        }
        if !force && path.exists() {
            bail!("{name} exists; use --force to overwrite it");
        }
        let directory = path.parent().filter(|parent| !parent.as_os_str().is_empty());
        if let Some(directory) = directory.filter(|directory| !directory.is_dir()) {
            bail!("cannot write {name}: the directory {} does not exist", directory.display());
        }
    }
    Ok(())
}
