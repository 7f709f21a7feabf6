//! Small helpers shared by the readers and writers of game records: error
//! locations, the forced last placement, and the numbering of plies.

use dvonn_core::Color;
use dvonn_core::Move;
use dvonn_core::TOTAL_PIECES;
use dvonn_core::{Phase, Position};

/// The most plies a reader accepts. A game of DVONN has 49 placements and
/// at most 48 movements with at most one pass between two of them (two
/// passes in a row end the game), so no game is longer than 145 plies; the
/// bound keeps hostile input from growing a huge move list.
pub const MAX_PLIES: usize = 1000;

/// The byte-order mark some editors put at the start of a file.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The 1-based line and column (counted in characters) of the byte at
/// `offset`, which must be a character boundary of `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The largest character boundary of `text` at or below `offset`.
pub(crate) fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The byte offset reached from `start` by stepping over `chars` characters
/// of `text` (stopping at its end).
pub(crate) fn advance_chars(text: &str, start: usize, chars: usize) -> usize {
    let start = floor_char_boundary(text, start);
    text[start..].char_indices().nth(chars).map_or(text.len(), |(at, _)| start + at)
}

/// At most 24 characters of `text`, for quoting hostile input in messages.
pub(crate) fn excerpt(text: &str) -> String {
    text.chars().take(24).collect()
}

/// Whether `byte` is white space between tokens.
pub(crate) const fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// The moves with the forced 49th placement inserted where it is missing
/// (see [`missing_forced_placement`]); `None` when nothing is missing.
pub(crate) fn with_forced_placement(start: &Position, moves: &[Move]) -> Option<Vec<Move>> {
    let (ply, placement) = missing_forced_placement(start, moves)?;
    let mut filled = Vec::with_capacity(moves.len() + 1);
    filled.extend_from_slice(&moves[..ply]);
    filled.push(placement);
    filled.extend_from_slice(&moves[ply..]);
    Some(filled)
}

/// Where the forced 49th placement is missing from `moves`, and what it
/// is: when the placements from `start` have filled 48 cells and the next
/// move (at the index returned) is a movement or a pass, the one empty cell
/// is placed first. This is decided from the cells alone, without checking
/// legality (a replay reports any illegal move). `None` when nothing is
/// missing.
pub(crate) fn missing_forced_placement(start: &Position, moves: &[Move]) -> Option<(usize, Move)> {
    if start.phase() != Phase::Placement {
        return None;
    }
    let mut occupied = start.occupied();
    for (ply, mv) in moves.iter().enumerate() {
        match *mv {
            Move::Place(cell) => occupied.insert(cell),
            Move::Jump { .. } | Move::Pass => {
                if occupied.len() + 1 != u32::from(TOTAL_PIECES) {
                    return None;
                }
                return (!occupied).first().map(|cell| (ply, Move::Place(cell)));
            }
        }
    }
    None
}

/// The player who makes ply `ply` of a game from the empty board, all 49
/// placements counted: White and Black alternate through placement (White
/// makes ply 48, the last placement) and again from ply 49 on, White first.
pub(crate) const fn mover_of_ply(ply: usize) -> Color {
    let index = if ply < TOTAL_PIECES as usize { ply } else { ply - TOTAL_PIECES as usize };
    if index % 2 == 0 { Color::White } else { Color::Black }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_count_lines_and_characters() {
        let text = "ab\nçd\ne";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 5), (2, 2), "ç is one column");
        assert_eq!(line_col(text, 4), (2, 1), "inside ç: the character's column");
        assert_eq!(line_col(text, 999), (3, 2));
        assert_eq!(advance_chars(text, 3, 1), 5);
    }

    #[test]
    fn plies_alternate_around_the_double_white_turn() {
        assert_eq!(mover_of_ply(0), Color::White);
        assert_eq!(mover_of_ply(47), Color::Black);
        assert_eq!(mover_of_ply(48), Color::White);
        assert_eq!(mover_of_ply(49), Color::White);
        assert_eq!(mover_of_ply(50), Color::Black);
    }
}
