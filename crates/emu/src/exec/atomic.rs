//! Atomics and reductions to memory (`Op::Atom`, from `atom` and `red`), translated by
//! `translate::atomic`.

#![allow(clippy::needless_range_loop)]

use super::memory::Store;
use super::*;

/// New value of an atomic location.
pub(super) fn atom_apply(op: AtomOp, ty: AtomTy, old: u64, b: u64, c: u64) -> u64 {
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

impl<'a, O: Observer> Env<'a, O> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_atom(
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
            let (st, sa) = self.lane_target(w, pc, l, space, base, off, kind, 1, n)?;
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
}
