//! The call graph: direct calls between functions, indirect call sites, and a bottom-up order
//! (callees before callers) with recursion detected.

use crate::entities::{FuncId, Inst};
use crate::function::{Module, Operand};
use cranelift_entity::{EntityRef, SecondaryMap};
use warpscope_ptx::Opcode;

/// One call instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallSite {
    pub caller: FuncId,
    pub inst: Inst,
    /// The callee of a direct call; `None` for an indirect call through a register.
    pub callee: Option<FuncId>,
}

/// Calls between the functions of a module.
#[derive(Debug, Clone, Default)]
pub struct CallGraph {
    sites: Vec<CallSite>,
    callees: SecondaryMap<FuncId, Vec<usize>>,
    callers: SecondaryMap<FuncId, Vec<usize>>,
    recursive: SecondaryMap<FuncId, bool>,
    bottom_up: Vec<FuncId>,
}

impl CallGraph {
    /// Builds the call graph of `module`.
    pub fn with_module(module: &Module) -> CallGraph {
        let mut g = CallGraph::default();
        for (fid, f) in module.funcs.iter() {
            for (_, inst) in f.insts_in_order() {
                let data = &f.insts[inst];
                if data.op != Opcode::Call {
                    continue;
                }
                let callee = data.operands.iter().find_map(|o| match o {
                    Operand::Func(t) => Some(*t),
                    _ => None,
                });
                let idx = g.sites.len();
                g.sites.push(CallSite {
                    caller: fid,
                    inst,
                    callee,
                });
                g.callees[fid].push(idx);
                if let Some(c) = callee {
                    g.callers[c].push(idx);
                }
            }
        }
        g.order(module);
        g
    }

    /// Tarjan's SCCs give callees-first order; functions in a cycle are recursive.
    fn order(&mut self, module: &Module) {
        let n = module.funcs.len();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut counter = 0usize;
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|f| {
                self.callees[FuncId::new(f)]
                    .iter()
                    .filter_map(|&s| self.sites[s].callee.map(|c| c.index()))
                    .collect()
            })
            .collect();
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            // Iterative Tarjan: (node, next successor position).
            let mut work: Vec<(usize, usize)> = vec![(root, 0)];
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut pos)) = work.last_mut() {
                if let Some(&w) = succs[v].get(*pos) {
                    *pos += 1;
                    if index[w] == usize::MAX {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                } else {
                    work.pop();
                    if let Some(&(parent, _)) = work.last() {
                        low[parent] = low[parent].min(low[v]);
                    }
                    if low[v] == index[v] {
                        let mut scc = Vec::new();
                        while let Some(w) = stack.pop() {
                            on_stack[w] = false;
                            scc.push(w);
                            if w == v {
                                break;
                            }
                        }
                        let cyclic = scc.len() > 1 || succs[v].contains(&v);
                        for &w in &scc {
                            self.recursive[FuncId::new(w)] = cyclic;
                            self.bottom_up.push(FuncId::new(w));
                        }
                    }
                }
            }
        }
    }

    /// All call sites.
    pub fn sites(&self) -> &[CallSite] {
        &self.sites
    }

    /// Call sites inside `f`.
    pub fn calls_from(&self, f: FuncId) -> impl Iterator<Item = &CallSite> {
        self.callees[f].iter().map(|&i| &self.sites[i])
    }

    /// Call sites that call `f` directly.
    pub fn calls_to(&self, f: FuncId) -> impl Iterator<Item = &CallSite> {
        self.callers[f].iter().map(|&i| &self.sites[i])
    }

    /// Whether `f` is part of a recursive cycle (including calling itself).
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.recursive[f]
    }

    /// Every function, callees before their callers (members of a cycle in arbitrary order).
    pub fn bottom_up(&self) -> &[FuncId] {
        &self.bottom_up
    }
}
