//! Properties of every reachable position, checked with proptest.
//!
//! A generated [`Line`] is a start (the empty board, or the random setup of a
//! generated seed) and a list of indices into the legal move lists met along
//! the way: every position it reaches is reachable by legal play, and
//! shrinking shortens the line and lowers the indices, so a failure shrinks
//! to a short game. Along every line, after every move:
//! - pieces are conserved: pieces on the board + pieces removed so far =
//!   pieces placed so far (49 once placement is over), and what a move
//!   removes is exactly the stacks on the cells it reports;
//! - no stack is left cut off from the DVONN pieces: the position's setup
//!   validates, and rebuilding from it gives the same position;
//! - the incremental hash equals the hash of the position rebuilt from its
//!   setup, and equal positions reached by different move orders hash
//!   alike;
//! - playing on a copy leaves the original unchanged, and replaying the same
//!   moves gives an identical position (`Eq` and `Hash`);
//! - the position string round-trips and is stable;
//! - `pieces()` and the other set accessors agree with `stack_at`;
//! - `count_jumps` / `has_jump` agree with `legal_moves` for both players,
//!   and a pass is offered exactly when the rules require one;
//! - `play` refuses illegal moves without changing anything;
//! - perft(2) in bulk, perft(2) making every leaf, and the sums of divide(2)
//!   in both modes are equal.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use dvonn_core::perft::{PerftMode, divide, perft};
use dvonn_core::{Bitboard, Cell, Color, Move, Phase, Position, Setup};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;

/// A reachable game: where it starts and which legal move each ply picks.
#[derive(Clone, Debug)]
struct Line {
    /// `Some(seed)`: start from `Position::random_setup_from_seed(seed)`.
    setup: Option<u64>,
    /// The index of the move played at each ply, into the legal move list.
    choices: Vec<Index>,
}

/// One ply of a line.
#[derive(Clone, Copy, Debug)]
struct Step {
    before: Position,
    mv: Move,
    removed: Bitboard,
    after: Position,
}

impl Line {
    fn start(&self) -> Position {
        match self.setup {
            None => Position::new(),
            #[cfg(feature = "rand")]
            Some(seed) => Position::random_setup_from_seed(seed),
            #[cfg(not(feature = "rand"))]
            Some(_) => unreachable!("lines() makes no random setup without the rand feature"),
        }
    }

    /// The plies of the line, stopping early if the game ends.
    fn steps(&self) -> Vec<Step> {
        let mut position = self.start();
        let mut steps = Vec::new();
        for choice in &self.choices {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = *choice.get(&moves);
            let before = position;
            let removed = position.play(mv).unwrap_or_else(|e| panic!("{e} in {before}"));
            steps.push(Step { before, mv, removed, after: position });
        }
        steps
    }

    /// The start and every position after it.
    fn positions(&self) -> Vec<Position> {
        std::iter::once(self.start()).chain(self.steps().into_iter().map(|step| step.after)).collect()
    }

    fn end(&self) -> Position {
        *self.positions().last().expect("a line has a start")
    }
}

/// Lines from the empty board (half of them) or from a random setup, up to
/// 110 plies: the whole placement and a good part of the movement phase.
#[cfg(feature = "rand")]
fn lines() -> impl Strategy<Value = Line> {
    (prop::option::of(any::<u64>()), prop::collection::vec(any::<Index>(), 0..110))
        .prop_map(|(setup, choices)| Line { setup, choices })
}

/// Without the `rand` feature there are no random setups: lines from the
/// empty board, up to 110 plies.
#[cfg(not(feature = "rand"))]
fn lines() -> impl Strategy<Value = Line> {
    prop::collection::vec(any::<Index>(), 0..110).prop_map(|choices| Line { setup: None, choices })
}

/// `std`'s hash of a value (through `Position: Hash`).
fn std_hash<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// The pieces a move took off the board: the stacks on the removed cells
/// after the move was made (a landing stack that was cut off includes the
/// stack that jumped onto it).
fn removed_pieces(step: &Step) -> u32 {
    step.removed
        .iter()
        .map(|cell| {
            let landed = match step.mv {
                Move::Jump { from, to } if to == cell => step.before.height_at(from),
                _ => 0,
            };
            u32::from(step.before.height_at(cell) + landed)
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn pieces_are_conserved(line in lines()) {
        let start = line.start();
        let mut removed_so_far = start.placed() - start.pieces_on_board();
        prop_assert_eq!(removed_so_far, 0);
        for step in line.steps() {
            let Step { before, mv, removed, after } = step;
            prop_assert!(removed.iter().all(|cell| !after.occupied().contains(cell)), "{mv} in {before}");
            let vacated = mv.from().map_or(Bitboard::EMPTY, Bitboard::from);
            let changed = Bitboard::from_iter(mv.to()) | vacated;
            prop_assert_eq!(after.occupied() | removed | vacated, before.occupied() | changed, "{} in {}", mv, before);
            prop_assert!(!removed.intersects(vacated), "{} in {}", mv, before);
            prop_assert!(!removed.intersects(before.dvonn_stacks()), "a DVONN piece was removed by {mv} in {before}");
            prop_assert_eq!(after.dvonn_stacks() & removed, Bitboard::EMPTY);
            if !matches!(mv, Move::Jump { .. }) {
                prop_assert_eq!(removed, Bitboard::EMPTY, "only movements remove stacks");
            }
            let gained = u32::from(mv.is_placement());
            prop_assert_eq!(before.pieces_on_board() + gained, after.pieces_on_board() + removed_pieces(&step));
            removed_so_far += removed_pieces(&step);
            prop_assert_eq!(after.pieces_on_board() + removed_so_far, after.placed(), "{}", after);
            if after.phase() == Phase::Movement {
                prop_assert_eq!(after.placed(), 49);
                prop_assert!((1..=3).contains(&after.dvonn_stacks().len()), "{}", after);
                let dvonn_pieces = 49 - removed_so_far - after.pieces(Color::White) - after.pieces(Color::Black);
                prop_assert_eq!(dvonn_pieces, (after.dvonn_stacks() - after.owned_by(Color::White) - after.owned_by(Color::Black)).len());
            }
        }
    }

    #[test]
    fn no_stack_is_left_cut_off(line in lines()) {
        for position in line.positions() {
            let setup = position.to_setup();
            prop_assert_eq!(Position::from_setup(&setup), Ok(position), "{}", position);
            prop_assert_eq!(setup.validate(), Ok(()));
        }
    }

    #[test]
    fn the_incremental_hash_is_the_hash_from_scratch(line in lines()) {
        for position in line.positions() {
            let rebuilt = Position::from_setup(&position.to_setup()).map(|rebuilt| rebuilt.hash());
            prop_assert_eq!(rebuilt, Ok(position.hash()), "{}", position);
        }
    }

    #[test]
    fn transposed_placements_give_the_same_position_and_hash(
        choices in prop::collection::vec(any::<Index>(), 6..=49),
        a in any::<Index>(),
        b in any::<Index>(),
    ) {
        // Two placements of the same colour (plies 3 and later, an even
        // number of plies apart) made in the other order reach the same
        // position.
        let steps = Line { setup: None, choices }.steps();
        let n = steps.len();
        let p = 3 + a.index(n - 5);
        let q = p + 2 * (1 + b.index((n - 1 - p) / 2));
        prop_assert!(q < n && steps[p].before.side_to_move() == steps[q].before.side_to_move());
        let mut cells: Vec<Move> = steps.iter().map(|s| s.mv).collect();
        cells.swap(p, q);
        let mut position = Position::new();
        for mv in &cells {
            position.play(*mv).unwrap();
        }
        let original = steps[n - 1].after;
        prop_assert_eq!(position, original);
        prop_assert_eq!(position.hash(), original.hash());
        prop_assert_eq!(std_hash(&position), std_hash(&original));
        prop_assert_eq!(position.to_string(), original.to_string());
    }

    #[test]
    fn playing_on_a_copy_or_into_another_leaves_the_original_and_replays_are_identical(line in lines()) {
        let steps = line.steps();
        let mut replay = line.start();
        for step in &steps {
            let original = step.before;
            let (text, hash) = (original.to_string(), original.hash());
            let mut copy = original;
            let removed = copy.play(step.mv).unwrap();
            prop_assert_eq!(original, step.before);
            prop_assert_eq!((original.to_string(), original.hash()), (text, hash));
            prop_assert_eq!((copy, removed), (step.after, step.removed));
            let mut unchecked = original;
            prop_assert_eq!(unchecked.play_unchecked(step.mv), step.removed);
            prop_assert_eq!(unchecked, step.after);
            // Over a stale position, so that every field must be written.
            let mut child = line.start();
            prop_assert_eq!(original.play_into(step.mv, &mut child), step.removed);
            prop_assert_eq!(child, step.after);
            prop_assert_eq!(replay.play(step.mv), Ok(step.removed));
            prop_assert_eq!(replay, step.after);
            prop_assert_eq!(std_hash(&replay), std_hash(&step.after));
        }
        prop_assert_eq!(replay, line.end());
    }

    #[test]
    fn position_strings_round_trip(line in lines()) {
        for position in line.positions() {
            let text = position.to_string();
            let read: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(read, position, "{}", text);
            prop_assert_eq!(read.to_string(), text.clone());
            prop_assert_eq!(read.hash(), position.hash());
            prop_assert_eq!(position.to_setup().to_string(), text);
        }
    }

    #[test]
    fn the_accessors_agree_with_stack_at(line in lines()) {
        for position in line.positions() {
            let mut pieces = [0u32; 2];
            let mut on_board = 0;
            let mut occupied = Bitboard::EMPTY;
            let mut dvonn = Bitboard::EMPTY;
            let mut owned = [Bitboard::EMPTY; 2];
            let mut by_height = [Bitboard::EMPTY; 11];
            let mut too_tall = Bitboard::EMPTY;
            for cell in Cell::ALL {
                let Some(stack) = position.stack_at(cell) else {
                    prop_assert_eq!(position.height_at(cell), 0);
                    prop_assert_eq!(position.owner_at(cell), None);
                    continue;
                };
                prop_assert_eq!(position.height_at(cell), stack.height());
                prop_assert_eq!(position.owner_at(cell), stack.owner());
                on_board += u32::from(stack.height());
                occupied.insert(cell);
                if stack.has_dvonn() {
                    dvonn.insert(cell);
                }
                if let Some(owner) = stack.owner() {
                    pieces[owner.index()] += u32::from(stack.height());
                    owned[owner.index()].insert(cell);
                } else {
                    prop_assert!(stack.is_lone_dvonn() && stack.has_dvonn() && stack.height() == 1);
                }
                if stack.height() <= 10 {
                    by_height[usize::from(stack.height())].insert(cell);
                } else {
                    too_tall.insert(cell);
                }
            }
            for color in Color::BOTH {
                prop_assert_eq!(position.pieces(color), pieces[color.index()], "{}", position);
                prop_assert_eq!(position.owned_by(color), owned[color.index()], "{}", position);
            }
            prop_assert_eq!(position.pieces_on_board(), on_board);
            prop_assert_eq!(position.occupied(), occupied);
            prop_assert_eq!(position.dvonn_stacks(), dvonn);
            prop_assert_eq!(position.too_tall(), too_tall, "{}", position);
            for height in 0..=11u8 {
                let expected = if (1..=10).contains(&height) { by_height[usize::from(height)] } else { Bitboard::EMPTY };
                prop_assert_eq!(position.stacks_of_height(height), expected, "height {} in {}", height, position);
            }
            let outcome = position.outcome();
            if position.is_game_over() {
                let (white, black) = (pieces[0], pieces[1]);
                let winner = match white.cmp(&black) {
                    std::cmp::Ordering::Greater => Some(Color::White),
                    std::cmp::Ordering::Less => Some(Color::Black),
                    std::cmp::Ordering::Equal => None,
                };
                prop_assert_eq!(outcome, dvonn_core::Outcome::Score { white, black });
                prop_assert_eq!(outcome.winner(), winner);
            } else {
                prop_assert_eq!(outcome, dvonn_core::Outcome::Unfinished);
            }
        }
    }

    #[test]
    fn jump_counts_agree_with_the_legal_moves(line in lines()) {
        for position in line.positions() {
            let moves = position.legal_moves();
            prop_assert_eq!(position.count_legal_moves() as usize, moves.len());
            if position.phase() == Phase::Placement {
                prop_assert!(moves.iter().all(|mv| mv.is_placement()));
                prop_assert_eq!(moves.len() as u32, 49 - position.occupied().len());
                prop_assert!(!position.is_game_over());
                continue;
            }
            let side = position.side_to_move();
            let jumps = moves.iter().filter(|mv| matches!(mv, Move::Jump { .. })).count() as u32;
            prop_assert_eq!(position.count_jumps(side), jumps, "{}", position);
            prop_assert_eq!(position.has_jump(side), jumps > 0);
            // The other player's jumps are the legal moves of the same board
            // with him to move.
            let flipped = Position::from_setup(&Setup { side: !side, ..position.to_setup() }).unwrap();
            let theirs = flipped.legal_moves().iter().filter(|mv| matches!(mv, Move::Jump { .. })).count() as u32;
            prop_assert_eq!(position.count_jumps(!side), theirs, "{}", position);
            prop_assert_eq!(position.has_jump(!side), theirs > 0);
            let expected_pass = jumps == 0 && theirs > 0;
            prop_assert_eq!(moves.contains(&Move::Pass), expected_pass, "{}", position);
            if expected_pass {
                prop_assert_eq!(moves.as_slice(), &[Move::Pass]);
            }
            prop_assert_eq!(position.is_game_over(), jumps == 0 && theirs == 0);
            prop_assert_eq!(moves.is_empty(), position.is_game_over());
            prop_assert_eq!(position.outcome().is_over(), position.is_game_over());
            for mv in &moves {
                if let Move::Jump { from, to } = *mv {
                    prop_assert_eq!(position.owner_at(from), Some(side));
                    let (_, distance) = from.line_to(to).unwrap();
                    prop_assert_eq!(distance, i32::from(position.height_at(from)));
                    prop_assert!(position.occupied().contains(to));
                }
            }
        }
    }

    #[test]
    fn play_refuses_illegal_moves_and_changes_nothing(line in lines(), picks in prop::collection::vec(any::<Index>(), 1..40)) {
        let position = line.end();
        let candidates: Vec<Move> = Move::candidates().collect();
        let legal = position.legal_moves();
        for pick in &picks {
            let mv = *pick.get(&candidates);
            let mut copy = position;
            match copy.play(mv) {
                Ok(removed) => {
                    prop_assert!(legal.contains(&mv), "{} accepted in {}", mv, position);
                    let mut unchecked = position;
                    prop_assert_eq!(unchecked.play_unchecked(mv), removed);
                    prop_assert_eq!(unchecked, copy);
                }
                Err(error) => {
                    prop_assert!(!legal.contains(&mv), "{} refused in {}: {}", mv, position, error);
                    prop_assert_eq!(error.mv, mv);
                    prop_assert_eq!(position.check(mv), Err(error.reason));
                    prop_assert_eq!(copy, position);
                }
            }
        }
    }

    #[test]
    fn perft_modes_and_divide_agree(line in lines()) {
        let position = line.end();
        let bulk = perft(&position, 2, PerftMode::Bulk);
        prop_assert_eq!(perft(&position, 2, PerftMode::MakeEveryLeaf), bulk, "{}", position);
        prop_assert_eq!(perft(&position, 0, PerftMode::Bulk), 1);
        prop_assert_eq!(perft(&position, 1, PerftMode::Bulk), u64::from(position.count_legal_moves().max(1)));
        let moves = position.legal_moves();
        for mode in [PerftMode::Bulk, PerftMode::MakeEveryLeaf] {
            let split = divide(&position, 2, mode);
            prop_assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), if moves.is_empty() { 0 } else { bulk });
            prop_assert_eq!(split.iter().map(|(mv, _)| *mv).collect::<Vec<_>>(), moves.to_vec());
            for (mv, count) in split {
                let mut child = position;
                child.play(mv).unwrap();
                prop_assert_eq!(count, u64::from(child.count_legal_moves().max(1)), "{} after {}", position, mv);
            }
        }
        prop_assert!(divide(&position, 0, PerftMode::Bulk).is_empty());
    }
}
