//! The shared test vectors: perft counts and complete games.
//!
//! The vectors are copied into `tests/vectors/` so that the crate tests on
//! its own; CI checks the copies against the project's originals when
//! those are beside the checkout.

use std::ops::ControlFlow;

use dvonn_core::perft::{PerftMode, perft, perft_in_parts};
use dvonn_core::{Color, Move, Position};

const PERFT: &str = include_str!("vectors/perft.txt");
const GAMES: &str = include_str!("vectors/games.txt");

/// `(position, [(depth, count)])` from perft.txt.
fn perft_vectors() -> Vec<(Position, Vec<(u32, u64)>)> {
    let vectors = dvonn_core::perft::read_vectors(PERFT).unwrap_or_else(|e| panic!("perft.txt {e}"));
    vectors.into_iter().map(|v| (v.position, v.counts)).collect()
}

#[test]
fn perft_bulk_matches_every_vector() {
    for (position, counts) in perft_vectors() {
        for &(depth, expected) in &counts {
            assert_eq!(perft(&position, depth, PerftMode::Bulk), expected, "{position} depth {depth}");
        }
    }
}

#[test]
fn perft_make_every_leaf_matches_every_vector() {
    for (position, counts) in perft_vectors() {
        // The deepest counts take seconds in this mode; depth 3 covers every
        // position and the bulk test covers the rest.
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d <= 3) {
            assert_eq!(perft(&position, depth, PerftMode::MakeEveryLeaf), expected, "{position} depth {depth}");
        }
    }
}

#[test]
fn perft_in_parts_adds_up_to_every_vector() {
    for (position, counts) in perft_vectors() {
        // Depth 4 and more are counted in several parts (and games that
        // end early in parts of one leaf); bulk counting keeps it quick.
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d >= 4) {
            let mut leaves = 0;
            let flow = perft_in_parts(&position, depth, PerftMode::Bulk, &mut |part| {
                leaves += part;
                ControlFlow::Continue(())
            });
            assert_eq!(flow, ControlFlow::Continue(()));
            assert_eq!(leaves, expected, "{position} depth {depth}");
        }
    }
}

#[test]
fn every_game_replays_to_its_score() {
    let mut games = 0;
    for line in GAMES.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        let score = words.next().unwrap();
        let mut position = Position::new();
        for (ply, word) in words.enumerate() {
            let mv: Move = word.parse().unwrap();
            position.play(mv).unwrap_or_else(|e| panic!("game {games}, ply {ply}: {e}"));
            assert_eq!(Position::from_setup(&position.to_setup()).map(|p| p.hash()), Ok(position.hash()));
        }
        assert!(position.is_game_over(), "game {games} is not over");
        let result = format!("{}-{}", position.pieces(Color::White), position.pieces(Color::Black));
        assert_eq!(result, score, "game {games}");
        games += 1;
    }
    assert_eq!(games, 5);
}
