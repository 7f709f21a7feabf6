//! `dvonn perft`: leaf counts of the move generator, with timing.
//!
//! A count that runs for more than a second shows its progress on standard
//! error (when that is a terminal): the root moves done, the leaves so far
//! and the rate. Ctrl-C stops the count and prints what was counted.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use dvonn_core::Position;
use dvonn_core::perft::{PerftMode, perft_in_parts};
use indicatif::{HumanCount, ProgressBar};

use crate::Interrupted;
use crate::output::progress_bar;

/// How long a count runs before its progress is shown.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// How often the progress is redrawn.
const REDRAW_EVERY: Duration = Duration::from_millis(200);

/// Arguments of `dvonn perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Print the leaf count below each legal move first.
    #[arg(long)]
    divide: bool,
    /// Make every move of the last ply instead of counting them (measures
    /// make-move speed).
    #[arg(long)]
    no_bulk: bool,
    /// The position string, quoted (the format:
    /// <https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#position-strings>).
    position: String,
    /// The number of plies.
    depth: u32,
}

/// Runs `dvonn perft`. The last line starts with the leaf count, then the
/// time and the leaves per second. With `--divide`, each root move's count
/// is printed as soon as it is known. Interrupted by Ctrl-C, the last line
/// says how many leaves and root moves were counted, and the command fails
/// with [`Interrupted`].
pub(crate) fn run(args: &Args) -> Result<()> {
    let position: Position = args.position.trim().parse().context("cannot read the position")?;
    let mode = if args.no_bulk { PerftMode::MakeEveryLeaf } else { PerftMode::Bulk };
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    // Only one handler per process: without it (a library caller set one
    // already), Ctrl-C ends the program as it would anyway.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));

    let root_moves = if args.depth == 0 { Vec::new() } else { position.legal_moves().to_vec() };
    let mut progress = Progress::new(root_moves.len());
    let go_on = || if interrupted.load(Ordering::Relaxed) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
    let mut flow = ControlFlow::Continue(());
    if root_moves.is_empty() {
        // Depth 0, or a finished game: one leaf.
        progress.add(1);
    }
    for &mv in &root_moves {
        let mut child = Position::new();
        position.play_into(mv, &mut child);
        let before = progress.leaves;
        flow = perft_in_parts(&child, args.depth - 1, mode, &mut |leaves| {
            progress.add(leaves);
            go_on()
        });
        if flow.is_break() {
            break;
        }
        progress.root_move_done();
        if args.divide {
            progress.suspend(|| outln!("{mv} {}", progress.leaves - before))?;
        }
    }
    progress.finish();
    let seconds = progress.start.elapsed().as_secs_f64();
    let rate = progress.leaves as f64 / seconds.max(1e-9) / 1e6;
    if flow.is_break() {
        outln!(
            "interrupted after {seconds:.3} s: {} leaves counted, {} of {} root moves complete ({rate:.1} M leaves/s)",
            progress.leaves,
            progress.root_done,
            root_moves.len()
        )?;
        return Err(Interrupted.into());
    }
    outln!("{} leaves in {seconds:.3} s ({rate:.1} M leaves/s)", progress.leaves)?;
    Ok(())
}

/// The count so far, and its progress bar once the count has run for
/// [`QUIET_FOR`].
struct Progress {
    start: Instant,
    leaves: u64,
    root_done: usize,
    root_total: usize,
    bar: Option<ProgressBar>,
    last_drawn: Instant,
}

impl Progress {
    fn new(root_total: usize) -> Progress {
        let start = Instant::now();
        Progress { start, leaves: 0, root_done: 0, root_total, bar: None, last_drawn: start }
    }

    fn add(&mut self, leaves: u64) {
        self.leaves += leaves;
        self.draw();
    }

    fn root_move_done(&mut self) {
        self.root_done += 1;
        self.draw();
    }

    /// Redraws the bar, at most every [`REDRAW_EVERY`].
    fn draw(&mut self) {
        let now = Instant::now();
        if now.duration_since(self.last_drawn) < REDRAW_EVERY || now.duration_since(self.start) < QUIET_FOR {
            return;
        }
        self.last_drawn = now;
        let bar = self.bar.get_or_insert_with(|| {
            let template = "[{bar:24}] {pos}/{len} root moves, {msg}";
            progress_bar(self.root_total as u64, template)
        });
        let seconds = now.duration_since(self.start).as_secs_f64();
        let rate = self.leaves as f64 / seconds / 1e6;
        bar.set_position(self.root_done as u64);
        bar.set_message(format!(
            "{} leaves in {seconds:.0} s, {rate:.1} M leaves/s (Ctrl-C stops)",
            HumanCount(self.leaves)
        ));
    }

    /// Runs `print` with the bar out of the way.
    fn suspend<T>(&self, print: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
