//! `dvonn tune-placement`: make the placement evaluation's weights.
//!
//! Two steps ([`dvonn_ai::eval::placement_tuning`] explains them):
//!
//! - `generate` plays placement phases (random ones, or the engine's own
//!   search with a weight file and a share of random placements), labels
//!   each finished board by a search to `--label-depth`, and writes one
//!   line per game: the 49 cells in order, then White's margin.
//! - `fit` reads such files and fits the weights, printing the errors of
//!   each epoch, then writes the weight file (the engine's own is
//!   `crates/dvonn-ai/src/eval/placement.weights`).
//!
//! ```text
//! $ dvonn tune-placement generate --games 20000 --threads 2 -o random.txt
//! $ dvonn tune-placement fit random.txt -o round1.weights
//! $ dvonn tune-placement generate --policy engine --weights round1.weights -o round1.txt
//! $ dvonn tune-placement fit random.txt round1.txt -o round2.weights
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use dvonn_ai::eval::PlacementEval;
use dvonn_ai::eval::placement::PlacementWeights;
use dvonn_ai::eval::placement_tuning::{Fit, Generation, LabelledPlacement, PlacementPolicy, fit, generate};

use crate::input::read_text;
use crate::output::{GameProgress, emit, write_file};

/// Arguments of `dvonn tune-placement`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(Debug, clap::Subcommand)]
enum Step {
    /// Play and label placement phases for the fit.
    Generate(GenerateArgs),
    /// Fit placement weights to labelled placement phases.
    Fit(FitArgs),
}

/// Who places in generated games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Policy {
    /// Uniformly random cells.
    Random,
    /// The engine's search with --weights, and --random-share random cells.
    Engine,
}

/// Arguments of `dvonn tune-placement generate`.
#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Placement phases to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000_000), value_name = "N")]
    games: u32,
    /// Who places.
    #[arg(long, value_enum, default_value_t = Policy::Random)]
    policy: Policy,
    /// The engine's search depth per placement (with --policy engine).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=20), value_name = "D")]
    depth: u32,
    /// Share of random placements among the engine's (with --policy engine).
    #[arg(long, default_value_t = 0.15, value_parser = parse_share, value_name = "P")]
    random_share: f64,
    /// Placement weights of the engine's search (default: the shipped ones).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Depth of the search that labels each finished board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30), value_name = "D")]
    label_depth: u32,
    /// Threads playing games at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// Seed of the random choices (thread t uses S + t).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Write the games here (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Arguments of `dvonn tune-placement fit`.
#[derive(Debug, clap::Args)]
struct FitArgs {
    /// Files written by `generate`.
    #[arg(required = true, value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Passes over the games.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000), value_name = "N")]
    epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.003, value_parser = parse_rate, value_name = "R")]
    learning_rate: f32,
    /// Seed of the shuffles and of the validation split.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Write the weights here.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// A share from 0 to 1.
fn parse_share(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("{text:?} is not a number from 0 to 1")),
    }
}

/// A learning rate: more than 0, at most 1.
fn parse_rate(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(rate) if rate > 0.0 && rate <= 1.0 => Ok(rate),
        _ => Err(format!("{text:?} is not a number above 0 and at most 1")),
    }
}

/// Reads a placement weight file.
pub(crate) fn read_weights(path: &Path) -> Result<PlacementWeights> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    PlacementWeights::from_bytes(&bytes).with_context(|| format!("{} is not a placement weight file", path.display()))
}

/// How many games each of `threads` threads plays: `games` shared out, the
/// first threads taking one more when it does not divide.
fn shares(games: usize, threads: usize) -> Vec<usize> {
    (0..threads).map(|t| games / threads + usize::from(t < games % threads)).filter(|&n| n > 0).collect()
}

/// Runs `work(share, seed, tick)` on `threads` threads, `games` shared out
/// among them (thread `t` gets the seed `seed + t`; `tick` counts a game
/// done), with a progress bar labelled `what` (or, without a terminal, a
/// line every tenth of the games); returns the threads' results in thread
/// order, so that a run is reproducible.
fn in_threads<T: Send>(
    games: usize,
    threads: usize,
    seed: u64,
    what: &str,
    work: impl Fn(usize, u64, &(dyn Fn() + Sync)) -> Vec<T> + Sync,
) -> Result<Vec<T>> {
    let progress = GameProgress::new(games, what);
    let tick = || progress.tick();
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
    progress.finish();
    let mut all = Vec::new();
    for result in results {
        match result {
            Ok(part) => all.extend(part),
            Err(_) => bail!("a {what} thread failed"),
        }
    }
    Ok(all)
}

/// Runs `dvonn tune-placement`.
pub(crate) fn run(args: &Args) -> Result<()> {
    match &args.step {
        Step::Generate(args) => run_generate(args),
        Step::Fit(args) => run_fit(args),
    }
}

fn run_generate(args: &GenerateArgs) -> Result<()> {
    if let Some(path) = args.output.as_deref().filter(|path| *path != Path::new("-"))
        && !args.force
        && path.exists()
    {
        bail!("{} exists; use --force to overwrite it", path.display());
    }
    let policy = match args.policy {
        Policy::Random => PlacementPolicy::Random,
        Policy::Engine => {
            let eval = match &args.weights {
                Some(path) => PlacementEval::with_weights(read_weights(path)?),
                None => PlacementEval::default(),
            };
            PlacementPolicy::Engine { depth: args.depth, random_share: args.random_share, eval }
        }
    };
    let games =
        in_threads(args.games as usize, usize::from(args.threads), args.seed, "placements", |share, seed, tick| {
            let plan = Generation::default()
                .with_games(share)
                .with_policy(policy)
                .with_label_depth(args.label_depth)
                .with_seed(seed);
            generate(&plan, |_| tick())
        })?;
    let text: String = games.iter().map(|game| format!("{game}\n")).collect();
    emit(args.output.as_deref(), text.as_bytes(), args.force)
}

fn run_fit(args: &FitArgs) -> Result<()> {
    let mut games = Vec::new();
    for path in &args.data {
        let text = read_text(path)?;
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let game: LabelledPlacement =
                line.parse().with_context(|| format!("{} line {}", path.display(), number + 1))?;
            games.push(game);
        }
    }
    if games.len() < 2 {
        bail!("{} labelled games: the fit needs at least 2", games.len());
    }
    let plan =
        Fit::default().with_epochs(args.epochs as usize).with_learning_rate(args.learning_rate).with_seed(args.seed);
    outln!("games: {}", games.len())?;
    outln!(
        "epoch  training  validation  (mean squared error, pieces²; validation by pieces placed: 3, 12, 24, 36, 48)"
    )?;
    let mut epoch = 0;
    let mut failed = Ok(());
    let weights = fit(&games, &plan, |report| {
        epoch += 1;
        let by = &report.validation_by_placed;
        let line = outln!(
            "{epoch:>5}  {:>8.3}  {:>10.3}  ({:.2}, {:.2}, {:.2}, {:.2}, {:.2})",
            report.training,
            report.validation,
            by[3],
            by[12],
            by[24],
            by[36],
            by[48]
        );
        if failed.is_ok() {
            failed = line;
        }
    });
    failed?;
    if !args.force && args.output.exists() {
        bail!("{} exists; use --force to overwrite it", args.output.display());
    }
    write_file(&args.output, &weights.to_bytes(), args.force)?;
    outln!("weights written to {}", args.output.display())?;
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
}
