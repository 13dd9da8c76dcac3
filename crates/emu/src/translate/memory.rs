//! Memory and address spaces: `ld`/`st`, `cp.async`, `cvta`, `isspacep`, memory hints,
//! and the resolution of address operands to (space, base, offset) (executed by `exec::memory`).

use super::*;

impl FnTranslator<'_, '_> {
    /// The named space of a `cvta` or `isspacep` (`what` says which in the error): one with a
    /// window in the generic address space.
    fn window_space(&self, what: &str) -> TResult<Space> {
        Ok(match self.cur().mods.space {
            Some(StateSpace::Global) => Space::Global,
            Some(s) if s.is_shared() => Space::Shared,
            Some(StateSpace::Local) => Space::Local,
            Some(StateSpace::Const) => Space::Const,
            Some(s) if s.is_param() => Space::Param,
            other => return Err(format!("{what} {other:?} is not supported")),
        })
    }

    /// `cvta`.
    pub(super) fn cvta(&mut self) -> TResult<()> {
        let d = self.cur();
        let ty = d.mods.ty;
        let fl = d.mods.flags;
        let opn = |i: usize| operand(d, i);
        let space = self.window_space("cvta to")?;
        let t = ty.unwrap_or(Type::U64);
        let dd = self.dst(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(W::B64))?;
        self.emit_def(
            dd,
            Op::Cvta {
                d: dd,
                a,
                to_generic: !fl.contains(Flags::TO),
                space,
                narrow: t.size_bytes() == 4,
            },
        );
        Ok(())
    }

    /// `isspacep`.
    pub(super) fn isspacep(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let space = self.window_space("isspacep")?;
        let p = self.dst_pred(opn(0)?)?;
        let a = self.src(opn(1)?, K::I(W::B64))?;
        self.emit_def(p, Op::Isspacep { p, a, space });
        Ok(())
    }

    /// `cpasynccommitgroup`, `cpasyncwaitgroup`, `cpasyncwaitall`.
    pub(super) fn async_wait(&mut self) -> TResult<()> {
        // Copies complete when issued, so there is nothing to wait for.
        self.emit(Op::Sleep);
        Ok(())
    }

    /// `prefetch`, `prefetchu`, `membar`, `fence`, `nanosleep`, `pmevent`, `discard`, `applypriority`.
    pub(super) fn no_effect(&mut self) -> TResult<()> {
        self.emit(Op::Sleep);
        Ok(())
    }

    /// `createpolicy`.
    pub(super) fn createpolicy(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let dd = self.dst(opn(0)?)?;
        let z = self.konst(0);
        self.emit_def(dd, Op::Mov { d: dd, a: z });
        Ok(())
    }

    pub(super) fn mem_space(&self) -> TResult<Space> {
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

    /// The type, space and vector width of the current `ld`/`st` (`what`), checking that the
    /// element size is one the emulator moves.
    fn access_shape(&self, what: &str) -> TResult<(Type, Space, u8)> {
        let m = self.cur().mods;
        let t = self.ty()?;
        if !matches!(t.size_bytes(), 1 | 2 | 4 | 8) {
            return Err(format!("{what}.{t} is not supported"));
        }
        Ok((t, self.mem_space()?, m.vec.max(1)))
    }

    pub(super) fn ld(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let (t, space, vec) = self.access_shape("ld")?;
        let size = t.size_bytes();
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

    pub(super) fn st(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let (t, space, vec) = self.access_shape("st")?;
        let size = t.size_bytes();
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

    pub(super) fn cp_async(&mut self) -> TResult<()> {
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

    pub(super) fn shared_offset(&self, k: SharedKey) -> TResult<u64> {
        self.ctx
            .shared_off
            .get(&k)
            .copied()
            .ok_or_else(|| "shared variable missing from layout".to_string())
    }

    /// Address of module variable `g` in `space` (None: its own space's address, as `mov`
    /// gives it).
    pub(super) fn global_address(&self, g: GlobalId, space: Option<Space>) -> TResult<u64> {
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
    pub(super) fn address(&mut self, op: &Operand, space: Space) -> TResult<(Space, Base, i64)> {
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
}
