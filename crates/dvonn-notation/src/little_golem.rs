//! Little Golem transcripts: read and write.
//!
//! Little Golem (littlegolem.net) gives a DVONN game as a transcript like
//! this one (a real game, `resources/games/demo.txt` of the public
//! `kobuz/dvonnalyzer` repository, here wrapped):
//!
//! ```text
//! Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net]
//! White [CleverHunk steven cullum] Black [Xander (xandern .BSW)]
//! 1. g2 c1 2. f5 d1 3. h5 g5 ... 24. k4 b4 25. a2b2 b3b2 26. k5j4 e5e4 ...
//! 35. pass c2d2 36. pass f4e3 37. pass e3e1 38. resign
//! ```
//!
//! The layout, as that game and the public tools that read and write the
//! format (`tools/dvonn-tool.py` of `maksverver/PrimaDvonna`, which fetched
//! games from `littlegolem.net/servlet/sgf/<id>/game.txt`) show it:
//!
//! - Metadata first: `Key [value]` pairs (the key a word, the value anything
//!   up to `]`), on one line or on several.
//! - Then the moves in lower case (`g2`, `a2b2`, `pass`), each White move
//!   preceded by its number `N.`.
//! - The 49th placement (White's forced last one, ply 48) is left out, and
//!   numbering goes on as if it were there: the number before ply `p` is
//!   `p / 2 + 1`, written before White's plies, so the 24 pairs of plies
//!   0..47 are `1.` to `24.` and `25.` pairs White's first movement (ply
//!   49) with Black's reply.
//! - `resign` in a player's turn ends the game: that player resigned.
//!
//! Reading maps the metadata to tags of the same name (`Event`, `Site`,
//! `White`, `Black`, and any other key as it is; a key that is not a valid
//! tag name or is reserved (`Setup`, `Position`, `Result`) gets the prefix
//! `LG`, its other characters than ASCII letters, digits and `_` turned into
//! `_`). Move numbers are read and ignored. The forced placement is filled
//! in, also when the transcript ends right after the 48th placement (Little
//! Golem then shows White to make the first movement). A transcript has no result: when the moves replay legally to the end
//! of the game the score becomes the result, and `resign` gives
//! [`Outcome::Resigned`].
//!
//! Writing gives the metadata one pair per line, then all the moves on one
//! line (as the tools above expect), with Little Golem's numbering and the
//! 49th placement left out.

use crate::error::{ParseError, ParseErrorKind};
use crate::record::{GameRecord, is_reserved_tag, is_valid_tag_name};
use crate::text::{MAX_PLIES, excerpt, is_space, mover_of_ply, strip_bom, with_forced_placement};
use crate::{Format, WriteError, fill_result};
use dvonn_core::Bitboard;
use dvonn_core::Color;
use dvonn_core::Move;
use dvonn_core::Outcome;
use dvonn_core::Position;
use dvonn_core::TOTAL_PIECES;

/// The tag name for the Little Golem key `key`: the key itself when it is
/// a valid tag name and not reserved, else `LG` and the key with every
/// character other than ASCII letters, digits and `_` turned into `_`.
fn tag_name(key: &str) -> String {
    if is_valid_tag_name(key) && !is_reserved_tag(key) {
        return key.to_string();
    }
    let clean: String = key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    format!("LG{clean}")
}

/// The ply a transcript's `count`-th move is (from 0), given whether its
/// 49th move is the 49th placement (some transcripts keep it).
fn true_ply(count: usize, has_last_placement: bool) -> usize {
    if count >= usize::from(TOTAL_PIECES) - 1 && !has_last_placement { count + 1 } else { count }
}

/// Little Golem's move number of ply `ply`.
const fn move_number(ply: usize) -> usize {
    ply / 2 + 1
}

/// Reads a Little Golem transcript into a record from the empty board.
///
/// ```
/// use dvonn_notation::little_golem;
/// let record = little_golem::read("Event [Friendly]\nWhite [ann] Black [bob]\n1. g2 c1 2. f5 d1 3. resign").unwrap();
/// assert_eq!(record.tag("White"), Some("ann"));
/// assert_eq!(record.moves.len(), 4);
/// assert_eq!(record.result, dvonn_core::Outcome::Resigned(dvonn_core::Color::White));
/// ```
pub fn read(text: &str) -> Result<GameRecord, ParseError> {
    let text = strip_bom(text);
    let bytes = text.as_bytes();
    let error = |at: usize, kind| ParseError::at(text, at, kind);
    let mut record = GameRecord::new(Position::new());
    let mut resigned: Option<Color> = None;
    let mut pos = 0;
    loop {
        while bytes.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        if pos >= bytes.len() {
            break;
        }
        let start = pos;
        while bytes.get(pos).is_some_and(|&b| !is_space(b) && b != b'[') {
            pos += 1;
        }
        let word = &text[start..pos];
        if word.is_empty() {
            return Err(error(start, ParseErrorKind::MissingKey));
        }
        // A key is a word followed (after white space) by `[`.
        let mut after = pos;
        while bytes.get(after).is_some_and(|&b| is_space(b)) {
            after += 1;
        }
        if bytes.get(after) == Some(&b'[') {
            if !record.moves.is_empty() || resigned.is_some() {
                return Err(error(start, ParseErrorKind::MetadataAfterMoves));
            }
            let value_at = after + 1;
            let Some(close) = text[value_at..].find(']') else {
                return Err(error(after, ParseErrorKind::UnterminatedMetadata(excerpt(word))));
            };
            let value = text[value_at..value_at + close].trim();
            record.set_tag(&tag_name(word), value);
            pos = value_at + close + 1;
            continue;
        }
        if resigned.is_some() {
            return Err(error(start, ParseErrorKind::TextAfterResign));
        }
        let has_last_placement = record.moves.get(usize::from(TOTAL_PIECES) - 1).is_some_and(|m| m.is_placement());
        let ply = true_ply(record.moves.len(), has_last_placement);
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            if digits + 1 == word.len() && word.ends_with('.') {
                continue;
            }
            return Err(error(start, ParseErrorKind::BadMoveNumber(excerpt(word))));
        }
        if word.eq_ignore_ascii_case("resign") {
            resigned = Some(mover_of_ply(ply));
            continue;
        }
        match word.parse::<Move>() {
            Ok(_) if record.moves.len() >= MAX_PLIES => {
                return Err(error(start, ParseErrorKind::TooManyMoves));
            }
            Ok(mv) => record.moves.push(mv),
            Err(e) => {
                return Err(error(start, ParseErrorKind::NotAMove { number: Some(move_number(ply)), ply, error: e }));
            }
        }
    }
    record.fill_forced_placement();
    // Right after 48 placements Little Golem shows White to make the first
    // movement: the forced placement is made.
    let cells: Bitboard = record.moves.iter().filter_map(|mv| if mv.is_placement() { mv.to() } else { None }).collect();
    if record.moves.len() + 1 == usize::from(TOTAL_PIECES)
        && cells.len() == u32::from(TOTAL_PIECES) - 1
        && let Some(cell) = (!cells).first()
    {
        record.moves.push(Move::Place(cell));
    }
    match resigned {
        Some(color) => record.result = Outcome::Resigned(color),
        None => fill_result(&mut record),
    }
    Ok(record)
}

/// Writes `record` as a Little Golem transcript. Little Golem games start
/// from the empty board, and a resignation can only be written in the
/// resigning player's turn.
///
/// ```
/// use dvonn_notation::{GameRecord, little_golem};
/// let mut record = GameRecord::parse("E3 D3 C3").unwrap();
/// record.set_tag("White", "ann");
/// assert_eq!(little_golem::write(&record).unwrap(), "White [ann]\n1. e3 d3 2. c3\n");
/// ```
pub fn write(record: &GameRecord) -> Result<String, WriteError> {
    let format = Format::LittleGolem;
    if record.start != Position::new() {
        return Err(WriteError::NonStandardStart { format, start: record.start.to_string() });
    }
    let mut out = String::new();
    for (name, value) in record.tags.iter().filter(|(name, _)| !is_reserved_tag(name)) {
        if value.contains([']', '\n', '\r']) {
            let what = format!("the value of {name} holds ']' or a line break");
            return Err(WriteError::Unrepresentable { format, what });
        }
        out.push_str(&format!("{name} [{value}]\n"));
    }
    let filled = with_forced_placement(&record.start, &record.moves);
    let moves = filled.as_deref().unwrap_or(&record.moves);
    let last_placement = usize::from(TOTAL_PIECES) - 1;
    let mut words: Vec<String> = Vec::new();
    let mut push = |ply: usize, word: String| {
        if mover_of_ply(ply) == Color::White {
            words.push(format!("{}.", move_number(ply)));
        }
        words.push(word);
    };
    for (ply, mv) in moves.iter().enumerate() {
        if ply == last_placement && mv.is_placement() {
            continue;
        }
        push(ply, mv.to_string().to_ascii_lowercase());
    }
    if let Outcome::Resigned(color) = record.result {
        // The ply after the last move (after 48 placements it is White's
        // turn whether or not the forced placement is counted).
        let ply = moves.len();
        if mover_of_ply(ply) != color {
            let what = format!("{color} resigned in {}'s turn", mover_of_ply(ply));
            return Err(WriteError::Unrepresentable { format, what });
        }
        push(ply, "resign".to_string());
    }
    out.push_str(&words.join(" "));
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real Little Golem game (see the module documentation).
    const DEMO: &str = "Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net] White [CleverHunk steven cullum] Black [Xander (xandern .BSW)] 1. g2 c1 2. f5 d1 3. h5 g5 4. i1 e1 5. f2 f1 6. e4 e5 7. j2 g1 8. b2 b1 9. h1 g4 10. d3 c2 11. e3 f4 12. c4 d4 13. a2 a1 14. d2 e2 15. a3 g3 16. d5 f3 17. i5 c3 18. h2 h3 19. k3 h4 20. k5 i4 21. i3 j5 22. i2 b3 23. j4 j3 24. k4 b4 25. a2b2 b3b2 26. k5j4 e5e4 27. a3b4 d4d3 28. j4h4 j3i3 29. h5g4 g5g4 30. b4b2 g1h2 31. c4c3 h2f2 32. b2g2 i3i5 33. c3c1 b1c1 34. h4e4 h3g2 35. pass c2d2 36. pass f4e3 37. pass e3e1 38. resign\n";

    #[test]
    fn a_real_game_replays_legally() {
        let record = read(DEMO).unwrap();
        assert_eq!(record.tag("Event"), Some("Tournament dvonn.mc.2014.may.1.1"));
        assert_eq!(record.tag("Site"), Some("www.littlegolem.net"));
        assert_eq!(record.tag("White"), Some("CleverHunk steven cullum"));
        assert_eq!(record.tag("Black"), Some("Xander (xandern .BSW)"));
        assert_eq!(record.result, Outcome::Resigned(Color::White));
        // 48 placements + the forced one + 26 movement plies.
        assert_eq!(record.moves.len(), 49 + 26);
        let game = record.replay().unwrap();
        assert_eq!(game.moves().collect::<Vec<_>>(), record.moves);
        assert!(!game.position().is_game_over());
        assert_eq!(game.outcome(), Outcome::Resigned(Color::White));
        // Writing gives the same moves and numbering back.
        let written = write(&record).unwrap();
        assert!(written.ends_with("35. pass c2d2 36. pass f4e3 37. pass e3e1 38. resign\n"), "{written}");
        assert!(written.contains("24. k4 b4 25. a2b2 b3b2"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases: &[(&str, &str)] = &[
            ("Event [x", "line 1, column 7: the value of Event has no closing ']'"),
            ("1. g2 Event [x]", "line 1, column 7: metadata after the moves: Key [value] pairs come first"),
            (
                "1. g2 c1 2. zzz",
                "line 1, column 13: move 2 (ply 2): \"zzz\" is not a move: expected a cell (E3), two cells (C3E3 or C3-E3) or PASS",
            ),
            ("1) g2", "line 1, column 1: bad move number \"1)\": a move number is digits and one '.', like 25."),
            ("1. resign c1", "line 1, column 11: text after resign: a resignation ends the game"),
            ("[x]", "line 1, column 1: '[' without a key before it: metadata is Key [value]"),
        ];
        for (text, expected) in cases {
            assert_eq!(read(text).unwrap_err().to_string(), *expected, "{text:?}");
        }
    }

    #[test]
    fn a_game_right_after_placement_round_trips() {
        let placements: Vec<String> = dvonn_core::Cell::ALL.iter().map(|c| c.to_string()).collect();
        let mut record = GameRecord::parse(&placements.join(" ")).unwrap();
        assert_eq!(record.moves.len(), 49);
        let written = write(&record).unwrap();
        assert!(written.ends_with("24. i5 j5\n"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
        record.result = Outcome::Resigned(Color::White);
        let written = write(&record).unwrap();
        assert!(written.ends_with("24. i5 j5 25. resign\n"), "{written}");
        assert_eq!(read(&written).unwrap(), record);
        record.moves.pop();
        assert_eq!(write(&record).unwrap(), written, "with or without the forced placement");
        record.result = Outcome::Resigned(Color::Black);
        assert_eq!(
            write(&record).unwrap_err().to_string(),
            "a Little Golem transcript cannot hold this game: Black resigned in White's turn"
        );
    }

    #[test]
    fn reserved_and_odd_keys_get_a_prefix() {
        let record = read("Result [1-0] Site [x] 2nd [y] Time-control [3 days]").unwrap();
        assert_eq!(record.tag("LGResult"), Some("1-0"));
        assert_eq!(record.tag("LG2nd"), Some("y"));
        assert_eq!(record.tag("LGTime_control"), Some("3 days"));
        assert_eq!(record.result, Outcome::Unfinished);
    }
}
