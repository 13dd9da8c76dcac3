//! Thread dependence (uniformity) with provenance.
//!
//! A value is *thread-dependent* (TD) when lanes of one warp may hold different values of it.
//! Sources: `%tid.*`, `%laneid` and lane masks, values returned by atomics, shuffles and
//! `match`, and thread-dependent parameters of a device function in its calling context. Not
//! clocks (`%clock`, `%clock64`, `%globaltimer`): one instruction reads them for every active
//! lane of a warp at once, so the lanes that read together see one value (lanes that read at
//! different times, on different paths, merge at a join: control dependence below). Dependence
//! flows
//!
//! * through data: an instruction reading a TD value defines TD values (a load through a TD
//!   address loads TD data; a load through a uniform address is a broadcast and stays uniform);
//! * through control (GPUCheck eq. 1): a register read outside the divergent region of a TD
//!   branch, one of whose reaching definitions lies inside the region, merges paths that lanes
//!   took differently. This covers values assigned under thread-dependent branches and read
//!   after the join, and values defined in a loop whose exit some lanes take earlier than
//!   others. PTX registers are redefined freely, so the rule works on the IR's reaching
//!   definitions rather than on SSA φs;
//! * across calls: each function is analysed once per set of thread-dependent parameters
//!   (a summary: which returns are then TD), so results are context sensitive.
//!
//! Like naga's analyzer, every TD value keeps the [`Cause`] that made it so; following causes
//! gives the provenance chain a finding prints ("depends on %tid.x via line 12").

use cranelift_entity::{EntityRef, SecondaryMap};
use rustc_hash::FxHashMap;
use warpscope_ir::control::{cond_branch, divergent_region};
use warpscope_ir::{
    AddrBase, Block, CallGraph, Def, FuncId, Function, FunctionAnalyses, Inst, Module, Operand,
    Reg, SrcLoc,
};
use warpscope_ptx::{Dim, Opcode, SpecialReg, StateSpace};

/// What makes a value thread-dependent in the first place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    Tid(Dim),
    Laneid,
    LaneMask,
    Atomic,
    Shuffle,
    /// A parameter that is thread-dependent at the call site of the analysed context.
    Param(u32),
}

impl SourceKind {
    /// e.g. `%tid.x`, `an atomic's returned value`.
    pub fn describe(self) -> String {
        match self {
            SourceKind::Tid(d) => format!("%tid.{}", dim_name(d)),
            SourceKind::Laneid => "%laneid".into(),
            SourceKind::LaneMask => "a %lanemask register".into(),
            SourceKind::Atomic => "an atomic's returned value".into(),
            SourceKind::Shuffle => "a value from another lane (shfl/match)".into(),
            SourceKind::Param(i) => format!("parameter {i} (thread-dependent at the call site)"),
        }
    }
}

pub(crate) fn dim_name(d: Dim) -> &'static str {
    match d {
        Dim::X => "x",
        Dim::Y => "y",
        Dim::Z => "z",
    }
}

/// Why a value is thread-dependent: one link of a provenance chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// `inst` reads a source of thread dependence.
    Source { inst: Inst, kind: SourceKind },
    /// `inst` computes its result from the TD definition `from`.
    Data { inst: Inst, from: Def },
    /// `inst` loads from an address that depends on `from`.
    Load { inst: Inst, from: Def },
    /// The value read at `at` merges the paths of the TD branch `branch`.
    Control { branch: Inst, at: Inst },
    /// `inst` calls `callee`, which returns a TD value in this context.
    Call { inst: Inst, callee: FuncId },
}

/// Thread dependence of one function in one calling context.
#[derive(Debug, Clone, Default)]
pub struct Uniformity {
    /// TD definitions with their cause.
    def_td: SecondaryMap<Def, Option<Cause>>,
    /// Uses made TD by control dependence.
    use_ctrl: FxHashMap<(Inst, Reg), Cause>,
    /// TD conditional branches (guard cause) in block order.
    branches: Vec<(Inst, Cause)>,
    /// Bit i: the function's i-th return value is TD.
    pub ret_mask: u64,
}

/// Per-module results: each function under each set of TD parameters it is called with.
#[derive(Debug, Default)]
pub struct ModuleUniformity {
    results: FxHashMap<(FuncId, u64), Uniformity>,
    in_progress: Vec<(FuncId, u64)>,
}

impl ModuleUniformity {
    /// Analyses every kernel (parameters uniform) and, on demand, the device functions they
    /// call in each context.
    pub fn compute(module: &Module, analyses: &SecondaryMap<FuncId, FunctionAnalyses>) -> Self {
        let mut mu = ModuleUniformity::default();
        let cg = CallGraph::with_module(module);
        for (fid, _) in module.kernels() {
            mu.get_or_compute(module, analyses, &cg, fid, 0);
        }
        mu
    }

    /// The result for `f` with TD-parameter mask `mask`, if computed.
    pub fn get(&self, f: FuncId, mask: u64) -> Option<&Uniformity> {
        self.results.get(&(f, mask))
    }

    fn get_or_compute(
        &mut self,
        module: &Module,
        analyses: &SecondaryMap<FuncId, FunctionAnalyses>,
        cg: &CallGraph,
        f: FuncId,
        mask: u64,
    ) -> u64 {
        if let Some(u) = self.results.get(&(f, mask)) {
            return u.ret_mask;
        }
        if self.in_progress.contains(&(f, mask))
            || cg.is_recursive(f) && self.in_progress.iter().any(|p| p.0 == f)
        {
            // Recursion: every return is TD if anything is.
            return u64::MAX;
        }
        let func = &module.funcs[f];
        if func.is_declaration {
            return if mask != 0 { u64::MAX } else { 0 };
        }
        self.in_progress.push((f, mask));
        let u = Uniformity::compute(func, &analyses[f], mask, &mut |callee, argmask| {
            crate::stack::deep(|| self.get_or_compute(module, analyses, cg, callee, argmask))
        });
        self.in_progress.retain(|p| *p != (f, mask));
        let r = u.ret_mask;
        self.results.insert((f, mask), u);
        r
    }

    /// All computed (function, mask) pairs.
    pub fn contexts(&self) -> impl Iterator<Item = (FuncId, u64)> + '_ {
        self.results.keys().copied()
    }
}

/// The special register read by `op`, if any.
fn special(op: &Operand) -> Option<(SpecialReg, Option<Dim>)> {
    match op {
        Operand::Special(r, d) => Some((*r, *d)),
        Operand::Vector(v) => v.iter().find_map(special),
        _ => None,
    }
}

fn source_of(data: &warpscope_ir::InstData) -> Option<SourceKind> {
    match data.op {
        Opcode::Atom => return Some(SourceKind::Atomic),
        Opcode::Shfl | Opcode::Match => return Some(SourceKind::Shuffle),
        _ => {}
    }
    for op in &data.operands {
        if let Some((r, d)) = special(op) {
            let k = match r {
                SpecialReg::Tid => SourceKind::Tid(d.unwrap_or(Dim::X)),
                SpecialReg::Laneid => SourceKind::Laneid,
                SpecialReg::LanemaskEq
                | SpecialReg::LanemaskLe
                | SpecialReg::LanemaskLt
                | SpecialReg::LanemaskGe
                | SpecialReg::LanemaskGt => SourceKind::LaneMask,
                _ => continue,
            };
            return Some(k);
        }
    }
    None
}

/// Whether `inst` computes a warp index from `%tid.x`: a chain of shifts, masks and
/// multiplications by powers of two whose result depends on none of `%tid.x`'s low five bits
/// (`threadIdx.x / 32`, `threadIdx.x & ~31`, nvcc's `(tid >> 1) & ~15` for `tid / 32 * 16`).
/// Every lane of a warp gets the same value when the block's x extent is a multiple of 32 or
/// at most 32, as code that computes a warp index this way assumes; such a value is not
/// thread-dependent, and neither is what a warp-synchronous traversal loads through it (a
/// per-warp stack in shared memory).
fn warp_id_of_tid(func: &Function, fa: &FunctionAnalyses, inst: Inst) -> bool {
    if !matches!(
        func.insts[inst].op,
        Opcode::Shr | Opcode::Shl | Opcode::And | Opcode::Div | Opcode::Mul
    ) {
        return false;
    }
    tid_bits(func, fa, inst, 6)
        .is_some_and(|(shift, mask)| mask == 0 || mask.trailing_zeros() as i32 + shift >= 5)
}

/// For a value computed from `%tid.x` by shifts, masks and multiplications or divisions by
/// powers of two only: `(s, m)` such that bit `b` of the value, for each `b` in mask `m`, is
/// bit `b + s` of `%tid.x`, and every other bit is zero.
fn tid_bits(func: &Function, fa: &FunctionAnalyses, inst: Inst, depth: u32) -> Option<(i32, u32)> {
    let d = &func.insts[inst];
    let src = |k: usize| -> Option<(i32, u32)> {
        if depth == 0 {
            return None;
        }
        let Some(Operand::Reg(r)) = d.operands.get(k) else {
            return None;
        };
        let defs = fa.defuse.reaching(inst, *r);
        let [def] = defs else { return None };
        tid_bits(func, fa, fa.defuse.def(*def).inst?, depth - 1)
    };
    let imm = || match d.operands.get(2) {
        Some(Operand::Imm(v)) => Some(*v),
        Some(Operand::UImm(v)) => i64::try_from(*v).ok(),
        _ => None,
    };
    let pow2 = |v: i64| (v > 0 && v & (v - 1) == 0).then(|| v.trailing_zeros() as i32);
    match d.op {
        Opcode::Mov => match d.operands.get(1) {
            Some(Operand::Special(SpecialReg::Tid, None | Some(Dim::X))) => Some((0, u32::MAX)),
            Some(Operand::Reg(_)) => src(1),
            _ => None,
        },
        Opcode::Shr => {
            let k = imm().filter(|k| (0..32).contains(k))? as i32;
            let (s, m) = src(1)?;
            Some((s + k, m >> k))
        }
        Opcode::Div => {
            let k = pow2(imm()?)?;
            let (s, m) = src(1)?;
            Some((s + k, m >> k))
        }
        Opcode::Shl => {
            let k = imm().filter(|k| (0..32).contains(k))? as i32;
            let (s, m) = src(1)?;
            Some((s - k, m << k))
        }
        Opcode::Mul => {
            let k = pow2(imm()?)?;
            let (s, m) = src(1)?;
            Some((s - k, m.checked_shl(k as u32).unwrap_or(0)))
        }
        Opcode::And => {
            let c = imm()? as u32;
            let (s, m) = src(1)?;
            Some((s, m & c))
        }
        _ => None,
    }
}

/// Whether `inst` ends a butterfly reduction over the whole warp: `v = op(v, shfl.sync.bfly(v,
/// m))` for the lane masks 16, 8, 4, 2 and 1 in some order, with every lane a member (member
/// mask `-1`) and one 32-lane segment (clamp 31), and `op` commutative (`add`, `mul`, `min`,
/// `max`, `and`, `or`, `xor`). After each step lanes `l` and `l ^ m` hold the same value, since
/// `op(a, b)` and `op(b, a)` are equal bit for bit (IEEE addition and multiplication commute
/// exactly); after the five steps every lane holds the same value: `cg::reduce` over a
/// `tiled_partition<32>` and the hand-written `__shfl_xor_sync` sums. A warp reduction with
/// `shfl.down` leaves the total in lane 0 only and stays thread-dependent.
fn full_butterfly(func: &Function, fa: &FunctionAnalyses, inst: Inst) -> bool {
    let mut masks = 0u32;
    let mut cur = inst;
    for _ in 0..5 {
        let Some((m, prev)) = butterfly_step(func, fa, cur) else {
            return false;
        };
        if masks & m != 0 {
            return false;
        }
        masks |= m;
        match prev {
            Some(p) => cur = p,
            None => break,
        }
    }
    masks == 31
}

/// For `inst = op(v, shfl.sync.bfly(v, m, 31, -1))` with `op` commutative: `m` and the
/// instruction defining `v` (if any).
fn butterfly_step(
    func: &Function,
    fa: &FunctionAnalyses,
    inst: Inst,
) -> Option<(u32, Option<Inst>)> {
    let d = &func.insts[inst];
    if d.guard.is_some()
        || !matches!(
            d.op,
            Opcode::Add
                | Opcode::Mul
                | Opcode::Min
                | Opcode::Max
                | Opcode::And
                | Opcode::Or
                | Opcode::Xor
        )
        || d.operands.len() != 3
    {
        return None;
    }
    let (Operand::Reg(x), Operand::Reg(y)) = (&d.operands[1], &d.operands[2]) else {
        return None;
    };
    for (v, s) in [(*x, *y), (*y, *x)] {
        let Some(sd) = through_moves(func, fa, inst, s, 4) else {
            continue;
        };
        let Some(si) = fa.defuse.def(sd).inst else {
            continue;
        };
        let sh = &func.insts[si];
        if sh.op != Opcode::Shfl
            || sh.guard.is_some()
            || sh.mods.shfl_mode != Some(warpscope_ptx::ShflMode::Bfly)
            || sh.operands.len() != 5
        {
            continue;
        }
        let Operand::Reg(src) = &sh.operands[1] else {
            continue;
        };
        let m = const_of(func, fa, si, &sh.operands[2]);
        let c = const_of(func, fa, si, &sh.operands[3]);
        let member = const_of(func, fa, si, &sh.operands[4]);
        let full = matches!(member, Some(-1 | 0xffff_ffff));
        let Some(m) = m.filter(|m| (1..32).contains(m) && m & (m - 1) == 0) else {
            continue;
        };
        if c != Some(31) || !full {
            continue;
        }
        let (shuffled, at_shfl) = value_id(func, fa, si, *src, 4);
        let (kept, at_op) = value_id(func, fa, inst, v, 4);
        // One definition, or the same reaching definitions read in one block (a loop's
        // accumulator after the loop) with none between the two reads.
        if !kept.is_empty() && shuffled == kept && (kept.len() == 1 || at_shfl == at_op) {
            let prev = match kept[..] {
                [d] => fa.defuse.def(d).inst,
                _ => None,
            };
            return Some((m as u32, prev));
        }
    }
    None
}

/// When `reg`, as read by `at`, has one definition and it is an unguarded `mov` of a register:
/// that `mov` and the register it copies.
fn copied_from(func: &Function, fa: &FunctionAnalyses, at: Inst, reg: Reg) -> Option<(Inst, Reg)> {
    let [def] = fa.defuse.reaching(at, reg) else {
        return None;
    };
    let i = fa.defuse.def(*def).inst?;
    let d = &func.insts[i];
    match d.operands.get(1) {
        Some(Operand::Reg(r)) if d.op == Opcode::Mov && d.guard.is_none() => Some((i, *r)),
        _ => None,
    }
}

/// The one definition of `reg` as read by `at`, followed through plain register moves.
fn through_moves(
    func: &Function,
    fa: &FunctionAnalyses,
    at: Inst,
    reg: Reg,
    depth: u32,
) -> Option<Def> {
    let [def] = fa.defuse.reaching(at, reg) else {
        return None;
    };
    if depth > 0
        && let Some((i, r)) = copied_from(func, fa, at, reg)
    {
        return through_moves(func, fa, i, r, depth - 1).or(Some(*def));
    }
    Some(*def)
}

/// The definitions of `reg` as read by `at` (followed through plain register moves while there
/// is one) and the block of the read they reach.
fn value_id(
    func: &Function,
    fa: &FunctionAnalyses,
    at: Inst,
    reg: Reg,
    depth: u32,
) -> (Vec<Def>, Block) {
    if depth > 0
        && let Some((i, r)) = copied_from(func, fa, at, reg)
    {
        return value_id(func, fa, i, r, depth - 1);
    }
    (fa.defuse.reaching(at, reg).to_vec(), func.inst_block[at])
}

/// An immediate operand, or a register whose one definition moves an immediate into it.
fn const_of(func: &Function, fa: &FunctionAnalyses, at: Inst, op: &Operand) -> Option<i64> {
    match op {
        Operand::Imm(v) => Some(*v),
        Operand::UImm(v) => i64::try_from(*v).ok(),
        Operand::Reg(r) => {
            let [def] = fa.defuse.reaching(at, *r) else {
                return None;
            };
            let i = fa.defuse.def(*def).inst?;
            let d = &func.insts[i];
            if d.op != Opcode::Mov || d.guard.is_some() {
                return None;
            }
            match d.operands.get(1) {
                Some(Operand::Imm(v)) => Some(*v),
                Some(Operand::UImm(v)) => i64::try_from(*v).ok(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The param-space local (or parameter) an address operand names.
fn param_slot(op: &Operand) -> Option<(AddrBase, i64)> {
    match op {
        Operand::Addr(b @ (AddrBase::Local(_) | AddrBase::Param(_) | AddrBase::Return(_)), off) => {
            Some((*b, *off))
        }
        _ => None,
    }
}

/// The call instruction in `b` before position `pos` whose return list names `local`.
pub(crate) fn call_returning(
    func: &Function,
    b: Block,
    pos: usize,
    local: warpscope_ir::LocalId,
) -> Option<(Inst, usize)> {
    for &i in func.blocks[b].insts[..pos].iter().rev() {
        let d = &func.insts[i];
        if d.op == Opcode::Call
            && let Some(Operand::List(rets)) = d.operands.first()
            && let Some(k) = rets.iter().position(|o| *o == Operand::Local(local))
        {
            return Some((i, k));
        }
    }
    None
}

/// The call's arguments: for each, the instruction storing it (param-space arguments) or
/// the register passed directly.
pub(crate) enum CallArg {
    Stored { store: Inst, value: Operand },
    Reg(Reg),
    Other,
}

pub(crate) fn call_args(func: &Function, call: Inst) -> (Option<FuncId>, Vec<CallArg>) {
    let d = &func.insts[call];
    let callee = d.operands.iter().find_map(|o| match o {
        Operand::Func(f) => Some(*f),
        _ => None,
    });
    let b = func.inst_block[call];
    let pos = func.blocks[b]
        .insts
        .iter()
        .position(|&i| i == call)
        .unwrap_or(0);
    let lists: Vec<&[Operand]> = d
        .operands
        .iter()
        .filter_map(|o| match o {
            Operand::List(v) => Some(&v[..]),
            _ => None,
        })
        .collect();
    // `call (rets), f, (args)` or `call f, (args)`.
    let has_rets = matches!(d.operands.first(), Some(Operand::List(_)));
    let args: &[Operand] = match (has_rets, lists.len()) {
        (true, n) if n >= 2 => lists[1],
        (false, n) if n >= 1 => lists[0],
        _ => &[],
    };
    let out = args
        .iter()
        .map(|a| match a {
            Operand::Reg(r) => CallArg::Reg(*r),
            Operand::Local(l) => {
                for &i in func.blocks[b].insts[..pos].iter().rev() {
                    let s = &func.insts[i];
                    if s.op == Opcode::St
                        && s.mods.space.is_some_and(StateSpace::is_param)
                        && matches!(s.operands.first(), Some(Operand::Addr(AddrBase::Local(x), 0)) if x == l)
                        && let Some(v) = s.operands.get(1)
                    {
                        return CallArg::Stored {
                            store: i,
                            value: v.clone(),
                        };
                    }
                }
                CallArg::Other
            }
            _ => CallArg::Other,
        })
        .collect();
    (callee, out)
}

impl Uniformity {
    /// Analyses `func` with parameters in `mask` thread-dependent; `callee_ret` gives the
    /// TD-return mask of a callee for a TD-argument mask.
    pub fn compute(
        func: &Function,
        fa: &FunctionAnalyses,
        mask: u64,
        callee_ret: &mut dyn FnMut(FuncId, u64) -> u64,
    ) -> Uniformity {
        let du = &fa.defuse;
        let mut u = Uniformity::default();
        // `.reg` parameters: entry definitions.
        for (d, site) in du.defs() {
            if site.inst.is_none()
                && let Some(i) = func.params.iter().position(|p| p.reg == Some(site.reg))
                && mask & (1 << i.min(63)) != 0
            {
                // No instruction to point at: attribute to the first instruction.
                if let Some((_, first)) = func.insts_in_order().next() {
                    u.def_td[d] = Some(Cause::Source {
                        inst: first,
                        kind: SourceKind::Param(i as u32),
                    });
                }
            }
        }
        let order: Vec<Inst> = fa
            .cfg
            .rpo()
            .iter()
            .flat_map(|&b| func.blocks[b].insts.iter().copied())
            .collect();
        let mut done_branches: rustc_hash::FxHashSet<Inst> = Default::default();
        loop {
            let mut changed = false;
            // Data propagation to a fixpoint.
            loop {
                let mut round = false;
                for &inst in &order {
                    let defs = du.defs_of(inst);
                    if defs.is_empty() || defs.iter().all(|d| u.def_td[*d].is_some()) {
                        continue;
                    }
                    if let Some(c) = u.inst_cause(func, fa, inst, mask, callee_ret) {
                        for &d in defs {
                            if u.def_td[d].is_none() {
                                u.def_td[d] = Some(c);
                                round = true;
                            }
                        }
                    }
                }
                if !round {
                    break;
                }
                changed = true;
            }
            // Control dependence of newly TD branches.
            for &b in fa.cfg.rpo() {
                let Some(cb) = cond_branch(func, b) else {
                    continue;
                };
                if done_branches.contains(&cb.inst) {
                    continue;
                }
                let Some(c) = u.use_cause(fa, cb.inst, cb.guard.reg) else {
                    continue;
                };
                done_branches.insert(cb.inst);
                u.branches.push((cb.inst, c));
                changed = true;
                // Uses outside the region of values defined inside it: found from the
                // region's definitions (their users), not by scanning the function, which
                // made large kernels quadratic in their branches and instructions.
                let region = divergent_region(fa, b);
                // In a loop, a use inside the region that a definition inside it reaches only
                // around the loop, through the join (`depth++` on one side, read on the next
                // trip on the other side of the branch), reads values of lanes that went
                // different ways on the previous trip, as a use after the join does.
                let stop = fa.postdom.ipdom(b);
                let in_loop = fa.loops.innermost(b).is_some();
                let mut reach: FxHashMap<usize, Vec<bool>> = FxHashMap::default();
                for (rb, _) in region.iter().enumerate().filter(|(_, r)| **r) {
                    let insts = &func.blocks[Block::new(rb)].insts;
                    for (di_pos, &di) in insts.iter().enumerate() {
                        for &d in du.defs_of(di) {
                            let reg = du.def(d).reg;
                            for &inst in du.users(d) {
                                let ub = func.inst_block[inst];
                                if !fa.cfg.is_reachable(ub) {
                                    continue;
                                }
                                if region[ub.index()] {
                                    if !in_loop {
                                        continue;
                                    }
                                    let later_here = ub.index() == rb
                                        && insts.iter().position(|&i| i == inst) > Some(di_pos);
                                    let within = later_here
                                        || reach.entry(rb).or_insert_with(|| {
                                            reach_within(fa, Block::new(rb), &region, stop)
                                        })[ub.index()];
                                    if within {
                                        continue;
                                    }
                                }
                                u.use_ctrl.entry((inst, reg)).or_insert(Cause::Control {
                                    branch: cb.inst,
                                    at: inst,
                                });
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        u.branches
            .sort_by_key(|(i, _)| fa.cfg.rpo_index(func.inst_block[*i]));
        // Analyse every callee in its context, even when nothing it returns is used.
        for &inst in &order {
            if func.insts[inst].op == Opcode::Call {
                let _ = u.call_cause(func, fa, inst, usize::MAX, callee_ret);
            }
        }
        // Returns: stored to a return parameter, or `.reg` returns defined TD.
        for &inst in &order {
            let d = &func.insts[inst];
            if d.op == Opcode::St
                && let Some(Operand::Addr(AddrBase::Return(k), _)) = d.operands.first()
                && let Some(Operand::Reg(r)) = d.operands.get(1)
                && u.use_cause(fa, inst, *r).is_some()
            {
                u.ret_mask |= 1 << (*k).min(63);
            }
        }
        for (k, p) in func.returns.iter().enumerate() {
            if let Some(r) = p.reg
                && du.defs().any(|(d, s)| s.reg == r && u.def_td[d].is_some())
            {
                u.ret_mask |= 1 << k.min(63);
            }
        }
        u
    }

    /// Why `inst`'s results are TD, if they are.
    fn inst_cause(
        &self,
        func: &Function,
        fa: &FunctionAnalyses,
        inst: Inst,
        mask: u64,
        callee_ret: &mut dyn FnMut(FuncId, u64) -> u64,
    ) -> Option<Cause> {
        let data = &func.insts[inst];
        if data.op == Opcode::Shfl && self.shuffle_is_uniform(func, fa, inst) {
            return None;
        }
        if let Some(kind) = source_of(data) {
            return Some(Cause::Source { inst, kind });
        }
        if data.op == Opcode::Ld
            && data.mods.space.is_some_and(StateSpace::is_param)
            && let Some((base, _)) = data.operands.get(1).and_then(param_slot)
        {
            match base {
                AddrBase::Param(i) if mask & (1 << i.min(63)) != 0 => {
                    return Some(Cause::Source {
                        inst,
                        kind: SourceKind::Param(i),
                    });
                }
                AddrBase::Local(l) => {
                    let b = func.inst_block[inst];
                    let pos = func.blocks[b].insts.iter().position(|&i| i == inst)?;
                    if let Some((call, k)) = call_returning(func, b, pos, l)
                        && let Some(c) = self.call_cause(func, fa, call, k, callee_ret)
                    {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        if data.op == Opcode::Call {
            // `.reg` returns written by the call itself.
            return self.call_cause(func, fa, inst, usize::MAX, callee_ret);
        }
        if warp_id_of_tid(func, fa, inst) || full_butterfly(func, fa, inst) {
            return None;
        }
        if matches!(data.op, Opcode::Vote | Opcode::Redux) {
            // A warp vote or reduction gives every lane of its member mask the same result,
            // whatever each lane contributed: it is lane-varying only through its mask (a
            // `match.any` group's mask differs between the groups).
            let Some(Operand::Reg(m)) = data.operands.get(2) else {
                return None;
            };
            let c = self.use_cause(fa, inst, *m)?;
            return Some(match fa.defuse.reaching(inst, *m).first() {
                Some(&from) if !matches!(c, Cause::Control { .. }) => Cause::Data { inst, from },
                _ => c,
            });
        }
        let is_load = matches!(data.op, Opcode::Ld | Opcode::Ldu);
        for use_ in fa.defuse.uses_of(inst) {
            if let Some(c) = self.use_cause(fa, inst, use_.reg) {
                let from = match c {
                    Cause::Control { .. } => {
                        // Point at the merge itself: any reaching def will do as anchor.
                        match use_.defs.first() {
                            Some(&d) => d,
                            None => continue,
                        }
                    }
                    _ => use_
                        .defs
                        .iter()
                        .copied()
                        .find(|d| self.def_td[*d].is_some())
                        .or_else(|| use_.defs.first().copied())?,
                };
                if matches!(c, Cause::Control { .. }) {
                    return Some(c);
                }
                return Some(if is_load {
                    Cause::Load { inst, from }
                } else {
                    Cause::Data { inst, from }
                });
            }
        }
        None
    }

    /// Whether the shuffle `inst` gives every lane of the warp the same value. With every lane
    /// a member (member mask `-1`), all 32 lanes execute it and every source lane is active,
    /// so each lane reads some lane's `a`:
    ///
    /// * `shfl.sync.idx` with clamp `31` (one 32-lane segment) reads lane `b & 31` in every
    ///   lane (PTX ISA: `j = b[4:0]`, always `<= maxLane = 31`); when `b` is the same in every
    ///   lane (a constant, a warp-uniform value), all lanes read one lane's `a`: the broadcast of
    ///   `__shfl_sync(0xffffffff, v, leader)`, whatever `v` is;
    /// * in any mode, when `a` itself is the same in every lane, any lane read holds it.
    ///
    /// A narrower member mask or width (`__shfl_sync(m, v, 0, 16)`, clamp `0x101f`) gives each
    /// segment or group its own value and stays thread-dependent.
    fn shuffle_is_uniform(&self, func: &Function, fa: &FunctionAnalyses, inst: Inst) -> bool {
        let d = &func.insts[inst];
        if d.guard.is_some() || d.operands.len() != 5 {
            return false;
        }
        let full = matches!(
            const_of(func, fa, inst, &d.operands[4]),
            Some(-1 | 0xffff_ffff)
        );
        if !full {
            return false;
        }
        let uniform = |op: &Operand| match op {
            Operand::Imm(_) | Operand::UImm(_) => true,
            Operand::Reg(r) => self.use_cause(fa, inst, *r).is_none(),
            _ => false,
        };
        if uniform(&d.operands[1]) {
            return true;
        }
        d.mods.shfl_mode == Some(warpscope_ptx::ShflMode::Idx)
            && const_of(func, fa, inst, &d.operands[3]) == Some(31)
            && uniform(&d.operands[2])
    }

    /// The cause for return `k` (or any return when `k == usize::MAX`) of a call.
    fn call_cause(
        &self,
        func: &Function,
        fa: &FunctionAnalyses,
        call: Inst,
        k: usize,
        callee_ret: &mut dyn FnMut(FuncId, u64) -> u64,
    ) -> Option<Cause> {
        let (callee, args) = call_args(func, call);
        let mut argmask = 0u64;
        for (i, a) in args.iter().enumerate() {
            let td = match a {
                CallArg::Reg(r) => self.use_cause(fa, call, *r).is_some(),
                CallArg::Stored {
                    store,
                    value: Operand::Reg(r),
                } => self.use_cause(fa, *store, *r).is_some(),
                _ => false,
            };
            if td {
                argmask |= 1 << i.min(63);
            }
        }
        let ret = match callee {
            Some(c) => callee_ret(c, argmask),
            // Indirect call: TD if anything passed is.
            None => {
                if argmask != 0 {
                    u64::MAX
                } else {
                    0
                }
            }
        };
        let hit = if k == usize::MAX {
            ret != 0
        } else {
            ret & (1 << k.min(63)) != 0
        };
        hit.then_some(Cause::Call {
            inst: call,
            callee: callee.unwrap_or(FuncId::new(0)),
        })
    }

    /// The TD cause of the value of `reg` as read by `inst`, if it is TD.
    pub fn use_cause(&self, fa: &FunctionAnalyses, inst: Inst, reg: Reg) -> Option<Cause> {
        if let Some(c) = self.use_ctrl.get(&(inst, reg)) {
            return Some(*c);
        }
        let d = fa
            .defuse
            .reaching(inst, reg)
            .iter()
            .find(|d| self.def_td[**d].is_some())?;
        self.def_td[*d]
    }

    /// The cause of a TD definition.
    pub fn def_cause(&self, d: Def) -> Option<Cause> {
        self.def_td[d]
    }

    /// Thread-dependent conditional branches with the cause of their condition.
    pub fn td_branches(&self) -> &[(Inst, Cause)] {
        &self.branches
    }

    /// Whether the branch ending at `inst` is thread-dependent.
    pub fn branch_cause(&self, inst: Inst) -> Option<Cause> {
        self.branches
            .iter()
            .find(|(i, _)| *i == inst)
            .map(|(_, c)| *c)
    }

    /// The TD cause of the address of memory instruction `inst`, if its address is TD.
    pub fn address_cause(
        &self,
        func: &Function,
        fa: &FunctionAnalyses,
        inst: Inst,
    ) -> Option<Cause> {
        let data = &func.insts[inst];
        for op in &data.operands {
            if let Operand::Addr(AddrBase::Reg(r), _) = op {
                return self.use_cause(fa, inst, *r);
            }
        }
        None
    }

    /// The provenance chain from `cause` back to its source, one step per link (at most
    /// `limit` steps; a cycle through a loop stops the walk).
    pub fn chain(
        &self,
        func: &Function,
        fa: &FunctionAnalyses,
        cause: Cause,
        limit: usize,
    ) -> Vec<Link> {
        let mut out = Vec::new();
        let mut cur = Some(cause);
        let mut seen: Vec<Cause> = Vec::new();
        while let Some(c) = cur {
            if seen.contains(&c) || out.len() >= limit {
                break;
            }
            seen.push(c);
            let (inst, text, next) = match c {
                Cause::Source { inst, kind } => (inst, format!("reads {}", kind.describe()), None),
                Cause::Data { inst, from } => (
                    inst,
                    format!(
                        "`{}` computes from {}",
                        func.insts[inst].op,
                        reg_name(func, fa.defuse.def(from).reg)
                    ),
                    self.def_td[from],
                ),
                Cause::Load { inst, from } => (
                    inst,
                    format!(
                        "`{}` loads through an address that depends on {}",
                        func.insts[inst].op,
                        reg_name(func, fa.defuse.def(from).reg)
                    ),
                    self.def_td[from],
                ),
                Cause::Control { branch, at } => {
                    let bl = func.insts[branch].loc.map(|l| l.line);
                    (
                        at,
                        match bl {
                            Some(l) => format!(
                                "merges values of lanes that went different ways at the thread-dependent branch of line {l}"
                            ),
                            None => "merges values of lanes that went different ways at a thread-dependent branch".into(),
                        },
                        self.branch_cause(branch),
                    )
                }
                Cause::Call { inst, callee } => (
                    inst,
                    format!("returned by a call to function {}", callee.index()),
                    None,
                ),
            };
            out.push(Link {
                inst,
                loc: func.insts[inst].loc,
                text,
            });
            cur = next;
        }
        out
    }

    /// The source at the end of `cause`'s chain.
    pub fn root_source(&self, cause: Cause) -> Option<SourceKind> {
        let mut cur = Some(cause);
        let mut n = 0;
        while let Some(c) = cur {
            n += 1;
            if n > 10_000 {
                return None;
            }
            cur = match c {
                Cause::Source { kind, .. } => return Some(kind),
                Cause::Data { from, .. } | Cause::Load { from, .. } => self.def_td[from],
                Cause::Control { branch, .. } => self.branch_cause(branch),
                Cause::Call { .. } => return None,
            };
        }
        None
    }

    /// Whether the chain of `cause` passes through a load (data-dependent values).
    pub fn through_load(&self, cause: Cause) -> bool {
        let mut cur = Some(cause);
        let mut n = 0;
        while let Some(c) = cur {
            n += 1;
            if n > 10_000 {
                return false;
            }
            cur = match c {
                Cause::Source { kind, .. } => {
                    return matches!(kind, SourceKind::Atomic | SourceKind::Shuffle);
                }
                Cause::Load { .. } => return true,
                Cause::Data { from, .. } => self.def_td[from],
                Cause::Control { branch, .. } => self.branch_cause(branch),
                Cause::Call { .. } => return false,
            };
        }
        false
    }
}

/// One provenance step: an instruction and what it did to the value.
#[derive(Debug, Clone)]
pub struct Link {
    pub inst: Inst,
    pub loc: Option<SrcLoc>,
    pub text: String,
}

fn reg_name(func: &Function, r: Reg) -> String {
    format!("`{}`", func.regs[r].name)
}

/// Blocks of `region` reachable from `from`'s successors without passing `stop` (the join).
fn reach_within(
    fa: &FunctionAnalyses,
    from: Block,
    region: &[bool],
    stop: Option<Block>,
) -> Vec<bool> {
    let mut seen = vec![false; region.len()];
    let mut stack: Vec<Block> = fa.cfg.succs(from).to_vec();
    while let Some(x) = stack.pop() {
        if Some(x) == stop || !region[x.index()] || seen[x.index()] {
            continue;
        }
        seen[x.index()] = true;
        stack.extend(fa.cfg.succs(x).iter().copied());
    }
    seen
}
