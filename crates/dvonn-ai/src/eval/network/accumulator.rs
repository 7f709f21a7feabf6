//! Accumulators: the feature transformer's sums for a position, and how a
//! move updates them.
//!
//! A move changes the stacks of few cells: a placement one, a jump two, and
//! the stacks it cuts off. The child's accumulators are the parent's, less
//! the rows of the stacks that left those cells and plus the rows of those
//! that came. The search keeps one [`Accumulator`] per ply in an
//! [`AccumulatorStack`], and computes a ply's only when a position at that
//! ply is evaluated: many positions are left by a table cut-off first.

use arrayvec::ArrayVec;
use dvonn_core::{Bitboard, Cell, Color, Move, Position};

use super::{HIDDEN, Network, input_of};

/// The feature transformer's sums for one position, seen from each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Accumulator {
    /// White's view, then Black's.
    sides: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulator of `position`, from scratch.
    pub(crate) fn new(network: &Network, position: &Position) -> Accumulator {
        let mut sides = [*network.bias(); 2];
        for (side, values) in [Color::White, Color::Black].into_iter().zip(&mut sides) {
            for cell in position.occupied().iter() {
                let input = input_of(position, cell, side).expect("an occupied cell");
                add(values, network.row(input));
            }
        }
        Accumulator { sides }
    }

    /// The sums seen from `side`.
    #[inline(always)]
    pub(crate) fn side(&self, side: Color) -> &[i16; HIDDEN] {
        &self.sides[side.index()]
    }

    /// Writes into `child` this accumulator, which is `parent`'s, updated
    /// by `change`.
    fn update_into(&self, network: &Network, change: &Change, child: &mut Accumulator) {
        for (index, side) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut removed: ArrayVec<&[i16; HIDDEN], MAX_CHANGED> = ArrayVec::new();
            let mut added: ArrayVec<&[i16; HIDDEN], MAX_CHANGED> = ArrayVec::new();
            for &(cell, before, after) in &change.cells {
                if let Some(stack) = before {
                    removed.push(network.row(super::inputs::input(cell, stack, side)));
                }
                if let Some(stack) = after {
                    added.push(network.row(super::inputs::input(cell, stack, side)));
                }
            }
            let values = &mut child.sides[index];
            *values = self.sides[index];
            for row in added {
                add(values, row);
            }
            for row in removed {
                subtract(values, row);
            }
        }
    }
}

#[inline(always)]
fn add(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (value, weight) in values.iter_mut().zip(row) {
        *value = value.wrapping_add(*weight);
    }
}

#[inline(always)]
fn subtract(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (value, weight) in values.iter_mut().zip(row) {
        *value = value.wrapping_sub(*weight);
    }
}

/// The most cells a move changes: a jump's two, and the stacks it cuts off
/// (at most the 47 others, but a bound on the array; larger changes are
/// computed from scratch).
const MAX_CHANGED: usize = 16;

/// The cells a move changed, with their stacks before and after.
#[derive(Clone, Debug, Default)]
struct Change {
    cells: ArrayVec<(Cell, Option<dvonn_core::Stack>, Option<dvonn_core::Stack>), MAX_CHANGED>,
}

impl Change {
    /// What `mv` changed from `parent` to `child` (`removed`: the cells it
    /// cut off); `None` when it changed too many cells to list.
    fn of(parent: &Position, child: &Position, mv: Move, removed: Bitboard) -> Option<Change> {
        let touched = match mv {
            Move::Place(cell) => Bitboard::from(cell),
            Move::Jump { from, to } => Bitboard::from(from) | Bitboard::from(to) | removed,
            Move::Pass => Bitboard::EMPTY,
        };
        if touched.len() as usize > MAX_CHANGED {
            return None;
        }
        let cells = touched.iter().map(|cell| (cell, parent.stack_at(cell), child.stack_at(cell))).collect();
        Some(Change { cells })
    }
}

/// How a ply's accumulator is found.
#[derive(Clone, Debug)]
enum Source {
    /// The ply before's, updated by the change.
    Change(Change),
    /// From scratch, for this position.
    Position(Position),
}

/// One ply of an [`AccumulatorStack`].
#[derive(Clone, Debug)]
struct Ply {
    accumulator: Accumulator,
    /// Whether `accumulator` is this ply's, or stale.
    computed: bool,
    source: Source,
}

/// One accumulator per ply of a search, computed when first asked for.
#[derive(Clone, Debug)]
pub(crate) struct AccumulatorStack {
    network: &'static Network,
    plies: Vec<Ply>,
}

impl AccumulatorStack {
    /// A stack for searches of up to `plies` plies with `network`.
    pub(crate) fn new(network: &'static Network, plies: usize) -> AccumulatorStack {
        let empty = Ply {
            accumulator: Accumulator { sides: [*network.bias(); 2] },
            computed: false,
            source: Source::Position(Position::new()),
        };
        AccumulatorStack { network, plies: vec![empty; plies + 1] }
    }

    /// Makes `position` the position at `ply` (a search's root or the
    /// start of a helper's subtree): its accumulator is computed from
    /// scratch when asked for.
    pub(crate) fn set(&mut self, ply: usize, position: &Position) {
        let entry = &mut self.plies[ply];
        entry.computed = false;
        entry.source = Source::Position(*position);
    }

    /// Records that `child`, at `ply + 1`, follows `parent`, at `ply`, by
    /// `mv`, which cut off the stacks of `removed` (a pass, or a null move,
    /// changes no stack).
    #[inline]
    pub(crate) fn push(&mut self, ply: usize, parent: &Position, child: &Position, mv: Move, removed: Bitboard) {
        let entry = &mut self.plies[ply + 1];
        entry.computed = false;
        entry.source = match Change::of(parent, child, mv, removed) {
            Some(change) => Source::Change(change),
            None => Source::Position(*child),
        };
    }

    /// The accumulator of the position at `ply`.
    pub(crate) fn get(&mut self, ply: usize) -> &Accumulator {
        // Back to the nearest ply whose accumulator is known or computed
        // from scratch, then forward by the changes.
        let mut start = ply;
        while start > 0 && !self.plies[start].computed && matches!(self.plies[start].source, Source::Change(_)) {
            start -= 1;
        }
        let network = self.network;
        if let Ply { computed: computed @ false, source: Source::Position(position), accumulator } =
            &mut self.plies[start]
        {
            *accumulator = Accumulator::new(network, position);
            *computed = true;
        }
        for next in start + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(next);
            let (parent, child) = (&done[next - 1], &mut rest[0]);
            let Source::Change(change) = &child.source else { unreachable!("only the first ply is from scratch") };
            parent.accumulator.update_into(network, change, &mut child.accumulator);
            child.computed = true;
        }
        &self.plies[ply].accumulator
    }
}
