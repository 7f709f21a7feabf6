//! Moves as text: `E3`, `C3E3` (or `C3-E3`, `c3e3`), `PASS`.

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;
use crate::moves::Move;

/// Text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a move: {reason}")]
pub struct MoveParseError {
    text: String,
    reason: &'static str,
}

impl MoveParseError {
    fn new(text: &str, reason: &'static str) -> MoveParseError {
        // Quote at most a short prefix: the text may be anything.
        MoveParseError { text: text.chars().take(24).collect(), reason }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("PASS"),
        }
    }
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(text: &str) -> Result<Move, MoveParseError> {
        const EXPECTED: &str = "expected a cell (E3), two cells (C3E3 or C3-E3) or PASS";
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let bytes = text.as_bytes();
        let cell_at = |at: usize| {
            Cell::from_ascii(&bytes[at..]).ok_or_else(|| {
                MoveParseError::new(
                    text,
                    "a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells",
                )
            })
        };
        match bytes.len() {
            2 => Ok(Move::Place(cell_at(0)?)),
            4 => Ok(Move::Jump { from: cell_at(0)?, to: cell_at(2)? }),
            5 if bytes[2] == b'-' => Ok(Move::Jump { from: cell_at(0)?, to: cell_at(3)? }),
            _ => Err(MoveParseError::new(text, EXPECTED)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_spelling_parses() {
        let jump = Move::Jump { from: "C3".parse().unwrap(), to: "E3".parse().unwrap() };
        for text in ["C3E3", "c3e3", "C3-E3", "c3-E3"] {
            assert_eq!(text.parse::<Move>().unwrap(), jump, "{text}");
        }
        assert_eq!("PASS".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!("pass".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!("e3".parse::<Move>().unwrap().to_string(), "E3");
    }

    #[test]
    fn malformed_moves_are_errors_that_say_why() {
        for text in ["", "E", "E3E", "C3+E3", "A5", "Z9Z9", "E3E3E3", "PAS", "ÉÉÉ"] {
            let error = text.parse::<Move>().unwrap_err();
            assert!(error.to_string().contains("is not a move"), "{text}: {error}");
        }
        let error = "A5".parse::<Move>().unwrap_err().to_string();
        assert!(error.contains("column letter"), "{error}");
    }
}
