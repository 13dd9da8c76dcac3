//! Branches: the divergence verdict of each thread-dependent branch over the warps examined,
//! iterating loops lane by lane where a condition depends on their counts, and the bound of a
//! boundary check.

use super::*;

/// The last trip [`Checker::fast_iterate`] looks for a loop's first exit at, past the trips it
/// examines one by one.
const MAX_SKIP: i64 = 1 << 22;

impl Checker<'_> {
    /// Classifies a thread-dependent branch.
    pub fn branch(&mut self, site: &BranchSite) -> BranchResult {
        self.verdict_cache.borrow_mut().clear();
        self.budget.start_site();
        let mut budget_spent = false;
        let fc = site.cond;
        let fa = site.active;
        let loops = self.relevant_loops(
            &self.site_loops(site.ctx, site.block),
            &[site.cond, site.active],
        );
        let mut nodes = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        leaves(self.acf, fc, &mut nodes, &mut seen);
        leaves(self.acf, fa, &mut nodes, &mut seen);
        let conts: Vec<(u32, Node)> = loops
            .iter()
            .map(|&l| (l, self.acf.loops[l as usize].cont))
            .collect();
        for (_, f) in &conts {
            leaves(self.acf, *f, &mut nodes, &mut seen);
        }
        let cond_flags = self.acf.flags(site.cond) | self.acf.flags(site.active);
        let mut undecided_flags: u16 = 0;
        let mut counts = [0u64; 5];
        let mut exhaustive = true;
        // 1. Each warp symbolically.
        let mut pending: Vec<(u32, Env, FxHashMap<Node, LeafVal>)> = Vec::new();
        let mut decided: Vec<WarpVerdict> = Vec::new();
        for w in 0..self.geometry.warps() {
            let env = self.env(w);
            let mut vals: FxHashMap<Node, LeafVal> = FxHashMap::default();
            for &n in &nodes {
                let v = self.leaf_val(n, &env);
                vals.insert(n, v);
            }
            let sub0 = Subst::default();
            let tri0: FxHashMap<Node, [Tri; 32]> = vals
                .iter()
                .map(|(n, v)| (*n, self.leaf_tri(v, &sub0, &env, &mut FxHashMap::default())))
                .collect();
            let (act, cond) = self.lanes_of(fa, fc, &tri0);
            let v0 = Self::verdict(&act, &cond, env.valid, u32::MAX);
            // Undecided on data, but which lanes get here at all depends on the block index
            // (a loop unrolled by four that runs only when a lane has four iterations or
            // more): if no lane of this warp gets here in any block, it never diverges.
            let act_open = v0 == WarpVerdict::MaybeData
                && (0..32).any(|k| env.valid & (1 << k) != 0 && act[k] == Tri::O);
            if act_open && self.never_reached(fa, &env) {
                decided.push(WarpVerdict::Uniform);
                continue;
            }
            if v0 == WarpVerdict::MaybeParam {
                // Do the undecided leaves depend on the block index?
                for (n, t) in &tri0 {
                    if t.contains(&Tri::O) {
                        undecided_flags |= self.acf.flags(*n);
                    }
                }
                pending.push((w, env, vals));
            } else {
                decided.push(v0);
            }
        }
        // 2./3. Enumerate blocks and iterations for the undecided warps.
        let per_block = undecided_flags & flags::CTAID != 0;
        let (blocks, all) = if pending.is_empty() {
            (vec![[0, 0, 0]], true)
        } else if per_block {
            self.blocks_to_examine()
        } else {
            (vec![[0, 0, 0]], true)
        };
        exhaustive &= all;
        let cont_flags = conts.iter().fold(0u16, |f, (_, c)| f | self.acf.flags(*c));
        let slow = (cond_flags | cont_flags) & flags::NONAFFINE != 0;
        let combos = if cond_flags & flags::PARAM != 0 && !pending.is_empty() {
            self.param_combos()
        } else {
            vec![Vec::new()]
        };
        let weight = if per_block && !pending.is_empty() {
            blocks.len().max(1) as u64
        } else {
            1
        };
        for v in decided {
            counts[v as usize] += weight;
        }
        for (_, env, vals) in pending {
            if blocks.is_empty() {
                // Grid unknown: the block index stays symbolic.
                counts[WarpVerdict::MaybeParam as usize] += weight;
                exhaustive = false;
                continue;
            }
            // Blocks that give every block-dependent symbol the same values behave alike
            // (e.g. `min(8*ctaid.x + w, 127)` past the diagonal): evaluate one of them.
            let mut key_syms: Vec<u32> = Vec::new();
            let mut dedupe = !slow;
            for v in vals.values() {
                if let LeafVal::Split { part, .. } = v {
                    for (m, _) in part {
                        for &sy in self.syms.factors(*m) {
                            match self.syms.symbol(sy) {
                                Sym::Atom(Atom::Iter(_)) => {}
                                Sym::Node(n) if self.acf.flags(n) & flags::LOOP != 0 => {
                                    dedupe = false
                                }
                                Sym::Atom(Atom::LoopVar(_)) => dedupe = false,
                                _ => {
                                    if !key_syms.contains(&sy) {
                                        key_syms.push(sy);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let mut seen: FxHashMap<Vec<Option<i64>>, WarpVerdict> = FxHashMap::default();
            for (bi, blk) in blocks.iter().enumerate() {
                if self.budget.spent() {
                    // The blocks left keep the symbolic answer: undecided.
                    budget_spent = true;
                    exhaustive = false;
                    counts[WarpVerdict::MaybeParam as usize] += (blocks.len() - bi) as u64;
                    break;
                }
                let mut best = WarpVerdict::Uniform;
                for pc in &combos {
                    let key: Option<Vec<Option<i64>>> = dedupe.then(|| {
                        let sub = Subst {
                            ctaid: per_block.then_some(*blk),
                            iters: Vec::new(),
                            params: pc.clone(),
                        };
                        let mut memo = FxHashMap::default();
                        key_syms
                            .iter()
                            .map(|&sy| self.sym_value(sy, &sub, &env, &mut memo))
                            .collect()
                    });
                    if let Some(k) = &key
                        && let Some(v) = seen.get(k)
                    {
                        best = best.max(*v);
                        continue;
                    }
                    let mut v = WarpVerdict::MaybeParam;
                    if !slow {
                        let base = Subst {
                            ctaid: per_block.then_some(*blk),
                            iters: Vec::new(),
                            params: pc.clone(),
                        };
                        let (fv, ex) =
                            self.fast_iterate(&conts, 0, base, u32::MAX, &vals, &env, fa, fc);
                        exhaustive &= ex;
                        v = fv;
                    }
                    if v == WarpVerdict::MaybeParam {
                        // Non-linear in the block index or parameters (clamps, `min`): evaluate
                        // everything again with them bound, simulating the loops.
                        if bi >= 64 {
                            exhaustive = false;
                        } else {
                            let mut e = env.clone();
                            if per_block {
                                e.ctaid = Some(*blk);
                            }
                            for (a, x) in pc {
                                e.bind.insert(*a, WarpVal::konst(*x));
                            }
                            let samples = self.samples(&loops, &e, env_warp(&env), pc);
                            v = WarpVerdict::Uniform;
                            for s in samples.iter() {
                                let (c, a) = self.eval2_sample(
                                    site.cond,
                                    site.active,
                                    s,
                                    s.env.uniform_nodes.clone(),
                                );
                                let mut sv = Self::verdict(
                                    &tri_of(&a, s.env.valid),
                                    &tri_of(&c, s.env.valid),
                                    s.env.valid,
                                    s.active,
                                );
                                if !s.exact && sv >= WarpVerdict::DivergentUnlessUniform {
                                    sv = WarpVerdict::MaybeData;
                                }
                                v = v.max(sv);
                            }
                        }
                    }
                    if let Some(k) = key {
                        seen.insert(k, v);
                    }
                    best = best.max(v);
                }
                counts[best as usize] += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        let unless = counts[WarpVerdict::DivergentUnlessUniform as usize];
        let div = counts[WarpVerdict::Divergent as usize] + unless;
        let maybe_data = counts[WarpVerdict::MaybeData as usize];
        let maybe_param = counts[WarpVerdict::MaybeParam as usize];
        let maybe = maybe_data + maybe_param;
        let t = total.max(1) as f64;
        let class = if div == total && total > 0 {
            DivClass::Total
        } else if div > 0 {
            DivClass::Partial
        } else if maybe_data > 0 {
            DivClass::Unknown
        } else if maybe_param > 0 {
            DivClass::Boundary
        } else {
            DivClass::NonDivergent
        };
        // Undecided only because a grid- or block-stride loop's counter runs up to an unknown
        // bound (nvcc's unrolled body, `i + 4*stride < n`): a boundary check too.
        let class = if class == DivClass::Unknown && div == 0 && self.strided_loop_bound(site) {
            DivClass::Boundary
        } else {
            class
        };
        let mut ratio = (div as f64 / t, (div + maybe) as f64 / t);
        let mut class = class;
        if class == DivClass::Boundary {
            ratio.1 = ratio.1.min(self.boundary_bound(site));
            if ratio.1 <= 0.0 {
                class = DivClass::NonDivergent;
            }
        }
        // A lane test on the thread index alone, joined to checks against unknown bounds
        // (`px < width - 1 && kx < 15`): wherever those checks pass for the whole warp (the
        // interior blocks of any real size), the lane test alone decides, and it splits warps.
        let mut guarded = None;
        let mut maybe = maybe;
        let (class, divergent) = match (class, self.guarded_lane_test(site)) {
            (DivClass::Boundary, Some((d, n, first_block))) if d > 0 => {
                guarded = Some(if first_block {
                    Guarded::FirstBlock
                } else {
                    Guarded::Interior
                });
                let r = d as f64 / n.max(1) as f64;
                ratio = (r, ratio.1.max(r));
                let d = (r * total as f64).round() as u64;
                maybe = maybe.min(total - d.min(total));
                (DivClass::Partial, d)
            }
            (DivClass::Boundary, _) => match self.first_block_any_size(site) {
                Some((d, n)) => {
                    // No size read: only the grid was unknown (`gid == 0`).
                    guarded = Some(if self.acf.params_under(site.cond).is_empty() {
                        Guarded::FirstBlock
                    } else {
                        Guarded::AnySize
                    });
                    let r = d as f64 / n.max(1) as f64;
                    ratio = (r, ratio.1.max(r));
                    let d = (r * total as f64).round() as u64;
                    maybe = maybe.min(total - d.min(total));
                    (DivClass::Partial, d)
                }
                None if self.computed_bound_in_block(site) => {
                    // Every block's warp where the bound falls splits: a real branch
                    // wherever the bound is not a multiple of the warp.
                    guarded = Some(Guarded::ComputedBound);
                    let r = ratio.1;
                    let d = (r * total as f64).round() as u64;
                    ratio = (r, r);
                    maybe = maybe.min(total - d.min(total));
                    (DivClass::Partial, d)
                }
                None => (DivClass::Boundary, div),
            },
            (c, _) => (c, div),
        };
        BranchResult {
            site: *site,
            class,
            ratio,
            divergent,
            maybe,
            total,
            guarded,
            data_dependent: maybe_data > 0,
            unless_uniform: unless > 0 && unless == div,
            exhaustive,
            budget_spent,
        }
    }

    /// The enclosing loops (outermost first) a branch's verdict can depend on: those whose
    /// counters or loop-carried values `roots` read (through loads' addresses and other loop
    /// variables' initial and next values), and those whose continuation may differ between
    /// lanes (they decide which lanes reach the branch). A loop whose continuation is the same
    /// in every lane and whose values the condition never reads (`for (i = blockIdx.x; i < n;
    /// i += gridDim.x)` around `for (k = threadIdx.x; k < m; k += blockDim.x)`) runs the
    /// branch with the same lanes on every trip: enumerating its trips (and the blocks its
    /// continuation reads) only spends the evaluation budget.
    fn relevant_loops(&self, loops: &[u32], roots: &[Node]) -> Vec<u32> {
        let acf = self.acf;
        let mut used: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
        let mut starts: Vec<Node> = roots.to_vec();
        for &l in loops {
            if acf.is_td(acf.loops[l as usize].cont) {
                starts.push(acf.loops[l as usize].cont);
            }
        }
        // One walk from every root: it goes through loop variables' initial and next values
        // and loads' addresses itself (`Acf::children`), so each node is read once.
        acf.walk_from(&starts, |k| {
            match k {
                Kind::Atom(Atom::Iter(l)) => {
                    used.insert(l);
                }
                Kind::Atom(Atom::LoopVar(v)) => {
                    used.insert(acf.loopvars[v as usize].loop_idx);
                }
                _ => {}
            }
            Walk::Into
        });
        loops
            .iter()
            .copied()
            .filter(|&l| used.contains(&l) || acf.is_td(acf.loops[l as usize].cont))
            .collect()
    }

    fn lanes_of(
        &self,
        fa: Node,
        fc: Node,
        tri: &FxHashMap<Node, [Tri; 32]>,
    ) -> ([Tri; 32], [Tri; 32]) {
        let mut memo = FxHashMap::default();
        let act = eval_bool(self.acf, fa, tri, &mut memo);
        let cond = eval_bool(self.acf, fc, tri, &mut memo);
        // The boolean nodes evaluated, 32 lanes each: about two lookups' time each.
        self.budget.charge(2 * memo.len() as u64);
        (act, cond)
    }

    /// Fast path: iterate the enclosing loops' counters from `depth` on, substituting into
    /// the precomputed leaves. Returns the worst verdict and whether no cap was hit.
    #[allow(clippy::too_many_arguments)]
    fn fast_iterate(
        &self,
        conts: &[(u32, Node)],
        depth: usize,
        sub: Subst,
        loop_active: u32,
        vals: &FxHashMap<Node, LeafVal>,
        env: &Env,
        fa: Node,
        fc: Node,
    ) -> (WarpVerdict, bool) {
        let tri_at = |sub: &Subst| -> FxHashMap<Node, [Tri; 32]> {
            let mut memo = FxHashMap::default();
            let tri = vals
                .iter()
                .map(|(n, v)| (*n, self.leaf_tri(v, sub, env, &mut memo)))
                .collect();
            // The leaves and every shared value recomputed for them (HeCBench's resize: a
            // few leaves over hundreds of recomputed values each, 1 s per site at its
            // budget counted in leaves alone).
            self.budget.spend((vals.len() + memo.len()) as u64);
            tri
        };
        let Some((l, cf)) = conts.get(depth) else {
            let tri = tri_at(&sub);
            let mut key: Vec<(Node, u128)> = tri.iter().map(|(n, t)| (*n, Tri::pack(t))).collect();
            key.sort_by_key(|(n, _)| *n);
            if let Some(v) = self.verdict_cache.borrow().get(&(key.clone(), loop_active)) {
                return (*v, true);
            }
            let (act, cond) = self.lanes_of(fa, fc, &tri);
            let v = Self::verdict(&act, &cond, env.valid, loop_active);
            self.verdict_cache
                .borrow_mut()
                .insert((key, loop_active), v);
            return (v, true);
        };
        let mut best = WarpVerdict::Uniform;
        let mut act = loop_active;
        // The substitution at trip `k` of this loop.
        let at_trip = |k: i64| {
            let mut s = sub.clone();
            s.iters.push((*l, k));
            s
        };
        // Who of `act` continues past the trip `s` stands at: `None` where some active lane
        // is undecided.
        let continuing = |s: &Subst, act: u32| -> Option<u32> {
            let tri = tri_at(s);
            let contv = eval_bool(self.acf, *cf, &tri, &mut FxHashMap::default());
            let mut next = 0u32;
            for lane in 0..32 {
                if act & env.valid & (1 << lane) == 0 {
                    continue;
                }
                match contv[lane] {
                    Tri::F => {}
                    Tri::T => next |= 1 << lane,
                    _ => return None,
                }
            }
            Some(next)
        };
        let mut k = 0;
        let mut end = MAX_ITERS;
        let (mut skipped, mut jumped) = (false, false);
        while k < end {
            if k == MAX_ITERS - 1 && !skipped {
                // Every trip so far kept every active lane: skip to the first trip some lane
                // leaves on (a block-stride loop of hundreds of trips whose lanes start up to
                // one stride apart), found by doubling then bisecting, and examine the trips
                // from there. The loop variables have closed forms here (no simulation), so
                // any trip can be evaluated; a condition that is not monotone in the trip
                // count may hide a trip between the probes, as the cap did.
                skipped = true;
                let (mut lo, mut hi) = (k, None);
                let mut probe = k * 2;
                while probe <= MAX_SKIP && !self.budget.spent() {
                    if continuing(&at_trip(probe), act) == Some(act) {
                        lo = probe;
                        probe *= 2;
                    } else {
                        hi = Some(probe);
                        break;
                    }
                }
                if let Some(mut hi) = hi {
                    while hi - lo > 1 && !self.budget.spent() {
                        let mid = lo + (hi - lo) / 2;
                        if continuing(&at_trip(mid), act) == Some(act) {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    if hi - 1 > k {
                        k = hi - 1;
                        end = k + MAX_ITERS;
                        jumped = true;
                    }
                }
            }
            if self.budget.spent() {
                return (best.max(WarpVerdict::MaybeParam), false);
            }
            let s = at_trip(k);
            let (v, ex) = crate::stack::deep(|| {
                self.fast_iterate(conts, depth + 1, s.clone(), act, vals, env, fa, fc)
            });
            best = best.max(v);
            if !ex {
                return (best, false);
            }
            let Some(next) = continuing(&s, act) else {
                // Without knowing who continues, stop sampling this loop here.
                if best == WarpVerdict::Uniform {
                    best = WarpVerdict::MaybeParam;
                }
                return (best, true);
            };
            act = next;
            if act == 0 {
                return (best, !jumped);
            }
            k += 1;
        }
        (best, false)
    }

    /// Whether the branch compares loop counters that every lane advances by one lane-uniform
    /// stride of at least a warp's width (`for (i = tid; i < n; i += blockDim.x * gridDim.x)`,
    /// which nvcc unrolls into tests like `i + 4*stride < n` and a remainder dispatch) with
    /// lane-uniform values. Lanes that start within one stride of each other then run trip
    /// counts that differ by at most one, and differ only in the warp that straddles the bound:
    /// the branch is a boundary check, not a data-dependent one. (Starting points are assumed
    /// within one stride, as consecutive threads' are; steps are evaluated for the smallest
    /// grid when it is unknown, since a larger one only lengthens them.)
    fn strided_loop_bound(&self, site: &BranchSite) -> bool {
        let cmp = match self.acf.kind(site.cond) {
            Kind::Not(x) => x,
            _ => site.cond,
        };
        let Kind::Cmp(c, a, b) = self.acf.kind(cmp) else {
            return false;
        };
        if c.float {
            return false;
        }
        let mut env = self.env(0);
        env.grid = Some(env.grid.unwrap_or([1, 1, 1]));
        let mut stack = vec![a, b];
        let mut seen = rustc_hash::FxHashSet::default();
        let mut counters = 0;
        while let Some(x) = stack.pop() {
            if !seen.insert(x) || self.acf.flags(x) & flags::TD == 0 {
                continue;
            }
            match self.acf.kind(x) {
                Kind::Atom(Atom::LoopVar(v)) => {
                    let Some(step) = self.acf.loopvars[v as usize].step else {
                        return false;
                    };
                    if self.acf.flags(step) & flags::TD != 0 {
                        return false;
                    }
                    let s =
                        self.scalar(step, &Subst::default(), &env, &mut FxHashMap::default(), 0);
                    if s.is_none_or(|s| s.unsigned_abs() < 32) {
                        return false;
                    }
                    counters += 1;
                }
                Kind::Add(..) | Kind::Mul(..) | Kind::Neg(..) | Kind::Ext(..) => {
                    stack.extend(self.acf.children(x));
                }
                _ => return false,
            }
        }
        counters > 0
    }

    /// Whether the branch tests the thread index within the block (no block index, loop
    /// counter or data on that side) against a lane-uniform bound that the kernel computes
    /// from run-time values rather than receives whole: half a parameter (`tid < mask_width /
    /// 2`, a halo), a rounding of floating-point arithmetic (a tile's extent from a scale
    /// ratio), a `min` or remainder of a loaded count. A size the
    /// host passes is what programs choose as a multiple of the warp (powers of two, padded
    /// widths), so `tid < n` stays a boundary note; a bound computed this way has no reason to
    /// be one, and wherever it falls inside a warp that warp splits in every block. Powers of
    /// two (`1 << k`) are left out: from 32 up they are multiples of the warp.
    fn computed_bound_in_block(&self, site: &BranchSite) -> bool {
        let mut tests = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        leaves(self.acf, site.cond, &mut tests, &mut seen);
        const LANE_ONLY: u16 = flags::TID | flags::LANE;
        tests.iter().any(|&t| {
            let Kind::Cmp(c, a, b) = self.acf.kind(t) else {
                return false;
            };
            if c.float {
                return false;
            }
            let (fa, fb) = (self.acf.flags(a), self.acf.flags(b));
            let (bound, fbound) = match (fa & LANE_ONLY != 0, fb & LANE_ONLY != 0) {
                (true, false) if fa & !LANE_ONLY == 0 => (b, fb),
                (false, true) if fb & !LANE_ONLY == 0 => (a, fa),
                _ => return false,
            };
            if fbound & flags::TD != 0 {
                return false;
            }
            let mut computed = false;
            let mut stack = vec![bound];
            let mut seen = rustc_hash::FxHashSet::default();
            while let Some(x) = stack.pop() {
                if !seen.insert(x) {
                    continue;
                }
                match self.acf.kind(x) {
                    Kind::Bin(BinOp::Shl, one, _)
                        if matches!(self.acf.kind(one), Kind::Const(1)) =>
                    {
                        return false;
                    }
                    Kind::Bin(
                        BinOp::Div { .. }
                        | BinOp::Rem { .. }
                        | BinOp::Shr { .. }
                        | BinOp::Min { .. }
                        | BinOp::Max { .. },
                        ..,
                    )
                    | Kind::Opaque(..)
                    | Kind::Atom(Atom::Load(_)) => computed = true,
                    _ => {}
                }
                stack.extend(self.acf.children(x));
            }
            computed
        })
    }

    /// Whether no lane of the warp of `env` satisfies the activity `fa` in any block of the
    /// grid (known, and small enough to examine every block).
    fn never_reached(&mut self, fa: Node, env: &Env) -> bool {
        const LIMIT: usize = 1024;
        if self.acf.flags(fa) & (flags::LOOP | flags::NONAFFINE | flags::PARAM | flags::LOAD) != 0 {
            return false;
        }
        let (blocks, all) = self.blocks_to_examine();
        if !all || blocks.is_empty() || blocks.len() > LIMIT {
            return false;
        }
        for blk in blocks {
            let mut e = env.clone();
            e.ctaid = Some(blk);
            if self.lanes_maybe_active(fa, &e) > 0 {
                return false;
            }
        }
        true
    }

    /// How many valid lanes of the warp of `env` may satisfy the activity `act` (lanes whose
    /// value is not known to be zero).
    fn lanes_maybe_active(&mut self, act: Node, env: &Env) -> usize {
        let a = self.eval(act, env);
        (0..32)
            .filter(|&k| env.valid & (1 << k) != 0 && a.lane_const(k) != Some(0))
            .count()
    }

    /// Whether, in every warp, at most one lane satisfies the activity `act` (the lanes that
    /// reach a block): code there cannot split a warp.
    pub fn at_most_one_lane(&mut self, act: Node) -> bool {
        if self.acf.flags(act) & flags::TD == 0 {
            return false;
        }
        for w in 0..self.geometry.warps() {
            let env = self.env(w);
            if self.lanes_maybe_active(act, &env) > 1 {
                return false;
            }
        }
        true
    }

    /// For a branch whose condition joins (all `and` or all `or`) tests on the thread index
    /// with tests on unknown bounds (parameters, the block index, a uniform loop counter):
    /// the warps that the thread-index tests alone split, with the others taken to let every
    /// lane through, the warps examined, and whether that split is the first block's (tests
    /// that join the block index to the thread index, evaluated there). `None` when the
    /// condition is not of that shape.
    fn guarded_lane_test(&mut self, site: &BranchSite) -> Option<(u64, u64, bool)> {
        let mut c = site.cond;
        while let Kind::Not(x) = self.acf.kind(c) {
            c = x;
        }
        let is_and = match self.acf.kind(c) {
            Kind::And(..) => true,
            Kind::Or(..) => false,
            _ => return None,
        };
        let mut items = Vec::new();
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            match self.acf.kind(x) {
                Kind::And(a, b) if is_and => stack.extend([a, b]),
                Kind::Or(a, b) if !is_and => stack.extend([a, b]),
                _ => items.push(x),
            }
        }
        const BOUND: u16 = flags::PARAM | flags::CTAID;
        const LANE_ONLY: u16 = flags::TID | flags::LANE;
        // Tests on the thread index alone are evaluated; tests on run-time sizes
        // (parameters), on the block index and lane-uniform tests (a uniform loop's counter)
        // are taken to let every lane through, as they do in the interior of any real launch.
        // Failing that, tests on the thread and block indices together (a global index
        // against a constant, `gx == 0`, `gx - 3 < 0`) are evaluated in the first block,
        // which every launch has, where they split lanes whatever the sizes are.
        let (mut lane, mut block, mut guards) = (Vec::new(), Vec::new(), 0usize);
        for &x in &items {
            let f = self.acf.flags(x);
            if f & !(BOUND | LANE_ONLY | flags::LOOP) != 0 {
                return None;
            }
            if f & LANE_ONLY == 0 || f & flags::PARAM != 0 {
                guards += 1;
            } else if f & flags::LOOP != 0 {
                // A thread-dependent loop variable: its lanes' values need the loop simulated.
                return None;
            } else if f & flags::CTAID != 0 {
                block.push(x);
            } else {
                lane.push(x);
            }
        }
        if !lane.is_empty() && guards + block.len() > 0 {
            let d = self.lane_test_warps(site, &lane, is_and, None);
            if d > 0 {
                return Some((d, u64::from(self.geometry.warps()), false));
            }
        }
        if block.is_empty() || guards == 0 {
            return None;
        }
        lane.extend(block);
        let d = self.lane_test_warps(site, &lane, is_and, Some([0, 0, 0]));
        Some((d, u64::from(self.geometry.warps()), true))
    }

    /// The warps of block `ctaid` (any block, for tests that do not read the block index)
    /// that `tests`, joined by `and` (or `or`) alone, split among the lanes reaching `site`.
    fn lane_test_warps(
        &mut self,
        site: &BranchSite,
        tests: &[Node],
        is_and: bool,
        ctaid: Option<[u32; 3]>,
    ) -> u64 {
        let mut nodes = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        for &x in tests {
            leaves(self.acf, x, &mut nodes, &mut seen);
        }
        leaves(self.acf, site.active, &mut nodes, &mut seen);
        let sub = Subst {
            ctaid,
            ..Subst::default()
        };
        let mut div = 0u64;
        for w in 0..self.geometry.warps() {
            let env = self.env(w);
            let tri: FxHashMap<Node, [Tri; 32]> = nodes
                .iter()
                .map(|&n| {
                    let v = self.leaf_val(n, &env);
                    (n, self.leaf_tri(&v, &sub, &env, &mut FxHashMap::default()))
                })
                .collect();
            let mut memo = FxHashMap::default();
            let act = eval_bool(self.acf, site.active, &tri, &mut memo);
            let mut cond = [if is_and { Tri::T } else { Tri::F }; 32];
            for &x in tests {
                let v = eval_bool(self.acf, x, &tri, &mut memo);
                for k in 0..32 {
                    cond[k] = if is_and {
                        and3(cond[k], v[k])
                    } else {
                        or3(cond[k], v[k])
                    };
                }
            }
            if Self::verdict(&act, &cond, env.valid, u32::MAX) == WarpVerdict::Divergent {
                div += 1;
            }
        }
        div
    }

    /// For a boundary check whose test reads one or two unknown integer sizes (or none, with
    /// the grid unknown: `gid == 0`): the fewest
    /// warps of the first block (which every launch has) that it splits over every
    /// combination of [`FIRST_BLOCK_SIZES`] for them (and 32, 1000 or 4096 for the sizes
    /// only the conditions leading to it read), and the warps examined; `None` unless it
    /// splits some warp for every combination and each warp is decided there (lanes that
    /// data-dependent conditions before it may stop are taken to reach it).
    ///
    /// A column test on a flat index (`x = idx % w; if (x > 1)`) splits lanes 0-1 from 2-31
    /// whatever `w` is; a row test (`y = idx / w; if (y > 1)`) is warp-uniform when `w` is a
    /// multiple of 32, and a plain bound (`idx < n`) when `n` is: both stay boundary checks.
    fn first_block_any_size(&mut self, site: &BranchSite) -> Option<(u64, u64)> {
        const OTHER: u16 = flags::UNKNOWN
            | flags::LOAD_TD
            | flags::LOOP
            | flags::LOAD
            | flags::FLOAT
            | flags::UDATA;
        // The test itself reads no data; the conditions leading to it may (`if (isnan(p[idx]))
        // return;`): lanes they stop are taken to get through, as on input they all pass.
        let fc = self.acf.flags(site.cond);
        // Sizes, or the block index alone (`gid == 0` with the grid unknown).
        if fc & OTHER != 0
            || fc & (flags::PARAM | flags::CTAID) == 0
            || fc & (flags::TID | flags::LANE) == 0
        {
            return None;
        }
        // The test's own sizes (at most two) take every value tried independently: one value
        // for both would relate them (`v*idx >= k` with `v = k` is `idx >= 1`), which no
        // launch promises. Sizes only the conditions leading to the branch read (a loop's
        // trip count, the other bounds) take a few values, all at once.
        let mut params = self.acf.params_under(site.cond);
        let own = params.len();
        if own > 2 || !params.iter().all(|&a| self.unassumed_integer_atom(a)) {
            return None;
        }
        // (Pointers the guards load through stay symbols.)
        for a in self.acf.params_under(site.active) {
            if !params.contains(&a) && self.unassumed_integer_atom(a) {
                params.push(a);
            }
        }
        let mut combos: Vec<Vec<i64>> = vec![Vec::new()];
        for _ in 0..own {
            combos = combos
                .iter()
                .flat_map(|c| {
                    FIRST_BLOCK_SIZES.iter().map(move |&v| {
                        let mut c = c.clone();
                        c.push(v);
                        c
                    })
                })
                .collect();
        }
        let all = params.len();
        if all > own {
            combos = combos
                .iter()
                .flat_map(|c| {
                    [32, 1000, 4096].into_iter().map(move |v| {
                        let mut c = c.clone();
                        c.resize(all, v);
                        c
                    })
                })
                .collect();
        }
        let mut nodes = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        leaves(self.acf, site.cond, &mut nodes, &mut seen);
        leaves(self.acf, site.active, &mut nodes, &mut seen);
        let sub = Subst {
            ctaid: Some([0, 0, 0]),
            ..Subst::default()
        };
        let warps = self.geometry.warps();
        let mut fewest = u64::MAX;
        for sizes in &combos {
            let mut d = 0u64;
            for w in 0..warps {
                if self.budget.spent() {
                    return None;
                }
                let mut env = self.env(w);
                env.ctaid = Some([0, 0, 0]);
                for (&a, &size) in params.iter().zip(sizes) {
                    env.bind.insert(a, WarpVal::konst(size));
                }
                let tri: FxHashMap<Node, [Tri; 32]> = nodes
                    .iter()
                    .map(|&n| {
                        let v = self.leaf_val(n, &env);
                        (n, self.leaf_tri(&v, &sub, &env, &mut FxHashMap::default()))
                    })
                    .collect();
                let (mut act, cond) = self.lanes_of(site.active, site.cond, &tri);
                for a in act.iter_mut().filter(|a| **a == Tri::U) {
                    *a = Tri::T;
                }
                match Self::verdict(&act, &cond, env.valid, u32::MAX) {
                    WarpVerdict::Divergent => d += 1,
                    WarpVerdict::Uniform => {}
                    _ => return None,
                }
            }
            if d == 0 {
                return None;
            }
            fewest = fewest.min(d);
        }
        Some((fewest, u64::from(warps)))
    }

    /// For a boundary check against an unknown bound: the largest fraction of a block's
    /// warps one threshold can split (1 of 8 for a 1-D block of 256).
    fn boundary_bound(&mut self, site: &BranchSite) -> f64 {
        let Kind::Cmp(_, a, b) = self.acf.kind(match self.acf.kind(site.cond) {
            Kind::Not(x) => x,
            _ => site.cond,
        }) else {
            return 1.0;
        };
        let warps = self.geometry.warps();
        let mut intervals: Vec<(i64, i64)> = Vec::new();
        for w in 0..warps {
            let env = self.env(w);
            let d = self.eval(a, &env).sub(&self.eval(b, &env));
            let Some((c, _)) = d.split(env.valid) else {
                return 1.0;
            };
            let vals: Vec<i64> = (0..32)
                .filter(|k| env.valid & (1 << k) != 0)
                .map(|k| c[k])
                .collect();
            let lo = vals.iter().copied().min().unwrap_or(0);
            let hi = vals.iter().copied().max().unwrap_or(0);
            intervals.push((lo, hi));
        }
        // Max number of intervals strictly straddling one threshold.
        let mut best = 0usize;
        for &(lo, _) in &intervals {
            for t in [lo, lo + 1] {
                let n = intervals.iter().filter(|(l, h)| *l < t && t <= *h).count();
                best = best.max(n);
            }
        }
        best as f64 / f64::from(warps.max(1))
    }
}
