//! The findings of global and shared accesses: uncoalesced, misaligned, bank conflicts, with
//! what each rests on.

use super::*;

pub(super) fn access_findings(cx: &Ctx<'_>, a: &AccessResult) -> Vec<Finding> {
    let (func, fa, u) = cx.func(a.site.ctx);
    let cause = u.and_then(|u| u.address_cause(func, fa, a.site.inst));
    let mut out = Vec::new();
    for &(class, proven) in &a.verdicts {
        let certainty = if proven {
            Certainty::Definite
        } else {
            Certainty::Possible
        };
        let size = a.site.size;
        let (rule, message, fix) = match class {
            MemClass::Fine => continue,
            MemClass::Uncoalesced => {
                let g = a.global.clone().unwrap_or_default();
                let msg = if !proven
                    && !a.data_dependent
                    && g.sectors.1 > 0
                    && g.sectors.1 <= g.ideal.1
                {
                    // No lane pattern examined shows an excess: only lanes that a condition
                    // the analysis cannot evaluate switches off could leave holes.
                    format!(
                        "lanes that a condition the analysis cannot evaluate switches off may \
                         leave holes in the warp's request (the lanes examined touch {} sectors, \
                         as their bytes need)",
                        range_text(g.sectors)
                    )
                } else if a.data_dependent && g.sectors.1 == 0 {
                    "addresses depend on loaded data: a warp request may touch up to one sector per lane"
                        .to_string()
                } else if let Some(e) = a.stride_exceptions.as_ref().filter(|_| proven)
                    && g.sectors.1 == 0
                {
                    format!(
                        "lanes are a multiple of a value the analysis was not given apart (a \
                         stride or row length shared by the warp): every value of it but {} \
                         leaves gaps in each warp request, so this is definite unless it is one \
                         of those",
                        value_list(e, "and")
                    )
                } else if a.param_dependent && g.sectors.1 == 0 {
                    "the stride between lanes depends on a parameter: a warp request may touch up to one sector per lane"
                        .to_string()
                } else {
                    match g.stride {
                        Some(s) => format!(
                            "each warp request touches {} sectors where {} would do (lanes {} bytes apart, {}-byte accesses)",
                            range_text(g.sectors),
                            range_text(g.ideal),
                            s,
                            size
                        ),
                        None => format!(
                            "each warp request touches {} sectors where {} would do ({} separate runs)",
                            range_text(g.sectors),
                            range_text(g.ideal),
                            range_text(g.runs)
                        ),
                    }
                };
                let fix = if a.data_dependent {
                    "indirect (data-dependent) addresses scatter the warp's request: sort or bin the \
                     indices so neighbouring lanes touch neighbouring elements, or stage the data \
                     through shared memory"
                        .to_string()
                } else if a.param_dependent && g.stride.is_none() && g.sectors.1 == 0 {
                    "pass the parameter with --assume to measure it; if lanes are more than one \
                     element apart, use a structure of arrays or map threadIdx.x to the \
                     fastest-moving index"
                        .to_string()
                } else {
                    match g.stride {
                        Some(s) if s.unsigned_abs() >= 128 => format!(
                            "threads of a warp walk rows (lanes {s} bytes apart): map threadIdx.x to columns so neighbouring lanes read neighbouring elements"
                        ),
                        Some(s) if s.unsigned_abs() > u64::from(size) => format!(
                            "array of structures, stride {s} bytes: use a structure of arrays so each field is contiguous"
                        ),
                        _ => format!(
                            "each warp covers {} short runs (rows of a narrow block): make the block at least 32 threads wide in x, or map threadIdx.x to the fastest-moving index",
                            range_text(g.runs)
                        ),
                    }
                };
                (Rule::UncoalescedAccess, msg, fix)
            }
            MemClass::Misaligned => {
                let g = a.global.clone().unwrap_or_default();
                let at = match g.misalign {
                    Some(m) => format!("start {m} bytes into a 32-byte sector"),
                    None => "may start mid-sector".to_string(),
                };
                (
                    Rule::MisalignedAccess,
                    format!(
                        "each warp request touches {} sectors where {} would do: the accesses are dense but {at}",
                        range_text(g.sectors),
                        range_text(g.runs_aligned)
                    ),
                    "pad rows to a multiple of 32 bytes, align the base pointer, or shift the index \
                     so each warp starts on a sector boundary"
                        .to_string(),
                )
            }
            MemClass::DivergentConstant => {
                let c = a.constant.clone().unwrap_or_default();
                let msg = if c.addresses.1 > 1 {
                    format!(
                        "lanes of a warp read {} distinct constant-memory addresses: the constant \
                         cache serves one address per pass, so each warp request takes {} \
                         serialized passes where 1 would do",
                        range_text(c.addresses),
                        range_text(c.addresses)
                    )
                } else if a.data_dependent {
                    "the constant-table index is computed from loaded values: lanes of a warp may \
                     read up to one distinct constant-memory address each, one serialized pass \
                     per address (1 when the index is warp-uniform)"
                        .to_string()
                } else {
                    "the constant-memory address varies between lanes by a value the analysis \
                     was not given: lanes of a warp may read up to one distinct address each, one \
                     serialized pass per address"
                        .to_string()
                };
                (
                    Rule::DivergentConstant,
                    msg,
                    "make the index warp-uniform (the same for every lane of a warp), or move the \
                     table to shared memory, or read it from global memory through the read-only \
                     cache (`__ldg` / a `const __restrict__` pointer)"
                        .to_string(),
                )
            }
            MemClass::BankConflict => {
                let s = a.shared.clone().unwrap_or_default();
                let words = s.stride.map(|b| b / 4);
                (
                    Rule::BankConflict,
                    // Only a conflict seen (two ways or more) is worded as one; a warp
                    // examined without conflict, whose addresses elsewhere could not be
                    // evaluated, is the unknown case.
                    if s.ways.1 > 1 {
                        format!(
                            "{}-way bank conflict: a warp request takes {} wavefronts where {} would do",
                            range_text(s.ways),
                            range_text(s.wavefronts),
                            range_text(s.ideal)
                        )
                    } else {
                        "addresses depend on values the analysis cannot see: lanes may share banks"
                            .to_string()
                    },
                    match words {
                        Some(w) if w != 0 && w % 2 == 0 => format!(
                            "lanes are {w} words apart, so several share a bank: pad the shared array (e.g. 33 columns instead of 32) or index so consecutive lanes use consecutive words"
                        ),
                        _ => "pad the shared array (e.g. 33 columns instead of 32) or index so \
                              consecutive lanes use consecutive words"
                            .to_string(),
                    },
                )
            }
        };
        let mut f = Finding::new(
            rule,
            certainty,
            cx.ka.name.clone(),
            message,
            cx.location(func, a.site.inst),
        );
        if a.site.ctx != 0 {
            f.function = Some(names::base_name(&func.name));
        }
        if let Some(g) = &a.global
            && g.sectors.1 > 0
        {
            f.measures.insert(
                "sectors_per_request".into(),
                Measure::range(g.sectors.0 as f64, g.sectors.1 as f64, Unit::Sectors)
                    .with_ideal(g.ideal.1 as f64),
            );
            f.measures.insert(
                "lines_per_request".into(),
                Measure::range(g.lines.0 as f64, g.lines.1 as f64, Unit::Lines),
            );
            f.estimated_gain = Some(Gain {
                metric: "excess_sectors_per_request".into(),
                value: (g.sectors.1.saturating_sub(g.ideal.1)) as f64,
                unit: Unit::Sectors,
            });
        }
        if let Some(g) = &a.global
            && g.requests.1 > 0
        {
            f.measures.insert(
                "gpucheck_requests".into(),
                Measure::range(g.requests.0 as f64, g.requests.1 as f64, Unit::Requests),
            );
        }
        if let Some(s) = &a.shared
            && s.ways.1 > 0
        {
            f.measures.insert(
                "conflict_ways".into(),
                Measure::range(s.ways.0 as f64, s.ways.1 as f64, Unit::Ways).with_ideal(1.0),
            );
            f.measures.insert(
                "wavefronts".into(),
                Measure::range(
                    s.wavefronts.0 as f64,
                    s.wavefronts.1 as f64,
                    Unit::Wavefronts,
                )
                .with_ideal(s.ideal.1 as f64),
            );
            f.estimated_gain = Some(Gain {
                metric: "excess_wavefronts_per_request".into(),
                value: s.wavefronts.1.saturating_sub(s.ideal.1) as f64,
                unit: Unit::Wavefronts,
            });
        }
        if let Some(c) = &a.constant
            && c.addresses.1 > 0
        {
            f.measures.insert(
                "constant_addresses".into(),
                Measure::range(c.addresses.0 as f64, c.addresses.1 as f64, Unit::Count)
                    .with_ideal(1.0),
            );
            f.estimated_gain = Some(Gain {
                metric: "excess_constant_passes_per_request".into(),
                value: c.addresses.1.saturating_sub(1) as f64,
                unit: Unit::Count,
            });
        }
        let (steps, summary) = cx.provenance(a.site.ctx, cause, "address:");
        f.provenance = steps;
        if !summary.is_empty() && (a.data_dependent || a.param_dependent) {
            f.message = format!("{} ({summary})", f.message);
        }
        f.notes
            .push(format!("address (ACF): {}", cx.ka.expr(a.site.addr)));
        if a.budget_spent {
            f.notes.push(BUDGET_NOTE.to_string());
        }
        // A verdict one row proves alone does not rest on the padded reading.
        let row_proof = proven && a.row_alone && rule == Rule::UncoalescedAccess;
        if a.pitch_read && !row_proof {
            f.notes.push(PITCH_NOTE.to_string());
        }
        if row_proof {
            f.notes.push(
                "one row of the warp (lanes sharing the unknown pitch's multiple) alone touches \
                 more sectors than the whole request's bytes need, wherever it starts: the \
                 verdict holds whatever the pitch is; the sector counts are those of the padded \
                 reading"
                    .to_string(),
            );
        }
        if proven && a.min_lanes > 0 && rule == Rule::UncoalescedAccess {
            f.notes.push(format!(
                "assumption: at least {} lanes of a warp run it (a condition on loaded data \
                 decides which do); any {} of the lanes that may touch more sectors than their \
                 bytes need, wherever the warp starts",
                a.min_lanes, a.min_lanes
            ));
        }
        if let Some(e) = a.stride_exceptions.as_ref().filter(|_| proven)
            && rule == Rule::UncoalescedAccess
        {
            f.notes.push(format!(
                "assumption: the unknown the lanes' stride is a multiple of is not {} (every \
                 other value was tried: -40 to 40 and larger ones, both signs); pass it with \
                 --assume to measure the exact cost",
                value_list(e, "or")
            ));
        }
        if !proven {
            f.caveat = memory_caveat(rule, a, &cx.ka.expr(a.site.addr)).or_else(|| {
                crate::special_value::rare_side_of(func, fa, a.site.inst).map(|t| t.caveat_inside())
            });
        }
        let active = cx.ka.expr(a.site.active);
        if active != "1" {
            f.notes.push(format!("executed when (ACF): {active}"));
        }
        f.fix = Some(fix);
        out.push(f);
    }
    out
}

/// What a `possible` memory finding rests on when that is only a guess about a value the
/// analysis was not told (`None` when it has evidence of its own: loaded addresses, a stride
/// that scatters the lanes, an excess in the lanes examined).
fn memory_caveat(rule: Rule, a: &AccessResult, address: &str) -> Option<String> {
    let g = a.global.as_ref()?;
    let from_data = a.data_dependent || address.contains("load[");
    match rule {
        // The start offset comes from the pitch reading, not from data.
        Rule::MisalignedAccess if a.pitch_read && !from_data => Some(
            "rests on reading an unknown integer parameter as a padded row pitch; where rows \
             are not a multiple of 32 bytes apart, or the base pointer is offset, the accesses \
             may be aligned or misaligned otherwise: --assume NAME=VALUE measures it"
                .to_string(),
        ),
        // No start offset measured: an unknown scalar moves it.
        Rule::MisalignedAccess if g.misalign.is_none() && !from_data => Some(
            "rests on an offset the analysis was not told (an unknown parameter scales or \
             shifts the start): the accesses are misaligned only for some of its values; \
             --assume NAME=VALUE measures it"
                .to_string(),
        ),
        Rule::UncoalescedAccess if !from_data && g.sectors.1 > 0 && g.sectors.1 <= g.ideal.1 => {
            Some(
                "rests on lanes a condition the analysis cannot evaluate (an unrolled loop's \
                 remainder, a loop-carried value) may switch off; every lane pattern it \
                 examined is dense"
                    .to_string(),
            )
        }
        _ => None,
    }
}

fn range_text(r: (u32, u32)) -> String {
    if r.0 == r.1 {
        r.0.to_string()
    } else {
        format!("{}-{}", r.0, r.1)
    }
}

/// `[-1, 0, 1]` as "0 and ±1" (`and`) or "0 or ±1" (`or`), `[-2, -1, 0]` as "-2, -1 and 0":
/// values of an unknown a finding assumes it does not take.
fn value_list(v: &[i64], conj: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for &x in v {
        if x < 0 && v.contains(&-x) {
            continue;
        }
        words.push(if x > 0 && v.contains(&-x) {
            format!("±{x}")
        } else {
            x.to_string()
        });
    }
    match words.len() {
        0 => "none".to_string(),
        1 => words.remove(0),
        n => format!("{} {conj} {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_an_unknown_is_assumed_not_to_take() {
        assert_eq!(value_list(&[-1, 0, 1], "and"), "0 and ±1");
        assert_eq!(value_list(&[-1, 0, 1], "or"), "0 or ±1");
        assert_eq!(value_list(&[-2, -1, 0], "and"), "-2, -1 and 0");
        assert_eq!(value_list(&[0], "or"), "0");
        assert_eq!(value_list(&[-2, -1, 0, 1, 2], "and"), "0, ±1 and ±2");
    }
}
