//! # warpscope-ptx
//!
//! A fast, zero-copy PTX lexer and parser producing a span-carrying AST
//! ([`ast::Module`]) with recoverable, codespan-rendered diagnostics, and a
//! printer that turns the AST back into valid PTX text.
//!
//! ```
//! use warpscope_ptx::{parse, render_errors, Opcode, Operand, Statement};
//!
//! let src = r#"
//! .version 8.5
//! .target sm_90
//! .address_size 64
//! .visible .entry k(.param .u64 p)
//! {
//!     .reg .b32 %r<2>;
//!     mov.u32 %r1, %tid.x;
//!     ret;
//! }
//! "#;
//! let (module, errors) = parse(src);
//! assert!(errors.is_empty(), "{}", render_errors("k.ptx", src, &errors));
//! let k = module.functions().next().unwrap();
//! let body = k.body.as_ref().unwrap();
//! let Statement::Instruction(mov) = &body[1] else { panic!() };
//! assert_eq!(mov.op, Opcode::Mov);
//! assert!(matches!(mov.operands[1], Operand::SpecialReg(..)));
//! // The printer produces PTX that parses back to the same AST.
//! let printed = module.to_string();
//! assert!(parse(&printed).1.is_empty());
//! ```
//!
//! Modules: [`lexer`] (logos tokens), [`parser`] (recursive descent with error recovery),
//! [`ast`], [`opcode`] and [`modifiers`] (typed instruction data), [`error`] (diagnostics),
//! [`print`] (AST → PTX), [`span`] and [`source`] (byte spans, lazy line/column lookup).

pub mod ast;
mod classify;
pub mod error;
pub mod lexer;
pub mod modifiers;
pub mod opcode;
pub mod parser;
pub mod print;
pub mod source;
pub mod span;

pub use ast::*;
pub use error::{ErrorKind, ParseError, render_errors};
pub use modifiers::*;
pub use opcode::Opcode;
pub use parser::parse;
pub use print::Mnemonic;
pub use source::{LineCol, LineIndex, Source};
pub use span::Span;
