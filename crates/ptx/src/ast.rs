//! The PTX abstract syntax tree. It borrows names from the source text (`'a`).
//!
//! Spans are byte ranges into the source; use [`strip_spans`] (or [`Module::strip_spans`])
//! to compare trees structurally.

use smallvec::SmallVec;

use crate::modifiers::kw_enum;
pub use crate::modifiers::{Modifiers, StateSpace, Type};
pub use crate::opcode::Opcode;
use crate::span::Span;

/// A parsed PTX module (one `.ptx` file).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module<'a> {
    /// `.version major.minor`.
    pub version: (u32, u32),
    /// `.target` entries, e.g. `["sm_90a"]` or `["sm_80", "debug"]`.
    pub target: Vec<&'a str>,
    /// `.address_size` (32 or 64; 0 when absent).
    pub address_size: u32,
    /// Top-level items in source order (including `.file` directives, also collected in `files`).
    pub items: Vec<Item<'a>>,
    /// All `.file N "path"` directives, in source order (copies of the `Item::File` entries).
    pub files: Vec<FileDecl<'a>>,
}

/// A module-scope item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item<'a> {
    /// `.entry` or `.func` declaration or definition.
    Function(Function<'a>),
    /// Module-scope variable (`.global`, `.shared`, `.const`, `.local`, texref...).
    Variable(Variable<'a>),
    /// `.pragma "..." ;`
    Pragma(Pragma<'a>),
    /// Module-scope `name: .callprototype ...;`
    CallPrototype(CallPrototype<'a>),
    /// `.section .debug_xxx { ... }`, kept raw.
    DebugSection(DebugSection<'a>),
    /// `.file N "path" [, timestamp, size]`.
    File(FileDecl<'a>),
}

/// `.file index "path" [, timestamp, size]` (PTX ISA §11.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileDecl<'a> {
    pub index: u32,
    /// Path text between the quotes (escapes left as written).
    pub path: &'a str,
    pub timestamp: Option<u64>,
    pub size: Option<u64>,
    pub span: Span,
}

/// `.section name { ... }` debug section; the body is kept as raw text (PTX ISA §11.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugSection<'a> {
    /// Section name including the leading dot, e.g. `.debug_info`.
    pub name: &'a str,
    /// Raw text strictly between the braces.
    pub body: &'a str,
    pub span: Span,
}

/// `.pragma "a", "b";` (PTX ISA §11.3.6). Strings without quotes, escapes as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma<'a> {
    pub strings: SmallVec<[&'a str; 1]>,
    pub span: Span,
}

kw_enum! {
    /// Linkage directives (PTX ISA §11.5).
    Linkage { Visible = "visible", Extern = "extern", Weak = "weak", Common = "common" }
}

kw_enum! {
    /// `.entry` (kernel) or `.func` (device function) (PTX ISA §11.2).
    FunctionKind { Entry = "entry", Func = "func" }
}

/// Performance-tuning and cluster directives of a function (PTX ISA §11.4, §11.7).
/// Missing trailing dimensions of `.reqntid 128` etc. are filled with 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FunctionAttrs {
    pub reqntid: Option<[u32; 3]>,
    pub maxntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
    pub maxnctapersm: Option<u32>,
    pub maxnreg: Option<u32>,
    pub noreturn: bool,
    pub maxclusterrank: Option<u32>,
    pub explicitcluster: bool,
    pub reqnctapercluster: Option<[u32; 3]>,
    pub blocksareclusters: bool,
}

/// A function (kernel or device function).
#[derive(Clone, Debug, PartialEq)]
pub struct Function<'a> {
    pub name: &'a str,
    pub kind: FunctionKind,
    pub linkage: Option<Linkage>,
    /// Input parameters.
    pub params: Vec<Param<'a>>,
    /// Return parameters of a `.func` (`.func (.param .b32 r) f(...)`).
    pub returns: Vec<Param<'a>>,
    pub attrs: FunctionAttrs,
    /// `None` for a declaration (`.extern .func f(...);`).
    pub body: Option<Vec<Statement<'a>>>,
    /// Whole function, from the first linkage/`.entry` token to the closing brace or `;`.
    pub span: Span,
    /// Span of the name.
    pub name_span: Span,
}

/// Array dimensions of a declaration: `None` for `[]`.
pub type Dims = SmallVec<[Option<u64>; 1]>;

/// `.ptr` qualifier of a kernel parameter: `.ptr .global .align 16` (PTX ISA §5.1.6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PtrAttr {
    pub space: Option<StateSpace>,
    pub align: Option<u32>,
}

/// A function parameter, return value, or call-prototype parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param<'a> {
    /// `.param` or `.reg`.
    pub space: StateSpace,
    /// `.align N` before the type.
    pub align: Option<u32>,
    /// `.v2`/`.v4`; 1 when absent.
    pub vec: u8,
    pub ty: Type,
    /// `.ptr` attributes (kernel params only).
    pub ptr: Option<PtrAttr>,
    /// Parameter name; `_` in call prototypes.
    pub name: &'a str,
    pub dims: Dims,
    pub span: Span,
}

/// A variable declaration, module or function scope (PTX ISA §5.4).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable<'a> {
    pub linkage: Option<Linkage>,
    pub space: StateSpace,
    /// `.attribute(.managed)`.
    pub managed: bool,
    pub align: Option<u32>,
    /// `.v2`/`.v4`; 1 when absent.
    pub vec: u8,
    pub ty: Type,
    pub name: &'a str,
    pub dims: Dims,
    pub init: Option<Initializer<'a>>,
    pub span: Span,
}

/// Variable initializer (PTX ISA §5.4.4).
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer<'a> {
    /// A single value.
    Value(InitValue<'a>),
    /// `{ a, b, {c, d} }`.
    List(Vec<Initializer<'a>>),
}

/// A scalar initializer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitValue<'a> {
    Int(i64),
    UInt(u64),
    /// `0fXXXXXXXX` bits.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX` bits (decimal float literals are stored as f64 bits).
    F64(u64),
    /// `sym`, `sym+off`, `generic(sym)`, `generic(sym)+off`.
    Addr {
        name: &'a str,
        offset: i64,
        generic: bool,
    },
}

/// `name: .callprototype (.param .b32 _) _ (.param .b64 _);` (PTX ISA §11.2.5).
#[derive(Clone, Debug, PartialEq)]
pub struct CallPrototype<'a> {
    pub name: &'a str,
    pub returns: Vec<Param<'a>>,
    pub params: Vec<Param<'a>>,
    pub noreturn: bool,
    pub span: Span,
}

/// One name of a register declaration: `%r<12>` is `{ name: "%r", count: Some(12) }`,
/// declaring `%r0`..`%r11`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegName<'a> {
    pub name: &'a str,
    pub count: Option<u32>,
}

/// `.reg .b32 %r<12>;` or `.reg .pred p, q;` (PTX ISA §5.1.1).
#[derive(Clone, Debug, PartialEq)]
pub struct RegDecl<'a> {
    pub ty: Type,
    /// `.v2`/`.v4`; 1 when absent.
    pub vec: u8,
    pub names: SmallVec<[RegName<'a>; 1]>,
    pub span: Span,
}

/// `.loc file line col [, function_name sym, inlined_at file line col]` (PTX ISA §11.6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc<'a> {
    pub file: u32,
    pub line: u32,
    pub col: u32,
    /// `function_name $L__info_string0`.
    pub function_name: Option<&'a str>,
    /// `inlined_at file line col`.
    pub inlined_at: Option<(u32, u32, u32)>,
    pub span: Span,
}

/// `label: .branchtargets a, b;` or `label: .calltargets f, g;` (PTX ISA §11.2.4, §11.2.5).
#[derive(Clone, Debug, PartialEq)]
pub struct TargetList<'a> {
    pub name: &'a str,
    pub targets: Vec<&'a str>,
    pub span: Span,
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement<'a> {
    /// `name:`
    Label(&'a str, Span),
    Instruction(Instruction<'a>),
    RegDecl(RegDecl<'a>),
    /// Function-scope `.local`/`.shared`/`.param`/`.const`/`.global` variable.
    VarDecl(Variable<'a>),
    Loc(Loc<'a>),
    Pragma(Pragma<'a>),
    /// Nested `{ ... }` block (nvcc wraps call sequences and inline asm in these).
    Scope(Vec<Statement<'a>>),
    CallPrototype(CallPrototype<'a>),
    /// `label: .branchtargets ...;` (jump table for brx.idx).
    BranchTargets(TargetList<'a>),
    /// `label: .calltargets ...;` (possible targets of an indirect call).
    CallTargets(TargetList<'a>),
}

/// Instruction guard predicate `@%p` / `@!%p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard<'a> {
    pub reg: &'a str,
    pub negated: bool,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction<'a> {
    pub guard: Option<Guard<'a>>,
    pub op: Opcode,
    pub mods: Modifiers,
    /// Operands in source order (destination first). For `call`, see [`Instruction::call_parts`].
    pub operands: SmallVec<[Operand<'a>; 4]>,
    /// From the guard (or mnemonic) to the `;` inclusive.
    pub span: Span,
}

/// The parts of a `call` instruction:
/// `call.uni (ret), target, (args)[, prototype | calltargets];`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallParts<'i, 'a> {
    /// Return parameters (empty when absent).
    pub returns: &'i [Operand<'a>],
    /// `Symbol(function)` for direct calls, `Reg(..)` for indirect calls.
    pub target: &'i Operand<'a>,
    /// Arguments (empty when absent).
    pub args: &'i [Operand<'a>],
    /// Prototype or `.calltargets` label of an indirect call.
    pub prototype: Option<&'i Operand<'a>>,
}

impl<'a> Instruction<'a> {
    /// Splits a `call` instruction's operands. `None` for other opcodes or malformed calls.
    ///
    /// Call operands are: `[List(returns)]?, target, [List(args)]?, [Symbol(prototype)]?`
    /// where `List` is [`Operand::List`].
    pub fn call_parts(&self) -> Option<CallParts<'_, 'a>> {
        if self.op != Opcode::Call {
            return None;
        }
        let ops = self.operands.as_slice();
        let (returns, rest): (&[Operand<'a>], _) = match ops.split_first() {
            Some((Operand::List(r), rest)) => (r, rest),
            _ => (&[], ops),
        };
        let (target, rest) = rest.split_first()?;
        let (args, rest): (&[Operand<'a>], _) = match rest.split_first() {
            Some((Operand::List(a), rest)) => (a, rest),
            _ => (&[], rest),
        };
        let prototype = rest.first();
        Some(CallParts {
            returns,
            target,
            args,
            prototype,
        })
    }
}

/// `.x`, `.y`, `.z` component of a vector special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub const fn as_str(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
    pub fn from_str_dim(s: &str) -> Option<Dim> {
        match s {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        }
    }
}

/// Special (read-only, predefined) registers (PTX ISA §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    Tid,
    Ntid,
    Laneid,
    Warpid,
    Nwarpid,
    Ctaid,
    Nctaid,
    Smid,
    Nsmid,
    Gridid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    ClockHi,
    Clock64,
    Globaltimer,
    GlobaltimerLo,
    GlobaltimerHi,
    DynamicSmemSize,
    TotalSmemSize,
    AggrSmemSize,
    Clusterid,
    Nclusterid,
    ClusterCtaid,
    ClusterNctaid,
    ClusterCtarank,
    ClusterNctarank,
    IsExplicitCluster,
    ReservedSmemOffsetBegin,
    ReservedSmemOffsetEnd,
    ReservedSmemOffsetCap,
    ReservedSmemOffset0,
    ReservedSmemOffset1,
    CurrentGraphExec,
    /// `%envreg0`..`%envreg31`.
    EnvReg(u8),
    /// `%pm0`..`%pm7`.
    Pm(u8),
    /// `%pm0_64`..`%pm7_64`.
    Pm64(u8),
}

impl SpecialReg {
    /// Parses a register name including the `%` (without any `.x` component).
    pub fn from_name(s: &str) -> Option<SpecialReg> {
        use SpecialReg::*;
        let r = match s {
            "%tid" => Tid,
            "%ntid" => Ntid,
            "%laneid" => Laneid,
            "%warpid" => Warpid,
            "%nwarpid" => Nwarpid,
            "%ctaid" => Ctaid,
            "%nctaid" => Nctaid,
            "%smid" => Smid,
            "%nsmid" => Nsmid,
            "%gridid" => Gridid,
            "%lanemask_eq" => LanemaskEq,
            "%lanemask_le" => LanemaskLe,
            "%lanemask_lt" => LanemaskLt,
            "%lanemask_ge" => LanemaskGe,
            "%lanemask_gt" => LanemaskGt,
            "%clock" => Clock,
            "%clock_hi" => ClockHi,
            "%clock64" => Clock64,
            "%globaltimer" => Globaltimer,
            "%globaltimer_lo" => GlobaltimerLo,
            "%globaltimer_hi" => GlobaltimerHi,
            "%dynamic_smem_size" => DynamicSmemSize,
            "%total_smem_size" => TotalSmemSize,
            "%aggr_smem_size" => AggrSmemSize,
            "%clusterid" => Clusterid,
            "%nclusterid" => Nclusterid,
            "%cluster_ctaid" => ClusterCtaid,
            "%cluster_nctaid" => ClusterNctaid,
            "%cluster_ctarank" => ClusterCtarank,
            "%cluster_nctarank" => ClusterNctarank,
            "%is_explicit_cluster" => IsExplicitCluster,
            "%reserved_smem_offset_begin" => ReservedSmemOffsetBegin,
            "%reserved_smem_offset_end" => ReservedSmemOffsetEnd,
            "%reserved_smem_offset_cap" => ReservedSmemOffsetCap,
            "%reserved_smem_offset_0" => ReservedSmemOffset0,
            "%reserved_smem_offset_1" => ReservedSmemOffset1,
            "%current_graph_exec" => CurrentGraphExec,
            _ => {
                if let Some(n) = s.strip_prefix("%envreg") {
                    let v: u8 = parse_small(n)?;
                    return (v < 32).then_some(EnvReg(v));
                }
                if let Some(n) = s.strip_prefix("%pm") {
                    if let Some(n) = n.strip_suffix("_64") {
                        let v: u8 = parse_small(n)?;
                        return (v < 8).then_some(Pm64(v));
                    }
                    let v: u8 = parse_small(n)?;
                    return (v < 8).then_some(Pm(v));
                }
                return None;
            }
        };
        Some(r)
    }

    /// True for the registers that take a `.x/.y/.z` component.
    pub const fn has_components(self) -> bool {
        use SpecialReg::*;
        matches!(
            self,
            Tid | Ntid | Ctaid | Nctaid | Clusterid | Nclusterid | ClusterCtaid | ClusterNctaid
        )
    }
}

fn parse_small(n: &str) -> Option<u8> {
    if n.is_empty() || n.len() > 2 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if n.len() == 2 && n.starts_with('0') {
        return None;
    }
    n.parse().ok()
}

impl std::fmt::Display for SpecialReg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use SpecialReg::*;
        let s = match self {
            Tid => "%tid",
            Ntid => "%ntid",
            Laneid => "%laneid",
            Warpid => "%warpid",
            Nwarpid => "%nwarpid",
            Ctaid => "%ctaid",
            Nctaid => "%nctaid",
            Smid => "%smid",
            Nsmid => "%nsmid",
            Gridid => "%gridid",
            LanemaskEq => "%lanemask_eq",
            LanemaskLe => "%lanemask_le",
            LanemaskLt => "%lanemask_lt",
            LanemaskGe => "%lanemask_ge",
            LanemaskGt => "%lanemask_gt",
            Clock => "%clock",
            ClockHi => "%clock_hi",
            Clock64 => "%clock64",
            Globaltimer => "%globaltimer",
            GlobaltimerLo => "%globaltimer_lo",
            GlobaltimerHi => "%globaltimer_hi",
            DynamicSmemSize => "%dynamic_smem_size",
            TotalSmemSize => "%total_smem_size",
            AggrSmemSize => "%aggr_smem_size",
            Clusterid => "%clusterid",
            Nclusterid => "%nclusterid",
            ClusterCtaid => "%cluster_ctaid",
            ClusterNctaid => "%cluster_nctaid",
            ClusterCtarank => "%cluster_ctarank",
            ClusterNctarank => "%cluster_nctarank",
            IsExplicitCluster => "%is_explicit_cluster",
            ReservedSmemOffsetBegin => "%reserved_smem_offset_begin",
            ReservedSmemOffsetEnd => "%reserved_smem_offset_end",
            ReservedSmemOffsetCap => "%reserved_smem_offset_cap",
            ReservedSmemOffset0 => "%reserved_smem_offset_0",
            ReservedSmemOffset1 => "%reserved_smem_offset_1",
            CurrentGraphExec => "%current_graph_exec",
            EnvReg(n) => return write!(f, "%envreg{n}"),
            Pm(n) => return write!(f, "%pm{n}"),
            Pm64(n) => return write!(f, "%pm{n}_64"),
        };
        f.write_str(s)
    }
}

/// Base of an address expression `[base+offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrBase<'a> {
    /// `[%rd1+8]`
    Reg(&'a str),
    /// `[sym+4]` (variables, params, `param0`, `retval0`).
    Symbol(&'a str),
    /// `[100]` absolute address (offset is 0; the value is here).
    Imm(i64),
}

/// `[base+offset]`; `offset` is 0 when absent, negative for `[%r1-4]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Address<'a> {
    pub base: AddrBase<'a>,
    pub offset: i64,
}

/// An instruction operand (PTX ISA §6.3, §6.4).
#[derive(Clone, Debug, PartialEq)]
pub enum Operand<'a> {
    /// A register, `%r1`, or a non-`%` name declared by `.reg` in an enclosing scope (inline asm).
    Reg(&'a str),
    /// `%tid.x`, `%laneid`, ...; the component is `None` for scalar special registers.
    SpecialReg(SpecialReg, Option<Dim>),
    /// Signed integer immediate (decimal, hex `0x`, octal `0`, binary `0b`; negated with `-`).
    Imm(i64),
    /// Unsigned immediate: written with a `U` suffix, or too large for `i64`.
    UImm(u64),
    /// `0fXXXXXXXX` single-precision bits.
    FImm32(u32),
    /// `0dXXXXXXXXXXXXXXXX` double-precision bits; decimal float literals (`1.5`) also land here.
    FImm64(u64),
    /// A name that is not a register: variable, function, label, param (`param_0`, `retval0`).
    Symbol(&'a str),
    /// `[base+offset]`.
    Address(Address<'a>),
    /// `{%f1, %f2, _, %f4}`.
    Vector(Box<[Operand<'a>]>),
    /// `_` (discarded destination / placeholder).
    Sink,
    /// `!%p1` (negated predicate source).
    Negated(&'a str),
    /// `%p1|%p2` (two destinations of setp/shfl/elect...).
    PredPair(&'a str, &'a str),
    /// `( a, b )` — call return/argument lists.
    List(Box<[Operand<'a>]>),
    /// `[a, b, {c, d}]` — bracketed lists with commas (tex/suld/sust/tensor copy coordinates).
    AddressList(Box<[Operand<'a>]>),
}

impl<'a> Module<'a> {
    /// Zeroes every span in the module, for structural comparison.
    pub fn strip_spans(&mut self) {
        strip_spans(self)
    }

    /// Iterates over the functions of the module.
    pub fn functions(&self) -> impl Iterator<Item = &Function<'a>> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
    }
}

/// Zeroes every span in `m`, so that two parses of equivalent text compare equal.
pub fn strip_spans(m: &mut Module<'_>) {
    for f in &mut m.files {
        f.span = Span::default();
    }
    for item in &mut m.items {
        match item {
            Item::Function(f) => {
                f.span = Span::default();
                f.name_span = Span::default();
                for p in f.params.iter_mut().chain(f.returns.iter_mut()) {
                    p.span = Span::default();
                }
                if let Some(body) = &mut f.body {
                    strip_statements(body);
                }
            }
            Item::Variable(v) => v.span = Span::default(),
            Item::Pragma(p) => p.span = Span::default(),
            Item::CallPrototype(c) => strip_proto(c),
            Item::DebugSection(d) => d.span = Span::default(),
            Item::File(f) => f.span = Span::default(),
        }
    }
}

fn strip_proto(c: &mut CallPrototype<'_>) {
    c.span = Span::default();
    for p in c.params.iter_mut().chain(c.returns.iter_mut()) {
        p.span = Span::default();
    }
}

/// Zeroes spans in a statement list (recursively).
pub fn strip_statements(body: &mut [Statement<'_>]) {
    for s in body {
        match s {
            Statement::Label(_, sp) => *sp = Span::default(),
            Statement::Instruction(i) => i.span = Span::default(),
            Statement::RegDecl(r) => r.span = Span::default(),
            Statement::VarDecl(v) => v.span = Span::default(),
            Statement::Loc(l) => l.span = Span::default(),
            Statement::Pragma(p) => p.span = Span::default(),
            Statement::Scope(b) => strip_statements(b),
            Statement::CallPrototype(c) => strip_proto(c),
            Statement::BranchTargets(t) | Statement::CallTargets(t) => t.span = Span::default(),
        }
    }
}
