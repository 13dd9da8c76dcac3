//! The cache report: per configuration and kernel, hit rates, GRAB's bug report (per fault
//! type: count, root causes ranked by the misses they cause, their effects, a fix class and
//! the misses it would remove) and per-source-line counts. Serialisable; the JSON output is
//! this structure.

use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;

use crate::config::{CacheConfig, Geometry, format_size, scheduler_name};
use crate::grab::{EffectCount, Fault, GrabCounts, InstCounts};
use crate::observer::LaunchCounts;
use crate::sites::{InstTable, SiteInfo};
use warpscope_emu::SchedulerKind;

/// Blocks listed per root cause or effect.
pub const BLOCK_SAMPLES: usize = 4;

/// A location in the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Place {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    pub ptx_line: u32,
    pub instruction: String,
}

impl Place {
    fn of(s: &SiteInfo) -> Place {
        Place {
            file: s.file.clone(),
            line: s.line,
            ptx_line: s.ptx_line,
            instruction: s.text.clone(),
        }
    }

    /// `file:line`, or `PTX line N` without `.loc`.
    pub fn short(&self) -> String {
        match &self.file {
            Some(f) if self.line > 0 => format!("{f}:{}", self.line),
            _ => format!("PTX line {}", self.ptx_line),
        }
    }
}

/// The fix classes of GRAB's Table 2, worded for users.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FixClass {
    /// `mm`: reduce global-memory use within the thread (auxiliary registers).
    KeepInRegister,
    /// `m*h` on lines other warps loaded: reduce cache accesses through shared memory.
    MoveToSharedMemory,
    /// `mh`: improve the cache mapping (pad / relocate, change the access pattern).
    RemapBlocks,
    /// `m*h` on lines the missing warp itself loaded: fewer threads per SM.
    FewerThreadsPerSm,
}

impl FixClass {
    pub fn short(self) -> &'static str {
        match self {
            FixClass::KeepInRegister => "keep this value in a register across the loop",
            FixClass::MoveToSharedMemory => "move this array into shared memory",
            FixClass::RemapBlocks => "pad/relocate so these blocks map to different sets",
            FixClass::FewerThreadsPerSm => "fewer threads per SM",
        }
    }
}

/// Where one root cause's misses happened.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    pub at: Place,
    pub misses: u64,
    /// Misses of a warp re-reading a line it had touched last before the eviction.
    pub rereads: u64,
    /// Misses of a thread re-reading a word it had itself read or written since its warp's
    /// last barrier (a value a register would have kept).
    pub same_value: u64,
    pub distinct_blocks: u64,
    /// Up to [`BLOCK_SAMPLES`] block addresses (hex), most missed first.
    pub blocks: Vec<String>,
}

/// One root cause: a program location whose accesses started the eviction chains.
#[derive(Clone, Debug, Serialize)]
pub struct RootCause {
    pub rank: u32,
    /// Misses of this fault type it caused (GRAB's priority).
    pub priority: u64,
    pub at: Place,
    pub distinct_blocks: u64,
    pub blocks: Vec<String>,
    pub effects: Vec<Effect>,
    pub rereads: u64,
    pub same_value: u64,
    pub fix: FixClass,
    /// What to do, in plain words.
    pub advice: String,
    /// Misses removed if the fix removes this root cause's interference.
    pub estimated_gain_misses: u64,
}

/// One fault type of the bug report (GRAB Figure 8).
#[derive(Clone, Debug, Serialize)]
pub struct FaultReport {
    pub fault: Fault,
    pub count: u64,
    /// Misses with no root cause (first touches; `mm` only).
    pub compulsory: u64,
    pub root_causes: Vec<RootCause>,
    /// Distinct source lines (or PTX lines) with misses of this type.
    pub affected_lines: u64,
}

/// Counts summed over a kernel or a line.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Totals {
    pub l1_sectors: u64,
    pub l1_hits: u64,
    pub l1_misses: u64,
    pub l1_hit_rate: Option<f64>,
    pub load_sectors: u64,
    pub load_hits: u64,
    pub load_hit_rate: Option<f64>,
    pub l2_sectors: u64,
    pub l2_hits: u64,
    pub l2_hit_rate: Option<f64>,
    pub fault_mh: u64,
    pub fault_mstar_h: u64,
    pub fault_mm: u64,
    pub compulsory: u64,
    pub interference_caused: u64,
}

fn rate(h: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| h as f64 / n as f64)
}

impl Totals {
    pub fn of(c: &InstCounts) -> Totals {
        Totals {
            l1_sectors: c.l1_sectors,
            l1_hits: c.l1_hits,
            l1_misses: c.l1_misses,
            l1_hit_rate: rate(c.l1_hits, c.l1_sectors),
            load_sectors: c.load_sectors,
            load_hits: c.load_hits,
            load_hit_rate: rate(c.load_hits, c.load_sectors),
            l2_sectors: c.l2_sectors,
            l2_hits: c.l2_hits,
            l2_hit_rate: rate(c.l2_hits, c.l2_sectors),
            fault_mh: c.faults[0],
            fault_mstar_h: c.faults[1],
            fault_mm: c.faults[2],
            compulsory: c.compulsory,
            interference_caused: c.interference_caused,
        }
    }
}

/// Counts of one source line.
#[derive(Clone, Debug, Serialize)]
pub struct LineReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    /// The PTX line of the first instruction, for lines without `.loc`.
    pub ptx_line: u32,
    pub totals: Totals,
}

/// One kernel under one configuration.
#[derive(Clone, Debug, Serialize)]
pub struct KernelReport {
    pub name: String,
    pub ptx_name: String,
    pub launches: u32,
    /// The L1 geometries its launches got (one unless the carve-out changed).
    pub l1: Vec<GeometryReport>,
    pub totals: Totals,
    pub faults: Vec<FaultReport>,
    pub lines: Vec<LineReport>,
}

/// A geometry, spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GeometryReport {
    pub bytes: u64,
    pub ways: u32,
    pub sets: u64,
    pub line: u32,
}

impl GeometryReport {
    pub fn of(g: &Geometry) -> GeometryReport {
        GeometryReport {
            bytes: g.bytes,
            ways: g.ways,
            sets: g.sets(),
            line: g.line,
        }
    }
}

impl std::fmt::Display for GeometryReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {} sets × {} ways × {} B",
            format_size(self.bytes),
            self.sets,
            self.ways,
            self.line
        )
    }
}

/// One configuration (one column of a sweep).
#[derive(Clone, Debug, Serialize)]
pub struct ConfigReport {
    pub scheduler: String,
    pub l1: String,
    pub l1_assoc: String,
    pub line_bytes: u32,
    pub l2_bytes: u64,
    pub l2_assoc: u32,
    pub capacity_test: crate::config::CapacityTest,
    pub memory_latency: u32,
    pub kernels: Vec<KernelReport>,
}

impl ConfigReport {
    /// `gto 256K auto-way 128B`.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}-way {}B",
            self.scheduler, self.l1, self.l1_assoc, self.line_bytes
        )
    }
}

/// Everything `warpscope cache` found.
#[derive(Clone, Debug, Serialize)]
pub struct CacheReport {
    pub spec: String,
    pub module: String,
    pub configs: Vec<ConfigReport>,
}

/// Builds the report of one scheduler's run: `launches` hold one [`ConfigCounts`] per entry
/// of `configs`.
///
/// [`ConfigCounts`]: crate::observer::ConfigCounts
pub fn build_configs(
    table: &InstTable,
    configs: &[CacheConfig],
    scheduler: SchedulerKind,
    memory_latency: u32,
    launches: &[LaunchCounts],
) -> Vec<ConfigReport> {
    configs
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            // Kernels in order of first launch.
            let mut order: Vec<&str> = Vec::new();
            let mut per: BTreeMap<&str, (u32, Vec<Geometry>, GrabCounts)> = BTreeMap::new();
            for l in launches {
                let Some(cc) = l.configs.get(ci) else {
                    continue;
                };
                if !per.contains_key(l.kernel.as_str()) {
                    order.push(&l.kernel);
                }
                let e = per.entry(&l.kernel).or_default();
                e.0 += 1;
                if let Some(g) = cc.l1
                    && !e.1.contains(&g)
                {
                    e.1.push(g);
                }
                e.2.merge(cc.counts.clone());
            }
            let kernels = order
                .iter()
                .filter_map(|k| {
                    let (n, geos, counts) = per.remove(k)?;
                    Some(kernel_report(table, k, n, &geos, &counts))
                })
                .collect();
            ConfigReport {
                scheduler: scheduler_name(scheduler).to_string(),
                l1: c.l1.to_string(),
                l1_assoc: c.l1_ways.to_string(),
                line_bytes: c.line,
                l2_bytes: c.l2_bytes,
                l2_assoc: c.l2_ways,
                capacity_test: c.capacity,
                memory_latency,
                kernels,
            }
        })
        .collect()
}

fn display_name(ptx: &str) -> String {
    warpscope_ir::names::qualified_name(ptx).unwrap_or_else(|| ptx.to_string())
}

fn hex_block(block: u64, line: u32) -> String {
    format!("{:#x}", block * u64::from(line))
}

/// Top blocks by misses.
fn sample_blocks(blocks: &FxHashMap<u64, u64>, line: u32) -> Vec<String> {
    let mut v: Vec<(u64, u64)> = blocks.iter().map(|(&b, &n)| (b, n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.into_iter()
        .take(BLOCK_SAMPLES)
        .map(|(b, _)| hex_block(b, line))
        .collect()
}

#[derive(Default)]
struct EffectAcc {
    count: EffectCount,
    blocks: FxHashMap<u64, u64>,
}

#[derive(Default)]
struct RootAcc {
    count: EffectCount,
    blocks: FxHashMap<u64, u64>,
    effects: BTreeMap<u32, EffectAcc>,
}

fn kernel_report(
    table: &InstTable,
    ptx_name: &str,
    launches: u32,
    geos: &[Geometry],
    counts: &GrabCounts,
) -> KernelReport {
    let line = geos.first().map_or(128, |g| g.line);
    let l1_text = geos
        .first()
        .map(|g| format_size(g.bytes))
        .unwrap_or_default();
    // Per fault type, per root instruction.
    let mut roots: [BTreeMap<u32, RootAcc>; 3] = Default::default();
    for (k, v) in &counts.effects {
        let r = roots[k.fault.index()].entry(k.root.inst).or_default();
        r.count.misses += v.misses;
        r.count.rereads += v.rereads;
        r.count.same_value += v.same_value;
        *r.blocks.entry(k.root.block).or_default() += v.misses;
        let e = r.effects.entry(k.effect.inst).or_default();
        e.count.misses += v.misses;
        e.count.rereads += v.rereads;
        e.count.same_value += v.same_value;
        *e.blocks.entry(k.effect.block).or_default() += v.misses;
    }
    let total = counts.total();
    let place = |id: u32| {
        table
            .sites
            .get(id as usize)
            .map(Place::of)
            .unwrap_or_default()
    };
    let mut faults = Vec::new();
    for f in Fault::ALL {
        let mut rs: Vec<RootCause> = std::mem::take(&mut roots[f.index()])
            .into_iter()
            .map(|(inst, acc)| {
                let at = place(inst);
                let mut effects: Vec<Effect> = acc
                    .effects
                    .iter()
                    .map(|(&ei, e)| Effect {
                        at: place(ei),
                        misses: e.count.misses,
                        rereads: e.count.rereads,
                        same_value: e.count.same_value,
                        distinct_blocks: e.blocks.len() as u64,
                        blocks: sample_blocks(&e.blocks, line),
                    })
                    .collect();
                effects.sort_by_key(|e| std::cmp::Reverse(e.misses));
                let fix = fix_class(f, acc.count);
                let advice = advice(fix, f, &at, &effects, &l1_text);
                RootCause {
                    rank: 0,
                    priority: acc.count.misses,
                    at,
                    distinct_blocks: acc.blocks.len() as u64,
                    blocks: sample_blocks(&acc.blocks, line),
                    effects,
                    rereads: acc.count.rereads,
                    same_value: acc.count.same_value,
                    fix,
                    advice,
                    estimated_gain_misses: acc.count.misses,
                }
            })
            .collect();
        rs.sort_by(|a, b| {
            b.priority
                .cmp(&a.priority)
                .then(a.at.ptx_line.cmp(&b.at.ptx_line))
        });
        for (i, r) in rs.iter_mut().enumerate() {
            r.rank = i as u32 + 1;
        }
        let affected: std::collections::BTreeSet<(Option<String>, u32)> = counts
            .insts
            .iter()
            .filter(|(_, c)| c.faults[f.index()] > 0)
            .map(|(&i, _)| {
                let p = place(i);
                let line = if p.line > 0 { p.line } else { p.ptx_line };
                (p.file, line)
            })
            .collect();
        faults.push(FaultReport {
            fault: f,
            count: total.faults[f.index()],
            compulsory: if f == Fault::Mm { total.compulsory } else { 0 },
            root_causes: rs,
            affected_lines: affected.len() as u64,
        });
    }
    // Per source line.
    let mut by_line: BTreeMap<(Option<String>, u32), (u32, InstCounts)> = BTreeMap::new();
    for (&i, c) in &counts.insts {
        let p = place(i);
        let key = if p.line > 0 {
            (p.file.clone(), p.line)
        } else {
            (None, p.ptx_line)
        };
        let e = by_line
            .entry(key)
            .or_insert((p.ptx_line, InstCounts::default()));
        e.0 = e.0.min(p.ptx_line);
        e.1.add(c);
    }
    let lines = by_line
        .into_iter()
        .map(|((file, line), (ptx_line, c))| LineReport {
            line: if file.is_some() { line } else { 0 },
            file,
            ptx_line,
            totals: Totals::of(&c),
        })
        .collect();
    KernelReport {
        name: display_name(ptx_name),
        ptx_name: ptx_name.to_string(),
        launches,
        l1: geos.iter().map(GeometryReport::of).collect(),
        totals: Totals::of(&total),
        faults,
        lines,
    }
}

/// Table 2's fix class for a root cause: `mh` → improve the cache mapping (pad/relocate);
/// `m*h` → reduce the cache's load, through shared memory or with fewer threads; `mm` →
/// reduce the thread's own global-memory use (registers). Of `m*h`'s two remedies, shared
/// memory is named when the lost lines were last touched by other warps (data the threads
/// share, which a block can stage once), fewer threads per SM when most misses re-read the
/// missing warp's own lines (nothing to share: only a smaller working set helps). Whatever
/// the fault type, when most misses re-read a value the thread itself read or wrote since its
/// warp's last barrier, the register fix comes first: the thread needs no cache to keep a value
/// it already had (GRAB's LBM case study: the reads of one global location inside a loop).
fn fix_class(f: Fault, c: EffectCount) -> FixClass {
    match f {
        _ if 2 * c.same_value > c.misses => FixClass::KeepInRegister,
        Fault::Mh => FixClass::RemapBlocks,
        Fault::MStarH if 2 * c.rereads > c.misses => FixClass::FewerThreadsPerSm,
        Fault::MStarH => FixClass::MoveToSharedMemory,
        Fault::Mm => FixClass::KeepInRegister,
    }
}

fn advice(fix: FixClass, fault: Fault, root: &Place, effects: &[Effect], l1: &str) -> String {
    let mut eff: Vec<String> = Vec::new();
    for e in effects {
        let p = e.at.short();
        if !eff.contains(&p) {
            eff.push(p);
        }
        if eff.len() == 3 {
            break;
        }
    }
    let eff = eff.join(", ");
    let root = root.short();
    match fix {
        FixClass::KeepInRegister if fault.is_interference() => format!(
            "keep the values read at {eff} in registers: those misses re-read values the same \
             threads had already read or written since the last barrier, after the loads at \
             {root} evicted them from the {l1} L1; load each once and reuse it (or fuse the \
             loops that read it), and accumulate in a register, storing once"
        ),
        FixClass::KeepInRegister => format!(
            "reduce the global-memory accesses of each thread at {root}: the chains that make \
             {eff} miss start there; keep the value it reads or accumulates in a register \
             across the loop (load once, store once), or fuse the loops that touch it. A \
             private cache of the thread would have missed too, so other threads are not to \
             blame"
        ),
        FixClass::MoveToSharedMemory => format!(
            "move the array read at {eff} into shared memory (stage each block's tile once and \
             read it from there), or run fewer threads per SM so the working set fits the {l1} \
             L1: the loads at {root} fill the L1 and evict lines that other threads had loaded \
             and read again"
        ),
        FixClass::FewerThreadsPerSm => format!(
            "run fewer threads per SM (smaller or fewer resident blocks), or move the data read \
             at {eff} into shared memory: the loads at {root} fill the {l1} L1 and evict lines \
             the warps re-read themselves"
        ),
        FixClass::RemapBlocks => format!(
            "pad or relocate the data read at {root} so its blocks map to different L1 sets than \
             the ones read at {eff} (e.g. pad each row by one 128-byte line), or change the \
             access order: the L1 had free lines, so only the mapping is at fault"
        ),
    }
}
