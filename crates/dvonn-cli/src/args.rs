//! Parsers and defaults for command-line values shared by several
//! subcommands.

use std::time::Duration;

use dvonn_ai::eval::{Network, PlacementEval};
use dvonn_ai::{EngineConfig, MovementEval, ParallelSearch, Weights};

/// The engine's resources, as options of the commands that run one.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct EngineArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256), value_name = "N")]
    pub threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536), value_name = "MB")]
    pub hash: u32,
    /// How several threads share the search: lazy (Lazy SMP) or ybwc
    /// (young brothers wait).
    #[arg(long, default_value = "lazy", value_parser = clap::value_parser!(ParallelSearch), value_name = "KIND")]
    pub parallel: ParallelSearch,
    /// Placement evaluation weights from this file (written by `dvonn tune-placement fit`) instead
    /// of the engine's own.
    #[arg(long, value_parser = parse_placement_weights, value_name = "FILE")]
    pub placement_weights: Option<PlacementEval>,
    /// The evaluation: network (the default) or linear (the weighted features, with the
    /// placement evaluation's patterns).
    #[arg(long, default_value = "network", value_parser = parse_eval, value_name = "KIND")]
    pub eval: EvalKind,
    /// The evaluation network from this file (written by train/train.py) instead of the engine's own.
    #[arg(long, value_parser = parse_network, value_name = "FILE")]
    pub network: Option<&'static Network>,
}

/// Which evaluation an engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EvalKind {
    /// The network.
    Network,
    /// The linear evaluation.
    Linear,
}

/// Reads `network` or `linear`.
pub(crate) fn parse_eval(text: &str) -> Result<EvalKind, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "network" => Ok(EvalKind::Network),
        "linear" => Ok(EvalKind::Linear),
        _ => Err(format!("{text:?} is not an evaluation: expected network or linear")),
    }
}

/// Reads a network file (kept for the rest of the program).
pub(crate) fn parse_network(path: &str) -> Result<&'static Network, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read {path}: {error}"))?;
    let network = Network::from_bytes(&bytes).map_err(|error| format!("{path}: {error}"))?;
    Ok(Box::leak(Box::new(network)))
}

/// Reads a placement weight file into an evaluation.
pub(crate) fn parse_placement_weights(path: &str) -> Result<PlacementEval, String> {
    crate::tune_placement::read_weights(std::path::Path::new(path))
        .map(PlacementEval::with_weights)
        .map_err(|error| format!("{error:#}"))
}

impl EngineArgs {
    /// The default engine configuration with these threads, table size and
    /// parallel search.
    pub(crate) fn config(&self) -> EngineConfig {
        let config = EngineConfig::default().with_threads(usize::from(self.threads)).with_hash_mb(self.hash as usize);
        let search = config.search.with_parallel(self.parallel);
        let placement_eval = self.placement_weights.unwrap_or(config.placement_eval);
        let movement_eval = match self.eval {
            EvalKind::Network => MovementEval::Network(self.network.unwrap_or(Network::shipped())),
            EvalKind::Linear => MovementEval::Linear(Weights::TUNED),
        };
        config.with_search(search).with_placement_eval(placement_eval).with_movement_eval(movement_eval)
    }
}

/// Reads a time in seconds (`5`, `0.25`): positive, finite, at most a day.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!("{text:?}: a time must be more than 0 and at most 86400 seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("{text:?}: {error}"))
}

/// A seed from the clock, for commands run without `--seed`.
pub(crate) fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
