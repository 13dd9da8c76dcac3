//! Natural loops: one per loop header, found from back edges (`latch -> header` where the
//! header dominates the latch), nested by containment.

use crate::cfg::ControlFlowGraph;
use crate::dominators::DominatorTree;
use crate::entities::{Block, Loop};
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};

/// One natural loop.
#[derive(Debug, Clone)]
pub struct LoopData {
    /// The loop header: the single entry block, target of every back edge.
    pub header: Block,
    /// Blocks with a back edge to the header.
    pub latches: Vec<Block>,
    /// All blocks of the loop (header included), sorted by index.
    pub blocks: Vec<Block>,
    /// Edges leaving the loop: `(inside, outside)`.
    pub exits: Vec<(Block, Block)>,
    /// The innermost enclosing loop.
    pub parent: Option<Loop>,
    /// Nesting depth: 1 for an outermost loop.
    pub depth: u32,
}

/// The natural loops of a function and, per block, the innermost loop containing it.
#[derive(Debug, Clone, Default)]
pub struct LoopAnalysis {
    loops: PrimaryMap<Loop, LoopData>,
    innermost: SecondaryMap<Block, PackedOption<Loop>>,
}

impl LoopAnalysis {
    /// Finds the natural loops of `cfg`.
    pub fn with_cfg(cfg: &ControlFlowGraph, domtree: &DominatorTree) -> Self {
        let n = cfg.num_blocks();
        // Headers in reverse post-order, each with its latches.
        let mut headers: Vec<(Block, Vec<Block>)> = Vec::new();
        for &h in cfg.rpo() {
            let latches: Vec<Block> = cfg
                .preds(h)
                .iter()
                .copied()
                .filter(|&p| cfg.is_reachable(p) && domtree.dominates(h, p))
                .collect();
            if !latches.is_empty() {
                headers.push((h, latches));
            }
        }
        let mut loops: PrimaryMap<Loop, LoopData> = PrimaryMap::new();
        let mut member: Vec<Vec<bool>> = Vec::new();
        for (header, latches) in headers {
            let mut inside = vec![false; n];
            inside[header.index()] = true;
            let mut work: Vec<Block> = latches.clone();
            while let Some(b) = work.pop() {
                if inside[b.index()] {
                    continue;
                }
                inside[b.index()] = true;
                work.extend(
                    cfg.preds(b)
                        .iter()
                        .copied()
                        .filter(|&p| cfg.is_reachable(p)),
                );
            }
            let blocks: Vec<Block> = (0..n).filter(|&i| inside[i]).map(Block::new).collect();
            let mut exits = Vec::new();
            for &b in &blocks {
                for &s in cfg.succs(b) {
                    if !inside[s.index()] {
                        exits.push((b, s));
                    }
                }
            }
            loops.push(LoopData {
                header,
                latches,
                blocks,
                exits,
                parent: None,
                depth: 1,
            });
            member.push(inside);
        }
        // Parent: the smallest other loop containing this loop's header.
        let ids: Vec<Loop> = loops.keys().collect();
        for &l in &ids {
            let h = loops[l].header;
            let mut best: Option<Loop> = None;
            for &o in &ids {
                if o == l || !member[o.index()][h.index()] {
                    continue;
                }
                if loops[o].blocks.len() <= loops[l].blocks.len() {
                    continue;
                }
                if best.is_none_or(|b| loops[o].blocks.len() < loops[b].blocks.len()) {
                    best = Some(o);
                }
            }
            loops[l].parent = best;
        }
        for &l in &ids {
            let mut d = 1;
            let mut p = loops[l].parent;
            while let Some(q) = p {
                d += 1;
                p = loops[q].parent;
                if d as usize > ids.len() {
                    break;
                }
            }
            loops[l].depth = d;
        }
        let mut innermost: SecondaryMap<Block, PackedOption<Loop>> = SecondaryMap::new();
        for &l in &ids {
            for &b in &loops[l].blocks {
                let replace = match innermost[b].expand() {
                    None => true,
                    Some(cur) => loops[l].depth > loops[cur].depth,
                };
                if replace {
                    innermost[b] = l.into();
                }
            }
        }
        LoopAnalysis { loops, innermost }
    }

    /// All loops, outer loops before the loops they contain.
    pub fn loops(&self) -> impl Iterator<Item = (Loop, &LoopData)> {
        self.loops.iter()
    }

    /// One loop's data.
    pub fn get(&self, l: Loop) -> &LoopData {
        &self.loops[l]
    }

    /// The innermost loop containing `b`.
    pub fn innermost(&self, b: Block) -> Option<Loop> {
        self.innermost[b].expand()
    }

    /// Whether `b` is the header of a loop.
    pub fn is_header(&self, b: Block) -> bool {
        self.innermost(b).is_some_and(|l| self.loops[l].header == b)
    }

    /// Loop nesting depth of `b` (0 outside any loop).
    pub fn depth(&self, b: Block) -> u32 {
        self.innermost(b).map_or(0, |l| self.loops[l].depth)
    }

    /// Whether loop `outer` contains block `b`.
    pub fn contains(&self, outer: Loop, b: Block) -> bool {
        self.loops[outer].blocks.binary_search(&b).is_ok()
    }
}
