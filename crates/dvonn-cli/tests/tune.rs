//! `dvonn tune` through the real binary: a tiny self-play run, its table
//! and its Rust literal.

use std::process::Command;

fn tune(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dvonn")).arg("tune").args(args).output().unwrap()
}

#[test]
fn a_tiny_run_prints_errors_a_table_and_a_literal() {
    let args = ["--games", "4", "--depth", "1", "--threads", "2", "--seed", "3"];
    let output = tune(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("samples: ") && lines[0].contains(" positions from 4 games"), "{stdout}");
    let mse = lines[1].strip_prefix("mean squared error: ").unwrap();
    let fitted: f64 = mse.split(' ').next().unwrap().parse().unwrap();
    let baseline: f64 =
        mse.split("predicting a margin of 0: ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(fitted <= baseline, "{stdout}");
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["feature", "full", "middle", "end", "full-before", "middle-before", "end-before"]
    );
    let table: Vec<(String, [i32; 3])> = lines[3..14]
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words.len(), 7, "{line}");
            (words[0].to_string(), std::array::from_fn(|set| words[1 + set].parse().unwrap()))
        })
        .collect();
    assert_eq!(table[0].0, "material");
    assert_eq!(table[10].0, "tempo");
    assert_eq!(lines[14], "pub const TUNED: Weights = Weights {");
    let list = |line: &str, name: &str| -> Vec<i32> {
        let inner = line.trim().strip_prefix(name).unwrap().strip_prefix(": [").unwrap().strip_suffix("],").unwrap();
        inner.split(", ").map(|w| w.parse().unwrap()).collect()
    };
    for (set, name) in ["full_board", "middle_game", "end_game"].iter().enumerate() {
        assert_eq!(list(lines[15 + set], name), table.iter().map(|row| row.1[set]).collect::<Vec<_>>());
    }
    assert_eq!(lines[18], "};");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("self-play: 4/4 games"), "progress on standard error: {stderr}");

    // The same seed gives the same weights.
    let again = String::from_utf8(tune(&args).stdout).unwrap();
    assert_eq!(again.lines().last(), lines.last().copied());
}

#[test]
fn bad_weights_are_refused() {
    let output = tune(&["--weights", "1,2,3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("3 weights given; the evaluation has 11"));
}

#[test]
fn games_start_from_the_boards_of_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("boards.txt");
    std::fs::write(&boards, "# one board\nWDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m\n").unwrap();
    let args = ["--games", "2", "--depth", "1", "--random-moves", "0", "--openings"];
    let output = tune(&[&args[..], &[boards.to_str().unwrap()]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("samples: ") && stdout.contains(" positions from 2 games"), "{stdout}");

    std::fs::write(&boards, "not a board\n").unwrap();
    let output = tune(&["--games", "1", "--openings", boards.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 1: not a position string"));
}
