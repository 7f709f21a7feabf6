//! The writer of game records: the canonical writing, the `Display` of
//! [`GameRecord`].

use std::fmt;

use dvonn_core::Position;

use super::{GameRecord, POSITION, RESULT, SETUP, comment_text, is_reserved_tag};

/// `value` with `"` and `\` escaped and line breaks turned into spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Appends the words of a comment holding `text` (made tidy: see
/// [`comment_text`]), braces included, to `words`; nothing when no word is
/// left.
fn comment_words(words: &mut Vec<(String, bool)>, text: &str) {
    let text = comment_text(text);
    let count = text.split_whitespace().count();
    for (index, word) in text.split_whitespace().enumerate() {
        let open = if index == 0 { "{" } else { "" };
        let close = if index + 1 == count { "}" } else { "" };
        words.push((format!("{open}{word}{close}"), false));
    }
}

/// The longest line of moves the writer produces.
const LINE_WIDTH: usize = 80;

/// Appends `words` to `out` separated by spaces, breaking lines so that no
/// line is longer than [`LINE_WIDTH`] (a word is never split). A word for
/// which `break_before` says so starts a new line.
fn wrap_words(out: &mut String, words: impl IntoIterator<Item = (String, bool)>) {
    let mut column = 0;
    for (word, break_before) in words {
        let width = word.chars().count();
        if column > 0 && (break_before || column + 1 + width > LINE_WIDTH) {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&word);
        column += width;
    }
    out.push('\n');
}

/// The canonical writing: the tags (escaped, reserved ones from `start` and
/// `result`), a blank line, the moves with `N.` numbers and each comment
/// after its move, wrapped at 80 columns (the comments before the first
/// move on a line of their own, the pair of plies where movement begins
/// starting a new line), and the result token. The forced last placement
/// is written even when the record leaves it out.
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.tags.iter().filter(|(name, _)| !is_reserved_tag(name)) {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        if self.start == Position::new() {
            writeln!(f, "[{SETUP} \"placement\"]")?;
        } else {
            writeln!(f, "[{SETUP} \"position\"]")?;
            writeln!(f, "[{POSITION} \"{}\"]", self.start)?;
        }
        writeln!(f, "[{RESULT} \"{}\"]", self.result)?;
        writeln!(f)?;
        let mut filled = self.clone();
        filled.fill_forced_placement();
        // In the order of their places (the field is public).
        filled.comments.sort_by_key(|comment| comment.after);
        let moves = &filled.moves;
        // The pair of plies in which the first movement (or pass) falls
        // starts a line, when placements come before it.
        let break_pair = moves.iter().position(|mv| !mv.is_placement()).filter(|&ply| ply >= 2).map(|ply| ply / 2);
        let mut words = Vec::new();
        let mut comments = filled.comments.iter().peekable();
        for ply in 0..=moves.len() {
            while let Some(comment) = comments.next_if(|comment| comment.after <= ply || ply == moves.len()) {
                comment_words(&mut words, &comment.text);
            }
            let Some(mv) = moves.get(ply) else { break };
            if ply % 2 == 0 {
                let break_before = break_pair == Some(ply / 2) || (ply == 0 && !words.is_empty());
                words.push((format!("{}. {mv}", ply / 2 + 1), break_before));
            } else {
                words.push((mv.to_string(), false));
            }
        }
        words.push((self.result.to_string(), false));
        let mut text = String::new();
        wrap_words(&mut text, words);
        f.write_str(&text)
    }
}
