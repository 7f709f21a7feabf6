//! One game of a match: its opening, its two players, and its record.

use std::time::Duration;

use anyhow::{Context, Result};
use dvonn_ai::{Engine, EnginePlayer, Limits, RandomPlayer, Referee};
use dvonn_core::{Author, Color, Game, Move, Position};
use dvonn_notation::GameRecord;
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::external::External;
use super::spec::{POSITION_PLACEHOLDER, SEED_PLACEHOLDER, Spec};
use super::summary::TIME_USED;
use crate::shard::mix;

/// The fewest and the most random placements of an opening.
const OPENING_PLACEMENTS: std::ops::RangeInclusive<usize> = 6..=10;

/// Where a game starts: a position and the moves imposed on both players
/// before they choose their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opening {
    /// The start position (the empty board, or a random setup).
    pub start: Position,
    /// Imposed moves (random placements).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The empty board, nothing imposed.
    pub(crate) fn empty() -> Opening {
        Opening { start: Position::new(), moves: Vec::new() }
    }

    /// A set start position, nothing imposed.
    pub(crate) fn from_position(start: Position) -> Opening {
        Opening { start, moves: Vec::new() }
    }

    /// The random setup of `seed`.
    pub(crate) fn random_setup(seed: u64) -> Opening {
        Opening { start: Position::random_setup_from_seed(seed), moves: Vec::new() }
    }

    /// The empty board and 6 to 10 random placements drawn from `seed`.
    pub(crate) fn random_placements(seed: u64) -> Opening {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let count = rng.random_range(OPENING_PLACEMENTS);
        let mut position = Position::new();
        let mut moves = Vec::with_capacity(count);
        for _ in 0..count {
            let Some(cell) = (!position.occupied()).iter().choose(&mut rng) else { break };
            let mv = Move::Place(cell);
            position.play_unchecked(mv);
            moves.push(mv);
        }
        Opening { start: Position::new(), moves }
    }
}

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// The limit per move of an engine specification without one.
    pub default_time: Duration,
    /// The longest wait for an external program's move.
    pub external_timeout: Duration,
    /// The match's seed.
    pub seed: u64,
}

/// A player during a game.
#[derive(Debug)]
enum Player {
    Engine(Box<EnginePlayer>),
    External(External),
    Random(Box<RandomPlayer>),
}

impl Player {
    /// Starts the player of `spec` for `referee`'s game, whose players choose their
    /// moves from its present position on (an error only when an engine
    /// cannot be built or a program cannot be started at all: the match
    /// cannot go on). An engine on a game clock gets it from `referee`.
    fn start(spec: &Spec, settings: &Settings, referee: &mut Referee, color: Color, seed: u64) -> Result<Player> {
        match spec {
            Spec::Engine(spec) => {
                let mut config = spec.config.clone();
                config.seed = seed;
                let engine = Engine::new(config).context("cannot start an engine")?;
                let limits = if spec.has_limit() { spec.limits } else { Limits::move_time(settings.default_time) };
                referee.set_clock(color, spec.clock);
                Ok(Player::Engine(Box::new(EnginePlayer::new(engine, limits))))
            }
            Spec::External(command) => {
                let command = command_line(command, referee.position(), seed);
                Ok(Player::External(External::start(&command, settings.external_timeout, referee.game().len())?))
            }
            Spec::Random => Ok(Player::Random(Box::new(RandomPlayer::from_seed(seed)))),
        }
    }

    /// Ends the game for the player (`failed`: it has just lost by
    /// misbehaving).
    fn finish(self, game: &Game, failed: bool) {
        if let Player::External(program) = self {
            program.finish(game, failed);
        }
    }
}

impl dvonn_ai::Player for Player {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        match self {
            Player::Engine(engine) => engine.choose(game, time_left),
            Player::External(program) => program.choose(game, time_left),
            Player::Random(random) => random.choose(game, time_left),
        }
    }
}

/// A `cmd:` command line for one game: the placeholders replaced by the
/// start position and the seed.
fn command_line(command: &[String], start: &Position, seed: u64) -> Vec<String> {
    let position = start.to_string();
    let seed = seed.to_string();
    command.iter().map(|word| word.replace(POSITION_PLACEHOLDER, &position).replace(SEED_PLACEHOLDER, &seed)).collect()
}

/// Plays game `index` of a match from `opening` and returns its record
/// (the loser's resignation and, in its `Termination` tag, the reason for a
/// forfeit): `white` and `black` are the players' specifications and
/// `names` their names for the record (White's first).
pub(crate) fn play(
    index: usize,
    [white, black]: [&Spec; 2],
    names: [&str; 2],
    opening: &Opening,
    settings: &Settings,
) -> Result<GameRecord> {
    let game_seed = mix(settings.seed, index as u64);
    let mut referee = Referee::new(opening.start);
    for &mv in &opening.moves {
        referee.play(mv, Author::Record, &mut ()).context("an opening move is illegal")?;
    }
    let mut players = [
        Player::start(white, settings, &mut referee, Color::White, mix(game_seed, 1))?,
        Player::start(black, settings, &mut referee, Color::Black, mix(game_seed, 2))?,
    ];
    referee.play_out(&mut players, &mut ());
    let forfeit = referee.forfeit().map(|(loser, reason)| (loser, reason.clone()));
    for (player, color) in players.into_iter().zip(Color::BOTH) {
        player.finish(referee.game(), forfeit.as_ref().is_some_and(|(loser, _)| *loser == color));
    }
    let mut record = GameRecord::from(referee.game());
    record.set_tag("Event", "dvonn match");
    record.set_tag("Date", &crate::date::today());
    record.set_tag("Round", &(index + 1).to_string());
    record.set_tag("White", names[0]);
    record.set_tag("Black", names[1]);
    if let Some((loser, reason)) = &forfeit {
        record.set_tag("Termination", &format!("{loser} forfeits: {reason}"));
    }
    for (tag, color) in TIME_USED.into_iter().zip(Color::BOTH) {
        record.set_tag(tag, &format!("{:.3}", referee.used(color).as_secs_f64()));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dvonn_core::Outcome;

    #[test]
    fn openings_are_reproducible_and_varied() {
        let a = Opening::random_placements(1);
        assert_eq!(a, Opening::random_placements(1));
        assert_ne!(a, Opening::random_placements(2));
        for seed in 0..50 {
            let opening = Opening::random_placements(seed);
            assert!(OPENING_PLACEMENTS.contains(&opening.moves.len()));
            let mut position = opening.start;
            for mv in opening.moves {
                position.play(mv).unwrap();
            }
        }
    }

    /// A game of a depth-1 engine against `spec`, as the second player.
    fn against_a_quick_engine(spec: &str) -> GameRecord {
        let spec = Spec::parse(spec).unwrap();
        let quick = Spec::parse("depth=1,placement=random").unwrap();
        let settings = Settings { default_time: Duration::from_millis(50), external_timeout: Duration::ZERO, seed: 5 };
        play(1, [&quick, &spec], ["B", "A"], &Opening::random_placements(5), &settings).unwrap()
    }

    /// An engine on a game clock plays to the end: shallow searches on a
    /// clock no machine uses up.
    #[test]
    fn an_engine_on_a_game_clock_plays_to_the_end() {
        let record = against_a_quick_engine("clock=600,depth=2,placement=heuristic");
        assert!(matches!(record.result, Outcome::Score { .. }), "{:?}", record.result);
    }

    /// Timing tier: on a clock of one second, the engine shares it out and
    /// never overdraws it, on a machine that gives the search its time.
    #[test]
    #[ignore = "timing tier: a wall-clock check, run alone (cargo test -- --ignored)"]
    fn an_engine_on_a_game_clock_stays_within_it() {
        let record = against_a_quick_engine("clock=1,placement=heuristic");
        assert!(matches!(record.result, Outcome::Score { .. }), "{:?}", record.result);
    }

    #[test]
    fn two_engines_play_a_game_to_the_end() {
        let spec = Spec::parse("depth=1,placement=random").unwrap();
        let settings = Settings { default_time: Duration::from_millis(50), external_timeout: Duration::ZERO, seed: 3 };
        let record = play(0, [&spec, &spec], ["A", "B"], &Opening::random_placements(3), &settings).unwrap();
        assert!(matches!(record.result, Outcome::Score { .. }), "{:?}", record.result);
        let game = record.replay().unwrap();
        assert_eq!(game.outcome(), record.result, "played to the end, the score the record's");
        assert_eq!(record.tag("Round"), Some("1"));
        assert_eq!((record.tag("White"), record.tag("Black")), (Some("A"), Some("B")));
        let counted = super::super::summary::MatchGame::of_record(0, &record).unwrap();
        assert!(counted.time_used.is_some(), "the time each side used, in tags");
    }
}
