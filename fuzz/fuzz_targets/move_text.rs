//! `move_text`: any bytes that are UTF-8 and read as a move (or as a cell)
//! write back, canonically, to a text that reads as the same move; the
//! canonical text is the input up to case and a `-` between the cells. The
//! move, whatever it is (a jump onto its own cell, between cells on no
//! line), can be checked and played in any position without a panic, and
//! an illegal one changes nothing.
#![no_main]

use std::sync::OnceLock;

use dvonn_core::{Cell, Move, Position};
use libfuzzer_sys::fuzz_target;

/// A few positions of every kind: the empty board, early and late
/// placement, a random setup and a position with tall stacks.
fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        [
            "........./........../.........../........../......... w p",
            "........./........../....D....../........../......... b p",
            "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/.BDWWBBWBB/WBWBWWBBW w p",
            "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m",
            "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m",
            "........./........../W12DB3*W5B10....../........../......... b m",
        ]
        .iter()
        .map(|text| text.parse().unwrap_or_else(|error| panic!("{text}: {error}")))
        .chain([Position::random_setup_from_seed(1)])
        .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(cell) = text.parse::<Cell>() {
        let canonical = cell.to_string();
        assert_eq!(canonical.parse::<Cell>(), Ok(cell), "{text:?}");
        assert!(canonical.eq_ignore_ascii_case(text), "{text:?} was written {canonical:?}");
    }
    let Ok(mv) = text.parse::<Move>() else { return };
    let canonical = mv.to_string();
    assert_eq!(canonical.parse::<Move>(), Ok(mv), "{text:?} was written {canonical:?}");
    assert_eq!(canonical.parse::<Move>().map(|m| m.to_string()), Ok(canonical.clone()));
    assert!(
        canonical.eq_ignore_ascii_case(text) || canonical.eq_ignore_ascii_case(&text.replacen('-', "", 1)),
        "{text:?} was written {canonical:?}"
    );
    for position in positions() {
        let legal = position.is_legal(mv);
        assert_eq!(position.check(mv).is_ok(), legal, "{mv} in {position}");
        let mut after = *position;
        match after.play(mv) {
            Ok(_) => assert!(legal, "{mv} played in {position} but is_legal says no"),
            Err(_) => {
                assert!(!legal, "{mv} refused in {position} but is_legal says yes");
                assert_eq!(after, *position, "a refused move changed the position");
            }
        }
    }
});
