//! Playing on the page: the engine a game is played against, whose turn it
//! is, and the moves and undos the person asks for, checked.

use std::time::Duration;

use dvonn_ai::{EngineConfig, Level, Limits};
use dvonn_core::{Author, Color, IllegalMoveReason, Move};
use dvonn_notation::GameRecord;
use serde::Serialize;

use crate::sessions::Session;

/// The engine a game is played against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opponent {
    /// The engine's colour.
    pub color: Color,
    /// Its configuration (threads, table and seed are the server's).
    pub config: EngineConfig,
    /// Its limit per move.
    pub limits: Limits,
    /// Its name in the page and the game record.
    pub name: String,
}

impl Opponent {
    /// The engine of `level`, playing `color`.
    pub(crate) fn level(color: Color, level: Level) -> Opponent {
        let name = format!("dvonn-ai {} ({level})", env!("CARGO_PKG_VERSION"));
        Opponent { color, config: level.config(), limits: level.limits(), name }
    }

    /// The strongest engine with `time` per move, playing `color`.
    pub(crate) fn timed(color: Color, time: Duration) -> Opponent {
        let name = format!("dvonn-ai {} ({} s/move)", env!("CARGO_PKG_VERSION"), time.as_secs_f64());
        Opponent { color, config: Level::Master.config(), limits: Limits::move_time(time), name }
    }
}

/// The tags of the record of a new game against `opponent` (`None`: the
/// person plays both sides): the event, today's date and the players.
pub(crate) fn new_game_tags(opponent: Option<&Opponent>) -> Vec<(String, String)> {
    let mut tags = vec![("Event".to_string(), "dvonn serve".to_string()), ("Date".to_string(), today())];
    if let Some(opponent) = opponent {
        for color in Color::BOTH {
            let name = if color == opponent.color { opponent.name.as_str() } else { "Human" };
            tags.push((color.to_string(), name.to_string()));
        }
    }
    tags
}

/// Today's date (UTC) as game records write it: `2026.11.29`.
fn today() -> String {
    let date = time::OffsetDateTime::now_utc().date();
    format!("{:04}.{:02}.{:02}", date.year(), u8::from(date.month()), date.day())
}

/// Whose turn it is in a position of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Turn {
    /// The person's (always, when the person plays both sides).
    You,
    /// The engine's.
    Engine,
    /// Nobody's: the game is over.
    Over,
}

/// Why a request cannot change the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GameError {
    /// A ply after the last one.
    #[error("ply {ply} is past the end of the game ({plies} plies)")]
    PastTheEnd {
        /// The ply asked for.
        ply: usize,
        /// The plies of the game.
        plies: usize,
    },
    /// A move for the person while it is the engine's turn.
    #[error("it is the engine's turn, not yours")]
    NotYourTurn,
    /// A move against the rules.
    #[error("{mv} is illegal: {reason}")]
    Illegal {
        /// The move.
        mv: Move,
        /// Why.
        reason: IllegalMoveReason,
    },
    /// An undo with no move of the person to take back.
    #[error("nothing to undo: you have not moved yet")]
    NothingToUndo,
}

impl Session {
    /// `ply`, or the end of the game when `None`, checked.
    pub(crate) fn checked_ply(&self, ply: Option<usize>) -> Result<usize, GameError> {
        let plies = self.game.len();
        match ply {
            None => Ok(plies),
            Some(ply) if ply <= plies => Ok(ply),
            Some(ply) => Err(GameError::PastTheEnd { ply, plies }),
        }
    }

    /// Whose turn it is after `ply` plies (a checked ply).
    pub(crate) fn turn(&self, ply: usize) -> Turn {
        let position = &self.game.positions()[ply];
        match &self.opponent {
            _ if position.is_game_over() => Turn::Over,
            Some(opponent) if opponent.color == position.side_to_move() => Turn::Engine,
            _ => Turn::You,
        }
    }

    /// Plays the person's move `mv` after `ply` plies, dropping the moves
    /// after it (and a resignation the game ended with).
    pub(crate) fn play_yours(&mut self, ply: usize, mv: Move) -> Result<(), GameError> {
        let ply = self.checked_ply(Some(ply))?;
        if self.turn(ply) == Turn::Engine {
            return Err(GameError::NotYourTurn);
        }
        self.game.positions()[ply].check(mv).map_err(|reason| GameError::Illegal { mv, reason })?;
        self.game.truncate(ply);
        self.play(mv, Author::Person)
    }

    /// Plays the engine's move at the end of the game.
    pub(crate) fn play_engine(&mut self, mv: Move) -> Result<(), GameError> {
        self.play(mv, Author::Program)
    }

    fn play(&mut self, mv: Move, author: Author) -> Result<(), GameError> {
        self.game.play(mv, author).map_err(|error| GameError::Illegal { mv, reason: error.reason })?;
        Ok(())
    }

    /// Takes back the person's last move and the engine's replies to it;
    /// when the person plays both sides, the last move.
    pub(crate) fn undo(&mut self) -> Result<(), GameError> {
        let undone = match self.opponent {
            Some(_) => self.game.undo(Author::Person),
            None => match self.game.len().checked_sub(1) {
                Some(ply) => {
                    self.game.truncate(ply);
                    true
                }
                None => false,
            },
        };
        if undone { Ok(()) } else { Err(GameError::NothingToUndo) }
    }

    /// The game as a game record, with its tags and result.
    pub(crate) fn record(&self) -> GameRecord {
        let mut record = GameRecord::from(&self.game);
        record.tags = self.tags.clone();
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::{Game, Outcome, Position};

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn session(start: Position, opponent: Option<Opponent>) -> Session {
        let tags = new_game_tags(opponent.as_ref());
        Session::new(Game::new(start), opponent, tags)
    }

    #[test]
    fn undo_takes_back_the_persons_move_and_the_replies() {
        let mut game = session(Position::new(), Some(Opponent::level(Color::Black, Level::Beginner)));
        assert_eq!(game.undo(), Err(GameError::NothingToUndo));
        game.play_yours(0, mv("E3")).unwrap();
        assert_eq!(game.play_yours(1, mv("D3")), Err(GameError::NotYourTurn));
        game.play_engine(mv("D3")).unwrap();
        game.play_yours(2, mv("C3")).unwrap();
        game.play_engine(mv("F3")).unwrap();
        game.undo().unwrap();
        assert_eq!(game.game.len(), 2);
        assert_eq!(game.turn(2), Turn::You);
    }

    #[test]
    fn a_move_from_an_earlier_ply_drops_the_rest() {
        let mut game = session(Position::new(), None);
        for (ply, text) in ["E3", "D3", "C3"].iter().enumerate() {
            game.play_yours(ply, mv(text)).unwrap();
        }
        game.play_yours(1, mv("A1")).unwrap();
        let record = game.record();
        assert_eq!(record.moves, vec![mv("E3"), mv("A1")]);
        assert_eq!(game.play_yours(5, mv("A2")), Err(GameError::PastTheEnd { ply: 5, plies: 2 }));
        assert!(matches!(game.play_yours(2, mv("E3")), Err(GameError::Illegal { .. })));
        game.undo().unwrap();
        assert_eq!(game.game.len(), 1, "both sides: undo takes back one move");
    }

    #[test]
    fn an_imported_resignation_lasts_while_the_moves_do() {
        let record = GameRecord::parse("[Result \"resign-b\"]\n1. E3 D3").unwrap();
        let mut game = Session::new(record.replay().unwrap(), None, record.tags.clone());
        assert_eq!(game.record().result, Outcome::Resigned(Color::Black));
        assert_eq!(game.view("x", 2).result.as_deref(), Some("Black resigned"));
        assert_eq!(game.view("x", 1).result, None);
        game.play_yours(2, mv("C3")).unwrap();
        assert_eq!(game.record().result, Outcome::Unfinished);
    }

    #[test]
    fn the_view_shows_the_last_move_and_the_legal_moves() {
        let start: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mut game = session(start, None);
        game.play_yours(0, mv("B3C3")).unwrap();
        let view = game.view("x", 1);
        assert_eq!(view.moves[0].removed, ["A3"]);
        assert!(view.svg.contains(r#"class="arrow""#) && view.svg.contains(r#"class="removed""#));
        assert_eq!(view.turn, Turn::Over);
        assert_eq!(view.result.as_deref(), Some("White wins by 2 pieces (2-0)"));
        assert!(view.legal.is_empty());
        let before = game.view("x", 0);
        let mut legal = before.legal.clone();
        legal.sort();
        assert_eq!(legal, ["B3A3", "B3C3"]);
        assert_eq!(before.turn, Turn::You);
    }
}
