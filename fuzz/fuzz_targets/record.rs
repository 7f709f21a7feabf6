//! `record`: any bytes, as UTF-8 text, read as a game record
//! (`GameRecord::parse`) and as every format `notation::read_any` knows
//! (told by `Format::detect`, and named), then replayed: never a panic. A
//! record that replays is written out in the project's record format and
//! reads back to the same game: the same start, the same moves (the forced
//! 49th placement filled in), the same positions and result, the same tags
//! (line breaks in values become spaces), the same comments in the same
//! places, and writing it again gives the same text. Written as a Little Golem transcript or a CodeCup log (when
//! the format can hold the game), it reads back to the same moves (a Little
//! Golem transcript that stops after the 48th placement reads back with the
//! forced 49th: the format leaves it out).
#![no_main]

use dvonn_core::Phase;
use dvonn_notation::{Format, GameRecord, read_any, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = GameRecord::parse(text) {
        check_record(&record);
    }
    if let Ok(record) = read_any(text, None) {
        check_record(&record);
    }
    for format in [Format::LittleGolem, Format::Sgf, Format::CodeCup] {
        if let Ok(record) = read_any(text, Some(format)) {
            check_record(&record);
        }
    }
});

fn check_record(record: &GameRecord) {
    let Ok(replay) = record.replay() else { return };
    let _ = record.check_result(&replay);
    let written = write(record, Format::Record).expect("any record can be written as a game record");
    let read = GameRecord::parse(&written).unwrap_or_else(|error| panic!("{error}\n{written}"));
    assert_eq!(read.start, record.start, "{written}");
    assert_eq!(read.result, record.result, "{written}");
    let expected_tags: Vec<(String, String)> =
        record.tags.iter().map(|(name, value)| (name.clone(), value.replace(['\n', '\r'], " "))).collect();
    assert_eq!(read.tags, expected_tags, "{written}");
    let mut filled = record.clone();
    filled.fill_forced_placement();
    assert_eq!(read.comments, filled.comments, "{written}");
    let again = read.replay().unwrap_or_else(|error| panic!("{error}\n{written}"));
    assert_eq!(again.moves().collect::<Vec<_>>(), replay.moves().collect::<Vec<_>>(), "{written}");
    assert_eq!(again.positions(), replay.positions(), "{written}");
    assert_eq!(again.plies(), replay.plies(), "{written}");
    assert_eq!(read.to_string(), written, "writing what was read gives the same text");
    assert_eq!(again.position().outcome(), replay.position().outcome());

    for format in [Format::LittleGolem, Format::CodeCup] {
        let Ok(text) = write(record, format) else { continue };
        let back = read_any(&text, Some(format)).unwrap_or_else(|error| panic!("{format}: {error}\n{text}"));
        let back_replay = back.replay().unwrap_or_else(|error| panic!("{format}: {error}\n{text}"));
        assert_eq!(back.start, record.start, "{format}:\n{text}");
        let mut moves: Vec<_> = replay.moves().collect();
        let last = replay.position();
        if format == Format::LittleGolem && last.phase() == Phase::Placement && last.placed() == 48 {
            // Little Golem leaves out the forced 49th placement, so a game
            // that stops right before it reads back with it.
            moves.extend(last.legal_moves());
        }
        assert_eq!(back_replay.moves().collect::<Vec<_>>(), moves, "{format}:\n{text}");
    }
}
