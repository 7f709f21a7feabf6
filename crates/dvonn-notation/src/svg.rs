//! The board as an SVG picture, for pages and files: [`svg`].
//!
//! The SVG is written by hand: pointy-topped hexagonal cells laid out as in
//! [RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#cells-and-directions)
//! (row 5 on top), each with its name; a stack is a disc in the
//! colour of its top piece with its height written on it (heights of 2 or
//! more), a lone DVONN piece a red disc, and a stack holding a DVONN piece
//! has a red ring. Given the move that led to the position ([`LastMove`]),
//! the picture draws it as an arrow from its source to its destination (a
//! placement: a dashed ring), tints the two cells, and draws the stacks it
//! removed ghosted on their now empty cells. [`svg_with_best`] also draws
//! a move suggested for the side to move (the engine's) as a blue arrow or
//! ring. Caption lines go under the board.
//!
//! Elements carry classes for tools and tests: `cell` (the 49 polygons),
//! `stack` (live discs), `dvonn-ring`, `height` (height labels), `coord`,
//! `arrow` / `placed` (the last move), `best` (the suggested move, with
//! `data-move`), `ghost` and `ghost-height` (removed stacks, inside a
//! `<g class="removed">`), `caption`.
//!
//! ```
//! use dvonn_core::Position;
//! use dvonn_notation::diagram::status;
//! use dvonn_notation::svg::{LastMove, svg};
//!
//! let before: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
//! let mut after = before;
//! let mv = "B3C3".parse().unwrap();
//! let removed = after.play(mv).unwrap();
//! let picture = svg(&after, Some(&LastMove::new(&before, mv, removed)), &[status(&after)]);
//! assert!(picture.starts_with("<svg ") && picture.contains(r#"class="arrow""#));
//! ```

use std::fmt::Write as _;

use dvonn_core::{Bitboard, Cell, Color, Move, Position, Stack};

/// The move that led to a drawn position, and what it removed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LastMove {
    /// The move.
    pub mv: Move,
    /// The stacks it cut off, on their cells, as they were when removed.
    pub removed: Vec<(Cell, Stack)>,
}

impl LastMove {
    /// The last move `mv` played in `before`, which removed the stacks on
    /// `removed` (what [`Position::play`] returns). A removed destination
    /// is the moved stack on top of the stack it landed on.
    pub fn new(before: &Position, mv: Move, removed: Bitboard) -> LastMove {
        let landed = match mv {
            Move::Jump { from, to } => before.stack_at(from).zip(before.stack_at(to)).map(|(a, b)| (to, a.onto(b))),
            _ => None,
        };
        let removed = removed
            .iter()
            .filter_map(|cell| match landed {
                Some((to, stack)) if to == cell => Some((cell, stack)),
                _ => before.stack_at(cell).map(|stack| (cell, stack)),
            })
            .collect();
        LastMove { mv, removed }
    }

    /// The removed cells.
    pub fn removed_cells(&self) -> Bitboard {
        self.removed.iter().map(|(cell, _)| *cell).collect()
    }
}

/// Circumradius of a cell.
const R: f64 = 34.0;
/// Margin around the board.
const MARGIN: f64 = 24.0;
/// Radius of a stack disc.
const DISC: f64 = 18.0;
/// Height of a caption line.
const LINE: f64 = 22.0;

/// The centre of `cell` in the picture.
fn centre(cell: Cell) -> (f64, f64) {
    let half = R * 3f64.sqrt() / 2.0;
    let h = f64::from(2 * cell.x() - cell.y());
    (MARGIN + half + (h + 2.0) * half, MARGIN + R + f64::from(4 - cell.y()) * 1.5 * R)
}

/// The colour of the last move's arrow.
const LAST_MOVE_COLOUR: &str = "#e8731a";
/// The colour of the suggested move's arrow.
const BEST_COLOUR: &str = "#1f6fd1";

/// The position as an SVG picture: cells, stacks, `last_move` (arrow and
/// ghosted removals) and the `caption` lines under the board.
pub fn svg(position: &Position, last_move: Option<&LastMove>, caption: &[String]) -> String {
    svg_with_best(position, last_move, None, caption)
}

/// [`svg`] with `best`, a move for the side to move (the engine's choice),
/// drawn over the board: a blue arrow from its stack to its target, or a
/// blue dashed ring on the cell of a placement (class `best`, `data-move`
/// the move). A pass is not drawn.
///
/// ```
/// use dvonn_core::Position;
/// use dvonn_notation::svg::svg_with_best;
///
/// let position: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
/// let picture = svg_with_best(&position, None, Some("B3C3".parse().unwrap()), &[]);
/// assert!(picture.contains(r#"class="best" data-move="B3C3""#));
/// ```
pub fn svg_with_best(
    position: &Position,
    last_move: Option<&LastMove>,
    best: Option<Move>,
    caption: &[String],
) -> String {
    let half = R * 3f64.sqrt() / 2.0;
    let width = 2.0 * MARGIN + 22.0 * half;
    let board_bottom = MARGIN + 2.0 * R + 6.0 * R;
    let height = board_bottom + 12.0 + LINE * caption.len() as f64 + MARGIN / 2.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(out, "<title>DVONN {}</title>", escape(&position.to_string()));
    out.push_str("<defs>");
    for (id, colour) in [("arrowhead", LAST_MOVE_COLOUR), ("best-arrowhead", BEST_COLOUR)] {
        let _ = write!(
            out,
            r#"<marker id="{id}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
        );
    }
    out.push_str("</defs>\n");
    let _ = writeln!(out, r##"<rect class="background" width="100%" height="100%" fill="#fdfaf2"/>"##);
    let (from, to) = match last_move.map(|last| last.mv) {
        Some(Move::Jump { from, to }) => (Some(from), Some(to)),
        Some(Move::Place(cell)) => (None, Some(cell)),
        _ => (None, None),
    };
    for cell in Cell::ALL {
        let (cx, cy) = centre(cell);
        let points: Vec<String> = (0..6)
            .map(|k| {
                let angle = (60.0 * f64::from(k) - 90.0).to_radians();
                format!("{:.1},{:.1}", cx + R * angle.cos(), cy + R * angle.sin())
            })
            .collect();
        let fill = if Some(cell) == from || Some(cell) == to { "#f7d58b" } else { "#ecdcb5" };
        let _ = writeln!(
            out,
            r##"<polygon class="cell" data-cell="{cell}" points="{}" fill="{fill}" stroke="#a38b5c" stroke-width="1.5"/>"##,
            points.join(" ")
        );
        let _ = writeln!(
            out,
            r##"<text class="coord" x="{cx:.1}" y="{:.1}" font-size="9" fill="#8c7750" text-anchor="middle">{cell}</text>"##,
            cy - 21.0
        );
    }
    if let Some(last) = last_move.filter(|last| !last.removed.is_empty()) {
        out.push_str("<g class=\"removed\" opacity=\"0.45\">\n");
        for &(cell, stack) in &last.removed {
            draw_disc(&mut out, cell, stack, true);
            draw_height(&mut out, cell, stack, true);
        }
        out.push_str("</g>\n");
    }
    let stacks: Vec<(Cell, Stack)> =
        position.occupied().iter().filter_map(|cell| position.stack_at(cell).map(|stack| (cell, stack))).collect();
    for &(cell, stack) in &stacks {
        draw_disc(&mut out, cell, stack, false);
    }
    if let Some(last) = last_move {
        draw_move(&mut out, last.mv, &MoveStyle::LAST);
    }
    if let Some(best) = best {
        draw_move(&mut out, best, &MoveStyle::BEST);
    }
    // The heights go over the arrow, so that it never hides one.
    for &(cell, stack) in &stacks {
        draw_height(&mut out, cell, stack, false);
    }
    for (i, line) in caption.iter().enumerate() {
        let size = if i == 0 { 16 } else { 13 };
        let _ = writeln!(
            out,
            r##"<text class="caption" x="{:.1}" y="{:.1}" font-size="{size}" fill="#333" text-anchor="middle">{}</text>"##,
            width / 2.0,
            board_bottom + 12.0 + LINE * (i as f64 + 0.6),
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// How a move is drawn over the board.
struct MoveStyle {
    /// The class of a jump's arrow.
    arrow_class: &'static str,
    /// The class of a placement's ring.
    ring_class: &'static str,
    colour: &'static str,
    /// The id of the arrowhead marker.
    marker: &'static str,
}

impl MoveStyle {
    /// The move that led to the position.
    const LAST: MoveStyle =
        MoveStyle { arrow_class: "arrow", ring_class: "placed", colour: LAST_MOVE_COLOUR, marker: "arrowhead" };
    /// The move suggested for the side to move.
    const BEST: MoveStyle =
        MoveStyle { arrow_class: "best", ring_class: "best", colour: BEST_COLOUR, marker: "best-arrowhead" };
}

/// Draws `mv` in `style`: a jump as an arrow from its stack to its target
/// (stopping short of the target's disc), a placement as a dashed ring; a
/// pass is not drawn.
fn draw_move(out: &mut String, mv: Move, style: &MoveStyle) {
    let colour = style.colour;
    match mv {
        Move::Jump { from, to } => {
            let ((x1, y1), (x2, y2)) = (centre(from), centre(to));
            let length = (x2 - x1).hypot(y2 - y1).max(1.0);
            let back = DISC + 6.0;
            let (x2, y2) = (x2 - (x2 - x1) * back / length, y2 - (y2 - y1) * back / length);
            let _ = writeln!(
                out,
                r#"<line class="{}" data-move="{mv}" x1="{x1:.1}" y1="{:.1}" x2="{x2:.1}" y2="{:.1}" stroke="{colour}" stroke-width="5" stroke-linecap="round" opacity="0.9" marker-end="url(#{})"/>"#,
                style.arrow_class,
                y1 + 3.0,
                y2 + 3.0,
                style.marker
            );
        }
        Move::Place(cell) => {
            let (cx, cy) = centre(cell);
            let _ = writeln!(
                out,
                r#"<circle class="{}" data-move="{mv}" cx="{cx:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="3" stroke-dasharray="5 3"/>"#,
                style.ring_class,
                cy + 3.0,
                DISC + 7.0
            );
        }
        Move::Pass => {}
    }
}

/// The fill, outline and ink (for the height) of a disc topped by `owner`.
fn colours(owner: Option<Color>) -> (&'static str, &'static str, &'static str) {
    match owner {
        None => ("#d0202a", "#7d0c12", "#fff"),
        Some(Color::White) => ("#fbfbf7", "#4a4a4a", "#111"),
        Some(Color::Black) => ("#262626", "#000", "#f4f4f4"),
    }
}

/// Draws the disc of `stack` on `cell` (and its red ring when it holds a
/// DVONN piece under a coloured top): a live stack, or a removed one
/// (`ghost`).
fn draw_disc(out: &mut String, cell: Cell, stack: Stack, ghost: bool) {
    let (cx, cy) = centre(cell);
    let cy = cy + 3.0;
    let (fill, stroke, _) = colours(stack.owner());
    let class = if ghost { "ghost" } else { "stack" };
    let kind = match stack.owner() {
        None => "dvonn",
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
    };
    let outline = if ghost { r#"2" stroke-dasharray="4 3""# } else { r#"1.5""# };
    let _ = writeln!(
        out,
        r#"<circle class="{class} {kind}" data-cell="{cell}" cx="{cx:.1}" cy="{cy:.1}" r="{DISC:.1}" fill="{fill}" stroke="{stroke}" stroke-width="{outline}/>"#
    );
    if stack.has_dvonn() && stack.owner().is_some() {
        let _ = writeln!(
            out,
            r##"<circle class="dvonn-ring" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="#d0202a" stroke-width="3.5"/>"##,
            DISC + 3.5
        );
    }
}

/// Writes the height of `stack` on its disc, for heights of 2 or more.
fn draw_height(out: &mut String, cell: Cell, stack: Stack, ghost: bool) {
    if stack.height() < 2 {
        return;
    }
    let (cx, cy) = centre(cell);
    let (_, _, ink) = colours(stack.owner());
    let class = if ghost { "ghost-height" } else { "height" };
    let _ = writeln!(
        out,
        r#"<text class="{class}" x="{cx:.1}" y="{:.1}" font-size="15" font-weight="bold" fill="{ink}" text-anchor="middle">{}</text>"#,
        cy + 8.0,
        stack.height()
    );
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape(r#"<a & 'b' "c">"#), "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;");
        assert_eq!(escape("x\u{1}y"), "x\u{fffd}y");
    }

    #[test]
    fn a_removed_destination_is_the_stack_that_landed() {
        let before: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mv: Move = "B3C3".parse().unwrap();
        let mut after = before;
        let removed = after.play(mv).unwrap();
        let last = LastMove::new(&before, mv, removed);
        assert_eq!(last.removed, vec![("A3".parse().unwrap(), Stack::single(Color::Black))]);
        // The white piece jumps back onto A3 and the new stack is cut off:
        // the ghost is the combined stack.
        let mv: Move = "B3A3".parse().unwrap();
        let mut after = before;
        let removed = after.play(mv).unwrap();
        let last = LastMove::new(&before, mv, removed);
        let a3: Cell = "A3".parse().unwrap();
        assert_eq!(last.removed, vec![(a3, Stack::new(2, Some(Color::White), false).unwrap())]);
        assert_eq!(last.removed_cells(), Bitboard::from(a3));
    }

    #[test]
    fn the_picture_has_every_cell_and_stack() {
        let position: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m".parse().unwrap();
        let picture = svg(&position, None, &["a <caption>".to_string()]);
        assert_eq!(picture.matches(r#"class="cell""#).count(), 49);
        assert_eq!(picture.matches(r#"class="stack "#).count(), position.occupied().len() as usize);
        assert_eq!(picture.matches(r#"class="dvonn-ring""#).count(), 1);
        assert!(picture.contains("a &lt;caption&gt;"));
        assert!(!picture.contains("class=\"arrow\""));
    }

    #[test]
    fn the_last_move_and_the_best_move_are_drawn_apart() {
        let before: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mv: Move = "B3C3".parse().unwrap();
        let mut after = before;
        let removed = after.play(mv).unwrap();
        let last = LastMove::new(&before, mv, removed);
        let picture = svg_with_best(&after, Some(&last), Some("C3B3".parse().unwrap()), &[]);
        assert_eq!(picture.matches(r#"<line class="arrow" data-move="B3C3""#).count(), 1);
        assert_eq!(picture.matches(r#"<line class="best" data-move="C3B3""#).count(), 1);
        assert!(picture.contains(r#"marker-end="url(#best-arrowhead)""#) && picture.contains(r#"id="best-arrowhead""#));
        let placement = svg_with_best(&Position::new(), None, Some("E3".parse().unwrap()), &[]);
        assert!(placement.contains(r#"<circle class="best" data-move="E3""#));
        assert!(!placement.contains("class=\"placed\""));
        assert!(!svg_with_best(&after, None, Some(Move::Pass), &[]).contains("class=\"best\""));
        assert_eq!(svg(&after, Some(&last), &[]), svg_with_best(&after, Some(&last), None, &[]));
    }
}
