//! Turns what the observers counted into a [`Profile`]: per instruction (with its PTX and
//! CUDA positions), per CUDA source line and per kernel.

use cranelift_entity::EntityRef;
use std::collections::{BTreeMap, HashMap};
use warpscope_ir::{FuncId, Inst, Module, SrcLoc};
use warpscope_ptx::LineIndex;

use crate::model::{
    CallSite, Counters, InstProfile, KernelProfile, LaunchRecord, LineProfile, Profile,
    display_name,
};
use crate::observe::{InstIndex, Profiler};

/// Counters, access kind and access size of one instruction while building.
type InstRow = (Counters, Option<crate::model::Access>, u32);

/// Builds the profile of a run.
///
/// `ptx_text` is the module's PTX (for instruction positions); `module_name` and `spec` are
/// recorded as given.
pub fn build_profile(
    module: &Module,
    index: &InstIndex,
    ptx_text: Option<&str>,
    profiler: Profiler,
    spec: &str,
    module_name: &str,
) -> Profile {
    let lines = ptx_text.map(LineIndex::new);
    let launches: Vec<LaunchRecord> = profiler
        .launches
        .iter()
        .map(|l| LaunchRecord {
            index: l.info.index,
            kernel: display_name(&l.info.kernel),
            grid: l.info.grid,
            block: l.info.block,
            warp_instructions: l.stats.warp_instructions,
            thread_instructions: l.stats.thread_instructions,
            profiled: l.profiled,
        })
        .collect();
    let mut per_kernel_launches: BTreeMap<u32, u32> = BTreeMap::new();
    for l in &profiler.launches {
        if l.profiled {
            *per_kernel_launches
                .entry(l.info.func.index() as u32)
                .or_default() += 1;
        }
    }

    // Per kernel, per dense instruction.
    let mut tables: BTreeMap<u32, BTreeMap<u32, InstRow>> = BTreeMap::new();
    for (k, counts) in profiler.simt.into_counts() {
        let t = tables.entry(k).or_default();
        for (d, c) in counts.iter().enumerate() {
            if c.warps == 0 {
                continue;
            }
            let e = &mut t.entry(d as u32).or_default().0;
            e.instructions += c.warps;
            e.thread_instructions += c.active;
            e.predicated_on_thread_instructions += c.executed;
        }
    }
    for (k, counts) in profiler.divergence.into_counts() {
        let t = tables.entry(k).or_default();
        for (d, b) in counts {
            let e = &mut t.entry(d).or_default().0;
            e.branch_visits += b.visits;
            e.divergent_branches += b.divergent;
            e.branch_active_lanes += b.active_lanes;
            e.branch_taken_lanes += b.taken_lanes;
        }
    }
    for (k, counts) in profiler.coalescing.into_counts() {
        let t = tables.entry(k).or_default();
        for (d, m) in counts {
            let e = t.entry(d).or_default();
            e.0.global.merge(&m.global);
            e.0.shared.merge(&m.shared);
            e.0.local_requests += m.local;
            e.0.local_sectors += m.local_sectors;
            e.0.other_requests += m.other;
            e.1 = e.1.or(m.access);
            e.2 = e.2.max(m.size);
        }
    }

    let mut locs: HashMap<FuncId, HashMap<Inst, SrcLoc>> = HashMap::new();
    let mut kernels = Vec::new();
    for (k, insts) in tables {
        let kid = FuncId::new(k as usize);
        let kf = &module.funcs[kid];
        let mut kp = KernelProfile {
            name: display_name(&kf.name),
            ptx_name: kf.name.clone(),
            launches: per_kernel_launches.get(&k).copied().unwrap_or(0),
            totals: Counters::default(),
            instructions: Vec::new(),
            lines: Vec::new(),
        };
        let mut by_line: BTreeMap<(Option<String>, u32), Counters> = BTreeMap::new();
        let Some(layout) = index.kernel(kid) else {
            continue;
        };
        for (d, (c, access, size)) in insts {
            if c.is_empty() {
                continue;
            }
            let (f, i) = layout.resolve(d as usize);
            let fl = locs
                .entry(f)
                .or_insert_with(|| module.funcs[f].effective_locs());
            let loc = fl.get(&i).copied();
            let ip = inst_profile(module, ptx_text, lines.as_ref(), f, i, loc, c, access, size);
            kp.totals.merge(&c);
            by_line
                .entry((ip.file.clone(), ip.line))
                .or_default()
                .merge(&c);
            if let Some(site) = &ip.inlined_at
                && (site.file != ip.file || site.line != ip.line)
            {
                by_line
                    .entry((site.file.clone(), site.line))
                    .or_default()
                    .merge(&c);
            }
            kp.instructions.push(ip);
        }
        kp.lines = by_line
            .into_iter()
            .map(|((file, line), counters)| LineProfile {
                file,
                line,
                counters,
            })
            .collect();
        kernels.push(kp);
    }
    // Kernels in order of first launch.
    let first: BTreeMap<String, u32> = launches
        .iter()
        .rev()
        .map(|l| (l.kernel.clone(), l.index))
        .collect();
    kernels.sort_by_key(|k| first.get(&k.name).copied().unwrap_or(u32::MAX));
    Profile {
        spec: spec.to_string(),
        module: module_name.to_string(),
        launches,
        kernels,
    }
}

/// The instruction as written in the PTX (whitespace collapsed), or as the IR prints it.
fn instruction_text(
    module: &Module,
    func: &warpscope_ir::Function,
    i: Inst,
    ptx: Option<&str>,
) -> String {
    let span = func.insts[i].span;
    if let Some(t) = ptx.and_then(|t| t.get(span.start as usize..span.end as usize))
        && !t.trim().is_empty()
    {
        let mut s = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if !s.ends_with(';') {
            s.push(';');
        }
        return s;
    }
    let s = warpscope_ir::inst_to_string(module, func, i);
    let s = s.split("//").next().unwrap_or("").trim();
    // The IR printer starts with the instruction's id (`inst12`).
    match s.split_once(char::is_whitespace) {
        Some((id, rest)) if id.starts_with("inst") => rest.trim().to_string(),
        _ => s.to_string(),
    }
}

#[allow(clippy::too_many_arguments)]
fn inst_profile(
    module: &Module,
    ptx_text: Option<&str>,
    lines: Option<&LineIndex>,
    f: FuncId,
    i: Inst,
    loc: Option<SrcLoc>,
    counters: Counters,
    access: Option<crate::model::Access>,
    size: u32,
) -> InstProfile {
    let func = &module.funcs[f];
    let data = &func.insts[i];
    let (ptx_line, ptx_col) = lines
        .map(|l| l.line_col(data.span.start))
        .map_or((0, 0), |p| (p.line, p.col));
    let (file, line, col) = match loc {
        Some(loc) => (
            module.file_name(loc.file).map(str::to_string),
            loc.line,
            loc.col,
        ),
        None => (None, 0, 0),
    };
    let inlined_at = loc
        .and_then(|l| l.inlined_at)
        .map(|(file, line, _)| CallSite {
            file: module.file_name(file).map(str::to_string),
            line,
        });
    InstProfile {
        function: func.name.clone(),
        inst: i.index() as u32,
        ptx_line,
        ptx_col,
        text: instruction_text(module, func, i, ptx_text),
        file,
        line,
        col,
        line_inferred: data.loc.is_some_and(|l| l.line == 0),
        inlined_at,
        access,
        access_size: size,
        counters,
    }
}
