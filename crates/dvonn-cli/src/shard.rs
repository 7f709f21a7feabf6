//! Runs of many games split into shards: for a cluster's scheduler (a
//! Slurm job array, a Kubernetes Indexed Job) or for a few machines by
//! hand. `dvonn match` and `dvonn tune` shard their games this way, and
//! any command that plays independent games can:
//!
//! - **`--shard K/N`** plays the games whose number (from 0) is K modulo N
//!   ([`Shard`]); K counts from 0 to N-1, as Slurm's
//!   `SLURM_ARRAY_TASK_ID` and Kubernetes' `JOB_COMPLETION_INDEX` do.
//! - Every random choice of a game comes from the run's seed and the
//!   game's number alone ([`mix`]): a game is the same whichever shard
//!   plays it, after whichever games, so N shards play exactly the games
//!   of one whole run.
//! - **`--records DIR`**: each finished game is written to DIR as a file
//!   of its own, atomically ([`GameDir`]). All shards may share the
//!   directory (a cluster's shared file system), and a shard run again
//!   skips the games already there: a shard killed in the middle of a game
//!   loses only the games under way.
//! - **`--merge DIR...`** reads the directories back ([`read_records`]),
//!   refusing games of another run, and names the games missing or
//!   present twice.
//! - [`play_games`] plays a shard's games on several threads.
//!
//! A records directory:
//!
//! ```text
//! DIR/.manifest        what defines the games: the command and its settings (key: value lines)
//! DIR/game-0001.dvonn  game 1, a game record (numbered from 1 in names and records)
//! DIR/game-0002.dvonn  ...
//! DIR/.dvonn-k3Xq9a    a file being written (renamed into place when complete)
//! ```
//!
//! The first shard to open the directory writes the manifest ([`Manifest`]);
//! every other shard, and the merge, check that theirs is the same. Each
//! record carries the manifest's digest in its `Run` tag and its number in
//! its `Round` tag, and is read back only if it is exactly as written
//! ([`records`]): a file cut short is never taken for a game. A shard
//! killed while writing may leave its hidden temporary file behind; nothing
//! reads it.

mod dir;
mod manifest;
mod records;
mod runner;

use std::fmt;
use std::str::FromStr;

pub(crate) use dir::GameDir;
pub(crate) use manifest::{Manifest, digest, digest_lines};
pub(crate) use records::{finished_records, read_record, read_records, stamp};
pub(crate) use runner::{Flow, play_games};

/// The largest number of shards.
const MAX_SHARDS: u32 = 1_000_000;

/// One of N disjoint parts of a run's games: `K/N` owns the games whose
/// number (from 0) is K modulo N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    /// K, from 0 to N-1.
    pub index: u32,
    /// N, the number of shards.
    pub count: u32,
}

impl Shard {
    /// The whole run: `0/1`.
    pub(crate) const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` (from 0) is this shard's.
    pub(crate) fn owns(&self, game: usize) -> bool {
        game % self.count as usize == self.index as usize
    }

    /// Whether this is the whole run (`0/1`).
    pub(crate) fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// This shard's games among `games`, in order.
    pub(crate) fn games(&self, games: usize) -> impl Iterator<Item = usize> {
        (self.index as usize..games).step_by(self.count as usize)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Reads `K/N`: N from 1 to a million, K from 0 to N-1.
    fn from_str(text: &str) -> Result<Shard, String> {
        let error = || format!("{text:?} is not K/N (the K-th of N shards, K from 0 to N-1, like 0/4)");
        let (index, count) = text.trim().split_once('/').ok_or_else(error)?;
        let number = |digits: &str| digits.trim().parse::<u32>().map_err(|_| error());
        let (index, count) = (number(index)?, number(count)?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!("{text:?}: the number of shards must be from 1 to {MAX_SHARDS}"));
        }
        if index >= count {
            return Err(format!("{text:?}: K counts from 0 to N-1 (0 to {} here)", count - 1));
        }
        Ok(Shard { index, count })
    }
}

/// Mixes a seed with a number (SplitMix64's finaliser): the seed of game
/// `n` of a run, or of anything else numbered, independent of the others.
pub(crate) fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Game numbers (from 0) written from 1 as ranges: `3, 7-9, 12`.
pub(crate) fn ranges(games: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < games.len() {
        let first = games[i];
        let mut last = first;
        while i + 1 < games.len() && games[i + 1] == last + 1 {
            i += 1;
            last = games[i];
        }
        parts.push(if first == last { format!("{}", first + 1) } else { format!("{}-{}", first + 1, last + 1) });
        i += 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_split_the_games() {
        let shard: Shard = "1/4".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 4 });
        assert_eq!(shard.to_string(), "1/4");
        assert_eq!(shard.games(10).collect::<Vec<_>>(), [1, 5, 9]);
        assert!(shard.owns(5) && !shard.owns(4));
        assert!(" 0/1 ".parse::<Shard>().unwrap().is_whole());
        for (text, expected) in [
            ("4/4", "K counts from 0 to N-1 (0 to 3 here)"),
            ("0/0", "from 1 to 1000000"),
            ("1", "is not K/N"),
            ("-1/4", "is not K/N"),
            ("a/b", "is not K/N"),
        ] {
            let error = text.parse::<Shard>().unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn every_game_has_exactly_one_shard() {
        for count in 1..=7 {
            let mut owners = vec![0; 30];
            for index in 0..count {
                for game in (Shard { index, count }).games(30) {
                    owners[game] += 1;
                }
            }
            assert!(owners.iter().all(|&n| n == 1), "{count} shards: {owners:?}");
        }
    }

    #[test]
    fn mixed_seeds_differ() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(1, 0), mix(2, 0));
        assert_eq!(mix(7, 3), mix(7, 3));
    }

    #[test]
    fn ranges_are_written_from_one() {
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[0]), "1");
        assert_eq!(ranges(&[2, 6, 7, 8, 11]), "3, 7-9, 12");
        assert_eq!(ranges(&[0, 1]), "1-2");
    }
}
