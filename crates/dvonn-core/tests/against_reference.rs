//! The engine against the reference model of `tests/reference/`: a second,
//! deliberately simple implementation of `docs/RULES.md`.
//!
//! What this file proves:
//! - the reference itself follows the rule book: board geometry, placement
//!   order, the examples of the docs, and the shared vectors (perft counts
//!   and complete games with their scores), computed without the engine;
//! - in thousands of seeded playouts (uniform, tower-building and creeping
//!   move choices), from the empty board and from random setups, the engine
//!   and the reference agree at every ply on the set of legal moves (and the
//!   engine lists none twice), `count_legal_moves`, `for_each_move` and
//!   `for_each_jump`, the
//!   jumps and `mobility` of each player, the cells a move removes, every
//!   stack (height, owner, DVONN inside) and every cached set of cells, the
//!   side to move, the phase, the piece counts, the position string (written
//!   independently), game over, the outcome and the final score;
//! - the same on thousands of arbitrary legal positions (random stacks, tall
//!   ones and mixed colours included, at most 49 pieces, nothing cut off),
//!   where every legal move is played and compared, and on a sweep of every
//!   height from 1 to 12 on every cell in every direction: every jump length
//!   the board allows (1 to 10 along rows, 1 to 4 along the other lines);
//! - at every ply of a share of the playouts, `is_legal`, `check` and `play`
//!   agree with the legal move list on all 2,402 candidate moves, the reason
//!   `check` gives for refusing a move is true, and an illegal `play` leaves
//!   the position untouched;
//! - the public bitboard operations (shift, neighbours, surrounded, flood
//!   fill, complement, iteration) agree with the reference's geometry;
//! - no two different positions among a hundred thousand and more share a
//!   hash, including families that differ only in one stack's height;
//! - the playouts reach the rare corners of the rules (passes, removals,
//!   surrounded stacks, long row jumps, stacks too tall to move, draws, every
//!   kind of illegal move): the coverage counters are asserted.
//!
//! Everything is reproducible: every random choice comes from a `ChaCha8Rng`
//! seeded with a constant, and a failure names the playout and the ply.
//! `DVONN_SOAK=<factor>` multiplies the number of games for a long run.

mod reference;

use std::collections::{BTreeSet, HashMap, HashSet};

use dvonn_core::{Bitboard, Cell, Color, Direction, IllegalMoveReason, Move, Outcome, Phase, Position, Setup, Stack};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{CELLS, Game, Player, RefMove};

const PERFT: &str = include_str!("vectors/perft.txt");
const GAMES: &str = include_str!("vectors/games.txt");

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// Every legal move alike.
    Uniform,
    /// Mostly the jump that builds the tallest stack: reaches long row jumps
    /// and stacks too tall to move, which uniform play seldom does.
    Towering,
    /// Mostly a jump by the smallest stack onto the smallest: long games,
    /// many surrounded stacks and late passes.
    Creeping,
}

/// What the playouts met; asserted at the end so that a change of seeds or
/// of policies cannot silently stop testing a rule.
#[derive(Debug, Default)]
struct Coverage {
    playouts: u64,
    plies: u64,
    placements: u64,
    jumps: u64,
    passes: u64,
    moves_that_removed: u64,
    stacks_removed: u64,
    /// Jumps of 5 cells or more (only along rows).
    long_jumps: u64,
    /// Plies where a stack taller than 10 stood on the board.
    too_tall_plies: u64,
    /// Plies where a stack of the mover had an occupied landing cell but was
    /// surrounded, so the rule of the six neighbours removed a move.
    surrounded_blocks: u64,
    /// Plies where a stack of the mover could not move because every landing
    /// cell was empty or off the board.
    stuck_by_distance: u64,
    /// Positions where the mover had moves and the other player had none.
    one_sided: u64,
    games_over: u64,
    white_wins: u64,
    black_wins: u64,
    draws: u64,
    candidate_plies: u64,
    /// The kinds of `IllegalMoveReason` that `check` gave.
    reasons: HashSet<std::mem::Discriminant<IllegalMoveReason>>,
}

fn engine_moves_as_set(position: &Position, context: &dyn std::fmt::Display) -> BTreeSet<RefMove> {
    let moves = position.legal_moves();
    let set: BTreeSet<RefMove> = moves.iter().map(|&mv| reference::from_engine(mv)).collect();
    assert_eq!(set.len(), moves.len(), "{context}: the engine lists a move twice in {position}: {moves:?}");
    set
}

/// Panics unless the engine's sets of cells (occupied, owned, DVONN, by
/// height, too tall) are those of the reference.
fn assert_same_sets(game: &Game, position: &Position, context: &dyn std::fmt::Display) {
    let cells =
        |keep: &dyn Fn(usize) -> bool| -> Bitboard { (0..CELLS).filter(|&i| keep(i)).map(reference::cell).collect() };
    let height = |i: usize| game.board[i].len();
    assert_eq!(position.occupied(), cells(&|i| height(i) > 0), "{context}: occupied() in {position}");
    assert_eq!(position.dvonn_stacks(), cells(&|i| game.has_dvonn(i)), "{context}: dvonn_stacks() in {position}");
    for player in [Player::White, Player::Black] {
        let owned = cells(&|i| game.owner(i) == Some(player));
        assert_eq!(position.owned_by(reference::color(player)), owned, "{context}: owned_by in {position}");
    }
    for h in 0..=12 {
        let expected = if (1..=10).contains(&h) { cells(&|i| height(i) == h) } else { Bitboard::EMPTY };
        assert_eq!(position.stacks_of_height(h as u8), expected, "{context}: stacks_of_height({h}) in {position}");
    }
    assert_eq!(position.too_tall(), cells(&|i| height(i) > 10), "{context}: too_tall() in {position}");
    for i in 0..CELLS {
        assert_eq!(usize::from(position.height_at(reference::cell(i))), height(i), "{context}: height_at");
        assert_eq!(position.owner_at(reference::cell(i)), game.owner(i).map(reference::color), "{context}: owner_at");
    }
}

/// The hash of `position` rebuilt from its setup: computed from the stacks
/// alone, not kept up move by move.
fn rebuilt_hash(position: &Position) -> Result<u64, dvonn_core::SetupError> {
    Position::from_setup(&position.to_setup()).map(|rebuilt| rebuilt.hash())
}

/// Every check of one position that does not need a move to be played.
fn compare_position(
    game: &Game,
    position: &Position,
    candidates: bool,
    coverage: &mut Coverage,
    context: &dyn std::fmt::Display,
) {
    reference::assert_same(game, position, context);
    assert_same_sets(game, position, context);
    let text = position.to_string();
    assert_eq!(text, game.position_string(), "{context}: position strings differ");
    assert_eq!(text.parse::<Position>().as_ref(), Ok(position), "{context}: {text} does not read back");
    assert_eq!(rebuilt_hash(position), Ok(position.hash()), "{context}: incremental hash drifted in {text}");

    let engine = engine_moves_as_set(position, context);
    let expected: BTreeSet<RefMove> = game.legal_moves().into_iter().collect();
    assert_eq!(
        engine,
        expected,
        "{context}: legal moves differ in {text}\n engine only: {:?}\n reference only: {:?}",
        engine.difference(&expected).collect::<Vec<_>>(),
        expected.difference(&engine).collect::<Vec<_>>()
    );
    let list = position.legal_moves();
    assert_eq!(position.count_legal_moves() as usize, list.len(), "{context}: count_legal_moves in {text}");
    let mut visited = Vec::new();
    position.for_each_move(|mv| visited.push(mv));
    assert_eq!(visited.as_slice(), list.as_slice(), "{context}: for_each_move order in {text}");
    let mut jumps = Vec::new();
    let count = position.for_each_jump(|from, to| jumps.push(Move::Jump { from, to }));
    let listed_jumps: Vec<Move> = list.iter().copied().filter(|mv| matches!(mv, Move::Jump { .. })).collect();
    assert_eq!(count as usize, jumps.len(), "{context}: for_each_jump's count in {text}");
    assert_eq!(jumps, listed_jumps, "{context}: for_each_jump in {text}");

    if !game.in_placement() {
        for player in [Player::White, Player::Black] {
            let jumps = game.jumps(player).len();
            let color = reference::color(player);
            assert_eq!(position.count_jumps(color) as usize, jumps, "{context}: count_jumps({color}) in {text}");
            assert_eq!(position.has_jump(color), jumps > 0, "{context}: has_jump({color}) in {text}");
            let mobility = position.mobility(color);
            let (mut movers, mut targets) = (vec![false; CELLS], vec![false; CELLS]);
            for (from, to) in game.jumps(player) {
                (movers[from], targets[to]) = (true, true);
            }
            assert_eq!(mobility.moves as usize, jumps, "{context}: mobility({color}).moves in {text}");
            assert_eq!(mobility.movers, bitboard(&movers), "{context}: mobility({color}).movers in {text}");
            assert_eq!(mobility.targets, bitboard(&targets), "{context}: mobility({color}).targets in {text}");
        }
    }
    for player in [Player::White, Player::Black] {
        let color = reference::color(player);
        assert_eq!(position.pieces(color) as usize, game.score(player), "{context}: pieces({color}) in {text}");
    }
    assert_eq!(position.pieces_on_board() as usize, game.pieces_on_board(), "{context}: pieces on board in {text}");
    assert_eq!(position.placed() as usize, game.placed, "{context}: placements made in {text}");

    assert_eq!(position.is_game_over(), game.is_over(), "{context}: game over in {text}");
    assert_eq!(game.is_over(), !game.in_placement() && expected.is_empty(), "{context}: the reference's game over");
    let (white, black) = (game.score(Player::White), game.score(Player::Black));
    let (outcome, winner) = if game.is_over() {
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        (Outcome::Score { white: white as u32, black: black as u32 }, winner)
    } else {
        (Outcome::Unfinished, None)
    };
    assert_eq!(position.outcome(), outcome, "{context}: outcome in {text}");
    assert_eq!(position.outcome().winner(), winner, "{context}: winner in {text}");

    if candidates {
        let mut count = 0;
        for mv in Move::candidates() {
            count += 1;
            let legal = expected.contains(&reference::from_engine(mv));
            assert_eq!(position.is_legal(mv), legal, "{context}: is_legal({mv}) in {text}");
            assert_eq!(position.check(mv).is_ok(), legal, "{context}: check({mv}) in {text}");
            if let Err(reason) = position.check(mv) {
                assert_reason_is_true(game, mv, reason, &format!("{context}: check({mv}) in {text}"));
                coverage.reasons.insert(std::mem::discriminant(&reason));
            }
            let mut copy = *position;
            match copy.play(mv) {
                Ok(_) => assert!(legal, "{context}: play accepted the illegal {mv} in {text}"),
                Err(error) => {
                    assert!(!legal, "{context}: play refused the legal {mv} in {text}: {error}");
                    assert_eq!(error.mv, mv);
                    assert_eq!(copy, *position, "{context}: a refused {mv} changed {text}");
                }
            }
        }
        assert_eq!(count, 2402, "Move::candidates() yields every move that could ever be legal");
        // Not a candidate, but a user can write it: a stack never jumps onto itself.
        for cell in Cell::ALL {
            let onto_itself = Move::Jump { from: cell, to: cell };
            assert!(!position.is_legal(onto_itself), "{context}: {onto_itself} is legal in {text}");
            let mut copy = *position;
            assert!(copy.play(onto_itself).is_err() && copy == *position, "{context}: {onto_itself} in {text}");
        }
    }
}

/// Panics unless the reason `check` gives for refusing `mv` is true of the
/// position, according to the reference.
fn assert_reason_is_true(game: &Game, mv: Move, reason: IllegalMoveReason, context: &str) {
    use IllegalMoveReason as R;
    let placement = game.in_placement();
    let line = |from: usize, to: usize| reference::cell(from).line_to(reference::cell(to)).map(|(_, d)| d);
    let holds = match (reason, reference::from_engine(mv)) {
        (R::NotPlacementPhase, RefMove::Place(_)) => !placement,
        (R::NotMovementPhase, RefMove::Jump(..) | RefMove::Pass) => placement,
        (R::GameOver, _) => game.is_over(),
        (R::Occupied(cell), RefMove::Place(to)) => placement && cell.index() == to && game.is_occupied(to),
        (R::NoStack(cell), RefMove::Jump(from, _)) => cell.index() == from && !game.is_occupied(from),
        (R::NotOwnStack(cell), RefMove::Jump(from, _)) => {
            cell.index() == from && game.is_occupied(from) && game.owner(from) != Some(game.to_move)
        }
        (R::Surrounded(cell), RefMove::Jump(from, _)) => cell.index() == from && game.is_surrounded(from),
        (R::NotInLine(a, b), RefMove::Jump(from, to)) => {
            (a.index(), b.index()) == (from, to) && line(from, to).is_none()
        }
        (R::WrongDistance { from: cell, height, distance }, RefMove::Jump(from, to)) => {
            cell.index() == from
                && usize::from(height) == game.board[from].len()
                && line(from, to) == Some(i32::from(distance))
                && usize::from(height) != usize::from(distance)
        }
        (R::EmptyDestination(cell), RefMove::Jump(_, to)) => cell.index() == to && !game.is_occupied(to),
        (R::MustMove, RefMove::Pass) => !game.jumps(game.to_move).is_empty(),
        _ => false,
    };
    assert!(holds, "{context}: the reason given, {reason:?} ({reason}), is not true");
}

/// Counts what the position shows about the rarer rules.
fn observe(game: &Game, coverage: &mut Coverage) {
    if game.in_placement() {
        return;
    }
    if game.board.iter().any(|stack| stack.len() > 10) {
        coverage.too_tall_plies += 1;
    }
    let mover = game.to_move;
    let (mine, theirs) = (game.jumps(mover).len(), game.jumps(mover.other()).len());
    if mine > 0 && theirs == 0 {
        coverage.one_sided += 1;
    }
    let mut surrounded = false;
    let mut stuck = false;
    for from in (0..CELLS).filter(|&cell| game.owner(cell) == Some(mover)) {
        let (x, y) = reference::coords(from);
        let height = game.board[from].len() as i32;
        let landings = reference::DIRECTIONS
            .iter()
            .filter_map(|&(dx, dy)| reference::index_at(x + dx * height, y + dy * height))
            .filter(|&to| game.is_occupied(to))
            .count();
        if landings > 0 && game.is_surrounded(from) {
            surrounded = true;
        }
        if landings == 0 {
            stuck = true;
        }
    }
    coverage.surrounded_blocks += u64::from(surrounded);
    coverage.stuck_by_distance += u64::from(stuck);
}

/// The move the policy picks among the legal ones.
fn choose(position: &Position, moves: &[Move], policy: Policy, rng: &mut ChaCha8Rng) -> Move {
    let uniform = *moves.choose(rng).expect("a move to choose");
    if position.phase() == Phase::Placement || rng.random_bool(0.25) {
        return uniform;
    }
    let height = |mv: &Move| match *mv {
        Move::Jump { from, to } => (u32::from(position.height_at(from)), u32::from(position.height_at(to))),
        _ => (0, 0),
    };
    let best = match policy {
        Policy::Uniform => return uniform,
        Policy::Towering => moves.iter().map(|mv| height(mv).0 + height(mv).1).max(),
        Policy::Creeping => moves.iter().map(height).min().map(|(a, b)| a * 64 + b),
    };
    let fits = |mv: &&Move| match policy {
        Policy::Towering => Some(height(mv).0 + height(mv).1) == best,
        _ => Some(height(mv).0 * 64 + height(mv).1) == best,
    };
    let candidates: Vec<Move> = moves.iter().filter(fits).copied().collect();
    *candidates.choose(rng).expect("the best move is a legal move")
}

/// Plays one game to its end in the engine and the reference side by side,
/// comparing everything at every ply.
fn playout(start: Position, seed: u64, policy: Policy, candidates: bool, coverage: &mut Coverage) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = start;
    let mut game = reference::from_position(&position);
    let mut ply = 0;
    loop {
        let context = format!("playout {seed} ({policy:?}), ply {ply}");
        compare_position(&game, &position, candidates, coverage, &context);
        observe(&game, coverage);
        coverage.candidate_plies += u64::from(candidates);
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = choose(&position, &moves, policy, &mut rng);
        match mv {
            Move::Place(_) => coverage.placements += 1,
            Move::Jump { from, to } => {
                coverage.jumps += 1;
                let (_, distance) = from.line_to(to).expect("a jump runs along a line");
                coverage.long_jumps += u64::from(distance >= 5);
            }
            Move::Pass => coverage.passes += 1,
        }
        let before = position;
        let removed = position.play(mv).unwrap_or_else(|e| panic!("{context}: {e} in {before}"));
        let expected = game.play(reference::from_engine(mv));
        let removed: Vec<usize> = removed.iter().map(|cell| cell.index()).collect();
        assert_eq!(removed, expected, "{context}: {mv} in {before} removes different cells");
        coverage.moves_that_removed += u64::from(!removed.is_empty());
        coverage.stacks_removed += removed.len() as u64;
        ply += 1;
        coverage.plies += 1;
    }
    assert!(game.is_over() && position.is_game_over(), "playout {seed}: the loop ends only at the end of the game");
    coverage.games_over += 1;
    coverage.playouts += 1;
    let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
    assert_eq!(
        (white as usize, black as usize),
        (game.score(Player::White), game.score(Player::Black)),
        "playout {seed}: final score"
    );
    let outcome = position.outcome();
    assert!(outcome.is_over(), "playout {seed}: a finished game has an outcome");
    match outcome.winner() {
        Some(Color::White) => coverage.white_wins += 1,
        Some(Color::Black) => coverage.black_wins += 1,
        None => coverage.draws += 1,
    }
}

/// The policy of playout number `n`: a third of each.
fn policy(n: u64) -> Policy {
    [Policy::Uniform, Policy::Towering, Policy::Creeping][(n % 3) as usize]
}

/// Playouts per starting kind (empty board, random setup), before scaling.
const PLAYOUTS: u64 = 1500;

/// How many times more games to play than the defaults: the environment
/// variable `DVONN_SOAK` (for a long run by hand: `DVONN_SOAK=100 cargo test
/// --release -p dvonn-core --test against_reference`), 1 when unset.
fn soak() -> u64 {
    std::env::var("DVONN_SOAK").ok().and_then(|factor| factor.parse().ok()).unwrap_or(1).max(1)
}

#[test]
fn playouts_from_the_empty_board_agree_with_the_reference() {
    let mut coverage = Coverage::default();
    let playouts = PLAYOUTS * soak();
    for n in 0..playouts {
        playout(Position::new(), 1_000_000 + n, policy(n), false, &mut coverage);
    }
    assert_eq!(coverage.playouts, playouts);
    assert_eq!(coverage.placements, playouts * 49, "every game places 49 pieces");
    assert!(coverage.plies > playouts * 70, "{coverage:?}");
    assert!(coverage.passes > 0, "{coverage:?}");
    assert!(coverage.moves_that_removed > 1000, "{coverage:?}");
    assert!(coverage.long_jumps > 0, "{coverage:?}");
    assert!(coverage.too_tall_plies > 0, "{coverage:?}");
    assert!(coverage.surrounded_blocks > 1000, "{coverage:?}");
    assert!(coverage.stuck_by_distance > 1000, "{coverage:?}");
    assert!(coverage.one_sided > 0, "{coverage:?}");
    assert!(coverage.white_wins > 0 && coverage.black_wins > 0 && coverage.draws > 0, "{coverage:?}");
}

#[cfg(feature = "rand")]
#[test]
fn playouts_from_random_setups_agree_with_the_reference() {
    let mut coverage = Coverage::default();
    let playouts = PLAYOUTS * soak();
    for n in 0..playouts {
        playout(Position::random_setup_from_seed(n), 2_000_000 + n, policy(n), false, &mut coverage);
    }
    assert_eq!(coverage.playouts, playouts);
    assert_eq!(coverage.placements, 0, "a random setup starts in the movement phase");
    assert!(coverage.plies > playouts * 20, "{coverage:?}");
    assert!(coverage.passes > 0, "{coverage:?}");
    assert!(coverage.moves_that_removed > 1000, "{coverage:?}");
    assert!(coverage.long_jumps > 0, "{coverage:?}");
    assert!(coverage.too_tall_plies > 0, "{coverage:?}");
    assert!(coverage.surrounded_blocks > 1000, "{coverage:?}");
    assert!(coverage.one_sided > 0, "{coverage:?}");
    assert!(coverage.white_wins > 0 && coverage.black_wins > 0 && coverage.draws > 0, "{coverage:?}");
}

#[test]
fn every_candidate_move_is_judged_like_the_reference() {
    let mut coverage = Coverage::default();
    let pairs = 20 * soak();
    for n in 0..pairs {
        playout(Position::new(), 3_000_000 + n, policy(n), true, &mut coverage);
        #[cfg(feature = "rand")]
        playout(Position::random_setup_from_seed(3_000_000 + n), 4_000_000 + n, policy(n), true, &mut coverage);
    }
    // Random setups need the `rand` feature.
    let starts = if cfg!(feature = "rand") { 2 } else { 1 };
    assert_eq!(coverage.playouts, starts * pairs);
    assert_eq!(coverage.candidate_plies, coverage.plies + coverage.playouts, "every ply, final positions included");
    assert!(coverage.passes > 0, "{coverage:?}");
    assert!(coverage.moves_that_removed > 0, "{coverage:?}");
    assert_eq!(coverage.reasons.len(), 11, "every kind of IllegalMoveReason was met: {coverage:?}");
}

/// A movement position that the rules allow but play seldom reaches: up to
/// three DVONN cells, stacks of random heights (tall ones included) and
/// random colours inside, on a random share of the cells, at most 49 pieces,
/// whatever is cut off from the DVONN pieces taken away; either player to
/// move. Built on the reference, so the colours below the tops are real.
fn arbitrary_game(rng: &mut ChaCha8Rng) -> Game {
    use reference::Piece;
    let mut game = Game { placed: CELLS, ..Game::new() };
    let mut cells: Vec<usize> = (0..CELLS).collect();
    cells.shuffle(rng);
    let dvonn_cells = rng.random_range(1..=3);
    let density = rng.random_range(0.15..1.0);
    let tallest = rng.random_range(1..=16);
    let mut budget = CELLS;
    // Each colour has 23 pieces: a position with more is not a position.
    let mut pieces_left = [23usize, 23];
    for (i, &cell) in cells.iter().enumerate() {
        let dvonn = i < dvonn_cells;
        if budget == 0 || (!dvonn && !rng.random_bool(density)) {
            continue;
        }
        let height = if rng.random_bool(0.5) { rng.random_range(1..=3) } else { rng.random_range(1..=tallest) };
        let height = height.min(budget);
        let stack = &mut game.board[cell];
        if dvonn && (height == 1 || rng.random_bool(0.3)) {
            stack.push(Piece::Dvonn);
        } else {
            while stack.len() < height && pieces_left.iter().any(|&n| n > 0) {
                let white = pieces_left[1] == 0 || (pieces_left[0] > 0 && rng.random_bool(0.5));
                pieces_left[usize::from(!white)] -= 1;
                stack.push(if white { Piece::White } else { Piece::Black });
            }
            if stack.is_empty() {
                continue;
            }
            if dvonn {
                if stack.len() == 1 {
                    stack.insert(0, Piece::Dvonn);
                } else {
                    let at = rng.random_range(0..stack.len() - 1);
                    stack[at] = Piece::Dvonn;
                }
            }
        }
        budget -= stack.len();
    }
    game.to_move = if rng.random_bool(0.5) { Player::White } else { Player::Black };
    game.remove_cut_off();
    game
}

/// Plays every legal move of `position` in the engine and in the reference
/// and compares the removed cells and the positions reached; returns the
/// (direction, distance) of every jump played.
fn compare_every_move(game: &Game, position: &Position, context: &dyn std::fmt::Display) -> Vec<(usize, i32)> {
    let mut jumps = Vec::new();
    for mv in position.legal_moves() {
        let mut after = *position;
        let removed: Vec<usize> = after.play(mv).unwrap().iter().map(|cell| cell.index()).collect();
        let mut expected = game.clone();
        assert_eq!(removed, expected.play(reference::from_engine(mv)), "{context}: {mv} in {position}");
        reference::assert_same(&expected, &after, &format!("{context}: after {mv}"));
        assert_same_sets(&expected, &after, &format!("{context}: after {mv}"));
        assert_eq!(rebuilt_hash(&after), Ok(after.hash()), "{context}: {mv} in {position}");
        if let Move::Jump { from, to } = mv {
            let (direction, distance) = from.line_to(to).unwrap();
            let direction = Direction::ALL.iter().position(|d| *d == direction).unwrap();
            jumps.push((direction, distance));
        }
    }
    jumps
}

#[test]
fn arbitrary_stack_positions_agree_with_the_reference() {
    let mut coverage = Coverage::default();
    let mut jumps_seen = HashSet::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7_000_000);
    let mut positions = 0;
    let count = 3000 * soak();
    for n in 0..count {
        let game = arbitrary_game(&mut rng);
        let setup = reference::to_setup(&game);
        let position = Position::from_setup(&setup).unwrap_or_else(|e| panic!("arbitrary {n}: {setup} refused: {e}"));
        assert_eq!(position.to_string(), game.position_string());
        let context = format!("arbitrary position {n}");
        compare_position(&game, &position, n % 50 == 0, &mut coverage, &context);
        jumps_seen.extend(compare_every_move(&game, &position, &context));
        playout(position, 8_000_000 + n, policy(n), false, &mut coverage);
        positions += 1;
    }
    assert_eq!(positions, count);
    // All jump lengths up to 4 in the six directions and most longer row
    // jumps were played (the sweep below plays every one).
    for direction in 0..6 {
        for distance in 1..=4 {
            assert!(jumps_seen.contains(&(direction, distance)), "no jump of {distance} in direction {direction}");
        }
    }
    assert!(jumps_seen.len() >= 30, "{jumps_seen:?}");
    assert!(coverage.passes > 100 && coverage.too_tall_plies > 1000, "{coverage:?}");
}

#[test]
fn every_jump_length_from_every_cell_in_every_direction() {
    // A white stack of each height on each cell, with a line of single black
    // pieces running from it in one direction as far as its height (or the
    // edge); the DVONN piece is in the white stack, or for a stack of one
    // at the end of the line. Along that direction the white stack lands
    // exactly on the cell `height` steps away, if the board has one; all its
    // moves are compared with the reference.
    let mut checked = 0;
    for from in Cell::ALL {
        for direction in Direction::ALL {
            for height in 1..=12u8 {
                let mut setup = Setup::empty(Color::White, Phase::Movement);
                let line: Vec<Cell> =
                    (1..=i32::from(height)).map_while(|distance| from.step(direction, distance)).collect();
                for cell in &line {
                    setup.stacks[cell.index()] = Some(Stack::single(Color::Black));
                }
                let dvonn_cell = match (height, line.last()) {
                    (1, Some(&last)) => last,
                    (1, None) => Direction::ALL.iter().find_map(|&d| from.step(d, 1)).unwrap(),
                    _ => from,
                };
                setup.stacks[dvonn_cell.index()] = Some(Stack::LONE_DVONN);
                setup.stacks[from.index()] = Stack::new(height, Some(Color::White), height > 1);
                let position = Position::from_setup(&setup).unwrap_or_else(|e| panic!("{setup}: {e}"));
                let game = reference::from_position(&position);
                let context = format!("{height} from {from} {direction:?}");
                let mut coverage = Coverage::default();
                compare_position(&game, &position, false, &mut coverage, &context);
                compare_every_move(&game, &position, &context);
                let target = from.step(direction, i32::from(height));
                let jump = target.map(|to| Move::Jump { from, to });
                let moves = position.legal_moves();
                assert_eq!(jump.is_some_and(|mv| moves.contains(&mv)), target.is_some(), "{context}: {position}");
                let along: Vec<&Move> = moves
                    .iter()
                    .filter(|mv| mv.from() == Some(from) && from.line_to(mv.to().unwrap()).unwrap().0 == direction)
                    .collect();
                assert_eq!(along.len(), usize::from(target.is_some()), "{context}: {position}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 49 * 6 * 12);
}

#[test]
fn distinct_positions_have_distinct_hashes() {
    // The hash is 64 bits: among a few hundred thousand positions a collision
    // between different positions would point at a flaw in the keys (two
    // heights, kinds or cells sharing a key), not at bad luck.
    let mut seen: HashMap<u64, Position> = HashMap::new();
    let mut record = |position: Position| {
        if let Some(other) = seen.insert(position.hash(), position) {
            assert_eq!(other, position, "{other} and {position} share the hash {:#x}", position.hash());
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(9_000_000);
    for n in 0..3000 {
        let start = match n % 3 {
            0 => Position::new(),
            #[cfg(feature = "rand")]
            1 => Position::random_setup_from_seed(9_000_000 + n),
            _ => Position::from_setup(&reference::to_setup(&arbitrary_game(&mut rng))).unwrap(),
        };
        let mut position = start;
        record(position);
        while let Some(&mv) = position.legal_moves().choose(&mut rng) {
            position.play(mv).unwrap();
            record(position);
        }
    }
    // Positions that differ only in the height of one stack, its owner, the
    // DVONN piece inside it or the side to move.
    for cell in Cell::ALL {
        let neighbour = Direction::ALL.iter().find_map(|&d| cell.step(d, 1)).unwrap();
        for height in 1..=48 {
            for owner in [Color::White, Color::Black] {
                for side in [Color::White, Color::Black] {
                    if height >= 2 {
                        let mut alone = Setup::empty(side, Phase::Movement);
                        alone.stacks[cell.index()] = Stack::new(height, Some(owner), true);
                        record(Position::from_setup(&alone).unwrap());
                    }
                    let mut beside = Setup::empty(side, Phase::Movement);
                    beside.stacks[cell.index()] = Stack::new(height, Some(owner), false);
                    beside.stacks[neighbour.index()] = Some(Stack::LONE_DVONN);
                    record(Position::from_setup(&beside).unwrap());
                }
            }
        }
    }
    // Without the `rand` feature there are no random setups to start from.
    let expected = if cfg!(feature = "rand") { 130_000 } else { 100_000 };
    assert!(seen.len() > expected, "{} positions", seen.len());
}

/// The set of the cells marked in `marks` (by canonical index).
fn bitboard(marks: &[bool]) -> Bitboard {
    (0..CELLS).filter(|&i| marks[i]).map(reference::cell).collect()
}

#[test]
fn bitboard_operations_agree_with_the_reference_geometry() {
    // The engine's directions are those of the rule book.
    let named = [
        (Direction::East, (1, 0)),
        (Direction::West, (-1, 0)),
        (Direction::NorthEast, (1, 1)),
        (Direction::SouthWest, (-1, -1)),
        (Direction::NorthWest, (0, 1)),
        (Direction::SouthEast, (0, -1)),
    ];
    for (direction, delta) in named {
        assert_eq!(direction.delta(), delta, "{direction:?}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(10_000_000);
    for n in 0..4000 {
        let density = rng.random_range(0.0..1.0);
        let within: Vec<bool> = (0..CELLS).map(|_| rng.random_bool(density)).collect();
        let seed_density = rng.random_range(0.0..0.2);
        let seeds: Vec<bool> = (0..CELLS).map(|_| rng.random_bool(seed_density)).collect();
        let (set, seed_set) = (bitboard(&within), bitboard(&seeds));
        let context = format!("set {n}: {set:?}");
        assert_eq!(set.len() as usize, within.iter().filter(|&&m| m).count(), "{context}");
        assert_eq!(set.is_empty(), !within.contains(&true), "{context}");
        let members: Vec<usize> = set.iter().map(|cell| cell.index()).collect();
        assert_eq!(members, (0..CELLS).filter(|&i| within[i]).collect::<Vec<_>>(), "{context}: iter order");
        assert_eq!(set.first().map(|cell| cell.index()), members.first().copied(), "{context}");
        let outside: Vec<bool> = within.iter().map(|m| !m).collect();
        assert_eq!(!set, bitboard(&outside), "{context}: complement");
        assert_eq!(Bitboard::from_bits(set.bits()), Some(set), "{context}");
        let next_to: Vec<bool> =
            (0..CELLS).map(|i| reference::neighbours(i).iter().any(|&neighbour| within[neighbour])).collect();
        assert_eq!(set.neighbours(), bitboard(&next_to), "{context}: neighbours");
        let surrounded: Vec<bool> = (0..CELLS)
            .map(|i| {
                let (x, y) = reference::coords(i);
                within[i]
                    && reference::DIRECTIONS
                        .iter()
                        .all(|&(dx, dy)| reference::index_at(x + dx, y + dy).is_some_and(|j| within[j]))
            })
            .collect();
        assert_eq!(set.surrounded(), bitboard(&surrounded), "{context}: surrounded");
        let reached = reference::reachable(&seeds, &within);
        assert_eq!(seed_set.flood_fill(set), bitboard(&reached), "{context}: flood fill from {seed_set:?}");
        for (direction, (dx, dy)) in named {
            for distance in 0..=12 {
                let mut moved = vec![false; CELLS];
                for i in (0..CELLS).filter(|&i| within[i]) {
                    let (x, y) = reference::coords(i);
                    if let Some(j) = reference::index_at(x + dx * distance, y + dy * distance) {
                        moved[j] = true;
                    }
                }
                let shifted = set.shift(direction, distance as u32);
                assert_eq!(shifted, bitboard(&moved), "{context}: shift {direction:?} by {distance}");
            }
        }
    }
}

// ---- The reference against the rule book and the shared vectors ----

#[test]
fn the_reference_board_is_the_board_of_the_rule_book() {
    // A cell (x, y) exists iff 0 <= y <= 4, 0 <= x <= 10 and y - 2 <= x <= y + 8.
    let mut count = 0;
    for y in -1..6 {
        for x in -1..12 {
            let exists = (0..=4).contains(&y) && (0..=10).contains(&x) && y - 2 <= x && x <= y + 8;
            assert_eq!(reference::index_at(x, y).is_some(), exists, "({x}, {y})");
            if let Some(index) = reference::index_at(x, y) {
                assert_eq!(reference::coords(index), (x, y));
                count += 1;
            }
        }
    }
    assert_eq!(count, CELLS);
    for (name, index) in [("A1", 0), ("I1", 8), ("A2", 9), ("J2", 18), ("A3", 19), ("K3", 29)] {
        assert_eq!(reference::name(index), name);
    }
    for (name, index) in [("B4", 30), ("K4", 39), ("C5", 40), ("K5", 48), ("E3", 23)] {
        assert_eq!(reference::name(index), name);
    }
    // The engine's cells are the same cells, in the same canonical order.
    for index in 0..CELLS {
        let cell = reference::cell(index);
        assert_eq!((cell.x(), cell.y()), reference::coords(index));
        assert_eq!(cell.index(), index);
        assert_eq!(cell.to_string(), reference::name(index));
        let interior = reference::neighbours(index).len() == 6;
        assert_eq!(cell.is_interior(), interior, "{cell}");
    }
    assert_eq!((0..CELLS).filter(|&i| reference::neighbours(i).len() == 6).count(), 25);
}

#[test]
fn the_reference_places_in_the_order_of_the_rule_book() {
    let mut game = Game::new();
    for ply in 0..CELLS {
        let mover = game.to_move;
        assert_eq!(mover, if ply % 2 == 0 { Player::White } else { Player::Black }, "ply {ply}");
        assert_eq!(game.legal_moves().len(), CELLS - ply);
        // Fill the cells from K5 down, to place somewhere else than the engine tests do.
        game.play(RefMove::Place(CELLS - 1 - ply));
        let piece = *game.board[CELLS - 1 - ply].last().unwrap();
        let expected = match ply {
            0..=2 => reference::Piece::Dvonn,
            _ => mover.piece(),
        };
        assert_eq!(piece, expected, "ply {ply}");
    }
    assert!(!game.in_placement());
    assert_eq!(game.to_move, Player::White, "White places at ply 48 and makes the first movement");
    assert_eq!((game.score(Player::White), game.score(Player::Black)), (23, 23));
    // On the full board only edge stacks move, each one cell onto a neighbour.
    for mv in game.legal_moves() {
        let RefMove::Jump(from, to) = mv else { panic!("{mv:?} after placement") };
        assert!(reference::neighbours(from).len() < 6);
        assert!(reference::neighbours(from).contains(&to));
        assert_eq!(game.owner(from), Some(Player::White));
    }
}

#[test]
fn the_reference_follows_the_examples_of_the_docs() {
    // docs/NOTATION.md: the board after placement, White to make the first move;
    // the interior stacks are surrounded and only edge stacks move.
    let full: Position = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().unwrap();
    let game = reference::from_position(&full);
    assert_eq!(game.position_string(), full.to_string());
    assert_eq!(game.legal_moves().len(), 49);
    assert!(!game.legal_moves().contains(&RefMove::Jump(23, 33)), "E3E4: E3 is surrounded");

    // The example of Position::play: B3 jumps onto the DVONN piece on C3, and
    // A3 loses its only link to a DVONN piece.
    let start: Position = "........./........../BWD......../........../......... w m".parse().unwrap();
    let mut game = reference::from_position(&start);
    assert_eq!(game.legal_moves(), vec![RefMove::Jump(20, 21), RefMove::Jump(20, 19)]);
    assert_eq!(game.play(RefMove::Jump(20, 21)), vec![19]);
    assert_eq!(game.position_string(), "........./........../..W2*......../........../......... b m");
    assert!(game.is_over());
    assert_eq!((game.score(Player::White), game.score(Player::Black)), (2, 0));

    // White has no move (every white stack is surrounded or lands off the
    // board) but Black has: White must pass.
    let pass: Position = "BBBBBBBBB/BWWWWWWBBB/BWWWWWWWWWB/BWWWWWWWWB/DDDBBBBBB w m".parse().unwrap();
    let game = reference::from_position(&pass);
    assert_eq!(game.legal_moves(), vec![RefMove::Pass]);
    assert!(!game.jumps(Player::Black).is_empty());

    // A lone DVONN piece belongs to nobody and never moves, even where a
    // stack of one could land; the white piece beside it can.
    let lone: Position = "........./........../..DDW....../........../......... w m".parse().unwrap();
    let game = reference::from_position(&lone);
    assert_eq!(game.legal_moves(), vec![RefMove::Jump(23, 22)]);
    let mut black_to_move = game.clone();
    black_to_move.to_move = Player::Black;
    assert_eq!(black_to_move.legal_moves(), vec![RefMove::Pass], "Black owns nothing, so he passes");
}

/// `(position, [(depth, count)])` from perft.txt.
fn perft_vectors() -> Vec<(Position, Vec<(u32, u64)>)> {
    let vectors = dvonn_core::perft::read_vectors(PERFT).unwrap_or_else(|e| panic!("perft.txt {e}"));
    vectors.into_iter().map(|v| (v.position, v.counts)).collect()
}

/// Perft on the reference: a pass is a move, a finished game one leaf.
fn reference_perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            reference_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn the_reference_reproduces_the_perft_vectors() {
    let mut checked = 0;
    for (position, counts) in perft_vectors() {
        let game = reference::from_position(&position);
        // The deepest counts take seconds on the reference; depth 3 covers
        // every position and the engine's own vectors test covers the rest.
        for &(depth, expected) in counts.iter().filter(|&&(depth, count)| depth <= 3 || count < 500_000) {
            assert_eq!(reference_perft(&game, depth), expected, "{position} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} counts checked");
}

#[test]
fn the_reference_replays_the_vector_games_to_their_scores() {
    let mut games = 0;
    for line in GAMES.lines().filter(|line| !line.trim().is_empty() && !line.starts_with('#')) {
        let mut words = line.split_whitespace();
        let score = words.next().unwrap();
        let mut game = Game::new();
        let mut position = Position::new();
        for (ply, word) in words.enumerate() {
            let mv: Move = word.parse().unwrap();
            let ref_mv = reference::from_engine(mv);
            assert!(game.legal_moves().contains(&ref_mv), "game {games}, ply {ply}: {word} is illegal");
            let removed = game.play(ref_mv);
            let engine_removed: Vec<usize> = position.play(mv).unwrap().iter().map(|c| c.index()).collect();
            assert_eq!(engine_removed, removed, "game {games}, ply {ply}");
            reference::assert_same(&game, &position, &format!("game {games}, ply {ply}"));
        }
        assert!(game.is_over(), "game {games} is over");
        assert_eq!(format!("{}-{}", game.score(Player::White), game.score(Player::Black)), score, "game {games}");
        games += 1;
    }
    assert_eq!(games, 5);
}

/// Seeded random setups follow the rule book's material (3 DVONN, 23 white
/// and 23 black pieces on the full board, White to move) and differ from
/// seed to seed, and so do the games played from them: the playouts above
/// are not one game repeated.
#[cfg(feature = "rand")]
#[test]
fn seeded_setups_and_games_differ() {
    let mut setups = HashSet::new();
    let mut finals = HashSet::new();
    for seed in 0..50 {
        let setup = Position::random_setup_from_seed(seed);
        let game = reference::from_position(&setup);
        let count = |piece| game.board.iter().filter(|stack| stack.as_slice() == [piece]).count();
        let (dvonn, white, black) =
            (count(reference::Piece::Dvonn), count(reference::Piece::White), count(reference::Piece::Black));
        assert_eq!((dvonn, white, black), (3, 23, 23), "seed {seed}: {setup}");
        assert_eq!((setup.phase(), setup.side_to_move()), (Phase::Movement, Color::White));
        assert_eq!(setup, Position::random_setup_from_seed(seed), "seed {seed} is reproducible");
        setups.insert(setup);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut position = setup;
        while let Some(&mv) = position.legal_moves().choose(&mut rng) {
            position.play(mv).unwrap();
        }
        finals.insert(position);
    }
    assert_eq!(setups.len(), 50);
    assert!(finals.len() > 45, "{} distinct final positions", finals.len());
}
