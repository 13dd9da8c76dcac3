//! Control flow and calls: `bra`, `brx.idx`, `call`, `ret`, `exit`, `trap` (executed by
//! `exec::control`). Branch targets and reconvergence points are filled in by the driver
//! (`FnTranslator::run`) once every block has its first pc.

use super::*;

pub(super) enum ArgSrc {
    Mem(u32, u64),
    Reg(R),
}

impl FnTranslator<'_, '_> {
    /// `bra`.
    pub(super) fn bra(&mut self) -> TResult<()> {
        let d = self.cur();
        let ops = &d.operands;
        let Some(Operand::Label(t)) = ops.first() else {
            return Err("bra needs a label".into());
        };
        let t = t.as_u32();
        if d.guard.is_some() {
            let g = self.guard();
            let p = g.0 & !Guard::NEG;
            let neg = g.0 & Guard::NEG != 0;
            self.emit_plain(Op::BraCond { p, neg, t, rpc: 0 });
        } else {
            self.emit_plain(Op::Bra { t });
        }
        Ok(())
    }

    /// `brxidx`.
    pub(super) fn brx_idx(&mut self) -> TResult<()> {
        let d = self.cur();
        let opn = |i: usize| operand(d, i);
        let a = self.src(opn(0)?, K::I(W::B32))?;
        let tbl = match opn(1)? {
            Operand::JumpTable(t) => *t,
            _ => return Err("brx.idx needs a .branchtargets table".into()),
        };
        let table: Box<[u32]> = self
            .f
            .jump_tables
            .get(tbl as usize)
            .ok_or("unknown jump table")?
            .iter()
            .map(|b| b.as_u32())
            .collect();
        self.emit(Op::Brx { a, table, rpc: 0 });
        Ok(())
    }

    /// `ret`.
    pub(super) fn ret(&mut self) -> TResult<()> {
        self.emit(if self.is_kernel { Op::Exit } else { Op::Ret });
        Ok(())
    }

    /// `exit`.
    pub(super) fn exit(&mut self) -> TResult<()> {
        self.emit(Op::Exit);
        Ok(())
    }

    /// `trap`, `brkpt`.
    pub(super) fn trap(&mut self) -> TResult<()> {
        self.emit(Op::Trap);
        Ok(())
    }

    pub(super) fn call(&mut self) -> TResult<()> {
        let d = &self.f.insts[self.cur_inst];
        let ops = d.operands.clone();
        let (rets, rest): (&[Operand], &[Operand]) = match ops.first() {
            Some(Operand::List(r)) => (r, &ops[1..]),
            _ => (&[], &ops[..]),
        };
        let target = rest.first().ok_or("call needs a target")?;
        let args: &[Operand] = match rest.get(1) {
            Some(Operand::List(a)) => a,
            _ => &[],
        };
        let (callee, callee_f) = match target {
            Operand::Func(fid) => {
                let cf = &self.ctx.module.funcs[*fid];
                if let Some(b) = builtin_of(&cf.name) {
                    (Callee::Builtin(b), Some(cf))
                } else if cf.is_declaration {
                    return Err(format!(
                        "call to `{}`, which has no body in this module (extern functions other \
                         than vprintf and __assertfail are not supported)",
                        cf.name
                    ));
                } else {
                    (Callee::Func(self.ctx.index[fid]), Some(cf))
                }
            }
            Operand::Reg(r) => (Callee::Indirect(self.reg(*r)?), None),
            other => return Err(format!("unsupported call target {other:?}")),
        };
        // Caller-side storage of each argument / return.
        let mut arg_offsets = Vec::new();
        let mut arg_srcs = Vec::new();
        for a in args {
            match a {
                Operand::Local(l) => {
                    let slot = self
                        .local_slots
                        .get(l)
                        .ok_or("call argument is not a .param variable")?;
                    arg_offsets.push(slot.off);
                    arg_srcs.push(ArgSrc::Mem(slot.off, self.f.locals[*l].size.unwrap_or(0)));
                }
                o => {
                    let r = self.src(o, K::I(W::B64))?;
                    arg_offsets.push(u32::MAX);
                    arg_srcs.push(ArgSrc::Reg(r));
                }
            }
        }
        let mut ret_dsts = Vec::new();
        for r in rets {
            match r {
                Operand::Local(l) => {
                    let slot = self
                        .local_slots
                        .get(l)
                        .ok_or("call return is not a .param variable")?;
                    ret_dsts.push(ArgSrc::Mem(slot.off, self.f.locals[*l].size.unwrap_or(0)));
                }
                Operand::Reg(x) => ret_dsts.push(ArgSrc::Reg(self.reg(*x)?)),
                other => return Err(format!("unsupported call return {other:?}")),
            }
        }
        let ret_offset = match ret_dsts.first() {
            Some(ArgSrc::Mem(o, _)) => Some(*o),
            _ => None,
        };
        let mut xargs = Vec::new();
        let mut xrets = Vec::new();
        if let (Callee::Func(idx), Some(cf)) = (callee, callee_f) {
            // Callee layout: the same order FnTranslator::run uses.
            let layout = callee_layout(cf);
            let _ = idx;
            if args.len() != cf.params.len() || rets.len() != cf.returns.len() {
                return Err(format!(
                    "call to `{}` passes {} arguments and {} returns; it has {} and {}",
                    cf.name,
                    args.len(),
                    rets.len(),
                    cf.params.len(),
                    cf.returns.len()
                ));
            }
            for (i, src) in arg_srcs.iter().enumerate() {
                let (slot, reg) = layout.params[i];
                xargs.push(match (src, slot, reg) {
                    (ArgSrc::Mem(o, sz), Some(co), _) => Xfer::Mem {
                        caller_off: *o,
                        callee_off: co,
                        size: (*sz).min(cf.params[i].size) as u32,
                    },
                    (ArgSrc::Reg(r), _, Some(cr)) => Xfer::Reg {
                        caller: *r,
                        callee: cr,
                    },
                    _ => {
                        return Err(format!(
                            "argument {} of `{}` mixes .param and .reg passing",
                            i, cf.name
                        ));
                    }
                });
            }
            for (i, dst) in ret_dsts.iter().enumerate() {
                let (slot, reg) = layout.returns[i];
                xrets.push(match (dst, slot, reg) {
                    (ArgSrc::Mem(o, sz), Some(co), _) => Xfer::Mem {
                        caller_off: *o,
                        callee_off: co,
                        size: (*sz).min(cf.returns[i].size) as u32,
                    },
                    (ArgSrc::Reg(r), _, Some(cr)) => Xfer::RegBack {
                        callee: cr,
                        caller: *r,
                    },
                    _ => {
                        return Err(format!(
                            "return {} of `{}` mixes .param and .reg passing",
                            i, cf.name
                        ));
                    }
                });
            }
        } else if let Callee::Indirect(_) = callee {
            // Arguments are copied by the callee's layout at run time: record sources only.
            for src in &arg_srcs {
                if let ArgSrc::Mem(o, sz) = src {
                    xargs.push(Xfer::Mem {
                        caller_off: *o,
                        callee_off: u32::MAX,
                        size: *sz as u32,
                    });
                } else {
                    return Err("indirect calls with .reg arguments are not supported".into());
                }
            }
            for dst in &ret_dsts {
                if let ArgSrc::Mem(o, sz) = dst {
                    xrets.push(Xfer::Mem {
                        caller_off: *o,
                        callee_off: u32::MAX,
                        size: *sz as u32,
                    });
                } else {
                    return Err("indirect calls with .reg returns are not supported".into());
                }
            }
        }
        self.emit(Op::Call(Box::new(CallInfo {
            callee,
            args: xargs.into_boxed_slice(),
            rets: xrets.into_boxed_slice(),
            arg_offsets: arg_offsets.into_boxed_slice(),
            ret_offset,
        })));
        Ok(())
    }
}
