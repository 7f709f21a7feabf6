//! CodeCup logs: the moves of a game as the CodeCup 2011 DVONN competition
//! passed them between the referee and the players. Read and write.
//!
//! The CodeCup 2011 protocol sends one move per line in the move syntax of
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#cells-and-moves)
//! (`E3`, `C3E3`, `PASS`): the referee sends `Start` to White to ask for its
//! first move, relays each move to the other player, and sends `Quit` when
//! the game is over. All 49 placements are sent, the forced last one
//! included. A log of a game is those lines:
//!
//! ```text
//! Start
//! K5
//! B3
//! ...
//! H3H4
//! Quit
//! ```
//!
//! The reader also accepts the two other move lists in the wild (both known
//! from the public `maksverver/PrimaDvonna` repository, the CodeCup 2011
//! winner):
//!
//! - several moves on a line, separated by white space or commas: the game
//!   pages of codecup.nl give a game's moves as one comma-separated list
//!   (`D2,C1,K5,...`, the `moves` parameter of their game viewer, which
//!   `tools/codecup-scrape.sh` reads);
//! - `#` comment lines, as the logs of that repository's arbiter (which
//!   speaks the CodeCup protocol) write them: `# Player 1: <program>` and
//!   `# Player 2: <program>` give the `White` and `Black` tags, and
//!   `# Score: 13 - 13. ...` the result; other comments are ignored.
//!
//! Rules of reading: blank lines are ignored; `Start` may only come first
//! and nothing but comments and blank lines may follow `Quit`; moves may be
//! in either case. A log without a score gets the result of its moves when
//! they replay legally to the end of the game.
//!
//! The writer gives `Start`, one move per line (the forced last placement
//! included), and `Quit` when the record's result is a score. Tags are not
//! written (the protocol has no place for them), and a resignation cannot
//! be written (the protocol has none).

use crate::error::{ParseError, ParseErrorKind};
use crate::record::GameRecord;
use crate::text::{MAX_PLIES, excerpt, strip_bom, with_forced_placement};
use crate::{Format, WriteError, fill_result};
use dvonn_core::Move;
use dvonn_core::Outcome;
use dvonn_core::Position;

/// Reads what an arbiter comment line (`# ...`, without the `#`) says.
fn read_comment(record: &mut GameRecord, comment: &str) {
    let comment = comment.trim();
    if let Some(name) = comment.strip_prefix("Player 1:") {
        record.set_tag("White", name.trim());
    } else if let Some(name) = comment.strip_prefix("Player 2:") {
        record.set_tag("Black", name.trim());
    } else if let Some(score) = comment.strip_prefix("Score:") {
        // `13 - 13. Time: ...`
        let mut numbers = score.split(|c: char| !c.is_ascii_digit()).filter(|part| !part.is_empty());
        let text = match (numbers.next(), numbers.next()) {
            (Some(white), Some(black)) => format!("{white}-{black}"),
            _ => return,
        };
        if let Ok(result @ Outcome::Score { .. }) = text.parse() {
            record.result = result;
        }
    }
}

/// Reads a CodeCup log into a record from the empty board.
///
/// ```
/// use dvonn_notation::codecup;
/// let record = codecup::read("Start\nE3\nd3\n\nC3,F3\n").unwrap();
/// assert_eq!(record.moves.len(), 4);
/// assert_eq!(record.moves[1].to_string(), "D3");
/// ```
pub fn read(text: &str) -> Result<GameRecord, ParseError> {
    let text = strip_bom(text);
    let error = |at: usize, kind| ParseError::at(text, at, kind);
    let mut record = GameRecord::new(Position::new());
    let mut started = false;
    let mut quit = false;
    let mut line_at = 0;
    for line in text.split_inclusive('\n') {
        let offset = line_at;
        line_at += line.len();
        let trimmed = line.trim_start();
        if let Some(comment) = trimmed.strip_prefix('#') {
            read_comment(&mut record, comment);
            continue;
        }
        let mut word_at = offset;
        for word in line.split(|c: char| c.is_ascii_whitespace() || c == ',') {
            let at = word_at;
            word_at += word.len() + 1;
            if word.is_empty() {
                continue;
            }
            if quit {
                return Err(error(at, ParseErrorKind::TextAfterQuit(excerpt(word))));
            }
            if word.eq_ignore_ascii_case("start") {
                if started || !record.moves.is_empty() {
                    return Err(error(at, ParseErrorKind::MisplacedStart));
                }
                started = true;
                continue;
            }
            if word.eq_ignore_ascii_case("quit") {
                quit = true;
                continue;
            }
            let ply = record.moves.len();
            match word.parse::<Move>() {
                Ok(_) if ply >= MAX_PLIES => return Err(error(at, ParseErrorKind::TooManyMoves)),
                Ok(mv) => record.moves.push(mv),
                Err(e) => return Err(error(at, ParseErrorKind::NotAMove { number: None, ply, error: e })),
            }
        }
    }
    record.fill_forced_placement();
    fill_result(&mut record);
    Ok(record)
}

/// Writes `record` as a CodeCup log: `Start`, one move per line, and `Quit`
/// when the result is a score.
///
/// ```
/// use dvonn_notation::{GameRecord, codecup};
/// let record = GameRecord::parse("E3 D3 C3").unwrap();
/// assert_eq!(codecup::write(&record).unwrap(), "Start\nE3\nD3\nC3\n");
/// ```
pub fn write(record: &GameRecord) -> Result<String, WriteError> {
    let format = Format::CodeCup;
    if record.start != Position::new() {
        return Err(WriteError::NonStandardStart { format, start: record.start.to_string() });
    }
    if let Outcome::Resigned(color) = record.result {
        let what = format!("{color} resigned, and the CodeCup protocol has no resignation");
        return Err(WriteError::Unrepresentable { format, what });
    }
    let filled = with_forced_placement(&record.start, &record.moves);
    let moves = filled.as_deref().unwrap_or(&record.moves);
    let mut out = String::from("Start\n");
    for mv in moves {
        out.push_str(&mv.to_string());
        out.push('\n');
    }
    if matches!(record.result, Outcome::Score { .. }) {
        out.push_str("Quit\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arbiter_logs_give_players_and_score() {
        let log = "# Player 1: ./player --eval=1\n# Player 2: dvonner\nE3 D3 C3\n# Score: 13 - 11. Time: 1.0s - 2.0s. Player 1 won!\n";
        let record = read(log).unwrap();
        assert_eq!(record.tag("White"), Some("./player --eval=1"));
        assert_eq!(record.tag("Black"), Some("dvonner"));
        assert_eq!(record.result, Outcome::Score { white: 13, black: 11 });
        assert_eq!(record.moves.len(), 3);
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases: &[(&str, &str)] = &[
            ("E3\nStart\n", "line 2, column 1: Start comes only at the beginning of a log"),
            ("Start\nStart\n", "line 2, column 1: Start comes only at the beginning of a log"),
            ("Start\nE3\nQuit\nD3\n", "line 4, column 1: \"D3\" after Quit: Quit ends the game"),
            (
                "Start\nE3\n  D3,X7\n",
                "line 3, column 6: ply 2: \"X7\" is not a move: a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(read(text).unwrap_err().to_string(), *expected, "{text:?}");
        }
    }

    #[test]
    fn resignations_and_setups_cannot_be_written() {
        let mut record = GameRecord::parse("E3 resign-b").unwrap();
        assert_eq!(
            write(&record).unwrap_err().to_string(),
            "a CodeCup log cannot hold this game: Black resigned, and the CodeCup protocol has no resignation"
        );
        record.result = Outcome::Unfinished;
        record.start = Position::random_setup_from_seed(1);
        record.moves.clear();
        assert!(write(&record).unwrap_err().to_string().starts_with("a CodeCup log starts from the empty board, not "));
    }
}
