//! The placement phase: where to put the pieces.
//!
//! The engine's own strategy ([`PlacementStrategy::Search`]) searches the
//! placements with the same alpha-beta search as the movements, judging
//! unfinished boards with the [placement evaluation](crate::eval::placement)
//! and, once the search reaches the full board, the movement evaluation.
//! The two simple strategies here are baselines for matches and for weak
//! levels; they too search the last few placements into the movement
//! phase (see [`Engine`](crate::Engine)).

use dvonn_core::{Bitboard, Move, Position};
use rand::Rng;
use rand::seq::IteratorRandom;

/// How the engine chooses its placements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum PlacementStrategy {
    /// Alpha-beta search over the placements, judged by the placement
    /// evaluation until the board is full and by the movement evaluation
    /// after.
    #[default]
    Search,
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
