//! Game review: every position of a game searched, every move judged
//! against the engine's choice.
//!
//! [`review`] searches each position of a [`Game`] within the same
//! [`Limits`] and reports, for every ply, a
//! [`PlyReview`]: the evaluation before and after the move from White's
//! side, the engine's better move when there is one, the *loss* (how much
//! of the final margin the move gave away, from its player's side) and a
//! [`Mark`] when the loss passes the [`Thresholds`]. [`GameReview::summary`]
//! sums each player's moves up; [`graph::evaluation_graph`] draws the
//! evaluation over the game as SVG. With the `serde` feature the review is
//! `serde::Serialize`, in the JSON form that `review::json` documents.
//!
//! # One search per position, one footing per judgement
//!
//! The evaluation after ply `i` is the evaluation before ply `i + 1`: each
//! position is searched once. The search of the position before a move
//! also measures the played move, in the same iterations as its best move:
//! when the iteration of depth `d` has found the best move and its value,
//! the played move is searched again to the same depth with a window that
//! gives its exact value (an iteration counts as complete only once both
//! are known). The loss is the difference of these two values. Both come
//! from the same tree, at the same depth, with the leaves on the same side
//! to move: a move is not charged for what a deeper search of the next
//! position learnt about the game whatever was played (comparing consecutive
//! evaluations would be), nor for the swing between odd and even depths.
//! The played move costs one more search of one root move per iteration
//! when it is not the best, within the same time budget. A proven value is
//! exact at any depth: when the search of the position after the move
//! proves its value, that value stands for the played move's.
//!
//! A value that is not proven is brought within the margin the game can
//! still end with (the pieces on the board; all 49 during placement): the
//! evaluation extrapolates in lopsided endings.
//!
//! The positions are searched from the end of the game back to its start,
//! on one transposition table: what the search proved about the later
//! positions (the endings are solved exactly) is known when the earlier
//! ones are searched, which proves results further back. A position with a
//! single legal move (the 49th placement, a forced pass) is not searched:
//! its evaluation is that of the position after it, and its move is not
//! judged. A finished game's evaluation is its final margin.
//!
//! # Marks
//!
//! The score of a DVONN position is the final margin in pieces, so the
//! thresholds are pieces of margin given away: by default 1 for an
//! inaccuracy, 3 for a mistake and 6 for a blunder ([`Thresholds::DEFAULT`]
//! says why). Whatever the loss, a move that turns a proven win into a draw
//! or a loss, or a proven draw into a loss, is a blunder: the search proved
//! the better result and the worse one (in the same search, or in the search
//! of the position after the move).
//!
//! ```
//! use dvonn_ai::review::{Mark, ReviewOptions, review};
//! use dvonn_ai::{Engine, EngineConfig, Limits, StopHandle};
//! use dvonn_core::{Author, Color, Game, Position};
//!
//! // White wins by 6 with C3D4; C3C4 loses by 3.
//! let start: Position = "W4.DD...../.W2B2W5B...../DB2W......../........../......... w m".parse().unwrap();
//! let mut game = Game::new(start);
//! for mv in ["C3C4", "F4E4"] {
//!     game.play(mv.parse().unwrap(), Author::Record).unwrap();
//! }
//! let mut engine = Engine::new(EngineConfig::default().with_hash_mb(4)).unwrap();
//! let options = ReviewOptions::new(Limits::depth(20));
//! let reviewed = review(&mut engine, &game, &options, &StopHandle::default(), &mut ());
//! let first = &reviewed.plies[0];
//! assert_eq!(first.best.unwrap().to_string(), "C3D4");
//! assert_eq!((first.eval_before.to_string(), first.eval_after.to_string()), ("=+6".into(), "=-3".into()));
//! assert_eq!(first.mark, Some(Mark::Blunder));
//! assert_eq!(reviewed.summary(Color::White).blunders, 1);
//! ```

pub mod graph;
#[cfg(feature = "serde")]
pub mod json;

use std::fmt;
use std::time::Duration;

use dvonn_core::{Color, Game, Move, Phase, Position, TOTAL_PIECES};

use crate::engine::Engine;
use crate::limits::{Limits, StopHandle};
use crate::score::Score;
use crate::search::Searched;

/// The value of a position from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Evaluation {
    /// White's final margin (White's pieces minus Black's at the end of the
    /// game): the search's estimate, or the exact value when proven.
    pub white: Score,
    /// Whether the value is proven: the exact final margin with best play.
    pub exact: bool,
}

impl Evaluation {
    /// The evaluation `score` of a search from `side`'s view, as White's.
    pub fn from_side(side: Color, score: Score, exact: bool) -> Evaluation {
        let white = if side == Color::White { score } else { -score };
        Evaluation { white, exact }
    }

    /// The final margin of a finished game.
    pub fn final_margin(position: &Position) -> Evaluation {
        let margin = position.pieces(Color::White) as i32 - position.pieces(Color::Black) as i32;
        Evaluation { white: Score::from_pieces(margin), exact: true }
    }

    /// The value from `side`'s view.
    pub fn for_side(self, side: Color) -> Score {
        if side == Color::White { self.white } else { -self.white }
    }
}

/// White's margin with its sign and two decimals (`+1.25`, `-0.40`,
/// `0.00`); a proven value is the exact margin after `=` (`=+3`, `=0`).
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let centipieces = self.white.centipieces();
        let sign = match centipieces.signum() {
            1 => "+",
            -1 => "-",
            _ => "",
        };
        let abs = centipieces.unsigned_abs();
        if self.exact && abs.is_multiple_of(100) {
            write!(f, "={sign}{}", abs / 100)
        } else {
            write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
        }
    }
}

/// How bad a move was.
///
/// New marks may be added in any release: a `match` needs a `_` arm, and
/// [`Mark::ALL`] lists them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Mark {
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A loss that changes the game, or a proven result thrown away.
    Blunder,
}

impl Mark {
    /// Every mark, the mildest first.
    pub const ALL: &'static [Mark] = &[Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The annotation symbol of game records: `?!`, `?`, `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The least loss for each [`Mark`], from the player's side.
///
/// New marks may be added in any release: start from
/// [`Thresholds::DEFAULT`] and chain the `with_*` setters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Thresholds {
    /// The least loss of an inaccuracy.
    pub inaccuracy: Score,
    /// The least loss of a mistake.
    pub mistake: Score,
    /// The least loss of a blunder.
    pub blunder: Score,
}

impl Thresholds {
    /// 1, 3 and 6 pieces of final margin.
    ///
    /// - Below one piece a loss is within what separates two searches of a
    ///   fraction of a second (the evaluation's estimate of the margin moves
    ///   by half a piece or so from one depth to the next), and it seldom
    ///   decides a game: no mark.
    /// - One piece is the least change of a final score, and a game is won
    ///   by a single piece: an *inaccuracy*.
    /// - Three pieces is a stack of three, or a small stack cut off from
    ///   the DVONN pieces: the usual size of a real material error, and
    ///   more than most games' margin after the first movements: a
    ///   *mistake*.
    /// - Six pieces, a tall stack or a group of stacks cut off, is more than
    ///   the margin most games are decided by: a *blunder*.
    pub const DEFAULT: Thresholds = Thresholds {
        inaccuracy: Score::from_pieces(1),
        mistake: Score::from_pieces(3),
        blunder: Score::from_pieces(6),
    };

    /// The mark of a move that lost `loss`, if any.
    pub fn mark(&self, loss: Score) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds::DEFAULT
    }
}

setters! {
    impl Thresholds {
        /// Sets the least loss of an inaccuracy.
        with_inaccuracy(inaccuracy: Score);
        /// Sets the least loss of a mistake.
        with_mistake(mistake: Score);
        /// Sets the least loss of a blunder.
        with_blunder(blunder: Score);
    }
}

/// The search time per position of a review when nothing else is asked
/// (`dvonn review`, `dvonn serve`): half a second, so that a game of 90
/// plies is reviewed within a minute.
pub const DEFAULT_TIME: Duration = Duration::from_millis(500);

/// How a game is reviewed.
///
/// New settings may be added in any release: start from
/// [`ReviewOptions::new`] and chain the `with_*` setters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReviewOptions {
    /// The search of each position: a time, a depth, nodes, or several of
    /// them (a clock is ignored: each position has the same budget). With
    /// none, each position is searched until it is solved or the review is
    /// stopped.
    pub limits: Limits,
    /// When a loss earns a mark.
    pub thresholds: Thresholds,
}

impl ReviewOptions {
    /// Each position searched within `limits`, the default thresholds.
    pub const fn new(limits: Limits) -> ReviewOptions {
        ReviewOptions { limits, thresholds: Thresholds::DEFAULT }
    }
}

setters! {
    impl ReviewOptions {
        /// Sets the search of each position.
        with_limits(limits: Limits);
        /// Sets when a loss earns a mark.
        with_thresholds(thresholds: Thresholds);
    }
}

/// One ply of a reviewed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlyReview {
    /// The ply, counted from 0 at the start of the game.
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The phase it was played in.
    pub phase: Phase,
    /// The move played.
    pub mv: Move,
    /// The evaluation of the position before the move: the value of the
    /// engine's best move.
    pub eval_before: Evaluation,
    /// The evaluation of the position after the move (the next ply's
    /// `eval_before`).
    pub eval_after: Evaluation,
    /// The engine's move, when it is better than the one played.
    pub best: Option<Move>,
    /// The engine's choice in the position before the move, better, equal
    /// or the move played itself: its best move (the move played when it
    /// was the only legal one); `None` when no iteration of the search
    /// completed.
    pub engine_move: Option<Move>,
    /// How much of the final margin the move gave away, from its player's
    /// side, against the engine's move in the same search (0 for the
    /// engine's move or an equal one).
    pub loss: Score,
    /// The mark the loss earns, if any.
    pub mark: Option<Mark>,
    /// Whether the move was the only legal one (not searched, not judged).
    pub forced: bool,
    /// The depth the position before the move was searched to (0: not
    /// searched).
    pub depth: u32,
}

/// A reviewed game: its plies in order, with what each player did summed
/// up by [`GameReview::summary`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameReview {
    /// The reviewed plies in the order of the game. A stopped review holds
    /// the last plies of the game, those it had finished (it works back
    /// from the end).
    pub plies: Vec<PlyReview>,
    /// The number of plies of the game.
    pub game_length: usize,
    /// The first ply of the movement phase, when the game reaches it.
    pub movement_from: Option<usize>,
    /// Whether every ply was reviewed (false: stopped).
    pub complete: bool,
}

/// What a player did in a reviewed game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlayerSummary {
    /// The moves judged: those with a choice.
    pub moves: usize,
    /// The loss of those moves together.
    pub total_loss: Score,
    /// Their average loss (0 without moves).
    pub average_loss: Score,
    /// Moves marked as inaccuracies.
    pub inaccuracies: usize,
    /// Moves marked as mistakes.
    pub mistakes: usize,
    /// Moves marked as blunders.
    pub blunders: usize,
}

impl PlayerSummary {
    /// The number of moves with `mark`.
    pub fn count(&self, mark: Mark) -> usize {
        match mark {
            Mark::Inaccuracy => self.inaccuracies,
            Mark::Mistake => self.mistakes,
            Mark::Blunder => self.blunders,
        }
    }
}

impl GameReview {
    /// What `side` did: the judged moves, their loss, the marks.
    pub fn summary(&self, side: Color) -> PlayerSummary {
        let mut summary = PlayerSummary::default();
        let mut total = 0;
        for ply in self.plies.iter().filter(|ply| ply.side == side && !ply.forced) {
            summary.moves += 1;
            total += ply.loss.centipieces();
            match ply.mark {
                Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
                Some(Mark::Mistake) => summary.mistakes += 1,
                Some(Mark::Blunder) => summary.blunders += 1,
                None => {}
            }
        }
        summary.total_loss = Score::from_centipieces(total);
        if summary.moves > 0 {
            let average = (f64::from(total) / summary.moves as f64).round() as i32;
            summary.average_loss = Score::from_centipieces(average);
        }
        summary
    }

    /// The review of ply `ply`, if it was reviewed.
    pub fn ply(&self, ply: usize) -> Option<&PlyReview> {
        let first = self.plies.first()?.ply;
        self.plies.get(ply.checked_sub(first)?)
    }
}

/// Told of every ply as soon as it is reviewed: from the last ply of the
/// game back to the first.
///
/// `()` observes nothing; any `FnMut(&PlyReview)` closure is an observer.
pub trait ReviewObserver {
    /// Called once per ply.
    fn on_ply(&mut self, ply: &PlyReview);
}

impl ReviewObserver for () {
    fn on_ply(&mut self, _ply: &PlyReview) {}
}

impl<F: FnMut(&PlyReview)> ReviewObserver for F {
    fn on_ply(&mut self, ply: &PlyReview) {
        self(ply)
    }
}

/// Reviews the moves of `game` with `engine` (its threads, its table,
/// which the review clears first; a review of the placement phase searches
/// it whatever the engine's placement strategy). A resignation the game
/// ends with changes nothing: the position after the last move is searched.
///
/// `stop` ends the review early, from another thread: the search under
/// way stops at once, and the review returns the plies finished before it,
/// with [`GameReview::complete`] false. Unlike the engine's own handle it is
/// never cleared. `observer` is told of every ply as it is finished.
pub fn review(
    engine: &mut Engine,
    game: &Game,
    options: &ReviewOptions,
    stop: &StopHandle,
    observer: &mut impl ReviewObserver,
) -> GameReview {
    let positions = game.positions();
    let mut limits = options.limits;
    limits.clock = None;
    engine.new_game();
    let mut review = GameReview {
        plies: Vec::with_capacity(game.len()),
        game_length: game.len(),
        movement_from: positions.iter().position(|position| position.phase() == Phase::Movement),
        complete: false,
    };
    let last = game.position();
    let mut after = match engine.search_for_review(last, &limits, None, stop) {
        None => Evaluation::final_margin(last),
        Some(_) if stop.is_stopped() => return review,
        Some(searched) => {
            let score = bounded(searched.result.score, searched.result.exact, last);
            Evaluation::from_side(last.side_to_move(), score, searched.result.exact)
        }
    };
    for (ply, mv) in game.moves().enumerate().rev() {
        if stop.is_stopped() {
            break;
        }
        let position = &positions[ply];
        let reviewed = if position.legal_moves().len() == 1 {
            forced(ply, position, mv, after)
        } else {
            let Some(searched) = engine.search_for_review(position, &limits, Some(mv), stop) else { break };
            // A search cut short by the stop is not judged.
            if stop.is_stopped() {
                break;
            }
            judge(ply, [position, &positions[ply + 1]], mv, &searched, after, &options.thresholds)
        };
        observer.on_ply(&reviewed);
        after = reviewed.eval_before;
        review.plies.push(reviewed);
    }
    review.plies.reverse();
    review.complete = review.plies.len() == game.len();
    review
}

/// The review of the only legal move `mv` of `position`: it keeps the
/// evaluation `after` it.
fn forced(ply: usize, position: &Position, mv: Move, after: Evaluation) -> PlyReview {
    PlyReview {
        ply,
        side: position.side_to_move(),
        phase: position.phase(),
        mv,
        eval_before: after,
        eval_after: after,
        best: None,
        engine_move: Some(mv),
        loss: Score::ZERO,
        mark: None,
        forced: true,
        depth: 0,
    }
}

/// A search's `score` of `position`, brought within the margins the game
/// can still end with when it is not proven: the evaluation extrapolates
/// in lopsided positions, but no player can win by more pieces than the
/// board will hold.
fn bounded(score: Score, exact: bool, position: &Position) -> Score {
    let most = match position.phase() {
        Phase::Placement => u32::from(TOTAL_PIECES),
        Phase::Movement => position.pieces_on_board(),
    };
    let most = Score::from_pieces(most as i32);
    if exact { score } else { score.clamp(-most, most) }
}

/// Judges `mv`, played in `position` (the first of `positions`, the second
/// the position it led to), from the search `searched` that measured it;
/// `after` is the evaluation of the position it led to.
fn judge(
    ply: usize,
    [position, next]: [&Position; 2],
    mv: Move,
    searched: &Searched,
    after: Evaluation,
    thresholds: &Thresholds,
) -> PlyReview {
    let side = position.side_to_move();
    let result = &searched.result;
    let unjudged = PlyReview { depth: result.depth, ..forced(ply, position, mv, after) };
    let (Some(best_move), Some(played)) = (result.best_move, searched.candidate) else {
        // No iteration completed (a node limit that small): nothing to
        // judge by.
        return PlyReview { forced: false, engine_move: None, ..unjudged };
    };
    let best = bounded(result.score, result.exact, position);
    // A proven value is exact at any depth: one from the search of the
    // position after the move stands for a heuristic one from this search.
    let (played, played_exact) = match (played.exact, after.exact) {
        (false, true) => (after.for_side(side), true),
        _ => (bounded(played.score, played.exact, next), played.exact),
    };
    let loss = if best_move == mv { 0 } else { (best.centipieces() - played.centipieces()).max(0) };
    let loss = Score::from_centipieces(loss);
    let outcome = |score: Score| score.centipieces().signum();
    let thrown_away = result.exact && played_exact && outcome(played) < outcome(best) && best_move != mv;
    let mark = if thrown_away { Some(Mark::Blunder) } else { thresholds.mark(loss) };
    PlyReview {
        eval_before: Evaluation::from_side(side, best, result.exact),
        best: Some(best_move).filter(|_| loss > Score::ZERO),
        engine_move: Some(best_move),
        loss,
        mark,
        forced: false,
        ..unjudged
    }
}

#[cfg(test)]
mod tests;
