//! `dvonn convert`, driven through the real binary: round trips between
//! formats, SGF input, positions after N plies, and output files.

mod common;

use std::fs;

use common::{arg, dvonn, dvonn_with_input, failure, file_names, games, sample_record, success};
use dvonn_core::{GameRecord, RecordResult};

/// The canonical game record of `text` (what `convert` writes by default).
fn canonical(text: &str) -> String {
    success(&dvonn_with_input(["convert", "-"], text.as_bytes()))
}

#[test]
fn record_to_little_golem_and_back_is_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    for (i, game) in games().iter().enumerate() {
        let record = dir.path().join(format!("game{i}.txt"));
        let lg = dir.path().join(format!("game{i}.lg"));
        let back = dir.path().join(format!("game{i}.back.txt"));
        fs::write(&record, game.record(i + 1)).unwrap();
        success(&dvonn(["convert", arg(&record), "--to", "lg", "-o", arg(&lg)]));
        let transcript = fs::read_to_string(&lg).unwrap();
        assert!(transcript.starts_with(&format!("Event [games.txt game {}]\n", i + 1)), "{transcript}");
        assert!(transcript.contains("1. "), "{transcript}");
        success(&dvonn(["convert", arg(&lg), "-o", arg(&back)]));
        let back = fs::read_to_string(&back).unwrap();
        assert_eq!(back, canonical(&game.record(i + 1)), "game {i}");
        let parsed = GameRecord::parse(&back).unwrap();
        assert_eq!(parsed.moves, game.moves);
        assert_eq!(parsed.result.to_string(), game.score);
    }
}

#[test]
fn record_to_codecup_and_back_is_the_same_game() {
    for (i, game) in games().iter().enumerate() {
        let log = success(&dvonn_with_input(["convert", "-", "--to", "codecup"], game.record(i).as_bytes()));
        assert!(log.starts_with("Start\n") && log.ends_with("Quit\n"), "{log}");
        assert_eq!(log.lines().count(), game.moves.len() + 2);
        let back = success(&dvonn_with_input(["convert", "-", "--from", "codecup"], log.as_bytes()));
        let parsed = GameRecord::parse(&back).unwrap();
        assert_eq!(parsed.moves, game.moves, "game {i}");
        assert_eq!(parsed.result.to_string(), game.score, "game {i}");
    }
}

#[test]
fn boardspace_sgf_is_read() {
    let sgf = sample_record("handmade-boardspace.sgf");
    // The hand-made SGF file is game 2 of games.txt.
    let game = &games()[1];
    for args in [vec!["convert", arg(&sgf)], vec!["convert", "--from", "sgf", arg(&sgf)]] {
        let text = success(&dvonn(args));
        let record = GameRecord::parse(&text).unwrap();
        assert_eq!(record.moves, game.moves);
        assert_eq!(record.result.to_string(), game.score);
    }
    // SGF is read only.
    let output = dvonn(["convert", arg(&sgf), "--to", "sgf"]);
    assert!(!output.status.success());
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

#[test]
fn a_real_little_golem_game_keeps_its_tags_and_resignation() {
    let text = success(&dvonn(["convert", arg(&sample_record("littlegolem-dvonn.mc.2014.may.1.1.txt"))]));
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.tag("Event"), Some("Tournament dvonn.mc.2014.may.1.1"));
    assert_eq!(record.result, RecordResult::Resigned(dvonn_core::Color::White));
    assert!(text.contains("[Result \"resign-w\"]"), "{text}");
}

#[test]
fn position_after_n_plies_equals_replaying_n_plies() {
    let game = &games()[0];
    let record = game.record(1);
    for ply in [0, 1, 3, 48, 49, 50, 60, game.moves.len()] {
        let text = success(&dvonn_with_input(
            ["convert", "-", "--to", "position", "--ply", &ply.to_string()],
            record.as_bytes(),
        ));
        assert_eq!(text, format!("{}\n", game.position_after(ply)), "ply {ply}");
    }
    // The default is the end of the game.
    let text = success(&dvonn_with_input(["convert", "-", "--to", "position"], record.as_bytes()));
    assert_eq!(text.trim(), game.position_after(game.moves.len()).to_string());
    let output = dvonn_with_input(["convert", "-", "--to", "position", "--ply", "500"], record.as_bytes());
    failure(&output, &format!("--ply 500 is past the end of the game ({} plies)", game.moves.len()));
}

#[test]
fn ply_cuts_a_record_short() {
    let game = &games()[2];
    let text = success(&dvonn_with_input(["convert", "-", "--ply", "55"], game.record(3).as_bytes()));
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.moves, game.moves[..55]);
    assert_eq!(record.result, RecordResult::Unfinished);
    assert_eq!(record.tag("White"), Some("Ann"));
}

#[test]
fn output_files_are_not_clobbered_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game.txt");
    let out = dir.path().join("out.lg");
    let game = &games()[3];
    fs::write(&input, game.record(4)).unwrap();
    fs::write(&out, "precious\n").unwrap();
    let args = ["convert", arg(&input), "--to", "lg", "-o", arg(&out)];
    let output = dvonn(args);
    failure(&output, "exists; use --force to overwrite it");
    assert_eq!(fs::read_to_string(&out).unwrap(), "precious\n");
    assert_eq!(file_names(dir.path()), ["game.txt", "out.lg"]);
    let mut forced = args.to_vec();
    forced.push("--force");
    success(&dvonn(forced));
    assert!(fs::read_to_string(&out).unwrap().starts_with("Event [games.txt game 4]"));
    assert_eq!(file_names(dir.path()), ["game.txt", "out.lg"], "no temporary file is left behind");
}

#[test]
fn formats_that_cannot_hold_the_game_say_why() {
    let record = "[Setup \"position\"]\n[Position \"WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m\"]\n\n";
    failure(
        &dvonn_with_input(["convert", "-", "--to", "lg"], record.as_bytes()),
        "cannot write - as a Little Golem transcript: a Little Golem transcript starts from the empty board",
    );
    // The position of such a record is fine.
    let text = success(&dvonn_with_input(["convert", "-", "--to", "position"], record.as_bytes()));
    assert_eq!(text, "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m\n");
}
