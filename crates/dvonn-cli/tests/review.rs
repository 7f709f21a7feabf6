//! `dvonn review`, driven through the real binary: the sample games of
//! `dvonn-notation` (a real Little Golem game and BoardSpace SGF files,
//! read from that package's `tests/records`, so this file is left out of
//! the package), a game whose blunder is known (a proven win thrown away),
//! the outputs and how they read back, and bad input.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{arg, dvonn, dvonn_with_input, failure, success};
use dvonn_core::Move;
use dvonn_notation::GameRecord;
use serde_json::Value;

/// The sample game files of `dvonn-notation`.
fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../dvonn-notation/tests/records").join(name)
}

/// White to move wins by 6 with C3D4, a proven win; the game goes C3C4,
/// after which Black ends it with F4E4 and wins 10-7.
const THROWN_WIN: &str = "[Event \"A win thrown away\"]
[White \"Ann\"]
[Black \"Bob\"]
[Setup \"position\"]
[Position \"W4.DD...../.W2B2W5B...../DB2W......../........../......... w m\"]
[Result \"7-10\"]

1. C3C4 F4E4 7-10
";

/// The rows of the table `dvonn review` printed: the lines that start
/// with a ply number.
fn rows(stdout: &str) -> Vec<Vec<&str>> {
    stdout
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|words| words.first().is_some_and(|word| word.parse::<usize>().is_ok()))
        .collect()
}

/// The elements of `svg` whose `class` attribute has the word `class`.
fn count(svg: &roxmltree::Document, class: &str) -> usize {
    svg.descendants().filter(|node| node.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))).count()
}

/// Reviews `game` quickly with every output in `dir`, checks that the
/// outputs agree with each other and with the game, and returns the JSON.
fn review_with_outputs(game: &Path, dir: &Path) -> Value {
    let (record, svg, json) = (dir.join("game.dvonn"), dir.join("graph.svg"), dir.join("review.json"));
    let stdout = success(&dvonn([
        "review",
        arg(game),
        "--depth",
        "2",
        "-o",
        arg(&record),
        "--svg",
        arg(&svg),
        "--json",
        arg(&json),
    ]));
    let original = GameRecord::parse(&success(&dvonn(["convert", arg(game)]))).unwrap();
    let game = original.replay().unwrap();
    let moves: Vec<Move> = game.moves().collect();
    let plies = moves.len();

    // The table: one row per ply, in order, each after the one before.
    let rows = rows(&stdout);
    assert_eq!(rows.len(), plies, "{stdout}");
    for (ply, row) in rows.iter().enumerate() {
        assert_eq!(row[0], ply.to_string());
        assert_eq!(row[3], moves[ply].to_string());
    }
    assert!(stdout.contains("\nWhite") && stdout.contains("\nBlack"), "a summary line per player: {stdout}");

    // The JSON: one object per ply with the evaluations chained.
    let document: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let entries = document["plies"].as_array().unwrap();
    assert_eq!(entries.len(), plies);
    assert_eq!(document["game_length"], plies);
    for (ply, entry) in entries.iter().enumerate() {
        for field in ["ply", "move", "eval_before", "eval_after", "best", "loss", "mark"] {
            assert!(entry.get(field).is_some(), "ply {ply}: no {field}");
        }
        assert_eq!(entry["ply"], ply);
        assert_eq!(entry["move"], moves[ply].to_string());
        assert!(entry["loss"].as_f64().unwrap() >= 0.0);
        if let Some(next) = entries.get(ply + 1) {
            assert_eq!(entry["eval_after"], next["eval_before"], "ply {ply}");
        }
    }
    let marks = |mark: &str| entries.iter().filter(|entry| entry["mark"] == mark).count();
    for (side, summary) in ["white", "black"].map(|side| (side, &document["summary"][side])) {
        let marked = entries.iter().filter(|entry| entry["side"] == side && !entry["mark"].is_null()).count();
        let counted: u64 =
            ["inaccuracies", "mistakes", "blunders"].map(|key| summary[key].as_u64().unwrap()).iter().sum();
        assert_eq!(counted as usize, marked, "{side}");
    }

    // The graph: a well-formed SVG picture with a band per ply and a dot
    // per mark.
    let text = fs::read_to_string(&svg).unwrap();
    let picture = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(picture.root_element().tag_name().name(), "svg");
    assert_eq!(count(&picture, "ply"), plies);
    assert_eq!(count(&picture, "curve"), 1);
    for mark in ["inaccuracy", "mistake", "blunder"] {
        let dots =
            picture.descendants().filter(|node| node.attribute("class") == Some(&format!("mark {mark}"))).count();
        assert_eq!(dots, marks(mark), "{mark}");
    }
    assert!(count(&picture, "placement") == 1 && count(&picture, "movement") == 1);

    // The record: the same game, a comment per ply, read back whole by
    // `replay` and `convert`.
    let written = fs::read_to_string(&record).unwrap();
    let annotated = GameRecord::parse(&written).unwrap();
    assert!(annotated.replay().unwrap().moves().eq(game.moves()));
    assert_eq!((annotated.start, annotated.result), (original.start, original.result));
    assert!(annotated.tag("Annotator").is_some_and(|tag| tag.starts_with("dvonn review ")));
    for (ply, entry) in entries.iter().enumerate() {
        let comment: Vec<&str> = annotated.comments_after(ply + 1).collect();
        assert!(comment.len() == 1 && comment[0].starts_with("eval "), "ply {ply}: {comment:?}");
        let marked =
            ["inaccuracy", "mistake", "blunder"].iter().any(|mark| comment[0].contains(&format!(", {mark}: ")));
        assert_eq!(marked, !entry["mark"].is_null(), "ply {ply}: {}", comment[0]);
    }
    assert!(annotated.comments_after(0).any(|comment| comment.starts_with("Review by dvonn ")));
    assert_eq!(success(&dvonn(["convert", arg(&record)])), written, "convert keeps every comment");
    let replayed = success(&dvonn(["replay", arg(&record)]));
    assert_eq!(replayed.lines().last(), Some(game.position().outcome().to_string().as_str()));
    document
}

#[test]
fn the_real_little_golem_game_is_reviewed_into_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let document = review_with_outputs(&sample("littlegolem-dvonn.mc.2014.may.1.1.txt"), dir.path());
    // White resigned at move 38: 75 plies, the 49th placement filled in.
    assert_eq!(document["game_length"], 75);
    let entries = document["plies"].as_array().unwrap();
    assert_eq!(entries[48]["move"], "C5");
    assert_eq!((&entries[48]["forced"], &entries[48]["phase"]), (&Value::Bool(true), &Value::from("placement")));
    assert_eq!(entries[49]["phase"], "movement");
}

#[test]
fn the_boardspace_samples_are_reviewed_into_every_output() {
    let mut files: Vec<PathBuf> = fs::read_dir(sample(""))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "sgf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "{files:?}");
    for file in files {
        let dir = tempfile::tempdir().unwrap();
        let document = review_with_outputs(&file, dir.path());
        // Played to the end: the last evaluation is the final score, proven.
        let last = document["plies"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["eval_after_exact"], true, "{}", file.display());
    }
}

#[test]
fn a_proven_win_thrown_away_is_a_blunder_with_its_exact_margins() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("thrown.dvonn");
    fs::write(&game, THROWN_WIN).unwrap();
    let stdout = success(&dvonn(["review", arg(&game), "--depth", "30"]));
    let rows = rows(&stdout);
    assert_eq!(rows[0], ["0", "1.", "White", "C3C4", "=+6", "=-3", "C3D4", "9.00", "blunder"], "{stdout}");
    assert_eq!(rows[1], ["1", "1.", "Black", "F4E4", "=-3", "=-3"], "{stdout}");
    assert!(
        stdout.contains("White (Ann): 1 move, average loss 9.00, 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{stdout}"
    );

    // With the JSON on standard output, nothing else is printed there.
    let output = dvonn(["review", arg(&game), "--depth", "30", "--json", "-"]);
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    let blunder = &document["plies"][0];
    assert_eq!(blunder["mark"], "blunder");
    assert_eq!(blunder["best"], "C3D4");
    assert_eq!((blunder["eval_before"].as_f64(), blunder["eval_after"].as_f64()), (Some(6.0), Some(-3.0)));
    assert_eq!((&blunder["eval_before_exact"], &blunder["eval_after_exact"]), (&Value::Bool(true), &Value::Bool(true)));
    assert_eq!(blunder["loss"].as_f64(), Some(9.0));
    assert_eq!(document["summary"]["white"]["blunders"], 1);

    let record = dir.path().join("reviewed.dvonn");
    success(&dvonn(["review", arg(&game), "--depth", "30", "-o", arg(&record)]));
    let reviewed = GameRecord::parse(&fs::read_to_string(&record).unwrap()).unwrap();
    let comments: Vec<&str> = reviewed.comments_after(1).collect();
    assert_eq!(comments, ["eval =-3, blunder: loss 9.00, best C3D4"]);
}

#[test]
fn bad_input_is_one_line_of_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let outputs = [dir.path().join("out.dvonn"), dir.path().join("out.svg"), dir.path().join("out.json")];
    let review = |game: &Path| {
        let [record, svg, json] = &outputs;
        dvonn(["review", arg(game), "--depth", "2", "-o", arg(record), "--svg", arg(svg), "--json", arg(json)])
    };
    let missing = dir.path().join("missing.dvonn");
    failure(&review(&missing), "cannot open");
    let binary = dir.path().join("picture.png");
    fs::write(&binary, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe").unwrap();
    failure(&review(&binary), "is not a text file");
    let illegal = dir.path().join("illegal.dvonn");
    fs::write(&illegal, "1. E3 D3 2. E3 C3\n").unwrap();
    let line = failure(&review(&illegal), "move 2 (ply 2) E3 is illegal: E3 is not empty");
    assert!(line.contains("illegal.dvonn"), "{line}");
    for output in &outputs {
        assert!(!output.exists(), "{} written", output.display());
    }
    // Bad arguments: status 2.
    let game = dir.path().join("thrown.dvonn");
    fs::write(&game, THROWN_WIN).unwrap();
    for bad in [["--depth", "0"], ["--time", "-1"], ["--threads", "0"]] {
        let output = dvonn(["review", arg(&game), bad[0], bad[1]]);
        failure(&output, bad[0]);
        assert_eq!(output.status.code(), Some(2));
    }
}

#[test]
fn outputs_are_checked_before_the_search_and_never_replaced_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("thrown.dvonn");
    fs::write(&game, THROWN_WIN).unwrap();
    let existing = dir.path().join("existing.svg");
    fs::write(&existing, "keep me").unwrap();
    // An hour per position: refused before the first search.
    let output = dvonn(["review", arg(&game), "--time", "3600", "--svg", arg(&existing)]);
    failure(&output, "existing.svg exists; use --force to overwrite it");
    assert_eq!(fs::read_to_string(&existing).unwrap(), "keep me");
    let twice = dir.path().join("twice");
    failure(&dvonn(["review", arg(&game), "--svg", arg(&twice), "--json", arg(&twice)]), "is named as two outputs");
    let nowhere = dir.path().join("no/such/dir/out.json");
    failure(&dvonn(["review", arg(&game), "--json", arg(&nowhere)]), "does not exist");
    success(&dvonn(["review", arg(&game), "--depth", "30", "--svg", arg(&existing), "--force"]));
    assert!(fs::read_to_string(&existing).unwrap().starts_with("<svg"));
}

/// The 90-ply game of the review's timing (docs/PERFORMANCE.md): the
/// positions with a single legal move (the 49th placement, a pass) and the
/// finished game at the end are not searched.
#[test]
fn only_positions_with_a_choice_are_searched() {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/ninety-plies.dvonn");
    let output = success(&dvonn(["review", arg(&game), "--depth", "3", "--json", "-"]));
    let document: Value = serde_json::from_str(&output).unwrap();
    let entries = document["plies"].as_array().unwrap();
    assert_eq!(entries.len(), 90);
    let unsearched: Vec<u64> =
        entries.iter().filter(|entry| entry["depth"] == 0).map(|entry| entry["ply"].as_u64().unwrap()).collect();
    let replayed = GameRecord::parse(&fs::read_to_string(&game).unwrap()).unwrap().replay().unwrap();
    let forced: Vec<u64> =
        (0..90).filter(|&ply| replayed.positions()[ply].legal_moves().len() == 1).map(|ply| ply as u64).collect();
    assert_eq!(unsearched, forced);
    // The 49th placement, the pass, and two movements without alternative.
    assert_eq!(forced, [48, 86, 88, 89]);
    assert!(entries.iter().all(|entry| entry["forced"] == (entry["depth"] == 0)));
    // The game ends 36-7: the last evaluation is that margin, exactly.
    assert_eq!(
        (entries[89]["eval_after"].as_f64(), &entries[89]["eval_after_exact"]),
        (Some(29.0), &Value::Bool(true))
    );
}

#[test]
fn a_game_read_from_standard_input_is_reviewed() {
    let stdout = success(&dvonn_with_input(["review", "-", "--depth", "30"], THROWN_WIN.as_bytes()));
    assert_eq!(rows(&stdout).len(), 2, "{stdout}");
    assert!(stdout.starts_with("Review of -: 2 plies, depth 30 per position, 2 threads."), "{stdout}");
}

/// Ctrl-C on a terminal: the plies finished so far are printed, no file is
/// written, and the exit status is 130.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_plies_reviewed_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("review.json");
    let game = sample("littlegolem-dvonn.mc.2014.may.1.1.txt");
    let args = ["review", arg(&game), "--time", "1", "--json", arg(&json)];
    let (output, screen) = common::interrupt_when_shown(&args, "/75 plies");
    assert_eq!(output.status.code(), Some(130), "{screen:?}");
    assert!(screen.contains("dvonn: interrupted by Ctrl-C"), "{screen:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let rows = rows(&stdout);
    assert!(!rows.is_empty() && rows.len() < 75, "{stdout}");
    // Reviewed from the end: the last plies of the game.
    assert_eq!(rows.last().unwrap()[0], "74", "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert_eq!(last, format!("interrupted after {} of 75 plies (reviewed from the end); no file written", rows.len()));
    assert!(!json.exists());
}

#[test]
fn the_help_says_what_a_review_reports_with_examples() {
    let help = success(&dvonn(["review", "--help"]));
    for words in
        ["--time <S>", "--svg <FILE>", "blunder from 6 pieces", "Examples:", "dvonn review game.sgf", "dvonn serve"]
    {
        assert!(help.contains(words), "{words:?} in {help}");
    }
}
