//! Control-flow graph: successors and predecessors of every block, and a reverse post-order.

use crate::entities::Block;
use cranelift_entity::{EntityRef, SecondaryMap};
use smallvec::SmallVec;

/// Edges of one function's control-flow graph, both directions.
///
/// Invariants: `succs[b]` lists each successor of `b` once, in terminator order (for a
/// conditional branch: taken target first, then fall-through); `preds` is its exact inverse;
/// `rpo` lists the blocks reachable from `entry` in reverse post-order (entry first).
#[derive(Debug, Clone, Default)]
pub struct ControlFlowGraph {
    entry: Option<Block>,
    succs: SecondaryMap<Block, SmallVec<[Block; 2]>>,
    preds: SecondaryMap<Block, SmallVec<[Block; 2]>>,
    rpo: Vec<Block>,
    rpo_index: SecondaryMap<Block, u32>,
    exiting: SecondaryMap<Block, bool>,
    num_blocks: usize,
}

/// Marker in `rpo_index` for blocks unreachable from the entry.
const UNREACHABLE: u32 = u32::MAX;

impl ControlFlowGraph {
    /// The control-flow graph of `func` (empty for a declaration).
    pub fn with_function(func: &crate::Function) -> Self {
        match func.entry() {
            Some(entry) => Self::from_edges(func.blocks.len(), entry, |b| func.successors(b)),
            None => Self::default(),
        }
    }

    /// Builds the graph of `num_blocks` blocks (`block0..`), rooted at `entry`, asking
    /// `edges_of` for each block's successors and whether control may leave the function
    /// from it.
    pub fn from_edges<I>(
        num_blocks: usize,
        entry: Block,
        mut edges_of: impl FnMut(Block) -> (I, bool),
    ) -> Self
    where
        I: IntoIterator<Item = Block>,
    {
        let mut cfg = ControlFlowGraph {
            entry: Some(entry),
            num_blocks,
            ..Default::default()
        };
        for i in 0..num_blocks {
            let b = Block::new(i);
            let mut list: SmallVec<[Block; 2]> = SmallVec::new();
            let (succs, exiting) = edges_of(b);
            cfg.exiting[b] = exiting;
            for s in succs {
                if !list.contains(&s) {
                    list.push(s);
                }
            }
            for &s in &list {
                cfg.preds[s].push(b);
            }
            cfg.succs[b] = list;
        }
        cfg.compute_rpo();
        cfg
    }

    fn compute_rpo(&mut self) {
        let Some(entry) = self.entry else { return };
        let mut visited = vec![false; self.num_blocks];
        let mut post = Vec::with_capacity(self.num_blocks);
        // Iterative DFS: (block, next successor index).
        let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
        visited[entry.index()] = true;
        while let Some(top) = stack.last_mut() {
            let (b, i) = *top;
            if let Some(&s) = self.succs[b].get(i) {
                top.1 += 1;
                if !visited[s.index()] {
                    visited[s.index()] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post.reverse();
        for i in 0..self.num_blocks {
            self.rpo_index[Block::new(i)] = UNREACHABLE;
        }
        for (i, &b) in post.iter().enumerate() {
            self.rpo_index[b] = i as u32;
        }
        self.rpo = post;
    }

    /// The entry block.
    pub fn entry(&self) -> Option<Block> {
        self.entry
    }

    /// Number of blocks the graph was built over (reachable or not).
    pub fn num_blocks(&self) -> usize {
        self.num_blocks
    }

    /// Successors of `b`, taken target first.
    pub fn succs(&self, b: Block) -> &[Block] {
        &self.succs[b]
    }

    /// Predecessors of `b`.
    pub fn preds(&self, b: Block) -> &[Block] {
        &self.preds[b]
    }

    /// Reachable blocks in reverse post-order, entry first.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Position of `b` in [`Self::rpo`], or `None` if unreachable from the entry.
    pub fn rpo_index(&self, b: Block) -> Option<u32> {
        let i = self.rpo_index[b];
        (i != UNREACHABLE).then_some(i)
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_index(b).is_some()
    }

    /// Whether control may leave the function from `b`: it ends in `ret`/`exit`/`trap`
    /// (guarded or not), falls off the end of the body, or has no successors.
    pub fn is_exiting(&self, b: Block) -> bool {
        self.exiting[b] || self.succs[b].is_empty()
    }

    /// Blocks from which control may leave the function.
    pub fn exits(&self) -> impl Iterator<Item = Block> + '_ {
        (0..self.num_blocks)
            .map(Block::new)
            .filter(|&b| self.is_exiting(b))
    }
}
