//! `dvonn tune-net`: make the training data of the network evaluation.
//!
//! Two steps, the first sharded as `dvonn match` and `dvonn tune` are
//! ([`crate::shard`]):
//!
//! - `generate` plays self-play games ([`dvonn_ai::eval::network::data`])
//!   into a records directory: each game a game record whose comments hold
//!   the search of each position, `{score -1.25 depth 5}` after the move it
//!   chose (`exact` after the score when the search proved it). `--shard
//!   K/N` plays the K-th of N parts of the games; a run again plays only
//!   the games not there yet.
//! - `data` reads the games of one run from the directories its shards
//!   wrote, names the games missing, and writes the positions with their
//!   search scores and final margins in the binary form the trainer
//!   (`train/` in the repository) reads. With `--label-depth D` it first
//!   searches every movement position again to depth `D`
//!   ([`search_again`]): labels from deeper searches than the games'.
//!
//! ```text
//! $ dvonn tune-net generate --games 20000 --depth 5 --threads 2 --seed 1 --records games/
//! $ dvonn tune-net data games/ -o games.dat
//! $ dvonn tune-net data games/ -o games-d8.dat --label-depth 8 --threads 2
//! ```

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use dvonn_ai::Score;
use dvonn_ai::eval::network::data::{DataPlan, HEADER, RECORD_BYTES, Record, Searched, records, search_again};
use dvonn_core::Game;
use dvonn_notation::GameRecord;

use dvonn_ai::eval::Network;
use dvonn_ai::{Engine, EngineConfig, MovementEval, Weights};
use rayon::prelude::*;

use crate::args::{EvalKind, parse_eval};
use crate::output::{GameProgress, emit};
use crate::shard::{Flow, GameDir, Manifest, Shard, digest, finished_records, play_games, read_records, stamp};

/// The command whose games a manifest of network data describes.
const COMMAND: &str = "dvonn tune-net generate";

/// Arguments of `dvonn tune-net`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(Debug, clap::Subcommand)]
enum Step {
    /// Play self-play games into a records directory, with the search of every position.
    Generate(GenerateArgs),
    /// Write the positions of the games of a run (all its shards) as the trainer's data.
    Data(DataArgs),
}

/// Arguments of `dvonn tune-net generate`.
#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Games in the run (with --shard, in all the shards together).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000_000), value_name = "N")]
    games: u32,
    /// Search depth of every move.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=30), value_name = "D")]
    depth: u32,
    /// Games played at the same time (each engine searches on one thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// Seed of the random placements and moves: game n of a seed is the same game in any run.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Keep every finished game here, as a game record with its searches in comments.
    #[arg(long, value_name = "DIR")]
    records: PathBuf,
    /// Play only the K-th of N disjoint parts of the games (K from 0 to N-1, as SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// The players' evaluation: network (the default) or linear.
    #[arg(long, default_value = "network", value_parser = parse_eval, value_name = "KIND")]
    eval: EvalKind,
    /// The players' network from this file (written by train/train.py) instead of the engine's own.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
}

/// Arguments of `dvonn tune-net data`.
#[derive(Debug, clap::Args)]
struct DataArgs {
    /// The records directories of the run's shards.
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Write the data here (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
    /// Search every movement position again to this depth and write those scores instead of the games' own.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30), value_name = "D")]
    label_depth: Option<u32>,
    /// With --label-depth: games searched at the same time (each on one thread).
    #[arg(long, requires = "label_depth", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "T")]
    threads: u16,
    /// With --label-depth: search with the network from this file instead of the engine's own.
    #[arg(long, requires = "label_depth", value_name = "FILE")]
    network: Option<PathBuf>,
}

/// Runs `dvonn tune-net`.
pub(crate) fn run(args: &Args) -> Result<()> {
    match &args.step {
        Step::Generate(args) => generate(args),
        Step::Data(args) => data(args),
    }
}

/// The movement evaluation of `eval` and `network` (a file), and how a
/// manifest names it.
fn movement_eval(eval: EvalKind, network: Option<&PathBuf>) -> Result<(MovementEval, String)> {
    Ok(match (eval, network) {
        (EvalKind::Linear, _) => (MovementEval::Linear(Weights::TUNED), "linear".to_string()),
        (EvalKind::Network, None) => (MovementEval::default(), "the shipped network".to_string()),
        (EvalKind::Network, Some(path)) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let network = Network::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
            (MovementEval::Network(Box::leak(Box::new(network))), format!("the network {}", digest(&bytes)))
        }
    })
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let games = args.games as usize;
    let (movement_eval, evaluation) = movement_eval(args.eval, args.network.as_ref())?;
    let engine = EngineConfig::default().with_hash_mb(16).with_movement_eval(movement_eval);
    let settings = [("depth", args.depth.to_string()), ("seed", args.seed.to_string()), ("evaluation", evaluation)];
    let manifest = Manifest::new(COMMAND, games, &settings);
    let plan = DataPlan::default().with_depth(args.depth).with_seed(args.seed).with_engine(engine);
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let dir = GameDir::open(&args.records, &manifest)?;
    let finished = finished_records(&dir, |game| !shard.owns(game))?;
    let found = finished.len();
    let to_play: Vec<usize> = shard.games(games).filter(|game| !finished.contains_key(game)).collect();
    let progress = GameProgress::new(to_play.len(), "self-play");
    let plan = &plan;
    let player = || {
        let mut engine = plan.new_engine();
        move |game: usize| Ok(plan.play(game as u32, &mut engine))
    };
    let mut played = 0;
    let outcome = play_games(&to_play, usize::from(args.threads), player, |game, new| {
        progress.tick();
        let mut record = GameRecord::from(&new.game);
        record.set_tag("Event", COMMAND);
        for (ply, search) in new.searches.iter().enumerate() {
            if let Some(search) = search {
                record.add_comment(ply + 1, &comment(search));
            }
        }
        stamp(&mut record, game, &manifest);
        // `false`: another process wrote this game meanwhile; its record counts.
        played += usize::from(dir.write(game, &record.to_string())?);
        Ok(Flow::Continue)
    });
    progress.finish();
    outcome?;
    outln!(
        "{}: {} of the {games} games, {played} played now, {found} found in {}; \
         `dvonn tune-net data {}` writes the trainer's data once every shard has finished",
        if shard.is_whole() { "Run".to_string() } else { format!("Shard {shard}") },
        shard.games(games).count(),
        dir.path().display(),
        dir.path().display()
    )?;
    Ok(())
}

fn data(args: &DataArgs) -> Result<()> {
    let run = read_records(&args.dirs, COMMAND)?;
    let missing = run.missing();
    for note in run.notes(&missing) {
        outln!("{note}")?;
    }
    let mut games: Vec<Vec<Record>> = Vec::with_capacity(run.games.len());
    for (&game, record) in &run.games {
        let (played, searches) = searched_game(record).with_context(|| format!("game {}", game + 1))?;
        let Some(records) = records(&played, &searches, game as u32) else {
            bail!("game {} was not played to its end", game + 1);
        };
        games.push(records);
    }
    if let Some(depth) = args.label_depth {
        label_again(&mut games, depth, args)?;
    }
    let mut bytes = HEADER.to_vec();
    let mut positions = 0;
    for record in games.iter().flatten() {
        bytes.extend_from_slice(&record.to_bytes());
        positions += 1;
    }
    debug_assert_eq!(bytes.len(), 16 + positions * RECORD_BYTES);
    emit(Some(&args.output), &bytes, args.force)?;
    if args.output.as_os_str() != "-" {
        outln!("{positions} positions from {} games written to {}", run.games.len(), args.output.display())?;
    }
    Ok(())
}

/// Searches the movement positions of every game again to `depth`, the
/// games shared out among `args.threads` threads.
fn label_again(games: &mut [Vec<Record>], depth: u32, args: &DataArgs) -> Result<()> {
    let (movement_eval, _) = movement_eval(EvalKind::Network, args.network.as_ref())?;
    let engine = EngineConfig::default().with_hash_mb(16).with_movement_eval(movement_eval).with_threads(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(usize::from(args.threads)).build()?;
    let progress = GameProgress::new(games.len(), &format!("depth {depth}"));
    let new_engine = || Engine::new(engine.clone()).expect("a small table and one thread");
    pool.install(|| {
        games.par_iter_mut().for_each_init(new_engine, |engine, records| {
            search_again(records, engine, depth);
            progress.tick();
        })
    });
    progress.finish();
    Ok(())
}

/// The comment that records a search: `score -1.25 depth 5`, with `exact`
/// after the score when it is proven.
fn comment(search: &Searched) -> String {
    let exact = if search.proven { " exact" } else { "" };
    format!("score {}{exact} depth {}", search.score, search.depth)
}

/// The search a comment records, if it is one (see [`comment`]).
fn parse_comment(text: &str) -> Option<Searched> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (score, proven, depth) = match words.as_slice() {
        ["score", score, "depth", depth] => (score, false, depth),
        ["score", score, "exact", "depth", depth] => (score, true, depth),
        _ => return None,
    };
    let pieces: f64 = score.parse().ok()?;
    let score = Score::from_centipieces((pieces * 100.0).round() as i32);
    Some(Searched { score, depth: depth.parse().ok()?, proven })
}

/// A generated game and the search of each position, read back from its
/// record.
fn searched_game(record: &GameRecord) -> Result<(Game, Vec<Option<Searched>>)> {
    let game = record.replay()?;
    let mut searches = Vec::with_capacity(game.len());
    for ply in 0..game.len() {
        let found: Vec<Searched> = record.comments_after(ply + 1).filter_map(parse_comment).collect();
        match found.as_slice() {
            [] => searches.push(None),
            [search] => searches.push(Some(*search)),
            _ => bail!("move {} has {} searches", ply + 1, found.len()),
        }
    }
    Ok((game, searches))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_survive_their_comments() {
        for (score, depth, proven) in [(-125, 5, false), (300, 12, true), (0, 1, false), (4_900, 30, true)] {
            let search = Searched { score: Score::from_centipieces(score), depth, proven };
            assert_eq!(parse_comment(&comment(&search)), Some(search), "{}", comment(&search));
        }
        assert_eq!(
            comment(&Searched { score: Score::from_centipieces(-125), depth: 5, proven: false }),
            "score -1.25 depth 5"
        );
        assert_eq!(parse_comment("eval -1.30"), None);
        assert_eq!(parse_comment("score x depth 5"), None);
    }
}
