//! Loops in the ACF builder: each loop met gets its [`LoopInfo`] (and its continue
//! predicate once the build is done), each register it carries a loop-variable atom `[φ]`,
//! then its initial and update values and, for an affine recurrence, the closed form
//! `init + [iter]·step`.

use super::*;

impl Builder<'_> {
    pub(super) fn loop_index(&mut self, ctx: usize, h: Block, l: Loop) -> u32 {
        if let Some(&i) = self.ctxs[ctx].loop_of_header.get(&h) {
            return i;
        }
        let idx = self.acf.loops.len() as u32;
        let zero = self.acf.konst(0);
        self.acf.loops.push(LoopInfo {
            ctx,
            header: h,
            lp: l,
            cont: zero,
            vars: Vec::new(),
            parent: None,
        });
        self.ctxs[ctx].loop_of_header.insert(h, idx);
        let fa = self.fa(ctx);
        if let Some(p) = fa.loops.get(l).parent {
            let ph = fa.loops.get(p).header;
            let pi = self.loop_index(ctx, ph, p);
            self.acf.loops[idx as usize].parent = Some(pi);
        }
        idx
    }

    /// Computes the continue predicate of every loop met so far (deferred: it reads the
    /// loop's own variables, which must exist first).
    pub fn finish(&mut self) {
        let mut done = 0;
        while done < self.acf.loops.len() {
            let li = done;
            done += 1;
            let (ctx, h, l) = {
                let info = &self.acf.loops[li];
                (info.ctx, info.header, info.lp)
            };
            let fa = self.fa(ctx);
            let latches = fa.loops.get(l).latches.clone();
            let mut cont = self.acf.konst(0);
            for lt in latches {
                let r = self.reach(ctx, h, lt);
                let e = self.edge_cond(ctx, lt, h);
                let re = self.acf.and(r, e);
                cont = self.acf.or(cont, re);
            }
            self.acf.loops[li].cont = cont;
        }
    }

    /// The atom of the loop-carried value of `reg` at header `h`, its initial and update
    /// values still to be built ([`Self::loop_var_values`]).
    pub(super) fn loop_var_atom(&mut self, ctx: usize, reg: Reg, h: Block, l: Loop) -> (Node, u32) {
        let li = self.loop_index(ctx, h, l);
        let vi = self.acf.loopvars.len() as u32;
        let zero = self.acf.konst(0);
        self.acf.loopvars.push(LoopVarInfo {
            loop_idx: li,
            reg,
            init: zero,
            update: zero,
            closed: None,
            step: None,
            td: false,
        });
        self.acf.loops[li as usize].vars.push(vi);
        let v = self.acf.atom(Atom::LoopVar(vi));
        self.ctxs[ctx].entry_memo.insert((reg, h), v);
        (v, vi)
    }

    /// Builds the initial and update values (and the closed form) of loop variable `vi`.
    pub(super) fn loop_var_values(&mut self, ctx: usize, reg: Reg, h: Block, l: Loop, vi: u32) {
        let li = self.acf.loopvars[vi as usize].loop_idx;
        let v = self.acf.atom(Atom::LoopVar(vi));
        // Initial value: from the non-latch predecessors.
        let init = self.merge_at(ctx, reg, h);
        // Update: from the latches.
        let fa = self.fa(ctx);
        let latches = fa.loops.get(l).latches.clone();
        let mut upd: Option<Node> = None;
        for lt in latches.iter().rev() {
            let val = self.value_at_end(ctx, reg, *lt);
            upd = Some(match upd {
                None => val,
                Some(rest) => {
                    let r = self.reach(ctx, h, *lt);
                    let e = self.edge_cond(ctx, *lt, h);
                    let c = self.acf.and(r, e);
                    self.acf.select(c, val, rest)
                }
            });
        }
        let update = upd.unwrap_or(v);
        // Affine recurrence: update = [phi] + step with step free of this loop's variables.
        let dp = self.acf.poly(update).sub(&self.acf.poly(v));
        let loop_vars: Vec<u32> = self.acf.loops[li as usize].vars.clone();
        let depends = |acf: &Acf, n: Node| -> bool {
            // Structural search for this loop's variables under `n`.
            let mut stack = vec![n];
            let mut seen = FxHashSet::default();
            while let Some(x) = stack.pop() {
                if !seen.insert(x) {
                    continue;
                }
                if let Kind::Atom(Atom::LoopVar(w)) = acf.kind(x)
                    && loop_vars.contains(&w)
                {
                    return true;
                }
                if let Kind::Atom(Atom::LoopVar(_)) = acf.kind(x) {
                    continue;
                }
                stack.extend(acf.children(x));
            }
            false
        };
        // An initial value that reads the loop's own variables (only in flow that enters the
        // loop around its header, as mutated input does) has no closed form: it would refer
        // to itself.
        let affine = !dp.mentions(|a| depends(&self.acf, a)) && !depends(&self.acf, init);
        let (closed, step) = if affine && update != v {
            let step = self.acf.from_poly(&dp);
            let it = self.acf.atom(Atom::Iter(li));
            let m = self.acf.mul(it, step);
            (Some(self.acf.add(init, m)), Some(step))
        } else {
            (None, None)
        };
        let info = &mut self.acf.loopvars[vi as usize];
        info.init = init;
        info.update = update;
        info.closed = closed;
        info.step = step;
    }
}
