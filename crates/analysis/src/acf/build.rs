//! Building the ACF from the IR: the [`Builder`] follows registers backwards through blocks,
//! joins (path predicates), predicated writes, loop headers (loop-carried atoms and closed
//! forms, in `build/loops.rs`) and calls (k-limited contexts), and names the branch and
//! access sites it found.

use super::*;

mod loops;
mod spaces;

/// One calling context: a function with its parameters bound to the caller's expressions.
#[derive(Debug, Clone)]
pub struct Ctx {
    pub func: FuncId,
    /// Parameter bindings (`None`: unbound, a kernel parameter).
    pub bindings: Vec<Option<Node>>,
    /// The calling context and call instruction.
    pub parent: Option<(usize, Inst)>,
    pub depth: u32,
    /// Which parameters are thread-dependent (for the uniformity results of this context).
    pub td_mask: u64,
    /// Lanes reach this context's entry when this holds (the caller's path predicate).
    pub prefix: Node,
    entry_memo: FxHashMap<(Reg, Block), Node>,
    def_memo: FxHashMap<(Inst, Reg), Node>,
    reach_memo: FxHashMap<(Block, Block), Node>,
    loop_of_header: FxHashMap<Block, u32>,
    in_progress: FxHashSet<(Reg, Block)>,
    /// Registers each loop writes (built once per loop on first question).
    loop_writes: FxHashMap<Loop, FxHashSet<Reg>>,
    /// Per block, the positions at which each register is written, ascending (built once per
    /// block): finding the definition before a position is a search, not a scan, which
    /// made large straight-line blocks quadratic.
    block_writes: FxHashMap<Block, FxHashMap<Reg, Vec<u32>>>,
    /// The incoming edges of each join (the same for every register merged there).
    incoming_memo: FxHashMap<Block, Incoming>,
    children: FxHashMap<Inst, usize>,
    pos: SecondaryMap<Inst, u32>,
}

/// The incoming edges of a join, grouped: (condition, predecessors, loop exited).
type Incoming = Vec<(Node, Vec<Block>, Option<u32>)>;

/// A conditional branch to classify.
#[derive(Debug, Clone, Copy)]
pub struct BranchSite {
    pub ctx: usize,
    pub inst: Inst,
    pub block: Block,
    /// Lanes take the branch (or leave, for a guarded return) when this holds.
    pub cond: Node,
    /// Lanes reach the branch when this holds.
    pub active: Node,
    /// Whether the branch is a loop's exit or back edge.
    pub loop_exit: bool,
}

/// Load, store or atomic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    Atomic,
}

/// A memory access to measure.
#[derive(Debug, Clone, Copy)]
pub struct AccessSite {
    pub ctx: usize,
    pub inst: Inst,
    pub block: Block,
    pub addr: Node,
    pub space: StateSpace,
    /// Bytes accessed per lane (element size times vector width).
    pub size: u32,
    pub kind: AccessKind,
    pub active: Node,
    /// The address rebuilt from its canonical polynomial where that cancels an operand
    /// ([`Acf::cancelled_form`]): measured instead when the address itself cannot be
    /// evaluated per lane.
    pub addr_cancelled: Option<Node>,
}

/// Maximum call depth expanded by IACF.
pub const MAX_DEPTH: u32 = 4;
/// Maximum number of contexts per callee (k-limiting).
pub const MAX_CONTEXTS: usize = 8;

/// Builds the ACF of a kernel and of its callees in context.
pub struct Builder<'m> {
    pub module: &'m Module,
    pub analyses: &'m SecondaryMap<FuncId, FunctionAnalyses>,
    pub controls: &'m SecondaryMap<FuncId, ControlInfo>,
    pub acf: Acf,
    pub ctxs: Vec<Ctx>,
    /// TD-parameter mask of a callee given its argument nodes (from the uniformity results).
    pub td_args: &'m dyn Fn(&Builder<'m>, usize, Inst) -> u64,
    /// Loop variables whose atom exists but whose initial and update values are still to be
    /// built (context, register, header, loop, variable): see [`Self::value_at_entry`].
    pending: Vec<(usize, Reg, Block, Loop, u32)>,
    /// Nesting of [`Self::value_at_entry`] calls, and whether pending variables are being built.
    depth: u32,
    draining: bool,
    /// Stores to shared variables (variable, stored value): see [`Self::note_shared_store`].
    shared_stores: Vec<(u32, Node)>,
}

fn is_int(t: Option<Type>) -> bool {
    t.is_some_and(|t| !t.is_float() && t != Type::Pred)
}

fn bits_of(t: Option<Type>) -> u8 {
    t.map(|t| (t.size_bytes() * 8).min(64) as u8).unwrap_or(64)
}

impl<'m> Builder<'m> {
    pub fn new(
        module: &'m Module,
        analyses: &'m SecondaryMap<FuncId, FunctionAnalyses>,
        controls: &'m SecondaryMap<FuncId, ControlInfo>,
        td_args: &'m dyn Fn(&Builder<'m>, usize, Inst) -> u64,
    ) -> Self {
        Builder {
            module,
            analyses,
            controls,
            acf: Acf::default(),
            ctxs: Vec::new(),
            td_args,
            pending: Vec::new(),
            depth: 0,
            draining: false,
            shared_stores: Vec::new(),
        }
    }

    /// Opens a context for `func`.
    pub fn context(
        &mut self,
        func: FuncId,
        bindings: Vec<Option<Node>>,
        parent: Option<(usize, Inst)>,
        td_mask: u64,
        prefix: Node,
    ) -> usize {
        let f = &self.module.funcs[func];
        let mut pos = SecondaryMap::new();
        for (_, data) in f.blocks.iter() {
            for (k, &i) in data.insts.iter().enumerate() {
                pos[i] = k as u32;
            }
        }
        let depth = parent.map_or(0, |(p, _)| self.ctxs[p].depth + 1);
        self.ctxs.push(Ctx {
            func,
            bindings,
            parent,
            depth,
            td_mask,
            prefix,
            entry_memo: FxHashMap::default(),
            def_memo: FxHashMap::default(),
            reach_memo: FxHashMap::default(),
            loop_of_header: FxHashMap::default(),
            in_progress: FxHashSet::default(),
            loop_writes: FxHashMap::default(),
            block_writes: FxHashMap::default(),
            incoming_memo: FxHashMap::default(),
            children: FxHashMap::default(),
            pos,
        });
        self.ctxs.len() - 1
    }

    fn func(&self, ctx: usize) -> &'m Function {
        &self.module.funcs[self.ctxs[ctx].func]
    }

    fn fa(&self, ctx: usize) -> &'m FunctionAnalyses {
        &self.analyses[self.ctxs[ctx].func]
    }

    /// The value of `reg` just before the instruction at position `pos` of block `b`.
    pub fn value_before(&mut self, ctx: usize, reg: Reg, b: Block, pos: usize) -> Node {
        crate::stack::deep(|| self.value_before_step(ctx, reg, b, pos))
    }

    fn value_before_step(&mut self, ctx: usize, reg: Reg, b: Block, pos: usize) -> Node {
        let func = self.func(ctx);
        let insts = &func.blocks[b].insts;
        let writes = self.ctxs[ctx].block_writes.entry(b).or_insert_with(|| {
            let mut m: FxHashMap<Reg, Vec<u32>> = FxHashMap::default();
            for (k, &i) in insts.iter().enumerate() {
                warpscope_ir::effects::for_each_def(&func.insts[i], |r| {
                    let v = m.entry(r).or_default();
                    if v.last() != Some(&(k as u32)) {
                        v.push(k as u32);
                    }
                });
            }
            m
        });
        let pos = pos.min(insts.len());
        let last = writes.get(&reg).and_then(|ps| {
            let n = ps.partition_point(|&p| (p as usize) < pos);
            n.checked_sub(1).map(|j| ps[j] as usize)
        });
        let Some(k) = last else {
            return self.value_at_entry(ctx, reg, b);
        };
        let i = insts[k];
        let data = &func.insts[i];
        let v = self.def_value(ctx, i, reg);
        match data.guard {
            None => v,
            Some(g) => {
                let p = self.value_before(ctx, g.reg, b, k);
                let p = if g.negated { self.acf.not(p) } else { p };
                let old = self.value_before(ctx, reg, b, k);
                self.acf.select(p, v, old)
            }
        }
    }

    /// The value of `reg` on leaving block `b`.
    pub fn value_at_end(&mut self, ctx: usize, reg: Reg, b: Block) -> Node {
        let n = self.func(ctx).blocks[b].insts.len();
        self.value_before(ctx, reg, b, n)
    }

    /// The value of `reg` read by `inst`.
    pub fn value_at(&mut self, ctx: usize, reg: Reg, inst: Inst) -> Node {
        let b = self.func(ctx).inst_block[inst];
        let pos = self.ctxs[ctx].pos[inst] as usize;
        self.value_before(ctx, reg, b, pos)
    }

    fn initial(&mut self, ctx: usize, reg: Reg) -> Node {
        let func = self.func(ctx);
        if let Some(i) = func.params.iter().position(|p| p.reg == Some(reg)) {
            if let Some(Some(n)) = self.ctxs[ctx].bindings.get(i) {
                return *n;
            }
            let fid = self.ctxs[ctx].func;
            return self.acf.atom(Atom::Param {
                func: fid,
                index: i as u32,
                offset: 0,
            });
        }
        self.acf.konst(0)
    }

    fn value_at_entry(&mut self, ctx: usize, reg: Reg, b: Block) -> Node {
        self.depth += 1;
        let n = crate::stack::deep(|| self.value_at_entry_step(ctx, reg, b));
        self.depth -= 1;
        if self.depth == 0 && !self.draining {
            // The loop variables met on the way have their atoms; now their values.
            self.draining = true;
            while let Some((c, r, h, l, v)) = self.pending.pop() {
                self.loop_var_values(c, r, h, l, v);
            }
            self.draining = false;
        }
        n
    }

    fn value_at_entry_step(&mut self, ctx: usize, reg: Reg, b: Block) -> Node {
        if let Some(&n) = self.ctxs[ctx].entry_memo.get(&(reg, b)) {
            return n;
        }
        let fa = self.fa(ctx);
        if fa.cfg.entry() == Some(b) {
            let n = self.initial(ctx, reg);
            self.ctxs[ctx].entry_memo.insert((reg, b), n);
            return n;
        }
        // Inside loops, the loop-carried values at the headers first: a header's update reads
        // values of blocks like this one, which must not see it half-built. Only the header's
        // atom is made here; its initial and update values are built once the outermost value
        // asked for is done. Building them here would read, through another variable of the
        // loop, values still being built further up (nvcc's unrolled loops rotate registers:
        // `a' = b + s`, `b' = c + s`, ...), and such a cycle could only be cut by an unknown.
        for l in warpscope_ir::control::loop_nest(fa, b) {
            let h = fa.loops.get(l).header;
            if h != b && self.defined_in_loop(ctx, reg, l) {
                let is_var = fa.cfg.entry() != Some(h)
                    && self.controls[self.ctxs[ctx].func].header_of[h] == Some(l);
                if is_var && !self.ctxs[ctx].entry_memo.contains_key(&(reg, h)) {
                    let (_, vi) = self.loop_var_atom(ctx, reg, h, l);
                    self.pending.push((ctx, reg, h, l, vi));
                } else {
                    self.value_at_entry(ctx, reg, h);
                }
            }
        }
        if let Some(&n) = self.ctxs[ctx].entry_memo.get(&(reg, b)) {
            return n;
        }
        if !self.ctxs[ctx].in_progress.insert((reg, b)) {
            // A cycle not through a loop header (irreducible flow): give up on precision.
            return self.acf.fresh_unknown();
        }
        let n = match self.controls[self.ctxs[ctx].func].header_of[b] {
            // The header's own loop variable: its atom now, its initial and update values once
            // the outermost value asked for is done, as for the headers above. Building them
            // here would read the update through the latch, which a value being built further
            // up may be waiting for (a value after the loop asked for the latch's `%r54 =
            // %r14 + s`, whose merge reads the body's conditions, which read `%r54` at the
            // header): a cycle cut only by an unknown.
            Some(l) if self.defined_in_loop(ctx, reg, l) => {
                let (v, vi) = self.loop_var_atom(ctx, reg, b, l);
                self.pending.push((ctx, reg, b, l, vi));
                v
            }
            _ => self.merge_at(ctx, reg, b),
        };
        self.ctxs[ctx].in_progress.remove(&(reg, b));
        self.ctxs[ctx].entry_memo.insert((reg, b), n);
        n
    }

    fn defined_in_loop(&mut self, ctx: usize, reg: Reg, l: Loop) -> bool {
        let func = self.func(ctx);
        let fa = self.fa(ctx);
        self.ctxs[ctx]
            .loop_writes
            .entry(l)
            .or_insert_with(|| {
                let mut w = FxHashSet::default();
                for &b in &fa.loops.get(l).blocks {
                    for &i in &func.blocks[b].insts {
                        warpscope_ir::effects::for_each_def(&func.insts[i], |r| {
                            w.insert(r);
                        });
                    }
                }
                w
            })
            .contains(&reg)
    }

    /// Incoming edges of `b` grouped as (condition relative to `top`, predecessor blocks whose
    /// end values flow in). Loop exits are folded to their loop's header.
    fn incoming(&mut self, ctx: usize, top: Block, b: Block) -> Incoming {
        let fa = self.fa(ctx);
        let mut out: Incoming = Vec::new();
        let mut loops_done: Vec<Loop> = Vec::new();
        for &p in fa.cfg.preds(b) {
            if is_back_edge(fa, p, b) || !fa.cfg.is_reachable(p) {
                continue;
            }
            if !fa.domtree.dominates(top, p) {
                continue;
            }
            // Leaving a loop that does not contain `top`: the outermost such loop.
            let mut exited: Option<Loop> = None;
            let mut cur = fa.loops.innermost(p);
            while let Some(l) = cur {
                if !loop_contains(fa, l, b) && !loop_contains(fa, l, top) {
                    exited = Some(l);
                }
                cur = fa.loops.get(l).parent;
            }
            match exited {
                Some(l) => {
                    if loops_done.contains(&l) {
                        if let Some(entry) = out
                            .iter_mut()
                            .find(|(_, v, _)| v.first().is_some_and(|&x| loop_contains(fa, l, x)))
                        {
                            entry.1.push(p);
                        }
                        continue;
                    }
                    loops_done.push(l);
                    let h = fa.loops.get(l).header;
                    let at_h = self.reach(ctx, top, h);
                    let exits = &fa.loops.get(l).exits;
                    let sel = if exits.iter().all(|&(_, t)| t == b) {
                        self.acf.konst(1)
                    } else {
                        let mut s = self.acf.konst(0);
                        for &(e, t) in exits.iter() {
                            if t == b {
                                let r = self.reach(ctx, h, e);
                                let c = self.edge_cond(ctx, e, b);
                                let rc = self.acf.and(r, c);
                                s = self.acf.or(s, rc);
                            }
                        }
                        s
                    };
                    let c = self.acf.and(at_h, sel);
                    let li = self.loop_index(ctx, h, l);
                    out.push((c, vec![p], Some(li)));
                }
                None => {
                    let r = self.reach(ctx, top, p);
                    let e = self.edge_cond(ctx, p, b);
                    let c = self.acf.and(r, e);
                    out.push((c, vec![p], None));
                }
            }
        }
        out
    }

    /// The path predicate: lanes that reached `top` go on to reach `q` (forward edges only).
    pub fn reach(&mut self, ctx: usize, top: Block, q: Block) -> Node {
        crate::stack::deep(|| self.reach_step(ctx, top, q))
    }

    fn reach_step(&mut self, ctx: usize, top: Block, q: Block) -> Node {
        if top == q {
            return self.acf.konst(1);
        }
        if let Some(&n) = self.ctxs[ctx].reach_memo.get(&(top, q)) {
            return n;
        }
        // Every path from `top` passes through `q`.
        if self.fa(ctx).postdom.post_dominates(q, top) {
            return self.acf.konst(1);
        }
        // `q` is control-equivalent to its immediate dominator `d` (every lane that reaches
        // `d` goes on to `q`): the lanes that reach `q` are those that reach `d`, whatever
        // data-dependent branches lie between (a ballot's retry, an atomic's test).
        if let Some(d) = self.fa(ctx).domtree.idom(q)
            && d != top
            && self.fa(ctx).domtree.dominates(top, d)
            && self.fa(ctx).postdom.post_dominates(q, d)
        {
            let n = self.reach(ctx, top, d);
            self.ctxs[ctx].reach_memo.insert((top, q), n);
            return n;
        }
        // Guard against cycles: provisional "reached".
        let one = self.acf.konst(1);
        self.ctxs[ctx].reach_memo.insert((top, q), one);
        let inc = self.incoming(ctx, top, q);
        let mut acc = self.acf.konst(0);
        for (c, _, _) in inc {
            acc = self.acf.or(acc, c);
        }
        self.ctxs[ctx].reach_memo.insert((top, q), acc);
        acc
    }

    /// The condition under which lanes leaving `from` go to `to`.
    pub fn edge_cond(&mut self, ctx: usize, from: Block, to: Block) -> Node {
        let func = self.func(ctx);
        let Some(cb) = cond_branch(func, from) else {
            return self.acf.konst(1);
        };
        let pos = self.ctxs[ctx].pos[cb.inst] as usize;
        let g = self.value_before(ctx, cb.guard.reg, from, pos);
        let taken = if cb.guard.negated { self.acf.not(g) } else { g };
        if cb.taken == Some(to) {
            taken
        } else if cb.fallthrough == Some(to) {
            self.acf.not(taken)
        } else {
            self.acf.konst(1)
        }
    }

    /// The value of `reg` at the entry of the join `b`: eq. 2 as a chain of selects.
    fn merge_at(&mut self, ctx: usize, reg: Reg, b: Block) -> Node {
        let fa = self.fa(ctx);
        let Some(top) = fa.domtree.idom(b) else {
            return self.initial(ctx, reg);
        };
        let inc = match self.ctxs[ctx].incoming_memo.get(&b) {
            Some(inc) => inc.clone(),
            None => {
                let inc = self.incoming(ctx, top, b);
                self.ctxs[ctx].incoming_memo.insert(b, inc.clone());
                inc
            }
        };
        let mut vals: Vec<(Node, Node)> = Vec::new();
        for (c, preds, lp) in inc {
            // Several exiting blocks of one loop: their values, merged by their own edges.
            let v = if preds.len() == 1 {
                self.value_at_end(ctx, reg, preds[0])
            } else {
                let mut v = self.value_at_end(ctx, reg, preds[preds.len() - 1]);
                for &p in preds[..preds.len() - 1].iter().rev() {
                    let e = self.edge_cond(ctx, p, b);
                    let pv = self.value_at_end(ctx, reg, p);
                    v = self.acf.select(e, pv, v);
                }
                v
            };
            // Leaving a loop whose header is `top` itself (a one-block loop, or a loop exited
            // to its header's immediate successor) is a loop exit too.
            let lp = lp.or_else(|| {
                let fa = self.fa(ctx);
                let mut exited = None;
                let mut cur = fa.loops.innermost(preds[0]);
                while let Some(l) = cur {
                    if !loop_contains(fa, l, b) {
                        exited = Some(l);
                    }
                    cur = fa.loops.get(l).parent;
                }
                exited.map(|l| {
                    let h = fa.loops.get(l).header;
                    self.loop_index(ctx, h, l)
                })
            });
            let v = match lp {
                Some(l)
                    if self.acf.as_const(v).is_none()
                        && self.defined_in_loop(ctx, reg, self.acf.loops[l as usize].lp) =>
                {
                    self.acf.intern(Kind::LoopOut(l, v))
                }
                _ => v,
            };
            vals.push((c, v));
        }
        match vals.len() {
            0 => self.value_at_end(ctx, reg, top),
            1 => vals[0].1,
            _ => {
                if vals.iter().all(|(_, v)| *v == vals[0].1) {
                    return vals[0].1;
                }
                let mut acc = vals[vals.len() - 1].1;
                for &(c, v) in vals[..vals.len() - 1].iter().rev() {
                    acc = self.acf.select(c, v, acc);
                }
                acc
            }
        }
    }

    fn special(&mut self, r: SpecialReg, d: Option<Dim>) -> Node {
        let d = d.unwrap_or(Dim::X);
        match r {
            SpecialReg::Tid => self.acf.atom(Atom::Tid(d)),
            SpecialReg::Ntid => self.acf.atom(Atom::Ntid(d)),
            SpecialReg::Ctaid => self.acf.atom(Atom::Ctaid(d)),
            SpecialReg::Nctaid => self.acf.atom(Atom::Nctaid(d)),
            SpecialReg::Laneid => self.acf.atom(Atom::Laneid),
            SpecialReg::LanemaskEq
            | SpecialReg::LanemaskLt
            | SpecialReg::LanemaskLe
            | SpecialReg::LanemaskGt
            | SpecialReg::LanemaskGe => {
                let lane = self.acf.atom(Atom::Laneid);
                let one = self.acf.konst(1);
                let eq = self.acf.bin(BinOp::Shl, one, lane);
                let m1 = self.acf.konst(-1);
                let lt = self.acf.add(eq, m1);
                let le = self.acf.add(eq, lt);
                let all = self.acf.konst(0xffff_ffff);
                match r {
                    SpecialReg::LanemaskEq => eq,
                    SpecialReg::LanemaskLt => lt,
                    SpecialReg::LanemaskLe => le,
                    SpecialReg::LanemaskGt => self.acf.bin(BinOp::Xor, le, all),
                    _ => self.acf.bin(BinOp::Xor, lt, all),
                }
            }
            SpecialReg::Clock
            | SpecialReg::ClockHi
            | SpecialReg::Clock64
            | SpecialReg::Globaltimer
            | SpecialReg::GlobaltimerLo
            | SpecialReg::GlobaltimerHi => self.acf.fresh_unknown(),
            _ => {
                // Uniform across a warp (warp id, SM id, shared memory sizes, ...): one atom
                // per register so equal reads cancel.
                let tag = {
                    use std::hash::{Hash, Hasher};
                    let mut h = rustc_hash::FxHasher::default();
                    format!("{r:?}").hash(&mut h);
                    0x5000_0000 | (h.finish() as u32 & 0x0fff_ffff)
                };
                let z = self.acf.konst(0);
                self.acf.opaque(tag, z, z)
            }
        }
    }

    /// The value of a source operand of `inst`.
    pub fn operand(&mut self, ctx: usize, inst: Inst, op: &Operand) -> Node {
        match op {
            Operand::Reg(r) => self.value_at(ctx, *r, inst),
            Operand::Not(r) => {
                let v = self.value_at(ctx, *r, inst);
                self.acf.not(v)
            }
            Operand::Imm(v) => self.acf.konst(*v),
            Operand::UImm(v) => self.acf.konst(*v as i64),
            Operand::F32(b) => self.acf.konst(i64::from(*b)),
            Operand::F64(b) => self.acf.konst(*b as i64),
            Operand::Special(r, d) => self.special(*r, *d),
            Operand::Global(g) => {
                let v = &self.module.globals[*g];
                self.var_addr(&v.name.clone(), v.space, u64::from(v.align))
            }
            Operand::Local(l) => {
                let v = &self.func(ctx).locals[*l];
                let key = format!("{}::{}", self.func(ctx).name, v.name);
                self.var_addr(&key, v.space, u64::from(v.align))
            }
            Operand::Addr(base, off) => {
                let b = match base {
                    AddrBase::Reg(r) => self.value_at(ctx, *r, inst),
                    AddrBase::Global(g) => {
                        let v = &self.module.globals[*g];
                        self.var_addr(&v.name.clone(), v.space, u64::from(v.align))
                    }
                    AddrBase::Local(l) => {
                        let v = &self.func(ctx).locals[*l];
                        let key = format!("{}::{}", self.func(ctx).name, v.name);
                        self.var_addr(&key, v.space, u64::from(v.align))
                    }
                    AddrBase::Imm(a) => self.acf.konst(*a),
                    AddrBase::Param(_) | AddrBase::Return(_) => self.acf.fresh_uniform(),
                };
                let o = self.acf.konst(*off);
                self.acf.add(b, o)
            }
            _ => self.acf.fresh_unknown(),
        }
    }

    fn var_addr(&mut self, name: &str, space: StateSpace, align: u64) -> Node {
        let idx = match self.acf.vars.iter().position(|v| v.name == name) {
            Some(i) => i,
            None => {
                self.acf.vars.push(VarInfo {
                    name: name.to_string(),
                    space,
                    align: align.max(1),
                });
                self.acf.vars.len() - 1
            }
        };
        self.acf.atom(Atom::VarAddr(idx as u32))
    }

    fn src(&mut self, ctx: usize, inst: Inst, k: usize) -> Node {
        let op = self.func(ctx).insts[inst].operands.get(k).cloned();
        match op {
            Some(op) => self.operand(ctx, inst, &op),
            None => self.acf.konst(0),
        }
    }

    /// Wraps a concrete result to the instruction's integer width.
    fn wrap(&mut self, ty: Option<Type>, n: Node) -> Node {
        match ty {
            Some(t) if t.size_bytes() < 8 && !t.is_float() && t != Type::Pred => {
                let bits = (t.size_bytes() * 8) as u8;
                let e = if t.is_signed_int() {
                    Ext::Sext(bits)
                } else {
                    Ext::Zext(bits)
                };
                self.acf.ext(e, n)
            }
            _ => n,
        }
    }

    fn cmp_of(&self, data: &warpscope_ir::InstData) -> Option<Cmp> {
        let op = data.mods.cmp?;
        let ty = data.mods.ty2.or(data.mods.ty);
        let float = ty.is_some_and(Type::is_float);
        let signed = ty.is_some_and(Type::is_signed_int) || float;
        let op = match op {
            CmpOp::Lo => CmpOp::Lt,
            CmpOp::Ls => CmpOp::Le,
            CmpOp::Hi => CmpOp::Gt,
            CmpOp::Hs => CmpOp::Ge,
            o => o,
        };
        Some(Cmp {
            op,
            signed,
            float,
            bits: bits_of(ty),
        })
    }

    /// The value `inst` writes into `reg`.
    pub fn def_value(&mut self, ctx: usize, inst: Inst, reg: Reg) -> Node {
        crate::stack::deep(|| self.def_value_step(ctx, inst, reg))
    }

    fn def_value_step(&mut self, ctx: usize, inst: Inst, reg: Reg) -> Node {
        if let Some(&n) = self.ctxs[ctx].def_memo.get(&(inst, reg)) {
            return n;
        }
        let n = self.compute_def(ctx, inst, reg);
        self.ctxs[ctx].def_memo.insert((inst, reg), n);
        n
    }

    fn compute_def(&mut self, ctx: usize, inst: Inst, reg: Reg) -> Node {
        let func = self.func(ctx);
        let data = func.insts[inst].clone();
        let ty = data.mods.ty;
        let int = is_int(ty);
        let tag = 0x1000 + data.op as u32;
        // Position of `reg` among vector destinations.
        let elem = match data.operands.first() {
            Some(Operand::Vector(v)) => {
                v.iter().position(|o| *o == Operand::Reg(reg)).unwrap_or(0) as u8
            }
            _ => 0,
        };
        let second_dest =
            matches!(data.operands.first(), Some(Operand::RegPair(_, q)) if *q == reg);
        use Opcode::*;
        match data.op {
            Mov | Cvta => {
                if matches!(data.operands.first(), Some(Operand::Vector(_)))
                    || matches!(data.operands.get(1), Some(Operand::Vector(_)))
                {
                    let a = self.src(ctx, inst, 1);
                    let e = self.acf.konst(i64::from(elem));
                    return self.acf.opaque(tag, a, e);
                }
                let a = self.src(ctx, inst, 1);
                if data.op == Cvta
                    && let Kind::Atom(p @ crate::expr::Atom::Param { offset, .. }) =
                        self.acf.kind(a)
                    && offset != 0
                {
                    self.acf.pointer_fields.insert(p);
                }
                a
            }
            Add | Sub | Mul | Mad | Mul24 | Mad24 | Neg | Abs | Min | Max if int => {
                let a = self.src(ctx, inst, 1);
                let signed = ty.is_some_and(Type::is_signed_int);
                let bits = bits_of(ty);
                let ext = |s: bool| {
                    if s { Ext::Sext(bits) } else { Ext::Zext(bits) }
                };
                match data.op {
                    Add => {
                        let b = self.src(ctx, inst, 2);
                        let s = self.acf.add(a, b);
                        self.wrap(ty, s)
                    }
                    Sub => {
                        let b = self.src(ctx, inst, 2);
                        let s = self.acf.sub(a, b);
                        self.wrap(ty, s)
                    }
                    Neg => {
                        let s = self.acf.neg(a);
                        self.wrap(ty, s)
                    }
                    Abs => {
                        let na = self.acf.neg(a);
                        self.acf.bin(BinOp::Max { signed: true }, a, na)
                    }
                    Min => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.bin(BinOp::Min { signed }, a, b)
                    }
                    Max => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.bin(BinOp::Max { signed }, a, b)
                    }
                    _ => {
                        let b = self.src(ctx, inst, 2);
                        let mode = data.mods.mul_mode;
                        let prod = match mode {
                            Some(MulMode::Wide) => {
                                let ea = self.acf.ext(ext(signed), a);
                                let eb = self.acf.ext(ext(signed), b);
                                self.acf.mul(ea, eb)
                            }
                            Some(MulMode::Hi) => self.acf.bin(BinOp::MulHi { signed, bits }, a, b),
                            _ => self.acf.mul(a, b),
                        };
                        let r = if matches!(data.op, Mad | Mad24) {
                            let c = self.src(ctx, inst, 3);
                            self.acf.add(prod, c)
                        } else {
                            prod
                        };
                        if mode == Some(MulMode::Wide) {
                            r
                        } else {
                            self.wrap(ty, r)
                        }
                    }
                }
            }
            Div | Rem if int => {
                let a = self.src(ctx, inst, 1);
                let b = self.src(ctx, inst, 2);
                let signed = ty.is_some_and(Type::is_signed_int);
                let op = if data.op == Div {
                    BinOp::Div { signed }
                } else {
                    BinOp::Rem { signed }
                };
                self.acf.bin(op, a, b)
            }
            And | Or | Xor | Not if ty == Some(Type::Pred) => {
                let a = self.src(ctx, inst, 1);
                match data.op {
                    Not => self.acf.not(a),
                    And => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.and(a, b)
                    }
                    Or => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.or(a, b)
                    }
                    _ => {
                        let b = self.src(ctx, inst, 2);
                        let nb = self.acf.not(b);
                        let na = self.acf.not(a);
                        let x = self.acf.and(a, nb);
                        let y = self.acf.and(na, b);
                        self.acf.or(x, y)
                    }
                }
            }
            And | Or | Xor | Not | Shl | Shr => {
                let a = self.src(ctx, inst, 1);
                let r = match data.op {
                    Not => {
                        // ~x = -1 - x in two's complement; the width wrap below makes it exact
                        // on concrete values and it stays polynomial on symbolic ones.
                        let m1 = self.acf.konst(-1);
                        self.acf.sub(m1, a)
                    }
                    And => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.bin(BinOp::And, a, b)
                    }
                    Or => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.bin(BinOp::Or, a, b)
                    }
                    Xor => {
                        let b = self.src(ctx, inst, 2);
                        self.acf.bin(BinOp::Xor, a, b)
                    }
                    Shl => {
                        let b = self.src(ctx, inst, 2);
                        match self.acf.as_const(b) {
                            Some(k @ 0..=62) => {
                                let m = self.acf.konst(1i64 << k);
                                self.acf.mul(a, m)
                            }
                            _ => self.acf.bin(BinOp::Shl, a, b),
                        }
                    }
                    _ => {
                        let b = self.src(ctx, inst, 2);
                        let signed = ty.is_some_and(Type::is_signed_int);
                        self.acf.bin(BinOp::Shr { signed }, a, b)
                    }
                };
                self.wrap(ty, r)
            }
            Cvt if is_int(ty) && is_int(data.mods.ty2) => {
                let a = self.src(ctx, inst, 1);
                let (dt, st) = (ty.unwrap_or(Type::U32), data.mods.ty2.unwrap_or(Type::U32));
                if dt.size_bytes() > st.size_bytes() {
                    let bits = (st.size_bytes() * 8) as u8;
                    let e = if st.is_signed_int() {
                        Ext::Sext(bits)
                    } else {
                        Ext::Zext(bits)
                    };
                    self.acf.ext(e, a)
                } else {
                    self.wrap(Some(dt), a)
                }
            }
            Setp => {
                let Some(c) = self.cmp_of(&data) else {
                    return self.acf.fresh_unknown();
                };
                let a = self.src(ctx, inst, 1);
                let b = self.src(ctx, inst, 2);
                let mut p = if c.float {
                    // Floating-point comparison: not evaluated, but equal inputs agree.
                    self.acf.intern(Kind::Cmp(c, a, b))
                } else {
                    self.acf.cmp(c, a, b)
                };
                if second_dest {
                    p = self.acf.not(p);
                }
                if let Some(bop) = data.mods.bool_op {
                    let c3 = self.src(ctx, inst, 3);
                    p = match bop {
                        BoolOp::And => self.acf.and(p, c3),
                        BoolOp::Or => self.acf.or(p, c3),
                        BoolOp::Xor => {
                            let np = self.acf.not(p);
                            let nc = self.acf.not(c3);
                            let x = self.acf.and(p, nc);
                            let y = self.acf.and(np, c3);
                            self.acf.or(x, y)
                        }
                    };
                }
                p
            }
            Selp => {
                let a = self.src(ctx, inst, 1);
                let b = self.src(ctx, inst, 2);
                let p = self.src(ctx, inst, 3);
                self.acf.select(p, a, b)
            }
            Bfe | Bfi
                if matches!(
                    data.operands.get(if data.op == Bfe { 2 } else { 3 }),
                    Some(Operand::Imm(_) | Operand::UImm(_))
                ) && matches!(
                    data.operands.get(if data.op == Bfe { 3 } else { 4 }),
                    Some(Operand::Imm(_) | Operand::UImm(_))
                ) =>
            {
                let lit = |o: Option<&Operand>| match o {
                    Some(Operand::Imm(v)) => *v,
                    Some(Operand::UImm(v)) => *v as i64,
                    _ => 0,
                };
                if data.op == Bfe {
                    // d = (a >> pos) & (2^len - 1)
                    let (pos, len) = (lit(data.operands.get(2)), lit(data.operands.get(3)));
                    let a = self.src(ctx, inst, 1);
                    let sh = self.acf.konst(pos.clamp(0, 63));
                    let shifted = self.acf.bin(BinOp::Shr { signed: false }, a, sh);
                    let mask = self.acf.konst(if len >= 63 {
                        i64::MAX
                    } else {
                        (1i64 << len.max(0)) - 1
                    });
                    self.acf.bin(BinOp::And, shifted, mask)
                } else {
                    // d = (b & ~m) | ((a << pos) & m), m = (2^len - 1) << pos
                    let (pos, len) = (lit(data.operands.get(3)), lit(data.operands.get(4)));
                    let (pos, len) = (pos.clamp(0, 62), len.clamp(0, 62));
                    let bits = bits_of(ty).min(63);
                    // 63 bits for a 64-bit insert (the value is kept in an i64): no overflow.
                    let full = (1i64 << bits).wrapping_sub(1);
                    let m = (((1i64 << len) - 1) << pos) & full;
                    let a = self.src(ctx, inst, 1);
                    let b = self.src(ctx, inst, 2);
                    let nm = self.acf.konst(full & !m);
                    let keep = self.acf.bin(BinOp::And, b, nm);
                    let scale = self.acf.konst(1i64 << pos);
                    let sa = self.acf.mul(a, scale);
                    let mk = self.acf.konst(m);
                    let ins = self.acf.bin(BinOp::And, sa, mk);
                    self.acf.bin(BinOp::Or, keep, ins)
                }
            }
            Ld | Ldu => self.load_value(ctx, inst, &data, elem),
            Atom | Shfl | Match => self.acf.fresh_unknown(),
            Vote | Redux | Activemask => self.acf.fresh_uniform(),
            Call => self.call_value(ctx, inst, reg),
            _ => {
                // Unmodelled: a function of up to its first two sources.
                let a = self.src(ctx, inst, 1);
                let b = self.src(ctx, inst, 2);
                let t = self.acf.opaque(tag, a, b);
                if let Some(c) = data.operands.get(3).cloned() {
                    let c = self.operand(ctx, inst, &c);
                    self.acf.opaque(tag, t, c)
                } else {
                    t
                }
            }
        }
    }

    fn load_value(
        &mut self,
        ctx: usize,
        inst: Inst,
        data: &warpscope_ir::InstData,
        elem: u8,
    ) -> Node {
        let addr_op = data.operands.get(1).cloned();
        let space = data.mods.space;
        if space.is_some_and(StateSpace::is_param)
            && let Some(Operand::Addr(base, off)) = &addr_op
        {
            match base {
                AddrBase::Param(i) => {
                    if let Some(Some(n)) = self.ctxs[ctx].bindings.get(*i as usize)
                        && *off == 0
                    {
                        return *n;
                    }
                    let fid = self.ctxs[ctx].func;
                    return self.acf.atom(Atom::Param {
                        func: fid,
                        index: *i,
                        offset: *off + i64::from(elem) * 4,
                    });
                }
                AddrBase::Local(l) => {
                    let func = self.func(ctx);
                    let b = func.inst_block[inst];
                    let pos = self.ctxs[ctx].pos[inst] as usize;
                    // A value stored to the same parameter slot earlier in the block.
                    for &i in func.blocks[b].insts[..pos].iter().rev() {
                        let s = &func.insts[i];
                        if s.op == Opcode::St
                            && matches!(s.operands.first(), Some(Operand::Addr(AddrBase::Local(x), o)) if x == l && o == off)
                            && let Some(v) = s.operands.get(1).cloned()
                        {
                            return self.operand(ctx, i, &v);
                        }
                    }
                    if let Some((call, k)) = call_returning(func, b, pos, *l) {
                        return self.callee_return(ctx, call, k);
                    }
                    return self.acf.fresh_unknown();
                }
                _ => return self.acf.fresh_unknown(),
            }
        }
        let addr = match &addr_op {
            Some(op @ Operand::Addr(..)) => self.operand(ctx, inst, op),
            Some(op) => self.operand(ctx, inst, op),
            None => self.acf.fresh_unknown(),
        };
        let id = self.acf.loads.len() as u32;
        self.acf.loads.push(LoadInfo { addr, inst, elem });
        self.acf.atom(Atom::Load(id))
    }

    fn call_value(&mut self, ctx: usize, inst: Inst, reg: Reg) -> Node {
        let func = self.func(ctx);
        let k = match func.insts[inst].operands.first() {
            Some(Operand::List(rets)) => rets.iter().position(|o| *o == Operand::Reg(reg)),
            _ => None,
        };
        match k {
            Some(k) => self.callee_return(ctx, inst, k),
            None => self.acf.fresh_unknown(),
        }
    }

    /// The context for the callee of `call`, created on first use (None when k-limited).
    pub fn child(&mut self, ctx: usize, call: Inst) -> Option<usize> {
        if let Some(&c) = self.ctxs[ctx].children.get(&call) {
            return Some(c);
        }
        let func = self.func(ctx);
        let (callee, args) = call_args(func, call);
        let callee = callee?;
        let cf = &self.module.funcs[callee];
        let same_callee = self.ctxs.iter().filter(|c| c.func == callee).count();
        let recursive = {
            let mut cur = Some(ctx);
            let mut r = false;
            while let Some(c) = cur {
                if self.ctxs[c].func == callee {
                    r = true;
                }
                cur = self.ctxs[c].parent.map(|p| p.0);
            }
            r
        };
        if cf.is_declaration
            || recursive
            || self.ctxs[ctx].depth + 1 > MAX_DEPTH
            || same_callee >= MAX_CONTEXTS
        {
            return None;
        }
        let mut bindings = Vec::new();
        for a in &args {
            bindings.push(match a {
                CallArg::Reg(r) => Some(self.value_at(ctx, *r, call)),
                CallArg::Stored { store, value } => {
                    let v = value.clone();
                    Some(self.operand(ctx, *store, &v))
                }
                CallArg::Other => None,
            });
        }
        let mask = (self.td_args)(self, ctx, call);
        let b = func.inst_block[call];
        let entry = self.fa(ctx).cfg.entry().unwrap_or(b);
        let r = self.reach(ctx, entry, b);
        let prefix = self.acf.and(self.ctxs[ctx].prefix, r);
        let c = self.context(callee, bindings, Some((ctx, call)), mask, prefix);
        self.ctxs[ctx].children.insert(call, c);
        Some(c)
    }

    /// Return value `k` of `call` (IACF): the callee's returned expression with its parameters
    /// replaced by the arguments.
    fn callee_return(&mut self, ctx: usize, call: Inst, k: usize) -> Node {
        let Some(c) = self.child(ctx, call) else {
            return self.acf.fresh_unknown();
        };
        let cf = self.func(c);
        // `.param` returns: the stores to return slot k.
        let mut stores: Vec<Inst> = Vec::new();
        for (_, i) in cf.insts_in_order() {
            let d = &cf.insts[i];
            if d.op == Opcode::St
                && matches!(d.operands.first(), Some(Operand::Addr(AddrBase::Return(r), _)) if *r as usize == k)
            {
                stores.push(i);
            }
        }
        if stores.len() == 1 {
            let i = stores[0];
            let v = cf.insts[i].operands.get(1).cloned();
            return match v {
                Some(v) => self.operand(c, i, &v),
                None => self.acf.fresh_unknown(),
            };
        }
        // `.reg` returns: the register at the (single) return.
        if let Some(r) = cf.returns.get(k).and_then(|p| p.reg) {
            let rets: Vec<Inst> = cf
                .insts_in_order()
                .filter(|(_, i)| matches!(cf.insts[*i].op, Opcode::Ret))
                .map(|(_, i)| i)
                .collect();
            if rets.len() == 1 {
                return self.value_at(c, r, rets[0]);
            }
        }
        self.acf.fresh_unknown()
    }

    /// Branches and accesses of context `ctx` (and, recursively, of the callees it calls).
    pub fn collect(
        &mut self,
        ctx: usize,
        branches: &mut Vec<BranchSite>,
        accesses: &mut Vec<AccessSite>,
    ) {
        crate::stack::deep(|| self.collect_step(ctx, branches, accesses))
    }

    fn collect_step(
        &mut self,
        ctx: usize,
        branches: &mut Vec<BranchSite>,
        accesses: &mut Vec<AccessSite>,
    ) {
        let func = self.func(ctx);
        let fa = self.fa(ctx);
        let Some(entry) = fa.cfg.entry() else { return };
        let rpo: Vec<Block> = fa.cfg.rpo().to_vec();
        for b in rpo {
            let mut active: Option<Node> = None;
            let mut get_active = |this: &mut Self| -> Node {
                if let Some(a) = active {
                    return a;
                }
                let r = this.reach(ctx, entry, b);
                let a = this.acf.and(this.ctxs[ctx].prefix, r);
                active = Some(a);
                a
            };
            for &i in &func.blocks[b].insts {
                let data = &func.insts[i];
                match data.op {
                    Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Atom | Opcode::Red => {
                        let space = data.mods.space.unwrap_or(StateSpace::Generic);
                        if space.is_param() || space == StateSpace::Reg {
                            continue;
                        }
                        let addr_k = if data.op == Opcode::St || data.op == Opcode::Red {
                            0
                        } else {
                            1
                        };
                        let Some(op @ Operand::Addr(..)) = data.operands.get(addr_k).cloned()
                        else {
                            continue;
                        };
                        let addr = self.operand(ctx, i, &op);
                        if data.op == Opcode::St
                            && space.is_shared()
                            && data.mods.ty.is_some_and(|t| t.size_bytes() == 8)
                        {
                            let value = self.src(ctx, i, 1);
                            self.note_shared_store(addr, value);
                        }
                        let elem = data.mods.ty.map(Type::size_bytes).unwrap_or(4);
                        let size = elem * u32::from(data.mods.vec.max(1));
                        let kind = match data.op {
                            Opcode::St => AccessKind::Store,
                            Opcode::Atom | Opcode::Red => AccessKind::Atomic,
                            _ => AccessKind::Load,
                        };
                        let act = get_active(self);
                        let addr_cancelled = self.acf.cancelled_form(addr);
                        accesses.push(AccessSite {
                            ctx,
                            inst: i,
                            block: b,
                            addr,
                            space,
                            size,
                            kind,
                            active: act,
                            addr_cancelled,
                        });
                    }
                    Opcode::Call => {
                        if let Some(c) = self.child(ctx, i) {
                            self.collect(c, branches, accesses);
                        }
                    }
                    _ => {}
                }
            }
            if let Some(cb) = cond_branch(func, b) {
                let pos = self.ctxs[ctx].pos[cb.inst] as usize;
                let g = self.value_before(ctx, cb.guard.reg, b, pos);
                let cond = if cb.guard.negated { self.acf.not(g) } else { g };
                let act = get_active(self);
                // Alignment tests read only the low bits their lanes share.
                let mut memo = FxHashMap::default();
                let cond = self.acf.aligned_form(cond, &mut memo, 64);
                let act = self.acf.aligned_form(act, &mut memo, 64);
                let loop_exit = fa.loops.innermost(b).is_some_and(|l| {
                    fa.loops.get(l).exits.iter().any(|&(from, _)| from == b)
                        || fa.loops.get(l).latches.contains(&b)
                });
                branches.push(BranchSite {
                    ctx,
                    inst: cb.inst,
                    block: b,
                    cond,
                    active: act,
                    loop_exit,
                });
            }
        }
    }
}
