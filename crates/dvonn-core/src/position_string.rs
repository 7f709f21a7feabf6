//! Position strings ([NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#position-strings)):
//! `<board> <side> <phase>`.

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;
use crate::color::Color;
use crate::position::{Phase, Position};
use crate::setup::{Setup, SetupError};
use crate::stack::{Stack, TOTAL_PIECES};

/// The field of a position string an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The string as a whole (the number of fields).
    Whole,
    /// The first field, the stacks.
    Board,
    /// The second field, `w` or `b`.
    Side,
    /// The third field, `p` or `m`.
    Phase,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Whole => "position string",
            Field::Board => "board",
            Field::Side => "side to move",
            Field::Phase => "phase",
        })
    }
}

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// Not three fields separated by single spaces.
    #[error("expected 3 fields separated by single spaces (<board> <side> <phase>), found {0}")]
    FieldCount(usize),
    /// An empty field (two spaces in a row, or a space at either end).
    #[error("empty field (fields are separated by exactly one space)")]
    EmptyField,
    /// Not five rows separated by `/`.
    #[error("expected 5 rows separated by '/', found {0}")]
    RowCount(usize),
    /// A row with the wrong number of cells.
    #[error("row {row} has {found} cells; it must have {expected} ({first}..{last})")]
    RowLength {
        /// The row digit, 1..=5.
        row: u8,
        /// Tokens found.
        found: usize,
        /// Tokens the row needs.
        expected: usize,
        /// Its first cell.
        first: Cell,
        /// Its last cell.
        last: Cell,
    },
    /// A character that starts no token.
    #[error("unknown token {0:?} (expected '.', 'D', or 'W'/'B' with an optional height and '*')")]
    UnknownToken(char),
    /// A lone DVONN piece written with a height or `*`.
    #[error("a lone DVONN piece is written 'D' alone, without height or '*'")]
    DvonnWithExtras,
    /// A height of 0 or more than 49.
    #[error("height {0} is impossible (heights run from 1 to 49)")]
    BadHeight(String),
    /// A height written with a leading zero.
    #[error("height {0:?} has a leading zero")]
    LeadingZero(String),
    /// A DVONN piece under a coloured top in a stack of one.
    #[error("a stack of one piece cannot hold a DVONN piece under its top")]
    DvonnUnderSinglePiece,
    /// Neither `w` nor `b`.
    #[error("the side to move is 'w' or 'b', not {0:?}")]
    BadSide(String),
    /// Neither `p` nor `m`.
    #[error("the phase is 'p' (placement) or 'm' (movement), not {0:?}")]
    BadPhase(String),
    /// A position no game can reach.
    #[error("{0}")]
    Unreachable(SetupError),
}

/// A position string that could not be read: what is wrong, in which field,
/// at which column (1-based, counted in characters).
///
/// ```
/// use dvonn_core::Position;
/// let error = "........./........../.........../........../........ w p".parse::<Position>().unwrap_err();
/// assert_eq!(error.to_string(), "board, column 53: row 1 has 8 cells; it must have 9 (A1..I1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}, column {column}: {kind}")]
#[non_exhaustive]
pub struct PositionParseError {
    /// The field the error is in.
    pub field: Field,
    /// The 1-based column the error starts at.
    pub column: usize,
    /// What is wrong.
    pub kind: PositionErrorKind,
}

/// Cells per row, from row 5 (the first in the string) down to row 1.
const ROWS_TOP_DOWN: [i32; 5] = [4, 3, 2, 1, 0];

fn row_cells(y: i32) -> impl Iterator<Item = Cell> {
    Cell::ALL.into_iter().filter(move |c| c.y() == y)
}

/// Reads a position string into a checked position.
pub(crate) fn parse_position(text: &str) -> Result<Position, PositionParseError> {
    let error = |field, column, kind| PositionParseError { field, column, kind };
    if let Some((at, c)) = text.char_indices().find(|(_, c)| !c.is_ascii()) {
        let column = text[..at].chars().count() + 1;
        return Err(error(Field::Whole, column, PositionErrorKind::UnknownToken(c)));
    }
    // From here on the text is ASCII: byte offsets are columns.
    let fields: Vec<(usize, &str)> = split_with_offsets(text, b' ');
    let names = [Field::Board, Field::Side, Field::Phase];
    if let Some((i, &(at, _))) = fields.iter().enumerate().find(|(_, (_, field))| field.is_empty()) {
        let name = names.get(i).copied().unwrap_or(Field::Whole);
        return Err(error(name, at + 1, PositionErrorKind::EmptyField));
    }
    if fields.len() != 3 {
        let column = fields.get(3).map_or(text.len() + 1, |(at, _)| at + 1);
        return Err(error(Field::Whole, column, PositionErrorKind::FieldCount(fields.len())));
    }
    let (board_at, board) = fields[0];
    let (side_at, side) = fields[1];
    let (phase_at, phase) = fields[2];
    let (stacks, columns) = parse_board(board, board_at)?;
    let side = match side {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(error(Field::Side, side_at + 1, PositionErrorKind::BadSide(other.to_string())));
        }
    };
    let phase = match phase {
        "p" => Phase::Placement,
        "m" => Phase::Movement,
        other => {
            return Err(error(Field::Phase, phase_at + 1, PositionErrorKind::BadPhase(other.to_string())));
        }
    };
    let setup = Setup { stacks, side, phase };
    Position::from_setup(&setup).map_err(|reason| {
        let (field, column) = match reason {
            SetupError::StackInPlacement { cell } | SetupError::Disconnected { cell } => {
                (Field::Board, columns[cell.index()])
            }
            SetupError::PlacementSide { .. } => (Field::Side, side_at + 1),
            _ => (Field::Board, board_at + 1),
        };
        error(field, column, PositionErrorKind::Unreachable(reason))
    })
}

/// Splits on `separator`, keeping each part's byte offset.
fn split_with_offsets(text: &str, separator: u8) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (at, byte) in text.bytes().enumerate() {
        if byte == separator {
            parts.push((start, &text[start..at]));
            start = at + 1;
        }
    }
    parts.push((start, &text[start..]));
    parts
}

/// The stacks of the board field, and the column of each cell's token.
fn parse_board(board: &str, board_at: usize) -> Result<([Option<Stack>; 49], [usize; 49]), PositionParseError> {
    let error = |column, kind| PositionParseError { field: Field::Board, column, kind };
    let rows = split_with_offsets(board, b'/');
    if rows.len() != 5 {
        let column = rows.get(5).map_or(board_at + board.len() + 1, |(at, _)| board_at + at + 1);
        return Err(error(column, PositionErrorKind::RowCount(rows.len())));
    }
    let mut stacks = [None; 49];
    let mut columns = [0; 49];
    let mut total_pieces = 0u32;
    for (&(row_at, row), y) in rows.iter().zip(ROWS_TOP_DOWN) {
        let cells: Vec<Cell> = row_cells(y).collect();
        let tokens = tokenize_row(row, board_at + row_at)?;
        if tokens.len() != cells.len() {
            let column = tokens.get(cells.len()).map_or(board_at + row_at + row.len() + 1, |(c, _)| *c);
            return Err(error(
                column,
                PositionErrorKind::RowLength {
                    row: y as u8 + 1,
                    found: tokens.len(),
                    expected: cells.len(),
                    first: cells[0],
                    last: cells[cells.len() - 1],
                },
            ));
        }
        for (cell, (column, stack)) in cells.into_iter().zip(tokens) {
            if let Some(stack) = stack {
                total_pieces += u32::from(stack.height());
                if total_pieces > u32::from(TOTAL_PIECES) {
                    return Err(error(
                        column,
                        PositionErrorKind::Unreachable(SetupError::TooManyPieces { total: total_pieces }),
                    ));
                }
            }
            stacks[cell.index()] = stack;
            columns[cell.index()] = column;
        }
    }
    Ok((stacks, columns))
}

/// The tokens of one row: (1-based column, stack or `None` for `.`).
fn tokenize_row(row: &str, row_at: usize) -> Result<Vec<(usize, Option<Stack>)>, PositionParseError> {
    let error = |column, kind| PositionParseError { field: Field::Board, column, kind };
    let bytes = row.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let column = row_at + i + 1;
        let owner = match bytes[i] {
            b'.' => {
                tokens.push((column, None));
                i += 1;
                continue;
            }
            b'D' => {
                if bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit() || *b == b'*') {
                    return Err(error(column, PositionErrorKind::DvonnWithExtras));
                }
                tokens.push((column, Some(Stack::LONE_DVONN)));
                i += 1;
                continue;
            }
            b'W' => Color::White,
            b'B' => Color::Black,
            other => {
                return Err(error(column, PositionErrorKind::UnknownToken(other as char)));
            }
        };
        i += 1;
        let digits_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &row[digits_start..i];
        let height = match digits {
            "" => 1,
            _ if digits.starts_with('0') && digits != "0" => {
                return Err(error(column, PositionErrorKind::LeadingZero(digits.to_string())));
            }
            _ => match digits.parse::<u8>() {
                Ok(h @ 1..=TOTAL_PIECES) => h,
                _ => {
                    return Err(error(column, PositionErrorKind::BadHeight(digits.chars().take(12).collect())));
                }
            },
        };
        let has_dvonn = bytes.get(i) == Some(&b'*');
        if has_dvonn {
            i += 1;
        }
        let stack = Stack::new(height, Some(owner), has_dvonn)
            .ok_or_else(|| error(column, PositionErrorKind::DvonnUnderSinglePiece))?;
        tokens.push((column, Some(stack)));
    }
    Ok(tokens)
}

/// The canonical token of a stack in a position string: `D`, `W`, `B3`,
/// `W2*`.
///
/// ```
/// use dvonn_core::{Color, Stack};
/// assert_eq!(Stack::new(3, Some(Color::White), true).unwrap().to_string(), "W3*");
/// assert_eq!(Stack::LONE_DVONN.to_string(), "D");
/// ```
impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(owner) = self.owner() else {
            return f.write_str("D");
        };
        f.write_str(if owner == Color::White { "W" } else { "B" })?;
        if self.height() > 1 {
            write!(f, "{}", self.height())?;
        }
        if self.has_dvonn() {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// The canonical position string.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, y) in ROWS_TOP_DOWN.into_iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for cell in row_cells(y) {
                match self.stacks[cell.index()] {
                    Some(stack) => write!(f, "{stack}")?,
                    None => f.write_str(".")?,
                }
            }
        }
        write!(f, " {} {}", self.side.letter(), self.phase.letter())
    }
}

/// The canonical position string
/// ([NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#canonical-form)).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

/// Reads a position string, checking that a game can reach it.
impl FromStr for Position {
    type Err = PositionParseError;

    fn from_str(text: &str) -> Result<Position, PositionParseError> {
        parse_position(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> String {
        text.parse::<Position>().unwrap_err().to_string()
    }

    #[test]
    fn the_examples_of_the_notation_round_trip() {
        for text in [
            "........./........../.........../........../......... w p",
            "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m",
            "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m",
        ] {
            let position: Position = text.parse().unwrap();
            assert_eq!(position.to_string(), text);
        }
    }

    #[test]
    fn an_explicit_height_of_one_is_read_and_written_canonically() {
        let position: Position = "W1DWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
        assert_eq!(position.to_string(), "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m");
    }

    #[test]
    fn errors_name_the_field_and_column() {
        let full = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW";
        assert_eq!(
            error_of(&format!("{full} w")),
            "position string, column 56: expected 3 fields separated by single spaces (<board> <side> <phase>), found 2"
        );
        assert_eq!(
            error_of(&format!("{full} w m x")),
            "position string, column 59: expected 3 fields separated by single spaces (<board> <side> <phase>), found 4"
        );
        assert_eq!(
            error_of(&format!("{full}  w m")),
            "side to move, column 55: empty field (fields are separated by exactly one space)"
        );
        assert_eq!(
            error_of(&format!("{full} x m")),
            "side to move, column 55: the side to move is 'w' or 'b', not \"x\""
        );
        assert_eq!(
            error_of(&format!("{full} w q")),
            "phase, column 57: the phase is 'p' (placement) or 'm' (movement), not \"q\""
        );
        assert_eq!(
            error_of("WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB w m"),
            "board, column 44: expected 5 rows separated by '/', found 4"
        );
        assert_eq!(
            error_of("WDWWWWWWB/BWBWWWBDWBW/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m"),
            "board, column 21: row 4 has 11 cells; it must have 10 (B4..K4)"
        );
        assert_eq!(
            error_of("WDWWXWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m"),
            "board, column 5: unknown token 'X' (expected '.', 'D', or 'W'/'B' with an optional height and '*')"
        );
        assert_eq!(
            error_of("WDWWW0WWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m"),
            "board, column 5: height 0 is impossible (heights run from 1 to 49)"
        );
        assert_eq!(
            error_of("WDWWW50WWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m"),
            "board, column 5: height 50 is impossible (heights run from 1 to 49)"
        );
        assert_eq!(
            error_of("D2........./........../.........../........../......... w m"),
            "board, column 1: a lone DVONN piece is written 'D' alone, without height or '*'"
        );
        assert_eq!(
            error_of("W*......../........../.........../........../......... w m"),
            "board, column 1: a stack of one piece cannot hold a DVONN piece under its top"
        );
        assert_eq!(
            error_of("é"),
            "position string, column 1: unknown token 'é' (expected '.', 'D', or 'W'/'B' with an optional height and '*')"
        );
    }

    #[test]
    fn unreachable_positions_are_rejected_with_the_offending_cell() {
        let rest = "/........../.........../........../.........";
        let cases = [
            (
                "W2D.......",
                "w p",
                "board, column 1: a stack on C5 during placement: placed pieces stand alone until the movement phase",
            ),
            (
                "W........",
                "b p",
                "board, column 1: 0 DVONN, 1 white and 0 black pieces cannot be on the board during placement: after 1 placements there are 1 DVONN, 0 white and 0 black",
            ),
            ("D........", "w p", "side to move, column 55: after 1 placements it is Black to place"),
            ("W........", "w m", "board, column 1: no DVONN piece on the board: the 3 DVONN pieces are never removed"),
            (
                "W.D......",
                "w m",
                "board, column 1: the stack on C5 is not connected to a DVONN piece, so it would have been removed",
            ),
            ("DDDD.....", "w m", "board, column 1: 4 cells hold DVONN pieces; the game has only 3"),
            ("W40W10D......", "w m", "board, column 4: the stacks hold 50 pieces; the game has only 49"),
        ];
        assert_eq!(
            error_of("WWWWWWWWW/WWWWWWWWWW/WWWWWD...../........../......... w m"),
            "board, column 1: 24 stacks have a White top, but White has only 23 pieces"
        );
        for (row5, tail, expected) in cases {
            assert_eq!(error_of(&format!("{row5}{rest} {tail}")), expected, "{row5}");
        }
    }
}
