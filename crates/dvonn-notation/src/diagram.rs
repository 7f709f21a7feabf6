//! The board as a text diagram for the terminal.
//!
//! The hexagonal layout of
//! [RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#cells-and-directions):
//! row 5 on top, each row shifted by
//! half a cell from the next, column letters along the top and bottom edges
//! (each column runs diagonally, up and to the left) and row digits at both
//! ends of every row. A cell shows its stack as in a position string: `.`
//! empty, `D` a lone DVONN piece, `W` / `B` the top colour followed by the
//! height when it is 2 or more, then `*` when the stack holds a DVONN piece
//! (`W`, `B3`, `W2*`). The last move's source and destination are put in
//! brackets (`[W3]`, `[.]`), those of the move before it, if asked for, in
//! parentheses (`(B)`), and the cells whose stacks the last move removed
//! show `x` ([`LEGEND`] says all this in a few lines). Under the board: the
//! last move, the move before it, the removed cells, and the [`status`]
//! line.
//!
//! ```text
//!        C     D     E     F     G     H     I     J     K
//!        5  B     B     B     .     W2    W     W     D     B     5
//!     4  B     W     B     B     W     B     W     B     B2    .     4
//!  3  W     W     B     B     W     B     W     W     B     W2*   W2    3
//!     2  W     W     B    [.]    .    [W]    B4    B     .     .     2
//!        1  B     W     D     .     B     W     .     W2    B     1
//!              A     B     C     D     E     F     G     H     I
//! last move: D2F2
//! White to move, movement phase, score 23-24
//! ```

use std::fmt::Write as _;

use dvonn_core::{Bitboard, Cell, Color, Move, Phase, Position};

/// What the symbols of a [`diagram`] mean, for a reader who has not seen
/// one: three lines, each ending with `\n`.
pub const LEGEND: &str = "\
W, B: a stack with a white or black piece on top, and its height when it is 2 or more (B3)
D: a lone DVONN piece; * after a stack: a DVONN piece inside it; .: an empty cell
[ ]: the last move's cells; ( ): the move before it; x: a stack the last move removed
";

/// What to show besides the stacks.
///
/// New options may be added in any release: start from
/// [`DiagramOptions::default()`] (no colours, no marks) and chain the
/// `with_*` setters, or set the fields of a mutable value.
///
/// ```
/// use dvonn_core::{Move, Position};
/// use dvonn_notation::diagram::{DiagramOptions, diagram};
///
/// let mut position = Position::new();
/// let mv: Move = "E3".parse().unwrap();
/// let removed = position.play(mv).unwrap();
/// let options = DiagramOptions::default().with_last_move(mv).with_removed(removed);
/// assert!(diagram(&position, &options).contains("last move: E3"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DiagramOptions {
    /// Colour the diagram with ANSI escape codes (pass `false` when standard
    /// output is not a terminal: see [`std::io::IsTerminal`]).
    pub colored: bool,
    /// The move that led to the position: its source and destination are
    /// highlighted.
    pub last_move: Option<Move>,
    /// The move before `last_move` (the other player's, when two players
    /// take turns): its cells are put in parentheses.
    pub previous_move: Option<Move>,
    /// The cells whose stacks the last move removed (what
    /// [`Position::play`] returns): drawn as `x` and listed under the board.
    pub removed: Bitboard,
}

impl DiagramOptions {
    /// Colours the diagram with ANSI escape codes, or not.
    #[must_use]
    pub const fn with_colored(mut self, colored: bool) -> DiagramOptions {
        self.colored = colored;
        self
    }

    /// Marks `mv` as the move that led to the position.
    #[must_use]
    pub const fn with_last_move(mut self, mv: Move) -> DiagramOptions {
        self.last_move = Some(mv);
        self
    }

    /// Marks `mv` as the move before the last one.
    #[must_use]
    pub const fn with_previous_move(mut self, mv: Move) -> DiagramOptions {
        self.previous_move = Some(mv);
        self
    }

    /// Marks `removed` as the cells whose stacks the last move removed.
    #[must_use]
    pub const fn with_removed(mut self, removed: Bitboard) -> DiagramOptions {
        self.removed = removed;
        self
    }
}

/// The board of `position` as a text diagram with coordinates, the last
/// move and its removals marked as `options` say, and the [`status`] line
/// last. Every line ends with `\n`; without colours, no line has trailing
/// spaces.
pub fn diagram(position: &Position, options: &DiagramOptions) -> String {
    let mut canvas = Canvas::default();
    // Row 5 runs from C to K, row 1 from A to I: their letters label the
    // columns above and below the board.
    let row = |y: i32| Cell::ALL.into_iter().filter(move |cell| cell.y() == y);
    for cell in row(4) {
        canvas.put(0, column(2 * cell.x() - 5), &cell.column_letter().to_string(), Style::Coordinate);
    }
    for y in (0..5).rev() {
        let line = canvas.lines.len();
        let cells: Vec<Cell> = row(y).collect();
        let (Some(first), Some(last)) = (cells.first(), cells.last()) else { continue };
        let digit = first.row_digit().to_string();
        canvas.put(line, column(2 * first.x() - y) - 3, &digit, Style::Coordinate);
        canvas.put(line, column(2 * last.x() - y) + 6, &digit, Style::Coordinate);
        for &cell in &cells {
            let at = column(2 * cell.x() - y);
            let length = draw_cell(&mut canvas, line, at, position, cell, options);
            // The last move's brackets win over the parentheses of the
            // move before it on a cell both moves touched.
            if marked(options.last_move, cell) {
                canvas.put(line, at - 1, "[", Style::Mark);
                canvas.put(line, at + length, "]", Style::Mark);
            } else if marked(options.previous_move, cell) {
                canvas.put(line, at - 1, "(", Style::PreviousMark);
                canvas.put(line, at + length, ")", Style::PreviousMark);
            }
        }
    }
    let line = canvas.lines.len();
    for cell in row(0) {
        canvas.put(line, column(2 * cell.x() + 1), &cell.column_letter().to_string(), Style::Coordinate);
    }
    let mut out = canvas.render(options.colored);
    if let Some(mv) = options.last_move {
        let _ = writeln!(out, "last move: {mv}");
    }
    if let Some(mv) = options.previous_move {
        let _ = writeln!(out, "move before: {mv}");
    }
    if !options.removed.is_empty() {
        let cells: Vec<String> = options.removed.iter().map(|cell| cell.to_string()).collect();
        let pieces = if options.removed.len() == 1 { "stack" } else { "stacks" };
        let _ = writeln!(out, "removed: {} ({} {pieces}, x on the board)", cells.join(" "), options.removed.len());
    }
    out.push_str(&status(position));
    out.push('\n');
    out
}

/// One line about the state of the game: who moves, the phase and the score
/// (`pieces(White)-pieces(Black)`, the pieces in the stacks each player
/// owns), or the result once the game is over.
///
/// ```
/// use dvonn_core::Position;
/// use dvonn_notation::diagram::status;
/// assert_eq!(status(&Position::new()), "White to move, placement phase (0 of 49 placed), score 0-0");
/// ```
pub fn status(position: &Position) -> String {
    let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
    let outcome = position.outcome();
    match outcome.winner() {
        Some(color) => format!("game over, score {white}-{black}: {color} wins"),
        None if outcome.is_over() => format!("game over, score {white}-{black}: a draw"),
        None => {
            let side = position.side_to_move();
            match position.phase() {
                Phase::Placement => {
                    format!(
                        "{side} to move, placement phase ({} of 49 placed), score {white}-{black}",
                        position.placed()
                    )
                }
                Phase::Movement if position.legal_moves().as_slice() == [Move::Pass] => {
                    format!("{side} to move (must pass), movement phase, score {white}-{black}")
                }
                Phase::Movement => format!("{side} to move, movement phase, score {white}-{black}"),
            }
        }
    }
}

/// Draws the stack of `cell` (or its absence) at `at` and returns its width.
fn draw_cell(
    canvas: &mut Canvas,
    line: usize,
    at: usize,
    position: &Position,
    cell: Cell,
    options: &DiagramOptions,
) -> usize {
    let Some(stack) = position.stack_at(cell) else {
        let (text, style) = if options.removed.contains(cell) { ("x", Style::Removed) } else { (".", Style::Empty) };
        canvas.put(line, at, text, style);
        return 1;
    };
    let token = stack.to_string();
    let style = match stack.owner() {
        None => Style::Dvonn,
        Some(Color::White) => Style::White,
        Some(Color::Black) => Style::Black,
    };
    let body = token.trim_end_matches('*');
    canvas.put(line, at, body, style);
    if body.len() < token.len() {
        canvas.put(line, at + body.len(), "*", Style::Dvonn);
    }
    token.len()
}

/// Whether `cell` is the source or the destination of `last_move`.
fn marked(last_move: Option<Move>, cell: Cell) -> bool {
    last_move.is_some_and(|mv| mv.from() == Some(cell) || mv.to() == Some(cell))
}

/// The text column of a cell whose half-cell offset is `h = 2x - y` (from
/// -2 for A3 to 18 for K3).
fn column(h: i32) -> usize {
    // Three characters per half cell; A3 starts at column 4.
    usize::try_from(4 + 3 * (h + 2)).unwrap_or(0)
}

/// How a character is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Spaces.
    Plain,
    /// Column letters and row digits.
    Coordinate,
    /// A white-topped stack.
    White,
    /// A black-topped stack.
    Black,
    /// A lone DVONN piece, or the `*` of a stack holding one.
    Dvonn,
    /// An empty cell.
    Empty,
    /// A cell whose stack the last move removed.
    Removed,
    /// The brackets around the last move's cells.
    Mark,
    /// The parentheses around the cells of the move before it.
    PreviousMark,
}

impl Style {
    /// The ANSI SGR parameters of the style (`None`: no escape at all).
    fn ansi(self) -> Option<&'static str> {
        match self {
            Style::Plain => None,
            Style::Coordinate | Style::Empty => Some("2"),
            Style::White => Some("1;97"),
            Style::Black => Some("1;94"),
            Style::Dvonn => Some("1;91"),
            Style::Removed => Some("2;91"),
            Style::Mark => Some("1;93"),
            Style::PreviousMark => Some("93"),
        }
    }
}

/// Lines of styled characters, grown as text is put on them.
#[derive(Debug, Default)]
struct Canvas {
    lines: Vec<Vec<(char, Style)>>,
}

impl Canvas {
    /// Writes `text` on line `line` from column `at`.
    fn put(&mut self, line: usize, at: usize, text: &str, style: Style) {
        if self.lines.len() <= line {
            self.lines.resize(line + 1, Vec::new());
        }
        let row = &mut self.lines[line];
        for (i, c) in text.chars().enumerate() {
            if row.len() <= at + i {
                row.resize(at + i + 1, (' ', Style::Plain));
            }
            row[at + i] = (c, style);
        }
    }

    /// The lines as text, each ending with `\n`, with ANSI colours when
    /// `colored`.
    fn render(&self, colored: bool) -> String {
        let mut out = String::new();
        for row in &self.lines {
            let length = row.iter().rposition(|&(c, style)| c != ' ' || style != Style::Plain).map_or(0, |i| i + 1);
            let mut current = Style::Plain;
            for &(c, style) in &row[..length] {
                if colored && style != current {
                    if current.ansi().is_some() {
                        out.push_str("\x1b[0m");
                    }
                    if let Some(code) = style.ansi() {
                        let _ = write!(out, "\x1b[{code}m");
                    }
                    current = style;
                }
                out.push(c);
            }
            if colored && current.ansi().is_some() {
                out.push_str("\x1b[0m");
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    #[test]
    fn the_empty_board() {
        let text = diagram(&Position::new(), &DiagramOptions::default());
        let expected = "
       C     D     E     F     G     H     I     J     K
       5  .     .     .     .     .     .     .     .     .     5
    4  .     .     .     .     .     .     .     .     .     .     4
 3  .     .     .     .     .     .     .     .     .     .     .     3
    2  .     .     .     .     .     .     .     .     .     .     2
       1  .     .     .     .     .     .     .     .     .     1
             A     B     C     D     E     F     G     H     I
White to move, placement phase (0 of 49 placed), score 0-0
";
        assert_eq!(text, &expected[1..]);
    }

    #[test]
    fn a_move_with_a_removal() {
        let mut position: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let mv: Move = "B3C3".parse().unwrap();
        let removed = position.play(mv).unwrap();
        let options = DiagramOptions::default().with_last_move(mv).with_removed(removed);
        let text = diagram(&position, &options);
        let expected = "
       C     D     E     F     G     H     I     J     K
       5  .     .     .     .     .     .     .     .     .     5
    4  .     .     .     .     .     .     .     .     .     .     4
 3  x    [.]   [W2*]  .     .     .     .     .     .     .     .     3
    2  .     .     .     .     .     .     .     .     .     .     2
       1  .     .     .     .     .     .     .     .     .     1
             A     B     C     D     E     F     G     H     I
last move: B3C3
removed: A3 (1 stack, x on the board)
game over, score 2-0: White wins
";
        assert_eq!(text, &expected[1..]);
    }

    #[test]
    fn the_notation_example_in_the_middle_of_a_game() {
        let position: Position = "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m".parse().unwrap();
        let mv = Move::Jump { from: cell("D2"), to: cell("F2") };
        let options = DiagramOptions::default().with_last_move(mv);
        let text = diagram(&position, &options);
        let expected = "
       C     D     E     F     G     H     I     J     K
       5  B     B     B     .     W2    W     W     D     B     5
    4  B     W     B     B     W     B     W     B     B2    .     4
 3  W     W     B     B     W     B     W     W     B     W2*   W2    3
    2  W     W     B    [.]    .    [W]    B4    B     .     .     2
       1  B     W     D     .     B     W     .     W2    B     1
             A     B     C     D     E     F     G     H     I
last move: D2F2
White to move, movement phase, score 23-24
";
        assert_eq!(text, &expected[1..]);
    }

    #[test]
    fn the_move_before_the_last_in_parentheses() {
        let mut position = Position::new();
        let (first, second): (Move, Move) = ("E3".parse().unwrap(), "D3".parse().unwrap());
        position.play(first).unwrap();
        position.play(second).unwrap();
        let options = DiagramOptions::default().with_last_move(second).with_previous_move(first);
        let text = diagram(&position, &options);
        let row_3 = " 3  .     .     .    [D]   (D)    .     .     .     .     .     .     3\n";
        assert!(text.contains(row_3), "{text}");
        assert!(text.contains("last move: D3\nmove before: E3\n"), "{text}");
        // A cell both moves touched keeps the last move's brackets.
        let options = options.with_previous_move(second);
        let text = diagram(&position, &options);
        assert!(text.contains(" [D]    D "), "{text}");
    }

    #[test]
    fn the_legend_names_every_symbol() {
        assert_eq!(LEGEND.lines().count(), 3);
        for symbol in ["W, B", "D:", "*", ".:", "[ ]", "( )", "x:"] {
            assert!(LEGEND.contains(symbol), "{symbol}");
        }
        assert!(LEGEND.lines().all(|line| line.len() <= 100));
    }

    #[test]
    fn colours_are_ansi_escapes_around_the_tokens() {
        let position: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
        let text = diagram(&position, &DiagramOptions::default().with_colored(true));
        assert!(text.contains("\x1b[1;94mB\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[1;97mW\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[1;91mD\x1b[0m"), "{text}");
        let plain = diagram(&position, &DiagramOptions::default());
        let stripped: String = {
            let mut out = String::new();
            let mut escape = false;
            for c in text.chars() {
                match c {
                    '\x1b' => escape = true,
                    'm' if escape => escape = false,
                    _ if !escape => out.push(c),
                    _ => {}
                }
            }
            out
        };
        assert_eq!(stripped, plain);
    }

    #[test]
    fn status_lines() {
        let position: Position = "........./........../...B3B9*....../..B4B5*....B3W4/.W4.....D. w m".parse().unwrap();
        assert_eq!(status(&position), "White to move (must pass), movement phase, score 8-24");
        let position: Position = "........./........../..W2*......../........../......... b m".parse().unwrap();
        assert_eq!(status(&position), "game over, score 2-0: White wins");
    }
}
