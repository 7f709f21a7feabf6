//! Perft on the perft.txt positions, in leaves per second
//! (`cargo bench --bench perft`): bulk counting at the last ply, and a make
//! at every leaf.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dvonn::rules::perft::{PerftMode, perft};

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

fn bulk(c: &mut Criterion) {
    bench_mode(c, "perft/bulk", PerftMode::Bulk, 10_000_000);
}

fn make_every_leaf(c: &mut Criterion) {
    bench_mode(c, "perft/make-every-leaf", PerftMode::MakeEveryLeaf, 5_000_000);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bulk, make_every_leaf
}
criterion_main!(benches);
