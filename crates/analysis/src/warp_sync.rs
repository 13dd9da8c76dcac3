//! Divergence the PTX does not show as a branch: a `redux.sync` whose member mask differs
//! between the lanes that execute it together.
//!
//! `redux.sync.op` reduces a value over the lanes of its member mask (PTX ISA §9.7.13.7); the
//! mask must name the executing lane and every lane it names must execute the same
//! instruction with the same mask. Lanes of one warp may reach it together with *different*
//! masks: cooperative groups' `labeled_partition` splits a warp by a label
//! (`match.any.sync`), and `cg::reduce` over such a group is one `redux.sync` per group, all
//! issued at once. ptxas cannot prove the mask the same across the warp, and lowers the
//! instruction to `WARPSYNC.EXCLUSIVE` followed by `REDUX`: the warp runs it once per distinct
//! mask, and Nsight Compute counts a divergent branch at it each time the masks differ (on the
//! H100, cuda-samples' `warpAggregatedAtomicsCG`, `cg::reduce(labeledGroup, …)`: 1.25 M
//! divergent branches, the whole inline chain of `reduce.h`).
//!
//! Only a mask computed by `match.any.sync` is reported: it groups lanes by a key, so lanes
//! with different keys reach the instruction together with different masks. Masks built from
//! `activemask` or `vote.ballot` are the same in every lane that computes them, and those that
//! differ by a predicate (`binary_partition`: `ballot ^ (pred ? ~0 : 0)`) are used behind a
//! branch on that predicate, one `redux.sync` per side; the H100 counts no divergent branch at
//! either (`binaryPartitionCG`, `reduction`'s `reduce7`). Nor is a `shfl.sync` with a
//! `match.any` mask reported: ptxas lowers it without serialising (`warpAggregatedAtomicsCG`'s
//! `labeledGroup.shfl(res, 0)` shows no divergent branch).

use warpscope_ir::{Function, FunctionAnalyses, Inst, Operand, Reg};
use warpscope_ptx::{Opcode, VoteMode};

use crate::uniformity::Uniformity;

/// How many definitions deep [`from_match_any`] follows the mask.
const MAX_DEPTH: u32 = 8;

/// A `redux.sync` whose member mask may differ between lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitRedux {
    /// The `redux.sync` instruction.
    pub inst: Inst,
    /// Its member mask register.
    pub mask: Reg,
}

/// The `redux.sync` instructions of `func` (in one calling context, `u`) whose member mask is
/// thread-dependent and computed by `match.any.sync`.
pub fn split_reduxes(func: &Function, fa: &FunctionAnalyses, u: &Uniformity) -> Vec<SplitRedux> {
    let mut out = Vec::new();
    for (inst, d) in func.insts.iter() {
        if d.op != Opcode::Redux {
            continue;
        }
        // dst, src, membermask.
        let Some(Operand::Reg(mask)) = d.operands.get(2) else {
            continue;
        };
        if u.use_cause(fa, inst, *mask).is_none() {
            continue;
        }
        if !from_match_any(func, fa, inst, *mask, MAX_DEPTH) {
            continue;
        }
        out.push(SplitRedux { inst, mask: *mask });
    }
    out
}

/// Whether a definition of `reg` reaching `at` is a `match.any.sync` (through moves and
/// masking with other values: `and`, `or`).
fn from_match_any(func: &Function, fa: &FunctionAnalyses, at: Inst, reg: Reg, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    fa.defuse.reaching(at, reg).iter().any(|&def| {
        let Some(i) = fa.defuse.def(def).inst else {
            return false;
        };
        let d = &func.insts[i];
        match d.op {
            Opcode::Match => d.mods.vote_mode == Some(VoteMode::Any),
            Opcode::Mov | Opcode::And | Opcode::Or => d.operands.iter().skip(1).any(|o| match o {
                Operand::Reg(r) => from_match_any(func, fa, i, *r, depth - 1),
                _ => false,
            }),
            _ => false,
        }
    })
}
