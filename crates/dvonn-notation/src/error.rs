//! What is wrong with a text read as a game, and where: [`ParseError`],
//! the one error of every reader of this crate.

use dvonn_core::{Color, MoveParseError, OutcomeParseError, PositionParseError};

use crate::text::{MAX_PLIES, line_col};

/// A text that could not be read as a game: what is wrong
/// ([`ParseErrorKind`]), and where (1-based line and column, columns
/// counted in characters).
///
/// ```
/// use dvonn_notation::{GameRecord, ParseErrorKind};
/// let error = GameRecord::parse("[White \"Ann\"]\n1. E3 Q9").unwrap_err();
/// assert_eq!((error.line, error.column), (2, 7));
/// assert!(matches!(error.kind, ParseErrorKind::NotAMove { number: Some(1), ply: 1, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
#[non_exhaustive]
pub struct ParseError {
    /// The line of the problem.
    pub line: usize,
    /// The column of the problem.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// The error `kind` at the byte `offset` of `text`.
    pub(crate) fn at(text: &str, offset: usize, kind: ParseErrorKind) -> ParseError {
        let (line, column) = line_col(text, offset);
        ParseError { line, column, kind }
    }
}

/// What is wrong with a text read as a game: the problems every format
/// shares (the moves), then those of each format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    // The moves, in any format.
    /// A word that is not a move.
    #[error("{}: {error}", which_move(.number, .ply))]
    NotAMove {
        /// The move number it would have (none in a CodeCup log, which
        /// does not number moves).
        number: Option<usize>,
        /// The ply it would be (the forced 49th placement counted).
        ply: usize,
        /// Why it is not a move.
        error: MoveParseError,
    },
    /// A move number not of the form `digits.`.
    #[error("bad move number {0:?}: a move number is digits and one '.', like 25.")]
    BadMoveNumber(String),
    /// More moves than any game has.
    #[error("more than {MAX_PLIES} moves: no game of DVONN is that long")]
    TooManyMoves,

    // The game record.
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
    /// A `Result` tag or result token that is not a result.
    #[error("bad Result value: {0}")]
    BadResult(OutcomeParseError),
    /// A result token that disagrees with the `Result` tag.
    #[error("the result token {token} disagrees with the Result tag {tag}")]
    ResultTokenMismatch {
        /// The `Result` tag.
        tag: dvonn_core::Outcome,
        /// The result token.
        token: dvonn_core::Outcome,
    },
    /// Something else than a comment after the result token.
    #[error("text after the result token: the result ends the moves")]
    TextAfterResult,

    // Little Golem transcripts.
    /// A metadata value without its `]`.
    #[error("the value of {0} has no closing ']'")]
    UnterminatedMetadata(String),
    /// A `[` without a key before it.
    #[error("'[' without a key before it: metadata is Key [value]")]
    MissingKey,
    /// Metadata after the first move.
    #[error("metadata after the moves: Key [value] pairs come first")]
    MetadataAfterMoves,
    /// Something after `resign`.
    #[error("text after resign: a resignation ends the game")]
    TextAfterResign,

    // BoardSpace SGF records.
    /// Text that does not follow the SGF grammar.
    #[error("SGF syntax: {0}")]
    SgfSyntax(&'static str),
    /// A character where none is expected.
    #[error("SGF syntax: unexpected {0:?}")]
    UnexpectedChar(char),
    /// A `[` without its `]`.
    #[error("unterminated property value: '[' without a matching ']'")]
    UnterminatedProperty,
    /// A record of another game.
    #[error("not a DVONN game: {0}")]
    NotDvonn(String),
    /// An action this reader does not know.
    #[error("unknown action {0:?}")]
    UnknownAction(String),
    /// An action with bad arguments.
    #[error("bad action {text:?}: {reason}")]
    BadAction {
        /// The action.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// An action that cannot be followed.
    #[error("unsupported action {0:?}: {1}")]
    Unsupported(String, &'static str),
    /// A turn ended by the player whose turn it is not.
    #[error("{player} ends ply {ply}, but it is {expected}'s turn (P0 is White, P1 Black)")]
    WrongPlayer {
        /// `P0` or `P1`.
        player: &'static str,
        /// The ply.
        ply: usize,
        /// The player to move.
        expected: Color,
    },
    /// A `CA` property naming a charset this reader does not know.
    #[error("unsupported charset {0:?} (CA): this reader knows UTF-8 and ISO-8859-1 (Latin-1)")]
    UnsupportedCharset(String),
    /// A byte that is not UTF-8 in a file declared UTF-8 (by `CA` or by its
    /// byte-order mark, which this names).
    #[error("{0} says the file is UTF-8, but this byte is not")]
    NotUtf8(&'static str),

    // CodeCup logs.
    /// `Start` after the first move or twice.
    #[error("Start comes only at the beginning of a log")]
    MisplacedStart,
    /// A move after `Quit`.
    #[error("{0:?} after Quit: Quit ends the game")]
    TextAfterQuit(String),
}

/// How a move that is not one is named: `move 2 (ply 2)`, or `ply 2` in a
/// format without move numbers.
fn which_move(number: &Option<usize>, ply: &usize) -> String {
    match number {
        Some(number) => format!("move {number} (ply {ply})"),
        None => format!("ply {ply}"),
    }
}
