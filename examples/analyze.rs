//! Embeds the engine: analyses the position string given on the command
//! line for a few seconds and prints one line per completed iteration, then
//! the best move.
//!
//! ```text
//! cargo run --release --example analyze -- "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m" [SECONDS]
//! ```

use std::process::ExitCode;
use std::time::Duration;

use dvonn::ai::{Engine, EngineConfig, Limits, SearchInfo};
use dvonn::rules::Position;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(text) = args.next() else {
        eprintln!("usage: analyze \"<position string>\" [seconds]");
        return ExitCode::FAILURE;
    };
    let position: Position = match text.parse() {
        Ok(position) => position,
        Err(error) => {
            eprintln!("not a position: {error}");
            return ExitCode::FAILURE;
        }
    };
    let seconds: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);

    let mut engine = Engine::new(EngineConfig::default().with_threads(threads)).expect("a 64 MiB table");
    let limits = Limits::move_time(Duration::from_secs_f64(seconds));
    // The observer is any closure taking a `SearchInfo`.
    let result = engine.search(&position, &limits, &mut |info: &SearchInfo| {
        let pv: Vec<String> = info.pv.iter().map(|mv| mv.to_string()).collect();
        println!(
            "depth {:2}  score {:>6}{}  nodes {:>10}  {:>5} ms  pv {}",
            info.depth,
            info.score.to_string(),
            if info.exact { " (exact)" } else { "" },
            info.nodes,
            info.elapsed.as_millis(),
            pv.join(" ")
        );
    });
    match result.best_move {
        Some(mv) => println!("best move {mv}"),
        None => println!("the game is over"),
    }
    ExitCode::SUCCESS
}
