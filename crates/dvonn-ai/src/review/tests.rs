use dvonn_core::{Author, Color, Game, Phase, Position};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::graph::evaluation_graph;
use super::*;
use crate::engine::EngineConfig;

/// White to move wins by 6 with C3D4 (proven); C3C4 lets Black end the game
/// with F4E4, 7-10.
const THROWN_WIN: &str = "W4.DD...../.W2B2W5B...../DB2W......../........../......... w m";

fn engine(threads: usize) -> Engine {
    Engine::new(EngineConfig::default().with_threads(threads).with_hash_mb(8)).expect("an engine")
}

/// The game of `moves` from `start`.
fn game(start: &str, moves: &str) -> Game {
    let mut game = Game::new(start.parse().expect("a position"));
    for mv in moves.split_whitespace() {
        game.play(mv.parse().expect("a move"), Author::Record).expect("a legal move");
    }
    game
}

/// A game of random moves from the empty board to its end.
fn random_game(seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Position::new());
    while let Some(&mv) = game.position().legal_moves().choose(&mut rng) {
        game.play(mv, Author::Program).expect("a legal move");
    }
    game
}

fn review_of(game: &Game, limits: Limits) -> GameReview {
    review(&mut engine(1), game, &ReviewOptions::new(limits), &StopHandle::default(), &mut ())
}

/// What every review must satisfy, whatever the game and the search.
fn check_invariants(game: &Game, review: &GameReview) {
    let thresholds = Thresholds::DEFAULT;
    for (ply, mv) in game.moves().enumerate() {
        let position = &game.positions()[ply];
        let reviewed = review.ply(ply).expect("a complete review");
        assert_eq!((reviewed.ply, reviewed.mv), (ply, mv));
        assert_eq!(reviewed.side, position.side_to_move(), "ply {ply}");
        assert_eq!(reviewed.phase, position.phase(), "ply {ply}");
        assert_eq!(reviewed.forced, position.legal_moves().len() == 1, "ply {ply}");
        assert!(reviewed.loss >= Score::ZERO, "ply {ply}");
        assert_eq!(reviewed.best.is_some(), reviewed.loss > Score::ZERO, "ply {ply}");
        assert!(reviewed.best.is_none_or(|best| best != mv && position.is_legal(best)), "ply {ply}");
        // The engine's choice is legal, the better move when there is one,
        // and the move played when that was forced or loses nothing.
        let engine_move = reviewed.engine_move.expect("every search completes an iteration");
        assert!(position.is_legal(engine_move), "ply {ply}");
        assert!(reviewed.best.is_none_or(|best| best == engine_move), "ply {ply}");
        assert!(!reviewed.forced || engine_move == mv, "ply {ply}");
        assert!(engine_move != mv || reviewed.loss == Score::ZERO, "ply {ply}");
        if reviewed.forced {
            assert_eq!(reviewed.eval_before, reviewed.eval_after, "ply {ply}");
            assert_eq!((reviewed.loss, reviewed.mark, reviewed.depth), (Score::ZERO, None, 0), "ply {ply}");
        } else {
            assert!(reviewed.depth > 0, "ply {ply}");
        }
        // A mark is the loss's, but for a proven result thrown away.
        if reviewed.mark != thresholds.mark(reviewed.loss) {
            assert_eq!(reviewed.mark, Some(Mark::Blunder), "ply {ply}");
            assert!(reviewed.eval_before.exact, "ply {ply}");
        }
        if let Some(next) = review.ply(ply + 1) {
            assert_eq!(reviewed.eval_after, next.eval_before, "ply {ply}: after is the next ply's before");
        }
    }
    if game.position().is_game_over() {
        let last = review.plies.last().expect("moves");
        assert_eq!(last.eval_after, Evaluation::final_margin(game.position()));
    }
}

#[test]
fn a_proven_win_thrown_away_is_a_blunder_with_the_exact_margins() {
    let game = game(THROWN_WIN, "C3C4 F4E4");
    for threads in [1, 2] {
        let options = ReviewOptions::new(Limits::depth(30));
        let review = review(&mut engine(threads), &game, &options, &StopHandle::default(), &mut ());
        assert!(review.complete);
        check_invariants(&game, &review);
        let blunder = &review.plies[0];
        assert_eq!(blunder.eval_before, Evaluation { white: Score::from_pieces(6), exact: true });
        assert_eq!(blunder.eval_after, Evaluation { white: Score::from_pieces(-3), exact: true });
        assert_eq!(blunder.best, Some("C3D4".parse().expect("a move")));
        assert_eq!(blunder.loss, Score::from_pieces(9));
        assert_eq!(blunder.mark, Some(Mark::Blunder));
        // Black's reply ends the game: the final score, 7-10.
        let reply = &review.plies[1];
        assert_eq!(reply.eval_after, Evaluation { white: Score::from_pieces(-3), exact: true });
        assert_eq!((reply.loss, reply.mark), (Score::ZERO, None));
        let white = review.summary(Color::White);
        assert_eq!((white.moves, white.blunders, white.average_loss), (1, 1, Score::from_pieces(9)));
        assert_eq!(review.summary(Color::Black), PlayerSummary { moves: 1, ..PlayerSummary::default() });
    }
}

#[test]
fn throwing_a_small_win_away_is_a_blunder_whatever_the_thresholds() {
    let lenient = Thresholds::DEFAULT.with_blunder(Score::from_pieces(40)).with_mistake(Score::from_pieces(30));
    let options = ReviewOptions::new(Limits::depth(30)).with_thresholds(lenient);
    let review = review(&mut engine(1), &game(THROWN_WIN, "C3C4 F4E4"), &options, &StopHandle::default(), &mut ());
    assert_eq!(review.plies[0].mark, Some(Mark::Blunder));
    assert_eq!(lenient.mark(review.plies[0].loss), Some(Mark::Inaccuracy));
}

#[test]
fn whole_games_keep_every_invariant() {
    for seed in [3, 8] {
        let game = random_game(seed);
        let mut seen = Vec::new();
        let mut record = |ply: &PlyReview| seen.push(ply.ply);
        let options = ReviewOptions::new(Limits::depth(2));
        let review = review(&mut engine(2), &game, &options, &StopHandle::default(), &mut record);
        assert!(review.complete);
        assert_eq!(review.game_length, game.len());
        assert_eq!(review.movement_from, Some(49));
        check_invariants(&game, &review);
        // The observer hears of every ply once, from the last back.
        assert_eq!(seen, (0..game.len()).rev().collect::<Vec<_>>());
        // The 49th placement is forced; random moves are often marked.
        assert!(review.plies[48].forced && review.plies[48].phase == Phase::Placement);
        assert_eq!(review.plies[49].phase, Phase::Movement);
        let marked = review.plies.iter().filter(|ply| ply.mark.is_some()).count();
        assert!(marked > 5, "{marked} marks in a random game");
        for side in [Color::White, Color::Black] {
            let summary = review.summary(side);
            let counted: usize = Mark::ALL.iter().map(|&mark| summary.count(mark)).sum();
            let marks = review.plies.iter().filter(|ply| ply.side == side && ply.mark.is_some()).count();
            assert_eq!(counted, marks);
            assert!(summary.average_loss > Score::ZERO);
        }
    }
}

#[test]
fn an_unfinished_game_ends_on_a_searched_evaluation() {
    let mut game = random_game(5);
    game.truncate(60);
    let review = review_of(&game, Limits::depth(2));
    check_invariants(&game, &review);
    assert_eq!(review.plies.len(), 60);
    assert!(!review.plies[59].eval_after.exact, "a search of the middle game proves nothing");
}

#[test]
fn a_game_without_moves_has_an_empty_review() {
    let review = review_of(&Game::new(Position::new()), Limits::depth(2));
    assert!(review.complete && review.plies.is_empty());
    assert_eq!(review.summary(Color::White), PlayerSummary::default());
}

#[test]
fn a_stopped_review_returns_the_last_plies_it_finished() {
    let game = random_game(11);
    let mut engine = engine(2);
    let stop = StopHandle::default();
    // Stopped before it starts: nothing reviewed.
    stop.stop();
    let options = ReviewOptions::new(Limits::infinite());
    let stopped = review(&mut engine, &game, &options, &stop, &mut ());
    assert!(!stopped.complete && stopped.plies.is_empty());
    // Stopped after ten plies, during searches without a limit.
    let stop = StopHandle::default();
    let mut heard = 0;
    let mut stop_after_ten = |_: &PlyReview| {
        heard += 1;
        if heard == 10 {
            stop.stop();
        }
    };
    let options = ReviewOptions::new(Limits::depth(3));
    let stopped = review(&mut engine, &game, &options, &stop, &mut stop_after_ten);
    assert!(!stopped.complete);
    assert_eq!(stopped.plies.first().map(|ply| ply.ply), Some(game.len() - 10));
    assert_eq!(stopped.plies.len(), 10);
    // The engine's own searches are not stopped by the review's handle.
    let result = engine.search(&Position::random_setup_from_seed(1), &Limits::depth(3), &mut ());
    assert_eq!(result.depth, 3);
}

#[test]
fn evaluations_read_as_margins() {
    let heuristic = Evaluation { white: Score::from_centipieces(125), exact: false };
    assert_eq!(heuristic.to_string(), "+1.25");
    assert_eq!(Evaluation { white: Score::from_centipieces(-40), exact: false }.to_string(), "-0.40");
    assert_eq!(Evaluation { white: Score::ZERO, exact: false }.to_string(), "0.00");
    assert_eq!(Evaluation { white: Score::from_pieces(3), exact: true }.to_string(), "=+3");
    assert_eq!(Evaluation { white: Score::ZERO, exact: true }.to_string(), "=0");
    assert_eq!(Evaluation::from_side(Color::Black, Score::from_pieces(2), true).white, Score::from_pieces(-2));
    assert_eq!(heuristic.for_side(Color::Black), Score::from_centipieces(-125));
}

#[test]
fn thresholds_mark_losses() {
    let thresholds = Thresholds::DEFAULT;
    let mark = |centipieces| thresholds.mark(Score::from_centipieces(centipieces));
    assert_eq!(mark(0), None);
    assert_eq!(mark(99), None);
    assert_eq!(mark(100), Some(Mark::Inaccuracy));
    assert_eq!(mark(300), Some(Mark::Mistake));
    assert_eq!(mark(599), Some(Mark::Mistake));
    assert_eq!(mark(600), Some(Mark::Blunder));
    assert_eq!(Mark::ALL.iter().map(|mark| mark.symbol()).collect::<Vec<_>>(), ["?!", "?", "??"]);
}

#[test]
fn the_graph_draws_every_mark_and_both_phases() {
    let game = random_game(3);
    let review = review_of(&game, Limits::depth(2));
    let svg = evaluation_graph(&review);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    for &mark in Mark::ALL {
        let marked = review.plies.iter().filter(|ply| ply.mark == Some(mark)).count();
        assert_eq!(svg.matches(&format!("class=\"mark {mark}\"")).count(), marked, "{mark}");
    }
    assert_eq!(svg.matches("class=\"ply\"").count(), game.len());
    assert!(svg.contains("class=\"phase placement\"") && svg.contains("class=\"phase movement\""));
    assert_eq!(svg.matches("class=\"curve\"").count(), 1);
    // The last point is the final score, proven.
    assert!(svg.contains("class=\"proven\""));
}
