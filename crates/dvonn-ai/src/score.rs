//! [`Score`]: the value of a position for the side to move.

use std::fmt;
use std::ops::Neg;

/// The value of a position for the player to move, in hundredths of a piece
/// of final margin (his pieces minus his opponent's at the end of the game).
///
/// A proven score is the exact final margin with best play; a heuristic one
/// is the evaluation's estimate of it.
///
/// ```
/// use dvonn_ai::Score;
/// assert_eq!(Score::from_pieces(3).to_string(), "3.00");
/// assert_eq!((-Score::from_centipieces(125)).to_string(), "-1.25");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// Hundredths of a piece per piece.
    pub const SCALE: i32 = 100;
    /// Above every score a position can have (a search bound).
    pub const INFINITE: Score = Score(30_000);
    /// The draw score.
    pub const ZERO: Score = Score(0);

    /// A final margin of `margin` pieces.
    pub const fn from_pieces(margin: i32) -> Score {
        Score(margin * Score::SCALE)
    }

    /// A score of `centipieces` hundredths of a piece.
    pub const fn from_centipieces(centipieces: i32) -> Score {
        Score(centipieces)
    }

    /// The score in hundredths of a piece.
    pub const fn centipieces(self) -> i32 {
        self.0
    }

    /// The score in pieces.
    pub fn pieces(self) -> f64 {
        f64::from(self.0) / f64::from(Score::SCALE)
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// Pieces with two decimals, as `analyze` prints it.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}
