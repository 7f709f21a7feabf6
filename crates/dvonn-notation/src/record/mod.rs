//! The game record of [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#game-records):
//! a small PGN-like text file of tags and moves.
//!
//! ```text
//! [Event "Casual game"]
//! [White "dvonn-ai 0.1 (2 s/move)"]
//! [Black "A. Player"]
//! [Setup "placement"]
//! [Result "24-19"]
//!
//! 1. F3 D3 2. E3 C2 3. ...
//! 25. G2 A3B3 26. C1C2 ... 24-19
//! ```
//!
//! Decisions this module makes where the format leaves room (also listed
//! in [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#choices-of-this-implementation)):
//!
//! - **Tags.** `[Name "value"]`, one per line (white space around it is
//!   allowed, and a `{...}` comment may follow it). A name is an ASCII letter
//!   followed by ASCII letters, digits or `_`; names are case-sensitive and
//!   may appear only once. In a value, `\"` stands for `"` and `\\` for `\`;
//!   no other escape exists, and a value ends on its line. `Setup`,
//!   `Position` and `Result` are *reserved*: they are read into
//!   [`GameRecord::start`] and [`GameRecord::result`] and are never kept in
//!   [`GameRecord::tags`]. A `Position` tag without a `Setup` tag means
//!   `Setup "position"`.
//! - **Move numbers.** `N.` counts pairs of plies from the start of the
//!   record: plies 0 and 1 are `1.`, plies 2 and 3 are `2.`, and so on. In
//!   the standard game ply 48 is White's last placement and ply 49 White's
//!   first movement, so the movement phase reads `25. G2 A3B3 26. C1C2 ...`.
//!   On input numbers are optional and ignored, but must be digits and one
//!   `.` (`25.`, also glued to the move: `25.G2`).
//! - **Result token.** Like PGN, the moves may end with the result token
//!   (`24-19`, `*`, `resign-w`, `resign-b`), and the writer always writes
//!   it. A token that disagrees with the `Result` tag is an error; without a
//!   `Result` tag the token gives the result. Nothing but comments may
//!   follow it.
//! - **The forced last placement.** A record may leave out the 49th
//!   placement (the one empty cell), as Little Golem does: [`GameRecord::replay`]
//!   puts it back in, and the writer always writes it.
//! - **Comments.** A `{...}` comment belongs to the place it stands in the
//!   moves: before the first move (a comment among the tags, too), or after
//!   a move (one after the result token: after the last move). It is kept
//!   in [`GameRecord::comments`] with its white space collapsed to single
//!   spaces; an empty one is dropped. The writer puts each back in its
//!   place, those before the first move on a line of their own, and may
//!   break a long one across lines.
//! - **Limits.** A record of more than [`MAX_PLIES`] plies is an error, so
//!   that hostile input cannot grow a huge move list; reading is a single
//!   pass over the text.
//!
//! The record, its tags and its comments are here; the reader ([`GameRecord::parse`]),
//! the writer (the record's `Display`) and the replay
//! ([`GameRecord::replay`]) each have a module of their own.

use dvonn_core::Move;
use dvonn_core::{Outcome, Position};

use crate::error::ParseError;
use crate::text::missing_forced_placement;

pub use crate::text::MAX_PLIES;

mod reader;
mod writer;

/// The tag that says where the game starts.
const SETUP: &str = "Setup";
/// The tag holding the start position of `Setup "position"`.
const POSITION: &str = "Position";
/// The tag holding the result.
const RESULT: &str = "Result";

/// Whether `name` is one of the tags derived from [`GameRecord::start`] and
/// [`GameRecord::result`] (`Setup`, `Position`, `Result`).
pub fn is_reserved_tag(name: &str) -> bool {
    matches!(name, SETUP | POSITION | RESULT)
}

/// Whether `name` can be a tag name: an ASCII letter followed by ASCII
/// letters, digits or `_`.
pub fn is_valid_tag_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A comment of a record, and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    /// How many moves come before it: 0 before the first move, `n` right
    /// after the `n`-th move (`moves[n - 1]`).
    pub after: usize,
    /// The text, without the braces.
    pub text: String,
}

/// A game: tags, the position it starts from, its moves, its comments and
/// its result.
///
/// The reserved tags `Setup`, `Position` and `Result` are not kept in
/// [`tags`](GameRecord::tags): they are read into [`start`](GameRecord::start)
/// and [`result`](GameRecord::result) and written from them (a reserved name
/// pushed into `tags` by hand is skipped when writing).
///
/// ```
/// use dvonn_core::Position;
/// use dvonn_core::Outcome;
/// use dvonn_notation::GameRecord;
/// let text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. E3 D3 2. C3 {a  good\nmove} F3\n";
/// let record = GameRecord::parse(text).unwrap();
/// assert_eq!(record.tag("White"), Some("Ann"));
/// assert_eq!(record.moves.len(), 4);
/// assert_eq!((record.comments[0].after, record.comments[0].text.as_str()), (3, "a good move"));
/// assert_eq!(record.result, Outcome::Unfinished);
/// let game = record.replay().unwrap();
/// assert_eq!(game.positions().len(), 5);
/// assert_eq!(game.position().side_to_move(), dvonn_core::Color::White);
/// // The canonical writing reads back to the same record.
/// assert_eq!(GameRecord::parse(&record.to_string()).unwrap(), record);
/// assert_eq!(record.to_string(), "[White \"Ann\"]\n[Black \"Bob\"]\n[Setup \"placement\"]\n[Result \"*\"]\n\n1. E3 D3 2. C3 {a good move} F3 *\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameRecord {
    /// The tags in their order, reserved ones excepted: `(name, value)`.
    pub tags: Vec<(String, String)>,
    /// The position the game starts from: the empty board for the standard
    /// game (`Setup "placement"`), any position for `Setup "position"`.
    pub start: Position,
    /// The moves, as written (a missing forced last placement stays missing
    /// here; [`GameRecord::replay`] and the writer fill it in).
    pub moves: Vec<Move>,
    /// The comments, in the order of the places they stand in
    /// ([`Comment::after`]), each with its white space collapsed to single
    /// spaces (see [`GameRecord::add_comment`]).
    pub comments: Vec<Comment>,
    /// The result.
    pub result: Outcome,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new(Position::new())
    }
}

impl GameRecord {
    /// A record of no moves from `start`, without tags, unfinished.
    pub fn new(start: Position) -> GameRecord {
        GameRecord { tags: Vec::new(), start, moves: Vec::new(), comments: Vec::new(), result: Outcome::Unfinished }
    }

    /// Reads a record. Only the syntax is checked here (and that the
    /// `Position` tag holds a position a game can reach); [`replay`](GameRecord::replay)
    /// checks the moves. The error names the first problem with its line
    /// and column. A text of no tags and no moves (an empty file) is a game
    /// of no moves from the empty board.
    ///
    /// ```
    /// use dvonn_notation::GameRecord;
    /// let error = GameRecord::parse("[Setup \"random\"]\n").unwrap_err();
    /// assert_eq!(error.to_string(), "line 1, column 9: unknown Setup value \"random\": expected \"placement\" or \"position\"");
    /// ```
    pub fn parse(text: &str) -> Result<GameRecord, ParseError> {
        reader::parse(text)
    }

    /// The value of the tag `name` (never one of the reserved tags `Setup`,
    /// `Position` and `Result`: see [`start`](GameRecord::start) and
    /// [`result`](GameRecord::result)).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` to `value`, replacing its value if it is there
    /// and appending it if not. Line breaks in `value` become spaces (a
    /// value ends on its line). Returns `false`, and changes nothing, when
    /// `name` is not a valid tag name or is reserved (`Setup`, `Position`,
    /// `Result`: set [`start`](GameRecord::start) and
    /// [`result`](GameRecord::result) instead).
    pub fn set_tag(&mut self, name: &str, value: &str) -> bool {
        if !is_valid_tag_name(name) || is_reserved_tag(name) {
            return false;
        }
        let value = one_line(value);
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, old)) => *old = value,
            None => self.tags.push((name.to_string(), value)),
        }
        true
    }

    /// Adds a comment after the first `after` moves (0: before the first
    /// move), after the comments already there. Its white space, line
    /// breaks included, is collapsed to single spaces, and a `}` (which
    /// would end it) becomes `)`. Returns `false`, and adds nothing, when
    /// nothing but white space is left.
    ///
    /// ```
    /// use dvonn_notation::GameRecord;
    /// let mut record = GameRecord::parse("E3 D3").unwrap();
    /// assert!(record.add_comment(1, "  a {good}\n start "));
    /// assert!(record.add_comment(0, "Casual"));
    /// assert!(!record.add_comment(2, " \n "));
    /// assert_eq!(record.to_string(), "[Setup \"placement\"]\n[Result \"*\"]\n\n{Casual}\n1. E3 {a {good) start} D3 *\n");
    /// ```
    pub fn add_comment(&mut self, after: usize, text: &str) -> bool {
        let text = comment_text(text);
        if text.is_empty() {
            return false;
        }
        let at = self.comments.partition_point(|comment| comment.after <= after);
        self.comments.insert(at, Comment { after, text });
        true
    }

    /// The texts of the comments after the first `after` moves (0: before
    /// the first move), in order.
    pub fn comments_after(&self, after: usize) -> impl Iterator<Item = &str> {
        self.comments.iter().filter(move |comment| comment.after == after).map(|comment| comment.text.as_str())
    }

    /// Adds the forced 49th placement where the record leaves it out (see
    /// the module documentation): decided from the cells alone, without
    /// checking the moves. The comments after it move with the moves.
    pub fn fill_forced_placement(&mut self) {
        if let Some((ply, placement)) = missing_forced_placement(&self.start, &self.moves) {
            self.moves.insert(ply, placement);
            for comment in self.comments.iter_mut().filter(|comment| comment.after > ply) {
                comment.after += 1;
            }
        }
    }
}

/// `value` with line breaks turned into spaces.
fn one_line(value: &str) -> String {
    value.replace(['\n', '\r'], " ")
}

/// The text of a comment as records hold it: white space collapsed to
/// single spaces, none at either end, and `}` (which would end it) as `)`.
fn comment_text(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace('}', ")")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_escape_and_unescape() {
        let mut record = GameRecord::default();
        assert!(record.set_tag("Event", r#"The "big" one \o/"#));
        assert!(record.set_tag("Site", "two\nlines"));
        assert!(!record.set_tag("Result", "1-0"), "reserved");
        assert!(!record.set_tag("Bad Name", "x"));
        assert!(!record.set_tag("9lives", "x"));
        let text = record.to_string();
        assert!(text.starts_with("[Event \"The \\\"big\\\" one \\\\o/\"]\n[Site \"two lines\"]\n"), "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap(), record);
        assert!(record.set_tag("Event", "replaced"));
        assert_eq!(record.tag("Event"), Some("replaced"));
        assert_eq!(record.tags.len(), 2);
    }

    #[test]
    fn comments_keep_their_places_through_reading_and_writing() {
        let text = "{before the tags} [Event \"x\"] {on the tag line}\n\n{first\n  one} 1. E3 {after E3} {and again} D3\n2. C3 * {after the result}";
        let record = GameRecord::parse(text).unwrap();
        let places: Vec<(usize, &str)> = record.comments.iter().map(|c| (c.after, c.text.as_str())).collect();
        assert_eq!(
            places,
            [
                (0, "before the tags"),
                (0, "on the tag line"),
                (0, "first one"),
                (1, "after E3"),
                (1, "and again"),
                (3, "after the result")
            ]
        );
        assert_eq!(record.comments_after(1).collect::<Vec<_>>(), ["after E3", "and again"]);
        let written = record.to_string();
        assert!(
            written.ends_with(
                "\n\n{before the tags} {on the tag line} {first one}\n1. E3 {after E3} {and again} D3 2. C3 {after the result} *\n"
            ),
            "{written}"
        );
        assert_eq!(GameRecord::parse(&written).unwrap(), record);
        assert!(GameRecord::parse("E3 {} D3 {  \n }").unwrap().comments.is_empty());
    }

    #[test]
    fn long_comments_are_wrapped_and_read_back_whole() {
        let mut record = GameRecord::parse("E3 D3").unwrap();
        let long = "word ".repeat(40);
        assert!(record.add_comment(2, &long));
        let text = record.to_string();
        assert!(text.lines().all(|line| line.chars().count() <= 80), "{text}");
        assert!(text.lines().count() > 5, "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap(), record);
        // Comments pushed by hand, out of order and untidy, are written
        // tidy; one of white space alone is not written.
        record.comments.insert(0, Comment { after: 1, text: " a}b ".into() });
        record.comments.push(Comment { after: 0, text: " \n ".into() });
        let read = GameRecord::parse(&record.to_string()).unwrap();
        assert_eq!(read.comments.len(), 2);
        assert_eq!(read.comments[0], Comment { after: 1, text: "a)b".into() });
    }
}
