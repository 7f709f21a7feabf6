//! `dvonn perft` against the shared perft vectors (the core crate's, which
//! it exports) and `dvonn replay` on games of a seeded random player,
//! through the real binary.

mod common;

use std::fs;

use common::{arg, dvonn, failure, games, success};

/// `(position string, [(depth, count)])` of the perft vectors.
fn perft_vectors() -> Vec<(String, Vec<(u32, u64)>)> {
    let vectors =
        dvonn_core::perft::read_vectors(dvonn_core::perft::VECTORS).unwrap_or_else(|e| panic!("perft.txt {e}"));
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
    let output = dvonn(["perft", "--divide", position, &depth.to_string()]);
    let out = success(&output);
    assert!(output.stderr.is_empty(), "no progress when standard error is not a terminal");
    let lines: Vec<&str> = out.lines().collect();
    let (last, moves) = lines.split_last().unwrap();
    assert!(last.starts_with(&format!("{expected} leaves")), "{last}");
    assert_eq!(moves.len() as u64, counts[0].1);
    let sum: u64 = moves.iter().map(|line| line.split_once(' ').unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, expected);
}

/// A long count on a terminal: progress on standard error, then Ctrl-C
/// (SIGINT), which prints the root moves counted and the leaves so far.
#[cfg(unix)]
#[test]
fn a_long_perft_shows_progress_and_ctrl_c_prints_what_was_counted() {
    use dvonn_core::Position;
    use dvonn_core::perft::{PerftMode, perft};

    let full_board = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";
    // Perft 6 of the full board takes seconds (each root move a fraction of one).
    let (output, screen) = common::interrupt_when_shown(&["perft", "--divide", full_board, "6"], "M leaves/s");
    assert!(screen.contains("/49 root moves, ") && screen.contains(" leaves in "), "{screen:?}");
    assert_eq!(output.status.code(), Some(130), "{screen:?}");
    assert!(screen.contains("dvonn: interrupted by Ctrl-C"), "{screen:?}");

    // Each root move counted is printed with its count, then what was counted in all.
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let (last, counted) = lines.split_last().unwrap();
    assert!(last.starts_with("interrupted after "), "{stdout}");
    assert!(last.contains(&format!(", {} of 49 root moves complete", counted.len())), "{last}");
    let position: Position = full_board.parse().unwrap();
    let mut sum = 0;
    for (line, &mv) in counted.iter().zip(position.legal_moves().iter()) {
        let mut child = position;
        child.play(mv).unwrap();
        let expected = perft(&child, 5, PerftMode::Bulk);
        assert_eq!(*line, format!("{mv} {expected}"));
        sum += expected;
    }
    let leaves: u64 = last.split(": ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap().parse().unwrap();
    assert!(leaves >= sum, "{last}: at least the {sum} leaves of the complete root moves");
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
    let status = dvonn_notation::diagram::status(&position);
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
    let position = game.position_after(60);
    let empty = dvonn_core::Cell::ALL.into_iter().find(|&cell| position.stack_at(cell).is_none()).unwrap();
    let target = if empty == dvonn_core::Cell::ALL[0] { dvonn_core::Cell::ALL[1] } else { dvonn_core::Cell::ALL[0] };
    moves[60] = format!("{empty}{target}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("illegal.txt");
    fs::write(&file, moves.join(" ")).unwrap();
    let output = dvonn(["replay", arg(&file)]);
    assert_eq!(output.status.code(), Some(1));
    failure(&output, &format!("move 31 (ply 60) {empty}{target} is illegal"));
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let full_board = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";
    // `analyze` writes a line per iteration for ten minutes unless its
    // reader goes away: like `dvonn analyze ... | head -1`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_dvonn"))
        .args(["analyze", full_board, "--time", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("info depth 1 "), "{first}");
    // The reader is gone: the next line fails to be written, at the end of
    // an iteration, milliseconds or a few seconds from now. Generous: only
    // a search that goes on takes two minutes.
    let gone = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if gone.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("the search went on for two minutes after its output closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{:?} {stderr}", output.status);
}
