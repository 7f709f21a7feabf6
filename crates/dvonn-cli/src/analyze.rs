//! `dvonn analyze`: analyse a position.
//!
//! Prints one line per completed search iteration, then the best move:
//!
//! ```text
//! info depth 1 score 0.20 nodes 49 nps 245000 time 0 pv A1B1
//! info depth 2 score -1.30 nodes 2377 nps 1188500 time 2 pv A1B1 K5J5
//! info depth 12 score 3.00 exact nodes 51234 nps 1023456 time 50 pv C3E3 D4D5 ...
//! bestmove C3E3
//! ```
//!
//! Fields, separated by single spaces: `depth` (plies), `score` (the value
//! for the side to move in pieces of final margin, two decimals, as
//! [`dvonn_ai::Score`] prints it), the word `exact` only when the score is
//! proven (the exact final margin with best play), `nodes` (all threads), `nps`, `time` (milliseconds since the
//! search began) and `pv` followed by the principal variation.
//!
//! A position with one legal move (a forced pass, the last placement) prints
//! `bestmove` at once, without `info` lines. A finished game prints
//! `bestmove none` (and the final score on standard error) and exits with
//! status 0: asking about a finished game is not an error.

use std::time::Duration;

use anyhow::{Context, Result};
use dvonn_ai::{Engine, Limits, SearchInfo};
use dvonn_core::{Color, Position};

use crate::args::{EngineArgs, parse_seconds};

/// Thinking time when neither `--depth` nor `--time` is given.
pub(crate) const DEFAULT_TIME: Duration = Duration::from_secs(5);

/// Arguments of `dvonn analyze`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The position string, quoted (the format:
    /// <https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#position-strings>).
    position: String,
    /// Search to this depth (plies), however long it takes.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100), value_name = "D", conflicts_with = "time")]
    depth: Option<u32>,
    /// Search for this many seconds (default: 5 when no --depth is given).
    #[arg(long, value_parser = parse_seconds, value_name = "S")]
    time: Option<Duration>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The `info` line of an iteration.
pub(crate) fn info_line(info: &SearchInfo) -> String {
    let exact = if info.exact { " exact" } else { "" };
    let mut line = format!(
        "info depth {} score {}{exact} nodes {} nps {} time {} pv",
        info.depth,
        info.score,
        info.nodes,
        info.nps,
        info.elapsed.as_millis()
    );
    for mv in &info.pv {
        line.push(' ');
        line.push_str(&mv.to_string());
    }
    line
}

/// Runs `dvonn analyze`.
pub(crate) fn run(args: &Args) -> Result<()> {
    let position: Position = args.position.trim().parse().context("cannot read the position")?;
    if position.is_game_over() {
        eprintln!(
            "dvonn analyze: the game is over ({}-{}): there is no move to search",
            position.pieces(Color::White),
            position.pieces(Color::Black)
        );
        outln!("bestmove none")?;
        return Ok(());
    }
    let limits = match (args.depth, args.time) {
        (Some(depth), _) => Limits::depth(depth),
        (None, time) => Limits::move_time(time.unwrap_or(DEFAULT_TIME)),
    };
    let mut engine = Engine::new(args.engine.config()).context("cannot start the engine")?;
    // When standard output closes, stop searching: no one reads the result.
    let stop = engine.stop_handle();
    let mut output_error = None;
    let result = engine.search(&position, &limits, &mut |info: &SearchInfo| {
        if output_error.is_none()
            && let Err(error) = outln!("{}", info_line(info))
        {
            output_error = Some(error);
            stop.stop();
        }
    });
    if let Some(error) = output_error {
        return Err(error.into());
    }
    match result.best_move {
        Some(mv) => outln!("bestmove {mv}")?,
        None => outln!("bestmove none")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use dvonn_ai::{EngineConfig, Score, SearchInfo};
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_info_line_holds_every_field() {
        // A report of a real search (the struct may gain fields), with
        // every field then set.
        let mut engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
        let mut reports = Vec::new();
        engine.search(&Position::random_setup_from_seed(1), &Limits::depth(1), &mut |info: &SearchInfo| {
            reports.push(info.clone());
        });
        let mut info = reports.pop().expect("a report of depth 1");
        info.depth = 3;
        info.seldepth = 5;
        info.score = Score::from_centipieces(-125);
        info.exact = false;
        info.pv = vec!["C3E3".parse().unwrap(), "PASS".parse().unwrap()];
        info.nodes = 1000;
        info.nps = 500000;
        info.elapsed = Duration::from_millis(2);
        assert_eq!(info_line(&info), "info depth 3 score -1.25 nodes 1000 nps 500000 time 2 pv C3E3 PASS");
    }
}
