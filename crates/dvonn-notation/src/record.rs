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

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use crate::text::{advance_chars, excerpt, is_space, line_col, missing_forced_placement, strip_bom};
use dvonn_core::Bitboard;
use dvonn_core::Color;
use dvonn_core::IllegalMoveReason;
use dvonn_core::Move;
use dvonn_core::MoveParseError;
use dvonn_core::PositionParseError;
use dvonn_core::{Phase, Position};

pub use crate::text::MAX_PLIES;

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

/// How a game ended, or that it has not: the `Result` tag.
///
/// ```
/// use dvonn_core::Color;
/// use dvonn_notation::RecordResult;
/// assert_eq!("24-19".parse::<RecordResult>().unwrap(), RecordResult::Score { white: 24, black: 19 });
/// assert_eq!("resign-w".parse::<RecordResult>().unwrap(), RecordResult::Resigned(Color::White));
/// assert_eq!(RecordResult::Unfinished.to_string(), "*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// A finished game: the pieces each player owns at the end (`24-19`).
    Score {
        /// White's pieces.
        white: u32,
        /// Black's pieces.
        black: u32,
    },
    /// A game that goes on, or whose result is unknown (`*`).
    Unfinished,
    /// The player named resigned (`resign-w`: White resigned).
    Resigned(Color),
}

impl RecordResult {
    /// The result the rules give `position`: the score when the game is
    /// over, else [`RecordResult::Unfinished`].
    pub fn of_position(position: &Position) -> RecordResult {
        if position.is_game_over() {
            RecordResult::Score { white: position.pieces(Color::White), black: position.pieces(Color::Black) }
        } else {
            RecordResult::Unfinished
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordResult::Score { white, black } => write!(f, "{white}-{black}"),
            RecordResult::Unfinished => f.write_str("*"),
            RecordResult::Resigned(Color::White) => f.write_str("resign-w"),
            RecordResult::Resigned(Color::Black) => f.write_str("resign-b"),
        }
    }
}

/// Text that is not a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a result: expected piece counts W-B (like 24-19, at most 49 pieces in all), * (unfinished), resign-w or resign-b"
)]
pub struct ResultParseError {
    text: String,
}

impl FromStr for RecordResult {
    type Err = ResultParseError;

    fn from_str(text: &str) -> Result<RecordResult, ResultParseError> {
        let error = || ResultParseError { text: excerpt(text) };
        if text == "*" {
            return Ok(RecordResult::Unfinished);
        }
        if text.eq_ignore_ascii_case("resign-w") {
            return Ok(RecordResult::Resigned(Color::White));
        }
        if text.eq_ignore_ascii_case("resign-b") {
            return Ok(RecordResult::Resigned(Color::Black));
        }
        let (white, black) = text.split_once('-').ok_or_else(error)?;
        let count = |digits: &str| -> Option<u32> {
            let ok = (1..=2).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
            if ok { digits.parse().ok() } else { None }
        };
        match (count(white), count(black)) {
            (Some(white), Some(black)) if white + black <= 49 => Ok(RecordResult::Score { white, black }),
            _ => Err(error()),
        }
    }
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
/// use dvonn_notation::{GameRecord, RecordResult};
/// let text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. E3 D3 2. C3 {a  good\nmove} F3\n";
/// let record = GameRecord::parse(text).unwrap();
/// assert_eq!(record.tag("White"), Some("Ann"));
/// assert_eq!(record.moves.len(), 4);
/// assert_eq!((record.comments[0].after, record.comments[0].text.as_str()), (3, "a good move"));
/// assert_eq!(record.result, RecordResult::Unfinished);
/// let replay = record.replay().unwrap();
/// assert_eq!(replay.positions.len(), 5);
/// assert_eq!(replay.final_position().side_to_move(), dvonn_core::Color::White);
/// // The canonical writing reads back to the same record.
/// assert_eq!(GameRecord::parse(&record.to_string()).unwrap(), record);
/// assert_eq!(record.to_string(), "[White \"Ann\"]\n[Black \"Bob\"]\n[Setup \"placement\"]\n[Result \"*\"]\n\n1. E3 D3 2. C3 {a good move} F3 *\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub result: RecordResult,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new(Position::new())
    }
}

impl GameRecord {
    /// A record of no moves from `start`, without tags, unfinished.
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            result: RecordResult::Unfinished,
        }
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
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        Parser::new(text).parse()
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

    /// Plays the moves from the start, checking each against the rules, and
    /// reports the first illegal one. When the placement phase has reached
    /// ply 48 (one empty cell left) and the next move is a movement or a
    /// pass, the forced last placement is put in first.
    ///
    /// The `Result` is not compared with the game here: see
    /// [`Replay::check_result`].
    ///
    /// ```
    /// use dvonn_notation::GameRecord;
    /// let error = GameRecord::parse("E3 E3").unwrap().replay().unwrap_err();
    /// assert_eq!(error.to_string(), "move 1 (ply 1) E3 is illegal: E3 is not empty");
    /// ```
    pub fn replay(&self) -> Result<Replay, ReplayError> {
        let mut replay = Replay::new(self.start);
        for &mv in &self.moves {
            let empty = !replay.final_position().occupied();
            let forced = !mv.is_placement() && replay.final_position().phase() == Phase::Placement && empty.len() == 1;
            if let Some(cell) = empty.first().filter(|_| forced) {
                replay.play(Move::Place(cell))?;
            }
            replay.play(mv)?;
        }
        Ok(replay)
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

/// The moves of a record replayed: every position, the moves with the
/// forced last placement filled in, and what each move removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// `positions[0]` is the start, `positions[i + 1]` the position after
    /// `moves[i]`.
    pub positions: Vec<Position>,
    /// The moves played (the forced 49th placement filled in).
    pub moves: Vec<Move>,
    /// `removed[i]`: the cells whose stacks `moves[i]` cut off and removed.
    pub removed: Vec<Bitboard>,
}

impl Replay {
    /// A game from `start`, no move played yet.
    pub fn new(start: Position) -> Replay {
        Replay { positions: vec![start], moves: Vec::new(), removed: Vec::new() }
    }

    /// Plays `mv` (the next ply) after checking it; returns the cells it
    /// removed.
    ///
    /// ```
    /// use dvonn_core::{Move, Position};
    /// use dvonn_notation::Replay;
    /// let mut game = Replay::new(Position::new());
    /// game.play("E3".parse().unwrap()).unwrap();
    /// assert!(game.play("E3".parse().unwrap()).is_err(), "E3 is taken");
    /// assert_eq!(game.moves.len(), 1);
    /// game.truncate(0);
    /// assert_eq!(game.final_position(), &Position::new());
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<Bitboard, ReplayError> {
        let ply = self.moves.len();
        let mut position = *self.final_position();
        let removed = position.play(mv).map_err(|error| ReplayError {
            ply,
            move_number: ply / 2 + 1,
            mv,
            reason: error.reason,
        })?;
        self.positions.push(position);
        self.moves.push(mv);
        self.removed.push(removed);
        Ok(removed)
    }

    /// Takes back every move after the first `plies`.
    pub fn truncate(&mut self, plies: usize) {
        self.positions.truncate(plies + 1);
        self.moves.truncate(plies);
        self.removed.truncate(plies);
    }

    /// The position after the last move.
    pub fn final_position(&self) -> &Position {
        // `positions` always holds the start.
        self.positions.last().unwrap_or_else(|| unreachable!("a replay holds its start position"))
    }

    /// The result the rules give the final position: the score when the
    /// game is over, else [`RecordResult::Unfinished`].
    pub fn result(&self) -> RecordResult {
        RecordResult::of_position(self.final_position())
    }

    /// Checks a recorded result against the game: a score must be the
    /// final score of a finished game; `*` and resignations are accepted
    /// whatever the position (a resignation ends a game early, and `*` says
    /// nothing).
    ///
    /// ```
    /// use dvonn_notation::{GameRecord, RecordResult};
    /// let replay = GameRecord::parse("E3").unwrap().replay().unwrap();
    /// let error = replay.check_result(RecordResult::Score { white: 24, black: 19 }).unwrap_err();
    /// assert_eq!(error.to_string(), "the record gives the result 24-19, but the game is not over after its last move");
    /// ```
    pub fn check_result(&self, recorded: RecordResult) -> Result<(), ResultMismatch> {
        match recorded {
            RecordResult::Score { .. } if self.result() != recorded => {
                Err(ResultMismatch { recorded, actual: self.result() })
            }
            _ => Ok(()),
        }
    }
}

/// A recorded score that is not what the moves give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ResultMismatch {
    /// The result the record gives.
    pub recorded: RecordResult,
    /// What the moves give: the final score, or
    /// [`RecordResult::Unfinished`] when the game is not over.
    pub actual: RecordResult,
}

impl fmt::Display for ResultMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.actual {
            RecordResult::Unfinished => {
                write!(f, "the record gives the result {}, but the game is not over after its last move", self.recorded)
            }
            actual => write!(f, "the record gives the result {}, but the moves end {actual}", self.recorded),
        }
    }
}

/// An illegal move in a record: which, where, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {move_number} (ply {ply}) {mv} is illegal: {reason}")]
pub struct ReplayError {
    /// The ply of the move, counted from 0 at the start of the record (the
    /// forced last placement counted, when the record leaves it out).
    pub ply: usize,
    /// The move number of the record: `ply / 2 + 1`.
    pub move_number: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalMoveReason,
}

/// What is wrong with a record's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// A `[` that does not start a well-formed tag.
    #[error("bad tag syntax: {0} (a tag is [Name \"value\"], one per line)")]
    BadTagSyntax(&'static str),
    /// A tag name with characters other than ASCII letters, digits and `_`.
    #[error("bad tag name {0:?}: a name is an ASCII letter followed by ASCII letters, digits or '_'")]
    BadTagName(String),
    /// A tag value without its closing `"` on its line.
    #[error("unterminated string: the tag value has no closing '\"' on its line")]
    UnterminatedString,
    /// A `\` in a tag value followed by something else than `"` or `\`.
    #[error("bad escape '\\{0}' in a tag value: only \\\" and \\\\ are escapes")]
    BadEscape(char),
    /// A `{` without its `}`.
    #[error("unterminated comment: '{{' without a matching '}}'")]
    UnterminatedComment,
    /// A `}` outside a comment.
    #[error("'}}' outside a comment")]
    UnmatchedBrace,
    /// A tag given twice.
    #[error("the tag {0} appears twice")]
    DuplicateTag(String),
    /// A tag after the first move.
    #[error("a tag after the moves: tags come first")]
    TagAfterMoves,
    /// A `Setup` value other than `placement` and `position`.
    #[error("unknown Setup value {0:?}: expected \"placement\" or \"position\"")]
    UnknownSetup(String),
    /// `Setup "position"` without a `Position` tag.
    #[error("Setup \"position\" needs a Position tag holding the position string the game starts from")]
    MissingPosition,
    /// `Setup "placement"` with a `Position` tag.
    #[error("Setup \"placement\" starts from the empty board, but there is a Position tag")]
    PositionWithPlacement,
    /// A `Position` tag that is not a reachable position.
    #[error("bad Position tag: {0}")]
    BadPosition(PositionParseError),
    /// A word in the moves that is not a move.
    #[error("move {number} (ply {ply}): {error}")]
    NotAMove {
        /// The move number it would have.
        number: usize,
        /// The ply it would be.
        ply: usize,
        /// Why it is not a move.
        error: MoveParseError,
    },
    /// A move number not of the form `digits.`.
    #[error("bad move number {0:?}: a move number is digits and one '.', like 25.")]
    BadMoveNumber(String),
    /// A `Result` tag or result token that is not a result.
    #[error("bad Result value: {0}")]
    BadResult(ResultParseError),
    /// A result token that disagrees with the `Result` tag.
    #[error("the result token {token} disagrees with the Result tag {tag}")]
    ResultMismatch {
        /// The `Result` tag.
        tag: RecordResult,
        /// The result token.
        token: RecordResult,
    },
    /// Something else than a comment after the result token.
    #[error("text after the result token: the result ends the moves")]
    TextAfterResult,
    /// More moves than any game has.
    #[error("more than {MAX_PLIES} moves: no game of DVONN is that long")]
    TooManyMoves,
}

/// A record that could not be read: what is wrong, and where (1-based line
/// and column, columns counted in characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct RecordError {
    /// The line of the problem.
    pub line: usize,
    /// The column of the problem.
    pub column: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// The start position given by the tags.
#[derive(Clone, Copy)]
enum SetupTag {
    Placement,
    Position,
}

/// The reader: one pass over the text.
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tags: Vec<(String, String)>,
    seen: HashSet<String>,
    /// The `Setup` tag and the offset of its value.
    setup: Option<(SetupTag, usize)>,
    /// The `Position` tag's position and the offset of its value.
    position: Option<(Position, usize)>,
    result_tag: Option<RecordResult>,
    result_token: Option<RecordResult>,
    moves: Vec<Move>,
    comments: Vec<Comment>,
    in_moves: bool,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let text = strip_bom(text);
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            tags: Vec::new(),
            seen: HashSet::new(),
            setup: None,
            position: None,
            result_tag: None,
            result_token: None,
            moves: Vec::new(),
            comments: Vec::new(),
            in_moves: false,
        }
    }

    fn error(&self, at: usize, kind: RecordErrorKind) -> RecordError {
        let (line, column) = line_col(self.text, at);
        RecordError { line, column, kind }
    }

    fn parse(mut self) -> Result<GameRecord, RecordError> {
        loop {
            while self.bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
                self.pos += 1;
            }
            match self.bytes.get(self.pos) {
                None => break,
                Some(b'{') => self.read_comment()?,
                Some(b'[') if !self.in_moves => self.parse_tag()?,
                Some(b'[') => return Err(self.error(self.pos, RecordErrorKind::TagAfterMoves)),
                Some(_) => {
                    if !self.in_moves {
                        self.check_setup()?;
                        self.in_moves = true;
                    }
                    let start = self.pos;
                    while self.bytes.get(self.pos).is_some_and(|&b| !is_space(b) && b != b'{') {
                        self.pos += 1;
                    }
                    self.token(start, self.pos)?;
                }
            }
        }
        if !self.in_moves {
            self.check_setup()?;
        }
        let start = match self.position {
            Some((position, _)) => position,
            None => Position::new(),
        };
        let result = self.result_tag.or(self.result_token).unwrap_or(RecordResult::Unfinished);
        Ok(GameRecord { tags: self.tags, start, moves: self.moves, comments: self.comments, result })
    }

    /// Reads the comment that starts at `self.pos`, which stands after the
    /// moves read so far.
    fn read_comment(&mut self) -> Result<(), RecordError> {
        let open = self.pos;
        let Some(at) = self.text[open..].find('}') else {
            return Err(self.error(open, RecordErrorKind::UnterminatedComment));
        };
        let text = comment_text(&self.text[open + 1..open + at]);
        if !text.is_empty() {
            self.comments.push(Comment { after: self.moves.len(), text });
        }
        self.pos = open + at + 1;
        Ok(())
    }

    fn skip_blanks(&mut self) {
        while matches!(self.bytes.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Reads the tag that starts at `self.pos` (a `[`).
    fn parse_tag(&mut self) -> Result<(), RecordError> {
        use RecordErrorKind::*;
        self.pos += 1;
        let name_at = self.pos;
        while self.bytes.get(self.pos).is_some_and(|&b| !is_space(b) && b != b'"' && b != b']') {
            self.pos += 1;
        }
        let name = &self.text[name_at..self.pos];
        if name.is_empty() {
            return Err(self.error(name_at, BadTagSyntax("expected a tag name after '['")));
        }
        if !is_valid_tag_name(name) {
            return Err(self.error(name_at, BadTagName(excerpt(name))));
        }
        self.skip_blanks();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error(self.pos, BadTagSyntax("expected a value in double quotes after the tag name")));
        }
        let quote = self.pos;
        self.pos += 1;
        let value_at = self.pos;
        let mut value = String::new();
        let mut chunk = self.pos;
        loop {
            match self.bytes.get(self.pos) {
                None | Some(b'\n') => return Err(self.error(quote, UnterminatedString)),
                Some(b'"') => {
                    value.push_str(&self.text[chunk..self.pos]);
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    value.push_str(&self.text[chunk..self.pos]);
                    match self.bytes.get(self.pos + 1) {
                        Some(&b @ (b'"' | b'\\')) => value.push(char::from(b)),
                        None | Some(b'\n') => return Err(self.error(quote, UnterminatedString)),
                        Some(_) => {
                            let c = self.text[self.pos + 1..].chars().next().unwrap_or('\\');
                            return Err(self.error(self.pos, BadEscape(c)));
                        }
                    }
                    self.pos += 2;
                    chunk = self.pos;
                }
                Some(_) => self.pos += 1,
            }
        }
        self.skip_blanks();
        if self.bytes.get(self.pos) != Some(&b']') {
            return Err(self.error(self.pos, BadTagSyntax("expected ']' after the tag value")));
        }
        self.pos += 1;
        self.skip_blanks();
        if !matches!(self.bytes.get(self.pos), None | Some(b'\r' | b'\n' | b'{')) {
            return Err(self.error(self.pos, BadTagSyntax("text after ']': tags go one per line")));
        }
        if !self.seen.insert(name.to_string()) {
            return Err(self.error(name_at, DuplicateTag(name.to_string())));
        }
        match name {
            SETUP => {
                let setup = match value.as_str() {
                    "placement" => SetupTag::Placement,
                    "position" => SetupTag::Position,
                    _ => return Err(self.error(value_at, UnknownSetup(excerpt(&value)))),
                };
                self.setup = Some((setup, value_at));
            }
            POSITION => match value.parse::<Position>() {
                Ok(position) => self.position = Some((position, value_at)),
                Err(error) => {
                    let at = advance_chars(self.text, value_at, error.column.saturating_sub(1));
                    return Err(self.error(at.min(self.pos), BadPosition(error)));
                }
            },
            RESULT => match value.parse::<RecordResult>() {
                Ok(result) => self.result_tag = Some(result),
                Err(error) => return Err(self.error(value_at, BadResult(error))),
            },
            _ => self.tags.push((name.to_string(), value)),
        }
        Ok(())
    }

    /// Checks that the `Setup` and `Position` tags agree, once all tags are read.
    fn check_setup(&self) -> Result<(), RecordError> {
        match (self.setup, self.position) {
            (Some((SetupTag::Position, at)), None) => Err(self.error(at, RecordErrorKind::MissingPosition)),
            (Some((SetupTag::Placement, _)), Some((_, at))) => {
                Err(self.error(at, RecordErrorKind::PositionWithPlacement))
            }
            _ => Ok(()),
        }
    }

    /// Handles the word `text[start..end]` of the moves.
    fn token(&mut self, start: usize, end: usize) -> Result<(), RecordError> {
        use RecordErrorKind::*;
        if self.result_token.is_some() {
            return Err(self.error(start, TextAfterResult));
        }
        let word = &self.text[start..end];
        let bytes = word.as_bytes();
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 {
            return match bytes.get(digits) {
                Some(b'.') if bytes.get(digits + 1) == Some(&b'.') => {
                    Err(self.error(start, BadMoveNumber(excerpt(word))))
                }
                Some(b'.') if digits + 1 == word.len() => Ok(()),
                // A move number glued to its move (`25.G2`), but not to
                // another number.
                Some(b'.') if !bytes[digits + 1].is_ascii_digit() => self.word(start + digits + 1, end),
                Some(b'-') => self.result(start, word),
                _ => Err(self.error(start, BadMoveNumber(excerpt(word)))),
            };
        }
        self.word(start, end)
    }

    /// Handles the word `text[start..end]` of the moves that does not start
    /// with a digit: a result token or a move.
    fn word(&mut self, start: usize, end: usize) -> Result<(), RecordError> {
        use RecordErrorKind::*;
        let word = &self.text[start..end];
        if word == "*" || word.eq_ignore_ascii_case("resign-w") || word.eq_ignore_ascii_case("resign-b") {
            return self.result(start, word);
        }
        if let Some(at) = word.find('}') {
            return Err(self.error(start + at, UnmatchedBrace));
        }
        let ply = self.moves.len();
        match word.parse::<Move>() {
            Ok(_) if ply >= MAX_PLIES => Err(self.error(start, TooManyMoves)),
            Ok(mv) => {
                self.moves.push(mv);
                Ok(())
            }
            Err(error) => Err(self.error(start, NotAMove { number: ply / 2 + 1, ply, error })),
        }
    }

    /// Handles the result token `word` at `start`.
    fn result(&mut self, start: usize, word: &str) -> Result<(), RecordError> {
        let token = word.parse::<RecordResult>().map_err(|e| self.error(start, RecordErrorKind::BadResult(e)))?;
        if let Some(tag) = self.result_tag {
            if tag != token {
                return Err(self.error(start, RecordErrorKind::ResultMismatch { tag, token }));
            }
        }
        self.result_token = Some(token);
        Ok(())
    }
}

/// `value` with `"` and `\` escaped and line breaks turned into spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Appends the words of a comment holding `text` (not empty, white space
/// collapsed), braces included, to `words`.
fn comment_words(words: &mut Vec<(String, bool)>, text: &str) {
    let count = text.split(' ').count();
    for (index, word) in text.split(' ').enumerate() {
        let open = if index == 0 { "{" } else { "" };
        let close = if index + 1 == count { "}" } else { "" };
        words.push((format!("{open}{word}{close}"), false));
    }
}

/// The longest line of moves the writer produces.
const LINE_WIDTH: usize = 80;

/// Appends `words` to `out` separated by spaces, breaking lines so that no
/// line is longer than [`LINE_WIDTH`] (a word is never split). A word for
/// which `break_before` says so starts a new line.
pub(crate) fn wrap_words(out: &mut String, words: impl IntoIterator<Item = (String, bool)>) {
    let mut column = 0;
    for (word, break_before) in words {
        let width = word.chars().count();
        if column > 0 && (break_before || column + 1 + width > LINE_WIDTH) {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&word);
        column += width;
    }
    out.push('\n');
}

/// The canonical writing: the tags (escaped, reserved ones from `start` and
/// `result`), a blank line, the comments before the first move on a line of
/// their own, the moves with `N.` numbers and each comment after its move,
/// wrapped at 80 columns (the pair of plies where movement begins starts a
/// new line), and the result token. The forced last placement is written
/// even when the record leaves it out.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.tags.iter().filter(|(name, _)| !is_reserved_tag(name)) {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        if self.start == Position::new() {
            writeln!(f, "[{SETUP} \"placement\"]")?;
        } else {
            writeln!(f, "[{SETUP} \"position\"]")?;
            writeln!(f, "[{POSITION} \"{}\"]", self.start)?;
        }
        writeln!(f, "[{RESULT} \"{}\"]", self.result)?;
        writeln!(f)?;
        let mut filled = self.clone();
        filled.fill_forced_placement();
        // In the order of their places (the field is public).
        filled.comments.sort_by_key(|comment| comment.after);
        let moves = &filled.moves;
        // The pair of plies in which the first movement (or pass) falls
        // starts a line, when placements come before it.
        let break_pair = moves.iter().position(|mv| !mv.is_placement()).filter(|&ply| ply >= 2).map(|ply| ply / 2);
        let mut words = Vec::new();
        let mut comments = filled.comments.iter().peekable();
        for ply in 0..=moves.len() {
            while let Some(comment) = comments.next_if(|comment| comment.after <= ply || ply == moves.len()) {
                comment_words(&mut words, &comment_text(&comment.text));
            }
            let Some(mv) = moves.get(ply) else { break };
            if ply % 2 == 0 {
                let break_before = break_pair == Some(ply / 2) || (ply == 0 && !words.is_empty());
                words.push((format!("{}. {mv}", ply / 2 + 1), break_before));
            } else {
                words.push((mv.to_string(), false));
            }
        }
        let mut text = String::new();
        words.push((self.result.to_string(), false));
        wrap_words(&mut text, words);
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        GameRecord::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn results_read_and_write() {
        for text in ["24-19", "0-0", "*", "resign-w", "resign-b", "49-0"] {
            assert_eq!(text.parse::<RecordResult>().unwrap().to_string(), text);
        }
        for text in ["", "24", "24-", "-19", "25-25", "100-1", "24-19-1", "resign", "1+1", " 1-1"] {
            let message = text.parse::<RecordResult>().unwrap_err().to_string();
            assert!(message.contains("is not a result"), "{text}: {message}");
        }
    }

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
    fn move_numbers_are_optional_and_ignored() {
        let a = GameRecord::parse("1. E3 D3 2. C3").unwrap();
        let b = GameRecord::parse("E3 D3 C3").unwrap();
        let c = GameRecord::parse("1.E3 D3 7.C3").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(
            error("1... E3"),
            "line 1, column 1: bad move number \"1...\": a move number is digits and one '.', like 25."
        );
        assert_eq!(
            error("E3 12 D3"),
            "line 1, column 4: bad move number \"12\": a move number is digits and one '.', like 25."
        );
        assert_eq!(
            error("1.2.E3"),
            "line 1, column 1: bad move number \"1.2.E3\": a move number is digits and one '.', like 25."
        );
        assert_eq!(
            error(&"1.".repeat(500_000)),
            format!(
                "line 1, column 1: bad move number \"{}\": a move number is digits and one '.', like 25.",
                "1.".repeat(12)
            )
        );
    }

    #[test]
    fn every_error_kind_says_what_and_where() {
        let cases: &[(&str, &str)] = &[
            (
                "[",
                "line 1, column 2: bad tag syntax: expected a tag name after '[' (a tag is [Name \"value\"], one per line)",
            ),
            (
                "[White]",
                "line 1, column 7: bad tag syntax: expected a value in double quotes after the tag name (a tag is [Name \"value\"], one per line)",
            ),
            (
                "[White \"x\"",
                "line 1, column 11: bad tag syntax: expected ']' after the tag value (a tag is [Name \"value\"], one per line)",
            ),
            (
                "[White \"x\"] [Black \"y\"]",
                "line 1, column 13: bad tag syntax: text after ']': tags go one per line (a tag is [Name \"value\"], one per line)",
            ),
            (
                "[Wh-ite \"x\"]",
                "line 1, column 2: bad tag name \"Wh-ite\": a name is an ASCII letter followed by ASCII letters, digits or '_'",
            ),
            ("\n[White \"x]\n", "line 2, column 8: unterminated string: the tag value has no closing '\"' on its line"),
            ("[White \"a\\nb\"]", "line 1, column 10: bad escape '\\n' in a tag value: only \\\" and \\\\ are escapes"),
            ("E3 {never closed", "line 1, column 4: unterminated comment: '{' without a matching '}'"),
            ("E3 D3}", "line 1, column 6: '}' outside a comment"),
            ("[White \"a\"]\n[White \"b\"]", "line 2, column 2: the tag White appears twice"),
            ("E3\n[White \"a\"]", "line 2, column 1: a tag after the moves: tags come first"),
            (
                "[Setup \"random\"]",
                "line 1, column 9: unknown Setup value \"random\": expected \"placement\" or \"position\"",
            ),
            (
                "[Setup \"position\"]\nE3",
                "line 1, column 9: Setup \"position\" needs a Position tag holding the position string the game starts from",
            ),
            (
                "[Setup \"placement\"]\n[Position \"........./........../.........../........../......... w p\"]",
                "line 2, column 12: Setup \"placement\" starts from the empty board, but there is a Position tag",
            ),
            (
                "[Position \"........./........../.........../........../........ w p\"]",
                "line 1, column 64: bad Position tag: board, column 53: row 1 has 8 cells; it must have 9 (A1..I1)",
            ),
            (
                "1. E3 D3 2. Z9",
                "line 1, column 13: move 2 (ply 2): \"Z9\" is not a move: a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells",
            ),
            (
                "[Result \"1-0-0\"]",
                "line 1, column 10: bad Result value: \"1-0-0\" is not a result: expected piece counts W-B (like 24-19, at most 49 pieces in all), * (unfinished), resign-w or resign-b",
            ),
            (
                "E3 30-30",
                "line 1, column 4: bad Result value: \"30-30\" is not a result: expected piece counts W-B (like 24-19, at most 49 pieces in all), * (unfinished), resign-w or resign-b",
            ),
            ("[Result \"24-19\"]\n\nE3 *", "line 3, column 4: the result token * disagrees with the Result tag 24-19"),
            ("E3 * D3", "line 1, column 6: text after the result token: the result ends the moves"),
        ];
        for (text, expected) in cases {
            assert_eq!(&error(text), expected, "{text:?}");
        }
        let long = "E3 ".repeat(MAX_PLIES + 1);
        assert_eq!(
            error(&long),
            format!("line 1, column {}: more than 1000 moves: no game of DVONN is that long", 3 * MAX_PLIES + 1)
        );
    }

    #[test]
    fn the_result_token_gives_the_result_without_a_tag() {
        let record = GameRecord::parse("E3 D3 resign-b {Black gave up}").unwrap();
        assert_eq!(record.result, RecordResult::Resigned(Color::Black));
        let record = GameRecord::parse("[Result \"resign-b\"]\nE3 D3 resign-b").unwrap();
        assert_eq!(record.result, RecordResult::Resigned(Color::Black));
    }

    #[test]
    fn columns_count_characters_and_skip_the_byte_order_mark() {
        assert_eq!(
            error("\u{feff}[Événement \"x\"]"),
            "line 1, column 2: bad tag name \"Événement\": a name is an ASCII letter followed by ASCII letters, digits or '_'"
        );
        assert_eq!(
            error("[White \"Ünïcödé\"] x"),
            "line 1, column 19: bad tag syntax: text after ']': tags go one per line (a tag is [Name \"value\"], one per line)"
        );
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
        // A comment pushed by hand, out of order and untidy, is written tidy.
        record.comments.insert(0, Comment { after: 1, text: " a}b ".into() });
        let read = GameRecord::parse(&record.to_string()).unwrap();
        assert_eq!(read.comments[0], Comment { after: 1, text: "a)b".into() });
    }

    #[test]
    fn the_forced_placement_is_filled_in_by_replay_and_writing() {
        // Place 48 pieces row by row, leave K5 empty, then move.
        let cells: Vec<_> = dvonn_core::Cell::ALL.iter().take(48).map(|c| Move::Place(*c)).collect();
        let mut record = GameRecord::new(Position::new());
        record.moves = cells;
        // After 48 placements White places on K5 (forced) and moves first.
        let mut position = Position::new();
        for mv in &record.moves {
            position.play(*mv).unwrap();
        }
        position.play(Move::Place("K5".parse().unwrap())).unwrap();
        let first = position.legal_moves()[0];
        record.moves.push(first);
        let replay = record.replay().unwrap();
        assert_eq!(replay.moves.len(), 50);
        assert_eq!(replay.moves[48], Move::Place("K5".parse().unwrap()));
        let text = record.to_string();
        assert!(text.contains(&format!("25. K5 {first}")), "{text}");
        let mut filled = record.clone();
        filled.fill_forced_placement();
        assert_eq!(filled.moves, replay.moves);
        assert_eq!(GameRecord::parse(&text).unwrap(), filled);
        // Comments after the missing placement move with the moves.
        record.add_comment(48, "last placement");
        record.add_comment(49, "first movement");
        let read = GameRecord::parse(&record.to_string()).unwrap();
        let places: Vec<usize> = read.comments.iter().map(|comment| comment.after).collect();
        assert_eq!(places, [48, 50]);
        assert_eq!(read.moves[49], first);
    }
}
