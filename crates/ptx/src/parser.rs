//! Hand-written recursive-descent parser over the token slice produced by [`crate::lexer`].
//!
//! Errors are collected and the parser recovers (skipping to the next `;` or the `}` that
//! closes the current block), so one call reports every error of a file. The parser never
//! panics: token access is bounds-checked, numbers use checked arithmetic, and nesting is
//! capped at [`MAX_DEPTH`].
//!
//! This file holds the entry point, the token cursor, error reporting and recovery, and number
//! literals; `decl` parses module-level items (directives, functions, variables) and `body`
//! function bodies (statements, `.reg`, instructions and operands).

use smallvec::SmallVec;

use crate::ast::*;
use crate::classify::{ModError, allowed, apply_modifier, cat};
use crate::error::{ErrorKind, ParseError};
use crate::lexer::{LexProblem, Tok, Token, TokenStream};
use crate::modifiers::{Modifiers, StateSpace, Type};
use crate::opcode::Opcode;
use crate::span::Span;
use body::LocalRegs;

mod body;
mod decl;

/// Maximum nesting of `{ }` scopes and initializer lists.
pub const MAX_DEPTH: u32 = 64;
/// Stop collecting errors after this many (the parse still completes).
pub const MAX_ERRORS: usize = 10_000;
/// PTX's one predefined constant (PTX ISA, "Identifiers"): the number of threads in a warp.
/// nvcc emits it for CUDA's `warpSize` (`mov.u32 %r4, WARP_SZ;`); it reads as the integer
/// immediate [`WARP_SIZE`] wherever an operand may be an integer.
pub const WARP_SZ: &str = "WARP_SZ";
/// The value of `WARP_SZ` on every target PTX supports.
pub const WARP_SIZE: i64 = 32;

/// Parses a PTX module. Always returns a (possibly partial) module, plus every error found.
pub fn parse(src: &str) -> (Module<'_>, Vec<ParseError>) {
    if src.len() >= u32::MAX as usize {
        let e = ParseError::new(
            ErrorKind::TooLarge,
            Span::new(0, 0),
            "input larger than 4 GiB is not supported",
        );
        return (Module::default(), vec![e]);
    }
    let mut p = Parser {
        src,
        toks: Vec::with_capacity(WINDOW + CHUNK),
        stream: TokenStream::new(src),
        problems: Vec::new(),
        pos: 0,
        bumps: 0,
        scratch: Vec::new(),
        errors: Vec::new(),
        depth: 0,
        local_regs: LocalRegs::default(),
    };
    p.refill();
    let m = p.module();
    let mut errors = p.errors;
    errors.sort_by_key(|e| e.span.start);
    (m, errors)
}

type PResult<T> = Result<T, ()>;

/// Tokens guaranteed to be buffered ahead of the cursor (bounds mnemonic lookahead).
const LOOKAHEAD: usize = 64;
/// Tokens lexed per refill.
const CHUNK: usize = 512;
/// Consumed tokens kept before the window is compacted.
const WINDOW: usize = 2048;
/// Most `.xxx` parts a mnemonic may have.
const MAX_MODS: usize = LOOKAHEAD - 8;

struct Parser<'a> {
    src: &'a str,
    /// A sliding window of tokens; `pos` indexes into it. Tokens are lexed on demand so the
    /// whole token vector of a large module is never held in memory.
    toks: Vec<Token>,
    stream: TokenStream<'a>,
    problems: Vec<(LexProblem, Span)>,
    pos: usize,
    /// Total tokens consumed (monotonic, unaffected by window compaction).
    bumps: usize,
    /// Statements of the blocks being parsed (see `block`).
    scratch: Vec<Statement<'a>>,
    errors: Vec<ParseError>,
    depth: u32,
    /// Register names without `%` declared by `.reg` in enclosing scopes (inline asm).
    local_regs: LocalRegs<'a>,
}

fn describe(kind: Tok) -> &'static str {
    match kind {
        Tok::Ident => "identifier",
        Tok::Dot => "directive",
        Tok::DecInt | Tok::HexInt | Tok::BinInt => "integer",
        Tok::F32Bits | Tok::F64Bits | Tok::Float => "float",
        Tok::BadNumber => "malformed number",
        Tok::Str | Tok::UnterminatedStr => "string",
        Tok::Eof => "end of input",
        _ => "token",
    }
}

impl<'a> Parser<'a> {
    // ---------------------------------------------------------------- token access

    #[inline]
    fn kind(&self) -> Tok {
        self.toks.get(self.pos).map_or(Tok::Eof, |t| t.kind())
    }

    #[inline]
    fn kind_at(&self, off: usize) -> Tok {
        self.toks
            .get(self.pos.wrapping_add(off))
            .map_or(Tok::Eof, |t| t.kind())
    }

    #[inline]
    fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span(),
            None => {
                let n = self.src.len() as u32;
                Span::new(n, n)
            }
        }
    }

    #[inline]
    fn text(&self) -> &'a str {
        match self.toks.get(self.pos) {
            Some(t) => self.src.get(t.span().range()).unwrap_or(""),
            None => "",
        }
    }

    #[inline]
    fn text_at(&self, off: usize) -> &'a str {
        match self.toks.get(self.pos.wrapping_add(off)) {
            Some(t) => self.src.get(t.span().range()).unwrap_or(""),
            None => "",
        }
    }

    /// End of the previous token (for spans ending at the last consumed token).
    #[inline]
    fn prev_end(&self) -> u32 {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span().end,
            None => 0,
        }
    }

    #[inline]
    fn bump(&mut self) {
        if self.pos < self.toks.len() {
            self.pos += 1;
            self.bumps += 1;
            if self.toks.len() - self.pos < LOOKAHEAD {
                self.refill();
            }
        }
    }

    /// Lexes more tokens, first dropping consumed ones (keeping the previous token).
    #[cold]
    fn refill(&mut self) {
        if self.stream.is_done() {
            return;
        }
        if self.pos > WINDOW {
            let k = self.pos - 1;
            self.toks.drain(..k);
            self.pos -= k;
        }
        self.stream.fill(&mut self.toks, CHUNK, &mut self.problems);
        if !self.problems.is_empty() {
            for (prob, span) in std::mem::take(&mut self.problems) {
                match prob {
                    LexProblem::UnterminatedComment => self.error(
                        ErrorKind::UnterminatedComment,
                        span,
                        "unterminated block comment",
                    ),
                    LexProblem::TooLong => self.error(ErrorKind::TooLarge, span, "token too long"),
                }
            }
        }
    }

    #[inline]
    fn eat(&mut self, k: Tok) -> bool {
        if self.kind() == k {
            self.bump();
            true
        } else {
            false
        }
    }

    #[inline]
    fn at_dot(&self, s: &str) -> bool {
        self.kind() == Tok::Dot && self.text() == s
    }

    // ---------------------------------------------------------------- errors

    #[cold]
    fn error(&mut self, kind: ErrorKind, span: Span, msg: impl Into<String>) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(ParseError::new(kind, span, msg));
        }
    }

    #[cold]
    fn error_here(&mut self, kind: ErrorKind, msg: impl Into<String>) {
        let sp = self.span();
        self.error(kind, sp, msg);
    }

    /// Reports "expected X, found Y", choosing a more precise kind for lexical junk.
    #[cold]
    fn expected(&mut self, what: &str) {
        let k = self.kind();
        let sp = self.span();
        let text = self.text();
        let (kind, msg) = match k {
            Tok::Error => (
                ErrorKind::InvalidToken,
                format!("invalid character '{}'", text.escape_debug()),
            ),
            Tok::BadNumber => (ErrorKind::BadNumber, format!("malformed number '{text}'")),
            Tok::UnterminatedStr => (
                ErrorKind::UnterminatedString,
                "unterminated string".to_string(),
            ),
            Tok::Eof => (
                ErrorKind::Expected,
                format!("expected {what}, found end of input"),
            ),
            _ => (
                ErrorKind::Expected,
                format!("expected {what}, found {} '{}'", describe(k), text),
            ),
        };
        self.error(kind, sp, msg);
    }

    #[inline]
    fn expect(&mut self, k: Tok, what: &str) -> PResult<Span> {
        if self.kind() == k {
            let sp = self.span();
            self.bump();
            Ok(sp)
        } else {
            self.expected(what);
            Err(())
        }
    }

    #[inline]
    fn expect_ident(&mut self, what: &str) -> PResult<&'a str> {
        if self.kind() == Tok::Ident {
            let t = self.text();
            self.bump();
            Ok(t)
        } else {
            self.expected(what);
            Err(())
        }
    }

    /// True when a newline separates the previous token from the current one.
    #[inline]
    fn newline_before(&self) -> bool {
        let start = self.prev_end() as usize;
        let end = self.span().start as usize;
        self.src.get(start..end).is_some_and(|s| s.contains('\n'))
    }

    /// Skips to just after the next `;` or a balanced `{...}`. In a block (`top` false) it
    /// stops before a `}` closing the block; at the top level it also stops at the next
    /// top-level directive and consumes a stray `}`.
    fn recover(&mut self, top: bool) {
        let mut depth = 0u32;
        let start = self.bumps;
        loop {
            match self.kind() {
                Tok::Eof => return,
                Tok::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::LBrace => depth = depth.saturating_add(1),
                Tok::RBrace if depth == 0 && !top => return,
                Tok::RBrace if depth <= 1 => {
                    // a whole `{ ... }` (or a stray `}`) was skipped; treat it as the statement
                    self.bump();
                    return;
                }
                Tok::RBrace => depth -= 1,
                Tok::Dot
                    if top && depth == 0 && self.bumps > start && is_top_directive(self.text()) =>
                {
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---------------------------------------------------------------- numbers

    /// Parses an integer token at the cursor (with an optional leading `-`).
    #[inline]
    fn int_operand(&mut self) -> PResult<Operand<'a>> {
        let neg = self.eat(Tok::Minus);
        let sp = self.span();
        let k = self.kind();
        let text = self.text();
        let v = match k {
            Tok::DecInt | Tok::HexInt | Tok::BinInt => parse_int(k, text),
            Tok::F32Bits => {
                let bits = text.get(2..).and_then(|h| u32::from_str_radix(h, 16).ok());
                match bits {
                    Some(b) => {
                        self.bump();
                        return Ok(Operand::FImm32(if neg { b ^ 0x8000_0000 } else { b }));
                    }
                    None => None,
                }
            }
            Tok::F64Bits => {
                let bits = text.get(2..).and_then(|h| u64::from_str_radix(h, 16).ok());
                match bits {
                    Some(b) => {
                        self.bump();
                        return Ok(Operand::FImm64(if neg { b ^ (1 << 63) } else { b }));
                    }
                    None => None,
                }
            }
            Tok::Float => match text.parse::<f64>() {
                Ok(f) => {
                    self.bump();
                    let f = if neg { -f } else { f };
                    return Ok(Operand::FImm64(f.to_bits()));
                }
                Err(_) => None,
            },
            _ => {
                self.expected("a number");
                return Err(());
            }
        };
        let Some((v, unsigned)) = v else {
            self.error(ErrorKind::BadNumber, sp, format!("invalid number '{text}'"));
            self.bump();
            return Err(());
        };
        self.bump();
        make_int(v, unsigned, neg).ok_or_else(|| {
            self.error(
                ErrorKind::BadNumber,
                sp,
                format!("number out of range '-{text}'"),
            );
        })
    }

    /// A non-negative integer that fits in u32 (directive arguments).
    #[inline]
    fn u32_value(&mut self, what: &str) -> PResult<u32> {
        self.int_value(what)
    }

    #[inline]
    fn u64_value(&mut self, what: &str) -> PResult<u64> {
        self.int_value(what)
    }

    /// An unsigned integer literal that must fit `T`; an error naming `what` otherwise.
    #[inline]
    fn int_value<T: TryFrom<u64>>(&mut self, what: &str) -> PResult<T> {
        let sp = self.span();
        match self.kind() {
            Tok::DecInt | Tok::HexInt | Tok::BinInt => {
                let text = self.text();
                self.bump();
                match parse_int(self.toks_kind_prev(), text).and_then(|(v, _)| T::try_from(v).ok())
                {
                    Some(v) => Ok(v),
                    None => {
                        self.error(ErrorKind::BadNumber, sp, format!("invalid {what} '{text}'"));
                        Err(())
                    }
                }
            }
            _ => {
                self.expected(what);
                Err(())
            }
        }
    }

    #[inline]
    fn toks_kind_prev(&self) -> Tok {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(Tok::Eof, |t| t.kind())
    }

    /// Signed integer (with optional `-`), as i64 (wrapping for values ≥ 2^63).
    #[inline]
    fn i64_value(&mut self, what: &str) -> PResult<i64> {
        let neg = self.eat(Tok::Minus);
        let v = self.u64_value(what)?;
        Ok(if neg {
            (v as i64).wrapping_neg()
        } else {
            v as i64
        })
    }
}

#[inline]
fn is_top_directive(d: &str) -> bool {
    matches!(
        d,
        ".version"
            | ".target"
            | ".address_size"
            | ".visible"
            | ".extern"
            | ".weak"
            | ".common"
            | ".entry"
            | ".func"
            | ".global"
            | ".shared"
            | ".const"
            | ".file"
            | ".section"
    )
}

/// Parses an integer literal token. Returns `(value, has_U_suffix)`.
#[inline]
fn parse_int(kind: Tok, text: &str) -> Option<(u64, bool)> {
    let (body, unsigned) = match text.strip_suffix('U') {
        Some(b) => (b, true),
        None => (text, false),
    };
    let v = match kind {
        Tok::HexInt => u64::from_str_radix(body.get(2..)?, 16).ok()?,
        Tok::BinInt => u64::from_str_radix(body.get(2..)?, 2).ok()?,
        Tok::DecInt => {
            if body.len() > 1 && body.starts_with('0') {
                u64::from_str_radix(body.get(1..)?, 8).ok()?
            } else {
                body.parse::<u64>().ok()?
            }
        }
        _ => return None,
    };
    Some((v, unsigned))
}

/// Builds an integer operand: `U`-suffixed or > i64::MAX values are `UImm`.
#[inline]
fn make_int<'a>(v: u64, unsigned: bool, neg: bool) -> Option<Operand<'a>> {
    if neg {
        if v <= i64::MAX as u64 {
            Some(Operand::Imm(-(v as i64)))
        } else if v == 1u64 << 63 {
            Some(Operand::Imm(i64::MIN))
        } else {
            None
        }
    } else if unsigned || v > i64::MAX as u64 {
        Some(Operand::UImm(v))
    } else {
        Some(Operand::Imm(v as i64))
    }
}
