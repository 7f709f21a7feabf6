//! The review as JSON, for tools: `dvonn review --json`.
//!
//! One object: how the review was run (`limits`: `time` in seconds and
//! `depth`, null when not set, `threads`; `thresholds` in pieces), the
//! game's length, `plies` (one object per ply, in order) and `summary`
//! (`white` and `black`). Each ply has `ply` (from 0), `number` (the
//! record's move number), `side` and `phase` (lower case), `move`,
//! `eval_before` and `eval_after` (White's margin in pieces) with
//! `eval_before_exact` and `eval_after_exact` (whether proven), `best`
//! (the engine's better move, or null), `loss` (pieces), `mark`
//! (`inaccuracy`, `mistake`, `blunder` or null), `forced` (the only legal
//! move) and `depth` (the search's depth, 0 when not searched).

use anyhow::{Context, Result};
use dvonn_ai::review::{GameReview, PlayerSummary, PlyReview};
use dvonn_core::{Color, Phase};
use serde::Serialize;

use super::report::Setting;

#[derive(Serialize)]
struct Document {
    limits: Limits,
    thresholds: Thresholds,
    game_length: usize,
    plies: Vec<Ply>,
    summary: Summary,
}

#[derive(Serialize)]
struct Limits {
    time: Option<f64>,
    depth: Option<u32>,
    threads: usize,
}

#[derive(Serialize)]
struct Thresholds {
    inaccuracy: f64,
    mistake: f64,
    blunder: f64,
}

#[derive(Serialize)]
struct Ply {
    ply: usize,
    number: usize,
    side: &'static str,
    phase: &'static str,
    #[serde(rename = "move")]
    mv: String,
    eval_before: f64,
    eval_before_exact: bool,
    eval_after: f64,
    eval_after_exact: bool,
    best: Option<String>,
    loss: f64,
    mark: Option<&'static str>,
    forced: bool,
    depth: u32,
}

#[derive(Serialize)]
struct Summary {
    white: Player,
    black: Player,
}

#[derive(Serialize)]
struct Player {
    moves: usize,
    average_loss: f64,
    total_loss: f64,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl From<&PlyReview> for Ply {
    fn from(ply: &PlyReview) -> Ply {
        Ply {
            ply: ply.ply,
            number: ply.ply / 2 + 1,
            side: side(ply.side),
            phase: match ply.phase {
                Phase::Placement => "placement",
                Phase::Movement => "movement",
            },
            mv: ply.mv.to_string(),
            eval_before: ply.eval_before.white.pieces(),
            eval_before_exact: ply.eval_before.exact,
            eval_after: ply.eval_after.white.pieces(),
            eval_after_exact: ply.eval_after.exact,
            best: ply.best.map(|best| best.to_string()),
            loss: ply.loss.pieces(),
            mark: ply.mark.map(|mark| mark.name()),
            forced: ply.forced,
            depth: ply.depth,
        }
    }
}

impl From<PlayerSummary> for Player {
    fn from(summary: PlayerSummary) -> Player {
        Player {
            moves: summary.moves,
            average_loss: summary.average_loss.pieces(),
            total_loss: summary.total_loss.pieces(),
            inaccuracies: summary.inaccuracies,
            mistakes: summary.mistakes,
            blunders: summary.blunders,
        }
    }
}

/// The JSON document of `review`, pretty-printed, with a final line break.
pub fn document(review: &GameReview, setting: &Setting) -> Result<String> {
    let document = Document {
        limits: Limits {
            time: setting.limits.move_time.map(|time| time.as_secs_f64()),
            depth: setting.limits.depth,
            threads: setting.threads,
        },
        thresholds: Thresholds {
            inaccuracy: setting.thresholds.inaccuracy.pieces(),
            mistake: setting.thresholds.mistake.pieces(),
            blunder: setting.thresholds.blunder.pieces(),
        },
        game_length: review.game_length,
        plies: review.plies.iter().map(Ply::from).collect(),
        summary: Summary { white: review.summary(Color::White).into(), black: review.summary(Color::Black).into() },
    };
    let mut text = serde_json::to_string_pretty(&document).context("cannot write the review as JSON")?;
    text.push('\n');
    Ok(text)
}
