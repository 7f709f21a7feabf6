//! `dvonn convert`: convert games between formats, or extract a position
//! from a game.
//!
//! The input is read in any format of [`dvonn_core::notation`] (detected,
//! or named with `--from`), replayed through the rules (an illegal move is
//! an error naming its number), and written in the `--to` format.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use dvonn_core::notation::{Format, write};
use dvonn_core::{GameRecord, RecordResult, Replay};

use crate::input::read_game;
use crate::output::emit;

/// The formats `dvonn convert` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// The project's game record (NOTATION.md).
    Record,
    /// A Little Golem transcript.
    Lg,
    /// A BoardSpace SGF record.
    Sgf,
    /// A CodeCup log (or a list of moves, one per line).
    Codecup,
}

impl InputFormat {
    /// The notation format.
    pub fn format(self) -> Format {
        match self {
            InputFormat::Record => Format::Record,
            InputFormat::Lg => Format::LittleGolem,
            InputFormat::Sgf => Format::Sgf,
            InputFormat::Codecup => Format::CodeCup,
        }
    }
}

/// What `dvonn convert` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// The project's game record (NOTATION.md).
    #[default]
    Record,
    /// A Little Golem transcript.
    Lg,
    /// A CodeCup log: `Start`, then one move per line.
    Codecup,
    /// The position string (NOTATION.md) after ply --ply (default: the end).
    Position,
}

/// Arguments of `dvonn convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to convert (our game record, Little Golem, BoardSpace SGF or
    /// a CodeCup log; the format is detected unless --from names it), or `-`
    /// for standard input.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Write to this file instead of standard output (`-`: standard output).
    /// An existing file is kept unless --force.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The format to write: a game record, a Little Golem transcript, a
    /// CodeCup log, or the position string after ply --ply.
    #[arg(long, value_enum, default_value_t = OutputFormat::Record)]
    pub to: OutputFormat,
    /// The format of IN, when detection is not wanted.
    #[arg(long, value_enum)]
    pub from: Option<InputFormat>,
    /// Keep the first N plies only (0: the start position); with
    /// `--to position`, the position after ply N. Default: the whole game.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Overwrite OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Runs `dvonn convert`.
pub fn run(args: &Args) -> Result<()> {
    let name = args.input.display();
    let (record, replay) = read_game(&args.input, args.from.map(InputFormat::format))?;
    let ply = checked_ply(args.ply, &replay).with_context(|| format!("{name}"))?;
    let text = match args.to {
        OutputFormat::Position => format!("{}\n", replay.positions[ply]),
        OutputFormat::Record | OutputFormat::Lg | OutputFormat::Codecup => {
            let format = match args.to {
                OutputFormat::Lg => Format::LittleGolem,
                OutputFormat::Codecup => Format::CodeCup,
                _ => Format::Record,
            };
            let record = truncated(&record, &replay, ply);
            write(&record, format).with_context(|| format!("cannot write {name} as a {format}"))?
        }
    };
    emit(args.output.as_deref(), text.as_bytes(), args.force)
}

/// The ply `requested` (default: the last), checked against the game.
pub fn checked_ply(requested: Option<usize>, replay: &Replay) -> Result<usize> {
    let plies = replay.moves.len();
    match requested {
        None => Ok(plies),
        Some(ply) if ply <= plies => Ok(ply),
        Some(ply) => bail!("--ply {ply} is past the end of the game ({plies} plies)"),
    }
}

/// `record` with its first `ply` moves only (the forced last placement
/// filled in); a cut game's result is what the rules say after the cut.
fn truncated(record: &GameRecord, replay: &Replay, ply: usize) -> GameRecord {
    if ply == replay.moves.len() {
        return record.clone();
    }
    let mut cut = record.clone();
    cut.moves = replay.moves[..ply].to_vec();
    cut.result = RecordResult::of_position(&replay.positions[ply]);
    cut
}
