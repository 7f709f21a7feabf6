//! Writing output safely: never over an existing file unless asked, and
//! never a half-written file (write to a temporary file beside the target,
//! then rename it into place); standard output when no file is named; and
//! progress bars on standard error.

use std::io::{IsTerminal, Write};
use std::path::Path;

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
pub fn write_file(path: &Path, contents: &[u8], force: bool) -> Result<()> {
    let name = path.display();
    if !force && path.exists() {
        bail!("{name} exists");
    }
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
    if force {
        temporary.persist(path).with_context(|| format!("cannot write {name}"))?;
    } else {
        // persist_noclobber fails if the file appeared in the meantime.
        temporary.persist_noclobber(path).with_context(|| format!("cannot write {name}"))?;
    }
    Ok(())
}

/// Writes `bytes` to `output` (`None` or `-`: standard output), never over
/// an existing file unless `force` (the `--force` of the commands that call
/// it, which the error names).
pub fn emit(output: Option<&Path>, bytes: &[u8], force: bool) -> Result<()> {
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
pub fn progress_bar(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}
