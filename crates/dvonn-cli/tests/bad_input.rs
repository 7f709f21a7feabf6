//! Bad input to `convert`, `render` and `replay`, through the real binary:
//! every case exits with a non-zero status and one clear line on standard
//! error, never a panic.

mod common;

use std::fs;
use std::path::Path;

use common::{arg, dvonn, failure};

/// The commands that read a game file, as argument lists before the file.
const READERS: [&[&str]; 3] = [&["convert"], &["render"], &["replay"]];

/// Runs every reader on `file` and checks the error line, which must
/// contain the file's name and `expected` (or `expected_replay` for
/// `replay`, whose messages are its own).
fn check(file: &Path, expected: &str, expected_replay: &str) {
    for command in READERS {
        let mut args = command.to_vec();
        args.push(arg(file));
        let wanted = if command == ["replay"] { expected_replay } else { expected };
        let line = failure(&dvonn(&args), wanted);
        assert!(line.contains(arg(file)), "{line}");
    }
}

#[test]
fn a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    check(&missing, "cannot open", "cannot open");
}

#[test]
fn an_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    fs::write(&empty, "").unwrap();
    check(&empty, "is empty: expected a DVONN game", "is empty: expected a DVONN game");
    fs::write(&empty, " \n\t\n").unwrap();
    check(&empty, "is empty: expected a DVONN game", "is empty: expected a DVONN game");
}

#[test]
fn a_binary_file() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("picture.png");
    fs::write(&binary, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe").unwrap();
    check(&binary, "is not a text file (byte 0 is not UTF-8)", "is not a text file (byte 0 is not UTF-8)");
    // Text that is valid UTF-8 but no game.
    fs::write(&binary, "\0\0\0 hello").unwrap();
    check(&binary, "cannot tell the format of the text", "cannot tell the format of the text");
}

#[test]
fn a_file_over_the_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.txt");
    // A sparse file of 100 MB (nothing written): refused after reading at
    // most the 16 MiB limit.
    fs::File::create(&huge).unwrap().set_len(100_000_000).unwrap();
    check(&huge, "is larger than 16 MiB", "is larger than 16 MiB");
}

#[test]
fn a_directory() {
    let dir = tempfile::tempdir().unwrap();
    check(dir.path(), "is a directory, not a file", "is a directory, not a file");
}

#[test]
fn a_truncated_record() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.txt");
    fs::write(&file, "[Event \"Casual game\"]\n[White \"Ann").unwrap();
    let expected = "game record: line 2, column 8: unterminated string";
    check(&file, expected, expected);
    fs::write(&file, "[Event \"Casual game\"]\n\n1. E3 D3 2. C").unwrap();
    let expected = "game record: line 3, column 13: move 2 (ply 2): \"C\" is not a move";
    check(&file, expected, expected);
}

#[test]
fn an_illegal_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("illegal.txt");
    fs::write(&file, "[Event \"Casual game\"]\n\n1. E3 D3 2. C3 E3 3. F3").unwrap();
    let expected = "move 2 (ply 3) E3 is illegal: E3 is not empty";
    check(&file, expected, expected);
    // In a Little Golem transcript too.
    fs::write(&file, "Event [x]\n1. e3 d3 2. d3").unwrap();
    let expected = "move 2 (ply 2) D3 is illegal: D3 is not empty";
    check(&file, expected, expected);
}

#[test]
fn a_wrong_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("result.txt");
    fs::write(&file, "[Result \"24-19\"]\n\n1. E3 D3").unwrap();
    let expected = "the record gives the result 24-19, but the game is not over after its last move";
    check(&file, expected, expected);
}

#[test]
fn bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.txt");
    fs::write(&file, "1. E3 D3").unwrap();
    failure(&dvonn(["convert", arg(&file), "--ply", "3"]), "--ply 3 is past the end of the game (2 plies)");
    failure(&dvonn(["render", arg(&file), "--ply", "9"]), "--ply 9 is past the end of the game (2 plies)");
    // Reading a record as the wrong format.
    failure(&dvonn(["convert", arg(&file), "--from", "sgf"]), "BoardSpace SGF record: line 1, column 1");
    // An output directory that does not exist, or is a file: the error
    // names it, and not the temporary file the output is first written to.
    let missing = dir.path().join("no/such/dir");
    for command in ["convert", "render"] {
        let out = missing.join("out.txt");
        let line = failure(&dvonn([command, arg(&file), "-o", arg(&out)]), "the directory");
        let expected = format!("cannot write {}: the directory {} does not exist", arg(&out), arg(&missing));
        assert_eq!(line.trim_end(), format!("dvonn: {expected}"));
        let out = file.join("out.txt");
        let line = failure(&dvonn([command, arg(&file), "-o", arg(&out)]), "is not a directory");
        assert!(!line.contains(".dvonn-"), "{line}");
    }
}
