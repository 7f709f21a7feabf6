//! The engine under hostile conditions: no time at all, stop requests at
//! any moment, a table of one bucket, table sizes that cannot be
//! allocated, thousands of searches in a row on one engine; and search
//! invariants as proptest properties (a single legal move is returned at
//! once, scores stay within the possible piece margin, proven scores agree
//! with deeper searches and with a brute-force minimax of small endgames).
//!
//! No test here reads the clock: how soon a search stops is counted in
//! nodes (every search thread checks its clock and stop flags every 1,024
//! nodes), so that a busy machine cannot fail them. The one wall-clock
//! check, that searches do not slow down, is in the timing tier
//! (`#[ignore]`d, run alone by CI: `cargo test -- --ignored`). The tests
//! share the machine with each other: those that measure the process's
//! memory or time run alone (they take [`GATE`] for writing, the others
//! for reading).

use std::sync::RwLock;
use std::thread;
use std::time::{Duration, Instant};

use dvonn_ai::eval::final_margin;
use dvonn_ai::{
    Engine, EngineConfig, EngineError, Limits, ParallelSearch, Score, SearchInfo, SearchOptions, SearchResult,
};
use dvonn_core::{Move, Phase, Position};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// Held for reading by every test, for writing by those that measure the
/// process's memory or the time of its searches.
static GATE: RwLock<()> = RwLock::new(());

fn shared_gate() -> std::sync::RwLockReadGuard<'static, ()> {
    GATE.read().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn engine(threads: usize, hash_mb: usize) -> Engine {
    parallel_engine(threads, hash_mb, ParallelSearch::LazySmp)
}

fn parallel_engine(threads: usize, hash_mb: usize, parallel: ParallelSearch) -> Engine {
    let search = SearchOptions::ALL.with_parallel(parallel);
    let config = EngineConfig::default().with_threads(threads).with_hash_mb(hash_mb).with_search(search);
    Engine::new(config).expect("a small engine starts")
}

/// The most nodes a search on `threads` threads makes once its clock has
/// run out or it was told to stop, beyond those it had made when it was
/// told: each thread checks every 1,024 nodes, after up to 1,024 nodes
/// the others had not counted yet. Ignoring the limit would make millions.
fn nodes_to_stop(threads: usize) -> u64 {
    4096 * threads as u64
}

/// A node limit that only a search ignoring its stop reaches, where it
/// would otherwise run forever: tens of seconds of search.
const NEVER_STOPPED: u64 = 20_000_000;

/// Thread counts with each way of sharing the search.
const PARALLEL_CONFIGURATIONS: [(usize, ParallelSearch); 5] = [
    (1, ParallelSearch::LazySmp),
    (2, ParallelSearch::LazySmp),
    (4, ParallelSearch::LazySmp),
    (2, ParallelSearch::YoungBrothersWait),
    (3, ParallelSearch::YoungBrothersWait),
];

/// `start` after `plies` random legal moves (fewer if the game ends).
fn after_random_moves(start: Position, plies: usize, rng: &mut impl Rng) -> Position {
    let mut position = start;
    for _ in 0..plies {
        let moves = position.legal_moves();
        let Some(&mv) = moves.choose(rng) else { break };
        position.play(mv).expect("generated moves are legal");
    }
    position
}

/// Positions of every kind: early, middle and late placement (the last
/// four placements are searched by alpha-beta), the start of the movement
/// phase, random setups and middle games.
fn assorted_positions() -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut positions = vec![Position::new()];
    for plies in [1, 20, 45, 47, 48, 49, 60] {
        positions.push(after_random_moves(Position::new(), plies, &mut rng));
    }
    for seed in [1, 2, 3] {
        let setup = Position::random_setup_from_seed(seed);
        positions.push(setup);
        positions.push(after_random_moves(setup, 12, &mut rng));
    }
    positions.retain(|p| !p.is_game_over());
    positions
}

/// Checks that `result` is a legal answer for `position`.
fn assert_legal_answer(position: &Position, result: &SearchResult, context: &str) {
    let moves = position.legal_moves();
    match result.best_move {
        None => assert!(moves.is_empty(), "{context}: no move in {position}"),
        Some(mv) => {
            assert!(position.is_legal(mv), "{context}: illegal {mv} in {position}");
            assert_eq!(mv == Move::Pass, moves.as_slice() == [Move::Pass], "{context}: {mv} in {position}");
        }
    }
}

/// A search whose time is up when it starts (each budget leaves it no
/// time: 1 ms of clock is all reserve) still answers a legal move, and
/// stops at the first check of its clock.
#[test]
fn a_zero_or_expired_time_budget_still_gives_a_legal_move_quickly() {
    let _gate = shared_gate();
    let budgets = [
        Limits::move_time(Duration::ZERO),
        Limits::game_clock(Duration::ZERO, Duration::ZERO),
        Limits::game_clock(Duration::from_millis(1), Duration::ZERO),
        Limits::depth(60).with_move_time(Duration::ZERO),
    ];
    for (threads, parallel) in PARALLEL_CONFIGURATIONS {
        let mut engine = parallel_engine(threads, 1, parallel);
        for position in assorted_positions() {
            for limits in &budgets {
                let limits = limits.with_nodes(NEVER_STOPPED);
                let result = engine.search(&position, &limits, &mut ());
                let context = format!("{threads} threads ({parallel:?}), {limits:?}");
                assert_legal_answer(&position, &result, &context);
                assert!(result.best_move.is_some(), "{context}: the game goes on in {position}");
                let nodes = result.nodes;
                assert!(nodes <= nodes_to_stop(threads), "{context}: {nodes} nodes in {position}");
            }
        }
    }
}

/// A stop from the observer, between two iterations, ends the search
/// within [`nodes_to_stop`] nodes of it.
#[test]
fn a_stop_ends_the_search_within_a_few_thousand_nodes() {
    let _gate = shared_gate();
    for (threads, parallel) in PARALLEL_CONFIGURATIONS {
        let mut engine = parallel_engine(threads, 4, parallel);
        for position in assorted_positions() {
            let stop = engine.stop_handle();
            let mut nodes_at_stop = None;
            let mut observer = |info: &SearchInfo| {
                if info.depth == 3 {
                    nodes_at_stop = Some(info.nodes);
                    stop.stop();
                }
            };
            let result = engine.search(&position, &Limits::nodes(NEVER_STOPPED), &mut observer);
            let context = format!("{threads} threads ({parallel:?})");
            assert_legal_answer(&position, &result, &context);
            // A proven value ends the search before depth 3, and a single
            // legal move before any search.
            let Some(at_stop) = nodes_at_stop else {
                let single = position.legal_moves().len() == 1;
                assert!(result.exact || single, "{context}: neither stopped nor proven in {position}");
                continue;
            };
            let after = result.nodes - at_stop;
            assert!(after <= nodes_to_stop(threads), "{context}: {after} nodes after the stop in {position}");
        }
    }
}

/// A stop at a random moment (of the first 15 ms: in the first
/// iterations, in a split, between two) leaves a legal move.
#[test]
fn a_stop_at_any_moment_leaves_a_legal_move() {
    let _gate = shared_gate();
    let positions = assorted_positions();
    let mut rng = StdRng::seed_from_u64(5);
    for (threads, parallel) in PARALLEL_CONFIGURATIONS {
        let mut engine = parallel_engine(threads, 4, parallel);
        for round in 0..12 {
            let position = positions[(round * 5 + threads) % positions.len()];
            let stop = engine.stop_handle();
            let delay = Duration::from_micros(rng.random_range(0..15_000));
            let stopper = thread::spawn(move || {
                thread::sleep(delay);
                stop.stop();
            });
            let result = engine.search(&position, &Limits::nodes(NEVER_STOPPED), &mut ());
            stopper.join().expect("the stopping thread ends");
            let context = format!("{threads} threads ({parallel:?}), stop after {delay:?}");
            assert_legal_answer(&position, &result, &context);
            assert!(result.nodes < NEVER_STOPPED, "{context}: not stopped in {position}");
            // A stop that came after the search had returned (a solved
            // position) ends the next search at once, also legally.
            let result = engine.search(&position, &Limits::depth(3), &mut ());
            assert_legal_answer(&position, &result, &context);
        }
    }
    // Stopped before it starts.
    let mut engine = engine(2, 1);
    for position in positions {
        engine.stop_handle().stop();
        let result = engine.search(&position, &Limits::infinite(), &mut ());
        assert_legal_answer(&position, &result, "stopped before the search");
    }
}

#[test]
fn a_one_bucket_table_plays_legal_moves() {
    let _gate = shared_gate();
    // `hash_mb: 0` allocates a single bucket of four entries (see the
    // table's unit tests): every position collides with every other.
    let mut tiny = engine(2, 0);
    let mut normal = engine(1, 1);
    let mut rng = StdRng::seed_from_u64(3);
    for game in 0..4u64 {
        let mut position = Position::random_setup_from_seed(100 + game);
        let mut plies = 0;
        while !position.is_game_over() {
            let engine = if plies % 2 == 0 { &mut tiny } else { &mut normal };
            let depth = rng.random_range(1..=4);
            let result = engine.search(&position, &Limits::depth(depth), &mut ());
            assert_legal_answer(&position, &result, &format!("game {game}, ply {plies}"));
            position.play(result.best_move.expect("the game goes on")).expect("legal");
            plies += 1;
        }
        let result = tiny.search(&position, &Limits::depth(3), &mut ());
        assert_eq!(result.best_move, None);
        assert!(result.exact);
        assert_eq!(result.score, final_margin(&position));
    }
}

#[test]
fn impossible_table_sizes_are_errors_not_aborts() {
    let _gate = shared_gate();
    for hash_mb in [usize::MAX, usize::MAX / 2, 1 << 40] {
        let config = EngineConfig::default().with_hash_mb(hash_mb);
        match Engine::new(config) {
            Err(EngineError::Memory(error)) => assert_eq!(error.megabytes, hash_mb),
            other => panic!("{hash_mb} MiB: {other:?}"),
        }
    }
    let no_threads = Engine::new(EngineConfig::default().with_threads(0));
    assert!(matches!(no_threads, Err(EngineError::NoThreads)), "{no_threads:?}");
}

/// With Lazy SMP a helper runs one iteration ahead of the main thread; when
/// the main thread proves the value, the helper's deeper iteration, which
/// need not be proven, must not replace the proven result. In this ending
/// the main thread proves -13 at depth 8, and a helper often completes
/// depth 9 without a proof.
#[test]
fn a_proven_result_survives_a_helper_running_ahead() {
    let _gate = shared_gate();
    let position: Position = "...W6*...../........../....B2B3...B2B/...W2..WW4BW2*/...B2*.BB.. w m".parse().unwrap();
    for run in 0..60 {
        let result = engine(2, 0).search(&position, &Limits::depth(80), &mut ());
        assert!(result.exact, "run {run}: not proven, {result:?}");
        assert_eq!(result.score.centipieces(), -1300, "run {run}");
    }
}

/// The process's resident memory in bytes, where `/proc` tells it.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// 1,000 positions of random games from random setups, and an engine
/// that has searched one of them (its table and the allocator warm).
fn thousand_positions_and_a_warm_engine() -> (Vec<Position>, Engine) {
    let mut rng = StdRng::seed_from_u64(9);
    let positions: Vec<Position> = (0..1000u64)
        .map(|i| {
            let plies = rng.random_range(0..30);
            after_random_moves(Position::random_setup_from_seed(i), plies, &mut rng)
        })
        .collect();
    let mut engine = engine(1, 8);
    engine.search(&positions[0], &Limits::depth(2), &mut ());
    (positions, engine)
}

/// Searches every position to depth 2; returns the time it took.
fn search_all(engine: &mut Engine, positions: &[Position]) -> Duration {
    let started = Instant::now();
    for position in positions {
        let result = engine.search(position, &Limits::depth(2), &mut ());
        assert_legal_answer(position, &result, "depth 2");
    }
    started.elapsed()
}

#[test]
fn thousands_of_searches_on_one_engine_do_not_leak() {
    let _gate = GATE.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (positions, mut engine) = thousand_positions_and_a_warm_engine();
    let before = resident_bytes();
    for _ in 0..3 {
        search_all(&mut engine, &positions);
    }
    let after = resident_bytes();
    if let (Some(before), Some(after)) = (before, after) {
        let slack = 8 << 20;
        assert!(after <= before + slack, "resident memory grew from {before} to {after} bytes over 3,000 searches");
    }
}

/// Timing tier: the same 1,000 searches take as long the third time, with
/// a table as full as it gets; only a real slowdown (growing state) fails
/// this, on a machine that is not busier the third time.
#[test]
#[ignore = "timing tier: a wall-clock check, run alone (cargo test -- --ignored)"]
fn thousands_of_searches_on_one_engine_do_not_slow_down() {
    let _gate = GATE.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    let (positions, mut engine) = thousand_positions_and_a_warm_engine();
    let first = search_all(&mut engine, &positions);
    search_all(&mut engine, &positions);
    let last = search_all(&mut engine, &positions);
    assert!(last <= first * 3 + Duration::from_millis(200), "first 1,000 searches {first:?}, last 1,000 {last:?}");
}

/// The exact final margin for the side to move with best play, by plain
/// minimax over every legal move (passes included) to the end of the game;
/// `None` when that takes more than `budget` nodes.
fn minimax(position: &Position, budget: &mut u64) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Some(final_margin(position).centipieces());
    }
    let mut best = i32::MIN;
    for mv in moves {
        let mut child = *position;
        child.play(mv).expect("generated moves are legal");
        let value = minimax(&child, budget)?;
        best = best.max(if child.side_to_move() == position.side_to_move() { value } else { -value });
    }
    Some(best)
}

/// A movement position from a random setup, played on at random until a
/// brute-force minimax of the rest of the game takes at most `budget`
/// nodes, with at least two legal moves (so that the engine searches it);
/// with its exact value.
fn small_endgame(seed: u64, budget: u64) -> (Position, i32) {
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let mut position = after_random_moves(Position::random_setup_from_seed(rng.random()), 10, &mut rng);
        while !position.is_game_over() {
            if position.occupied().len() <= 16
                && position.legal_moves().len() >= 2
                && let Some(value) = minimax(&position, &mut budget.clone())
            {
                return (position, value);
            }
            position = after_random_moves(position, 1, &mut rng);
        }
    }
}

/// A position reached by legal play: from the empty board or a random
/// setup, `plies` random moves.
fn reachable(from_setup: bool, seed: u64, plies: usize) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = if from_setup { Position::random_setup_from_seed(seed) } else { Position::new() };
    after_random_moves(start, plies, &mut rng)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// A position with a single legal move (the forced 49th placement, a
    /// pass, a last jump) gets it at once: a depth-0 result, no nodes.
    #[test]
    fn a_single_legal_move_is_returned_at_once(from_setup in any::<bool>(), seed in any::<u64>()) {
        let _gate = shared_gate();
        let mut engine = engine(2, 1);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut position = if from_setup { Position::random_setup_from_seed(seed) } else { Position::new() };
        let mut seen = 0;
        while let Some(&mv) = position.legal_moves().choose(&mut rng) {
            let moves = position.legal_moves();
            if let [only] = moves.as_slice() {
                seen += 1;
                let limits = Limits::depth(60).with_move_time(Duration::from_secs(5));
                let result = engine.search(&position, &limits, &mut ());
                prop_assert_eq!(result.best_move, Some(*only), "{}", position);
                prop_assert_eq!((result.depth, result.nodes), (0, 0), "{}", position);
                prop_assert_eq!(&result.pv, &vec![*only]);
            }
            position.play(mv).expect("legal");
        }
        // Every game from the empty board has the forced 49th placement.
        prop_assert!(from_setup || seen >= 1);
        let result = engine.search(&position, &Limits::depth(5), &mut ());
        prop_assert_eq!(result.best_move, None);
        prop_assert_eq!((result.depth, result.nodes, result.exact), (0, 0, true));
    }

    /// Scores stay within what the game allows: a proven score is a whole
    /// number of pieces no larger than the pieces left on the board (at
    /// most 49); a heuristic one is an estimate of that margin, at most 100
    /// pieces.
    #[test]
    fn scores_are_within_the_possible_margin(
        from_setup in any::<bool>(),
        seed in any::<u64>(),
        plies in 44usize..110,
        depth in 1u32..5,
    ) {
        let _gate = shared_gate();
        let position = reachable(from_setup, seed, plies);
        prop_assume!(position.phase() == Phase::Movement || position.placed() >= 45);
        let mut engine = engine(1, 1);
        let result = engine.search(&position, &Limits::depth(depth), &mut ());
        let score = result.score.centipieces();
        if result.exact {
            prop_assert_eq!(score % Score::SCALE, 0, "{} in {}", score, position);
            prop_assert!(score.abs() <= Score::SCALE * 49, "{} in {}", score, position);
            let on_board = Score::SCALE as u32 * position.pieces_on_board();
            prop_assert!(score.unsigned_abs() <= on_board, "{} in {}", score, position);
        } else {
            // The evaluation estimates the final margin; it overshoots 49
            // pieces in lopsided positions (about 61 at most over a million
            // positions of random games), never by a factor of two.
            prop_assert!(score.abs() <= Score::SCALE * 100, "{} in {}", score, position);
        }
    }

    /// In a small endgame the engine solves the game: a proven score at any
    /// depth equals the proven score of a deeper search and the value a
    /// brute-force minimax gives, whatever the table (one bucket included)
    /// and the number of threads.
    #[test]
    fn proven_scores_agree_with_deeper_searches_and_brute_force(seed in any::<u64>(), depth in 1u32..7) {
        let _gate = shared_gate();
        let (position, exact) = small_endgame(seed, 200_000);
        let deep = engine(1, 4).search(&position, &Limits::depth(80), &mut ());
        prop_assert!(deep.exact, "not solved at depth 80: {}", position);
        prop_assert_eq!(deep.score.centipieces(), exact, "{}", position);
        if let Some(mv) = deep.best_move {
            let mut after = position;
            after.play(mv).expect("legal");
            let mut budget = 200_000;
            let value = minimax(&after, &mut budget).expect("a smaller game");
            let value = if after.side_to_move() == position.side_to_move() { value } else { -value };
            prop_assert_eq!(value, exact, "{} is not a best move in {}", mv, position);
        }
        for (threads, hash_mb) in [(1, 1), (2, 0), (1, 0)] {
            let shallow = engine(threads, hash_mb).search(&position, &Limits::depth(depth), &mut ());
            if shallow.exact {
                prop_assert_eq!(
                    shallow.score.centipieces(),
                    exact,
                    "depth {} ({} threads, {} MiB) in {}",
                    depth,
                    threads,
                    hash_mb,
                    position
                );
            }
            let solved = engine(threads, hash_mb).search(&position, &Limits::depth(80), &mut ());
            prop_assert!(solved.exact, "{}", position);
            prop_assert_eq!(solved.score.centipieces(), exact, "{} threads, {} MiB, in {}", threads, hash_mb, position);
        }
    }
}
