//! Playing a game: the driver [`Game`], its [`Player`]s and
//! [`GameObserver`]s, and how a game ends.

mod players;

use std::fmt;
use std::time::{Duration, Instant};

use dvonn_core::{Bitboard, Color, IllegalMoveError, IllegalMoveReason, Move, Position};

pub use players::{EnginePlayer, RandomPlayer};

/// A side of a game: given the game so far, it chooses the move of the side
/// to move.
///
/// A pair of players, White's first, is a player for both sides.
pub trait Player {
    /// The move for the side to move in `game` (never over), or why the
    /// player cannot give one (it crashed, stalled, wrote garbage): the
    /// player then loses by forfeit. [`Game::remaining`] is its clock.
    fn choose(&mut self, game: &Game) -> Result<Move, String>;
}

impl<P: Player + ?Sized> Player for &mut P {
    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        (**self).choose(game)
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        (**self).choose(game)
    }
}

impl<P: Player> Player for [P; 2] {
    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        self[game.position().side_to_move().index()].choose(game)
    }
}

/// A move of a game, with what came of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The position it was played in.
    pub before: Position,
    /// The position it led to.
    pub after: Position,
    /// The cells whose stacks it cut off and removed.
    pub removed: Bitboard,
    /// The time its player took to choose it (zero for an imposed move).
    pub time: Duration,
}

impl PlayedMove {
    /// The side that played it.
    pub fn side(&self) -> Color {
        self.before.side_to_move()
    }
}

/// Told of every move of a game as it is played.
///
/// `()` observes nothing; any `FnMut(&PlayedMove)` closure is an observer.
pub trait GameObserver {
    /// Called after each move, imposed or chosen.
    fn on_move(&mut self, played: &PlayedMove);
}

impl GameObserver for () {
    fn on_move(&mut self, _played: &PlayedMove) {}
}

impl<F: FnMut(&PlayedMove)> GameObserver for F {
    fn on_move(&mut self, played: &PlayedMove) {
        self(played)
    }
}

/// Why a player lost a game before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Forfeit {
    /// Its clock ran out.
    Time {
        /// The time it had used when its move came.
        used: Duration,
        /// Its time for the game.
        allowed: Duration,
    },
    /// It chose an illegal move.
    Illegal(IllegalMoveError),
    /// It could not give a move; why.
    Failed(String),
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Time { used, allowed } => {
                write!(f, "lost on time: {:.3} s used of {:.3} s", used.as_secs_f64(), allowed.as_secs_f64())
            }
            Forfeit::Illegal(IllegalMoveError { mv, reason }) => write!(f, "played the illegal move {mv}: {reason}"),
            Forfeit::Failed(reason) => f.write_str(reason),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending {
    /// Played to the end: the score decides.
    Finished {
        /// White's pieces.
        white: u32,
        /// Black's pieces.
        black: u32,
    },
    /// A player lost before the end.
    Forfeit {
        /// Who lost.
        loser: Color,
        /// Why.
        reason: Forfeit,
    },
}

impl Ending {
    /// The winner (`None`: a draw).
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Finished { white, black } => match white.cmp(black) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            },
            Ending::Forfeit { loser, .. } => Some(!*loser),
        }
    }

    /// White's pieces minus Black's, for a game played to the end.
    pub fn white_margin(&self) -> Option<i64> {
        match self {
            Ending::Finished { white, black } => Some(i64::from(*white) - i64::from(*black)),
            Ending::Forfeit { .. } => None,
        }
    }

    /// The loser and the reason, for a forfeit.
    pub fn forfeit(&self) -> Option<(Color, &Forfeit)> {
        match self {
            Ending::Finished { .. } => None,
            Ending::Forfeit { loser, reason } => Some((*loser, reason)),
        }
    }
}

/// A game being played by the game driver: the one place where a side is
/// asked for its move, the move is checked, played and timed, observers
/// are told, and the end is detected.
///
/// It holds the start position, the moves played so far (each a
/// [`PlayedMove`]), an optional clock per side and, once it is over, its
/// [`Ending`]. [`Game::step`] asks a [`Player`] for one move;
/// [`Game::play_out`] steps to the end. A move a player chooses that is
/// illegal, a failure the player reports, or a clock that runs out ends the
/// game as a [`Forfeit`]: the driver never panics on a player's move.
/// Moves imposed from outside (an opening, a person's move typed at a
/// prompt) are played with [`Game::play`], and [`Game::truncate`] takes
/// moves back.
///
/// ```
/// use dvonn_ai::{Engine, EngineConfig, EnginePlayer, Game, Limits, PlayedMove, Player, RandomPlayer};
/// use dvonn_core::{Color, Position};
///
/// let engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
/// let mut white = EnginePlayer::new(engine, Limits::depth(1));
/// let mut black = RandomPlayer::from_seed(7);
/// let mut game = Game::new(Position::random_setup_from_seed(1));
/// let mut moves = 0;
/// let players: &mut [&mut dyn Player; 2] = &mut [&mut white, &mut black];
/// let ending = game.play_out(players, &mut |_: &PlayedMove| moves += 1);
/// assert_eq!(ending.winner(), Some(Color::White), "depth 1 beats random moves");
/// assert_eq!(moves, game.history().len());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    history: Vec<PlayedMove>,
    /// Each side's time for the whole game (`None`: no clock), White's first.
    clocks: [Option<Duration>; 2],
    ending: Option<Ending>,
}

impl Game {
    /// A game from `start` (the empty board, a random setup, any position),
    /// without clocks.
    pub fn new(start: Position) -> Game {
        let mut game = Game { start, history: Vec::new(), clocks: [None; 2], ending: None };
        game.detect_end();
        game
    }

    /// Gives `color` `time` for the whole game (`None`: no clock).
    pub fn set_clock(&mut self, color: Color, time: Option<Duration>) {
        self.clocks[color.index()] = time;
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.history.last().map_or(&self.start, |played| &played.after)
    }

    /// The moves played so far, in order.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// The moves alone.
    pub fn moves(&self) -> Vec<Move> {
        self.history.iter().map(|played| played.mv).collect()
    }

    /// The time `color` has taken to choose its moves.
    pub fn used(&self, color: Color) -> Duration {
        self.history.iter().filter(|played| played.side() == color).map(|played| played.time).sum()
    }

    /// The time left on `color`'s clock (`None`: no clock).
    pub fn remaining(&self, color: Color) -> Option<Duration> {
        self.clocks[color.index()].map(|time| time.saturating_sub(self.used(color)))
    }

    /// How the game ended (`None` while it goes on).
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Plays `mv`, imposed from outside (an opening move, a person's move),
    /// after checking it; it takes no time off the clock. Returns what it
    /// removed.
    pub fn play(&mut self, mv: Move, observer: &mut impl GameObserver) -> Result<Bitboard, IllegalMoveError> {
        if self.ending.is_some() {
            return Err(IllegalMoveError { mv, reason: IllegalMoveReason::GameOver });
        }
        self.push(mv, Duration::ZERO, observer).map(|played| played.removed)
    }

    /// Asks `player` for the move of the side to move, charges the time it
    /// took to that side's clock, checks the move and plays it. Returns the
    /// move played, or `None` when the game is over: it was already, or the
    /// player has just forfeited it.
    pub fn step(&mut self, player: &mut impl Player, observer: &mut impl GameObserver) -> Option<PlayedMove> {
        if self.ending.is_some() {
            return None;
        }
        let side = self.position().side_to_move();
        let started = Instant::now();
        let chosen = player.choose(self);
        let time = started.elapsed();
        let forfeit = match chosen {
            Err(reason) => Forfeit::Failed(reason),
            Ok(_) if self.remaining(side).is_some_and(|left| time > left) => {
                Forfeit::Time { used: self.used(side) + time, allowed: self.clocks[side.index()].unwrap_or_default() }
            }
            Ok(mv) => match self.push(mv, time, observer) {
                Ok(played) => return Some(played),
                Err(illegal) => Forfeit::Illegal(illegal),
            },
        };
        self.ending = Some(Ending::Forfeit { loser: side, reason: forfeit });
        None
    }

    /// Steps with `player` (a pair of players, or one for both sides) until
    /// the game is over, and returns how it ended.
    pub fn play_out(&mut self, player: &mut impl Player, observer: &mut impl GameObserver) -> &Ending {
        while self.step(player, observer).is_some() {}
        self.ending.as_ref().expect("step returns None only once the game is over")
    }

    /// Keeps the first `plies` moves and drops the rest, with their time
    /// and the ending (a forfeit too) they led to.
    pub fn truncate(&mut self, plies: usize) {
        self.history.truncate(plies);
        self.ending = None;
        self.detect_end();
    }

    /// Checks and plays `mv`, notifies `observer` and detects the end.
    fn push(
        &mut self,
        mv: Move,
        time: Duration,
        observer: &mut impl GameObserver,
    ) -> Result<PlayedMove, IllegalMoveError> {
        let before = *self.position();
        let mut after = before;
        let removed = after.play(mv)?;
        let played = PlayedMove { mv, before, after, removed, time };
        self.history.push(played);
        observer.on_move(&played);
        self.detect_end();
        Ok(played)
    }

    /// Records the score once neither side can move.
    fn detect_end(&mut self) {
        let position = self.position();
        if position.is_game_over() {
            let (white, black) = (position.pieces(Color::White), position.pieces(Color::Black));
            self.ending = Some(Ending::Finished { white, black });
        }
    }
}

#[cfg(test)]
mod tests;
