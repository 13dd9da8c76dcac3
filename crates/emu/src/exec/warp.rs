//! Warp-wide operations: `shfl`, `vote`, `match`, `redux`, `activemask`, `elect`
//! and barrier arrival (translated by `translate::warp`; the SM completes barriers).

#![allow(clippy::needless_range_loop)]

use super::*;

/// For each lane of `exec`, the lanes of `exec` its membermask names (itself included, as
/// a lane executing a `.sync` warp instruction must be in its own mask).
#[inline]
pub(super) fn member_groups(masks: &[u64; 32], exec: u32) -> [u32; 32] {
    let mut g = [0u32; 32];
    for l in lanes(exec) {
        g[l] = (masks[l] as u32 & exec) | (1 << l);
    }
    g
}

impl<'a, O: Observer> Env<'a, O> {
    /// `Op::Shfl`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn shfl(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        mode: ShflMode,
        d: R,
        p: P,
        a: R,
        b: R,
        c: R,
    ) {
        if exec != 0 {
            let r = &w.regs[rb..];
            let src = r[a as usize];
            let bv = r[b as usize];
            let cv = r[c as usize];
            let mut out = [0u64; 32];
            let mut pbits = 0u32;
            for l in lanes(exec) {
                let lane = l as u32;
                let bb = bv[l] as u32 & 31;
                let cc = cv[l] as u32;
                let clamp = cc & 0x1f;
                let seg = (cc >> 8) & 0x1f;
                let max_lane = (lane & seg) | (clamp & !seg);
                let min_lane = lane & seg;
                let (j, ok) = match mode {
                    ShflMode::Up => {
                        let j = lane as i32 - bb as i32;
                        (j, j >= max_lane as i32)
                    }
                    ShflMode::Down => {
                        let j = (lane + bb) as i32;
                        (j, j <= max_lane as i32)
                    }
                    ShflMode::Bfly => {
                        let j = (lane ^ bb) as i32;
                        (j, j <= max_lane as i32)
                    }
                    ShflMode::Idx => {
                        let j = (min_lane | (bb & !seg)) as i32;
                        (j, j <= max_lane as i32)
                    }
                };
                let j = if ok && (0..32).contains(&j) {
                    j as usize
                } else {
                    l
                };
                out[l] = src[j];
                if ok {
                    pbits |= 1 << l;
                }
            }
            if d != NONE {
                wr(&mut w.regs[rb + d as usize], &out, exec);
            }
            wr_pred(&mut w.preds[pb..], p, pbits, exec);
        }
    }

    /// `Op::Vote`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn vote(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        f: VoteF,
        d: u32,
        a: P,
        neg: bool,
        mask: R,
    ) {
        if exec != 0 {
            let pv = rd_pred(&w.preds[pb..], a, neg);
            let groups = member_groups(&w.regs[rb + mask as usize], exec);
            let mut out = [0u64; 32];
            let mut t = 0u32;
            for l in lanes(exec) {
                let g = groups[l];
                let ballot = pv & g;
                out[l] = u64::from(ballot);
                let v = match f {
                    VoteF::All => ballot == g,
                    VoteF::Any => ballot != 0,
                    VoteF::Uni => ballot == g || ballot == 0,
                    VoteF::Ballot => false,
                };
                t |= u32::from(v) << l;
            }
            if d != NONE {
                if f == VoteF::Ballot {
                    wr(&mut w.regs[rb + d as usize], &out, exec);
                } else {
                    wr_pred(&mut w.preds[pb..], d, t, exec);
                }
            }
        }
    }

    /// `Op::Match`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn match_sync(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        all: bool,
        w64: bool,
        d: R,
        p: P,
        a: R,
        mask: R,
    ) {
        if exec != 0 {
            let x = w.regs[rb + a as usize];
            let groups = member_groups(&w.regs[rb + mask as usize], exec);
            let val = |l: usize| if w64 { x[l] } else { zx(x[l], 32) };
            let mut out = [0u64; 32];
            let mut same_bits = 0u32;
            for l in lanes(exec) {
                let g = groups[l];
                let mut m = 0u32;
                for k in lanes(g) {
                    if val(k) == val(l) {
                        m |= 1 << k;
                    }
                }
                if all {
                    let same = m == g;
                    out[l] = if same { u64::from(g) } else { 0 };
                    same_bits |= u32::from(same) << l;
                } else {
                    out[l] = u64::from(m);
                }
            }
            if d != NONE {
                wr(&mut w.regs[rb + d as usize], &out, exec);
            }
            wr_pred(&mut w.preds[pb..], p, same_bits, exec);
        }
    }

    /// `Op::Redux`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn redux(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        f: ReduxF,
        d: R,
        a: R,
        mask: R,
    ) {
        if exec != 0 {
            let x = w.regs[rb + a as usize];
            let groups = member_groups(&w.regs[rb + mask as usize], exec);
            let mut out = [0u64; 32];
            for l in lanes(exec) {
                let mut acc: Option<u32> = None;
                for k in lanes(groups[l]) {
                    let v = x[k] as u32;
                    acc = Some(match acc {
                        None => v,
                        Some(s) => match f {
                            ReduxF::Add => s.wrapping_add(v),
                            ReduxF::MinU => s.min(v),
                            ReduxF::MaxU => s.max(v),
                            ReduxF::MinS => (s as i32).min(v as i32) as u32,
                            ReduxF::MaxS => (s as i32).max(v as i32) as u32,
                            ReduxF::And => s & v,
                            ReduxF::Or => s | v,
                            ReduxF::Xor => s ^ v,
                        },
                    });
                }
                out[l] = u64::from(acc.unwrap_or(0));
            }
            wr(&mut w.regs[rb + d as usize], &out, exec);
        }
    }

    /// `Op::Activemask`.
    #[inline(always)]
    pub(super) fn activemask(&mut self, w: &mut Warp, rb: usize, exec: u32, active: u32, d: R) {
        if d != NONE {
            wr(&mut w.regs[rb + d as usize], &[u64::from(active); 32], exec);
        }
    }

    /// `Op::Elect`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn elect(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        d: R,
        p: P,
        mask: R,
    ) {
        if exec != 0 {
            let groups = member_groups(&w.regs[rb + mask as usize], exec);
            let mut out = [0u64; 32];
            let mut leaders = 0u32;
            for l in lanes(exec) {
                let leader = groups[l].trailing_zeros();
                out[l] = u64::from(leader);
                leaders |= u32::from(leader == l as u32) << l;
            }
            if d != NONE {
                wr(&mut w.regs[rb + d as usize], &out, exec);
            }
            wr_pred(&mut w.preds[pb..], p, leaders, exec);
        }
    }

    /// `Op::Bar` by the `exec` lanes (not none): the warp's arrival, or a fault when some
    /// live lanes did not arrive or the barrier id is out of range.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn bar_arrival(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        pc: u32,
        exec: u32,
        kind: BarKind,
        id: R,
        count: R,
        d: u32,
        a: P,
        neg: bool,
    ) -> Result<BarArrival, Fault> {
        let live = w.info.lanes & !w.exited;
        let first = exec.trailing_zeros() as usize;
        let idv = w.regs[rb + id as usize][first] as u32;
        if exec != live {
            let lane = (live & !exec).trailing_zeros();
            return Err(self.fault(
                w,
                pc,
                lane,
                FaultKind::DivergentBarrier {
                    barrier: idv,
                    arrived: exec,
                    live,
                },
            ));
        }
        if idv >= 16 {
            return Err(self.fault(
                w,
                pc,
                first as u32,
                FaultKind::Unsupported {
                    what: format!("barrier id {idv} (PTX allows 0..15)"),
                },
            ));
        }
        let cnt = (count != NONE).then(|| w.regs[rb + count as usize][first] as u32);
        let pv = if a != NONE {
            (rd_pred(&w.preds[pb..], a, neg)) & exec
        } else {
            0
        };
        let dabs = if d == NONE {
            NONE
        } else if kind == BarKind::RedPopc {
            rb as u32 + d
        } else {
            pb as u32 + d
        };
        Ok(BarArrival {
            kind,
            id: idv,
            count: cnt,
            contrib: pv.count_ones(),
            all_true: pv == exec,
            d: dabs,
            lanes: exec,
            func: w.func,
            pc,
        })
    }
}
