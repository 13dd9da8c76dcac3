//! **warpscope's own H100 throughput estimate** — an extension, not one of the paper's metrics.
//!
//! The paper's metrics add up latencies as if nothing overlapped. An H100 SM holds up to 64
//! warps on 4 sub-partition schedulers (one warp instruction per clock each) and hides one
//! warp's latency behind the others'. This estimate asks, per basic block, whether the warps of
//! a scheduler are bound by one warp's dependent chain or by their issue and unit demand, from
//! the same BBVs, the same latency table, the profile's sectors per request, and machine facts
//! ([`H100_MACHINE_TSV`], [`H100_OVERHEAD_TSV`]) that were measured or published, not fitted to
//! the kernels the estimate is judged on:
//!
//! * per basic block: its dependent-chain time for one warp ([`chain_cycles`]: in-order issue,
//!   a scoreboard on registers, the table's latencies, global loads at the L2's or, from a
//!   buffer that stays in the L1, at the L1's), its issue slots, unit demands, global sectors
//!   (loads from the L2, loads the L1 serves, stores) and local sectors ([`column_costs`]);
//!   then scaled to the warp-level executions SIMT makes, with `BSSY`/`BSYNC` and the cost of
//!   divergent visits added ([`simt_refine`]);
//! * per scheduler (warp `j` of a block on sub-partition `j mod 4`), the warps that run
//!   together are simulated as a fluid ([`simulate`]): each at its chain's speed through its
//!   blocks, all slowed alike when their issue or unit demand exceeds the scheduler's rates;
//! * the blocks are dispatched dynamically to `SMs × occupancy` slots; each SM runs its blocks
//!   in waves of the blocks sharing it, and takes the sum of its waves or its issue, unit and L1
//!   sums if larger; global memory bounds the launch by its load sectors from the L2 over the
//!   L2 bandwidth plus its store sectors at the measured store rate, and by its buffers' bytes
//!   over the DRAM bandwidth when they do not fit in the L2;
//! * `time = max(empty(grid), empty(1 block) + work)`: `empty(n)` is the measured time of an
//!   empty kernel of `n` blocks of the same size (launch, block dispatch and drain), so a grid
//!   whose blocks do little costs what dispatching it costs.
//!
//! (One estimate read top to bottom: the machine facts, the per-block costs and the
//! simulation. The unit table — [`Unit`] and what ptxas makes of each PTX instruction,
//! [`lowered`] — is in `throughput/lowering.rs`; the unit tests, which exercise the private
//! simulation, are in `throughput/tests.rs`. The per-block chain costs and the fluid
//! simulation of an SM's waves stay together: they are read together when a rule changes.)

use serde::Serialize;
use std::collections::HashMap;
use warpscope_ir::Module;
use warpscope_profile::KernelProfile;
use warpscope_profile::bbv::LaunchBbv;

use warpscope_ir::effects::{for_each_def, for_each_use};
use warpscope_ir::{Block, FuncId, Function, Inst, InstData, Reg};
use warpscope_ptx::{Opcode, StateSpace};

use crate::estimate::{Classes, dispatch, warp_members};
use crate::latency::{LatencyTable, class_of};

mod lowering;
pub mod sass_counts;
pub mod sass_deps;
pub(crate) use lowering::balance_alu_imad;
pub use lowering::{Unit, either_alu_or_imad, issue_slots, lowered};
pub use sass_counts::SassCounts;

/// The machine facts (`name<TAB>value<TAB>source`).
pub const H100_MACHINE_TSV: &str = include_str!("../../../validation/h100/model/h100_machine.tsv");
/// Empty-kernel time per grid (`blocks<TAB>threads<TAB>graph_us<TAB>plain_us`), measured by
/// `scripts/h100/model_calib.py`.
pub const H100_OVERHEAD_TSV: &str =
    include_str!("../../../validation/h100/model/model_overhead.tsv");

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
    /// Requests per clock per SM of global loads the L1 serves (fifth version,
    /// `l1_requests_per_sm`; 0 when absent: no such limit), and the latency each further cycle
    /// of the L1's sector rate a request takes (each 4 sectors beyond the first 4) adds to an
    /// L1 hit in a dependent chain (`l1_wavefront_latency`).
    pub l1_requests_per_sm: f64,
    pub l1_wavefront_latency: f64,
    /// Sixth version: 128-byte lines per clock per SM of global loads the L1 serves
    /// (`l1_lines_per_sm`; 0 when absent: the fifth version's sectors at `l1_sectors_per_sm`),
    /// and the latency each further line of a request adds to an L1 hit in a dependent chain
    /// (`l1_line_latency`, replacing `l1_wavefront_latency` when present).
    pub l1_lines_per_sm: f64,
    pub l1_line_latency: f64,
    /// Global sectors per clock, whole GPU, from the L2 and from DRAM.
    pub l2_sectors_per_clk: f64,
    pub dram_sectors_per_clk: f64,
    /// L2 capacity (bytes).
    pub l2_bytes: f64,
    /// Local-memory sectors per clock per SM against the local bytes its resident threads hold
    /// (rows `local_sectors_per_sm@BYTES`, ascending); empty: the L1's rate.
    pub local_curve: Vec<(f64, f64)>,
    /// Global-store sectors per clock, whole GPU, against the store's sectors per request
    /// (rows `store_sectors_per_clk@SECTORS`, ascending); empty: the L2's load rate.
    pub store_curve: Vec<(f64, f64)>,
    /// Bytes of the L1 (shared memory included) per SM (`l1_bytes`; 0: no global data is
    /// taken to stay in the L1).
    pub l1_bytes: f64,
    /// Issue cycles a warp loses at each divergent visit of a conditional branch, beyond the
    /// instructions it issues (`divergent_branch_issue`; 0 when absent).
    pub divergent_branch_issue: f64,
    overhead: Vec<OverheadRow>,
}

/// `curve` (ascending `x`) at `x`: linear between its points, flat beyond its ends; `None` when
/// empty.
fn interpolate(c: &[(f64, f64)], x: f64) -> Option<f64> {
    Some(match c.iter().position(|&(b, _)| b >= x) {
        None => c.last()?.1,
        Some(0) => c[0].1,
        Some(i) => {
            let ((b0, r0), (b1, r1)) = (c[i - 1], c[i]);
            r0 + (x - b0) / (b1 - b0).max(1e-9) * (r1 - r0)
        }
    })
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
        let curve = |prefix: &str| -> Result<Vec<(f64, f64)>, String> {
            let mut c = Vec::new();
            for (k, &x) in &v {
                if let Some(b) = k.strip_prefix(prefix) {
                    let b: f64 = b
                        .parse()
                        .map_err(|_| format!("machine table: `{k}`: expected `{prefix}NUMBER`"))?;
                    c.push((b, x));
                }
            }
            c.sort_by(|a, b| a.0.total_cmp(&b.0));
            Ok(c)
        };
        let local_curve = curve("local_sectors_per_sm@")?;
        let store_curve = curve("store_sectors_per_clk@")?;
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
            l1_requests_per_sm: v.get("l1_requests_per_sm").copied().unwrap_or(0.0),
            l1_wavefront_latency: v.get("l1_wavefront_latency").copied().unwrap_or(0.0),
            l1_lines_per_sm: v.get("l1_lines_per_sm").copied().unwrap_or(0.0),
            l1_line_latency: v.get("l1_line_latency").copied().unwrap_or(0.0),
            l2_sectors_per_clk: get("l2_sectors_per_clk")?,
            dram_sectors_per_clk: get("dram_sectors_per_clk")?,
            l2_bytes: get("l2_bytes")?,
            local_curve,
            store_curve,
            l1_bytes: v.get("l1_bytes").copied().unwrap_or(0.0),
            divergent_branch_issue: v.get("divergent_branch_issue").copied().unwrap_or(0.0),
            overhead: over,
        })
    }

    /// Local-memory sectors per clock an SM serves when its resident threads hold `bytes` of
    /// local memory: the measured curve, linear between its points, flat beyond its ends (the
    /// L1's rate when there is no curve).
    pub fn local_sectors_per_sm(&self, bytes: f64) -> f64 {
        interpolate(&self.local_curve, bytes).unwrap_or(self.l1_sectors_per_sm)
    }

    /// Global-store sectors per clock the whole GPU writes when each store request touches
    /// `per_request` sectors: the measured curve, linear between its points, flat beyond its
    /// ends (the L2's load rate when there is no curve).
    pub fn store_sectors_per_clk(&self, per_request: f64) -> f64 {
        interpolate(&self.store_curve, per_request).unwrap_or(self.l2_sectors_per_clk)
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

/// What one execution of a basic block costs a warp.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnCost {
    /// Warp instructions issued.
    pub issue: f64,
    /// Of which on each [`Unit`].
    pub units: [f64; Unit::COUNT],
    /// Global-memory sectors (the profile's sectors per request of each access in the block):
    /// all of them pass the L1.
    pub sectors: f64,
    /// Of which loads served by the L1 (their buffer stays there: no L2 traffic).
    pub l1_only: f64,
    /// Clocks of the SM's L1 the block's global accesses take: each access's sectors at the
    /// L1's sector rate, and for a load the L1 serves, at least one request at the L1's
    /// request rate (fifth version).
    pub l1_clk: f64,
    /// Of which stores, and the clocks of the whole GPU's store bandwidth they take (each at
    /// the measured rate for its sectors per request).
    pub store_sectors: f64,
    pub store_clk: f64,
    /// Local-memory sectors through the L1 (a warp's access of `n` bytes per thread to the
    /// interleaved local space touches `n` sectors).
    pub local_sectors: f64,
    /// The warp's dependent-chain time through the block on its own ([`chain_cycles`]).
    pub chain: f64,
}

/// The time one warp, alone on its scheduler, needs to run basic block `b` once: its
/// instructions issue in order, each taking its issue slots ([`issue_slots`]); an instruction
/// issues when the registers it reads are ready (scoreboard), and a result is ready its latency
/// after issue (the latency table; a global load's `global_load` cycles, where the data are;
/// parameter loads, folded into constant operands by ptxas, cost nothing). The block ends when
/// its last instruction has issued, every register it writes is ready and, if it ends in a
/// branch, the branch has resolved: values flowing to the next block are waited for at the
/// block's end (a conservative reading for values used late).
pub fn chain_cycles(func: &Function, b: Block, table: &LatencyTable, global_load: f64) -> f64 {
    chain_cycles_with(func, b, table, global_load, &|_| None)
}

/// [`chain_cycles`], with the global loads `in_l1` gives a latency for served by the L1 at
/// that latency instead of `global_load`.
pub fn chain_cycles_with(
    func: &Function,
    b: Block,
    table: &LatencyTable,
    global_load: f64,
    in_l1: &dyn Fn(Inst) -> Option<f64>,
) -> f64 {
    let mut ready: HashMap<Reg, f64> = HashMap::new();
    let mut t = 0.0f64;
    let mut end = 0.0f64;
    for &i in &func.blocks[b].insts {
        let inst = &func.insts[i];
        let class = class_of(inst);
        let slots = lowered(inst).0;
        let lat = match class {
            _ if slots == 0.0 => 0.0,
            "ld_global" => in_l1(i).unwrap_or(global_load),
            c => table.get(c),
        };
        let mut start = t;
        for_each_use(inst, |r| {
            if let Some(&x) = ready.get(&r) {
                start = start.max(x);
            }
        });
        let mut defines = false;
        for_each_def(inst, |r| {
            defines = true;
            ready.insert(r, start + lat);
        });
        t = start + slots;
        end = end.max(t);
        if defines || class == "bra" {
            end = end.max(start + lat);
        }
    }
    end
}

/// Bytes per thread of a local-memory access (`None` for anything else).
fn local_bytes(i: &InstData) -> Option<f64> {
    let local = matches!(i.op, Opcode::Ld | Opcode::Ldu | Opcode::St)
        && i.mods.space == Some(StateSpace::Local);
    local.then(|| {
        let size = i.mods.ty.map_or(4, |t| t.size_bytes());
        f64::from(size * u32::from(i.mods.vec.max(1)))
    })
}

pub use crate::footprint::L1Loads;

/// The [`ColumnCost`] of each BBV column of a launch; `kernel` is the kernel's profile (its
/// instructions' sectors per request), `None` when there is none (no global sectors then);
/// `global_load` is the latency of a global load in a dependent chain (where the launch's data
/// are: the L2's, or DRAM's when its buffers do not fit in the L2); the loads of `l1` are
/// served by the L1 (its latency in chains, no L2 traffic); stores take the machine's measured
/// store rate for their sectors per request.
pub fn column_costs(
    module: &Module,
    l: &LaunchBbv,
    kernel: Option<&KernelProfile>,
    table: &LatencyTable,
    global_load: f64,
    l1: &L1Loads,
    m: &H100Machine,
) -> Vec<ColumnCost> {
    let mut spr: HashMap<(&str, u32), f64> = HashMap::new();
    // lines and lanes' bytes (in sectors) per request of each global access (sixth version)
    let mut lpr: HashMap<(&str, u32), (f64, f64)> = HashMap::new();

    let mut stores: std::collections::HashSet<(&str, u32)> = std::collections::HashSet::new();
    let mut local_spr: HashMap<(&str, u32), f64> = HashMap::new();
    if let Some(k) = kernel {
        for i in &k.instructions {
            let (g, c) = (&i.counters.global, &i.counters);
            let key = (i.function.as_str(), i.inst);
            if g.requests > 0 {
                spr.insert(key, g.sectors as f64 / g.requests as f64);
                let r = g.requests as f64;
                lpr.insert(key, (g.lines as f64 / r, g.lane_sectors as f64 / r));

                if i.access == Some(warpscope_profile::model::Access::Store) {
                    stores.insert(key);
                }
            }
            if c.local_requests > 0 && c.local_sectors > 0 {
                local_spr.insert(key, c.local_sectors as f64 / c.local_requests as f64);
            }
        }
    }
    l.columns
        .iter()
        .map(|&(f, b, _)| {
            use cranelift_entity::EntityRef;
            let func = &module.funcs[f];
            // an L1 hit in a chain: the table's latency, plus the measured latency of each
            // further L1 cycle its sectors take at 4 per clock (fifth version)
            let l1_hit = |i: Inst| {
                l1.has(f, i).then(|| {
                    let key = (func.name.as_str(), i.index() as u32);
                    if m.l1_lines_per_sm > 0.0 {
                        // sixth version: each further line of the request (measured without
                        // bank conflicts, which the profile does not count)
                        let lines = lpr.get(&key).map_or(1.0, |x| x.0).max(1.0);
                        return table.get("ld_global") + m.l1_line_latency * (lines - 1.0);
                    }
                    let s = spr.get(&key).copied().unwrap_or(1.0);
                    let waves = (s / m.l1_sectors_per_sm).ceil().max(1.0);
                    table.get("ld_global") + m.l1_wavefront_latency * (waves - 1.0)
                })
            };
            let mut c = ColumnCost {
                chain: chain_cycles_with(func, b, table, global_load, &l1_hit),
                ..ColumnCost::default()
            };
            let mut flexible = 0.0;
            for &i in &func.blocks[b].insts {
                let inst = &func.insts[i];
                let (slots, units) = lowered(inst);
                c.issue += slots;
                for (a, u) in c.units.iter_mut().zip(units) {
                    *a += u;
                }
                if either_alu_or_imad(inst) {
                    flexible += 1.0;
                }
                let key = (func.name.as_str(), i.index() as u32);
                let s = spr.get(&key).copied().unwrap_or(0.0);
                c.sectors += s;
                c.l1_clk += s / m.l1_sectors_per_sm;
                if stores.contains(&key) {
                    c.store_sectors += s;
                    c.store_clk += s / m.store_sectors_per_clk(s);
                } else if l1.has(f, i) {
                    c.l1_only += s;
                    let mut clk = s / m.l1_sectors_per_sm;
                    if m.l1_lines_per_sm > 0.0 && s > 0.0 {
                        // sixth version: the L1 returns 128 bytes of the lanes' data per clock,
                        // its lines at their measured rate, whatever the sectors
                        let (lines, lane_sectors) = lpr.get(&key).copied().unwrap_or((1.0, s));
                        clk = (lane_sectors / m.l1_sectors_per_sm).max(lines / m.l1_lines_per_sm);
                    }
                    if m.l1_requests_per_sm > 0.0 && s > 0.0 {
                        clk = clk.max(1.0 / m.l1_requests_per_sm);
                    }
                    c.l1_clk += clk - s / m.l1_sectors_per_sm;
                }
                if let Some(bytes) = local_bytes(inst) {
                    // the profile's sectors per request, else every lane at the same offset
                    c.local_sectors += local_spr.get(&key).copied().unwrap_or(bytes);
                }
            }
            balance_alu_imad(&mut c.units, flexible);
            c
        })
        .collect()
}

/// `Σ_w n_w[b]` of a launch: each column's executions summed over warps, a warp running a
/// block as often as its most frequent thread (the paper's max), warps of 32 consecutive
/// threads of a block.
pub fn max_executions(classes: &Classes, threads_per_block: u32) -> Vec<f64> {
    let n = classes.threads();
    let tpb = (threads_per_block as usize).max(1);
    let mut sum = vec![0.0; classes.cols];
    let mut scratch: Scratch = (Vec::with_capacity(32), vec![0u32; classes.cols]);
    for b in 0..n.div_ceil(tpb) {
        let span = (b * tpb, ((b + 1) * tpb).min(n));
        for_each_warp(classes, None, span, 0, &mut scratch, |_, v| {
            for (s, &x) in sum.iter_mut().zip(v) {
                *s += f64::from(x);
            }
        });
    }
    sum
}

/// The fourth version's SIMT rules, applied to a kernel's column costs (`cost`, one per column
/// of `l`), from its profile (warp-level counts, summed over the kernel's profiled launches)
/// and `max_exec` (the [`max_executions`] of the same launches, summed):
///
/// * **a warp runs a block as often as SIMT execution makes it**: where the emulator's count of
///   warp executions of a block (its first instruction's warp-instruction count) exceeds
///   `Σ_w n_w[b]`, every cost of the block is scaled by the ratio (a loop whose body holds an
///   if/else runs both sides in every iteration in which the warp's lanes disagree, not
///   `max_t` of each side's count; nested loops run `Σ_outer max_t`, not `max_t Σ_outer`);
/// * **`BSSY`/`BSYNC`**: a conditional branch that diverged at least once in the profile, and
///   whose region (the blocks up to its immediate post-dominator) holds a loop or more than
///   [`IF_CONVERTED_MAX`] instructions, is a divergent region in ptxas's code, with a `BSSY`
///   at its entry and a `BSYNC` at its reconvergence point: two issue slots per execution of
///   that block (smaller regions ptxas predicates: no branch, nothing charged);
/// * **a divergent visit costs issue cycles**: each divergent visit of such a branch adds the
///   machine's `divergent_branch_issue` to the branch's block.
///
/// Thirteenth version (after the eleventh held-out test): where the SASS is known,
/// `kept_in_sass(f, b)` says whether ptxas kept a branch at block `b`'s conditional PTX branch;
/// `Some(false)` (it predicated the region, whatever its size) charges neither `BSSY`/`BSYNC`
/// nor divergent visits; `None` keeps the size rule above.
pub fn simt_refine(
    module: &Module,
    l: &LaunchBbv,
    kernel: Option<&KernelProfile>,
    max_exec: &[f64],
    m: &H100Machine,
    kept_in_sass: &dyn Fn(FuncId, Block) -> Option<bool>,
    cost: &mut [ColumnCost],
) {
    use cranelift_entity::EntityRef;
    let Some(k) = kernel else { return };
    let mut counts: HashMap<(&str, u32), &warpscope_profile::model::Counters> = HashMap::new();
    for i in &k.instructions {
        counts.insert((i.function.as_str(), i.inst), &i.counters);
    }
    let col_of: HashMap<(FuncId, Block), usize> = l
        .columns
        .iter()
        .enumerate()
        .map(|(j, &(f, b, _))| ((f, b), j))
        .collect();
    let warp_execs = |f: FuncId, b: Block| -> f64 {
        let func = &module.funcs[f];
        func.blocks[b]
            .insts
            .first()
            .and_then(|i| counts.get(&(func.name.as_str(), i.index() as u32)))
            .map_or(0.0, |c| c.instructions as f64)
    };
    let mut ratio = vec![1.0; cost.len()];
    for (j, &(f, b, _)) in l.columns.iter().enumerate() {
        let (w, mx) = (warp_execs(f, b), max_exec.get(j).copied().unwrap_or(0.0));
        if mx > 0.0 && w > mx {
            ratio[j] = w / mx;
        }
    }
    for (c, &r) in cost.iter_mut().zip(&ratio) {
        if r != 1.0 {
            c.issue *= r;
            c.units.iter_mut().for_each(|u| *u *= r);
            c.sectors *= r;
            c.l1_only *= r;
            c.l1_clk *= r;
            c.store_sectors *= r;
            c.store_clk *= r;
            c.local_sectors *= r;
            c.chain *= r;
        }
    }
    let mut analyses: HashMap<FuncId, warpscope_ir::FunctionAnalyses> = HashMap::new();
    for (j, &(f, b, _)) in l.columns.iter().enumerate() {
        let func = &module.funcs[f];
        let Some(br) = warpscope_ir::control::cond_branch(func, b) else {
            continue;
        };
        let data = &func.insts[br.inst];
        if data.op != Opcode::Bra || data.mods.flags.contains(warpscope_ptx::Flags::UNI) {
            continue;
        }
        let Some(c) = counts.get(&(func.name.as_str(), br.inst.index() as u32)) else {
            continue;
        };
        if c.divergent_branches == 0 || kept_in_sass(f, b) == Some(false) {
            continue;
        }
        let fa = analyses
            .entry(f)
            .or_insert_with(|| warpscope_ir::FunctionAnalyses::compute(func));
        let (size, looped) = region_size(func, fa, b);
        if !looped && size <= IF_CONVERTED_MAX {
            continue;
        }
        let mx = max_exec.get(j).copied().unwrap_or(0.0);
        if mx > 0.0 {
            let extra = m.divergent_branch_issue * c.divergent_branches as f64 / mx;
            cost[j].issue += extra;
            cost[j].chain += extra;
        }
        if let Some(&p) = fa.postdom.ipdom(b).and_then(|p| col_of.get(&(f, p))) {
            let (w, mx) = (warp_execs(f, l.columns[p].1), max_exec[p]);
            if mx > 0.0 {
                cost[p].issue += 2.0 * w / mx;
                cost[p].chain += 2.0 * w / mx;
            }
        }
    }
}

/// The largest region (instructions issued, as lowered, between a branch and its
/// reconvergence point) that ptxas turns into predicated code instead of a branch: no `BSSY`,
/// no divergence (read off the SASS of the corpus's kernels, `ptxas -O3 -arch=sm_90`).
pub const IF_CONVERTED_MAX: f64 = 6.0;

/// The instructions (lowered) of the blocks between the branch ending `b` and its immediate
/// post-dominator, and whether the region holds a loop (a block reached twice, or `b` again).
fn region_size(func: &Function, fa: &warpscope_ir::FunctionAnalyses, b: Block) -> (f64, bool) {
    let stop = fa.postdom.ipdom(b);
    let mut seen = std::collections::HashSet::new();
    let mut work: Vec<Block> = fa.cfg.succs(b).to_vec();
    let (mut size, mut looped) = (0.0, false);
    while let Some(x) = work.pop() {
        if Some(x) == stop {
            continue;
        }
        if x == b {
            looped = true;
            continue;
        }
        if !seen.insert(x) {
            continue;
        }
        if seen.len() > 64 {
            return (f64::INFINITY, true);
        }
        size += func.blocks[x]
            .insts
            .iter()
            .map(|&i| lowered(&func.insts[i]).0)
            .sum::<f64>();
        for &s in fa.cfg.succs(x) {
            if fa.domtree.dominates(s, x) {
                looped = true;
            }
            work.push(s);
        }
    }
    (size, looped)
}

/// What bounds the estimate (serialized as [`Bound::describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Warps' dependent chains (latency a scheduler has too few warps to hide).
    Latency,
    /// The schedulers' issue rate.
    Issue,
    /// An execution unit's rate.
    Unit(Unit),
    /// The L1's sector rate.
    L1,
    /// Local-memory sectors at the rate measured for the resident threads' local bytes.
    Local,
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
            Bound::Latency => "dependency latency".into(),
            Bound::Issue => "issue rate".into(),
            Bound::Unit(u) => format!("{} throughput", u.name()),
            Bound::L1 => "L1 sectors".into(),
            Bound::Local => "local memory".into(),
            Bound::L2 => "L2 bandwidth".into(),
            Bound::Dram => "DRAM bandwidth".into(),
            Bound::Dispatch => "grid dispatch".into(),
        }
    }

    /// Index among the per-phase terms (latency, issue, the units).
    fn term(self) -> usize {
        match self {
            Bound::Latency => 0,
            Bound::Issue => 1,
            Bound::Unit(u) => 2 + u as usize,
            _ => 0,
        }
    }

    fn of_term(t: usize) -> Bound {
        match t {
            0 => Bound::Latency,
            1 => Bound::Issue,
            n => Bound::Unit(Unit::ALL[n - 2]),
        }
    }
}

/// The estimate of one launch (cycles at the latency table's clock).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct H100Estimate {
    /// The estimate: `max(dispatch, launch + max(compute, memory))`.
    pub cycles: f64,
    pub bound: Bound,
    /// The slowest SM: its blocks' phase times after their start, or its issue, unit or L1
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
#[derive(Clone, Copy)]
pub struct LaunchInput<'a> {
    pub classes: &'a Classes,
    pub cost: &'a [ColumnCost],
    pub threads_per_block: u32,
    /// `order[slot] = thread` (identity when `None`).
    pub order: Option<&'a [u32]>,
    pub sms: u32,
    pub blocks_per_sm: u32,
    /// Bytes of the buffers the launch is given (its largest possible footprint).
    pub buffer_bytes: f64,
    /// Local memory each thread holds (the kernel's `.local` variables).
    pub local_bytes_per_thread: f64,
    /// Sectors the L1-resident buffers cost the L2 when each SM first reads them.
    pub l1_cold_sectors: f64,
    /// SM clock (MHz) to turn the empty-kernel microseconds into cycles.
    pub clock_mhz: f64,
}

/// Sub-partitions (warp schedulers) per SM; warp `j` of a block runs on sub-partition `j mod 4`.
pub const SCHEDULERS: usize = 4;

/// Throughput totals of a thread block (or of an SM's blocks).
#[derive(Clone, Copy, Default)]
struct Totals {
    issue: f64,
    units: [f64; Unit::COUNT],
    /// Global sectors (L1 and L2).
    sectors: f64,
    /// Clocks of the L1 for global accesses ([`ColumnCost::l1_clk`]).
    l1: f64,
    /// Global load (and atomic) sectors from the L2.
    l2: f64,
    /// Global load sectors served by the L1 alone.
    l1_only: f64,
    /// Clocks of the GPU's store bandwidth.
    store_clk: f64,
    /// Local-memory sectors.
    local: f64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.issue += o.issue;
        for (a, b) in self.units.iter_mut().zip(&o.units) {
            *a += b;
        }
        self.sectors += o.sectors;
        self.l1 += o.l1;
        self.l2 += o.l2;
        self.l1_only += o.l1_only;
        self.store_clk += o.store_clk;
        self.local += o.local;
    }
}

/// What a set of warps asks of each scheduler, per column: the most executions of any one
/// warp (`n_w[b]`, its most frequent thread's count) and the executions summed over warps.
struct Load {
    cols: usize,
    maxn: Vec<u32>,
    sumn: Vec<u64>,
}

impl Load {
    fn new(cols: usize) -> Load {
        Load {
            cols,
            maxn: vec![0; SCHEDULERS * cols],
            sumn: vec![0; SCHEDULERS * cols],
        }
    }

    fn clear(&mut self) {
        self.maxn.iter_mut().for_each(|x| *x = 0);
        self.sumn.iter_mut().for_each(|x| *x = 0);
    }

    /// Adds the warps of thread slots `b0..b1`, warp `j` on scheduler `(first + j) mod 4`.
    fn add_block(
        &mut self,
        classes: &Classes,
        order: Option<&[u32]>,
        span: (usize, usize),
        first: usize,
        scratch: &mut Scratch,
    ) {
        let cols = self.cols;
        for_each_warp(classes, order, span, first, scratch, |s, v| {
            let (mx, sm) = (
                &mut self.maxn[s * cols..(s + 1) * cols],
                &mut self.sumn[s * cols..(s + 1) * cols],
            );
            for ((m, a), &x) in mx.iter_mut().zip(sm.iter_mut()).zip(v) {
                *m = (*m).max(x);
                *a += u64::from(x);
            }
        });
    }

    /// The throughput totals of the warps.
    fn totals(&self, cost: &[ColumnCost]) -> Totals {
        let mut tot = Totals::default();
        for s in 0..SCHEDULERS {
            for (&a, c) in self.sumn[s * self.cols..(s + 1) * self.cols]
                .iter()
                .zip(cost)
            {
                let a = a as f64;
                tot.issue += a * c.issue;
                for (t, u) in tot.units.iter_mut().zip(&c.units) {
                    *t += a * u;
                }
                tot.sectors += a * c.sectors;
                tot.l1 += a * c.l1_clk;
                tot.l2 += a * (c.sectors - c.l1_only - c.store_sectors).max(0.0);
                tot.store_clk += a * c.store_clk;
                tot.l1_only += a * c.l1_only;
                tot.local += a * c.local_sectors;
            }
        }
        tot
    }

    /// The slowest scheduler's phase sum, `g` times its throughput demand, and the time of each
    /// term (latency, issue, the units) in it.
    fn phases(&self, cost: &[ColumnCost], g: f64, r: &Rates) -> (f64, [f64; TERMS]) {
        let mut worst = (0.0f64, [0.0; TERMS]);
        for s in 0..SCHEDULERS {
            let range = s * self.cols..(s + 1) * self.cols;
            let mut by_term = [0.0f64; TERMS];
            let mut d = 0.0;
            for ((&x, &a), c) in self.maxn[range.clone()]
                .iter()
                .zip(&self.sumn[range])
                .zip(cost)
            {
                if a == 0 {
                    continue;
                }
                let a = g * a as f64;
                let mut phase = (f64::from(x) * c.chain, Bound::Latency);
                let issue = a * c.issue / r.issue;
                if issue > phase.0 {
                    phase = (issue, Bound::Issue);
                }
                for ((&u, &rate), unit) in c.units.iter().zip(&r.units).zip(Unit::ALL) {
                    let t = a * u / rate;
                    if t > phase.0 {
                        phase = (t, Bound::Unit(unit));
                    }
                }
                d += phase.0;
                by_term[phase.1.term()] += phase.0;
            }
            if d > worst.0 {
                worst = (d, by_term);
            }
        }
        worst
    }
}

/// Scratch space for a warp's members and its max vector.
type Scratch = (Vec<(u32, u32)>, Vec<u32>);

/// Calls `f(scheduler, vector)` for each warp of thread slots `b0..b1` (its threads' max
/// vector), warp `j` on scheduler `(first + j) mod 4`.
fn for_each_warp(
    classes: &Classes,
    order: Option<&[u32]>,
    (b0, b1): (usize, usize),
    first: usize,
    scratch: &mut Scratch,
    mut f: impl FnMut(usize, &[u32]),
) {
    let (members, maxv) = scratch;
    let (mut w0, mut j) = (b0, first);
    while w0 < b1 {
        let w1 = (w0 + 32).min(b1);
        warp_members(classes, order, w0..w1, members);
        if members.len() == 1 {
            f(j % SCHEDULERS, classes.vector(members[0].0));
        } else {
            maxv.iter_mut().for_each(|x| *x = 0);
            for &(c, _) in members.iter() {
                for (m, &v) in maxv.iter_mut().zip(classes.vector(c)) {
                    *m = (*m).max(v);
                }
            }
            f(j % SCHEDULERS, maxv);
        }
        w0 = w1;
        j += 1;
    }
}

/// One scheduler running a set of warps that start together (`vectors`: their max vectors,
/// `cols` each), as a fluid: each warp goes through the basic blocks it runs, in column order,
/// running `b` `n_w[b]` times; on its own a warp runs `b` once per `chain[b]` cycles, and when the
/// warps' issue or unit demand at those speeds exceeds the scheduler's rates, all are slowed by
/// the same factor, so that the busiest resource runs at its rate. Warps on different basic
/// blocks at the same time (the two sides of a warp-uniform branch) overlap. Returns the time
/// the last warp ends and the time spent bound by each term (latency, issue, the units).
fn simulate(vectors: &[u32], cols: usize, cost: &[ColumnCost], r: &Rates) -> (f64, [f64; TERMS]) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    // All running warps advance their chains at the same rate `lambda` (latency cycles per
    // cycle), so progress is one clock `p`: a warp that enters block `b` at `p0` leaves it at
    // `p0 + n_w[b] × chain[b]`. A heap of those ends gives the next event; the demand sums
    // change only when a warp changes block.
    let nw = vectors.len() / cols.max(1);
    let next = |w: usize, from: usize| -> usize {
        let v = &vectors[w * cols..(w + 1) * cols];
        (from..cols)
            .find(|&b| v[b] > 0 && cost[b].chain > 0.0)
            .unwrap_or(cols)
    };
    let mut issue = 0.0f64;
    let mut units = [0.0f64; Unit::COUNT];
    let demand = |b: usize, sign: f64, issue: &mut f64, units: &mut [f64; Unit::COUNT]| {
        let c = &cost[b];
        let v = sign / c.chain;
        *issue += v * c.issue;
        for (a, u) in units.iter_mut().zip(&c.units) {
            *a += v * u;
        }
    };
    let mut heap: BinaryHeap<Reverse<(u64, usize, usize)>> = BinaryHeap::with_capacity(nw);
    let end_of = |w: usize, b: usize, p: f64| p + f64::from(vectors[w * cols + b]) * cost[b].chain;
    for w in 0..nw {
        let b = next(w, 0);
        if b < cols {
            demand(b, 1.0, &mut issue, &mut units);
            heap.push(Reverse((end_of(w, b, 0.0).to_bits(), w, b)));
        }
    }
    let (mut t, mut p, mut by_term) = (0.0f64, 0.0f64, [0.0f64; TERMS]);
    while let Some(Reverse((end, w, b))) = heap.pop() {
        let mut lambda = (1.0f64, Bound::Latency);
        if issue > 1e-12 && r.issue / issue < lambda.0 {
            lambda = (r.issue / issue, Bound::Issue);
        }
        for ((&d, &rate), u) in units.iter().zip(&r.units).zip(Unit::ALL) {
            if d > 1e-12 && rate / d < lambda.0 {
                lambda = (rate / d, Bound::Unit(u));
            }
        }
        let end = f64::from_bits(end);
        let dt = (end - p).max(0.0) / lambda.0;
        t += dt;
        by_term[lambda.1.term()] += dt;
        p = p.max(end);
        demand(b, -1.0, &mut issue, &mut units);
        let nb = next(w, b + 1);
        if nb < cols {
            demand(nb, 1.0, &mut issue, &mut units);
            heap.push(Reverse((end_of(w, nb, p).to_bits(), w, nb)));
        }
    }
    (t, by_term)
}

/// Per-phase terms: latency, issue, then the units.
const TERMS: usize = 2 + Unit::COUNT;

/// A scheduler's rates: a quarter of the SM's.
struct Rates {
    issue: f64,
    units: [f64; Unit::COUNT],
}

fn dominant(by_term: &[f64; TERMS]) -> Bound {
    let t = (0..TERMS)
        .max_by(|&a, &b| by_term[a].total_cmp(&by_term[b]))
        .unwrap_or(0);
    Bound::of_term(t)
}

/// The estimate of one launch.
///
/// Warp `j` of a block runs on sub-partition `j mod 4` (of the blocks sharing an SM, the
/// `i`-th's warps start at scheduler `i × warps per block`), whose rates are a quarter of the
/// SM's. To place the blocks, each block's duration is that of `k` copies of it sharing an SM
/// (`k` the blocks sharing an SM) with its basic blocks as phases one after the other, phase `b`
/// taking `max(max_w n_w[b] × chain[b], Σ_w n_w[b] × issue[b] / issue_s, Σ_w n_w[b] ×
/// units[b][u] / rate_s[u])` on the slowest scheduler, or its L1 sectors, `k`-fold, at the SM's
/// rate; the blocks are dispatched dynamically to `SMs × occupancy` slots. Then each SM's blocks,
/// in the order they start, run in waves of `k`, each wave's schedulers simulated
/// ([`simulate`]): an SM's time is the sum of its waves' slowest schedulers, or its blocks'
/// issue, unit and L1 sums over the SM's rates if larger.
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
    let wpb = tpb.div_ceil(32);
    let most_on_one = wpb.div_ceil(SCHEDULERS).max(1) as f64;
    let g = (kf * wpb as f64 / SCHEDULERS as f64 / most_on_one).max(1.0);
    let sched = SCHEDULERS as f64;
    let mut rates = Rates {
        issue: m.issue_per_sm / sched,
        units: m.unit_per_sm,
    };
    rates.units.iter_mut().for_each(|r| *r /= sched);
    let span = |b: usize| (b * tpb, ((b + 1) * tpb).min(n));
    let mut scratch: Scratch = (Vec::with_capacity(32), vec![0u32; cols]);
    let mut per_sched: Vec<Vec<u32>> = vec![Vec::new(); SCHEDULERS];
    let mut load = Load::new(cols);
    // the L1's time for global sectors and local sectors: local ones at the rate measured for
    // the local bytes the SM's resident threads hold
    let local_rate = m.local_sectors_per_sm(kf * tpb as f64 * inp.local_bytes_per_thread);
    let l1_time = |t: &Totals| {
        let (g, l) = (t.l1, t.local / local_rate);
        (g + l, if l > g { Bound::Local } else { Bound::L1 })
    };
    // each block as if its k co-resident blocks were copies of it: its slot time
    let mut durations = Vec::with_capacity(nblocks);
    let mut totals: Vec<Totals> = Vec::with_capacity(nblocks);
    let (mut sectors, mut l2_sectors, mut store_clk, mut l1_only) = (0.0, 0.0, 0.0, 0.0);
    for b in 0..nblocks {
        load.clear();
        load.add_block(classes, inp.order, span(b), 0, &mut scratch);
        let tot = load.totals(inp.cost);
        let (d, _) = load.phases(inp.cost, g, &rates);
        durations.push(d.max(kf * l1_time(&tot).0));
        sectors += tot.sectors;
        l2_sectors += tot.l2;
        l1_only += tot.l1_only;
        store_clk += tot.store_clk;
        totals.push(tot);
    }
    // each SM: its blocks in waves of k, and its throughput sums
    let placed = dispatch(&durations, sms, per_sm);
    let mut by_sm: Vec<usize> = (0..nblocks).collect();
    by_sm.sort_by(|&a, &b| {
        placed[a]
            .0
            .cmp(&placed[b].0)
            .then(placed[a].1.total_cmp(&placed[b].1))
            .then(a.cmp(&b))
    });
    let mut compute = 0.0;
    let mut compute_bound = Bound::Latency;
    let mut i = 0;
    while i < by_sm.len() {
        let sm = placed[by_sm[i]].0;
        let mut j = i;
        while j < by_sm.len() && placed[by_sm[j]].0 == sm {
            j += 1;
        }
        let (mut time, mut by_term, mut sum) = (0.0, [0.0f64; TERMS], Totals::default());
        for wave in by_sm[i..j].chunks(k as usize) {
            per_sched.iter_mut().for_each(Vec::clear);
            for (pos, &b) in wave.iter().enumerate() {
                for_each_warp(
                    classes,
                    inp.order,
                    span(b),
                    pos * wpb,
                    &mut scratch,
                    |s, v| per_sched[s].extend_from_slice(v),
                );
                sum.add(&totals[b]);
            }
            let mut slowest = (0.0f64, [0.0f64; TERMS]);
            for v in &per_sched {
                let (t, terms) = simulate(v, cols, inp.cost, &rates);
                if t > slowest.0 {
                    slowest = (t, terms);
                }
            }
            time += slowest.0;
            by_term.iter_mut().zip(slowest.1).for_each(|(a, x)| *a += x);
        }
        let mut consider = |t: f64, why: Bound| {
            if t > compute {
                compute = t;
                compute_bound = why;
            }
        };
        consider(time, dominant(&by_term));
        consider(sum.issue / m.issue_per_sm, Bound::Issue);
        for (u, (&x, &rate)) in Unit::ALL.iter().zip(sum.units.iter().zip(&m.unit_per_sm)) {
            consider(x / rate, Bound::Unit(*u));
        }
        let (t, why) = l1_time(&sum);
        consider(t, why);
        i = j;
    }
    // loads from the L2 (and the L1-resident buffers' first touch on each SM), then stores at
    // their own measured rate
    let cold = inp.l1_cold_sectors.min(l1_only);
    let l2 = (l2_sectors + cold) / m.l2_sectors_per_clk + store_clk;
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
mod tests;
