//! `dvonn perft` against the shared perft vectors and `dvonn replay` on the
//! shared games, through the real binary.

mod common;

use std::fs;

use common::{PERFT, arg, dvonn, failure, games, success};

/// `(position string, [(depth, count)])` of the perft vectors.
fn perft_vectors() -> Vec<(String, Vec<(u32, u64)>)> {
    let vectors =
        dvonn_core::perft::read_vectors(PERFT).unwrap_or_else(|(line, e)| panic!("perft.txt line {line}: {e}"));
    vectors.into_iter().map(|v| (v.position.to_string(), v.counts)).collect()
}

#[test]
fn perft_counts_match_the_vectors() {
    let vectors = perft_vectors();
    assert!(vectors.len() >= 10);
    // A few vectors at small depths: the core crate checks them all.
    let mut checked = 0;
    for (position, counts) in vectors.iter().step_by(3) {
        for &(depth, expected) in counts.iter().filter(|(_, count)| *count <= 50_000) {
            let out = success(&dvonn(["perft", position, &depth.to_string()]));
            let last = out.lines().last().unwrap();
            assert!(last.starts_with(&format!("{expected} leaves")), "{position} depth {depth}: {last}");
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked}");
}

#[test]
fn perft_divide_sums_to_the_count() {
    let (position, counts) = &perft_vectors()[3];
    let (depth, expected) = counts[1];
    let out = success(&dvonn(["perft", "--divide", position, &depth.to_string()]));
    let lines: Vec<&str> = out.lines().collect();
    let (last, moves) = lines.split_last().unwrap();
    assert!(last.starts_with(&format!("{expected} leaves")), "{last}");
    assert_eq!(moves.len() as u64, counts[0].1);
    let sum: u64 = moves.iter().map(|line| line.split_once(' ').unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, expected);
}

#[test]
fn perft_rejects_a_bad_position() {
    let output = dvonn(["perft", "........./........../........ w p", "1"]);
    failure(&output, "cannot read the position");
}

#[test]
fn replay_prints_the_score_of_each_game() {
    let dir = tempfile::tempdir().unwrap();
    for (i, game) in games().iter().enumerate() {
        let file = dir.path().join(format!("game{i}.txt"));
        fs::write(&file, game.record(i + 1)).unwrap();
        let out = success(&dvonn(["replay", arg(&file)]));
        let lines: Vec<&str> = out.lines().collect();
        // The position, who won, and the score on the last line, as before.
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0], game.position_after(game.moves.len()).to_string());
        let (white, black) = game.score.split_once('-').unwrap();
        let (white, black): (u32, u32) = (white.parse().unwrap(), black.parse().unwrap());
        let plies = game.moves.len();
        let verdict = match white.cmp(&black) {
            std::cmp::Ordering::Equal => format!("A draw: {white} pieces each after {plies} plies."),
            order => {
                let (winner, won, lost) = if order == std::cmp::Ordering::Greater {
                    ("White", white, black)
                } else {
                    ("Black", black, white)
                };
                let margin = if won - lost == 1 { "1 piece".to_string() } else { format!("{} pieces", won - lost) };
                format!("{winner} wins by {margin} ({won} to {lost}) after {plies} plies.")
            }
        };
        assert_eq!(lines[1], verdict, "game {i}");
        assert_eq!(lines[2], game.score, "game {i}");
    }
}

#[test]
fn replay_says_when_a_game_is_unfinished_or_resigned() {
    let game = &games()[0];
    let moves: Vec<String> = game.moves[..60].iter().map(ToString::to_string).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("unfinished.txt");
    fs::write(&file, moves.join(" ")).unwrap();
    let out = success(&dvonn(["replay", arg(&file)]));
    let lines: Vec<&str> = out.lines().collect();
    let position = game.position_after(60);
    let status = dvonn_core::notation::diagram::status(&position);
    assert_eq!(lines, [position.to_string(), format!("The game is unfinished after 60 plies: {status}."), "*".into()]);

    // The side to move resigns.
    let side = position.side_to_move();
    let letter = if side == dvonn_core::Color::White { 'w' } else { 'b' };
    fs::write(&file, format!("[Result \"resign-{letter}\"]\n\n{}", moves.join(" "))).unwrap();
    let out = success(&dvonn(["replay", arg(&file)]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1..], [format!("{side} resigned after 60 plies: {} wins.", !side), "*".into()]);
}

#[test]
fn replay_names_the_illegal_move() {
    let game = &games()[1];
    let mut moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    // Ply 60 (move 31) jumps a stack that is not there.
    moves[60] = "A1K5".to_string();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("illegal.txt");
    fs::write(&file, moves.join(" ")).unwrap();
    let output = dvonn(["replay", arg(&file)]);
    assert_eq!(output.status.code(), Some(1));
    failure(&output, "move 31 (ply 60) A1K5 is illegal");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let full_board = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";
    let start = Instant::now();
    // `analyze` writes a line per iteration for 20 s unless its reader
    // goes away: like `dvonn analyze ... | head -1`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_dvonn"))
        .args(["analyze", full_board, "--time", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(first.starts_with("info depth 1 "), "{first}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{:?} {stderr}", output.status);
    assert!(start.elapsed() < Duration::from_secs(10), "the search stopped when its output closed");
}
