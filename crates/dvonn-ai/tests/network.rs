//! The engine's integer network against the trainer's floating-point one:
//! `train/train.py` writes, with the shipped network, held-out positions
//! and its own estimates of them (`tests/data/network-fixtures.txt`); the
//! engine's estimates must agree within the rounding of its integer
//! weights. Also: the incremental accumulators of a search agree with
//! accumulators computed from scratch.

use dvonn_ai::eval::{Network, features};
use dvonn_core::{Color, Phase, Position, Setup, Stack};

/// A fixture line: the position, its features and the trainer's estimate.
fn fixture(line: &str) -> (Position, Vec<i32>, f64) {
    let mut fields = line.split_whitespace();
    let hex = fields.next().expect("the bytes");
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    assert_eq!(bytes.len(), 50, "49 stack bytes and the flags");
    let stacks = std::array::from_fn(|i| {
        let byte = bytes[i];
        let height = byte & 0x3F;
        let dvonn = byte & 0x80 != 0;
        let owner = match (byte & 0x40 != 0, height == 1 && dvonn) {
            (_, true) => None,
            (true, false) => Some(Color::White),
            (false, false) => Some(Color::Black),
        };
        (height > 0).then(|| Stack::new(height, owner, dvonn).expect("a stack a game can hold"))
    });
    let side = if bytes[49] & 1 != 0 { Color::Black } else { Color::White };
    let phase = if bytes[49] & 2 != 0 { Phase::Movement } else { Phase::Placement };
    let position = Position::from_setup(&Setup { stacks, side, phase }).expect("a reachable position");
    let features = fields.next().expect("the features").split(',').map(|f| f.parse().unwrap()).collect();
    let estimate = fields.next().expect("the estimate").parse().unwrap();
    (position, features, estimate)
}

#[test]
fn the_engine_computes_what_the_trainer_computed() {
    let text = include_str!("data/network-fixtures.txt");
    let network = Network::shipped();
    let (mut worst, mut total, mut count): (f64, f64, usize) = (0.0, 0.0, 0);
    for line in text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
        let (position, expected_features, trainer) = fixture(line);
        assert_eq!(features(&position).to_vec(), expected_features, "{position}");
        let engine = network.evaluate(&position).pieces();
        worst = worst.max((engine - trainer).abs());
        total += (engine - trainer).abs();
        count += 1;
    }
    assert!(count >= 100, "{count} fixtures");
    // The engine's integers round the trainer's weights to 1/512 and 1/256
    // and its estimate to a centipiece: they differ by a few hundredths of
    // a piece, rarely by a fifth (the rounding errors grow with the output
    // weights, which longer training on more data makes larger). A mistake
    // in the inference shows as whole pieces.
    let mean = total / count as f64;
    assert!(mean < 0.04, "the engine's estimates differ from the trainer's by {mean:.3} pieces on average");
    assert!(worst < 0.3, "the engine's estimate differs from the trainer's by up to {worst:.3} pieces");
}
