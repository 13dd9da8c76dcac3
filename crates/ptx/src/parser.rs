//! Hand-written recursive-descent parser over the token slice produced by [`crate::lexer`].
//!
//! Errors are collected and the parser recovers (skipping to the next `;` or the `}` that
//! closes the current block), so one call reports every error of a file. The parser never
//! panics: token access is bounds-checked, numbers use checked arithmetic, and nesting is
//! capped at [`MAX_DEPTH`].

use smallvec::SmallVec;

use crate::ast::*;
use crate::classify::{ModError, allowed, apply_modifier, cat};
use crate::error::{ErrorKind, ParseError};
use crate::lexer::{LexProblem, Tok, Token, TokenStream};
use crate::modifiers::{Modifiers, StateSpace, Type};
use crate::opcode::Opcode;
use crate::span::Span;

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
    fn newline_before(&self) -> bool {
        let start = self.prev_end() as usize;
        let end = self.span().start as usize;
        self.src.get(start..end).is_some_and(|s| s.contains('\n'))
    }

    /// Skips to just after the next `;`, or to (not past) a `}` closing the current block.
    fn recover_stmt(&mut self) {
        let mut depth = 0u32;
        loop {
            match self.kind() {
                Tok::Eof => return,
                Tok::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::LBrace => depth = depth.saturating_add(1),
                Tok::RBrace => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        // a whole `{ ... }` was skipped; treat it as the statement
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Top-level recovery: skips to after a `;` or a balanced `{...}` at depth 0, or to the
    /// next top-level directive.
    fn recover_top(&mut self) {
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
                Tok::RBrace => {
                    if depth <= 1 {
                        self.bump();
                        return;
                    }
                    depth -= 1;
                }
                Tok::Dot if depth == 0 && self.bumps > start && is_top_directive(self.text()) => {
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---------------------------------------------------------------- numbers

    /// Parses an integer token at the cursor (with an optional leading `-`).
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
    fn u32_value(&mut self, what: &str) -> PResult<u32> {
        self.int_value(what)
    }

    fn u64_value(&mut self, what: &str) -> PResult<u64> {
        self.int_value(what)
    }

    /// An unsigned integer literal that must fit `T`; an error naming `what` otherwise.
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

    fn toks_kind_prev(&self) -> Tok {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(Tok::Eof, |t| t.kind())
    }

    /// Signed integer (with optional `-`), as i64 (wrapping for values ≥ 2^63).
    fn i64_value(&mut self, what: &str) -> PResult<i64> {
        let neg = self.eat(Tok::Minus);
        let v = self.u64_value(what)?;
        Ok(if neg {
            (v as i64).wrapping_neg()
        } else {
            v as i64
        })
    }

    // ---------------------------------------------------------------- module

    fn module(&mut self) -> Module<'a> {
        let mut m = Module::default();
        loop {
            match self.kind() {
                Tok::Eof => break,
                Tok::Dot => {
                    if self.top_directive(&mut m).is_err() {
                        self.recover_top();
                    }
                }
                Tok::Ident if self.kind_at(1) == Tok::Colon => {
                    let start = self.span();
                    let name = self.text();
                    self.bump();
                    self.bump();
                    if self.at_dot(".callprototype") {
                        match self.call_prototype(name, start) {
                            Ok(p) => m.items.push(Item::CallPrototype(p)),
                            Err(()) => self.recover_top(),
                        }
                    } else {
                        self.expected("'.callprototype' after a module-scope label");
                        self.recover_top();
                    }
                }
                Tok::Semi => self.bump(),
                _ => {
                    self.expected("a directive");
                    self.recover_top();
                }
            }
        }
        m
    }

    fn top_directive(&mut self, m: &mut Module<'a>) -> PResult<()> {
        let start = self.span();
        let d = self.text();
        match d {
            ".version" => {
                self.bump();
                let sp = self.span();
                let t = self.text();
                match self.kind() {
                    Tok::Float | Tok::DecInt => {
                        self.bump();
                        let mut it = t.splitn(2, '.');
                        let maj = it.next().and_then(|s| s.parse().ok());
                        let min = it.next().map_or(Some(0), |s| s.parse().ok());
                        match (maj, min) {
                            (Some(a), Some(b)) => m.version = (a, b),
                            _ => {
                                self.error(
                                    ErrorKind::BadNumber,
                                    sp,
                                    format!("invalid version '{t}'"),
                                );
                                return Err(());
                            }
                        }
                    }
                    _ => {
                        self.expected("a version number");
                        return Err(());
                    }
                }
            }
            ".target" => {
                self.bump();
                loop {
                    let t = self.expect_ident("a target name")?;
                    m.target.push(t);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            ".address_size" => {
                self.bump();
                m.address_size = self.u32_value("an address size")?;
            }
            ".file" => {
                self.bump();
                let f = self.file_decl(start)?;
                m.files.push(f);
                m.items.push(Item::File(f));
            }
            ".section" => {
                self.bump();
                let s = self.debug_section(start)?;
                m.items.push(Item::DebugSection(s));
            }
            ".pragma" => {
                self.bump();
                let p = self.pragma(start)?;
                m.items.push(Item::Pragma(p));
            }
            _ => {
                let linkage = match d {
                    ".visible" | ".extern" | ".weak" | ".common" => {
                        self.bump();
                        Linkage::from_str(&d[1..])
                    }
                    _ => None,
                };
                let d2 = if self.kind() == Tok::Dot {
                    self.text()
                } else {
                    ""
                };
                match d2 {
                    ".entry" | ".func" => {
                        let f = self.function(linkage, start)?;
                        m.items.push(Item::Function(f));
                    }
                    ".global" | ".shared" | ".const" | ".local" | ".tex" | ".param" => {
                        let mut out = Vec::new();
                        self.variable(linkage, start, &mut out)?;
                        m.items.extend(out.into_iter().map(Item::Variable));
                    }
                    _ => {
                        let sp = self.span();
                        if self.kind() == Tok::Dot {
                            self.error(
                                ErrorKind::UnknownDirective,
                                sp,
                                format!("unknown or misplaced directive '{d2}'"),
                            );
                        } else {
                            self.expected("'.entry', '.func' or a variable declaration");
                        }
                        return Err(());
                    }
                }
            }
        }
        Ok(())
    }

    fn file_decl(&mut self, start: Span) -> PResult<FileDecl<'a>> {
        let index = self.u32_value("a file index")?;
        let path = self.string("a file path")?;
        let mut timestamp = None;
        let mut size = None;
        if self.eat(Tok::Comma) {
            timestamp = Some(self.u64_value("a timestamp")?);
            self.expect(Tok::Comma, "','")?;
            size = Some(self.u64_value("a file size")?);
        }
        Ok(FileDecl {
            index,
            path,
            timestamp,
            size,
            span: start.to(Span::new(0, self.prev_end())),
        })
    }

    fn string(&mut self, what: &str) -> PResult<&'a str> {
        if self.kind() == Tok::Str {
            let t = self.text();
            self.bump();
            Ok(t.get(1..t.len().saturating_sub(1)).unwrap_or(""))
        } else {
            self.expected(what);
            Err(())
        }
    }

    fn debug_section(&mut self, start: Span) -> PResult<DebugSection<'a>> {
        if self.kind() != Tok::Dot {
            self.expected("a section name");
            return Err(());
        }
        let name = self.text();
        self.bump();
        let lb = self.expect(Tok::LBrace, "'{'")?;
        let mut depth = 1u32;
        loop {
            match self.kind() {
                Tok::Eof => {
                    self.error(ErrorKind::Unbalanced, lb, "unclosed '{' of debug section");
                    return Err(());
                }
                Tok::LBrace => depth = depth.saturating_add(1),
                Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        let rb = self.span();
                        self.bump();
                        let body = self
                            .src
                            .get(lb.end as usize..rb.start as usize)
                            .unwrap_or("");
                        return Ok(DebugSection {
                            name,
                            body,
                            span: start.to(rb),
                        });
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn pragma(&mut self, start: Span) -> PResult<Pragma<'a>> {
        let mut strings = SmallVec::new();
        loop {
            strings.push(self.string("a pragma string")?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(Pragma {
            strings,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- functions

    fn function(&mut self, linkage: Option<Linkage>, start: Span) -> PResult<Function<'a>> {
        let kind = if self.text() == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        self.bump();
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && self.kind() == Tok::LParen {
            returns = self.param_list()?;
        }
        let name_span = self.span();
        let name = self.expect_ident("a function name")?;
        let mut params = Vec::new();
        if self.kind() == Tok::LParen {
            params = self.param_list()?;
        }
        let mut attrs = FunctionAttrs::default();
        loop {
            if self.kind() != Tok::Dot {
                break;
            }
            let d = self.text();
            match d {
                ".maxntid" | ".reqntid" | ".reqnctapercluster" => {
                    self.bump();
                    let mut dims = [1u32; 3];
                    for (i, slot) in dims.iter_mut().enumerate() {
                        if i > 0 && !self.eat(Tok::Comma) {
                            break;
                        }
                        *slot = self.u32_value("a dimension")?;
                    }
                    match d {
                        ".maxntid" => attrs.maxntid = Some(dims),
                        ".reqntid" => attrs.reqntid = Some(dims),
                        _ => attrs.reqnctapercluster = Some(dims),
                    }
                }
                ".minnctapersm" | ".maxnctapersm" | ".maxnreg" | ".maxclusterrank" => {
                    self.bump();
                    let (slot, what) = match d {
                        ".minnctapersm" => (&mut attrs.minnctapersm, "a count"),
                        ".maxnctapersm" => (&mut attrs.maxnctapersm, "a count"),
                        ".maxnreg" => (&mut attrs.maxnreg, "a register count"),
                        _ => (&mut attrs.maxclusterrank, "a count"),
                    };
                    *slot = Some(self.u32_value(what)?);
                }
                ".noreturn" | ".explicitcluster" | ".blocksareclusters" => {
                    self.bump();
                    *match d {
                        ".noreturn" => &mut attrs.noreturn,
                        ".explicitcluster" => &mut attrs.explicitcluster,
                        _ => &mut attrs.blocksareclusters,
                    } = true;
                }
                _ => {
                    let sp = self.span();
                    self.error(
                        ErrorKind::UnknownDirective,
                        sp,
                        format!("unknown function directive '{d}'"),
                    );
                    return Err(());
                }
            }
        }
        let body = match self.kind() {
            Tok::Semi => {
                self.bump();
                None
            }
            Tok::LBrace => {
                let open = self.span();
                self.bump();
                self.local_regs.clear();
                self.depth = 0;
                Some(self.block(open))
            }
            _ => {
                self.expected("'{' or ';'");
                return Err(());
            }
        };
        Ok(Function {
            name,
            kind,
            linkage,
            params,
            returns,
            attrs,
            body,
            span: start.to(Span::new(0, self.prev_end())),
            name_span,
        })
    }

    fn param_list(&mut self) -> PResult<Vec<Param<'a>>> {
        self.expect(Tok::LParen, "'('")?;
        let mut v = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            v.push(self.param()?);
            if self.eat(Tok::Comma) {
                continue;
            }
            self.expect(Tok::RParen, "',' or ')'")?;
            return Ok(v);
        }
    }

    fn param(&mut self) -> PResult<Param<'a>> {
        let start = self.span();
        let space = match self.text() {
            ".param" if self.kind() == Tok::Dot => StateSpace::Param,
            ".reg" if self.kind() == Tok::Dot => StateSpace::Reg,
            _ => {
                self.expected("'.param' or '.reg'");
                return Err(());
            }
        };
        self.bump();
        let mut align = None;
        let mut vec = 1u8;
        let mut ty = None;
        let mut ptr: Option<PtrAttr> = None;
        while self.kind() == Tok::Dot {
            let d = self.text();
            let sp = self.span();
            self.bump();
            match d {
                ".align" => {
                    let a = self.u32_value("an alignment")?;
                    match &mut ptr {
                        Some(p) => p.align = Some(a),
                        None => align = Some(a),
                    }
                }
                ".ptr" => ptr = Some(PtrAttr::default()),
                ".v2" => vec = 2,
                ".v4" => vec = 4,
                ".v8" => vec = 8,
                _ => {
                    let s = &d[1..];
                    if let (Some(p), Some(sp2)) = (&mut ptr, StateSpace::from_str(s)) {
                        p.space = Some(sp2);
                    } else if let Some(t) = Type::from_str(s) {
                        ty = Some(t);
                    } else {
                        self.error(
                            ErrorKind::UnknownDirective,
                            sp,
                            format!("unexpected '{d}' in parameter"),
                        );
                        return Err(());
                    }
                }
            }
        }
        let Some(ty) = ty else {
            self.expected("a parameter type");
            return Err(());
        };
        let name = match self.kind() {
            Tok::Ident => self.text(),
            Tok::Underscore => "_",
            _ => {
                self.expected("a parameter name");
                return Err(());
            }
        };
        self.bump();
        let dims = self.dims()?;
        Ok(Param {
            space,
            align,
            vec,
            ty,
            ptr,
            name,
            dims,
            span: start.to(Span::new(0, self.prev_end())),
        })
    }

    fn dims(&mut self) -> PResult<Dims> {
        let mut dims = Dims::new();
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                dims.push(None);
                continue;
            }
            let n = self.u64_value("an array size")?;
            dims.push(Some(n));
            self.expect(Tok::RBracket, "']'")?;
        }
        Ok(dims)
    }

    fn call_prototype(&mut self, name: &'a str, start: Span) -> PResult<CallPrototype<'a>> {
        self.bump(); // .callprototype
        let mut returns = Vec::new();
        if self.kind() == Tok::LParen {
            returns = self.param_list()?;
        }
        self.expect(Tok::Underscore, "'_'")?;
        let mut params = Vec::new();
        if self.kind() == Tok::LParen {
            params = self.param_list()?;
        }
        let mut noreturn = false;
        if self.at_dot(".noreturn") {
            self.bump();
            noreturn = true;
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(CallPrototype {
            name,
            returns,
            params,
            noreturn,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- variables

    fn variable(
        &mut self,
        linkage: Option<Linkage>,
        start: Span,
        out: &mut Vec<Variable<'a>>,
    ) -> PResult<()> {
        let sp0 = self.span();
        let space = match StateSpace::from_str(self.text().get(1..).unwrap_or("")) {
            Some(s) if self.kind() == Tok::Dot => s,
            _ => {
                self.error(ErrorKind::UnknownDirective, sp0, "expected a state space");
                return Err(());
            }
        };
        self.bump();
        let mut managed = false;
        let mut align = None;
        let (vec, ty) = self.decl_modifiers("variable", |p, d| {
            match d {
                ".align" => align = Some(p.u32_value("an alignment")?),
                ".attribute" => {
                    p.expect(Tok::LParen, "'('")?;
                    if p.at_dot(".managed") {
                        p.bump();
                        managed = true;
                    } else {
                        p.expected("'.managed'");
                        return Err(());
                    }
                    p.expect(Tok::RParen, "')'")?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        loop {
            let vstart = if out.is_empty() { start } else { self.span() };
            let name = self.expect_ident("a variable name")?;
            let dims = self.dims()?;
            let mut init = None;
            if self.eat(Tok::Eq) {
                init = Some(self.initializer(0)?);
            }
            out.push(Variable {
                linkage,
                space,
                managed,
                align,
                vec,
                ty,
                name,
                dims,
                init,
                span: vstart.to(Span::new(0, self.prev_end())),
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        if let Some(v) = out.last_mut() {
            v.span = v.span.to(end);
        }
        Ok(())
    }

    /// The modifiers of a variable or register declaration up to its name: `.v2`/`.v4`/`.v8`,
    /// exactly one type, and whatever `other` accepts (it returns false for a directive it
    /// does not know). `what` names the declaration in messages.
    fn decl_modifiers(
        &mut self,
        what: &str,
        mut other: impl FnMut(&mut Self, &'a str) -> PResult<bool>,
    ) -> PResult<(u8, Type)> {
        let mut vec = 1u8;
        let mut ty = None;
        while self.kind() == Tok::Dot {
            let d = self.text();
            let sp = self.span();
            self.bump();
            match d {
                ".v2" => vec = 2,
                ".v4" => vec = 4,
                ".v8" => vec = 8,
                _ if other(self, d)? => {}
                _ => match Type::from_str(&d[1..]) {
                    Some(t) if ty.is_none() => ty = Some(t),
                    _ => {
                        self.error(
                            ErrorKind::UnknownDirective,
                            sp,
                            format!("unexpected '{d}' in {what} declaration"),
                        );
                        return Err(());
                    }
                },
            }
        }
        match ty {
            Some(ty) => Ok((vec, ty)),
            None => {
                self.expected(&format!("a {what} type"));
                Err(())
            }
        }
    }

    fn initializer(&mut self, depth: u32) -> PResult<Initializer<'a>> {
        if self.kind() == Tok::LBrace {
            if depth >= MAX_DEPTH {
                self.error_here(ErrorKind::TooDeep, "initializer nested too deeply");
                return Err(());
            }
            self.bump();
            let mut v = Vec::new();
            if self.eat(Tok::RBrace) {
                return Ok(Initializer::List(v));
            }
            loop {
                v.push(self.initializer(depth + 1)?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                self.expect(Tok::RBrace, "',' or '}'")?;
                return Ok(Initializer::List(v));
            }
        }
        Ok(Initializer::Value(self.init_value()?))
    }

    fn init_value(&mut self) -> PResult<InitValue<'a>> {
        match self.kind() {
            Tok::Ident => {
                let name = self.text();
                self.bump();
                let (name, generic) = if name == "generic" && self.kind() == Tok::LParen {
                    self.bump();
                    let n = self.expect_ident("a symbol")?;
                    self.expect(Tok::RParen, "')'")?;
                    (n, true)
                } else {
                    (name, false)
                };
                let offset = match self.kind() {
                    Tok::Plus => {
                        self.bump();
                        self.i64_value("an offset")?
                    }
                    Tok::Minus => {
                        self.bump();
                        self.u64_value("an offset")?.wrapping_neg() as i64
                    }
                    _ => 0,
                };
                Ok(InitValue::Addr {
                    name,
                    offset,
                    generic,
                })
            }
            _ => Ok(match self.int_operand()? {
                Operand::Imm(v) => InitValue::Int(v),
                Operand::UImm(v) => InitValue::UInt(v),
                Operand::FImm32(v) => InitValue::F32(v),
                Operand::FImm64(v) => InitValue::F64(v),
                _ => return Err(()),
            }),
        }
    }

    // ---------------------------------------------------------------- statements

    /// Parses statements up to and including the closing `}` (the `{` is already consumed).
    fn block(&mut self, open: Span) -> Vec<Statement<'a>> {
        // Statements are collected on a scratch stack shared by all nesting levels and moved
        // into an exactly-sized Vec at the end (no growth reallocations of the AST).
        let start = self.scratch.len();
        loop {
            match self.kind() {
                Tok::RBrace => {
                    self.bump();
                    break;
                }
                Tok::Eof => {
                    self.error(
                        ErrorKind::Unbalanced,
                        open,
                        "unclosed '{': expected '}' before end of input",
                    );
                    break;
                }
                Tok::LBrace => {
                    let sp = self.span();
                    self.bump();
                    if self.depth >= MAX_DEPTH {
                        self.error(ErrorKind::TooDeep, sp, "blocks nested too deeply");
                        // skip the rest of this block, balanced
                        let mut d = 1u32;
                        while d > 0 {
                            match self.kind() {
                                Tok::Eof => break,
                                Tok::LBrace => d += 1,
                                Tok::RBrace => d -= 1,
                                _ => {}
                            }
                            self.bump();
                        }
                        continue;
                    }
                    self.depth += 1;
                    let mark = self.local_regs.len();
                    let inner = self.block(sp);
                    self.local_regs.truncate(mark);
                    self.depth -= 1;
                    self.scratch.push(Statement::Scope(inner));
                }
                Tok::Semi => self.bump(),
                Tok::Error => {
                    // Report a run of stray characters once and resume right after it.
                    self.expected("a statement");
                    while self.kind() == Tok::Error {
                        self.bump();
                    }
                }
                _ => {
                    if self.statement().is_err() {
                        self.recover_stmt();
                    }
                }
            }
        }
        let start = start.min(self.scratch.len());
        self.scratch.drain(start..).collect()
    }

    fn statement(&mut self) -> PResult<()> {
        match self.kind() {
            Tok::Ident if self.kind_at(1) == Tok::Colon => {
                let sp = self.span();
                let name = self.text();
                self.bump();
                self.bump();
                if self.kind() == Tok::Dot {
                    match self.text() {
                        ".branchtargets" | ".calltargets" => {
                            let branch = self.text() == ".branchtargets";
                            self.bump();
                            let mut targets = Vec::new();
                            loop {
                                targets.push(self.expect_ident("a label")?);
                                if !self.eat(Tok::Comma) {
                                    break;
                                }
                            }
                            let end = self.expect(Tok::Semi, "';'")?;
                            let t = TargetList {
                                name,
                                targets,
                                span: sp.to(end),
                            };
                            self.scratch.push(if branch {
                                Statement::BranchTargets(t)
                            } else {
                                Statement::CallTargets(t)
                            });
                            return Ok(());
                        }
                        ".callprototype" => {
                            let p = self.call_prototype(name, sp)?;
                            self.scratch.push(Statement::CallPrototype(p));
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                self.scratch
                    .push(Statement::Label(name, Span::new(sp.start, self.prev_end())));
                Ok(())
            }
            Tok::Ident | Tok::At => {
                if let Some(i) = self.instruction()? {
                    self.scratch.push(Statement::Instruction(i));
                }
                Ok(())
            }
            Tok::Dot => self.directive_statement(),
            _ => {
                self.expected("a statement");
                Err(())
            }
        }
    }

    fn directive_statement(&mut self) -> PResult<()> {
        let start = self.span();
        let d = self.text();
        match d {
            ".reg" => {
                self.bump();
                let r = self.reg_decl(start)?;
                self.scratch.push(Statement::RegDecl(r));
            }
            ".local" | ".shared" | ".param" | ".const" | ".global" => {
                let mut out = Vec::new();
                self.variable(None, start, &mut out)?;
                self.scratch.extend(out.into_iter().map(Statement::VarDecl));
            }
            ".loc" => {
                self.bump();
                let file = self.u32_value("a file index")?;
                let line = self.u32_value("a line number")?;
                let col = self.u32_value("a column number")?;
                let mut function_name = None;
                let mut inlined_at = None;
                while self.eat(Tok::Comma) {
                    match (self.kind(), self.text()) {
                        (Tok::Ident, "function_name") => {
                            self.bump();
                            function_name = Some(self.expect_ident("a symbol")?);
                        }
                        (Tok::Ident, "inlined_at") => {
                            self.bump();
                            let f = self.u32_value("a file index")?;
                            let l = self.u32_value("a line number")?;
                            let c = self.u32_value("a column number")?;
                            inlined_at = Some((f, l, c));
                        }
                        _ => {
                            self.expected("'function_name' or 'inlined_at'");
                            return Err(());
                        }
                    }
                }
                self.scratch.push(Statement::Loc(Loc {
                    file,
                    line,
                    col,
                    function_name,
                    inlined_at,
                    span: start.to(Span::new(0, self.prev_end())),
                }));
            }
            ".pragma" => {
                self.bump();
                let p = self.pragma(start)?;
                self.scratch.push(Statement::Pragma(p));
            }
            _ => {
                self.error(
                    ErrorKind::UnknownDirective,
                    start,
                    format!("unknown directive '{d}' in function body"),
                );
                return Err(());
            }
        }
        Ok(())
    }

    fn reg_decl(&mut self, start: Span) -> PResult<RegDecl<'a>> {
        let (vec, ty) = self.decl_modifiers("register", |_, _| Ok(false))?;
        let mut names = SmallVec::new();
        loop {
            let name = self.expect_ident("a register name")?;
            let mut count = None;
            if self.kind() == Tok::Lt {
                self.bump();
                let sp = self.span();
                let ok = matches!(self.kind(), Tok::DecInt | Tok::HexInt | Tok::BinInt);
                let n = if ok {
                    parse_int(self.kind(), self.text())
                } else {
                    None
                };
                match n.and_then(|(v, _)| u32::try_from(v).ok()) {
                    Some(n) if n > 0 => {
                        self.bump();
                        count = Some(n);
                    }
                    _ => {
                        let t = self.text();
                        self.error(
                            ErrorKind::BadRegisterRange,
                            sp,
                            format!("bad register range '<{t}>': expected a positive count"),
                        );
                        return Err(());
                    }
                }
                self.expect(Tok::Gt, "'>'")?;
            }
            if !name.starts_with('%') {
                self.local_regs.push(name);
            }
            names.push(RegName { name, count });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let end = self.expect(Tok::Semi, "';'")?;
        Ok(RegDecl {
            ty,
            vec,
            names,
            span: start.to(end),
        })
    }

    // ---------------------------------------------------------------- instructions

    fn instruction(&mut self) -> PResult<Option<Instruction<'a>>> {
        let start = self.span();
        let mut guard = None;
        if self.eat(Tok::At) {
            let negated = self.eat(Tok::Bang);
            let reg = self.expect_ident("a guard predicate")?;
            guard = Some(Guard { reg, negated });
        }
        let head_span = self.span();
        let head = self.expect_ident("an instruction")?;
        // The mnemonic's `.xxx` parts are the Dot tokens that follow.
        let first_mod = self.pos;
        let mut n_mods = 0usize;
        while self.kind_at(n_mods) == Tok::Dot {
            n_mods += 1;
            if n_mods > MAX_MODS {
                self.error(
                    ErrorKind::UnknownModifier,
                    head_span,
                    format!("too many modifiers on '{head}'"),
                );
                return Err(());
            }
        }
        let (op, consumed) = match self.lookup_opcode(head, n_mods) {
            Some(x) => x,
            None => {
                let sp = head_span;
                self.error(
                    ErrorKind::UnknownInstruction,
                    sp,
                    format!("unknown instruction '{head}'"),
                );
                return Err(());
            }
        };
        let mut mods = Modifiers::EMPTY;
        let (cats, flags) = allowed(op);
        let mut bad = false;
        for i in consumed..n_mods {
            let Some(tok) = self.toks.get(first_mod + i) else {
                break;
            };
            let sp = tok.span();
            let text = self.src.get(sp.range()).unwrap_or("");
            let m = text.get(1..).unwrap_or("");
            let name = op.name();
            let msg = match apply_modifier(op, &mut mods, m) {
                Ok(c) => {
                    let ok = if c.cat == cat::FLAG {
                        flags.contains(c.flag)
                    } else {
                        cats & c.cat != 0
                    };
                    (!ok).then(|| format!("modifier '{text}' is not valid for '{name}'"))
                }
                Err(ModError::Unknown) => Some(format!("unknown modifier '{text}' for '{name}'")),
                Err(ModError::Duplicate) => Some(format!(
                    "duplicate or conflicting modifier '{text}' for '{name}'"
                )),
            };
            if let Some(msg) = msg {
                self.error(ErrorKind::UnknownModifier, sp, msg);
                bad = true;
            }
        }
        for _ in 0..n_mods {
            self.bump();
        }
        let mut operands: SmallVec<[Operand<'a>; 4]> = SmallVec::new();
        if self.kind() != Tok::Semi {
            loop {
                operands.push(self.operand(true)?);
                match self.kind() {
                    Tok::Comma => self.bump(),
                    Tok::Semi => break,
                    _ => {
                        if self.newline_before() || self.kind() == Tok::RBrace {
                            let e = self.prev_end();
                            self.error(
                                ErrorKind::Expected,
                                Span::new(e, e),
                                "missing ';' after instruction",
                            );
                            if bad {
                                return Ok(None);
                            }
                            let span = start.to(Span::new(0, e));
                            return Ok(Some(Instruction {
                                guard,
                                op,
                                mods,
                                operands,
                                span,
                            }));
                        }
                        self.expected("',' or ';'");
                        return Err(());
                    }
                }
            }
        }
        let end = self.span();
        self.bump(); // ';'
        if bad {
            // Modifier errors are already reported and the statement is consumed.
            return Ok(None);
        }
        Ok(Some(Instruction {
            guard,
            op,
            mods,
            operands,
            span: start.to(end),
        }))
    }

    /// Finds the opcode for `head` followed by `n_mods` dot tokens, gluing compound
    /// mnemonics longest-first. Returns the opcode and how many dot tokens it consumed.
    fn lookup_opcode(&self, head: &str, n_mods: usize) -> Option<(Opcode, usize)> {
        if Opcode::has_compounds(head) && n_mods > 0 {
            let part = |i: usize| if i < n_mods { self.text_at(i) } else { "" };
            if let Some(found) = compound_opcode(head, [part(0), part(1), part(2), part(3)]) {
                return Some(found);
            }
        }
        Opcode::from_mnemonic(head).map(|op| (op, 0))
    }

    /// Parses one operand. `allow_compound` permits vectors/lists/brackets (not nested).
    fn operand(&mut self, allow_compound: bool) -> PResult<Operand<'a>> {
        match self.kind() {
            Tok::Ident => Ok(self.name_operand()),
            Tok::Underscore => {
                self.bump();
                Ok(Operand::Sink)
            }
            Tok::Bang => {
                self.bump();
                let r = self.expect_ident("a predicate register")?;
                Ok(Operand::Negated(r))
            }
            Tok::Minus
            | Tok::DecInt
            | Tok::HexInt
            | Tok::BinInt
            | Tok::F32Bits
            | Tok::F64Bits
            | Tok::Float => self.int_operand(),
            Tok::LBrace if allow_compound => {
                self.bump();
                let v = self.operand_seq(Tok::RBrace, "'}'")?;
                Ok(Operand::Vector(v))
            }
            Tok::LParen if allow_compound => {
                self.bump();
                let v = self.operand_seq(Tok::RParen, "')'")?;
                Ok(Operand::List(v))
            }
            Tok::LBracket if allow_compound => self.bracket(),
            _ => {
                self.expected("an operand");
                Err(())
            }
        }
    }

    fn operand_seq(&mut self, close: Tok, what: &str) -> PResult<Box<[Operand<'a>]>> {
        let mut v: SmallVec<[Operand<'a>; 8]> = SmallVec::new();
        if self.eat(close) {
            return Ok(Box::new([]));
        }
        loop {
            v.push(self.operand(false)?);
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(close) {
                return Ok(v.into_vec().into_boxed_slice());
            }
            self.expected(what);
            return Err(());
        }
    }

    fn name_operand(&mut self) -> Operand<'a> {
        let name = self.text();
        self.bump();
        if name.starts_with('%') {
            if let Some(sr) = special_reg(name) {
                let mut dim = None;
                if sr.has_components()
                    && self.kind() == Tok::Dot
                    && let Some(d) = Dim::from_str_dim(self.text().get(1..).unwrap_or(""))
                {
                    self.bump();
                    dim = Some(d);
                }
                return Operand::SpecialReg(sr, dim);
            }
            if self.kind() == Tok::Pipe && self.kind_at(1) == Tok::Ident {
                self.bump();
                let b = self.text();
                self.bump();
                return Operand::PredPair(name, b);
            }
            return Operand::Reg(name);
        }
        let is_reg = self.local_regs.contains(name);
        if !is_reg && name == WARP_SZ {
            return Operand::Imm(WARP_SIZE);
        }
        if is_reg {
            if self.kind() == Tok::Pipe && self.kind_at(1) == Tok::Ident {
                self.bump();
                let b = self.text();
                self.bump();
                return Operand::PredPair(name, b);
            }
            Operand::Reg(name)
        } else {
            Operand::Symbol(name)
        }
    }

    /// `[base]`, `[base+off]`, `[base-off]`, `[imm]`, or `[a, {b, c}]`.
    fn bracket(&mut self) -> PResult<Operand<'a>> {
        let open = self.span();
        self.bump();
        let first = match self.kind() {
            Tok::LBrace => {
                self.bump();
                Operand::Vector(self.operand_seq(Tok::RBrace, "'}'")?)
            }
            _ => self.operand(false)?,
        };
        match self.kind() {
            Tok::RBracket | Tok::Plus | Tok::Minus => {
                let mut offset = 0i64;
                while matches!(self.kind(), Tok::Plus | Tok::Minus) {
                    let neg = self.kind() == Tok::Minus;
                    self.bump();
                    let sp = self.span();
                    let v = match self.int_operand()? {
                        Operand::Imm(v) => v,
                        Operand::UImm(v) => v as i64,
                        _ => {
                            self.error(ErrorKind::Invalid, sp, "expected an integer offset");
                            return Err(());
                        }
                    };
                    let v = if neg { v.wrapping_neg() } else { v };
                    offset = offset.wrapping_add(v);
                }
                self.expect(Tok::RBracket, "']'")?;
                let base = match first {
                    Operand::Reg(r) => AddrBase::Reg(r),
                    Operand::Symbol(s) => AddrBase::Symbol(s),
                    Operand::Imm(v) => AddrBase::Imm(v),
                    Operand::UImm(v) => AddrBase::Imm(v as i64),
                    _ => {
                        self.error(ErrorKind::Invalid, open, "invalid address base");
                        return Err(());
                    }
                };
                let (base, offset) = match base {
                    AddrBase::Imm(v) => (AddrBase::Imm(v.wrapping_add(offset)), 0),
                    b => (b, offset),
                };
                Ok(Operand::Address(Address { base, offset }))
            }
            Tok::Comma => {
                let mut v: SmallVec<[Operand<'a>; 4]> = SmallVec::new();
                v.push(first);
                while self.eat(Tok::Comma) {
                    if self.kind() == Tok::LBrace {
                        self.bump();
                        v.push(Operand::Vector(self.operand_seq(Tok::RBrace, "'}'")?));
                    } else {
                        v.push(self.operand(false)?);
                    }
                }
                self.expect(Tok::RBracket, "']'")?;
                Ok(Operand::AddressList(v.into_vec().into_boxed_slice()))
            }
            _ => {
                self.expected("']'");
                Err(())
            }
        }
    }
}

/// Register names without `%` declared in the enclosing scopes (inline asm writes
/// `.reg .pred p;`). A stack for scope exits plus a count map for O(1) lookups.
#[derive(Default)]
struct LocalRegs<'a> {
    stack: Vec<&'a str>,
    counts: std::collections::HashMap<&'a str, u32, std::hash::BuildHasherDefault<FxHasher>>,
}

/// The FxHash function (rustc's): fast for short string keys; no DoS resistance needed here
/// beyond what the bounded input size gives.
#[derive(Default)]
struct FxHasher {
    hash: u64,
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            let word = u64::from_le_bytes(buf);
            self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl<'a> LocalRegs<'a> {
    fn len(&self) -> usize {
        self.stack.len()
    }

    fn clear(&mut self) {
        self.stack.clear();
        self.counts.clear();
    }

    fn push(&mut self, name: &'a str) {
        self.stack.push(name);
        *self.counts.entry(name).or_insert(0) += 1;
    }

    fn truncate(&mut self, len: usize) {
        while self.stack.len() > len {
            let Some(name) = self.stack.pop() else { break };
            if let Some(c) = self.counts.get_mut(name) {
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(name);
                }
            }
        }
    }

    #[inline]
    fn contains(&self, name: &str) -> bool {
        !self.stack.is_empty() && self.counts.contains_key(name)
    }
}

/// Matches compound mnemonics (`cp.async.bulk.tensor`, `bar.warp.sync`, ...) given the head
/// and up to four following parts (with their dots; `""` when absent). Longest match wins.
fn compound_opcode(head: &str, p: [&str; 4]) -> Option<(Opcode, usize)> {
    use Opcode::*;
    let r = match (head, p[0], p[1], p[2], p[3]) {
        ("cp", ".async", ".bulk", ".prefetch", ".tensor") => (CpAsyncBulkPrefetchTensor, 4),
        ("cp", ".reduce", ".async", ".bulk", ".tensor") => (CpReduceAsyncBulkTensor, 4),
        ("cp", ".async", ".bulk", ".tensor", _) => (CpAsyncBulkTensor, 3),
        ("cp", ".async", ".bulk", ".commit_group", _) => (CpAsyncBulkCommitGroup, 3),
        ("cp", ".async", ".bulk", ".wait_group", _) => (CpAsyncBulkWaitGroup, 3),
        ("cp", ".async", ".bulk", ".prefetch", _) => (CpAsyncBulkPrefetch, 3),
        ("cp", ".async", ".mbarrier", ".arrive", _) => (CpAsyncMbarrierArrive, 3),
        ("cp", ".reduce", ".async", ".bulk", _) => (CpReduceAsyncBulk, 3),
        ("cp", ".async", ".bulk", _, _) => (CpAsyncBulk, 2),
        ("cp", ".async", ".commit_group", _, _) => (CpAsyncCommitGroup, 2),
        ("cp", ".async", ".wait_group", _, _) => (CpAsyncWaitGroup, 2),
        ("cp", ".async", ".wait_all", _, _) => (CpAsyncWaitAll, 2),
        ("cp", ".async", _, _, _) => (CpAsync, 1),
        ("bar", ".warp", ".sync", _, _) => (BarWarpSync, 2),
        ("barrier", ".cluster", ".arrive", _, _) => (BarrierClusterArrive, 2),
        ("barrier", ".cluster", ".wait", _, _) => (BarrierClusterWait, 2),
        ("wmma", ".load", ".a", _, _) => (WmmaLoadA, 2),
        ("wmma", ".load", ".b", _, _) => (WmmaLoadB, 2),
        ("wmma", ".load", ".c", _, _) => (WmmaLoadC, 2),
        ("wmma", ".store", ".d", _, _) => (WmmaStoreD, 2),
        ("wgmma", ".mma_async", ".sp", _, _) => (WgmmaMmaAsyncSp, 2),
        _ => {
            let name = match (head, p[0]) {
                ("st", ".async") => "st.async",
                ("st", ".bulk") => "st.bulk",
                ("cvt", ".pack") => "cvt.pack",
                ("brx", ".idx") => "brx.idx",
                ("red", ".async") => "red.async",
                ("tensormap", ".replace") => "tensormap.replace",
                ("tensormap", ".cp_fenceproxy") => "tensormap.cp_fenceproxy",
                ("mma", ".sp") => "mma.sp",
                ("mma", ".sp::ordered_metadata") => "mma.sp::ordered_metadata",
                ("wmma", ".mma") => "wmma.mma",
                ("wgmma", ".fence") => "wgmma.fence",
                ("wgmma", ".commit_group") => "wgmma.commit_group",
                ("wgmma", ".wait_group") => "wgmma.wait_group",
                ("wgmma", ".mma_async") => "wgmma.mma_async",
                ("griddepcontrol", ".launch_dependents") => "griddepcontrol.launch_dependents",
                ("griddepcontrol", ".wait") => "griddepcontrol.wait",
                ("multimem", ".ld_reduce") => "multimem.ld_reduce",
                ("multimem", ".st") => "multimem.st",
                ("multimem", ".red") => "multimem.red",
                ("mbarrier", ".init") => "mbarrier.init",
                ("mbarrier", ".inval") => "mbarrier.inval",
                ("mbarrier", ".arrive") => "mbarrier.arrive",
                ("mbarrier", ".arrive_drop") => "mbarrier.arrive_drop",
                ("mbarrier", ".expect_tx") => "mbarrier.expect_tx",
                ("mbarrier", ".complete_tx") => "mbarrier.complete_tx",
                ("mbarrier", ".test_wait") => "mbarrier.test_wait",
                ("mbarrier", ".try_wait") => "mbarrier.try_wait",
                ("mbarrier", ".pending_count") => "mbarrier.pending_count",
                _ => return None,
            };
            return Opcode::from_mnemonic(name).map(|op| (op, 1));
        }
    };
    Some(r)
}

/// Special register lookup, skipping the common `%r12`-style names quickly.
#[inline]
fn special_reg(name: &str) -> Option<SpecialReg> {
    let b = name.as_bytes();
    if b.last().is_some_and(u8::is_ascii_digit)
        && !(name.starts_with("%envreg")
            || name.starts_with("%pm")
            || name.starts_with("%clock64")
            || name.starts_with("%reserved"))
    {
        return None;
    }
    SpecialReg::from_name(name)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every opcode is reachable from its own mnemonic text.
    /// `WARP_SZ`, PTX's predefined warp-size constant, parses as the immediate 32 in plain and
    /// address-offset positions; a `.reg` of that name declared by inline asm stays a register.
    #[test]
    fn warp_sz_is_the_predefined_constant_32() {
        let src = ".version 8.5\n.target sm_90\n.entry k() {\n.reg .b32 %r<3>;\n\
                   mov.u32 %r1, WARP_SZ;\nadd.s32 %r2, %r1, WARP_SZ;\n\
                   { .reg .b32 WARP_SZ; mov.u32 WARP_SZ, %r1; }\n}";
        let (m, errors) = parse(src);
        assert!(errors.is_empty(), "{errors:?}");
        let body = m.functions().next().unwrap().body.as_deref().unwrap();
        let ops: Vec<&[Operand]> = body
            .iter()
            .filter_map(|s| match s {
                Statement::Instruction(i) => Some(&i.operands[..]),
                _ => None,
            })
            .collect();
        assert_eq!(ops[0][1], Operand::Imm(32));
        assert_eq!(ops[1][2], Operand::Imm(32));
        let Some(Statement::Scope(inner)) = body.last() else {
            panic!("no scope: {body:?}")
        };
        let Some(Statement::Instruction(i)) = inner.last() else {
            panic!("no instruction: {inner:?}")
        };
        assert_eq!(i.operands[0], Operand::Reg("WARP_SZ"));
    }

    #[test]
    fn every_opcode_round_trips_through_its_mnemonic() {
        for &op in Opcode::ALL {
            let name = op.name();
            let mut parts = name.split('.');
            let head = parts.next().unwrap();
            let rest: Vec<String> = parts.map(|p| format!(".{p}")).collect();
            let found = if rest.is_empty() {
                Opcode::from_mnemonic(head).map(|o| (o, 0))
            } else {
                let get = |i: usize| rest.get(i).map_or("", String::as_str);
                compound_opcode(head, [get(0), get(1), get(2), get(3)])
            };
            assert_eq!(found, Some((op, rest.len())), "{name}");
            let src = format!(".version 8.5\n.target sm_90\n.entry k() {{ {name}; }}");
            let (m, errors) = parse(&src);
            assert!(errors.is_empty(), "{name}: {errors:?}");
            let f = m.functions().next().unwrap();
            match f.body.as_deref() {
                Some([Statement::Instruction(i)]) => assert_eq!(i.op, op),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}
