//! Fixed-depth searches of the bench positions (`dvonn_ai::bench`), in
//! nodes per second (`cargo bench --bench search`), and the bench signature.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dvonn::ai::{Engine, EngineConfig, Limits};
use dvonn::rules::Position;

/// Depth of the per-position searches: tens of milliseconds each.
const DEPTH: u32 = 7;

fn search(c: &mut Criterion) {
    let signature = dvonn::ai::bench::run(dvonn::ai::bench::DEPTH);
    println!("bench signature (depth {}): {} nodes", dvonn::ai::bench::DEPTH, signature.nodes);
    let mut group = c.benchmark_group("search/fixed-depth");
    for (i, text) in dvonn::ai::bench::POSITIONS.iter().enumerate() {
        let position: Position = text.parse().unwrap();
        let mut engine = Engine::new(EngineConfig::default().with_hash_mb(16)).unwrap();
        let nodes = engine.search(&position, &Limits::depth(DEPTH), &mut ()).nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(format!("{i:02}"), format!("d{DEPTH}")), &position, |b, position| {
            b.iter(|| {
                // A fresh table each time: the same tree every iteration.
                engine.new_game();
                let result = engine.search(black_box(position), &Limits::depth(DEPTH), &mut ());
                assert_eq!(result.nodes, nodes);
                result.best_move
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = search
}
criterion_main!(benches);
