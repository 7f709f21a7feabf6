//! The scanner of delimited values that the readers share: the tag values
//! of game records (`"..."`) and the property values of SGF records
//! (`[...]`), both with `\` escapes.

/// How a delimited value is written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Delimited {
    /// The byte that closes the value.
    close: u8,
    /// Whether the value must end on its line.
    one_line: bool,
    /// Whether `\` may escape any character, not only the closing byte
    /// and `\` itself.
    any_escape: bool,
}

/// A tag value of a game record: `"..."` on one line, `\"` and `\\` the
/// only escapes.
pub(crate) const TAG_VALUE: Delimited = Delimited { close: b'"', one_line: true, any_escape: false };

/// A property value of an SGF record: `[...]` over any number of lines,
/// `\` escaping any character (a line break: a soft break, removed).
pub(crate) const SGF_VALUE: Delimited = Delimited { close: b']', one_line: false, any_escape: true };

/// Why a value could not be scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScanError {
    /// No closing byte (on the value's line, for a one-line value).
    Unterminated,
    /// The `\` at this offset escapes a character that cannot be escaped.
    BadEscape(usize),
}

/// The offset of the byte that closes the value whose text starts at
/// `start` in `bytes` (just after its opening delimiter). Works on the
/// bytes of any ASCII-compatible charset: only ASCII bytes delimit.
pub(crate) fn value_end(bytes: &[u8], start: usize, delimited: Delimited) -> Result<usize, ScanError> {
    let line_break = |byte: &u8| delimited.one_line && *byte == b'\n';
    let mut at = start;
    loop {
        match bytes.get(at) {
            None => return Err(ScanError::Unterminated),
            Some(byte) if line_break(byte) => return Err(ScanError::Unterminated),
            Some(&byte) if byte == delimited.close => return Ok(at),
            Some(b'\\') => match bytes.get(at + 1) {
                None => return Err(ScanError::Unterminated),
                Some(byte) if line_break(byte) => return Err(ScanError::Unterminated),
                Some(&byte) if delimited.any_escape || byte == delimited.close || byte == b'\\' => at += 2,
                Some(_) => return Err(ScanError::BadEscape(at)),
            },
            Some(_) => at += 1,
        }
    }
}

/// The text a scanned value stands for: `\` and the character after it
/// stand for that character, and `\` before a line break (`\n`, `\r\n` or
/// `\r`) stands for nothing (a soft line break).
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\r') => {
                chars.next_if_eq(&'\n');
            }
            Some('\n') | None => {}
            Some(escaped) => out.push(escaped),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unescaped value at the start of `text` (after its opening
    /// delimiter), and the offset of its closing byte.
    fn scan(text: &str, delimited: Delimited) -> Result<(String, usize), ScanError> {
        let end = value_end(text.as_bytes(), 0, delimited)?;
        Ok((unescape(&text[..end]), end))
    }

    #[test]
    fn tag_values_end_on_their_line_with_two_escapes() {
        assert_eq!(scan(r#"a \"b\" \\ c" rest"#, TAG_VALUE), Ok((r#"a "b" \ c"#.to_string(), 12)));
        assert_eq!(scan("é\"", TAG_VALUE), Ok(("é".to_string(), 2)));
        assert_eq!(scan("a\nb\"", TAG_VALUE), Err(ScanError::Unterminated));
        assert_eq!(scan("a\\\n\"", TAG_VALUE), Err(ScanError::Unterminated));
        assert_eq!(scan("ab", TAG_VALUE), Err(ScanError::Unterminated));
        assert_eq!(scan("a\\", TAG_VALUE), Err(ScanError::Unterminated));
        assert_eq!(scan("a\\nb\"", TAG_VALUE), Err(ScanError::BadEscape(1)));
    }

    #[test]
    fn sgf_values_span_lines_and_escape_anything() {
        assert_eq!(scan("The \\] cup\\\n 2024]C[x]", SGF_VALUE), Ok(("The ] cup 2024".to_string(), 17)));
        assert_eq!(scan("a\\\r\nb\\\rc\\é\nd]", SGF_VALUE), Ok(("abcé\nd".to_string(), 13)));
        assert_eq!(scan("a\\]", SGF_VALUE), Err(ScanError::Unterminated));
        assert_eq!(value_end(b"a\\\xff]", 0, SGF_VALUE), Ok(3), "bytes of any charset");
    }
}
