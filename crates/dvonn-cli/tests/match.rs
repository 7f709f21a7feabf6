//! `dvonn match` through the real binary: engine configurations, external
//! CodeCup programs (the `dvonn codecup` player, and shell scripts that
//! misbehave), records, the summary and the SPRT (sharded matches are in
//! `shards.rs`).

use std::path::Path;
use std::process::{Command, Output};

use dvonn_core::Outcome;
use dvonn_notation::GameRecord;

fn dvonn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dvonn"))
}

fn run(args: &[&str]) -> Output {
    dvonn().arg("match").args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The value after `prefix` on the summary line that starts with it.
fn line<'a>(summary: &'a str, prefix: &str) -> &'a str {
    summary
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in\n{summary}"))
}

/// A shell script in `dir` that plays like a broken CodeCup program.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("cmd:sh {}", path.display())
}

#[test]
fn two_engine_configurations_and_their_records() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let records_arg = records.to_str().unwrap();
    let args = [
        "--a",
        "depth=2,placement=heuristic",
        "--b",
        "depth=1,placement=heuristic",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--seed",
        "9",
        "--records",
        records_arg,
    ];
    let summary = stdout(&run(&args));
    assert_eq!(line(&summary, "A: "), "depth=2,placement=heuristic");
    assert!(line(&summary, "Games: ").starts_with("4 (seed 9;"));
    // "A: W wins, D draws, L losses (as White w-d-l, as Black w-d-l)"
    let a_results = summary.lines().filter_map(|l| l.strip_prefix("A: ")).nth(1).unwrap();
    let numbers: Vec<u32> = a_results
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 9, "{a_results}");
    assert_eq!(numbers[0] + numbers[1] + numbers[2], 4);
    assert_eq!(numbers[3] + numbers[4] + numbers[5], 2, "A is White in half the games");
    assert_eq!(numbers[6] + numbers[7] + numbers[8], 2);
    assert_eq!(line(&summary, "Forfeits: "), "A 0, B 0");
    assert!(line(&summary, "Average margin: A ").ends_with("pieces per game (4 games played to the end)"));
    assert!(line(&summary, "Score of A: ").ends_with("of 4)"));
    assert!(line(&summary, "Elo difference (A - B): ").contains(", 95% interval ["));

    let mut margins = 0;
    for n in 1..=4 {
        let text = std::fs::read_to_string(records.join(format!("game-{n:04}.dvonn"))).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        let replay = record.replay().unwrap();
        assert_eq!(replay.position().outcome(), record.result, "game {n} is played to the end");
        let (white, black) = (record.tag("White").unwrap(), record.tag("Black").unwrap());
        let a_is_white = n % 2 == 1;
        assert_eq!(white.starts_with("A ("), a_is_white, "colours alternate: {white}");
        assert_eq!(black.starts_with("A ("), !a_is_white);
        assert_eq!(record.tag("Round"), Some(n.to_string().as_str()));
        if let Outcome::Score { white, black } = record.result {
            let margin = i64::from(white) - i64::from(black);
            margins += if a_is_white { margin } else { -margin };
        }
    }
    // Each opening is played twice: games 1 and 2 begin with the same placements.
    let first = |n: usize| {
        let text = std::fs::read_to_string(records.join(format!("game-{n:04}.dvonn"))).unwrap();
        GameRecord::parse(&text).unwrap().moves[..6].to_vec()
    };
    assert_eq!(first(1), first(2));
    assert_eq!(first(3), first(4));
    assert_ne!(first(1), first(3));
    let average: f64 = line(&summary, "Average margin: A ").split(' ').next().unwrap().parse().unwrap();
    assert!((average - margins as f64 / 4.0).abs() < 0.01, "{average} {margins}");

    // The same match run again finds its games there, plays none and
    // prints the same summary; another match is refused the directory.
    assert_eq!(stdout(&run(&args)), summary);
    let other = |records: &str| {
        run(&[
            "--a",
            "depth=1",
            "--b",
            "depth=1",
            "--games",
            "1",
            "--random-setup",
            "--seed",
            "1",
            "--records",
            records,
        ])
    };
    let refused = other(records_arg);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("holds the games of another run (games: 4 there, 1 here)"), "{stderr}");
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 5, "four games and the manifest");
    let elsewhere = dir.path().join("setups");
    let summary = stdout(&other(elsewhere.to_str().unwrap()));
    assert!(line(&summary, "Games: ").starts_with('1'));
    let text = std::fs::read_to_string(elsewhere.join("game-0001.dvonn")).unwrap();
    assert!(text.contains("[Setup \"position\"]"), "{text}");
}

#[test]
fn misbehaving_programs_lose_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("crash.sh", "exit 3\n", "exited or crashed: "),
        ("garbage.sh", "while read line; do echo 'hello there'; done\n", "wrote \"hello there\", which is not a move"),
        ("illegal.sh", "while read line; do echo E3; done\n", "played the illegal move E3: E3 is not empty"),
        ("stall.sh", "exec sleep 30\n", "wrote no move within 0.6 s"),
        ("talker.sh", "echo 'about to fail' >&2\nexit 1\n", "[stderr: about to fail]"),
    ];
    for (name, body, reason) in cases {
        let b = script(dir.path(), name, body);
        let output =
            run(&["--a", "depth=1,placement=random", "--b", &b, "--games", "2", "--time", "0.1", "--margin", "0.5"]);
        let summary = stdout(&output);
        assert_eq!(line(&summary, "Forfeits: "), "A 0, B 2", "{name}: {summary}");
        assert!(line(&summary, "Score of A: ").starts_with("100.0% (2 of 2)"), "{name}");
        for game in 1..=2 {
            let forfeit = line(&summary, &format!("  game {game}: B "));
            assert!(forfeit.contains(reason), "{name}: {summary}");
        }
    }
}

#[test]
fn the_codecup_player_is_a_well_behaved_external_program() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games");
    let b = format!("cmd:{} codecup --time 0.5 --hash 4", env!("CARGO_BIN_EXE_dvonn"));
    let output = run(&[
        "--a",
        "depth=1,placement=heuristic",
        "--b",
        &b,
        "--games",
        "2",
        "--concurrency",
        "2",
        "--seed",
        "4",
        "--records",
        records.to_str().unwrap(),
    ]);
    let summary = stdout(&output);
    assert_eq!(line(&summary, "Forfeits: "), "A 0, B 0", "{summary}");
    assert!(line(&summary, "Average margin: A ").ends_with("(2 games played to the end)"));
    for n in 1..=2 {
        let text = std::fs::read_to_string(records.join(format!("game-{n:04}.dvonn"))).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        assert!(matches!(record.result, Outcome::Score { .. }), "{text}");
        record.check_result(&record.replay().unwrap()).unwrap();
    }
    let refused = run(&["--a", "depth=1", "--b", &b, "--random-setup"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("write {position} in its command line"));
}

/// Two middle-game positions, one per colour to move.
const OPENINGS: [&str; 2] = [
    "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m",
    "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B b m",
];

#[test]
fn openings_from_a_file_reach_programs_that_take_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.txt");
    std::fs::write(&file, format!("# two openings\n{}\n\n{}\n", OPENINGS[0], OPENINGS[1])).unwrap();
    let records = dir.path().join("games");
    let b = format!(
        "cmd:{} codecup --time 1 --hash 4 --position {{position}} --seed {{seed}}",
        env!("CARGO_BIN_EXE_dvonn")
    );
    let output = run(&[
        "--a",
        "depth=1",
        "--b",
        &b,
        "--openings",
        file.to_str().unwrap(),
        "--concurrency",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    let summary = stdout(&output);
    assert!(line(&summary, "Games: ").starts_with("4 "), "twice each opening: {summary}");
    assert!(line(&summary, "Openings: ").starts_with("the 2 positions of"), "{summary}");
    assert_eq!(line(&summary, "Forfeits: "), "A 0, B 0", "{summary}");
    for n in 1..=4 {
        let text = std::fs::read_to_string(records.join(format!("game-{n:04}.dvonn"))).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        assert_eq!(record.start.to_string(), OPENINGS[(n - 1) / 2], "game {n}");
        record.check_result(&record.replay().unwrap()).unwrap();
    }
}

#[test]
fn bad_openings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.txt");
    std::fs::write(&file, format!("{}\nWWW w m\n", OPENINGS[0])).unwrap();
    let output = run(&["--a", "depth=1", "--b", "depth=1", "--openings", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 2: not a position string"), "{stderr}");
    std::fs::write(&file, "\n# nothing\n").unwrap();
    let output = run(&["--a", "depth=1", "--b", "depth=1", "--openings", file.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("holds no position"));
    std::fs::write(&file, OPENINGS[0]).unwrap();
    let b = format!("cmd:{} codecup", env!("CARGO_BIN_EXE_dvonn"));
    let output = run(&["--a", "depth=1", "--b", &b, "--openings", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("write {position} in its command line"));
}

#[test]
fn the_sprt_stops_a_match_early() {
    // Equal players against the hypotheses 200 and 600 Elo: H0 comes fast.
    let output = run(&[
        "--a",
        "depth=1,placement=random",
        "--b",
        "depth=1,placement=random",
        "--games",
        "400",
        "--sprt",
        "200,600",
        "--seed",
        "2",
    ]);
    let summary = stdout(&output);
    let games: u32 = line(&summary, "Games: ").split(' ').next().unwrap().parse().unwrap();
    assert!(games < 400, "{summary}");
    let sprt = line(&summary, "SPRT elo0=200 elo1=600 (alpha=beta=0.05): LLR ");
    // Games under way when the test decided are counted too, so the LLR
    // over all games may lie back inside the bounds; the one that decided
    // is beyond the lower bound.
    assert!(sprt.contains(&format!(" over all {games} games, bounds [-2.94, 2.94]: H0 accepted after ")), "{sprt}");
    assert!(sprt.ends_with("(A - B = 200 Elo favoured over 600)"), "{sprt}");
    let (_, decided) = sprt.split_once(" games at LLR ").unwrap();
    let llr: f64 = decided.split(' ').next().unwrap().parse().unwrap();
    assert!(llr <= -2.94, "{sprt}");
    let decided_after: u32 =
        sprt.split("H0 accepted after ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(decided_after <= games, "{sprt}");
}

#[test]
fn bad_specifications_are_refused() {
    for (a, expected) in [
        ("depth=x", "in --a: depth=x: \"x\" is not a whole number from 1 to 100"),
        ("speed=9", "unknown key \"speed\""),
        ("cmd:", "cmd: needs a command line"),
    ] {
        let output = run(&["--a", a, "--b", "depth=1"]);
        assert_eq!(output.status.code(), Some(1), "{a}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(expected), "{a}: {stderr}");
    }
    let output = run(&["--a", "depth=1", "--b", "cmd:/nonexistent/player"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot start /nonexistent/player"));
    let output = run(&["--a", "depth=1", "--b", "depth=1", "--sprt", "10,0"]);
    assert_eq!(output.status.code(), Some(2));
}
