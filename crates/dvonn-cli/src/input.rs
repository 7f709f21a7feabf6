//! Reading the files, standard input and input lines the subcommands take,
//! with a size limit and a clear message for anything that is not text, and
//! reading the games in them. BoardSpace SGF files are decoded in the
//! charset they declare (Latin-1 by default), every other file is UTF-8.

use std::io::{self, BufRead, Read};
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use dvonn_core::{Game, Position};
use dvonn_notation::{Format, GameRecord};
use dvonn_notation::{ReadError, read_any, sgf};

/// The largest input any subcommand reads: game records and positions are
/// a few kilobytes; this leaves room for long annotated files while keeping
/// memory bounded.
pub(crate) const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The text of `path` (`-`: standard input), refusing files larger than
/// [`MAX_INPUT_BYTES`]. A BoardSpace SGF file (as [`Format::detect`] tells)
/// is decoded by [`sgf::decode`]; any other file must be UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let name = path.display();
    let too_large = || anyhow!("{name} is larger than {} MiB: not a DVONN game record", MAX_INPUT_BYTES >> 20);
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {name}"))?;
        let metadata = file.metadata().with_context(|| format!("cannot read {name}"))?;
        if metadata.is_dir() {
            bail!("{name} is a directory, not a file");
        }
        // A regular file's size is known before reading it.
        if metadata.is_file() && metadata.len() > MAX_INPUT_BYTES {
            return Err(too_large());
        }
        file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).with_context(|| format!("cannot read {name}"))?;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    // Only ASCII bytes decide the format, so a lossy reading tells it.
    if Format::detect(&String::from_utf8_lossy(&bytes)) == Some(Format::Sgf) {
        return match sgf::decode(&bytes) {
            Ok(text) => Ok(text.into_owned()),
            Err(error) => {
                Err(ReadError::Parse { format: Format::Sgf, error }).with_context(|| format!("cannot read {name}"))
            }
        };
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(error) => {
            let at = error.utf8_error().valid_up_to();
            bail!("{name} is not a text file (byte {at} is not UTF-8)")
        }
    }
}

/// Reads the next line of `input` without its line ending (`\n`, or `\r\n`:
/// trailing white space is left for the caller to trim); `None` at the end
/// of the input. A last line without a line ending counts. A line longer
/// than `max_bytes` or that is not UTF-8 is an error of kind
/// [`io::ErrorKind::InvalidData`].
pub(crate) fn read_bounded_line(input: &mut impl BufRead, max_bytes: usize) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], end + 1),
            None => (buffer, buffer.len()),
        };
        let newline = done > chunk.len();
        if line.len() + chunk.len() > max_bytes {
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("a line longer than {max_bytes} bytes")));
        }
        line.extend_from_slice(chunk);
        input.consume(done);
        if newline {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a line that is not UTF-8 text"))
}

/// The start positions of an openings file: one position string per line,
/// blank lines and `#` comments skipped; each must be a game not yet over.
pub(crate) fn read_openings(path: &Path) -> Result<Vec<Position>> {
    let text = crate::input::read_text(path)?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position: Position =
            line.parse().with_context(|| format!("{} line {}: not a position string", path.display(), number + 1))?;
        if position.is_game_over() {
            bail!("{} line {}: the game is already over in {line}", path.display(), number + 1);
        }
        positions.push(position);
    }
    if positions.is_empty() {
        bail!("{} holds no position", path.display());
    }
    Ok(positions)
}

/// Reads the game in `path` (`-`: standard input) in `format` (`None`:
/// detected) and replays it, checking every move and the recorded score.
/// Errors name the file, and the move for an illegal one.
pub(crate) fn read_game(path: &Path, format: Option<Format>) -> Result<(GameRecord, Game)> {
    parse_game(&read_text(path)?, path, format)
}

/// [`read_game`] for the `text` already read from `path`.
pub(crate) fn parse_game(text: &str, path: &Path, format: Option<Format>) -> Result<(GameRecord, Game)> {
    let name = path.display();
    if text.trim().is_empty() {
        bail!("{name} is empty: expected a DVONN game");
    }
    let record = read_any(text, format).with_context(|| format!("cannot read {name}"))?;
    let game = record.replay().with_context(|| format!("{name}"))?;
    record.check_result(&game).with_context(|| format!("{name}"))?;
    Ok((record, game))
}
