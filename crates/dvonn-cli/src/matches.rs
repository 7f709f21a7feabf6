//! `dvonn match`: engine-vs-engine matches.
//!
//! Two players, A and B, each an engine configuration or an external
//! CodeCup program ([`spec`]), play `--games` games ([`game`]). Games come
//! in pairs: each opening is played twice, A White in the first game and
//! Black in the second. An opening is the empty board with 6 to 10 random
//! placements, or with `--random-setup` a random setup, drawn from the seed
//! and the pair's number, or with `--openings FILE` a position read from the
//! file (one position string per line, played in order). The CodeCup
//! protocol has no way to impose moves or a setup on a program, so an
//! external program is given its start position on its command line, where
//! it writes `{position}` ([`spec`]); a match with an external program that
//! does not take one starts every game from the empty board (the engines'
//! seeds still vary from game to game) and refuses `--random-setup` and
//! `--openings`.
//!
//! Games run `--concurrency` at a time. A progress bar on standard error
//! (only when it is a terminal) shows the games done and A's score. With
//! `--sprt elo0,elo1` the match stops early, once the games in progress
//! have finished, when the test accepts a hypothesis on games 1 to n for
//! some n ([`stats`] gives the formulas, [`summary`] the order).
//!
//! With `--records DIR` every finished game is saved in `DIR` as the game
//! record `game-NNNN.dvonn` (N its number), beside the manifest of the
//! match ([`definition`]); a match run again into the same directory plays
//! only the games not there yet, and a directory of another match is
//! refused. `--shard K/N` plays only the K-th of N parts of the match,
//! exactly the games the whole match plays there, and `--merge DIR...`
//! prints the summary of the shards' games ([`merge`]): see
//! [`crate::shard`].
//!
//! The summary on standard output: results per player and per colour,
//! forfeits with their reasons, the average piece margin of the games
//! played to the end, A's score, the Elo difference with its 95% interval,
//! and the SPRT's verdict. A shard prints one line: its games and where
//! they are.

pub(crate) mod definition;
pub(crate) mod external;
pub(crate) mod game;
pub(crate) mod merge;
pub(crate) mod spec;
pub(crate) mod stats;
pub(crate) mod summary;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dvonn_core::Color;
use dvonn_notation::GameRecord;

use crate::args::parse_seconds;
use crate::output::progress_bar;
use crate::shard::{Flow, GameDir, Shard, finished_records, play_games, read_record, stamp};
use definition::{Definition, Openings};
use game::Settings;
use spec::Spec;
use stats::{Sprt, elo_estimate, parse_sprt};
use summary::{MatchGame, Results, signed};

/// Arguments of `dvonn match`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Player A: key=value pairs (depth=4, time=0.2, clock=5, nodes=N, level=club, threads=2, parallel=lazy|ybwc,
    /// hash=16, eval=network|linear|hand|pieces, network=FILE, placement=search|heuristic|random, placement-weights=FILE), random
    /// (uniformly random legal moves), or cmd:PROGRAM ARGS... for a CodeCup-protocol program.
    #[arg(long, value_name = "SPEC", required_unless_present = "merge")]
    a: Option<String>,
    /// Player B, as for --a.
    #[arg(long, value_name = "SPEC", required_unless_present = "merge")]
    b: Option<String>,
    /// Number of games (each opening is played twice, colours swapped) [default: 2, or twice the
    /// number of --openings]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000), value_name = "N")]
    games: Option<u32>,
    /// Seconds per move of an engine whose specification sets no limit; an external program may take
    /// this plus --margin for each move before it loses as stalled.
    #[arg(long, default_value = "0.2", value_parser = parse_seconds, value_name = "S")]
    time: Duration,
    /// Extra seconds an external program gets per move, beyond --time, before it loses as stalled
    /// (covers its start-up and its own time management).
    #[arg(long, default_value = "3", value_parser = parse_seconds, value_name = "S")]
    margin: Duration,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), value_name = "J")]
    concurrency: u16,
    /// Start every opening pair from a random setup instead of random placements.
    #[arg(long, conflicts_with = "openings")]
    random_setup: bool,
    /// Start the opening pairs from the positions in this file, one position string per line, in
    /// order (blank lines and lines starting with # are skipped; after the last, the first again).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Stop as soon as a sequential probability ratio test (alpha = beta = 0.05) of elo0 against elo1
    /// (A's Elo advantage) accepts one of them, e.g. --sprt 0,10.
    // Elo bounds may be negative (`--sprt -10,0`): a leading `-` is a value here.
    #[arg(long, value_parser = parse_sprt, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// Save every finished game as a game record in this directory (created if needed); run again
    /// with the same settings and seed, the match plays only the games not there yet.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Seed of the openings and of the engines' random choices (default: from the clock).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Play only the K-th of N disjoint parts of the match (K from 0 to N-1, as SLURM_ARRAY_TASK_ID),
    /// exactly those games of the whole match, into --records (needs --seed).
    #[arg(long, value_name = "K/N", requires_all = ["records", "seed"])]
    shard: Option<Shard>,
    /// Print the summary of the games the shards of one match wrote to these directories, as the
    /// whole match prints it, after the games missing or found twice.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "a", "b", "games", "time", "margin", "concurrency", "random_setup", "openings", "sprt", "records", "seed", "shard",
    ])]
    merge: Option<Vec<PathBuf>>,
}

/// Runs `dvonn match`.
pub(crate) fn run(args: &Args) -> Result<()> {
    match &args.merge {
        Some(dirs) => merge::run(dirs),
        None => play(args),
    }
}

/// The players, the openings and the definition of the match of `args`.
fn define(args: &Args) -> Result<([Spec; 2], Openings, Definition)> {
    let (a_text, b_text) = (args.a.as_deref().unwrap_or_default(), args.b.as_deref().unwrap_or_default());
    let a = Spec::parse(a_text).context("in --a")?;
    let b = Spec::parse(b_text).context("in --b")?;
    let empty_board_only = ![&a, &b].iter().all(|spec| spec.takes_any_start());
    if empty_board_only && (args.random_setup || args.openings.is_some()) {
        bail!(
            "--random-setup and --openings need every cmd: player to take its start position: write {} in its command line where it reads one",
            spec::POSITION_PLACEHOLDER
        );
    }
    let openings = match &args.openings {
        Some(path) => {
            let positions = crate::input::read_openings(path)?;
            Openings::File { path: path.display().to_string(), positions }
        }
        None if empty_board_only => Openings::Empty,
        None if args.random_setup => Openings::RandomSetups,
        None => Openings::RandomPlacements,
    };
    let games = args.games.map_or_else(
        || match &openings {
            Openings::File { positions, .. } => 2 * positions.len(),
            _ => 2,
        },
        |n| n as usize,
    );
    let definition = Definition {
        a: a_text.trim().to_string(),
        b: b_text.trim().to_string(),
        games,
        seed: args.seed.unwrap_or_else(crate::args::clock_seed),
        openings: openings.describe(),
        openings_digest: openings.digest(),
        time: args.time,
        margin: args.margin,
        sprt: args.sprt,
    };
    Ok(([a, b], openings, definition))
}

/// Plays the match, or one shard of it.
fn play(args: &Args) -> Result<()> {
    let ([a, b], openings, definition) = define(args)?;
    let games = definition.games;
    let manifest = definition.manifest();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let dir = args.records.as_deref().map(|path| GameDir::open(path, &manifest)).transpose()?;

    // The games already in the directory: this shard's are done; the
    // others' count for the SPRT (and a shard without one skips them).
    let mut results = Results::new(definition.sprt);
    let others_count = shard.is_whole() || definition.sprt.is_some();
    if let Some(dir) = &dir {
        for (game, record) in finished_records(dir, |game| !others_count && !shard.owns(game))? {
            results.insert(game, MatchGame::of_record(game, &record)?);
        }
    }
    let mine: Vec<usize> = shard.games(games).collect();
    let to_play: Vec<usize> = mine.iter().copied().filter(|&game| !results.contains(game)).collect();
    if let Some(dir) = dir.as_ref().filter(|_| to_play.len() < mine.len()) {
        eprintln!(
            "{} holds {} of the {} games of {}; {} left to play",
            dir.path().display(),
            mine.len() - to_play.len(),
            mine.len(),
            if shard.is_whole() { "this match".to_string() } else { format!("shard {shard}") },
            to_play.len()
        );
    }

    let settings =
        Settings { default_time: args.time, external_timeout: args.time + args.margin, seed: definition.seed };
    let names = [format!("A ({})", definition.a), format!("B ({})", definition.b)];
    let progress =
        progress_bar(to_play.len() as u64, "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, {eta} left]");
    // With the SPRT decided by the games already there, nothing is left to play.
    let queue = if results.decided_at().is_some() { &[][..] } else { &to_play[..] };
    let mut played_now = 0;
    let player = || {
        |index: usize| {
            // A is White in the first game of each pair.
            let (specs, names) = match MatchGame::a_color(index) {
                Color::White => ([&a, &b], [names[0].as_str(), names[1].as_str()]),
                Color::Black => ([&b, &a], [names[1].as_str(), names[0].as_str()]),
            };
            game::play(index, specs, names, &openings.of_pair(definition.seed, index / 2), &settings)
        }
    };
    let done = |game: usize, mut record: GameRecord| {
        stamp(&mut record, game, &manifest);
        if let Some(dir) = &dir
            && !dir.write(game, &record.to_string())?
        {
            // Another process played this game meanwhile: its record counts.
            record = read_record(&dir.file(game), game, &manifest)?;
        }
        results.insert(game, MatchGame::of_record(game, &record)?);
        // The other shards' games finished meanwhile may decide the SPRT.
        if let Some(dir) = dir.as_ref().filter(|_| definition.sprt.is_some() && !shard.is_whole()) {
            for (game, record) in finished_records(dir, |game| results.contains(game))? {
                results.insert(game, MatchGame::of_record(game, &record)?);
            }
        }
        played_now += 1;
        progress.inc(1);
        let tally = results.total();
        let score = tally.score().unwrap_or(0.5) * 100.0;
        let elo = elo_estimate(&tally).map_or_else(String::new, |e| format!(", Elo {}", signed(e.elo)));
        progress.set_message(format!("A scores {score:.1}%{elo}"));
        Ok(if results.decided_at().is_some() { Flow::Stop } else { Flow::Continue })
    };
    let outcome = play_games(queue, usize::from(args.concurrency), player, done);
    progress.finish_and_clear();
    outcome?;

    if shard.is_whole() {
        use std::io::Write as _;
        write!(std::io::stdout().lock(), "{}", results.report(&definition))?;
        return Ok(());
    }
    // A shard: its part and where it is (a shard has a directory).
    let dir = dir.as_ref().map_or_else(String::new, |dir| dir.path().display().to_string());
    let found = mine.len() - to_play.len();
    let mut line =
        format!("Shard {shard}: {} of the {games} games, {played_now} played now, {found} found in {dir}", mine.len());
    if let Some(at) = results.decided_at() {
        let not_needed = mine.iter().filter(|&&game| !results.contains(game)).count();
        line.push_str(&format!(", {not_needed} not needed (the SPRT decided after {} games)", at.games()));
    }
    line.push_str(&format!("; `dvonn match --merge {dir}` prints the summary once every shard has finished"));
    outln!("{line}")?;
    Ok(())
}
