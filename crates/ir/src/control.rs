//! Control structure built on the CFG and its trees: conditional branches and their guard
//! predicates, control dependence (Ferrante et al., from the post-dominator tree), the
//! *divergent region* of a branch (blocks between the branch and its reconvergence point, its
//! immediate post-dominator), back edges and loop membership queries.

use crate::{Block, Function, FunctionAnalyses, Guard, Inst, Loop, Operand};
use cranelift_entity::{EntityRef, SecondaryMap};
use smallvec::SmallVec;
use warpscope_ptx::Opcode;

/// A block-ending instruction that may send lanes two ways: `@p bra`, or a guarded
/// `ret`/`exit` (an early return).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CondBranch {
    pub inst: Inst,
    pub block: Block,
    pub guard: Guard,
    /// The target taken when the guard holds (`None` for a guarded return: lanes leave).
    pub taken: Option<Block>,
    /// The fall-through successor (`None` at the end of the body).
    pub fallthrough: Option<Block>,
}

/// The conditional branch ending `b`, if any.
pub fn cond_branch(func: &Function, b: Block) -> Option<CondBranch> {
    let inst = func.last_inst(b)?;
    let data = &func.insts[inst];
    let guard = data.guard?;
    let next = Block::new(b.index() + 1);
    let fallthrough = (next.index() < func.blocks.len()).then_some(next);
    match data.op {
        Opcode::Bra => {
            let taken = data.operands.iter().find_map(|o| match o {
                Operand::Label(t) => Some(*t),
                _ => None,
            });
            if taken == fallthrough {
                return None;
            }
            Some(CondBranch {
                inst,
                block: b,
                guard,
                taken,
                fallthrough,
            })
        }
        Opcode::Ret | Opcode::Exit => Some(CondBranch {
            inst,
            block: b,
            guard,
            taken: None,
            fallthrough,
        }),
        _ => None,
    }
}

/// Per-function control facts.
#[derive(Debug, Clone, Default)]
pub struct ControlInfo {
    /// Blocks each block is control dependent on (the branch blocks deciding whether it runs).
    pub deps: SecondaryMap<Block, SmallVec<[Block; 2]>>,
    /// The loop whose header each block is, if any.
    pub header_of: SecondaryMap<Block, Option<Loop>>,
}

impl ControlInfo {
    /// Computes control dependences: for each edge `a -> s` where `s` does not post-dominate
    /// `a`, every block on the post-dominator tree path from `s` up to (not including)
    /// `ipdom(a)` depends on `a`.
    pub fn compute(func: &Function, fa: &FunctionAnalyses) -> ControlInfo {
        let mut info = ControlInfo::default();
        for &a in fa.cfg.rpo() {
            let succs = fa.cfg.succs(a);
            if succs.len() < 2 && cond_branch(func, a).is_none_or(|c| c.taken.is_some()) {
                continue;
            }
            let stop = fa.postdom.ipdom(a);
            for &s in succs {
                let mut cur = Some(s);
                let mut guard = 0;
                while let Some(c) = cur {
                    if Some(c) == stop || guard > func.blocks.len() {
                        break;
                    }
                    if !info.deps[c].contains(&a) {
                        info.deps[c].push(a);
                    }
                    cur = fa.postdom.ipdom(c);
                    guard += 1;
                }
            }
        }
        for (l, data) in fa.loops.loops() {
            info.header_of[data.header] = Some(l);
        }
        info
    }
}

/// Whether `from -> to` is a back edge (its target dominates its source).
pub fn is_back_edge(fa: &FunctionAnalyses, from: Block, to: Block) -> bool {
    fa.domtree.dominates(to, from)
}

/// Blocks of the divergent region of the branch ending `b`: those reachable from its
/// successors without passing through its reconvergence point `ipdom(b)`. Lanes that took
/// different sides are apart in exactly these blocks.
pub fn divergent_region(fa: &FunctionAnalyses, b: Block) -> Vec<bool> {
    let n = fa.cfg.num_blocks();
    let stop = fa.postdom.ipdom(b);
    let mut seen = vec![false; n];
    let mut stack: Vec<Block> = fa.cfg.succs(b).to_vec();
    while let Some(x) = stack.pop() {
        if Some(x) == stop || seen[x.index()] {
            continue;
        }
        seen[x.index()] = true;
        stack.extend(fa.cfg.succs(x).iter().copied());
    }
    seen
}

/// Whether loop `l` contains block `b`.
pub fn loop_contains(fa: &FunctionAnalyses, l: Loop, b: Block) -> bool {
    fa.loops.get(l).blocks.binary_search(&b).is_ok()
}

/// Loops containing `b`, outermost first.
pub fn loop_nest(fa: &FunctionAnalyses, b: Block) -> Vec<Loop> {
    let mut v = Vec::new();
    let mut cur = fa.loops.innermost(b);
    while let Some(l) = cur {
        v.push(l);
        cur = fa.loops.get(l).parent;
    }
    v.reverse();
    v
}
