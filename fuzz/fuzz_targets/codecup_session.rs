//! `codecup_session`: the CodeCup player loop
//! (`dvonn_cli::codecup::play_session`) run in-process against a referee
//! that the bytes drive. The session never panics and never hangs (each
//! game has at most a few milliseconds of thinking time); every line it
//! writes is a legal move, written only on its own turn; it asks for input
//! only on the opponent's turn; and it ends the way the lines it was given
//! say: `Quit` after a `Quit`, game over when the game is over, an error
//! after an unreadable line, an illegal move, a misplaced `Start` or the
//! end of the input, and never an error otherwise.
//!
//! The first byte sets the thinking time (bits 0-1: 0, 1 or 3 ms for the
//! whole game) and the mode (bit 2):
//! - raw: the other bytes are the referee's lines, as they are;
//! - interactive: the referee answers each of the player's moves with a
//!   line the next byte chooses: a legal move (its index modulo the number
//!   of legal moves, in one of several spellings: `C3E3`, `c3e3`, `C3-E3`
//!   with `\r\n`, after blank lines), or from 0xF0 on a hostile line
//!   (blank, `Quit`, `Start`, an illegal move, `PASS`, junk, a line of 300
//!   bytes, bytes that are not UTF-8). The very first byte of the script
//!   chooses between `Start` (even) and a first placement (odd). When the
//!   bytes run out, the referee plays its first legal move until the game
//!   ends.
#![no_main]

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::time::Duration;

use dvonn_ai::EngineConfig;
use dvonn_cli::codecup::{EndReason, MAX_LINE_BYTES, Message, SessionConfig, play_session};
use dvonn_core::{Color, Move, Position};
use libfuzzer_sys::fuzz_target;

/// What the referee knows: the game as the lines read and written so far
/// make it, and what the session must do next.
struct Referee<'a> {
    position: Position,
    /// The player's colour, once a first message told it.
    color: Option<Color>,
    /// Why the session must fail: a line it read makes it an error.
    failed: Option<String>,
    /// Whether `Quit` was read.
    quit: bool,
    /// Written bytes not yet ended by a line break.
    pending_output: Vec<u8>,
    /// Moves the player wrote.
    moves_written: usize,
    /// The raw input, or the bytes choosing the interactive referee's lines.
    script: &'a [u8],
    interactive: bool,
    /// Whether a line was handed out yet (interactive mode).
    started: bool,
}

impl Referee<'_> {
    /// The next chunk of input (one or more lines), or `None` at the end.
    fn next_chunk(&mut self) -> Option<Vec<u8>> {
        if !self.interactive {
            let chunk = std::mem::take(&mut self.script).to_vec();
            return (!chunk.is_empty()).then_some(chunk);
        }
        let byte = self.script.split_first().map(|(&byte, rest)| {
            self.script = rest;
            byte
        });
        if !self.started {
            self.started = true;
            match byte {
                Some(byte) if byte & 1 == 1 => return Some(self.move_line(byte >> 1)),
                _ => return Some(b"Start\n".to_vec()),
            }
        }
        let Some(byte) = byte else { return Some(self.move_line(0)) };
        let illegal = || Move::candidates().find(|&mv| !self.position.is_legal(mv)).map(|mv| mv.to_string());
        Some(match byte {
            0xF0 => b"\n".to_vec(),
            0xF1 => b"Quit\n".to_vec(),
            0xF2 => b"Start\n".to_vec(),
            0xF3 => format!("{}\n", illegal().unwrap_or_default()).into_bytes(),
            0xF4 => b"PASS\n".to_vec(),
            0xF5 => b"hello\n".to_vec(),
            0xF6 => [vec![b'x'; 300], b"\n".to_vec()].concat(),
            0xF7 => b"E3\xff\xfe\n".to_vec(),
            0xF8 => b"  QUIT\t\r\n".to_vec(),
            0xF9 => {
                let mut line = self.move_line(0);
                line.splice(0..0, *b"\t ");
                line
            }
            _ => self.move_line(byte),
        })
    }

    /// A legal move of the side to move (the byte's index modulo the number
    /// of moves), spelt as the byte's higher bits say; a blank line when the
    /// game is over.
    fn move_line(&self, byte: u8) -> Vec<u8> {
        let moves = self.position.legal_moves();
        let Some(&mv) = moves.get(usize::from(byte) % moves.len().max(1)) else { return b"\n".to_vec() };
        let text = match (byte >> 4) & 3 {
            0 => format!("{mv}\n"),
            1 => format!("{}\n", mv.to_string().to_ascii_lowercase()),
            2 => match mv {
                Move::Jump { from, to } => format!("{from}-{to}\r\n"),
                _ => format!(" {mv} \r\n"),
            },
            _ => format!("\n \t\r\n{mv}\n"),
        };
        text.into_bytes()
    }

    /// What the session does with the line it read (without its `\n`).
    fn read(&mut self, line: &[u8]) {
        if self.failed.is_some() || self.quit {
            panic!("the session read on after the line that ended it");
        }
        let Ok(line) = std::str::from_utf8(line) else {
            self.failed = Some("a line that is not UTF-8".into());
            return;
        };
        let text = line.trim();
        if text.is_empty() {
            return;
        }
        match Message::parse(text) {
            Ok(Message::Quit) => self.quit = true,
            Ok(Message::Start) if self.color.is_none() && self.position == Position::new() => {
                self.color = Some(Color::White);
            }
            Ok(Message::Start) => self.failed = Some(format!("a misplaced Start: {text:?}")),
            Ok(Message::Move(mv)) => {
                self.color.get_or_insert(Color::Black);
                if self.position.play(mv).is_err() {
                    self.failed = Some(format!("an illegal move {text:?}"));
                }
            }
            Err(_) => self.failed = Some(format!("not a message: {text:?}")),
        }
    }

    /// Checks and plays a line the player wrote.
    fn written(&mut self, line: &[u8]) {
        let line = std::str::from_utf8(line).expect("the player writes UTF-8");
        assert!(self.failed.is_none(), "the player wrote {line:?} after {:?}", self.failed);
        assert!(!self.quit, "the player wrote {line:?} after Quit");
        let mv: Move = line.parse().unwrap_or_else(|error| panic!("the player wrote {line:?}: {error}"));
        assert_eq!(mv.to_string(), line, "moves are written canonically");
        let position = self.position;
        assert_eq!(self.color, Some(position.side_to_move()), "the player wrote {mv} out of turn in {position}");
        assert!(position.is_legal(mv), "the player wrote the illegal move {mv} in {position}");
        self.position.play(mv).expect("legal");
        self.moves_written += 1;
    }

    /// Checks that the session may ask for a line now.
    fn check_may_read(&self) {
        assert!(self.failed.is_none(), "the session reads on after {:?}", self.failed);
        assert!(!self.quit, "the session reads on after Quit");
        assert!(!self.position.is_game_over(), "the session reads on after the end of the game: {}", self.position);
        assert_ne!(
            self.color,
            Some(self.position.side_to_move()),
            "the session reads on its own turn: {}",
            self.position
        );
    }
}

/// The session's input: chunks from the referee, each line reported to it
/// as the session consumes it.
struct Input<'r, 'a> {
    referee: &'r RefCell<Referee<'a>>,
    chunk: Vec<u8>,
    /// Consumed bytes of `chunk`.
    offset: usize,
    /// Where the line being read started in `chunk`.
    line_start: usize,
    at_end: bool,
}

impl Input<'_, '_> {
    /// Whether the session's error is explained by the input: it ended, or
    /// the line the session stopped at is too long.
    fn explains_error(&self) -> bool {
        let rest = &self.chunk[self.line_start..];
        let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
        self.at_end || line.len() > MAX_LINE_BYTES
    }
}

impl Read for Input<'_, '_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input<'_, '_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.offset == self.chunk.len() && !self.at_end {
            let mut referee = self.referee.borrow_mut();
            if self.line_start < self.offset {
                // A last line without a line break (raw mode only): the
                // input ends here, and the session has the line now.
                let line = self.chunk[self.line_start..self.offset].to_vec();
                self.line_start = self.offset;
                self.at_end = true;
                referee.read(&line);
                return Ok(&[]);
            }
            referee.check_may_read();
            match referee.next_chunk() {
                Some(chunk) => {
                    self.chunk = chunk;
                    self.offset = 0;
                    self.line_start = 0;
                }
                None => self.at_end = true,
            }
        } else if !self.at_end {
            self.referee.borrow().check_may_read();
        }
        Ok(&self.chunk[self.offset..])
    }

    fn consume(&mut self, amount: usize) {
        let end = self.offset + amount;
        let mut referee = self.referee.borrow_mut();
        for i in self.offset..end {
            if self.chunk[i] == b'\n' {
                let line = self.chunk[self.line_start..i].to_vec();
                self.line_start = i + 1;
                referee.read(&line);
            }
        }
        self.offset = end;
    }
}

/// The session's output: each line checked and played by the referee.
struct Output<'r, 'a> {
    referee: &'r RefCell<Referee<'a>>,
}

impl Write for Output<'_, '_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut referee = self.referee.borrow_mut();
        referee.pending_output.extend_from_slice(bytes);
        while let Some(end) = referee.pending_output.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = referee.pending_output.drain(..=end).collect();
            referee.written(&line[..end]);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, script)) = data.split_first() else { return };
    let time = Duration::from_millis([0, 1, 3, 0][usize::from(mode & 3)]);
    let config = SessionConfig {
        time,
        reserve: Duration::ZERO,
        engine: EngineConfig::default().with_threads(1).with_hash_mb(1),
        ..SessionConfig::default()
    };
    let referee = RefCell::new(Referee {
        position: Position::new(),
        color: None,
        failed: None,
        quit: false,
        pending_output: Vec::new(),
        moves_written: 0,
        script,
        interactive: mode & 4 != 0,
        started: false,
    });
    let mut input = Input { referee: &referee, chunk: Vec::new(), offset: 0, line_start: 0, at_end: false };
    let outcome = play_session(&mut input, Output { referee: &referee }, &config);
    let referee = referee.borrow();
    assert!(referee.pending_output.is_empty(), "an unfinished line: {:?}", referee.pending_output);
    match outcome {
        Ok(end) => {
            assert!(referee.failed.is_none(), "the session went on after {:?}", referee.failed);
            assert_eq!(end.position, referee.position);
            assert_eq!(end.color, referee.color);
            assert_eq!(end.moves_made, referee.moves_written);
            match end.reason {
                EndReason::Quit => assert!(referee.quit, "Quit without Quit"),
                EndReason::GameOver => {
                    assert!(!referee.quit && referee.position.is_game_over(), "game over in {}", referee.position)
                }
            }
        }
        Err(error) => {
            assert!(!referee.quit, "an error after Quit: {error:#}");
            assert!(
                referee.failed.is_some() || input.explains_error(),
                "an error the input does not explain: {error:#} in {}",
                referee.position
            );
        }
    }
});
