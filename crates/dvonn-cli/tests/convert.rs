//! `dvonn convert`, driven through the real binary: round trips between
//! formats, SGF input, positions after N plies, comments, and output files.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{Game, LITTLE_GOLEM_GAME, arg, dvonn, dvonn_with_input, failure, file_names, games, success};
use dvonn_core::Outcome;
use dvonn_notation::GameRecord;

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
        assert!(transcript.starts_with(&format!("Event [game {}]\n", i + 1)), "{transcript}");
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
    let dir = tempfile::tempdir().unwrap();
    let game = &games()[4];
    assert!(game.moves.contains(&dvonn_core::Move::Pass), "a game with passes");
    let sgf = dir.path().join("game.sgf");
    fs::write(&sgf, game.boardspace_sgf("Ann", "Bob", "Game won by Bob")).unwrap();
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
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("littlegolem-dvonn.mc.2014.may.1.1.txt");
    fs::write(&file, LITTLE_GOLEM_GAME).unwrap();
    let text = success(&dvonn(["convert", arg(&file)]));
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.tag("Event"), Some("Tournament dvonn.mc.2014.may.1.1"));
    assert_eq!(record.result, Outcome::Resigned(dvonn_core::Color::White));
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
    assert_eq!(record.result, Outcome::Unfinished);
    assert_eq!(record.tag("White"), Some("Ann"));
}

#[test]
fn comments_survive_conversion_and_cuts() {
    let game = &games()[2];
    let mut record = GameRecord::parse(&game.record(3)).unwrap();
    record.add_comment(0, "A game of random moves");
    record.add_comment(10, "after ten plies");
    record.add_comment(60, "after sixty");
    let text = record.to_string();
    assert_eq!(canonical(&text), text, "record to record keeps every comment");
    let cut = success(&dvonn_with_input(["convert", "-", "--ply", "55"], text.as_bytes()));
    let cut = GameRecord::parse(&cut).unwrap();
    let comments: Vec<(usize, &str)> = cut.comments.iter().map(|c| (c.after, c.text.as_str())).collect();
    assert_eq!(comments, [(0, "A game of random moves"), (10, "after ten plies")]);
    let replayed = success(&dvonn_with_input(["replay", "-"], text.as_bytes()));
    assert!(replayed.ends_with(&format!("{}\n", game.score)), "{replayed}");
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
    assert!(fs::read_to_string(&out).unwrap().starts_with("Event [game 4]"));
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

/// BoardSpace SGF files of four of the games, written into `dir`: their
/// names (in order) and the game each holds. `latin1.sgf` is in
/// ISO-8859-1 without `CA[...]`, as BoardSpace's older files are. The
/// features of BoardSpace's files are tested on `dvonn-notation`'s sample
/// files; these are for the command's handling of files.
fn sgf_files(dir: &Path) -> Vec<(&'static str, Game)> {
    let games = games();
    let files = [
        ("annika-dumbot.sgf", &games[0], "annika", "Dumbot", "Game won by Dumbot"),
        ("latin1.sgf", &games[1], "Herv\u{e9}", "J\u{e9}r\u{f4}me", "Partie gagn\u{e9}e par J\u{e9}r\u{f4}me"),
        ("passes.sgf", &games[4], "Ann", "Bob", "Game won by Bob"),
        ("zoe-lukasz.sgf", &games[2], "Zoe", "Lukasz", "Game won by Zoe"),
    ];
    for (name, game, white, black, result) in files {
        let text = game.boardspace_sgf(white, black, result);
        let bytes: Vec<u8> = if name == "latin1.sgf" {
            text.chars().map(|c| u8::try_from(c).expect("a Latin-1 character")).collect()
        } else {
            text.into_bytes()
        };
        fs::write(dir.join(name), bytes).unwrap();
    }
    files.into_iter().map(|(name, game, ..)| (name, game.clone())).collect()
}

#[test]
fn sgf_files_convert_replay_and_render() {
    let dir = tempfile::tempdir().unwrap();
    for (name, game) in sgf_files(dir.path()) {
        let path = dir.path().join(name);
        let record = GameRecord::parse(&success(&dvonn(["convert", arg(&path)]))).unwrap();
        assert_eq!(record.moves, game.moves, "{name}");
        assert_eq!(record.result.to_string(), game.score, "{name}");
        assert!(record.tag("WhiteTime").is_some(), "{name}: the final clocks are kept");
        let replay = success(&dvonn(["replay", arg(&path)]));
        assert_eq!(replay.lines().last(), Some(game.score.as_str()), "{name}");
        let svg = success(&dvonn(["render", arg(&path)]));
        assert!(svg.contains("<svg") && svg.contains(&format!("after ply {}", game.moves.len())), "{name}");
        let diagram = success(&dvonn(["render", arg(&path), "--format", "txt", "--ply", "49"]));
        assert!(!diagram.is_empty());
    }
    // Latin-1 names come out as UTF-8, from a file and from standard input.
    let latin1 = dir.path().join("latin1.sgf");
    assert!(std::str::from_utf8(&fs::read(&latin1).unwrap()).is_err());
    for text in [success(&dvonn(["convert", arg(&latin1)])), canonical_bytes(&fs::read(&latin1).unwrap())] {
        assert!(
            text.contains("[Black \"J\u{e9}r\u{f4}me\"]\n")
                && text.contains("[SgfResult \"Partie gagn\u{e9}e par J\u{e9}r\u{f4}me\"]\n"),
            "{text}"
        );
    }
}

/// What `convert` writes for the bytes `input` on standard input.
fn canonical_bytes(input: &[u8]) -> String {
    success(&dvonn_with_input(["convert", "-"], input))
}

/// A BoardSpace file whose second placement lands on the first.
const ON_AN_OCCUPIED_CELL: &str = "(;\nGM[Dvonn] VV[1]\nSU[dvonn]\n; P0[0 Start P0]\n; P0[1 dropb E 3]\n; P0[2 done]\n; P1[3 dropb E 3]\n; P1[4 done]\n)\n";

#[test]
fn a_truncated_or_rule_breaking_sgf_is_one_line_of_error() {
    let whole = games()[0].boardspace_sgf("Ann", "Bob", "Game won by Bob").into_bytes();
    failure(&dvonn_with_input(["convert", "-"], &whole[..1]), "cannot read -: cannot tell the format of the text");
    for cut in [2, 40, whole.len() / 2, whole.len() - 3] {
        let output = dvonn_with_input(["convert", "-"], &whole[..cut]);
        failure(&output, "cannot read -: BoardSpace SGF record: line ");
    }
    failure(&dvonn_with_input(["convert", "-"], ON_AN_OCCUPIED_CELL.as_bytes()), "-: move 1 (ply 1) E3 is illegal: ");
}

/// The lines of `text` that start with `refused: `, sorted.
fn refused_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().filter(|line| line.starts_with("refused: ")).collect();
    lines.sort_unstable();
    lines
}

#[test]
fn a_directory_converts_into_a_directory_with_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let games_dir = dir.path().join("games");
    fs::create_dir(&games_dir).unwrap();
    let files = sgf_files(&games_dir);
    let whole = fs::read(games_dir.join(files[0].0)).unwrap();
    let cut = whole.len() / 3 + whole[whole.len() / 3..].iter().position(|&b| b == b'\n').unwrap();
    fs::write(games_dir.join("truncated.sgf"), &whole[..cut]).unwrap();
    fs::write(games_dir.join("occupied.sgf"), ON_AN_OCCUPIED_CELL).unwrap();
    fs::write(games_dir.join("notes.txt"), "hello\n").unwrap();
    // Neither a subdirectory nor a hidden file is read.
    fs::create_dir(games_dir.join("sub")).unwrap();
    fs::write(games_dir.join(".hidden.sgf"), "x").unwrap();
    let out = dir.path().join("out");
    let output = dvonn(["convert", arg(&games_dir), "--to", "record", "-o", &format!("{}/", arg(&out))]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert_eq!(stderr, "dvonn: 3 of 7 files refused\n");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let name = |file: &str| games_dir.join(file).display().to_string();
    assert_eq!(stdout.lines().next().unwrap(), format!("4 read, 3 refused (7 files; written to {}/)", out.display()));
    let mut expected = [
        format!("refused: {}: move 1 (ply 1) E3 is illegal: E3 is not empty", name("occupied.sgf")),
        format!(
            "refused: cannot read {}: cannot tell the format of the text: it is not a game record, a Little Golem transcript, a BoardSpace SGF record or a CodeCup log (see Format::detect)",
            name("notes.txt")
        ),
        format!(
            "refused: cannot read {}: BoardSpace SGF record: line 1, column 1: SGF syntax: '(' without a matching ')'",
            name("truncated.sgf")
        ),
    ];
    expected.sort();
    assert_eq!(refused_lines(&stdout), expected);
    let expected: Vec<String> = files.iter().map(|(name, _)| name.replace(".sgf", ".dvonn")).collect();
    assert_eq!(file_names(&out), expected);
    for (name, game) in files {
        let text = fs::read_to_string(out.join(name.replace(".sgf", ".dvonn"))).unwrap();
        assert_eq!(GameRecord::parse(&text).unwrap().moves, game.moves, "{name}");
    }
}

#[test]
fn several_files_convert_with_exit_status_zero_when_all_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let files = sgf_files(dir.path());
    let inputs: Vec<String> = files[..3].iter().map(|(name, _)| arg(&dir.path().join(name)).to_string()).collect();
    let mut args = vec!["convert".to_string()];
    args.extend(inputs.iter().cloned());
    args.extend(["--to", "lg", "-o", arg(&out)].map(String::from));
    let stdout = success(&dvonn(&args));
    assert_eq!(stdout, format!("3 read, 0 refused (3 files; written to {})\n", out.display()));
    assert_eq!(file_names(&out), ["annika-dumbot.lg", "latin1.lg", "passes.lg"]);
    // Again: the files are there, and kept without --force.
    let output = dvonn(&args);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "dvonn: 3 of 3 files refused\n");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().filter(|l| l.ends_with("exists; use --force to overwrite it")).count(), 3, "{stdout}");
    args.push("--force".to_string());
    success(&dvonn(&args));
}

#[test]
fn batch_conversion_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let files = sgf_files(dir.path());
    let [a, b]: [PathBuf; 2] = [0, 1].map(|i| dir.path().join(files[i].0));
    failure(&dvonn(["convert", arg(&a), arg(&b)]), "converting several files needs -o DIR");
    failure(
        &dvonn(["convert", arg(dir.path())]),
        &format!("{} is a directory, not a file: to convert the files in it, give -o DIR", dir.path().display()),
    );
    failure(&dvonn(["convert", arg(&a), "-", "-o", arg(dir.path())]), "standard input (-) can only be converted alone");
    let file = dir.path().join("file");
    fs::write(&file, "x").unwrap();
    failure(&dvonn(["convert", arg(&a), arg(&b), "-o", arg(&file)]), "is not a directory");
    // Two inputs with one output name: the second is refused.
    let copy = dir.path().join("annika-dumbot.txt");
    fs::copy(&a, &copy).unwrap();
    let out = dir.path().join("out");
    let output = dvonn(["convert", arg(&a), arg(&copy), "-o", arg(&out)]);
    assert_eq!(String::from_utf8_lossy(&output.stderr), "dvonn: 1 of 2 files refused\n");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.ends_with(&format!(
            "refused: {}: it would be written to {}, as {} is\n",
            copy.display(),
            out.join("annika-dumbot.dvonn").display(),
            a.display()
        )),
        "{stdout}"
    );
}
