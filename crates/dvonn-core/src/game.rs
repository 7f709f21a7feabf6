//! A game: its start, its moves and who chose each, and how it ended —
//! the one model of a game of the workspace ([`Game`]).

use crate::{Bitboard, Color, IllegalMoveError, IllegalMoveReason, Move, Outcome, Position};

/// Who chose a move of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Author {
    /// A person, at a terminal or on a web page.
    Person,
    /// A program: an engine, another program, a random player.
    Program,
    /// Nobody: it was the only legal move of a person, played by rule.
    Forced,
    /// Nobody in this game: read from a game record, or an opening set for
    /// both players.
    Record,
}

/// A move of a [`Game`], who chose it, and what it removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// Who chose it.
    pub author: Author,
    /// The cells whose stacks it cut off and removed.
    pub removed: Bitboard,
}

/// A game: the position it starts from, the moves played (each checked
/// against the rules, with who chose it and what it removed), every
/// position on the way, and how it ended.
///
/// A game ends when the rules say ([`Position::outcome`]: a score), or when
/// a player resigns ([`Game::resign`]; a forfeit is recorded so). Moves are
/// taken back by going to an earlier ply ([`Game::truncate`]) or by
/// undoing the last move of an author and the moves after it
/// ([`Game::undo`]); either takes a resignation back too.
///
/// Game records replay into a `Game` (`dvonn-notation`), the game driver
/// plays in one (`dvonn-ai`), and the command and the server show one.
///
/// ```
/// use dvonn_core::{Author, Color, Game, Outcome, Position};
///
/// let mut game = Game::new(Position::new());
/// game.play("E3".parse().unwrap(), Author::Person).unwrap();
/// game.play("D3".parse().unwrap(), Author::Program).unwrap();
/// assert!(game.play("D3".parse().unwrap(), Author::Person).is_err(), "D3 is taken");
/// assert_eq!(game.len(), 2);
/// assert_eq!(game.positions()[1].to_string(), "........./........../....D....../........../......... b p");
/// assert!(game.undo(Author::Person), "takes back E3 and the reply");
/// assert_eq!(game.position(), &Position::new());
/// game.play("E3".parse().unwrap(), Author::Person).unwrap();
/// assert!(game.resign(Color::Black));
/// assert_eq!(game.outcome(), Outcome::Resigned(Color::Black));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[0]` is the start, `positions[i + 1]` the position after
    /// `plies[i]`.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    /// The player who resigned, while the game is not over by the rules.
    resigned: Option<Color>,
}

impl Game {
    /// A game from `start` (the empty board, a random setup, any
    /// position), no move played yet.
    pub fn new(start: Position) -> Game {
        Game { positions: vec![start], plies: Vec::new(), resigned: None }
    }

    /// The position the game starts from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position after the last move.
    pub fn position(&self) -> &Position {
        // `positions` always holds the start.
        self.positions.last().unwrap_or_else(|| unreachable!("a game holds its start position"))
    }

    /// Every position of the game: the start, then the position after each
    /// ply (`positions()[n]` is the position after `n` plies).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, in order, each with its author and what it removed.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The moves alone, in order.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        self.plies.iter().map(|ply| ply.mv)
    }

    /// The number of plies played.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// How the game ended: the score once the rules end it, the
    /// resignation, or [`Outcome::Unfinished`].
    pub fn outcome(&self) -> Outcome {
        match self.resigned {
            Some(color) => Outcome::Resigned(color),
            None => self.position().outcome(),
        }
    }

    /// Plays `mv`, chosen by `author`, after checking it; returns the cells
    /// whose stacks it removed. A game over (by the rules, or resigned)
    /// takes no move.
    pub fn play(&mut self, mv: Move, author: Author) -> Result<Bitboard, IllegalMoveError> {
        if self.resigned.is_some() {
            return Err(IllegalMoveError { mv, reason: IllegalMoveReason::GameOver });
        }
        let mut position = *self.position();
        let removed = position.play(mv)?;
        self.positions.push(position);
        self.plies.push(Ply { mv, author, removed });
        Ok(removed)
    }

    /// Ends the game: `color` resigns (or loses by forfeit). Returns
    /// `false`, and changes nothing, when the game is over already.
    pub fn resign(&mut self, color: Color) -> bool {
        if self.outcome().is_over() {
            return false;
        }
        self.resigned = Some(color);
        true
    }

    /// Goes back to the position after the first `plies` plies: the moves
    /// after them, and a resignation, are taken back (`plies` past the end
    /// takes back the resignation only).
    pub fn truncate(&mut self, plies: usize) {
        self.plies.truncate(plies);
        self.positions.truncate(plies + 1);
        self.resigned = None;
    }

    /// Takes back the last move `author` chose and every move after it;
    /// `false`, and nothing changes, when `author` chose none.
    pub fn undo(&mut self, author: Author) -> bool {
        match self.plies.iter().rposition(|ply| ply.author == author) {
            Some(ply) => {
                self.truncate(ply);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn every_position_and_removal_is_kept() {
        let start: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mut game = Game::new(start);
        let removed = game.play(mv("B3C3"), Author::Person).unwrap();
        assert_eq!(removed, Bitboard::from("A3".parse::<crate::Cell>().unwrap()));
        assert_eq!(game.plies(), [Ply { mv: mv("B3C3"), author: Author::Person, removed }]);
        let mut after = start;
        after.play(mv("B3C3")).unwrap();
        assert_eq!(game.positions(), [start, after]);
        assert_eq!(game.outcome(), Outcome::Score { white: 2, black: 0 });
        assert!(!game.resign(Color::White), "the game is over");
        assert_eq!(game.play(Move::Pass, Author::Person).unwrap_err().reason, IllegalMoveReason::GameOver);
    }

    #[test]
    fn a_resignation_ends_the_game_until_taken_back() {
        let mut game = Game::new(Position::new());
        game.play(mv("E3"), Author::Record).unwrap();
        assert!(game.resign(Color::Black));
        assert_eq!(game.outcome(), Outcome::Resigned(Color::Black));
        assert_eq!(game.play(mv("D3"), Author::Person).unwrap_err().reason, IllegalMoveReason::GameOver);
        game.truncate(game.len());
        assert_eq!((game.len(), game.outcome()), (1, Outcome::Unfinished));
        game.play(mv("D3"), Author::Person).unwrap();
    }

    #[test]
    fn undo_takes_back_the_authors_last_move_and_the_replies() {
        let mut game = Game::new(Position::new());
        assert!(!game.undo(Author::Person));
        for (text, author) in [("E3", Author::Person), ("D3", Author::Program), ("C3", Author::Forced)] {
            game.play(mv(text), author).unwrap();
        }
        assert!(game.undo(Author::Person));
        assert!(game.is_empty());
        assert_eq!(game.position(), game.start());
        assert_eq!(game.moves().count(), 0);
    }
}
