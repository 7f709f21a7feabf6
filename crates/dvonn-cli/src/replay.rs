//! `dvonn replay`: check a game record move by move.

use std::path::PathBuf;

use anyhow::Result;
use dvonn_core::{Game, Outcome};
use dvonn_notation::diagram::status;

use crate::input::read_game;

/// Arguments of `dvonn replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record to check (our game record, Little Golem, BoardSpace SGF or
    /// a CodeCup log; the format is detected), or `-` for standard input.
    record: PathBuf,
}

/// Runs `dvonn replay`: prints the final position string, then who won
/// (or that it was a draw, or that the game is unfinished), then the result
/// as `<white>-<black>` (or `*` when the game is unfinished) on the last
/// line. An illegal or unreadable move is an error naming its number.
pub(crate) fn run(args: &Args) -> Result<()> {
    let (_, game) = read_game(&args.record, None)?;
    outln!("{}", game.position())?;
    outln!("{}", verdict(&game))?;
    outln!("{}", game.position().outcome())?;
    Ok(())
}

/// Who won `game`, and by how much, in words (a resignation the record
/// gives included).
fn verdict(game: &Game) -> String {
    let position = game.position();
    let plies = game.len();
    let outcome = game.outcome();
    match (outcome, outcome.winner()) {
        (Outcome::Score { .. }, Some(winner)) => {
            let (won, lost) = (position.pieces(winner), position.pieces(!winner));
            format!("{winner} wins by {} ({won} to {lost}) after {plies} plies.", pieces(won - lost))
        }
        (Outcome::Score { white, .. }, None) => format!("A draw: {} each after {plies} plies.", pieces(white)),
        (Outcome::Resigned(loser), _) => format!("{loser} resigned after {plies} plies: {} wins.", !loser),
        (Outcome::Unfinished, _) => format!("The game is unfinished after {plies} plies: {}.", status(position)),
    }
}

/// `n piece(s)`.
fn pieces(n: u32) -> String {
    if n == 1 { "1 piece".to_string() } else { format!("{n} pieces") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_notation::GameRecord;

    fn replay(moves: &str) -> Game {
        GameRecord::parse(moves).unwrap().replay().unwrap()
    }

    #[test]
    fn unfinished_and_resigned_games() {
        assert_eq!(
            verdict(&replay("1. E3 D3")),
            "The game is unfinished after 2 plies: White to move, placement phase (2 of 49 placed), score 0-0."
        );
        assert_eq!(verdict(&replay("1. E3 D3 resign-b")), "Black resigned after 2 plies: White wins.");
    }
}
