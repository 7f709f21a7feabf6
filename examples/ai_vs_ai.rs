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
//! placement, the network evaluation, sharing a game clock), `baseline` (the same
//! search with heuristic placement and a pieces-only evaluation), or a level
//! (`beginner`, `casual`, `club`, `expert`, `master`) with that level's own
//! per-move limit.

use std::cmp::Ordering;
use std::time::Duration;

use clap::Parser;
use dvonn::ai::{Engine, EngineConfig, EnginePlayer, Level, Limits, MovementEval, PlacementStrategy, Referee, Weights};
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
    engine: EnginePlayer,
    /// Whether it shares a game clock (a level has its own time per move).
    clocked: bool,
}

impl Player {
    fn new(spec: &str, args: &Args, seed: u64) -> Result<Player, String> {
        let (config, per_move) = match spec {
            "full" => (EngineConfig::default(), None),
            "baseline" => (
                EngineConfig::default()
                    .with_movement_eval(MovementEval::Linear(Weights::PIECES_ONLY))
                    .with_placement(PlacementStrategy::Heuristic),
                None,
            ),
            level => {
                let level: Level = level.parse().map_err(|e| format!("{e} (or full, baseline)"))?;
                (level.config(), Some(level.limits()))
            }
        };
        let config = config.with_threads(args.threads).with_seed(seed);
        let engine = Engine::new(config).map_err(|e| e.to_string())?;
        let limits = per_move.unwrap_or(Limits::infinite());
        Ok(Player { name: spec.to_string(), engine: EnginePlayer::new(engine, limits), clocked: per_move.is_none() })
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
    /// A game won, drawn or lost (`result`), by `margin` pieces.
    fn add(&mut self, result: Ordering, margin: i64) {
        match result {
            Ordering::Greater => self.wins += 1,
            Ordering::Less => self.losses += 1,
            Ordering::Equal => self.draws += 1,
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
    let time = Duration::try_from_secs_f64(args.time).map_err(|e| format!("--time {}: {e}", args.time))?;
    let mut a = Player::new(&args.a, &args, args.seed)?;
    let mut b = Player::new(&args.b, &args, args.seed.wrapping_add(1))?;
    if a.name == b.name {
        b.name.push_str(" (2)");
    }
    // [player][colour]: how each did with White and with Black.
    let mut tallies: [[Tally; 2]; 2] = Default::default();
    print_legend(args.quiet);

    for game_number in 0..args.games {
        // Colours alternate: in even games the first player has White.
        let a_is_white = game_number % 2 == 0;
        let (white, black) = if a_is_white { (&mut a, &mut b) } else { (&mut b, &mut a) };
        let mut referee = Referee::new(if args.random_setup {
            Position::random_setup_from_seed(args.seed.wrapping_mul(1000).wrapping_add(game_number as u64 / 2))
        } else {
            Position::new()
        });
        for (color, player) in Color::BOTH.into_iter().zip([&mut *white, &mut *black]) {
            player.engine.new_game();
            referee.set_clock(color, player.clocked.then_some(time));
        }
        println!(
            "\n=== game {} of {}: {} (White) vs {} (Black) ===",
            game_number + 1,
            args.games,
            white.name,
            black.name
        );
        loop {
            let mover = if referee.position().side_to_move() == Color::White { &mut *white } else { &mut *black };
            let side = referee.position().side_to_move();
            let Some(played) = referee.step(&mut mover.engine, &mut ()) else { break };
            let result = mover.engine.last_search().expect("the move was searched");
            // A move without search (forced, or a heuristic placement)
            // counts no nodes.
            let detail = if result.nodes == 0 {
                "no search".to_string()
            } else {
                let exact = if result.exact { " exact" } else { "" };
                format!("score {}{exact}, depth {}, {} nodes", result.score, result.depth, result.nodes)
            };
            let ply = referee.game().len() - 1;
            println!(
                "ply {ply:>2}  {:<5} {:<5} {:<5} {:>5} ms  ({detail}){}",
                side.to_string(),
                mover.name,
                played.mv,
                referee.times()[ply].as_millis(),
                if played.removed.is_empty() { String::new() } else { format!("  removes {}", played.removed.len()) }
            );
            // During placement the board is shown when it is full; from then
            // on after every move.
            if !args.quiet && (referee.position().phase() == Phase::Movement) {
                let mut options = DiagramOptions::default().with_last_move(played.mv).with_removed(played.removed);
                options.previous_move = ply.checked_sub(1).map(|i| referee.game().plies()[i].mv);
                println!("{}", diagram(referee.position(), &options));
            }
        }
        let clocks = format!(
            "clocks left: White {:.2} s, Black {:.2} s",
            time.saturating_sub(referee.used(Color::White)).as_secs_f64(),
            time.saturating_sub(referee.used(Color::Black)).as_secs_f64()
        );
        let outcome = referee.outcome();
        let a_color = if a_is_white { Color::White } else { Color::Black };
        let a_result = match outcome.winner() {
            None => Ordering::Equal,
            Some(winner) if winner == a_color => Ordering::Greater,
            Some(_) => Ordering::Less,
        };
        let a_margin = match referee.forfeit() {
            Some((loser, reason)) => {
                println!("result: {loser} forfeits: {reason}  ({clocks})");
                0
            }
            None => {
                let (white, black) = (referee.position().pieces(Color::White), referee.position().pieces(Color::Black));
                println!("result: {white}-{black}  ({clocks})");
                let margin = i64::from(white) - i64::from(black);
                if a_is_white { margin } else { -margin }
            }
        };
        tallies[0][usize::from(!a_is_white)].add(a_result, a_margin);
        tallies[1][usize::from(a_is_white)].add(a_result.reverse(), -a_margin);
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
