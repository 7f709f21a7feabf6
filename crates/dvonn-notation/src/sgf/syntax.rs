//! The SGF syntax of a record: game trees of nodes of properties, of which
//! the reader keeps the main line of the first tree.

use crate::error::{ParseError, ParseErrorKind};
use crate::scan::{SGF_VALUE, unescape, value_end};
use crate::text::is_space;

/// A property: its identifier and its values, each with the offset of its
/// text.
pub(super) struct Property {
    pub(super) ident: String,
    pub(super) values: Vec<(String, usize)>,
}

/// A node of the main line.
pub(super) type Node = Vec<Property>;

/// The nodes of the main line of the first game tree of `text` (without a
/// byte-order mark): of each node, its properties in order.
pub(super) fn main_line(text: &str) -> Result<Vec<Node>, ParseError> {
    Syntax { text, bytes: text.as_bytes(), pos: 0 }.main_line()
}

/// The reader of the SGF syntax.
struct Syntax<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Syntax<'_> {
    fn error(&self, at: usize, kind: ParseErrorKind) -> ParseError {
        ParseError::at(self.text, at, kind)
    }

    fn skip_space(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|&b| is_space(b)) {
            self.pos += 1;
        }
    }

    fn main_line(&mut self) -> Result<Vec<Node>, ParseError> {
        self.skip_space();
        if self.bytes.get(self.pos) != Some(&b'(') {
            return Err(self.error(self.pos, ParseErrorKind::SgfSyntax("an SGF record starts with '('")));
        }
        // Per open game tree: whether it is on the main line, and how many
        // subtrees it has had so far.
        let mut trees: Vec<(bool, usize)> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut opens: Vec<usize> = Vec::new();
        // Whether the node being read is kept.
        let mut keep = false;
        let mut in_node = false;
        loop {
            self.skip_space();
            let at = self.pos;
            match self.bytes.get(at) {
                None => {
                    let open = opens.last().copied().unwrap_or(at);
                    return Err(self.error(open, ParseErrorKind::SgfSyntax("'(' without a matching ')'")));
                }
                Some(b'(') => {
                    let main = match trees.last_mut() {
                        Some((main, children)) => {
                            *children += 1;
                            *main && *children == 1
                        }
                        None => true,
                    };
                    trees.push((main, 0));
                    opens.push(at);
                    in_node = false;
                    self.pos += 1;
                }
                Some(b')') => {
                    trees.pop();
                    opens.pop();
                    in_node = false;
                    self.pos += 1;
                    if trees.is_empty() {
                        // Only the first game of a collection is read.
                        return Ok(nodes);
                    }
                }
                Some(b';') => {
                    let Some(&(main, children)) = trees.last() else {
                        return Err(self.error(at, ParseErrorKind::SgfSyntax("a node outside '(' ... ')'")));
                    };
                    if children > 0 {
                        return Err(self.error(at, ParseErrorKind::SgfSyntax("a node after a variation")));
                    }
                    keep = main;
                    in_node = true;
                    if keep {
                        nodes.push(Vec::new());
                    }
                    self.pos += 1;
                }
                Some(b) if b.is_ascii_alphabetic() => {
                    if !in_node {
                        return Err(self.error(at, ParseErrorKind::SgfSyntax("a property outside a node (';' first)")));
                    }
                    let property = self.property()?;
                    if keep && let Some(node) = nodes.last_mut() {
                        node.push(property);
                    }
                }
                Some(_) => {
                    let c = self.text[at..].chars().next().unwrap_or('?');
                    return Err(self.error(at, ParseErrorKind::UnexpectedChar(c)));
                }
            }
        }
    }

    /// Reads the property at `self.pos`: its identifier and its values.
    fn property(&mut self) -> Result<Property, ParseError> {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_alphanumeric) {
            self.pos += 1;
        }
        let ident = self.text[start..self.pos].to_string();
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if self.bytes.get(self.pos) != Some(&b'[') {
                break;
            }
            let open = self.pos;
            let value_at = open + 1;
            let end = value_end(self.bytes, value_at, SGF_VALUE)
                .map_err(|_| self.error(open, ParseErrorKind::UnterminatedProperty))?;
            let value = unescape(&self.text[value_at..end]);
            self.pos = end + 1;
            values.push((value, value_at));
        }
        if values.is_empty() {
            return Err(self.error(start, ParseErrorKind::SgfSyntax("a property without a value ('[' expected)")));
        }
        Ok(Property { ident, values })
    }
}
