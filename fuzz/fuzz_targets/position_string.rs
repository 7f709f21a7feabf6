//! `position_string`: any bytes that are UTF-8 and read as a position string
//! write back to a string that reads as the same position, and writing that
//! gives the same string again. Every position the reader accepts is also a
//! sound position: its caches agree with the stacks, its setup validates,
//! `is_legal` agrees with the move generator on all 2,402 candidate moves,
//! and every legal move leads to a position with the same properties.
#![no_main]

use dvonn_core::Position;
use dvonn_fuzz::{check_legality_agrees, check_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(position) = text.parse::<Position>() else { return };
    let written = position.to_string();
    let read: Position = written.parse().unwrap_or_else(|error| panic!("{written:?} does not read back: {error}"));
    assert_eq!(read, position, "{text:?} was written as {written:?}");
    assert_eq!(read.to_string(), written, "{text:?}");
    check_position(&position);
    check_legality_agrees(&position);
    for mv in position.legal_moves() {
        let mut next = position;
        next.play(mv).unwrap_or_else(|error| panic!("{mv} in {position}: {error}"));
        check_position(&next);
    }
});
