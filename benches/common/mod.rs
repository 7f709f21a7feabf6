//! The positions of `perft.txt`, shared by the benches.
// Each bench uses a part of these helpers.
#![allow(dead_code)]

use dvonn::rules::Position;
use dvonn::rules::perft::PerftVector;

/// A perft vector: its comment (what kind of position), the position, and
/// the perft counts by depth.
pub(crate) struct Vector {
    pub label: String,
    pub position: Position,
    pub counts: Vec<(u32, u64)>,
}

/// Every vector of perft.txt, labelled with its comment and its index.
pub(crate) fn vectors() -> Vec<Vector> {
    let mut label = String::new();
    let mut vectors = Vec::new();
    for line in dvonn::rules::perft::VECTORS.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(comment) = line.strip_prefix('#') {
            label = comment.trim().to_string();
            continue;
        }
        let PerftVector { position, counts, .. } = line.parse().expect("perft.txt lines are vectors");
        let label = format!("{:02} {}", vectors.len(), label.chars().take(40).collect::<String>());
        vectors.push(Vector { label, position, counts });
    }
    vectors
}

/// The vectors of the movement phase (most of the engine's time is spent
/// there), the full-board start of phase 2 that the targets name among them.
pub(crate) fn movement_vectors() -> Vec<Vector> {
    vectors().into_iter().filter(|v| v.position.phase() == dvonn::rules::Phase::Movement).collect()
}
