//! Game records and the other game formats: round trips through every
//! writable format for complete games of a seeded random player, the
//! sample files of `tests/records/` (see its README for where they come
//! from), error messages, and hostile input.

use dvonn_core::{Color, Move, Outcome, Position};
use dvonn_notation::GameRecord;
use dvonn_notation::{Format, codecup, little_golem, read_any, sgf, write};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

const LITTLE_GOLEM_REAL: &str = include_str!("records/littlegolem-dvonn.mc.2014.may.1.1.txt");
const SGF_HANDMADE: &str = include_str!("records/handmade-boardspace.sgf");
const CODECUP_ARBITER: &str = include_str!("records/codecup-arbiter.log");

/// A complete game from the empty board, played by `rng`: (score, moves).
fn random_complete_game(rng: &mut StdRng) -> (Outcome, Vec<Move>) {
    let moves = random_game(Position::new(), usize::MAX, rng);
    let mut end = Position::new();
    for &mv in &moves {
        end.play(mv).unwrap();
    }
    assert!(end.is_game_over());
    (Outcome::Score { white: end.pieces(Color::White), black: end.pieces(Color::Black) }, moves)
}

/// Five complete games of a seeded random player, the last with passes:
/// (score, moves).
fn games() -> Vec<(Outcome, Vec<Move>)> {
    let mut rng = StdRng::seed_from_u64(14);
    let mut games: Vec<_> = (0..4).map(|_| random_complete_game(&mut rng)).collect();
    let with_passes = std::iter::repeat_with(|| random_complete_game(&mut rng))
        .take(1000)
        .find(|(_, moves)| moves.contains(&Move::Pass))
        .expect("random games with passes are common");
    games.push(with_passes);
    games
}

/// The moves of `codecup-arbiter.log`: game 1 of dvonn-core's test vectors
/// (checked by [`the_sample_files_read`]).
fn vector_game_1() -> Vec<Move> {
    codecup::read(CODECUP_ARBITER).unwrap().moves
}

/// A game of dvonn-core's test vectors (its `tests/vectors/games.txt`), as
/// the sample files hold it. The vectors live in dvonn-core alone: here a
/// game is known by what pins it down, its score, its length, the board
/// after the placement phase and the board at the end.
struct VectorGame {
    score: &'static str,
    plies: usize,
    after_placement: &'static str,
    end: &'static str,
}

/// Games 1 to 5 of dvonn-core's test vectors.
const VECTOR_GAMES: [VectorGame; 5] = [
    VectorGame {
        score: "13-13",
        plies: 80,
        after_placement: "BWBWWWBBD/WWWWBBBWWW/BDWBBBWWWBD/WBWWBBBBWW/WBBBBBWWB w m",
        end: "......W3*../......W4B2W3./..........B2*/.W3......../.B3*B6...... b m",
    },
    VectorGame {
        score: "0-15",
        plies: 79,
        after_placement: "BWBWBBWWB/WBBBWBWWWW/BWWWDBBWWBB/WWBBWBDBBW/BDBWBWWBW w m",
        end: "..B4*....../........../.B5........./.B6*......../.D....... w m",
    },
    VectorGame {
        score: "2-13",
        plies: 79,
        after_placement: "WBBWWBWBB/BDWWBDBWWW/DBBBWWWBWWW/BBWBBWWWWB/BWBWWBBBB w m",
        end: ".....B3.../.B6*...W2*..../B4*........../........../......... w m",
    },
    VectorGame {
        score: "7-27",
        plies: 85,
        after_placement: "BWBBBDBBW/WBBBWWBWBW/DWWBWBDWWBB/WBBWWWBWWB/WWBWBBBWW w m",
        end: "........./........B6./DB5.....B5*W3*../.W4B8......./.B3....... w m",
    },
    VectorGame {
        score: "20-4",
        plies: 82,
        after_placement: "WBBBWWBBB/BBBDWWWWWD/BWWBBBWWBWB/WDBBBBWWBW/WWWBWWBWB w m",
        end: "........./...D.....W2*/....B4.....W3/....W6*....W9/......... b m",
    },
];

/// Checks that `record` (read from the file `name`) holds game `number`
/// (1 to 5) of dvonn-core's test vectors, with its score.
fn assert_vector_game(name: &str, record: &GameRecord, number: usize) {
    let game = &VECTOR_GAMES[number - 1];
    let replay = record.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(record.moves.len(), game.plies, "{name}");
    assert_eq!(record.result.to_string(), game.score, "{name}");
    assert_eq!(replay.position().outcome(), record.result, "{name}");
    assert_eq!(replay.positions()[49].to_string(), game.after_placement, "{name}");
    assert_eq!(replay.position().to_string(), game.end, "{name}");
}

/// A record of a random game with a few tags.
fn record_of(index: usize, result: Outcome, moves: &[Move]) -> GameRecord {
    let mut record = GameRecord::new(Position::new());
    record.set_tag("Event", &format!("random game #{index}"));
    record.set_tag("White", "dvonn-ai \"fast\" 0.1");
    record.set_tag("Black", r"C:\players\random");
    record.moves = moves.to_vec();
    record.result = result;
    record
}

#[test]
fn every_game_round_trips_as_a_record_and_replays_to_its_score() {
    let games = games();
    assert_eq!(games.len(), 5);
    for (index, (score, moves)) in games.iter().enumerate() {
        let record = record_of(index, *score, moves);
        let text = record.to_string();
        assert!(text.lines().all(|line| line.chars().count() <= 80), "{text}");
        assert!(text.contains("\n25. "), "movement starts a line: {text}");
        let read = GameRecord::parse(&text).unwrap_or_else(|e| panic!("game {index}: {e}\n{text}"));
        assert_eq!(read, record, "game {index}");
        let replay = read.replay().unwrap();
        assert_eq!(replay.position().outcome(), *score, "game {index}");
        assert!(replay.position().is_game_over());
        read.check_result(&replay).unwrap();
        assert_eq!(replay.moves().collect::<Vec<_>>(), *moves);
        assert_eq!(replay.positions().len(), moves.len() + 1);
        assert_eq!(replay.plies().len(), moves.len());
        // Writing again gives the same text.
        assert_eq!(read.to_string(), text);
        assert_eq!(read_any(&text, None).unwrap(), record);
    }
}

#[test]
fn every_game_round_trips_through_little_golem() {
    for (index, (score, moves)) in games().iter().enumerate() {
        let record = record_of(index, *score, moves);
        let text = write(&record, Format::LittleGolem).unwrap();
        assert_eq!(Format::detect(&text), Some(Format::LittleGolem));
        assert!(text.contains(" 25. "), "{text}");
        // The 49th placement is left out, and movement is in lower case.
        let words: Vec<&str> = text.lines().last().unwrap().split(' ').filter(|w| !w.ends_with('.')).collect();
        assert_eq!(words.len(), moves.len() - 1);
        assert!(words.iter().all(|w| *w == w.to_lowercase()));
        let read = little_golem::read(&text).unwrap();
        assert_eq!(read.moves, *moves, "game {index}");
        assert_eq!(read.result, *score, "the reader replays to the score");
        assert_eq!(read.tags, record.tags);
    }
}

#[test]
fn every_game_round_trips_through_a_codecup_log() {
    for (index, (score, moves)) in games().iter().enumerate() {
        let record = record_of(index, *score, moves);
        let text = write(&record, Format::CodeCup).unwrap();
        assert_eq!(text.lines().count(), moves.len() + 2, "Start, the moves and Quit");
        assert!(text.starts_with("Start\n") && text.ends_with("\nQuit\n"));
        assert_eq!(Format::detect(&text), Some(Format::CodeCup));
        let read = codecup::read(&text).unwrap();
        assert_eq!(read.moves, *moves, "game {index}");
        assert_eq!(read.result, *score);
        // The codecup.nl move list: the same moves, separated by commas.
        let list: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(read_any(&list.join(","), None).unwrap().moves, *moves);
    }
}

/// How [`boardspace_sgf`] writes a ply: bits of one byte. The first three
/// choose among the ways a valid file writes a move; the others insert
/// what real files hold besides, none of which changes the move.
mod style {
    /// A robot's `move C r D s` and `pass` instead of a human's clicks.
    pub(crate) const ROBOT: u8 = 1;
    /// A `pick wr 0` (or `br`) before a placement's `dropb`.
    pub(crate) const PICK_FIRST: u8 = 2;
    /// Actions in upper case.
    pub(crate) const UPPER_CASE: u8 = 4;
    /// The styles of a valid file.
    pub(crate) const BASE: u8 = ROBOT | PICK_FIRST | UPPER_CASE;
    /// First a drop back: a piece dropped on another cell and taken back,
    /// or a stack dropped on another cell, taken back and put back.
    pub(crate) const DROP_BACK: u8 = 8;
    /// A pick recorded twice (the take-back's `pickb` with `DROP_BACK`).
    pub(crate) const REPEATED_PICK: u8 = 16;
    /// First a wrong start, taken back by `reset`.
    pub(crate) const RESET: u8 = 32;
    /// A node of both clocks before the ply.
    pub(crate) const CLOCK_NODE: u8 = 64;
    /// The player's clock in the node of the ply's `done`.
    pub(crate) const CLOCK_IN_DONE: u8 = 128;
}

/// The cell as BoardSpace writes it: `C 3`.
fn spaced(cell: dvonn_core::Cell) -> String {
    let name = cell.to_string();
    format!("{} {}", &name[..1], &name[1..])
}

/// The game `moves` as a BoardSpace SGF record, ply `ply` written in the
/// style `style(ply)` (see [`style`]), then the resignation of `resign`.
/// The moves are legal, but the last may break the rules.
fn boardspace_sgf(moves: &[Move], style: &dyn Fn(usize) -> u8, resign: Option<Color>) -> String {
    let mut out = String::from("(;GM[Dvonn]VV[1]SU[dvonn]P0[id \"Ann\"]P1[id \"Bob\"]\n;P0[0 Start P0]\n");
    let mut index = 1;
    let mut position = Position::new();
    for (ply, &mv) in moves.iter().enumerate() {
        let bits = style(ply);
        let has = |flag: u8| bits & flag != 0;
        let player = position.side_to_move().index();
        let rack = if player == 0 { "wr" } else { "br" };
        let mut actions: Vec<String> = Vec::new();
        // Another cell to drop on and take back: an empty cell for a
        // placement, another landing cell for a movement.
        let other = match mv {
            Move::Place(cell) => (!position.occupied()).into_iter().find(|c| *c != cell),
            Move::Jump { from, to } => position
                .legal_moves()
                .iter()
                .find_map(|m| match *m {
                    Move::Jump { from: f, to: t } if f == from && t != to => Some(t),
                    _ => None,
                })
                .or(Some(to)),
            Move::Pass => None,
        };
        if has(style::RESET) {
            match (mv, other) {
                (Move::Place(cell), other) => actions.push(format!("dropb {}", spaced(other.unwrap_or(cell)))),
                (Move::Jump { from, to }, other) => {
                    actions.push(format!("pickb {}", spaced(from)));
                    actions.push(format!("dropb {}", spaced(other.unwrap_or(to))));
                }
                (Move::Pass, _) => actions.push("pass".to_string()),
            }
            actions.push("reset".to_string());
        }
        if let (true, Some(other)) = (has(style::DROP_BACK), other) {
            let lift = match mv {
                Move::Jump { from, .. } => Some(from),
                _ => None,
            };
            if let Some(from) = lift {
                actions.push(format!("pickb {}", spaced(from)));
            }
            actions.push(format!("dropb {}", spaced(other)));
            actions.push(format!("pickb {}", spaced(other)));
            if has(style::REPEATED_PICK) {
                actions.push(format!("pickb {}", spaced(other)));
            }
            if let Some(from) = lift {
                actions.push(format!("dropb {}", spaced(from)));
            }
        } else if has(style::REPEATED_PICK) {
            // The move's first pick, recorded twice (inserted before the move
            // when it has none).
            let pick = match mv {
                Move::Place(_) => format!("pick {rack} 0"),
                Move::Jump { from, .. } => format!("pickb {}", spaced(from)),
                Move::Pass => String::new(),
            };
            if !pick.is_empty() {
                actions.push(pick.clone());
                actions.push(pick);
            }
        }
        match mv {
            Move::Place(cell) => {
                if has(style::PICK_FIRST) {
                    actions.push(format!("pick {rack} 0"));
                }
                actions.push(format!("dropb {}", spaced(cell)));
            }
            Move::Jump { from, to } if has(style::ROBOT) => {
                actions.push(format!("move {} {}", spaced(from), spaced(to)));
            }
            Move::Jump { from, to } => {
                actions.push(format!("pickb {}", spaced(from)));
                actions.push(format!("dropb {}", spaced(to)));
            }
            // A human's pass is a bare `done`.
            Move::Pass if has(style::ROBOT) => actions.push("pass".to_string()),
            Move::Pass => {}
        }
        actions.push("done".to_string());
        if has(style::CLOCK_NODE) {
            out.push_str(&format!(";P0[time {} ]P1[time {} ]\n", clock(ply, 0), clock(ply, 1)));
        }
        for action in actions {
            let action = if has(style::UPPER_CASE) { action.to_uppercase() } else { action };
            out.push_str(&format!(";P{player}[{index} {action}]"));
            if action.eq_ignore_ascii_case("done") && has(style::CLOCK_IN_DONE) {
                out.push_str(&format!("P{player}[time {} ]", clock(ply, player)));
            }
            out.push('\n');
            index += 1;
        }
        // Only the last move may break the rules (a record to refuse).
        if let Err(error) = position.play(mv) {
            assert_eq!(ply + 1, moves.len(), "ply {ply}: {error}");
        }
    }
    if let Some(color) = resign {
        for action in ["resign", "done"] {
            out.push_str(&format!(";P{}[{index} {action}]\n", color.index()));
            index += 1;
        }
    }
    out.push_str(")\n");
    out
}

/// A clock of `player` at `ply`, as BoardSpace writes it (H:MM:SS).
fn clock(ply: usize, player: usize) -> String {
    let seconds = ply * 7 + player * 3;
    format!("0:{:02}:{:02}", seconds / 60, seconds % 60)
}

#[test]
fn every_game_reads_from_a_boardspace_sgf() {
    // Every style in turn, and all at once.
    let styles: [&dyn Fn(usize) -> u8; 3] = [&|ply| (ply % 256) as u8, &|ply| ((ply * 37) % 256) as u8, &|_| u8::MAX];
    for (index, (score, moves)) in games().iter().enumerate() {
        for style in styles {
            let text = boardspace_sgf(moves, style, None);
            assert_eq!(Format::detect(&text), Some(Format::Sgf));
            let record = sgf::read(&text).unwrap_or_else(|e| panic!("game {index}: {e}\n{text}"));
            assert_eq!(record.moves, *moves, "game {index}");
            assert_eq!(record.result, *score);
            assert_eq!(record.tag("White"), Some("Ann"));
            assert_eq!(record.tag("Black"), Some("Bob"));
        }
    }
    // A resignation in the middle of a game.
    let moves = vector_game_1();
    let record = sgf::read(&boardspace_sgf(&moves[..60], &|ply| (ply % 8) as u8, Some(Color::White))).unwrap();
    assert_eq!(record.moves, moves[..60]);
    assert_eq!(record.result, Outcome::Resigned(Color::White));
}

/// The hand-made files modelled on the files of BoardSpace's DVONN archive,
/// each standing for one thing the real files hold (see
/// `tests/records/README.md`): its name, its bytes, and the game of
/// dvonn-core's test vectors it holds (see [`VECTOR_GAMES`]).
const ARCHIVE_LIKE: [(&str, &[u8], usize); 6] = [
    ("clock-nodes", include_bytes!("records/boardspace-clock-nodes.sgf"), 1),
    ("latin1", include_bytes!("records/boardspace-latin1.sgf"), 3),
    ("ca-utf8", include_bytes!("records/boardspace-ca-utf8.sgf"), 4),
    ("repeated-pickb", include_bytes!("records/boardspace-repeated-pickb.sgf"), 5),
    ("reset", include_bytes!("records/boardspace-reset.sgf"), 1),
    ("second-tree", include_bytes!("records/boardspace-second-tree.sgf"), 2),
];

/// The archive-like file `name`.
fn archive_like(name: &str) -> &'static [u8] {
    ARCHIVE_LIKE.iter().find(|(n, ..)| *n == name).map(|(_, bytes, _)| *bytes).unwrap()
}

/// The actions of the move nodes of `text` (one node a line, as BoardSpace
/// writes them), without their indexes.
fn actions(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let value = line.strip_prefix("; P")?.split_once('[')?.1.split_once(']')?.0;
            Some(value.split_once(' ').map_or(value, |(_, action)| action))
        })
        .collect()
}

#[test]
fn archive_like_files_read_to_their_games() {
    // The files of one game, and the other sample files of it, read to the
    // same moves.
    let mut moves_of_game =
        [Some(vector_game_1()), Some(read_any(SGF_HANDMADE, None).unwrap().moves), None, None, None];
    for (name, bytes, game) in ARCHIVE_LIKE {
        let record = sgf::read_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_vector_game(name, &record, game);
        let moves = moves_of_game[game - 1].get_or_insert_with(|| record.moves.clone());
        assert_eq!(record.moves, *moves, "{name}");
        record.check_result(&record.replay().unwrap()).unwrap();
        assert!(record.tag("White").is_some() && record.tag("Black").is_some(), "{name}");
        // Every one ends with both clocks.
        assert!(record.tag("WhiteTime").is_some() && record.tag("BlackTime").is_some(), "{name}");
    }
}

#[test]
fn each_archive_like_file_holds_its_feature() {
    let text = |name| String::from_utf8_lossy(archive_like(name)).into_owned();
    // Clock nodes: between the phases, inside a move node, and at the end.
    let clocks = text("clock-nodes");
    assert!(clocks.contains(";\nP0[time 0:04:51 ]\nP1[time 0:00:12 ]\n; P0["), "{clocks}");
    assert!(clocks.contains("done]P0[time 0:06:02 ]"), "{clocks}");
    let record = sgf::read(&clocks).unwrap();
    assert_eq!((record.tag("WhiteTime"), record.tag("BlackTime")), (Some("0:11:37"), Some("0:00:41")));
    assert_eq!(record.tag("SgfResult"), Some("Game won by Dumbot"));

    // Latin-1 without CA: not UTF-8, read as Latin-1.
    let latin1 = archive_like("latin1");
    assert!(std::str::from_utf8(latin1).is_err());
    assert!(!latin1.windows(3).any(|w| w == b"CA["));
    let record = sgf::read_bytes(latin1).unwrap();
    assert_eq!(record.tag("White"), Some("Hervé"));
    assert_eq!(record.tag("Black"), Some("Jérôme"));
    assert_eq!(record.tag("SgfResult"), Some("Partie gagnée par Jérôme"));
    assert_eq!(record.tag("GameName"), Some("Hervé-Jérôme-DVONN-2008-03-02-2041"));

    // CA[UTF-8], with a name Latin-1 cannot write.
    let record = sgf::read_bytes(archive_like("ca-utf8")).unwrap();
    assert_eq!(record.tag("Black"), Some("Łukasz"));
    assert_eq!(record.tag("White"), Some("Zoë"));

    // The same pickb twice in a row, after a take-back (the archive's pattern).
    let repeated = text("repeated-pickb");
    let clicks = actions(&repeated);
    assert!(clicks.windows(3).any(|w| w[0].starts_with("dropb") && w[1].starts_with("pickb") && w[1] == w[2]));

    // reset, as BoardSpace writes it: an index, then the action.
    assert!(text("reset").matches(" reset]").count() >= 10);

    // A second game tree after the first.
    let second = text("second-tree");
    assert_eq!(second.matches("(;").count(), 2);
    let record = sgf::read(&second).unwrap();
    assert_eq!(record.tag("WhiteRanking"), Some("1532"));
    assert_eq!(record.tag("BlackRanking"), Some("1710"));
    for action in ["Start P0", "pick wr 0", "drop wr 0", "pickb", "dropb", "move", "pass]", "done"] {
        assert!(second.contains(action), "{action}");
    }
}

#[test]
fn the_sample_files_read() {
    // The real Little Golem game: legal under our rules, White resigned.
    let record = read_any(LITTLE_GOLEM_REAL, None).unwrap();
    assert_eq!(record.tag("White"), Some("CleverHunk steven cullum"));
    assert_eq!(record.result, Outcome::Resigned(Color::White));
    let replay = record.replay().unwrap();
    assert_eq!(replay.len(), 75);
    assert_eq!(
        write(&record, Format::LittleGolem).unwrap().lines().last().unwrap(),
        LITTLE_GOLEM_REAL.split("] 1. ").nth(1).map(|m| format!("1. {}", m.trim())).unwrap()
    );

    // The hand-made SGF: game 2 of dvonn-core's vectors, with its passes.
    let record = read_any(SGF_HANDMADE, None).unwrap();
    assert_vector_game("handmade-boardspace.sgf", &record, 2);
    assert!(record.moves.contains(&Move::Pass));
    assert_eq!(record.tag("Date"), Some("2026-01-02"));
    assert_eq!(record.tag("GameName"), Some("handmade-ann-bob"));
    assert_eq!(record.tag("SgfResult"), Some("hand-made sample, not a real game"));

    // The arbiter log: game 1 of dvonn-core's vectors with players and score.
    let record = read_any(CODECUP_ARBITER, None).unwrap();
    assert_vector_game("codecup-arbiter.log", &record, 1);
    assert_eq!(record.tag("White"), Some("./player --eval=100000"));
    record.check_result(&record.replay().unwrap()).unwrap();
}

#[test]
fn a_file_cut_anywhere_is_refused_in_one_line() {
    for (name, bytes, _) in ARCHIVE_LIKE {
        // The first game tree ends at the first ')' (no value of these files holds one).
        let tree_end = bytes.iter().position(|&b| b == b')').unwrap();
        for cut in 0..bytes.len() {
            match sgf::read_bytes(&bytes[..cut]) {
                Ok(record) => {
                    assert!(cut > tree_end, "{name} cut at byte {cut} reads");
                    assert!(record.replay().is_ok(), "{name} cut at byte {cut}");
                }
                Err(error) => {
                    let message = error.to_string();
                    assert!(cut <= tree_end, "{name} cut at byte {cut}: {message}");
                    assert!(!message.contains(['\n', '\r']), "{name} cut at byte {cut}: {message:?}");
                }
            }
        }
    }
}

/// The game `moves` as a BoardSpace file with every click, clock and reset
/// of [`style`], read and replayed: the replay's error, which must exist.
fn sgf_replay_error(moves: &[Move]) -> String {
    let record = sgf::read(&boardspace_sgf(moves, &|_| u8::MAX, None)).unwrap();
    assert_eq!(record.moves, moves);
    record.replay().unwrap_err().to_string()
}

#[test]
fn rule_breaking_sgf_is_refused_with_its_move_number() {
    let moves = &vector_game_1();
    // A placement on an occupied cell: ply 10 on the cell of ply 3.
    let mut placed = moves[..11].to_vec();
    placed[10] = placed[3];
    assert_eq!(sgf_replay_error(&placed), format!("move 6 (ply 10) {0} is illegal: {0} is not empty", placed[3]));
    // A stack that cannot move: at White's first movement every stack
    // inside the full board is surrounded.
    let mut position = Position::new();
    for &mv in &moves[..49] {
        position.play(mv).unwrap();
    }
    let (from, to) = dvonn_core::Cell::ALL
        .iter()
        .filter(|cell| position.stack_at(**cell).is_some_and(|stack| stack.owner() == Some(Color::White)))
        .find_map(|&cell| {
            let around = dvonn_core::Bitboard::from(cell).neighbours();
            (around.len() == 6).then(|| (cell, around.first().unwrap()))
        })
        .unwrap();
    let mut surrounded = moves[..50].to_vec();
    surrounded[49] = Move::Jump { from, to };
    assert_eq!(
        sgf_replay_error(&surrounded),
        format!(
            "move 25 (ply 49) {from}{to} is illegal: the stack on {from} is surrounded on all six sides and cannot move"
        )
    );
}

/// Plays random legal moves from `start` (at most `plies`).
fn random_game(start: Position, plies: usize, rng: &mut StdRng) -> Vec<Move> {
    let mut position = start;
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = position.legal_moves();
        let Some(&mv) = legal.choose(rng) else { break };
        position.play(mv).unwrap();
        moves.push(mv);
    }
    moves
}

#[test]
fn records_with_everything_round_trip() {
    let mut rng = StdRng::seed_from_u64(2011);
    let mut with_passes = 0;
    for seed in 0..200 {
        let start = match seed % 3 {
            0 => Position::new(),
            1 => Position::random_setup_from_seed(seed),
            // A position in the middle of the placement phase.
            _ => {
                let mut position = Position::new();
                for mv in random_game(Position::new(), rng.random_range(0..49), &mut rng) {
                    position.play(mv).unwrap();
                }
                position
            }
        };
        let moves = random_game(start, rng.random_range(0..200), &mut rng);
        with_passes += usize::from(moves.contains(&Move::Pass));
        let mut record = GameRecord::new(start);
        record.moves = moves;
        let final_result = record.replay().unwrap().position().outcome();
        record.result = match seed % 4 {
            0 => final_result,
            1 => Outcome::Unfinished,
            2 => Outcome::Resigned(Color::White),
            _ => Outcome::Resigned(Color::Black),
        };
        record.set_tag("Event", &format!("random {seed} \\ \"quoted\" {{not a comment}} [brackets]"));
        record.set_tag("Annotator", "ünïcödé ✓");
        let text = record.to_string();
        let read = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read, record, "{text}");
        assert_eq!(read.replay().unwrap().position().outcome(), final_result);
        if start != Position::new() {
            assert!(text.contains("[Setup \"position\"]\n[Position \""), "{text}");
        }
    }
    assert!(with_passes > 0, "some random games have passes");
}

#[test]
fn comments_may_stand_anywhere_and_change_no_move() {
    let plain = GameRecord::parse("[White \"a\"]\n\n1. E3 D3 2. C3 *").unwrap();
    let commented = GameRecord::parse(
        "{before the tags}\n[White \"a\"] {after a tag}\n{between\nlines}\n1.{glued}E3{glued}D3 {x} 2. C3 * {after the result}",
    )
    .unwrap();
    assert_eq!((&commented.tags, &commented.moves, commented.result), (&plain.tags, &plain.moves, plain.result));
    let places: Vec<(usize, &str)> = commented.comments.iter().map(|c| (c.after, c.text.as_str())).collect();
    assert_eq!(
        places,
        [
            (0, "before the tags"),
            (0, "after a tag"),
            (0, "between lines"),
            (0, "glued"),
            (1, "glued"),
            (2, "x"),
            (3, "after the result")
        ]
    );
}

#[test]
fn the_missing_last_placement_is_filled_in() {
    for (score, moves) in games() {
        let mut short = moves.clone();
        let forced = short.remove(48);
        let record = GameRecord::parse(&short.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")).unwrap();
        assert_eq!(record.moves.len(), moves.len() - 1);
        let replay = record.replay().unwrap();
        assert_eq!(replay.moves().collect::<Vec<_>>(), moves);
        assert_eq!(replay.plies()[48].mv, forced);
        assert_eq!(replay.position().outcome(), score);
        // A re-written record contains it.
        let rewritten = GameRecord::parse(&record.to_string()).unwrap();
        assert_eq!(rewritten.moves, moves);
        assert!(record.to_string().contains(&format!("25. {forced} {}", moves[49])));
    }
}

#[test]
fn an_illegal_move_is_reported_with_its_number_and_ply() {
    let moves = &vector_game_1();
    let mut words: Vec<String> = moves.iter().map(Move::to_string).collect();
    // Ply 52 is Black's second movement; White's stack on G1 is no use to Black.
    words[52] = "F1E1".to_string();
    let record = GameRecord::parse(&words.join(" ")).unwrap();
    let error = record.replay().unwrap_err();
    assert_eq!((error.ply, error.move_number), (52, 27));
    assert_eq!(error.to_string(), "move 27 (ply 52) F1E1 is illegal: the stack on F1 is not yours");
    // With the last placement left out, plies are still counted in full.
    words.remove(48);
    let error = GameRecord::parse(&words.join(" ")).unwrap().replay().unwrap_err();
    assert_eq!(error.to_string(), "move 27 (ply 52) F1E1 is illegal: the stack on F1 is not yours");
    // A move after the end of the game.
    let mut over: Vec<String> = moves.iter().map(Move::to_string).collect();
    over.push("PASS".to_string());
    let error = GameRecord::parse(&over.join(" ")).unwrap().replay().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "move {} (ply {}) PASS is illegal: the game is over: neither player can move",
            moves.len() / 2 + 1,
            moves.len()
        )
    );
}

#[test]
fn a_wrong_score_is_reported() {
    let moves = &vector_game_1();
    let record = record_of(0, Outcome::Score { white: 20, black: 6 }, moves);
    let error = record.check_result(&record.replay().unwrap()).unwrap_err();
    assert_eq!(error.to_string(), "the record gives the result 20-6, but the moves end 13-13");
}

#[test]
fn errors_name_the_format_and_place() {
    let cases: &[(&str, Option<Format>, &str)] = &[
        ("", Some(Format::Record), ""),
        (
            "[White \"x\"]\n[Result \"13-13\"]\n\n1. E3 D3 12-13",
            None,
            "game record: line 4, column 10: the result token 12-13 disagrees with the Result tag 13-13",
        ),
        (
            "[Setup \"position\"]\n[Position \"WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW x m\"]",
            None,
            "game record: line 2, column 66: bad Position tag: side to move, column 55: the side to move is 'w' or 'b', not \"x\"",
        ),
        (
            "Event [x] 1. g2 c1 2. f5 d1 3. qq",
            None,
            "Little Golem transcript: line 1, column 32: move 3 (ply 4): \"qq\" is not a move: a cell is a column letter A-K and a row digit 1-5 naming one of the 49 cells",
        ),
        (
            "(;GM[Dvonn];P0[1 dropb E 3];P0[2 done];P0[3 dropb D 3];P0[4 done])",
            None,
            "BoardSpace SGF record: line 1, column 59: P0 ends ply 1, but it is Black's turn (P0 is White, P1 Black)",
        ),
        ("Start\nE3\nD3 C3\nQuit\nF3", None, "CodeCup log: line 5, column 1: \"F3\" after Quit: Quit ends the game"),
        (
            "E3 D3",
            Some(Format::Sgf),
            "BoardSpace SGF record: line 1, column 1: SGF syntax: an SGF record starts with '('",
        ),
    ];
    for (text, format, expected) in cases {
        match read_any(text, *format) {
            Ok(record) => assert!(expected.is_empty(), "{text:?} read as {record:?}"),
            Err(error) => assert_eq!(error.to_string(), *expected, "{text:?}"),
        }
    }
}

/// Every reader on `text`: errors are fine, panics are not.
fn read_everywhere(text: &str) {
    let _ = GameRecord::parse(text);
    let _ = little_golem::read(text);
    let _ = sgf::read(text);
    let _ = sgf::read_bytes(text.as_bytes());
    let _ = codecup::read(text);
    let _ = read_any(text, None);
    let _ = Format::detect(text);
}

#[test]
fn hostile_input_is_an_error_not_a_panic() {
    let megabyte_line = "x@!".repeat(350_000);
    let huge_number = format!("{}. E3", "9".repeat(100_000));
    let deep_sgf = "(".repeat(200_000);
    let deep_sgf_closed = format!("{};{}", "(;".repeat(100_000), ")".repeat(100_000));
    let nul = "[\0\"\0\"]\n\0 E3\0";
    let cases: Vec<&str> = vec![
        "",
        "[",
        "{",
        "(",
        ";",
        "]",
        "\"",
        "\\",
        "[White \"\\",
        "(;",
        "(;P0[",
        "(;P0[1 dropb",
        "Event [",
        "# Score:",
        "# Score: 99 - 99",
        &megabyte_line,
        &huge_number,
        &deep_sgf,
        &deep_sgf_closed,
        nul,
        "\u{feff}",
        "1.",
        "1.-",
        "-1",
        "resign resign",
        "PASS PASS PASS",
    ];
    for text in cases {
        read_everywhere(text);
    }
    // Specific answers.
    assert_eq!(GameRecord::parse("").unwrap(), GameRecord::default());
    assert_eq!(
        GameRecord::parse("[").unwrap_err().to_string(),
        "line 1, column 2: bad tag syntax: expected a tag name after '[' (a tag is [Name \"value\"], one per line)"
    );
    assert_eq!(
        GameRecord::parse("E3 {").unwrap_err().to_string(),
        "line 1, column 4: unterminated comment: '{' without a matching '}'"
    );
    let error = GameRecord::parse(&megabyte_line).unwrap_err().to_string();
    assert_eq!(
        error,
        "line 1, column 1: move 1 (ply 0): \"x@!x@!x@!x@!x@!x@!x@!x@!\" is not a move: expected a cell (E3), two cells (C3E3 or C3-E3) or PASS"
    );
    assert_eq!(GameRecord::parse(&huge_number).unwrap().moves.len(), 1, "a huge move number is just ignored");
    assert!(GameRecord::parse(nul).unwrap_err().to_string().starts_with("line 1, column 2: bad tag name"));
    assert!(
        GameRecord::parse("E3\0")
            .unwrap_err()
            .to_string()
            .starts_with("line 1, column 1: move 1 (ply 0): \"E3\\0\" is not a move")
    );
    assert_eq!(
        read_any("", None).unwrap_err().to_string().split(':').next(),
        Some("cannot tell the format of the text")
    );
    assert_eq!(
        sgf::read(&deep_sgf).unwrap_err().to_string(),
        "line 1, column 200000: SGF syntax: '(' without a matching ')'"
    );
    assert!(sgf::read(&deep_sgf_closed).is_ok());
}

/// 32 MB of move-like words, far more than a game holds.
fn garbage() -> String {
    "E3 ".repeat(32 << 20 >> 2)
}

/// The readers refuse a huge file of moves at the ply limit, at the move
/// past it (the 1001st word starts at column 3001).
#[test]
fn a_large_garbage_file_is_refused_at_the_ply_limit() {
    let garbage = garbage();
    for format in [Format::Record, Format::LittleGolem, Format::CodeCup] {
        let error = read_any(&garbage, Some(format)).unwrap_err().to_string();
        assert!(error.ends_with("line 1, column 3001: more than 1000 moves: no game of DVONN is that long"), "{error}");
    }
}

/// Timing tier: and they stop there instead of reading on. Generous: a
/// quadratic reader would take minutes.
#[test]
#[ignore = "timing tier: a wall-clock check, run alone (cargo test -- --ignored)"]
fn a_large_garbage_file_fails_fast() {
    let garbage = garbage();
    let start = std::time::Instant::now();
    for format in [Format::Record, Format::LittleGolem, Format::CodeCup] {
        assert!(read_any(&garbage, Some(format)).is_err());
    }
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        read_everywhere(&text);
    }

    #[test]
    fn arbitrary_record_like_text_never_panics(
        text in "([\\[\\]{}();\"\\\\ \n.#,a-kA-K0-9]|PASS|pass|resign|dropb|done|Start|Quit|P0|P1|GM|\\[Setup \"position\"\\]|\\[Position \"){0,80}"
    ) {
        read_everywhere(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_everywhere(&String::from_utf8_lossy(&bytes));
        let _ = sgf::read_bytes(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A game of [`games`] (0 to 4) or another random game (5), written in the
    /// styles `base` of a valid file, then again with clock nodes, repeated
    /// picks, drop-backs and resets inserted as `inserted` says: the same
    /// game is read.
    #[test]
    fn inserted_clocks_clicks_and_resets_never_change_the_game(
        game in 0usize..6,
        seed in any::<u64>(),
        base in proptest::collection::vec(any::<u8>(), 1..200),
        inserted in proptest::collection::vec(any::<u8>(), 1..200),
    ) {
        let moves = match games().get(game) {
            Some((_, moves)) => moves.clone(),
            None => random_game(Position::new(), 200, &mut StdRng::seed_from_u64(seed)),
        };
        let base_style = |ply: usize| base[ply % base.len()] & style::BASE;
        let plain = sgf::read(&boardspace_sgf(&moves, &base_style, None)).unwrap();
        let noisy_style = |ply: usize| base_style(ply) | (inserted[ply % inserted.len()] & !style::BASE);
        let noisy = sgf::read(&boardspace_sgf(&moves, &noisy_style, None)).unwrap();
        prop_assert_eq!(&plain.moves, &moves);
        prop_assert_eq!(&noisy.moves, &plain.moves);
        prop_assert_eq!(noisy.result, plain.result);
        let clocks = |name: &str| name == "WhiteTime" || name == "BlackTime";
        let tags: Vec<_> = noisy.tags.iter().filter(|(name, _)| !clocks(name)).cloned().collect();
        prop_assert_eq!(tags, plain.tags);
    }
}
