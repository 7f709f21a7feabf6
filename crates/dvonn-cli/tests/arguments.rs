//! Bad command-line arguments, through the real binary: one line on
//! standard error naming the problem and the command's `--help`, exit
//! status 2; a negative number reaches the value's own check whether it is
//! written `--time -1` or `--time=-1`.

mod common;

use common::{dvonn, failure};

const FULL_BOARD: &str = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";

/// Checks an argument error: status 2, one line with `expected` and a
/// pointer to the help of `command`. Returns the line.
fn argument_error(args: &[&str], expected: &str) -> String {
    let output = dvonn(args);
    let line = failure(&output, expected);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {line}");
    assert!(line.trim_end().ends_with(&format!("(see dvonn {} --help)", args[0])), "{line}");
    line
}

#[test]
fn negative_numbers_reach_the_value_checks_in_both_spellings() {
    let time = "a time must be more than 0 and at most 86400 seconds";
    let cases: [(&[&str], &str, &str, &str); 8] = [
        (&["analyze", FULL_BOARD], "--time", "-1", time),
        (&["analyze", FULL_BOARD], "--threads", "-2", "-2 is not in 1..=256"),
        (&["play"], "--time", "-1", time),
        (&["play"], "--seed", "-3", "invalid value '-3' for '--seed <N>'"),
        (&["match", "--a", "depth=1", "--b", "depth=1"], "--time", "-0.5", time),
        (&["match", "--a", "depth=1", "--b", "depth=1"], "--games", "-2", "-2 is not in 1..=1000000"),
        (&["match", "--a", "depth=1", "--b", "depth=1"], "--sprt", "-10,-20", "elo0 must be below elo1"),
        (&["codecup"], "--time", "-5", time),
    ];
    for (command, option, value, expected) in cases {
        let separate = argument_error(&[command, &[option, value]].concat(), expected);
        let joined = argument_error(&[command, &[&format!("{option}={value}")]].concat(), expected);
        assert_eq!(separate, joined);
        assert!(!separate.contains("unexpected argument") && !separate.contains("tip:"), "{separate}");
    }
}

#[test]
fn a_negative_perft_depth_is_a_bad_depth() {
    let plain = argument_error(&["perft", FULL_BOARD, "-1"], "invalid value '-1' for '<DEPTH>'");
    let after_dashes = argument_error(&["perft", FULL_BOARD, "--", "-1"], "invalid value '-1' for '<DEPTH>'");
    assert_eq!(plain, after_dashes);
}

#[test]
fn parser_errors_are_one_line() {
    argument_error(
        &["analyze", FULL_BOARD, "--tim", "3"],
        "unexpected argument '--tim' found; tip: a similar argument exists: '--time'",
    );
    argument_error(&["analyze"], "the following required arguments were not provided: <POSITION>");
    argument_error(&["render", FULL_BOARD, "--format", "png"], "invalid value 'png' for '--format");
    argument_error(&["play", "--level", "club", "--time", "1"], "cannot be used with");
    let line = failure(&dvonn(["frobnicate"]), "unrecognized subcommand 'frobnicate'");
    assert!(line.contains("(see dvonn --help)"), "{line}");
}

#[test]
fn help_and_version_still_go_to_standard_output() {
    let output = dvonn(["perft", "--help"]);
    assert!(output.status.success() && output.stderr.is_empty());
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("Usage: dvonn perft [OPTIONS] <POSITION> <DEPTH>"), "{help}");
    let output = dvonn(["--version"]);
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout).unwrap().starts_with("dvonn "));
}
