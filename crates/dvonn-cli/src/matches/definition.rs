//! What defines a match, the same for every shard of it: the players, the
//! number of games, the seed, the openings and what decides a game's time
//! or stops the match. It is written to a records directory's manifest,
//! and a merge reads it back for the summary.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use dvonn_core::Position;

use super::game::Opening;
use super::stats::{Sprt, parse_sprt};
use crate::args::parse_seconds;
use crate::shard::{Manifest, digest_lines, mix};

/// The command whose games a match's manifest describes.
pub(crate) const COMMAND: &str = "dvonn match";

/// How the openings of a match are drawn: one per pair of games.
#[derive(Clone, Debug)]
pub(crate) enum Openings {
    /// The empty board, nothing imposed (a `cmd:` player that cannot be
    /// given a start position plays).
    Empty,
    /// The empty board and 6 to 10 random placements.
    RandomPlacements,
    /// Random setups.
    RandomSetups,
    /// The positions of a file, in order, the first again after the last.
    File {
        /// The file, as given.
        path: String,
        /// Its positions.
        positions: Vec<Position>,
    },
}

impl Openings {
    /// The opening of pair `pair` of the match of `seed`.
    pub(crate) fn of_pair(&self, seed: u64, pair: usize) -> Opening {
        let pair_seed = mix(seed ^ 0x6f70_656e_696e_6773, pair as u64);
        match self {
            Openings::Empty => Opening::empty(),
            Openings::RandomPlacements => Opening::random_placements(pair_seed),
            Openings::RandomSetups => Opening::random_setup(pair_seed),
            Openings::File { positions, .. } => Opening::from_position(positions[pair % positions.len()]),
        }
    }

    /// What the summary says of them.
    pub(crate) fn describe(&self) -> String {
        match self {
            Openings::Empty => "the empty board (a cmd: player without {position} cannot be given an opening)".into(),
            Openings::RandomPlacements => "6 to 10 random placements, each played twice".into(),
            Openings::RandomSetups => "random setups, each played twice".into(),
            Openings::File { path, positions } => {
                format!("the {} positions of {}, each played twice", positions.len(), Path::new(path).display())
            }
        }
    }

    /// A digest of the positions of a file (which the description only
    /// counts).
    pub(crate) fn digest(&self) -> Option<String> {
        match self {
            Openings::File { positions, .. } => Some(digest_lines(positions)),
            Openings::Empty | Openings::RandomPlacements | Openings::RandomSetups => None,
        }
    }
}

/// What defines a match.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Definition {
    /// Player A's specification, as given (trimmed).
    pub a: String,
    /// Player B's.
    pub b: String,
    /// The number of games.
    pub games: usize,
    /// The seed of the openings and of the players' random choices.
    pub seed: u64,
    /// The openings, as the summary describes them.
    pub openings: String,
    /// The digest of the positions of an openings file.
    pub openings_digest: Option<String>,
    /// The time per move of an engine whose specification sets none.
    pub time: Duration,
    /// An external program's extra time per move.
    pub margin: Duration,
    /// The test that stops the match early.
    pub sprt: Option<Sprt>,
}

impl Definition {
    /// The manifest of a records directory of this match.
    pub(crate) fn manifest(&self) -> Manifest {
        let mut settings = vec![
            ("a", self.a.clone()),
            ("b", self.b.clone()),
            ("seed", self.seed.to_string()),
            ("openings", self.openings.clone()),
        ];
        if let Some(digest) = &self.openings_digest {
            settings.push(("openings-digest", digest.clone()));
        }
        settings.push(("time", self.time.as_secs_f64().to_string()));
        settings.push(("margin", self.margin.as_secs_f64().to_string()));
        if let Some(sprt) = &self.sprt {
            settings.push(("sprt", format!("{},{}", sprt.elo0, sprt.elo1)));
        }
        Manifest::new(COMMAND, self.games, &settings)
    }

    /// The match a records directory's manifest describes.
    pub(crate) fn from_manifest(manifest: &Manifest) -> Result<Definition> {
        let get = |key: &str| manifest.get(key).with_context(|| format!("the manifest has no {key}"));
        let seconds = |key: &str| get(key).and_then(|value| parse_seconds(value).map_err(anyhow::Error::msg));
        Ok(Definition {
            a: get("a")?.to_string(),
            b: get("b")?.to_string(),
            games: manifest.games().context("the manifest has no number of games")?,
            seed: get("seed")?.parse().context("the manifest's seed is not a number")?,
            openings: get("openings")?.to_string(),
            openings_digest: manifest.get("openings-digest").map(str::to_string),
            time: seconds("time")?,
            margin: seconds("margin")?,
            sprt: manifest.get("sprt").map(parse_sprt).transpose().map_err(anyhow::Error::msg)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_definition_reads_back_from_its_manifest() {
        let position = Position::random_setup_from_seed(3);
        let openings = Openings::File { path: "boards.txt".into(), positions: vec![position] };
        let definition = Definition {
            a: "depth=2,placement=heuristic".into(),
            b: "cmd:./player {position}".into(),
            games: 12,
            seed: u64::MAX,
            openings: openings.describe(),
            openings_digest: openings.digest(),
            time: Duration::from_millis(200),
            margin: Duration::from_secs(3),
            sprt: Some(Sprt::new(-2.5, 7.0)),
        };
        let manifest = definition.manifest();
        assert_eq!(manifest.get("openings"), Some("the 1 positions of boards.txt, each played twice"));
        assert_eq!(Definition::from_manifest(&manifest).unwrap(), definition);
        let plain = Definition { sprt: None, openings_digest: None, ..definition };
        assert_eq!(Definition::from_manifest(&plain.manifest()).unwrap(), plain);
        assert_eq!(openings.of_pair(1, 5), Opening::from_position(position));
    }
}
