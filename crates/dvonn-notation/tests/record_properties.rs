//! Properties of game records, checked with proptest: for any legal game
//! (from the empty board or a random setup, finished or not), writing its
//! record and reading it back gives the same record, and replaying what was
//! read reproduces every position of the game, every move and every set of
//! removed stacks. The same holds through the other writable formats
//! (Little Golem, CodeCup) whenever they can hold the game, for records
//! that leave out the forced 49th placement, for every prefix of a game,
//! and for comments anywhere in the moves.

use dvonn_core::{Bitboard, Move, Outcome, Position};
use dvonn_notation::GameRecord;
use dvonn_notation::{Format, read_any, write};
use proptest::prelude::*;
use proptest::sample::Index;

/// A legal game: where it starts and which legal move each ply picks.
#[derive(Clone, Debug)]
struct Game {
    /// `Some(seed)`: start from `Position::random_setup_from_seed(seed)`.
    setup: Option<u64>,
    /// The index of the move played at each ply, into the legal move list.
    choices: Vec<Index>,
}

/// A game played out: every position (the start first), every move, and
/// what each move removed.
struct Played {
    positions: Vec<Position>,
    moves: Vec<Move>,
    removed: Vec<Bitboard>,
}

impl Game {
    fn start(&self) -> Position {
        self.setup.map_or_else(Position::new, Position::random_setup_from_seed)
    }

    fn play(&self) -> Played {
        let mut position = self.start();
        let mut played = Played { positions: vec![position], moves: Vec::new(), removed: Vec::new() };
        for choice in &self.choices {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = *choice.get(&moves);
            played.removed.push(position.play(mv).expect("generated moves are legal"));
            played.moves.push(mv);
            played.positions.push(position);
        }
        played
    }
}

/// Games from the empty board (half of them, long enough to finish often)
/// and from random setups.
fn games() -> impl Strategy<Value = Game> {
    prop_oneof![
        prop::collection::vec(any::<Index>(), 0..140).prop_map(|choices| Game { setup: None, choices }),
        (any::<u64>(), prop::collection::vec(any::<Index>(), 0..90))
            .prop_map(|(seed, choices)| Game { setup: Some(seed), choices }),
    ]
}

/// Tags a record may hold: valid, unreserved, distinct names; values with
/// quotes, backslashes, braces and non-ASCII text, but no line breaks.
fn tags() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(("[A-Za-z][A-Za-z0-9_]{0,10}", "[ -~éü☃\"\\\\{}\\[\\]]{0,24}"), 0..5).prop_map(|tags| {
        let mut seen = std::collections::HashSet::new();
        tags.into_iter()
            .filter(|(name, _)| !matches!(name.as_str(), "Setup" | "Position" | "Result") && seen.insert(name.clone()))
            .collect()
    })
}

/// The result a record of `played` may give: the true one, unfinished, or a
/// resignation (a score other than the true one is never written).
fn result_of(played: &Played, kind: u8) -> Outcome {
    let last = played.positions.last().expect("a game has a start");
    match kind % 4 {
        0 | 1 => last.outcome(),
        2 => Outcome::Unfinished,
        _ => Outcome::Resigned(last.side_to_move()),
    }
}

fn record_of(game: &Game, played: &Played, tags: Vec<(String, String)>, result: Outcome) -> GameRecord {
    let mut record = GameRecord::new(game.start());
    for (name, value) in tags {
        assert!(record.set_tag(&name, &value), "{name}");
    }
    record.moves = played.moves.clone();
    record.result = result;
    record
}

/// Checks that `record` replays to exactly the game `played`, ended by
/// the record's resignation when the moves do not end it.
fn assert_replays_to(record: &GameRecord, played: &Played, what: &str) -> Result<(), TestCaseError> {
    let replay = record.replay().map_err(|error| TestCaseError::fail(format!("{what}: {error}")))?;
    prop_assert_eq!(&replay.moves().collect::<Vec<_>>(), &played.moves, "{}", what);
    prop_assert_eq!(replay.positions().len(), played.positions.len(), "{}", what);
    for (ply, (replayed, original)) in replay.positions().iter().zip(&played.positions).enumerate() {
        prop_assert_eq!(replayed, original, "{}: position {}", what, ply);
        prop_assert_eq!(replayed.hash(), original.hash(), "{}: position {}", what, ply);
    }
    let removed: Vec<Bitboard> = replay.plies().iter().map(|ply| ply.removed).collect();
    prop_assert_eq!(&removed, &played.removed, "{}", what);
    let last = played.positions.last().unwrap().outcome();
    prop_assert_eq!(replay.position().outcome(), last, "{}", what);
    let outcome = match record.result {
        Outcome::Resigned(color) if !last.is_over() => Outcome::Resigned(color),
        _ => last,
    };
    prop_assert_eq!(replay.outcome(), outcome, "{}", what);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// write -> read gives the same record, and its replay reproduces every
    /// position; writing what was read gives the same text.
    #[test]
    fn a_written_record_reads_back_and_replays_every_position(
        game in games(),
        tags in tags(),
        kind in any::<u8>(),
    ) {
        let played = game.play();
        let record = record_of(&game, &played, tags, result_of(&played, kind));
        let text = write(&record, Format::Record).unwrap();
        let read = GameRecord::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&read, &record, "{}", text);
        prop_assert_eq!(read.to_string(), text.clone());
        prop_assert!(text.lines().all(|line| line.chars().count() <= 80 || line.starts_with('[')), "{}", text);
        assert_replays_to(&read, &played, "record")?;
        // read_any tells the format and reads the same record.
        prop_assert_eq!(&read_any(&text, None).unwrap(), &record);
        let replay = read.replay().unwrap();
        prop_assert!(read.check_result(&replay).is_ok());
    }

    /// Line breaks in tag values become spaces; everything else survives.
    #[test]
    fn tag_values_with_line_breaks_read_back_as_one_line(
        value in "[a-z\"\\\\\r\n ]{0,30}",
        game in games(),
    ) {
        let played = game.play();
        let mut record = record_of(&game, &played, Vec::new(), Outcome::Unfinished);
        prop_assert!(record.set_tag("Annotator", &value));
        let read = GameRecord::parse(&record.to_string()).unwrap();
        let one_line = value.replace(['\r', '\n'], " ");
        prop_assert_eq!(read.tag("Annotator"), Some(one_line.as_str()));
        assert_replays_to(&read, &played, "record")?;
    }

    /// Through a Little Golem transcript and a CodeCup log (games from the
    /// empty board, not resigned for CodeCup), the moves and so every
    /// position survive.
    #[test]
    fn other_formats_keep_every_position(game in games(), kind in any::<u8>()) {
        let played = game.play();
        let record = record_of(&game, &played, vec![("White".into(), "Ann".into())], result_of(&played, kind));
        for format in [Format::LittleGolem, Format::CodeCup] {
            match write(&record, format) {
                Ok(text) => {
                    let read = read_any(&text, Some(format))
                        .map_err(|e| TestCaseError::fail(format!("{format}: {e}\n{text}")))?;
                    prop_assert_eq!(read.start, record.start);
                    // Neither format writes a score: reading gives the
                    // score of a finished game; a resignation survives.
                    let last = *played.positions.last().unwrap();
                    let expected = match record.result {
                        Outcome::Resigned(color) => Outcome::Resigned(color),
                        _ => last.outcome(),
                    };
                    if !(format == Format::LittleGolem && played.moves.len() == 48) {
                        prop_assert_eq!(read.result, expected, "{}:\n{}", format, text);
                    }
                    if format == Format::LittleGolem && played.moves.len() == 48 {
                        // Little Golem leaves out the 49th placement, so a
                        // transcript that ends after 48 reads as 49.
                        let mut last = *played.positions.last().unwrap();
                        let forced = last.legal_moves()[0];
                        let removed = last.play(forced).unwrap();
                        let filled = Played {
                            positions: [played.positions.as_slice(), &[last]].concat(),
                            moves: [played.moves.as_slice(), &[forced]].concat(),
                            removed: [played.removed.as_slice(), &[removed]].concat(),
                        };
                        assert_replays_to(&read, &filled, format.name())?;
                    } else {
                        assert_replays_to(&read, &played, format.name())?;
                    }
                }
                Err(_) => {
                    let resigned = matches!(record.result, Outcome::Resigned(_));
                    prop_assert!(
                        game.setup.is_some() || (format == Format::CodeCup && resigned),
                        "{} refused a game from the empty board",
                        format
                    );
                }
            }
        }
    }

    /// Comments anywhere in the moves, of any text, keep their places and
    /// their words through writing and reading, also where the forced 49th
    /// placement is left out; the moves are unchanged.
    #[test]
    fn comments_keep_their_places(
        game in games(),
        comments in prop::collection::vec((any::<Index>(), "[ -~éü☃\n\t]{0,100}"), 0..8),
        without_forced in any::<bool>(),
    ) {
        let played = game.play();
        let mut record = record_of(&game, &played, Vec::new(), Outcome::Unfinished);
        let leave_out = without_forced && game.setup.is_none() && played.moves.len() > 49;
        if leave_out {
            record.moves.remove(48);
        }
        for (place, text) in &comments {
            let added = record.add_comment(place.index(record.moves.len() + 1), text);
            prop_assert_eq!(added, !text.trim().is_empty());
        }
        let text = record.to_string();
        let read = GameRecord::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        assert_replays_to(&read, &played, "commented")?;
        let mut expected = record.clone();
        expected.fill_forced_placement();
        prop_assert_eq!(&read.comments, &expected.comments, "{}", text);
        for comment in &read.comments {
            let tidy = !comment.text.contains('}') && !comment.text.contains("  ");
            prop_assert!(tidy, "{:?}", comment.text);
            prop_assert_eq!(comment.text.trim(), comment.text.as_str());
        }
        prop_assert_eq!(read.to_string(), text);
    }

    /// A record that leaves out the forced 49th placement (as Little Golem
    /// does) replays to the same game, and is written with it.
    #[test]
    fn the_forced_placement_may_be_left_out(choices in prop::collection::vec(any::<Index>(), 50..120)) {
        let game = Game { setup: None, choices };
        let played = game.play();
        prop_assume!(played.moves.len() > 49);
        let mut record = record_of(&game, &played, Vec::new(), Outcome::Unfinished);
        record.moves.remove(48);
        assert_replays_to(&record, &played, "without the 49th placement")?;
        let read = GameRecord::parse(&record.to_string()).unwrap();
        prop_assert_eq!(&read.moves, &played.moves, "the writer puts it back");
        assert_replays_to(&read, &played, "written")?;
    }

    /// Every prefix of a game is a record that replays to the positions of
    /// that prefix.
    #[test]
    fn every_prefix_replays(game in games(), cut in any::<Index>()) {
        let played = game.play();
        let plies = cut.index(played.moves.len() + 1);
        let prefix = Played {
            positions: played.positions[..=plies].to_vec(),
            moves: played.moves[..plies].to_vec(),
            removed: played.removed[..plies].to_vec(),
        };
        let record = record_of(&game, &prefix, Vec::new(), Outcome::Unfinished);
        let read = GameRecord::parse(&record.to_string()).unwrap();
        assert_replays_to(&read, &prefix, "prefix")?;
    }
}
