//! `dvonn codecup`: the CodeCup 2011 player protocol over standard input and
//! output.
//!
//! The protocol, as the CodeCup 2011 DVONN competition ran it: one message
//! per line, moves in the syntax of
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#cells-and-moves) (`E3`, `C3E3`, `PASS`).
//!
//! - The player who moves first (White) receives `Start`; the other player's
//!   first line is White's first move, which also tells it that it plays
//!   Black. A session may start from another position than the empty board
//!   (`--position`, for matches from set openings): `Start` then means
//!   "you have the move", and a first move received means the player has
//!   the other colour.
//! - Whenever it is this player's turn it writes one move line, and flushes.
//!   Every ply is written by the player who makes it: White writes ply 48
//!   (its last placement) and ply 49 (its first movement) back to back, with
//!   no input in between, and a player with no legal move in the movement
//!   phase writes `PASS`.
//! - Whenever it is the opponent's turn it reads a line: the opponent's move,
//!   `PASS` included (checked like any move: a `PASS` from an opponent who
//!   had a move is illegal), or `Quit`.
//! - The session ends, successfully, on `Quit` or as soon as the game is
//!   over (after either player's move; a `Quit` that follows is not read).
//!
//! Decisions where the protocol leaves room: a line may end with `\n` or
//! `\r\n`; white space around a message is ignored, and so are blank lines;
//! `Start`, `Quit` and moves are read in any case (`start`, `c3-e3`); a line
//! longer than [`MAX_LINE_BYTES`] or not UTF-8 is unreadable. An unreadable
//! line, an illegal move, `Start` anywhere but on the first line, and the end
//! of the input before the game is over are errors (the command reports
//! them on standard error and exits with status 1).
//!
//! Time: the player has [`SessionConfig::time`] for the whole game (5 s by
//! default, as in the CodeCup), measured by its own clock from the moment it
//! has read what starts its turn to the moment its move is written. Each
//! search gets the rest of that budget, less [`SessionConfig::reserve`], as
//! a game clock ([`Limits::game_clock`]), so that the engine shares it out
//! over the moves to come and never overdraws it. The reserve is for what
//! the player's clock cannot see and the referee's does: the pipes, and the
//! moments a busy machine gives the processor to other programs.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use dvonn_ai::{Engine, EngineConfig, Limits};
use dvonn_core::{Color, Move, MoveParseError, Position};

use crate::args::{EngineArgs, parse_seconds};
use crate::input::read_bounded_line;

/// The longest line the protocol reads, in bytes (a move is at most 5).
pub const MAX_LINE_BYTES: usize = 256;

/// Arguments of `dvonn codecup`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Thinking time for the whole game, in seconds, measured by the
    /// player's own clock (the CodeCup 2011 limit was 5 s).
    #[arg(long, default_value = DEFAULT_TIME, value_parser = parse_seconds, value_name = "SECONDS")]
    time: Duration,
    /// Seconds of --time the engine never plans to use, for what the referee's clock counts
    /// and the player's does not (pipes, a busy machine).
    #[arg(long, default_value = DEFAULT_RESERVE, value_parser = parse_reserve, value_name = "SECONDS")]
    reserve: Duration,
    #[command(flatten)]
    engine: EngineArgs,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 0, value_name = "N")]
    seed: u64,
    /// Start from this position (a position string, quoted) instead of the empty board.
    #[arg(long, value_name = "POSITION")]
    position: Option<Position>,
}

/// The thinking time for the whole game unless told otherwise, in seconds.
const DEFAULT_TIME: &str = "5";
/// The reserve unless told otherwise, in seconds.
const DEFAULT_RESERVE: &str = "0.4";

/// Reads a reserve of time: 0 or more seconds.
fn parse_reserve(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if (0.0..=86_400.0).contains(&seconds) => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!("{text:?} is not a number of seconds from 0 to 86400")),
    }
}

/// Runs `dvonn codecup` on standard input and output. Reports the end of
/// the session and the thinking time used on standard error.
pub fn run(args: &Args) -> Result<()> {
    if args.reserve >= args.time {
        bail!("--reserve ({} s) must be less than --time ({} s)", args.reserve.as_secs_f64(), args.time.as_secs_f64());
    }
    let config = SessionConfig {
        time: args.time,
        reserve: args.reserve,
        engine: args.engine.config().with_seed(args.seed),
        start: args.position.unwrap_or_default(),
    };
    let end = play_session(io::stdin().lock(), io::stdout().lock(), &config)?;
    let color = end.color.map_or_else(|| "no colour".to_string(), |c| c.to_string());
    let how = match end.reason {
        EndReason::Quit => "quit".to_string(),
        EndReason::GameOver => {
            format!("game over, {}-{}", end.position.pieces(Color::White), end.position.pieces(Color::Black))
        }
    };
    eprintln!(
        "dvonn codecup: {how} ({color}, {} moves, thought {:.3} s of {:.3} s)",
        end.moves_made,
        end.thinking.as_secs_f64(),
        config.time.as_secs_f64()
    );
    Ok(())
}

/// How a session plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionConfig {
    /// Thinking time for the whole game.
    pub time: Duration,
    /// The part of `time` the engine never plans to use.
    pub reserve: Duration,
    /// The engine.
    pub engine: EngineConfig,
    /// The position the game starts from (the empty board in the CodeCup).
    pub start: Position,
}

impl Default for SessionConfig {
    /// 5 s for the game of which 0.4 s in reserve, the default engine, the
    /// empty board.
    fn default() -> SessionConfig {
        SessionConfig {
            time: parse_seconds(DEFAULT_TIME).expect("the default time is a number of seconds"),
            reserve: parse_reserve(DEFAULT_RESERVE).expect("the default reserve is a number of seconds"),
            engine: EngineConfig::default(),
            start: Position::new(),
        }
    }
}

/// Why a session ended without error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `Quit` was read.
    Quit,
    /// The game is over (neither player can move).
    GameOver,
}

/// How a session ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionEnd {
    /// Why it ended.
    pub reason: EndReason,
    /// The colour the player had (`None` when `Quit` came first).
    pub color: Option<Color>,
    /// The position at the end.
    pub position: Position,
    /// The moves the player wrote.
    pub moves_made: usize,
    /// The time the player's own clock measured: the sum of its turns.
    pub thinking: Duration,
}

/// A message of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// `Start`: you move first (White, from the empty board).
    Start,
    /// `Quit`: the session is over.
    Quit,
    /// A move (`PASS` included).
    Move(Move),
}

impl Message {
    /// Reads one message (white space around it ignored, any case).
    pub fn parse(line: &str) -> Result<Message, MoveParseError> {
        let text = line.trim();
        if text.eq_ignore_ascii_case("start") {
            Ok(Message::Start)
        } else if text.eq_ignore_ascii_case("quit") {
            Ok(Message::Quit)
        } else {
            text.parse().map(Message::Move)
        }
    }
}

/// Reads the next line of `input` (without its line ending), refusing
/// lines longer than [`MAX_LINE_BYTES`].
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    read_bounded_line(input, MAX_LINE_BYTES)
}

/// The lines of the input with their numbers, blank lines skipped.
struct Lines<R> {
    input: R,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// The next line that is not blank, trimmed, with its 1-based number;
    /// `None` at the end of the input.
    fn next(&mut self) -> Result<Option<(usize, String)>> {
        loop {
            let line = read_line(&mut self.input).with_context(|| format!("cannot read line {}", self.number + 1))?;
            let Some(line) = line else { return Ok(None) };
            self.number += 1;
            let text = line.trim();
            if !text.is_empty() {
                return Ok(Some((self.number, text.to_string())));
            }
        }
    }
}

/// Plays one game as a CodeCup player: reads the referee's messages from
/// `input`, writes the player's moves to `output` (one line each, flushed
/// at once). See the module documentation for the protocol and the errors.
pub fn play_session(input: impl BufRead, mut output: impl Write, config: &SessionConfig) -> Result<SessionEnd> {
    let mut engine = Engine::new(config.engine.clone()).context("cannot start the engine")?;
    let mut lines = Lines { input, number: 0 };
    let mut position = config.start;
    let mut color: Option<Color> = None;
    let mut thinking = Duration::ZERO;
    let mut moves_made = 0;
    loop {
        if position.is_game_over() {
            return Ok(SessionEnd { reason: EndReason::GameOver, color, position, moves_made, thinking });
        }
        if color == Some(position.side_to_move()) {
            let started = Instant::now();
            let remaining = config.time.saturating_sub(config.reserve).saturating_sub(thinking);
            let limits = Limits::game_clock(remaining, Duration::ZERO);
            let result = engine.search(&position, &limits, &mut ());
            let mv = result.best_move.ok_or_else(|| anyhow!("the engine found no move in {position}"))?;
            position.play(mv).with_context(|| format!("the engine chose an illegal move in {position}"))?;
            writeln!(output, "{mv}").and_then(|()| output.flush()).context("cannot write the move")?;
            thinking += started.elapsed();
            moves_made += 1;
            continue;
        }
        let Some((number, line)) = lines.next()? else {
            bail!("input ended before the game did (after line {})", lines.number);
        };
        match Message::parse(&line) {
            Ok(Message::Quit) => {
                return Ok(SessionEnd { reason: EndReason::Quit, color, position, moves_made, thinking });
            }
            Ok(Message::Start) => {
                if color.is_some() {
                    bail!("line {number}: Start, but it may only be the first line, to the player who moves first");
                }
                color = Some(position.side_to_move());
            }
            Ok(Message::Move(mv)) => {
                if color.is_none() {
                    color = Some(!position.side_to_move());
                }
                position.play(mv).map_err(|error| anyhow!("line {number}: the opponent's move {error}"))?;
            }
            Err(error) => bail!("line {number}: {line:?} is not a move, Start or Quit: {error}"),
        }
    }
}

#[cfg(test)]
mod tests;
