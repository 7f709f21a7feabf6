//! The evaluation graph of a reviewed game, as an SVG picture.
//!
//! The plies run from left to right and White's margin from bottom to top,
//! in pieces: the area between the curve and the zero line is white where
//! White is ahead and dark where Black is. The vertical scale is
//! compressed, logarithmic away from zero (with labels at 1, 2, 5, 10, 20
//! and 50 pieces, those the scale reaches): the few pieces that decide a close game stay as
//! readable as the tens of a lopsided one. The placement and movement
//! phases have backgrounds of their own, each named at its top. Marked
//! moves are dots on the curve, at the evaluation after the move, in the
//! colour of their mark; proven evaluations are small squares.
//!
//! Elements carry classes and data for tools, tests and the web page:
//! `phase placement` and `phase movement` (the backgrounds), `axis`,
//! `tick` (axis labels), `zero` (the zero line), `advantage white` and
//! `advantage black` (the areas), `curve` (the line), `proven` (squares),
//! `mark inaccuracy`, `mark mistake`, `mark blunder` (dots), and `ply`
//! (one transparent band per reviewed ply, with a tooltip); dots and
//! bands have `data-ply`, the ply they stand for.

use std::fmt::Write as _;

use super::{Evaluation, GameReview, Mark};

/// The picture's width and height, in pixels.
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 320.0;
/// The plot's margins: room for the title, the axes and their labels.
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 42.0;

/// The colour of the curve and of the proven points.
const CURVE: &str = "#6a3d9a";

/// The colour of each mark's dots: yellow, orange, red, as game sites'
/// reviews have them.
const fn mark_colour(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#e0b000",
        Mark::Mistake => "#e66b00",
        Mark::Blunder => "#d01c1c",
    }
}

/// The SVG picture of `review`'s evaluations over the game, as a complete
/// document. The vertical axis reaches the largest margin of the game,
/// rounded up to a label (at least 2 pieces); a stopped review draws the
/// plies it finished, over the whole game's width.
///
/// ```
/// use dvonn_ai::review::{ReviewOptions, graph::evaluation_graph, review};
/// use dvonn_ai::{Engine, EngineConfig, Limits, StopHandle};
/// use dvonn_core::{Author, Game, Position};
///
/// // White throws a proven win away with C3C4.
/// let start: Position = "W4.DD...../.W2B2W5B...../DB2W......../........../......... w m".parse().unwrap();
/// let mut game = Game::new(start);
/// game.play("C3C4".parse().unwrap(), Author::Record).unwrap();
/// let mut engine = Engine::new(EngineConfig::default().with_hash_mb(4)).unwrap();
/// let options = ReviewOptions::new(Limits::depth(20));
/// let reviewed = review(&mut engine, &game, &options, &StopHandle::default(), &mut ());
/// let svg = evaluation_graph(&reviewed);
/// assert!(svg.starts_with("<svg") && svg.contains(r#"class="mark blunder" data-ply="0""#));
/// ```
pub fn evaluation_graph(review: &GameReview) -> String {
    let plot = Plot::new(review);
    let mut svg = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"evaluation-graph\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(svg, "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>");
    plot.phases(&mut svg, review);
    plot.grid(&mut svg);
    plot.curve(&mut svg, review);
    // The marks over the bands: each keeps its tooltip and its click.
    plot.bands(&mut svg, review);
    plot.marks(&mut svg, review);
    plot.legend(&mut svg);
    svg.push_str("</svg>\n");
    svg
}

/// The margins labelled on the vertical axis, in pieces (and their
/// opposites, and 0).
const LABELS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0];

/// The margin, in pieces, below which the vertical scale is close to
/// linear.
const LINEAR_BELOW: f64 = 2.0;

/// The height of a margin of `pieces` on the compressed scale: linear near
/// zero, logarithmic away from it, odd.
fn compressed(pieces: f64) -> f64 {
    pieces.signum() * (pieces.abs() / LINEAR_BELOW).ln_1p()
}

/// The scales of a graph.
struct Plot {
    /// Plies on the horizontal axis (at least 1).
    plies: f64,
    /// The margin at the top of the vertical axis, in pieces (the bottom is
    /// its opposite): a label.
    top: f64,
}

impl Plot {
    fn new(review: &GameReview) -> Plot {
        let largest = review
            .plies
            .iter()
            .flat_map(|ply| [ply.eval_before, ply.eval_after])
            .map(|eval| eval.white.pieces().abs())
            .fold(0.0, f64::max);
        let top = LABELS.into_iter().skip(1).find(|&label| largest <= label).unwrap_or(50.0);
        Plot { plies: review.game_length.max(1) as f64, top }
    }

    fn x(&self, ply: usize) -> f64 {
        LEFT + (WIDTH - LEFT - RIGHT) * ply as f64 / self.plies
    }

    fn y(&self, pieces: f64) -> f64 {
        let height = compressed(pieces.clamp(-self.top, self.top)) / compressed(self.top);
        TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - height) / 2.0
    }

    fn y_of(&self, eval: Evaluation) -> f64 {
        self.y(eval.white.pieces())
    }

    /// The backgrounds of the placement and movement phases, named.
    fn phases(&self, svg: &mut String, review: &GameReview) {
        let (top, bottom) = (TOP, HEIGHT - BOTTOM);
        let split = review.movement_from.unwrap_or(review.game_length);
        let phases = [("placement", 0, split, "#f4efe4"), ("movement", split, review.game_length, "#e6edf5")];
        for (name, from, to, fill) in phases.into_iter().filter(|(_, from, to, _)| to > from) {
            let (x0, x1) = (self.x(from), self.x(to));
            let _ = writeln!(
                svg,
                "<rect class=\"phase {name}\" x=\"{x0:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"/>",
                x1 - x0,
                bottom - top
            );
            let _ = writeln!(
                svg,
                "<text class=\"phase-name\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#666666\">{name}</text>",
                (x0 + x1) / 2.0,
                top + 13.0
            );
        }
    }

    /// The axes, their labels and the horizontal lines.
    fn grid(&self, svg: &mut String) {
        let (left, right, bottom) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM);
        // 1 crowds 0 and 2 once the scale reaches tens of pieces.
        let labels = LABELS.into_iter().filter(|&label| label <= self.top && (label > 1.0 || self.top <= 10.0));
        for pieces in labels.flat_map(|label| [label, -label]).chain([0.0]) {
            let y = self.y(pieces);
            let label = if pieces > 0.0 { format!("+{pieces}") } else { format!("{pieces}") };
            if pieces != 0.0 {
                let _ = writeln!(
                    svg,
                    "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{right}\" y2=\"{y:.1}\" stroke=\"#000000\" stroke-opacity=\"0.1\"/>"
                );
            }
            let _ = writeln!(
                svg,
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
                left - 6.0,
                y + 4.0
            );
        }
        let zero = self.y(0.0);
        let _ = writeln!(
            svg,
            "<line class=\"zero\" x1=\"{left}\" y1=\"{zero:.1}\" x2=\"{right}\" y2=\"{zero:.1}\" stroke=\"#888888\"/>"
        );
        let ply_step = [5, 10, 20, 50, 100].into_iter().find(|step| self.plies / *step as f64 <= 12.0).unwrap_or(100);
        for ply in (0..=self.plies as usize).step_by(ply_step) {
            let x = self.x(ply);
            let _ = writeln!(
                svg,
                "<text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{ply}</text>",
                bottom + 14.0
            );
        }
        let _ = writeln!(
            svg,
            "<path class=\"axis\" d=\"M{left} {TOP} V{bottom} H{right}\" fill=\"none\" stroke=\"#444444\"/>"
        );
        let _ = writeln!(
            svg,
            "<text class=\"axis-title\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">ply</text>",
            (left + right) / 2.0,
            HEIGHT - 8.0
        );
        let _ = writeln!(
            svg,
            "<text class=\"title\" x=\"{left}\" y=\"18\" font-size=\"13\">Evaluation: White's margin in pieces \
             (above 0 White is ahead, below Black)</text>"
        );
    }

    /// The points of the curve: the evaluation before the first reviewed
    /// ply, then after each.
    fn points(&self, review: &GameReview) -> Vec<(f64, f64)> {
        let Some(first) = review.plies.first() else { return Vec::new() };
        std::iter::once((self.x(first.ply), self.y_of(first.eval_before)))
            .chain(review.plies.iter().map(|ply| (self.x(ply.ply + 1), self.y_of(ply.eval_after))))
            .collect()
    }

    /// The areas of advantage, the curve, and the proven points.
    fn curve(&self, svg: &mut String, review: &GameReview) {
        let points = self.points(review);
        let (Some(&(x0, _)), Some(&(x1, _))) = (points.first(), points.last()) else { return };
        let line: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let line = line.join(" ");
        let zero = self.y(0.0);
        let (top, bottom) = (TOP, HEIGHT - BOTTOM);
        let _ = writeln!(
            svg,
            "<clipPath id=\"white-ahead\"><rect x=\"0\" y=\"{top}\" width=\"{WIDTH}\" height=\"{:.1}\"/></clipPath>",
            zero - top
        );
        let _ = writeln!(
            svg,
            "<clipPath id=\"black-ahead\"><rect x=\"0\" y=\"{zero:.1}\" width=\"{WIDTH}\" height=\"{:.1}\"/></clipPath>",
            bottom - zero
        );
        let area = format!("{x0:.1},{zero:.1} {line} {x1:.1},{zero:.1}");
        let _ = writeln!(
            svg,
            "<polygon class=\"advantage white\" points=\"{area}\" fill=\"#ffffff\" fill-opacity=\"0.9\" clip-path=\"url(#white-ahead)\"/>"
        );
        let _ = writeln!(
            svg,
            "<polygon class=\"advantage black\" points=\"{area}\" fill=\"#3a3a3a\" fill-opacity=\"0.8\" clip-path=\"url(#black-ahead)\"/>"
        );
        let _ = writeln!(
            svg,
            "<polyline class=\"curve\" points=\"{line}\" fill=\"none\" stroke=\"{CURVE}\" stroke-width=\"1.8\" stroke-linejoin=\"round\"/>"
        );
        let evals = review.plies.first().map(|first| first.eval_before).into_iter();
        let evals = evals.chain(review.plies.iter().map(|ply| ply.eval_after));
        for ((x, y), eval) in points.iter().zip(evals).filter(|(_, eval)| eval.exact) {
            let _ = writeln!(
                svg,
                "<rect class=\"proven\" x=\"{:.1}\" y=\"{:.1}\" width=\"4\" height=\"4\" fill=\"{CURVE}\"><title>proven: {eval}</title></rect>",
                x - 2.0,
                y - 2.0
            );
        }
    }

    /// A dot on the curve for each marked move.
    fn marks(&self, svg: &mut String, review: &GameReview) {
        for ply in &review.plies {
            let Some(mark) = ply.mark else { continue };
            let best = ply.best.map(|best| format!(", best {best}")).unwrap_or_default();
            let _ = writeln!(
                svg,
                "<circle class=\"mark {mark}\" data-ply=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{}\" stroke=\"#ffffff\">\
                 <title>ply {} {} ({}): {mark}, loss {:.2}{best}</title></circle>",
                ply.ply,
                self.x(ply.ply + 1),
                self.y_of(ply.eval_after),
                mark_colour(mark),
                ply.ply,
                ply.mv,
                ply.side,
                ply.loss.pieces()
            );
        }
    }

    /// A transparent band over each reviewed ply, with its tooltip.
    fn bands(&self, svg: &mut String, review: &GameReview) {
        let (top, height) = (TOP, HEIGHT - TOP - BOTTOM);
        for ply in &review.plies {
            let (x0, x1) = (self.x(ply.ply), self.x(ply.ply + 1));
            let _ = writeln!(
                svg,
                "<rect class=\"ply\" data-ply=\"{}\" x=\"{x0:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{height}\" fill=\"transparent\">\
                 <title>ply {} {} ({}): {} after</title></rect>",
                ply.ply,
                x1 - x0,
                ply.ply,
                ply.mv,
                ply.side,
                ply.eval_after
            );
        }
    }

    /// The key to the marks' colours and the proven points, top right.
    fn legend(&self, svg: &mut String) {
        let mut x = WIDTH - RIGHT - 300.0;
        for &mark in Mark::ALL {
            let _ = writeln!(
                svg,
                "<circle cx=\"{x:.1}\" cy=\"14\" r=\"4.5\" fill=\"{}\"/><text x=\"{:.1}\" y=\"18\">{mark}</text>",
                mark_colour(mark),
                x + 8.0
            );
            x += 80.0;
        }
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"12\" width=\"4\" height=\"4\" fill=\"{CURVE}\"/><text x=\"{:.1}\" y=\"18\">proven</text>",
            x - 2.0,
            x + 8.0
        );
    }
}
