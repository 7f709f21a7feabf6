//! `dvonn codecup`: the CodeCup 2011 player protocol spoken by the real
//! binary (the session itself is tested in-process by the library's unit
//! tests).

mod common;

use dvonn_core::{Move, Position};

/// Runs `dvonn codecup` with `args` and `input` on standard input.
fn run_binary(args: &[&str], input: &str) -> std::process::Output {
    common::dvonn_with_input(["codecup"].iter().chain(args), input.as_bytes())
}

#[test]
fn the_binary_speaks_the_protocol_and_fails_with_status_1() {
    let output = run_binary(&["--time", "1"], "Start\nQuit\n");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    assert!(stdout.trim().parse::<Move>().unwrap().is_placement());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("dvonn codecup: quit (White, 1 moves"), "{stderr}");

    let output = run_binary(&["--time", "1"], "E3\nE3\n");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim(), "dvonn: line 2: the opponent's move E3 is illegal: E3 is not empty");
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 1);

    let output = run_binary(&[], "Start\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8(output.stderr).unwrap().contains("input ended before the game did"));

    let output = run_binary(&["--time", "0"], "Quit\n");
    assert_eq!(output.status.code(), Some(2), "clap rejects a zero time");
}

#[test]
fn the_binary_takes_the_start_position_as_an_option() {
    // Black to move in the movement phase: Start gives the session Black.
    let start: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B b m".parse().unwrap();
    let output = run_binary(&["--time", "1", "--position", &start.to_string()], "Start\nQuit\n");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let written: Move = String::from_utf8(output.stdout).unwrap().trim().parse().unwrap();
    assert!(start.is_legal(written));
}
