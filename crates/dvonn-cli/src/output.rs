//! Writing output safely: never over an existing file unless asked, and
//! never a half-written file (write to a temporary file beside the target,
//! then rename it into place); standard output when no file is named; and
//! progress bars on standard error.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};

/// A temporary file in `directory` with the permissions of a newly created
/// file (read-write for all, less the umask), not a temporary file's
/// owner-only ones: it becomes the output.
fn temporary_file(directory: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.prefix(".dvonn-").tempfile_in(directory)
}

/// Writes `contents` to `path` atomically. Refuses to replace an existing
/// file unless `force` (the error says only that the file exists: callers
/// know how their users ask to replace it).
pub(crate) fn write_file(path: &Path, contents: &[u8], force: bool) -> Result<()> {
    if force {
        let temporary = filled_temporary_file(path, contents)?;
        temporary.persist(path).with_context(|| format!("cannot write {}", path.display()))?;
        return Ok(());
    }
    if !write_new_file(path, contents)? {
        bail!("{} exists", path.display());
    }
    Ok(())
}

/// Writes `contents` to `path` atomically unless a file of that name
/// exists, even one that another process created a moment ago: `Ok(false)`
/// then, and nothing is written. Never leaves a half-written file under
/// the name: the contents go to a temporary file beside it, synced, then
/// linked into place.
pub(crate) fn write_new_file(path: &Path, contents: &[u8]) -> Result<bool> {
    if path.exists() {
        return Ok(false);
    }
    let temporary = filled_temporary_file(path, contents)?;
    match temporary.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(error) if error.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) => Err(error.error).with_context(|| format!("cannot write {}", path.display())),
    }
}

/// A temporary file beside `path` holding `contents`, synced to the disk.
fn filled_temporary_file(path: &Path, contents: &[u8]) -> Result<tempfile::NamedTempFile> {
    let name = path.display();
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let folder = directory.display();
    match std::fs::metadata(directory) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            bail!("cannot write {name}: the directory {folder} does not exist")
        }
        Ok(metadata) if !metadata.is_dir() => bail!("cannot write {name}: {folder} is not a directory"),
        _ => {}
    }
    // The temporary file's name is ours, not the user's: the error names
    // the directory and the kind of failure only.
    let mut temporary = temporary_file(directory)
        .map_err(|error| anyhow!("cannot write {name}: cannot create a file in {folder}: {}", error.kind()))?;
    temporary.write_all(contents).with_context(|| format!("cannot write {name}"))?;
    temporary.as_file().sync_all().with_context(|| format!("cannot write {name}"))?;
    Ok(temporary)
}

/// Writes `bytes` to `output` (`None` or `-`: standard output), never over
/// an existing file unless `force` (the `--force` of the commands that call
/// it, which the error names).
pub(crate) fn emit(output: Option<&Path>, bytes: &[u8], force: bool) -> Result<()> {
    match output {
        Some(path) if path != Path::new("-") => {
            if !force && path.exists() {
                bail!("{} exists; use --force to overwrite it", path.display());
            }
            write_file(path, bytes, force)
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(bytes).and_then(|()| stdout.flush()).context("cannot write to standard output")
        }
    }
}

/// A progress bar of `len` steps drawn on standard error with `template`
/// (indicatif's syntax), hidden when standard error is not a terminal (so
/// that logs and pipes get only the results).
pub(crate) fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// Progress through a number of games, on standard error: a bar on a
/// terminal, else a line every tenth of the games (so that a log shows
/// how far a long run got).
#[derive(Debug)]
pub(crate) struct GameProgress {
    bar: ProgressBar,
    what: String,
    games: usize,
    done: AtomicUsize,
    started: Instant,
}

impl GameProgress {
    /// Progress through `games` games, labelled `what`.
    pub(crate) fn new(games: usize, what: &str) -> GameProgress {
        let bar = progress_bar(
            games as u64,
            &format!("{what} {{bar:30}} {{pos}}/{{len}} games [{{elapsed_precise}}, {{eta}} left]"),
        );
        GameProgress { bar, what: what.to_string(), games, done: AtomicUsize::new(0), started: Instant::now() }
    }

    /// Counts a game done (from any thread).
    pub(crate) fn tick(&self) {
        let now = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.inc(1);
        let games = self.games.max(1);
        if self.bar.is_hidden() && (now * 10 / games != (now - 1) * 10 / games || now == games) {
            eprintln!("{}: {now}/{} games ({:.0} s)", self.what, self.games, self.started.elapsed().as_secs_f64());
        }
    }

    /// Clears the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
