//! The placement evaluation: an estimate of the final margin of a
//! position in the placement phase, from local patterns of the board.
//!
//! Each cell contributes a weight for its *pattern*: its symmetry class
//! (the 49 cells fall into 16 classes under the board's four symmetries),
//! what stands on it (nothing, a white piece, a black piece or a DVONN
//! piece) and how many white, black and DVONN pieces stand around it. Each
//! white or black piece also contributes a weight for its distance to the
//! nearest DVONN piece and the number of DVONN pieces within two steps.
//! A bias per number of pieces placed completes the sum. The weights are
//! fitted to deep searches of the boards that placement phases end in
//! (see `eval::placement_tuning`, behind the `tuning` feature): the estimate is White's margin, which
//! [`PlacementEval::evaluate`] turns to the side to move's view.

use std::sync::LazyLock;

use arrayvec::ArrayVec;
use dvonn_core::{Bitboard, Cell, Color, Position};

use crate::score::Score;

/// Classes of cells under the four symmetries of the board.
pub(crate) const CELL_CLASSES: usize = 16;

/// Pattern features: class x content x white, black and DVONN neighbours.
const PATTERNS: usize = CELL_CLASSES * 4 * 7 * 7 * 4;
/// Distance features: class x colour x distance (1, 2, 3, 4+) x DVONN
/// pieces within two steps (0 to 3).
const DISTANCES: usize = CELL_CLASSES * 2 * 4 * 4;
/// The first distance feature.
const DISTANCE_BASE: usize = PATTERNS;
/// The first bias feature (one per number of pieces placed, 0 to 49).
const BIAS_BASE: usize = PATTERNS + DISTANCES;

/// Number of features, and of weights.
pub(crate) const FEATURE_COUNT: usize = BIAS_BASE + 50;

/// The most features a position has: a pattern per cell, a distance per
/// piece, and the bias.
pub(crate) const MAX_ACTIVE: usize = 49 + 46 + 1;

/// The active features of a position (each with value 1).
pub(crate) type ActiveFeatures = ArrayVec<u32, MAX_ACTIVE>;

/// `(x, y)` of a cell under symmetry `s` (0: identity, 1: rotation by a
/// half turn, 2: mirror swapping rows 1 and 5, 3: both).
pub(crate) const fn map_cell(s: usize, cell: Cell) -> Cell {
    let (x, y) = (cell.x(), cell.y());
    let (mx, my) = match s {
        0 => (x, y),
        1 => (10 - x, 4 - y),
        2 => (x - y + 2, 4 - y),
        _ => (10 - (x - y + 2), y),
    };
    match Cell::new(mx, my) {
        Some(image) => image,
        None => panic!("a symmetry maps the board onto itself"),
    }
}

/// Each cell's symmetry class, numbered in order of first appearance.
const CLASS: [u8; 49] = {
    let mut class = [u8::MAX; 49];
    let mut next = 0;
    let mut i = 0;
    while i < 49 {
        if class[i] == u8::MAX {
            let mut s = 0;
            while s < 4 {
                class[map_cell(s, Cell::ALL[i]).index()] = next;
                s += 1;
            }
            next += 1;
        }
        i += 1;
    }
    assert!(next as usize == CELL_CLASSES);
    class
};

/// The cells around each cell (by canonical index).
static NEIGHBOURS: LazyLock<[Bitboard; 49]> =
    LazyLock::new(|| std::array::from_fn(|i| Bitboard::from(Cell::ALL[i]).neighbours()));

/// Fills `out` with the active features of `position` (a placement-phase
/// position: every stack is a single piece).
pub(crate) fn active_features(position: &Position, out: &mut ActiveFeatures) {
    out.clear();
    let white = position.owned_by(Color::White);
    let black = position.owned_by(Color::Black);
    let dvonn = position.dvonn_stacks();
    // Rings around the DVONN pieces: within one, two and three steps.
    let near1 = dvonn.neighbours() | dvonn;
    let near2 = near1.neighbours() | near1;
    let near3 = near2.neighbours() | near2;
    let rings: ArrayVec<Bitboard, 3> = dvonn.iter().map(|d| Bitboard::from(d).neighbours()).collect();
    let within_two: ArrayVec<Bitboard, 3> = rings.iter().map(|r| *r | r.neighbours()).collect();
    for (index, cell) in Cell::ALL.iter().enumerate() {
        let around = NEIGHBOURS[index];
        let content = if white.contains(*cell) {
            1
        } else if black.contains(*cell) {
            2
        } else if dvonn.contains(*cell) {
            3
        } else {
            0
        };
        let class = usize::from(CLASS[index]);
        let (w, b, d) =
            ((around & white).len() as usize, (around & black).len() as usize, (around & dvonn).len() as usize);
        out.push((((class * 4 + content) * 7 + w) * 28 + b * 4 + d) as u32);
        if content == 1 || content == 2 {
            let distance = if near1.contains(*cell) {
                0
            } else if near2.contains(*cell) {
                1
            } else if near3.contains(*cell) {
                2
            } else {
                3
            };
            let close = within_two.iter().filter(|set| set.contains(*cell)).count();
            out.push((DISTANCE_BASE + ((class * 2 + content - 1) * 4 + distance) * 4 + close) as u32);
        }
    }
    out.push((BIAS_BASE + position.placed() as usize) as u32);
}

/// Weights of the placement features, in pieces of White's margin.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacementWeights(Box<[f32]>);

/// Why a weight file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a placement weight file holds {FEATURE_COUNT} little-endian f32 values ({bytes} bytes), not {len} bytes", bytes = FEATURE_COUNT * 4)]
#[non_exhaustive]
pub struct WeightFileError {
    /// The length of the file, in bytes.
    pub len: usize,
}

impl PlacementWeights {
    /// All weights zero: where fitting starts.
    #[cfg(any(test, feature = "tuning"))]
    pub(crate) fn zero() -> PlacementWeights {
        PlacementWeights(vec![0.0; FEATURE_COUNT].into_boxed_slice())
    }

    /// Reads weights written by [`PlacementWeights::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<PlacementWeights, WeightFileError> {
        if bytes.len() != FEATURE_COUNT * 4 {
            return Err(WeightFileError { len: bytes.len() });
        }
        let weights = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Ok(PlacementWeights(weights))
    }

    /// The weights as little-endian `f32` values, in feature order.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The weights, to change.
    #[cfg(any(test, feature = "tuning"))]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.0
    }

    /// White's estimated margin (pieces) for these features.
    #[inline]
    pub(crate) fn white_margin(&self, features: &[u32]) -> f32 {
        features.iter().map(|&f| self.0[f as usize]).sum()
    }
}

/// The fitted weights shipped with the engine.
static FITTED: LazyLock<PlacementWeights> = LazyLock::new(|| {
    PlacementWeights::from_bytes(include_bytes!("placement.weights")).expect("the shipped weight file has the layout")
});

/// The placement evaluation with the shipped weights.
#[derive(Clone, Copy, Debug)]
pub struct PlacementEval {
    weights: &'static PlacementWeights,
}

/// Two evaluations are equal when they use the same weight set.
impl PartialEq for PlacementEval {
    fn eq(&self, other: &PlacementEval) -> bool {
        std::ptr::eq(self.weights, other.weights)
    }
}

impl Eq for PlacementEval {}

impl Default for PlacementEval {
    fn default() -> PlacementEval {
        PlacementEval { weights: &FITTED }
    }
}

impl PlacementEval {
    /// An evaluation with these weights (leaked: evaluations live as long
    /// as the program, and weight sets are few).
    pub fn with_weights(weights: PlacementWeights) -> PlacementEval {
        PlacementEval { weights: Box::leak(Box::new(weights)) }
    }

    /// The estimated final margin for the side to move of a
    /// placement-phase position.
    pub fn evaluate(&self, position: &Position) -> Score {
        let mut features = ActiveFeatures::new();
        active_features(position, &mut features);
        let white = self.weights.white_margin(&features);
        let mine = if position.side_to_move() == Color::White { white } else { -white };
        Score::from_centipieces((mine * Score::SCALE as f32).round() as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Move;

    #[test]
    fn classes_are_symmetric_and_cover_the_board() {
        for cell in Cell::ALL {
            for s in 0..4 {
                assert_eq!(CLASS[cell.index()], CLASS[map_cell(s, cell).index()], "{cell} under {s}");
            }
        }
        assert_eq!(CLASS.iter().copied().max(), Some(CELL_CLASSES as u8 - 1));
    }

    #[test]
    fn features_are_in_range_and_one_per_cell_and_piece() {
        let mut position = Position::new();
        let mut features = ActiveFeatures::new();
        for (i, cell) in Cell::ALL.iter().enumerate() {
            active_features(&position, &mut features);
            let pieces = i.saturating_sub(3).min(46);
            assert_eq!(features.len(), 49 + pieces + 1, "after {i} placements");
            assert!(features.iter().all(|&f| (f as usize) < FEATURE_COUNT));
            position.play(Move::Place(*cell)).unwrap();
        }
    }

    #[test]
    fn symmetric_boards_have_the_same_features() {
        let cells: Vec<Cell> =
            ["E3", "F3", "C2", "D4", "G2", "H3", "B3", "K5", "A1", "F1"].iter().map(|c| c.parse().unwrap()).collect();
        let mut reference = None;
        for s in 0..4 {
            let mut position = Position::new();
            for &cell in &cells {
                position.play(Move::Place(map_cell(s, cell))).unwrap();
            }
            let mut features = ActiveFeatures::new();
            active_features(&position, &mut features);
            features.sort_unstable();
            match &reference {
                None => reference = Some(features),
                Some(first) => assert_eq!(first, &features, "symmetry {s}"),
            }
        }
    }

    #[test]
    fn weight_files_round_trip_and_wrong_sizes_are_refused() {
        let mut weights = PlacementWeights::zero();
        weights.as_mut_slice()[7] = 1.5;
        assert_eq!(PlacementWeights::from_bytes(&weights.to_bytes()), Ok(weights));
        assert_eq!(PlacementWeights::from_bytes(&[0; 12]), Err(WeightFileError { len: 12 }));
    }
}
