use dvonn_core::{Color, Move, Phase, Position};
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

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace().map(|mv| mv.parse().expect("a move")).collect()
}

/// A game of random moves from the empty board to its end.
fn random_game(seed: u64) -> Vec<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = Position::new();
    let mut moves = Vec::new();
    while let Some(&mv) = position.legal_moves().choose(&mut rng) {
        position.play(mv).expect("a legal move");
        moves.push(mv);
    }
    moves
}

fn review_of(start: &Position, moves: &[Move], limits: Limits) -> GameReview {
    review(&mut engine(1), start, moves, &ReviewOptions::new(limits), &StopHandle::default(), &mut ())
        .expect("legal moves")
}

/// What every review must satisfy, whatever the game and the search.
fn check_invariants(start: &Position, moves: &[Move], review: &GameReview) {
    let thresholds = Thresholds::DEFAULT;
    let mut position = *start;
    for (ply, &mv) in moves.iter().enumerate() {
        let reviewed = review.ply(ply).expect("a complete review");
        assert_eq!((reviewed.ply, reviewed.mv), (ply, mv));
        assert_eq!(reviewed.side, position.side_to_move(), "ply {ply}");
        assert_eq!(reviewed.phase, position.phase(), "ply {ply}");
        assert_eq!(reviewed.forced, position.legal_moves().len() == 1, "ply {ply}");
        assert!(reviewed.loss >= Score::ZERO, "ply {ply}");
        assert_eq!(reviewed.best.is_some(), reviewed.loss > Score::ZERO, "ply {ply}");
        assert!(reviewed.best.is_none_or(|best| best != mv && position.is_legal(best)), "ply {ply}");
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
        position.play(mv).expect("a legal move");
    }
    if position.is_game_over() {
        let last = review.plies.last().expect("moves");
        assert_eq!(last.eval_after, Evaluation::final_margin(&position));
    }
}

#[test]
fn a_proven_win_thrown_away_is_a_blunder_with_the_exact_margins() {
    let start: Position = THROWN_WIN.parse().expect("a position");
    let moves = moves("C3C4 F4E4");
    for threads in [1, 2] {
        let options = ReviewOptions::new(Limits::depth(30));
        let review = review(&mut engine(threads), &start, &moves, &options, &StopHandle::default(), &mut ())
            .expect("legal moves");
        assert!(review.complete);
        check_invariants(&start, &moves, &review);
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
    let start: Position = THROWN_WIN.parse().expect("a position");
    let lenient = Thresholds::DEFAULT.with_blunder(Score::from_pieces(40)).with_mistake(Score::from_pieces(30));
    let options = ReviewOptions::new(Limits::depth(30)).with_thresholds(lenient);
    let review = review(&mut engine(1), &start, &moves("C3C4 F4E4"), &options, &StopHandle::default(), &mut ())
        .expect("legal moves");
    assert_eq!(review.plies[0].mark, Some(Mark::Blunder));
    assert_eq!(lenient.mark(review.plies[0].loss), Some(Mark::Inaccuracy));
}

#[test]
fn whole_games_keep_every_invariant() {
    for seed in [3, 8] {
        let moves = random_game(seed);
        let start = Position::new();
        let mut seen = Vec::new();
        let mut record = |ply: &PlyReview| seen.push(ply.ply);
        let review = review(
            &mut engine(2),
            &start,
            &moves,
            &ReviewOptions::new(Limits::depth(2)),
            &StopHandle::default(),
            &mut record,
        )
        .expect("legal moves");
        assert!(review.complete);
        assert_eq!(review.game_length, moves.len());
        assert_eq!(review.movement_from, Some(49));
        check_invariants(&start, &moves, &review);
        // The observer hears of every ply once, from the last back.
        assert_eq!(seen, (0..moves.len()).rev().collect::<Vec<_>>());
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
    let moves = random_game(5);
    let cut = &moves[..60];
    let review = review_of(&Position::new(), cut, Limits::depth(2));
    check_invariants(&Position::new(), cut, &review);
    assert_eq!(review.plies.len(), 60);
    assert!(!review.plies[59].eval_after.exact, "a search of the middle game proves nothing");
}

#[test]
fn a_game_without_moves_has_an_empty_review() {
    let review = review_of(&Position::new(), &[], Limits::depth(2));
    assert!(review.complete && review.plies.is_empty());
    assert_eq!(review.summary(Color::White), PlayerSummary::default());
}

#[test]
fn an_illegal_move_is_refused_before_any_search() {
    let error = review(
        &mut engine(1),
        &Position::new(),
        &moves("E3 E3"),
        &ReviewOptions::new(Limits::infinite()),
        &StopHandle::default(),
        &mut (),
    )
    .unwrap_err();
    assert_eq!(error.ply, 1);
    assert_eq!(error.to_string(), "ply 1: E3 is illegal: E3 is not empty");
}

#[test]
fn a_stopped_review_returns_the_last_plies_it_finished() {
    let moves = random_game(11);
    let mut engine = engine(2);
    let stop = StopHandle::default();
    // Stopped before it starts: nothing reviewed.
    stop.stop();
    let options = ReviewOptions::new(Limits::infinite());
    let stopped = review(&mut engine, &Position::new(), &moves, &options, &stop, &mut ()).expect("legal moves");
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
    let stopped =
        review(&mut engine, &Position::new(), &moves, &options, &stop, &mut stop_after_ten).expect("legal moves");
    assert!(!stopped.complete);
    assert_eq!(stopped.plies.first().map(|ply| ply.ply), Some(moves.len() - 10));
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
    assert_eq!(Mark::ALL.map(Mark::symbol), ["?!", "?", "??"]);
}

#[test]
fn the_graph_draws_every_mark_and_both_phases() {
    let moves = random_game(3);
    let review = review_of(&Position::new(), &moves, Limits::depth(2));
    let svg = evaluation_graph(&review);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    for mark in Mark::ALL {
        let marked = review.plies.iter().filter(|ply| ply.mark == Some(mark)).count();
        assert_eq!(svg.matches(&format!("class=\"mark {mark}\"")).count(), marked, "{mark}");
    }
    assert_eq!(svg.matches("class=\"ply\"").count(), moves.len());
    assert!(svg.contains("class=\"phase placement\"") && svg.contains("class=\"phase movement\""));
    assert_eq!(svg.matches("class=\"curve\"").count(), 1);
    // The last point is the final score, proven.
    assert!(svg.contains("class=\"proven\""));
}
