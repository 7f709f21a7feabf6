//! A game on the page: its moves and who chose each, the engine it is
//! played against (or none: the person plays both sides, as for an
//! imported game), and the [`View`] of it after any ply that the page draws.

use std::time::Duration;

use dvonn_ai::{EngineConfig, Level, Limits};
use dvonn_core::{Color, IllegalMoveReason, Move, Outcome, Phase, Position};
use dvonn_notation::diagram::status;
use dvonn_notation::svg::{LastMove, svg};
use dvonn_notation::{Format, write};
use dvonn_notation::{GameRecord, RecordResult, Replay};
use serde::Serialize;

/// Who chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Author {
    /// The person at the page.
    You,
    /// The engine.
    Engine,
    /// The imported record.
    Record,
}

/// The engine a game is played against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
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
    pub fn level(color: Color, level: Level) -> Opponent {
        let name = format!("dvonn-ai {} ({level})", env!("CARGO_PKG_VERSION"));
        Opponent { color, config: level.config(), limits: level.limits(), name }
    }

    /// The strongest engine with `time` per move, playing `color`.
    pub fn timed(color: Color, time: Duration) -> Opponent {
        let name = format!("dvonn-ai {} ({} s/move)", env!("CARGO_PKG_VERSION"), time.as_secs_f64());
        Opponent { color, config: Level::Master.config(), limits: Limits::move_time(time), name }
    }
}

/// Whose turn it is in a position of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Turn {
    /// The person's (always, when the person plays both sides).
    You,
    /// The engine's.
    Engine,
    /// Nobody's: the game is over.
    Over,
}

/// Why a request cannot change the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
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

/// A game and who plays it.
#[derive(Clone, Debug)]
pub struct Game {
    replay: Replay,
    /// `authors[i]`: who chose `replay.moves[i]`.
    authors: Vec<Author>,
    opponent: Option<Opponent>,
    tags: Vec<(String, String)>,
    /// The result of an imported record when the rules cannot tell it (a
    /// resignation), kept while the game holds the record's moves.
    recorded_result: Option<RecordResult>,
}

impl Game {
    /// A game from `start` against `opponent` (`None`: the person plays
    /// both sides).
    pub fn new(start: Position, opponent: Option<Opponent>) -> Game {
        let mut tags = vec![("Event".to_string(), "dvonn serve".to_string())];
        tags.push(("Date".to_string(), today()));
        if let Some(opponent) = &opponent {
            for color in [Color::White, Color::Black] {
                let name = if color == opponent.color { opponent.name.as_str() } else { "Human" };
                tags.push((color.to_string(), name.to_string()));
            }
        }
        Game { replay: Replay::new(start), authors: Vec::new(), opponent, tags, recorded_result: None }
    }

    /// The game of an imported `record`, already replayed, to be studied
    /// (the person plays both sides from any ply).
    pub fn imported(record: &GameRecord, replay: Replay) -> Game {
        let recorded_result = matches!(record.result, RecordResult::Resigned(_)).then_some(record.result);
        let authors = vec![Author::Record; replay.moves.len()];
        Game { replay, authors, opponent: None, tags: record.tags.clone(), recorded_result }
    }

    /// The plies played.
    pub fn plies(&self) -> usize {
        self.replay.moves.len()
    }

    /// `ply`, or the end of the game when `None`, checked.
    pub fn checked_ply(&self, ply: Option<usize>) -> Result<usize, GameError> {
        match ply {
            None => Ok(self.plies()),
            Some(ply) if ply <= self.plies() => Ok(ply),
            Some(ply) => Err(GameError::PastTheEnd { ply, plies: self.plies() }),
        }
    }

    /// The position after `ply` plies (a checked ply).
    pub fn position(&self, ply: usize) -> &Position {
        &self.replay.positions[ply]
    }

    /// The position at the end of the game.
    pub fn final_position(&self) -> &Position {
        self.replay.final_position()
    }

    /// The engine the game is played against.
    pub fn opponent(&self) -> Option<&Opponent> {
        self.opponent.as_ref()
    }

    /// Whose turn it is after `ply` plies.
    pub fn turn(&self, ply: usize) -> Turn {
        let position = self.position(ply);
        match &self.opponent {
            _ if position.is_game_over() => Turn::Over,
            Some(opponent) if opponent.color == position.side_to_move() => Turn::Engine,
            _ => Turn::You,
        }
    }

    /// Plays the person's move `mv` after `ply` plies, dropping the moves
    /// after it.
    pub fn play_yours(&mut self, ply: usize, mv: Move) -> Result<(), GameError> {
        let ply = self.checked_ply(Some(ply))?;
        if self.turn(ply) == Turn::Engine {
            return Err(GameError::NotYourTurn);
        }
        self.position(ply).check(mv).map_err(|reason| GameError::Illegal { mv, reason })?;
        self.truncate(ply);
        self.push(mv, Author::You)
    }

    /// Plays the engine's move at the end of the game.
    pub fn play_engine(&mut self, mv: Move) -> Result<(), GameError> {
        self.push(mv, Author::Engine)
    }

    fn push(&mut self, mv: Move, author: Author) -> Result<(), GameError> {
        self.replay.play(mv).map_err(|error| GameError::Illegal { mv, reason: error.reason })?;
        self.authors.push(author);
        self.recorded_result = None;
        Ok(())
    }

    fn truncate(&mut self, ply: usize) {
        if ply < self.plies() {
            self.replay.truncate(ply);
            self.authors.truncate(ply);
            self.recorded_result = None;
        }
    }

    /// Takes back the person's last move and the engine's replies to it;
    /// when the person plays both sides, the last move.
    pub fn undo(&mut self) -> Result<(), GameError> {
        let last = match self.opponent {
            Some(_) => self.authors.iter().rposition(|author| *author == Author::You),
            None => self.plies().checked_sub(1),
        };
        let ply = last.ok_or(GameError::NothingToUndo)?;
        self.truncate(ply);
        Ok(())
    }

    /// The game as a game record, with its tags and result.
    pub fn record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.replay.positions[0]);
        record.tags = self.tags.clone();
        record.moves = self.replay.moves.clone();
        record.result = self.recorded_result.unwrap_or_else(|| self.replay.result());
        record
    }

    /// What the page shows after `ply` plies (a checked ply) of the game
    /// `id`; `searching` names the search running for it.
    pub fn view(&self, id: &str, ply: usize, searching: Option<SearchKind>) -> View {
        let position = self.position(ply);
        let last_move = ply
            .checked_sub(1)
            .map(|i| LastMove::new(&self.replay.positions[i], self.replay.moves[i], self.replay.removed[i]));
        let moves = (0..self.plies())
            .map(|i| MoveView {
                text: self.replay.moves[i].to_string(),
                by: self.authors[i],
                removed: self.replay.removed[i].iter().map(|cell| cell.to_string()).collect(),
            })
            .collect();
        let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
        let record = self.record();
        View {
            id: id.to_string(),
            you: match &self.opponent {
                Some(opponent) => color_name(!opponent.color),
                None => "both",
            },
            engine: self.opponent.as_ref().map(|opponent| opponent.name.clone()),
            tags: self.tags.clone(),
            start: self.replay.positions[0].to_string(),
            moves,
            plies: self.plies(),
            ply,
            position: position.to_string(),
            svg: svg(position, last_move.as_ref(), &[status(position)]),
            side: color_name(position.side_to_move()),
            phase: match position.phase() {
                Phase::Placement => "placement",
                Phase::Movement => "movement",
            },
            turn: self.turn(ply),
            legal: position.legal_moves().iter().map(Move::to_string).collect(),
            score: Score { white, black },
            result: match (position.outcome(), self.recorded_result) {
                (Some(Outcome::Win(color)), _) => {
                    let margin = white.abs_diff(black);
                    let pieces = if margin == 1 { "piece" } else { "pieces" };
                    Some(format!("{color} wins by {margin} {pieces} ({white}-{black})"))
                }
                (Some(Outcome::Draw), _) => Some(format!("a draw ({white}-{black})")),
                (None, Some(RecordResult::Resigned(color))) if ply == self.plies() => Some(format!("{color} resigned")),
                (None, _) => None,
            },
            searching,
            exports: EXPORTS
                .into_iter()
                .filter(|format| write(&record, *format).is_ok())
                .map(Format::short_name)
                .collect(),
        }
    }
}

/// Today's date (UTC) as game records write it: `2026.11.29`.
fn today() -> String {
    let date = time::OffsetDateTime::now_utc().date();
    format!("{:04}.{:02}.{:02}", date.year(), u8::from(date.month()), date.day())
}

/// The formats a game is exported in.
pub const EXPORTS: [Format; 2] = [Format::Record, Format::LittleGolem];

/// `white` or `black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// What a search of a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// The engine's move.
    Engine,
    /// An analysis the person started.
    Analysis,
}

/// A game as the page sees it after one of its plies.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The game's id.
    pub id: String,
    /// The person's colour: `white`, `black` or `both`.
    pub you: &'static str,
    /// The engine's name, when one plays.
    pub engine: Option<String>,
    /// The tags of the game record (players, event, date).
    pub tags: Vec<(String, String)>,
    /// The start position (a position string).
    pub start: String,
    /// Every move of the game.
    pub moves: Vec<MoveView>,
    /// The number of moves.
    pub plies: usize,
    /// The ply shown.
    pub ply: usize,
    /// The position shown (a position string).
    pub position: String,
    /// The position drawn as `dvonn render` draws it, with the move that
    /// led to it and the stacks that move removed.
    pub svg: String,
    /// The side to move: `white` or `black`.
    pub side: &'static str,
    /// `placement` or `movement`.
    pub phase: &'static str,
    /// Whose turn it is.
    pub turn: Turn,
    /// The legal moves.
    pub legal: Vec<String>,
    /// The pieces each player owns.
    pub score: Score,
    /// The result, when the game is over at this ply (or, at the end of
    /// an imported game, the resignation it records).
    pub result: Option<String>,
    /// The search running for the game.
    pub searching: Option<SearchKind>,
    /// The formats the game can be exported in (`record`, `lg`: a Little
    /// Golem transcript starts from the empty board).
    pub exports: Vec<&'static str>,
}

/// A move in the move list.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// The move (`E3`, `C3E3`, `PASS`).
    #[serde(rename = "move")]
    pub text: String,
    /// Who chose it.
    pub by: Author,
    /// The cells whose stacks it cut off.
    pub removed: Vec<String>,
}

/// The pieces each player owns.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Score {
    /// White's pieces.
    pub white: u32,
    /// Black's pieces.
    pub black: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn undo_takes_back_the_persons_move_and_the_replies() {
        let mut game = Game::new(Position::new(), Some(Opponent::level(Color::Black, Level::Beginner)));
        assert_eq!(game.undo(), Err(GameError::NothingToUndo));
        game.play_yours(0, mv("E3")).unwrap();
        assert_eq!(game.play_yours(1, mv("D3")), Err(GameError::NotYourTurn));
        game.play_engine(mv("D3")).unwrap();
        game.play_yours(2, mv("C3")).unwrap();
        game.play_engine(mv("F3")).unwrap();
        game.undo().unwrap();
        assert_eq!(game.plies(), 2);
        assert_eq!(game.turn(2), Turn::You);
    }

    #[test]
    fn a_move_from_an_earlier_ply_drops_the_rest() {
        let mut game = Game::new(Position::new(), None);
        for (ply, text) in ["E3", "D3", "C3"].iter().enumerate() {
            game.play_yours(ply, mv(text)).unwrap();
        }
        game.play_yours(1, mv("A1")).unwrap();
        let record = game.record();
        assert_eq!(record.moves, vec![mv("E3"), mv("A1")]);
        assert_eq!(game.play_yours(5, mv("A2")), Err(GameError::PastTheEnd { ply: 5, plies: 2 }));
        assert!(matches!(game.play_yours(2, mv("E3")), Err(GameError::Illegal { .. })));
        game.undo().unwrap();
        assert_eq!(game.plies(), 1, "both sides: undo takes back one move");
    }

    #[test]
    fn an_imported_resignation_lasts_while_the_moves_do() {
        let record = GameRecord::parse("[Result \"resign-b\"]\n1. E3 D3").unwrap();
        let mut game = Game::imported(&record, record.replay().unwrap());
        assert_eq!(game.record().result, RecordResult::Resigned(Color::Black));
        assert_eq!(game.view("x", 2, None).result.as_deref(), Some("Black resigned"));
        assert_eq!(game.view("x", 1, None).result, None);
        game.play_yours(2, mv("C3")).unwrap();
        assert_eq!(game.record().result, RecordResult::Unfinished);
    }

    #[test]
    fn the_view_shows_the_last_move_and_the_legal_moves() {
        let start: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mut game = Game::new(start, None);
        game.play_yours(0, mv("B3C3")).unwrap();
        let view = game.view("x", 1, None);
        assert_eq!(view.moves[0].removed, ["A3"]);
        assert!(view.svg.contains(r#"class="arrow""#) && view.svg.contains(r#"class="removed""#));
        assert_eq!(view.turn, Turn::Over);
        assert_eq!(view.result.as_deref(), Some("White wins by 2 pieces (2-0)"));
        assert!(view.legal.is_empty());
        let before = game.view("x", 0, None);
        let mut legal = before.legal.clone();
        legal.sort();
        assert_eq!(legal, ["B3A3", "B3C3"]);
        assert_eq!(before.turn, Turn::You);
    }
}
