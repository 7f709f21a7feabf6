//! The Rust snippets of the READMEs and of the crate-level documentation
//! are complete programs, with their own `fn main()`, that a user can
//! paste into a new crate's `src/main.rs` (the doctests compile and run
//! them; this checks that none relies on rustdoc's hidden wrapper).
//!
//! A check of the repository's documentation, not of the `dvonn` package:
//! it reads the files of every package of the workspace, so the package
//! leaves it out (`include` in Cargo.toml). Each package's snippets are
//! its own doctests, so they compile and run from each package alone.

use std::path::Path;

/// The files whose snippets users read first, relative to the workspace root.
const FILES: [&str; 9] = [
    "README.md",
    "crates/dvonn-core/README.md",
    "crates/dvonn-notation/README.md",
    "crates/dvonn-ai/README.md",
    "crates/dvonn-serve/README.md",
    "src/lib.rs",
    "crates/dvonn-core/src/lib.rs",
    "crates/dvonn-ai/src/lib.rs",
    "crates/dvonn-cli/src/lib.rs",
];

/// The Markdown of `text`: the file itself, or the `//!` lines of a Rust file.
fn markdown(path: &str, text: &str) -> String {
    if !path.ends_with(".rs") {
        return text.to_string();
    }
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a fence's info string marks Rust code, as rustdoc reads it: no
/// language at all, or only rustdoc's own attributes.
fn is_rust(info: &str) -> bool {
    const RUSTDOC: [&str; 7] =
        ["rust", "no_run", "ignore", "should_panic", "compile_fail", "edition2021", "edition2024"];
    info.split([',', ' ']).filter(|tag| !tag.is_empty()).all(|tag| RUSTDOC.contains(&tag))
}

/// The Rust code blocks of `markdown`.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<(bool, Vec<&str>)> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        match (&mut current, trimmed.strip_prefix("```")) {
            (None, Some(info)) => current = Some((is_rust(info.trim()), Vec::new())),
            (Some((rust, lines)), Some(_)) => {
                if *rust {
                    blocks.push(lines.join("\n"));
                }
                current = None;
            }
            (Some((_, lines)), None) => lines.push(line),
            (None, None) => {}
        }
    }
    assert!(current.is_none(), "an unclosed code block");
    blocks
}

#[test]
fn every_snippet_is_a_complete_program() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for file in FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for block in rust_blocks(&markdown(file, &text)) {
            assert!(
                block.lines().any(|line| line.starts_with("fn main()")),
                "{file}: a snippet without fn main():\n{block}"
            );
            assert!(!block.lines().any(|line| line.trim_start().starts_with("# ")), "{file}: hidden lines in\n{block}");
            checked += 1;
        }
    }
    // The top README, the four crate READMEs and both crate-level examples.
    assert!(checked >= 7, "only {checked} snippets found");
}

#[test]
fn the_fence_reader_tells_rust_from_other_languages() {
    let text = "```sh\ncargo test\n```\n\n```\nlet a = 1;\n```\n```rust,no_run\nfn main() {}\n```\n```text\nx\n```";
    assert_eq!(rust_blocks(text), ["let a = 1;", "fn main() {}"]);
}
