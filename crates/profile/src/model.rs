//! The profile data model: additive [`Counters`] kept per instruction, per CUDA source line
//! and per kernel, and the [`Profile`] that holds them with the launches that produced them.
//!
//! Counters are named after Nsight Compute's source counters where one exists (see
//! `docs/profile.md` for the mapping), so a line of `warpscope profile --format csv` can be
//! compared with the same line of `ncu --page source --csv`.

use serde::{Deserialize, Serialize};
use warpscope_cost::{GlobalCost, SharedCost};

/// Global-memory requests of one instruction, line or kernel, summed over requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalCounters {
    /// Warp-wide requests (one per issued warp instruction and space).
    pub requests: u64,
    /// Active lanes summed over requests.
    pub lanes: u64,
    /// 32-byte sectors (Nsight Compute: *L2 Theoretical Sectors Global*).
    pub sectors: u64,
    /// `min(sectors, ⌈active lanes × size / 32⌉)` per request (*L2 Theoretical Sectors
    /// Global Ideal*).
    pub ideal_sectors: u64,
    /// `⌈active lanes × size / 32⌉` per request (every lane's bytes, duplicates included).
    pub lane_sectors: u64,
    /// `⌈unique bytes / 32⌉` per request (the sectors the used bytes would fill).
    pub used_sectors: u64,
    /// Excess sectors explained by dense runs starting mid-sector.
    pub misaligned_sectors: u64,
    /// 128-byte lines (GPUDrano's measure).
    pub lines: u64,
    /// Sectors after subtracting each warp's lowest address (GPUDrano's NoAlign).
    pub noalign_sectors: u64,
    /// Lines after subtracting each warp's lowest address (GPUDrano's NoAlign).
    pub noalign_lines: u64,
    /// Distinct bytes touched.
    pub bytes: u64,
    /// Fewest / most sectors of one request (0 when there were no requests).
    pub sectors_min: u32,
    pub sectors_max: u32,
    /// Fewest / most 128-byte lines of one request (GPUDrano's min/max).
    pub lines_min: u32,
    pub lines_max: u32,
    /// Fewest / most NoAlign lines of one request.
    pub noalign_lines_min: u32,
    pub noalign_lines_max: u32,
}

impl GlobalCounters {
    /// Adds one request.
    #[inline]
    pub fn add(&mut self, c: &GlobalCost) {
        if self.requests == 0 {
            self.sectors_min = c.sectors;
            self.lines_min = c.lines;
            self.noalign_lines_min = c.noalign_lines;
        } else {
            self.sectors_min = self.sectors_min.min(c.sectors);
            self.lines_min = self.lines_min.min(c.lines);
            self.noalign_lines_min = self.noalign_lines_min.min(c.noalign_lines);
        }
        self.sectors_max = self.sectors_max.max(c.sectors);
        self.lines_max = self.lines_max.max(c.lines);
        self.noalign_lines_max = self.noalign_lines_max.max(c.noalign_lines);
        self.requests += 1;
        self.lanes += u64::from(c.lanes);
        self.sectors += u64::from(c.sectors);
        self.ideal_sectors += u64::from(c.ideal_sectors);
        self.lane_sectors += u64::from(c.lane_sectors);
        self.used_sectors += u64::from(c.used_sectors);
        self.misaligned_sectors += u64::from(c.misaligned_sectors());
        self.lines += u64::from(c.lines);
        self.noalign_sectors += u64::from(c.noalign_sectors);
        self.noalign_lines += u64::from(c.noalign_lines);
        self.bytes += u64::from(c.unique_bytes);
    }

    /// Merges another set of requests.
    pub fn merge(&mut self, o: &GlobalCounters) {
        if o.requests == 0 {
            return;
        }
        if self.requests == 0 {
            *self = *o;
            return;
        }
        self.sectors_min = self.sectors_min.min(o.sectors_min);
        self.lines_min = self.lines_min.min(o.lines_min);
        self.noalign_lines_min = self.noalign_lines_min.min(o.noalign_lines_min);
        self.sectors_max = self.sectors_max.max(o.sectors_max);
        self.lines_max = self.lines_max.max(o.lines_max);
        self.noalign_lines_max = self.noalign_lines_max.max(o.noalign_lines_max);
        self.requests += o.requests;
        self.lanes += o.lanes;
        self.sectors += o.sectors;
        self.ideal_sectors += o.ideal_sectors;
        self.lane_sectors += o.lane_sectors;
        self.used_sectors += o.used_sectors;
        self.misaligned_sectors += o.misaligned_sectors;
        self.lines += o.lines;
        self.noalign_sectors += o.noalign_sectors;
        self.noalign_lines += o.noalign_lines;
        self.bytes += o.bytes;
    }

    /// Sectors beyond the ideal (*L2 Theoretical Sectors Global Excessive*).
    pub fn excess_sectors(&self) -> u64 {
        self.sectors.saturating_sub(self.ideal_sectors)
    }

    /// Excess sectors due to stride or scatter (not explained by misalignment).
    pub fn strided_sectors(&self) -> u64 {
        self.excess_sectors()
            .saturating_sub(self.misaligned_sectors)
    }

    /// Whether the excess is mostly misalignment: the dynamic `misaligned-access` /
    /// `uncoalesced-access` split, as [`crate::findings`] makes it.
    pub fn mostly_misaligned(&self) -> bool {
        self.misaligned_sectors > 0 && self.misaligned_sectors >= self.strided_sectors()
    }

    /// Mean per request (`0.0` without requests).
    pub fn per_request(&self, total: u64) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            total as f64 / self.requests as f64
        }
    }
}

/// Shared-memory requests of one instruction, line or kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedCounters {
    pub requests: u64,
    pub lanes: u64,
    /// *L1 Wavefronts Shared*.
    pub wavefronts: u64,
    /// *L1 Wavefronts Shared Ideal*.
    pub ideal_wavefronts: u64,
    /// Requests that needed more wavefronts than ideal.
    pub conflicted_requests: u64,
    /// Worst N-way conflict of one request.
    pub ways_max: u32,
}

impl SharedCounters {
    #[inline]
    pub fn add(&mut self, c: &SharedCost) {
        self.requests += 1;
        self.lanes += u64::from(c.lanes);
        self.wavefronts += u64::from(c.wavefronts);
        self.ideal_wavefronts += u64::from(c.ideal_wavefronts);
        self.conflicted_requests += u64::from(c.wavefronts > c.ideal_wavefronts);
        self.ways_max = self.ways_max.max(c.ways);
    }

    pub fn merge(&mut self, o: &SharedCounters) {
        self.requests += o.requests;
        self.lanes += o.lanes;
        self.wavefronts += o.wavefronts;
        self.ideal_wavefronts += o.ideal_wavefronts;
        self.conflicted_requests += o.conflicted_requests;
        self.ways_max = self.ways_max.max(o.ways_max);
    }

    /// Wavefronts beyond the ideal (Nsight Compute's bank conflicts).
    pub fn excess_wavefronts(&self) -> u64 {
        self.wavefronts.saturating_sub(self.ideal_wavefronts)
    }

    /// Nsight Compute's *L1 Conflicts Shared N-Way*: wavefronts per ideal wavefront
    /// (1.0 without conflicts, 0.0 without requests).
    pub fn n_way(&self) -> f64 {
        if self.ideal_wavefronts == 0 {
            0.0
        } else {
            self.wavefronts as f64 / self.ideal_wavefronts as f64
        }
    }
}

/// Everything counted for one instruction, source line or kernel. All fields add up when
/// instructions are grouped by line and lines by kernel, except the `_min`/`_max` fields
/// (minimum and maximum of one request).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Warp instructions issued (*Instructions Executed*), guarded-off ones included.
    pub instructions: u64,
    /// Active lanes summed over issued warp instructions (*Thread Instructions Executed*).
    pub thread_instructions: u64,
    /// Lanes whose guard was true (*Predicated-On Thread Instructions Executed*).
    pub predicated_on_thread_instructions: u64,
    /// Warp visits of conditional branches (τ of the divergence map).
    pub branch_visits: u64,
    /// Visits where the active lanes disagreed (δ; *Divergent Branches*).
    pub divergent_branches: u64,
    /// Active lanes summed over branch visits.
    pub branch_active_lanes: u64,
    /// Lanes that took the branch, summed over visits.
    pub branch_taken_lanes: u64,
    pub global: GlobalCounters,
    pub shared: SharedCounters,
    /// Local-memory (spill, stack) requests.
    pub local_requests: u64,
    /// Sectors those requests touch: local memory interleaves the threads' 4-byte words (the
    /// 32 lanes' copies of one word form one 128-byte line), so a request touches one sector per
    /// distinct (word, group of 8 lanes) ([`crate::observe::local_sectors`]).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub local_sectors: u64,
    /// Constant- and parameter-space requests.
    pub other_requests: u64,
}

impl Counters {
    pub fn merge(&mut self, o: &Counters) {
        self.instructions += o.instructions;
        self.thread_instructions += o.thread_instructions;
        self.predicated_on_thread_instructions += o.predicated_on_thread_instructions;
        self.branch_visits += o.branch_visits;
        self.divergent_branches += o.divergent_branches;
        self.branch_active_lanes += o.branch_active_lanes;
        self.branch_taken_lanes += o.branch_taken_lanes;
        self.global.merge(&o.global);
        self.shared.merge(&o.shared);
        self.local_requests += o.local_requests;
        self.local_sectors += o.local_sectors;
        self.other_requests += o.other_requests;
    }

    /// Useful lanes over issued lane slots: predicated-on lanes / (32 × warp instructions).
    /// Lanes that are inactive (diverged, exited, missing from a partial warp) or guarded off
    /// are idle. `1.0` when nothing was issued.
    pub fn simt_efficiency(&self) -> f64 {
        if self.instructions == 0 {
            1.0
        } else {
            self.predicated_on_thread_instructions as f64 / (32.0 * self.instructions as f64)
        }
    }

    /// Idle lane slots: `32 × instructions − predicated-on lanes`.
    pub fn idle_lanes(&self) -> u64 {
        (32 * self.instructions).saturating_sub(self.predicated_on_thread_instructions)
    }

    /// Whether any event was counted.
    pub fn is_empty(&self) -> bool {
        self.instructions == 0
            && self.branch_visits == 0
            && self.global.requests == 0
            && self.shared.requests == 0
            && self.local_requests == 0
            && self.other_requests == 0
    }
}

/// Memory access kind of an instruction, as a profile reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    Load,
    Store,
    Atomic,
    Reduction,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Load => "load",
            Access::Store => "store",
            Access::Atomic => "atomic",
            Access::Reduction => "reduction",
        }
    }
}

/// One PTX instruction that was executed at least once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstProfile {
    /// The function holding it (PTX name).
    pub function: String,
    /// Instruction number within its function (the IR's `inst` index).
    pub inst: u32,
    /// PTX line and column (1-based).
    pub ptx_line: u32,
    pub ptx_col: u32,
    /// The instruction as the IR prints it.
    pub text: String,
    /// CUDA file as `.file` names it, with line and column from `.loc`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    pub col: u32,
    /// The PTX gives the instruction no line (`.loc F 0 0`); `line` is the last real line
    /// before it, as ptxas usually chooses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub line_inferred: bool,
    /// For code inlined from another function (`.loc … inlined_at F L C`: `atomicAdd` from
    /// the CUDA headers, math functions), the call site it was inlined into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlined_at: Option<CallSite>,
    /// Bytes per lane of its memory requests, and their kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub access_size: u32,
    pub counters: Counters,
}

impl InstProfile {
    /// Where reports name the instruction (file, line, column): its `.loc`, or, for code
    /// inlined from a CUDA or system header (`atomicAdd`), the line that called it, as
    /// `check` does. `None` without a `.loc`.
    pub fn shown_at(&self) -> Option<(&str, u32, u32)> {
        match self.header_call_site() {
            Some((file, line)) => Some((file, line, 0)),
            None => self.file.as_deref().map(|f| (f, self.line, self.col)),
        }
    }

    /// The instruction's own header line when [`Self::shown_at`] is its call site instead.
    pub fn origin(&self) -> Option<(&str, u32, u32)> {
        self.header_call_site()?;
        self.file.as_deref().map(|f| (f, self.line, self.col))
    }

    /// The call site (file, line) of code inlined from a CUDA or system header.
    fn header_call_site(&self) -> Option<(&str, u32)> {
        let (f, site) = (self.file.as_deref()?, self.inlined_at.as_ref()?);
        let file = site.file.as_deref()?;
        warpscope_report::is_system_file(f).then_some((file, site.line))
    }
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

/// The CUDA line a piece of inlined code was inlined into.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallSite {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
}

/// One CUDA source line (or `file = None, line = 0` for instructions without `.loc`).
///
/// Like Nsight Compute's source view, a line counts the instructions written on it and the
/// instructions inlined into it (an `atomicAdd` counts on its header line and on the line that
/// calls it), so line totals can exceed the kernel's; kernel totals count each instruction once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineProfile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub line: u32,
    pub counters: Counters,
}

/// Everything measured for one kernel, over the profiled launches of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelProfile {
    /// Display name (demangled where possible).
    pub name: String,
    /// PTX (mangled) name.
    pub ptx_name: String,
    /// Profiled launches of this kernel.
    pub launches: u32,
    pub totals: Counters,
    /// Executed instructions in function and instruction order.
    pub instructions: Vec<InstProfile>,
    /// Source lines in (file, line) order.
    pub lines: Vec<LineProfile>,
}

/// One launch of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchRecord {
    pub index: u32,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Whether it was inside the profiled launch window.
    pub profiled: bool,
}

/// A whole profile: what `warpscope profile` measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The launch spec that was run.
    pub spec: String,
    /// The PTX module (display name).
    pub module: String,
    pub launches: Vec<LaunchRecord>,
    pub kernels: Vec<KernelProfile>,
}

impl Profile {
    /// The kernel profile named `name` (display or PTX name).
    pub fn kernel(&self, name: &str) -> Option<&KernelProfile> {
        self.kernels
            .iter()
            .find(|k| k.name == name || k.ptx_name == name)
    }

    /// Totals over all kernels.
    pub fn totals(&self) -> Counters {
        let mut t = Counters::default();
        for k in &self.kernels {
            t.merge(&k.totals);
        }
        t
    }

    /// Counters of a source line summed over kernels (`file` compared by full name, or by
    /// file name when `by_basename`).
    pub fn line(&self, file: &str, line: u32, by_basename: bool) -> Counters {
        let mut t = Counters::default();
        for k in &self.kernels {
            for l in &k.lines {
                if l.line == line
                    && l.file
                        .as_deref()
                        .is_some_and(|f| same_file(f, file, by_basename))
                {
                    t.merge(&l.counters);
                }
            }
        }
        t
    }
}

/// Whether two file names denote the same file (by full name, or by their last component).
pub fn same_file(a: &str, b: &str, by_basename: bool) -> bool {
    if by_basename {
        basename(a) == basename(b)
    } else {
        a == b
    }
}

/// The display name of a kernel or function: demangled where `warpscope_ir::names`
/// understands the symbol.
pub fn display_name(ptx: &str) -> String {
    warpscope_ir::names::qualified_name(ptx).unwrap_or_else(|| ptx.to_string())
}

/// Last path component.
pub fn basename(p: &str) -> &str {
    p.rsplit(['/', '\\']).next().unwrap_or(p)
}
