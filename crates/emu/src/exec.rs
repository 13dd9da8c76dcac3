//! The warp interpreter: one op does the work of all 32 lanes; a SIMT stack of
//! (pc, reconvergence pc, mask) entries handles divergence, reconverging at immediate
//! post-dominators; call frames sit on top of it.
//!
//! [`Env::run`] runs one warp until it must yield to the SM's scheduler: its quantum is
//! used up, it issued a long-latency load (when the scheduler models latency), it reached a
//! barrier, or all its lanes exited.

// Lane loops index several 32-element arrays by lane number on purpose.
#![allow(clippy::needless_range_loop)]

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

#[inline(always)]
fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

#[inline(always)]
fn b32f(x: f32) -> u64 {
    u64::from(canon32(x).to_bits())
}

#[inline(always)]
fn exec_ibin(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, op: IBin, w: W) {
    macro_rules! arms {
        ($bits:expr) => {
            match op {
                IBin::Add => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::Add, $bits, x, y)),
                IBin::Sub => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::Sub, $bits, x, y)),
                IBin::MulLo => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MulLo, $bits, x, y)),
                IBin::MulWideS => {
                    bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MulWideS, $bits, x, y))
                }
                IBin::MulWideU => {
                    bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MulWideU, $bits, x, y))
                }
                IBin::MulHiS => {
                    bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MulHiS, $bits, x, y))
                }
                IBin::MulHiU => {
                    bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MulHiU, $bits, x, y))
                }
                IBin::And => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::And, $bits, x, y)),
                IBin::Or => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::Or, $bits, x, y)),
                IBin::Xor => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::Xor, $bits, x, y)),
                IBin::Shl => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::Shl, $bits, x, y)),
                IBin::ShrU => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::ShrU, $bits, x, y)),
                IBin::ShrS => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::ShrS, $bits, x, y)),
                IBin::MinS => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MinS, $bits, x, y)),
                IBin::MaxS => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MaxS, $bits, x, y)),
                IBin::MinU => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MinU, $bits, x, y)),
                IBin::MaxU => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(IBin::MaxU, $bits, x, y)),
                other => bin_lanes(r, d, a, b, m, |x, y| alu::ibin(other, $bits, x, y)),
            }
        };
    }
    match w {
        W::B32 => arms!(32),
        W::B64 => arms!(64),
        W::B16 => arms!(16),
        W::B8 => arms!(8),
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn exec_itern(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32, op: ITern, w: W) {
    macro_rules! arms {
        ($bits:expr) => {
            match op {
                ITern::MadLo => tern_lanes(r, d, a, b, c, m, |x, y, z| {
                    alu::itern(ITern::MadLo, $bits, x, y, z)
                }),
                ITern::MadWideS => tern_lanes(r, d, a, b, c, m, |x, y, z| {
                    alu::itern(ITern::MadWideS, $bits, x, y, z)
                }),
                ITern::MadWideU => tern_lanes(r, d, a, b, c, m, |x, y, z| {
                    alu::itern(ITern::MadWideU, $bits, x, y, z)
                }),
                other => tern_lanes(r, d, a, b, c, m, |x, y, z| {
                    alu::itern(other, $bits, x, y, z)
                }),
            }
        };
    }
    match w {
        W::B32 => arms!(32),
        W::B64 => arms!(64),
        W::B16 => arms!(16),
        W::B8 => arms!(8),
    }
}

#[inline(always)]
fn exec_f32fast(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, op: FBin) {
    match op {
        FBin::Add => bin_lanes(r, d, a, b, m, |x, y| b32f(f32b(x) + f32b(y))),
        FBin::Sub => bin_lanes(r, d, a, b, m, |x, y| b32f(f32b(x) - f32b(y))),
        FBin::Mul => bin_lanes(r, d, a, b, m, |x, y| b32f(f32b(x) * f32b(y))),
        FBin::Div => bin_lanes(r, d, a, b, m, |x, y| b32f(f32b(x) / f32b(y))),
        other => bin_lanes(r, d, a, b, m, |x, y| {
            alu::fbin(other, FTy::F32, FMods::RN, x, y)
        }),
    }
}

#[inline(always)]
fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}

#[inline(always)]
fn exec_f64fast(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, op: FBin) {
    let c = |x: f64| canon64(x).to_bits();
    match op {
        FBin::Add => bin_lanes(r, d, a, b, m, |x, y| c(f64b(x) + f64b(y))),
        FBin::Sub => bin_lanes(r, d, a, b, m, |x, y| c(f64b(x) - f64b(y))),
        FBin::Mul => bin_lanes(r, d, a, b, m, |x, y| c(f64b(x) * f64b(y))),
        FBin::Div => bin_lanes(r, d, a, b, m, |x, y| c(f64b(x) / f64b(y))),
        other => bin_lanes(r, d, a, b, m, |x, y| {
            alu::fbin(other, FTy::F64, FMods::RN, x, y)
        }),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fma32_hw(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32) {
    tern_lanes(r, d, a, b, c, m, |x, y, z| {
        b32f(f32b(x).mul_add(f32b(y), f32b(z)))
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fma64_hw(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32) {
    tern_lanes(r, d, a, b, c, m, |x, y, z| {
        canon64(f64b(x).mul_add(f64b(y), f64b(z))).to_bits()
    });
}

#[inline(always)]
fn exec_fma32<const AVX2: bool>(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32, hw: bool) {
    if AVX2 || cfg!(target_feature = "fma") {
        tern_lanes(r, d, a, b, c, m, |x, y, z| {
            b32f(f32b(x).mul_add(f32b(y), f32b(z)))
        });
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if hw {
        // SAFETY: `hw` is only true when the CPU reports FMA support.
        unsafe { fma32_hw(r, d, a, b, c, m) };
        return;
    }
    let _ = hw;
    tern_lanes(r, d, a, b, c, m, |x, y, z| {
        alu::ffma(FTy::F32, FMods::RN, x, y, z)
    });
}

#[inline(always)]
fn exec_fma64<const AVX2: bool>(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32, hw: bool) {
    if AVX2 || cfg!(target_feature = "fma") {
        tern_lanes(r, d, a, b, c, m, |x, y, z| {
            canon64(f64b(x).mul_add(f64b(y), f64b(z))).to_bits()
        });
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if hw {
        // SAFETY: `hw` is only true when the CPU reports FMA support.
        unsafe { fma64_hw(r, d, a, b, c, m) };
        return;
    }
    let _ = hw;
    tern_lanes(r, d, a, b, c, m, |x, y, z| {
        canon64(f64b(x).mul_add(f64b(y), f64b(z))).to_bits()
    });
}

#[inline(always)]
fn exec_setp(r: &[[u64; 32]], ty: CmpTy, cmp: Cmp, a: R, b: R) -> u32 {
    macro_rules! by_cmp {
        ($f:ident, $($t:tt)*) => {
            match cmp {
                Cmp::Eq => cmp_lanes(r, a, b, |x, y| $f(Cmp::Eq, x, y)),
                Cmp::Ne => cmp_lanes(r, a, b, |x, y| $f(Cmp::Ne, x, y)),
                Cmp::Lt => cmp_lanes(r, a, b, |x, y| $f(Cmp::Lt, x, y)),
                Cmp::Le => cmp_lanes(r, a, b, |x, y| $f(Cmp::Le, x, y)),
                Cmp::Gt => cmp_lanes(r, a, b, |x, y| $f(Cmp::Gt, x, y)),
                Cmp::Ge => cmp_lanes(r, a, b, |x, y| $f(Cmp::Ge, x, y)),
                other => cmp_lanes(r, a, b, |x, y| $f(other, x, y)),
            }
        };
    }
    match ty {
        CmpTy::S(W::B32) => {
            let f = |c, x, y| alu::compare(CmpTy::S(W::B32), c, x, y);
            by_cmp!(f,)
        }
        CmpTy::U(W::B32) => {
            let f = |c, x, y| alu::compare(CmpTy::U(W::B32), c, x, y);
            by_cmp!(f,)
        }
        CmpTy::S(W::B64) => {
            let f = |c, x, y| alu::compare(CmpTy::S(W::B64), c, x, y);
            by_cmp!(f,)
        }
        CmpTy::U(W::B64) => {
            let f = |c, x, y| alu::compare(CmpTy::U(W::B64), c, x, y);
            by_cmp!(f,)
        }
        CmpTy::F32 { ftz: false } => {
            let f = |c, x, y| alu::compare(CmpTy::F32 { ftz: false }, c, x, y);
            by_cmp!(f,)
        }
        other => cmp_lanes(r, a, b, |x, y| alu::compare(other, cmp, x, y)),
    }
}

/// Resolved storage of one lane's access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Store {
    Global,
    Shared,
    Local,
    Const,
    KParam,
}

impl Store {
    fn space(self) -> MemSpace {
        match self {
            Store::Global => MemSpace::Global,
            Store::Shared => MemSpace::Shared,
            Store::Local => MemSpace::Local,
            Store::Const => MemSpace::Const,
            Store::KParam => MemSpace::Param,
        }
    }
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
            let vals: [u64; 32] = std::array::from_fn(|l| self.warp_const(w, c, l as u32, tids[l]));
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

    /// Returns from a call: copies return values to the caller and restores its context.
    fn finish_call(&mut self, w: &mut Warp, fr: Frame) {
        let callee_base = w.reg_base as usize;
        let callee_local = w.local_base as usize;
        let caller_code = &self.prog.funcs[fr.func as usize];
        let lanes_back = w.stack.last().map_or(0, |e| e.mask) & !w.exited;
        if let Op::Call(info) = &caller_code.ops[fr.call_pc as usize].op {
            let callee_code = &self.prog.funcs[fr.callee as usize];
            for x in info.rets.iter() {
                match *x {
                    Xfer::Mem {
                        caller_off,
                        callee_off,
                        size,
                    } => {
                        let callee_off = if callee_off == u32::MAX {
                            // Indirect: the callee's first return slot.
                            match callee_code.ret_slots.first().copied().flatten() {
                                Some(o) => o,
                                None => continue,
                            }
                        } else {
                            callee_off
                        };
                        for l in lanes(lanes_back) {
                            let mem = &mut w.local[l];
                            let src = callee_local + callee_off as usize;
                            let dst = fr.local_base as usize + caller_off as usize;
                            let n = size as usize;
                            if src + n <= mem.len() && dst + n <= mem.len() {
                                mem.copy_within(src..src + n, dst);
                            }
                        }
                    }
                    Xfer::RegBack { callee, caller } => {
                        let v = w.regs[callee_base + callee as usize];
                        let dst = &mut w.regs[fr.reg_base as usize + caller as usize];
                        wr(dst, &v, lanes_back);
                    }
                    Xfer::Reg { .. } => {}
                }
            }
        }
        w.func = fr.func;
        w.reg_base = fr.reg_base;
        w.pred_base = fr.pred_base;
        w.local_base = fr.local_base;
    }

    /// Resolves one lane's address to its storage and space address.
    #[inline(always)]
    fn resolve(
        &self,
        space: Space,
        base_frame: bool,
        addr: u64,
    ) -> Result<(Store, u64), FaultKind> {
        if base_frame {
            return Ok((Store::Local, addr));
        }
        Ok(match space {
            Space::Global => (Store::Global, addr),
            Space::Shared => (Store::Shared, addr),
            Space::Local => (Store::Local, addr),
            Space::Const => (Store::Const, addr),
            Space::Param => (Store::KParam, addr),
            Space::Generic => match window_of(addr) {
                Window::Global(a) => (Store::Global, a),
                Window::Shared(o) => (Store::Shared, o),
                Window::Local(o) => (Store::Local, o),
                Window::Const(o) => (Store::Const, o),
                Window::Param(o) => (Store::KParam, o),
                Window::Func(_) | Window::None => {
                    return Err(FaultKind::BadGenericAddress { addr });
                }
            },
        })
    }

    #[cold]
    fn oob_detail(&self, store: Store, addr: u64, size: u32, shared_len: usize) -> String {
        match store {
            Store::Global => {
                let regions = self.global.regions();
                let i = regions.partition_point(|r| r.base <= addr);
                let mut best: Option<String> = None;
                if i > 0 {
                    let r = &regions[i - 1];
                    let end = r.base + r.size;
                    if addr >= end || addr + u64::from(size) > end {
                        best = Some(format!(
                            "{} bytes past the end of `{}` ({:#x}, {} bytes)",
                            (addr + u64::from(size)).saturating_sub(end),
                            r.name,
                            r.base,
                            r.size
                        ));
                    }
                }
                if let Some(r) = regions.get(i)
                    && best.is_none()
                {
                    best = Some(format!(
                        "{} bytes before `{}` ({:#x}, {} bytes)",
                        r.base - addr,
                        r.name,
                        r.base,
                        r.size
                    ));
                }
                best.unwrap_or_else(|| "no device memory is allocated there".into())
            }
            Store::Shared => format!("the block has {shared_len} bytes of shared memory"),
            Store::Local => "outside the thread's local memory".into(),
            Store::Const => format!("the constant bank has {} bytes", self.constb.len()),
            Store::KParam => format!("the kernel has {} bytes of parameters", self.params.len()),
        }
    }

    #[cold]
    fn access_fault(
        &self,
        store: Store,
        kind: AccessKind,
        addr: u64,
        size: u32,
        e: AccessError,
        shared_len: usize,
    ) -> FaultKind {
        match e {
            AccessError::Misaligned => FaultKind::Misaligned {
                space: store.space(),
                kind,
                addr,
                size,
            },
            AccessError::ReadOnly => FaultKind::ReadOnly {
                space: store.space(),
                addr,
            },
            AccessError::Unmapped => FaultKind::OutOfBounds {
                space: store.space(),
                kind,
                addr,
                size,
                detail: self.oob_detail(store, addr, size, shared_len),
            },
        }
    }

    #[inline(always)]
    fn global_locate(&mut self, addr: u64, n: u32) -> Result<(usize, u64), AccessError> {
        let (base, size, idx) = self.rcache;
        let off = addr.wrapping_sub(base);
        if off < size && size - off >= u64::from(n) && addr & (u64::from(n.min(16)) - 1) == 0 {
            return Ok((idx, off));
        }
        let (i, off) = self.global.locate(addr, n)?;
        let global = self.global;
        let r = global.region(i);
        self.rcache = (r.base, r.size, i);
        self.fc_words = r.words();
        Ok((i, off))
    }

    /// Loads `n` bytes for lane `l`.
    #[inline(always)]
    fn load(
        &mut self,
        w: &Warp,
        shared: &[u8],
        l: usize,
        store: Store,
        addr: u64,
        n: u32,
    ) -> Result<u64, AccessError> {
        let plain = |mem: &[u8]| -> Result<u64, AccessError> {
            // Access sizes are powers of two.
            if addr & (u64::from(n) - 1) != 0 {
                return Err(AccessError::Misaligned);
            }
            let off = usize::try_from(addr).map_err(|_| AccessError::Unmapped)?;
            read_plain(mem, off, n as usize).ok_or(AccessError::Unmapped)
        };
        match store {
            Store::Global => {
                let (i, off) = self.global_locate(addr, n)?;
                Ok(self.global.load(i, off, n))
            }
            Store::Shared => plain(shared),
            Store::Local => plain(w.local.get(l).map_or(&[][..], |v| &v[..])),
            Store::Const => plain(self.constb),
            Store::KParam => plain(self.params),
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        l: usize,
        store: Store,
        addr: u64,
        n: u32,
        v: u64,
    ) -> Result<(), AccessError> {
        let plain = |mem: &mut [u8]| -> Result<(), AccessError> {
            // Access sizes are powers of two.
            if addr & (u64::from(n) - 1) != 0 {
                return Err(AccessError::Misaligned);
            }
            let off = usize::try_from(addr).map_err(|_| AccessError::Unmapped)?;
            write_plain(mem, off, n as usize, v).ok_or(AccessError::Unmapped)
        };
        match store {
            Store::Global => {
                let (i, off) = self.global_locate(addr, n)?;
                self.global.store(i, off, n, v);
                Ok(())
            }
            Store::Shared => plain(shared),
            Store::Local => match w.local.get_mut(l) {
                Some(m) => plain(m),
                None => Err(AccessError::Unmapped),
            },
            Store::Const | Store::KParam => Err(AccessError::ReadOnly),
        }
    }

    /// Reads a NUL-terminated string at a generic address (for printf/assert).
    fn read_cstr(&mut self, w: &Warp, shared: &[u8], l: usize, addr: u64) -> String {
        let mut out = Vec::new();
        for i in 0..4096u64 {
            let Ok((st, a)) = self.resolve(Space::Generic, false, addr.wrapping_add(i)) else {
                break;
            };
            match self.load(w, shared, l, st, a, 1) {
                Ok(0) | Err(_) => break,
                Ok(b) => out.push(b as u8),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Emits memory events for the lanes of `exec`, split by storage when generic
    /// addressing mixed spaces.
    #[allow(clippy::too_many_arguments)]
    fn emit_mem(
        &mut self,
        w: &Warp,
        pc: u32,
        stores: &[Store; 32],
        exec: u32,
        kind: AccessKind,
        size: u32,
        generic: bool,
    ) {
        let code = &self.prog.funcs[w.func as usize];
        let meta = code.meta[pc as usize];
        let mut left = exec;
        while left != 0 {
            let first = left.trailing_zeros() as usize;
            let st = stores[first];
            let mut m = 0u32;
            for l in lanes(left) {
                if stores[l] == st {
                    m |= 1 << l;
                }
            }
            left &= !m;
            let acc = MemoryAccess {
                func: code.func,
                inst: meta.inst,
                space: st.space(),
                kind,
                size,
                addrs: &self.addrs,
                active: m,
                generic,
            };
            self.obs.memory(&w.info, &acc);
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
                    Op::Mov { d, a } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let v = r[*a as usize];
                            wr(&mut r[*d as usize], &v, exec);
                        }
                    }
                    Op::Bin { f, d, a, b } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let (d, a, b) = (*d, *a, *b);
                            match *f {
                                BinF::Int(op, wd) => exec_ibin(r, d, a, b, exec, op, wd),
                                BinF::F32Fast(op) => exec_f32fast(r, d, a, b, exec, op),
                                BinF::F64Fast(op) => exec_f64fast(r, d, a, b, exec, op),
                                BinF::Float(op, ty, mods) => bin_lanes(r, d, a, b, exec, |x, y| {
                                    alu::fbin(op, ty, mods, x, y)
                                }),
                                BinF::CvtPair { bf16, mods } => {
                                    bin_lanes(r, d, a, b, exec, |x, y| {
                                        alu::cvt_pair(bf16, mods, x, y)
                                    })
                                }
                            }
                        }
                    }
                    Op::Tern { f, d, a, b, c } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let (d, a, b, c) = (*d, *a, *b, *c);
                            match *f {
                                TernF::Int(op, wd) => exec_itern(r, d, a, b, c, exec, op, wd),
                                TernF::Fma32Fast => {
                                    exec_fma32::<AVX2>(r, d, a, b, c, exec, self.hw_fma)
                                }
                                TernF::Fma64Fast => {
                                    exec_fma64::<AVX2>(r, d, a, b, c, exec, self.hw_fma)
                                }
                                TernF::Fma(ty, mods) => {
                                    tern_lanes(r, d, a, b, c, exec, |x, y, z| {
                                        alu::ffma(ty, mods, x, y, z)
                                    })
                                }
                                TernF::Contracted {
                                    ty,
                                    ftz,
                                    neg_ab,
                                    neg_c,
                                } => {
                                    let mods = FMods { ftz, ..FMods::RN };
                                    let sign = if ty == FTy::F64 {
                                        1u64 << 63
                                    } else {
                                        1u64 << 31
                                    };
                                    let sa = if neg_ab { sign } else { 0 };
                                    let sc = if neg_c { sign } else { 0 };
                                    tern_lanes(r, d, a, b, c, exec, |x, y, z| {
                                        alu::ffma(ty, mods, x ^ sa, y, z ^ sc)
                                    })
                                }
                            }
                        }
                    }
                    Op::Un { f, d, a } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let (d, a) = (*d, *a);
                            match *f {
                                UnF::Zext(W::B32) => un_lanes(r, d, a, exec, |x| zx(x, 32)),
                                UnF::Zext(wd) => {
                                    let bits = wd.bits();
                                    un_lanes(r, d, a, exec, |x| zx(x, bits))
                                }
                                UnF::Sext {
                                    from: W::B32,
                                    to: W::B64,
                                } => un_lanes(r, d, a, exec, |x| sx(x, 32) as u64),
                                UnF::Sext { from, to } => {
                                    let (fb, tb) = (from.bits(), to.bits());
                                    un_lanes(r, d, a, exec, |x| zx(sx(x, fb) as u64, tb))
                                }
                                UnF::Int(op, wd) => {
                                    let bits = wd.bits();
                                    un_lanes(r, d, a, exec, |x| alu::iun(op, bits, x))
                                }
                                UnF::Float(op, ty, mods) => {
                                    un_lanes(r, d, a, exec, |x| alu::fun(op, ty, mods, x))
                                }
                                UnF::Cvt(spec) => un_lanes(r, d, a, exec, |x| alu::cvt(spec, x)),
                            }
                        }
                    }
                    Op::Bfi {
                        w: wd,
                        d,
                        a,
                        b,
                        c,
                        e,
                    } => {
                        if exec != 0 {
                            let bits = wd.bits();
                            let r = &mut w.regs[rb..];
                            let v: [u64; 32] = std::array::from_fn(|i| {
                                alu::bfi(
                                    bits,
                                    r[*a as usize][i],
                                    r[*b as usize][i],
                                    r[*c as usize][i],
                                    r[*e as usize][i],
                                )
                            });
                            wr(&mut r[*d as usize], &v, exec);
                        }
                    }
                    Op::Lop3 { d, a, b, c, lut } => {
                        if exec != 0 {
                            let lut = *lut;
                            tern_lanes(&mut w.regs[rb..], *d, *a, *b, *c, exec, |x, y, z| {
                                alu::lop3(x, y, z, lut)
                            });
                        }
                    }
                    Op::Prmt { d, a, b, c, mode } => {
                        if exec != 0 {
                            let mode = *mode;
                            tern_lanes(&mut w.regs[rb..], *d, *a, *b, *c, exec, |x, y, z| {
                                u64::from(alu::prmt(x as u32, y as u32, z as u32, mode))
                            });
                        }
                    }
                    Op::Setp {
                        ty,
                        cmp,
                        p,
                        q,
                        a,
                        b,
                        comb,
                    } => {
                        if exec != 0 {
                            let t = exec_setp(&w.regs[rb..], *ty, *cmp, *a, *b);
                            let (pv, qv) = match comb {
                                None => (t, !t),
                                Some(c) => {
                                    let cv = w.preds[pb + c.p as usize]
                                        ^ if c.neg { u32::MAX } else { 0 };
                                    (alu::combine(c.op, t, cv), alu::combine(c.op, !t, cv))
                                }
                            };
                            if *p != NONE {
                                let s = &mut w.preds[pb + *p as usize];
                                *s = (*s & !exec) | (pv & exec);
                            }
                            if *q != NONE {
                                let s = &mut w.preds[pb + *q as usize];
                                *s = (*s & !exec) | (qv & exec);
                            }
                        }
                    }
                    Op::SetpX2 {
                        bf16,
                        cmp,
                        p,
                        q,
                        a,
                        b,
                        comb,
                    } => {
                        if exec != 0 {
                            let ty = if *bf16 { CmpTy::Bf16 } else { CmpTy::F16 };
                            let r = &w.regs[rb..];
                            let hi = cmp_lanes(r, *a, *b, |x, y| {
                                alu::compare(ty, *cmp, x >> 16, y >> 16)
                            });
                            let lo = cmp_lanes(r, *a, *b, |x, y| alu::compare(ty, *cmp, x, y));
                            let cv = comb.map(|c| {
                                (
                                    c.op,
                                    w.preds[pb + c.p as usize] ^ if c.neg { u32::MAX } else { 0 },
                                )
                            });
                            let f = |t: u32| match cv {
                                None => t,
                                Some((op, c)) => alu::combine(op, t, c),
                            };
                            if *p != NONE {
                                let s = &mut w.preds[pb + *p as usize];
                                *s = (*s & !exec) | (f(hi) & exec);
                            }
                            if *q != NONE {
                                let s = &mut w.preds[pb + *q as usize];
                                *s = (*s & !exec) | (f(lo) & exec);
                            }
                        }
                    }
                    Op::Set {
                        ty,
                        cmp,
                        out,
                        d,
                        a,
                        b,
                        comb,
                    } => {
                        if exec != 0 {
                            let t = exec_setp(&w.regs[rb..], *ty, *cmp, *a, *b);
                            let t = match comb {
                                None => t,
                                Some(c) => {
                                    let cv = w.preds[pb + c.p as usize]
                                        ^ if c.neg { u32::MAX } else { 0 };
                                    alu::combine(c.op, t, cv)
                                }
                            };
                            let one = match out {
                                SetOut::Mask(wd) => zx(u64::MAX, wd.bits()),
                                SetOut::F32 => u64::from(1.0f32.to_bits()),
                                SetOut::F16 => 0x3c00,
                                SetOut::Bf16 => 0x3f80,
                                SetOut::F16x2 => 0x3c00_3c00,
                                SetOut::Bf16x2 => 0x3f80_3f80,
                            };
                            let v: [u64; 32] =
                                std::array::from_fn(|i| if t >> i & 1 == 1 { one } else { 0 });
                            wr(&mut w.regs[rb + *d as usize], &v, exec);
                        }
                    }
                    Op::Selp { d, a, b, p, neg } => {
                        if exec != 0 {
                            let pm = w.preds[pb + *p as usize] ^ if *neg { u32::MAX } else { 0 };
                            let r = &mut w.regs[rb..];
                            let v: [u64; 32] = {
                                let x = &r[*a as usize];
                                let y = &r[*b as usize];
                                std::array::from_fn(|i| if pm >> i & 1 == 1 { x[i] } else { y[i] })
                            };
                            wr(&mut r[*d as usize], &v, exec);
                        }
                    }
                    Op::PLogic {
                        op,
                        p,
                        a,
                        an,
                        b,
                        bn,
                    } => {
                        let x = w.preds[pb + *a as usize] ^ if *an { u32::MAX } else { 0 };
                        let y = w.preds[pb + *b as usize] ^ if *bn { u32::MAX } else { 0 };
                        let v = match op {
                            BoolOp::And => x & y,
                            BoolOp::Or => x | y,
                            BoolOp::Xor => x ^ y,
                        };
                        let s = &mut w.preds[pb + *p as usize];
                        *s = (*s & !exec) | (v & exec);
                    }
                    Op::PMov { p, a, neg } => {
                        let v = w.preds[pb + *a as usize] ^ if *neg { u32::MAX } else { 0 };
                        let s = &mut w.preds[pb + *p as usize];
                        *s = (*s & !exec) | (v & exec);
                    }
                    Op::PConst { p, v } => {
                        // Constants are set for every lane (they are not per-thread state).
                        w.preds[pb + *p as usize] = if *v { u32::MAX } else { 0 };
                    }
                    Op::Testp { f, ty, p, a } => {
                        let x = &w.regs[rb + *a as usize];
                        let mut t = 0u32;
                        for (i, &v) in x.iter().enumerate() {
                            t |= u32::from(alu::testp(*f, *ty, v)) << i;
                        }
                        let s = &mut w.preds[pb + *p as usize];
                        *s = (*s & !exec) | (t & exec);
                    }
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
                    Op::Pack { d, srcs, n, ew } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let ew = u32::from(*ew);
                            let v: [u64; 32] = std::array::from_fn(|i| {
                                let mut x = 0u64;
                                for k in 0..usize::from(*n) {
                                    let s = srcs[k];
                                    let e = if s == NONE {
                                        0
                                    } else {
                                        zx(r[s as usize][i], ew)
                                    };
                                    x |= e << (ew * k as u32);
                                }
                                x
                            });
                            wr(&mut r[*d as usize], &v, exec);
                        }
                    }
                    Op::Unpack { ds, n, ew, a } => {
                        if exec != 0 {
                            let r = &mut w.regs[rb..];
                            let ew = u32::from(*ew);
                            let src = r[*a as usize];
                            for k in 0..usize::from(*n) {
                                let dk = ds[k];
                                if dk != NONE {
                                    let v: [u64; 32] =
                                        std::array::from_fn(|i| zx(src[i] >> (ew * k as u32), ew));
                                    wr(&mut r[dk as usize], &v, exec);
                                }
                            }
                        }
                    }
                    Op::ReadClock { d, kind } => {
                        let c = self.cycle + c.issued;
                        let v = match kind {
                            Clock::Clock => c & 0xffff_ffff,
                            Clock::ClockHi => (c >> 32) & 0xffff_ffff,
                            Clock::Clock64 => c,
                            Clock::GlobalTimer => c,
                            Clock::GlobalTimerLo => c & 0xffff_ffff,
                            Clock::GlobalTimerHi => c >> 32,
                        };
                        wr(&mut w.regs[rb + *d as usize], &[v; 32], exec);
                    }
                    Op::LocalAddr { d, off } => {
                        let v = u64::from(w.local_base) + u64::from(*off);
                        wr(&mut w.regs[rb + *d as usize], &[v; 32], exec);
                    }
                    Op::Cvta {
                        d,
                        a,
                        to_generic,
                        space,
                        narrow,
                    } => {
                        let win = match space {
                            Space::Local => LOCAL_WINDOW,
                            Space::Shared => SHARED_WINDOW,
                            Space::Const => CONST_WINDOW,
                            Space::Param => PARAM_WINDOW,
                            _ => 0,
                        };
                        let (tg, nr) = (*to_generic, *narrow);
                        un_lanes(&mut w.regs[rb..], *d, *a, exec, |x| {
                            if tg {
                                let x = if nr { zx(x, 32) } else { x };
                                x.wrapping_add(win)
                            } else {
                                let v = x.wrapping_sub(win);
                                if nr { zx(v, 32) } else { v }
                            }
                        });
                    }
                    Op::Isspacep { p, a, space } => {
                        let x = &w.regs[rb + *a as usize];
                        let mut t = 0u32;
                        for (i, &v) in x.iter().enumerate() {
                            let ok = matches!(
                                (space, window_of(v)),
                                (Space::Global, Window::Global(_))
                                    | (Space::Shared, Window::Shared(_))
                                    | (Space::Local, Window::Local(_))
                                    | (Space::Const, Window::Const(_))
                                    | (Space::Param, Window::Param(_))
                            );
                            t |= u32::from(ok) << i;
                        }
                        let s = &mut w.preds[pb + *p as usize];
                        *s = (*s & !exec) | (t & exec);
                    }
                    Op::LdParam { fmt, vec, d, off } => {
                        if exec != 0 {
                            for k in 0..usize::from(*vec) {
                                let o = *off as usize + k * usize::from(fmt.size);
                                let Some(v) = read_plain(self.params, o, usize::from(fmt.size))
                                else {
                                    let lane = exec.trailing_zeros();
                                    return Err(self.fault(
                                        w,
                                        pc,
                                        lane,
                                        FaultKind::OutOfBounds {
                                            space: MemSpace::Param,
                                            kind: AccessKind::Load,
                                            addr: o as u64,
                                            size: u32::from(fmt.size),
                                            detail: self.oob_detail(
                                                Store::KParam,
                                                o as u64,
                                                u32::from(fmt.size),
                                                0,
                                            ),
                                        },
                                    ));
                                };
                                let v = extend(*fmt, v);
                                if d[k] != NONE {
                                    wr(&mut w.regs[rb + d[k] as usize], &[v; 32], exec);
                                }
                            }
                            if O::MEMORY {
                                // Parameter loads are uniform; report them like other loads.
                                let code_meta = code.meta[pc as usize];
                                self.addrs = [u64::from(*off); 32];
                                let acc = MemoryAccess {
                                    func: code.func,
                                    inst: code_meta.inst,
                                    space: MemSpace::Param,
                                    kind: AccessKind::Load,
                                    size: u32::from(fmt.size) * u32::from(*vec),
                                    addrs: &self.addrs,
                                    active: exec,
                                    generic: false,
                                };
                                self.obs.memory(&w.info, &acc);
                            }
                        }
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
                    } => {
                        if exec != 0 {
                            let r = &w.regs[rb..];
                            let src = r[*a as usize];
                            let bv = r[*b as usize];
                            let cv = r[*c as usize];
                            let mut out = [0u64; 32];
                            let mut pbits = 0u32;
                            for l in lanes(exec) {
                                let lane = l as u32;
                                let bb = bv[l] as u32 & 31;
                                let cc = cv[l] as u32;
                                let clamp = cc & 0x1f;
                                let seg = (cc >> 8) & 0x1f;
                                let max_lane = (lane & seg) | (clamp & !seg);
                                let min_lane = lane & seg;
                                let (j, ok) = match mode {
                                    ShflMode::Up => {
                                        let j = lane as i32 - bb as i32;
                                        (j, j >= max_lane as i32)
                                    }
                                    ShflMode::Down => {
                                        let j = (lane + bb) as i32;
                                        (j, j <= max_lane as i32)
                                    }
                                    ShflMode::Bfly => {
                                        let j = (lane ^ bb) as i32;
                                        (j, j <= max_lane as i32)
                                    }
                                    ShflMode::Idx => {
                                        let j = (min_lane | (bb & !seg)) as i32;
                                        (j, j <= max_lane as i32)
                                    }
                                };
                                let j = if ok && (0..32).contains(&j) {
                                    j as usize
                                } else {
                                    l
                                };
                                out[l] = src[j];
                                if ok {
                                    pbits |= 1 << l;
                                }
                            }
                            if *d != NONE {
                                wr(&mut w.regs[rb + *d as usize], &out, exec);
                            }
                            if *p != NONE {
                                let s = &mut w.preds[pb + *p as usize];
                                *s = (*s & !exec) | (pbits & exec);
                            }
                        }
                    }
                    Op::Vote { f, d, a, neg, mask } => {
                        if exec != 0 {
                            let pv = w.preds[pb + *a as usize] ^ if *neg { u32::MAX } else { 0 };
                            let groups = member_groups(&w.regs[rb + *mask as usize], exec);
                            let mut out = [0u64; 32];
                            let mut t = 0u32;
                            for l in lanes(exec) {
                                let g = groups[l];
                                let ballot = pv & g;
                                out[l] = u64::from(ballot);
                                let v = match f {
                                    VoteF::All => ballot == g,
                                    VoteF::Any => ballot != 0,
                                    VoteF::Uni => ballot == g || ballot == 0,
                                    VoteF::Ballot => false,
                                };
                                t |= u32::from(v) << l;
                            }
                            if *d != NONE {
                                if *f == VoteF::Ballot {
                                    wr(&mut w.regs[rb + *d as usize], &out, exec);
                                } else {
                                    let s = &mut w.preds[pb + *d as usize];
                                    *s = (*s & !exec) | (t & exec);
                                }
                            }
                        }
                    }
                    Op::Match {
                        all,
                        w64,
                        d,
                        p,
                        a,
                        mask,
                    } => {
                        if exec != 0 {
                            let x = w.regs[rb + *a as usize];
                            let groups = member_groups(&w.regs[rb + *mask as usize], exec);
                            let val = |l: usize| if *w64 { x[l] } else { zx(x[l], 32) };
                            let mut out = [0u64; 32];
                            let mut same_bits = 0u32;
                            for l in lanes(exec) {
                                let g = groups[l];
                                let mut m = 0u32;
                                for k in lanes(g) {
                                    if val(k) == val(l) {
                                        m |= 1 << k;
                                    }
                                }
                                if *all {
                                    let same = m == g;
                                    out[l] = if same { u64::from(g) } else { 0 };
                                    same_bits |= u32::from(same) << l;
                                } else {
                                    out[l] = u64::from(m);
                                }
                            }
                            if *d != NONE {
                                wr(&mut w.regs[rb + *d as usize], &out, exec);
                            }
                            if *p != NONE {
                                let s = &mut w.preds[pb + *p as usize];
                                *s = (*s & !exec) | (same_bits & exec);
                            }
                        }
                    }
                    Op::Redux { f, d, a, mask } => {
                        if exec != 0 {
                            let x = w.regs[rb + *a as usize];
                            let groups = member_groups(&w.regs[rb + *mask as usize], exec);
                            let mut out = [0u64; 32];
                            for l in lanes(exec) {
                                let mut acc: Option<u32> = None;
                                for k in lanes(groups[l]) {
                                    let v = x[k] as u32;
                                    acc = Some(match acc {
                                        None => v,
                                        Some(s) => match f {
                                            ReduxF::Add => s.wrapping_add(v),
                                            ReduxF::MinU => s.min(v),
                                            ReduxF::MaxU => s.max(v),
                                            ReduxF::MinS => (s as i32).min(v as i32) as u32,
                                            ReduxF::MaxS => (s as i32).max(v as i32) as u32,
                                            ReduxF::And => s & v,
                                            ReduxF::Or => s | v,
                                            ReduxF::Xor => s ^ v,
                                        },
                                    });
                                }
                                out[l] = u64::from(acc.unwrap_or(0));
                            }
                            wr(&mut w.regs[rb + *d as usize], &out, exec);
                        }
                    }
                    Op::Activemask { d } => {
                        if *d != NONE {
                            wr(
                                &mut w.regs[rb + *d as usize],
                                &[u64::from(active); 32],
                                exec,
                            );
                        }
                    }
                    Op::Elect { d, p, mask } => {
                        if exec != 0 {
                            let groups = member_groups(&w.regs[rb + *mask as usize], exec);
                            let mut out = [0u64; 32];
                            let mut leaders = 0u32;
                            for l in lanes(exec) {
                                let leader = groups[l].trailing_zeros();
                                out[l] = u64::from(leader);
                                leaders |= u32::from(leader == l as u32) << l;
                            }
                            if *d != NONE {
                                wr(&mut w.regs[rb + *d as usize], &out, exec);
                            }
                            if *p != NONE {
                                let s = &mut w.preds[pb + *p as usize];
                                *s = (*s & !exec) | (leaders & exec);
                            }
                        }
                    }
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
                        let live = w.info.lanes & !w.exited;
                        let first = exec.trailing_zeros() as usize;
                        let idv = w.regs[rb + *id as usize][first] as u32;
                        if exec != live {
                            let lane = (live & !exec).trailing_zeros();
                            return Err(self.fault(
                                w,
                                pc,
                                lane,
                                FaultKind::DivergentBarrier {
                                    barrier: idv,
                                    arrived: exec,
                                    live,
                                },
                            ));
                        }
                        if idv >= 16 {
                            return Err(self.fault(
                                w,
                                pc,
                                first as u32,
                                FaultKind::Unsupported {
                                    what: format!("barrier id {idv} (PTX allows 0..15)"),
                                },
                            ));
                        }
                        let cnt =
                            (*count != NONE).then(|| w.regs[rb + *count as usize][first] as u32);
                        let pv = if *a != NONE {
                            (w.preds[pb + *a as usize] ^ if *neg { u32::MAX } else { 0 }) & exec
                        } else {
                            0
                        };
                        let dabs = if *d == NONE {
                            NONE
                        } else if *kind == BarKind::RedPopc {
                            rb as u32 + *d
                        } else {
                            pb as u32 + *d
                        };
                        let arr = BarArrival {
                            kind: *kind,
                            id: idv,
                            count: cnt,
                            contrib: pv.count_ones(),
                            all_true: pv == exec,
                            d: dabs,
                            lanes: exec,
                            func,
                            pc,
                        };
                        pc += 1;
                        save!();
                        return Ok(Stop::Barrier(arr));
                    }
                    Op::Bra { t } => {
                        pc = *t;
                        continue;
                    }
                    Op::BraCond { p, neg, t, rpc: r } => {
                        let pm = w.preds[pb + *p as usize] ^ if *neg { u32::MAX } else { 0 };
                        let taken = active & pm;
                        let nt = active & !pm;
                        if O::BRANCHES {
                            let meta = code.meta[pc as usize];
                            self.obs
                                .branch(&w.info, code.func, meta.inst, active, taken);
                        }
                        if nt == 0 {
                            pc = *t;
                            continue;
                        }
                        if taken == 0 {
                            pc += 1;
                            continue;
                        }
                        // Divergence: the current entry waits at the reconvergence point.
                        let r = *r;
                        let top = w.stack.len() - 1;
                        w.stack[top].pc = r;
                        w.stack.push(Entry {
                            pc: *t,
                            rpc: r,
                            mask: taken,
                        });
                        w.stack.push(Entry {
                            pc: pc + 1,
                            rpc: r,
                            mask: nt,
                        });
                        continue 'outer;
                    }
                    Op::Brx { a, table, rpc: r } => {
                        if exec != active {
                            return Err(self.fault(
                                w,
                                pc,
                                (active & !exec).trailing_zeros(),
                                FaultKind::Unsupported {
                                    what: "guarded brx.idx with a partially true guard".into(),
                                },
                            ));
                        }
                        let idx = w.regs[rb + *a as usize];
                        // Group lanes by target.
                        let mut groups: smallvec::SmallVec<[(u32, u32); 4]> = Default::default();
                        for l in lanes(active) {
                            let i = idx[l] as usize;
                            let Some(&tpc) = table.get(i) else {
                                return Err(self.fault(
                                    w,
                                    pc,
                                    l as u32,
                                    FaultKind::Unsupported {
                                        what: format!(
                                            "brx.idx index {i} outside its {}-entry table",
                                            table.len()
                                        ),
                                    },
                                ));
                            };
                            match groups.iter_mut().find(|g| g.0 == tpc) {
                                Some(g) => g.1 |= 1 << l,
                                None => groups.push((tpc, 1 << l)),
                            }
                        }
                        if groups.len() == 1 {
                            pc = groups[0].0;
                            continue;
                        }
                        let r = *r;
                        let top = w.stack.len() - 1;
                        w.stack[top].pc = r;
                        for g in groups.iter().rev() {
                            w.stack.push(Entry {
                                pc: g.0,
                                rpc: r,
                                mask: g.1,
                            });
                        }
                        continue 'outer;
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
                        match info.callee {
                            Callee::Builtin(b) => {
                                self.builtin(w, shared, pc, exec, b, info)?;
                            }
                            Callee::Func(idx) => {
                                self.do_call(w, pc, exec, idx, info)?;
                                continue 'outer;
                            }
                            Callee::Indirect(r) => {
                                let tv = w.regs[rb + r as usize];
                                let first = tv[exec.trailing_zeros() as usize];
                                if let Some(l) = lanes(exec).find(|&l| tv[l] != first) {
                                    return Err(self.fault(
                                        w,
                                        pc,
                                        l as u32,
                                        FaultKind::BadIndirectCall {
                                            detail: "lanes of the warp call different functions"
                                                .into(),
                                        },
                                    ));
                                }
                                let idx = first.wrapping_sub(FUNC_WINDOW) / 16;
                                if first < FUNC_WINDOW
                                    || !(first - FUNC_WINDOW).is_multiple_of(16)
                                    || idx >= prog.funcs.len() as u64
                                {
                                    return Err(self.fault(
                                        w,
                                        pc,
                                        exec.trailing_zeros(),
                                        FaultKind::BadIndirectCall {
                                            detail: format!(
                                                "{first:#x} is not the address of a function"
                                            ),
                                        },
                                    ));
                                }
                                self.do_call(w, pc, exec, idx as u32, info)?;
                                continue 'outer;
                            }
                        }
                    }
                    Op::Ret => {
                        if exec == 0 {
                            pc += 1;
                            continue;
                        }
                        let base = w.frames.last().map_or(0, |f| f.stack_base as usize);
                        let top = w.stack.len() - 1;
                        w.stack[top].pc = pc + 1;
                        for e in &mut w.stack[base..] {
                            e.mask &= !exec;
                        }
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

    #[allow(clippy::too_many_arguments)]
    fn exec_carry(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        op: CarryOp,
        wd: W,
        cin: bool,
        cout: bool,
        d: R,
        a: R,
        b: R,
        c: R,
    ) {
        let bits = wd.bits();
        let r = &mut w.regs[rb..];
        let mut out = [0u64; 32];
        let mut carry = w.carry;
        for l in lanes(exec) {
            let x = u128::from(zx(r[a as usize][l], bits));
            let y = u128::from(zx(r[b as usize][l], bits));
            let ci = u128::from(cin && (w.carry >> l) & 1 == 1);
            let m = (1u128 << bits) - 1;
            let (v, co) = match op {
                CarryOp::Add => {
                    let s = x + y + ci;
                    (s & m, s >> bits != 0)
                }
                CarryOp::Sub => {
                    // a - b - borrow; carry flag holds the borrow.
                    let s = x.wrapping_sub(y).wrapping_sub(ci);
                    (s & m, x < y + ci)
                }
                CarryOp::MadLo | CarryOp::MadHi => {
                    let p = x * y;
                    let part = if op == CarryOp::MadLo {
                        p & m
                    } else {
                        (p >> bits) & m
                    };
                    let z = u128::from(zx(r[c as usize][l], bits));
                    let s = part + z + ci;
                    (s & m, s >> bits != 0)
                }
            };
            out[l] = v as u64;
            if cout {
                carry = (carry & !(1 << l)) | (u32::from(co) << l);
            }
        }
        if d != NONE {
            wr(&mut r[d as usize], &out, exec);
        }
        w.carry = carry;
    }

    /// The cached global region of op `pc` if it holds `first`, refreshed otherwise:
    /// (base, size, words), or None when `first` is not in a global allocation.
    #[inline(always)]
    fn region_for(
        &mut self,
        pc: u32,
        first: u64,
        n: u32,
    ) -> Option<(u64, u64, &'a [std::sync::atomic::AtomicU32])> {
        let slot = (pc & 15) as usize;
        let e = self.pcache[slot];
        if first.wrapping_sub(e.0) < e.1 {
            return Some(e);
        }
        self.global_locate(first, n).ok()?;
        let e = (self.rcache.0, self.rcache.1, self.fc_words);
        self.pcache[slot] = e;
        Some(e)
    }

    /// The fast paths' common start: the cached region of op `pc` holding the first active
    /// lane's address `addrs[lane] + off`, and every active lane's byte offset in it (see
    /// [`Env::offsets`]); None when some lane falls outside it or is misaligned for `n` bytes.
    #[inline(always)]
    fn region_offsets(
        &mut self,
        addrs: &[u64; 32],
        pc: u32,
        exec: u32,
        off: i64,
        n: u32,
    ) -> Option<([u64; 32], &'a [std::sync::atomic::AtomicU32])> {
        let first = addrs[exec.trailing_zeros() as usize].wrapping_add(off as u64);
        let (base, size, words) = self.region_for(pc, first, n)?;
        let n = u64::from(n);
        if size < n {
            return None;
        }
        let offs = Self::offsets(addrs, off as u64, base, size - n, n, exec)?;
        Some((offs, words))
    }

    /// Byte offsets of every lane's address in region `base`, inactive lanes 0; None when a
    /// lane is outside `[0, lim]` or misaligned for `n` bytes. (`lim` < 2^62, so offsets
    /// that wrapped below 0 are negative as `i64`: signed compares suffice.)
    #[inline(always)]
    fn offsets(
        addrs: &[u64; 32],
        off: u64,
        base: u64,
        lim: u64,
        n: u64,
        exec: u32,
    ) -> Option<[u64; 32]> {
        let mut offs = [0u64; 32];
        let mut bad = 0u64;
        let amask = n - 1;
        if exec == u32::MAX {
            for l in 0..32 {
                let o = addrs[l].wrapping_add(off).wrapping_sub(base);
                offs[l] = o;
                bad |= (o & amask) | u64::from(o > lim);
            }
        } else {
            for l in 0..32 {
                let sel = u64::from((exec >> l) & 1).wrapping_neg();
                let o = addrs[l].wrapping_add(off).wrapping_sub(base) & sel;
                offs[l] = o;
                bad |= (o & amask) | u64::from(o > lim);
            }
        }
        (bad == 0).then_some(offs)
    }

    /// Global load of one element per lane, all lanes in one region and aligned. Returns
    /// false (having changed nothing but caches) when the slow path must run.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fast_ld(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pc: u32,
        exec: u32,
        r: R,
        off: i64,
        fmt: LoadFmt,
        d: R,
    ) -> bool {
        let n = u32::from(fmt.size);
        let Some((offs, words)) = self.region_offsets(&w.regs[rb + r as usize], pc, exec, off, n)
        else {
            return false;
        };
        // SAFETY (all `get_unchecked` below): every offset o satisfies o <= size - n, so the
        // words holding bytes [o, o + n) exist: `words` covers ceil(size / 4) words.
        let word =
            |i: u64| unsafe { u64::from(words.get_unchecked(i as usize).load(Ordering::Relaxed)) };
        if exec == u32::MAX && d != NONE && !fmt.signed && (n == 4 || n == 8) {
            // Common case: write straight into the register (no blend, no temporary).
            let dst = &mut w.regs[rb + d as usize];
            if n == 4 {
                for l in 0..32 {
                    dst[l] = word(offs[l] >> 2);
                }
            } else {
                for l in 0..32 {
                    let i = offs[l] >> 2;
                    dst[l] = word(i) | (word(i + 1) << 32);
                }
            }
            return true;
        }
        let mut out = [0u64; 32];
        match n {
            4 => {
                for l in 0..32 {
                    out[l] = word(offs[l] >> 2);
                }
            }
            8 => {
                for l in 0..32 {
                    let i = offs[l] >> 2;
                    out[l] = word(i) | (word(i + 1) << 32);
                }
            }
            2 => {
                for l in 0..32 {
                    let o = offs[l];
                    out[l] = (word(o >> 2) >> ((o & 3) * 8)) & 0xffff;
                }
            }
            _ => {
                for l in 0..32 {
                    let o = offs[l];
                    out[l] = (word(o >> 2) >> ((o & 3) * 8)) & 0xff;
                }
            }
        }
        if fmt.signed && n < 8 {
            for v in &mut out {
                *v = extend(fmt, *v);
            }
        }
        if d != NONE {
            wr(&mut w.regs[rb + d as usize], &out, exec);
        }
        true
    }

    /// Global store of one 4- or 8-byte element per lane (see [`Env::fast_ld`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fast_st(
        &mut self,
        w: &Warp,
        rb: usize,
        pc: u32,
        exec: u32,
        r: R,
        off: i64,
        size: u8,
        s: R,
    ) -> bool {
        let n = u32::from(size);
        let Some((offs, words)) = self.region_offsets(&w.regs[rb + r as usize], pc, exec, off, n)
        else {
            return false;
        };
        let vals = &w.regs[rb + s as usize];
        for l in 0..32 {
            if exec >> l & 1 != 0 {
                let i = (offs[l] >> 2) as usize;
                let v = vals[l];
                // SAFETY: as in `fast_ld`.
                unsafe {
                    words.get_unchecked(i).store(v as u32, Ordering::Relaxed);
                    if n == 8 {
                        words
                            .get_unchecked(i + 1)
                            .store((v >> 32) as u32, Ordering::Relaxed);
                    }
                }
            }
        }
        true
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn exec_ld(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        space: Space,
        fmt: LoadFmt,
        vec: u8,
        d: &[R; 4],
        base: Base,
        off: i64,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        if !O::MEMORY
            && vec == 1
            && matches!(space, Space::Global | Space::Generic)
            && let Base::Reg(r) = base
            && self.fast_ld(w, rb, pc, exec, r, off, fmt, d[0])
        {
            return Ok(());
        }
        if !O::MEMORY
            && space == Space::Shared
            && let Base::Reg32(r) | Base::Reg(r) = base
            && fast_shared_ld(w, shared, rb, exec, r, off, fmt, vec, d)
        {
            return Ok(());
        }
        let n = u32::from(fmt.size);
        let total = n * u32::from(vec);
        let frame = base == Base::Frame;
        let mut stores = [Store::Global; 32];
        let mut vals = [[0u64; 32]; 4];
        for l in lanes(exec) {
            let a = match base {
                Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
                Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
                Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
            };
            let (st, sa) = match self.resolve(space, frame, a) {
                Ok(x) => x,
                Err(k) => return Err(self.fault(w, pc, l as u32, k)),
            };
            if vec > 1 && !sa.is_multiple_of(u64::from(total)) {
                let k = FaultKind::Misaligned {
                    space: st.space(),
                    kind: AccessKind::Load,
                    addr: sa,
                    size: total,
                };
                return Err(self.fault(w, pc, l as u32, k));
            }
            stores[l] = st;
            self.addrs[l] = sa;
            for (k, slot) in vals.iter_mut().enumerate().take(usize::from(vec)) {
                let ea = sa.wrapping_add(u64::from(n) * k as u64);
                match self.load(w, shared, l, st, ea, n) {
                    Ok(v) => slot[l] = extend(fmt, v),
                    Err(e) => {
                        let k = self.access_fault(st, AccessKind::Load, ea, n, e, shared.len());
                        return Err(self.fault(w, pc, l as u32, k));
                    }
                }
            }
        }
        for k in 0..usize::from(vec) {
            if d[k] != NONE {
                wr(&mut w.regs[rb + d[k] as usize], &vals[k], exec);
            }
        }
        if O::MEMORY {
            self.emit_mem(
                w,
                pc,
                &stores,
                exec,
                AccessKind::Load,
                total,
                space == Space::Generic,
            );
        }
        Ok(())
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn exec_st(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        space: Space,
        size: u8,
        vec: u8,
        s: &[R; 4],
        base: Base,
        off: i64,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        if !O::MEMORY
            && vec == 1
            && matches!(size, 4 | 8)
            && matches!(space, Space::Global | Space::Generic)
            && let Base::Reg(r) = base
            && s[0] != NONE
            && self.fast_st(w, rb, pc, exec, r, off, size, s[0])
        {
            return Ok(());
        }
        if !O::MEMORY
            && space == Space::Shared
            && let Base::Reg32(r) | Base::Reg(r) = base
            && fast_shared_st(w, shared, rb, exec, r, off, size, vec, s)
        {
            return Ok(());
        }
        let n = u32::from(size);
        let total = n * u32::from(vec);
        let frame = base == Base::Frame;
        let mut stores = [Store::Global; 32];
        for l in lanes(exec) {
            let a = match base {
                Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
                Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
                Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
            };
            let (st, sa) = match self.resolve(space, frame, a) {
                Ok(x) => x,
                Err(k) => return Err(self.fault(w, pc, l as u32, k)),
            };
            if vec > 1 && !sa.is_multiple_of(u64::from(total)) {
                let k = FaultKind::Misaligned {
                    space: st.space(),
                    kind: AccessKind::Store,
                    addr: sa,
                    size: total,
                };
                return Err(self.fault(w, pc, l as u32, k));
            }
            stores[l] = st;
            self.addrs[l] = sa;
            for (k, &src) in s.iter().enumerate().take(usize::from(vec)) {
                if src == NONE {
                    continue;
                }
                let v = w.regs[rb + src as usize][l];
                let ea = sa.wrapping_add(u64::from(n) * k as u64);
                if let Err(e) = self.store(w, shared, l, st, ea, n, v) {
                    let k = self.access_fault(st, AccessKind::Store, ea, n, e, shared.len());
                    return Err(self.fault(w, pc, l as u32, k));
                }
            }
        }
        if O::MEMORY {
            self.emit_mem(
                w,
                pc,
                &stores,
                exec,
                AccessKind::Store,
                total,
                space == Space::Generic,
            );
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_cp_async(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        dst: Base,
        dst_off: i64,
        src: Base,
        src_off: i64,
        size: u8,
        src_size: R,
        ignore: P,
        ignore_neg: bool,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        let pb = w.pred_base as usize;
        let n = u32::from(size);
        let addr = |w: &Warp, b: Base, off: i64, l: usize| match b {
            Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
            Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
            Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
        };
        let ign = if ignore == NONE {
            0
        } else {
            w.preds[pb + ignore as usize] ^ if ignore_neg { u32::MAX } else { 0 }
        };
        let mut saddrs = [0u64; 32];
        let mut daddrs = [0u64; 32];
        for l in lanes(exec) {
            let sa = addr(w, src, src_off, l);
            let da = addr(w, dst, dst_off, l);
            saddrs[l] = sa;
            daddrs[l] = da;
            let want = if ign >> l & 1 == 1 {
                0
            } else if src_size == NONE {
                n
            } else {
                (w.regs[rb + src_size as usize][l] as u32).min(n)
            };
            if !da.is_multiple_of(u64::from(n)) || !sa.is_multiple_of(u64::from(n)) {
                let (space, a) = if !da.is_multiple_of(u64::from(n)) {
                    (MemSpace::Shared, da)
                } else {
                    (MemSpace::Global, sa)
                };
                let k = FaultKind::Misaligned {
                    space,
                    kind: AccessKind::Load,
                    addr: a,
                    size: n,
                };
                return Err(self.fault(w, pc, l as u32, k));
            }
            let mut bytes = [0u8; 16];
            for (k, byte) in bytes.iter_mut().enumerate().take(want as usize) {
                let a = sa.wrapping_add(k as u64);
                match self.load(w, shared, l, Store::Global, a, 1) {
                    Ok(v) => *byte = v as u8,
                    Err(e) => {
                        let k = self.access_fault(
                            Store::Global,
                            AccessKind::Load,
                            a,
                            1,
                            e,
                            shared.len(),
                        );
                        return Err(self.fault(w, pc, l as u32, k));
                    }
                }
            }
            let off = usize::try_from(da).unwrap_or(usize::MAX);
            match shared.get_mut(off..off.saturating_add(n as usize)) {
                Some(s) => s.copy_from_slice(&bytes[..n as usize]),
                None => {
                    let k = self.access_fault(
                        Store::Shared,
                        AccessKind::Store,
                        da,
                        n,
                        AccessError::Unmapped,
                        shared.len(),
                    );
                    return Err(self.fault(w, pc, l as u32, k));
                }
            }
        }
        if O::MEMORY {
            let code = &self.prog.funcs[w.func as usize];
            let meta = code.meta[pc as usize];
            for (space, kind, addrs) in [
                (MemSpace::Global, AccessKind::Load, &saddrs),
                (MemSpace::Shared, AccessKind::Store, &daddrs),
            ] {
                let acc = MemoryAccess {
                    func: code.func,
                    inst: meta.inst,
                    space,
                    kind,
                    size: n,
                    addrs,
                    active: exec,
                    generic: false,
                };
                self.obs.memory(&w.info, &acc);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_atom(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        space: Space,
        op: AtomOp,
        ty: AtomTy,
        d: R,
        base: Base,
        off: i64,
        b: R,
        c: R,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        let n = ty.size();
        let kind = if d == NONE {
            AccessKind::Reduction
        } else {
            AccessKind::Atomic
        };
        let mut stores = [Store::Global; 32];
        let mut out = [0u64; 32];
        for l in lanes(exec) {
            let a = match base {
                Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
                Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
                Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
            };
            let (st, sa) = match self.resolve(space, base == Base::Frame, a) {
                Ok(x) => x,
                Err(k) => return Err(self.fault(w, pc, l as u32, k)),
            };
            stores[l] = st;
            self.addrs[l] = sa;
            let bv = w.regs[rb + b as usize][l];
            let cv = if c == NONE {
                0
            } else {
                w.regs[rb + c as usize][l]
            };
            let f = |old: u64| atom_apply(op, ty, old, bv, cv);
            let res = match st {
                Store::Global => match self.global_locate(sa, n) {
                    Ok((i, o)) => Ok(self.global.rmw(i, o, n, f)),
                    Err(e) => Err(e),
                },
                Store::Shared => {
                    if !sa.is_multiple_of(u64::from(n)) {
                        Err(AccessError::Misaligned)
                    } else {
                        match read_plain(shared, sa as usize, n as usize) {
                            Some(old) => {
                                let _ = write_plain(shared, sa as usize, n as usize, f(old));
                                Ok(old)
                            }
                            None => Err(AccessError::Unmapped),
                        }
                    }
                }
                other => {
                    let k = FaultKind::Unsupported {
                        what: format!("atomic on {} memory", other.space().name()),
                    };
                    return Err(self.fault(w, pc, l as u32, k));
                }
            };
            match res {
                Ok(old) => out[l] = old,
                Err(e) => {
                    let k = self.access_fault(st, kind, sa, n, e, shared.len());
                    return Err(self.fault(w, pc, l as u32, k));
                }
            }
        }
        if d != NONE {
            wr(&mut w.regs[rb + d as usize], &out, exec);
        }
        if O::MEMORY {
            self.emit_mem(w, pc, &stores, exec, kind, n, space == Space::Generic);
        }
        Ok(())
    }

    /// Enters a device function.
    fn do_call(
        &mut self,
        w: &mut Warp,
        pc: u32,
        exec: u32,
        idx: u32,
        info: &CallInfo,
    ) -> Result<(), Fault> {
        let caller = &self.prog.funcs[w.func as usize];
        let callee = &self.prog.funcs[idx as usize];
        let new_rb = w.reg_base + caller.nregs;
        let new_pb = w.pred_base + caller.npreds;
        let new_lb = (w.local_base + caller.frame_size).div_ceil(16) * 16;
        let need_local = new_lb as usize + callee.frame_size as usize;
        if need_local > MAX_LOCAL || w.frames.len() >= 4096 {
            return Err(self.fault(
                w,
                pc,
                exec.trailing_zeros(),
                FaultKind::StackOverflow {
                    bytes: need_local as u64,
                },
            ));
        }
        if need_local > 0 {
            if w.local.len() < 32 {
                w.local.resize_with(32, Vec::new);
            }
            for l in &mut w.local {
                if l.len() < need_local {
                    l.resize(need_local, 0);
                }
            }
        }
        self.init_frame(w, idx, new_rb, new_pb);
        // Arguments.
        for (i, x) in info.args.iter().enumerate() {
            match *x {
                Xfer::Mem {
                    caller_off,
                    callee_off,
                    size,
                } => {
                    let co = if callee_off == u32::MAX {
                        match callee.param_slots.get(i).copied().flatten() {
                            Some(o) => o,
                            None => {
                                return Err(self.fault(
                                    w,
                                    pc,
                                    exec.trailing_zeros(),
                                    FaultKind::BadIndirectCall {
                                        detail: format!(
                                            "`{}` does not take argument {i} in memory",
                                            callee.name
                                        ),
                                    },
                                ));
                            }
                        }
                    } else {
                        callee_off
                    };
                    for l in lanes(exec) {
                        let mem = &mut w.local[l];
                        let src = w.local_base as usize + caller_off as usize;
                        let dst = new_lb as usize + co as usize;
                        let n = size as usize;
                        if src + n <= mem.len() && dst + n <= mem.len() {
                            mem.copy_within(src..src + n, dst);
                        }
                    }
                }
                Xfer::Reg { caller, callee: cr } => {
                    let v = w.regs[(w.reg_base + caller) as usize];
                    wr(&mut w.regs[(new_rb + cr) as usize], &v, exec);
                }
                Xfer::RegBack { .. } => {}
            }
        }
        let top = w.stack.len() - 1;
        w.stack[top].pc = pc + 1;
        w.frames.push(Frame {
            func: w.func,
            reg_base: w.reg_base,
            pred_base: w.pred_base,
            local_base: w.local_base,
            stack_base: w.stack.len() as u32,
            call_pc: pc,
            callee: idx,
        });
        w.func = idx;
        w.reg_base = new_rb;
        w.pred_base = new_pb;
        w.local_base = new_lb;
        w.stack.push(Entry {
            pc: 0,
            rpc: EXIT_PC,
            mask: exec,
        });
        Ok(())
    }

    /// vprintf and __assertfail.
    fn builtin(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        b: Builtin,
        info: &CallInfo,
    ) -> Result<(), Fault> {
        let lb = w.local_base as usize;
        let arg = |w: &Warp, l: usize, i: usize| -> u64 {
            info.arg_offsets
                .get(i)
                .and_then(|&o| {
                    if o == u32::MAX {
                        None
                    } else {
                        read_plain(&w.local[l], lb + o as usize, 8)
                    }
                })
                .unwrap_or(0)
        };
        match b {
            Builtin::AssertFail => {
                let l = exec.trailing_zeros() as usize;
                let msg = self.read_cstr(w, shared, l, arg(w, l, 0));
                let file = self.read_cstr(w, shared, l, arg(w, l, 1));
                let line = arg(w, l, 2) as u32;
                Err(self.fault(
                    w,
                    pc,
                    l as u32,
                    FaultKind::AssertFailed {
                        message: msg,
                        file,
                        line,
                    },
                ))
            }
            Builtin::Vprintf => {
                for l in lanes(exec) {
                    let fmt = self.read_cstr(w, shared, l, arg(w, l, 0));
                    let args = arg(w, l, 1);
                    let text = self.format(w, shared, l, &fmt, args);
                    let n = text.len();
                    if let Ok(mut o) = self.out.lock() {
                        o.extend_from_slice(text.as_bytes());
                    }
                    if let Some(ro) = info.ret_offset
                        && let Some(m) = w.local.get_mut(l)
                    {
                        let _ = write_plain(m, lb + ro as usize, 4, n as u64);
                    }
                }
                Ok(())
            }
        }
    }

    /// Formats a printf string with arguments packed CUDA-style at generic address `args`.
    fn format(&mut self, w: &Warp, shared: &[u8], l: usize, fmt: &str, args: u64) -> String {
        let mut out = String::new();
        let mut off = 0u64;
        let mut read = |env: &mut Self, size: u64| -> u64 {
            off = off.div_ceil(size) * size;
            let a = args.wrapping_add(off);
            off += size;
            match env.resolve(Space::Generic, false, a) {
                Ok((st, sa)) => env.load(w, shared, l, st, sa, size as u32).unwrap_or(0),
                Err(_) => 0,
            }
        };
        let mut chars = fmt.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != '%' {
                out.push(ch);
                continue;
            }
            let mut spec = String::from("%");
            let mut long = 0;
            let conv = loop {
                match chars.next() {
                    None => break None,
                    Some(c @ ('-' | '+' | ' ' | '#' | '0'..='9' | '.')) => spec.push(c),
                    Some('l') => long += 1,
                    Some('h' | 'z' | 'j' | 't' | 'L') => {}
                    Some(c) => break Some(c),
                }
            };
            let Some(conv) = conv else {
                out.push_str(&spec);
                break;
            };
            let (width, prec, left, zero, plus) = parse_spec(&spec);
            let body = match conv {
                '%' => {
                    out.push('%');
                    continue;
                }
                'd' | 'i' => {
                    let v = if long > 0 {
                        read(self, 8) as i64
                    } else {
                        i64::from(read(self, 4) as i32)
                    };
                    if plus && v >= 0 {
                        format!("+{v}")
                    } else {
                        v.to_string()
                    }
                }
                'u' | 'x' | 'X' | 'o' => {
                    let v = if long > 0 {
                        read(self, 8)
                    } else {
                        read(self, 4) & 0xffff_ffff
                    };
                    match conv {
                        'u' => v.to_string(),
                        'x' => format!("{v:x}"),
                        'X' => format!("{v:X}"),
                        _ => format!("{v:o}"),
                    }
                }
                'c' => char::from_u32(read(self, 4) as u32 & 0xff)
                    .unwrap_or('?')
                    .to_string(),
                'p' => format!("0x{:x}", read(self, 8)),
                's' => {
                    let p = read(self, 8);
                    self.read_cstr(w, shared, l, p)
                }
                'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                    let v = f64::from_bits(read(self, 8));
                    let p = prec.unwrap_or(6);
                    let s = match conv {
                        'f' | 'F' => format!("{v:.p$}"),
                        'e' | 'E' => fmt_exp(v, p, conv == 'E'),
                        _ => fmt_general(v, p),
                    };
                    if plus && v >= 0.0 { format!("+{s}") } else { s }
                }
                other => format!("%{other}"),
            };
            let body = match (prec, conv) {
                (Some(p), 'd' | 'i' | 'u' | 'x' | 'X' | 'o') if body.len() < p => {
                    format!("{}{}", "0".repeat(p - body.len()), body)
                }
                (Some(p), 's') => body.chars().take(p).collect(),
                _ => body,
            };
            if body.len() < width {
                let pad = width - body.len();
                if left {
                    out.push_str(&body);
                    out.push_str(&" ".repeat(pad));
                } else if zero && conv != 's' {
                    let (sign, digits) = match body.strip_prefix('-') {
                        Some(rest) => ("-", rest.to_string()),
                        None => ("", body.clone()),
                    };
                    out.push_str(sign);
                    out.push_str(&"0".repeat(pad));
                    out.push_str(&digits);
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(&body);
                }
            } else {
                out.push_str(&body);
            }
        }
        out
    }
}

fn parse_spec(spec: &str) -> (usize, Option<usize>, bool, bool, bool) {
    let s = &spec[1..];
    let left = s.contains('-');
    let plus = s.contains('+');
    let flags_end = s
        .find(|c: char| c.is_ascii_digit() && c != '0' || c == '.')
        .unwrap_or(s.len());
    let zero = s[..flags_end].contains('0');
    let rest = &s[flags_end..];
    let (w, p) = match rest.split_once('.') {
        Some((w, p)) => (w, Some(p.parse().unwrap_or(0))),
        None => (rest, None),
    };
    (w.parse().unwrap_or(0), p, left, zero, plus)
}

fn fmt_exp(v: f64, p: usize, upper: bool) -> String {
    let s = format!("{v:.p$e}");
    // Rust writes 1.5e2; C writes 1.5e+02.
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let ev: i32 = e.parse().unwrap_or(0);
    let r = format!("{m}e{}{:02}", if ev < 0 { '-' } else { '+' }, ev.abs());
    if upper { r.to_uppercase() } else { r }
}

fn fmt_general(v: f64, p: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let p = p.max(1);
    let exp = v.abs().log10().floor() as i32;
    if exp < -4 || exp >= p as i32 {
        let s = fmt_exp(v, p - 1, false);
        let (m, e) = s.split_once('e').unwrap_or((&s, ""));
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        format!("{m}e{e}")
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

/// Shared-memory load of every active lane when all are in bounds and aligned (the common
/// case); false, having changed nothing, otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fast_shared_ld(
    w: &mut Warp,
    shared: &[u8],
    rb: usize,
    exec: u32,
    r: R,
    off: i64,
    fmt: LoadFmt,
    vec: u8,
    d: &[R; 4],
) -> bool {
    let n = usize::from(fmt.size);
    let total = n * usize::from(vec);
    if !matches!(n, 1 | 2 | 4 | 8) || shared.len() < total {
        return false;
    }
    let lim = (shared.len() - total) as u64;
    let addrs = &w.regs[rb + r as usize];
    let mut offs = [0usize; 32];
    let mut ok = true;
    for l in 0..32 {
        if exec >> l & 1 != 0 {
            let a = zx(addrs[l].wrapping_add(off as u64), 32);
            ok &= a <= lim && a & (total as u64 - 1) == 0;
            offs[l] = a as usize;
        }
    }
    if !ok {
        return false;
    }
    for k in 0..usize::from(vec) {
        if d[k] == NONE {
            continue;
        }
        let mut out = [0u64; 32];
        for l in 0..32 {
            if exec >> l & 1 != 0 {
                let o = offs[l] + k * n;
                out[l] = extend(fmt, read_plain(shared, o, n).unwrap_or(0));
            }
        }
        wr(&mut w.regs[rb + d[k] as usize], &out, exec);
    }
    true
}

/// Shared-memory store counterpart of [`fast_shared_ld`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fast_shared_st(
    w: &Warp,
    shared: &mut [u8],
    rb: usize,
    exec: u32,
    r: R,
    off: i64,
    size: u8,
    vec: u8,
    s: &[R; 4],
) -> bool {
    let n = usize::from(size);
    let total = n * usize::from(vec);
    if !matches!(n, 1 | 2 | 4 | 8) || shared.len() < total {
        return false;
    }
    let lim = (shared.len() - total) as u64;
    let addrs = &w.regs[rb + r as usize];
    let mut offs = [0usize; 32];
    let mut ok = true;
    for l in 0..32 {
        if exec >> l & 1 != 0 {
            let a = zx(addrs[l].wrapping_add(off as u64), 32);
            ok &= a <= lim && a & (total as u64 - 1) == 0;
            offs[l] = a as usize;
        }
    }
    if !ok {
        return false;
    }
    for l in 0..32 {
        if exec >> l & 1 != 0 {
            for (k, &src) in s.iter().enumerate().take(usize::from(vec)) {
                if src != NONE {
                    let v = w.regs[rb + src as usize][l];
                    let _ = write_plain(shared, offs[l] + k * n, n, v);
                }
            }
        }
    }
    true
}

/// For each lane of `exec`, the lanes of `exec` its membermask names (itself included, as
/// a lane executing a `.sync` warp instruction must be in its own mask).
#[inline]
fn member_groups(masks: &[u64; 32], exec: u32) -> [u32; 32] {
    let mut g = [0u32; 32];
    for l in lanes(exec) {
        g[l] = (masks[l] as u32 & exec) | (1 << l);
    }
    g
}

/// Widens a loaded element into its register.
#[inline(always)]
fn extend(fmt: LoadFmt, v: u64) -> u64 {
    let bits = u32::from(fmt.size) * 8;
    let dst = u32::from(fmt.dst_bits);
    if fmt.signed && bits < 64 {
        zx(sx(v, bits) as u64, dst)
    } else {
        v
    }
}

/// New value of an atomic location.
fn atom_apply(op: AtomOp, ty: AtomTy, old: u64, b: u64, c: u64) -> u64 {
    let bits = ty.size() * 8;
    let signed = matches!(ty, AtomTy::S32 | AtomTy::S64);
    match ty {
        AtomTy::F32 => {
            let (x, y) = (f32::from_bits(old as u32), f32::from_bits(b as u32));
            let r = match op {
                // atom.add.f32 flushes subnormal inputs and results.
                AtomOp::Add => float::ftz32(float::ftz32(x) + float::ftz32(y)),
                AtomOp::Min => alu::fminmax(f64::from(x), f64::from(y), false, false) as f32,
                AtomOp::Max => alu::fminmax(f64::from(x), f64::from(y), true, false) as f32,
                AtomOp::Exch => y,
                _ => x,
            };
            return u64::from(canon32(r).to_bits());
        }
        AtomTy::F64 => {
            let (x, y) = (f64::from_bits(old), f64::from_bits(b));
            let r = match op {
                AtomOp::Add => x + y,
                AtomOp::Min => alu::fminmax(x, y, false, false),
                AtomOp::Max => alu::fminmax(x, y, true, false),
                AtomOp::Exch => y,
                _ => x,
            };
            return canon64(r).to_bits();
        }
        AtomTy::F16 | AtomTy::Bf16 | AtomTy::F16x2 | AtomTy::Bf16x2 => {
            let fty = match ty {
                AtomTy::F16 => FTy::F16,
                AtomTy::Bf16 => FTy::Bf16,
                AtomTy::F16x2 => FTy::F16x2,
                _ => FTy::Bf16x2,
            };
            let f = match op {
                AtomOp::Min => FBin::Min,
                AtomOp::Max => FBin::Max,
                _ => FBin::Add,
            };
            return alu::fbin(f, fty, FMods::RN, old, b);
        }
        _ => {}
    }
    let r = match op {
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::Min => {
            if signed {
                sx(old, bits).min(sx(b, bits)) as u64
            } else {
                zx(old, bits).min(zx(b, bits))
            }
        }
        AtomOp::Max => {
            if signed {
                sx(old, bits).max(sx(b, bits)) as u64
            } else {
                zx(old, bits).max(zx(b, bits))
            }
        }
        AtomOp::Inc => {
            if zx(old, bits) >= zx(b, bits) {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if zx(old, bits) == 0 || zx(old, bits) > zx(b, bits) {
                b
            } else {
                old - 1
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if zx(old, bits) == zx(b, bits) {
                c
            } else {
                old
            }
        }
        AtomOp::Popc => old,
    };
    zx(r, bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomics_semantics() {
        assert_eq!(atom_apply(AtomOp::Inc, AtomTy::U32, 5, 5, 0), 0);
        assert_eq!(atom_apply(AtomOp::Inc, AtomTy::U32, 4, 5, 0), 5);
        assert_eq!(atom_apply(AtomOp::Dec, AtomTy::U32, 0, 5, 0), 5);
        assert_eq!(atom_apply(AtomOp::Dec, AtomTy::U32, 7, 5, 0), 5);
        assert_eq!(atom_apply(AtomOp::Dec, AtomTy::U32, 3, 5, 0), 2);
        assert_eq!(atom_apply(AtomOp::Cas, AtomTy::B32, 3, 3, 9), 9);
        assert_eq!(atom_apply(AtomOp::Cas, AtomTy::B32, 3, 4, 9), 3);
        assert_eq!(
            atom_apply(AtomOp::Min, AtomTy::S32, 5, (-1i32) as u32 as u64, 0),
            0xffff_ffff
        );
        assert_eq!(atom_apply(AtomOp::Min, AtomTy::U32, 5, 0xffff_ffff, 0), 5);
        assert_eq!(atom_apply(AtomOp::Add, AtomTy::U32, 0xffff_ffff, 1, 0), 0);
        let one = u64::from(1.5f32.to_bits());
        assert_eq!(
            atom_apply(AtomOp::Add, AtomTy::F32, one, one, 0),
            u64::from(3.0f32.to_bits())
        );
    }

    #[test]
    fn printf_formatting_helpers() {
        assert_eq!(fmt_exp(150.0, 2, false), "1.50e+02");
        assert_eq!(fmt_general(0.0001, 6), "0.0001");
        assert_eq!(fmt_general(1234567.0, 6), "1.23457e+06");
        assert_eq!(fmt_general(3.5, 6), "3.5");
        assert_eq!(parse_spec("%08.3"), (8, Some(3), false, true, false));
    }
}
