//! A record's moves played by the rules: [`GameRecord::replay`] into a
//! [`Game`], the record of a game (`GameRecord::from`), and the record's
//! result checked against its moves ([`GameRecord::check_result`]).

use std::fmt;

use dvonn_core::{Author, Game, IllegalMoveReason, Move, Outcome, Phase};

use crate::record::GameRecord;

impl GameRecord {
    /// Plays the moves from the start into a [`Game`], checking each
    /// against the rules, and reports the first illegal one. When the
    /// placement phase has reached ply 48 (one empty cell left) and the
    /// next move is a movement or a pass, the forced last placement is put
    /// in first. Every move's author is [`Author::Record`]; a resignation
    /// the record gives ends the game when the moves have not.
    ///
    /// A score the record gives is not compared with the game here: see
    /// [`GameRecord::check_result`].
    ///
    /// ```
    /// use dvonn_notation::GameRecord;
    /// let error = GameRecord::parse("E3 E3").unwrap().replay().unwrap_err();
    /// assert_eq!(error.to_string(), "move 1 (ply 1) E3 is illegal: E3 is not empty");
    /// ```
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = Game::new(self.start);
        for &mv in &self.moves {
            let position = game.position();
            let empty = !position.occupied();
            let forced = !mv.is_placement() && position.phase() == Phase::Placement && empty.len() == 1;
            if let Some(cell) = empty.first().filter(|_| forced) {
                play(&mut game, Move::Place(cell))?;
            }
            play(&mut game, mv)?;
        }
        if let Outcome::Resigned(color) = self.result {
            game.resign(color);
        }
        Ok(game)
    }

    /// Checks the record's result against `game`, its moves replayed: a
    /// score must be the final score of a finished game; `*` and
    /// resignations are accepted whatever the position (a resignation ends
    /// a game early, and `*` says nothing).
    ///
    /// ```
    /// use dvonn_core::Outcome;
    /// use dvonn_notation::GameRecord;
    /// let mut record = GameRecord::parse("E3").unwrap();
    /// record.result = Outcome::Score { white: 24, black: 19 };
    /// let error = record.check_result(&record.replay().unwrap()).unwrap_err();
    /// assert_eq!(error.to_string(), "the record gives the result 24-19, but the game is not over after its last move");
    /// ```
    pub fn check_result(&self, game: &Game) -> Result<(), ResultMismatch> {
        let actual = game.position().outcome();
        match self.result {
            Outcome::Score { .. } if actual != self.result => Err(ResultMismatch { recorded: self.result, actual }),
            _ => Ok(()),
        }
    }
}

/// The record of `game`: its start, its moves and its outcome, without
/// tags or comments.
impl From<&Game> for GameRecord {
    fn from(game: &Game) -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            start: *game.start(),
            moves: game.moves().collect(),
            comments: Vec::new(),
            result: game.outcome(),
        }
    }
}

/// Plays the next move of a record into `game`.
fn play(game: &mut Game, mv: Move) -> Result<(), ReplayError> {
    let ply = game.len();
    game.play(mv, Author::Record).map_err(|error| ReplayError {
        ply,
        move_number: ply / 2 + 1,
        mv,
        reason: error.reason,
    })?;
    Ok(())
}

/// A recorded score that is not what the moves give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub struct ResultMismatch {
    /// The result the record gives.
    pub recorded: Outcome,
    /// What the moves give: the final score, or
    /// [`Outcome::Unfinished`] when the game is not over.
    pub actual: Outcome,
}

impl fmt::Display for ResultMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.actual {
            Outcome::Unfinished => {
                write!(f, "the record gives the result {}, but the game is not over after its last move", self.recorded)
            }
            actual => write!(f, "the record gives the result {}, but the moves end {actual}", self.recorded),
        }
    }
}

/// An illegal move in a record: which, where, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {move_number} (ply {ply}) {mv} is illegal: {reason}")]
#[non_exhaustive]
pub struct ReplayError {
    /// The ply of the move, counted from 0 at the start of the record (the
    /// forced last placement counted, when the record leaves it out).
    pub ply: usize,
    /// The move number of the record: `ply / 2 + 1`.
    pub move_number: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalMoveReason,
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Position;

    #[test]
    fn the_forced_placement_is_filled_in_by_replay_and_writing() {
        // Place 48 pieces row by row, leave K5 empty, then move.
        let cells: Vec<_> = dvonn_core::Cell::ALL.iter().take(48).map(|c| Move::Place(*c)).collect();
        let mut record = GameRecord::new(Position::new());
        record.moves = cells;
        // After 48 placements White places on K5 (forced) and moves first.
        let mut position = Position::new();
        for mv in &record.moves {
            position.play(*mv).unwrap();
        }
        position.play(Move::Place("K5".parse().unwrap())).unwrap();
        let first = position.legal_moves()[0];
        record.moves.push(first);
        let game = record.replay().unwrap();
        let replayed: Vec<Move> = game.moves().collect();
        assert_eq!(replayed.len(), 50);
        assert_eq!(replayed[48], Move::Place("K5".parse().unwrap()));
        let text = record.to_string();
        assert!(text.contains(&format!("25. K5 {first}")), "{text}");
        let mut filled = record.clone();
        filled.fill_forced_placement();
        assert_eq!(filled.moves, replayed);
        assert_eq!(GameRecord::parse(&text).unwrap(), filled);
        // Comments after the missing placement move with the moves.
        record.add_comment(48, "last placement");
        record.add_comment(49, "first movement");
        let read = GameRecord::parse(&record.to_string()).unwrap();
        let places: Vec<usize> = read.comments.iter().map(|comment| comment.after).collect();
        assert_eq!(places, [48, 50]);
        assert_eq!(read.moves[49], first);
    }
}
