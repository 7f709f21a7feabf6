//! The session driven in-process: two sessions playing each other, a
//! scripted referee (the opponent and the referee at once), bad input. The
//! command's tests run the binary.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use dvonn_core::Phase;

use super::*;

/// The reading end of an in-memory pipe: reads what the [`PipeWriter`]s
/// wrote, and the end of input once they are all dropped.
struct PipeReader {
    receiver: Receiver<Vec<u8>>,
    buffer: Vec<u8>,
    at: usize,
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buffer.len() {
            match self.receiver.recv() {
                Ok(bytes) => {
                    self.buffer = bytes;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buffer.len() - self.at);
        out[..n].copy_from_slice(&self.buffer[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The writing end of an in-memory pipe.
#[derive(Clone)]
struct PipeWriter(Sender<Vec<u8>>);

impl Write for PipeWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.send(bytes.to_vec()).map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn pipe() -> (PipeWriter, BufReader<PipeReader>) {
    let (sender, receiver) = mpsc::channel();
    (PipeWriter(sender), BufReader::new(PipeReader { receiver, buffer: Vec::new(), at: 0 }))
}

fn config(seconds: f64, seed: u64) -> SessionConfig {
    SessionConfig {
        time: Duration::from_secs_f64(seconds),
        reserve: Duration::ZERO,
        engine: EngineConfig::default().with_hash_mb(8).with_seed(seed),
        start: Position::new(),
    }
}

/// A session on its own thread, driven line by line by the test (the
/// referee and the opponent at once).
struct Driven {
    input: Option<PipeWriter>,
    output: BufReader<PipeReader>,
    session: JoinHandle<Result<SessionEnd>>,
}

impl Driven {
    fn start(config: SessionConfig) -> Driven {
        let (input, session_input) = pipe();
        let (session_output, output) = pipe();
        let session = thread::spawn(move || play_session(session_input, session_output, &config));
        Driven { input: Some(input), output, session }
    }

    fn send(&mut self, line: &str) {
        // The session may have ended already: then the line is not read.
        let _ = writeln!(self.input.as_mut().expect("input open"), "{line}");
    }

    fn receive(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end().to_string()),
        }
    }

    /// Closes the input and waits for the end of the session.
    fn end(mut self) -> Result<SessionEnd> {
        self.input = None;
        self.session.join().expect("the session does not panic")
    }
}

/// Plays the opponent of a session of colour `session_color`, choosing the
/// first legal move each time, until `stop(position)` says to stop sending
/// (then returns the position, the opponent to move) or the game is over.
/// Checks that the session's moves are legal and counts the lines it wrote
/// in a row.
fn play_against(driven: &mut Driven, session_color: Color, stop: impl Fn(&Position) -> bool) -> (Position, Vec<usize>) {
    let mut position = Position::new();
    let mut runs = Vec::new();
    if session_color == Color::White {
        driven.send("Start");
    }
    while !position.is_game_over() {
        if position.side_to_move() == session_color {
            let mut run = 0;
            while position.side_to_move() == session_color && !position.is_game_over() {
                let line = driven.receive().expect("the session moves");
                let mv: Move = line.parse().expect("a move line");
                position.play(mv).expect("the session's move is legal");
                run += 1;
            }
            runs.push(run);
        } else {
            if stop(&position) {
                return (position, runs);
            }
            let mv = position.legal_moves()[0];
            position.play(mv).unwrap();
            driven.send(&mv.to_string());
        }
    }
    (position, runs)
}

/// Games between two sessions, each with `budget` seconds: the end of
/// White's session and of Black's.
fn two_sessions_play(game: u64, budget: f64) -> (SessionEnd, SessionEnd) {
    // White's input: Start, then Black's moves; Black's input: White's moves.
    let (mut to_white, white_input) = pipe();
    let (white_output, black_input) = pipe();
    writeln!(to_white, "Start").unwrap();
    let white_config = config(budget, 2 * game);
    let black_config = config(budget, 2 * game + 1);
    let white = thread::spawn(move || play_session(white_input, white_output, &white_config));
    let black = thread::spawn(move || play_session(black_input, to_white, &black_config));
    (white.join().unwrap().unwrap(), black.join().unwrap().unwrap())
}

/// The games and budgets of the two tests below.
const GAMES: [(u64, f64); 3] = [(0, 1.0), (1, 1.0), (2, 0.6)];

#[test]
fn two_sessions_play_whole_games() {
    for (game, budget) in GAMES {
        let (white, black) = two_sessions_play(game, budget);
        for (end, color) in [(&white, Color::White), (&black, Color::Black)] {
            assert_eq!(end.reason, EndReason::GameOver, "game {game}");
            assert_eq!(end.color, Some(color));
            assert!(end.position.is_game_over());
        }
        assert_eq!(white.position, black.position);
        assert!(white.moves_made >= 25 && black.moves_made >= 24);
    }
}

/// Timing tier: the same games, each player within its clock (as its own
/// clock measures it) on a machine that gives the search its time.
#[test]
#[ignore = "timing tier: a wall-clock check, run alone (cargo test -- --ignored)"]
fn two_sessions_play_whole_games_within_their_clocks() {
    for (game, budget) in GAMES {
        let (white, black) = two_sessions_play(game, budget);
        for (end, color) in [(&white, Color::White), (&black, Color::Black)] {
            assert_eq!(end.reason, EndReason::GameOver, "game {game}");
            let thinking = end.thinking;
            assert!(
                thinking < Duration::from_secs_f64(budget),
                "game {game}: {color} thought {thinking:?} of {budget} s"
            );
        }
    }
}

#[test]
fn white_writes_its_last_placement_and_first_movement_back_to_back() {
    let mut driven = Driven::start(config(1.0, 5));
    let (position, runs) = play_against(&mut driven, Color::White, |_| false);
    assert!(position.is_game_over());
    // Placement: one line per turn (24 turns of White up to ply 46), then
    // plies 48 and 49 together.
    assert!(runs[..24].iter().all(|&run| run == 1), "{runs:?}");
    assert!(runs[24] >= 2, "{runs:?}");
    let end = driven.end().unwrap();
    assert_eq!((end.reason, end.color), (EndReason::GameOver, Some(Color::White)));
    assert_eq!(end.position, position);
}

#[test]
fn a_pass_from_an_opponent_who_can_move_is_illegal() {
    let mut driven = Driven::start(config(1.0, 6));
    // The session plays Black; the test plays White and passes at its first
    // movement (ply 49), when it has moves.
    let (position, _) = play_against(&mut driven, Color::Black, |p| p.phase() == Phase::Movement);
    assert!(position.legal_moves().len() > 1);
    driven.send("PASS");
    let error = format!("{:#}", driven.end().unwrap_err());
    assert!(error.contains("line 26: the opponent's move PASS is illegal: you have a legal move"), "{error}");
}

fn session(input: &str) -> Result<SessionEnd> {
    play_session(input.as_bytes(), std::io::sink(), &config(1.0, 1))
}

#[test]
fn start_then_quit_is_white_s_first_placement() {
    let mut output = Vec::new();
    let end = play_session("Start\nQuit\n".as_bytes(), &mut output, &SessionConfig::default()).unwrap();
    assert_eq!(end.reason, EndReason::Quit);
    let written = String::from_utf8(output).unwrap();
    assert_eq!(written.lines().count(), 1, "{written}");
    assert!(written.trim().parse::<Move>().unwrap().is_placement(), "{written}");
}

#[test]
fn quit_ends_the_session_at_any_point() {
    let end = session("Quit\n").unwrap();
    assert_eq!((end.reason, end.color, end.moves_made), (EndReason::Quit, None, 0));
    let end = session("Start\nQuit\n").unwrap();
    assert_eq!((end.reason, end.color, end.moves_made), (EndReason::Quit, Some(Color::White), 1));
    let end = session("E3\nQuit\n").unwrap();
    assert_eq!((end.reason, end.color, end.moves_made), (EndReason::Quit, Some(Color::Black), 1));
    // In the middle of a game.
    let mut driven = Driven::start(config(1.0, 7));
    let (position, _) = play_against(&mut driven, Color::Black, |p| p.placed() >= 30);
    driven.send("Quit");
    let end = driven.end().unwrap();
    assert_eq!((end.reason, end.position), (EndReason::Quit, position));
}

#[test]
fn a_session_can_start_from_a_set_position() {
    // Black to move in the movement phase: Start gives the session Black.
    let start: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B b m".parse().unwrap();
    let config = SessionConfig { start, ..config(1.0, 3) };
    let mut output = Vec::new();
    let end = play_session("Start\nQuit\n".as_bytes(), &mut output, &config).unwrap();
    assert_eq!((end.reason, end.color, end.moves_made), (EndReason::Quit, Some(Color::Black), 1));
    let written: Move = String::from_utf8(output).unwrap().trim().parse().unwrap();
    assert!(start.is_legal(written), "{written}");
    // A move first: the session has the other colour, White.
    let black_move = start.legal_moves()[0];
    let end = play_session(format!("{black_move}\nQuit\n").as_bytes(), std::io::sink(), &config).unwrap();
    assert_eq!((end.color, end.moves_made), (Some(Color::White), 1));
}

#[test]
fn windows_line_endings_blank_lines_and_any_case_are_accepted() {
    let mut output = Vec::new();
    let end = play_session("\r\n  \r\nstart\r\n\r\nQUIT\r\n".as_bytes(), &mut output, &config(1.0, 1)).unwrap();
    assert_eq!((end.reason, end.moves_made), (EndReason::Quit, 1));
    let text = String::from_utf8(output).unwrap();
    assert!(text.ends_with('\n') && !text.contains('\r'));
    let end = session("e3\r\nquit").unwrap();
    assert_eq!((end.color, end.moves_made), (Some(Color::Black), 1));
}

#[test]
fn bad_input_is_an_error_that_says_what_and_where() {
    for (input, expected) in [
        ("Start\nZ9\n", "line 2: \"Z9\" is not a move, Start or Quit"),
        ("Start\nhello world\n", "line 2: \"hello world\" is not a move"),
        ("E3\nE3\n", "line 2: the opponent's move E3 is illegal: E3 is not empty"),
        ("E3\nStart\n", "line 2: Start, but it may only be the first line"),
        ("Start\nStart\n", "line 2: Start"),
        ("PASS\n", "line 1: the opponent's move PASS is illegal: it is the placement phase"),
        ("E3E4\n", "line 1: the opponent's move E3E4 is illegal"),
        ("Start\n", "input ended before the game did"),
        ("", "input ended before the game did"),
        ("E3\n\n\n", "input ended before the game did (after line 3)"),
    ] {
        let error = format!("{:#}", session(input).unwrap_err());
        assert!(error.contains(expected), "{input:?}: {error}");
    }
    let long = format!("Start\n{}\n", "E".repeat(10_000));
    let error = format!("{:#}", session(&long).unwrap_err());
    assert!(error.contains("cannot read line 2") && error.contains("longer than"), "{error}");
    let error = format!("{:#}", play_session(&b"\xff\xfe\n"[..], std::io::sink(), &config(1.0, 1)).unwrap_err());
    assert!(error.contains("not UTF-8"), "{error}");
}

#[test]
fn messages_are_read_in_any_case_with_space_around() {
    assert_eq!(Message::parse(" start\r").unwrap(), Message::Start);
    assert_eq!(Message::parse("QUIT").unwrap(), Message::Quit);
    assert_eq!(Message::parse("c3-e3").unwrap(), Message::Move("C3E3".parse().unwrap()));
    assert!(Message::parse("hello").is_err());
}
