//! The review in words: the heading, the table of plies and the summary
//! that `dvonn review` prints, and the comments of the game record it
//! writes with `-o`.
//!
//! The table has one line per ply:
//!
//! ```text
//!  ply  no.  side   move   before    after  best     loss  mark
//!   61  31.  Black  C3E3    +1.20      =+5  D4D5     3.80  mistake
//! ```
//!
//! `ply` counts from 0, `no.` is the move number of the game record, the
//! evaluations are White's margin in pieces (`=+5`: proven), `best` and
//! `loss` are shown when the engine's move was better, and `mark` is the
//! move's mark, or `only move` for a move without alternative.

use std::path::Path;

use dvonn_ai::Limits;
use dvonn_ai::review::{GameReview, PlayerSummary, PlyReview, Thresholds};
use dvonn_core::{Color, Game};
use dvonn_notation::GameRecord;

/// How the review was run, as the report tells it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Setting {
    /// The search of each position.
    pub limits: Limits,
    /// The search threads.
    pub threads: usize,
    /// The marks' thresholds.
    pub thresholds: Thresholds,
}

impl Setting {
    /// `0.5 s per position`, `depth 8 per position`, `depth 8 or 2 s per
    /// position`, with the threads.
    fn budget(&self) -> String {
        let depth = self.limits.depth.map(|depth| format!("depth {depth}"));
        let time = self.limits.move_time.map(|time| format!("{} s", time.as_secs_f64()));
        let limits: Vec<String> = [depth, time].into_iter().flatten().collect();
        let threads = plural(self.threads, "thread", "threads");
        format!("{} per position, {threads}", limits.join(" or "))
    }
}

/// `1 blunder`, `2 blunders`.
fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The lines before the table: what was reviewed, how, and how to read it.
pub(super) fn heading(game: &Path, plies: usize, setting: &Setting) -> String {
    let thresholds = &setting.thresholds;
    format!(
        "Review of {}: {}, {}.\n\
         Evaluations: White's margin in pieces before and after each move (=N: proven, the exact final margin).\n\
         Loss: the pieces of margin a move gave away against the engine's move, from its player's side;\n\
         inaccuracy from {}, mistake from {}, blunder from {} pieces, or a proven win or draw thrown away.\n",
        game.display(),
        plural(plies, "ply", "plies"),
        setting.budget(),
        thresholds.inaccuracy,
        thresholds.mistake,
        thresholds.blunder
    )
}

/// The table of the reviewed plies, with its header line.
pub(super) fn table(review: &GameReview) -> String {
    let mut lines = vec![format!(
        "{:>4} {:>4}  {:<5}  {:<5} {:>7} {:>8}  {:<5} {:>7}  mark",
        "ply", "no.", "side", "move", "before", "after", "best", "loss"
    )];
    for ply in &review.plies {
        let best = ply.best.map(|best| best.to_string()).unwrap_or_default();
        let loss = if ply.best.is_some() { ply.loss.to_string() } else { String::new() };
        let mark = match (ply.mark, ply.forced) {
            (Some(mark), _) => mark.name(),
            (None, true) => "only move",
            (None, false) => "",
        };
        let line = format!(
            "{:>4} {:>4}  {:<5}  {:<5} {:>7} {:>8}  {:<5} {:>7}  {mark}",
            ply.ply,
            format!("{}.", ply.ply / 2 + 1),
            ply.side.to_string(),
            ply.mv.to_string(),
            ply.eval_before.to_string(),
            ply.eval_after.to_string(),
            best,
            loss
        );
        lines.push(line.trim_end().to_string());
    }
    lines.join("\n")
}

/// `White (Ann): 37 moves, average loss 0.42, 3 inaccuracies, 1 mistake, 0 blunders`.
fn player_line(side: Color, record: &GameRecord, summary: &PlayerSummary) -> String {
    let name = record.tag(&side.to_string()).map(|name| format!(" ({name})")).unwrap_or_default();
    format!(
        "{side}{name}: {}, average loss {}, {}, {}, {}",
        plural(summary.moves, "move", "moves"),
        summary.average_loss,
        plural(summary.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(summary.mistakes, "mistake", "mistakes"),
        plural(summary.blunders, "blunder", "blunders")
    )
}

/// The summary: one line per player (the moves judged are those with a
/// choice).
pub(super) fn summary(review: &GameReview, record: &GameRecord) -> String {
    let lines: Vec<String> =
        [Color::White, Color::Black].map(|side| player_line(side, record, &review.summary(side))).into();
    format!("\n{}", lines.join("\n"))
}

/// The comment after a ply: the evaluation after it and, for a marked
/// move, the mark, the loss and the engine's move (`eval -1.30, mistake:
/// loss 3.20, best D4D5`).
fn ply_comment(ply: &PlyReview) -> String {
    let mut comment = format!("eval {}", ply.eval_after);
    if let Some(mark) = ply.mark {
        comment.push_str(&format!(", {mark}: loss {}", ply.loss));
        if let Some(best) = ply.best {
            comment.push_str(&format!(", best {best}"));
        }
    }
    comment
}

/// The game of `record` (its moves replayed as `game`, the forced
/// placement filled in) with the review: an `Annotator` tag, a comment
/// before the first move (how it was reviewed, the evaluation of the start,
/// the summary) and one after every move ([`ply_comment`]), after the
/// comments the game already has.
pub(super) fn annotated(record: &GameRecord, game: &Game, review: &GameReview, setting: &Setting) -> GameRecord {
    let mut annotated = record.clone();
    annotated.fill_forced_placement();
    annotated.moves = game.moves().collect();
    let version = env!("CARGO_PKG_VERSION");
    annotated.set_tag("Annotator", &format!("dvonn review {version}, {}", setting.budget()));
    let start = review.plies.first().map(|ply| format!(" Start: {}.", ply.eval_before)).unwrap_or_default();
    let players = [Color::White, Color::Black].map(|side| player_line(side, record, &review.summary(side)));
    let header = format!(
        "Review by dvonn {version}, {}. After each move: White's margin in pieces (=N: proven, the exact \
         final margin) and, for a marked move, the loss against the engine's move.{start} {}. {}.",
        setting.budget(),
        players[0],
        players[1]
    );
    annotated.add_comment(0, &header);
    for ply in &review.plies {
        annotated.add_comment(ply.ply + 1, &ply_comment(ply));
    }
    annotated
}
