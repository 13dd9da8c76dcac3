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

/// Line starts of a text, for span → line.
fn line_starts(text: &str) -> Vec<u32> {
    let mut v = vec![0u32];
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            v.push(i as u32 + 1);
        }
    }
    v
}

fn line_of(starts: &[u32], off: u32) -> u32 {
    starts.partition_point(|&s| s <= off) as u32
}

/// Translates kernel `kernel` of `module`.
pub fn translate(
    module: &Module,
    kernel: FuncId,
    layout: &ModuleLayout,
    opts: &TranslateOptions,
) -> Result<(Program, ProgramSites), TranslateError> {
    let kf = &module.funcs[kernel];
    let starts = opts.source.as_deref().map(line_starts).unwrap_or_default();
    let site_of = |span: warpscope_ptx::Span| -> (u32, String) {
        match opts.source.as_deref() {
            Some(t) => {
                let line = line_of(&starts, span.start);
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
        starts: &starts,
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
    starts: &'a [u32],
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

/// Finds the `mul.f32`/`mul.f64` + `add`/`sub` pairs that ptxas fuses into one FMA: the
/// multiply has no rounding modifier (so contraction is allowed), its result has exactly one
/// use, an addition or subtraction of the same type without rounding modifier later in the
/// same block, and neither the product nor the factors are redefined in between.
fn contractions(f: &warpscope_ir::Function) -> HashMap<Inst, (Inst, usize)> {
    use warpscope_ir::effects::{for_each_def, for_each_use};
    let mut uses: HashMap<Reg, u32> = HashMap::new();
    for (_, d) in f.insts.iter() {
        for_each_use(d, |r| *uses.entry(r).or_default() += 1);
    }
    let plain = |d: &warpscope_ir::InstData| {
        d.mods.rounding.is_none()
            && !d.mods.has(Flags::SAT)
            && matches!(d.mods.ty, Some(Type::F32 | Type::F64))
    };
    let mut out = HashMap::new();
    for (_, bd) in f.blocks.iter() {
        for (k, &mi) in bd.insts.iter().enumerate() {
            let md = &f.insts[mi];
            if md.op != Opcode::Mul || !plain(md) || md.guard.is_some() {
                continue;
            }
            let Some(Operand::Reg(p)) = md.operands.first() else {
                continue;
            };
            if uses.get(p).copied() != Some(1) {
                continue;
            }
            let factors: Vec<Reg> = md.operands[1..]
                .iter()
                .filter_map(|o| {
                    if let Operand::Reg(r) = o {
                        Some(*r)
                    } else {
                        None
                    }
                })
                .collect();
            for &ai in &bd.insts[k + 1..] {
                let ad = &f.insts[ai];
                let pos = ad
                    .operands
                    .iter()
                    .skip(1)
                    .position(|o| *o == Operand::Reg(*p));
                if let Some(pos) = pos {
                    if matches!(ad.op, Opcode::Add | Opcode::Sub)
                        && plain(ad)
                        && ad.mods.ty == md.mods.ty
                        && ad.mods.has(Flags::FTZ) == md.mods.has(Flags::FTZ)
                        && ad.guard.is_none()
                        && !ad.mods.has(Flags::CC)
                    {
                        out.insert(ai, (mi, pos + 1));
                    }
                    break;
                }
                let mut clobbers = false;
                for_each_def(ad, |r| clobbers |= r == *p || factors.contains(&r));
                if clobbers {
                    break;
                }
            }
        }
    }
    out
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
            contract: contractions(f),
        }
    }

    fn err_at(&self, inst: Option<Inst>, message: String) -> TranslateError {
        let (line, text) = match (inst, self.ctx.opts.source.as_deref()) {
            (Some(i), Some(t)) => {
                let sp = self.f.insts[i].span;
                let s = (sp.start as usize).min(t.len());
                let e = (sp.end as usize).clamp(s, t.len());
                (
                    line_of(self.ctx.starts, sp.start),
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
                let s = if p.space.is_param() {
                    Some(Slot {
                        off: self
                            .alloc_frame(p.size, p.align)
                            .map_err(|m| self.err_at(None, m))?,
                        is_param: true,
                    })
                } else {
                    None
                };
                self.param_slots.push(s);
            }
            for p in &f.returns {
                let s = if p.space.is_param() {
                    Some(Slot {
                        off: self
                            .alloc_frame(p.size, p.align)
                            .map_err(|m| self.err_at(None, m))?,
                        is_param: true,
                    })
                } else {
                    None
                };
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

    // ---- emission helpers ----

    fn emit_g(&mut self, op: Op, guard: Guard) {
        let d = &self.f.insts[self.cur_inst];
        let loc = d.loc.map(|l| (l.file, l.line));
        let inlined_at = d.loc.and_then(|l| l.inlined_at).map(|(f, l, _)| (f, l));
        self.ops.push(Instr { op, guard });
        self.meta.push(OpMeta {
            inst: self.cur_inst,
            block: self.cur_block,
        });
        self.sites.push(OpSite {
            line: if self.ctx.opts.source.is_some() {
                line_of(self.ctx.starts, d.span.start)
            } else {
                0
            },
            span: (d.span.start, d.span.end),
            loc,
            inlined_at,
        });
    }

    fn emit(&mut self, op: Op) {
        let g = self.guard();
        self.emit_g(op, g);
    }

    fn emit_plain(&mut self, op: Op) {
        self.emit_g(op, Guard::ALWAYS);
    }

    fn guard(&self) -> Guard {
        match self.f.insts[self.cur_inst].guard {
            None => Guard::ALWAYS,
            Some(g) => {
                let (is_pred, i) = self.reg_map[g.reg.index()];
                debug_assert!(is_pred);
                Guard(i | if g.negated { Guard::NEG } else { 0 })
            }
        }
    }

    fn temp(&mut self) -> R {
        let r = self.nregs;
        self.nregs += 1;
        r
    }

    fn temp_pred(&mut self) -> P {
        let r = self.npreds;
        self.npreds += 1;
        r
    }

    fn konst(&mut self, v: u64) -> R {
        if let Some(&r) = self.consts.get(&v) {
            return r;
        }
        let r = self.temp();
        self.consts.insert(v, r);
        self.const_list.push((r, v));
        r
    }

    fn warp_const(&mut self, c: WarpConst) -> R {
        if let Some(&r) = self.warp_consts.get(&c) {
            return r;
        }
        let r = self.temp();
        self.warp_consts.insert(c, r);
        self.warp_const_list.push((r, c));
        r
    }

    fn pconst(&mut self, v: bool) -> P {
        if let Some(p) = self.pred_consts[usize::from(v)] {
            return p;
        }
        let p = self.temp_pred();
        self.pred_consts[usize::from(v)] = Some(p);
        // Emitted at the function entry: prepend is not possible, so use an unguarded op at
        // the use site instead (cheap and always correct).
        p
    }

    fn reg(&self, r: Reg) -> TResult<R> {
        match self.reg_map.get(r.index()) {
            Some(&(false, i)) => Ok(i),
            Some(&(true, _)) => Err(format!(
                "predicate `{}` used where a data register is expected",
                self.f.regs[r].name
            )),
            None => Err("unknown register".into()),
        }
    }

    fn pred(&self, r: Reg) -> TResult<P> {
        match self.reg_map.get(r.index()) {
            Some(&(true, i)) => Ok(i),
            Some(&(false, _)) => Err(format!(
                "`{}` is not a predicate register",
                self.f.regs[r].name
            )),
            None => Err("unknown register".into()),
        }
    }

    fn reg_bits(&self, r: Reg) -> u8 {
        let rd = &self.f.regs[r];
        (rd.ty.size_bytes() * 8).min(64) as u8
    }

    /// Destination data register (NONE for `_`).
    fn dst(&self, op: &Operand) -> TResult<R> {
        match op {
            Operand::Reg(r) => self.reg(*r),
            Operand::Sink => Ok(NONE),
            other => Err(format!("unsupported destination operand {other:?}")),
        }
    }

    fn dst_pred(&self, op: &Operand) -> TResult<P> {
        match op {
            Operand::Reg(r) => self.pred(*r),
            Operand::Sink => Ok(NONE),
            other => Err(format!("unsupported predicate destination {other:?}")),
        }
    }

    /// A predicate source: (predicate, negated).
    fn src_pred(&mut self, op: &Operand) -> TResult<(P, bool)> {
        match op {
            Operand::Reg(r) => Ok((self.pred(*r)?, false)),
            Operand::Not(r) => Ok((self.pred(*r)?, true)),
            Operand::Imm(v) => {
                let p = self.materialize_pconst(*v != 0);
                Ok((p, false))
            }
            Operand::UImm(v) => {
                let p = self.materialize_pconst(*v != 0);
                Ok((p, false))
            }
            other => Err(format!("unsupported predicate operand {other:?}")),
        }
    }

    fn materialize_pconst(&mut self, v: bool) -> P {
        let p = self.pconst(v);
        self.emit_plain(Op::PConst { p, v });
        p
    }

    fn imm_bits(v: i128, k: K) -> u64 {
        match k {
            K::I(w) => (v as u64) & mask(w),
            K::F16 => float::int_to_fmt(v, float::F16, Rnd::Rn),
            K::Bf16 => float::int_to_fmt(v, float::BF16, Rnd::Rn),
            K::F32 => float::int_to_fmt(v, float::F32, Rnd::Rn),
            K::F64 => float::int_to_f64(v, Rnd::Rn).to_bits(),
        }
    }

    /// A data source of kind `k`.
    fn src(&mut self, op: &Operand, k: K) -> TResult<R> {
        Ok(match op {
            Operand::Reg(r) => self.reg(*r)?,
            Operand::Imm(v) => {
                let b = Self::imm_bits(i128::from(*v), k);
                self.konst(b)
            }
            Operand::UImm(v) => {
                let b = Self::imm_bits(i128::from(*v), k);
                self.konst(b)
            }
            Operand::F32(bits) => {
                let x = f32::from_bits(*bits);
                let b = match k {
                    K::I(w) => u64::from(*bits) & mask(w),
                    K::F32 => u64::from(*bits),
                    K::F64 => f64::from(x).to_bits(),
                    K::F16 => float::round_to(float::F16, f64::from(x), 0, Rnd::Rn),
                    K::Bf16 => float::round_to(float::BF16, f64::from(x), 0, Rnd::Rn),
                };
                self.konst(b)
            }
            Operand::F64(bits) => {
                let x = f64::from_bits(*bits);
                let b = match k {
                    K::I(w) => *bits & mask(w),
                    K::F32 => u64::from((x as f32).to_bits()),
                    K::F64 => *bits,
                    K::F16 => float::round_to(float::F16, x, 0, Rnd::Rn),
                    K::Bf16 => float::round_to(float::BF16, x, 0, Rnd::Rn),
                };
                self.konst(b)
            }
            Operand::Special(sr, dim) => match WarpConst::of(*sr, *dim) {
                Some(c) => self.warp_const(c),
                None => {
                    let kind = match sr {
                        SpecialReg::Clock => Clock::Clock,
                        SpecialReg::ClockHi => Clock::ClockHi,
                        SpecialReg::Clock64 => Clock::Clock64,
                        SpecialReg::Globaltimer => Clock::GlobalTimer,
                        SpecialReg::GlobaltimerLo => Clock::GlobalTimerLo,
                        SpecialReg::GlobaltimerHi => Clock::GlobalTimerHi,
                        other => return Err(format!("special register {other} is not supported")),
                    };
                    let t = self.temp();
                    self.emit_plain(Op::ReadClock { d: t, kind });
                    t
                }
            },
            Operand::Global(g) => {
                let a = self.global_address(*g, None)?;
                self.konst(a)
            }
            Operand::Local(l) => {
                let v = &self.f.locals[*l];
                if v.space.is_shared() {
                    let off = self.shared_offset(SharedKey::Local(self.fid, *l))?;
                    self.konst(off)
                } else {
                    let slot = self.local_slots[l];
                    let t = self.temp();
                    self.emit_plain(Op::LocalAddr {
                        d: t,
                        off: slot.off,
                    });
                    t
                }
            }
            Operand::Param(i) => {
                if self.is_kernel {
                    let off = self
                        .ctx
                        .param_layout
                        .get(*i as usize)
                        .ok_or("bad parameter index")?
                        .0;
                    self.konst(u64::from(off))
                } else {
                    let slot =
                        self.param_slots[*i as usize].ok_or("address of a .reg parameter taken")?;
                    let t = self.temp();
                    self.emit_plain(Op::LocalAddr {
                        d: t,
                        off: slot.off,
                    });
                    t
                }
            }
            Operand::Func(fid) => {
                let idx = self
                    .ctx
                    .index
                    .get(fid)
                    .ok_or("address of a function with no body")?;
                self.konst(FUNC_WINDOW + 16 * u64::from(*idx))
            }
            other => return Err(format!("unsupported source operand {other:?}")),
        })
    }

    fn shared_offset(&self, k: SharedKey) -> TResult<u64> {
        self.ctx
            .shared_off
            .get(&k)
            .copied()
            .ok_or_else(|| "shared variable missing from layout".to_string())
    }

    /// Address of module variable `g` in `space` (None: its own space's address, as `mov`
    /// gives it).
    fn global_address(&self, g: GlobalId, space: Option<Space>) -> TResult<u64> {
        let v = &self.ctx.module.globals[g];
        let (own, off) = match v.space {
            StateSpace::Global => (
                Space::Global,
                *self
                    .ctx
                    .layout
                    .global_addr
                    .get(&g)
                    .ok_or_else(|| format!("global `{}` was not allocated", v.name))?,
            ),
            StateSpace::Const => (
                Space::Const,
                *self
                    .ctx
                    .layout
                    .const_off
                    .get(&g)
                    .ok_or_else(|| format!("constant `{}` was not allocated", v.name))?,
            ),
            s if s.is_shared() => (Space::Shared, self.shared_offset(SharedKey::Global(g))?),
            StateSpace::Local => (
                Space::Local,
                u64::from(
                    *self
                        .ctx
                        .layout
                        .local_off
                        .get(&g)
                        .ok_or_else(|| format!("local `{}` was not allocated", v.name))?,
                ),
            ),
            other => {
                return Err(format!(
                    "module variable `{}` in `.{other}` space is not supported",
                    v.name
                ));
            }
        };
        match space {
            None => Ok(off),
            Some(s) if s == own => Ok(off),
            Some(Space::Generic) => Ok(to_generic(own, off)),
            Some(s) => Err(format!(
                "variable `{}` is in {:?} space but accessed as {:?}",
                v.name, own, s
            )),
        }
    }

    /// Resolves a memory operand: (space, base, offset).
    fn address(&mut self, op: &Operand, space: Space) -> TResult<(Space, Base, i64)> {
        let Operand::Addr(base, off) = op else {
            return Err(format!("expected an address, found {op:?}"));
        };
        let off = *off;
        match *base {
            AddrBase::Reg(r) => {
                let b = if self.reg_bits(r) <= 32 {
                    Base::Reg32(self.reg(r)?)
                } else {
                    Base::Reg(self.reg(r)?)
                };
                Ok((space, b, off))
            }
            AddrBase::Imm(a) => {
                let k = self.konst(a as u64);
                Ok((space, Base::Reg(k), off))
            }
            AddrBase::Global(g) => {
                let a = self.global_address(g, Some(space))?;
                let k = self.konst(a);
                Ok((space, Base::Reg(k), off))
            }
            AddrBase::Local(l) => {
                let v = &self.f.locals[l];
                if v.space.is_shared() {
                    let o = self.shared_offset(SharedKey::Local(self.fid, l))?;
                    let a = match space {
                        Space::Shared => o,
                        Space::Generic => SHARED_WINDOW + o,
                        _ => return Err("shared variable accessed in another space".into()),
                    };
                    let k = self.konst(a);
                    return Ok((space, Base::Reg(k), off));
                }
                let slot = self.local_slots[&l];
                match space {
                    Space::Local | Space::Param => Ok((
                        if slot.is_param {
                            Space::Param
                        } else {
                            Space::Local
                        },
                        Base::Frame,
                        off + i64::from(slot.off),
                    )),
                    Space::Generic => {
                        // Generic access to a local variable by name: its local address.
                        let t = self.temp();
                        self.emit_plain(Op::LocalAddr {
                            d: t,
                            off: slot.off,
                        });
                        let g = self.temp();
                        self.emit_plain(Op::Cvta {
                            d: g,
                            a: t,
                            to_generic: true,
                            space: Space::Local,
                            narrow: false,
                        });
                        Ok((Space::Generic, Base::Reg(g), off))
                    }
                    _ => Err(format!(
                        "local variable `{}` accessed in {space:?} space",
                        v.name
                    )),
                }
            }
            AddrBase::Param(i) => {
                if self.is_kernel {
                    let (o, _) = *self
                        .ctx
                        .param_layout
                        .get(i as usize)
                        .ok_or("bad parameter index")?;
                    let k = self.konst(u64::from(o));
                    Ok((Space::Param, Base::Reg(k), off))
                } else {
                    let slot = self.param_slots[i as usize].ok_or("`.reg` parameter in memory")?;
                    Ok((Space::Param, Base::Frame, off + i64::from(slot.off)))
                }
            }
            AddrBase::Return(i) => {
                let slot = self
                    .ret_slots
                    .get(i as usize)
                    .copied()
                    .flatten()
                    .ok_or("return value is not a .param")?;
                Ok((Space::Param, Base::Frame, off + i64::from(slot.off)))
            }
        }
    }

    // ---- instruction translation ----

    fn inst(&mut self, inst: Inst) -> TResult<()> {
        let d = &self.f.insts[inst];
        let m = d.mods;
        let ops = &d.operands;
        let ty = m.ty;
        let fl = m.flags;
        let name = || {
            let mut s = d.op.name().to_string();
            if let Some(t) = ty {
                s.push('.');
                s.push_str(t.as_str());
            }
            s
        };
        let opn = |i: usize| -> TResult<&Operand> {
            ops.get(i)
                .ok_or_else(|| format!("`{}` is missing operand {}", d.op, i + 1))
        };
        use Opcode as O;
        match d.op {
            O::Add | O::Sub => {
                let t = ty.ok_or("missing type")?;
                if fl.contains(Flags::CC) {
                    return self.carry(
                        if d.op == O::Add {
                            CarryOp::Add
                        } else {
                            CarryOp::Sub
                        },
                        t,
                        false,
                        true,
                    );
                }
                if let Some(ft) = fty_of(t) {
                    if let Some(&(mul, pos)) = self.contract.get(&inst) {
                        return self.contracted_fma(mul, pos, ft);
                    }
                    let op = if d.op == O::Add { FBin::Add } else { FBin::Sub };
                    return self.fbin(op, ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let f = match (d.op, fl.contains(Flags::SAT)) {
                    (O::Add, false) => IBin::Add,
                    (O::Sub, false) => IBin::Sub,
                    (O::Add, true) => IBin::AddSat,
                    (_, true) => IBin::SubSat,
                    _ => unreachable!(),
                };
                self.ibin(f, w, t)
            }
            O::Addc | O::Subc => {
                let t = ty.ok_or("missing type")?;
                let op = if d.op == O::Addc {
                    CarryOp::Add
                } else {
                    CarryOp::Sub
                };
                self.carry(op, t, true, fl.contains(Flags::CC))
            }
            O::Madc => {
                let t = ty.ok_or("missing type")?;
                let op = match m.mul_mode {
                    Some(MulMode::Hi) => CarryOp::MadHi,
                    _ => CarryOp::MadLo,
                };
                self.carry(op, t, true, fl.contains(Flags::CC))
            }
            O::Mul => {
                let t = ty.ok_or("missing type")?;
                if let Some(ft) = fty_of(t) {
                    return self.fbin(FBin::Mul, ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let s = t.is_signed_int();
                let f = match m.mul_mode {
                    None | Some(MulMode::Lo) => IBin::MulLo,
                    Some(MulMode::Hi) => {
                        if s {
                            IBin::MulHiS
                        } else {
                            IBin::MulHiU
                        }
                    }
                    Some(MulMode::Wide) => {
                        if w == W::B64 {
                            return Err("mul.wide.64 does not exist".into());
                        }
                        if s { IBin::MulWideS } else { IBin::MulWideU }
                    }
                };
                self.ibin(f, w, t)
            }
            O::Mul24 => {
                let t = ty.ok_or("missing type")?;
                let s = t.is_signed_int();
                let f = match (m.mul_mode, s) {
                    (Some(MulMode::Hi), true) => IBin::Mul24HiS,
                    (Some(MulMode::Hi), false) => IBin::Mul24HiU,
                    (_, true) => IBin::Mul24LoS,
                    (_, false) => IBin::Mul24LoU,
                };
                self.ibin(f, W::B32, t)
            }
            O::Mad => {
                let t = ty.ok_or("missing type")?;
                if fl.contains(Flags::CC) {
                    let op = match m.mul_mode {
                        Some(MulMode::Hi) => CarryOp::MadHi,
                        _ => CarryOp::MadLo,
                    };
                    return self.carry(op, t, false, true);
                }
                if let Some(ft) = fty_of(t) {
                    return self.fma(ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let s = t.is_signed_int();
                let f = match m.mul_mode {
                    None | Some(MulMode::Lo) => ITern::MadLo,
                    Some(MulMode::Hi) if fl.contains(Flags::SAT) => {
                        if !(s && w == W::B32) {
                            return Err("mad.hi.sat needs .s32".into());
                        }
                        ITern::MadHiSatS32
                    }
                    Some(MulMode::Hi) => {
                        if s {
                            ITern::MadHiS
                        } else {
                            ITern::MadHiU
                        }
                    }
                    Some(MulMode::Wide) => {
                        if s {
                            ITern::MadWideS
                        } else {
                            ITern::MadWideU
                        }
                    }
                };
                let k_c = if m.mul_mode == Some(MulMode::Wide) {
                    K::I(double(w))
                } else {
                    K::I(w)
                };
                self.itern(f, w, K::I(w), k_c)
            }
            O::Mad24 => {
                let t = ty.ok_or("missing type")?;
                let s = t.is_signed_int();
                let f = match (m.mul_mode, s) {
                    (Some(MulMode::Hi), true) => ITern::Mad24HiS,
                    (Some(MulMode::Hi), false) => ITern::Mad24HiU,
                    (_, true) => ITern::Mad24LoS,
                    (_, false) => ITern::Mad24LoU,
                };
                self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
            }
            O::Sad => {
                let t = ty.ok_or("missing type")?;
                let w = w_of(t).ok_or("bad type")?;
                let f = if t.is_signed_int() {
                    ITern::SadS
                } else {
                    ITern::SadU
                };
                self.itern(f, w, K::I(w), K::I(w))
            }
            O::Div | O::Rem => {
                let t = ty.ok_or("missing type")?;
                if let Some(ft) = fty_of(t) {
                    if d.op == O::Rem {
                        return Err("rem on floats does not exist".into());
                    }
                    let op = if fl.contains(Flags::APPROX) {
                        FBin::DivApprox
                    } else if fl.contains(Flags::FULL) {
                        FBin::DivFull
                    } else {
                        FBin::Div
                    };
                    return self.fbin(op, ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let s = t.is_signed_int();
                let f = match (d.op, s) {
                    (O::Div, true) => IBin::DivS,
                    (O::Div, false) => IBin::DivU,
                    (_, true) => IBin::RemS,
                    (_, false) => IBin::RemU,
                };
                self.ibin(f, w, t)
            }
            O::Min | O::Max => {
                let t = ty.ok_or("missing type")?;
                let is_min = d.op == O::Min;
                if let Some(ft) = fty_of(t) {
                    if fl.contains(Flags::XORSIGN) || fl.contains(Flags::ABS) {
                        return Err(format!("`{}.xorsign.abs` is not supported", d.op));
                    }
                    if ops.len() > 3 {
                        return Err("three-input min/max is not supported".into());
                    }
                    let op = match (is_min, fl.contains(Flags::NAN)) {
                        (true, false) => FBin::Min,
                        (false, false) => FBin::Max,
                        (true, true) => FBin::MinNaN,
                        (false, true) => FBin::MaxNaN,
                    };
                    return self.fbin(op, ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let s = t.is_signed_int();
                let f = match (is_min, s, fl.contains(Flags::RELU)) {
                    (true, true, true) => IBin::MinSRelu,
                    (false, true, true) => IBin::MaxSRelu,
                    (true, true, false) => IBin::MinS,
                    (true, false, _) => IBin::MinU,
                    (false, true, false) => IBin::MaxS,
                    (false, false, _) => IBin::MaxU,
                };
                if t == Type::S16x2 || t == Type::U16x2 {
                    return Err(format!("`{}` on packed 16x2 is not supported", d.op));
                }
                self.ibin(f, w, t)
            }
            O::Abs | O::Neg => {
                let t = ty.ok_or("missing type")?;
                if let Some(ft) = fty_of(t) {
                    let f = if d.op == O::Abs { FUn::Abs } else { FUn::Neg };
                    return self.fun(f, ft);
                }
                let w = w_of(t).ok_or("bad type")?;
                let f = if d.op == O::Abs { IUn::Abs } else { IUn::Neg };
                self.iun(f, w, t)
            }
            O::Not | O::Cnot => {
                let t = ty.ok_or("missing type")?;
                if t == Type::Pred {
                    let p = self.dst_pred(opn(0)?)?;
                    let (a, an) = self.src_pred(opn(1)?)?;
                    if p != NONE {
                        self.emit(Op::PMov { p, a, neg: !an });
                    }
                    return Ok(());
                }
                let w = w_of(t).ok_or("bad type")?;
                let f = if d.op == O::Not { IUn::Not } else { IUn::Cnot };
                self.iun(f, w, t)
            }
            O::Popc | O::Clz | O::Brev | O::Bfind => {
                let t = ty.ok_or("missing type")?;
                let w = w_of(t).ok_or("bad type")?;
                let f = match d.op {
                    O::Popc => IUn::Popc,
                    O::Clz => IUn::Clz,
                    O::Brev => IUn::Brev,
                    _ => match (t.is_signed_int(), fl.contains(Flags::SHIFTAMT)) {
                        (false, false) => IUn::BfindU,
                        (true, false) => IUn::BfindS,
                        (false, true) => IUn::BfindShU,
                        (true, true) => IUn::BfindShS,
                    },
                };
                self.iun(f, w, t)
            }
            O::Bfe => {
                let t = ty.ok_or("missing type")?;
                let w = w_of(t).ok_or("bad type")?;
                let f = if t.is_signed_int() {
                    ITern::BfeS
                } else {
                    ITern::BfeU
                };
                self.itern(f, w, K::I(W::B32), K::I(W::B32))
            }
            O::Bfi => {
                let t = ty.ok_or("missing type")?;
                let w = w_of(t).ok_or("bad type")?;
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(w))?;
                let b = self.src(opn(2)?, K::I(w))?;
                let c = self.src(opn(3)?, K::I(W::B32))?;
                let e = self.src(opn(4)?, K::I(W::B32))?;
                if dd != NONE {
                    self.emit(Op::Bfi {
                        w,
                        d: dd,
                        a,
                        b,
                        c,
                        e,
                    });
                }
                Ok(())
            }
            O::Bmsk => {
                let f = if fl.contains(Flags::CLAMP) {
                    IBin::BmskClamp
                } else {
                    IBin::BmskWrap
                };
                self.ibin(f, W::B32, Type::B32)
            }
            O::Szext => {
                let t = ty.ok_or("missing type")?;
                let s = t.is_signed_int();
                let f = if fl.contains(Flags::CLAMP) {
                    IBin::SzextClamp { signed: s }
                } else {
                    IBin::SzextWrap { signed: s }
                };
                self.ibin(f, W::B32, t)
            }
            O::Dp4a | O::Dp2a => {
                let ta = ty.ok_or("missing type")?;
                let tb = m.ty2.ok_or("missing type")?;
                let f = if d.op == O::Dp4a {
                    ITern::Dp4a {
                        a_signed: ta.is_signed_int(),
                        b_signed: tb.is_signed_int(),
                    }
                } else {
                    ITern::Dp2a {
                        hi: m.mul_mode == Some(MulMode::Hi),
                        a_signed: ta.is_signed_int(),
                        b_signed: tb.is_signed_int(),
                    }
                };
                self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
            }
            O::Fns => self.itern(ITern::Fns, W::B32, K::I(W::B32), K::I(W::B32)),
            O::Testp => {
                let t = ty.ok_or("missing type")?;
                let ft = fty_of(t).ok_or("testp needs f32/f64")?;
                let p = self.dst_pred(opn(0)?)?;
                let k = if ft == FTy::F64 { K::F64 } else { K::F32 };
                let a = self.src(opn(1)?, k)?;
                let f = m.testp.ok_or("testp needs an operator")?;
                if p != NONE {
                    self.emit(Op::Testp { f, ty: ft, p, a });
                }
                Ok(())
            }
            O::Copysign => {
                let t = ty.ok_or("missing type")?;
                let ft = fty_of(t).ok_or("copysign needs f32/f64")?;
                self.fbin(FBin::Copysign, ft)
            }
            O::Fma => {
                let t = ty.ok_or("missing type")?;
                let ft = fty_of(t).ok_or("fma needs a float type")?;
                self.fma(ft)
            }
            O::Rcp | O::Sqrt | O::Rsqrt | O::Sin | O::Cos | O::Lg2 | O::Ex2 | O::Tanh => {
                let t = ty.ok_or("missing type")?;
                let ft = fty_of(t).ok_or("needs a float type")?;
                let approx = fl.contains(Flags::APPROX);
                let f = match d.op {
                    O::Rcp if approx => FUn::RcpApprox,
                    O::Rcp => FUn::Rcp,
                    O::Sqrt if approx => FUn::SqrtApprox,
                    O::Sqrt => FUn::Sqrt,
                    O::Rsqrt => FUn::RsqrtApprox,
                    O::Sin => FUn::SinApprox,
                    O::Cos => FUn::CosApprox,
                    O::Lg2 => FUn::Lg2Approx,
                    O::Ex2 => FUn::Ex2Approx,
                    _ => FUn::TanhApprox,
                };
                let ok = match ft {
                    FTy::F32 => true,
                    FTy::F64 => {
                        matches!(f, FUn::Rcp | FUn::Sqrt | FUn::RcpApprox | FUn::RsqrtApprox)
                    }
                    FTy::F16 | FTy::F16x2 => {
                        matches!(f, FUn::Ex2Approx | FUn::TanhApprox | FUn::Rcp | FUn::Sqrt)
                    }
                    FTy::Bf16 | FTy::Bf16x2 => matches!(f, FUn::Ex2Approx | FUn::TanhApprox),
                };
                if !ok {
                    return Err(format!("`{}` is not supported", name()));
                }
                self.fun(f, ft)
            }
            O::Set | O::Setp => self.setp(d.op == O::Set),
            O::Selp => {
                let t = ty.ok_or("missing type")?;
                let k = k_of(t).ok_or("bad type")?;
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, k)?;
                let b = self.src(opn(2)?, k)?;
                let (p, neg) = self.src_pred(opn(3)?)?;
                if dd != NONE {
                    self.emit(Op::Selp {
                        d: dd,
                        a,
                        b,
                        p,
                        neg,
                    });
                }
                Ok(())
            }
            O::Slct => {
                let t = ty.ok_or("missing type")?;
                let k = k_of(t).ok_or("bad type")?;
                let ct = m.ty2.ok_or("slct needs a compare type")?;
                let (f, kc) = if ct == Type::F32 {
                    (
                        ITern::SlctF {
                            ftz: fl.contains(Flags::FTZ),
                        },
                        K::F32,
                    )
                } else {
                    (ITern::SlctS, K::I(W::B32))
                };
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, k)?;
                let b = self.src(opn(2)?, k)?;
                let c = self.src(opn(3)?, kc)?;
                if dd != NONE {
                    self.emit(Op::Tern {
                        f: TernF::Int(f, W::B64),
                        d: dd,
                        a,
                        b,
                        c,
                    });
                }
                Ok(())
            }
            O::And | O::Or | O::Xor => {
                let t = ty.ok_or("missing type")?;
                if t == Type::Pred {
                    let p = self.dst_pred(opn(0)?)?;
                    let (a, an) = self.src_pred(opn(1)?)?;
                    let (b, bn) = self.src_pred(opn(2)?)?;
                    let op = match d.op {
                        O::And => BoolOp::And,
                        O::Or => BoolOp::Or,
                        _ => BoolOp::Xor,
                    };
                    if p != NONE {
                        self.emit(Op::PLogic {
                            op,
                            p,
                            a,
                            an,
                            b,
                            bn,
                        });
                    }
                    return Ok(());
                }
                let w = w_of(t).ok_or("bad type")?;
                let f = match d.op {
                    O::And => IBin::And,
                    O::Or => IBin::Or,
                    _ => IBin::Xor,
                };
                self.ibin(f, w, t)
            }
            O::Lop3 => {
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(W::B32))?;
                let b = self.src(opn(2)?, K::I(W::B32))?;
                let c = self.src(opn(3)?, K::I(W::B32))?;
                let lut = match opn(4)? {
                    Operand::Imm(v) => *v as u8,
                    Operand::UImm(v) => *v as u8,
                    _ => return Err("lop3 needs an immediate LUT".into()),
                };
                if ops.len() > 5 {
                    return Err("lop3 with a predicate output is not supported".into());
                }
                if dd != NONE {
                    self.emit(Op::Lop3 {
                        d: dd,
                        a,
                        b,
                        c,
                        lut,
                    });
                }
                Ok(())
            }
            O::Shf => {
                let clamp = fl.contains(Flags::CLAMP);
                let f = if fl.contains(Flags::LEFT) {
                    ITern::ShfL { clamp }
                } else {
                    ITern::ShfR { clamp }
                };
                self.itern(f, W::B32, K::I(W::B32), K::I(W::B32))
            }
            O::Shl | O::Shr => {
                let t = ty.ok_or("missing type")?;
                let w = w_of(t).ok_or("bad type")?;
                let f = match (d.op, t.is_signed_int()) {
                    (O::Shl, _) => IBin::Shl,
                    (_, true) => IBin::ShrS,
                    (_, false) => IBin::ShrU,
                };
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(w))?;
                let b = self.src(opn(2)?, K::I(W::B32))?;
                if dd != NONE {
                    self.emit(Op::Bin {
                        f: BinF::Int(f, w),
                        d: dd,
                        a,
                        b,
                    });
                }
                Ok(())
            }
            O::Prmt => {
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(W::B32))?;
                let b = self.src(opn(2)?, K::I(W::B32))?;
                let c = self.src(opn(3)?, K::I(W::B32))?;
                if dd != NONE {
                    self.emit(Op::Prmt {
                        d: dd,
                        a,
                        b,
                        c,
                        mode: m.prmt,
                    });
                }
                Ok(())
            }
            O::Mov => self.mov(),
            O::Cvt => self.cvt(),
            O::Cvta => {
                let space = match m.space {
                    Some(StateSpace::Global) => Space::Global,
                    Some(s) if s.is_shared() => Space::Shared,
                    Some(StateSpace::Local) => Space::Local,
                    Some(StateSpace::Const) => Space::Const,
                    Some(s) if s.is_param() => Space::Param,
                    other => return Err(format!("cvta to {other:?} is not supported")),
                };
                let t = ty.unwrap_or(Type::U64);
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(W::B64))?;
                if dd != NONE {
                    self.emit(Op::Cvta {
                        d: dd,
                        a,
                        to_generic: !fl.contains(Flags::TO),
                        space,
                        narrow: t.size_bytes() == 4,
                    });
                }
                Ok(())
            }
            O::Isspacep => {
                let space = match m.space {
                    Some(StateSpace::Global) => Space::Global,
                    Some(s) if s.is_shared() => Space::Shared,
                    Some(StateSpace::Local) => Space::Local,
                    Some(StateSpace::Const) => Space::Const,
                    Some(s) if s.is_param() => Space::Param,
                    other => return Err(format!("isspacep {other:?} is not supported")),
                };
                let p = self.dst_pred(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(W::B64))?;
                if p != NONE {
                    self.emit(Op::Isspacep { p, a, space });
                }
                Ok(())
            }
            O::Ld | O::Ldu => self.ld(),
            O::St => self.st(),
            O::Atom | O::Red => self.atom(d.op == O::Red),
            O::CpAsync => self.cp_async(),
            O::CpAsyncCommitGroup | O::CpAsyncWaitGroup | O::CpAsyncWaitAll => {
                // Copies complete when issued, so there is nothing to wait for.
                self.emit(Op::Sleep);
                Ok(())
            }
            O::Prefetch
            | O::Prefetchu
            | O::Membar
            | O::Fence
            | O::Nanosleep
            | O::Pmevent
            | O::Discard
            | O::Applypriority => {
                self.emit(Op::Sleep);
                Ok(())
            }
            O::Createpolicy => {
                let dd = self.dst(opn(0)?)?;
                let z = self.konst(0);
                if dd != NONE {
                    self.emit(Op::Mov { d: dd, a: z });
                }
                Ok(())
            }
            O::Shfl => {
                let mode = m.shfl_mode.ok_or("shfl needs a mode")?;
                let (dd, p) = match opn(0)? {
                    Operand::RegPair(a, b) => (self.reg(*a)?, self.pred(*b)?),
                    o => (self.dst(o)?, NONE),
                };
                let a = self.src(opn(1)?, K::I(W::B32))?;
                let b = self.src(opn(2)?, K::I(W::B32))?;
                let c = self.src(opn(3)?, K::I(W::B32))?;
                let mask = match ops.get(4) {
                    Some(o) => self.src(o, K::I(W::B32))?,
                    None => self.konst(0xffff_ffff),
                };
                self.emit(Op::Shfl {
                    mode,
                    d: dd,
                    p,
                    a,
                    b,
                    c,
                    mask,
                });
                Ok(())
            }
            O::Vote => {
                let mode = m.vote_mode.ok_or("vote needs a mode")?;
                let (a, neg) = self.src_pred(opn(1)?)?;
                let (f, dd) = match mode {
                    VoteMode::Ballot => (VoteF::Ballot, self.dst(opn(0)?)?),
                    VoteMode::All => (VoteF::All, self.dst_pred(opn(0)?)?),
                    VoteMode::Any => (VoteF::Any, self.dst_pred(opn(0)?)?),
                    VoteMode::Uni => (VoteF::Uni, self.dst_pred(opn(0)?)?),
                };
                let mask = self.member_mask(ops.get(2))?;
                self.emit(Op::Vote {
                    f,
                    d: dd,
                    a,
                    neg,
                    mask,
                });
                Ok(())
            }
            O::Match => {
                let t = ty.ok_or("missing type")?;
                let w64 = t.size_bytes() == 8;
                let all = m.vote_mode == Some(VoteMode::All);
                let (dd, p) = match opn(0)? {
                    Operand::RegPair(a, b) => (self.reg(*a)?, self.pred(*b)?),
                    o => (self.dst(o)?, NONE),
                };
                let a = self.src(opn(1)?, K::I(if w64 { W::B64 } else { W::B32 }))?;
                let mask = self.member_mask(ops.get(2))?;
                self.emit(Op::Match {
                    all,
                    w64,
                    d: dd,
                    p,
                    a,
                    mask,
                });
                Ok(())
            }
            O::Redux => {
                let t = ty.ok_or("missing type")?;
                let s = t.is_signed_int();
                let f = match (m.atom_op, s) {
                    (Some(AtomOp::Add), _) => ReduxF::Add,
                    (Some(AtomOp::Min), true) => ReduxF::MinS,
                    (Some(AtomOp::Min), false) => ReduxF::MinU,
                    (Some(AtomOp::Max), true) => ReduxF::MaxS,
                    (Some(AtomOp::Max), false) => ReduxF::MaxU,
                    (Some(AtomOp::And), _) => ReduxF::And,
                    (Some(AtomOp::Or), _) => ReduxF::Or,
                    (Some(AtomOp::Xor), _) => ReduxF::Xor,
                    _ => return Err(format!("`{}` is not supported", name())),
                };
                if t.is_float() {
                    return Err("redux.sync on floats is not supported".into());
                }
                let dd = self.dst(opn(0)?)?;
                let a = self.src(opn(1)?, K::I(W::B32))?;
                let mask = self.member_mask(ops.get(2))?;
                self.emit(Op::Redux { f, d: dd, a, mask });
                Ok(())
            }
            O::Activemask => {
                let dd = self.dst(opn(0)?)?;
                self.emit(Op::Activemask { d: dd });
                Ok(())
            }
            O::Elect => {
                let (dd, p) = match opn(0)? {
                    Operand::RegPair(a, b) => (self.dst(&Operand::Reg(*a))?, self.pred(*b)?),
                    o => (self.dst(o)?, NONE),
                };
                let mask = self.member_mask(ops.get(1))?;
                self.emit(Op::Elect { d: dd, p, mask });
                Ok(())
            }
            O::BarWarpSync => {
                self.emit(Op::WarpSync);
                Ok(())
            }
            O::Bar | O::Barrier => self.bar(),
            O::Bra => {
                let Some(Operand::Label(t)) = ops.first() else {
                    return Err("bra needs a label".into());
                };
                let t = t.as_u32();
                if d.guard.is_some() {
                    let g = self.guard();
                    let p = g.0 & !Guard::NEG;
                    let neg = g.0 & Guard::NEG != 0;
                    self.emit_plain(Op::BraCond { p, neg, t, rpc: 0 });
                } else {
                    self.emit_plain(Op::Bra { t });
                }
                Ok(())
            }
            O::BrxIdx => {
                let a = self.src(opn(0)?, K::I(W::B32))?;
                let tbl = match opn(1)? {
                    Operand::JumpTable(t) => *t,
                    _ => return Err("brx.idx needs a .branchtargets table".into()),
                };
                let table: Box<[u32]> = self
                    .f
                    .jump_tables
                    .get(tbl as usize)
                    .ok_or("unknown jump table")?
                    .iter()
                    .map(|b| b.as_u32())
                    .collect();
                self.emit(Op::Brx { a, table, rpc: 0 });
                Ok(())
            }
            O::Call => self.call(),
            O::Ret => {
                self.emit(if self.is_kernel { Op::Exit } else { Op::Ret });
                Ok(())
            }
            O::Exit => {
                self.emit(Op::Exit);
                Ok(())
            }
            O::Trap | O::Brkpt => {
                self.emit(Op::Trap);
                Ok(())
            }
            _ => Err(format!(
                "instruction `{}` is not supported by the emulator",
                name()
            )),
        }
    }

    /// The membermask operand of a `.sync` warp instruction (all lanes when absent).
    fn member_mask(&mut self, op: Option<&Operand>) -> TResult<R> {
        match op {
            Some(o) => self.src(o, K::I(W::B32)),
            None => Ok(self.konst(0xffff_ffff)),
        }
    }

    fn ibin(&mut self, f: IBin, w: W, _t: Type) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let kb = match f {
            IBin::Shl | IBin::ShrS | IBin::ShrU | IBin::BmskClamp | IBin::BmskWrap => K::I(W::B32),
            _ => K::I(w),
        };
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, kb)?;
        if dd != NONE {
            self.emit(Op::Bin {
                f: BinF::Int(f, w),
                d: dd,
                a,
                b,
            });
        }
        Ok(())
    }

    fn itern(&mut self, f: ITern, w: W, kb: K, kc: K) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let ka = match f {
            ITern::Dp4a { .. } | ITern::Dp2a { .. } | ITern::Fns => K::I(W::B32),
            _ => K::I(w),
        };
        let a = self.src(ops.get(1).ok_or("missing operand")?, ka)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, kb)?;
        let c = self.src(ops.get(3).ok_or("missing operand")?, kc)?;
        if dd != NONE {
            self.emit(Op::Tern {
                f: TernF::Int(f, w),
                d: dd,
                a,
                b,
                c,
            });
        }
        Ok(())
    }

    fn iun(&mut self, f: IUn, w: W, _t: Type) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        if dd != NONE {
            self.emit(Op::Un {
                f: UnF::Int(f, w),
                d: dd,
                a,
            });
        }
        Ok(())
    }

    fn fmods(&self) -> FMods {
        let m = self.f.insts[self.cur_inst].mods;
        FMods {
            rnd: rnd_of(m.rounding),
            ftz: m.has(Flags::FTZ),
            sat: m.has(Flags::SAT),
            relu: m.has(Flags::RELU),
        }
    }

    fn fk(ft: FTy) -> K {
        match ft {
            FTy::F16 => K::F16,
            FTy::Bf16 => K::Bf16,
            FTy::F16x2 | FTy::Bf16x2 => K::I(W::B32),
            FTy::F32 => K::F32,
            FTy::F64 => K::F64,
        }
    }

    fn fbin(&mut self, op: FBin, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let k = Self::fk(ft);
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        if matches!(op, FBin::DivApprox | FBin::DivFull) && ft != FTy::F32 {
            return Err("div.approx/div.full need .f32".into());
        }
        let f = match ft {
            FTy::F32 if mods == FMods::RN && !matches!(op, FBin::DivApprox | FBin::DivFull) => {
                BinF::F32Fast(op)
            }
            FTy::F64 if mods == FMods::RN => BinF::F64Fast(op),
            _ => BinF::Float(op, ft, mods),
        };
        if dd != NONE {
            self.emit(Op::Bin { f, d: dd, a, b });
        }
        Ok(())
    }

    /// `add`/`sub` whose operand `pos` is the product of `mul`, evaluated as one fused
    /// multiply-add (as ptxas compiles it): x + a·b, x − a·b = fma(−a, b, x),
    /// a·b − x = fma(a, b, −x).
    fn contracted_fma(&mut self, mul: Inst, pos: usize, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let is_sub = self.f.insts[self.cur_inst].op == Opcode::Sub;
        let mops = self.f.insts[mul].operands.clone();
        let mods = self.fmods();
        let k = Self::fk(ft);
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(mops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(mops.get(2).ok_or("missing operand")?, k)?;
        let other = if pos == 1 { 2 } else { 1 };
        let c = self.src(ops.get(other).ok_or("missing operand")?, k)?;
        let (neg_ab, neg_c) = match (is_sub, pos) {
            (false, _) => (false, false),
            (true, 2) => (true, false),
            (true, _) => (false, true),
        };
        if dd != NONE {
            self.emit(Op::Tern {
                f: TernF::Contracted {
                    ty: ft,
                    ftz: mods.ftz,
                    neg_ab,
                    neg_c,
                },
                d: dd,
                a,
                b,
                c,
            });
        }
        Ok(())
    }

    fn fma(&mut self, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let k = Self::fk(ft);
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        let c = self.src(ops.get(3).ok_or("missing operand")?, k)?;
        let f = match ft {
            FTy::F32 if mods == FMods::RN => TernF::Fma32Fast,
            FTy::F64 if mods == FMods::RN => TernF::Fma64Fast,
            _ => TernF::Fma(ft, mods),
        };
        if dd != NONE {
            self.emit(Op::Tern { f, d: dd, a, b, c });
        }
        Ok(())
    }

    fn fun(&mut self, f: FUn, ft: FTy) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let mods = self.fmods();
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, Self::fk(ft))?;
        if dd != NONE {
            self.emit(Op::Un {
                f: UnF::Float(f, ft, mods),
                d: dd,
                a,
            });
        }
        Ok(())
    }

    fn carry(&mut self, op: CarryOp, t: Type, cin: bool, cout: bool) -> TResult<()> {
        let ops = self.f.insts[self.cur_inst].operands.clone();
        let w = w_of(t).ok_or("bad type")?;
        if !matches!(w, W::B32 | W::B64) {
            return Err("carry arithmetic needs 32 or 64 bits".into());
        }
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(w))?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, K::I(w))?;
        let c = match op {
            CarryOp::MadLo | CarryOp::MadHi => {
                self.src(ops.get(3).ok_or("missing operand")?, K::I(w))?
            }
            _ => NONE,
        };
        self.emit(Op::Carry {
            op,
            w,
            cin,
            cout,
            d: dd,
            a,
            b,
            c,
        });
        Ok(())
    }

    fn setp(&mut self, is_set: bool) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let cmpop = m.cmp.ok_or("missing comparison")?;
        let ct_ty = if is_set {
            m.ty2.ok_or("set needs a compare type")?
        } else {
            m.ty.ok_or("missing type")?
        };
        let ftz = m.has(Flags::FTZ);
        let unsigned = !ct_ty.is_signed_int();
        let cmp = cmp_of(cmpop, unsigned);
        let comb = if let Some(bop) = m.bool_op {
            let last = ops.last().ok_or("missing operand")?;
            let (p, neg) = self.src_pred(last)?;
            Some(Combine { op: bop, p, neg })
        } else {
            None
        };
        if matches!(ct_ty, Type::F16x2 | Type::Bf16x2) {
            if is_set {
                return Err("set on packed halves is not supported".into());
            }
            let (p, q) = match &ops[0] {
                Operand::RegPair(a, b) => (self.pred(*a)?, self.pred(*b)?),
                o => (self.dst_pred(o)?, NONE),
            };
            let a = self.src(ops.get(1).ok_or("missing operand")?, K::I(W::B32))?;
            let b = self.src(ops.get(2).ok_or("missing operand")?, K::I(W::B32))?;
            self.emit(Op::SetpX2 {
                bf16: ct_ty == Type::Bf16x2,
                cmp,
                p,
                q,
                a,
                b,
                comb,
            });
            return Ok(());
        }
        let ty = cmp_ty(ct_ty, ftz, false).ok_or("bad compare type")?;
        let k = k_of(ct_ty).ok_or("bad compare type")?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, k)?;
        let b = self.src(ops.get(2).ok_or("missing operand")?, k)?;
        if is_set {
            let dt = m.ty.ok_or("missing type")?;
            let out = match dt {
                Type::F32 => SetOut::F32,
                Type::F16 => SetOut::F16,
                Type::Bf16 => SetOut::Bf16,
                Type::F16x2 => SetOut::F16x2,
                Type::Bf16x2 => SetOut::Bf16x2,
                t => SetOut::Mask(w_of(t).ok_or("bad type")?),
            };
            let dd = self.dst(&ops[0])?;
            if dd != NONE {
                self.emit(Op::Set {
                    ty,
                    cmp,
                    out,
                    d: dd,
                    a,
                    b,
                    comb,
                });
            }
            return Ok(());
        }
        let (p, q) = match &ops[0] {
            Operand::RegPair(a, b) => (self.pred(*a)?, self.pred(*b)?),
            o => (self.dst_pred(o)?, NONE),
        };
        self.emit(Op::Setp {
            ty,
            cmp,
            p,
            q,
            a,
            b,
            comb,
        });
        Ok(())
    }

    fn mov(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let t = d.mods.ty.ok_or("missing type")?;
        let dst = ops.first().ok_or("missing operand")?;
        let src = ops.get(1).ok_or("missing operand")?;
        if t == Type::Pred {
            let p = self.dst_pred(dst)?;
            match src {
                Operand::Imm(_) | Operand::UImm(_) => {
                    let v = !matches!(src, Operand::Imm(0) | Operand::UImm(0));
                    if p != NONE {
                        self.emit(Op::PConst { p, v });
                    }
                }
                _ => {
                    let (a, neg) = self.src_pred(src)?;
                    if p != NONE {
                        self.emit(Op::PMov { p, a, neg });
                    }
                }
            }
            return Ok(());
        }
        let k = k_of(t).ok_or("bad type")?;
        match (dst, src) {
            (Operand::Vector(ds), _) => {
                // Unpack.
                let n = ds.len();
                if !(2..=4).contains(&n) {
                    return Err("vector mov needs 2 to 4 elements".into());
                }
                let total = t.size_bytes() * 8;
                let ew = total / n as u32;
                let a = self.src(src, K::I(w_of(t).ok_or("bad type")?))?;
                let mut arr = [NONE; 4];
                for (i, o) in ds.iter().enumerate() {
                    arr[i] = self.dst(o)?;
                }
                self.emit(Op::Unpack {
                    ds: arr,
                    n: n as u8,
                    ew: ew as u8,
                    a,
                });
            }
            (_, Operand::Vector(ss)) => {
                let n = ss.len();
                if !(2..=4).contains(&n) {
                    return Err("vector mov needs 2 to 4 elements".into());
                }
                let total = t.size_bytes() * 8;
                let ew = total / n as u32;
                let ek = K::I(W::from_bytes(ew / 8).ok_or("bad element width")?);
                let mut arr = [NONE; 4];
                for (i, o) in ss.iter().enumerate() {
                    arr[i] = self.src(o, ek)?;
                }
                let dd = self.dst(dst)?;
                if dd != NONE {
                    self.emit(Op::Pack {
                        d: dd,
                        srcs: arr,
                        n: n as u8,
                        ew: ew as u8,
                    });
                }
            }
            _ => {
                let dd = self.dst(dst)?;
                let a = self.src(src, k)?;
                if dd != NONE {
                    // A register narrower than its source keeps only its own bits.
                    let bits = match dst {
                        Operand::Reg(r) => self.reg_bits(*r),
                        _ => 64,
                    };
                    if bits < 64 && matches!(src, Operand::Reg(_)) && k != K::I(W::B64) {
                        let w = W::from_bytes(u32::from(bits) / 8).unwrap_or(W::B64);
                        self.emit(Op::Un {
                            f: UnF::Zext(w),
                            d: dd,
                            a,
                        });
                    } else {
                        self.emit(Op::Mov { d: dd, a });
                    }
                }
            }
        }
        Ok(())
    }

    fn cvt(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let to_t = m.ty.ok_or("cvt needs two types")?;
        let from_t = m.ty2.ok_or("cvt needs two types")?;
        let fl = m.flags;
        let num = |t: Type| -> TResult<NumTy> {
            Ok(match t {
                Type::F16 => NumTy::F16,
                Type::Bf16 => NumTy::Bf16,
                Type::Tf32 => NumTy::Tf32,
                Type::F32 => NumTy::F32,
                Type::F64 => NumTy::F64,
                t if !t.is_float() && t != Type::Pred => NumTy::Int {
                    w: w_of(t).ok_or("bad integer type")?,
                    signed: t.is_signed_int(),
                },
                t => return Err(format!("cvt with .{t} is not supported")),
            })
        };
        let dd = self.dst(ops.first().ok_or("missing operand")?)?;
        // Two-source packing conversions.
        if matches!(to_t, Type::F16x2 | Type::Bf16x2) {
            if from_t != Type::F32 {
                return Err(format!("cvt.{to_t}.{from_t} is not supported"));
            }
            let a = self.src(ops.get(1).ok_or("missing operand")?, K::F32)?;
            let b = self.src(ops.get(2).ok_or("missing operand")?, K::F32)?;
            let mods = FMods {
                rnd: rnd_of(m.rounding),
                ftz: false,
                sat: fl.contains(Flags::SATFINITE),
                relu: fl.contains(Flags::RELU),
            };
            if dd != NONE {
                self.emit(Op::Bin {
                    f: BinF::CvtPair {
                        bf16: to_t == Type::Bf16x2,
                        mods,
                    },
                    d: dd,
                    a,
                    b,
                });
            }
            return Ok(());
        }
        let to = num(to_t)?;
        let from = num(from_t)?;
        let from_k = k_of(from_t).ok_or("bad type")?;
        let a = self.src(ops.get(1).ok_or("missing operand")?, from_k)?;
        if dd == NONE {
            return Ok(());
        }
        let sat = fl.contains(Flags::SAT);
        let ftz = fl.contains(Flags::FTZ);
        // Fast paths.
        if let (NumTy::Int { w: tw, .. }, NumTy::Int { w: fw, signed: fs }) = (to, from)
            && !sat
        {
            let f = if tw.bits() <= fw.bits() || !fs {
                UnF::Zext(if tw.bits() <= fw.bits() { tw } else { fw })
            } else {
                UnF::Sext { from: fw, to: tw }
            };
            self.emit(Op::Un { f, d: dd, a });
            return Ok(());
        }
        if to == from && matches!(to, NumTy::F32 | NumTy::F64 | NumTy::F16 | NumTy::Bf16) {
            let ft = match to {
                NumTy::F32 => FTy::F32,
                NumTy::F64 => FTy::F64,
                NumTy::F16 => FTy::F16,
                _ => FTy::Bf16,
            };
            let int_round = matches!(
                m.rounding,
                Some(Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi)
            );
            let f = if int_round { FUn::RoundInt } else { FUn::Ident };
            self.emit(Op::Un {
                f: UnF::Float(
                    f,
                    ft,
                    FMods {
                        rnd: rnd_of(m.rounding),
                        ftz,
                        sat,
                        relu: false,
                    },
                ),
                d: dd,
                a,
            });
            return Ok(());
        }
        let rnd = match (m.rounding, to, from) {
            (Some(r), _, _) => rnd_of(Some(r)),
            // Float to integer without a rounding modifier truncates.
            (None, NumTy::Int { .. }, _) => Rnd::Rz,
            _ => Rnd::Rn,
        };
        self.emit(Op::Un {
            f: UnF::Cvt(CvtSpec {
                to,
                from,
                rnd,
                sat,
                ftz,
                relu: fl.contains(Flags::RELU),
                satfinite: fl.contains(Flags::SATFINITE),
            }),
            d: dd,
            a,
        });
        Ok(())
    }

    fn mem_space(&self) -> TResult<Space> {
        let d = &self.f.insts[self.cur_inst];
        Ok(match d.mods.space {
            None | Some(StateSpace::Generic) => Space::Generic,
            Some(StateSpace::Global) => Space::Global,
            Some(s) if s.is_shared() => {
                if s == StateSpace::SharedCluster {
                    return Err(".shared::cluster is not supported".into());
                }
                Space::Shared
            }
            Some(StateSpace::Local) => Space::Local,
            Some(StateSpace::Const) => Space::Const,
            Some(s) if s.is_param() => Space::Param,
            Some(s) => return Err(format!("`.{s}` accesses are not supported")),
        })
    }

    fn ld(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let t = m.ty.ok_or("missing type")?;
        let size = t.size_bytes();
        if !matches!(size, 1 | 2 | 4 | 8) {
            return Err(format!("ld.{t} is not supported"));
        }
        let space = self.mem_space()?;
        let vec = m.vec.max(1);
        let dsts: Vec<Operand> = match &ops[0] {
            Operand::Vector(v) => v.to_vec(),
            o => vec![o.clone()],
        };
        if dsts.len() != usize::from(vec) || vec > 4 {
            return Err("vector width does not match its registers".into());
        }
        let mut darr = [NONE; 4];
        let mut dst_bits = 64u8;
        for (i, o) in dsts.iter().enumerate() {
            darr[i] = self.dst(o)?;
            if let Operand::Reg(r) = o {
                dst_bits = self.reg_bits(*r);
            }
        }
        let fmt = LoadFmt {
            size: size as u8,
            signed: t.is_signed_int(),
            dst_bits: dst_bits.max((size * 8) as u8),
        };
        let addr = ops.get(1).ok_or("missing address")?;
        // Kernel parameter by name: uniform read.
        if self.is_kernel
            && let Operand::Addr(AddrBase::Param(i), off) = addr
        {
            let (o, _) = *self
                .ctx
                .param_layout
                .get(*i as usize)
                .ok_or("bad parameter index")?;
            self.emit(Op::LdParam {
                fmt,
                vec,
                d: darr,
                off: (i64::from(o) + off) as u32,
            });
            return Ok(());
        }
        let (space, base, off) = self.address(addr, space)?;
        self.emit(Op::Ld {
            space,
            fmt,
            vec,
            d: darr,
            base,
            off,
        });
        Ok(())
    }

    fn st(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let t = m.ty.ok_or("missing type")?;
        let size = t.size_bytes();
        if !matches!(size, 1 | 2 | 4 | 8) {
            return Err(format!("st.{t} is not supported"));
        }
        let space = self.mem_space()?;
        let vec = m.vec.max(1);
        let k = k_of(t).ok_or("bad type")?;
        let srcs: Vec<Operand> = match ops.get(1).ok_or("missing operand")? {
            Operand::Vector(v) => v.to_vec(),
            o => vec![o.clone()],
        };
        if srcs.len() != usize::from(vec) || vec > 4 {
            return Err("vector width does not match its registers".into());
        }
        let mut sarr = [NONE; 4];
        for (i, o) in srcs.iter().enumerate() {
            sarr[i] = match o {
                Operand::Sink => NONE,
                o => self.src(o, k)?,
            };
        }
        let (space, base, off) = self.address(&ops[0], space)?;
        if space == Space::Param && base != Base::Frame {
            return Err("stores to kernel parameters are not allowed".into());
        }
        self.emit(Op::St {
            space,
            size: size as u8,
            vec,
            s: sarr,
            base,
            off,
        });
        Ok(())
    }

    fn cp_async(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        if !m.space.is_some_and(|s| s.is_shared()) || m.space2 != Some(StateSpace::Global) {
            return Err("cp.async is supported from .global to .shared".into());
        }
        let size = match ops.get(2) {
            Some(Operand::Imm(v)) if matches!(*v, 4 | 8 | 16) => *v as u8,
            Some(Operand::UImm(v)) if matches!(*v, 4 | 8 | 16) => *v as u8,
            _ => return Err("cp.async needs a copy size of 4, 8 or 16".into()),
        };
        let (space_d, dst, dst_off) =
            self.address(ops.first().ok_or("missing operand")?, Space::Shared)?;
        let (space_s, src, src_off) =
            self.address(ops.get(1).ok_or("missing operand")?, Space::Global)?;
        if space_d != Space::Shared || space_s != Space::Global {
            return Err("cp.async operands must be shared and global addresses".into());
        }
        let (mut src_size, mut ignore, mut ignore_neg) = (NONE, NONE, false);
        for o in ops.iter().skip(3) {
            match o {
                Operand::Reg(r) if self.f.regs[*r].ty == Type::Pred => ignore = self.pred(*r)?,
                Operand::Not(r) => {
                    ignore = self.pred(*r)?;
                    ignore_neg = true;
                }
                Operand::Reg(_) | Operand::Imm(_) | Operand::UImm(_) if src_size == NONE => {
                    src_size = self.src(o, K::I(W::B32))?;
                }
                // A trailing cache-policy register (`.L2::cache_hint`) only hints.
                Operand::Reg(_) => {}
                other => return Err(format!("unsupported cp.async operand {other:?}")),
            }
        }
        self.emit(Op::CpAsync {
            dst,
            dst_off,
            src,
            src_off,
            size,
            src_size,
            ignore,
            ignore_neg,
        });
        Ok(())
    }

    fn atom(&mut self, is_red: bool) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let t = m.ty.ok_or("missing type")?;
        let op = m.atom_op.ok_or("missing atomic operation")?;
        let ty = match t {
            Type::U32 => AtomTy::U32,
            Type::S32 => AtomTy::S32,
            Type::U64 => AtomTy::U64,
            Type::S64 => AtomTy::S64,
            Type::B32 => AtomTy::B32,
            Type::B64 => AtomTy::B64,
            Type::F32 => AtomTy::F32,
            Type::F64 => AtomTy::F64,
            Type::F16 => AtomTy::F16,
            Type::F16x2 => AtomTy::F16x2,
            Type::Bf16 => AtomTy::Bf16,
            Type::Bf16x2 => AtomTy::Bf16x2,
            Type::B16 => AtomTy::B16,
            other => return Err(format!("atomics on .{other} are not supported")),
        };
        if m.vec > 1 {
            return Err("vector atomics are not supported".into());
        }
        let valid = match ty {
            AtomTy::F32 | AtomTy::F64 => {
                matches!(op, AtomOp::Add | AtomOp::Exch | AtomOp::Min | AtomOp::Max)
            }
            AtomTy::F16 | AtomTy::F16x2 | AtomTy::Bf16 | AtomTy::Bf16x2 => {
                matches!(op, AtomOp::Add | AtomOp::Min | AtomOp::Max)
            }
            AtomTy::B16 => op == AtomOp::Cas,
            _ => op != AtomOp::Popc,
        };
        if !valid {
            return Err(format!("atom.{op}.{t} is not supported"));
        }
        let space = self.mem_space()?;
        if !matches!(space, Space::Global | Space::Shared | Space::Generic) {
            return Err("atomics need global, shared or generic addresses".into());
        }
        let k = match ty {
            AtomTy::F32 => K::F32,
            AtomTy::F64 => K::F64,
            AtomTy::F16 => K::F16,
            AtomTy::Bf16 => K::Bf16,
            AtomTy::B16 => K::I(W::B16),
            _ => K::I(W::from_bytes(ty.size()).unwrap_or(W::B32)),
        };
        let (dd, rest) = if is_red {
            (NONE, &ops[..])
        } else {
            (self.dst(&ops[0])?, &ops[1..])
        };
        let (space, base, off) = self.address(rest.first().ok_or("missing address")?, space)?;
        let b = self.src(rest.get(1).ok_or("missing operand")?, k)?;
        let c = if op == AtomOp::Cas {
            self.src(rest.get(2).ok_or("missing operand")?, k)?
        } else {
            NONE
        };
        self.emit(Op::Atom {
            space,
            op,
            ty,
            d: dd,
            base,
            off,
            b,
            c,
        });
        Ok(())
    }

    fn bar(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let fl = m.flags;
        if m.scope == Some(warpscope_ptx::Scope::Cluster) {
            return Err("cluster barriers are not supported".into());
        }
        let aligned = d.op == Opcode::Bar || fl.contains(Flags::ALIGNED);
        let (kind, first) = if fl.contains(Flags::RED) {
            let k = match m.atom_op {
                Some(AtomOp::Popc) => BarKind::RedPopc,
                Some(AtomOp::And) => BarKind::RedAnd,
                Some(AtomOp::Or) => BarKind::RedOr,
                _ => return Err("bar.red needs .popc, .and or .or".into()),
            };
            (k, 1)
        } else if fl.contains(Flags::ARRIVE) {
            (BarKind::Arrive, 0)
        } else {
            (BarKind::Sync, 0)
        };
        let id = match ops.get(first) {
            Some(o) => self.src(o, K::I(W::B32))?,
            None => self.konst(0),
        };
        let (count, a, neg) = match kind {
            BarKind::Sync | BarKind::Arrive => {
                let c = match ops.get(first + 1) {
                    Some(o) => self.src(o, K::I(W::B32))?,
                    None => NONE,
                };
                (c, NONE, false)
            }
            _ => {
                // bar.red d, a{, b}, {!}c
                let n = ops.len();
                let (p, neg) = self.src_pred(&ops[n - 1])?;
                let c = if n == 4 {
                    self.src(&ops[2], K::I(W::B32))?
                } else {
                    NONE
                };
                (c, p, neg)
            }
        };
        let dd = match kind {
            BarKind::RedPopc => self.dst(&ops[0])?,
            BarKind::RedAnd | BarKind::RedOr => self.dst_pred(&ops[0])?,
            _ => NONE,
        };
        self.emit(Op::Bar {
            kind,
            aligned,
            id,
            count,
            d: dd,
            a,
            neg,
        });
        Ok(())
    }

    fn call(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let (rets, rest): (&[Operand], &[Operand]) = match ops.first() {
            Some(Operand::List(r)) => (r, &ops[1..]),
            _ => (&[], &ops[..]),
        };
        let target = rest.first().ok_or("call needs a target")?;
        let args: &[Operand] = match rest.get(1) {
            Some(Operand::List(a)) => a,
            _ => &[],
        };
        let (callee, callee_f) = match target {
            Operand::Func(fid) => {
                let cf = &self.ctx.module.funcs[*fid];
                if let Some(b) = builtin_of(&cf.name) {
                    (Callee::Builtin(b), Some(cf))
                } else if cf.is_declaration {
                    return Err(format!(
                        "call to `{}`, which has no body in this module (extern functions other \
                         than vprintf and __assertfail are not supported)",
                        cf.name
                    ));
                } else {
                    (Callee::Func(self.ctx.index[fid]), Some(cf))
                }
            }
            Operand::Reg(r) => (Callee::Indirect(self.reg(*r)?), None),
            other => return Err(format!("unsupported call target {other:?}")),
        };
        // Caller-side storage of each argument / return.
        let mut arg_offsets = Vec::new();
        let mut arg_srcs = Vec::new();
        for a in args {
            match a {
                Operand::Local(l) => {
                    let slot = self
                        .local_slots
                        .get(l)
                        .ok_or("call argument is not a .param variable")?;
                    arg_offsets.push(slot.off);
                    arg_srcs.push(ArgSrc::Mem(slot.off, self.f.locals[*l].size.unwrap_or(0)));
                }
                o => {
                    let r = self.src(o, K::I(W::B64))?;
                    arg_offsets.push(u32::MAX);
                    arg_srcs.push(ArgSrc::Reg(r));
                }
            }
        }
        let mut ret_dsts = Vec::new();
        for r in rets {
            match r {
                Operand::Local(l) => {
                    let slot = self
                        .local_slots
                        .get(l)
                        .ok_or("call return is not a .param variable")?;
                    ret_dsts.push(ArgSrc::Mem(slot.off, self.f.locals[*l].size.unwrap_or(0)));
                }
                Operand::Reg(x) => ret_dsts.push(ArgSrc::Reg(self.reg(*x)?)),
                other => return Err(format!("unsupported call return {other:?}")),
            }
        }
        let ret_offset = match ret_dsts.first() {
            Some(ArgSrc::Mem(o, _)) => Some(*o),
            _ => None,
        };
        let mut xargs = Vec::new();
        let mut xrets = Vec::new();
        if let (Callee::Func(idx), Some(cf)) = (callee, callee_f) {
            // Callee layout: the same order FnTranslator::run uses.
            let layout = callee_layout(cf);
            let _ = idx;
            if args.len() != cf.params.len() || rets.len() != cf.returns.len() {
                return Err(format!(
                    "call to `{}` passes {} arguments and {} returns; it has {} and {}",
                    cf.name,
                    args.len(),
                    rets.len(),
                    cf.params.len(),
                    cf.returns.len()
                ));
            }
            for (i, src) in arg_srcs.iter().enumerate() {
                let (slot, reg) = layout.params[i];
                xargs.push(match (src, slot, reg) {
                    (ArgSrc::Mem(o, sz), Some(co), _) => Xfer::Mem {
                        caller_off: *o,
                        callee_off: co,
                        size: (*sz).min(cf.params[i].size) as u32,
                    },
                    (ArgSrc::Reg(r), _, Some(cr)) => Xfer::Reg {
                        caller: *r,
                        callee: cr,
                    },
                    _ => {
                        return Err(format!(
                            "argument {} of `{}` mixes .param and .reg passing",
                            i, cf.name
                        ));
                    }
                });
            }
            for (i, dst) in ret_dsts.iter().enumerate() {
                let (slot, reg) = layout.returns[i];
                xrets.push(match (dst, slot, reg) {
                    (ArgSrc::Mem(o, sz), Some(co), _) => Xfer::Mem {
                        caller_off: *o,
                        callee_off: co,
                        size: (*sz).min(cf.returns[i].size) as u32,
                    },
                    (ArgSrc::Reg(r), _, Some(cr)) => Xfer::RegBack {
                        callee: cr,
                        caller: *r,
                    },
                    _ => {
                        return Err(format!(
                            "return {} of `{}` mixes .param and .reg passing",
                            i, cf.name
                        ));
                    }
                });
            }
        } else if let Callee::Indirect(_) = callee {
            // Arguments are copied by the callee's layout at run time: record sources only.
            for src in &arg_srcs {
                if let ArgSrc::Mem(o, sz) = src {
                    xargs.push(Xfer::Mem {
                        caller_off: *o,
                        callee_off: u32::MAX,
                        size: *sz as u32,
                    });
                } else {
                    return Err("indirect calls with .reg arguments are not supported".into());
                }
            }
            for dst in &ret_dsts {
                if let ArgSrc::Mem(o, sz) = dst {
                    xrets.push(Xfer::Mem {
                        caller_off: *o,
                        callee_off: u32::MAX,
                        size: *sz as u32,
                    });
                } else {
                    return Err("indirect calls with .reg returns are not supported".into());
                }
            }
        }
        self.emit(Op::Call(Box::new(CallInfo {
            callee,
            args: xargs.into_boxed_slice(),
            rets: xrets.into_boxed_slice(),
            arg_offsets: arg_offsets.into_boxed_slice(),
            ret_offset,
        })));
        Ok(())
    }
}

enum ArgSrc {
    Mem(u32, u64),
    Reg(R),
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
    let params = f
        .params
        .iter()
        .map(|p| {
            if p.space.is_param() {
                (Some(place(p.size, p.align)), None)
            } else {
                (None, p.reg.map(|r| reg_index[r.index()]))
            }
        })
        .collect();
    let returns = f
        .returns
        .iter()
        .map(|p| {
            if p.space.is_param() {
                (Some(place(p.size, p.align)), None)
            } else {
                (None, p.reg.map(|r| reg_index[r.index()]))
            }
        })
        .collect();
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
