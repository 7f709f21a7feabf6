//! Helpers shared by the fuzz targets: turning fuzz bytes into reachable
//! games, and the checks several targets make on every position.

use std::collections::HashSet;

use dvonn_core::{Color, Move, Position};

/// Where a byte-driven game starts, and the bytes left to choose its moves.
///
/// The first byte chooses the start: even, the empty board (the game begins
/// with the 49 placements); odd, `Position::random_setup_from_seed` of the
/// next eight bytes (little-endian, missing bytes read as 0), which starts in
/// the movement phase.
pub fn start_from_bytes(data: &[u8]) -> (Position, &[u8]) {
    match data.split_first() {
        None => (Position::new(), &[]),
        Some((&mode, rest)) if mode & 1 == 0 => (Position::new(), rest),
        Some((_, rest)) => {
            let (seed_bytes, moves) = rest.split_at(rest.len().min(8));
            let mut seed = [0u8; 8];
            seed[..seed_bytes.len()].copy_from_slice(seed_bytes);
            (Position::random_setup_from_seed(u64::from_le_bytes(seed)), moves)
        }
    }
}

/// The legal move `byte` picks in `position` (its index modulo the number of
/// legal moves), or `None` when the game is over.
pub fn pick(position: &Position, byte: u8) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() { None } else { Some(moves[usize::from(byte) % moves.len()]) }
}

/// The position reached from the start `data` chooses by the moves its other
/// bytes pick (stopping early when the game ends).
pub fn reachable_position(data: &[u8]) -> Position {
    let (mut position, moves) = start_from_bytes(data);
    for &byte in moves {
        let Some(mv) = pick(&position, byte) else { break };
        position.play(mv).expect("a generated move is legal");
    }
    position
}

/// The sum of the heights of the stacks `color` owns, cell by cell.
pub fn owned_heights(position: &Position, color: Color) -> u32 {
    position.owned_by(color).iter().map(|cell| u32::from(position.height_at(cell))).sum()
}

/// Checks that `is_legal` (that is, `check(mv).is_ok()`) agrees with the
/// move generator on every candidate move (`Move::candidates()`, 2,402 of
/// them), and that the generator lists no move twice.
pub fn check_legality_agrees(position: &Position) {
    let moves = position.legal_moves();
    let legal: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(legal.len(), moves.len(), "a move listed twice in {position}: {moves:?}");
    for mv in Move::candidates() {
        let generated = legal.contains(&mv);
        assert_eq!(position.check(mv).is_ok(), generated, "check({mv}) in {position}: {moves:?}");
    }
    assert_eq!(position.count_legal_moves() as usize, moves.len(), "count_legal_moves in {position}");
}

/// Checks the caches and the text form of `position`: the score against the
/// stacks, the setup (every stack connected to a DVONN piece in the
/// movement phase), the position rebuilt from it (its incremental hash
/// against the hash from scratch among the rest) and the position string
/// round trip.
pub fn check_position(position: &Position) {
    for color in Color::BOTH {
        assert_eq!(position.pieces(color), owned_heights(position, color), "pieces({color}) in {position}");
    }
    let rebuilt = Position::from_setup(&position.to_setup())
        .unwrap_or_else(|error| panic!("the setup of {position} does not validate: {error}"));
    assert_eq!(rebuilt, *position, "rebuilt from its setup (the hash from scratch included)");
    let text = position.to_string();
    let read: Position = text.parse().unwrap_or_else(|error| panic!("{text:?} does not read back: {error}"));
    assert_eq!(read, *position, "{text}");
    assert_eq!(read.to_string(), text);
}
