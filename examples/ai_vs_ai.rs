//! The main job: a short match between two engine configurations, with the
//! board shown as the games go and a result table at the end. A legend
//! printed first says how to read the move lines and the board.
//!
//! ```text
//! cargo run --release --example ai_vs_ai                     # 2 games, 5 s per player per game
//! cargo run --release --example ai_vs_ai -- --help           # the options
//! cargo run --release --example ai_vs_ai -- --games 6 --time 10 --threads 2
//! cargo run --release --example ai_vs_ai -- --a master --b club --random-setup --quiet
//! ```
//!
//! A player is `full` (the engine as it plays CodeCup: searched
//! placement, tuned evaluation, sharing a game clock), `baseline` (the same
//! search with heuristic placement and a pieces-only evaluation), or a level
//! (`beginner`, `casual`, `club`, `expert`, `master`) with that level's own
//! per-move limit.

use std::time::{Duration, Instant};

use clap::Parser;
use dvonn::ai::{Engine, EngineConfig, Level, Limits, PlacementStrategy, Weights};
use dvonn::notation::diagram::{DiagramOptions, LEGEND, diagram};
use dvonn::rules::{Color, Phase, Position};

/// Command-line arguments.
#[derive(Debug, Parser)]
#[command(about = "A short AI-vs-AI DVONN match, shown move by move")]
struct Args {
    /// Games to play; colours alternate.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Seconds on each player's clock for a whole game (CodeCup 2011: 5); a
    /// level plays with its own time per move instead.
    #[arg(long, default_value_t = 5.0)]
    time: f64,
    /// Search threads of each engine.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The first player: full, baseline, or a level name.
    #[arg(long, default_value = "full")]
    a: String,
    /// The second player.
    #[arg(long, default_value = "baseline")]
    b: String,
    /// Start every game from a random setup instead of the placement phase.
    #[arg(long)]
    random_setup: bool,
    /// Seed of the random setups and of the engines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One line per move instead of the board.
    #[arg(long)]
    quiet: bool,
}

/// An engine and how it is given time.
struct Player {
    name: String,
    engine: Engine,
    /// A per-move limit, or `None` to share the game clock.
    per_move: Option<Limits>,
    clock: Duration,
}

impl Player {
    fn new(spec: &str, args: &Args, seed: u64) -> Result<Player, String> {
        let (config, per_move) = match spec {
            "full" => (EngineConfig::default(), None),
            "baseline" => (
                EngineConfig {
                    weights: Weights::PIECES_ONLY,
                    placement: PlacementStrategy::Heuristic,
                    ..EngineConfig::default()
                },
                None,
            ),
            level => {
                let level: Level = level.parse().map_err(|e| format!("{e} (or full, baseline)"))?;
                (level.config(), Some(level.limits()))
            }
        };
        let config = EngineConfig { threads: args.threads, seed, ..config };
        let engine = Engine::new(config).map_err(|e| e.to_string())?;
        Ok(Player { name: spec.to_string(), engine, per_move, clock: Duration::from_secs_f64(args.time) })
    }

    /// Chooses a move, charging the time to the clock.
    fn play(&mut self, position: &Position) -> (dvonn::ai::SearchResult, Duration) {
        let limits = self.per_move.unwrap_or(Limits::game_clock(self.clock, Duration::ZERO));
        let start = Instant::now();
        let result = self.engine.search(position, &limits, &mut ());
        let used = start.elapsed();
        self.clock = self.clock.saturating_sub(used);
        (result, used)
    }
}

/// Wins, draws, losses and the piece margin of one player.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    margin: i64,
}

impl Tally {
    fn add(&mut self, margin: i64) {
        match margin.signum() {
            1 => self.wins += 1,
            -1 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.margin += margin;
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn row(&self, label: &str) -> String {
        let games = self.games().max(1);
        let score = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(games) * 100.0;
        format!(
            "{label:<26} {:>5} {:>5} {:>5} {:>6} {:>6.1}% {:>+8.2}",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            score,
            self.margin as f64 / f64::from(games)
        )
    }
}

/// How to read a move line, before the board's own legend.
const MOVE_LINE_LEGEND: &str = "\
ply N  side  player  move  time  (score S, depth D, N nodes)  removes K
  S: the mover's evaluation after its search, in pieces and from the mover's side (positive:
  it thinks it is ahead); exact: the final margin with best play, proven; no search: a forced
  move or a placement by rule of thumb; removes K: the move cut off K stacks
";

/// Prints the legend once, before the first game: the move lines, and the
/// board unless it is not shown.
fn print_legend(quiet: bool) {
    print!("How to read the output:\n{MOVE_LINE_LEGEND}");
    if !quiet {
        print!("\nThe board, shown after each move of the movement phase:\n{LEGEND}");
    }
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut a = Player::new(&args.a, &args, args.seed)?;
    let mut b = Player::new(&args.b, &args, args.seed.wrapping_add(1))?;
    if a.name == b.name {
        b.name.push_str(" (2)");
    }
    // [player][colour]: how each did with White and with Black.
    let mut tallies: [[Tally; 2]; 2] = Default::default();
    print_legend(args.quiet);

    for game in 0..args.games {
        // Colours alternate: in even games the first player has White.
        let a_is_white = game % 2 == 0;
        let (white, black) = if a_is_white { (&mut a, &mut b) } else { (&mut b, &mut a) };
        for player in [&mut *white, &mut *black] {
            player.engine.new_game();
            player.clock = Duration::from_secs_f64(args.time);
        }
        println!("\n=== game {} of {}: {} (White) vs {} (Black) ===", game + 1, args.games, white.name, black.name);
        let mut position = if args.random_setup {
            Position::random_setup_from_seed(args.seed.wrapping_mul(1000).wrapping_add(game as u64 / 2))
        } else {
            Position::new()
        };
        let mut ply = 0;
        let mut previous_move = None;
        loop {
            let mover = if position.side_to_move() == Color::White { &mut *white } else { &mut *black };
            let (result, used) = mover.play(&position);
            // `None` only when the game is over.
            let Some(mv) = result.best_move else { break };
            let before = position;
            let removed = position.play(mv).expect("the engine plays legal moves");
            // A move without search (forced, or a heuristic placement)
            // counts no nodes.
            let detail = if result.nodes == 0 {
                "no search".to_string()
            } else {
                let exact = if result.exact { " exact" } else { "" };
                format!("score {}{exact}, depth {}, {} nodes", result.score, result.depth, result.nodes)
            };
            println!(
                "ply {ply:>2}  {:<5} {:<5} {mv:<5} {:>5} ms  ({detail}){}",
                before.side_to_move().to_string(),
                mover.name,
                used.as_millis(),
                if removed.is_empty() { String::new() } else { format!("  removes {}", removed.len()) }
            );
            // During placement the board is shown when it is full; from then
            // on after every move.
            if !args.quiet && (position.phase() == Phase::Movement) {
                let options =
                    DiagramOptions { last_move: Some(mv), previous_move, removed, ..DiagramOptions::default() };
                println!("{}", diagram(&position, &options));
            }
            previous_move = Some(mv);
            ply += 1;
        }
        let (w, bl) = (i64::from(position.pieces(Color::White)), i64::from(position.pieces(Color::Black)));
        println!(
            "result: {w}-{bl}  (clocks left: White {:.2} s, Black {:.2} s)",
            white.clock.as_secs_f64(),
            black.clock.as_secs_f64()
        );
        let a_margin = if a_is_white { w - bl } else { bl - w };
        tallies[0][usize::from(!a_is_white)].add(a_margin);
        tallies[1][usize::from(a_is_white)].add(-a_margin);
    }

    println!(
        "\n{:<26} {:>5} {:>5} {:>5} {:>6} {:>7} {:>8}",
        "player", "games", "wins", "draws", "losses", "score", "margin"
    );
    for (player, name) in [&a.name, &b.name].into_iter().enumerate() {
        let [as_white, as_black] = &tallies[player];
        let total = Tally {
            wins: as_white.wins + as_black.wins,
            draws: as_white.draws + as_black.draws,
            losses: as_white.losses + as_black.losses,
            margin: as_white.margin + as_black.margin,
        };
        println!("{}", total.row(name));
        println!("{}", as_white.row("  with White"));
        println!("{}", as_black.row("  with Black"));
    }
    Ok(())
}
