//! Time management: how much of the clock a move may use.

use std::time::{Duration, Instant};

use dvonn_core::{Color, Move, Phase, Position};

use crate::limits::Limits;

/// Weight of one of our placements when the clock is shared out, in the
/// units of [`MOVEMENT_WEIGHT`] (1 for a movement at 36 to 41 stacks). The
/// placement evaluation makes a placement search cheap, but its depth
/// still counts where the last placements are searched into the movement
/// phase: placements get a few tens of milliseconds each, about an eighth
/// of the clock, and the rest is kept for the movements (a third of this
/// weight plays measurably worse, docs/STRENGTH.md).
const PLACEMENT_WEIGHT: f64 = 0.1;

/// How much time one of our movements deserves, by the stacks on the board
/// (index: stacks / 6), against the other movements of the game. Measured
/// on positions of games against the CodeCup 2011 champion (docs/ENGINE.md,
/// time management): on the full board a search of 0.2 s rarely picks a
/// worse move than one of 0.8 s, while from 37 down to 20 stacks, where
/// stacks begin to be cut off, each doubling of the time still saves about
/// a fifth to a quarter of a piece a move; below 18 stacks the search mostly
/// solves the ending exactly within milliseconds, and a share kept for
/// those moves would go unused.
const MOVEMENT_WEIGHT: [f64; 9] = [0.1, 0.1, 0.1, 1.0, 1.6, 1.6, 1.0, 0.6, 0.6];

/// Our movements per stack that leaves the board, by the stacks on the
/// board (index: stacks / 6): a movement and the opponent's reply empty
/// about two cells while the board is full, more once stacks are cut off,
/// and the last few movements of a game are few and far between.
const MOVEMENTS_PER_STACK: [f64; 9] = [0.135, 0.135, 0.36, 0.34, 0.42, 0.47, 0.48, 0.5, 0.5];

/// The least number of movements of this move's weight that the clock is
/// shared over: the estimate of the movements ahead can be short, and a
/// game may last longer than it says.
const MIN_MOVEMENTS_AHEAD: f64 = 2.5;

/// The part of its soft time a search uses on average: it starts no
/// iteration after [`ITERATION_START`] of it, and the last iteration it
/// starts takes about as long as all before it together.
const EXPECTED_USE: f64 = 0.6;

/// The share of a move's soft time after which no new iteration starts:
/// each iteration takes about as long as all before it together.
const ITERATION_START: f64 = 0.45;

/// The most an unsettled search stretches [`ITERATION_START`] by.
const MAX_STRETCH: f64 = 1.8;

/// The times at which a search should stop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadlines {
    /// When the search began.
    pub(crate) start: Instant,
    /// After this, do not start another iteration.
    pub(crate) soft: Option<Duration>,
    /// After this, stop at once.
    pub(crate) hard: Option<Duration>,
}

impl Deadlines {
    /// The deadlines `limits` set for a search of `position` starting now.
    pub(crate) fn new(limits: &Limits, position: &Position, start: Instant) -> Deadlines {
        let mut soft = limits.move_time;
        let mut hard = limits.move_time;
        if let Some(clock) = limits.clock {
            let (clock_soft, clock_hard) = share_clock(clock.remaining, clock.increment, position);
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
        }
        Deadlines { start, soft, hard }
    }

    /// Time since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard deadline has passed.
    pub(crate) fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Whether there is time to start another iteration of a search whose
    /// answer is as settled as `stability` says. Only a game clock, whose
    /// hard time lies beyond its soft time, lets an unsettled search go on
    /// longer; a time per move is kept as it is.
    pub(crate) fn may_start_iteration(&self, stability: &Stability) -> bool {
        let Some(soft) = self.soft else { return true };
        let stretch = if self.hard.is_some_and(|hard| hard > soft) { stability.stretch() } else { 1.0 };
        self.elapsed().as_secs_f64() < soft.as_secs_f64() * ITERATION_START * stretch
    }
}

/// How settled a search's answer is, iteration by iteration. A best move
/// that changed in the last iterations, or a score that fell, means the
/// deeper search sees what the shallower ones missed: such a search may go
/// on after the soft time would have stopped a settled one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stability {
    best_move: Option<Move>,
    /// Changes of the best move, each counting half as much an iteration
    /// later.
    changes: f64,
    /// The scores of the iterations so far, in centipieces.
    scores: Vec<i32>,
}

impl Stability {
    /// Records a completed iteration of `depth` and its answer.
    pub(crate) fn record(&mut self, depth: u32, best_move: Move, score: i32) {
        self.changes /= 2.0;
        if depth >= 4 && self.best_move.is_some_and(|mv| mv != best_move) {
            self.changes += 1.0;
        }
        self.best_move = Some(best_move);
        self.scores.push(score);
    }

    /// The score of the iteration before the last one: the last of the next
    /// iteration's parity (scores swing with the parity of the depth).
    pub(crate) fn same_parity_score(&self) -> Option<i32> {
        self.scores.len().checked_sub(2).map(|i| self.scores[i])
    }

    /// How much longer than a settled search this one may start iterations:
    /// from 1 (the best move has not changed lately and the score has not
    /// fallen) to [`MAX_STRETCH`].
    fn stretch(&self) -> f64 {
        let falling = match self.scores.len().checked_sub(3).map(|i| (self.scores[i], self.scores[i + 2])) {
            Some((before, last)) if last < before - FALLING_SCORE => 1.3,
            _ => 1.0,
        };
        ((1.0 + 0.4 * self.changes) * falling).min(MAX_STRETCH)
    }
}

/// A fall of the score between two iterations of the same parity, in
/// centipieces, from which a search counts as unsettled.
const FALLING_SCORE: i32 = 50;

/// The entry of `table` (indexed by stacks / 6) for a board of `stacks`
/// stacks.
fn by_stacks(table: &[f64; 9], stacks: u32) -> f64 {
    table[(stacks as usize / 6).min(table.len() - 1)]
}

/// The weight of one of our movements on a board of `stacks` stacks.
fn movement_weight(stacks: u32) -> f64 {
    by_stacks(&MOVEMENT_WEIGHT, stacks)
}

/// The weight of our movements still to come on a board of `stacks`
/// stacks, the next one included: the movements expected at each number
/// of stacks down to the end of the game, each by its weight.
fn movements_ahead(stacks: u32) -> f64 {
    (1..=stacks.min(49)).map(|s| by_stacks(&MOVEMENTS_PER_STACK, s) * movement_weight(s)).sum()
}

/// This move's weight and the weight of all our moves still to come in the
/// game, this one included.
fn weights(position: &Position) -> (f64, f64) {
    match position.phase() {
        Phase::Placement => {
            let left = 49 - position.placed();
            // White makes the placements of the even plies, including the last.
            let ours = if position.side_to_move() == Color::White { left.div_ceil(2) } else { left / 2 };
            (PLACEMENT_WEIGHT, f64::from(ours) * PLACEMENT_WEIGHT + movements_ahead(49))
        }
        Phase::Movement => {
            let stacks = position.occupied().len();
            let weight = movement_weight(stacks);
            (weight, movements_ahead(stacks).max(weight * MIN_MOVEMENTS_AHEAD))
        }
    }
}

/// (soft, hard) times for this move from the clock.
fn share_clock(remaining: Duration, increment: Duration, position: &Position) -> (Duration, Duration) {
    // Keep a reserve for process overhead and for the last moves.
    let reserve = remaining.mul_f64(0.03) + Duration::from_millis(15);
    let usable = remaining.saturating_sub(reserve);
    let (weight, ahead) = weights(position);
    let share = usable.mul_f64(weight / ahead) + increment.mul_f64(0.8);
    let soft = share.div_f64(EXPECTED_USE).min(usable);
    let hard = (soft * 3).min(usable.mul_f64(0.35).max(soft));
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position of a random setup after its first moves, until at most
    /// `stacks` stacks are left.
    fn board_of(stacks: u32) -> Position {
        let mut position = Position::random_setup_from_seed(3);
        while position.occupied().len() > stacks {
            let moves = position.legal_moves();
            position.play(moves[moves.len() / 2]).expect("a legal move");
        }
        position
    }

    #[test]
    fn a_five_second_game_is_shared_over_its_moves() {
        let placement = Position::new();
        let (soft, hard) = share_clock(Duration::from_secs(5), Duration::ZERO, &placement);
        assert!(soft > Duration::from_millis(20) && soft < Duration::from_millis(80), "{soft:?}");
        assert!(hard >= soft && hard < Duration::from_millis(200));
        let full = Position::random_setup_from_seed(1);
        let (soft, hard) = share_clock(Duration::from_millis(4800), Duration::ZERO, &full);
        assert!(soft > Duration::from_millis(150) && soft < Duration::from_millis(400), "{soft:?}");
        assert!(hard < Duration::from_millis(1200));
    }

    #[test]
    fn the_middle_game_gets_more_time_than_the_full_board() {
        let clock = Duration::from_millis(3000);
        let (full, _) = share_clock(clock, Duration::ZERO, &Position::random_setup_from_seed(1));
        let middle = board_of(30);
        assert!((24..=30).contains(&middle.occupied().len()), "{middle}");
        let (soft, hard) = share_clock(clock, Duration::ZERO, &middle);
        assert!(soft > full * 2, "{soft:?} against {full:?} on the full board");
        assert!(hard >= soft && hard < clock / 2, "{hard:?}");
    }

    #[test]
    fn an_unsettled_search_may_start_iterations_later() {
        let moves = Position::random_setup_from_seed(4).legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let mut settled = Stability::default();
        for depth in 1..=8 {
            settled.record(depth, a, 100);
        }
        assert_eq!(settled.stretch(), 1.0);
        let mut changing = settled.clone();
        changing.record(9, b, 100);
        assert!(changing.stretch() > 1.3, "{}", changing.stretch());
        changing.record(10, b, 100);
        changing.record(11, b, 100);
        assert!(changing.stretch() < 1.15, "the change is forgotten: {}", changing.stretch());
        let mut falling = settled.clone();
        falling.record(9, a, 100 - FALLING_SCORE - 1);
        assert_eq!(falling.stretch(), 1.3);
        let mut wild = Stability::default();
        for depth in 1..=12 {
            wild.record(depth, if depth % 2 == 0 { a } else { b }, -100 * depth as i32);
        }
        assert_eq!(wild.stretch(), MAX_STRETCH);
        assert_eq!(wild.same_parity_score(), Some(-1100));
    }

    #[test]
    fn only_a_game_clock_stretches_the_iterations() {
        let mut unsettled = Stability::default();
        let moves = Position::random_setup_from_seed(4).legal_moves();
        for depth in 1..=6 {
            unsettled.record(depth, moves[depth as usize % 2], 0);
        }
        // 50% of the soft time gone: a settled search stops (45%), an
        // unsettled one under a clock goes on; a time per move stops.
        let start = Instant::now() - Duration::from_millis(500);
        let clock = Deadlines { start, soft: Some(Duration::from_secs(1)), hard: Some(Duration::from_secs(3)) };
        assert!(!clock.may_start_iteration(&Stability::default()));
        assert!(clock.may_start_iteration(&unsettled));
        let per_move = Deadlines { hard: Some(Duration::from_secs(1)), ..clock };
        assert!(!per_move.may_start_iteration(&unsettled));
    }

    #[test]
    fn a_nearly_empty_clock_is_never_overdrawn() {
        for remaining in [0, 1, 10, 16, 20, 100] {
            let remaining = Duration::from_millis(remaining);
            let (soft, hard) = share_clock(remaining, Duration::ZERO, &Position::random_setup_from_seed(2));
            assert!(soft <= remaining && hard <= remaining, "{remaining:?}: {soft:?} {hard:?}");
        }
    }
}
