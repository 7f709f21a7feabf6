//! Move ordering: the transposition-table move first, then moves by the
//! material they win (captures and cut-offs), killer moves, and the history
//! of moves that caused cut-offs.

use arrayvec::ArrayVec;
use dvonn_core::{Color, MAX_MOVES, Move, MoveList, Position};

/// Moves with their ordering scores.
pub(crate) type ScoredMoves = ArrayVec<(Move, i32), { MAX_MOVES + 1 }>;

const TT_MOVE: i32 = 1 << 30;
const GAIN: i32 = 1 << 24;
const KILLER: i32 = 1 << 23;
/// Moves that lose material: below every history score.
const LOSS: i32 = -(1 << 24);
/// History scores stay between the killer and the loss bands.
const HISTORY_MAX: i32 = 1 << 20;

/// Cut-off statistics of one search thread: killer moves per ply and a
/// history score per (side, source, destination).
#[derive(Clone)]
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

fn history_index(color: Color, mv: Move) -> Option<usize> {
    match mv {
        Move::Jump { from, to } => Some((color.index() * 64 + from.bit() as usize) * 64 + to.bit() as usize),
        Move::Place(cell) => Some((color.index() * 64 + cell.bit() as usize) * 64 + cell.bit() as usize),
        Move::Pass => None,
    }
}

impl Ordering {
    pub(crate) fn new(max_ply: usize) -> Ordering {
        Ordering { killers: vec![[None; 2]; max_ply], history: vec![0; 2 * 64 * 64] }
    }

    /// Forgets the killers (history is kept across searches, halved).
    pub(crate) fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Records that `mv` caused a cut-off at `ply` with `depth` to go.
    pub(crate) fn record_cutoff(&mut self, position: &Position, mv: Move, ply: usize, depth: i32) {
        if !is_capture(position, mv) {
            let killers = &mut self.killers[ply];
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
        }
        if let Some(i) = history_index(position.side_to_move(), mv) {
            let bonus = depth * depth;
            self.history[i] = (self.history[i] + bonus).min(HISTORY_MAX);
        }
    }

    /// Lowers the history of a move that was searched but did not cut off.
    pub(crate) fn record_failure(&mut self, position: &Position, mv: Move, depth: i32) {
        if let Some(i) = history_index(position.side_to_move(), mv) {
            self.history[i] = (self.history[i] - depth).max(-HISTORY_MAX);
        }
    }

    /// The moves of `position` with their ordering scores, in generation
    /// order: [`next_best`] takes them best first.
    ///
    /// Moves that win pieces come first, largest gain first: the enemy
    /// stack they land on, and (from [`DEEP_ORDERING`] plies to go, where it
    /// pays to make every move) the stacks they cut off, the enemy's for
    /// them, their own against them. Then killers, then the rest by
    /// history; moves that lose pieces of their own come last.
    pub(crate) fn score(
        &self,
        position: &Position,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        depth: i32,
    ) -> ScoredMoves {
        let killers = self.killers[ply];
        let side = position.side_to_move();
        moves
            .iter()
            .map(|&mv| {
                let gain =
                    if depth >= DEEP_ORDERING { material_gain(position, mv) } else { landing_gain(position, mv) };
                let score = if Some(mv) == tt_move {
                    TT_MOVE
                } else if gain > 0 {
                    GAIN + 64 * gain - i32::from(mv.from().map_or(0, |c| position.height_at(c)))
                } else if gain < 0 {
                    LOSS + 64 * gain
                } else if killers[0] == Some(mv) {
                    KILLER + 1
                } else if killers[1] == Some(mv) {
                    KILLER
                } else {
                    history_index(side, mv).map_or(0, |i| self.history[i])
                };
                (mv, score)
            })
            .collect()
    }
}

/// Moves taken by selection before the rest is sorted: most cut-offs come
/// from the first move or two, and a full sort would be wasted on them.
const SELECTED_FIRST: usize = 3;

/// Puts the best remaining move of `moves` at `index` and returns it: the
/// first few by selection, then (once) the rest by a sort. Ties keep
/// generation order, so the order is deterministic.
pub(crate) fn next_best(moves: &mut ScoredMoves, index: usize) -> Move {
    if index < SELECTED_FIRST {
        let mut best = index;
        for i in index + 1..moves.len() {
            if moves[i].1 > moves[best].1 {
                best = i;
            }
        }
        moves[index..=best].rotate_right(1);
    } else if index == SELECTED_FIRST {
        // Rotations above kept the rest in generation order: a stable sort
        // by score alone is deterministic.
        moves[index..].sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    }
    moves[index].0
}

/// From this depth on, moves are made to see what they cut off.
const DEEP_ORDERING: i32 = 3;

/// The pieces `mv` wins by landing: an enemy stack, or a lone DVONN piece
/// it takes over.
fn landing_gain(position: &Position, mv: Move) -> i32 {
    let Move::Jump { to, .. } = mv else { return 0 };
    match position.owner_at(to) {
        Some(owner) if owner == position.side_to_move() => 0,
        _ => i32::from(position.height_at(to)),
    }
}

/// The pieces `mv` wins for the side to move: an enemy stack it lands on
/// (or the lone DVONN piece it takes over), plus the enemy pieces it cuts
/// off, minus its own pieces it cuts off.
pub(crate) fn material_gain(position: &Position, mv: Move) -> i32 {
    let me = position.side_to_move();
    let landing = landing_gain(position, mv);
    let mut child = Position::new();
    let removed = position.play_into(mv, &mut child);
    let cut_off: i32 = removed
        .iter()
        .map(|cell| {
            let height = i32::from(position.height_at(cell));
            match position.owner_at(cell) {
                Some(owner) if owner == me => -height,
                Some(_) => height,
                None => 0,
            }
        })
        .sum();
    landing + cut_off
}

/// Whether an ordering score is that of a quiet move: neither the table
/// move, nor a move that wins material (as `Ordering::score` sees it),
/// nor a killer. Late-move pruning skips such moves; late-move reductions
/// judge a move after making it instead (what it lands on and cuts off).
pub(crate) fn is_quiet(score: i32) -> bool {
    score < KILLER
}

/// Whether `mv` lands on an enemy stack.
pub(crate) fn is_capture(position: &Position, mv: Move) -> bool {
    let Move::Jump { to, .. } = mv else { return false };
    position.owner_at(to) == Some(position.side_to_move().opponent())
}
