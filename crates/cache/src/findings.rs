//! The cache report as [`warpscope_report::Finding`]s, so `warpscope cache --format
//! sarif|json` shares rule ids and renderers with `check` and `profile`.
//!
//! One finding per root cause of the first configuration (the one the text report details),
//! at the root cause's location:
//!
//! | rule | GRAB fault type |
//! |---|---|
//! | `cache-interference` | `mh`: the miss would have hit a private cache; the L1 had room |
//! | `cache-capacity` | `m*h`: the same, with the L1 full |
//! | `cache-reuse-within-thread` | `mm` with a root cause: a private cache would have missed too (not interference) |
//!
//! The measures are the misses caused (GRAB's priority), the rank, the blocks and the
//! affected lines; `related` lists the effects' locations; the fix and the estimated gain
//! (misses removed) come from [`crate::model::RootCause`].

use warpscope_report::{
    Certainty, Finding, Gain, KernelInfo, Location, Measure, Origin, PtxLocation, Report, Rule,
    SourceLocation, Step, Unit,
};

use crate::grab::Fault;
use crate::model::{CacheReport, ConfigReport, Place};

/// The rule of a fault type's root causes.
pub fn rule(f: Fault) -> Rule {
    match f {
        Fault::Mh => Rule::CacheInterference,
        Fault::MStarH => Rule::CacheCapacity,
        Fault::Mm => Rule::CacheReuseWithinThread,
    }
}

fn location(report: &CacheReport, p: &Place) -> Location {
    Location {
        cuda: p
            .file
            .as_ref()
            .filter(|_| p.line > 0)
            .map(|f| SourceLocation {
                file: f.clone(),
                line: p.line,
                col: 0,
            }),
        ptx: (p.ptx_line > 0).then(|| PtxLocation {
            file: report.module.clone(),
            line: p.ptx_line,
            col: 1,
            instruction: Some(p.instruction.clone()),
        }),
        inlined_at: Vec::new(),
        origin: None,
    }
}

/// The findings of one configuration.
pub fn config_findings(report: &CacheReport, c: &ConfigReport) -> Vec<Finding> {
    let mut out = Vec::new();
    for k in &c.kernels {
        let geo =
            k.l1.first()
                .map(|g| g.to_string())
                .unwrap_or_else(|| "?".into());
        for fr in &k.faults {
            for r in &fr.root_causes {
                let places = format!(
                    "{} place{}",
                    r.effects.len(),
                    if r.effects.len() == 1 { "" } else { "s" }
                );
                let message = match fr.fault {
                    Fault::Mh => format!(
                        "root cause #{} of {} interference misses (mh): its loads evict lines \
                         that other threads read again at {places}",
                        r.rank, r.priority
                    ),
                    Fault::MStarH => format!(
                        "root cause #{} of {} capacity misses (m*h) in a full L1: other threads \
                         lose lines they read again at {places}",
                        r.rank, r.priority
                    ),
                    Fault::Mm => format!(
                        "root cause #{} of {} misses without inter-thread interference (mm) at \
                         {places}",
                        r.rank, r.priority
                    ),
                };
                let mut f = Finding::new(
                    rule(fr.fault),
                    Certainty::Definite,
                    k.name.clone(),
                    message,
                    location(report, &r.at),
                );
                f.source = Origin::Dynamic;
                f.related = r.effects.iter().map(|e| location(report, &e.at)).collect();
                let m = &mut f.measures;
                m.insert(
                    "misses_caused".into(),
                    Measure::exact(r.priority as f64, Unit::Count),
                );
                m.insert(
                    "rank".into(),
                    Measure::exact(f64::from(r.rank), Unit::Count),
                );
                m.insert(
                    "blocks".into(),
                    Measure::exact(r.distinct_blocks as f64, Unit::Count),
                );
                m.insert(
                    "affected_lines".into(),
                    Measure::exact(r.effects.len() as f64, Unit::Count),
                );
                m.insert(
                    "rereads".into(),
                    Measure::exact(r.rereads as f64, Unit::Count),
                );
                m.insert(
                    "same_value_rereads".into(),
                    Measure::exact(r.same_value as f64, Unit::Count),
                );
                for e in &r.effects {
                    f.provenance.push(Step {
                        message: format!(
                            "{} {} miss{} here (blocks {})",
                            e.misses,
                            fr.fault.name(),
                            if e.misses == 1 { "" } else { "es" },
                            e.blocks.join(", ")
                        ),
                        location: location(report, &e.at).cuda,
                        ptx: location(report, &e.at).ptx,
                    });
                }
                f.fix = Some(format!("{}: {}", r.fix.short(), r.advice));
                f.estimated_gain = Some(Gain {
                    metric: "l1_misses_removed".into(),
                    value: r.estimated_gain_misses as f64,
                    unit: Unit::Count,
                });
                f.notes.push(format!(
                    "measured on {} with scheduler {}, L1 {}",
                    report.spec, c.scheduler, geo
                ));
                if !r.blocks.is_empty() {
                    f.notes.push(format!(
                        "root-cause blocks (most blamed first): {}",
                        r.blocks.join(", ")
                    ));
                }
                out.push(f);
            }
        }
    }
    out
}

/// The report of the first configuration, for the report crate's renderers.
pub fn report(r: &CacheReport) -> Report {
    let mut rep = Report {
        inputs: vec![r.spec.clone()],
        kernels: Vec::new(),
        findings: Vec::new(),
    };
    if let Some(c) = r.configs.first() {
        rep.findings = config_findings(r, c);
        for k in &c.kernels {
            rep.kernels.push(KernelInfo {
                name: k.name.clone(),
                ptx_name: k.ptx_name.clone(),
                geometry: format!(
                    "{} launch{}, scheduler {}, L1 {}",
                    k.launches,
                    if k.launches == 1 { "" } else { "es" },
                    c.scheduler,
                    k.l1.first().map(|g| g.to_string()).unwrap_or_default()
                ),
                notes: Vec::new(),
            });
        }
    }
    rep.sort();
    rep
}
