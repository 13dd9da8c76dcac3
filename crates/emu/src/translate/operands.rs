//! Emitting ops and turning IR operands into registers: destinations, sources (immediates
//! become constant registers), predicates with their negation, temporaries. Shared by every
//! family module.

use super::*;

impl FnTranslator<'_, '_> {
    pub(super) fn emit_g(&mut self, op: Op, guard: Guard) {
        let d = &self.f.insts[self.cur_inst];
        let loc = d.loc.map(|l| (l.file, l.line));
        let inlined_at = d.loc.and_then(|l| l.inlined_at).map(|(f, l, _)| (f, l));
        self.ops.push(Instr { op, guard });
        self.meta.push(OpMeta {
            inst: self.cur_inst,
            block: self.cur_block,
        });
        self.sites.push(OpSite {
            line: if self.ctx.opts.source.is_some() {
                self.ctx.lines.line(d.span.start)
            } else {
                0
            },
            span: (d.span.start, d.span.end),
            loc,
            inlined_at,
        });
    }

    pub(super) fn emit(&mut self, op: Op) {
        let g = self.guard();
        self.emit_g(op, g);
    }

    /// Emits `op`, which writes `d`, unless `d` is the sink `_` (NONE).
    pub(super) fn emit_def(&mut self, d: u32, op: Op) {
        if d != NONE {
            self.emit(op);
        }
    }

    pub(super) fn emit_plain(&mut self, op: Op) {
        self.emit_g(op, Guard::ALWAYS);
    }

    pub(super) fn guard(&self) -> Guard {
        match self.f.insts[self.cur_inst].guard {
            None => Guard::ALWAYS,
            Some(g) => {
                let (is_pred, i) = self.reg_map[g.reg.index()];
                debug_assert!(is_pred);
                Guard(i | if g.negated { Guard::NEG } else { 0 })
            }
        }
    }

    pub(super) fn temp(&mut self) -> R {
        let r = self.nregs;
        self.nregs += 1;
        r
    }

    pub(super) fn temp_pred(&mut self) -> P {
        let r = self.npreds;
        self.npreds += 1;
        r
    }

    pub(super) fn konst(&mut self, v: u64) -> R {
        if let Some(&r) = self.consts.get(&v) {
            return r;
        }
        let r = self.temp();
        self.consts.insert(v, r);
        self.const_list.push((r, v));
        r
    }

    pub(super) fn warp_const(&mut self, c: WarpConst) -> R {
        if let Some(&r) = self.warp_consts.get(&c) {
            return r;
        }
        let r = self.temp();
        self.warp_consts.insert(c, r);
        self.warp_const_list.push((r, c));
        r
    }

    pub(super) fn pconst(&mut self, v: bool) -> P {
        if let Some(p) = self.pred_consts[usize::from(v)] {
            return p;
        }
        let p = self.temp_pred();
        self.pred_consts[usize::from(v)] = Some(p);
        // Emitted at the function entry: prepend is not possible, so use an unguarded op at
        // the use site instead (cheap and always correct).
        p
    }

    pub(super) fn reg(&self, r: Reg) -> TResult<R> {
        match self.reg_map.get(r.index()) {
            Some(&(false, i)) => Ok(i),
            Some(&(true, _)) => Err(format!(
                "predicate `{}` used where a data register is expected",
                self.f.regs[r].name
            )),
            None => Err("unknown register".into()),
        }
    }

    pub(super) fn pred(&self, r: Reg) -> TResult<P> {
        match self.reg_map.get(r.index()) {
            Some(&(true, i)) => Ok(i),
            Some(&(false, _)) => Err(format!(
                "`{}` is not a predicate register",
                self.f.regs[r].name
            )),
            None => Err("unknown register".into()),
        }
    }

    pub(super) fn reg_bits(&self, r: Reg) -> u8 {
        let rd = &self.f.regs[r];
        (rd.ty.size_bytes() * 8).min(64) as u8
    }

    /// Destination data register (NONE for `_`).
    pub(super) fn dst(&self, op: &Operand) -> TResult<R> {
        match op {
            Operand::Reg(r) => self.reg(*r),
            Operand::Sink => Ok(NONE),
            other => Err(format!("unsupported destination operand {other:?}")),
        }
    }

    pub(super) fn dst_pred(&self, op: &Operand) -> TResult<P> {
        match op {
            Operand::Reg(r) => self.pred(*r),
            Operand::Sink => Ok(NONE),
            other => Err(format!("unsupported predicate destination {other:?}")),
        }
    }

    /// A predicate source: (predicate, negated).
    pub(super) fn src_pred(&mut self, op: &Operand) -> TResult<(P, bool)> {
        match op {
            Operand::Reg(r) => Ok((self.pred(*r)?, false)),
            Operand::Not(r) => Ok((self.pred(*r)?, true)),
            Operand::Imm(v) => {
                let p = self.materialize_pconst(*v != 0);
                Ok((p, false))
            }
            Operand::UImm(v) => {
                let p = self.materialize_pconst(*v != 0);
                Ok((p, false))
            }
            other => Err(format!("unsupported predicate operand {other:?}")),
        }
    }

    pub(super) fn materialize_pconst(&mut self, v: bool) -> P {
        let p = self.pconst(v);
        self.emit_plain(Op::PConst { p, v });
        p
    }

    pub(super) fn imm_bits(v: i128, k: K) -> u64 {
        match k {
            K::I(w) => (v as u64) & mask(w),
            K::F16 => float::int_to_fmt(v, float::F16, Rnd::Rn),
            K::Bf16 => float::int_to_fmt(v, float::BF16, Rnd::Rn),
            K::F32 => float::int_to_fmt(v, float::F32, Rnd::Rn),
            K::F64 => float::int_to_f64(v, Rnd::Rn).to_bits(),
        }
    }

    /// A data source of kind `k`.
    pub(super) fn src(&mut self, op: &Operand, k: K) -> TResult<R> {
        Ok(match op {
            Operand::Reg(r) => self.reg(*r)?,
            Operand::Imm(v) => {
                let b = Self::imm_bits(i128::from(*v), k);
                self.konst(b)
            }
            Operand::UImm(v) => {
                let b = Self::imm_bits(i128::from(*v), k);
                self.konst(b)
            }
            Operand::F32(bits) => {
                let x = f32::from_bits(*bits);
                let b = match k {
                    K::I(w) => u64::from(*bits) & mask(w),
                    K::F32 => u64::from(*bits),
                    K::F64 => f64::from(x).to_bits(),
                    K::F16 => float::round_to(float::F16, f64::from(x), 0, Rnd::Rn),
                    K::Bf16 => float::round_to(float::BF16, f64::from(x), 0, Rnd::Rn),
                };
                self.konst(b)
            }
            Operand::F64(bits) => {
                let x = f64::from_bits(*bits);
                let b = match k {
                    K::I(w) => *bits & mask(w),
                    K::F32 => u64::from((x as f32).to_bits()),
                    K::F64 => *bits,
                    K::F16 => float::round_to(float::F16, x, 0, Rnd::Rn),
                    K::Bf16 => float::round_to(float::BF16, x, 0, Rnd::Rn),
                };
                self.konst(b)
            }
            Operand::Special(sr, dim) => match WarpConst::of(*sr, *dim) {
                Some(c) => self.warp_const(c),
                None => {
                    let kind = match sr {
                        SpecialReg::Clock => Clock::Clock,
                        SpecialReg::ClockHi => Clock::ClockHi,
                        SpecialReg::Clock64 => Clock::Clock64,
                        SpecialReg::Globaltimer => Clock::GlobalTimer,
                        SpecialReg::GlobaltimerLo => Clock::GlobalTimerLo,
                        SpecialReg::GlobaltimerHi => Clock::GlobalTimerHi,
                        other => return Err(format!("special register {other} is not supported")),
                    };
                    let t = self.temp();
                    self.emit_plain(Op::ReadClock { d: t, kind });
                    t
                }
            },
            Operand::Global(g) => {
                let a = self.global_address(*g, None)?;
                self.konst(a)
            }
            Operand::Local(l) => {
                let v = &self.f.locals[*l];
                if v.space.is_shared() {
                    let off = self.shared_offset(SharedKey::Local(self.fid, *l))?;
                    self.konst(off)
                } else {
                    let slot = self.local_slots[l];
                    let t = self.temp();
                    self.emit_plain(Op::LocalAddr {
                        d: t,
                        off: slot.off,
                    });
                    t
                }
            }
            Operand::Param(i) => {
                if self.is_kernel {
                    let off = self
                        .ctx
                        .param_layout
                        .get(*i as usize)
                        .ok_or("bad parameter index")?
                        .0;
                    self.konst(u64::from(off))
                } else {
                    let slot =
                        self.param_slots[*i as usize].ok_or("address of a .reg parameter taken")?;
                    let t = self.temp();
                    self.emit_plain(Op::LocalAddr {
                        d: t,
                        off: slot.off,
                    });
                    t
                }
            }
            Operand::Func(fid) => {
                let idx = self
                    .ctx
                    .index
                    .get(fid)
                    .ok_or("address of a function with no body")?;
                self.konst(FUNC_WINDOW + 16 * u64::from(*idx))
            }
            other => return Err(format!("unsupported source operand {other:?}")),
        })
    }
}
