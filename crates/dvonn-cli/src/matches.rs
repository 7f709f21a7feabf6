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
//! have finished, when the test accepts a hypothesis ([`stats`] gives the
//! formulas). With `--records DIR` every game is saved in `DIR` as a game
//! record `game-NNNN.dvonn`, numbered on from the highest number already
//! there (no file is ever replaced).
//!
//! The summary on standard output: results per player and per colour,
//! forfeits with their reasons, the average piece margin of the games
//! played to the end, A's score, the Elo difference with its 95% interval,
//! and the SPRT's verdict.

pub mod external;
pub mod game;
pub mod spec;
pub mod stats;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use dvonn_core::Color;

use crate::args::parse_seconds;
use crate::output::{progress_bar, write_file};
use game::{Opening, Played, Settings};
use spec::Spec;
use stats::{Sprt, Tally, Verdict, elo_estimate, parse_sprt};

/// Arguments of `dvonn match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player A: key=value pairs (depth=4, time=0.2, clock=5, nodes=N, level=club, threads=2, parallel=lazy|ybwc,
    /// hash=16, eval=tuned|hand|pieces, placement=search|heuristic|random, placement-weights=FILE), random (uniformly random legal
    /// moves), or cmd:PROGRAM ARGS... for a CodeCup-protocol program.
    #[arg(long, value_name = "SPEC")]
    a: String,
    /// Player B, as for --a.
    #[arg(long, value_name = "SPEC")]
    b: String,
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
    /// Save every game as a game record in this directory (created if needed).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Seed of the openings and of the engines' random choices (default: from the clock).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

/// The results so far.
#[derive(Clone, Debug, Default)]
struct Summary {
    /// A's results as White and as Black.
    a_by_color: [Tally; 2],
    /// Sum of A's margins over the finished games, and their number.
    margin_sum: i64,
    finished: u32,
    /// The games lost by forfeit, in the order they ended.
    forfeits: Vec<Forfeit>,
}

/// A game lost by breaking the rules of the match (time, illegal move,
/// crash).
#[derive(Clone, Debug)]
struct Forfeit {
    /// The game's number, from 1.
    game: usize,
    /// Whether A (not B) lost it.
    by_a: bool,
    reason: String,
}

impl Summary {
    fn add(&mut self, played: &Played) {
        let a = played.a_color;
        let tally = &mut self.a_by_color[a.index()];
        match played.outcome.winner() {
            Some(color) if color == a => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        if let Some(margin) = played.a_margin() {
            self.margin_sum += margin;
            self.finished += 1;
        }
        if let Some((loser, reason)) = played.forfeit() {
            self.forfeits.push(Forfeit { game: played.index + 1, by_a: loser == a, reason: reason.to_string() });
        }
    }

    /// A's results in all games.
    fn a(&self) -> Tally {
        let [white, black] = self.a_by_color;
        white + black
    }

    /// White's results in all games (whoever played White).
    fn white(&self) -> Tally {
        let [a_white, a_black] = self.a_by_color;
        a_white + a_black.mirrored()
    }
}

/// `w-d-l`.
fn wdl(tally: &Tally) -> String {
    format!("{}-{}-{}", tally.wins, tally.draws, tally.losses)
}

/// An Elo value with its sign (`+inf` and `-inf` at the extremes).
fn signed(elo: f64) -> String {
    if elo.is_infinite() { if elo > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{elo:+.1}") }
}

/// Runs `dvonn match`.
pub fn run(args: &Args) -> Result<()> {
    let a = Spec::parse(&args.a).context("in --a")?;
    let b = Spec::parse(&args.b).context("in --b")?;
    let empty_board_only = ![&a, &b].iter().all(|spec| spec.takes_any_start());
    if empty_board_only && (args.random_setup || args.openings.is_some()) {
        bail!(
            "--random-setup and --openings need every cmd: player to take its start position: write {} in its command line where it reads one",
            spec::POSITION_PLACEHOLDER
        );
    }
    let openings = args.openings.as_deref().map(crate::input::read_openings).transpose()?;
    let seed = args.seed.unwrap_or_else(crate::args::clock_seed);
    let records = match &args.records {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create the directory {}", dir.display()))?;
            Some((dir.clone(), last_record_number(dir)?))
        }
        None => None,
    };
    let settings = Settings { default_time: args.time, external_timeout: args.time + args.margin, seed };
    let names = [format!("A ({})", args.a.trim()), format!("B ({})", args.b.trim())];
    let games = args.games.map_or_else(|| openings.as_ref().map_or(2, |list| 2 * list.len()), |n| n as usize);
    let opening = |pair: usize| {
        let pair_seed = game::mix(seed ^ 0x6f70_656e_696e_6773, pair as u64);
        if let Some(list) = &openings {
            Opening::from_position(list[pair % list.len()])
        } else if empty_board_only {
            Opening::empty()
        } else if args.random_setup {
            Opening::random_setup(pair_seed)
        } else {
            Opening::random_placements(pair_seed)
        }
    };

    let progress = progress_bar(games as u64, "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, {eta} left]");
    let mut summary = Summary::default();
    // A's results when the SPRT accepted a hypothesis (they give the verdict).
    let mut decided_at: Option<Tally> = None;
    let mut error: Option<anyhow::Error> = None;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Result<Played>>();
    std::thread::scope(|scope| {
        for _ in 0..usize::from(args.concurrency).min(games) {
            let sender = sender.clone();
            let (next, stop, settings, names, opening, a, b) = (&next, &stop, &settings, &names, &opening, &a, &b);
            scope.spawn(move || {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    // A is White in the first game of each pair.
                    let a_color = if index % 2 == 0 { Color::White } else { Color::Black };
                    let (specs, names) = match a_color {
                        Color::White => ([a, b], [names[0].as_str(), names[1].as_str()]),
                        Color::Black => ([b, a], [names[1].as_str(), names[0].as_str()]),
                    };
                    let played = game::play(index, a_color, specs, names, &opening(index / 2), settings)
                        .with_context(|| format!("game {}", index + 1));
                    if sender.send(played).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for played in receiver {
            let played = match played {
                Ok(played) => played,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                    continue;
                }
            };
            summary.add(&played);
            if let Some((dir, last)) = &records {
                let path = dir.join(format!("game-{:04}.dvonn", last + played.index + 1));
                if let Err(e) = write_file(&path, played.record.to_string().as_bytes(), false) {
                    stop.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                }
            }
            progress.inc(1);
            let score = summary.a().score().unwrap_or(0.5) * 100.0;
            let elo = elo_estimate(&summary.a()).map_or_else(String::new, |e| format!(", Elo {}", signed(e.elo)));
            progress.set_message(format!("A scores {score:.1}%{elo}"));
            if let Some(sprt) = &args.sprt {
                let tally = summary.a();
                if decided_at.is_none() && sprt.verdict(&tally) != Verdict::Continue {
                    decided_at = Some(tally);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    progress.finish_and_clear();
    if let Some(error) = error {
        return Err(error);
    }
    let openings = match (&args.openings, &openings) {
        (Some(path), Some(list)) => format!("the {} positions of {}, each played twice", list.len(), path.display()),
        _ if empty_board_only => "the empty board (a cmd: player without {position} cannot be given an opening)".into(),
        _ if args.random_setup => "random setups, each played twice".into(),
        _ => "6 to 10 random placements, each played twice".into(),
    };
    {
        use std::io::Write as _;
        write!(std::io::stdout().lock(), "{}", report(args, seed, &openings, &summary, decided_at))?;
    }
    Ok(())
}

/// The highest `N` of the `game-N.dvonn` files in `dir` (0 when none).
fn last_record_number(dir: &Path) -> Result<usize> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read the directory {}", dir.display()))?;
    let mut last = 0;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read the directory {}", dir.display()))?;
        let name = entry.file_name();
        let number = name
            .to_str()
            .and_then(|name| name.strip_prefix("game-"))
            .and_then(|rest| rest.strip_suffix(".dvonn"))
            .and_then(|digits| digits.parse::<usize>().ok());
        if let Some(number) = number {
            last = last.max(number);
        }
    }
    Ok(last)
}

/// The summary printed at the end.
fn report(args: &Args, seed: u64, openings: &str, summary: &Summary, decided_at: Option<Tally>) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let a = &summary.a();
    let b = a.mirrored();
    let [a_white, a_black] = summary.a_by_color;
    let games = a.games();
    let _ = writeln!(out, "A: {}", args.a.trim());
    let _ = writeln!(out, "B: {}", args.b.trim());
    let _ = writeln!(out, "Games: {games} (seed {seed}; results as wins-draws-losses)");
    let _ = writeln!(out, "Openings: {openings}");
    let _ = writeln!(
        out,
        "A: {} wins, {} draws, {} losses (as White {}, as Black {})",
        a.wins,
        a.draws,
        a.losses,
        wdl(&a_white),
        wdl(&a_black)
    );
    let _ = writeln!(
        out,
        "B: {} wins, {} draws, {} losses (as White {}, as Black {})",
        b.wins,
        b.draws,
        b.losses,
        wdl(&a_black.mirrored()),
        wdl(&a_white.mirrored())
    );
    let white = summary.white();
    let _ = writeln!(out, "White won {}, Black won {}, {} drawn", white.wins, white.losses, white.draws);
    if summary.finished > 0 {
        let margin = summary.margin_sum as f64 / f64::from(summary.finished);
        let _ = writeln!(
            out,
            "Average margin: A {margin:+.2} pieces per game ({} games played to the end)",
            summary.finished
        );
    } else {
        let _ = writeln!(out, "Average margin: no game was played to the end");
    }
    let by_a = summary.forfeits.iter().filter(|forfeit| forfeit.by_a).count();
    let _ = writeln!(out, "Forfeits: A {by_a}, B {}", summary.forfeits.len() - by_a);
    for Forfeit { game, by_a, reason } in &summary.forfeits {
        let who = if *by_a { "A" } else { "B" };
        let _ = writeln!(out, "  game {game}: {who} {reason}");
    }
    if let (Some(score), Some(estimate)) = (a.score(), elo_estimate(a)) {
        let _ = writeln!(out, "Score of A: {:.1}% ({} of {games})", score * 100.0, a.points());
        let _ = writeln!(
            out,
            "Elo difference (A - B): {}, 95% interval [{}, {}]",
            signed(estimate.elo),
            signed(estimate.low),
            signed(estimate.high)
        );
    }
    if let Some(sprt) = &args.sprt {
        let (lower, upper) = sprt.bounds();
        // The verdict that stopped the match, with the LLR that crossed the
        // bound; games already under way when it came are in the tally and
        // the LLR over all games, but do not reopen the decision.
        let decided = |accepted: &str, favoured: f64, over: f64, at: &Tally| {
            format!(
                "{accepted} accepted after {} games at LLR {:.2} (A - B = {favoured} Elo favoured over {over})",
                at.games(),
                sprt.llr(at)
            )
        };
        let verdict = match decided_at.map(|at| (sprt.verdict(&at), at)) {
            Some((Verdict::H0, at)) => decided("H0", sprt.elo0, sprt.elo1, &at),
            Some((Verdict::H1, at)) => decided("H1", sprt.elo1, sprt.elo0, &at),
            _ if a.variance().is_some_and(|v| v > 0.0) => "no decision yet".to_string(),
            _ => "no decision yet (every result alike: no variance to test)".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} (alpha=beta=0.05): LLR {:.2} over all {} games, bounds [{lower:.2}, {upper:.2}]: {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(a),
            a.games()
        );
    }
    out
}
