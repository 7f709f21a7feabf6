//! What the page draws of a game after any of its plies: the [`View`].

use dvonn_core::{Author, Color, Move, Outcome, Phase};
use dvonn_notation::diagram::status;
use dvonn_notation::svg::{LastMove, svg_with_best};
use dvonn_notation::{Format, write};
use serde::Serialize;

use crate::game::Turn;
use crate::sessions::{SearchKind, Session};

/// The formats a game is exported in.
pub(crate) const EXPORTS: [Format; 2] = [Format::Record, Format::LittleGolem];

/// `white` or `black`.
pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Who chose a move, as the page says it: `you` (also a move that was
/// yours alone), `engine`, or `record` (an imported game's).
fn author_name(author: Author) -> &'static str {
    match author {
        Author::Person | Author::Forced => "you",
        Author::Program => "engine",
        _ => "record",
    }
}

/// A game as the page sees it after one of its plies.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct View {
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
    /// led to it and the stacks that move removed, and the engine's choice
    /// from the game's review as a blue arrow (class `best`).
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
    /// Whether the game's moves have a review (`GET /api/games/{id}/review`).
    pub reviewed: bool,
    /// The engine's choice in the position shown, from the game's review.
    pub engine_move: Option<String>,
    /// The formats the game can be exported in (`record`, `lg`: a Little
    /// Golem transcript starts from the empty board).
    pub exports: Vec<&'static str>,
}

/// A move in the move list.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MoveView {
    /// The move (`E3`, `C3E3`, `PASS`).
    #[serde(rename = "move")]
    pub text: String,
    /// Who chose it: `you`, `engine` or `record`.
    pub by: &'static str,
    /// The cells whose stacks it cut off.
    pub removed: Vec<String>,
}

/// The pieces each player owns.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Score {
    /// White's pieces.
    pub white: u32,
    /// Black's pieces.
    pub black: u32,
}

impl Session {
    /// What the page shows after `ply` plies (a checked ply) of the game
    /// `id`.
    pub(crate) fn view(&self, id: &str, ply: usize) -> View {
        let game = &self.game;
        let position = &game.positions()[ply];
        let last_move = ply
            .checked_sub(1)
            .map(|i| LastMove::new(&game.positions()[i], game.plies()[i].mv, game.plies()[i].removed));
        let moves = game
            .plies()
            .iter()
            .map(|played| MoveView {
                text: played.mv.to_string(),
                by: author_name(played.author),
                removed: played.removed.iter().map(|cell| cell.to_string()).collect(),
            })
            .collect();
        let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
        // A resignation ends the game after its last ply only.
        let outcome = if ply == game.len() { game.outcome() } else { position.outcome() };
        let record = self.record();
        let engine_move = self.review.as_ref().and_then(|kept| kept.engine_move(ply));
        View {
            id: id.to_string(),
            you: match &self.opponent {
                Some(opponent) => color_name(!opponent.color),
                None => "both",
            },
            engine: self.opponent.as_ref().map(|opponent| opponent.name.clone()),
            tags: self.tags.clone(),
            start: game.start().to_string(),
            moves,
            plies: game.len(),
            ply,
            position: position.to_string(),
            svg: svg_with_best(position, last_move.as_ref(), engine_move, &[status(position)]),
            side: color_name(position.side_to_move()),
            phase: match position.phase() {
                Phase::Placement => "placement",
                Phase::Movement => "movement",
            },
            turn: self.turn(ply),
            legal: position.legal_moves().iter().map(Move::to_string).collect(),
            score: Score { white, black },
            result: match (outcome, outcome.winner()) {
                (Outcome::Score { .. }, Some(color)) => {
                    let margin = white.abs_diff(black);
                    let pieces = if margin == 1 { "piece" } else { "pieces" };
                    Some(format!("{color} wins by {margin} {pieces} ({white}-{black})"))
                }
                (Outcome::Score { .. }, None) => Some(format!("a draw ({white}-{black})")),
                (Outcome::Resigned(color), _) => Some(format!("{color} resigned")),
                (Outcome::Unfinished, _) => None,
            },
            searching: self.searching(),
            reviewed: self.review.is_some(),
            engine_move: engine_move.map(|mv| mv.to_string()),
            exports: EXPORTS
                .into_iter()
                .filter(|format| write(&record, *format).is_ok())
                .map(Format::short_name)
                .collect(),
        }
    }
}
