//! `warpscope check FILE --confirm SPEC`: what a run says about static findings.
//!
//! Each static finding is matched to the instructions it names (by PTX line when it has one,
//! else by CUDA file name and line) in the profile of the run, and marked:
//!
//! * **confirmed** — the run shows the waste the rule describes at that place
//!   (divergent-branch: δ > 0; uncoalesced-access: excess sectors from stride or scatter;
//!   misaligned-access: excess sectors from misalignment; bank-conflict: excess wavefronts);
//! * **refuted** — the place was executed (for memory rules: made requests of that space)
//!   without that waste;
//! * **not executed** — the run never reached it (or never launched its kernel).
//!
//! The run's own findings that no static finding of the same rule covers are returned as
//! *missed*.

use std::collections::BTreeSet;
use warpscope_report::{Finding, Rule, Verdict};

use crate::model::{Counters, InstProfile, Profile, basename};

/// Static findings with verdicts, and what static analysis missed.
#[derive(Clone, Debug, Default)]
pub struct Confirmation {
    /// The static findings, each with its `verdict` set and a note saying what was measured.
    pub findings: Vec<Finding>,
    /// Dynamic findings with no static finding of the same rule at the same place.
    pub missed: Vec<Finding>,
}

impl Confirmation {
    pub fn count(&self, v: Verdict) -> usize {
        self.findings
            .iter()
            .filter(|f| f.verdict == Some(v))
            .count()
    }
}

/// Where a finding or an instruction is, for matching.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    Ptx(u32),
    Cuda(String, u32),
}

fn places_of_finding(f: &Finding) -> Vec<Place> {
    let mut v = Vec::new();
    if let Some(p) = &f.location.ptx {
        v.push(Place::Ptx(p.line));
    }
    if let Some(c) = &f.location.cuda {
        v.push(Place::Cuda(basename(&c.file).to_string(), c.line));
    }
    v
}

fn matches(i: &InstProfile, place: &Place) -> bool {
    match place {
        Place::Ptx(l) => i.ptx_line == *l,
        Place::Cuda(f, l) => {
            let at = |file: Option<&str>, line: u32| {
                line == *l && file.is_some_and(|x| basename(x) == f)
            };
            at(i.file.as_deref(), i.line)
                || i.inlined_at
                    .as_ref()
                    .is_some_and(|c| at(c.file.as_deref(), c.line))
        }
    }
}

/// Base name of a kernel as the analyses print it: without parameters.
fn base(name: &str) -> &str {
    name.split('(').next().unwrap_or(name).trim()
}

/// Counters of each of the profile's instructions at the finding's place, in its kernel.
/// `Err` when the kernel was never launched.
fn measured(f: &Finding, profile: &Profile) -> Result<Vec<Counters>, String> {
    let kernels: Vec<_> = profile
        .kernels
        .iter()
        .filter(|k| {
            k.name == f.kernel || k.ptx_name == f.kernel || base(&k.name) == base(&f.kernel)
        })
        .collect();
    if kernels.is_empty() {
        let launched = profile
            .launches
            .iter()
            .any(|l| l.kernel == f.kernel || base(&l.kernel) == base(&f.kernel));
        return Err(if launched {
            format!(
                "`{}` was launched, but not in the profiled launches",
                f.kernel
            )
        } else {
            format!("the run never launched `{}`", f.kernel)
        });
    }
    // The most precise place that matches anything wins.
    for place in places_of_finding(f) {
        let hits: Vec<Counters> = kernels
            .iter()
            .flat_map(|k| k.instructions.iter())
            .filter(|i| matches(i, &place))
            .map(|i| i.counters)
            .collect();
        if !hits.is_empty() {
            return Ok(hits);
        }
    }
    Ok(Vec::new())
}

fn total(cs: &[Counters]) -> Counters {
    let mut t = Counters::default();
    for c in cs {
        t.merge(c);
    }
    t
}

/// The verdict on one static finding and a note with the numbers behind it.
pub fn verdict(f: &Finding, profile: &Profile) -> (Verdict, String) {
    let insts = match measured(f, profile) {
        Ok(v) => v,
        Err(why) => return (Verdict::NotExecuted, why),
    };
    let c = total(&insts);
    match f.rule {
        Rule::CacheInterference | Rule::CacheCapacity | Rule::CacheReuseWithinThread => (
            Verdict::NotExecuted,
            "cache findings come from `warpscope cache`, not from a profile".into(),
        ),
        Rule::DivergentConstant => (
            Verdict::NotExecuted,
            "the profile does not count constant-cache passes".into(),
        ),
        Rule::DivergentBranch => {
            if c.instructions == 0 && c.branch_visits == 0 {
                (
                    Verdict::NotExecuted,
                    "the run never executed this branch".into(),
                )
            } else if c.divergent_branches > 0 {
                (
                    Verdict::Confirmed,
                    format!(
                        "run: diverged in {} of {} warp visits",
                        c.divergent_branches, c.branch_visits
                    ),
                )
            } else {
                (
                    Verdict::Refuted,
                    format!("run: {} warp visits, none divergent", c.branch_visits),
                )
            }
        }
        Rule::UncoalescedAccess | Rule::MisalignedAccess => {
            let g = &c.global;
            if g.requests == 0 {
                return (
                    Verdict::NotExecuted,
                    "the run made no global request here".into(),
                );
            }
            let numbers = format!(
                "run: {:.2} sectors per request for {:.2} ideal over {} requests ({} excess: {} misaligned, {} stride/scatter)",
                g.per_request(g.sectors),
                g.per_request(g.ideal_sectors),
                g.requests,
                g.excess_sectors(),
                g.misaligned_sectors,
                g.strided_sectors()
            );
            // Confirmed when some instruction here shows this cause as its main one.
            let shown = insts.iter().any(|i| {
                let g = &i.global;
                g.excess_sectors() > 0
                    && (f.rule == Rule::MisalignedAccess) == g.mostly_misaligned()
            });
            (
                if shown {
                    Verdict::Confirmed
                } else {
                    Verdict::Refuted
                },
                numbers,
            )
        }
        Rule::BankConflict => {
            let s = &c.shared;
            if s.requests == 0 {
                return (
                    Verdict::NotExecuted,
                    "the run made no shared request here".into(),
                );
            }
            let numbers = format!(
                "run: {:.2} wavefronts per request for {:.2} ideal over {} requests (worst {}-way)",
                s.wavefronts as f64 / s.requests as f64,
                s.ideal_wavefronts as f64 / s.requests as f64,
                s.requests,
                s.ways_max
            );
            (
                if s.excess_wavefronts() > 0 {
                    Verdict::Confirmed
                } else {
                    Verdict::Refuted
                },
                numbers,
            )
        }
    }
}

/// Marks `static_findings` against the run's `profile` and lists what the run found that
/// they do not cover. Both must come from the same PTX (their PTX lines are compared); see
/// [`confirm_by_cuda_line`] otherwise.
pub fn confirm(static_findings: &[Finding], profile: &Profile) -> Confirmation {
    confirm_with(static_findings, profile, true)
}

/// [`confirm`] for static findings made on other PTX than the run's (the same CUDA source
/// compiled apart): places are matched by CUDA file name and line only.
pub fn confirm_by_cuda_line(static_findings: &[Finding], profile: &Profile) -> Confirmation {
    confirm_with(static_findings, profile, false)
}

fn confirm_with(static_findings: &[Finding], profile: &Profile, same_ptx: bool) -> Confirmation {
    let places = |f: &Finding| -> Vec<Place> {
        places_of_finding(f)
            .into_iter()
            .filter(|p| same_ptx || matches!(p, Place::Cuda(..)))
            .collect()
    };
    let mut out = Confirmation::default();
    let mut covered: BTreeSet<(Rule, Place)> = BTreeSet::new();
    for f in static_findings {
        let mut f = f.clone();
        let mut probe = f.clone();
        if !same_ptx {
            probe.location.ptx = None;
        }
        let (v, note) = verdict(&probe, profile);
        f.verdict = Some(v);
        f.notes.push(note);
        for p in places(&f) {
            covered.insert((f.rule, p));
        }
        out.findings.push(f);
    }
    for d in crate::findings::findings(profile) {
        let hit = places(&d)
            .into_iter()
            .any(|p| covered.contains(&(d.rule, p)));
        if !hit {
            out.missed.push(d);
        }
    }
    out
}
