//! An external program that plays one game over the CodeCup protocol (see
//! [`crate::codecup`]), from the referee's side: a [`Player`] of the game
//! driver. It is sent `Start` when it moves first, its opponent's moves
//! (each when its own turn comes, and the last at the end), and `Quit` at
//! the end; it answers with one move line per turn.
//!
//! Anything that goes wrong is the program's fault and returned as a
//! message (the caller scores the game as a loss): it could not be
//! written to (it exited), it closed its output or could not be read, it
//! wrote something that is not a move, or it wrote nothing within the
//! per-move timeout. The program is killed when the game ends or the value
//! is dropped (its own child processes are not: start it with `exec` from a
//! shell script).

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use dvonn_ai::Player;
use dvonn_core::Game;
use dvonn_core::Move;

use crate::codecup::{Message, read_line};

/// Lines of the program's standard error kept for messages.
const STDERR_LINES: usize = 3;

/// How long a failing program is given to exit, and its standard error to
/// be read to the end, for the failure message.
const EXIT_WAIT: Duration = Duration::from_millis(100);

/// How long a program may take to exit after `Quit`.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// A running program.
#[derive(Debug)]
pub(crate) struct External {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<Option<String>>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Closed when the program's standard error has been read to its end.
    stderr_done: Receiver<()>,
    timeout: Duration,
    /// Whether the program has been sent anything (`Start` or a move).
    spoken_to: bool,
    /// The plies of the game the program knows: those before its start
    /// position, its own moves and those it has been sent.
    known: usize,
}

impl External {
    /// Starts `command` (the program, then its arguments) with piped
    /// standard streams, for a game whose first `known` plies the program
    /// knows (they lead to its start position). `timeout` is the longest
    /// wait for each move.
    pub(crate) fn start(command: &[String], timeout: Duration, known: usize) -> Result<External> {
        let (program, args) = command.split_first().context("an empty command line")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", command.join(" ")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().context("no pipe to the program's output")?;
        let (sender, lines) = mpsc::channel();
        thread::Builder::new()
            .name("dvonn-match-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let line = read_line(&mut reader);
                    let last = !matches!(line, Ok(Some(_)));
                    if sender.send(line).is_err() || last {
                        break;
                    }
                }
            })
            .context("cannot start a thread to read the program")?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let (done, stderr_done) = mpsc::channel();
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            thread::Builder::new()
                .name("dvonn-match-stderr".into())
                .spawn(move || {
                    keep_tail(pipe, &tail);
                    drop(done);
                })
                .context("cannot start a thread to read the program")?;
        }
        Ok(External { child, stdin, lines, stderr, stderr_done, timeout, spoken_to: false, known })
    }

    /// Sends the moves of `game` the program does not know yet: its
    /// opponent's.
    fn tell(&mut self, game: &Game) -> Result<(), String> {
        for played in &game.plies()[self.known.min(game.len())..] {
            self.send(&played.mv.to_string())?;
        }
        self.known = game.len();
        Ok(())
    }

    /// Asks for the program's move: sends `Start` first when it has been
    /// sent nothing yet (it moves first), then waits for a move line
    /// (blank lines skipped).
    fn ask(&mut self) -> Result<Move, String> {
        if !self.spoken_to {
            self.send("Start")?;
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(wait) {
                Ok(Ok(Some(line))) => line,
                Ok(Ok(None)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.failure("exited or crashed: its output ended instead of a move"));
                }
                Ok(Err(error)) => return Err(self.failure(&format!("wrote an unreadable line ({error})"))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.failure(&format!("wrote no move within {:.1} s", self.timeout.as_secs_f64())));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            return match Message::parse(&line) {
                Ok(Message::Move(mv)) => Ok(mv),
                Ok(_) | Err(_) => {
                    let text: String = line.trim().chars().take(40).collect();
                    Err(self.failure(&format!("wrote {text:?}, which is not a move")))
                }
            };
        }
    }

    /// Ends `game`: sends the last move and `Quit` (the program may have
    /// exited already), gives it a moment to exit, then kills it. A program
    /// that has just lost by misbehaving (`failed`) is killed at once.
    pub(crate) fn finish(mut self, game: &Game, failed: bool) {
        if failed {
            return;
        }
        let _ = self.tell(game).and_then(|()| self.send("Quit"));
        self.stdin = None;
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    /// Writes a line and flushes it.
    fn send(&mut self, line: &str) -> Result<(), String> {
        self.spoken_to = true;
        let written = match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => return Err("its input is closed".to_string()),
        };
        written.map_err(|error| self.failure(&format!("exited or crashed: it could not be sent {line:?} ({error})")))
    }

    /// A failure message, with how the program ended and the last lines of
    /// its standard error when there are any.
    fn failure(&mut self, what: &str) -> String {
        let mut message = what.to_string();
        // A moment for a crashing program to finish exiting, and for the
        // end of its standard error to be read.
        let deadline = Instant::now() + EXIT_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(status) => break status,
                Err(_) => break None,
            }
        };
        if let Some(status) = status {
            let _ = self.stderr_done.recv_timeout(EXIT_WAIT);
            message.push_str(&format!(" [{status}]"));
        }
        if let Ok(tail) = self.stderr.lock()
            && !tail.is_empty()
        {
            let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
            message.push_str(&format!(" [stderr: {}]", lines.join(" | ")));
        }
        message
    }
}

impl Player for External {
    fn choose(&mut self, game: &Game, _time_left: Option<Duration>) -> Result<Move, String> {
        self.tell(game)?;
        let mv = self.ask()?;
        self.known += 1;
        Ok(mv)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads `pipe` to its end, keeping its last lines (shortened) in `tail`.
fn keep_tail(mut pipe: impl Read, tail: &Mutex<VecDeque<String>>) {
    let keep = |line: &[u8]| {
        let text = String::from_utf8_lossy(line).trim().to_string();
        if let (false, Ok(mut tail)) = (text.is_empty(), tail.lock()) {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(text);
        }
    };
    let mut buffer = [0u8; 4096];
    let mut line = Vec::new();
    loop {
        let read = match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &byte in &buffer[..read] {
            if byte == b'\n' {
                keep(&line);
                line.clear();
            } else if line.len() < 120 {
                line.push(byte);
            }
        }
    }
    keep(&line);
}
