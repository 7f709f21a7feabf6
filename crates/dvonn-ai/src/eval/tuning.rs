//! Fitting [`Weights`] to self-play games.
//!
//! The evaluation estimates the final piece margin, so its weights can be
//! fitted directly: play games, record the features of every movement-phase
//! position, and solve the least-squares problem that best predicts each
//! position's final margin (from its side to move's view) from its
//! features. Each feature enters the fit three times, scaled by the share
//! of each set of weights in the position's mix (see [`Weights`]), which
//! gives the three sets of tapered weights at once.
//! Ridge regularisation keeps rarely-seen features from taking extreme
//! weights. Repeating with the new weights (self-play by the tuned player)
//! is the usual refinement.
//!
//! `dvonn tune` runs this; the fitted weights are [`Weights::TUNED`]. The
//! games start from random setups or from given boards: boards reached by
//! real placement phases teach the weights the positions that games
//! actually reach. Each game's random choices come from the plan's seed
//! and the game's number alone ([`SelfPlayer::play`]), so the games can be
//! played in any order, on any number of threads or machines, and kept as
//! records (a [`Game`] each, its [`samples`] taken when it is fitted) to
//! fit later.

use dvonn_core::{Color, Game, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::weights::Mix;
use super::{FEATURES, Features, MovementEval, Weights, features};
use crate::engine::{Engine, EngineConfig};
use crate::game::{EnginePlayer, RandomPlayer, Referee};
use crate::limits::Limits;
use crate::placement::PlacementStrategy;

/// Unknowns of the fit: each weight in each of the three sets.
const UNKNOWNS: usize = 3 * FEATURES;

/// One training example: the features of a position and the final margin
/// (pieces) of its game for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The features, from the side to move's view.
    pub features: Features,
    /// The occupied cells of the position.
    pub occupied: u32,
    /// The final margin of the game, in pieces, for the side to move.
    pub margin: f64,
}

/// How self-play games for tuning are played.
///
/// New settings may be added in any release: start from
/// [`SelfPlay::default()`] and chain the `with_*` setters, or set the
/// fields of a mutable value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SelfPlay {
    /// Games to play (each from its own random setup).
    pub games: usize,
    /// Search depth of both players.
    pub depth: u32,
    /// The players' weights.
    pub weights: Weights,
    /// Random moves at the start of each game, for variety.
    pub random_moves: usize,
    /// Seed of the setups and random moves.
    pub seed: u64,
    /// The boards the games start from, in turn; random setups when empty.
    pub openings: Vec<Position>,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay { games: 200, depth: 3, weights: Weights::TUNED, random_moves: 2, seed: 1, openings: Vec::new() }
    }
}

setters! {
    impl SelfPlay {
        /// Sets the number of games.
        with_games(games: usize);
        /// Sets the search depth of both players.
        with_depth(depth: u32);
        /// Sets the players' weights.
        with_weights(weights: Weights);
        /// Sets the number of random moves at the start of each game.
        with_random_moves(random_moves: usize);
        /// Sets the seed of the setups and random moves.
        with_seed(seed: u64);
    }
}

impl SelfPlay {
    /// Sets the boards the games start from, in turn (random setups when
    /// empty).
    #[must_use]
    pub fn with_openings(mut self, openings: Vec<Position>) -> SelfPlay {
        self.openings = openings;
        self
    }
}

/// The samples of a self-play game (played, or replayed from its record):
/// every movement-phase position with more than one legal move, labelled
/// with the game's final margin for its side to move. `None` when the game
/// did not end by the rules (unfinished, or resigned).
pub fn samples(game: &Game) -> Option<Vec<Sample>> {
    let white_margin = game.outcome().white_margin()? as f64;
    // Every position a move was played in, but the forced ones.
    let seen = game.positions()[..game.len()]
        .iter()
        .filter(|position| position.phase() == Phase::Movement && position.legal_moves().len() > 1);
    Some(
        seen.map(|position| Sample {
            features: features(position),
            occupied: position.occupied().len(),
            margin: if position.side_to_move() == Color::White { white_margin } else { -white_margin },
        })
        .collect(),
    )
}

/// Plays the games of a [`SelfPlay`] plan, one at a time, by number.
#[derive(Debug)]
pub struct SelfPlayer {
    plan: SelfPlay,
    engine: EnginePlayer,
}

impl SelfPlayer {
    /// A player of `plan`'s games (its engine has a 16 MiB table and the
    /// linear evaluation with the plan's weights).
    pub fn new(plan: &SelfPlay) -> SelfPlayer {
        let config = EngineConfig::default()
            .with_hash_mb(16)
            .with_movement_eval(MovementEval::Linear(plan.weights))
            .with_placement(PlacementStrategy::Heuristic);
        let engine = Engine::new(config).expect("a 16 MiB table");
        SelfPlayer { plan: plan.clone(), engine: EnginePlayer::new(engine, Limits::depth(plan.depth)) }
    }

    /// Plays game `game` (from 0) of the plan. Its start (the board
    /// `openings[game % len]`, or a random setup) and random moves come
    /// from the plan's seed and `game` alone, and the engine forgets the
    /// games before: the same game whichever games were played before it.
    pub fn play(&mut self, game: usize) -> Game {
        let mut rng = ChaCha8Rng::seed_from_u64(self.plan.seed);
        rng.set_stream(game as u64);
        self.engine.new_game();
        let start = match self.plan.openings.get(game % self.plan.openings.len().max(1)) {
            Some(opening) => *opening,
            None => Position::random_setup_from_seed(rng.random()),
        };
        let mut referee = Referee::new(start);
        while referee.game().len() < self.plan.random_moves {
            if referee.step(&mut RandomPlayer::new(&mut rng), &mut ()).is_none() {
                break;
            }
        }
        referee.play_out(&mut self.engine, &mut ());
        assert!(referee.forfeit().is_none(), "the engine never forfeits");
        referee.game().clone()
    }
}

/// Plays the games of `plan` and returns the samples of all their
/// movement-phase positions, game after game. `progress(games done)` is
/// called after each game.
pub fn self_play(plan: &SelfPlay, mut progress: impl FnMut(usize)) -> Vec<Sample> {
    let mut player = SelfPlayer::new(plan);
    let mut all = Vec::new();
    for game in 0..plan.games {
        all.extend(samples(&player.play(game)).expect("a self-play game ends by the rules"));
        progress(game + 1);
    }
    all
}

/// The result of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Fit {
    /// The fitted weights (centipieces per feature unit).
    pub weights: Weights,
    /// Mean squared error of the fitted prediction, in pieces squared.
    pub mse: f64,
    /// Mean squared error of predicting every margin as 0, for comparison.
    pub baseline_mse: f64,
}

/// The ridge-regularised least-squares weights predicting `samples`'
/// margins from their features (`ridge` is added to the diagonal of the
/// normal equations, in units of squared feature values per sample).
pub fn fit(samples: &[Sample], ridge: f64) -> Option<Fit> {
    if samples.is_empty() {
        return None;
    }
    let mut normal = [[0.0; UNKNOWNS]; UNKNOWNS];
    let mut rhs = [0.0; UNKNOWNS];
    for sample in samples {
        let x = tapered_columns(sample);
        for i in 0..UNKNOWNS {
            rhs[i] += x[i] * sample.margin;
            for j in 0..UNKNOWNS {
                normal[i][j] += x[i] * x[j];
            }
        }
    }
    for (i, row) in normal.iter_mut().enumerate() {
        row[i] += ridge * samples.len() as f64;
    }
    let solution = solve(normal, rhs)?;
    let centipieces = |w: f64| (w * 100.0).round() as i32;
    let weights = Weights::from_sets(std::array::from_fn(|set| {
        std::array::from_fn(|i| centipieces(solution[set * FEATURES + i]))
    }));
    let error = |predict: &dyn Fn(&Sample) -> f64| {
        samples.iter().map(|s| (predict(s) - s.margin).powi(2)).sum::<f64>() / samples.len() as f64
    };
    let mse = error(&|s| f64::from(weights.apply(&s.features, s.occupied)) / 100.0);
    let baseline_mse = error(&|_| 0.0);
    Some(Fit { weights, mse, baseline_mse })
}

/// The columns of a sample in the fit: its features scaled by the share of
/// each set of weights in turn, as [`Weights::apply`] mixes them.
fn tapered_columns(sample: &Sample) -> [f64; UNKNOWNS] {
    let shares = Mix::of(sample.occupied).shares();
    std::array::from_fn(|i| f64::from(sample.features[i % FEATURES]) * shares[i / FEATURES])
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when the system is singular.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for column in 0..N {
        let pivot = (column..N).max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs()))?;
        if a[pivot][column].abs() < 1e-12 {
            return None;
        }
        a.swap(column, pivot);
        b.swap(column, pivot);
        let (done, rest) = a.split_at_mut(column + 1);
        let pivot_row = &done[column];
        for (offset, row) in rest.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (value, pivot_value) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *value -= factor * pivot_value;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let known: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - known) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Author;

    #[test]
    fn a_fit_recovers_weights_that_generated_the_margins() {
        let truth = Weights {
            full_board: [100, -20, 5, 10, -30, 40, 10, -15, -10, 40, 20],
            middle_game: [80, 0, 10, 5, -20, 60, 5, -30, 5, 30, -20],
            end_game: [60, 30, -5, 0, -10, 90, 0, -45, 20, 10, -70],
        };
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let features: Features =
                    std::array::from_fn(|i| if i == FEATURES - 1 { 1 } else { rng.random_range(-20..20) });
                // Board sizes where one set holds alone, so that the
                // integer sums are exact and the fit can recover the truth.
                let occupied = [49, 30, 10, 4][rng.random_range(0..4)];
                let margin = f64::from(truth.apply(&features, occupied)) / 100.0;
                Sample { features, occupied, margin }
            })
            .collect();
        let fit = fit(&samples, 0.0).unwrap();
        assert_eq!(fit.weights, truth);
        // Only the rounding of the tapered sum to whole centipieces is left.
        assert!(fit.mse < 1e-4 && fit.baseline_mse > 1.0, "{fit:?}");
    }

    #[test]
    fn self_play_samples_are_movement_positions_with_final_margins() {
        let plan = SelfPlay::default().with_games(2).with_depth(1);
        let mut games = 0;
        let samples = self_play(&plan, |n| games = n);
        assert_eq!(games, 2);
        assert!(samples.len() > 10);
        assert!(samples.iter().all(|s| s.margin.abs() <= 49.0 && s.features[FEATURES - 1] == 1));
        assert!(samples.iter().all(|s| s.occupied <= 49) && samples[0].occupied == 49);
    }

    #[test]
    fn self_play_starts_from_the_given_boards() {
        let board = Position::random_setup_from_seed(5);
        let plan = SelfPlay::default().with_games(2).with_depth(1).with_random_moves(0).with_openings(vec![board]);
        let (first, second) = (self_play(&plan, |_| ()), self_play(&plan, |_| ()));
        assert_eq!(first[0].features, features(&board));
        assert_eq!(first, second, "the same board and no random moves: the same games");
    }

    #[test]
    fn a_game_is_the_same_whatever_was_played_before() {
        let plan = SelfPlay::default().with_depth(1).with_seed(4);
        let mut player = SelfPlayer::new(&plan);
        let third = player.play(2);
        let mut other = SelfPlayer::new(&plan);
        assert_ne!(other.play(0), third);
        assert_eq!(other.play(2), third);
        assert_eq!(SelfPlayer::new(&plan).play(2), third);
        let game_samples = samples(&third).unwrap();
        assert!(!game_samples.is_empty());
        // A game cut short, or resigned, has no samples.
        let mut short = third.clone();
        short.truncate(third.len() - 1);
        assert_eq!(samples(&short), None);
        short.play(third.plies()[third.len() - 1].mv, Author::Record).unwrap();
        assert_eq!(samples(&short), Some(game_samples));
        let mut resigned = third.clone();
        resigned.truncate(third.len() - 1);
        assert!(resigned.resign(Color::White));
        assert_eq!(samples(&resigned), None);
        // self_play is the games in order.
        let plan = plan.with_games(3);
        let all: Vec<Sample> = (0..3).flat_map(|game| samples(&SelfPlayer::new(&plan).play(game)).unwrap()).collect();
        assert_eq!(self_play(&plan, |_| ()), all);
    }

    #[test]
    fn no_samples_no_fit() {
        assert!(fit(&[], 1.0).is_none());
    }
}
