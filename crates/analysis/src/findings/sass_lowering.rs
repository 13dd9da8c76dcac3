//! What ptxas made of a branch, read from the module's SASS: whether the line's SASS splits
//! lanes (a branch), holds none (predicated), or whether ptxas moved the branch onto a line of
//! one of its successors. Split out of `findings.rs`, which turns these into findings.

use super::Ctx;
use crate::lowering::Lowering;
use crate::uniformity::Uniformity;
use warpscope_ir::{Function, Inst};
use warpscope_report::is_system_file;

/// A branch's lowering as the module's SASS shows it.
pub(super) struct SassLowering {
    pub(super) lowering: Lowering,
    /// What the SASS holds at the branch's line (the kernel's and, when ptxas kept it a
    /// function of its own, the device function's).
    pub(super) line: warpscope_sass::LineSass,
    /// The tools, for the note (`ptxas V13.0.88 for sm_90`).
    pub(super) by: String,
}

/// What ptxas made of the branch ending at `inst`, when the module's SASS is at hand and has
/// instructions at the branch's own (innermost) source line: a lane-splitting SASS branch
/// there makes it a branch; none makes it predicated, or a predicated exit where that is what
/// the PTX shows. `None` when the SASS says nothing about the line (no listing, no line
/// information, or ptxas moved the line's code elsewhere): the PTX's expectation stands.
/// `own_site`: `inst` is itself an instruction ptxas branches on (a division's slow path), so
/// the line's SASS branches are not discounted for it.
pub(super) fn sass_lowering(
    cx: &Ctx<'_>,
    func: &Function,
    u: Option<&Uniformity>,
    inst: Inst,
    expected: Lowering,
    own_site: bool,
) -> Option<SassLowering> {
    let table = cx.sass?;
    let loc = func.insts[inst].loc.filter(|l| l.line > 0)?;
    let file = cx.input.module.file_name(loc.file)?;
    let mut line = warpscope_sass::LineSass::default();
    let kernel = cx.ka.ptx_name.as_str();
    let own = func.name.as_str();
    for name in std::iter::once(kernel).chain((own != kernel).then_some(own)) {
        if let Some(l) = table.line(name, file, loc.line) {
            line.instructions += l.instructions;
            line.splitting_branches += l.splitting_branches;
        }
    }
    if line.instructions == 0 {
        return None;
    }
    // SASS branches are matched to the PTX by line only. When the line also holds conditional
    // branches the analysis finds lane-uniform (an unrolled loop's trip-count dispatch beside a
    // lane test), the SASS branches there may all be theirs: only more of them than there are
    // uniform PTX branches shows that one is this branch's.
    let uniform_here = uniform_branches_at(func, u, loc.file, loc.line);
    // So may the branches of the line's IEEE divisions and square roots (a test of the
    // operands, `FCHK`, and a branch to the slow subroutine) and shared-memory float atomics
    // (the retry loop's branch back), which the PTX does not show as branches: a branch finding
    // counts only the SASS branches beyond those.
    let others = if own_site {
        0
    } else {
        ops_with_branches_at(func, loc.file, loc.line)
    };
    if line.splitting_branches > 0 && line.splitting_branches <= uniform_here + others {
        return None;
    }
    let lowering = if line.splitting_branches > 0 {
        Lowering::Branch
    } else if expected == Lowering::Exit {
        Lowering::Exit
    } else {
        Lowering::Predicated
    };
    Some(SassLowering {
        lowering,
        line,
        by: table.produced_by.clone(),
    })
}

/// Conditional branches of `func` at `file:line` whose condition the analysis finds the same in
/// every lane (all of them when the function has no uniformity result).
fn uniform_branches_at(func: &Function, u: Option<&Uniformity>, file: u32, line: u32) -> u32 {
    cond_branches_at(func, file, line, |i| {
        u.is_none_or(|u| u.branch_cause(i).is_none())
    })
}

/// Instructions of `func` at `file:line` that ptxas compiles with a lane-splitting branch of
/// their own: IEEE divisions, square roots and reciprocals (the slow-path test) and
/// shared-memory float atomics (the retry loop).
fn ops_with_branches_at(func: &Function, file: u32, line: u32) -> u32 {
    func.insts
        .iter()
        .filter(|&(i, d)| {
            d.loc.is_some_and(|l| l.file == file && l.line == line)
                && (crate::slow_path::has_slow_path(func, i)
                    || crate::slow_path::has_retry_loop(func, i))
        })
        .count() as u32
}

/// Conditional branches of `func` at `file:line` for which `keep` holds.
fn cond_branches_at(func: &Function, file: u32, line: u32, keep: impl Fn(Inst) -> bool) -> u32 {
    let mut n = 0;
    for b in func.blocks.keys() {
        let Some(cb) = warpscope_ir::control::cond_branch(func, b) else {
            continue;
        };
        let Some(l) = func.insts[cb.inst].loc else {
            continue;
        };
        if l.file == file && l.line == line && keep(cb.inst) {
            n += 1;
        }
    }
    n
}

/// Whether `file:line` may hold SASS branches of its own that no PTX branch shows: a line of
/// the CUDA headers (one `__syncthreads` line serves every barrier of the module), or one with
/// an instruction ptxas expands into a loop or a subroutine call (an IEEE division's slow path,
/// a shared-memory float atomic's retry loop, a call, a barrier or warp collective).
fn branches_of_its_own(cx: &Ctx<'_>, func: &Function, file: u32, line: u32) -> bool {
    if cx.input.module.file_name(file).is_none_or(is_system_file) {
        return true;
    }
    func.insts.iter().any(|(i, d)| {
        d.loc.is_some_and(|l| l.file == file && l.line == line)
            && (crate::slow_path::has_slow_path(func, i)
                || crate::slow_path::has_retry_loop(func, i)
                || d.op.is_barrier()
                || matches!(
                    d.op,
                    warpscope_ptx::Opcode::Call
                        | warpscope_ptx::Opcode::Shfl
                        | warpscope_ptx::Opcode::Vote
                        | warpscope_ptx::Opcode::Match
                        | warpscope_ptx::Opcode::Redux
                        | warpscope_ptx::Opcode::Activemask
                ))
    })
}

/// Where ptxas moved a branch that keeps no lane-splitting SASS branch at its own line: into one
/// of its sides. ptxas may place the branch instruction of an `if` (or the back edge of a loop
/// the `if` sits in, duplicated into both arms) at the first line of a side (HeCBench's `merge`:
/// `if (A[x] > B[~x]) { ... x -= offset; } else { x += offset; }` in a `while` loop, whose SASS
/// branches sit at the two updates). A line of a successor block of the PTX branch (following
/// blocks that only jump on) that holds lane-splitting SASS branches but no conditional PTX
/// branch at all has no branch of its own those could belong to: they are this branch's. Returns
/// the line (file index, line) and its SASS, the first such line in the successors' order (taken
/// side first).
pub(super) fn moved_branch(
    cx: &Ctx<'_>,
    func: &Function,
    inst: Inst,
) -> Option<(u32, u32, warpscope_sass::LineSass)> {
    let table = cx.sass?;
    let own = func.insts[inst].loc.filter(|l| l.line > 0)?;
    let kernel = cx.ka.ptx_name.as_str();
    let at = |file: u32, line: u32| {
        let name = cx.input.module.file_name(file)?;
        let mut s = warpscope_sass::LineSass::default();
        for f in std::iter::once(kernel).chain((func.name != kernel).then_some(func.name.as_str()))
        {
            if let Some(l) = table.line(f, name, line) {
                s.instructions += l.instructions;
                s.splitting_branches += l.splitting_branches;
            }
        }
        Some(s)
    };
    let (succs, _) = func.successors(func.inst_block[inst]);
    for s in succs {
        // A side that only jumps on (`bra` to the join, no line of its own) is followed, a few
        // blocks at most.
        let mut b = s;
        for _ in 0..4 {
            let mut lines: Vec<(u32, u32)> = Vec::new();
            for &i in &func.blocks[b].insts {
                if let Some(l) = func.insts[i].loc.filter(|l| l.line > 0)
                    && (l.file, l.line) != (own.file, own.line)
                    && !lines.contains(&(l.file, l.line))
                {
                    lines.push((l.file, l.line));
                }
            }
            for (file, line) in lines.iter().copied() {
                if let Some(sass) = at(file, line)
                    && sass.splitting_branches > 0
                    && cond_branches_at(func, file, line, |_| true) == 0
                    && !branches_of_its_own(cx, func, file, line)
                {
                    return Some((file, line, sass));
                }
            }
            if !lines.is_empty() {
                break;
            }
            let (next, _) = func.successors(b);
            match next.as_slice() {
                [n] => b = *n,
                _ => break,
            }
        }
    }
    None
}
