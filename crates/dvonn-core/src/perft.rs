//! Perft: the number of move sequences of a given length, the standard check
//! of a move generator ([`VECTORS`]).
//!
//! A forced PASS counts as one move and a finished game is one leaf at
//! whatever depth it ends; `perft(0)` is 1.

use std::ops::ControlFlow;

use crate::cpu::with_fast_bits;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The depth of the subtrees [`perft_in_parts`] counts in one piece: a few
/// hundred thousand leaves at most, a millisecond or so.
const PART_DEPTH: u32 = 3;

/// How perft counts the last ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PerftMode {
    /// Count the moves at the last ply without playing them (the usual,
    /// fastest mode).
    #[default]
    Bulk,
    /// Play every move of the last ply too (measures make-move speed).
    MakeEveryLeaf,
}

/// The number of leaves `depth` plies below `position`.
///
/// ```
/// use dvonn_core::{Position, perft::{perft, PerftMode}};
/// let start = Position::new();
/// assert_eq!(perft(&start, 2, PerftMode::Bulk), 49 * 48);
/// assert_eq!(perft(&start, 2, PerftMode::MakeEveryLeaf), 49 * 48);
/// ```
pub fn perft(position: &Position, depth: u32, mode: PerftMode) -> u64 {
    match mode {
        PerftMode::Bulk => perft_with::<Bulk>(position, depth),
        PerftMode::MakeEveryLeaf => perft_with::<EveryLeaf>(position, depth),
    }
}

/// The leaf count below each legal move: `perft(child, depth - 1)` per move,
/// in move generation order. Empty when `depth` is 0 or the game is over.
pub fn divide(position: &Position, depth: u32, mode: PerftMode) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = Position::new();
            position.play_into(mv, &mut child);
            (mv, perft(&child, depth - 1, mode))
        })
        .collect()
}

/// [`perft`] counted in parts, for counts that may run long: `on_part`
/// gets the leaf count of each subtree of at most a few plies as soon as it
/// is counted, and counting stops as soon as it returns
/// [`ControlFlow::Break`]. The parts add up to [`perft`]`(position, depth,
/// mode)` when counting is not stopped. Returns whether it was.
///
/// ```
/// use std::ops::ControlFlow;
/// use dvonn_core::{Position, perft::{perft_in_parts, PerftMode}};
///
/// let start = Position::new();
/// let mut leaves = 0;
/// let flow = perft_in_parts(&start, 4, PerftMode::Bulk, &mut |part| {
///     leaves += part;
///     ControlFlow::Continue(())
/// });
/// assert_eq!((flow, leaves), (ControlFlow::Continue(()), 49 * 48 * 47 * 46));
///
/// // Stop after the first part.
/// let mut parts = 0;
/// let flow = perft_in_parts(&start, 4, PerftMode::Bulk, &mut |_| {
///     parts += 1;
///     ControlFlow::Break(())
/// });
/// assert_eq!((flow, parts), (ControlFlow::Break(()), 1));
/// ```
pub fn perft_in_parts(
    position: &Position,
    depth: u32,
    mode: PerftMode,
    on_part: &mut impl FnMut(u64) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if depth <= PART_DEPTH {
        return on_part(perft(position, depth, mode));
    }
    let moves = position.legal_moves();
    if moves.is_empty() {
        // A finished game is one leaf.
        return on_part(1);
    }
    for mv in moves {
        let mut child = Position::new();
        position.play_into(mv, &mut child);
        perft_in_parts(&child, depth - 1, mode, on_part)?;
    }
    ControlFlow::Continue(())
}

/// How perft counts the leaves one and two plies below a position: [`Bulk`]
/// or [`EveryLeaf`].
trait Leaves {
    /// The leaves one ply below `position`.
    fn count(position: &Position) -> u64;

    /// The leaves two plies below `position`, the kernel where the time
    /// goes: [`Leaves::count`] summed over the children.
    #[inline(always)]
    fn count_two_plies(position: &Position) -> u64 {
        // The count is passed as an `#[inline(always)]` closure, not as
        // the function itself: only then is it inlined into the kernel.
        sum_over_children(
            position,
            #[inline(always)]
            |child| Self::count(child),
        )
    }
}

/// Leaves counted without playing the moves.
struct Bulk;

/// Every leaf played into a scratch position.
struct EveryLeaf;

impl Leaves for Bulk {
    #[inline(always)]
    fn count(position: &Position) -> u64 {
        bulk_leaves(position)
    }

    /// Movements are played straight from the generator's landing sets
    /// ([`Position::for_each_jump`]): no move list is filled and read back
    /// for a count that is only a few set operations. (The leaf loop of
    /// [`EveryLeaf`] does much more per child; walked this way, it loses
    /// registers in builds for the default x86-64 target.)
    #[inline(always)]
    #[expect(clippy::redundant_closure, reason = "the closure carries #[inline(always)]")]
    fn count_two_plies(position: &Position) -> u64 {
        let mut child = Position::new();
        let mut leaves = 0;
        let movements = position.for_each_jump(
            #[inline(always)]
            |from, to| {
                position.play_into(Move::Jump { from, to }, &mut child);
                leaves += Self::count(&child);
            },
        );
        if movements > 0 {
            return leaves;
        }
        // Placements, a pass, or the end of the game.
        sum_over_children(
            position,
            #[inline(always)]
            |child| Self::count(child),
        )
    }
}

impl Leaves for EveryLeaf {
    #[inline(always)]
    fn count(position: &Position) -> u64 {
        full_leaves(position)
    }
}

fn perft_with<L: Leaves>(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => L::count(position),
        // The last two plies, where the time goes, as one kernel compiled
        // for the processor's bit instructions.
        2 => with_fast_bits(
            #[inline(always)]
            || L::count_two_plies(position),
        ),
        _ => sum_over_children(position, |child| perft_with::<L>(child, depth - 1)),
    }
}

/// The moves, counted without playing them. A
/// finished game (no moves) is one leaf.
#[inline(always)]
fn bulk_leaves(position: &Position) -> u64 {
    u64::from(position.count_legal_moves().max(1))
}

/// The sum of `count(child)` over the children of `position`; 1 when the
/// game is over.
#[inline(always)]
fn sum_over_children(position: &Position, count: impl Fn(&Position) -> u64) -> u64 {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    // A loop rather than an iterator's `sum`, whose `fold` the compiler may
    // leave out of line, outside the kernel.
    let mut sum = 0;
    for &mv in &moves {
        let mut child = Position::new();
        position.play_into(mv, &mut child);
        sum += count(&child);
    }
    sum
}

/// Every move played into a scratch position.
#[inline(always)]
fn full_leaves(position: &Position) -> u64 {
    let mut leaf = Position::new();
    let leaves = position.for_each_jump(|from, to| {
        position.play_into(Move::Jump { from, to }, &mut leaf);
        // The leaf is counted, not searched: keep the compiler from
        // dropping the move it would otherwise see is unused.
        std::hint::black_box(&leaf);
    });
    if leaves > 0 {
        return u64::from(leaves);
    }
    // Placements, a pass, or the end of the game.
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    for &mv in &moves {
        position.play_into(mv, &mut leaf);
        std::hint::black_box(&leaf);
    }
    moves.len() as u64
}

/// A perft test vector: a position and its leaf counts by depth, written
/// as in `perft.txt`: `<position string> ;D1 49 ;D2 1889 ;D3 95315`.
///
/// ```
/// use dvonn_core::perft::{PerftMode, PerftVector, perft};
/// let vector: PerftVector = "........./........../.........../........../......... w p ;D1 49 ;D2 2352".parse().unwrap();
/// for &(depth, leaves) in &vector.counts {
///     assert_eq!(perft(&vector.position, depth, PerftMode::Bulk), leaves);
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PerftVector {
    /// The position.
    pub position: Position,
    /// `(depth, leaves)` pairs, in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// A line that is not a perft vector.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerftVectorError {
    /// The position string is wrong.
    #[error("{0}")]
    Position(#[from] crate::PositionParseError),
    /// A count is not `;D<depth> <leaves>`.
    #[error("{0:?} is not a count like ;D3 95315")]
    Count(String),
}

impl std::str::FromStr for PerftVector {
    type Err = PerftVectorError;

    fn from_str(line: &str) -> Result<PerftVector, PerftVectorError> {
        let mut parts = line.trim().split(" ;");
        let position = parts.next().unwrap_or_default().trim().parse()?;
        let counts = parts
            .map(|part| {
                let count = || {
                    let (depth, leaves) = part.trim().strip_prefix('D')?.split_once(' ')?;
                    Some((depth.parse().ok()?, leaves.trim().parse().ok()?))
                };
                count().ok_or_else(|| PerftVectorError::Count(part.chars().take(40).collect()))
            })
            .collect::<Result<_, _>>()?;
        Ok(PerftVector { position, counts })
    }
}

/// The project's perft vectors (its `perft.txt`): positions of both phases
/// with their perft counts, computed by an independent reference
/// implementation of the rules. `#` lines say what kind of position follows;
/// [`read_vectors`] reads them.
///
/// ```
/// use dvonn_core::perft::{PerftMode, VECTORS, perft, read_vectors};
/// let vectors = read_vectors(VECTORS).unwrap();
/// let (depth, leaves) = vectors[0].counts[0];
/// assert_eq!(perft(&vectors[0].position, depth, PerftMode::Bulk), leaves);
/// ```
pub const VECTORS: &str = include_str!("../tests/vectors/perft.txt");

/// A line of a `perft.txt`-style text that is not a perft vector, with
/// its place in the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
#[non_exhaustive]
pub struct PerftVectorsError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with the line.
    #[source]
    pub error: PerftVectorError,
}

/// Every vector of a `perft.txt`-style text: one per line; blank lines and
/// lines starting with `#` are skipped. Errors give the 1-based line number.
pub fn read_vectors(text: &str) -> Result<Vec<PerftVector>, PerftVectorsError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| line.parse().map_err(|error| PerftVectorsError { line: i + 1, error }))
        .collect()
}
