//! The character set of an SGF file's bytes: [`decode`].

use std::borrow::Cow;

use crate::error::{ParseError, ParseErrorKind};
use crate::scan::{SGF_VALUE, value_end};
use crate::text::{excerpt, is_space};

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Decodes the bytes of an SGF file into text. SGF names the character set
/// in the root property `CA[...]`, and ISO-8859-1 (Latin-1) is its default:
/// BoardSpace's older files are Latin-1 without a `CA`, with text such as
/// `RE[Partie gagnée par X]` holding the byte 0xE9.
///
/// The rules, in order:
///
/// 1. a UTF-8 byte-order mark: UTF-8;
/// 2. a `CA` in the root node: its charset (the part before any `:`, in any
///    case): `UTF-8` (or `utf8`) is UTF-8; ISO-8859-1 under any of its
///    names (`ISO-8859-1`, `ISO_8859-1`, `ISO8859-1`, `latin1`, `latin-1`,
///    `l1`, `iso-ir-100`, `cp819`, `IBM819`) and `US-ASCII` (`ascii`, a
///    subset of it) are Latin-1; any other charset is an error;
/// 3. no `CA`: UTF-8 when the bytes are valid UTF-8, Latin-1 when they are
///    not. Text that is both is ASCII, or holds Latin-1 byte pairs such as
///    `Ã©` that real names and results do not; files written by hand today
///    are UTF-8.
///
/// A file declared UTF-8 (rules 1 and 2) that holds a byte that is not is
/// an error at that byte.
///
/// ```
/// use dvonn_notation::sgf;
/// assert_eq!(sgf::decode(b"(;RE[gagn\xe9e])").unwrap(), "(;RE[gagnée])");
/// assert_eq!(sgf::decode(b"(;CA[UTF-8]RE[gagn\xc3\xa9e])").unwrap(), "(;CA[UTF-8]RE[gagnée])");
/// assert_eq!(sgf::decode(b"(;CA[ISO-8859-1]RE[gagn\xc3\xa9e])").unwrap(), "(;CA[ISO-8859-1]RE[gagnÃ©e])");
/// assert_eq!(
///     sgf::decode(b"(;CA[UTF-8]RE[gagn\xe9e])").unwrap_err().to_string(),
///     "line 1, column 19: CA says the file is UTF-8, but this byte is not"
/// );
/// ```
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, ParseError> {
    if bytes.starts_with(BOM) {
        return utf8(bytes, "its byte-order mark");
    }
    let Some((at, label)) = declared_charset(bytes) else {
        return Ok(match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => Cow::Owned(latin1(bytes)),
        });
    };
    let label = String::from_utf8_lossy(label);
    let name = label.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
    match name.as_str() {
        "utf-8" | "utf8" => utf8(bytes, "CA"),
        "iso-8859-1" | "iso_8859-1" | "iso8859-1" | "latin1" | "latin-1" | "l1" | "iso-ir-100" | "cp819" | "ibm819"
        | "us-ascii" | "ascii" => Ok(Cow::Owned(latin1(bytes))),
        _ => Err(error(bytes, at, ParseErrorKind::UnsupportedCharset(excerpt(&label)))),
    }
}

/// `bytes` as UTF-8, which `declared` says they are.
fn utf8<'a>(bytes: &'a [u8], declared: &'static str) -> Result<Cow<'a, str>, ParseError> {
    std::str::from_utf8(bytes)
        .map(Cow::Borrowed)
        .map_err(|e| error(bytes, e.valid_up_to(), ParseErrorKind::NotUtf8(declared)))
}

/// `bytes` read as ISO-8859-1: each byte is the character of that number.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().copied().map(char::from).collect()
}

/// The error `kind` at the byte `at`: its line, and its column counted in
/// characters as UTF-8 would count them (every byte that does not continue
/// a character starts one), a leading byte-order mark left out as the
/// reader leaves it out.
fn error(bytes: &[u8], at: usize, kind: ParseErrorKind) -> ParseError {
    let before = &bytes[..at.min(bytes.len())];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_text = before[line_start..].strip_prefix(BOM).unwrap_or(&before[line_start..]);
    let column = line_text.iter().filter(|&&b| b & 0xc0 != 0x80).count() + 1;
    ParseError { line, column, kind }
}

/// The offset and the raw value of the `CA` property of the root node (the
/// first node of the file), when there is one. Only ASCII bytes make the SGF
/// structure, so this works on the bytes of any charset.
fn declared_charset(bytes: &[u8]) -> Option<(usize, &[u8])> {
    let mut at = 0;
    let mut nodes = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'[' => at = value_end(bytes, at + 1, SGF_VALUE).ok()?,
            b';' if nodes > 0 => return None,
            b';' => nodes = 1,
            b'(' | b')' if nodes > 0 => return None,
            b if b.is_ascii_alphabetic() => {
                let start = at;
                while bytes.get(at).is_some_and(u8::is_ascii_alphanumeric) {
                    at += 1;
                }
                let ident = &bytes[start..at];
                while bytes.get(at).is_some_and(|&b| is_space(b)) {
                    at += 1;
                }
                if nodes > 0 && ident == b"CA" && bytes.get(at) == Some(&b'[') {
                    let end = value_end(bytes, at + 1, SGF_VALUE).ok()?;
                    return Some((at + 1, &bytes[at + 1..end]));
                }
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_charset_is_read_from_the_root_node_only() {
        assert_eq!(declared_charset(b"(;GM[Dvonn]CA[UTF-8];P0[1 done])"), Some((14, &b"UTF-8"[..])));
        assert_eq!(declared_charset(b" ( ; CA [latin1] )"), Some((9, &b"latin1"[..])));
        assert_eq!(declared_charset(b"(;GM[Dvonn];CA[UTF-8])"), None, "not in the root node");
        assert_eq!(declared_charset(b"(;C[CA[UTF-8]]GM[1])"), None, "inside a value");
        assert_eq!(declared_charset(b"(;C[\\]CA[UTF-8]])"), None, "inside a value after an escape");
        assert_eq!(declared_charset(b"(;XCA[UTF-8]CAX[UTF-8])"), None, "other properties");
        assert_eq!(declared_charset(b"(;CA[UTF-8"), None, "an unclosed value");
        assert_eq!(declared_charset(b""), None);
    }

    #[test]
    fn every_rule_of_decode() {
        let decoded = |bytes: &[u8]| decode(bytes).map(Cow::into_owned).map_err(|e| e.to_string());
        // 1. A byte-order mark.
        assert_eq!(decoded(b"\xef\xbb\xbf(;RE[\xc3\xa9])").unwrap(), "\u{feff}(;RE[é])");
        assert_eq!(
            decoded(b"\xef\xbb\xbf(;RE[\xe9])").unwrap_err(),
            "line 1, column 6: its byte-order mark says the file is UTF-8, but this byte is not"
        );
        // 2. CA, under its names and in any case.
        for label in ["ISO-8859-1", "iso_8859-1:1987", "Latin1", "l1", "IBM819", "US-ASCII"] {
            let bytes = format!("(;CA[{label}]RE[\u{0}])").into_bytes();
            let bytes: Vec<u8> = bytes.into_iter().map(|b| if b == 0 { 0xe9 } else { b }).collect();
            assert_eq!(decoded(&bytes).unwrap(), format!("(;CA[{label}]RE[é])"), "{label}");
        }
        assert_eq!(decoded(b"(;CA[utf8]RE[\xc3\xa9])").unwrap(), "(;CA[utf8]RE[é])");
        assert_eq!(
            decoded(b"(;GM[Dvonn]\n CA[Shift_JIS])").unwrap_err(),
            "line 2, column 5: unsupported charset \"Shift_JIS\" (CA): this reader knows UTF-8 and ISO-8859-1 (Latin-1)"
        );
        assert_eq!(
            decoded(b"(;C[\xc3\xa9t\xc3\xa9]\nCA[UTF-8]RE[a\xff])").unwrap_err(),
            "line 2, column 14: CA says the file is UTF-8, but this byte is not"
        );
        // 3. No CA: UTF-8 when valid, else Latin-1.
        assert_eq!(decoded(b"(;RE[\xc3\xa9])").unwrap(), "(;RE[é])");
        assert_eq!(decoded(b"(;RE[\xc3])").unwrap(), "(;RE[Ã])");
        assert_eq!(decoded(b"").unwrap(), "");
    }

    #[test]
    fn utf8_text_is_not_copied() {
        assert!(matches!(decode(b"(;GM[Dvonn])"), Ok(Cow::Borrowed(_))));
        assert!(matches!(decode(b"(;CA[UTF-8])"), Ok(Cow::Borrowed(_))));
    }
}
