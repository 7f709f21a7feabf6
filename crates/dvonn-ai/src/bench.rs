//! The bench signature: the total node count of fixed-depth searches of a
//! fixed set of positions, by a fresh single-threaded engine. It is
//! deterministic, so it changes exactly when the search changes (ordering,
//! pruning, evaluation); commits that change the search quote it. Also a
//! quick measure of nodes per second.

use std::time::{Duration, Instant};

use dvonn_core::Position;

use crate::engine::{Engine, EngineConfig};
use crate::limits::Limits;

/// The positions of the bench: the positions of the perft test vectors,
/// from early placements to endings with forced passes, except the empty
/// board (the same search as the early placement, only longer) and the two
/// whose only move is a pass (they would add no nodes).
pub const POSITIONS: [&str; 18] = [
    "...D...../........../....W..BD../........../......D.. b p",
    "B.BW...W./D.B....BBW/BW..BW...WW/B.D.BWW.W./..B.D...B w p",
    "W.BWB.BBB/DWWBBDBBBW/WWWWWWBBBWB/.WWWBWBBWB/WDBWWWBBB w p",
    "WDWWWWWWB/BWBWWWBDWB/BBBBWBBBWBB/WBDWWBBWBB/WBWBWWBBW w m",
    "BBB.W2WWDB/BWBBWBWBB2./WWBBWBWWBW2*W2/WWB..WB4B../BWD.BW.W2B w m",
    "BWB2*.W..BW/.W2WWWB.W2W3./WB2BWWWBDD.W/.W3.BB2B3BBWB/B.WB.W2.WW w m",
    ".BB2..B..B2/BW2BWDW2W.W3B/BWW..B2*BWWWW/.W2.W3WWB3..B2/B..B3.W2B.D w m",
    "B.W2B.W3WB./BBBBBB2WW.B3/WWWB2..DW.W2B/BBWW2.B2..B3D/BDW..W2.B2. w m",
    "B2.BBBWWB./BBWWBWBBWB2/DBBW2WWWBWBB/WWW2.DW2*BWBB/WW.BW.BBB b m",
    "BWBBWWWWB/BWWWWWBBDD/W2BWBWWWWWWW/.BBWBBDBB2B/BBBBBBW.B w m",
    "W...W3*WBWW/B2BB2D.DWWWW/.BBWB.WWBWB/.W3BBBWBBB2B/.BBW3WBW.W b m",
    "..B4B3*W3B.../..W2.WBW2*BB2B/....B2BW..../...W5BB3B.BW/....BW.W4*W w m",
    "WW.B2B..W2./BDW2.BDWWBW/WBBWWWWW3W2.B2/WDBWB2WBBW./BBB.B2.WWW b m",
    "WWBWBB.B8./WWWWBWBD.B/B2*WWBBB2W2.W6WB/...D.....W/......... w m",
    ".....WB2.B/....B6.WWBB/.....BBWBWW/....B.W3WWB/..B5*.D.DW2. w m",
    "...W..D../W2.W2W2B2W2W4W../B3*W2..B3BW..../.B3*.W2W3...../..B4.W2.... b m",
    ".W5*B4..W4B6*../WW4B2....W3../.....B4...../....B3*W4..../.....W... w m",
    "BBBBBBBBB/BWWWWWWBBB/BWWWWWWWWWB/BWWWWWWWWB/DDDBBBBBB b m",
];

/// The default depth of the bench.
pub const DEPTH: u32 = 8;

/// The outcome of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BenchResult {
    /// The signature: nodes searched in all.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches every bench position to `depth` with a fresh single-threaded
/// engine (16 MiB table) and sums the nodes.
///
/// ```
/// let a = dvonn_ai::bench::run(2);
/// let b = dvonn_ai::bench::run(2);
/// assert_eq!(a.nodes, b.nodes, "the signature is deterministic");
/// ```
pub fn run(depth: u32) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for text in POSITIONS {
        let position: Position = text.parse().expect("bench positions are valid");
        let mut engine = Engine::new(EngineConfig::default().with_hash_mb(16)).expect("16 MiB");
        nodes += engine.search(&position, &Limits::depth(depth), &mut ()).nodes;
    }
    BenchResult { nodes, elapsed: start.elapsed() }
}
