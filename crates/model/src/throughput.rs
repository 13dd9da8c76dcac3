//! **warpscope's own H100 throughput estimate** — an extension, not one of the paper's metrics.
//!
//! The paper's metrics add up latencies as if nothing overlapped. An H100 SM holds up to 64
//! warps, issues from 4 sub-partition schedulers (one warp instruction per clock each), and hides
//! one warp's latency behind the others'. This estimate keeps the paper's per-warp latency sum
//! as a *lower bound* on a warp's time and adds the bounds the machine imposes, from the same
//! BBVs, the same latency table, the profile's sectors per request, and machine facts
//! ([`H100_MACHINE_TSV`], [`H100_OVERHEAD_TSV`]) that were measured or published, not fitted to
//! the kernels the estimate is judged on:
//!
//! * per thread block `B`: its latency path `P_B = max_{w∈B} T_w` (`T_w` the paper's per-warp
//!   latency sum), its warp instruction issues `I_B = Σ_w Σ_b slots[b] × max_{t∈w} BBV_t[b]`,
//!   those of each execution unit `U_B[u]` (fp32, integer ALU, IMAD, fp64, MUFU, conversions,
//!   LSU, shuffle) and its global-memory sectors `S_B` (per warp execution of a basic block: the
//!   profile's sectors per request of its accesses);
//! * the blocks are dispatched dynamically to `SMs × occupancy` slots (the scheduled metric's
//!   dispatch), each taking `d_B = max(P_B, k·I_B / issue, k·U_B[u] / rate[u], k·S_B / l1)`
//!   with `k = min(occupancy, ⌈blocks / SMs⌉)` blocks sharing an SM: that gives each block its
//!   SM and start time `s_B`;
//! * an SM's time is the largest of `max_B (s_B + P_B)`, `Σ_B I_B / issue`, `Σ_B U_B[u] /
//!   rate[u]` and `Σ_B S_B / l1` over its blocks, and the compute time the slowest SM's; global
//!   memory bounds it from below by the launch's sectors over the L2 bandwidth, and by its
//!   buffers' bytes over the DRAM bandwidth when they do not fit in the L2 (back-to-back
//!   launches find smaller data in the L2);
//! * `time = max(empty(grid), empty(1 block) + work)`: `empty(n)` is the measured time of an
//!   empty kernel of `n` blocks of the same size (launch, block dispatch and drain), so a grid
//!   whose blocks do little costs what dispatching it costs.

use serde::Serialize;
use std::collections::HashMap;
use warpscope_ir::Module;
use warpscope_profile::KernelProfile;
use warpscope_profile::bbv::LaunchBbv;

use crate::estimate::{Classes, dispatch, warp_members};
use crate::latency::class_of;

/// The machine facts (`name<TAB>value<TAB>source`).
pub const H100_MACHINE_TSV: &str = include_str!("../../../validation/h100/model/h100_machine.tsv");
/// Empty-kernel time per grid (`blocks<TAB>threads<TAB>graph_us<TAB>plain_us`), measured by
/// `scripts/h100/model_calib.py`.
pub const H100_OVERHEAD_TSV: &str =
    include_str!("../../../validation/h100/model/model_overhead.tsv");

/// Execution units with a throughput of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    Fp32,
    Alu,
    Imad,
    Fp64,
    Mufu,
    Conv,
    Lsu,
    Shfl,
}

impl Unit {
    pub const ALL: [Unit; 8] = [
        Unit::Fp32,
        Unit::Alu,
        Unit::Imad,
        Unit::Fp64,
        Unit::Mufu,
        Unit::Conv,
        Unit::Lsu,
        Unit::Shfl,
    ];
    const COUNT: usize = Unit::ALL.len();

    pub fn name(self) -> &'static str {
        match self {
            Unit::Fp32 => "fp32",
            Unit::Alu => "alu",
            Unit::Imad => "imad",
            Unit::Fp64 => "fp64",
            Unit::Mufu => "mufu",
            Unit::Conv => "conv",
            Unit::Lsu => "lsu",
            Unit::Shfl => "shfl",
        }
    }

    /// The unit an instruction of latency class `class` occupies, if it has a rate of its own
    /// (branches, barriers and parameter loads only take issue slots).
    pub fn of_class(class: &str) -> Option<Unit> {
        Some(match class {
            "fp32" | "fp32_mul" | "fp32_fma" | "fp32_minmax" => Unit::Fp32,
            "int_alu" | "int_logic" | "int_shift" | "int_minmax" | "setp" | "int64_alu"
            | "vote" => Unit::Alu,
            "int_mul" | "int_mad" | "int_mul_wide" | "int64_mul" => Unit::Imad,
            "fp64" | "fp64_fma" => Unit::Fp64,
            "sfu_rcp" | "sfu_sqrt" | "sfu_rsqrt" | "sfu_sincos" | "sfu_ex2" | "sfu_lg2"
            | "sfu_tanh" => Unit::Mufu,
            "cvt" | "cvt_f64" | "int_bit" => Unit::Conv,
            "ld_global" | "st_global" | "ld_local" | "ld_shared" | "st_shared" | "atom_global"
            | "atom_shared" => Unit::Lsu,
            "shfl" => Unit::Shfl,
            _ => return None,
        })
    }
}

/// Warp instructions (SASS) one PTX instruction of latency class `class` issues: 1, except
/// the classes the latency benchmark's SASS check found to be sequences (the latency table's
/// `how` column: ~13 SASS per IEEE fp32 divide, square root and reciprocal, ~18–24 per integer
/// divide or remainder, two per 64-bit add, four per 64-bit multiply, `FMUL.RZ` + `MUFU` per
/// sine/cosine) and parameter loads, which ptxas folds into constant-bank operands. The fp64
/// divide/square root and 64-bit integer divide counts are estimates (subroutines).
pub fn issue_slots(class: &str) -> f64 {
    match class {
        "fp32_div" | "fp32_sqrt" | "fp32_rcp" => 13.0,
        "int_div" | "int_rem" => 18.0,
        "int_div_signed" => 24.0,
        "int64_div" => 40.0,
        "fp64_div" | "fp64_sqrt" => 20.0,
        "int64_alu" | "int_mul_wide" | "sfu_sincos" => 2.0,
        "int64_mul" => 4.0,
        "ld_const" => 0.0,
        _ => 1.0,
    }
}

/// One row of the empty-kernel table.
#[derive(Clone, Copy, Debug, PartialEq)]
struct OverheadRow {
    blocks: f64,
    threads: u32,
    us: f64,
}

/// The machine facts of the estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct H100Machine {
    /// Warp instructions issued per clock per SM.
    pub issue_per_sm: f64,
    /// Warp instructions per clock per SM of each [`Unit`] (in [`Unit::ALL`] order).
    pub unit_per_sm: [f64; Unit::COUNT],
    /// Global sectors per clock per SM through the L1.
    pub l1_sectors_per_sm: f64,
    /// Global sectors per clock, whole GPU, from the L2 and from DRAM.
    pub l2_sectors_per_clk: f64,
    pub dram_sectors_per_clk: f64,
    /// L2 capacity (bytes).
    pub l2_bytes: f64,
    overhead: Vec<OverheadRow>,
}

fn rows(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(n, l)| {
        let l = l.trim();
        (!l.is_empty() && !l.starts_with('#')).then(|| (n + 1, l.split('\t').collect()))
    })
}

impl H100Machine {
    /// The committed H100 facts.
    pub fn h100() -> H100Machine {
        H100Machine::parse(H100_MACHINE_TSV, H100_OVERHEAD_TSV).expect("the committed tables parse")
    }

    /// Parses the machine table and the empty-kernel table.
    pub fn parse(machine: &str, overhead: &str) -> Result<H100Machine, String> {
        let mut v: HashMap<&str, f64> = HashMap::new();
        for (n, r) in rows(machine) {
            let x = r.get(1).and_then(|x| x.trim().parse::<f64>().ok());
            match x {
                Some(x) if x.is_finite() && x > 0.0 => {
                    v.insert(r[0].trim(), x);
                }
                _ => return Err(format!("machine table line {n}: expected `name<TAB>value`")),
            }
        }
        let get = |k: &str| {
            v.get(k)
                .copied()
                .ok_or_else(|| format!("machine table: no `{k}` row"))
        };
        let mut unit_per_sm = [0.0; Unit::COUNT];
        for (slot, u) in unit_per_sm.iter_mut().zip(Unit::ALL) {
            *slot = get(&format!("{}_per_sm", u.name()))?;
        }
        let mut over = Vec::new();
        for (n, r) in rows(overhead) {
            if r[0].trim() == "blocks" {
                continue;
            }
            let num = |i: usize| r.get(i).and_then(|x| x.trim().parse::<f64>().ok());
            match (num(0), num(1), num(2)) {
                (Some(b), Some(t), Some(us)) if b >= 1.0 && t >= 1.0 && us >= 0.0 => {
                    over.push(OverheadRow {
                        blocks: b,
                        threads: t as u32,
                        us,
                    })
                }
                _ => {
                    return Err(format!(
                        "empty-kernel table line {n}: expected `blocks<TAB>threads<TAB>us`"
                    ));
                }
            }
        }
        if over.is_empty() {
            return Err("empty-kernel table: no rows".into());
        }
        over.sort_by(|a, b| {
            a.threads
                .cmp(&b.threads)
                .then(a.blocks.total_cmp(&b.blocks))
        });
        Ok(H100Machine {
            issue_per_sm: get("issue_per_sm")?,
            unit_per_sm,
            l1_sectors_per_sm: get("l1_sectors_per_sm")?,
            l2_sectors_per_clk: get("l2_sectors_per_clk")?,
            dram_sectors_per_clk: get("dram_sectors_per_clk")?,
            l2_bytes: get("l2_bytes")?,
            overhead: over,
        })
    }

    /// Microseconds of an empty kernel of `blocks` blocks of `threads` threads: the rows of the
    /// smallest measured block size ≥ `threads` (the largest when none is), linear between the
    /// measured grids and beyond the largest (dispatch is linear in blocks there).
    pub fn empty_kernel_us(&self, blocks: u64, threads: u32) -> f64 {
        let t = self
            .overhead
            .iter()
            .map(|r| r.threads)
            .find(|&t| t >= threads)
            .unwrap_or_else(|| self.overhead.last().map_or(threads, |r| r.threads));
        let pts: Vec<OverheadRow> = self
            .overhead
            .iter()
            .filter(|r| r.threads == t)
            .copied()
            .collect();
        let b = blocks.max(1) as f64;
        if pts.len() == 1 || b <= pts[0].blocks {
            return pts[0].us;
        }
        let i = pts
            .windows(2)
            .position(|w| b <= w[1].blocks)
            .unwrap_or(pts.len() - 2);
        let (p, q) = (pts[i], pts[i + 1]);
        let f = (b - p.blocks) / (q.blocks - p.blocks).max(1e-9);
        (p.us + f * (q.us - p.us)).max(0.0)
    }
}

/// What one execution of a basic block costs a warp, besides its latency.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnCost {
    /// Warp instructions issued.
    pub issue: f64,
    /// Of which on each [`Unit`].
    pub units: [f64; Unit::COUNT],
    /// Global-memory sectors (the profile's sectors per request of each access in the block).
    pub sectors: f64,
}

/// The [`ColumnCost`] of each BBV column of a launch; `kernel` is the kernel's profile (its
/// instructions' sectors per request), `None` when there is none (no sectors then).
pub fn column_costs(
    module: &Module,
    l: &LaunchBbv,
    kernel: Option<&KernelProfile>,
) -> Vec<ColumnCost> {
    let mut spr: HashMap<(&str, u32), f64> = HashMap::new();
    if let Some(k) = kernel {
        for i in &k.instructions {
            let g = &i.counters.global;
            if g.requests > 0 {
                spr.insert(
                    (i.function.as_str(), i.inst),
                    g.sectors as f64 / g.requests as f64,
                );
            }
        }
    }
    l.columns
        .iter()
        .map(|&(f, b, _)| {
            use cranelift_entity::EntityRef;
            let func = &module.funcs[f];
            let mut c = ColumnCost::default();
            for &i in &func.blocks[b].insts {
                let class = class_of(&func.insts[i]);
                let slots = issue_slots(class);
                c.issue += slots;
                if let Some(u) = Unit::of_class(class) {
                    // sin/cos: FMUL.RZ on the fp32 pipe, then one MUFU
                    c.units[u as usize] += if class == "sfu_sincos" { 1.0 } else { slots };
                }
                c.sectors += spr
                    .get(&(func.name.as_str(), i.index() as u32))
                    .copied()
                    .unwrap_or(0.0);
            }
            c
        })
        .collect()
}

/// What bounds the estimate (serialized as [`Bound::describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A warp's latency path (the paper's per-warp sum).
    Latency,
    /// The SM's issue rate.
    Issue,
    /// An execution unit's rate.
    Unit(Unit),
    /// The L1's sector rate.
    L1,
    /// The L2's sector bandwidth.
    L2,
    /// DRAM bandwidth.
    Dram,
    /// Dispatching the grid (an empty kernel of the same grid takes as long).
    Dispatch,
}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.describe())
    }
}

impl Bound {
    pub fn describe(self) -> String {
        match self {
            Bound::Latency => "latency path".into(),
            Bound::Issue => "issue rate".into(),
            Bound::Unit(u) => format!("{} throughput", u.name()),
            Bound::L1 => "L1 sectors".into(),
            Bound::L2 => "L2 bandwidth".into(),
            Bound::Dram => "DRAM bandwidth".into(),
            Bound::Dispatch => "grid dispatch".into(),
        }
    }
}

/// The estimate of one launch (cycles at the latency table's clock).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct H100Estimate {
    /// The estimate: `max(dispatch, launch + max(compute, memory))`.
    pub cycles: f64,
    pub bound: Bound,
    /// The slowest SM: its blocks' latency paths after their start, or their issue, unit or L1
    /// throughput sums.
    pub compute: f64,
    /// Global memory over the L2 (and DRAM) bandwidth.
    pub memory: f64,
    /// An empty kernel of one block of this size.
    pub launch: f64,
    /// An empty kernel of this grid.
    pub dispatch: f64,
    /// Blocks sharing an SM.
    pub blocks_sharing_sm: u32,
    /// Global sectors of the launch.
    pub sectors: f64,
}

/// One launch's inputs.
pub struct LaunchInput<'a> {
    pub classes: &'a Classes,
    /// Latency of each column (the paper's `lat[b]`).
    pub lat: &'a [f64],
    pub cost: &'a [ColumnCost],
    pub threads_per_block: u32,
    /// `order[slot] = thread` (identity when `None`).
    pub order: Option<&'a [u32]>,
    pub sms: u32,
    pub blocks_per_sm: u32,
    /// Bytes of the buffers the launch is given (its largest possible footprint).
    pub buffer_bytes: f64,
    /// SM clock (MHz) to turn the empty-kernel microseconds into cycles.
    pub clock_mhz: f64,
}

/// Per-warp totals of one vector: (latency path, issue, per unit, sectors).
#[derive(Clone, Copy, Default)]
struct WarpCost {
    path: f64,
    issue: f64,
    units: [f64; Unit::COUNT],
    sectors: f64,
}

impl WarpCost {
    fn of(v: impl Iterator<Item = f64>, lat: &[f64], cost: &[ColumnCost]) -> WarpCost {
        let mut w = WarpCost::default();
        for ((n, l), c) in v.zip(lat).zip(cost) {
            if n == 0.0 {
                continue;
            }
            w.path += n * l;
            w.issue += n * c.issue;
            for (a, b) in w.units.iter_mut().zip(&c.units) {
                *a += n * b;
            }
            w.sectors += n * c.sectors;
        }
        w
    }
}

/// The estimate of one launch.
pub fn estimate(inp: &LaunchInput, m: &H100Machine) -> H100Estimate {
    let classes = inp.classes;
    let n = classes.threads();
    let cols = classes.cols;
    let tpb = (inp.threads_per_block as usize).max(1);
    let nblocks = n.div_ceil(tpb);
    let sms = inp.sms.max(1);
    let per_sm = inp.blocks_per_sm.max(1);
    let k = per_sm.min(nblocks.div_ceil(sms as usize).max(1) as u32);
    let kf = f64::from(k);
    let per_class: Vec<WarpCost> = (0..classes.len() as u32)
        .map(|c| {
            WarpCost::of(
                classes.vector(c).iter().map(|&x| f64::from(x)),
                inp.lat,
                inp.cost,
            )
        })
        .collect();
    let mut members = Vec::with_capacity(32);
    let mut maxv = vec![0u32; cols];
    let mut durations = Vec::with_capacity(nblocks);
    let mut blocks: Vec<(f64, WarpCost)> = Vec::with_capacity(nblocks);
    let mut sectors = 0.0;
    for b in 0..nblocks {
        let (b0, b1) = (b * tpb, ((b + 1) * tpb).min(n));
        let mut path: f64 = 0.0;
        let mut tot = WarpCost::default();
        let mut w0 = b0;
        while w0 < b1 {
            let w1 = (w0 + 32).min(b1);
            warp_members(classes, inp.order, w0..w1, &mut members);
            let w = if members.len() == 1 {
                per_class[members[0].0 as usize]
            } else {
                maxv.iter_mut().for_each(|x| *x = 0);
                for &(c, _) in &members {
                    for (m, &v) in maxv.iter_mut().zip(classes.vector(c)) {
                        *m = (*m).max(v);
                    }
                }
                WarpCost::of(maxv.iter().map(|&x| f64::from(x)), inp.lat, inp.cost)
            };
            path = path.max(w.path);
            tot.issue += w.issue;
            for (a, b) in tot.units.iter_mut().zip(&w.units) {
                *a += b;
            }
            tot.sectors += w.sectors;
            w0 = w1;
        }
        sectors += tot.sectors;
        let mut d = path;
        d = d.max(kf * tot.issue / m.issue_per_sm);
        for (&x, &rate) in tot.units.iter().zip(&m.unit_per_sm) {
            d = d.max(kf * x / rate);
        }
        d = d.max(kf * tot.sectors / m.l1_sectors_per_sm);
        durations.push(d);
        blocks.push((path, tot));
    }
    // per SM: its blocks' latency ends and throughput sums
    let placed = dispatch(&durations, sms, per_sm);
    let mut per_sm_end = vec![0.0f64; sms as usize];
    let mut per_sm_sum = vec![WarpCost::default(); sms as usize];
    for (&(sm, start), (path, tot)) in placed.iter().zip(&blocks) {
        let sm = sm as usize;
        per_sm_end[sm] = per_sm_end[sm].max(start + path);
        let acc = &mut per_sm_sum[sm];
        acc.issue += tot.issue;
        for (a, b) in acc.units.iter_mut().zip(&tot.units) {
            *a += b;
        }
        acc.sectors += tot.sectors;
    }
    let mut compute = 0.0;
    let mut compute_bound = Bound::Latency;
    for (end, sum) in per_sm_end.iter().zip(&per_sm_sum) {
        let mut consider = |t: f64, why: Bound| {
            if t > compute {
                compute = t;
                compute_bound = why;
            }
        };
        consider(*end, Bound::Latency);
        consider(sum.issue / m.issue_per_sm, Bound::Issue);
        for (u, (&x, &rate)) in Unit::ALL.iter().zip(sum.units.iter().zip(&m.unit_per_sm)) {
            consider(x / rate, Bound::Unit(*u));
        }
        consider(sum.sectors / m.l1_sectors_per_sm, Bound::L1);
    }
    let l2 = sectors / m.l2_sectors_per_clk;
    let dram = if inp.buffer_bytes > m.l2_bytes {
        inp.buffer_bytes / 32.0 / m.dram_sectors_per_clk
    } else {
        0.0
    };
    let (memory, memory_bound) = if dram > l2 {
        (dram, Bound::Dram)
    } else {
        (l2, Bound::L2)
    };
    let us = |x: f64| x * inp.clock_mhz;
    let launch = us(m.empty_kernel_us(1, inp.threads_per_block));
    let dispatch = us(m.empty_kernel_us(nblocks as u64, inp.threads_per_block));
    let (work, work_bound) = if memory > compute {
        (memory, memory_bound)
    } else {
        (compute, compute_bound)
    };
    let (cycles, bound) = if dispatch > launch + work {
        (dispatch, Bound::Dispatch)
    } else {
        (launch + work, work_bound)
    };
    H100Estimate {
        cycles,
        bound,
        compute,
        memory,
        launch,
        dispatch,
        blocks_sharing_sm: k,
        sectors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round numbers: issue 4/clk, every unit 1/clk, L1 4 sectors/clk/SM, L2 10 sectors/clk,
    /// DRAM 5 sectors/clk, a 1000-byte L2; an empty kernel costs 1 µs per block beyond the first
    /// (blocks 1 → 0 µs, 1001 → 1000 µs) at 1 MHz: 1 cycle per block.
    fn machine() -> H100Machine {
        let mut t = String::from("issue_per_sm\t4\n");
        for u in Unit::ALL {
            t.push_str(&format!("{}_per_sm\t1\tx\n", u.name()));
        }
        t.push_str("l1_sectors_per_sm\t4\nl2_sectors_per_clk\t10\ndram_sectors_per_clk\t5\nl2_bytes\t1000\n");
        H100Machine::parse(
            &t,
            "blocks\tthreads\tgraph_us\n1\t1024\t0\n1001\t1024\t1000\n",
        )
        .unwrap()
    }

    fn cost(issue: f64, unit: Option<Unit>, sectors: f64) -> ColumnCost {
        let mut c = ColumnCost {
            issue,
            sectors,
            ..ColumnCost::default()
        };
        if let Some(u) = unit {
            c.units[u as usize] = issue;
        }
        c
    }

    fn run(
        counts: &[u32],
        lat: &[f64],
        cost: &[ColumnCost],
        tpb: u32,
        sms: u32,
        per_sm: u32,
        bytes: f64,
    ) -> H100Estimate {
        let classes = Classes::new(counts, lat.len(), lat);
        estimate(
            &LaunchInput {
                classes: &classes,
                lat,
                cost,
                threads_per_block: tpb,
                order: None,
                sms,
                blocks_per_sm: per_sm,
                buffer_bytes: bytes,
                clock_mhz: 1.0,
            },
            &machine(),
        )
    }

    #[test]
    fn one_warp_is_bound_by_its_latency_path() {
        // 32 threads, one column run 3 times: path 3 × 100; issue 3 × 2 / 4.
        let e = run(&[3; 32], &[100.0], &[cost(2.0, None, 0.0)], 32, 1, 1, 0.0);
        assert_eq!(e.compute, 300.0);
        assert_eq!(e.bound, Bound::Latency);
        assert_eq!(e.cycles, 300.0);
    }

    #[test]
    fn many_warps_are_bound_by_issue() {
        // one block of 1024 threads (32 warps), each warp issues 10 × 2 = 20: 32 × 20 / 4 = 160
        // > the path 2 × 5.
        let e = run(
            &[2; 1024],
            &[5.0],
            &[cost(10.0, None, 0.0)],
            1024,
            1,
            1,
            0.0,
        );
        assert_eq!(e.compute, 160.0);
        assert_eq!(e.bound, Bound::Issue);
        // two such blocks on one SM at once: each takes 2 × 160
        let e = run(
            &[2; 2048],
            &[5.0],
            &[cost(10.0, None, 0.0)],
            1024,
            1,
            2,
            0.0,
        );
        assert_eq!(e.blocks_sharing_sm, 2);
        assert_eq!(e.compute, 320.0);
        // ... or one after the other on two slots of one SM: the same
        let e1 = run(
            &[2; 2048],
            &[5.0],
            &[cost(10.0, None, 0.0)],
            1024,
            1,
            1,
            0.0,
        );
        assert_eq!(e1.compute, 320.0);
    }

    #[test]
    fn a_slow_unit_binds_before_issue() {
        // MUFU at 1 per clock here: 32 warps × 10 MUFU = 320 > issue 320 / 4
        let e = run(
            &[1; 1024],
            &[5.0],
            &[cost(10.0, Some(Unit::Mufu), 0.0)],
            1024,
            1,
            1,
            0.0,
        );
        assert_eq!(e.compute, 320.0);
        assert_eq!(e.bound, Bound::Unit(Unit::Mufu));
    }

    #[test]
    fn memory_is_charged_by_sectors_and_coalescing_shows() {
        // 32 warps, one access each: 4 sectors per request (coalesced) or 32 (scattered)
        let co = run(&[1; 1024], &[1.0], &[cost(1.0, None, 4.0)], 1024, 1, 1, 0.0);
        assert_eq!(co.sectors, 128.0);
        assert_eq!(co.memory, 12.8); // 128 / 10 per clock from the L2
        let sc = run(
            &[1; 1024],
            &[1.0],
            &[cost(1.0, None, 32.0)],
            1024,
            1,
            1,
            0.0,
        );
        assert_eq!(sc.memory, 102.4);
        // on one SM its L1 (4 sectors per clock) binds first: 1024 / 4 = 256
        assert_eq!((sc.compute, sc.bound, sc.cycles), (256.0, Bound::L1, 256.0));
        // 64 such blocks on 64 SMs share the L2: 65536 / 10
        let many = run(
            &vec![1; 64 * 1024],
            &[1.0],
            &[cost(1.0, None, 32.0)],
            1024,
            64,
            1,
            0.0,
        );
        assert_eq!((many.compute, many.memory), (256.0, 6553.6));
        assert_eq!(many.bound, Bound::L2);
        // data beyond the L2 come from DRAM: 32000 bytes / 32 / 5
        let dr = run(&[1; 32], &[1.0], &[cost(1.0, None, 1.0)], 32, 1, 1, 32000.0);
        assert_eq!((dr.memory, dr.bound), (200.0, Bound::Dram));
    }

    #[test]
    fn a_divergent_warp_pays_the_union_of_its_paths() {
        // two columns of latency 10 and 20; half the warp runs one, half the other: the warp
        // issues both (max vector [1, 1]), its path is 30.
        let mut counts = Vec::new();
        for t in 0..32 {
            counts.extend_from_slice(if t % 2 == 0 { &[1, 0] } else { &[0, 1] });
        }
        let e = run(
            &counts,
            &[10.0, 20.0],
            &[cost(1.0, None, 0.0), cost(1.0, None, 0.0)],
            32,
            1,
            1,
            0.0,
        );
        assert_eq!(e.compute, 30.0);
    }

    #[test]
    fn a_grid_of_empty_blocks_costs_its_dispatch() {
        // 2001 blocks of one trivial warp: dispatch (interpolated/extrapolated) 2000 cycles
        let e = run(
            &vec![1; 2001 * 32],
            &[1.0],
            &[cost(1.0, None, 0.0)],
            32,
            1000,
            1,
            0.0,
        );
        assert_eq!(e.dispatch, 2000.0);
        assert_eq!(e.bound, Bound::Dispatch);
        let m = machine();
        assert_eq!(m.empty_kernel_us(501, 256), 500.0);
        assert_eq!(m.empty_kernel_us(1, 4096), 0.0);
    }

    #[test]
    fn the_committed_tables_parse_and_bad_ones_are_refused() {
        let m = H100Machine::h100();
        assert_eq!(m.issue_per_sm, 4.0);
        assert!(m.empty_kernel_us(512, 256) > 0.5 && m.empty_kernel_us(512, 256) < 5.0);
        let e = H100Machine::parse("issue_per_sm\tfast\n", "1\t32\t1\n").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        assert!(H100Machine::parse(H100_MACHINE_TSV, "").is_err());
        assert_eq!(issue_slots("fp32_div"), 13.0);
        assert_eq!(Unit::of_class("sfu_ex2"), Some(Unit::Mufu));
        assert_eq!(Unit::of_class("bra"), None);
    }
}
