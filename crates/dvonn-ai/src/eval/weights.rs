//! [`Weights`]: the evaluation's weight per feature, tapered by how full
//! the board is.

use dvonn_core::Cell;

use super::{FEATURES, Feature, Features};

/// Occupied cells at which each set of [`Weights`] holds unmixed, in the
/// order of [`Weights::sets`]: the full board, the middle game, the ending.
const SET_CELLS: [u32; 3] = [Cell::ALL.len() as u32, Weights::MIDDLE_GAME_CELLS, Weights::END_GAME_CELLS];

/// Centipieces of estimated final margin per unit of each feature, in the
/// order of [`Feature::ALL`], as three sets: for the full board (the start
/// of the movement phase), for the middle game and for the ending. A
/// position is weighed by a mix of the two sets whose board sizes enclose
/// its occupied cells, in proportion to where it lies between them, since
/// what decides a game changes as the board empties: mobility and DVONN
/// control early, material and safe stacks late.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// The weights with all 49 cells occupied.
    pub full_board: [i32; FEATURES],
    /// The weights with [`Weights::MIDDLE_GAME_CELLS`] cells occupied.
    pub middle_game: [i32; FEATURES],
    /// The weights with [`Weights::END_GAME_CELLS`] or fewer cells occupied.
    pub end_game: [i32; FEATURES],
}

impl Weights {
    /// Occupied cells at which [`Weights::middle_game`] holds unmixed.
    pub const MIDDLE_GAME_CELLS: u32 = 30;

    /// Occupied cells at and below which [`Weights::end_game`] holds.
    pub const END_GAME_CELLS: u32 = 10;

    /// Only material counts: the score if the game ended now. The baseline
    /// that [`Weights::TUNED`] is measured against.
    pub const PIECES_ONLY: Weights = Weights::flat([100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    /// The first, hand-set weights, before tuning.
    pub const HAND: Weights = Weights::flat([100, 0, 3, 10, -30, 40, 10, -15, -10, 40, 20]);

    /// Weights fitted to self-play games from boards reached by real
    /// placement phases (see `eval::tuning`, behind the `tuning` feature).
    pub const TUNED: Weights = Weights {
        full_board: [11, 425, 30, -110, -30, 175, 45, -48, 22, 51, 111],
        middle_game: [57, 633, 96, -476, -66, 156, 4, -101, -141, -26, 361],
        end_game: [65, -58, 90, 181, -76, 72, 9, -8, 16, 29, -224],
    };

    /// The same weights whatever the board holds.
    pub const fn flat(weights: [i32; FEATURES]) -> Weights {
        Weights { full_board: weights, middle_game: weights, end_game: weights }
    }

    /// The three sets, from the full board down to the ending.
    pub const fn sets(&self) -> [&[i32; FEATURES]; 3] {
        [&self.full_board, &self.middle_game, &self.end_game]
    }

    /// The weights whose sets are `sets`, in the order of [`Weights::sets`].
    pub const fn from_sets(sets: [[i32; FEATURES]; 3]) -> Weights {
        let [full_board, middle_game, end_game] = sets;
        Weights { full_board, middle_game, end_game }
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
    /// let weights = Weights { full_board: [0; 11], middle_game: [100; 11], end_game: [40; 11] };
    /// assert_eq!(weights.get(Feature::Material, 49), 0);
    /// assert_eq!(weights.get(Feature::Material, 30), 100);
    /// assert_eq!(weights.get(Feature::Material, 20), 70);
    /// assert_eq!(weights.get(Feature::Material, 3), 40);
    /// ```
    pub fn get(&self, feature: Feature, occupied: u32) -> i32 {
        let i = feature as usize;
        self.mix(occupied, |set| set[i])
    }

    /// The weighted sum of `features` of a position with `occupied` cells.
    #[inline]
    pub fn apply(&self, features: &Features, occupied: u32) -> i32 {
        self.mix(occupied, |set| set.iter().zip(features).map(|(w, f)| w * f).sum())
    }

    /// `value` of the two sets enclosing `occupied`, mixed by where it lies
    /// between their board sizes.
    #[inline(always)]
    fn mix(&self, occupied: u32, value: impl Fn(&[i32; FEATURES]) -> i32) -> i32 {
        let sets = self.sets();
        let Mix { upper, share, of } = Mix::of(occupied);
        (value(sets[upper]) * share + value(sets[upper + 1]) * (of - share)) / of
    }
}

/// How a board size mixes two neighbouring sets of [`Weights`]: `share /
/// of` of the set `upper` (an index into [`Weights::sets`], the set for the
/// larger board) and the rest of the set after it. Boards outside the sets'
/// sizes take the nearest set whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mix {
    upper: usize,
    share: i32,
    of: i32,
}

impl Mix {
    /// The mix for a board with `occupied` cells.
    #[inline(always)]
    pub(crate) fn of(occupied: u32) -> Mix {
        let upper = if occupied > SET_CELLS[1] { 0 } else { 1 };
        let (high, low) = (SET_CELLS[upper], SET_CELLS[upper + 1]);
        Mix { upper, share: (occupied.clamp(low, high) - low) as i32, of: (high - low) as i32 }
    }

    /// The share of each set, as fractions summing to 1.
    #[cfg(any(test, feature = "tuning"))]
    pub(crate) fn shares(self) -> [f64; 3] {
        let mut shares = [0.0; 3];
        shares[self.upper] = f64::from(self.share) / f64::from(self.of);
        shares[self.upper + 1] = 1.0 - shares[self.upper];
        shares
    }
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
    fn tapered_weights_move_from_set_to_set() {
        let features: Features = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let weights = Weights::TUNED;
        let sum = |set: &[i32; FEATURES]| set[0] + set[10];
        assert_eq!(weights.apply(&features, 49), sum(&weights.full_board));
        assert_eq!(weights.apply(&features, 30), sum(&weights.middle_game));
        assert_eq!(weights.apply(&features, 10), sum(&weights.end_game));
        assert_eq!(weights.apply(&features, 0), sum(&weights.end_game));
        for (occupied, (a, b)) in [(40, (49, 30)), (20, (30, 10))] {
            let (a, b) = (weights.apply(&features, a), weights.apply(&features, b));
            let between = weights.apply(&features, occupied);
            assert!(between >= a.min(b) && between <= a.max(b), "{occupied}: {between} not in {a}..{b}");
        }
    }

    #[test]
    fn the_shares_of_a_mix_sum_to_one_and_follow_the_board() {
        for occupied in 0..=60 {
            let shares = Mix::of(occupied).shares();
            assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{occupied}: {shares:?}");
        }
        assert_eq!(Mix::of(49).shares(), [1.0, 0.0, 0.0]);
        assert_eq!(Mix::of(30).shares(), [0.0, 1.0, 0.0]);
        assert_eq!(Mix::of(5).shares(), [0.0, 0.0, 1.0]);
        assert_eq!(Mix::of(20).shares(), [0.0, 0.5, 0.5]);
    }

    #[test]
    fn the_shares_mix_the_sets_as_the_evaluation_does() {
        let features: Features = [3, -1, 7, 2, -4, 1, 0, 5, -2, 3, 1];
        let weights = Weights::TUNED;
        for occupied in 0..=49 {
            let dots = weights.sets().map(|set| f64::from(set.iter().zip(&features).map(|(w, f)| w * f).sum::<i32>()));
            let mixed: f64 = Mix::of(occupied).shares().iter().zip(dots).map(|(share, dot)| share * dot).sum();
            let applied = f64::from(weights.apply(&features, occupied));
            assert!((mixed - applied).abs() < 1.0, "{occupied}: {mixed} against {applied}");
        }
    }
}
