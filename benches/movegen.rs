//! Move generation and make-move speed on the perft.txt positions, in moves
//! per second (`cargo bench --bench movegen`).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dvonn::rules::{MoveList, Position};

mod common;

/// Listing the legal moves: elements are moves generated.
fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen/generate");
    for vector in common::vectors() {
        let position = vector.position;
        group.throughput(Throughput::Elements(position.legal_moves().len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(&vector.label), &position, |b, position| {
            b.iter(|| {
                let mut moves = MoveList::new();
                black_box(position).generate_moves(&mut moves);
                moves
            })
        });
    }
    group.finish();
}

/// Counting the legal moves without listing them (perft's bulk count).
fn count(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen/count");
    for vector in common::vectors() {
        let position = vector.position;
        group.throughput(Throughput::Elements(u64::from(position.count_legal_moves())));
        group.bench_with_input(BenchmarkId::from_parameter(&vector.label), &position, |b, position| {
            b.iter(|| black_box(position).count_legal_moves())
        });
    }
    group.finish();
}

/// Making every legal move into a child position (`Position::play_into`):
/// elements are moves made.
fn make(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen/make");
    for vector in common::vectors() {
        let position = vector.position;
        let moves = position.legal_moves();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(&vector.label), &position, |b, position| {
            b.iter(|| {
                let mut child = Position::new();
                for &mv in &moves {
                    black_box(black_box(position).play_into(mv, &mut child));
                    black_box(&child);
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = generate, count, make
}
criterion_main!(benches);
