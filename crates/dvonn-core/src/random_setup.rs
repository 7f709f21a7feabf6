//! Random setups
//! ([RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#starting-positions)),
//! behind the `rand` feature.

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;

use crate::color::Color;
use crate::position::{Phase, Position};
use crate::setup::Setup;
use crate::stack::Stack;

impl Position {
    /// A random setup
    /// ([RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#starting-positions)):
    /// the 3 DVONN, 23 white and 23 black pieces laid on the 49 cells at
    /// random, White to make the first movement.
    pub fn random_setup<R: Rng + ?Sized>(rng: &mut R) -> Position {
        let mut pieces = [Stack::LONE_DVONN; 49];
        for (i, piece) in pieces.iter_mut().enumerate().skip(3) {
            *piece = Stack::single(if i % 2 == 1 { Color::White } else { Color::Black });
        }
        pieces.shuffle(rng);
        let setup = Setup { stacks: pieces.map(Some), side: Color::White, phase: Phase::Movement };
        Position::from_setup_unchecked(&setup)
    }

    /// The random setup drawn from `seed`: the same seed gives the same
    /// position on every platform and in every release of this crate.
    ///
    /// ```
    /// use dvonn_core::Position;
    /// let a = Position::random_setup_from_seed(7);
    /// assert_eq!(a, Position::random_setup_from_seed(7));
    /// assert_eq!(a.occupied().len(), 49);
    /// ```
    pub fn random_setup_from_seed(seed: u64) -> Position {
        Position::random_setup(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bitboard, Color, Phase, Position};

    #[test]
    fn seeded_setups_are_full_and_reproducible() {
        let position = Position::random_setup_from_seed(1);
        assert_eq!(position, Position::random_setup_from_seed(1));
        assert_ne!(position, Position::random_setup_from_seed(2));
        assert_eq!(position.occupied(), Bitboard::FULL);
        assert_eq!(position.dvonn_stacks().len(), 3);
        assert_eq!(position.owned_by(Color::White).len(), 23);
        assert_eq!((position.phase(), position.side_to_move()), (Phase::Movement, Color::White));
    }
}
