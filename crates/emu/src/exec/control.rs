//! Control flow and calls: divergent branches push SIMT-stack entries that pop at the
//! reconvergence pc, calls push frames (translated by `translate::control`).

#![allow(clippy::needless_range_loop)]

use super::*;

/// A two-way branch from `pc` to `t` (fall-through `fall`) taken by the `taken` lanes of
/// `active`: the next pc when the warp stays converged, or None after pushing both paths on
/// the SIMT stack with the current entry waiting at reconvergence pc `r`.
#[inline(always)]
pub(super) fn diverge(
    w: &mut Warp,
    active: u32,
    taken: u32,
    t: u32,
    fall: u32,
    r: u32,
) -> Option<u32> {
    let nt = active & !taken;
    if nt == 0 {
        return Some(t);
    }
    if taken == 0 {
        return Some(fall);
    }
    // Divergence: the current entry waits at the reconvergence point.
    let top = w.stack.len() - 1;
    w.stack[top].pc = r;
    w.stack.push(Entry {
        pc: t,
        rpc: r,
        mask: taken,
    });
    w.stack.push(Entry {
        pc: fall,
        rpc: r,
        mask: nt,
    });
    None
}

/// `ret` by the `exec` lanes: they leave every entry of the current call.
#[inline(always)]
pub(super) fn ret(w: &mut Warp, pc: u32, exec: u32) {
    let base = w.frames.last().map_or(0, |f| f.stack_base as usize);
    let top = w.stack.len() - 1;
    w.stack[top].pc = pc + 1;
    for e in &mut w.stack[base..] {
        e.mask &= !exec;
    }
}

impl<'a, O: Observer> Env<'a, O> {
    /// `Op::ReadClock`: `now` is the SM's cycle count (one per issued warp instruction).
    #[inline(always)]
    pub(super) fn read_clock(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        now: u64,
        d: R,
        kind: Clock,
    ) {
        let c = now;
        let v = match kind {
            Clock::Clock => c & 0xffff_ffff,
            Clock::ClockHi => (c >> 32) & 0xffff_ffff,
            Clock::Clock64 => c,
            Clock::GlobalTimer => c,
            Clock::GlobalTimerLo => c & 0xffff_ffff,
            Clock::GlobalTimerHi => c >> 32,
        };
        wr(&mut w.regs[rb + d as usize], &[v; 32], exec);
    }

    /// `Op::Brx`: the next pc when every lane goes to the same target, or None after
    /// pushing one SIMT-stack entry per target.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn brx(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pc: u32,
        exec: u32,
        active: u32,
        a: R,
        table: &[u32],
        r: u32,
    ) -> Result<Option<u32>, Fault> {
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
        let idx = w.regs[rb + a as usize];
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
                        what: format!("brx.idx index {i} outside its {}-entry table", table.len()),
                    },
                ));
            };
            match groups.iter_mut().find(|g| g.0 == tpc) {
                Some(g) => g.1 |= 1 << l,
                None => groups.push((tpc, 1 << l)),
            }
        }
        if groups.len() == 1 {
            return Ok(Some(groups[0].0));
        }
        let top = w.stack.len() - 1;
        w.stack[top].pc = r;
        for g in groups.iter().rev() {
            w.stack.push(Entry {
                pc: g.0,
                rpc: r,
                mask: g.1,
            });
        }
        Ok(None)
    }

    /// `Op::Call` with every active lane calling: runs a built-in in place (false) or
    /// enters the callee (true; the warp continues in its first entry).
    #[inline(always)]
    pub(super) fn call(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        rb: usize,
        pc: u32,
        exec: u32,
        info: &CallInfo,
    ) -> Result<bool, Fault> {
        match info.callee {
            Callee::Builtin(b) => {
                self.builtin(w, shared, pc, exec, b, info)?;
                Ok(false)
            }
            Callee::Func(idx) => {
                self.do_call(w, pc, exec, idx, info)?;
                Ok(true)
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
                            detail: "lanes of the warp call different functions".into(),
                        },
                    ));
                }
                let idx = first.wrapping_sub(FUNC_WINDOW) / 16;
                if first < FUNC_WINDOW
                    || !(first - FUNC_WINDOW).is_multiple_of(16)
                    || idx >= self.prog.funcs.len() as u64
                {
                    return Err(self.fault(
                        w,
                        pc,
                        exec.trailing_zeros(),
                        FaultKind::BadIndirectCall {
                            detail: format!("{first:#x} is not the address of a function"),
                        },
                    ));
                }
                self.do_call(w, pc, exec, idx as u32, info)?;
                Ok(true)
            }
        }
    }

    /// Returns from a call: copies return values to the caller and restores its context.
    pub(super) fn finish_call(&mut self, w: &mut Warp, fr: Frame) {
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

    /// Enters a device function.
    pub(super) fn do_call(
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
}
