//! `dvonn tune-net` through the real binary: self-play games with their
//! searches in the records, the same games however they are sharded, the
//! trainer's data written from them, and clear errors for what is wrong.

mod common;

use common::{arg, dvonn, failure, file_names, success};
use dvonn_ai::eval::network::data::{HEADER, RECORD_BYTES};

/// `dvonn tune-net generate` of 4 games at depth 1 with `extra` arguments.
fn generate(records: &str, extra: &[&str]) -> String {
    let args = ["tune-net", "generate", "--games", "4", "--depth", "1", "--seed", "7", "--records", records];
    success(&dvonn(args.iter().chain(extra)))
}

/// `dvonn tune-net data` of `dirs` into `output`: what it printed and the
/// data written.
fn data(dirs: &[&str], output: &str) -> (String, Vec<u8>) {
    let args = [&["tune-net", "data"][..], dirs, &["-o", output]].concat();
    let stdout = success(&dvonn(args));
    (stdout, std::fs::read(output).unwrap())
}

#[test]
fn games_keep_their_searches_and_become_the_trainers_data() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let stdout = generate(arg(&whole), &["--threads", "2"]);
    assert!(stdout.starts_with("Run: 4 of the 4 games, 4 played now, 0 found in "), "{stdout}");
    let games: Vec<String> = file_names(&whole).into_iter().filter(|name| name.ends_with(".dvonn")).collect();
    assert_eq!(games.len(), 4, "{games:?}");
    let record = std::fs::read_to_string(whole.join(&games[0])).unwrap();
    assert!(record.contains("[Event \"dvonn tune-net generate\"]"), "{record}");
    assert!(record.contains(" depth 1}"), "every searched move carries its search: {record}");

    // The same games in two shards sharing a directory.
    let sharded = dir.path().join("sharded");
    for shard in ["0/2", "1/2"] {
        let stdout = generate(arg(&sharded), &["--shard", shard]);
        assert!(stdout.starts_with(&format!("Shard {shard}: 2 of the 4 games, 2 played now")), "{stdout}");
    }

    let output = dir.path().join("whole.dat");
    let (stdout, bytes) = data(&[arg(&whole)], arg(&output));
    assert_eq!(bytes[..HEADER.len()], HEADER);
    assert_eq!((bytes.len() - HEADER.len()) % RECORD_BYTES, 0);
    let positions = (bytes.len() - HEADER.len()) / RECORD_BYTES;
    assert!(positions > 4 * 40, "placements and movements of 4 games: {positions}");
    assert_eq!(stdout.trim_end(), format!("{positions} positions from 4 games written to {}", output.display()));
    let (_, sharded_bytes) = data(&[arg(&sharded)], arg(&dir.path().join("sharded.dat")));
    assert!(sharded_bytes == bytes, "the sharded run wrote other data");

    // Deeper labels: the same positions, the movement phase searched again.
    let deeper_path = dir.path().join("deeper.dat");
    let args = ["tune-net", "data", arg(&whole), "-o", arg(&deeper_path), "--label-depth", "3", "--threads", "2"];
    let stdout = success(&dvonn(args));
    assert!(stdout.contains(&format!("{positions} positions from 4 games")), "{stdout}");
    let deeper = std::fs::read(&deeper_path).unwrap();
    assert_eq!(deeper.len(), bytes.len());
    let (mut relabelled, mut changed) = (0, 0);
    for (old, new) in bytes[HEADER.len()..].chunks(RECORD_BYTES).zip(deeper[HEADER.len()..].chunks(RECORD_BYTES)) {
        assert_eq!(old[..56], new[..56], "the same position, ply and game");
        assert_eq!(old[60..], new[60..], "the same margin and features");
        let movement = old[49] & 2 != 0;
        if !movement {
            assert_eq!(old, new, "a placement keeps its label");
            continue;
        }
        relabelled += 1;
        changed += usize::from(old[56..58] != new[56..58]);
        assert!(new[58] >= 3 || new[59] == 1, "depth {} and not proven", new[58]);
    }
    assert!(relabelled > 4 * 10 && changed > 0, "{relabelled} relabelled, {changed} changed");

    // A game missing is named, and the others are written.
    std::fs::remove_file(sharded.join(&games[1])).unwrap();
    let (stdout, fewer) = data(&[arg(&sharded)], arg(&dir.path().join("fewer.dat")));
    assert!(stdout.starts_with("Unfinished: 1 of the 4 games is missing (2)"), "{stdout}");
    assert!(stdout.contains("positions from 3 games"), "{stdout}");
    assert!(fewer.len() < bytes.len());
}

#[test]
fn bad_input_gives_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_network = dir.path().join("net.nnue");
    std::fs::write(&not_a_network, b"not a network").unwrap();
    let records = dir.path().join("games");
    let output = dvonn(
        ["tune-net", "generate", "--games", "1", "--records", arg(&records)]
            .iter()
            .chain(&["--network", arg(&not_a_network)]),
    );
    failure(&output, "not a dvonn network file");
    let output = dvonn(["tune-net", "data", arg(&records), "-o", "-", "--network", arg(&not_a_network)]);
    failure(&output, "--label-depth");

    // Records of another command are not the data of a network run.
    let other = dir.path().join("match");
    success(&dvonn([
        "match",
        "--a",
        "depth=1,placement=random",
        "--b",
        "depth=1,placement=random",
        "--games",
        "2",
        "--seed",
        "1",
        "--records",
        arg(&other),
    ]));
    let output = dvonn(["tune-net", "data", arg(&other), "-o", arg(&dir.path().join("x.dat"))]);
    failure(&output, "dvonn match");
    assert!(!dir.path().join("x.dat").exists());
}
