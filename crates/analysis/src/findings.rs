//! From analysis results to [`Finding`]s: locations (CUDA from `.loc`, PTX from spans),
//! measures, provenance chains, plain-words fix hints; findings of one rule on one source line
//! are folded together; `// warpscope: allow(RULE)` on the line above drops a finding.

use crate::checks::{AccessResult, BranchResult, DivClass, Guarded, MemClass};
use crate::drano::DranoVerdict;
use crate::lowering::Lowering;
use crate::uniformity::{Cause, ModuleUniformity, SourceKind, Uniformity};
use crate::{Input, KernelAnalysis, names};
use cranelift_entity::SecondaryMap;
use warpscope_ir::{FuncId, Function, FunctionAnalyses, Inst};
mod access;
mod sass_lowering;

use access::access_findings;
use sass_lowering::{moved_branch, sass_lowering};
use warpscope_report::{
    Certainty, Finding, Gain, Location, Measure, PtxLocation, Rule, SourceLocation, Step, Unit,
    is_system_file,
};

struct Ctx<'a> {
    input: &'a Input<'a>,
    /// The PTX text, for line/column lookups of instruction spans (its line table is built
    /// once per module: rebuilding it per kernel took a quarter of `check` on a 41k-line
    /// module with 150 kernels).
    ptx: &'a warpscope_ptx::source::Source<'a>,
    analyses: &'a SecondaryMap<FuncId, FunctionAnalyses>,
    uni: &'a ModuleUniformity,
    ka: &'a KernelAnalysis,
    sass: Option<&'a warpscope_sass::LineBranches>,
}

impl Ctx<'_> {
    /// The instruction's opcode with its modifiers as the PTX spells it (`div.rn.f32`), or
    /// `default` when its text cannot be read.
    fn opcode_text(&self, d: &warpscope_ir::InstData, default: &str) -> String {
        self.ptx
            .slice(d.span)
            .split_whitespace()
            .next()
            .unwrap_or(default)
            .to_string()
    }

    fn func(&self, ctx: usize) -> (&Function, &FunctionAnalyses, Option<&Uniformity>) {
        let (f, mask) = self.ka.contexts[ctx.min(self.ka.contexts.len() - 1)];
        (
            &self.input.module.funcs[f],
            &self.analyses[f],
            self.uni.get(f, mask),
        )
    }

    fn cuda(&self, loc: Option<warpscope_ir::SrcLoc>) -> Option<SourceLocation> {
        self.placed(loc, &[]).0
    }

    /// Where findings show `loc`, and the instruction's own line when that is not it: code
    /// inlined from the CUDA headers (atomicAdd, math functions) is shown at the line that
    /// called it, and keeps its header line as the origin. Through headers that call headers
    /// (`cg::reduce` → `reduce.h` → `sm_80_rt.hpp`), `outer` (the call sites past the first,
    /// innermost first) leads to the first call from the program's own code.
    fn placed(
        &self,
        loc: Option<warpscope_ir::SrcLoc>,
        outer: &[(u32, u32, u32)],
    ) -> (Option<SourceLocation>, Option<SourceLocation>) {
        let Some(l) = loc.filter(|l| l.line > 0) else {
            return (None, None);
        };
        let name = |f: u32| {
            self.input
                .module
                .file_name(f)
                .unwrap_or("<unknown>")
                .to_string()
        };
        let own = SourceLocation {
            file: name(l.file),
            line: l.line,
            col: l.col,
        };
        match l.inlined_at {
            Some(first) if is_system_file(&own.file) => {
                let (f, line, col) = std::iter::once(&first)
                    .chain(outer)
                    .find(|(f, _, _)| !is_system_file(&name(*f)))
                    .copied()
                    .unwrap_or(first);
                (
                    Some(SourceLocation {
                        file: name(f),
                        line,
                        col,
                    }),
                    Some(own),
                )
            }
            _ => (Some(own), None),
        }
    }

    fn location(&self, func: &Function, inst: Inst) -> Location {
        let d = &func.insts[inst];
        let lc = self.ptx.line_col(d.span.start);
        let (line, col) = (lc.line, lc.col);
        let text = Some(self.ptx.slice(d.span))
            .filter(|s| !s.is_empty())
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "));
        // Every call site the instruction was inlined through, innermost first: profilers
        // list it under each of them.
        let mut inlined = Vec::new();
        if let Some(l) = d.loc
            && let Some(first) = l.inlined_at
        {
            let outer = func.inline_chains.get(&inst).map_or(&[][..], |c| &c[..]);
            for &(f, ln, c) in std::iter::once(&first).chain(outer) {
                inlined.push(SourceLocation {
                    file: self
                        .input
                        .module
                        .file_name(f)
                        .unwrap_or("<unknown>")
                        .to_string(),
                    line: ln,
                    col: c,
                });
            }
        }
        let outer = func.inline_chains.get(&inst).map_or(&[][..], |c| &c[..]);
        let (cuda, origin) = self.placed(d.loc, outer);
        Location {
            cuda,
            origin,
            ptx: Some(PtxLocation {
                file: self.input.ptx_name.to_string(),
                line,
                col,
                instruction: text,
            }),
            inlined_at: inlined,
        }
    }

    fn provenance(&self, ctx: usize, cause: Option<Cause>, what: &str) -> (Vec<Step>, String) {
        let (func, fa, u) = self.func(ctx);
        let (Some(u), Some(cause)) = (u, cause) else {
            return (Vec::new(), String::new());
        };
        let chain = u.chain(func, fa, cause, 24);
        let mut steps = Vec::new();
        let mut last_line = None;
        for link in &chain {
            let loc = self.cuda(link.loc);
            let line = loc.as_ref().map(|l| l.line);
            // One step per source line (PTX spells one CUDA line in many instructions), but
            // always keep the source itself.
            if line.is_some() && line == last_line && !link.text.starts_with("reads") {
                continue;
            }
            last_line = line;
            let ptx = self.location(func, link.inst).ptx;
            steps.push(Step {
                message: format!("{what} {}", link.text),
                location: loc,
                ptx,
            });
        }
        let summary = match u.root_source(cause) {
            Some(src) if !chain.is_empty() => {
                let via: Vec<String> = {
                    let mut v: Vec<u32> = chain
                        .iter()
                        .filter_map(|l| l.loc.map(|x| x.line))
                        .filter(|l| *l > 0)
                        .collect();
                    v.dedup();
                    v.iter().rev().map(|l| l.to_string()).collect()
                };
                if via.is_empty() {
                    format!("depends on {}", src.describe())
                } else {
                    format!("depends on {} via line {}", src.describe(), via.join(" → "))
                }
            }
            _ => String::new(),
        };
        (steps, summary)
    }
}

/// Whether a `.file` path is a toolkit header rather than the user's code.
fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// What a finding says when its evaluation budget ran out ([`crate::checks::Budget`]).
const BUDGET_NOTE: &str = "evaluation budget spent: blocks, parameter values or loop iterations \
                           past it were left symbolic and warps other than the first two and \
                           the last were not examined, so this is the range over what was \
                           examined";

const PITCH_NOTE: &str = "an integer parameter used as a row pitch was read as padded (rows a \
                          multiple of 32 bytes apart, as real code pads them): what only that \
                          reading shows is `possible`; --assume NAME=VALUE measures it";

/// What a divergent branch whose lane test is joined to checks against run-time bounds
/// assumes to be `definite`: that some warp gets through those checks whole. The lane test
/// alone splits that warp whatever the bounds are; only a launch too small for one warp to pass
/// them (every size below a warp, no interior block) would leave the branch uniform.
fn guard_assumption(g: Guarded) -> Option<&'static str> {
    match g {
        Guarded::Interior => Some(
            "assumption: the run-time bounds the condition also checks let at least one warp \
             through whole (an interior block of a launch larger than a warp); there its test \
             on the thread index splits the warp whatever the bounds are",
        ),
        Guarded::FirstBlock => Some(
            "assumption: any run-time sizes the condition also checks let the first block's \
             warp through whole (sizes of a warp or more); there its test on the global \
             thread index splits the warp whatever the sizes are",
        ),
        // Sizes outside those tried (a row of one or two elements) may leave every lane on
        // one side: `possible`.
        Guarded::AnySize => None,
        Guarded::ComputedBound => None,
    }
}

fn branch_finding(cx: &Ctx<'_>, b: &BranchResult) -> Option<Finding> {
    let (func, fa, u) = cx.func(b.site.ctx);
    let cause = u.and_then(|u| u.branch_cause(b.site.inst));
    let data = cause.is_some_and(|c| u.is_some_and(|u| u.through_load(c))) || b.data_dependent;
    let (certainty, message) = match b.class {
        DivClass::NonDivergent => return None,
        DivClass::Total => (
            Certainty::Definite,
            format!(
                "branch diverges in every warp ({} of {})",
                b.divergent, b.total
            ),
        ),
        DivClass::Partial if b.guarded == Some(Guarded::Interior) => (
            Certainty::Definite,
            format!(
                "branch diverges in {} of the warps wherever its checks against unknown bounds \
                 (run-time sizes, the block index) let the whole warp through, as in interior \
                 blocks",
                pct(b.ratio.0)
            ),
        ),
        DivClass::Partial if b.guarded == Some(Guarded::FirstBlock) => (
            Certainty::Definite,
            format!(
                "branch diverges in {} of the first block's warps, where its test on the \
                 global thread index splits them, wherever its checks against unknown bounds \
                 (run-time sizes) let the whole warp through",
                pct(b.ratio.0)
            ),
        ),
        DivClass::Partial if b.guarded == Some(Guarded::AnySize) => (
            Certainty::Possible,
            format!(
                "branch diverges in {} of the first block's warps for every run-time size \
                 tried ({} to {}, multiples of 32 among them): its test on the global thread \
                 index (a column of a flat index, `idx % w`) splits lanes whatever the size",
                pct(b.ratio.0),
                crate::checks::FIRST_BLOCK_SIZES[0],
                crate::checks::FIRST_BLOCK_SIZES[crate::checks::FIRST_BLOCK_SIZES.len() - 1]
            ),
        ),
        DivClass::Partial if b.guarded == Some(Guarded::ComputedBound) => (
            Certainty::Possible,
            format!(
                "branch diverges in up to {} of the warps, in every block, wherever the bound \
                 it tests the thread index against is not a multiple of 32: the kernel \
                 computes that bound (a halved size, a rounding, a loaded count), which nothing \
                 makes a multiple of the warp",
                pct(b.ratio.1)
            ),
        ),
        DivClass::Partial => (
            Certainty::Definite,
            format!(
                "branch diverges in {} of {} warps ({})",
                b.divergent,
                b.total,
                pct(b.ratio.0)
            ),
        ),
        DivClass::Unknown => (
            Certainty::Possible,
            if data {
                "branch may diverge: its condition depends on loaded data".to_string()
            } else {
                "branch may diverge: its condition depends on values the analysis cannot see"
                    .to_string()
            },
        ),
        DivClass::Boundary => (
            Certainty::Possible,
            format!(
                "boundary check against an unknown bound: at most {} of the warps diverge",
                pct(b.ratio.1)
            ),
        ),
    };
    // Divergent for every value of a uniform unknown but one: that one may be what a launch
    // passes (a NULL optional pointer, a loop that runs no iteration).
    let certainty = if b.unless_uniform {
        Certainty::Possible
    } else {
        certainty
    };
    let mut f = Finding::new(
        warpscope_report::Rule::DivergentBranch,
        certainty,
        cx.ka.name.clone(),
        message,
        cx.location(func, b.site.inst),
    );
    if b.site.ctx != 0 {
        f.function = Some(names::base_name(&func.name));
    }
    let expected =
        crate::lowering::lowering(func, fa, b.site.block, b.site.ctx == 0, b.site.loop_exit);
    let sass = sass_lowering(cx, func, u, b.site.inst, expected, false);
    let mut lowering = sass.as_ref().map_or(expected, |s| s.lowering);
    // No lane-splitting SASS branch at the branch's line, but one ptxas moved into a side.
    let moved = (lowering == Lowering::Predicated && sass.is_some())
        .then(|| moved_branch(cx, func, b.site.inst))
        .flatten();
    if moved.is_some() {
        lowering = Lowering::Branch;
    }
    if b.class == DivClass::Boundary {
        f.kind = Some("boundary".to_string());
    } else if let Some(k) = lowering.kind() {
        f.kind = Some(k.to_string());
    }
    f.measures.insert(
        "divergence_ratio".into(),
        Measure::range(b.ratio.0, b.ratio.1, Unit::Ratio),
    );
    f.measures.insert(
        "divergent_warps".into(),
        Measure::range(
            b.divergent as f64,
            (b.divergent + b.maybe) as f64,
            Unit::Warps,
        ),
    );
    f.measures.insert(
        "warps_examined".into(),
        Measure::exact(b.total as f64, Unit::Warps),
    );
    let (steps, summary) = cx.provenance(b.site.ctx, cause, "condition:");
    f.provenance = steps;
    if !summary.is_empty() {
        f.message = format!("{} ({summary})", f.message);
    }
    if b.unless_uniform {
        f.message.push_str(
            ", unless a lane-uniform unknown joined to the condition decides it for every lane \
             (e.g. a loop that runs no iteration)",
        );
    }
    if let (Some((file, line, at)), Some(s)) = (moved, &sass) {
        let name = cx
            .input
            .module
            .file_name(file)
            .unwrap_or("<unknown>")
            .to_string();
        let own = f
            .location
            .origin
            .as_ref()
            .or(f.location.cuda.as_ref())
            .map_or_else(
                || "its own line".to_string(),
                |l| format!("line {}", l.line),
            );
        f.notes.push(format!(
            "lowering: {} compiles the branch's {own} to {} SASS instruction(s), none of them a \
             branch lanes can split, and keeps {} such branch instruction(s) at {name}:{line}, a \
             line of one of its sides that has no branch of its own in the PTX: ptxas moved the \
             branch there, and a profiler counts its divergence there",
            s.by, s.line.instructions, at.splitting_branches
        ));
        // The finding sits where the hardware branches (header code keeps its call site).
        let moved_to = SourceLocation {
            file: name,
            line,
            col: 0,
        };
        if f.location.origin.is_some() {
            f.location.origin = Some(moved_to);
        } else {
            f.location.cuda = Some(moved_to);
        }
    }
    match (lowering, &sass) {
        (Lowering::Branch, None) => {}
        (Lowering::Branch, Some(_)) if moved.is_some() => {}
        (Lowering::Branch, Some(s)) => f.notes.push(format!(
            "lowering: {} keeps {} branch instruction(s) lanes can split at this line{}",
            s.by,
            s.line.splitting_branches,
            match expected {
                Lowering::Branch => String::new(),
                Lowering::Exit => " (read off the PTX alone, it would be a predicated exit)".into(),
                Lowering::Predicated => format!(
                    " (read off the PTX alone, a body this short, at most {} instructions, \
                     would be predicated)",
                    crate::lowering::IF_CONVERT_MAX
                ),
            }
        )),
        (Lowering::Predicated, Some(s)) => f.notes.push(format!(
            "lowering: {} compiles this line to {} SASS instruction(s), none of them a branch \
             lanes can split: the code is predicated or selected instead, so no divergent \
             branch executes (a profiler counts none)",
            s.by, s.line.instructions
        )),
        (Lowering::Exit, _) => f.notes.push(
            "lowering: one side leaves the kernel, which ptxas compiles to a predicated exit \
             (`@P EXIT`), not a branch: the lanes that leave are done and the warp runs one \
             path, so no divergent branch executes (a profiler counts none); the lanes that \
             left stay idle until the warp ends"
                .to_string(),
        ),
        (Lowering::Predicated, None) => f.notes.push(format!(
            "lowering: a straight-line body of at most {} instructions, which ptxas predicates \
             instead of branching around: every lane issues it, those whose condition fails \
             with the predicate off, so no divergent branch executes (a profiler counts none)",
            crate::lowering::IF_CONVERT_MAX
        )),
    }
    if f.certainty == Certainty::Definite
        && let Some(a) = b.guarded.and_then(guard_assumption)
    {
        f.notes.push(a.to_string());
    }
    f.notes.push(format!("class: {}", b.class.as_str()));
    f.notes
        .push(format!("condition (ACF): {}", cx.ka.expr(b.site.cond)));
    if b.class == DivClass::Unknown {
        use crate::special_value::{rare_side_of, special_value_branch};
        if let Some(t) = special_value_branch(func, fa, b.site.inst) {
            f.caveat = Some(t.caveat());
        } else if let Some(t) = rare_side_of(func, fa, b.site.inst) {
            f.caveat = Some(t.caveat_inside());
        }
    }
    if b.budget_spent {
        f.notes.push(BUDGET_NOTE.to_string());
    } else if !b.exhaustive {
        f.notes
            .push("blocks or iterations were sampled, not all examined".to_string());
    }
    let src = cause.and_then(|c| u.and_then(|u| u.root_source(c)));
    f.fix = Some(
        if lowering != Lowering::Branch && b.class != DivClass::Boundary {
            "little to gain: no divergent branch executes here (see the lowering note); only if the \
         idle lanes' share matters, map work so whole warps take the same side"
            .to_string()
        } else if data {
            "the condition depends on loaded data: if both sides are cheap, compute both and select \
         (e.g. clamp with fminf/fmaxf instead of branches); otherwise group work so the lanes of \
         a warp agree (sort or bin items by the condition)"
            .to_string()
        } else if b.class == DivClass::Boundary
            || matches!(src, Some(SourceKind::Tid(_)))
                && b.ratio.1 <= 0.5
                && !b.site.loop_exit
                && b.class == DivClass::Partial
                && b.ratio.0 < 0.2
        {
            "only the warps at the edge of the data split here: pad the data or size the grid to a \
         multiple of the warp so boundary checks are uniform"
                .to_string()
        } else if b.site.loop_exit {
            "lanes of a warp run different trip counts: give neighbouring lanes similar amounts of \
         work (or split long iterations out) so whole warps leave the loop together"
                .to_string()
        } else {
            "lanes of one warp take different sides: map work so whole warps agree (e.g. branch on \
         threadIdx.x / 32 instead of threadIdx.x % 2), or compute both sides and select"
                .to_string()
        },
    );
    f.estimated_gain = Some(Gain {
        metric: "divergent_warp_fraction".into(),
        value: b.ratio.0,
        unit: Unit::Ratio,
    });
    Some(f)
}

/// The slow path ptxas adds to an IEEE-rounded division, square root or reciprocal
/// ([`crate::slow_path`]): a branch the PTX does not show, which diverges when some lanes'
/// operands are zero (or denormal, infinite) and others' are not.
fn slow_path_finding(cx: &Ctx<'_>, ctx: usize, sp: &crate::slow_path::SlowPath) -> Finding {
    let (func, fa, u) = cx.func(ctx);
    let d = &func.insts[sp.inst];
    let op = cx.opcode_text(d, "div");
    let what = match d.op {
        warpscope_ptx::Opcode::Div if sp.operand == 0 => "dividend",
        warpscope_ptx::Opcode::Div => "divisor",
        warpscope_ptx::Opcode::Sqrt => "operand",
        _ => "operand",
    };
    let c = &func.insts[sp.cancel];
    let how = if c.mods.ty.is_some_and(|t| t.is_float()) {
        "a sum or difference of lane-varying values (zero where its terms cancel, or where \
         every term of a sum is zero)"
    } else {
        "an integer converted to floating point that is zero in some lanes only (the thread \
         index in a block's first lane, a global index in the first block's, a difference \
         where its terms meet)"
    };
    let at = cx
        .cuda(c.loc)
        .map(|l| format!(" (line {})", l.line))
        .unwrap_or_default();
    let mut f = Finding::new(
        Rule::DivergentBranch,
        Certainty::Possible,
        cx.ka.name.clone(),
        format!(
            "`{op}` may diverge in ptxas's slow path: its {what} is {how}{at}, and lanes whose \
             operand is zero, denormal or infinite branch to a slow subroutine while the others \
             take the fast path"
        ),
        cx.location(func, sp.inst),
    );
    if ctx != 0 {
        f.function = Some(names::base_name(&func.name));
    }
    f.kind = Some("slow-path".to_string());
    let cause = u.and_then(|u| {
        d.operands.get(sp.operand + 1).and_then(|o| match o {
            warpscope_ir::Operand::Reg(r) => u.use_cause(fa, sp.inst, *r),
            _ => None,
        })
    });
    let (steps, _) = cx.provenance(ctx, cause, "operand:");
    f.provenance = steps;
    f.notes.push(
        "lowering: ptxas compiles an IEEE-rounded division, square root or reciprocal into a \
         fast path and a branch (after `FCHK` or an exponent test) to a slow subroutine for \
         operands the fast path cannot round; the PTX has no branch here"
            .to_string(),
    );
    f.notes.push(
        "which lanes take the slow path depends on the values: reported because the operand \
         comes from an addition or subtraction of lane-varying values, or is a thread index \
         converted to floating point, rules fitted to the real-world set (docs/accuracy.md)"
            .to_string(),
    );
    f.fix = Some(
        "little to gain unless special operands are common: only the lanes with a zero, \
         denormal or infinite operand run the slow subroutine. Where IEEE rounding is not \
         needed, `__fdividef`/`__fsqrt_rn`-free forms (`-prec-div=false`, `-prec-sqrt=false` or \
         `-use_fast_math`) compile without the slow path"
            .to_string(),
    );
    match sass_lowering(cx, func, u, sp.inst, Lowering::Branch, true) {
        Some(s) if s.lowering == Lowering::Branch => f.notes.push(format!(
            "lowering: {} keeps {} branch instruction(s) lanes can split at this line",
            s.by, s.line.splitting_branches
        )),
        Some(s) => {
            // No branch on the line: the test and the call are elsewhere (a subroutine of
            // its own), so no divergent branch is counted here.
            f.kind = Some("predicated".to_string());
            f.notes.push(format!(
                "lowering: {} compiles this line to {} SASS instruction(s), none of them a \
                 branch lanes can split: whatever slow path it has is entered elsewhere, so no \
                 divergent branch executes at this line (a profiler counts none)",
                s.by, s.line.instructions
            ));
        }
        None => {}
    }
    f
}

/// A floating-point shared-memory atomic add, which ptxas lowers into a compare-and-swap retry
/// loop ([`crate::slow_path::has_retry_loop`]): lanes whose update collides with another's go
/// round again while the rest of the warp waits.
fn atomic_retry_finding(cx: &Ctx<'_>, ctx: usize, inst: warpscope_ir::Inst) -> Finding {
    let (func, fa, u) = cx.func(ctx);
    let d = &func.insts[inst];
    let op = cx.opcode_text(d, "atom.shared.add.f32");
    let mut f = Finding::new(
        Rule::DivergentBranch,
        Certainty::Possible,
        cx.ka.name.clone(),
        format!(
            "`{op}` may diverge in ptxas's compare-and-swap retry loop: the H100 has no \
             floating-point add on shared memory, so each lane reads, adds and swaps, and lanes \
             whose swap loses to another update (from this warp or another) go round again \
             while the others wait"
        ),
        cx.location(func, inst),
    );
    if ctx != 0 {
        f.function = Some(names::base_name(&func.name));
    }
    f.kind = Some("atomic-retry".to_string());
    let addr_k = usize::from(d.op != warpscope_ptx::Opcode::Red);
    let cause = u.and_then(|u| match d.operands.get(addr_k) {
        Some(warpscope_ir::Operand::Addr(warpscope_ir::AddrBase::Reg(r), _)) => {
            u.use_cause(fa, inst, *r)
        }
        _ => None,
    });
    let (steps, _) = cx.provenance(ctx, cause, "address:");
    f.provenance = steps;
    f.notes.push(
        "lowering: ptxas compiles a floating-point `atom.add`/`red.add` on shared memory into \
         a loop of `ATOMS.CAST.SPIN` (compare and swap) and a branch back while the swap \
         failed; the PTX has no branch here"
            .to_string(),
    );
    f.notes.push(
        "whether lanes collide depends on the addresses and the timing of other warps: \
         reported because more than one lane of a warp runs it"
            .to_string(),
    );
    f.fix = Some(
        "reduce within the warp first (`__shfl_down_sync` or `cg::reduce`) and let one lane per \
         warp do the atomic, or accumulate in registers or per-warp copies and combine once; \
         an integer (fixed-point) accumulator uses the native `ATOMS.ADD`"
            .to_string(),
    );
    f
}

/// A `redux.sync` whose member mask may differ between lanes ([`crate::warp_sync`]): ptxas
/// serialises the groups (`WARPSYNC.EXCLUSIVE`), which profilers count as a divergent branch.
fn split_redux_finding(cx: &Ctx<'_>, ctx: usize, r: &crate::warp_sync::SplitRedux) -> Finding {
    let (func, fa, u) = cx.func(ctx);
    let mut f = Finding::new(
        Rule::DivergentBranch,
        Certainty::Possible,
        cx.ka.name.clone(),
        "`redux.sync` with a member mask that may differ between lanes: the warp runs it once \
         per group of lanes sharing a mask, one group after the other"
            .to_string(),
        cx.location(func, r.inst),
    );
    if ctx != 0 {
        f.function = Some(names::base_name(&func.name));
    }
    f.kind = Some("warp-sync-mask".to_string());
    let cause = u.and_then(|u| u.use_cause(fa, r.inst, r.mask));
    let (steps, summary) = cx.provenance(ctx, cause, "member mask:");
    f.provenance = steps;
    if !summary.is_empty() {
        f.message = format!("{} ({summary})", f.message);
    }
    f.notes.push(
        "lowering: ptxas cannot prove the member mask the same across the warp and compiles \
         `redux.sync` to `WARPSYNC.EXCLUSIVE` and `REDUX`, so groups with different masks take \
         turns; Nsight Compute counts a divergent branch there whenever they differ (e.g. a \
         `cg::reduce` over a `labeled_partition`)"
            .to_string(),
    );
    f.fix = Some(
        "reduce over the whole warp (or a tile) with the label folded into the value, e.g. \
         one `__reduce_*_sync(0xffffffff, …)` per label bucket or a shuffle reduction over \
         `thread_block_tile<32>`, so every lane runs the instruction with the same mask"
            .to_string(),
    );
    f
}

fn drano_finding(cx: &Ctx<'_>, ctx: usize, v: DranoVerdict) -> Finding {
    let (func, _, _) = cx.func(ctx);
    let (rule, inst, msg, fix) = match v {
        DranoVerdict::Uncoalesced(i) => (
            Rule::UncoalescedAccess,
            i,
            "index depends on the thread index with a coefficient other than 0 or ±1 (GPUDrano: ⊤), or elements are wider than 4 bytes",
            "make consecutive lanes access consecutive elements (structure of arrays, threadIdx.x on the fastest-moving index)",
        ),
        DranoVerdict::Divergent(i) => (
            Rule::DivergentBranch,
            i,
            "branch predicate depends on the thread index (GPUDrano's boolean abstraction is not TF)",
            "make the condition uniform across each warp, or compute both sides and select",
        ),
    };
    let mut f = Finding::new(
        rule,
        Certainty::Possible,
        cx.ka.name.clone(),
        msg,
        cx.location(func, inst),
    );
    if ctx != 0 {
        f.function = Some(names::base_name(&func.name));
    }
    f.notes
        .push("engine: drano (GPUDrano's abstract interpretation)".into());
    f.fix = Some(fix.into());
    f
}

/// Whether `// warpscope: allow(RULE)` (or `allow(all)`) stands on the line above `line`.
fn suppressed(text: &str, line: u32, rule: Rule) -> bool {
    if line < 2 {
        return false;
    }
    let Some(above) = text.lines().nth(line as usize - 2) else {
        return false;
    };
    let Some(p) = above.find("warpscope:") else {
        return false;
    };
    let rest = &above[p + "warpscope:".len()..];
    let Some(open) = rest.find("allow(") else {
        return false;
    };
    let inner = &rest[open + 6..];
    let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
    inner
        .split(',')
        .map(str::trim)
        .any(|r| r == rule.id() || r == "all")
}

/// Folds findings of one rule on one source line (or PTX line) into one; header code shown at
/// its call is folded per line of its own (`location.origin`).
pub fn fold(findings: Vec<Finding>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for f in findings {
        let key = |x: &Finding| {
            (
                x.rule,
                x.kernel.clone(),
                x.location.cuda.as_ref().map(|c| (c.file.clone(), c.line)),
                // Header code placed at its call keeps its own lines apart: each is a site
                // of its own where a profiler counts it.
                x.location.origin.as_ref().map(|c| (c.file.clone(), c.line)),
                if x.location.cuda.is_none() {
                    x.location.ptx.as_ref().map(|p| p.line)
                } else {
                    None
                },
            )
        };
        match out.iter_mut().find(|o| key(o) == key(&f)) {
            Some(o) => {
                if f.certainty > o.certainty {
                    // The stronger finding leads; the other becomes related.
                    let mut f = f;
                    std::mem::swap(o, &mut f);
                    merge_into(o, f);
                } else {
                    merge_into(o, f);
                }
            }
            None => out.push(f),
        }
    }
    out
}

fn merge_into(o: &mut Finding, f: Finding) {
    // A caveat folded with a finding that has evidence of its own is that finding's; a note
    // (a boundary check, or a branch lowered without a branch) has none, and keeps it.
    let evidence = |x: &Finding| x.caveat.is_none() && !x.is_tallied();
    let evidence = evidence(o) || evidence(&f);
    // A boundary check (or a branch lowered without a branch) folded with a real branch on
    // its line is that branch's finding; folded with another such note, it stays a note.
    if o.kind != f.kind && !(o.is_tallied() && f.is_tallied()) {
        o.kind = None;
    }
    if evidence {
        o.caveat = None;
    } else if o.caveat.is_none() {
        o.caveat = f.caveat.clone();
    }
    for (k, m) in f.measures {
        match o.measures.get_mut(&k) {
            Some(x) => x.merge(&m),
            None => {
                o.measures.insert(k, m);
            }
        }
    }
    if o.location != f.location {
        o.related.push(f.location);
    }
    o.related.extend(f.related);
    if o.provenance.is_empty() {
        o.provenance = f.provenance;
    }
}

/// The findings of one kernel, folded and filtered by suppression comments; returns them with
/// the number suppressed.
pub fn kernel_findings(
    input: &Input<'_>,
    ptx: &warpscope_ptx::source::Source<'_>,
    analyses: &SecondaryMap<FuncId, FunctionAnalyses>,
    uni: &ModuleUniformity,
    ka: &KernelAnalysis,
    sass: Option<&warpscope_sass::LineBranches>,
) -> (Vec<Finding>, usize) {
    let cx = Ctx {
        input,
        ptx,
        analyses,
        uni,
        ka,
        sass,
    };
    let mut all = Vec::new();
    for b in &ka.branches {
        all.extend(branch_finding(&cx, b));
    }
    for a in &ka.accesses {
        all.extend(access_findings(&cx, a));
    }
    for &(ctx, v) in &ka.drano {
        all.push(drano_finding(&cx, ctx, v));
    }
    for (ctx, sp) in &ka.slow_paths {
        all.push(slow_path_finding(&cx, *ctx, sp));
    }
    for (ctx, r) in &ka.split_reduxes {
        all.push(split_redux_finding(&cx, *ctx, r));
    }
    for &(ctx, i) in &ka.atomic_retries {
        all.push(atomic_retry_finding(&cx, ctx, i));
    }
    let geometry = format!("geometry: {}", ka.geometry);
    for f in all.iter_mut() {
        // A value bound from the host code's launches that the finding's expressions read:
        // the verdict rests on it, so say where it came from.
        for (i, what) in &ka.launch_bound {
            let (exact, offset) = (format!("[param{i}]"), format!("[param{i}+"));
            let reads = f.notes.iter().any(|n| {
                n.contains("(ACF): ") && (n.contains(exact.as_str()) || n.contains(offset.as_str()))
            });
            if reads {
                f.notes.push(format!("assuming {what}"));
            }
        }
        f.notes.push(geometry.clone());
    }
    let all = fold(all);
    let mut kept = Vec::new();
    let mut dropped = 0;
    for f in all {
        let sup = f.location.cuda.as_ref().is_some_and(|c| {
            let idx = input
                .module
                .files
                .iter()
                .find(|(_, p)| *p == c.file)
                .map(|(i, _)| *i);
            idx.and_then(|i| (input.source)(i))
                .is_some_and(|t| suppressed(&t, c.line, f.rule))
        });
        if sup {
            dropped += 1;
        } else {
            kept.push(f);
        }
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_folded_with_a_caveat_keeps_the_caveat_in_either_order() {
        let at = |ptx_line: u32| Location {
            cuda: Some(warpscope_report::SourceLocation {
                file: "k.cu".into(),
                line: 7,
                col: 1,
            }),
            ptx: Some(warpscope_report::PtxLocation {
                file: "k.ptx".into(),
                line: ptx_line,
                col: 1,
                instruction: None,
            }),
            ..Location::default()
        };
        let branch = |ptx_line: u32| {
            Finding::new(
                Rule::DivergentBranch,
                Certainty::Possible,
                "k",
                "branch may diverge",
                at(ptx_line),
            )
        };
        let mut caveat = branch(10);
        caveat.caveat = Some("rests on the data holding huge values".into());
        let mut note = branch(20);
        note.kind = Some("predicated".into());
        let likely = branch(30);
        for pair in [
            [caveat.clone(), note.clone()],
            [note.clone(), caveat.clone()],
        ] {
            let out = fold(pair.to_vec());
            assert_eq!(out.len(), 1);
            assert_eq!(out[0].kind, None, "{out:#?}");
            assert_eq!(out[0].rank(), warpscope_report::Rank::Caveat, "{out:#?}");
        }
        // A finding with evidence of its own still takes the caveat away.
        let out = fold(vec![caveat.clone(), note.clone(), likely]);
        assert_eq!(out[0].rank(), warpscope_report::Rank::Likely, "{out:#?}");
        // Two notes stay a note.
        let out = fold(vec![note.clone(), note]);
        assert_eq!(out[0].rank(), warpscope_report::Rank::Note, "{out:#?}");
    }

    #[test]
    fn allow_comments() {
        let t = "a\n// warpscope: allow(bank-conflict, divergent-branch)\nx\n// warpscope: allow(all)\ny\n";
        assert!(suppressed(t, 3, Rule::BankConflict));
        assert!(suppressed(t, 3, Rule::DivergentBranch));
        assert!(!suppressed(t, 3, Rule::UncoalescedAccess));
        assert!(suppressed(t, 5, Rule::UncoalescedAccess));
        assert!(!suppressed(t, 1, Rule::BankConflict));
    }
}
