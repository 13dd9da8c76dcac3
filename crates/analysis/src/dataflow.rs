//! A generic forward dataflow engine in the style of rustc's `rustc_mir_dataflow`: an
//! [`Analysis`] supplies its domain, the entry state, a join that says whether it changed
//! anything, and per-instruction and per-edge transfer functions; [`solve`] runs a worklist in
//! reverse post-order until block entry states stop changing.
//!
//! Joins receive the block they join into, so an analysis can merge differently where paths
//! of a thread-dependent branch reconverge (GPUDrano's Φ merge, see [`crate::drano`]).

use cranelift_entity::{EntityRef, SecondaryMap};
use std::collections::VecDeque;
use warpscope_ir::{Block, ControlFlowGraph, Function, Inst};

/// A forward dataflow problem over one function.
pub trait Analysis {
    type Domain: Clone + PartialEq;

    /// The state of a block no path has reached yet.
    fn bottom(&self) -> Self::Domain;

    /// The state on entry to the function.
    fn entry_state(&self) -> Self::Domain;

    /// Joins `from` (the state leaving a predecessor along an edge) into `into`, the entry
    /// state of `target`; returns whether `into` changed.
    fn join(&self, target: Block, into: &mut Self::Domain, from: &Self::Domain) -> bool;

    /// Applies one instruction.
    fn transfer(&self, func: &Function, inst: Inst, state: &mut Self::Domain);

    /// Refines the state leaving `from` along the edge to `to` (e.g. what a branch condition
    /// says about the active threads). Default: unchanged.
    fn edge(&self, _func: &Function, _from: Block, _to: Block, _state: &mut Self::Domain) {}
}

/// Entry states of every reachable block at the fixpoint.
#[derive(Debug, Clone)]
pub struct Results<D: Clone> {
    entry: SecondaryMap<Block, Option<D>>,
}

impl<D: Clone> Results<D> {
    /// The state on entry to `b` (`None` if unreachable).
    pub fn entry(&self, b: Block) -> Option<&D> {
        self.entry[b].as_ref()
    }
}

impl<D: Clone + PartialEq> Results<D> {
    /// The state just before `inst`, recomputed from its block's entry state.
    pub fn before<A: Analysis<Domain = D>>(
        &self,
        analysis: &A,
        func: &Function,
        inst: Inst,
    ) -> Option<D> {
        let b = func.inst_block[inst];
        let mut s = self.entry(b)?.clone();
        for &i in &func.blocks[b].insts {
            if i == inst {
                return Some(s);
            }
            analysis.transfer(func, i, &mut s);
        }
        None
    }
}

/// Runs `analysis` over `func` to a fixpoint.
pub fn solve<A: Analysis>(
    analysis: &A,
    func: &Function,
    cfg: &ControlFlowGraph,
) -> Results<A::Domain> {
    let mut entry: SecondaryMap<Block, Option<A::Domain>> = SecondaryMap::new();
    let Some(start) = cfg.entry() else {
        return Results { entry };
    };
    entry[start] = Some(analysis.entry_state());
    // Worklist ordered by reverse post-order position.
    let rpo = cfg.rpo();
    let mut queued = vec![false; cfg.num_blocks()];
    let mut work: VecDeque<Block> = VecDeque::new();
    work.push_back(start);
    queued[start.index()] = true;
    // Visit budget guards against a non-monotone analysis looping forever.
    let mut budget = 64 * (rpo.len() + 1) * (rpo.len() + 1) + 4096;
    while let Some(b) = work.pop_front() {
        queued[b.index()] = false;
        if budget == 0 {
            break;
        }
        budget -= 1;
        let Some(mut state) = entry[b].clone() else {
            continue;
        };
        for &i in &func.blocks[b].insts {
            analysis.transfer(func, i, &mut state);
        }
        for &s in cfg.succs(b) {
            let mut out = state.clone();
            analysis.edge(func, b, s, &mut out);
            let changed = match &mut entry[s] {
                Some(cur) => analysis.join(s, cur, &out),
                slot @ None => {
                    let mut fresh = analysis.bottom();
                    analysis.join(s, &mut fresh, &out);
                    *slot = Some(fresh);
                    true
                }
            };
            if changed && !queued[s.index()] {
                queued[s.index()] = true;
                // Keep the queue roughly in reverse post-order.
                let pos = cfg.rpo_index(s).unwrap_or(u32::MAX);
                let at = work
                    .iter()
                    .position(|&q| cfg.rpo_index(q).unwrap_or(u32::MAX) > pos)
                    .unwrap_or(work.len());
                work.insert(at, s);
            }
        }
    }
    Results { entry }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_ir::FunctionAnalyses;

    /// Counts the longest path length (in instructions) to each block, saturating: a toy
    /// analysis that checks ordering, joins and loop termination.
    struct MaxLen;

    impl Analysis for MaxLen {
        type Domain = u32;
        fn bottom(&self) -> u32 {
            0
        }
        fn entry_state(&self) -> u32 {
            0
        }
        fn join(&self, _t: Block, into: &mut u32, from: &u32) -> bool {
            let n = (*into).max(*from).min(100);
            let c = n != *into;
            *into = n;
            c
        }
        fn transfer(&self, _f: &Function, _i: Inst, s: &mut u32) {
            *s = (*s + 1).min(100);
        }
    }

    #[test]
    fn loops_saturate_and_diamonds_join() {
        let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra A;
  add.s32 %r2, %r1, 1;
  add.s32 %r2, %r2, 1;
A:
  add.s32 %r3, %r1, 2;
L:
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 100;
  @%p2 bra L;
  ret;
}
"#;
        let (ast, errs) = warpscope_ptx::parse(ptx);
        assert!(errs.is_empty(), "{errs:?}");
        let (m, errs) = warpscope_ir::lower_module(ast);
        assert!(errs.is_empty());
        let f = &m.funcs.values().next().unwrap();
        let fa = FunctionAnalyses::compute(f);
        let r = solve(&MaxLen, f, &fa.cfg);
        let blocks: Vec<Block> = fa.cfg.rpo().to_vec();
        // Entry 0; the join after the diamond sees the longer arm (3 + 2 = 5).
        assert_eq!(r.entry(blocks[0]), Some(&0));
        let join = f.inst_block[f.insts.keys().nth(5).unwrap()];
        assert_eq!(r.entry(join), Some(&5));
        // The loop header saturates at 100.
        let header = f.inst_block[f.insts.keys().nth(6).unwrap()];
        assert_eq!(r.entry(header), Some(&100));
    }
}
