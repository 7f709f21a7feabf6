//! The reader of game records: one pass over the text, checking the
//! syntax (and that a `Position` tag holds a position a game can reach).

use std::collections::HashSet;

use dvonn_core::{Move, Outcome, Position};

use super::{Comment, GameRecord, MAX_PLIES, POSITION, RESULT, SETUP, comment_text, is_valid_tag_name};
use crate::error::{ParseError, ParseErrorKind};
use crate::scan::{ScanError, TAG_VALUE, unescape, value_end};
use crate::text::{advance_chars, excerpt, is_space, strip_bom};

/// Reads the record `text` (see [`GameRecord::parse`]).
pub(super) fn parse(text: &str) -> Result<GameRecord, ParseError> {
    Parser::new(text).parse()
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
    result_tag: Option<Outcome>,
    result_token: Option<Outcome>,
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

    fn error(&self, at: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.text, at, kind)
    }

    fn parse(mut self) -> Result<GameRecord, ParseError> {
        loop {
            while self.bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
                self.pos += 1;
            }
            match self.bytes.get(self.pos) {
                None => break,
                Some(b'{') => self.read_comment()?,
                Some(b'[') if !self.in_moves => self.parse_tag()?,
                Some(b'[') => return Err(self.error(self.pos, ParseErrorKind::TagAfterMoves)),
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
        let result = self.result_tag.or(self.result_token).unwrap_or(Outcome::Unfinished);
        Ok(GameRecord { tags: self.tags, start, moves: self.moves, comments: self.comments, result })
    }

    /// Reads the comment that starts at `self.pos`, which stands after the
    /// moves read so far.
    fn read_comment(&mut self) -> Result<(), ParseError> {
        let open = self.pos;
        let Some(at) = self.text[open..].find('}') else {
            return Err(self.error(open, ParseErrorKind::UnterminatedComment));
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
    fn parse_tag(&mut self) -> Result<(), ParseError> {
        use ParseErrorKind::*;
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
        let value_at = quote + 1;
        let end = value_end(self.bytes, value_at, TAG_VALUE).map_err(|error| match error {
            ScanError::Unterminated => self.error(quote, UnterminatedString),
            ScanError::BadEscape(at) => {
                let c = self.text[at + 1..].chars().next().unwrap_or('\\');
                self.error(at, BadEscape(c))
            }
        })?;
        let value = unescape(&self.text[value_at..end]);
        self.pos = end + 1;
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
            RESULT => match value.parse::<Outcome>() {
                Ok(result) => self.result_tag = Some(result),
                Err(error) => return Err(self.error(value_at, BadResult(error))),
            },
            _ => self.tags.push((name.to_string(), value)),
        }
        Ok(())
    }

    /// Checks that the `Setup` and `Position` tags agree, once all tags are read.
    fn check_setup(&self) -> Result<(), ParseError> {
        match (self.setup, self.position) {
            (Some((SetupTag::Position, at)), None) => Err(self.error(at, ParseErrorKind::MissingPosition)),
            (Some((SetupTag::Placement, _)), Some((_, at))) => {
                Err(self.error(at, ParseErrorKind::PositionWithPlacement))
            }
            _ => Ok(()),
        }
    }

    /// Handles the word `text[start..end]` of the moves.
    fn token(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        use ParseErrorKind::*;
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
    fn word(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        use ParseErrorKind::*;
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
            Err(error) => Err(self.error(start, NotAMove { number: Some(ply / 2 + 1), ply, error })),
        }
    }

    /// Handles the result token `word` at `start`.
    fn result(&mut self, start: usize, word: &str) -> Result<(), ParseError> {
        let token = word.parse::<Outcome>().map_err(|e| self.error(start, ParseErrorKind::BadResult(e)))?;
        if let Some(tag) = self.result_tag
            && tag != token
        {
            return Err(self.error(start, ParseErrorKind::ResultTokenMismatch { tag, token }));
        }
        self.result_token = Some(token);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Color;

    fn error(text: &str) -> String {
        GameRecord::parse(text).unwrap_err().to_string()
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
        assert_eq!(record.result, Outcome::Resigned(Color::Black));
        let record = GameRecord::parse("[Result \"resign-b\"]\nE3 D3 resign-b").unwrap();
        assert_eq!(record.result, Outcome::Resigned(Color::Black));
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
}
