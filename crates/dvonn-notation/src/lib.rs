//! DVONN games as text: the game record of
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md), and the records
//! of other programs (Little Golem, BoardSpace, CodeCup), read into and
//! written from one [`GameRecord`]. The rules, and the move text and
//! position strings they parse and print, are in `dvonn-core`.
//!
//! - [`record`]: the game record, [`GameRecord`], replayed by
//!   [`GameRecord::replay`] into a [`dvonn_core::Game`] (and made from one
//!   by `GameRecord::from`); its result is a [`dvonn_core::Outcome`].
//! - [`little_golem`], [`sgf`], [`codecup`]: the other formats.
//! - [`ParseError`]: what is wrong with a text and where, for every format.
//! - [`diagram`]: the board as a text diagram for people, and [`svg`] as
//!   an SVG picture.
//!
//! [`read_any`] reads any of them into a [`GameRecord`]
//! (telling the format by [`Format::detect`] when none is given), and
//! [`write()`] writes a record in the formats that can be written.
//!
//! ```
//! use dvonn_notation::{Format, read_any, write};
//! let record = read_any("Event [Friendly]\n1. g2 c1 2. f5 d1", None).unwrap();
//! assert_eq!(record.tag("Event"), Some("Friendly"));
//! assert_eq!(write(&record, Format::CodeCup).unwrap(), "Start\nG2\nC1\nF5\nD1\n");
//! let error = read_any("[White \"x\"]\n1. E3 Q9", None).unwrap_err();
//! assert_eq!(error.to_string(), "game record: line 2, column 7: move 1 (ply 1): \"Q9\" is not a move: a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells");
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

use dvonn_core::Outcome;

use crate::text::{is_space, strip_bom};

pub mod codecup;
pub mod diagram;
mod error;
pub mod little_golem;
pub mod record;
mod replay;
mod scan;
pub mod sgf;
pub mod svg;
mod text;

pub use error::{ParseError, ParseErrorKind};
pub use record::{Comment, GameRecord};
pub use replay::{ReplayError, ResultMismatch};

/// A text format of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// The game record of
    /// [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#game-records)
    /// ([`record`]).
    Record,
    /// A Little Golem transcript ([`little_golem`]).
    LittleGolem,
    /// A BoardSpace SGF record ([`sgf`]; read only).
    Sgf,
    /// A CodeCup log ([`codecup`]).
    CodeCup,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Record, Format::LittleGolem, Format::Sgf, Format::CodeCup];

    /// What the format is called in messages: `game record`, `Little Golem
    /// transcript`, `BoardSpace SGF record`, `CodeCup log`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Record => "game record",
            Format::LittleGolem => "Little Golem transcript",
            Format::Sgf => "BoardSpace SGF record",
            Format::CodeCup => "CodeCup log",
        }
    }

    /// The short name [`FromStr`] reads: `record`, `lg`, `sgf`, `codecup`.
    pub const fn short_name(self) -> &'static str {
        match self {
            Format::Record => "record",
            Format::LittleGolem => "lg",
            Format::Sgf => "sgf",
            Format::CodeCup => "codecup",
        }
    }

    /// Whether [`write()`] can write this format (all but SGF).
    pub const fn is_writable(self) -> bool {
        !matches!(self, Format::Sgf)
    }

    /// Tells the format of `text` from its beginning, or `None` when it
    /// looks like none of them. The heuristics, in order, on the text
    /// without a leading byte-order mark and white space:
    ///
    /// 1. empty: `None`;
    /// 2. `(` then `;` (white space allowed between): [`Format::Sgf`];
    /// 3. `[` (a tag) or `{` (a comment): [`Format::Record`];
    /// 4. `#` (an arbiter comment), or a first line that is `Start`:
    ///    [`Format::CodeCup`];
    /// 5. a first word followed by `[` (`Event [...]`): [`Format::LittleGolem`];
    /// 6. a first word `N.` (a move number): [`Format::LittleGolem`] when the
    ///    next word is a move in lower case (Little Golem's style),
    ///    [`Format::Record`] otherwise;
    /// 7. a first word that is a move: [`Format::CodeCup`] when the first
    ///    line has a comma (the codecup.nl move list) or holds this one move
    ///    only (one move per line), [`Format::Record`] otherwise;
    /// 8. anything else: `None`.
    ///
    /// Where two formats read the same text (a bare list of moves), either
    /// answer reads the same moves.
    ///
    /// ```
    /// use dvonn_notation::Format;
    /// assert_eq!(Format::detect("[Event \"x\"]\n1. E3"), Some(Format::Record));
    /// assert_eq!(Format::detect("Event [x] 1. e3"), Some(Format::LittleGolem));
    /// assert_eq!(Format::detect("1. e3 d3"), Some(Format::LittleGolem));
    /// assert_eq!(Format::detect("(;GM[Dvonn])"), Some(Format::Sgf));
    /// assert_eq!(Format::detect("Start\nE3\n"), Some(Format::CodeCup));
    /// assert_eq!(Format::detect("hello"), None);
    /// ```
    pub fn detect(text: &str) -> Option<Format> {
        let text = strip_bom(text).trim_start_matches(|c: char| c.is_ascii() && is_space(c as u8));
        let first = *text.as_bytes().first()?;
        match first {
            b'(' => {
                let rest = text[1..].trim_start_matches(|c: char| c.is_ascii() && is_space(c as u8));
                return rest.starts_with(';').then_some(Format::Sgf);
            }
            b'[' | b'{' => return Some(Format::Record),
            b'#' => return Some(Format::CodeCup),
            _ => {}
        }
        let first_line = text.split('\n').next().unwrap_or("").trim();
        if first_line.eq_ignore_ascii_case("start") {
            return Some(Format::CodeCup);
        }
        let word_end = text.find(|c: char| (c.is_ascii() && is_space(c as u8)) || c == '[' || c == ',');
        let (word, rest) = text.split_at(word_end.unwrap_or(text.len()));
        let after = rest.trim_start_matches(|c: char| c.is_ascii() && is_space(c as u8));
        if !word.is_empty() && after.starts_with('[') {
            return Some(Format::LittleGolem);
        }
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && word.len() == digits + 1 && word.ends_with('.') {
            let next = after.split(|c: char| c.is_ascii() && is_space(c as u8)).next().unwrap_or("");
            let lower = next.parse::<dvonn_core::Move>().is_ok() && next.bytes().any(|b| b.is_ascii_lowercase());
            return Some(if lower { Format::LittleGolem } else { Format::Record });
        }
        if word.parse::<dvonn_core::Move>().is_ok() {
            let one_per_line = first_line.split_ascii_whitespace().count() == 1;
            return Some(if first_line.contains(',') || one_per_line { Format::CodeCup } else { Format::Record });
        }
        None
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {name:?}: expected record, lg (Little Golem), sgf (BoardSpace) or codecup")]
pub struct FormatParseError {
    name: String,
}

impl FromStr for Format {
    type Err = FormatParseError;

    /// Reads a format name: `record`, `lg` (or `littlegolem`,
    /// `little-golem`), `sgf` (or `boardspace`), `codecup`; in any case.
    fn from_str(text: &str) -> Result<Format, FormatParseError> {
        match text.to_ascii_lowercase().as_str() {
            "record" | "dvonn" => Ok(Format::Record),
            "lg" | "littlegolem" | "little-golem" => Ok(Format::LittleGolem),
            "sgf" | "boardspace" => Ok(Format::Sgf),
            "codecup" | "cc" => Ok(Format::CodeCup),
            _ => Err(FormatParseError { name: text::excerpt(text) }),
        }
    }
}

/// A text that could not be read as a game, with the format it was read as.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// No format was given and the text looks like none.
    #[error(
        "cannot tell the format of the text: it is not a game record, a Little Golem transcript, a BoardSpace SGF record or a CodeCup log (see Format::detect)"
    )]
    UnknownFormat,
    /// An error in the text, read in `format`.
    #[error("{format}: {error}")]
    Parse {
        /// The format the text was read as.
        format: Format,
        /// What is wrong, and where.
        error: ParseError,
    },
}

/// A record that cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The format cannot be written at all.
    #[error("a {0} cannot be written, only read")]
    NotWritable(Format),
    /// The format only knows games from the empty board.
    #[error("a {format} starts from the empty board, not {start}")]
    NonStandardStart {
        /// The format.
        format: Format,
        /// The record's start position (a position string).
        start: String,
    },
    /// Something in the record the format has no way to say.
    #[error("a {format} cannot hold this game: {what}")]
    Unrepresentable {
        /// The format.
        format: Format,
        /// What cannot be written.
        what: String,
    },
}

/// Reads `text` as a game in `format`, or in the format
/// [`Format::detect`] tells when `format` is `None`.
pub fn read_any(text: &str, format: Option<Format>) -> Result<GameRecord, ReadError> {
    let format = format.or_else(|| Format::detect(text)).ok_or(ReadError::UnknownFormat)?;
    let read = match format {
        Format::Record => GameRecord::parse(text),
        Format::LittleGolem => little_golem::read(text),
        Format::Sgf => sgf::read(text),
        Format::CodeCup => codecup::read(text),
    };
    read.map_err(|error| ReadError::Parse { format, error })
}

/// Writes `record` in `format` (the game record is its `Display`).
pub fn write(record: &GameRecord, format: Format) -> Result<String, WriteError> {
    match format {
        Format::Record => Ok(record.to_string()),
        Format::LittleGolem => little_golem::write(record),
        Format::Sgf => Err(WriteError::NotWritable(Format::Sgf)),
        Format::CodeCup => codecup::write(record),
    }
}

/// Sets the result of an unfinished record to the score, when its moves
/// replay legally to the end of the game (the formats without a result).
pub(crate) fn fill_result(record: &mut GameRecord) {
    if record.result == Outcome::Unfinished
        && let Ok(game) = record.replay()
    {
        record.result = game.outcome();
    }
}

/// The crate README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_read_back() {
        for format in Format::ALL {
            assert_eq!(format.short_name().parse::<Format>().unwrap(), format);
        }
        assert_eq!(
            "xml".parse::<Format>().unwrap_err().to_string(),
            "unknown format \"xml\": expected record, lg (Little Golem), sgf (BoardSpace) or codecup"
        );
    }

    #[test]
    fn detection_heuristics() {
        let cases: &[(&str, Option<Format>)] = &[
            ("", None),
            ("  \n\t", None),
            ("\u{feff}[Event \"x\"]", Some(Format::Record)),
            ("{comment} E3", Some(Format::Record)),
            ("E3 D3 C3", Some(Format::Record)),
            ("1. E3 D3", Some(Format::Record)),
            ("1. e3 d3", Some(Format::LittleGolem)),
            ("White [x]", Some(Format::LittleGolem)),
            ("( ;GM[Dvonn])", Some(Format::Sgf)),
            ("(x)", None),
            ("# Player 1: x\nE3", Some(Format::CodeCup)),
            ("start\r\nE3", Some(Format::CodeCup)),
            ("E3\nD3\n", Some(Format::CodeCup)),
            ("D2,C1,K5", Some(Format::CodeCup)),
            ("hello world", None),
            ("\0\0\0", None),
        ];
        for (text, expected) in cases {
            assert_eq!(Format::detect(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn errors_name_the_format() {
        assert_eq!(
            read_any("Event [x", None).unwrap_err().to_string(),
            "Little Golem transcript: line 1, column 7: the value of Event has no closing ']'"
        );
        assert_eq!(
            read_any("(;GM[Go])", None).unwrap_err().to_string(),
            "BoardSpace SGF record: line 1, column 6: not a DVONN game: GM[Go]"
        );
        assert_eq!(
            read_any("Start\nE3\nE9", None).unwrap_err().to_string(),
            "CodeCup log: line 3, column 1: ply 1: \"E9\" is not a move: a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells"
        );
        assert!(read_any("hello", None).unwrap_err().to_string().starts_with("cannot tell the format"));
        assert_eq!(
            write(&GameRecord::default(), Format::Sgf).unwrap_err().to_string(),
            "a BoardSpace SGF record cannot be written, only read"
        );
    }
}
