//! Moves, width changes, conversions and unary functions (`Op::Mov`, `Op::Un`,
//! `Op::Pack`, `Op::Unpack`), translated by `translate::convert`.

#![allow(clippy::needless_range_loop)]

use super::*;

impl<'a, O: Observer> Env<'a, O> {
    /// `Op::Mov`.
    #[inline(always)]
    pub(super) fn mov(&mut self, w: &mut Warp, rb: usize, exec: u32, d: R, a: R) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            let v = r[a as usize];
            wr(&mut r[d as usize], &v, exec);
        }
    }

    /// `Op::Un`.
    #[inline(always)]
    pub(super) fn un(&mut self, w: &mut Warp, rb: usize, exec: u32, f: UnF, d: R, a: R) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            match f {
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
                UnF::Float(op, ty, mods) => un_lanes(r, d, a, exec, |x| alu::fun(op, ty, mods, x)),
                UnF::Cvt(spec) => un_lanes(r, d, a, exec, |x| alu::cvt(spec, x)),
            }
        }
    }

    /// `Op::Pack`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn pack(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        d: R,
        srcs: [R; 4],
        n: u8,
        ew: u8,
    ) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            let ew = u32::from(ew);
            let v: [u64; 32] = crate::exec::lane_array(|i| {
                let mut x = 0u64;
                for k in 0..usize::from(n) {
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
            wr(&mut r[d as usize], &v, exec);
        }
    }

    /// `Op::Unpack`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn unpack(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        ds: [R; 4],
        n: u8,
        ew: u8,
        a: R,
    ) {
        if exec != 0 {
            let r = &mut w.regs[rb..];
            let ew = u32::from(ew);
            let src = r[a as usize];
            for k in 0..usize::from(n) {
                let dk = ds[k];
                if dk != NONE {
                    let v: [u64; 32] =
                        crate::exec::lane_array(|i| zx(src[i] >> (ew * k as u32), ew));
                    wr(&mut r[dk as usize], &v, exec);
                }
            }
        }
    }
}
