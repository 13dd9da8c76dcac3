//! Floating-point semantics of PTX that Rust's native `f32`/`f64` do not give directly:
//! directed rounding (`.rz .rm .rp`), half precision (`f16`, `bf16`), flush-to-zero, the
//! GPU's canonical NaNs, float↔integer conversions with saturation, and the approximate
//! functions (`ex2.approx`, `sin.approx`, ...).
//!
//! The central tool is [`round_to`]: it rounds an exact value, given as an `f64` plus the sign
//! of whatever tiny residual the `f64` could not hold, to a narrower binary format in any
//! rounding direction. Every narrow operation is computed exactly (or with an error-free
//! residual) in `f64` and then rounded once, so results are correctly rounded.

/// A rounding direction (PTX `.rn .rz .rm .rp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rnd {
    /// To nearest, ties to even.
    Rn,
    /// Toward zero.
    Rz,
    /// Toward −∞.
    Rm,
    /// Toward +∞.
    Rp,
}

/// A binary interchange format narrower than `f64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fmt {
    /// Stored significand bits (without the hidden bit).
    pub man: u32,
    /// Exponent bits.
    pub exp: u32,
}

/// IEEE binary16.
pub const F16: Fmt = Fmt { man: 10, exp: 5 };
/// bfloat16.
pub const BF16: Fmt = Fmt { man: 7, exp: 8 };
/// IEEE binary32.
pub const F32: Fmt = Fmt { man: 23, exp: 8 };
/// TensorFloat-32 (stored in 32 bits, low 13 significand bits zero).
pub const TF32: Fmt = Fmt { man: 10, exp: 8 };

impl Fmt {
    const fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    const fn emin(self) -> i32 {
        1 - self.bias()
    }
    const fn emax(self) -> i32 {
        self.bias()
    }
    /// Bit pattern of +∞ (sign bit excluded).
    pub const fn inf_bits(self) -> u64 {
        ((1u64 << self.exp) - 1) << self.man
    }
    /// Position of the sign bit.
    pub const fn sign_bit(self) -> u64 {
        1u64 << (self.man + self.exp)
    }
    /// The canonical NaN the GPU produces (all significand bits set, sign clear).
    pub const fn canonical_nan(self) -> u64 {
        self.inf_bits() | ((1u64 << self.man) - 1)
    }
    /// Decodes bits of this format to an `f64` (exact).
    pub fn to_f64(self, bits: u64) -> f64 {
        let sign = bits & self.sign_bit() != 0;
        let e = ((bits >> self.man) & ((1 << self.exp) - 1)) as i32;
        let m = bits & ((1 << self.man) - 1);
        let mag = if e == (1 << self.exp) - 1 {
            if m == 0 { f64::INFINITY } else { f64::NAN }
        } else if e == 0 {
            m as f64 * pow2(self.emin() - self.man as i32)
        } else {
            (m | (1 << self.man)) as f64 * pow2(e - self.bias() - self.man as i32)
        };
        if sign { -mag } else { mag }
    }
    /// Whether `bits` is a NaN of this format.
    pub fn is_nan(self, bits: u64) -> bool {
        bits & !self.sign_bit() > self.inf_bits()
    }
    /// Whether `bits` is a subnormal (non-zero, exponent field zero).
    pub fn is_subnormal(self, bits: u64) -> bool {
        let mag = bits & !self.sign_bit();
        mag != 0 && mag < (1 << self.man)
    }
    /// Flushes a subnormal to a zero of the same sign.
    pub fn ftz(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
}

/// 2^e as an `f64`, for `e` in the normal range of `f64`.
#[inline]
pub fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Rounds `v + r` to `fmt`, where `r` is a residual far smaller than the spacing of `fmt`
/// near `v` of which only the sign is given (`sticky`: −1, 0 or 1). Returns the bits.
/// NaN becomes the canonical NaN.
pub fn round_to(fmt: Fmt, v: f64, sticky: i32, rnd: Rnd) -> u64 {
    if v.is_nan() {
        return fmt.canonical_nan();
    }
    let neg = v.is_sign_negative();
    let sign = if neg { fmt.sign_bit() } else { 0 };
    let a = v.abs();
    // The residual's effect on the magnitude: > 0 means the exact magnitude exceeds `a`.
    let s_mag = if neg { -sticky } else { sticky };
    // Whether to round the magnitude up (away from zero) or down (toward zero) when inexact.
    let dir_up = match rnd {
        Rnd::Rn => None,
        Rnd::Rz => Some(false),
        Rnd::Rm => Some(neg),
        Rnd::Rp => Some(!neg),
    };
    let max_bits = fmt.inf_bits() - 1;
    if a.is_infinite() {
        return sign | fmt.inf_bits();
    }
    if a == 0.0 {
        return match (s_mag, dir_up) {
            (x, Some(true)) if x > 0 => sign | 1,
            _ => sign,
        };
    }
    let e = exponent_of(a);
    if e > fmt.emax() {
        // Above 2^(emax+1): overflow.
        return match dir_up {
            Some(false) => sign | max_bits,
            _ => sign | fmt.inf_bits(),
        };
    }
    let eq = e.max(fmt.emin());
    let q = a * pow2(fmt.man as i32 - eq); // exact: scaling by a power of two
    let n = q.floor();
    let frac = q - n;
    let n = n as u64;
    let base_bits = if e < fmt.emin() {
        n
    } else {
        (((eq + fmt.bias()) as u64) << fmt.man) + (n - (1u64 << fmt.man))
    };
    let bits = match dir_up {
        None => {
            if frac > 0.5 || (frac == 0.5 && (s_mag > 0 || (s_mag == 0 && base_bits & 1 == 1))) {
                base_bits + 1
            } else {
                base_bits
            }
        }
        Some(true) => {
            if frac > 0.0 || s_mag > 0 {
                base_bits + 1
            } else {
                base_bits
            }
        }
        Some(false) => {
            if frac == 0.0 && s_mag < 0 {
                base_bits - 1
            } else {
                base_bits
            }
        }
    };
    sign | bits.min(fmt.inf_bits())
}

/// floor(log2(a)) for finite positive `a`.
#[inline]
fn exponent_of(a: f64) -> i32 {
    let b = a.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    if e == 0 {
        // f64 subnormal: 2^-1074 .. 2^-1022.
        -1011 - (b.leading_zeros() as i32)
    } else {
        e - 1023
    }
}

/// Sign of `x` as −1, 0, 1 (NaN counts as 0).
#[inline]
pub fn sgn(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Error-free sum: `s + e == a + b` exactly (barring overflow).
#[inline]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `x` moved one `f64` step toward +∞ (`up`) or −∞.
#[inline]
pub fn next_f64(x: f64, up: bool) -> f64 {
    if x.is_nan() || (x.is_infinite() && (x > 0.0) == up) {
        return x;
    }
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = x.to_bits();
    let away = (x > 0.0) == up;
    f64::from_bits(if away { b + 1 } else { b - 1 })
}

/// Applies directed rounding to an `f64` result `s` computed round-to-nearest, whose exact
/// value is `s + r` with `r` of sign `sticky`.
pub fn f64_directed(s: f64, sticky: i32, rnd: Rnd) -> f64 {
    if sticky == 0 || s.is_nan() {
        return s;
    }
    match rnd {
        Rnd::Rn => s,
        Rnd::Rm if sticky < 0 => next_f64(s, false),
        Rnd::Rp if sticky > 0 => next_f64(s, true),
        Rnd::Rz if (s > 0.0 && sticky < 0) || (s < 0.0 && sticky > 0) => next_f64(s, s < 0.0),
        _ => s,
    }
}

/// Fused multiply-add in `f64` (correctly rounded; hardware FMA where the CPU has it).
#[inline]
pub fn fma64(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// The exact result of an `f64` operation on values narrower than `f64`, as a value and the
/// sign of its residual. Narrow formats (f32 and below) use these before [`round_to`].
pub mod wide {
    use super::{fma64, sgn, two_sum};

    /// a + b.
    #[inline]
    pub fn add(a: f64, b: f64) -> (f64, i32) {
        let (s, e) = two_sum(a, b);
        (s, sgn(e))
    }
    /// a × b (exact for inputs of at most 26 significand bits).
    #[inline]
    pub fn mul(a: f64, b: f64) -> (f64, i32) {
        let p = a * b;
        (p, sgn(fma64(a, b, -p)))
    }
    /// a × b + c (a × b exact in `f64` for narrow inputs).
    #[inline]
    pub fn fma(a: f64, b: f64, c: f64) -> (f64, i32) {
        let p = a * b;
        let (s, e) = two_sum(p, c);
        (s, sgn(e))
    }
    /// a / b.
    #[inline]
    pub fn div(a: f64, b: f64) -> (f64, i32) {
        let q = a / b;
        if !q.is_finite() || q == 0.0 {
            return (q, 0);
        }
        let r = fma64(-q, b, a);
        (q, sgn(r) * sgn(b))
    }
    /// √a.
    #[inline]
    pub fn sqrt(a: f64) -> (f64, i32) {
        let q = a.sqrt();
        if !q.is_finite() || q == 0.0 {
            return (q, 0);
        }
        (q, sgn(fma64(-q, q, a)))
    }
}

/// `f64` operations in a directed rounding mode, via error-free transformations.
pub mod dir64 {
    use super::{Rnd, f64_directed, fma64, sgn, two_sum};

    pub fn add(a: f64, b: f64, rnd: Rnd) -> f64 {
        let (s, e) = two_sum(a, b);
        if s.is_infinite() && a.is_finite() && b.is_finite() {
            return overflow(s, rnd);
        }
        f64_directed(s, sgn(e), rnd)
    }
    pub fn mul(a: f64, b: f64, rnd: Rnd) -> f64 {
        let p = a * b;
        if p.is_infinite() && a.is_finite() && b.is_finite() {
            return overflow(p, rnd);
        }
        if !p.is_finite() {
            return p;
        }
        f64_directed(p, sgn(fma64(a, b, -p)), rnd)
    }
    pub fn div(a: f64, b: f64, rnd: Rnd) -> f64 {
        let q = a / b;
        if q.is_infinite() && a.is_finite() && b != 0.0 {
            return overflow(q, rnd);
        }
        if !q.is_finite() || q == 0.0 {
            return q;
        }
        f64_directed(q, sgn(fma64(-q, b, a)) * sgn(b), rnd)
    }
    pub fn sqrt(a: f64, rnd: Rnd) -> f64 {
        let q = a.sqrt();
        if !q.is_finite() || q == 0.0 {
            return q;
        }
        f64_directed(q, sgn(fma64(-q, q, a)), rnd)
    }
    /// Fused a × b + c, with the residual of Boldo and Muller's ErrFma.
    pub fn fma(a: f64, b: f64, c: f64, rnd: Rnd) -> f64 {
        let r1 = fma64(a, b, c);
        if !r1.is_finite() {
            if r1.is_infinite() && a.is_finite() && b.is_finite() && c.is_finite() {
                return overflow(r1, rnd);
            }
            return r1;
        }
        let u1 = a * b;
        let u2 = fma64(a, b, -u1);
        let (a1, z) = two_sum(c, u2);
        let (b1, b2) = two_sum(u1, a1);
        let g = (b1 - r1) + b2;
        let r2 = g + z;
        let r3 = z - (r2 - g);
        let s = if r2 != 0.0 { sgn(r2) } else { sgn(r3) };
        f64_directed(r1, s, rnd)
    }
    fn overflow(inf: f64, rnd: Rnd) -> f64 {
        let pos = inf > 0.0;
        match (rnd, pos) {
            (Rnd::Rz, _) | (Rnd::Rm, true) | (Rnd::Rp, false) => {
                if pos {
                    f64::MAX
                } else {
                    f64::MIN
                }
            }
            _ => inf,
        }
    }
}

/// f16 bits to f32 (exact).
#[inline]
pub fn f16_to_f32(h: u16) -> f32 {
    F16.to_f64(u64::from(h)) as f32
}

/// bf16 bits to f32 (exact).
#[inline]
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// f32 to f16 bits, rounded.
#[inline]
pub fn f32_to_f16(x: f32, rnd: Rnd) -> u16 {
    round_to(F16, f64::from(x), 0, rnd) as u16
}

/// f32 to bf16 bits, rounded.
#[inline]
pub fn f32_to_bf16(x: f32, rnd: Rnd) -> u16 {
    round_to(BF16, f64::from(x), 0, rnd) as u16
}

/// f64 to f32 bits, rounded.
#[inline]
pub fn f64_to_f32(x: f64, rnd: Rnd) -> u32 {
    if rnd == Rnd::Rn {
        return canon32(x as f32).to_bits();
    }
    round_to(F32, x, 0, rnd) as u32
}

/// Replaces any NaN by the GPU's canonical single-precision NaN (0x7fffffff).
#[inline]
pub fn canon32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(0x7fff_ffff)
    } else {
        x
    }
}

/// Replaces any NaN by the canonical double-precision NaN (0x7fffffffffffffff).
#[inline]
pub fn canon64(x: f64) -> f64 {
    if x.is_nan() {
        f64::from_bits(0x7fff_ffff_ffff_ffff)
    } else {
        x
    }
}

/// Flushes an f32 subnormal to a signed zero.
#[inline]
pub fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// Flushes an f64 subnormal to a signed zero.
#[inline]
pub fn ftz64(x: f64) -> f64 {
    if x.is_subnormal() {
        f64::from_bits(x.to_bits() & (1 << 63))
    } else {
        x
    }
}

/// Clamps to [0, 1]; NaN becomes +0 (PTX `.sat`).
#[inline]
pub fn sat01(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// Rounds to an integral value in direction `rnd` (cvt `.rni .rzi .rmi .rpi`).
#[inline]
pub fn round_int(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rn => x.round_ties_even(),
        Rnd::Rz => x.trunc(),
        Rnd::Rm => x.floor(),
        Rnd::Rp => x.ceil(),
    }
}

/// Float to signed integer of `bits` width: rounded, saturated, NaN → 0.
pub fn f_to_sint(x: f64, rnd: Rnd, bits: u32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_int(x, rnd);
    let max = ((1i128 << (bits - 1)) - 1) as f64;
    let min = -((1i128 << (bits - 1)) as f64);
    if r >= max {
        ((1i128 << (bits - 1)) - 1) as i64
    } else if r <= min {
        (-(1i128 << (bits - 1))) as i64
    } else {
        r as i64
    }
}

/// Float to unsigned integer of `bits` width: rounded, saturated, NaN → 0.
pub fn f_to_uint(x: f64, rnd: Rnd, bits: u32) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_int(x, rnd);
    let max = ((1u128 << bits) - 1) as f64;
    if r <= 0.0 {
        0
    } else if r >= max {
        ((1u128 << bits) - 1) as u64
    } else {
        r as u64
    }
}

/// An integer (as i128) to a narrow float format, rounded.
pub fn int_to_fmt(v: i128, fmt: Fmt, rnd: Rnd) -> u64 {
    let s = v as f64;
    let resid = v - s as i128;
    round_to(fmt, s, resid.signum() as i32, rnd)
}

/// An integer (as i128) to f64, rounded.
pub fn int_to_f64(v: i128, rnd: Rnd) -> f64 {
    let s = v as f64;
    // `s` may round to 2^64 for u64::MAX; `as i128` of it is exact.
    let resid = v - s as i128;
    f64_directed(s, resid.signum() as i32, rnd)
}

/// Approximate functions, evaluated in `f64` and rounded to `f32`, after the argument
/// transformations ptxas puts in front of the hardware unit (sin/cos: the f32 phase in turns).
/// What is left is the unit's own error (PTX ISA: ex2 ~2 ulp, sin/cos 2^-20.5 absolute) plus
/// 0.5 ulp; `validation/h100/approx.tsv` holds H100 results the tests compare against.
pub mod approx {
    /// `ex2.approx.f32`: 2^x.
    pub fn ex2(x: f32) -> f32 {
        (f64::from(x)).exp2() as f32
    }
    /// `lg2.approx.f32`: log2 x (−∞ at ±0, NaN below 0).
    pub fn lg2(x: f32) -> f32 {
        if x == 0.0 {
            return f32::NEG_INFINITY;
        }
        (f64::from(x)).log2() as f32
    }
    /// `rcp.approx.f32`: 1/x.
    pub fn rcp(x: f32) -> f32 {
        (1.0 / f64::from(x)) as f32
    }
    /// `sqrt.approx.f32`.
    pub fn sqrt(x: f32) -> f32 {
        (f64::from(x)).sqrt() as f32
    }
    /// `rsqrt.approx.f32`: 1/√x (+∞ at +0, −∞ at −0).
    pub fn rsqrt(x: f32) -> f32 {
        if x == 0.0 {
            return if x.is_sign_negative() {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            };
        }
        (1.0 / f64::from(x).sqrt()) as f32
    }
    /// 1/(2π) as the f32 constant ptxas multiplies by before `MUFU.SIN`/`MUFU.COS`.
    const INV_TWO_PI: f32 = f32::from_bits(0x3e22_f983);

    /// The phase, in turns, the hardware's sine unit sees: ptxas lowers `sin.approx.f32` and
    /// `cos.approx.f32` to `FMUL.RZ x, 1/(2π)` then `MUFU.SIN`/`MUFU.COS`, so the argument is
    /// quantised to an f32 number of turns rounded toward zero. For |x| ≫ π that rounding, not
    /// the unit's own error, dominates (2 ulp of 24 turns move sin by ~1e-5), so it is modelled
    /// exactly; the fraction's sine is then evaluated in f64.
    fn turns(x: f32) -> f64 {
        // The product of two f32 is exact in f64; truncating it to f32 is FMUL.RZ.
        let t = f32::from_bits(super::f64_to_f32(
            f64::from(x) * f64::from(INV_TWO_PI),
            super::Rnd::Rz,
        ));
        let t = f64::from(t);
        t - t.round()
    }
    /// `sin.approx.f32`.
    pub fn sin(x: f32) -> f32 {
        if !x.is_finite() {
            return f32::NAN;
        }
        if x == 0.0 {
            return x;
        }
        (turns(x) * std::f64::consts::TAU).sin() as f32
    }
    /// `cos.approx.f32`.
    pub fn cos(x: f32) -> f32 {
        if !x.is_finite() {
            return f32::NAN;
        }
        (turns(x) * std::f64::consts::TAU).cos() as f32
    }
    /// `tanh.approx.f32`.
    pub fn tanh(x: f32) -> f32 {
        (f64::from(x)).tanh() as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_f32_like_native() {
        let vals = [
            1.0f64,
            1.0 + f64::EPSILON,
            0.1,
            -0.1,
            1e-40,
            -1e-45,
            3.4028235677973366e38,
            3.5e38,
            1e-50,
            16777217.0,
            -16777219.0,
            1.401298464324817e-45 / 2.0,
        ];
        for v in vals {
            assert_eq!(
                round_to(F32, v, 0, Rnd::Rn) as u32,
                (v as f32).to_bits(),
                "{v:e}"
            );
        }
    }

    #[test]
    fn directed_rounding() {
        let v = 1.0 + f64::EPSILON; // just above 1.0 in f32 terms
        assert_eq!(round_to(F32, v, 0, Rnd::Rz), 1.0f32.to_bits() as u64);
        assert_eq!(round_to(F32, v, 0, Rnd::Rp), (1.0f32.to_bits() + 1) as u64);
        assert_eq!(
            round_to(F32, -v, 0, Rnd::Rm),
            ((-1.0f32).to_bits() + 1) as u64
        );
        assert_eq!(round_to(F32, -v, 0, Rnd::Rp), (-1.0f32).to_bits() as u64);
        // Exactly 1.0 but with a negative residual: toward zero steps below 1.0.
        assert_eq!(
            round_to(F32, 1.0, -1, Rnd::Rz),
            (1.0f32.to_bits() - 1) as u64
        );
        assert_eq!(round_to(F32, 1.0, -1, Rnd::Rn), 1.0f32.to_bits() as u64);
        // Overflow.
        assert_eq!(round_to(F32, 1e39, 0, Rnd::Rz) as u32, f32::MAX.to_bits());
        assert_eq!(
            round_to(F32, 1e39, 0, Rnd::Rn) as u32,
            f32::INFINITY.to_bits()
        );
        assert_eq!(round_to(F32, -1e39, 0, Rnd::Rp) as u32, f32::MIN.to_bits());
        // Tiny positive rounds up to the least subnormal.
        assert_eq!(round_to(F32, 1e-60, 0, Rnd::Rp), 1);
        assert_eq!(round_to(F32, 0.0, 1, Rnd::Rp), 1);
    }

    #[test]
    fn half_conversions() {
        assert_eq!(f32_to_f16(1.0, Rnd::Rn), 0x3c00);
        assert_eq!(f32_to_f16(65504.0, Rnd::Rn), 0x7bff);
        assert_eq!(f32_to_f16(65520.0, Rnd::Rn), 0x7c00);
        assert_eq!(f32_to_f16(65520.0, Rnd::Rz), 0x7bff);
        assert_eq!(f32_to_f16(5.960_464_5e-8, Rnd::Rn), 1);
        assert_eq!(f32_to_f16(2.9e-8, Rnd::Rn), 0);
        assert_eq!(f32_to_f16(f32::NAN, Rnd::Rn), 0x7fff);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(1), 5.960_464_5e-8);
        assert_eq!(f32_to_bf16(1.0, Rnd::Rn), 0x3f80);
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f80_8000), Rnd::Rn), 0x3f80);
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f81_8000), Rnd::Rn), 0x3f82);
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f80_8001), Rnd::Rn), 0x3f81);
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
    }

    #[test]
    fn float_to_int_saturates() {
        assert_eq!(f_to_sint(f64::NAN, Rnd::Rz, 32), 0);
        assert_eq!(f_to_sint(3e9, Rnd::Rz, 32), i32::MAX as i64);
        assert_eq!(f_to_sint(-3e9, Rnd::Rz, 32), i32::MIN as i64);
        assert_eq!(f_to_sint(-2.5, Rnd::Rn, 32), -2);
        assert_eq!(f_to_sint(-2.5, Rnd::Rm, 32), -3);
        assert_eq!(f_to_sint(2.5, Rnd::Rp, 32), 3);
        assert_eq!(f_to_uint(-1.0, Rnd::Rz, 32), 0);
        assert_eq!(f_to_uint(1e30, Rnd::Rz, 64), u64::MAX);
        assert_eq!(f_to_sint(f64::INFINITY, Rnd::Rz, 64), i64::MAX);
    }

    #[test]
    fn int_to_float_directed() {
        let v = (1i128 << 24) + 1;
        assert_eq!(int_to_fmt(v, F32, Rnd::Rn) as u32, 16777216.0f32.to_bits());
        assert_eq!(int_to_fmt(v, F32, Rnd::Rp) as u32, 16777218.0f32.to_bits());
        let big = u64::MAX as i128;
        assert_eq!(int_to_f64(big, Rnd::Rz), 18446744073709549568.0);
        assert_eq!(int_to_f64(big, Rnd::Rn), 18446744073709551616.0);
    }

    #[test]
    fn dir64_ops() {
        let third_dn = dir64::div(1.0, 3.0, Rnd::Rm);
        let third_up = dir64::div(1.0, 3.0, Rnd::Rp);
        assert_eq!(third_up.to_bits(), third_dn.to_bits() + 1);
        assert_eq!(dir64::add(1.0, 1e-30, Rnd::Rp), next_f64(1.0, true));
        assert_eq!(dir64::add(1.0, 1e-30, Rnd::Rz), 1.0);
        assert_eq!(dir64::add(1.0, -1e-30, Rnd::Rz), next_f64(1.0, false));
        assert_eq!(dir64::fma(1.0, 1.0, 1e-30, Rnd::Rp), next_f64(1.0, true));
        assert_eq!(dir64::mul(f64::MAX, 2.0, Rnd::Rz), f64::MAX);
    }
}
