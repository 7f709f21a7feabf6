use std::thread::sleep;

use dvonn_core::IllegalMoveReason;

use super::*;
use crate::{Engine, EngineConfig, Limits};

/// A player that always answers the same move.
struct Always(Move);

impl Player for Always {
    fn choose(&mut self, _game: &Game, _time_left: Option<Duration>) -> Result<Move, String> {
        Ok(self.0)
    }
}

/// A player that takes its time, then plays a random move.
struct Slow(Duration, RandomPlayer);

impl Player for Slow {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        sleep(self.0);
        self.1.choose(game, time_left)
    }
}

#[test]
fn two_random_players_play_to_the_end_and_the_observer_sees_every_move() {
    let mut referee = Referee::new(Position::new());
    let mut seen: Vec<(usize, Ply)> = Vec::new();
    let mut players = [RandomPlayer::from_seed(1), RandomPlayer::from_seed(2)];
    let outcome = referee.play_out(&mut players, &mut |referee: &Referee| {
        let game = referee.game();
        seen.push((game.len(), *game.plies().last().unwrap()));
    });
    let last = *referee.position();
    assert!(last.is_game_over());
    assert_eq!(outcome, Outcome::Score { white: last.pieces(Color::White), black: last.pieces(Color::Black) });
    assert_eq!(
        outcome.white_margin(),
        Some(i64::from(last.pieces(Color::White)) - i64::from(last.pieces(Color::Black)))
    );
    let game = referee.game();
    assert_eq!(seen, game.plies().iter().copied().enumerate().map(|(i, ply)| (i + 1, ply)).collect::<Vec<_>>());
    assert!(seen.len() >= 49, "the placement phase alone has 49 plies");
    let mut position = Position::new();
    for (i, ply) in game.plies().iter().enumerate() {
        assert_eq!(game.positions()[i], position);
        assert_eq!(position.play(ply.mv), Ok(ply.removed));
        assert_eq!(game.positions()[i + 1], position);
        assert_eq!(ply.author, Author::Program);
    }
    assert_eq!(referee.step(&mut players, &mut ()), None, "nothing to play once over");
}

#[test]
fn a_player_whose_clock_runs_out_loses_on_time() {
    let mut referee = Referee::new(Position::random_setup_from_seed(3));
    referee.set_clock(Color::White, Some(Duration::from_millis(20)));
    let mut players: [&mut dyn Player; 2] =
        [&mut Slow(Duration::from_millis(30), RandomPlayer::from_seed(1)), &mut RandomPlayer::from_seed(2)];
    let outcome = referee.play_out(&mut players, &mut ());
    let Some((Color::White, Forfeit::Time { used, allowed })) = referee.forfeit() else { panic!("{outcome:?}") };
    assert!(*used >= Duration::from_millis(30) && *allowed == Duration::from_millis(20));
    assert_eq!(outcome, Outcome::Resigned(Color::White));
    assert_eq!(outcome.winner(), Some(Color::Black));
    assert!(referee.game().is_empty(), "the late move is not played");
    assert_eq!(referee.remaining(Color::White), Some(Duration::from_millis(20)));
    assert_eq!(referee.remaining(Color::Black), None);
}

#[test]
fn an_illegal_move_or_a_failure_is_a_forfeit() {
    let mut referee = Referee::new(Position::new());
    let e3: Move = "E3".parse().unwrap();
    assert!(referee.step(&mut Always(e3), &mut ()).is_some());
    // Black places on the cell White just took.
    assert_eq!(referee.step(&mut Always(e3), &mut ()), None);
    let mut after_e3 = Position::new();
    after_e3.play(e3).unwrap();
    let illegal = after_e3.play(e3).unwrap_err();
    assert_eq!((illegal.mv, illegal.reason), (e3, IllegalMoveReason::Occupied(e3.to().unwrap())));
    let reason = Forfeit::Illegal(illegal);
    assert_eq!(referee.forfeit(), Some((Color::Black, &reason)));
    assert_eq!(referee.outcome(), Outcome::Resigned(Color::Black));
    assert_eq!(reason.to_string(), "played the illegal move E3: E3 is not empty");
    assert_eq!(referee.game().len(), 1);
    assert!(referee.play("D3".parse().unwrap(), Author::Person, &mut ()).is_err(), "the game is over");

    referee.truncate(1);
    assert_eq!((referee.forfeit(), referee.outcome()), (None, Outcome::Unfinished), "taking back clears the forfeit");
    struct Crashes;
    impl Player for Crashes {
        fn choose(&mut self, _game: &Game, _time_left: Option<Duration>) -> Result<Move, String> {
            Err("exited".to_string())
        }
    }
    referee.play_out(&mut Crashes, &mut ());
    assert_eq!(referee.forfeit(), Some((Color::Black, &Forfeit::Failed("exited".to_string()))));
}

#[test]
fn imposed_moves_are_checked_and_taken_back() {
    let mut referee = Referee::new(Position::new());
    let mut count = 0;
    referee.play("E3".parse().unwrap(), Author::Person, &mut |_: &Referee| count += 1).unwrap();
    assert_eq!(
        referee.play("E3".parse().unwrap(), Author::Person, &mut ()).unwrap_err().reason,
        IllegalMoveReason::Occupied("E3".parse().unwrap())
    );
    assert_eq!((count, referee.game().moves().collect::<Vec<_>>()), (1, vec!["E3".parse().unwrap()]));
    assert_eq!(referee.times(), [Duration::ZERO]);
    referee.truncate(0);
    assert_eq!(referee.position(), &Position::new());
    assert_eq!(referee.used(Color::White), Duration::ZERO);
}

#[test]
fn undo_takes_back_the_authors_last_move_with_its_time() {
    let mut referee = Referee::new(Position::new());
    assert!(!referee.undo(Author::Person));
    referee.play("E3".parse().unwrap(), Author::Person, &mut ()).unwrap();
    referee.step(&mut RandomPlayer::from_seed(4), &mut ()).unwrap();
    assert_eq!(referee.times().len(), 2);
    assert!(referee.undo(Author::Person));
    assert!(referee.game().is_empty() && referee.times().is_empty());
}

#[test]
fn a_game_from_a_finished_position_is_over_at_once() {
    let over: Position = "........./........../..W2*......../........../......... b m".parse().unwrap();
    let referee = Referee::new(over);
    assert_eq!(referee.outcome(), Outcome::Score { white: 2, black: 0 });
}

/// A game of the engine, on `clock` for the whole game and searching each
/// move within `limits`, against a random player: the referee at the end.
fn engine_on_a_clock(clock: Duration, limits: Limits) -> Referee {
    let engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
    let mut engine = EnginePlayer::new(engine, limits);
    let mut referee = Referee::new(Position::random_setup_from_seed(5));
    referee.set_clock(Color::White, Some(clock));
    let outcome = referee.play_out(&mut [&mut engine as &mut dyn Player, &mut RandomPlayer::from_seed(5)], &mut ());
    assert!(outcome.is_over(), "{outcome:?}");
    assert!(engine.last_search().is_some());
    referee
}

/// The engine's moves are timed on its clock: shallow searches on a
/// clock no machine uses up.
#[test]
fn an_engine_plays_a_whole_game_on_a_clock() {
    let referee = engine_on_a_clock(Duration::from_secs(600), Limits::depth(3));
    assert_eq!(referee.forfeit(), None);
    assert!(referee.used(Color::White) > Duration::ZERO);
}

/// Timing tier: on a clock of one second for the whole game, the engine
/// shares its time out and never overdraws it, on a machine that gives
/// the search its time.
#[test]
#[ignore = "timing tier: a wall-clock check, run alone (cargo test -- --ignored)"]
fn an_engine_on_a_one_second_clock_does_not_lose_on_time() {
    let referee = engine_on_a_clock(Duration::from_secs(1), Limits::infinite());
    assert_eq!(referee.forfeit(), None, "{:?}", referee.outcome());
}
