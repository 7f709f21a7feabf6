//! `dvonn play`: a human against the engine in the terminal.
//!
//! The board is drawn by [`dvonn_notation::diagram`] (in colour only when standard
//! output is a terminal) with the last two moves, the human's and the
//! engine's, and the stacks the last one removed. Before each of his turns
//! the human is told what the phase asks of him (a DVONN piece for the
//! first three placements, then one of his own pieces, then a move). The
//! engine's evaluation is shown only when a search gave it: a placement by
//! rule of thumb or at random, or a forced move, has none. The
//! human types moves in the CodeCup notation of
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#cells-and-moves), in any case
//! (`e3`, `C3E3`, `c3-e3`, `pass`), or a command:
//!
//! - `undo`: take back your last move and the engine's replies to it;
//! - `hint`: the engine's suggestion for you;
//! - `moves`: your legal moves;
//! - `board`: draw the board again;
//! - `save FILE`: save the game as a game record (tags `Event`, `White`,
//!   `Black`, `Date`, `Setup`, `Result`), refusing to replace an existing
//!   file; `save! FILE` replaces it;
//! - `help` (the commands and what the board's symbols mean); `quit` (also
//!   `exit`; the end of the input quits too).
//!
//! A move with no alternative (a forced pass, the last empty cell) is
//! played for the human, with a message; `undo` goes back to the last move
//! the human chose. An illegal move is explained ([`Position::check`]) and,
//! in the movement phase, followed by the list of the human's stacks that
//! may move and where to. When the game is over the result and the final
//! score are printed; commands (`save`, `undo`, `quit`) still work until
//! `quit` or the end of the input.
//!
//! The session runs over any [`BufRead`] and [`Write`] ([`play_session`]),
//! so that it works, and is tested, with scripted input; when standard
//! input is not a terminal each command read is echoed after the prompt so
//! that the transcript reads like a terminal session.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dvonn_ai::{Engine, EngineConfig, EnginePlayer, Level, Limits, Referee, SearchResult};
use dvonn_core::{Author, Bitboard, Color, Game, Move, Phase, Position, TOTAL_PIECES};
use dvonn_notation::GameRecord;

use crate::args::parse_seconds;
use crate::input::read_bounded_line;
use crate::output::write_file;
use dvonn_notation::diagram::{DiagramOptions, LEGEND, diagram};

/// The longest command line read, in bytes.
const MAX_COMMAND_BYTES: usize = 4096;

/// Arguments of `dvonn play`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Your colour: w (White, who moves first) or b (Black).
    #[arg(long, default_value = "w", value_parser = parse_color, value_name = "w|b")]
    color: Color,
    /// The engine's strength: beginner, casual, club, expert or master.
    #[arg(long, default_value = "club", value_parser = parse_level, value_name = "L", conflicts_with = "time")]
    level: Level,
    /// Give the engine this many seconds per move (the master level's
    /// engine) instead of a level.
    #[arg(long, value_parser = parse_seconds, value_name = "S")]
    time: Option<Duration>,
    /// Start from a random setup (all 49 pieces laid at random, movement
    /// phase) instead of the empty board.
    #[arg(long)]
    random_setup: bool,
    /// Seed of the random setup and of the engine's random choices (default:
    /// from the clock).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Search threads of the engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256), value_name = "N")]
    threads: u16,
}

/// Reads `w`, `white`, `b` or `black` (any case).
fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(format!("{text:?} is not a colour: expected w or b")),
    }
}

/// Reads a level name.
fn parse_level(text: &str) -> Result<Level, String> {
    text.parse().map_err(|error: dvonn_ai::UnknownLevel| error.to_string())
}

/// How a game in the terminal is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlayConfig {
    /// The human's colour.
    pub human: Color,
    /// The engine's configuration.
    pub engine: EngineConfig,
    /// The engine's limit per move.
    pub limits: Limits,
    /// The engine's name in messages and game records.
    pub engine_name: String,
    /// The configuration of the engine that answers `hint`.
    pub hint_engine: EngineConfig,
    /// The limit per hint.
    pub hint_limits: Limits,
    /// The position the game starts from.
    pub start: Position,
    /// Draw the board with colours.
    pub colored: bool,
    /// Echo each command after its prompt (for input that is not a terminal).
    pub echo: bool,
}

/// Runs `dvonn play` on the terminal (or whatever standard input and output
/// are).
pub(crate) fn run(args: &Args) -> Result<()> {
    let seed = args.seed.unwrap_or_else(crate::args::clock_seed);
    let threads = usize::from(args.threads);
    let (mut engine, limits, engine_name) = match args.time {
        Some(time) => (
            Level::Master.config(),
            Limits::move_time(time),
            format!("dvonn-ai {} ({} s/move)", env!("CARGO_PKG_VERSION"), time.as_secs_f64()),
        ),
        None => (
            args.level.config(),
            args.level.limits(),
            format!("dvonn-ai {} ({})", env!("CARGO_PKG_VERSION"), args.level),
        ),
    };
    engine.threads = threads;
    engine.seed = seed;
    // Hints come from at least the club level, so that they are worth asking for.
    let hint_level = if args.time.is_none() && args.level < Level::Club { Level::Club } else { args.level };
    let (mut hint_engine, hint_limits) = match args.time {
        Some(_) => (engine.clone(), limits),
        None => (hint_level.config(), hint_level.limits()),
    };
    hint_engine.threads = threads;
    hint_engine.seed = seed ^ 0x9e37_79b9_7f4a_7c15;
    let start = if args.random_setup { Position::random_setup_from_seed(seed) } else { Position::new() };
    let config = PlayConfig {
        human: args.color,
        engine,
        limits,
        engine_name,
        hint_engine,
        hint_limits,
        start,
        colored: io::stdout().is_terminal(),
        echo: !io::stdin().is_terminal(),
    };
    if args.random_setup {
        outln!("Random setup number {seed} (replay it with --random-setup --seed {seed}).")?;
    }
    play_session(io::stdin().lock(), io::stdout().lock(), &config)
}

/// Has the engine choose and play its move; returns it.
fn play_engine(referee: &mut Referee, engine: &mut EnginePlayer) -> Result<Move> {
    match referee.step(engine, &mut ()) {
        Some(ply) => Ok(ply.mv),
        None => match referee.forfeit() {
            Some((_, reason)) => bail!("the engine forfeits: {reason}"),
            None => bail!("the game is over"),
        },
    }
}

/// The last two moves of `game` and what the last one removed, marked on
/// the board.
fn diagram_options(game: &Game, colored: bool) -> DiagramOptions {
    let plies = game.plies();
    let mut options = DiagramOptions::default();
    options.colored = colored;
    options.last_move = plies.last().map(|ply| ply.mv);
    options.previous_move = plies.len().checked_sub(2).map(|i| plies[i].mv);
    options.removed = plies.last().map_or(Bitboard::EMPTY, |ply| ply.removed);
    options
}

/// What the human typed.
#[derive(Debug, PartialEq, Eq)]
enum Command<'a> {
    Move(Move),
    Undo,
    Hint,
    Moves,
    Board,
    Save { path: &'a str, force: bool },
    Help,
    Quit,
    Unknown(&'a str),
}

impl Command<'_> {
    fn parse(line: &str) -> Command<'_> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        match (word.to_ascii_lowercase().as_str(), rest) {
            ("undo", "") => Command::Undo,
            ("hint", "") => Command::Hint,
            ("moves", "") => Command::Moves,
            ("board", "") => Command::Board,
            ("help" | "?", "") => Command::Help,
            ("quit" | "exit", "") => Command::Quit,
            ("save", path) => Command::Save { path, force: false },
            ("save!", path) => Command::Save { path, force: true },
            _ => match line.parse::<Move>() {
                Ok(mv) => Command::Move(mv),
                Err(_) => Command::Unknown(line),
            },
        }
    }
}

const HELP: &str = "\
Type a move in CodeCup notation, in any case:
  E3          place a piece on E3 (placement phase)
  C3E3, C3-E3 move the stack on C3 onto E3 (movement phase)
  pass        pass (only when you have no move; forced passes are played for you)
Commands:
  undo        take back your last move and the engine's reply
  hint        ask the engine for a move
  moves       list your legal moves
  board       draw the board again
  save FILE   save the game record (save! FILE replaces an existing file)
  help        this text
  quit        leave the game (the end of the input does the same)";

/// Plays a game between the human on `input` and the engine, writing the
/// board and messages to `output`. Returns when the human quits or the input
/// ends.
pub(crate) fn play_session(mut input: impl BufRead, mut output: impl Write, config: &PlayConfig) -> Result<()> {
    let engine = Engine::new(config.engine.clone()).context("cannot start the engine")?;
    let mut engine = EnginePlayer::new(engine, config.limits);
    let mut hint_engine: Option<Engine> = None;
    let mut referee = Referee::new(config.start);
    let human = config.human;
    let out = &mut output;
    writeln!(out, "You play {human} against {}. Type help for the commands.", config.engine_name)?;
    writeln!(out, "On the board, [ ] marks the last move and ( ) the move before it.")?;
    show(out, referee.game(), config.colored)?;
    let mut announced = false;
    // The ply at which the human was last told what to do: once a turn.
    let mut told_at = None;
    loop {
        let position = *referee.position();
        if position.is_game_over() {
            if !announced {
                announce_result(out, &position, human, &config.engine_name)?;
                announced = true;
            }
        } else {
            announced = false;
            if position.side_to_move() != human {
                let mv = play_engine(&mut referee, &mut engine)?;
                match engine.last_search().and_then(searched_score) {
                    Some(score) => writeln!(out, "{} plays {mv} (its evaluation: {score}).", config.engine_name)?,
                    None => writeln!(out, "{} plays {mv}.", config.engine_name)?,
                }
                show(out, referee.game(), config.colored)?;
                continue;
            }
            let moves = position.legal_moves();
            if let [only] = moves.as_slice() {
                let why = if *only == Move::Pass { "you have no legal move" } else { "the last empty cell" };
                writeln!(out, "You play {only}: {why}, so it is played for you.")?;
                let removed = referee.play(*only, Author::Forced, &mut ())?;
                write_removed(out, removed)?;
                if referee.position().side_to_move() == human || referee.position().is_game_over() {
                    show(out, referee.game(), config.colored)?;
                }
                continue;
            }
        }
        if !position.is_game_over() && told_at != Some(referee.game().len()) {
            told_at = Some(referee.game().len());
            writeln!(out, "{}", what_to_do(&position))?;
        }
        let prompt = if position.is_game_over() { "game over> ".to_string() } else { format!("{human}> ") };
        write!(out, "{prompt}")?;
        out.flush()?;
        let Some(line) = read_bounded_line(&mut input, MAX_COMMAND_BYTES).context("cannot read standard input")? else {
            writeln!(out)?;
            quit(out, referee.position())?;
            return Ok(());
        };
        if config.echo {
            writeln!(out, "{}", line.trim())?;
        }
        match Command::parse(&line) {
            Command::Quit => {
                quit(out, referee.position())?;
                return Ok(());
            }
            Command::Help => write!(out, "{HELP}\nOn the board:\n{LEGEND}")?,
            Command::Board => show(out, referee.game(), config.colored)?,
            Command::Undo => {
                if referee.undo(Author::Person) {
                    writeln!(out, "Taken back.")?;
                    show(out, referee.game(), config.colored)?;
                } else {
                    writeln!(out, "Nothing to undo: you have not moved yet.")?;
                }
            }
            Command::Hint => {
                if position.is_game_over() {
                    writeln!(out, "The game is over: there is no move to suggest.")?;
                } else {
                    let engine = match &mut hint_engine {
                        Some(engine) => engine,
                        None => hint_engine
                            .insert(Engine::new(config.hint_engine.clone()).context("cannot start the engine")?),
                    };
                    let result = engine.search(&position, &config.hint_limits, &mut ());
                    write_hint(out, &result)?;
                }
            }
            Command::Moves => {
                if position.is_game_over() {
                    writeln!(out, "The game is over.")?;
                } else {
                    writeln!(out, "{}", describe_moves(&position))?;
                }
            }
            Command::Save { path, force } => {
                if path.is_empty() {
                    writeln!(out, "save needs a file name: save FILE (save! FILE replaces an existing file).")?;
                } else {
                    let text = record(referee.game(), config).to_string();
                    if !force && Path::new(path).exists() {
                        writeln!(out, "Not saved: {path} exists; use save! {path} to replace it.")?;
                    } else {
                        match write_file(Path::new(path), text.as_bytes(), force) {
                            Ok(()) => writeln!(out, "Saved the game to {path}.")?,
                            Err(error) => writeln!(out, "Not saved: {error:#}.")?,
                        }
                    }
                }
            }
            Command::Move(mv) => {
                if let Err(reason) = position.check(mv) {
                    writeln!(out, "{mv} is illegal: {reason}.")?;
                    if !position.is_game_over() {
                        writeln!(out, "{}", describe_moves(&position))?;
                    }
                    continue;
                }
                let removed = referee.play(mv, Author::Person, &mut ())?;
                writeln!(out, "You play {mv}.")?;
                write_removed(out, removed)?;
                if referee.position().side_to_move() == human || referee.position().is_game_over() {
                    show(out, referee.game(), config.colored)?;
                }
            }
            Command::Unknown(text) => {
                let text: String = text.chars().take(40).collect();
                writeln!(out, "{text:?} is neither a move nor a command: type help for the commands.")?;
            }
        }
    }
}

/// Draws the board after a blank line.
fn show(out: &mut impl Write, game: &Game, colored: bool) -> io::Result<()> {
    writeln!(out)?;
    write!(out, "{}", diagram(game.position(), &diagram_options(game, colored)))
}

/// Lists the cells a move removed, if any.
fn write_removed(out: &mut impl Write, removed: Bitboard) -> io::Result<()> {
    if !removed.is_empty() {
        let cells: Vec<String> = removed.iter().map(|cell| cell.to_string()).collect();
        writeln!(out, "It cuts off and removes: {}.", cells.join(" "))?;
    }
    Ok(())
}

/// Prints a hint.
fn write_hint(out: &mut impl Write, result: &SearchResult) -> io::Result<()> {
    match (result.best_move, searched_score(result)) {
        (Some(mv), Some(score)) => writeln!(out, "Hint: {mv} (evaluation for you: {score})."),
        (Some(mv), None) => writeln!(out, "Hint: {mv}."),
        (None, _) => writeln!(out, "No move to suggest."),
    }
}

/// The score of a search as text (`1.25`, `3.00, exact`), or `None` when
/// no search gave it: a placement by rule of thumb or at random, or a move
/// that was the only one, comes with a score that means nothing.
fn searched_score(result: &SearchResult) -> Option<String> {
    match (result.nodes, result.exact) {
        (0, _) => None,
        (_, true) => Some(format!("{}, exact", result.score)),
        (_, false) => Some(result.score.to_string()),
    }
}

/// What the phase asks of the side to move, in one line.
fn what_to_do(position: &Position) -> String {
    let placed = position.placed();
    let top = position.side_to_move().letter().to_ascii_uppercase();
    match position.phase() {
        Phase::Placement if placed < 3 => format!(
            "Place a DVONN piece on an empty cell: the first three placements are the DVONN pieces \
             (D on the board); this is number {} of 3.",
            placed + 1
        ),
        Phase::Placement => format!(
            "Place one of your pieces ({top}) on an empty cell: {} cells are left; \
             when the board is full, the stacks start to move.",
            u32::from(TOTAL_PIECES) - placed
        ),
        Phase::Movement => format!(
            "Move one of your stacks ({top} on top) exactly as many cells as it is high, \
             in a straight line, onto another stack."
        ),
    }
}

/// The moves the side to move has, for a player who asked or who tried an
/// illegal move: the stacks that may move and where to, or the empty cells.
fn describe_moves(position: &Position) -> String {
    let moves = position.legal_moves();
    match position.phase() {
        Phase::Placement => {
            let cells: Vec<String> = moves.iter().filter_map(|mv| mv.to()).map(|cell| cell.to_string()).collect();
            let piece = if position.placed() < 3 { "a DVONN piece" } else { "a piece" };
            format!("Place {piece} on an empty cell: {}.", cells.join(" "))
        }
        Phase::Movement if moves.as_slice() == [Move::Pass] => "You have no legal move: you must pass.".to_string(),
        Phase::Movement => {
            let mut stacks: Vec<(String, Vec<String>)> = Vec::new();
            for mv in &moves {
                let (Some(from), Some(to)) = (mv.from(), mv.to()) else { continue };
                let from = from.to_string();
                match stacks.iter_mut().find(|(f, _)| *f == from) {
                    Some((_, targets)) => targets.push(to.to_string()),
                    None => stacks.push((from, vec![to.to_string()])),
                }
            }
            let listed: Vec<String> =
                stacks.iter().map(|(from, targets)| format!("{from} (to {})", targets.join(", "))).collect();
            format!("Your movable stacks: {}.", listed.join(", "))
        }
    }
}

/// Prints the result of a finished game.
fn announce_result(out: &mut impl Write, position: &Position, human: Color, engine: &str) -> io::Result<()> {
    let (mine, theirs) = (position.pieces(human), position.pieces(!human));
    let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
    let verdict = match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => format!("You win by {} pieces.", mine - theirs),
        std::cmp::Ordering::Less => format!("{engine} wins by {} pieces.", theirs - mine),
        std::cmp::Ordering::Equal => "A draw.".to_string(),
    };
    writeln!(out, "Game over. Final score: White {white}, Black {black}. {verdict}")?;
    writeln!(out, "Type save FILE to keep the game, undo to take your last move back, or quit.")
}

/// Says goodbye.
fn quit(out: &mut impl Write, position: &Position) -> io::Result<()> {
    if position.is_game_over() {
        writeln!(out, "Goodbye.")
    } else {
        let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
        writeln!(out, "Game abandoned (score so far: White {white}, Black {black}). Goodbye.")
    }
}

/// The game as a record.
fn record(game: &Game, config: &PlayConfig) -> GameRecord {
    let mut record = GameRecord::from(game);
    let (white, black) = match config.human {
        Color::White => ("Human", config.engine_name.as_str()),
        Color::Black => (config.engine_name.as_str(), "Human"),
    };
    record.set_tag("Event", "dvonn play");
    record.set_tag("Date", &crate::date::today());
    record.set_tag("White", white);
    record.set_tag("Black", black);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(Command::parse(" UNDO \n"), Command::Undo);
        assert_eq!(Command::parse("save! my game.dvonn"), Command::Save { path: "my game.dvonn", force: true });
        assert_eq!(Command::parse("save"), Command::Save { path: "", force: false });
        assert_eq!(Command::parse("c3-e3\r\n"), Command::Move("C3E3".parse().unwrap()));
        assert_eq!(Command::parse("Pass"), Command::Move(Move::Pass));
        assert_eq!(Command::parse("undo now"), Command::Unknown("undo now"));
    }

    #[test]
    fn each_phase_says_what_it_asks_for() {
        let mut position = Position::new();
        assert!(what_to_do(&position).starts_with("Place a DVONN piece on an empty cell"), "{}", what_to_do(&position));
        assert!(what_to_do(&position).ends_with("number 1 of 3."));
        for cell in ["E3", "D3", "C3"] {
            position.play(cell.parse().unwrap()).unwrap();
        }
        // Black places the first piece of his own colour.
        assert!(what_to_do(&position).starts_with("Place one of your pieces (B) on an empty cell: 46 cells are left"));
        let position = Position::random_setup_from_seed(3);
        assert!(what_to_do(&position).starts_with("Move one of your stacks (W on top)"));
    }

    #[test]
    fn movable_stacks_are_listed_with_their_targets() {
        let position: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        assert_eq!(describe_moves(&position), "Your movable stacks: B3 (to C3, A3).");
    }
}
