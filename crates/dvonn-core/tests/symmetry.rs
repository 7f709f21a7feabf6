//! The symmetries of the board map legal play to legal play.
//!
//! The maps are derived from the axial coordinates of `docs/RULES.md` (a cell
//! `(x, y)` exists iff `0 <= y <= 4`, `0 <= x <= 10`, `y - 2 <= x <= y + 8`):
//! - the 180-degree rotation `(x, y) -> (10 - x, 4 - y)`;
//! - the mirror that swaps rows 1 and 5, 2 and 4, and keeps row 3:
//!   `(x, y) -> (x - y + 2, 4 - y)` (it maps A1 to C5);
//! - their composition `(x, y) -> (8 - x + y, y)`, the mirror that keeps
//!   every row and reverses it (A1 to I1).
//!
//! What this file proves:
//! - each map sends the 49 cells onto themselves, is its own inverse, keeps
//!   straight lines and distances along them (so neighbours, jump lengths
//!   and the six-neighbour rule are preserved), and the four maps with the
//!   identity form a group;
//! - for every perft vector position and for hundreds of random reachable
//!   positions, the transformed position has the same perft(3) (bulk) count;
//! - at every ply of random games, the legal moves map exactly onto the
//!   legal moves of the transformed position, and playing commutes with the
//!   map: the image of the position after a move is the transformed position
//!   after the image of the move, with the images of the removed cells;
//! - in the movement phase, swapping the colours of all stacks and the side
//!   to move is a symmetry too (the placement order is not symmetric in
//!   colour, so placement positions are left out of that one).

use std::collections::HashSet;

use dvonn_core::perft::{PerftMode, perft};
use dvonn_core::{Bitboard, Cell, Direction, Move, Phase, Position, Setup, Stack};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

const PERFT: &str = include_str!("vectors/perft.txt");

/// A symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Symmetry {
    Identity,
    /// `(x, y) -> (10 - x, 4 - y)`.
    Rotation,
    /// `(x, y) -> (x - y + 2, 4 - y)`: rows 1 <-> 5, 2 <-> 4.
    Mirror,
    /// The rotation after the mirror: `(x, y) -> (8 - x + y, y)`.
    RotatedMirror,
}

impl Symmetry {
    const ALL: [Symmetry; 4] = [Symmetry::Identity, Symmetry::Rotation, Symmetry::Mirror, Symmetry::RotatedMirror];
    const NON_TRIVIAL: [Symmetry; 3] = [Symmetry::Rotation, Symmetry::Mirror, Symmetry::RotatedMirror];

    fn map_xy(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotation => (10 - x, 4 - y),
            Symmetry::Mirror => (x - y + 2, 4 - y),
            Symmetry::RotatedMirror => Symmetry::Rotation.map_xy(Symmetry::Mirror.map_xy((x, y))),
        }
    }

    fn cell(self, cell: Cell) -> Cell {
        let (x, y) = self.map_xy((cell.x(), cell.y()));
        Cell::new(x, y).unwrap_or_else(|| panic!("{self:?} maps {cell} off the board"))
    }

    fn cells(self, cells: Bitboard) -> Bitboard {
        cells.iter().map(|cell| self.cell(cell)).collect()
    }

    fn mv(self, mv: Move) -> Move {
        match mv {
            Move::Place(cell) => Move::Place(self.cell(cell)),
            Move::Jump { from, to } => Move::Jump { from: self.cell(from), to: self.cell(to) },
            Move::Pass => Move::Pass,
        }
    }

    /// The position with every stack moved to the image of its cell.
    fn position(self, position: &Position) -> Position {
        let setup = position.to_setup();
        let mut image = Setup { stacks: [None; 49], ..setup };
        for (cell, stack) in setup.iter() {
            image.stacks[self.cell(cell).index()] = Some(stack);
        }
        Position::from_setup(&image).unwrap_or_else(|e| panic!("{self:?} of {position} is not a position: {e}"))
    }
}

/// The position with White's and Black's stacks exchanged and the other
/// player to move (movement phase only).
fn swap_colours(position: &Position) -> Position {
    assert_eq!(position.phase(), Phase::Movement);
    let setup = position.to_setup();
    let mut image = Setup { stacks: [None; 49], side: !setup.side, phase: setup.phase };
    for (cell, stack) in setup.iter() {
        image.stacks[cell.index()] = Stack::new(stack.height(), stack.owner().map(|c| !c), stack.has_dvonn());
    }
    Position::from_setup(&image).unwrap()
}

/// `(position, [(depth, count)])` from perft.txt.
fn perft_vectors() -> Vec<(Position, Vec<(u32, u64)>)> {
    let vectors = dvonn_core::perft::read_vectors(PERFT).unwrap_or_else(|e| panic!("perft.txt {e}"));
    vectors.into_iter().map(|v| (v.position, v.counts)).collect()
}

/// The random setup of `seed` (random setups need the `rand` feature).
#[cfg(feature = "rand")]
fn random_setup(seed: u64) -> Position {
    Position::random_setup_from_seed(seed)
}

/// Without the `rand` feature there are no random setups: another game from
/// the empty board, whose random placements give another full board.
#[cfg(not(feature = "rand"))]
fn random_setup(_seed: u64) -> Position {
    Position::new()
}

/// Positions along seeded random games, from the empty board and from
/// random setups: every position of `games` games of each kind.
fn random_game_positions(games: u64, seed: u64) -> Vec<Position> {
    let mut positions = Vec::new();
    for n in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + n);
        for start in [Position::new(), random_setup(seed + n)] {
            let mut position = start;
            positions.push(position);
            while let Some(&mv) = position.legal_moves().choose(&mut rng) {
                position.play(mv).unwrap();
                positions.push(position);
            }
        }
    }
    positions
}

#[test]
fn the_maps_send_the_board_onto_itself_and_keep_lines() {
    let on_board = |(x, y): (i32, i32)| Cell::new(x, y).is_some();
    for symmetry in Symmetry::ALL {
        // Exactly the cells of the board map onto cells of the board.
        for y in -3..8 {
            for x in -3..14 {
                assert_eq!(on_board(symmetry.map_xy((x, y))), on_board((x, y)), "{symmetry:?} at ({x}, {y})");
            }
        }
        let images: HashSet<Cell> = Cell::ALL.iter().map(|&cell| symmetry.cell(cell)).collect();
        assert_eq!(images.len(), 49, "{symmetry:?} is a bijection");
        for cell in Cell::ALL {
            assert_eq!(symmetry.cell(symmetry.cell(cell)), cell, "{symmetry:?} is its own inverse");
            assert_eq!(symmetry.cell(cell).is_interior(), cell.is_interior(), "{symmetry:?} at {cell}");
            for direction in Direction::ALL {
                if let Some(neighbour) = cell.step(direction, 1) {
                    let (_, distance) = symmetry.cell(cell).line_to(symmetry.cell(neighbour)).unwrap();
                    assert_eq!(distance, 1, "{symmetry:?} keeps {cell} and {neighbour} neighbours");
                }
            }
            for other in Cell::ALL {
                let distance = cell.line_to(other).map(|(_, d)| d);
                let image = symmetry.cell(cell).line_to(symmetry.cell(other)).map(|(_, d)| d);
                assert_eq!(image, distance, "{symmetry:?} on {cell}-{other}");
            }
        }
    }
    let cell = |name: &str| name.parse::<Cell>().unwrap();
    assert_eq!(Symmetry::Mirror.cell(cell("A1")), cell("C5"));
    assert_eq!(Symmetry::Mirror.cell(cell("I1")), cell("K5"));
    assert_eq!(Symmetry::Rotation.cell(cell("A1")), cell("K5"));
    assert_eq!(Symmetry::RotatedMirror.cell(cell("A1")), cell("I1"));
    assert_eq!(Symmetry::RotatedMirror.cell(cell("B4")), cell("K4"));
    for row3 in Cell::ALL.into_iter().filter(|c| c.y() == 2) {
        assert_eq!(Symmetry::Mirror.cell(row3), row3, "the mirror keeps row 3");
    }
    let fixed: Vec<Cell> = Cell::ALL.into_iter().filter(|&c| Symmetry::Rotation.cell(c) == c).collect();
    assert_eq!(fixed, [cell("F3")], "the rotation turns the board about its centre");
    // With the identity the maps form a group: each composition is one of them.
    for a in Symmetry::ALL {
        for b in Symmetry::ALL {
            let composed = Symmetry::ALL
                .into_iter()
                .filter(|c| Cell::ALL.iter().all(|&cell| a.cell(b.cell(cell)) == c.cell(cell)))
                .count();
            assert_eq!(composed, 1, "{a:?} after {b:?}");
        }
    }
    for symmetry in Symmetry::NON_TRIVIAL {
        assert!(Cell::ALL.iter().any(|&c| symmetry.cell(c) != c), "{symmetry:?} moves some cell");
    }
}

#[test]
fn the_perft_vectors_are_symmetric() {
    let mut checked = 0;
    for (position, counts) in perft_vectors() {
        let expected = perft(&position, 3, PerftMode::Bulk);
        if let Some(&(_, vector)) = counts.iter().find(|(depth, _)| *depth == 3) {
            assert_eq!(expected, vector, "{position}");
        }
        for symmetry in Symmetry::NON_TRIVIAL {
            let image = symmetry.position(&position);
            assert_eq!(perft(&image, 3, PerftMode::Bulk), expected, "{symmetry:?} of {position}: {image}");
            assert_eq!(symmetry.position(&image), position);
            checked += 1;
        }
        if position.phase() == Phase::Movement {
            assert_eq!(perft(&swap_colours(&position), 3, PerftMode::Bulk), expected, "colours swapped in {position}");
        }
    }
    assert_eq!(checked, 3 * 21);
}

#[test]
fn random_positions_have_symmetric_perft() {
    let positions = random_game_positions(12, 5_000_000);
    let mut checked = 0;
    // Every fifth position: a few hundred, all through the game.
    for position in positions.iter().step_by(5) {
        let expected = perft(position, 3, PerftMode::Bulk);
        for symmetry in Symmetry::NON_TRIVIAL {
            assert_eq!(perft(&symmetry.position(position), 3, PerftMode::Bulk), expected, "{symmetry:?} of {position}");
        }
        if position.phase() == Phase::Movement {
            assert_eq!(perft(&swap_colours(position), 3, PerftMode::Bulk), expected, "colours swapped in {position}");
        }
        checked += 1;
    }
    assert!(checked > 250, "{checked} positions");
}

#[test]
fn legal_moves_and_play_commute_with_the_symmetries() {
    let positions = random_game_positions(60, 6_000_000);
    let mut moves_checked = 0u64;
    for position in &positions {
        let moves = position.legal_moves();
        for symmetry in Symmetry::NON_TRIVIAL {
            let image = symmetry.position(position);
            let mapped: HashSet<Move> = moves.iter().map(|&mv| symmetry.mv(mv)).collect();
            let expected: HashSet<Move> = image.legal_moves().into_iter().collect();
            assert_eq!(mapped, expected, "{symmetry:?} of {position}: {image}");
            assert_eq!(image.is_game_over(), position.is_game_over());
            assert_eq!(image.outcome(), position.outcome());
            for &mv in &moves {
                let mut after = *position;
                let removed = after.play(mv).unwrap();
                let mut image_after = image;
                let image_removed = image_after.play(symmetry.mv(mv)).unwrap();
                assert_eq!(symmetry.position(&after), image_after, "{symmetry:?}: {mv} in {position}");
                assert_eq!(symmetry.cells(removed), image_removed, "{symmetry:?}: {mv} in {position}");
                moves_checked += 1;
            }
        }
        if position.phase() == Phase::Movement {
            let swapped = swap_colours(position);
            let expected: HashSet<Move> = swapped.legal_moves().into_iter().collect();
            assert_eq!(moves.iter().copied().collect::<HashSet<Move>>(), expected, "colours swapped in {position}");
            for &mv in &moves {
                let (mut after, mut swapped_after) = (*position, swapped);
                let removed = after.play(mv).unwrap();
                assert_eq!(swapped_after.play(mv), Ok(removed), "colours swapped: {mv} in {position}");
                assert_eq!(swap_colours(&after), swapped_after, "colours swapped: {mv} in {position}");
            }
        }
    }
    assert!(positions.len() > 6000, "{} positions", positions.len());
    assert!(moves_checked > 500_000, "{moves_checked} moves");
}
