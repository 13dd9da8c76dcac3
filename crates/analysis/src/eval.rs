//! Evaluating ACF expressions for the 32 lanes of a warp at once.
//!
//! A [`WarpVal`] is a polynomial whose coefficients are per-lane vectors: `Σₘ cₘ[lane] · m`
//! where each monomial `m` is a product of *uniform* symbols (parameters, block indices,
//! loop-carried values, loads through uniform addresses, ...). Thread indices are substituted
//! by each lane's coordinates, so `4*tid.x + 1024*ctaid.x + [in]` becomes the lane vector
//! `[0, 4, 8, ...]` plus the uniform terms `1024*ctaid.x + [in]`, and the difference between
//! two lanes cancels every uniform term exactly as GPUCheck's `ACF_tx − ACF_t0` does.
//!
//! Lanes whose value cannot be expressed this way are marked: `unknown` when they depend on
//! data (a load through a thread-dependent address, an atomic, a clock), `opaque` when they
//! depend on a uniform unknown in a non-polynomial way (e.g. `tid < n` with `n` unknown).

use crate::acf::Acf;
use crate::expr::{Atom, BinOp, Cmp, Kind, Node, bin_concrete, cmp_concrete, ext_concrete};
use crate::geometry::LaneCoord;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use warpscope_ptx::Dim;

pub use crate::symbols::{Sym, SymInfo, Symbols};
use crate::warp_val::ZERO;
pub use crate::warp_val::{Coef, Lanes, WarpVal};

/// Everything an evaluation depends on besides the expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    /// Each lane's coordinates, shared by the environments made from one warp's (copies of an
    /// environment copy no lanes, and two environments of one warp compare them at a glance).
    pub lanes: std::rc::Rc<[Option<LaneCoord>; 32]>,
    /// Lanes that exist (a partial last warp has fewer).
    pub valid: u32,
    pub block: [u32; 3],
    pub grid: Option<[u32; 3]>,
    /// A concrete block index, when blocks are enumerated.
    pub ctaid: Option<[u32; 3]>,
    /// Bound atoms: assumed parameters, sampled loop variables and iteration counts.
    pub bind: FxHashMap<Atom, WarpVal>,
    /// Nodes read as an unknown value shared by the warp (boundary checks, so that the lanes
    /// they switch off at the edge of the data do not count as holes in a request).
    pub uniform_nodes: Option<std::rc::Rc<rustc_hash::FxHashSet<Node>>>,
}

impl Env {
    /// The environment of warp `w` of a block of `geometry`.
    pub fn warp(geometry: &crate::geometry::Geometry, w: u32) -> Env {
        let lanes = geometry.warp_lanes(w);
        let mut valid = 0u32;
        for (k, l) in lanes.iter().enumerate() {
            if l.is_some() {
                valid |= 1 << k;
            }
        }
        Env {
            lanes: std::rc::Rc::new(lanes),
            valid,
            block: geometry.block,
            grid: geometry.grid,
            ctaid: None,
            bind: FxHashMap::default(),
            uniform_nodes: None,
        }
    }

    /// Hashes of everything the environment holds, with and without the lanes' coordinates
    /// (what a memo of thread-dependent nodes, and one of the others, is kept by); the
    /// bindings and the uniform nodes are combined without regard to their order, as their
    /// equality is.
    pub fn keys(&self) -> (u64, u64) {
        use std::hash::{BuildHasher, Hash, Hasher};
        let build = rustc_hash::FxBuildHasher;
        let mut h = build.build_hasher();
        self.valid.hash(&mut h);
        self.block.hash(&mut h);
        self.grid.hash(&mut h);
        self.ctaid.hash(&mut h);
        let bind = self
            .bind
            .iter()
            .fold(0u64, |acc, kv| acc.wrapping_add(build.hash_one(kv)));
        bind.hash(&mut h);
        self.bind.len().hash(&mut h);
        if let Some(u) = &self.uniform_nodes {
            let nodes = u
                .iter()
                .fold(0u64, |acc, n| acc.wrapping_add(build.hash_one(n)));
            (u.len(), nodes).hash(&mut h);
        }
        let without = h.finish();
        // The first lane stands for the warp (a warp's lanes follow from it and the block in
        // every environment made); equality compares them all.
        let first = (self.valid.trailing_zeros() as usize).min(31);
        let with = build.hash_one((without, self.lanes[first]));
        (with, without)
    }

    /// Whether the two environments agree on everything but the lanes' coordinates (what a
    /// node that does not depend on the thread reads).
    fn same_but_lanes(&self, o: &Env) -> bool {
        self.valid == o.valid
            && self.block == o.block
            && self.grid == o.grid
            && self.ctaid == o.ctaid
            && self.bind == o.bind
            && self.uniform_nodes == o.uniform_nodes
    }
}

/// The wide arm of nvcc's 64-bit division or remainder, `((x | y) & 0xffffffff00000000) == 0
/// ? narrow : wide`, whose narrow arm is the same computation on 32-bit operands: taken only
/// where they fit, where both agree, so the select is the wide arm whatever the condition.
fn wide_division_arm(acf: &Acf, p: Node, a: Node, b: Node) -> Option<Node> {
    let mut c = p;
    let mut negated = false;
    while let Kind::Not(x) = acf.kind(c) {
        c = x;
        negated = !negated;
    }
    let Kind::Cmp(cmp, l, r) = acf.kind(c) else {
        return None;
    };
    let eq = match cmp.op {
        warpscope_ptx::CmpOp::Eq => true,
        warpscope_ptx::CmpOp::Ne => false,
        _ => return None,
    };
    let high_bits = |n: Node| {
        matches!(acf.kind(n), Kind::Bin(BinOp::And, x, y)
            if [x, y].iter().any(|&m| matches!(acf.kind(m), Kind::Const(-4294967296))))
    };
    let zero = |n: Node| matches!(acf.kind(n), Kind::Const(0));
    if !(high_bits(l) && zero(r) || high_bits(r) && zero(l)) {
        return None;
    }
    let mut budget = 64;
    if !same_but_width(acf, a, b, &mut budget) {
        return None;
    }
    // `p` holds where the operands fit in 32 bits: `a` is the narrow arm.
    Some(if eq != negated { b } else { a })
}

/// Whether `a` and `b` compute the same expression but for widenings and the signedness of
/// divisions (at most `budget` nodes compared).
fn same_but_width(acf: &Acf, a: Node, b: Node, budget: &mut u32) -> bool {
    let (a, b) = (acf.without_ext(a), acf.without_ext(b));
    if a == b {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let division = |op: BinOp| match op {
        BinOp::Div { .. } => Some(true),
        BinOp::Rem { .. } => Some(false),
        _ => None,
    };
    match (acf.kind(a), acf.kind(b)) {
        // Operands of a sum or product in either order (the ACF orders them by node).
        (Kind::Add(x1, y1), Kind::Add(x2, y2)) | (Kind::Mul(x1, y1), Kind::Mul(x2, y2)) => {
            same_but_width(acf, x1, x2, budget) && same_but_width(acf, y1, y2, budget)
                || same_but_width(acf, x1, y2, budget) && same_but_width(acf, y1, x2, budget)
        }
        (Kind::Neg(x1), Kind::Neg(x2)) => same_but_width(acf, x1, x2, budget),
        (Kind::Bin(o1, x1, y1), Kind::Bin(o2, x2, y2))
            if o1 == o2 || division(o1).is_some() && division(o1) == division(o2) =>
        {
            same_but_width(acf, x1, x2, budget) && same_but_width(acf, y1, y2, budget)
        }
        _ => false,
    }
}

/// How symbols get their [`SymInfo`] (parameter alignment and the like).
pub trait SymOracle {
    fn info(&self, s: Sym, acf: &Acf) -> SymInfo;
}

/// Nodes read as an unknown value shared by the warp ([`Env::uniform_nodes`]).
pub type SharedNodes = Option<std::rc::Rc<rustc_hash::FxHashSet<Node>>>;

/// The values of nodes already evaluated in one environment.
pub type Memo = FxHashMap<Node, std::rc::Rc<WarpVal>>;

/// Memos kept across evaluations. The sites of a kernel share their index arithmetic
/// (`ctaid.x*ntid.x + tid.x`, a row pitch), so a site evaluated in an environment an earlier
/// site used looks those values up instead of recomputing them; and a node that does not
/// depend on the thread ([`crate::expr::flags::TD`] clear) has the same value in every warp
/// of a block, so its values are kept per environment with the lanes left out. Evaluation is
/// a function of the node and the environment alone (symbols are interned by what they stand
/// for, not by when), so a shared memo gives the values a fresh one would.
#[derive(Debug, Default)]
pub struct MemoCache {
    by_env: FxHashMap<u64, Vec<(Env, Memo)>>,
    by_uniform_env: FxHashMap<u64, Vec<(Env, Memo)>>,
    entries: usize,
    /// The memos of environments not kept.
    scratch: (Memo, Memo),
    /// The memos of simulated loop iterations ([`MemoCache::sample_memos`]), by sample and by
    /// the nodes read as shared, and how many values they hold.
    by_sample: FxHashMap<usize, Vec<(SharedNodes, Memo, Memo)>>,
    sample_entries: usize,
}

/// Values the memos of simulated loop iterations hold before they start over. Each sample
/// binds per-lane values, so a sample's memo serves only the sites of its loop; kept in one
/// table keyed by the environment's own hash and equality, they cost more than they saved on
/// some kernels (HeCBench's `sc`: 0.40 s → 2.2 s, `scatterAdd` 0.28 → 0.67 s).
const SAMPLE_MEMO_ENTRIES: usize = 20_000;

/// Values a [`MemoCache`] holds before it starts over: it bounds the memory (a value takes a
/// few hundred bytes, so tens of MB at most). It was 5,000, which large kernels outgrew at
/// every few sites, evaluating the same nodes again (HeCBench's `aobench`: 1.1 s → 0.59 s at
/// 100,000); the HeCBench sweep's resident memory is unchanged (median 20 MB, largest
/// 570 MB for a 1.2 M-line module; docs/performance.md "HeCBench sweep").
const MEMO_CACHE_ENTRIES: usize = 100_000;

impl MemoCache {
    /// The memos of `env`: of thread-dependent nodes, and of the others. Empty on first sight.
    pub fn memos(&mut self, env: &Env) -> (&mut Memo, &mut Memo) {
        if env.bind.keys().any(|a| matches!(a, Atom::Iter(_))) {
            // A sample of a simulated loop: rarely met again, and costly to keep (its
            // bindings hold per-lane values); a memo of its own, as before sharing.
            self.scratch.0.clear();
            self.scratch.1.clear();
            return (&mut self.scratch.0, &mut self.scratch.1);
        }
        if self.entries >= MEMO_CACHE_ENTRIES {
            self.by_env.clear();
            self.by_uniform_env.clear();
            self.entries = 0;
        }
        let (with_lanes, without) = env.keys();
        let td = memo_in(&mut self.by_env, env, with_lanes, true);
        let uniform = memo_in(&mut self.by_uniform_env, env, without, false);
        (td, uniform)
    }

    /// Counts `n` values added to some memo since the last call.
    pub fn added(&mut self, n: u64) {
        self.entries = self.entries.saturating_add(n as usize);
    }

    /// The memos of one sample of a simulated loop, identified by `sample` (the address of a
    /// sample the checker keeps for its whole life, so no two samples share one), evaluated
    /// with `uniform` as the nodes read as shared. Every site in the loop's body is evaluated
    /// in the same samples, and recomputing their shared index arithmetic at each was most of
    /// the time of loop-heavy kernels (HeCBench's `matrix-rotate`: 20 → 12.6 ms for the whole
    /// process, the same report).
    pub fn sample_memos(&mut self, sample: usize, uniform: &SharedNodes) -> (&mut Memo, &mut Memo) {
        if self.sample_entries >= SAMPLE_MEMO_ENTRIES {
            self.by_sample.clear();
            self.sample_entries = 0;
        }
        let bucket = self.by_sample.entry(sample).or_default();
        let i = match bucket.iter().position(|(u, _, _)| u == uniform) {
            Some(i) => i,
            None => {
                bucket.push((uniform.clone(), Memo::default(), Memo::default()));
                bucket.len() - 1
            }
        };
        let (_, td, un) = &mut bucket[i];
        (td, un)
    }

    /// Counts `n` values added to the memos of samples since the last call.
    pub fn added_to_sample(&mut self, n: u64) {
        self.sample_entries = self.sample_entries.saturating_add(n as usize);
    }
}

/// The memo `map` keeps for `env` (keyed with or without the lanes' coordinates: `key` is the
/// matching hash of [`Env::keys`]), empty on first sight.
fn memo_in<'m>(
    map: &'m mut FxHashMap<u64, Vec<(Env, Memo)>>,
    env: &Env,
    key: u64,
    with_lanes: bool,
) -> &'m mut Memo {
    let bucket = map.entry(key).or_default();
    let same = |e: &Env| {
        if with_lanes {
            e == env
        } else {
            e.same_but_lanes(env)
        }
    };
    let i = match bucket.iter().position(|(e, _)| same(e)) {
        Some(i) => i,
        None => {
            bucket.push((env.clone(), Memo::default()));
            bucket.len() - 1
        }
    };
    &mut bucket[i].1
}

/// Whether the expression at `n` has at most `max` distinct nodes (a loop's condition cheap
/// enough to evaluate where its exit value is asked for).
fn small(acf: &Acf, n: Node, max: usize) -> bool {
    let mut count = 0;
    !acf.walk(n, |_| {
        count += 1;
        if count > max {
            crate::acf::Walk::Stop
        } else {
            crate::acf::Walk::Into
        }
    })
}

/// Evaluates nodes in one environment, memoising per node.
pub struct Evaluator<'a> {
    pub acf: &'a Acf,
    pub syms: &'a mut Symbols,
    pub oracle: &'a dyn SymOracle,
    pub env: &'a Env,
    memo: &'a mut Memo,
    /// The memo of nodes that do not depend on the thread, shared by the warps of a block.
    uniform_memo: &'a mut Memo,
    /// Nodes this evaluator computed (not found in the memo it was given).
    computed: u64,
    /// Nodes this evaluator was asked for, found in a memo or not.
    work: u64,
    /// [`Self::work`] plus, for each node computed, the terms of its value (and of a
    /// product, its pairs of terms): what the evaluation cost, closer to its time than a
    /// count of nodes (a product of two 64-term polynomials costs far more than a lookup).
    cost: u64,
    /// Loop variables whose closed form is being evaluated: a closed form that reaches its
    /// own variable again (only malformed input builds one: an initial value read through
    /// the loop's own header, in flow no compiler emits) is unknown rather than endless.
    expanding: SmallVec<[u32; 4]>,
}

fn dim_index(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(
        acf: &'a Acf,
        syms: &'a mut Symbols,
        oracle: &'a dyn SymOracle,
        env: &'a Env,
        (memo, uniform_memo): (&'a mut Memo, &'a mut Memo),
    ) -> Self {
        Evaluator {
            acf,
            syms,
            oracle,
            env,
            memo,
            uniform_memo,
            computed: 0,
            work: 0,
            cost: 0,
            expanding: SmallVec::new(),
        }
    }

    /// The evaluation's cost in node lookups and value terms computed, for the hard limit
    /// of [`crate::checks::Budget`].
    pub fn cost(&self) -> u64 {
        // Weights from timing HeCBench's costliest modules: a term computed takes about
        // three times a lookup.
        self.work + 3 * self.cost
    }

    /// Nodes this evaluator computed and added to its memos.
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// Nodes this evaluator was asked for, whether a memo held them or not: the work done,
    /// for [`crate::checks::Budget`] (a value looked up is cheaper than one computed, but
    /// an enumeration that only looks values up still has to end).
    pub fn work(&self) -> u64 {
        self.work
    }

    fn symv(&mut self, s: Sym) -> WarpVal {
        let info = self.oracle.info(s, self.acf);
        let id = self.syms.sym(s, info);
        let m = self.syms.mono(SmallVec::from_slice(&[id]));
        WarpVal::sym(m)
    }

    /// A fresh symbol for the shared result of node `n`, with alignment `align`.
    fn node_sym(&mut self, n: Node, align: u64) -> WarpVal {
        use crate::expr::flags;
        let f = self.acf.flags(n);
        let data = f & (flags::UDATA | flags::UNKNOWN) != 0
            && f & (flags::CTAID | flags::PARAM | flags::LOOP) == 0;
        let id = self.syms.sym(
            Sym::Node(n),
            SymInfo {
                align,
                range: None,
                data,
            },
        );
        let m = self.syms.mono(SmallVec::from_slice(&[id]));
        WarpVal::sym(m)
    }

    /// The power of two a lane-uniform value certainly is a multiple of: 1 when unknown (a
    /// sliding symbol in it, or a value no lane can split).
    fn uniform_align(&self, v: &WarpVal) -> u64 {
        let valid = self.env.valid;
        let Some((c, part)) = v.split(valid) else {
            return 1;
        };
        let sliding = part.iter().any(|&(m, _)| {
            self.syms
                .factors(m)
                .iter()
                .any(|&s| self.syms.info(s).align == 0)
        });
        if sliding {
            return 1;
        }
        let c0 = (0..32).find(|k| valid & (1 << k) != 0).map_or(0, |k| c[k]);
        let ca = if c0 == 0 {
            u64::MAX
        } else {
            1u64 << c0.unsigned_abs().trailing_zeros()
        };
        ca.min(self.part_align(&part))
    }

    /// The alignment of `x op y` for lane-uniform operands: `U & m` keeps the zero low bits
    /// of both (`(pos - (pos & 511)) & 0x7fffffff` is a multiple of 512), `U << k` adds `k`
    /// of them; 1 for other operations.
    fn uniform_bin_align(&self, op: BinOp, x: &WarpVal, y: &WarpVal) -> u64 {
        const CAP: u64 = 1 << 32;
        let a = match op {
            BinOp::And => self.uniform_align(x).max(self.uniform_align(y)),
            BinOp::Shl => {
                let k = (0..32)
                    .find(|k| self.env.valid & (1 << k) != 0)
                    .and_then(|k| y.lane_const(k));
                match k {
                    Some(k @ 0..32) if y.is_concrete(self.env.valid) => {
                        self.uniform_align(x).saturating_mul(1 << k)
                    }
                    _ => 1,
                }
            }
            _ => 1,
        };
        a.clamp(1, CAP)
    }

    /// Alignment of a lane-uniform symbolic part: the largest power of two dividing every
    /// term (sliding symbols excluded; `u64::MAX` when nothing constrains it).
    pub fn part_align(&self, part: &[(u32, i64)]) -> u64 {
        let mut g: u64 = u64::MAX;
        for &(m, c) in part {
            if c == 0 {
                continue;
            }
            let mut tz: u32 = c.unsigned_abs().trailing_zeros();
            let mut sliding = false;
            for &s in self.syms.factors(m) {
                let i = self.syms.info(s);
                if i.align == 0 {
                    sliding = true;
                } else {
                    tz = tz.saturating_add(i.align.trailing_zeros());
                }
            }
            if sliding {
                continue;
            }
            let p2 = if tz >= 63 { u64::MAX } else { 1u64 << tz };
            g = g.min(p2);
        }
        g
    }

    /// The value of `n` (shared: evaluating a node twice costs a lookup).
    pub fn eval_rc(&mut self, n: Node) -> std::rc::Rc<WarpVal> {
        let uniform = !self.acf.is_td(n);
        let memo = if uniform {
            &*self.uniform_memo
        } else {
            &*self.memo
        };
        self.work += 1;
        if let Some(v) = memo.get(&n) {
            return v.clone();
        }
        let forced = self
            .env
            .uniform_nodes
            .as_ref()
            .is_some_and(|s| s.contains(&n));
        let v = std::rc::Rc::new(if forced {
            self.shared_node(n)
        } else {
            crate::stack::deep(|| self.compute(n))
        });
        self.cost += v.terms.len() as u64;
        if uniform {
            self.uniform_memo.insert(n, v.clone());
        } else {
            self.memo.insert(n, v.clone());
        }
        self.computed += 1;
        v
    }

    /// The value of a node read as shared by the warp ([`Env::uniform_nodes`]): one symbol;
    /// for a remainder `a % b` by a divisor no lane knows, its *quotient* is the shared
    /// symbol `q` and the value `a - b*q`, so `(x + n) % n` keeps the lanes of `x`.
    fn shared_node(&mut self, n: Node) -> WarpVal {
        let valid = self.env.valid;
        if let Kind::Bin(BinOp::Rem { .. }, a, b) = self.acf.kind(n) {
            let y = self.eval_rc(b);
            if !y.is_uniform(valid) || y.is_concrete(valid) {
                return crate::stack::deep(|| self.compute(n));
            }
            let x = self.eval_rc(a);
            let q = self.node_sym(n, 1);
            return x.sub(&y.mul(&q, self.syms));
        }
        self.node_sym(n, 1)
    }

    /// The value of `n`.
    pub fn eval(&mut self, n: Node) -> WarpVal {
        (*self.eval_rc(n)).clone()
    }

    fn compute(&mut self, n: Node) -> WarpVal {
        let valid = self.env.valid;
        match self.acf.kind(n) {
            Kind::Const(c) => WarpVal::konst(c),
            Kind::Atom(a) => self.atom(a),
            Kind::Add(a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                x.add(&y)
            }
            Kind::Neg(a) => self.eval_rc(a).neg(),
            Kind::Mul(a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                // A product's cost grows with its pairs of terms.
                self.cost += (x.terms.len() * y.terms.len()) as u64;
                x.mul(&y, self.syms)
            }
            Kind::Ext(e, a) => {
                let mut x = (*self.eval_rc(a)).clone();
                let cm = x.concrete_mask(u32::MAX);
                if cm != 0 {
                    let mut c = x.const_part();
                    for (k, v) in c.iter_mut().enumerate() {
                        if cm & (1 << k) != 0 {
                            *v = ext_concrete(e, *v);
                        }
                    }
                    let conc = WarpVal::lanes(c);
                    x = WarpVal::blend(cm, &conc, &x);
                }
                x
            }
            Kind::Bin(op, a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                self.bin(n, op, &x, &y)
            }
            Kind::Cmp(c, a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                self.cmp(n, c, &x, &y)
            }
            Kind::And(a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                self.logic(n, true, &x, &y)
            }
            Kind::Or(a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                self.logic(n, false, &x, &y)
            }
            Kind::Not(a) => {
                let x = self.eval_rc(a);
                WarpVal::konst(1).sub(&self.truth(&x))
            }
            Kind::Select(p, a, b) => {
                if let Some(wide) = wide_division_arm(self.acf, p, a, b) {
                    return (*self.eval_rc(wide)).clone();
                }
                let pv = self.eval_rc(p);
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                let known = pv.concrete_mask(u32::MAX);
                let zero = pv.zero_mask(u32::MAX);
                let one = known & !zero;
                let mut same = 0u32;
                for k in 0..32 {
                    if known & (1 << k) == 0 && x.lane_eq(&y, k) {
                        same |= 1 << k;
                    }
                }
                let known = WarpVal::blend(one | same, &x, &y);
                if (one | zero | same) & valid == valid {
                    return known;
                }
                // Undecided lanes: p*x + (1-p)*y.
                let t = self.truth(&pv);
                let nt = WarpVal::konst(1).sub(&t);
                let poly = t.mul(&x, self.syms).add(&nt.mul(&y, self.syms));
                WarpVal::blend(one | zero | same, &known, &poly)
            }
            Kind::Opaque(_, a, b) => {
                let (x, y) = (self.eval_rc(a), self.eval_rc(b));
                if x.is_uniform(valid) && y.is_uniform(valid) {
                    self.node_sym(n, 1)
                } else {
                    WarpVal::unknown_all()
                }
            }
            Kind::LoopOut(l, v) => {
                let cont = self.acf.loops[l as usize].cont;
                if self.acf.is_td(cont) {
                    let x = self.eval_rc(v);
                    // A thread-dependent condition that is the same in every lane here (a
                    // grid-stride remainder loop, its trip count read as shared by the warp):
                    // the lanes leave together, as from a uniform loop. Asked only where some
                    // nodes are read as shared (an access's boundary checks and trip counts)
                    // and of a small condition: evaluating every loop's condition wherever
                    // its exit value is read took HeCBench's `bn` past 20 GB.
                    // A value that changes from trip to trip is the same in every lane
                    // only where the lanes leave together, which the condition decides.
                    if x.is_uniform(valid) && !self.acf.is_td(v) && !self.acf.loop_variant_out(n)
                        || self.env.uniform_nodes.is_some()
                            && small(self.acf, cont, 256)
                            && self.eval_rc(cont).is_uniform(valid)
                    {
                        (*x).clone()
                    } else {
                        WarpVal::unknown_all()
                    }
                } else {
                    (*self.eval_rc(v)).clone()
                }
            }
        }
    }

    /// A 0/1 reading of a value (nonzero is true) on concrete lanes; symbolic lanes as is.
    fn truth(&self, x: &WarpVal) -> WarpVal {
        let cm = x.concrete_mask(u32::MAX);
        if cm == 0 {
            return x.clone();
        }
        let xc = x.const_lanes();
        let mut c = ZERO;
        for (k, v) in c.iter_mut().enumerate() {
            if cm & (1 << k) != 0 {
                *v = i64::from(xc[k] != 0);
            }
        }
        WarpVal::blend(cm, &WarpVal::lanes(c), x)
    }

    fn logic(&mut self, n: Node, and: bool, x: &WarpVal, y: &WarpVal) -> WarpVal {
        let valid = self.env.valid;
        let (x, y) = (self.truth(x), self.truth(y));
        // Lanes where each side is known (0 or 1 once read as a truth value), and 0.
        let (kx, ky) = (x.concrete_mask(u32::MAX), y.concrete_mask(u32::MAX));
        let (zx, zy) = (x.zero_mask(u32::MAX), y.zero_mask(u32::MAX));
        let (ox, oy) = (kx & !zx, ky & !zy);
        // Decided lanes and those true; lanes whose value is the other side's.
        let (decided, ones, from_x, from_y) = if and {
            // A known 0 decides; two known 1s make 1; a known 1 leaves the other side.
            (zx | zy | (kx & ky), ox & oy, ky & !kx & !zy, kx & !ky & !zx)
        } else {
            // A known 1 decides; two known 0s make 0; a known 0 leaves the other side.
            (ox | oy | (kx & ky), ox | oy, ky & !kx & !oy, kx & !ky & !ox)
        };
        let dec = WarpVal::lanes(std::array::from_fn(|k| i64::from(ones & (1 << k) != 0)));
        let rest = valid & !(decided | from_x | from_y);
        let mut r = WarpVal::blend(decided, &dec, &WarpVal::blend(from_x, &x, &y));
        if rest != 0 {
            let sym = if x.is_uniform(rest) && y.is_uniform(rest) {
                self.node_sym(n, 1)
            } else {
                let p = x.mul(&y, self.syms);
                if and { p } else { x.add(&y).sub(&p) }
            };
            r = WarpVal::blend(!rest, &r, &sym);
        }
        r
    }

    fn atom(&mut self, a: Atom) -> WarpVal {
        if let Some(v) = self.env.bind.get(&a) {
            return v.clone();
        }
        let env = self.env;
        match a {
            Atom::Tid(d) => {
                let mut l = ZERO;
                for (k, c) in env.lanes.iter().enumerate() {
                    if let Some(c) = c {
                        l[k] = i64::from(c.tid[dim_index(d)]);
                    }
                }
                WarpVal::lanes(l)
            }
            Atom::Laneid => {
                let mut l = ZERO;
                for (k, c) in env.lanes.iter().enumerate() {
                    if let Some(c) = c {
                        l[k] = i64::from(c.linear % 32);
                    }
                }
                WarpVal::lanes(l)
            }
            Atom::Ntid(d) => WarpVal::konst(i64::from(env.block[dim_index(d)])),
            Atom::Nctaid(d) => match env.grid {
                Some(g) => WarpVal::konst(i64::from(g[dim_index(d)])),
                None => self.symv(Sym::Atom(a)),
            },
            Atom::Ctaid(d) => match env.ctaid {
                Some(c) => WarpVal::konst(i64::from(c[dim_index(d)])),
                None => self.symv(Sym::Atom(a)),
            },
            Atom::Load(l) => {
                let addr = self.eval(self.acf.loads[l as usize].addr);
                if addr.is_uniform(env.valid) {
                    self.symv(Sym::Atom(a))
                } else {
                    WarpVal::unknown_all()
                }
            }
            Atom::Unknown(_) => WarpVal::unknown_all(),
            Atom::LoopVar(v) => {
                let info = &self.acf.loopvars[v as usize];
                if let Some(c) = info.closed {
                    if self.expanding.contains(&v) {
                        return WarpVal::unknown_all();
                    }
                    self.expanding.push(v);
                    let r = self.eval(c);
                    self.expanding.pop();
                    r
                } else if info.td {
                    WarpVal::unknown_all()
                } else {
                    self.symv(Sym::Atom(a))
                }
            }
            Atom::Param { .. } | Atom::VarAddr(_) | Atom::Iter(_) | Atom::Uniform(_) => {
                self.symv(Sym::Atom(a))
            }
        }
    }

    fn bin(&mut self, n: Node, op: BinOp, x: &WarpVal, y: &WarpVal) -> WarpVal {
        let valid = self.env.valid;
        // Both plain integers on a lane: compute.
        let cm = x.concrete_mask(valid) & y.concrete_mask(valid);
        let mut out = ZERO;
        let mut undefined = 0u32;
        let (xc, yc) = (x.const_lanes(), y.const_lanes());
        for k in 0..32 {
            if cm & (1 << k) != 0 {
                match bin_concrete(op, xc[k], yc[k]) {
                    Some(v) => out[k] = v,
                    None => undefined |= 1 << k,
                }
            }
        }
        let conc = WarpVal::lanes(out);
        if cm == valid {
            let mut r = conc;
            r.unknown |= undefined;
            return r;
        }
        // Both shared by all lanes: one symbol for the result.
        if x.is_uniform(valid) && y.is_uniform(valid) {
            let align = self.uniform_bin_align(op, x, y);
            return self.node_sym(n, align);
        }
        // Bits that cannot overlap: `|` and `^` are `+` (PTX builds indices with `or`/`bfi`).
        if matches!(op, BinOp::Or | BinOp::Xor) {
            for (p, q) in [(x, y), (y, x)] {
                if q.is_concrete(valid)
                    && let Some((c, part)) = p.split(valid)
                {
                    // `q` is concrete on every valid lane: its constant terms are its values.
                    let qc = q.const_lanes();
                    let qv = || (0..32).filter(|k| valid & (1 << k) != 0).map(|k| qc[k]);
                    let qmax = qv().max().unwrap_or(0);
                    let qmin = qv().min().unwrap_or(0);
                    let disjoint_const =
                        (0..32).all(|k| valid & (1 << k) == 0 || c[k] & qc[k] == 0);
                    let align = self.part_align(&part);
                    let sym_clear = part.is_empty() || align == u64::MAX || (qmax as u64) < align;
                    if qmin >= 0 && disjoint_const && sym_clear {
                        return p.add(q);
                    }
                }
            }
        }
        // A per-lane constant offset on a uniform symbolic base, with a constant operand
        // (either side of an `and`: nvcc writes `and.b32 %r, %mask, %index`).
        let (x, y) = if matches!(op, BinOp::And)
            && x.is_uniform(valid)
            && x.is_concrete(valid)
            && !y.is_concrete(valid)
        {
            (y, x)
        } else {
            (x, y)
        };
        if y.is_uniform(valid)
            && y.is_concrete(valid)
            && let Some((c, part)) = x.split(valid)
        {
            let d = (0..32)
                .find(|k| valid & (1 << k) != 0)
                .and_then(|k| y.lane_const(k))
                .unwrap_or(0);
            let align = self.part_align(&part);
            let nonneg = (0..32).all(|k| valid & (1 << k) == 0 || c[k] >= 0);
            match op {
                BinOp::And
                    if d > 0 && nonneg && {
                        let hi = d >> d.trailing_zeros();
                        hi & (hi + 1) == 0
                    } =>
                {
                    // (U + c) & m for a mask of contiguous ones, bits q..p-1.
                    let q = d.trailing_zeros();
                    let p = q + (d >> q).count_ones();
                    let p2: u64 = if p >= 63 { u64::MAX } else { 1u64 << p };
                    let q2: i64 = 1i64 << q;
                    let low_clear = (0..32).all(|k| valid & (1 << k) == 0 || c[k] % q2 == 0)
                        && (part.is_empty()
                            || align == u64::MAX
                            || align.is_multiple_of(q2 as u64));
                    if low_clear {
                        let mut low = ZERO;
                        for k in 0..32 {
                            low[k] = c[k] & d;
                        }
                        if part.is_empty()
                            || align == u64::MAX
                            || p2 != u64::MAX && align.is_multiple_of(p2)
                        {
                            return WarpVal::lanes(low);
                        }
                        if (0..32).all(|k| valid & (1 << k) == 0 || (c[k] as u64) < p2) {
                            // (U mod 2^p) + c, ignoring a wrap-around inside the warp.
                            let base = self.node_sym(n, align.min(p2));
                            return base.add(&WarpVal::lanes(c));
                        }
                    }
                }
                BinOp::Shr { .. } | BinOp::Div { .. } if d > 0 && nonneg => {
                    let dv = if matches!(op, BinOp::Shr { .. }) {
                        if d >= 63 {
                            return self.fallback(x, y, &conc, cm);
                        }
                        1i64 << d
                    } else {
                        d
                    };
                    let mut q = ZERO;
                    for k in 0..32 {
                        q[k] = c[k].div_euclid(dv);
                    }
                    if part.iter().all(|&(_, co)| co % dv == 0) {
                        // Exact: divide the symbolic coefficients.
                        let mut r = WarpVal::lanes(q);
                        for &(m, co) in &part {
                            let mut t = WarpVal::sym(m);
                            for (_, l) in t.terms.iter_mut() {
                                *l = Coef::Same(co / dv);
                            }
                            r = r.add(&t);
                        }
                        return r;
                    }
                    if align != u64::MAX
                        && align.is_multiple_of(dv as u64)
                        && (dv as u64).is_power_of_two()
                    {
                        let base = self.node_sym(n, align / dv as u64);
                        return base.add(&WarpVal::lanes(q));
                    }
                }
                BinOp::Rem { .. } if d > 0 && nonneg => {
                    let aligned = part.iter().all(|&(_, co)| co % d == 0)
                        || (align != u64::MAX
                            && (d as u64).is_power_of_two()
                            && align.is_multiple_of(d as u64));
                    if aligned {
                        let mut r = ZERO;
                        for k in 0..32 {
                            r[k] = c[k] % d;
                        }
                        return WarpVal::lanes(r);
                    }
                }
                _ => {}
            }
        }
        self.fallback(x, y, &conc, cm)
    }

    /// Lanes whose symbolic part involves a run-time-only value.
    fn data_lanes(&self, v: &WarpVal) -> u32 {
        let mut m = 0u32;
        for (mono, l) in &v.terms {
            if *mono != 0
                && self
                    .syms
                    .factors(*mono)
                    .iter()
                    .any(|s| self.syms.info(*s).data)
            {
                m |= l.nonzero_mask();
            }
        }
        m
    }

    fn fallback(&self, x: &WarpVal, y: &WarpVal, conc: &WarpVal, cm: u32) -> WarpVal {
        let valid = self.env.valid;
        let unknown =
            (x.unknown | y.unknown | self.data_lanes(x) | self.data_lanes(y)) & valid & !cm;
        let opaque = valid & !cm & !unknown;
        let mut r = conc.clone();
        r.unknown = unknown;
        r.opaque = opaque;
        r
    }

    fn cmp(&mut self, n: Node, c: Cmp, x: &WarpVal, y: &WarpVal) -> WarpVal {
        let valid = self.env.valid;
        if c.float {
            return if x.is_uniform(valid) && y.is_uniform(valid) {
                self.node_sym(n, 1)
            } else {
                WarpVal::unknown_all()
            };
        }
        let cm = x.concrete_mask(valid) & y.concrete_mask(valid);
        let mut out = ZERO;
        let (xc, yc) = (x.const_lanes(), y.const_lanes());
        for k in 0..32 {
            if cm & (1 << k) != 0 {
                out[k] = i64::from(cmp_concrete(c, xc[k], yc[k]));
            }
        }
        let d = x.sub(y);
        // Lanes where only the difference is a plain integer (the symbolic parts cancel):
        // decide by its sign, assuming no wrap-around.
        let dm = d.concrete_mask(valid) & !cm;
        let mut cm = cm;
        let dc = d.const_lanes();
        for k in 0..32 {
            if dm & (1 << k) != 0 {
                let dv = dc[k];
                out[k] = i64::from(cmp_concrete(
                    Cmp {
                        signed: true,
                        bits: 64,
                        ..c
                    },
                    dv,
                    0,
                ));
                cm |= 1 << k;
            }
        }
        let conc = WarpVal::lanes(out);
        if cm == valid {
            return conc;
        }
        if d.is_uniform(valid) {
            return self.node_sym(n, 1);
        }
        self.fallback(x, y, &conc, cm)
    }
}
