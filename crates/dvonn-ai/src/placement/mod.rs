//! The placement phase: where to put the pieces.
//!
//! The engine's own strategy is Monte-Carlo tree search over placements
//! ([`PlacementStrategy::MonteCarlo`]): thousands of fast playouts of the
//! rest of the game per move, with RAVE so that a cell that tends to win
//! anywhere in a playout gets credit early. The last few placements, where
//! the tree is small, are searched by alpha-beta right into the movement
//! phase instead (see [`Engine`](crate::Engine)). The two simple strategies
//! are baselines for matches and for weak levels.

mod monte_carlo;

pub(crate) use monte_carlo::MonteCarlo;

use dvonn_core::{Bitboard, Move, Position};
use rand::Rng;
use rand::seq::IteratorRandom;

/// How the engine chooses its placements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PlacementStrategy {
    /// Monte-Carlo tree search with playouts of the whole rest of the game.
    #[default]
    MonteCarlo,
    /// A simple heuristic: DVONN pieces in the middle, own pieces next to
    /// DVONN pieces when possible (the baseline a strong strategy must beat).
    Heuristic,
    /// Uniformly random empty cells.
    Random,
}

/// A uniformly random placement (`None` outside placement).
pub(crate) fn random_placement<R: Rng + ?Sized>(position: &Position, rng: &mut R) -> Option<Move> {
    position.legal_moves().into_iter().filter(|mv| mv.is_placement()).choose(rng)
}

/// The heuristic placement: DVONN pieces on the interior cells, a player's
/// own pieces next to as many DVONN pieces as possible, ties broken at
/// random.
pub(crate) fn heuristic_placement<R: Rng + ?Sized>(position: &Position, rng: &mut R) -> Option<Move> {
    let empty = !position.occupied();
    if empty.is_empty() {
        return None;
    }
    let preferred = if position.placed() < 3 {
        empty & Bitboard::INTERIOR
    } else {
        let dvonn = position.dvonn_stacks();
        // Most DVONN neighbours first.
        (1..=3)
            .rev()
            .map(|n| empty.iter().filter(|&c| (Bitboard::from(c).neighbours() & dvonn).len() >= n).collect())
            .find(|set: &Bitboard| !set.is_empty())
            .unwrap_or(Bitboard::EMPTY)
    };
    let choices = if preferred.is_empty() { empty } else { preferred };
    choices.iter().choose(rng).map(Move::Place)
}
