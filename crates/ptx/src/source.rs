//! Source text with a lazily built line-start table for line/column lookup.

use std::cell::OnceCell;

use crate::span::Span;

/// A named PTX source text. Line/column positions are computed on demand from a
/// line-start table that is only built the first time a position is asked for.
#[derive(Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
    line_starts: OnceCell<Vec<u32>>,
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
            line_starts: OnceCell::new(),
        }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| line_starts(self.text))
    }

    /// 1-based line/column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let starts = self.line_starts();
        let offset = offset.min(self.text.len().min(u32::MAX as usize) as u32);
        let line = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = starts.get(line).copied().unwrap_or(0);
        LineCol {
            line: line as u32 + 1,
            col: offset - start + 1,
        }
    }

    /// The source text covered by `span` (empty if out of range or not on a char boundary).
    pub fn slice(&self, span: Span) -> &'a str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// Byte offsets at which each line starts (always begins with 0).
pub fn line_starts(text: &str) -> Vec<u32> {
    let mut v = Vec::with_capacity(text.len() / 32 + 1);
    v.push(0);
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            v.push((i + 1).min(u32::MAX as usize) as u32);
        }
    }
    v
}
