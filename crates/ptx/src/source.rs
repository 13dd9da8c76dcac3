//! Source text with a lazily built line-start table for line/column lookup.

use std::sync::OnceLock;

use crate::span::Span;

/// A named PTX source text. Line/column positions are computed on demand from a
/// line-start table that is only built the first time a position is asked for (once, and
/// shareable between threads: one per module, not one per kernel).
#[derive(Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
    lines: OnceLock<LineIndex>,
}

/// A 1-based line and column (column counted in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Source {
            name,
            text,
            lines: OnceLock::new(),
        }
    }

    /// 1-based line/column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        self.lines
            .get_or_init(|| LineIndex::new(self.text))
            .line_col(offset)
    }

    /// The source text covered by `span` (empty if out of range or not on a char boundary).
    pub fn slice(&self, span: Span) -> &'a str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// The line starts of a text, owned, for turning the byte offsets of spans into 1-based
/// line/column positions wherever the text itself is no longer at hand (the emulator's sites,
/// profiles, cache reports).
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// Byte offsets at which each line starts (begins with 0 once built).
    starts: Vec<u32>,
    /// The text's length, to which offsets are clamped.
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push((i + 1).min(u32::MAX as usize) as u32);
            }
        }
        LineIndex {
            starts,
            len: text.len().min(u32::MAX as usize) as u32,
        }
    }

    /// 1-based line/column of a byte offset (clamped to the text; line 1 of an empty index).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.len);
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        LineCol {
            line: line as u32 + 1,
            col: offset - start + 1,
        }
    }

    /// The 1-based line of a byte offset.
    pub fn line(&self, offset: u32) -> u32 {
        self.line_col(offset).line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_clamped() {
        let l = LineIndex::new("ab\ncd\n\nef");
        let at = |o| {
            let p = l.line_col(o);
            (p.line, p.col)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 3));
        assert_eq!(at(3), (2, 1));
        assert_eq!(at(6), (3, 1));
        assert_eq!(at(8), (4, 2));
        assert_eq!(at(99), (4, 3));
        assert_eq!(
            LineIndex::default().line_col(5),
            LineCol { line: 1, col: 1 }
        );
        assert_eq!(
            Source::new("x", "ab\ncd").line_col(4),
            LineCol { line: 2, col: 2 }
        );
    }
}
