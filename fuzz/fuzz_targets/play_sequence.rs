//! `play_sequence`: the bytes choose a start (the first byte: the empty
//! board, or `Position::random_setup_from_seed` of the next eight bytes) and
//! then a legal move per byte (its index modulo the number of legal moves).
//! After every move:
//! - the incremental hash equals the hash of the position rebuilt from its setup;
//! - pieces are conserved: pieces on the board + pieces removed = pieces
//!   placed, where the removed pieces are counted from the cells the move
//!   reports (which were occupied, are empty now and never held a DVONN
//!   piece);
//! - no stack is left cut off: `Position::from_setup(&p.to_setup())` is Ok
//!   and gives the same position;
//! - the position string round-trips;
//! - `pieces(color)` equals the sum of the heights of the stacks `color`
//!   owns;
//! - every 4th ply and at the end, `is_legal` and `check` agree with the
//!   generator on all 2,402 candidate moves;
//! - a pass is offered exactly when the rules require it, and the game is
//!   over exactly when there is no legal move.
#![no_main]

use dvonn_core::{Bitboard, Move, Phase, Position};
use dvonn_fuzz::{check_legality_agrees, check_position, pick, start_from_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (mut position, choices) = start_from_bytes(data);
    let mut removed_pieces = 0u32;
    check_position(&position);
    check_legality_agrees(&position);
    for (ply, &byte) in choices.iter().enumerate() {
        check_moves_and_end(&position);
        let Some(mv) = pick(&position, byte) else { break };
        let before = position;
        let removed = position.play(mv).unwrap_or_else(|error| panic!("generated {mv} in {before}: {error}"));
        removed_pieces += removed_count(&before, mv, removed, &position);
        assert_eq!(
            position.pieces_on_board() + removed_pieces,
            position.placed(),
            "pieces not conserved after {mv} in {before}"
        );
        check_position(&position);
        if ply % 4 == 3 {
            check_legality_agrees(&position);
        }
    }
    check_moves_and_end(&position);
    check_legality_agrees(&position);
});

/// The pieces `mv` removed from `before`: the stacks on the cells it
/// reports, as they stood after the jump.
fn removed_count(before: &Position, mv: Move, removed: Bitboard, after: &Position) -> u32 {
    if removed.is_empty() {
        return 0;
    }
    let Move::Jump { from, to } = mv else { panic!("{mv} removed {removed:?} in {before}") };
    assert!(!removed.intersects(after.occupied()), "{mv} in {before}: removed cells still occupied");
    assert!(!removed.contains(from), "{mv} in {before}: the emptied cell reported removed");
    assert!(removed.iter().all(|cell| before.stack_at(cell).is_some()), "{mv} in {before}: removed empty cells");
    let moved_dvonn = before.dvonn_stacks().contains(from);
    assert!(!removed.intersects(before.dvonn_stacks()), "{mv} in {before}: a DVONN piece removed");
    assert!(!(moved_dvonn && removed.contains(to)), "{mv} in {before}: a DVONN piece removed with the moved stack");
    removed
        .iter()
        .map(|cell| {
            let height = u32::from(before.height_at(cell));
            if cell == to { height + u32::from(before.height_at(from)) } else { height }
        })
        .sum()
}

/// A pass exactly when the mover has no jump and the opponent has one; no
/// move exactly when the game is over.
fn check_moves_and_end(position: &Position) {
    let moves = position.legal_moves();
    let over = position.is_game_over();
    assert_eq!(moves.is_empty(), over, "{position}: {moves:?}");
    assert_eq!(position.outcome().is_over(), over, "{position}");
    let side = position.side_to_move();
    let must_pass =
        position.phase() == Phase::Movement && !position.has_jump(side) && position.has_jump(side.opponent());
    assert_eq!(moves.as_slice() == [Move::Pass], must_pass, "{position}: {moves:?}");
    assert_eq!(moves.contains(&Move::Pass), must_pass, "{position}: {moves:?}");
}
