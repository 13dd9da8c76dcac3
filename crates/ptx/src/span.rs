//! Byte spans into the source text.

/// A half-open byte range `start..end` into the PTX source text.
///
/// Offsets are `u32` to keep AST nodes small; inputs larger than 4 GiB are
/// rejected by the parser with an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// A span covering `start..end`.
    #[inline]
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// The span starting at the start of `self` and ending at the end of `other`.
    #[inline]
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end.max(self.start),
        }
    }

    /// Length in bytes.
    #[inline]
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// True when the span is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// As a `usize` range, for slicing the source (use `str::get` to stay panic-free).
    #[inline]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl From<Span> for std::ops::Range<usize> {
    fn from(s: Span) -> Self {
        s.range()
    }
}
