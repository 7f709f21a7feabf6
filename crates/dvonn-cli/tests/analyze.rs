//! `dvonn analyze` through the real binary: the `info` and `bestmove`
//! lines, parsed field by field.

use std::process::{Command, Output};

use dvonn_core::{Move, Position};

const START: &str = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dvonn")).arg("analyze").args(args).output().unwrap()
}

/// One `info` line, read field by field.
#[derive(Debug)]
struct Info {
    depth: u32,
    score: f64,
    exact: bool,
    nodes: u64,
    time: u64,
    pv: Vec<Move>,
}

fn parse_info(line: &str) -> Info {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "info", "{line}");
    assert_eq!(words[1], "depth", "{line}");
    let depth = words[2].parse().unwrap();
    assert_eq!(words[3], "score", "{line}");
    let score_text = words[4];
    let decimals = score_text.split('.').nth(1).unwrap_or_else(|| panic!("{line}"));
    assert_eq!(decimals.len(), 2, "two decimals: {line}");
    let score = score_text.parse().unwrap();
    let exact = words[5] == "exact";
    let rest = &words[5 + usize::from(exact)..];
    assert_eq!(rest[0], "nodes", "{line}");
    let nodes = rest[1].parse().unwrap();
    assert_eq!(rest[2], "nps", "{line}");
    let _nps: u64 = rest[3].parse().unwrap();
    assert_eq!(rest[4], "time", "{line}");
    let time = rest[5].parse().unwrap();
    assert_eq!(rest[6], "pv", "{line}");
    let pv = rest[7..].iter().map(|mv| mv.parse().unwrap_or_else(|_| panic!("{mv} in {line}"))).collect();
    Info { depth, score, exact, nodes, time, pv }
}

fn lines(output: &Output) -> Vec<String> {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn one_info_line_per_iteration_then_the_best_move() {
    let output = analyze(&[START, "--depth", "4", "--threads", "1", "--hash", "8"]);
    let lines = lines(&output);
    assert_eq!(lines.len(), 5, "{lines:?}");
    let position: Position = START.parse().unwrap();
    let infos: Vec<Info> = lines[..4].iter().map(|line| parse_info(line)).collect();
    for (depth, info) in (1..).zip(&infos) {
        assert_eq!(info.depth, depth);
        assert!(info.score.abs() <= 49.0);
        assert!(!info.pv.is_empty());
        // The principal variation is a legal line of play.
        let mut line = position;
        for mv in &info.pv {
            line.play(*mv).unwrap();
        }
    }
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes && w[0].time <= w[1].time));
    let best = lines[4].strip_prefix("bestmove ").unwrap();
    assert_eq!(best, infos[3].pv[0].to_string());
    assert!(position.is_legal(best.parse().unwrap()));
}

#[test]
fn an_endgame_is_solved_with_an_exact_score() {
    // Two white stacks beside one DVONN piece, Black has one stack.
    let position = "........./........../..WDWB...../........../......... w m";
    let lines = lines(&analyze(&[position, "--time", "2"]));
    let last = parse_info(&lines[lines.len() - 2]);
    assert!(last.exact, "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "));
}

#[test]
fn a_forced_move_is_answered_at_once() {
    // White has no move but Black has: White must pass.
    let pass = "BBBBBBBBB/BWWWWWWBBB/BWWWWWWWWWB/BWWWWWWWWB/DDDBBBBBB w m";
    assert_eq!(lines(&analyze(&[pass])), ["bestmove PASS"]);
    // The last placement.
    let mut position = Position::new();
    for cell in dvonn_core::Cell::ALL.into_iter().take(48) {
        position.play(Move::Place(cell)).unwrap();
    }
    let text = position.to_string();
    assert_eq!(lines(&analyze(&[&text, "--time", "30"])), ["bestmove K5"]);
}

#[test]
fn a_finished_game_has_no_best_move() {
    let over = "........./........../....W2*....../........../......... w m";
    let output = analyze(&[over]);
    assert_eq!(lines(&output), ["bestmove none"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("the game is over (2-0)"), "{stderr}");
}

#[test]
fn bad_positions_and_options_are_refused() {
    let output = analyze(&["not a position"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("dvonn: cannot read the position: "));
    for args in [&[START, "--depth", "0"][..], &[START, "--time", "-1"], &[START, "--depth", "3", "--time", "1"]] {
        assert_eq!(analyze(args).status.code(), Some(2), "{args:?}");
    }
}
