//! `search`: a reachable position from the bytes (as in `play_sequence`), a
//! tiny node limit (1 to 2,000) and an engine of 1 or 2 threads with a 1 MiB
//! table: the engine never panics and returns a legal move, `None` exactly
//! when the game is over and `PASS` exactly when the player must pass; its
//! principal variation starts with that move and is a line of legal moves;
//! a proven score is a possible final margin (at most 49 pieces).
//!
//! Bytes: `[threads, nodes low, nodes high, start..., moves...]` (the start
//! and moves as in `play_sequence`). The two engines are built once: thread
//! pools are too slow to start per input. Each search starts from a cleared
//! table (`Engine::new_game`), so that with one thread an input always
//! replays the same way.
#![no_main]

use std::sync::{Mutex, OnceLock};

use dvonn_ai::{Engine, EngineConfig, Limits, Score};
use dvonn_core::Move;
use dvonn_fuzz::reachable_position;
use libfuzzer_sys::fuzz_target;

/// Engines of one and of two threads.
fn engines() -> &'static [Mutex<Engine>; 2] {
    static ENGINES: OnceLock<[Mutex<Engine>; 2]> = OnceLock::new();
    ENGINES.get_or_init(|| {
        [1, 2].map(|threads| {
            let config = EngineConfig::default().with_threads(threads).with_hash_mb(1);
            Mutex::new(Engine::new(config).expect("a small engine starts"))
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let [threads, low, high, rest @ ..] = data else { return };
    let threads = usize::from(threads & 1) + 1;
    let nodes = u64::from(u16::from_le_bytes([*low, *high])) % 2000 + 1;
    let position = reachable_position(rest);
    let mut engine = engines()[threads - 1].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    engine.new_game();
    let result = engine.search(&position, &Limits::nodes(nodes), &mut ());
    let moves = position.legal_moves();
    let context = format!("{position} ({threads} threads, {nodes} nodes): {result:?}");
    match result.best_move {
        None => assert!(position.is_game_over(), "no move, but the game goes on: {context}"),
        Some(mv) => {
            assert!(position.is_legal(mv), "illegal move: {context}");
            assert_eq!(mv == Move::Pass, moves.as_slice() == [Move::Pass], "pass: {context}");
        }
    }
    let mut line = position;
    for (i, &mv) in result.pv.iter().enumerate() {
        if i == 0 {
            assert_eq!(Some(mv), result.best_move, "the pv starts elsewhere: {context}");
        }
        assert!(line.play(mv).is_ok(), "pv move {i} ({mv}) is illegal: {context}");
    }
    let score = result.score.centipieces().abs();
    assert!(score < Score::INFINITE.centipieces(), "score out of bounds: {context}");
    if result.exact {
        assert!(score <= 49 * Score::SCALE, "a proven score beyond 49 pieces: {context}");
        assert_eq!(score % Score::SCALE, 0, "a proven score is whole pieces: {context}");
    }
    if moves.len() == 1 {
        assert_eq!((result.depth, result.nodes), (0, 0), "one legal move is returned at once: {context}");
    }
});
