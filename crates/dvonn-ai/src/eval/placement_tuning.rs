//! Fitting the [placement evaluation](super::placement) to labelled
//! placement phases.
//!
//! A training game is a whole placement phase, its 49 cells in the order
//! they were filled, labelled with White's margin as a deep search of the
//! finished board judges it ([`generate`]). Every position along the way
//! (from the fourth placement on) is a sample of that label: the fit
//! ([`fit`]) asks the evaluation of each prefix to predict how the board
//! turned out, by stochastic gradient descent (Adam) on the squared error,
//! each game seen under one of the board's four symmetries per epoch.
//!
//! The placements of a training game come from a [`PlacementPolicy`]:
//! uniformly random, or the engine's own search with the current weights
//! and a share of random placements for variety. Fitting to the engine's
//! own games and fitting again is policy iteration: each round's weights
//! judge boards like those the engine now aims for.
//!
//! `dvonn tune-placement` runs both steps; the shipped weights are its
//! output (`docs/ENGINE.md` gives the procedure and which round is shipped).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use dvonn_core::{Cell, Game, Move, Phase, Position};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::placement::{ActiveFeatures, FEATURE_COUNT, PlacementEval, PlacementWeights, active_features, map_cell};
use crate::engine::{Engine, EngineConfig};
use crate::game::{EnginePlayer, Player, Referee};
use crate::limits::Limits;
use crate::observer::SearchInfo;
use crate::placement::PlacementStrategy;

/// A finished placement phase and how good it is for White.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelledPlacement {
    /// The cells in the order they were filled (the first three hold the
    /// DVONN pieces).
    pub cells: [Cell; 49],
    /// White's margin in pieces, by a search of the finished board.
    pub white_margin: f32,
}

/// Why a line of a training file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LabelledPlacementError {
    /// The cells are not 49 distinct cell names.
    #[error("expected the 49 cells of a placement phase, each once, as one word of cell names")]
    Cells,
    /// The label is missing or not a number.
    #[error("expected White's margin (a number) after the cells")]
    Label,
}

impl fmt::Display for LabelledPlacement {
    /// The cells as one word (`E3F3D4...`), a space, the label.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in &self.cells {
            write!(f, "{cell}")?;
        }
        write!(f, " {}", self.white_margin)
    }
}

impl FromStr for LabelledPlacement {
    type Err = LabelledPlacementError;

    /// Reads the [`Display`](fmt::Display) form; words after the label are
    /// ignored.
    fn from_str(line: &str) -> Result<LabelledPlacement, LabelledPlacementError> {
        let mut words = line.split_whitespace();
        let cells_word = words.next().ok_or(LabelledPlacementError::Cells)?;
        if cells_word.len() != 98 || !cells_word.is_ascii() {
            return Err(LabelledPlacementError::Cells);
        }
        let mut cells = [Cell::ALL[0]; 49];
        let mut seen = 0u64;
        for (i, slot) in cells.iter_mut().enumerate() {
            let cell: Cell = cells_word[2 * i..2 * i + 2].parse().map_err(|_| LabelledPlacementError::Cells)?;
            if seen & (1 << cell.index()) != 0 {
                return Err(LabelledPlacementError::Cells);
            }
            seen |= 1 << cell.index();
            *slot = cell;
        }
        let white_margin = words
            .next()
            .and_then(|word| word.parse::<f32>().ok())
            .filter(|m| m.is_finite())
            .ok_or(LabelledPlacementError::Label)?;
        Ok(LabelledPlacement { cells, white_margin })
    }
}

/// How the placements of training games are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlacementPolicy {
    /// Uniformly random empty cells.
    Random,
    /// The engine's search to `depth` with the given placement evaluation;
    /// a uniformly random cell instead with probability `random_share`
    /// (and at least half the time for the three DVONN pieces).
    Engine {
        /// Search depth of each placement.
        depth: u32,
        /// Share of random placements.
        random_share: f64,
        /// The evaluation the search uses.
        eval: PlacementEval,
    },
}

/// A plan for [`generate`].
///
/// New settings may be added in any release: start from
/// [`Generation::default()`] (1000 random placement phases labelled at
/// depth 6) and chain the `with_*` setters, or set the fields of a mutable
/// value.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Generation {
    /// Games to play.
    pub games: usize,
    /// Who places.
    pub policy: PlacementPolicy,
    /// Depth of the search that labels each finished board.
    pub label_depth: u32,
    /// Seed of the random choices.
    pub seed: u64,
}

impl Default for Generation {
    fn default() -> Generation {
        Generation { games: 1000, policy: PlacementPolicy::Random, label_depth: 6, seed: 1 }
    }
}

setters! {
    impl Generation {
        /// Sets the number of games.
        with_games(games: usize);
        /// Sets who places.
        with_policy(policy: PlacementPolicy);
        /// Sets the depth of the search that labels each finished board.
        with_label_depth(label_depth: u32);
        /// Sets the seed of the random choices.
        with_seed(seed: u64);
    }
}

/// Chooses the placements of training games by a [`PlacementPolicy`].
#[derive(Debug)]
struct Placer {
    rng: ChaCha8Rng,
    /// The engine and its share of random placements, unless every
    /// placement is random.
    engine: Option<(EnginePlayer, f64)>,
}

impl Player for Placer {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        let position = game.position();
        let empty = !position.occupied();
        if let Some((engine, share)) = &mut self.engine {
            let share = if position.placed() < 3 { share.max(0.5) } else { *share };
            if empty.len() > 1
                && !self.rng.random_bool(share)
                && let Ok(placement @ Move::Place(_)) = engine.choose(game, time_left)
            {
                return Ok(placement);
            }
        }
        let cell = empty.iter().nth(self.rng.random_range(0..empty.len() as usize));
        cell.map(Move::Place).ok_or_else(|| "no empty cell to place on".to_string())
    }
}

/// Plays the placement phases of `plan` and labels each finished board
/// with a search to `plan.label_depth`. `progress(games done)` is called
/// after each game.
pub fn generate(plan: &Generation, mut progress: impl FnMut(usize)) -> Vec<LabelledPlacement> {
    let mut config = EngineConfig::default().with_hash_mb(16).with_seed(plan.seed);
    let engine = match plan.policy {
        PlacementPolicy::Random => None,
        PlacementPolicy::Engine { depth, random_share, eval } => {
            config.placement = PlacementStrategy::Search;
            config.placement_eval = eval;
            let engine = Engine::new(config.clone()).expect("a 16 MiB table");
            Some((EnginePlayer::new(engine, Limits::depth(depth)), random_share))
        }
    };
    let mut placer = Placer { rng: ChaCha8Rng::seed_from_u64(plan.seed), engine };
    let mut labeller = Engine::new(config).expect("a 16 MiB table");
    let mut games = Vec::with_capacity(plan.games);
    for game in 0..plan.games {
        if let Some((engine, _)) = &mut placer.engine {
            engine.new_game();
        }
        let mut referee = Referee::new(Position::new());
        while referee.position().phase() == Phase::Placement {
            referee.step(&mut placer, &mut ()).expect("a placement-phase board has an empty cell");
        }
        let mut cells = [Cell::ALL[0]; 49];
        for (slot, played) in cells.iter_mut().zip(referee.game().plies()) {
            *slot = played.mv.to().expect("a placement");
        }
        labeller.new_game();
        let mut white_margin = 0.0;
        // The finished board has White to move: the search's score is White's.
        labeller.search(referee.position(), &Limits::depth(plan.label_depth), &mut |info: &SearchInfo| {
            white_margin = info.score.pieces() as f32;
        });
        games.push(LabelledPlacement { cells, white_margin });
        progress(game + 1);
    }
    games
}

/// How [`fit`] runs.
///
/// New settings may be added in any release: start from
/// [`Fit::default()`] and chain the `with_*` setters, or set the fields of
/// a mutable value.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Fit {
    /// Passes over the training games.
    pub epochs: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Games per gradient step.
    pub batch: usize,
    /// Share of the games kept aside to measure the error on.
    pub validation_share: f64,
    /// Seed of the shuffles and the validation split.
    pub seed: u64,
}

impl Default for Fit {
    fn default() -> Fit {
        Fit { epochs: 3, learning_rate: 0.003, batch: 16, validation_share: 0.05, seed: 1 }
    }
}

setters! {
    impl Fit {
        /// Sets the passes over the training games.
        with_epochs(epochs: usize);
        /// Sets Adam's step size.
        with_learning_rate(learning_rate: f32);
        /// Sets the games per gradient step.
        with_batch(batch: usize);
        /// Sets the share of the games kept aside to measure the error on.
        with_validation_share(validation_share: f64);
        /// Sets the seed of the shuffles and the validation split.
        with_seed(seed: u64);
    }
}

/// The mean squared errors of one epoch, in pieces squared.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EpochReport {
    /// Over the training samples, while they were being fitted.
    pub training: f64,
    /// Over the validation games, every prefix.
    pub validation: f64,
    /// Over the validation games, by the number of pieces placed (0 to 48;
    /// the first three are not samples).
    pub validation_by_placed: [f64; 49],
}

/// Fits placement weights to `games` (see the module documentation),
/// starting from zero. `progress(epoch report)` is called after each
/// epoch. Returns the weights and the reports.
pub fn fit(games: &[LabelledPlacement], plan: &Fit, mut progress: impl FnMut(&EpochReport)) -> PlacementWeights {
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.shuffle(&mut rng);
    let validation_count = ((games.len() as f64 * plan.validation_share) as usize).min(games.len().saturating_sub(1));
    let (validation, training) = order.split_at(validation_count);
    let mut training = training.to_vec();
    let mut weights = PlacementWeights::zero();
    let mut adam = Adam::new(FEATURE_COUNT);
    let mut gradient = vec![0.0f32; FEATURE_COUNT];
    let mut touched: Vec<u32> = Vec::new();
    for _ in 0..plan.epochs {
        training.shuffle(&mut rng);
        let (mut squared, mut samples) = (0.0f64, 0usize);
        for (step, &game) in training.iter().enumerate() {
            let game = &games[game];
            let symmetry = rng.random_range(0..4);
            for_each_prefix(game, symmetry, |_, features| {
                let error = weights.white_margin(features) - game.white_margin;
                squared += f64::from(error * error);
                samples += 1;
                for &feature in features.iter() {
                    let slot = &mut gradient[feature as usize];
                    if *slot == 0.0 {
                        touched.push(feature);
                    }
                    *slot += error;
                }
            });
            if (step + 1) % plan.batch.max(1) == 0 || step + 1 == training.len() {
                adam.step(weights.as_mut_slice(), &mut gradient, &touched, plan.learning_rate);
                touched.clear();
            }
        }
        let report = validate(games, validation, &weights, squared / samples.max(1) as f64);
        progress(&report);
    }
    weights
}

/// The errors of `weights` on the games of `validation`.
fn validate(
    games: &[LabelledPlacement],
    validation: &[usize],
    weights: &PlacementWeights,
    training: f64,
) -> EpochReport {
    let mut by_placed = [0.0f64; 49];
    let mut total = 0.0;
    let mut samples = 0usize;
    for &game in validation {
        let game = &games[game];
        for_each_prefix(game, 0, |placed, features| {
            let error = f64::from(weights.white_margin(features) - game.white_margin);
            by_placed[placed] += error * error;
            total += error * error;
            samples += 1;
        });
    }
    let games = validation.len().max(1) as f64;
    EpochReport {
        training,
        validation: total / samples.max(1) as f64,
        validation_by_placed: by_placed.map(|sum| sum / games),
    }
}

/// Calls `visit(pieces placed, features)` for every position of `game`
/// from the fourth placement on, the board seen under `symmetry`.
fn for_each_prefix(game: &LabelledPlacement, symmetry: usize, mut visit: impl FnMut(usize, &ActiveFeatures)) {
    let mut position = Position::new();
    let mut features = ActiveFeatures::new();
    for (placed, &cell) in game.cells.iter().enumerate() {
        if placed >= 3 {
            active_features(&position, &mut features);
            visit(placed, &features);
        }
        position.play_unchecked(Move::Place(map_cell(symmetry, cell)));
    }
}

/// Adam's moment estimates, updated only where the gradient is non-zero
/// (most features are absent from most batches).
struct Adam {
    mean: Vec<f32>,
    variance: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(size: usize) -> Adam {
        Adam { mean: vec![0.0; size], variance: vec![0.0; size], steps: 0 }
    }

    /// One step on the weights of `touched`, whose gradients it clears.
    fn step(&mut self, weights: &mut [f32], gradient: &mut [f32], touched: &[u32], learning_rate: f32) {
        self.steps += 1;
        let mean_correction = 1.0 - Adam::BETA1.powi(self.steps);
        let variance_correction = 1.0 - Adam::BETA2.powi(self.steps);
        for &i in touched {
            let i = i as usize;
            let g = std::mem::take(&mut gradient[i]);
            self.mean[i] = Adam::BETA1 * self.mean[i] + (1.0 - Adam::BETA1) * g;
            self.variance[i] = Adam::BETA2 * self.variance[i] + (1.0 - Adam::BETA2) * g * g;
            let mean = self.mean[i] / mean_correction;
            let variance = self.variance[i] / variance_correction;
            weights[i] -= learning_rate * mean / (variance.sqrt() + Adam::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_explained() {
        let mut cells = Cell::ALL;
        cells.reverse();
        let game = LabelledPlacement { cells, white_margin: -2.5 };
        let line = game.to_string();
        assert_eq!(line.parse::<LabelledPlacement>(), Ok(game));
        assert_eq!(format!("{line} extra words").parse::<LabelledPlacement>(), Ok(game));
        assert_eq!("E3 1.0".parse::<LabelledPlacement>(), Err(LabelledPlacementError::Cells));
        let repeated = line.replacen(&line[2..4], &line[0..2], 1);
        assert_eq!(repeated.parse::<LabelledPlacement>(), Err(LabelledPlacementError::Cells));
        assert_eq!(line.replace("-2.5", "x").parse::<LabelledPlacement>(), Err(LabelledPlacementError::Label));
        assert_eq!(line[..98].parse::<LabelledPlacement>(), Err(LabelledPlacementError::Label));
    }

    #[test]
    fn generated_games_fill_the_board_and_carry_a_search_label() {
        let plan = Generation::default().with_games(3).with_label_depth(2).with_seed(4);
        let mut done = 0;
        let games = generate(&plan, |n| done = n);
        assert_eq!((games.len(), done), (3, 3));
        for game in &games {
            let mut position = Position::new();
            for cell in game.cells {
                position.play(Move::Place(cell)).unwrap();
            }
            assert_eq!(position.phase(), Phase::Movement);
            assert!(game.white_margin.abs() < 49.0);
        }
        let engine = PlacementPolicy::Engine { depth: 1, random_share: 0.2, eval: PlacementEval::default() };
        let games = generate(&plan.with_policy(engine), |_| {});
        assert_eq!(games.len(), 3);
    }

    #[test]
    fn a_fit_learns_a_label_that_the_features_explain() {
        // Label: White's margin grows with the white pieces on the rim
        // cells, a sum of pattern features the fit can represent.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let games: Vec<LabelledPlacement> = (0..400)
            .map(|_| {
                let mut cells = Cell::ALL;
                cells.shuffle(&mut rng);
                let white_on_rim =
                    cells[3..].iter().enumerate().filter(|(i, c)| i % 2 == 1 && !c.is_interior()).count();
                LabelledPlacement { cells, white_margin: white_on_rim as f32 - 6.0 }
            })
            .collect();
        let mean = games.iter().map(|g| f64::from(g.white_margin)).sum::<f64>() / games.len() as f64;
        let variance =
            games.iter().map(|g| (f64::from(g.white_margin) - mean).powi(2)).sum::<f64>() / games.len() as f64;
        let mut reports = Vec::new();
        fit(&games, &Fit::default().with_epochs(6).with_validation_share(0.1), |r| reports.push(r.clone()));
        let (first, last) = (&reports[0], &reports[reports.len() - 1]);
        assert!(last.validation < first.validation, "{first:?} {last:?}");
        // Near the end only the last white piece is unknown: most of the
        // label's variance is explained.
        let late = last.validation_by_placed[48];
        assert!(late < 0.75 * variance, "{late} of {variance}");
        assert!(late < last.validation_by_placed[3], "{last:?}");
    }
}
