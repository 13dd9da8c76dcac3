//! Atomics and reductions to memory: `atom` and `red` (executed by `exec::atomic`).

use super::*;

impl FnTranslator<'_, '_> {
    pub(super) fn atom(&mut self, is_red: bool) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let m = d.mods;
        let ops = d.operands.clone();
        let t = self.ty()?;
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
}
