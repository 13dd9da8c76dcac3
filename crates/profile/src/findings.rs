//! Findings from a profile, in the report crate's one [`Finding`] type (origin
//! [`Origin::Dynamic`]), so `warpscope profile --format sarif` uses the same rule ids and
//! renderers as `warpscope check`.
//!
//! One finding per instruction that wasted work on this run:
//!
//! | rule | when |
//! |---|---|
//! | `divergent-branch` | a conditional branch diverged at least once (δ > 0) |
//! | `uncoalesced-access` | a global access needed more sectors than its bytes, mostly from stride or scatter |
//! | `misaligned-access` | a global access's excess comes at least half from dense runs starting mid-sector |
//! | `bank-conflict` | a shared access needed more wavefronts than ideal |
//!
//! Findings are measured facts about one run, so their certainty is `definite`; they are
//! ranked by the waste they caused (see [`waste`]).

use warpscope_report::{
    Certainty, Finding, Gain, KernelInfo, Location, Measure, Origin, PtxLocation, Report, Rule,
    SourceLocation, Unit,
};

use crate::model::{InstProfile, KernelProfile, Profile};

/// What a finding cost on this run, in a unit comparable within a rule: divergent visits ×
/// idle lanes for branches, excess sectors, excess wavefronts.
pub fn waste(f: &Finding) -> f64 {
    let m = |n: &str| f.measures.get(n).map(|m| m.max).unwrap_or(0.0);
    match f.rule {
        Rule::DivergentBranch => m("divergent_visits"),
        Rule::UncoalescedAccess | Rule::MisalignedAccess => m("excess_sectors"),
        Rule::BankConflict => m("excess_wavefronts"),
        Rule::DivergentConstant => m("constant_addresses"),
        Rule::CacheInterference | Rule::CacheCapacity | Rule::CacheReuseWithinThread => {
            m("misses_caused")
        }
    }
}

/// The location of an instruction of a profile.
///
/// As in `check`, code inlined from a CUDA or system header (`atomicAdd`) is placed at the line
/// that called it, with that call site in `inlined_at` and its own header line in `origin`.
pub fn location(profile: &Profile, i: &InstProfile) -> Location {
    let site = i.inlined_at.as_ref().and_then(|c| {
        Some(SourceLocation {
            file: c.file.clone()?,
            line: c.line,
            col: 0,
        })
    });
    let cuda = i.shown_at().map(|(file, line, col)| SourceLocation {
        file: file.to_string(),
        line,
        col,
    });
    Location {
        cuda,
        ptx: (i.ptx_line > 0).then(|| PtxLocation {
            file: profile.module.clone(),
            line: i.ptx_line,
            col: i.ptx_col,
            instruction: Some(i.text.clone()),
        }),
        inlined_at: site.into_iter().collect(),
        origin: i.origin().map(|(file, line, col)| SourceLocation {
            file: file.to_string(),
            line,
            col,
        }),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn f2(x: f64) -> String {
    format!("{x:.2}")
}

/// The findings of one instruction.
pub fn instruction_findings(profile: &Profile, k: &KernelProfile, i: &InstProfile) -> Vec<Finding> {
    let mut out = Vec::new();
    let c = &i.counters;
    let loc = location(profile, i);
    let function = (i.function != k.ptx_name).then(|| crate::model::display_name(&i.function));
    let note = format!(
        "measured on {} ({} launch{} of `{}`)",
        profile.spec,
        k.launches,
        if k.launches == 1 { "" } else { "es" },
        k.name
    );
    let new = |rule: Rule, message: String| {
        let mut f = Finding::new(
            rule,
            Certainty::Definite,
            k.name.clone(),
            message,
            loc.clone(),
        );
        f.source = Origin::Dynamic;
        f.function = function.clone();
        f.notes.push(note.clone());
        f
    };
    if c.divergent_branches > 0 {
        let ratio = c.divergent_branches as f64 / c.branch_visits as f64;
        let mut f = new(
            Rule::DivergentBranch,
            format!(
                "branch diverged in {} of {} warp visits ({})",
                c.divergent_branches,
                c.branch_visits,
                pct(ratio)
            ),
        );
        f.measures.insert(
            "divergent_visits".into(),
            Measure::exact(c.divergent_branches as f64, Unit::Count),
        );
        f.measures.insert(
            "branch_visits".into(),
            Measure::exact(c.branch_visits as f64, Unit::Count),
        );
        f.measures.insert(
            "divergence_ratio".into(),
            Measure::exact(ratio, Unit::Ratio),
        );
        if c.branch_visits > 0 {
            f.measures.insert(
                "taken_lanes_per_visit".into(),
                Measure::exact(
                    c.branch_taken_lanes as f64 / c.branch_visits as f64,
                    Unit::Lanes,
                ),
            );
            f.measures.insert(
                "active_lanes_per_visit".into(),
                Measure::exact(
                    c.branch_active_lanes as f64 / c.branch_visits as f64,
                    Unit::Lanes,
                ),
            );
        }
        f.fix = Some(
            "make the condition uniform across each warp (map work so whole warps agree), or \
             compute both sides and select"
                .into(),
        );
        f.estimated_gain = Some(Gain {
            metric: "divergent_visits".into(),
            value: c.divergent_branches as f64,
            unit: Unit::Count,
        });
        out.push(f);
    }
    let g = &c.global;
    if g.requests > 0 && g.excess_sectors() > 0 {
        // The main cause names the rule: misalignment when dense runs starting mid-sector
        // explain at least half of the excess.
        let rule = if g.mostly_misaligned() {
            Rule::MisalignedAccess
        } else {
            Rule::UncoalescedAccess
        };
        let spr = g.per_request(g.sectors);
        let ideal = g.per_request(g.ideal_sectors);
        let message = match rule {
            Rule::MisalignedAccess => format!(
                "dense access starts mid-sector: {} sectors per request where {} would do",
                f2(spr),
                f2(ideal)
            ),
            _ => format!(
                "{} sectors per request where {} would do ({}x); {} of {} sectors are excess",
                f2(spr),
                f2(ideal),
                f2(if ideal > 0.0 { spr / ideal } else { 0.0 }),
                g.excess_sectors(),
                g.sectors
            ),
        };
        let mut f = new(rule, message);
        f.measures.insert(
            "sectors_per_request".into(),
            Measure::range(g.sectors_min as f64, g.sectors_max as f64, Unit::Sectors)
                .with_ideal(ideal),
        );
        f.measures.insert(
            "mean_sectors_per_request".into(),
            Measure::exact(spr, Unit::Sectors).with_ideal(ideal),
        );
        f.measures.insert(
            "lines_per_request".into(),
            Measure::range(g.lines_min as f64, g.lines_max as f64, Unit::Lines),
        );
        f.measures.insert(
            "mean_lines_per_request".into(),
            Measure::exact(g.per_request(g.lines), Unit::Lines),
        );
        f.measures.insert(
            "noalign_lines_per_request".into(),
            Measure::range(
                g.noalign_lines_min as f64,
                g.noalign_lines_max as f64,
                Unit::Lines,
            ),
        );
        f.measures.insert(
            "mean_noalign_sectors_per_request".into(),
            Measure::exact(g.per_request(g.noalign_sectors), Unit::Sectors),
        );
        f.measures.insert(
            "excess_sectors".into(),
            Measure::exact(g.excess_sectors() as f64, Unit::Sectors),
        );
        f.measures.insert(
            "misaligned_sectors".into(),
            Measure::exact(g.misaligned_sectors as f64, Unit::Sectors),
        );
        f.measures.insert(
            "requests".into(),
            Measure::exact(g.requests as f64, Unit::Requests),
        );
        if g.misaligned_sectors > 0 && g.strided_sectors() > 0 {
            f.notes.push(format!(
                "{} of the {} excess sectors come from misalignment, {} from stride or scatter",
                g.misaligned_sectors,
                g.excess_sectors(),
                g.strided_sectors()
            ));
        }
        f.fix = Some(match rule {
            Rule::MisalignedAccess => "pad rows to a multiple of 32 bytes or align the base pointer so warps start on a sector boundary".into(),
            _ => "make consecutive lanes touch consecutive addresses (structure of arrays, threadIdx.x on the fastest-moving index, or a staging copy through shared memory)".into(),
        });
        f.estimated_gain = Some(Gain {
            metric: "excess_sectors".into(),
            value: g.excess_sectors() as f64,
            unit: Unit::Sectors,
        });
        out.push(f);
    }
    let s = &c.shared;
    if s.requests > 0 && s.excess_wavefronts() > 0 {
        let mut f = new(
            Rule::BankConflict,
            format!(
                "{}-way bank conflict: {} wavefronts per request where {} would do",
                s.ways_max,
                f2(s.wavefronts as f64 / s.requests as f64),
                f2(s.ideal_wavefronts as f64 / s.requests as f64)
            ),
        );
        f.measures.insert(
            "conflict_ways".into(),
            Measure::exact(s.ways_max as f64, Unit::Ways),
        );
        f.measures
            .insert("n_way".into(), Measure::exact(s.n_way(), Unit::Ways));
        f.measures.insert(
            "wavefronts_per_request".into(),
            Measure::exact(s.wavefronts as f64 / s.requests as f64, Unit::Wavefronts)
                .with_ideal(s.ideal_wavefronts as f64 / s.requests as f64),
        );
        f.measures.insert(
            "excess_wavefronts".into(),
            Measure::exact(s.excess_wavefronts() as f64, Unit::Wavefronts),
        );
        f.measures.insert(
            "conflicted_requests".into(),
            Measure::exact(s.conflicted_requests as f64, Unit::Requests),
        );
        f.fix = Some("pad the shared array (e.g. 33 columns instead of 32) or change the index so lanes of a warp use different banks".into());
        f.estimated_gain = Some(Gain {
            metric: "excess_wavefronts".into(),
            value: s.excess_wavefronts() as f64,
            unit: Unit::Wavefronts,
        });
        out.push(f);
    }
    out
}

/// All findings of a profile, ranked within each rule by waste (largest first), rules in id
/// order.
pub fn findings(profile: &Profile) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for k in &profile.kernels {
        for i in &k.instructions {
            out.extend(instruction_findings(profile, k, i));
        }
    }
    out.sort_by(|a, b| {
        a.rule
            .cmp(&b.rule)
            .then(waste(b).total_cmp(&waste(a)))
            .then_with(|| a.sort_key().cmp(&b.sort_key()))
    });
    out
}

/// The findings of a profile as a report for the report crate's renderers.
pub fn report(profile: &Profile) -> Report {
    let mut kernels = Vec::new();
    for k in &profile.kernels {
        let geoms: Vec<String> = profile
            .launches
            .iter()
            .filter(|l| l.kernel == k.name && l.profiled)
            .map(|l| {
                format!(
                    "grid {}x{}x{} block {}x{}x{}",
                    l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2]
                )
            })
            .collect();
        let mut uniq = geoms.clone();
        uniq.dedup();
        kernels.push(KernelInfo {
            name: k.name.clone(),
            ptx_name: k.ptx_name.clone(),
            geometry: format!(
                "{} launch{} ({}), from {}",
                k.launches,
                if k.launches == 1 { "" } else { "es" },
                uniq.join(", "),
                profile.spec
            ),
            notes: Vec::new(),
        });
    }
    Report {
        inputs: vec![profile.spec.clone(), profile.module.clone()],
        kernels,
        findings: findings(profile),
    }
}
