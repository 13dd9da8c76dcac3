//! Parse diagnostics and their codespan-reporting rendering.

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;

use crate::span::Span;

/// What went wrong, for programmatic matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Bytes that form no token.
    InvalidToken,
    /// Malformed or out-of-range number literal.
    BadNumber,
    /// String without a closing quote.
    UnterminatedString,
    /// `/*` without `*/`.
    UnterminatedComment,
    /// Instruction mnemonic not known.
    UnknownInstruction,
    /// Modifier not known or not allowed for this instruction.
    UnknownModifier,
    /// Directive (`.foo`) not known or not allowed here.
    UnknownDirective,
    /// Unknown or misplaced special register / type / state space.
    Invalid,
    /// A different token was expected (e.g. missing `;`).
    Expected,
    /// `%r<N>` with a bad count.
    BadRegisterRange,
    /// `{`/`}` not balanced.
    Unbalanced,
    /// Nesting deeper than the parser allows.
    TooDeep,
    /// Input too large.
    TooLarge,
}

/// A parse error with its location. Several are collected per parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub span: Span,
    pub message: String,
    pub kind: ErrorKind,
}

impl ParseError {
    #[cold]
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> Self {
        ParseError {
            span,
            message: message.into(),
            kind,
        }
    }

    /// As a codespan diagnostic for a file id `id`.
    pub fn to_diagnostic<Id: Clone>(&self, id: Id, src: &str) -> Diagnostic<Id> {
        let mut start = (self.span.start as usize).min(src.len());
        while start > 0 && !src.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (self.span.end as usize).clamp(start, src.len());
        while end < src.len() && !src.is_char_boundary(end) {
            end += 1;
        }
        Diagnostic::error()
            .with_message(self.message.clone())
            .with_labels(vec![Label::primary(id, start..end)])
    }
}

/// Renders errors as plain text (no colours), e.g.
///
/// ```text
/// error: unknown instruction 'foo'
///    --> k.ptx:12:5
///    |
/// 12 |     foo.u32 %r1, %r2;
///    |     ^^^
/// ```
pub fn render_errors(file_name: &str, src: &str, errors: &[ParseError]) -> String {
    let file = SimpleFile::new(file_name, src);
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut out = String::new();
    for e in errors {
        let diag = e.to_diagnostic((), src);
        // Spans are clamped to the source and snapped to char boundaries; should
        // rendering still fail, fall back to a plain line.
        match term::emit_into_string(&config, &file, &diag) {
            Ok(s) => out.push_str(&s),
            Err(_) => {
                out.push_str(&format!(
                    "error: {} (at byte {})\n",
                    e.message, e.span.start
                ));
            }
        }
    }
    out
}
