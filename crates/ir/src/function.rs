//! IR data: a [`Module`] of [`Function`]s made of basic blocks of instructions whose register,
//! label, variable and function operands are resolved to entity references.
//!
//! Opcodes and modifiers are the front end's typed data ([`warpscope_ptx::Opcode`],
//! [`warpscope_ptx::Modifiers`]), so matching on an instruction is matching on plain enums.

use crate::entities::{Block, FuncId, GlobalId, Inst, LocalId, Reg};
use cranelift_entity::{PrimaryMap, SecondaryMap};
use smallvec::SmallVec;
use std::collections::HashMap;
use warpscope_ptx::{
    Dim, FunctionAttrs, FunctionKind, Linkage, Modifiers, Opcode, Span, SpecialReg, StateSpace,
    Type,
};

/// A lowered PTX module.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// `.version` (major, minor).
    pub version: (u32, u32),
    /// `.target` entries.
    pub target: Vec<String>,
    /// `.address_size` (64 unless stated).
    pub address_size: u32,
    /// Functions in source order; declarations without a body are included (`is_declaration`).
    pub funcs: PrimaryMap<FuncId, Function>,
    /// Module-scope variables in source order.
    pub globals: PrimaryMap<GlobalId, Variable>,
    /// `.file` directives: (index, path as written).
    pub files: Vec<(u32, String)>,
}

impl Module {
    /// Finds a function by its (mangled) PTX name.
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }

    /// The kernels (`.entry` functions with a body).
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.funcs
            .iter()
            .filter(|(_, f)| f.kind == FunctionKind::Entry && !f.is_declaration)
    }

    /// Path of `.file` index `index`.
    pub fn file_name(&self, index: u32) -> Option<&str> {
        self.files
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, p)| p.as_str())
    }
}

/// Raw bytes and relocations of a variable initializer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InitData {
    /// Little-endian bytes of the whole variable (zero where not initialised).
    pub bytes: Vec<u8>,
    /// Address initializers: at byte `offset`, store the address of `symbol` plus `addend`
    /// (`generic(sym)` when `generic`), `size` bytes wide.
    pub relocs: Vec<Reloc>,
}

/// An address stored into an initialised variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Reloc {
    pub offset: u64,
    pub size: u32,
    pub symbol: String,
    pub addend: i64,
    pub generic: bool,
}

/// A variable: module scope (`.global`, `.shared`, `.const`, `.local`) or function scope.
#[derive(Debug, Clone)]
pub struct Variable {
    pub name: String,
    pub space: StateSpace,
    pub linkage: Option<Linkage>,
    /// Alignment in bytes (explicit `.align`, else the element size).
    pub align: u32,
    /// Element type.
    pub ty: Type,
    /// Vector width of each element (1, 2, 4).
    pub vec: u8,
    /// Array dimensions; `None` for an unsized `[]` (e.g. `extern __shared__`).
    pub dims: Vec<Option<u64>>,
    /// Total size in bytes; `None` when unsized (dynamic shared memory).
    pub size: Option<u64>,
    /// Initial contents.
    pub init: Option<InitData>,
    pub span: Span,
}

/// A parameter or return value of a function.
#[derive(Debug, Clone)]
pub struct Param {
    pub name: String,
    /// `.param` or `.reg`.
    pub space: StateSpace,
    pub ty: Type,
    pub vec: u8,
    /// Alignment in bytes.
    pub align: u32,
    /// Size in bytes (arrays included).
    pub size: u64,
    /// `.ptr .global .align N` on kernel pointer parameters.
    pub ptr_space: Option<StateSpace>,
    pub ptr_align: Option<u32>,
    /// The register that holds it, for `.reg` parameters.
    pub reg: Option<Reg>,
    pub span: Span,
}

/// A register's name: the declared base and, for `%r<N>` ranges, the index (`%r` + `12`).
/// The base is shared by every register of one declaration, so lowering a function with
/// thousands of registers allocates one string per declaration, not per register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegName {
    base: std::sync::Arc<str>,
    index: Option<u32>,
}

impl RegName {
    /// `base` followed by `index`, when it is one register of a `%r<N>` range.
    pub fn new(base: std::sync::Arc<str>, index: Option<u32>) -> RegName {
        RegName { base, index }
    }
}

impl std::fmt::Display for RegName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.base)?;
        match self.index {
            Some(i) => write!(f, "{i}"),
            None => Ok(()),
        }
    }
}

/// A register declared with `.reg`.
#[derive(Debug, Clone)]
pub struct RegData {
    /// Name as written (`%r12`); registers of nested scopes may share a name.
    pub name: RegName,
    pub ty: Type,
    pub vec: u8,
}

/// Call sites (`.file` index, line, column), innermost first, shared by the instructions of
/// one inlined call ([`Function::inline_chains`]).
pub type InlineChain = std::sync::Arc<[(u32, u32, u32)]>;

/// A source position from `.loc`: `.file` index, 1-based line and column, and where the
/// code was inlined, if it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
    /// `inlined_at file line col`: the call site this code was inlined into.
    pub inlined_at: Option<(u32, u32, u32)>,
}

/// Base of an address operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddrBase {
    Reg(Reg),
    Global(GlobalId),
    Local(LocalId),
    /// The function's own parameter (by index into `params`).
    Param(u32),
    /// The function's own return value (by index into `returns`).
    Return(u32),
    /// An absolute address.
    Imm(i64),
}

/// An instruction operand with names resolved.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Reg(Reg),
    /// `!%p` as a source.
    Not(Reg),
    /// `%p|%q` (two destinations).
    RegPair(Reg, Reg),
    Special(SpecialReg, Option<Dim>),
    Imm(i64),
    UImm(u64),
    /// Single-precision bits (`0fXXXXXXXX`).
    F32(u32),
    /// Double-precision bits.
    F64(u64),
    /// Address of a module variable.
    Global(GlobalId),
    /// Address of a function-scope variable.
    Local(LocalId),
    /// A parameter of this function, by index (e.g. `mov.b64 %rd1, k_param_0`).
    Param(u32),
    /// A function (call target or address taken).
    Func(FuncId),
    /// A branch target.
    Label(Block),
    /// A `.branchtargets` table (brx.idx), by index into [`Function::jump_tables`].
    JumpTable(u32),
    /// A `.callprototype`, by index into [`Function::prototypes`].
    Prototype(u32),
    /// `[base+offset]`.
    Addr(AddrBase, i64),
    /// `{a, b, ...}`.
    Vector(Box<[Operand]>),
    /// `( a, b )`: call returns or arguments.
    List(Box<[Operand]>),
    /// `[a, b, ...]` coordinate lists (tex, tensor copies).
    AddrList(Box<[Operand]>),
    /// `_`.
    Sink,
}

/// `@%p` / `@!%p`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    pub reg: Reg,
    pub negated: bool,
}

/// One instruction.
#[derive(Debug, Clone)]
pub struct InstData {
    pub guard: Option<Guard>,
    pub op: Opcode,
    pub mods: Modifiers,
    /// Destinations first, in PTX order; see [`crate::effects`] for which are written.
    pub operands: SmallVec<[Operand; 4]>,
    /// Byte range in the PTX text.
    pub span: Span,
    /// The source position in effect (`.loc` most recently seen before the instruction).
    pub loc: Option<SrcLoc>,
}

/// A basic block: a maximal straight-line run of instructions. It ends at a branch, a
/// `ret`/`exit`/`trap` (guarded or not), or before a label.
#[derive(Debug, Clone, Default)]
pub struct BlockData {
    /// Labels naming the block (several labels in a row name one block).
    pub labels: Vec<String>,
    pub insts: Vec<Inst>,
}

/// A `.callprototype` usable by indirect calls.
#[derive(Debug, Clone)]
pub struct Prototype {
    pub name: String,
    pub returns: Vec<Param>,
    pub params: Vec<Param>,
}

/// A function: kernel (`.entry`) or device function (`.func`).
#[derive(Debug, Clone)]
pub struct Function {
    pub name: String,
    pub kind: FunctionKind,
    pub linkage: Option<Linkage>,
    pub params: Vec<Param>,
    pub returns: Vec<Param>,
    pub attrs: FunctionAttrs,
    /// True for `.extern`/prototype declarations without a body.
    pub is_declaration: bool,
    pub regs: PrimaryMap<Reg, RegData>,
    pub locals: PrimaryMap<LocalId, Variable>,
    /// Blocks in layout order; `block0` is the entry.
    pub blocks: PrimaryMap<Block, BlockData>,
    pub insts: PrimaryMap<Inst, InstData>,
    /// The block holding each instruction.
    pub inst_block: SecondaryMap<Inst, Block>,
    /// `.branchtargets` tables.
    pub jump_tables: Vec<Vec<Block>>,
    /// `.callprototype`s declared in the body or at module scope.
    pub prototypes: Vec<Prototype>,
    /// For instructions inlined more than one call deep: the call sites beyond
    /// `loc.inlined_at`, innermost first (from the run of `.loc` directives nvcc writes before
    /// such an instruction, each naming the call it was inlined at).
    /// (Consecutive instructions of one call share one chain.)
    pub inline_chains: rustc_hash::FxHashMap<Inst, InlineChain>,
    pub span: Span,
}

impl Function {
    /// The entry block (`None` for a declaration or an empty body).
    pub fn entry(&self) -> Option<Block> {
        self.blocks.keys().next()
    }

    /// The last instruction of `b`.
    pub fn last_inst(&self, b: Block) -> Option<Inst> {
        self.blocks[b].insts.last().copied()
    }

    /// Successor blocks of `b` (taken target first), and whether control may leave the
    /// function from `b` (an `exit`/`ret`/`trap`, guarded or not).
    pub fn successors(&self, b: Block) -> (SmallVec<[Block; 2]>, bool) {
        let mut succs = SmallVec::new();
        let next = Block::from_u32(b.as_u32() + 1);
        let has_next = (next.as_u32() as usize) < self.blocks.len();
        let Some(last) = self.last_inst(b) else {
            if has_next {
                succs.push(next);
            }
            return (succs, !has_next);
        };
        let inst = &self.insts[last];
        let guarded = inst.guard.is_some();
        let mut may_exit = false;
        let mut falls_through = true;
        match inst.op {
            Opcode::Bra => {
                if let Some(Operand::Label(t)) = inst.operands.first() {
                    succs.push(*t);
                }
                falls_through = guarded;
            }
            Opcode::BrxIdx => {
                for op in &inst.operands {
                    if let Operand::JumpTable(t) = op
                        && let Some(tbl) = self.jump_tables.get(*t as usize)
                    {
                        succs.extend(tbl.iter().copied());
                    }
                }
                falls_through = guarded;
            }
            Opcode::Ret | Opcode::Exit | Opcode::Trap => {
                may_exit = true;
                falls_through = guarded;
            }
            _ => {}
        }
        if falls_through {
            if has_next {
                if !succs.contains(&next) {
                    succs.push(next);
                }
            } else {
                // Falling off the end of the body returns.
                may_exit = true;
            }
        }
        (succs, may_exit)
    }

    /// Instructions in layout order, with their blocks.
    pub fn insts_in_order(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        self.blocks
            .iter()
            .flat_map(|(b, d)| d.insts.iter().map(move |&i| (b, i)))
    }

    /// The source position of every instruction as the GPU's line table has it: an
    /// instruction under `.loc F 0 0` (code the compiler could not tie to a line) takes the
    /// last real line before it in layout order, as ptxas does (Nsight Compute shows such a
    /// hoisted load on that line). Instructions without any `.loc` are absent.
    pub fn effective_locs(&self) -> HashMap<Inst, SrcLoc> {
        let mut out = HashMap::new();
        let mut last: Option<SrcLoc> = None;
        for (_, i) in self.insts_in_order() {
            match self.insts[i].loc {
                Some(l) if l.line > 0 => {
                    last = Some(l);
                    out.insert(i, l);
                }
                Some(l) => {
                    out.insert(i, last.unwrap_or(l));
                }
                None => {}
            }
        }
        out
    }

    /// Index of a parameter by name.
    pub fn param_index(&self, name: &str) -> Option<u32> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u32)
    }
}
