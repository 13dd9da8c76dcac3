//! # warpscope-report
//!
//! The one [`Finding`] type every warpscope mode produces (static `check`, dynamic `profile`,
//! later the cache and model modes), and the renderers that turn a [`Report`] into
//! rustc-style text ([`text`]), JSON ([`json`]) or SARIF 2.1.0 ([`sarif`]); and the report
//! document ([`page::Page`]: sources with per-line metrics, findings, tables, cards, charts,
//! control-flow graphs) that [`html`] turns into one self-contained HTML file.
//!
//! A finding says *what* (a [`Rule`]), *where* (CUDA `file:line:col` from `.loc`, and the PTX
//! instruction), *how sure* ([`Certainty`]), *how bad* (a map of named [`Measure`] ranges:
//! divergence ratio, sectors per request, conflict ways, ...), *why* (the [`Step`]s of its
//! provenance chain, e.g. "depends on %tid.x via line 12") and *how to fix* (a plain-words hint).
//! Whether it came from static analysis or from a run is [`Origin`]; a dynamic run can mark a
//! static finding confirmed or refuted through [`Verdict`] without changing the type.

pub mod html;
pub mod json;
pub mod page;
pub mod sarif;
pub mod text;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What kind of SIMT performance bug a finding reports. The ids ([`Rule::id`]) are stable: they
/// are what `--deny`, `// warpscope: allow(...)` comments and SARIF `ruleId`s use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// A conditional branch whose lanes of one warp may take different paths.
    DivergentBranch,
    /// A global access whose warp request touches more 32-byte sectors than its bytes need
    /// because lanes are strided, scattered or data-dependent.
    UncoalescedAccess,
    /// A global access that is dense but starts mid-sector, so it touches one sector too many
    /// per run (e.g. `a[i + 1]`).
    MisalignedAccess,
    /// A shared-memory access whose lanes hit the same bank at different addresses.
    BankConflict,
    /// `warpscope cache`: loads whose blocks evict lines other threads read again while the
    /// L1 still had room (GRAB's `mh` root causes: a mapping conflict).
    CacheInterference,
    /// `warpscope cache`: loads whose blocks evict lines other threads read again in a full
    /// L1 (GRAB's `m*h` root causes: the threads of an SM share too little cache).
    CacheCapacity,
    /// `warpscope cache`: L1 misses a private cache of the thread would have missed too
    /// (GRAB's `mm` root causes: the thread's own global-memory use, not interference).
    CacheReuseWithinThread,
    /// A `ld.const` whose lanes of one warp read different addresses: the constant cache
    /// serves one address per pass, so N distinct addresses take N serialized passes.
    DivergentConstant,
}

impl Rule {
    /// Every rule, in id order.
    pub const ALL: [Rule; 8] = [
        Rule::DivergentBranch,
        Rule::UncoalescedAccess,
        Rule::MisalignedAccess,
        Rule::BankConflict,
        Rule::CacheInterference,
        Rule::CacheCapacity,
        Rule::CacheReuseWithinThread,
        Rule::DivergentConstant,
    ];

    /// The rules `warpscope check` can report (the others need a run of `warpscope cache`).
    pub const STATIC: [Rule; 5] = [
        Rule::DivergentBranch,
        Rule::UncoalescedAccess,
        Rule::MisalignedAccess,
        Rule::BankConflict,
        Rule::DivergentConstant,
    ];

    /// The stable id: `divergent-branch`, `uncoalesced-access`, `misaligned-access`,
    /// `bank-conflict`, `cache-interference`, `cache-capacity`, `cache-reuse-within-thread`,
    /// `divergent-constant`.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::DivergentBranch => "divergent-branch",
            Rule::UncoalescedAccess => "uncoalesced-access",
            Rule::MisalignedAccess => "misaligned-access",
            Rule::BankConflict => "bank-conflict",
            Rule::CacheInterference => "cache-interference",
            Rule::CacheCapacity => "cache-capacity",
            Rule::CacheReuseWithinThread => "cache-reuse-within-thread",
            Rule::DivergentConstant => "divergent-constant",
        }
    }

    /// Parses a rule id.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }

    /// One-line description.
    pub const fn title(self) -> &'static str {
        match self {
            Rule::DivergentBranch => "lanes of a warp take different sides of a branch",
            Rule::UncoalescedAccess => {
                "a warp's global access touches more 32-byte sectors than its data needs"
            }
            Rule::MisalignedAccess => {
                "a warp's dense global access starts mid-sector and touches an extra sector"
            }
            Rule::BankConflict => "lanes of a warp hit one shared-memory bank at different words",
            Rule::CacheInterference => {
                "these loads evict L1 lines other threads read again (mapping conflict)"
            }
            Rule::CacheCapacity => {
                "these loads fill the L1 and evict lines other threads read again (capacity)"
            }
            Rule::CacheReuseWithinThread => {
                "misses not caused by other threads: reduce global-memory reads within the thread"
            }
            Rule::DivergentConstant => {
                "lanes of a warp read different constant-memory addresses: the reads serialize"
            }
        }
    }

    /// Longer explanation (SARIF `fullDescription` and `help`).
    pub const fn help(self) -> &'static str {
        match self {
            Rule::DivergentBranch => {
                "A warp executes both sides of a branch one after the other when its lanes \
                 disagree, leaving the lanes of the other side idle. Make the condition \
                 warp-uniform (map work so whole warps agree), or compute both values and select \
                 (min/max, ternaries the compiler turns into selp)."
            }
            Rule::UncoalescedAccess => {
                "Global memory moves 32-byte sectors. When the 32 lanes of a warp read addresses \
                 that are strided (arrays of structures, row walks) or scattered (gathers), one \
                 request needs many sectors and most of each sector is wasted. Make consecutive \
                 lanes read consecutive addresses: a structure of arrays, threadIdx.x mapped to \
                 the fastest-moving index, or a staging copy through shared memory."
            }
            Rule::MisalignedAccess => {
                "A dense warp access whose first byte is not sector-aligned straddles one more \
                 sector than it needs (5 instead of 4 for 128 bytes). Pad rows to a multiple of \
                 32 bytes, align the base pointer, or shift the indexing so warps start on a \
                 sector boundary."
            }
            Rule::BankConflict => {
                "Shared memory has 32 banks of 4 bytes; lanes that hit the same bank at different \
                 words are served one after another (an N-way conflict takes N wavefronts). Pad \
                 shared arrays (e.g. 33 columns instead of 32) or change the index so consecutive \
                 lanes use consecutive words."
            }
            Rule::CacheInterference => {
                "GRAB's mh faults (warpscope cache): an L1 miss that a private cache of the \
                 missing thread would have hit, while the L1 still had free lines, so blocks of \
                 different threads compete for the same sets. The finding sits at the root cause: \
                 the access that started the eviction chain. Pad or relocate the data so the \
                 blocks map to different sets, or change the access order."
            }
            Rule::CacheCapacity => {
                "GRAB's m*h faults (warpscope cache): an L1 miss that a private cache of the \
                 missing thread would have hit, in an L1 whose every line was taken: the threads \
                 resident on an SM need more cache than it has. The finding sits at the root \
                 cause. GRAB's fix (Table 2): reduce the accesses to the cache by staging the data \
                 in shared memory, or run fewer threads per SM."
            }
            Rule::CacheReuseWithinThread => {
                "GRAB's mm faults with a root cause (warpscope cache): an L1 miss that a private \
                 cache of the missing thread would have missed too, so interference among threads \
                 is not the cause: the thread's own use of global memory is (its first read of \
                 the block, or its own accesses evicted it). The finding sits at the root cause of \
                 the eviction chain. GRAB's fix (Table 2): reduce the global-memory use within \
                 the thread, e.g. keep the value in a register across the loop (read it once), or \
                 fuse loops that read the same data."
            }
            Rule::DivergentConstant => {
                "The constant cache serves one address per pass: a warp's `ld.const` whose \
                 active lanes read N distinct addresses is replayed in N serialized passes (a \
                 warp-uniform index takes one, the use `__constant__` is made for). Make the \
                 index warp-uniform, or move a table indexed per lane to shared memory, or read \
                 it from global memory through the read-only cache (`__ldg`, a `const \
                 __restrict__` pointer), which serves a warp's distinct addresses in one request \
                 per sector."
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How sure a finding is. `Definite` when the cost is proven for the assumed launch geometry
/// and assumptions; `Possible` when it depends on data or parameters the analysis does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Certainty {
    Possible,
    Definite,
}

impl Certainty {
    pub const fn as_str(self) -> &'static str {
        match self {
            Certainty::Possible => "possible",
            Certainty::Definite => "definite",
        }
    }

    pub fn parse(s: &str) -> Option<Certainty> {
        match s {
            "possible" => Some(Certainty::Possible),
            "definite" => Some(Certainty::Definite),
            _ => None,
        }
    }
}

impl fmt::Display for Certainty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which kind of analysis produced a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// `warpscope check`: derived from the program text without running it.
    #[default]
    Static,
    /// `warpscope profile`: measured on a run (emulator or hardware).
    Dynamic,
}

/// What a run said about a static finding (`warpscope check --confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Confirmed,
    Refuted,
    NotExecuted,
}

/// Whether a `.file` path is a toolkit or system header (`<cuda>/include/…`, `/usr/…`):
/// code inlined from one (`atomicAdd`, math functions) is reported at the line that called it.
pub fn is_system_file(path: &str) -> bool {
    path.starts_with('<') || path.contains("/include/") || path.starts_with("/usr/")
}

/// A position in a CUDA (or other high-level) source file, from PTX `.loc`. Lines and columns
/// are 1-based; column 0 means unknown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceLocation {
    /// The file as the `.file` directive names it (repository-relative for the corpus).
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// A position in the PTX text (1-based line and column) and the instruction found there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PtxLocation {
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// The instruction text, e.g. `ld.global.f32 %f1, [%rd6];`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction: Option<String>,
}

impl fmt::Display for PtxLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Where a finding is: the CUDA position when the PTX has `.loc` lines, the PTX instruction
/// always (when known), and the call sites the code was inlined into, innermost first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Location {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda: Option<SourceLocation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptx: Option<PtxLocation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inlined_at: Vec<SourceLocation>,
    /// The instruction's own line when `cuda` was moved to the call site of header code
    /// (`curand_kernel.h:814` for a store `cuda` places at the user's call): where Nsight
    /// Compute attributes the instruction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<SourceLocation>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.cuda, &self.ptx) {
            (Some(c), _) => write!(f, "{c}"),
            (None, Some(p)) => write!(f, "{p}"),
            (None, None) => f.write_str("<unknown>"),
        }
    }
}

/// The unit of a [`Measure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    /// A fraction in `[0, 1]` (divergence ratio, SIMT efficiency).
    Ratio,
    /// 32-byte sectors per warp request.
    Sectors,
    /// 128-byte cache lines per warp request.
    Lines,
    /// Memory requests per warp (GPUCheck's Figure 10 count).
    Requests,
    /// N-way bank conflict degree.
    Ways,
    /// Shared-memory wavefronts per request.
    Wavefronts,
    Warps,
    Lanes,
    Bytes,
    /// A plain count (visits, instructions).
    Count,
    Seconds,
}

impl Unit {
    pub const fn as_str(self) -> &'static str {
        match self {
            Unit::Ratio => "ratio",
            Unit::Sectors => "sectors",
            Unit::Lines => "lines",
            Unit::Requests => "requests",
            Unit::Ways => "ways",
            Unit::Wavefronts => "wavefronts",
            Unit::Warps => "warps",
            Unit::Lanes => "lanes",
            Unit::Bytes => "bytes",
            Unit::Count => "count",
            Unit::Seconds => "seconds",
        }
    }
}

/// A measured or derived quantity as a range `[min, max]` (equal bounds for an exact value),
/// with the ideal value where one exists (e.g. 4 sectors for 32 lanes reading 4 bytes each).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub min: f64,
    pub max: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ideal: Option<f64>,
    pub unit: Unit,
}

impl Measure {
    /// An exact value.
    pub fn exact(v: f64, unit: Unit) -> Measure {
        Measure {
            min: v,
            max: v,
            ideal: None,
            unit,
        }
    }

    /// A range.
    pub fn range(min: f64, max: f64, unit: Unit) -> Measure {
        Measure {
            min,
            max,
            ideal: None,
            unit,
        }
    }

    /// The same measure with an ideal value.
    pub fn with_ideal(mut self, ideal: f64) -> Measure {
        self.ideal = Some(ideal);
        self
    }

    /// Widens `self` to cover `other` (same unit assumed).
    pub fn merge(&mut self, other: &Measure) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.ideal = match (self.ideal, other.ideal) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = |v: f64| {
            if v.fract() == 0.0 && v.abs() < 1e15 {
                format!("{}", v as i64)
            } else {
                format!("{v:.3}")
            }
        };
        if self.min == self.max {
            write!(f, "{}", num(self.min))?;
        } else {
            write!(f, "[{}, {}]", num(self.min), num(self.max))?;
        }
        write!(f, " {}", self.unit.as_str())?;
        if let Some(i) = self.ideal {
            write!(f, " (ideal {})", num(i))?;
        }
        Ok(())
    }
}

/// Named measures of one finding, in name order. Names are snake_case and stable
/// (`divergence_ratio`, `sectors_per_request`, `lines_per_request`, `gpucheck_requests`,
/// `conflict_ways`, `wavefronts`, ...); the dynamic profiler adds its own
/// (`divergent_visits`, `simt_efficiency`, ...).
pub type Measures = BTreeMap<String, Measure>;

/// One link of a provenance chain: why a value is thread-dependent, or how the analysis
/// reached its verdict. Chains run from the finding back to the source of dependence.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptx: Option<PtxLocation>,
}

/// An estimate of what fixing a finding would save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gain {
    /// What is saved (e.g. `excess_sectors_per_request`, `idle_lane_fraction`).
    pub metric: String,
    pub value: f64,
    pub unit: Unit,
}

/// One SIMT performance bug found by any warpscope mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: Rule,
    pub certainty: Certainty,
    /// Static analysis or a run.
    pub source: Origin,
    /// The kernel (PTX entry) the finding is in, demangled when possible.
    pub kernel: String,
    /// The function holding the instruction when it is not the kernel itself (a device
    /// function analysed in the kernel's calling context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// One-sentence summary, e.g. "branch diverges in 1 of 8 warps per block".
    pub message: String,
    pub location: Location,
    /// Other instructions folded into this finding (e.g. several loads on one source line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Location>,
    #[serde(default)]
    pub measures: Measures,
    /// Why: from the finding back to the source of thread dependence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provenance: Vec<Step>,
    /// How to fix it, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_gain: Option<Gain>,
    /// Extra context (launch geometry used, assumptions, caveats).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Set by `check --confirm`: what a run said about this static finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// A sub-kind of the rule that renderers may treat apart: `boundary` for a boundary
    /// check (`if (i < n)`) that diverges in at most the last warp; `exit` for a branch ptxas
    /// lowers to a predicated exit and `predicated` for one it if-converts (lanes split, but
    /// no divergent branch executes). The text report only counts those unless asked; JSON
    /// and SARIF always carry them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Set on a `possible` finding that rests only on a guess the analysis made for a value
    /// it was not told (an unknown pitch read as padded, a block shape tried, lanes an
    /// unknown condition may switch off): what it rests on and what settles it. Such a
    /// finding is a caveat to check, not a likely problem; reports rank it after the others
    /// ([`Finding::rank`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

impl Finding {
    /// A finding with the required fields and everything else empty.
    pub fn new(
        rule: Rule,
        certainty: Certainty,
        kernel: impl Into<String>,
        message: impl Into<String>,
        location: Location,
    ) -> Finding {
        Finding {
            rule,
            certainty,
            source: Origin::Static,
            kernel: kernel.into(),
            function: None,
            message: message.into(),
            location,
            related: Vec::new(),
            measures: Measures::new(),
            provenance: Vec::new(),
            fix: None,
            estimated_gain: None,
            notes: Vec::new(),
            verdict: None,
            kind: None,
            caveat: None,
        }
    }

    /// Whether this is a boundary check (`kind = "boundary"`).
    pub fn is_boundary(&self) -> bool {
        self.kind.as_deref() == Some("boundary")
    }

    /// Whether this is the slow path ptxas adds to an IEEE-rounded division or square root
    /// (`kind = "slow-path"`): a branch of the SASS, not of the source.
    pub fn is_slow_path(&self) -> bool {
        self.kind.as_deref() == Some("slow-path")
    }

    /// Whether this is a branch ptxas adds that the PTX does not show: an IEEE division's or
    /// square root's slow path, or the compare-and-swap retry loop of a floating-point atomic
    /// add on shared memory (`kind = "atomic-retry"`).
    pub fn is_sass_branch(&self) -> bool {
        matches!(self.kind.as_deref(), Some("slow-path" | "atomic-retry"))
    }

    /// Whether the text report counts this finding instead of listing it: a boundary check,
    /// or a branch that splits lanes without a divergent branch on the hardware (`exit`: a
    /// predicated exit; `predicated`: an if-converted body).
    pub fn is_tallied(&self) -> bool {
        matches!(
            self.kind.as_deref(),
            Some("boundary" | "exit" | "predicated")
        )
    }

    /// Sort key: file, line, column, rule.
    pub fn sort_key(&self) -> (Rank, Option<&SourceLocation>, Option<&PtxLocation>, Rule) {
        (
            self.rank(),
            self.location.cuda.as_ref(),
            self.location.ptx.as_ref(),
            self.rule,
        )
    }

    /// How much a reader should weigh the finding: reports list findings by rank, then by
    /// place.
    pub fn rank(&self) -> Rank {
        if self.is_tallied() {
            Rank::Note
        } else if self.certainty == Certainty::Definite {
            Rank::Proven
        } else if self.caveat.is_some() {
            Rank::Caveat
        } else {
            Rank::Likely
        }
    }
}

/// The order in which reports list findings: what the analysis proved, then what points at
/// a problem without proof (data-dependent addresses and branches, unknown strides), then
/// caveats that rest only on a guess (a value it was not told, data holding NaN, infinite or
/// huge values), then the notes that the text report only counts (boundary checks,
/// predicated exits and bodies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// `definite`: holds for the assumed geometry and parameters whatever the data.
    Proven,
    /// `possible`, with evidence of its own: depends on data, or on an unknown that scatters
    /// lanes.
    Likely,
    /// `possible`, resting only on a guess ([`Finding::caveat`]).
    Caveat,
    /// A `divergent-branch` note of kind `boundary`, `exit` or `predicated`.
    Note,
}

impl Rank {
    /// SARIF's `result.rank` (0 to 100: priority of the result).
    pub fn sarif(self) -> f64 {
        match self {
            Rank::Proven => 90.0,
            Rank::Likely => 60.0,
            Rank::Caveat => 20.0,
            Rank::Note => 5.0,
        }
    }
}

/// Per-kernel context shown with the findings (launch geometry used and where it came from).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelInfo {
    /// Display name (demangled base name where possible).
    pub name: String,
    /// PTX (mangled) name.
    pub ptx_name: String,
    /// e.g. `block 256x1x1 (default: GPUCheck's), grid unknown`.
    pub geometry: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What a run of a warpscope mode hands to the renderers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The input files analysed or run.
    pub inputs: Vec<String>,
    pub kernels: Vec<KernelInfo>,
    pub findings: Vec<Finding>,
}

impl Report {
    /// Sorts findings by location and rule.
    pub fn sort(&mut self) {
        self.findings
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }

    /// Number of findings of `rule`.
    pub fn count(&self, rule: Rule) -> usize {
        self.findings.iter().filter(|f| f.rule == rule).count()
    }
}

/// Tool name and version, as renderers print them.
pub const TOOL_NAME: &str = "warpscope";
/// This crate's version (the workspace version).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_round_trip() {
        for r in Rule::ALL {
            assert_eq!(Rule::from_id(r.id()), Some(r));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.id()));
        }
        assert_eq!(Rule::from_id("nope"), None);
    }

    #[test]
    fn certainty_orders_possible_below_definite() {
        assert!(Certainty::Possible < Certainty::Definite);
        assert_eq!(Certainty::parse("definite"), Some(Certainty::Definite));
    }

    #[test]
    fn measure_display_and_merge() {
        let mut m = Measure::exact(5.0, Unit::Sectors).with_ideal(4.0);
        assert_eq!(m.to_string(), "5 sectors (ideal 4)");
        m.merge(&Measure::exact(6.0, Unit::Sectors));
        assert_eq!(m.to_string(), "[5, 6] sectors (ideal 4)");
        assert_eq!(
            Measure::exact(0.125, Unit::Ratio).to_string(),
            "0.125 ratio"
        );
    }
}
