//! Lowering: PTX AST to IR. Splits bodies into basic blocks, resolves every name (registers
//! through nested scopes, labels, variables, parameters, functions, jump tables, call
//! prototypes), attaches the `.loc` in effect to each instruction, and lays out initializers.
//!
//! Errors (undeclared names, duplicate labels, initializers that do not fit) are collected
//! with their spans; lowering goes on so every problem in a file is reported at once.

use crate::entities::{Block, FuncId, GlobalId, Inst, LocalId, Reg};
use crate::function::{
    AddrBase, BlockData, Function, Guard, InitData, InstData, Module, Operand, Param, Prototype,
    RegData, RegName, Reloc, SrcLoc, Variable,
};
use cranelift_entity::packed_option::ReservedValue;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use warpscope_ptx as ast;
use warpscope_ptx::{Opcode, Span, StateSpace, Type};

/// A problem found while lowering, at a span of the PTX text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError {
    pub span: Span,
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Lowers a parsed module. The AST is consumed function by function so its memory is
/// released while the IR grows.
pub fn lower_module(m: ast::Module<'_>) -> (Module, Vec<LowerError>) {
    let mut errors = Vec::new();
    let mut out = Module {
        version: m.version,
        target: m.target.iter().map(|s| s.to_string()).collect(),
        address_size: if m.address_size == 0 {
            64
        } else {
            m.address_size
        },
        files: m
            .files
            .iter()
            .map(|f| (f.index, f.path.to_string()))
            .collect(),
        ..Default::default()
    };

    // Pass 1: names of functions and module variables, so bodies may refer forward.
    // A declaration followed by a definition of the same name is one function.
    let mut func_ids: FxHashMap<&str, FuncId> = FxHashMap::default();
    let mut global_ids: FxHashMap<&str, GlobalId> = FxHashMap::default();
    let mut module_protos: Vec<Prototype> = Vec::new();
    for item in &m.items {
        match item {
            ast::Item::Function(f) if !func_ids.contains_key(f.name) => {
                let id = out.funcs.push(Function {
                    name: f.name.to_string(),
                    kind: f.kind,
                    linkage: f.linkage,
                    params: Vec::new(),
                    returns: Vec::new(),
                    attrs: f.attrs,
                    is_declaration: true,
                    regs: PrimaryMap::new(),
                    locals: PrimaryMap::new(),
                    blocks: PrimaryMap::new(),
                    insts: PrimaryMap::new(),
                    inst_block: SecondaryMap::with_default(Block::reserved_value()),
                    jump_tables: Vec::new(),
                    prototypes: Vec::new(),
                    inline_chains: FxHashMap::default(),
                    span: f.span,
                });
                func_ids.insert(f.name, id);
            }
            ast::Item::Variable(v) => {
                let lowered = lower_variable(v, &mut errors);
                match global_ids.get(v.name) {
                    Some(&id) => {
                        // `.extern` declaration then definition: keep the definition.
                        if v.linkage != Some(ast::Linkage::Extern) {
                            out.globals[id] = lowered;
                        }
                    }
                    None => {
                        let id = out.globals.push(lowered);
                        global_ids.insert(v.name, id);
                    }
                }
            }
            ast::Item::CallPrototype(p) => module_protos.push(lower_prototype(p)),
            _ => {}
        }
    }
    let names = ModuleNames {
        funcs: &func_ids,
        globals: &global_ids,
    };

    // Pass 2: signatures and bodies.
    for item in m.items {
        let ast::Item::Function(f) = item else {
            continue;
        };
        let Some(&id) = func_ids.get(f.name) else {
            continue;
        };
        let target = &mut out.funcs[id];
        if f.body.is_none() && !target.is_declaration {
            continue; // a declaration after the definition
        }
        if f.body.is_some() && !target.is_declaration {
            errors.push(LowerError {
                span: f.name_span,
                message: format!("function `{}` is defined twice", f.name),
            });
            continue;
        }
        *target = lower_function(f, &names, &module_protos, &mut errors);
    }
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    (out, errors)
}

struct ModuleNames<'n, 'a> {
    funcs: &'n FxHashMap<&'a str, FuncId>,
    globals: &'n FxHashMap<&'a str, GlobalId>,
}

fn element_size(ty: Type, vec: u8) -> u64 {
    u64::from(ty.size_bytes()) * u64::from(vec.max(1))
}

fn lower_param(p: &ast::Param<'_>) -> Param {
    let elem = element_size(p.ty, p.vec);
    let count: u64 = p
        .dims
        .iter()
        .map(|d| d.unwrap_or(0))
        .fold(1u64, |a, d| a.saturating_mul(d));
    Param {
        name: p.name.to_string(),
        space: p.space,
        ty: p.ty,
        vec: p.vec.max(1),
        align: p
            .align
            .unwrap_or(elem.min(u64::from(u32::MAX)) as u32)
            .max(1),
        size: elem.saturating_mul(count),
        ptr_space: p.ptr.and_then(|q| q.space),
        ptr_align: p.ptr.and_then(|q| q.align),
        reg: None,
        span: p.span,
    }
}

fn lower_prototype(p: &ast::CallPrototype<'_>) -> Prototype {
    Prototype {
        name: p.name.to_string(),
        returns: p.returns.iter().map(lower_param).collect(),
        params: p.params.iter().map(lower_param).collect(),
    }
}

/// Lays out a variable and its initializer.
fn lower_variable(v: &ast::Variable<'_>, errors: &mut Vec<LowerError>) -> Variable {
    let elem = element_size(v.ty, v.vec);
    let mut size: Option<u64> = Some(elem);
    for d in &v.dims {
        size = match (size, d) {
            (Some(s), Some(n)) => s.checked_mul(*n),
            _ => None,
        };
    }
    // An unsized array with an initializer takes the initializer's length.
    if size.is_none()
        && v.dims.len() == 1
        && let Some(ast::Initializer::List(items)) = &v.init
    {
        size = Some(elem.saturating_mul(items.len() as u64));
    }
    let init = v.init.as_ref().map(|init| {
        let total = size.unwrap_or(0);
        let mut data = InitData {
            bytes: Vec::new(),
            relocs: Vec::new(),
        };
        const MAX_INIT: u64 = 1 << 28;
        if total > MAX_INIT {
            errors.push(LowerError {
                span: v.span,
                message: format!(
                    "initialised variable `{}` is {total} bytes; at most {MAX_INIT} are supported",
                    v.name
                ),
            });
            return data;
        }
        data.bytes = vec![0u8; total as usize];
        let mut offset = 0u64;
        let scalar = u64::from(v.ty.size_bytes());
        if !write_init(init, v.ty, scalar, &mut data, &mut offset) {
            errors.push(LowerError {
                span: v.span,
                message: format!("initializer of `{}` does not fit its {total} bytes", v.name),
            });
        }
        data
    });
    Variable {
        name: v.name.to_string(),
        space: v.space,
        linkage: v.linkage,
        align: v
            .align
            .unwrap_or(elem.min(u64::from(u32::MAX)) as u32)
            .max(1),
        ty: v.ty,
        vec: v.vec.max(1),
        dims: v.dims.to_vec(),
        size,
        init,
        span: v.span,
    }
}

/// Writes `init` at `*offset`, advancing it; false when it runs past the variable.
fn write_init(
    init: &ast::Initializer<'_>,
    ty: Type,
    scalar: u64,
    data: &mut InitData,
    offset: &mut u64,
) -> bool {
    match init {
        ast::Initializer::List(items) => items
            .iter()
            .all(|i| write_init(i, ty, scalar, data, offset)),
        ast::Initializer::Value(v) => {
            let end = offset.saturating_add(scalar);
            if end > data.bytes.len() as u64 {
                return false;
            }
            let bits: u64 = match *v {
                ast::InitValue::Int(i) => int_init_bits(i as f64, i as u64, ty),
                ast::InitValue::UInt(u) => int_init_bits(u as f64, u, ty),
                ast::InitValue::F32(b) => match ty {
                    Type::F64 => f64::from(f32::from_bits(b)).to_bits(),
                    _ => u64::from(b),
                },
                ast::InitValue::F64(b) => match ty {
                    Type::F32 => u64::from((f64::from_bits(b) as f32).to_bits()),
                    Type::F16 => u64::from(f32_to_f16_bits(f64::from_bits(b) as f32)),
                    _ => b,
                },
                ast::InitValue::Addr {
                    name,
                    offset: addend,
                    generic,
                } => {
                    data.relocs.push(Reloc {
                        offset: *offset,
                        size: scalar as u32,
                        symbol: name.to_string(),
                        addend,
                        generic,
                    });
                    0
                }
            };
            let bytes = bits.to_le_bytes();
            let (start, n) = (*offset as usize, scalar.min(8) as usize);
            if let Some(dst) = data.bytes.get_mut(start..start + n) {
                dst.copy_from_slice(&bytes[..n]);
            }
            *offset = end;
            true
        }
    }
}

/// Bits of an integer literal stored into a variable of type `ty` (converted for floats).
fn int_init_bits(as_float: f64, as_int: u64, ty: Type) -> u64 {
    match ty {
        Type::F32 => u64::from((as_float as f32).to_bits()),
        Type::F64 => as_float.to_bits(),
        Type::F16 => u64::from(f32_to_f16_bits(as_float as f32)),
        _ => as_int,
    }
}

/// IEEE half-precision bits of `x`, rounded to nearest even.
fn f32_to_f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1 << shift) - 1);
        let mut r = m >> shift;
        if rem > half || (rem == half && (r & 1) == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && (r & 1) == 1) {
        r += 1;
    }
    sign | r as u16
}

/// Register names declared in one scope.
#[derive(Default)]
struct RegScope<'a> {
    /// `%r<12>`: prefix → (first register, count).
    ranges: FxHashMap<&'a str, (Reg, u32)>,
    /// Plainly named registers.
    singles: FxHashMap<&'a str, Reg>,
    locals: FxHashMap<&'a str, LocalId>,
}

/// Splits `%r12` into (`%r`, 12). Leading zeros (other than `0` itself) do not name a
/// register of a range.
fn split_numbered(name: &str) -> Option<(&str, u32)> {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == name.len() {
        return None;
    }
    let (prefix, num) = name.split_at(name.len() - digits);
    if num.len() > 1 && num.starts_with('0') {
        return None;
    }
    num.parse().ok().map(|n| (prefix, n))
}

/// Whether an instruction ends its block: branches and exits, guarded or not.
fn ends_block(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Bra | Opcode::BrxIdx | Opcode::Ret | Opcode::Exit | Opcode::Trap
    )
}

/// Pre-pass state: how the body splits into blocks, computed exactly as the main pass does.
struct BlockPlan<'a> {
    labels: FxHashMap<&'a str, Block>,
    tables: FxHashMap<&'a str, u32>,
    protos: FxHashMap<&'a str, u32>,
    num_blocks: usize,
    num_insts: usize,
    /// Instructions seen in the current block; whether the next instruction must start a block.
    cur_len: usize,
    cur_exists: bool,
    after_terminator: bool,
}

impl<'a> BlockPlan<'a> {
    fn label(&mut self, name: &'a str, span: Span, errors: &mut Vec<LowerError>) {
        if !self.cur_exists || self.cur_len > 0 || self.after_terminator {
            self.num_blocks += 1;
            self.cur_exists = true;
            self.cur_len = 0;
            self.after_terminator = false;
        }
        let b = Block::new(self.num_blocks - 1);
        if self.labels.insert(name, b).is_some() {
            errors.push(LowerError {
                span,
                message: format!("label `{name}` is defined twice"),
            });
        }
    }

    fn inst(&mut self, op: Opcode) {
        if !self.cur_exists || self.after_terminator {
            self.num_blocks += 1;
            self.cur_exists = true;
            self.cur_len = 0;
            self.after_terminator = false;
        }
        self.cur_len += 1;
        self.num_insts += 1;
        if ends_block(op) {
            self.after_terminator = true;
        }
    }

    fn walk<'b>(
        &mut self,
        body: &'b [ast::Statement<'a>],
        jump_tables: &mut Vec<&'b ast::TargetList<'a>>,
        protos: &mut Vec<&'b ast::CallPrototype<'a>>,
        errors: &mut Vec<LowerError>,
    ) {
        for s in body {
            match s {
                ast::Statement::Label(name, span) => self.label(name, *span, errors),
                ast::Statement::Instruction(i) => self.inst(i.op),
                ast::Statement::Scope(inner) => self.walk(inner, jump_tables, protos, errors),
                ast::Statement::BranchTargets(t) => {
                    self.tables.insert(t.name, jump_tables.len() as u32);
                    jump_tables.push(t);
                }
                ast::Statement::CallPrototype(p) => {
                    protos.push(p);
                }
                _ => {}
            }
        }
    }
}

/// A `.file` index, line and column.
type FileLineCol = (u32, u32, u32);

struct FnLowerer<'a, 'n> {
    names: &'n ModuleNames<'n, 'a>,
    func: Function,
    scopes: Vec<RegScope<'a>>,
    labels: FxHashMap<&'a str, Block>,
    tables: FxHashMap<&'a str, u32>,
    protos: FxHashMap<&'a str, u32>,
    params: FxHashMap<&'a str, u32>,
    returns: FxHashMap<&'a str, u32>,
    loc: Option<SrcLoc>,
    /// Where each source position seen in a `.loc` was last said to be inlined at: the call
    /// sites of an inlined call chain (nvcc writes a call site's `.loc` once, before the first
    /// instruction of the call, and the deeper levels' `.loc`s before later instructions).
    inlined_at: FxHashMap<FileLineCol, Option<FileLineCol>>,
    /// Bumped whenever a `.loc` changes [`Self::inlined_at`]; with the last chain built (for
    /// its first call site and that generation), which the next instructions reuse.
    inlined_gen: u64,
    last_chain: Option<(FileLineCol, u64, std::sync::Arc<[FileLineCol]>)>,
    cur: Option<Block>,
    after_terminator: bool,
    errors: &'n mut Vec<LowerError>,
}

fn lower_function<'a>(
    f: ast::Function<'a>,
    names: &ModuleNames<'_, 'a>,
    module_protos: &[Prototype],
    errors: &mut Vec<LowerError>,
) -> Function {
    let mut func = Function {
        name: f.name.to_string(),
        kind: f.kind,
        linkage: f.linkage,
        params: f.params.iter().map(lower_param).collect(),
        returns: f.returns.iter().map(lower_param).collect(),
        attrs: f.attrs,
        is_declaration: f.body.is_none(),
        regs: PrimaryMap::new(),
        locals: PrimaryMap::new(),
        blocks: PrimaryMap::new(),
        insts: PrimaryMap::new(),
        inst_block: SecondaryMap::with_default(Block::reserved_value()),
        jump_tables: Vec::new(),
        prototypes: module_protos.to_vec(),
        inline_chains: FxHashMap::default(),
        span: f.span,
    };
    let Some(body) = f.body else {
        return func;
    };

    // Pre-pass: block boundaries, labels, jump tables, prototypes.
    let mut plan = BlockPlan {
        labels: FxHashMap::default(),
        tables: FxHashMap::default(),
        protos: FxHashMap::default(),
        num_blocks: 0,
        num_insts: 0,
        cur_len: 0,
        cur_exists: false,
        after_terminator: false,
    };
    let mut table_decls = Vec::new();
    let mut proto_decls = Vec::new();
    plan.walk(&body, &mut table_decls, &mut proto_decls, errors);
    for p in &proto_decls {
        plan.protos.insert(p.name, func.prototypes.len() as u32);
        func.prototypes.push(lower_prototype(p));
    }
    func.blocks = PrimaryMap::with_capacity(plan.num_blocks);
    func.insts = PrimaryMap::with_capacity(plan.num_insts);
    for _ in 0..plan.num_blocks {
        func.blocks.push(BlockData::default());
    }

    let mut params = FxHashMap::default();
    let mut returns = FxHashMap::default();
    let mut top = RegScope::default();
    for (i, p) in f.params.iter().enumerate() {
        params.insert(p.name, i as u32);
        if p.space == StateSpace::Reg {
            let r = func.regs.push(RegData {
                name: RegName::new(p.name.into(), None),
                ty: p.ty,
                vec: p.vec.max(1),
            });
            func.params[i].reg = Some(r);
            top.singles.insert(p.name, r);
        }
    }
    for (i, p) in f.returns.iter().enumerate() {
        returns.insert(p.name, i as u32);
        if p.space == StateSpace::Reg {
            let r = func.regs.push(RegData {
                name: RegName::new(p.name.into(), None),
                ty: p.ty,
                vec: p.vec.max(1),
            });
            func.returns[i].reg = Some(r);
            top.singles.insert(p.name, r);
        }
    }

    let mut lw = FnLowerer {
        names,
        func,
        scopes: vec![top],
        labels: plan.labels,
        tables: plan.tables,
        protos: plan.protos,
        params,
        returns,
        loc: None,
        inlined_at: FxHashMap::default(),
        inlined_gen: 0,
        last_chain: None,
        cur: None,
        after_terminator: false,
        errors,
    };
    lw.body(&body);
    // Jump tables after all labels are known.
    for t in table_decls {
        let mut blocks = Vec::with_capacity(t.targets.len());
        for name in &t.targets {
            match lw.labels.get(name) {
                Some(&b) => blocks.push(b),
                None => lw.errors.push(LowerError {
                    span: t.span,
                    message: format!("`.branchtargets {}` names unknown label `{name}`", t.name),
                }),
            }
        }
        lw.func.jump_tables.push(blocks);
    }
    lw.func
}

impl<'a> FnLowerer<'a, '_> {
    fn body(&mut self, body: &[ast::Statement<'a>]) {
        for s in body {
            match s {
                ast::Statement::Label(name, _) => {
                    // The pre-pass decided the block; follow it.
                    if let Some(&b) = self.labels.get(name)
                        && self.cur != Some(b)
                    {
                        self.cur = Some(b);
                        self.after_terminator = false;
                    }
                    if let Some(b) = self.cur {
                        self.func.blocks[b].labels.push(name.to_string());
                    }
                }
                ast::Statement::Instruction(i) => self.inst(i),
                ast::Statement::RegDecl(d) => self.reg_decl(d),
                ast::Statement::VarDecl(v) => {
                    let var = lower_variable(v, self.errors);
                    let id = self.func.locals.push(var);
                    if let Some(s) = self.scopes.last_mut() {
                        s.locals.insert(v.name, id);
                    }
                }
                ast::Statement::Loc(l) => {
                    let loc = SrcLoc {
                        file: l.file,
                        line: l.line,
                        col: l.col,
                        inlined_at: l.inlined_at,
                    };
                    self.loc = Some(loc);
                    if self
                        .inlined_at
                        .insert((l.file, l.line, l.col), l.inlined_at)
                        != Some(l.inlined_at)
                    {
                        self.inlined_gen += 1;
                    }
                }
                ast::Statement::Scope(inner) => {
                    self.scopes.push(RegScope::default());
                    self.body(inner);
                    self.scopes.pop();
                }
                ast::Statement::Pragma(_)
                | ast::Statement::CallPrototype(_)
                | ast::Statement::BranchTargets(_)
                | ast::Statement::CallTargets(_) => {}
            }
        }
    }

    fn reg_decl(&mut self, d: &ast::RegDecl<'a>) {
        const MAX_REGS: u32 = 1 << 22;
        for n in &d.names {
            match n.count {
                Some(count) => {
                    if count > MAX_REGS {
                        self.errors.push(LowerError {
                            span: d.span,
                            message: format!(
                                "`{}<{count}>` declares more than {MAX_REGS} registers",
                                n.name
                            ),
                        });
                        continue;
                    }
                    let first = Reg::new(self.func.regs.len());
                    let base: std::sync::Arc<str> = n.name.into();
                    self.func.regs.reserve(count as usize);
                    for i in 0..count {
                        self.func.regs.push(RegData {
                            name: RegName::new(base.clone(), Some(i)),
                            ty: d.ty,
                            vec: d.vec.max(1),
                        });
                    }
                    if count > 0
                        && let Some(s) = self.scopes.last_mut()
                    {
                        s.ranges.insert(n.name, (first, count));
                    }
                }
                None => {
                    let r = self.func.regs.push(RegData {
                        name: RegName::new(n.name.into(), None),
                        ty: d.ty,
                        vec: d.vec.max(1),
                    });
                    if let Some(s) = self.scopes.last_mut() {
                        s.singles.insert(n.name, r);
                    }
                }
            }
        }
    }

    fn lookup_reg(&self, name: &str) -> Option<Reg> {
        let numbered = split_numbered(name);
        for s in self.scopes.iter().rev() {
            if !s.singles.is_empty()
                && let Some(&r) = s.singles.get(name)
            {
                return Some(r);
            }
            if let Some((prefix, n)) = numbered
                && let Some(&(first, count)) = s.ranges.get(prefix)
                && n < count
            {
                return Some(Reg::new(first.index() + n as usize));
            }
        }
        None
    }

    fn reg(&mut self, name: &str, span: Span) -> Option<Reg> {
        let r = self.lookup_reg(name);
        if r.is_none() {
            self.errors.push(LowerError {
                span,
                message: format!("register `{name}` is not declared"),
            });
        }
        r
    }

    fn lookup_local(&self, name: &str) -> Option<LocalId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.locals.get(name).copied())
    }

    fn symbol(&mut self, name: &str, span: Span) -> Operand {
        if let Some(l) = self.lookup_local(name) {
            return Operand::Local(l);
        }
        if let Some(&p) = self.params.get(name) {
            return Operand::Param(p);
        }
        if let Some(&b) = self.labels.get(name) {
            return Operand::Label(b);
        }
        if let Some(&g) = self.names.globals.get(name) {
            return Operand::Global(g);
        }
        if let Some(&f) = self.names.funcs.get(name) {
            return Operand::Func(f);
        }
        if let Some(&t) = self.tables.get(name) {
            return Operand::JumpTable(t);
        }
        if let Some(&p) = self.protos.get(name) {
            return Operand::Prototype(p);
        }
        if let Some(p) = self.func.prototypes.iter().position(|p| p.name == name) {
            return Operand::Prototype(p as u32);
        }
        if let Some(r) = self.lookup_reg(name) {
            return Operand::Reg(r);
        }
        if let Some(&r) = self.returns.get(name) {
            return Operand::Addr(AddrBase::Return(r), 0);
        }
        self.errors.push(LowerError {
            span,
            message: format!("`{name}` is not a declared register, variable, label or function"),
        });
        Operand::Sink
    }

    fn addr_base(&mut self, base: &ast::AddrBase<'a>, span: Span) -> Option<AddrBase> {
        match *base {
            ast::AddrBase::Reg(name) => self.reg(name, span).map(AddrBase::Reg),
            ast::AddrBase::Imm(v) => Some(AddrBase::Imm(v)),
            ast::AddrBase::Symbol(name) => {
                if let Some(l) = self.lookup_local(name) {
                    return Some(AddrBase::Local(l));
                }
                if let Some(&p) = self.params.get(name) {
                    return Some(AddrBase::Param(p));
                }
                if let Some(&r) = self.returns.get(name) {
                    return Some(AddrBase::Return(r));
                }
                if let Some(&g) = self.names.globals.get(name) {
                    return Some(AddrBase::Global(g));
                }
                if let Some(r) = self.lookup_reg(name) {
                    return Some(AddrBase::Reg(r));
                }
                self.errors.push(LowerError {
                    span,
                    message: format!(
                        "`{name}` in an address is not a declared variable or parameter"
                    ),
                });
                None
            }
        }
    }

    fn operand(&mut self, op: &ast::Operand<'a>, span: Span) -> Operand {
        match op {
            ast::Operand::Reg(name) => self.reg(name, span).map_or(Operand::Sink, Operand::Reg),
            ast::Operand::SpecialReg(r, d) => Operand::Special(*r, *d),
            ast::Operand::Imm(v) => Operand::Imm(*v),
            ast::Operand::UImm(v) => Operand::UImm(*v),
            ast::Operand::FImm32(b) => Operand::F32(*b),
            ast::Operand::FImm64(b) => Operand::F64(*b),
            ast::Operand::Symbol(name) => self.symbol(name, span),
            ast::Operand::Address(a) => match self.addr_base(&a.base, span) {
                Some(b) => Operand::Addr(b, a.offset),
                None => Operand::Sink,
            },
            ast::Operand::Vector(v) => {
                Operand::Vector(v.iter().map(|o| self.operand(o, span)).collect())
            }
            ast::Operand::List(v) => {
                Operand::List(v.iter().map(|o| self.operand(o, span)).collect())
            }
            ast::Operand::AddressList(v) => {
                Operand::AddrList(v.iter().map(|o| self.operand(o, span)).collect())
            }
            ast::Operand::Sink => Operand::Sink,
            ast::Operand::Negated(name) => self.reg(name, span).map_or(Operand::Sink, Operand::Not),
            ast::Operand::PredPair(a, b) => match (self.reg(a, span), self.reg(b, span)) {
                (Some(a), Some(b)) => Operand::RegPair(a, b),
                _ => Operand::Sink,
            },
        }
    }

    fn inst(&mut self, i: &ast::Instruction<'a>) {
        // Same block-boundary rule as the pre-pass.
        let block = match self.cur {
            Some(b) if !self.after_terminator => b,
            _ => {
                let next = self.cur.map_or(0, |b| b.index() + 1);
                let b = Block::new(next.min(self.func.blocks.len().saturating_sub(1)));
                self.cur = Some(b);
                self.after_terminator = false;
                b
            }
        };
        let guard = i.guard.and_then(|g| {
            self.reg(g.reg, i.span).map(|reg| Guard {
                reg,
                negated: g.negated,
            })
        });
        let operands: SmallVec<[Operand; 4]> =
            i.operands.iter().map(|o| self.operand(o, i.span)).collect();
        let inst: Inst = self.func.insts.push(InstData {
            guard,
            op: i.op,
            mods: i.mods,
            operands,
            span: i.span,
            loc: self.loc,
        });
        // The call chain beyond the first call site: each call site is a position some `.loc`
        // placed, with its own `inlined_at`.
        if let Some(first) = self.loc.and_then(|l| l.inlined_at) {
            let chain = match &self.last_chain {
                Some((f, g, c)) if *f == first && *g == self.inlined_gen => Some(c.clone()),
                _ => {
                    let mut chain: Vec<FileLineCol> = Vec::new();
                    let mut at = first;
                    while let Some(&Some(next)) = self.inlined_at.get(&at) {
                        if next == first || chain.contains(&next) || chain.len() >= 64 {
                            break;
                        }
                        chain.push(next);
                        at = next;
                    }
                    let chain: Option<std::sync::Arc<[FileLineCol]>> =
                        (!chain.is_empty()).then(|| chain.into());
                    if let Some(c) = &chain {
                        self.last_chain = Some((first, self.inlined_gen, c.clone()));
                    }
                    chain
                }
            };
            if let Some(c) = chain {
                self.func.inline_chains.insert(inst, c);
            }
        }
        self.func.inst_block[inst] = block;
        self.func.blocks[block].insts.push(inst);
        if ends_block(i.op) {
            self.after_terminator = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_split() {
        assert_eq!(split_numbered("%r12"), Some(("%r", 12)));
        assert_eq!(split_numbered("%rd0"), Some(("%rd", 0)));
        assert_eq!(split_numbered("%r012"), None);
        assert_eq!(split_numbered("%p"), None);
        assert_eq!(split_numbered("123"), None);
    }

    #[test]
    fn half_conversion_rounds_to_nearest_even() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f32_to_f16_bits(5.960_464_5e-8), 0x0001);
        assert_eq!(f32_to_f16_bits(0.0), 0);
    }
}
