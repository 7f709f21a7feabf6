//! Fixed-depth searches of the bench positions (`dvonn_ai::bench`), in
//! nodes per second (`cargo bench --bench search`), and the bench signature;
//! then each evaluation's cost in the search: the network's and the linear
//! one's nodes per second at a fixed depth, and the depth each reaches in
//! 0.3 s from fresh full boards.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dvonn::ai::{Engine, EngineConfig, Limits, MovementEval, Weights};
use dvonn::rules::{Phase, Position};

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

/// The two evaluations: the network and the linear one.
fn evaluations() -> [(&'static str, EngineConfig); 2] {
    let config = EngineConfig::default().with_hash_mb(16);
    [("network", config.clone()), ("linear", config.with_movement_eval(MovementEval::Linear(Weights::TUNED)))]
}

/// Fresh full boards: random setups, the movement phase about to start.
fn full_boards() -> Vec<Position> {
    (1..=8).map(Position::random_setup_from_seed).collect()
}

/// Depth 7 from fresh full boards with each evaluation, in nodes per
/// second; then, printed, the depth each completes in 0.3 s from the same
/// boards.
fn evaluation_cost(c: &mut Criterion) {
    let boards = full_boards();
    assert!(boards.iter().all(|board| board.phase() == Phase::Movement));
    let mut group = c.benchmark_group("search/evaluation");
    for (name, config) in evaluations() {
        let mut engine = Engine::new(config).unwrap();
        let nodes: u64 = boards.iter().map(|board| engine.search(board, &Limits::depth(DEPTH), &mut ()).nodes).sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new(name, format!("d{DEPTH}")), |b| {
            b.iter(|| {
                let mut total = 0;
                for board in &boards {
                    engine.new_game();
                    total += engine.search(black_box(board), &Limits::depth(DEPTH), &mut ()).nodes;
                }
                assert_eq!(total, nodes);
            })
        });
    }
    group.finish();
    for (name, config) in evaluations() {
        let mut engine = Engine::new(config).unwrap();
        let (mut depths, mut nodes, mut seconds) = (Vec::new(), 0, 0.0);
        for board in &boards {
            engine.new_game();
            let result = engine.search(board, &Limits::move_time(Duration::from_millis(300)), &mut ());
            depths.push(result.depth);
            nodes += result.nodes;
            seconds += result.elapsed.as_secs_f64();
        }
        let mean = depths.iter().sum::<u32>() as f64 / depths.len() as f64;
        println!(
            "{name:>7} in 0.3 s from {} full boards: depth {mean:.2} on average ({depths:?}), {:.2} M nodes/s",
            boards.len(),
            nodes as f64 / seconds / 1e6
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = search, evaluation_cost
}
criterion_main!(benches);
