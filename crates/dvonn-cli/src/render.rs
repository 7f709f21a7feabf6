//! `dvonn render`: pictures of positions, as SVG ([`dvonn_notation::svg`])
//! or as the text diagram ([`dvonn_notation::diagram`]). When a game record
//! is rendered, the move that led to the position is drawn with the stacks
//! it removed, and a caption says who moves, the phase and the score, the
//! players and the ply.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use dvonn_core::Position;

use crate::convert::checked_ply;
use crate::input::{parse_game, read_text};
use crate::output::emit;
use dvonn_notation::diagram::{DiagramOptions, diagram, status};
use dvonn_notation::svg::{LastMove, svg};

/// The pictures `dvonn render` draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RenderFormat {
    /// An SVG picture.
    #[default]
    Svg,
    /// The text diagram of `dvonn play`, without colours.
    Txt,
}

/// Arguments of `dvonn render`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// What to draw: a position string (quoted; the format:
    /// <https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#position-strings>), or else a game
    /// record file in any format (`-`: standard input), drawn after ply
    /// --ply with its last move.
    #[arg(value_name = "POSITION|RECORD")]
    pub source: String,
    /// With a record: draw the position after this many plies (0: the
    /// start). Default: the end of the game.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Write to this file instead of standard output (`-`: standard output).
    /// An existing file is kept unless --force.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The picture: an SVG image, or the text diagram.
    #[arg(long, value_enum, default_value_t = RenderFormat::Svg)]
    pub format: RenderFormat,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Runs `dvonn render`.
pub(crate) fn run(args: &Args) -> Result<()> {
    let (position, last_move, mut caption) = resolve(args)?;
    let text = match args.format {
        RenderFormat::Svg => {
            caption.insert(0, status(&position));
            svg(&position, last_move.as_ref(), &caption)
        }
        RenderFormat::Txt => {
            let mut options = DiagramOptions::default();
            if let Some(last) = &last_move {
                options = options.with_last_move(last.mv).with_removed(last.removed_cells());
            }
            diagram(&position, &options)
        }
    };
    emit(args.output.as_deref(), text.as_bytes(), args.force)
}

/// The position to draw, its last move, and the caption lines beyond the
/// status (the players and the ply of a record).
fn resolve(args: &Args) -> Result<(Position, Option<LastMove>, Vec<String>)> {
    let source = args.source.trim();
    let path = Path::new(&args.source);
    let text = match source.parse::<Position>() {
        Ok(position) => return position_only(position, args),
        Err(error) if !path.exists() && args.source != "-" && source.contains(' ') && source.contains('/') => {
            return Err(error).with_context(|| format!("{source:?} is not a position string (nor a file)"));
        }
        Err(_) => read_text(path)?,
    };
    // A file may hold a position string too.
    if let Ok(position) = text.trim().parse::<Position>() {
        return position_only(position, args);
    }
    let (record, game) = parse_game(&text, path, None)?;
    let ply = checked_ply(args.ply, &game).with_context(|| format!("{}", path.display()))?;
    let mut caption = Vec::new();
    let players: Vec<String> =
        ["White", "Black"].iter().filter_map(|tag| record.tag(tag).map(|name| format!("{tag}: {name}"))).collect();
    if !players.is_empty() {
        caption.push(players.join(" \u{b7} "));
    }
    let last_move = ply.checked_sub(1).map(|i| {
        let played = game.plies()[i];
        LastMove::new(&game.positions()[i], played.mv, played.removed)
    });
    match &last_move {
        Some(last) => {
            let mut line = format!("after ply {ply} (move {}): {}", ply.div_ceil(2), last.mv);
            if !last.removed.is_empty() {
                let cells: Vec<String> = last.removed.iter().map(|(cell, _)| cell.to_string()).collect();
                let _ = write!(line, ", removing {}", cells.join(" "));
            }
            caption.push(line);
        }
        None => caption.push("the start of the game".to_string()),
    }
    Ok((game.positions()[ply], last_move, caption))
}

/// A position string to draw: no last move, no caption beyond the status.
fn position_only(position: Position, args: &Args) -> Result<(Position, Option<LastMove>, Vec<String>)> {
    if args.ply.is_some() {
        bail!("--ply needs a game record, not a position string");
    }
    Ok((position, None, Vec::new()))
}
