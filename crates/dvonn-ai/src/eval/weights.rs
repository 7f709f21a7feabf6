//! [`Weights`]: the evaluation's weight per feature.

use super::{FEATURES, Feature, Features};

/// Centipieces of estimated final margin per unit of each feature, in the
/// order of [`Feature::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// Only material counts: the score if the game ended now. The baseline
    /// that [`Weights::TUNED`] is measured against.
    pub const PIECES_ONLY: Weights = Weights([100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    /// The first, hand-set weights, before tuning.
    pub const HAND: Weights = Weights([100, 0, 3, 10, -30, 40, 10, -15, -10, 40, 20]);

    /// Weights fitted to self-play games (see `eval::tuning`, behind the `tuning` feature).
    pub const TUNED: Weights = Weights([72, 426, 34, -241, -64, 7, 14, -124, -78, 11, 138]);

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

    /// The weight of `feature`.
    pub const fn get(&self, feature: Feature) -> i32 {
        self.0[feature as usize]
    }

    /// The weighted sum of `features`.
    #[inline]
    pub fn apply(&self, features: &Features) -> i32 {
        self.0.iter().zip(features).map(|(w, f)| w * f).sum()
    }
}
