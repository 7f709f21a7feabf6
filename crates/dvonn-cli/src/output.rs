//! Writing output safely: never over an existing file unless asked, and
//! never a half-written file (write to a temporary file beside the target,
//! then rename it into place); standard output when no file is named.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};

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
/// file unless `force`.
pub fn write_file(path: &Path, contents: &[u8], force: bool) -> Result<()> {
    let name = path.display();
    if !force && path.exists() {
        bail!("{name} exists; use --force to overwrite it");
    }
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temporary =
        temporary_file(directory).with_context(|| format!("cannot create a file in {}", directory.display()))?;
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
/// an existing file unless `force`.
pub fn emit(output: Option<&Path>, bytes: &[u8], force: bool) -> Result<()> {
    match output {
        Some(path) if path != Path::new("-") => write_file(path, bytes, force),
        _ => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(bytes).and_then(|()| stdout.flush()).context("cannot write to standard output")
        }
    }
}
