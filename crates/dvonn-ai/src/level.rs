//! [`Level`]: named strength presets for human opponents.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::engine::EngineConfig;
use crate::eval::{MovementEval, Weights};
use crate::limits::Limits;
use crate::placement::PlacementStrategy;

/// A playing strength. Each level is a configuration and a per-move limit;
/// `dvonn match` measures how far apart they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Level {
    /// Random placement, a one-ply search that counts pieces only.
    Beginner,
    /// Heuristic placement, two plies, the full evaluation.
    Casual,
    /// Heuristic placement, four plies.
    Club,
    /// Searched placement, half a second per move.
    Expert,
    /// Searched placement, three seconds per move.
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [Level::Beginner, Level::Casual, Level::Club, Level::Expert, Level::Master];

    /// The engine configuration of this level (threads and table size are
    /// the default's; set them as the machine allows).
    pub fn config(self) -> EngineConfig {
        let (movement_eval, placement) = match self {
            Level::Beginner => (MovementEval::Linear(Weights::PIECES_ONLY), PlacementStrategy::Random),
            Level::Casual | Level::Club => (MovementEval::default(), PlacementStrategy::Heuristic),
            Level::Expert | Level::Master => (MovementEval::default(), PlacementStrategy::Search),
        };
        EngineConfig::default().with_movement_eval(movement_eval).with_placement(placement)
    }

    /// The limit of each move at this level.
    pub fn limits(self) -> Limits {
        match self {
            Level::Beginner => Limits::depth(1),
            Level::Casual => Limits::depth(2),
            Level::Club => Limits::depth(4),
            Level::Expert => Limits::move_time(Duration::from_millis(500)),
            Level::Master => Limits::move_time(Duration::from_secs(3)),
        }
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Expert => "expert",
            Level::Master => "master",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of [`Level::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {name:?} (expected beginner, casual, club, expert or master)")]
pub struct UnknownLevel {
    name: String,
}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownLevel { name: text.to_string() })
    }
}
