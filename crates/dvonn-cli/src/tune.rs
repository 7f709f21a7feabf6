//! `dvonn tune`: fit the evaluation weights to self-play games.
//!
//! Plays `--games` self-play games ([`dvonn_ai::eval::tuning::SelfPlayer`]:
//! each game's random choices come from `--seed` and its number alone) on
//! `--threads` threads, then fits the weights to the samples of the games,
//! in the games' order, by ridge-regularised least squares
//! ([`dvonn_ai::eval::tuning::fit`]): the same seed gives the same weights
//! on any number of threads. Prints the mean squared
//! errors, the weights (for the full board, the middle game and the ending)
//! as a table beside those it started from, and as a Rust constant to paste over
//! `Weights::TUNED`. The games start from random setups, or with
//! `--openings FILE` from the boards of a file. Progress
//! goes to standard error. (A run of four games, as below, is far too short
//! for weights worth using.)
//!
//! The games shard as those of `dvonn match` do ([`crate::shard`]): with
//! `--records DIR` every game is kept as a game record (a run again plays
//! only the games not there yet), `--shard K/N` plays the K-th of N parts of
//! the games into DIR without fitting, and `--merge DIR...` fits to the
//! games the shards wrote, exactly as the whole run fits to the same games.
//!
//! ```text
//! $ dvonn tune --games 4 --seed 1
//! samples: 142 positions from 4 games (0.1 s)
//! mean squared error: 28.299 pieces² (predicting a margin of 0: 130.648 pieces²)
//! feature           full  middle     end  full-before  middle-before  end-before
//! material          ...
//! ...
//! pub const TUNED: Weights = Weights {
//!     full_board: [...],
//!     middle_game: [...],
//!     end_game: [...],
//! };
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use dvonn_ai::Weights;
use dvonn_ai::eval::tuning::{Sample, SelfPlay, SelfPlayer, fit, samples};
use dvonn_ai::eval::{FEATURES, Feature};
use dvonn_core::Game;
use dvonn_notation::GameRecord;

use crate::input::read_openings;
use crate::output::GameProgress;
use crate::shard::{
    Flow, GameDir, Manifest, Shard, digest_lines, finished_records, play_games, read_record, read_records, stamp,
};

/// The command whose games a self-play manifest describes.
const COMMAND: &str = "dvonn tune";

/// Arguments of `dvonn tune`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Self-play games (each from its own random setup).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000_000), value_name = "N")]
    games: u32,
    /// Search depth of both players.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20), value_name = "D")]
    depth: u32,
    /// Threads playing games at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// Seed of the setups and random opening moves (each game draws its own from S and its number).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// The players' weights: tuned, hand, pieces, or numbers in the order of the table
    /// (comma-separated): 11 for every board, or 33, the full board's, the middle game's and the
    /// ending's.
    #[arg(long, default_value = "tuned", value_parser = parse_weights, value_name = "w1,...")]
    weights: Weights,
    /// Start the games from the boards in this file, one position string per line, in turn
    /// (blank lines and lines starting with # are skipped) instead of random setups.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Ridge regularisation added to the normal equations (per sample); 0 for plain least squares.
    #[arg(long, default_value_t = 0.01, value_parser = parse_ridge, value_name = "R")]
    ridge: f64,
    /// Random moves at the start of each game, for variety.
    #[arg(long, default_value_t = 2, value_name = "N")]
    random_moves: usize,
    /// Keep every self-play game as a game record in this directory (created if needed); run again
    /// with the same settings, only the games not there yet are played.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Play only the K-th of N disjoint parts of the games (K from 0 to N-1, as SLURM_ARRAY_TASK_ID)
    /// into --records, without fitting.
    #[arg(long, value_name = "K/N", requires = "records")]
    shard: Option<Shard>,
    /// Fit to the games the shards of one run wrote to these directories, instead of playing.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "games", "depth", "threads", "seed", "weights", "openings", "random_moves", "records", "shard",
    ])]
    merge: Option<Vec<PathBuf>>,
}

/// Reads weights: a name or the numbers.
fn parse_weights(text: &str) -> Result<Weights, String> {
    if let Some(weights) = Weights::named(text) {
        return Ok(weights);
    }
    let numbers: Vec<i32> = text
        .split(',')
        .map(|n| n.trim().parse::<i32>().map_err(|_| format!("{:?} is not a whole number", n.trim())))
        .collect::<Result<_, _>>()?;
    if numbers.iter().any(|w| w.unsigned_abs() > 100_000) {
        return Err("a weight above 100000 in size".to_string());
    }
    let array = |numbers: &[i32]| -> [i32; FEATURES] { std::array::from_fn(|i| numbers[i]) };
    match numbers.len() {
        FEATURES => Ok(Weights::flat(array(&numbers))),
        n if n == 3 * FEATURES => Ok(Weights::from_sets(std::array::from_fn(|set| array(&numbers[set * FEATURES..])))),
        n => Err(format!(
            "{n} weights given; the evaluation has {FEATURES} ({}), or three times that for the full board, \
             the middle game and the ending",
            feature_names()
        )),
    }
}

/// Reads the ridge: finite and not negative.
fn parse_ridge(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ridge) if ridge.is_finite() && ridge >= 0.0 => Ok(ridge),
        _ => Err(format!("{text:?} is not a number of 0 or more")),
    }
}

/// The feature names in weight order.
fn feature_names() -> String {
    Feature::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// The weights as a Rust constant.
pub(crate) fn rust_literal(weights: &Weights) -> String {
    let list = |numbers: &[i32; FEATURES]| numbers.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    format!(
        "pub const TUNED: Weights = Weights {{\n    full_board: [{}],\n    middle_game: [{}],\n    end_game: [{}],\n}};",
        list(&weights.full_board),
        list(&weights.middle_game),
        list(&weights.end_game)
    )
}

/// The weights as the manifest writes them: the three sets in order.
fn weights_text(weights: &Weights) -> String {
    weights.sets().into_iter().flatten().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// Runs `dvonn tune`.
pub(crate) fn run(args: &Args) -> Result<()> {
    let started = Instant::now();
    let (games, weights) = match &args.merge {
        Some(dirs) => read_games(dirs)?,
        None => match play(args)? {
            Some(games) => (games, args.weights),
            // A shard: its games are written, the fit is the merge's.
            None => return Ok(()),
        },
    };
    let mut all: Vec<Sample> = Vec::new();
    for (game, played) in &games {
        all.extend(samples(played).with_context(|| format!("game {} is not a game played to its end", game + 1))?);
    }
    if all.is_empty() {
        bail!("the games gave no movement-phase positions to fit");
    }
    let fitted = fit(&all, args.ridge)
        .context("the least-squares system is singular: play more games or use a larger --ridge")?;
    let elapsed = started.elapsed().as_secs_f64();
    outln!("samples: {} positions from {} games ({elapsed:.1} s)", all.len(), games.len())?;
    outln!(
        "mean squared error: {:.3} pieces² (predicting a margin of 0: {:.3} pieces²)",
        fitted.mse,
        fitted.baseline_mse
    )?;
    let width = Feature::ALL.iter().map(|f| f.name().len()).max().unwrap_or(0);
    let headings = ["full", "middle", "end", "full-before", "middle-before", "end-before"];
    let widths = headings.map(|heading| heading.len().max(6));
    let row = |name: &str, cells: [String; 6]| {
        let cells: Vec<String> = cells.iter().zip(widths).map(|(cell, width)| format!("{cell:>width$}")).collect();
        format!("{name:<width$}  {}", cells.join("  "))
    };
    outln!("{}", row("feature", headings.map(String::from)))?;
    let (after, before) = (fitted.weights.sets(), weights.sets());
    for (i, feature) in Feature::ALL.iter().enumerate() {
        let cells = [after[0][i], after[1][i], after[2][i], before[0][i], before[1][i], before[2][i]];
        outln!("{}", row(feature.name(), cells.map(|w| w.to_string())))?;
    }
    outln!("{}", rust_literal(&fitted.weights))?;
    Ok(())
}

/// Plays the self-play games of `args` (or of its shard) not yet in its
/// records directory, writing each there. Returns all the run's games, or
/// `None` for a shard (which prints where its games are).
fn play(args: &Args) -> Result<Option<BTreeMap<usize, Game>>> {
    let games = args.games as usize;
    let openings = args.openings.as_deref().map(read_openings).transpose()?.unwrap_or_default();
    let mut settings = vec![
        ("depth", args.depth.to_string()),
        ("weights", weights_text(&args.weights)),
        ("random-moves", args.random_moves.to_string()),
        ("seed", args.seed.to_string()),
    ];
    if let Some(path) = &args.openings {
        settings.push(("openings", format!("the {} positions of {}", openings.len(), path.display())));
        settings.push(("openings-digest", digest_lines(&openings)));
    }
    let manifest = Manifest::new(COMMAND, games, &settings);
    let plan = SelfPlay::default()
        .with_games(games)
        .with_depth(args.depth)
        .with_weights(args.weights)
        .with_random_moves(args.random_moves)
        .with_seed(args.seed)
        .with_openings(openings);
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let dir = args.records.as_deref().map(|path| GameDir::open(path, &manifest)).transpose()?;
    let mut played: BTreeMap<usize, Game> = BTreeMap::new();
    if let Some(dir) = &dir {
        for (game, record) in finished_records(dir, |game| !shard.owns(game))? {
            played.insert(game, replayed(&record, game)?);
        }
    }
    let found = played.len();
    let to_play: Vec<usize> = shard.games(games).filter(|game| !played.contains_key(game)).collect();
    let progress = GameProgress::new(to_play.len(), "self-play");
    let player = || {
        let mut player = SelfPlayer::new(&plan);
        move |game| Ok(player.play(game))
    };
    let outcome = play_games(&to_play, usize::from(args.threads), player, |game, mut new: Game| {
        progress.tick();
        if let Some(dir) = &dir {
            let record = game_record(&new, game, &manifest);
            if !dir.write(game, &record.to_string())? {
                // Another process played this game meanwhile: its record counts.
                new = replayed(&read_record(&dir.file(game), game, &manifest)?, game)?;
            }
        }
        played.insert(game, new);
        Ok(Flow::Continue)
    });
    progress.finish();
    outcome?;
    if shard.is_whole() {
        return Ok(Some(played));
    }
    let dir = dir.as_ref().map_or_else(String::new, |dir| dir.path().display().to_string());
    outln!(
        "Shard {shard}: {} of the {games} games, {} played now, {found} found in {dir}; \
         `dvonn tune --merge {dir}` fits once every shard has finished",
        played.len(),
        played.len() - found
    )?;
    Ok(None)
}

/// The games of the records directories `dirs` and the weights that
/// played them, for a merge; prints the games missing or found twice.
fn read_games(dirs: &[PathBuf]) -> Result<(BTreeMap<usize, Game>, Weights)> {
    let records = read_records(dirs, COMMAND)?;
    let weights = records.manifest.get("weights").context("the manifest has no weights")?;
    let weights = parse_weights(weights).map_err(|error| anyhow::anyhow!("the manifest's weights: {error}"))?;
    for note in records.notes(&records.missing()) {
        outln!("{note}")?;
    }
    let games =
        records.games.iter().map(|(&game, record)| Ok((game, replayed(record, game)?))).collect::<Result<_>>()?;
    Ok((games, weights))
}

/// The record of self-play game `game` of the run of `manifest`.
fn game_record(played: &Game, game: usize, manifest: &Manifest) -> GameRecord {
    let mut record = GameRecord::from(played);
    record.set_tag("Event", COMMAND);
    stamp(&mut record, game, manifest);
    record
}

/// Self-play game `game` (from 0) replayed from its record, which
/// [`read_record`] accepted.
fn replayed(record: &GameRecord, game: usize) -> Result<Game> {
    record.replay().with_context(|| format!("the record of game {}", game + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_read_names_and_numbers() {
        assert_eq!(parse_weights("hand").unwrap(), Weights::HAND);
        assert_eq!(parse_weights("100,0,0,0,0,0,0,0,0,0,0").unwrap(), Weights::PIECES_ONLY);
        let tapered =
            parse_weights("1,2,3,4,5,6,7,8,9,10,11,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,0,0,0,0,0,0,0,0,0,0,7").unwrap();
        assert_eq!(tapered.full_board, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(tapered.middle_game, tapered.full_board.map(|w| -w));
        assert_eq!(tapered.end_game, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]);
        assert!(parse_weights(&["1"; 22].join(",")).unwrap_err().contains("22 weights given"));
        assert!(parse_weights("1,2,3").unwrap_err().contains("3 weights given"));
        assert!(parse_weights("1,x").is_err());
        assert_eq!(
            rust_literal(&Weights::PIECES_ONLY),
            "pub const TUNED: Weights = Weights {\n    full_board: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n    \
             middle_game: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n    \
             end_game: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n};"
        );
    }
}
