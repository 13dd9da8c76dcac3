//! Dominator, post-dominator and loop analyses agree with their definitions on random CFGs.

use cranelift_entity::EntityRef;
use proptest::prelude::*;
use warpscope_ir::{Block, ControlFlowGraph, DominatorTree, LoopAnalysis, PostDominatorTree};

/// A random graph: `n` blocks, each with up to two successors; some blocks exit.
fn graph() -> impl Strategy<Value = (usize, Vec<(Vec<usize>, bool)>)> {
    (2usize..12).prop_flat_map(|n| {
        let node = (prop::collection::vec(0..n, 0..=2), any::<bool>());
        (Just(n), prop::collection::vec(node, n))
    })
}

fn build(n: usize, g: &[(Vec<usize>, bool)]) -> ControlFlowGraph {
    ControlFlowGraph::from_edges(n, Block::new(0), |b| {
        let (s, e) = &g[b.index()];
        (s.iter().map(|&i| Block::new(i)).collect::<Vec<_>>(), *e)
    })
}

/// Nodes reachable from `from` without passing through `avoid`.
fn reach(cfg: &ControlFlowGraph, from: Block, avoid: Option<Block>) -> Vec<bool> {
    let mut seen = vec![false; cfg.num_blocks()];
    if Some(from) == avoid {
        return seen;
    }
    let mut work = vec![from];
    seen[from.index()] = true;
    while let Some(b) = work.pop() {
        for &s in cfg.succs(b) {
            if Some(s) != avoid && !seen[s.index()] {
                seen[s.index()] = true;
                work.push(s);
            }
        }
    }
    seen
}

proptest! {
    #[test]
    fn dominators_match_definition((n, g) in graph()) {
        let cfg = build(n, &g);
        let dom = DominatorTree::with_cfg(&cfg);
        let entry = Block::new(0);
        let reachable = reach(&cfg, entry, None);
        for a in 0..n {
            let without_a = reach(&cfg, entry, Some(Block::new(a)));
            for b in 0..n {
                if !reachable[a] || !reachable[b] {
                    prop_assert!(!dom.dominates(Block::new(a), Block::new(b)) || a == b && reachable[a]);
                    continue;
                }
                let expected = a == b || !without_a[b];
                prop_assert_eq!(dom.dominates(Block::new(a), Block::new(b)), expected, "a={} b={}", a, b);
            }
        }
    }

    #[test]
    fn post_dominators_match_definition((n, g) in graph()) {
        let cfg = build(n, &g);
        let reachable = reach(&cfg, Block::new(0), None);
        // Only graphs where every reachable block can reach an exit (no infinite loops):
        // there the definition is unambiguous.
        let reaches_exit = |b: usize, avoid: Option<Block>| {
            let r = reach(&cfg, Block::new(b), avoid);
            (0..n).any(|x| r[x] && cfg.is_exiting(Block::new(x)))
        };
        prop_assume!((0..n).all(|b| !reachable[b] || reaches_exit(b, None)));
        let pdom = PostDominatorTree::with_cfg(&cfg);
        for a in 0..n {
            for b in 0..n {
                if !reachable[a] || !reachable[b] {
                    continue;
                }
                let expected = a == b || !reaches_exit(b, Some(Block::new(a)));
                prop_assert_eq!(pdom.post_dominates(Block::new(a), Block::new(b)), expected, "a={} b={}", a, b);
            }
            // The immediate post-dominator post-dominates and is the closest one.
            if let Some(p) = pdom.ipdom(Block::new(a)) {
                prop_assert!(pdom.post_dominates(p, Block::new(a)));
                for c in 0..n {
                    let c = Block::new(c);
                    if c != Block::new(a) && reachable[c.index()] && pdom.post_dominates(c, Block::new(a)) {
                        prop_assert!(pdom.post_dominates(c, p), "{} pdoms {} but not its ipdom {}", c, a, p);
                    }
                }
            }
        }
    }

    #[test]
    fn loop_headers_dominate_their_blocks((n, g) in graph()) {
        let cfg = build(n, &g);
        let dom = DominatorTree::with_cfg(&cfg);
        let loops = LoopAnalysis::with_cfg(&cfg, &dom);
        for (l, data) in loops.loops() {
            for &b in &data.blocks {
                prop_assert!(dom.dominates(data.header, b));
                prop_assert!(loops.contains(l, b));
            }
            for &latch in &data.latches {
                prop_assert!(cfg.succs(latch).contains(&data.header));
            }
            if let Some(p) = data.parent {
                prop_assert!(loops.get(p).depth + 1 == data.depth);
                for &b in &data.blocks {
                    prop_assert!(loops.contains(p, b));
                }
            }
        }
    }
}

#[test]
fn infinite_loops_still_get_post_dominators() {
    // 0 -> 1 -> 2 -> 1 (no exit from the loop), 0 -> 3 (exit)
    let g = [
        (vec![1, 3], false),
        (vec![2], false),
        (vec![1], false),
        (vec![], true),
    ];
    let cfg = build(4, &g);
    let pdom = PostDominatorTree::with_cfg(&cfg);
    assert!(
        pdom.post_dominates(Block::new(1), Block::new(2))
            || pdom.post_dominates(Block::new(2), Block::new(1))
    );
    assert_eq!(pdom.ipdom(Block::new(0)), None);
}
