//! Accesses: sectors, lines and requests per warp of each thread-dependent global access (or
//! its bank conflicts in shared memory), its alignment residues, and how integer parameters
//! used as pitches are read (padded) when nothing is assumed about them.

use super::*;
use std::rc::Rc;

/// One evaluation of an access: its address, its activity, the lanes its loop sample leaves
/// active, whether that sample is exact, and the index of the environment it was taken in.
type Sample = (Rc<WarpVal>, Rc<WarpVal>, u32, bool, usize);

impl Checker<'_> {
    /// Measures a thread-dependent access.
    pub fn access(&mut self, site: &AccessSite) -> AccessResult {
        self.budget.start_site();
        let mut budget_spent = false;
        let shared = site.space.is_shared();
        // A `ld.const`: only how many distinct addresses a warp's lanes read is measured (the
        // constant cache serves one per pass).
        let constant = site.space == warpscope_ptx::StateSpace::Const;
        let loops = self.site_loops(site.ctx, site.block);
        let mut g = GlobalCost {
            sectors: (u32::MAX, 0),
            ideal: (u32::MAX, 0),
            lines: (u32::MAX, 0),
            requests: (u32::MAX, 0),
            runs_aligned: (u32::MAX, 0),
            runs: (u32::MAX, 0),
            ..Default::default()
        };
        let mut sh = SharedCost {
            ways: (u32::MAX, 0),
            wavefronts: (u32::MAX, 0),
            ideal: (u32::MAX, 0),
            stride: None,
        };
        let mut cc = ConstCost {
            addresses: (u32::MAX, 0),
        };
        let mut const_def = false;
        let mut const_pos = false;
        let mut data = false;
        let mut param = false;
        // Whether an unknown pitch was read as padded for some verdict.
        let mut pitch_read = false;
        let mut unc_def = false;
        let mut unc_pos = false;
        let mut mis_def = false;
        let mut mis_pos = false;
        let mut bank_def = false;
        let mut bank_pos = false;
        // Samples tried for, and found with, a stride that is a multiple of one uniform
        // unknown that only a few small values (0, ±1, ...) would make dense: those values.
        let mut stride_tries = 0u32;
        let mut stride_exceptions: Option<Vec<i64>> = None;
        // Proven uncoalesced on the assumption that this many lanes of a warp run it (0: no
        // such assumption).
        let mut min_lanes = 0u32;
        // Proven uncoalesced by one row of the warp alone, whatever the unknown pitch.
        let mut row_alone = false;
        let mut strides: Vec<Option<i64>> = Vec::new();
        let mut misaligns: Vec<Option<i64>> = Vec::new();
        let addr_node = self.measured_address(site);
        let addr_flags = self.acf.flags(addr_node) | self.acf.flags(site.active);
        // Ranged parameters this access depends on, and whether its loops need simulating.
        let ranged: Vec<(Atom, Vec<i64>)> = if self.param_ranges.is_empty() {
            Vec::new()
        } else {
            let mut site_params = self.acf.params_under(addr_node);
            site_params.extend(self.acf.params_under(site.active));
            self.param_ranges
                .iter()
                .filter(|(a, _)| site_params.contains(a))
                .cloned()
                .collect()
        };
        let nonaffine = addr_flags & flags::NONAFFINE != 0;
        let td_loop = loops
            .iter()
            .any(|&l| self.acf.is_td(self.acf.loops[l as usize].cont));
        let mut combos: Vec<Vec<(Atom, i64)>> = vec![Vec::new()];
        for (a, vals) in &ranged {
            // A sample of the range: its first values (every residue of small strides) and a
            // few more spread over it.
            let mut vals: Vec<i64> = if vals.len() <= 8 {
                vals.clone()
            } else {
                let n = vals.len();
                [0, 1, 2, 3, n / 3, n / 2, 2 * n / 3, n - 1]
                    .iter()
                    .map(|&i| vals[i])
                    .collect()
            };
            vals.dedup();
            let mut next = Vec::new();
            for c in &combos {
                for &v in &vals {
                    if next.len() < 64 {
                        let mut c = c.clone();
                        c.push((*a, v));
                        next.push(c);
                    }
                }
            }
            combos = next;
        }
        let quotients = self.parameter_quotients(&[addr_node, site.active]);
        // Boundary checks among the conditions that guard the access: inequalities against a
        // block- or parameter-dependent bound. Their lanes' values are read as one unknown
        // shared by the warp: edge warps are not what the access costs.
        let boundary = {
            let env0 = self.env(0);
            let mut ls = Vec::new();
            leaves(
                self.acf,
                site.active,
                &mut ls,
                &mut rustc_hash::FxHashSet::default(),
            );
            let mut set = rustc_hash::FxHashSet::default();
            for n in ls {
                if let Kind::Cmp(c, a, b) = self.acf.kind(n)
                    && !c.float
                    && !matches!(c.op, warpscope_ptx::CmpOp::Eq | warpscope_ptx::CmpOp::Ne)
                {
                    let (x, y) = self.eval2(a, b, &env0);
                    if let Some((_, part)) = x.sub(&y).split(env0.valid)
                        && !part.is_empty()
                        && part.iter().all(|(m, _)| {
                            // A bound shared by the warp but known only at run time (a count
                            // loaded from memory) splits the lanes the same way: a prefix or
                            // a suffix of a row, never holes.
                            self.syms.factors(*m).iter().all(|s| {
                                self.syms.info(*s).data
                                    || matches!(
                                        self.syms.symbol(*s),
                                        Sym::Atom(
                                            Atom::Param { .. } | Atom::Ctaid(_) | Atom::Nctaid(_)
                                        )
                                    )
                            })
                        })
                    {
                        set.insert(n);
                    }
                }
            }
            // Grid-stride trip counts, shared by the warp too.
            set.extend(
                self.grid_quotients
                    .get_or_init(|| grid_quotients(self.acf))
                    .iter()
                    .copied(),
            );
            // Quotients by a divisor nobody gave (a row length): shared by the warp as well.
            set.extend(quotients.iter().copied());
            (!set.is_empty()).then(|| std::rc::Rc::new(set))
        };
        // The pitch parameters of the address ([`Self::site_pitches`]), found on first need:
        // the same for every sample of the site.
        let pitches = std::cell::OnceCell::new();
        let warps = self.geometry.warps();
        for w in 0..warps {
            // Blocks of an unknown grid sampled for this warp: none of its verdicts is definite.
            let mut grid_sampled = false;
            // Budget spent: the first two warps and the last one stand for the block (a
            // 1024-thread block's 32 warps each cost a full evaluation of the address).
            if self.budget.spent() && w >= 2 && w + 1 < warps {
                budget_spent = true;
                continue;
            }
            let mut env = self.env(w);
            env.uniform_nodes = boundary.clone();
            let undecided = |a: &WarpVal, e: &Env| {
                a.opaque & e.valid != 0 || a.split(e.valid & !a.unknown).is_none()
            };
            let mut envs: Vec<(Env, Vec<(Atom, i64)>)> = combos
                .iter()
                .map(|c| {
                    let mut e = env.clone();
                    for (a, v) in c {
                        e.bind.insert(*a, WarpVal::konst(*v));
                    }
                    (e, c.clone())
                })
                .collect();
            // Budget spent: this warp gets its symbolic answer only (one environment, no
            // blocks enumerated, no loops simulated).
            let lean = self.budget.spent();
            if lean {
                budget_spent = true;
                envs.truncate(1);
            }
            let mut first: Vec<(Rc<WarpVal>, Rc<WarpVal>)> = Vec::new();
            let mut need_blocks = false;
            // The address undecided on lanes that do not read data (a remainder of the global
            // index by a constant: `t[i % 30]`).
            let mut addr_undecided = false;
            for (e, _) in &envs {
                let (a, act) = self.eval2(addr_node, site.active, e);
                addr_undecided |= a.unknown & e.valid == 0 && undecided(&a, e);
                need_blocks |= undecided(&a, e) || act.opaque & e.valid != 0;
                first.push((a, act));
            }
            if need_blocks && addr_flags & flags::CTAID != 0 && !lean {
                // Clamps at the edge of the grid and the like: examine representative blocks.
                // With the grid unknown and the address undecided without a block index, a
                // few first and far blocks stand for it (`t[i % 30]` stays within 30 elements
                // in each): what they show is `possible` only.
                let mut blocks = self.representative_blocks();
                if blocks.is_empty()
                    && self.geometry.grid.is_none()
                    && addr_undecided
                    && loops.is_empty()
                {
                    blocks = unknown_grid_blocks();
                    grid_sampled = true;
                }
                if !blocks.is_empty() {
                    // At most 64 environments per warp: fewer parameter samples when blocks
                    // multiply them (the first values keep every small residue).
                    if envs.len() * blocks.len() > 64 {
                        let keep = (64 / blocks.len()).max(1);
                        envs.truncate(keep);
                    }
                    envs = envs
                        .iter()
                        .flat_map(|(e, c)| {
                            blocks.iter().map(move |b| {
                                let mut e = e.clone();
                                e.ctaid = Some(*b);
                                (e, c.clone())
                            })
                        })
                        .take(512)
                        .collect();
                    first.clear();
                }
            }
            let simulate = !lean
                && !loops.is_empty()
                && (td_loop
                    || nonaffine
                        && first
                            .iter()
                            .chain([].iter())
                            .any(|(a, _)| undecided(a, &env))
                    || nonaffine && first.is_empty());
            let mut samples: Vec<Sample> = Vec::new();
            for (k, (e, c)) in envs.iter().enumerate() {
                if k > 0 && (simulate || first.get(k).is_none()) && self.budget.spent() {
                    budget_spent = true;
                    break;
                }
                if simulate {
                    let ss = self.samples(&loops, e, w, c);
                    for s in ss.iter() {
                        let (a, act) =
                            self.eval2_sample(addr_node, site.active, s, e.uniform_nodes.clone());
                        samples.push((a, act, s.active, s.exact, k));
                    }
                } else if let Some((a, act)) = first.get(k) {
                    samples.push((a.clone(), act.clone(), u32::MAX, true, k));
                } else {
                    let (a, act) = self.eval2(addr_node, site.active, e);
                    samples.push((a, act, u32::MAX, true, k));
                }
            }
            for (addr, act, loop_active, exact, k) in samples {
                // The padded reading evaluates the address again in the sample's own
                // environment: its block (an unknown grid's sampled block) and parameters.
                let penv = &envs[k].0;
                // Active lanes: not known to be off; those not known either way because of
                // data make the mask data-dependent.
                let here = env.valid & loop_active;
                let lanes_on = here & !act.zero_mask(here);
                let maybe_on = here & !act.concrete_mask(here) & act.unknown != 0;
                if lanes_on == 0 {
                    continue;
                }
                // The lanes' pattern is exact whatever block stands for the unknown grid: what
                // holds for every block (`unknown_stride_gaps`) needs no grid.
                let sample_exact = exact && !maybe_on;
                // Exact but for lanes a condition on loaded data may switch off.
                let exact_but_mask = exact && maybe_on && !grid_sampled;
                let exact = exact && !maybe_on && !grid_sampled;
                // Lanes whose offsets an unknown parameter scrambles (`pos & (stride - 1)`):
                // measured with the pitch parameters read as padded, when that reading
                // decides them.
                let mut padded_first = false;
                let addr = if !shared
                    && !constant
                    && addr.unknown & lanes_on == 0
                    && addr.opaque & lanes_on != 0
                    && let Some(a) = self.padded_pitch_addr(
                        site,
                        pitches.get_or_init(|| self.site_pitches(site)),
                        penv,
                        lanes_on,
                    ) {
                    padded_first = true;
                    Rc::new(a)
                } else {
                    addr
                };
                if addr.unknown & lanes_on != 0 || addr.opaque & lanes_on != 0 {
                    if addr.unknown & lanes_on != 0 {
                        data = true;
                    } else {
                        param = true;
                    }
                    if lanes_on.count_ones() > 1 {
                        if constant {
                            const_pos = true;
                        } else if shared {
                            bank_pos = true;
                        } else {
                            unc_pos = true;
                        }
                    }
                    let n = lanes_on.count_ones();
                    let c: Vec<i64> = Vec::new();
                    let req = memory::gpucheck_requests(&c, n);
                    g.requests = (g.requests.0.min(1), g.requests.1.max(req.1));
                    continue;
                }
                // A lane-varying symbolic stride is an unknown parameter. When it is a row
                // pitch (rows of a 2-D block) it is measured as a padded pitch, which real
                // code uses; otherwise the cost depends on it.
                // That reading is a guess: what it alone shows is `possible`.
                let (split, padded) = match addr.split(lanes_on) {
                    Some(s) => (Some(s), padded_first),
                    None if !shared && !constant => (
                        self.padded_pitch_addr(
                            site,
                            pitches.get_or_init(|| self.site_pitches(site)),
                            penv,
                            lanes_on,
                        )
                        .and_then(|a| a.split(lanes_on)),
                        true,
                    ),
                    None => (None, false),
                };
                if padded && split.is_some() {
                    pitch_read = true;
                }
                // Read with a quotient shared by the warp: an assumption, not a proof.
                let quotient_read = split.as_ref().is_some_and(|(_, part)| {
                    part.iter().any(|(m, _)| {
                        self.syms.factors(*m).iter().any(|s| {
                            matches!(self.syms.symbol(*s), Sym::Node(q) if quotients.contains(&q))
                        })
                    })
                });
                // Rows of the warp an unknown pitch apart: one row alone may already touch
                // more sectors than the whole request needs, whatever the pitch.
                // (A block that stands for an unknown grid need not exist; the first does.) Only
                // looked at when the measured request has gaps the other proofs miss.
                let rows_exact = sample_exact
                    && (!grid_sampled || penv.ctaid.is_none_or(|b| b == [0, 0, 0]))
                    && padded
                    && !padded_first
                    && !quotient_read;
                let exact = exact && !padded && !quotient_read;
                let Some((c, part)) = split else {
                    param = true;
                    // Lanes a multiple of one uniform unknown apart (`a[tid * n]`): every
                    // value of it but the degenerate 0 and ±1 leaves gaps.
                    if !shared
                        && !constant
                        && sample_exact
                        && !unc_def
                        && stride_tries < 8
                        && lanes_on.count_ones() > 1
                    {
                        stride_tries += 1;
                        if let Some(e) = self.unknown_stride_gaps(&addr, lanes_on, site.size) {
                            unc_def = true;
                            stride_exceptions = Some(e);
                            continue;
                        }
                    }
                    if lanes_on.count_ones() > 1 {
                        if constant {
                            const_pos = true;
                        } else if shared {
                            bank_pos = true;
                        } else {
                            unc_pos = true;
                        }
                    }
                    continue;
                };
                let offs: smallvec::SmallVec<[(u32, i64); 32]> = (0..32u32)
                    .filter(|k| lanes_on & (1 << k) != 0)
                    .map(|k| (k, c[k as usize]))
                    .collect();
                let plain: smallvec::SmallVec<[i64; 32]> = offs.iter().map(|x| x.1).collect();
                strides.push(constant_stride(&offs));
                if constant {
                    // One pass per distinct address the active lanes read (the uniform part
                    // of the address is the same for every lane).
                    let mut distinct = plain;
                    distinct.sort_unstable();
                    distinct.dedup();
                    let n = distinct.len() as u32;
                    cc.addresses = (cc.addresses.0.min(n), cc.addresses.1.max(n));
                    if n > 1 {
                        if exact {
                            const_def = true;
                        } else {
                            const_pos = true;
                        }
                    }
                    continue;
                }
                if shared {
                    let cost = memory::bank_cost(&offs, site.size);
                    sh.ways = (sh.ways.0.min(cost.ways), sh.ways.1.max(cost.ways));
                    sh.wavefronts = (
                        sh.wavefronts.0.min(cost.wavefronts),
                        sh.wavefronts.1.max(cost.wavefronts),
                    );
                    sh.ideal = (sh.ideal.0.min(cost.ideal), sh.ideal.1.max(cost.ideal));
                    if cost.ways > 1 {
                        if exact {
                            bank_def = true;
                        } else {
                            bank_pos = true;
                        }
                    }
                    continue;
                }
                // Residues of the uniform part modulo 128: those every block takes in turn
                // (block indices: each value runs) and those nobody knows (parameters, data).
                // The unknown residues come in two readings: with unknown pitches padded
                // (`res_unk`, the measured costs) and with them left unknown (`res_strict`,
                // only when they differ): a definite verdict must hold in both.
                let (res_run, res_unk, res_strict) = self.residues(&part, site.size);
                if res_strict.is_some() {
                    pitch_read = true;
                }
                let base0 = plain.first().copied().unwrap_or(0);
                let diffs: smallvec::SmallVec<[i64; 32]> =
                    plain.iter().map(|o| o - base0).collect();
                let pattern = self.request_costs.pattern(&diffs);
                let ideal = memory::ideal_sectors(offs.len() as u32, site.size);
                let plain_cost = self.request_costs.global(pattern, &diffs, base0, site.size);
                let ra = plain_cost.aligned_run_sectors;
                let nruns = plain_cost.runs;
                let need = ra.max(ideal);
                let mut smin = u32::MAX;
                let mut smax = 0;
                let mut lmin = u32::MAX;
                let mut lmax = 0;
                // Some block is certainly misaligned with the pitches read as padded; some
                // block is certainly misaligned / has excess sectors whatever they are.
                let mut mis_some_block = false;
                let mut mis_proven = false;
                let mut exc_proven = false;
                let mut mis_offset: Option<i64> = None;
                for &rr in &res_run {
                    let mut bmin = u32::MAX;
                    for &ru in &res_unk {
                        let r = rr + ru;
                        let cost = self
                            .request_costs
                            .global(pattern, &diffs, base0 + r, site.size);
                        let (sc, l) = (cost.sectors, cost.lines);
                        smin = smin.min(sc);
                        smax = smax.max(sc);
                        lmin = lmin.min(l);
                        lmax = lmax.max(l);
                        bmin = bmin.min(sc);
                    }
                    let strict_min = match &res_strict {
                        None => bmin,
                        Some(rs) => rs
                            .iter()
                            .map(|ru| {
                                self.request_costs
                                    .global(pattern, &diffs, base0 + rr + ru, site.size)
                                    .sectors
                            })
                            .min()
                            .unwrap_or(bmin),
                    };
                    if bmin > need {
                        mis_some_block = true;
                        mis_proven |= strict_min > need;
                        if res_unk.len() == 1 && mis_offset.is_none() {
                            let m = plain.iter().map(|o| o + rr + res_unk[0]).min().unwrap_or(0);
                            mis_offset = Some(m.rem_euclid(32));
                        }
                    }
                    if bmin > ideal {
                        exc_proven |= strict_min > ideal;
                    }
                }
                let req = self.request_costs.gpucheck(pattern, &diffs);
                g.sectors = (g.sectors.0.min(smin), g.sectors.1.max(smax));
                g.lines = (g.lines.0.min(lmin), g.lines.1.max(lmax));
                g.ideal = (g.ideal.0.min(ideal), g.ideal.1.max(ideal));
                g.runs_aligned = (g.runs_aligned.0.min(ra), g.runs_aligned.1.max(ra));
                g.runs = (g.runs.0.min(nruns), g.runs.1.max(nruns));
                g.requests = (g.requests.0.min(req.0), g.requests.1.max(req.1));
                // Gaps: more sectors than ideal even with every dense run aligned.
                if ra > ideal && smax > ideal {
                    if exact && exc_proven {
                        unc_def = true;
                    } else if rows_exact && row_alone_gaps(&addr, lanes_on, site.size) {
                        unc_def = true;
                        row_alone = true;
                    } else if exact_but_mask && let Some(k) = min_lanes_for_gaps(&plain, site.size)
                    {
                        // Which lanes run it depends on loaded data, but any `k` of the lanes
                        // that may run it leave a gap, wherever the warp starts.
                        unc_def = true;
                        min_lanes = min_lanes.max(k);
                    } else {
                        unc_pos = true;
                    }
                }
                // Misalignment: more sectors than the runs need and than ideal.
                if mis_some_block {
                    if exact && mis_proven {
                        mis_def = true;
                    } else {
                        mis_pos = true;
                    }
                    misaligns.push(mis_offset);
                } else if smax > need {
                    mis_pos = true;
                    misaligns.push(None);
                }
                // A data-dependent mask may leave holes in a request spanning several sectors.
                if maybe_on && smax > 1 {
                    unc_pos = true;
                }
            }
        }
        let fix = |p: (u32, u32)| if p.0 == u32::MAX { (0, p.1) } else { p };
        g.sectors = fix(g.sectors);
        g.ideal = fix(g.ideal);
        g.lines = fix(g.lines);
        g.requests = fix(g.requests);
        g.runs_aligned = fix(g.runs_aligned);
        g.runs = fix(g.runs);
        sh.ways = fix(sh.ways);
        sh.wavefronts = fix(sh.wavefronts);
        sh.ideal = fix(sh.ideal);
        cc.addresses = fix(cc.addresses);
        let stride = if !strides.is_empty() && strides.iter().all(|s| *s == strides[0]) {
            strides[0]
        } else {
            None
        };
        g.stride = stride;
        sh.stride = stride;
        g.misalign = if !misaligns.is_empty() && misaligns.iter().all(|s| *s == misaligns[0]) {
            misaligns[0]
        } else {
            None
        };
        let mut verdicts = Vec::new();
        if constant {
            if const_def || const_pos {
                verdicts.push((MemClass::DivergentConstant, const_def));
            }
        } else if shared {
            if bank_def || bank_pos {
                verdicts.push((MemClass::BankConflict, bank_def));
            }
        } else {
            if unc_def || unc_pos {
                verdicts.push((MemClass::Uncoalesced, unc_def));
            }
            // A misalignment only matters when the access is otherwise dense.
            if (mis_def || mis_pos) && !unc_def {
                verdicts.push((MemClass::Misaligned, mis_def));
            }
        }
        AccessResult {
            site: *site,
            global: (!shared && !constant).then_some(g),
            shared: shared.then_some(sh),
            constant: constant.then_some(cc),
            verdicts,
            data_dependent: data,
            param_dependent: param,
            pitch_read,
            budget_spent,
            stride_exceptions,
            min_lanes: if unc_def { min_lanes } else { 0 },
            row_alone: row_alone && unc_def,
        }
    }

    /// Divisions and remainders under `roots` of a lane-varying index by a divisor that is
    /// shared by the warp but neither a constant, nor assumed, nor the grid's size: a row
    /// length nobody gave (`col = i % w`, `row = i / w`, the periodic `(x + nx) % nx`). The
    /// access reads their quotient as one value shared by the warp (the lanes of a warp do
    /// not cross a multiple of the divisor; [`crate::eval::Env::uniform_nodes`]), as it reads
    /// unknown pitches as padded: a row of a warp stays a row. What that reading alone shows
    /// is `possible`.
    fn parameter_quotients(&self, roots: &[Node]) -> rustc_hash::FxHashSet<Node> {
        let mut out = rustc_hash::FxHashSet::default();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<Node> = roots.to_vec();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            stack.extend(self.acf.children(n));
            let Kind::Bin(crate::expr::BinOp::Div { .. } | crate::expr::BinOp::Rem { .. }, a, b) =
                self.acf.kind(n)
            else {
                continue;
            };
            let (fa, fb) = (self.acf.flags(a), self.acf.flags(b));
            let lanes =
                fa & (flags::TID | flags::LANE) != 0 && fa & (flags::UNKNOWN | flags::LOAD_TD) == 0;
            let shared_unknown = !self.acf.is_td(b)
                && !matches!(self.acf.kind(b), Kind::Const(_))
                && fb & (flags::PARAM | flags::UDATA) != 0;
            let given = self.acf.params_under(b).iter().any(|p| {
                matches!(p, Atom::Param { func, index, .. }
                    if self.oracle.params.contains_key(&(*func, *index)))
                    || self.param_ranges.iter().any(|(r, _)| r == p)
            });
            let grid = self.acf.walk(b, |k| match k {
                Kind::Atom(Atom::Nctaid(_)) => Walk::Stop,
                _ => Walk::Into,
            });
            if lanes && shared_unknown && !given && !grid {
                out.insert(n);
            }
        }
        out
    }

    /// The address node to measure: the address itself, or its form with cancelled operands
    /// ([`AccessSite::addr_cancelled`]) when the address depends on a parameter in a way no
    /// lane can evaluate (`idx / n` with `n` unknown) and that form does not. Both are the
    /// same value: the polynomial expansion only regroups terms (and reads a 32-bit index
    /// widened to 64 bits as its value, as evaluating a symbolic widening does).
    fn measured_address(&mut self, site: &AccessSite) -> Node {
        let Some(alt) = site.addr_cancelled else {
            return site.addr;
        };
        let env = self.env(0);
        let valid = env.valid;
        let a = self.eval(site.addr, &env);
        if a.opaque & valid == 0 || a.unknown & valid != 0 {
            return site.addr;
        }
        let b = self.eval(alt, &env);
        if b.opaque & valid == 0 && b.unknown & valid == 0 && b.split(valid).is_some() {
            alt
        } else {
            site.addr
        }
    }

    /// Whether symbol `s` is an integer kernel parameter with no assumption given that the
    /// kernel uses as a pitch ([`pitch_params`]), or a value scaled by one: the parameter in a
    /// 24-bit multiply's wrapper (`p & 0xffffff`), or a shift by it (`blockIdx.x << log2N`).
    fn unassumed_pitch(&self, s: u32) -> bool {
        let is_pitch = |a: Atom| self.pitches.contains_key(&a) && self.unassumed_integer_atom(a);
        match self.syms.symbol(s) {
            Sym::Atom(a) => is_pitch(a),
            Sym::Node(n) => match self.acf.kind(strip_wrappers(self.acf, n)) {
                Kind::Atom(a) => is_pitch(a),
                Kind::Bin(crate::expr::BinOp::Shl, _, amount) => param_atom(self.acf, amount)
                    .is_some_and(|a| is_pitch(a) && self.pitches.get(&a) == Some(&PitchUse::Shift)),
                // A row of a padded length counted in pairs or quads (`bid * n / 2` over
                // `half2`, `n / 4` over `float4`): the quotient by 2, 4 or 8 of a row index
                // times a pitch is padded too (C's rounding toward zero adds `x >> 31` first,
                // zero for the non-negative products a row index makes). Half a lone parameter
                // (`a[i + n / 2]`, a bitonic sort's partner) is an offset: not read so.
                Kind::Bin(crate::expr::BinOp::Shr { .. }, x, k)
                    if matches!(self.acf.kind(k), Kind::Const(1..=3)) =>
                {
                    let x = rounded_dividend(self.acf, x);
                    let p = self.acf.poly(x);
                    !p.terms.is_empty()
                        && p.terms.keys().all(|m| {
                            m.len() >= 2
                                && m.iter().any(|a| match self.acf.kind(*a) {
                                    Kind::Atom(a) => is_pitch(a),
                                    _ => false,
                                })
                        })
                }
                _ => false,
            },
        }
    }

    /// Whether symbol `s` is an integer kernel parameter with no assumption given, seen through
    /// the wrappers of [`strip_wrappers`]. Scaled by two elements or more in the uniform part
    /// of an address it is the length of the sections of a structure of arrays
    /// (`stats[2*npoint + i]`, `u[id + 2*offset]`; nobody starts a range at twice a position),
    /// which real code makes a multiple of the block it launches over, as it pads pitches.
    fn unassumed_size(&self, s: u32) -> bool {
        match self.syms.symbol(s) {
            Sym::Atom(a) => self.unassumed_integer_atom(a),
            Sym::Node(n) => matches!(self.acf.kind(strip_wrappers(self.acf, n)),
                Kind::Atom(a) if self.unassumed_integer_atom(a)),
        }
    }

    /// Whether `a` is an integer kernel parameter with no assumption given.
    pub(super) fn unassumed_integer_atom(&self, a: Atom) -> bool {
        let Atom::Param {
            func,
            index,
            offset,
        } = a
        else {
            return false;
        };
        let ty = self.oracle.module.funcs[func]
            .params
            .get(index as usize)
            .map(|p| p.ty);
        let pointer = offset == 0 && matches!(ty, Some(Type::U64 | Type::B64 | Type::S64))
            || self.acf.pointer_fields.contains(&a);
        !pointer && !self.oracle.params.contains_key(&(func, index))
    }

    /// The unassumed integer parameters of the site's address that the kernel uses as pitches
    /// ([`pitch_params`]), in the order the address reaches them.
    fn site_pitches(&self, site: &AccessSite) -> Vec<(Atom, PitchUse)> {
        self.acf
            .params_under(site.addr)
            .into_iter()
            .filter(|a| self.unassumed_integer_atom(*a))
            .filter_map(|a| self.pitches.get(&a).map(|u| (a, *u)))
            .collect()
    }

    /// The address with every unassumed pitch parameter ([`pitch_params`]) of it read as a
    /// padded row pitch, when those parameters only separate rows of the warp (lanes of one
    /// row of the block move together when the pitch changes); `None` otherwise (a stride
    /// `in[s*i]` spreads the lanes of a row: its cost depends on `s`).
    /// `pitches` are the site's ([`Self::site_pitches`]).
    fn padded_pitch_addr(
        &mut self,
        site: &AccessSite,
        pitches: &[(Atom, PitchUse)],
        env: &Env,
        lanes_on: u32,
    ) -> Option<WarpVal> {
        if pitches.is_empty() {
            return None;
        }
        let with = |reading: usize| {
            let mut e = env.clone();
            for (a, u) in pitches {
                e.bind.insert(*a, WarpVal::konst(u.padded()[reading]));
            }
            e
        };
        let a1 = self.eval(site.addr, &with(0));
        let a2 = self.eval(site.addr, &with(1));
        let (c1, _) = a1.split(lanes_on)?;
        let (c2, _) = a2.split(lanes_on)?;
        let mut row_shift: Vec<([u32; 2], i64)> = Vec::new();
        for k in 0..32 {
            if lanes_on & (1 << k) == 0 {
                continue;
            }
            let l = env.lanes[k]?;
            let row = [l.tid[1], l.tid[2]];
            let d = c2[k].wrapping_sub(c1[k]);
            match row_shift.iter().find(|(r, _)| *r == row) {
                Some((_, x)) if *x != d => return None,
                Some(_) => {}
                None => row_shift.push((row, d)),
            }
        }
        Some(a1)
    }

    /// Possible values modulo 128 of a lane-uniform symbolic address part, split into the
    /// residues that do occur (block indices of a known grid: every block runs) and those
    /// that are merely possible (unknown parameters, data); each set contains 0 at least.
    ///
    /// Unknown integer parameters used as pitches ([`pitch_params`]), or scaled by two
    /// elements of `size` bytes or more (section lengths, [`Self::unassumed_size`]), are read
    /// as padded (no residue); the third set is the unknown residues with them left unknown,
    /// when that differs.
    fn residues(&self, part: &[(u32, i64)], size: u32) -> (Vec<i64>, Vec<i64>, Option<Vec<i64>>) {
        let mut run: u128 = 1;
        let mut unk: u128 = 1;
        let mut pitch: u128 = 1;
        // Residue sets as 128-bit masks: `a + b (mod 128)` for every `a` of `set` and `b` of
        // `contrib` is `contrib` rotated by each `a`.
        let sumset = |set: u128, contrib: u128| -> u128 {
            let mut next: u128 = 0;
            let mut rest = set;
            while rest != 0 {
                next |= contrib.rotate_left(rest.trailing_zeros());
                rest &= rest - 1;
            }
            next
        };
        for &(m, c) in part {
            let f = self.syms.factors(m);
            let info = (f.len() == 1).then(|| self.syms.info(f[0]));
            match info {
                Some(SymInfo {
                    range: Some((lo, hi)),
                    align,
                    ..
                }) if align != 0 && hi - lo < 128 => {
                    let mut contrib: u128 = 0;
                    for v in lo..=hi {
                        contrib |= 1u128 << (c.wrapping_mul(v)).rem_euclid(128);
                    }
                    run = sumset(run, contrib);
                }
                _ => {
                    let mut tz = c.unsigned_abs().trailing_zeros();
                    let mut sliding = false;
                    for &s in f {
                        let a = self.syms.info(s).align;
                        if a == 0 {
                            sliding = true;
                        } else {
                            tz = tz.saturating_add(a.trailing_zeros());
                        }
                    }
                    if !sliding && tz < 7 {
                        let step = 1usize << tz;
                        let mut contrib: u128 = 0;
                        let mut v = 0;
                        while v < 128 {
                            contrib |= 1u128 << v;
                            v += step;
                        }
                        // A section `k*n` (k >= 2 elements) of a parameter length: the
                        // start of the third array of a structure of arrays.
                        let section = f.len() == 1
                            && c.unsigned_abs() >= 2 * u64::from(size.max(1))
                            && self.unassumed_size(f[0]);
                        if section || f.iter().any(|&s| self.unassumed_pitch(s)) {
                            // An integer parameter nothing was said about that the kernel
                            // uses as a pitch (`a[i + k*n]`) or as the length of the sections
                            // of a structure of arrays (`a[2*n + i]`): real code pads those,
                            // so it alone is no reason to call the access misaligned, nor is
                            // reading it padded a proof that it is.
                            pitch = sumset(pitch, contrib);
                        } else {
                            unk = sumset(unk, contrib);
                        }
                    }
                }
            }
        }
        let list = |set: u128| -> Vec<i64> {
            let mut out = Vec::with_capacity(set.count_ones() as usize);
            let mut rest = set;
            while rest != 0 {
                out.push(i64::from(rest.trailing_zeros()));
                rest &= rest - 1;
            }
            out
        };
        let strict = (pitch != 1).then(|| list(sumset(unk, pitch)));
        (list(run), list(unk), strict)
    }
}

/// How a parameter the kernel uses as a pitch enters its indices, which decides the value it
/// takes when it is read as padded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PitchUse {
    /// Multiplied by something that varies (`a[y*w + x]`) or stepping a loop: read as a
    /// multiple of 32 elements.
    Multiplier,
    /// A power of two whose mask selects the low bits of an index (`i & (stride - 1)`, the
    /// butterflies of a Walsh transform or a sorting network): read as a large power of two,
    /// so a warp's 32 consecutive indices stay consecutive.
    Mask,
    /// A shift amount (`blockIdx.x << log2N`): read as at least 5 (a multiple of 32
    /// elements).
    Shift,
}

impl PitchUse {
    /// The two values the parameter takes in the padded reading: the first measures, the
    /// second checks that lanes of one row move together when the pitch changes.
    fn padded(self) -> [i64; 2] {
        match self {
            PitchUse::Multiplier => [PADDED_PITCH, PADDED_PITCH + 32],
            PitchUse::Mask => [1 << 16, 1 << 17],
            PitchUse::Shift => [12, 13],
        }
    }
}

/// `n` with the 24-bit truncations nvcc wraps around `__mul24` operands and sign or zero
/// extensions removed: `p & 0xffffff`, `(256*p) >> 8`, `(p << 8) >> 8`.
fn strip_wrappers(acf: &Acf, n: Node) -> Node {
    let mut n = n;
    loop {
        n = match acf.kind(n) {
            Kind::Ext(_, x) => x,
            Kind::Bin(crate::expr::BinOp::And, a, b) => {
                let low_mask = |c: Node| matches!(acf.kind(c), Kind::Const(m) if m > 0 && m & (m + 1) == 0 && m >= 0xffff);
                if low_mask(b) {
                    a
                } else if low_mask(a) {
                    b
                } else {
                    return n;
                }
            }
            Kind::Bin(crate::expr::BinOp::Shr { .. }, a, k) => {
                let Kind::Const(k) = acf.kind(k) else {
                    return n;
                };
                if !(1..32).contains(&k) {
                    return n;
                }
                match acf.kind(acf.without_ext(a)) {
                    Kind::Mul(x, y) => match (acf.kind(x), acf.kind(y)) {
                        (Kind::Const(c), _) if c == 1 << k => y,
                        (_, Kind::Const(c)) if c == 1 << k => x,
                        _ => return n,
                    },
                    Kind::Bin(crate::expr::BinOp::Shl, x, s) if matches!(acf.kind(s), Kind::Const(c) if c == k) => {
                        x
                    }
                    _ => return n,
                }
            }
            _ => return n,
        };
    }
}

/// The kernel parameter `n` is, seen through [`strip_wrappers`] and constant factors.
fn param_atom(acf: &Acf, n: Node) -> Option<Atom> {
    let mut n = strip_wrappers(acf, n);
    loop {
        match acf.kind(n) {
            Kind::Atom(a @ Atom::Param { .. }) => return Some(a),
            Kind::Mul(x, y) => match (acf.kind(x), acf.kind(y)) {
                (Kind::Const(_), _) => n = strip_wrappers(acf, y),
                (_, Kind::Const(_)) => n = strip_wrappers(acf, x),
                _ => return None,
            },
            _ => return None,
        }
    }
}

/// The dividend `x` of C's signed division by a power of two as nvcc writes it, `x + (x >>
/// 31)` (or `x + ((x >> 31) >> (32 - k))`) before the shift; any other node as it is.
fn rounded_dividend(acf: &Acf, n: Node) -> Node {
    let n = acf.without_ext(n);
    let Kind::Add(a, b) = acf.kind(n) else {
        return n;
    };
    let (a, b) = (acf.without_ext(a), acf.without_ext(b));
    let sign_of = |s: Node, x: Node| {
        let mut s = s;
        loop {
            match acf.kind(s) {
                Kind::Bin(crate::expr::BinOp::Shr { .. }, y, _) if acf.without_ext(y) == x => {
                    return true;
                }
                Kind::Bin(crate::expr::BinOp::Shr { .. }, y, _) => s = acf.without_ext(y),
                _ => return false,
            }
        }
    };
    if sign_of(a, b) {
        b
    } else if sign_of(b, a) {
        a
    } else {
        n
    }
}

/// The parameter `q` of a mask `q - 1` (or `(q >> k) - 1`).
fn mask_param(acf: &Acf, n: Node) -> Option<Atom> {
    let Kind::Add(a, b) = acf.kind(strip_wrappers(acf, n)) else {
        return None;
    };
    let q = match (acf.kind(a), acf.kind(b)) {
        (Kind::Const(-1), _) => b,
        (_, Kind::Const(-1)) => a,
        _ => return None,
    };
    match acf.kind(strip_wrappers(acf, q)) {
        Kind::Bin(crate::expr::BinOp::Shr { .. }, x, k)
            if matches!(acf.kind(k), Kind::Const(_)) =>
        {
            param_atom(acf, x)
        }
        _ => param_atom(acf, q),
    }
}

/// Parameters the kernel uses as pitches, and how ([`PitchUse`]): multiplied by something
/// that varies (a loop counter, a thread or block index, another parameter), stepping a
/// loop-carried value, masking an index (`i & (q - 1)`) or shifting one (`b << q`).
pub fn pitch_params(acf: &Acf) -> FxHashMap<Atom, PitchUse> {
    let mut out: FxHashMap<Atom, PitchUse> = FxHashMap::default();
    let mut add = |a: Option<Atom>, u: PitchUse| {
        if let Some(a) = a {
            let e = out.entry(a).or_insert(u);
            *e = (*e).max(u);
        }
    };
    for i in 0..acf.len() {
        match acf.kind(Node::new(i)) {
            Kind::Mul(a, b)
                if !matches!(acf.kind(a), Kind::Const(_))
                    && !matches!(acf.kind(b), Kind::Const(_)) =>
            {
                add(param_atom(acf, a), PitchUse::Multiplier);
                add(param_atom(acf, b), PitchUse::Multiplier);
            }
            Kind::Bin(crate::expr::BinOp::And, a, b) => {
                add(mask_param(acf, a), PitchUse::Mask);
                add(mask_param(acf, b), PitchUse::Mask);
            }
            Kind::Bin(crate::expr::BinOp::Shl, _, b) => add(param_atom(acf, b), PitchUse::Shift),
            _ => {}
        }
    }
    for lv in &acf.loopvars {
        if let Some(step) = lv.step {
            for a in acf.params_under(step) {
                add(Some(a), PitchUse::Multiplier);
            }
        }
    }
    out
}

/// The byte stride between consecutive active lanes, when it is constant.
fn constant_stride(offs: &[(u32, i64)]) -> Option<i64> {
    if offs.len() < 2 {
        return None;
    }
    let s = (offs[1].1 - offs[0].1) / i64::from((offs[1].0 - offs[0].0).max(1));
    offs.windows(2)
        .all(|w| w[1].1 - w[0].1 == s * i64::from(w[1].0 - w[0].0))
        .then_some(s)
}

/// Blocks standing for an unknown grid where an access's cost depends on the block index in a
/// way no symbol carries (a remainder of the global index, `t[i % 30]`): the first four in x,
/// two far ones (odd and even), a few in y, and two inside the grid in every dimension: a
/// stencil over a 3-D grid of 3-D blocks guards its halo (`k >= 4`, `j >= 4`) so that no lane
/// of a block at `z = 0` or `y = 0` runs the access (HeCBench's hypterm, 16×4×4 blocks).
fn unknown_grid_blocks() -> Vec<[u32; 3]> {
    vec![
        [0, 0, 0],
        [1, 0, 0],
        [2, 0, 0],
        [3, 0, 0],
        [37, 0, 0],
        [1000, 0, 0],
        [0, 1, 0],
        [1, 37, 0],
        [1, 1, 1],
        [37, 37, 37],
    ]
}

/// Whether some row of the warp alone (lanes sharing every symbolic coefficient of `addr`:
/// one value of each unknown, a pitch say) touches more sectors than the whole request's
/// bytes need, wherever the row starts: the warp's request covers that row's sectors at
/// least, whatever the unknowns are, so it has excess sectors.
fn row_alone_gaps(addr: &WarpVal, lanes: u32, size: u32) -> bool {
    if addr.bad() & lanes != 0 || !(1..=16).contains(&size) {
        return false;
    }
    let ideal = memory::ideal_sectors(lanes.count_ones(), size);
    let c0 = addr.const_part();
    let key = |k: usize| -> smallvec::SmallVec<[i64; 4]> {
        addr.terms
            .iter()
            .filter(|(m, _)| *m != 0)
            .map(|(_, c)| c.get(k))
            .collect()
    };
    let on: smallvec::SmallVec<[usize; 32]> = (0..32).filter(|k| lanes & (1 << k) != 0).collect();
    let mut done = 0u32;
    for &k in &on {
        if done & (1 << k) != 0 {
            continue;
        }
        let kk = key(k);
        let row: smallvec::SmallVec<[i64; 32]> = on
            .iter()
            .filter(|&&j| key(j) == kk)
            .map(|&j| {
                done |= 1 << j;
                c0[j]
            })
            .collect();
        if row.len() < 2 {
            continue;
        }
        // Every start the row's accesses can have (naturally aligned): shifts that keep the
        // first lane a multiple of the access size, over one sector.
        let fewest = (0..32)
            .filter(|r| (row[0] + r).rem_euclid(i64::from(size)) == 0)
            .map(|r| {
                let shifted: smallvec::SmallVec<[i64; 32]> = row.iter().map(|o| o + r).collect();
                memory::sectors(&shifted, size)
            })
            .min()
            .unwrap_or(0);
        if fewest > ideal {
            return true;
        }
    }
    false
}

/// The fewest lanes among those at these byte offsets that, running together, always touch
/// more sectors than their bytes need, whichever they are and wherever the warp starts; `None`
/// when even all of them need not (or two lanes share or overlap an address). Accesses of
/// `size <= 16` bytes are naturally aligned, so each lies in one 32-byte sector, and a sector
/// holds at most `m = (32 - size) / d + 1` of them when they are at least `d` bytes apart:
/// `k` lanes touch at least `ceil(k / m)` sectors where `ceil(k * size / 32)` would do. Lanes
/// a sector or more apart: 2.
fn min_lanes_for_gaps(offs: &[i64], size: u32) -> Option<u32> {
    let mut o: smallvec::SmallVec<[i64; 32]> = offs.iter().copied().collect();
    o.sort_unstable();
    let d = o.windows(2).map(|w| w[1] - w[0]).min()?;
    let size = i64::from(size);
    if !(1..=16).contains(&size) || d < size {
        return None;
    }
    let m = (32 - size) / d + 1;
    (2..=o.len() as i64)
        .find(|&k| (k + m - 1) / m > (k * size + 31) / 32)
        .map(|k| k as u32)
}
