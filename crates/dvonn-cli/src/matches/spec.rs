//! Player specifications of `dvonn match`: an engine configuration written
//! as `key=value` pairs, or an external program speaking the CodeCup
//! protocol (`cmd:<command line>`).
//!
//! Engine keys (any order; `level` is applied first, the other keys change
//! it):
//!
//! | key | value | meaning |
//! |---|---|---|
//! | `level` | beginner, casual, club, expert, master | a [`Level`]'s configuration and limit |
//! | `depth` | plies | search depth per move |
//! | `nodes` | count | nodes per move |
//! | `time` | seconds | time per move |
//! | `clock` | seconds | time for the whole game, shared out by the engine; a player whose clock runs out loses |
//! | `threads` | count | search threads |
//! | `parallel` | lazy, ybwc | how the threads share the search: Lazy SMP or young brothers wait |
//! | `hash` | MiB | transposition table size (default 16) |
//! | `eval` | network, linear, tuned, hand, pieces | the evaluation: the network (the default), or the linear one with the tuned (`linear`), hand-set or material-only weights |
//! | `network` | file | the evaluation network from this file (`train/train.py`) |
//! | `placement` | search, heuristic, random | placement strategy |
//! | `placement-weights` | file | placement evaluation weights (`dvonn tune-placement fit`) |
//!
//! `random` is a player that picks uniformly random legal moves (the floor
//! every engine must beat every time).
//!
//! In a `cmd:` command line, `{position}` stands for the position string
//! of the position the program starts from (one argument, however many
//! words the command has) and `{seed}` for a seed drawn for the program in
//! each game: a program that can start from a given position (like
//! `dvonn codecup --position {position}`) can then play set openings.
//!
//! A limit key (`depth`, `nodes`, `time`, `clock`) replaces the level's
//! limit; several limits all apply. A specification with no limit at all
//! gets `dvonn match --time` per move.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use dvonn_ai::{EngineConfig, Level, Limits, MovementEval, PlacementStrategy, Weights};

use crate::args::EvalKind;

use crate::args::parse_seconds;

/// The transposition table of a match engine unless `hash=` says otherwise
/// (several engines may play at once).
pub(crate) const DEFAULT_HASH_MB: usize = 16;

/// A player of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Spec {
    /// The engine of this workspace, configured (boxed: a configuration is
    /// large beside the other kinds).
    Engine(Box<EngineSpec>),
    /// An external program speaking the CodeCup protocol, started for each
    /// game: the program and its arguments.
    External(Vec<String>),
    /// Uniformly random legal moves.
    Random,
}

/// An engine configuration and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EngineSpec {
    /// The engine (its seed is set per game).
    pub config: EngineConfig,
    /// The limit per move (`Limits::infinite()` when none was given).
    pub limits: Limits,
    /// Time for the whole game.
    pub clock: Option<Duration>,
}

impl EngineSpec {
    /// Whether any limit was given.
    pub(crate) fn has_limit(&self) -> bool {
        self.clock.is_some() || self.limits != Limits::infinite()
    }
}

/// The placeholder of a `cmd:` command line for the start position.
pub(crate) const POSITION_PLACEHOLDER: &str = "{position}";
/// The placeholder of a `cmd:` command line for the program's seed.
pub(crate) const SEED_PLACEHOLDER: &str = "{seed}";

impl Spec {
    /// Whether the player can start from any position: an engine or the
    /// random player, or a program whose command line takes `{position}`.
    pub(crate) fn takes_any_start(&self) -> bool {
        match self {
            Spec::External(command) => command.iter().any(|word| word.contains(POSITION_PLACEHOLDER)),
            Spec::Engine(_) | Spec::Random => true,
        }
    }

    /// Reads a specification (see the module documentation).
    pub(crate) fn parse(text: &str) -> Result<Spec> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix("cmd:") {
            let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
            if words.is_empty() {
                bail!("cmd: needs a command line, like cmd:./my-player --fast");
            }
            return Ok(Spec::External(words));
        }
        if text == "random" {
            return Ok(Spec::Random);
        }
        if text.is_empty() {
            bail!("an empty player specification: give key=value pairs like depth=4, or cmd:<program>");
        }
        let mut pairs = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let (key, value) = item
                .split_once('=')
                .with_context(|| format!("{item:?} is not key=value (like depth=4, time=0.2 or level=club)"))?;
            pairs.push((key.trim().to_ascii_lowercase(), value.trim()));
        }
        let mut spec = EngineSpec {
            config: EngineConfig::default().with_hash_mb(DEFAULT_HASH_MB),
            limits: Limits::infinite(),
            clock: None,
        };
        if let Some((_, value)) = pairs.iter().find(|(key, _)| key == "level") {
            let level: Level = value.parse()?;
            spec.config = level.config().with_hash_mb(DEFAULT_HASH_MB);
            spec.limits = level.limits();
        }
        let mut limited = false;
        for (key, value) in &pairs {
            let context = || format!("{key}={value}");
            let limit = matches!(key.as_str(), "depth" | "nodes" | "time" | "clock");
            if limit && !limited {
                // An explicit limit replaces the level's.
                spec.limits = Limits::infinite();
                limited = true;
            }
            match key.as_str() {
                "level" => {}
                "depth" => spec.limits.depth = Some(count(value, 1, 100).with_context(context)? as u32),
                "nodes" => spec.limits.nodes = Some(count(value, 1, u64::MAX).with_context(context)?),
                "time" => spec.limits.move_time = Some(seconds(value).with_context(context)?),
                "clock" => spec.clock = Some(seconds(value).with_context(context)?),
                "threads" => spec.config.threads = count(value, 1, 256).with_context(context)? as usize,
                "parallel" => spec.config.search.parallel = value.parse().map_err(anyhow::Error::msg)?,
                "hash" => spec.config.hash_mb = count(value, 1, 65_536).with_context(context)? as usize,
                "eval" => {
                    spec.config.movement_eval = match crate::args::parse_eval(value) {
                        Ok(EvalKind::Network) => MovementEval::default(),
                        Ok(EvalKind::Linear) => MovementEval::Linear(Weights::TUNED),
                        Err(_) => MovementEval::Linear(Weights::named(value).with_context(|| {
                            format!("{}: expected network, linear, tuned, hand or pieces", context())
                        })?),
                    }
                }
                "network" => {
                    let network = crate::args::parse_network(value).map_err(anyhow::Error::msg)?;
                    spec.config.movement_eval = MovementEval::Network(network);
                }
                "placement" => {
                    spec.config.placement = match value.to_ascii_lowercase().as_str() {
                        "search" => PlacementStrategy::Search,
                        "heuristic" => PlacementStrategy::Heuristic,
                        "random" => PlacementStrategy::Random,
                        _ => bail!("{}: expected search, heuristic or random", context()),
                    }
                }
                "placement-weights" => {
                    spec.config.placement_eval =
                        crate::args::parse_placement_weights(value).map_err(anyhow::Error::msg)?;
                }
                _ => bail!(
                    "unknown key {key:?} in {text:?}: expected level, depth, nodes, time, clock, threads, parallel, hash, eval, network, placement or placement-weights (or cmd:<program>)"
                ),
            }
        }
        Ok(Spec::Engine(Box::new(spec)))
    }
}

/// A whole number from `min` to `max`.
fn count(value: &str, min: u64, max: u64) -> Result<u64> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => bail!("{value:?} is not a whole number from {min} to {max}"),
    }
}

/// A time in seconds.
fn seconds(value: &str) -> Result<Duration> {
    parse_seconds(value).map_err(anyhow::Error::msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifications_parse() {
        let Spec::Engine(spec) = Spec::parse("depth=4,eval=hand").unwrap() else { panic!() };
        assert_eq!(spec.limits.depth, Some(4));
        assert_eq!(
            Spec::parse("cmd:./player --fast").unwrap(),
            Spec::External(vec!["./player".into(), "--fast".into()])
        );
        assert!(Spec::parse("depth=four").is_err());
    }

    fn engine(text: &str) -> EngineSpec {
        match Spec::parse(text).unwrap() {
            Spec::Engine(spec) => *spec,
            Spec::External(_) | Spec::Random => panic!("{text} is an engine"),
        }
    }

    #[test]
    fn keys_set_the_configuration() {
        let spec = engine("time=0.25, threads=2,hash=8,eval=pieces,placement=random,parallel=ybwc");
        assert_eq!(spec.config.search.parallel, dvonn_ai::ParallelSearch::YoungBrothersWait);
        assert_eq!(spec.limits, Limits::move_time(Duration::from_millis(250)));
        assert_eq!(spec.config.threads, 2);
        assert_eq!(spec.config.hash_mb, 8);
        assert_eq!(spec.config.movement_eval, MovementEval::Linear(Weights::PIECES_ONLY));
        assert_eq!(spec.config.placement, PlacementStrategy::Random);
        let spec = engine("clock=5");
        assert_eq!(spec.clock, Some(Duration::from_secs(5)));
        assert!(spec.has_limit());
        assert!(!engine("eval=hand").has_limit());
    }

    #[test]
    fn a_level_is_a_base_that_other_keys_change() {
        let club = engine("level=club");
        assert_eq!(club.limits, Level::Club.limits());
        assert_eq!(club.config.placement, PlacementStrategy::Heuristic);
        assert_eq!(club.config.hash_mb, DEFAULT_HASH_MB);
        let faster = engine("depth=2,level=club");
        assert_eq!(faster.limits, Limits::depth(2));
        assert_eq!(faster.config.placement, PlacementStrategy::Heuristic);
    }

    #[test]
    fn mistakes_are_explained() {
        for (text, expected) in [
            ("", "empty"),
            ("depth", "not key=value"),
            ("depth=0", "from 1 to 100"),
            ("time=-1", "more than 0"),
            ("eval=magic", "tuned, hand or pieces"),
            ("colour=red", "unknown key"),
            ("level=grandmaster", "unknown level"),
            ("cmd:  ", "needs a command line"),
        ] {
            let error = format!("{:#}", Spec::parse(text).unwrap_err());
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
