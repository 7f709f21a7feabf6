//! `dvonn replay`: check a game record move by move.

use std::path::PathBuf;

use anyhow::Result;
use dvonn_core::Outcome;
use dvonn_notation::diagram::status;
use dvonn_notation::{RecordResult, Replay};

use crate::input::read_game;

/// Arguments of `dvonn replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record to check (our game record, Little Golem, BoardSpace SGF or
    /// a CodeCup log; the format is detected), or `-` for standard input.
    record: PathBuf,
}

/// Runs `dvonn replay`: prints the final position string, then who won
/// (or that it was a draw, or that the game is unfinished), then the result
/// as `<white>-<black>` (or `*` when the game is unfinished) on the last
/// line. An illegal or unreadable move is an error naming its number.
pub fn run(args: &Args) -> Result<()> {
    let (record, replay) = read_game(&args.record, None)?;
    outln!("{}", replay.final_position())?;
    outln!("{}", verdict(&replay, record.result))?;
    outln!("{}", replay.result())?;
    Ok(())
}

/// Who won the game of `replay`, and by how much, in words; `recorded` is
/// the record's own result, which tells a resignation.
fn verdict(replay: &Replay, recorded: RecordResult) -> String {
    let position = replay.final_position();
    let plies = replay.moves.len();
    match (position.outcome(), recorded) {
        (Some(Outcome::Win(winner)), _) => {
            let (won, lost) = (position.pieces(winner), position.pieces(!winner));
            format!("{winner} wins by {} ({won} to {lost}) after {plies} plies.", pieces(won - lost))
        }
        (Some(Outcome::Draw), _) => {
            format!("A draw: {} each after {plies} plies.", pieces(position.pieces(dvonn_core::Color::White)))
        }
        (None, RecordResult::Resigned(loser)) => format!("{loser} resigned after {plies} plies: {} wins.", !loser),
        (None, _) => format!("The game is unfinished after {plies} plies: {}.", status(position)),
    }
}

/// `n piece(s)`.
fn pieces(n: u32) -> String {
    if n == 1 { "1 piece".to_string() } else { format!("{n} pieces") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Color;
    use dvonn_notation::GameRecord;

    fn replay(moves: &str) -> Replay {
        GameRecord::parse(moves).unwrap().replay().unwrap()
    }

    #[test]
    fn unfinished_and_resigned_games() {
        let opening = replay("1. E3 D3");
        assert_eq!(
            verdict(&opening, RecordResult::Unfinished),
            "The game is unfinished after 2 plies: White to move, placement phase (2 of 49 placed), score 0-0."
        );
        assert_eq!(
            verdict(&opening, RecordResult::Resigned(Color::Black)),
            "Black resigned after 2 plies: White wins."
        );
    }
}
