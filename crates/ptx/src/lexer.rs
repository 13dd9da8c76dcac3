//! Tokenizer (logos). Tokens carry no payload: the text is sliced from the source
//! by span, and each [`Token`] is 8 bytes so that a whole module's token slice stays small.

use logos::Logos;

use crate::span::Span;

/// Token kinds. Classification of dotted names (`.global`, `.u32`, `.entry`...) is left to
/// the parser: the lexer only produces [`Tok::Dot`].
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[logos(skip r"[ \t\r\n\f\v]+")]
pub enum Tok {
    /// Identifier, register (`%r1`), label (`$L__BB0_1`).
    #[regex(r"[a-zA-Z][a-zA-Z0-9_$]*")]
    #[regex(r"[_$%][a-zA-Z0-9_$]+")]
    Ident,
    /// `.name` — directive, type, state space or instruction modifier
    /// (may contain `::`, e.g. `.shared::cta`, `.L2::64B`; may start with a digit: `.2d`).
    #[regex(r"\.[a-zA-Z0-9_$]+(::[a-zA-Z0-9_$]+)*")]
    Dot,
    /// Decimal (or octal with a leading 0) integer, optional `U` suffix.
    #[regex(r"[0-9]+U?")]
    DecInt,
    /// `0x1F`, optional `U` suffix.
    #[regex(r"0[xX][0-9a-fA-F]+U?")]
    HexInt,
    /// `0b101`, optional `U` suffix.
    #[regex(r"0[bB][01]+U?")]
    BinInt,
    /// `0f3F800000` single-precision bit pattern.
    #[regex(r"0[fF][0-9a-fA-F]{8}")]
    F32Bits,
    /// `0d3FF0000000000000` double-precision bit pattern.
    #[regex(r"0[dD][0-9a-fA-F]{16}")]
    F64Bits,
    /// Decimal floating literal `1.5`, `2e10`, `8.5` (also `.version 8.5`).
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    Float,
    /// A malformed number such as `0f3F80` or `12abc`.
    #[regex(r"[0-9][0-9a-zA-Z_$]*", priority = 1)]
    BadNumber,
    /// `"..."`
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    Str,
    /// A string without its closing quote on the same line.
    #[regex(r#""([^"\\\n]|\\[^\n])*"#, priority = 1)]
    UnterminatedStr,
    /// `// ...` to the end of the line (skipped).
    #[token("//", line_comment)]
    LineComment,
    /// `/* ... */`; filtered out by [`lex`] (an unterminated one is an error).
    #[token("/*", block_comment)]
    BlockComment,
    #[token("_")]
    Underscore,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("!")]
    Bang,
    #[token("@")]
    At,
    #[token("|")]
    Pipe,
    #[token("=")]
    Eq,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("~")]
    Tilde,
    #[token("&")]
    Amp,
    #[token("^")]
    Caret,
    #[token("?")]
    Question,
    /// Bytes that start no token.
    Error,
    /// End of input (never stored; returned by the parser past the end).
    Eof,
}

fn line_comment(lex: &mut logos::Lexer<Tok>) -> logos::Skip {
    let rest = lex.remainder();
    lex.bump(rest.find('\n').unwrap_or(rest.len()));
    logos::Skip
}

fn block_comment(lex: &mut logos::Lexer<Tok>) {
    let rest = lex.remainder();
    match rest.find("*/") {
        Some(i) => lex.bump(i + 2),
        None => lex.bump(rest.len()),
    }
}

/// A token: kind plus byte span, packed into 8 bytes (length up to 16 MiB; longer
/// tokens are reported as errors by [`lex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    start: u32,
    /// low 24 bits: length; high 8 bits: kind.
    packed: u32,
}

const KINDS: [Tok; Tok::Eof as usize + 1] = {
    let mut k = [Tok::Error; Tok::Eof as usize + 1];
    k[Tok::Ident as usize] = Tok::Ident;
    k[Tok::Dot as usize] = Tok::Dot;
    k[Tok::DecInt as usize] = Tok::DecInt;
    k[Tok::HexInt as usize] = Tok::HexInt;
    k[Tok::BinInt as usize] = Tok::BinInt;
    k[Tok::F32Bits as usize] = Tok::F32Bits;
    k[Tok::F64Bits as usize] = Tok::F64Bits;
    k[Tok::Float as usize] = Tok::Float;
    k[Tok::BadNumber as usize] = Tok::BadNumber;
    k[Tok::Str as usize] = Tok::Str;
    k[Tok::UnterminatedStr as usize] = Tok::UnterminatedStr;
    k[Tok::LineComment as usize] = Tok::LineComment;
    k[Tok::BlockComment as usize] = Tok::BlockComment;
    k[Tok::Underscore as usize] = Tok::Underscore;
    k[Tok::Comma as usize] = Tok::Comma;
    k[Tok::Semi as usize] = Tok::Semi;
    k[Tok::Colon as usize] = Tok::Colon;
    k[Tok::LParen as usize] = Tok::LParen;
    k[Tok::RParen as usize] = Tok::RParen;
    k[Tok::LBracket as usize] = Tok::LBracket;
    k[Tok::RBracket as usize] = Tok::RBracket;
    k[Tok::LBrace as usize] = Tok::LBrace;
    k[Tok::RBrace as usize] = Tok::RBrace;
    k[Tok::Lt as usize] = Tok::Lt;
    k[Tok::Gt as usize] = Tok::Gt;
    k[Tok::Plus as usize] = Tok::Plus;
    k[Tok::Minus as usize] = Tok::Minus;
    k[Tok::Bang as usize] = Tok::Bang;
    k[Tok::At as usize] = Tok::At;
    k[Tok::Pipe as usize] = Tok::Pipe;
    k[Tok::Eq as usize] = Tok::Eq;
    k[Tok::Star as usize] = Tok::Star;
    k[Tok::Slash as usize] = Tok::Slash;
    k[Tok::Tilde as usize] = Tok::Tilde;
    k[Tok::Amp as usize] = Tok::Amp;
    k[Tok::Caret as usize] = Tok::Caret;
    k[Tok::Question as usize] = Tok::Question;
    k[Tok::Error as usize] = Tok::Error;
    k[Tok::Eof as usize] = Tok::Eof;
    k
};

const MAX_TOKEN_LEN: usize = (1 << 24) - 1;

impl Token {
    #[inline]
    fn new(kind: Tok, start: u32, len: u32) -> Token {
        Token {
            start,
            packed: (len & 0x00ff_ffff) | ((kind as u32) << 24),
        }
    }
    /// The token kind.
    #[inline]
    pub fn kind(self) -> Tok {
        // `packed >> 24` is always a valid discriminant (set from a `Tok`); the table
        // lookup avoids unsafe transmutes.
        KINDS
            .get((self.packed >> 24) as usize)
            .copied()
            .unwrap_or(Tok::Error)
    }
    /// Byte span of the token.
    #[inline]
    pub fn span(self) -> Span {
        Span::new(
            self.start,
            self.start.wrapping_add(self.packed & 0x00ff_ffff),
        )
    }
}

/// A lexical problem (the token is still emitted, as `Error`/`BadNumber`/... ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexProblem {
    UnterminatedComment,
    TooLong,
}

/// An incremental tokenizer: produces [`Token`]s in chunks, so a parser can keep only a
/// small window of tokens alive instead of the whole token vector.
pub struct TokenStream<'a> {
    lexer: logos::Lexer<'a, Tok>,
    done: bool,
}

impl<'a> TokenStream<'a> {
    /// A stream over `src` (which must be shorter than 4 GiB).
    pub fn new(src: &'a str) -> Self {
        TokenStream {
            lexer: Tok::lexer(src),
            done: false,
        }
    }

    /// True once the end of input was reached.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Appends up to `n` tokens to `out` (comments dropped; problems reported in `problems`).
    pub fn fill(&mut self, out: &mut Vec<Token>, n: usize, problems: &mut Vec<(LexProblem, Span)>) {
        let mut pushed = 0usize;
        while pushed < n {
            let Some(res) = self.lexer.next() else {
                self.done = true;
                return;
            };
            let r = self.lexer.span();
            let start = r.start as u32;
            let len = r.end.saturating_sub(r.start);
            let kind = res.unwrap_or(Tok::Error);
            if kind == Tok::BlockComment {
                if !self.lexer.slice().ends_with("*/") || len < 4 {
                    problems.push((LexProblem::UnterminatedComment, Span::new(start, start + 2)));
                }
                continue;
            }
            if len > MAX_TOKEN_LEN {
                problems.push((
                    LexProblem::TooLong,
                    Span::new(start, start.saturating_add(1)),
                ));
                out.push(Token::new(Tok::Error, start, 1));
            } else {
                out.push(Token::new(kind, start, len as u32));
            }
            pushed += 1;
        }
    }
}

/// Tokenizes all of `src` (which must be shorter than 4 GiB). Comments are dropped; an
/// unterminated block comment and over-long tokens are reported in the second vector.
pub fn lex(src: &str) -> (Vec<Token>, Vec<(LexProblem, Span)>) {
    let mut toks = Vec::with_capacity(src.len() / 4 + 16);
    let mut problems = Vec::new();
    let mut ts = TokenStream::new(src);
    while !ts.is_done() {
        ts.fill(&mut toks, usize::MAX, &mut problems);
    }
    (toks, problems)
}
