//! The manifest of a records directory: what defines its games, so that
//! games of different runs are never mixed.

use std::hash::Hasher;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// The manifest's file in a records directory.
pub(super) const FILE: &str = ".manifest";

/// What defines the games of a run: the command, the number of games and
/// every setting a game depends on, as `key: value` lines after a comment.
/// Two runs play the same games exactly when their manifests are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Manifest {
    text: String,
}

impl Manifest {
    /// The manifest of `command` (like `dvonn match`) playing `games` games
    /// with `settings` (line breaks in a value become spaces).
    pub(crate) fn new(command: &str, games: usize, settings: &[(&str, String)]) -> Manifest {
        let mut text = format!(
            "# {command}: what defines the games of this directory (every shard and --merge check it)\n\
             command: {command}\ngames: {games}\n"
        );
        for (key, value) in settings {
            text.push_str(&format!("{key}: {}\n", value.replace(['\n', '\r'], " ")));
        }
        Manifest { text }
    }

    /// Reads the manifest of the records directory `dir`.
    pub(crate) fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                bail!("{} has no {FILE}: it is not a records directory of a sharded run", dir.display())
            }
            Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
        };
        let manifest = Manifest { text };
        let well_formed = manifest.text.ends_with('\n')
            && manifest.lines().all(|line| line.is_some())
            && manifest.get("command").is_some()
            && manifest.games().is_some();
        if !well_formed {
            bail!("{} is not a manifest of dvonn (changed by hand?)", path.display());
        }
        Ok(manifest)
    }

    /// The text, as written to the file.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The command whose games these are (`dvonn match`).
    pub(crate) fn command(&self) -> &str {
        self.get("command").unwrap_or_default()
    }

    /// The number of games of the run.
    pub(crate) fn games(&self) -> Option<usize> {
        self.get("games")?.parse().ok()
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.lines().flatten().find(|(name, _)| *name == key).map(|(_, value)| value)
    }

    /// The [`digest`] of the text: it names the run in each of its
    /// records.
    pub(crate) fn digest(&self) -> String {
        digest(self.text.as_bytes())
    }

    /// The first setting in which `self` and `other` differ: its key, its
    /// value in `self` and in `other` (`(none)` where it is missing);
    /// `None` when they are equal.
    pub(crate) fn difference(&self, other: &Manifest) -> Option<(String, String, String)> {
        if self == other {
            return None;
        }
        let mine: Vec<(&str, &str)> = self.lines().flatten().collect();
        let theirs: Vec<(&str, &str)> = other.lines().flatten().collect();
        let value = |list: &[(&str, &str)], key: &str| {
            list.iter().find(|(name, _)| *name == key).map_or("(none)".to_string(), |(_, value)| value.to_string())
        };
        let key = mine.iter().chain(&theirs).map(|(key, _)| *key).find(|key| value(&mine, key) != value(&theirs, key));
        Some(match key {
            Some(key) => (key.to_string(), value(&mine, key), value(&theirs, key)),
            None => ("text".to_string(), self.text.clone(), other.text.clone()),
        })
    }

    /// The lines after the comments: `Some((key, value))`, or `None` for a
    /// line that is not `key: value`.
    fn lines(&self) -> impl Iterator<Item = Option<(&str, &str)>> {
        self.text.lines().filter(|line| !line.starts_with('#')).map(|line| line.split_once(": "))
    }
}

/// A short digest of `bytes` (64-bit FNV-1a, 16 hex digits).
pub(crate) fn digest(bytes: &[u8]) -> String {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(bytes);
    format!("{:016x}", hasher.finish())
}

/// The [`digest`] of `items` written one per line: for the manifest of a
/// run whose games depend on more than it can write out (the positions of
/// an openings file).
pub(crate) fn digest_lines<T: std::fmt::Display>(items: &[T]) -> String {
    let text: String = items.iter().map(|item| format!("{item}\n")).collect();
    digest(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_holds_its_settings_and_names_a_difference() {
        let manifest = Manifest::new("dvonn match", 8, &[("a", "depth=2".into()), ("b", "cmd:x\n--y".into())]);
        assert_eq!(
            manifest.text(),
            "# dvonn match: what defines the games of this directory (every shard and --merge check it)\n\
             command: dvonn match\ngames: 8\na: depth=2\nb: cmd:x --y\n"
        );
        assert_eq!(manifest.command(), "dvonn match");
        assert_eq!(manifest.games(), Some(8));
        assert_eq!(manifest.get("b"), Some("cmd:x --y"));
        assert_eq!(manifest.digest().len(), 16);
        // FNV-1a's published value for "a".
        assert_eq!(digest(b"a"), "af63dc4c8601ec8c");
        assert_eq!(manifest.difference(&manifest.clone()), None);
        let other = Manifest::new("dvonn match", 8, &[("a", "depth=3".into()), ("b", "cmd:x --y".into())]);
        assert_ne!(manifest.digest(), other.digest());
        let difference = |a: &Manifest, b: &Manifest| {
            let (key, mine, theirs) = a.difference(b).unwrap();
            format!("{key}: {mine} against {theirs}")
        };
        assert_eq!(difference(&manifest, &other), "a: depth=2 against depth=3");
        let fewer = Manifest::new("dvonn match", 8, &[("a", "depth=2".into())]);
        assert_eq!(difference(&manifest, &fewer), "b: cmd:x --y against (none)");
    }

    #[test]
    fn only_a_written_manifest_is_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(format!("{:#}", Manifest::read(dir.path()).unwrap_err()).contains("has no .manifest"));
        let manifest = Manifest::new("dvonn tune", 4, &[("seed", "1".into())]);
        std::fs::write(dir.path().join(FILE), manifest.text()).unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), manifest);
        std::fs::write(dir.path().join(FILE), &manifest.text()[..40]).unwrap();
        assert!(format!("{:#}", Manifest::read(dir.path()).unwrap_err()).contains("is not a manifest"));
    }
}
