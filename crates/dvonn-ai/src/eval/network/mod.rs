//! The network evaluation: a small neural network over the stacks of the
//! board, learned from self-play games, evaluated in integers.
//!
//! The design is the one of efficiently updatable networks (NNUE) in chess
//! and Gomoku engines. Each side sees the board as stacks on cells
//! ([`inputs`]); a *feature transformer* shared by both sides sums one row
//! of [`HIDDEN`] weights per stack into an *accumulator*, which a move
//! changes only by the rows of the cells it touches, so the search keeps
//! one per ply and updates it from the parent's ([`accumulator`]). The two
//! accumulators, clipped to `[0, 127]`, the side to move's first, feed the
//! output network of the position's [bucket](bucket): a layer of
//! [`LAYER2`] clipped values, then the estimate of the final margin. A
//! linear term over the hand-made [features](super::Feature) of the
//! position completes the estimate.
//!
//! The weights are learned by the trainer in the repository's `train/`
//! folder, from the data of [`data`] (behind the `tuning` feature), and
//! written in the integer form of [`Network::from_bytes`]. The engine
//! ships one ([`Network::shipped`]).

pub(crate) mod accumulator;
#[cfg(feature = "tuning")]
pub mod data;
pub mod inputs;

use std::sync::LazyLock;

use dvonn_core::{Cell, Color, Phase, Position};

use self::accumulator::Accumulator;
use self::inputs::INPUTS;
use super::{FEATURES, Features};
use crate::score::Score;

/// Values of each side's accumulator.
pub const HIDDEN: usize = 128;
/// Values of the hidden layer of each bucket's output network.
pub const LAYER2: usize = 16;
/// Output networks: two for the placement phase, six for the movement
/// phase (see [`bucket`]).
pub const BUCKETS: usize = 8;

/// The accumulator's scale: a clipped value of 127 stands for 1.
const QA: i32 = 127;
/// The scale of the hidden and output layers' weights.
const QB: i32 = 64;
/// Output units per piece of margin.
const OUTPUT_SCALE: i32 = QA * QB;

/// Pieces placed from which the second placement bucket is used.
const PLACEMENT_SPLIT: u32 = 25;
/// Occupied cells below each of which the movement phase moves to its next
/// bucket.
const MOVEMENT_BOUNDS: [u32; 5] = [41, 33, 25, 17, 9];

/// The output network that judges `position`: 0 and 1 for the placement
/// phase (before and from [`PLACEMENT_SPLIT`] pieces placed), then 2 to 7
/// for the movement phase as the board empties.
pub fn bucket(position: &Position) -> usize {
    match position.phase() {
        Phase::Placement => usize::from(position.placed() >= PLACEMENT_SPLIT),
        Phase::Movement => {
            let occupied = position.occupied().len();
            2 + MOVEMENT_BOUNDS.iter().filter(|&&bound| occupied < bound).count()
        }
    }
}

/// The first bytes of a network file.
const MAGIC: &[u8; 8] = b"DVONNNET";
/// The version of the file layout.
const VERSION: u32 = 1;

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkFileError {
    /// The file does not start as a network file does.
    #[error("not a dvonn network file")]
    NotANetwork,
    /// The file is a network of another shape or version.
    #[error("a network of another layout (version {version}, {hidden} x {layer2} x {buckets}); this engine reads version {VERSION}, {HIDDEN} x {LAYER2} x {BUCKETS}")]
    Layout {
        /// The file's layout version.
        version: u32,
        /// Its accumulator size.
        hidden: u32,
        /// Its hidden layer size.
        layer2: u32,
        /// Its number of buckets.
        buckets: u32,
    },
    /// The file is longer or shorter than its layout.
    #[error("a network file of this layout has {expected} bytes, not {len}")]
    Length {
        /// The bytes the layout needs.
        expected: usize,
        /// The file's length.
        len: usize,
    },
}

/// A network's weights, in the integer form the engine computes with.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Row `input`: the accumulator's change when the input is on.
    transformer: Box<[[i16; HIDDEN]]>,
    transformer_bias: [i16; HIDDEN],
    /// Per bucket and hidden value: weights of both accumulators.
    layer: Box<[[[i16; 2 * HIDDEN]; LAYER2]; BUCKETS]>,
    layer_bias: [[i32; LAYER2]; BUCKETS],
    output: [[i32; LAYER2]; BUCKETS],
    output_bias: [i32; BUCKETS],
    /// Centipieces per unit of each hand-made feature, per bucket.
    features: [[i32; FEATURES]; BUCKETS],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network").field("inputs", &INPUTS).field("hidden", &HIDDEN).finish_non_exhaustive()
    }
}

/// The network shipped with the engine.
static SHIPPED: LazyLock<Network> =
    LazyLock::new(|| Network::from_bytes(include_bytes!("shipped.nnue")).expect("the shipped network has the layout"));

/// Little-endian values read one after the other.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
}

impl Network {
    /// The bytes of a network file: a 32-byte header (`DVONNNET`, then the
    /// version, [`HIDDEN`], [`LAYER2`], [`BUCKETS`], the inputs and the
    /// features as `u32`), then the feature transformer's weights (`i16`,
    /// input by input) and biases (`i16`), each bucket's hidden layer
    /// weights (`i16`, row by row) and biases (`i32`), the output weights
    /// and biases (`i32`), and the feature weights (`i32` centipieces), all
    /// little-endian.
    pub const FILE_BYTES: usize = 32
        + 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * LAYER2 * 2 * HIDDEN)
        + 4 * (BUCKETS * LAYER2 * 2 + BUCKETS + BUCKETS * FEATURES);

    /// Reads a network file (see [`Network::FILE_BYTES`] for its layout).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkFileError> {
        if bytes.len() < 32 || &bytes[..8] != MAGIC {
            return Err(NetworkFileError::NotANetwork);
        }
        let mut reader = Reader(&bytes[8..]);
        let [version, hidden, layer2, buckets, inputs, features] = std::array::from_fn(|_| reader.u32());
        let layout = [hidden, layer2, buckets, inputs, features];
        if version != VERSION || layout != [HIDDEN, LAYER2, BUCKETS, INPUTS, FEATURES].map(|n| n as u32) {
            return Err(NetworkFileError::Layout { version, hidden, layer2, buckets });
        }
        if bytes.len() != Network::FILE_BYTES {
            return Err(NetworkFileError::Length { expected: Network::FILE_BYTES, len: bytes.len() });
        }
        let transformer = (0..INPUTS).map(|_| std::array::from_fn(|_| reader.i16())).collect();
        let transformer_bias = std::array::from_fn(|_| reader.i16());
        let layer = Box::new(std::array::from_fn(|_| std::array::from_fn(|_| std::array::from_fn(|_| reader.i16()))));
        let layer_bias = std::array::from_fn(|_| std::array::from_fn(|_| reader.i32()));
        let output = std::array::from_fn(|_| std::array::from_fn(|_| reader.i32()));
        let output_bias = std::array::from_fn(|_| reader.i32());
        let features = std::array::from_fn(|_| std::array::from_fn(|_| reader.i32()));
        debug_assert!(reader.0.is_empty());
        Ok(Network { transformer, transformer_bias, layer, layer_bias, output, output_bias, features })
    }

    /// The network shipped with the engine.
    pub fn shipped() -> &'static Network {
        &SHIPPED
    }

    /// The accumulator of `position`, computed from scratch.
    pub(crate) fn accumulator(&self, position: &Position) -> Accumulator {
        Accumulator::new(self, position)
    }

    /// The estimated final margin of `position` for the side to move,
    /// computed from scratch (the search updates its accumulators instead).
    /// Meant for positions where the game goes on.
    pub fn evaluate(&self, position: &Position) -> Score {
        Score::from_centipieces(self.evaluate_with(&self.accumulator(position), position, &super::features(position)))
    }

    /// The estimate for `position`, in centipieces, whose accumulator is
    /// `accumulator` and hand-made features `features`.
    pub(crate) fn evaluate_with(&self, accumulator: &Accumulator, position: &Position, features: &Features) -> i32 {
        let bucket = bucket(position);
        let side = position.side_to_move();
        let mut clipped = [0i16; 2 * HIDDEN];
        let (mine, theirs) = clipped.split_at_mut(HIDDEN);
        clip(accumulator.side(side), mine);
        clip(accumulator.side(!side), theirs);
        let mut output = self.output_bias[bucket];
        for ((weights, bias), out_weight) in
            self.layer[bucket].iter().zip(&self.layer_bias[bucket]).zip(&self.output[bucket])
        {
            let sum = bias + dot(&clipped, weights);
            output += (sum / QB).clamp(0, QA) * out_weight;
        }
        let hand: i32 = self.features[bucket].iter().zip(features).map(|(w, f)| w * f).sum();
        // Rounded to the nearest centipiece, halves away from zero.
        let centipieces = i64::from(output) * 100;
        let rounded = (centipieces + centipieces.signum() * i64::from(OUTPUT_SCALE / 2)) / i64::from(OUTPUT_SCALE);
        rounded as i32 + hand
    }

    /// The transformer's row for `input`.
    #[inline(always)]
    pub(crate) fn row(&self, input: usize) -> &[i16; HIDDEN] {
        &self.transformer[input]
    }

    /// The transformer's biases: the accumulator of an empty board.
    #[inline(always)]
    pub(crate) fn bias(&self) -> &[i16; HIDDEN] {
        &self.transformer_bias
    }
}

/// `values` clipped to `[0, QA]`.
#[inline(always)]
fn clip(values: &[i16; HIDDEN], out: &mut [i16]) {
    for (out, value) in out.iter_mut().zip(values) {
        *out = (*value).clamp(0, QA as i16);
    }
}

/// The dot product of two rows, in 32 bits (written so that it compiles to
/// multiply-add instructions on wide vectors).
#[inline(always)]
fn dot(a: &[i16; 2 * HIDDEN], b: &[i16; 2 * HIDDEN]) -> i32 {
    a.iter().zip(b).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum()
}

/// Whether `cell` holds a stack, and which, seen from `side`: the input.
#[inline(always)]
pub(crate) fn input_of(position: &Position, cell: Cell, side: Color) -> Option<usize> {
    position.stack_at(cell).map(|stack| inputs::input(cell, stack, side))
}
