//! A records directory: its manifest and one file per finished game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::manifest::{self, Manifest};
use crate::output::write_new_file;

/// The extension of the games' files.
pub(super) const EXTENSION: &str = "dvonn";

/// A records directory opened by a shard of a run, its manifest checked.
#[derive(Clone, Debug)]
pub(crate) struct GameDir {
    path: PathBuf,
    manifest: Manifest,
}

impl GameDir {
    /// Opens `path` for the run of `manifest`: creates the directory if
    /// needed and writes the manifest, or checks that the one there is the
    /// same (another shard, or an earlier run of this one, wrote it).
    pub(crate) fn open(path: &Path, manifest: &Manifest) -> Result<GameDir> {
        let name = path.display();
        std::fs::create_dir_all(path).with_context(|| format!("cannot create the directory {name}"))?;
        // Every run writes its manifest before any game: games without one
        // are someone else's.
        if !path.join(manifest::FILE).exists() && !list(path)?.is_empty() {
            bail!(
                "{name} holds game records but no {}: they are not a sharded run's (an older dvonn's?); give \
                 another directory",
                manifest::FILE
            );
        }
        if !write_new_file(&path.join(manifest::FILE), manifest.text().as_bytes())? {
            let there = Manifest::read(path)?;
            if let Some((key, mine, theirs)) = manifest.difference(&there) {
                bail!(
                    "{name} holds the games of another run ({key}: {theirs} there, {mine} here): give the same \
                     settings to go on with it, or another directory"
                );
            }
        }
        Ok(GameDir { path: path.to_path_buf(), manifest: manifest.clone() })
    }

    /// The directory `path`, which holds the manifest `manifest` (read
    /// from it), for reading.
    pub(super) fn existing(path: &Path, manifest: &Manifest) -> GameDir {
        GameDir { path: path.to_path_buf(), manifest: manifest.clone() }
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The run's manifest.
    pub(crate) fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The file of game `game` (from 0).
    pub(crate) fn file(&self, game: usize) -> PathBuf {
        self.path.join(file_name(game))
    }

    /// The files of the finished games, by number (from 0).
    pub(crate) fn finished(&self) -> Result<BTreeMap<usize, PathBuf>> {
        list(&self.path)
    }

    /// Writes game `game`'s file atomically; `Ok(false)` when it is there
    /// already (another process played the same game), and nothing is
    /// written.
    pub(crate) fn write(&self, game: usize, text: &str) -> Result<bool> {
        write_new_file(&self.file(game), text.as_bytes())
    }
}

/// The name of game `game`'s file: `game-0001.dvonn` for game 0.
pub(super) fn file_name(game: usize) -> String {
    format!("game-{:04}.{EXTENSION}", game + 1)
}

/// The number (from 0) of the game whose file is called `name`.
fn game_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("game-")?.strip_suffix(EXTENSION)?.strip_suffix('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<usize>().ok()?.checked_sub(1)
}

/// The game files of the directory `dir`, by number; an error when two
/// names give the same number (`game-5.dvonn` beside `game-0005.dvonn`).
pub(super) fn list(dir: &Path) -> Result<BTreeMap<usize, PathBuf>> {
    let name = dir.display();
    let mut games = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read the directory {name}"))? {
        let entry = entry.with_context(|| format!("cannot read the directory {name}"))?;
        let Some(game) = entry.file_name().to_str().and_then(game_number) else { continue };
        if let Some(other) = games.insert(game, entry.path()) {
            bail!("{} and {} are both game {}: remove one", other.display(), entry.path().display(), game + 1);
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_number_games_from_one() {
        assert_eq!(file_name(0), "game-0001.dvonn");
        assert_eq!(file_name(12344), "game-12345.dvonn");
        assert_eq!(game_number("game-0001.dvonn"), Some(0));
        assert_eq!(game_number("game-12345.dvonn"), Some(12344));
        for name in ["game-0000.dvonn", "game-.dvonn", "game-1x.dvonn", "game-0001.txt", ".dvonn-abc", ".manifest"] {
            assert_eq!(game_number(name), None, "{name}");
        }
    }

    #[test]
    fn a_directory_belongs_to_one_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records");
        let manifest = Manifest::new("dvonn match", 4, &[("seed", "1".into())]);
        let games = GameDir::open(&path, &manifest).unwrap();
        assert!(games.write(2, "text").unwrap());
        assert!(!games.write(2, "other").unwrap(), "never over a finished game");
        assert_eq!(std::fs::read_to_string(games.file(2)).unwrap(), "text");
        std::fs::write(path.join(".dvonn-abc123"), "half").unwrap();
        assert_eq!(games.finished().unwrap().into_keys().collect::<Vec<_>>(), [2]);
        // The same run opens it again; another is refused.
        GameDir::open(&path, &manifest).unwrap();
        let other = Manifest::new("dvonn match", 4, &[("seed", "2".into())]);
        let error = format!("{:#}", GameDir::open(&path, &other).unwrap_err());
        assert!(error.contains("holds the games of another run (seed: 1 there, 2 here)"), "{error}");
        let old = dir.path().join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::write(old.join("game-0001.dvonn"), "text").unwrap();
        let error = format!("{:#}", GameDir::open(&old, &manifest).unwrap_err());
        assert!(error.contains("holds game records but no .manifest"), "{error}");
        assert!(!old.join(manifest::FILE).exists(), "nothing written there");
        std::fs::write(path.join("game-3.dvonn"), "text").unwrap();
        let error = format!("{:#}", games.finished().unwrap_err());
        assert!(error.contains("are both game 3"), "{error}");
    }
}
