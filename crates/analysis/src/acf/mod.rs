//! Arithmetic Control Form (GPUCheck §3.2–3.4): every value a branch or an access depends on,
//! rebuilt as an expression over atoms, with control flow turned into 0/1 factors.
//!
//! The [`Acf`] is a hash-consed DAG of [`Kind`] nodes built on demand from the IR by a
//! [`Builder`]:
//!
//! * data flow follows the IR's registers backwards through the block and, at a block entry,
//!   through its predecessors;
//! * at a join, the value is GPUCheck's eq. 2, `Σᵢ (Π cond(i)) · ACF(i)`: each incoming value
//!   is selected by the *path predicate* from the join's immediate dominator to that
//!   predecessor (a boolean formula of branch conditions), written as a chain of `Select`s;
//! * predicated writes (`@p mov`) are ψ-nodes: `Select(p, new, old)`;
//! * at a loop header, a register redefined in the loop becomes a loop-carried atom `[φ]`
//!   with its initial and update expressions; when the update is `φ + step` the closed form
//!   `init + [iter]·step` is kept ([`LoopVarInfo::closed`]), so induction variables of
//!   grid-stride loops stay exact per lane;
//! * calls are expanded (IACF, §3.3): the callee is built again in a *context* whose
//!   parameters are the caller's argument expressions, k-limited in depth and count.
//!
//! This module holds the DAG and its printing; `build` builds it from the IR.
//!
//! Nothing here knows about lanes: [`crate::eval`] evaluates nodes for the 32 lanes of a warp.

use crate::expr::{Atom, BinOp, Cmp, Ext, Kind, Node, flags};
use crate::poly::Poly;
use crate::uniformity::{CallArg, call_args, call_returning};
use cranelift_entity::{EntityRef, SecondaryMap};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use warpscope_ir::control::{ControlInfo, cond_branch, is_back_edge, loop_contains};
use warpscope_ir::{
    AddrBase, Block, FuncId, Function, FunctionAnalyses, Inst, Loop, Module, Operand, Reg,
};
use warpscope_ptx::{BoolOp, CmpOp, Dim, MulMode, Opcode, SpecialReg, StateSpace, Type};

mod build;

pub use build::{AccessKind, AccessSite, BranchSite, Builder, Ctx};

/// A variable whose address appears in an expression.
#[derive(Debug, Clone)]
pub struct VarInfo {
    pub name: String,
    pub space: StateSpace,
    pub align: u64,
}

/// A load whose value appears in an expression.
#[derive(Debug, Clone, Copy)]
pub struct LoadInfo {
    pub addr: Node,
    pub inst: Inst,
    pub elem: u8,
}

/// A natural loop of one context.
#[derive(Debug, Clone)]
pub struct LoopInfo {
    pub ctx: usize,
    pub header: Block,
    pub lp: Loop,
    /// Lanes continue into the next iteration when this holds (evaluated with the loop's
    /// variables at the current iteration).
    pub cont: Node,
    pub vars: Vec<u32>,
    /// The enclosing loop's index, if any.
    pub parent: Option<u32>,
}

/// A loop-carried value `[φ]`.
#[derive(Debug, Clone)]
pub struct LoopVarInfo {
    pub loop_idx: u32,
    pub reg: Reg,
    pub init: Node,
    /// Value at the back edge (in terms of `[φ]` and the other variables of the loop).
    pub update: Node,
    /// `init + [iter] * step` when the update adds a loop-invariant step.
    pub closed: Option<Node>,
    pub step: Option<Node>,
    /// Whether lanes may hold different values (set by [`Acf::finalize`]).
    pub td: bool,
}

/// What [`Acf::walk`] does after visiting a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Visit the node's children.
    Into,
    /// Do not look below this node.
    Skip,
    /// End the walk.
    Stop,
}

/// The ACF DAG of one kernel and the device functions it calls.
#[derive(Debug, Clone, Default)]
pub struct Acf {
    kinds: Vec<Kind>,
    dedup: FxHashMap<Kind, Node>,
    pub vars: Vec<VarInfo>,
    pub loads: Vec<LoadInfo>,
    pub loops: Vec<LoopInfo>,
    pub loopvars: Vec<LoopVarInfo>,
    /// Fields of by-value structure parameters converted to global addresses (`cvta.to.global`
    /// of `[param0+80]`): pointers, aligned as allocations are, like pointer parameters.
    pub pointer_fields: rustc_hash::FxHashSet<Atom>,
    unknowns: u32,
    uniforms: u32,
    flags: Vec<u16>,
    /// The [`Kind::LoopOut`] nodes whose value changes from one trip of their loop to the
    /// next (set by [`Acf::finalize`]).
    loop_variant_outs: FxHashSet<Node>,
}

impl Acf {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn kind(&self, n: Node) -> Kind {
        self.kinds[n.index()]
    }

    /// `n` without the sign or zero extensions wrapped around it.
    pub fn without_ext(&self, mut n: Node) -> Node {
        while let Kind::Ext(_, x) = self.kind(n) {
            n = x;
        }
        n
    }

    fn intern(&mut self, k: Kind) -> Node {
        if let Some(&n) = self.dedup.get(&k) {
            return n;
        }
        let n = Node::new(self.kinds.len());
        self.kinds.push(k);
        self.dedup.insert(k, n);
        n
    }

    fn as_const(&self, n: Node) -> Option<i64> {
        match self.kinds[n.index()] {
            Kind::Const(c) => Some(c),
            _ => None,
        }
    }

    pub fn konst(&mut self, c: i64) -> Node {
        self.intern(Kind::Const(c))
    }

    pub fn atom(&mut self, a: Atom) -> Node {
        self.intern(Kind::Atom(a))
    }

    pub fn fresh_unknown(&mut self) -> Node {
        self.unknowns += 1;
        self.atom(Atom::Unknown(self.unknowns))
    }

    pub fn fresh_uniform(&mut self) -> Node {
        self.uniforms += 1;
        self.atom(Atom::Uniform(self.uniforms))
    }

    pub fn add(&mut self, a: Node, b: Node) -> Node {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.konst(x.wrapping_add(y)),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Kind::Add(a, b))
            }
        }
    }

    pub fn neg(&mut self, a: Node) -> Node {
        if let Some(x) = self.as_const(a) {
            return self.konst(x.wrapping_neg());
        }
        if let Kind::Neg(x) = self.kinds[a.index()] {
            return x;
        }
        self.intern(Kind::Neg(a))
    }

    pub fn sub(&mut self, a: Node, b: Node) -> Node {
        let nb = self.neg(b);
        self.add(a, nb)
    }

    pub fn mul(&mut self, a: Node, b: Node) -> Node {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.konst(x.wrapping_mul(y)),
            (Some(0), _) | (_, Some(0)) => self.konst(0),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            _ => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Kind::Mul(a, b))
            }
        }
    }

    pub fn bin(&mut self, op: BinOp, a: Node, b: Node) -> Node {
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b))
            && let Some(v) = crate::expr::bin_concrete(op, x, y)
        {
            return self.konst(v);
        }
        self.intern(Kind::Bin(op, a, b))
    }

    /// `n` with every `x & (2^k - 1)` and unsigned `x % 2^k` in it reduced to the terms of `x`
    /// that are not multiples of `2^k`: the low `k` bits of a sum do not depend on those, in
    /// two's complement at any width. An alignment test `(p + 16*i) % 16 == 0` is `p % 16 ==
    /// 0`, the same in every lane whatever `i` is. Used for branch conditions; `n` itself when
    /// nothing changes (or the expression nests deeper than `depth`).
    pub fn aligned_form(&mut self, n: Node, memo: &mut FxHashMap<Node, Node>, depth: u32) -> Node {
        if let Some(&r) = memo.get(&n) {
            return r;
        }
        if depth == 0 {
            return n;
        }
        let mut f = |acf: &mut Acf, x: Node| acf.aligned_form(x, memo, depth - 1);
        let r = match self.kinds[n.index()] {
            Kind::Const(_) | Kind::Atom(_) | Kind::LoopOut(..) | Kind::Opaque(..) => n,
            Kind::Add(a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                if (x, y) == (a, b) { n } else { self.add(x, y) }
            }
            Kind::Mul(a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                if (x, y) == (a, b) { n } else { self.mul(x, y) }
            }
            Kind::Neg(a) => {
                let x = f(self, a);
                if x == a { n } else { self.neg(x) }
            }
            Kind::Not(a) => {
                let x = f(self, a);
                if x == a { n } else { self.not(x) }
            }
            Kind::Ext(e, a) => {
                let x = f(self, a);
                if x == a { n } else { self.ext(e, x) }
            }
            Kind::And(a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                if (x, y) == (a, b) { n } else { self.and(x, y) }
            }
            Kind::Or(a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                if (x, y) == (a, b) { n } else { self.or(x, y) }
            }
            Kind::Cmp(c, a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                if (x, y) == (a, b) {
                    n
                } else {
                    self.cmp(c, x, y)
                }
            }
            Kind::Select(p, a, b) => {
                let (q, x, y) = (f(self, p), f(self, a), f(self, b));
                if (q, x, y) == (p, a, b) {
                    n
                } else {
                    self.select(q, x, y)
                }
            }
            Kind::Bin(op, a, b) => {
                let (x, y) = (f(self, a), f(self, b));
                // nvcc also writes the mask first (`and.b32 %r, %mask, %index`).
                let (v, m) = if op == BinOp::And && self.as_const(x).is_some() {
                    (y, x)
                } else {
                    (x, y)
                };
                let low_bits = match (op, self.as_const(m)) {
                    (BinOp::And, Some(c)) if c > 0 && c & (c + 1) == 0 => {
                        Some((c + 1).trailing_zeros())
                    }
                    (BinOp::Rem { signed: false }, Some(d)) if d > 1 && d & (d - 1) == 0 => {
                        Some(d.trailing_zeros())
                    }
                    _ => None,
                };
                match low_bits
                    .filter(|k| (1..=32).contains(k))
                    .and_then(|k| self.without_multiples(v, k))
                {
                    Some(rest) => self.bin(op, rest, m),
                    None if (x, y) == (a, b) => n,
                    None => self.bin(op, x, y),
                }
            }
        };
        memo.insert(n, r);
        r
    }

    /// The conjuncts of the path predicate `n` that may differ between lanes, with the
    /// lane-uniform ones that read loaded data or loop counters left out, when there are any:
    /// `if (!vali[k] || j + 1 == iters) { for (l = tid; l < n; l += ntid) ... }` splits the
    /// warp at the inner test wherever the outer one lets the warp in, and the outer one, the
    /// same in every lane, lets in all of the warp or none of it. Deciding it would only
    /// enumerate the loops it reads. Cheap uniform conjuncts (block index, parameters) stay.
    /// Call after [`Acf::finalize`]: new nodes get their flags here.
    pub fn lane_varying_part(&mut self, n: Node) -> Option<Node> {
        let mut conj = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            match self.kinds[x.index()] {
                Kind::And(a, b) if conj.len() + stack.len() < 64 => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => conj.push(x),
            }
        }
        let costly = flags::LOOP | flags::LOAD | flags::UDATA;
        let dropped = |acf: &Acf, c: Node| !acf.is_td(c) && acf.flags(c) & costly != 0;
        if !conj.iter().any(|&c| dropped(self, c)) || !conj.iter().any(|&c| self.is_td(c)) {
            return None;
        }
        let mut acc = self.konst(1);
        for c in conj {
            if dropped(self, c) {
                continue;
            }
            let r = self.and(acc, c);
            if r.index() >= self.flags.len() {
                self.flags.resize(r.index() + 1, 0);
                self.flags[r.index()] = self.flags(acc) | self.flags(c);
            }
            acc = r;
        }
        Some(acc)
    }

    /// `x` rebuilt from its canonical polynomial without the terms whose coefficient is a
    /// multiple of `2^k` (they are multiples of `2^k` whatever their atoms are), if it has any.
    fn without_multiples(&mut self, x: Node, k: u32) -> Option<Node> {
        if self.poly_operands(x).is_empty() {
            return None;
        }
        let mut p = self.poly(x);
        let before = p.terms.len();
        p.terms.retain(|_, c| c.trailing_zeros() < k);
        (p.terms.len() < before).then(|| self.from_poly(&p))
    }

    pub fn cmp(&mut self, c: Cmp, a: Node, b: Node) -> Node {
        if !c.float
            && let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b))
        {
            return self.konst(i64::from(crate::expr::cmp_concrete(c, x, y)));
        }
        self.intern(Kind::Cmp(c, a, b))
    }

    pub fn and(&mut self, a: Node, b: Node) -> Node {
        match (self.as_const(a), self.as_const(b)) {
            (Some(0), _) | (_, Some(0)) => self.konst(0),
            (Some(_), _) => b,
            (_, Some(_)) => a,
            _ if a == b => a,
            _ => {
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Kind::And(a, b))
            }
        }
    }

    pub fn or(&mut self, a: Node, b: Node) -> Node {
        match (self.as_const(a), self.as_const(b)) {
            (Some(0), _) => b,
            (_, Some(0)) => a,
            (Some(_), _) | (_, Some(_)) => self.konst(1),
            _ if a == b => a,
            _ => {
                if let Some(p) = self.or_factor(a, b) {
                    return p;
                }
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                self.intern(Kind::Or(a, b))
            }
        }
    }

    /// `(p ∧ x) ∨ (p ∧ ¬x)` is `p`, and `p ∨ (p ∧ x)` is `p`: the path predicate at the join
    /// of an `if`/`else` is the first form, and left as it is a data-dependent `x` would make
    /// every access after the join look data-dependently masked.
    fn or_factor(&self, a: Node, b: Node) -> Option<Node> {
        let conj = |n: Node| match self.kinds[n.index()] {
            Kind::And(x, y) => Some([x, y]),
            _ => None,
        };
        let complementary = |x: Node, y: Node| {
            self.kinds[x.index()] == Kind::Not(y) || self.kinds[y.index()] == Kind::Not(x)
        };
        for (p, q) in [(a, b), (b, a)] {
            if conj(q).is_some_and(|c| c.contains(&p)) {
                return Some(p);
            }
        }
        let (ca, cb) = (conj(a)?, conj(b)?);
        for i in 0..2 {
            for j in 0..2 {
                if ca[i] == cb[j] && complementary(ca[1 - i], cb[1 - j]) {
                    return Some(ca[i]);
                }
            }
        }
        None
    }

    pub fn not(&mut self, a: Node) -> Node {
        if let Some(x) = self.as_const(a) {
            return self.konst(i64::from(x == 0));
        }
        if let Kind::Not(x) = self.kinds[a.index()] {
            return x;
        }
        self.intern(Kind::Not(a))
    }

    pub fn select(&mut self, p: Node, a: Node, b: Node) -> Node {
        if a == b {
            return a;
        }
        match self.as_const(p) {
            Some(0) => b,
            Some(_) => a,
            None => self.intern(Kind::Select(p, a, b)),
        }
    }

    pub fn ext(&mut self, e: Ext, a: Node) -> Node {
        if let Some(x) = self.as_const(a) {
            return self.konst(crate::expr::ext_concrete(e, x));
        }
        if let Kind::Ext(e2, _) = self.kinds[a.index()]
            && e2 == e
        {
            return a;
        }
        self.intern(Kind::Ext(e, a))
    }

    pub fn opaque(&mut self, tag: u32, a: Node, b: Node) -> Node {
        self.intern(Kind::Opaque(tag, a, b))
    }

    /// Children of a node, including the hidden edges of atoms (a load's address, a loop
    /// variable's initial, update and closed-form expressions).
    pub fn children(&self, n: Node) -> SmallVec<[Node; 4]> {
        let mut v = SmallVec::new();
        match self.kinds[n.index()] {
            Kind::Const(_) => {}
            Kind::Atom(Atom::Load(i)) => v.push(self.loads[i as usize].addr),
            Kind::Atom(Atom::LoopVar(i)) => {
                let lv = &self.loopvars[i as usize];
                v.push(lv.init);
                v.push(lv.update);
                if let Some(c) = lv.closed {
                    v.push(c);
                }
            }
            Kind::Atom(_) => {}
            Kind::Neg(a) | Kind::Not(a) | Kind::Ext(_, a) => v.push(a),
            Kind::LoopOut(l, a) => {
                v.push(a);
                v.push(self.loops[l as usize].cont);
            }
            Kind::Add(a, b)
            | Kind::Mul(a, b)
            | Kind::Bin(_, a, b)
            | Kind::Cmp(_, a, b)
            | Kind::And(a, b)
            | Kind::Or(a, b)
            | Kind::Opaque(_, a, b) => {
                v.push(a);
                v.push(b);
            }
            Kind::Select(p, a, b) => {
                v.push(p);
                v.push(a);
                v.push(b);
            }
        }
        v
    }

    /// Computes dependence flags for every node (a fixpoint: loop variables refer forward).
    pub fn finalize(&mut self) {
        let n = self.kinds.len();
        self.flags = vec![0; n];
        loop {
            let mut changed = false;
            for i in 0..n {
                let node = Node::new(i);
                let own = match self.kinds[i] {
                    Kind::Atom(a) => match a {
                        Atom::Tid(_) => flags::TID,
                        Atom::Laneid => flags::LANE,
                        Atom::Unknown(_) => flags::UNKNOWN,
                        Atom::Ctaid(_) => flags::CTAID,
                        Atom::Param { .. } => flags::PARAM,
                        Atom::Iter(_) => flags::LOOP,
                        Atom::LoopVar(v) => {
                            if self.loopvars[v as usize].closed.is_none() {
                                flags::LOOP | flags::NONAFFINE
                            } else {
                                flags::LOOP
                            }
                        }
                        Atom::Load(l) => {
                            let af = self.flags[self.loads[l as usize].addr.index()];
                            flags::LOAD
                                | flags::UDATA
                                | if af & flags::TD != 0 {
                                    flags::LOAD_TD
                                } else {
                                    0
                                }
                        }
                        Atom::Uniform(_) => flags::UDATA,
                        _ => 0,
                    },
                    Kind::Opaque(..) => flags::FLOAT,
                    Kind::LoopOut(l, _)
                        if self.flags[self.loops[l as usize].cont.index()] & flags::TD != 0 =>
                    {
                        flags::UNKNOWN
                    }
                    _ => 0,
                };
                let mut f = own;
                for c in self.children(node) {
                    let mut cf = self.flags[c.index()];
                    if let Kind::LoopOut(l, _) = self.kinds[i]
                        && c == self.loops[l as usize].cont
                    {
                        // The exit condition only decides when lanes leave.
                        cf &= flags::TD;
                    }
                    // A load's address flags do not make the loaded value thread-dependent
                    // by themselves (a uniform address broadcasts).
                    f |= if matches!(self.kinds[i], Kind::Atom(Atom::Load(_))) {
                        cf & !(flags::TD)
                    } else {
                        cf
                    };
                }
                if f != self.flags[i] {
                    self.flags[i] = f;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for lv in 0..self.loopvars.len() {
            let v = &self.loopvars[lv];
            let f = self.flags[v.init.index()] | self.flags[v.update.index()];
            self.loopvars[lv].td = f & flags::TD != 0;
        }
        self.loop_variant_outs.clear();
        for i in 0..n {
            if let Kind::LoopOut(l, v) = self.kinds[i]
                && self.varies_in_loop(v, l)
            {
                self.loop_variant_outs.insert(Node::new(i));
            }
        }
    }

    /// Whether `n` may change from one trip of loop `l` to the next: it reads a variable or
    /// the trip count of `l` or of a loop inside it (through loads' addresses, not through
    /// the variables of other loops, which keep their value while `l` runs).
    fn varies_in_loop(&self, n: Node, l: u32) -> bool {
        let inside = |mut k: u32| loop {
            if k == l {
                return true;
            }
            match self.loops.get(k as usize).and_then(|x| x.parent) {
                Some(p) => k = p,
                None => return false,
            }
        };
        self.walk(n, |k| match k {
            Kind::Atom(Atom::LoopVar(v)) => {
                if inside(self.loopvars[v as usize].loop_idx) {
                    Walk::Stop
                } else {
                    Walk::Skip
                }
            }
            Kind::Atom(Atom::Iter(k)) if inside(k) => Walk::Stop,
            _ => Walk::Into,
        })
    }

    /// Whether the exit value `n` (a [`Kind::LoopOut`]) changes from one trip of its loop to
    /// the next: where lanes leave on different trips, they leave with different values even
    /// when every trip gives all of them the same one (`while (sum < t) s = q++;` reads `s`
    /// per lane after the loop).
    pub fn loop_variant_out(&self, n: Node) -> bool {
        self.loop_variant_outs.contains(&n)
    }

    /// Visits each distinct node under `n` (`n` included, through loads' addresses, loop
    /// variables and loop conditions too, as [`Acf::children`] gives them) until `f` says
    /// [`Walk::Stop`]; returns whether it stopped.
    pub fn walk(&self, n: Node, f: impl FnMut(Kind) -> Walk) -> bool {
        self.walk_from(&[n], f)
    }

    /// [`Acf::walk`] from several roots at once: each distinct node under any of them is
    /// visited once.
    pub fn walk_from(&self, roots: &[Node], f: impl FnMut(Kind) -> Walk) -> bool {
        // The walks of a check visit millions of nodes; a hash set per walk, grown from empty,
        // was a quarter of the slowest modules' time. The thread's stamp table marks a node
        // seen in O(1) with no clearing between walks; a walk started from inside another's
        // callback (the table is taken) keeps a set of its own.
        WALK_STAMPS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut stamps) => {
                let epoch = stamps.next_epoch(self.kinds.len());
                self.walk_with(roots, f, |x| stamps.mark(x.index(), epoch))
            }
            Err(_) => {
                let mut seen = FxHashSet::default();
                self.walk_with(roots, f, |x| seen.insert(x))
            }
        })
    }

    /// [`Acf::walk_from`] with `first_visit(x)` telling whether `x` is met for the first time.
    fn walk_with(
        &self,
        roots: &[Node],
        mut f: impl FnMut(Kind) -> Walk,
        mut first_visit: impl FnMut(Node) -> bool,
    ) -> bool {
        let mut stack: Vec<Node> = Vec::with_capacity(64);
        stack.extend(roots.iter().rev());
        while let Some(x) = stack.pop() {
            if !first_visit(x) {
                continue;
            }
            match f(self.kinds[x.index()]) {
                Walk::Into => stack.extend(self.children(x)),
                Walk::Skip => {}
                Walk::Stop => return true,
            }
        }
        false
    }

    /// The parameter atoms `n` depends on (through loads' addresses and loop variables too).
    pub fn params_under(&self, n: Node) -> Vec<Atom> {
        let mut out = Vec::new();
        self.walk(n, |k| match k {
            Kind::Atom(a @ Atom::Param { .. }) => {
                if !out.contains(&a) {
                    out.push(a);
                }
                Walk::Skip
            }
            _ => Walk::Into,
        });
        out
    }

    /// Dependence flags of `n` (after [`Acf::finalize`]).
    pub fn flags(&self, n: Node) -> u16 {
        self.flags.get(n.index()).copied().unwrap_or(0)
    }

    /// Whether `n` may differ between lanes of a warp.
    pub fn is_td(&self, n: Node) -> bool {
        self.flags(n) & flags::TD != 0
    }

    /// The canonical sum-of-products form of `n` (atoms are non-arithmetic nodes).
    pub fn poly(&self, n: Node) -> Poly {
        let mut memo: FxHashMap<Node, Poly> = FxHashMap::default();
        self.poly_memo(n, &mut memo)
    }

    /// The arithmetic operands [`Acf::poly_memo`] expands `n` into (none for an atom).
    fn poly_operands(&self, n: Node) -> SmallVec<[Node; 2]> {
        match self.kinds[n.index()] {
            Kind::Add(a, b) | Kind::Mul(a, b) => SmallVec::from_slice(&[a, b]),
            Kind::Neg(a) | Kind::Ext(_, a) => SmallVec::from_slice(&[a]),
            Kind::Bin(BinOp::Shl, a, b) if matches!(self.as_const(b), Some(0..=62)) => {
                SmallVec::from_slice(&[a])
            }
            _ => SmallVec::new(),
        }
    }

    /// [`Acf::poly`] sharing `memo`. Iterative (an arithmetic chain as long as the input does
    /// not deepen the stack), and bounded: a node whose expansion would exceed
    /// [`MAX_POLY_TERMS`] terms stays an atom.
    fn poly_memo(&self, root: Node, memo: &mut FxHashMap<Node, Poly>) -> Poly {
        let mut stack: Vec<(Node, bool)> = vec![(root, false)];
        while let Some((n, ready)) = stack.pop() {
            if memo.contains_key(&n) {
                continue;
            }
            let ops = self.poly_operands(n);
            if !ready {
                stack.push((n, true));
                stack.extend(
                    ops.iter()
                        .filter(|o| !memo.contains_key(o))
                        .map(|&o| (o, false)),
                );
                continue;
            }
            let get = |o: Node| memo.get(&o).cloned().unwrap_or_else(|| Poly::atom(o));
            let p = match self.kinds[n.index()] {
                Kind::Const(c) => Poly::constant(c),
                Kind::Add(..) => {
                    let (a, b) = (get(ops[0]), get(ops[1]));
                    if a.terms.len() + b.terms.len() > MAX_POLY_TERMS {
                        Poly::atom(n)
                    } else {
                        a.add(&b)
                    }
                }
                Kind::Mul(..) => {
                    let (a, b) = (get(ops[0]), get(ops[1]));
                    if a.terms.len() * b.terms.len() > MAX_POLY_TERMS {
                        Poly::atom(n)
                    } else {
                        a.mul(&b)
                    }
                }
                Kind::Neg(_) => get(ops[0]).neg(),
                Kind::Ext(..) => get(ops[0]),
                // Shifts left by a constant are multiplications.
                Kind::Bin(BinOp::Shl, _, b) if !ops.is_empty() => {
                    let k = self.as_const(b).unwrap_or(0);
                    get(ops[0]).mul(&Poly::constant(1i64 << k))
                }
                _ => Poly::atom(n),
            };
            memo.insert(n, p);
        }
        memo.get(&root).cloned().unwrap_or_else(|| Poly::atom(root))
    }

    /// Rebuilds a node from a polynomial.
    pub fn from_poly(&mut self, p: &Poly) -> Node {
        let mut acc = self.konst(0);
        for (m, &c) in &p.terms {
            let mut t = self.konst(c);
            for &a in m {
                t = self.mul(t, a);
            }
            acc = self.add(acc, t);
        }
        acc
    }

    /// `n` rebuilt from its canonical polynomial when expanding it cancels a non-arithmetic
    /// operand: `i + (j - 1)*n` with `j = idx / n` and `i = idx - j*n` (nvcc's remainder) is
    /// `idx - n`, although `idx / n` alone cannot be evaluated per lane with `n` unknown.
    /// `None` when nothing cancels (the expansion keeps every operand it reaches).
    pub fn cancelled_form(&mut self, n: Node) -> Option<Node> {
        let p = self.poly(n);
        let kept: rustc_hash::FxHashSet<Node> = p.atoms().into_iter().collect();
        // The operands the arithmetic spine of `n` reaches (what `poly` expands through).
        let mut seen: rustc_hash::FxHashSet<Node> = rustc_hash::FxHashSet::default();
        let mut stack = vec![n];
        let mut cancelled = false;
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            let ops = self.poly_operands(x);
            if ops.is_empty() {
                if self.as_const(x).is_none() && !kept.contains(&x) {
                    cancelled = true;
                    break;
                }
            } else {
                stack.extend(ops);
            }
        }
        cancelled.then(|| self.from_poly(&p))
    }

    /// A readable name for an atom-like node.
    pub fn atom_name(&self, n: Node, names: &dyn Fn(Atom) -> Option<String>) -> String {
        Render::new(self, names).atom(n)
    }

    /// The canonical form of `n` as text, at most about [`DISPLAY_CHARS`] characters (deeper
    /// or further parts are elided as `…`: a finding quotes an expression, it does not dump a
    /// DAG whose tree form can be exponential in the input).
    pub fn display_with(&self, n: Node, names: &dyn Fn(Atom) -> Option<String>) -> String {
        Render::new(self, names).node(n)
    }

    /// The canonical form of `n` as text with default names.
    pub fn display(&self, n: Node) -> String {
        self.display_with(n, &|_| None)
    }

    /// [`Acf::display`], remembering what it rendered and the polynomials it built in
    /// `cache` (the findings of a kernel quote its nodes again and again, once per block
    /// shape tried, and share subexpressions).
    pub fn display_cached(&self, n: Node, cache: &mut RenderCache) -> String {
        if let Some(s) = cache.strings.get(&n) {
            return s.clone();
        }
        let names = |_| None;
        let mut r = Render::new(self, &names);
        r.polys = std::mem::take(&mut cache.polys);
        let s = r.node(n);
        cache.polys = r.polys;
        cache.strings.insert(n, s.clone());
        s
    }
}

/// What [`Acf::display_cached`] keeps: rendered nodes and the canonical polynomials built.
#[derive(Debug, Default)]
pub struct RenderCache {
    strings: FxHashMap<Node, String>,
    polys: FxHashMap<Node, Poly>,
}

/// Most terms a canonical polynomial keeps (a larger expansion stays an atom).
pub const MAX_POLY_TERMS: usize = 256;
/// Characters of an expression rendered before the rest is elided.
pub const DISPLAY_CHARS: usize = 400;
/// Nesting of rendered expressions before deeper parts are elided.
const DISPLAY_DEPTH: u32 = 24;

/// Renders ACF nodes as text within a budget of characters and nesting, sharing polynomials.
struct Render<'a> {
    acf: &'a Acf,
    names: &'a dyn Fn(Atom) -> Option<String>,
    polys: FxHashMap<Node, Poly>,
    left: usize,
    depth: u32,
}

impl<'a> Render<'a> {
    fn new(acf: &'a Acf, names: &'a dyn Fn(Atom) -> Option<String>) -> Self {
        Render {
            acf,
            names,
            polys: FxHashMap::default(),
            left: DISPLAY_CHARS,
            depth: 0,
        }
    }

    fn spend(&mut self, s: String) -> String {
        self.left = self.left.saturating_sub(s.len().max(1));
        s
    }

    /// `n` in canonical form.
    fn node(&mut self, n: Node) -> String {
        if self.left == 0 || self.depth >= DISPLAY_DEPTH {
            return "…".into();
        }
        let p = self.acf.poly_memo(n, &mut self.polys);
        if p.terms.len() == 1
            && let Some((m, 1)) = p.terms.iter().next().map(|(m, c)| (m, *c))
            && m.len() == 1
            && m[0] == n
        {
            // An atom-like node: avoid recursing into itself.
            return self.atom(n);
        }
        self.depth += 1;
        let s = p.display(|a| self.atom(a));
        self.depth -= 1;
        s
    }

    fn op(&mut self, open: &str, parts: &[Node], sep: &str, close: &str) -> String {
        let mut s = String::from(open);
        for (i, &x) in parts.iter().enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(&self.node(x));
        }
        s.push_str(close);
        s
    }

    /// An atom-like node (or an arithmetic node too large to expand) by name.
    fn atom(&mut self, n: Node) -> String {
        if self.left == 0 || self.depth >= DISPLAY_DEPTH {
            return "…".into();
        }
        self.depth += 1;
        let s = self.atom_inner(n);
        self.depth -= 1;
        s
    }

    fn atom_inner(&mut self, n: Node) -> String {
        let acf = self.acf;
        match acf.kinds[n.index()] {
            Kind::Atom(a) => {
                if let Some(s) = (self.names)(a) {
                    return self.spend(s);
                }
                let s = match a {
                    Atom::Tid(d) => format!("tid.{}", crate::uniformity::dim_name(d)),
                    Atom::Ntid(d) => format!("ntid.{}", crate::uniformity::dim_name(d)),
                    Atom::Ctaid(d) => format!("ctaid.{}", crate::uniformity::dim_name(d)),
                    Atom::Nctaid(d) => format!("nctaid.{}", crate::uniformity::dim_name(d)),
                    Atom::Laneid => "laneid".into(),
                    Atom::Param { index, offset, .. } => {
                        if offset == 0 {
                            format!("[param{index}]")
                        } else {
                            format!("[param{index}+{offset}]")
                        }
                    }
                    Atom::VarAddr(v) => format!("&{}", acf.vars[v as usize].name),
                    Atom::Load(l) => {
                        self.left = self.left.saturating_sub(6);
                        let addr = self.node(acf.loads[l as usize].addr);
                        return format!("load[{addr}]");
                    }
                    Atom::Unknown(u) => format!("?{u}"),
                    Atom::LoopVar(v) => format!("[phi{v}]"),
                    Atom::Iter(l) => format!("[iter{l}]"),
                    Atom::Uniform(u) => format!("[u{u}]"),
                };
                self.spend(s)
            }
            Kind::Const(c) => self.spend(c.to_string()),
            Kind::Cmp(c, a, b) => {
                self.left = self.left.saturating_sub(4);
                self.op("(", &[a, b], &format!(" {} ", cmp_symbol(c.op)), ")")
            }
            Kind::And(a, b) => {
                self.left = self.left.saturating_sub(6);
                self.op("(", &[a, b], " && ", ")")
            }
            Kind::Or(a, b) => {
                self.left = self.left.saturating_sub(6);
                self.op("(", &[a, b], " || ", ")")
            }
            Kind::Not(a) => {
                self.left = self.left.saturating_sub(1);
                format!("!{}", self.node(a))
            }
            Kind::Select(p, a, b) => {
                self.left = self.left.saturating_sub(8);
                let p = self.node(p);
                let (a, b) = (self.node(a), self.node(b));
                format!("({p} ? {a} : {b})")
            }
            Kind::Bin(op, a, b) => {
                let s = match op {
                    BinOp::Div { .. } => "/",
                    BinOp::Rem { .. } => "%",
                    BinOp::And => "&",
                    BinOp::Or => "|",
                    BinOp::Xor => "^",
                    BinOp::Shl => "<<",
                    BinOp::Shr { .. } => ">>",
                    BinOp::Min { .. } => "min",
                    BinOp::Max { .. } => "max",
                    BinOp::MulHi { .. } => "mulhi",
                };
                self.left = self.left.saturating_sub(6);
                if matches!(
                    op,
                    BinOp::Min { .. } | BinOp::Max { .. } | BinOp::MulHi { .. }
                ) {
                    self.op(&format!("{s}("), &[a, b], ", ", ")")
                } else {
                    self.op("(", &[a, b], &format!(" {s} "), ")")
                }
            }
            Kind::Opaque(..) => self.spend("f(..)".into()),
            Kind::LoopOut(_, a) => self.node(a),
            // Arithmetic kept whole because its expansion is too large.
            Kind::Add(a, b) => {
                self.left = self.left.saturating_sub(5);
                self.op("(", &[a, b], " + ", ")")
            }
            Kind::Mul(a, b) => {
                self.left = self.left.saturating_sub(3);
                self.op("(", &[a, b], "*", ")")
            }
            Kind::Neg(a) => {
                self.left = self.left.saturating_sub(1);
                format!("-{}", self.node(a))
            }
            Kind::Ext(_, a) => self.node(a),
        }
    }
}

fn cmp_symbol(op: CmpOp) -> &'static str {
    use CmpOp::*;
    match op {
        Eq | Equ => "==",
        Ne | Neu => "!=",
        Lt | Lo | Ltu => "<",
        Le | Ls | Leu => "<=",
        Gt | Hi | Gtu => ">",
        Ge | Hs | Geu => ">=",
        Num => "num",
        Nan => "nan",
    }
}

/// Per-thread marks of the nodes one [`Acf::walk`] has visited: a node is seen in the current
/// walk when its stamp equals the walk's epoch, so starting a walk costs no clearing.
#[derive(Default)]
struct WalkStamps {
    stamps: Vec<u32>,
    epoch: u32,
}

impl WalkStamps {
    /// The epoch of a new walk over a graph of `nodes` nodes.
    fn next_epoch(&mut self, nodes: usize) -> u32 {
        if self.stamps.len() < nodes {
            self.stamps.resize(nodes, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: stamps of 4 billion walks ago would read as seen.
            self.stamps.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// Marks node `i` seen in `epoch`; whether it was not seen before.
    fn mark(&mut self, i: usize, epoch: u32) -> bool {
        let s = &mut self.stamps[i];
        let first = *s != epoch;
        *s = epoch;
        first
    }
}

thread_local! {
    static WALK_STAMPS: std::cell::RefCell<WalkStamps> = std::cell::RefCell::default();
}
