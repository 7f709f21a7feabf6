//! The network evaluation: a small neural network over the stacks of the
//! board, learned from self-play games, evaluated in integers.
//!
//! The design is the one of efficiently updatable networks (NNUE) in chess
//! and Gomoku engines. Each side sees the board as stacks on cells
//! ([`inputs`]); a *feature transformer* shared by both sides sums one row
//! of [`HIDDEN`] weights per stack into an *accumulator*, which a move
//! changes only by the rows of the cells it touches, so the search keeps
//! one per ply and updates it from the parent's. The two accumulators,
//! clipped to `[0, 1]` (`[0, 512]` in integers), the side to move's first,
//! feed the output network of the position's [`bucket`] (how full the
//! board is): a layer of [`LAYER2`] clipped values, then the estimate of
//! the final margin. A linear term over the hand-made
//! [features](super::Feature) of the position completes the estimate: the
//! network learns what the linear evaluation misses.
//!
//! The network judges the movement phase; placements are judged by the
//! [placement evaluation](super::placement), which is fitted to deep
//! searches of finished boards.
//!
//! The weights are learned by the trainer in the repository's `train/`
//! folder, from the data of [`data`] (behind the `tuning` feature), and
//! written in the integer form of [`Network::from_bytes`]. The engine
//! ships one ([`Network::shipped`]).

pub(crate) mod accumulator;
#[cfg(feature = "tuning")]
pub mod data;
pub mod inputs;
mod layer;

use std::sync::LazyLock;

use dvonn_core::{Cell, Color, Position};

use self::accumulator::Accumulator;
use self::inputs::INPUTS;
use super::{FEATURES, Features};
use crate::score::Score;

/// Values of each side's accumulator.
pub const HIDDEN: usize = 128;
/// Values of the hidden layer of each bucket's output network.
pub const LAYER2: usize = 16;
/// Output networks, by how full the board is (see [`bucket`]).
pub const BUCKETS: usize = 6;

/// The accumulator's scale: a clipped value of 512 stands for 1.
const QA: i32 = 512;
/// The scale of the hidden layer's weights: its sums stand for 1 as
/// `QA * QB`.
const QB: i32 = 256;

/// Occupied cells below each of which the next bucket is used.
const BUCKET_BOUNDS: [u32; BUCKETS - 1] = [41, 33, 25, 17, 9];

/// The output network that judges `position`, a movement-phase position:
/// 0 for 41 or more occupied cells, 1 for 33 to 40, 2 for 25 to 32, 3 for
/// 17 to 24, 4 for 9 to 16 and 5 for 8 or fewer.
pub fn bucket(position: &Position) -> usize {
    let occupied = position.occupied().len();
    BUCKET_BOUNDS.iter().filter(|&&bound| occupied < bound).count()
}

/// The first bytes of a network file.
const MAGIC: &[u8; 8] = b"DVONNNET";
/// The version of the file layout.
const VERSION: u32 = 3;

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkFileError {
    /// The file does not start as a network file does.
    #[error("not a dvonn network file")]
    NotANetwork,
    /// The file is a network of another shape or version.
    #[error(
        "a network of another layout (version {version}, {hidden} x {layer2} x {buckets}); this engine reads version {VERSION}, {HIDDEN} x {LAYER2} x {BUCKETS}"
    )]
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

/// A network's weights, in the form the engine computes with.
#[derive(Clone)]
pub struct Network {
    /// Row `input`: the accumulator's change when the input is on.
    transformer: Box<[[i16; HIDDEN]]>,
    transformer_bias: [i16; HIDDEN],
    /// Per bucket and hidden value: the weights of both accumulators' clipped
    /// values, the side to move's first.
    layer: Box<[[[i16; 2 * HIDDEN]; LAYER2]; BUCKETS]>,
    layer_bias: [[i32; LAYER2]; BUCKETS],
    /// Per bucket: pieces per unit of each hidden sum (the weights of the
    /// file divided by `QA * QB`), in floating point: the output layer is
    /// small, and its weights need more range than its inputs.
    output: [[f32; LAYER2]; BUCKETS],
    output_bias: [f32; BUCKETS],
    /// Centipieces per unit of each hand-made feature, per bucket.
    features: [[i32; FEATURES]; BUCKETS],
}

/// Two networks are equal when their weights are the same, bit for bit.
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        let bits = |network: &Network| {
            (network.output.map(|row| row.map(f32::to_bits)), network.output_bias.map(f32::to_bits))
        };
        self.transformer == other.transformer
            && self.transformer_bias == other.transformer_bias
            && self.layer == other.layer
            && self.layer_bias == other.layer_bias
            && self.features == other.features
            && bits(self) == bits(other)
    }
}

impl Eq for Network {}

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
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }
}

impl Network {
    /// The bytes of a network file: a 32-byte header (`DVONNNET`, then the
    /// version, [`HIDDEN`], [`LAYER2`], [`BUCKETS`], the inputs and the
    /// features as `u32`), then the feature transformer's weights (`i16`,
    /// input by input) and biases (`i16`), each bucket's hidden layer
    /// weights (`i16`, row by row) and biases (`i32`), the output weights
    /// and biases (`f32`, pieces), and the feature weights (`i32`
    /// centipieces), all little-endian. The transformer's values stand for
    /// 1 as 512, the hidden layer's weights as 256.
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
        let unit = 1.0 / (QA * QB) as f32;
        let output = std::array::from_fn(|_| std::array::from_fn(|_| reader.f32() * unit));
        let output_bias = std::array::from_fn(|_| reader.f32());
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

    /// The estimated final margin of `position`, a movement-phase position,
    /// for the side to move, computed from scratch (the search updates its
    /// accumulators instead). Meant for positions where the game goes on.
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
        let mut pieces = self.output_bias[bucket];
        for ((sum, bias), out_weight) in layer::sums(&clipped, &self.layer[bucket])
            .into_iter()
            .zip(&self.layer_bias[bucket])
            .zip(&self.output[bucket])
        {
            pieces += bias.wrapping_add(sum).clamp(0, QA * QB) as f32 * out_weight;
        }
        let hand: i32 = self.features[bucket].iter().zip(features).map(|(w, f)| w * f).sum();
        (pieces * 100.0).round() as i32 + hand
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

/// Whether `cell` holds a stack, and which, seen from `side`: the input.
#[inline(always)]
pub(crate) fn input_of(position: &Position, cell: Cell, side: Color) -> Option<usize> {
    position.stack_at(cell).map(|stack| inputs::input(cell, stack, side))
}
