//! IR → bytecode. One [`Program`] per kernel: the kernel and every device function it can
//! call, with the shared-memory and local-frame layouts fixed.
//!
//! Anything the emulator does not support is an error here, naming the instruction and its
//! PTX line, so a run never starts with a silent gap.

#![allow(clippy::needless_range_loop)]

use crate::fault::TranslateError;
use crate::float::{self, Rnd};
use crate::memory::{CONST_WINDOW, FUNC_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW};
use crate::program::*;
use cranelift_entity::EntityRef;
use std::collections::HashMap;
use std::sync::Arc;
use warpscope_ir::liveness::{self, Liveness};
use warpscope_ir::{
    AddrBase, Block, FuncId, FunctionAnalyses, GlobalId, Inst, LocalId, Module, Operand, Reg,
};
use warpscope_ptx::{
    AtomOp, BoolOp, CmpOp, Flags, FunctionKind, MulMode, Opcode, Rounding, SpecialReg, StateSpace,
    Type, VoteMode,
};

// The translator's instruction families; `exec` has modules of the same names.
mod arith;
mod atomic;
mod control;
mod convert;
mod memory;
mod operands;
mod warp;

/// Addresses of the module's variables in the run's memory.
#[derive(Clone, Debug, Default)]
pub struct ModuleLayout {
    /// `.global` variables: global address.
    pub global_addr: HashMap<GlobalId, u64>,
    /// `.const` variables: offset in the constant bank.
    pub const_off: HashMap<GlobalId, u64>,
    /// Module-scope `.local` variables: offset in every thread's local memory.
    pub local_off: HashMap<GlobalId, u32>,
    /// Bytes of module-scope `.local` variables (kernel frames start after them, aligned).
    pub local_size: u32,
}

/// Translation options.
#[derive(Clone, Debug, Default)]
pub struct TranslateOptions {
    /// Emit block-marker ops so observers see basic blocks entered.
    pub block_markers: bool,
    /// The PTX text, for line numbers and instruction text in messages.
    pub source: Option<Arc<str>>,
}

/// Per-op location for messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpSite {
    pub line: u32,
    pub span: (u32, u32),
    pub loc: Option<(u32, u32)>,
    /// The outermost call site the code was inlined into.
    pub inlined_at: Option<(u32, u32)>,
}

/// Translates kernel `kernel` of `module`.
pub fn translate(
    module: &Module,
    kernel: FuncId,
    layout: &ModuleLayout,
    opts: &TranslateOptions,
) -> Result<(Program, ProgramSites), TranslateError> {
    let kf = &module.funcs[kernel];
    let lines = opts
        .source
        .as_deref()
        .map(warpscope_ptx::LineIndex::new)
        .unwrap_or_default();
    let site_of = |span: warpscope_ptx::Span| -> (u32, String) {
        match opts.source.as_deref() {
            Some(t) => {
                let line = lines.line(span.start);
                let s = (span.start as usize).min(t.len());
                let e = (span.end as usize).clamp(s, t.len());
                (line, t.get(s..e).unwrap_or("").trim().to_string())
            }
            None => (0, String::new()),
        }
    };
    if kf.is_declaration || kf.kind != FunctionKind::Entry {
        return Err(TranslateError {
            function: kf.name.clone(),
            ptx_line: site_of(kf.span).0,
            ptx_text: String::new(),
            message: format!("`{}` is not a kernel with a body", kf.name),
        });
    }

    // Reachable functions: direct calls and function addresses taken.
    let mut order: Vec<FuncId> = vec![kernel];
    let mut index: HashMap<FuncId, u32> = HashMap::from([(kernel, 0)]);
    let mut i = 0;
    while i < order.len() {
        let f = &module.funcs[order[i]];
        for (_, d) in f.insts.iter() {
            let mut visit = |op: &Operand| {
                if let Operand::Func(g) = op
                    && !index.contains_key(g)
                    && builtin_of(&module.funcs[*g].name).is_none()
                {
                    index.insert(*g, order.len() as u32);
                    order.push(*g);
                }
            };
            for op in &d.operands {
                visit(op);
                if let Operand::List(v) = op {
                    v.iter().for_each(&mut visit);
                }
            }
        }
        i += 1;
    }

    // Shared layout over every function in the program.
    let mut shared_vars: Vec<(SharedKey, u32, u64)> = Vec::new(); // key, align, size
    let mut dynamic_align = 16u32;
    let mut has_dynamic: Vec<SharedKey> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        for &fid in &order {
            let f = &module.funcs[fid];
            for (_, d) in f.insts.iter() {
                let mut visit = |op: &Operand| {
                    let key = match op {
                        Operand::Global(g) | Operand::Addr(AddrBase::Global(g), _) => {
                            let v = &module.globals[*g];
                            v.space.is_shared().then_some((SharedKey::Global(*g), v))
                        }
                        Operand::Local(l) | Operand::Addr(AddrBase::Local(l), _) => {
                            let v = &f.locals[*l];
                            v.space
                                .is_shared()
                                .then_some((SharedKey::Local(fid, *l), v))
                        }
                        _ => None,
                    };
                    if let Some((k, v)) = key
                        && seen.insert(k)
                    {
                        match v.size {
                            Some(sz) => shared_vars.push((k, v.align.max(1), sz)),
                            None => {
                                dynamic_align = dynamic_align.max(v.align);
                                has_dynamic.push(k);
                            }
                        }
                    }
                };
                for op in &d.operands {
                    visit(op);
                    if let Operand::Vector(v) | Operand::List(v) = op {
                        v.iter().for_each(&mut visit);
                    }
                }
            }
        }
    }
    shared_vars.sort_by_key(|(k, _, _)| *k);
    let mut shared_off: HashMap<SharedKey, u64> = HashMap::new();
    let mut top = 0u64;
    for (k, align, size) in &shared_vars {
        top = top.div_ceil(u64::from(*align)) * u64::from(*align);
        shared_off.insert(*k, top);
        top += size;
    }
    let shared_static = top;
    let dyn_off = top.div_ceil(u64::from(dynamic_align)) * u64::from(dynamic_align);
    for k in has_dynamic {
        shared_off.insert(k, dyn_off);
    }
    if dyn_off > u64::from(u32::MAX / 2) {
        return Err(TranslateError {
            function: kf.name.clone(),
            ptx_line: 0,
            ptx_text: String::new(),
            message: format!("static shared memory of {shared_static} bytes is too large"),
        });
    }

    // Kernel parameter layout.
    let mut params = Vec::new();
    let mut poff = 0u64;
    for p in &kf.params {
        let a = u64::from(p.align.max(1));
        poff = poff.div_ceil(a) * a;
        params.push((poff as u32, p.size as u32));
        poff += p.size;
    }

    let ctx = ProgCtx {
        module,
        layout,
        index: &index,
        shared_off: &shared_off,
        param_layout: &params,
        opts,
        lines: &lines,
    };
    let mut funcs = Vec::new();
    let mut sites = Vec::new();
    for &fid in &order {
        let (code, s) = FnTranslator::new(&ctx, fid).run()?;
        funcs.push(code);
        sites.push(s);
    }
    let regs = order
        .iter()
        .map(|&f| estimate_live_regs(&module.funcs[f]))
        .max()
        .unwrap_or(0);
    let regs_per_thread = (regs + 4).div_ceil(8) * 8;
    Ok((
        Program {
            funcs,
            name: kf.name.clone(),
            kernel,
            shared_static: shared_static as u32,
            dyn_shared_offset: dyn_off as u32,
            param_size: poff as u32,
            params,
            regs_per_thread: regs_per_thread.clamp(16, 255),
            has_block_markers: opts.block_markers,
            reqntid: kf.attrs.reqntid,
            maxntid: kf.attrs.maxntid,
        },
        ProgramSites {
            sites,
            source: opts.source.clone(),
        },
    ))
}

/// Locations of every op, for fault messages.
#[derive(Clone, Debug, Default)]
pub struct ProgramSites {
    pub sites: Vec<Vec<OpSite>>,
    pub source: Option<Arc<str>>,
}

impl ProgramSites {
    /// Where `.loc` says op `pc` of function `f` was inlined, if it was.
    pub fn inlined_at(&self, f: usize, pc: usize) -> Option<(u32, u32)> {
        self.sites
            .get(f)
            .and_then(|v| v.get(pc))
            .and_then(|s| s.inlined_at)
    }

    /// PTX line and instruction text of op `pc` of function `f`.
    pub fn describe(&self, f: usize, pc: usize) -> (u32, String, Option<(u32, u32)>) {
        let Some(s) = self.sites.get(f).and_then(|v| v.get(pc)) else {
            return (0, String::new(), None);
        };
        let text = self
            .source
            .as_deref()
            .and_then(|t| t.get(s.span.0 as usize..s.span.1 as usize))
            .map(|x| x.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        (s.line, text, s.loc)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum SharedKey {
    Global(GlobalId),
    Local(FuncId, LocalId),
}

struct ProgCtx<'a> {
    module: &'a Module,
    layout: &'a ModuleLayout,
    index: &'a HashMap<FuncId, u32>,
    shared_off: &'a HashMap<SharedKey, u64>,
    param_layout: &'a [(u32, u32)],
    opts: &'a TranslateOptions,
    lines: &'a warpscope_ptx::LineIndex,
}

/// Recognises CUDA runtime externs the emulator implements.
pub fn builtin_of(name: &str) -> Option<Builtin> {
    match name {
        "vprintf" => Some(Builtin::Vprintf),
        "__assertfail" => Some(Builtin::AssertFail),
        _ => None,
    }
}

/// How an immediate source is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K {
    /// Integer/bit value of this width (literals taken as bits).
    I(W),
    F16,
    Bf16,
    F32,
    F64,
}

fn k_of(ty: Type) -> Option<K> {
    use Type::*;
    Some(match ty {
        S8 | U8 | B8 => K::I(W::B8),
        S16 | U16 | B16 => K::I(W::B16),
        S32 | U32 | B32 | F16x2 | Bf16x2 | S16x2 | U16x2 | Tf32 => K::I(W::B32),
        S64 | U64 | B64 | F32x2 => K::I(W::B64),
        F16 => K::F16,
        Bf16 => K::Bf16,
        F32 => K::F32,
        F64 => K::F64,
        _ => return None,
    })
}

fn w_of(ty: Type) -> Option<W> {
    W::from_bytes(ty.size_bytes())
}

fn rnd_of(r: Option<Rounding>) -> Rnd {
    match r {
        None | Some(Rounding::Rn) | Some(Rounding::Rni) | Some(Rounding::Rna) => Rnd::Rn,
        Some(Rounding::Rz) | Some(Rounding::Rzi) => Rnd::Rz,
        Some(Rounding::Rm) | Some(Rounding::Rmi) => Rnd::Rm,
        Some(Rounding::Rp) | Some(Rounding::Rpi) => Rnd::Rp,
        Some(Rounding::Rs) => Rnd::Rn,
    }
}

fn fty_of(ty: Type) -> Option<FTy> {
    Some(match ty {
        Type::F16 => FTy::F16,
        Type::F16x2 => FTy::F16x2,
        Type::Bf16 => FTy::Bf16,
        Type::Bf16x2 => FTy::Bf16x2,
        Type::F32 => FTy::F32,
        Type::F64 => FTy::F64,
        _ => return None,
    })
}

fn cmp_of(c: CmpOp, unsigned: bool) -> Cmp {
    match c {
        CmpOp::Eq => Cmp::Eq,
        CmpOp::Ne => Cmp::Ne,
        CmpOp::Lt | CmpOp::Lo => Cmp::Lt,
        CmpOp::Le | CmpOp::Ls => Cmp::Le,
        CmpOp::Gt | CmpOp::Hi => Cmp::Gt,
        CmpOp::Ge | CmpOp::Hs => Cmp::Ge,
        CmpOp::Equ => Cmp::Equ,
        CmpOp::Neu => Cmp::Neu,
        CmpOp::Ltu => Cmp::Ltu,
        CmpOp::Leu => Cmp::Leu,
        CmpOp::Gtu => Cmp::Gtu,
        CmpOp::Geu => Cmp::Geu,
        CmpOp::Num => Cmp::Num,
        CmpOp::Nan => Cmp::Nan,
    }
    .with_unsigned(unsigned)
}

impl Cmp {
    fn with_unsigned(self, _u: bool) -> Cmp {
        self
    }
}

fn cmp_ty(ty: Type, ftz: bool, is_lohi: bool) -> Option<CmpTy> {
    use Type::*;
    Some(match ty {
        S8 | S16 | S32 | S64 => CmpTy::S(w_of(ty)?),
        U8 | U16 | U32 | U64 | B8 | B16 | B32 | B64 => CmpTy::U(w_of(ty)?),
        F16 => CmpTy::F16,
        Bf16 => CmpTy::Bf16,
        F32 => CmpTy::F32 { ftz },
        F64 => CmpTy::F64,
        _ => {
            let _ = is_lohi;
            return None;
        }
    })
}

/// Local frame slot of a variable or parameter.
#[derive(Clone, Copy, Debug)]
struct Slot {
    off: u32,
    is_param: bool,
}

struct FnTranslator<'c, 'a> {
    ctx: &'c ProgCtx<'a>,
    fid: FuncId,
    f: &'a warpscope_ir::Function,
    reg_map: Vec<(bool, u32)>, // (is_pred, index)
    nregs: u32,
    npreds: u32,
    consts: HashMap<u64, R>,
    const_list: Vec<(R, u64)>,
    warp_consts: HashMap<WarpConst, R>,
    warp_const_list: Vec<(R, WarpConst)>,
    pred_consts: [Option<P>; 2],
    local_slots: HashMap<LocalId, Slot>,
    param_slots: Vec<Option<Slot>>,
    ret_slots: Vec<Option<Slot>>,
    frame_size: u32,
    ops: Vec<Instr>,
    meta: Vec<OpMeta>,
    sites: Vec<OpSite>,
    cur_inst: Inst,
    cur_block: Block,
    is_kernel: bool,
    /// Additions that ptxas contracts with the multiply feeding them: add → (mul, index of
    /// the add's operand that holds the product).
    contract: HashMap<Inst, (Inst, usize)>,
}

type TResult<T> = Result<T, String>;

/// Operand `i` of `d`, or an error naming the instruction.
fn operand(d: &warpscope_ir::InstData, i: usize) -> TResult<&Operand> {
    d.operands
        .get(i)
        .ok_or_else(|| format!("`{}` is missing operand {}", d.op, i + 1))
}

/// The instruction's name with its type (`add.f32`), for messages.
fn inst_name(d: &warpscope_ir::InstData) -> String {
    let mut s = d.op.name().to_string();
    if let Some(t) = d.mods.ty {
        s.push('.');
        s.push_str(t.as_str());
    }
    s
}

impl<'c, 'a> FnTranslator<'c, 'a> {
    fn new(ctx: &'c ProgCtx<'a>, fid: FuncId) -> Self {
        let f = &ctx.module.funcs[fid];
        FnTranslator {
            ctx,
            fid,
            f,
            reg_map: Vec::new(),
            nregs: 0,
            npreds: 0,
            consts: HashMap::new(),
            const_list: Vec::new(),
            warp_consts: HashMap::new(),
            warp_const_list: Vec::new(),
            pred_consts: [None, None],
            local_slots: HashMap::new(),
            param_slots: Vec::new(),
            ret_slots: Vec::new(),
            frame_size: 0,
            ops: Vec::new(),
            meta: Vec::new(),
            sites: Vec::new(),
            cur_inst: Inst::new(0),
            cur_block: Block::new(0),
            is_kernel: f.kind == FunctionKind::Entry,
            contract: arith::contractions(f),
        }
    }

    fn err_at(&self, inst: Option<Inst>, message: String) -> TranslateError {
        let (line, text) = match (inst, self.ctx.opts.source.as_deref()) {
            (Some(i), Some(t)) => {
                let sp = self.f.insts[i].span;
                let s = (sp.start as usize).min(t.len());
                let e = (sp.end as usize).clamp(s, t.len());
                (
                    self.ctx.lines.line(sp.start),
                    t.get(s..e)
                        .unwrap_or("")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            _ => (0, String::new()),
        };
        TranslateError {
            function: self.f.name.clone(),
            ptx_line: line,
            ptx_text: text,
            message,
        }
    }

    /// The instruction being translated.
    fn cur(&self) -> &'a warpscope_ir::InstData {
        &self.f.insts[self.cur_inst]
    }

    /// The type of the instruction being translated (`.u32`, `.f32`, ...); an error when it
    /// has none.
    fn ty(&self) -> TResult<Type> {
        self.cur().mods.ty.ok_or_else(|| "missing type".into())
    }

    fn alloc_frame(&mut self, size: u64, align: u32) -> TResult<u32> {
        let a = align.max(1);
        let off = self.frame_size.div_ceil(a) * a;
        let end = u64::from(off) + size;
        if end > 1 << 24 {
            return Err("local frame larger than 16 MiB".into());
        }
        self.frame_size = end as u32;
        Ok(off)
    }

    /// The frame slot of a device function's parameter or return value (None for `.reg`).
    fn param_slot(&mut self, p: &warpscope_ir::Param) -> Result<Option<Slot>, TranslateError> {
        if !p.space.is_param() {
            return Ok(None);
        }
        let off = self
            .alloc_frame(p.size, p.align)
            .map_err(|m| self.err_at(None, m))?;
        Ok(Some(Slot {
            off,
            is_param: true,
        }))
    }

    fn run(mut self) -> Result<(FuncCode, Vec<OpSite>), TranslateError> {
        let f = self.f;
        // Registers.
        for (_, rd) in f.regs.iter() {
            if rd.ty == Type::Pred {
                self.reg_map.push((true, self.npreds));
                self.npreds += 1;
            } else {
                self.reg_map.push((false, self.nregs));
                self.nregs += u32::from(rd.vec.max(1));
            }
        }
        // Frame: module-scope .local variables come first in the kernel's local memory.
        if self.is_kernel {
            self.frame_size = self.ctx.layout.local_size.div_ceil(16) * 16;
        }
        // Device-function parameters and returns (.param) live in the frame.
        if !self.is_kernel {
            for p in &f.params {
                let s = self.param_slot(p)?;
                self.param_slots.push(s);
            }
            for p in &f.returns {
                let s = self.param_slot(p)?;
                self.ret_slots.push(s);
            }
        }
        for (l, v) in f.locals.iter() {
            match v.space {
                StateSpace::Local | StateSpace::Param | StateSpace::ParamFunc => {
                    let size = v.size.ok_or_else(|| {
                        self.err_at(None, format!("local variable `{}` has no size", v.name))
                    })?;
                    let off = self
                        .alloc_frame(size, v.align)
                        .map_err(|m| self.err_at(None, m))?;
                    self.local_slots.insert(
                        l,
                        Slot {
                            off,
                            is_param: v.space != StateSpace::Local,
                        },
                    );
                }
                s if s.is_shared() => {}
                other => {
                    return Err(self.err_at(
                        None,
                        format!(
                            "function-scope `.{}` variable `{}` is not supported",
                            other, v.name
                        ),
                    ));
                }
            }
        }
        self.frame_size = self.frame_size.div_ceil(16) * 16;

        let mut block_pc = vec![0u32; f.blocks.len()];
        for (b, bd) in f.blocks.iter() {
            block_pc[b.index()] = self.ops.len() as u32;
            self.cur_block = b;
            if self.ctx.opts.block_markers {
                self.cur_inst = bd.insts.first().copied().unwrap_or(Inst::new(0));
                self.emit(Op::Block(b));
            }
            for &inst in &bd.insts {
                self.cur_inst = inst;
                if let Err(m) = self.inst(inst) {
                    return Err(self.err_at(Some(inst), m));
                }
            }
        }
        // Falling off the end returns.
        self.emit_plain(if self.is_kernel { Op::Exit } else { Op::Ret });

        // Reconvergence points and branch targets.
        let an = FunctionAnalyses::compute(f);
        let pc_of = |b: u32| block_pc.get(b as usize).copied().unwrap_or(EXIT_PC);
        let ipdom_pc = |blk: Block| -> u32 {
            match an.postdom.ipdom(blk) {
                Some(b) => block_pc[b.index()],
                None => EXIT_PC,
            }
        };
        for (pc, ins) in self.ops.iter_mut().enumerate() {
            let blk = self.meta[pc].block;
            match &mut ins.op {
                Op::Bra { t } => *t = pc_of(*t),
                Op::BraCond { t, rpc, .. } => {
                    *t = pc_of(*t);
                    *rpc = ipdom_pc(blk);
                }
                Op::Brx { table, rpc, .. } => {
                    for t in table.iter_mut() {
                        *t = pc_of(*t);
                    }
                    *rpc = ipdom_pc(blk);
                }
                _ => {}
            }
        }

        let code = FuncCode {
            func: self.fid,
            name: f.name.clone(),
            ops: self.ops,
            meta: self.meta,
            nregs: self.nregs,
            npreds: self.npreds,
            consts: self.const_list,
            warp_consts: self.warp_const_list,
            frame_size: self.frame_size,
            block_pc,
            param_slots: self.param_slots.iter().map(|s| s.map(|s| s.off)).collect(),
            ret_slots: self.ret_slots.iter().map(|s| s.map(|s| s.off)).collect(),
            undefined: {
                let mut regs = Vec::new();
                let mut preds = Vec::new();
                for r in live_in_at_entry(f) {
                    // `.reg` parameters are written by the caller.
                    if f.params.iter().any(|p| p.reg == Some(r)) {
                        continue;
                    }
                    match self.reg_map.get(r.index()) {
                        Some(&(true, i)) => preds.push(i),
                        Some(&(false, i)) => {
                            let vec = u32::from(f.regs[r].vec.max(1));
                            regs.extend(i..i + vec);
                        }
                        None => {}
                    }
                }
                (regs, preds)
            },
        };
        Ok((code, self.sites))
    }

    fn inst(&mut self, inst: Inst) -> TResult<()> {
        let d = &self.f.insts[inst];
        use Opcode as O;
        // One line per opcode: the method that translates it lives in the family module of
        // the same name as the executor's (`translate::arith` ↔ `exec::arith`, …).
        match d.op {
            O::Add | O::Sub => self.add_sub(),
            O::Addc | O::Subc => self.addc_subc(),
            O::Madc => self.madc(),
            O::Mul => self.mul(),
            O::Mul24 => self.mul24(),
            O::Mad => self.mad(),
            O::Mad24 => self.mul24(),
            O::Sad => self.sad(),
            O::Div | O::Rem => self.div_rem(),
            O::Min | O::Max => self.min_max(),
            O::Abs | O::Neg => self.abs_neg(),
            O::Not | O::Cnot => self.not_cnot(),
            O::Popc | O::Clz | O::Brev | O::Bfind => self.bit_scan(),
            O::Bfe => self.bfe(),
            O::Bfi => self.bfi(),
            O::Bmsk => self.bmsk(),
            O::Szext => self.szext(),
            O::Dp4a | O::Dp2a => self.dot_product(),
            O::Fns => self.itern(ITern::Fns, W::B32, K::I(W::B32), K::I(W::B32)),
            O::Testp => self.testp(),
            O::Copysign => self.copysign(),
            O::Fma => self.fma_inst(),
            O::Rcp | O::Sqrt | O::Rsqrt | O::Sin | O::Cos | O::Lg2 | O::Ex2 | O::Tanh => {
                self.special_fn()
            }
            O::Set | O::Setp => self.setp(d.op == O::Set),
            O::Selp => self.selp(),
            O::Slct => self.slct(),
            O::And | O::Or | O::Xor => self.logic(),
            O::Lop3 => self.lop3(),
            O::Shf => self.shf(),
            O::Shl | O::Shr => self.shift(),
            O::Prmt => self.prmt(),
            O::Mov => self.mov(),
            O::Cvt => self.cvt(),
            O::Cvta => self.cvta(),
            O::Isspacep => self.isspacep(),
            O::Ld | O::Ldu => self.ld(),
            O::St => self.st(),
            O::Atom | O::Red => self.atom(d.op == O::Red),
            O::CpAsync => self.cp_async(),
            O::CpAsyncCommitGroup | O::CpAsyncWaitGroup | O::CpAsyncWaitAll => self.async_wait(),
            O::Prefetch
            | O::Prefetchu
            | O::Membar
            | O::Fence
            | O::Nanosleep
            | O::Pmevent
            | O::Discard
            | O::Applypriority => self.no_effect(),
            O::Createpolicy => self.createpolicy(),
            O::Shfl => self.shfl(),
            O::Vote => self.vote(),
            O::Match => self.match_sync(),
            O::Redux => self.redux(),
            O::Activemask => self.activemask(),
            O::Elect => self.elect(),
            O::BarWarpSync => self.bar_warp_sync(),
            O::Bar | O::Barrier => self.bar(),
            O::Bra => self.bra(),
            O::BrxIdx => self.brx_idx(),
            O::Call => self.call(),
            O::Ret => self.ret(),
            O::Exit => self.exit(),
            O::Trap | O::Brkpt => self.trap(),
            _ => Err(format!(
                "instruction `{}` is not supported by the emulator",
                inst_name(d)
            )),
        }
    }
}

/// Frame offsets / registers of a device function's parameters and returns, computed the
/// same way its translation lays them out.
pub(crate) struct CalleeLayout {
    pub params: Vec<(Option<u32>, Option<R>)>,
    pub returns: Vec<(Option<u32>, Option<R>)>,
}

pub(crate) fn callee_layout(f: &warpscope_ir::Function) -> CalleeLayout {
    // Register indices: same enumeration as FnTranslator::run.
    let mut reg_index = Vec::with_capacity(f.regs.len());
    let mut n = 0u32;
    for (_, rd) in f.regs.iter() {
        if rd.ty == Type::Pred {
            reg_index.push(NONE);
        } else {
            reg_index.push(n);
            n += u32::from(rd.vec.max(1));
        }
    }
    let mut top = 0u32;
    let mut place = |size: u64, align: u32| {
        let a = align.max(1);
        let off = top.div_ceil(a) * a;
        top = off + size as u32;
        off
    };
    let mut slot = |p: &warpscope_ir::Param| {
        if p.space.is_param() {
            (Some(place(p.size, p.align)), None)
        } else {
            (None, p.reg.map(|r| reg_index[r.index()]))
        }
    };
    let params = f.params.iter().map(&mut slot).collect();
    let returns = f.returns.iter().map(&mut slot).collect();
    CalleeLayout { params, returns }
}

fn mask(w: W) -> u64 {
    match w {
        W::B64 => u64::MAX,
        w => (1u64 << w.bits()) - 1,
    }
}

fn double(w: W) -> W {
    match w {
        W::B8 => W::B16,
        W::B16 => W::B32,
        _ => W::B64,
    }
}

/// Converts a space address to a generic one.
pub fn to_generic(space: Space, off: u64) -> u64 {
    match space {
        Space::Local => LOCAL_WINDOW + off,
        Space::Shared => SHARED_WINDOW + off,
        Space::Const => CONST_WINDOW + off,
        Space::Param => PARAM_WINDOW + off,
        Space::Global | Space::Generic => off,
    }
}

/// Registers of `f` that may be read before being written (live into the entry block): only
/// these need a defined initial value (zero) for runs to be deterministic.
pub fn live_in_at_entry(f: &warpscope_ir::Function) -> Vec<Reg> {
    let n = f.regs.len();
    if n == 0 || f.blocks.is_empty() {
        return Vec::new();
    }
    let l = Liveness::compute(f);
    if !l.converged {
        // Pathological CFG: treat every register as possibly undefined.
        return (0..n).map(Reg::new).collect();
    }
    (0..n)
        .filter(|&k| liveness::contains(l.live_in(0), k))
        .map(Reg::new)
        .collect()
}

/// Estimated 32-bit registers live at once in `f` (64-bit registers count twice, predicates
/// not at all): the maximum over instructions of the live set, by backward liveness.
pub fn estimate_live_regs(f: &warpscope_ir::Function) -> u32 {
    let n = f.regs.len();
    if n == 0 || f.blocks.is_empty() {
        return 0;
    }
    let weight: Vec<u32> = f
        .regs
        .iter()
        .map(|(_, r)| {
            if r.ty == Type::Pred {
                0
            } else {
                (r.ty.size_bytes() * u32::from(r.vec.max(1))).div_ceil(4)
            }
        })
        .collect();
    let l = Liveness::compute(f);
    let mut best = 0u32;
    for b in 0..f.blocks.len() {
        let mut live = l.live_out(b);
        for &i in f.blocks[Block::new(b)].insts.iter().rev() {
            // Live across the instruction: what is live after it plus what it defines.
            warpscope_ir::effects::for_each_def(&f.insts[i], |r| liveness::insert(&mut live, r));
            let c: u32 = (0..n)
                .filter(|&k| liveness::contains(&live, k))
                .map(|k| weight[k])
                .sum();
            best = best.max(c);
            Liveness::step(f, i, &mut live);
        }
    }
    best
}
