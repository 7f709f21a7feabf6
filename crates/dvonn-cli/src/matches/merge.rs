//! `dvonn match --merge DIR...`: the summary of the games the shards of one
//! match wrote, the same as the one run of the whole match prints for the
//! same games. Before it, the games still missing (unless the SPRT has
//! decided: the games after its decision are not needed) and the games
//! found twice.

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;

use super::definition::{COMMAND, Definition};
use super::summary::{MatchGame, Results};
use crate::shard::read_records;

/// Prints the summary of the match whose games are in `dirs`.
pub(crate) fn run(dirs: &[PathBuf]) -> Result<()> {
    let records = read_records(dirs, COMMAND)?;
    let definition = Definition::from_manifest(&records.manifest)?;
    let mut results = Results::new(definition.sprt);
    for (&game, record) in &records.games {
        results.insert(game, MatchGame::of_record(game, record)?);
    }
    let missing = if results.decided_at().is_some() { Vec::new() } else { records.missing() };
    let mut out = String::new();
    for note in records.notes(&missing) {
        out.push_str(&note);
        out.push('\n');
    }
    out.push_str(&results.report(&definition));
    write!(std::io::stdout().lock(), "{out}")?;
    Ok(())
}
