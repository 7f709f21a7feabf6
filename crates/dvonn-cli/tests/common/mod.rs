//! Helpers shared by the integration tests: running the real `dvonn`
//! binary, the games they read, and checks on error output.
//!
//! The games are the tests' own: complete games of a seeded random player
//! and one real Little Golem game. The sample files of every format and
//! the test vectors are tested in the packages that hold them
//! (`dvonn-notation` and `dvonn-core`).

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use dvonn_core::{Cell, Move, Position};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// A real game played on littlegolem.net (tournament dvonn.mc.2014.may.1.1,
/// White resigned at move 38), as `dvonn-notation`'s sample file of it.
pub(crate) const LITTLE_GOLEM_GAME: &str = "Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net] \
White [CleverHunk steven cullum] Black [Xander (xandern .BSW)] 1. g2 c1 2. f5 d1 3. h5 g5 4. i1 e1 \
5. f2 f1 6. e4 e5 7. j2 g1 8. b2 b1 9. h1 g4 10. d3 c2 11. e3 f4 12. c4 d4 13. a2 a1 14. d2 e2 \
15. a3 g3 16. d5 f3 17. i5 c3 18. h2 h3 19. k3 h4 20. k5 i4 21. i3 j5 22. i2 b3 23. j4 j3 24. k4 b4 \
25. a2b2 b3b2 26. k5j4 e5e4 27. a3b4 d4d3 28. j4h4 j3i3 29. h5g4 g5g4 30. b4b2 g1h2 31. c4c3 h2f2 \
32. b2g2 i3i5 33. c3c1 b1c1 34. h4e4 h3g2 35. pass c2d2 36. pass f4e3 37. pass e3e1 38. resign\n";

/// One complete game: its final score and its moves.
#[derive(Clone, Debug)]
pub(crate) struct Game {
    /// `<white>-<black>`.
    pub score: String,
    /// The moves, every ply from the empty board.
    pub moves: Vec<Move>,
}

impl Game {
    /// The game as a game record with a few tags.
    pub(crate) fn record(&self, number: usize) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!(
            "[Event \"game {number}\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"{}\"]\n\n{}\n",
            self.score,
            moves.join(" ")
        )
    }

    /// The game as a BoardSpace SGF file in the layout of BoardSpace's
    /// archive (one property a line, a robot's actions, both clocks last),
    /// between `white` and `black`, with the result text `result`.
    pub(crate) fn boardspace_sgf(&self, white: &str, black: &str, result: &str) -> String {
        let spaced = |cell: Cell| {
            let name = cell.to_string();
            format!("{} {}", &name[..1], &name[1..])
        };
        let mut out = format!(
            "(;\nGM[Dvonn] VV[1]\nSU[dvonn]\nP0[id \"{white}\"]\nP1[id \"{black}\"]\nRE[{result}]\n; P0[0 Start P0]\n"
        );
        let mut position = Position::new();
        let mut index = 1;
        for &mv in &self.moves {
            let player = position.side_to_move().index();
            let action = match mv {
                Move::Place(cell) => format!("dropb {}", spaced(cell)),
                Move::Jump { from, to } => format!("move {} {}", spaced(from), spaced(to)),
                Move::Pass => "pass".to_string(),
            };
            for action in [action.as_str(), "done"] {
                out.push_str(&format!("; P{player}[{index} {action}]\n"));
                index += 1;
            }
            position.play(mv).expect("the games are legal");
        }
        out.push_str(";\nP0[time 0:11:37 ]\nP1[time 0:00:41 ]\n)\n");
        out
    }

    /// The position after the first `ply` moves.
    pub(crate) fn position_after(&self, ply: usize) -> Position {
        let mut position = Position::new();
        for &mv in &self.moves[..ply] {
            position.play(mv).expect("the games are legal");
        }
        position
    }
}

/// Five complete games from the empty board, played by a seeded random
/// player; each lasts more than 60 plies, and one has passes.
pub(crate) fn games() -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let play = move || {
        let mut position = Position::new();
        let mut moves = Vec::new();
        while let Some(&mv) = position.legal_moves().choose(&mut rng) {
            position.play(mv).expect("generated moves are legal");
            moves.push(mv);
        }
        let score =
            format!("{}-{}", position.pieces(dvonn_core::Color::White), position.pieces(dvonn_core::Color::Black));
        Game { score, moves }
    };
    let mut long_games = std::iter::repeat_with(play).take(1000).filter(|game| game.moves.len() > 60);
    let mut games: Vec<Game> = long_games.by_ref().take(4).collect();
    games.extend(long_games.find(|game| game.moves.contains(&Move::Pass)));
    assert_eq!(games.len(), 5, "long random games, some with passes, are common");
    games
}

/// Runs `dvonn` with `args` and an empty standard input.
pub(crate) fn dvonn<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    dvonn_with_input(args, b"")
}

/// Runs `dvonn` with `args`, feeding `input` on standard input.
pub(crate) fn dvonn_with_input<I, S>(args: I, input: &[u8]) -> Output
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
pub(crate) fn success(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "dvonn failed: {:?}\n{stderr}", output.status);
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Checks that a run failed cleanly: a non-zero status, no panic, and
/// exactly one line on standard error, which contains `expected`. Returns
/// that line.
pub(crate) fn failure(output: &Output, expected: &str) -> String {
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
pub(crate) fn file_names(directory: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(directory)
        .expect("a readable directory")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `path` as a command-line argument (temporary directories have UTF-8 names).
pub(crate) fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Runs `dvonn` with `args` and standard error on a pseudo-terminal (as in
/// a shell, so that progress is drawn), waits until the terminal shows
/// `shown` (at most a minute), and interrupts it as Ctrl-C does (SIGINT).
/// Returns its output and everything the terminal showed.
#[cfg(unix)]
pub(crate) fn interrupt_when_shown(args: &[&str], shown: &str) -> (Output, String) {
    use std::io::Read;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let pty = nix::pty::openpty(None, None).expect("a pseudo-terminal");
    let child = Command::new(env!("CARGO_BIN_EXE_dvonn"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(pty.slave))
        .spawn()
        .expect("the dvonn binary runs");
    // The terminal, read as it is written to: the reader ends with an error
    // once the program has exited.
    let (sender, receiver) = mpsc::channel();
    let mut terminal = std::fs::File::from(pty.master);
    std::thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(n @ 1..) = terminal.read(&mut buffer) {
            if sender.send(String::from_utf8_lossy(&buffer[..n]).into_owned()).is_err() {
                break;
            }
        }
    });
    let mut screen = String::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !screen.contains(shown) {
        let left = deadline.saturating_duration_since(Instant::now());
        let text = receiver.recv_timeout(left).unwrap_or_else(|_| panic!("{shown:?} not shown after 60 s: {screen:?}"));
        screen.push_str(&text);
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).expect("a signal");
    let output = child.wait_with_output().expect("the dvonn binary finishes");
    screen.extend(receiver.iter());
    (output, screen)
}
