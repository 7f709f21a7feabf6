//! Playing a game: the game driver [`Referee`], its [`Player`]s and
//! [`GameObserver`]s, and how a player forfeits.

mod players;

use std::fmt;
use std::time::{Duration, Instant};

use dvonn_core::{Author, Bitboard, Color, Game, IllegalMoveError, Move, Outcome, Ply, Position};

pub use players::{EnginePlayer, RandomPlayer};

/// A side of a game: given the game so far, it chooses the move of the side
/// to move.
///
/// A pair of players, White's first, is a player for both sides.
pub trait Player {
    /// The move for the side to move in `game` (never over), with
    /// `time_left` on its clock (`None`: no clock), or why the player
    /// cannot give one (it crashed, stalled, wrote garbage): the player
    /// then loses by forfeit.
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String>;
}

impl<P: Player + ?Sized> Player for &mut P {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        (**self).choose(game, time_left)
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        (**self).choose(game, time_left)
    }
}

impl<P: Player> Player for [P; 2] {
    fn choose(&mut self, game: &Game, time_left: Option<Duration>) -> Result<Move, String> {
        self[game.position().side_to_move().index()].choose(game, time_left)
    }
}

/// Told of every move of a game as it is played.
///
/// `()` observes nothing; any `FnMut(&Referee)` closure is an observer.
pub trait GameObserver {
    /// Called after each move, imposed or chosen: the last ply of
    /// `referee`'s game.
    fn on_move(&mut self, referee: &Referee);
}

impl GameObserver for () {
    fn on_move(&mut self, _referee: &Referee) {}
}

impl<F: FnMut(&Referee)> GameObserver for F {
    fn on_move(&mut self, referee: &Referee) {
        self(referee)
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
            Forfeit::Illegal(IllegalMoveError { mv, reason, .. }) => {
                write!(f, "played the illegal move {mv}: {reason}")
            }
            Forfeit::Failed(reason) => f.write_str(reason),
        }
    }
}

/// The game driver: the one place where a side is asked for its move, the
/// move is checked, played and timed, observers are told, and the end is
/// detected.
///
/// It holds the [`Game`] (each move recorded with its [`Author`]), the time
/// each move took, an optional clock per side and, for a forfeit, its
/// reason. [`Referee::step`] asks a [`Player`] for one move;
/// [`Referee::play_out`] steps to the end. A move a player chooses that is
/// illegal, a failure the player reports, or a clock that runs out ends the
/// game as a [`Forfeit`] (the game's outcome is then the loser's
/// resignation): the driver never panics on a player's move. Moves imposed
/// from outside (an opening, a person's move typed at a prompt) are played
/// with [`Referee::play`], and [`Referee::truncate`] and [`Referee::undo`]
/// take moves back.
///
/// ```
/// use dvonn_ai::{Engine, EngineConfig, EnginePlayer, Limits, Player, RandomPlayer, Referee};
/// use dvonn_core::{Color, Position};
///
/// let engine = Engine::new(EngineConfig::default().with_hash_mb(1)).unwrap();
/// let mut white = EnginePlayer::new(engine, Limits::depth(1));
/// let mut black = RandomPlayer::from_seed(7);
/// let mut referee = Referee::new(Position::random_setup_from_seed(1));
/// let mut moves = 0;
/// let players: &mut [&mut dyn Player; 2] = &mut [&mut white, &mut black];
/// let outcome = referee.play_out(players, &mut |_: &Referee| moves += 1);
/// assert_eq!(outcome.winner(), Some(Color::White), "depth 1 beats random moves");
/// assert_eq!(moves, referee.game().len());
/// ```
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    /// `times[i]`: the time the player of ply `i` took to choose it (zero
    /// for an imposed move).
    times: Vec<Duration>,
    /// Each side's time for the whole game (`None`: no clock), White's first.
    clocks: [Option<Duration>; 2],
    /// Why the player who resigned the game lost it, for a forfeit.
    forfeit: Option<Forfeit>,
}

impl Referee {
    /// A game from `start` (the empty board, a random setup, any position),
    /// without clocks.
    pub fn new(start: Position) -> Referee {
        Referee { game: Game::new(start), times: Vec::new(), clocks: [None; 2], forfeit: None }
    }

    /// Gives `color` `time` for the whole game (`None`: no clock).
    pub fn set_clock(&mut self, color: Color, time: Option<Duration>) {
        self.clocks[color.index()] = time;
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// How the game ended ([`Outcome::Unfinished`] while it goes on; a
    /// forfeit is the loser's resignation).
    pub fn outcome(&self) -> Outcome {
        self.game.outcome()
    }

    /// The loser and the reason, for a game lost by forfeit.
    pub fn forfeit(&self) -> Option<(Color, &Forfeit)> {
        match (self.game.outcome(), &self.forfeit) {
            (Outcome::Resigned(loser), Some(reason)) => Some((loser, reason)),
            _ => None,
        }
    }

    /// The time each ply's player took to choose it, in order (zero for an
    /// imposed move).
    pub fn times(&self) -> &[Duration] {
        &self.times
    }

    /// The time `color` has taken to choose its moves.
    pub fn used(&self, color: Color) -> Duration {
        let sides = self.game.positions().iter().map(Position::side_to_move);
        sides.zip(&self.times).filter(|(side, _)| *side == color).map(|(_, time)| *time).sum()
    }

    /// The time left on `color`'s clock (`None`: no clock).
    pub fn remaining(&self, color: Color) -> Option<Duration> {
        self.clocks[color.index()].map(|time| time.saturating_sub(self.used(color)))
    }

    /// Plays `mv`, imposed from outside (an opening move, a person's move)
    /// and chosen by `author`, after checking it; it takes no time off the
    /// clock. Returns what it removed.
    pub fn play(
        &mut self,
        mv: Move,
        author: Author,
        observer: &mut impl GameObserver,
    ) -> Result<Bitboard, IllegalMoveError> {
        self.push(mv, author, Duration::ZERO, observer)
    }

    /// Asks `player` for the move of the side to move, charges the time it
    /// took to that side's clock, checks the move and plays it (its author:
    /// [`Author::Program`]). Returns the ply played, or `None` when the
    /// game is over: it was already, or the player has just forfeited it.
    pub fn step(&mut self, player: &mut impl Player, observer: &mut impl GameObserver) -> Option<Ply> {
        if self.outcome().is_over() {
            return None;
        }
        let side = self.position().side_to_move();
        let started = Instant::now();
        let chosen = player.choose(&self.game, self.remaining(side));
        let time = started.elapsed();
        let forfeit = match chosen {
            Err(reason) => Forfeit::Failed(reason),
            Ok(_) if self.remaining(side).is_some_and(|left| time > left) => {
                Forfeit::Time { used: self.used(side) + time, allowed: self.clocks[side.index()].unwrap_or_default() }
            }
            Ok(mv) => match self.push(mv, Author::Program, time, observer) {
                Ok(_) => return self.game.plies().last().copied(),
                Err(illegal) => Forfeit::Illegal(illegal),
            },
        };
        self.game.resign(side);
        self.forfeit = Some(forfeit);
        None
    }

    /// Steps with `player` (a pair of players, or one for both sides) until
    /// the game is over, and returns how it ended.
    pub fn play_out(&mut self, player: &mut impl Player, observer: &mut impl GameObserver) -> Outcome {
        while self.step(player, observer).is_some() {}
        self.outcome()
    }

    /// Keeps the first `plies` moves and drops the rest, with their time
    /// and the end (a forfeit too) they led to.
    pub fn truncate(&mut self, plies: usize) {
        self.game.truncate(plies);
        self.times.truncate(plies);
        self.forfeit = None;
    }

    /// Takes back the last move `author` chose and every move after it
    /// (see [`Game::undo`]); `false` when `author` chose none.
    pub fn undo(&mut self, author: Author) -> bool {
        let undone = self.game.undo(author);
        if undone {
            self.times.truncate(self.game.len());
            self.forfeit = None;
        }
        undone
    }

    /// Checks and plays `mv`, notifies `observer`.
    fn push(
        &mut self,
        mv: Move,
        author: Author,
        time: Duration,
        observer: &mut impl GameObserver,
    ) -> Result<Bitboard, IllegalMoveError> {
        let removed = self.game.play(mv, author)?;
        self.times.push(time);
        observer.on_move(self);
        Ok(removed)
    }
}

#[cfg(test)]
mod tests;
