//! Dominator and post-dominator trees (Cooper, Harvey & Kennedy's iterative algorithm).
//!
//! The post-dominator tree runs the same algorithm on the reversed graph rooted at a virtual
//! exit that every exit block flows into. The immediate post-dominator of a branch's block is
//! where the warp's divergent paths reconverge (the classic SIMT stack's reconvergence point).

use crate::cfg::ControlFlowGraph;
use crate::entities::Block;
use cranelift_entity::EntityRef;

/// Dense-index idom computation. `succ`/`pred` describe the graph over `0..n`; returns the
/// immediate dominator of each node (`root` maps to itself, unreachable nodes to `None`) and
/// the reverse post-order that was used.
fn compute_idoms(
    n: usize,
    root: usize,
    succ: &dyn Fn(usize) -> Vec<usize>,
    pred: &dyn Fn(usize) -> Vec<usize>,
) -> (Vec<Option<usize>>, Vec<usize>) {
    // Reverse post-order by iterative DFS.
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(root, succ(root), 0)];
    visited[root] = true;
    while let Some(top) = stack.last_mut() {
        if let Some(&s) = top.1.get(top.2) {
            top.2 += 1;
            if !visited[s] {
                visited[s] = true;
                let ss = succ(s);
                stack.push((s, ss, 0));
            }
        } else {
            post.push(top.0);
            stack.pop();
        }
    }
    let mut po_num = vec![usize::MAX; n];
    for (i, &b) in post.iter().enumerate() {
        po_num[b] = i;
    }
    let rpo: Vec<usize> = post.iter().rev().copied().collect();
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while po_num[a] < po_num[b] {
                a = idom[a].unwrap_or(root);
            }
            while po_num[b] < po_num[a] {
                b = idom[b].unwrap_or(root);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new_idom: Option<usize> = None;
            for p in pred(b) {
                if po_num[p] == usize::MAX || idom[p].is_none() {
                    continue;
                }
                new_idom = Some(match new_idom {
                    None => p,
                    Some(cur) => intersect(&idom, p, cur),
                });
            }
            if new_idom.is_some() && idom[b] != new_idom {
                idom[b] = new_idom;
                changed = true;
            }
        }
    }
    (idom, rpo)
}

/// A tree of immediate (post-)dominators over the blocks of one function.
#[derive(Debug, Clone, Default)]
struct Tree {
    /// Immediate dominator per block index; `None` for the root, for the virtual exit's
    /// children in a post-dominator tree, and for unreachable blocks.
    idom: Vec<Option<Block>>,
    /// Whether the block is in the tree at all.
    present: Vec<bool>,
    /// Pre-order number and subtree end, for O(1) dominance queries.
    pre: Vec<u32>,
    pre_end: Vec<u32>,
}

impl Tree {
    fn build(n: usize, idom: Vec<Option<Block>>, present: Vec<bool>) -> Tree {
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for i in 0..n {
            if !present[i] {
                continue;
            }
            match idom[i] {
                Some(p) => children[p.index()].push(i),
                None => roots.push(i),
            }
        }
        let mut pre = vec![u32::MAX; n];
        let mut pre_end = vec![u32::MAX; n];
        let mut counter = 0u32;
        for r in roots {
            let mut stack: Vec<(usize, usize)> = vec![(r, 0)];
            pre[r] = counter;
            counter += 1;
            while let Some(top) = stack.last_mut() {
                let (b, i) = *top;
                if let Some(&c) = children[b].get(i) {
                    top.1 += 1;
                    pre[c] = counter;
                    counter += 1;
                    stack.push((c, 0));
                } else {
                    pre_end[b] = counter;
                    stack.pop();
                }
            }
        }
        Tree {
            idom,
            present,
            pre,
            pre_end,
        }
    }

    fn dominates(&self, a: Block, b: Block) -> bool {
        let (a, b) = (a.index(), b.index());
        if a >= self.present.len()
            || b >= self.present.len()
            || !self.present[a]
            || !self.present[b]
        {
            return false;
        }
        self.pre[a] <= self.pre[b] && self.pre[b] < self.pre_end[a]
    }
}

/// The dominator tree of a function: `a` dominates `b` when every path from the entry to `b`
/// passes through `a`.
#[derive(Debug, Clone, Default)]
pub struct DominatorTree {
    tree: Tree,
}

impl DominatorTree {
    /// Computes the dominator tree of `cfg`.
    pub fn with_cfg(cfg: &ControlFlowGraph) -> Self {
        let n = cfg.num_blocks();
        let Some(entry) = cfg.entry() else {
            return Self::default();
        };
        let succ = |i: usize| cfg.succs(Block::new(i)).iter().map(|b| b.index()).collect();
        let pred = |i: usize| cfg.preds(Block::new(i)).iter().map(|b| b.index()).collect();
        let (idom, _) = compute_idoms(n, entry.index(), &succ, &pred);
        let present: Vec<bool> = idom.iter().map(|d| d.is_some()).collect();
        let idom = idom
            .iter()
            .enumerate()
            .map(|(i, d)| d.filter(|&d| d != i).map(Block::new))
            .collect();
        DominatorTree {
            tree: Tree::build(n, idom, present),
        }
    }

    /// The immediate dominator of `b` (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: Block) -> Option<Block> {
        self.tree.idom.get(b.index()).copied().flatten()
    }

    /// Whether `a` dominates `b` (reflexive).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        self.tree.dominates(a, b)
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.tree.present.get(b.index()).copied().unwrap_or(false)
    }
}

/// The post-dominator tree of a function: `a` post-dominates `b` when every path from `b` to
/// an exit passes through `a`. Blocks from which no exit is reachable (infinite loops) are
/// attached to the virtual exit through their loop, so every reachable block is in the tree.
#[derive(Debug, Clone, Default)]
pub struct PostDominatorTree {
    tree: Tree,
}

impl PostDominatorTree {
    /// Computes the post-dominator tree of `cfg`.
    pub fn with_cfg(cfg: &ControlFlowGraph) -> Self {
        let n = cfg.num_blocks();
        let exit = n; // virtual exit node
        // Exit blocks (no successors) among the reachable ones.
        let mut roots: Vec<usize> = cfg
            .rpo()
            .iter()
            .filter(|&&b| cfg.is_exiting(b))
            .map(|b| b.index())
            .collect();
        let mut idom;
        loop {
            let succ = |i: usize| -> Vec<usize> {
                if i == exit {
                    roots.clone()
                } else {
                    cfg.preds(Block::new(i)).iter().map(|b| b.index()).collect()
                }
            };
            let pred = |i: usize| -> Vec<usize> {
                if i == exit {
                    Vec::new()
                } else {
                    let b = Block::new(i);
                    let mut v: Vec<usize> = cfg.succs(b).iter().map(|b| b.index()).collect();
                    if roots.contains(&i) {
                        v.push(exit);
                    }
                    v
                }
            };
            let (d, _) = compute_idoms(n + 1, exit, &succ, &pred);
            idom = d;
            // Any reachable block not reaching the exit sits in an infinite loop: connect the
            // last such block in reverse post-order (a loop's latch-side block) and retry.
            let missing = cfg.rpo().iter().rev().find(|b| idom[b.index()].is_none());
            match missing {
                Some(b) => roots.push(b.index()),
                None => break,
            }
        }
        let present: Vec<bool> = (0..n)
            .map(|i| cfg.is_reachable(Block::new(i)) && idom[i].is_some())
            .collect();
        let idom: Vec<Option<Block>> = (0..n)
            .map(|i| {
                idom[i]
                    .filter(|&d| present[i] && d != exit && d != i)
                    .map(Block::new)
            })
            .collect();
        PostDominatorTree {
            tree: Tree::build(n, idom, present),
        }
    }

    /// The immediate post-dominator of `b`: the reconvergence point of a branch ending `b`.
    /// `None` when paths from `b` only meet at the function's exit.
    pub fn ipdom(&self, b: Block) -> Option<Block> {
        self.tree.idom.get(b.index()).copied().flatten()
    }

    /// Whether `a` post-dominates `b` (reflexive).
    pub fn post_dominates(&self, a: Block, b: Block) -> bool {
        self.tree.dominates(a, b)
    }
}
