//! The smallest program that plays a legal game of DVONN with the rules
//! engine alone: random moves from the empty board until neither player can
//! move, then the final position string and the score.
//!
//! ```text
//! cargo run --example embed_core [SEED]
//! ```

use dvonn::rules::{Color, Position};
use rand::SeedableRng;
use rand::seq::IndexedRandom;

fn main() {
    let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut position = Position::new();
    let mut plies = 0;
    // `legal_moves` is empty exactly when the game is over; a player without
    // a move gets `[Pass]`.
    while let Some(&mv) = position.legal_moves().choose(&mut rng) {
        position.play(mv).expect("generated moves are legal");
        plies += 1;
    }
    println!("{position}");
    println!("{}-{} after {plies} plies", position.pieces(Color::White), position.pieces(Color::Black));
}

// `cargo test` runs the example (it is declared with `test = true`).
#[cfg(test)]
mod tests {
    #[test]
    fn plays_a_whole_game() {
        super::main();
    }
}
