//! # warpscope-ptx
//!
//! A fast, zero-copy PTX lexer and parser producing a span-carrying AST
//! ([`ast::Module`]) with recoverable, codespan-rendered diagnostics, and a
//! printer that turns the AST back into valid PTX text.

pub mod ast;
pub mod modifiers;
pub mod opcode;
pub mod source;
pub mod span;

pub use ast::*;
pub use modifiers::*;
pub use opcode::Opcode;
pub use span::Span;
mod classify;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod print;

pub use error::{ErrorKind, ParseError, render_errors};
pub use parser::parse;
