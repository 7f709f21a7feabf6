//! `dvonn convert`: convert games between formats, or extract a position
//! from a game.
//!
//! Each input is read in any format of [`dvonn_notation`] (detected,
//! or named with `--from`), replayed through the rules (an illegal move is
//! an error naming its number), and written in the `--to` format.
//!
//! One input file is written to `-o OUT` or standard output, and an error
//! stops the command. Several files, or a directory (its files, not its
//! subdirectories, by name), are converted one by one into the directory
//! `-o DIR`, each as `DIR/<name>.<extension>` (`OutputFormat::extension`),
//! under a progress bar on standard error (only when it is a terminal). A
//! file that cannot be converted is refused and the others go on; at the
//! end a summary on standard output says how many were read and refused,
//! with one line per refused file naming it and saying why, and the exit
//! status is non-zero when any was refused.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use dvonn_core::Game;
use dvonn_notation::GameRecord;
use dvonn_notation::{Format, write};

use crate::input::read_game;
use crate::output::{emit, progress_bar};

/// The formats `dvonn convert` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum InputFormat {
    /// The project's game record (<https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#game-records>).
    Record,
    /// A Little Golem transcript.
    Lg,
    /// A BoardSpace SGF record.
    Sgf,
    /// A CodeCup log (or a list of moves, one per line).
    Codecup,
}

impl InputFormat {
    /// The notation format.
    pub(crate) fn format(self) -> Format {
        match self {
            InputFormat::Record => Format::Record,
            InputFormat::Lg => Format::LittleGolem,
            InputFormat::Sgf => Format::Sgf,
            InputFormat::Codecup => Format::CodeCup,
        }
    }
}

/// What `dvonn convert` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    /// The project's game record (<https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#game-records>).
    #[default]
    Record,
    /// A Little Golem transcript.
    Lg,
    /// A CodeCup log: `Start`, then one move per line.
    Codecup,
    /// The position string after ply --ply (default: the end; the format:
    /// <https://github.com/dvonn-rs/dvonn/blob/main/docs/NOTATION.md#position-strings>).
    Position,
}

impl OutputFormat {
    /// The extension of the files a conversion into a directory writes:
    /// `dvonn`, `lg`, `codecup`, `position`.
    pub(crate) const fn extension(self) -> &'static str {
        match self {
            OutputFormat::Record => "dvonn",
            OutputFormat::Lg => "lg",
            OutputFormat::Codecup => "codecup",
            OutputFormat::Position => "position",
        }
    }
}

/// Arguments of `dvonn convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The games to convert: files (our game record, Little Golem, BoardSpace
    /// SGF or a CodeCup log; the format is detected unless --from names it),
    /// directories (every file in them, not their subdirectories), or `-` for
    /// standard input. Several files or a directory need -o DIR.
    #[arg(value_name = "IN", required = true)]
    pub inputs: Vec<PathBuf>,
    /// One input file: write to this file instead of standard output (`-`:
    /// standard output). Several files or a directory, or an OUT that is a
    /// directory or ends with `/`: the directory to write each game into, as
    /// `OUT/<name>.dvonn` (`.lg`, `.codecup`, `.position`), created if needed; a
    /// summary of the files read and refused goes to standard output. An
    /// existing file is kept unless --force.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The format to write: a game record, a Little Golem transcript, a
    /// CodeCup log, or the position string after ply --ply.
    #[arg(long, value_enum, default_value_t = OutputFormat::Record)]
    pub to: OutputFormat,
    /// The format of IN, when detection is not wanted.
    #[arg(long, value_enum)]
    pub from: Option<InputFormat>,
    /// Keep the first N plies only (0: the start position); with
    /// `--to position`, the position after ply N. Default: the whole game.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Overwrite OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Runs `dvonn convert`.
pub(crate) fn run(args: &Args) -> Result<()> {
    let directory = args.output.as_deref().filter(|out| is_directory_name(out));
    match (args.inputs.as_slice(), directory) {
        ([input], None) if !input.is_dir() => {
            let text = convert(input, args)?;
            emit(args.output.as_deref(), text.as_bytes(), args.force)
        }
        _ => convert_all(args),
    }
}

/// Whether the output `out` names a directory: one that exists, or a name
/// ending with a path separator.
fn is_directory_name(out: &Path) -> bool {
    out.is_dir() || out.as_os_str().to_string_lossy().ends_with(std::path::is_separator)
}

/// The game in `input` in the `--to` format.
fn convert(input: &Path, args: &Args) -> Result<String> {
    let name = input.display();
    let (record, game) = read_game(input, args.from.map(InputFormat::format))?;
    let ply = checked_ply(args.ply, &game).with_context(|| format!("{name}"))?;
    Ok(match args.to {
        OutputFormat::Position => format!("{}\n", game.positions()[ply]),
        OutputFormat::Record | OutputFormat::Lg | OutputFormat::Codecup => {
            let format = match args.to {
                OutputFormat::Lg => Format::LittleGolem,
                OutputFormat::Codecup => Format::CodeCup,
                _ => Format::Record,
            };
            let record = truncated(&record, &game, ply);
            write(&record, format).with_context(|| format!("cannot write {name} as a {format}"))?
        }
    })
}

/// Converts every input file into the `-o` directory, refusing the files
/// that cannot be converted, and prints the summary.
fn convert_all(args: &Args) -> Result<()> {
    let Some(directory) = args.output.as_deref().filter(|out| *out != Path::new("-")) else {
        match args.inputs.as_slice() {
            [directory] => bail!(
                "{} is a directory, not a file: to convert the files in it, give -o DIR, the directory to write them into",
                directory.display()
            ),
            _ => bail!("converting several files needs -o DIR, the directory to write them into"),
        }
    };
    let files = input_files(&args.inputs)?;
    if directory.exists() && !directory.is_dir() {
        bail!("{} is not a directory: several files are converted into a directory", directory.display());
    }
    std::fs::create_dir_all(directory)
        .with_context(|| format!("cannot create the directory {}", directory.display()))?;
    let progress = progress_bar(files.len() as u64, "{bar:30} {pos}/{len} files [{elapsed_precise}, {eta} left]");
    // Which input each output file comes from, to refuse a second one.
    let mut sources: HashMap<PathBuf, &Path> = HashMap::new();
    let mut refused = Vec::new();
    for input in &files {
        let target = directory.join(output_name(input, args.to));
        let outcome = match sources.get(&target) {
            Some(first) => Err(anyhow!(
                "{}: it would be written to {}, as {} is",
                input.display(),
                target.display(),
                first.display()
            )),
            None => {
                sources.insert(target.clone(), input);
                convert(input, args).and_then(|text| {
                    emit(Some(&target), text.as_bytes(), args.force).with_context(|| format!("{}", input.display()))
                })
            }
        };
        if let Err(error) = outcome {
            refused.push(error);
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    let total = files.len();
    outln!(
        "{} read, {} refused ({total} files; written to {})",
        total - refused.len(),
        refused.len(),
        directory.display()
    )?;
    for error in &refused {
        // One line per file, whatever the error quotes.
        outln!("refused: {}", format!("{error:#}").replace(['\n', '\r'], " "))?;
    }
    if !refused.is_empty() {
        bail!("{} of {total} files refused", refused.len());
    }
    Ok(())
}

/// The files named by `inputs`: a directory stands for the files in it
/// (not its subdirectories nor hidden files), sorted by name; standard
/// input cannot be one of several inputs.
fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input == Path::new("-") {
            bail!("standard input (-) can only be converted alone, not with other files or into a directory");
        }
        if !input.is_dir() {
            files.push(input.clone());
            continue;
        }
        let name = input.display();
        let mut inside = Vec::new();
        for entry in std::fs::read_dir(input).with_context(|| format!("cannot read the directory {name}"))? {
            let entry = entry.with_context(|| format!("cannot read the directory {name}"))?;
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if !hidden && entry.path().is_file() {
                inside.push(entry.path());
            }
        }
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// The name of the file the game in `input` is written to: its name without
/// the extension, and the extension of `format`.
fn output_name(input: &Path, format: OutputFormat) -> String {
    let stem = input.file_stem().map_or_else(|| "game".into(), |stem| stem.to_string_lossy());
    format!("{stem}.{}", format.extension())
}

/// The ply `requested` (default: the last), checked against the game.
pub(crate) fn checked_ply(requested: Option<usize>, game: &Game) -> Result<usize> {
    let plies = game.len();
    match requested {
        None => Ok(plies),
        Some(ply) if ply <= plies => Ok(ply),
        Some(ply) => bail!("--ply {ply} is past the end of the game ({plies} plies)"),
    }
}

/// `record` with its first `ply` moves only (the forced last placement
/// filled in) and the comments up to there; a cut game's result is what
/// the rules say after the cut.
fn truncated(record: &GameRecord, game: &Game, ply: usize) -> GameRecord {
    if ply == game.len() {
        return record.clone();
    }
    let mut cut = record.clone();
    cut.fill_forced_placement();
    cut.moves = game.moves().take(ply).collect();
    cut.comments.retain(|comment| comment.after <= ply);
    cut.result = game.positions()[ply].outcome();
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_keep_the_stem_and_take_the_format_extension() {
        assert_eq!(output_name(Path::new("games/2009/x.sgf"), OutputFormat::Record), "x.dvonn");
        assert_eq!(output_name(Path::new("x.tar.sgf"), OutputFormat::Lg), "x.tar.lg");
        assert_eq!(output_name(Path::new("noext"), OutputFormat::Codecup), "noext.codecup");
        assert_eq!(output_name(Path::new("/"), OutputFormat::Position), "game.position");
    }

    #[test]
    fn an_output_ending_with_a_separator_is_a_directory() {
        assert!(is_directory_name(Path::new("surely-not-here/")));
        assert!(!is_directory_name(Path::new("surely-not-here")));
        assert!(is_directory_name(&std::env::temp_dir()));
    }
}
