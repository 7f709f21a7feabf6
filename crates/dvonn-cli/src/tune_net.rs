//! `dvonn tune-net`: make the training data of the network evaluation.
//!
//! `generate` plays self-play games ([`dvonn_ai::eval::network::data`]) and
//! writes every position where the side to move had a choice, with the
//! score of the search that chose its move and the game's final margin, in
//! the binary form the trainer (`train/` in the repository) reads.
//!
//! ```text
//! $ dvonn tune-net generate --games 20000 --depth 6 --threads 2 --seed 1 -o games.dat
//! ```

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use anyhow::{Result, bail};
use dvonn_ai::eval::network::data::{DataPlan, RECORD_BYTES, Record, write_header};

use crate::output::{progress_bar, write_file};

/// Arguments of `dvonn tune-net`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(Debug, clap::Subcommand)]
enum Step {
    /// Play self-play games and write their positions with search scores and final margins.
    Generate(GenerateArgs),
}

/// Arguments of `dvonn tune-net generate`.
#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000_000), value_name = "N")]
    games: u32,
    /// The number of the first game (games are numbered; game n is the same game in any run).
    #[arg(long, default_value_t = 0, value_name = "N")]
    first_game: u32,
    /// Search depth of every move.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30), value_name = "D")]
    depth: u32,
    /// Threads playing games at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// Seed of the random placements and moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Write the data here.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs `dvonn tune-net`.
pub(crate) fn run(args: &Args) -> Result<()> {
    match &args.step {
        Step::Generate(args) => run_generate(args),
    }
}

fn run_generate(args: &GenerateArgs) -> Result<()> {
    if !args.force && args.output.exists() {
        bail!("{} exists; use --force to overwrite it", args.output.display());
    }
    let Some(last) = args.first_game.checked_add(args.games - 1) else {
        bail!("game numbers past {} are not possible", u32::MAX);
    };
    let plan = DataPlan::default().with_depth(args.depth).with_seed(args.seed);
    let games = play_games(&plan, args.first_game..=last, usize::from(args.threads));
    let records: usize = games.iter().map(Vec::len).sum();
    let mut bytes = Vec::with_capacity(16 + records * RECORD_BYTES);
    write_header(&mut bytes)?;
    for record in games.iter().flatten() {
        bytes.extend_from_slice(&record.to_bytes());
    }
    write_file(&args.output, &bytes, args.force)?;
    outln!("{records} positions from {} games written to {}", games.len(), display(&args.output))?;
    Ok(())
}

/// Plays the games numbered `numbers` on `threads` threads; returns their
/// records in game order.
fn play_games(plan: &DataPlan, numbers: std::ops::RangeInclusive<u32>, threads: usize) -> Vec<Vec<Record>> {
    let first = *numbers.start();
    let count = (numbers.end() - first) as usize + 1;
    let started = Instant::now();
    let progress = progress_bar(count as u64, "games {bar:30} {pos}/{len} [{elapsed_precise}, {eta} left]");
    let quiet = progress.is_hidden();
    let next = AtomicU32::new(0);
    let games: Mutex<Vec<Vec<Record>>> = Mutex::new(vec![Vec::new(); count]);
    let done = AtomicU32::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(count) {
            scope.spawn(|| {
                let mut engine = plan.new_engine();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed) as usize;
                    if index >= count {
                        break;
                    }
                    let records = plan.play(first + index as u32, &mut engine);
                    games.lock().expect("no thread panics holding it")[index] = records;
                    progress.inc(1);
                    let now = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
                    if quiet && (now * 20 / count != (now - 1) * 20 / count) {
                        eprintln!("games: {now}/{count} ({:.0} s)", started.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    progress.finish_and_clear();
    games.into_inner().expect("no thread panicked")
}

fn display(path: &Path) -> std::path::Display<'_> {
    path.display()
}
