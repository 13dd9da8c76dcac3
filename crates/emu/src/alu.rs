//! Per-lane semantics of arithmetic, logic, comparison and conversion ops. The executor
//! wraps these in 32-lane loops; hot ops are written inline there, everything with modifiers
//! comes here.
//!
//! Register convention: a register holds its value in the low bits of a `u64`; ops read the
//! low bits of their type's width and write their result zero-extended.

use crate::float::{self, BF16, F16, F32, Fmt, Rnd, canon32, canon64, ftz32, wide};
use crate::program::*;
use warpscope_ptx::{BoolOp, PrmtMode, TestpOp};

#[inline(always)]
pub fn zx(x: u64, bits: u32) -> u64 {
    if bits >= 64 {
        x
    } else {
        x & ((1u64 << bits) - 1)
    }
}

#[inline(always)]
pub fn sx(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        ((x << (64 - bits)) as i64) >> (64 - bits)
    }
}

#[inline(always)]
fn smax(bits: u32) -> i64 {
    ((1i128 << (bits - 1)) - 1) as i64
}

#[inline(always)]
fn smin(bits: u32) -> i64 {
    (-(1i128 << (bits - 1))) as i64
}

/// Integer binary op on `bits`-wide operands.
#[inline(always)]
pub fn ibin(f: IBin, bits: u32, x: u64, y: u64) -> u64 {
    let r = match f {
        IBin::Add => x.wrapping_add(y),
        IBin::Sub => x.wrapping_sub(y),
        IBin::AddSat => {
            let v = i128::from(sx(x, bits)) + i128::from(sx(y, bits));
            v.clamp(i128::from(smin(bits)), i128::from(smax(bits))) as u64
        }
        IBin::SubSat => {
            let v = i128::from(sx(x, bits)) - i128::from(sx(y, bits));
            v.clamp(i128::from(smin(bits)), i128::from(smax(bits))) as u64
        }
        IBin::MulLo => x.wrapping_mul(y),
        IBin::MulHiS => {
            let p = i128::from(sx(x, bits)) * i128::from(sx(y, bits));
            (p >> bits) as u64
        }
        IBin::MulHiU => {
            let p = u128::from(zx(x, bits)) * u128::from(zx(y, bits));
            (p >> bits) as u64
        }
        IBin::MulWideS => {
            let p = i128::from(sx(x, bits)) * i128::from(sx(y, bits));
            return zx(p as u64, (bits * 2).min(64));
        }
        IBin::MulWideU => {
            let p = u128::from(zx(x, bits)) * u128::from(zx(y, bits));
            return zx(p as u64, (bits * 2).min(64));
        }
        IBin::Mul24LoS => (sx(x, 24).wrapping_mul(sx(y, 24))) as u64,
        IBin::Mul24LoU => zx(x, 24).wrapping_mul(zx(y, 24)),
        IBin::Mul24HiS => ((sx(x, 24).wrapping_mul(sx(y, 24))) >> 16) as u64,
        IBin::Mul24HiU => (zx(x, 24).wrapping_mul(zx(y, 24))) >> 16,
        IBin::DivS => {
            let (a, b) = (sx(x, bits), sx(y, bits));
            if b == 0 {
                u64::MAX
            } else {
                a.wrapping_div(b) as u64
            }
        }
        IBin::DivU => zx(x, bits).checked_div(zx(y, bits)).unwrap_or(u64::MAX),
        IBin::RemS => {
            let (a, b) = (sx(x, bits), sx(y, bits));
            if b == 0 {
                a as u64
            } else {
                a.wrapping_rem(b) as u64
            }
        }
        IBin::RemU => {
            let (a, b) = (zx(x, bits), zx(y, bits));
            if b == 0 { a } else { a % b }
        }
        IBin::MinS => sx(x, bits).min(sx(y, bits)) as u64,
        IBin::MaxS => sx(x, bits).max(sx(y, bits)) as u64,
        IBin::MinU => zx(x, bits).min(zx(y, bits)),
        IBin::MaxU => zx(x, bits).max(zx(y, bits)),
        IBin::MinSRelu => sx(x, bits).min(sx(y, bits)).max(0) as u64,
        IBin::MaxSRelu => sx(x, bits).max(sx(y, bits)).max(0) as u64,
        IBin::And => x & y,
        IBin::Or => x | y,
        IBin::Xor => x ^ y,
        IBin::Shl => {
            let s = y as u32;
            if s >= bits { 0 } else { x << s }
        }
        IBin::ShrU => {
            let s = y as u32;
            if s >= bits { 0 } else { zx(x, bits) >> s }
        }
        IBin::ShrS => {
            let s = (y as u32).min(bits - 1);
            (sx(x, bits) >> s) as u64
        }
        IBin::BmskClamp | IBin::BmskWrap => {
            let (p, w) = if f == IBin::BmskWrap {
                (x as u32 & 31, y as u32 & 31)
            } else {
                ((x as u32).min(32), (y as u32).min(32))
            };
            let m = if w >= 32 { u64::MAX } else { (1u64 << w) - 1 };
            if p >= 32 { 0 } else { (m << p) & 0xffff_ffff }
        }
        IBin::SzextClamp { signed } | IBin::SzextWrap { signed } => {
            let w = if matches!(f, IBin::SzextWrap { .. }) {
                y as u32 & 31
            } else {
                (y as u32).min(32)
            };
            if w == 0 {
                0
            } else if w >= 32 {
                x
            } else if signed {
                sx(x, w) as u64
            } else {
                zx(x, w)
            }
        }
        IBin::_Reserved => 0,
    };
    zx(r, bits)
}

/// Integer ternary op.
#[inline(always)]
pub fn itern(f: ITern, bits: u32, a: u64, b: u64, c: u64) -> u64 {
    let r = match f {
        ITern::MadLo => a.wrapping_mul(b).wrapping_add(c),
        ITern::MadHiS => ibin(IBin::MulHiS, bits, a, b).wrapping_add(c),
        ITern::MadHiU => ibin(IBin::MulHiU, bits, a, b).wrapping_add(c),
        ITern::MadWideS => {
            let p = ibin(IBin::MulWideS, bits, a, b);
            return zx(p.wrapping_add(c), (bits * 2).min(64));
        }
        ITern::MadWideU => {
            let p = ibin(IBin::MulWideU, bits, a, b);
            return zx(p.wrapping_add(c), (bits * 2).min(64));
        }
        ITern::MadHiSatS32 => {
            let hi = (i64::from(a as i32) * i64::from(b as i32)) >> 32;
            (hi + i64::from(c as i32)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u64
        }
        ITern::Mad24LoS => ibin(IBin::Mul24LoS, 32, a, b).wrapping_add(c),
        ITern::Mad24LoU => ibin(IBin::Mul24LoU, 32, a, b).wrapping_add(c),
        ITern::Mad24HiS => ibin(IBin::Mul24HiS, 32, a, b).wrapping_add(c),
        ITern::Mad24HiU => ibin(IBin::Mul24HiU, 32, a, b).wrapping_add(c),
        ITern::BfeU | ITern::BfeS => {
            let msb = bits - 1;
            let pos = (b & 0xff) as u32;
            let len = (c & 0xff) as u32;
            let sbit = if f == ITern::BfeS && len > 0 {
                let top = (pos + len - 1).min(msb);
                (a >> top) & 1
            } else {
                0
            };
            let mut d = 0u64;
            for i in 0..=msb {
                let bit = if i < len && pos + i <= msb {
                    (a >> (pos + i)) & 1
                } else {
                    sbit
                };
                d |= bit << i;
            }
            d
        }
        ITern::ShfL { clamp } => {
            let n = if clamp {
                (c as u32).min(32)
            } else {
                c as u32 & 31
            };
            let v = (zx(b, 32) << 32) | zx(a, 32);
            ((v << n) >> 32) & 0xffff_ffff
        }
        ITern::ShfR { clamp } => {
            let n = if clamp {
                (c as u32).min(32)
            } else {
                c as u32 & 31
            };
            let v = (zx(b, 32) << 32) | zx(a, 32);
            (v >> n) & 0xffff_ffff
        }
        ITern::SadS => sx(a, bits)
            .wrapping_sub(sx(b, bits))
            .unsigned_abs()
            .wrapping_add(c),
        ITern::SadU => zx(a, bits).abs_diff(zx(b, bits)).wrapping_add(c),
        ITern::Dp4a { a_signed, b_signed } => dot(a, 8, 0, b, 4, (a_signed, b_signed), c),
        ITern::Dp2a {
            hi,
            a_signed,
            b_signed,
        } => dot(a, 16, if hi { 2 } else { 0 }, b, 2, (a_signed, b_signed), c),
        ITern::Fns => u64::from(fns(a as u32, b as u32, c as i32)),
        ITern::SlctS => {
            if (c as i32) >= 0 {
                a
            } else {
                b
            }
        }
        ITern::SlctF { ftz } => {
            let mut v = f32::from_bits(c as u32);
            if ftz {
                v = ftz32(v);
            }
            if v >= 0.0 { a } else { b }
        }
    };
    zx(r, bits)
}

/// `dp4a`/`dp2a`: `c` plus the products of the `n` `abits`-wide fields of `a` with `n`
/// bytes of `b` starting at byte `bfirst`, each field signed or not as `signed` says.
fn dot(a: u64, abits: u32, bfirst: u32, b: u64, n: u32, signed: (bool, bool), c: u64) -> u64 {
    let field = |x: u64, bits: u32, s: bool| {
        if s {
            sx(x, bits) as i32
        } else {
            zx(x, bits) as i32
        }
    };
    let mut acc = c as u32;
    for i in 0..n {
        let av = field(a >> (abits * i), abits, signed.0);
        let bv = field(b >> (8 * (bfirst + i)), 8, signed.1);
        acc = acc.wrapping_add(av.wrapping_mul(bv) as u32);
    }
    u64::from(acc)
}

/// `fns.b32`: the position of the `offset`-th set bit of `mask` counting from `base`.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    let base = base & 31;
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let mut count = 0i32;
    if offset > 0 {
        for i in base..32 {
            if mask >> i & 1 == 1 {
                count += 1;
                if count == offset {
                    return i;
                }
            }
        }
    } else {
        for i in (0..=base).rev() {
            if mask >> i & 1 == 1 {
                count -= 1;
                if count == offset {
                    return i;
                }
            }
        }
    }
    u32::MAX
}

/// Integer unary op.
#[inline(always)]
pub fn iun(f: IUn, bits: u32, x: u64) -> u64 {
    let r = match f {
        IUn::Neg => x.wrapping_neg(),
        IUn::Abs => sx(x, bits).unsigned_abs(),
        IUn::Not => !x,
        IUn::Cnot => u64::from(zx(x, bits) == 0),
        IUn::Popc => u64::from(zx(x, bits).count_ones()),
        IUn::Clz => u64::from(zx(x, bits).leading_zeros() - (64 - bits)),
        IUn::Brev => zx(x, bits).reverse_bits() >> (64 - bits),
        IUn::BfindU | IUn::BfindShU | IUn::BfindS | IUn::BfindShS => {
            let signed = matches!(f, IUn::BfindS | IUn::BfindShS);
            let mut v = zx(x, bits);
            if signed && sx(x, bits) < 0 {
                v = zx(!v, bits);
            }
            if v == 0 {
                return 0xffff_ffff;
            }
            let pos = 63 - v.leading_zeros();
            if matches!(f, IUn::BfindShU | IUn::BfindShS) {
                u64::from(bits - 1 - pos)
            } else {
                u64::from(pos)
            }
        }
    };
    let out_bits = match f {
        IUn::Popc | IUn::Clz | IUn::BfindU | IUn::BfindS | IUn::BfindShU | IUn::BfindShS => 32,
        _ => bits,
    };
    zx(r, out_bits)
}

// ---------------------------------------------------------------------------------------
// Floating point.

#[inline]
fn fmt_of(ty: FTy) -> Fmt {
    match ty {
        FTy::F16 | FTy::F16x2 => F16,
        FTy::Bf16 | FTy::Bf16x2 => BF16,
        _ => F32,
    }
}

/// min/max with PTX semantics: a NaN input yields the other value (NaN only when both
/// are); −0 orders below +0.
#[inline(always)]
pub fn fminmax(x: f64, y: f64, is_max: bool, nan_prop: bool) -> f64 {
    if x.is_nan() || y.is_nan() {
        if nan_prop || (x.is_nan() && y.is_nan()) {
            return f64::NAN;
        }
        return if x.is_nan() { y } else { x };
    }
    if x == y {
        // Signed zeros.
        let neg = if is_max {
            x.is_sign_negative() && y.is_sign_negative()
        } else {
            x.is_sign_negative() || y.is_sign_negative()
        };
        return if x == 0.0 {
            if neg { -0.0 } else { 0.0 }
        } else {
            x
        };
    }
    if (x < y) != is_max { x } else { y }
}

/// Exact-or-residual result of a binary float op on values of a format narrower than f64.
#[inline]
fn wide_bin(op: FBin, x: f64, y: f64) -> (f64, i32) {
    match op {
        FBin::Add => wide::add(x, y),
        FBin::Sub => wide::add(x, -y),
        FBin::Mul => wide::mul(x, y),
        FBin::Div | FBin::DivFull => wide::div(x, y),
        FBin::DivApprox => {
            // a × rcp.approx.ftz(b): the reciprocal flushes for |b| > 2^126.
            let r = float::ftz32(crate::float::approx::rcp(y as f32));
            wide::mul(x, f64::from(r))
        }
        FBin::Min => (fminmax(x, y, false, false), 0),
        FBin::Max => (fminmax(x, y, true, false), 0),
        FBin::MinNaN => (fminmax(x, y, false, true), 0),
        FBin::MaxNaN => (fminmax(x, y, true, true), 0),
        FBin::Copysign => (y.abs().copysign(x), 0),
    }
}

/// Applies `.sat` / `.relu` to a value about to be rounded.
#[inline]
fn post(v: f64, mods: FMods) -> f64 {
    let mut v = v;
    if mods.relu {
        v = if v.is_nan() {
            v
        } else if v <= 0.0 {
            0.0
        } else {
            v
        };
    }
    if mods.sat {
        v = float::sat01(v);
    }
    v
}

/// The exact-or-residual result `(v, s)` of an op on narrow values, after `.sat`/`.relu`,
/// rounded to `fmt` (subnormals flushed under `.ftz`).
fn round_result(fmt: Fmt, mods: FMods, mut v: f64, mut s: i32) -> u64 {
    if mods.sat || mods.relu {
        let p = post(v, mods);
        if p != v {
            s = 0;
        }
        v = p;
    }
    let r = float::round_to(fmt, v, s, mods.rnd);
    if mods.ftz { fmt.ftz(r) } else { r }
}

/// A binary op on one narrow value (f16, bf16 or f32 bits).
pub fn narrow_bin(op: FBin, fmt: Fmt, mods: FMods, xb: u64, yb: u64) -> u64 {
    let (xb, yb) = if mods.ftz {
        (fmt.ftz(xb), fmt.ftz(yb))
    } else {
        (xb, yb)
    };
    let (x, y) = (fmt.to_f64(xb), fmt.to_f64(yb));
    if op == FBin::Copysign {
        // Bit operation: magnitude of y, sign of x.
        let s = fmt.sign_bit();
        return (yb & !s) | (xb & s);
    }
    let (v, s) = wide_bin(op, x, y);
    round_result(fmt, mods, v, s)
}

/// Fused multiply-add on narrow values.
pub fn narrow_fma(fmt: Fmt, mods: FMods, ab: u64, bb: u64, cb: u64) -> u64 {
    let f = |b: u64| fmt.to_f64(if mods.ftz { fmt.ftz(b) } else { b });
    let (v, s) = wide::fma(f(ab), f(bb), f(cb));
    round_result(fmt, mods, v, s)
}

/// A binary float op of any type on a register's bits.
pub fn fbin(op: FBin, ty: FTy, mods: FMods, x: u64, y: u64) -> u64 {
    match ty {
        FTy::F64 => {
            let (a, b) = (f64::from_bits(x), f64::from_bits(y));
            let r = match op {
                FBin::Add => float::dir64::add(a, b, mods.rnd),
                FBin::Sub => float::dir64::add(a, -b, mods.rnd),
                FBin::Mul => float::dir64::mul(a, b, mods.rnd),
                FBin::Div | FBin::DivFull | FBin::DivApprox => float::dir64::div(a, b, mods.rnd),
                FBin::Min => fminmax(a, b, false, false),
                FBin::Max => fminmax(a, b, true, false),
                FBin::MinNaN => fminmax(a, b, false, true),
                FBin::MaxNaN => fminmax(a, b, true, true),
                FBin::Copysign => return (y & !(1 << 63)) | (x & (1 << 63)),
            };
            canon64(r).to_bits()
        }
        FTy::F32 | FTy::F16 | FTy::Bf16 => narrow_bin(op, fmt_of(ty), mods, x, y),
        FTy::F16x2 | FTy::Bf16x2 => {
            let fmt = fmt_of(ty);
            let lo = narrow_bin(op, fmt, mods, x & 0xffff, y & 0xffff);
            let hi = narrow_bin(op, fmt, mods, (x >> 16) & 0xffff, (y >> 16) & 0xffff);
            (hi << 16) | lo
        }
    }
}

/// Fused multiply-add of any type.
pub fn ffma(ty: FTy, mods: FMods, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        FTy::F64 => {
            let r = float::dir64::fma(
                f64::from_bits(a),
                f64::from_bits(b),
                f64::from_bits(c),
                mods.rnd,
            );
            canon64(r).to_bits()
        }
        FTy::F32 | FTy::F16 | FTy::Bf16 => narrow_fma(fmt_of(ty), mods, a, b, c),
        FTy::F16x2 | FTy::Bf16x2 => {
            let fmt = fmt_of(ty);
            let lo = narrow_fma(fmt, mods, a & 0xffff, b & 0xffff, c & 0xffff);
            let hi = narrow_fma(
                fmt,
                mods,
                (a >> 16) & 0xffff,
                (b >> 16) & 0xffff,
                (c >> 16) & 0xffff,
            );
            (hi << 16) | lo
        }
    }
}

/// A unary float op on one narrow value.
fn narrow_un(f: FUn, fmt: Fmt, mods: FMods, xb: u64) -> u64 {
    let xb = if mods.ftz { fmt.ftz(xb) } else { xb };
    let s = fmt.sign_bit();
    match f {
        FUn::Neg => return xb ^ s,
        FUn::Abs => return xb & !s,
        _ => {}
    }
    let x = fmt.to_f64(xb);
    let (v, st) = match f {
        FUn::Sqrt => wide::sqrt(x),
        FUn::Rcp => wide::div(1.0, x),
        FUn::SqrtApprox => (x.sqrt(), 0),
        FUn::RcpApprox => (1.0 / x, 0),
        FUn::RsqrtApprox => {
            if x == 0.0 {
                (f64::INFINITY.copysign(x), 0)
            } else {
                (1.0 / x.sqrt(), 0)
            }
        }
        FUn::Ex2Approx => (x.exp2(), 0),
        FUn::Lg2Approx => {
            if x == 0.0 {
                (f64::NEG_INFINITY, 0)
            } else {
                (x.log2(), 0)
            }
        }
        // The operand is an f32 (or narrower) value, so `as f32` is exact.
        FUn::SinApprox => (f64::from(float::approx::sin(x as f32)), 0),
        FUn::CosApprox => (f64::from(float::approx::cos(x as f32)), 0),
        FUn::TanhApprox => (x.tanh(), 0),
        FUn::RoundInt => (float::round_int(x, mods.rnd), 0),
        FUn::Ident => (x, 0),
        FUn::Neg | FUn::Abs => unreachable!(),
    };
    let v = post(v, mods);
    let rnd = if matches!(f, FUn::RoundInt) {
        Rnd::Rn
    } else {
        mods.rnd
    };
    let r = float::round_to(fmt, v, st, rnd);
    if mods.ftz { fmt.ftz(r) } else { r }
}

/// A unary float op of any type.
pub fn fun(f: FUn, ty: FTy, mods: FMods, x: u64) -> u64 {
    match ty {
        FTy::F64 => {
            let a = f64::from_bits(x);
            let r = match f {
                FUn::Neg => return x ^ (1 << 63),
                FUn::Abs => return x & !(1 << 63),
                FUn::Sqrt => float::dir64::sqrt(a, mods.rnd),
                FUn::Rcp => float::dir64::div(1.0, a, mods.rnd),
                FUn::RcpApprox => 1.0 / a,
                FUn::RsqrtApprox => {
                    if a == 0.0 {
                        f64::INFINITY.copysign(a)
                    } else {
                        1.0 / a.sqrt()
                    }
                }
                FUn::SqrtApprox => a.sqrt(),
                FUn::RoundInt => float::round_int(a, mods.rnd),
                FUn::Ident => {
                    if mods.sat {
                        float::sat01(a)
                    } else {
                        a
                    }
                }
                _ => a,
            };
            let r = if mods.ftz { float::ftz64(r) } else { r };
            canon64(r).to_bits()
        }
        FTy::F32 => {
            if !mods.ftz && !mods.sat && !mods.relu {
                // Fast paths of the common approximations.
                let a = f32::from_bits(x as u32);
                let r = match f {
                    FUn::Neg => return u64::from((x as u32) ^ 0x8000_0000),
                    FUn::Abs => return u64::from((x as u32) & 0x7fff_ffff),
                    FUn::Ex2Approx => float::approx::ex2(a),
                    FUn::Lg2Approx => float::approx::lg2(a),
                    FUn::RcpApprox => float::approx::rcp(a),
                    FUn::SqrtApprox => float::approx::sqrt(a),
                    FUn::RsqrtApprox => float::approx::rsqrt(a),
                    FUn::SinApprox => float::approx::sin(a),
                    FUn::CosApprox => float::approx::cos(a),
                    FUn::TanhApprox => float::approx::tanh(a),
                    FUn::Sqrt if mods.rnd == Rnd::Rn => a.sqrt(),
                    FUn::Rcp if mods.rnd == Rnd::Rn => 1.0 / a,
                    _ => return narrow_un(f, F32, mods, x),
                };
                return u64::from(canon32(r).to_bits());
            }
            narrow_un(f, F32, mods, x)
        }
        FTy::F16 | FTy::Bf16 => narrow_un(f, fmt_of(ty), mods, x & 0xffff),
        FTy::F16x2 | FTy::Bf16x2 => {
            let fmt = fmt_of(ty);
            let lo = narrow_un(f, fmt, mods, x & 0xffff);
            let hi = narrow_un(f, fmt, mods, (x >> 16) & 0xffff);
            (hi << 16) | lo
        }
    }
}

/// A general conversion.
pub fn cvt(s: CvtSpec, x: u64) -> u64 {
    // Decode the source.
    enum V {
        I(i128),
        F(f64),
    }
    let v = match s.from {
        NumTy::Int { w, signed } => {
            if signed {
                V::I(i128::from(sx(x, w.bits())))
            } else {
                V::I(i128::from(zx(x, w.bits())))
            }
        }
        NumTy::F16 => V::F(F16.to_f64(x & 0xffff)),
        NumTy::Bf16 => V::F(BF16.to_f64(x & 0xffff)),
        NumTy::Tf32 | NumTy::F32 => {
            let mut f = f32::from_bits(x as u32);
            if s.ftz {
                f = ftz32(f);
            }
            V::F(f64::from(f))
        }
        NumTy::F64 => V::F(f64::from_bits(x)),
    };
    match (s.to, v) {
        (NumTy::Int { w, signed }, V::I(i)) => {
            let bits = w.bits();
            if s.sat {
                let (lo, hi) = if signed {
                    (i128::from(smin(bits)), i128::from(smax(bits)))
                } else {
                    (0, (1i128 << bits) - 1)
                };
                zx(i.clamp(lo, hi) as u64, bits)
            } else {
                zx(i as u64, bits)
            }
        }
        (NumTy::Int { w, signed }, V::F(f)) => {
            let bits = w.bits();
            if signed {
                zx(float::f_to_sint(f, s.rnd, bits) as u64, bits)
            } else {
                float::f_to_uint(f, s.rnd, bits)
            }
        }
        (to, V::I(i)) => {
            let fmt = match to {
                NumTy::F16 => F16,
                NumTy::Bf16 => BF16,
                NumTy::Tf32 => float::TF32,
                NumTy::F32 => F32,
                _ => {
                    let r = float::int_to_f64(i, s.rnd);
                    return if s.sat {
                        float::sat01(r).to_bits()
                    } else {
                        r.to_bits()
                    };
                }
            };
            let mut r = float::int_to_fmt(i, fmt, s.rnd);
            if s.sat {
                r = float::round_to(fmt, float::sat01(fmt.to_f64(r)), 0, Rnd::Rn);
            }
            widen_tf32(to, r)
        }
        (to, V::F(f)) => {
            let mut f = f;
            if s.relu && !f.is_nan() && f < 0.0 {
                f = 0.0;
            }
            if s.sat {
                f = float::sat01(f);
            }
            match to {
                NumTy::F64 => {
                    let r = if s.ftz { float::ftz64(f) } else { f };
                    canon64(r).to_bits()
                }
                NumTy::F32 => {
                    let r = f32::from_bits(float::f64_to_f32(f, s.rnd));
                    let r = if s.ftz { ftz32(r) } else { r };
                    u64::from(canon32(r).to_bits())
                }
                NumTy::F16 | NumTy::Bf16 | NumTy::Tf32 => {
                    let fmt = match to {
                        NumTy::F16 => F16,
                        NumTy::Bf16 => BF16,
                        _ => float::TF32,
                    };
                    let mut r = float::round_to(fmt, f, 0, s.rnd);
                    if s.satfinite && !fmt.is_nan(r) && r & !fmt.sign_bit() == fmt.inf_bits() {
                        r = (r & fmt.sign_bit()) | (fmt.inf_bits() - 1);
                    }
                    if s.ftz && fmt == F16 {
                        r = fmt.ftz(r);
                    }
                    widen_tf32(to, r)
                }
                NumTy::Int { .. } => unreachable!(),
            }
        }
    }
}

/// TF32 values live in 32-bit registers as f32 bit patterns with the low 13 bits zero.
fn widen_tf32(to: NumTy, r: u64) -> u64 {
    if to == NumTy::Tf32 {
        let sign = (r >> 18) & 1;
        let e = (r >> 10) & 0xff;
        let m = r & 0x3ff;
        (sign << 31) | (e << 23) | (m << 13)
    } else {
        r
    }
}

/// `cvt.rn.f16x2.f32 d, a, b` (a in the upper half).
pub fn cvt_pair(bf16: bool, mods: FMods, a: u64, b: u64) -> u64 {
    let fmt = if bf16 { BF16 } else { F16 };
    let one = |x: u64| {
        let mut f = f64::from(f32::from_bits(x as u32));
        if mods.relu && !f.is_nan() && f < 0.0 {
            f = 0.0;
        }
        let mut r = float::round_to(fmt, f, 0, mods.rnd);
        if mods.sat && !fmt.is_nan(r) && r & !fmt.sign_bit() == fmt.inf_bits() {
            r = (r & fmt.sign_bit()) | (fmt.inf_bits() - 1);
        }
        r
    };
    (one(a) << 16) | one(b)
}

/// Compares two register values.
#[inline(always)]
pub fn compare(ty: CmpTy, cmp: Cmp, x: u64, y: u64) -> bool {
    match ty {
        CmpTy::S(w) => {
            let (a, b) = (sx(x, w.bits()), sx(y, w.bits()));
            int_cmp(cmp, a.cmp(&b))
        }
        CmpTy::U(w) => {
            let (a, b) = (zx(x, w.bits()), zx(y, w.bits()));
            int_cmp(cmp, a.cmp(&b))
        }
        CmpTy::F32 { ftz } => {
            let (mut a, mut b) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
            if ftz {
                a = ftz32(a);
                b = ftz32(b);
            }
            float_cmp(cmp, f64::from(a), f64::from(b))
        }
        CmpTy::F64 => float_cmp(cmp, f64::from_bits(x), f64::from_bits(y)),
        CmpTy::F16 => float_cmp(cmp, F16.to_f64(x & 0xffff), F16.to_f64(y & 0xffff)),
        CmpTy::Bf16 => float_cmp(cmp, BF16.to_f64(x & 0xffff), BF16.to_f64(y & 0xffff)),
    }
}

#[inline(always)]
fn int_cmp(cmp: Cmp, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match cmp {
        Cmp::Eq | Cmp::Equ => o == Equal,
        Cmp::Ne | Cmp::Neu => o != Equal,
        Cmp::Lt | Cmp::Ltu => o == Less,
        Cmp::Le | Cmp::Leu => o != Greater,
        Cmp::Gt | Cmp::Gtu => o == Greater,
        Cmp::Ge | Cmp::Geu => o != Less,
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

#[inline(always)]
pub fn float_cmp(cmp: Cmp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => !nan && a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Equ => nan || a == b,
        Cmp::Neu => nan || a != b,
        Cmp::Ltu => nan || a < b,
        Cmp::Leu => nan || a <= b,
        Cmp::Gtu => nan || a > b,
        Cmp::Geu => nan || a >= b,
        Cmp::Num => !nan,
        Cmp::Nan => nan,
    }
}

/// Combines a comparison mask with `{!}c` under a boolean op.
#[inline(always)]
pub fn combine(op: BoolOp, x: u32, c: u32) -> u32 {
    match op {
        BoolOp::And => x & c,
        BoolOp::Or => x | c,
        BoolOp::Xor => x ^ c,
    }
}

/// `testp`.
pub fn testp(f: TestpOp, ty: FTy, x: u64) -> bool {
    let v = if ty == FTy::F64 {
        f64::from_bits(x)
    } else {
        f64::from(f32::from_bits(x as u32))
    };
    let sub = if ty == FTy::F64 {
        v.is_subnormal()
    } else {
        f32::from_bits(x as u32).is_subnormal()
    };
    match f {
        TestpOp::Finite => v.is_finite(),
        TestpOp::Infinite => v.is_infinite(),
        TestpOp::Number => !v.is_nan(),
        TestpOp::NotANumber => v.is_nan(),
        TestpOp::Normal => v.is_finite() && v != 0.0 && !sub,
        TestpOp::Subnormal => sub,
    }
}

/// `prmt.b32 d, a, b, c{.mode}`.
pub fn prmt(a: u32, b: u32, c: u32, mode: Option<PrmtMode>) -> u32 {
    let bytes = (u64::from(b) << 32) | u64::from(a);
    let byte = |i: u32| ((bytes >> (8 * (i & 7))) & 0xff) as u32;
    match mode {
        None => {
            let mut d = 0u32;
            for k in 0..4 {
                let sel = (c >> (4 * k)) & 0xf;
                let mut v = byte(sel & 7);
                if sel & 8 != 0 {
                    // Replicate the sign bit.
                    v = if v & 0x80 != 0 { 0xff } else { 0 };
                }
                d |= v << (8 * k);
            }
            d
        }
        Some(m) => {
            let s = c & 3;
            let sel: [u32; 4] = std::array::from_fn(|k| {
                let k = k as u32;
                match m {
                    PrmtMode::F4e => s + k,
                    PrmtMode::B4e => s.wrapping_sub(k) & 7,
                    PrmtMode::Rc8 => s,
                    PrmtMode::Ecl => s.max(k),
                    PrmtMode::Ecr => s.min(k),
                    PrmtMode::Rc16 => 2 * (c & 1) + (k & 1),
                }
            });
            let mut d = 0u32;
            for (k, &si) in sel.iter().enumerate() {
                d |= byte(si & 7) << (8 * k);
            }
            d
        }
    }
}

/// `lop3.b32` with lookup table `lut`.
#[inline(always)]
pub fn lop3(a: u64, b: u64, c: u64, lut: u8) -> u64 {
    let mut r = 0u64;
    for i in 0..8u8 {
        if lut >> i & 1 == 1 {
            let ta = if i & 4 != 0 { a } else { !a };
            let tb = if i & 2 != 0 { b } else { !b };
            let tc = if i & 1 != 0 { c } else { !c };
            r |= ta & tb & tc;
        }
    }
    r & 0xffff_ffff
}

/// `bfi.bW d, a, b, c, e`: insert the low `len` bits of a into b at `pos`.
pub fn bfi(bits: u32, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let mut d = zx(b, bits);
    let mut i = 0;
    while i < len && pos + i < bits {
        let bit = (a >> i) & 1;
        d = (d & !(1 << (pos + i))) | (bit << (pos + i));
        i += 1;
    }
    d
}

#[cfg(test)]
mod tests;
