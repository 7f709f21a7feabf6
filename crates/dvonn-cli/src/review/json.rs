//! The review as JSON, for tools: `dvonn review --json`.
//!
//! One object: how the review was run (`limits`: `time` in seconds and
//! `depth`, null when not set, `threads`; `thresholds` in pieces), then
//! the review in the form of `dvonn_ai::review::json`: `game_length`,
//! `movement_from`, `complete`, `plies` (one object per ply, in order,
//! with `ply`, `move`, `eval_before`, `eval_after`, `best`, `loss`,
//! `mark` and more) and `summary` (`white` and `black`).

use anyhow::{Context, Result};
use dvonn_ai::review::GameReview;
use serde::Serialize;

use super::report::Setting;

#[derive(Serialize)]
struct Document<'a> {
    limits: Limits,
    thresholds: Thresholds,
    #[serde(flatten)]
    review: &'a GameReview,
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

/// The JSON document of `review`, pretty-printed, with a final line break.
pub(super) fn document(review: &GameReview, setting: &Setting) -> Result<String> {
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
        review,
    };
    let mut text = serde_json::to_string_pretty(&document).context("cannot write the review as JSON")?;
    text.push('\n');
    Ok(text)
}
