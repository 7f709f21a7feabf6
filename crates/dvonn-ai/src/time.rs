//! Time management: how much of the clock a move may use.

use std::time::{Duration, Instant};

use dvonn_core::{Color, Phase, Position};

use crate::limits::Limits;

/// Weight of one of our placements against one of our movements when the
/// clock is shared out. The placement evaluation makes a placement search
/// cheap and its depth matters little, while every ply of depth counts in
/// the movement phase: placements get a few milliseconds each, and nearly
/// the whole clock is kept for the movements.
const PLACEMENT_WEIGHT: f64 = 0.03;

/// The most movements a player's clock is shared over: games last 15 to 25
/// movements a player, but the search stops short of its share (it starts
/// no iteration after [`ITERATION_START`] of it), and the early movements,
/// where the board is full and the game is decided, deserve the most.
const MOVEMENTS_AHEAD: f64 = 10.0;

/// The share of a move's soft time after which no new iteration starts:
/// each iteration takes about as long as all before it together.
pub(crate) const ITERATION_START: f64 = 0.45;

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

    /// Whether there is time to start work that takes about `fraction` of
    /// the soft time.
    pub(crate) fn may_start(&self, fraction: f64) -> bool {
        self.soft.is_none_or(|soft| self.elapsed().as_secs_f64() < soft.as_secs_f64() * fraction)
    }
}

/// Our moves still to come in the game, weighted by how much time each
/// deserves.
fn weighted_moves_left(position: &Position) -> f64 {
    match position.phase() {
        Phase::Placement => {
            let left = 49 - position.placed();
            // White makes the placements of the even plies, including the last.
            let ours = if position.side_to_move() == Color::White { left.div_ceil(2) } else { left / 2 };
            f64::from(ours) * PLACEMENT_WEIGHT + MOVEMENTS_AHEAD
        }
        Phase::Movement => {
            // Every movement empties at least one cell, most empty one or
            // two; games end with about a dozen stacks left.
            let occupied = f64::from(position.occupied().len());
            ((occupied - 10.0) / 3.5).clamp(2.5, MOVEMENTS_AHEAD)
        }
    }
}

/// (soft, hard) times for this move from the clock.
fn share_clock(remaining: Duration, increment: Duration, position: &Position) -> (Duration, Duration) {
    // Keep a reserve for process overhead and for the last moves.
    let reserve = remaining.mul_f64(0.03) + Duration::from_millis(15);
    let usable = remaining.saturating_sub(reserve);
    let weight = if position.phase() == Phase::Placement { PLACEMENT_WEIGHT } else { 1.0 };
    let share = usable.mul_f64(weight / weighted_moves_left(position)) + increment.mul_f64(0.8);
    let soft = share.min(usable);
    let hard = (soft * 3).min(usable.mul_f64(0.35).max(soft));
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_second_game_is_shared_over_its_moves() {
        let placement = Position::new();
        let (soft, hard) = share_clock(Duration::from_secs(5), Duration::ZERO, &placement);
        assert!(soft > Duration::from_millis(5) && soft < Duration::from_millis(30), "{soft:?}");
        assert!(hard >= soft && hard < Duration::from_millis(100));
        let movement = Position::random_setup_from_seed(1);
        let (soft, hard) = share_clock(Duration::from_millis(4800), Duration::ZERO, &movement);
        assert!(soft > Duration::from_millis(300) && soft < Duration::from_millis(600), "{soft:?}");
        assert!(hard < Duration::from_millis(1700));
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
