//! Integer and floating-point arithmetic, logic, comparisons, selects and predicate
//! logic (`Op::Bin`, `Op::Tern`, `Op::Setp`, …), translated by `translate::arith`. The
//! per-lane semantics of ops with modifiers live in `alu` and `float`; the hot ops are
//! written here as 32-lane loops.

#![allow(clippy::needless_range_loop)]

use super::*;
use warpscope_ptx::{PrmtMode, TestpOp};

#[inline(always)]
pub(super) fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

#[inline(always)]
pub(super) fn b32f(x: f32) -> u64 {
    u64::from(canon32(x).to_bits())
}

#[inline(always)]
pub(super) fn exec_ibin(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, op: IBin, w: W) {
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
pub(super) fn exec_itern(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32, op: ITern, w: W) {
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
pub(super) fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}

/// `add`/`sub`/`mul`/`div` without modifiers in the CPU's own arithmetic (`$get` reads a
/// register as the float type, `$put` writes the result back), other ops through
/// `alu::fbin`: one function per float type.
macro_rules! float_fast {
    ($name:ident, $ty:expr, $get:expr, $put:expr) => {
        #[inline(always)]
        pub(super) fn $name(r: &mut [[u64; 32]], d: R, a: R, b: R, m: u32, op: FBin) {
            let (get, put) = ($get, $put);
            match op {
                FBin::Add => bin_lanes(r, d, a, b, m, |x, y| put(get(x) + get(y))),
                FBin::Sub => bin_lanes(r, d, a, b, m, |x, y| put(get(x) - get(y))),
                FBin::Mul => bin_lanes(r, d, a, b, m, |x, y| put(get(x) * get(y))),
                FBin::Div => bin_lanes(r, d, a, b, m, |x, y| put(get(x) / get(y))),
                other => bin_lanes(r, d, a, b, m, |x, y| alu::fbin(other, $ty, FMods::RN, x, y)),
            }
        }
    };
}

float_fast!(exec_f32fast, FTy::F32, f32b, b32f);
float_fast!(exec_f64fast, FTy::F64, f64b, |x: f64| canon64(x).to_bits());

/// One lane's hardware-fused multiply-add: f64 when `F64`, else f32.
#[inline(always)]
fn fma_bits<const F64: bool>(x: u64, y: u64, z: u64) -> u64 {
    if F64 {
        canon64(f64b(x).mul_add(f64b(y), f64b(z))).to_bits()
    } else {
        b32f(f32b(x).mul_add(f32b(y), f32b(z)))
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fma_hw<const F64: bool>(r: &mut [[u64; 32]], d: R, a: R, b: R, c: R, m: u32) {
    tern_lanes(r, d, a, b, c, m, fma_bits::<F64>);
}

/// `fma.rn.f32`/`fma.rn.f64` without modifiers (`F64` picks the type): the CPU's FMA when
/// this copy of the interpreter is compiled for it or `hw` says the CPU has one, else an
/// exact software FMA.
#[inline(always)]
pub(super) fn exec_fma<const AVX2: bool, const F64: bool>(
    r: &mut [[u64; 32]],
    d: R,
    a: R,
    b: R,
    c: R,
    m: u32,
    hw: bool,
) {
    if AVX2 || cfg!(target_feature = "fma") {
        tern_lanes(r, d, a, b, c, m, fma_bits::<F64>);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if hw {
        // SAFETY: `hw` is only true when the CPU reports FMA support.
        unsafe { fma_hw::<F64>(r, d, a, b, c, m) };
        return;
    }
    let _ = hw;
    if F64 {
        // Rust's f64 `mul_add` is exact without the instruction too.
        tern_lanes(r, d, a, b, c, m, fma_bits::<true>);
    } else {
        tern_lanes(r, d, a, b, c, m, |x, y, z| {
            alu::ffma(FTy::F32, FMods::RN, x, y, z)
        });
    }
}

#[inline(always)]
pub(super) fn exec_setp(r: &[[u64; 32]], ty: CmpTy, cmp: Cmp, a: R, b: R) -> u32 {
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

/// Comparison result `t` combined with the `.and`/`.or`/`.xor {!}c` operand, if any.
#[inline(always)]
fn combined(preds: &[u32], comb: Option<Combine>, t: u32) -> u32 {
    match comb {
        None => t,
        Some(c) => alu::combine(c.op, t, rd_pred(preds, c.p, c.neg)),
    }
}

impl<'a, O: Observer> Env<'a, O> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_carry(
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

    /// `Op::Bin`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn bin(&mut self, w: &mut Warp, rb: usize, exec: u32, f: BinF, d: R, a: R, b: R) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            match f {
                BinF::Int(op, wd) => exec_ibin(r, d, a, b, exec, op, wd),
                BinF::F32Fast(op) => exec_f32fast(r, d, a, b, exec, op),
                BinF::F64Fast(op) => exec_f64fast(r, d, a, b, exec, op),
                BinF::Float(op, ty, mods) => {
                    bin_lanes(r, d, a, b, exec, |x, y| alu::fbin(op, ty, mods, x, y))
                }
                BinF::CvtPair { bf16, mods } => {
                    bin_lanes(r, d, a, b, exec, |x, y| alu::cvt_pair(bf16, mods, x, y))
                }
            }
        }
    }

    /// `Op::Tern`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn tern<const AVX2: bool>(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        f: TernF,
        d: R,
        a: R,
        b: R,
        c: R,
    ) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            match f {
                TernF::Int(op, wd) => exec_itern(r, d, a, b, c, exec, op, wd),
                TernF::Fma32Fast => exec_fma::<AVX2, false>(r, d, a, b, c, exec, self.hw_fma),
                TernF::Fma64Fast => exec_fma::<AVX2, true>(r, d, a, b, c, exec, self.hw_fma),
                TernF::Fma(ty, mods) => {
                    tern_lanes(r, d, a, b, c, exec, |x, y, z| alu::ffma(ty, mods, x, y, z))
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

    /// `Op::Bfi`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn bfi(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        wd: W,
        d: R,
        a: R,
        b: R,
        c: R,
        e: R,
    ) {
        if exec != 0 {
            let bits = wd.bits();
            let r = &mut w.regs[rb..];
            let v: [u64; 32] = crate::exec::lane_array(|i| {
                alu::bfi(
                    bits,
                    r[a as usize][i],
                    r[b as usize][i],
                    r[c as usize][i],
                    r[e as usize][i],
                )
            });
            wr(&mut r[d as usize], &v, exec);
        }
    }

    /// `Op::Lop3`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn lop3(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        d: R,
        a: R,
        b: R,
        c: R,
        lut: u8,
    ) {
        if exec != 0 {
            tern_lanes(&mut w.regs[rb..], d, a, b, c, exec, |x, y, z| {
                alu::lop3(x, y, z, lut)
            });
        }
    }

    /// `Op::Prmt`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn prmt(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        d: R,
        a: R,
        b: R,
        c: R,
        mode: Option<PrmtMode>,
    ) {
        if exec != 0 {
            tern_lanes(&mut w.regs[rb..], d, a, b, c, exec, |x, y, z| {
                u64::from(alu::prmt(x as u32, y as u32, z as u32, mode))
            });
        }
    }

    /// `Op::Setp`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn setp(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        ty: CmpTy,
        cmp: Cmp,
        p: P,
        q: P,
        a: R,
        b: R,
        comb: Option<Combine>,
    ) {
        if exec != 0 {
            let t = exec_setp(&w.regs[rb..], ty, cmp, a, b);
            let (pv, qv) = (
                combined(&w.preds[pb..], comb, t),
                combined(&w.preds[pb..], comb, !t),
            );
            wr_pred(&mut w.preds[pb..], p, pv, exec);
            wr_pred(&mut w.preds[pb..], q, qv, exec);
        }
    }

    /// `Op::SetpX2`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn setp_x2(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        bf16: bool,
        cmp: Cmp,
        p: P,
        q: P,
        a: R,
        b: R,
        comb: Option<Combine>,
    ) {
        if exec != 0 {
            let ty = if bf16 { CmpTy::Bf16 } else { CmpTy::F16 };
            let r = &w.regs[rb..];
            let hi = cmp_lanes(r, a, b, |x, y| alu::compare(ty, cmp, x >> 16, y >> 16));
            let lo = cmp_lanes(r, a, b, |x, y| alu::compare(ty, cmp, x, y));
            let (hv, lv) = (
                combined(&w.preds[pb..], comb, hi),
                combined(&w.preds[pb..], comb, lo),
            );
            wr_pred(&mut w.preds[pb..], p, hv, exec);
            wr_pred(&mut w.preds[pb..], q, lv, exec);
        }
    }

    /// `Op::Set`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn set(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        ty: CmpTy,
        cmp: Cmp,
        out: SetOut,
        d: R,
        a: R,
        b: R,
        comb: Option<Combine>,
    ) {
        if exec != 0 {
            let t = exec_setp(&w.regs[rb..], ty, cmp, a, b);
            let t = combined(&w.preds[pb..], comb, t);
            let one = match out {
                SetOut::Mask(wd) => zx(u64::MAX, wd.bits()),
                SetOut::F32 => u64::from(1.0f32.to_bits()),
                SetOut::F16 => 0x3c00,
                SetOut::Bf16 => 0x3f80,
                SetOut::F16x2 => 0x3c00_3c00,
                SetOut::Bf16x2 => 0x3f80_3f80,
            };
            let v: [u64; 32] = crate::exec::lane_array(|i| if t >> i & 1 == 1 { one } else { 0 });
            wr(&mut w.regs[rb + d as usize], &v, exec);
        }
    }

    /// `Op::Selp`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn selp(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        d: R,
        a: R,
        b: R,
        p: P,
        neg: bool,
    ) {
        if exec != 0 {
            let pm = rd_pred(&w.preds[pb..], p, neg);
            let r = &mut w.regs[rb..];
            let v: [u64; 32] = {
                let x = &r[a as usize];
                let y = &r[b as usize];
                crate::exec::lane_array(|i| if pm >> i & 1 == 1 { x[i] } else { y[i] })
            };
            wr(&mut r[d as usize], &v, exec);
        }
    }

    /// `Op::PLogic`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn plogic(
        &mut self,
        w: &mut Warp,
        pb: usize,
        exec: u32,
        op: BoolOp,
        p: P,
        a: P,
        an: bool,
        b: P,
        bn: bool,
    ) {
        let x = rd_pred(&w.preds[pb..], a, an);
        let y = rd_pred(&w.preds[pb..], b, bn);
        let v = match op {
            BoolOp::And => x & y,
            BoolOp::Or => x | y,
            BoolOp::Xor => x ^ y,
        };
        wr_pred(&mut w.preds[pb..], p, v, exec);
    }

    /// `Op::PMov`.
    #[inline(always)]
    pub(super) fn pmov(&mut self, w: &mut Warp, pb: usize, exec: u32, p: P, a: P, neg: bool) {
        let v = rd_pred(&w.preds[pb..], a, neg);
        wr_pred(&mut w.preds[pb..], p, v, exec);
    }

    /// `Op::PConst`.
    #[inline(always)]
    pub(super) fn pconst(&mut self, w: &mut Warp, pb: usize, p: P, v: bool) {
        // Constants are set for every lane (they are not per-thread state).
        w.preds[pb + p as usize] = if v { u32::MAX } else { 0 };
    }

    /// `Op::Testp`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn testp(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        f: TestpOp,
        ty: FTy,
        p: P,
        a: R,
    ) {
        let t = test_lanes(&w.regs[rb..], a, |v| alu::testp(f, ty, v));
        wr_pred(&mut w.preds[pb..], p, t, exec);
    }
}
