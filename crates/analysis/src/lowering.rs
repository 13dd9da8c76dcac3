//! How ptxas is expected to lower a conditional branch of the PTX into SASS.
//!
//! A thread-dependent branch splits the lanes of a warp, but the hardware executes a
//! *divergent branch* (Nsight Compute's "Divergent Branches": a warp-level branch whose active
//! lanes take different targets, after which the warp runs each side in turn) only when ptxas
//! keeps a branch instruction there. Two lowerings keep none:
//!
//! * **Predicated exit.** In a kernel, a branch one of whose sides goes straight to the end of
//!   the kernel (`if (tid == 0) out[b] = s;` as the last statement, `if (i >= n) return;`)
//!   becomes `@P EXIT`: the lanes that leave are done, the others go on, and the warp never
//!   runs two paths one after the other.
//! * **If-conversion.** A short straight-line body (`if (tid < s) a[tid] += a[tid + s];`) is
//!   predicated: every lane issues its instructions, those whose condition fails with the
//!   predicate off. No branch executes.
//!
//! The lanes still split (the analysis' verdict is unchanged); what changes is what it costs
//! and what a profiler counts. The size limit of if-conversion is ptxas's own heuristic: the
//! limit here ([`IF_CONVERT_MAX`] PTX instructions, none of them a barrier, call, atomic,
//! warp-collective, nested branch or multi-instruction math routine) was read off the SASS of
//! the real-world set (`validation/realworld/truth/ncu_source_pages.tar.xz`), where bodies of
//! 1–11 such instructions were predicated and bodies of 12 or more kept their branch. The
//! second set (`ncu_source_pages_set2.tar.xz`) added one bar, a load from local memory: over
//! both sets' SASS, 226 of the 240 bodies this module called predicated had no branch on their
//! line before it, 226 of 236 after (`scripts/realworld/ifconv.py`). Size is a proxy: ptxas
//! 13.0.88 predicates some longer bodies (10 loads and 5 FMAs) and vectorizes stores, so a
//! count of PTX instructions or stores is not what it decides on.

use warpscope_ir::control::cond_branch;
use warpscope_ir::{Block, Function, FunctionAnalyses};
use warpscope_ptx::Opcode;

/// Largest body (PTX instructions on the skipped side, both sides of an if-else together)
/// that ptxas is taken to predicate instead of branching around.
pub const IF_CONVERT_MAX: usize = 11;

/// The expected lowering of a conditional branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lowering {
    /// A branch instruction: lanes that disagree make the warp run both sides.
    Branch,
    /// One side leaves the kernel: a predicated exit.
    Exit,
    /// A short body, predicated instead of branched around.
    Predicated,
}

impl Lowering {
    /// The finding kind for a branch lowered this way (`None` for a real branch).
    pub fn kind(self) -> Option<&'static str> {
        match self {
            Lowering::Branch => None,
            Lowering::Exit => Some("exit"),
            Lowering::Predicated => Some("predicated"),
        }
    }
}

/// How the conditional branch ending `b` is expected to be lowered. `kernel`: `func` is the
/// kernel itself (a device function's `ret` returns to its caller, no exit); `loop_exit`: the
/// branch leaves or continues a loop (those keep their branch).
pub fn lowering(
    func: &Function,
    fa: &FunctionAnalyses,
    b: Block,
    kernel: bool,
    loop_exit: bool,
) -> Lowering {
    let Some(cb) = cond_branch(func, b) else {
        return Lowering::Branch;
    };
    if loop_exit {
        return Lowering::Branch;
    }
    let Some(taken) = cb.taken else {
        // A guarded `ret`/`exit`.
        return if kernel {
            Lowering::Exit
        } else {
            Lowering::Branch
        };
    };
    if kernel
        && (leads_to_exit(func, taken) || cb.fallthrough.is_some_and(|f| leads_to_exit(func, f)))
    {
        return Lowering::Exit;
    }
    let Some(fall) = cb.fallthrough else {
        return Lowering::Branch;
    };
    // if-then: the fall-through block is the body and rejoins at the target.
    if let Some(n) = body_size(func, fa, fall, b, taken)
        && n <= IF_CONVERT_MAX
    {
        return Lowering::Predicated;
    }
    // if-else: both sides short and meeting at one block.
    let join = |x: Block| -> Option<Block> {
        let s = fa.cfg.succs(x);
        (s.len() == 1).then(|| s[0])
    };
    if let (Some(j1), Some(j2)) = (join(fall), join(taken))
        && j1 == j2
        && let (Some(n1), Some(n2)) = (
            body_size(func, fa, fall, b, j1),
            body_size(func, fa, taken, b, j1),
        )
        && n1 + n2 <= IF_CONVERT_MAX
    {
        return Lowering::Predicated;
    }
    Lowering::Branch
}

/// Whether control entering `x` reaches the end of the kernel without doing anything: `x`
/// (after unconditional jumps and empty blocks) is a lone `ret`/`exit`.
fn leads_to_exit(func: &Function, mut x: Block) -> bool {
    for _ in 0..8 {
        let insts = &func.blocks[x].insts;
        match insts.first().map(|&i| &func.insts[i]) {
            None => {
                let next = Block::from_u32(x.as_u32() + 1);
                if (next.as_u32() as usize) >= func.blocks.len() {
                    // Falling off the end of the body returns.
                    return true;
                }
                x = next;
            }
            Some(d) if d.guard.is_none() && matches!(d.op, Opcode::Ret | Opcode::Exit) => {
                return true;
            }
            Some(d) if d.guard.is_none() && d.op == Opcode::Bra && insts.len() == 1 => {
                match func.successors(x).0.first() {
                    Some(&t) => x = t,
                    None => return false,
                }
            }
            Some(_) => return false,
        }
    }
    false
}

/// The instructions of `body` when it is a straight-line block entered only from `from` and
/// left only for `join`, and none of them keeps ptxas from predicating it.
fn body_size(
    func: &Function,
    fa: &FunctionAnalyses,
    body: Block,
    from: Block,
    join: Block,
) -> Option<usize> {
    if body == join || fa.cfg.preds(body) != [from] || fa.cfg.succs(body) != [join] {
        return None;
    }
    let insts = &func.blocks[body].insts;
    let mut n = 0;
    for (k, &i) in insts.iter().enumerate() {
        let d = &func.insts[i];
        let last = k + 1 == insts.len();
        match d.op {
            // The jump to the join of an if-else is not part of the body.
            Opcode::Bra if last && d.guard.is_none() => continue,
            Opcode::Bra
            | Opcode::BrxIdx
            | Opcode::Call
            | Opcode::Ret
            | Opcode::Exit
            | Opcode::Trap
            | Opcode::Bar
            | Opcode::Barrier
            | Opcode::BarWarpSync
            | Opcode::BarrierClusterArrive
            | Opcode::BarrierClusterWait
            | Opcode::Membar
            | Opcode::Fence
            | Opcode::Atom
            | Opcode::Red
            | Opcode::Vote
            | Opcode::Match
            | Opcode::Shfl
            | Opcode::Activemask
            | Opcode::Redux
            // Math that ptxas expands into a subroutine with its own slow path (floating-point
            // division, square root, reciprocal) or a MUFU with range handling. (Integer
            // division is a straight-line sequence, predicated like the rest.)
            | Opcode::Rcp
            | Opcode::Sqrt
            | Opcode::Rsqrt
            | Opcode::Sin
            | Opcode::Cos
            | Opcode::Lg2
            | Opcode::Ex2
            | Opcode::Tanh => return None,
            Opcode::Div | Opcode::Rem if d.mods.ty.is_none_or(|t| t.is_float()) => return None,
            // A load from local memory keeps the branch (the second real-world set's SASS:
            // all 4 such bodies, 1–10 instructions, kept it; stores alone to local memory
            // were predicated).
            Opcode::Ld if d.mods.space == Some(warpscope_ptx::StateSpace::Local) => return None,
            _ => n += 1,
        }
    }
    Some(n)
}
