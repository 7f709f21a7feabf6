//! How a game ends: [`Outcome`], and its text (the result of the game
//! records of NOTATION.md).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::Color;
use crate::stack::TOTAL_PIECES;

/// How a game ended, or that it has not: the one result of a game in the
/// workspace, from the rules ([`Position::outcome`](crate::Position::outcome))
/// to the game records (the `Result` tag) and the game driver.
///
/// Its text is the result of a game record: `24-19` (the piece counts,
/// White's first), `*` (unfinished), `resign-w` and `resign-b` (White or
/// Black resigned).
///
/// ```
/// use dvonn_core::{Color, Outcome};
/// let score: Outcome = "24-19".parse().unwrap();
/// assert_eq!(score, Outcome::Score { white: 24, black: 19 });
/// assert_eq!(score.winner(), Some(Color::White));
/// assert_eq!("resign-w".parse::<Outcome>().unwrap(), Outcome::Resigned(Color::White));
/// assert_eq!(Outcome::Resigned(Color::White).winner(), Some(Color::Black));
/// assert_eq!(Outcome::Unfinished.to_string(), "*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Played to the end: the pieces each player owns (`24-19`); the
    /// player who owns more wins.
    Score {
        /// White's pieces.
        white: u32,
        /// Black's pieces.
        black: u32,
    },
    /// The player named resigned, or lost by forfeit (on time, by an
    /// illegal move), before the end (`resign-w`: White resigned).
    Resigned(Color),
    /// A game that goes on, or whose result is unknown (`*`).
    Unfinished,
}

impl Outcome {
    /// The winner: the player who owns more pieces at the end, or the
    /// opponent of the one who resigned. `None` for a draw and for a game
    /// that is not over.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Score { white, black } => match white.cmp(&black) {
                Ordering::Greater => Some(Color::White),
                Ordering::Less => Some(Color::Black),
                Ordering::Equal => None,
            },
            Outcome::Resigned(loser) => Some(!loser),
            Outcome::Unfinished => None,
        }
    }

    /// Whether the game is over: played to the end, or resigned.
    pub fn is_over(self) -> bool {
        self != Outcome::Unfinished
    }

    /// Whether the game was played to the end with as many pieces each.
    pub fn is_draw(self) -> bool {
        matches!(self, Outcome::Score { white, black } if white == black)
    }

    /// White's pieces minus Black's, for a game played to the end.
    pub fn white_margin(self) -> Option<i64> {
        match self {
            Outcome::Score { white, black } => Some(i64::from(white) - i64::from(black)),
            Outcome::Resigned(_) | Outcome::Unfinished => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Score { white, black } => write!(f, "{white}-{black}"),
            Outcome::Unfinished => f.write_str("*"),
            Outcome::Resigned(Color::White) => f.write_str("resign-w"),
            Outcome::Resigned(Color::Black) => f.write_str("resign-b"),
        }
    }
}

/// Text that is not a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a result: expected piece counts W-B (like 24-19, at most 49 pieces in all), * (unfinished), resign-w or resign-b"
)]
pub struct OutcomeParseError {
    text: String,
}

impl FromStr for Outcome {
    type Err = OutcomeParseError;

    /// Reads a result: `W-B` (one or two digits each, at most 49 pieces in
    /// all), `*`, `resign-w` or `resign-b` (in any case).
    fn from_str(text: &str) -> Result<Outcome, OutcomeParseError> {
        let error = || OutcomeParseError { text: text.chars().take(24).collect() };
        if text == "*" {
            return Ok(Outcome::Unfinished);
        }
        if text.eq_ignore_ascii_case("resign-w") {
            return Ok(Outcome::Resigned(Color::White));
        }
        if text.eq_ignore_ascii_case("resign-b") {
            return Ok(Outcome::Resigned(Color::Black));
        }
        let (white, black) = text.split_once('-').ok_or_else(error)?;
        let count = |digits: &str| -> Option<u32> {
            let ok = (1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
            if ok { digits.parse().ok() } else { None }
        };
        match (count(white), count(black)) {
            (Some(white), Some(black)) if white + black <= u32::from(TOTAL_PIECES) => {
                Ok(Outcome::Score { white, black })
            }
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_and_write() {
        for text in ["24-19", "0-0", "*", "resign-w", "resign-b", "49-0"] {
            assert_eq!(text.parse::<Outcome>().unwrap().to_string(), text);
        }
        for text in ["", "24", "24-", "-19", "25-25", "100-1", "24-19-1", "resign", "1+1", " 1-1"] {
            let message = text.parse::<Outcome>().unwrap_err().to_string();
            assert!(message.contains("is not a result"), "{text}: {message}");
        }
    }

    #[test]
    fn winners_draws_and_margins() {
        let draw = Outcome::Score { white: 12, black: 12 };
        assert_eq!((draw.winner(), draw.is_draw(), draw.white_margin()), (None, true, Some(0)));
        let win = Outcome::Score { white: 10, black: 13 };
        assert_eq!((win.winner(), win.is_draw(), win.white_margin()), (Some(Color::Black), false, Some(-3)));
        let resigned = Outcome::Resigned(Color::Black);
        assert_eq!((resigned.winner(), resigned.is_over(), resigned.white_margin()), (Some(Color::White), true, None));
        assert_eq!((Outcome::Unfinished.winner(), Outcome::Unfinished.is_over()), (None, false));
    }
}
