//! Sharded runs through the real binary: `dvonn match --shard K/N` and
//! `--merge` give exactly the games and the summary of the whole match, a
//! shard killed in the middle of a game loses and duplicates nothing, a
//! merge names what is missing or twice there and refuses to mix matches,
//! and `dvonn tune` shards and merges its self-play games the same way.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{arg, dvonn, failure, file_names, success};

/// A match of deterministic players (`depth=N` on both sides): the same
/// seed gives the same games, whoever plays them.
const MATCH: [&str; 5] = ["match", "--a", "depth=2,placement=heuristic", "--b", "depth=1,placement=heuristic"];

/// `MATCH` of `games` games with the seed `seed`, an SPRT that does not
/// decide so soon, and `extra` arguments.
fn match_args<'a>(games: &'a str, seed: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [&MATCH[..], &["--games", games, "--seed", seed, "--sprt", "0,5"], extra].concat()
}

/// Starts shard `k/n` of `args`, writing to `dir`.
fn start_shard(args: &[&str], k: u32, n: u32, dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_dvonn"))
        .args(args)
        .args(["--shard", &format!("{k}/{n}"), "--records", arg(dir)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Starts the shards `0/n` to `n-1/n` of `args` at once, all writing to `dir`.
fn start_shards(args: &[&str], n: u32, dir: &Path) -> Vec<Child> {
    (0..n).map(|k| start_shard(args, k, n, dir)).collect()
}

/// What each shard printed, once all have finished.
fn finish(shards: Vec<Child>) -> Vec<String> {
    shards.into_iter().map(|shard| success(&shard.wait_with_output().unwrap())).collect()
}

/// A record's text without what depends on when it was played: its `Date`
/// tag and the time each side used (`WhiteTimeUsed`, `BlackTimeUsed`).
fn without_clock(text: &str) -> String {
    let timed = |line: &str| ["[Date ", "[WhiteTimeUsed ", "[BlackTimeUsed "].iter().any(|tag| line.starts_with(tag));
    text.lines().filter(|line| !timed(line)).map(|line| format!("{line}\n")).collect()
}

/// A match summary without its line of the time used, which differs from
/// run to run.
fn without_time_used(summary: &str) -> String {
    summary.lines().filter(|line| !line.starts_with("Time used per game")).map(|line| format!("{line}\n")).collect()
}

/// The records of a directory, by file name, without their dates and times.
fn records(dir: &Path) -> Vec<(String, String)> {
    file_names(dir)
        .into_iter()
        .filter(|name| name.starts_with("game-"))
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            (name, without_clock(&text))
        })
        .collect()
}

#[test]
fn four_shards_and_a_merge_are_the_whole_match() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    let summary = success(&dvonn(match_args("10", "5", &["--concurrency", "2", "--records", arg(&whole)])));
    assert!(summary.contains("\nGames: 10 (seed 5;"), "{summary}");
    assert!(summary.contains(" over all 10 games, bounds [-2.94, 2.94]: no decision yet"), "{summary}");

    let lines = finish(start_shards(&match_args("10", "5", &[]), 4, &sharded));
    for (k, line) in lines.iter().enumerate() {
        let games = if k < 2 { 3 } else { 2 };
        assert!(
            line.starts_with(&format!("Shard {k}/4: {games} of the 10 games, {games} played now, 0 found in ")),
            "{line}"
        );
        assert!(line.contains(&format!("`dvonn match --merge {}` prints the summary", sharded.display())), "{line}");
    }
    let merged = success(&dvonn(["match", "--merge", arg(&sharded)]));
    assert!(merged.contains("\nTime used per game on the referee's clock: A "), "{merged}");
    assert_eq!(without_time_used(&merged), without_time_used(&summary), "the merge prints the whole match's summary");
    assert_eq!(records(&sharded), records(&whole), "the same games, in the same files");
    assert_eq!(records(&whole).len(), 10);
    let manifest = |dir: &Path| std::fs::read_to_string(dir.join(".manifest")).unwrap();
    assert_eq!(manifest(&sharded), manifest(&whole));
    // The whole match's own directory merges to its summary too.
    assert_eq!(success(&dvonn(["match", "--merge", arg(&whole)])), summary);

    // A shard run again finds its games done and plays nothing.
    let again = success(&dvonn(match_args("10", "5", &["--shard", "1/4", "--records", arg(&sharded)])));
    assert!(again.starts_with("Shard 1/4: 3 of the 10 games, 0 played now, 3 found in "), "{again}");
    // So does the whole match, which prints its summary again.
    assert_eq!(success(&dvonn(match_args("10", "5", &["--records", arg(&whole)]))), summary);
}

#[test]
fn a_merged_sprt_decides_where_the_whole_match_did() {
    // Equal players against the hypotheses 200 and 600 Elo: H0 comes fast.
    let args = "match --a depth=1,placement=random --b depth=1,placement=random --games 400 --sprt 200,600 --seed 3";
    let args: Vec<&str> = args.split(' ').collect();
    let dir = tempfile::tempdir().unwrap();
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    let summary = success(&dvonn([&args[..], &["--records", arg(&whole)]].concat()));
    let decision = |summary: &str| -> String {
        let line = summary.lines().find(|line| line.starts_with("SPRT ")).unwrap();
        line.split(": ").last().unwrap().to_string()
    };
    let decided = decision(&summary);
    assert!(decided.starts_with("H0 accepted after "), "{summary}");
    let played = records(&whole).len();
    assert!(played < 400, "{summary}");
    assert_eq!(success(&dvonn(["match", "--merge", arg(&whole)])), summary);

    // The shards stop once the games in order decide, and the merge
    // decides at the same game.
    let lines = finish(start_shards(&args, 4, &sharded));
    assert!(lines.iter().all(|line| line.contains(" not needed (the SPRT decided after ")), "{lines:?}");
    let merged = success(&dvonn(["match", "--merge", arg(&sharded)]));
    assert_eq!(decision(&merged), decided, "{merged}");
    assert!(!merged.contains("Unfinished"), "the games after the decision are not missing: {merged}");
    assert!(records(&sharded).len() < 400);
    // Every game both played is the same game.
    let whole_games = records(&whole);
    for (name, text) in records(&sharded) {
        if let Some((_, other)) = whole_games.iter().find(|(other, _)| *other == name) {
            assert_eq!(&text, other, "{name}");
        }
    }
}

/// Waits until `dir` holds at least one game record (at most a minute).
fn wait_for_a_record(dir: &Path) {
    let started = Instant::now();
    while !dir.exists() || !file_names(dir).iter().any(|name| name.starts_with("game-")) {
        assert!(started.elapsed() < Duration::from_secs(60), "no record after a minute");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_shard_killed_in_the_middle_of_a_game_loses_and_duplicates_nothing() {
    let args = ["match", "--a", "depth=3,placement=heuristic", "--b", "depth=2,placement=heuristic", "--games", "12"];
    let args = [&args[..], &["--seed", "3"]].concat();
    let dir = tempfile::tempdir().unwrap();
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    let summary = success(&dvonn([&args[..], &["--records", arg(&whole)]].concat()));

    // Shard 0/2 is killed once its first game is written: in the middle of
    // its second game.
    let mut shard = start_shard(&args, 0, 2, &sharded);
    wait_for_a_record(&sharded);
    shard.kill().unwrap();
    shard.wait().unwrap();
    let kept = records(&sharded);
    assert!(!kept.is_empty() && kept.len() < 6, "killed before its last game: {kept:?}");
    // A writer killed while writing leaves its temporary file: never a game.
    std::fs::write(sharded.join(".dvonn-Xk3q9a"), &kept[0].1[..kept[0].1.len() / 2]).unwrap();
    let partial = success(&dvonn(["match", "--merge", arg(&sharded)]));
    assert!(
        partial.starts_with(&format!("Unfinished: {} of the 12 games are missing (", 12 - kept.len())),
        "{partial}"
    );

    // Started again, it plays only the games it had not finished.
    let line = finish(start_shards(&args, 2, &sharded)).remove(0);
    let found = kept.len().to_string();
    assert!(line.contains(&format!("6 of the 12 games, {} played now, {found} found in ", 6 - kept.len())), "{line}");
    assert_eq!(without_time_used(&success(&dvonn(["match", "--merge", arg(&sharded)]))), without_time_used(&summary));
    assert_eq!(records(&sharded), records(&whole));
    for (name, text) in &kept {
        assert_eq!(&without_clock(&std::fs::read_to_string(sharded.join(name)).unwrap()), text, "{name} kept");
    }
}

#[test]
fn a_record_cut_short_is_never_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let records_dir = dir.path().join("records");
    success(&dvonn(match_args("2", "5", &["--records", arg(&records_dir)])));
    let file = records_dir.join("game-0002.dvonn");
    let text = std::fs::read_to_string(&file).unwrap();
    // Cut anywhere (a copy that stopped half-way), the record is refused,
    // by the merge and by a shard that would skip the game.
    for cut in [text.len() - 1, text.len() - 8, text.len() / 2, 20] {
        std::fs::write(&file, &text[..cut]).unwrap();
        failure(&dvonn(["match", "--merge", arg(&records_dir)]), "is not a finished record of game 2 of this run");
        let output = dvonn(match_args("2", "5", &["--shard", "1/2", "--records", arg(&records_dir)]));
        failure(&output, "game-0002.dvonn is not a finished record of game 2 of this run");
    }
    std::fs::write(&file, &text).unwrap();
    success(&dvonn(["match", "--merge", arg(&records_dir)]));
}

/// Copies the records directory `from` to `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for name in file_names(from) {
        std::fs::copy(from.join(&name), to.join(&name)).unwrap();
    }
}

#[test]
fn a_merge_names_missing_and_duplicate_games_and_never_mixes_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| -> PathBuf { dir.path().join(name) };
    let shard = |k: &str, into: &Path| {
        success(&dvonn(match_args("8", "5", &["--shard", &format!("{k}/4"), "--records", arg(into)])))
    };
    shard("0", &path("one"));
    shard("2", &path("one"));
    let merged = success(&dvonn(["match", "--merge", arg(&path("one"))]));
    let first = merged.lines().next().unwrap();
    assert_eq!(
        first,
        "Unfinished: 4 of the 8 games are missing (2, 4, 6, 8): not every shard has finished; what follows counts the 4 present"
    );
    assert!(merged.contains("\nGames: 4 (seed 5;"), "{merged}");

    // Shards in several directories; a game in two of them counts once.
    copy_dir(&path("one"), &path("two"));
    shard("1", &path("two"));
    shard("3", &path("two"));
    let merged = success(&dvonn(["match", "--merge", arg(&path("one")), arg(&path("two"))]));
    let notes: Vec<&str> = merged.lines().take_while(|line| !line.starts_with("A: ")).collect();
    assert_eq!(notes.len(), 4, "{merged}");
    assert!(notes[0].starts_with("Present twice: game 1 ("), "{merged}");
    assert!(notes[0].ends_with("), the same game each time: counted once"), "{merged}");
    assert!(merged.contains("\nGames: 8 (seed 5;"), "{merged}");
    let complete = success(&dvonn(["match", "--merge", arg(&path("two"))]));
    assert!(merged.ends_with(&complete), "{merged}");
    // The same directory named twice is read once.
    assert_eq!(success(&dvonn(["match", "--merge", arg(&path("two")), arg(&path("two"))])), complete);

    // Two copies of a game that differ: the merge will not choose.
    let file = path("one").join("game-0001.dvonn");
    let text = std::fs::read_to_string(&file).unwrap().replace("[Event \"dvonn match\"]", "[Event \"changed\"]");
    std::fs::write(&file, text).unwrap();
    failure(&dvonn(["match", "--merge", arg(&path("one")), arg(&path("two"))]), "and they differ: keep one of them");

    // Another match (another seed) is refused, in a merge and by a shard.
    success(&dvonn(match_args("8", "6", &["--shard", "0/4", "--records", arg(&path("other"))])));
    failure(
        &dvonn(["match", "--merge", arg(&path("two")), arg(&path("other"))]),
        "hold the games of different runs (seed: 5 against 6): merge each run on its own",
    );
    let output = dvonn(match_args("8", "6", &["--shard", "1/4", "--records", arg(&path("two"))]));
    failure(&output, "holds the games of another run (seed: 5 there, 6 here)");
    // The self-play games of dvonn tune are not a match.
    success(&dvonn(["tune", "--games", "1", "--depth", "1", "--shard", "0/1", "--records", arg(&path("tune"))]));
    failure(&dvonn(["match", "--merge", arg(&path("tune"))]), "holds the games of dvonn tune, not of dvonn match");
    failure(&dvonn(["match", "--merge", arg(dir.path())]), "has no .manifest");
}

#[test]
fn sharding_arguments_are_checked() {
    let output = dvonn(match_args("10", "5", &["--shard", "4/4", "--records", "x"]));
    assert_eq!(output.status.code(), Some(2));
    failure(&output, "K counts from 0 to N-1 (0 to 3 here)");
    let output = dvonn(["match", "--a", "depth=1", "--b", "depth=1", "--shard", "0/2"]);
    assert_eq!(output.status.code(), Some(2));
    failure(&output, "--records <DIR>");
    let output = dvonn(["match", "--merge", "x", "--a", "depth=1"]);
    assert_eq!(output.status.code(), Some(2));
    failure(&output, "cannot be used with");
    let output = dvonn(["match", "--merge"]);
    assert_eq!(output.status.code(), Some(2));
    let help = success(&dvonn(["match", "--help"]));
    assert!(help.contains("--shard <K/N>") && help.contains("Play only the K-th of N disjoint parts"), "{help}");
    assert!(help.contains("--merge <DIR>...") && help.contains("Print the summary of the games the shards"), "{help}");
}

/// The output of `dvonn tune` without its first line's timing.
fn without_timing(output: &str) -> String {
    let (first, rest) = output.split_once('\n').unwrap();
    format!("{}\n{rest}", first.split(" (").next().unwrap())
}

#[test]
fn tune_shards_and_a_merge_fit_the_same_weights() {
    let args = ["tune", "--games", "6", "--depth", "1", "--seed", "4", "--threads", "2"];
    let dir = tempfile::tempdir().unwrap();
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    let fitted = success(&dvonn(args));
    assert!(fitted.starts_with("samples: ") && fitted.contains(" positions from 6 games ("), "{fitted}");
    let kept = success(&dvonn([&args[..], &["--records", arg(&whole)]].concat()));
    assert_eq!(without_timing(&kept), without_timing(&fitted), "keeping the games changes nothing");
    for k in 0..3 {
        let line = success(&dvonn([&args[..], &["--shard", &format!("{k}/3"), "--records", arg(&sharded)]].concat()));
        assert!(line.starts_with(&format!("Shard {k}/3: 2 of the 6 games, 2 played now, 0 found in ")), "{line}");
    }
    let merged = success(&dvonn(["tune", "--merge", arg(&sharded)]));
    assert_eq!(without_timing(&merged), without_timing(&fitted));
    assert_eq!(records(&sharded), records(&whole));
    // The same seed on one thread plays the same games.
    let one_thread = success(&dvonn(["tune", "--games", "6", "--depth", "1", "--seed", "4"]));
    assert_eq!(without_timing(&one_thread), without_timing(&fitted));
    // A merge of unfinished shards says so, and fits to what is there.
    std::fs::remove_file(sharded.join("game-0003.dvonn")).unwrap();
    let partial = success(&dvonn(["tune", "--merge", arg(&sharded), "--ridge", "0.5"]));
    assert!(partial.starts_with("Unfinished: 1 of the 6 games is missing (3): "), "{partial}");
    assert!(partial.contains("\nsamples: ") && partial.contains(" positions from 5 games ("), "{partial}");
}
