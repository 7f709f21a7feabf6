//! The games of a records directory as game records: each marked with its
//! run and number, read back only when exactly as written, and gathered
//! from several directories for a merge.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use dvonn_core::Outcome;
use dvonn_notation::GameRecord;

use super::dir::GameDir;
use super::manifest::Manifest;
use super::ranges;
use crate::input::read_text;

/// The tag naming the run a record belongs to: its manifest's digest.
const RUN_TAG: &str = "Run";
/// The tag holding the game's number, from 1.
const ROUND_TAG: &str = "Round";
/// The tag a merge leaves out when it compares two copies of a game.
const DATE_TAG: &str = "Date";

/// Marks `record` as game `game` (from 0) of the run of `manifest`.
pub(crate) fn stamp(record: &mut GameRecord, game: usize, manifest: &Manifest) {
    record.set_tag(ROUND_TAG, &(game + 1).to_string());
    record.set_tag(RUN_TAG, &manifest.digest());
}

/// Reads `path` as the record of game `game` (from 0) of the run of
/// `manifest`. Only a record exactly as a shard writes it is a game: its
/// text the canonical writing of the record it holds (so a file cut short
/// is never taken for a shorter game), marked with the run and the number,
/// finished, its moves legal and its score the final position's.
pub(crate) fn read_record(path: &Path, game: usize, manifest: &Manifest) -> Result<GameRecord> {
    let not_a_game =
        |why: String| anyhow!("{} is not a finished record of game {} of this run: {why}", path.display(), game + 1);
    let text = read_text(path)?;
    let record = GameRecord::parse(&text).map_err(|error| not_a_game(error.to_string()))?;
    if record.to_string() != text {
        return Err(not_a_game("it is not as it was written (cut short, or changed)".into()));
    }
    if record.tag(RUN_TAG) != Some(manifest.digest().as_str()) {
        return Err(not_a_game(format!(
            "its {RUN_TAG} tag is {:?}, this run's {:?} (a record of another run?)",
            record.tag(RUN_TAG).unwrap_or_default(),
            manifest.digest()
        )));
    }
    let number = (game + 1).to_string();
    if record.tag(ROUND_TAG) != Some(number.as_str()) {
        return Err(not_a_game(format!("its {ROUND_TAG} tag is {:?}", record.tag(ROUND_TAG).unwrap_or_default())));
    }
    let game = record.replay().map_err(|error| not_a_game(error.to_string()))?;
    if record.result == Outcome::Unfinished {
        return Err(not_a_game("it has no result".into()));
    }
    record.check_result(&game).map_err(|error| not_a_game(error.to_string()))?;
    Ok(record)
}

/// The records of the finished games of `dir` but those `skip` names,
/// by number (from 0), checked by [`read_record`].
pub(crate) fn finished_records(dir: &GameDir, skip: impl Fn(usize) -> bool) -> Result<BTreeMap<usize, GameRecord>> {
    Ok(read_finished(dir, skip)?.into_iter().map(|(game, (_, record))| (game, record)).collect())
}

/// [`finished_records`], each with its file.
fn read_finished(dir: &GameDir, skip: impl Fn(usize) -> bool) -> Result<BTreeMap<usize, (PathBuf, GameRecord)>> {
    let games = dir.manifest().games().unwrap_or(0);
    let mut records = BTreeMap::new();
    for (game, path) in dir.finished()? {
        if skip(game) {
            continue;
        }
        if game >= games {
            bail!("{} is game {}, but the run has {games}", path.display(), game + 1);
        }
        let record = read_record(&path, game, dir.manifest())?;
        records.insert(game, (path, record));
    }
    Ok(records)
}

/// The games of one run gathered from several records directories.
#[derive(Clone, Debug)]
pub(crate) struct Records {
    /// The run's manifest (the same in every directory).
    pub manifest: Manifest,
    /// The games, by number (from 0).
    pub games: BTreeMap<usize, GameRecord>,
    /// The games found more than once (the same game each time), with
    /// their files.
    pub duplicates: BTreeMap<usize, Vec<PathBuf>>,
}

impl Records {
    /// The run's games not among [`Records::games`], in order.
    pub(crate) fn missing(&self) -> Vec<usize> {
        (0..self.manifest.games().unwrap_or(0)).filter(|game| !self.games.contains_key(game)).collect()
    }

    /// What a merge says before its summary: the games of `missing` (the
    /// games the run still needs), and the games present twice.
    pub(crate) fn notes(&self, missing: &[usize]) -> Vec<String> {
        let mut notes = Vec::new();
        if !missing.is_empty() {
            notes.push(format!(
                "Unfinished: {} of the {} games {} missing ({}): not every shard has finished; \
                 what follows counts the {} present",
                missing.len(),
                self.manifest.games().unwrap_or(0),
                if missing.len() == 1 { "is" } else { "are" },
                ranges(missing),
                self.games.len()
            ));
        }
        for (game, files) in &self.duplicates {
            let files: Vec<String> = files.iter().map(|file| file.display().to_string()).collect();
            notes.push(format!(
                "Present twice: game {} ({}), the same game each time: counted once",
                game + 1,
                files.join(", ")
            ));
        }
        notes
    }
}

/// Reads the games of the records directories `dirs` for a merge. The
/// directories must all hold games of the same run of `command` (their
/// manifests equal); a game found in several must be the same game in
/// each (its `Date` aside).
pub(crate) fn read_records(dirs: &[PathBuf], command: &str) -> Result<Records> {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut found: Option<(PathBuf, Manifest)> = None;
    let mut games: BTreeMap<usize, (PathBuf, GameRecord)> = BTreeMap::new();
    let mut duplicates: BTreeMap<usize, Vec<PathBuf>> = BTreeMap::new();
    for dir in dirs {
        // The same directory named twice is read once.
        let canonical = dir.canonicalize().with_context(|| format!("cannot read the directory {}", dir.display()))?;
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let manifest = Manifest::read(dir)?;
        if manifest.command() != command {
            bail!("{} holds the games of {}, not of {command}", dir.display(), manifest.command());
        }
        match &found {
            None => found = Some((dir.clone(), manifest.clone())),
            Some((first, first_manifest)) => {
                if let Some((key, theirs, mine)) = first_manifest.difference(&manifest) {
                    bail!(
                        "{} and {} hold the games of different runs ({key}: {theirs} against {mine}): merge each run \
                         on its own",
                        first.display(),
                        dir.display()
                    );
                }
            }
        }
        for (game, (path, record)) in read_finished(&GameDir::existing(dir, &manifest), |_| false)? {
            match games.get(&game) {
                None => {
                    games.insert(game, (path, record));
                }
                Some((first, earlier)) => {
                    if without_date(earlier) != without_date(&record) {
                        bail!(
                            "game {} is in {} and in {}, and they differ: keep one of them",
                            game + 1,
                            first.display(),
                            path.display()
                        );
                    }
                    duplicates.entry(game).or_insert_with(|| vec![first.clone()]).push(path);
                }
            }
        }
    }
    let (_, manifest) = found.context("no records directory given")?;
    let games = games.into_iter().map(|(game, (_, record))| (game, record)).collect();
    Ok(Records { manifest, games, duplicates })
}

/// `record` without its `Date` tag.
fn without_date(record: &GameRecord) -> GameRecord {
    let mut record = record.clone();
    record.tags.retain(|(name, _)| name != DATE_TAG);
    record
}
