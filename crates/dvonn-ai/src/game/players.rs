//! The players of this crate: the engine, and uniformly random legal moves.

use std::time::Duration;

use dvonn_core::{Game, Move};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Player;
use crate::engine::Engine;
use crate::limits::{Clock, Limits};
use crate::search::SearchResult;

/// An [`Engine`] searching within its limits; on a game clock, it shares
/// out the time its side has left.
#[derive(Debug)]
pub struct EnginePlayer {
    engine: Engine,
    limits: Limits,
    last_search: Option<SearchResult>,
}

impl EnginePlayer {
    /// `engine`, searching each move within `limits`.
    pub fn new(engine: Engine, limits: Limits) -> EnginePlayer {
        EnginePlayer { engine, limits, last_search: None }
    }

    /// Forgets the last game (see [`Engine::new_game`]).
    pub fn new_game(&mut self) {
        self.engine.new_game();
        self.last_search = None;
    }

    /// The search that chose the player's last move.
    pub fn last_search(&self) -> Option<&SearchResult> {
        self.last_search.as_ref()
    }
}

impl Player for EnginePlayer {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        let position = game.position();
        let mut limits = self.limits;
        if let Some(remaining) = time_left {
            limits.clock = Some(Clock::new(remaining, Duration::ZERO));
        }
        let search = self.last_search.insert(self.engine.search(position, &limits, &mut ()));
        search.best_move.ok_or_else(|| "the engine found no move".to_string())
    }
}

/// Uniformly random legal moves, drawn from its own generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer<R = ChaCha8Rng> {
    rng: R,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn from_seed(seed: u64) -> RandomPlayer {
        RandomPlayer::new(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl<R: Rng> RandomPlayer<R> {
    /// A random player drawing from `rng` (which may be `&mut` a generator
    /// shared with other draws).
    pub fn new(rng: R) -> RandomPlayer<R> {
        RandomPlayer { rng }
    }
}

impl<R: Rng> Player for RandomPlayer<R> {
    fn choose(&mut self, game: &Game, _time_left: Option<Duration>) -> Result<Move, String> {
        game.position().legal_moves().choose(&mut self.rng).copied().ok_or_else(|| "no legal move".to_string())
    }
}
