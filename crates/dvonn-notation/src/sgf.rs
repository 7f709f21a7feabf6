//! BoardSpace SGF records of DVONN games: read (BoardSpace is the only
//! source of such files, and this crate has no reason to write them).
//!
//! **Provenance.** No real BoardSpace DVONN game file could be found in the
//! public material searched (code, issues, documentation and web pages), so
//! this reader is written from the format contract's short description of
//! these files (now in
//! [NOTATION.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#boardspace-sgf-read-only)),
//! from the structure of
//! BoardSpace records of other games found in public code (the
//! `(; GM[..] VV[1] SU[..] P0[id "name"] P1[id "name"] ; P0[0 Start P0]
//! ; P0[1 ...] ; P0[2 done] ... ; P0[time 0:00:47 ] P1[time 0:01:14 ])`
//! layout), from BoardSpace's DVONN source in the public
//! `ddyer0/boardspace.net` repository
//! (`client/boardspace-java/boardspace-games/dvonn/`), whose move parser
//! and board give the tokens and the coordinates below, and from a report
//! of what the files of BoardSpace's DVONN archive (games of 2008 to 2017)
//! hold beyond the moves: clock nodes, Latin-1 text, clicks recorded twice,
//! `reset`, and a second game tree. Its tests use hand-made records
//! modelled on those. A real file that does not read is a bug to report.
//!
//! **Coordinates.** A BoardSpace cell is a column letter and a row number
//! separated by a space: `dropb A 3` places on A3. BoardSpace's DVONN board
//! (`DvonnBoard`: 11 columns of 3, 4, 5, 5, 5, 5, 5, 5, 5, 4, 3 cells, the
//! first rows of columns J and K numbered 2 and 3) has exactly our cells
//! A1..A3, B1..B4, C1..C5, ..., J2..J5, K3..K5 under the same names, and
//! its neighbour rule (`hexBoard` with a diagonal grid) makes C3 a
//! neighbour of B2, B3, C2, C4, D3 and D4, as in
//! [RULES.md](https://github.com/dvonn-rs/dvonn/blob/main/docs/RULES.md#cells-and-directions): the names map
//! one to one, with no transformation. (Derived from the source, not yet
//! confirmed by replaying a real game.)
//!
//! **Players.** `P0` is the first player, White; `P1` is Black. The root's
//! `P0[id "name"]` and `P1[id "name"]` (or `PW`/`PB`) give the `White` and
//! `Black` tags; `DT` gives `Date`, `EV` `Event`, `PC` `Site`, `RO`
//! `Round`, `GN` `GameName`, `RE` (BoardSpace writes free text such as
//! `Game won by ...`) `SgfResult`; the structural `GM`, `FF`, `CA`, `VV`,
//! `SZ`, `AP` and `SU` (`SU[dvonn ...]`) are checked or dropped, any other
//! root property `XY` becomes the tag `SgfXY`, and empty values are left
//! out.
//!
//! **Player information.** In any node, a player's `id "name"` gives the
//! `White` or `Black` tag, `ranking N` the `WhiteRanking` or
//! `BlackRanking` tag, and `time H:MM:SS` (a clock: almost every file ends
//! with a node holding both, `; P0[time 0:02:43 ] P1[time 0:00:47 ]`) the
//! `WhiteTime` or `BlackTime` tag; the last clock of the file wins. Other
//! values of the root's `P0`/`P1` are ignored.
//!
//! **Moves.** Each move node holds `P0[...]` or `P1[...]`: an optional
//! index, an action and its arguments, in any case:
//!
//! | action | meaning |
//! |---|---|
//! | `start P0` | the game begins, White to play (`start P1` is refused) |
//! | `dropb C r` | a placement on `Cr`, or the landing cell of a lifted stack |
//! | `pickb C r` | lifts the stack on `Cr`; right after a `dropb`, takes that drop back |
//! | `pick wr n`, `drop wr n` | takes a piece from the rack / puts it back (humans' placements) |
//! | `move C r D s` | a movement (robots) |
//! | `pass` | a pass |
//! | `reset` | takes back the picks and drops of the move in progress (and a resignation not yet done) |
//! | `done` | ends the turn: the move made since the last `done`, or a pass when there is none |
//! | `resign` | the player resigns (a second `resign` takes it back) when `done` follows |
//! | `gameoverontime` | the game ends on time: recorded as the tag `Termination` = `time` |
//! | `edit`, `swap` | refused: editing the board or swapping cannot be followed |
//!
//! BoardSpace records what the players clicked, and sometimes records a
//! click twice: a `pick`, `pickb`, `drop` or `dropb` that repeats the
//! action just before it (player information in between does not count)
//! changes nothing.
//!
//! Nodes of the main line only are read (the first variation at each
//! branch), and only the first game tree of the file (BoardSpace may append
//! a second one, the server's undo history). Other properties of move
//! nodes (`TM`, comments) are ignored. Each `done` is checked against the
//! player whose turn it is; the moves themselves are checked by
//! [`GameRecord::replay`]. When they replay legally to the end of the game,
//! the score becomes the result. After a resignation or a loss on time only
//! player information is read.
//!
//! **Bytes.** [`read`] takes text; [`read_bytes`] reads the bytes of a file
//! in the charset its `CA` property names, Latin-1 by default (see
//! [`decode`]).

use crate::error::{ParseError, ParseErrorKind};
use crate::fill_result;
use crate::record::GameRecord;
use crate::text::{MAX_PLIES, excerpt, mover_of_ply, strip_bom};
use dvonn_core::Cell;
use dvonn_core::Color;
use dvonn_core::Move;
use dvonn_core::Outcome;
use dvonn_core::Position;

mod charset;
mod syntax;

pub use charset::decode;

use syntax::{Property, main_line};

/// What has been lifted during the turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lift {
    Rack,
    Board(Cell),
}

/// The reader's state of the turn in progress.
#[derive(Default)]
struct Turn {
    /// The move made since the last `done`.
    pending: Option<Move>,
    lifted: Option<Lift>,
    /// The player who resigned (pending its `done`).
    resigning: Option<usize>,
    /// The last action read and its player, to tell a click recorded twice.
    last: Option<(usize, String)>,
}

/// An action of a `P0[...]` or `P1[...]` value: its name in lower case and
/// its arguments, without the index before it.
struct Action<'a> {
    name: String,
    args: Vec<&'a str>,
}

impl<'a> Action<'a> {
    /// The action of `value`, or `None` when it holds nothing but an index.
    fn parse(value: &'a str) -> Option<Action<'a>> {
        let mut words = value.split_whitespace().peekable();
        if words.peek().is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit())) {
            words.next();
        }
        let name = words.next()?.to_ascii_lowercase();
        Some(Action { name, args: words.collect() })
    }

    /// The action and its arguments in lower case, one space apart: two
    /// spellings of the same click give the same text.
    fn normalized(&self) -> String {
        let mut text = self.name.clone();
        for arg in &self.args {
            text.push(' ');
            text.push_str(&arg.to_ascii_lowercase());
        }
        text
    }

    /// Whether the action is a click on a piece or a cell, which BoardSpace
    /// sometimes records twice.
    fn is_click(&self) -> bool {
        matches!(self.name.as_str(), "pick" | "pickb" | "drop" | "dropb")
    }
}

/// Reads an SGF record into a record from the empty board.
///
/// ```
/// use dvonn_notation::sgf;
/// let text = "(;GM[Dvonn]SU[dvonn]P0[id \"ann\"]P1[id \"bob\"]
///     ;P0[0 Start P0];P0[1 dropb E 3];P0[2 done];P1[3 pick wr 0];P1[4 dropb D 3];P1[5 done]
///     ;P0[time 0:00:12 ]P1[time 0:00:31 ])";
/// let record = sgf::read(text).unwrap();
/// assert_eq!(record.tag("White"), Some("ann"));
/// assert_eq!(record.tag("BlackTime"), Some("0:00:31"));
/// assert_eq!(record.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["E3", "D3"]);
/// ```
pub fn read(text: &str) -> Result<GameRecord, ParseError> {
    let text = strip_bom(text);
    let nodes = main_line(text)?;
    let error = |at: usize, kind| ParseError::at(text, at, kind);
    let mut record = GameRecord::new(Position::new());
    let mut turn = Turn::default();
    let mut ended = false;
    for (index, node) in nodes.iter().enumerate() {
        for property in node {
            let player = match property.ident.as_str() {
                "P0" => 0,
                "P1" => 1,
                ident if index == 0 => {
                    root_property(&mut record, ident, property).map_err(|(at, kind)| error(at, kind))?;
                    continue;
                }
                _ => continue,
            };
            for (value, at) in &property.values {
                let Some(action) = Action::parse(value) else { continue };
                if player_information(&mut record, player, &action) || ended {
                    continue;
                }
                if index == 0 && !is_action(&action.name) {
                    // Other player metadata of the root.
                    continue;
                }
                let key = (player, action.normalized());
                if action.is_click() && turn.last.as_ref() == Some(&key) {
                    // The same click recorded twice.
                    continue;
                }
                turn.last = Some(key);
                let step = act(&mut record, &mut turn, player, &action.name, &action.args, value)
                    .map_err(|kind| error(*at, kind))?;
                ended = step == Step::End;
            }
        }
    }
    if !ended {
        // A move or resignation without its `done` at the end of the file.
        if let Some(player) = turn.resigning {
            record.result = Outcome::Resigned(if player == 0 { Color::White } else { Color::Black });
        } else if let Some(mv) = turn.pending {
            record.moves.push(mv);
        }
    }
    record.fill_forced_placement();
    fill_result(&mut record);
    Ok(record)
}

/// Reads the bytes of an SGF file: [`decode`], then [`read`].
///
/// ```
/// use dvonn_notation::sgf;
/// let record = sgf::read_bytes(b"(;GM[Dvonn]RE[Partie gagn\xe9e par X];P0[1 dropb E 3];P0[2 done])").unwrap();
/// assert_eq!(record.tag("SgfResult"), Some("Partie gagnée par X"));
/// ```
pub fn read_bytes(bytes: &[u8]) -> Result<GameRecord, ParseError> {
    read(&decode(bytes)?)
}

/// Reads the player information `action` of `player` (0 or 1) into a tag
/// (see the module documentation); `false` when `action` is something else.
fn player_information(record: &mut GameRecord, player: usize, action: &Action) -> bool {
    let (white, black) = match action.name.as_str() {
        "id" => ("White", "Black"),
        "ranking" => ("WhiteRanking", "BlackRanking"),
        "time" => ("WhiteTime", "BlackTime"),
        _ => return false,
    };
    let value = action.args.join(" ");
    let value = value.trim_matches('"');
    if !value.is_empty() {
        record.set_tag(if player == 0 { white } else { black }, value);
    }
    true
}

/// Whether `action` is one of the move actions.
fn is_action(action: &str) -> bool {
    matches!(
        action,
        "start"
            | "dropb"
            | "pickb"
            | "pick"
            | "drop"
            | "move"
            | "pass"
            | "reset"
            | "done"
            | "resign"
            | "gameoverontime"
            | "edit"
            | "swap"
    )
}

/// Reads a property of the root node into the record.
fn root_property(record: &mut GameRecord, ident: &str, property: &Property) -> Result<(), (usize, ParseErrorKind)> {
    let (value, at) = match property.values.first() {
        Some((value, at)) => (value.trim(), *at),
        None => return Ok(()),
    };
    if value.is_empty() && !matches!(ident, "GM" | "SU") {
        // `DT[]` and the like: nothing to keep.
        return Ok(());
    }
    let tag = match ident {
        "GM" => {
            let numeric = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
            if !numeric && !value.eq_ignore_ascii_case("dvonn") {
                return Err((at, ParseErrorKind::NotDvonn(format!("GM[{}]", excerpt(value)))));
            }
            return Ok(());
        }
        "SU" => {
            if !value.to_ascii_lowercase().contains("dvonn") {
                return Err((at, ParseErrorKind::NotDvonn(format!("SU[{}]", excerpt(value)))));
            }
            return Ok(());
        }
        "FF" | "CA" | "VV" | "SZ" | "AP" => return Ok(()),
        "PW" => "White",
        "PB" => "Black",
        "DT" => "Date",
        "EV" => "Event",
        "PC" => "Site",
        "RO" => "Round",
        "GN" => "GameName",
        "RE" => "SgfResult",
        other => {
            record.set_tag(&format!("Sgf{other}"), value);
            return Ok(());
        }
    };
    // `P0[id ...]` wins over `PW`/`PB` when both are there.
    if record.tag(tag).is_none() || !matches!(tag, "White" | "Black") {
        record.set_tag(tag, value);
    }
    Ok(())
}

/// What the reader does after an action.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Continue,
    End,
}

/// The cell `column row` of a BoardSpace action.
fn cell(column: Option<&&str>, row: Option<&&str>, text: &str) -> Result<Cell, ParseErrorKind> {
    let bad = |reason| ParseErrorKind::BadAction { text: excerpt(text), reason };
    let (Some(column), Some(row)) = (column, row) else {
        return Err(bad("a cell is a column letter and a row number"));
    };
    format!("{column}{row}").parse::<Cell>().map_err(|_| bad("no such cell on the DVONN board"))
}

/// Performs one action of `player` (0 or 1).
fn act(
    record: &mut GameRecord,
    turn: &mut Turn,
    player: usize,
    action: &str,
    args: &[&str],
    text: &str,
) -> Result<Step, ParseErrorKind> {
    match action {
        "start" => {
            let first = args.first().is_some_and(|p| p.eq_ignore_ascii_case("p0"));
            if !first {
                return Err(ParseErrorKind::Unsupported(
                    excerpt(text),
                    "DVONN games on BoardSpace begin with P0 (White)",
                ));
            }
            if !record.moves.is_empty() {
                return Err(ParseErrorKind::Unsupported(excerpt(text), "a start in the middle of the game"));
            }
        }
        "pick" => turn.lifted = Some(Lift::Rack),
        "drop" => turn.lifted = None,
        "pickb" => {
            let at = cell(args.first(), args.get(1), text)?;
            turn.lifted = match turn.pending.take() {
                // Taking a drop back: the piece or stack is lifted again.
                Some(Move::Place(_)) => Some(Lift::Rack),
                Some(Move::Jump { from, .. }) => Some(Lift::Board(from)),
                Some(Move::Pass) | None => Some(Lift::Board(at)),
            };
        }
        "dropb" => {
            let at = cell(args.first(), args.get(1), text)?;
            match turn.lifted.take() {
                Some(Lift::Board(from)) if from == at => {}
                Some(Lift::Board(from)) => turn.pending = Some(Move::Jump { from, to: at }),
                Some(Lift::Rack) | None => turn.pending = Some(Move::Place(at)),
            }
        }
        "move" => {
            let from = cell(args.first(), args.get(1), text)?;
            let to = cell(args.get(2), args.get(3), text)?;
            turn.pending = Some(Move::Jump { from, to });
            turn.lifted = None;
        }
        "pass" => turn.pending = Some(Move::Pass),
        "reset" => {
            turn.pending = None;
            turn.lifted = None;
            turn.resigning = None;
        }
        "resign" => turn.resigning = if turn.resigning.is_some() { None } else { Some(player) },
        "done" => {
            if let Some(resigner) = turn.resigning {
                let color = if resigner == 0 { Color::White } else { Color::Black };
                record.result = Outcome::Resigned(color);
                return Ok(Step::End);
            }
            let ply = record.moves.len();
            let expected = mover_of_ply(ply);
            if expected.index() != player {
                let player = if player == 0 { "P0" } else { "P1" };
                return Err(ParseErrorKind::WrongPlayer { player, ply, expected });
            }
            if ply >= MAX_PLIES {
                return Err(ParseErrorKind::TooManyMoves);
            }
            record.moves.push(turn.pending.take().unwrap_or(Move::Pass));
            turn.lifted = None;
        }
        "gameoverontime" => {
            record.set_tag("Termination", "time");
            return Ok(Step::End);
        }
        "edit" => return Err(ParseErrorKind::Unsupported(excerpt(text), "the board was edited")),
        "swap" => return Err(ParseErrorKind::Unsupported(excerpt(text), "DVONN has no swap")),
        _ => return Err(ParseErrorKind::UnknownAction(excerpt(text))),
    }
    Ok(Step::Continue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_off_the_main_line_are_skipped() {
        let text = "(;GM[Dvonn];P0[1 dropb E 3];P0[2 done](;P1[3 dropb D 3];P1[4 done])(;P1[3 dropb C 3];P1[4 done]))";
        let record = read(text).unwrap();
        assert_eq!(record.moves, vec![Move::Place("E3".parse().unwrap()), Move::Place("D3".parse().unwrap())]);
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases: &[(&str, &str)] = &[
            ("", "line 1, column 1: SGF syntax: an SGF record starts with '('"),
            ("(;GM[Dvonn]", "line 1, column 1: SGF syntax: '(' without a matching ')'"),
            ("(;GM[Dvonn", "line 1, column 5: unterminated property value: '[' without a matching ']'"),
            ("(GM[1])", "line 1, column 2: SGF syntax: a property outside a node (';' first)"),
            ("(;GM[1]!)", "line 1, column 8: SGF syntax: unexpected '!'"),
            ("(;GM[Hive])", "line 1, column 6: not a DVONN game: GM[Hive]"),
            ("(;SU[hive-plm])", "line 1, column 6: not a DVONN game: SU[hive-plm]"),
            ("(;GM[Dvonn]\n;P0[1 fly A 3])", "line 2, column 5: unknown action \"1 fly A 3\""),
            (
                "(;GM[Dvonn];P0[1 dropb A 9])",
                "line 1, column 16: bad action \"1 dropb A 9\": no such cell on the DVONN board",
            ),
            (
                "(;GM[Dvonn];P0[1 dropb A])",
                "line 1, column 16: bad action \"1 dropb A\": a cell is a column letter and a row number",
            ),
            (
                "(;GM[Dvonn];P1[0 Start P1])",
                "line 1, column 16: unsupported action \"0 Start P1\": DVONN games on BoardSpace begin with P0 (White)",
            ),
            ("(;GM[Dvonn];P0[1 edit])", "line 1, column 16: unsupported action \"1 edit\": the board was edited"),
            (
                "(;GM[Dvonn];P1[1 dropb A 3];P1[2 done])",
                "line 1, column 32: P1 ends ply 0, but it is White's turn (P0 is White, P1 Black)",
            ),
            (
                "(;GM[Dvonn];P0[1 dropb A 3] x)",
                "line 1, column 29: SGF syntax: a property without a value ('[' expected)",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(read(text).unwrap_err().to_string(), *expected, "{text:?}");
        }
    }

    /// The moves `read` gets from the move nodes `nodes` (a `;` before each).
    fn moves_of(nodes: &str) -> Vec<String> {
        let record = read(&format!("(;GM[Dvonn]{nodes})")).unwrap_or_else(|e| panic!("{e}: {nodes}"));
        record.moves.iter().map(Move::to_string).collect()
    }

    #[test]
    fn a_click_recorded_twice_counts_once() {
        // The archive's example: the stack of J2 ends on I2.
        let clicks = ";P0[1 pickb J 2];P0[2 dropb J 3];P0[3 pickb J 3];P0[4 dropb I 2];P0[5 pickb I 2]
            ;P0[6 dropb J 3];P0[7 pickb J 3];P0[8 pickb J 3];P0[9 dropb I 2];P0[10 done]";
        assert_eq!(moves_of(clicks), ["J2I2"]);
        // In other spellings, and with a clock between the two.
        assert_eq!(
            moves_of(";P0[1 dropb E 3];P0[2 PICKB E 3];P0[time 0:00:03 ];P0[3 pickb  e 3];P0[4 dropb D 3];P0[5 done]"),
            ["D3"]
        );
        assert_eq!(moves_of(";P0[1 pick wr 0];P0[2 pick wr 0];P0[3 dropb D 3];P0[4 dropb D 3];P0[5 done]"), ["D3"]);
        assert_eq!(
            moves_of(";P0[1 pickb C 3];P0[2 dropb C 3];P0[3 dropb C 3];P0[4 pickb C 3];P0[5 dropb C 4];P0[6 done]"),
            ["C3C4"]
        );
        // Not repeats: the same click after another action, or by the other player.
        assert_eq!(
            moves_of(
                ";P0[1 pickb C 3];P0[2 dropb D 3];P0[3 pickb D 3];P0[4 dropb D 4];P0[5 pickb D 4];P0[6 dropb D 3];P0[7 done]"
            ),
            ["C3D3"]
        );
        assert_eq!(
            moves_of(";P0[1 dropb E 3];P0[2 done];P1[3 dropb D 3];P1[4 pickb D 3];P1[5 dropb D 4];P1[6 done]"),
            ["E3", "D4"]
        );
    }

    #[test]
    fn reset_takes_back_the_move_in_progress() {
        assert_eq!(moves_of(";P0[1 dropb E 3];P0[2 reset];P0[3 dropb D 3];P0[4 done]"), ["D3"]);
        assert_eq!(moves_of(";P0[1 pick wr 0];P0[2 reset];P0[3 dropb D 3];P0[4 done]"), ["D3"]);
        assert_eq!(
            moves_of(";P0[1 pickb C 3];P0[2 dropb C 4];P0[3 reset];P0[4 pickb D 3];P0[5 dropb D 4];P0[6 done]"),
            ["D3D4"]
        );
        assert_eq!(moves_of(";P0[1 pickb C 3];P0[2 reset];P0[3 done]"), ["PASS"]);
        assert_eq!(moves_of(";P0[1 pass];P0[2 reset];P0[3 move C 3 C 4];P0[4 done]"), ["C3C4"]);
        assert_eq!(moves_of(";P0[1 reset];P0[2 reset];P0[3 dropb A 1];P0[4 done]"), ["A1"]);
        // A resignation not yet done is taken back too.
        let record = read("(;GM[Dvonn];P0[1 resign];P0[2 reset];P0[3 dropb A 1];P0[4 done])").unwrap();
        assert_eq!((record.moves.len(), record.result), (1, Outcome::Unfinished));
    }

    #[test]
    fn player_information_is_read_in_any_node() {
        let record = read(
            "(;GM[Dvonn]DT[]P0[id \"ann\"]P1[id \"bob\"]P0[ranking 1612 ]P1[ranking \"1408\"]P0[time 0:00:00 ]
            ;P0[0 Start P0];P0[1 dropb E 3]P0[time 0:00:04 ];P0[2 done]
            ;P1[time 0:00:09 ]P0[time 0:00:05 ];P1[3 dropb D 3];P1[4 done]
            ;P0[5 resign];P0[6 done]
            ;P0[time 0:00:07 ]P1[time 0:00:11 ];P1[7 dropb C 3];P1[8 fly])",
        )
        .unwrap();
        let tags: Vec<(&str, &str)> = record.tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(
            tags,
            [
                ("White", "ann"),
                ("Black", "bob"),
                ("WhiteRanking", "1612"),
                ("BlackRanking", "1408"),
                ("WhiteTime", "0:00:07"),
                ("BlackTime", "0:00:11"),
            ],
            "DT[] is left out, the last clocks win"
        );
        // After the resignation only player information is read.
        assert_eq!(record.moves.len(), 2);
        assert_eq!(record.result, Outcome::Resigned(Color::White));
    }

    #[test]
    fn only_the_first_game_tree_is_read() {
        let text = "(;GM[Dvonn];P0[1 dropb E 3];P0[2 done])\n(;GM[Dvonn];P0[1 dropb A 1];P0[2 done]";
        assert_eq!(read(text).unwrap().moves, vec![Move::Place("E3".parse().unwrap())]);
    }

    #[test]
    fn escapes_and_soft_breaks_in_values() {
        let record = read("(;GM[Dvonn]EV[The \\] cup\\\n 2024]C[x])").unwrap();
        assert_eq!(record.tag("Event"), Some("The ] cup 2024"));
        assert_eq!(record.tag("SgfC"), Some("x"));
    }
}
