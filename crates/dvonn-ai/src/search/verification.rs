//! The search's values checked against the definition: every configuration
//! of the exact techniques (transposition table, PVS, aspiration windows,
//! one or two threads) must return the value of plain fixed-depth negamax,
//! and proven values must equal a brute-force minimax to the end of the
//! game. The pruning techniques, which may change the value, must at least
//! each save nodes.

use std::time::Instant;

use dvonn_core::{Move, Position};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{MAX_PLY, ParallelSearch, SearchOptions, SearchResult, Searched, Shared, pool_threads, search};
use crate::eval::{Evaluator, final_margin};
use crate::limits::{Limits, StopHandle};
use crate::time::Deadlines;
use crate::tt::TranspositionTable;

/// Plain negamax with the search's depth rules: a forced move costs no depth,
/// the side that moves twice (end of placement) keeps the sign, finished
/// games score their final margin.
fn negamax(evaluator: &Evaluator, position: &Position, depth: i32, ply: usize) -> i32 {
    if depth <= 0 || ply >= MAX_PLY {
        return evaluator.evaluate_leaf_from_scratch(position).0.centipieces();
    }
    let moves = position.legal_moves();
    if moves.is_empty() {
        return final_margin(position).centipieces();
    }
    let extension = i32::from(moves.len() == 1);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = negamax(evaluator, &child, depth - 1 + extension, ply + 1);
            if child.side_to_move() == position.side_to_move() { value } else { -value }
        })
        .max()
        .expect("moves")
}

/// The value of the game with best play from `position`: minimax to the end.
fn solve(position: &Position) -> i32 {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return final_margin(position).centipieces();
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = solve(&child);
            if child.side_to_move() == position.side_to_move() { value } else { -value }
        })
        .max()
        .expect("moves")
}

/// A position `plies` random moves into a game from a seeded random setup.
fn random_position(rng: &mut ChaCha8Rng, plies: usize) -> Position {
    let mut position = Position::random_setup_from_seed(rng.random());
    for _ in 0..plies {
        let Some(&mv) = position.legal_moves().choose(rng) else { break };
        position.play_unchecked(mv);
    }
    position
}

/// A search of `position` to `depth` with `options` on `threads` threads,
/// from a fresh table; `strict`: table scores only of exactly the depth.
fn run_search(position: &Position, depth: u32, options: SearchOptions, threads: usize, strict: bool) -> SearchResult {
    run_search_with(position, depth, options, threads, strict, None).result
}

/// [`run_search`], also measuring `candidate`.
fn run_search_with(
    position: &Position,
    depth: u32,
    options: SearchOptions,
    threads: usize,
    strict: bool,
    candidate: Option<Move>,
) -> Searched {
    let tt = TranspositionTable::new(4).expect("4 MiB");
    let evaluator = Evaluator::default();
    let stop = StopHandle::default();
    let deadlines = Deadlines { start: Instant::now(), soft: None, hard: None };
    let pool = (threads > 1).then(|| {
        rayon::ThreadPoolBuilder::new().num_threads(pool_threads(options.parallel, threads)).build().expect("threads")
    });
    let mut shared = Shared::new(&tt, &evaluator, deadlines, options, pool.as_ref(), &stop, None);
    shared.strict_depth = strict;
    // Split wherever there is a younger brother.
    shared.min_split_depth = 1;
    shared.candidate = candidate;
    let fallback = position.legal_moves()[0];
    search(position, &Limits::depth(depth), &shared, fallback, &mut ())
}

/// The engine's value for `position` at `depth` with `options`, strict table
/// depths, on `threads` threads, from a fresh table.
fn searched(position: &Position, depth: u32, options: SearchOptions, threads: usize) -> (i32, Move, bool) {
    let result = run_search(position, depth, options, threads, true);
    (result.score.centipieces(), result.best_move.expect("a move"), result.exact)
}

#[test]
fn every_exact_configuration_returns_the_negamax_value() {
    let evaluator = Evaluator::default();
    let mut rng = ChaCha8Rng::seed_from_u64(2011);
    let mut checked = 0;
    for n in 0..24 {
        // Later positions have fewer moves: search them deeper.
        let plies = 4 + n;
        let position = random_position(&mut rng, plies);
        if position.legal_moves().len() < 2 {
            continue;
        }
        let depth = if position.legal_moves().len() > 25 {
            2
        } else if plies < 20 {
            3
        } else {
            4
        };
        let expected = negamax(&evaluator, &position, depth, 0);
        for bits in 0..8u32 {
            for (threads, parallel) in
                [(1, ParallelSearch::LazySmp), (2, ParallelSearch::LazySmp), (2, ParallelSearch::YoungBrothersWait)]
            {
                let options = SearchOptions::EXACT
                    .with_transposition_table(bits & 1 != 0)
                    .with_principal_variation(bits & 2 != 0)
                    .with_aspiration(bits & 4 != 0)
                    .with_parallel(parallel);
                let (value, best, _) = searched(&position, depth as u32, options, threads);
                assert_eq!(value, expected, "{position} depth {depth} {options:?} threads {threads}");
                // The move returned has the value returned.
                let mut child = position;
                child.play_unchecked(best);
                let best_value = negamax(&evaluator, &child, depth - 1, 1);
                let best_value = if child.side_to_move() == position.side_to_move() { best_value } else { -best_value };
                if position.legal_moves().len() > 1 {
                    assert_eq!(best_value, expected, "{position}: {best} is not a best move");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 18 * 24, "{checked} searches");
}

/// The candidate move of a search (a review's played move) is measured on
/// the footing of the best move: its value is the negamax value of the
/// position after it, one ply less deep, and the best move's is unchanged.
#[test]
fn a_candidate_move_gets_its_negamax_value_from_the_same_depth() {
    let evaluator = Evaluator::default();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut measured = 0;
    for n in 0..10 {
        let position = random_position(&mut rng, 6 + 2 * n);
        let moves = position.legal_moves();
        if moves.len() < 2 {
            continue;
        }
        let depth = if moves.len() > 25 { 2 } else { 3 };
        let expected = negamax(&evaluator, &position, depth, 0);
        for &candidate in moves.iter().take(6) {
            let mut child = position;
            child.play_unchecked(candidate);
            let value = negamax(&evaluator, &child, depth - 1, 1);
            let value = if child.side_to_move() == position.side_to_move() { value } else { -value };
            for (threads, options) in [
                (1, SearchOptions::EXACT),
                (2, SearchOptions::EXACT),
                (2, SearchOptions::EXACT.with_parallel(ParallelSearch::YoungBrothersWait)),
            ] {
                let searched = run_search_with(&position, depth as u32, options, threads, true, Some(candidate));
                let context = format!("{position} depth {depth} {candidate} threads {threads} {options:?}");
                assert_eq!(searched.result.score.centipieces(), expected, "{context}");
                let measured_value = searched.candidate.expect("a complete iteration measures the candidate");
                assert_eq!(measured_value.score.centipieces(), value, "{context}");
                measured += 1;
            }
        }
    }
    assert!(measured >= 100, "{measured} candidates");
}

/// Placement searches, judged by the placement evaluation and, across the
/// end of the placement, by the movement evaluation: the search returns the
/// negamax value, and a move of that value.
#[test]
fn placement_searches_return_the_negamax_value() {
    let evaluator = Evaluator::default();
    let mut rng = ChaCha8Rng::seed_from_u64(49);
    for (placed, depth) in [(3, 2), (12, 2), (30, 2), (43, 3), (45, 4), (47, 3)] {
        let mut position = Position::new();
        while position.placed() < placed {
            let &mv = position.legal_moves().choose(&mut rng).expect("the board is not full");
            position.play_unchecked(mv);
        }
        let expected = negamax(&evaluator, &position, depth, 0);
        for options in [SearchOptions::EXACT, SearchOptions::EXACT.with_transposition_table(false)] {
            let (value, best, _) = searched(&position, depth as u32, options, 1);
            assert_eq!(value, expected, "{position} depth {depth} {options:?}");
            let mut child = position;
            child.play_unchecked(best);
            let best_value = negamax(&evaluator, &child, depth - 1, 1);
            let best_value = if child.side_to_move() == position.side_to_move() { best_value } else { -best_value };
            assert_eq!(best_value, expected, "{position}: {best} is not a best move");
        }
    }
}

#[test]
fn proven_values_are_the_values_of_the_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(49);
    let mut proven = 0;
    for _ in 0..200 {
        // Deep into random games: small enough to solve by brute force.
        let plies = 26 + rng.random_range(0..10);
        let position = random_position(&mut rng, plies);
        if position.is_game_over() || position.legal_moves().len() < 2 || position.occupied().len() > 14 {
            continue;
        }
        let truth = solve(&position);
        for options in [SearchOptions::ALL, SearchOptions::EXACT] {
            let (value, _, exact) = searched(&position, 60, options, 1);
            assert!(exact, "{position}: a search to depth 60 of a game this small is proven");
            assert_eq!(value, truth, "{position} {options:?}");
        }
        proven += 1;
    }
    assert!(proven >= 40, "only {proven} small positions");
}

#[test]
fn each_pruning_technique_searches_fewer_nodes() {
    // The full board at the start of the movement phase, to depth 7.
    let start: Position =
        "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m".parse().expect("a position string");
    let nodes = |options| run_search(&start, 7, options, 1, false).nodes;
    let unpruned = nodes(SearchOptions::EXACT);
    let techniques = [
        ("null move", SearchOptions::EXACT.with_null_move(true)),
        ("late-move reductions", SearchOptions::EXACT.with_late_move_reductions(true)),
        ("futility", SearchOptions::EXACT.with_futility(true)),
        ("late-move pruning", SearchOptions::EXACT.with_late_move_pruning(true)),
        ("internal reduction", SearchOptions::EXACT.with_internal_reduction(true)),
    ];
    for (name, options) in techniques {
        let pruned = nodes(options);
        assert!(pruned < unpruned, "{name}: {pruned} nodes, {unpruned} without pruning");
    }
}

#[test]
fn the_evaluation_cache_changes_only_the_speed() {
    // A late placement (its search crosses into the movement phase), the
    // full board, a middle game and an ending, with every technique on:
    // the same tree, node for node, with the cache and without.
    let positions = [
        "W.BWB.BBB/DWWBBDBBBW/WWWWWWBBBWB/.WWWBWBBWB/WDBWWWBBB w p",
        "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m",
        "BWB2*.W..BW/.W2WWWB.W2W3./WB2BWWWBDD.W/.W3.BB2B3BBWB/B.WB.W2.WW w m",
        ".....WB2.B/....B6.WWBB/.....BBWBWW/....B.W3WWB/..B5*.D.DW2. w m",
    ];
    for text in positions {
        let position: Position = text.parse().expect("a position string");
        let with = run_search(&position, 6, SearchOptions::ALL, 1, false);
        let without = run_search(&position, 6, SearchOptions::ALL.with_eval_cache(false), 1, false);
        assert_eq!(
            (with.best_move, with.score, with.exact, &with.pv, with.nodes),
            (without.best_move, without.score, without.exact, &without.pv, without.nodes),
            "{text}"
        );
        assert!(with.nodes > 1000, "{text}: only {} nodes", with.nodes);
    }
}
