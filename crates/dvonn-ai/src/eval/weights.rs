//! [`Weights`]: the evaluation's weight per feature, tapered by how full
//! the board is.

use dvonn_core::Cell;

use super::{FEATURES, Feature, Features};

/// Cells of the board: the number of stacks when the movement phase starts.
const CELLS: i32 = Cell::ALL.len() as i32;

/// Centipieces of estimated final margin per unit of each feature, in the
/// order of [`Feature::ALL`], as two sets: one for the full board (the start
/// of the movement phase) and one for an empty board. A position is weighed
/// by a mix of the two in proportion to its occupied cells, since what
/// decides a game changes as the board empties: mobility and DVONN control
/// early, material and safe stacks late.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// The weights with all 49 cells occupied.
    pub full_board: [i32; FEATURES],
    /// The weights as the board empties (reached at 0 occupied cells).
    pub empty_board: [i32; FEATURES],
}

impl Weights {
    /// Only material counts: the score if the game ended now. The baseline
    /// that [`Weights::TUNED`] is measured against.
    pub const PIECES_ONLY: Weights = Weights::flat([100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    /// The first, hand-set weights, before tuning.
    pub const HAND: Weights = Weights::flat([100, 0, 3, 10, -30, 40, 10, -15, -10, 40, 20]);

    /// Weights fitted to self-play games from boards reached by real
    /// placement phases (see `eval::tuning`, behind the `tuning` feature).
    pub const TUNED: Weights = Weights {
        full_board: [8, 636, 67, -415, -23, 317, 26, -76, -118, 69, 178],
        empty_board: [110, 87, 110, -62, -101, -51, -3, -29, -30, -12, -110],
    };

    /// The same weights whatever the board holds.
    pub const fn flat(weights: [i32; FEATURES]) -> Weights {
        Weights { full_board: weights, empty_board: weights }
    }

    /// The named weight sets: `tuned`, `hand` and `pieces` (any case).
    ///
    /// ```
    /// use dvonn_ai::eval::Weights;
    /// assert_eq!(Weights::named("Pieces"), Some(Weights::PIECES_ONLY));
    /// assert_eq!(Weights::named("best"), None);
    /// ```
    pub fn named(name: &str) -> Option<Weights> {
        match name.trim().to_ascii_lowercase().as_str() {
            "tuned" => Some(Weights::TUNED),
            "hand" => Some(Weights::HAND),
            "pieces" => Some(Weights::PIECES_ONLY),
            _ => None,
        }
    }

    /// The weight of `feature` on a board with `occupied` cells (0 to 49).
    ///
    /// ```
    /// use dvonn_ai::eval::{Feature, Weights};
    /// let weights = Weights { full_board: [0; 11], empty_board: [100; 11] };
    /// assert_eq!(weights.get(Feature::Material, 49), 0);
    /// assert_eq!(weights.get(Feature::Material, 0), 100);
    /// assert_eq!(weights.get(Feature::Material, 14), 71);
    /// ```
    pub const fn get(&self, feature: Feature, occupied: u32) -> i32 {
        let i = feature as usize;
        taper(self.full_board[i], self.empty_board[i], occupied)
    }

    /// The weighted sum of `features` of a position with `occupied` cells.
    #[inline]
    pub fn apply(&self, features: &Features, occupied: u32) -> i32 {
        let dot = |weights: &[i32; FEATURES]| -> i32 { weights.iter().zip(features).map(|(w, f)| w * f).sum() };
        taper(dot(&self.full_board), dot(&self.empty_board), occupied)
    }
}

/// `full` and `empty` mixed in proportion to `occupied` of the 49 cells.
#[inline]
const fn taper(full: i32, empty: i32, occupied: u32) -> i32 {
    let occupied = if occupied > CELLS as u32 { CELLS } else { occupied as i32 };
    (full * occupied + empty * (CELLS - occupied)) / CELLS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_weights_do_not_depend_on_the_board() {
        let features: Features = [3, -1, 7, 2, -4, 1, 0, 5, -2, 3, 1];
        let at = |occupied| Weights::HAND.apply(&features, occupied);
        assert_eq!(at(49), at(0));
        assert_eq!(at(20), Weights::HAND.full_board.iter().zip(&features).map(|(w, f)| w * f).sum::<i32>());
    }

    #[test]
    fn tapered_weights_move_from_the_full_to_the_empty_board() {
        let features: Features = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let weights = Weights::TUNED;
        assert_eq!(weights.apply(&features, 49), weights.full_board[0] + weights.full_board[10]);
        assert_eq!(weights.apply(&features, 0), weights.empty_board[0] + weights.empty_board[10]);
        let (full, empty) = (weights.apply(&features, 49), weights.apply(&features, 0));
        let middle = weights.apply(&features, 25);
        assert!(middle >= full.min(empty) && middle <= full.max(empty));
    }
}
