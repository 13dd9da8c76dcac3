//! The warp interpreter: one op does the work of all 32 lanes; a SIMT stack of
//! (pc, reconvergence pc, mask) entries handles divergence, reconverging at immediate
//! post-dominators; call frames sit on top of it.
//!
//! [`Env::run`] runs one warp until it must yield to the SM's scheduler: its quantum is
//! used up, it issued a long-latency load (when the scheduler models latency), it reached a
//! barrier, or all its lanes exited.

// Lane loops index several 32-element arrays by lane number on purpose.
#![allow(clippy::needless_range_loop)]

// The interpreter's instruction families, each a file of `impl Env` methods; `translate`
// has modules of the same names. This file keeps the warp state and the dispatch loop.
mod arith;
mod atomic;
mod control;
mod convert;
mod memory;
mod printf;
mod warp;

use control::{diverge, ret};

use crate::alu::{self, sx, zx};
use crate::fault::{Fault, FaultKind, FaultSite};
use crate::float::{self, canon32, canon64};
use crate::memory::{
    AccessError, CONST_WINDOW, FUNC_WINDOW, GlobalMem, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW,
    Window, read_plain, window_of, write_plain,
};
use crate::observer::{AccessKind, LaunchStats, MemSpace, MemoryAccess, Observer, WarpInfo};
use crate::program::*;
use crate::translate::ProgramSites;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use warpscope_ptx::{AtomOp, BoolOp, ShflMode};

/// One SIMT stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    /// Pop (reconverge) when `pc` reaches this.
    pub rpc: u32,
    pub mask: u32,
}

/// A device-function call in progress.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The caller's function, register/predicate bases and local base.
    pub func: u32,
    pub reg_base: u32,
    pub pred_base: u32,
    pub local_base: u32,
    /// Stack depth when the call was made: the callee's entries are above it.
    pub stack_base: u32,
    /// pc of the call op in the caller (for return copies).
    pub call_pc: u32,
    /// The callee.
    pub callee: u32,
}

/// Maximum local memory per thread (call frames included).
pub const MAX_LOCAL: usize = 1 << 20;

/// A warp's whole state.
#[derive(Debug, Default)]
pub struct Warp {
    pub info: WarpInfo,
    pub regs: Vec<[u64; 32]>,
    pub preds: Vec<u32>,
    pub stack: Vec<Entry>,
    pub frames: Vec<Frame>,
    pub func: u32,
    pub reg_base: u32,
    pub pred_base: u32,
    pub local_base: u32,
    pub exited: u32,
    /// Carry flag of each lane (add.cc / addc).
    pub carry: u32,
    /// Per-lane local memory.
    pub local: Vec<Vec<u8>>,
}

/// Launch geometry the warps need.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_smem: u32,
    pub total_smem: u32,
    pub nsms: u32,
    pub launch: u32,
}

/// Why [`Env::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Quantum,
    /// Issued a long-latency memory op.
    Stall,
    Barrier(BarArrival),
    Exited,
}

/// A warp's arrival at a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarArrival {
    pub kind: BarKind,
    pub id: u32,
    pub count: Option<u32>,
    /// bar.red contribution: popc count, or 1/0 for and/or (all lanes true / any lane true).
    pub contrib: u32,
    pub all_true: bool,
    /// Absolute destination register / predicate index (NONE for none).
    pub d: u32,
    pub lanes: u32,
    pub func: u32,
    pub pc: u32,
}

/// Counters of one [`Env::run`] call, kept in registers.
#[derive(Default)]
struct Ctr {
    issued: u64,
    threads: u64,
}

/// Everything a warp needs from its SM and launch while running.
pub struct Env<'a, O: Observer> {
    pub prog: &'a Program,
    pub sites: &'a ProgramSites,
    pub global: &'a GlobalMem,
    pub constb: &'a [u8],
    pub params: &'a [u8],
    pub geo: Geometry,
    pub obs: O,
    /// Thread-instructions this SM may still run before taking more from `pool`.
    pub budget: i64,
    pub pool: &'a AtomicI64,
    pub limit: u64,
    pub abort: &'a AtomicBool,
    pub stats: LaunchStats,
    /// SM cycle counter (one per issued warp instruction; idle time added by the SM).
    pub cycle: u64,
    pub sm: u32,
    pub hw_fma: bool,
    avx2: bool,
    /// Per-pc (direct-mapped) cache of the global region an access hit: base, size, words.
    pcache: [(u64, u64, &'a [std::sync::atomic::AtomicU32]); 16],
    addrs: [u64; 32],
    /// Region cache for global accesses: base, size, index, words.
    rcache: (u64, u64, usize),
    fc_words: &'a [std::sync::atomic::AtomicU32],
    /// Printed output of `vprintf`.
    pub out: &'a std::sync::Mutex<Vec<u8>>,
}

const BUDGET_CHUNK: i64 = 1 << 22;

#[inline(always)]
fn wr(dst: &mut [u64; 32], v: &[u64; 32], m: u32) {
    if m == u32::MAX {
        *dst = *v;
    } else {
        for i in 0..32 {
            let sel = u64::from((m >> i) & 1).wrapping_neg();
            dst[i] = (v[i] & sel) | (dst[i] & !sel);
        }
    }
}

/// Predicate `p`, inverted when `neg`.
#[inline(always)]
fn rd_pred(preds: &[u32], p: P, neg: bool) -> u32 {
    preds[p as usize] ^ if neg { u32::MAX } else { 0 }
}

/// Writes predicate `p` (none: nothing) of the `m` lanes from the bits of `v`.
#[inline(always)]
fn wr_pred(preds: &mut [u32], p: P, v: u32, m: u32) {
    if p != NONE {
        let s = &mut preds[p as usize];
        *s = (*s & !m) | (v & m);
    }
}

/// Computes `d = f(srcs)` for every lane, in place when `d` aliases no source and all
/// lanes are active (no temporary), else through a temporary and a masked write.
macro_rules! lanes_impl {
    ($r:ident, $d:ident, $m:ident, [$($s:ident),*], $f:ident) => {{
        let n = $r.len();
        let d = $d as usize;
        $(let $s = $s as usize;)*
        assert!(d < n $(&& $s < n)*);
        if $m == u32::MAX $(&& d != $s)* {
            let p = $r.as_mut_ptr();
            // SAFETY: all indices are in bounds (checked above) and `d` differs from every
            // source, so the mutable reference does not overlap the shared ones.
            let (z, $($s),*) = unsafe { (&mut *p.add(d), $(&*p.add($s)),*) };
            for i in 0..32 {
                z[i] = $f($($s[i]),*);
            }
        } else {
            let mut v = [0u64; 32];
            {
                $(let $s = &$r[$s];)*
                for i in 0..32 {
                    v[i] = $f($($s[i]),*);
                }
            }
            wr(&mut $r[d], &v, $m);
        }
    }};
}

#[inline(always)]
fn un_lanes(r: &mut [[u64; 32]], d: R, a: R, m: u32, f: impl Fn(u64) -> u64) {
    lanes_impl!(r, d, m, [a], f)
}

#[inline(always)]
fn bin_lanes(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, f: impl Fn(u64, u64) -> u64) {
    lanes_impl!(r, d, m, [a, b], f)
}

#[inline(always)]
fn tern_lanes(
    r: &mut [[u64; 32]],
    d: R,
    a: R,
    b: R,
    c: R,
    m: u32,
    f: impl Fn(u64, u64, u64) -> u64,
) {
    lanes_impl!(r, d, m, [a, b, c], f)
}

#[inline(always)]
fn cmp_lanes(r: &[[u64; 32]], a: R, b: R, f: impl Fn(u64, u64) -> bool) -> u32 {
    let x = &r[a as usize];
    let y = &r[b as usize];
    let mut m = 0u32;
    for i in 0..32 {
        m |= u32::from(f(x[i], y[i])) << i;
    }
    m
}

/// The mask of lanes whose value of register `a` satisfies `f`.
#[inline(always)]
fn test_lanes(r: &[[u64; 32]], a: R, f: impl Fn(u64) -> bool) -> u32 {
    let x = &r[a as usize];
    let mut m = 0u32;
    for i in 0..32 {
        m |= u32::from(f(x[i])) << i;
    }
    m
}

/// Iterates the set bits of a mask.
#[inline(always)]
fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

impl<'a, O: Observer> Env<'a, O> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        prog: &'a Program,
        sites: &'a ProgramSites,
        global: &'a GlobalMem,
        constb: &'a [u8],
        params: &'a [u8],
        geo: Geometry,
        obs: O,
        pool: &'a AtomicI64,
        limit: u64,
        abort: &'a AtomicBool,
        sm: u32,
        out: &'a std::sync::Mutex<Vec<u8>>,
    ) -> Self {
        #[cfg(target_arch = "x86_64")]
        let hw_fma = std::arch::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        let hw_fma = false;
        #[cfg(target_arch = "x86_64")]
        let avx2 = hw_fma
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::env::var_os("WARPSCOPE_NO_AVX2").is_none();
        #[cfg(not(target_arch = "x86_64"))]
        let avx2 = false;
        Env {
            prog,
            sites,
            global,
            constb,
            params,
            geo,
            obs,
            budget: 0,
            pool,
            limit,
            abort,
            stats: LaunchStats::default(),
            cycle: 0,
            sm,
            hw_fma,
            avx2,
            pcache: [(0, 0, &[]); 16],
            addrs: [0; 32],
            rcache: (0, 0, usize::MAX),
            fc_words: &[],
            out,
        }
    }

    /// Thread index of `lane` of warp `w`.
    pub fn tid(&self, w: &Warp, lane: u32) -> [u32; 3] {
        let b = self.geo.block;
        let lin = w.info.warp_in_cta * 32 + lane;
        [lin % b[0], (lin / b[0]) % b[1], lin / (b[0] * b[1])]
    }

    /// Builds a fault at op `pc` of the current function, naming `lane`.
    #[cold]
    pub fn fault(&self, w: &Warp, pc: u32, lane: u32, kind: FaultKind) -> Fault {
        let (line, text, loc) = self.sites.describe(w.func as usize, pc as usize);
        Fault {
            kind,
            site: Some(Box::new(FaultSite {
                kernel: self.prog.name.clone(),
                function: self
                    .prog
                    .funcs
                    .get(w.func as usize)
                    .map_or_else(String::new, |f| f.name.clone()),
                cta: w.info.cta,
                thread: self.tid(w, lane),
                warp: w.info.warp_in_cta,
                lane,
                ptx_line: line,
                ptx_text: text,
                loc,
                src_file: None,
                inlined_at: self.sites.inlined_at(w.func as usize, pc as usize),
                inlined_file: None,
            })),
        }
    }

    /// Value of a warp-constant register for lane `l` whose thread index is `t`.
    fn warp_const(&self, w: &Warp, c: WarpConst, l: u32, t: [u32; 3]) -> u64 {
        let g = &self.geo;
        let cta = w.info.cta;
        u64::from(match c {
            WarpConst::Tid(i) => t[usize::from(i)],
            WarpConst::Ntid(i) => g.block[usize::from(i)],
            WarpConst::Ctaid(i) => cta[usize::from(i)],
            WarpConst::Nctaid(i) => g.grid[usize::from(i)],
            WarpConst::Laneid => l,
            WarpConst::Warpid => w.info.warp_in_cta,
            WarpConst::Nwarpid => 64,
            WarpConst::Smid => w.info.sm,
            WarpConst::Nsmid => g.nsms,
            WarpConst::Gridid => g.launch,
            WarpConst::LanemaskEq => 1u32 << l,
            WarpConst::LanemaskLe => ((1u64 << (l + 1)) - 1) as u32,
            WarpConst::LanemaskLt => ((1u64 << l) - 1) as u32,
            WarpConst::LanemaskGe => !(((1u64 << l) - 1) as u32),
            WarpConst::LanemaskGt => !(((1u64 << (l + 1)) - 1) as u32),
            WarpConst::DynamicSmemSize => g.dyn_smem,
            WarpConst::TotalSmemSize => g.total_smem,
            WarpConst::Zero => 0,
            WarpConst::One => 1,
        })
    }

    /// Fills the constant and warp-constant registers of function `f` at `reg_base`, and
    /// zeroes its registers that may be read before written.
    fn init_frame(&self, w: &mut Warp, f: u32, reg_base: u32, pred_base: u32) {
        let code = &self.prog.funcs[f as usize];
        let rb = reg_base as usize;
        let need = rb + code.nregs as usize;
        if w.regs.len() < need {
            w.regs.resize(need, [0; 32]);
        }
        let pneed = (pred_base + code.npreds) as usize;
        if w.preds.len() < pneed {
            w.preds.resize(pneed, 0);
        }
        for &r in &code.undefined.0 {
            w.regs[rb + r as usize] = [0; 32];
        }
        for &p in &code.undefined.1 {
            w.preds[pred_base as usize + p as usize] = 0;
        }
        for &(r, v) in &code.consts {
            w.regs[rb + r as usize] = [v; 32];
        }
        if code.warp_consts.is_empty() {
            return;
        }
        // Thread indices of the lanes, by stepping instead of dividing per lane.
        let b = self.geo.block;
        let lin = w.info.warp_in_cta * 32;
        let mut t = [lin % b[0], (lin / b[0]) % b[1], lin / (b[0] * b[1])];
        let mut tids = [[0u32; 3]; 32];
        for tl in tids.iter_mut() {
            *tl = t;
            t[0] += 1;
            if t[0] == b[0] {
                t[0] = 0;
                t[1] += 1;
                if t[1] == b[1] {
                    t[1] = 0;
                    t[2] += 1;
                }
            }
        }
        for &(r, c) in &code.warp_consts {
            let vals: [u64; 32] = lane_array(|l| self.warp_const(w, c, l as u32, tids[l]));
            w.regs[rb + r as usize] = vals;
        }
    }

    /// Prepares `w` to run the kernel from the start.
    pub fn start_warp(&mut self, w: &mut Warp, info: WarpInfo, local_size: u32) {
        w.info = info;
        w.stack.clear();
        w.frames.clear();
        w.func = 0;
        w.reg_base = 0;
        w.pred_base = 0;
        w.local_base = 0;
        w.exited = !info.lanes;
        w.carry = 0;
        let lsz = local_size as usize;
        if lsz > 0 || !w.local.is_empty() {
            w.local.resize_with(32, Vec::new);
            for l in &mut w.local {
                l.clear();
                l.resize(lsz, 0);
            }
        }
        self.init_frame(w, 0, 0, 0);
        w.stack.push(Entry {
            pc: 0,
            rpc: EXIT_PC,
            mask: info.lanes,
        });
        self.stats.warps += 1;
        self.obs.warp_begin(&w.info);
    }

    #[cold]
    fn refill(&mut self, w: &Warp, pc: u32) -> Result<(), Fault> {
        let got = self.pool.fetch_sub(BUDGET_CHUNK, Ordering::Relaxed);
        if got <= 0 || self.abort.load(Ordering::Relaxed) {
            self.pool.fetch_add(BUDGET_CHUNK, Ordering::Relaxed);
            if self.abort.load(Ordering::Relaxed) {
                return Err(Fault::new(FaultKind::Unsupported {
                    what: "aborted because another SM faulted".into(),
                }));
            }
            let lane = (!w.exited).trailing_zeros().min(31);
            return Err(self.fault(w, pc, lane, FaultKind::Budget { limit: self.limit }));
        }
        self.budget += got.min(BUDGET_CHUNK);
        Ok(())
    }

    /// Pops finished stack entries and completed calls. Returns false when the warp is done.
    fn settle(&mut self, w: &mut Warp) -> bool {
        loop {
            let base = w.frames.last().map_or(0, |f| f.stack_base as usize);
            if w.stack.len() <= base {
                let Some(fr) = w.frames.pop() else {
                    return false;
                };
                self.finish_call(w, fr);
                continue;
            }
            let top = w.stack[w.stack.len() - 1];
            if top.mask & !w.exited == 0 || top.pc == top.rpc {
                w.stack.pop();
                continue;
            }
            return true;
        }
    }

    /// Runs `w` until it yields. `quantum` bounds the warp instructions issued; with
    /// `stall_on_mem`, the warp also yields after each long-latency memory op.
    pub fn run(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        quantum: u32,
        stall_on_mem: bool,
    ) -> Result<Stop, Fault> {
        let mut c = Ctr::default();
        let r = self.run_inner(w, shared, u64::from(quantum), stall_on_mem, &mut c);
        self.stats.warp_instructions += c.issued;
        self.stats.thread_instructions += c.threads;
        self.cycle += c.issued;
        self.budget -= c.threads as i64;
        r
    }

    fn run_inner(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        quantum: u64,
        stall_on_mem: bool,
        c: &mut Ctr,
    ) -> Result<Stop, Fault> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU reports every feature enabled below.
            return unsafe { self.run_avx2(w, shared, quantum, stall_on_mem, c) };
        }
        self.run_body::<false>(w, shared, quantum, stall_on_mem, c)
    }

    /// The interpreter compiled for AVX2 + FMA (four lanes per vector op, hardware FMA).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn run_avx2(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        quantum: u64,
        stall_on_mem: bool,
        c: &mut Ctr,
    ) -> Result<Stop, Fault> {
        self.run_body::<true>(w, shared, quantum, stall_on_mem, c)
    }

    /// The interpreter loop; `AVX2` says it is being compiled into [`Env::run_avx2`], so
    /// AVX2/FMA instructions may be used directly.
    #[inline(always)]
    fn run_body<const AVX2: bool>(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        quantum: u64,
        stall_on_mem: bool,
        c: &mut Ctr,
    ) -> Result<Stop, Fault> {
        let prog = self.prog;
        'outer: loop {
            if !self.settle(w) {
                self.obs.warp_exit(&w.info);
                return Ok(Stop::Exited);
            }
            let top = w.stack[w.stack.len() - 1];
            let active = top.mask & !w.exited;
            let rpc = top.rpc;
            let mut pc = top.pc;
            let func = w.func;
            let code = &prog.funcs[func as usize];
            let rb = w.reg_base as usize;
            let pb = w.pred_base as usize;
            let nact = i64::from(active.count_ones());
            macro_rules! save {
                () => {
                    if let Some(t) = w.stack.last_mut() {
                        t.pc = pc;
                    }
                };
            }
            loop {
                if pc == rpc {
                    save!();
                    continue 'outer;
                }
                let Some(ins) = code.ops.get(pc as usize) else {
                    return Err(self.fault(
                        w,
                        pc.saturating_sub(1),
                        0,
                        FaultKind::Unsupported {
                            what: "control ran past the end of the function".into(),
                        },
                    ));
                };
                // Block markers exist only in programs translated for observers that want
                // them (see `Emulator::program`).
                if O::BLOCKS
                    && let Op::Block(b) = ins.op
                {
                    self.obs.block_entered(&w.info, code.func, b, active);
                    pc += 1;
                    continue;
                }
                if c.issued == quantum {
                    save!();
                    return Ok(Stop::Quantum);
                }
                c.issued += 1;
                c.threads += nact as u64;
                if c.threads as i64 > self.budget {
                    self.refill(w, pc)?;
                }
                let exec = if ins.guard.0 == NONE {
                    active
                } else {
                    let g = ins.guard.0;
                    let p = w.preds[pb + (g & !Guard::NEG) as usize];
                    active & if g & Guard::NEG != 0 { !p } else { p }
                };
                if O::INSTRUCTIONS {
                    let meta = code.meta[pc as usize];
                    self.obs
                        .instruction(&w.info, code.func, meta.inst, active, exec);
                }
                match &ins.op {
                    Op::Nop | Op::Sleep | Op::WarpSync | Op::Block(_) => {}
                    Op::Mov { d, a } => self.mov(w, rb, exec, *d, *a),
                    Op::Bin { f, d, a, b } => self.bin(w, rb, exec, *f, *d, *a, *b),
                    Op::Tern { f, d, a, b, c } => {
                        self.tern::<AVX2>(w, rb, exec, *f, *d, *a, *b, *c)
                    }
                    Op::Un { f, d, a } => self.un(w, rb, exec, *f, *d, *a),
                    Op::Bfi {
                        w: wd,
                        d,
                        a,
                        b,
                        c,
                        e,
                    } => self.bfi(w, rb, exec, *wd, *d, *a, *b, *c, *e),
                    Op::Lop3 { d, a, b, c, lut } => self.lop3(w, rb, exec, *d, *a, *b, *c, *lut),
                    Op::Prmt { d, a, b, c, mode } => self.prmt(w, rb, exec, *d, *a, *b, *c, *mode),
                    Op::Setp {
                        ty,
                        cmp,
                        p,
                        q,
                        a,
                        b,
                        comb,
                    } => self.setp(w, rb, pb, exec, *ty, *cmp, *p, *q, *a, *b, *comb),
                    Op::SetpX2 {
                        bf16,
                        cmp,
                        p,
                        q,
                        a,
                        b,
                        comb,
                    } => self.setp_x2(w, rb, pb, exec, *bf16, *cmp, *p, *q, *a, *b, *comb),
                    Op::Set {
                        ty,
                        cmp,
                        out,
                        d,
                        a,
                        b,
                        comb,
                    } => self.set(w, rb, pb, exec, *ty, *cmp, *out, *d, *a, *b, *comb),
                    Op::Selp { d, a, b, p, neg } => {
                        self.selp(w, rb, pb, exec, *d, *a, *b, *p, *neg)
                    }
                    Op::PLogic {
                        op,
                        p,
                        a,
                        an,
                        b,
                        bn,
                    } => self.plogic(w, pb, exec, *op, *p, *a, *an, *b, *bn),
                    Op::PMov { p, a, neg } => self.pmov(w, pb, exec, *p, *a, *neg),
                    Op::PConst { p, v } => self.pconst(w, pb, *p, *v),
                    Op::Testp { f, ty, p, a } => self.testp(w, rb, pb, exec, *f, *ty, *p, *a),
                    Op::Carry {
                        op,
                        w: wd,
                        cin,
                        cout,
                        d,
                        a,
                        b,
                        c,
                    } => {
                        if exec != 0 {
                            self.exec_carry(w, rb, exec, *op, *wd, *cin, *cout, *d, *a, *b, *c);
                        }
                    }
                    Op::Pack { d, srcs, n, ew } => self.pack(w, rb, exec, *d, *srcs, *n, *ew),
                    Op::Unpack { ds, n, ew, a } => self.unpack(w, rb, exec, *ds, *n, *ew, *a),
                    Op::ReadClock { d, kind } => {
                        self.read_clock(w, rb, exec, self.cycle + c.issued, *d, *kind)
                    }
                    Op::LocalAddr { d, off } => self.local_addr(w, rb, exec, *d, *off),
                    Op::Cvta {
                        d,
                        a,
                        to_generic,
                        space,
                        narrow,
                    } => self.cvta(w, rb, exec, *d, *a, *to_generic, *space, *narrow),
                    Op::Isspacep { p, a, space } => self.isspacep(w, rb, pb, exec, *p, *a, *space),
                    Op::LdParam { fmt, vec, d, off } => {
                        self.ld_param(w, code, pc, rb, exec, *fmt, *vec, *d, *off)?
                    }
                    Op::Ld {
                        space,
                        fmt,
                        vec,
                        d,
                        base,
                        off,
                    } => {
                        if exec != 0 {
                            self.exec_ld(w, shared, pc, exec, *space, *fmt, *vec, d, *base, *off)?;
                            if stall_on_mem
                                && matches!(space, Space::Global | Space::Generic | Space::Local)
                            {
                                pc += 1;
                                save!();
                                return Ok(Stop::Stall);
                            }
                        }
                    }
                    Op::St {
                        space,
                        size,
                        vec,
                        s,
                        base,
                        off,
                    } => {
                        if exec != 0 {
                            self.exec_st(w, shared, pc, exec, *space, *size, *vec, s, *base, *off)?;
                        }
                    }
                    Op::Atom {
                        space,
                        op,
                        ty,
                        d,
                        base,
                        off,
                        b,
                        c,
                    } => {
                        if exec != 0 {
                            self.exec_atom(
                                w, shared, pc, exec, *space, *op, *ty, *d, *base, *off, *b, *c,
                            )?;
                            if stall_on_mem && *d != NONE {
                                pc += 1;
                                save!();
                                return Ok(Stop::Stall);
                            }
                        }
                    }
                    Op::CpAsync {
                        dst,
                        dst_off,
                        src,
                        src_off,
                        size,
                        src_size,
                        ignore,
                        ignore_neg,
                    } => {
                        if exec != 0 {
                            self.exec_cp_async(
                                w,
                                shared,
                                pc,
                                exec,
                                *dst,
                                *dst_off,
                                *src,
                                *src_off,
                                *size,
                                *src_size,
                                *ignore,
                                *ignore_neg,
                            )?;
                        }
                    }
                    Op::Shfl {
                        mode,
                        d,
                        p,
                        a,
                        b,
                        c,
                        mask: _,
                    } => self.shfl(w, rb, pb, exec, *mode, *d, *p, *a, *b, *c),
                    Op::Vote { f, d, a, neg, mask } => {
                        self.vote(w, rb, pb, exec, *f, *d, *a, *neg, *mask)
                    }
                    Op::Match {
                        all,
                        w64,
                        d,
                        p,
                        a,
                        mask,
                    } => self.match_sync(w, rb, pb, exec, *all, *w64, *d, *p, *a, *mask),
                    Op::Redux { f, d, a, mask } => self.redux(w, rb, exec, *f, *d, *a, *mask),
                    Op::Activemask { d } => self.activemask(w, rb, exec, active, *d),
                    Op::Elect { d, p, mask } => self.elect(w, rb, pb, exec, *d, *p, *mask),
                    Op::Bar {
                        kind,
                        aligned: _,
                        id,
                        count,
                        d,
                        a,
                        neg,
                    } => {
                        if exec == 0 {
                            pc += 1;
                            continue;
                        }
                        let arr = self
                            .bar_arrival(w, rb, pb, pc, exec, *kind, *id, *count, *d, *a, *neg)?;
                        pc += 1;
                        save!();
                        return Ok(Stop::Barrier(arr));
                    }
                    Op::Bra { t } => {
                        pc = *t;
                        continue;
                    }
                    Op::BraCond { p, neg, t, rpc: r } => {
                        let pm = rd_pred(&w.preds[pb..], *p, *neg);
                        let taken = active & pm;
                        if O::BRANCHES {
                            let meta = code.meta[pc as usize];
                            self.obs
                                .branch(&w.info, code.func, meta.inst, active, taken);
                        }
                        match diverge(w, active, taken, *t, pc + 1, *r) {
                            Some(next) => pc = next,
                            None => continue 'outer,
                        }
                        continue;
                    }
                    Op::Brx { a, table, rpc: r } => {
                        match self.brx(w, rb, pc, exec, active, *a, table, *r)? {
                            Some(next) => pc = next,
                            None => continue 'outer,
                        }
                        continue;
                    }
                    Op::Call(info) => {
                        if exec == 0 {
                            pc += 1;
                            continue;
                        }
                        if exec != active {
                            // Only some lanes call: split, reconverging right after the call.
                            let top = w.stack.len() - 1;
                            w.stack[top].pc = pc + 1;
                            w.stack.push(Entry {
                                pc,
                                rpc: pc + 1,
                                mask: exec,
                            });
                            // The split entry re-executes the call with all its lanes calling.
                            c.issued -= 1;
                            c.threads -= nact as u64;
                            continue 'outer;
                        }
                        if self.call(w, shared, rb, pc, exec, info)? {
                            continue 'outer;
                        }
                    }
                    Op::Ret => {
                        if exec == 0 {
                            pc += 1;
                            continue;
                        }
                        ret(w, pc, exec);
                        continue 'outer;
                    }
                    Op::Exit => {
                        if exec == 0 {
                            pc += 1;
                            continue;
                        }
                        w.exited |= exec;
                        let top = w.stack.len() - 1;
                        w.stack[top].pc = pc + 1;
                        continue 'outer;
                    }
                    Op::Trap => {
                        if exec != 0 {
                            return Err(self.fault(w, pc, exec.trailing_zeros(), FaultKind::Trap));
                        }
                    }
                }
                pc += 1;
            }
        }
    }
}

/// `[f(0), ..., f(31)]`, always inlined (unlike `std::array::from_fn`, whose out-of-line
/// `try_from_fn` ran without the AVX2 copy's target features).
#[inline(always)]
pub(crate) fn lane_array(mut f: impl FnMut(usize) -> u64) -> [u64; 32] {
    let mut v = [0u64; 32];
    for (i, x) in v.iter_mut().enumerate() {
        *x = f(i);
    }
    v
}
