use std::thread::sleep;

use super::*;
use crate::{Engine, EngineConfig, Limits};

/// A player that always answers the same move.
struct Always(Move);

impl Player for Always {
    fn choose(&mut self, _game: &Game) -> Result<Move, String> {
        Ok(self.0)
    }
}

/// A player that takes its time, then plays a random move.
struct Slow(Duration, RandomPlayer);

impl Player for Slow {
    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        sleep(self.0);
        self.1.choose(game)
    }
}

#[test]
fn two_random_players_play_to_the_end_and_the_observer_sees_every_move() {
    let mut game = Game::new(Position::new());
    let mut seen: Vec<PlayedMove> = Vec::new();
    let mut players = [RandomPlayer::from_seed(1), RandomPlayer::from_seed(2)];
    let ending = game.play_out(&mut players, &mut |played: &PlayedMove| seen.push(*played)).clone();
    let last = *game.position();
    assert!(last.is_game_over());
    assert_eq!(ending, Ending::Finished { white: last.pieces(Color::White), black: last.pieces(Color::Black) });
    assert_eq!(
        ending.white_margin(),
        Some(i64::from(last.pieces(Color::White)) - i64::from(last.pieces(Color::Black)))
    );
    assert_eq!(seen, game.history());
    assert!(seen.len() >= 49, "the placement phase alone has 49 plies");
    let mut position = Position::new();
    for played in &seen {
        assert_eq!(played.before, position);
        assert_eq!(position.play(played.mv), Ok(played.removed));
        assert_eq!(played.after, position);
    }
    assert_eq!(game.step(&mut players, &mut ()), None, "nothing to play once over");
}

#[test]
fn a_player_whose_clock_runs_out_loses_on_time() {
    let mut game = Game::new(Position::random_setup_from_seed(3));
    game.set_clock(Color::White, Some(Duration::from_millis(20)));
    let mut players: [&mut dyn Player; 2] =
        [&mut Slow(Duration::from_millis(30), RandomPlayer::from_seed(1)), &mut RandomPlayer::from_seed(2)];
    let ending = game.play_out(&mut players, &mut ());
    let Some((Color::White, Forfeit::Time { used, allowed })) = ending.forfeit() else { panic!("{ending:?}") };
    assert!(*used >= Duration::from_millis(30) && *allowed == Duration::from_millis(20));
    assert_eq!(ending.winner(), Some(Color::Black));
    assert!(game.history().is_empty(), "the late move is not played");
    assert_eq!(game.remaining(Color::White), Some(Duration::from_millis(20)));
    assert_eq!(game.remaining(Color::Black), None);
}

#[test]
fn an_illegal_move_or_a_failure_is_a_forfeit() {
    let mut game = Game::new(Position::new());
    let e3: Move = "E3".parse().unwrap();
    assert!(game.step(&mut Always(e3), &mut ()).is_some());
    // Black places on the cell White just took.
    assert_eq!(game.step(&mut Always(e3), &mut ()), None);
    let reason = Forfeit::Illegal(IllegalMoveError { mv: e3, reason: IllegalMoveReason::Occupied(e3.to().unwrap()) });
    assert_eq!(game.ending(), Some(&Ending::Forfeit { loser: Color::Black, reason: reason.clone() }));
    assert_eq!(reason.to_string(), "played the illegal move E3: E3 is not empty");
    assert_eq!(game.history().len(), 1);
    assert!(game.play("D3".parse().unwrap(), &mut ()).is_err(), "the game is over");

    game.truncate(1);
    assert_eq!(game.ending(), None, "taking back clears the forfeit");
    struct Crashes;
    impl Player for Crashes {
        fn choose(&mut self, _game: &Game) -> Result<Move, String> {
            Err("exited".to_string())
        }
    }
    let ending = game.play_out(&mut Crashes, &mut ());
    assert_eq!(ending.forfeit(), Some((Color::Black, &Forfeit::Failed("exited".to_string()))));
}

#[test]
fn imposed_moves_are_checked_and_taken_back() {
    let mut game = Game::new(Position::new());
    let mut count = 0;
    game.play("E3".parse().unwrap(), &mut |_: &PlayedMove| count += 1).unwrap();
    assert_eq!(
        game.play("E3".parse().unwrap(), &mut ()).unwrap_err().reason,
        IllegalMoveReason::Occupied("E3".parse().unwrap())
    );
    assert_eq!((count, game.moves()), (1, vec!["E3".parse().unwrap()]));
    game.truncate(0);
    assert_eq!(game.position(), &Position::new());
    assert_eq!(game.used(Color::White), Duration::ZERO);
}

#[test]
fn a_game_from_a_finished_position_is_over_at_once() {
    let over: Position = "........./........../..W2*......../........../......... b m".parse().unwrap();
    let game = Game::new(over);
    assert_eq!(game.ending(), Some(&Ending::Finished { white: 2, black: 0 }));
}

#[test]
fn an_engine_plays_a_whole_game_on_a_clock() {
    let engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
    let mut engine = EnginePlayer::new(engine, Limits::infinite());
    let mut game = Game::new(Position::random_setup_from_seed(5));
    game.set_clock(Color::White, Some(Duration::from_secs(1)));
    let ending = game.play_out(&mut [&mut engine as &mut dyn Player, &mut RandomPlayer::from_seed(5)], &mut ());
    assert!(ending.forfeit().is_none(), "{ending:?}");
    assert!(engine.last_search().is_some());
}
