//! Helpers shared by the integration tests: running the real `dvonn`
//! binary, the shared test vectors, and checks on error output.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dvonn_core::{Move, Position};

/// The complete games of the core crate's vectors (a copy in `tests/data/`,
/// which CI checks against the original: the commands read them as files).
pub const GAMES: &str = include_str!("../data/games.txt");

/// A sample game file (copies in `tests/data/` of files of
/// `dvonn-notation`'s `tests/records/`, which CI checks against them).
pub fn sample_record(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// One game of `games.txt`: its final score and its moves.
#[derive(Clone, Debug)]
pub struct Game {
    /// `<white>-<black>`.
    pub score: String,
    /// The moves, every ply from the empty board.
    pub moves: Vec<Move>,
}

impl Game {
    /// The game as a game record with a few tags.
    pub fn record(&self, number: usize) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!(
            "[Event \"games.txt game {number}\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"{}\"]\n\n{}\n",
            self.score,
            moves.join(" ")
        )
    }

    /// The position after the first `ply` moves.
    pub fn position_after(&self, ply: usize) -> Position {
        let mut position = Position::new();
        for &mv in &self.moves[..ply] {
            position.play(mv).expect("the vectors are legal");
        }
        position
    }
}

/// The 5 games of `games.txt`.
pub fn games() -> Vec<Game> {
    GAMES
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace();
            let score = words.next().expect("a score").to_string();
            let moves = words.map(|word| word.parse().expect("a move")).collect();
            Game { score, moves }
        })
        .collect()
}

/// Runs `dvonn` with `args` and an empty standard input.
pub fn dvonn<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    dvonn_with_input(args, b"")
}

/// Runs `dvonn` with `args`, feeding `input` on standard input.
pub fn dvonn_with_input<I, S>(args: I, input: &[u8]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = Command::new(env!("CARGO_BIN_EXE_dvonn"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dvonn binary runs");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    // The command may exit before reading everything: ignore a broken pipe.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the dvonn binary finishes")
}

/// Standard output of a run that must have succeeded.
pub fn success(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "dvonn failed: {:?}\n{stderr}", output.status);
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Checks that a run failed cleanly: a non-zero status, no panic, and
/// exactly one line on standard error, which contains `expected`. Returns
/// that line.
pub fn failure(output: &Output, expected: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "dvonn succeeded; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "dvonn panicked: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line expected on stderr: {stderr:?}");
    assert!(stderr.ends_with('\n'));
    assert!(stderr.contains(expected), "{expected:?} not in {stderr:?}");
    assert!(stderr.starts_with("dvonn: "), "{stderr:?}");
    stderr
}

/// The names of the files in `directory`, sorted.
pub fn file_names(directory: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(directory)
        .expect("a readable directory")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `path` as a command-line argument (temporary directories have UTF-8 names).
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}
