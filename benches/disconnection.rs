//! The cost of removing cut-off stacks (`cargo bench --bench disconnection`):
//! the set-wise flood fill from the DVONN stacks, and moves that really cut
//! stacks off, in operations per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dvonn::rules::{Bitboard, Move, Position};

mod common;

/// One flood fill per occupied cell: the fill that decides what stays when
/// that cell is emptied.
fn flood_fill(c: &mut Criterion) {
    let mut group = c.benchmark_group("disconnection/flood-fill");
    for vector in common::movement_vectors() {
        let position = vector.position;
        let occupied = position.occupied();
        group.throughput(Throughput::Elements(u64::from(occupied.len())));
        group.bench_with_input(BenchmarkId::from_parameter(&vector.label), &position, |b, position| {
            b.iter(|| {
                let mut kept = 0;
                for cell in occupied {
                    let within = black_box(position.occupied()) - Bitboard::from(cell);
                    kept += position.dvonn_stacks().flood_fill(within).len();
                }
                kept
            })
        });
    }
    group.finish();
}

/// Playing the moves that remove stacks (each one runs the fill and the
/// removal), from the positions where some do.
fn removing_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("disconnection/removing-moves");
    for vector in common::movement_vectors() {
        let position = vector.position;
        let removing: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|&mv| {
                let mut child = position;
                !child.play_unchecked(mv).is_empty()
            })
            .collect();
        if removing.is_empty() {
            continue;
        }
        group.throughput(Throughput::Elements(removing.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(&vector.label), &position, |b, position| {
            b.iter(|| {
                let mut child = Position::new();
                for &mv in &removing {
                    black_box(black_box(position).play_into(mv, &mut child));
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = flood_fill, removing_moves
}
criterion_main!(benches);
