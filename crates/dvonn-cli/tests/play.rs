//! `dvonn play` driven through the real binary with scripted input: the
//! test reads up to each prompt, keeps track of the game from the messages,
//! and answers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use dvonn_core::{Move, Phase, Position};

fn dvonn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dvonn"))
}

/// A `dvonn play` process and the game as its messages tell it.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    position: Position,
    transcript: String,
    /// Each line in which the engine announced its move, with the position
    /// it moved from.
    engine_moves: Vec<(Position, String)>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = dvonn()
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout, position: Position::new(), transcript: String::new(), engine_moves: Vec::new() }
    }

    /// The output up to the next prompt (`None` when the output ends
    /// first), with the moves it reports played on `position`.
    fn until_prompt(&mut self) -> Option<String> {
        let mut text = String::new();
        loop {
            let buffer = self.stdout.fill_buf().unwrap();
            if buffer.is_empty() {
                self.transcript.push_str(&text);
                return None;
            }
            let chunk = String::from_utf8(buffer.to_vec()).unwrap();
            let length = buffer.len();
            self.stdout.consume(length);
            text.push_str(&chunk);
            let last_line = text.rsplit('\n').next().unwrap_or("");
            if last_line.ends_with("> ") {
                break;
            }
        }
        for line in text.lines() {
            let played = if let Some(rest) = line.strip_prefix("You play ") {
                rest.split([':', '.']).next()
            } else if line.contains(" plays ") && line.starts_with("dvonn-ai") {
                self.engine_moves.push((self.position, line.to_string()));
                line.split(" plays ").nth(1).and_then(|rest| rest.split([' ', '.']).next())
            } else {
                None
            };
            // The first line says "You play White against ...".
            if let Some(Ok(mv)) = played.map(str::parse::<Move>) {
                self.position.play(mv).unwrap_or_else(|e| panic!("{line:?}: {e}"));
            }
        }
        self.transcript.push_str(&text);
        Some(text)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
    }

    /// Closes the input and waits for the end; returns the rest of the
    /// output and whether the program succeeded.
    fn finish(mut self) -> (String, bool) {
        self.stdin = None;
        let rest = self.until_prompt();
        assert!(rest.is_none(), "no prompt after the end of the input");
        let status = self.child.wait().unwrap();
        (self.transcript, status.success())
    }
}

#[test]
fn a_whole_game_at_the_beginner_level_then_save_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.dvonn");
    let mut session = Session::start(&["--level", "beginner", "--seed", "11"]);
    let mut turn = 0;
    let mut undone = false;
    let mut text = session.until_prompt().expect("a prompt");
    loop {
        assert!(!text.contains('\u{1b}'), "no colours when the output is not a terminal");
        if session.position.is_game_over() {
            assert!(text.contains("Game over. Final score: White "), "{text}");
            break;
        }
        assert!(text.ends_with("White> "), "{text}");
        // Take back one movement once, and check that the board went back.
        if session.position.phase() == Phase::Movement && !undone {
            undone = true;
            let before = session.position;
            let mv = before.legal_moves()[0];
            session.send(&mv.to_string());
            let after = session.until_prompt().unwrap();
            assert!(after.contains(&format!("You play {mv}.")), "{after}");
            session.send("undo");
            text = session.until_prompt().unwrap();
            assert!(text.contains("Taken back."), "{text}");
            session.position = before;
            continue;
        }
        let moves = session.position.legal_moves();
        let mv = moves[(turn * 7) % moves.len()];
        turn += 1;
        // Lower case and a dash are accepted.
        let typed = match mv {
            Move::Jump { from, to } => format!("{}-{}", from, to).to_lowercase(),
            _ => mv.to_string().to_lowercase(),
        };
        session.send(&typed);
        text = session.until_prompt().expect("a prompt");
    }
    let (white, black) =
        (session.position.pieces(dvonn_core::Color::White), session.position.pieces(dvonn_core::Color::Black));
    session.send(&format!("save {}", file.display()));
    let text = session.until_prompt().unwrap();
    assert!(text.contains("Saved the game to"), "{text}");
    session.send("quit");
    let (transcript, ok) = session.finish();
    assert!(ok);
    assert!(transcript.contains(&format!("Final score: White {white}, Black {black}.")), "{transcript}");
    assert!(transcript.trim_end().ends_with("Goodbye."));

    let saved = std::fs::read_to_string(&file).unwrap();
    for tag in ["[White \"Human\"]", "[Black \"dvonn-ai", "[Date \"", "[Setup \"placement\"]"] {
        assert!(saved.contains(tag), "{tag} in {saved}");
    }
    assert!(saved.contains(&format!("[Result \"{white}-{black}\"]")), "{saved}");
    let replay = dvonn().arg("replay").arg(&file).output().unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let stdout = String::from_utf8(replay.stdout).unwrap();
    assert_eq!(stdout.lines().last(), Some(format!("{white}-{black}").as_str()));
}

#[test]
fn illegal_moves_are_explained_and_the_movable_stacks_listed() {
    let mut session = Session::start(&["--random-setup", "--seed", "5", "--level", "beginner"]);
    session.position = Position::random_setup_from_seed(5);
    let text = session.until_prompt().unwrap();
    assert!(text.contains("Random setup number 5"), "{text}");
    assert!(text.contains("White to move, movement phase"), "{text}");
    // E3 is an interior cell of a full board: surrounded, or not White's.
    session.send("E3E4");
    let text = session.until_prompt().unwrap();
    assert!(text.contains("E3E4 is illegal: "), "{text}");
    assert!(text.contains("Your movable stacks: "), "{text}");
    let mv = session.position.legal_moves()[0];
    let (Some(from), Some(to)) = (mv.from(), mv.to()) else { panic!("{mv}") };
    assert!(text.contains(&format!("{from} (to {to}")), "{text}");
    // A placement in the movement phase, a pass with moves, nonsense.
    session.send("E3");
    let text = session.until_prompt().unwrap();
    assert!(text.contains("E3 is illegal: placement is over"), "{text}");
    session.send("pass");
    let text = session.until_prompt().unwrap();
    assert!(text.contains("PASS is illegal: you have a legal move, so you may not pass."), "{text}");
    session.send("fly away");
    let text = session.until_prompt().unwrap();
    assert!(text.contains("\"fly away\" is neither a move nor a command"), "{text}");
    session.send("hint");
    let text = session.until_prompt().unwrap();
    let hint = text.split("Hint: ").nth(1).and_then(|rest| rest.split(' ').next()).expect("a hint");
    assert!(session.position.is_legal(hint.parse().unwrap()), "{text}");
    session.send("help");
    let text = session.until_prompt().unwrap();
    assert!(text.contains("undo") && text.contains("save FILE"), "{text}");
    session.send("quit");
    let (transcript, ok) = session.finish();
    assert!(ok);
    assert!(transcript.trim_end().ends_with("Game abandoned (score so far: White 23, Black 23). Goodbye."));
}

#[test]
fn saving_refuses_to_overwrite_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.dvonn");
    std::fs::write(&file, "keep me").unwrap();
    let mut session = Session::start(&["--color", "b", "--level", "beginner", "--seed", "2"]);
    let text = session.until_prompt().unwrap();
    assert!(text.ends_with("Black> "), "the engine moved first: {text}");
    assert_eq!(session.position.placed(), 1);
    session.send("undo");
    assert!(session.until_prompt().unwrap().contains("Nothing to undo"));
    let mv = session.position.legal_moves()[0];
    session.send(&mv.to_string());
    session.until_prompt().unwrap();
    session.send(&format!("save {}", file.display()));
    let text = session.until_prompt().unwrap();
    assert!(text.contains("Not saved: ") && text.contains("exists; use save! "), "{text}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    session.send(&format!("save! {}", file.display()));
    assert!(session.until_prompt().unwrap().contains("Saved the game"));
    session.send("save");
    assert!(session.until_prompt().unwrap().contains("save needs a file name"));
    let (_, ok) = session.finish();
    assert!(ok);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("[White \"dvonn-ai") && saved.contains("[Black \"Human\"]"), "{saved}");
    assert!(saved.contains("[Result \"*\"]"), "{saved}");
    let replay = dvonn().arg("replay").arg(&file).output().unwrap();
    assert!(replay.status.success());
    let stdout = String::from_utf8(replay.stdout).unwrap();
    assert_eq!(stdout.lines().next().unwrap(), session_position_after(&saved).to_string());
}

/// The position a saved record reaches.
fn session_position_after(record: &str) -> Position {
    *dvonn_notation::GameRecord::parse(record).unwrap().replay().unwrap().position()
}

#[test]
fn the_end_of_the_input_quits_cleanly() {
    let output = dvonn().args(["play", "--level", "beginner", "--seed", "1"]).stdin(Stdio::null()).output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.trim_end().ends_with("Game abandoned (score so far: White 0, Black 0). Goodbye."), "{stdout}");

    let mut child = dvonn()
        .args(["play", "--level", "beginner", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"e3\r\nQUIT\r\nhelp\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("White> e3\nYou play E3.\n"), "commands are echoed: {stdout}");
    assert!(stdout.contains("White> QUIT\nGame abandoned"), "{stdout}");
    assert!(!stdout.contains("Commands:"), "nothing is read after quit");
}

#[test]
fn bad_arguments_are_refused() {
    for args in
        [&["play", "--color", "red"][..], &["play", "--level", "godlike"], &["play", "--level", "club", "--time", "1"]]
    {
        let output = dvonn().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

/// The move of a line `dvonn-ai ... plays MOVE.` or `... plays MOVE (...)`.
fn engine_move(line: &str) -> Move {
    line.split(" plays ").nth(1).and_then(|rest| rest.split([' ', '.']).next()).unwrap().parse().unwrap()
}

#[test]
fn each_turn_says_what_the_phase_asks_and_both_last_moves_are_marked() {
    let mut session = Session::start(&["--level", "casual", "--seed", "4"]);
    let text = session.until_prompt().unwrap();
    assert!(text.contains("On the board, [ ] marks the last move and ( ) the move before it."), "{text}");
    assert!(text.contains("Place a DVONN piece on an empty cell") && text.contains("number 1 of 3."), "{text}");
    // The hint of a placement comes from a rule of thumb: no evaluation.
    session.send("hint");
    let text = session.until_prompt().unwrap();
    let hint = text.lines().find(|line| line.starts_with("Hint: ")).expect("a hint");
    assert!(hint.ends_with('.') && !hint.contains("evaluation"), "{text}");

    // The first DVONN piece: the board marks it in parentheses and the
    // engine's reply (the second DVONN piece) in brackets.
    session.send("E3");
    let mut text = session.until_prompt().unwrap();
    let reply = engine_move(&session.engine_moves.last().unwrap().1);
    let row_3 = text.lines().find(|line| line.starts_with(" 3 ")).unwrap();
    assert!(row_3.contains("(D)"), "{text}");
    assert!(text.contains(&format!("last move: {reply}\nmove before: E3\n")), "{text}");
    assert!(text.contains("number 3 of 3."), "{text}");

    let mut turn = 0;
    let mut told_own_pieces = false;
    let mut movement_turns = 0;
    let mut both_named = 0;
    while movement_turns < 4 && !session.position.is_game_over() {
        let position = session.position;
        let mv = position.legal_moves()[(turn * 7) % position.legal_moves().len()];
        turn += 1;
        if position.phase() == Phase::Movement {
            movement_turns += 1;
            assert!(text.contains("Move one of your stacks (W on top) exactly as many cells as it is high"), "{text}");
            if movement_turns == 2 {
                // A hint in the movement phase comes from a search.
                session.send("hint");
                let hint = session.until_prompt().unwrap();
                assert!(hint.contains("(evaluation for you: ") || position.legal_moves().len() == 1, "{hint}");
            }
        } else if position.placed() >= 3 {
            told_own_pieces |= text.contains("Place one of your pieces (W) on an empty cell");
        }
        session.send(&mv.to_string());
        text = session.until_prompt().unwrap();
        // A move and the engine's reply, nothing forced: both are named
        // under the board (and marked on it).
        if text.matches("You play ").count() == 1 && text.matches(" plays ").count() == 1 {
            let reply = engine_move(&session.engine_moves.last().unwrap().1);
            assert!(text.contains(&format!("last move: {reply}\nmove before: {mv}\n")), "{text}");
            both_named += 1;
        }
    }
    assert!(told_own_pieces && movement_turns == 4 && both_named >= 20, "{}", session.transcript);

    // The engine shows an evaluation exactly when a search gave one: not
    // for its placements by rule of thumb, and for its searched moves.
    let mut searched = 0;
    for (position, line) in &session.engine_moves {
        let empty_cells = 49 - position.placed();
        let by_rule_of_thumb = position.phase() == Phase::Placement && empty_cells > 4;
        if by_rule_of_thumb || position.legal_moves().len() == 1 {
            assert!(!line.contains("evaluation"), "{line}");
        } else {
            assert!(line.contains(" (its evaluation: "), "{line}");
            searched += 1;
        }
    }
    assert!(searched >= 3, "{}", session.transcript);
    session.send("quit");
    let (_, ok) = session.finish();
    assert!(ok);
}
