//! Fitting [`Weights`] to self-play games.
//!
//! The evaluation estimates the final piece margin, so its weights can be
//! fitted directly: play games, record the features of every movement-phase
//! position, and solve the least-squares problem that best predicts each
//! position's final margin (from its side to move's view) from its
//! features. Ridge regularisation keeps rarely-seen features from taking
//! extreme weights. Repeating with the new weights (self-play by the tuned
//! player) is the usual refinement.
//!
//! `dvonn tune` runs this; the fitted weights are [`Weights::TUNED`].

use dvonn_core::{Color, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{FEATURES, Features, Weights, features};
use crate::engine::{Engine, EngineConfig};
use crate::game::{EnginePlayer, Game, PlayedMove, RandomPlayer};
use crate::limits::Limits;
use crate::placement::PlacementStrategy;

/// One training example: the features of a position and the final margin
/// (pieces) of its game for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The features, from the side to move's view.
    pub features: Features,
    /// The final margin of the game, in pieces, for the side to move.
    pub margin: f64,
}

/// How self-play games for tuning are played.
#[derive(Clone, Debug, PartialEq)]
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
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay { games: 200, depth: 3, weights: Weights::TUNED, random_moves: 2, seed: 1 }
    }
}

/// Plays the games of `plan` and returns the samples of all their
/// movement-phase positions. `progress(games done)` is called after each game.
pub fn self_play(plan: &SelfPlay, mut progress: impl FnMut(usize)) -> Vec<Sample> {
    let config = EngineConfig {
        hash_mb: 16,
        weights: plan.weights,
        placement: PlacementStrategy::Heuristic,
        ..EngineConfig::default()
    };
    let engine = Engine::new(config).expect("a 16 MiB table");
    let mut engine = EnginePlayer::new(engine, Limits::depth(plan.depth));
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let mut samples = Vec::new();
    for game in 0..plan.games {
        engine.new_game();
        let mut driver = Game::new(Position::random_setup_from_seed(rng.random()));
        let mut seen: Vec<(Features, Color)> = Vec::new();
        let mut observe = |played: &PlayedMove| {
            let position = &played.before;
            if position.phase() == Phase::Movement && position.legal_moves().len() > 1 {
                seen.push((features(position), position.side_to_move()));
            }
        };
        while driver.history().len() < plan.random_moves {
            if driver.step(&mut RandomPlayer::new(&mut rng), &mut observe).is_none() {
                break;
            }
        }
        let ending = driver.play_out(&mut engine, &mut observe);
        let white_margin = ending.white_margin().expect("the engine never forfeits") as f64;
        samples.extend(seen.into_iter().map(|(features, side)| Sample {
            features,
            margin: if side == Color::White { white_margin } else { -white_margin },
        }));
        progress(game + 1);
    }
    samples
}

/// The result of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    let mut normal = [[0.0; FEATURES]; FEATURES];
    let mut rhs = [0.0; FEATURES];
    for sample in samples {
        let x = sample.features.map(f64::from);
        for i in 0..FEATURES {
            rhs[i] += x[i] * sample.margin;
            for j in 0..FEATURES {
                normal[i][j] += x[i] * x[j];
            }
        }
    }
    for (i, row) in normal.iter_mut().enumerate() {
        row[i] += ridge * samples.len() as f64;
    }
    let solution = solve(normal, rhs)?;
    let weights = Weights(solution.map(|w| (w * 100.0).round() as i32));
    let error = |predict: &dyn Fn(&Sample) -> f64| {
        samples.iter().map(|s| (predict(s) - s.margin).powi(2)).sum::<f64>() / samples.len() as f64
    };
    let mse = error(&|s| f64::from(weights.apply(&s.features)) / 100.0);
    let baseline_mse = error(&|_| 0.0);
    Some(Fit { weights, mse, baseline_mse })
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when the system is singular.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> Option<[f64; FEATURES]> {
    for column in 0..FEATURES {
        let pivot = (column..FEATURES).max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs()))?;
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
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let known: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - known) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_recovers_weights_that_generated_the_margins() {
        let truth = Weights([100, -20, 5, 10, -30, 40, 10, -15, -10, 40, 20]);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let features: Features =
                    std::array::from_fn(|i| if i == FEATURES - 1 { 1 } else { rng.random_range(-20..20) });
                Sample { features, margin: f64::from(truth.apply(&features)) / 100.0 }
            })
            .collect();
        let fit = fit(&samples, 0.0).unwrap();
        assert_eq!(fit.weights, truth);
        assert!(fit.mse < 1e-6 && fit.baseline_mse > 1.0);
    }

    #[test]
    fn self_play_samples_are_movement_positions_with_final_margins() {
        let plan = SelfPlay { games: 2, depth: 1, ..SelfPlay::default() };
        let mut games = 0;
        let samples = self_play(&plan, |n| games = n);
        assert_eq!(games, 2);
        assert!(samples.len() > 10);
        assert!(samples.iter().all(|s| s.margin.abs() <= 49.0 && s.features[FEATURES - 1] == 1));
    }

    #[test]
    fn no_samples_no_fit() {
        assert!(fit(&[], 1.0).is_none());
    }
}
