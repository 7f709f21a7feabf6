//! Perft in leaves per second (`cargo bench --bench perft`): bulk
//! perft of the full board as `dvonn perft` counts it, the figure to compare
//! against a saved baseline (docs/PERFORMANCE.md); then every perft.txt
//! position, bulk counting at the last ply and a make at every leaf.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use dvonn::rules::Position;
use dvonn::rules::perft::{PerftMode, perft, perft_in_parts};

mod common;

/// The deepest listed depth whose count stays under `max_leaves`, so that
/// one iteration takes milliseconds, not seconds.
fn depth_for(vector: &common::Vector, max_leaves: u64) -> (u32, u64) {
    vector.counts.iter().copied().filter(|&(_, n)| n <= max_leaves).max_by_key(|&(d, _)| d).unwrap_or(vector.counts[0])
}

fn bench_mode(c: &mut Criterion, name: &str, mode: PerftMode, max_leaves: u64) {
    let mut group = c.benchmark_group(name);
    for vector in common::vectors() {
        let (depth, leaves) = depth_for(&vector, max_leaves);
        group.throughput(Throughput::Elements(leaves));
        let id = BenchmarkId::new(&vector.label, format!("d{depth}"));
        group.bench_with_input(id, &vector.position, |b, position| {
            b.iter(|| {
                let n = perft(black_box(position), depth, mode);
                assert_eq!(n, leaves);
                n
            })
        });
    }
    group.finish();
}

/// The full board at the start of the movement phase, the position of the
/// README's perft figures.
const FULL_BOARD: &str = "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m";
/// Deep enough that the last two plies, perft's fast-bits kernel, take
/// nearly all the time, as in `dvonn perft "<full board>" 6`; about a tenth
/// of a second per count.
const FULL_BOARD_DEPTH: u32 = 5;
/// `perft(FULL_BOARD, FULL_BOARD_DEPTH)`.
const FULL_BOARD_LEAVES: u64 = 205_390_795;

/// Bulk perft of the full board, counted as `dvonn perft` counts each root
/// move's subtree: in parts, through `perft_in_parts`.
fn full_board(c: &mut Criterion) {
    let position: Position = FULL_BOARD.parse().expect("a position string");
    let mut group = c.benchmark_group("perft/full-board");
    group.throughput(Throughput::Elements(FULL_BOARD_LEAVES));
    group.sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(5));
    group.bench_function(BenchmarkId::new("bulk", format!("d{FULL_BOARD_DEPTH}")), |b| {
        b.iter(|| {
            let mut leaves = 0;
            let flow = perft_in_parts(black_box(&position), FULL_BOARD_DEPTH, PerftMode::Bulk, &mut |part| {
                leaves += part;
                ControlFlow::Continue(())
            });
            assert_eq!((flow, leaves), (ControlFlow::Continue(()), FULL_BOARD_LEAVES));
            leaves
        })
    });
    group.finish();
}

fn bulk(c: &mut Criterion) {
    bench_mode(c, "perft/bulk", PerftMode::Bulk, 10_000_000);
}

fn make_every_leaf(c: &mut Criterion) {
    bench_mode(c, "perft/make-every-leaf", PerftMode::MakeEveryLeaf, 5_000_000);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = full_board, bulk, make_every_leaf
}
criterion_main!(benches);
