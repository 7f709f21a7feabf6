//! `dvonn tune`: fit the evaluation weights to self-play games.
//!
//! Plays `--games` games with [`dvonn_ai::eval::tuning::self_play`], split
//! over `--threads` threads (thread `t` plays its share with the seed
//! `--seed + t`; the samples are concatenated in thread order, so that a
//! run is reproducible), then fits the weights by ridge-regularised least
//! squares ([`dvonn_ai::eval::tuning::fit`]). Prints the mean squared
//! errors, the weights (for the full board, the middle game and the ending)
//! as a table beside those it started from, and as a Rust constant to paste over
//! `Weights::TUNED`. The games start from random setups, or with
//! `--openings FILE` from the boards of a file. Progress
//! goes to standard error. (A run of four games, as below, is far too short
//! for weights worth using.)
//!
//! ```text
//! $ dvonn tune --games 4 --seed 1
//! samples: 139 positions from 4 games (0.1 s)
//! mean squared error: 99.803 pieces² (predicting a margin of 0: 422.108 pieces²)
//! feature           full  middle     end  full-before  middle-before  end-before
//! material          ...
//! ...
//! pub const TUNED: Weights = Weights {
//!     full_board: [...],
//!     middle_game: [...],
//!     end_game: [...],
//! };
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use dvonn_ai::Weights;
use dvonn_ai::eval::tuning::{Sample, SelfPlay, fit, self_play};
use dvonn_ai::eval::{FEATURES, Feature};

use crate::input::read_openings;
use crate::output::progress_bar;

/// Arguments of `dvonn tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Self-play games (each from its own random setup).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000_000), value_name = "N")]
    games: u32,
    /// Search depth of both players.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20), value_name = "D")]
    depth: u32,
    /// Threads playing games at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// Seed of the setups and random opening moves (thread t uses S + t).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// The players' weights: tuned, hand, pieces, or numbers in the order of the table
    /// (comma-separated): 11 for every board, or 33, the full board's, the middle game's and the
    /// ending's.
    #[arg(long, default_value = "tuned", value_parser = parse_weights, value_name = "w1,...")]
    weights: Weights,
    /// Start the games from the boards in this file, one position string per line, in turn
    /// (blank lines and lines starting with # are skipped) instead of random setups.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Ridge regularisation added to the normal equations (per sample); 0 for plain least squares.
    #[arg(long, default_value_t = 0.01, value_parser = parse_ridge, value_name = "R")]
    ridge: f64,
    /// Random moves at the start of each game, for variety.
    #[arg(long, default_value_t = 2, value_name = "N")]
    random_moves: usize,
}

/// Reads weights: a name or the numbers.
fn parse_weights(text: &str) -> Result<Weights, String> {
    if let Some(weights) = Weights::named(text) {
        return Ok(weights);
    }
    let numbers: Vec<i32> = text
        .split(',')
        .map(|n| n.trim().parse::<i32>().map_err(|_| format!("{:?} is not a whole number", n.trim())))
        .collect::<Result<_, _>>()?;
    if numbers.iter().any(|w| w.unsigned_abs() > 100_000) {
        return Err("a weight above 100000 in size".to_string());
    }
    let array = |numbers: &[i32]| -> [i32; FEATURES] { std::array::from_fn(|i| numbers[i]) };
    match numbers.len() {
        FEATURES => Ok(Weights::flat(array(&numbers))),
        n if n == 3 * FEATURES => Ok(Weights::from_sets(std::array::from_fn(|set| array(&numbers[set * FEATURES..])))),
        n => Err(format!(
            "{n} weights given; the evaluation has {FEATURES} ({}), or three times that for the full board, \
             the middle game and the ending",
            feature_names()
        )),
    }
}

/// Reads the ridge: finite and not negative.
fn parse_ridge(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ridge) if ridge.is_finite() && ridge >= 0.0 => Ok(ridge),
        _ => Err(format!("{text:?} is not a number of 0 or more")),
    }
}

/// The feature names in weight order.
fn feature_names() -> String {
    Feature::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// How many games each of `threads` threads plays: `games` shared out, the
/// first threads taking one more when it does not divide.
fn shares(games: usize, threads: usize) -> Vec<usize> {
    (0..threads).map(|t| games / threads + usize::from(t < games % threads)).filter(|&n| n > 0).collect()
}

/// The weights as a Rust constant.
pub fn rust_literal(weights: &Weights) -> String {
    let list = |numbers: &[i32; FEATURES]| numbers.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    format!(
        "pub const TUNED: Weights = Weights {{\n    full_board: [{}],\n    middle_game: [{}],\n    end_game: [{}],\n}};",
        list(&weights.full_board),
        list(&weights.middle_game),
        list(&weights.end_game)
    )
}

/// Runs `work(share, seed, tick)` on `threads` threads, `games` shared out
/// among them (thread `t` gets the seed `seed + t`; `tick` counts a game
/// done), with a progress bar labelled `what` (or, without a terminal, a
/// line every tenth of the games); returns the threads' results in thread
/// order, so that a run is reproducible.
pub(crate) fn in_threads<T: Send>(
    games: usize,
    threads: usize,
    seed: u64,
    what: &str,
    work: impl Fn(usize, u64, &(dyn Fn() + Sync)) -> Vec<T> + Sync,
) -> Result<Vec<T>> {
    let started = Instant::now();
    let progress = progress_bar(
        games as u64,
        &format!("{what} {{bar:30}} {{pos}}/{{len}} games [{{elapsed_precise}}, {{eta}} left]"),
    );
    let quiet = progress.is_hidden();
    let done = AtomicUsize::new(0);
    let tick = || {
        let now = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.inc(1);
        if quiet && (now * 10 / games != (now - 1) * 10 / games || now == games) {
            eprintln!("{what}: {now}/{games} games ({:.0} s)", started.elapsed().as_secs_f64());
        }
    };
    let results: Vec<std::thread::Result<Vec<T>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = shares(games, threads)
            .into_iter()
            .enumerate()
            .map(|(t, share)| {
                let (work, tick) = (&work, &tick);
                scope.spawn(move || work(share, seed.wrapping_add(t as u64), tick))
            })
            .collect();
        handles.into_iter().map(|handle| handle.join()).collect()
    });
    progress.finish_and_clear();
    let mut all = Vec::new();
    for result in results {
        match result {
            Ok(part) => all.extend(part),
            Err(_) => bail!("a {what} thread failed"),
        }
    }
    Ok(all)
}

/// Runs `dvonn tune`.
pub fn run(args: &Args) -> Result<()> {
    let games = args.games as usize;
    let openings = args.openings.as_deref().map(read_openings).transpose()?.unwrap_or_default();
    let started = Instant::now();
    let samples: Vec<Sample> =
        in_threads(games, usize::from(args.threads), args.seed, "self-play", |share, seed, tick| {
            let plan = SelfPlay::default()
                .with_games(share)
                .with_depth(args.depth)
                .with_weights(args.weights)
                .with_random_moves(args.random_moves)
                .with_seed(seed)
                .with_openings(openings.clone());
            self_play(&plan, |_| tick())
        })?;
    if samples.is_empty() {
        bail!("the games gave no movement-phase positions to fit");
    }
    let fitted = fit(&samples, args.ridge)
        .context("the least-squares system is singular: play more games or use a larger --ridge")?;
    let elapsed = started.elapsed().as_secs_f64();
    outln!("samples: {} positions from {games} games ({elapsed:.1} s)", samples.len())?;
    outln!(
        "mean squared error: {:.3} pieces² (predicting a margin of 0: {:.3} pieces²)",
        fitted.mse,
        fitted.baseline_mse
    )?;
    let width = Feature::ALL.iter().map(|f| f.name().len()).max().unwrap_or(0);
    let headings = ["full", "middle", "end", "full-before", "middle-before", "end-before"];
    let widths = headings.map(|heading| heading.len().max(6));
    let row = |name: &str, cells: [String; 6]| {
        let cells: Vec<String> = cells.iter().zip(widths).map(|(cell, width)| format!("{cell:>width$}")).collect();
        format!("{name:<width$}  {}", cells.join("  "))
    };
    outln!("{}", row("feature", headings.map(String::from)))?;
    let (after, before) = (fitted.weights.sets(), args.weights.sets());
    for (i, feature) in Feature::ALL.iter().enumerate() {
        let cells = [after[0][i], after[1][i], after[2][i], before[0][i], before[1][i], before[2][i]];
        outln!("{}", row(feature.name(), cells.map(|w| w.to_string())))?;
    }
    outln!("{}", rust_literal(&fitted.weights))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_shared_over_threads() {
        assert_eq!(shares(10, 3), [4, 3, 3]);
        assert_eq!(shares(2, 4), [1, 1]);
        assert_eq!(shares(8, 1), [8]);
    }

    #[test]
    fn weights_read_names_and_numbers() {
        assert_eq!(parse_weights("hand").unwrap(), Weights::HAND);
        assert_eq!(parse_weights("100,0,0,0,0,0,0,0,0,0,0").unwrap(), Weights::PIECES_ONLY);
        let tapered =
            parse_weights("1,2,3,4,5,6,7,8,9,10,11,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,0,0,0,0,0,0,0,0,0,0,7").unwrap();
        assert_eq!(tapered.full_board, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(tapered.middle_game, tapered.full_board.map(|w| -w));
        assert_eq!(tapered.end_game, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]);
        assert!(parse_weights(&["1"; 22].join(",")).unwrap_err().contains("22 weights given"));
        assert!(parse_weights("1,2,3").unwrap_err().contains("3 weights given"));
        assert!(parse_weights("1,x").is_err());
        assert_eq!(
            rust_literal(&Weights::PIECES_ONLY),
            "pub const TUNED: Weights = Weights {\n    full_board: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n    \
             middle_game: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n    \
             end_game: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n};"
        );
    }
}
