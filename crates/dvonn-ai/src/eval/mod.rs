//! The evaluation: an estimate of the final piece margin for the side to
//! move. The engine judges the movement phase with the [`network`] by
//! default, the placement phase with the [`placement`] patterns; this
//! module's own evaluation, a weighted sum of DVONN features, is the linear
//! evaluation, the baseline and a term of the network.
//!
//! The features ([`Feature`]) measure what decides DVONN endings: material
//! in the stacks a player owns, how much of it the opponent can land on next
//! move, how close it stands to the DVONN pieces (stacks far from them are
//! the first to be cut off), control of DVONN-carrying stacks, mobility
//! (who runs out of moves first), and stacks that can no longer move. The
//! weights ([`Weights`]) depend on how full the board is; they were fitted
//! to the final margins of self-play games (see the `tuning` module, behind
//! the `tuning` feature).

pub mod network;
pub mod placement;
#[cfg(feature = "tuning")]
pub mod placement_tuning;
#[cfg(feature = "tuning")]
pub mod tuning;
mod weights;

pub use network::Network;
pub use placement::PlacementEval;
pub use weights::Weights;

use dvonn_core::cpu::with_fast_bits;
use dvonn_core::{Bitboard, Color, MAX_JUMP, Mobility, Position};

use self::network::accumulator::Accumulator;
use crate::score::Score;

/// The evaluation features, each measured for the side to move minus his
/// opponent (except [`Feature::BestCapture`] and [`Feature::Tempo`], which
/// only the side to move has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// Pieces in the stacks a player owns: the score if the game ended now.
    Material,
    /// Stacks a player owns.
    Stacks,
    /// Jumps a player could make.
    Moves,
    /// Stacks of a player that have at least one jump.
    Movers,
    /// Pieces in a player's stacks that the opponent can land on.
    Attacked,
    /// Stacks a player owns that carry a DVONN piece.
    DvonnControl,
    /// Pieces in a player's stacks next to a DVONN-carrying stack.
    NearDvonn,
    /// Pieces in a player's stacks three or more steps from any DVONN piece.
    FarFromDvonn,
    /// Pieces in a player's stacks that cannot move now.
    Immobile,
    /// The height of the tallest enemy stack the side to move can land on.
    BestCapture,
    /// 1 for the side to move: the value of having the move.
    Tempo,
}

/// Number of features.
pub const FEATURES: usize = 11;

impl Feature {
    /// Every feature, in weight-vector order.
    pub const ALL: [Feature; FEATURES] = [
        Feature::Material,
        Feature::Stacks,
        Feature::Moves,
        Feature::Movers,
        Feature::Attacked,
        Feature::DvonnControl,
        Feature::NearDvonn,
        Feature::FarFromDvonn,
        Feature::Immobile,
        Feature::BestCapture,
        Feature::Tempo,
    ];

    /// A short name, for tables and tuning output.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Material => "material",
            Feature::Stacks => "stacks",
            Feature::Moves => "moves",
            Feature::Movers => "movers",
            Feature::Attacked => "attacked",
            Feature::DvonnControl => "dvonn-control",
            Feature::NearDvonn => "near-dvonn",
            Feature::FarFromDvonn => "far-from-dvonn",
            Feature::Immobile => "immobile",
            Feature::BestCapture => "best-capture",
            Feature::Tempo => "tempo",
        }
    }
}

/// The feature values of a position, from the side to move's view.
pub type Features = [i32; FEATURES];

/// The stacks by height, read once per evaluation, in a form that sums
/// heights with four population counts.
struct Heights {
    /// `bits[b]`: the stacks (of height 1 to 10) whose height has bit `b` set.
    bits: [Bitboard; 4],
    classes: [Bitboard; MAX_JUMP as usize],
    too_tall: Bitboard,
}

impl Heights {
    #[inline(always)]
    fn of(position: &Position) -> Heights {
        let classes: [Bitboard; MAX_JUMP as usize] = std::array::from_fn(|i| position.stacks_of_height(i as u8 + 1));
        let bits = std::array::from_fn(|b| {
            classes.iter().zip(1u32..).filter(|(_, h)| h >> b & 1 != 0).fold(Bitboard::EMPTY, |set, (c, _)| set | *c)
        });
        Heights { bits, classes, too_tall: position.too_tall() }
    }

    /// Pieces in the stacks of `set`.
    #[inline(always)]
    fn pieces_in(&self, position: &Position, set: Bitboard) -> i32 {
        let movable: u32 = self.bits.iter().enumerate().map(|(b, bits)| (set & *bits).len() << b).sum();
        let tall = set & self.too_tall;
        let tall: u32 = if tall.is_empty() { 0 } else { tall.iter().map(|c| u32::from(position.height_at(c))).sum() };
        (movable + tall) as i32
    }

    /// The height of the tallest stack of `set` (0 when empty).
    #[inline(always)]
    fn tallest(&self, position: &Position, set: Bitboard) -> i32 {
        if let Some(tall) = (set & self.too_tall).iter().map(|cell| position.height_at(cell)).max() {
            return i32::from(tall);
        }
        (1..=MAX_JUMP).rev().find(|&h| set.intersects(self.classes[usize::from(h) - 1])).map_or(0, i32::from)
    }
}

/// Computes the features of `position` for the side to move.
///
/// ```
/// use dvonn_ai::eval::{Feature, features};
/// use dvonn_core::Position;
/// let start: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
/// let f = features(&start);
/// assert_eq!(f[Feature::Material as usize], 0, "23 pieces each");
/// assert_eq!(f[Feature::Tempo as usize], 1);
/// ```
pub fn features(position: &Position) -> Features {
    features_and_end(position).0
}

/// The features, and whether the game is over (neither side can move): the
/// mobility the features need answers that question for free. Compiled for
/// the processor's bit instructions ([`with_fast_bits`]): the evaluation
/// counts bits more than anything else.
fn features_and_end(position: &Position) -> (Features, bool) {
    with_fast_bits(
        #[inline(always)]
        || features_and_end_kernel(position),
    )
}

/// [`features_and_end`], for [`with_fast_bits`] to compile.
#[inline(always)]
fn features_and_end_kernel(position: &Position) -> (Features, bool) {
    let me = position.side_to_move();
    let opponent = me.opponent();
    let heights = Heights::of(position);
    let occupied = position.occupied();
    let dvonn = position.dvonn_stacks();
    let near = dvonn.neighbours() & (occupied - dvonn);
    let within_two = dvonn | near | (near.neighbours() & occupied);
    let far = occupied - within_two;
    let mobility = [position.mobility(Color::White), position.mobility(Color::Black)];

    let areas = Areas { dvonn, near, far };
    let (mine, theirs) = (
        side_features(position, &heights, &areas, &mobility, me),
        side_features(position, &heights, &areas, &mobility, opponent),
    );
    let mut features = [0; FEATURES];
    for i in 0..mine.len() {
        features[i] = mine[i] - theirs[i];
    }
    let capturable = position.owned_by(opponent) & mobility[me.index()].targets;
    features[Feature::BestCapture as usize] = heights.tallest(position, capturable);
    features[Feature::Tempo as usize] = 1;
    let over = position.phase() == dvonn_core::Phase::Movement && mobility[0].moves == 0 && mobility[1].moves == 0;
    (features, over)
}

/// The stacks that carry a DVONN piece, those next to one, and those
/// three or more steps from any.
struct Areas {
    dvonn: Bitboard,
    near: Bitboard,
    far: Bitboard,
}

/// The per-player features of `color` (the first nine of [`Feature::ALL`]).
#[inline(always)]
fn side_features(
    position: &Position,
    heights: &Heights,
    areas: &Areas,
    mobility: &[Mobility; 2],
    color: Color,
) -> [i32; 9] {
    let owned = position.owned_by(color);
    let mine = mobility[color.index()];
    let theirs = mobility[color.opponent().index()];
    [
        heights.pieces_in(position, owned),
        owned.len() as i32,
        mine.moves as i32,
        mine.movers.len() as i32,
        heights.pieces_in(position, owned & theirs.targets),
        (owned & areas.dvonn).len() as i32,
        heights.pieces_in(position, owned & areas.near),
        heights.pieces_in(position, owned & areas.far),
        heights.pieces_in(position, owned - mine.movers),
    ]
}

/// The score of a finished game for the side to move: the final margin.
pub fn final_margin(position: &Position) -> Score {
    let me = position.side_to_move();
    Score::from_pieces(position.pieces(me) as i32 - position.pieces(me.opponent()) as i32)
}

/// How the movement phase is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MovementEval {
    /// By this evaluation network (the engine's own: [`Network::shipped`]).
    Network(&'static Network),
    /// By the linear evaluation with these weights.
    Linear(Weights),
}

impl Default for MovementEval {
    /// The shipped network.
    fn default() -> MovementEval {
        MovementEval::Network(Network::shipped())
    }
}

/// An evaluation function: the [`network`] or the linear sum of
/// features weighted by [`Weights`] for the movement phase, and the
/// [placement evaluation](placement) for the placement phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluator {
    weights: Weights,
    placement: PlacementEval,
    network: Option<&'static Network>,
}

impl Default for Evaluator {
    /// The shipped network.
    fn default() -> Evaluator {
        Evaluator::network(Network::shipped())
    }
}

impl Evaluator {
    /// The linear evaluation with these weights, and the default placement
    /// evaluation.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights, placement: PlacementEval::default(), network: None }
    }

    /// The evaluation by `network` in the movement phase, and the default
    /// placement evaluation.
    pub fn network(network: &'static Network) -> Evaluator {
        Evaluator { network: Some(network), ..Evaluator::new(Weights::TUNED) }
    }

    /// The evaluator of `movement` in the movement phase, and the default
    /// placement evaluation.
    pub fn of(movement: MovementEval) -> Evaluator {
        match movement {
            MovementEval::Network(network) => Evaluator::network(network),
            MovementEval::Linear(weights) => Evaluator::new(weights),
        }
    }

    /// This evaluator with another placement evaluation.
    pub fn with_placement(self, placement: PlacementEval) -> Evaluator {
        Evaluator { placement, ..self }
    }

    /// The weights of the linear evaluation.
    pub const fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The network, when this is the network evaluation.
    pub const fn network_used(&self) -> Option<&'static Network> {
        self.network
    }

    /// The estimated final margin for the side to move. Meant for positions
    /// where the game goes on; see [`final_margin`] for finished ones.
    pub fn evaluate(&self, position: &Position) -> Score {
        match self.network {
            _ if position.phase() == dvonn_core::Phase::Placement => self.placement.evaluate(position),
            Some(network) => network.evaluate(position),
            None => Score::from_centipieces(self.weights.apply(&features(position), position.occupied().len())),
        }
    }

    /// The value of a search leaf: the final margin, proven, when the game
    /// is over; the evaluation otherwise. `accumulator` is the position's,
    /// for the network (computed only when needed).
    pub(crate) fn evaluate_leaf<'a>(
        &self,
        position: &Position,
        accumulator: impl FnOnce() -> &'a Accumulator,
    ) -> (Score, bool) {
        if position.phase() == dvonn_core::Phase::Placement {
            return (self.placement.evaluate(position), false);
        }
        let (features, over) = features_and_end(position);
        if over {
            return (final_margin(position), true);
        }
        let centipieces = match self.network {
            Some(network) => network.evaluate_with(accumulator(), position, &features),
            None => self.weights.apply(&features, position.occupied().len()),
        };
        (Score::from_centipieces(centipieces), false)
    }

    /// [`Evaluator::evaluate_leaf`], with the accumulator computed from
    /// scratch: the reference the search's incremental one must agree with.
    #[cfg(test)]
    pub(crate) fn evaluate_leaf_from_scratch(&self, position: &Position) -> (Score, bool) {
        let accumulator = self.network.map(|network| network.accumulator(position));
        self.evaluate_leaf(position, || accumulator.as_ref().expect("an accumulator for the network"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_antisymmetric_in_the_side_to_move() {
        // The same board with the other side to move negates every
        // difference feature.
        let white: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m".parse().unwrap();
        let black: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B b m".parse().unwrap();
        let (fw, fb) = (features(&white), features(&black));
        for feature in &Feature::ALL[..9] {
            let i = *feature as usize;
            assert_eq!(fw[i], -fb[i], "{}", feature.name());
        }
    }

    #[test]
    fn material_and_threats_count_stack_heights() {
        // White C3 (one piece) can land on Black's D3 (two pieces); Black's
        // stack is too tall to reach anything.
        let position: Position = "........./........../..WB2D....../........../......... w m".parse().unwrap();
        let f = features(&position);
        assert_eq!(f[Feature::Material as usize], 1 - 2);
        assert_eq!(f[Feature::Attacked as usize], -2);
        assert_eq!(f[Feature::BestCapture as usize], 2);
        assert_eq!(f[Feature::Moves as usize], 1);
        assert_eq!(f[Feature::NearDvonn as usize], -2, "B2 touches the DVONN piece, W does not");
    }
}
