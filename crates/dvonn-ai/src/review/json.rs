//! The review as JSON, for tools and web pages (the `serde` feature): the
//! one form `dvonn review --json` writes and `dvonn serve` sends.
//!
//! - A [`PlyReview`] is an object with `ply` (from 0), `number` (the game
//!   record's move number), `side` and `phase` (lower case), `move`,
//!   `eval_before` and `eval_after` (White's margin in pieces) with
//!   `eval_before_exact` and `eval_after_exact` (whether proven), `best`
//!   (the engine's better move, or null), `engine_move` (the engine's
//!   choice, or null), `loss` (pieces), `mark` (`inaccuracy`, `mistake`,
//!   `blunder` or null), `forced` (the only legal move) and `depth` (the
//!   search's depth, 0 when not searched).
//! - A [`PlayerSummary`] has `moves`, `average_loss` and `total_loss`
//!   (pieces), `inaccuracies`, `mistakes` and `blunders`.
//! - A [`GameReview`] has `game_length`, `movement_from` (the first ply of
//!   the movement phase, or null), `complete`, `plies` (in the order of the
//!   game) and `summary` (`white` and `black`).

use dvonn_core::{Color, Phase};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{GameReview, PlayerSummary, PlyReview};

/// `white` or `black`.
const fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Serialize for PlyReview {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut ply = serializer.serialize_struct("PlyReview", 15)?;
        ply.serialize_field("ply", &self.ply)?;
        ply.serialize_field("number", &(self.ply / 2 + 1))?;
        ply.serialize_field("side", side_name(self.side))?;
        let phase = match self.phase {
            Phase::Placement => "placement",
            Phase::Movement => "movement",
        };
        ply.serialize_field("phase", phase)?;
        ply.serialize_field("move", &self.mv.to_string())?;
        ply.serialize_field("eval_before", &self.eval_before.white.pieces())?;
        ply.serialize_field("eval_before_exact", &self.eval_before.exact)?;
        ply.serialize_field("eval_after", &self.eval_after.white.pieces())?;
        ply.serialize_field("eval_after_exact", &self.eval_after.exact)?;
        ply.serialize_field("best", &self.best.map(|best| best.to_string()))?;
        ply.serialize_field("engine_move", &self.engine_move.map(|choice| choice.to_string()))?;
        ply.serialize_field("loss", &self.loss.pieces())?;
        ply.serialize_field("mark", &self.mark.map(|mark| mark.name()))?;
        ply.serialize_field("forced", &self.forced)?;
        ply.serialize_field("depth", &self.depth)?;
        ply.end()
    }
}

impl Serialize for PlayerSummary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut summary = serializer.serialize_struct("PlayerSummary", 6)?;
        summary.serialize_field("moves", &self.moves)?;
        summary.serialize_field("average_loss", &self.average_loss.pieces())?;
        summary.serialize_field("total_loss", &self.total_loss.pieces())?;
        summary.serialize_field("inaccuracies", &self.inaccuracies)?;
        summary.serialize_field("mistakes", &self.mistakes)?;
        summary.serialize_field("blunders", &self.blunders)?;
        summary.end()
    }
}

/// The summaries of both players, `white` then `black`.
struct Summaries<'a>(&'a GameReview);

impl Serialize for Summaries<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut summaries = serializer.serialize_struct("Summaries", 2)?;
        summaries.serialize_field("white", &self.0.summary(Color::White))?;
        summaries.serialize_field("black", &self.0.summary(Color::Black))?;
        summaries.end()
    }
}

impl Serialize for GameReview {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut review = serializer.serialize_struct("GameReview", 5)?;
        review.serialize_field("game_length", &self.game_length)?;
        review.serialize_field("movement_from", &self.movement_from)?;
        review.serialize_field("complete", &self.complete)?;
        review.serialize_field("plies", &self.plies)?;
        review.serialize_field("summary", &Summaries(self))?;
        review.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::review::{Evaluation, Mark};
    use crate::score::Score;

    #[test]
    fn a_ply_and_a_review_as_json() {
        let mv = "C3C4".parse().expect("a move");
        let better = "C3D4".parse().expect("a move");
        let ply = PlyReview {
            ply: 50,
            side: Color::Black,
            phase: Phase::Movement,
            mv,
            eval_before: Evaluation { white: Score::from_pieces(-6), exact: true },
            eval_after: Evaluation { white: Score::from_centipieces(325), exact: false },
            best: Some(better),
            engine_move: Some(better),
            loss: Score::from_centipieces(925),
            mark: Some(Mark::Blunder),
            forced: false,
            depth: 12,
        };
        let review = GameReview { plies: vec![ply], game_length: 51, movement_from: Some(49), complete: false };
        let value = serde_json::to_value(&review).expect("JSON");
        let expected = json!({
            "game_length": 51,
            "movement_from": 49,
            "complete": false,
            "plies": [{
                "ply": 50, "number": 26, "side": "black", "phase": "movement", "move": "C3C4",
                "eval_before": -6.0, "eval_before_exact": true, "eval_after": 3.25, "eval_after_exact": false,
                "best": "C3D4", "engine_move": "C3D4", "loss": 9.25, "mark": "blunder", "forced": false, "depth": 12
            }],
            "summary": {
                "white": { "moves": 0, "average_loss": 0.0, "total_loss": 0.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0 },
                "black": { "moves": 1, "average_loss": 9.25, "total_loss": 9.25, "inaccuracies": 0, "mistakes": 0, "blunders": 1 }
            }
        });
        assert_eq!(value, expected);
        let quiet = PlyReview { best: None, engine_move: None, mark: None, ..ply };
        let value = serde_json::to_value(quiet).expect("JSON");
        assert_eq!((&value["best"], &value["engine_move"], &value["mark"]), (&Value::Null, &Value::Null, &Value::Null));
    }
}
